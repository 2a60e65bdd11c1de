//! `swjudge card` and `swjudge cards import`: importers on small fixtures in each
//! format, fuzzy lookup, ambiguity, errata/rulings merged from a fixture rulebook,
//! atomic and idempotent import, malformed input with positions.

use crate::util::{TempDir, code, stderr, stdout, swjudge};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    crate::util::root().join("tests/fixtures/cards").join(name)
}

fn fixture_rulebook() -> PathBuf {
    fixture("rulebook")
}

/// Import the three good fixtures into `tmp`'s data dir.
fn import_all(tmp: &Path) {
    let o = swjudge(tmp)
        .args(["cards", "import"])
        .arg(fixture("swccg-light.json"))
        .arg(fixture("destiny-set.json"))
        .arg(fixture("swtcg-set.txt"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "import failed: {}", stderr(&o));
}

/// `swjudge card --json` with the fixture rulebook; returns (exit code, JSON).
fn card_json(tmp: &Path, args: &[&str]) -> (i32, Value) {
    let o = swjudge(tmp)
        .arg("--rulebook")
        .arg(fixture_rulebook())
        .args(["card", "--json"])
        .args(args)
        .output()
        .unwrap();
    let v: Value = serde_json::from_str(&stdout(&o))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(&o), stderr(&o)));
    (code(&o), v)
}

fn chosen_title(v: &Value) -> String {
    v["card"]["title"]
        .as_str()
        .unwrap_or_else(|| panic!("no card chosen: {v:#}"))
        .to_string()
}

