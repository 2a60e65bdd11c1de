//! Limits card text puts on playing other cards ("Nabrun Leids and Elis Helrot are
//! limited to owner's move phase and exterior sites"), and an Interrupt's price drawn
//! as destiny during its initiation ("Draw destiny. Use that much Force to
//! 'transport,' or place Interrupt in Lost Pile").
//!
//! A limit holds while the card stating it is active on table, for either player's
//! copies of the cards it names. "Owner's move phase" is the move phase of the player
//! who plays the card; "exterior sites" are any exterior sites (an interior/exterior
//! site is one), whoever's they are: every site the action targets, and the site each
//! card it targets is at, must be one.

use super::engine::*;
use super::model::{Dest, LocKind, Phase, PileName, Side};
use super::rules as r;
use super::stack::Tgt;
use super::state::CardIx;
use super::statics::{Static, pick};
use crate::engine::Event;
use serde::Deserialize;

pub const EXTERIOR_SITES: &str = "swccg.ar.exterior-sites";

/// "<titles> are limited to owner's <phase> and exterior sites."
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayLimit {
    /// The cards it limits, by title.
    pub title: Vec<String>,
    /// Playable only during the move phase (or other phase) of the player playing it.
    #[serde(default)]
    pub owners_phase: Option<Phase>,
    /// Every site targeted, and the site of every card targeted, must be exterior.
    #[serde(default)]
    pub exterior_sites: bool,
}

impl Engine {
    /// May `p` play card `c` with these targets, under every limit of the cards on table?
    pub(super) fn play_limits_ok(
        &self,
        p: Side,
        c: CardIx,
        targets: &[(String, Tgt)],
    ) -> Result<(), Rejection> {
        let title = self.st.def(c).title.clone();
        for x in 0..self.st.cards.len() {
            if !self.st.active(x) {
                continue;
            }
            for lim in self.st.def(x).static_list(pick!(Static::LimitsPlay)) {
                if !lim.title.contains(&title) {
                    continue;
                }
                self.one_limit_ok(p, c, x, lim, targets)?;
            }
        }
        Ok(())
    }

    fn one_limit_ok(
        &self,
        p: Side,
        c: CardIx,
        by: CardIx,
        lim: &PlayLimit,
        targets: &[(String, Tgt)],
    ) -> Result<(), Rejection> {
        let why = |what: String| {
            rej(
                format!("{} is limited by {}: {what}", self.name(c), self.name(by)),
                r::CARD_TEXT,
            )
        };
        if let Some(ph) = lim.owners_phase
            && (self.turn != p || self.phase != ph)
        {
            return Err(why(format!(
                "only during the {} phase of the player playing it, and this is {}'s {} phase",
                ph.as_str(),
                self.turn.name(),
                self.phase.as_str()
            ))
            .and(r::MOVE_PHASE));
        }
        if !lim.exterior_sites {
            return Ok(());
        }
        for (_, t) in targets {
            let (what, locs) = match t {
                Tgt::Location(l) => ("the site it targets", vec![*l]),
                Tgt::Card(x) => (
                    "the site a card it targets is at",
                    self.st.location_of(*x).into_iter().collect(),
                ),
                Tgt::Cards(v) => (
                    "the site a card it targets is at",
                    v.iter().filter_map(|&x| self.st.location_of(x)).collect(),
                ),
                Tgt::Entry(_) | Tgt::Pile(..) => continue,
            };
            for l in locs {
                let geo = &self.st.locations[l].geo;
                if geo.kind != Some(LocKind::Site) || !geo.exterior {
                    return Err(why(format!(
                        "only exterior sites, and {what} ({}) is not one",
                        self.st.locations[l].title
                    ))
                    .and(EXTERIOR_SITES));
                }
            }
        }
        Ok(())
    }

    /// "Draw destiny. Use that much Force to …, or place Interrupt in Lost Pile": the
    /// destiny is drawn as part of the initiation of the action on top of the stack and
    /// its Force used then; a player who cannot use that much places the card in the
    /// Lost Pile, and the action ends. Responses come only after (AR Paying Costs).
    pub(super) fn pay_destiny_price(&mut self, p: Side, c: CardIx) {
        let (card, value) = self.draw_destiny(p);
        if let Some(d) = card
            && self.st.zone[d] == super::state::Zone::Drawn
        {
            self.st.to_pile(d, p, PileName::UsedPile);
        }
        let price = value.unwrap_or(0).max(0);
        self.log(
            actor(p),
            Event::Initiate,
            format!(
                "{} draws destiny for {}'s price (during its initiation): {price}",
                p.name(),
                self.name(c)
            ),
            &[r::PAYING_COSTS, r::INITIATION],
        );
        let have = self.st.pile_len(p, PileName::ForcePile) as i64;
        if price <= have {
            self.pay_use(
                p,
                price as u32,
                &format!("(the destiny drawn) for {}", self.name(c)),
            );
            return;
        }
        self.stack.pop();
        self.log(
            actor(p),
            Event::Result,
            format!(
                "{} cannot use {price} Force ({have} in Force Pile): {} is placed in the Lost Pile and has no result",
                p.name(),
                self.name(c)
            ),
            &[r::PAYING_COSTS, r::CARD_TEXT],
        );
        self.place(c, Dest::LostPile, p);
    }
}
