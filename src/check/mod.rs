//! `check`: raw packs → validated model, collecting every problem.
//!
//! Files are read and parsed in parallel; references, duplicate ids and kit
//! counts are checked once every component is known.

pub mod art;
pub mod assets;
pub mod coverage;
mod decks;
pub mod effects;
pub mod exercise;
pub mod says;
pub mod value;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use rayon::prelude::*;

use crate::diag::{Code, Diagnostic, Diagnostics, SourceMap, Span, did_you_mean};
use crate::fsx::read::Scope;
use crate::model::{Component, FieldValue, Game};
use crate::pack::decl::{Decl, read_decl};
use crate::pack::reader::quote_list;
use crate::pack::yaml::Limits;
use crate::pack::{self, LoadError, ReadFile};
use value::{Ctx, Pending, list_ids, rule_applies, rule_condition, rule_diag, unknown_member};

/// Everything a check run produced.
#[derive(Debug, Default)]
pub struct Report {
    pub games: Vec<Game>,
    pub diagnostics: Diagnostics,
    pub sources: SourceMap,
}

impl Report {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.errors() > 0
    }

    pub fn component_count(&self) -> usize {
        self.games.iter().map(Game::component_count).sum()
    }
}

/// Reads and checks the packs of `data` (all of them, or those in `only`),
/// with the fonts of the current folder's `fonts/` and the built-in ones.
pub fn check(data: &Path, only: &[String], limits: &Limits) -> Result<Report, LoadError> {
    let dirs: Vec<PackDir> = pack::pack_dirs(data, only)?
        .into_iter()
        .map(|dir| PackDir {
            dir,
            data: data.to_path_buf(),
            built_in: false,
        })
        .collect();
    check_packs(&dirs, Path::new("fonts"), limits)
}

/// A pack folder to check, and the data folder its files must stay inside.
#[derive(Clone, Debug)]
pub struct PackDir {
    pub dir: PathBuf,
    pub data: PathBuf,
    /// One of the games built into pnpkit (written out for reading).
    pub built_in: bool,
}

/// Reads and checks the packs `dirs`, in order; `fonts` is the project's
/// fonts folder (which may not exist), beside the built-in fonts.
pub fn check_packs(dirs: &[PackDir], fonts: &Path, limits: &Limits) -> Result<Report, LoadError> {
    let mut report = Report::default();
    let mut scopes: Vec<(&Path, Scope)> = Vec::new();
    for d in dirs {
        // Pack files are read only from inside the data folder, symlinks resolved.
        if !scopes.iter().any(|(p, _)| *p == d.data.as_path()) {
            let scope = Scope::within(&d.data).map_err(|source| LoadError::Io {
                path: d.data.clone(),
                source,
            })?;
            scopes.push((&d.data, scope));
        }
        let scope = &scopes
            .iter()
            .find(|(p, _)| *p == d.data.as_path())
            .expect("added above")
            .1;
        let before = report.games.len();
        check_pack(&d.dir, fonts, limits, scope, &mut report)?;
        for g in &mut report.games[before..] {
            g.built_in = d.built_in;
        }
    }
    let Report {
        diagnostics, sources, ..
    } = &mut report;
    diagnostics.sort(sources);
    Ok(report)
}

