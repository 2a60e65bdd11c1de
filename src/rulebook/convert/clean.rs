//! Text cleaning shared by the converters: heading titles and Markdown bodies
//! recovered from PDF text extractions.
//!
//! - [`title`] strips emphasis, underline tags, icon glyphs and stray
//!   backslashes from a heading title.
//! - [`body`] turns the raw lines under one heading into clean Markdown:
//!   hard-wrapped lines become one paragraph, bullets are normalised, tables
//!   are kept, and paragraphs broken by a page (no terminal punctuation, next
//!   one starting in lowercase) are joined again.

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
    t.ends_with(['.', '!', '?', ':', ';', ')', '"', '”', '’', '\'', ']', '|'])
}

#[derive(Debug, Clone, PartialEq)]
enum Block {
    Para(String),
    List(Vec<String>),
    Table(Vec<String>),
}

fn is_bullet(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("- ") || t.starts_with("• ") || t.starts_with("· ") || t.starts_with("* ") || t == "-"
}

/// `- · item`, `• item`, `* item` → `- item`.
fn bullet_text(line: &str) -> String {
    let mut t = line.trim_start();
    loop {
        let before = t;
        for p in ["- ", "• ", "· ", "* "] {
            if let Some(r) = t.strip_prefix(p) {
                t = r.trim_start();
            }
        }
        if t == before {
            break;
        }
    }
    t.trim_end().to_string()
}

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
        t.chars().count() < 60 && !ends_clause(t) && !t.ends_with(',') && t.chars().next().is_some_and(char::is_uppercase)
    })
}

/// Append `next` to `acc` with one space.
fn join_into(acc: &mut String, next: &str) {
    if next.is_empty() {
        return;
    }
    if acc.is_empty() {
        acc.push_str(&collapse_spaces(next));
        return;
    }
    acc.push(' ');
    acc.push_str(&collapse_spaces(next));
}

/// Clean the raw lines under one heading into Markdown.
pub fn body(lines: &[&str]) -> String {
    let mut bs = blocks(lines);
    // Paragraphs broken by a page or column break.
    let mut merged: Vec<Block> = Vec::new();
    for b in bs.drain(..) {
        if let (Some(Block::Para(prev)), Block::Para(next)) = (merged.last_mut(), &b)
            && !ends_clause(prev)
            && next.chars().next().is_some_and(char::is_lowercase)
        {
            prev.push(' ');
            prev.push_str(next);
            continue;
        }
        merged.push(b);
    }
    let mut out = String::new();
    for b in &merged {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        match b {
            Block::Para(p) => out.push_str(p),
            Block::List(items) => {
                let v: Vec<String> = items.iter().map(|i| format!("- {i}")).collect();
                out.push_str(&v.join("\n"));
            }
            Block::Table(rows) => out.push_str(&rows.join("\n")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_lose_markup_and_icons() {
        assert_eq!(title("**Empty Deck Or Pile**"), "Empty Deck Or Pile");
        assert_eq!(title("<u>Presence</u>"), "Presence");
        assert_eq!(title("Starships - Republic 🛳"), "Starships - Republic");
        assert_eq!(title("Weapons \\"), "Weapons");
        assert_eq!(title("Starships – starfighters without maneuver"), "Starships - starfighters without maneuver");
    }

    #[test]
    fn wrapped_lines_join_and_page_breaks_mend() {
        let md = body(&["Light is playing Watch Your Step and has it flipped to", "the 7 side.", "", "This means that you must first lose", "", "as well."]);
        assert_eq!(md, "Light is playing Watch Your Step and has it flipped to the 7 side.\n\nThis means that you must first lose as well.");
    }

    #[test]
    fn bullets_and_tables_are_kept() {
        let md = body(&["Text:", "", "- · firing one weapon;", "- drawing one", "  destiny;", "", "| a | b |", "|--|--|", "| 1 | 2 |"]);
        assert_eq!(md, "Text:\n\n- firing one weapon;\n- drawing one destiny;\n\n| a | b |\n|--|--|\n| 1 | 2 |");
    }

    #[test]
    fn column_of_terms_stays_one_per_line() {
        let md = body(&["Activate Phase", "Control Phase", "Deploy Phase"]);
        assert_eq!(md, "- Activate Phase\n- Control Phase\n- Deploy Phase");
    }
}
