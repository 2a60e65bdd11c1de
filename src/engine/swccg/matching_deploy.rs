//! Deploying a matching pair simultaneously (AR Persona And Simultaneous Deployment -
//! Example; Matching Pairs): "reveal one unpiloted starfighter from hand to take its
//! matching pilot character from Reserve Deck and deploy both simultaneously". Any
//! version of the matching pilot's persona may be found; the two deploy as one action,
//! so the pilot deploys aboard the starfighter wherever it deploys.

use super::effects::Applied;
use super::engine::{Engine, actor};
use super::model::{CardType, Filter, PileName, Side};
use super::stack::{DeployTo, Tgt};
use super::state::CardIx;
use crate::engine::Event;

pub const EXAMPLE: &str = "swccg.ar.persona-and-simultaneous-deployment-example";
pub const SIMULTANEOUS: &str = "swccg.ar.simultaneous-deployment";
pub const MATCHING: &str = "swccg.ar.matching-pairs";

/// Every section this file cites.
pub const IDS: &[&str] = &[EXAMPLE, SIMULTANEOUS, MATCHING];

impl Engine {
    /// The result: reveal a card from hand (`reveal`), take its matching character from
    /// `from`, and deploy both simultaneously to the location target `to`.
    pub(super) fn deploy_matching_pair(
        &mut self,
        ix: usize,
        me: Side,
        reveal: &Filter,
        from: PileName,
        to: &str,
    ) -> Applied {
        let label = self.stack[ix].label.clone();
        let Some(Tgt::Location(l)) = self.stack[ix].target(to).cloned() else {
            self.log(
                actor(me),
                Event::Result,
                format!("{label}: no destination"),
                &[SIMULTANEOUS],
            );
            return Applied::Done;
        };
        let ships: Vec<CardIx> = self
            .st
            .pile(me, PileName::Hand)
            .iter()
            .copied()
            .filter(|&c| self.st.matches(c, reveal, me) && self.unique_ok(c).is_ok())
            .collect();
        let Some(ship) = self.choose_one(me, &ships, "the card to reveal from hand") else {
            return Applied::Stop;
        };
        let pilots: Vec<CardIx> = self
            .st
            .pile(me, from)
            .iter()
            .copied()
            .filter(|&x| {
                self.st.def(x).card_type == CardType::Character
                    && self.unique_ok(x).is_ok()
                    && super::identify::matching(&self.st, ship, x).yes
            })
            .collect();
        if pilots.is_empty() {
            self.log(
                actor(me),
                Event::Result,
                format!(
                    "{label}: no matching pilot of {} can be deployed from {} (a version of its persona on table prevents the others); nothing deploys",
                    self.name(ship),
                    from.title()
                ),
                &[EXAMPLE, super::rules::PERSONA],
            );
            self.reshuffle_note(me, from);
            return Applied::Done;
        }
        let what = format!(
            "the matching pilot of {} from {}",
            self.name(ship),
            from.title()
        );
        let Some(pilot) = self.choose_one(me, &pilots, &what) else {
            return Applied::Stop;
        };
        let why = super::identify::matching(&self.st, ship, pilot).why;
        self.log(
            actor(me),
            Event::Result,
            format!(
                "{label}: {} reveals {} and takes {} ({why}); both deploy simultaneously, so the pilot deploys aboard",
                me.name(),
                self.name(ship),
                self.name(pilot)
            ),
            &[EXAMPLE, MATCHING, SIMULTANEOUS],
        );
        self.reshuffle_note(me, from);
        self.push_deploy(me, ship, DeployTo::Location(l), false, Some(ix));
        self.push_with(me, vec![pilot]);
        Applied::Pushed
    }
}
