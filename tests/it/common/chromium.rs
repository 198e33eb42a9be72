//! Headless Chromium for the tests of self-contained HTML pages (the gallery,
//! the stats report, the replay page). Debian's `chromium`; `CHROMIUM`
//! overrides the path.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The browser, if this machine has one.
pub fn find() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser", "google-chrome"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

/// The browser, or `None` after saying the test is skipped; in CI (`.ci/run`
/// sets `CI`) a missing browser fails instead.
pub fn required(test: &str) -> Option<PathBuf> {
    let found = find();
    if found.is_none() {
        let msg = "chromium not found; install it with `apt-get install -y chromium` (or set CHROMIUM)";
        assert!(std::env::var_os("CI").is_none(), "{test}: {msg} (required in CI)");
        println!("SKIPPED {test}: {msg}");
    }
    found
}

/// The DOM of `page` (with `#hash` when not empty) after its scripts ran for
/// up to `budget_ms` of virtual time, and the console errors Chromium logged.
pub fn load(browser: &Path, page: &Path, hash: &str, budget_ms: u32) -> (String, Vec<String>) {
    let o = Command::new(browser)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--enable-logging=stderr",
            "--v=0",
            "--allow-file-access-from-files",
            &format!("--virtual-time-budget={budget_ms}"),
            "--dump-dom",
        ])
        .arg(format!("file://{}{hash}", page.display()))
        .output()
        .expect("run chromium");
    let stderr = String::from_utf8_lossy(&o.stderr);
    let errors = stderr
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught") || l.contains("ERR_FILE_NOT_FOUND"))
        .map(str::to_owned)
        .collect();
    (String::from_utf8_lossy(&o.stdout).into_owned(), errors)
}

/// The DOM of a page whose script marks itself `data-ready="true"`, with no
/// console error.
pub fn ready_dom(browser: &Path, page: &Path, hash: &str) -> String {
    let (dom, errors) = load(browser, page, hash, 3000);
    assert!(errors.is_empty(), "{errors:#?}");
    assert!(dom.contains("data-ready=\"true\""), "the script did not run");
    dom
}
