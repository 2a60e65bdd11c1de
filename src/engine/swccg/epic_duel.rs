//! Epic duels (AR Appendix C, Dueling - Epic Duel).
//!
//! A card that may initiate an epic duel (The Circle Is Now Complete, Vader's Obsession
//! while Epic Duel is on table) is played either as itself (its own text) or as an epic
//! duel; the player declares which (the script's `ability:`). As an epic duel, the
//! card only states who duels (its targets): the duel is carried out with the game text
//! of the Epic Event (`epic_duel:` on that card) — its destiny draws and its results by
//! who loses — and the card's own text (its cost, its results) is ignored.

use super::duel::DuelDef;
use super::effects::Applied;
use super::engine::*;
use super::model::{Effect, Filter};
use super::stack::Tgt;
use crate::engine::{Actor, Event};
use serde::Deserialize;

pub const EPIC_DUEL: &str = "swccg.ar.dueling-epic-duel";

/// Every section this module cites.
pub const IDS: &[&str] = &[EPIC_DUEL];

/// An Epic Event's text for epic duels: each player's destiny draws and the results
/// by the character who loses.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EpicDuelDef {
    /// Destiny draws for each player ("each player draws two destiny").
    pub draws: u32,
    /// "If <character> loses, …", in the order the text gives them.
    #[serde(default)]
    pub if_loses: Vec<IfLoses>,
}

/// "If <loser> loses, <effects>" (the effects name the loser `loser`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IfLoses {
    pub loser: Filter,
    pub effect: Vec<Effect>,
}

/// The effect `epic_duel`: the card initiates an epic duel between these two targets.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EpicDuel {
    pub yours: String,
    pub theirs: String,
}

impl Engine {
    /// The effect `epic_duel`: the duel is carried out with the Epic Event's text.
    pub(super) fn epic_duel(&mut self, ix: usize, spec: EpicDuel) -> Applied {
        let me = self.stack[ix].actor;
        let card = |n: &str| match self.stack[ix].target(n) {
            Some(Tgt::Card(c)) => Some(*c),
            _ => None,
        };
        let (a, b) = (card(&spec.yours), card(&spec.theirs));
        let epic = (0..self.st.cards.len()).find(|&c| {
            self.st.active(c) && self.st.owner(c) == me && self.st.def(c).epic_duel.is_some()
        });
        let (Some(a), Some(b), Some(ev)) = (a, b, epic) else {
            self.log(
                Actor::Rules,
                Event::Result,
                "no Epic Event text for an epic duel on table, or no duelists: no duel",
                &[EPIC_DUEL],
            );
            return Applied::Done;
        };
        let Some(def) = self.st.def(ev).epic_duel.clone() else {
            return Applied::Done;
        };
        let results = |loser: usize| -> Vec<Effect> {
            def.if_loses
                .iter()
                .find(|r| self.st.matches(loser, &r.loser, me))
                .map(|r| r.effect.clone())
                .unwrap_or_default()
        };
        let duel = DuelDef {
            yours: spec.yours.clone(),
            theirs: spec.theirs.clone(),
            draws: Some(def.draws),
            their_draws: None,
            add: Default::default(),
            armed: None,
            if_yours_wins: results(b),
            if_theirs_wins: results(a),
        };
        let text = format!(
            "{} is played as an epic duel: {} and {} duel using the game text of {} only; {}'s own text (its cost and results) is ignored",
            self.name(self.stack[ix].card.unwrap_or(ev)),
            self.name(a),
            self.name(b),
            self.name(ev),
            self.name(self.stack[ix].card.unwrap_or(ev)),
        );
        self.log(actor(me), Event::Result, text, &[EPIC_DUEL]);
        self.duel_begin(ix, duel)
    }
}
