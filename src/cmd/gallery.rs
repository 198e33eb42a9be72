//! `pnpkit gallery`
use super::{Fatal, Outcome, Progress};
use crate::cli::{Cli, GalleryArgs};
pub fn run(_cli: &Cli, _args: &GalleryArgs, _p: &dyn Progress) -> Result<Outcome, Fatal> {
    Err(Fatal::Setup("todo".into()))
}
