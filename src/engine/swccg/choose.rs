//! Players' scripted choices: the one way the engine takes a player's next decision of a
//! given kind, checks the cards a `choose` names, rejects it where it stands, or stops the
//! run for the decision it needs.

use super::engine::{Decision, Engine, Rejection};
use super::model::{Side, Verb};
use super::state::CardIx;
use crate::engine::{End, NeedKind};

impl Engine {
    /// The run needs `p`'s choice: it stops here, saying what is needed.
    pub(super) fn need_choice(&mut self, p: Side, what: String) {
        self.need(p, NeedKind::Choice, what);
    }

    /// The run needs `p`'s decision of this kind: it stops here, saying what is needed.
    pub(super) fn need(&mut self, p: Side, kind: NeedKind, what: String) {
        self.outcome = Some(End::NeedsDecision {
            kind,
            player: super::actor(p),
            what,
        });
    }

    /// The next scripted decision when it is `p`'s `verb`, left on the script.
    pub(super) fn next_of(&self, p: Side, verb: Verb) -> Option<Decision> {
        self.script
            .peek()
            .filter(|d| d.by == p && d.verb == verb)
            .cloned()
    }

    /// The next scripted decision when it is `p`'s `verb`, taken off the script.
    pub(super) fn take_next_of(&mut self, p: Side, verb: Verb) -> Option<Decision> {
        let d = self.next_of(p, verb)?;
        self.script.take();
        Some(d)
    }

    /// The card the next decision names when it is `p`'s `choose` (still on the script).
    pub(super) fn next_chosen_card(&self, p: Side) -> Option<(Decision, CardIx)> {
        let d = self.next_of(p, Verb::Choose)?;
        let c = d.step.cards.first().and_then(|k| self.st.find(k))?;
        Some((d, c))
    }

    /// `p`'s `choose` of exactly `n` different cards of `cands`. A `choose` naming any
    /// other card, or another number of cards, is rejected where it stands with `why`
    /// (given the cards it named that are on table or in a pile). With no `choose` of
    /// `p`'s next, the run needs one (`what`) and this gives `None`.
    pub(super) fn choose_cards(
        &mut self,
        p: Side,
        cands: &[CardIx],
        n: usize,
        what: impl FnOnce(&Self) -> String,
        why: impl Fn(&Self, &[CardIx]) -> Rejection,
    ) -> Option<(Vec<CardIx>, Decision)> {
        while let Some(d) = self.take_next_of(p, Verb::Choose) {
            let named: Vec<CardIx> = d
                .step
                .cards
                .iter()
                .filter_map(|k| self.st.find(k))
                .collect();
            let mut distinct = named.clone();
            distinct.sort_unstable();
            distinct.dedup();
            if distinct.len() == n
                && named.len() == d.step.cards.len()
                && named.iter().all(|c| cands.contains(c))
            {
                return Some((named, d));
            }
            let r = why(self, &named);
            self.reject(&d, r);
        }
        let what = what(self);
        self.need_choice(p, what);
        None
    }
}
