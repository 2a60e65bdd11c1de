//! Uniqueness limits lifted by game text (AR Unique, Restricted & Non-Unique): a card
//! such as Kalit lets extra copies of a unique card be on table; when that condition
//! is removed, the extra copies go to their owner's Used Pile, the owner choosing which.
//! Supporting (stacked) cards do not count.

use super::engine::{Engine, rej};
use super::model::{CardState, PileName, Side};
use super::rules as r;
use super::state::CardIx;
use super::statics::{Static, pick};
use crate::engine::{Actor, Event};

impl Engine {
    /// Does an active card on table lift the uniqueness limit of `c`'s title?
    pub(super) fn copies_allowed(&self, c: CardIx) -> bool {
        let title = self.st.title(c);
        (0..self.st.cards.len()).any(|x| {
            self.st.active(x)
                && self
                    .st
                    .def(x)
                    .static_list(pick!(Static::AllowsCopies))
                    .iter()
                    .any(|t| super::titles::same_title(t, title))
        })
    }

    /// With the stack empty: copies of a unique card on table beyond its limit, no
    /// longer allowed, go to the owner's Used Pile (the owner's `choose` names them).
    /// `false` when the run must stop for that choice.
    pub(super) fn enforce_copies(&mut self) -> bool {
        if !self.anakin_and_vader() {
            return false;
        }
        for c in 0..self.st.cards.len() {
            let d = self.st.def(c);
            if !d.unique
                || !self.st.on_table(c)
                || self.st.card_state[c] == CardState::Supporting
                || self.copies_allowed(c)
            {
                continue;
            }
            let owner = self.st.owner(c);
            let copies: Vec<CardIx> = (0..self.st.cards.len())
                .filter(|&x| {
                    self.st.on_table(x)
                        && self.st.card_state[x] != CardState::Supporting
                        && self.st.owner(x) == owner
                        && super::titles::identical(self.st.def(x), d)
                })
                .collect();
            if copies.len() > 1 {
                return self.remove_extra(owner, copies);
            }
        }
        true
    }

    /// Anakin and Darth Vader are two people and may both be on table; but if one
    /// crosses over so that one player owns both, that player immediately chooses one
    /// of them to be lost (AR Personas - Anakin Skywalker And Darth Vader).
    fn anakin_and_vader(&mut self) -> bool {
        let has = |st: &super::state::State, x: CardIx, p: &str| {
            let d = st.def(x);
            if d.personas.is_empty() {
                d.title.eq_ignore_ascii_case(p)
            } else {
                d.personas.iter().any(|q| q.eq_ignore_ascii_case(p))
            }
        };
        for side in [Side::Light, Side::Dark] {
            let mine = |p: &str| {
                (0..self.st.cards.len())
                    .find(|&x| self.st.active(x) && self.st.owner(x) == side && has(&self.st, x, p))
            };
            let (Some(a), Some(v)) = (mine("Anakin Skywalker"), mine("Darth Vader")) else {
                continue;
            };
            if a == v {
                continue;
            }
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!(
                    "{} owns both {} and {}: he must immediately choose one of them to be lost",
                    side.name(),
                    self.name(a),
                    self.name(v)
                ),
                &[r::ANAKIN_AND_VADER],
            );
            let Some((x, _)) = self.choose_cards(
                side,
                &[a, v],
                1,
                |e| format!("which of {} and {} is lost", e.name(a), e.name(v)),
                |e, _| {
                    let why = format!("choose one of {} and {}", e.name(a), e.name(v));
                    rej(why, r::ANAKIN_AND_VADER)
                },
            ) else {
                return false;
            };
            let x = x[0];
            self.st.to_pile(x, side, PileName::LostPile);
            let text = format!("{} is lost", self.name(x));
            self.log(
                super::actor(side),
                Event::StateChange,
                text,
                &[r::ANAKIN_AND_VADER],
            );
            return true;
        }
        true
    }

    fn remove_extra(&mut self, owner: Side, copies: Vec<CardIx>) -> bool {
        let extra = copies.len() - 1;
        let title = self.name(copies[0]);
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{} copies of {title} are on table, and nothing allows more than one any longer: {} places {extra} in the Used Pile",
                copies.len(),
                owner.name()
            ),
            &[r::UNIQUENESS],
        );
        let Some((chosen, _)) = self.choose_cards(
            owner,
            &copies,
            extra,
            |_| format!("which {extra} copies of {title} go to the Used Pile"),
            |_, _| {
                let why = format!("choose exactly {extra} of the copies of {title} on table");
                rej(why, r::UNIQUENESS)
            },
        ) else {
            return false;
        };
        for x in chosen {
            self.st.to_pile(x, owner, PileName::UsedPile);
            let text = format!("{} is placed in {}'s Used Pile", self.name(x), owner.name());
            self.log(
                super::actor(owner),
                Event::StateChange,
                text,
                &[r::UNIQUENESS],
            );
        }
        true
    }
}
