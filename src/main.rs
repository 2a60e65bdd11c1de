//! The `swjudge` binary: parse arguments, run, map the outcome to an exit code.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::parse();
    match cli::run(args) {
        Ok(outcome) => outcome.exit_code(),
        Err(cli::Failure::BrokenPipe) => ExitCode::SUCCESS,
        Err(cli::Failure::Error(e)) => {
            eprintln!("swjudge: {e}");
            ExitCode::from(2)
        }
    }
}
