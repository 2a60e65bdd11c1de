//! Modifiers to the destiny draws of a named card's actions ("Add 4 to each player's
//! destiny draw for Sense and Alter"), and a card's immunity, while it is being
//! played, to the opponent's cards of a type ("Immune to opponent's Objective"): an
//! immune card is not affected by them (AR Actions - Immune; Modifiers).

use super::battle::{OpSpec, to_op};
use super::engine::*;
use super::model::{CardType, Filter, Side, Who};
use super::state::CardIx;
use super::statics::{Static, pick};
use super::values::{Base, Modifier, Rules, cite, compute};
use serde::Deserialize;

pub const ACTIONS_IMMUNE: &str = "swccg.ar.actions-immune";

/// Every ID this module cites beyond `rules`.
pub const IDS: &[&str] = &[ACTIONS_IMMUNE];

/// "Add 4 to each player's destiny draw for Sense and Alter": while the card with
/// this text is active on table, each destiny drawn for an action of a card matching
/// `card` (by the players `whose` says; every player when not given) is modified.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DestinyFor {
    pub card: Filter,
    pub op: OpSpec,
    #[serde(default)]
    pub whose: Option<Who>,
}

impl Engine {
    /// The destiny `value` drawn by `p` for the action at `parent`, with the
    /// modifiers the cards on table give to destiny draws for that action's card.
    pub(super) fn destiny_for_card(
        &mut self,
        parent: usize,
        p: Side,
        value: Option<i64>,
    ) -> Option<i64> {
        let (Some(v), Some(played)) = (value, self.stack.get(parent).and_then(|e| e.card)) else {
            return value;
        };
        let mut mods = Vec::new();
        for t in 0..self.st.cards.len() {
            if !self.st.active(t) || !self.st.on_table(t) {
                continue;
            }
            for d in self.st.def(t).static_list(pick!(Static::DestinyFor)) {
                let whose = d.whose.map(|w| match w {
                    Who::You => self.st.owner(t),
                    Who::Opponent => self.st.owner(t).other(),
                });
                if whose.is_some_and(|s| s != p)
                    || !self.st.matches(played, &d.card, self.st.owner(t))
                {
                    continue;
                }
                mods.push((t, d.op));
            }
        }
        if mods.is_empty() {
            return value;
        }
        let mut applied = Vec::new();
        for (t, op) in mods {
            if let Some(kind) = self.immune_to_owner_of(played, t) {
                let text = format!(
                    "{} is immune to opponent's {kind} while being played: {}'s {op} to its destiny draw does not apply",
                    self.name(played),
                    self.name(t)
                );
                self.log(
                    actor(p),
                    crate::engine::Event::Result,
                    text,
                    &[ACTIONS_IMMUNE, cite::MODIFIERS],
                );
                continue;
            }
            applied.push(Modifier::new(self.name(t), to_op(op)));
        }
        if applied.is_empty() {
            return value;
        }
        let total = compute(
            &format!("{}'s destiny draw for {}", p.name(), self.name(played)),
            &Base::of("destiny", v),
            &applied,
            Rules::default(),
        );
        self.log(
            actor(p),
            crate::engine::Event::Result,
            format!("{total}"),
            &total.cites(),
        );
        total.value
    }

    /// The type of `source` that `c` is immune to as its opponent's card
    /// ("Immune to opponent's Objective"), if it is.
    fn immune_to_owner_of(&self, c: CardIx, source: CardIx) -> Option<&'static str> {
        let kind = self.st.def(source).card_type;
        (self.st.owner(source) != self.st.owner(c)
            && self
                .st
                .def(c)
                .static_list(pick!(Static::ImmuneToOpponents))
                .contains(&kind))
        .then(|| kind.as_str())
        .map(|k| match kind {
            CardType::Objective => "Objective",
            _ => k,
        })
    }
}
