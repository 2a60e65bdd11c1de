//! `swjudge cards`: manage imported card databases.

use super::{CliResult, Ctx, Outcome};
use std::path::PathBuf;
use swjudge::cards::import;
use swjudge::render::card::{ImportSummary, import_text, list_text, removed_text, status_text};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: Sub,
}

#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Import card files, or folders read for every file they hold: SWCCG
    /// Players Committee JSON (Light.json, Dark.json), SWDestinyDB set JSON
    /// (set/*.json) and formats.json, SWTCG LackeyCCG set files (*.txt).
    /// Lookup tables beside them (sets.json…) are read for the card files, not
    /// imported; other files in a folder are passed over. Re-importing a file
    /// replaces its cards.
    Import(ImportArgs),
    /// List the imported databases: stored name, format, cards and source file.
    List,
    /// Remove imported databases, by stored name (see `cards list`), source
    /// file name or format.
    Remove(RemoveArgs),
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
    /// Files or folders to import (format detected from content and extension).
    #[arg(required = true, value_name = "FILE|DIR")]
    pub files: Vec<PathBuf>,
    /// Fail the whole import if any card record is rejected.
    #[arg(long)]
    pub strict: bool,
}

#[derive(Debug, clap::Args)]
pub struct RemoveArgs {
    /// Stored names (`swccg-light`), source file names (`Light.json`) or
    /// formats (`swccg`, `destiny`, `swtcg`, `destiny-formats`).
    #[arg(value_name = "NAME", required_unless_present = "all")]
    pub names: Vec<String>,
    /// Remove every imported database.
    #[arg(long)]
    pub all: bool,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let data_dir = &ctx.paths.data_dir;
    match args.command {
        Sub::Import(a) => {
            let summary = ImportSummary::new(import::import_all(&a.files, data_dir, a.strict)?);
            ctx.print(&summary, import_text)?;
            Ok(Outcome::found(summary.imported > 0))
        }
        Sub::List => {
            let list = import::list(data_dir);
            ctx.print(&list, |v| list_text(data_dir, v))?;
            Ok(Outcome::found(!list.is_empty()))
        }
        Sub::Remove(a) => {
            let removed = import::remove(data_dir, &a.names, a.all)?;
            ctx.print(&removed, |v| removed_text(v))?;
            Ok(Outcome::found(!removed.is_empty()))
        }
        Sub::Status(a) => {
            let st = swjudge::cards::status(data_dir, &ctx.paths.rulebook)?;
            ctx.print(&st, |v| status_text(v, if a.all { usize::MAX } else { 20 }))?;
            Ok(Outcome::found(!st.sources.is_empty()))
        }
    }
}
