//! The card library: every card loads, every sentence of its text is accounted
//! for, each card agrees with the real database, and scenarios name cards.

use crate::util::real_data;
use std::collections::BTreeMap;
use std::path::Path;
use swjudge::engine::library::LibraryCard;
use swjudge::engine::swccg::library;
use swjudge::scenario::{self, Verdict};

#[test]
fn every_library_card_loads_with_its_text_accounted_for() {
    every_card_loads(library::catalogue(), 600);
}

/// Every card of a game's library loads, once, with no origin of its own, its
/// text written sentence by sentence and every sentence accounted for.
pub fn every_card_loads<C: LibraryCard>(
    cat: Result<&swjudge::engine::library::Catalogue<C>, String>,
    at_least: usize,
) {
    let cat = cat.unwrap_or_else(|e| panic!("{e}"));
    assert!(cat.entries.len() >= at_least, "{} cards", cat.entries.len());
    let mut seen = std::collections::BTreeSet::new();
    for e in &cat.entries {
        assert!(seen.insert(&e.reference), "{} twice", e.reference);
        assert!(
            !e.def.text().plain,
            "{}: text must be written sentence by sentence",
            e.reference
        );
        e.def.check_text().unwrap();
        assert!(e.def.clone().origin_mut().is_none(), "{}", e.reference);
    }
}

