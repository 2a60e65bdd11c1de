//! A card's text about its own deploy cost where it deploys (AR Deploy Cost;
//! Prepositions): "Deploys free to same site as one of your Imperials with
//! ability > 2", "Deploy -2 at Tatooine or Nal Hutta", "for free if a TIE/ln".

use super::engine::Engine;
use super::model::{Filter, LocKind};
use super::stack::DeployTo;
use super::state::CardIx;
use serde::Deserialize;

/// One modifier of a card's own deploy cost, applying where its destination matches.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OwnDeploy {
    /// The card deploys free there.
    #[serde(default)]
    pub free: bool,
    /// Subtract this much from its deploy cost there.
    #[serde(default)]
    pub sub: i64,
    /// Add this much to its deploy cost there.
    #[serde(default)]
    pub add: i64,
    /// To a site where another active card matching this is (owner seen from the
    /// deploying card's owner): "to same site as one of your Rebels".
    #[serde(default)]
    pub same_site_as: Option<Filter>,
    /// To a location "at" one of these systems: the system, or a site or sector of
    /// the planet (or aboard a card there).
    #[serde(default)]
    pub at_system: Vec<String>,
    /// To a location "on" one of these planets: a site or sector of the planet (or
    /// aboard a card there), never the system itself (AR Prepositions).
    #[serde(default)]
    pub on_planet: Vec<String>,
    /// Deploying on a card matching this ("for free if a TIE/ln"), owner seen from
    /// the deploying card's owner.
    #[serde(default)]
    pub on: Option<Filter>,
}

impl OwnDeploy {
    fn says(&self) -> String {
        if self.free {
            "deploys free".into()
        } else {
            format!("deploy {:+}", self.add - self.sub)
        }
    }
}

impl Engine {
    /// Does the destination `to` (at location `l`) meet `m`'s conditions for `c`?
    fn own_deploy_applies(&self, c: CardIx, m: &OwnDeploy, to: DeployTo, l: usize) -> bool {
        let st = &self.st;
        if let Some(f) = &m.on {
            let DeployTo::OnCard(h) = to else {
                return false;
            };
            if !st.matches(h, f, st.owner(c)) {
                return false;
            }
        }
        if let Some(f) = &m.same_site_as {
            let site = st.locations[l].geo.kind == Some(LocKind::Site);
            let me = st.owner(c);
            let there = (0..st.cards.len()).any(|x| {
                x != c && st.active(x) && st.location_of(x) == Some(l) && st.matches(x, f, me)
            });
            if !site || !there {
                return false;
            }
        }
        let planet = || super::prepositions::planet_title(st, l);
        let named = |names: &[String], p: &str| names.iter().any(|s| s.eq_ignore_ascii_case(p));
        if !m.at_system.is_empty() && !planet().is_some_and(|p| named(&m.at_system, &p)) {
            return false;
        }
        if !m.on_planet.is_empty()
            && (st.locations[l].geo.kind == Some(LocKind::System)
                || !planet().is_some_and(|p| named(&m.on_planet, &p)))
        {
            return false;
        }
        true
    }

    /// The card's own deploy cost text that applies deploying to `to`: (free, change,
    /// the reasons for the trace).
    pub(super) fn own_deploy(&self, c: CardIx, to: DeployTo) -> (bool, i64, Vec<String>) {
        let l = match to {
            DeployTo::Location(l) => Some(l),
            DeployTo::OnCard(h) => self.st.location_of(h),
            DeployTo::Table => None,
        };
        let (mut free, mut n, mut why) = (false, 0, Vec::new());
        let Some(l) = l else {
            return (free, n, why);
        };
        for m in &self.st.def(c).own_deploy {
            if !self.own_deploy_applies(c, m, to, l) {
                continue;
            }
            free |= m.free;
            if !m.free {
                n += m.add - m.sub;
            }
            let dest = match to {
                DeployTo::OnCard(h) => format!("on {}", self.name(h)),
                _ => format!("to {}", self.st.locations[l].title),
            };
            why.push(format!("{}'s own text: {} {dest}", self.name(c), m.says()));
        }
        (free, n, why)
    }
}
