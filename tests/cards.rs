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
    let imported = swjudge::cards::load_imported(&tmp.path().join("data")).unwrap();
    let db = swjudge::cards::CardDb::load_with(imported, &crate::util::rulebook());
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
    let imported = swjudge::cards::load_imported(&tmp.path().join("data")).unwrap();
    let db = swjudge::cards::CardDb::load_with(imported, &crate::util::rulebook());
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

/// `swjudge::cards::names`' fuzzy matching, through its public items.
mod fuzzy_unit {
    use swjudge::cards::names::*;

    fn m(names: &[&str]) -> Matcher {
        let mut m = Matcher::default();
        for (i, n) in names.iter().enumerate() {
            m.add(i, n);
        }
        m
    }

    fn top<'a>(names: &'a [&'a str], q: &str) -> (&'a str, Vec<Hit>) {
        let hits = m(names).search(q);
        assert!(!hits.is_empty(), "no hits for {q}");
        (names[hits[0].key], hits)
    }

    #[test]
    fn normalizes() {
        assert_eq!(normalize("•Obi-Wan's Cape"), "obi wans cape");
        assert_eq!(normalize("  Dúnelizard   Fighter "), "dunelizard fighter");
        assert_eq!(
            normalize("<>Big One: Asteroid Cave"),
            "big one asteroid cave"
        );
        assert_eq!(normalize("4-LOM"), "4 lom");
        assert_eq!(normalize("Lt. Pol Treidum"), "lt pol treidum");
    }

    #[test]
    fn splits_qualifiers() {
        let s = split_name("•Obi-Wan Kenobi, Padawan Learner (V) (AI)");
        assert_eq!(s.base, ["obi", "wan", "kenobi", "padawan", "learner"]);
        assert_eq!(s.qualifiers, ["v", "ai"]);
        assert_eq!(
            split_name("Alter (Premiere) (V)").qualifiers,
            ["premiere", "v"]
        );
    }

    const NAMES: &[&str] = &[
        "Han's Heavy Blaster Pistol",
        "Han's Heavy Blaster Pistol (V)",
        "Han With Heavy Blaster Pistol",
        "4-LOM",
        "4-LOM With Concussion Rifle",
        "4-LOM's Concussion Rifle",
        "Qui-Gon Jinn",
        "Qui-Gon Jinn (AI)",
        "Qui-Gon Jinn, Jedi Master",
        "Qui-Gon Jinn's Lightsaber",
        "Qui-Gon's End",
        "Qui-Gon's Lightsaber",
        "Luke",
        "Luke's Hunting Rifle (V)",
        "Luke Skywalker, Rebel Scout (V)",
        "Obi-Wan's Cape",
        "Obi-Wan Kenobi",
        "Obi-Wan Kenobi (V)",
        "Luke Skywalker",
        "Luke Skywalker (V)",
        "Luke Skywalker, Jedi Knight",
        "Anakin Skywalker (A)",
        "Anakin Skywalker (B)",
        "Admiral Motti",
        "Alter (Premiere) (V)",
        "Alter (Coruscant) (V)",
        "Alter",
    ];

    #[test]
    fn partial_and_possessive() {
        let (t, h) = top(NAMES, "han heavy blaster");
        assert_eq!(t, "Han's Heavy Blaster Pistol", "{h:?}");
        assert!(h[0].score - h[1].score > AMBIGUITY_MARGIN, "{h:?}");
        assert_eq!(top(NAMES, "obi wans cape").0, "Obi-Wan's Cape");
    }

    #[test]
    fn run_together_and_punctuation() {
        let (t, h) = top(NAMES, "4lom");
        assert_eq!(t, "4-LOM");
        assert_eq!(h[0].score, 1.0, "{h:?}");
        let (t, h) = top(NAMES, "quigon");
        assert_eq!(t, "Qui-Gon Jinn", "{h:?}");
        assert!(h[0].score - h[1].score > AMBIGUITY_MARGIN, "{h:?}");
        assert_eq!(top(NAMES, "•Admiral Motti").0, "Admiral Motti");
    }

