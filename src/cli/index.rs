//! `swjudge index`.

use super::{CliResult, Ctx, Outcome};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;
use swjudge::index::Index;

#[derive(Debug, clap::Args)]
pub struct Args {}

#[derive(Serialize)]
struct Report {
    sections: usize,
    /// Imported card documents: card text, database errata and rulings.
    card_documents: usize,
    milliseconds: f64,
    index_dir: String,
}

pub fn run(_args: Args, ctx: &Ctx) -> CliResult {
    // Search falls back to an index in memory when the folder cannot be written;
    // `index` is asked to store one, so an unwritable folder is an error here.
    check_writable(&ctx.paths.index)?;
    let start = Instant::now();
    let index = Index::rebuild(&ctx.paths)?;
    for w in &index.warnings {
        super::note(&format!("swjudge: {w}"));
    }
    let report = Report {
        sections: index.sections(),
        card_documents: index.len() - index.sections(),
        milliseconds: (start.elapsed().as_secs_f64() * 1000.0 * 10.0).round() / 10.0,
        index_dir: ctx.paths.index.display().to_string(),
    };
    ctx.print(&report, |r| {
        let cards = match r.card_documents {
            0 => String::new(),
            n => format!(" and {n} card documents (card text, errata, rulings)"),
        };
        format!(
            "indexed {} sections{cards} in {:.1} ms ({})",
            r.sections, r.milliseconds, r.index_dir
        )
    })?;
    Ok(Outcome::Found)
}

/// Create `dir` if needed and check that a file can be written in it.
fn check_writable(dir: &Path) -> swjudge::Result<()> {
    let fail = |e: std::io::Error| {
        swjudge::Error::Usage(format!(
            "cannot write the index folder {}: {e}",
            dir.display()
        ))
    };
    if dir.exists() && !dir.is_dir() {
        return Err(fail(std::io::Error::other("it is a file, not a folder")));
    }
    std::fs::create_dir_all(dir).map_err(fail)?;
    // a file made there and removed again when dropped
    tempfile::tempfile_in(dir).map_err(fail)?;
    Ok(())
}
