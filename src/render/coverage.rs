//! Rendering for `coverage`: counts per game, then each example with its scenarios.

use super::{Style, wrap_hanging};
use crate::coverage::{Coverage, Status};
use comfy_table::{CellAlignment, ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};

/// The counts as a table, then the examples grouped by status.
pub fn text(c: &Coverage, style: &Style) -> String {
    let mut t = Table::new();
    t.load_style(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(style.width as u16);
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
    for col in 1..5 {
        if let Some(column) = t.column_mut(col) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
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
            out.push_str(&wrap_hanging(&line, style.width, "  ", "      "));
            out.push('\n');
        }
    }
    for w in &c.warnings {
        out.push_str(&format!("warning: {w}\n"));
    }
    out
}
