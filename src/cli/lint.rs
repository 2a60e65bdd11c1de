//! `swjudge lint`.

use super::{CliResult, Ctx, Outcome};
use std::fmt::Write as _;
use swjudge::rulebook::{Corpus, lint};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Also list every cross-reference that names no section.
    #[arg(long)]
    pub unresolved: bool,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let corpus = Corpus::load(&ctx.paths.rulebook)?;
    let report = lint::lint(&corpus)?;
    ctx.print(&report, |report| {
        let mut out = String::new();
        for e in &report.errors {
            let _ = writeln!(out, "error: {e}");
        }
        if args.unresolved {
            for u in &report.unresolved {
                let _ = writeln!(
                    out,
                    "unresolved: {}:{}: {} → \"{}\"",
                    u.file, u.line, u.from, u.text
                );
            }
        }
        let c = report.cross_references;
        let _ = write!(
            out,
            "{} sections, {} error{}; cross-references: {} resolved, {} unresolved",
            report.sections,
            report.errors.len(),
            if report.errors.len() == 1 { "" } else { "s" },
            c.resolved,
            c.unresolved
        );
        if c.unresolved > 0 && !args.unresolved {
            out.push_str(" (--unresolved lists them)");
        }
        out
    })?;
    Ok(Outcome::found(report.is_clean()))
}
