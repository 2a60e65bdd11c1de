//! Converter for the SWCCG Advanced Rulebook 3.27 appendices A–F.
//! `text` starts at the "# Appendix A - Errata" line.
//!
//! The seed's heading levels are noise (a card entry may be `#`, `##` or
//! `####`), so levels are rebuilt here:
//!
//! - A (Errata), B (Card Rulings): one level-2 section per card entry. Card
//!   entries that the extraction left as plain lines (a bold line, a title in
//!   front of "(Errata)", "See …" or a wrapped card-text box) are detected, and
//!   text glued onto a heading is moved into the body.
//! - C (Special Rules), D (Identifying Cards), E (Location Deployment): a
//!   heading "X - Y" nests under an earlier "X"; examples get `.example` and
//!   nest under the rule they illustrate.
//! - F (Current Rulings): the appendix text as it stands (it holds no entries).

use super::ar::{DOCUMENT, ID_PREFIX as PREFIX};
use super::clean::{self, JOINING_WORDS};
use super::text::{paren_depth, re};
use super::{OutFile, OutSection, assign_ids, unique_id};
use crate::error::{Error, Result};
use crate::rulebook::{Kind, slug};
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

/// How an appendix is structured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// One section per card entry, with this kind and ID infix.
    Cards(Kind, &'static str),
    /// Rule entries nested by title prefix.
    Rules,
}

/// Each appendix: its letter, its file and its shape.
#[rustfmt::skip]
const APPENDICES: [(char, &str, Shape); 6] = [
    ('A', "ar-a-errata.md", Shape::Cards(Kind::Errata, "errata")),
    ('B', "ar-b-card-rulings.md", Shape::Cards(Kind::Ruling, "rulings")),
    ('C', "ar-c-special-rules.md", Shape::Rules),
    ('D', "ar-d-identifying-cards.md", Shape::Rules),
    ('E', "ar-e-location-deployment.md", Shape::Rules),
    ('F', "ar-f-current-rulings.md", Shape::Cards(Kind::Ruling, "current-rulings")),
];

/// Rule titles in C–E whose plain slug is also a heading of Chapters 1–9; their
/// IDs carry the appendix slug (`swccg.ar.appendix-d-lore`) so both stay unique.
#[rustfmt::skip]
const CHAPTER_TITLES: [&str; 6] = [
    "React", "Politics", "Game Text", "Lore", "Characteristics", "Generic Sites",
];

/// Sub-entries of C–E whose title does not start with their parent's title.
#[rustfmt::skip]
const PARENTS: [(&str, &str); 35] = [
    ("Capturing Characters", "Capturing"),
    ("Capturing, Escorting, And Imprisoning - Example", "Capturing"),
    ("Captives", "Capturing"),
    ("Capturing Starships", "Capturing"),
    ("Releasing Captives - Example 1", "Captives - Releasing"),
    ("Releasing Captives - Example 2", "Captives - Releasing"),
    ("Captives - Seizure Examples", "Captives - Seizure (\"if possible\")"),
    ("Besieged Battle - Example", "Capturing Starships - Besieged Battles"),
    ("Character Combo Cards", "Combo Cards"),
    ("Starship Combo Cards", "Combo Cards"),
    ("Dueling And Epic Dueling - Example", "Dueling"),
    ("Laying Mines", "Mining Droid Rules"),
    ("Burying Mines", "Mining Droid Rules"),
    ("Timer Mines", "Mining Droid Rules"),
    ("Infantry And Vehicle Mines", "Mining Droid Rules"),
    ("Agenda", "Senate"),
    ("Politics", "Senate"),
    ("Senate Majority", "Senate"),
    ("Stealing Vehicles And Starships", "Stealing"),
    ("Stealing Weapons And Devices", "Stealing"),
    ("Being Inactive", "Undercover Spy Rules"),
    ("Starship Personas", "Persona Lists"),
    ("Identifying Characteristics - Examples", "Characteristics"),
    ("Bomber", "Defined Attributes & Loaded Keywords"),
    ("Gender", "Defined Attributes & Loaded Keywords"),
    ("Operatives", "Defined Attributes & Loaded Keywords"),
    ("Posed", "Defined Attributes & Loaded Keywords"),
    ("R-unit", "Defined Attributes & Loaded Keywords"),
    ("Snub Fighter", "Defined Attributes & Loaded Keywords"),
    ("Spy", "Defined Attributes & Loaded Keywords"),
    ("Specific Rulings", "Defined Attributes & Loaded Keywords"),
    ("Weapon Personas", "Persona Lists"),
    ("Character Persona Examples", "Persona Lists"),
    ("Personas - Anakin Skywalker And Darth Vader", "Persona Lists"),
    ("Personas - Palpatine, Sidious, And The Emperor", "Persona Lists"),
];

