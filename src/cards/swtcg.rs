//! SWTCG LackeyCCG set files: tab-separated, first line a header. Columns are
//! mapped by header name: Name, Set, ImageFile, Side, Type, Subtype, Cost, Speed,
//! Power, Health, Rarity, Number, Usage, Text, Script, Classification, and the
//! optional DraftRarity. Version letters are part of the name ("Anakin Skywalker (A)").
//! `Usage` holds rulings; "Text erratum" there means the text already carries errata.
//! A field may be quoted with `"`, doubling quotes inside.

use super::import::Rejected;
use super::{Card, Entry, Stats};
use crate::error::{Error, Result};
use crate::game::Game;

const REQUIRED: &[&str] = &["Name", "Set", "Side", "Type", "Text"];

/// Does this text start with a LackeyCCG header line?
pub fn looks_like(text: &str) -> bool {
    let first = text
        .lines()
        .next()
        .unwrap_or("")
        .trim_start_matches('\u{feff}');
    first.contains('\t') && first.split('\t').any(|h| h.trim() == "Name")
}

/// Split one line into fields, honouring `"` quoting. Err on an unterminated quote.
fn fields(line: &str) -> std::result::Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        let mut f = String::new();
        if chars.next_if_eq(&'"').is_some() {
            let mut closed = false;
            while let Some(c) = chars.next() {
                if c == '"' {
                    if chars.next_if_eq(&'"').is_some() {
                        f.push('"');
                    } else {
                        closed = true;
                        break;
                    }
                } else {
                    f.push(c);
                }
            }
            if !closed {
                return Err(format!("unterminated quoted field {}", out.len() + 1));
            }
        }
        // the field up to the next tab (after a closing quote, what follows it)
        while let Some(c) = chars.next_if(|&c| c != '\t') {
            f.push(c);
        }
        out.push(f);
        match chars.next() {
            Some('\t') => continue,
            _ => break,
        }
    }
    Ok(out)
}

/// "7.0" → "7"; other values unchanged.
fn number(s: &str) -> String {
    let s = s.trim();
    match s.strip_suffix(".0") {
        Some(i) if !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit() || b == b'-') => {
            i.to_string()
        }
        _ => s.to_string(),
    }
}

fn side_name(s: &str) -> String {
    match s.trim() {
        "L" => "Light".into(),
        "D" => "Dark".into(),
        "N" => "Neutral".into(),
        other => other.to_string(),
    }
}

