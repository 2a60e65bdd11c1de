//! Serve benchmark: the server's start, each page's first response, and a bounded
//! load test on the loopback address (50 clients typing searches and checking
//! scenarios, `SWJUDGE_LOAD_SECS` seconds, 30 by default), with the resident memory.
//!
//! Run with `cargo bench --bench serve`. With `SWJUDGE_REAL_DATA` naming the folder
//! of the real card databases, every card of the three games is imported first.

#[path = "../tests/http.rs"]
mod http;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use swjudge::paths::Paths;
use swjudge::serve::{App, Config};

const CLIENTS: usize = 50;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::env::set_current_dir(&root).unwrap_or_else(|e| fail(&format!("{}: {e}", root.display())));
    let tmp = std::env::temp_dir().join(format!("swjudge-bench-serve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let paths = Paths {
        rulebook: root.join("rulebook"),
        index: tmp.join("index"),
        data_dir: tmp.join("data"),
    };
    let files = match std::env::var_os("SWJUDGE_REAL_DATA") {
        Some(real) => card_files(Path::new(&real)),
        None => ["swccg-rulings.json", "swccg-light.json", "destiny-set.json"]
            .map(|f| root.join("tests/fixtures/cards").join(f))
            .to_vec(),
    };
    let reports = swjudge::cards::import::import(&files, &paths.data_dir, false)
        .unwrap_or_else(|e| fail(&format!("import: {e}")));
    let cards: usize = reports.iter().map(|r| r.imported).sum();
    println!("cards imported: {cards} from {} files", files.len());
    // The first open builds the index; a server is started on a built one.
    let built = Instant::now();
    drop(
        App::open(Config::new(paths.clone(), PathBuf::from("scenarios")))
            .unwrap_or_else(|e| fail(&e.to_string())),
    );
    println!(
        "index built and state loaded: {:.0} ms",
        ms(built.elapsed())
    );
    let start = Instant::now();
    let app = Arc::new(
        App::open(Config::new(paths, PathBuf::from("scenarios")))
            .unwrap_or_else(|e| fail(&e.to_string())),
    );
    println!(
        "server state loaded (index current): {:.0} ms",
        ms(start.elapsed())
    );
    let addr = serve(app);
    first_responses(addr);
    let secs = std::env::var("SWJUDGE_LOAD_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let questions = questions(&root);
    // Every 25th shipped scenario, of all three games.
    let shipped: Vec<String> = swjudge::scenario::find_files(&[PathBuf::from("scenarios")])
        .unwrap_or_else(|e| fail(&e.to_string()))
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "yaml"))
        .step_by(25)
        .filter_map(|f| {
            f.strip_prefix("scenarios")
                .ok()
                .map(|r| r.to_string_lossy().replace('\\', "/"))
        })
        .collect();
    let pasted = std::fs::read_to_string(root.join("scenarios/swccg/battles/simple-example.yaml"))
        .unwrap_or_else(|e| fail(&e.to_string()));
    println!(
        "load: {CLIENTS} clients for {secs} s ({} questions typed key by key, a check after each)",
        questions.len()
    );
    let mut seen = http::load(
        addr,
        CLIENTS,
        Duration::from_secs(secs),
        &questions,
        &shipped,
        &pasted,
    );
    println!(
        "requests {} ({:.0}/s), errors {}, incomplete {}",
        seen.requests,
        seen.requests as f64 / secs as f64,
        seen.errors,
        seen.incomplete
    );
    for e in &seen.first_errors {
        println!("  error: {e}");
    }
    let n = seen.search_ms.len();
    println!(
        "search as you type ({n}): p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms (target p95 <= 30 ms)",
        http::percentile(&mut seen.search_ms, 50.0),
        http::percentile(&mut seen.search_ms, 95.0),
        http::percentile(&mut seen.search_ms, 99.0)
    );
    let n = seen.check_ms.len();
    println!(
        "checks ({n}): p50 {:.1} ms, p95 {:.1} ms",
        http::percentile(&mut seen.check_ms, 50.0),
        http::percentile(&mut seen.check_ms, 95.0)
    );
    println!("resident memory: {} (target <= 200 MB)", memory());
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Serve `app` on a free loopback port from a runtime of its own.
fn serve(app: Arc<App>) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind");
            tx.send(listener.local_addr().expect("address"))
                .expect("send");
            swjudge::serve::run(listener, app).await.expect("serve");
        });
    });
    rx.recv().expect("server started")
}

/// Each page's first response after the start (target: 50 ms).
fn first_responses(addr: SocketAddr) {
    for path in [
        "/search?q=battle+destiny",
        "/rule/swccg.ar.the-stack",
        "/card/vader",
        "/check",
        "/check/swccg/battles/simple-example.yaml",
        "/coverage",
    ] {
        let start = Instant::now();
        let r = http::get(addr, path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        let first = ms(start.elapsed());
        let start = Instant::now();
        let _ = http::get(addr, path);
        println!(
            "first response {path}: {first:.1} ms (status {}, {} bytes; again {:.1} ms)",
            r.status,
            r.body.len(),
            ms(start.elapsed())
        );
    }
}

/// The evaluation questions, typed by the clients.
fn questions(root: &Path) -> Vec<String> {
    let text =
        std::fs::read_to_string(root.join("tests/data/search-eval.yaml")).unwrap_or_default();
    let q: Vec<String> = text
        .lines()
        .filter_map(|l| {
            l.trim_start()
                .strip_prefix("- q:")
                .or_else(|| l.trim_start().strip_prefix("q:"))
        })
        .map(|q| q.trim().trim_matches('"').to_string())
        .filter(|q| !q.is_empty())
        .collect();
    if q.is_empty() {
        vec!["battle destiny".into()]
    } else {
        q
    }
}

/// Every card database file under the real data folder: SWCCG JSON, the Destiny
/// sets, the SWTCG sets.
fn card_files(real: &Path) -> Vec<PathBuf> {
    let mut files = vec![
        real.join("swccg-card-json/Light.json"),
        real.join("swccg-card-json/Dark.json"),
    ];
    for (dir, ext) in [
        ("swdestinydb-json-data/set", "json"),
        ("swtcg-lackey/sets", "txt"),
    ] {
        let Ok(rd) = std::fs::read_dir(real.join(dir)) else {
            continue;
        };
        let mut found: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

/// Current and peak resident memory of this process (server and clients).
fn memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map_or("?".into(), |v| v.trim().to_string())
    };
    format!("{} now, {} at most", field("VmRSS:"), field("VmHWM:"))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn fail(msg: &str) -> ! {
    eprintln!("bench serve: {msg}");
    std::process::exit(2)
}
