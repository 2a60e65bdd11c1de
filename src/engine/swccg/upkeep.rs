//! The draw phase and the end of turn's upkeep (AR Ch.8 Drawing Cards; Ch.9 Icons -
//! Maintenance Cards; Unique, Restricted & Non-Unique):
//!
//! - drawing: in your draw phase each card drawn from the Force Pile into hand is a
//!   separate top-level action (`{side: draw}`), so a player may draw, do something
//!   else, and draw again; "draw up to N" (`draw_up_to`) draws 1 to N, as the player
//!   chooses with `{side: draw, amount: k}` (AR Up To: at least 1);
//! - maintenance costs: a mandatory end of turn action of the card's owner, who
//!   maintains (pays and keeps it), recycles (pays and places it in the Used Pile) or
//!   sacrifices it (out of play, no cost; the default when nothing else can be paid);
//! - a unique (•) title is played at most once per turn by both players together,
//!   including titles a card on table makes unique (Grappling Hook).

use super::statics::{Replacement, Static, pick};
use serde::Deserialize;

use super::effects::Applied;
use super::engine::{Decision, Engine, Rejection, Window, actor, rej};
use super::model::{CardType, Cost, Phase, PileName, Side, Verb};
use super::rules as r;
use super::state::{CardIx, Zone};
use super::values::cite;
use crate::engine::{Actor, Event};

/// A maintenance card's options besides sacrificing it (always offered).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaintenanceCost {
    /// Maintain: pay this and the card remains on table.
    #[serde(default)]
    pub maintain: Option<Cost>,
    /// Recycle: pay this and place the card (and cards on it) in the Used Pile.
    #[serde(default)]
    pub recycle: Option<Cost>,
}

fn cost_words(c: &Cost) -> String {
    match (c.use_force, c.lose_force) {
        (u, 0) => format!("use {u} Force"),
        (0, l) => format!("lose {l} Force"),
        (u, l) => format!("use {u} Force and lose {l} Force"),
    }
}

impl Engine {
    // ------------------------------------------------------------ drawing

    /// `{side: draw, amount}` at top level: draw cards one at a time from the Force
    /// Pile into hand, in your own draw phase (each card a separate action).
    pub(super) fn draw_phase_draw(&mut self, d: &Decision, w: Window) -> Result<(), Rejection> {
        let p = d.by;
        if w != Window::TopLevel {
            return Err(rej(
                "drawing cards in your draw phase is a top-level action: not a response",
                r::DRAWING_CARDS,
            ));
        }
        if self.phase != Phase::Draw || self.turn != p {
            return Err(rej(
                format!(
                    "{} draws cards from the Force Pile only during its own draw phase",
                    p.name()
                ),
                r::DRAWING_CARDS,
            ));
        }
        let n = d.step.amount.unwrap_or(1);
        let have = self.st.pile_len(p, PileName::ForcePile) as i64;
        if n < 1 || n > have {
            return Err(rej(
                format!(
                    "{} cannot draw {n}: the Force Pile has {have} card(s)",
                    p.name()
                ),
                r::DRAWING_CARDS,
            ));
        }
        for _ in 0..n {
            self.draw_one(p, PileName::ForcePile, &[r::DRAWING_CARDS, r::DRAW_PHASE]);
        }
        Ok(())
    }

