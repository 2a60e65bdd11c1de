//! SWCCG Players Committee card JSON (`Light.json`, `Dark.json`):
//! `{"cards": [{"id", "gempId", "side", "set", "rarity", "front": {...}, "back": {...},
//! "abbr": [...], "rulings": [...], "legacy"}]}`. Stats are strings; `front.errataSymbol`
//! / `printableSlipType: "ERRATA"` mark a gametext that already carries errata.

use super::import::{self, Rejected, scalar, strings, text};
use super::{Card, Entry, Face, Stats};
use crate::game::Game;
use serde_json::Value;
use std::collections::HashMap;

/// Stat fields in the order players read them, with their display names.
const STATS: &[(&str, &str)] = &[
    ("power", "power"),
    ("ability", "ability"),
    ("deploy", "deploy"),
    ("forfeit", "forfeit"),
    ("destiny", "destiny"),
    ("armor", "armor"),
    ("maneuver", "maneuver"),
    ("hyperspeed", "hyperspeed"),
    ("landspeed", "landspeed"),
    ("politics", "politics"),
    ("ferocity", "ferocity"),
    ("parsec", "parsec"),
    ("lightSideIcons", "light side icons"),
    ("darkSideIcons", "dark side icons"),
];

/// Set names by set ID (the Players Committee's `sets.json`), for card files
/// imported without that file beside them; with the virtual sets and blocks
/// that [`virtual_sets`] numbers.
const SET_NAMES: &[(&str, &str)] = &[
    ("1", "Premiere"),
    ("101", "Premiere Introductory Two Player Game"),
    ("102", "Jedi Pack"),
    ("103", "Rebel Leader Pack"),
    ("2", "A New Hope"),
    ("3", "Hoth"),
    ("104", "Empire Strikes Back Introductory Two Player Game"),
    ("4", "Dagobah"),
    ("105", "First Anthology"),
    ("5", "Cloud City"),
    ("6", "Jabba's Palace"),
    ("106", "Official Tournament Sealed Deck"),
    ("107", "Second Anthology"),
    ("7", "Special Edition"),
    ("108", "Enhanced Premiere"),
    ("8", "Endor"),
    ("109", "Enhanced Cloud City"),
    ("110", "Enhanced Jabba's Palace"),
    ("111", "Third Anthology"),
    ("9", "Death Star II"),
    ("112", "Jabba's Palace Sealed Deck"),
    ("10", "Reflections 2"),
    ("11", "Tatooine"),
    ("12", "Coruscant"),
    ("13", "Reflections 3"),
    ("14", "Theed Palace"),
    ("301", "Demo Deck"),
    ("401", "Dream Cards"),
    ("501", "Playtesting"),
    ("200d", "Virtual Defensive Shields"),
    ("1000d", "Virtual Block Shields"),
];

/// Is this the Players Committee layout? (an object with a `cards` array)
pub fn looks_like(v: &Value) -> bool {
    v.get("cards").is_some_and(Value::is_array)
}

/// Convert every record; bad records are rejected with their ID.
pub fn parse(
    v: &Value,
    file: &str,
    set_names: &HashMap<String, String>,
) -> (Vec<Card>, Vec<Rejected>) {
    let records = v
        .get("cards")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    import::convert(records, record_id, |rec| card(rec, file, set_names))
}

fn record_id(rec: &Value) -> Option<String> {
    rec.get("id")
        .and_then(scalar)
        .or_else(|| rec.get("gempId").and_then(scalar))
}

/// Split leading uniqueness marks ("•", "<>", "*") off a title.
pub fn split_uniqueness(title: &str) -> (Option<String>, String) {
    let t = title.trim();
    let rest = t.trim_start_matches(['•', '*', '<', '>', '◊', ' ']);
    let marks = &t[..t.len() - rest.len()];
    let marks = marks.trim();
    (
        (!marks.is_empty()).then(|| marks.replace('*', "•")),
        rest.trim().to_string(),
    )
}

fn card(rec: &Value, file: &str, set_names: &HashMap<String, String>) -> Result<Card, String> {
    if !rec.is_object() {
        return Err("not an object".into());
    }
    let id = rec.get("id").and_then(scalar).ok_or("missing \"id\"")?;
    let front = rec
        .get("front")
        .filter(|f| f.is_object())
        .ok_or("missing \"front\" object")?;
    let raw_title = front
        .get("title")
        .and_then(Value::as_str)
        .filter(|t| !t.trim().is_empty())
        .ok_or("missing \"front.title\"")?;
    let (uniq, first) = split_uniqueness(raw_title);
    // two-sided titles repeat the marks after " / "
    let title = match first.split_once(" / ") {
        Some((a, b)) => format!("{a} / {}", split_uniqueness(b).1),
        None => first,
    };
    if title.is_empty() {
        return Err(format!("title {raw_title:?} has no name"));
    }
    let source = format!("{file}#{id}");
    let mut c = Card::new(Game::Swccg, &id, &title, source.clone());
    c.uniqueness = uniq;
    c.side = rec.get("side").and_then(scalar);
    c.card_type = front.get("type").and_then(scalar);
    c.subtype = front.get("subType").and_then(scalar);
    c.set = rec
        .get("set")
        .and_then(scalar)
        .map(|s| set_names.get(&s).cloned().unwrap_or(s));
    c.rarity = rec.get("rarity").and_then(scalar);
    c.legacy = rec.get("legacy").and_then(Value::as_bool).unwrap_or(false);
    c.relations = super::Relations {
        cancels: strings(rec.get("cancels")),
        canceled_by: strings(rec.get("canceledBy")),
        pulls: strings(rec.get("pulls")),
        pulled_by: strings(rec.get("pulledBy")),
    };
    c.stats = stats(front);
    c.text = text(front, "gametext");
    c.lore = text(front, "lore");
    c.icons = strings(front.get("icons"));
    c.characteristics = strings(front.get("characteristics"));
    c.nicknames = strings(rec.get("abbr"));
    let errata_symbol = front.get("errataSymbol").and_then(scalar);
    let slip_errata = front.get("printableSlipType").and_then(Value::as_str) == Some("ERRATA");
    if errata_symbol.is_some() || slip_errata {
        c.text_is_errata = true;
        let mut note = match &errata_symbol {
            Some(sym) => format!("Players Committee errata {sym}"),
            None => "Players Committee errata".to_string(),
        };
        if let Some(d) = front.get("errataDate").and_then(scalar) {
            note.push_str(&format!(" ({d})"));
        }
        c.notes.push(note);
    }
    if let Some(n) = text(front, "errataNotes") {
        c.errata.push(Entry {
            text: n,
            source: source.clone(),
        });
    }
    for r in strings(rec.get("rulings")) {
        c.rulings.push(Entry {
            text: strip_html(&r),
            source: source.clone(),
        });
    }
    if let Some(back) = rec.get("back").filter(|b| b.is_object()) {
        let bt = back
            .get("title")
            .and_then(Value::as_str)
            .map(|t| split_uniqueness(t).1)
            .unwrap_or_default();
        c.back = Some(Face {
            title: bt,
            card_type: back.get("type").and_then(scalar),
            text: text(back, "gametext"),
            stats: stats(back),
        });
    }
    if c.legacy {
        c.notes
            .push("legacy card (not legal in current formats)".into());
    }
    Ok(c)
}

