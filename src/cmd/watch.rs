//! `pnpkit watch`
use super::{Fatal, Outcome, Progress};
use crate::cli::{Cli, WatchArgs};
pub fn run(_cli: &Cli, _args: &WatchArgs, _p: &dyn Progress) -> Result<Outcome, Fatal> {
    Err(Fatal::Setup("todo".into()))
}
