//! `swjudge check`.

use super::{CliResult, Ctx, Outcome, out};
use std::path::PathBuf;
use swjudge::render::trace;
use swjudge::scenario::{self, Verdict};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The scenario file (YAML).
    pub file: PathBuf,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let ids = ctx.section_ids()?;
    super::name_imported_cards(&ctx.paths);
    let s = scenario::load(&args.file, Some(&*ids))?;
    let report = scenario::run(&s);
    if ctx.json {
        out(&trace::json(&report))?;
    } else {
        out(&trace::text(&report, &ctx.style))?;
    }
    Ok(match report.verdict {
        Verdict::Pass => Outcome::Found,
        Verdict::Fail | Verdict::NotModelled => Outcome::NotFound,
    })
}
