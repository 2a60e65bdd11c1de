//! Rendering for `search` output (text and JSON from one structure: [`Hit`]).

use super::{Style, one_line};
use crate::index::{DocKind, Hit, Origin};
use std::fmt::Write as _;

/// A ranked list: ID (with kind and "(superseded)" when they apply), breadcrumb,
/// then the snippet on one line, its matched words in bold when colour is on.
pub fn text(hits: &[Hit], style: &Style) -> String {
    let mut out = String::new();
    for (i, h) in hits.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = write!(out, "{:>2}. {}", i + 1, style.bold(&one_line(&h.id)));
        if h.kind != DocKind::Rule {
            let _ = write!(out, " [{}]", h.kind);
        }
        if h.superseded {
            out.push_str(" (superseded)");
        }
        out.push('\n');
        let _ = writeln!(out, "    {}", one_line(&h.breadcrumb.join(" › ")));
        if let Origin::Database { file, card, .. } = &h.source {
            let what = match h.kind {
                DocKind::Ruling => "ruling from the card database",
                DocKind::Errata => "erratum from the card database",
                _ => "card database",
            };
            let _ = writeln!(
                out,
                "    ({what} {}, card {})",
                one_line(file),
                one_line(card)
            );
        }
        let snippet = highlight(&h.snippet, &h.highlights, style);
        if !snippet.is_empty() {
            let _ = writeln!(out, "    {snippet}");
        }
    }
    out
}

/// `snippet` on one line (runs of whitespace made one space, control characters
/// escaped), the byte ranges in `ranges` in bold.
pub fn highlight(snippet: &str, ranges: &[std::ops::Range<usize>], style: &Style) -> String {
    let tidy = |s: &str| one_line(&s.split_whitespace().collect::<Vec<_>>().join(" "));
    let mut pieces: Vec<String> = Vec::new();
    let mut at = 0;
    for r in ranges {
        let (Some(before), Some(word)) = (snippet.get(at..r.start), snippet.get(r.clone())) else {
            return tidy(snippet);
        };
        pieces.push(tidy(before));
        pieces.push(style.bold(&tidy(word)));
        at = r.end;
    }
    pieces.push(tidy(snippet.get(at..).unwrap_or("")));
    pieces.retain(|p| !p.is_empty());
    pieces.join(" ")
}
