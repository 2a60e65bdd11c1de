//! A battle's weapons segment beyond firing, on the board (AR: Weapons Segment):
//! players may perform other top-level actions there (e.g. an Interrupt that makes a
//! card lost), and if all presence is removed from either side during the segment, the
//! battle ends at once; 'hit' cards are then lost immediately (AR: Weapons Segment -
//! Firing Weapons).

use super::battle;
use super::battle_board::{battle_now, cards_at};
use super::engine::*;
use super::stack::{ActionKind, Tgt};
use super::values::cite;
use crate::engine::swccg::model::Side;
use crate::engine::{Actor, Event};

impl Engine {
    /// Whether the battle at stack index `i` is in its weapons segment with nothing
    /// above it: top-level actions may be performed there.
    pub(super) fn in_weapons_segment(&self, i: usize) -> bool {
        matches!(self.stack[i].kind, ActionKind::Battle | ActionKind::Attack)
            && self.stack[i].segment.is_some()
            && i + 1 == self.stack.len()
    }

    /// Whether a scripted decision is a top-level action for a weapons segment: playing
    /// or using a card whose text is a top-level action (not one for the damage segment),
    /// not anchored to a later action.
    pub(super) fn is_weapons_action(&self, d: &Decision) -> bool {
        use crate::engine::swccg::model::{AbilityKind, Verb};
        matches!(d.verb, Verb::Play | Verb::Use)
            && d.step.responding_to.is_none()
            && d.step.after.is_none()
            && d.step
                .card
                .as_deref()
                .and_then(|k| self.st.find(k))
                .is_some_and(|c| {
                    self.st
                        .def(c)
                        .abilities
                        .iter()
                        .any(|ab| ab.kind == AbilityKind::TopLevel && !ab.damage_segment)
                })
    }

    pub(super) fn battle_location(&self, ix: usize) -> Option<usize> {
        self.stack[ix].targets.iter().find_map(|(_, t)| match t {
            Tgt::Location(l) => Some(*l),
            _ => None,
        })
    }

    /// A side with no presence left in the battle at `ix` (AR: Weapons Segment, "if all
    /// presence is removed from either side during the weapons segment, the battle WILL
    /// end immediately").
    fn presence_gone(&self, ix: usize) -> Option<Side> {
        let at = self.battle_location(ix)?;
        let by = self.stack[ix].actor;
        let b = battle_now(
            &self.st,
            at,
            by,
            &self.battled_before(ix),
            &self.stack[ix].hits,
            &self.stack[ix].excluded,
        );
        [by, by.other()]
            .into_iter()
            .find(|&s| !battle::presence_of(&b, s))
    }

    /// Ends the battle at `ix` at once when a side has no presence left; its hit cards
    /// are lost. True when it ended.
    pub(super) fn end_if_no_presence(&mut self, ix: usize) -> bool {
        let Some(s) = self.presence_gone(ix) else {
            return false;
        };
        let label = self.stack[ix].label.clone();
        self.log(
            Actor::Rules,
            Event::Result,
            format!(
                "{label}: {} has no presence left: the battle ends at once",
                s.name()
            ),
            &[cite::WEAPONS_SEGMENT, cite::PRESENCE],
        );
        let here = self
            .battle_location(ix)
            .map(|l| cards_at(&self.st, l))
            .unwrap_or_default();
        let hits: Vec<_> = self.stack[ix].hits.iter().map(|h| h.0).collect();
        for c in hits.into_iter().filter(|c| here.contains(c)) {
            self.lose_with_all_on(c);
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!(
                    "{} (hit) is lost: the battle ended before its damage segment",
                    self.name(c)
                ),
                &[cite::FIRING_WEAPONS, super::rules::LEAVES_TABLE],
            );
        }
        self.numbers
            .push((format!("{label}.ended_early"), serde_json::json!(true)));
        self.resolved.push(label.clone());
        self.stack.pop();
        self.log(
            Actor::Rules,
            Event::Pop,
            format!("{label} comes off the stack"),
            &[super::rules::HOW_THE_STACK_WORKS],
        );
        true
    }
}

impl Engine {
    /// Text of a card that works "during each battle": only while a battle is under way
    /// and the card participates in it (at its location, not excluded, not arrived
    /// after its power segment began).
    pub(super) fn participates_in_battle(&self, c: super::state::CardIx) -> Result<(), Rejection> {
        let name = self.name(c);
        let Some(j) = (0..self.stack.len())
            .rev()
            .find(|&j| matches!(self.stack[j].kind, ActionKind::Battle))
        else {
            return Err(rej(
                format!(
                    "{name}'s text works only during a battle it participates in, and no battle is under way"
                ),
                cite::PARTICIPATING_DURING,
            ));
        };
        let at = self.battle_location(j);
        let here = at.is_some_and(|l| cards_at(&self.st, l).contains(&c));
        let out = super::battle_arrive::is_excluded(&self.st, c, &self.stack[j].excluded)
            || at.is_some_and(|l| {
                super::battle_board::late_arrivals(&self.st, l, &self.stack[j]).contains(&c)
            });
        if here && !out {
            return Ok(());
        }
        let place = at.map_or_else(String::new, |l| {
            format!(" at {}", self.st.locations[l].title)
        });
        Err(rej(
            format!(
                "{name} is not participating in the battle{place}: its \"during each battle\" text cannot be used"
            ),
            cite::PARTICIPATING_DURING,
        ))
    }
}
