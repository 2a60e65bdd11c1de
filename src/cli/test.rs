//! `swjudge test`.

use super::{CliResult, Ctx};

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args, _ctx: &Ctx) -> CliResult {
    super::not_yet("test")
}
