//! Control of locations read by card text ("Whenever you control any two Rebel Base
//! locations, or any one planet site and two systems"): a player controls a location
//! where they have presence and the opponent does not (AR Control Of A Location;
//! Presence; Rebel Base).

use super::battle_board::cards_at;
use super::model::{LocKind, SectorKind, Side};
use super::state::State;
use serde::Deserialize;

pub const CONTROL: &str = "swccg.ar.control-of-a-location";
pub const PRESENCE: &str = "swccg.ar.presence";
pub const REBEL_BASE: &str = "swccg.ar.rebel-base";

/// Every ID this module cites beyond `rules`.
pub const IDS: &[&str] = &[CONTROL, PRESENCE, REBEL_BASE];

/// "Any two Rebel Base locations": at least `count` locations, each matching every
/// key given, that the player controls.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControlCount {
    pub count: usize,
    /// A Rebel Base location: any Yavin 4 or Hoth location (cloud sectors included,
    /// asteroid sectors not).
    #[serde(default)]
    pub rebel_base: bool,
    #[serde(default)]
    pub kind: Option<LocKind>,
    /// A location of a planet (a system, or its sites and cloud sectors; not a
    /// starship or vehicle site, nor an asteroid sector).
    #[serde(default)]
    pub planet: bool,
}

/// Does `p` have presence at `l`: total ability of 1 or more there, or a card with
/// the Presence icon (an undercover spy has none)?
pub fn presence(st: &State, l: usize, p: Side) -> bool {
    let mine: Vec<_> = cards_at(st, l)
        .into_iter()
        .filter(|&c| st.owner(c) == p && !st.undercover(c))
        .collect();
    let ability: i64 = mine
        .iter()
        .map(|&c| {
            let s = &st.def(c).stats;
            s.ability.or(s.permanent_pilot).unwrap_or(0).max(0)
        })
        .sum();
    ability >= 1
        || mine.iter().any(|&c| {
            st.def(c)
                .stats
                .icons
                .iter()
                .any(|i| i.eq_ignore_ascii_case("presence"))
        })
}

/// Does `p` control `l` (presence there, and the opponent has none)?
pub fn controls(st: &State, l: usize, p: Side) -> bool {
    presence(st, l, p) && !presence(st, l, p.other())
}

fn counts(st: &State, l: usize, k: &ControlCount) -> bool {
    let g = &st.locations[l].geo;
    let planet = super::prepositions::planet_title(st, l);
    if k.kind.is_some_and(|kind| g.kind != Some(kind)) || (k.planet && planet.is_none()) {
        return false;
    }
    if k.rebel_base {
        let base = planet.is_some_and(|t| {
            ["yavin 4", "hoth"]
                .iter()
                .any(|b| t.eq_ignore_ascii_case(b))
        });
        if !base || g.sector == Some(SectorKind::Asteroid) {
            return false;
        }
    }
    true
}

/// Does `p` control enough locations for one of the alternatives (each of whose
/// counts must be met)?
pub fn holds(st: &State, p: Side, any_of: &[Vec<ControlCount>]) -> bool {
    let mine: Vec<usize> = (0..st.locations.len())
        .filter(|&l| controls(st, l, p))
        .collect();
    any_of.iter().any(|all| {
        all.iter()
            .all(|k| mine.iter().filter(|&&l| counts(st, l, k)).count() >= k.count)
    })
}
