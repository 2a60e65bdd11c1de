//! SWTCG engine benchmark: a full battle phase over the three arenas with
//! 12 attacks, its cards named from the card library (four units in each
//! arena, each attacking once, with Accuracy, Armor, Shields and Critical Hit
//! in the arithmetic), run many times; and the same scenario loaded (the
//! library cards looked up) and run.
//!
//! `cargo bench --bench swtcg` (target: under 1 ms for the battle phase).

use std::path::Path;
use std::time::Instant;
use swjudge::scenario::{self, Verdict};

const RUNS: usize = 2000;

/// The scenario: twelve library cards, four in each arena (Dark at speeds
/// 50/40 and 30/20 or 10, Light between them), each attacking once, with
/// Accuracy, Armor, Shields and Critical Hit from the cards' own keywords.
/// Two Dark Characters are discarded by the attacks; the last roll makes 3 hits.
const SCENARIO: &str = r#"game: swtcg
title: bench
swtcg:
  through: battle
  cards:
    space_d1: "swtcg:PM-47"
    space_l1: "swtcg:AOTC-36"
    space_d2: "swtcg:ESB-172"
    space_l2: "swtcg:ROTJ-101"
    ground_d1: "swtcg:ESB-6"
    ground_l1: "swtcg:ESB-188"
    ground_d2: "swtcg:ESB-141"
    ground_l2: "swtcg:AOTC-30"
    character_d1: "swtcg:AOTC-146"
    character_l1: "swtcg:AOTC-73"
    character_d2: "swtcg:AOTC-85"
    character_l2: "swtcg:ANH-90"
  dark:
    space: [{card: space_d1}, {card: space_d2}]
    ground: [{card: ground_d1}, {card: ground_d2}]
    character: [{card: character_d1}, {card: character_d2}]
  light:
    space: [{card: space_l1}, {card: space_l2}]
    ground: [{card: ground_l1}, {card: ground_l2}]
    character: [{card: character_l1}, {card: character_l2}]
script:
  - {dark: attack, unit: space_d1, target: space_l1}
  - {dark: roll, dice: [6, 1, 4, 5]}
  - {light: attack, unit: space_l1, target: space_d1}
  - {light: roll, dice: [5]}
  - {dark: attack, unit: space_d2, target: space_l2}
  - {dark: roll, dice: [6, 1, 4, 5, 2]}
  - {light: attack, unit: space_l2, target: space_d2}
  - {light: roll, dice: [6, 1, 4, 5, 2, 3]}
  - {dark: attack, unit: ground_d1, target: ground_l1}
  - {dark: roll, dice: [6, 1, 4, 5, 2, 3]}
  - {light: attack, unit: ground_l1, target: ground_d1}
  - {light: roll, dice: [6, 1, 4, 5, 2, 3]}
  - {dark: attack, unit: ground_d2, target: ground_l2}
  - {dark: roll, dice: [6, 1, 4, 5, 2]}
  - {light: attack, unit: ground_l2, target: ground_d2}
  - {light: roll, dice: [6, 1, 4, 5, 2]}
  - {dark: attack, unit: character_d1, target: character_l1}
  - {dark: roll, dice: [6, 1, 2, 3]}
  - {light: attack, unit: character_l1, target: character_d1}
  - {light: roll, dice: [6, 1, 4, 5]}
  - {dark: attack, unit: character_d2, target: character_l2}
  - {dark: roll, dice: [6, 1]}
  - {light: attack, unit: character_l2, target: character_d2}
  - {light: roll, dice: [6, 1, 4, 5]}
expect:
  attacks: {12: {hits: 3}}
  units: {character_l1: {damage: 2}, ground_l1: {damage: 5}, space_l1: {damage: 4}}
"#;

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

/// Load, check it passes, then time `RUNS` runs of the engine, and `RUNS`
/// loads (the library cards looked up) each with its run; returns (µs per
/// run, µs per load and run, attacks, steps).
fn measure(name: &str, text: &str) -> (f64, f64, usize, usize) {
    let load = || match scenario::load_str(Path::new(name), text, None) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let s = load();
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
    let start = Instant::now();
    for _ in 0..RUNS {
        steps += load().run_engine().trace.steps.len();
    }
    let loaded = start.elapsed().as_secs_f64() / RUNS as f64;
    (per * 1e6, loaded * 1e6, attacks, steps / (2 * RUNS))
}

fn main() {
    let (us, with_load, attacks, steps) = measure("bench.yaml", SCENARIO);
    println!(
        "swtcg: battle phase over 3 arenas, {attacks} attacks, library cards: {us:.1} µs per run, {with_load:.1} µs per load and run ({steps} trace steps per run, {RUNS} runs)"
    );
    let (us, with_load, attacks, steps) = measure("bench-team.yaml", &team_text(SCENARIO));
    println!(
        "swtcg: the same battle, Two-Headed Wookiee teams, {attacks} attacks: {us:.1} µs per run, {with_load:.1} µs per load and run ({steps} trace steps per run, {RUNS} runs)"
    );
}
