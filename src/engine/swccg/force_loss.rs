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
pub const PLACING_CARDS: &str = "swccg.ar.placing-cards-into-a-hand-deck-or-pile";

/// Every section this file cites.
pub const IDS: &[&str] = &[PAYING_COSTS, LOSING_FORCE, PLACING_CARDS];

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
        Ok(())
    }
}

/// Which card of a pile is lost as 1 Force (AR Losing Force: "You may choose cards to be
/// lost from your hand, from the top of your Reserve Deck, Force Pile, or Used Pile").
pub(super) enum LossCard {
    /// This card.
    Card(super::state::CardIx),
    /// The place is empty.
    None,
    /// The player must choose which card of the hand (the text says what is needed).
    Choose(String),
}

impl Engine {
    /// The card `p` loses as 1 Force from `place`: the top card of a deck or pile; from
    /// hand, the next card `p` named (`cards:` of a `lose_force` decision), or the only
    /// card there. With several cards in hand and none named, `p` must choose.
    pub(super) fn card_to_lose(&mut self, p: Side, place: super::model::PileName) -> LossCard {
        use super::model::PileName;
        if place != PileName::Hand {
            return self.st.top(p, place).map_or(LossCard::None, LossCard::Card);
        }
        let hand = self.st.pile(p, PileName::Hand);
        if let Some(k) = self.loss_cards[p.ix()].pop_front()
            && let Some(c) = self.st.find(&k)
            && hand.contains(&c)
        {
            return LossCard::Card(c);
        }
        match hand {
            [] => LossCard::None,
            [only] => LossCard::Card(*only),
            many => LossCard::Choose(format!(
                "which card of {}'s hand to lose as Force (`lose_force` with `cards:`: {})",
                p.name(),
                self.keys(many)
            )),
        }
    }

    /// The hand cards a `lose_force` decision names must be in the player's hand, and
    /// each must have a `hand` place in `from:` (AR Losing Force).
    pub(super) fn check_loss_cards(
        &self,
        d: &super::engine::Decision,
    ) -> Result<(), super::engine::Rejection> {
        use super::model::PileName;
        let hand = self.st.pile(d.by, PileName::Hand);
        for k in &d.step.cards {
            let found = self.st.find(k);
            if !found.is_some_and(|c| hand.contains(&c)) {
                let name = found.map_or_else(|| k.clone(), |c| self.name(c));
                return Err(super::engine::rej(
                    format!(
                        "{name} is not in {}'s hand: only cards in hand are chosen to be lost",
                        d.by.name()
                    ),
                    LOSING_FORCE,
                ));
            }
        }
        Ok(())
    }

    /// Take the named hand cards of a `lose_force` decision for the losses to come.
    pub(super) fn take_loss_cards(&mut self, d: &super::engine::Decision) {
        self.loss_cards[d.by.ix()].extend(d.step.cards.iter().cloned());
    }
}

impl Engine {
    /// `p` loses `n` Force that cannot be reduced (no response may reduce it: it is
    /// not offered as a Force loss to respond to), and each card lost is stacked on
    /// the ability's card, face down: supporting (AR Stacked Cards).
    pub(super) fn lose_force_stack_here(&mut self, ix: usize, p: Side, n: i64) -> Applied {
        use super::model::PileName;
        use super::rules as r;
        let before: Vec<_> = self.st.pile(p, PileName::LostPile).to_vec();
        let in_hand: Vec<_> = self.st.pile(p, PileName::Hand).to_vec();
        let lost = self.lose_force(p, n.max(0));
        self.log(
            actor(p),
            Event::StateChange,
            format!("{} loses {lost} Force (cannot be reduced)", p.name()),
            &[r::LOSING_FORCE, r::UNIT_OF_FORCE],
        );
        let Some(host) = self.stack[ix].card.filter(|&h| self.st.on_table(h)) else {
            return Applied::Done;
        };
        let new: Vec<_> = self
            .st
            .pile(p, PileName::LostPile)
            .iter()
            .copied()
            .filter(|c| !before.contains(c))
            .collect();
        for c in new {
            self.st.put(c, super::state::Zone::On(host));
            self.st.card_state[c] = super::model::CardState::Supporting;
            // A card lost from hand leaves a hidden place as a card lost (discarded
            // face up): both players see it before it is stacked face down. One lost
            // from Life Force goes from a face-down pile to a face-down stack: no one
            // sees it (AR Losing Force; Placing Cards Into A Hand, Deck, Or Pile).
            let how = if in_hand.contains(&c) {
                "lost from hand: first revealed to both players, then stacked face down"
            } else {
                "lost from Life Force: stacked face down, unseen (revealed to no one)"
            };
            let text = format!(
                "{} ({how}) is stacked on {}: supporting",
                self.name(c),
                self.name(host)
            );
            self.log(
                actor(p),
                Event::StateChange,
                text,
                &[r::STACKED_CARDS, r::SUPPORTING, LOSING_FORCE, PLACING_CARDS],
            );
        }
        Applied::Done
    }
}
