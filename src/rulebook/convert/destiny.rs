//! Converter for the Star Wars: Destiny Rules Reference v1.8.
//!
//! The seed has no Markdown headings: entries are ALL-CAPS lines ("CLAIM THE
//! BATTLEFIELD"), parts start with "PART N.", errata and clarifications are
//! grouped by set with one "CARD NAME (number)" entry per card, and FAQ
//! questions are the paragraphs that ask something. The change log and intro
//! are kept; the table of contents, the index and page furniture are dropped.

use super::text::{self, Builder, re};
use super::{Document, OutFile, OutSection, assign_ids, unique_id};
use crate::error::{Error, Result};
use crate::rulebook::{Game, Kind, slug};
use std::collections::BTreeSet;

const PREFIX: &str = "destiny.rr.";
const DOCUMENT: Document = Document {
    game: Game::Destiny,
    key: "rr",
    title: "Star Wars: Destiny Rules Reference v1.8",
    superseded_by: None,
};

/// Sets in Errata and Card Clarifications, as the seed names them (each
/// followed by a set symbol that did not survive extraction).
#[rustfmt::skip]
const SETS: &[&str] = &[
    "Awakenings", "Spirit of Rebellion", "Empire at War", "Legacies", "Way of the Force",
    "Across the Galaxy",
];

/// Entries nested under another entry: (parent, children). Any other entry
/// inside a Part is a direct child of the Part.
#[rustfmt::skip]
const NESTED: &[(&str, &[&str])] = &[
    ("CARD TYPES", &["BATTLEFIELDS", "PLOTS", "CHARACTERS", "EVENTS", "SUPPORTS", "UPGRADES"]),
    ("BATTLEFIELDS", &["SUBTITLE (ALSO APPEARS ON CHARACTERS)"]),
    ("PLOTS", &["POINT VALUE"]),
    ("CHARACTERS", &["HEALTH", "POINT VALUE(S)"]),
    ("EVENTS", &["COST (ALSO APPEARS ON SUPPORTS AND UPGRADES)"]),
    ("SUPPORTS", &["SUBTYPES (ALSO APPEARS ON CHARACTERS AND UPGRADES)"]),
    ("DICE SYMBOLS", &[
        "MELEE DAMAGE", "RANGED DAMAGE", "INDIRECT DAMAGE", "SHIELD", "RESOURCE", "DISRUPT",
        "DISCARD", "FOCUS", "SPECIAL", "BLANK",
    ]),
    ("IN-PLAY", &[
        "CHARACTERS, PLOTS, & PLAYED CARDS", "DICE POOL", "RESOURCES",
        "BATTLEFIELD (IF CONTROLLED)",
    ]),
    ("OUT-OF-PLAY", &["HAND", "DECK", "DISCARD PILE", "QUEUE", "DICE ON CARDS", "SET-ASIDE ZONE"]),
    ("ROUNDS", &["ACTION PHASE", "UPKEEP PHASE"]),
    ("ACTIONS", &[
        "PLAY A CARD", "ACTIVATE A CARD", "RESOLVE DICE", "REROLL DICE", "USE A CARD ACTION",
        "CLAIM THE BATTLEFIELD", "ILLEGAL ACTIONS", "EXTRA ACTIONS", "PASSING",
    ]),
    ("SPECIAL ABILITIES", &[]),
    ("KEYWORDS", &["AMBUSH", "GUARDIAN", "MODIFY", "REDEPLOY"]),
    ("TRIGGERED ABILITIES", &[
        "TRIGGER CONDITION", "BEFORE ABILITIES", "AFTER ABILITIES", "SIMULTANEOUS ABILITIES",
    ]),
    ("EFFECTS", &[
        "DELAYED EFFECTS", "REPLACEMENT EFFECTS", "SELF-REFERENTIAL EFFECTS", "NEGATIVE EFFECTS",
        "\"THEN\" EFFECTS",
    ]),
    ("FREE-FOR-ALL", &["SETUP", "ACTIONS", "CHOOSING OPPONENTS", "PLAYER ELIMINATION"]),
];

