//! A pnpkit project: the folder that holds `pnpkit.toml`, found by walking up
//! from the current folder as cargo and git find theirs. The marker holds the
//! settings a designer would otherwise repeat on every command (papers,
//! locales, margin, duplex, the output folder, the default shop); its
//! folder holds `data/` (the game packs), and may hold `templates/` and
//! `fonts/` that extend or override the ones built into pnpkit.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

use crate::diag::{Code, Diagnostic, SourceMap};
use crate::fsx::read::{ReadError, Scope, read_bounded};

pub mod catalog;

pub use catalog::{Catalog, Origin};

/// What a command that needs a project says outside one: one line, and how to make one.
pub const NOT_IN_A_PROJECT: &str = "not in a pnpkit project (no pnpkit.toml in this folder or above it): \
     `pnpkit new GAME` starts one here, `pnpkit init` makes this folder one; built-in games work by name anywhere \
     (`pnpkit games`)";

/// [`NOT_IN_A_PROJECT`], or, in a folder laid out like a project (`data/`,
/// `templates/` or `fonts/`) that lacks its marker, the same line naming them.
pub fn not_in_a_project(dir: &Path) -> String {
    let found: Vec<&str> = ["data", "templates", "fonts"]
        .into_iter()
        .filter(|f| dir.join(f).is_dir())
        .collect();
    if found.is_empty() {
        return NOT_IN_A_PROJECT.to_owned();
    }
    format!(
        "not in a pnpkit project: this folder has {} but no pnpkit.toml (nor does any folder above it); \
         `pnpkit init` makes it a project",
        found.iter().map(|f| format!("{f}/")).collect::<Vec<_>>().join(", ")
    )
}

/// The file that marks a project's root folder.
pub const MARKER: &str = "pnpkit.toml";

/// The largest `pnpkit.toml` read, in bytes.
pub const MAX_MARKER: u64 = 1024 * 1024;

/// The values each setting may take (the command line's own words).
pub const PAPERS: &[&str] = &["a4", "letter"];
pub const DUPLEX: &[&str] = &["long", "short"];
pub const LAYOUTS: &[&str] = &["duplex", "gutterfold"];
pub const CUTS: &[&str] = &["separate", "shared"];
pub const SHOPS: &[&str] = &["tgc", "mpc", "dtc", "pnp"];

/// The text `pnpkit new` and `pnpkit init` write: every setting, commented
/// out at its default, so a designer sees what can be set.
pub const TEMPLATE: &str = r#"# A pnpkit project: `pnpkit` finds this file from any folder below it.
# Every setting is optional; the commented values are the defaults, and an
# option on the command line always wins over this file.

[project]
# data = "data"        # the game packs, one folder per game
# output = "output"    # where build, export, gallery, deck sheets and simulate write

[build]
# papers = ["a4", "letter"]   # a4, letter
# locales = []                # empty: every locale of each game
# margin = 6.35               # the printer's unprintable margin, mm (a quarter inch)
# bleed = 3.0                 # bleed around each piece, mm
# duplex = "long"             # long or short: the edge the printer flips on
# layout = "duplex"           # duplex (backs on their own pages) or gutterfold
# cuts = "separate"           # separate (a gap and bleed between pieces) or shared (one cut line)

[export]
# shop = "tgc"                # what `pnpkit export --shop` uses with no value: tgc, mpc, dtc, pnp
"#;

