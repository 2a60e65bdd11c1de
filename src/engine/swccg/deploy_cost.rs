//! Deploy costs and deployment permissions of game text (AR Deploy Cost, Conditions
//! Versus Costs, Starships - deploys like a starfighter, Cloud Sectors, Persona):
//! "Boba Fett deploy free" at the same site, "your starfighters deploy -1 here",
//! "you may deploy characters at this site regardless of location deployment
//! restrictions", and where starships and vehicles may deploy to a cloud sector.
//!
//! A cost modifier changes a cost; a permission lifts a condition; neither does the
//! other's work (AR Conditions Versus Costs).

use super::engine::{Engine, Rejection, rej};
use super::model::{CardType, Filter, LocKind, SectorKind, Side};
use super::stack::DeployTo;
use super::state::{CardIx, Zone};
use super::statics::{Static, pick};
use serde::Deserialize;

pub const DEPLOY_COST: &str = "swccg.ar.deploy-cost";
pub const CONDITIONS_VERSUS_COSTS: &str = "swccg.ar.conditions-versus-costs";
pub const LIKE_STARFIGHTER: &str = "swccg.ar.starships-deploys-like-a-starfighter";
pub const CLOUD_SECTORS: &str = "swccg.ar.cloud-sectors";
pub const PERSONA: &str = "swccg.ar.persona";
pub const LOCATION_DEPLOYMENT_RESTRICTIONS: &str = "swccg.ar.location-deployment-restrictions";

/// Every section this file cites.
pub const IDS: &[&str] = &[
    DEPLOY_COST,
    super::free_tax::FREE,
    CONDITIONS_VERSUS_COSTS,
    LIKE_STARFIGHTER,
    CLOUD_SECTORS,
    PERSONA,
    LOCATION_DEPLOYMENT_RESTRICTIONS,
];

/// "Subtracts 1 from deploy cost of bounty hunters at same site (Boba Fett deploy
/// free)", "Your capital starships deploy -2 here": a deploy cost modifier of a card
/// (at its own location, `here`) or of a location (its `side` says whose text it is).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeployMod {
    /// The cards whose deploy cost it changes (owner seen from the text's side).
    pub filter: Filter,
    /// Subtract this much from the cost.
    #[serde(default)]
    pub sub: i64,
    /// Add this much to the cost.
    #[serde(default)]
    pub add: i64,
    /// The card deploys free.
    #[serde(default)]
    pub free: bool,
    /// On a location: the side whose text it is (required there).
    #[serde(default)]
    pub side: Option<Side>,
    #[serde(default)]
    pub text: String,
    /// Only for cards deploying on this card, or on the character this card is on
    /// ("blasters deploy for free on this character").
    #[serde(default)]
    pub on_bearer: bool,
}

/// "You may deploy characters at this site … regardless of location deployment
/// restrictions": a permission of a card on table for the cards matching `filter`
/// deploying to its location. It lifts conditions, never costs.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeployHere {
    pub filter: Filter,
    #[serde(default)]
    pub text: String,
}

/// One line of a deploy cost: what changed it and by how much.
pub struct CostLine {
    pub cost: i64,
    pub why: Vec<String>,
    /// Free by another card's text or a location's (not by the card's own text).
    pub free_by_other: bool,
}

impl Engine {
    /// Does the card "deploy like a starfighter" (or is one)?
    pub(crate) fn deploys_like_starfighter(&self, c: CardIx) -> bool {
        let d = self.st.def(c);
        d.card_type == CardType::Starship
            && (d.subtype.as_deref() == Some("starfighter") || d.deploy_rules.like_starfighter)
    }

    /// A deploy modifier's filter, read for a card that deploys like a starfighter as a
    /// starfighter (never as its own class: AR Starships - deploys like a starfighter).
    fn mod_matches(&self, c: CardIx, f: &Filter, side: Side) -> bool {
        let Some(sub) = f.subtype.as_deref() else {
            return self.st.matches(c, f, side);
        };
        if !self.st.def(c).deploy_rules.like_starfighter {
            return self.st.matches(c, f, side);
        }
        let mut g = f.clone();
        g.subtype = None;
        sub.eq_ignore_ascii_case("starfighter") && self.st.matches(c, &g, side)
    }

    /// The Force it costs to deploy `c` to `to`: its deploy cost with the modifiers of
    /// active cards at the destination and of the destination location.
    pub(crate) fn deploy_cost(&self, p: Side, c: CardIx, to: DeployTo) -> CostLine {
        // The deploy cost with its modifiers, global effects and durations.
        let base = super::card_values::deploy_cost(&self.st, c, Some(to));
        let mut line = CostLine {
            cost: base,
            why: Vec::new(),
            free_by_other: false,
        };
        let loc = match to {
            DeployTo::Location(l) => Some(l),
            DeployTo::OnCard(h) => self.st.location_of(h),
            DeployTo::Table => None,
        };
        let Some(l) = loc else {
            return line;
        };
        let mut mods: Vec<(String, Side, &DeployMod)> = Vec::new();
        for x in 0..self.st.cards.len() {
            if x != c && self.st.active(x) && self.st.location_of(x) == Some(l) {
                let bears =
                    matches!(to, DeployTo::OnCard(h) if h == x || self.st.zone[x] == Zone::On(h));
                for m in self
                    .st
                    .def(x)
                    .deploy_mods
                    .iter()
                    .filter(|m| bears || !m.on_bearer)
                {
                    mods.push((self.name(x), self.st.owner(x), m));
                }
            }
        }
        let lo = &self.st.locations[l];
        for m in &lo.geo.deploy_mods {
            mods.push((lo.title.clone(), m.side.unwrap_or(p), m));
        }
        let mut free = false;
        for (src, side, m) in mods {
            if !self.mod_matches(c, &m.filter, side) {
                continue;
            }
            if m.free {
                free = true;
                line.free_by_other = true;
                line.why.push(format!("{src}: deploys free"));
                continue;
            }
            line.cost += m.add - m.sub;
            let n = m.add - m.sub;
            line.why.push(format!("{src}: deploy {n:+}"));
        }
        let (own_free, own, why) = self.own_deploy(c, to);
        free |= own_free;
        line.cost += own;
        line.why.extend(why);
        line.cost = if free { 0 } else { line.cost.max(0) };
        line
    }