/// Whole lines that are page furniture or figure labels.
#[rustfmt::skip]
const DROP: &[&str] = &[
    "RULES REFERENCE", "STAR WARS", "DESTINY", "STAR WARS: DESTINY", "CARD ANATOMY",
    "AREAS OF PLAY", "HIZ @", "FantasyFlightGames.com/SWDestiny",
];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Zone {
    Start,
    ChangeLog,
    Intro,
    Contents,
    Rules,
    Errata,
    Clarifications,
    Faq,
}

pub fn convert(text: &str) -> Result<Vec<OutFile>> {
    let text = clean_symbols(text);
    let blocks = text::paragraphs(&text, is_furniture, text::is_caps_heading);
    let change_log_item = re(r"^- (.*?)\s+(\d+)$");
    let card = re(r"^(.+?)\s*\((\d+)\)\s*(.*)$");
    let icon_bullet = re(r"^(- )?(?:&|♦|\*\*8\*\*|\*\*©\*\*)\s+");

    let mut b = Builder::default();
    let mut zone = Zone::Start;
    let mut stack: Vec<(u8, String)> = Vec::new();
    let mut set: Option<&str> = None;
    let mut taken: BTreeSet<String> = BTreeSet::new();

    for block in &blocks {
        let t = block.trim();
        let body = icon_bullet
            .replace(block.strip_prefix("> ").unwrap_or(block), "$1")
            .to_string();
        match zone {
            Zone::Start => {
                if t.starts_with("VERSION 1.8 - CHANGE LOG") {
                    part(&mut b, "Version 1.8 Change Log", "change-log");
                    if let Some(date) = t.split("Effective Date").nth(1) {
                        b.block(&format!("Effective date: {}.", date.trim()));
                    }
                    zone = Zone::ChangeLog;
                } else {
                    return Err(Error::Input(format!(
                        "Destiny RR: unexpected text before the change log: {t:?}"
                    )));
                }
            }
            Zone::ChangeLog => {
                if t == "INTRO" {
                    part(&mut b, "Intro", "intro");
                    zone = Zone::Intro;
                } else if let Some(c) = change_log_item.captures(t) {
                    b.block(&format!("- {} (page {})", &c[1], &c[2]));
                } else {
                    b.block(&body);
                }
            }
            Zone::Intro => {
                if t == "TABLE OF CONTENTS" {
                    zone = Zone::Contents;
                } else {
                    b.block(&body);
                }
            }
            Zone::Contents => {
                if t == "RULES" {
                    part(&mut b, "Rules", "rules");
                    stack = vec![(1, t.to_string())];
                    zone = Zone::Rules;
                }
            }
            Zone::Rules => {
                if t == "ERRATA" {
                    part(&mut b, "Errata", "errata");
                    zone = Zone::Errata;
                    set = None;
                } else if text::is_caps_heading(t) {
                    let level = rules_level(&mut stack, t);
                    b.heading(level, &text::title_case(t), None, Kind::Rule);
                } else {
                    b.block(&text::normalize_list(&body));
                }
            }
            Zone::Errata | Zone::Clarifications => {
                let (key, kind) = if zone == Zone::Errata {
                    ("errata", Kind::Errata)
                } else {
                    ("clarifications", Kind::Ruling)
                };
                if t == "CARD CLARIFICATIONS" {
                    part(&mut b, "Card Clarifications", "clarifications");
                    zone = Zone::Clarifications;
                    set = None;
                } else if t == "FAQ" {
                    part(&mut b, "FAQ", "faq");
                    zone = Zone::Faq;
                } else if let Some(s) = set_of(t) {
                    set = Some(s);
                    b.heading(2, s, Some(format!("{PREFIX}{key}.{}", slug(s))), Kind::Rule);
                } else if let (true, Some(c)) = (is_card_heading(t), card.captures(t)) {
                    let s = set.ok_or_else(|| {
                        Error::Input(format!(
                            "Destiny RR: card entry {t:?} before any set heading"
                        ))
                    })?;
                    let title = format!("{} ({})", text::title_case(&c[1]), &c[2]);
                    let id = unique_id(
                        &mut taken,
                        format!("{PREFIX}{key}.{}.{}", slug(s), slug(&title)),
                    );
                    b.heading(3, &title, Some(id), kind);
                    let extra = c[3].trim();
                    if !extra.is_empty() {
                        b.block(&format!("The source heading also shows \"{extra}\" after a set symbol that did not survive text extraction."));
                    }
                } else {
                    b.block(&text::normalize_list(&body));
                }
            }
            Zone::Faq => {
                if t == "INDEX" {
                    break;
                }
                if is_question(t) {
                    let id = unique_id(
                        &mut taken,
                        format!("{PREFIX}faq.{}", text::short_slug(t, 60)),
                    );
                    b.heading(2, t, Some(id), Kind::Faq);
                } else if !b.block(&body) {
                    return Err(Error::Input(
                        "Destiny RR: FAQ text before the FAQ heading".into(),
                    ));
                }
            }
        }
    }
    if zone != Zone::Faq {
        return Err(Error::Input(format!(
            "Destiny RR: document ended in {zone:?}; expected the FAQ and INDEX"
        )));
    }
    let mut sections = b.finish();
    mark_missing_answers(&mut sections);
    assign_ids(PREFIX, &mut sections, &mut taken);
    Ok(vec![DOCUMENT.file("destiny/rules-reference.md", sections)])
}