static APPENDIX_HEADING: LazyLock<Regex> =
    LazyLock::new(|| re(r"^#{1,6}\s*\**\s*Appendix ([A-F]) - ([^*]+?)\s*\**\s*$"));
static HEADING: LazyLock<Regex> = LazyLock::new(|| re(r"^(#{1,6})\s+(.*)$"));
static UNDERLINE: LazyLock<Regex> = LazyLock::new(|| re(r"<u>(.*?)</u>"));
static LINK: LazyLock<Regex> = LazyLock::new(|| re(r#"<a href="[^"]*">(.*?)</a>"#));
static SPACES: LazyLock<Regex> = LazyLock::new(|| re(r"[ \t]{2,}"));
static EMPHASIS_SPLIT: LazyLock<Regex> = LazyLock::new(|| re(r"\*\*\s*\*\*"));
static STATS_TAIL: LazyLock<Regex> = LazyLock::new(|| re(r"^(.+?) (\([A-Z]{3,} \d+\)(?: .*)?)$"));
static SEE_TAIL: LazyLock<Regex> = LazyLock::new(|| re(r"^(.+?) (See [A-Z0-9'\x22].*)$"));
static SIDE_TAIL: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(.+?) ((?:DARK|LIGHT): .*|\(front\) .*)$"));
static ITEM: LazyLock<Regex> = LazyLock::new(|| re(r"^(?:[-*] |\d{1,2}\) |[a-z]\) )"));

pub fn convert(text: &str) -> Result<Vec<OutFile>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut starts: Vec<(usize, String)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(c) = APPENDIX_HEADING.captures(line.trim()) {
            let letter = c[1].chars().next().unwrap_or('?');
            let expected = APPENDICES.get(starts.len()).map(|a| a.0);
            if Some(letter) != expected {
                return Err(Error::Input(format!(
                    "AR appendices: line {}: found Appendix {letter}, expected Appendix {}",
                    i + 1,
                    expected.map_or_else(|| "nothing".to_string(), |l| l.to_string())
                )));
            }
            starts.push((i, format!("Appendix {letter} - {}", c[2].trim())));
        }
    }
    if starts.len() != APPENDICES.len() {
        let next = APPENDICES.get(starts.len()).map_or('?', |a| a.0);
        return Err(Error::Input(format!(
            "AR appendices: cannot find the \"Appendix {next}\" heading"
        )));
    }
    let mut files = Vec::new();
    for (n, &(letter, file, shape)) in APPENDICES.iter().enumerate() {
        let (start, title) = &starts[n];
        let end = starts.get(n + 1).map_or(lines.len(), |s| s.0);
        let blocks = blocks(&lines[start + 1..end]);
        let sections = match shape {
            Shape::Cards(kind, infix) => card_sections(title, &blocks, kind, infix),
            Shape::Rules => rule_sections(letter, title, &blocks),
        };
        files.push(DOCUMENT.file(&format!("swccg/{file}"), sections));
    }
    Ok(files)
}

// ---------------------------------------------------------------------------
// Lines and blocks

/// A heading line, or a run of non-blank lines.
#[derive(Debug, Clone, PartialEq)]
enum Block {
    Heading(String),
    Lines(Vec<String>),
}

