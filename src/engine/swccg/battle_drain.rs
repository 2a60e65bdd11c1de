//! Battles and Force drains started by the script (`battle`, `force_drain` with `at:`):
//! their conditions (phase, presence, control), per-turn limits, costs, and the action
//! put on the stack, where it can be responded to and canceled like any other.

use super::engine::*;
use super::rules as r;
use super::stack::{ActionKind, Entry, Tgt};
use super::state::CardIx;
use crate::engine::Event;
use crate::engine::swccg::model::{Phase, PileName, Side, Verb};

/// A battle or Force drain initiated this turn at a location.
#[derive(Debug, Clone)]
pub(super) struct AtLocation {
    pub(super) location: usize,
    pub(super) label: String,
    /// The cards that participate from the moment it is initiated (AR: Battle, Force
    /// Drain): each battles, or Force drains, only once per turn.
    pub(super) cards: Vec<CardIx>,
}

/// The Force a battle costs to initiate at `l` (AR: Battle, "uses 1 Force to initiate
/// battle"), with the `battle_cost` modifiers of the cards that apply there.
fn battle_cost(st: &super::state::State, l: usize, p: Side) -> super::values::Total {
    super::battle_board::battle_cost(st, l, p)
}

impl Engine {
    /// Active cards at location `l`, with the cards on them.
    pub(super) fn cards_at(&self, l: usize) -> Vec<CardIx> {
        super::battle_board::cards_at(&self.st, l)
    }

    /// Presence (AR: Presence) of `p` at `l`, as Force drains and battles read it: total
    /// ability of 1 or more (permanent pilots included), or a card with the Presence icon
    /// there. Undercover spies give no presence.
    pub(super) fn has_presence(&self, p: Side, l: usize) -> bool {
        super::drain::has_presence(
            &super::battle_board::drain_from_state(&self.st, l, p).cards,
            p,
        )
    }

    fn location_named(&self, d: &Decision) -> Result<usize, Rejection> {
        let what = d.verb.as_str();
        let Some(k) = d.step.at.as_deref() else {
            return Err(rej(
                format!("`{what}` names its location with `at:`"),
                r::CHOOSING_TARGETS,
            ));
        };
        self.st
            .find_location(k)
            .ok_or_else(|| rej(format!("no location {k}"), r::CHOOSING_TARGETS))
    }

    /// Can `p` initiate the battle or drain `d` now? Returns the location.
    pub(super) fn check_battle_or_drain(
        &self,
        d: &Decision,
        w: Window,
    ) -> Result<usize, Rejection> {
        let p = d.by;
        let battle = d.verb == Verb::Battle;
        let l = self.location_named(d)?;
        let title = &self.st.locations[l].title;
        let (phase, phase_rule, what) = if battle {
            (Phase::Battle, r::BATTLE_PHASE, "battle")
        } else {
            (Phase::Control, r::CONTROL_PHASE, "Force drain")
        };
        if let Window::Response(i) = w {
            return Err(rej(
                format!(
                    "initiating a {what} is a top-level action; it cannot respond to {}",
                    self.stack[i].label
                ),
                r::THE_STACK,
            ));
        }
        if self.turn != p || self.phase != phase {
            return Err(rej(
                format!(
                    "{} may initiate a {what} only during their own {} phase",
                    p.name(),
                    phase.as_str()
                ),
                phase_rule,
            ));
        }
        let done = if battle { &self.battles } else { &self.drains };
        if let Some(prior) = done.iter().find(|x| x.location == l) {
            if self.canceled.contains(&prior.label) {
                return Err(rej(
                    format!(
                        "the {what} at {title} ({}) was canceled this turn; an action limited to once per turn that was canceled may not be initiated again that turn",
                        prior.label
                    ),
                    r::CANCELING,
                ));
            }
            return Err(if battle {
                rej(
                    format!(
                        "{} already battled at {title} this turn ({}); you may battle more than once during a turn, but not at the same location",
                        p.name(),
                        prior.label
                    ),
                    r::BATTLE,
                )
            } else {
                rej(
                    format!(
                        "{} already Force drained at {title} this turn ({}); each location may be drained once during your control phase",
                        p.name(),
                        prior.label
                    ),
                    r::FORCE_DRAIN,
                )
            });
        }
        if !battle {
            let drained: Vec<CardIx> = self.drains.iter().flat_map(|x| x.cards.clone()).collect();
            if let Some(&c) = self
                .participants(false, l, Some(p))
                .iter()
                .find(|c| drained.contains(c))
            {
                return Err(rej(
                    format!(
                        "{} already participated in a Force drain this turn: {} cannot Force drain at {title}",
                        self.st.title(c),
                        p.name()
                    ),
                    r::FORCE_DRAIN,
                ));
            }
        }
        if !battle
            && let Some(why) = super::drain::prevented_by_spy(
                &super::battle_board::drain_from_state(&self.st, l, p),
            )
        {
            return Err(rej(why, super::values::cite::FORCE_DRAIN_CANCELING_EXAMPLE));
        }
        let mine = self.has_presence(p, l);
        let theirs = self.has_presence(p.other(), l);
        if battle {
            self.battle_prevented_by_text(l, "battle")?;
            if !mine || !theirs {
                let who = if mine { p.other() } else { p };
                return Err(rej(
                    format!(
                        "{} has no presence at {title}: a battle occurs only where both players have presence",
                        who.name()
                    ),
                    r::BATTLE,
                ));
            }
            self.afford_battle(p, &battle_cost(&self.st, l, p))?;
        } else if !super::drain::controls_to_drain(
            &super::battle_board::drain_from_state(&self.st, l, p),
            p,
        ) {
            let why = if mine {
                format!("{} has presence there too", p.other().name())
            } else {
                format!("{} has no presence there", p.name())
            };
            return Err(rej(
                format!(
                    "{} does not control {title} ({why}); a Force drain is initiated only at a location you control",
                    p.name()
                ),
                r::CONTROL,
            ));
        }
        if !battle {
            self.check_drain_cost(p, l)?;
        }
        Ok(l)
    }

