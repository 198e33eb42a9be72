//! `pnpkit export`: PNG per card design for print shops, and Tabletop
//! Simulator deck sheets with their JSON. Everything is rendered first and
//! written only when all of it succeeded.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::check::human;
use super::{Fatal, Outcome, Status, use_color};
use crate::cli::{Cli, ExportArgs, Format, StyleArg};
use crate::diag::render_human;
use crate::export::Style;
use crate::fsx::write_atomic;
use crate::render::pipeline::template_for;
use crate::render::world::Shared;
use crate::render::{KitOptions, compile, plan_pieces};

pub fn run(cx: &super::Ctx, args: &ExportArgs, progress: &dyn super::Progress) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let start = Instant::now();
    let color = use_color(cli.color);
    let report = cx.check(&args.select.games)?;
    if report.has_errors() {
        let mut stdout = human(&report, color, None);
        stdout.push_str("export refused: the data has errors\n");
        return Ok(Outcome {
            stdout,
            status: Status::Problems,
        });
    }
    let out = cx.out(&args.select.out)?;
    let shared = cx.shared()?;
    if let Some(shop) = args.shop {
        return shop_export(cli, args, &out, shop, &report.games, &shared, progress);
    }
    let style = match args.style {
        StyleArg::Mpc => Style::Mpc,
        StyleArg::Tgc => Style::Tgc,
        StyleArg::Exact => Style::Exact,
    };
    let opts = KitOptions::default();
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut problems = String::new();
    let jobs: Vec<_> = report
        .games
        .iter()
        .flat_map(|g| {
            g.locales
                .iter()
                .filter(|l| args.select.locale.is_empty() || args.select.locale.contains(l))
                .map(move |l| (g, l.clone()))
        })
        .collect();
    progress.start(jobs.len(), "exporting");
    for (game, locale) in jobs {
        let pieces = plan_pieces(game, &locale, &opts, &template_for(&shared, game));
        let mut docs = Vec::new();
        for chunk in &pieces.chunks {
            let mut sources = crate::diag::SourceMap::default();
            match compile(&shared, chunk, &[], &mut sources, None) {
                Ok(c) => docs.push(c.document),
                Err(diags) => problems.push_str(&render_human(&diags, &sources, color)),
            }
        }
        if docs.len() < pieces.chunks.len() {
            continue;
        }
        let dir = out.join(&game.id).join("export").join(&locale);
        let made = crate::export::game_files(game, &locale, &pieces, &docs, style, &args.url_prefix)
            .map_err(|e| Fatal::Setup(format!("cannot export {}: {e}", game.id)))?;
        files.extend(made.into_iter().map(|(p, b)| (dir.join(p), b)));
        progress.advance();
    }
    progress.finish();
    if !problems.is_empty() {
        problems.push_str("export failed: nothing was written\n");
        return Ok(Outcome {
            stdout: problems,
            status: Status::Problems,
        });
    }
    for (path, bytes) in &files {
        write_atomic(path, bytes).map_err(|source| Fatal::Write {
            path: path.clone(),
            source,
        })?;
    }
    let pngs = files
        .iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "png"))
        .count();
    let stdout = match cli.format {
        Format::Human => format!(
            "exported {pngs} images and {} deck files into {} in {:.2} s\n",
            files.len() - pngs,
            out.display(),
            start.elapsed().as_secs_f64()
        ),
        Format::Json => {
            let list: Vec<_> = files.iter().map(|(p, _)| p.display().to_string()).collect();
            let mut s = serde_json::to_string_pretty(&serde_json::json!({ "files": list })).unwrap_or_default();
            s.push('\n');
            s
        }
    };
    Ok(Outcome {
        stdout,
        status: Status::Clean,
    })
}

/// `export --shop`: the library lays every deck out for the shop; this writes the files.
fn shop_export(
    cli: &Cli,
    args: &ExportArgs,
    out: &Path,
    shop: crate::cli::ShopArg,
    games: &[crate::model::Game],
    shared: &Shared,
    progress: &dyn super::Progress,
) -> Result<Outcome, Fatal> {
    use crate::cli::ShopArg;
    let id = match shop {
        ShopArg::Tgc => "tgc",
        ShopArg::Mpc => "mpc",
        ShopArg::Dtc => "dtc",
        ShopArg::Pnp => "pnp",
    };
    let shop = crate::shop::shop(id).expect("every shop argument names a shop");
    let jobs: Vec<_> = games
        .iter()
        .flat_map(|g| {
            g.locales
                .iter()
                .filter(|l| args.select.locale.is_empty() || args.select.locale.contains(l))
                .map(move |l| (g, l.clone()))
        })
        .collect();
    progress.start(jobs.len(), "exporting for the shop");
    let mut files = Vec::new();
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    for (game, locale) in jobs {
        match crate::shop::export(shared, game, &locale, shop, &template_for(shared, game)) {
            Ok(e) => {
                files.extend(e.files);
                for d in e.skipped {
                    if !warnings
                        .iter()
                        .any(|(w, _): &(crate::diag::Diagnostic, _)| w.message == d.message)
                    {
                        warnings.push((d, crate::diag::SourceMap::default()));
                    }
                }
            }
            Err(p) => problems.extend(p),
        }
        progress.advance();
    }
    progress.finish();
    let color = use_color(cli.color);
    if !problems.is_empty() {
        let mut stdout = super::render_each(&problems, cli.format, color);
        stdout.push_str("export failed: nothing was written\n");
        return Ok(Outcome::report(stdout, false));
    }
    for (path, bytes) in &files {
        let path = out.join(path);
        write_atomic(&path, bytes).map_err(|source| Fatal::Write { path, source })?;
    }
    let stdout = match cli.format {
        Format::Human => {
            super::render_each(&warnings, cli.format, color)
                + &format!(
                    "exported {} files for {} into {}/<game>/shop/{}/\n",
                    files.len(),
                    shop.name,
                    out.display(),
                    shop.id
                )
        }
        Format::Json => {
            let list: Vec<_> = files.iter().map(|(p, _)| out.join(p).display().to_string()).collect();
            let diags: Vec<_> = warnings.iter().map(|(d, s)| crate::diag::to_json(d, s)).collect();
            let mut s = serde_json::to_string_pretty(&serde_json::json!({"files": list, "diagnostics": diags}))
                .unwrap_or_default();
            s.push('\n');
            s
        }
    };
    Ok(Outcome::report(stdout, true))
}
