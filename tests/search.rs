//! Integration tests: the search index, `search`, `rule`, `index`, `lint`, and
//! the search-quality evaluation.

use crate::util::{TempDir, code, copy_dir, root, rulebook, stderr, stdout, swjudge};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use swjudge::index::{Index, Query};
use swjudge::paths::Paths;
use swjudge::rulebook::{Corpus, Game, lint};

fn fixture() -> PathBuf {
    root().join("tests/fixtures/rulebook")
}

/// `swjudge` over the fixture rulebook with a private index.
fn fx(tmp: &TempDir) -> Command {
    let mut c = swjudge(tmp.path());
    c.arg("--rulebook").arg(fixture());
    c
}

fn json(o: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

// ---------------------------------------------------------------- search CLI

#[test]
fn search_exit_codes() {
    let tmp = TempDir::new("search-codes");
    let found = fx(&tmp)
        .args(["search", "force", "drain"])
        .output()
        .unwrap();
    assert_eq!(code(&found), 0, "{}", stderr(&found));
    assert!(
        stdout(&found).contains("swccg.ar.force-drains"),
        "{}",
        stdout(&found)
    );

    let none = fx(&tmp).args(["search", "zzyzx", "qwxv"]).output().unwrap();
    assert_eq!(code(&none), 1);
    assert!(stdout(&none).is_empty());
    assert!(
        stderr(&none).starts_with("nothing found for \"zzyzx qwxv\""),
        "{}",
        stderr(&none)
    );

    for bad in [
        vec!["search", ""],
        vec!["search", "?!."],
        vec!["search", "--limit", "0", "x"],
        vec!["search", "--limit", "1001", "x"],
    ] {
        let o = fx(&tmp).args(&bad).output().unwrap();
        assert_eq!(code(&o), 2, "{bad:?}: {}", stderr(&o));
        assert_eq!(
            stderr(&o).lines().count(),
            1,
            "{bad:?}: one clear line: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"));
    }
    let long = "word ".repeat(120);
    let o = fx(&tmp).args(["search", &long]).output().unwrap();
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("500"), "{}", stderr(&o));
}

#[test]
fn search_treats_query_syntax_as_words() {
    let tmp = TempDir::new("search-syntax");
    for (q, want) in [
        ("force: \"drain\" (", 0),
        ("stack:the AND", 0),
        ("+shields -", 0),
        ("[battle] {destiny} ~2 ^3 *", 0),
        // "title" is no word of the fixture: one known word beside one the
        // index lacks answers nothing, and is never a query error.
        ("title:stack AND", 1),
    ] {
        let o = fx(&tmp).args(["search", q]).output().unwrap();
        assert_eq!(code(&o), want, "{q}: {}", stderr(&o));
    }
}

