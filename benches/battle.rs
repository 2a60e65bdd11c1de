//! Battle resolution speed: a 6-on-6 battle with 20 modifiers, weapons,
//! battle destinies and a full damage segment. Target: under 1 ms each.
//!
//! `cargo bench --bench battle` prints the median and the 99th percentile.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;
use swjudge::engine::swccg::battle::{Battle, resolve};

fn battle() -> Battle {
    let mut y = String::from("location: Kessel\ninitiator: dark\ncards:\n");
    for i in 0..6 {
        y.push_str(&format!(
            "  - {{name: D{i}, side: dark, kind: character, power: {}, ability: 2, forfeit: {}, immune_to_attrition: {}}}\n",
            2 + i % 3,
            2 + i % 4,
            if i == 0 { 6 } else { 0 }
        ));
        y.push_str(&format!(
            "  - {{name: L{i}, side: light, kind: character, power: {}, ability: 2, forfeit: {}}}\n",
            1 + i % 4,
            3 + i % 3
        ));
    }
    y.push_str("modifiers:\n");
    for i in 0..20 {
        let (side, card) = if i % 2 == 0 {
            ("dark", format!("D{}", i % 6))
        } else {
            ("light", format!("L{}", i % 6))
        };
        let line = match i % 5 {
            0 => format!(
                "  - {{source: M{i}, side: {side}, target: {{power: {card}}}, op: {{add: 2}}}}\n"
            ),
            1 => format!(
                "  - {{source: M{i}, side: {side}, target: {{power: {card}}}, op: {{mul: 2}}}}\n"
            ),
            2 => format!(
                "  - {{source: M{i}, side: {side}, target: {{forfeit: {card}}}, op: {{sub: 1}}}}\n"
            ),
            3 => {
                format!("  - {{source: M{i}, side: {side}, target: total_power, op: {{add: 1}}}}\n")
            }
            _ => format!("  - {{source: M{i}, side: {side}, target: attrition, op: {{add: 1}}}}\n"),
        };
        y.push_str(&line);
    }
    y.push_str("reserve:\n  light: [");
    for i in 0..10 {
        y.push_str(&format!("{{name: l{i}, destiny: {}}}, ", i % 6));
    }
    y.push_str("]\n  dark: [");
    for i in 0..10 {
        y.push_str(&format!("{{name: d{i}, destiny: {}}}, ", (i + 2) % 6));
    }
    y.push_str("]\nscript:\n  weapons:\n");
    y.push_str("    - fire: {weapon: W1, by: dark, target: L1, against: ability}\n");
    y.push_str("    - fire: {weapon: W2, by: light, target: D2, against: ability}\n");
    y.push_str("  damage:\n");
    for i in 0..6 {
        y.push_str(&format!(
            "    - forfeit: {{card: L{i}}}\n    - forfeit: {{card: D{}}}\n",
            5 - i
        ));
    }
    match swjudge::yaml::load(Path::new("bench.yaml"), &y) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("bench battle does not load: {e}");
            std::process::exit(2);
        }
    }
}

fn main() {
    let b = battle();
    let first = resolve(&b, &b.script);
    println!(
        "6-on-6 battle, 20 modifiers: {} trace lines, Light {:?} / Dark {:?}, needs: {:?}",
        first.lines.len(),
        first.light.total_power.as_ref().and_then(|t| t.value),
        first.dark.total_power.as_ref().and_then(|t| t.value),
        first.needs
    );
    for _ in 0..200 {
        black_box(resolve(black_box(&b), black_box(&b.script)));
    }
    let mut times = Vec::with_capacity(5000);
    for _ in 0..5000 {
        let t = Instant::now();
        black_box(resolve(black_box(&b), black_box(&b.script)));
        times.push(t.elapsed());
    }
    times.sort();
    let median = times[times.len() / 2];
    let p99 = times[times.len() * 99 / 100];
    println!(
        "resolve: median {median:?}, p99 {p99:?} over {} runs (target < 1 ms)",
        times.len()
    );
    if p99.as_micros() >= 1000 {
        eprintln!("slower than 1 ms");
        std::process::exit(1);
    }
}
