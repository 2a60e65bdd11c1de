//! SWCCG cards named from the library (`cards/swccg/`), and which fields of a
//! definition encode game text.
//!
//! A scenario's card is either an inline definition (a mapping whose first key
//! is not `card`) or a named card: a bare reference or title, or a mapping
//! `{card: <reference or title>, stats: {…}}` whose `stats:` replace the
//! library's on purpose (the trace says so). Nothing else of a library card
//! can be changed in a scenario: its text is the card's.

use super::model::{CardDef, CardType, LocKind, LocationDef, Stats};
pub use crate::engine::library::LibraryCard;
use crate::engine::library::{self, Catalogue, Imported, Origin};
use crate::game::Game;
use serde::de::{self, Deserialize, Deserializer};
use std::fmt;
use std::sync::OnceLock;

/// Whether a field holds anything but its default.
fn is_set<T: fmt::Debug + Default>(v: &T) -> bool {
    format!("{v:?}") != format!("{:?}", T::default())
}

impl LibraryCard for CardDef {
    const GAME: Game = Game::Swccg;
    type Overrides = Stats;

    fn title(&self) -> String {
        self.title.clone()
    }

    fn text(&self) -> &library::CardText {
        &self.text
    }

    /// The fields of this definition that encode game text (for `text:`'s `by:`).
    fn encoded_fields(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut add = |set: bool, name: &'static str| {
            if set {
                out.push(name);
            }
        };
        add(!self.immune_to.is_empty(), "immune_to");
        add(!self.abilities.is_empty(), "abilities");
        add(is_set(&*self.moves), "moves");
        add(is_set(&*self.deploy_rules), "deploy_rules");
        add(!self.modifiers.is_empty(), "modifiers");
        add(self.weapon.is_some(), "weapon");
        add(!self.drain.is_empty(), "drain");
        add(!self.generation.is_empty(), "generation");
        add(!self.deploy_mods.is_empty(), "deploy_mods");
        add(!self.own_deploy.is_empty(), "own_deploy");
        add(!self.react.is_empty(), "react");
        add(!self.globals.is_empty(), "globals");
        add(self.objective.is_some(), "objective");
        add(self.epic_duel.is_some(), "epic_duel");
        // "Immune to attrition." with no limit is its own card-file key.
        let level = self.stats.immune_to_attrition;
        let all = level == Some(super::battle::ALL_ATTRITION);
        add(level.is_some() && !all, "stats.immune_to_attrition");
        add(all, "immune_to_all_attrition");
        add(self.stats.piloting.is_some(), "stats.piloting");
        add(
            self.stats.permanent_pilot.is_some(),
            "stats.permanent_pilot",
        );
        add(
            self.stats.permanent_pilot_power.is_some(),
            "stats.permanent_pilot_power",
        );
        add(
            self.stats.draws_if_unable.is_some(),
            "stats.draws_if_unable",
        );
        add(self.capacity.is_some(), "capacity");
        add(!self.identity.names.is_empty(), "identity.names");
        add(!self.identity.matching.is_empty(), "identity.matching");
        add(!self.identity.grants.is_empty(), "identity.grants");
        add(self.identity.no_pilots, "identity.no_pilots");
        out.extend(self.statics.iter().map(|s| s.key()));
        out.extend(self.replacements.iter().map(|r| r.key()));
        if let Some(l) = &self.location {
            out.extend(location_text_fields(l));
        }
        out
    }

    fn check_text(&self) -> Result<(), String> {
        if let Some(l) = &self.location {
            check_location_card(self, l).map_err(|m| format!("{}: {m}", self.title))?;
        }
        self.text()
            .check(&self.encoded_fields())
            .map_err(|m| format!("{}: {m}", self.title))
    }

    fn origin_mut(&mut self) -> &mut Option<Origin> {
        &mut self.origin
    }

    fn apply_overrides(&mut self, over: Stats) -> Vec<(String, String, String)> {
        override_stats(self, over)
    }

    fn from_imported(card: &Imported) -> Result<CardDef, String> {
        from_imported(card)
    }

    fn catalogue() -> Result<&'static Catalogue<CardDef>, String> {
        static LIB: OnceLock<Result<Catalogue<CardDef>, String>> = OnceLock::new();
        library::read_once(&LIB)
    }
}