fn stored_files(tmp: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(tmp.join("data/cards"))
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn import_reports_counts_per_file_and_stores_one_file_per_source() {
    let tmp = TempDir::new("cards-import");
    let o = swjudge(tmp.path())
        .args(["cards", "import", "--json"])
        .arg(fixture("swccg-light.json"))
        .arg(fixture("destiny-set.json"))
        .arg(fixture("swtcg-set.txt"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let counts: Vec<(String, u64)> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["format"].as_str().unwrap().to_string(),
                f["imported"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        counts,
        [
            ("swccg".to_string(), 18),
            ("destiny".to_string(), 5),
            ("swtcg".to_string(), 5)
        ]
    );
    assert_eq!(v["imported"], 28);
    assert_eq!(v["rejected"], 0);
    assert_eq!(
        stored_files(tmp.path()),
        ["destiny-set.json", "swccg-light.json", "swtcg-set.json"]
    );
    // text summary too
    let o = swjudge(tmp.path())
        .args(["cards", "import"])
        .arg(fixture("swtcg-set.txt"))
        .output()
        .unwrap();
    assert!(
        stdout(&o).contains("5 cards imported (SWTCG LackeyCCG TSV), 0 rejected"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn reimport_replaces_records_without_duplicates() {
    let tmp = TempDir::new("cards-idem");
    import_all(tmp.path());
    let before = std::fs::read(tmp.path().join("data/cards/swccg-light.json")).unwrap();
    import_all(tmp.path());
    let after = std::fs::read(tmp.path().join("data/cards/swccg-light.json")).unwrap();
    assert_eq!(before, after);
    assert_eq!(stored_files(tmp.path()).len(), 3);
    // an exact title still resolves to one card, not to two copies
    let (c, v) = card_json(tmp.path(), &["Obi-Wan's Cape"]);
    assert_eq!(c, 0, "{v:#}");
    assert_eq!(
        v["matches"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["title"] == "Obi-Wan's Cape")
            .count(),
        1
    );
}

#[test]
fn malformed_json_names_file_line_and_column_and_keeps_previous_data() {
    let tmp = TempDir::new("cards-atomic");
    import_all(tmp.path());
    let before = std::fs::read(tmp.path().join("data/cards/swccg-light.json")).unwrap();
    // a good file together with a malformed one: nothing is written
    let o = swjudge(tmp.path())
        .args(["cards", "import"])
        .arg(fixture("swccg-light.json"))
        .arg(fixture("swccg-malformed.json"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(err.contains("swccg-malformed.json:4:"), "{err}");
    assert!(err.contains("malformed JSON"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one error line: {err}");
    assert!(stdout(&o).is_empty());
    assert_eq!(
        std::fs::read(tmp.path().join("data/cards/swccg-light.json")).unwrap(),
        before
    );
    assert_eq!(stored_files(tmp.path()).len(), 3);
}

#[test]
fn malformed_tsv_names_file_and_line() {
    let tmp = TempDir::new("cards-tsv-bad");
    let o = swjudge(tmp.path())
        .args(["cards", "import"])
        .arg(fixture("swtcg-malformed.txt"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("swtcg-malformed.txt:3: unterminated quoted field"),
        "{}",
        stderr(&o)
    );
    assert!(stored_files(tmp.path()).is_empty());
}

#[test]
fn bad_record_is_reported_and_the_rest_import_unless_strict() {
    let tmp = TempDir::new("cards-reject");
    let o = swjudge(tmp.path())
        .args(["cards", "import", "--strict"])
        .arg(fixture("swccg-bad-record.json"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("card 999"), "{}", stderr(&o));
    assert!(
        stored_files(tmp.path()).is_empty(),
        "strict import must write nothing"
    );

    let o = swjudge(tmp.path())
        .args(["cards", "import"])
        .arg(fixture("swccg-bad-record.json"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("1 cards imported"), "{out}");
    assert!(
        out.contains("rejected card 999: missing \"front.title\""),
        "{out}"
    );
    let (c, v) = card_json(tmp.path(), &["good card"]);
    assert_eq!(c, 0);
    assert_eq!(chosen_title(&v), "Good Card");
}

#[test]
fn die_face_outside_the_grammar_rejects_the_card_with_code_and_face() {
    let tmp = TempDir::new("cards-face");
    let o = swjudge(tmp.path())
        .args(["cards", "import", "--json"])
        .arg(fixture("destiny-bad-face.json"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["imported"], 1);
    let rej = &v["files"][0]["rejected"][0];
    assert_eq!(rej["id"], "card 01099");
    assert!(
        rej["reason"]
            .as_str()
            .unwrap()
            .contains("die face 2 \"2Q\""),
        "{rej}"
    );
}

#[test]
fn unrecognised_or_missing_files_are_errors() {
    let tmp = TempDir::new("cards-unknown");
    let o = swjudge(tmp.path())
        .args(["cards", "import"])
        .arg(fixture("rulebook/swccg/ar.md"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("unrecognised card file"),
        "{}",
        stderr(&o)
    );
    let o = swjudge(tmp.path())
        .args(["cards", "import", "no-such-file.json"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("no-such-file.json"), "{}", stderr(&o));
}

#[test]
fn fuzzy_names_typos_punctuation_versions_and_nicknames() {
    let tmp = TempDir::new("cards-fuzzy");
    import_all(tmp.path());
    let cases: &[(&[&str], &str)] = &[
        (&["4lom"], "4-LOM"),
        (&["quigon"], "Qui-Gon Jinn"),
        (&["han", "heavy", "blaster"], "Han's Heavy Blaster Pistol"),
        (&["obi", "wans", "cape"], "Obi-Wan's Cape"),
        (&["•Obi-Wan's", "Cape"], "Obi-Wan's Cape"),
        (&["Luke", "(V)"], "Luke Skywalker (V)"),
        (&["farmboy", "luke", "v"], "Luke Skywalker (V)"),
        (&["luke", "skywalkr"], "Luke Skywalker"),
        (&["ambush", "v"], "Ambush (V)"),
        (&["alderaan", "(dark", "side)"], "Alderaan"),
        (&["Anakin", "Skywalker", "(B)"], "Anakin Skywalker (B)"),
    ];
    for (q, want) in cases {
        let mut args = q.to_vec();
        args.extend([
            "--game",
            if want.starts_with("Anakin") {
                "swtcg"
            } else {
                "swccg"
            },
        ]);
        let (c, v) = card_json(tmp.path(), &args);
        assert_eq!(c, 0, "{q:?}: {v:#}");
        assert_eq!(chosen_title(&v), *want, "{q:?}");
    }
    let (_, v) = card_json(tmp.path(), &["alderaan", "(dark", "side)"]);
    assert_eq!(v["card"]["side"], "Dark");
}

#[test]
fn close_candidates_are_listed_not_guessed() {
    let tmp = TempDir::new("cards-ambig");
    import_all(tmp.path());
    // the same title on both sides
    let (c, v) = card_json(tmp.path(), &["alderaan"]);
    assert_eq!(c, 1);
    assert!(v["card"].is_null());
    let titles: Vec<&str> = v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles.len(), 2);
    assert!(
        titles.contains(&"Alderaan (Light Side)") && titles.contains(&"Alderaan (Dark Side)"),
        "{titles:?}"
    );
    // two SWTCG versions, no letter given
    let (c, v) = card_json(tmp.path(), &["anakin", "skywalker"]);
    assert_eq!(c, 1, "{v:#}");
    assert!(v["matches"].as_array().unwrap().len() >= 2);
    // the same name in two games, without --game: each game's answer, not a dead
    // end (SWCCG has one such card; Destiny two, listed, so a choice is left:
    // "several cards match", as every such answer, exits 1)
    let (c, v) = card_json(tmp.path(), &["Qui-Gon Jinn"]);
    assert_eq!(c, 1, "{v:#}");
    let by_game = v["by_game"].as_array().unwrap();
    assert_eq!(by_game.len(), 2, "{v:#}");
    assert_eq!(by_game[0]["game"], "swccg");
    assert_eq!(by_game[0]["card"]["title"], "Qui-Gon Jinn");
    assert_eq!(by_game[1]["game"], "destiny");
    assert!(by_game[1]["card"].is_null());
    assert_eq!(by_game[1]["candidates"].as_array().unwrap().len(), 2);
    // text output asks
    let o = swjudge(tmp.path())
        .arg("--rulebook")
        .arg(fixture_rulebook())
        .args(["card", "alderaan"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("could mean several cards"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("Alderaan (Dark Side)"));
}

#[test]
fn unknown_card_exits_1() {
    let tmp = TempDir::new("cards-none");
    import_all(tmp.path());
    let (c, v) = card_json(tmp.path(), &["zzzz", "qqqq"]);
    assert_eq!(c, 1);
    assert!(v["card"].is_null());
    assert_eq!(v["matches"].as_array().unwrap().len(), 0);
    assert_eq!(v["query"], "zzzz qqqq");
}

#[test]
fn errata_replace_printed_text_and_rulings_keep_sources() {
    let tmp = TempDir::new("cards-errata");
    import_all(tmp.path());
    let (c, v) = card_json(tmp.path(), &["obi", "wans", "cape"]);
    assert_eq!(c, 0);
    let card = &v["card"];
    assert_eq!(card["game"], "swccg");
    assert_eq!(card["side"], "Light");
    assert_eq!(card["type"], "Effect");
    assert_eq!(
        card["text"],
        "Use 2 Force to deploy on your Rebel or alien. Character is immune to attrition < 5."
    );
    assert!(
        card["text_source"]
            .as_str()
            .unwrap()
            .contains("swccg.ar.errata.obi-wans-cape")
    );
    assert_eq!(
        card["printed_text"],
        "Deploy on your Rebel. Character is immune to attrition < 5."
    );
    assert_eq!(card["errata"][0]["source"], "swccg.ar.errata.obi-wans-cape");
    assert_eq!(
        card["rulings"][0]["source"],
        "swccg.ar.rulings.obi-wans-cape"
    );
    assert_eq!(card["stats"]["destiny"], "4");
    let see: Vec<&str> = card["see_also"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(see, ["swccg.ar.effects"]);

    // imported rulings carry <file>#<id>; imported errata'd text is kept as current
    let (_, v) = card_json(tmp.path(), &["han's", "heavy", "blaster", "pistol"]);
    let card = &v["card"];
    assert_eq!(card["rulings"][0]["source"], "swccg-light.json#105");
    assert_eq!(
        card["rulings"][0]["text"],
        "Han may fire this weapon once per battle."
    );
    assert!(
        card["text_source"]
            .as_str()
            .unwrap()
            .contains("errata applied"),
        "{card:#}"
    );

    // Appendix F ruling lands on the SWCCG card only
    let (_, v) = card_json(tmp.path(), &["qui-gon", "jinn", "--game", "swccg"]);
    assert_eq!(
        v["card"]["rulings"][0]["source"],
        "swccg.ar.current-rulings.qui-gon-jinn"
    );

    // rulebook-only card
    let (c, v) = card_json(tmp.path(), &["ghhhk"]);
    assert_eq!(c, 0);
    assert_eq!(v["card"]["rulings"][0]["source"], "swccg.ar.rulings.ghhhk");
    assert!(v["card"]["text"].is_null());
}

#[test]
fn destiny_clarifications_attach_by_set_and_number_and_dice_read_as_faces() {
    let tmp = TempDir::new("cards-destiny");
    import_all(tmp.path());
    let (c, v) = card_json(
        tmp.path(),
        &["qui-gon", "jinn", "jedi", "master", "--game", "destiny"],
    );
    assert_eq!(c, 0, "{v:#}");
    let card = &v["card"];
    assert_eq!(card["set"], "Awakenings");
    assert_eq!(
        card["rulings"][0]["source"],
        "destiny.rr.clarifications.awakenings.qui-gon-jinn-37"
    );
    assert_eq!(card["stats"]["health"], "10");
    assert_eq!(card["stats"]["points"], "13/17");
    let faces: Vec<&str> = card["die"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["face"].as_str().unwrap())
        .collect();
    assert_eq!(faces, ["1MD", "2MD", "1Sh", "Sp", "+2MD1", "-"]);
    assert_eq!(
        card["die"][4]["meaning"],
        "+2 melee damage (costs 1 resource)"
    );
    // the other Qui-Gon (Spirit of Rebellion, also #37) gets no Awakenings ruling
    let (_, v) = card_json(tmp.path(), &["qui-gon", "jinn", "ataru", "master"]);
    assert!(v["card"]["rulings"].as_array().unwrap().is_empty(), "{v:#}");
    // errata from the Rules Reference replace the printed text
    let (_, v) = card_json(tmp.path(), &["captain", "phasma"]);
    assert_eq!(
        v["card"]["text"],
        "Your non-unique characters have the Guardian keyword while Captain Phasma is active."
    );
    assert_eq!(
        v["card"]["printed_text"],
        "Your non-unique characters have the Guardian keyword."
    );
}

#[test]
fn swtcg_stats_usage_rulings_and_text_errata() {
    let tmp = TempDir::new("cards-swtcg");
    import_all(tmp.path());
    let (c, v) = card_json(tmp.path(), &["clone", "officer"]);
    assert_eq!(c, 0);
    let card = &v["card"];
    assert_eq!(card["game"], "swtcg");
    for (k, want) in [
        ("cost", "5"),
        ("speed", "40"),
        ("power", "5"),
        ("health", "4"),
    ] {
        assert_eq!(card["stats"][k], want, "{k}");
    }
    assert_eq!(card["rulings"][0]["source"], "swtcg-set.txt#AOTC-9");
    let (_, v) = card_json(tmp.path(), &["count", "dooku", "a"]);
    assert!(
        v["card"]["text"]
            .as_str()
            .unwrap()
            .contains("\"face-down\"")
    );
    assert!(
        v["card"]["text_source"]
            .as_str()
            .unwrap()
            .contains("errata applied")
    );
}

#[test]
fn json_contract_fields() {
    let tmp = TempDir::new("cards-contract");
    import_all(tmp.path());
    let (_, v) = card_json(tmp.path(), &["4lom"]);
    for k in ["query", "matches", "card"] {
        assert!(v.get(k).is_some(), "missing {k}");
    }
    let m = &v["matches"][0];
    assert!(m["title"].is_string() && m["game"].is_string() && m["score"].is_number());
    for k in [
        "title", "game", "side", "type", "stats", "text", "errata", "rulings",
    ] {
        assert!(v["card"].get(k).is_some(), "card missing {k}");
    }
    assert!(v["card"]["stats"].is_object());
}

#[test]
fn no_data_and_no_rulebook_still_answers() {
    let tmp = TempDir::new("cards-empty");
    let o = swjudge(tmp.path())
        .arg("--rulebook")
        .arg(tmp.path().join("nowhere"))
        .args(["card", "anything"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("cards import"), "{}", stderr(&o));
}

/// Runs on the real community databases when SWJUDGE_REAL_DATA points at them.
#[test]
fn real_databases_import_when_available() {
    let Some(root) = std::env::var_os("SWJUDGE_REAL_DATA").map(PathBuf::from) else {
        eprintln!("SWJUDGE_REAL_DATA not set: skipping");
        return;
    };
    let tmp = TempDir::new("cards-real");
    let mut files = vec![
        root.join("swccg-card-json/Light.json"),
        root.join("swccg-card-json/Dark.json"),
    ];
    let mut sets: Vec<PathBuf> = std::fs::read_dir(root.join("swdestinydb-json-data/set"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    sets.sort();
    files.extend(sets);
    let o = swjudge(tmp.path())
        .args(["cards", "import", "--json"])
        .args(&files)
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let by_format = |f: &str| -> u64 {
        v["files"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["format"] == f)
            .map(|x| x["imported"].as_u64().unwrap())
            .sum()
    };
    eprintln!(
        "real data: swccg {} destiny {} rejected {}",
        by_format("swccg"),
        by_format("destiny"),
        v["rejected"]
    );
    assert_eq!(by_format("swccg"), 3797);
    assert_eq!(by_format("destiny"), 2034);
    assert_eq!(v["rejected"], 0);
    for (q, want) in [
        ("4lom", "4-LOM"),
        ("quigon", "Qui-Gon Jinn"),
        ("han heavy blaster", "Han's Heavy Blaster Pistol"),
        ("obi wans cape", "Obi-Wan's Cape"),
        ("Luke (V)", "Luke Skywalker (V)"),
    ] {
        let o = swjudge(tmp.path())
            .args(["card", "--json", "--game", "swccg", q])
            .output()
            .unwrap();
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["card"]["title"], want, "{q}: {v:#}");
    }
    // every reference and (a sample of) every label works typed back
    let db =
        swjudge::cards::CardDb::load(&tmp.path().join("data"), &crate::util::rulebook()).unwrap();
    for i in (0..db.len()).step_by(7) {
        assert_eq!(
            db.lookup(&db.refs[i], None).chosen,
            Some(i),
            "{}",
            db.refs[i]
        );
        let l = db.lookup(&db.labels[i], None);
        let found = l.chosen == Some(i) || l.by_game.iter().any(|(_, v)| v == &[i]);
        assert!(
            found,
            "label {:?}: {:?} {:?}",
            db.labels[i], l.chosen, l.by_game
        );
    }
    for (q, game, want) in [
        ("Han Solo", "swccg", "swccg:1098"),
        ("Han... Solo", "swccg", "swccg:6828"),
        ("Armed to the Teeth", "destiny", "destiny:01093"),
        ("Armed To The Teeth", "destiny", "destiny:11042"),
    ] {
        let o = swjudge(tmp.path())
            .args(["card", "--json", "--game", game, q])
            .output()
            .unwrap();
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["card"]["reference"], want, "{q}: {v:#}");
    }
}

#[test]
fn status_counts_sources_and_rulebook_only_entries() {
    let tmp = TempDir::new("cards-status");
    let o = swjudge(tmp.path())
        .arg("--rulebook")
        .arg(fixture_rulebook())
        .args(["cards", "status"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 1, "no sources yet");
    import_all(tmp.path());
    let o = swjudge(tmp.path())
        .arg("--rulebook")
        .arg(fixture_rulebook())
        .args(["cards", "status", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["sources"].as_array().unwrap().len(), 3);
    let only: Vec<&str> = v["rulebook_only"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    // Admiral Motti (Dark Side) and Ghhhk have rulebook entries but no fixture record
    assert_eq!(only.len(), 2, "{only:?}");
    assert!(
        only.iter().any(|s| s.starts_with("Admiral Motti"))
            && only.iter().any(|s| s.starts_with("Ghhhk"))
    );
    let swccg = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == "swccg")
        .unwrap();
    assert_eq!(swccg["with_errata"], 3, "{swccg}");
}

#[test]
fn swtcg_surname_alone_finds_the_only_character() {
    let tmp = TempDir::new("cards-dooku");
    import_all(tmp.path());
    let (c, v) = card_json(tmp.path(), &["dooku"]);
    assert_eq!(c, 0, "{v:#}");
    assert_eq!(chosen_title(&v), "Count Dooku (A)");
}

#[test]
fn data_dir_flag_overrides_the_environment() {
    let tmp = TempDir::new("cards-flag");
    let dir = tmp.path().join("elsewhere");
    let o = swjudge(tmp.path())
        .arg("--data-dir")
        .arg(&dir)
        .args(["cards", "import"])
        .arg(fixture("swtcg-set.txt"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(dir.join("cards/swtcg-set.json").is_file());
    assert!(
        stored_files(tmp.path()).is_empty(),
        "the env data dir must stay empty"
    );
}

/// Import the lookup fixtures (no `sets.json` beside them) into `tmp`'s data dir.
fn import_lookup(tmp: &Path) {
    let o = swjudge(tmp)
        .args(["cards", "import"])
        .arg(fixture("lookup/Light.json"))
        .arg(fixture("lookup/destiny.json"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "import failed: {}", stderr(&o));
}

/// `swjudge card --json` with the rulebook built into the binary.
fn lookup_json(tmp: &Path, args: &[&str]) -> (i32, Value) {
    let o = swjudge(tmp)
        .args(["card", "--json"])
        .args(args)
        .output()
        .unwrap();
    let v: Value = serde_json::from_str(&stdout(&o))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(&o), stderr(&o)));
    (code(&o), v)
}

#[test]
fn an_exact_title_wins_by_bytes_then_by_letters() {
    let tmp = TempDir::new("exact");
    import_lookup(tmp.path());
    for (q, id) in [
        ("Han Solo", "1098"),
        ("Han... Solo", "6828"),
        ("•Han Solo", "1098"),
        ("Armed to the Teeth", "01093"),
        ("Armed To The Teeth", "11042"),
        ("Luke Skywalker, Jedi Knight", "1594"),
        ("swccg:6828", "6828"),
        ("DESTINY:11042", "11042"),
    ] {
        let (c, v2) = lookup_json(tmp.path(), &[q]);
        assert_eq!(c, 0, "{q}: {v2:#}");
        let got = v2["card"]["reference"]
            .as_str()
            .map(str::to_string)
            .or_else(|| {
                // a name in several games: the answer of the game the ID belongs to
                v2["by_game"].as_array().and_then(|g| {
                    g.iter()
                        .filter_map(|x| x["card"]["reference"].as_str())
                        .find(|r| r.ends_with(&format!(":{id}")))
                        .map(str::to_string)
                })
            });
        assert!(
            got.is_some_and(|r| r.ends_with(&format!(":{id}"))),
            "{q}: {v2:#}"
        );
    }
    // same letters, two cards of one game: listed with names that work typed back
    let (c, v) = lookup_json(tmp.path(), &["armed to the teeth"]);
    assert_eq!(c, 1, "{v:#}");
    let listed: Vec<String> = v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["score"] == 1.0)
        .flat_map(|m| {
            [
                m["title"].as_str().unwrap().to_string(),
                m["reference"].as_str().unwrap().to_string(),
            ]
        })
        .collect();
    assert_eq!(listed.len(), 4, "{v:#}");
    for name in &listed {
        let (c, v) = lookup_json(tmp.path(), &[name]);
        assert_eq!(c, 0, "typed back {name:?}: {v:#}");
        assert!(v["card"].is_object(), "typed back {name:?}: {v:#}");
    }
}

#[test]
fn a_name_in_several_games_shows_each_games_card() {
    let tmp = TempDir::new("bygame");
    import_lookup(tmp.path());
    let (c, v) = lookup_json(tmp.path(), &["Darth Vader"]);
    assert_eq!(c, 0, "{v:#}");
    assert!(v["card"].is_null());
    let games: Vec<(&str, &str)> = v["by_game"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["game"].as_str().unwrap(),
                g["card"]["reference"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        games,
        [("swccg", "swccg:634"), ("destiny", "destiny:01010")]
    );
    let o = swjudge(tmp.path())
        .args(["card", "Darth Vader"])
        .output()
        .unwrap();
    let t = stdout(&o);
    assert!(
        t.contains("── swccg ──") && t.contains("── destiny ──"),
        "{t}"
    );
    let (_, v) = lookup_json(tmp.path(), &["--game", "destiny", "Darth Vader"]);
    assert_eq!(v["card"]["reference"], "destiny:01010");
}

#[test]
fn personas_from_the_rulebook_are_among_the_choices() {
    let tmp = TempDir::new("persona");
    import_lookup(tmp.path());
    for (q, exact, persona) in [
        ("vader", "Vader", &["Darth Vader", "Lord Vader"][..]),
        (
            "luke",
            "Luke",
            &["Luke Skywalker", "Luke Skywalker, Jedi Knight"][..],
        ),
    ] {
        // the persona's name as each game spells it: the SWCCG's exact title
        // is that game's answer
        let (_, v) = lookup_json(tmp.path(), &[q, "--game", "swccg"]);
        assert_eq!(chosen_title(&v), exact, "an exact title wins: {v:#}");
        let names: Vec<&str> = v["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["title"].as_str().unwrap())
            .collect();
        for p in persona {
            assert!(names.contains(p), "{q}: {p} missing from {names:?}");
        }
    }
}

#[test]
fn destiny_markup_is_emphasis_on_a_terminal_and_plain_in_json() {
    let tmp = TempDir::new("markup");
    import_lookup(tmp.path());
    let (_, v) = lookup_json(tmp.path(), &["destiny:01010"]);
    let text = v["card"]["text"].as_str().unwrap();
    assert_eq!(
        text,
        "Action - Turn a die to a side showing blank. (Blue, Red) Then resolve special."
    );
    let colour = stdout(
        &swjudge(tmp.path())
            .args(["--color", "always", "card", "destiny:01010"])
            .output()
            .unwrap(),
    );
    assert!(colour.contains("\x1b[1mAction\x1b[0m"), "{colour}");
    assert!(colour.contains("\x1b[3m(Blue, Red)\x1b[0m"), "{colour}");
    let plain = stdout(
        &swjudge(tmp.path())
            .env("NO_COLOR", "1")
            .args(["card", "destiny:01010"])
            .output()
            .unwrap(),
    );
    assert!(
        !plain.contains('\x1b') && !plain.contains("<b>") && !plain.contains("[blank]"),
        "{plain}"
    );
    // the database marks it as errata'd; the note says the Rules Reference has none
    let notes = v["card"]["notes"].to_string();
    assert!(
        notes.contains("the Rules Reference has no errata for it"),
        "{notes}"
    );
}

#[test]
fn see_also_zero_prints_none_and_set_names_need_no_sets_json() {
    let tmp = TempDir::new("seealso0");
    import_lookup(tmp.path());
    let (_, v) = lookup_json(
        tmp.path(),
        &["--see-also", "0", "--game", "swccg", "Darth Vader"],
    );
    assert_eq!(v["card"]["see_also"], serde_json::json!([]));
    let (_, v1) = lookup_json(
        tmp.path(),
        &["--see-also", "1", "--game", "swccg", "Darth Vader"],
    );
    assert_eq!(
        v1["card"]["see_also"].as_array().unwrap().len(),
        1,
        "{v1:#}"
    );
    let t = stdout(
        &swjudge(tmp.path())
            .args(["card", "--see-also", "0", "--game", "swccg", "Darth Vader"])
            .output()
            .unwrap(),
    );
    assert!(!t.contains("See also"), "{t}");
    assert_eq!(v["card"]["set"], "Premiere");
    let (_, v) = lookup_json(tmp.path(), &["Hoth Trooper"]);
    assert_eq!(v["card"]["set"], "Hoth");
}

#[test]
fn every_label_and_reference_resolves_typed_back() {
    let tmp = TempDir::new("typedback");
    import_lookup(tmp.path());
    import_all(tmp.path());
    let db =
        swjudge::cards::CardDb::load(&tmp.path().join("data"), &crate::util::rulebook()).unwrap();
    assert!(db.len() > 20);
    for i in 0..db.len() {
        let l = db.lookup(&db.refs[i], None);
        assert_eq!(l.chosen, Some(i), "reference {}", db.refs[i]);
        let l = db.lookup(&db.labels[i], None);
        let found = l.chosen == Some(i) || l.by_game.iter().any(|(_, v)| v == &[i]);
        assert!(
            found,
            "label {:?} → {:?} / {:?}",
            db.labels[i], l.chosen, l.by_game
        );
    }
}

/// "What cancels X?": the Players Committee's relations are on the card page,
/// and its bold words in braces are shown as words.
#[test]
fn the_card_page_shows_what_a_card_cancels_and_what_pulls_it() {
    let tmp = TempDir::new("cards-relations");
    let o = swjudge(tmp.path())
        .args(["cards", "import"])
        .arg(fixture("swccg-light.json"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (c, v) = card_json(tmp.path(), &["Qui-Gon's End"]);
    assert_eq!(c, 0, "{v:#}");
    assert_eq!(
        v["card"]["relations"]["cancels"][0], "Qui-Gon Jinn",
        "{v:#}"
    );
    assert_eq!(
        v["card"]["relations"]["pulled_by"][0], "Obi-Wan Kenobi",
        "{v:#}"
    );
    assert_eq!(v["card"]["text"], "While in battle, lose 1 Force.", "{v:#}");
    let o = swjudge(tmp.path())
        .args(["card", "Qui-Gon's End"])
        .output()
        .unwrap();
    let page = stdout(&o);
    assert!(
        page.contains("Cancels") && page.contains("Pulled by"),
        "{page}"
    );
    assert!(!page.contains("{While}"), "{page}");
}
