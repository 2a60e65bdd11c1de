//! "Where present am I, battles and attacks happen not unless present a Dark Side
//! character of ability > 3 there is": a card present at a site (standing there, not
//! aboard a starship or vehicle) stops every player from initiating a battle or an
//! attack there, unless a card matching `unless_present` is present there too (AR
//! Where Present; Present).

use super::engine::{Engine, Rejection, rej};
use super::model::{Filter, LocKind};
use super::state::Zone;
use super::statics::{Static, pick};
use serde::Deserialize;

pub const WHERE_PRESENT: &str = "swccg.ar.where-present";

/// Every ID this module cites beyond `rules`.
pub const IDS: &[&str] = &[WHERE_PRESENT];

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreventsBattles {
    /// The prevention lifts while an active card matching this (owner seen from the
    /// card with the text) is present at the site.
    #[serde(default)]
    pub unless_present: Option<Filter>,
}

impl Engine {
    /// Refuses a battle or an attack (`what`) at `l` that a card present there prevents.
    pub(super) fn battle_prevented_by_text(&self, l: usize, what: &str) -> Result<(), Rejection> {
        if self.st.locations[l].geo.kind != Some(LocKind::Site) {
            return Ok(());
        }
        let present = |c: usize| self.st.active(c) && self.st.zone[c] == Zone::At(l);
        for c in (0..self.st.cards.len()).filter(|&c| present(c)) {
            let Some(p) = self.st.def(c).find_static(pick!(Static::PreventsBattles)) else {
                continue;
            };
            let me = self.st.owner(c);
            let lifted = p.unless_present.as_ref().is_some_and(|f| {
                (0..self.st.cards.len()).any(|x| x != c && present(x) && self.st.matches(x, f, me))
            });
            if !lifted {
                return Err(rej(
                    format!(
                        "{} is present at {}: no {what} may be initiated there (its text prevents battles and attacks for both players)",
                        self.name(c),
                        self.st.locations[l].title
                    ),
                    WHERE_PRESENT,
                ));
            }
        }
        Ok(())
    }
}