/// One seed line with extraction junk removed (TeX fragments, HTML tags,
/// emoji, doubled spaces, stray bullets).
fn clean_line(line: &str) -> String {
    let mut s = line
        .replace("\\$\\rightarrow", "◊")
        .replace("$\\rightarrow$", "◊")
        .replace("$\\bullet$", "•")
        .replace("$\\Diamond$", "◊")
        .replace("$\\diamond$", "◊")
        .replace("$\\pi$", "π")
        .replace("$\\mathbf{N}$", "N")
        .replace("<sup>\\*</sup>", "\\*")
        .replace("<sup>", "")
        .replace("</sup>", "")
        .replace('\u{a0}', " ")
        .replace("</u> <u>", " ");
    s = UNDERLINE.replace_all(&s, "*$1*").into_owned();
    s = LINK.replace_all(&s, "$1").into_owned();
    s = s.chars().filter(|&c| !is_junk_char(c)).collect();
    let trimmed = s.trim_end();
    if trimmed.starts_with('|') {
        return trimmed.to_string();
    }
    let mut s = SPACES.replace_all(trimmed.trim_start(), " ").into_owned();
    for bullet in ["- • ", "- · ", "- •", "• ", "· "] {
        if let Some(rest) = s.strip_prefix(bullet) {
            s = format!("- {rest}");
            break;
        }
    }
    s
}

fn is_junk_char(c: char) -> bool {
    let u = c as u32;
    u >= 0x1F000 || (0xFE00..=0xFE0F).contains(&u) || matches!(u, 0x200B..=0x200D | 0xFEFF)
}

/// Split cleaned lines into blocks, dropping empty headings and joining a
/// paragraph that a page break cut in two.
fn blocks(lines: &[&str]) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut cur: Vec<String> = Vec::new();
    let flush = |cur: &mut Vec<String>, out: &mut Vec<Block>| {
        if !cur.is_empty() {
            out.push(Block::Lines(std::mem::take(cur)));
        }
    };
    for raw in lines {
        let line = clean_line(raw);
        if line.is_empty() {
            flush(&mut cur, &mut out);
            continue;
        }
        if let Some(c) = HEADING.captures(&line) {
            flush(&mut cur, &mut out);
            let title = strip_emphasis(&c[2]);
            if title.chars().any(|ch| ch.is_alphanumeric()) {
                out.push(Block::Heading(title));
            }
            continue;
        }
        cur.push(line);
    }
    flush(&mut cur, &mut out);
    join_page_breaks(out)
}

/// `**A** B` → `A B`: headings carry no emphasis.
fn strip_emphasis(s: &str) -> String {
    let s = EMPHASIS_SPLIT.replace_all(s, " ");
    let s = s.replace("**", "").replace("\\_", "_");
    SPACES.replace_all(s.trim(), " ").into_owned()
}

/// Join a paragraph that a page or column break cut in two.
fn join_page_breaks(blocks: Vec<Block>) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for b in blocks {
        if let (Some(Block::Lines(prev)), Block::Lines(next)) = (out.last_mut(), &b)
            && continues(prev, next)
        {
            prev.extend(next.iter().cloned());
            continue;
        }
        out.push(b);
    }
    out
}

/// Does block `next` continue block `prev`? It does when it starts in lower
/// case, or when `prev` stops at a comma; never for tables or a new list item.
fn continues(prev: &[String], next: &[String]) -> bool {
    let last = prev.last().map(String::as_str).unwrap_or("");
    let first = next.first().map(String::as_str).unwrap_or("");
    if last.starts_with('|') || first.starts_with('|') || ITEM.is_match(first) {
        return false;
    }
    first.chars().next().is_some_and(char::is_lowercase)
        || (last.ends_with(',') && !first.is_empty())
}

/// Markdown for an entry's body blocks, as the chapters' bodies are made
/// (see [`clean::body`]).
fn render_blocks(blocks: &[Vec<String>]) -> String {
    let mut lines: Vec<&str> = Vec::new();
    for b in blocks {
        lines.extend(b.iter().map(String::as_str));
        lines.push("");
    }
    clean::body(&lines, &clean::APPENDICES)
}

