//! `swjudge man`: the manual page, from the same definitions as `--help`.

use super::{Cli, CliResult, Ctx, Outcome};
use clap::CommandFactory;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write `swjudge.1` and a page for each command (`swjudge-search.1`…) into
    /// this folder (for example `/usr/local/share/man/man1`) instead of printing
    /// the main page.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let cmd = Cli::command();
    let Some(dir) = args.out else {
        let mut page = Vec::new();
        clap_mangen::Man::new(cmd)
            .render(&mut page)
            .map_err(|e| swjudge::Error::io("<man page>", e))?;
        let page = String::from_utf8_lossy(&page).into_owned();
        ctx.print(&serde_json::json!({ "page": page }), |_| page.clone())?;
        return Ok(Outcome::Found);
    };
    std::fs::create_dir_all(&dir).map_err(|e| swjudge::Error::io(&dir, e))?;
    clap_mangen::generate_to(cmd, &dir).map_err(|e| swjudge::Error::io(&dir, e))?;
    let mut written: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| swjudge::Error::io(&dir, e))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("swjudge") && n.ends_with(".1"))
        .collect();
    written.sort();
    let report = serde_json::json!({ "folder": dir.display().to_string(), "pages": written });
    ctx.print(&report, |_| {
        format!(
            "{} pages written to {}: {}",
            written.len(),
            dir.display(),
            written.join(", ")
        )
    })?;
    Ok(Outcome::Found)
}
