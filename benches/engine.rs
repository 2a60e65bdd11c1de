//! Engine benchmark: run 1,000 scenarios (copies of the shipped ones, with the
//! card names renamed so each copy is parsed and checked afresh) through the
//! loader and the runner, and report scenarios per second.
//!
//! It reports one thread's figure (load, run, and the YAML parse alone as the
//! floor under loading), then the figure of `swjudge test`, which reads the same
//! copies from files and loads and runs them on every core.
//!
//! `cargo bench --bench engine` (target: 5,000 scenarios/s).

use std::path::{Path, PathBuf};
use std::time::Instant;
use swjudge::scenario;

const N: usize = 1000;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let files = match scenario::find_files(&[root]) {
        Ok(f) if !f.is_empty() => f,
        _ => {
            eprintln!("no scenarios found under scenarios/");
            std::process::exit(2);
        }
    };
    let texts: Vec<(PathBuf, String)> = files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok().map(|t| (f.clone(), t)))
        .collect();
    // Build the copies before timing: each one a distinct document.
    let copies: Vec<(PathBuf, String)> = (0..N)
        .map(|i| {
            let (p, t) = &texts[i % texts.len()];
            (p.clone(), format!("{t}\n# copy {i}\n"))
        })
        .collect();
    let start = Instant::now();
    let mut passed = 0usize;
    let mut steps = 0usize;
    let mut load_secs = 0.0;
    let mut by_game: std::collections::BTreeMap<String, (f64, usize)> = Default::default();
    for (p, t) in &copies {
        let t0 = Instant::now();
        let s = match scenario::load_str(Path::new(p), t, None) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let dt = t0.elapsed().as_secs_f64();
        load_secs += dt;
        let e = by_game.entry(s.game.as_str().to_string()).or_default();
        e.0 += dt;
        e.1 += 1;
        let r = scenario::run(&s);
        steps += r.steps.len();
        if r.verdict == scenario::Verdict::Pass {
            passed += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "engine: {N} scenarios ({} distinct) in {:.3} s — {:.0} scenarios/s, {} trace steps, {passed} passed",
        texts.len(),
        secs,
        N as f64 / secs,
        steps
    );
    println!(
        "engine: loading {load_secs:.3} s, running {:.3} s",
        secs - load_secs
    );
    for (g, (t, n)) in &by_game {
        println!(
            "engine: loading {g}: {n} files, {:.0} µs each",
            t / *n as f64 * 1e6
        );
    }
    // The floor under loading: the YAML parse alone, into an untyped value.
    let t0 = Instant::now();
    for (p, t) in &copies {
        let _: serde_json::Value = swjudge::yaml::load(Path::new(p), t).expect("parses");
    }
    println!(
        "engine: YAML parse alone {:.0} µs per file",
        t0.elapsed().as_secs_f64() / N as f64 * 1e6
    );
    // What `swjudge test` does: the same copies as files, loaded and run on every core.
    let dir = std::env::temp_dir().join(format!("swjudge-bench-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let paths: Vec<PathBuf> = copies
        .iter()
        .enumerate()
        .map(|(i, (_, t))| {
            let p = dir.join(format!("{i:04}.yaml"));
            std::fs::write(&p, t).expect("write copy");
            p
        })
        .collect();
    let t0 = Instant::now();
    let reports = scenario::run_files(&paths, None);
    let par = t0.elapsed().as_secs_f64();
    let ok = reports
        .iter()
        .filter(|r| {
            r.as_ref()
                .is_ok_and(|r| r.verdict == scenario::Verdict::Pass)
        })
        .count();
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "engine: as `swjudge test` runs them ({} threads): {N} files in {par:.3} s — {:.0} scenarios/s, {ok} passed",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        N as f64 / par
    );
    if secs > 0.5 {
        println!("engine: slower than the 0.5 s target");
    }
}