    #[test]
    fn typos() {
        assert_eq!(top(NAMES, "admiral moti").0, "Admiral Motti");
        assert_eq!(top(NAMES, "admrial motti").0, "Admiral Motti");
        assert_eq!(top(NAMES, "luke skywalkr").0, "Luke Skywalker");
    }

    #[test]
    fn versions() {
        let (t, h) = top(NAMES, "Luke Skywalker (V)");
        assert_eq!(t, "Luke Skywalker (V)");
        assert_eq!(h[0].score, 1.0, "{h:?}");
        assert_eq!(top(NAMES, "luke skywalker v").0, "Luke Skywalker (V)");
        assert_eq!(top(NAMES, "Luke (V)").0, "Luke Skywalker (V)");
        assert_eq!(top(NAMES, "anakin skywalker (b)").0, "Anakin Skywalker (B)");
        assert_eq!(top(NAMES, "alter premiere v").0, "Alter (Premiere) (V)");
        // plain name prefers the card without a version
        let (t, h) = top(NAMES, "obi-wan kenobi");
        assert_eq!(t, "Obi-Wan Kenobi");
        assert_eq!(h[0].score, 1.0, "{h:?}");
    }

    #[test]
    fn close_candidates_are_close() {
        // "anakin" alone: both versions tie
        let hits = m(NAMES).search("anakin skywalker");
        let a = NAMES[hits[0].key];
        let b = NAMES[hits[1].key];
        assert!(a.starts_with("Anakin") && b.starts_with("Anakin"));
        assert!((hits[0].score - hits[1].score).abs() <= AMBIGUITY_MARGIN);
    }

    #[test]
    fn nothing_for_nonsense() {
        assert!(m(NAMES).search("zzzz qqqq").is_empty());
        assert!(m(NAMES).search("   ").is_empty());
    }
}

/// `swjudge::cards::names`, through its public items.
mod names_unit {
    use std::path::Path;
    use swjudge::cards::Card;
    use swjudge::cards::names::*;
    use swjudge::game::Game;
    use swjudge::rulebook::Corpus;

    fn card(game: Game, id: &str, title: &str) -> Card {
        Card::new(game, id, title, format!("f.json#{id}"))
    }

    #[test]
    fn tiers_go_bytes_then_letters_then_version_then_nickname() {
        let mut cards = vec![
            card(Game::Swccg, "1", "Han Solo"),
            card(Game::Swccg, "2", "Han... Solo"),
            card(Game::Swtcg, "3", "Yoda (A)"),
            card(Game::Swccg, "4", "Obi-Wan's Hut"),
        ];
        cards[3].nicknames = vec!["OWH".into()];
        let labels: Vec<String> = cards.iter().map(|c| c.title.clone()).collect();
        let refs = references(&cards);
        let n = Names::new(&cards, &labels, &refs, &[]);
        let all = |_| true;
        assert_eq!(n.exact("Han Solo", all), Some((Tier::Bytes, vec![0])));
        assert_eq!(n.exact("Han... Solo", all), Some((Tier::Bytes, vec![1])));
        assert_eq!(n.exact("han solo", all), Some((Tier::Letters, vec![0, 1])));
        assert_eq!(n.exact("yoda", all), Some((Tier::Version, vec![2])));
        assert_eq!(n.exact("owh", all), Some((Tier::Nickname, vec![3])));
        assert_eq!(
            n.exact("han solo", |i| i == 1),
            Some((Tier::Letters, vec![1]))
        );
        assert_eq!(n.exact("nobody", all), None);
        assert_eq!(n.by_ref("SWCCG:2"), Some(1));
        assert_eq!(n.by_ref("swtcg:3"), Some(2));
    }

    #[test]
    fn references_are_unique() {
        let mut a = card(Game::Swccg, "1", "A");
        a.source = "Light.json#1".into();
        let mut b = card(Game::Swccg, "1", "B");
        b.source = "LightLegacy.json#1".into();
        let r = references(&[a, b, card(Game::Destiny, "1", "C")]);
        assert_eq!(r, ["swccg:1", "swccg:1@LightLegacy.json", "destiny:1"]);
    }

