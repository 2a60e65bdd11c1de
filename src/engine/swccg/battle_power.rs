//! Responses in a battle's power segment on the board (AR: Battle Destiny, Power
//! Segment - Optional Power Segment Actions): a response to a battle destiny just drawn
//! that adds its destiny number to the responding player's total power in that battle
//! (e.g. Senator Palpatine: "if opponent just drew battle destiny, … add its destiny
//! number to your total power").

use super::effects::Applied;
use super::engine::*;
use super::stack::{ActionKind, BattleDraw};
use super::state::CardIx;
use super::values::cite;
use crate::engine::Event;
use crate::engine::swccg::model::{Effect, Side};

impl Engine {
    /// The battle (stack index) and value of the battle destiny just drawn that the
    /// action at `i` is, if it is one.
    fn battle_destiny_just_drawn(&self, i: usize) -> Option<(usize, Option<i64>)> {
        let e = &self.stack[i];
        let ActionKind::DestinyDrawn { parent, value, .. } = &e.kind else {
            return None;
        };
        (e.battle_draw.is_some() && e.draw_kind == BattleDraw::Battle).then_some((*parent, *value))
    }

    /// The conditions of a response in a battle's power segment: adding a destiny just
    /// drawn to total power needs a battle destiny just drawn.
    pub(super) fn power_response_ok(&self, c: CardIx, a: usize, i: usize) -> Result<(), Rejection> {
        let ab = &self.st.def(c).abilities[a];
        if ab
            .effect
            .iter()
            .any(|e| matches!(e, Effect::AddDrawnDestinyToPower))
            && self.battle_destiny_just_drawn(i).is_none()
        {
            return Err(rej(
                format!(
                    "{} responds to a battle destiny just drawn, and {} is not one",
                    self.name(c),
                    self.stack[i].label
                ),
                cite::BATTLE_DESTINY,
            ));
        }
        Ok(())
    }

    /// The result of adding the battle destiny just drawn (the action responded to) to
    /// `me`'s total power in that battle.
    pub(super) fn add_drawn_destiny(&mut self, ix: usize, me: Side) {
        let found = self.stack[ix]
            .responding_to
            .and_then(|j| self.battle_destiny_just_drawn(j).map(|b| (j, b)));
        let source = self.stack[ix]
            .card
            .map_or_else(|| self.stack[ix].label.clone(), |c| self.name(c));
        let Some((j, (battle, value))) = found else {
            self.log(
                actor(me),
                Event::Result,
                format!("{source}: no battle destiny just drawn; nothing is added"),
                &[cite::BATTLE_DESTINY],
            );
            return;
        };
        let drawn = self.stack[j].label.clone();
        let v = value.unwrap_or(0);
        self.stack[battle]
            .power_adds
            .push((me, v, format!("{source} ({drawn})")));
        self.log(
            actor(me),
            Event::StateChange,
            format!(
                "{source} responds to {drawn} ({v}): {}'s total power +{v}",
                me.name()
            ),
            &[cite::BATTLE_DESTINY, cite::TOTALING_POWER],
        );
    }
}

