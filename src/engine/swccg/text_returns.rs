//! Game text that returns (AR Canceling Game Text). A card on table may cancel the
//! game text of others while it stays there (`cancels_text_of`). When a card's game
//! text returns and the card is then found performing an illegal operation (e.g.
//! Kal'Falnl C'ndros, who "may not be aboard starfighters", is aboard one), it is
//! immediately placed in its owner's Lost Pile; this does not count as being just
//! lost. The same restriction (`not_aboard`) refuses deploying it aboard such a card
//! while its text is not canceled.

use super::engine::{Engine, Rejection, rej};
use super::model::{Dest, Filter};
use super::state::{CardIx, Zone};
use super::statics::{Static, pick};
use crate::engine::{Actor, Event};

pub const CANCELING_TEXT: &str = "swccg.ar.canceling-game-text";
pub const DEPLOYMENT_RESTRICTIONS: &str = "swccg.ar.deployment-restrictions";

/// Every section this file cites.
pub const IDS: &[&str] = &[CANCELING_TEXT, DEPLOYMENT_RESTRICTIONS];

impl Engine {
    /// Is `c`'s game text canceled by a card on table (`cancels_text_of`)?
    pub(crate) fn text_canceled_by_card(&self, c: CardIx) -> bool {
        let owner = |x: CardIx| self.st.owner(x);
        (0..self.st.cards.len()).any(|x| {
            x != c
                && self.st.on_table(x)
                && self.st.active(x)
                && self
                    .st
                    .def(x)
                    .find_static(pick!(Static::CancelsTextOf))
                    .is_some_and(|f| self.st.on_table(c) && self.st.matches(c, f, owner(x)))
        })
    }

    /// "May not be aboard …": `c` (with its text) may not be on `h`.
    pub(crate) fn aboard_ok(&self, c: CardIx, h: CardIx) -> Result<(), Rejection> {
        let Some(f) = self.st.def(c).find_static(pick!(Static::NotAboard)) else {
            return Ok(());
        };
        if self.text_canceled_by_card(c) || !self.aboard_matches(h, f, c) {
            return Ok(());
        }
        Err(rej(
            format!(
                "{} may not be aboard {} (its game text)",
                self.name(c),
                self.name(h)
            ),
            DEPLOYMENT_RESTRICTIONS,
        ))
    }

    fn aboard_matches(&self, h: CardIx, f: &Filter, c: CardIx) -> bool {
        self.st.matches(h, f, self.st.owner(c))
    }

    /// After each step: cards whose text was canceled by a card on table and has now
    /// returned are checked; one performing an illegal operation goes to the Lost Pile.
    pub(crate) fn text_returns(&mut self) {
        let n = self.st.cards.len();
        if !(0..n).any(|x| {
            self.st
                .def(x)
                .find_static(pick!(Static::CancelsTextOf))
                .is_some()
        }) {
            return;
        }
        let now: Vec<CardIx> = (0..n).filter(|&c| self.text_canceled_by_card(c)).collect();
        let before = self.st.text_canceled.replace(now.clone());
        let Some(before) = before else {
            return;
        };
        for c in before.into_iter().filter(|c| !now.contains(c)) {
            if !self.st.on_table(c) {
                continue;
            }
            let Zone::On(h) = self.st.zone[c] else {
                continue;
            };
            if self.aboard_ok(c, h).is_ok() {
                continue;
            }
            self.place(c, Dest::LostPile, self.st.owner(c));
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!(
                    "{}'s game text returns while aboard {}, which it may not be: it is immediately placed in the Lost Pile (this does not count as being just lost)",
                    self.name(c),
                    self.name(h)
                ),
                &[CANCELING_TEXT],
            );
        }
    }
}