/// The SWCCG library, read once.
pub fn catalogue() -> Result<&'static Catalogue<CardDef>, String> {
    <CardDef as LibraryCard>::catalogue()
}

/// An imported card as a definition: title, side, type, uniqueness and numeric
/// values from the database; its whole text not modelled.
fn from_imported(card: &Imported) -> Result<CardDef, String> {
    let snake = |s: &str| {
        s.to_lowercase()
            .replace('\'', "")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join("_")
    };
    let mut stats = serde_json::Map::new();
    for (k, v) in &card.stats {
        if let Ok(n) = v.trim().parse::<i64>()
            && NUMBERS.contains(&k.as_str())
        {
            stats.insert(k.clone(), n.into());
        }
    }
    let marks = card.uniqueness.as_deref().unwrap_or("");
    let dots = marks.chars().filter(|&c| c == '\u{2022}').count();
    let location = card.card_type.as_deref().map(snake).as_deref() == Some("location");
    let mut icons = Vec::new();
    for (k, icon) in [
        ("light side icons", "light_force"),
        ("dark side icons", "dark_force"),
    ] {
        let n = card.stats.iter().find(|(s, _)| s == k);
        let n = n.and_then(|(_, v)| v.trim().parse::<usize>().ok());
        icons.extend(std::iter::repeat_n(icon, n.unwrap_or(0)));
    }
    if location {
        stats.insert("icons".into(), icons.into());
    }
    let v = serde_json::json!({
        "title": card.title,
        "subtype": if location { card.subtype.as_deref().map(snake) } else { None },
        "side": card.side.as_deref().map(snake),
        "type": card.card_type.as_deref().map(snake),
        "unique": dots == 1,
        "dots": if dots > 1 { dots } else { 0 },
        "stats": stats,
        "text": card.text.clone().unwrap_or_default(),
    });
    serde_json::from_value(v).map_err(|e| e.to_string())
}

/// The printed numbers an imported card's stats may give.
const NUMBERS: &[&str] = &[
    "power",
    "ability",
    "deploy",
    "forfeit",
    "destiny",
    "armor",
    "maneuver",
    "hyperspeed",
    "landspeed",
    "politics",
    "ferocity",
];

/// Replace the stats a scenario sets on purpose, noting each change.
fn override_stats(def: &mut CardDef, over: Stats) -> Vec<(String, String, String)> {
    let mut notes = Vec::new();
    let mut note = |name: &str, was: Option<i64>, now: i64| {
        if was != Some(now) {
            let was = was.map_or("none".to_string(), |v| v.to_string());
            notes.push((name.to_string(), was, now.to_string()));
        }
    };
    let s = &mut def.stats;
    macro_rules! opt {
        ($($f:ident),*) => {$(
            if let Some(v) = over.$f {
                note(stringify!($f), s.$f, v);
                s.$f = Some(v);
            }
        )*};
    }
    opt!(
        power,
        ability,
        deploy,
        forfeit,
        destiny,
        armor,
        maneuver,
        hyperspeed,
        landspeed,
        politics,
        immune_to_attrition,
        piloting,
        permanent_pilot,
        permanent_pilot_power,
        ferocity
    );
    for (k, v) in over.defense {
        note(&format!("defense.{k}"), s.defense.get(&k).copied(), v);
        s.defense.insert(k, v);
    }
    if !over.destiny_values.is_empty() {
        s.destiny_values = over.destiny_values;
    }
    if !over.icons.is_empty() {
        s.icons = over.icons;
    }
    if let Some(n) = over.draws_if_unable {
        s.draws_if_unable = Some(n);
    }
    if let Some(n) = over.ferocity_destinies {
        s.ferocity_destinies = Some(n);
    }
    notes
}

/// The fields of [`LocationDef`] by what sets them on a board location that names
/// a location card: `text`, the card's text (each field claimed by a sentence as
/// `location.<field>`); `traits`, printed on the card; `card`, read from the card
/// itself (title, icons, kind); `board`, the board's state, never the card's.
macro_rules! with_location_fields {
    ($m:ident) => {
        $m!(
            text: drain, deploy_mods, movement, no_deploy, battle_conditions, react,
                extra_landspeed, transit_cost, shuttle_here, epic;
            traits: interior, exterior, docking_bay, parsec, mobile, sector, holosite,
                prison, marker;
            card: title, icons, kind;
            board: name, card, cards, system, starship, orbiting, owner,
                never_battleground, blown_away
        )
    };
}

