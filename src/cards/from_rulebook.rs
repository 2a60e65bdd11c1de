//! Per-card errata and rulings in the rulebook corpus, and merging them into cards.
//!
//! Where they live (section IDs):
//! - SWCCG Advanced Rulebook: `swccg.ar.errata.<card>` (Appendix A),
//!   `swccg.ar.rulings.<card>` (Appendix B), `swccg.ar.current-rulings.<card>` (Appendix F).
//! - Destiny Rules Reference: `destiny.rr.errata.<set>.<card>` and
//!   `destiny.rr.clarifications.<set>.<card>`, titled "Name (number)" under a set section.
//! - SWTCG: its rulebook has no card-specific rulings section; card rulings come
//!   from the imported LackeyCCG data.
//!
//! Superseded documents are not used for card text.

use super::fuzzy::normalize;
use super::{Card, Entry, SeeAlso};
use crate::rulebook::{Corpus, Game, Section};
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    Errata,
    Ruling,
}

/// One card entry found in the rulebook.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleEntry {
    pub game: Game,
    pub kind: EntryKind,
    /// The card name as the section title gives it, without a trailing "(number)".
    pub name: String,
    /// Destiny: the set section's title, e.g. "Awakenings".
    pub set: Option<String>,
    /// Destiny: the number in "Qui-Gon Jinn (37)".
    pub number: Option<String>,
    pub text: String,
    pub section: String,
}

const PREFIXES: &[(&str, Game, EntryKind, bool)] = &[
    ("swccg.ar.errata.", Game::Swccg, EntryKind::Errata, false),
    ("swccg.ar.rulings.", Game::Swccg, EntryKind::Ruling, false),
    ("swccg.ar.current-rulings.", Game::Swccg, EntryKind::Ruling, false),
    ("destiny.rr.errata.", Game::Destiny, EntryKind::Errata, true),
    ("destiny.rr.clarifications.", Game::Destiny, EntryKind::Ruling, true),
];

/// Every card entry in the corpus, in corpus order.
pub fn entries(corpus: &Corpus) -> Vec<RuleEntry> {
    let mut out = Vec::new();
    for s in &corpus.sections {
        if s.superseded {
            continue;
        }
        let Some(&(prefix, game, kind, by_set)) = PREFIXES.iter().find(|(p, ..)| s.id.starts_with(p)) else {
            continue;
        };
        let rest = &s.id[prefix.len()..];
        // Destiny card entries sit one level below a set section: <set>.<card>.
        if by_set && !rest.contains('.') {
            continue;
        }
        let body = s.plain_body();
        if body.trim().is_empty() {
            continue; // a grouping heading, not a card
        }
        let (name, number) = split_number(&s.title);
        let set = if by_set { parent_title(corpus, s) } else { None };
        out.push(RuleEntry { game, kind, name, set, number, text: body, section: s.id.clone() });
    }
    out
}

fn parent_title(corpus: &Corpus, s: &Section) -> Option<String> {
    s.parent.as_deref().and_then(|p| corpus.get(p)).map(|p| p.title.clone())
}

/// "Qui-Gon Jinn (37)" → ("Qui-Gon Jinn", Some("37")); other titles unchanged.
fn split_number(title: &str) -> (String, Option<String>) {
    let t = title.trim();
    if let Some(open) = t.rfind('(') {
        let inner = t[open + 1..].trim_end_matches(')').trim();
        // the Destiny document prints a set symbol before the number; keep digits
        let digits: String = inner.chars().filter(|c| c.is_ascii_digit()).collect();
        if t.ends_with(')') && !digits.is_empty() && inner.chars().all(|c| c.is_ascii_digit() || !c.is_ascii_alphanumeric()) {
            return (t[..open].trim().to_string(), Some(digits.trim_start_matches('0').to_string()));
        }
    }
    (t.to_string(), None)
}

/// Space-free normalised form used to compare titles.
fn key(s: &str) -> String {
    normalize(s).replace(' ', "")
}

