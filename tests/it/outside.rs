//! pnpkit outside its own repository: only the built binary, copied into an
//! empty folder, with `HOME` pointing at an empty folder and no variable
//! that leads back to this repository. A designer starts a game and an
//! organiser uses the built-in games there, from the project root and from
//! a subfolder.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common;
use crate::common::raster::{rasterise, renderer_available};

/// An installed pnpkit: the binary alone in `bin/`, an empty `home/`, and a
/// `work/` folder to run it in, all in a temp folder outside the repository.
struct Installed {
    tmp: tempfile::TempDir,
    bin: PathBuf,
}

impl Installed {
    fn new() -> Installed {
        let tmp = tempfile::tempdir().unwrap();
        let bin = tmp.path().join("bin/pnpkit");
        std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
        std::fs::copy(env!("CARGO_BIN_EXE_pnpkit"), &bin).unwrap();
        std::fs::create_dir_all(tmp.path().join("home")).unwrap();
        std::fs::create_dir_all(tmp.path().join("work")).unwrap();
        Installed { tmp, bin }
    }

    fn work(&self) -> PathBuf {
        self.tmp.path().join("work")
    }

    /// The command, run in `dir` with a clean environment: only `PATH`,
    /// `HOME` (empty) and `TMPDIR` (inside the temp folder).
    fn cmd(&self, dir: &Path, args: &[&str]) -> Command {
        let mut c = Command::new(&self.bin);
        let tmpdir = self.tmp.path().join("tmp");
        std::fs::create_dir_all(&tmpdir).unwrap();
        c.args(args)
            .current_dir(dir)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", self.tmp.path().join("home"))
            .env("TMPDIR", tmpdir);
        c
    }

    fn run(&self, dir: &Path, args: &[&str]) -> Output {
        self.cmd(dir, args).output().expect("run the installed pnpkit")
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[track_caller]
fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "{}", text(o));
    text(o)
}

/// How many of a page's pixels (at 300 dpi) are darker than `level`.
fn dark_pixels(pdf: &[u8], page: usize, level: u8) -> f64 {
    let r = &rasterise(pdf, page, page, 300.0)[0];
    let share = r.share(0.0, 0.0, r.width_mm(), r.height_mm(), |g| g < level);
    share * r.px_of(r.width_mm()) * r.px_of(r.height_mm())
}

/// The 1-based page of a card in the pieces PDF (pages in the order of `text_by_page`).
fn page_of(pdf: &Path, name: &str) -> usize {
    let o = Command::new("pdftotext")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext runs");
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    text.split('\u{c}')
        .position(|p| p.contains(name))
        .unwrap_or_else(|| panic!("no page names {name}: {text}"))
        + 1
}

