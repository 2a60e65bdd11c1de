//! Rendering for `search` output (text and JSON from one structure: [`Hit`]).

use super::{Style, one_line, visible_len, wrap};
use crate::index::{DocKind, Hit, Origin};
use std::fmt::Write as _;

/// A ranked list: ID (with kind and "(superseded)" when they apply), breadcrumb,
/// then the snippet on one line, its matched words in bold when colour is on;
/// each line wrapped to `style.width`. A hit's number and ID stay together on
/// the first line (an ID is never split); its labels follow when they fit.
pub fn text(hits: &[Hit], style: &Style) -> String {
    let mut out = String::new();
    let indented = |out: &mut String, line: &str| {
        out.push_str(&wrap(line, style.width, "    "));
        out.push('\n');
    };
    for (i, h) in hits.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let head = format!("{:>2}. {}", i + 1, style.bold(&one_line(&h.id)));
        let mut labels = Vec::new();
        if h.kind != DocKind::Rule {
            labels.push(format!("[{}]", h.kind));
        }
        if h.superseded {
            labels.push("(superseded)".to_string());
        }
        let labels = labels.join(" ");
        if labels.is_empty() {
            let _ = writeln!(out, "{head}");
        } else if visible_len(&head) + 1 + visible_len(&labels) <= style.width {
            let _ = writeln!(out, "{head} {labels}");
        } else {
            let _ = writeln!(out, "{head}");
            indented(&mut out, &labels);
        }
        indented(&mut out, &one_line(&h.breadcrumb.join(" › ")));
        if let Origin::Database { file, card, .. } = &h.source {
            let what = match h.kind {
                DocKind::Ruling => "ruling from the card database",
                DocKind::Errata => "erratum from the card database",
                _ => "card database",
            };
            let line = format!("({what} {}, card {})", one_line(file), one_line(card));
            indented(&mut out, &line);
        }
        let snippet = highlight(&h.snippet, &h.highlights, style);
        if !snippet.is_empty() {
            indented(&mut out, &snippet);
        }
        if !h.see.is_empty() {
            indented(&mut out, &format!("→ {}", one_line(&h.see.join(", "))));
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
