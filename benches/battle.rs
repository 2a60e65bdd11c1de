//! Board battle speed: a 6-on-6 battle on the board, initiated by the script
//! (`battle` verb), with 20 game-text modifiers carried by the cards, battle
//! destinies drawn on the stack, and a full damage segment of the players'
//! decisions. Each run starts from the loaded scenario: the battle's cards,
//! modifiers and numbers are worked out from the board every time. Target: under
//! 1 ms each.
//!
//! `cargo bench --bench battle` prints the median and the 99th percentile.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;
use swjudge::scenario;

fn scenario_text() -> String {
    let mut y = String::from(
        "game: swccg\ntitle: bench battle\nswccg:\n  turn: dark\n  phase: battle\n  cards:\n",
    );
    for i in 0..6 {
        y.push_str(&format!(
            "    d{i}: {{title: Dark Trooper {i}, side: dark, type: character, stats: {{power: {}, ability: 2, forfeit: {}, immune_to_attrition: {}}}",
            2 + i % 3,
            2 + i % 4,
            if i == 0 { 6 } else { 0 }
        ));
        y.push_str(&modifiers(i, "d"));
        y.push_str("}\n");
        y.push_str(&format!(
            "    l{i}: {{title: Light Trooper {i}, side: light, type: character, stats: {{power: {}, ability: 2, forfeit: {}}}",
            1 + i % 4,
            3 + i % 3
        ));
        y.push_str(&modifiers(i, "l"));
        y.push_str("}\n");
    }
    for i in 0..10 {
        y.push_str(&format!(
            "    lr{i}: {{title: Light Reserve {i}, side: light, type: character, stats: {{destiny: {}}}}}\n",
            i % 6
        ));
        y.push_str(&format!(
            "    dr{i}: {{title: Dark Reserve {i}, side: dark, type: character, stats: {{destiny: {}}}}}\n",
            (i + 2) % 6
        ));
    }
    y.push_str("    df: {title: Dark Force, side: dark, type: effect}\n");
    y.push_str("  light:\n    reserve_deck: [");
    y.push_str(
        &(0..10)
            .map(|i| format!("lr{i}"))
            .collect::<Vec<_>>()
            .join(", "),
    );
    y.push_str("]\n  dark:\n    force_pile: [df]\n    reserve_deck: [");
    y.push_str(
        &(0..10)
            .map(|i| format!("dr{i}"))
            .collect::<Vec<_>>()
            .join(", "),
    );
    y.push_str("]\n  locations:\n    - name: kessel\n      title: Kessel\n      cards: [");
    y.push_str(
        &(0..6)
            .flat_map(|i| [format!("{{card: d{i}}}"), format!("{{card: l{i}}}")])
            .collect::<Vec<_>>()
            .join(", "),
    );
    // The damage segment, one decision at a time (the initiator first): Dark forfeits
    // to its attrition, then Light forfeits three cards to its attrition and 8 battle
    // damage (Dark passes in between).
    y.push_str("]\nscript:\n  - {dark: battle, at: kessel}\n  - {dark: forfeit, card: d5}\n");
    for i in 0..3 {
        y.push_str(&format!("  - {{light: forfeit, card: l{i}}}\n"));
    }
    y
}

/// Two game-text modifiers per card for the first five cards of each side (20 in all).
fn modifiers(i: usize, side: &str) -> String {
    if i >= 5 {
        return String::new();
    }
    let other = (i + 1) % 6;
    let a = match i % 5 {
        0 => "{target: {power: this}, op: {add: 2}}".to_string(),
        1 => format!("{{target: {{power: {side}{other}}}, op: {{mul: 2}}}}"),
        2 => "{target: {forfeit: this}, op: {sub: 1}}".to_string(),
        3 => "{target: total_power, op: {add: 1}}".to_string(),
        _ => "{target: attrition, op: {add: 1}}".to_string(),
    };
    let b = format!("{{target: {{power: this}}, op: {{add: 1}}, requires: [{side}{other}]}}");
    format!(", modifiers: [{a}, {b}]")
}

fn main() {
    let text = scenario_text();
    let s = match scenario::load_str(Path::new("bench-battle.yaml"), &text, None) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("bench battle does not load: {e}");
            std::process::exit(2);
        }
    };
    let first = s.run_engine();
    let obs = &first.observations;
    let n = |k: &str| {
        obs.get(&format!("numbers.battle_kessel.{k}"))
            .map(|v| v.to_string())
            .unwrap_or_else(|| "-".into())
    };
    println!(
        "6-on-6 board battle, 20 game-text modifiers: {} trace steps, end {:?}, Light total power {}, Dark total power {}, winner {}",
        first.trace.steps.len(),
        first.end,
        n("light.total_power"),
        n("dark.total_power"),
        n("winner")
    );
    for _ in 0..200 {
        black_box(black_box(&s).run_engine());
    }
    let mut times = Vec::with_capacity(5000);
    for _ in 0..5000 {
        let t = Instant::now();
        black_box(black_box(&s).run_engine());
        times.push(t.elapsed());
    }
    times.sort();
    let median = times[times.len() / 2];
    let p99 = times[times.len() * 99 / 100];
    println!(
        "board battle run: median {median:?}, p99 {p99:?} over {} runs (target < 1 ms)",
        times.len()
    );
    if p99.as_micros() >= 1000 {
        eprintln!("slower than 1 ms");
        std::process::exit(1);
    }
}
