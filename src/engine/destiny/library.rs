//! Destiny cards named from the library (`cards/destiny/`, keyed
//! `destiny:<code>` as SWDestinyDB numbers them), or from the user's imported
//! databases, with the printed values a scenario may set on purpose.

use super::model::{Affiliation, CardDef, Color, Printed};
pub use crate::engine::library::LibraryCard;
use crate::engine::library::{self, Catalogue, Imported, Origin};
use crate::game::Game;
use std::sync::OnceLock;

impl LibraryCard for CardDef {
    const GAME: Game = Game::Destiny;
    type Overrides = Printed;

    fn title(&self) -> String {
        self.title.clone()
    }

    fn text(&self) -> &library::CardText {
        &self.text
    }

    /// The fields of this definition that encode game text (for `text:`'s `by:`).
    fn encoded_fields(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if !self.abilities.is_empty() {
            out.push("abilities");
        }
        if !self.keywords.is_empty() {
            out.push("keywords");
        }
        if self.split_shields {
            out.push("split_shields");
        }
        if self.unblockable.is_some() {
            out.push("unblockable");
        }
        if self.only.is_some() {
            out.push("only");
        }
        if self.modify.is_some() {
            out.push("modify");
        }
        if self.reroll_instead {
            out.push("reroll_instead");
        }
        if self.attach_any.is_some() {
            out.push("attach_any");
        }
        if self.deck_building {
            out.push("deck_building");
        }
        if self.non_unique_on.is_some() {
            out.push("non_unique_on");
        }
        if self.setup {
            out.push("setup");
        }
        if self.refuses.is_some() {
            out.push("refuses");
        }
        if self.x.is_some() {
            out.push("x");
        }
        if self.guards.is_some() {
            out.push("guards");
        }
        if self.attach_cost.is_some() {
            out.push("attach_cost");
        }
        if self.resolve_as.is_some() {
            out.push("resolve_as");
        }
        if self.has_abilities_of_non_unique {
            out.push("has_abilities_of_non_unique");
        }
        if self.aside_as_upgrade {
            out.push("aside_as_upgrade");
        }
        if self.makes_elite {
            out.push("makes_elite");
        }
        out
    }

    fn origin_mut(&mut self) -> &mut Option<Origin> {
        &mut self.origin
    }

    fn apply_overrides(&mut self, over: Printed) -> Vec<(String, String, String)> {
        let mut notes = Vec::new();
        let mut note = |name: &str, was: String, now: String| {
            if was != now {
                notes.push((name.to_string(), was, now));
            }
        };
        let shown = |v: Option<i64>| v.map_or("none".to_string(), |v| v.to_string());
        if let Some(h) = over.health {
            note("health", shown(self.health), h.to_string());
            self.health = Some(h);
        }
        if let Some(c) = over.cost {
            note("cost", shown(self.cost), c.to_string());
            self.cost = Some(c);
        }
        if let Some(p) = over.points {
            note("points", join(&self.points, "/"), join(&p, "/"));
            self.points = p;
        }
        if let Some(d) = over.die {
            let was = self
                .die
                .as_deref()
                .map_or("none".to_string(), |d| d.join(" "));
            note("die", was, d.join(" "));
            self.die = Some(d);
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

fn join<T: ToString>(v: &[T], sep: &str) -> String {
    if v.is_empty() {
        return "none".to_string();
    }
    v.iter().map(T::to_string).collect::<Vec<_>>().join(sep)
}

/// The Destiny library, read once.
pub fn catalogue() -> Result<&'static Catalogue<CardDef>, String> {
    <CardDef as LibraryCard>::catalogue()
}

/// An imported card as a definition: title, type, affiliation, color,
/// uniqueness, health, points, cost and die from the database; its whole text
/// not modelled. A value printed as `X` can't be carried: the card can't be named.
fn from_imported(card: &Imported) -> Result<CardDef, String> {
    let lower = |s: &Option<String>| s.as_deref().map(str::to_lowercase);
    let stat = |k: &str| card.stats.iter().find(|(n, _)| n == k).map(|(_, v)| v);
    let number = |k: &str| -> Result<Option<i64>, String> {
        stat(k)
            .map(|v| {
                v.trim()
                    .parse::<i64>()
                    .map_err(|_| format!("its {k} is printed as `{v}`"))
            })
            .transpose()
    };
    let points = match stat("points") {
        Some(p) => p
            .split('/')
            .map(|n| n.trim().parse::<i64>())
            .collect::<Result<Vec<i64>, _>>()
            .map_err(|_| format!("its points are printed as `{p}`"))?,
        None => Vec::new(),
    };
    let v = serde_json::json!({
        "title": card.title,
        "type": lower(&card.card_type),
        "unique": card.uniqueness.is_some(),
        "color": stat("color").map(|c| c.to_lowercase()),
        "affiliation": lower(&card.side),
        "health": number("health")?,
        "cost": number("cost")?,
        "points": points,
        "die": stat("die").map(|d| d.split_whitespace().collect::<Vec<_>>()),
        "text": card.text.clone().unwrap_or_default(),
    });
    serde_json::from_value(v).map_err(|e| e.to_string())
}

impl CardDef {
    /// The card's reference, when it was named.
    pub fn reference(&self) -> Option<&str> {
        self.origin.as_ref().map(|o| o.reference.as_str())
    }

    /// How the trace names the card: its title, with its reference when named.
    pub fn described(&self) -> String {
        match self.reference() {
            Some(r) => format!("{} ({r})", self.title),
            None => self.title.clone(),
        }
    }
}

/// A color as the database spells it.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Blue => "blue",
        Color::Yellow => "yellow",
        Color::Gray => "gray",
    }
}

/// An affiliation as the database spells it.
pub fn affiliation_name(a: Affiliation) -> &'static str {
    match a {
        Affiliation::Hero => "hero",
        Affiliation::Villain => "villain",
        Affiliation::Neutral => "neutral",
    }
}

impl super::engine::Engine<'_> {
    /// One step naming the library or imported card behind each named card of
    /// the board, with any printed value the scenario set on purpose.
    pub(super) fn note_library(&mut self) {
        let defs = self.stat.defs.iter().enumerate();
        let line = library::named_cards(defs.map(|(c, d)| {
            (
                self.stat.keys[c].as_str(),
                d.title.clone(),
                d.origin.as_ref(),
            )
        }));
        if let Some(line) = line {
            self.log(
                crate::engine::Actor::Rules,
                crate::engine::Event::StateChange,
                line,
                &[super::rules::CARD_TYPES, super::rules::ABILITIES],
            );
        }
    }
}
