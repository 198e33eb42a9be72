//! `pnpkit completions <shell>` and `pnpkit man`: generated from the clap
//! definitions, so they never drift from the real options.

use clap::CommandFactory;

use super::{Fatal, Outcome, Status};
use crate::cli::{Cli, CompletionsArgs};

/// A completion script for `shell`.
pub fn completions(args: &CompletionsArgs) -> Result<Outcome, Fatal> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "pnpkit", &mut out);
    Ok(Outcome {
        stdout: String::from_utf8_lossy(&out).into_owned(),
        status: Status::Clean,
    })
}

/// The manual page in roff, with a section per subcommand.
pub fn man() -> Result<Outcome, Fatal> {
    let cmd = Cli::command();
    let mut out = Vec::new();
    let err = |e: std::io::Error| Fatal::Setup(format!("cannot render the manual page: {e}"));
    let man = clap_mangen::Man::new(cmd.clone());
    man.render_title(&mut out).map_err(err)?;
    man.render_name_section(&mut out).map_err(err)?;
    man.render_synopsis_section(&mut out).map_err(err)?;
    man.render_description_section(&mut out).map_err(err)?;
    man.render_options_section(&mut out).map_err(err)?;
    // One section per command, with its options and examples.
    for sub in cmd.get_subcommands() {
        let name = sub.get_name().to_owned();
        let sub = sub.clone().bin_name(format!("pnpkit {name}"));
        let mut page = Vec::new();
        let m = clap_mangen::Man::new(sub.clone());
        m.render_synopsis_section(&mut page).map_err(err)?;
        m.render_description_section(&mut page).map_err(err)?;
        m.render_options_section(&mut page).map_err(err)?;
        m.render_extra_section(&mut page).map_err(err)?;
        let text = String::from_utf8_lossy(&page)
            .replace(".SH SYNOPSIS", &format!(".SH \"COMMAND: {}\"", name.to_uppercase()))
            .replace(".SH DESCRIPTION\n", "")
            .replace(".SH OPTIONS\n", ".SS Options\n");
        out.extend_from_slice(text.as_bytes());
    }
    man.render_version_section(&mut out).map_err(err)?;
    Ok(Outcome {
        stdout: String::from_utf8_lossy(&out).into_owned(),
        status: Status::Clean,
    })
}
