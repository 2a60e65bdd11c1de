//! The published rulings beside the worked examples: reproduced by a scenario,
//! or listed as not yet expressible with the mechanism they lack.

use crate::cli::Ctx;
use swjudge::render::wrap_hanging;
use swjudge::rulings::{self, RulingCoverage};

/// Counts per game; with `missing`, each missing ruling under its mechanism.
pub fn text(cov: &RulingCoverage, missing: bool, ctx: &Ctx) -> String {
    let style = &ctx.style;
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
                out.push_str(&wrap_hanging(m, style.width, &first, "         "));
                out.push('\n');
            }
        }
    }
    if missing {
        let mut by: Vec<&rulings::Missing> = cov.missing.iter().collect();
        by.sort_by(|a, b| (&a.mechanism, &a.ruling).cmp(&(&b.mechanism, &b.ruling)));
        let mut last: Option<&str> = None;
        for m in by {
            if last != Some(m.mechanism.as_str()) {
                out.push_str(&format!("\n{}:\n", style.bold(&m.mechanism)));
                last = Some(&m.mechanism);
            }
            let line = format!("{} — {}", m.ruling, m.text);
            out.push_str(&wrap_hanging(&line, style.width, "  ", "      "));
            out.push('\n');
        }
    }
    for w in &cov.warnings {
        out.push_str(&format!("warning: {w}\n"));
    }
    out
}