/// Which part of a named location a field of [`LocationDef`] belongs to (see
/// [`with_location_fields`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Text,
    Trait,
    Card,
    Board,
}

/// Every field of `l` that is set, with its part, named as `by:` names a text
/// field (`location.<field>`).
fn set_fields(l: &LocationDef) -> Vec<(Part, &'static str)> {
    macro_rules! set {
        (text: $($t:ident),*; traits: $($r:ident),*; card: $($c:ident),*; board: $($b:ident),*) => {{
            let mut out = Vec::new();
            $(if is_set(&l.$t) { out.push((Part::Text, concat!("location.", stringify!($t)))); })*
            $(if is_set(&l.$r) { out.push((Part::Trait, concat!("location.", stringify!($r)))); })*
            $(if is_set(&l.$c) { out.push((Part::Card, concat!("location.", stringify!($c)))); })*
            $(if is_set(&l.$b) { out.push((Part::Board, concat!("location.", stringify!($b)))); })*
            out
        }};
    }
    with_location_fields!(set)
}

/// The fields of `l` set in one of `parts`, by their bare names (`drain`), or as
/// `by:` names them (`location.drain`).
fn fields_in(l: &LocationDef, parts: &[Part], bare: bool) -> Vec<&'static str> {
    set_fields(l)
        .into_iter()
        .filter(|(p, _)| parts.contains(p))
        .map(|(_, n)| if bare { &n["location.".len()..] } else { n })
        .collect()
}

/// The text fields a location card's `location:` sets, as `by:` names them.
fn location_text_fields(l: &LocationDef) -> Vec<&'static str> {
    fields_in(l, &[Part::Text], false)
}

/// A card's `location:` holds only a location card's traits and text.
fn check_location_card(def: &CardDef, l: &LocationDef) -> Result<(), String> {
    if def.card_type != CardType::Location {
        return Err(format!(
            "`location:` is a location card's text, but this card is a {}",
            def.card_type.as_str()
        ));
    }
    let set = fields_in(l, &[Part::Card, Part::Board], true);
    if !set.is_empty() {
        return Err(format!(
            "`location:` sets `{}`: a location card's `location:` holds only its traits and text (its title, icons and subtype are the card's; the rest is a board's)",
            set.join("`, `")
        ));
    }
    let unsided = l.no_deploy.iter().any(|n| n.side.is_none())
        || l.drain.iter().any(|d| d.side.is_none())
        || l.deploy_mods.iter().any(|m| m.side.is_none());
    if unsided {
        return Err(
            "`location:` text names the side whose text it is (`side: light` or `side: dark`: the half of the card it is printed on)"
                .into(),
        );
    }
    let when = l.no_deploy.iter().flat_map(|n| &n.when);
    let when = when.chain(l.drain.iter().flat_map(|d| &d.when));
    super::text_when::here_keys_only(when).map_err(|e| format!("`location:` text's {e}"))
}

/// A board's `locations:`: each an inline definition, or a location card named
/// with `card:` whose title, icons, kind, traits and text are the card's.
pub fn locations<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<LocationDef>, D::Error> {
    let list: Vec<BoardLocation> = Vec::deserialize(d)?;
    Ok(list.into_iter().map(|b| b.0).collect())
}

struct BoardLocation(LocationDef);

impl<'de> Deserialize<'de> for BoardLocation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut l = LocationDef::deserialize(d)?;
        if l.name.is_empty() {
            return Err(de::Error::missing_field("name"));
        }
        if let Some(card) = l.card.clone() {
            name_location(&mut l, &card.value)
                .map_err(|m| de::Error::custom(format!("location `{}`: {m}", l.name)))?;
        }
        Ok(BoardLocation(l))
    }
}

