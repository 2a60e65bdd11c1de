//! Integration tests: the Star Wars TCG engine beyond its scenarios.

use crate::util::{root, rulebook};
use std::path::Path;
use swjudge::engine::swtcg::state::{has_subtype, same_unit};
use swjudge::engine::{End, NeedKind};
use swjudge::rulebook::Corpus;
use swjudge::scenario::{self, SectionIds, Verdict};

pub(crate) const BASE: &str = "game: swtcg
title: t
swtcg:
  arena: ground
  cards:
    atst: {name: AT-ST, types: [ground], speed: 30, power: 2, health: 5}
    rebel: {name: Rebel Trooper, types: [ground], speed: 5, power: 1, health: 5}
  dark:
    ground: [{card: atst}]
  light:
    ground: [{card: rebel, tapped: true}]
script:
  - {dark: attack, unit: atst, target: rebel}
  - {dark: roll, dice: [4, 6]}
expect:
  units: {rebel: {damage: 2}}
";

fn load(text: &str) -> Result<scenario::Scenario, String> {
    scenario::load_str(Path::new("s.yaml"), text, None).map_err(|e| e.to_string())
}

#[test]
fn repeated_card_ids_are_rejected() {
    let e = load(&BASE.replace(
        "  cards:\n",
        "  cards:\n    rebel: {name: Rebel, types: [ground], speed: 1, power: 1, health: 1}\n",
    ))
    .map(|_| ())
    .unwrap_err();
    assert!(
        e.starts_with("s.yaml:") && e.ends_with("duplicate mapping key: rebel"),
        "{e}"
    );
}

