//! SWDestinyDB set files (`set/<CODE>.json`): a JSON array of cards with `code`,
//! `name`, `subtitle`, `set_code`, `position`, `type_code`, `affiliation_code`,
//! `health`, `points`, `cost`, `sides` (six die faces), `text`, `has_errata`.

use super::die::DieFace;
use super::import::{self, Rejected, scalar, strings, text};
use super::{Card, Stats};
use crate::game::Game;
use serde_json::Value;
use std::collections::HashMap;

/// Set names by code, for files imported without the `sets.json` lookup table.
const SET_NAMES: &[(&str, &str)] = &[
    ("AW", "Awakenings"),
    ("SoR", "Spirit of Rebellion"),
    ("EaW", "Empire at War"),
    ("TPG", "Two-Player Game"),
    ("LEG", "Legacies"),
    ("RIV", "Rivals"),
    ("WotF", "Way of the Force"),
    ("AtG", "Across the Galaxy"),
    ("CONV", "Convergence"),
    ("AoN", "Allies of Necessity"),
    ("SoH", "Spark of Hope"),
    ("CM", "Covert Missions"),
    ("TR", "Transformations"),
    ("FA", "Faltering Allegiances"),
    ("RM", "Redemption"),
    ("EC", "Eternal Conflict"),
    ("HS", "High Stakes"),
    ("PW", "Parting Words"),
];

/// Is this an SWDestinyDB set file? (an array of objects with `code` and `type_code`)
pub fn looks_like(v: &Value) -> bool {
    v.as_array().is_some_and(|a| {
        a.iter()
            .any(|c| c.get("type_code").is_some() && c.get("code").is_some())
    })
}

/// `sets.json`: `[{"code": "AW", "name": "Awakenings"}, ...]`.
pub fn set_names(v: &Value) -> HashMap<String, String> {
    let built_in = SET_NAMES
        .iter()
        .map(|(c, n)| (c.to_string(), n.to_string()));
    import::set_names(built_in, v, "code")
}

pub fn parse(
    v: &Value,
    file: &str,
    set_names: &HashMap<String, String>,
) -> (Vec<Card>, Vec<Rejected>) {
    let records = v.as_array().into_iter().flatten();
    import::convert(
        records,
        |rec| rec.get("code").and_then(scalar),
        |rec| card(rec, file, set_names),
    )
}

fn title_case(code: &str) -> String {
    let mut c = code.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn card(rec: &Value, file: &str, set_names: &HashMap<String, String>) -> Result<Card, String> {
    if !rec.is_object() {
        return Err("not an object".into());
    }
    let field = |key: &str| rec.get(key).and_then(scalar);
    let code = field("code").ok_or("missing \"code\"")?;
    let name = rec
        .get("name")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .ok_or("missing \"name\"")?;
    let mut c = Card::new(Game::Destiny, &code, name, format!("{file}#{code}"));
    if rec.get("is_unique").and_then(Value::as_bool) == Some(true) {
        c.uniqueness = Some("◆".into());
    }
    c.subtitle = text(rec, "subtitle");
    c.side = field("affiliation_code").map(|a| title_case(&a));
    c.card_type = field("type_code").map(|t| title_case(&t));
    let subtypes = strings(rec.get("subtypes"));
    c.subtype = (!subtypes.is_empty()).then(|| subtypes.join(", "));
    c.set = field("set_code").map(|s| set_names.get(&s).cloned().unwrap_or(s));
    c.number = field("position");
    c.rarity = field("rarity_code");
    let mut s = Stats::default();
    for key in ["health", "points"] {
        if let Some(v) = field(key) {
            s.push(key, v);
        }
    }
    match rec.get("cost") {
        Some(Value::Null)
            if c.card_type.as_deref() != Some("Character")
                && c.card_type.as_deref() != Some("Battlefield") =>
        {
            s.push("cost", "X")
        }
        Some(v) => {
            if let Some(cost) = scalar(v) {
                s.push("cost", cost)
            }
        }
        None => {}
    }
    if let Some(f) = field("faction_code") {
        s.push("color", f);
    }
    match rec.get("sides") {
        None | Some(Value::Null) => {}
        Some(Value::Array(sides)) => {
            if sides.len() != 6 {
                return Err(format!("die has {} faces, expected 6", sides.len()));
            }
            for (i, side) in sides.iter().enumerate() {
                let Some(raw) = side.as_str() else {
                    return Err(format!("die face {} is not a string", i + 1));
                };
                let face =
                    DieFace::parse(raw).map_err(|e| format!("die face {} {raw:?}: {e}", i + 1))?;
                c.die.push(face);
            }
            let raws: Vec<&str> = c.die.iter().map(|f| f.raw.as_str()).collect();
            s.push("die", raws.join(" "));
        }
        Some(_) => return Err("\"sides\" is not an array".into()),
    }
    c.stats = s;
    c.text = text(rec, "text");
    if rec.get("has_errata").and_then(Value::as_bool) == Some(true) {
        c.notes.push(super::SOURCE_ERRATA_NOTE.into());
    }
    if let Some(r) = field("reprint_of") {
        c.notes.push(format!("reprint of {r}"));
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_to_card_and_face_rejects() {
        let v: Value = serde_json::from_str(
            r#"[
              {"code": "01001", "name": "Captain Phasma", "subtitle": "Elite Trooper", "set_code": "AW", "position": 1,
               "type_code": "character", "affiliation_code": "villain", "faction_code": "red", "is_unique": true,
               "health": 11, "points": "12/15", "sides": ["1RD", "2RD", "1F", "1Dc", "1R", "-"], "text": "Guardian."},
              {"code": "01002", "name": "Bad Die", "type_code": "upgrade", "sides": ["1RD", "2Q", "1F", "1Dc", "1R", "-"]},
              {"code": "01003", "name": "Short Die", "type_code": "upgrade", "sides": ["1RD"]}
            ]"#,
        )
        .unwrap();
        assert!(looks_like(&v));
        let (cards, rej) = parse(&v, "AW.json", &set_names(&Value::Null));
        assert_eq!(cards.len(), 1);
        let c = &cards[0];
        assert_eq!(c.set.as_deref(), Some("Awakenings"));
        assert_eq!(c.stats.get("health"), Some("11"));
        assert_eq!(c.stats.get("points"), Some("12/15"));
        assert_eq!(c.die.len(), 6);
        assert_eq!(rej[0].id, "card 01002");
        assert!(
            rej[0].reason.contains("die face 2 \"2Q\""),
            "{}",
            rej[0].reason
        );
        assert!(rej[1].reason.contains("expected 6"));
    }
}
