//! Rendering for `rule` output (text and JSON from one structure: [`RuleView`]).

use super::{Style, markdown, wrap};
use crate::game::Game;
use crate::rulebook::lint::{CrossRef, Resolver};
use crate::rulebook::{Corpus, Kind, Section};
use serde::Serialize;
use std::fmt::Write as _;

/// One section as `rule` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct RuleView {
    pub id: String,
    pub title: String,
    pub breadcrumb: Vec<String>,
    pub game: Game,
    pub document: String,
    pub kind: Kind,
    pub superseded: bool,
    /// The section's Markdown body.
    pub text: String,
    /// Where it is: rulebook file and line of its heading.
    pub file: String,
    pub line: usize,
    /// Example sections nested under it, in full.
    pub examples: Vec<Example>,
    /// Directly nested sections.
    pub children: Vec<Child>,
    pub cross_references: Vec<CrossRef>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Example {
    pub id: String,
    pub title: String,
    pub text: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Child {
    pub id: String,
    pub title: String,
    pub kind: Kind,
}

impl RuleView {
    pub fn new(corpus: &Corpus, s: &Section) -> RuleView {
        RuleView {
            id: s.id.clone(),
            title: s.title.clone(),
            breadcrumb: s.breadcrumb.clone(),
            game: s.game,
            document: s.document.clone(),
            kind: s.kind,
            superseded: s.superseded,
            text: s.body.clone(),
            file: s.file.to_string_lossy().replace('\\', "/"),
            line: s.line,
            examples: corpus
                .examples_of(&s.id)
                .into_iter()
                .map(|e| Example {
                    id: e.id.clone(),
                    title: e.title.clone(),
                    text: e.body.clone(),
                })
                .collect(),
            children: s
                .children
                .iter()
                .filter_map(|c| corpus.get(c))
                .map(|c| Child {
                    id: c.id.clone(),
                    title: c.title.clone(),
                    kind: c.kind,
                })
                .collect(),
            cross_references: Resolver::new(corpus).cross_references(s),
        }
    }
}

/// Text rendering: the Markdown rendered for a terminal, fitted to the width.
/// Cross-references that name no section are left out (the text still shows
/// them, and `lint --unresolved` lists them); JSON keeps them with a null ID.
pub fn text(v: &RuleView, style: &Style) -> String {
    let mut out = String::new();
    let _ = write!(out, "{} — {}", style.bold(&v.id), v.title);
    if v.kind != Kind::Rule {
        let _ = write!(out, " [{}]", v.kind);
    }
    if v.superseded {
        out.push_str(" (superseded)");
    }
    out.push('\n');
    style.push_wrapped(&mut out, &v.breadcrumb.join(" › "), "", "");
    let _ = writeln!(out, "{}:{}", v.file, v.line);
    if !v.text.trim().is_empty() {
        let _ = writeln!(out, "\n{}", markdown::to_terminal(&v.text, style, ""));
    }
    for e in &v.examples {
        let head = format!("{} {} — {}", style.bold("Example"), e.id, e.title);
        let _ = writeln!(out, "\n{}", wrap(&head, style.width, ""));
        if !e.text.trim().is_empty() {
            let _ = writeln!(out, "{}", markdown::to_terminal(&e.text, style, "  "));
        }
    }
    if !v.children.is_empty() {
        let _ = writeln!(out, "\n{}", style.bold("Subsections:"));
        for c in &v.children {
            let kind = if c.kind == Kind::Rule {
                String::new()
            } else {
                format!(" [{}]", c.kind)
            };
            let line = format!("{} — {}{kind}", c.id, c.title);
            style.push_wrapped(&mut out, &line, "  ", "    ");
        }
    }
    let resolved: Vec<(&str, &str)> = v
        .cross_references
        .iter()
        .filter_map(|r| r.id.as_deref().map(|id| (r.text.as_str(), id)))
        .collect();
    if !resolved.is_empty() {
        let _ = writeln!(out, "\n{}", style.bold("See also:"));
        for (text, id) in resolved {
            let line = format!("{text} → {id}");
            style.push_wrapped(&mut out, &line, "  ", "    ");
        }
    }
    out
}
