//! Values game text sets on a targeted card ("Target's power and forfeit = 0"), read
//! by the card values (`values.<card>.<stat>`) (AR Choosing Targets: an action only
//! affects the appropriate targets — Lateral Damage resets the forfeit of a starship
//! to zero, but not that of any character aboard).

use super::engine::{Engine, actor};
use super::model::CardRef;
use super::state::{CardIx, State};
use crate::engine::Event;

pub const CHOOSING_TARGETS: &str = "swccg.ar.choosing-targets";
pub const RESET: &str = "swccg.ar.reset";

/// Every section this file cites.
pub const IDS: &[&str] = &[CHOOSING_TARGETS, RESET];

/// The value game text last set on card `c`'s `stat`, while the card stays on table.
pub fn reset_of(st: &State, c: CardIx, stat: &str) -> Option<i64> {
    if !st.on_table(c) {
        return None;
    }
    st.resets
        .iter()
        .rev()
        .find(|(x, s, _)| *x == c && s == stat)
        .map(|(_, _, v)| *v)
}

impl Engine {
    /// `set_value`: each card `card` names gets `stats` = `to`; only that card (the
    /// cards aboard it or on it keep their own values).
    pub(super) fn set_value(&mut self, ix: usize, card: CardRef, stats: Vec<String>, to: i64) {
        let me = self.stack[ix].actor;
        for c in self.card_refs(ix, &card) {
            if !self.st.on_table(c) {
                continue;
            }
            for s in &stats {
                self.st.resets.push((c, s.clone(), to));
            }
            let aboard: Vec<String> = self.st.cards_on(c).iter().map(|&x| self.name(x)).collect();
            let note = if aboard.is_empty() {
                String::new()
            } else {
                format!("; {} aboard keep their own values", aboard.join(", "))
            };
            self.log(
                actor(me),
                Event::StateChange,
                format!("{}'s {} = {to}{note}", self.name(c), stats.join(" and ")),
                &[RESET, CHOOSING_TARGETS],
            );
        }
    }
}