    #[test]
    fn personas_come_from_the_lists_with_their_other_names() {
        let mut c = Corpus::default();
        let md = "---\ngame: swccg\ndocument: ar\ndocument_title: AR\n---\n\
# Persona Lists {#swccg.ar.persona-lists}\n\nIntro.\n\n\
## Character Persona Examples {#swccg.ar.character-persona-examples}\n\n\
- Obi-Wan (also depicted as Ben Kenobi)\n- Vader (see Persona Lists entry)\n- Luke (may also be referred to as Son Of Skywalker or Young Skywalker)\n";
        c.add_file(Path::new("d.md"), md).unwrap();
        let p = personas_from(&c);
        let names: Vec<&str> = p.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["Obi-Wan", "Vader", "Luke"]);
        assert_eq!(p[0].names[1], ["ben", "kenobi"]);
        assert_eq!(
            p[2].names[1..],
            [vec!["son", "of", "skywalker"], vec!["young", "skywalker"]]
        );
        let cards = vec![
            card(Game::Swccg, "1", "Vader"),
            card(Game::Swccg, "2", "Darth Vader, Dark Lord Of The Sith"),
            card(Game::Swccg, "3", "Vader's Custom TIE"),
            card(Game::Destiny, "4", "Darth Vader"),
            card(Game::Swccg, "5", "Ben Kenobi"),
        ];
        let labels: Vec<String> = cards.iter().map(|c| c.title.clone()).collect();
        let mut n = Names::new(&cards, &labels, &references(&cards), &[]);
        n.set_personas(p, &cards);
        assert_eq!(n.persona_members("vader"), [0, 1, 3]);
        assert_eq!(n.persona_members("Obi-Wan"), [4]);
        assert!(n.persona_members("nobody").is_empty());
    }
}

/// `swjudge::cards::markup`, through its public items.
mod markup_unit {
    use swjudge::cards::markup::*;

    #[test]
    fn tags_and_icons_become_plain_words() {
        let t = "<b>Action</b> - Discard a card to turn a die to a side showing [blank]. <em>(Blue, Red)</em> Deal [ranged]&amp;[special].";
        assert_eq!(
            plain(t),
            "Action - Discard a card to turn a die to a side showing blank. (Blue, Red) Deal ranged damage&special."
        );
    }

    #[test]
    fn emphasis_goes_through_the_callers_function() {
        let t = "<b>Power Action</b> - <i>Limit once.</i.> a < b [unknown]";
        let r = render(t, |k, s| match k {
            Emphasis::Bold => format!("*{s}*"),
            Emphasis::Italic => format!("_{s}_"),
            Emphasis::Plain => s.to_string(),
        });
        assert_eq!(r, "*Power Action* - _Limit once._ a < b [unknown]");
    }

    #[test]
    fn list_items_start_lines() {
        assert_eq!(
            plain("Choose one:<ul><li>A</li><li>B</li></ul>"),
            "Choose one:\n• A\n• B"
        );
    }

    #[test]
    fn braces_are_bold_words() {
        assert_eq!(
            plain("{While} in battle, {Flip} this."),
            "While in battle, Flip this."
        );
        let shown = render("{While} here", |k, w| match k {
            Emphasis::Bold => format!("*{w}*"),
            _ => w.to_string(),
        });
        assert_eq!(shown, "*While* here");
    }
}

/// `swjudge::cards::die`, through its public items.
mod die_unit {
    use swjudge::cards::die::*;

