//! Where a card is, in the rulebook's words (AR Ch.4 Presence, Present, Prepositions;
//! Ch.9 Planet, Asteroid Sectors, Starship and Vehicle Sites, Starships - Enclosed,
//! Vehicles - open vehicles).
//!
//! A board names the cards and locations a judge asks about (`locate:`); when the run
//! ends, each answer is a cited trace step and a set of observations `where.<name>.*`:
//!
//! - `at`: the location the card is at (a card aboard a starship is at the starship's
//!   location; a card at a starship or vehicle site is at that site, "below decks").
//! - `present`: `at:<location>`, or `aboard:<card>` for a card on an enclosed starship
//!   or vehicle (a card on an open vehicle is present where the vehicle is present); an
//!   inactive card is not present anywhere (null).
//! - `presence`: the one location where the card creates presence (ability, a permanent
//!   pilot, or the Presence icon), or null; `presence_by`: `ability`, `icon`, or
//!   `permanent_pilot` (the presence is the craft's permanent pilot's, not the craft's own).
//! - `on`: the planet or mobile system the card is on (present at a site or cloud sector
//!   of it, or aboard a craft present there), or null.
//! - `at_system`: the system the card is at (on it, orbiting it, or aboard a starship
//!   present at it), or null.
//! - `aboard`: the starships and vehicles (card keys) it is aboard; `aboard_a`: what
//!   kinds of craft those are (`starship`, `vehicle`, their subtype and keywords), as
//!   far as the cards on table say.
//!
//! A location answers `on` (the planet or mobile system it is part of, or null) and
//! `aboard` (the craft a starship or vehicle site belongs to).

use super::engine::Engine;
use super::model::{CardType, LocKind, SectorKind};
use super::rules as r;
use super::state::{CardIx, State, Zone};
use crate::engine::{Actor, Event};
use serde_json::{Value, json};

