//! "For opponent to deploy a character, starship, or vehicle for free (except by that
//! card's own game text), opponent must first use 2 Force": a separate cost on a free
//! deployment (AR Free: "separate costs related to the action still apply"). A card
//! whose deploy cost is 0 does not deploy "for free", and neither does a card made free
//! by its own game text.

use super::engine::{Engine, actor};
use super::model::{Filter, Side};
use super::state::CardIx;
use super::statics::{Static, pick};
use crate::engine::Event;
use serde::Deserialize;

pub const FREE: &str = "swccg.ar.free";

/// A tax on the cards matching `filter` (seen from the taxing card's owner) that deploy
/// for free by another card's text.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FreeTax {
    pub filter: Filter,
    /// The Force that must first be used.
    pub amount: i64,
    #[serde(default)]
    pub text: String,
}

impl Engine {
    /// The Force `p` must first use to deploy `c` for free (by another card's text),
    /// noted in the trace: the highest tax of the active cards that tax it.
    pub(super) fn note_free_tax(&mut self, p: Side, c: CardIx) -> i64 {
        let by = (0..self.st.cards.len())
            .filter(|&x| self.st.active(x))
            .filter_map(|x| {
                let t = self.st.def(x).find_static(pick!(Static::FreeDeployTax))?;
                self.st
                    .matches(c, &t.filter, self.st.owner(x))
                    .then_some((t.amount, x))
            })
            .max_by_key(|&(n, _)| n);
        let Some((n, x)) = by else {
            return 0;
        };
        self.log(
            actor(p),
            Event::StateChange,
            format!(
                "{} deploys for free, but {} must first use {n} Force ({}: a separate cost, which a free deployment still pays)",
                self.name(c),
                p.name(),
                self.name(x)
            ),
            &[FREE, super::rules::PAYING_COSTS],
        );
        n
    }
}
