//! Defensive Shields (AR Defensive Shields): played, never deployed, and only as a
//! top-level action.

use super::engine::{Rejection, Window};
use super::model::{CardType, Side};
use super::state::{CardIx, Zone};

pub const DEFENSIVE_SHIELDS: &str = "swccg.ar.defensive-shields";

/// Every ID this module cites.
pub const IDS: &[&str] = &[DEFENSIVE_SHIELDS];

fn rej(reason: String) -> Rejection {
    Rejection {
        reason,
        rule: DEFENSIVE_SHIELDS,
        not_modelled: None,
        also: vec![],
    }
}

impl super::engine::Engine {
    pub(super) fn is_shield(&self, c: CardIx) -> bool {
        self.st.def(c).card_type == CardType::DefensiveShield
    }

    /// Play a Defensive Shield from hand: at any time a player may take an action,
    /// while no other action is resolving; it is not a valid response to any action.
    /// It goes on table at once.
    pub(super) fn play_shield(&mut self, p: Side, c: CardIx, w: Window) -> Result<(), Rejection> {
        if w != Window::TopLevel {
            return Err(rej(format!(
                "{} is a Defensive Shield: playing it is not a valid response to any other action (only while no action is resolving)",
                self.name(c)
            )));
        }
        self.st.put(c, Zone::Table);
        self.log(
            crate::engine::Actor::Player(super::seat(p)),
            crate::engine::Event::StateChange,
            format!(
                "{} plays the Defensive Shield {} on table (played, not deployed)",
                p.name(),
                self.name(c)
            ),
            &[DEFENSIVE_SHIELDS],
        );
        Ok(())
    }

    /// A Defensive Shield plays rather than deploys.
    pub(super) fn shield_not_deployed(&self, c: CardIx) -> Result<(), Rejection> {
        if self.is_shield(c) {
            return Err(rej(format!(
                "{} is a Defensive Shield: it plays rather than deploys, and is not a valid target for an action that deploys cards",
                self.name(c)
            )));
        }
        Ok(())
    }
}

impl super::engine::Engine {
    /// A search that deploys a card: a scripted choice of a Defensive Shield (even
    /// one the search names) is rejected, since a Shield is never deployed.
    pub(super) fn reject_shield_choices(&mut self, p: Side) {
        while let Some((d, c)) = self.next_chosen_card(p) {
            let Err(why) = self.shield_not_deployed(c) else {
                return;
            };
            self.script.take();
            self.reject(&d, why);
        }
    }
}
