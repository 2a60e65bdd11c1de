//! The SWTCG card library: every card loads with its text accounted for,
//! agrees with the real LackeyCCG set files, and scenarios name its cards.

use crate::library::names;
use crate::util::real_data;
use std::collections::BTreeMap;
use std::path::Path;
use swjudge::engine::library::LibraryCard;
use swjudge::engine::swtcg::library::{self, kind_and_types, name_and_version};
use swjudge::engine::swtcg::model::Kind;
use swjudge::scenario::{self, Verdict};

#[test]
fn every_swtcg_library_card_loads_with_its_text_accounted_for() {
    crate::library::every_card_loads(library::catalogue(), 250);
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A LackeyCCG number as the importer reads it: `7.0` → `7`.
fn number(s: &str) -> String {
    let s = s.trim();
    s.strip_suffix(".0").unwrap_or(s).to_string()
}

/// A field as LackeyCCG quotes it: `"a ""b"""` → `a "b"`.
fn unquote(v: &str) -> String {
    match v.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => v.to_string(),
    }
}

/// Every row of the real set files by reference: `SET-NUMBER`, or
/// `SET-IMAGEFILE` for a card whose number is not its own.
fn database(data: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut db = BTreeMap::new();
    for f in std::fs::read_dir(data.join("swtcg-lackey/sets")).unwrap() {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
        let rows: Vec<BTreeMap<String, String>> = lines
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                header
                    .iter()
                    .zip(l.split('\t'))
                    .map(|(h, v)| (h.to_string(), unquote(v)))
                    .collect()
            })
            .collect();
        let mut count: BTreeMap<String, usize> = BTreeMap::new();
        for r in &rows {
            *count.entry(number(&r["Number"])).or_default() += 1;
        }
        for r in rows {
            let n = number(&r["Number"]);
            let id = if !n.is_empty() && n != "P" && count[&n] == 1 {
                n
            } else {
                r["ImageFile"].clone()
            };
            db.insert(format!("swtcg:{}-{id}", r["Set"]), r);
        }
    }
    db
}