    #[test]
    fn accepts_every_documented_form() {
        type Case = (&'static str, Symbol, bool, Option<Amount>, Option<u32>);
        let ok: &[Case] = &[
            ("-", Symbol::Blank, false, None, None),
            ("Sp", Symbol::Special, false, None, None),
            ("Sp1", Symbol::Special, false, None, Some(1)),
            (
                "1RD",
                Symbol::RangedDamage,
                false,
                Some(Amount::Value(1)),
                None,
            ),
            (
                "2MD",
                Symbol::MeleeDamage,
                false,
                Some(Amount::Value(2)),
                None,
            ),
            (
                "3ID1",
                Symbol::IndirectDamage,
                false,
                Some(Amount::Value(3)),
                Some(1),
            ),
            ("1Sh", Symbol::Shield, false, Some(Amount::Value(1)), None),
            ("1R", Symbol::Resource, false, Some(Amount::Value(1)), None),
            ("2Dr", Symbol::Disrupt, false, Some(Amount::Value(2)), None),
            ("1Dc", Symbol::Discard, false, Some(Amount::Value(1)), None),
            ("1F", Symbol::Focus, false, Some(Amount::Value(1)), None),
            (
                "+2RD",
                Symbol::RangedDamage,
                true,
                Some(Amount::Value(2)),
                None,
            ),
            (
                "+3MD1",
                Symbol::MeleeDamage,
                true,
                Some(Amount::Value(3)),
                Some(1),
            ),
            (
                "XRD1",
                Symbol::RangedDamage,
                false,
                Some(Amount::X),
                Some(1),
            ),
            (
                "0MD",
                Symbol::MeleeDamage,
                false,
                Some(Amount::Value(0)),
                None,
            ),
            ("+1*", Symbol::Any, true, Some(Amount::Value(1)), None),
            ("+2*1", Symbol::Any, true, Some(Amount::Value(2)), Some(1)),
            (
                "6RD3",
                Symbol::RangedDamage,
                false,
                Some(Amount::Value(6)),
                Some(3),
            ),
        ];
        for (s, sym, m, a, c) in ok {
            let f = DieFace::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(
                (f.symbol, f.modifier, f.amount, f.cost),
                (*sym, *m, *a, *c),
                "{s}"
            );
            assert_eq!(f.raw, *s);
        }
    }

    #[test]
    fn rejects_malformed_faces() {
        for s in [
            "",
            "RD",
            "2",
            "2XX",
            "2Q",
            "1*",
            "2Sp",
            "+Sp",
            "1RDx",
            "--",
            "- ",
            "+",
            "2rd",
            "1R-1",
            "99999999999RD",
        ] {
            assert!(DieFace::parse(s).is_err(), "{s:?} should be rejected");
        }
    }

    #[test]
    fn describes_faces() {
        assert_eq!(
            DieFace::parse("+2RD1").unwrap().describe(),
            "+2 ranged damage (costs 1 resource)"
        );
        assert_eq!(DieFace::parse("-").unwrap().describe(), "blank");
        assert_eq!(DieFace::parse("XSh").unwrap().describe(), "X shield");
        assert_eq!(DieFace::parse("+1*").unwrap().describe(), "+1 any symbol");
    }
}

/// `swjudge::cards::formats`, through its public items.
mod formats_unit {
    use serde_json::Value;
    use swjudge::cards::formats::*;

    #[test]
    fn formats_read_with_sets_named_and_pairs() {
        let v: Value = serde_json::from_str(
            r#"[{"code": "STD", "name": "Standard", "data": {"sets": ["AW", "XX"],
                 "banned": ["01001"], "restricted": ["01002"], "balance": {"01003": "10/14"},
                 "restrictedPairs": {"01004": ["01005"]}}},
                {"code": "BAD", "name": "Bad", "data": {}}]"#,
        )
        .unwrap();
        assert!(looks_like(&v));
        let (f, rej) = parse(&v, "formats.json", &Value::Null);
        assert_eq!(f.len(), 1);
        assert_eq!(rej[0].id, "format BAD");
        let std = &f[0];
        assert!(std.is_named("std") && std.is_named("STANDARD") && !std.is_named("tri"));
        assert!(std.has_set("Awakenings") && std.has_set("aw") && !std.has_set("Legacies"));
        assert_eq!(std.balance_of("01003"), Some("10/14"));
        assert_eq!(
            std.restricted_pairs,
            vec![("01004".to_string(), vec!["01005".to_string()])]
        );
        let set_file: Value = serde_json::from_str(r#"[{"code":"AW","name":"Waking"}]"#).unwrap();
        assert_eq!(parse(&v, "f", &set_file).0[0].sets[0].1, "Waking");
    }

    #[test]
    fn a_card_set_file_is_not_a_formats_file() {
        let v: Value =
            serde_json::from_str(r#"[{"code": "01001", "type_code": "character"}]"#).unwrap();
        assert!(!looks_like(&v));
    }
}

