//! Retrieving a specific card ("may retrieve Fly Casual"): the player searches the
//! Lost Pile and, if a copy is there (not necessarily the top one unless the text says
//! so), retrieves it to the Used Pile without changing the order of the other cards.
//! It is still retrieving Force: 1 card, which reductions and taxes on retrieval apply
//! to, and which a reduction may bring to 0 (AR Retrieve; Ap. B Do They Have A Code
//! Clearance?). The player searches first, and pays what a retrieval costs only once
//! a valid card is found and chosen.

use super::effects::Applied;
use super::engine::*;
use super::model::{Filter, PileName, Side};
use super::rules as r;
use crate::engine::Event;
use serde::Deserialize;

/// "Retrieve Fly Casual": the card to retrieve; `top_only` when only the Lost
/// Pile's top card may be it ("if the top card of your Lost Pile is a weapon …,
/// retrieve it").
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetrieveCard {
    pub card: Filter,
    #[serde(default)]
    pub top_only: bool,
    /// "Retrieve a starship into hand": to the hand instead of the Used Pile.
    #[serde(default)]
    pub into_hand: bool,
}

impl Engine {
    pub(super) fn retrieve_card(&mut self, me: Side, label: &str, spec: &RetrieveCard) -> Applied {
        // The reduction is an automatic modifier: it applies before anything else.
        if self.retrieval_reduced(me, 1) == 0 {
            self.log(
                actor(me),
                Event::Result,
                format!(
                    "{label}: the retrieval of 1 card is reduced to 0: {} retrieves nothing",
                    me.name()
                ),
                &[r::RETRIEVE],
            );
            return Applied::Done;
        }
        let pile = self.st.pile(me, PileName::LostPile).to_vec();
        let looked = if spec.top_only {
            &pile[..pile.len().min(1)]
        } else {
            &pile[..]
        };
        let cands: Vec<_> = looked
            .iter()
            .copied()
            .filter(|&c| self.st.matches(c, &spec.card, me))
            .collect();
        let c = match cands.len() {
            0 => {
                self.log(
                    actor(me),
                    Event::Result,
                    format!(
                        "{label}: {} searches the Lost Pile and finds no such card: nothing is retrieved, and nothing is paid to retrieve it",
                        me.name()
                    ),
                    &[r::RETRIEVE],
                );
                return Applied::Done;
            }
            1 => cands[0],
            _ => match self.choose_one(me, &cands, "a card to retrieve from the Lost Pile") {
                Some(c) => c,
                None => return Applied::Stop,
            },
        };
        // Found and chosen: only now is a cost on retrieving paid (or the
        // retrieval canceled).
        if !self.retrieval_paid(me, 1) {
            return Applied::Done;
        }
        let (to, place) = if spec.into_hand {
            (PileName::Hand, "into hand")
        } else {
            (PileName::UsedPile, "to the Used Pile")
        };
        self.st.to_pile(c, me, to);
        self.st.force[me.ix()].retrieved += 1;
        self.log(
            actor(me),
            Event::StateChange,
            format!(
                "{} searches the Lost Pile and retrieves {} (revealed) {place}; the other cards keep their order",
                me.name(),
                self.name(c)
            ),
            &[r::RETRIEVE],
        );
        Applied::Done
    }
}