/// Fill a board location from the location card it names; a field both set on
/// the board and read from the card is an error.
fn name_location(l: &mut LocationDef, name: &str) -> Result<(), String> {
    let def: CardDef = library::named(name)?;
    let who = format!("{} ({})", def.title, def.reference().unwrap_or("inline"));
    if def.card_type != CardType::Location {
        return Err(format!(
            "{who} is a {}, not a location",
            def.card_type.as_str()
        ));
    }
    let twice = fields_in(l, &[Part::Text, Part::Trait, Part::Card], true);
    if !twice.is_empty() {
        return Err(format!(
            "`{}` is set here and read from the card {who}: a named location's title, icons, kind, traits and text are the card's (set only `name`, `cards` and board state: `system`, `starship`, `orbiting`, `owner`, `never_battleground`, `blown_away`)",
            twice.join("`, `")
        ));
    }
    l.kind = match def.subtype.as_deref() {
        Some("site") => Some(LocKind::Site),
        Some("system") => Some(LocKind::System),
        Some("sector") => Some(LocKind::Sector),
        other => return Err(format!("{who} has no location subtype ({other:?})")),
    };
    if l.kind != Some(LocKind::System) && l.system.is_none() && l.starship.is_none() {
        l.system = def
            .title
            .split_once(':')
            .and_then(|(s, _)| planet_of(s.trim()))
            .map(str::to_string);
    }
    l.title = Some(def.title.clone());
    l.icons = def.stats.icons.clone();
    if let Some(card) = &def.location {
        macro_rules! take {
            (text: $($t:ident),*; traits: $($r:ident),*; card: $($c:ident),*; board: $($b:ident),*) => {
                $(l.$t = card.$t.clone();)*
                $(l.$r = card.$r.clone();)*
            };
        }
        with_location_fields!(take);
    }
    l.unencoded = def.unencoded_text();
    l.origin = def.origin;
    Ok(())
}

/// The system a site's title names before its colon ("Tatooine: Cantina" →
/// Tatooine): Jabba's Palace and Maz's Castle sites are Tatooine and Takodana
/// locations (AR Jabba's Palace Sites, Maz's Castle Sites); Cloud City names no
/// system (the board says which with `system:`).
fn planet_of(prefix: &str) -> Option<&str> {
    match prefix {
        "Jabba's Palace" => Some("Tatooine"),
        "Maz's Castle" => Some("Takodana"),
        "Cloud City" => None,
        other => Some(other),
    }
}

impl CardDef {
    /// The parts of its printed text no field encodes (the `not_modelled:` list
    /// of an inline card included).
    pub fn unencoded_text(&self) -> Vec<String> {
        let mut out = self.text.unencoded();
        for n in &self.not_modelled {
            if !out.contains(n) {
                out.push(n.clone());
            }
        }
        out
    }

    /// The parts of its printed text no field encodes as a card in `cards:`: a
    /// location card's text as a board location (`location.<field>`) applies
    /// only to a location of the board's `locations:` that names the card.
    pub fn unencoded_as_card(&self) -> Vec<String> {
        let as_location = |s: &library::Sentence| s.by.iter().any(|b| b.starts_with("location."));
        if !self.text.sentences.iter().any(as_location) {
            return self.unencoded_text();
        }
        let mut text = self.text.clone();
        for s in text.sentences.iter_mut().filter(|s| as_location(s)) {
            s.not_modelled = Some(library::NotModelled::Yes);
        }
        text.unencoded()
    }

    /// The card's reference, when it was named from the library.
    pub fn reference(&self) -> Option<&str> {
        self.origin.as_ref().map(|o| o.reference.as_str())
    }
}

impl super::engine::Engine {
    /// One step naming the library card behind each named card of the board,
    /// with any stat the scenario set on purpose.
    pub(super) fn note_library(&mut self) {
        let cards = self.st.cards.iter();
        let cards = cards.map(|c| (c.key.as_str(), c.def.title.clone(), c.def.origin.as_ref()));
        let places = self.st.locations.iter();
        let places = places.map(|l| (l.name.as_str(), l.title.clone(), l.geo.origin.as_ref()));
        let line = library::named_cards(cards.chain(places));
        if let Some(line) = line {
            self.log(
                crate::engine::Actor::Rules,
                crate::engine::Event::StateChange,
                line,
                &[super::rules::CARD_TEXT],
            );
        }
    }

