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
    /// The folder of scenarios the check page offers and coverage counts
    /// (default: scenarios/ in the current folder when there is one, else the
    /// scenarios built into swjudge).
    #[arg(long, value_name = "DIR")]
    pub scenarios: Option<PathBuf>,
    /// How long one check may take, in seconds (1-60).
    #[arg(long, value_name = "SECONDS", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=60))]
    pub check_time_limit: u64,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let scenarios = match args.scenarios {
        Some(dir) => dir,
        None => super::scenario_paths(Vec::new())?.remove(0),
    };
    let mut config = Config::new(ctx.paths.clone(), scenarios.clone());
    config.check_time_limit = std::time::Duration::from_secs(args.check_time_limit);
    let app = Arc::new(App::open(config)?);
    for w in &app.warnings {
        note(&format!("swjudge: warning: {w}"));
    }
    if !scenarios.is_dir() {
        note(&format!(
            "swjudge: warning: no scenarios folder {}: the check page offers pasted scenarios only",
            scenarios.display()
        ));
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| swjudge::Error::Usage(format!("cannot start the server: {e}")))?;
    rt.block_on(async {
        let addr = SocketAddr::new(args.bind, args.port);
        let cannot = |e| swjudge::Error::Usage(format!("cannot listen on {addr}: {e}"));
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(cannot)?;
        let bound = listener.local_addr().map_err(cannot)?;
        if let Some(w) = warning(bound) {
            note(&w);
        }
        out(&served(bound))?;
        swjudge::serve::run(listener, app).await?;
        Ok(Outcome::Found)
    })
}

/// The line that says where to open the pages. An unspecified address (every
/// network) is reached at the loopback address here, and at this machine's network
/// address from elsewhere.
fn served(addr: SocketAddr) -> String {
    if addr.ip().is_unspecified() {
        format!(
            "swjudge: serving on http://127.0.0.1:{port} here, and from other devices at http://<this machine's network address>:{port} (Ctrl-C to stop)",
            port = addr.port()
        )
    } else {
        format!("swjudge: serving on http://{addr} (Ctrl-C to stop)")
    }
}

/// The warning printed when the pages can be reached from other machines.
fn warning(addr: SocketAddr) -> Option<String> {
    (!addr.ip().is_loopback()).then(|| {
        format!(
            "swjudge: warning: listening on {addr}: anyone on the networks this machine is on can open these pages and run checks on it. Use this only on a network you trust, and stop the server (Ctrl-C) when done."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warns_only_when_reachable_from_other_machines() {
        let at = |ip: &str| SocketAddr::new(ip.parse().unwrap(), 8080);
        assert!(warning(at("127.0.0.1")).is_none());
        assert!(warning(at("::1")).is_none());
        for ip in ["0.0.0.0", "192.168.1.20", "::"] {
            assert!(
                warning(at(ip)).is_some_and(|w| w.contains("anyone on the networks")),
                "{ip}"
            );
        }
        assert!(served(at("0.0.0.0")).contains("network address"));
        assert!(served(at("127.0.0.1")).contains("http://127.0.0.1:8080"));
    }
}
