//! Retargeting (AR Targeting - Retargeting; I Have A Bad Feeling About This).
//!
//! A retargeting result changes one primary target of an action on the stack to
//! another valid primary target: a group of cards (targets sharing a `group`) or a
//! single card or location. Secondary targets (the location a group is at) follow the
//! new primary target. A new group may not include any card of the original group,
//! but may include another card at the same location. Only targets already defined
//! when the retargeting card is played can be changed: an action that targets only
//! once it has searched a pile has none yet.

use super::engine::{Engine, Rejection, actor, rej};
use super::model::{CardRef, TargetKind, Verb};
use super::rules as r;
use super::stack::Tgt;
use super::state::CardIx;
use crate::engine::{Actor, Event};

pub const RETARGETING: &str = "swccg.ar.targeting-retargeting";
pub const BAD_FEELING: &str = "swccg.ar.rulings.i-have-a-bad-feeling-about-this";

/// Every section this file cites.
pub const IDS: &[&str] = &[RETARGETING, BAD_FEELING];

/// The primary target being changed, as the retargeted action's target names.
struct Primary {
    /// Target names of the action (several for a group), in ability order.
    names: Vec<String>,
    old: Vec<Tgt>,
}

impl Engine {
    /// The current action (stack entry `i`) has a target defined already.
    pub(super) fn has_defined_targets(&self, c: CardIx, i: usize) -> Result<(), Rejection> {
        let e = &self.stack[i];
        let defined = e
            .targets
            .iter()
            .any(|(_, t)| matches!(t, Tgt::Card(_) | Tgt::Cards(_) | Tgt::Location(_)));
        if defined {
            return Ok(());
        }
        Err(rej(
            format!(
                "{} cannot be initiated: {} has no target defined yet to change (it targets only when its result searches)",
                self.name(c),
                e.label
            ),
            BAD_FEELING,
        )
        .and(r::IMPLIED_TARGET_RULE)
        .and(RETARGETING))
    }

    /// Cards of one target group must be at one location (the group's secondary target).
    pub(super) fn group_at_one_location(
        &self,
        c: CardIx,
        a: usize,
        out: &[(String, Tgt)],
    ) -> Result<(), Rejection> {
        let specs = &self.st.def(c).abilities[a].targets;
        let mut groups: Vec<(&str, Option<usize>)> = Vec::new();
        for (name, t) in out {
            let Some(g) = specs
                .iter()
                .find(|s| s.name == *name)
                .and_then(|s| s.group.as_deref())
            else {
                continue;
            };
            let Tgt::Card(x) = t else { continue };
            let l = self.st.location_of(*x);
            match groups.iter().find(|(n, _)| *n == g) {
                Some((_, l0)) if *l0 != l => {
                    return Err(rej(
                        format!(
                            "{} cannot be initiated: the cards of one target group must be at one location",
                            self.name(c)
                        ),
                        r::CHOOSING_TARGETS,
                    ));
                }
                Some(_) => {}
                None => groups.push((g, l)),
            }
        }
        Ok(())
    }

    /// The retargeting result of the action at `ix`: the action retargeted is `rf`
    /// (`current`: the one it responds to); its player's `retarget` decision names the
    /// new primary target.
    pub(super) fn retarget(
        &mut self,
        ix: usize,
        me: super::model::Side,
        label: &str,
        rf: CardRef,
    ) -> super::effects::Applied {
        use super::effects::Applied;
        let j = match &rf {
            CardRef::Current => self.stack[ix].responding_to,
            CardRef::Target(n) => match self.stack[ix].target(n) {
                Some(Tgt::Entry(j)) => Some(*j),
                _ => None,
            },
            CardRef::This => None,
        };
        let Some(j) = j.filter(|&j| j < self.stack.len() && !self.stack[j].canceled) else {
            self.log(
                Actor::Rules,
                Event::Result,
                format!("{label}: nothing left to retarget"),
                &[RETARGETING],
            );
            return Applied::Done;
        };
        loop {
            let Some(d) = self.take_next_of(me, Verb::Retarget) else {
                let what = format!("the new target of {} (`retarget`)", self.stack[j].label);
                self.need_choice(me, what);
                return Applied::Stop;
            };
            match self.check_retarget(j, &d.step.target) {
                Ok((p, new)) => {
                    self.apply_retarget(j, me, p, new);
                    return Applied::Done;
                }
                Err(e) => self.reject(&d, e),
            }
        }
    }

