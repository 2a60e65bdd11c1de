//! Jedi tests (AR Appendix C, Jedi Testing).
//!
//! Each time an apprentice completes a Jedi Test numbered higher than that
//! character's ability, the ability rises to the test's number. Only apprentices may
//! attempt Jedi Tests: an uncompleted test on a character that loses apprentice
//! status (replaced by a Jedi version of the persona: the keyword `jedi`) is lost;
//! completed tests stay with the new version (their benefits apply to it).

use super::effects::Applied;
use super::engine::*;
use super::state::{CardIx, Zone};
use super::statics::{Static, pick};
use crate::engine::swccg::model::CardType;
use crate::engine::{Actor, Event};
use serde::Deserialize;

pub const JEDI_TESTING: &str = "swccg.ar.jedi-testing";
pub const MWYHL_RETRIEVAL: &str = "swccg.ar.mind-what-you-have-learned-retrieval";

/// Every section this module cites.
pub const IDS: &[&str] = &[JEDI_TESTING, MWYHL_RETRIEVAL];

/// A Jedi Test card.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JediTestDef {
    pub number: i64,
    #[serde(default)]
    pub completed: bool,
}

impl Engine {
    /// The Jedi Test this action's card is, completed by the apprentice it is on.
    pub(super) fn complete_jedi_test(&mut self, ix: usize) -> Applied {
        let Some(t) = self.stack[ix].card else {
            return Applied::Done;
        };
        let (Some(def), Zone::On(a)) = (self.st.def(t).jedi_test.clone(), self.st.zone[t]) else {
            return Applied::Done;
        };
        if let Some(jt) = self.st.cards[t].def.jedi_test.as_mut() {
            jt.completed = true;
        }
        let who = self.name(a);
        let ability = self.st.def(a).stats.ability.unwrap_or(0);
        let text = if def.number > ability {
            self.st.cards[a].def.stats.ability = Some(def.number);
            format!(
                "{who} completes Jedi Test #{}: it is numbered higher than {who}'s ability {ability}, which rises to {}",
                def.number, def.number
            )
        } else {
            format!(
                "{who} completes Jedi Test #{}: {who}'s ability {ability} is not lower, and stays {ability}",
                def.number
            )
        };
        self.log(Actor::Rules, Event::StateChange, text, &[JEDI_TESTING]);
        Applied::Done
    }

    /// Is `x`, on a character being replaced by `new`, an uncompleted Jedi Test that
    /// is lost because `new` is not an apprentice (a Jedi version)?
    pub(super) fn jedi_test_lost_on(&mut self, x: CardIx, new: CardIx) -> bool {
        let d = self.st.def(x);
        let uncompleted =
            d.card_type == CardType::JediTest && d.jedi_test.as_ref().is_some_and(|t| !t.completed);
        let jedi = self
            .st
            .def(new)
            .keywords
            .iter()
            .any(|k| k.eq_ignore_ascii_case("jedi"));
        if !uncompleted || !jedi {
            return false;
        }
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{} is a Jedi, no longer an apprentice: the uncompleted {} targeting it is lost",
                self.name(new),
                self.name(x)
            ),
            &[JEDI_TESTING],
        );
        true
    }
}

impl Engine {
    /// Does a card on table prevent the retrieval the action at `ix` (its card's) would
    /// make? The action was initiated normally; only its retrieval does not occur.
    pub(super) fn retrieval_prevented(&mut self, ix: usize) -> bool {
        // Where the retrieval is made using cards: the action's card's location, or
        // the battle (or Force drain) it responds to.
        let at_card = self.stack[ix].card.and_then(|c| self.st.location_of(c));
        let at_battle = self.stack[ix]
            .responding_to
            .filter(|&j| j < self.stack.len())
            .and_then(|j| {
                self.stack[j].targets.iter().find_map(|(_, t)| match t {
                    super::stack::Tgt::Location(l) => Some(*l),
                    _ => None,
                })
            });
        let Some(l) = at_card.or(at_battle) else {
            return false;
        };
        let by = (0..self.st.cards.len()).find(|&x| {
            self.st.active(x)
                && self
                    .st
                    .def(x)
                    .find_static(pick!(Static::PreventsRetrieval))
                    .is_some_and(|f| self.loc_matches(l, f, self.st.owner(x), false))
        });
        let Some(x) = by else {
            return false;
        };
        self.log(
            Actor::Rules,
            Event::Result,
            format!(
                "{}: {} prevents retrieval using cards at {}: the action was initiated and has its result, but no retrieval occurs",
                self.stack[ix].label,
                self.name(x),
                self.st.locations[l].title
            ),
            &[MWYHL_RETRIEVAL],
        );
        true
    }
}