/// A part of the document: a level-1 heading with the ID `destiny.rr.<key>`.
fn part(b: &mut Builder, title: &str, key: &str) {
    b.heading(1, title, Some(format!("{PREFIX}{key}")), Kind::Rule);
}

/// A FAQ question whose answer the source text lost says so.
fn mark_missing_answers(sections: &mut [OutSection]) {
    for s in sections {
        if s.kind == Kind::Faq && s.body.trim().is_empty() {
            s.body = "*The answer to this question is missing from the source text.*".into();
        }
    }
}

/// Level of a rules entry, updating the stack of open entries.
fn rules_level(stack: &mut Vec<(u8, String)>, t: &str) -> u8 {
    if t.starts_with("PART ") {
        *stack = vec![(1, t.to_string())];
        return 1;
    }
    let parent = stack.iter().rposition(|(_, open)| {
        NESTED
            .iter()
            .any(|(p, kids)| p == open && kids.contains(&t))
    });
    let level = match parent {
        Some(i) => {
            stack.truncate(i + 1);
            stack[i].0 + 1
        }
        None => {
            stack.truncate(1);
            2
        }
    };
    stack.push((level, t.to_string()));
    level
}

/// Page numbers, running titles, figure labels and the copyright footer.
fn is_furniture(t: &str) -> bool {
    DROP.contains(&t) || t.chars().all(|c| c.is_ascii_digit()) || t.starts_with("® & ™ Lucasfilm")
}

fn set_of(t: &str) -> Option<&'static str> {
    let up = t.to_uppercase();
    SETS.iter().copied().find(|s| {
        let s_up = s.to_uppercase();
        up.strip_prefix(&s_up)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(" ("))
    })
}

/// A card entry: "NAME (number)" in capitals (names like "L3-37" have few letters).
fn is_card_heading(t: &str) -> bool {
    t.chars().count() <= 60 && !t.chars().any(|c| c.is_lowercase()) && !t.starts_with("- ")
}

fn is_question(t: &str) -> bool {
    t.contains('?') && !t.starts_with("Yes") && !t.starts_with("No")
}

