//! The rulebook corpus: Markdown files under `rulebook/`, one per document part,
//! parsed into [`Section`]s with stable IDs.
//!
//! File format (written by [`convert`], read by [`Corpus::load`]):
//!
//! ```text
//! ---
//! game: swccg
//! document: ar
//! document_title: Star Wars CCG Advanced Rulebook 3.27
//! superseded: false
//! ---
//!
//! # Chapter 1 - Basics {#swccg.ar.chapter-1-basics}
//! ## Section C. Actions {#swccg.ar.section-c-actions}
//! ### The Stack {#swccg.ar.the-stack}
//! #### Actions - Example 1 - Deploying A Card {#swccg.ar.actions-example-1-deploying-a-card .example}
//! ```
//!
//! Every heading carries an explicit `{#id}`. A class gives the kind
//! (`.example`, `.errata`, `.ruling`, `.glossary`, `.faq`); no class means `rule`.
//! The heading hierarchy gives each section its parent and breadcrumb.

pub mod convert;
pub mod lint;
pub mod lookup;

use crate::error::{Error, Result};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

pub use crate::game::Game;

/// Largest rulebook file read (Markdown, `ids.txt`, `aliases.txt`).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Rule,
    Example,
    Errata,
    Ruling,
    Glossary,
    Faq,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Rule => "rule",
            Kind::Example => "example",
            Kind::Errata => "errata",
            Kind::Ruling => "ruling",
            Kind::Glossary => "glossary",
            Kind::Faq => "faq",
        }
    }
    /// The kind a heading class names, in any case (`.example`, `.Errata`).
    pub fn parse(s: &str) -> Option<Kind> {
        let name = s.to_ascii_lowercase();
        Kind::deserialize(serde::de::value::StrDeserializer::<serde::de::value::Error>::new(&name))
            .ok()
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Front matter of one rulebook Markdown file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DocumentMeta {
    pub game: Game,
    /// Short document key, e.g. `ar`, `rr`, `rb`.
    pub document: String,
    pub document_title: String,
    #[serde(default)]
    pub superseded: bool,
    /// Which document replaces this one, when superseded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
    /// The seed file this was converted from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Section {
    pub id: String,
    pub game: Game,
    pub document: String,
    pub kind: Kind,
    pub title: String,
    /// Heading level, 1..=6.
    pub level: u8,
    /// Document title, then each ancestor's title, then this section's title.
    pub breadcrumb: Vec<String>,
    /// ID of the enclosing section, if any.
    pub parent: Option<String>,
    /// IDs of the directly nested sections, in order.
    pub children: Vec<String>,
    /// Markdown body below the heading, up to the next heading.
    pub body: String,
    pub superseded: bool,
    /// File relative to the rulebook root, and 1-based line of the heading.
    pub file: PathBuf,
    pub line: usize,
}

impl Section {
    /// Body as plain text (Markdown markup removed), for indexing and snippets.
    pub fn plain_body(&self) -> String {
        markdown_to_plain(&self.body)
    }
}

#[derive(Debug, Default)]
pub struct Corpus {
    pub root: PathBuf,
    pub documents: Vec<(PathBuf, DocumentMeta)>,
    pub sections: Vec<Section>,
    by_id: HashMap<String, usize>,
    /// Problems found while loading that lint reports (duplicate IDs and the like).
    pub load_problems: Vec<String>,
}

impl Corpus {
    /// Load every `*.md` file under `root` (recursively, sorted by path).
    pub fn load(root: &Path) -> Result<Corpus> {
        let files = markdown_files(root)?;
        if files.is_empty() {
            return Err(Error::Usage(format!(
                "no rulebook Markdown files under {}",
                root.display()
            )));
        }
        let mut corpus = Corpus {
            root: root.to_path_buf(),
            ..Default::default()
        };
        for file in files {
            let text = crate::paths::read_text_file(&file, MAX_FILE_BYTES, "not a regular file")?;
            let rel = file.strip_prefix(root).unwrap_or(&file).to_path_buf();
            // Messages name the file as given (`--rulebook` may be anywhere), not
            // only its path inside the rulebook.
            corpus.add_file(&rel, &text).map_err(|e| match e {
                Error::Input(m) => match m.strip_prefix(&*rel.to_string_lossy()) {
                    Some(rest) => Error::Input(format!("{}{rest}", file.display())),
                    None => Error::Input(m),
                },
                other => other,
            })?;
        }
        corpus.link();
        Ok(corpus)
    }

    /// Parse one file's text into sections and add them.
    pub fn add_file(&mut self, rel: &Path, text: &str) -> Result<()> {
        let (meta, body_offset) = parse_front_matter(rel, text)?;
        let body = &text[body_offset..];
        let line_base = text[..body_offset].matches('\n').count();
        let headings = parse_headings(rel, body, line_base)?;
        let mut stack: Vec<(u8, usize)> = Vec::new(); // (level, index into sections)
        for h in headings {
            while stack.last().is_some_and(|&(lvl, _)| lvl >= h.level) {
                stack.pop();
            }
            let parent = stack.last().map(|&(_, i)| i);
            let mut breadcrumb = vec![meta.document_title.clone()];
            breadcrumb.extend(stack.iter().map(|&(_, i)| self.sections[i].title.clone()));
            breadcrumb.push(h.title.clone());
            let Some(id) = h.id else {
                return Err(Error::Input(format!(
                    "{}:{}: heading \"{}\" has no {{#id}} attribute",
                    rel.display(),
                    h.line,
                    h.title
                )));
            };
            let idx = self.sections.len();
            if let Some(&prev) = self.by_id.get(&id) {
                let p = &self.sections[prev];
                self.load_problems.push(format!(
                    "{}:{}: duplicate id {} (first at {}:{})",
                    rel.display(),
                    h.line,
                    id,
                    p.file.display(),
                    p.line
                ));
            } else {
                self.by_id.insert(id.clone(), idx);
            }
            self.sections.push(Section {
                id,
                game: meta.game,
                document: meta.document.clone(),
                kind: h.kind,
                title: h.title,
                level: h.level,
                breadcrumb,
                parent: parent.map(|i| self.sections[i].id.clone()),
                children: Vec::new(),
                body: body[h.body_range.clone()].trim().to_string(),
                superseded: meta.superseded,
                file: rel.to_path_buf(),
                line: h.line,
            });
            stack.push((h.level, idx));
        }
        self.documents.push((rel.to_path_buf(), meta));
        Ok(())
    }

    fn link(&mut self) {
        for c in 0..self.sections.len() {
            let parent = self.sections[c].parent.as_ref();
            if let Some(&i) = parent.and_then(|p| self.by_id.get(p)) {
                let child = self.sections[c].id.clone();
                self.sections[i].children.push(child);
            }
        }
    }

    pub fn get(&self, id: &str) -> Option<&Section> {
        self.by_id.get(id).map(|&i| &self.sections[i])
    }

    pub fn contains(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    /// Example sections nested (at any depth) under `id`.
    pub fn examples_of(&self, id: &str) -> Vec<&Section> {
        let mut out = Vec::new();
        let mut todo: Vec<&str> = vec![id];
        while let Some(cur) = todo.pop() {
            if let Some(s) = self.get(cur) {
                todo.extend(s.children.iter().map(String::as_str));
                if s.id != id && s.kind == Kind::Example {
                    out.push(s);
                }
            }
        }
        out.sort_by_key(|s| (s.file.clone(), s.line));
        out
    }

    /// IDs close to `id`, best first, for "did you mean".
    pub fn suggest(&self, id: &str, n: usize) -> Vec<&str> {
        let q = id.to_ascii_lowercase();
        let mut scored: Vec<(f64, &str)> = self
            .sections
            .iter()
            .map(|s| {
                let mut score = strsim::jaro_winkler(&q, &s.id);
                let tail = s.id.rsplit('.').next().unwrap_or(&s.id);
                score = score.max(strsim::jaro_winkler(&q, tail));
                if s.id.contains(&q) || slug(&s.title).contains(&slug(&q)) {
                    score += 0.2;
                }
                (score, s.id.as_str())
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        scored
            .into_iter()
            .take(n)
            .filter(|(s, _)| *s > 0.75)
            .map(|(_, id)| id)
            .collect()
    }
}

/// Lowercase ASCII slug: letters and digits, other runs become one `-`.
pub fn slug(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut dash = false;
    for c in s.chars() {
        let c = match c {
            'é' | 'è' | 'ê' => 'e',
            'á' | 'à' => 'a',
            '’' | '\'' => continue,
            _ => c,
        };
        if c.is_ascii_alphanumeric() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c.to_ascii_lowercase());
        } else {
            dash = true;
        }
    }
    out
}

/// Every `*.md` file under `root`, recursively, sorted by path (see
/// [`crate::paths::files_under`]).
pub fn markdown_files(root: &Path) -> Result<Vec<PathBuf>> {
    if !root.is_dir() {
        return Err(Error::Usage(format!(
            "{}: not a rulebook folder",
            root.display()
        )));
    }
    crate::paths::files_under(&[root.to_path_buf()], &["md"])
}

fn parse_front_matter(rel: &Path, text: &str) -> Result<(DocumentMeta, usize)> {
    let missing = || {
        Error::Input(format!(
            "{}:1:1: expected YAML front matter between --- lines",
            rel.display()
        ))
    };
    let rest = text.strip_prefix("---\n").ok_or_else(missing)?;
    let end = rest.find("\n---\n").ok_or_else(missing)?;
    let meta: DocumentMeta = crate::yaml::load(rel, &rest[..end + 1])?;
    Ok((meta, 4 + end + 5))
}

struct Heading {
    level: u8,
    title: String,
    id: Option<String>,
    kind: Kind,
    line: usize,
    body_range: std::ops::Range<usize>,
}

fn parse_headings(rel: &Path, body: &str, line_base: usize) -> Result<Vec<Heading>> {
    let opts = Options::ENABLE_HEADING_ATTRIBUTES | Options::ENABLE_TABLES;
    let mut out: Vec<Heading> = Vec::new();
    let mut cur: Option<Heading> = None;
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(body.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |off: usize| line_starts.partition_point(|&s| s <= off) + line_base;
    for (ev, range) in Parser::new_ext(body, opts).into_offset_iter() {
        match ev {
            Event::Start(Tag::Heading {
                level, id, classes, ..
            }) => {
                if let Some(prev) = out.last_mut() {
                    prev.body_range.end = range.start;
                }
                let mut kind = Kind::Rule;
                for c in &classes {
                    kind = Kind::parse(c).ok_or_else(|| {
                        Error::Input(format!(
                            "{}:{}: unknown section class .{c}",
                            rel.display(),
                            line_of(range.start)
                        ))
                    })?;
                }
                cur = Some(Heading {
                    level: level as u8,
                    title: String::new(),
                    id: id.map(|s| s.to_string()),
                    kind,
                    line: line_of(range.start),
                    body_range: range.end..body.len(),
                });
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(mut h) = cur.take() {
                    h.title = h.title.trim().to_string();
                    h.body_range = range.end..body.len();
                    out.push(h);
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = cur.as_mut() {
                    h.title.push_str(&t);
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// Markdown → plain text: keeps words, drops markup; table cells separated by " | ".
pub fn markdown_to_plain(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    for ev in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match ev {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            Event::End(TagEnd::Paragraph)
            | Event::End(TagEnd::Item)
            | Event::End(TagEnd::TableRow)
            | Event::End(TagEnd::TableHead) => out.push('\n'),
            Event::End(TagEnd::TableCell) => out.push_str(" | "),
            _ => {}
        }
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\ngame: swccg\ndocument: ar\ndocument_title: AR\n---\n\n# Chapter 1 {#swccg.ar.chapter-1}\n\nIntro.\n\n## The Stack {#swccg.ar.the-stack}\n\nStack text.\n\n### Actions - Example 1 {#swccg.ar.actions-example-1 .example}\n\nExample text.\n\n## Next {#swccg.ar.next}\n\nMore.\n";

    #[test]
    fn parses_hierarchy_kinds_and_lines() {
        let mut c = Corpus::default();
        c.add_file(Path::new("swccg/ar.md"), DOC).unwrap();
        c.link();
        let ex = c.get("swccg.ar.actions-example-1").unwrap();
        assert_eq!(ex.kind, Kind::Example);
        assert_eq!(ex.parent.as_deref(), Some("swccg.ar.the-stack"));
        assert_eq!(
            ex.breadcrumb,
            ["AR", "Chapter 1", "The Stack", "Actions - Example 1"]
        );
        assert_eq!(ex.body, "Example text.");
        assert_eq!(ex.line, 15);
        let next = c.get("swccg.ar.next").unwrap();
        assert_eq!(next.parent.as_deref(), Some("swccg.ar.chapter-1"));
        assert_eq!(c.examples_of("swccg.ar.chapter-1").len(), 1);
        assert_eq!(c.get("swccg.ar.the-stack").unwrap().body, "Stack text.");
    }

    #[test]
    fn slugs() {
        assert_eq!(
            slug("Battles - A Simple Example"),
            "battles-a-simple-example"
        );
        assert_eq!(slug("Obi-Wan's Cape"), "obi-wans-cape");
        assert_eq!(slug("  The Stack "), "the-stack");
    }
}
