//! Grabbers (AR Icons - Grabbers). A card with the grabber icon (`stats.icons:
//! [grabber]`) grabs cards and stacks them on itself; a card stacked on a grabber is
//! always supporting. Once stacked on a grabber, that exact card may not be targeted by
//! another grabber, and it cannot be removed from the grabber unless a card says so.
//! An Interrupt grabbed while it is being played has no result. A grabber whose text
//! says "to play any new Interrupt of the same name, player must first stack it here
//! and use +1 Force for each Interrupt in stack" (`grabs_same_title`) stacks such an
//! Interrupt as part of its initiation (it still has its result); when two grabbers
//! claim one card, the player whose turn it is chooses (competing automatic actions).

use super::engine::{Engine, Rejection, actor, rej};
use super::model::{CardState, CardType, PileName, Side};
use super::state::{CardIx, Zone};
use super::statics::Static;
use crate::engine::{Actor, Event};

pub const GRABBERS: &str = "swccg.ar.icons-grabbers";
pub const GRABBERS_EXAMPLE: &str = "swccg.ar.grabbers-an-example";
pub const AUTOMATIC_ACTIONS: &str = "swccg.ar.automatic-actions";
pub const PAYING_COSTS: &str = "swccg.ar.paying-costs";

/// Every section this file cites.
pub const IDS: &[&str] = &[GRABBERS, GRABBERS_EXAMPLE, AUTOMATIC_ACTIONS, PAYING_COSTS];

impl Engine {
    pub(crate) fn is_grabber(&self, c: CardIx) -> bool {
        self.st
            .def(c)
            .stats
            .icons
            .iter()
            .any(|i| i.eq_ignore_ascii_case("grabber"))
    }

    /// The grabber a card is stacked on, if any.
    pub(crate) fn grabbed_by(&self, c: CardIx) -> Option<CardIx> {
        match self.st.zone[c] {
            Zone::On(g) if self.is_grabber(g) => Some(g),
            _ => None,
        }
    }

    /// A grabber may not target a card already stacked on a grabber.
    pub(crate) fn grab_target_ok(&self, c: CardIx, tc: CardIx) -> Result<(), Rejection> {
        if !self.is_grabber(c) {
            return Ok(());
        }
        match self.grabbed_by(tc) {
            Some(g) => Err(rej(
                format!(
                    "{} cannot be initiated: {} is already stacked on {}, a grabber, and may not be targeted by another grabber",
                    self.name(c),
                    self.name(tc),
                    self.name(g)
                ),
                GRABBERS,
            )),
            None => Ok(()),
        }
    }

    /// Stacking the Interrupt being played (the action at stack index `j`) on the
    /// grabber `host`: it is supporting, and that play has no result. Returns false
    /// when this is not such a grab.
    pub(crate) fn grab_from_stack(&mut self, me: Side, c: CardIx, host: CardIx) -> bool {
        if !self.is_grabber(host) || self.st.zone[c] != Zone::Stack {
            return false;
        }
        let Some(j) = self
            .stack
            .iter()
            .position(|e| e.card == Some(c) && matches!(e.kind, super::stack::ActionKind::Play))
        else {
            return false;
        };
        self.st.put(c, Zone::On(host));
        self.st.card_state[c] = CardState::Supporting;
        self.stack[j].grabbed = true;
        self.log(
            actor(me),
            Event::StateChange,
            format!(
                "{} is stacked on {} (a grabber): it is supporting, and {} will have no result",
                self.name(c),
                self.name(host),
                self.stack[j].label
            ),
            &[GRABBERS],
        );
        true
    }

    /// A card on a grabber stays there: nothing removes it unless a card says so.
    pub(crate) fn keep_on_grabber(&mut self, c: CardIx, label: &str) -> bool {
        let Some(g) = self.grabbed_by(c) else {
            return false;
        };
        self.log(
            Actor::Rules,
            Event::Result,
            format!(
                "{label}: {} stays stacked on {} (a card cannot be removed from a grabber unless a card specifically says it can)",
                self.name(c),
                self.name(g)
            ),
            &[GRABBERS],
        );
        true
    }

    /// Grabbers that claim Interrupt `c` as it is played (`grabs_same_title`: a card of
    /// the same name is stacked on them), with the Force each adds.
    fn claims(&self, c: CardIx) -> Vec<(CardIx, usize)> {
        if self.st.def(c).card_type != CardType::Interrupt {
            return Vec::new();
        }
        let names = self.names_of(c);
        (0..self.st.cards.len())
            .filter(|&g| {
                self.st.on_table(g)
                    && self
                        .st
                        .def(g)
                        .has_static(|s| matches!(s, Static::GrabsSameTitle))
            })
            .filter_map(|g| {
                let on = self.st.cards_on(g);
                let same = on
                    .iter()
                    .any(|&x| self.names_of(x).iter().any(|n| names.contains(n)));
                same.then_some((g, on.len()))
            })
            .collect()
    }

    /// A card's names: its title, and the names of a combo card (`identity.names`).
    fn names_of(&self, c: CardIx) -> Vec<String> {
        let d = self.st.def(c);
        let mut v = vec![d.title.to_ascii_lowercase()];
        if d.title.contains(" & ") {
            v.extend(d.identity.names.iter().map(|n| n.to_ascii_lowercase()));
        }
        v
    }

    /// The extra Force playing `c` costs because a grabber claims it (the most any
    /// claim could cost), checked before it is initiated.
    pub(crate) fn grab_cost_ok(&self, p: Side, c: CardIx, base: usize) -> Result<(), Rejection> {
        let extra = self.claims(c).iter().map(|&(_, n)| n).max().unwrap_or(0);
        let have = self.st.pile_len(p, PileName::ForcePile);
        if extra == 0 || base + extra <= have {
            return Ok(());
        }
        Err(rej(
            format!(
                "{} must first be stacked on a grabber using +{extra} Force; {} has {have} in Force Pile",
                self.name(c),
                p.name()
            ),
            GRABBERS,
        )
        .and(PAYING_COSTS))
    }

    /// As `c` is played: stack it on the grabber that claims it (the player whose turn
    /// it is chooses between two) and use +1 Force for each Interrupt there.
    pub(crate) fn grab_on_initiation(&mut self, p: Side, c: CardIx) -> bool {
        let claims = self.claims(c);
        let chosen = match claims.as_slice() {
            [] => return true,
            [one] => Some(one.0),
            _ => {
                let gs: Vec<CardIx> = claims.iter().map(|&(g, _)| g).collect();
                self.log(
                    actor(self.turn),
                    Event::Window,
                    format!(
                        "{} must be stacked on {} at once: competing automatic actions, {} (whose turn it is) chooses",
                        self.name(c),
                        gs.iter().map(|&g| self.name(g)).collect::<Vec<_>>().join(" and "),
                        self.turn.name()
                    ),
                    &[GRABBERS, AUTOMATIC_ACTIONS],
                );
                self.choose_one(self.turn, &gs, "the grabber to stack it on")
            }
        };
        let Some(g) = chosen else {
            return false;
        };
        let n = self.st.cards_on(g).len();
        self.st.put(c, Zone::On(g));
        self.st.card_state[c] = CardState::Supporting;
        self.log(
            actor(p),
            Event::StateChange,
            format!(
                "{} is first stacked on {} as part of its initiation (+{n} Force): it is supporting, and it cannot be grabbed again",
                self.name(c),
                self.name(g)
            ),
            &[GRABBERS, GRABBERS_EXAMPLE],
        );
        self.pay_use(
            p,
            n as u32,
            &format!("to stack {} on {}", self.name(c), self.name(g)),
        );
        true
    }
}
