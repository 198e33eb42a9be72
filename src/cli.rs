//! Command-line definitions (clap). Each command has an example in its help.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "pnpkit",
    version,
    about = "Check tabletop game data and build print-and-play kits",
    long_about = "pnpkit reads YAML game packs (cards, tokens, sheets, boards, rules), checks them for \
                  consistency and renders print-and-play kits.\n\nExit codes: 0 clean, 1 problems found, \
                  2 usage or I/O error.",
    after_help = "Examples:\n  pnpkit new mygame            start a project (pnpkit.toml) with a game in an empty folder\n  \
                  pnpkit check                 check every pack of the project\n  \
                  pnpkit check openwars --format json\n  \
                  pnpkit games                 the games at hand: the project's and the built-in ones\n\n\
                  A project is the folder holding pnpkit.toml (found from any folder below it); its settings\n\
                  give the options their defaults. The five shipped games are built in: `pnpkit deck unmatched\n\
                  list.txt` and `pnpkit log game.yaml` work in any folder."
)]
pub struct Cli {
    /// The data directory: one folder per game pack (default: the project's, `data/` beside `pnpkit.toml`).
    #[arg(long, global = true, value_name = "DIR")]
    pub data: Option<PathBuf>,

    /// Output format of reports.
    #[arg(long, global = true, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// When to colour human output.
    #[arg(long, global = true, value_enum, default_value_t = Color::Auto)]
    pub color: Color,

    /// The most memory a run may hold, in MiB: a layout that needs more stops with E019 (0: no limit).
    #[arg(long, global = true, value_name = "MIB", default_value_t = crate::budget::DEFAULT_MEMORY_MIB)]
    pub memory_limit: u64,

