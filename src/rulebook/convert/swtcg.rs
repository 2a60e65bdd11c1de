//! Converter for the Star Wars Trading Card Game Rulebook (Ultimate Graphic
//! Edition, Revised and Condensed).
//!
//! The seed's headings are plain short lines, so the outline is listed here
//! in document order ([`OUTLINE`]); each must be found, in order, or the
//! conversion fails. Inside "Game Zones", "Keywords", "Terms" and "Phrases"
//! every `name: definition` paragraph becomes its own section. The cover ad
//! copy, contents page, image captions and page numbers are dropped.

use super::text::{self, Builder, re};
use super::{Document, OutFile, assign_ids, unique_id};
use crate::error::{Error, Result};
use crate::rulebook::{Game, Kind, slug};
use std::collections::BTreeSet;

const PREFIX: &str = "swtcg.rb.";
const DOCUMENT: Document = Document {
    game: Game::Swtcg,
    key: "rb",
    title: "Star Wars Trading Card Game Rulebook (Ultimate Graphic Edition, Revised and Condensed)",
    superseded_by: None,
};

/// Headings in document order: (text as it appears on its own line, level).
const OUTLINE: &[(&str, u8)] = &[
    ("What's New", 1),
    ("Section 1: The Basics", 1),
    ("The Cards", 2),
    ("Unit Cards", 3),
    ("Battle Cards", 3),
    ("Mission Cards", 3),
    ("Resource Cards", 3),
    ("Location Cards", 3),
    ("Equipment Cards", 3),
    ("Multi-arena Cards", 3),
    ("Building Cards with Build Costs", 3),
    ("Unique Cards", 3),
    ("Different Versions with Different Names", 4),
    ("Contesting Unique Cards", 4),
    ("Stacking and Rearranging", 4),
    ("Game Zones", 2),
    ("Section 2: How to Play", 1),
    ("Materials", 2),
    ("Deck", 3),
    ("Sample Deck", 3),
    ("Preparation", 2),
    ("Choose Sides", 3),
    ("Pull Resource", 3),
    ("Shuffle and Draw", 3),
    ("Mulligan", 3),
    ("Setup", 2),
    ("Playing the Game", 2),
    ("Object of the Game", 3),
    ("The 4 Primary Rules", 3),
    ("Turn Structure", 3),
    ("Ready Phase", 4),
    ("Command Phase", 4),
    ("Battle Phase", 4),
    ("End of Turn", 4),
    ("Attacking", 3),
    ("Two-Headed Wookiee", 2),
    ("Cooperation", 3),
    ("Sharing", 3),
    ("Order", 4),
    ("Distinctions", 3),
    ("Section 3: Effects", 1),
    ("Effect Types", 2),
    ("Using Effects", 2),
    ("Duplicate Effects and Bonuses", 3),
    ("Play or Pass (POP) Chances", 3),
    ("Keywords", 2),
    ("Pilots", 2),
    ("Piloting Units", 3),
    ("Causing Pilots to \"Fall Off\"", 3),
    ("Retreating Pilots", 3),
    ("Control of Pilots and Piloted units", 3),
    ("Section 4: Glossary", 1),
    ("Terms", 2),
    ("Phrases", 2),
    ("Appendix", 1),
    ("Quick Reference Charts", 2),
    ("Turn Sequence Summary", 3),
    ("Attack Sequence Summary", 3),
    ("Order of Operations for Effects", 3),
    ("Disclaimer", 2),
    ("Playing SWTCG Online", 2),
    ("Credits", 2),
    ("Card Sets", 2),
    ("Wizards of the Coast", 3),
    ("Independent Development Committee", 3),
];

/// Keywords of Section 3, each its own section.
#[rustfmt::skip]
const KEYWORDS: &[&str] = &[
    "Accuracy", "Armor", "Bombard", "Bounty", "Critical Hit", "Deflect", "Double Strike", "Enhance",
    "Equip", "Evade", "Fury", "Hidden Cost", "Intercept", "Ion Cannon", "Lucky", "Overkill",
    "Parry", "Pilot", "Reserves", "Retaliate", "Shields", "Stealth", "Stun", "Switch", "Upkeep",
];

