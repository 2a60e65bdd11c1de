//! Breaking cover (AR Undercover Spy Rules - Breaking Cover): "Certain cards will cause
//! an undercover spy to 'break cover' (cease being undercover). You may also have your
//! undercover spy voluntarily break cover during your deploy phase. … it loses all
//! undercover-related cards and returns to your side of the table."
//!
//! A spy is undercover by its own characteristic or by an active card on it that grants
//! it (`identity.grants`); breaking cover loses the cards on it that grant it.

use super::engine::{Decision, Engine, Rejection, Window, actor, rej};
use super::model::{Dest, Phase};
use super::rules as r;
use super::state::{CardIx, Zone};
use crate::engine::Event;

pub const BREAKING_COVER: &str = "swccg.ar.undercover-spy-rules-breaking-cover";

impl Engine {
    /// `break_cover`: the player's undercover spy voluntarily breaks cover, a
    /// top-level action of its owner's deploy phase.
    pub(super) fn voluntary_break_cover(
        &mut self,
        d: &Decision,
        w: Window,
    ) -> Result<(), Rejection> {
        let p = d.by;
        let c = self.decision_card(d, r::ACTIONS)?;
        if w != Window::TopLevel {
            return Err(rej(
                "breaking cover is a top-level action: not while the stack is not empty",
                r::THE_STACK,
            ));
        }
        if self.turn != p || self.phase != Phase::Deploy {
            return Err(rej(
                format!(
                    "{} may break cover voluntarily only during {}'s own deploy phase",
                    self.name(c),
                    p.name()
                ),
                BREAKING_COVER,
            ));
        }
        if self.st.owner(c) != p || !self.st.on_table(c) || !self.st.undercover(c) {
            return Err(rej(
                format!("{} is not {}'s undercover spy", self.name(c), p.name()),
                BREAKING_COVER,
            ));
        }
        self.break_cover(c);
        Ok(())
    }

    /// The spy's cover is broken: every card on it that makes it undercover is lost.
    pub(super) fn break_cover(&mut self, spy: CardIx) {
        let related: Vec<CardIx> = (0..self.st.cards.len())
            .filter(|&x| {
                self.st.zone[x] == Zone::On(spy)
                    && self
                        .st
                        .def(x)
                        .identity
                        .grants
                        .iter()
                        .any(|g| g.eq_ignore_ascii_case("undercover"))
            })
            .collect();
        let owner = self.st.owner(spy);
        self.log(
            actor(owner),
            Event::StateChange,
            format!(
                "{}'s cover is broken: it loses every undercover-related card and returns to its owner's side",
                self.name(spy)
            ),
            &[BREAKING_COVER],
        );
        for x in related {
            self.place(x, Dest::LostPile, owner);
        }
    }
}
