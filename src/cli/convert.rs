//! `swjudge convert`: regenerate `rulebook/` from the seed documents.

use super::{CliResult, Ctx, Outcome};
use serde::Serialize;
use std::path::{Path, PathBuf};
use swjudge::Error;
use swjudge::rulebook::convert;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folder holding the seed text files.
    #[arg(long, value_name = "DIR", default_value = "../shared/seeds")]
    pub seeds: PathBuf,
    /// Output folder (default: the --rulebook folder, else ./rulebook).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Serialize)]
struct Report {
    #[serde(flatten)]
    written: convert::WriteReport,
    out: String,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    // never the unpacked built-in copy: that is a cache, not a source
    let out = args
        .out
        .or_else(|| ctx.rulebook_dir.clone())
        .unwrap_or_else(|| PathBuf::from("rulebook"));
    if !args.seeds.is_dir() {
        return Err(super::usage(format!(
            "--seeds {}: not a folder of seed text files",
            args.seeds.display()
        )));
    }
    if out.exists() && !out.is_dir() {
        let msg = format!("--out {}: is a file, not a folder", out.display());
        return Err(super::usage(msg));
    }
    let corrections = out.join("corrections");
    if !corrections.is_dir() {
        return Err(super::usage(format!(
            "{}: no corrections folder; the seeds convert only with their hand corrections (copy rulebook/corrections there)",
            corrections.display()
        )));
    }
    // ids.txt keeps every ID ever published: one that cannot be read must stop
    // the run, not be replaced by the current IDs alone.
    swjudge::rulebook::lint::published_ids(&out)?;
    let files = convert::convert_all(&args.seeds, &corrections)?;
    prepare(&files, &out)?;
    let written = convert::write_all(&files, &out)?;
    let line = format!(
        "wrote {} files, {} sections ({} new ids) to {}",
        written.files,
        written.sections,
        written.new_ids,
        out.display()
    );
    let report = Report {
        written,
        out: out.display().to_string(),
    };
    if ctx.json {
        super::out_json(&report)?;
    } else {
        super::note(&line);
    }
    Ok(Outcome::Found)
}

/// Create every output folder and check that no output path is a folder, so a
/// folder in the way stops the run before any file is replaced.
fn prepare(files: &[convert::OutFile], out: &Path) -> swjudge::Result<()> {
    let targets = files
        .iter()
        .map(|f| out.join(&f.path))
        .chain([out.join("ids.txt")]);
    for path in targets {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        if path.is_dir() {
            return Err(Error::Usage(format!(
                "{}: is a folder; move it away to convert",
                path.display()
            )));
        }
    }
    Ok(())
}