/// Turn the TeX and symbol debris of the PDF extraction into readable text:
/// card references like "Rey (\(\theta 38\))" or "(Θ 99)" become "(38)"/"(99)"
/// (the set symbols did not survive), the ranged-damage icon becomes a word.
fn clean_symbols(text: &str) -> String {
    let s = text
        .replace("\r\n", "\n")
        .replace("\\(", "")
        .replace("\\)", "")
        .replace("\\$", "")
        .replace('$', "")
        .replace(" \\checkmark", " [ranged damage]");
    let paren = re(r"\(([^()\n]{0,40}?)(\d{1,3})\s*\)");
    let command = re(r"\\[A-Za-z]+|[{}\\]");
    paren
        .replace_all(&s, |c: &regex::Captures| {
            let junk = command.replace_all(&c[1], "");
            if !c[1].is_empty() && !junk.chars().any(|ch| ch.is_ascii_alphanumeric()) {
                format!("({})", &c[2])
            } else {
                c[0].to_string()
            }
        })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_references_lose_unreadable_set_symbols() {
        assert_eq!(
            clean_symbols("Rey (\\(\\theta 38\\)) and (Θ 99), (⊌78)"),
            "Rey (38) and (99), (78)"
        );
        assert_eq!(clean_symbols("see page 9 (p. 9)"), "see page 9 (p. 9)");
        assert_eq!(
            clean_symbols("a +2 \\checkmark symbol"),
            "a +2 [ranged damage] symbol"
        );
    }

    #[test]
    fn nested_entries_get_deeper_levels() {
        let mut st = vec![];
        assert_eq!(rules_level(&mut st, "PART 5. GAME STRUCTURE"), 1);
        assert_eq!(rules_level(&mut st, "ACTIONS"), 2);
        assert_eq!(rules_level(&mut st, "CLAIM THE BATTLEFIELD"), 3);
        assert_eq!(rules_level(&mut st, "WINNING THE GAME"), 2);
        assert_eq!(rules_level(&mut st, "PART 9. MULTIPLAYER RULES"), 1);
        assert_eq!(rules_level(&mut st, "FREE-FOR-ALL"), 2);
        assert_eq!(rules_level(&mut st, "SETUP"), 3);
    }

    #[test]
    fn errata_and_faq_structure() {
        let seed = "RULES REFERENCE\n\nVERSION 1.8 - CHANGE LOG Effective Date 11.27.2018\n\n- Added Errata 23\n\nINTRO\n\nIntro text.\n\nTABLE OF CONTENTS\n\nRULES\t3\n\nRULES\n\nThese are the rules.\n\nPART 5. GAME STRUCTURE\n\nACTIONS\n\nActions are taken.\n\nCLAIM THE BATTLEFIELD\n\nWhen a player claims\n\nthe battlefield.\n\nERRATA\n\nAWAKENINGS (W)\n\nQUI-GON JINN (37)\n\nShould read: \"x\".\n\nCARD CLARIFICATIONS\n\nLEGACIES (*)\n\nMAUL (2)\n\nMaul text.\n\nFAQ\n\nCan I?\n\nYes.\n\nCan it be empty?\n\nINDEX\n\nA\n";
        let files = convert(seed).unwrap();
        let secs = &files[0].sections;
        let find = |id: &str| {
            secs.iter()
                .find(|s| s.id == id)
                .unwrap_or_else(|| panic!("missing {id}"))
        };
        assert_eq!(find("destiny.rr.claim-the-battlefield").level, 3);
        assert_eq!(
            find("destiny.rr.claim-the-battlefield").body,
            "When a player claims the battlefield."
        );
        let q = find("destiny.rr.errata.awakenings.qui-gon-jinn-37");
        assert_eq!(
            (q.title.as_str(), q.kind),
            ("Qui-Gon Jinn (37)", Kind::Errata)
        );
        assert_eq!(
            find("destiny.rr.clarifications.legacies.maul-2").kind,
            Kind::Ruling
        );
        assert_eq!(find("destiny.rr.faq.can-i").body, "Yes.");
        assert!(
            find("destiny.rr.faq.can-it-be-empty")
                .body
                .contains("missing")
        );
        assert_eq!(
            find("destiny.rr.change-log").body,
            "Effective date: 11.27.2018.\n\n- Added Errata (page 23)"
        );
        assert!(!secs.iter().any(|s| s.body.contains("RULES\t3")));
    }
}
