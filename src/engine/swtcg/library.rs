//! SWTCG cards named from the library (`cards/swtcg/`, keyed by LackeyCCG set
//! and number as the importer names them: `swtcg:ANH-12`; a card with no number
//! of its own, as most promos, by its image file: `swtcg:PROMO-Darksaber_A_promo`),
//! or from the user's imported databases, with the printed values a scenario
//! may set on purpose.

use super::model::{Arena, CardDef, Keywords, Kind, Printed};
pub use crate::engine::library::LibraryCard;
use crate::engine::library::{self, Catalogue, Imported, Origin};
use crate::game::Game;
use std::sync::OnceLock;

impl LibraryCard for CardDef {
    const GAME: Game = Game::Swtcg;
    type Overrides = Printed;

    /// The name as LackeyCCG prints it: `Admiral Motti (A)`.
    fn title(&self) -> String {
        match &self.version {
            Some(v) => format!("{} ({v})", self.name),
            None => self.name.clone(),
        }
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
        add(!self.abilities.is_empty(), "abilities");
        add(self.keywords != Keywords::default(), "keywords");
        add(self.equip.is_some(), "equip");
        add(self.pilot.is_some(), "pilot");
        add(self.pilotable_as.is_some(), "pilotable_as");
        add(self.switch.is_some(), "switch");
        add(self.attacks_own, "attacks_own");
        add(self.must_attack, "must_attack");
        add(self.cant_retreat, "cant_retreat");
        add(self.unpreventable, "unpreventable");
        add(self.prevents_all_damage, "prevents_all_damage");
        add(self.no_arena_control, "no_arena_control");
        add(self.dice_modifier != 0, "dice_modifier");
        add(self.battle_order.is_some(), "battle_order");
        out
    }

    fn origin_mut(&mut self) -> &mut Option<Origin> {
        &mut self.origin
    }

    fn apply_overrides(&mut self, over: Printed) -> Vec<(String, String, String)> {
        let mut notes = Vec::new();
        for (name, slot, now) in [
            ("cost", &mut self.cost, over.cost),
            ("speed", &mut self.speed, over.speed),
            ("power", &mut self.power, over.power),
            ("health", &mut self.health, over.health),
        ] {
            if let Some(v) = now {
                if *slot != v {
                    notes.push((name.to_string(), slot.to_string(), v.to_string()));
                }
                *slot = v;
            }
        }
        notes
    }

    fn from_imported(card: &Imported) -> Result<CardDef, String> {
        from_imported(card)
    }

    fn catalogue() -> Result<&'static Catalogue<CardDef>, String> {
        static LIB: OnceLock<Result<Catalogue<CardDef>, String>> = OnceLock::new();
        library::read_once(&LIB)
    }
}

/// The SWTCG library, read once.
pub fn catalogue() -> Result<&'static Catalogue<CardDef>, String> {
    <CardDef as LibraryCard>::catalogue()
}

/// A LackeyCCG name split into the card's name and version: `Admiral Motti
/// (A)` → (`Admiral Motti`, `A`); a promo's trailing `(Promo)` is not a version.
pub fn name_and_version(title: &str) -> (String, Option<String>) {
    let t = title.trim();
    let t = t.strip_suffix("(Promo)").map_or(t, str::trim_end);
    if let Some(open) = t.rfind(" (")
        && t.ends_with(')')
    {
        let v = &t[open + 2..t.len() - 1];
        if !v.is_empty() && v.len() <= 2 && v.chars().all(|c| c.is_ascii_uppercase()) {
            return (t[..open].to_string(), Some(v.to_string()));
        }
    }
    (t.to_string(), None)
}

/// A LackeyCCG type and subtype as the engine's kind, arenas and subtype text:
/// `Character` → a unit of the Character arena; `Equipment` `Character - Blaster
/// Weapon` → Equipment for the Character arena, subtype `Blaster Weapon`. A kind
/// the engine does not model (Subordinate, Event, campaign and trap Missions) is an error.
pub fn kind_and_types(
    card_type: &str,
    subtype: &str,
) -> Result<(Kind, Vec<Arena>, String), String> {
    let arenas = |s: &str| -> Result<Vec<Arena>, String> {
        s.split('/')
            .map(|a| match a.trim() {
                "Space" => Ok(Arena::Space),
                "Ground" => Ok(Arena::Ground),
                "Character" => Ok(Arena::Character),
                other => Err(format!("`{other}` is not an arena")),
            })
            .collect()
    };
    let subtype = subtype.trim();
    match card_type.trim() {
        "Battle" => Ok((Kind::Battle, Vec::new(), subtype.to_string())),
        "Mission" => Ok((Kind::Mission, Vec::new(), subtype.to_string())),
        "Resource" => Ok((Kind::Resource, Vec::new(), subtype.to_string())),
        t @ ("Equipment" | "Location") => {
            let (a, rest) = subtype.split_once(" - ").unwrap_or((subtype, ""));
            let kind = if t == "Equipment" {
                Kind::Equipment
            } else {
                Kind::Location
            };
            Ok((kind, arenas(a)?, rest.to_string()))
        }
        t => match arenas(t) {
            Ok(a) => Ok((Kind::Unit, a, subtype.to_string())),
            Err(_) => Err(format!("the engine has no {t} cards")),
        },
    }
}

/// An imported card as a definition: name, version, kind, arenas, subtype and
/// printed values from the database; its whole text not modelled.
fn from_imported(card: &Imported) -> Result<CardDef, String> {
    let (name, version) = name_and_version(&card.title);
    let (kind, types, subtypes) = kind_and_types(
        card.card_type.as_deref().unwrap_or(""),
        card.subtype.as_deref().unwrap_or(""),
    )?;
    let stat = |k: &str| -> Result<i64, String> {
        match card.stats.iter().find(|(n, _)| n == k) {
            None => Ok(0),
            Some((_, v)) => v
                .trim()
                .parse::<i64>()
                .map_err(|_| format!("its {k} is printed as `{v}`")),
        }
    };
    let mut def: CardDef = serde_json::from_value(serde_json::json!({
        "name": name,
        "version": version,
        "side": card.side.as_deref().filter(|s| matches!(*s, "Light" | "Dark" | "Neutral")).map(str::to_lowercase),
        "subtypes": subtypes,
        "cost": stat("cost")?,
        "speed": stat("speed")?,
        "power": stat("power")?,
        "health": stat("health")?,
        "text": card.text.clone().unwrap_or_default().replace('\n', " | "),
    }))
    .map_err(|e| e.to_string())?;
    def.kind = kind;
    def.types = types;
    Ok(def)
}

impl CardDef {
    /// The card's reference, when it was named.
    pub fn reference(&self) -> Option<&str> {
        self.origin.as_ref().map(|o| o.reference.as_str())
    }
}

impl super::engine::Engine<'_> {
    /// One step naming the library or imported card behind each named card of
    /// the board, with any printed value the scenario set on purpose.
    pub(super) fn note_library(&mut self) {
        let defs = self.st.defs.iter().enumerate();
        let line = library::named_cards(
            defs.map(|(c, d)| (self.st.keys[c].as_str(), d.title(), d.origin.as_ref())),
        );
        if let Some(line) = line {
            self.rules(
                crate::engine::Event::StateChange,
                line,
                &[super::rules::UNIT_CARDS, super::rules::EFFECTS],
            );
        }
    }
}
