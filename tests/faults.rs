//! Faults and hostile input: a fixed corpus of damaged scenarios and card files
//! (`tests/fixtures/damaged/`), imports that must never lose or duplicate stored
//! cards, input that must never reach the terminal raw, and a property test over
//! mutated scenarios.

use crate::cli::{assert_error, good_scenario, s, sj, write};
use crate::util::*;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use swjudge::scenario::{self, BuiltinIds};

fn damaged(name: &str) -> PathBuf {
    root().join("tests/fixtures/damaged").join(name)
}

fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/cards").join(name)
}

/// Each damaged scenario is one error line naming the file, and where a
/// position is known, `file:line:column`.
#[test]
fn damaged_scenarios_are_one_error_line_with_a_position() {
    let t = TempDir::new("faults-scenarios");
    let cases = [
        (
            "dup-location.yaml",
            ":11:3: location name `tatooine` is used twice",
        ),
        ("unknown-key.yaml", ":12:3: unknown field `wings`"),
        (
            "board-of-another-game.yaml",
            ":11:3: board `swccg:` given for a `game: destiny`",
        ),
        (
            "made-up-source.yaml",
            ":3:9: source `swccg.ar.no-such-section` is not a rulebook section ID",
        ),
        ("tab-indent.yaml", "tab-indent.yaml:11:9: "),
        ("truncated.yaml", "truncated.yaml:"),
        ("unclosed-flow.yaml", "unclosed-flow.yaml:"),
        ("nul-byte.yaml", "nul-byte.yaml:"),
        ("two-documents.yaml", "more than one YAML document"),
    ];
    for (file, needle) in cases {
        let p = damaged(file);
        assert_error(&sj(t.path(), &["check", s(&p)]), needle);
        let o = sj(t.path(), &["test", s(&p)]);
        assert_eq!(code(&o), 2, "{file}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("0 passed, 1 failed"),
            "{file}: {}",
            stdout(&o)
        );
    }
}

/// Each damaged card file fails the import in one line and stores nothing.
#[test]
fn damaged_card_files_import_nothing() {
    let t = TempDir::new("faults-cards");
    let cases = [
        ("swtcg-latin1.txt", "swtcg-latin1.txt:2:4: not UTF-8 text"),
        ("swccg-truncated.json", "swccg-truncated.json:"),
        ("destiny-wrong-shape.json", "neither SWCCG"),
    ];
    for (file, needle) in cases {
        let o = sj(t.path(), &["cards", "import", s(&damaged(file))]);
        assert_error(&o, needle);
    }
    let o = sj(
        t.path(),
        &[
            "cards",
            "import",
            "--strict",
            s(&damaged("swtcg-truncated.txt")),
        ],
    );
    assert_error(&o, "--strict: 5 record(s) rejected, nothing imported");
    assert!(!t.path().join("data/cards").exists());
}

/// The card file stored for `set`, and its cards.
fn stored(tmp: &Path) -> Vec<(String, usize)> {
    let dir = tmp.join("data/cards");
    let mut out: Vec<(String, usize)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
            let n = v["cards"].as_array().unwrap().len();
            (p.file_name().unwrap().to_string_lossy().into_owned(), n)
        })
        .collect();
    out.sort();
    out
}

