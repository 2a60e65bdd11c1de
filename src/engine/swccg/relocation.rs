//! Relocating cards between locations (AR Ch.7 Unlimited - Relocating Cards Between
//! Locations; Movement - moves like a character).
//!
//! A relocation by a card's text (Nabrun Leids, Trap Door, Elis Helrot) is an unlimited
//! move: a card that may not move may not be relocated, so it is not a valid target of
//! an ability that relocates it. A card relocated without changing locations has made
//! no move. Cards that move like a character are not characters: abilities that work on
//! characters (e.g. transporting them with Nabrun Leids) cannot take them. A
//! relocation anywhere in an ability's result counts, in a destiny draw's success or
//! failure branch as at its top level; a card that may not move and is reached
//! anyway (a result naming a card that is not a target) stays where it is.

use super::engine::{Engine, Rejection, rej};
use super::model::{CardRef, CardType, Effect, MovesLike, TargetSpec};
use super::rules as r;
use super::state::CardIx;

impl Engine {
    /// Is `x` refused as the target `spec` of ability `a` of card `c` by the movement
    /// rules? (Checked before the target's filter, so the reason names the rule.)
    pub(super) fn relocation_target(
        &self,
        c: CardIx,
        a: usize,
        spec: &TargetSpec,
        x: CardIx,
    ) -> Option<Rejection> {
        let d = self.st.def(x);
        let wants_characters = spec
            .filter
            .card_type
            .as_ref()
            .is_some_and(|t| t.contains(&CardType::Character));
        if wants_characters
            && d.card_type != CardType::Character
            && d.moves.like == Some(MovesLike::Character)
        {
            return Some(rej(
                format!(
                    "{} moves like a character but is not a character: cards that work on characters ({}) cannot take it",
                    d.title,
                    self.st.title(c)
                ),
                r::MOVES_LIKE_CHARACTER,
            ));
        }
        let relocates = relocates(&self.st.def(c).abilities[a].effect, &spec.name);
        if relocates && self.may_not_move(x) {
            let mut e = rej(
                format!(
                    "{} may not move, so it may not be relocated: a relocation is an unlimited move",
                    d.title
                ),
                r::RELOCATING,
            );
            e.also.push(r::CANNOT_MOVE);
            return Some(e);
        }
        None
    }
}

/// Does any step of `effects`, at any depth, relocate the target `name`?
fn relocates(effects: &[Effect], name: &str) -> bool {
    effects.iter().any(|e| {
        matches!(e, Effect::Relocate { card: CardRef::Target(n), .. } if n == name)
            || e.branches().iter().any(|b| relocates(b, name))
    })
}
