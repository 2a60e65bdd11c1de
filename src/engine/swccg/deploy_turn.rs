//! Unique cards deployed this turn (AR Unique, Restricted & Non-Unique: the dots limit
//! "the number of cards of that title and persona that may be played or deployed each
//! turn (even if one is canceled)"): a unique card whose persona was already deployed
//! this turn — the same card returned to hand included — may not deploy again this turn;
//! and the cards deployed simultaneously with a card just deployed.

use super::engine::{Engine, Rejection, rej};
use super::rules as r;
use super::state::CardIx;

impl Engine {
    /// Record a card whose deployment was initiated this turn.
    pub(super) fn note_deployed(&mut self, c: CardIx) {
        self.deployed_turn.push(c);
    }

    /// May unique card `c` deploy, given the cards of its persona deployed this turn?
    pub(super) fn deployed_this_turn_ok(&self, c: CardIx) -> Result<(), Rejection> {
        let def = self.st.def(c);
        if !def.unique {
            return Ok(());
        }
        let mine = super::initiate::personas(def);
        let same = |x: CardIx| {
            self.st.owner(x) == self.st.owner(c)
                && super::initiate::personas(self.st.def(x))
                    .iter()
                    .any(|t| mine.iter().any(|m| m.eq_ignore_ascii_case(t)))
        };
        match self.deployed_turn.iter().find(|&&x| same(x)) {
            Some(&x) => Err(rej(
                format!(
                    "{} may not be deployed: it is unique (•), and {} of that persona was already deployed this turn",
                    self.name(c),
                    if x == c {
                        "this very card".to_string()
                    } else {
                        self.name(x)
                    }
                ),
                r::UNIQUENESS,
            )),
            None => Ok(()),
        }
    }
}

impl Engine {
    /// The cards deployed simultaneously with a just-deployed card (entry `e`) that
    /// the response `ix` may also take: those its trigger's card filter matches (AR
    /// Simultaneous Deployment: "apply the results to both", where both are valid).
    pub(super) fn deployed_with(&self, ix: usize, e: &super::stack::Entry) -> Vec<CardIx> {
        let Some(super::stack::Tgt::Cards(with)) = e.target("with") else {
            return Vec::new();
        };
        let filter = self.stack[ix]
            .card
            .zip(self.stack[ix].ability)
            .and_then(|(c, a)| {
                let t = self.st.def(c).abilities[a].responds_to.as_ref()?;
                Some((self.st.owner(c), t.card.clone()?))
            });
        with.iter()
            .copied()
            .filter(|&x| self.st.on_table(x))
            .filter(|&x| {
                filter
                    .as_ref()
                    .is_none_or(|(me, f)| self.st.matches(x, f, *me))
            })
            .collect()
    }
}