/// Observations, the sentence that explains them, and the rules it rests on.
type Answer = (Vec<(&'static str, Value)>, String, Vec<&'static str>);

/// Is `c` a starship or vehicle?
fn is_craft(st: &State, c: CardIx) -> bool {
    matches!(st.def(c).card_type, CardType::Starship | CardType::Vehicle)
}

/// Starships are always enclosed; a vehicle only with "enclosed" in its lore (AR
/// Starships - Enclosed). The one test of enclosure: presence, battles and drains.
pub(super) fn enclosed(st: &State, c: CardIx) -> bool {
    let d = st.def(c);
    d.card_type == CardType::Starship
        || d.keywords
            .iter()
            .any(|k| k.eq_ignore_ascii_case("enclosed"))
}

/// The starships and vehicles `c` is aboard, nearest first.
fn crafts(st: &State, c: CardIx) -> Vec<CardIx> {
    let mut out = Vec::new();
    let mut z = st.zone[c];
    for _ in 0..64 {
        match z {
            Zone::On(h) => {
                if is_craft(st, h) {
                    out.push(h);
                }
                z = st.zone[h];
            }
            _ => break,
        }
    }
    out
}

/// The name a site's or sector's `system:` stands for: a location's name on the board,
/// or the planet name as given.
fn system_name(st: &State, l: usize) -> Option<String> {
    let g = &st.locations[l].geo;
    match g.kind {
        Some(LocKind::System) => Some(st.locations[l].name.clone()),
        Some(LocKind::Site) if g.starship.is_some() => None,
        Some(LocKind::Sector) if g.sector == Some(SectorKind::Asteroid) => None,
        Some(LocKind::Site) | Some(LocKind::Sector) => g.system.clone(),
        None => None,
    }
}

/// The planet or mobile system a location is part of (Planet: a system and its sites
/// and cloud sectors; not its asteroid sectors; not starship or vehicle sites).
pub fn location_on(st: &State, l: usize) -> Option<String> {
    system_name(st, l)
}

/// The title of the planet (or mobile system) a location is part of.
pub fn planet_title(st: &State, l: usize) -> Option<String> {
    let p = location_on(st, l)?;
    Some(
        st.find_location(&p)
            .map_or(p, |x| st.locations[x].title.clone()),
    )
}

/// Does a location's title name it as part of `name` ("Cloud City: East Platform" is
/// titled under Cloud City; "Tatooine: Cantina" under Tatooine)?
pub fn titled_under(title: &str, name: &str) -> bool {
    title
        .to_ascii_lowercase()
        .starts_with(&format!("{}:", name.to_ascii_lowercase()))
}

/// Is location `l` "a <name> site" ("a Hoth site", "a Death Star site", "a Cloud City
/// site")? A site of that planet or mobile system, or a site whose title begins with
/// the name ("Cloud City: Carbonite Chamber", a site of Bespin; AR Site: a site's
/// title names where it is).
pub fn site_of(st: &State, l: usize, name: &str) -> bool {
    st.locations[l].geo.kind == Some(LocKind::Site)
        && (titled_under(&st.locations[l].title, name)
            || planet_title(st, l).is_some_and(|t| t.eq_ignore_ascii_case(name)))
}

/// Dagobah and Ahch-To (AR Ap.C): characters, vehicles and starships may not deploy to
/// their locations (`direct`: to the location, not on a card there), and devices and
/// weapons not directly, unless the card's own text
/// allows it (`deploy_rules.only_at` naming the planet) or it deploys regardless of
/// location deployment restrictions. Asteroid sectors are not part
/// of the planet. `Some(reason)` when the deployment is refused.
pub fn remote_planet(st: &State, c: CardIx, l: usize, direct: bool) -> Option<String> {
    let planet = planet_title(st, l)?;
    if !["dagobah", "ahch-to"]
        .iter()
        .any(|p| planet.eq_ignore_ascii_case(p))
    {
        return None;
    }
    let d = st.def(c);
    let restricted = match d.card_type {
        CardType::Character | CardType::Vehicle | CardType::Starship => true,
        CardType::Device | CardType::Weapon => direct,
        _ => false,
    };
    // "Regardless of location deployment restrictions" (Encampment) also lifts it.
    let allowed = d.deploy_rules.ignore_location_restrictions
        || d.deploy_rules
            .only_at
            .iter()
            .chain(&d.deploy_rules.only_on)
            .any(|x| x.eq_ignore_ascii_case(&planet));
    (restricted && !allowed).then(|| {
        format!(
            "{} may not deploy to a {planet} location ({}) unless its own text allows it",
            d.title, st.locations[l].title
        )
    })
}

/// Where a card is present: `Ok(location)` or `Err(enclosed craft)`; `None` when it
/// is not present anywhere (inactive, or not on table at a location).
pub(super) fn present(st: &State, c: CardIx) -> Option<Result<usize, CardIx>> {
    if !st.active(c) {
        return None;
    }
    if let Some(&h) = crafts(st, c).iter().find(|&&h| enclosed(st, h)) {
        return Some(Err(h));
    }
    st.location_of(c).map(Ok)
}

/// What creates a card's presence: its own ability, the Presence icon, or (for
/// a starship or vehicle) its permanent pilot, which the craft itself is not.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PresenceBy {
    Ability,
    Icon,
    PermanentPilot,
}

impl PresenceBy {
    /// The value of the `presence_by` observation.
    fn key(self) -> &'static str {
        match self {
            PresenceBy::Ability => "ability",
            PresenceBy::Icon => "icon",
            PresenceBy::PermanentPilot => "permanent_pilot",
        }
    }
}

