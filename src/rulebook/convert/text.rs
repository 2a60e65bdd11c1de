//! Shared helpers for the seed converters: splitting PDF text into blocks,
//! rejoining paragraphs split by page breaks, title-casing headings and
//! collecting sections.

use super::OutSection;
use super::clean::ends_clause;
use crate::rulebook::{Kind, slug};
use regex::Regex;
use std::sync::LazyLock;

/// A built-in pattern (a bad one is a defect of the converter, found by its tests).
pub fn re(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("invalid built-in pattern {pattern:?}: {e}"))
}

/// Parenthesis depth at the end of `s`.
pub fn paren_depth(s: &str) -> i32 {
    s.chars().fold(0, |d, c| match c {
        '(' => d + 1,
        ')' => d - 1,
        _ => d,
    })
}

/// The paragraphs of `text`: its non-blank lines, trimmed at the end, less
/// those `drop` holds for (page furniture), rejoined by [`join_broken`].
pub fn paragraphs(
    text: &str,
    drop: impl Fn(&str) -> bool,
    is_heading: impl Fn(&str) -> bool,
) -> Vec<String> {
    let kept = text
        .lines()
        .map(|l| l.trim_end().to_string())
        .filter(|l| !l.trim().is_empty() && !drop(l.trim()))
        .collect();
    join_broken(kept, &is_heading)
}

/// Whether a block reads as a list item (`- x`, `1. x`, nested ` - x`).
pub fn is_list_item(b: &str) -> bool {
    let t = b.trim_start();
    if t.starts_with("- ") || t.starts_with("* ") {
        return true;
    }
    let digits = t.chars().take_while(|c| c.is_ascii_digit()).count();
    digits > 0 && digits < 3 && t[digits..].starts_with(". ")
}

pub fn starts_lower(s: &str) -> bool {
    s.trim_start()
        .chars()
        .next()
        .is_some_and(|c| c.is_lowercase())
}

/// Rejoin paragraphs that a page or column break split: a block that does not
/// end a sentence, followed by one that starts in lowercase, is one paragraph.
/// A trailing hyphen after a letter is treated as a broken word.
/// Blocks for which `is_heading` holds are never joined to what follows.
pub fn join_broken(blocks: Vec<String>, is_heading: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(blocks.len());
    for b in blocks {
        if let Some(prev) = out.last_mut()
            && !ends_clause(prev)
            && starts_lower(&b)
            && !is_list_item(&b)
            && !is_heading(prev.trim())
        {
            let p = prev.trim_end().to_string();
            *prev = join_words(&p, b.trim_start());
            continue;
        }
        out.push(b);
    }
    out
}

/// Join two pieces of one paragraph. A line-final hyphen in these seeds is a
/// real hyphen ("game-" + "relevant", "Y-" + "Wing"), so it is kept.
pub fn join_words(a: &str, b: &str) -> String {
    let a = a.trim_end();
    if a.ends_with('-') {
        return format!("{a}{b}");
    }
    format!("{a} {b}")
}

/// Words kept in capitals when title-casing an ALL-CAPS heading.
const KEEP_UPPER: &[&str] = &[
    "ID", "DJ", "EMP", "FAQ", "II", "III", "IV", "TIE", "AT-AT", "X", "POP", "SWTCG", "IDC", "WOTC",
];

/// Title-case an ALL-CAPS heading: every word capitalised ("CLAIM THE
/// BATTLEFIELD" → "Claim The Battlefield"), letters after `-`, `(`, `"`, `/`
/// capitalised too, letters after an apostrophe kept lower ("IT'S" → "It's").
/// Words with digits ("C-3PO", "FN-2199") and known abbreviations stay as they are.
pub fn title_case(s: &str) -> String {
    let mut out = Vec::new();
    for word in s.split_whitespace() {
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
        if word.chars().any(|c| c.is_ascii_digit()) || KEEP_UPPER.contains(&bare) {
            out.push(word.to_string());
            continue;
        }
        let mut w = String::with_capacity(word.len());
        let mut cap = true;
        for c in word.chars() {
            if c.is_alphabetic() {
                if cap {
                    w.extend(c.to_uppercase());
                } else {
                    w.extend(c.to_lowercase());
                }
                cap = false;
            } else {
                w.push(c);
                cap = matches!(c, '-' | '(' | '"' | '/' | '\u{201c}');
            }
        }
        out.push(w.replace("(S)", "(s)"));
    }
    out.join(" ")
}

/// Whether a line is an ALL-CAPS heading: letters present, none lowercase,
/// short, not a list item.
pub fn is_caps_heading(s: &str) -> bool {
    let t = s.trim();
    let letters = t.chars().filter(|c| c.is_alphabetic()).count();
    letters >= 2
        && t.chars().count() <= 70
        && !t.chars().any(|c| c.is_lowercase())
        && !t.starts_with("- ")
        && !t.ends_with('.')
}

