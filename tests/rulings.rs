//! Published rulings as scenarios: each ruling scenario names a ruling its card
//! really has and quotes it in `notes:`; every line of `missing.tsv` names a real
//! ruling; a ruling source is checked when the scenario is loaded.

use crate::util::{real_data, root};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use swjudge::coverage::{scenario_files, scenario_sources};
use swjudge::game::Game;
use swjudge::rulings::{self, RulingRef};
use swjudge::scenario;

/// Whitespace runs as one space.
fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn rulings_dir() -> PathBuf {
    root().join("scenarios/swccg/rulings")
}

/// Every SWCCG card's rulings from the real database, by reference.
fn database(data: &Path) -> BTreeMap<String, Vec<String>> {
    let mut db = BTreeMap::new();
    for side in ["Light", "Dark"] {
        let path = data.join(format!("swccg-card-json/{side}.json"));
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        for c in v["cards"].as_array().unwrap() {
            let list = c["rulings"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|r| r.as_str().unwrap_or("").to_string())
                        .collect()
                })
                .unwrap_or_default();
            db.insert(format!("swccg:{}", c["id"]), list);
        }
    }
    db
}

/// Each ruling scenario: its file, the ruling it names and its notes.
fn ruling_scenarios() -> Vec<(String, RulingRef, String)> {
    let files = scenario_files(&[rulings_dir()]).unwrap();
    let mut out = Vec::new();
    for f in files {
        let v: serde_json::Value = swjudge::yaml::load_file(&f).unwrap();
        let source = v["source"].as_str().unwrap_or("");
        let r = match RulingRef::parse(source) {
            Some(Ok(r)) => r,
            _ => panic!("{}: source `{source}` is not a ruling", f.display()),
        };
        let notes = v["notes"].as_str().unwrap_or("").to_string();
        out.push((f.display().to_string(), r, notes));
    }
    out
}

#[test]
fn every_ruling_scenario_quotes_a_ruling_its_card_has() {
    let list = ruling_scenarios();
    assert!(list.len() >= 50, "{} ruling scenarios", list.len());
    let Some(data) = real_data() else { return };
    let db = database(&data);
    let mut wrong = Vec::new();
    for (file, r, notes) in &list {
        let Some(rulings) = db.get(&r.card_reference()) else {
            wrong.push(format!(
                "{file}: {} is not in the database",
                r.card_reference()
            ));
            continue;
        };
        let Some(text) = rulings.get(r.n - 1) else {
            wrong.push(format!(
                "{file}: {} has {} rulings",
                r.card_reference(),
                rulings.len()
            ));
            continue;
        };
        if !squash(notes).contains(&squash(text)) {
            wrong.push(format!("{file}: notes do not quote {r}: {text:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_missing_ruling_is_a_real_ruling_no_scenario_reproduces() {
    let file = rulings_dir().join("missing.tsv");
    let text = std::fs::read_to_string(&file).unwrap();
    let listed = rulings::parse_missing(&file, &text).unwrap();
    assert!(!listed.is_empty());
    let sources = scenario_sources(&scenario_files(&[rulings_dir()]).unwrap()).unwrap();
    let cov = rulings::ruling_coverage(&sources, listed.clone());
    assert!(cov.warnings.is_empty(), "{}", cov.warnings.join("\n"));
    let Some(data) = real_data() else { return };
    let db = database(&data);
    for m in &listed {
        let n = db.get(&m.ruling.card_reference()).map_or(0, Vec::len);
        assert!(m.ruling.n <= n, "{}: the card has {n} rulings", m.ruling);
    }
}

const BOARD: &str = "game: GAME
title: t
source: SOURCE
BOARD
";

fn load(game: Game, source: &str) -> Result<scenario::Scenario, String> {
    let board = match game {
        Game::Swccg => "swccg:\n  turn: light\n  phase: deploy",
        Game::Destiny => "destiny: {}",
        Game::Swtcg => "swtcg: {}",
    };
    let text = BOARD
        .replace("GAME", game.as_str())
        .replace("SOURCE", source)
        .replace("BOARD", board);
    scenario::load_str(Path::new("r.yaml"), &text, None).map_err(|e| e.to_string())
}

#[test]
fn a_ruling_source_must_name_a_library_card_of_the_scenarios_game() {
    assert!(load(Game::Swccg, "ruling:swccg:1595#1").is_ok());
    let e = load(Game::Swccg, "ruling:swccg:99999999#1").err().unwrap();
    assert!(
        e.starts_with("r.yaml:3:9:") && e.contains("not in the card library"),
        "{e}"
    );
    let e = load(Game::Swccg, "ruling:destiny:01093#1").err().unwrap();
    assert!(
        e.starts_with("r.yaml:3:9:") && e.contains("game: swccg"),
        "{e}"
    );
    let e = load(Game::Swccg, "ruling:swccg:1595").err().unwrap();
    assert!(e.contains("ruling:<game>:<card id>#<n>"), "{e}");
}
