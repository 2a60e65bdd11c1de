//! Rendering for `rule` output (text and JSON from one structure: [`RuleView`]).

use crate::rulebook::lint::{CrossRef, Resolver};
use crate::rulebook::{Corpus, Game, Kind, Section};
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
        let resolver = Resolver::new(corpus);
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
            cross_references: resolver.cross_references(s),
        }
    }
}

/// Text rendering; `bold` adds ANSI bold to headings (terminals only).
pub fn text(v: &RuleView, bold: bool) -> String {
    let b = |s: &str| {
        if bold {
            format!("\x1b[1m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    };
    let mut out = String::new();
    let _ = write!(out, "{} — {}", b(&v.id), v.title);
    if v.kind != Kind::Rule {
        let _ = write!(out, " [{}]", v.kind);
    }
    if v.superseded {
        out.push_str(" (superseded)");
    }
    out.push('\n');
    let _ = writeln!(out, "{}", v.breadcrumb.join(" › "));
    let _ = writeln!(out, "{}:{}", v.file, v.line);
    if !v.text.trim().is_empty() {
        let _ = writeln!(out, "\n{}", v.text.trim());
    }
    for e in &v.examples {
        let _ = writeln!(out, "\n{} {} — {}", b("Example"), e.id, e.title);
        if !e.text.trim().is_empty() {
            let _ = writeln!(out, "{}", indent(e.text.trim()));
        }
    }
    if !v.children.is_empty() {
        let _ = writeln!(out, "\n{}", b("Subsections:"));
        for c in &v.children {
            let kind = if c.kind == Kind::Rule {
                String::new()
            } else {
                format!(" [{}]", c.kind)
            };
            let _ = writeln!(out, "  {} — {}{kind}", c.id, c.title);
        }
    }
    if !v.cross_references.is_empty() {
        let _ = writeln!(out, "\n{}", b("See also:"));
        for r in &v.cross_references {
            match &r.id {
                Some(id) => {
                    let _ = writeln!(out, "  {} → {id}", r.text);
                }
                None => {
                    let _ = writeln!(out, "  {} (not found in the rulebook)", r.text);
                }
            }
        }
    }
    out
}

fn indent(s: &str) -> String {
    s.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("  {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
