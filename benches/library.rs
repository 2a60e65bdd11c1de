//! Whole-process figures for scenarios that name library cards, as a user runs
//! them: `swjudge check` of one scenario naming library cards (target 20 ms),
//! and `swjudge test` over every shipped scenario (target 1 s).
//!
//! `cargo bench --bench library`. Each figure is the median of its runs.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time(runs: usize, args: &[&str]) -> Duration {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_swjudge"));
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let tmp = std::env::temp_dir().join(format!("swjudge-bench-library-{}", std::process::id()));
    let mut all = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        let o = Command::new(&exe)
            .current_dir(&root)
            .env("SWJUDGE_CACHE_DIR", tmp.join("cache"))
            .env("SWJUDGE_DATA_DIR", tmp.join("data"))
            .args(args)
            .output()
            .expect("run swjudge");
        all.push(t.elapsed());
        if !o.status.success() {
            eprintln!(
                "swjudge {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&o.stdout)
            );
            std::process::exit(2);
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    median(all)
}

fn main() {
    let one = "scenarios/swccg/cards/luke-skywalker-generation-and-red-5.yaml";
    // the first run unpacks the rulebook into the cache; time the ones after it
    time(1, &["check", one]);
    let check = time(30, &["check", one]);
    let test = time(5, &["test"]);
    println!(
        "check, one scenario naming library cards: {:.1} ms (target 20 ms)",
        check.as_secs_f64() * 1e3
    );
    println!(
        "test, every shipped scenario: {:.2} s (target 1 s)",
        test.as_secs_f64()
    );
}