fn join_line(last: &mut String, line: &str) {
    // "highest-\nability": keep the hyphen, drop the break
    let broken_word = last.ends_with('-') && last.len() > 1;
    if !(broken_word && line.chars().next().is_some_and(char::is_lowercase)) {
        last.push(' ');
    }
    last.push_str(line);
}

// ---------------------------------------------------------------------------
// Appendices A, B, F: card entries

/// Words of `s` (leading quotes and brackets removed) that start in lower case
/// and are not small joining words.
fn lowercase_words(s: &str) -> usize {
    s.split_whitespace()
        .filter(|w| {
            let w = w.trim_start_matches(['(', '"', '\'', '•', '‘', '“', '[', '<', '*']);
            let bare: String = w
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '\'')
                .collect();
            w.chars().next().is_some_and(char::is_lowercase)
                && !JOINING_WORDS.contains(&bare.to_lowercase().as_str())
        })
        .count()
}

/// Could `s` be a card title: short, title case, no sentence end.
fn title_like(s: &str) -> bool {
    let s = s.trim();
    let Some(first) = s.chars().next() else {
        return false;
    };
    if s.len() > 90
        || !(first.is_uppercase() || first.is_ascii_digit() || "•'\"‘“<".contains(first))
    {
        return false;
    }
    if (s.ends_with(['.', ',', ';', ':']) && !s.ends_with("...")) || s.contains(". ") {
        return false;
    }
    if !s.chars().any(char::is_lowercase) {
        return false; // "OR", "USED OR LOST"
    }
    lowercase_words(s) == 0
}

/// A heading whose text is a sentence rather than a title.
fn heading_is_body(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_lowercase) || lowercase_words(s) >= 4
}

/// Split text glued to a card title: "X (Errata) …", "X See Y.", "X DARK: …",
/// "X (POWER 0)". Returns the title and the body text, if any.
fn split_title(s: &str, heading: bool) -> Option<(String, Option<String>)> {
    let s = s.trim();
    if let Some(i) = s.find(" (Errata)") {
        let title = s[..i].trim();
        if title_like(title) || (heading && !heading_is_body(title)) {
            return Some((title.to_string(), Some(s[i + 1..].to_string())));
        }
        return None;
    }
    for pat in [&*STATS_TAIL, &*SIDE_TAIL, &*SEE_TAIL] {
        if let Some(c) = pat.captures(s) {
            let title = c[1].trim();
            if title_like(title) {
                return Some((title.to_string(), Some(c[2].to_string())));
            }
        }
    }
    if title_like(s) || (heading && !heading_is_body(s)) {
        return Some((s.to_string(), None));
    }
    None
}

/// A card title at the start of a plain block, as `(title, glued text)`.
fn plain_title(lines: &[String]) -> Option<(String, Option<String>)> {
    let first = lines.first()?.trim();
    if ITEM.is_match(first) || first.starts_with('|') || first.starts_with("See ") {
        return None;
    }
    // "**Title**", "**Title** See Other." or "**Title** Body text."
    if let Some(rest) = first.strip_prefix("**")
        && let Some(end) = rest.find("**")
    {
        let title = rest[..end].trim();
        let tail = rest[end + 2..].trim();
        let tail_ok = tail.is_empty() || tail.starts_with(|c: char| c.is_uppercase() || c == '(');
        if title_like(title) && tail_ok {
            let title = strip_emphasis(title);
            return Some((title, (!tail.is_empty()).then(|| tail.to_string())));
        }
    }
    let (title, glued) = split_title(first, false)?;
    if glued.is_none() && lines.len() == 1 && !title_like(&title) {
        return None;
    }
    Some((title, glued))
}

