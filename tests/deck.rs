//! `swjudge deck`: every case of `tests/data/decks/cases.tsv` (legal decks, and
//! decks that each break one rule, with the check, citation and message
//! expected), every check of the checker covered by an illegal deck, the text
//! and JSON reports agreeing, unreadable files, and the real databases when present.

use crate::util::{TempDir, code, stderr, stdout, swjudge};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn decks() -> PathBuf {
    crate::util::root().join("tests/data/decks")
}

/// Import the fixture cards and formats into `tmp`'s data dir.
fn import_fixtures(tmp: &Path) {
    let c = decks().join("cards");
    let o = swjudge(tmp)
        .args(["cards", "import"])
        .arg(c.join("swccg.json"))
        .arg(c.join("LEG.json"))
        .arg(c.join("AW.json"))
        .arg(c.join("formats.json"))
        .arg(c.join("swtcg.txt"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "import failed: {}{}", stdout(&o), stderr(&o));
}

/// One row of `cases.tsv`.
#[derive(Debug)]
struct Case {
    file: String,
    args: Vec<String>,
    exit: i32,
    check: Option<String>,
    cites: Option<String>,
    fragment: Option<String>,
    only: bool,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(decks().join("cases.tsv")).unwrap();
    let opt = |s: &str| (s != "-").then(|| s.to_string());
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 7, "cases.tsv: 7 columns expected: {l}");
            Case {
                file: f[0].into(),
                args: opt(f[1])
                    .map(|a| a.split(' ').map(str::to_string).collect())
                    .unwrap_or_default(),
                exit: f[2].parse().unwrap(),
                check: opt(f[3]),
                cites: opt(f[4]),
                fragment: opt(f[5]),
                only: f[6] == "yes",
            }
        })
        .collect()
}

fn deck_json(tmp: &Path, file: &str, args: &[String]) -> (i32, Value, String) {
    let o = swjudge(tmp)
        .args(["deck", "--json"])
        .arg(decks().join(file))
        .args(args)
        .output()
        .unwrap();
    let v = serde_json::from_str(&stdout(&o))
        .unwrap_or_else(|e| panic!("{file}: not JSON ({e}): {}\n{}", stdout(&o), stderr(&o)));
    (code(&o), v, stderr(&o))
}

