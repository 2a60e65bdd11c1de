//! Star Wars CCG deck construction (Advanced Rulebook 3.27): a 60-card deck
//! (Defensive Shields and other cards placed outside it not counted), one side
//! of the Force, at most one Objective, at most one double-sided card of a
//! title, only the card types of Chapter 9, and no legacy cards.

use super::{Deck, Problem, Slot, Summary, Zone, group_by, type_of};
use crate::cards::names;

/// "The 60-card deck you use to play the game becomes your Reserve Deck".
pub const DECK_SIZE: &str = "swccg.ar.reserve-deck";
/// Cards under a Starting Effect "must be of the same allegiance as the deck you are playing".
pub const ALLEGIANCE: &str = "swccg.ar.effects-starting-effects";
/// "A player may only include one Objective card in a deck".
pub const OBJECTIVES: &str = "swccg.ar.double-sided-cards-objectives";
/// "A player may only include one double-sided card of the same title or persona in a deck."
pub const DOUBLE_SIDED: &str = "swccg.ar.double-sided-cards";
/// "No other cards besides those types listed here are legal in your deck".
pub const OTHER_CARDS: &str = "swccg.ar.other-cards";

const DECK_CARDS: u32 = 60;

/// The card types Chapter 9 lists (Jedi Tests are numbered in the data).
const CARD_TYPES: &[&str] = &[
    "admiral's order",
    "character",
    "creature",
    "defensive shield",
    "device",
    "effect",
    "epic event",
    "interrupt",
    "location",
    "objective",
    "podracer",
    "starship",
    "vehicle",
    "weapon",
];

pub fn check(deck: &Deck, problems: &mut Vec<Problem>, summary: &mut Summary) {
    let in_play: Vec<_> = deck.in_play().collect();
    let size: u32 = deck.zone(Zone::Deck).map(|s| s.count).sum();
    if size != DECK_CARDS {
        problems.push(Problem::new(
            "swccg.deck-size",
            DECK_SIZE,
            format!(
                "the deck has {size} cards; a deck has exactly {DECK_CARDS} (Defensive Shields and other cards outside the deck are not counted)"
            ),
            Vec::new(),
        ));
    }
    // one side of the Force
    let count_side = |side: &str| -> u32 {
        in_play
            .iter()
            .filter(|s| deck.card(s).side.as_deref() == Some(side))
            .map(|s| s.count)
            .sum()
    };
    let (light, dark) = (count_side("Light"), count_side("Dark"));
    let side = if light >= dark { "Light" } else { "Dark" };
    summary.side = (light + dark > 0).then(|| side.to_string());
    if light > 0 && dark > 0 {
        let other = if side == "Light" { "Dark" } else { "Light" };
        problems.push(Problem::new(
            "swccg.one-side",
            ALLEGIANCE,
            format!(
                "a deck is of one side of the Force: {light} Light Side and {dark} Dark Side cards; the {other} Side cards are listed"
            ),
            in_play
                .iter()
                .filter(|s| deck.card(s).side.as_deref() == Some(other))
                .map(|s| deck.cref(s.card))
                .collect(),
        ));
    }
    let objectives: Vec<_> = in_play
        .iter()
        .filter(|s| type_of(deck.card(s)) == "objective")
        .collect();
    let n: u32 = objectives.iter().map(|s| s.count).sum();
    if n > 1 {
        problems.push(Problem::new(
            "swccg.one-objective",
            OBJECTIVES,
            format!("{n} Objectives; a deck may include only one"),
            objectives.iter().map(|s| deck.cref(s.card)).collect(),
        ));
    }
    double_sided(deck, &in_play, problems);
    for s in &in_play {
        let c = deck.card(s);
        let t = type_of(c);
        if !t.is_empty() && !CARD_TYPES.contains(&t.as_str()) && !t.starts_with("jedi test") {
            problems.push(Problem::new(
                "swccg.card-type",
                OTHER_CARDS,
                format!(
                    "{} is a {}, which is not a card type legal in a deck",
                    deck.db.labels[s.card],
                    c.card_type.as_deref().unwrap_or("")
                ),
                vec![deck.cref(s.card)],
            ));
        }
        if c.notes.iter().any(|n| n.starts_with("legacy card")) {
            problems.push(Problem::new(
                "swccg.legacy",
                &format!("{} (legacy)", c.source),
                format!(
                    "{} is a legacy card: the Players Committee's data marks it not legal in current formats",
                    deck.db.labels[s.card]
                ),
                vec![deck.cref(s.card)],
            ));
        }
    }
}

/// At most one double-sided card of one title (Objectives have their own limit).
fn double_sided(deck: &Deck, in_play: &[&Slot], problems: &mut Vec<Problem>) {
    let two_sided = in_play.iter().copied().filter(|s| {
        let c = deck.card(s);
        c.back.is_some() && type_of(c) != "objective"
    });
    for g in group_by(two_sided, |s| names::letters(&deck.card(s).title)) {
        if g.count > 1 {
            problems.push(Problem::new(
                "swccg.double-sided",
                DOUBLE_SIDED,
                format!(
                    "{} copies of the double-sided card {}; a deck may include only one double-sided card of a title",
                    g.count, deck.db.labels[g.cards[0]]
                ),
                deck.crefs(&g.cards),
            ));
        }
    }
}
