//! Integration tests: the Star Wars: Destiny engine through the scenario layer.

use crate::util::root;
use std::path::Path;
use swjudge::scenario::{self, Verdict};

pub(crate) const BASE: &str = "game: destiny
title: t
destiny:
  first: player1
  cards:
    han: {title: Han Solo, type: character, health: 10, die: [1RD, 2RD, 3RD1, 1R, Sp, \"-\"]}
    trooper: {title: Stormtrooper, type: character, health: 7, die: [1RD, 2RD, 1MD, 1Sh, 1R, \"-\"]}
  player1:
    characters: [{card: han, exhausted: true}]
    pool: {han: 2RD}
  player2:
    characters: [{card: trooper, shields: 1}]
script:
  - {player1: resolve, dice: [han], to: [trooper]}
expect:
  cards: {trooper: {damage: 1, shields: 0}}
";

fn load_err(text: &str) -> String {
    scenario::load_str(Path::new("d.yaml"), text, None)
        .unwrap_err()
        .to_string()
}

#[test]
fn repeated_keys_in_destiny_maps_are_rejected() {
    let e = load_err(&BASE.replace("    pool: {han: 2RD}\n", "    pool: {han: 2RD, han: 1R}\n"));
    assert!(
        e.starts_with("d.yaml:10:") && e.ends_with("duplicate mapping key: han"),
        "{e}"
    );
    let e = load_err(&BASE.replace(
        "  cards:\n",
        "  cards:\n    han: {title: Han, type: character, health: 1, die: [1R, 1R, 1R, 1R, 1R, 1R]}\n",
    ));
    assert!(
        e.starts_with("d.yaml:7:") && e.ends_with("duplicate mapping key: han"),
        "{e}"
    );
}

fn verdict(text: &str) -> Verdict {
    let s = scenario::load_str(Path::new("d.yaml"), text, None).expect("loads");
    scenario::run(&s).verdict
}

#[test]
fn shields_block_first_and_the_run_passes() {
    assert_eq!(verdict(BASE), Verdict::Pass);
}

#[test]
fn a_wrong_destiny_expectation_fails() {
    let t = BASE.replace("{damage: 1, shields: 0}", "{damage: 2, shields: 0}");
    assert_eq!(verdict(&t), Verdict::Fail);
}

#[test]
fn unknown_board_key_names_its_position() {
    let t = BASE.replace("  first: player1\n", "  first: player1\n  frist: x\n");
    let e = load_err(&t);
    assert!(e.contains("d.yaml:5:"), "{e}");
    assert!(e.contains("frist"), "{e}");
}

#[test]
fn a_die_side_the_die_does_not_have_is_rejected() {
    let e = load_err(&BASE.replace("pool: {han: 2RD}", "pool: {han: 4RD}"));
    assert!(e.contains("no side `4RD`"), "{e}");
}

#[test]
fn a_malformed_die_face_is_rejected() {
    let e = load_err(&BASE.replace("3RD1, 1R, Sp", "3QQ, 1R, Sp"));
    assert!(e.contains("unknown symbol"), "{e}");
}

#[test]
fn a_step_naming_two_players_is_rejected() {
    let e = load_err(&BASE.replace(
        "{player1: resolve, dice: [han], to: [trooper]}",
        "{player1: resolve, player2: pass}",
    ));
    assert!(e.contains("exactly one player"), "{e}");
}

#[test]
fn an_unknown_die_in_the_script_is_rejected() {
    let e = load_err(&BASE.replace("dice: [han]", "dice: [luke]"));
    assert!(e.contains("unknown die `luke`"), "{e}");
}

#[test]
fn an_unobservable_path_is_rejected() {
    let e = load_err(&BASE.replace("cards: {trooper:", "cards: {nobody:"));
    assert!(e.contains("cannot be observed"), "{e}");
}

#[test]
fn an_illegal_resolution_is_reversed_with_its_rule() {
    let t = BASE
        .replace("pool: {han: 2RD}", "pool: {han: \"-\"}")
        .replace(
            "cards: {trooper: {damage: 1, shields: 0}}",
            "illegal: [{step: 1, rule: destiny.rr.blank}]\n  cards: {trooper: {damage: 0, shields: 1}}",
        );
    assert_eq!(verdict(&t), Verdict::Pass);
}

#[test]
fn every_destiny_rule_id_is_in_the_rulebook() {
    let corpus = swjudge::rulebook::Corpus::load(&root().join("rulebook")).unwrap();
    for id in swjudge::engine::destiny::rules::ALL {
        assert!(corpus.contains(id), "{id}");
    }
}

#[test]
fn the_destiny_scenarios_cover_the_rules_reference() {
    let files = scenario::find_files(&[root().join("scenarios/destiny")]).unwrap();
    assert!(files.len() >= 100, "{} Destiny scenarios", files.len());
    let mut sources = std::collections::BTreeSet::new();
    for f in &files {
        let s = scenario::load(f, None).unwrap();
        let src = s
            .source
            .as_ref()
            .map(|x| x.value.clone())
            .unwrap_or_default();
        assert!(
            src.starts_with("destiny.rr."),
            "{}: source {src}",
            f.display()
        );
        sources.insert(src);
    }
    let rulings = sources
        .iter()
        .filter(|s| s.contains(".clarifications.") || s.contains(".faq."))
        .count();
    assert!(rulings >= 60, "{rulings} clarifications and FAQ answers");
}

/// A shipped library scenario passes, and fails once `from` in it is
/// replaced by `to` (what the engine computes is what decides it).
fn passes_but_not_with(file: &str, from: &str, to: &str) {
    let path = root().join("scenarios/destiny/library").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file}: no `{from}`");
    assert_eq!(verdict(&text), Verdict::Pass, "{file}");
    assert_ne!(
        verdict(&text.replacen(from, to, 1)),
        Verdict::Pass,
        "{file}: `{to}` passes too"
    );
}

#[test]
fn remove_shields_removes_all_or_the_amount() {
    passes_but_not_with(
        "intimidate.yaml",
        "death: {shields: 0}",
        "death: {shields: 1}",
    );
    passes_but_not_with("guavian-enforcer.yaml", "shields: 1}", "shields: 0}");
    passes_but_not_with(
        "first-order-tie-fighter-special.yaml",
        "trooper: {shields: 1}",
        "trooper: {shields: 0}",
    );
}

#[test]
fn a_rolled_trigger_with_a_symbol_waits_for_that_symbol() {
    passes_but_not_with(
        "spy-net.yaml",
        "roll: {padawan: 1F}",
        "roll: {padawan: 1MD}",
    );
    passes_but_not_with("salvage-stand.yaml", "roll: {gun: 1R}", "roll: {gun: 2RD1}");
}

#[test]
fn removed_dice_counts_dice_not_their_value() {
    passes_but_not_with("fight-dirty.yaml", "damage: 2", "damage: 1");
    passes_but_not_with("only-business-matters.yaml", "resources: 2", "resources: 4");
}

#[test]
fn a_dice_showing_play_restriction_is_checked() {
    passes_but_not_with("lightsaber-throw.yaml", "step: 1, rule", "step: 4, rule");
    passes_but_not_with(
        "synchronicity.yaml",
        "damage: 2, shields: 2",
        "damage: 0, shields: 0",
    );
}

#[test]
fn reroll_all_color_and_a_specials_own_dice() {
    passes_but_not_with("scramble.yaml", "gun: 1R,", "gun: 2RD1,");
    passes_but_not_with("trust-the-force.yaml", "step: 1, rule", "step: 2, rule");
    passes_but_not_with(
        "supply-line-special.yaml",
        "trooper: 2RD,",
        "trooper: \"-\",",
    );
}

#[test]
fn draw_and_gain_for_each_player_or_the_opponent() {
    passes_but_not_with("dont-get-cocky.yaml", "hand: [d, e]", "hand: []");
    passes_but_not_with("one-quarter-portion.yaml", "resources: 3", "resources: 2");
}

#[test]
fn remove_this_die_is_a_cost_and_removals_take_remove_in_order() {
    passes_but_not_with(
        "journals-of-ben-kenobi.yaml",
        "step: 3, rule",
        "step: 1, rule",
    );
    passes_but_not_with("he-doesnt-like-you.yaml", "step: 1, rule", "step: 2, rule");
    passes_but_not_with(
        "coordination-special.yaml",
        "gungan: {shields: 2}",
        "gungan: {shields: 1}",
    );
}

#[test]
fn that_character_is_the_one_whose_die_was_removed() {
    passes_but_not_with(
        "bolt-hole.yaml",
        "wookiee: {shields: 2}",
        "wookiee: {shields: 0}",
    );
    passes_but_not_with(
        "yodas-quarters.yaml",
        "gungan: {damage: 1}",
        "gungan: {damage: 3}",
    );
}

#[test]
fn either_effect_by_a_copy_in_the_discard_pile_or_the_round() {
    passes_but_not_with(
        "spirit-of-rebellion.yaml",
        "gungan: {shields: 2}",
        "gungan: {shields: 1}",
    );
    passes_but_not_with("diversion.yaml", "resources: 3", "resources: 1");
    passes_but_not_with("long-con.yaml", "resources: 2", "resources: 0");
    passes_but_not_with(
        "jedi-robes.yaml",
        "padawan: {shields: 1}",
        "padawan: {shields: 2}",
    );
    passes_but_not_with(
        "jedi-robes-first-round.yaml",
        "padawan: {shields: 2}",
        "padawan: {shields: 1}",
    );
}

#[test]
fn resource_cost_dice_supports_and_colored_damage_are_chosen_as_written() {
    passes_but_not_with(
        "crossfire.yaml",
        "wookiee: on_card, trooper2",
        "wookiee: 2MD1, trooper2",
    );
    passes_but_not_with(
        "dt-29-heavy-blaster-pistol-special.yaml",
        "step: 1, rule",
        "step: 2, rule",
    );
    passes_but_not_with(
        "disable.yaml",
        "fire: {exhausted: true}",
        "fire: {exhausted: false}",
    );
    passes_but_not_with(
        "enrage.yaml",
        "padawan: {damage: 1}",
        "padawan: {damage: 0}",
    );
}

#[test]
fn up_to_n_dice_and_the_opponents_own_choice_of_damage() {
    passes_but_not_with("the-best-defense.yaml", "step: 1, rule", "step: 2, rule");
    passes_but_not_with(
        "separatist-base-claim.yaml",
        "death: {damage: 1, shields: 1}",
        "death: {damage: 0, shields: 0}",
    );
}

#[test]
fn modifier_dice_turning_to_a_symbol_and_a_least_cost_are_checked() {
    passes_but_not_with("swift-strike.yaml", "step: 1, rule", "step: 2, rule");
    passes_but_not_with("aim.yaml", "step: 1, rule", "step: 2, rule");
    passes_but_not_with("reaping-the-crystal.yaml", "resources: 0", "resources: 1");
    passes_but_not_with(
        "chirrut-imwe.yaml",
        "gungan: 1MD, chirrut",
        "gungan: 2MD, chirrut",
    );
    passes_but_not_with(
        "bounty-postings.yaml",
        "hand: [a, b, c], deck: [d]",
        "hand: [a], deck: [b, c, d]",
    );
}