/// Image captions and other lines that are not rules text.
const DROP: &[&str] = &[
    "The mask of the Manda'lor.",
    "The Slave I shadows the Millennium Falcon.",
    "NATES CALENDARY STATES",
    "Two heads are better than one.",
    "A Mandalorian's will is as strong as his armor.",
    "Mandalore the Ultimate takes swift action.",
    "The Sith shall rise again.",
    "I HAVE FORESEEN IT.",
];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Entries {
    None,
    Zones,
    Keywords,
    Terms,
    Phrases,
}

pub fn convert(text: &str) -> Result<Vec<OutFile>> {
    let text = clean_symbols(text);
    let is_heading = |b: &str| OUTLINE.iter().any(|(h, _)| *h == b);
    let blocks = text::paragraphs(&text, is_furniture, is_heading);
    let zone_entry = re(r"^([A-Za-z][A-Za-z ]{0,20}):\s");
    let term_entry = re(r"^(\*|\+/-|[A-Za-z][^:.]{0,40}):\s");
    let phrase_entry = re(r#"^("[^:]{1,80}"):\s"#);
    let keyword_entry = re(r"^([A-Z][A-Za-z ]+?)(?: X(?:/-X)?)?:\s");

    let mut b = Builder::default();
    let mut next = 0usize;
    let mut entries = Entries::None;
    let mut sample_deck = false;
    let deck_count = re(r" (\d+ [xX] )");
    let mut taken: BTreeSet<String> = BTreeSet::new();

    for block in &blocks {
        let t = block.trim();
        if let Some(&(title, level)) = OUTLINE.get(next).filter(|h| h.0 == t) {
            next += 1;
            sample_deck = title == "Sample Deck";
            b.heading(level, title, None, Kind::Rule);
            entries = match title {
                "Game Zones" => Entries::Zones,
                "Keywords" => Entries::Keywords,
                "Terms" => Entries::Terms,
                "Phrases" => Entries::Phrases,
                _ => Entries::None,
            };
            continue;
        }
        if next == 0 {
            continue; // cover and contents page
        }
        // An entry of these sections is a level-3 section of its own.
        let entry = match entries {
            Entries::Zones => zone_entry.captures(t).map(|c| (c, Kind::Rule)),
            Entries::Keywords => keyword_entry
                .captures(t)
                .filter(|c| KEYWORDS.contains(&&c[1]))
                .map(|c| (c, Kind::Rule)),
            Entries::Terms => term_entry
                .captures(t)
                .filter(|c| !matches!(&c[1], "Example" | "Note" | "Tip"))
                .map(|c| (c, Kind::Glossary)),
            Entries::Phrases => phrase_entry.captures(t).map(|c| (c, Kind::Glossary)),
            Entries::None => None,
        };
        if let Some((c, kind)) = entry {
            let id = (kind == Kind::Glossary).then(|| glossary_id(&mut taken, &c[1]));
            b.heading(3, &c[1], id, kind);
        }
        if sample_deck
            && t.chars().next().is_some_and(|c| c.is_ascii_digit())
            && deck_count.is_match(&format!(" {t}"))
        {
            // "4 x Basilisk Warrior 2 x Boba Fett (K)": one card count per line.
            for item in deck_count.replace_all(t, "\n$1").lines() {
                b.block(&format!("- {}", item.trim()));
            }
            continue;
        }
        b.block(&body_text(block));
    }
    if let Some((missing, _)) = OUTLINE.get(next) {
        return Err(Error::Input(format!(
            "SWTCG rulebook: heading {missing:?} not found (in order)"
        )));
    }
    let mut sections = b.finish();
    assign_ids(PREFIX, &mut sections, &mut taken);
    Ok(vec![DOCUMENT.file("swtcg/rulebook.md", sections)])
}

/// Image captions and page numbers.
fn is_furniture(t: &str) -> bool {
    DROP.contains(&t) || t.chars().all(|c| c.is_ascii_digit() || c == '•')
}

/// `swtcg.rb.glossary.<slug>`; terms that are only symbols get a spelled-out slug.
fn glossary_id(taken: &mut BTreeSet<String>, term: &str) -> String {
    let s = match term {
        "*" => "asterisk".to_string(),
        "+/-" => "plus-minus".to_string(),
        _ => slug(term),
    };
    unique_id(taken, format!("{PREFIX}glossary.{s}"))
}

/// A body block: list markers normalised, an ALL-CAPS label line in bold.
fn body_text(block: &str) -> String {
    let t = block.trim();
    if text::is_caps_heading(t) && !t.contains(" x ") && !t.contains(" X ") {
        return format!("**{}**", text::title_case(t));
    }
    text::normalize_list(block)
}

/// TeX debris from the extraction → the symbols it stood for.
fn clean_symbols(text: &str) -> String {
    text.replace("\r\n", "\n")
        .replace("\\rightarrow", "→")
        .replace("\\leftrightarrow", "↔")
        .replace("\\bullet", "•")
        .replace("\\bigstar", "★")
        .replace("\\mathfrak{G}", "[tap symbol]")
        .replace("\\ ", " ")
        .replace("<u>", "**")
        .replace("</u>", "**")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outline_must_be_complete() {
        let err = convert("What's New\n\nText.\n").unwrap_err();
        assert!(err.to_string().contains("Section 1: The Basics"), "{err}");
    }

    #[test]
    fn glossary_ids_for_symbols_and_duplicates() {
        let mut taken = BTreeSet::new();
        assert_eq!(glossary_id(&mut taken, "*"), "swtcg.rb.glossary.asterisk");
        assert_eq!(glossary_id(&mut taken, "\"put\""), "swtcg.rb.glossary.put");
        assert_eq!(glossary_id(&mut taken, "put"), "swtcg.rb.glossary.put-2");
    }

    #[test]
    fn full_outline_with_entries() {
        let mut seed = String::from("AD COPY\n\n");
        for (h, _) in OUTLINE {
            seed.push_str(h);
            seed.push_str("\n\n");
            match *h {
                "Game Zones" => seed.push_str("build zone: The area in front of you.\n\n"),
                "Keywords" => seed.push_str("Accuracy X/-X: A cumulative ability.\n\nExample: one.\n\nArmor: An isolated ability.\n\n"),
                "Terms" => seed.push_str("*: Variable values.\n\nhit: (also \"miss\") Rolling.\n\n"),
                "Phrases" => seed.push_str("\"as long as\": The effect applies.\n\n"),
                "Attacking" => seed.push_str("1. Declare Attack. Choose a unit.\n\nROLLING HIT DAMAGE\n\n"),
                _ => seed.push_str("Body text.\n\n17\n\n"),
            }
        }
        let files = convert(&seed).unwrap();
        let secs = &files[0].sections;
        let find = |id: &str| {
            secs.iter()
                .find(|s| s.id == id)
                .unwrap_or_else(|| panic!("missing {id}"))
        };
        assert_eq!(find("swtcg.rb.section-1-the-basics").level, 1);
        assert_eq!(
            find("swtcg.rb.attacking").body,
            "1. Declare Attack. Choose a unit.\n\n**Rolling Hit Damage**"
        );
        assert_eq!(
            find("swtcg.rb.accuracy").body,
            "Accuracy X/-X: A cumulative ability.\n\nExample: one."
        );
        assert_eq!(find("swtcg.rb.armor").level, 3);
        assert_eq!(find("swtcg.rb.build-zone").level, 3);
        let star = find("swtcg.rb.glossary.asterisk");
        assert_eq!((star.kind, star.title.as_str()), (Kind::Glossary, "\\*"));
        assert_eq!(find("swtcg.rb.glossary.hit").kind, Kind::Glossary);
        assert_eq!(find("swtcg.rb.glossary.as-long-as").kind, Kind::Glossary);
        assert!(
            !secs
                .iter()
                .any(|s| s.body.contains("AD COPY") || s.body.contains("17"))
        );
    }
}