    /// How long one layout (one typst document) may run, in seconds, before it stops with E019.
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = crate::budget::DEFAULT_LAYOUT_SECONDS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub layout_time_limit: u64,

    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The run's budget (see [`crate::budget`]).
    pub fn limits(&self) -> crate::budget::Limits {
        crate::budget::Limits {
            memory: self.memory_limit.saturating_mul(1 << 20),
            layout: std::time::Duration::from_secs(self.layout_time_limit),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check game packs and report every problem with its location.
    #[command(after_help = "Examples:\n  pnpkit check\n  pnpkit check unmatched mythic\n  \
                            pnpkit --data my-games check --format json > report.json\n  \
                            pnpkit check --deny-warnings        treat warnings (missing translations) as problems\n  \
                            pnpkit check --layout               lay the kits out too: text that overflows its box")]
    Check(CheckArgs),

    /// Replay a recorded game and report the first illegal action with the rule it breaks.
    #[command(after_help = "Examples:\n  pnpkit log data/unmatched/logs/sample-duel.yaml\n  \
                            pnpkit log game.yaml --trace          the state after every action\n  \
                            pnpkit log game.yaml --format json\n  \
                            pnpkit log game.yaml --html replay.html   step through it in a browser (replay.html#step=37)\n\n\
                            Exit codes: 0 legal, 1 illegal (or a checkpoint or result differs), 2 unreadable.\n\
                            The log format is in docs/log-format.md.")]
    Log(LogArgs),

    /// Check a deck or army list against the game's construction rules.
    #[command(
        after_help = "Examples:\n  pnpkit deck xterminio data/xterminio/decks/resistance.txt\n  \
                            pnpkit deck mythic my-army.txt --players 3\n  \
                            pnpkit deck mythic ally.txt --mode three-vs-one --role ally\n  \
                            pnpkit deck openwars army.txt --param gold=40\n  \
                            pnpkit deck unmatched --batch registrations/    one verdict per list, CSV, JSON, sheets\n  \
                            pnpkit deck unmatched medusa.txt --odds --turns 5 --at-least 2\n\n\
                            Lists are pasted text (`3 Card name`, `3x Name`, `Name x3`, `Name (3)`, `Name<TAB>3`,\n\
                            CSV with a header row, Markdown lists, MTG Arena-style `3 Name (SET) 12`, section\n\
                            headers, `hero: Medusa` / `héroe: Medusa` header lines) or YAML (docs/decks.md).\n\
                            Exit codes: 0 legal, 1 illegal (any list of a batch), 2 unreadable."
    )]
    Deck(DeckArgs),

    /// Write JSON Schemas for game.yaml and every component kind.
    #[command(
        after_help = "Examples:\n  pnpkit schema                 write data/<game>/schemas/*.schema.json\n  \
                            pnpkit schema --check         fail if the committed schemas are stale\n\n\
                            Start a YAML file with\n  # yaml-language-server: $schema=../schemas/<kind>.schema.json\n\
                            and editors with the YAML language server complete and validate it."
    )]
    Schema(SchemaArgs),

    /// Build print-and-play kits (PDF) for every game into the output directory.
    #[command(
        after_help = "Examples:\n  pnpkit build                       every game, es and en, A4 and Letter\n  \
                            pnpkit build openwars --locale en --paper letter\n  \
                            pnpkit build --duplex short         backs mirrored for short-edge flipping\n  \
                            pnpkit build --layout gutterfold    fronts and backs side by side, fold in the middle\n  \
                            pnpkit build --ink-saver            no background fills\n  \
                            pnpkit build --timings              where the time went, per stage and per game\n\n\
                            Documents whose inputs did not change since the last build are taken from the cache in\n\
                            <out>/.cache (bounded by --cache-limit, safe to delete); --no-cache compiles everything."
    )]
    Build(BuildArgs),

    /// Inspect the laid-out kits as they will print: text too small, text or key elements outside a
    /// piece's safe zone, text cut off by its box, raster images below 300 ppi. Writes nothing.
    #[command(
        after_help = "Examples:\n  pnpkit preflight                   every game, both locales and papers\n  \
                            pnpkit preflight mythic --locale es\n  \
                            pnpkit preflight --min-text 7 --safe 4\n\n\
                            Each finding names the piece, the locale and the template line that drew it.\n\
                            Mark a key element of a design with the label <key> (`box[…] <key>`) to keep it in the safe zone.\n\
                            Exit codes: 0 clean, 1 findings, 2 unreadable."
    )]
    Preflight(PreflightArgs),

    /// Export card images for print-on-demand shops and Tabletop Simulator decks.
    #[command(
        after_help = "Examples:\n  pnpkit export                     every game: PNGs (MPC size) and TTS sheets\n  \
                            pnpkit export unmatched --style tgc --locale en\n  \
                            pnpkit export --url-prefix https://example.org/kit/   image addresses in the TTS JSON\n\n\
                            Output: output/<game>/export/<locale>/png/<kind>/<id>.png (and -back.png),\n\
                            output/<game>/export/<locale>/tts/<kind>-faces-<n>.png, -backs-<n>.png, <kind>.json"
    )]
    Export(ExportArgs),

    /// Translation status of every text, gettext PO export, and recording reviewed translations.
    #[command(
        after_help = "Examples:\n  pnpkit i18n status                  translated, stale and missing texts per game and locale\n  \
                            pnpkit i18n export --locale en      output/<game>/i18n/en.po for translators (Poedit, Weblate)\n  \
                            pnpkit i18n import --locale en      read output/<game>/i18n/en.po back into the YAML\n  \
                            pnpkit i18n accept --locale en      record that the current translations match their sources\n\n\
                            A translation is stale when its source text changed after `accept` recorded it;\n\
                            `export` marks stale entries fuzzy. Exit 1 when a text is missing or stale."
    )]
    I18n(I18nArgs),

    /// Turn a spreadsheet (CSV, XLSX, ODS) into a kind's YAML, checked like `check`, located by row and column.
    #[command(after_help = "Examples:\n  pnpkit import openwars spell spells.csv\n  \
                            pnpkit import unmatched card cards.xlsx --sheet Cards --check   validate only\n  \
                            pnpkit export-sheet openwars spell -o spells.csv                start from the current data\n\n\
                            One row per component: `id`, `name.es`, `name.en`, `count` (copies), one column per field\n\
                            (`<field>.<locale>` for texts; lists and records as YAML flow text such as `[a, b]` or\n\
                            `{x: 1}`), `sample`, and `#` for comments. See docs/sheets.md.")]
    Import(ImportArgs),

    /// Write a kind's components as a CSV sheet (the reverse of `import`).
    #[command(after_help = "Examples:\n  pnpkit export-sheet openwars spell > spells.csv\n  \
                            pnpkit export-sheet unmatched card -o cards.csv\n\n\
                            `pnpkit import` reads the sheet back; an unedited sheet gives the same values and comments.")]
    ExportSheet(ExportSheetArgs),

    /// Start a game: a pack that checks clean and builds at once (and the project, in a folder outside one).
    #[command(
        after_help = "Examples:\n  pnpkit new mygame                  data/mygame/ and templates/mygame/kit.typ\n  \
                            pnpkit new duel --from unmatched   a copy of a built-in game to change\n  \
                            pnpkit --data my-games new duel\n\n\
                            Outside a project it also writes pnpkit.toml in the current folder. Refuses (exit 2)\n\
                            when the pack or its template folder exists. See docs/game-packs.md."
    )]
    New(NewArgs),

    /// Rebuild a game's kit on every change to its data, templates or fonts.
    #[command(
        after_help = "Examples:\n  pnpkit watch openwars               es and A4 (the pack's first locale and paper)\n  \
                            pnpkit watch unmatched --locale en --paper letter\n\n\
                            Keeps typst's incremental state between rebuilds; errors are printed and the last good\n\
                            PDFs stay in place. Stop with Ctrl-C."
    )]
    Watch(WatchArgs),

    /// Write an HTML gallery of every component and the rules (output/<game>/index.html).
    #[command(after_help = "Examples:\n  pnpkit gallery                     every game\n  \
                            pnpkit gallery openwars --locale en\n\n\
                            `build` writes the galleries too. Static files only: open index.html in any browser.")]
    Gallery(GalleryArgs),

    /// What changed between two versions of the games: a report, a changelog per locale and a reprint pack.
    #[command(
        after_help = "Examples:\n  pnpkit diff v1.0                  since the tag v1.0, up to the data as it is now\n  \
                            pnpkit diff v1.0 v1.1 --game openwars\n  \
                            pnpkit diff old-data/ data/         two data folders\n  \
                            pnpkit diff HEAD~3 --version 1.1 --paper a4   the reprint pack stamped «1.1»\n  \
                            pnpkit diff v1.0 --format json --no-reprint\n\n\
                            OLD and NEW are folders of game packs or git revisions (a tag, a branch, a commit) of the\n\
                            repository holding the current folder; NEW defaults to the data folder with its edits.\n\
                            Writes <out>/<game>/diff/: changelog.<locale>.md, diff.json, reprint.<locale>.md and\n\
                            reprint/<locale>/*.pdf (only the changed and new pieces, laid out like the kit, with a\n\
                            cover saying what to take out). Exit codes: 0 compared, 1 a version has errors, 2 unreadable."
    )]
    Diff(DiffArgs),

    /// Self-play: whole games between random and greedy players, written as ordinary logs.
    #[command(after_help = "Examples:\n  pnpkit simulate unmatched --games 200 --seed 7\n  \
                            pnpkit simulate xterminio --players greedy,random --out sims/\n  \
                            pnpkit stats output/unmatched/simulated/*.yaml\n\n\
                            Seats take the listed players in turn, shifted by one each game so every player sits in\n\
                            every seat equally often. The greedy player takes the action that scores or damages most\n\
                            (judged on a sampled roll or draw, not the one played); otherwise a random one.\n\
                            Every log is replayed by `log` before the command ends: exit 1 if one is not clean.")]
    Simulate(SimulateArgs),

    /// Playtest statistics over logs of one game: win rates with 95% intervals, first-player advantage,
    /// game length, cards drawn, played and in the winner's deck.
    #[command(after_help = "Examples:\n  pnpkit stats output/unmatched/simulated/\n  \
                            pnpkit stats logs/*.yaml --html report.html\n  \
                            pnpkit --format json stats logs/ > stats.json\n\n\
                            Each log is replayed first; a log that is not legal is left out with a warning (W076).\n\
                            Win rates count finished games (a draw is no win); intervals are Wilson score intervals.\n\
                            Exit codes: 0 done, 1 logs of different games or none usable, 2 unreadable.")]
    Stats(StatsArgs),

    /// List the games at hand: the project's own packs and the games built into pnpkit.
    #[command(after_help = "Examples:\n  pnpkit games\n  pnpkit games --format json\n\n\
                            A project's own `data/<game>` takes the place of a built-in game of the same id.")]
    Games,

    /// Make the current folder a pnpkit project: write `pnpkit.toml` with every setting explained.
    #[command(
        after_help = "Examples:\n  pnpkit init                        in a folder that already holds data/\n  \
                            pnpkit new mygame                  in an empty folder: the project and a first game\n\n\
                            Refuses (exit 2) when pnpkit.toml exists."
    )]
    Init,

    /// List or copy out the layouts built into pnpkit.
    Templates(TemplatesArgs),

    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  pnpkit completions bash > /etc/bash_completion.d/pnpkit\n  \
                            pnpkit completions zsh > ~/.zfunc/_pnpkit\n  \
                            pnpkit completions fish > ~/.config/fish/completions/pnpkit.fish"
    )]
    Completions(CompletionsArgs),

    /// Print the manual page (roff).
    #[command(after_help = "Examples:\n  pnpkit man > pnpkit.1 && man ./pnpkit.1")]
    Man,
}

#[derive(Debug, Args)]
pub struct DeckArgs {
    /// The game (pack folder name).
    #[arg(value_name = "GAME")]
    pub game: String,

    /// The deck or army lists: pasted text (`3 Card name`, `Name x3`, a spreadsheet or CSV
    /// paste, Markdown …) or YAML. Several files make a batch.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Check every list in this folder (`.txt`, `.md`, `.csv`, `.tsv`, `.yaml`): one verdict per
    /// list, a CSV and JSON of the verdicts and a printable decklist sheet per list.
    #[arg(long, value_name = "DIR")]
    pub batch: Option<PathBuf>,

    /// Where a batch writes `verdicts.csv`, `verdicts.json` and the decklist sheets
    /// (default `output/<game>/decklists`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Game mode (a mode id of the pack, e.g. `duel`); overrides the list's `mode:` line.
    #[arg(long)]
    pub mode: Option<String>,

    /// Number of players: picks the mode for that many players.
    #[arg(long, conflicts_with = "mode")]
    pub players: Option<u32>,

    /// The player's role where the mode has roles (e.g. `lone` or `ally` in 3-vs-1).
    #[arg(long)]
    pub role: Option<String>,

    /// A header value, e.g. `--param gold=40` for a budget.
    #[arg(long, value_name = "NAME=VALUE")]
    pub param: Vec<String>,

    /// The language of messages and sheets (`en`, `es`); default: the list's own.
    #[arg(long)]
    pub locale: Option<String>,

    /// Exact odds of drawing each card and each group of cards the game names (attack cards …) in the
    /// opening hand and by each turn, under the game's draw rules (docs/decks.md#odds).
    #[arg(long)]
    pub odds: bool,

    /// With --odds: the last turn shown.
    #[arg(long, value_name = "N", default_value_t = 3, requires = "odds", value_parser = clap::value_parser!(u32).range(0..=50))]
    pub turns: u32,

    /// With --odds: the odds of at least this many copies.
    #[arg(long, value_name = "K", default_value_t = 1, requires = "odds", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub at_least: u32,

    /// With --odds: as the first player, where the game's first player skips a draw.
    #[arg(long, requires = "odds")]
    pub first: bool,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The old version: a git revision (tag, branch, commit) or a folder of game packs.
    #[arg(value_name = "OLD")]
    pub old: String,

    /// The new version (default: the data folder as it is now, edits included).
    #[arg(value_name = "NEW")]
    pub new: Option<String>,

    /// Only this game (repeat for more); all when absent.
    #[arg(long = "game", value_name = "GAME")]
    pub games: Vec<String>,

    /// Where `<game>/diff/` is written (default: the project's output folder).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Locales of the changelogs and reprint packs (default: every locale of each pack).
    #[arg(long, value_delimiter = ',')]
    pub locale: Vec<String>,

    /// Only the report and the changelogs: lay out no reprint pack.
    #[arg(long)]
    pub no_reprint: bool,

    #[command(flatten)]
    pub print: PrintArgs,
}

/// How kits are printed: paper, duplex, bleed … (shared by `build` and `diff`).
#[derive(Debug, Args)]
pub struct PrintArgs {
    /// Paper sizes.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [PaperArg::A4, PaperArg::Letter])]
    pub paper: Vec<PaperArg>,

    /// Which edge the printer flips on for double-sided printing.
    #[arg(long, value_enum, default_value_t = DuplexArg::Long)]
    pub duplex: DuplexArg,

    /// Backs on their own pages (duplex) or beside the fronts (gutterfold).
    #[arg(long, value_enum, default_value_t = LayoutArg::Duplex)]
    pub layout: LayoutArg,

    /// Printer-friendly: no background fills.
    #[arg(long)]
    pub ink_saver: bool,

    /// Unprintable printer margin in mm: nothing (not even a crop mark) is drawn there. The
    /// default is the common quarter inch; pieces per page follow from it.
    #[arg(long, default_value_t = 6.35)]
    pub margin: f64,

    /// Bleed around each piece in mm.
    #[arg(long, default_value_t = 3.0)]
    pub bleed: f64,

    /// How neighbouring pieces are cut: `separate` (a gap between them holding each one's own
    /// bleed, so a cut off the line never shows a neighbour's colour) or `shared` (one cut line
    /// between neighbours, more pieces per page).
    #[arg(long, value_enum, default_value_t = CutsArg::Separate)]
    pub cuts: CutsArg,

    /// Print this version mark small (6 pt) on the front of every piece, inside its safe zone, so
    /// printings can be told apart (never on backs).
    #[arg(long = "version", value_name = "TEXT", value_parser = stamp_text)]
    pub stamp: Option<String>,
}

/// A version mark: one short line of printable text.
fn stamp_text(s: &str) -> Result<String, String> {
    let t = s.trim();
    if t.is_empty() {
        return Err("the version mark is empty".into());
    }
    if t.chars().count() > 40 {
        return Err(format!(
            "the version mark has {} characters; at most 40 fit on a piece",
            t.chars().count()
        ));
    }
    if t.chars().any(char::is_control) {
        return Err("the version mark holds a control character (a line break, a tab …)".into());
    }
    Ok(t.to_owned())
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The game (pack folder name).
    #[arg(value_name = "GAME")]
    pub game: String,

    /// How many games.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,

    /// The seed: the same seed gives the same games, byte for byte.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// The players, by seat: `random`, `greedy` (comma-separated, repeated over the seats).
    #[arg(long, value_delimiter = ',', default_values_t = ["greedy".to_string(), "random".to_string()])]
    pub players: Vec<String>,

    /// Where the logs go (default `output/<game>/simulated`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// A game still running after this many actions ends its log unfinished.
    #[arg(long, value_name = "N", default_value_t = 3000)]
    pub max_actions: usize,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Logs, or folders of logs (every `.yaml` in them).
    #[arg(value_name = "LOG", required = true)]
    pub logs: Vec<PathBuf>,

    /// Also write a self-contained HTML report with charts.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct LogArgs {
    /// The game log (YAML, see docs/log-format.md).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Print the state after every action.
    #[arg(long)]
    pub trace: bool,

    /// Also write the replay as a self-contained page: the board after every action, the state, a
    /// timeline to step through, rule citations, the first illegal action highlighted.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// Rewrite a log of an older format in today's (in place, all or nothing, comments kept),
    /// then replay it; docs/log-format.md lists the formats.
    #[arg(long, conflicts_with_all = ["trace", "html"])]
    pub upgrade: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Only these games (pack folder names); all when empty.
    #[arg(value_name = "GAME")]
    pub games: Vec<String>,

    /// Exit with 1 on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,

    /// Also lay every kit out (both papers, every locale; nothing is written) and report text
    /// that does not fit its box (W042) and characters no font can draw (W051), as `build` does.
    #[arg(long)]
    pub layout: bool,

    /// Also report, per game, how many card effects the rules engine checks and list each one it
    /// cannot check with the pack's reason; replay the pack's logs (`logs/`), those under
    /// `--logs` and self-play games, and list the logs that exercise each checked effect (an
    /// effect no legal log uses or no illegal log is refused for is an error).
    #[arg(long)]
    pub effects: bool,

    /// With `--effects`: more folders of logs to replay (searched recursively; each log names
    /// its game).
    #[arg(long, value_name = "DIR", requires = "effects")]
    pub logs: Vec<PathBuf>,
}

/// Which games and locales a rendering command covers, and where it writes.
#[derive(Debug, Args)]
pub struct Selection {
    /// Only these games; all when empty.
    #[arg(value_name = "GAME")]
    pub games: Vec<String>,

    /// Where output is written (default: the project's output folder).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Locales (default: every locale of each pack).
    #[arg(long, value_delimiter = ',')]
    pub locale: Vec<String>,
}

#[derive(Debug, Args)]
pub struct PreflightArgs {
    #[command(flatten)]
    pub select: Selection,

    /// Paper sizes whose sheets are inspected too.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [PaperArg::A4, PaperArg::Letter])]
    pub paper: Vec<PaperArg>,

    /// Smallest text size in points.
    #[arg(long, value_name = "PT", default_value_t = 6.0)]
    pub min_text: f64,

    /// Smallest resolution of a raster image at its printed size, in pixels per inch.
    #[arg(long, value_name = "PPI", default_value_t = 300.0)]
    pub min_ppi: f64,

    /// Safe zone: how far inside the cut line text and key elements must stay, in mm.
    #[arg(long, value_name = "MM", default_value_t = 3.0)]
    pub safe: f64,
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    #[command(flatten)]
    pub select: Selection,

    #[command(flatten)]
    pub print: PrintArgs,

    /// A designer's proof: mark invented (`sample: true`) values on the pieces. A player's kit never shows them.
    #[arg(long)]
    pub proof: bool,

    /// Exit with 1 when the build has warnings: what `check` warns of (art printed as a placeholder or below
    /// 300 ppi, a missing translation) and what `preflight` finds (text cut off, too small, covered …).
    #[arg(long)]
    pub deny_warnings: bool,

    #[command(flatten)]
    pub cache: CacheArgs,

    /// Print where the time went: each stage, and each game's documents compiled and reused.
    #[arg(long)]
    pub timings: bool,
}

/// The build cache (`<out>/.cache`).
#[derive(Debug, Args)]
pub struct CacheArgs {
    /// Compile every document: neither read nor write the build cache.
    #[arg(long)]
    pub no_cache: bool,

    /// Largest size of the build cache in MB; the entries used least recently go first.
    #[arg(long, value_name = "MB", default_value_t = 1024)]
    pub cache_limit: u64,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Games, locales and output folder (exports go under `<out>/<game>/export/`).
    #[command(flatten)]
    pub select: Selection,

    /// Image size: MakePlayingCards (822×1122 px for poker), The Game Crafter (825×1125), or exact 300 dpi.
    #[arg(long, value_enum, default_value_t = StyleArg::Mpc)]
    pub style: StyleArg,

    /// Instead: the files a print shop takes, laid out at its card sizes, bleed and safe zone, one set per
    /// deck, copies expanded (The Game Crafter and MakePlayingCards: PNG per card; DriveThruCards: PDF per
    /// deck, back first; pnp: print-ready PDF per deck at the pack's sizes). See docs/print.md.
    #[arg(long, value_enum)]
    pub shop: Option<ShopArg>,

    /// Prefix for image addresses in the Tabletop Simulator JSON (a URL or a folder).
    #[arg(long, default_value = "")]
    pub url_prefix: String,
}

#[derive(Debug, Args)]
pub struct I18nArgs {
    /// What to do: status, export, accept or import.
    #[arg(value_enum)]
    pub action: I18nAction,

    /// Only these games; all when empty.
    #[arg(value_name = "GAME")]
    pub games: Vec<String>,

    /// Target locales (default: every locale but the source one).
    #[arg(long, value_delimiter = ',')]
    pub locale: Vec<String>,

    /// Where `export` writes and `import` reads `<game>/i18n/<locale>.po` (default: the project's output folder).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The game (pack folder name).
    pub game: String,
    /// The component kind the sheet holds.
    pub kind: String,
    /// The sheet: .csv, .xlsx or .ods.
    pub file: PathBuf,
    /// Validate only; write nothing.
    #[arg(long)]
    pub check: bool,
    /// The sheet of a workbook (default: the one named like the kind, else the first).
    #[arg(long, value_name = "NAME")]
    pub sheet: Option<String>,
}

#[derive(Debug, Args)]
pub struct ExportSheetArgs {
    /// The game (pack folder name).
    pub game: String,
    /// The component kind.
    pub kind: String,
    /// Write the CSV to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// The new game's id: lowercase letters, digits and dashes.
    pub game: String,

    /// Start from a built-in game (its pack and layouts copied under the new id) instead of the scaffold.
    #[arg(long, value_name = "GAME")]
    pub from: Option<String>,
}

#[derive(Debug, Args)]
pub struct TemplatesArgs {
    #[command(subcommand)]
    pub action: TemplatesAction,
}

#[derive(Debug, Subcommand)]
pub enum TemplatesAction {
    /// List the layouts, pages and fonts built into pnpkit, and which of them the project overrides.
    List,
    /// Copy built-in layouts into the project's `templates/` to edit them (never overwrites).
    #[command(
        after_help = "Examples:\n  pnpkit templates eject shared      the sheet, card frame, cover and rules layouts\n  \
                            pnpkit templates eject unmatched   a shipped game's layouts\n  \
                            pnpkit templates eject             every built-in template folder\n\n\
                            A file in the project's templates/ takes the place of the built-in file of the same\n\
                            path; delete it to go back to the built-in one."
    )]
    Eject {
        /// Template folders (`shared`, `gallery`, a game id); all when empty.
        #[arg(value_name = "FOLDER")]
        folders: Vec<String>,
    },
}

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// The game (default: the only pack, or the first in name order).
    pub game: Option<String>,
    /// Where output is written (default: the project's output folder).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The locale to build (default: the pack's first).
    #[arg(long)]
    pub locale: Option<String>,
    /// The paper to build.
    #[arg(long, value_enum, default_value_t = PaperArg::A4)]
    pub paper: PaperArg,
    /// Build once (as a rebuild would) and exit: for scripts and tests.
    #[arg(long)]
    pub once: bool,
}

#[derive(Debug, Args)]
pub struct GalleryArgs {
    /// Games, locales and output folder (`<out>/<game>/index.html`).
    #[command(flatten)]
    pub select: Selection,

    #[command(flatten)]
    pub cache: CacheArgs,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum I18nAction {
    /// Count current, unrecorded, stale and missing translations.
    Status,
    /// Write gettext PO files.
    Export,
    /// Record the source of every present translation as reviewed.
    Accept,
    /// Read translated PO files back into the pack's YAML (fuzzy entries are skipped).
    Import,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StyleArg {
    Mpc,
    Tgc,
    Exact,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ShopArg {
    /// The Game Crafter.
    Tgc,
    /// MakePlayingCards.
    Mpc,
    /// DriveThruCards.
    Dtc,
    /// Any shop that takes print-ready PDFs.
    Pnp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PaperArg {
    A4,
    Letter,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DuplexArg {
    Long,
    Short,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CutsArg {
    Separate,
    Shared,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    Duplex,
    Gutterfold,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Only these games; all when empty.
    #[arg(value_name = "GAME")]
    pub games: Vec<String>,

    /// Do not write: exit 1 if a schema file is missing or differs.
    #[arg(long)]
    pub check: bool,
}

/// The command line as parsed in a project: the project's settings
/// (`pnpkit.toml`) are the defaults of the options they name, so an option
/// given on the command line still wins, and `--help` shows the project's
/// values.
pub fn command(config: Option<&crate::project::Config>) -> clap::Command {
    let cmd = <Cli as clap::CommandFactory>::command();
    let Some(config) = config else { return cmd };
    let defaults = config.option_defaults();
    let shop = config.shop().map(str::to_owned);
    // The commands that print kits take every setting; `watch` builds one paper and one locale.
    let printing = ["build", "preflight", "export", "gallery", "diff", "watch"];
    printing.iter().fold(cmd, |cmd, name| {
        cmd.mut_subcommand(name, |mut sub| {
            let single = *name == "watch";
            for (id, values) in &defaults {
                let Some(arg) = sub.get_arguments().find(|a| a.get_id() == *id) else {
                    continue;
                };
                let takes_many =
                    arg.get_num_args().is_some_and(|n| n.max_values() > 1) || arg.get_value_delimiter().is_some();
                let values: Vec<String> = if single || !takes_many {
                    values.iter().take(1).cloned().collect()
                } else {
                    values.clone()
                };
                sub = sub.mut_arg(*id, |a| a.default_values(values));
            }
            if let Some(shop) = &shop
                && sub.get_arguments().any(|a| a.get_id() == "shop")
            {
                sub = sub.mut_arg("shop", |a| a.num_args(0..=1).default_missing_value(shop.clone()));
            }
            sub
        })
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
