//! Rendering for `search` output (text and JSON from one structure: [`Hit`]).

use crate::index::{DocKind, Hit, Origin};
use std::fmt::Write as _;

const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

/// A ranked list: ID (with kind and "(superseded)" when they apply), breadcrumb,
/// then the snippet. `bold` highlights matched words with ANSI bold (terminals only).
pub fn text(hits: &[Hit], bold: bool) -> String {
    let mut out = String::new();
    for (i, h) in hits.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let id = if bold {
            format!("{BOLD}{}{RESET}", h.id)
        } else {
            h.id.clone()
        };
        let _ = write!(out, "{:>2}. {id}", i + 1);
        if h.kind != DocKind::Rule {
            let _ = write!(out, " [{}]", h.kind);
        }
        if h.superseded {
            out.push_str(" (superseded)");
        }
        out.push('\n');
        let _ = writeln!(out, "    {}", h.breadcrumb.join(" › "));
        if let Origin::Database { file, card, .. } = &h.source {
            let what = match h.kind {
                DocKind::Ruling => "ruling from the card database",
                DocKind::Errata => "erratum from the card database",
                _ => "card database",
            };
            let _ = writeln!(out, "    ({what} {file}, card {card})");
        }
        let snippet = highlight(&h.snippet, &h.highlights, bold);
        if !snippet.trim().is_empty() {
            let _ = writeln!(out, "    {}", one_line(&snippet));
        }
    }
    out
}

/// `snippet` with the byte ranges in `ranges` wrapped in ANSI bold when `bold`.
pub fn highlight(snippet: &str, ranges: &[std::ops::Range<usize>], bold: bool) -> String {
    if !bold || ranges.is_empty() {
        return snippet.to_string();
    }
    let mut out = String::with_capacity(snippet.len() + ranges.len() * 8);
    let mut at = 0;
    for r in ranges {
        let (Some(before), Some(word)) = (snippet.get(at..r.start), snippet.get(r.clone())) else {
            return snippet.to_string();
        };
        out.push_str(before);
        out.push_str(BOLD);
        out.push_str(word);
        out.push_str(RESET);
        at = r.end;
    }
    out.push_str(snippet.get(at..).unwrap_or(""));
    out
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulebook::Game;

    fn hit(superseded: bool) -> Hit {
        Hit {
            id: "swccg.ar.x".into(),
            title: "X".into(),
            breadcrumb: vec!["AR".into(), "X".into()],
            game: Game::Swccg,
            document: "ar".into(),
            kind: DocKind::Rule,
            source: Origin::Rulebook {
                section: "swccg.ar.x".into(),
            },
            superseded,
            score: 1.0,
            coverage: 1.0,
            snippet: "a force\ndrain here".into(),
            highlights: std::iter::once(2..7).collect(),
        }
    }

    #[test]
    fn plain_text_has_no_escapes_and_labels_superseded() {
        let t = text(&[hit(true)], false);
        assert!(!t.contains('\x1b'));
        assert!(t.contains("swccg.ar.x (superseded)"), "{t}");
        assert!(t.contains("a force drain here"), "{t}");
    }

    #[test]
    fn bold_wraps_matches() {
        assert_eq!(
            highlight("a force drain", std::slice::from_ref(&(2..7)), true),
            format!("a {BOLD}force{RESET} drain")
        );
    }
}