#[test]
fn a_designer_starts_a_game_in_an_empty_folder_with_only_the_binary() {
    let app = Installed::new();
    let project = app.work().join("mygame");
    std::fs::create_dir_all(&project).unwrap();

    let o = ok(&app.run(&project, &["new", "mygame"]));
    assert!(o.contains("pnpkit.toml"), "{o}");
    for f in [
        "pnpkit.toml",
        "data/mygame/game.yaml",
        "templates/mygame/kit.typ",
        "data/mygame/decks/starter.txt",
    ] {
        assert!(project.join(f).is_file(), "{f} missing:\n{o}");
    }
    // No template folder, no font: those are built in.
    assert!(!project.join("templates/shared").exists() && !project.join("fonts").exists());

    // From the root and from a subfolder alike.
    let sub = project.join("data/mygame/components");
    let o = ok(&app.run(&project, &["check", "--deny-warnings"]));
    assert!(o.contains("0 errors, 0 warnings"), "{o}");
    let o = ok(&app.run(&sub, &["check", "mygame"]));
    assert!(o.contains("0 errors"), "{o}");

    let o = ok(&app.run(&sub, &["build", "--paper", "a4", "--locale", "en"]));
    let out = project.join("output/mygame/en");
    for part in ["cards", "rules", "quickref", "cover"] {
        let pdf = out.join(format!("mygame-{part}-a4.pdf"));
        assert!(
            std::fs::read(&pdf).is_ok_and(|b| b.starts_with(b"%PDF")),
            "{} missing:\n{o}",
            pdf.display()
        );
    }
    assert!(
        !sub.join("output").exists(),
        "output goes to the project's output folder, not the current one"
    );
    let gallery = project.join("output/mygame/index.html");
    assert!(gallery.is_file());

    if renderer_available("a_designer_starts_a_game_in_an_empty_folder_with_only_the_binary") {
        // The art: Eclipse's night sky fills its art box (a placeholder would be light grey).
        let pieces = out.join("mygame-pieces.pdf");
        let bytes = std::fs::read(&pieces).unwrap();
        // 51 × 30 mm of night sky at 300 dpi is about 210,000 pixels; text is a few thousand.
        let eclipse = dark_pixels(&bytes, page_of(&pieces, "Eclipse"), 70);
        assert!(
            eclipse > 100_000.0,
            "the art is not on Eclipse's page: {eclipse:.0} dark pixels"
        );
        // The icon: Sunstrike's text draws the sun icon; without it the page has less ink.
        let sunstrike = page_of(&pieces, "Sunstrike");
        let with_icon = dark_pixels(&bytes, sunstrike, 128);
        let cards = project.join("data/mygame/components/card.yaml");
        let yaml = std::fs::read_to_string(&cards).unwrap();
        std::fs::write(&cards, yaml.replace("draw a :sun: {{", "draw a {{")).unwrap();
        ok(&app.run(&project, &["build", "mygame", "--paper", "a4", "--locale", "en"]));
        let without = dark_pixels(&std::fs::read(&pieces).unwrap(), sunstrike, 128);
        // The icon is a filled disc with eight rays about a text line high (~2.5 mm, ~30 px across).
        assert!(
            with_icon > without + 150.0,
            "the sun icon is not on Sunstrike's page ({with_icon:.0} dark pixels with it, {without:.0} without)"
        );
        std::fs::write(&cards, yaml).unwrap();
    }

    let o = ok(&app.run(&project, &["export", "--shop", "tgc", "--locale", "en"]));
    let shop = project.join("output/mygame/shop/tgc");
    let pngs = walk(&shop)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .count();
    assert!(pngs >= 6, "one PNG per card copy at least: {pngs}\n{o}");

    let o = ok(&app.run(&sub, &["deck", "mygame", "../decks/starter.txt"]));
    assert!(o.to_lowercase().contains("legal"), "{o}");
    std::fs::write(project.join("too-many.txt"), "3 Sunstrike\n2 Moonshield\n").unwrap();
    let o = app.run(&project, &["deck", "mygame", "too-many.txt"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));

    // A log of a built-in game, replayed inside the designer's project.
    std::fs::write(
        project.join("duel.yaml"),
        include_str!("../../data/unmatched/logs/sample-duel.yaml"),
    )
    .unwrap();
    let o = ok(&app.run(&sub, &["log", "../../../duel.yaml", "--html", "../../../replay.html"]));
    assert!(o.contains("legal"), "{o}");
    assert!(std::fs::read_to_string(project.join("replay.html")).is_ok_and(|h| h.contains("<html")));

    ok(&app.run(&sub, &["gallery", "mygame", "--locale", "en"]));
    assert!(gallery.is_file());
    ok(&app.run(&project, &["schema", "--check"]));

    // `watch` rebuilds after one edit.
    let mut child = app
        .cmd(&sub, &["watch", "mygame", "--locale", "en", "--color", "never"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let rx = common::lines_of(stdout);
    let mut seen = Vec::new();
    common::wait_for(&rx, "watching mygame", &mut seen);
    let cards = project.join("data/mygame/components/card.yaml");
    let yaml = std::fs::read_to_string(&cards).unwrap();
    std::fs::write(&cards, yaml.replace("en: Moonshield", "en: Moonwall")).unwrap();
    common::wait_for(&rx, "rebuilt mygame", &mut seen);
    child.kill().unwrap();
    child.wait().unwrap();
    let changed = std::fs::read(out.join("mygame-changed.pdf")).unwrap();
    assert!(common::raster::pdf_text(&changed).contains("Moonwall"));

    // Nothing was written outside the project (the binary's folder and HOME stay as they were).
    assert_eq!(walk(&app.tmp.path().join("home")).len(), 0);
    assert_eq!(walk(&app.tmp.path().join("bin")).len(), 1);
}

#[test]
fn an_organiser_uses_the_built_in_games_in_any_folder() {
    let app = Installed::new();
    let dir = app.work().join("downloads");
    std::fs::create_dir_all(&dir).unwrap();

    // Outside a project, a command that needs one says so in one line and how to make one.
    let o = app.run(&dir, &["check"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("not in a pnpkit project") && err.contains("pnpkit new"),
        "{err}"
    );

    let o = ok(&app.run(&dir, &["games"]));
    for g in ["mythic", "onevmany", "openwars", "unmatched", "xterminio"] {
        assert!(
            o.lines().any(|l| l.starts_with(g) && l.contains("built in")),
            "{g}: {o}"
        );
    }

    std::fs::write(
        dir.join("medusa.txt"),
        include_str!("../../data/unmatched/decks/medusa.txt"),
    )
    .unwrap();
    let o = ok(&app.run(&dir, &["deck", "unmatched", "medusa.txt"]));
    assert!(o.to_lowercase().contains("legal"), "{o}");
    std::fs::write(dir.join("short.txt"), "hero: Medusa\n2 Petrifying Gaze\n").unwrap();
    assert_eq!(
        app.run(&dir, &["deck", "unmatched", "short.txt"]).status.code(),
        Some(1)
    );

    std::fs::write(
        dir.join("duel.yaml"),
        include_str!("../../data/unmatched/logs/sample-duel.yaml"),
    )
    .unwrap();
    let o = ok(&app.run(&dir, &["log", "duel.yaml", "--html", "replay.html"]));
    assert!(o.contains("legal"), "{o}");
    assert!(dir.join("replay.html").is_file());

    let o = ok(&app.run(&dir, &["simulate", "mythic", "--games", "3"]));
    assert!(o.contains("not kept") && o.contains("replays clean"), "{o}");
    assert!(
        !dir.join("output").exists(),
        "simulate outside a project keeps nothing without --out"
    );
    let o = ok(&app.run(&dir, &["simulate", "unmatched", "--games", "2", "--out", "sims"]));
    assert!(dir.join("sims/game-0001.yaml").is_file(), "{o}");

    let o = app.run(&dir, &["build", "openwars", "--paper", "a4", "--locale", "en"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "outside a project, build needs --out: {}",
        text(&o)
    );
    let o = ok(&app.run(
        &dir,
        &["build", "openwars", "--out", "kits", "--paper", "a4", "--locale", "en"],
    ));
    assert!(dir.join("kits/openwars/en/openwars-cards-a4.pdf").is_file(), "{o}");

    // A project's own copy of a built-in game takes its place.
    let o = ok(&app.run(&dir, &["new", "unmatched", "--from", "unmatched"]));
    assert!(o.contains("data/unmatched/game.yaml"), "{o}");
    let o = ok(&app.run(&dir, &["games"]));
    assert!(
        o.lines().any(|l| l.starts_with("unmatched") && l.contains("project")),
        "{o}"
    );
    ok(&app.run(&dir, &["check", "unmatched", "--deny-warnings"]));
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