/// Attach each entry to the cards it names; entries naming no known card become
/// rulebook-only cards.
pub fn merge(cards: &mut Vec<Card>, entries: &[RuleEntry]) {
    // (game, key) → card indices, keyed by title and by "title (side Side)".
    let mut by_key: HashMap<(Game, String), Vec<usize>> = HashMap::new();
    for (i, c) in cards.iter().enumerate() {
        by_key.entry((c.game, key(&c.title))).or_default().push(i);
        if let Some(side) = &c.side {
            by_key.entry((c.game, key(&format!("{} ({side} Side)", c.title)))).or_default().push(i);
        }
    }
    let mut made: HashMap<(Game, String), usize> = HashMap::new();
    for e in entries {
        let k = key(&e.name);
        let mut targets: Vec<usize> = by_key.get(&(e.game, k.clone())).cloned().unwrap_or_default();
        if e.game == Game::Destiny && targets.len() > 1 {
            // narrow by set and number when the entry gives them
            let narrowed: Vec<usize> = targets
                .iter()
                .copied()
                .filter(|&i| {
                    let c = &cards[i];
                    let num_ok = e.number.as_deref().is_none_or(|n| c.number.as_deref().map(|x| x.trim_start_matches('0')) == Some(n));
                    let set_ok = e.set.as_deref().is_none_or(|s| c.set.as_deref().is_some_and(|cs| key(cs) == key(s)));
                    num_ok && set_ok
                })
                .collect();
            if !narrowed.is_empty() {
                targets = narrowed;
            }
        }
        if targets.is_empty() {
            let mk = (e.game, k.clone());
            let idx = match made.get(&mk) {
                Some(&i) => i,
                None => {
                    let mut c = Card::new(e.game, &e.section, &e.name, e.section.clone());
                    c.set = e.set.clone();
                    c.number = e.number.clone();
                    c.notes.push("known only from the rulebook: import a card database for its printed text and stats".into());
                    cards.push(c);
                    made.insert(mk, cards.len() - 1);
                    cards.len() - 1
                }
            };
            targets.push(idx);
        }
        for i in targets {
            let entry = Entry { text: e.text.clone(), source: e.section.clone() };
            let list = match e.kind {
                EntryKind::Errata => &mut cards[i].errata,
                EntryKind::Ruling => &mut cards[i].rulings,
            };
            if !list.contains(&entry) {
                list.push(entry);
            }
        }
    }
}

/// Rulebook sections (current documents) whose text mentions `title`, excluding
/// the card's own errata/ruling sections. A plain scan of section text; the
/// search index can replace it behind this signature.
pub fn see_also(corpus: &Corpus, card: &Card, limit: usize) -> Vec<SeeAlso> {
    let title = strip_qualifiers(&card.title);
    let needle = normalize(&title);
    if needle.len() < 4 {
        return Vec::new();
    }
    let own: Vec<&str> = card.errata.iter().chain(&card.rulings).map(|e| e.source.as_str()).collect();
    let mut out = Vec::new();
    for s in &corpus.sections {
        if s.game != card.game || s.superseded || own.contains(&s.id.as_str()) {
            continue;
        }
        let hay = format!(" {} ", normalize(&s.body));
        if hay.contains(&format!(" {needle} ")) {
            out.push(SeeAlso { id: s.id.clone(), title: s.title.clone() });
            if out.len() >= limit {
                break;
            }
        }
    }
    out
}