/// The settings of `pnpkit.toml`; every one optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub project: ProjectSettings,
    pub build: BuildSettings,
    pub export: ExportSettings,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ProjectSettings {
    /// The game packs' folder, relative to the project root (`data`).
    pub data: Option<Spanned<PathBuf>>,
    /// The output folder, relative to the project root (`output`).
    pub output: Option<Spanned<PathBuf>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BuildSettings {
    pub papers: Option<Spanned<Vec<String>>>,
    pub locales: Option<Vec<String>>,
    pub margin: Option<Spanned<f64>>,
    pub bleed: Option<Spanned<f64>>,
    pub duplex: Option<Spanned<String>>,
    pub layout: Option<Spanned<String>>,
    pub cuts: Option<Spanned<String>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ExportSettings {
    pub shop: Option<Spanned<String>>,
}

impl Config {
    /// The settings that give command-line options their defaults, as the
    /// option's id and the values it takes (`("paper", ["a4"])`).
    pub fn option_defaults(&self) -> Vec<(&'static str, Vec<String>)> {
        let b = &self.build;
        let mut out = Vec::new();
        if let Some(p) = &b.papers {
            out.push(("paper", p.get_ref().clone()));
        }
        if let Some(l) = &b.locales {
            out.push(("locale", l.clone()));
        }
        for (id, v) in [("margin", &b.margin), ("bleed", &b.bleed)] {
            if let Some(v) = v {
                out.push((id, vec![v.get_ref().to_string()]));
            }
        }
        for (id, v) in [("duplex", &b.duplex), ("layout", &b.layout), ("cuts", &b.cuts)] {
            if let Some(v) = v {
                out.push((id, vec![v.get_ref().clone()]));
            }
        }
        out
    }

    /// The shop `export --shop` takes when given no value.
    pub fn shop(&self) -> Option<&str> {
        self.export.shop.as_ref().map(|s| s.get_ref().as_str())
    }
}

/// A project found on disk.
#[derive(Clone, Debug)]
pub struct Project {
    /// The folder holding `pnpkit.toml`, absolute.
    pub root: PathBuf,
    pub config: Config,
}

impl Project {
    /// The game packs' folder.
    pub fn data(&self) -> PathBuf {
        self.root.join(
            self.config
                .project
                .data
                .as_ref()
                .map_or(Path::new("data"), |d| d.get_ref()),
        )
    }

    /// The output folder.
    pub fn output(&self) -> PathBuf {
        self.root.join(
            self.config
                .project
                .output
                .as_ref()
                .map_or(Path::new("output"), |d| d.get_ref()),
        )
    }

    pub fn marker(&self) -> PathBuf {
        self.root.join(MARKER)
    }
}

/// Why no project could be used.
#[derive(Debug)]
pub enum FindError {
    /// `pnpkit.toml` exists but cannot be read or holds errors: every problem, located.
    Invalid {
        diagnostics: Vec<Diagnostic>,
        sources: SourceMap,
    },
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The project whose root is `start` or the nearest folder above it that
/// holds `pnpkit.toml`; `None` when no folder up to the file system's root does.
pub fn find(start: &Path) -> Result<Option<Project>, FindError> {
    let start = std::path::absolute(start).map_err(|source| FindError::Io {
        path: start.to_path_buf(),
        source,
    })?;
    for dir in start.ancestors() {
        let marker = dir.join(MARKER);
        if std::fs::symlink_metadata(&marker).is_ok() {
            // Messages name the file as seen from where pnpkit runs.
            let shown = crate::fsx::relative(&marker, &start);
            return load(dir, &marker, &shown).map(Some);
        }
    }
    Ok(None)
}

/// Reads the marker of the project at `root`.
fn load(root: &Path, marker: &Path, shown: &Path) -> Result<Project, FindError> {
    let scope = Scope::within(root).map_err(|source| FindError::Io {
        path: root.to_path_buf(),
        source,
    })?;
    let mut sources = SourceMap::default();
    let text = match read_bounded(marker, MAX_MARKER, &scope) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_owned()),
        Err(ReadError::Io(source)) => {
            return Err(FindError::Io {
                path: marker.to_path_buf(),
                source,
            });
        }
        Err(ReadError::Refused(r)) => Err(r.to_string()),
    };
    let text = match text {
        Ok(t) => t,
        Err(why) => {
            let d = Diagnostic::new(Code::ProjectConfig, format!("`{MARKER}` is not read: {why}"))
                .in_file(marker)
                .expected(format!(
                    "a TOML file of at most {}",
                    crate::fsx::read::bytes(MAX_MARKER)
                ));
            return Err(FindError::Invalid {
                diagnostics: vec![d],
                sources,
            });
        }
    };
    let file = sources.add(shown.to_path_buf(), Arc::from(text.as_str()));
    let span = |r: std::ops::Range<usize>| crate::pack::yaml::span_of_offset(&text, file, r.start, r.end);
    let config: Config = match toml::from_str(&text) {
        Ok(c) => c,
        Err(e) => {
            let message = e.message().trim_end_matches('\n').to_owned();
            let mut d = Diagnostic::new(Code::ProjectConfig, format!("`{MARKER}`: {message}"))
                .help("`pnpkit init` in an empty folder writes a pnpkit.toml with every setting, commented");
            d = match e.span() {
                Some(r) => d.at(span(r)),
                None => d.in_file(shown),
            };
            return Err(FindError::Invalid {
                diagnostics: vec![d],
                sources,
            });
        }
    };
    let mut problems = validate(&config, &span);
    problems.sort_by_key(|d| d.span.map(|s| s.start));
    if !problems.is_empty() {
        return Err(FindError::Invalid {
            diagnostics: problems,
            sources,
        });
    }
    Ok(Project {
        root: root.to_path_buf(),
        config,
    })
}

/// Every value out of its range, located at the value.
fn validate(config: &Config, span: &dyn Fn(std::ops::Range<usize>) -> crate::diag::Span) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut one_of = |key: &str, value: &Spanned<String>, allowed: &[&str]| {
        let v = value.get_ref().as_str();
        if !allowed.contains(&v) {
            out.push(
                Diagnostic::new(Code::ProjectConfig, format!("`{key}` cannot be `{v}`"))
                    .at(span(value.span()))
                    .found(format!("`{v}`"))
                    .expected(format!("one of {}", crate::pack::reader::quote_list(allowed)))
                    .suggest(v, allowed.iter().copied()),
            );
        }
    };
    let b = &config.build;
    if let Some(papers) = &b.papers {
        for p in papers.get_ref() {
            // A list's items carry no span of their own: point at the list.
            one_of("papers", &Spanned::new(papers.span(), p.clone()), PAPERS);
        }
    }
    if let Some(d) = &b.duplex {
        one_of("duplex", d, DUPLEX);
    }
    if let Some(l) = &b.layout {
        one_of("layout", l, LAYOUTS);
    }
    if let Some(c) = &b.cuts {
        one_of("cuts", c, CUTS);
    }
    if let Some(s) = &config.export.shop {
        one_of("shop", s, SHOPS);
    }
    for (key, v, max) in [("margin", &b.margin, 25.0), ("bleed", &b.bleed, 10.0)] {
        if let Some(v) = v.as_ref().filter(|v| !(0.0..=max).contains(v.get_ref())) {
            out.push(
                Diagnostic::new(Code::ProjectConfig, format!("`{key}` is out of range"))
                    .at(span(v.span()))
                    .found(v.get_ref().to_string())
                    .expected(format!("millimetres from 0 to {max}")),
            );
        }
    }
    if let Some(p) = b.papers.as_ref().filter(|p| p.get_ref().is_empty()) {
        out.push(
            Diagnostic::new(Code::ProjectConfig, "`papers` is empty")
                .at(span(p.span()))
                .expected("at least one paper: \"a4\", \"letter\""),
        );
    }
    let p = &config.project;
    for (key, folder) in [("data", &p.data), ("output", &p.output)] {
        let Some(folder) = folder else { continue };
        let f = folder.get_ref();
        if f.as_os_str().is_empty()
            || f.is_absolute()
            || f.components().any(|c| matches!(c, std::path::Component::ParentDir))
        {
            out.push(
                Diagnostic::new(
                    Code::ProjectConfig,
                    format!("`{key}` is not a folder inside the project"),
                )
                .at(span(folder.span()))
                .found(format!("`{}`", f.display()))
                .expected("a folder inside the project, relative to `pnpkit.toml`"),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(text: &str) -> Result<Project, Vec<String>> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(MARKER), text).unwrap();
        let sub = dir.path().join("a/b");
        std::fs::create_dir_all(&sub).unwrap();
        match find(&sub) {
            Ok(Some(p)) => Ok(p),
            Ok(None) => panic!("not found"),
            Err(FindError::Invalid { diagnostics, sources }) => Err(diagnostics
                .iter()
                .map(|d| {
                    let at = d.span.map(|s| format!("{}:{}", s.line, s.column)).unwrap_or_default();
                    let _ = &sources;
                    format!("{at} {}", d.message)
                })
                .collect()),
            Err(FindError::Io { source, .. }) => panic!("{source}"),
        }
    }

    #[test]
    fn the_template_is_a_valid_project_at_its_defaults() {
        let p = project(TEMPLATE).unwrap();
        assert!(p.config.project.data.is_none());
        assert!(p.config.option_defaults().is_empty());
        assert!(p.data().ends_with("data"));
    }

    #[test]
    fn found_from_a_subfolder_and_settings_become_option_defaults() {
        let p = project("[build]\npapers = [\"letter\"]\nmargin = 6.35\n[project]\noutput = \"kits\"\n").unwrap();
        assert!(p.output().ends_with("kits"));
        assert_eq!(
            p.config.option_defaults(),
            vec![
                ("paper", vec!["letter".to_string()]),
                ("margin", vec!["6.35".to_string()])
            ]
        );
    }

    #[test]
    fn every_problem_is_located() {
        let e = project("[build]\npapers = [\"a5\"]\nduplex = \"sideways\"\nmargin = 40\n").unwrap_err();
        assert_eq!(e.len(), 3, "{e:?}");
        assert!(e[0].starts_with("2:10 `papers` cannot be `a5`"), "{e:?}");
        assert!(e[1].starts_with("3:10 `duplex` cannot be `sideways`"), "{e:?}");
        assert!(e[2].starts_with("4:10 `margin` is out of range"), "{e:?}");
        let e = project("[build]\npaper = [\"a4\"]\n").unwrap_err();
        assert!(
            e[0].starts_with("2:1") && e[0].contains("unknown field `paper`"),
            "{e:?}"
        );
        let e = project("[project]\ndata = \"../elsewhere\"\n").unwrap_err();
        assert!(
            e[0].starts_with("2:8") && e[0].contains("not a folder inside the project"),
            "{e:?}"
        );
    }

    #[test]
    fn the_allowed_values_are_the_command_lines() {
        use clap::ValueEnum;
        let names = |v: &[clap::builder::PossibleValue]| v.iter().map(|p| p.get_name().to_owned()).collect::<Vec<_>>();
        let of = |all: Vec<Option<clap::builder::PossibleValue>>| names(&all.into_iter().flatten().collect::<Vec<_>>());
        use crate::cli::{CutsArg, DuplexArg, LayoutArg, PaperArg, ShopArg};
        assert_eq!(
            of(PaperArg::value_variants()
                .iter()
                .map(|v| v.to_possible_value())
                .collect()),
            PAPERS
        );
        assert_eq!(
            of(DuplexArg::value_variants()
                .iter()
                .map(|v| v.to_possible_value())
                .collect()),
            DUPLEX
        );
        assert_eq!(
            of(LayoutArg::value_variants()
                .iter()
                .map(|v| v.to_possible_value())
                .collect()),
            LAYOUTS
        );
        assert_eq!(
            of(ShopArg::value_variants()
                .iter()
                .map(|v| v.to_possible_value())
                .collect()),
            SHOPS
        );
        assert_eq!(
            of(CutsArg::value_variants()
                .iter()
                .map(|v| v.to_possible_value())
                .collect()),
            CUTS
        );
    }
}
