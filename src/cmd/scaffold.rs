//! `pnpkit new`
use super::{Fatal, Outcome};
use crate::cli::{Cli, NewArgs};
pub fn run(_cli: &Cli, _args: &NewArgs) -> Result<Outcome, Fatal> {
    Err(Fatal::Setup("todo".into()))
}