/// "Luke Skywalker (V)" → "Luke Skywalker".
fn strip_qualifiers(t: &str) -> String {
    let mut t = t.trim();
    while t.ends_with(')') {
        match t.rfind('(') {
            Some(i) if i > 0 => t = t[..i].trim_end(),
            _ => break,
        }
    }
    t.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const AR: &str = "---\ngame: swccg\ndocument: ar\ndocument_title: AR\n---\n\n# Appendix A - Errata {#swccg.ar.errata .errata}\n\n## Admiral Motti {#swccg.ar.errata.admiral-motti .errata}\n\nDeploys -2 if at least two Imperial starships on table.\n\n## Dagobah (Light Side) {#swccg.ar.errata.dagobah-light-side .errata}\n\nErrata text for the Light Side Dagobah.\n\n# Appendix B - Card Rulings {#swccg.ar.rulings .ruling}\n\n## Admiral Motti {#swccg.ar.rulings.admiral-motti .ruling}\n\nMotti ruling.\n\n## Ghhhk {#swccg.ar.rulings.ghhhk .ruling}\n\n(Errata) See Ghhhk.\n\n# Chapter 2 {#swccg.ar.chapter-2}\n\nWhen Admiral Motti is on table, nothing special happens.\n";
    const RR: &str = "---\ngame: destiny\ndocument: rr\ndocument_title: RR\n---\n\n# Card Clarifications {#destiny.rr.clarifications .ruling}\n\n## Awakenings {#destiny.rr.clarifications.awakenings .ruling}\n\n### Qui-Gon Jinn (37) {#destiny.rr.clarifications.awakenings.qui-gon-jinn-37 .ruling}\n\nWhen Qui-Gon Jinn has max shields, you can remove one.\n";

    fn corpus() -> Corpus {
        let mut c = Corpus::default();
        c.add_file(Path::new("swccg/ar.md"), AR).unwrap();
        c.add_file(Path::new("destiny/rr.md"), RR).unwrap();
        c
    }

    #[test]
    fn finds_entries_with_kinds_sets_and_numbers() {
        let e = entries(&corpus());
        let names: Vec<(&str, EntryKind)> = e.iter().map(|e| (e.name.as_str(), e.kind)).collect();
        assert_eq!(
            names,
            [
                ("Admiral Motti", EntryKind::Errata),
                ("Dagobah (Light Side)", EntryKind::Errata),
                ("Admiral Motti", EntryKind::Ruling),
                ("Ghhhk", EntryKind::Ruling),
                ("Qui-Gon Jinn", EntryKind::Ruling)
            ]
        );
        let q = e.last().unwrap();
        assert_eq!(q.set.as_deref(), Some("Awakenings"));
        assert_eq!(q.number.as_deref(), Some("37"));
        assert_eq!(q.section, "destiny.rr.clarifications.awakenings.qui-gon-jinn-37");
    }

    #[test]
    fn merges_into_matching_cards_and_makes_rulebook_only_cards() {
        let mut cards = vec![
            Card::new(Game::Swccg, "1", "Admiral Motti", "Dark.json#1".into()),
            {
                let mut c = Card::new(Game::Swccg, "2", "Dagobah", "Light.json#2".into());
                c.side = Some("Light".into());
                c
            },
            {
                let mut c = Card::new(Game::Swccg, "3", "Dagobah", "Dark.json#3".into());
                c.side = Some("Dark".into());
                c
            },
            {
                let mut c = Card::new(Game::Destiny, "01037", "Qui-Gon Jinn", "AW.json#01037".into());
                c.set = Some("Awakenings".into());
                c.number = Some("37".into());
                c
            },
            {
                let mut c = Card::new(Game::Destiny, "05037", "Qui-Gon Jinn", "LEG.json#05037".into());
                c.set = Some("Legacies".into());
                c.number = Some("37".into());
                c
            },
        ];
        let corpus = corpus();
        merge(&mut cards, &entries(&corpus));
        assert_eq!(cards[0].errata[0].source, "swccg.ar.errata.admiral-motti");
        assert_eq!(cards[0].rulings[0].text, "Motti ruling.");
        assert_eq!(cards[1].errata.len(), 1);
        assert!(cards[2].errata.is_empty(), "Dark Side Dagobah must not get Light Side errata");
        assert_eq!(cards[3].rulings.len(), 1);
        assert!(cards[4].rulings.is_empty());
        let ghhhk = cards.iter().find(|c| c.title == "Ghhhk").expect("rulebook-only card");
        assert_eq!(ghhhk.rulings[0].source, "swccg.ar.rulings.ghhhk");
        // see also: chapter 2 mentions Motti; his own sections are excluded
        let sa = see_also(&corpus, &cards[0], 10);
        assert_eq!(sa.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), ["swccg.ar.chapter-2"]);
    }

    #[test]
    fn numbers_split_from_titles() {
        assert_eq!(split_number("Qui-Gon Jinn (37)"), ("Qui-Gon Jinn".into(), Some("37".into())));
        assert_eq!(split_number("Alter (Premiere) (V)"), ("Alter (Premiere) (V)".into(), None));
        assert_eq!(split_number("Rey (Θ 38)"), ("Rey".into(), Some("38".into())));
    }
}
