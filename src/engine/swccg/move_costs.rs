//! Game text that makes moving to a location cost more (AR Ch.7 Movement - costs +X to
//! move/moves for free): it affects every form of movement to that location that has a
//! cost (landspeed, shuttling, Docking Bay Transit, location movement text), but a move
//! that is free stays free ("free" cannot be modified), a move where the location does
//! not change is not a move "to" it, and cards carried aboard the card that moves are
//! not moving at all.

use super::engine::Engine;
use super::movement::Plan;
use super::rules as r;
use super::state::{CardIx, Zone};
use crate::engine::Event;

impl Engine {
    /// Add every "+X to move here" of active cards at the destination to `plan`.
    pub(super) fn surcharge(&self, c: CardIx, plan: &mut Plan) {
        let st = &self.st;
        let to = match plan.to {
            Zone::At(l) => Some(l),
            Zone::On(h) => st.location_of(h),
            _ => None,
        };
        let Some(l) = to else {
            return;
        };
        if st.location_of(c) == Some(l) {
            return;
        }
        for x in 0..st.cards.len() {
            if x == c || !st.active(x) || st.location_of(x) != Some(l) {
                continue;
            }
            let Some(t) = st.def(x).moves.to_here.as_ref() else {
                continue;
            };
            if st.matches(c, &t.filter, st.owner(x)) {
                plan.cost += t.add;
                plan.surcharged_by.push(x);
            }
        }
    }

    /// Say which cards added to a move's cost.
    pub(super) fn log_surcharge(&mut self, p: super::model::Side, c: CardIx, plan: &Plan) {
        for &x in &plan.surcharged_by {
            let add = self.st.def(x).moves.to_here.as_ref().map_or(0, |t| t.add);
            let text = format!(
                "{} adds {add} to the cost of {}'s move to its location (the move costs {} Force)",
                self.st.title(x),
                self.st.title(c),
                plan.cost
            );
            self.log(super::actor(p), Event::Initiate, text, &[r::MOVEMENT_COSTS]);
        }
    }
}
