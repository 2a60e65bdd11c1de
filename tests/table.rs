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
    for (file, most) in [(TWO_ON_TWO, 40), (TWO_ON_TWO_WEAPONS, 40)] {
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
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // The disputed action, each decision's result with its rule, the rejected
    // decision with the rule it breaks, and where the cards ended.
    for want in [
        "disputed: 3 dark: Dark initiates a battle at Hoth: Battle Plains",
        "total weapon destiny 4 against Han (V)'s ability 3: hit [swccg.ar.weapons-destiny]",
        "decision 5 rejected (Light forfeit Han (V))",
        "snoova at:plains → dark.lost_pile",
        "winner dark",
    ] {
        assert!(words.contains(want), "{want}:\n{text}");
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
    // A battle's destiny counts stand where they are worked out: before the
    // draws they explain, and once.
    let count = text.find("Light's battle destiny count is 1").unwrap();
    let draw = text.find("Light draws destiny: Echo Base Trooper").unwrap();
    assert!(count < draw, "{text}");
    assert_eq!(text.matches("Light's battle destiny count is 1").count(), 1);
    // The battle's cost and the weapons segment stand where they happen, once.
    let cost = text.find("battle cost is").unwrap();
    assert!(
        cost < text.find("uses 1 Force to initiate the battle").unwrap(),
        "{text}"
    );
    assert_eq!(text.matches("battle cost is").count(), 1, "{text}");
    assert_eq!(text.matches("weapons segment begins").count(), 1, "{text}");
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
        let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains("bossk at:here → dark.lost_pile"), "{out}");
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

// ---- imports that forgive ----

fn fixture(name: &str) -> std::path::PathBuf {
    crate::util::root().join("tests/fixtures/cards").join(name)
}

fn sj(tmp: &TempDir, args: &[&str]) -> std::process::Output {
    swjudge(tmp.path()).args(args).output().unwrap()
}

fn stored_names(tmp: &TempDir) -> Vec<String> {
    let o = sj(tmp, &["--json", "cards", "list"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap().to_string())
        .collect()
}

/// A folder as the databases are downloaded: card files in a subfolder, a
/// lookup table, a README and notes.
fn download(tmp: &TempDir) -> std::path::PathBuf {
    let dir = tmp.path().join("download");
    std::fs::create_dir_all(dir.join("set")).unwrap();
    for (from, to) in [
        ("swccg-light.json", "Light.json"),
        ("destiny-set.json", "set/AW.json"),
        ("swtcg-set.txt", "set/ANH.txt"),
        ("sets.json", "sets.json"),
    ] {
        std::fs::copy(fixture(from), dir.join(to)).unwrap();
    }
    std::fs::write(dir.join("README.md"), "# cards\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "bought at the con\n").unwrap();
    dir
}

#[test]
fn import_reads_a_folder_for_every_file_it_recognises() {
    let tmp = TempDir::new("table-import-dir");
    let dir = download(&tmp);
    let o = sj(&tmp, &["--json", "cards", "import", dir.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let formats: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["format"].as_str().unwrap())
        .collect();
    assert_eq!(formats, ["swccg", "swtcg", "destiny"], "{v}");
    let skipped: Vec<String> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| format!("{} {}", k["file"], k["reason"]))
        .collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert!(skipped[0].contains("notes.txt") && skipped[0].contains("not a LackeyCCG"));
    assert!(skipped[1].contains("sets.json") && skipped[1].contains("lookup table"));
    assert_eq!(
        stored_names(&tmp),
        ["destiny-aw", "swccg-light", "swtcg-anh"]
    );
    // The lookup table beside the card files is used: set names come from it.
    let card = sj(&tmp, &["--json", "card", "swccg:1"]);
    assert!(code(&card) < 2, "{}", stderr(&card));
}

#[test]
fn import_of_every_json_file_uses_the_lookup_table_and_still_refuses_a_stranger() {
    let tmp = TempDir::new("table-import-glob");
    let dir = download(&tmp);
    let light = dir.join("Light.json");
    let sets = dir.join("sets.json");
    let o = sj(
        &tmp,
        &[
            "cards",
            "import",
            light.to_str().unwrap(),
            sets.to_str().unwrap(),
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("sets.json: skipped: a lookup table"),
        "{}",
        stdout(&o)
    );
    let stranger = tmp.path().join("package.json");
    std::fs::write(&stranger, "{\"name\": \"x\"}").unwrap();
    let o = sj(&tmp, &["cards", "remove", "--all"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = sj(
        &tmp,
        &[
            "cards",
            "import",
            light.to_str().unwrap(),
            stranger.to_str().unwrap(),
        ],
    );
    assert_eq!(code(&o), 2);
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("package.json:1:1: JSON is neither"),
        "{}",
        stderr(&o)
    );
    assert!(
        stored_names(&tmp).is_empty(),
        "a refused import writes nothing"
    );
}

#[test]
fn cards_list_and_remove() {
    let tmp = TempDir::new("table-list");
    let o = sj(&tmp, &["cards", "list"]);
    assert_eq!(code(&o), 1, "nothing imported: {}", stdout(&o));
    let dir = download(&tmp);
    assert_eq!(
        code(&sj(&tmp, &["cards", "import", dir.to_str().unwrap()])),
        0
    );
    let o = sj(&tmp, &["cards", "list"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("swccg-light"), "{}", stdout(&o));
    assert!(stdout(&o).contains("from Light.json"), "{}", stdout(&o));
    // An unknown name removes nothing, in one line.
    let o = sj(&tmp, &["cards", "remove", "swtcg-anh", "nosuch"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("`nosuch`"), "{}", stderr(&o));
    assert_eq!(stored_names(&tmp).len(), 3);
    // By source file name (any case), by format, by stored name.
    let o = sj(&tmp, &["cards", "remove", "light.json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "removed swccg-light (from Light.json)\n");
    assert_eq!(code(&sj(&tmp, &["cards", "remove", "destiny"])), 0);
    assert_eq!(stored_names(&tmp), ["swtcg-anh"]);
    assert_eq!(
        code(&sj(&tmp, &["--json", "cards", "remove", "swtcg-anh"])),
        0
    );
    assert!(stored_names(&tmp).is_empty());
    assert_eq!(code(&sj(&tmp, &["cards", "remove"])), 2, "a name or --all");
}

#[test]
fn real_databases_import_as_downloaded() {
    let Some(data) = crate::util::real_data() else {
        return;
    };
    let tmp = TempDir::new("table-real");
    let swccg = data.join("swccg-card-json");
    let mut args: Vec<String> = vec!["cards".into(), "import".into()];
    let mut jsons: Vec<String> = std::fs::read_dir(&swccg)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| p.display().to_string())
        .collect();
    jsons.sort();
    assert!(jsons.iter().any(|j| j.ends_with("sets.json")));
    args.extend(jsons);
    for folder in ["swdestinydb-json-data", "swtcg-lackey"] {
        args.push(data.join(folder).display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = sj(&tmp, &args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let names = stored_names(&tmp);
    for want in [
        "swccg-light",
        "swccg-dark",
        "destiny-formats-formats",
        "swtcg-anh",
    ] {
        assert!(names.iter().any(|n| n == want), "{want}: {names:?}");
    }
    // The card data's text with errata applied, set against the rulebook's erratum.
    let o = sj(&tmp, &["--json", "card", "Obi-Wan's Journal"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let x = &v["card"]["errata_check"];
    assert_eq!(x["section"], "swccg.ar.errata.obi-wans-journal", "{v}");
    assert_eq!(x["agrees"], false, "{x}");
    assert!(x["rulebook"].as_str().unwrap().contains("here"), "{x}");
}

// ---- installed is complete ----

#[test]
fn shipped_scenarios_are_every_file_of_the_scenarios_folder() {
    let root = crate::util::root().join("scenarios");
    let mut on_disk: Vec<String> = walk(&root)
        .into_iter()
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "yaml" || e == "yml" || e == "tsv")
        })
        .map(|p| {
            p.strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    on_disk.sort();
    let mut shipped: Vec<&str> = swjudge::scenario::shipped::FILES
        .iter()
        .map(|(rel, _)| *rel)
        .collect();
    shipped.sort_unstable();
    let missing: Vec<&String> = on_disk
        .iter()
        .filter(|f| !shipped.contains(&f.as_str()))
        .collect();
    assert!(missing.is_empty(), "not shipped: {missing:?}");
    assert_eq!(shipped.len(), on_disk.len());
    for (rel, text) in swjudge::scenario::shipped::FILES {
        assert_eq!(
            *text,
            std::fs::read_to_string(root.join(rel)).unwrap(),
            "{rel}"
        );
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn test_and_coverage_work_away_from_the_clone_and_a_path_runs_files_on_disk() {
    let tmp = TempDir::new("table-installed");
    let away = |args: &[&str]| {
        swjudge(tmp.path())
            .current_dir(tmp.path())
            .args(args)
            .output()
            .unwrap()
    };
    let o = away(&["--json", "test"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let yaml = swjudge::scenario::shipped::FILES
        .iter()
        .filter(|(rel, _)| rel.ends_with(".yaml"))
        .count();
    assert_eq!(v["passed"].as_u64().unwrap() as usize, yaml);
    let o = away(&["--json", "coverage", "--game", "swtcg"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let there = serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap();
    let here = swjudge(tmp.path())
        .args(["--json", "coverage", "--game", "swtcg"])
        .output()
        .unwrap();
    let here = serde_json::from_slice::<serde_json::Value>(&here.stdout).unwrap();
    assert_eq!(there["games"], here["games"]);
    // A path runs the files on disk: one scenario, edited to fail.
    let text = std::fs::read_to_string(crate::util::root().join(TWO_ON_TWO)).unwrap();
    let f = tmp.path().join("mine.yaml");
    std::fs::write(&f, text.replace("winner: null", "winner: light")).unwrap();
    let o = away(&["test", "mine.yaml"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(stdout(&o).contains("0 passed, 1 failed"), "{}", stdout(&o));
}

// ---- the conventions of a command-line tool ----

#[test]
fn completions_for_each_shell_and_a_man_page() {
    let tmp = TempDir::new("table-conventions");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = sj(&tmp, &["completions", shell]);
        assert_eq!(code(&o), 0, "{shell}: {}", stderr(&o));
        let script = stdout(&o);
        for word in ["search", "cards", "completions", "--game"] {
            assert!(script.contains(word), "{shell} lacks {word}");
        }
    }
    let o = sj(&tmp, &["completions", "tcsh"]);
    assert_eq!(code(&o), 2);
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    let o = sj(&tmp, &["man"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let page = stdout(&o);
    assert!(page.contains(".TH swjudge 1"), "{page}");
    assert!(
        page.contains("swjudge\\-completions(1)") && page.contains("\\-\\-data\\-dir"),
        "{page}"
    );
    let dir = tmp.path().join("man1");
    let o = sj(&tmp, &["--json", "man", "--out", dir.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    for page in ["swjudge.1", "swjudge-search.1", "swjudge-cards-import.1"] {
        let text = std::fs::read_to_string(dir.join(page)).unwrap();
        assert!(text.contains(".TH"), "{page}");
    }
}

#[test]
fn a_default_game_from_the_environment_or_the_config_file() {
    let tmp = TempDir::new("table-default-game");
    let import = sj(
        &tmp,
        &[
            "cards",
            "import",
            fixture("swccg-light.json").to_str().unwrap(),
            fixture("destiny-set.json").to_str().unwrap(),
        ],
    );
    assert_eq!(code(&import), 0, "{}", stderr(&import));
    let games = |o: &std::process::Output| -> Vec<String> {
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let mut g: Vec<String> = v["matches"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["score"].as_f64() == Some(1.0))
            .filter_map(|m| m["game"].as_str().map(str::to_string))
            .collect();
        g.sort();
        g.dedup();
        g
    };
    let card = |env: &[(&str, &str)], extra: &[&str]| {
        let mut c = swjudge(tmp.path());
        for (k, v) in env {
            c.env(k, v);
        }
        c.args(["--json", "card"]).args(extra).arg("Qui-Gon Jinn");
        c.output().unwrap()
    };
    let both = card(&[], &[]);
    assert_eq!(games(&both), ["destiny", "swccg"], "{}", stdout(&both));
    let env = card(&[("SWJUDGE_GAME", "destiny")], &[]);
    assert_eq!(games(&env), ["destiny"], "{}", stdout(&env));
    std::fs::write(tmp.path().join("config.yaml"), "game: swccg\n").unwrap();
    let file = card(&[], &[]);
    assert_eq!(games(&file), ["swccg"], "{}", stdout(&file));
    // --game, then the environment, then the file.
    let flag = card(&[("SWJUDGE_GAME", "swtcg")], &["--game", "destiny"]);
    assert_eq!(games(&flag), ["destiny"], "{}", stdout(&flag));
    std::fs::write(tmp.path().join("config.yaml"), "game: pazaak\n").unwrap();
    let bad = card(&[], &[]);
    assert_eq!(code(&bad), 2);
    assert!(
        stderr(&bad).contains("config.yaml: game: unknown game"),
        "{}",
        stderr(&bad)
    );
    std::fs::write(tmp.path().join("config.yaml"), "games: swccg\n").unwrap();
    let bad = card(&[], &[]);
    assert_eq!(code(&bad), 2);
    assert_eq!(stderr(&bad).lines().count(), 1, "{}", stderr(&bad));
}

#[test]
fn help_and_readme_name_the_same_commands() {
    let tmp = TempDir::new("table-help");
    let help = stdout(&sj(&tmp, &["--help"]));
    let readme = std::fs::read_to_string(crate::util::root().join("README.md")).unwrap();
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 14, "{help}");
    for c in &commands {
        assert!(
            readme.contains(&format!("`swjudge {c}")),
            "README lacks `swjudge {c}`"
        );
    }
    for sub in ["import", "list", "remove", "status"] {
        assert!(
            readme.contains(&format!("`swjudge cards {sub}")),
            "cards {sub}"
        );
    }
    for word in [
        "SWJUDGE_GAME",
        "config.yaml",
        "--trace",
        "cargo install --locked --path .",
    ] {
        assert!(readme.contains(word), "README lacks {word}");
    }
    let search = stdout(&sj(&tmp, &["search", "--help"]));
    assert!(
        search.contains("inferred from the question's words"),
        "{search}"
    );
    assert!(readme.contains("inferred from the question's words"));
}

#[test]
fn check_summary_in_each_game_names_the_dispute_and_what_the_rules_did() {
    let tmp = TempDir::new("table-games");
    let words = |file: &str| {
        check(&tmp, &[file])
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    // A play the rules refuse is what the scenario is about.
    let text = words("scenarios/swtcg/glossary/discard-a-character.yaml");
    assert!(
        text.contains("disputed: 6 dark: decision 2 rejected (dark play card purge target beast)"),
        "{text}"
    );
    assert!(text.contains("[swtcg.rb.glossary.type]"), "{text}");
    assert!(
        text.contains("padawan light.character → light.discard"),
        "{text}"
    );
    assert!(
        !text.contains("discard: dark"),
        "a pile's list repeats its cards: {text}"
    );
    // No player acts: the rules' own result is the story.
    let text = words("scenarios/swtcg/turn/contest-equipment-after-units.yaml");
    assert!(text.contains("disputed: no player acts"), "{text}");
    assert!(text.contains("wins the contest"), "{text}");
    // Destiny: the die resolved and what it changed, not the log of turns.
    let text = words("scenarios/destiny/clarifications/tobias-beckett.yaml");
    assert!(text.contains("player1.resources 0 → 1"), "{text}");
    assert!(!text.contains("turns:"), "{text}");
}

/// `swjudge::render::card`, through its public items.
mod card_unit {
    use swjudge::cards::{Card, CardDb, Entry, SourceFile, Stats};
    use swjudge::game::Game;
    use swjudge::render::card::*;

    fn journal(data: &str, erratum: &str) -> Option<ErrataCheck> {
        let mut c = Card::new(Game::Swccg, "1812", "Obi-Wan's Journal", "L#1812".into());
        c.text = Some(data.into());
        c.text_is_errata = true;
        c.errata.push(Entry {
            text: erratum.into(),
            source: "swccg.ar.errata.obi-wans-journal".into(),
        });
        CardView::new(&c, "", "", Vec::new()).errata_check
    }

    #[test]
    fn errata_applied_in_the_data_is_set_against_the_rulebook() {
        let data = "Deploy on Luke. Your characters present armed with a unique (•) lightsaber may not be Disarmed.";
        let rule = "Deploy on Luke. Your characters present here armed with a unique (*) lightsaber may not be Disarmed.";
        let x = journal(data, rule).unwrap();
        assert!(!x.agrees);
        assert_eq!(x.rulebook.as_deref(), Some("… present here armed …"));
        assert_eq!(x.card_data.as_deref(), Some("… present armed …"));
        let same = journal(&rule.replace('*', "•"), rule).unwrap();
        assert!(same.agrees && same.rulebook.is_none(), "{same:?}");
        let mut printed = Card::new(Game::Swccg, "1", "X", "L#1".into());
        printed.text = Some(data.into());
        let view = CardView::new(&printed, "", "", Vec::new());
        assert_eq!(view.errata_check, None, "printed text is not errata");
    }

    fn db() -> CardDb {
        let mut motti = Card::new(Game::Swccg, "60", "Admiral Motti", "Dark.json#60".into());
        motti.uniqueness = Some("•".into());
        motti.side = Some("Dark".into());
        motti.card_type = Some("Character".into());
        motti.subtype = Some("Imperial".into());
        motti.set = Some("Premiere".into());
        motti.stats = Stats(
            [
                ("power", "3"),
                ("ability", "3"),
                ("deploy", "3"),
                ("forfeit", "5"),
                ("destiny", "1"),
            ]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        );
        motti.text = Some("Printed text.".into());
        motti.errata.push(Entry {
            text: "Errata text.".into(),
            source: "swccg.ar.errata.admiral-motti".into(),
        });
        motti.rulings.push(Entry {
            text: "A ruling.".into(),
            source: "Dark.json#60".into(),
        });
        let mut a = Card::new(Game::Swccg, "1", "Alderaan", "Light.json#1".into());
        a.side = Some("Light".into());
        let mut b = Card::new(Game::Swccg, "2", "Alderaan", "Dark.json#2".into());
        b.side = Some("Dark".into());
        CardDb::build(
            vec![SourceFile {
                format: "swccg".into(),
                file: "x".into(),
                cards: vec![motti, a, b],
            }],
            None,
        )
    }

    #[test]
    fn text_shows_errata_over_printed_with_sources_and_stats_in_reading_order() {
        let db = db();
        let r = CardReport::new(&db, &db.lookup("admiral motti", None), 5);
        let t = text(&r, &swjudge::render::Style::plain());
        let want = [
            "•Admiral Motti\n",
            "swccg · Dark · Character - Imperial · Premiere\n",
            "Stats: power 3 · ability 3 · deploy 3 · forfeit 5 · destiny 1\n",
            "Text — errata (swccg.ar.errata.admiral-motti):\n  Errata text.\n",
            "Text in the card data — Dark.json#60 (the errata above replace it):\n  Printed text.\n",
            "Rulings:\n  [Dark.json#60]\n    A ruling.\n",
        ];
        let mut at = 0;
        for w in want {
            let i = t[at..]
                .find(w)
                .unwrap_or_else(|| panic!("missing {w:?} after byte {at} in:\n{t}"));
            at += i + w.len();
        }
        let j = serde_json::to_value(&r).unwrap();
        assert_eq!(j["card"]["text"], "Errata text.");
        assert_eq!(j["card"]["printed_text"], "Printed text.");
        let keys: Vec<&String> = j["card"]["stats"].as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 5);
    }

    #[test]
    fn ambiguous_lists_candidates_and_json_card_is_null() {
        let db = db();
        let r = CardReport::new(&db, &db.lookup("alderaan", None), 5);
        assert!(r.card.is_none());
        let t = text(&r, &swjudge::render::Style::plain());
        assert!(
            t.starts_with("\"alderaan\" could mean several cards; which one?\n"),
            "{t}"
        );
        assert!(
            t.contains("Alderaan (Light Side)  [swccg]")
                && t.contains("Alderaan (Dark Side)  [swccg]"),
            "{t}"
        );
        let j = serde_json::to_value(&r).unwrap();
        assert!(j["card"].is_null());
        assert_eq!(j["matches"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn import_summary_lists_rejects() {
        use swjudge::cards::import::{FileReport, Format, Imported, Rejected};
        let s = ImportSummary::new(Imported {
            files: vec![FileReport {
                file: "AW.json".into(),
                format: Format::Destiny,
                imported: 2,
                rejected: vec![Rejected {
                    id: "card 01099".into(),
                    reason: "die face 2 \"2Q\": unknown symbol".into(),
                }],
                stored_as: "d/cards/destiny-aw.json".into(),
            }],
            skipped: Vec::new(),
        });
        let t = import_text(&s);
        assert!(
            t.contains("AW.json: 2 cards imported (SWDestinyDB set JSON), 1 rejected"),
            "{t}"
        );
        assert!(
            t.contains("  rejected card 01099: die face 2 \"2Q\": unknown symbol\n"),
            "{t}"
        );
        assert!(t.ends_with("total: 2 cards imported, 1 rejected\n"));
    }
}

/// `swjudge::render::search`, through its public items.
mod search_unit {
    use swjudge::index::{DocKind, Hit, Origin};
    use swjudge::render::Style;
    use swjudge::render::search::*;
    use swjudge::rulebook::Game;

    fn hit(superseded: bool) -> Hit {
        Hit {
            id: "swccg.ar.x".into(),
            title: "X".into(),
            breadcrumb: vec!["AR".into(), "X".into()],
            game: Game::Swccg,
            document: "ar".into(),
            kind: DocKind::Rule,
            source: Origin::Rulebook {
                section: "swccg.ar.x".into(),
            },
            superseded,
            score: 1.0,
            coverage: 1.0,
            snippet: "a force\ndrain here".into(),
            highlights: std::iter::once(2..7).collect(),
            see: Vec::new(),
        }
    }

    #[test]
    fn a_pointer_hit_shows_where_it_points() {
        let mut h = hit(false);
        h.see = vec!["swccg.ar.y".into()];
        let t = text(&[h], &Style::plain());
        assert!(t.contains("\n    → swccg.ar.y\n"), "{t}");
        assert!(!text(&[hit(false)], &Style::plain()).contains('→'));
    }

    #[test]
    fn plain_text_has_no_escapes_and_labels_superseded() {
        let t = text(&[hit(true)], &Style::plain());
        assert!(!t.contains('\x1b'));
        assert!(t.contains("swccg.ar.x (superseded)"), "{t}");
        assert!(t.contains("a force drain here"), "{t}");
    }

    #[test]
    fn bold_wraps_matches() {
        let colour = Style {
            color: true,
            width: 80,
        };
        assert_eq!(
            highlight("a force\ndrain", std::slice::from_ref(&(2..7)), &colour),
            "a \x1b[1mforce\x1b[0m drain"
        );
        assert_eq!(highlight("a \x1b[2J", &[], &Style::plain()), "a \\u{1b}[2J");
    }
}

/// `swjudge::render::markdown`, through its public items.
mod markdown_unit {
    use swjudge::render::Style;
    use swjudge::render::markdown::*;

    fn plain(width: usize) -> Style {
        Style {
            color: false,
            width,
        }
    }

    #[test]
    fn markup_never_shows_and_emphasis_is_bold_or_italic_in_colour() {
        let md = "The **current action** may use *attack dice*.";
        assert_eq!(
            to_terminal(md, &plain(80), ""),
            "The current action may use attack dice."
        );
        let c = Style {
            color: true,
            width: 80,
        };
        let t = to_terminal(md, &c, "");
        assert!(t.contains("\x1b[1mcurrent action\x1b[0m"), "{t:?}");
        assert!(t.contains("\x1b[3mattack dice\x1b[0m"), "{t:?}");
        assert!(!t.contains('*'));
    }

    #[test]
    fn lists_and_paragraphs_wrap_under_their_marks() {
        let md = "First paragraph here.\n\n- one item that is rather long and wraps around\n- two\n\n1. first\n2. second";
        let t = to_terminal(md, &plain(30), "  ");
        let want = "  First paragraph here.\n\n  - one item that is rather\n    long and wraps around\n  - two\n\n  1. first\n  2. second";
        assert_eq!(t, want);
    }

    #[test]
    fn tables_become_tables() {
        let md = "| a | b |\n|---|---|\n| 1 | 2 |";
        let t = to_terminal(md, &plain(40), "");
        assert!(
            t.contains('│') && t.contains(" a ") && t.contains(" 2 "),
            "{t}"
        );
        assert!(!t.contains("|---"));
    }
}

/// `swjudge::render::rule`, through its public items.
mod rule_unit {
    use std::path::Path;
    use swjudge::render::Style;
    use swjudge::render::rule::*;
    use swjudge::rulebook::Corpus;

    fn corpus() -> Corpus {
        let mut c = Corpus::default();
        let md = "---\ngame: swtcg\ndocument: rb\ndocument_title: RB\n---\n\
# Keywords {#t.keywords}\n\n## Overkill {#t.overkill}\n\nAn *isolated* ability: the **current action**. (See Note, p.31.) (See Keywords.)\n";
        c.add_file(Path::new("rb.md"), md).unwrap();
        c
    }

    #[test]
    fn text_renders_markdown_and_lists_only_resolved_references() {
        let c = corpus();
        let v = RuleView::new(&c, c.get("t.overkill").unwrap());
        assert!(v.cross_references.iter().any(|r| r.id.is_none()));
        let t = text(&v, &Style::plain());
        assert!(
            t.contains("An isolated ability: the current action."),
            "{t}"
        );
        assert!(!t.contains('*') && !t.contains('\x1b'), "{t}");
        assert!(!t.contains("not found"), "{t}");
        assert!(t.trim_end().ends_with("Keywords → t.keywords"), "{t}");
        let colour = Style {
            color: true,
            width: 80,
        };
        let t = text(&v, &colour);
        assert!(t.contains("\x1b[1mcurrent action\x1b[0m"), "{t:?}");
    }
}

/// `swjudge::render`, through its public items.
mod style_unit {
    use swjudge::render::*;

    #[test]
    fn wrap_breaks_at_spaces_and_keeps_long_words_whole() {
        let id = "swccg.ar.actions-example-1-deploying-a-card";
        let t = format!("see {id} for the whole story of it");
        let w = wrap(&t, 30, "  ");
        assert!(w.lines().all(|l| l.len() <= 30 || l.trim() == id), "{w}");
        assert!(w.lines().any(|l| l.trim() == id), "{w}");
        assert_eq!(
            w.split_whitespace().collect::<Vec<_>>(),
            t.split_whitespace().collect::<Vec<_>>()
        );
        assert!(w.lines().all(|l| l.starts_with("  ")));
    }

    #[test]
    fn no_colour_means_no_escapes() {
        let s = Style::plain();
        assert_eq!(s.bold("x"), "x");
        let c = Style {
            color: true,
            width: 80,
        };
        assert_eq!(c.bold("x"), "\x1b[1mx\x1b[0m");
        assert_eq!(visible_len(&c.bold("abc")), 3);
    }

    #[test]
    fn wrap_counts_terminal_columns() {
        // Each of these takes two columns: ten of them fill a 20-column line.
        let wide = "日本 ".repeat(12);
        let w = wrap(wide.trim_end(), 24, "");
        assert!(w.lines().all(|l| visible_len(l) <= 24), "{w}");
        assert!(w.lines().count() >= 2, "{w}");
    }
}