fn card_sections(app_title: &str, blocks: &[Block], kind: Kind, infix: &str) -> Vec<OutSection> {
    // (title, body blocks); entry 0 is the appendix introduction. A block left
    // empty (no text glued to a title) renders as nothing.
    let mut entries: Vec<(String, Vec<Vec<String>>)> = vec![(app_title.to_string(), Vec::new())];
    for b in blocks {
        match b {
            Block::Heading(h) => match split_title(h, true) {
                Some((title, glued)) => entries.push((title, vec![glued.into_iter().collect()])),
                None => push_body(&mut entries, vec![h.clone()]),
            },
            Block::Lines(lines) => match plain_title(lines) {
                Some((title, glued)) => {
                    let mut rest: Vec<String> = glued.into_iter().collect();
                    rest.extend(lines[1..].iter().cloned());
                    entries.push((title, vec![rest]));
                }
                None => push_body(&mut entries, lines.clone()),
            },
        }
    }
    let mut taken = BTreeSet::new();
    let mut out = Vec::new();
    for (n, (title, body)) in entries.into_iter().enumerate() {
        let (level, id, k) = if n == 0 {
            (1, format!("{PREFIX}{}", slug(&title)), Kind::Rule)
        } else {
            let id = unique_id(&mut taken, format!("{PREFIX}{infix}.{}", slug(&title)));
            (2, id, kind)
        };
        out.push(OutSection {
            level,
            title,
            id,
            kind: k,
            body: render_blocks(&body),
        });
    }
    out
}

fn push_body(entries: &mut [(String, Vec<Vec<String>>)], lines: Vec<String>) {
    if let Some(last) = entries.last_mut() {
        last.1.push(lines);
    }
}

// ---------------------------------------------------------------------------
// Appendices C, D, E: rule entries

fn is_example(title: &str) -> bool {
    title != "Character Persona Examples"
        && title
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| w == "Example" || w == "Examples")
}

/// "A - B – C" → ["A", "B", "C"].
fn components(title: &str) -> Vec<&str> {
    title
        .split(" - ")
        .flat_map(|p| p.split(" – "))
        .map(str::trim)
        .collect()
}

fn rule_sections(letter: char, app_title: &str, blocks: &[Block]) -> Vec<OutSection> {
    let app_slug = slug(app_title);
    let mut out = vec![OutSection {
        level: 1,
        title: app_title.to_string(),
        id: format!("{PREFIX}{app_slug}"),
        kind: Kind::Rule,
        body: String::new(),
    }];
    let mut bodies: Vec<Vec<Vec<String>>> = vec![Vec::new()];
    let mut tree = Tree::default();
    for b in blocks {
        let title = match b {
            Block::Heading(h) => h.clone(),
            Block::Lines(lines) => match bold_line(lines) {
                Some(t) => t,
                None => {
                    if let Some(last) = bodies.last_mut() {
                        last.push(lines.clone());
                    }
                    continue;
                }
            },
        };
        let example = is_example(&title);
        let (level, parent) = tree.add(&title, example);
        let kind = if example { Kind::Example } else { Kind::Rule };
        let id = if CHAPTER_TITLES.contains(&title.as_str()) {
            format!("{PREFIX}{}", slug(&format!("Appendix {letter} {title}")))
        } else if let (true, Some(p)) = (components(&title).len() == 1 && example, parent) {
            // "Example 1": name it after the rule it illustrates
            format!("{PREFIX}{}-{}", slug(&p), slug(&title))
        } else {
            String::new()
        };
        out.push(OutSection {
            level,
            title,
            id,
            kind,
            body: String::new(),
        });
        bodies.push(Vec::new());
    }
    let mut taken = BTreeSet::new();
    assign_ids(PREFIX, &mut out, &mut taken);
    for (s, b) in out.iter_mut().zip(bodies) {
        s.body = if LIST_SECTIONS.contains(&s.title.as_str()) {
            render_blocks(&listify(&b))
        } else {
            render_blocks(&b)
        };
        if letter == 'E' && s.level == 2 && s.body.is_empty() {
            s.body = LAYOUT_NOTE.to_string();
        }
    }
    out
}

