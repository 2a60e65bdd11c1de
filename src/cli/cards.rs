//! `swjudge cards`: manage imported card databases.

use super::{CliResult, Ctx, Outcome, out, out_json};
use std::path::PathBuf;
use swjudge::cards::import;
use swjudge::render::card::{ImportSummary, import_text, status_text};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: Sub,
}

#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Import card files: SWCCG Players Committee JSON (Light.json, Dark.json),
    /// SWDestinyDB set JSON (set/*.json) or SWTCG LackeyCCG set files (*.txt).
    /// Re-importing a file replaces its cards.
    Import(ImportArgs),
    /// Show the stored card sources, per-game counts, and rulebook errata/rulings
    /// that match no imported card.
    Status(StatusArgs),
}

#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// List every rulebook-only card, not just the first few.
    #[arg(long)]
    pub all: bool,
}

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// Files to import (format detected from content and extension).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Fail the whole import if any card record is rejected.
    #[arg(long)]
    pub strict: bool,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    match args.command {
        Sub::Import(a) => {
            let reports = import::import(&a.files, &ctx.paths.data_dir, a.strict)?;
            let summary = ImportSummary::new(reports);
            if ctx.json {
                out_json(&summary)?;
            } else {
                out(&import_text(&summary))?;
            }
            Ok(if summary.imported > 0 {
                Outcome::Found
            } else {
                Outcome::NotFound
            })
        }
        Sub::Status(a) => {
            let st = swjudge::cards::status(&ctx.paths.data_dir, &ctx.paths.rulebook)?;
            if ctx.json {
                out_json(&st)?;
            } else {
                out(&status_text(&st, if a.all { usize::MAX } else { 20 }))?;
            }
            Ok(if st.sources.is_empty() {
                Outcome::NotFound
            } else {
                Outcome::Found
            })
        }
    }
}
