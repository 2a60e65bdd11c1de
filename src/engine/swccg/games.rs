//! Games within the game: dejarik (AR Appendix C, Dejarik Rules).
//!
//! A dejarik or hologram (an Interrupt or Effect with "dejarik" or "hologram" in its
//! lore: the keyword `dejarik` or `hologram`) at a holosite is not an Interrupt or an
//! Effect, nor a character: a card that targets a type of card cannot target it
//! there; a card naming it by title still can (Alter may not cancel Molator at the
//! holosite; Grimtaash, which names Molator, may).

use super::effects::Applied;
use super::engine::{Engine, Rejection, rej};
use super::state::{CardIx, State};
use crate::engine::swccg::model::{CardRef, CardState, Dest, TargetSpec};
use crate::engine::{Actor, Event};

pub const DEJARIK: &str = "swccg.ar.dejarik-rules";
pub const RACE_DESTINY: &str = "swccg.ar.podracing-race-destiny-and-race-total";

/// Every section this module cites.
pub const IDS: &[&str] = &[DEJARIK, RACE_DESTINY];

/// Is `c` a dejarik or hologram at a holosite (where it has no card type)?
pub fn at_holosite(st: &State, c: CardIx) -> bool {
    let d = st.def(c);
    let holo = d
        .keywords
        .iter()
        .any(|k| k.eq_ignore_ascii_case("dejarik") || k.eq_ignore_ascii_case("hologram"));
    holo && st
        .location_of(c)
        .is_some_and(|l| st.locations[l].geo.holosite)
}

impl Engine {
    /// A card's target `x` that is a dejarik or hologram at a holosite: a filter by
    /// card type cannot take it unless it names it by title.
    pub(super) fn holosite_target(
        &self,
        title: &str,
        spec: &TargetSpec,
        x: CardIx,
    ) -> Option<Rejection> {
        let f = &spec.filter;
        let named = f
            .title
            .iter()
            .any(|t| t.eq_ignore_ascii_case(self.st.title(x)));
        if f.card_type.is_none() || named || !at_holosite(&self.st, x) {
            return None;
        }
        Some(rej(
            format!(
                "{title} cannot target {}: a dejarik or hologram at a holosite is not an Interrupt, an Effect or a character (only a card naming it may affect it)",
                self.name(x)
            ),
            DEJARIK,
        ))
    }
}

impl Engine {
    /// The cards stacked "here" (supporting, directly on the card `on` names) go to
    /// `to`; cards stacked on any other card stay (AR Podracing: "here" on a podracer
    /// is that podracer).
    pub(super) fn move_stacked(&mut self, ix: usize, on: CardRef, to: Dest) -> Applied {
        let me = self.stack[ix].actor;
        for c in self.card_refs(ix, &on) {
            let here: Vec<CardIx> = self
                .st
                .cards_on(c)
                .into_iter()
                .filter(|&x| self.st.card_state[x] == CardState::Supporting)
                .collect();
            let names = self.names(&here);
            self.log(
                Actor::Rules,
                Event::Result,
                format!(
                    "the cards stacked on {} (here: {}) are placed; cards stacked elsewhere stay",
                    self.name(c),
                    if names.is_empty() {
                        "none".into()
                    } else {
                        names
                    }
                ),
                &[RACE_DESTINY],
            );
            for x in here {
                self.place(x, to, me);
            }
        }
        Applied::Done
    }
}
