//! `swjudge serve`: the web pages, on this machine or (with `--bind`) the local network.

use super::{CliResult, Ctx, Outcome, note, out};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use swjudge::serve::{App, Config};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Address to listen on. The default, 127.0.0.1, is reachable from this machine
    /// only; another (0.0.0.0: every network of this machine) lets other devices
    /// reach the pages, and prints a warning.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
    /// Port to listen on (0: any free port).
    #[arg(long, value_name = "N", default_value_t = 8080)]
    pub port: u16,
    /// The folder of scenarios the check page offers and coverage counts.
    #[arg(long, value_name = "DIR", default_value = "scenarios")]
    pub scenarios: PathBuf,
    /// How long one check may take, in seconds (1-60).
    #[arg(long, value_name = "SECONDS", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=60))]
    pub check_time_limit: u64,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let mut config = Config::new(ctx.paths.clone(), args.scenarios.clone());
    config.check_time_limit = std::time::Duration::from_secs(args.check_time_limit);
    let app = Arc::new(App::open(config)?);
    for w in &app.warnings {
        note(&format!("swjudge: warning: {w}"));
    }
    if !args.scenarios.is_dir() {
        note(&format!(
            "swjudge: warning: no scenarios folder {}: the check page offers pasted scenarios only",
            args.scenarios.display()
        ));
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| swjudge::Error::Usage(format!("cannot start the server: {e}")))?;
    rt.block_on(async {
        let addr = SocketAddr::new(args.bind, args.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| swjudge::Error::Usage(format!("cannot listen on {addr}: {e}")))?;
        let bound = listener
            .local_addr()
            .map_err(|e| swjudge::Error::Usage(format!("cannot listen on {addr}: {e}")))?;
        if !args.bind.is_loopback() {
            note(&format!(
                "swjudge: warning: listening on {bound}: anyone on the networks this machine is on can open these pages and run checks on it. Use this only on a network you trust, and stop the server (Ctrl-C) when done."
            ));
        }
        out(&format!("swjudge: serving on http://{} (Ctrl-C to stop)", shown(bound)))?;
        swjudge::serve::run(listener, app).await?;
        Ok(Outcome::Found)
    })
}

/// The address to open: an unspecified address (every network) is shown as this
/// machine's loopback address, which reaches it too.
fn shown(addr: SocketAddr) -> SocketAddr {
    if addr.ip().is_unspecified() {
        SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), addr.port())
    } else {
        addr
    }
}
