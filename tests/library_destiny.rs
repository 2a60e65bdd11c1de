//! The Destiny card library: every card loads with its text accounted for,
//! agrees with the real SWDestinyDB files, and scenarios name its cards.

use crate::library::{names, not_exercised};
use crate::util::real_data;
use std::collections::BTreeMap;
use std::path::Path;
use swjudge::engine::destiny::library::{self, affiliation_name, color_name};
use swjudge::scenario::{self, Verdict};

#[test]
fn every_destiny_library_card_loads_with_its_text_accounted_for() {
    crate::library::every_card_loads(library::catalogue(), 250);
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_destiny_library_card_agrees_with_the_real_database() {
    let Some(data) = real_data() else { return };
    let mut db: BTreeMap<String, serde_json::Value> = BTreeMap::new();
    let dir = data.join("swdestinydb-json-data/set");
    for f in std::fs::read_dir(&dir).unwrap() {
        let path = f.unwrap().path();
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        for c in v.as_array().unwrap() {
            db.insert(
                format!("destiny:{}", c["code"].as_str().unwrap()),
                c.clone(),
            );
        }
    }
    let cat = library::catalogue().unwrap();
    let mut wrong = Vec::new();
    for e in &cat.entries {
        let Some(c) = db.get(&e.reference) else {
            wrong.push(format!("{}: not in the database", e.reference));
            continue;
        };
        let d = &e.def;
        let mut differ = |what: &str, mine: String, theirs: String| {
            if mine != theirs {
                wrong.push(format!("{}: {what} {mine:?} vs {theirs:?}", e.reference));
            }
        };
        let s = |k: &str| c[k].as_str().unwrap_or("").to_string();
        let n = |k: &str| c[k].as_i64().map_or("none".into(), |v: i64| v.to_string());
        differ("title", d.title.clone(), s("name"));
        differ(
            "subtitle",
            d.subtitle.clone().unwrap_or_default(),
            s("subtitle"),
        );
        differ("type", d.card_type.as_str().into(), s("type_code"));
        differ(
            "unique",
            d.unique.to_string(),
            c["is_unique"].as_bool().unwrap_or(false).to_string(),
        );
        differ(
            "color",
            d.color.map_or("", color_name).into(),
            s("faction_code"),
        );
        differ(
            "affiliation",
            d.affiliation.map_or("", affiliation_name).into(),
            s("affiliation_code"),
        );
        let subtypes: Vec<String> = c["subtypes"]
            .as_array()
            .map(|a| a.iter().map(|v| v.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        differ("subtypes", d.subtypes.join(","), subtypes.join(","));
        differ(
            "health",
            d.health.map_or("none".into(), |v| v.to_string()),
            n("health"),
        );
        differ(
            "cost",
            d.cost.map_or("none".into(), |v| v.to_string()),
            n("cost"),
        );
        let points: Vec<String> = d.points.iter().map(i64::to_string).collect();
        let theirs = match &c["points"] {
            serde_json::Value::Null => String::new(),
            p => p.as_str().map_or(p.to_string(), str::to_string),
        };
        differ("points", points.join("/"), theirs);
        let sides: Vec<String> = c["sides"]
            .as_array()
            .map(|a| a.iter().map(|v| v.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        differ(
            "die",
            d.die.clone().unwrap_or_default().join(" "),
            sides.join(" "),
        );
        differ("text", squash(&d.text.full), squash(&s("text")));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

const BOARD: &str = "game: destiny
title: t
destiny:
  first: player1
  cards:
    han: {title: Han Solo, type: character, health: 10, die: [1RD, 2RD, 3RD1, 1R, Sp, \"-\"]}
    foe: FOE
  player1:
    characters: [{card: han, exhausted: true}]
    pool: {han: 2RD}
  player2:
    characters: [{card: foe}]
script:
  - {player1: resolve, dice: [han], to: [foe]}
expect:
  cards: {foe: {damage: 2}}
";

fn load(foe: &str) -> Result<scenario::Scenario, String> {
    scenario::load_str(Path::new("s.yaml"), &BOARD.replace("FOE", foe), None)
        .map_err(|e| e.to_string())
}

/// A character of the library with no game text, and its printed health.
fn plain_character() -> (String, i64) {
    let cat = library::catalogue().unwrap();
    let e = cat
        .entries
        .iter()
        .find(|e| e.def.card_type.as_str() == "character" && e.def.text.is_empty() && !e.def.unique)
        .expect("a character with no text");
    (e.reference.clone(), e.def.health.unwrap())
}

#[test]
fn a_named_destiny_card_runs_and_a_value_set_on_purpose_is_in_the_trace() {
    let (r, health) = plain_character();
    let s = load(&r).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scenario::run(&s).verdict, Verdict::Pass);
    let s = load(&format!(
        "{{card: \"{r}\", stats: {{health: {}}}}}",
        health + 3
    ))
    .unwrap();
    let run = scenario::run(&s);
    assert_eq!(run.verdict, Verdict::Pass);
    let step = s
        .run_engine()
        .trace
        .steps
        .into_iter()
        .find(|s| s.text.contains("named cards"))
        .expect("a step naming the cards");
    let said = format!("health {} (the card says {health})", health + 3);
    assert!(
        step.text.contains(&r) && step.text.contains(&said),
        "{}",
        step.text
    );
    assert!(!step.cites.is_empty());
}

#[test]
fn a_destiny_title_of_several_cards_is_a_load_error_listing_the_references() {
    let cat = library::catalogue().unwrap();
    let mut by_title: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for e in &cat.entries {
        by_title.entry(&e.def.title).or_default().push(&e.reference);
    }
    let (title, refs) = by_title
        .iter()
        .find(|(_, v)| v.len() > 1)
        .expect("a shared title");
    let e = load(&format!("\"{title}\"")).err().unwrap();
    assert!(refs.iter().all(|r| e.contains(r)), "{e}");
}

#[test]
fn a_named_destiny_card_takes_only_its_printed_values() {
    let (r, _) = plain_character();
    let e = load(&format!("{{card: \"{r}\", text: \"x\"}}"))
        .err()
        .unwrap();
    assert!(e.contains("overrides only `stats:`"), "{e}");
    let e = load(&format!("{{card: \"{r}\", stats: {{speed: 1}}}}"))
        .err()
        .unwrap();
    assert!(e.contains("speed"), "{e}");
    let e = load("{card: Nobody Such}").err().unwrap();
    assert!(e.contains("no card `Nobody Such`"), "{e}");
}

#[test]
fn a_named_destiny_card_whose_text_is_not_modelled_does_not_pass() {
    let cat = library::catalogue().unwrap();
    let e = cat
        .entries
        .iter()
        .find(|e| e.def.card_type.as_str() == "character" && !e.def.text.unencoded().is_empty())
        .unwrap();
    let s = load(&e.reference).unwrap();
    let run = scenario::run(&s);
    assert_eq!(run.verdict, Verdict::NotModelled);
    assert!(
        run.not_modelled[0].contains(&e.reference),
        "{:?}",
        run.not_modelled
    );
}

#[test]
fn every_destiny_library_card_with_encoded_text_is_named_by_a_scenario() {
    let cat = library::catalogue().unwrap();
    let text = crate::library::shipped_scenarios("destiny");
    let encoded = crate::library::encoded_references(cat, |d| &d.text);
    assert!(
        encoded.len() >= 298,
        "{} cards with encoded text",
        encoded.len()
    );
    let missing: Vec<&str> = encoded.into_iter().filter(|r| !names(&text, r)).collect();
    assert!(
        missing.is_empty(),
        "encoded cards no scenario names: {missing:?}"
    );
    assert!(!names("destiny:010550", "destiny:01055"));
}

#[test]
fn every_destiny_library_card_with_printed_text_is_encoded_and_named_by_a_scenario() {
    let cat = library::catalogue().unwrap();
    let scenarios = crate::library::shipped_scenarios("destiny");
    let gaps: Vec<String> = cat
        .entries
        .iter()
        .filter_map(|e| not_exercised(&e.reference, &e.def.text, &scenarios))
        .collect();
    assert!(gaps.is_empty(), "library cards not exercised: {gaps:?}");
    assert!(
        cat.entries.iter().any(|e| e.def.text.is_empty()),
        "cards with no printed text are in the library, and pass"
    );
    // The check can fail: a card no scenario names any more, or a card whose
    // sentences are all not modelled, is reported.
    let e = cat
        .entries
        .iter()
        .find(|e| !e.def.text.sentences.is_empty())
        .unwrap();
    let unnamed = scenarios.replace(&e.reference, "destiny:-");
    assert!(not_exercised(&e.reference, &e.def.text, &unnamed).is_some());
    let mut bare = e.def.text.clone();
    for s in &mut bare.sentences {
        s.by.clear();
    }
    assert!(not_exercised(&e.reference, &bare, &scenarios).is_some());
}
