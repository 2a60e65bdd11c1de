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

use super::names::{AMBIGUITY_MARGIN, Matcher, base_title, letters, normalize};
use super::{Card, Entry, SeeAlso};
use crate::game::Game;
use crate::rulebook::{Corpus, Section};
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

const PREFIXES: &[(&str, Game, EntryKind)] = &[
    ("swccg.ar.errata.", Game::Swccg, EntryKind::Errata),
    ("swccg.ar.rulings.", Game::Swccg, EntryKind::Ruling),
    ("swccg.ar.current-rulings.", Game::Swccg, EntryKind::Ruling),
    ("destiny.rr.errata.", Game::Destiny, EntryKind::Errata),
    (
        "destiny.rr.clarifications.",
        Game::Destiny,
        EntryKind::Ruling,
    ),
];

/// Every card entry in the corpus, in corpus order.
pub fn entries(corpus: &Corpus) -> Vec<RuleEntry> {
    let mut out = Vec::new();
    for s in &corpus.sections {
        if s.superseded {
            continue;
        }
        let Some(&(prefix, game, kind)) = PREFIXES.iter().find(|(p, ..)| s.id.starts_with(p))
        else {
            continue;
        };
        let rest = &s.id[prefix.len()..];
        // Destiny card entries sit one level below a set section: <set>.<card>.
        let by_set = game == Game::Destiny;
        if by_set && !rest.contains('.') {
            continue;
        }
        let body = s.plain_body();
        if body.trim().is_empty() {
            continue; // a grouping heading, not a card
        }
        let (name, number) = split_number(&s.title);
        let set = if by_set {
            parent_title(corpus, s)
        } else {
            None
        };
        out.push(RuleEntry {
            game,
            kind,
            name,
            set,
            number,
            text: body,
            section: s.id.clone(),
        });
    }
    out
}

fn parent_title(corpus: &Corpus, s: &Section) -> Option<String> {
    s.parent
        .as_deref()
        .and_then(|p| corpus.get(p))
        .map(|p| p.title.clone())
}

/// "Qui-Gon Jinn (37)" → ("Qui-Gon Jinn", Some("37")); other titles unchanged.
fn split_number(title: &str) -> (String, Option<String>) {
    let t = title.trim();
    if let Some(open) = t.rfind('(') {
        let inner = t[open + 1..].trim_end_matches(')').trim();
        // the Destiny document prints a set symbol before the number; keep digits
        let digits: String = inner.chars().filter(|c| c.is_ascii_digit()).collect();
        if t.ends_with(')')
            && !digits.is_empty()
            && inner
                .chars()
                .all(|c| c.is_ascii_digit() || !c.is_ascii_alphanumeric())
        {
            return (
                t[..open].trim().to_string(),
                Some(digits.trim_start_matches('0').to_string()),
            );
        }
    }
    (t.to_string(), None)
}