/// A LackeyCCG file whose rows were cut short (a truncated download) rejects
/// those rows, and never replaces the set already imported with fewer cards;
/// under `--strict` nothing is imported at all.
#[test]
fn a_truncated_tsv_never_shrinks_the_stored_set() {
    let t = TempDir::new("faults-truncated-tsv");
    let good = t.path().join("set.txt");
    std::fs::copy(fixture("swtcg-set.txt"), &good).unwrap();
    let o = sj(t.path(), &["cards", "import", s(&good)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let before = stored(t.path());
    assert_eq!(before, [("swtcg-set.json".to_string(), 5)]);
    // The same file, its last rows cut short and one row lost.
    let text = std::fs::read_to_string(&good).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines.truncate(5);
    lines[4] = lines[4].split('\t').take(6).collect::<Vec<_>>().join("\t");
    std::fs::write(&good, lines.join("\n")).unwrap();
    let o = sj(t.path(), &["cards", "import", "--strict", s(&good)]);
    assert_error(&o, "--strict: 1 record(s) rejected, nothing imported");
    let o = sj(t.path(), &["cards", "import", s(&good)]);
    assert_error(
        &o,
        "1 record(s) rejected, and its 3 cards would replace the 5",
    );
    assert_eq!(stored(t.path()), before);
}

/// The same database under another file name replaces the stored copy; it
/// does not add a second copy of every card.
#[test]
fn the_same_database_under_another_name_replaces_it() {
    let t = TempDir::new("faults-same-db");
    let o = sj(
        t.path(),
        &["cards", "import", s(&fixture("swccg-light.json"))],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let copy = write(
        t.path(),
        "LightCopy.json",
        std::fs::read(fixture("swccg-light.json")).unwrap(),
    );
    let o = sj(t.path(), &["cards", "import", s(&copy)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stored(t.path()), [("swccg-light.json".to_string(), 18)]);
    let o = sj(t.path(), &["card", "Qui-Gon Jinn's Lightsaber"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!stdout(&o).contains('@'), "{}", stdout(&o));
    // A different database of the same format is kept beside it.
    let o = sj(
        t.path(),
        &["cards", "import", s(&fixture("swccg-rulings.json"))],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stored(t.path()).len(), 2);
}

/// Terminal escapes in a scenario's title and in a card name typed are
/// printed escaped, never raw; an oversized name is not echoed.
#[test]
fn control_characters_never_reach_the_terminal() {
    let t = TempDir::new("faults-escapes");
    let text = String::from_utf8(good_scenario()).unwrap();
    let title = text.lines().find(|l| l.starts_with("title:")).unwrap();
    let evil = text.replace(title, "title: \"red \\e[31m alert \\a\"");
    let p = write(t.path(), "evil.yaml", evil);
    let o = sj(t.path(), &["--color", "never", "check", s(&p)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!stdout(&o).contains('\x1b') && !stdout(&o).contains('\x07'));
    assert!(
        stdout(&o).contains("red \\u{1b}[31m alert"),
        "{}",
        stdout(&o)
    );
    let o = sj(t.path(), &["--color", "never", "card", "vader\x1b[2J\x07x"]);
    assert!(!stdout(&o).contains('\x1b') && !stderr(&o).contains('\x1b'));
    let long = "x".repeat(10_000);
    let o = sj(t.path(), &["card", &long]);
    assert_error(&o, "the limit is 200");
    assert!(stderr(&o).len() < 200, "{}", stderr(&o));
    let bangs = "!".repeat(10_000);
    assert!(stderr(&sj(t.path(), &["card", &bangs])).len() < 200);
}

/// `check` and `test` check `source:` against the built-in rulebook's IDs, and
/// a `--rulebook` that cannot be read is an error, never a skipped check.
#[test]
fn source_ids_are_checked_and_an_unreadable_rulebook_is_an_error() {
    let t = TempDir::new("faults-rulebook");
    let good = write(t.path(), "good.yaml", good_scenario());
    for missing in [t.path().join("missing"), write(t.path(), "file.md", "x")] {
        for cmd in ["check", "test"] {
            let mut c = swjudge(t.path());
            c.arg("--rulebook").arg(&missing).args([cmd, s(&good)]);
            let o = c.output().unwrap();
            assert_eq!(code(&o), 2, "{cmd} {}", stderr(&o));
            assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
        }
    }
    let mut c = swjudge(t.path());
    c.arg("--rulebook")
        .arg(rulebook())
        .args(["check", s(&good)]);
    assert_eq!(code(&c.output().unwrap()), 0);
}

/// Scenarios to mutate: one per game, each with nested maps, lists and anchors.
const SHIPPED: [&str; 3] = [
    "scenarios/swccg/limits/one-rule-examples.yaml",
    "scenarios/destiny/examples/after-comlink.yaml",
    "scenarios/swtcg/attack/retaliate-armor.yaml",
];

/// What a mutation writes into a scenario.
const INSERTS: [&str; 24] = [
    " ", ":", "-", "#", "\n", "\"", "'", "{", "}", "[", "]", ",", "&a ", "*a", "|", "  ", "\n  ",
    "null", "~", "- ", "\t", "é", "!x ", "\u{1b}",
];

fn mutate(text: &str, at: usize, kind: u8, what: usize) -> String {
    let bounds: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let at = bounds[at % bounds.len()];
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let line = what % lines.len();
    match kind % 4 {
        0 => format!(
            "{}{}{}",
            &text[..at],
            INSERTS[what % INSERTS.len()],
            &text[at..]
        ),
        1 => {
            let end =
                bounds[(bounds.partition_point(|&b| b < at) + 1 + what % 3).min(bounds.len() - 1)];
            format!("{}{}", &text[..at], &text[end..])
        }
        2 => {
            let mut l = lines.clone();
            l.remove(line);
            l.concat()
        }
        _ => {
            let mut l = lines.clone();
            l.insert(line, lines[line]);
            l.concat()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// A mutated scenario loads, or fails with one line that names the file;
    /// one that loads runs to a report. Nothing panics.
    #[test]
    fn mutated_scenarios_load_or_fail_in_one_line(
        file in 0..SHIPPED.len(), at in 0usize..10_000, kind in 0u8..4, what in 0usize..1000,
    ) {
        let text = std::fs::read_to_string(root().join(SHIPPED[file])).unwrap();
        let copy = mutate(&text, at, kind, what);
        match scenario::load_str(Path::new("m.yaml"), &copy, Some(&BuiltinIds)) {
            Ok(s) => {
                let r = scenario::run(&s);
                prop_assert_eq!(r.scenario, "m.yaml");
            }
            Err(e) => {
                let e = e.to_string();
                prop_assert!(e.starts_with("m.yaml"), "{}", e);
                prop_assert!(!e.contains('\n'), "{}", e);
                prop_assert!(e.len() < 2_000, "{}", e);
            }
        }
    }
}

/// The one YAML loader: positions, repeated keys, merge keys and alias bombs.
mod yaml {
    use serde::Deserialize;
    use std::collections::BTreeMap;
    use std::path::Path;
    use swjudge::yaml::{load, unique};

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct T {
        a: u32,
        #[serde(default)]
        b: Vec<String>,
    }

    fn err(text: &str) -> String {
        load::<T>(Path::new("s.yaml"), text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn reports_file_line_column() {
        let e = err("a: 1\nzzz: 2\n");
        assert!(e.starts_with("s.yaml:2:1:"), "{e}");
        assert!(e.contains("zzz"), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }

    #[test]
    fn rejects_duplicate_keys() {
        let e = err("a: 1\na: 2\n");
        assert!(e.starts_with("s.yaml:2:"), "{e}");
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct M {
        #[serde(deserialize_with = "unique")]
        m: BTreeMap<String, u32>,
        #[serde(default)]
        j: Option<serde_json::Value>,
    }

    #[test]
    fn maps_and_untyped_values_reject_repeated_keys() {
        let e = |text: &str| {
            load::<M>(Path::new("s.yaml"), text)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            e("m:\n  x: 1\n  x: 2\n"),
            "s.yaml:3:3: duplicate mapping key: x"
        );
        assert_eq!(
            e("m: {}\nj: [{a: {b: 1, b: 2}}]\n"),
            "s.yaml:2:16: duplicate mapping key: b"
        );
        let ok = load::<M>(
            Path::new("s.yaml"),
            "m: {x: 1, y: 2}\nj: {a: [1, 2.5, x, null, true]}\n",
        );
        let ok = ok.unwrap();
        assert_eq!(ok.m.len(), 2);
        assert_eq!(
            ok.j.unwrap(),
            serde_json::json!({"a": [1, 2.5, "x", null, true]})
        );
    }

    #[test]
    fn merge_keys_expand_only_where_written() {
        let m: M = load(Path::new("s.yaml"), "m:\n  <<: {x: 1, y: 2}\n  y: 3\n").unwrap();
        assert_eq!(m.m.get("x"), Some(&1));
        assert_eq!(m.m.get("y"), Some(&3));
    }

    #[test]
    fn stops_alias_bombs() {
        let mut y = String::from("a: 1\nb:\n  - &x0 [\"lol\"]\n");
        for i in 1..30 {
            y.push_str(&format!(
                "  - &x{i} [*x{p},*x{p},*x{p},*x{p},*x{p},*x{p},*x{p},*x{p},*x{p}]\n",
                p = i - 1
            ));
        }
        assert!(load::<T>(Path::new("s.yaml"), &y).is_err());
    }

    #[test]
    fn type_errors_name_the_position() {
        let e = err("a: many\n");
        assert!(e.starts_with("s.yaml:1:"), "{e}");
    }
}
