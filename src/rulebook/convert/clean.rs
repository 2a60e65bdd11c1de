//! Text cleaning shared by the converters: heading titles and Markdown bodies
//! recovered from PDF text extractions.
//!
//! - [`title`] strips emphasis, underline tags, icon glyphs and stray
//!   backslashes from a heading title.
//! - [`body`] turns the raw lines under one heading into clean Markdown:
//!   hard-wrapped lines become one paragraph, bullets are normalised, tables
//!   are kept, and paragraphs broken by a page (no terminal punctuation, next
//!   one starting in lowercase) are joined again. The Advanced Rulebook's
//!   chapters and its appendices differ only in the few points of [`Style`].

use super::text::{paren_depth, re};
use regex::{Captures, Regex};
use std::sync::LazyLock;

/// Where the bodies of the Advanced Rulebook's chapters and appendices differ.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// A list of `1) text` items is a numbered list (`1. text`), as `1. text` is;
    /// otherwise it stays a list of bullets.
    pub paren_numbers: bool,
    /// A hyphenated word that a line break split ("Double- Bladed", "non- blaster")
    /// is joined again.
    pub join_hyphen_breaks: bool,
}

/// Chapters 1–9 and the introduction.
pub const CHAPTERS: Style = Style {
    paren_numbers: true,
    join_hyphen_breaks: false,
};

/// Appendices A–F.
pub const APPENDICES: Style = Style {
    paren_numbers: false,
    join_hyphen_breaks: true,
};

/// "Double- Bladed", "non- blaster": a hyphenated word split by a line break.
/// ("-if deployed by another card- meets" is a dash pair and stays.)
static HYPHEN_BREAK: LazyLock<Regex> = LazyLock::new(|| re(r"\b(non|[A-Z][a-z]+)- ([A-Za-z])"));

/// Clean one heading title: no `**`, `<u>`, icon glyphs, trailing backslash;
/// en dashes between words become ` - `; spaces collapsed.
pub fn title(raw: &str) -> String {
    let mut s = raw.replace("**", "").replace("<u>", "").replace("</u>", "");
    s = s.replace(" – ", " - ").replace('\\', " ");
    let s: String = s.chars().filter(|&c| keep_char(c)).collect();
    collapse_spaces(&s)
        .trim_matches(|c: char| c == ' ' || c == '*' || c == '#')
        .to_string()
}

/// Characters worth keeping in a title: ASCII, Latin letters, typographic quotes
/// and dashes. Icon fonts extract as pictographs and private-use glyphs.
fn keep_char(c: char) -> bool {
    c.is_ascii() && !c.is_ascii_control()
        || matches!(c, '’' | '‘' | '“' | '”' | '–' | '—' | '•')
        || (c.is_alphabetic() && (c as u32) < 0x0250)
}