/// The shipped scenarios of one game (`scenarios/<game>`), as one text.
pub fn shipped_scenarios(game: &str) -> String {
    let dir = crate::util::root().join("scenarios").join(game);
    let files = swjudge::scenario::find_files(&[dir]).unwrap();
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The references of the library cards with at least one encoded sentence.
pub fn encoded_references<C>(
    cat: &swjudge::engine::library::Catalogue<C>,
    text: impl Fn(&C) -> &swjudge::engine::library::CardText,
) -> Vec<&str> {
    cat.entries
        .iter()
        .filter(|e| text(&e.def).sentences.iter().any(|s| !s.by.is_empty()))
        .map(|e| e.reference.as_str())
        .collect()
}

/// Whether `text` names `reference` (not as the start of a longer
/// reference: `swtcg:ANH-1` is not named by `swtcg:ANH-11`, nor
/// `…_Darth_Vader_C` by `…_Darth_Vader_C2`).
pub fn names(text: &str, reference: &str) -> bool {
    text.match_indices(reference).any(|(i, _)| {
        !text[i + reference.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    })
}

/// Why a library card breaks "no printed text, or a sentence of it encoded
/// and a shipped scenario (`scenarios`) naming the card", if it does.
pub fn not_exercised(
    reference: &str,
    text: &swjudge::engine::library::CardText,
    scenarios: &str,
) -> Option<String> {
    if text.is_empty() {
        return None;
    }
    let encoded = text.sentences.iter().any(|s| !s.by.is_empty());
    match (encoded, names(scenarios, reference)) {
        (true, true) => None,
        (false, _) => Some(format!("{reference}: printed text, none of it encoded")),
        (true, false) => Some(format!("{reference}: named by no shipped scenario")),
    }
}

/// The text of a database card as the library stores it: whitespace runs as one space.
fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn db_type(t: &str) -> &'static str {
    match t {
        "Character" => "character",
        "Creature" => "creature",
        "Device" => "device",
        "Effect" => "effect",
        "Interrupt" => "interrupt",
        "Objective" => "objective",
        "Starship" => "starship",
        "Vehicle" => "vehicle",
        "Weapon" => "weapon",
        "Epic Event" => "epic_event",
        "Jedi Test" => "jedi_test",
        "Admiral's Order" => "admirals_order",
        "Podracer" => "podracer",
        "Defensive Shield" => "defensive_shield",
        "Location" => "location",
        _ => "?",
    }
}

#[test]
fn every_library_card_agrees_with_the_real_database() {
    let Some(data) = real_data() else { return };
    let mut db: BTreeMap<String, serde_json::Value> = BTreeMap::new();
    for side in ["Light", "Dark"] {
        let path = data.join(format!("swccg-card-json/{side}.json"));
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        for c in v["cards"].as_array().unwrap() {
            db.insert(format!("swccg:{}", c["id"]), c.clone());
        }
    }
    let cat = library::catalogue().unwrap();
    let mut wrong = Vec::new();
    for e in &cat.entries {
        let Some(c) = db.get(&e.reference) else {
            wrong.push(format!("{}: not in the database", e.reference));
            continue;
        };
        let f = &c["front"];
        let title = f["title"].as_str().unwrap().replace(['\u{2022}'], "");
        let title = title.replace("<>", "");
        if title.trim() != e.def.title {
            wrong.push(format!(
                "{}: title {:?} vs {:?}",
                e.reference, e.def.title, title
            ));
        }
        if c["side"].as_str().unwrap().to_lowercase() != e.def.side.as_str() {
            wrong.push(format!("{}: side", e.reference));
        }
        if db_type(f["type"].as_str().unwrap()) != e.def.card_type.as_str() {
            wrong.push(format!(
                "{}: type {}",
                e.reference,
                e.def.card_type.as_str()
            ));
        }
        let s = &e.def.stats;
        let stats = [
            ("power", s.power),
            ("ability", s.ability),
            ("deploy", s.deploy),
            ("forfeit", s.forfeit),
            ("destiny", s.destiny),
            ("armor", s.armor),
            ("maneuver", s.maneuver),
            ("hyperspeed", s.hyperspeed),
            ("landspeed", s.landspeed),
            ("politics", s.politics),
            ("ferocity", s.ferocity),
        ];
        for (k, mine) in stats {
            let theirs = f[k].as_str().and_then(|v| v.trim().parse::<i64>().ok());
            if theirs != mine {
                wrong.push(format!("{}: {k} {mine:?} vs {theirs:?}", e.reference));
            }
        }
        // the database writes a card with no game text as "<none>"
        let text = squash(f["gametext"].as_str().unwrap_or("")).replace("<none>", "");
        if squash(&e.def.text.full) != text {
            wrong.push(format!("{}: text differs from the database's", e.reference));
        }
        // A location's printed traits: interior and exterior icons, parsec number.
        if e.def.card_type.as_str() == "location" {
            let icons: Vec<&str> = f["icons"]
                .as_array()
                .map(|a| a.iter().filter_map(|i| i.as_str()).collect())
                .unwrap_or_default();
            let l = e.def.location.as_deref();
            let mine = (
                l.is_some_and(|l| l.interior),
                l.is_some_and(|l| l.exterior),
                l.and_then(|l| l.parsec),
            );
            let theirs = (
                icons.contains(&"Interior"),
                icons.contains(&"Exterior"),
                f["parsec"]
                    .as_str()
                    .and_then(|v| v.trim().parse::<i64>().ok()),
            );
            if mine != theirs {
                wrong.push(format!(
                    "{}: location traits {mine:?} vs {theirs:?}",
                    e.reference
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

const BOARD: &str = "game: swccg
title: t
swccg:
  turn: light
  phase: deploy
  cards:
CARDS
  light:
    hand: [a]
script:
  - {light: deploy, card: a}
";

fn load(cards: &str) -> Result<scenario::Scenario, String> {
    scenario::load_str(Path::new("s.yaml"), &BOARD.replace("CARDS", cards), None)
        .map_err(|e| e.to_string())
}

#[test]
fn an_ambiguous_title_is_a_load_error_listing_the_references() {
    let e = load("    a: Alter\n").err().unwrap();
    assert!(e.starts_with("s.yaml:7:"), "{e}");
    assert!(e.contains("swccg:94") && e.contains("swccg:95"), "{e}");
}

#[test]
fn a_named_card_overrides_only_its_stats() {
    let e = load("    a: {card: swccg:2293, text: \"x\"}\n")
        .err()
        .unwrap();
    assert!(e.contains("overrides only `stats:`"), "{e}");
    let e = load("    a: {card: Nobody Such, stats: {power: 1}}\n")
        .err()
        .unwrap();
    assert!(e.contains("no card `Nobody Such`"), "{e}");
}

#[test]
fn a_stat_set_on_purpose_is_named_in_the_trace() {
    let s = load("    a: {card: swccg:2293, stats: {forfeit: 2}}\n").unwrap();
    let r = s.run_engine();
    let step = r
        .trace
        .steps
        .iter()
        .find(|s| s.text.contains("named cards"))
        .expect("a library step");
    assert!(
        step.text.contains("swccg:2293") && step.text.contains("forfeit 2 (the card says 4)"),
        "{}",
        step.text
    );
}

#[test]
fn typed_text_no_field_encodes_is_not_modelled_and_the_run_does_not_pass() {
    // Darth Vader's text pasted into an inline card: nothing encodes it.
    let s = load(
        "    a: {title: Darth Vader, side: light, type: effect, text: \"When in battle, adds one battle destiny. Immune to attrition < 4.\"}\n",
    )
    .unwrap();
    let r = scenario::run(&s);
    assert_eq!(r.verdict, Verdict::NotModelled, "{:?}", r.expectations);
    assert!(
        r.not_modelled[0].contains("adds one battle destiny"),
        "{:?}",
        r.not_modelled
    );
    // The same card without its text passes.
    let s = load("    a: {title: Darth Vader, side: light, type: effect}\n").unwrap();
    assert_eq!(scenario::run(&s).verdict, Verdict::Pass);
}

#[test]
fn a_plain_text_beside_encodings_must_say_which_sentence_they_encode() {
    let e = load(
        "    a: {title: X, side: light, type: character, text: \"Immune to attrition < 4.\", stats: {immune_to_attrition: 4}}\n",
    )
    .err()
    .unwrap();
    assert!(e.contains("sentence by sentence"), "{e}");
    assert!(load(
        "    a: {title: X, side: light, type: character, text: [{said: \"Immune to attrition < 4.\", by: [stats.immune_to_attrition]}], stats: {immune_to_attrition: 4}}\n",
    )
    .is_ok());
}

/// In every game a card's typed text is what the card says: unencoded, it is
/// not modelled and the run does not pass; without it the same board passes.
#[test]
fn typed_text_is_honoured_in_every_game() {
    // each game's base board from its own tests, with TEXT where the card's text goes
    let destiny = crate::destiny::BASE.replace("1R, \"-\"]}", "1R, \"-\"]TEXT}");
    let swtcg = crate::swtcg::BASE.replace("power: 1, health: 5}", "power: 1, health: 5TEXT}");
    assert!(destiny.contains("TEXT") && swtcg.contains("TEXT"));
    for (base, text) in [
        (
            destiny.as_str(),
            ", text: \"Damage dealt to this character is reduced by 2.\"",
        ),
        (
            swtcg.as_str(),
            ", text: \"Damage to this unit is reduced by 2.\"",
        ),
    ] {
        let s = scenario::load_str(Path::new("s.yaml"), &base.replace("TEXT", text), None)
            .unwrap_or_else(|e| panic!("{e}"));
        let r = scenario::run(&s);
        assert_eq!(r.verdict, Verdict::NotModelled, "{:?}", r.expectations);
        assert!(
            r.not_modelled[0].contains("reduced by 2"),
            "{:?}",
            r.not_modelled
        );
        let s = scenario::load_str(Path::new("s.yaml"), &base.replace("TEXT", ""), None).unwrap();
        assert_eq!(scenario::run(&s).verdict, Verdict::Pass);
    }
}

/// Naming reads each entry's title from its own lines, without parsing the
/// library: those titles are the parsed cards' titles, in every game.
#[test]
fn the_titles_naming_reads_are_the_cards_titles() {
    use swjudge::game::Game;
    let parsed: Vec<(String, String)> = library::catalogue()
        .unwrap()
        .entries
        .iter()
        .map(|e| (e.reference.clone(), e.def.title.clone()))
        .collect();
    let mut scanned = swjudge::engine::library::titles(Game::Swccg);
    let mut parsed = parsed;
    scanned.sort();
    parsed.sort();
    assert_eq!(scanned, parsed);
    let destiny = <swjudge::engine::destiny::model::CardDef as LibraryCard>::catalogue().unwrap();
    let swtcg = <swjudge::engine::swtcg::model::CardDef as LibraryCard>::catalogue().unwrap();
    for (game, parsed) in [
        (
            Game::Destiny,
            destiny
                .entries
                .iter()
                .map(|e| (e.reference.clone(), e.title.clone()))
                .collect::<Vec<_>>(),
        ),
        (
            Game::Swtcg,
            swtcg
                .entries
                .iter()
                .map(|e| (e.reference.clone(), e.title.clone()))
                .collect(),
        ),
    ] {
        let scanned = swjudge::engine::library::titles(game);
        let mut a = scanned.clone();
        let mut b = parsed.clone();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{game:?}");
    }
}

/// Library cards carry their characteristics and character type icons as the
/// database's keywords: `is:` answers from them (Leia is a spy and a Rebel), and
/// a card titled "Undercover" on table names no persona, so the spy it is
/// deployed on is undercover.
#[test]
fn is_answers_from_a_library_cards_keywords() {
    let yaml = r#"game: swccg
title: t
swccg:
  turn: light
  phase: deploy
  cards:
    leia: swccg:1495
    spy: swccg:500
    maker: swccg:2672
  locations:
    - name: cantina
      title: "Tatooine: Cantina"
      kind: site
      cards: [{card: leia}, {card: spy, on: [{card: maker}]}]
  questions:
    - {card: leia, is: spy}
    - {card: leia, is: rebel}
    - {card: spy, is: undercover}
    - {card: spy, is: rebel}
expect:
  is:
    leia: {spy: true, rebel: true}
    spy: {undercover: true, rebel: false}
  not_modelled:
    - "Undercover (swccg:2672): \"Deploy on your spy at a site and cross spy to opponent's side.\""
    - "Commander Merrejk (swccg:500): \"When he is present with a Scomp link, once during each of your deploy phases, you may deploy one battleground system from Reserve Deck; reshuffle.\""
"#;
    let s = scenario::load_str(Path::new("s.yaml"), yaml, None).unwrap_or_else(|e| panic!("{e}"));
    let r = scenario::run(&s);
    assert_eq!(r.verdict, Verdict::Pass, "{:?}", r.expectations);
}

/// `--library DIR` runs scenarios against an edited copy of `cards/`: a stat
/// changed in the copy changes the verdict at once; a folder with no library in
/// it is one error line and exit 2.
#[test]
fn an_edited_library_folder_replaces_the_built_in_one() {
    use crate::util::{TempDir, code, stderr, stdout, swjudge};
    let tmp = TempDir::new("edited-library");
    let copy = tmp.path().join("cards");
    crate::util::copy_dir(&crate::util::root().join("cards"), &copy);
    let scenario = "scenarios/swccg/library/premiere/death-star-trooper-power-modifier.yaml";
    let run = |library: Option<&Path>| {
        let mut c = swjudge(tmp.path());
        if let Some(dir) = library {
            c.arg("--library").arg(dir);
        }
        c.args(["check", scenario]).output().unwrap()
    };
    assert_eq!(code(&run(Some(&copy))), 0, "an unedited copy passes");
    // Death Star Trooper printed power 2 → 3: "Power -1 at a site other than a
    // Death Star site" now makes him 2, and Dark wins the battle.
    let premiere = copy.join("swccg/premiere.yaml");
    let text = std::fs::read_to_string(&premiere).unwrap();
    let entry = text
        .find("\nswccg:668:\n")
        .expect("Death Star Trooper's entry");
    let stats = entry + text[entry..].find("\"power\": 2,").unwrap();
    let edited = format!("{}\"power\": 3,{}", &text[..stats], &text[stats + 11..]);
    std::fs::write(&premiere, edited).unwrap();
    let out = run(Some(&copy));
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(stdout(&out).contains("total_power"), "{}", stdout(&out));
    assert_eq!(code(&run(None)), 0, "the built-in library is untouched");

    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = run(Some(&empty));
    assert_eq!(code(&out), 2);
    assert_eq!(stderr(&out).trim().lines().count(), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no card library here"),
        "{}",
        stderr(&out)
    );
}

/// A board whose `locations:` is `LOCATIONS`, Dark draining at the first (a TIE
/// Advanced x1 there), expecting a drain of `AMOUNT`.
fn drain_at(locations: &str, amount: u32) -> Result<scenario::Scenario, String> {
    let yaml = format!(
        "game: swccg
title: t
swccg:
  turn: dark
  phase: control
  cards:
    tie: swccg:2595
  light:
    reserve_deck: 3
  locations:
{locations}
script:
  - {{dark: force_drain, at: here, label: drain}}
expect:
  numbers:
    drain: {{amount: {amount}}}
"
    );
    scenario::load_str(Path::new("s.yaml"), &yaml, None).map_err(|e| e.to_string())
}

fn board_locations(yaml: &str) -> Result<Vec<swjudge::engine::swccg::model::LocationDef>, String> {
    #[derive(serde::Deserialize)]
    struct B {
        #[serde(deserialize_with = "swjudge::engine::swccg::library::locations")]
        locations: Vec<swjudge::engine::swccg::model::LocationDef>,
    }
    swjudge::yaml::load::<B>(Path::new("s.yaml"), yaml)
        .map(|b| b.locations)
        .map_err(|e| e.to_string())
}

#[test]
fn a_named_location_takes_its_title_icons_kind_and_system_from_the_library() {
    use swjudge::engine::swccg::model::LocKind;
    let l = board_locations(
        "locations:\n  - {name: cantina, card: swccg:2440}\n  - {name: dantooine, card: Dantooine}\n  - {name: elsewhere, card: swccg:2440, system: tatooine}\n",
    )
    .unwrap();
    assert_eq!(l[0].title.as_deref(), Some("Tatooine: Cantina"));
    assert_eq!(l[0].icons.len(), 4);
    assert_eq!(l[0].kind, Some(LocKind::Site));
    assert_eq!(l[0].system.as_deref(), Some("Tatooine"));
    assert!(l[0].interior && !l[0].exterior, "printed Interior");
    assert_eq!(l[1].title.as_deref(), Some("Dantooine"));
    assert_eq!(l[1].icons, vec!["light_force".to_string()]);
    assert_eq!(l[1].kind, Some(LocKind::System));
    assert_eq!((l[1].system.as_deref(), l[1].parsec), (None, Some(5)));
    // Board state: the planet is on this board under another name.
    assert_eq!(l[2].system.as_deref(), Some("tatooine"));
}

#[test]
fn a_named_location_with_an_ambiguous_title_or_a_field_set_twice_is_a_load_error() {
    let e = board_locations("locations:\n  - {name: cantina, card: \"Tatooine: Cantina\"}\n")
        .unwrap_err();
    assert!(e.starts_with("s.yaml:2:"), "{e}");
    assert!(e.contains("swccg:2439") && e.contains("swccg:2440"), "{e}");
    for field in [
        "title: Dantooine",
        "icons: [light_force]",
        "kind: system",
        "parsec: 5",
        "drain: [{side: dark, op: {add: 1}}]",
        "no_deploy: [{filter: {type: [character]}}]",
    ] {
        let yaml = format!("locations:\n  - {{name: d, card: swccg:608, {field}}}\n");
        let e = board_locations(&yaml).unwrap_err();
        let key = field.split(':').next().unwrap();
        assert!(e.starts_with("s.yaml:2:"), "{e}");
        assert!(
            e.contains(&format!(
                "`{key}` is set here and read from the card Dantooine (swccg:608)"
            )),
            "{e}"
        );
    }
    let e = board_locations("locations:\n  - {name: d, card: swccg:2595}\n").unwrap_err();
    assert!(e.contains("is a starship, not a location"), "{e}");
    let e = board_locations("locations:\n  - {card: swccg:608}\n").unwrap_err();
    assert!(e.contains("name"), "{e}");
}

#[test]
fn a_named_locations_encoded_text_changes_the_run() {
    // Dantooine: "Dark: If you control, Force drain +1 here." One Light icon: 2.
    let named = drain_at(
        "    - {name: here, card: swccg:608, cards: [{card: tie}]}",
        2,
    )
    .unwrap();
    assert_eq!(scenario::run(&named).verdict, Verdict::Pass);
    // The same system typed inline without its text drains 1.
    let inline = "    - {name: here, title: Dantooine, kind: system, icons: [light_force], cards: [{card: tie}]}";
    assert_eq!(
        scenario::run(&drain_at(inline, 2).unwrap()).verdict,
        Verdict::Fail
    );
    assert_eq!(
        scenario::run(&drain_at(inline, 1).unwrap()).verdict,
        Verdict::Pass
    );
}

#[test]
fn a_named_locations_unencoded_text_is_not_modelled() {
    // Tatooine: Cantina's text ("Light: Your aliens are each power +1. …") is not encoded.
    let s = drain_at(
        "    - {name: here, card: swccg:2440, cards: [{card: tie}]}",
        2,
    )
    .unwrap();
    let r = scenario::run(&s);
    assert_eq!(r.verdict, Verdict::NotModelled, "{:?}", r.expectations);
    assert!(
        r.not_modelled
            .iter()
            .any(|n| n.starts_with("Tatooine: Cantina (swccg:2440)")
                && n.contains("Your aliens are each power +1")),
        "{:?}",
        r.not_modelled
    );
}

#[test]
fn a_location_cards_location_map_holds_only_its_traits_and_claimed_text() {
    use swjudge::engine::swccg::model::CardDef;
    let check = |extra: &str, text: &str| {
        let yaml = format!(
            "title: Somewhere\nside: dark\ntype: location\nsubtype: system\ntext:\n{text}\n{extra}\n"
        );
        let def: CardDef = swjudge::yaml::load(Path::new("c.yaml"), &yaml).unwrap();
        def.check_text()
    };
    let said = "  - {said: \"Dark: Force drain +1 here.\", by: [location.drain]}";
    let drain = "location: {parsec: 3, drain: [{side: dark, op: {add: 1}}]}";
    assert!(check(drain, said).is_ok());
    // A text field no sentence claims, and a sentence claiming a field not set.
    let unclaimed = "  - {said: \"Dark: Force drain +1 here.\", not_modelled: true}";
    let e = check(drain, unclaimed).unwrap_err();
    assert!(e.contains("`location.drain` encodes game text"), "{e}");
    let e = check("location: {parsec: 3}", said).unwrap_err();
    assert!(e.contains("sets no `location.drain`"), "{e}");
    // Board fields are never the card's.
    let e = check(
        "location: {name: x, title: y, drain: [{side: dark, op: {add: 1}}]}",
        said,
    )
    .unwrap_err();
    assert!(e.contains("`location:` sets `title`, `name`"), "{e}");
}