fn check_pack(dir: &Path, fonts: &Path, limits: &Limits, scope: &Scope, report: &mut Report) -> Result<(), LoadError> {
    let folder = dir.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let game_path = dir.join("game.yaml");
    if !pack::is_entry(&game_path) {
        report.diagnostics.push(
            Diagnostic::new(Code::NotAPack, format!("folder `{folder}` has no game.yaml"))
                .in_file(dir)
                .expected(format!("`{}` declaring the game", game_path.display()))
                .help("every folder of the data directory is a game pack; see docs/game-packs.md"),
        );
        return Ok(());
    }
    let mut diags = Vec::new();
    let Some(decl) = read_game_yaml(&game_path, &folder, limits, scope, report, &mut diags)? else {
        report.diagnostics.extend(diags);
        return Ok(());
    };

    // Read and parse every component file in parallel, then register them in order.
    let files = pack::component_files(dir)?;
    let loaded: Vec<_> = files
        .par_iter()
        .map(|(_, path)| pack::read_file(path, limits, scope).map(|r| (path.clone(), r)))
        .collect::<Result<_, _>>()?;
    let mut texts = Vec::with_capacity(loaded.len());
    for (path, r) in loaded {
        match r {
            ReadFile::Text(t) => texts.push((report.sources.add(path, t.clone()), Some(t))),
            ReadFile::Rejected(make) => {
                let id = report.sources.add(path, "".into());
                diags.push(make(id));
                texts.push((id, None));
            }
        }
    }

    let decl_ref = &decl;
    let results: Vec<_> = files
        .par_iter()
        .zip(texts.par_iter())
        .map(|((kind_name, _), (file, text))| {
            let mut diags = Vec::new();
            let mut pending = Pending::default();
            let mut comps = Vec::new();
            let Some(text) = text else {
                return (comps, diags, pending);
            };
            let Some(kind) = decl_ref.kinds.get(kind_name) else {
                let names: Vec<&str> = decl_ref.kinds.keys().map(String::as_str).collect();
                let mut d = Diagnostic::new(Code::UnknownKind, format!("`{kind_name}` is not a kind of this game"))
                    .at(Span {
                        file: *file,
                        line: 1,
                        column: 1,
                        start: 0,
                        end: text.find('\n').unwrap_or(text.len()),
                    })
                    .label("the file or folder name is the kind")
                    .expected(format!("a kind declared in game.yaml: {}", quote_list(&names)));
                if let Some(s) = did_you_mean(kind_name, names.iter().copied()) {
                    d = d.help(format!("did you mean `{s}`? rename the file or folder"));
                }
                diags.push(d);
                return (comps, diags, pending);
            };
            let root = match pack::parse_yaml(text, *file, limits) {
                Ok(n) => n,
                Err(d) => {
                    diags.push(*d);
                    return (comps, diags, pending);
                }
            };
            let items = match &root.value {
                crate::pack::yaml::Value::Seq(items) => items.as_slice(),
                crate::pack::yaml::Value::Null => &[],
                _ => {
                    diags.push(crate::pack::reader::wrong_type(
                        &root,
                        &format!("a `{kind_name}` components file"),
                        &format!("a list of `{kind_name}` components, each starting with `- id: …`"),
                    ));
                    return (comps, diags, pending);
                }
            };
            let decl_span = |f: &str| decl_ref.field_spans.get(&(kind_name.clone(), f.to_owned())).copied();
            let ctx = Ctx {
                kind,
                locales: &decl_ref.locales,
                decl_span: &decl_span,
                effects: &decl_ref.effects,
            };
            for item in items {
                if let Some(c) = value::component(item, &ctx, &mut diags, &mut pending) {
                    comps.push(c);
                }
            }
            (comps, diags, pending)
        })
        .collect();

    let mut components: IndexMap<String, Vec<Component>> = decl.kinds.keys().map(|k| (k.clone(), Vec::new())).collect();
    let mut pending = Pending::default();
    let mut incomplete: Vec<String> = Vec::new();
    for ((kind, _), (comps, d, p)) in files.iter().zip(results) {
        if d.iter().any(|d| {
            matches!(
                d.code,
                Code::YamlSyntax | Code::YamlLimit | Code::FileTooLarge | Code::DuplicateKey
            )
        }) {
            incomplete.push(kind.clone());
        }
        diags.extend(d);
        pending.refs.extend(p.refs);
        pending.members.extend(p.members);
        if let Some(list) = components.get_mut(kind) {
            list.extend(comps);
        }
    }
    // A file that could not be read leaves its kind incomplete: counts and
    // references into it would only repeat that problem.
    incomplete.extend(
        diags
            .iter()
            .filter(|d| matches!(d.code, Code::FileTooLarge | Code::FileRefused))
            .filter_map(|d| {
                let path = report.sources.path(d.span?.file);
                files.iter().find(|(_, p)| p == path).map(|(k, _)| k.clone())
            }),
    );
    cross_check(&decl, &components, &pending, &incomplete, &mut diags);
    let reference = read_reference(dir, &decl, limits, scope, report, &mut diags)?;
    crate::reference::cross_check(&reference, &decl.rule_ids, decl.rule_ids_span, &mut diags);
    if let Some(c) = &decl.construction {
        check_cites(c, &reference, &mut diags);
    }
    // Rule texts may quote any component: with a components file unread, their
    // failures would only repeat that problem.
    let complete = incomplete.is_empty() && !diags.iter().any(|d| d.code == Code::UnknownKind);
    check_text_templates(&decl, &components, &reference, complete, &mut diags);
    check_glossary_use(&decl, &components, &reference, &mut diags);
    // Markup and icons of every text; the icon and art files themselves.
    for c in components.values().flatten() {
        for (field, t, span) in assets::component_texts(c) {
            assets::markup(
                t,
                &format!("`{field}` of {} `{}`", c.kind, c.id),
                span,
                &decl.icons,
                &mut diags,
            );
        }
    }
    for (what, t) in reference.texts() {
        assets::markup(&t.text, &what, t.span, &decl.icons, &mut diags);
    }
    let families = crate::fonts::Lazy::new(fonts);
    let mut files = assets::icons(&decl, dir, &families, &mut diags);
    files.extend(assets::art(
        dir,
        &decl.kinds,
        &decl.sizes,
        &components,
        &families,
        &mut diags,
    ));
    let fonts = check_fonts(&decl, &families, &mut report.sources, &mut diags);
    effects::check_texts(&decl.kinds, &components, &decl.effects, &mut diags);
    let game = Game {
        id: decl.id,
        name: decl.name,
        locales: decl.locales,
        sizes: decl.sizes,
        kinds: decl.kinds,
        kit: decl.kit,
        decks: decl.decks,
        cover: decl.cover,
        components,
        rule_ids: decl.rule_ids,
        construction: decl.construction,
        reference,
        dir: dir.to_path_buf(),
        icons: decl.icons.into_iter().map(|(k, (t, _))| (k, t)).collect(),
        fonts,
        assets: std::sync::Arc::new(files),
        effects: decl.effects,
        built_in: false,
    };
    // Decks are made from validated cards.
    if !diags.iter().any(|d| d.severity == crate::diag::Severity::Error) {
        diags.extend(decks::check_decks(&game));
    }
    // The rules engine reads validated data: its tables are checked once
    // the pack itself is clean (docs/architecture.md, "Rules engines").
    if !diags.iter().any(|d| d.severity == crate::diag::Severity::Error) {
        diags.extend(crate::rules::check_engine_data(&game));
    }
    report.diagnostics.extend(diags);
    report.games.push(game);
    Ok(())
}

