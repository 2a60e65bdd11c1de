//! `swjudge cards`: manage imported card databases.

use super::{CliResult, Ctx, Outcome, out, out_json};
use std::path::PathBuf;
use swjudge::cards::import;
use swjudge::render::card::{ImportSummary, import_text};

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
            Ok(if summary.imported > 0 { Outcome::Found } else { Outcome::NotFound })
        }
    }
}