/// Collapse runs of whitespace to one space.
pub fn collapse_spaces(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// True when `s` ends a sentence or clause (so a following lowercase paragraph
/// is not its continuation).
pub fn ends_clause(s: &str) -> bool {
    let t = s.trim_end_matches(['*', '_', ' ']);
    t.ends_with([
        '.', '!', '?', ':', ';', ')', '"', '”', '’', '\'', ']', '|', '…',
    ])
}

#[derive(Debug, Clone, PartialEq)]
enum Block {
    Para(String),
    List(Vec<String>),
    Table(Vec<String>),
}

fn is_bullet(line: &str) -> bool {
    let t = line.trim_start();
    ["- ", "• ", "· ", "* "].iter().any(|b| t.starts_with(b)) || t == "-"
}

/// `- · item`, `• item`, `* item` → `- item`.
fn bullet_text(line: &str) -> String {
    BULLETS.replace(line, "").trim_end().to_string()
}

/// The bullets in front of a list item, however many and in whatever order.
static BULLETS: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(?:(?:- |• |· |\* )\s*)*"));

/// Split raw lines into blocks at blank lines and at table/non-table changes.
fn blocks(lines: &[&str]) -> Vec<Block> {
    let mut out = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    let flush = |cur: &mut Vec<&str>, out: &mut Vec<Block>| {
        if cur.is_empty() {
            return;
        }
        let b = if cur[0].trim_start().starts_with('|') {
            Block::Table(cur.iter().map(|l| l.trim().to_string()).collect())
        } else if is_bullet(cur[0]) {
            let mut items: Vec<String> = Vec::new();
            for l in cur.iter() {
                if is_bullet(l) {
                    items.push(bullet_text(l));
                } else if let Some(last) = items.last_mut() {
                    join_into(last, l.trim());
                }
            }
            items.retain(|i| !i.is_empty());
            Block::List(items)
        } else if cur.len() > 1 && looks_like_line_list(cur) {
            Block::List(cur.iter().map(|l| collapse_spaces(l)).collect())
        } else {
            let mut p = String::new();
            for l in cur.iter() {
                join_into(&mut p, l.trim());
            }
            Block::Para(p)
        };
        out.push(b);
        cur.clear();
    };
    for &l in lines {
        if l.trim().is_empty() {
            flush(&mut cur, &mut out);
            continue;
        }
        let table = l.trim_start().starts_with('|');
        if let Some(first) = cur.first() {
            let cur_table = first.trim_start().starts_with('|');
            if table != cur_table || (!cur_table && is_bullet(l) && !is_bullet(first)) {
                flush(&mut cur, &mut out);
            }
        }
        cur.push(l);
    }
    flush(&mut cur, &mut out);
    out
}

/// Short title-like lines with no punctuation, one per line (a column of terms
/// such as the order of phases): kept one per line as a list.
fn looks_like_line_list(lines: &[&str]) -> bool {
    lines.iter().all(|l| {
        let t = l.trim();
        t.chars().count() < 60
            && !ends_clause(t)
            && !t.ends_with(',')
            && t.chars().next().is_some_and(char::is_uppercase)
    })
}

/// Append `next` to `acc` with one space.
fn join_into(acc: &mut String, next: &str) {
    if next.is_empty() {
        return;
    }
    if !acc.is_empty() {
        acc.push(' ');
    }
    acc.push_str(&collapse_spaces(next));
}

/// A one-line paragraph that is a bare term (a label under an icon picture).
fn is_term(p: &str) -> bool {
    p.chars().count() < 40
        && p.split_whitespace().count() <= 5
        && !ends_clause(p)
        && !p.ends_with(',')
        && p.chars().next().is_some_and(char::is_uppercase)
}

/// Three or more bare-term paragraphs in a row become one list.
fn term_runs(blocks: Vec<Block>) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut run: Vec<String> = Vec::new();
    let flush = |run: &mut Vec<String>, out: &mut Vec<Block>| {
        if run.len() >= 3 {
            out.push(Block::List(std::mem::take(run)));
        } else {
            out.extend(run.drain(..).map(Block::Para));
        }
    };
    for b in blocks {
        match b {
            Block::Para(p) if is_term(&p) => run.push(p),
            other => {
                flush(&mut run, &mut out);
                out.push(other);
            }
        }
    }
    flush(&mut run, &mut out);
    out
}

/// `3. text`, or `3) text` when `paren` holds → (3, "text").
fn numbered_item(item: &str, paren: bool) -> Option<(u32, &str)> {
    let digits = item.find(|c: char| !c.is_ascii_digit())?;
    let n: u32 = item[..digits].parse().ok()?;
    let rest = &item[digits..];
    let text = match rest.strip_prefix(". ") {
        Some(text) => text,
        None if paren => rest.strip_prefix(") ")?,
        None => return None,
    };
    Some((n, text.trim_start()))
}

/// Symbols the extraction wrote as TeX math.
const TEX_SYMBOLS: [(&str, &str); 5] = [
    ("$\\Diamond$", "♦"),
    ("$\\diamond$", "♦"),
    ("$\\diamondsuit$", "♦"),
    ("$\\bullet \\bullet$", "••"),
    ("$\\bullet$", "•"),
];

/// Replace TeX-math symbols with the characters they stand for, underline
/// tags with Markdown emphasis, and drop superscript tags (`3<sup>rd</sup>`).
pub fn symbols(s: &str) -> String {
    let mut out = s.to_string();
    for (tex, ch) in TEX_SYMBOLS {
        out = out.replace(tex, ch);
    }
    out = out
        .replace("<sup>", "")
        .replace("</sup>", "")
        .replace("</u> <u>", " ");
    underline_to_emphasis(&out)
}