/// `swjudge::cards::from_rulebook`, through its public items.
mod from_rulebook_unit {
    use std::path::Path;
    use swjudge::cards::Card;
    use swjudge::cards::from_rulebook::*;
    use swjudge::game::Game;
    use swjudge::rulebook::Corpus;

    const AR: &str = "---\ngame: swccg\ndocument: ar\ndocument_title: AR\n---\n\n# Appendix A - Errata {#swccg.ar.errata .errata}\n\n## Admiral Motti {#swccg.ar.errata.admiral-motti .errata}\n\nDeploys -2 if at least two Imperial starships on table.\n\n## Dagobah (Light Side) {#swccg.ar.errata.dagobah-light-side .errata}\n\nErrata text for the Light Side Dagobah.\n\n# Appendix B - Card Rulings {#swccg.ar.rulings .ruling}\n\n## Admiral Motti {#swccg.ar.rulings.admiral-motti .ruling}\n\nMotti ruling.\n\n## Ghhhk {#swccg.ar.rulings.ghhhk .ruling}\n\n(Errata) See Ghhhk.\n\n# Chapter 2 {#swccg.ar.chapter-2}\n\nWhen Admiral Motti is on table, nothing special happens.\n";
    const RR: &str = "---\ngame: destiny\ndocument: rr\ndocument_title: RR\n---\n\n# Card Clarifications {#destiny.rr.clarifications .ruling}\n\n## Awakenings {#destiny.rr.clarifications.awakenings .ruling}\n\n### Qui-Gon Jinn (37) {#destiny.rr.clarifications.awakenings.qui-gon-jinn-37 .ruling}\n\nWhen Qui-Gon Jinn has max shields, you can remove one.\n";

    fn corpus() -> Corpus {
        let mut c = Corpus::default();
        c.add_file(Path::new("swccg/ar.md"), AR).unwrap();
        c.add_file(Path::new("destiny/rr.md"), RR).unwrap();
        c
    }

    #[test]
    fn finds_entries_with_kinds_sets_and_numbers() {
        let e = entries(&corpus());
        let names: Vec<(&str, EntryKind)> = e.iter().map(|e| (e.name.as_str(), e.kind)).collect();
        assert_eq!(
            names,
            [
                ("Admiral Motti", EntryKind::Errata),
                ("Dagobah (Light Side)", EntryKind::Errata),
                ("Admiral Motti", EntryKind::Ruling),
                ("Ghhhk", EntryKind::Ruling),
                ("Qui-Gon Jinn", EntryKind::Ruling)
            ]
        );
        let q = e.last().unwrap();
        assert_eq!(q.set.as_deref(), Some("Awakenings"));
        assert_eq!(q.number.as_deref(), Some("37"));
        assert_eq!(
            q.section,
            "destiny.rr.clarifications.awakenings.qui-gon-jinn-37"
        );
    }

    #[test]
    fn merges_into_matching_cards_and_makes_rulebook_only_cards() {
        let mut cards = vec![
            Card::new(Game::Swccg, "1", "Admiral Motti", "Dark.json#1".into()),
            {
                let mut c = Card::new(Game::Swccg, "2", "Dagobah", "Light.json#2".into());
                c.side = Some("Light".into());
                c
            },
            {
                let mut c = Card::new(Game::Swccg, "3", "Dagobah", "Dark.json#3".into());
                c.side = Some("Dark".into());
                c
            },
            {
                let mut c = Card::new(
                    Game::Destiny,
                    "01037",
                    "Qui-Gon Jinn",
                    "AW.json#01037".into(),
                );
                c.set = Some("Awakenings".into());
                c.number = Some("37".into());
                c
            },
            {
                let mut c = Card::new(
                    Game::Destiny,
                    "05037",
                    "Qui-Gon Jinn",
                    "LEG.json#05037".into(),
                );
                c.set = Some("Legacies".into());
                c.number = Some("37".into());
                c
            },
        ];
        let corpus = corpus();
        merge(&mut cards, &entries(&corpus));
        assert_eq!(cards[0].errata[0].source, "swccg.ar.errata.admiral-motti");
        assert_eq!(cards[0].rulings[0].text, "Motti ruling.");
        assert_eq!(cards[1].errata.len(), 1);
        assert!(
            cards[2].errata.is_empty(),
            "Dark Side Dagobah must not get Light Side errata"
        );
        assert_eq!(cards[3].rulings.len(), 1);
        assert!(cards[4].rulings.is_empty());
        let ghhhk = cards
            .iter()
            .find(|c| c.title == "Ghhhk")
            .expect("rulebook-only card");
        assert_eq!(ghhhk.rulings[0].source, "swccg.ar.rulings.ghhhk");
        // see also: chapter 2 mentions Motti; his own sections are excluded
        let sa = see_also(&corpus, &cards[0], 10);
        assert_eq!(
            sa.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
            ["swccg.ar.chapter-2"]
        );
    }