#[test]
fn the_documented_swtcg_example_runs() {
    let doc = std::fs::read_to_string(root().join("docs/swtcg.md")).unwrap();
    let start = doc.find("```yaml\n").expect("a yaml block") + "```yaml\n".len();
    let end = start + doc[start..].find("```").unwrap();
    let corpus = Corpus::load(&rulebook()).unwrap();
    let s = scenario::load_str(
        Path::new("docs/swtcg.md"),
        &doc[start..end],
        Some(&corpus as &dyn SectionIds),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let r = scenario::run(&s);
    assert_eq!(r.verdict, Verdict::Pass, "{:#?}", r.expectations);
}

#[test]
fn a_wrong_expectation_fails() {
    let s = load(&BASE.replace("damage: 2", "damage: 1")).unwrap();
    assert_eq!(scenario::run(&s).verdict, Verdict::Fail);
}

#[test]
fn a_missing_die_needs_a_random_result() {
    let s = load(&BASE.replace("  - {dark: roll, dice: [4, 6]}\n", "")).unwrap();
    let r = s.run_engine();
    match r.end {
        End::NeedsDecision { kind, .. } => assert_eq!(kind, NeedKind::Random),
        other => panic!("{other:?}"),
    }
}

#[test]
fn unknown_keys_and_cards_name_their_position() {
    let e =
        load(&BASE.replace("  arena: ground\n", "  arena: ground\n  colour: red\n")).unwrap_err();
    assert!(e.starts_with("s.yaml:5:"), "{e}");
    let e = load(&BASE.replace("target: rebel}", "target: nobody}")).unwrap_err();
    assert!(
        e.starts_with("s.yaml:13:") && e.contains("unknown card `nobody`"),
        "{e}"
    );
    let e = load(&BASE.replace(
        "  units: {rebel: {damage: 2}}",
        "  units: {rebel: {colour: 2}}",
    ))
    .unwrap_err();
    assert!(e.contains("cannot be observed"), "{e}");
}

#[test]
fn a_step_names_one_side() {
    let e = load(&BASE.replace("{dark: roll,", "{dark: roll, light: pass,")).unwrap_err();
    assert!(e.contains("exactly one player"), "{e}");
}

#[test]
fn subtypes_with_jedi_or_sith_must_match_exactly() {
    let line = "Dark Jedi Master - Sith Lord";
    assert!(has_subtype(line, "Dark Jedi"));
    assert!(has_subtype(line, "Jedi Master"));
    assert!(has_subtype(line, "Sith Lord"));
    assert!(!has_subtype(line, "Sith Master"));
    assert!(has_subtype("Imperial Navy Officer", "Imperial Officer"));
    assert!(!has_subtype("Imperial Navy", "Imperial Officer"));
}

#[test]
fn different_names_that_stack() {
    assert!(same_unit("Anakin Skywalker", "Darth Vader"));
    assert!(same_unit("Darth Vader", "Anakin Skywalker"));
    assert!(same_unit("Queen Amidala", "Padmé Amidala"));
    assert!(!same_unit("Obi-Wan Kenobi", "Obi-Wan's Spirit"));
}

#[test]
fn team_players_are_named_only_in_two_headed_wookiee() {
    let e = load(&BASE.replace("{card: atst}", "{card: atst, player: a}")).unwrap_err();
    assert!(
        e.starts_with("s.yaml:") && e.contains("Two-Headed Wookiee"),
        "{e}"
    );
    let team = BASE.replace(
        "  arena: ground\n",
        "  arena: ground\n  format: two_headed_wookiee\n",
    );
    let e = load(&team).unwrap_err();
    assert!(e.contains("names its player"), "{e}");
    let e = load(
        &team
            .replace("{card: atst}", "{card: atst, player: c}")
            .replace("tapped: true}", "tapped: true, player: a}"),
    )
    .unwrap_err();
    assert!(e.contains("`a` or `b`"), "{e}");
    let ok = team
        .replace("{card: atst}", "{card: atst, player: a}")
        .replace("tapped: true}", "tapped: true, player: b}");
    let s = load(&ok).unwrap();
    assert_eq!(scenario::run(&s).verdict, Verdict::Pass);
}

#[test]
fn team_players_keep_their_own_pools() {
    let team = BASE
        .replace(
            "  arena: ground\n",
            "  arena: ground\n  format: two_headed_wookiee\n",
        )
        .replace("{card: atst}", "{card: atst, player: a}")
        .replace("tapped: true}", "tapped: true, player: b}");
    let e = load(&team.replace("  dark:\n", "  dark:\n    force: 3\n")).unwrap_err();
    assert!(e.contains("under `a:` and `b:`"), "{e}");
    let e = load(&BASE.replace("  dark:\n", "  dark:\n    a: {force: 3}\n")).unwrap_err();
    assert!(e.contains("Two-Headed Wookiee"), "{e}");
    let ok = team.replace(
        "  dark:\n",
        "  dark:\n    a: {force: 3}\n    b: {force: 5}\n",
    );
    let e = load(&ok.replace("  units: {rebel: {damage: 2}}", "  force: {dark: 3}")).unwrap_err();
    assert!(e.contains("`dark.a` or `dark.b`"), "{e}");
    let s = load(&ok.replace(
        "  units: {rebel: {damage: 2}}",
        "  force: {dark: {a: 3, b: 5}}\n  units: {atst: {player: a}}",
    ))
    .unwrap();
    assert_eq!(scenario::run(&s).verdict, Verdict::Pass);
}

#[test]
fn locations_are_one_per_arena_and_name_one_arena() {
    let with = |light: &str| {
        BASE.replace(
            "    rebel:",
            "    farm: {name: Farm, kind: location, types: [ground]}\n    farm2: {name: Farm 2, kind: location, types: [ground]}\n    rock: {name: Rock, types: [ground]}\n    rebel:",
        )
        .replace("  light:\n", &format!("  light:\n{light}"))
    };
    let e = load(&with("    locations: [{card: farm}, {card: farm2}]\n")).unwrap_err();
    assert!(e.contains("only 1 Location"), "{e}");
    let e = load(&with("    locations: [{card: rock}]\n")).unwrap_err();
    assert!(e.contains("Location cards"), "{e}");
    let s = load(&with("    locations: [{card: farm}]\n")).unwrap();
    let r = s.run_engine();
    assert_eq!(
        r.observations.get("cards.farm"),
        Some(serde_json::json!("light.location"))
    );
}

#[test]
fn team_cases_without_a_ruling_are_not_modelled() {
    let team = BASE
        .replace(
            "  arena: ground\n",
            "  arena: ground\n  format: two_headed_wookiee\n",
        )
        .replace("{card: atst}", "{card: atst, player: a}")
        .replace("tapped: true}", "tapped: true, player: b}");
    let drain = team
        .replace(
            "    rebel:",
            "    drain: {name: Drain, kind: battle, abilities: [{activated: {timing: general, effects: [{lose_force: 2}]}}]}\n    rebel:",
        )
        .replace("  dark:\n", "  dark:\n    a: {hand: [drain]}\n")
        .replace(
            "  - {dark: attack, unit: atst, target: rebel}\n",
            "  - {dark: play, card: drain}\n",
        );
    let r = load(&drain).unwrap().run_engine();
    assert!(
        matches!(&r.end, End::NotModelled { what } if what.contains("loses X Force")),
        "{:?}",
        r.end
    );
    let setup = team.replace("  arena: ground\n", "  start: setup\n");
    let r = load(&setup).unwrap().run_engine();
    assert!(
        matches!(&r.end, End::NotModelled { what } if what.contains("50 build")),
        "{:?}",
        r.end
    );
}
