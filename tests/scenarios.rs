//! Integration tests: scenarios.

use crate::util::{TempDir, code, root, rulebook, stderr, stdout, swjudge};
use std::path::{Path, PathBuf};
use swjudge::rulebook::Corpus;
use swjudge::scenario::{self, SectionIds, Verdict};

fn all_scenarios() -> Vec<PathBuf> {
    scenario::find_files(&[root().join("scenarios")]).expect("scenarios/ exists")
}

fn corpus() -> Corpus {
    Corpus::load(&rulebook()).expect("rulebook/ loads")
}

/// `swjudge test` as part of `cargo test`: every scenario passes.
#[test]
fn every_scenario_passes() {
    let corpus = corpus();
    let files = all_scenarios();
    assert!(
        files.len() >= 10,
        "expected the rulebook scenarios, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        match scenario::load(f, Some(&corpus as &dyn SectionIds)) {
            Err(e) => failures.push(format!("{}: invalid: {e}", f.display())),
            Ok(s) => {
                let r = scenario::run(&s);
                if r.verdict != Verdict::Pass {
                    failures.push(format!(
                        "{}: {}: {}",
                        f.display(),
                        r.verdict.as_str(),
                        r.problems().join("; ")
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "failing scenarios:\n{}",
        failures.join("\n")
    );
}

/// Every rule ID cited by any trace, and every `source:`, is a rulebook section.
#[test]
fn every_citation_resolves() {
    let corpus = corpus();
    let mut missing = Vec::new();
    for f in all_scenarios() {
        let Ok(s) = scenario::load(&f, None) else {
            continue;
        };
        // A published ruling (`ruling:…`) is checked against the card library at load.
        if let Some(src) = &s.source
            && swjudge::rulings::RulingRef::parse(&src.value).is_none()
            && !corpus.contains(scenario::section_of(&src.value))
        {
            missing.push(format!("{}: source {}", f.display(), src.value));
        }
        for id in scenario::run(&s).cited() {
            if !corpus.contains(id) {
                missing.push(format!("{}: cites {id}", f.display()));
            }
        }
    }
    for id in swjudge::engine::swccg::rules::ALL
        .iter()
        .chain(swjudge::engine::swccg::identify::IDS)
        .chain(swjudge::engine::swccg::rules::ALL_PLACES)
        .chain(swjudge::engine::swccg::conditions::IDS)
        .chain(swjudge::engine::swccg::reduce::IDS)
        .chain(swjudge::engine::swccg::shields::IDS)
        .chain(swjudge::engine::swccg::battle_arrive::IDS)
        .chain(swjudge::engine::swccg::creature::IDS)
        .chain(swjudge::engine::swtcg::rules::ALL)
        .chain(swjudge::engine::destiny::rules::ALL)
        .chain(swjudge::engine::swccg::rules::TURN_ALL)
        .chain(swjudge::engine::swccg::values::cite::ALL)
        .chain(swjudge::engine::swccg::deploy_cost::IDS)
        .chain(swjudge::engine::swccg::text_when::IDS)
        .chain(swjudge::engine::swccg::deploy_cost::EFFECT_IDS)
        .chain(swjudge::engine::swccg::retarget::IDS)
        .chain(swjudge::engine::swccg::value_resets::IDS)
        .chain(swjudge::engine::swccg::GRABBER_IDS)
        .chain(swjudge::engine::swccg::FORCE_LOSS_IDS)
        .chain(swjudge::engine::swccg::MATCHING_DEPLOY_IDS)
        .chain(swjudge::engine::swccg::TEXT_RETURNS_IDS)
        .chain(swjudge::engine::swccg::LAUNCH_BAY_IDS)
        .chain(swjudge::engine::swccg::each_player::IDS)
        .chain(swjudge::engine::swccg::react::IDS)
        .chain(swjudge::engine::swccg::capture::IDS)
        .chain(swjudge::engine::swccg::steal::IDS)
        .chain(swjudge::engine::swccg::epic::IDS)
        .chain(swjudge::engine::swccg::blown_away::IDS)
        .chain(swjudge::engine::swccg::weapon_fire::IDS)
        .chain(swjudge::engine::swccg::device::IDS)
        .chain(swjudge::engine::swccg::games::IDS)
        .chain(swjudge::engine::swccg::jeditest::IDS)
        .chain(swjudge::engine::swccg::duel::IDS)
        .chain(swjudge::engine::swccg::epic_duel::IDS)
        .chain(swjudge::engine::swccg::rules::STATES_ALL)
        .chain(swjudge::engine::swccg::rules::UPKEEP_ALL)
    {
        if !corpus.contains(id) {
            missing.push(format!("rules.rs: {id}"));
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "unresolved citations:\n{}",
        missing.join("\n")
    );
}

/// Every trace step of every scenario carries at least one rule, except the final summary lines.
#[test]
fn every_engine_step_is_cited() {
    for f in all_scenarios() {
        let Ok(s) = scenario::load(&f, None) else {
            continue;
        };
        let r = scenario::run(&s);
        for st in &r.steps {
            if st.event == "stop" {
                continue;
            }
            assert!(
                !st.cites.is_empty(),
                "{}: step {} has no citation: {}",
                f.display(),
                st.n,
                st.text
            );
        }
    }
}

const MINIMAL: &str = "game: swccg
title: t
swccg:
  turn: light
  phase: deploy
  cards:
    a: {title: A, side: light, type: effect}
  light:
    hand: [a]
script:
  - {light: deploy, card: a}
expect:
  cards: {a: table}
";

fn load_err(text: &str) -> String {
    scenario::load_str(Path::new("s.yaml"), text, None)
        .unwrap_err()
        .to_string()
}

#[test]
fn minimal_scenario_runs_and_passes() {
    let s = scenario::load_str(Path::new("s.yaml"), MINIMAL, None).unwrap();
    let r = scenario::run(&s);
    assert_eq!(r.verdict, Verdict::Pass, "{:#?}", r.expectations);
}

#[test]
fn a_wrong_expectation_fails() {
    let s = scenario::load_str(
        Path::new("s.yaml"),
        &MINIMAL.replace("{a: table}", "{a: light.hand}"),
        None,
    )
    .unwrap();
    let r = scenario::run(&s);
    assert_eq!(r.verdict, Verdict::Fail);
    let e = r.expectations.iter().find(|e| e.path == "cards.a").unwrap();
    assert_eq!(e.actual, "table");
    assert!(!e.ok);
}

#[test]
fn unknown_key_names_file_line_column() {
    let e = load_err(&MINIMAL.replace("  phase: deploy\n", "  phase: deploy\n  colour: red\n"));
    assert!(e.starts_with("s.yaml:6:3:"), "{e}");
    assert!(e.contains("colour"), "{e}");
}

#[test]
fn unknown_card_in_script_points_at_the_step() {
    let e = load_err(&MINIMAL.replace("card: a}", "card: zz}"));
    assert!(e.starts_with("s.yaml:11:"), "{e}");
    assert!(e.contains("unknown card `zz`"), "{e}");
}

#[test]
fn unknown_card_in_a_pile_points_at_it() {
    let e = load_err(&MINIMAL.replace("hand: [a]", "hand: [a, b]"));
    assert!(e.starts_with("s.yaml:9:"), "{e}");
    assert!(e.contains("`b`"), "{e}");
}

#[test]
fn a_drain_modifier_that_is_not_a_drain_operation_is_a_load_error() {
    let ok = MINIMAL.replace(
        "a: {title: A, side: light, type: effect}",
        "a: {title: A, side: light, type: effect, drain: [{op: {add: 1}}]}",
    );
    assert!(scenario::load_str(Path::new("s.yaml"), &ok, None).is_ok());
    let e = load_err(&ok.replace("{add: 1}", "{free: true}"));
    assert!(e.contains("drain text `op:` is `free`"), "{e}");
}

#[test]
fn an_interrupt_subtype_typo_is_a_load_error() {
    let e = load_err(&MINIMAL.replace(
        "a: {title: A, side: light, type: effect}",
        "a: {title: A, side: light, type: interrupt, subtype: lsot}",
    ));
    assert!(e.starts_with("s.yaml:7:"), "{e}");
    assert!(e.contains("unknown subtype `lsot`"), "{e}");
}

#[test]
fn battle_and_force_drain_name_a_known_location() {
    let e = load_err(&MINIMAL.replace("{light: deploy, card: a}", "{light: battle, at: nowhere}"));
    assert!(e.starts_with("s.yaml:11:"), "{e}");
    assert!(e.contains("unknown location `nowhere`"), "{e}");
    let e = load_err(&MINIMAL.replace("{light: deploy, card: a}", "{light: force_drain}"));
    assert!(e.contains("`force_drain` needs `at:`"), "{e}");
}

#[test]
fn drain_text_names_its_side_on_a_location_and_known_cards() {
    let with_location = |drain: &str| {
        MINIMAL.replace(
            "  light:\n    hand: [a]\n",
            &format!(
                "  light:\n    hand: [a]\n  locations:\n    - name: site\n      drain: [{drain}]\n"
            ),
        )
    };
    let e = load_err(&with_location("{op: {add: 1}}"));
    assert!(
        e.contains("location `site`: its drain text names the side"),
        "{e}"
    );
    let e = load_err(&with_location("{side: dark, op: {add: 1}, requires: [zz]}"));
    assert!(e.contains("requires `zz`"), "{e}");
    let e = load_err(&with_location("{side: dark, op: {add: 1}, colour: red}"));
    assert!(e.starts_with("s.yaml:12:"), "{e}");
    let ok = with_location("{side: dark, whose: opponent, op: {add: 1}, requires: [a]}");
    assert!(scenario::load_str(Path::new("s.yaml"), &ok, None).is_ok());
}

/// A Snowspeeder ("May add 1 pilot or passenger") at Hoth: Ice Plains with the
/// characters `aboard` on it.
pub(crate) fn speeder_board(aboard: &str) -> String {
    format!(
        "game: swccg
title: t
swccg:
  turn: light
  phase: control
  cards:
    speeder: swccg:2294
    luke: {{card: \"Luke Skywalker\"}}
    trooper: {{card: \"Rebel Trooper\"}}
  locations:
    - name: plains
      title: \"Hoth: Ice Plains\"
      kind: site
      cards:
        - {{card: speeder, on: [{aboard}]}}
script: []
expect:
  outcome: complete
"
    )
}

#[test]
fn a_board_that_starts_over_capacity_is_refused_at_the_card_without_a_slot() {
    let one = speeder_board("{card: luke}");
    assert!(
        scenario::load_str(Path::new("s.yaml"), &one, None).is_ok(),
        "one character fits the Snowspeeder"
    );
    let e = load_err(&speeder_board("{card: luke}, {card: trooper}"));
    assert!(e.starts_with("s.yaml:15:53: "), "{e}");
    assert!(
        e.contains("`speeder` (Snowspeeder) has capacity for 1 pilot or passenger"),
        "{e}"
    );
    assert!(e.contains("no slot is left that `trooper` may fill"), "{e}");
    assert!(e.contains("swccg.ar.vehicles-capacity"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
}

#[test]
fn a_board_battle_number_path_is_checked() {
    let e = load_err(&MINIMAL.replace("cards: {a: table}", "numbers: {b: {light: {colour: 1}}}"));
    assert!(e.contains("numbers.b.light.colour"), "{e}");
    let ok = MINIMAL.replace("cards: {a: table}", "numbers: {b: {winner: light}}");
    assert!(scenario::load_str(Path::new("s.yaml"), &ok, None).is_ok());
}

#[test]
fn a_step_must_name_one_player() {
    let e = load_err(&MINIMAL.replace(
        "{light: deploy, card: a}",
        "{light: deploy, dark: pass, card: a}",
    ));
    assert!(e.contains("exactly one player"), "{e}");
}

#[test]
fn unknown_source_is_rejected_with_position() {
    struct Ids;
    impl SectionIds for Ids {
        fn has(&self, id: &str) -> bool {
            id == "swccg.ar.the-stack"
        }
    }
    let text = MINIMAL.replace("title: t\n", "title: t\nsource: swccg.ar.no-such-section\n");
    let e = scenario::load_str(Path::new("s.yaml"), &text, Some(&Ids))
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("s.yaml:3:"), "{e}");
    assert!(e.contains("no-such-section"), "{e}");
    let ok = MINIMAL.replace("title: t\n", "title: t\nsource: swccg.ar.the-stack\n");
    assert!(scenario::load_str(Path::new("s.yaml"), &ok, Some(&Ids)).is_ok());
}

#[test]
fn duplicate_keys_are_rejected() {
    let e = load_err(&MINIMAL.replace("title: t\n", "title: t\ntitle: u\n"));
    assert!(e.starts_with("s.yaml:3:"), "{e}");
    // A repeated key in a map (two cards of one name), not only in a struct.
    let e = load_err(&MINIMAL.replace(
        "    a: {title: A, side: light, type: effect}\n",
        "    a: {title: A, side: light, type: effect}\n    a: {title: B, side: light, type: effect}\n",
    ));
    assert_eq!(e, "s.yaml:8:5: duplicate mapping key: a");
    // Inside a struct written in flow style.
    let e =
        load_err(&MINIMAL.replace("title: A, side: light,", "title: A, side: light, title: B,"));
    assert!(
        e.starts_with("s.yaml:7:") && e.contains("duplicate mapping key: title"),
        "{e}"
    );
    // In `expect:`, at the top and inside a value.
    let e = load_err(&MINIMAL.replace(
        "  cards: {a: table}\n",
        "  cards: {a: table}\n  cards: {a: hand}\n",
    ));
    assert_eq!(e, "s.yaml:14:3: duplicate mapping key: cards");
    let e = load_err(&MINIMAL.replace("  cards: {a: table}\n", "  cards: {a: table, a: hand}\n"));
    assert!(
        e.starts_with("s.yaml:13:") && e.ends_with("duplicate mapping key: a"),
        "{e}"
    );
}

#[test]
fn merge_keys_expand_and_repeated_keys_beside_them_are_rejected() {
    let merged = MINIMAL.replace(
        "    a: {title: A, side: light, type: effect}\n",
        "    a: &a {title: A, side: light, type: effect}\n    b: {<<: *a, title: B}\n",
    );
    let text = merged.replace(
        "  cards: {a: table}\n",
        "  cards: {a: table, b: light.reserve_deck}\n",
    );
    let text = text.replace("    hand: [a]\n", "    hand: [a]\n    reserve_deck: [b]\n");
    let s = scenario::load_str(Path::new("s.yaml"), &text, None).unwrap();
    let r = scenario::run(&s);
    assert_eq!(r.verdict, Verdict::Pass, "{:#?}", r.expectations);
    let e = load_err(&merged.replace("title: B}", "title: B, title: C}"));
    assert!(
        e.starts_with("s.yaml:8:") && e.contains("duplicate mapping key: title"),
        "{e}"
    );
}

#[test]
fn leftover_decisions_fail_by_default() {
    let text = MINIMAL.replace(
        "  - {light: deploy, card: a}\n",
        "  - {light: deploy, card: a}\n  - {light: deploy, card: a}\n",
    );
    let s = scenario::load_str(Path::new("s.yaml"), &text, None).unwrap();
    let r = scenario::run(&s);
    assert_eq!(r.verdict, Verdict::Fail);
}

/// Observations worked out on request (only the families some path asks for)
/// are the values of the full set: asking for one path, or for several of
/// different families at once, never changes an answer.
#[test]
fn observations_asked_for_match_the_full_set() {
    for f in all_scenarios().into_iter().step_by(7) {
        let s = scenario::load(&f, None).unwrap();
        let obs = s.run_engine().observations;
        let all = obs.all();
        assert!(!all.is_empty(), "{}", f.display());
        let paths: Vec<String> = all.keys().step_by(5).cloned().collect();
        for (p, got) in paths.iter().zip(obs.values_at(&paths)) {
            assert_eq!(got.as_ref(), all.get(p), "{}: {p}", f.display());
            assert_eq!(obs.get(p).as_ref(), all.get(p), "{}: {p}", f.display());
        }
        assert_eq!(obs.get("no.such.path"), None);
    }
}

#[test]
fn the_run_is_deterministic() {
    for f in all_scenarios().into_iter().take(5) {
        let s = scenario::load(&f, None).unwrap();
        let a = serde_json::to_string(&scenario::run(&s)).unwrap();
        let b = serde_json::to_string(&scenario::run(&s)).unwrap();
        assert_eq!(a, b, "{}", f.display());
    }
}

// ------------------------------------------------------------ command line

#[test]
fn check_passes_with_exit_0_and_json_contract() {
    let tmp = TempDir::new("check");
    let o = swjudge(tmp.path())
        .args([
            "check",
            "--json",
            "scenarios/swccg/actions/example-1-deploying-a-card.yaml",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "pass");
    assert_eq!(v["game"], "swccg");
    assert_eq!(v["source"], "swccg.ar.actions-example-1");
    let step = &v["steps"][0];
    for k in ["n", "level", "actor", "event", "text", "cites"] {
        assert!(step.get(k).is_some(), "step lacks {k}: {step}");
    }
    assert_eq!(v["end"]["end"], "complete");
    assert!(v["observations"].is_object());
    assert!(v["illegal"].is_array() && v["leftover"].is_array());
    let e = &v["expectations"][0];
    for k in ["path", "expected", "actual", "ok"] {
        assert!(e.get(k).is_some(), "expectation lacks {k}: {e}");
    }
}

#[test]
fn check_text_shows_trace_and_verdict() {
    let tmp = TempDir::new("check-text");
    let o = swjudge(tmp.path())
        .args([
            "check",
            "--trace",
            "scenarios/swccg/actions/example-1-deploying-a-card.yaml",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("swccg.ar.canceling-and-suspending"), "{out}");
    assert!(out.contains("verdict: pass"), "{out}");
}

#[test]
fn check_failed_expectation_exits_1() {
    let tmp = TempDir::new("check-fail");
    let f = tmp.path().join("f.yaml");
    std::fs::write(&f, MINIMAL.replace("{a: table}", "{a: light.lost_pile}")).unwrap();
    let o = swjudge(tmp.path())
        .args(["check", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(stdout(&o).contains("FAILED"));
}

#[test]
fn check_invalid_exits_2_with_one_line() {
    let tmp = TempDir::new("check-invalid");
    let f = tmp.path().join("bad.yaml");
    std::fs::write(&f, MINIMAL.replace("turn: light", "turn: purple")).unwrap();
    let o = swjudge(tmp.path())
        .args(["check", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("bad.yaml:4:"), "{err}");
}

#[test]
fn test_command_summarises() {
    let tmp = TempDir::new("test-cmd");
    let dir = tmp.path().join("s");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("ok.yaml"), MINIMAL).unwrap();
    std::fs::write(
        dir.join("sub/fail.yaml"),
        MINIMAL.replace("{a: table}", "{a: dark.hand}"),
    )
    .unwrap();
    let o = swjudge(tmp.path())
        .args(["test", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(out.lines().any(|l| l == "1 passed, 1 failed"), "{out}");
    assert!(out.contains("fail.yaml"), "{out}");
    let o = swjudge(tmp.path())
        .args(["test", "--json", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["passed"], 1);
    assert_eq!(v["failed"], 1);
    assert_eq!(v["scenarios"].as_array().unwrap().len(), 2);
    assert!(v["scenarios"][0].get("verdict").is_some());
}

#[test]
fn test_command_counts_invalid_as_failed_and_exits_2() {
    let tmp = TempDir::new("test-invalid");
    let dir = tmp.path().join("s");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ok.yaml"), MINIMAL).unwrap();
    std::fs::write(dir.join("bad.yaml"), "game: swccg\ntitle: x\nnope: 1\n").unwrap();
    let o = swjudge(tmp.path())
        .args(["test", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
    assert!(
        stdout(&o).lines().any(|l| l == "1 passed, 1 failed"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn test_command_default_runs_the_shipped_scenarios() {
    let tmp = TempDir::new("test-default");
    let o = swjudge(tmp.path()).arg("test").output().unwrap();
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(
        stdout(&o).trim_end().ends_with(" passed, 0 failed"),
        "{}",
        stdout(&o)
    );
}

/// The annotated example in docs/scenarios.md is a valid, passing scenario.
#[test]
fn the_documented_example_runs() {
    let doc = std::fs::read_to_string(root().join("docs/scenarios.md")).unwrap();
    let start = doc.find("```yaml\n").expect("a yaml block") + "```yaml\n".len();
    let end = start + doc[start..].find("```").unwrap();
    let s = scenario::load_str(
        Path::new("docs/scenarios.md"),
        &doc[start..end],
        Some(&corpus() as &dyn SectionIds),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let r = scenario::run(&s);
    assert_eq!(r.verdict, Verdict::Pass, "{:#?}", r.expectations);
}

/// Any prefix of any script, and any script with one decision dropped, runs to
/// an outcome without panicking (a missing decision is a result, not a crash).
#[test]
fn partial_scripts_always_end_with_an_outcome() {
    for f in all_scenarios() {
        let Ok(s) = scenario::load(&f, None) else {
            continue;
        };
        let n = s.script_len();
        if n == 0 {
            continue;
        }
        for k in 0..=n {
            for drop in [None, Some(k + 1)] {
                let keep = |pos: usize| match drop.filter(|&d| d <= n) {
                    Some(d) => pos != d,
                    None => pos <= k,
                };
                let r = s.run_partial(&keep);
                let last = r.trace.steps.last();
                assert!(
                    last.is_some_and(|l| l.event == swjudge::engine::Event::Stop),
                    "{} (k={k}, drop={drop:?}): the trace does not end with the outcome",
                    f.display()
                );
            }
        }
    }
}

#[test]
fn through_before_the_starting_phase_is_rejected_with_position() {
    let e =
        load_err(&MINIMAL.replace("  phase: deploy\n", "  phase: deploy\n  through: control\n"));
    assert!(e.starts_with("s.yaml:6:"), "{e}");
    assert!(
        e.contains("the control phase comes before the starting deploy phase"),
        "{e}"
    );
}

#[test]
fn a_run_stops_at_the_end_of_its_through_phase() {
    // Without `through:` the run ends with the starting phase; with it, the next phase begins.
    let script = "script:\n  - {light: pass}\n  - {dark: pass}\n  - {light: deploy, card: a}\n";
    let base = MINIMAL.replace("script:\n  - {light: deploy, card: a}\n", script);
    let one = scenario::run(&scenario::load_str(Path::new("s.yaml"), &base, None).unwrap());
    assert_eq!(one.verdict, Verdict::Fail);
    assert_eq!(
        one.expectations
            .iter()
            .find(|e| e.path == "leftover")
            .unwrap()
            .actual,
        serde_json::json!(1)
    );
    let two = scenario::run(
        &scenario::load_str(
            Path::new("s.yaml"),
            &base.replace("  phase: deploy\n", "  phase: deploy\n  through: battle\n"),
            None,
        )
        .unwrap(),
    );
    // In the battle phase the Effect is not deployed: deploying from hand is a deploy phase action.
    let cards = two
        .expectations
        .iter()
        .find(|e| e.path == "cards.a")
        .unwrap();
    assert_eq!(cards.actual, "light.hand");
    assert_eq!(
        two.expectations
            .iter()
            .find(|e| e.path == "leftover")
            .unwrap()
            .actual,
        serde_json::json!(0)
    );
    assert!(
        two.steps
            .iter()
            .any(|s| s.text.contains("Light's battle phase begins"))
    );
    assert!(
        two.steps
            .iter()
            .any(|s| s.text.contains("decision 3 rejected")
                && s.text.contains("only during their own deploy phase"))
    );
}

#[test]
fn an_ability_error_points_at_its_card() {
    let e = load_err(&MINIMAL.replace(
        "a: {title: A, side: light, type: effect}",
        "a: {title: A, side: light, type: effect, abilities: [{kind: before}]}",
    ));
    assert!(e.starts_with("s.yaml:7:"), "{e}");
    assert!(
        e.contains("card `a` ability 1: a \"before\" action needs `responds_to:`"),
        "{e}"
    );
}

// ------------------------------------------------------------ verdicts a judge can trust

/// Two Interrupts: `nm` has a result the engine does not model; `sense` responds to it.
const NOT_MODELLED: &str = "game: swccg
title: t
swccg:
  turn: light
  phase: deploy
  cards:
    nm:
      title: Mystery
      side: light
      type: interrupt
      subtype: used
      abilities:
        - {kind: top_level, effect: [{not_modelled: \"the mystery result\"}]}
    sense:
      title: Sense
      side: dark
      type: interrupt
      subtype: used
      abilities:
        - kind: response
          responds_to: {event: play, by: opponent, card: {title: [Mystery]}}
          targets: [{kind: current}]
          effect: [{cancel: current}]
  light:
    hand: [nm]
  dark:
    hand: [sense]
script:
  - {light: play, card: nm}
  - {dark: pass}
expect:
  cards: {nm: light.used_pile}
";

/// A step the engine does not model never passes silently.
#[test]
fn a_not_modelled_step_is_its_own_verdict() {
    let r = scenario::run(&scenario::load_str(Path::new("s.yaml"), NOT_MODELLED, None).unwrap());
    assert_eq!(r.verdict, Verdict::NotModelled, "{:#?}", r.expectations);
    assert_eq!(r.not_modelled, vec!["the mystery result".to_string()]);
    assert!(r.problems()[0].contains("not modelled — ruling needed: the mystery result"));
    // Acknowledged, it passes; acknowledged but never met, it fails.
    let ack = format!("{NOT_MODELLED}  not_modelled: [\"the mystery result\"]\n");
    let r = scenario::run(&scenario::load_str(Path::new("s.yaml"), &ack, None).unwrap());
    assert_eq!(r.verdict, Verdict::Pass, "{:#?}", r.expectations);
    let wrong = format!("{NOT_MODELLED}  not_modelled: [\"something else\"]\n");
    let r = scenario::run(&scenario::load_str(Path::new("s.yaml"), &wrong, None).unwrap());
    assert_eq!(r.verdict, Verdict::NotModelled);
    let never = MINIMAL.replace(
        "  cards: {a: table}\n",
        "  cards: {a: table}\n  not_modelled: [\"x\"]\n",
    );
    let r = scenario::run(&scenario::load_str(Path::new("s.yaml"), &never, None).unwrap());
    assert_eq!(r.verdict, Verdict::Fail);
}

/// An expectation the game cannot observe is a load error, never ignored.
#[test]
fn an_unobservable_expectation_is_an_error() {
    for (bad, needle) in [
        (
            "  numbers: {winner: 1}\n",
            "expect.numbers.winner: cannot be observed",
        ),
        (
            "  leftover_cards: 7\n",
            "expect.leftover_cards: cannot be observed",
        ),
        ("  piles: {light.nowhere: []}\n", "light.nowhere"),
        ("  force: {light: {sabers: 1}}\n", "`sabers` is not one of"),
        ("cards: {zz: table}", "`zz` is not a card"),
    ] {
        let text = if bad.starts_with("cards") {
            MINIMAL.replace("cards: {a: table}", bad)
        } else {
            format!("{MINIMAL}{bad}")
        };
        let e = load_err(&text);
        assert!(e.contains(needle), "{bad}: {e}");
        assert!(e.starts_with("s.yaml:"), "{e}");
    }
    // A card's values: only the cards of the board and the values a card has.
    let e = load_err(&format!("{MINIMAL}  values: {{a: {{sabers: 1}}}}\n"));
    assert!(e.contains("a card's value is one of"), "{e}");
    let e = load_err(&format!("{MINIMAL}  values: {{zz: {{power: 1}}}}\n"));
    assert!(e.contains("`zz` is not a card"), "{e}");
    // A value a card does not have does not exist: observed as null.
    let ok = format!("{MINIMAL}  values: {{a: {{power: null}}}}\n");
    let r = scenario::run(&scenario::load_str(Path::new("s.yaml"), &ok, None).unwrap());
    assert_eq!(r.verdict, Verdict::Pass, "{:#?}", r.expectations);
}

/// A file holds exactly one thing to run; the old `battle:` case form is an unknown key.
#[test]
fn two_things_to_run_in_one_file_are_rejected() {
    let both = MINIMAL.replace(
        "  turn: light\n",
        "  turn: light\n  battle: {location: s, initiator: light, cards: []}\n",
    );
    let e = load_err(&both);
    assert!(e.contains("unknown field `battle`"), "{e}");
    let two_boards = format!("{MINIMAL}destiny: {{}}\n");
    let e = load_err(&two_boards);
    assert!(e.contains("exactly one thing to run"), "{e}");
}

/// A response that is illegal where it stands is rejected there, at its own
/// position, not held for a later window where it would be legal.
#[test]
fn an_illegal_decision_is_judged_at_its_own_position() {
    // Dark's Sense stands before Light plays anything: there is nothing to respond to.
    let text = NOT_MODELLED.replace(
        "  - {light: play, card: nm}\n  - {dark: pass}\n",
        "  - {dark: play, card: sense}\n  - {light: play, card: nm}\n  - {dark: pass}\n",
    );
    let r = scenario::run(&scenario::load_str(Path::new("s.yaml"), &text, None).unwrap());
    assert_eq!(r.illegal.len(), 1, "{:#?}", r.illegal);
    assert_eq!(r.illegal[0].step, 1);
    assert_eq!(r.illegal[0].player, "dark");
    assert!(!r.illegal[0].cites.is_empty());
    // Sense was never played later: Mystery resolved uncanceled.
    assert_eq!(r.observations.get("cards.sense").unwrap(), "dark.hand");
    assert_eq!(r.observations.get("cards.nm").unwrap(), "light.used_pile");
    assert_eq!(r.verdict, Verdict::NotModelled);
}

/// A decision by the player who does not have the next action is rejected,
/// citing the rule, and the run goes on.
#[test]
fn a_decision_by_the_wrong_player_is_rejected() {
    let text = MINIMAL.replace(
        "  - {light: deploy, card: a}\n",
        "  - {dark: pass}\n  - {light: deploy, card: a}\n",
    );
    let r = scenario::run(&scenario::load_str(Path::new("s.yaml"), &text, None).unwrap());
    let i = &r.illegal[0];
    assert_eq!((i.step, i.player.as_str()), (1, "dark"));
    assert!(
        i.cites.contains(&"swccg.ar.types-of-actions"),
        "{:?}",
        i.cites
    );
    assert_eq!(r.verdict, Verdict::Fail);
    let expected = format!("{text}  illegal: [{{step: 1, rule: swccg.ar.types-of-actions}}]\n");
    let r = scenario::run(&scenario::load_str(Path::new("s.yaml"), &expected, None).unwrap());
    assert_eq!(r.verdict, Verdict::Pass, "{:#?}", r.expectations);
}

/// `source: SECTION#N` names the Nth example inside a section; the section must exist.
#[test]
fn a_source_may_name_an_example_inside_a_section() {
    assert_eq!(
        scenario::section_of("swccg.ar.the-stack#2"),
        "swccg.ar.the-stack"
    );
    assert_eq!(
        scenario::section_of("swccg.ar.the-stack"),
        "swccg.ar.the-stack"
    );
    assert_eq!(scenario::section_of("a#b"), "a#b");
    let ok = MINIMAL.replace("title: t\n", "title: t\nsource: swccg.ar.the-stack#2\n");
    let c = corpus();
    assert!(scenario::load_str(Path::new("s.yaml"), &ok, Some(&c as &dyn SectionIds)).is_ok());
    let bad = MINIMAL.replace("title: t\n", "title: t\nsource: swccg.ar.no-such#2\n");
    assert!(scenario::load_str(Path::new("s.yaml"), &bad, Some(&c as &dyn SectionIds)).is_err());
}

/// Unknown keys are rejected inside an ability's effects too (a misspelt or
/// invented option is never silently dropped).
#[test]
fn an_unknown_key_inside_an_effect_is_rejected() {
    let text = "game: swccg
title: t
swccg:
  turn: light
  phase: deploy
  cards:
    a: {title: A, side: light, type: interrupt, subtype: lost, abilities: [{kind: top_level, effect: [{add_power: {card: this, amount: {value: 1}, colour: red}}]}]}
  light:
    hand: [a]
script:
  - {light: play, card: a}
";
    let e = load_err(text);
    assert!(e.starts_with("s.yaml:7:"), "{e}");
    assert!(e.contains("unknown field `colour`"), "{e}");
}

/// The rulebooks' worked examples and a census matched with scenario sources
/// (`swjudge::coverage`).
mod coverage {
    use std::path::Path;
    use swjudge::coverage::*;
    use swjudge::rulebook::Corpus;

    fn corpus() -> Corpus {
        let mut c = Corpus::default();
        let md = "---\ngame: destiny\ndocument: rr\ndocument_title: RR\n---\n\
# Rules {#d.rules}\n\nPlain rule.\n\nExample: one thing happens.\n\n\
- A list item, for example this one.\n- Not this one, e.g. Han.\n- But (e.g., if he moves) this.\n\n\
# Clarifications {#d.cl}\n\n## Card (1) {#d.cl.card .ruling}\n\nA ruling.\n\n\
# FAQ {#d.faq}\n\n## Q {#d.faq.q .faq}\n\nAn answer.\n\n\
# Worked {#d.worked .example}\n\nExample: not counted twice.\n";
        c.add_file(Path::new("d.md"), md).unwrap();
        c
    }

    #[test]
    fn finds_labelled_in_text_clarification_and_faq_examples() {
        let ids: Vec<(String, Form)> = examples(&corpus())
            .into_iter()
            .map(|e| (e.id, e.form))
            .collect();
        assert_eq!(
            ids,
            vec![
                ("d.rules#1".to_string(), Form::InText),
                ("d.rules#2".to_string(), Form::InText),
                ("d.rules#3".to_string(), Form::InText),
                ("d.cl.card".to_string(), Form::Clarification),
                ("d.faq.q".to_string(), Form::Faq),
                ("d.worked".to_string(), Form::Labelled),
            ]
        );
    }

    #[test]
    fn sources_cover_by_id_or_section_and_unreproducible_is_apart() {
        let sc = |f: &str, s: &[&str]| ScenarioSource {
            file: f.into(),
            game: Some("destiny".into()),
            sources: s.iter().map(|x| x.to_string()).collect(),
        };
        let cov = coverage(
            &corpus(),
            &[
                sc("a.yaml", &["d.rules#2"]),
                sc("b.yaml", &["d.worked", "d.nothing"]),
                sc("c.yaml", &["d.cl"]),
                // A section alone names its first example only.
                sc("d.yaml", &["d.rules"]),
            ],
            &[
                ("d.faq.q".into(), "text cut off".into()),
                ("d.gone".into(), "x".into()),
            ],
        );
        let status: Vec<(&str, Status)> = cov
            .examples
            .iter()
            .map(|e| (e.id.as_str(), e.status))
            .collect();
        assert_eq!(
            status,
            vec![
                ("d.rules#1", Status::Covered),
                ("d.rules#2", Status::Covered),
                ("d.rules#3", Status::NotCovered),
                ("d.cl.card", Status::NotCovered),
                ("d.faq.q", Status::CannotBeReproduced),
                ("d.worked", Status::Covered),
            ]
        );
        let g = &cov.games[0];
        assert_eq!(
            (g.examples, g.covered, g.not_covered, g.cannot_be_reproduced),
            (6, 3, 2, 1)
        );
        assert_eq!(cov.examples[0].scenarios, vec!["d.yaml"]);
        assert_eq!(cov.examples[1].scenarios, vec!["a.yaml"]);
        assert_eq!(cov.other_sources, vec!["b.yaml: d.nothing", "c.yaml: d.cl"]);
        assert_eq!(cov.warnings.len(), 1);
    }

    #[test]
    fn unreproducible_lines_need_an_id_and_a_reason() {
        let p = Path::new("u.tsv");
        let ok = parse_unreproducible(p, "# comment\n\nx.y\tcut off\n").unwrap();
        assert_eq!(ok, vec![("x.y".to_string(), "cut off".to_string())]);
        let err = parse_unreproducible(p, "x.y cut off\n").unwrap_err();
        assert_eq!(err.to_string(), "u.tsv:1: expected SECTION-ID<TAB>reason");
    }

    #[test]
    fn census_numbers_repeated_sections_and_counts_by_area() {
        let text = "game\tname\tsection_id\ttopic\tencoded\n\
swccg\tA\ts.one\tdeployment/personas\tno\n\
swccg\tB\ts.one\tdeployment\tno\n\
swccg\tC\ts.two\tmovement\tno\n\
destiny\tD\td.x\tdice\tno\n";
        let cases = parse_census(Path::new("c.tsv"), text).unwrap();
        let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["s.one", "s.one#2", "s.two", "d.x"]);
        let src = |f: &str, s: &[&str]| ScenarioSource {
            file: f.into(),
            game: None,
            sources: s.iter().map(|x| x.to_string()).collect(),
        };
        let c = census(
            cases,
            &[
                src("a.yaml", &["s.one#2"]),
                src("b.yaml", &["s.two"]),
                src("c.yaml", &["s.two#2"]),
                src("d.yaml", &["s.one#1"]),
            ],
        );
        let covered: Vec<(&str, &[String])> = c
            .cases
            .iter()
            .map(|c| (c.id.as_str(), c.scenarios.as_slice()))
            .collect();
        assert_eq!(
            covered[0].1,
            ["d.yaml"],
            "s.one#2 does not cover the first case"
        );
        assert_eq!(covered[1].1, ["a.yaml"]);
        assert_eq!(covered[2].1, ["b.yaml"], "s.two#2 names no case");
        let sw = c.games.iter().find(|g| g.game == "swccg").unwrap();
        assert_eq!((sw.cases, sw.covered), (3, 3));
        let d = c.games.iter().find(|g| g.game == "destiny").unwrap();
        assert_eq!((d.cases, d.covered), (1, 0));
        let dep = c
            .areas
            .iter()
            .find(|a| a.area.as_deref() == Some("deployment"))
            .unwrap();
        assert_eq!((dep.cases, dep.covered), (2, 2));
    }

    #[test]
    fn census_needs_its_columns() {
        let e = parse_census(Path::new("c.tsv"), "game\tname\ttopic\n").unwrap_err();
        assert!(e.to_string().contains("section_id"), "{e}");
        let e = parse_census(
            Path::new("c.tsv"),
            "game\tname\tsection_id\ttopic\nswccg\t\n",
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("c.tsv:2:"), "{e}");
    }
}

/// Ruling sources and the lists of rulings not yet expressible (`swjudge::rulings`).
mod rulings {
    use std::path::Path;
    use swjudge::Game;
    use swjudge::coverage::ScenarioSource;
    use swjudge::rulings::*;

    #[test]
    fn ruling_sources_parse_or_say_what_is_wrong() {
        let r = RulingRef::parse("ruling:swccg:1595#2").unwrap().unwrap();
        assert_eq!((r.game, r.card.as_str(), r.n), (Game::Swccg, "1595", 2));
        assert_eq!(r.to_string(), "ruling:swccg:1595#2");
        assert!(RulingRef::parse("swccg.ar.battle").is_none());
        for bad in [
            "ruling:swccg:1595",
            "ruling:swccg:1595#0",
            "ruling:ccg:1595#1",
            "ruling:swccg:#1",
        ] {
            assert!(RulingRef::parse(bad).unwrap().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_ruling_source_names_its_own_game_and_a_library_card() {
        assert!(
            check_source(Game::Destiny, "ruling:swccg:1#1")
                .unwrap()
                .is_err()
        );
        let cat = swjudge::engine::swccg::library::catalogue().unwrap();
        let known = &cat.entries[0].reference;
        let id = known.trim_start_matches("swccg:");
        assert!(
            check_source(Game::Swccg, &format!("ruling:swccg:{id}#1"))
                .unwrap()
                .is_ok()
        );
        assert!(
            check_source(Game::Swccg, "ruling:swccg:999999#1")
                .unwrap()
                .is_err()
        );
        assert!(check_source(Game::Swccg, "swccg.ar.battle").is_none());
        assert!(
            check_source(Game::Swtcg, "ruling:swtcg:ANH-1#1")
                .unwrap()
                .is_ok()
        );
        assert!(
            check_source(Game::Swtcg, "ruling:swtcg:ANH-9999#1")
                .unwrap()
                .is_err()
        );
    }

    #[test]
    fn missing_lines_count_by_mechanism_unless_reproduced() {
        let text = "# triggers\nruling:swccg:1#1\tabout to be lost\tx\nruling:swccg:1#2\tabout to be lost\ty\nruling:swccg:2#1\tlocation text\tz\n";
        let listed = parse_missing(Path::new("m.tsv"), text).unwrap();
        assert_eq!(listed.len(), 3);
        let sc = ScenarioSource {
            file: "a.yaml".into(),
            game: Some("swccg".into()),
            sources: vec!["ruling:swccg:1#2".into(), "swccg.ar.battle".into()],
        };
        let c = ruling_coverage(&[sc], listed);
        assert_eq!(c.games.len(), 1);
        assert_eq!((c.games[0].reproduced, c.games[0].missing), (1, 2));
        assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
        assert!(parse_missing(Path::new("m.tsv"), "ruling:swccg:1#1\tx\n").is_err());
        assert!(parse_missing(Path::new("m.tsv"), "swccg.ar.x\ta\tb\n").is_err());
    }
}