    fn draw_one(&mut self, p: Side, from: PileName, cites: &[&'static str]) {
        let Some(c) = self.st.top(p, from) else {
            return;
        };
        self.st.to_pile(c, p, PileName::Hand);
        self.st.force[p.ix()].drawn += 1;
        self.log(
            actor(p),
            Event::StateChange,
            format!(
                "{} draws {} into hand from the {}",
                p.name(),
                self.name(c),
                from.title()
            ),
            cites,
        );
    }

    /// "Draw up to `count` cards from `from`": the player chooses how many, at least 1
    /// (AR Up To), with a `draw` decision; as many as possible if the pile has fewer.
    pub(super) fn draw_up_to(
        &mut self,
        me: Side,
        label: &str,
        count: u32,
        from: PileName,
    ) -> Applied {
        let have = self.st.pile_len(me, from) as u32;
        let range = super::values::up_to(count, have);
        if have == 0 {
            self.log(
                actor(me),
                Event::Result,
                format!(
                    "{label}: {}'s {} is empty: nothing to draw",
                    me.name(),
                    from.title()
                ),
                &[cite::UP_TO, r::DRAWING_CARDS],
            );
            return Applied::Done;
        }
        loop {
            let Some(d) = self.take_next_of(me, Verb::Draw) else {
                let what = format!(
                    "how many cards to draw for {label} ({}..={})",
                    range.start(),
                    range.end()
                );
                self.need_choice(me, what);
                return Applied::Stop;
            };
            let n = d.step.amount.unwrap_or(1);
            if n < 0 || !range.contains(&(n as u32)) {
                let reason = format!(
                    "{label} draws up to {count}: {} must draw {} to {} (\"up to X\" means at least 1)",
                    me.name(),
                    range.start(),
                    range.end()
                );
                self.reject(&d, rej(reason, cite::UP_TO));
                continue;
            }
            self.log(
                actor(me),
                Event::StateChange,
                format!(
                    "{label}: {} chooses to draw {n} of up to {count} (mandatory: at least 1)",
                    me.name()
                ),
                &[cite::UP_TO, r::DRAWING_CARDS],
            );
            for _ in 0..n {
                self.draw_one(me, from, &[r::DRAWING_CARDS, r::RESULT]);
            }
            return Applied::Done;
        }
    }

    /// Place a card of `me`'s hand (their `choose`) in their pile `to`.
    pub(super) fn place_from_hand(
        &mut self,
        me: Side,
        label: &str,
        to: PileName,
        bottom: bool,
    ) -> Applied {
        let hand = self.st.pile(me, PileName::Hand).to_vec();
        if hand.is_empty() {
            self.log(
                actor(me),
                Event::Result,
                format!("{label}: {}'s hand is empty", me.name()),
                &[r::IMPLIED_TARGET_RULE],
            );
            return Applied::Done;
        }
        let Some(c) = self.choose_one(me, &hand, "a card of your hand to place") else {
            return Applied::Stop;
        };
        self.st.to_pile(c, me, to);
        if bottom {
            self.st.bottom(c, me, to);
        }
        self.log(
            actor(me),
            Event::StateChange,
            format!(
                "{label}: {} places {} from hand on the {} of the {}",
                me.name(),
                self.name(c),
                if bottom { "bottom" } else { "top" },
                to.title()
            ),
            &[r::RESULT],
        );
        Applied::Done
    }

    // ------------------------------------------------------------ maintenance

    /// Can `p` pay `c` now?
    fn can_pay(&self, p: Side, c: &Cost) -> bool {
        let force = self.st.pile_len(p, PileName::ForcePile) as u32;
        let life = [
            PileName::Hand,
            PileName::ReserveDeck,
            PileName::ForcePile,
            PileName::UsedPile,
        ]
        .iter()
        .map(|&x| self.st.pile_len(p, x) as u32)
        .sum::<u32>();
        c.use_force <= force && c.use_force + c.lose_force <= life
    }

    /// A maintenance card's cost is due: its owner maintains, recycles or sacrifices
    /// it (the script's `maintain` / `recycle` / `sacrifice` naming the card).
    pub(super) fn maintenance(&mut self, ix: usize, me: Side, m: &MaintenanceCost) -> Applied {
        let Some(c) = self.stack[ix].card.filter(|&c| self.st.on_table(c)) else {
            return Applied::Done;
        };
        let offered = |v: Verb| match v {
            Verb::Maintain => m.maintain.clone(),
            Verb::Recycle => m.recycle.clone(),
            _ => Some(Cost::default()),
        };
        let payable: Vec<Verb> = [Verb::Maintain, Verb::Recycle]
            .into_iter()
            .filter(|&v| offered(v).is_some_and(|k| self.can_pay(me, &k)))
            .collect();
        if payable.is_empty() {
            self.log(
                actor(me),
                Event::StateChange,
                format!(
                    "{}'s maintenance cost: {} can pay no option, so the card is sacrificed (the default)",
                    self.name(c),
                    me.name()
                ),
                &[r::MAINTENANCE],
            );
            self.sacrifice(me, c);
            return Applied::Done;
        }
        while let Some(d) = self
            .script
            .peek()
            .filter(|d| {
                d.by == me && matches!(d.verb, Verb::Maintain | Verb::Recycle | Verb::Sacrifice)
            })
            .cloned()
        {
            self.script.take();
            if d.step.card.as_deref() != Some(self.st.key(c)) {
                let reason = format!("the maintenance cost due now is {}'s", self.name(c));
                self.reject(&d, rej(reason, r::MAINTENANCE));
                continue;
            }
            let Some(cost) = offered(d.verb) else {
                let reason = format!("{} offers no {} option", self.name(c), d.verb.as_str());
                self.reject(&d, rej(reason, r::MAINTENANCE));
                continue;
            };
            if d.verb != Verb::Sacrifice && !self.can_pay(me, &cost) {
                let reason = format!(
                    "{} cannot {} to {} {}",
                    me.name(),
                    cost_words(&cost),
                    d.verb.as_str(),
                    self.name(c)
                );
                self.reject(&d, rej(reason, r::PAYING_COSTS).and(r::MAINTENANCE));
                continue;
            }
            self.pay_maintenance(me, c, d.verb, &cost);
            return Applied::Done;
        }
        let what = format!(
            "{}'s maintenance cost: maintain, recycle or sacrifice it",
            self.name(c)
        );
        self.need_choice(me, what);
        Applied::Stop
    }

    fn pay_maintenance(&mut self, me: Side, c: CardIx, v: Verb, cost: &Cost) {
        if v == Verb::Sacrifice {
            self.sacrifice(me, c);
            return;
        }
        let paid = self
            .st
            .move_top(me, PileName::ForcePile, PileName::UsedPile, cost.use_force);
        self.st.force[me.ix()].used += i64::from(paid);
        let lost = self.lose_force(me, i64::from(cost.lose_force));
        let what = if v == Verb::Maintain {
            "maintain it: it remains on table until the next maintenance is due"
        } else {
            "recycle it: it (and any cards on it) goes to the Used Pile"
        };
        let paid_words = match (paid, lost) {
            (u, 0) => format!("uses {u} Force"),
            (0, l) => format!("loses {l} Force"),
            (u, l) => format!("uses {u} Force and loses {l} Force"),
        };
        self.log(
            actor(me),
            Event::StateChange,
            format!(
                "{}'s maintenance cost: {} {paid_words} to {what}",
                self.name(c),
                me.name()
            ),
            &[r::MAINTENANCE, r::PAYING_COSTS],
        );
        if v == Verb::Recycle {
            self.leave_for(c, PileName::UsedPile, PileName::UsedPile);
        }
    }

    /// Sacrifice: the card goes out of play; cards on it are lost.
    fn sacrifice(&mut self, me: Side, c: CardIx) {
        self.log(
            actor(me),
            Event::StateChange,
            format!(
                "{} sacrifices {}: it is placed out of play, any cards on it are lost",
                me.name(),
                self.name(c)
            ),
            &[r::MAINTENANCE],
        );
        self.leave_for(c, PileName::OutOfPlay, PileName::LostPile);
    }

    /// A maintenance card leaves the table: a captive it escorts is released; it goes
    /// to `to`, the cards on it to `rest`.
    fn leave_for(&mut self, c: CardIx, to: PileName, rest: PileName) {
        if !self.release_escorted_by(c) {
            return;
        }
        for x in self.all_on(c) {
            let owner = self.st.owner(x);
            self.st.to_pile(x, owner, rest);
        }
        let owner = self.st.owner(c);
        self.st.to_pile(c, owner, to);
    }

    // ------------------------------------------------------------ unique per turn

    /// Is `c`'s title unique now: printed so, or made unique by a card on table?
    fn unique_now(&self, c: CardIx) -> Option<String> {
        if self.st.def(c).unique {
            return Some("it is unique (•)".into());
        }
        let title = self.st.title(c);
        let grabbed = |x: CardIx| {
            self.st
                .def(x)
                .has_static(|s| matches!(s, Static::MakesStackedUnique))
                && (0..self.st.cards.len()).any(|s| {
                    self.st.zone[s] == Zone::On(x)
                        && self.st.def(s).card_type == CardType::Interrupt
                        && super::titles::same_title(self.st.title(s), title)
                })
        };
        (0..self.st.cards.len())
            .find(|&x| {
                self.st.active(x)
                    && (self
                        .st
                        .def(x)
                        .static_list(pick!(Static::MakesUnique))
                        .iter()
                        .any(|t| super::titles::same_title(t, title))
                        || grabbed(x))
            })
            .map(|x| format!("{} makes it unique (•)", self.name(x)))
    }

    /// A unique title may be played once per turn, by both players together (AR Unique,
    /// Restricted & Non-Unique: "even if one is canceled … or placed in the Used Pile").
    pub(super) fn unique_this_turn_ok(&self, c: CardIx) -> Result<(), Rejection> {
        if self.st.def(c).card_type != CardType::Interrupt {
            return Ok(());
        }
        let Some(why) = self.unique_now(c) else {
            return Ok(());
        };
        let title = self.st.title(c);
        if let Some(&x) = self
            .played_turn
            .iter()
            .find(|&&x| x != c && super::titles::same_title(self.st.title(x), title))
        {
            let e = rej(
                format!(
                    "{} may not be played: {why}, and a copy ({}) was already played this turn (it is still {}'s turn for all purposes)",
                    self.name(c),
                    self.st.key(x),
                    self.turn.name()
                ),
                r::UNIQUENESS,
            );
            return Err(if self.st.def(c).unique {
                e
            } else {
                e.and(r::GRAPPLING_HOOK)
            });
        }
        Ok(())
    }

    /// Record an Interrupt played this turn.
    pub(super) fn note_played(&mut self, c: CardIx) {
        if self.st.def(c).card_type == CardType::Interrupt {
            self.played_turn.push(c);
        }
    }

    /// Does `p` lose no Force to `source` (a card on table: "you lose no Force to …")?
    pub(super) fn protected_from_loss(&self, p: Side, source: Option<CardIx>) -> Option<CardIx> {
        let title = self.st.title(source?).to_string();
        (0..self.st.cards.len()).find(|&x| {
            self.st.owner(x) == p
                && self.st.active(x)
                && self
                    .st
                    .def(x)
                    .find_replacement(pick!(Replacement::NoLossFrom))
                    .is_some_and(|ts| ts.iter().any(|t| super::titles::same_title(t, &title)))
        })
    }

    /// Note that `p` loses no Force to the action at `ix` (its card's text protects them).
    pub(super) fn note_protected(&mut self, ix: usize, p: Side, by: CardIx) {
        let text = format!(
            "{} loses no Force to {}: {}'s game text protects them",
            p.name(),
            self.stack[ix].label,
            self.name(by)
        );
        self.log(Actor::Rules, Event::StateChange, text, &[r::LOSING_FORCE]);
    }
}
