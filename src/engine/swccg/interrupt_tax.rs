//! A cost another card's text adds to playing an Interrupt during a battle (Draw Their
//! Fire: "During a battle you initiate, each time opponent plays an interrupt, opponent
//! must first use 1 Force"). The Force is used as part of the Interrupt's cost of
//! initiation (AR Paying Costs): a player who cannot pay it cannot play the Interrupt.

use super::engine::*;
use super::rules as r;
use super::stack::ActionKind;
use super::state::CardIx;
use super::statics::{Static, pick};
use crate::engine::swccg::model::{CardType, PileName, Side};
use crate::engine::{Actor, Event};
use serde::Deserialize;

/// "During a battle you initiate, each time opponent plays an interrupt, opponent must
/// first use N Force."
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InterruptTax {
    pub use_force: u32,
    #[serde(default)]
    pub text: String,
}

impl Engine {
    /// The Force the cards on table add to `p` playing Interrupt `c` now, and the cards
    /// responsible: a battle initiated by the card's owner is under way and `p` is the
    /// owner's opponent.
    pub(super) fn interrupt_tax(&self, p: Side, c: CardIx) -> (u32, Vec<CardIx>) {
        if self.st.def(c).card_type != CardType::Interrupt {
            return (0, Vec::new());
        }
        let Some(by) = (0..self.stack.len())
            .rev()
            .find(|&j| matches!(self.stack[j].kind, ActionKind::Battle))
            .map(|j| self.stack[j].actor)
        else {
            return (0, Vec::new());
        };
        if by == p {
            return (0, Vec::new());
        }
        let mut n = 0;
        let mut by_cards = Vec::new();
        for x in 0..self.st.cards.len() {
            if let Some(t) = self.st.def(x).find_static(pick!(Static::InterruptTax))
                && self.st.active(x)
                && self.st.owner(x) == by
            {
                n += t.use_force;
                by_cards.push(x);
            }
        }
        (n, by_cards)
    }

    /// Can `p` pay the tax on top of `base` Force (the Interrupt's own cost)?
    pub(super) fn interrupt_tax_ok(&self, p: Side, c: CardIx, base: u32) -> Result<(), Rejection> {
        let (n, by) = self.interrupt_tax(p, c);
        let have = self.st.pile_len(p, PileName::ForcePile) as u32;
        if n == 0 || base + n <= have {
            return Ok(());
        }
        Err(rej(
            format!(
                "{} must first use {n} more Force to play {} ({}): {} has {have} in Force Pile",
                p.name(),
                self.name(c),
                self.names(&by),
                p.name()
            ),
            r::PAYING_COSTS,
        ))
    }

    /// Pays the tax (a cost of initiation of playing `c`).
    pub(super) fn pay_interrupt_tax(&mut self, p: Side, c: CardIx) {
        let (n, by) = self.interrupt_tax(p, c);
        if n == 0 {
            return;
        }
        self.log(
            Actor::Rules,
            Event::Initiate,
            format!(
                "{}: during a battle its owner initiated, {} must first use {n} Force to play {}",
                self.names(&by),
                p.name(),
                self.name(c)
            ),
            &[r::PAYING_COSTS],
        );
        self.pay_use(p, n, &format!("for {}", self.names(&by)));
    }
}
