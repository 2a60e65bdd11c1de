//! Firing costs and repeating weapons (AR Ch.9 Weapons - Repeating Weapons (Fire
//! Repeatedly), Weapons - Firing For Free).
//!
//! A weapon's firing cost is its `cost`, or nothing where a card permits firing it for
//! free ("may fire blasters for free": `fires_free` on the character or on a card on
//! it). A weapon that may "fire repeatedly" may be fired again immediately after each
//! shot, before any other top-level action, for its repeat cost: a free or modified
//! firing cost applies only to the first shot. Its owner keeps firing as long as they
//! like; once they do anything else (pass, or another decision), they have stopped, and
//! the weapon may not begin firing again in that battle.

use super::engine::*;
use super::rules as r;
use super::state::{CardIx, Zone};
use super::statics::{Static, pick};
use super::values::cite;
use crate::engine::swccg::model::{Side, Verb};
use crate::engine::{Event, NeedKind};

impl Engine {
    /// The Force firing `w` uses now in the battle at `ix`, and why it differs from the
    /// weapon's printed cost (text and rule), if it does.
    pub(super) fn fire_cost(&self, ix: usize, w: CardIx) -> (u32, Option<(String, &'static str)>) {
        let Some(def) = self.st.def(w).weapon.as_ref() else {
            return (0, None);
        };
        let title = self.st.title(w);
        if self.stack[ix].fired.contains(&w)
            && let Some(n) = def.repeat
        {
            return (
                n,
                Some((
                    format!(
                        "{title} fires again (fire repeatedly): each further shot uses {n} Force; a free or modified firing cost applies only to the first shot"
                    ),
                    r::REPEATING_WEAPONS,
                )),
            );
        }
        if let Some(h) = self.free_on_carrier(w) {
            return (
                0,
                Some((
                    format!(
                        "{title} fires for free while on {} (its own text)",
                        self.st.title(h)
                    ),
                    r::FIRING_FOR_FREE,
                )),
            );
        }
        if let Some(g) = self.fires_free_by(w) {
            return (
                0,
                Some((
                    format!("{} permits firing {title} for free", self.st.title(g)),
                    r::FIRING_FOR_FREE,
                )),
            );
        }
        (def.cost, None)
    }

    /// The card carrying `w` when the weapon's own text makes it fire for free there
    /// (`free_on`).
    pub(super) fn free_on_carrier(&self, w: CardIx) -> Option<CardIx> {
        let free_on = &self.st.def(w).weapon.as_ref()?.free_on;
        let Zone::On(holder) = self.st.zone[w] else {
            return None;
        };
        let p = self.st.owner(w);
        free_on
            .iter()
            .any(|f| self.st.matches(holder, f, p))
            .then_some(holder)
    }

    /// The card that permits `w` to fire for free: the character it is on, or a card on
    /// that character (e.g. armor it wears).
    fn fires_free_by(&self, w: CardIx) -> Option<CardIx> {
        let Zone::On(holder) = self.st.zone[w] else {
            return None;
        };
        let p = self.st.owner(w);
        std::iter::once(holder)
            .chain(self.st.cards_on(holder))
            .filter(|&g| g != w && self.st.active(g))
            .find(|&g| {
                self.st
                    .def(g)
                    .find_static(pick!(Static::FiresFree))
                    .is_some_and(|f| self.st.matches(w, f, p))
            })
    }

    /// After `p` fired `w`: a repeating weapon's owner may fire it again at once;
    /// otherwise the other player has the next action of the weapons segment.
    pub(super) fn after_fire(&mut self, ix: usize, p: Side, w: CardIx) {
        let repeats = self
            .st
            .def(w)
            .weapon
            .as_ref()
            .is_some_and(|d| d.repeat.is_some());
        if repeats {
            self.stack[ix].repeating = Some(w);
            self.stack[ix].segment = Some((p, 0));
        } else {
            self.stack[ix].segment = Some((p.other(), 0));
        }
    }

    /// The owner of a repeating weapon just fired decides whether to fire it again.
    pub(super) fn repeat_step(&mut self, ix: usize, p: Side, w: CardIx) -> Flow {
        let next = self.script.peek().cloned();
        let title = self.st.title(w).to_string();
        match next {
            Some(d)
                if d.verb == Verb::Fire
                    && d.by == p
                    && d.step.card.as_deref().and_then(|k| self.st.find(k)) == Some(w) =>
            {
                self.script.take();
                match self.fire_again(ix, &d) {
                    Ok(()) => {}
                    Err(e) => {
                        self.reject(&d, e);
                        self.stop_repeating(ix, p, w, "");
                    }
                }
            }
            Some(d) if d.verb == Verb::Pass && d.by == p => {
                self.script.take();
                self.stop_repeating(ix, p, w, " (states it is not firing again)");
            }
            None => {
                self.need(
                    p,
                    NeedKind::Action,
                    format!("fire {title} again or stop firing it"),
                );
                return Err(Stop::Halt);
            }
            Some(_) => self.stop_repeating(ix, p, w, ""),
        }
        Ok(())
    }

    fn fire_again(&mut self, ix: usize, d: &Decision) -> Result<(), Rejection> {
        let w = self.fire(ix, d)?;
        self.after_fire(ix, d.by, w);
        Ok(())
    }

    fn stop_repeating(&mut self, ix: usize, p: Side, w: CardIx, how: &str) {
        self.stack[ix].repeating = None;
        self.stack[ix].segment = Some((p.other(), 0));
        self.log(
            super::actor(p),
            Event::Pass,
            format!(
                "{} stops firing {}{how}: it may not begin firing again this battle; {} has the next action",
                p.name(),
                self.st.title(w),
                p.other().name()
            ),
            &[r::REPEATING_WEAPONS, cite::WEAPONS_SEGMENT],
        );
    }
}
