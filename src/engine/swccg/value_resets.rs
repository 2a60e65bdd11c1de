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

/// A value game text set on a card ("Target's power and forfeit = 0"): the card, the
/// value's name, the number, and the card whose text set it. It is a reset (AR
/// Reset), one of the card's modifiers in the order they occurred: the lowest of
/// competing resets wins, and a value that may not be reduced keeps a reset that would
/// lower it from applying (AR Reduce).
#[derive(Debug, Clone)]
pub struct SetValue {
    pub card: CardIx,
    pub stat: String,
    pub to: i64,
    pub by: String,
}

/// The values game text set on card `c`'s `stat`, in the order they were set, while
/// the card stays on table.
pub fn set_on<'a>(st: &'a State, c: CardIx, stat: &'a str) -> impl Iterator<Item = &'a SetValue> {
    st.resets
        .iter()
        .filter(move |r| r.card == c && r.stat == stat && st.on_table(c))
}

impl Engine {
    /// `set_value`: each card `card` names gets `stats` = `to`; only that card (the
    /// cards aboard it or on it keep their own values).
    pub(super) fn set_value(&mut self, ix: usize, card: CardRef, stats: Vec<String>, to: i64) {
        let me = self.stack[ix].actor;
        let by = self.stack[ix]
            .card
            .map_or_else(|| self.stack[ix].label.clone(), |x| self.name(x));
        for c in self.card_refs(ix, &card) {
            if !self.st.on_table(c) {
                continue;
            }
            for s in &stats {
                self.st.resets.push(SetValue {
                    card: c,
                    stat: s.clone(),
                    to,
                    by: by.clone(),
                });
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
                format!(
                    "{by}: {}'s {} = {to}, a reset{note}",
                    self.name(c),
                    stats.join(" and ")
                ),
                &[RESET, CHOOSING_TARGETS],
            );
        }
    }
}
