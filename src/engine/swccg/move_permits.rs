//! "May not move" and the text that lifts it (AR Movement - Cannot Move): a card whose
//! own text says it may not move may still move while an active card at its site says
//! such cards may ("Rebel Guards at same site may move"). That permission lets it make
//! only the moves it could otherwise make.

use super::engine::Engine;
use super::state::CardIx;

impl Engine {
    /// May `c` not move, by its own text, with nothing at its site lifting that?
    pub(super) fn may_not_move(&self, c: CardIx) -> bool {
        if !self.st.def(c).moves.cannot_move {
            return false;
        }
        let here = self.st.location_of(c);
        !(0..self.st.cards.len()).any(|x| {
            x != c
                && self.st.active(x)
                && here.is_some()
                && self.st.location_of(x) == here
                && self
                    .st
                    .def(x)
                    .moves
                    .lets_move
                    .as_ref()
                    .is_some_and(|f| self.st.matches(c, f, self.st.owner(x)))
        })
    }
}
