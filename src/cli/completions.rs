//! `swjudge completions SHELL`: the shell's completion script, from the same
//! definitions as `--help`.

use super::{Cli, CliResult, Ctx, Outcome, out, out_json};
use clap::CommandFactory;
use clap_complete::Shell;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell: bash, zsh, fish, elvish or powershell. For bash, for
    /// example: `swjudge completions bash > ~/.local/share/bash-completion/completions/swjudge`.
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "swjudge", &mut script);
    let script = String::from_utf8_lossy(&script).into_owned();
    if ctx.json {
        out_json(&serde_json::json!({ "shell": args.shell.to_string(), "script": script }))?;
    } else {
        out(&script)?;
    }
    Ok(Outcome::Found)
}
