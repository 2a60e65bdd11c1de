//! Values game text sets on a targeted card ("Target's power and forfeit = 0"), and
//! the `values.<card>.<stat>` observations (AR Choosing Targets: an action only
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

/// The values a `set_value` effect and a `values.` path may name.
pub const STATS: &[&str] = &[
    "power", "ability", "deploy", "forfeit", "destiny", "armor", "maneuver",
];

/// A card's printed value by name (None: the card has no such value).
fn printed(st: &State, c: CardIx, stat: &str) -> Option<i64> {
    let s = &st.def(c).stats;
    match stat {
        "power" => s.power,
        "ability" => s.ability,
        "deploy" => s.deploy,
        "forfeit" => s.forfeit,
        "destiny" => s.destiny,
        "armor" => s.armor,
        "maneuver" => s.maneuver,
        _ => None,
    }
}

/// The value of `stat` of card `c` now: the last reset game text set on it while it
/// stays on table, else its printed value.
pub fn value(st: &State, c: CardIx, stat: &str) -> Option<i64> {
    if st.on_table(c)
        && let Some((_, _, v)) = st
            .resets
            .iter()
            .rev()
            .find(|(x, s, _)| *x == c && s == stat)
    {
        return Some(*v);
    }
    printed(st, c, stat)
}

/// Is `values.<rest>` observable: `<card>.<stat>`?
pub fn observable(b: &super::model::Board, rest: &str) -> Result<(), String> {
    let (card, stat) = rest.split_once('.').unwrap_or((rest, ""));
    if !b.cards.contains_key(card) {
        return Err(format!("`{card}` is not a card in `cards:`"));
    }
    if !STATS.contains(&stat) {
        return Err(format!("`{stat}` is not one of {}", STATS.join(", ")));
    }
    Ok(())
}

/// The `values.<card>.<stat>` observations of every card (null: no such value).
pub fn observations(st: &State) -> Vec<(String, serde_json::Value)> {
    let mut v = Vec::new();
    for c in 0..st.cards.len() {
        for s in STATS {
            v.push((
                format!("values.{}.{s}", st.key(c)),
                serde_json::json!(value(st, c, s)),
            ));
        }
    }
    v
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