/// Attach each entry to the cards it names; entries naming no known card become
/// rulebook-only cards.
pub fn merge(cards: &mut Vec<Card>, entries: &[RuleEntry]) {
    // (game, key) → card indices, keyed by title and by "title (side Side)".
    let mut by_key: HashMap<(Game, String), Vec<usize>> = HashMap::new();
    // each half of a two-sided title ("Jabba's Prize / Jabba's Prize")
    let mut by_half: HashMap<(Game, String), Vec<usize>> = HashMap::new();
    for (i, c) in cards.iter().enumerate() {
        by_key
            .entry((c.game, letters(&c.title)))
            .or_default()
            .push(i);
        if let Some(side) = &c.side {
            by_key
                .entry((c.game, letters(&format!("{} ({side} Side)", c.title))))
                .or_default()
                .push(i);
        }
        if c.title.contains(" / ") {
            for half in c.title.split(" / ") {
                let v = by_half.entry((c.game, letters(half))).or_default();
                if !v.contains(&i) {
                    v.push(i);
                }
            }
        }
    }
    let imported = cards.len();
    let mut matchers: HashMap<Game, Matcher> = HashMap::new();
    let mut made: HashMap<(Game, String), usize> = HashMap::new();
    for e in entries {
        let k = letters(&e.name);
        let mut targets: Vec<usize> = by_key
            .get(&(e.game, k.clone()))
            .cloned()
            .unwrap_or_default();
        if targets.is_empty() {
            targets = by_qualifiers(cards, &by_key, &by_half, e);
        }
        if targets.is_empty() {
            let m = matchers.entry(e.game).or_insert_with(|| {
                let mut m = Matcher::default();
                for (i, c) in cards[..imported]
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.game == e.game)
                {
                    m.add(i, &c.title);
                }
                m
            });
            targets = fuzzy_targets(m, &cards[..imported], &e.name);
        }
        if e.game == Game::Destiny && targets.len() > 1 {
            // narrow by set and number when the entry gives them
            let narrowed: Vec<usize> = targets
                .iter()
                .copied()
                .filter(|&i| {
                    let c = &cards[i];
                    let num_ok = e.number.as_deref().is_none_or(|n| {
                        c.number.as_deref().map(|x| x.trim_start_matches('0')) == Some(n)
                    });
                    let set_ok = e.set.as_deref().is_none_or(|s| {
                        c.set.as_deref().is_some_and(|cs| letters(cs) == letters(s))
                    });
                    num_ok && set_ok
                })
                .collect();
            if !narrowed.is_empty() {
                targets = narrowed;
            }
        }
        if targets.is_empty() {
            let idx = made.entry((e.game, k.clone())).or_insert_with(|| {
                let mut c = Card::new(e.game, &e.section, &e.name, e.section.clone());
                c.set = e.set.clone();
                c.number = e.number.clone();
                c.notes.push("known only from the rulebook: import a card database for its printed text and stats".into());
                cards.push(c);
                cards.len() - 1
            });
            targets.push(*idx);
        }
        for i in targets {
            let entry = Entry {
                text: e.text.clone(),
                source: e.section.clone(),
            };
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

/// Entry names with a qualifier the card data does not print: "(both sides)",
/// "(both sides – Premiere and Coruscant)", "(Dark)", "(Light Side)", or a set
/// name ("Tusken Raider (Premiere)"). Also matches one half of a two-sided title.
fn by_qualifiers(
    cards: &[Card],
    by_key: &HashMap<(Game, String), Vec<usize>>,
    by_half: &HashMap<(Game, String), Vec<usize>>,
    e: &RuleEntry,
) -> Vec<usize> {
    let mut base = e.name.trim();
    let mut side: Option<&str> = None;
    let mut sets: Vec<String> = Vec::new();
    let mut set_words: Vec<String> = Vec::new();
    while base.ends_with(')') {
        let Some(open) = base.rfind('(') else { break };
        let inner = base[open + 1..base.len() - 1].trim();
        let lower = inner.to_lowercase();
        if let Some(rest) = lower.strip_prefix("both sides") {
            let rest = rest.trim_start_matches(|c: char| !c.is_alphanumeric());
            for part in rest.split(" and ").flat_map(|p| p.split(',')) {
                if !part.trim().is_empty() {
                    sets.push(letters(part));
                }
            }
        } else if matches!(lower.as_str(), "dark" | "dark side") {
            side = Some("Dark");
        } else if matches!(lower.as_str(), "light" | "light side") {
            side = Some("Light");
        } else {
            set_words.push(letters(inner));
        }
        base = base[..open].trim_end();
    }
    let k = letters(base);
    let mut found: Vec<usize> = by_key
        .get(&(e.game, k.clone()))
        .cloned()
        .unwrap_or_default();
    if found.is_empty() && set_words.is_empty() {
        found = by_half.get(&(e.game, k)).cloned().unwrap_or_default();
    }
    let set_of = |i: usize| cards[i].set.as_deref().map(letters).unwrap_or_default();
    found.retain(|&i| side.is_none_or(|s| cards[i].side.as_deref() == Some(s)));
    if !set_words.is_empty() {
        // a qualifier we did not strip as side/both-sides must name the card's set
        found.retain(|&i| set_words.iter().all(|w| set_of(i) == *w));
    }
    if !sets.is_empty() {
        let narrowed: Vec<usize> = found
            .iter()
            .copied()
            .filter(|&i| sets.contains(&set_of(i)))
            .collect();
        if !narrowed.is_empty() {
            found = narrowed;
        }
    }
    found
}

/// Last resort for spelling differences between the rulebook and the card data
/// ("WED15-I7" / "WED15-l7"): the one clearly best fuzzy match, or every card of
/// one title when the best candidates share it (e.g. both sides). Never a match
/// that needed a version the entry did not name.
fn fuzzy_targets(m: &Matcher, cards: &[Card], name: &str) -> Vec<usize> {
    const MIN: f64 = 0.85;
    let hits = m.search(name);
    let Some(top) = hits.first() else {
        return Vec::new();
    };
    if top.score < MIN {
        return Vec::new();
    }
    let close: Vec<usize> = hits
        .iter()
        .filter(|h| top.score - h.score <= AMBIGUITY_MARGIN)
        .map(|h| h.key)
        .collect();
    let title = letters(&cards[close[0]].title);
    if close.iter().all(|&i| letters(&cards[i].title) == title) {
        close
    } else {
        Vec::new()
    }
}

/// Rulebook sections (current documents) whose text mentions the card's title
/// (without version qualifiers, and only when at least four letters long),
/// excluding the card's own errata/ruling sections: a scan of every section.
pub fn see_also(corpus: &Corpus, card: &Card, limit: usize) -> Vec<SeeAlso> {
    let needle = normalize(base_title(&card.title));
    if needle.len() < 4 {
        return Vec::new();
    }
    let padded = format!(" {needle} ");
    let own: Vec<&str> = card
        .errata
        .iter()
        .chain(&card.rulings)
        .map(|e| e.source.as_str())
        .collect();
    let mut out = Vec::new();
    for s in &corpus.sections {
        if out.len() >= limit {
            break;
        }
        if s.game != card.game || s.superseded || own.contains(&s.id.as_str()) {
            continue;
        }
        if format!(" {} ", normalize(&s.body)).contains(&padded) {
            out.push(SeeAlso {
                id: s.id.clone(),
                title: s.title.clone(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_split_from_titles() {
        assert_eq!(
            split_number("Qui-Gon Jinn (37)"),
            ("Qui-Gon Jinn".into(), Some("37".into()))
        );
        assert_eq!(
            split_number("Alter (Premiere) (V)"),
            ("Alter (Premiere) (V)".into(), None)
        );
        assert_eq!(
            split_number("Rey (Θ 38)"),
            ("Rey".into(), Some("38".into()))
        );
    }
}
