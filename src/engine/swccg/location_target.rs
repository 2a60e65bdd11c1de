//! A location a card's text targets, chosen when the card was deployed ("Target
//! another system"; AR Targeting). The board gives it on the placed card as
//! `target: <location>`; drain text with `related_to_target: true` ("at locations
//! related to target system") applies only at the sites and sectors related to it.

use super::model::{Board, LocKind, Placed};
use super::state::{CardIx, State};
use crate::engine::BoardError;

/// Each placed card's `target:` names a location of the board, and each placed card
/// whose drain text reads its target is given one.
pub(super) fn check(b: &Board) -> Result<(), BoardError> {
    fn walk(b: &Board, p: &Placed) -> Result<(), BoardError> {
        let key = &p.card.value;
        if let Some(t) = &p.target
            && !b.locations.iter().any(|l| l.name == t.value)
        {
            return Err(BoardError::new(
                t.referenced.line(),
                t.referenced.column(),
                format!(
                    "card `{key}`: target `{}` is not a location on this board",
                    t.value
                ),
            ));
        }
        let reads_target = b
            .cards
            .get(key)
            .is_some_and(|d| d.value.drain.iter().any(|t| t.related_to_target));
        if reads_target && p.target.is_none() {
            return Err(BoardError::new(
                p.card.referenced.line(),
                p.card.referenced.column(),
                format!(
                    "card `{key}`: its text reads the location it targeted when deployed; give it with `target: <location>`"
                ),
            ));
        }
        p.on.iter().try_for_each(|x| walk(b, x))
    }
    b.locations
        .iter()
        .flat_map(|l| l.cards.iter())
        .chain(b.table.iter())
        .try_for_each(|p| walk(b, p))
}

/// Is location `at` a site or sector related to the system card `c` targets?
pub(super) fn related_to_target(st: &State, c: CardIx, at: usize) -> bool {
    let Some(t) = st.location_target[c] else {
        return false;
    };
    let (name, title) = (&st.locations[t].name, &st.locations[t].title);
    let g = &st.locations[at].geo;
    at != t
        && matches!(g.kind, Some(LocKind::Site) | Some(LocKind::Sector))
        && g.starship.is_none()
        && g.system
            .as_ref()
            .is_some_and(|s| s.eq_ignore_ascii_case(name) || s.eq_ignore_ascii_case(title))
}