#[test]
fn every_swtcg_library_card_agrees_with_the_real_database() {
    let Some(data) = real_data() else { return };
    let db = database(&data);
    let cat = library::catalogue().unwrap();
    let mut wrong = Vec::new();
    for e in &cat.entries {
        let Some(r) = db.get(&e.reference) else {
            wrong.push(format!("{}: not in the database", e.reference));
            continue;
        };
        let d = &e.def;
        let mut differ = |what: &str, mine: String, theirs: String| {
            if mine != theirs {
                wrong.push(format!("{}: {what} {mine:?} vs {theirs:?}", e.reference));
            }
        };
        let side = match r["Side"].trim() {
            "L" => "Some(Light)",
            "D" => "Some(Dark)",
            "N" => "Some(Neutral)",
            _ => "None",
        };
        differ("side", format!("{:?}", d.side), side.to_string());
        let (name, version) = name_and_version(&r["Name"]);
        differ("name", d.name.clone(), name);
        differ(
            "version",
            format!("{:?}", d.version),
            format!("{version:?}"),
        );
        match kind_and_types(&r["Type"], &r["Subtype"]) {
            Ok((kind, types, subtypes)) => {
                differ("kind", format!("{:?}", d.kind), format!("{kind:?}"));
                differ("types", format!("{:?}", d.types), format!("{types:?}"));
                differ("subtypes", d.subtypes.clone(), subtypes);
            }
            Err(m) => differ("type", m, String::new()),
        }
        for (k, mine) in [
            ("Cost", d.cost),
            ("Speed", d.speed),
            ("Power", d.power),
            ("Health", d.health),
        ] {
            let theirs = number(&r[k]);
            let theirs = if theirs.is_empty() {
                "0".into()
            } else {
                theirs
            };
            differ(k, mine.to_string(), theirs);
        }
        differ(
            "text",
            squash(&d.text.full),
            squash(&r["Text"].replace(" | ", " ")),
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

const BOARD: &str = "game: swtcg
title: t
swtcg:
  arena: ground
  cards:
    atst: {name: AT-ST, types: [ground], speed: 50, power: 2, health: 5}
    foe: FOE
  dark:
    ground: [{card: atst}]
  light:
    ground: [{card: foe, tapped: true}]
script:
  - {dark: attack, unit: atst, target: foe}
  - {dark: roll, dice: [4, 6]}
expect:
  units: {foe: {damage: 2}}
";

fn load(foe: &str) -> Result<scenario::Scenario, String> {
    scenario::load_str(Path::new("s.yaml"), &BOARD.replace("FOE", foe), None)
        .map_err(|e| e.to_string())
}

/// A Ground unit of the library with no game text, slower than the AT-ST and
/// able to take two damage, with its printed health.
fn plain_ground_unit() -> (String, i64) {
    let cat = library::catalogue().unwrap();
    let e = cat
        .entries
        .iter()
        .find(|e| {
            let d = &e.def;
            d.kind == Kind::Unit
                && d.types == [swjudge::engine::swtcg::model::Arena::Ground]
                && d.text.is_empty()
                && d.version.is_none()
                && d.speed < 50
                && d.health > 2
        })
        .expect("a plain Ground unit");
    (e.reference.clone(), e.def.health)
}

#[test]
fn a_named_swtcg_card_runs_and_a_value_set_on_purpose_is_in_the_trace() {
    let (r, health) = plain_ground_unit();
    let s = load(&r).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scenario::run(&s).verdict, Verdict::Pass);
    let s = load(&format!(
        "{{card: \"{r}\", stats: {{health: {}}}}}",
        health + 2
    ))
    .unwrap();
    assert_eq!(scenario::run(&s).verdict, Verdict::Pass);
    let step = s
        .run_engine()
        .trace
        .steps
        .into_iter()
        .find(|s| s.text.contains("named cards"))
        .expect("a step naming the cards");
    let said = format!("health {} (the card says {health})", health + 2);
    assert!(
        step.text.contains(&r) && step.text.contains(&said),
        "{}",
        step.text
    );
    assert!(!step.cites.is_empty());
}

#[test]
fn a_swtcg_title_of_several_cards_is_a_load_error_listing_the_references() {
    let cat = library::catalogue().unwrap();
    let mut by_title: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for e in &cat.entries {
        by_title
            .entry(e.def.title())
            .or_default()
            .push(&e.reference);
    }
    let (title, refs) = by_title
        .iter()
        .find(|(_, v)| v.len() > 1)
        .expect("a shared title");
    let e = load(&format!("\"{title}\"")).err().unwrap();
    assert!(refs.iter().all(|r| e.contains(r)), "{e}");
}

#[test]
fn a_named_swtcg_card_takes_only_its_printed_values() {
    let (r, _) = plain_ground_unit();
    let e = load(&format!("{{card: \"{r}\", keywords: {{armor: true}}}}"))
        .err()
        .unwrap();
    assert!(e.contains("overrides only `stats:`"), "{e}");
    let e = load(&format!("{{card: \"{r}\", stats: {{ability: 1}}}}"))
        .err()
        .unwrap();
    assert!(e.contains("ability"), "{e}");
}

/// A library Ground unit with a sentence of text not modelled.
fn ground_unit_with_text_not_modelled()
-> &'static swjudge::engine::library::Entry<swjudge::engine::swtcg::model::CardDef> {
    library::catalogue()
        .unwrap()
        .entries
        .iter()
        .find(|e| {
            e.def.kind == Kind::Unit
                && e.def.types == [swjudge::engine::swtcg::model::Arena::Ground]
                && !e.def.text.unencoded().is_empty()
        })
        .unwrap()
}

#[test]
fn a_named_swtcg_card_whose_text_is_not_modelled_does_not_pass() {
    let e = ground_unit_with_text_not_modelled();
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
fn swtcg_text_on_the_starting_board_is_reported_and_the_run_goes_on() {
    // A Ground unit all of whose text is not modelled (every library card
    // with text has some of it encoded), slower than the attacker and able
    // to take two damage: nothing of it bears on the attack.
    let board = BOARD.replace(
        "FOE",
        "{name: Sentry, types: [ground], speed: 10, power: 1, health: 5, text: \"When your build step starts, sing.\"}",
    );
    let run_with = |ack: &str| {
        let text = format!("{board}{ack}");
        scenario::run(&scenario::load_str(Path::new("s.yaml"), &text, None).unwrap())
    };
    // Unacknowledged: reported, and the run does not pass, though the attack
    // was resolved and every other expectation holds.
    let run = run_with("");
    assert_eq!(run.verdict, Verdict::NotModelled, "{:?}", run.problems());
    assert_eq!(run.not_modelled.len(), 1, "{:?}", run.not_modelled);
    assert!(run.not_modelled[0].contains("Sentry"));
    let others = run.expectations.iter().filter(|x| x.path != "not_modelled");
    assert!(others.clone().all(|x| x.ok) && others.count() > 0);
    // An acknowledgement naming other text does not cover it.
    let met = serde_json::json!(run.not_modelled[0]);
    let run = run_with("  not_modelled: [\"some other text\"]\n");
    assert_eq!(run.verdict, Verdict::NotModelled, "{:?}", run.problems());
    // Acknowledged by its text, the run passes.
    let ack = format!("  not_modelled: [{met}]\n");
    let run = run_with(&ack);
    assert_eq!(run.verdict, Verdict::Pass, "{:?}", run.problems());
}

/// A command phase in which the Dark Side deploys `unit` from hand.
const DEPLOY: &str = "game: swtcg
title: t
swtcg:
  start: command
  through: command
  cards:
    unit: {card: \"REF\"}
  dark:
    build: 30
    hand: [unit]
script:
  - {dark: deploy, card: unit, arena: ground}
  - {dark: pass}
expect:
  cards: {unit: dark.ground}
  outcome: needs_decision
ACK";

#[test]
fn a_swtcg_card_deployed_with_text_not_modelled_does_not_pass_unacknowledged() {
    let e = ground_unit_with_text_not_modelled();
    let board = DEPLOY.replace("REF", &e.reference);
    let s = scenario::load_str(Path::new("s.yaml"), &board.replace("ACK", ""), None).unwrap();
    let run = scenario::run(&s);
    assert_eq!(run.verdict, Verdict::NotModelled, "{:?}", run.problems());
    assert_eq!(run.not_modelled.len(), 1, "{:?}", run.not_modelled);
    assert!(run.not_modelled[0].contains(&e.reference));
    // Acknowledged, the text is still reported and the run goes on.
    let ack = format!(
        "  not_modelled: [{}]\n",
        serde_json::json!(run.not_modelled[0])
    );
    let s = scenario::load_str(Path::new("s.yaml"), &board.replace("ACK", &ack), None).unwrap();
    let run = scenario::run(&s);
    assert_eq!(run.verdict, Verdict::Pass, "{:?}", run.problems());
}

/// The cards of the SWTCG library that break its rule: each card has no
/// printed text, or has a sentence of it encoded and is named by a shipped
/// scenario (by reference).
fn cards_out_of_place(text: &str) -> Vec<String> {
    let cat = library::catalogue().unwrap();
    cat.entries
        .iter()
        .filter_map(|e| crate::library::not_exercised(&e.reference, &e.def.text, text))
        .collect()
}

#[test]
fn every_swtcg_library_card_with_text_is_encoded_and_named_by_a_scenario() {
    let text = crate::library::shipped_scenarios("swtcg");
    let wrong = cards_out_of_place(&text);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // A card falls out when the scenarios naming it go: the check can fail.
    let cat = library::catalogue().unwrap();
    let (r, _) = plain_ground_unit();
    let e = (cat.entries.iter())
        .find(|e| !e.def.text.is_empty() && e.reference != r)
        .unwrap();
    let without = text.replace(&e.reference, "swtcg:NONE");
    let wrong = cards_out_of_place(&without);
    assert!(
        wrong
            .iter()
            .any(|w| w.starts_with(&format!("{}:", e.reference))),
        "{wrong:?}"
    );
    assert!(!names("swtcg:ANH-11 ", "swtcg:ANH-1"));
    assert!(!names("swtcg:PROMO-X_C2", "swtcg:PROMO-X_C"));
}

#[test]
fn a_board_naming_neutral_units_needs_every_units_side_symbol() {
    let board = |side: &str| {
        format!(
            "game: swtcg
title: t
swtcg:
  arena: ground
  cards:
    palace: \"swtcg:ROTJ-21\"
    jawa: {{name: Jawa, {side}types: [ground], cost: 2, speed: 20, power: 1, health: 2}}
  dark:
    locations: [{{card: palace}}]
    ground: [{{card: jawa, tapped: true}}]
expect:
  units: {{jawa: {{power: 2}}}}
"
        )
    };
    let e = scenario::load_str(Path::new("s.yaml"), &board(""), None)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("card `jawa` needs `side:`"), "{e}");
    for (side, verdict) in [("neutral", Verdict::Pass), ("dark", Verdict::Fail)] {
        let s = scenario::load_str(
            Path::new("s.yaml"),
            &board(&format!("side: {side}, ")),
            None,
        )
        .unwrap();
        assert_eq!(scenario::run(&s).verdict, verdict, "{side}");
    }
}
