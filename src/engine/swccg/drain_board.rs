//! Force drains and Force loss on the board, beyond initiation (which is in
//! `battle_drain.rs`): Force lost from a named place first (AR Losing Force - From X)
//! and drains that may not be canceled (AR Force Drains May Not Be Modified Or
//! Canceled By Opponent; Force Drains And Canceling Example).

use super::effects::{Applied, side_of};
use super::engine::*;
use super::stack::{ActionKind, Tgt};
use super::state::CardIx;
use super::values::cite;
use crate::engine::swccg::model::{Amount, PileName, Side, Who};
use crate::engine::{Actor, Event};

impl Engine {
    /// "Lose N Force from X": the losing player loses from `from` first, one card at a
    /// time from its top, and only what it cannot give from anywhere else, as they
    /// choose (AR Losing Force - From X).
    pub(super) fn lose_force_from(
        &mut self,
        ix: usize,
        me: Side,
        who: Who,
        amount: Amount,
        from: PileName,
    ) -> Applied {
        let p = side_of(who, me);
        let n = self.amount(ix, &amount, me).unwrap_or(0).max(0);
        if self.no_force_now(p, "lose") {
            return Applied::Done;
        }
        let there = (self.st.pile_len(p, from) as i64).min(n);
        let mut cards = Vec::new();
        for _ in 0..there {
            let Some(c) = self.st.top(p, from) else {
                break;
            };
            self.st.to_pile(c, p, PileName::LostPile);
            self.st.force[p.ix()].lost += 1;
            cards.push(self.name(c));
        }
        let rest = n - there;
        self.log(
            actor(p),
            Event::StateChange,
            format!(
                "{} must lose {n} Force from {} first: {there} from there ({}), {rest} from elsewhere",
                p.name(),
                from.title(),
                if cards.is_empty() {
                    "none".to_string()
                } else {
                    cards.join(", ")
                }
            ),
            &[cite::LOSING_FORCE_FROM_X, cite::LOSING_FORCE],
        );
        let elsewhere = if rest > 0 {
            self.lose_force(p, rest)
        } else {
            0
        };
        if elsewhere < rest && self.outcome.is_none() {
            self.log(
                actor(p),
                Event::StateChange,
                format!(
                    "{} cannot be lost (no cards left in hand or Life Force)",
                    rest - elsewhere
                ),
                &[cite::LOSING_FORCE_FROM_X, cite::LOSING_FORCE],
            );
        }
        Applied::Done
    }

    /// The text that stops the Force drain at stack index `j` from being canceled, if
    /// it is a drain and such text applies to it (a 'react' is not modelled here).
    pub(super) fn drain_not_cancelable(&self, j: usize) -> Option<String> {
        let e = &self.stack[j];
        if !matches!(e.kind, ActionKind::ForceDrain) {
            return None;
        }
        let l = e.targets.iter().find_map(|(k, t)| match (k.as_str(), t) {
            ("at", Tgt::Location(l)) => Some(*l),
            _ => None,
        })?;
        super::battle_board::drain_from_state(&self.st, l, e.actor).not_canceled
    }

    /// Refuses a cancel of a Force drain that may not be canceled; true when refused.
    pub(super) fn refuse_drain_cancel(&mut self, by: usize, j: usize) -> bool {
        let Some(src) = self.drain_not_cancelable(j) else {
            return false;
        };
        let text = format!(
            "{} cannot cancel {}: {src} (the Force drain may not be canceled)",
            self.stack[by].label, self.stack[j].label
        );
        self.log(
            Actor::Rules,
            Event::Result,
            text,
            &[
                cite::NOT_MODIFIED_BY_OPPONENT,
                cite::FORCE_DRAIN_CANCELING_EXAMPLE,
            ],
        );
        true
    }

    /// The Force a drain at `l` by `p` costs, as the board's drain text says now.
    fn drain_cost(&self, p: Side, l: usize) -> super::values::Total {
        super::drain::cost(&super::battle_board::drain_from_state(&self.st, l, p))
    }

    /// A Force drain whose cost `p` cannot pay from the Force Pile is not initiated
    /// (AR Paying Costs; Force Drain).
    pub(super) fn check_drain_cost(&self, p: Side, l: usize) -> Result<(), Rejection> {
        let cost = self.drain_cost(p, l);
        let force = self.st.pile_len(p, PileName::ForcePile) as i64;
        if force < cost.or_zero() {
            return Err(rej(
                format!(
                    "{} has {force} Force and the Force drain at {} costs {}: {cost}",
                    p.name(),
                    self.st.locations[l].title,
                    cost.or_zero()
                ),
                super::rules::PAYING_COSTS,
            ));
        }
        Ok(())
    }

    /// Uses the Force a drain at `l` costs (none when it costs 0).
    pub(super) fn pay_drain_cost(&mut self, p: Side, l: usize) {
        let cost = self.drain_cost(p, l);
        let n = u32::try_from(cost.or_zero()).unwrap_or(0);
        if n > 0 {
            self.log(
                actor(p),
                Event::StateChange,
                format!("{cost}"),
                &[cite::FORCE_DRAIN],
            );
            self.pay_use(p, n, "to initiate the Force drain");
        }
    }

    /// A response whose result cancels the current action cannot be initiated against
    /// a Force drain that may not be canceled: it has no valid target (AR Force Drains
    /// May Not Be Modified Or Canceled By Opponent; Force Drains And Canceling Example).
    pub(super) fn drain_cancel_allowed(
        &self,
        c: CardIx,
        a: usize,
        w: Window,
    ) -> Result<(), Rejection> {
        use crate::engine::swccg::model::{CardRef, Effect};
        let Window::Response(i) = w else {
            return Ok(());
        };
        let cancels = self.st.def(c).abilities[a]
            .effect
            .iter()
            .any(|e| matches!(e, Effect::Cancel(CardRef::Current)));
        match self.drain_not_cancelable(i) {
            Some(src) if cancels => Err(rej(
                format!(
                    "{} cannot be initiated: {src} says the Force drain ({}) may not be canceled",
                    self.name(c),
                    self.stack[i].label
                ),
                cite::NOT_MODIFIED_BY_OPPONENT,
            )),
            _ => Ok(()),
        }
    }
}