/// The pack's font roles, each family checked against the fonts in the
/// project's `fonts/` and the built-in ones. A font file that is refused (a
/// link out of the project) is reported at the file.
fn check_fonts(
    decl: &Decl,
    fonts: &crate::fonts::Lazy,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> IndexMap<String, String> {
    if decl.fonts.is_empty() {
        return IndexMap::new();
    }
    let found = fonts.get();
    for (path, refusal) in &found.refused {
        let id = sources.add(path.clone(), "".into());
        diags.push(pack::refused(id, pack::Input::Font, refusal));
    }
    let families = &found.families;
    let mut out = IndexMap::new();
    for (role, (family, span)) in &decl.fonts {
        if families.iter().any(|f| f.eq_ignore_ascii_case(family)) {
            out.insert(role.clone(), family.clone());
        } else {
            diags.push(
                crate::fonts::unknown(family, families)
                    .at(*span)
                    .label(format!("the `{role}` font")),
            );
        }
    }
    out
}

/// Renders every text template of every component and of the rules
/// reference in every locale.
fn check_text_templates(
    decl: &Decl,
    components: &IndexMap<String, Vec<Component>>,
    reference: &crate::reference::Reference,
    components_complete: bool,
    diags: &mut Vec<Diagnostic>,
) {
    let envs: Vec<crate::text::TextEnv> = decl
        .locales
        .iter()
        .map(|l| crate::text::TextEnv::new(&reference.glossary, &reference.facts, components, l))
        .collect();
    for c in components.values().flatten() {
        // A field that failed its own check is missing from the values a text
        // can quote; its error was reported already.
        let has_invalid_field = c.field_spans.keys().any(|f| f != "copies" && !c.fields.contains_key(f));
        if has_invalid_field {
            continue;
        }
        for (field, locale, error) in crate::text::check_component(&envs, c) {
            let names: Vec<&str> = ["id", "name", "copies"]
                .into_iter()
                .chain(c.fields.keys().map(String::as_str))
                .collect();
            diags.push(
                Diagnostic::new(
                    Code::TextTemplate,
                    format!(
                        "the `{locale}` text of field `{field}` of {} `{}` does not render",
                        c.kind, c.id
                    ),
                )
                .at(c.span_of(&field))
                .label(format!("in `{locale}`"))
                .found(error)
                .expected(format!(
                    "a text quoting values of this {} ({}), `term(id=…)`, `fact(id=…)` or `components[…]`",
                    c.kind,
                    quote_list(&names)
                )),
            );
        }
    }
    let reference_texts = if components_complete {
        reference.texts()
    } else {
        Vec::new()
    };
    for (what, t) in reference_texts {
        for env in &envs {
            let Some(s) = t.text.0.get(&env.locale) else { continue };
            if let Err(error) = env.render(s, None) {
                diags.push(
                    Diagnostic::new(
                        Code::TextTemplate,
                        format!("{what} does not render in `{}`", env.locale),
                    )
                    .at(t.span)
                    .label(format!("in `{}`", env.locale))
                    .found(error)
                    .expected(
                        "`term(id=…)` of the glossary, `fact(id=…)` of facts.yaml, or `components[\"kind\"][\"id\"]`",
                    ),
                );
            }
        }
    }
}

/// Warns where a translation does not use the glossary's word for a term
/// its source uses.
fn check_glossary_use(
    decl: &Decl,
    components: &IndexMap<String, Vec<Component>>,
    reference: &crate::reference::Reference,
    diags: &mut Vec<Diagnostic>,
) {
    if reference.glossary.is_empty() || decl.locales.len() < 2 {
        return;
    }
    let src = &decl.locales[0];
    let words: Vec<_> = decl.locales[1..]
        .iter()
        .map(|dst| (dst, crate::reference::Words::new(&reference.glossary, src, dst)))
        .collect();
    let mut check = |what: &str, text: &crate::model::Text, span: Span| {
        let Some(source) = text.0.get(src) else { return };
        for (dst, words) in &words {
            // An absent or empty translation is reported as missing already.
            let Some(translation) = text.0.get(*dst).filter(|t| !t.trim().is_empty()) else {
                continue;
            };
            for term in words.missing(source, translation) {
                diags.push(
                    Diagnostic::new(
                        Code::GlossaryTerm,
                        format!(
                            "the `{dst}` text of {what} does not say `{}` for `{}`",
                            term.forms.get(dst),
                            term.forms.get(src)
                        ),
                    )
                    .at(span)
                    .label(format!("`{src}` uses the term `{}`", term.id))
                    .expected(format!(
                        "the glossary's `{dst}` word `{}`{} (or `{{{{ term(id=\"{}\") }}}}` in both)",
                        term.forms.get(dst),
                        term.plural
                            .as_ref()
                            .map(|p| format!(" / `{}`", p.get(dst)))
                            .unwrap_or_default(),
                        term.id
                    ))
                    .related(term.span, "glossary entry")
                    .help("if the word is used in another sense here, rephrase, or give the term `check: false`"),
                );
            }
        }
    };
    for c in components.values().flatten() {
        for (field, v) in &c.fields {
            let span = c.span_of(field);
            crate::text::visit_texts(v, &mut |t| {
                check(&format!("field `{field}` of {} `{}`", c.kind, c.id), t, span)
            });
        }
        check(&format!("the name of {} `{}`", c.kind, c.id), &c.name, c.span);
    }
    for (what, t) in reference.texts() {
        check(&what, &t.text, t.span);
    }
}

/// Reads glossary.yaml, facts.yaml, rules/*.yaml and quickref.yaml when present.
fn read_reference(
    dir: &Path,
    decl: &Decl,
    limits: &Limits,
    scope: &Scope,
    report: &mut Report,
    diags: &mut Vec<Diagnostic>,
) -> Result<crate::reference::Reference, LoadError> {
    use crate::reference as r;
    let mut out = r::Reference::default();
    let mut files: Vec<PathBuf> = ["glossary.yaml", "facts.yaml", "quickref.yaml"]
        .iter()
        .map(|f| dir.join(f))
        .filter(|p| pack::is_entry(p))
        .collect();
    let rules_dir = dir.join("rules");
    if rules_dir.is_dir() {
        let mut chapters: Vec<PathBuf> = std::fs::read_dir(&rules_dir)
            .map_err(|source| LoadError::Io {
                path: rules_dir.clone(),
                source,
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| pack::is_entry(p) && matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")))
            .collect();
        chapters.sort();
        files.extend(chapters);
    }
    for path in files {
        let text = match pack::read_file(&path, limits, scope)? {
            ReadFile::Text(t) => t,
            ReadFile::Rejected(make) => {
                let id = report.sources.add(path.clone(), "".into());
                diags.push(make(id));
                continue;
            }
        };
        let file = report.sources.add(path.clone(), text.clone());
        let root = match pack::parse_yaml(&text, file, limits) {
            Ok(n) => n,
            Err(d) => {
                diags.push(*d);
                continue;
            }
        };
        let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        match name.as_str() {
            "glossary.yaml" if path.parent() == Some(dir) => {
                out.glossary = r::read_glossary(&root, &decl.locales, diags)
            }
            "facts.yaml" if path.parent() == Some(dir) => out.facts = r::read_facts(&root, &decl.locales, diags),
            "quickref.yaml" if path.parent() == Some(dir) => {
                out.quickref = r::read_quickref(&root, &decl.locales, diags)
            }
            _ => {
                let shown = format!("rules/{name}");
                if let Some(ch) = r::read_chapter(&root, &shown, &decl.locales, diags) {
                    out.chapters.push(ch);
                }
            }
        }
    }
    Ok(out)
}

fn read_game_yaml(
    path: &Path,
    folder: &str,
    limits: &Limits,
    scope: &Scope,
    report: &mut Report,
    diags: &mut Vec<Diagnostic>,
) -> Result<Option<Decl>, LoadError> {
    let read = pack::read_file(path, limits, scope)?;
    let text = match &read {
        ReadFile::Text(t) => t.clone(),
        ReadFile::Rejected(_) => "".into(),
    };
    let file = report.sources.add(PathBuf::from(path), text.clone());
    if let ReadFile::Rejected(make) = read {
        diags.push(make(file));
        return Ok(None);
    }
    let root = match pack::parse_yaml(&text, file, limits) {
        Ok(n) => n,
        Err(d) => {
            diags.push(*d);
            return Ok(None);
        }
    };
    Ok(read_decl(&root, folder, diags))
}

/// Checks that need every component: duplicate ids, references, member
/// lookups and kit counts.
fn cross_check(
    decl: &Decl,
    components: &IndexMap<String, Vec<Component>>,
    pending: &Pending,
    incomplete: &[String],
    diags: &mut Vec<Diagnostic>,
) {
    let mut index: HashMap<(&str, &str), &Component> = HashMap::new();
    for (kind, list) in components {
        for c in list {
            if let Some(first) = index.get(&(kind.as_str(), c.id.as_str())) {
                diags.push(
                    Diagnostic::new(
                        Code::DuplicateId,
                        format!("two `{kind}` components have the id `{}`", c.id),
                    )
                    .at(c.span)
                    .label("second component with this id")
                    .related(first.span, "first one here")
                    .expected("ids unique within a kind")
                    .help("rename one of them; references use the id"),
                );
            } else {
                index.insert((kind.as_str(), c.id.as_str()), c);
            }
        }
    }
    for r in &pending.refs {
        // Refs into an undeclared kind were reported once, at the declaration.
        let known_kind = decl.kinds.contains_key(&r.kind) && !incomplete.contains(&r.kind);
        if !known_kind || index.contains_key(&(r.kind.as_str(), r.id.as_str())) {
            continue;
        }
        let ids: Vec<&str> = components
            .get(&r.kind)
            .map(|l| l.iter().map(|c| c.id.as_str()).collect())
            .unwrap_or_default();
        let mut d = Diagnostic::new(
            Code::UnknownReference,
            format!("{} refers to a `{}` that does not exist", r.what, r.kind),
        )
        .at(r.span)
        .label(format!("no `{}` with id `{}`", r.kind, r.id))
        .found(format!("`{}`", r.id))
        .expected(if ids.is_empty() {
            format!("the id of a `{}`, but the pack has none", r.kind)
        } else {
            format!("the id of a `{}`: {}", r.kind, quote_list(&ids))
        });
        d = d.suggest(&r.id, ids.iter().copied());
        diags.push(d);
    }
    for m in &pending.members {
        // An unknown owner was already reported as an unknown reference.
        let Some(owner) = index.get(&(m.owner_kind.as_str(), m.owner_id.as_str())) else {
            continue;
        };
        let ids = list_ids(owner.field(&m.list));
        if !ids.contains(&m.value.as_str()) {
            let owner_name = format!("{} `{}`", m.owner_kind, m.owner_id);
            diags.push(
                unknown_member(&m.span, &m.what, &m.value, &m.list, &owner_name, &ids)
                    .related(owner.span, format!("{owner_name} is declared here")),
            );
        }
    }
    for kind in decl.kinds.values() {
        for rule in &kind.rules {
            let Some((via, pairs)) = &rule.matches else { continue };
            let Some(crate::model::FieldType::Ref { to, .. }) = kind.fields.get(via).map(|f| &f.ty) else {
                continue;
            };
            for c in components.get(&kind.id).into_iter().flatten() {
                if !rule_applies(rule, c) {
                    continue;
                }
                let Some(other) = c
                    .field(via)
                    .and_then(FieldValue::as_str)
                    .and_then(|id| index.get(&(to.as_str(), id)))
                else {
                    continue;
                };
                for (here, there) in pairs {
                    let (a, b) = (c.key_of(here), other.key_of(there));
                    if a != b {
                        let show = |v: &Option<String>| v.as_ref().map_or("absent".to_string(), |v| format!("`{v}`"));
                        diags.push(
                            rule_diag(
                                rule,
                                c,
                                c.span_of(here),
                                format!(
                                    "`{here}` must equal `{there}` of {to} `{}`{}",
                                    other.id,
                                    rule_condition(rule)
                                ),
                                format!("{here} is {}", show(&a)),
                            )
                            .found(show(&a))
                            .expected(format!("{} (`{there}` of {to} `{}`)", show(&b), other.id))
                            .related(other.span_of(there), format!("{to} `{}` has {}", other.id, show(&b))),
                        );
                    }
                }
            }
        }
    }
    for entry in &decl.kit {
        if entry.kinds.iter().any(|k| incomplete.contains(k)) {
            continue;
        }
        let mut total = 0i64;
        let mut matched = 0usize;
        for kind in &entry.kinds {
            for c in components.get(kind).into_iter().flatten() {
                let passes = entry
                    .filter
                    .iter()
                    .all(|(field, values)| c.key_of(field).is_some_and(|v| values.contains(&v)));
                if !passes {
                    continue;
                }
                matched += 1;
                total += match &entry.sum {
                    Some(f) => c.field(f).and_then(FieldValue::as_int).unwrap_or(0),
                    None => i64::from(c.copies),
                };
            }
        }
        if total != entry.count {
            let what = match &entry.sum {
                Some(f) => format!("the sum of `{f}`"),
                None => "the sum of `copies`".to_string(),
            };
            let filter = if entry.filter.is_empty() {
                String::new()
            } else {
                format!(
                    " where {}",
                    entry
                        .filter
                        .iter()
                        .map(|(k, v)| format!("{k} = {}", v.join(" | ")))
                        .collect::<Vec<_>>()
                        .join(" and ")
                )
            };
            let mut d = Diagnostic::new(
                Code::KitCountMismatch,
                format!(
                    "kit entry `{}` declares {} but the data has {total}",
                    entry.id, entry.count
                ),
            )
            .label(format!("declared {}", entry.count))
            .found(format!(
                "{total}: {what} over {matched} {} component{}{filter}",
                entry.kinds.join("/"),
                if matched == 1 { "" } else { "s" }
            ))
            // Without readable locales (reported already) the entry is named by its id.
            .expected(format!(
                "{} ({})",
                entry.count,
                decl.locales.first().map_or(entry.id.as_str(), |l| entry.name.get(l))
            ));
            if let Some(span) = entry.span {
                d = d.at(span);
            }
            diags.push(d);
        }
    }
}

/// Every construction rule's `cite:` names a section of the rules reference.
fn check_cites(c: &crate::model::Construction, reference: &crate::model::Reference, diags: &mut Vec<Diagnostic>) {
    let sections = reference.sections();
    let ids: Vec<&str> = sections.iter().map(|(_, s)| s.id.as_str()).collect();
    for rule in c.rules.iter().chain(c.rules.iter().flat_map(|r| r.parts.iter())) {
        if let Some(cite) = &rule.cite
            && !ids.contains(&cite.as_str())
        {
            diags.push(
                Diagnostic::new(
                    Code::BadDeclaration,
                    format!(
                        "construction rule `{}` cites `{cite}`, which is not a section of the rules",
                        rule.id
                    ),
                )
                .at(rule.span)
                .label("unknown section")
                .expected("the id of a section in rules/*.yaml")
                .suggest(cite, ids.iter().copied()),
            );
        }
    }
}
