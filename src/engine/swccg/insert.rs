//! Insert cards (AR Insert Cards - Effects On Gameplay): an 'insert' card in a
//! player's Reserve Deck is not part of that deck. Revealed during a peek, it has not
//! reached the top and does not resolve; it does not count as a card peeked at, and
//! the peeked cards returned are placed on top of it.

use super::effects::Applied;
use super::engine::{Engine, rej};
use super::model::{Dest, PileName, Side};
use super::rules as r;
use super::state::CardIx;
use crate::engine::{Actor, Event};

impl Engine {
    /// Is `c` an opponent's insert card in `p`'s Reserve Deck?
    fn is_insert(&self, p: Side, c: CardIx) -> bool {
        self.st.def(c).insert && self.st.owner(c) != p
    }

    /// Peek at the top `count` cards (inserts skipped), place `place` of them in `to`
    /// (the player's `choose`), return the others on top of the deck.
    pub(super) fn peek(
        &mut self,
        p: Side,
        label: &str,
        count: usize,
        place: usize,
        to: Dest,
    ) -> Applied {
        let deck = self.st.pile(p, PileName::ReserveDeck).to_vec();
        let (mut peeked, mut inserts, mut i) = (Vec::new(), Vec::new(), 0);
        while peeked.len() < count && i < deck.len() {
            let c = deck[i];
            if self.is_insert(p, c) {
                inserts.push(c);
                self.log(
                    Actor::Rules,
                    Event::StateChange,
                    format!(
                        "{label}: {} (an insert card of {}) is revealed during the peek: it has not reached the top and does not resolve, and it does not count as a card peeked at",
                        self.name(c),
                        self.st.owner(c).name()
                    ),
                    &[r::INSERT_CARDS],
                );
            } else {
                peeked.push(c);
            }
            i += 1;
        }
        let names: Vec<String> = peeked.iter().map(|&c| self.name(c)).collect();
        self.log(
            super::actor(p),
            Event::StateChange,
            format!("{label}: {} peeks at {}", p.name(), names.join(", ")),
            &[r::INSERT_CARDS, r::RESULT],
        );
        let want = place.min(peeked.len());
        let Some(chosen) = self.choose_peeked(p, &peeked, want) else {
            return Applied::Stop;
        };
        let returned: Vec<CardIx> = peeked
            .iter()
            .copied()
            .filter(|c| !chosen.contains(c))
            .collect();
        for &c in &chosen {
            self.place(c, to, p);
        }
        let mut order = returned.clone();
        order.extend(inserts.iter().copied());
        order.extend(deck[i..].iter().copied());
        self.st.reorder(p, PileName::ReserveDeck, order);
        let placed: Vec<String> = chosen.iter().map(|&c| self.name(c)).collect();
        let back: Vec<String> = returned.iter().map(|&c| self.name(c)).collect();
        self.log(
            super::actor(p),
            Event::StateChange,
            format!(
                "{label}: {} places {} in the {}; {} returns on top of the Reserve Deck{}",
                p.name(),
                placed.join(" and "),
                to.as_str().replace('_', " "),
                back.join(", "),
                if inserts.is_empty() {
                    ""
                } else {
                    ", above the insert card"
                }
            ),
            &[r::INSERT_CARDS],
        );
        Applied::Done
    }

    /// The player's `choose` of exactly `n` of the peeked cards.
    fn choose_peeked(&mut self, p: Side, peeked: &[CardIx], n: usize) -> Option<Vec<CardIx>> {
        let (chosen, _) = self.choose_cards(
            p,
            peeked,
            n,
            |_| format!("which {n} of the cards peeked at to place"),
            |e, named| {
                let why = if named.iter().any(|&c| e.is_insert(p, c)) {
                    "an insert card is not a card of the Reserve Deck: it is not one of the cards peeked at".to_string()
                } else {
                    format!("choose exactly {n} of the cards peeked at")
                };
                rej(why, r::INSERT_CARDS)
            },
        )?;
        Some(chosen)
    }
}