    /// A permission of a card at location `l` for `c` to deploy there regardless of
    /// location deployment restrictions (its own "deploys only …" included).
    pub(crate) fn deploy_permission(&self, p: Side, c: CardIx, l: usize) -> Option<String> {
        (0..self.st.cards.len()).find_map(|x| {
            let h = self.st.def(x).find_static(pick!(Static::DeployHere))?;
            (x != c
                && self.st.active(x)
                && self.st.owner(x) == p
                && self.st.location_of(x) == Some(l)
                && self.st.matches(c, &h.filter, p))
            .then(|| self.name(x))
        })
    }

    /// Cloud sectors take only shuttle vehicles, cloud cars, patrol craft, squadrons
    /// and starfighters (or a starship that deploys like a starfighter).
    pub(crate) fn cloud_rules(&self, c: CardIx, l: usize) -> Result<(), Rejection> {
        let lo = &self.st.locations[l];
        if lo.geo.kind != Some(LocKind::Sector) || lo.geo.sector != Some(SectorKind::Cloud) {
            return Ok(());
        }
        let d = self.st.def(c);
        let ok = match d.card_type {
            CardType::Starship => {
                self.deploys_like_starfighter(c) || d.subtype.as_deref() == Some("squadron")
            }
            CardType::Vehicle => {
                let sub = d
                    .subtype
                    .as_deref()
                    .unwrap_or("")
                    .to_ascii_lowercase()
                    .replace(' ', "_");
                ["shuttle", "cloud_car", "patrol_craft"]
                    .iter()
                    .any(|k| sub.starts_with(k) || d.keywords.iter().any(|w| w == k))
            }
            _ => true,
        };
        if ok {
            return Ok(());
        }
        Err(rej(
            format!(
                "{} may not deploy to {}: only shuttle vehicles, cloud cars, patrol craft, squadrons and starfighters (or starships that deploy like starfighters) deploy to cloud sectors",
                d.title, lo.title
            ),
            CLOUD_SECTORS,
        ))
    }
}

pub const EFFECTS: &str = "swccg.ar.effects";
pub const STARTING_EFFECTS: &str = "swccg.ar.effects-starting-effects";
pub const IMMEDIATE_EFFECTS: &str = "swccg.ar.effects-immediate-effects";
pub const EFFECTS_EXAMPLES: &str = "swccg.ar.effects-examples";

/// Every section the Effect rules here cite.
pub const EFFECT_IDS: &[&str] = &[
    EFFECTS,
    STARTING_EFFECTS,
    IMMEDIATE_EFFECTS,
    EFFECTS_EXAMPLES,
];

/// Subtypes of Effect that are not "normal" Effects (AR Effects).
const OTHER_EFFECTS: &[&str] = &["immediate", "mobile", "utinni", "political", "starting"];

/// A filter of `type: [effect]` takes only normal Effects unless it says "of any kind"
/// or names the subtype (AR Effects: a card that targets 'Effects' targets only the
/// first subtype). Filters on other card types are untouched.
pub fn effect_kind_matches(d: &super::model::CardDef, f: &Filter) -> bool {
    if let (Some(max), Some(n)) = (f.max_ships, d.squadron_of)
        && n > max
    {
        // A squadron is several starfighters: text for fewer cannot take it
        // (AR Squadron Examples: Commander Brandei takes only one TIE).
        return false;
    }
    if d.card_type != CardType::Effect || f.any_kind || f.subtype.is_some() {
        return true;
    }
    let asks_effects = f
        .card_type
        .as_ref()
        .is_some_and(|t| t.contains(&CardType::Effect));
    let other = d
        .subtype
        .as_deref()
        .is_some_and(|s| OTHER_EFFECTS.iter().any(|o| o.eq_ignore_ascii_case(s)));
    !(asks_effects && other)
}

impl Engine {
    /// When an Effect may deploy, where its subtype decides: a Starting Effect only at
    /// the start of the game; an Immediate Effect whose text responds to nothing at
    /// any time (as a top-level action). None: the ordinary deploy-phase rule applies.
    pub(crate) fn effect_timing(&self, c: CardIx, sog: bool) -> Option<Result<(), Rejection>> {
        let d = self.st.def(c);
        if d.card_type != CardType::Effect {
            return None;
        }
        let sub = d.subtype.as_deref().unwrap_or("").to_ascii_lowercase();
        match sub.as_str() {
            "starting" if !sog => Some(Err(rej(
                format!(
                    "{} is a Starting Effect: Starting Effects deploy only at the start of the game",
                    d.title
                ),
                STARTING_EFFECTS,
            )
            .and(EFFECTS_EXAMPLES))),
            "immediate" if !sog && d.abilities.iter().all(|a| a.responds_to.is_none()) => {
                Some(Ok(()))
            }
            _ => None,
        }
    }
}