/// Body of an Appendix E layout whose only content is a picture.
const LAYOUT_NOTE: &str = "*The printed rulebook shows this layout as a picture; it has no text.*";

/// Sections of D that are lists of names, one per seed line.
#[rustfmt::skip]
const LIST_SECTIONS: [&str; 6] = [
    "Characteristics - Guards", "Characteristics - Troopers", "Starship Personas",
    "Weapon Personas", "Character Persona Examples", "Common Sense List",
];

/// Turn the name lines of a list section into list items: a line continues the
/// item above while that has an open parenthesis or when it starts in lower
/// case; "A (note) B" on one line is two items. Prose blocks stay as they are.
fn listify(blocks: &[Vec<String>]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for b in blocks {
        let text = b.join(" ");
        if text.ends_with(':')
            || text.starts_with("Note ")
            || text.starts_with("Here are")
            || sentence_break(&text)
        {
            out.push(b.clone());
            continue;
        }
        let mut items: Vec<String> = Vec::new();
        for line in b {
            let line = line.trim_start_matches("- ");
            match items.last_mut() {
                Some(last)
                    if paren_depth(last) > 0
                        || line.chars().next().is_some_and(char::is_lowercase) =>
                {
                    join_line(last, line);
                }
                _ => items.push(line.to_string()),
            }
        }
        let items: Vec<String> = items
            .iter()
            .flat_map(|i| split_after_paren(i))
            .map(|i| format!("- {i}"))
            .collect();
        // consecutive list blocks form one list
        match out.last_mut() {
            Some(prev) if prev.last().is_some_and(|l| l.starts_with("- ")) => prev.extend(items),
            _ => out.push(items),
        }
    }
    out
}

/// Whether `s` has ". " outside parentheses: a sentence, not a name.
fn sentence_break(s: &str) -> bool {
    s.match_indices(". ")
        .any(|(i, _)| paren_depth(&s[..i]) == 0)
}

/// "Red 2 (note) Red 5" → ["Red 2 (note)", "Red 5"].
fn split_after_paren(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, _) in s.match_indices(')') {
        let next = s[i + 1..].strip_prefix(' ').and_then(|r| r.chars().next());
        if paren_depth(&s[..=i]) == 0 && next.is_some_and(char::is_uppercase) {
            out.push(s[start..=i].trim().to_string());
            start = i + 1;
        }
    }
    let rest = s[start..].trim();
    if !rest.is_empty() {
        out.push(rest.to_string());
    }
    out
}

/// A block that is one fully bold line is a heading the extraction lost.
fn bold_line(lines: &[String]) -> Option<String> {
    let [line] = lines else { return None };
    let inner = line.trim().strip_prefix("**")?.strip_suffix("**")?;
    (!inner.contains("**") && title_like(inner)).then(|| strip_emphasis(inner))
}

/// The C–E headings seen so far, as a tree in document order.
#[derive(Default)]
struct Tree {
    /// (level, title, is example, parent index)
    nodes: Vec<(u8, String, bool, Option<usize>)>,
    /// Indexes of the open sections, outermost first.
    open: Vec<usize>,
}

impl Tree {
    /// Add a heading; returns its level and the title of its parent.
    ///
    /// The intended parent is the explicit one from [`PARENTS`], else the
    /// earlier rule whose title this one extends ("X - Y" under "X" or under
    /// "W - X"), else (for an example) the rule just above. When that parent is
    /// already closed, the heading goes under the nearest of its ancestors that
    /// is still open, so the document order is kept.
    fn add(&mut self, title: &str, example: bool) -> (u8, Option<String>) {
        let explicit = PARENTS.iter().find(|(t, _)| *t == title).map(|(_, p)| *p);
        let intended = match explicit {
            Some(p) => self.nodes.iter().rposition(|n| n.1 == p),
            None => self.extended(title),
        }
        .or_else(|| {
            let open_rule = self.open.iter().rev().copied().find(|&i| !self.nodes[i].2);
            open_rule.filter(|_| example)
        });
        // the intended parent, or its nearest open ancestor
        let parent = std::iter::successors(intended, |&i| self.nodes[i].3)
            .find_map(|i| self.open.iter().position(|&o| o == i));
        let (level, parent_idx) = match parent {
            Some(pos) => {
                self.open.truncate(pos + 1);
                let p = self.open[pos];
                ((self.nodes[p].0 + 1).min(6), Some(p))
            }
            None => {
                self.open.clear();
                (2, None)
            }
        };
        self.nodes
            .push((level, title.to_string(), example, parent_idx));
        self.open.push(self.nodes.len() - 1);
        (level, parent_idx.map(|p| self.nodes[p].1.clone()))
    }

