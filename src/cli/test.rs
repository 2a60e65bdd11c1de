//! `swjudge test`.

use super::{CliResult, Ctx, Outcome};
use itertools::Itertools;
use std::path::PathBuf;
use swjudge::render::trace::{self, TestLine, TestSummary};
use swjudge::scenario;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files or folders to run (default: scenarios/ in the current folder when
    /// there is one, else the scenarios built into swjudge).
    pub paths: Vec<PathBuf>,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let paths = super::scenario_paths(args.paths)?;
    for p in &paths {
        if p.exists() && !p.is_file() && !p.is_dir() {
            return Err(super::usage(format!(
                "{}: not a regular file or folder",
                p.display()
            )));
        }
    }
    let files = scenario::find_files(&paths)?;
    if files.is_empty() {
        let shown = paths.iter().map(|p| p.display()).join(", ");
        if ctx.json {
            super::out_json(&TestSummary::default())?;
        }
        super::note(&format!("no scenario files (*.yaml) under {shown}"));
        return Ok(Outcome::NotFound);
    }
    let ids = ctx.section_ids()?;
    super::name_imported_cards(&ctx.paths);
    // Each report is reduced to its line on the thread that ran it.
    let scenarios = scenario::run_files_with(&files, Some(&*ids), |f, result| {
        let name = f.display().to_string();
        match result {
            Ok(report) => TestLine::from_report(&name, &report),
            Err(e) => TestLine::invalid(&name, &e),
        }
    });
    let failed = scenarios.iter().filter(|l| l.failed()).count();
    let invalid = scenarios.iter().filter(|l| l.verdict.is_none()).count();
    let summary = TestSummary {
        passed: scenarios.len() - failed,
        failed,
        scenarios,
    };
    ctx.print(&summary, trace::test_text)?;
    if invalid > 0 {
        return Err(super::Failure::Error(swjudge::Error::Input(format!(
            "{invalid} scenario file{} invalid (counted as failed)",
            if invalid == 1 { " is" } else { "s are" }
        ))));
    }
    Ok(Outcome::found(summary.failed == 0))
}
