//! Star Destroyer: Launch Bay (AR Appendix B): "your cards that may shuttle to this
//! site's star destroyer may instead shuttle here; likewise, your cards here may
//! shuttle to a site related to that star destroyer", and "you may shuttle … here for
//! free". Shuttling to the site and shuttling to the star destroyer itself are
//! separate actions: only the first is free.

use super::engine::Engine;
use super::model::{CardType, LocKind, MoveHow, Phase, Side};
use super::movement::Plan;
use super::state::{CardIx, State, Zone};
use serde::Deserialize;

pub const LAUNCH_BAY: &str = "swccg.ar.rulings.star-destroyer-launch-bay";

/// Every section this file cites.
pub const IDS: &[&str] = &[LAUNCH_BAY];

/// A starship site that takes shuttles in place of its starship.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShuttleHere {
    /// Whose cards its text is for.
    pub side: Side,
    /// "You may shuttle … here for free."
    #[serde(default)]
    pub free: bool,
}

fn system_of(st: &State, l: usize) -> Option<usize> {
    let s = st.locations[l].geo.system.as_deref()?;
    st.find_location(s)
        .filter(|&x| st.locations[x].geo.kind == Some(LocKind::System))
}

impl Engine {
    /// Shuttling between an exterior site and a launch bay whose star destroyer is at
    /// that site's system (either way).
    pub(crate) fn launch_bay_moves(&self, p: Side, c: CardIx, dest: Zone, ok: &mut Vec<Plan>) {
        let st = &self.st;
        if !matches!(st.def(c).card_type, CardType::Character | CardType::Vehicle) {
            return;
        }
        let (Zone::At(a), Zone::At(b)) = (st.zone[c], dest) else {
            return;
        };
        for (bay, site) in [(b, a), (a, b)] {
            let Some(sh) = st.locations[bay].geo.shuttle_here.as_ref() else {
                continue;
            };
            let Some(sd) = st.locations[bay]
                .geo
                .starship
                .as_deref()
                .and_then(|k| st.find(k))
            else {
                continue;
            };
            let related = st.locations[site].geo.exterior
                && system_of(st, site).is_some_and(|y| st.zone[sd] == Zone::At(y));
            if sh.side != p || st.owner(sd) != p || !related {
                continue;
            }
            ok.push(Plan {
                how: MoveHow::Shuttle,
                to: dest,
                cost: if sh.free { 0 } else { 1 },
                cite: LAUNCH_BAY,
                during: Phase::Move,
                surcharged_by: Vec::new(),
            });
        }
    }
}
