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
    let corpus = swjudge::rulebook::Corpus::load(&ctx.paths.rulebook).ok();
    let ids = corpus.as_ref().map(|c| c as &dyn scenario::SectionIds);
    super::name_imported_cards(&ctx.paths);
    let s = scenario::load(&args.file, ids)?;
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
