//! Star Wars TCG deck rules (Rulebook, "Deck"): at least 60 cards; at least 36
//! unit cards with at least 12 of each unit type (a multi-arena card counts once
//! toward the 36 and once for each type on its type line); no cards of both the
//! Light and the Dark Side; at most 4 copies of each card (each version of a
//! unique card a separate card); no more than twice as many unit cards of one
//! type as of another.

use super::{CardRef, Deck, Problem, Slot, Summary, Zone, group_by};
use crate::cards::{Card, names};

/// The section that lists every deck rule.
pub const DECK: &str = "swtcg.rb.materials-deck";

const MIN_CARDS: u32 = 60;
const MIN_UNITS: u32 = 36;
const MIN_PER_TYPE: u32 = 12;
const MAX_COPIES: u32 = 4;
const ARENAS: [&str; 3] = ["Space", "Ground", "Character"];

/// The arenas a unit card battles in; empty for a card that is not a unit.
pub fn unit_types(c: &Card) -> Vec<&'static str> {
    let t = c.card_type.as_deref().unwrap_or("");
    let parts: Vec<&str> = t.split('/').map(str::trim).collect();
    if t.is_empty()
        || !parts
            .iter()
            .all(|p| ARENAS.iter().any(|a| a.eq_ignore_ascii_case(p)))
    {
        return Vec::new();
    }
    ARENAS
        .into_iter()
        .filter(|a| parts.iter().any(|p| p.eq_ignore_ascii_case(a)))
        .collect()
}

/// A card's identity for the copy limit: its name with its version, without a
/// printing's "(Promo)".
fn identity(c: &Card) -> String {
    let t = c.title.trim();
    names::letters(t.strip_suffix("(Promo)").unwrap_or(t))
}

fn problem(check: &'static str, message: String, cards: Vec<CardRef>) -> Problem {
    Problem::new(check, DECK, message, cards)
}

pub fn check(deck: &Deck, problems: &mut Vec<Problem>, summary: &mut Summary) {
    let slots: Vec<&Slot> = deck.zone(Zone::Deck).collect();
    let size: u32 = slots.iter().map(|s| s.count).sum();
    if size < MIN_CARDS {
        problems.push(problem(
            "swtcg.deck-size",
            format!("the deck has {size} cards; a deck has at least {MIN_CARDS}"),
            Vec::new(),
        ));
    }
    let units: u32 = slots
        .iter()
        .filter(|s| !unit_types(deck.card(s)).is_empty())
        .map(|s| s.count)
        .sum();
    if units < MIN_UNITS {
        problems.push(problem(
            "swtcg.units",
            format!("{units} unit cards; a deck has at least {MIN_UNITS}"),
            Vec::new(),
        ));
    }
    let per_type: Vec<(&str, u32)> = ARENAS
        .iter()
        .map(|a| {
            let n = slots
                .iter()
                .filter(|s| unit_types(deck.card(s)).contains(a))
                .map(|s| s.count)
                .sum();
            (*a, n)
        })
        .collect();
    for (a, n) in &per_type {
        if *n < MIN_PER_TYPE {
            problems.push(problem(
                "swtcg.units-per-type",
                format!(
                    "{n} {a} unit cards; a deck has at least {MIN_PER_TYPE} of each unit type (a multi-arena card counts for each type it has)"
                ),
                Vec::new(),
            ));
        }
    }
    let (lo, hi) = (
        per_type.iter().min_by_key(|(_, n)| *n),
        per_type.iter().max_by_key(|(_, n)| *n),
    );
    if let (Some((la, ln)), Some((ha, hn))) = (lo, hi)
        && *hn > 2 * *ln
    {
        problems.push(problem(
            "swtcg.unit-ratio",
            format!(
                "{hn} {ha} unit cards and {ln} {la}: no more than twice as many unit cards of one type as of another"
            ),
            Vec::new(),
        ));
    }
    sides(deck, &slots, problems, summary);
    copies(deck, &slots, problems);
}

fn sides(deck: &Deck, slots: &[&Slot], problems: &mut Vec<Problem>, summary: &mut Summary) {
    let of = |side: &str| -> Vec<&&Slot> {
        slots
            .iter()
            .filter(|s| deck.card(s).side.as_deref() == Some(side))
            .collect()
    };
    let (light, dark) = (of("Light"), of("Dark"));
    let count = |v: &[&&Slot]| -> u32 { v.iter().map(|s| s.count).sum() };
    summary.side = Some(
        match (light.is_empty(), dark.is_empty()) {
            (true, true) => "Neutral",
            (false, true) => "Light",
            (true, false) => "Dark",
            _ if count(&light) >= count(&dark) => "Light",
            _ => "Dark",
        }
        .to_string(),
    );
    if !light.is_empty() && !dark.is_empty() {
        let fewer = if count(&light) >= count(&dark) {
            &dark
        } else {
            &light
        };
        problems.push(problem(
            "swtcg.one-side",
            format!(
                "{} Light Side and {} Dark Side cards: a deck can't have cards of both sides; the fewer are listed",
                count(&light),
                count(&dark)
            ),
            fewer.iter().map(|s| deck.cref(s.card)).collect(),
        ));
    }
}

fn copies(deck: &Deck, slots: &[&Slot], problems: &mut Vec<Problem>) {
    for g in group_by(slots.iter().copied(), |s| identity(deck.card(s))) {
        if g.count > MAX_COPIES {
            problems.push(problem(
                "swtcg.copies",
                format!(
                    "{} copies of {}; a deck can't have more than {MAX_COPIES} copies of a card (each version of a unique card is a separate card)",
                    g.count, deck.db.labels[g.cards[0]]
                ),
                deck.crefs(&g.cards),
            ));
        }
    }
}
