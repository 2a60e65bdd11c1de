//! At the table: the `check` summary a judge reads in ten seconds, the whole
//! trace with its passes folded, imports that forgive, an installed binary
//! that is complete, and the conventions of a command-line tool.

use crate::util::{TempDir, code, stderr, stdout, swjudge};

/// A 2-on-2 battle: two characters on each side, battle destiny, attrition,
/// forfeit and battle damage.
const TWO_ON_TWO: &str = "scenarios/swccg/battles/reserve-runs-out-mid-battle.yaml";
/// A 2-on-2 battle with weapons fired in it and a decision the rules reject.
const TWO_ON_TWO_WEAPONS: &str =
    "scenarios/swccg/battles/participating-in-battle-excluded-example-1.yaml";

fn check(tmp: &TempDir, args: &[&str]) -> String {
    let o = swjudge(tmp.path())
        .env("COLUMNS", "100")
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    assert!(code(&o) < 2, "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn check_summary_of_a_two_on_two_battle_fits_one_screen() {
    let tmp = TempDir::new("table-summary");
    for (file, most) in [(TWO_ON_TWO, 40), (TWO_ON_TWO_WEAPONS, 50)] {
        let text = check(&tmp, &[file]);
        let lines = text.lines().count();
        assert!(lines <= most, "{lines} lines:\n{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 100), "{text}");
        let full = check(&tmp, &["--trace", file]);
        assert!(full.lines().count() > 2 * lines, "{full}");
        for want in ["disputed:", "outcome: ", "changed:", "verdict: pass"] {
            assert!(text.contains(want), "{want}:\n{text}");
        }
    }
    let text = check(&tmp, &[TWO_ON_TWO_WEAPONS]);
    // The disputed action, each decision's result with its rule, the rejected
    // decision with the rule it breaks, and where the cards ended.
    for want in [
        "disputed:  3 dark: Dark initiates a battle at Hoth: Battle Plains",
        "total weapon destiny 4 against Han (V)'s ability 3: hit  [swccg.ar.weapons-destiny]",
        "decision 5 rejected (Light forfeit Han (V))",
        "snoova at:plains → dark.lost_pile",
        "winner dark",
    ] {
        assert!(text.contains(want), "{want}:\n{text}");
    }
    assert!(!text.contains("no legal response"), "{text}");
}

#[test]
fn check_trace_prints_every_step_with_runs_of_passes_folded() {
    let tmp = TempDir::new("table-trace");
    let o = swjudge(tmp.path())
        .args(["--json", "check", TWO_ON_TWO_WEAPONS])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let steps = v["steps"].as_array().unwrap();
    let text = check(&tmp, &["--trace", TWO_ON_TWO_WEAPONS]);
    // Every step number stands at the head of a block, alone or as the first
    // or last of a folded run.
    let heads: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(". ").map(|(n, _)| n))
        .filter(|n| n.chars().all(|c| c.is_ascii_digit() || c == '–'))
        .collect();
    let mut covered = Vec::new();
    for h in &heads {
        let (a, b) = h.split_once('–').unwrap_or((h, h));
        let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
        assert!(b >= a, "{h}");
        covered.extend(a..=b);
    }
    let all: Vec<usize> = (1..=steps.len()).collect();
    assert_eq!(covered, all, "{text}");
    assert!(heads.len() < steps.len() * 3 / 4, "{} blocks", heads.len());
    assert!(text.contains("— 2 passes: light, dark"), "{text}");
    assert!(!text.contains("has no legal response"), "{text}");
}

#[test]
fn check_without_expect_still_shows_the_board_it_leaves() {
    let tmp = TempDir::new("table-no-expect");
    let text = std::fs::read_to_string(crate::util::root().join(TWO_ON_TWO)).unwrap();
    let cut = text.find("\nexpect:").unwrap();
    let f = tmp.path().join("no-expect.yaml");
    std::fs::write(&f, &text[..cut + 1]).unwrap();
    for args in [&[][..], &["--trace"][..]] {
        let mut all = args.to_vec();
        all.push(f.to_str().unwrap());
        let out = check(&tmp, &all);
        assert!(out.contains("changed:"), "{out}");
        assert!(out.contains("bossk at:here → dark.lost_pile"), "{out}");
    }
    let narrow = swjudge(tmp.path())
        .env("COLUMNS", "60")
        .args(["check", "--trace", f.to_str().unwrap()])
        .output()
        .unwrap();
    let narrow = stdout(&narrow);
    assert!(narrow.contains("expectation"), "{narrow}");
    assert!(!narrow.contains("expectat\n"), "{narrow}");
}

#[test]
fn check_json_carries_the_summary_the_text_prints() {
    let tmp = TempDir::new("table-json");
    let o = swjudge(tmp.path())
        .args(["--json", "check", TWO_ON_TWO_WEAPONS])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let s = &v["summary"];
    assert_eq!(s["disputed"]["n"], 3);
    assert_eq!(s["verdict"], "pass");
    let text = check(&tmp, &[TWO_ON_TWO_WEAPONS]);
    for step in s["steps"].as_array().unwrap() {
        let head = format!("{:>3} {}: ", step["n"], step["actor"].as_str().unwrap());
        assert!(text.contains(&head), "{head}:\n{text}");
        if let Some(rule) = step["rule"].as_str() {
            assert!(text.contains(&format!("[{rule}]")), "{rule}:\n{text}");
        }
    }
    let changed = s["changed"].as_array().unwrap();
    assert!(
        changed
            .iter()
            .any(|c| c["path"] == "cards.snoova" && c["after"] == "dark.lost_pile"),
        "{changed:?}"
    );
}