/// The location a card's presence is created at, if it creates any, and what
/// creates it.
fn presence(st: &State, c: CardIx) -> Option<(usize, PresenceBy)> {
    if !st.active(c) {
        return None;
    }
    let d = st.def(c);
    let by = if d.stats.ability.unwrap_or(0) > 0 && d.card_type == CardType::Character {
        PresenceBy::Ability
    } else if d
        .stats
        .icons
        .iter()
        .any(|i| i.eq_ignore_ascii_case("presence"))
    {
        PresenceBy::Icon
    } else if d.stats.permanent_pilot.unwrap_or(0) > 0 {
        PresenceBy::PermanentPilot
    } else {
        return None;
    };
    st.location_of(c).map(|l| (l, by))
}

/// The answer for one card: observations and the sentence that explains them.
fn card_answer(st: &State, c: CardIx) -> Answer {
    let title = st.title(c).to_string();
    let loc_name = |l: usize| st.locations[l].name.clone();
    let at = st.location_of(c);
    let pres = present(st, c);
    // Where the card is physically, following enclosed craft out to their location.
    let physical = match pres {
        Some(Ok(l)) => Some(l),
        Some(Err(h)) => st.location_of(h),
        None => None,
    };
    let on = physical.and_then(|l| match st.locations[l].geo.kind {
        Some(LocKind::System) => None,
        _ => location_on(st, l),
    });
    let at_system = on.clone().or_else(|| {
        physical
            .filter(|&l| st.locations[l].geo.kind == Some(LocKind::System))
            .map(loc_name)
    });
    let mut aboard: Vec<CardIx> = crafts(st, c);
    let mut kinds: Vec<String> = Vec::new();
    let site_ship = at.and_then(|l| st.locations[l].geo.starship.clone());
    let site_craft = site_ship.as_deref().and_then(|k| st.find(k));
    if let Some(s) = site_craft {
        aboard.push(s);
        // The site names the craft and what it is; the rest is known only from the
        // card itself while it is on table.
        kinds.push(st.def(s).card_type.as_str().to_string());
    }
    for &s in &aboard {
        if !st.on_table(s) {
            continue;
        }
        let d = st.def(s);
        kinds.push(d.card_type.as_str().to_string());
        kinds.extend(d.subtype.iter().cloned());
        kinds.extend(d.keywords.iter().cloned());
    }
    kinds.sort();
    kinds.dedup();
    let keys: Vec<String> = aboard.iter().map(|&s| st.key(s).to_string()).collect();
    let present_word = match pres {
        Some(Ok(l)) => Some(format!("at:{}", loc_name(l))),
        Some(Err(h)) => Some(format!("aboard:{}", st.key(h))),
        None => None,
    };
    let (presence_at, presence_by) = match presence(st, c) {
        Some((l, by)) => (Some(loc_name(l)), Some(by)),
        None => (None, None),
    };
    let mut text = format!("{title}: at {}", at.map_or("no location".into(), loc_name));
    text += &match (&present_word, pres) {
        (_, Some(Err(h))) => format!(", present aboard {} (enclosed)", st.title(h)),
        (Some(p), _) => format!(", present {}", p.replace(':', " ")),
        _ => ", not present anywhere (inactive)".into(),
    };
    text += &match (&presence_at, presence_by) {
        (Some(l), Some(PresenceBy::PermanentPilot)) => {
            format!(
                ", creates no presence itself (its permanent pilot creates presence at {l} only)"
            )
        }
        (Some(l), _) => format!(", creates presence at {l} only"),
        _ => ", creates no presence".into(),
    };
    text += &match &on {
        Some(p) => format!(", on {p}"),
        None => ", on no planet".into(),
    };
    text += &match &at_system {
        Some(s) => format!(", at the {s} system"),
        None => ", at no system".into(),
    };
    if !keys.is_empty() {
        text += &format!(", aboard {} ({})", keys.join(", "), kinds.join(", "));
    }
    let mut cites = vec![r::PREPOSITIONS, r::PRESENT, r::PRESENCE];
    if pres.is_some() {
        cites.push(super::values::cite::PRESENT_WITH);
    }
    if on.is_some() {
        cites.push(r::PLANET);
    }
    if physical.is_some_and(|l| st.locations[l].geo.sector == Some(SectorKind::Asteroid)) {
        cites.push(r::ASTEROID_SECTORS);
    }
    if site_craft.is_some() || site_ship.is_some() {
        cites.push(r::STARSHIP_VEHICLE_SITES);
    }
    let all = crafts(st, c);
    if all.iter().any(|&h| enclosed(st, h)) {
        cites.push(r::STARSHIPS_ENCLOSED);
    }
    if all.iter().any(|&h| !enclosed(st, h)) {
        cites.push(r::OPEN_VEHICLES);
    }
    let with = present_with(st, c);
    if pres.is_some() {
        text += &match with.is_empty() {
            true => ", present with no card".to_string(),
            false => format!(", present with {}", with.join(", ")),
        };
    }
    let obs = vec![
        ("present_with", json!(with)),
        ("at", json!(at.map(loc_name))),
        ("present", json!(present_word)),
        ("presence", json!(presence_at)),
        ("presence_by", json!(presence_by.map(PresenceBy::key))),
        ("on", json!(on)),
        ("at_system", json!(at_system)),
        ("aboard", json!(keys)),
        ("aboard_a", json!(kinds)),
    ];
    (obs, text, cites)
}

