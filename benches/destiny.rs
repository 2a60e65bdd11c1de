//! Destiny engine benchmark: one round of 20 actions (10 activations, 10 dice
//! resolved) between two teams of library cards, in which the heroes' "after
//! you activate this character" abilities enter the queue, run many times.
//!
//! `cargo bench --bench destiny` (target: one round in under 1 ms).

use std::fmt::Write;
use std::path::Path;
use std::time::Instant;
use swjudge::scenario;

const RUNS: usize = 2000;

/// The heroes: Luke Skywalker, Jedi Knight ("after you activate this
/// character, draw a card"), Obi-Wan Kenobi, Jedi Master ("… you may give a
/// character 1 shield") and three Wookiee Warriors; the villains: five First
/// Order Stormtroopers. Each side of each die is named in the script.
const HEROES: [(&str, &str, &str); 5] = [
    ("luke", "destiny:01035", "2MD"),
    ("obi", "destiny:05032", "3MD"),
    ("ww1", "destiny:03041", "1Sh"),
    ("ww2", "destiny:03041", "1Sh"),
    ("ww3", "destiny:03041", "1Sh"),
];

/// The scenario text: the two teams, a deck for Luke to draw from, and the
/// round: each hero activates and resolves its die, then a stormtrooper does.
fn board() -> String {
    let mut t = String::from("game: destiny\ntitle: bench\ndestiny:\n  first: player1\n  cards:\n");
    for (k, r, _) in HEROES {
        writeln!(t, "    {k}: {r}").unwrap();
    }
    for i in 0..5 {
        writeln!(t, "    st{i}: destiny:01002").unwrap();
    }
    t.push_str("    draw: destiny:01128\n");
    t.push_str("  player1:\n    deck: [draw]\n    characters:\n");
    for (k, _, _) in HEROES {
        writeln!(t, "      - {{card: {k}}}").unwrap();
    }
    t.push_str("  player2:\n    characters:\n");
    for i in 0..5 {
        writeln!(t, "      - {{card: st{i}}}").unwrap();
    }
    t.push_str("script:\n");
    for (i, (k, _, side)) in HEROES.iter().enumerate() {
        writeln!(
            t,
            "  - {{player1: activate, card: {k}, roll: {{{k}: {side}}}}}"
        )
        .unwrap();
        if *k == "obi" {
            t.push_str("  - {player1: use, card: obi, to: [obi]}\n");
        }
        writeln!(
            t,
            "  - {{player2: activate, card: st{i}, roll: {{st{i}: 1RD}}}}"
        )
        .unwrap();
        let target = if side.ends_with("Sh") {
            *k
        } else {
            ["st0", "st1"][i]
        };
        writeln!(t, "  - {{player1: resolve, dice: [{k}], to: [{target}]}}").unwrap();
        writeln!(t, "  - {{player2: resolve, dice: [st{i}], to: [{k}]}}").unwrap();
    }
    t.push_str(
        "expect:\n  players:\n    player1: {hand: [draw], resources: 2}\n  cards:\n    st0: {damage: 2}\n    st1: {damage: 3}\n    obi: {damage: 0, shields: 0}\n    luke: {damage: 1}\n    ww1: {shields: 0}\n",
    );
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
    let named = r.steps.iter().any(|x| x.text.contains("destiny:01035"));
    if !named {
        eprintln!("the benchmark round does not name its library cards");
        std::process::exit(2);
    }
    let start = Instant::now();
    let mut steps = 0usize;
    for _ in 0..RUNS {
        steps += s.run_engine().trace.steps.len();
    }
    let per = start.elapsed().as_secs_f64() / RUNS as f64;
    println!(
        "destiny: one round of 20 actions between library cards, with {queued} queued abilities in {:.1} µs ({} trace steps per run, {RUNS} runs)",
        per * 1e6,
        steps / RUNS
    );
}
