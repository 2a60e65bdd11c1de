//! Reaching an Utinni Effect (AR 'reaching' an Utinni Effect): a target reaches an
//! Utinni Effect deployed on a location when it is present at that location, or in a
//! pilot, passenger or astromech slot of a starship (pilot, driver or passenger slot
//! of a vehicle) present there. A card at a starship's site (its docking bay, below
//! decks) has not reached it. The board names the target (`utinni_target:`); when the
//! run ends, each Utinni Effect on table says whether its target has reached it
//! (`utinni.<effect>.reached`).

use super::engine::Engine;
use super::model::CardType;
use super::rules as r;
use super::state::{CardIx, State, Zone};
use crate::engine::{Actor, Event};

/// Has `t` reached location `l`?
pub fn reaches(st: &State, t: CardIx, l: usize) -> bool {
    if !st.active(t) {
        return false;
    }
    match st.zone[t] {
        Zone::At(x) => x == l,
        Zone::On(s) => {
            matches!(st.def(s).card_type, CardType::Starship | CardType::Vehicle)
                && st.active(s)
                && st.zone[s] == Zone::At(l)
        }
        _ => false,
    }
}

impl Engine {
    /// The Utinni Effects on table and whether their targets have reached them:
    /// (observation path, answer); each answer is a cited trace step.
    pub(super) fn utinni_answers(&mut self) -> Vec<(String, serde_json::Value)> {
        let mut out = Vec::new();
        for u in 0..self.st.cards.len() {
            let Some(key) = self.st.def(u).utinni_target.clone() else {
                continue;
            };
            let (Zone::At(l), Some(t)) = (self.st.zone[u], self.st.find(&key)) else {
                continue;
            };
            let yes = reaches(&self.st, t, l);
            let place = self.st.where_is(t);
            self.log(
                Actor::Rules,
                Event::Result,
                format!(
                    "{} ({}) {} {} on {}: the target is {place}",
                    self.name(t),
                    key,
                    if yes {
                        "has reached"
                    } else {
                        "has not reached"
                    },
                    self.name(u),
                    self.st.locations[l].title
                ),
                &[r::REACHING_UTINNI],
            );
            out.push((
                format!("utinni.{}.reached", self.st.key(u)),
                serde_json::Value::Bool(yes),
            ));
        }
        out
    }
}
