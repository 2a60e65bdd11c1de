//! Rendering for `coverage`: counts per game, then each example with its
//! scenarios; the published rulings beside them.

use super::{Style, numbers_right, table};
use crate::coverage::{Census, Coverage, Status};
use crate::rulings::{Missing, RulingCoverage};

/// The counts as a table, then the examples grouped by status.
pub fn text(c: &Coverage, style: &Style) -> String {
    let mut t = table(style.width);
    t.set_header(vec![
        "game",
        "examples",
        "covered",
        "not covered",
        "cannot be reproduced",
    ]);
    for g in &c.games {
        t.add_row(vec![
            g.game.to_string(),
            g.examples.to_string(),
            g.covered.to_string(),
            g.not_covered.to_string(),
            g.cannot_be_reproduced.to_string(),
        ]);
    }
    numbers_right(&mut t, 1);
    let mut out = format!("{t}\n");
    for (status, head) in [
        (Status::Covered, "Covered"),
        (Status::NotCovered, "Not covered"),
        (Status::CannotBeReproduced, "Cannot be reproduced"),
    ] {
        let list: Vec<_> = c.examples.iter().filter(|e| e.status == status).collect();
        if list.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{} ({}):\n", style.bold(head), list.len()));
        for e in list {
            let mut line = format!("{} — {}", e.id, e.title);
            if let Some(r) = &e.reason {
                line.push_str(&format!(" — {r}"));
            }
            if !e.scenarios.is_empty() {
                line.push_str(&format!(" — {}", e.scenarios.join(", ")));
            }
            style.push_wrapped(&mut out, &line, "  ", "      ");
        }
    }
    for w in &c.warnings {
        out.push_str(&format!("warning: {w}\n"));
    }
    out
}

/// A census: cases and covered per game, then per area, then the cases no scenario covers.
pub fn census_text(c: &Census, style: &Style) -> String {
    let table = |head: [&str; 4], rows: Vec<[String; 4]>, first_number: usize| {
        let mut t = table(style.width);
        t.set_header(head.to_vec());
        for r in rows {
            t.add_row(r.to_vec());
        }
        numbers_right(&mut t, first_number);
        t
    };
    let pct = |n: usize, d: usize| {
        if d == 0 {
            "–".to_string()
        } else {
            format!("{:.0}%", n as f64 * 100.0 / d as f64)
        }
    };
    let games = c
        .games
        .iter()
        .map(|g| {
            [
                g.game.clone(),
                g.cases.to_string(),
                g.covered.to_string(),
                pct(g.covered, g.cases),
            ]
        })
        .collect();
    let areas = c
        .areas
        .iter()
        .map(|a| {
            [
                a.game.clone(),
                a.area.clone().unwrap_or_default(),
                a.cases.to_string(),
                a.covered.to_string(),
            ]
        })
        .collect();
    let mut out = format!(
        "{}\n\n{}\n",
        table(["game", "cases", "covered", "share"], games, 1),
        table(["game", "area", "cases", "covered"], areas, 2)
    );
    let missing: Vec<_> = c.cases.iter().filter(|x| x.scenarios.is_empty()).collect();
    if !missing.is_empty() {
        out.push_str(&format!(
            "\n{} ({}):\n",
            style.bold("Not covered"),
            missing.len()
        ));
        for x in missing {
            let line = format!("{} — {} [{}]", x.id, x.name, x.area);
            style.push_wrapped(&mut out, &line, "  ", "      ");
        }
    }
    out
}

/// The published rulings: reproduced by a scenario, or listed as not yet
/// expressible. Counts per game; with `missing`, each missing ruling under the
/// mechanism it lacks.
pub fn rulings_text(cov: &RulingCoverage, missing: bool, style: &Style) -> String {
    if cov.games.is_empty() {
        return String::new();
    }
    let mut out = format!("\n{}\n", style.bold("Published rulings"));
    for g in &cov.games {
        out.push_str(&format!(
            "  {}: {} reproduced, {} listed as not yet expressible\n",
            g.game.title(),
            g.reproduced,
            g.missing
        ));
        if !missing {
            for (m, n) in &g.mechanisms {
                let first = format!("  {n:>5}  ");
                style.push_wrapped(&mut out, m, &first, "         ");
            }
        }
    }
    if missing {
        let mut by: Vec<&Missing> = cov.missing.iter().collect();
        by.sort_by(|a, b| (&a.mechanism, &a.ruling).cmp(&(&b.mechanism, &b.ruling)));
        let mut last: Option<&str> = None;
        for m in by {
            if last != Some(m.mechanism.as_str()) {
                out.push_str(&format!("\n{}:\n", style.bold(&m.mechanism)));
                last = Some(&m.mechanism);
            }
            let line = format!("{} — {}", m.ruling, m.text);
            style.push_wrapped(&mut out, &line, "  ", "      ");
        }
    }
    for w in &cov.warnings {
        out.push_str(&format!("warning: {w}\n"));
    }
    out
}