    /// Initiate a battle or Force drain: record it for the turn's limits, put it on the
    /// stack and pay its cost.
    pub(super) fn initiate_battle_or_drain(
        &mut self,
        d: &Decision,
        w: Window,
    ) -> Result<(), Rejection> {
        if d.verb == Verb::Battle
            && let Some(besieged) = self.besieged_battle(d, w)
        {
            return besieged;
        }
        let l = self.check_battle_or_drain(d, w)?;
        let p = d.by;
        let battle = d.verb == Verb::Battle;
        let label = d
            .step
            .label
            .clone()
            .unwrap_or_else(|| format!("{}_{}", d.verb.as_str(), self.st.locations[l].name));
        let kind = if battle {
            ActionKind::Battle
        } else {
            ActionKind::ForceDrain
        };
        self.record_battle_or_drain(p, battle, l, &label);
        let mut e = Entry::new(kind, p, None, label.clone());
        e.targets.push(("at".into(), Tgt::Location(l)));
        self.stack.push(e);
        let title = self.st.locations[l].title.clone();
        let (text, cite) = if battle {
            (
                format!("{} initiates a battle at {title} ({label})", p.name()),
                r::INITIATE_BATTLE,
            )
        } else {
            (
                format!("{} initiates a Force drain at {title} ({label})", p.name()),
                r::FORCE_DRAIN,
            )
        };
        self.log(actor(p), Event::Push, text, &[r::INITIATION, cite]);
        if battle {
            self.pay_battle_cost(p, l);
        } else {
            self.pay_drain_cost(p, l);
        }
        Ok(())
    }

    /// A battle or drain at `l` counts against the turn's limits from its initiation,
    /// even if it is later canceled.
    pub(super) fn record_battle_or_drain(&mut self, by: Side, battle: bool, l: usize, label: &str) {
        let cards = self.participants(battle, l, (!battle).then_some(by));
        let v = if battle {
            &mut self.battles
        } else {
            &mut self.drains
        };
        v.push(AtLocation {
            location: l,
            label: label.to_string(),
            cards,
        });
    }

    /// Characters, vehicles, starships, weapons and devices at `l` (of `side` only, when
    /// given) that would participate in a battle or drain there.
    fn participants(&self, battle: bool, l: usize, side: Option<Side>) -> Vec<CardIx> {
        use crate::engine::swccg::model::CardType as T;
        self.cards_at(l)
            .into_iter()
            .filter(|&c| side.is_none_or(|s| self.st.owner(c) == s))
            .filter(|&c| {
                let t = self.st.def(c).card_type;
                matches!(t, T::Character | T::Vehicle | T::Starship)
                    || (!battle && matches!(t, T::Weapon | T::Device))
            })
            .collect()
    }

    /// Cards that battled this turn before the battle at stack index `ix`.
    pub(super) fn battled_before(&self, ix: usize) -> Vec<CardIx> {
        let label = &self.stack[ix].label;
        self.battles
            .iter()
            .take_while(|b| &b.label != label)
            .flat_map(|b| b.cards.iter().copied())
            .collect()
    }

    /// Could `p` initiate any battle or Force drain now (top level)?
    pub(super) fn can_battle_or_drain(&self, p: Side) -> bool {
        let verb = match self.phase {
            Phase::Battle => Verb::Battle,
            Phase::Control => Verb::ForceDrain,
            _ => return false,
        };
        if self.turn != p {
            return false;
        }
        (0..self.st.locations.len()).any(|l| {
            let step = crate::engine::swccg::model::Step {
                at: Some(self.st.locations[l].name.clone()),
                ..Default::default()
            };
            let d = Decision {
                at: crate::engine::At::default(),
                by: p,
                verb,
                step,
            };
            self.check_battle_or_drain(&d, Window::TopLevel).is_ok()
        })
    }
}

impl Engine {
    /// `p`'s Force Pile holds enough to pay `cost`, the cost of initiating a battle.
    pub(super) fn afford_battle(
        &self,
        p: Side,
        cost: &super::values::Total,
    ) -> Result<(), Rejection> {
        let force = self.st.pile_len(p, PileName::ForcePile) as i64;
        if force >= cost.or_zero() {
            return Ok(());
        }
        Err(rej(
            format!(
                "{} has {force} Force and initiating battle costs {}: {cost}",
                p.name(),
                cost.or_zero()
            ),
            r::PAYING_COSTS,
        ))
    }
}