fn stats(face: &Value) -> Stats {
    let mut s = Stats::default();
    for (key, name) in STATS {
        if let Some(v) = face.get(*key).and_then(scalar) {
            s.push(name, v);
        }
    }
    s
}

/// Rulings carry light HTML (`<u>not</u>`); keep the words.
fn strip_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// Virtual Sets 0 to 26 (IDs 200 to 226) and Virtual Blocks 1 to 9 (IDs 1001
/// to 1009).
fn virtual_sets() -> impl Iterator<Item = (String, String)> {
    let sets = (0..=26).map(|n| ((200 + n).to_string(), format!("Virtual Set {n}")));
    let blocks = (1..=9).map(|n| ((1000 + n).to_string(), format!("Virtual Block {n}")));
    sets.chain(blocks)
}

/// Set names: the built-in table, overridden by `sets.json` beside the card files
/// (`[{"id": "1", "name": "Premiere"}, ...]`) when there is one.
pub fn set_names(v: &Value) -> HashMap<String, String> {
    let built_in = SET_NAMES
        .iter()
        .map(|(id, n)| (id.to_string(), n.to_string()))
        .chain(virtual_sets());
    import::set_names(built_in, v, "id")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniqueness_marks() {
        assert_eq!(
            split_uniqueness("•2-1B (Too-Onebee)"),
            (Some("•".into()), "2-1B (Too-Onebee)".into())
        );
        assert_eq!(
            split_uniqueness("<><><>Asteroid Field"),
            (Some("<><><>".into()), "Asteroid Field".into())
        );
        assert_eq!(split_uniqueness("Alter"), (None, "Alter".into()));
        assert_eq!(
            split_uniqueness("**Admiral Ozzel"),
            (Some("••".into()), "Admiral Ozzel".into())
        );
    }

    #[test]
    fn set_names_resolve_without_sets_json_and_the_file_wins() {
        let built_in = set_names(&Value::Null);
        assert_eq!(built_in.get("3").map(String::as_str), Some("Hoth"));
        assert_eq!(built_in.get("1").map(String::as_str), Some("Premiere"));
        let v: Value = serde_json::from_str(r#"[{"id": "3", "name": "Hoth (renamed)"}]"#).unwrap();
        assert_eq!(
            set_names(&v).get("3").map(String::as_str),
            Some("Hoth (renamed)")
        );
        assert_eq!(set_names(&v).get("1").map(String::as_str), Some("Premiere"));
    }

    #[test]
    fn record_to_card() {
        let v: Value = serde_json::from_str(
            r#"{"cards":[
              {"id": 5300, "side": "Light", "set": "3", "rarity": "R1", "abbr": ["Too"],
               "front": {"title": "•2-1B (Too-Onebee)", "type": "Character", "subType": "Droid",
                 "power": "0", "deploy": "2", "forfeit": "5", "destiny": "1", "errataSymbol": "E1",
                 "gametext": "Once per turn...", "icons": ["Hoth"]},
               "rulings": ["This card is <u>not</u> a maintenance droid."]},
              {"id": 7, "front": {"type": "Effect"}},
              {"front": {"title": "No id"}}
            ]}"#,
        )
        .unwrap();
        let sets = HashMap::from([("3".to_string(), "Hoth".to_string())]);
        let (cards, rej) = parse(&v, "Light.json", &sets);
        assert_eq!(cards.len(), 1);
        let c = &cards[0];
        assert_eq!(c.title, "2-1B (Too-Onebee)");
        assert_eq!(c.uniqueness.as_deref(), Some("•"));
        assert_eq!(c.set.as_deref(), Some("Hoth"));
        assert_eq!(
            c.stats.iter().map(|(k, _)| k).collect::<Vec<_>>(),
            ["power", "deploy", "forfeit", "destiny"]
        );
        assert!(c.text_is_errata);
        assert_eq!(c.rulings[0].text, "This card is not a maintenance droid.");
        assert_eq!(c.rulings[0].source, "Light.json#5300");
        assert_eq!(rej.len(), 2);
        assert_eq!(rej[0].id, "card 7");
        assert!(rej[0].reason.contains("front.title"));
        assert_eq!(rej[1].id, "record 3");
    }
}