    /// Report the text no field encodes of each named location: a location is on
    /// table for the whole run (a "blown away" one is face down, its text gone).
    pub(super) fn meet_location_text(&mut self) {
        let mut met = Vec::new();
        for l in &self.st.locations {
            if l.geo.unencoded.is_empty() || l.geo.blown_away {
                continue;
            }
            let who = match &l.geo.origin {
                Some(o) => format!("{} ({})", l.title, o.reference),
                None => l.title.clone(),
            };
            met.push(format!("{who}: \"{}\"", l.geo.unencoded.join(" ")));
        }
        for what in met {
            self.trace.not_modelled(
                0,
                crate::engine::Actor::Rules,
                what,
                &[super::rules::CARD_TEXT],
            );
        }
    }

    /// Report, once per card, the game text no field encodes of every card on
    /// table or being played: the engine cannot say what that text would do.
    pub(super) fn meet_unencoded_text(&mut self) {
        use super::state::Zone;
        if self.text_met.len() < self.st.cards.len() {
            self.text_met.resize(self.st.cards.len(), false);
        }
        for c in 0..self.st.cards.len() {
            if self.text_met[c] {
                continue;
            }
            let here = self.st.on_table(c) || self.st.zone[c] == Zone::Stack;
            if !here {
                continue;
            }
            let def = &self.st.cards[c].def;
            let parts = def.unencoded_as_card();
            if parts.is_empty() {
                continue;
            }
            self.text_met[c] = true;
            let who = match def.reference() {
                Some(r) => format!("{} ({r})", def.title),
                None => def.title.clone(),
            };
            let what = format!("{who}: \"{}\"", parts.join(" "));
            self.trace.not_modelled(
                0,
                crate::engine::Actor::Rules,
                what,
                &[super::rules::CARD_TEXT],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(location: &str) -> Result<(), String> {
        let yaml = format!(
            "title: Somewhere\nside: dark\ntype: location\nsubtype: site\ntext:\n  - {{said: \"Light: Your spies may not deploy here.\", by: [location.no_deploy]}}\nlocation: {location}\n"
        );
        let def: CardDef = crate::yaml::load(std::path::Path::new("c.yaml"), &yaml).unwrap();
        def.check_text()
    }

    #[test]
    fn a_location_cards_deployment_restriction_names_its_side_and_conditions_here() {
        let ok = "{no_deploy: [{side: light, filter: {is: [spy], owner: you}, when: [{occupies: false}]}]}";
        assert!(check(ok).is_ok(), "{:?}", check(ok));
        let e = check("{no_deploy: [{filter: {is: [spy], owner: you}}]}").unwrap_err();
        assert!(e.contains("names the side whose text it is"), "{e}");
        let e = check("{no_deploy: [{side: light, filter: {is: [spy]}, when: [{alone: true}]}]}")
            .unwrap_err();
        assert!(e.contains("condition `alone`"), "{e}");
        assert!(
            e.contains("with, unless_here, present_with, occupies, not, any_of"),
            "{e}"
        );
    }

    #[test]
    fn a_location_cards_condition_combines_place_conditions_only_at_any_depth() {
        let ok = "{no_deploy: [{side: light, filter: {is: [spy]}, when: [{not: {any_of: [{with: {is: [Jedi]}}, {present_with: {is: [droid]}}]}}]}]}";
        assert!(check(ok).is_ok(), "{:?}", check(ok));
        let nested = "{no_deploy: [{side: light, filter: {is: [spy]}, when: [{not: {any_of: [{with: {is: [Jedi]}}, {alone: true}]}}]}]}";
        let e = check(nested).unwrap_err();
        assert!(e.contains("condition `alone`"), "{e}");
    }

    #[test]
    fn any_of_lists_at_least_two_conditions() {
        let yaml = "title: Somewhere\nside: dark\ntype: location\nsubtype: site\ntext:\n  - {said: \"Light: Your spies may not deploy here.\", by: [location.no_deploy]}\nlocation: {no_deploy: [{side: light, filter: {is: [spy]}, when: [{any_of: [{with: {is: [Jedi]}}]}]}]}\n";
        let e = crate::yaml::load::<CardDef>(std::path::Path::new("c.yaml"), yaml)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(e.contains("`any_of` lists at least two conditions"), "{e}");
    }
}
