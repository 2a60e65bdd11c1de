//! The abilities a card has: its own, and those of the cards its text says
//! it has the abilities of ("this character has the abilities of each
//! non-unique character you have in play"). A borrowed ability's index comes
//! after the card's own, offset by the abilities of every card before its
//! lender, so an index stays the same ability however the board changes.

use super::engine::Engine;
use super::model::Ability;
use super::state::Ix;

impl<'a> Engine<'a> {
    /// Every ability `c` has now, with its index.
    pub fn abilities_of(&self, c: Ix) -> Vec<(usize, &'a Ability)> {
        let stat = self.stat;
        let mut out: Vec<(usize, &'a Ability)> =
            stat.defs[c].abilities.iter().enumerate().collect();
        let lenders = self.st.lenders(stat, c);
        let mut base = stat.defs[c].abilities.len();
        for (x, def) in stat.defs.iter().enumerate() {
            if lenders.contains(&x) {
                out.extend(def.abilities.iter().enumerate().map(|(i, a)| (base + i, a)));
            }
            base += def.abilities.len();
        }
        out
    }

    /// The ability of `c` with this index (as `abilities_of` numbers them).
    pub fn ability(&self, c: Ix, ab: usize) -> &'a Ability {
        let stat = self.stat;
        let own = &stat.defs[c].abilities;
        let mut i = ab.saturating_sub(own.len());
        if ab < own.len() {
            return &own[ab];
        }
        for def in &stat.defs {
            if let Some(a) = def.abilities.get(i) {
                return a;
            }
            i -= def.abilities.len();
        }
        // Indices come from `abilities_of` only.
        &own[ab]
    }
}
