//! `swjudge index`.

use super::{CliResult, Ctx, Outcome};
use serde::Serialize;
use std::time::Instant;
use swjudge::index::Index;

#[derive(Debug, clap::Args)]
pub struct Args {}

#[derive(Serialize)]
struct Report {
    sections: usize,
    milliseconds: f64,
    index_dir: String,
}

pub fn run(_args: Args, ctx: &Ctx) -> CliResult {
    let start = Instant::now();
    let index = Index::rebuild(&ctx.paths)?;
    let report = Report {
        sections: index.len(),
        milliseconds: (start.elapsed().as_secs_f64() * 1000.0 * 10.0).round() / 10.0,
        index_dir: ctx.paths.index.display().to_string(),
    };
    if ctx.json {
        super::out_json(&report)?;
    } else {
        super::out(&format!(
            "indexed {} sections in {:.1} ms ({})",
            report.sections, report.milliseconds, report.index_dir
        ))?;
    }
    Ok(Outcome::Found)
}
