//! Battle modifiers counted "for each" card in the battle ("your total battle destiny
//! is +1 for each character in battle"): the count is taken when the action's result
//! is carried out and then locked in for the rest of the battle (AR Actions - For
//! Each/For Every; Modifiers).

use super::battle::{OpSpec, Target};
use super::engine::*;
use super::model::{CardModifier, Filter, Who};
use super::state::CardIx;
use super::values::cite;
use serde::Deserialize;

/// "+`per` to `target` for each card matching `each` participating in the battle".
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForEachInBattle {
    pub target: Target,
    /// Whose side-wide value it changes: `you` (default) or `opponent`.
    #[serde(default)]
    pub side: Option<Who>,
    pub per: i64,
    /// The cards counted, seen from the player carrying out the action.
    pub each: Filter,
}

impl Engine {
    /// The cards matching `f` (seen from `me`) that participate in the battle under
    /// way, in scenario order.
    fn in_battle_matching(&self, f: &Filter, me: super::model::Side) -> Vec<CardIx> {
        (0..self.st.cards.len())
            .filter(|&c| self.st.matches(c, f, me) && self.participates_in_battle(c).is_ok())
            .collect()
    }

    /// Counts the cards `m.each` selects in the battle and plays the modifier for
    /// their number, locked in for the rest of the battle.
    pub(super) fn play_for_each_in_battle(
        &mut self,
        ix: usize,
        me: super::model::Side,
        m: &ForEachInBattle,
    ) -> super::effects::Applied {
        let counted = self.in_battle_matching(&m.each, me);
        let names: Vec<String> = counted.iter().map(|&c| self.name(c)).collect();
        let n = counted.len() as i64;
        let source = self.stack[ix]
            .card
            .map_or_else(|| self.stack[ix].label.clone(), |c| self.name(c));
        self.log(
            actor(me),
            crate::engine::Event::Result,
            format!(
                "{source}: {} for each of {n} in the battle ({}): {}",
                m.per,
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                },
                m.per * n
            ),
            &[super::conditions::FOR_EACH, cite::MODIFIERS],
        );
        let modifier = CardModifier {
            target: m.target.clone(),
            side: m.side,
            op: OpSpec::Add(m.per * n),
            requires: Vec::new(),
            anywhere: false,
            cumulative: false,
            when: Vec::new(),
            each: None,
        };
        self.play_battle_modifier(ix, me, &modifier)
    }
}