/// The other active cards `c` is present with (AR Present versus Present With): both
/// present at the same location, or both present aboard the same enclosed starship or
/// vehicle. Card keys, in key order.
pub fn present_with(st: &State, c: CardIx) -> Vec<String> {
    let Some(mine) = present(st, c) else {
        return Vec::new();
    };
    (0..st.cards.len())
        .filter(|&o| o != c && st.on_table(o) && present(st, o) == Some(mine))
        .map(|o| st.key(o).to_string())
        .collect()
}

/// The answer for one location.
fn location_answer(st: &State, l: usize) -> Answer {
    let lo = &st.locations[l];
    let on = location_on(st, l);
    let aboard: Vec<String> = lo.geo.starship.iter().cloned().collect();
    let why = match (lo.geo.kind, lo.geo.sector, &lo.geo.starship) {
        (_, _, Some(s)) => format!("a site of {s}: below decks, not part of any planet"),
        (Some(LocKind::Sector), Some(SectorKind::Asteroid), _) => {
            "an asteroid sector: related to its system, not part of the planet".into()
        }
        _ => match &on {
            Some(p) => format!("part of {p}"),
            None => "not part of any planet".into(),
        },
    };
    let text = format!("{}: {why}", lo.title);
    let cites = match (lo.geo.sector, &lo.geo.starship) {
        (_, Some(_)) => vec![r::STARSHIP_VEHICLE_SITES, r::PLANET],
        (Some(SectorKind::Asteroid), _) => vec![r::ASTEROID_SECTORS, r::PLANET],
        _ => vec![r::PLANET],
    };
    (
        vec![("on", json!(on)), ("aboard", json!(aboard))],
        text,
        cites,
    )
}

impl Engine {
    /// Answer the board's `locate:` questions about the final position.
    pub(crate) fn report_where(&mut self) {
        let names = std::mem::take(&mut self.locate);
        for n in &names {
            let (obs, text, cites) = if let Some(c) = self.st.find(n) {
                card_answer(&self.st, c)
            } else if let Some(l) = self.st.find_location(n) {
                location_answer(&self.st, l)
            } else {
                continue;
            };
            for (k, v) in obs {
                self.wheres.push((format!("{n}.{k}"), v));
            }
            self.log(Actor::Rules, Event::Result, text, &cites);
        }
        self.locate = names;
    }
}

/// The observation keys of a `locate:` answer about a card or a location.
pub const CARD_KEYS: &[&str] = &[
    "present_with",
    "at",
    "present",
    "presence",
    "presence_by",
    "on",
    "at_system",
    "aboard",
    "aboard_a",
];
pub const LOCATION_KEYS: &[&str] = &["on", "aboard"];
