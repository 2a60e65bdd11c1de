//! Force loss as an action that can be responded to, and costs that cannot be
//! (AR Paying Costs). A Force loss required by a result ("opponent loses 2 Force") is
//! an action of its own: cards that reduce a Force loss ("If you must lose Force for
//! any reason, reduce the loss by X by using X Force") respond to it. Force lost as a
//! cost of initiation (Blaster Proficiency's "Lose 1 Force to …") is paid in full when
//! the action is initiated: it is no action, and nothing can reduce or substitute it.
//!
//! A Force loss is put on the stack only while some card can respond to one
//! (`responds_to: {event: force_loss}`); otherwise it is carried out at once.

use super::effects::Applied;
use super::engine::{Engine, Flow, actor};
use super::model::{AbilityKind, EventKind, Side};
use super::stack::{ActionKind, Entry};
use crate::engine::Event;

pub const PAYING_COSTS: &str = "swccg.ar.paying-costs";
pub const LOSING_FORCE: &str = "swccg.ar.losing-force";

/// Every section this file cites.
pub const IDS: &[&str] = &[PAYING_COSTS, LOSING_FORCE];

impl Engine {
    /// Can any card respond to a Force loss?
    pub(crate) fn loss_can_be_responded_to(&self) -> bool {
        (0..self.st.cards.len()).any(|c| {
            self.st.def(c).abilities.iter().any(|a| {
                a.kind != AbilityKind::TopLevel
                    && a.responds_to
                        .as_ref()
                        .is_some_and(|t| t.event == EventKind::ForceLoss)
            })
        })
    }

    /// A result's Force loss of `n` for `p`, as an action on the stack.
    pub(super) fn push_force_loss(&mut self, ix: usize, p: Side, n: i64) -> Applied {
        let label = format!("{}: {} loses {n} Force", self.stack[ix].label, p.as_str());
        let mut e = Entry::new(ActionKind::ForceLoss { side: p, amount: n }, p, None, label);
        e.responding_to = Some(ix);
        e.next = p;
        self.stack.push(e);
        self.log(
            actor(p),
            Event::Push,
            format!(
                "{} must lose {n} Force: a Force loss of a result, which can be responded to",
                p.name()
            ),
            &[LOSING_FORCE],
        );
        Applied::Pushed
    }

    /// "Reduce the loss by `x`": the Force loss responded to loses `x` less.
    pub(super) fn reduce_loss(&mut self, ix: usize, x: i64) -> Applied {
        let Some(j) = self.stack[ix].responding_to else {
            return Applied::Done;
        };
        self.stack[j].loss_reduced += x;
        let text = format!("{} is reduced by {x}", self.stack[j].label);
        self.log(
            actor(self.stack[ix].actor),
            Event::StateChange,
            text,
            &[LOSING_FORCE],
        );
        Applied::Done
    }

    /// The Force loss has its result: `amount` less any reduction.
    pub(super) fn force_loss_result(&mut self, ix: usize, p: Side, amount: i64) -> Flow {
        let n = (amount - self.stack[ix].loss_reduced).max(0);
        let lost = self.lose_force(p, n);
        self.log(
            actor(p),
            Event::StateChange,
            format!("{} loses {lost} Force", p.name()),
            &[LOSING_FORCE],
        );
        self.finish(ix);
        Flow::Go
    }
}