#[test]
fn search_json_shape() {
    let tmp = TempDir::new("search-json");
    let o = fx(&tmp)
        .args(["--json", "search", "battle", "destiny"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    let arr = v.as_array().expect("array");
    assert!(!arr.is_empty());
    for h in arr {
        for key in [
            "id",
            "title",
            "breadcrumb",
            "game",
            "document",
            "kind",
            "superseded",
            "score",
            "snippet",
        ] {
            assert!(h.get(key).is_some(), "missing {key} in {h}");
        }
        assert!(h["breadcrumb"].is_array());
        assert!(h["superseded"].is_boolean());
        assert!(h["score"].is_number());
        let snippet = h["snippet"].as_str().unwrap();
        assert!(
            !snippet.contains("**") && !snippet.contains('\x1b'),
            "{snippet}"
        );
    }
    // Current text ranks above the superseded entry of the same name.
    let ids: Vec<&str> = arr.iter().map(|h| h["id"].as_str().unwrap()).collect();
    let cur = ids
        .iter()
        .position(|&i| i == "swccg.ar.battle-destiny")
        .expect("current section found");
    let old = ids
        .iter()
        .position(|&i| i == "swccg.ru.battle-destiny")
        .expect("superseded section found");
    assert!(cur < old, "{ids:?}");
    assert_eq!(arr[old]["superseded"], true);
}

#[test]
fn search_text_labels_superseded_and_has_no_escapes_when_piped() {
    let tmp = TempDir::new("search-text");
    let o = fx(&tmp)
        .args(["search", "battle", "destiny"])
        .output()
        .unwrap();
    let out = stdout(&o);
    assert!(
        out.contains("swccg.ru.battle-destiny (superseded)"),
        "{out}"
    );
    assert!(
        !out.contains('\x1b'),
        "no ANSI escapes when stdout is not a terminal"
    );
    assert!(
        out.contains("Star Wars CCG Advanced Rulebook 3.27 › Chapter 4 - Battles › Battle Destiny"),
        "{out}"
    );
}

#[test]
fn search_filters_by_game_and_kind() {
    let tmp = TempDir::new("search-filter");
    let o = fx(&tmp)
        .args(["--json", "search", "--game", "destiny", "dice"])
        .output()
        .unwrap();
    let v = json(&o);
    assert!(
        v.as_array().unwrap().iter().all(|h| h["game"] == "destiny"),
        "{v}"
    );
    let o = fx(&tmp)
        .args(["--json", "search", "--kind", "example", "battle", "destiny"])
        .output()
        .unwrap();
    let v = json(&o);
    let arr = v.as_array().unwrap();
    assert!(
        !arr.is_empty() && arr.iter().all(|h| h["kind"] == "example"),
        "{v}"
    );
    let o = fx(&tmp)
        .args(["search", "--game", "chess", "dice"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
}

/// A title that holds every query word beats bodies that repeat some of them.
#[test]
fn whole_title_match_ranks_first() {
    let tmp = TempDir::new("search-title");
    for q in ["Obi-Wan's cape", "obi wan\u{2019}s cape", "OBI-WAN CAPE"] {
        let o = fx(&tmp).args(["--json", "search", q]).output().unwrap();
        assert_eq!(code(&o), 0, "{q}: {}", stderr(&o));
        assert_eq!(json(&o)[0]["id"], "swccg.ar.obi-wans-cape", "{q}");
    }
}

/// The committed rulebook's first hit for `q` within `game`, and its position
/// of each of `ids`.
/// The first `limit` hits for `q` within `game`.
fn ask(index: &Index, q: &str, game: Game, limit: usize) -> Vec<swjudge::index::Hit> {
    let query = Query {
        text: q.into(),
        game: Some(game),
        kind: None,
        limit,
    };
    index.search(&query).unwrap()
}

fn first_and_places(index: &Index, q: &str, game: Game, ids: &[&str]) -> (String, Vec<usize>) {
    let hits: Vec<String> = ask(index, q, game, 20).into_iter().map(|h| h.id).collect();
    let place = |id: &&str| hits.iter().position(|h| h == id).unwrap_or(usize::MAX);
    (hits[0].clone(), ids.iter().map(place).collect())
}

/// The rule that answers ranks over a general section whose whole title the
/// question happens to hold (Resource Cards); a question about a heading
/// itself keeps it over the sections inside it (Force Drain Modifier…).
#[test]
fn the_answering_rule_ranks_first() {
    let index = Index::in_memory(Corpus::load(&rulebook()).unwrap()).unwrap();
    let (first, places) = first_and_places(
        &index,
        "can I search my deck for a resource card before the game",
        Game::Swtcg,
        &["swtcg.rb.resource-cards"],
    );
    assert_eq!(first, "swtcg.rb.pull-resource", "{places:?}");
    let (first, _) = first_and_places(&index, "how does a force drain work", Game::Swccg, &[]);
    assert_eq!(first, "swccg.ar.force-drain");
}

#[test]
fn search_tolerates_typos() {
    let tmp = TempDir::new("search-typo");
    let o = fx(&tmp)
        .args(["--json", "search", "sheilds"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(json(&o)[0]["id"], "destiny.rr.shields");
}

/// A misspelt word is read as the close word the rulebook writes beside the
/// question's next word ("buld points": "build points"): the question is
/// then covered in full. A close word no neighbour confirms stays a guess.
#[test]
fn a_typo_is_read_by_the_word_beside_it() {
    let index = Index::in_memory(Corpus::load(&rulebook()).unwrap()).unwrap();
    let hits = ask(
        &index,
        "how many buld points do I get each turn",
        Game::Swtcg,
        5,
    );
    assert_eq!(hits[0].coverage, 1.0, "{:?}", hits[0]);
    assert!(
        hits[0].snippet.contains("build points"),
        "{}",
        hits[0].snippet
    );
    assert!(ask(&index, "when is the next full moon", Game::Swtcg, 5).is_empty());
}

/// Words of casual speech weigh little: "go right through" does not keep
/// the section that answers from covering the question.
#[test]
fn casual_words_weigh_little() {
    let index = Index::in_memory(Corpus::load(&rulebook()).unwrap()).unwrap();
    let (first, _) = first_and_places(
        &index,
        "does unblockable damage really go right through shields",
        Game::Destiny,
        &[],
    );
    assert_eq!(first, "destiny.rr.unblockable-damage");
}

/// The search says which misspelt word it read as which: a judge sees what
/// was searched. A guess no neighbouring word confirms is not announced.
#[test]
fn search_says_what_a_typo_was_read_as() {
    let tmp = TempDir::new("search-read-as");
    let o = fx(&tmp)
        .args(["search", "how many batle destiny do I draw"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stderr(&o), "swjudge: read \"batle\" as \"battle\"\n");
    let o = fx(&tmp).args(["search", "sheilds"]).output().unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}

/// A section that only points elsewhere ("See 1.C. Implied Target Rule")
/// names the sections it points to, so the judge can open them.
#[test]
fn a_pointer_section_names_where_it_points() {
    let index = Index::in_memory(Corpus::load(&rulebook()).unwrap()).unwrap();
    let hits = ask(&index, "empty hand", Game::Swccg, 10);
    let pointer = hits.iter().find(|h| h.id == "swccg.ar.empty-hand").unwrap();
    assert_eq!(pointer.see, ["swccg.ar.implied-target-rule"]);
    assert!(
        hits.iter()
            .filter(|h| h.id != pointer.id)
            .all(|h| h.see.is_empty())
    );
}

#[test]
fn broken_pipe_ends_quietly() {
    let tmp = TempDir::new("search-pipe");
    let mut child = fx(&tmp)
        .args(["search", "--limit", "1000", "the"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "nothing on stderr");
    assert_eq!(code(&o), 0);
}

// ---------------------------------------------------------------- index cache

#[test]
fn stale_index_is_rebuilt_when_the_rulebook_changes() {
    let tmp = TempDir::new("search-stale");
    let book = tmp.path().join("rulebook");
    copy_dir(&fixture(), &book);
    let run = |q: &str| {
        swjudge(tmp.path())
            .arg("--rulebook")
            .arg(&book)
            .args(["--json", "search", q])
            .output()
            .unwrap()
    };
    assert_eq!(code(&run("wookiee")), 1);
    let file = book.join("swtcg/rb.md");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("\n## Wookiee Rage {#swtcg.rb.wookiee-rage}\n\nA Wookiee gets angry.\n");
    std::fs::write(&file, text).unwrap();
    let o = run("wookiee");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(json(&o)[0]["id"], "swtcg.rb.wookiee-rage");
    assert_eq!(stderr(&o), "", "rebuild is silent");

    // Same size, different content (a renamed word): still noticed.
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("Wookiee gets angry", "Wookiee gets hungry");
    std::fs::write(&file, text).unwrap();
    let o = run("hungry");
    assert_eq!(code(&o), 0, "{}", stderr(&o));

    // A touched file with unchanged content keeps working (fingerprint matches).
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text).unwrap();
    assert_eq!(code(&run("hungry")), 0);
}

#[test]
fn corrupt_index_is_rebuilt_silently() {
    let tmp = TempDir::new("search-corrupt");
    let ok = fx(&tmp).args(["search", "shields"]).output().unwrap();
    assert_eq!(code(&ok), 0);
    let dir = generation(&tmp.path().join("index"));
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        std::fs::write(&p, b"\x00garbage\xff not an index").unwrap();
        n += 1;
    }
    assert!(n > 3, "the index has files to corrupt");
    let o = fx(&tmp).args(["search", "shields"]).output().unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    assert!(stdout(&o).contains("destiny.rr.shields"));

    // An index folder replaced by a plain file.
    let dir = generation(&tmp.path().join("index"));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::write(&dir, "junk").unwrap();
    let o = fx(&tmp).args(["search", "shields"]).output().unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}

/// The folder of the index generation in use under `index_dir`.
fn generation(index_dir: &Path) -> PathBuf {
    let name = std::fs::read_to_string(index_dir.join("CURRENT")).unwrap();
    index_dir.join(name.trim())
}

/// A small deterministic byte generator (xorshift), for damage that is not a pattern.
fn noise(len: usize, mut seed: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}

/// 200 KB of random bytes written inside the document store: the damage is
/// found when the index is opened, the index rebuilt, and the search answers.
#[test]
fn random_bytes_in_the_store_are_repaired() {
    let tmp = TempDir::new("search-store-noise");
    let ok = fx(&tmp).args(["search", "shields"]).output().unwrap();
    assert_eq!(code(&ok), 0);
    let dir = generation(&tmp.path().join("index"));
    let mut damaged = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "store" || x == "idx") {
            let mut bytes = std::fs::read(&p).unwrap();
            let at = bytes.len() / 3;
            let junk = noise(200 * 1024, 0x9e37_79b9 + damaged);
            bytes.splice(at..bytes.len().min(at + junk.len()), junk);
            std::fs::write(&p, bytes).unwrap();
            damaged += 1;
        }
    }
    assert!(damaged >= 2, "a .store and an .idx file were damaged");
    let o = fx(&tmp)
        .args(["--json", "search", "shields"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stderr(&o).lines().count() <= 1, "{}", stderr(&o));
    assert_eq!(json(&o)[0]["id"], "destiny.rr.shields");
}

/// The same number of bytes changed and the modification time put back: the
/// content fingerprint still sees the change.
#[test]
fn same_size_edit_with_mtime_restored_is_noticed() {
    let tmp = TempDir::new("search-same-size");
    let book = tmp.path().join("rulebook");
    copy_dir(&fixture(), &book);
    let run = |q: &str| {
        swjudge(tmp.path())
            .arg("--rulebook")
            .arg(&book)
            .args(["--json", "search", q])
            .output()
            .unwrap()
    };
    assert_eq!(code(&run("shields")), 0);
    let file = book.join("destiny/rr.md");
    let before = std::fs::metadata(&file).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("shields"));
    let edited = text.replacen("three shields", "three glowbug", 1);
    assert_eq!(edited.len(), text.len());
    std::fs::write(&file, &edited).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(before.modified().unwrap())
        .unwrap();
    let after = std::fs::metadata(&file).unwrap();
    assert_eq!(after.len(), before.len());
    assert_eq!(after.modified().unwrap(), before.modified().unwrap());
    let o = run("glowbug");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

fn import_fixture_cards(data: &Path, names: &[&str]) {
    let files: Vec<PathBuf> = names
        .iter()
        .map(|n| root().join("tests/fixtures/cards").join(n))
        .collect();
    swjudge::cards::import::import(&files, data, false).unwrap();
}

/// Imported card text, database rulings and errata are searched beside the
/// rulebook; each hit says where it comes from; `--kind` picks them out.
#[test]
fn imported_cards_and_rulings_are_searched() {
    let tmp = TempDir::new("search-cards");
    import_fixture_cards(
        &tmp.path().join("data"),
        &[
            "swccg-rulings.json",
            "swccg-light.json",
            "swtcg-rulings.txt",
        ],
    );
    let search = |args: &[&str]| {
        let o = fx(&tmp)
            .arg("--json")
            .arg("search")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        json(&o)
    };
    let v = search(&[
        "--kind",
        "ruling",
        "cancel battle damage when nothing can be forfeited",
    ]);
    let first = &v[0];
    assert_eq!(first["id"], "swccg-rulings.json#9002/ruling/1", "{v}");
    assert_eq!(first["kind"], "ruling");
    assert_eq!(first["source"]["from"], "database");
    assert_eq!(first["source"]["file"], "swccg-rulings.json");
    assert_eq!(first["source"]["card"], "9002");
    assert_eq!(first["source"]["position"], 1);
    assert!(v.as_array().unwrap().iter().all(|h| h["kind"] == "ruling"));

    // The rulebook's erratum and the database's card, both found, told apart.
    let v = search(&["Obi-Wan's Cape"]);
    let from = |id: &str| {
        v.as_array()
            .unwrap()
            .iter()
            .find(|h| h["id"] == id)
            .unwrap_or_else(|| panic!("{id} not in {v}"))["source"]["from"]
            .clone()
    };
    assert_eq!(from("swccg.ar.obi-wans-cape"), "rulebook");
    assert_eq!(from("swccg-light.json#108"), "database");

    let v = search(&["--kind", "card", "--game", "swtcg", "prevent damage"]);
    assert_eq!(v[0]["id"], "swtcg-rulings.txt#FIX-1", "{v}");
    assert!(v.as_array().unwrap().iter().all(|h| h["kind"] == "card"));
    let o = fx(&tmp)
        .args(["search", "--kind", "ruling", "Han may fire once per battle"])
        .output()
        .unwrap();
    assert!(
        stdout(&o).contains("(ruling from the card database swccg-light.json, card 105)"),
        "{}",
        stdout(&o)
    );

    // Newly imported data is searched at once: the index follows the data.
    let o = fx(&tmp)
        .args(["search", "Captain Phasma"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    import_fixture_cards(&tmp.path().join("data"), &["destiny-set.json"]);
    let v = search(&["Captain Phasma"]);
    assert_eq!(v[0]["kind"], "card", "{v}");
    assert_eq!(v[0]["game"], "destiny");
}

#[test]
fn open_or_build_reuses_a_current_index() {
    let tmp = TempDir::new("search-reuse");
    let paths = Paths {
        rulebook: fixture(),
        index: tmp.path().join("index"),
        data_dir: tmp.path().join("data"),
    };
    let first = Index::open_or_build(&paths).unwrap();
    assert!(first.was_built());
    drop(first);
    let second = Index::open_or_build(&paths).unwrap();
    assert!(
        !second.was_built(),
        "a current index is opened, not rebuilt"
    );
    assert_eq!(second.len(), second.corpus().unwrap().sections.len());
    let rebuilt = Index::rebuild(&paths).unwrap();
    assert!(rebuilt.was_built());
    let left: Vec<String> = std::fs::read_dir(tmp.path().join("index"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    // Generations only (a superseded one lingers a few seconds for the
    // searches still opening it) and the stamp, no build folders.
    assert!(
        left.iter()
            .all(|n| n == "CURRENT" || n == "swjudge.stamp" || n.starts_with("gen-")),
        "no temporary folders left behind: {left:?}"
    );
    assert!(generation(&tmp.path().join("index")).is_dir());
}

#[test]
fn index_command_reports_sections_and_time() {
    let tmp = TempDir::new("index-cmd");
    let o = fx(&tmp).args(["index"]).output().unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let n = Corpus::load(&fixture()).unwrap().sections.len();
    assert!(
        stdout(&o).starts_with(&format!("indexed {n} sections in ")),
        "{}",
        stdout(&o)
    );
    let o = fx(&tmp).args(["--json", "index"]).output().unwrap();
    let v = json(&o);
    assert_eq!(v["sections"], n);
    assert!(v["milliseconds"].as_f64().unwrap() > 0.0);
}

// ---------------------------------------------------------------- rule

#[test]
fn rule_shows_section_examples_children_and_references() {
    let tmp = TempDir::new("rule");
    let o = fx(&tmp)
        .args(["--json", "rule", "swccg.ar.the-stack"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    for key in [
        "id",
        "title",
        "breadcrumb",
        "game",
        "document",
        "kind",
        "superseded",
        "text",
        "examples",
        "children",
        "cross_references",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["title"], "The Stack");
    assert!(
        v["text"]
            .as_str()
            .unwrap()
            .contains("**You can only ever respond to the current action**")
    );
    assert_eq!(
        v["examples"][0]["id"],
        "swccg.ar.actions-example-1-deploying-a-card"
    );
    assert!(
        v["examples"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Blizzard 4")
    );

    let o = fx(&tmp)
        .args(["--json", "rule", "swccg.ar.empty-deck-or-pile"])
        .output()
        .unwrap();
    let refs = json(&o)["cross_references"].clone();
    let ids: Vec<&str> = refs
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "swccg.ar.failed-destiny-draws",
            "swccg.ar.drawing-destiny-about-to-draw"
        ],
        "{refs}"
    );

    let o = fx(&tmp)
        .args(["rule", "swccg.ar.life-force"])
        .output()
        .unwrap();
    let out = stdout(&o);
    assert!(
        out.contains("swccg.ar.reserve-deck — Reserve Deck"),
        "children listed: {out}"
    );
}

#[test]
fn rule_unknown_id_suggests() {
    let tmp = TempDir::new("rule-unknown");
    for typed in ["swccg.ar.stack", "the stack", "SWCCG.AR.THE-STACKK"] {
        let o = fx(&tmp).args(["rule", typed]).output().unwrap();
        assert_eq!(code(&o), 1, "{typed}");
        let e = stderr(&o);
        assert!(
            e.starts_with(&format!("no section {typed}; did you mean: ")),
            "{e}"
        );
        assert!(e.contains("swccg.ar.the-stack"), "{typed}: {e}");
    }
    // Upper case and published aliases find the section.
    let o = fx(&tmp)
        .args(["rule", "SWCCG.AR.THE-STACK"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0);
    let o = fx(&tmp)
        .args(["--json", "rule", "swccg.ar.old-stack"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0);
    assert_eq!(json(&o)["id"], "swccg.ar.the-stack");
}

// ---------------------------------------------------------------- lint

#[test]
fn lint_passes_on_the_fixture() {
    let tmp = TempDir::new("lint-ok");
    let o = fx(&tmp).args(["lint"]).output().unwrap();
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("0 errors; cross-references:"),
        "{}",
        stdout(&o)
    );
    let o = fx(&tmp).args(["--json", "lint"]).output().unwrap();
    let v = json(&o);
    assert!(
        v["cross_references"]["resolved"].as_u64().unwrap() >= 5,
        "{v}"
    );
    assert_eq!(v["errors"].as_array().unwrap().len(), 0);
}

#[test]
fn lint_reports_each_problem() {
    let tmp = TempDir::new("lint-bad");
    let book = tmp.path().join("rulebook");
    copy_dir(&fixture(), &book);
    let file = book.join("destiny/rr.md");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str(
        "\n# Lonely Example {#destiny.rr.lonely-example .example}\n\nAn example of nothing.\n",
    );
    text.push_str("\n## Empty {#destiny.rr.empty}\n");
    text.push_str("\n## Dice {#destiny.rr.dice}\n\nSecond dice.\n");
    std::fs::write(&file, text).unwrap();
    let ids = book.join("ids.txt");
    let ids_text = std::fs::read_to_string(&ids).unwrap().replace(
        "destiny.rr.claim-the-battlefield\n",
        "destiny.rr.claim-the-battlefield\ndestiny.rr.gone\n",
    );
    std::fs::write(
        &ids,
        format!("{ids_text}destiny.rr.lonely-example\ndestiny.rr.empty\n"),
    )
    .unwrap();

    let o = swjudge(tmp.path())
        .arg("--rulebook")
        .arg(&book)
        .args(["lint"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let out = stdout(&o);
    for needle in [
        "duplicate id destiny.rr.dice",
        "destiny.rr.empty (\"Empty\") is empty",
        "example destiny.rr.lonely-example has no parent rule",
        "published id destiny.rr.gone no longer exists",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in:\n{out}");
    }
    // An alias makes the removed ID acceptable again.
    std::fs::write(
        book.join("aliases.txt"),
        "destiny.rr.gone -> destiny.rr.dice\nswccg.ar.old-stack -> swccg.ar.the-stack\n",
    )
    .unwrap();
    let o = swjudge(tmp.path())
        .arg("--rulebook")
        .arg(&book)
        .args(["lint"])
        .output()
        .unwrap();
    assert!(!stdout(&o).contains("destiny.rr.gone"), "{}", stdout(&o));
}

/// The committed rulebook: every published ID still exists or is aliased, and no
/// ID is used twice.
#[test]
fn committed_ids_exist_or_are_aliased() {
    for book in [rulebook(), fixture()] {
        let corpus = Corpus::load(&book).unwrap();
        let ids = lint::published_ids(&book).unwrap().expect("ids.txt exists");
        assert!(!ids.is_empty());
        let aliases = lint::load_aliases(&book).unwrap();
        let missing: Vec<&str> = ids
            .iter()
            .map(|(_, id)| id.as_str())
            .filter(|id| lint::resolve_alias(&corpus, &aliases, id).is_none())
            .collect();
        assert!(
            missing.is_empty(),
            "{}: published IDs with no section or alias: {missing:?}",
            book.display()
        );
        assert!(
            corpus.load_problems.is_empty(),
            "{}: {:?}",
            book.display(),
            corpus.load_problems
        );
        let report = lint::lint(&corpus).unwrap();
        let id_errors: Vec<String> = report
            .errors
            .iter()
            .filter(|e| e.message.contains(" id "))
            .map(|e| e.to_string())
            .collect();
        assert!(id_errors.is_empty(), "{id_errors:#?}");
    }
}

// ---------------------------------------------------------------- quality

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Eval {
    questions: Vec<Question>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Question {
    q: String,
    game: Game,
    /// Any of these sections, cards or card rulings answers the question.
    expect: Vec<String>,
    /// `heldout`: never used to tune ranking. Absent: the tuning split.
    #[serde(default)]
    split: Option<String>,
}

/// The fixture card databases the evaluation's card questions are about.
const EVAL_CARDS: &[&str] = &[
    "swccg-rulings.json",
    "swccg-light.json",
    "swtcg-rulings.txt",
    "swtcg-set.txt",
    "destiny-set.json",
];

/// The committed rulebook with the fixture cards imported, indexed under `tmp`.
fn eval_index(tmp: &TempDir) -> (Eval, Index) {
    let eval: Eval = swjudge::yaml::load_file(&root().join("tests/data/search-eval.yaml")).unwrap();
    let paths = Paths {
        rulebook: rulebook(),
        index: tmp.path().join("index"),
        data_dir: tmp.path().join("data"),
    };
    import_fixture_cards(&paths.data_dir, EVAL_CARDS);
    (eval, Index::open_or_build(&paths).unwrap())
}

fn top5(index: &Index, q: &Question, game: Option<Game>) -> Vec<String> {
    let query = Query {
        text: q.q.clone(),
        game,
        kind: None,
        limit: 5,
    };
    index
        .search(&query)
        .unwrap()
        .into_iter()
        .map(|h| h.id)
        .collect()
}

/// Recall@5 over tests/data/search-eval.yaml against the committed rulebook and
/// the fixture cards: the share of questions with an answer in the first five
/// hits, within the question's game (`--game`) and without a game, for the
/// tuning split and the held-out split.
#[test]
fn search_quality_recall_at_5() {
    let tmp = TempDir::new("eval");
    let (eval, index) = eval_index(&tmp);
    let per_game = |g: Game| eval.questions.iter().filter(|q| q.game == g).count();
    assert!(eval.questions.len() >= 150, "{}", eval.questions.len());
    for g in Game::ALL {
        assert!(per_game(g) >= 45, "{g}: {}", per_game(g));
    }
    assert_eq!(index.segments(), 1, "the corpus is indexed as one segment");
    for q in &eval.questions {
        for id in &q.expect {
            assert!(index.contains_id(id), "{:?} expects unknown {id}", q.q);
        }
        assert!(
            matches!(q.split.as_deref(), None | Some("heldout")),
            "{:?}: split must be heldout or absent",
            q.q
        );
    }
    // [split][in game, any game] = (found, asked)
    let mut tally = [[(0usize, 0usize); 2]; 2];
    let mut misses = Vec::new();
    for q in &eval.questions {
        let split = usize::from(q.split.is_some());
        for (mode, game) in [Some(q.game), None].into_iter().enumerate() {
            let top = top5(&index, q, game);
            let found = top.iter().any(|id| q.expect.contains(id));
            tally[split][mode].1 += 1;
            if found {
                tally[split][mode].0 += 1;
            } else if split == 0 {
                misses.push(format!(
                    "  MISS {:?} ({}, {}) expected {:?}, got {top:?}",
                    q.q,
                    q.game,
                    if mode == 0 { "in game" } else { "any game" },
                    q.expect
                ));
            }
        }
    }
    let pct = |(found, asked): (usize, usize)| found as f64 * 100.0 / asked.max(1) as f64;
    for m in &misses {
        println!("{m}");
    }
    for (split, name) in ["tuning", "held-out"].iter().enumerate() {
        println!(
            "recall@5 {name} split ({} questions): {:.1}% within the question's game, {:.1}% without a game",
            tally[split][0].1,
            pct(tally[split][0]),
            pct(tally[split][1])
        );
    }
    assert!(
        tally[1][0].1 >= 40,
        "a held-out split of at least 40 questions"
    );
    // Floors a little under today's figures (README "Measured"); the held-out
    // floor within the game is the target. A ranking change that loses
    // answers fails here.
    for (split, mode, floor) in [(0, 0, 99.0), (0, 1, 98.0), (1, 0, 95.0), (1, 1, 89.0)] {
        assert!(
            pct(tally[split][mode]) >= floor,
            "recall@5 {:.1}% below {floor}% (split {split}, mode {mode}):\n{}",
            pct(tally[split][mode]),
            misses.join("\n")
        );
    }
}

/// Where the real community card databases are: `SWJUDGE_REAL_DATA`, else
/// `../shared/data` beside the repository. `None` (with a message saying
/// why) when they are missing; under `CI=true` their absence fails the test.
fn real_data() -> Option<PathBuf> {
    let dir = std::env::var_os("SWJUDGE_REAL_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/data"));
    let wanted = [
        "swccg-card-json/Light.json",
        "swccg-card-json/Dark.json",
        "swdestinydb-json-data/set",
        "swtcg-lackey/sets",
    ];
    let missing: Vec<&str> = wanted
        .into_iter()
        .filter(|w| !dir.join(w).exists())
        .collect();
    if missing.is_empty() {
        return Some(dir);
    }
    let why = format!(
        "the real card databases are not in {} (missing {missing:?}; set SWJUDGE_REAL_DATA)",
        dir.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "CI: {why}");
    eprintln!("skipping: {why}");
    None
}

/// The committed rulebook with every real card database imported, indexed under `tmp`.
fn real_index(real: &Path, tmp: &TempDir) -> (Paths, Index) {
    let paths = Paths {
        rulebook: rulebook(),
        index: tmp.path().join("index"),
        data_dir: tmp.path().join("data"),
    };
    let mut files = vec![
        real.join("swccg-card-json/Light.json"),
        real.join("swccg-card-json/Dark.json"),
    ];
    for (dir, ext) in [
        ("swdestinydb-json-data/set", "json"),
        ("swtcg-lackey/sets", "txt"),
    ] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(real.join(dir))
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        found.sort();
        files.extend(found);
    }
    swjudge::cards::import::import(&files, &paths.data_dir, false).unwrap();
    let index = Index::open_or_build(&paths).unwrap();
    (paths, index)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OffTopic {
    questions: Vec<OffTopicQuestion>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OffTopicQuestion {
    q: String,
    #[serde(default)]
    split: Option<String>,
}

/// One split's tally: asked, found in the first five within the game and
/// without it, and first within the game.
#[derive(Default, Debug)]
struct Tally {
    asked: usize,
    in_game: usize,
    any_game: usize,
    first: usize,
}

impl Tally {
    fn pct(n: usize, of: usize) -> f64 {
        n as f64 * 100.0 / of.max(1) as f64
    }

    fn line(&self, name: &str) -> String {
        format!(
            "{name} ({} questions): recall@5 {:.1}% with the game, {:.1}% without; rank 1 {:.1}%",
            self.asked,
            Tally::pct(self.in_game, self.asked),
            Tally::pct(self.any_game, self.asked),
            Tally::pct(self.first, self.asked)
        )
    }
}

/// Tally `questions` on `index`: within the game, and without one.
fn tally(index: &Index, questions: &[&Question], misses: &mut Vec<String>) -> Tally {
    let mut t = Tally::default();
    for q in questions {
        t.asked += 1;
        let top = top5(index, q, Some(q.game));
        let found = top.iter().any(|id| q.expect.contains(id));
        t.in_game += usize::from(found);
        t.first += usize::from(top.first().is_some_and(|id| q.expect.contains(id)));
        let anywhere = top5(index, q, None);
        t.any_game += usize::from(anywhere.iter().any(|id| q.expect.contains(id)));
        if !found || top.first().is_none_or(|id| !q.expect.contains(id)) {
            misses.push(format!(
                "  {:?} ({}) expected {:?}, got {top:?}",
                q.q, q.game, q.expect
            ));
        }
    }
    t
}

/// The evaluation with every real card database imported: table-talk
/// questions (tests/data/search-eval-real.yaml), the rulebook questions of
/// tests/data/search-eval.yaml, and off-topic questions that must find
/// nothing. The targets hold on the held-out splits.
#[test]
fn search_quality_with_the_real_card_databases() {
    let Some(real) = real_data() else {
        return;
    };
    let tmp = TempDir::new("eval-real");
    let (_, index) = real_index(&real, &tmp);
    let eval: Eval =
        swjudge::yaml::load_file(&root().join("tests/data/search-eval-real.yaml")).unwrap();
    for q in &eval.questions {
        for id in &q.expect {
            assert!(index.contains_id(id), "{:?} expects unknown {id}", q.q);
        }
    }
    let split = |held: bool| -> Vec<&Question> {
        eval.questions
            .iter()
            .filter(|q| q.split.is_some() == held)
            .collect()
    };
    let mut misses = Vec::new();
    let tuning = tally(&index, &split(false), &mut misses);
    let held = tally(&index, &split(true), &mut Vec::new());
    // The rulebook questions of the committed evaluation, the cards in.
    let rules: Eval =
        swjudge::yaml::load_file(&root().join("tests/data/search-eval.yaml")).unwrap();
    let sections: Vec<&Question> = rules
        .questions
        .iter()
        .filter(|q| q.expect.iter().all(|id| !id.contains('#')))
        .collect();
    let rules_held: Vec<&Question> = sections
        .iter()
        .copied()
        .filter(|q| q.split.is_some())
        .collect();
    let rules_tally = tally(&index, &rules_held, &mut Vec::new());
    let off: OffTopic =
        swjudge::yaml::load_file(&root().join("tests/data/search-offtopic.yaml")).unwrap();
    let answered: Vec<(&str, bool)> = off
        .questions
        .iter()
        .filter(|q| !index.search(&Query::new(q.q.clone())).unwrap().is_empty())
        .map(|q| (q.q.as_str(), q.split.is_some()))
        .collect();
    println!("misses (tuning split):\n{}", misses.join("\n"));
    println!("{}", tuning.line("table talk, tuning split"));
    println!("{}", held.line("table talk, held-out split"));
    println!(
        "{}",
        rules_tally.line("rulebook questions (held out), cards imported")
    );
    // The held-out questions answered are counted, never named: they are
    // not to be looked at while tuning.
    let tuning_answered: Vec<&str> = answered.iter().filter(|a| !a.1).map(|a| a.0).collect();
    println!(
        "off-topic answered: {} of {} (tuning split: {tuning_answered:?}; held out: {})",
        answered.len(),
        off.questions.len(),
        answered.len() - tuning_answered.len()
    );
    assert!(
        held.asked >= 30,
        "a held-out split of at least 30 questions"
    );
    assert!(off.questions.len() >= 20);
    // Floors just under today's figures: a change that loses one answer
    // fails here. The targets are 95%, 90% and 75%, and at most 1 in 20
    // off-topic questions answered.
    let pct = Tally::pct;
    for (what, got, floor, target) in [
        (
            "recall@5 with the game",
            pct(held.in_game, held.asked),
            96.0,
            95.0,
        ),
        (
            "recall@5 without a game",
            pct(held.any_game, held.asked),
            93.0,
            90.0,
        ),
        ("rank 1", pct(held.first, held.asked), 76.0, 75.0),
        (
            "rulebook questions, recall@5",
            pct(rules_tally.in_game, rules_tally.asked),
            95.0,
            95.0,
        ),
        (
            "rulebook questions, rank 1",
            pct(rules_tally.first, rules_tally.asked),
            76.0,
            75.0,
        ),
    ] {
        assert!(
            got >= floor,
            "held-out {what}: {got:.1}% below {floor}% (target {target}%)"
        );
    }
    // At most 1 in 20, over all of them and over the held-out split alone.
    let held_answered = answered.len() - tuning_answered.len();
    let held_asked = off.questions.iter().filter(|q| q.split.is_some()).count();
    assert!(
        answered.len() * 20 <= off.questions.len() && held_answered * 20 <= held_asked.max(20),
        "off-topic answered: {} of {}, {held_answered} of {held_asked} held out (target: at most 1 in 20)",
        answered.len(),
        off.questions.len()
    );
}

/// Questions nothing in the corpus answers find nothing (exit 1 on the command line).
#[test]
fn nothing_found_when_nothing_covers_the_question() {
    let tmp = TempDir::new("eval-none");
    let (_, index) = eval_index(&tmp);
    let mut seed = 7u64;
    let gibberish: Vec<String> = (0..99)
        .map(|_| {
            (0..4)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    char::from(b'a' + ((seed >> 33) % 26) as u8)
                })
                .collect()
        })
        .collect();
    for text in [
        "what is the Rule of Four".to_string(),
        "how does the Quantum Flux Penalty apply".to_string(),
        // Every word is in the SWCCG introduction's aside on sales, none is
        // the games' own vocabulary.
        "magic the gathering sales".to_string(),
        // Two words the index lacks are no pair of typos: their close words
        // ("son", "specify") answer nothing.
        "how do I shuffle songs on spotify".to_string(),
        // "mana" is a players' word for Force and build points, and weighs
        // what they weigh: "hearthstone", a word of another game, is then
        // most of the question.
        "how do mana costs work in hearthstone".to_string(),
        // One word of two ("speed", a term of the SWTCG) is no answer
        // unless it is most of the question.
        "what is the speed of light".to_string(),
        gibberish.join(" "),
    ] {
        let hits = index.search(&Query::new(text.clone())).unwrap();
        assert!(
            hits.is_empty(),
            "{text:?} found {:?}",
            hits.iter().map(|h| &h.id).collect::<Vec<_>>()
        );
    }
    // One word that is most of the question answers it.
    let hits = index.search(&Query::new("can I take a mulligan")).unwrap();
    assert_eq!(hits[0].id, "swtcg.rb.mulligan");
    // A question that is answered finds its answer with full coverage.
    let hits = index
        .search(&Query::new("how does a force drain work"))
        .unwrap();
    assert_eq!(hits[0].coverage, 1.0);
}

/// Snippets start at a sentence, or with "…" when cut, and never mid-word.
#[test]
fn snippets_start_at_a_sentence_or_with_an_ellipsis() {
    let tmp = TempDir::new("eval-snippets");
    let (eval, index) = eval_index(&tmp);
    let mut seen = 0;
    for q in &eval.questions {
        for h in index.search(&Query::new(q.q.clone())).unwrap() {
            let first = h.snippet.chars().next().unwrap_or(' ');
            // Glossary entries begin with their lower-case term ("draw step: …").
            let term = h.snippet.split(':').next().unwrap_or("");
            if h.snippet.contains(':') && term.split_whitespace().count() <= 3 {
                continue;
            }
            assert!(
                first == '…'
                    || first.is_uppercase()
                    || first.is_ascii_digit()
                    || !first.is_alphabetic(),
                "{}: snippet starts mid-sentence: {:?}",
                h.id,
                h.snippet
            );
            seen += 1;
        }
    }
    assert!(seen > 500, "{seen} snippets checked");
}

/// Whatever a long-lived index keeps between queries (stored fields, term
/// weights), a query answers the same on it as on a freshly opened index.
#[test]
fn repeated_searches_match_a_fresh_index() {
    let tmp = TempDir::new("repeat");
    let (eval, shared) = eval_index(&tmp);
    let paths = Paths {
        rulebook: rulebook(),
        index: tmp.path().join("index"),
        data_dir: tmp.path().join("data"),
    };
    let run = |index: &Index, q: &Question, game: Option<Game>| -> Vec<(String, u32, String)> {
        let query = Query {
            text: q.q.clone(),
            game,
            kind: None,
            limit: 8,
        };
        index
            .search(&query)
            .unwrap()
            .into_iter()
            .map(|h| (h.id, h.score.to_bits(), h.snippet))
            .collect()
    };
    let mut compared = 0;
    for round in 0..2 {
        for q in eval.questions.iter().rev() {
            for game in [Some(q.game), None] {
                let warm = run(&shared, q, game);
                if round == 1 && game.is_some() {
                    let fresh = Index::open_or_build(&paths).unwrap();
                    assert!(!fresh.was_built());
                    assert_eq!(warm, run(&fresh, q, game), "{:?}", q.q);
                    compared += 1;
                }
                assert!(!warm.is_empty(), "{:?} finds nothing", q.q);
            }
        }
    }
    assert_eq!(compared, eval.questions.len());
}

/// Searches running while the index is rebuilt, and while the files of the
/// index in use are cut short from outside, each end normally: found, with
/// the right first hit, never killed by a signal, never a panic.
#[test]
fn searches_survive_rebuilds_and_damage() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let tmp = TempDir::new("search-concurrent");
    assert_eq!(code(&fx(&tmp).arg("index").output().unwrap()), 0);
    let stop = AtomicBool::new(false);
    let outputs: Vec<std::process::Output> = std::thread::scope(|s| {
        let searches: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    let mut outs = Vec::new();
                    while !stop.load(Ordering::Relaxed) || outs.len() < 3 {
                        let o = fx(&tmp).args(["--json", "search", "shields"]).output();
                        outs.push(o.unwrap());
                    }
                    outs
                })
            })
            .collect();
        for round in 0..8 {
            let child = fx(&tmp)
                .arg("index")
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            // A generation is named `gen-<time>-<pid>` by the process that built it.
            let ours = format!("-{}", child.id());
            let o = child.wait_with_output().unwrap();
            assert_eq!(code(&o), 0, "{}", stderr(&o));
            if round % 2 == 1 {
                // The generation this rebuild wrote, which searches are
                // opening, never one a search rebuilt after meeting damage
                // (the search that rebuilt it reads it once more, and damage
                // met there too would be damage twice in one search: under
                // heavy load, a search can outlast several rounds).
                let dir = std::fs::read_dir(tmp.path().join("index"))
                    .unwrap()
                    .flatten()
                    .map(|e| e.path())
                    .find(|p| {
                        let name = p.file_name().unwrap().to_string_lossy();
                        name.starts_with("gen-") && name.ends_with(&ours)
                    })
                    .expect("the generation the rebuild wrote");
                for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                    let f = std::fs::OpenOptions::new().write(true).open(e.path());
                    if let Ok(f) = f {
                        let len = f.metadata().map_or(0, |m| m.len());
                        let _ = f.set_len(len / 2);
                    }
                }
            }
        }
        stop.store(true, Ordering::Relaxed);
        searches
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(outputs.len() >= 12, "{} searches", outputs.len());
    for o in &outputs {
        assert_eq!(o.status.code(), Some(0), "{:?}: {}", o.status, stderr(o));
        assert!(!stderr(o).contains("panicked"), "{}", stderr(o));
        assert_eq!(json(o)[0]["id"], "destiny.rr.shields", "{}", stdout(o));
    }
}

/// `search` fits its text to the terminal width (`COLUMNS`), as every
/// command does: no line is wider, but for one word too long to break.
#[test]
fn search_output_fits_the_width() {
    let tmp = TempDir::new("search-width");
    for cols in [50, 80] {
        let o = fx(&tmp)
            .env("COLUMNS", cols.to_string())
            .args(["search", "shields"])
            .output()
            .unwrap();
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.lines().count() > 3, "{out}");
        for line in out.lines() {
            let long = line.chars().count() > cols;
            assert!(
                !long || line.split_whitespace().count() <= 2,
                "{cols} columns: {line:?}"
            );
        }
    }
}