    /// Which primary target of entry `j` the new targets replace, and the new targets.
    fn check_retarget(&self, j: usize, picks: &[String]) -> Result<(Primary, Vec<Tgt>), Rejection> {
        let e = &self.stack[j];
        let (Some(c), Some(a)) = (e.card, e.ability) else {
            return Err(rej(
                format!("{} has no target to change", e.label),
                RETARGETING,
            ));
        };
        let specs = &self.st.def(c).abilities[a].targets;
        if picks.len() > 1 && picks.iter().any(|k| self.st.find_location(k).is_some()) {
            return Err(rej(
                "a retargeting changes one primary target: a new group of cards or a new location, not both",
                RETARGETING,
            )
            .and(BAD_FEELING));
        }
        if let [one] = picks
            && let Some(l) = self.st.find_location(one)
        {
            let spec = specs
                .iter()
                .find(|s| s.kind == TargetKind::Location)
                .ok_or_else(|| rej(format!("{} targets no location", e.label), RETARGETING))?;
            let old = e.target(&spec.name).cloned();
            if old == Some(Tgt::Location(l)) {
                return Err(rej(
                    "the new target must be another target than the original one",
                    RETARGETING,
                ));
            }
            let primary = Primary {
                names: vec![spec.name.clone()],
                old: old.into_iter().collect(),
            };
            return Ok((primary, vec![Tgt::Location(l)]));
        }
        let cards: Vec<CardIx> = picks.iter().filter_map(|k| self.st.find(k)).collect();
        let first = specs
            .iter()
            .find(|s| s.kind == TargetKind::Card)
            .ok_or_else(|| rej(format!("{} targets no card", e.label), RETARGETING))?;
        let names: Vec<String> = match &first.group {
            Some(g) => specs
                .iter()
                .filter(|s| s.group.as_ref() == Some(g))
                .map(|s| s.name.clone())
                .collect(),
            None => vec![first.name.clone()],
        };
        let old: Vec<Tgt> = names.iter().filter_map(|n| e.target(n).cloned()).collect();
        self.new_cards_ok(c, e.actor, first, &names, &old, &cards)?;
        Ok((
            Primary { names, old },
            cards.into_iter().map(Tgt::Card).collect(),
        ))
    }

    /// New cards for a card (or group) target: valid for the target, none of the
    /// original primary target, on the same side, and (a group) at one location.
    fn new_cards_ok(
        &self,
        c: CardIx,
        performer: super::model::Side,
        spec: &super::model::TargetSpec,
        names: &[String],
        old: &[Tgt],
        cards: &[CardIx],
    ) -> Result<(), Rejection> {
        if cards.is_empty() || cards.len() > names.len() {
            return Err(rej(
                format!("the new target is one to {} cards (`target:`)", names.len()),
                RETARGETING,
            ));
        }
        let olds: Vec<CardIx> = old
            .iter()
            .filter_map(|t| match t {
                Tgt::Card(x) => Some(*x),
                _ => None,
            })
            .collect();
        let side = olds.first().map(|&x| self.st.owner(x));
        let mut loc = None;
        for &x in cards {
            if olds.contains(&x) {
                return Err(rej(
                    format!(
                        "{} was part of the original primary target: the new primary target may not include it",
                        self.name(x)
                    ),
                    RETARGETING,
                ));
            }
            let valid = self.st.active(x)
                && self.st.matches(x, &spec.filter, performer)
                && !self.immune(x, c);
            if !valid || side.is_some_and(|s| s != self.st.owner(x)) {
                return Err(rej(
                    format!(
                        "{} is not an appropriate target of {} on the same side of the Force",
                        self.name(x),
                        self.name(c)
                    ),
                    BAD_FEELING,
                )
                .and(RETARGETING));
            }
            let l = self.st.location_of(x);
            if loc.is_some_and(|l0| Some(l0) != l) {
                return Err(rej(
                    "the cards of one target group must be at one location",
                    r::CHOOSING_TARGETS,
                ));
            }
            loc = l;
        }
        Ok(())
    }

    fn apply_retarget(&mut self, j: usize, me: super::model::Side, p: Primary, new: Vec<Tgt>) {
        let say = |t: &Tgt| self.tgt_name(t);
        let before: Vec<String> = p.old.iter().map(say).collect();
        let after: Vec<String> = new.iter().map(say).collect();
        let e = &mut self.stack[j];
        e.targets.retain(|(n, _)| !p.names.contains(n));
        for (n, t) in p.names.iter().zip(new) {
            e.targets.push((n.clone(), t));
        }
        let label = e.label.clone();
        self.log(
            actor(me),
            Event::StateChange,
            format!(
                "{label} is retargeted: {} instead of {} (secondary targets follow)",
                after.join(", "),
                before.join(", ")
            ),
            &[RETARGETING],
        );
    }
}
