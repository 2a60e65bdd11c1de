//! Piles given by count (`force_pile: 8`): face-down cards whose identity the
//! scenario does not give. What only counts or moves them (using and activating
//! Force, losing Force from a pile, circulating) works as for any card; a run
//! that needs such a card's identity (drawn into hand or for destiny, revealed,
//! played, tested by a filter) stops there, not modelled, rather than guess
//! (AR Unit of Force: a card in a deck or pile has no aspects to it until a rule
//! looks at it).

use super::engine::Engine;
use super::model::{Board, CardDef, FaceDown, PileName, Side};
use super::rules as r;
use super::state::{Card, CardIx, Zone};
use crate::engine::{Actor, End};

/// The face-down cards of every pile the board gives by count, each keyed
/// `<side>.<pile>#<n>` (from 1, the top card), in board order.
pub(super) fn counted_cards(board: &Board) -> Vec<Card> {
    let mut out = Vec::new();
    for (side, piles) in [(Side::Light, &board.light), (Side::Dark, &board.dark)] {
        for (pile, list) in [
            (PileName::ReserveDeck, &piles.reserve_deck),
            (PileName::ForcePile, &piles.force_pile),
            (PileName::UsedPile, &piles.used_pile),
            (PileName::LostPile, &piles.lost_pile),
        ] {
            for nth in 1..=list.count() {
                out.push(Card {
                    key: format!("{}.{}#{nth}", side.as_str(), pile.as_str()),
                    def: face_down_def(FaceDown { side, pile, nth }),
                });
            }
        }
    }
    out
}

/// A card that is only a unit of Force of its owner: no title, type or value of
/// its own is ever read (the engine refuses first).
fn face_down_def(f: FaceDown) -> CardDef {
    let v = serde_json::json!({
        "title": "face-down card",
        "side": f.side.as_str(),
        "type": "effect",
    });
    let mut def: CardDef =
        serde_json::from_value(v).expect("a title, a side and a type make a card definition");
    def.face_down = Some(f);
    def
}

impl Engine {
    /// Stop the run, not modelled, when it needed the identity of a face-down
    /// card of a counted pile: a filter tested it, or it left the decks and
    /// piles (drawn into hand or for destiny, played, put on table).
    pub(super) fn face_down_met(&mut self) -> bool {
        if matches!(self.outcome, Some(End::NotModelled { .. })) {
            return false;
        }
        let read = self.st.identity_read.take();
        let shown = (0..self.st.cards.len()).find(|&c| {
            self.st.def(c).face_down.is_some()
                && !matches!(self.st.zone[c], Zone::Pile(_, p) if p != PileName::Hand)
        });
        read.or(shown).is_some_and(|c| self.identity_needed(c))
    }

    /// When `c` is a face-down card of a counted pile, its identity is needed and
    /// not given: the run stops, not modelled (true).
    pub(super) fn identity_needed(&mut self, c: CardIx) -> bool {
        let Some(f) = self.st.def(c).face_down else {
            return false;
        };
        let what = f.identity_not_given();
        let depth = self.depth();
        self.trace
            .not_modelled(depth, Actor::Rules, what.clone(), &[r::UNIT_OF_FORCE]);
        self.outcome = Some(End::NotModelled { what });
        true
    }
}
