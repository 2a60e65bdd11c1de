//! Destiny engine benchmark: one round of 20 actions (10 activations, 10 dice
//! resolved) in which 10 "after" abilities enter the queue, run many times.
//!
//! `cargo bench --bench destiny` (target: one round in under 1 ms).

use std::fmt::Write;
use std::path::Path;
use std::time::Instant;
use swjudge::scenario;

const RUNS: usize = 2000;

/// The scenario text: five characters a side, and a support on each side whose
/// "after an opponent activates a character" ability enters the queue.
fn board() -> String {
    let mut t = String::from("game: destiny\ntitle: bench\ndestiny:\n  first: player1\n  cards:\n");
    for side in ["a", "b"] {
        for i in 0..5 {
            writeln!(
                t,
                "    {side}{i}: {{title: C{side}{i}, type: character, health: 10, die: [1RD, 2RD, 1MD, 1Sh, 1R, \"-\"]}}"
            )
            .unwrap();
        }
        writeln!(t, "    w{side}: {{title: Watch {side}, type: support, abilities: [{{kind: after, on: {{event: activates, who: opponents}}, effect: [{{gain: {{amount: 1}}}}]}}]}}").unwrap();
    }
    for (p, side) in [("player1", "a"), ("player2", "b")] {
        writeln!(
            t,
            "  {p}:\n    supports: [{{card: w{side}}}]\n    characters:"
        )
        .unwrap();
        for i in 0..5 {
            writeln!(t, "      - {{card: {side}{i}}}").unwrap();
        }
    }
    t.push_str("script:\n");
    for i in 0..5 {
        writeln!(
            t,
            "  - {{player1: activate, card: a{i}, roll: {{a{i}: 1RD}}}}"
        )
        .unwrap();
        writeln!(
            t,
            "  - {{player2: activate, card: b{i}, roll: {{b{i}: 1RD}}}}"
        )
        .unwrap();
        writeln!(t, "  - {{player1: resolve, dice: [a{i}], to: [b{i}]}}").unwrap();
        writeln!(t, "  - {{player2: resolve, dice: [b{i}], to: [a{i}]}}").unwrap();
    }
    t.push_str("expect:\n  players:\n    player1: {resources: 7}\n    player2: {resources: 7}\n");
    t
}

fn main() {
    let text = board();
    let s = match scenario::load_str(Path::new("bench.yaml"), &text, None) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let r = scenario::run(&s);
    if r.verdict != scenario::Verdict::Pass {
        eprintln!("the benchmark round does not pass: {:?}", r.problems());
        std::process::exit(2);
    }
    let queued = r
        .steps
        .iter()
        .filter(|x| x.text.contains("after ability"))
        .count();
    let start = Instant::now();
    let mut steps = 0usize;
    for _ in 0..RUNS {
        steps += s.run_engine().trace.steps.len();
    }
    let per = start.elapsed().as_secs_f64() / RUNS as f64;
    println!(
        "destiny: one round of 20 actions with {queued} queued abilities in {:.1} µs ({} trace steps per run, {RUNS} runs)",
        per * 1e6,
        steps / RUNS
    );
}