/// `<u>not</u>` → `*not*`; an empty or blank underline disappears.
fn underline_to_emphasis(s: &str) -> String {
    UNDERLINED
        .replace_all(s, |c: &Captures| match &c[2] {
            "" => format!("{}{}", &c[1], &c[3]),
            text => format!("{}*{text}*{}", &c[1], &c[3]),
        })
        .into_owned()
}

/// `<u>…</u>`: the spaces inside the tags, and the underlined words.
static UNDERLINED: LazyLock<Regex> = LazyLock::new(|| re(r"(?s)<u>(\s*)(.*?)(\s*)</u>"));

/// Words that never end a sentence: a paragraph stopping on one was cut.
pub const JOINING_WORDS: [&str; 36] = [
    "a", "an", "and", "the", "of", "to", "in", "on", "at", "for", "with", "from", "by", "or", "is",
    "it", "as", "vs", "into", "nor", "but", "if", "not", "be", "are", "was", "his", "her", "your",
    "my", "their", "its", "than", "that", "may", "see",
];

/// Does paragraph `prev` stop mid-sentence so that `next` (which starts with a
/// capital, digit, quote or parenthesis) continues it? It does when `prev`
/// ends on a joining word or a hyphen, or inside parentheses or a quotation,
/// or when `next` opens with a parenthesis or quote followed by lower case. Short
/// paragraphs (labels, lead-ins) never count.
fn cut_mid_sentence(prev: &str, next: &str) -> bool {
    if prev.chars().count() < 60 || ends_clause(prev) || prev.ends_with(',') {
        return false;
    }
    let mut rest = next.chars();
    if next.starts_with(['(', '"']) && rest.nth(1).is_some_and(char::is_lowercase) {
        return true;
    }
    let last_word = prev.rsplit(' ').next().unwrap_or("").to_lowercase();
    let open_quote =
        prev.matches('"').count() % 2 == 1 || prev.matches('“').count() > prev.matches('”').count();
    JOINING_WORDS.contains(&last_word.as_str())
        || prev.ends_with('-')
        || paren_depth(prev) > 0
        || open_quote
}

/// Clean the raw lines under one heading into Markdown.
pub fn body(lines: &[&str], style: &Style) -> String {
    let fixed: Vec<String> = lines.iter().map(|l| symbols(l)).collect();
    let lines: Vec<&str> = fixed.iter().map(String::as_str).collect();
    // Paragraphs broken by a page or column break.
    let mut merged: Vec<Block> = Vec::new();
    for b in blocks(&lines) {
        if let Block::Para(next) = &b
            && (next
                .trim_start_matches(['*', '_'])
                .chars()
                .next()
                .is_some_and(char::is_lowercase)
                || matches!(merged.last(), Some(Block::Para(prev)) if cut_mid_sentence(prev, next)))
        {
            let open = match merged.last_mut() {
                Some(Block::Para(prev)) if !ends_clause(prev) => Some(prev),
                Some(Block::List(items)) => items.last_mut().filter(|i| !ends_clause(i)),
                _ => None,
            };
            if let Some(prev) = open {
                // `T-` / `47`: a word broken at its hyphen joins without a space.
                if !prev.ends_with('-') || prev.ends_with(" -") {
                    prev.push(' ');
                }
                prev.push_str(next);
                continue;
            }
        }
        merged.push(b);
    }
    let merged = term_runs(merged);
    let mut out = String::new();
    for b in &merged {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        match b {
            Block::Para(p) => out.push_str(p),
            Block::List(items) => {
                let numbered: Option<Vec<(u32, &str)>> = items
                    .iter()
                    .map(|i| numbered_item(i, style.paren_numbers))
                    .collect();
                let v: Vec<String> = match numbered {
                    Some(n) => n.iter().map(|(k, t)| format!("{k}. {t}")).collect(),
                    None => items.iter().map(|i| format!("- {i}")).collect(),
                };
                out.push_str(&v.join("\n"));
            }
            Block::Table(rows) => out.push_str(&rows.join("\n")),
        }
    }
    if style.join_hyphen_breaks {
        out = HYPHEN_BREAK.replace_all(&out, "${1}-${2}").into_owned();
    }
    out
}