impl Engine {
    /// A played card's modifier for the rest of the battle it is played in (the
    /// nearest battle on the stack below the action at `ix`).
    pub(super) fn play_battle_modifier(
        &mut self,
        ix: usize,
        me: Side,
        m: &crate::engine::swccg::model::CardModifier,
    ) -> Applied {
        use super::battle::{ModSpec, Target};
        use super::battle_board::battle_name;
        let source = self.stack[ix]
            .card
            .map_or_else(|| self.stack[ix].label.clone(), |c| self.name(c));
        let Some(j) = (0..ix)
            .rev()
            .find(|&j| matches!(self.stack[j].kind, ActionKind::Battle))
        else {
            self.log(
                actor(me),
                Event::Result,
                format!("{source}: no battle to modify"),
                &[cite::MODIFIERS],
            );
            return Applied::Done;
        };
        // A card named by the action's own target (`{power: target}`), or by its key.
        let entry = &self.stack[ix];
        let name = |st: &super::state::State, n: &String| match entry.target(n) {
            Some(super::stack::Tgt::Card(c)) => battle_name(st, *c),
            _ => st.find(n).map_or_else(|| n.clone(), |c| battle_name(st, c)),
        };
        // Whether the battle computes the value: a modifier to one it does not is
        // reported, never carried without effect.
        let (target, computed) = match &m.target {
            Target::Power(n) => (Target::Power(name(&self.st, n)), true),
            Target::Ability(n) => (Target::Ability(name(&self.st, n)), true),
            Target::Forfeit(n) => (Target::Forfeit(name(&self.st, n)), true),
            Target::Immunity(n) => (Target::Immunity(name(&self.st, n)), true),
            Target::Defense(n) => (Target::Defense(name(&self.st, n)), false),
            Target::Armor(n) => (Target::Armor(name(&self.st, n)), false),
            Target::Maneuver(n) => (Target::Maneuver(name(&self.st, n)), false),
            Target::Hyperspeed(n) => (Target::Hyperspeed(name(&self.st, n)), false),
            Target::Landspeed(n) => (Target::Landspeed(name(&self.st, n)), false),
            Target::Deploy(n) => (Target::Deploy(name(&self.st, n)), false),
            Target::Destiny(n) => (Target::Destiny(name(&self.st, n)), false),
            Target::Politics(n) => (Target::Politics(name(&self.st, n)), false),
            t @ (Target::TotalPower
            | Target::BattleDestinies
            | Target::PowerDestinies
            | Target::AttritionDestinies
            | Target::EachBattleDestiny
            | Target::TotalBattleDestiny
            | Target::Attrition
            | Target::BattleDamage
            | Target::BattleCost) => (t.clone(), true),
            t @ (Target::EachDestiny | Target::TotalDestiny) => (t.clone(), false),
        };
        if !computed {
            let what = format!(
                "{source}: {target} {} in battle: a battle does not compute this value",
                m.op
            );
            let depth = self.depth();
            self.trace.not_modelled(
                depth,
                actor(me),
                what.clone(),
                &[cite::MODIFIERS, cite::OPTIONAL_POWER_ACTIONS],
            );
            self.outcome = Some(crate::engine::End::NotModelled { what });
            return Applied::Stop;
        }
        let side = match m.side {
            Some(crate::engine::swccg::model::Who::Opponent) => me.other(),
            None | Some(crate::engine::swccg::model::Who::You) => me,
        };
        let battle = self.stack[j].label.clone();
        self.log(
            actor(me),
            Event::StateChange,
            format!(
                "{source}: {target} {} for the rest of {battle} (locked in)",
                m.op
            ),
            &[cite::MODIFIERS, cite::OPTIONAL_POWER_ACTIONS],
        );
        self.stack[j].played_mods.push(ModSpec {
            source,
            side,
            target,
            op: m.op,
            optional: true,
            cumulative: m.cumulative,
            requires: Vec::new(),
            cite: None,
        });
        Applied::Done
    }

    /// `v` added to the power of `c` for the rest of the battle or attack below `ix`;
    /// a copy of the same card adds nothing more unless `cumulative` (AR Cumulatively).
    pub(super) fn add_power(&mut self, ix: usize, me: Side, c: CardIx, v: i64, cumulative: bool) {
        use super::battle::{ModSpec, OpSpec, Target};
        let source = self.stack[ix]
            .card
            .map_or_else(|| self.stack[ix].label.clone(), |x| self.name(x));
        let Some(j) = (0..ix)
            .rev()
            .find(|&j| matches!(self.stack[j].kind, ActionKind::Battle | ActionKind::Attack))
        else {
            return;
        };
        let name = super::battle_board::battle_name(&self.st, c);
        self.log(
            actor(me),
            Event::StateChange,
            format!(
                "{source}: {v} added to {name}'s power for the rest of {}",
                self.stack[j].label
            ),
            &[cite::MODIFIERS],
        );
        self.stack[j].played_mods.push(ModSpec {
            source,
            side: me,
            target: Target::Power(name),
            op: OpSpec::Add(v),
            optional: true,
            cumulative,
            requires: Vec::new(),
            cite: None,
        });
    }

    /// A weapon whose target is immediately lost: the target (and what is on it) goes
    /// to its owner's Lost Pile.
    pub(super) fn lost_by_weapon(&mut self, ix: usize, t: CardIx) {
        if !self.st.on_table(t) {
            return;
        }
        let weapon = self.stack[ix]
            .card
            .map_or_else(|| self.stack[ix].label.clone(), |c| self.name(c));
        self.lose_with_all_on(t);
        self.log(
            crate::engine::Actor::Rules,
            Event::StateChange,
            format!("{} is hit by {weapon} and immediately lost", self.name(t)),
            &[cite::FIRING_WEAPONS, super::rules::LEAVES_TABLE],
        );
    }
}