#[test]
fn every_case_gives_its_verdict_problem_and_citation() {
    let tmp = TempDir::new("deck-cases");
    import_fixtures(tmp.path());
    let mut failures = Vec::new();
    for c in cases() {
        let (exit, v, err) = deck_json(tmp.path(), &c.file, &c.args);
        let problems = v["problems"].as_array().cloned().unwrap_or_default();
        let shown = format!(
            "{} {:?}: exit {exit}, problems {problems:#?} {err}",
            c.file, c.args
        );
        if exit != c.exit || v["legal"].as_bool() != Some(c.exit == 0) {
            failures.push(format!("{shown}\n  expected exit {}", c.exit));
            continue;
        }
        let Some(check) = &c.check else {
            if !problems.is_empty() {
                failures.push(format!("{shown}\n  expected no problems"));
            }
            continue;
        };
        let hit = problems.iter().find(|p| {
            p["check"] == check.as_str()
                && c.cites.as_deref().is_none_or(|x| p["cites"] == x)
                && c.fragment
                    .as_deref()
                    .is_none_or(|x| p["message"].as_str().is_some_and(|m| m.contains(x)))
        });
        if hit.is_none() {
            failures.push(format!(
                "{shown}\n  expected a {check} problem citing {:?} saying {:?}",
                c.cites, c.fragment
            ));
        }
        if c.only && problems.iter().any(|p| p["check"] != check.as_str()) {
            failures.push(format!("{shown}\n  expected only {check} problems"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_check_has_an_illegal_deck() {
    let covered: Vec<String> = cases().into_iter().filter_map(|c| c.check).collect();
    let missing: Vec<&str> = swjudge::deck::RULES
        .iter()
        .map(|(check, _)| *check)
        .filter(|c| !covered.iter().any(|x| x == c))
        .collect();
    assert!(
        missing.is_empty(),
        "checks without an illegal deck in cases.tsv: {missing:?}"
    );
}

#[test]
fn every_cited_section_exists_in_the_rulebook() {
    let corpus = swjudge::rulebook::Corpus::load(&crate::util::rulebook()).unwrap();
    for (check, cites) in swjudge::deck::RULES {
        if cites.contains('.') && !cites.contains(' ') && !cites.ends_with(".json") {
            assert!(
                corpus.get(cites).is_some(),
                "{check} cites {cites}, which is no section"
            );
        }
    }
}

#[test]
fn names_are_never_guessed_and_list_the_choices() {
    let tmp = TempDir::new("deck-names");
    import_fixtures(tmp.path());
    let (_, v, _) = deck_json(tmp.path(), "names-ambiguous.txt", &[]);
    let p = &v["problems"][0];
    let mut refs: Vec<&str> = p["choices"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["reference"].as_str())
        .collect();
    refs.sort();
    assert_eq!(refs, ["destiny:01003", "destiny:05002"], "{p:#}");
    assert_eq!(p["line"], 3);
    let (_, v, _) = deck_json(tmp.path(), "names-unresolved.txt", &[]);
    let p = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["check"] == "name.unresolved")
        .unwrap();
    assert!(
        p["choices"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["name"] == "Disarm"),
        "a close name is offered, not taken: {p:#}"
    );
}

#[test]
fn the_summary_counts_types_points_dice_and_formats() {
    let tmp = TempDir::new("deck-summary");
    import_fixtures(tmp.path());
    let (_, v, _) = deck_json(tmp.path(), "destiny-legal.txt", &[]);
    let s = &v["summary"];
    assert_eq!(s["deck_cards"], 30);
    assert_eq!(s["points"], 28);
    assert_eq!(s["point_limit"], 30);
    assert_eq!(s["dice"], 2);
    assert_eq!(s["side"], "Hero");
    let legal: Vec<&str> = s["legal_in"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(
        legal,
        ["STD (Standard)", "INF (Infinite)", "ARNS (ARH Standard)"]
    );
    // the balance of the Force raises Han Solo to 15 points in Standard only
    let (_, v, _) = deck_json(tmp.path(), "destiny-balance.txt", &[]);
    assert_eq!(
        v["summary"]["legal_in"],
        serde_json::json!(["INF (Infinite)", "ARNS (ARH Standard)"])
    );
    let (_, v, _) = deck_json(tmp.path(), "swccg-legal.txt", &[]);
    assert_eq!(v["game"], "swccg");
    assert_eq!(v["summary"]["deck_cards"], 60);
    assert_eq!(
        v["summary"]["outside_deck"], 2,
        "Do, Or Do Not: the Defensive Shield, not the Effect"
    );
    assert_eq!(v["summary"]["side"], "Light");
    assert!(
        v["cards"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["reference"] == "swccg:7"),
        "\"Hidden Base\" names the Objective by its front title: {v:#}"
    );
    let types = &v["summary"]["by_type"];
    assert!(
        types
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["kind"] == "Character" && t["count"] == 21),
        "{types:#}"
    );
    let (_, v, _) = deck_json(tmp.path(), "swtcg-legal.dek", &[]);
    assert_eq!(v["summary"]["sideboard"], 1);
}

#[test]
fn text_output_cites_each_problem_and_its_cards() {
    let tmp = TempDir::new("deck-text");
    import_fixtures(tmp.path());
    let o = swjudge(tmp.path())
        .arg("deck")
        .arg(decks().join("destiny-copies.txt"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 1);
    let t = stdout(&o);
    assert!(t.contains("ILLEGAL: 1 problem"), "{t}");
    assert!(
        t.contains("[destiny.rr.2-building-a-deck] 3 copies of Disarm"),
        "{t}"
    );
    assert!(t.contains("cards: Disarm (destiny:05030)"), "{t}");
    assert!(t.contains("Team: 28 of 30 points, 2 dice"), "{t}");
    let o = swjudge(tmp.path())
        .arg("deck")
        .arg(decks().join("destiny-card-text.txt"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0);
    assert!(
        stdout(&o).contains("Smuggling Run (destiny:05055): You can include villain cards"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn unreadable_decks_and_unknown_formats_are_one_error_line() {
    let tmp = TempDir::new("deck-bad");
    import_fixtures(tmp.path());
    let run = |args: &[&str]| swjudge(tmp.path()).arg("deck").args(args).output().unwrap();
    let bad = decks().join("bad.json");
    let missing = decks().join("no-such-deck.txt");
    let folder = decks().join("cards");
    for (o, want) in [
        (run(&[bad.to_str().unwrap()]), "bad.json:1:"),
        (run(&[missing.to_str().unwrap()]), "no-such-deck.txt"),
        (run(&[folder.to_str().unwrap()]), "is a folder"),
        (
            run(&[
                decks().join("destiny-legal.txt").to_str().unwrap(),
                "--format",
                "nope",
            ]),
            "unknown format \"nope\"; the imported formats are STD (Standard)",
        ),
        (
            run(&[
                decks().join("swtcg-legal.txt").to_str().unwrap(),
                "--game",
                "swtcg",
                "--format",
                "std",
            ]),
            "--format names a Star Wars: Destiny format",
        ),
    ] {
        assert_eq!(code(&o), 2, "{}", stderr(&o));
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains(want), "{e}");
        assert!(stdout(&o).is_empty());
    }
    let empty = TempDir::new("deck-empty");
    let o = swjudge(empty.path())
        .arg("deck")
        .arg(decks().join("swccg-legal.txt"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("no card data"), "{}", stderr(&o));
}

/// The real databases (`../shared/data`, or `SWJUDGE_REAL_DATA`), if present;
/// under CI their absence fails.
fn real_data() -> Option<PathBuf> {
    let found = std::env::var_os("SWJUDGE_REAL_DATA")
        .map(PathBuf::from)
        .into_iter()
        .chain(
            crate::util::root()
                .ancestors()
                .skip(1)
                .map(|a| a.join("shared/data")),
        )
        .find(|p| p.join("swdestinydb-json-data/formats.json").is_file());
    if found.is_none() {
        assert!(
            !crate::util::under_ci(),
            "CI: the real card databases are missing"
        );
        eprintln!("real card databases unavailable; skipped");
    }
    found
}

#[test]
fn the_real_formats_file_imports_and_names_its_formats() {
    let Some(data) = real_data() else {
        return;
    };
    let tmp = TempDir::new("deck-real");
    let d = data.join("swdestinydb-json-data");
    let o = swjudge(tmp.path())
        .args(["cards", "import"])
        .arg(d.join("formats.json"))
        .arg(d.join("set/LEG.json"))
        .arg(d.join("set/AW.json"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let deck = tmp.path().join("real.txt");
    std::fs::write(
        &deck,
        "2x Leia Organa, Born Leader\nEcho Base\n\n2x destiny:01138\n",
    )
    .unwrap();
    let o = swjudge(tmp.path())
        .args(["deck", "--json", "--format", "trilogy"])
        .arg(&deck)
        .output()
        .unwrap();
    let v: Value =
        serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)));
    assert_eq!(v["format"], "TRI (Trilogy)");
    assert_eq!(
        code(&o),
        1,
        "28 cards short of a deck, and outside Trilogy's sets"
    );
    assert_eq!(
        v["summary"]["points"], 16,
        "elite Leia Organa, Born Leader: {v:#}"
    );
    let checks: Vec<&str> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["check"].as_str())
        .collect();
    assert!(
        checks.contains(&"destiny.deck-size") && checks.contains(&"format.sets"),
        "{v:#}"
    );
}

/// The name index `cards import` writes: a check through it reads only the
/// records the deck's names can find, and gives the answer a check over every
/// card gives; an index left stale by a changed stored file, or damaged, is
/// never used (it is built again).
#[test]
fn the_name_index_answers_as_every_card_does_and_is_never_used_stale() {
    use swjudge::deck::{self, Options};
    use swjudge::game::Game;
    let tmp = TempDir::new("deck-index");
    import_fixtures(tmp.path());
    let data = tmp.path().join("data");
    let idx = data.join("names/cards.idx");
    assert!(idx.is_file(), "the import writes the index");
    let formats = swjudge::cards::formats::load(&data).unwrap();
    let json = |r: deck::Report| serde_json::to_value(r).unwrap();
    let mut compared = 0;
    for c in cases() {
        let Ok(list) = deck::read::read(&decks().join(&c.file)) else {
            continue;
        };
        let arg = |k: &str| {
            let i = c.args.iter().position(|a| a == k)?;
            c.args.get(i + 1).cloned()
        };
        let opts = Options {
            game: arg("--game").and_then(|g| Game::parse(&g)),
            format: arg("--format"),
        };
        let game = opts
            .game
            .or(list.game)
            .or(opts.format.as_ref().map(|_| Game::Destiny));
        let some = deck::cards_for(&data, &list, game).unwrap();
        let all = deck::every_card(&data, game).unwrap();
        assert!(!some.whole && all.whole, "{}", c.file);
        assert!(
            some.db.len() < all.db.len(),
            "{}: only what the names find",
            c.file
        );
        assert_eq!(some.stored, all.stored, "{}", c.file);
        let a = deck::check("f", &list, &some.db, &formats, &opts);
        let b = deck::check("f", &list, &all.db, &formats, &opts);
        match (a, b) {
            (Ok(a), Ok(b)) if deck::needs_every_card(&a) => {
                assert!(deck::needs_every_card(&b), "{}", c.file)
            }
            (Ok(a), Ok(b)) => {
                assert_eq!(json(a), json(b), "{}", c.file);
                compared += 1;
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{}", c.file),
            (a, b) => panic!("{}: {:?} against {:?}", c.file, a.is_ok(), b.is_ok()),
        }
    }
    assert!(compared >= 20, "{compared} decks compared");
    let run = || {
        let o = swjudge(tmp.path())
            .args(["deck", "--json"])
            .arg(decks().join("swccg-legal.txt"))
            .output()
            .unwrap();
        (code(&o), stdout(&o))
    };
    let before = run();
    assert_eq!(before.0, 0, "{}", before.1);
    // a stored card renamed in place, the file's size unchanged: the index
    // built before is stale, and the deck's name no longer finds the card
    let stored = std::fs::read_dir(data.join("cards"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("swccg-")
        })
        .unwrap();
    let text = std::fs::read_to_string(&stored).unwrap();
    assert!(text.contains("\"Rebel Trooper\""));
    std::fs::write(
        &stored,
        text.replace("\"Rebel Trooper\"", "\"Rebel Troopex\""),
    )
    .unwrap();
    let (exit, out) = run();
    assert_eq!(exit, 1, "{out}");
    assert!(
        out.contains("\"check\": \"name.") && !before.1.contains("\"check\": \"name."),
        "the name finds no SWCCG card now: {out}"
    );
    std::fs::write(&stored, text).unwrap();
    assert_eq!(run(), before, "the data as it was, the answer as it was");
    // a damaged index is built again, never read
    std::fs::write(&idx, b"swjudge-names 1\nnot an index\n").unwrap();
    assert_eq!(run(), before);
    assert!(std::fs::read(&idx).unwrap().len() > 100, "rebuilt");
}

/// `swjudge::deck::read`, through its public items.
mod read_unit {
    use swjudge::deck::Zone;
    use swjudge::deck::read::*;
    use swjudge::game::Game;

    #[test]
    fn plain_lists_read_counts_before_and_after_names_and_skip_headers() {
        let d = parse(
            "# my deck\nCharacters (2)\n2x Luke Skywalker\nHan Solo x2\n- 4 x Rebel Trooper\n\
             Locations:\n3\tTatooine\nJabba's Palace\nSideboard\n1 Spare\n",
            "d.txt",
        )
        .unwrap();
        let got: Vec<(&str, u32, Option<Zone>)> = d
            .lines
            .iter()
            .map(|l| (l.name.as_str(), l.count, l.zone))
            .collect();
        assert_eq!(
            got,
            [
                ("Luke Skywalker", 2, Some(Zone::Team)),
                ("Han Solo", 2, Some(Zone::Team)),
                ("Rebel Trooper", 4, Some(Zone::Team)),
                ("Tatooine", 3, None),
                ("Jabba's Palace", 1, None),
                ("Spare", 1, Some(Zone::Sideboard)),
            ]
        );
    }

    #[test]
    fn destiny_export_lines_keep_set_and_position() {
        let d = parse(
            "My Deck\n\nHero\nRed / Yellow\n\nSets: Awakenings\n\nBATTLEFIELD\n¯¯¯¯¯¯¯¯¯¯¯\n\
             Rebel War Room (Awakenings #171)\n\nCHARACTER\n¯¯¯¯¯¯¯¯¯\n\
             2x Leia Organa, Rebel Leader (Awakenings #28)\n",
            "d.txt",
        )
        .unwrap();
        assert_eq!(d.name.as_deref(), Some("My Deck"));
        assert_eq!(d.lines.len(), 2);
        assert_eq!(d.lines[1].name, "Leia Organa, Rebel Leader");
        assert_eq!(d.lines[1].count, 2);
        assert_eq!(d.lines[1].set.as_deref(), Some("Awakenings"));
        assert_eq!(d.lines[1].number.as_deref(), Some("28"));
    }

    #[test]
    fn gemp_and_lackey_decks_count_repeated_cards() {
        let g = parse(
            "<?xml version=\"1.0\"?>\n<deck>\n<card blueprintId=\"1_1\" title=\"&#8226;Luke\"/>\n\
             <card blueprintId=\"1_1\" title=\"&#8226;Luke\"/>\n<cardOutsideDeck blueprintId=\"9_9\" title=\"Shield\"/>\n</deck>",
            "g.txt",
        )
        .unwrap();
        assert_eq!(g.game, Some(Game::Swccg));
        assert_eq!(g.lines.len(), 2);
        assert_eq!((g.lines[0].name.as_str(), g.lines[0].count), ("•Luke", 2));
        assert_eq!(g.lines[1].zone, Some(Zone::OutsideDeck));
        let l = parse(
            "<deck version=\"0.8\"><meta><game>starwars</game></meta><superzone name=\"Deck\">\n\
             <card><name id=\"A\">Yoda (A)</name><set>ANH</set></card>\n\
             <card><name id=\"A\">Yoda (A)</name><set>ANH</set></card>\n</superzone></deck>",
            "l.dek",
        )
        .unwrap();
        assert_eq!(l.game, Some(Game::Swtcg));
        assert_eq!(
            (l.lines[0].name.as_str(), l.lines[0].count),
            ("Yoda (A)", 2)
        );
    }

    #[test]
    fn destiny_json_gives_references_and_dice() {
        let d = parse(
            r#"{"name": "X", "format_code": "STD", "slots": {"01001": {"quantity": 1, "dice": 2}}}"#,
            "d.json",
        )
        .unwrap();
        assert_eq!(d.format.as_deref(), Some("STD"));
        assert_eq!(d.lines[0].reference.as_deref(), Some("destiny:01001"));
        assert_eq!(d.lines[0].dice, Some(2));
    }

    #[test]
    fn unreadable_input_names_file_and_line() {
        let e = parse("2x A\n0x B\n", "d.txt").unwrap_err().to_string();
        assert!(e.starts_with("d.txt:2: count 0"), "{e}");
        let e = parse("{\"slots\": 3", "d.json").unwrap_err().to_string();
        assert!(e.starts_with("d.json:1:"), "{e}");
        let e = parse("\n\n", "e.txt").unwrap_err().to_string();
        assert!(e.contains("no cards"), "{e}");
    }
}