    #[test]
    fn qualifiers_sides_sets_halves_and_spelling() {
        let mk = |id: &str, title: &str, side: &str, set: &str| {
            let mut c = Card::new(Game::Swccg, id, title, format!("x.json#{id}"));
            c.side = Some(side.into());
            c.set = Some(set.into());
            c
        };
        let mut cards = vec![
            mk("1", "Alter", "Light", "Premiere"),
            mk("2", "Alter", "Dark", "Premiere"),
            mk("3", "Alter", "Dark", "Coruscant"),
            mk("4", "Endor: Bunker", "Light", "Endor"),
            mk("5", "Endor: Bunker", "Dark", "Endor"),
            mk("6", "Tusken Raider", "Dark", "Premiere"),
            mk("7", "Tusken Raider", "Dark", "Coruscant"),
            mk(
                "8",
                "Jabba's Prize / Jabba's Prize",
                "Dark",
                "Reflections 2",
            ),
            mk("9", "WED15-l7 'Septoid' Droid", "Dark", "A New Hope"),
            mk("10", "Evacuation Control", "Light", "Hoth"),
            mk("11", "R2-D2 (Artoo-Detoo) (V)", "Light", "Virtual Set 1"),
            mk(
                "12",
                "R2-D2 (Artoo-Detoo) (V) (AI)",
                "Light",
                "Virtual Set 1",
            ),
        ];
        let entry = |name: &str, id: &str| RuleEntry {
            game: Game::Swccg,
            kind: EntryKind::Ruling,
            name: name.into(),
            set: None,
            number: None,
            text: "t".into(),
            section: id.into(),
        };
        let entries = [
            entry("Alter (both sides – Premiere and Coruscant)", "s.alter"),
            entry("Endor: Bunker (Dark)", "s.bunker"),
            entry("Tusken Raider (Premiere)", "s.tusken"),
            entry("Jabba's Prize", "s.prize"),
            entry("WED15-I7 'Septoid' Droid", "s.septoid"),
            entry("Evacuation Control (V)", "s.evac"),
            entry("R2-D2 (V)", "s.r2"),
        ];
        merge(&mut cards, &entries);
        let with = |src: &str| -> Vec<&str> {
            cards
                .iter()
                .filter(|c| c.rulings.iter().any(|r| r.source == src))
                .map(|c| c.id.as_str())
                .collect()
        };
        assert_eq!(with("s.alter"), ["1", "2", "3"]);
        assert_eq!(with("s.bunker"), ["5"]);
        assert_eq!(with("s.tusken"), ["6"]);
        assert_eq!(with("s.prize"), ["8"]);
        assert_eq!(with("s.septoid"), ["9"]);
        assert_eq!(with("s.r2"), ["11"]);
        // a (V) ruling never lands on the plain card: it becomes a rulebook-only card
        assert_eq!(with("s.evac"), ["s.evac"]);
    }
}

/// `swjudge::cards::import`, through its public items.
mod import_unit {
    use std::path::Path;
    use swjudge::cards::import::*;