    /// The latest earlier rule with the longest title that `title` extends.
    fn extended(&self, title: &str) -> Option<usize> {
        let own = components(title);
        let mut best: Option<(usize, usize)> = None;
        for (i, n) in self.nodes.iter().enumerate().filter(|(_, n)| !n.2) {
            let theirs = components(&n.1);
            let len = if own.len() > theirs.len() && own[..theirs.len()] == theirs[..] {
                theirs.len()
            } else if own.len() > 1 && theirs.len() > 1 && theirs.last() == own.first() {
                1
            } else {
                0
            };
            if len > 0 && best.is_none_or(|(_, l)| len >= l) {
                best = Some((i, len));
            }
        }
        best.map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_detection() {
        assert!(title_like("Naboo: Battle Plains (Dark Side)"));
        assert!(title_like("Lando with Vibro-Ax"));
        assert!(title_like("Your Ship? (V)"));
        assert!(!title_like("OR"));
        assert!(!title_like(
            "Use 3 Force to place an opponent's just deployed character."
        ));
        assert!(!title_like(
            "Death Star Assault Squadron is deploy -6 at a Star Destroyer: Launch Bay."
        ));
        assert!(heading_is_body(
            "Use 3 Force to place an opponent's just deployed character"
        ));
        assert!(!heading_is_body(
            "Alter (both sides – Premiere and Coruscant)"
        ));
    }

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn name_lists_become_list_items() {
        let blocks = vec![
            lines(&["Specialized trooper characteristics are:"]),
            lines(&[
                "Biker Scouts (these are also",
                "stormtroopers) Clone Trooper",
            ]),
            lines(&["Red 2 (Wedge's starship) Red 5"]),
            lines(&["Note that the word \"guardian\" is not one."]),
        ];
        assert_eq!(
            render_blocks(&listify(&blocks)),
            "Specialized trooper characteristics are:\n\n- Biker Scouts (these are also stormtroopers)\n- Clone Trooper\n- Red 2 (Wedge's starship)\n- Red 5\n\nNote that the word \"guardian\" is not one."
        );
    }

    #[test]
    fn sentences_cut_by_page_breaks_are_joined() {
        let join = |a: &str, b: &str| render_blocks(&[lines(&[a]), lines(&[b])]);
        let long = "Once per game, may use 3 Force to deploy an Effect that has no deploy cost and may use it to";
        assert_eq!(join(long, "Cancel it."), format!("{long} Cancel it."));
        assert_eq!(
            join("Short line ends with the", "Next."),
            "Short line ends with the\n\nNext."
        );
        let ended = "A complete paragraph that happens to end without a stop See Hidden Weapons";
        assert_eq!(
            join(ended, "This starts anew."),
            format!("{ended}\n\nThis starts anew.")
        );
        assert_eq!(
            join("Draw destiny. OR", "lose 1 Force."),
            "Draw destiny. OR lose 1 Force."
        );
        // A block that stops at a comma goes on in the next one.
        assert_eq!(
            blocks(&["If total > 15,", "", "Death Star is lost."]),
            [Block::Lines(lines(&[
                "If total > 15,",
                "Death Star is lost."
            ]))]
        );
        assert_eq!(
            render_blocks(&[lines(&[
                "Maul's Double- Bladed saber; -if so, card- meets it"
            ])]),
            "Maul's Double-Bladed saber; -if so, card- meets it"
        );
    }
}
