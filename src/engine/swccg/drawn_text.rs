//! The text of a card drawn for destiny (AR Unit of Force): a unit of Force has no
//! aspects, except that "when a card is drawn for destiny, text related to the destiny
//! (or the condition of being 'just drawn') is considered active". Its automatic
//! actions triggered by its own draw (`responds_to: {event: destiny_drawn, this_card:
//! true}`) therefore happen while it is just drawn, e.g. EG-6: "if drawn as a battle
//! destiny where you have less power than opponent, your total power present is
//! doubled".

use super::effects::Applied;
use super::engine::{Engine, actor};
use super::model::{EventKind, Side};
use super::rules as r;
use super::stack::ActionKind;
use super::state::{CardIx, Zone};
use super::values::cite;
use crate::engine::Event;

impl Engine {
    /// Is `c` the card just drawn for destiny at `ix`, with text about its own draw?
    pub(super) fn drawn_text_active(&self, ix: usize, c: CardIx) -> bool {
        let ActionKind::DestinyDrawn { card: Some(x), .. } = &self.stack[ix].kind else {
            return false;
        };
        *x == c
            && self.st.zone[c] == Zone::Drawn
            && self.st.def(c).abilities.iter().any(|ab| {
                ab.responds_to
                    .as_ref()
                    .is_some_and(|t| t.event == EventKind::DestinyDrawn && t.this_card)
            })
    }

    /// "Your total power present is doubled" in the battle below `ix` (only where your
    /// power present is less than the opponent's, with `if_less`): your power present
    /// is added to your total power once more, locked in as it stands now.
    pub(super) fn double_power_present(&mut self, ix: usize, me: Side, if_less: bool) -> Applied {
        let source = self.stack[ix]
            .card
            .map_or_else(|| self.stack[ix].label.clone(), |c| self.name(c));
        let found = (0..ix).rev().find_map(|j| {
            matches!(self.stack[j].kind, ActionKind::Battle)
                .then(|| self.battle_location(j).map(|at| (j, at)))
                .flatten()
        });
        let Some((j, at)) = found else {
            self.log(
                actor(me),
                Event::Result,
                format!("{source}: no battle: nothing is doubled"),
                &[cite::BATTLE_DESTINY],
            );
            return Applied::Done;
        };
        let mut out = self.stack[j].excluded.clone();
        out.extend(super::battle_board::late_arrivals(
            &self.st,
            at,
            &self.stack[j],
        ));
        let b = super::battle_board::battle_now(
            &self.st,
            at,
            self.stack[j].actor,
            &self.battled_before(j),
            &self.stack[j].hits,
            &out,
        );
        let mine = super::battle::power_present(&b, me);
        let theirs = super::battle::power_present(&b, me.other());
        let battle = self.stack[j].label.clone();
        if if_less && mine >= theirs {
            self.log(
                actor(me),
                Event::Result,
                format!(
                    "{source}: {}'s power present {mine} is not less than {}'s {theirs} in {battle}: nothing is doubled",
                    me.name(),
                    me.other().name()
                ),
                &[r::UNIT_OF_FORCE, cite::BATTLE_DESTINY],
            );
            return Applied::Done;
        }
        self.stack[j]
            .power_adds
            .push((me, mine, format!("{source} (power present doubled)")));
        self.log(
            actor(me),
            Event::StateChange,
            format!(
                "{source}, just drawn for battle destiny, compares power: {}'s {mine} against {}'s {theirs}, so {}'s total power present is doubled ({mine} → {}) in {battle}",
                me.name(),
                me.other().name(),
                me.name(),
                mine * 2
            ),
            &[r::UNIT_OF_FORCE, cite::BATTLE_DESTINY, cite::TOTALING_POWER],
        );
        Applied::Done
    }
}
