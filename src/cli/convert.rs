//! `swjudge convert`: regenerate `rulebook/` from the seed documents.

use super::{CliResult, Ctx, Outcome};
use std::path::PathBuf;
use swjudge::rulebook::convert;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folder holding the seed text files.
    #[arg(long, value_name = "DIR", default_value = "../shared/seeds")]
    pub seeds: PathBuf,
    /// Output folder (default: the rulebook folder).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let out = args.out.unwrap_or_else(|| ctx.paths.rulebook.clone());
    let files = convert::convert_all(&args.seeds, &out.join("corrections"))?;
    let report = convert::write_all(&files, &out)?;
    super::note(&format!(
        "wrote {} files, {} sections ({} new ids) to {}",
        report.files,
        report.sections,
        report.new_ids,
        out.display()
    ));
    Ok(Outcome::Found)
}
