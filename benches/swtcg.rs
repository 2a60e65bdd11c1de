//! SWTCG engine benchmark: a full battle phase over the three arenas with
//! 12 attacks (four units in each arena, each attacking once, with Accuracy,
//! Armor, Shields, Critical Hit and Stun in the arithmetic), run many times.
//!
//! `cargo bench --bench swtcg` (target: under 1 ms for the battle phase).

use std::fmt::Write;
use std::path::Path;
use std::time::Instant;
use swjudge::scenario::{self, Verdict};

const RUNS: usize = 2000;

/// The scenario: in each arena Dark units at speeds 40 and 20, Light at 30 and 10.
fn scenario_text() -> String {
    let mut cards = String::new();
    let mut dark = String::new();
    let mut light = String::new();
    let mut script = String::new();
    for arena in ["space", "ground", "character"] {
        let ids = [("d1", 40), ("l1", 30), ("d2", 20), ("l2", 10)]
            .map(|(k, s)| (format!("{arena}_{k}"), s));
        for (i, (id, speed)) in ids.iter().enumerate() {
            let kw = [
                "{accuracy: 1, critical_hit: 1}",
                "{armor: true}",
                "{stun: 1}",
                "{shields: 1}",
            ][i];
            writeln!(
                cards,
                "    {id}: {{name: Unit {id}, types: [{arena}], speed: {speed}, power: 4, health: 30, keywords: {kw}}}"
            )
            .unwrap();
        }
        let (d, l) = (|i: usize| ids[i].0.clone(), |i: usize| ids[i].0.clone());
        writeln!(
            dark,
            "    {arena}: [{{card: {}}}, {{card: {}}}]",
            d(0),
            d(2)
        )
        .unwrap();
        writeln!(
            light,
            "    {arena}: [{{card: {}}}, {{card: {}}}]",
            l(1),
            l(3)
        )
        .unwrap();
        for (a, t, side) in [
            (0, 1, "dark"),
            (1, 0, "light"),
            (2, 3, "dark"),
            (3, 2, "light"),
        ] {
            writeln!(
                script,
                "  - {{{side}: attack, unit: {}, target: {}}}",
                ids[a].0, ids[t].0
            )
            .unwrap();
            // Shields 1 on the fourth unit: one die fewer against it; that unit,
            // stunned by the third unit's attack, rolls one die fewer too.
            let dice = if t == 3 || a == 3 {
                "[6, 1, 4]"
            } else {
                "[6, 1, 4, 5]"
            };
            writeln!(script, "  - {{{side}: roll, dice: {dice}}}").unwrap();
        }
    }
    format!(
        "game: swtcg\ntitle: bench\nswtcg:\n  through: battle\n  cards:\n{cards}  dark:\n{dark}  light:\n{light}script:\n{script}expect:\n  attacks: {{12: {{hits: 2}}}}\n"
    )
}

/// The same battle with each side a Two-Headed Wookiee team (players a and b).
fn team_text(text: &str) -> String {
    let mut team = String::new();
    let mut k = 0;
    for line in text.lines() {
        let mut l = line.to_string();
        if l.contains("[{card: ") {
            let mut parts = Vec::new();
            for u in l.split("}, {") {
                k += 1;
                let p = if k % 2 == 0 { "b" } else { "a" };
                parts.push(format!("{}, player: {p}", u.trim_end_matches("}]")));
            }
            l = format!("{}}}]", parts.join("}, {"));
        }
        team.push_str(&l);
        team.push('\n');
    }
    team.replacen("swtcg:\n", "swtcg:\n  format: two_headed_wookiee\n", 1)
}

/// Load, check it passes, then time `RUNS` runs; returns (µs per run, attacks, steps).
fn measure(name: &str, text: &str) -> (f64, usize, usize) {
    let s = match scenario::load_str(Path::new(name), text, None) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let r = scenario::run(&s);
    if r.verdict != Verdict::Pass {
        eprintln!("the bench scenario does not pass: {:?}", r.problems());
        std::process::exit(2);
    }
    let attacks = r
        .observations
        .all()
        .keys()
        .filter(|k| k.ends_with(".attacker"))
        .count();
    let start = Instant::now();
    let mut steps = 0;
    for _ in 0..RUNS {
        steps += s.run_engine().trace.steps.len();
    }
    let per = start.elapsed().as_secs_f64() / RUNS as f64;
    (per * 1e6, attacks, steps / RUNS)
}

fn main() {
    let text = scenario_text();
    let (us, attacks, steps) = measure("bench.yaml", &text);
    println!(
        "swtcg: battle phase over 3 arenas, {attacks} attacks: {us:.1} µs per run ({steps} trace steps per run, {RUNS} runs)"
    );
    let (us, attacks, steps) = measure("bench-team.yaml", &team_text(&text));
    println!(
        "swtcg: the same battle, Two-Headed Wookiee teams, {attacks} attacks: {us:.1} µs per run ({steps} trace steps per run, {RUNS} runs)"
    );
}
