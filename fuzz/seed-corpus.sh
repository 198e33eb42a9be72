#!/bin/sh
# Seeds fuzz/corpus/<target>/ from the shipped data and test fixtures.
# Each seed starts with the byte the target reads first (which file, game or
# format); run from the project root: sh fuzz/seed-corpus.sh
set -eu
cd "$(dirname "$0")/.."
c=fuzz/corpus
mkdir -p "$c/pack_yaml" "$c/deck_list" "$c/game_log" "$c/sheet" "$c/po_import" "$c/art" "$c/deck_batch"
seed() { # seed <dir> <first byte as octal escape> <file> <name>
    { printf "$2"; cat "$3"; } > "$1/$4"
}
# Pack YAML: each file of the minimal pack (the target replaces file n), and shipped files.
i=0
for f in $(find tests/fixtures/minimal/demo -name '*.yaml' | sort); do
    seed "$c/pack_yaml" "\\$(printf '%03o' $i)" "$f" "minimal-$i.yaml"; i=$((i + 1))
done
for f in $(find data -name '*.yaml' -size -64k | sort); do
    seed "$c/pack_yaml" '\001' "$f" "$(echo "$f" | tr / _)"
done
# Deck lists: the game's index among the shipped packs (sorted), +128 for YAML.
g=0
for game in $(ls data | sort); do
    for f in $(find "data/$game/decks" "tests/fixtures/decks/$game" -type f 2>/dev/null | sort); do
        case "$f" in *.yaml) b=$((g + 128)) ;; *) b=$g ;; esac
        seed "$c/deck_list" "\\$(printf '%03o' $b)" "$f" "$(echo "$f" | tr / _)"
    done
    g=$((g + 1))
done
# Game logs: as they are.
for f in $(find tests/fixtures/logs data/*/logs -name '*.yaml' | sort); do
    cp "$f" "$c/game_log/$(echo "$f" | tr / _)"
done
# Sheets (CSV): every kind of Open Wars, as export-sheet writes it.
k=0
for kind in $(ls data/openwars/components | sed 's/\.yaml$//' | sort); do
    if cargo run -q -- export-sheet openwars "$kind" -o "$c/sheet/.tmp.csv" >/dev/null 2>&1; then
        seed "$c/sheet" "\\$(printf '%03o' $((k * 8)))" "$c/sheet/.tmp.csv" "openwars-$kind.csv"
    fi
    k=$((k + 1))
done
rm -f "$c/sheet/.tmp.csv"
# PO files: the export of every game, for the target's first file.
out=$(mktemp -d)
cargo run -q -- i18n export --out "$out" >/dev/null
for f in $(find "$out" -name '*.po' | sort); do
    seed "$c/po_import" '\000' "$f" "$(echo "$f" | sed "s|$out/||" | tr / _)"
done
rm -rf "$out"
# Art: every SVG of the shipped packs and templates (read as SVG), every PNG (read as a raster).
for f in $(find data templates -name '*.svg' | sort); do
    seed "$c/art" '\000' "$f" "$(echo "$f" | tr / _)"
done
for f in $(find data templates tests/fixtures -name '*.png' | sort); do
    seed "$c/art" '\001' "$f" "$(echo "$f" | tr / _)"
done
# Batch folders: the fixture folder's lists, each after its name's index and a 0xFF separator.
{
    i=0
    for f in tests/fixtures/decks/batch/ana-medusa.txt tests/fixtures/decks/batch/bruno.tsv \
        tests/fixtures/decks/batch/carla.csv tests/fixtures/decks/batch/eva.yaml; do
        printf "\\$(printf '%03o' $i)"; cat "$f"; printf '\377'; i=$((i + 1))
    done
} > "$c/deck_batch/fixtures"
echo "seeded: $(ls $c/pack_yaml | wc -l) pack, $(ls $c/deck_list | wc -l) deck, $(ls $c/game_log | wc -l) log, $(ls $c/sheet | wc -l) sheet, $(ls $c/po_import | wc -l) PO, $(ls $c/art | wc -l) art, $(ls $c/deck_batch | wc -l) batch"