/// Escape characters that Markdown would read as markup in a heading title.
pub fn md_title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '*' | '_' | '`' | '[' | ']' | '<' | '{' | '}' | '#') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Slug limited to about `max` characters, cut at a word boundary (the first
/// word is kept whatever its length).
pub fn short_slug(s: &str, max: usize) -> String {
    let mut out = slug(s);
    while out.len() > max
        && let Some(cut) = out.rfind('-')
    {
        out.truncate(cut);
    }
    out
}

/// Collects sections in document order; body blocks go to the latest heading.
#[derive(Debug, Default)]
pub struct Builder {
    pub sections: Vec<OutSection>,
    body: Vec<String>,
}

impl Builder {
    pub fn heading(&mut self, level: u8, title: &str, id: Option<String>, kind: Kind) {
        self.flush();
        self.sections.push(OutSection {
            level,
            title: md_title(title.trim()),
            id: id.unwrap_or_default(),
            kind,
            body: String::new(),
        });
    }

    /// Append one block (paragraph or list item) to the current section.
    /// Returns false when no section has been opened yet.
    pub fn block(&mut self, b: &str) -> bool {
        if self.sections.is_empty() {
            return false;
        }
        self.body.push(b.trim_end().to_string());
        true
    }

    fn flush(&mut self) {
        if let Some(s) = self.sections.last_mut()
            && !self.body.is_empty()
        {
            s.body = render_blocks(&self.body);
        }
        self.body.clear();
    }

    pub fn finish(mut self) -> Vec<OutSection> {
        self.flush();
        self.sections
    }
}

/// Blocks to Markdown: consecutive list items on adjacent lines, everything
/// else separated by a blank line.
pub fn render_blocks(blocks: &[String]) -> String {
    let mut out = String::new();
    let mut prev_list = false;
    // Inside a run of list items, bullets after a numbered item that ends in
    // a ":" ("1. Declare Attack:", "3. Roll POP: Hits") are its sub-items.
    let mut under_numbered = false;
    for b in blocks {
        let list = is_list_item(b);
        if !out.is_empty() {
            out.push_str(if list && prev_list { "\n" } else { "\n\n" });
        }
        let numbered = list && !b.starts_with(['-', '*', ' ']);
        if numbered {
            under_numbered = b.contains(':');
        } else if !list || !prev_list {
            under_numbered = false;
        }
        if under_numbered && !numbered && b.starts_with("- ") {
            out.push_str("   ");
        }
        out.push_str(b);
        prev_list = list;
    }
    out
}

/// A numbered list item written as a bullet: `- 1 Text`, `- **2** Text`,
/// `- 1. Text`, `- **3.** Text` (one or two digits, then a space).
static NUMBERED: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?s)^- \s*(?:\*\*(\d{1,2})\.*\*\*|(\d{1,2})\.*) \s*(.*)$"));

/// Normalise list markers: `- 1 Text`/`- **2** Text` → `1. Text`; a line
/// indented by one space (`" - x"`) becomes a nested item; `•` bullets become `-`.
pub fn normalize_list(b: &str) -> String {
    let (indent, t) = if b.starts_with(' ') && b.trim_start().starts_with("- ") {
        ("   ", b.trim_start())
    } else {
        ("", b)
    };
    let t = if let Some(rest) = t.strip_prefix("• ").or_else(|| t.strip_prefix("\u{2022}")) {
        format!("- {}", rest.trim_start())
    } else {
        t.to_string()
    };
    if let Some(c) = NUMBERED.captures(&t)
        && c[3].chars().next().is_some_and(|ch| !ch.is_lowercase())
    {
        let num = c.get(1).or(c.get(2)).map_or("", |m| m.as_str());
        return format!("{indent}{num}. {}", &c[3]);
    }
    format!("{indent}{t}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_caps_lines_are_headings_too() {
        assert!(is_caps_heading(
            "RARITY, AFFILIATION, COLOR, TYPE, SUBTYPE, TITLE, AND UNIQUENESS"
        ));
        assert!(!is_caps_heading(
            "THIS LINE IS FAR TOO LONG TO BE ANY HEADING OF THE RULES REFERENCE AT ALL"
        ));
        assert!(!is_caps_heading("Mixed case line"));
    }

    #[test]
    fn title_case_keeps_names_readable() {
        assert_eq!(title_case("CLAIM THE BATTLEFIELD"), "Claim The Battlefield");
        assert_eq!(title_case("QUI-GON JINN (37)"), "Qui-Gon Jinn (37)");
        assert_eq!(title_case("IT'S A TRAP (107)"), "It's A Trap (107)");
        assert_eq!(title_case("C-3PO (30)"), "C-3PO (30)");
        assert_eq!(title_case("IDENTIFICATION (ID)"), "Identification (ID)");
        assert_eq!(title_case("\"THEN\" EFFECTS"), "\"Then\" Effects");
    }

    #[test]
    fn broken_paragraphs_are_rejoined() {
        let v = vec![
            "They must".to_string(),
            "choose all dice.".to_string(),
            "Next.".to_string(),
        ];
        assert_eq!(
            join_broken(v, &|_| false),
            ["They must choose all dice.", "Next."]
        );
        assert_eq!(join_words("non-", "unique"), "non-unique");
    }

    #[test]
    fn list_markers_are_normalised() {
        assert_eq!(normalize_list("- **2** Check play"), "2. Check play");
        assert_eq!(normalize_list("- 1 Declare intent"), "1. Declare intent");
        assert_eq!(normalize_list(" - If, after"), "   - If, after");
        assert_eq!(
            normalize_list("- **1. Owner Overrides.** If"),
            "- **1. Owner Overrides.** If"
        );
        assert_eq!(normalize_list("• card back"), "- card back");
    }

    #[test]
    fn bullets_nest_under_a_numbered_step_ending_in_colon() {
        let v: Vec<String> = [
            "1. Declare Attack:",
            "- Tap.",
            "2. Attack POP",
            "- Not nested.",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            render_blocks(&v),
            "1. Declare Attack:\n   - Tap.\n2. Attack POP\n- Not nested."
        );
    }

    #[test]
    fn caps_headings() {
        assert!(is_caps_heading("PART 5. GAME STRUCTURE"));
        assert!(is_caps_heading("QUI-GON JINN (37)"));
        assert!(!is_caps_heading("Yes, if able."));
        assert!(!is_caps_heading("- Play a card"));
        assert!(!is_caps_heading("8"));
    }
}
