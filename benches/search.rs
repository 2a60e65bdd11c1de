//! Search benchmark: index build time, in-process query latency over the
//! evaluation questions, and one end-to-end CLI search beside `rg -i`.
//!
//! Run with `cargo bench --bench search`. The rulebook is `rulebook/` beside the
//! manifest unless `SWJUDGE_RULEBOOK` names another.

use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use swjudge::index::{Index, Query};
use swjudge::paths::Paths;
use swjudge::rulebook::{Corpus, Game};

const BUILD_RUNS: usize = 5;
const QUERY_ROUNDS: usize = 20;
const CLI_RUNS: usize = 21;
const CLI_WORDS: &str = "force drain";

#[derive(Deserialize)]
struct Eval {
    questions: Vec<Question>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Question {
    q: String,
    game: Game,
    expect: Vec<String>,
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let rulebook =
        std::env::var_os("SWJUDGE_RULEBOOK").map_or_else(|| root.join("rulebook"), PathBuf::from);
    let tmp = std::env::temp_dir().join(format!("swjudge-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let eval: Eval = swjudge::yaml::load_file(&root.join("tests/data/search-eval.yaml"))
        .unwrap_or_else(|e| fail(&format!("eval questions: {e}")));
    let paths = Paths {
        rulebook: rulebook.clone(),
        index: tmp.join("index"),
        data_dir: tmp.join("data"),
    };
    println!("\n== the rulebooks alone ({})", rulebook.display());
    measure(&paths, &eval);
    // With the real card databases (SWJUDGE_REAL_DATA, else ../shared/data):
    // the real SWCCG and Destiny cards and rulings, then the SWTCG ones as well.
    let real = std::env::var_os("SWJUDGE_REAL_DATA")
        .map_or_else(|| root.join("../shared/data"), PathBuf::from);
    if real.join("swccg-card-json/Light.json").is_file() {
        for (name, with_swtcg) in [("ccg-destiny", false), ("all", true)] {
            let paths = Paths {
                rulebook: rulebook.clone(),
                index: tmp.join(format!("index-{name}")),
                data_dir: tmp.join(format!("data-{name}")),
            };
            let files = real_files(&real, with_swtcg);
            let reports = swjudge::cards::import::import(&files, &paths.data_dir, false)
                .unwrap_or_else(|e| fail(&format!("import: {e}")));
            let cards: usize = reports.iter().map(|r| r.imported).sum();
            println!(
                "\n== the rulebooks and {cards} imported cards from {} files ({})",
                files.len(),
                real.display()
            );
            measure(&paths, &eval);
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The real card databases under `root`: SWCCG Light and Dark, every Destiny
/// set and, `with_swtcg`, every SWTCG set.
fn real_files(root: &Path, with_swtcg: bool) -> Vec<PathBuf> {
    let mut files = vec![
        root.join("swccg-card-json/Light.json"),
        root.join("swccg-card-json/Dark.json"),
    ];
    let mut sets = vec![("swdestinydb-json-data/set", "json")];
    if with_swtcg {
        sets.push(("swtcg-lackey/sets", "txt"));
    }
    for (dir, ext) in sets {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| fail(&format!("{dir}: {e}")))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

/// Build, open, query and CLI figures for the corpus `paths` names.
fn measure(paths: &Paths, eval: &Eval) {
    // Corpus load (Markdown parse) alone, for context.
    let load = median(
        &(0..BUILD_RUNS)
            .map(|_| time(|| Corpus::load(&paths.rulebook).map(|_| ())))
            .collect::<Vec<_>>(),
    );
    // Full rebuild as `swjudge index` does it: load, fingerprint, build, swap.
    let mut builds = Vec::new();
    let (mut docs, mut sections) = (0, 0);
    for _ in 0..BUILD_RUNS {
        let start = Instant::now();
        let ix = Index::rebuild(paths).unwrap_or_else(|e| fail(&format!("build: {e}")));
        builds.push(start.elapsed());
        (docs, sections) = (ix.len(), ix.sections());
    }
    let build = median(&builds);
    // Opening a current index (the cost every CLI search pays: hashing the
    // sources and checking the index files' checksums included).
    let open = median(
        &(0..BUILD_RUNS)
            .map(|_| time(|| Index::open_or_build(paths).map(|_| ())))
            .collect::<Vec<_>>(),
    );
    let index = Index::open_or_build(paths).unwrap_or_else(|e| fail(&format!("open: {e}")));
    let queries: Vec<Query> = eval
        .questions
        .iter()
        .map(|q| Query {
            text: q.q.clone(),
            game: Some(q.game),
            kind: None,
            limit: 5,
        })
        .collect();
    let (p50, p99, cold_p50, slowest) = latencies(paths, &index, &queries);

    // End to end: the release binary against ripgrep on the same words.
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_swjudge"));
    let mut cli = Command::new(&exe);
    cli.arg("--rulebook")
        .arg(&paths.rulebook)
        .arg("--index-dir")
        .arg(&paths.index)
        .arg("--data-dir")
        .arg(&paths.data_dir)
        .args(["search", CLI_WORDS]);
    let cli_ms = run_many(cli, "swjudge");
    let (grep_name, grep_ms) = grep_time(&paths.rulebook);

    println!("{docs} documents, {sections} of them rulebook sections");
    println!("{:<44} {:>12} {:>10}", "measure", "value", "target");
    row("corpus load (Markdown parse)", ms(load), "");
    row(
        "index build (load + hash + build + swap)",
        ms(build),
        "≤ 1 s",
    );
    row("index open when current (hash + checksums)", ms(open), "");
    row(
        &format!("query p50 ({} queries × {QUERY_ROUNDS})", queries.len()),
        us(p50),
        "≤ 100 µs",
    );
    row("query p99", us(p99), "");
    row("query p50, first search on a fresh index", us(cold_p50), "");
    row(
        &format!("CLI `swjudge search {CLI_WORDS}` (median)"),
        format!("{cli_ms:.1} ms"),
        "≤ rg",
    );
    row(
        &format!("`{grep_name} \"{CLI_WORDS}\" rulebook/` (median)"),
        format!("{grep_ms:.1} ms"),
        "",
    );
    println!("slowest questions (median):");
    for (t, q) in slowest.iter().take(3) {
        println!("  {:>10}  {q}", us(*t));
    }
}

/// Query latency over `queries`: p50 and p99 on a warm index, p50 of the first
/// search on a freshly opened one, and the slowest questions.
fn latencies<'q>(
    paths: &Paths,
    index: &Index,
    queries: &'q [Query],
) -> (Duration, Duration, Duration, Vec<(Duration, &'q str)>) {
    // First search of each question on a freshly opened index: nothing cached
    // yet (stored fields, term weights), as for a one-off CLI search.
    let mut cold = Vec::with_capacity(queries.len());
    for q in queries {
        let fresh = Index::open_or_build(paths).unwrap_or_else(|e| fail(&format!("open: {e}")));
        let start = Instant::now();
        let hits = fresh
            .search(q)
            .unwrap_or_else(|e| fail(&format!("search: {e}")));
        cold.push(start.elapsed());
        std::hint::black_box(hits);
    }
    cold.sort();
    for q in queries {
        let _ = index.search(q); // warm-up
    }
    let mut lat = Vec::with_capacity(queries.len() * QUERY_ROUNDS);
    let mut per_query = vec![Vec::with_capacity(QUERY_ROUNDS); queries.len()];
    for _ in 0..QUERY_ROUNDS {
        for (i, q) in queries.iter().enumerate() {
            let start = Instant::now();
            let hits = index
                .search(q)
                .unwrap_or_else(|e| fail(&format!("search: {e}")));
            let t = start.elapsed();
            lat.push(t);
            per_query[i].push(t);
            std::hint::black_box(hits);
        }
    }
    let mut slowest: Vec<(Duration, &str)> = per_query
        .iter()
        .zip(queries)
        .map(|(v, q)| (median(v), q.text.as_str()))
        .collect();
    slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
    lat.sort();
    (
        percentile(&lat, 0.50),
        percentile(&lat, 0.99),
        percentile(&cold, 0.50),
        slowest,
    )
}

fn row(name: &str, value: String, target: &str) {
    println!("{name:<44} {value:>12} {target:>10}");
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn us(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

fn time<E: std::fmt::Display>(f: impl FnOnce() -> Result<(), E>) -> Duration {
    let start = Instant::now();
    if let Err(e) = f() {
        fail(&e.to_string());
    }
    start.elapsed()
}

fn median(v: &[Duration]) -> Duration {
    let mut v = v.to_vec();
    v.sort();
    v[v.len() / 2]
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Median wall time in milliseconds of running `cmd` (after one warm-up run).
fn run_many(mut cmd: Command, name: &str) -> f64 {
    let mut times = Vec::new();
    for i in 0..=CLI_RUNS {
        let start = Instant::now();
        let out = cmd
            .output()
            .unwrap_or_else(|e| fail(&format!("{name}: {e}")));
        let t = start.elapsed();
        if !out.status.success() {
            fail(&format!(
                "{name} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        if i > 0 {
            times.push(t);
        }
    }
    median(&times).as_secs_f64() * 1e3
}

/// `rg -i` over the rulebook, or `grep -ri` when ripgrep is not installed.
fn grep_time(rulebook: &Path) -> (&'static str, f64) {
    let has_rg = Command::new("rg")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let (name, mut cmd) = if has_rg {
        let mut c = Command::new("rg");
        c.args(["-i", CLI_WORDS]).arg(rulebook);
        ("rg -i", c)
    } else {
        let mut c = Command::new("grep");
        c.args(["-ri", CLI_WORDS]).arg(rulebook);
        ("grep -ri", c)
    };
    (name, run_many_any(&mut cmd))
}

fn run_many_any(cmd: &mut Command) -> f64 {
    let mut times = Vec::new();
    for i in 0..=CLI_RUNS {
        let start = Instant::now();
        let _ = cmd.output();
        if i > 0 {
            times.push(start.elapsed());
        }
    }
    median(&times).as_secs_f64() * 1e3
}

fn fail(msg: &str) -> ! {
    eprintln!("bench: {msg}");
    std::process::exit(2)
}