/// Parse a whole file. Header problems and unterminated quotes are file errors
/// (with line numbers); a bad row is rejected with its line and name.
pub fn parse(text: &str, path_display: &str, file: &str) -> Result<(Vec<Card>, Vec<Rejected>)> {
    let mut lines = text.lines().enumerate();
    let Some((_, header_line)) = lines.next() else {
        return Err(Error::Input(format!(
            "{path_display}:1: empty file (expected a LackeyCCG header line)"
        )));
    };
    let header = fields(
        header_line
            .trim_start_matches('\u{feff}')
            .trim_end_matches('\r'),
    )
    .map_err(|e| Error::Input(format!("{path_display}:1: {e}")))?;
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
    };
    for r in REQUIRED {
        if col(r).is_none() {
            return Err(Error::Input(format!(
                "{path_display}:1: header has no \"{r}\" column (found: {})",
                header.join(", ")
            )));
        }
    }
    let mut cards = Vec::new();
    let mut rejected = Vec::new();
    for (i, line) in lines {
        let lineno = i + 1;
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let row =
            fields(line).map_err(|e| Error::Input(format!("{path_display}:{lineno}: {e}")))?;
        let get = |name: &str| {
            col(name)
                .and_then(|c| row.get(c))
                .map(|s| s.trim())
                .filter(|s| !s.is_empty())
        };
        let label = get("Name")
            .map(|n| format!("line {lineno} ({n})"))
            .unwrap_or_else(|| format!("line {lineno}"));
        // A row cut short (a truncated file) or run on is never read by guess.
        if row.len() != header.len() {
            rejected.push(Rejected {
                id: label,
                reason: format!("{} columns, header has {}", row.len(), header.len()),
            });
            continue;
        }
        let Some(name) = get("Name") else {
            rejected.push(Rejected {
                id: label,
                reason: "empty Name".into(),
            });
            continue;
        };
        let set = get("Set").unwrap_or("");
        let num = get("Number").map(number);
        // A number without a digit ("P" on every promo) names no card: the
        // image file does.
        let numbered = num
            .as_deref()
            .filter(|n| n.bytes().any(|b| b.is_ascii_digit()));
        let id = match (numbered, get("ImageFile")) {
            (Some(n), _) => format!("{set}-{n}"),
            (None, Some(img)) => format!("{set}-{img}"),
            (None, None) => format!("{set}-line{lineno}"),
        };
        let source = format!("{file}#{id}");
        let mut c = Card::new(Game::Swtcg, &id, name, source.clone());
        c.set = (!set.is_empty()).then(|| set.to_string());
        c.number = num;
        c.side = get("Side").map(side_name);
        c.card_type = get("Type").map(str::to_string);
        c.subtype = get("Subtype").map(str::to_string);
        c.rarity = get("Rarity").map(str::to_string);
        let mut s = Stats::default();
        for stat in ["Cost", "Speed", "Power", "Health"] {
            if let Some(v) = get(stat) {
                s.push(&stat.to_ascii_lowercase(), number(v));
            }
        }
        c.stats = s;
        c.text = get("Text").map(|t| t.replace(" | ", "\n"));
        if let Some(u) = get("Usage") {
            // "Text erratum | a ruling | another": the erratum marks the text; each
            // part after it is a ruling of its own.
            let mut parts = u.split(" | ").map(str::trim).filter(|p| !p.is_empty());
            let mut first = parts.next();
            if first.is_some_and(|p| p.to_ascii_lowercase().starts_with("text erratum")) {
                c.text_is_errata = true;
                c.notes
                    .push("LackeyCCG: Text erratum (text shown is the corrected text)".to_string());
                first = None;
            }
            for r in first.into_iter().chain(parts) {
                c.rulings.push(Entry {
                    text: r.to_string(),
                    source: source.clone(),
                });
            }
        }
        if let Some(cl) = get("Classification") {
            c.notes.push(format!("formats: {cl}"));
        }
        cards.push(c);
    }
    Ok((cards, rejected))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_fields() {
        assert_eq!(fields("a\tb\t\tc").unwrap(), ["a", "b", "", "c"]);
        assert_eq!(fields("\"x \"\"y\"\" z\"\tq").unwrap(), ["x \"y\" z", "q"]);
        assert!(fields("\"open\tb").is_err());
    }

    #[test]
    fn numbers() {
        assert_eq!(number("7.0"), "7");
        assert_eq!(number("60.0"), "60");
        assert_eq!(number("X"), "X");
        assert_eq!(number("2.5"), "2.5");
    }

    #[test]
    fn rows_by_header_name_with_and_without_draft_rarity() {
        let h16 = "Name\tSet\tImageFile\tSide\tType\tSubtype\tCost\tSpeed\tPower\tHealth\tRarity\tNumber\tUsage\tText\tScript\tClassification";
        let row = "Yoda (A)\tAOTC\tYoda_A\tL\tCharacter\tJedi Master\t9.0\t40.0\t6.0\t6.0\tR\t58.0\tText erratum\tPay 2 Force -> Evade 3 | Deflect\t\tWOTC";
        for text in [
            format!("{h16}\n{row}\n"),
            format!("{h16}\tDraftRarity\n{row}\t\n"),
        ] {
            let (cards, rej) = parse(&text, "f", "f.txt").unwrap();
            assert!(rej.is_empty(), "{rej:?}");
            let c = &cards[0];
            assert_eq!(c.title, "Yoda (A)");
            assert_eq!(c.id, "AOTC-58");
            assert_eq!(c.side.as_deref(), Some("Light"));
            assert_eq!(
                c.stats.iter().collect::<Vec<_>>(),
                [
                    ("cost", "9"),
                    ("speed", "40"),
                    ("power", "6"),
                    ("health", "6")
                ]
            );
            assert!(c.text_is_errata);
            assert_eq!(c.text.as_deref(), Some("Pay 2 Force -> Evade 3\nDeflect"));
        }
    }

    #[test]
    fn a_ruling_after_a_text_erratum_is_a_ruling() {
        let h = "Name\tSet\tImageFile\tSide\tType\tSubtype\tCost\tSpeed\tPower\tHealth\tRarity\tNumber\tUsage\tText\tScript\tClassification";
        let row = "Motti (A)\tRAS\tMotti_A\tD\tCharacter\tImperial Officer\t3\t30\t2\t3\tR\t20\tText erratum | Motti's ability takes precedence. | A second ruling.\tText\t\tWOTC";
        let (cards, _) = parse(&format!("{h}\n{row}\n"), "f", "f.txt").unwrap();
        let c = &cards[0];
        assert!(c.text_is_errata);
        let rulings: Vec<&str> = c.rulings.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(
            rulings,
            ["Motti's ability takes precedence.", "A second ruling."]
        );
        assert!(
            !c.notes.iter().any(|n| n.contains("precedence")),
            "{:?}",
            c.notes
        );
    }

    #[test]
    fn errors_name_lines() {
        let e = parse("Foo\tBar\nx\ty\n", "f.txt", "f.txt")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f.txt:1:"), "{e}");
        let h = "Name\tSet\tSide\tType\tText";
        let e = parse(&format!("{h}\nA\tS\tL\tT\tok\n\"B\tS\n"), "f.txt", "f.txt")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f.txt:3:"), "{e}");
        let (cards, rej) = parse(
            &format!("{h}\nA\tS\tL\tT\tok\n\tS\tL\tT\tno name\nC\tS\tL\tT\tx\textra\n"),
            "f",
            "f",
        )
        .unwrap();
        assert_eq!(cards.len(), 1);
        assert_eq!(rej.len(), 2);
        assert_eq!(rej[0].id, "line 3");
        assert!(rej[1].id.starts_with("line 4 (C)"));
    }
}