    #[test]
    fn targets_are_per_format_and_file() {
        let d = Path::new("/data");
        assert_eq!(
            target(d, Format::Swccg, Path::new("x/Light.json")),
            Path::new("/data/cards/swccg-light.json")
        );
        assert_eq!(
            target(d, Format::Destiny, Path::new("set/AW.json")),
            Path::new("/data/cards/destiny-aw.json")
        );
        assert_eq!(
            target(d, Format::Swtcg, Path::new("swtcg-set.txt")),
            Path::new("/data/cards/swtcg-set.json")
        );
        assert_eq!(
            target(d, Format::Swtcg, Path::new("My Set.txt")),
            Path::new("/data/cards/swtcg-my_set.json")
        );
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp_file() {
        let dir = std::env::temp_dir().join(format!("swjudge-atomic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let dest = dir.join("cards/a.json");
        swjudge::paths::write_atomic(&dest, b"one").unwrap();
        swjudge::paths::write_atomic(&dest, b"two").unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.join("cards"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [std::ffi::OsString::from("a.json")]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn json_errors_carry_line_and_column_once() {
        let dir = std::env::temp_dir().join(format!("swjudge-badjson-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("bad.json");
        std::fs::write(&p, "{\n  \"cards\": [\n    {\"id\": 1,, }\n  ]\n}\n").unwrap();
        let e = import_all(&[p], &dir.join("data"), false)
            .unwrap_err()
            .to_string();
        assert!(
            e.ends_with("bad.json:3:14: malformed JSON: key must be a string"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `swjudge::cards`, through its public items.
mod db_unit {
    use swjudge::cards::*;
    use swjudge::game::Game;

    /// The cards as one stored file, without a rulebook.
    fn db(cards: Vec<Card>) -> CardDb {
        let file = SourceFile {
            format: "t".into(),
            file: "t.json".into(),
            cards,
        };
        CardDb::build(vec![file], None)
    }

    fn card(game: Game, id: &str, title: &str, side: Option<&str>, set: Option<&str>) -> Card {
        let mut c = Card::new(game, id, title, format!("t.json#{id}"));
        c.side = side.map(str::to_string);
        c.set = set.map(str::to_string);
        c
    }

    #[test]
    fn labels_disambiguate_by_side_then_set() {
        let cards = vec![
            card(
                Game::Swccg,
                "1",
                "Alderaan",
                Some("Light"),
                Some("Premiere"),
            ),
            card(Game::Swccg, "2", "Alderaan", Some("Dark"), Some("Premiere")),
            card(
                Game::Swccg,
                "3",
                "A Tragedy Has Occurred",
                Some("Light"),
                Some("Set 12"),
            ),
            card(
                Game::Swccg,
                "4",
                "A Tragedy Has Occurred",
                Some("Light"),
                Some("Set 13"),
            ),
            card(Game::Swccg, "5", "Admiral Motti", Some("Dark"), None),
            card(Game::Destiny, "6", "Admiral Motti", None, None),
        ];
        let l = db(cards).labels;
        assert_eq!(l[0], "Alderaan (Light Side)");
        assert_eq!(l[1], "Alderaan (Dark Side)");
        assert_eq!(l[2], "A Tragedy Has Occurred [Set 12]");
        assert_eq!(l[3], "A Tragedy Has Occurred [Set 13]");
        assert_eq!(l[4], "Admiral Motti");
        assert_eq!(l[5], "Admiral Motti");
    }

    #[test]
    fn lookup_asks_when_close_and_picks_unique_exact() {
        let cards = vec![
            card(Game::Swccg, "1", "Alderaan", Some("Light"), None),
            card(Game::Swccg, "2", "Alderaan", Some("Dark"), None),
            card(Game::Swccg, "3", "Obi-Wan Kenobi", Some("Light"), None),
            card(Game::Destiny, "4", "Obi-Wan Kenobi", None, None),
            card(Game::Swccg, "5", "Luke Skywalker", Some("Light"), None),
        ];
        let db = CardDb::build(
            vec![SourceFile {
                format: "t".into(),
                file: "t.json".into(),
                cards,
            }],
            None,
        );
        let l = db.lookup("alderaan", None);
        assert!(l.chosen.is_none() && l.by_game.is_empty(), "ambiguous");
        assert_eq!(l.matches.len(), 2);
        let l = db.lookup("Alderaan (Dark Side)", None);
        assert_eq!(l.chosen, Some(1));
        let l = db.lookup("obi wan kenobi", None);
        assert_eq!(l.chosen, None);
        assert_eq!(
            l.by_game,
            vec![(Game::Swccg, vec![2]), (Game::Destiny, vec![3])],
            "one card per game, side by side"
        );
        assert!(swjudge::render::card::CardReport::new(&db, &l, 0).found());
        let l = db.lookup("obi wan kenobi", Some(Game::Destiny));
        assert_eq!(l.chosen, Some(3));
        let l = db.lookup("luke skywalkr", None);
        assert_eq!(l.chosen, Some(4));
        let l = db.lookup("nothing like it", None);
        assert!(l.chosen.is_none() && l.matches.is_empty());
    }

    #[test]
    fn virtual_nicknames_imply_the_plain_cards_nickname() {
        let mut plain = card(
            Game::Swccg,
            "1",
            "Hunt Down And Destroy The Jedi",
            Some("Dark"),
            None,
        );
        plain.nicknames = vec!["HDADTJ".into()];
        let mut v = card(
            Game::Swccg,
            "2",
            "Hunt Down And Destroy The Jedi (V)",
            Some("Dark"),
            None,
        );
        v.nicknames = vec!["Hunt Down V".into()];
        let db = CardDb::build(
            vec![SourceFile {
                format: "t".into(),
                file: "t".into(),
                cards: vec![plain, v],
            }],
            None,
        );
        assert_eq!(db.lookup("hunt down", None).chosen, Some(0));
        assert_eq!(db.lookup("hunt down v", None).chosen, Some(1));
        assert_eq!(db.lookup("hdadtj", None).chosen, Some(0));
    }

    #[test]
    fn source_errata_notes_say_where_the_errata_is_or_that_there_is_none() {
        let mut with = card(Game::Destiny, "1", "A", None, None);
        with.notes.push(SOURCE_ERRATA_NOTE.into());
        with.errata.push(Entry {
            text: "Should read: \"x\"".into(),
            source: "destiny.rr.errata.a-1".into(),
        });
        let mut without = card(Game::Destiny, "2", "B", None, None);
        without.notes.push(SOURCE_ERRATA_NOTE.into());
        let cards = db(vec![with, without]).cards;
        assert!(
            cards[0].notes[0].contains("in the Rules Reference, destiny.rr.errata.a-1"),
            "{:?}",
            cards[0].notes
        );
        assert!(cards[1].notes[0].contains("the Rules Reference has no errata for it"));
    }

    #[test]
    fn stats_keep_order_through_json() {
        let mut s = Stats::default();
        s.push("power", "3");
        s.push("ability", "2");
        s.push("deploy", "");
        let j = serde_json::to_string(&s).unwrap();
        assert_eq!(j, r#"{"power":"3","ability":"2"}"#);
        let back: Stats = serde_json::from_str(&j).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn current_text_prefers_rulebook_errata_over_printed() {
        let mut c = card(Game::Swccg, "1", "X", None, None);
        c.text = Some("printed".into());
        assert_eq!(c.current_text().unwrap().0, "printed");
        c.errata.push(Entry {
            text: "fixed".into(),
            source: "swccg.ar.errata.x".into(),
        });
        let (t, why) = c.current_text().unwrap();
        assert_eq!(t, "fixed");
        assert!(why.contains("swccg.ar.errata.x"));
        c.text_is_errata = true;
        assert_eq!(c.current_text().unwrap().0, "printed");
    }

    #[test]
    fn errata_text_takes_the_quoted_should_read() {
        assert_eq!(
            errata_text("Should read: \"Gain 1 resource.\""),
            "Gain 1 resource."
        );
        assert_eq!(
            errata_text("No longer has Ambush and should read: \"Choose a symbol.\""),
            "Choose a symbol."
        );
        assert_eq!(
            errata_text("Deploys -2 if at least two Imperial starships on table."),
            "Deploys -2 if at least two Imperial starships on table."
        );
    }
}
