//! SWCCG piles given by count: face-down cards whose identity is not given.

use std::path::Path;
use swjudge::scenario::{self, Verdict};

/// Light deploys a card for 2 Force from a Force Pile given as a count.
const USES_FORCE: &str = "game: swccg
title: t
swccg:
  turn: light
  phase: deploy
  cards:
    a: {title: A, side: light, type: effect, stats: {deploy: 2}}
  light:
    hand: [a]
    force_pile: 3
    used_pile: 1
script:
  - {light: deploy, card: a}
expect:
  cards: {a: table}
  force:
    light: {force_pile: 1, used: 2}
  piles:
    light.used_pile: [light.force_pile#2, light.force_pile#1, light.used_pile#1]
";

/// Light plays an Interrupt that draws destiny from a Reserve Deck given as a count.
const DRAWS_DESTINY: &str = "game: swccg
title: t
swccg:
  turn: light
  phase: deploy
  cards:
    a:
      title: A
      side: light
      type: interrupt
      subtype: lost
      abilities:
        - kind: top_level
          text: \"Draw destiny. If destiny > 3, opponent loses 1 Force.\"
          effect:
            - destiny: {greater_than: {value: 3}, success: [{lose_force: {who: opponent, amount: {value: 1}}}]}
  light:
    hand: [a]
    reserve_deck: 4
script:
  - {light: play, card: a}
expect:
  cards: {a: light.lost_pile}
";

fn run(text: &str) -> scenario::Report {
    scenario::run(&scenario::load_str(Path::new("s.yaml"), text, None).unwrap())
}

fn load_err(text: &str) -> String {
    scenario::load_str(Path::new("s.yaml"), text, None)
        .unwrap_err()
        .to_string()
}

#[test]
fn a_counted_force_pile_pays_for_a_deployment() {
    let r = run(USES_FORCE);
    assert_eq!(r.verdict, Verdict::Pass, "{:#?}", r.expectations);
    // The counted cards are real cards: one too few fails the deployment.
    let r = run(&USES_FORCE.replace("force_pile: 3", "force_pile: 1"));
    assert_ne!(r.verdict, Verdict::Pass);
}

#[test]
fn a_counted_reserve_deck_drawn_for_destiny_is_refused() {
    let r = run(DRAWS_DESTINY);
    assert_eq!(r.verdict, Verdict::NotModelled, "{:#?}", r.expectations);
    assert_eq!(
        r.not_modelled,
        vec![
            "the 1st card of light's Reserve Deck is face down and its identity is not given in the scenario"
                .to_string()
        ]
    );
    // The same draw from a named card with a destiny number resolves.
    let named = DRAWS_DESTINY
        .replace("reserve_deck: 4", "reserve_deck: [d]")
        .replace(
            "  light:\n    hand",
            "    d: {title: D, side: light, type: effect, stats: {destiny: 5}}\n  light:\n    hand",
        );
    let r = run(&named);
    assert_eq!(r.verdict, Verdict::Pass, "{:#?}", r.expectations);
}

#[test]
fn a_counted_force_pile_drawn_into_hand_is_refused() {
    let text = "game: swccg
title: t
swccg:
  turn: light
  phase: draw
  light:
    force_pile: 2
script:
  - {light: draw, amount: 1}
expect:
  force:
    light: {hand: 1}
";
    let r = run(text);
    assert_eq!(r.verdict, Verdict::NotModelled, "{:#?}", r.expectations);
    assert!(
        r.not_modelled[0].starts_with("the 1st card of light's Force Pile is face down"),
        "{:?}",
        r.not_modelled
    );
}

#[test]
fn a_bad_count_is_one_error_with_its_position() {
    for (bad, needle) in [
        ("force_pile: 61", "at most 60"),
        ("force_pile: -1", "0 or more"),
        ("force_pile: three", "a number of face-down cards"),
    ] {
        let e = load_err(&USES_FORCE.replace("force_pile: 3", bad));
        assert!(e.starts_with("s.yaml:10:"), "{e}");
        assert!(e.contains(needle), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    let e = load_err(&USES_FORCE.replace("hand: [a]", "hand: 2"));
    assert!(e.starts_with("s.yaml:9:"), "{e}");
    let e = load_err(&USES_FORCE.replace("used_pile: 1", "used_piles: 1"));
    assert!(e.contains("used_piles"), "{e}");
}
