//! Devices (AR Ch.9 Devices) and Program Trap (AR Appendix B).
//!
//! Using a device means initiating an action with its game text; its continuous
//! modifiers (Luke's Bionic Hand's power bonus) are not a use. Each character,
//! vehicle or starfighter may use only one device per turn, a squadron three
//! different devices, a capital starship any number; a device may be used any number
//! of times. Program Trap "checks" every destiny draw once, as an automatic action:
//! when the draw equals the number of characters at the droid's site, the droid
//! explodes — it and the characters present with it are lost.

use super::effects::Applied;
use super::engine::*;
use super::state::{CardIx, Zone};
use crate::engine::swccg::model::{CardType, Dest, PileName};
use crate::engine::{Actor, Event};
use serde::Deserialize;

pub const USING_DEVICES: &str = "swccg.ar.devices-using-devices";
pub const PROGRAM_TRAP: &str = "swccg.ar.rulings.program-trap";

/// Every section this module cites.
pub const IDS: &[&str] = &[USING_DEVICES, PROGRAM_TRAP];

/// A number a destiny draw is compared with when it is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DestinyCount {
    /// The characters at the same site as the card this card is deployed on (none
    /// when it is not at a site).
    CharactersAtSite,
}

impl Engine {
    /// The card a card is deployed on.
    fn host(&self, c: CardIx) -> Option<CardIx> {
        match self.st.zone[c] {
            Zone::On(h) => Some(h),
            _ => None,
        }
    }

    /// The value `m` stands for, seen from card `c`.
    pub(super) fn destiny_count(&self, m: DestinyCount, c: CardIx) -> Option<i64> {
        match m {
            DestinyCount::CharactersAtSite => {
                let h = self.host(c).unwrap_or(c);
                let l = self.st.location_of(h)?;
                if self.st.locations[l].geo.kind != Some(crate::engine::swccg::model::LocKind::Site)
                {
                    return None;
                }
                let n = self
                    .cards_at(l)
                    .into_iter()
                    .filter(|&x| self.st.def(x).card_type == CardType::Character)
                    .count();
                Some(n as i64)
            }
        }
    }

    /// The card this action's card is deployed on explodes: it and every character
    /// present with it are lost (Program Trap).
    pub(super) fn explode(&mut self, ix: usize) -> Applied {
        let Some(c) = self.stack[ix].card else {
            return Applied::Done;
        };
        let Some(h) = self.host(c).filter(|&h| self.st.active(h)) else {
            return Applied::Done;
        };
        let here = super::prepositions::present(&self.st, h);
        let with: Vec<CardIx> = self
            .st
            .location_of(h)
            .map(|l| self.cards_at(l))
            .unwrap_or_default()
            .into_iter()
            .filter(|&x| {
                x != h
                    && self.st.def(x).card_type == CardType::Character
                    && super::prepositions::present(&self.st, x) == here
            })
            .collect();
        let by = self.stack[ix].actor;
        let mut names = vec![self.name(h)];
        names.extend(with.iter().map(|&x| self.name(x)));
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{} explodes: {} (present with it) are lost",
                self.name(h),
                names.join(", ")
            ),
            &[PROGRAM_TRAP],
        );
        let mut lost = Vec::new();
        for x in std::iter::once(h).chain(with) {
            if !self.st.on_table(x) {
                continue;
            }
            let carried = self.all_on(x);
            self.place(x, Dest::LostPile, by);
            lost.push(x);
            lost.extend(
                carried
                    .into_iter()
                    .filter(|&y| matches!(self.st.zone[y], Zone::Pile(_, PileName::LostPile))),
            );
        }
        self.push_just_lost(by, lost);
        Applied::Pushed
    }

    /// The card using device `c` (the character, vehicle or starship it is on), and
    /// how many different devices it may use per turn (`None`: any number).
    fn device_user(&self, c: CardIx) -> Option<(CardIx, Option<usize>)> {
        if self.st.def(c).card_type != CardType::Device {
            return None;
        }
        let h = self.host(c)?;
        let d = self.st.def(h);
        let limit = match (d.card_type, d.subtype.as_deref()) {
            (CardType::Starship, Some("capital")) => None,
            (CardType::Starship, Some("squadron")) => Some(3),
            _ => Some(1),
        };
        Some((h, limit))
    }

    /// May device `c` be used now (its user's devices per turn)?
    pub(super) fn device_use_ok(&self, c: CardIx) -> Result<(), Rejection> {
        let Some((h, Some(limit))) = self.device_user(c) else {
            return Ok(());
        };
        let mut used: Vec<CardIx> = self
            .device_uses
            .iter()
            .filter(|(u, _)| *u == h)
            .map(|(_, d)| *d)
            .collect();
        used.dedup();
        if used.contains(&c) || used.len() < limit {
            return Ok(());
        }
        let names = self.names(&used);
        Err(rej(
            format!(
                "{} has already used {names} this turn: it may use {limit} device(s) per turn (continuous modifiers of a device are not a use)",
                self.name(h)
            ),
            USING_DEVICES,
        ))
    }

    /// Record that device `c` is used this turn.
    pub(super) fn note_device_use(&mut self, c: CardIx) {
        if let Some((h, _)) = self.device_user(c) {
            self.device_uses.push((h, c));
        }
    }
}
