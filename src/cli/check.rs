//! `swjudge check`.

use super::{CliResult, Ctx, Outcome, out};
use std::path::PathBuf;
use swjudge::render::{summary, trace};
use swjudge::scenario::{self, Verdict};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The scenario file (YAML).
    pub file: PathBuf,
    /// Print every step of the trace (runs of passes folded into one line),
    /// instead of the summary: the disputed action, what the players did and
    /// what came of it, the outcome and what changed on the board.
    #[arg(long)]
    pub trace: bool,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let ids = ctx.section_ids()?;
    super::name_imported_cards(&ctx.paths);
    let s = scenario::load(&args.file, Some(&*ids))?;
    let report = scenario::run(&s);
    if ctx.json {
        out(&trace::json(&report))?;
    } else if args.trace {
        out(&trace::text(&report, &ctx.style))?;
    } else {
        out(&summary::text(&summary::Summary::new(&report), &ctx.style))?;
    }
    Ok(Outcome::found(report.verdict == Verdict::Pass))
}
