//! Integration tests: command-line behaviour shared by every subcommand, and
//! bad input of every kind. Bad input must give exit code 2 and exactly one
//! stderr line — never a panic, a hang or a partly written result.

use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Run `cmd` with stdin closed; kill it and fail the test after `secs` seconds.
pub(crate) fn run_within(mut cmd: Command, secs: u64) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("swjudge starts");
    // Drain both pipes on threads so a large output cannot block the child.
    let mut so = child.stdout.take().expect("piped stdout");
    let mut se = child.stderr.take().expect("piped stderr");
    let to = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut so, &mut v);
        v
    });
    let te = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut se, &mut v);
        v
    });
    let deadline = Instant::now() + Duration::from_secs(secs);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("swjudge did not finish within {secs} s: {cmd:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: to.join().unwrap_or_default(),
        stderr: te.join().unwrap_or_default(),
    }
}

/// `swjudge ARGS…` with a private index and data dir under `tmp`, within 60 s.
pub(crate) fn sj(tmp: &Path, args: &[&str]) -> Output {
    let mut c = swjudge(tmp);
    c.args(args);
    run_within(c, 60)
}

/// Exit code 2, exactly one stderr line starting "swjudge: " and containing
/// `needle`, no panic.
#[track_caller]
pub(crate) fn assert_error(o: &Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(code(o), 2, "exit code; stderr: {err}");
    assert!(!err.contains("panicked"), "panic: {err}");
    assert_eq!(err.lines().count(), 1, "one stderr line: {err:?}");
    assert!(err.starts_with("swjudge: "), "{err}");
    assert!(err.contains(needle), "expected {needle:?} in {err:?}");
}

pub(crate) fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write fixture");
    p
}

pub(crate) fn good_scenario() -> Vec<u8> {
    std::fs::read(root().join("scenarios/swccg/limits/one-rule-examples.yaml"))
        .expect("the One Rule scenario exists")
}

fn mkfifo(p: &Path) -> bool {
    Command::new("mkfifo")
        .arg(p)
        .status()
        .is_ok_and(|s| s.success())
}

pub(crate) fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

#[test]
fn unknown_subcommand_exits_2() {
    let t = TempDir::new("cli");
    let o = swjudge(t.path()).arg("frobnicate").output().unwrap();
    assert_eq!(code(&o), 2);
}

#[test]
fn usage_errors_are_one_line() {
    let t = TempDir::new("cli-usage");
    assert_error(&sj(t.path(), &["frobnicate"]), "unrecognized subcommand");
    assert_error(
        &sj(t.path(), &["serch", "x"]),
        "similar subcommands exist: 'serve', 'search'",
    );
    assert_error(&sj(t.path(), &["search", "--frob", "x"]), "--frob");
    assert_error(&sj(t.path(), &["card"]), "<NAME>");
    assert_error(&sj(t.path(), &["cards", "import"]), "<FILE|DIR>");
    assert_error(&sj(t.path(), &["check"]), "<FILE>");
    assert_error(
        &sj(t.path(), &["search", "x", "-n", "99999999999999999999"]),
        "--limit",
    );
    assert_error(
        &sj(t.path(), &["search", "x", "--game", "klingon"]),
        "klingon",
    );
    assert_error(
        &sj(t.path(), &["--index-dir", "", "search", "x"]),
        "--index-dir",
    );
    assert_error(&sj(t.path(), &[]), "subcommand");
}

#[test]
fn non_utf8_argument_is_one_line() {
    use std::os::unix::ffi::OsStrExt;
    let t = TempDir::new("cli-nonutf8");
    let mut c = swjudge(t.path());
    c.arg("rule").arg(std::ffi::OsStr::from_bytes(b"\xff\xfe"));
    assert_error(&run_within(c, 30), "UTF-8");
}

#[test]
fn help_and_version_still_exit_0() {
    let t = TempDir::new("cli-help");
    let o = sj(t.path(), &["--help"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("Usage:"), "{}", stdout(&o));
    let o = sj(t.path(), &["--version"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("swjudge "), "{}", stdout(&o));
}

#[test]
fn rule_with_huge_id_is_refused_quickly() {
    let t = TempDir::new("cli-rule-huge");
    let id = "a".repeat(5000);
    let start = Instant::now();
    let o = sj(t.path(), &["rule", &id]);
    assert_error(&o, "the limit is 200");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn card_with_empty_name_is_a_usage_error() {
    let t = TempDir::new("cli-card-empty");
    assert_error(&sj(t.path(), &["card", "  "]), "empty card name");
    assert_error(&sj(t.path(), &["--json", "card", ""]), "empty card name");
}

#[test]
fn card_with_huge_name_is_refused_quickly() {
    let t = TempDir::new("cli-card-huge");
    let name = "yoda ".repeat(2000);
    assert_error(&sj(t.path(), &["card", &name]), "the limit is 200");
}

#[test]
fn check_fifo_is_refused_not_read() {
    let t = TempDir::new("cli-check-fifo");
    let p = t.path().join("pipe.yaml");
    if !mkfifo(&p) {
        eprintln!("mkfifo unavailable; skipped");
        return;
    }
    let o = run_within(
        {
            let mut c = swjudge(t.path());
            c.args(["check", s(&p)]);
            c
        },
        20,
    );
    assert_error(&o, "not a regular file");
}

#[test]
fn check_folder_is_refused() {
    let t = TempDir::new("cli-check-dir");
    let d = t.path().join("dir.yaml");
    std::fs::create_dir_all(&d).unwrap();
    assert_error(&sj(t.path(), &["check", s(&d)]), "is a folder");
}

#[test]
fn check_empty_file_says_it_is_empty() {
    let t = TempDir::new("cli-check-empty");
    for (name, text) in [("e.yaml", ""), ("w.yaml", "  \n\n"), ("c.yaml", "# only\n")] {
        let p = write(t.path(), name, text);
        assert_error(&sj(t.path(), &["check", s(&p)]), "file is empty");
    }
}

#[test]
fn check_duplicate_key_error_has_no_parser_advice() {
    let t = TempDir::new("cli-check-dup");
    let p = write(t.path(), "d.yaml", "game: swccg\ngame: destiny\n");
    let o = sj(t.path(), &["check", s(&p)]);
    assert_error(&o, "d.yaml:2:1: duplicate mapping key: game");
    assert!(!stderr(&o).contains("DuplicateKeyPolicy"), "{}", stderr(&o));
}

#[test]
fn check_multiple_documents_are_named_in_words() {
    let t = TempDir::new("cli-check-multi");
    let mut two = good_scenario();
    two.extend_from_slice(b"---\n");
    two.extend_from_slice(&good_scenario());
    let p = write(t.path(), "two.yaml", two);
    let o = sj(t.path(), &["check", s(&p)]);
    assert_error(&o, "more than one YAML document");
    assert!(!stderr(&o).contains("Documents {"), "{}", stderr(&o));
}

#[test]
fn check_non_utf8_names_line_and_column() {
    let t = TempDir::new("cli-check-nonutf8");
    let p = write(
        t.path(),
        "n.yaml",
        b"game: swccg\ntitle: caf\xc3\xa9 \xff\n",
    );
    assert_error(&sj(t.path(), &["check", s(&p)]), "n.yaml:2:13: not UTF-8");
}

#[test]
fn check_rejects_oversized_tabbed_unknown_and_mistyped_yaml() {
    let t = TempDir::new("cli-check-bad");
    let big = format!("game: swccg\nnotes: \"{}\"\n", "x".repeat(2 << 20));
    let cases: [(&str, String, &str); 5] = [
        ("big.yaml", big, "the limit is 1048576 bytes"),
        (
            "case.yaml",
            "game: swccg\ntitle: t\nswccg:\n  battle:\n    location: Forest\n".into(),
            "case.yaml:4:3: unknown field `battle`",
        ),
        (
            "tab.yaml",
            "game: swccg\nswccg:\n\tturn: dark\n".into(),
            "tab.yaml:3:",
        ),
        (
            "unk.yaml",
            "game: swccg\nbogus: 1\n".into(),
            "unk.yaml:2:1: unknown field `bogus`",
        ),
        ("typ.yaml", "game: [1, 2]\n".into(), "typ.yaml:1:"),
    ];
    for (name, text, needle) in cases {
        let p = write(t.path(), name, text);
        assert_error(&sj(t.path(), &["check", s(&p)]), needle);
        assert_error(&sj(t.path(), &["--json", "check", s(&p)]), needle);
    }
}

#[test]
fn check_refuses_a_board_that_starts_over_capacity() {
    let t = TempDir::new("cli-check-capacity");
    let board = crate::scenarios::speeder_board("{card: luke}, {card: trooper}");
    let p = write(t.path(), "over.yaml", board);
    for args in [&["check"][..], &["--json", "check"][..]] {
        let o = sj(t.path(), &[args, &[s(&p)]].concat());
        assert_error(&o, "over.yaml:15:53: `speeder` (Snowspeeder) has capacity");
        assert_error(&o, "no slot is left that `trooper` may fill");
        assert_error(&o, "(AR Vehicles - Capacity, swccg.ar.vehicles-capacity)");
    }
}

#[test]
fn check_alias_bomb_is_stopped() {
    let t = TempDir::new("cli-check-bomb");
    let mut y = String::from(
        "game: swccg\ntitle: t\nnotes: n\nswccg: {turn: dark, phase: deploy}\nscript:\n  - &l0 [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n",
    );
    for i in 1..12 {
        let refs = vec![format!("*l{}", i - 1); 9].join(",");
        y.push_str(&format!("  - &l{i} [{refs}]\n"));
    }
    let p = write(t.path(), "bomb.yaml", y);
    let o = run_within(
        {
            let mut c = swjudge(t.path());
            c.args(["check", s(&p)]);
            c
        },
        20,
    );
    assert_error(&o, "bomb.yaml:");
}

#[test]
fn test_symlink_loop_terminates() {
    let t = TempDir::new("cli-test-loop");
    let d = t.path().join("sc");
    std::fs::create_dir_all(&d).unwrap();
    write(&d, "good.yaml", good_scenario());
    std::os::unix::fs::symlink(".", d.join("a")).unwrap();
    std::os::unix::fs::symlink(".", d.join("b")).unwrap();
    let o = run_within(
        {
            let mut c = swjudge(t.path());
            c.args(["test", s(&d)]);
            c
        },
        30,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("1 passed, 0 failed"), "{}", stdout(&o));
}

#[test]
fn test_empty_folder_finds_nothing() {
    let t = TempDir::new("cli-test-empty");
    let d = t.path().join("none");
    std::fs::create_dir_all(&d).unwrap();
    let o = sj(t.path(), &["test", s(&d)]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("no scenario files"), "{}", stderr(&o));
}

#[test]
fn test_mixed_folder_reports_each_file_and_exits_2() {
    let t = TempDir::new("cli-test-mix");
    let d = t.path().join("mix");
    std::fs::create_dir_all(&d).unwrap();
    write(&d, "a-good.yaml", good_scenario());
    write(&d, "b-dup.yaml", "game: swccg\ngame: swccg\n");
    write(&d, "c-empty.yaml", "");
    let fifo = mkfifo(&d.join("d-fifo.yaml"));
    let o = run_within(
        {
            let mut c = swjudge(t.path());
            c.args(["test", s(&d)]);
            c
        },
        30,
    );
    let n = if fifo { 3 } else { 2 };
    assert_error(&o, &format!("{n} scenario files are invalid"));
    let out = stdout(&o);
    assert!(out.contains("1 passed"), "{out}");
    assert!(
        out.contains("b-dup.yaml:2:1: duplicate mapping key"),
        "{out}"
    );
    assert!(out.contains("c-empty.yaml: file is empty"), "{out}");
    let o = sj(t.path(), &["--json", "test", s(&d)]);
    assert_eq!(code(&o), 2);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    assert_eq!(v["passed"], 1, "{v}");
    assert_eq!(v["failed"], n, "{v}");
}

#[test]
fn import_fifo_device_and_folder_are_refused() {
    let t = TempDir::new("cli-import-special");
    let fifo = t.path().join("pipe.json");
    let mut paths = vec!["/dev/zero".to_string(), s(t.path()).to_string()];
    if mkfifo(&fifo) {
        paths.push(s(&fifo).to_string());
    }
    for p in &paths {
        let o = run_within(
            {
                let mut c = swjudge(t.path());
                c.args(["cards", "import", p]);
                c
            },
            20,
        );
        let err = stderr(&o);
        assert_error(&o, p);
        assert!(
            err.contains("not a regular file") || err.contains("is a folder"),
            "{err}"
        );
    }
}

#[test]
fn import_failure_leaves_no_partial_write() {
    let t = TempDir::new("cli-import-partial");
    let fx = root().join("tests/fixtures/cards");
    // A folder where the second file's stored copy would go.
    std::fs::create_dir_all(t.path().join("data/cards/swtcg-set.json/x")).unwrap();
    let o = sj(
        t.path(),
        &[
            "cards",
            "import",
            s(&fx.join("swccg-light.json")),
            s(&fx.join("swtcg-set.txt")),
        ],
    );
    assert_error(&o, "swtcg-set.json: is a folder");
    let mut left: Vec<String> = std::fs::read_dir(t.path().join("data/cards"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["swtcg-set.json"], "nothing else written");
}

#[test]
fn import_malformed_json_is_one_line() {
    let t = TempDir::new("cli-import-json");
    let cases: [(&str, Vec<u8>, &str); 5] = [
        (
            "deep.json",
            format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)).into(),
            "recursion limit",
        ),
        ("empty.json", Vec::new(), "malformed JSON"),
        ("bin.json", b"{\"cards\": [\xff\xfe]}".to_vec(), "not UTF-8"),
        (
            "num.json",
            b"{\"cards\": [{\"id\": 1e400}]}".to_vec(),
            "number out of range",
        ),
        ("shape.json", b"{\"cards\": 5}".to_vec(), "neither SWCCG"),
    ];
    for (name, bytes, needle) in cases {
        let p = write(t.path(), name, bytes);
        assert_error(&sj(t.path(), &["cards", "import", s(&p)]), needle);
    }
    assert!(!t.path().join("data/cards").exists(), "nothing stored");
}

#[test]
fn stored_non_utf8_card_data_says_reimport() {
    let t = TempDir::new("cli-store-nonutf8");
    let cards = t.path().join("data/cards");
    std::fs::create_dir_all(&cards).unwrap();
    write(&cards, "swccg-x.json", b"\xff\xfe\x00garbage");
    let o = sj(t.path(), &["cards", "status"]);
    assert_error(
        &o,
        "swccg-x.json: stored card data is not UTF-8 text; re-import it",
    );
}

#[test]
fn stored_card_folder_and_fifo_are_skipped() {
    let t = TempDir::new("cli-store-special");
    let cards = t.path().join("data/cards");
    std::fs::create_dir_all(cards.join("odd.json")).unwrap();
    mkfifo(&cards.join("pipe.json"));
    let o = run_within(
        {
            let mut c = swjudge(t.path());
            c.args(["--json", "cards", "status"]);
            c
        },
        60,
    );
    assert_eq!(code(&o), 1, "no sources: {}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

#[test]
fn data_dir_that_is_a_file_is_one_line() {
    let t = TempDir::new("cli-datadir-file");
    let f = write(t.path(), "afile", "x");
    for args in [&["cards", "status"][..], &["card", "yoda"][..]] {
        let mut c = swjudge(t.path());
        c.env("SWJUDGE_DATA_DIR", &f).args(args);
        assert_error(&run_within(c, 60), "Not a directory");
    }
}

#[test]
fn garbage_rulebook_is_one_line() {
    let t = TempDir::new("cli-rb-garbage");
    let empty = t.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let garbage = t.path().join("garbage");
    std::fs::create_dir_all(garbage.join("swccg")).unwrap();
    write(
        &garbage.join("swccg"),
        "ar.md",
        b"\xff\xfe\x00\x01 not markdown",
    );
    for rb in [&empty, &garbage, &t.path().join("missing")] {
        for args in [
            &["lint"][..],
            &["rule", "swccg.ar.the-stack"][..],
            &["search", "stack"][..],
        ] {
            let mut c = swjudge(t.path());
            c.arg("--rulebook").arg(rb).args(args);
            let o = run_within(c, 60);
            assert_eq!(code(&o), 2, "{args:?} {}", stderr(&o));
            assert_eq!(stderr(&o).lines().count(), 1, "{args:?} {}", stderr(&o));
            assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
        }
    }
}

/// `| head -1`: stdout closed early ends quietly with exit 0.
#[test]
fn closed_stdout_exits_quietly() {
    let t = TempDir::new("cli-pipe");
    let cases: [&[&str]; 6] = [
        &["search", "stack", "-n", "1000"],
        &["--json", "search", "stack", "-n", "1000"],
        &["rule", "swccg.ar.the-stack"],
        &["lint", "--unresolved"],
        &["test"],
        &["--json", "test"],
    ];
    for args in cases {
        let mut child = swjudge(t.path())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut e, &mut err);
        }
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn card_name_without_title_words_is_a_usage_error() {
    let t = TempDir::new("cli-card-marker");
    // "(V)" alone used to fuzzy-match "V-4X-D Ski Speeder".
    for name in ["(V)", "!!!", "()"] {
        assert_error(&sj(t.path(), &["card", name]), "has no letters or digits");
    }
}

/// A copy of the shipped rulebook under `dir` (Markdown, ids.txt, aliases.txt).
fn copy_rulebook(dir: &Path) -> PathBuf {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                copy(&p, &to.join(e.file_name()));
            } else {
                std::fs::copy(&p, to.join(e.file_name())).unwrap();
            }
        }
    }
    let rb = dir.join("rulebook");
    copy(&rulebook(), &rb);
    rb
}

fn with_rulebook(tmp: &Path, rb: &Path, args: &[&str], secs: u64) -> Output {
    let mut c = swjudge(tmp);
    c.arg("--rulebook").arg(rb).args(args);
    run_within(c, secs)
}

#[test]
fn rulebook_symlink_loops_are_not_followed() {
    let t = TempDir::new("cli-rb-loop");
    let rb = copy_rulebook(t.path());
    std::os::unix::fs::symlink(".", rb.join("swccg/loop")).unwrap();
    std::os::unix::fs::symlink("..", rb.join("swccg/up")).unwrap();
    let o = with_rulebook(t.path(), &rb, &["--json", "lint"], 60);
    assert!(code(&o) < 2, "{}", stderr(&o));
    let o = with_rulebook(t.path(), &rb, &["rule", "swccg.ar.the-stack"], 60);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn rulebook_fifo_is_refused_not_read() {
    let t = TempDir::new("cli-rb-fifo");
    let rb = copy_rulebook(t.path());
    if !mkfifo(&rb.join("swccg/zz.md")) {
        eprintln!("mkfifo unavailable; skipped");
        return;
    }
    let o = with_rulebook(t.path(), &rb, &["lint"], 30);
    assert_error(&o, "zz.md: not a regular file");
}

#[test]
fn rulebook_errors_name_the_full_path_and_column() {
    let t = TempDir::new("cli-rb-errors");
    let rb = copy_rulebook(t.path());
    let head = "---\ngame: swccg\ndocument: zz\ndocument_title: T\nsuperseded: false\n---\n";
    let md = write(
        &rb.join("swccg"),
        "zz.md",
        format!("{head}# A {{#swccg.zz.a .bogus}}\n"),
    );
    let o = with_rulebook(t.path(), &rb, &["lint"], 60);
    assert_error(
        &o,
        &format!("{}:7: unknown section class .bogus", md.display()),
    );
    let mut bad = head.as_bytes().to_vec();
    bad.extend_from_slice(b"# A \xff {#swccg.zz.a}\n");
    write(&rb.join("swccg"), "zz.md", bad);
    let o = with_rulebook(t.path(), &rb, &["rule", "swccg.ar.the-stack"], 60);
    assert_error(&o, &format!("{}:7:5: not UTF-8 text", md.display()));
}

#[test]
fn rulebook_id_and_alias_lists_name_non_utf8_lines() {
    let t = TempDir::new("cli-rb-lists");
    let rb = copy_rulebook(t.path());
    let ids = std::fs::read(rb.join("ids.txt")).unwrap();
    let mut bad = ids.clone();
    bad.extend_from_slice(b"\xff\n");
    let lines = ids.iter().filter(|&&b| b == b'\n').count() + 1;
    write(&rb, "ids.txt", bad);
    let o = with_rulebook(t.path(), &rb, &["lint"], 60);
    assert_error(&o, &format!("ids.txt:{lines}:1: not UTF-8 text"));
    write(&rb, "ids.txt", ids);
    write(&rb, "aliases.txt", b"a -> b\n\xff\n");
    let o = with_rulebook(t.path(), &rb, &["rule", "swccg.ar.no-such-section"], 60);
    assert_error(&o, "aliases.txt:2:1: not UTF-8 text");
}

#[test]
fn index_into_unwritable_folder_is_an_error_not_a_claim() {
    let t = TempDir::new("cli-index-file");
    let f = write(t.path(), "afile", "x");
    // It used to print "indexed N sections (…/afile)" and exit 0, having built
    // the index only in memory.
    for (dir, needle) in [
        (f.clone(), "it is a file, not a folder"),
        (f.join("sub"), "cannot write the index folder"),
    ] {
        let mut c = swjudge(t.path());
        c.env("SWJUDGE_INDEX", &dir).args(["index"]);
        assert_error(&run_within(c, 120), needle);
    }
    assert_eq!(std::fs::read(&f).unwrap(), b"x", "file untouched");
}

#[test]
fn convert_bad_folders_are_one_line() {
    let t = TempDir::new("cli-convert-dirs");
    let f = write(t.path(), "afile", "x");
    let o = sj(
        t.path(),
        &["convert", "--seeds", s(&f), "--out", s(&t.path().join("o"))],
    );
    assert_error(&o, "not a folder of seed text files");
    let o = sj(
        t.path(),
        &["convert", "--seeds", s(t.path()), "--out", s(&f)],
    );
    assert_error(&o, "is a file, not a folder");
    // No corrections: used to fail with "SWTCG rulebook: heading … not found".
    let empty = t.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = sj(
        t.path(),
        &["convert", "--seeds", s(t.path()), "--out", s(&empty)],
    );
    assert_error(&o, "no corrections folder");
}

#[test]
fn convert_keeps_an_unreadable_ids_list() {
    let Some(seeds) = crate::util::seeds() else {
        return;
    };
    let t = TempDir::new("cli-convert-ids");
    let rb = copy_rulebook(t.path());
    let mut ids = std::fs::read(rb.join("ids.txt")).unwrap();
    ids.extend_from_slice(b"swccg.ar.kept-\xff\n");
    write(&rb, "ids.txt", &ids);
    let o = sj(
        t.path(),
        &["convert", "--seeds", s(&seeds), "--out", s(&rb)],
    );
    assert_error(&o, "ids.txt:");
    assert_eq!(
        std::fs::read(rb.join("ids.txt")).unwrap(),
        ids,
        "ids.txt untouched"
    );
}

#[test]
fn convert_stops_before_writing_when_a_folder_is_in_the_way() {
    let Some(seeds) = crate::util::seeds() else {
        return;
    };
    let t = TempDir::new("cli-convert-blocked");
    let rb = copy_rulebook(t.path());
    let before = std::fs::read(rb.join("ids.txt")).unwrap();
    std::fs::remove_file(rb.join("swtcg/rulebook.md")).unwrap();
    std::fs::create_dir_all(rb.join("swtcg/rulebook.md/x")).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    let start = std::time::SystemTime::now();
    let o = sj(
        t.path(),
        &["convert", "--seeds", s(&seeds), "--out", s(&rb)],
    );
    assert_error(&o, "rulebook.md: is a folder");
    assert_eq!(std::fs::read(rb.join("ids.txt")).unwrap(), before);
    let md = rb.join("swccg/ar-06-battles.md");
    let modified = std::fs::metadata(&md).unwrap().modified().unwrap();
    assert!(modified < start, "{} was rewritten", md.display());
}

#[test]
fn convert_json_reports_counts() {
    let Some(seeds) = crate::util::seeds() else {
        return;
    };
    let t = TempDir::new("cli-convert-json");
    let rb = copy_rulebook(t.path());
    let o = sj(
        t.path(),
        &["--json", "convert", "--seeds", s(&seeds), "--out", s(&rb)],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    assert!(v["sections"].as_u64().is_some_and(|n| n > 1000), "{v}");
    assert_eq!(v["new_ids"], 0, "{v}");
}

#[test]
fn import_rejects_huge_titles_so_lookup_stays_fast() {
    let t = TempDir::new("cli-import-title");
    let mut v: serde_json::Value = serde_json::from_slice(
        &std::fs::read(root().join("tests/fixtures/cards/swccg-light.json")).unwrap(),
    )
    .unwrap();
    let cards = v["cards"].as_array_mut().expect("cards array");
    let n = cards.len();
    let long = "x".repeat(100_000);
    cards[0]["front"]["title"] = serde_json::Value::String(format!("Luke {long}"));
    let p = write(t.path(), "long.json", serde_json::to_vec(&v).unwrap());
    let o = sj(t.path(), &["--json", "cards", "import", s(&p)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["imported"], n - 1, "{r}");
    let reason = r["files"][0]["rejected"][0]["reason"]
        .as_str()
        .unwrap_or_default();
    assert!(reason.contains("the limit is 200"), "{r}");
    // With the 100,000-character title stored, this lookup took over 30 s.
    let o = run_within(
        {
            let mut c = swjudge(t.path());
            c.args(["card", "luke"]);
            c
        },
        30,
    );
    assert!(code(&o) < 2, "{}", stderr(&o));
}

#[test]
fn check_huge_draw_count_ends_without_allocating() {
    let t = TempDir::new("cli-check-draws");
    let text =
        std::fs::read_to_string(root().join("scenarios/swccg/values/failed-destiny-draw.yaml"))
            .expect("the failed destiny draw scenario exists");
    assert!(
        text.contains("{destiny_total: {to_total"),
        "fixture changed: {text}"
    );
    // 999,999,999 planned draws once aborted with "memory allocation of 55999999944 bytes
    // failed"; draws are made one at a time, and a run always ends (its step limit).
    let p = write(
        t.path(),
        "d.yaml",
        text.replace(
            "{destiny_total: {to_total",
            "{destiny_total: {draws: 999999999, to_total",
        ),
    );
    let o = run_within(
        {
            let mut c = swjudge(t.path());
            c.args(["check", s(&p)]);
            c
        },
        30,
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
}

#[test]
fn test_fifo_argument_is_named_as_such() {
    let t = TempDir::new("cli-test-fifo");
    let p = t.path().join("pipe.yaml");
    if !mkfifo(&p) {
        eprintln!("mkfifo unavailable; skipped");
        return;
    }
    // It used to say "no such file or directory" about a path that exists.
    assert_error(
        &sj(t.path(), &["test", s(&p)]),
        "not a regular file or folder",
    );
}

#[test]
fn card_see_also_overflow_is_a_usage_error() {
    let t = TempDir::new("cli-see-also");
    // `--see-also 18446744073709551615` panicked: "attempt to multiply with overflow".
    let o = sj(
        t.path(),
        &["card", "yoda", "--see-also", "18446744073709551615"],
    );
    assert_error(&o, "expected a number from 0 to 200");
    let o = sj(t.path(), &["card", "yoda", "--see-also", "201"]);
    assert_error(&o, "--see-also");
}

#[test]
fn newline_in_a_path_stays_one_error_line() {
    let t = TempDir::new("cli-newline");
    let o = sj(t.path(), &["check", "no\nsuch.yaml"]);
    assert_error(&o, "no\\nsuch.yaml");
    let o = sj(t.path(), &["test", "no\nsuch"]);
    assert_error(&o, "no\\nsuch");
    let o = sj(t.path(), &["rule", "swccg.ar.no\nsuch"]);
    assert_eq!(code(&o), 1);
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

#[test]
fn check_huge_ferocity_destiny_count_is_refused_not_allocated() {
    let t = TempDir::new("cli-check-ferocity");
    let text =
        std::fs::read_to_string(root().join("scenarios/swccg/battles/attacks-example-3.yaml"))
            .expect("the Attacks example 3 scenario exists");
    assert!(text.contains("ferocity_destinies: 1\n"), "fixture changed");
    // 4294967295 ferocity destinies aborted with "memory allocation of 240518168520 bytes failed".
    let p = write(
        t.path(),
        "a.yaml",
        text.replacen(
            "ferocity_destinies: 1\n",
            "ferocity_destinies: 4294967295\n",
            1,
        ),
    );
    let o = run_within(
        {
            let mut c = swjudge(t.path());
            c.args(["check", s(&p)]);
            c
        },
        30,
    );
    assert_error(&o, "`ferocity_destinies` is more than 64");
}

/// Every line of `text` fits `width` columns, unless it is one unbreakable word.
fn assert_fits(text: &str, width: usize) {
    for line in text.lines() {
        let n = line.chars().count();
        let one_word = !line.trim().contains(' ');
        assert!(
            n <= width || one_word,
            "line of {n} > {width}: {line}\n{text}"
        );
    }
}

#[test]
fn check_output_fits_the_width_and_never_splits_a_rule_id() {
    let tmp = TempDir::new("width");
    for cols in ["60", "100", "160"] {
        let o = swjudge(tmp.path())
            .env("COLUMNS", cols)
            .args([
                "check",
                "--trace",
                "scenarios/swccg/battles/simple-example.yaml",
            ])
            .output()
            .unwrap();
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let text = stdout(&o);
        assert_fits(&text, cols.parse().unwrap());
        let j = swjudge(tmp.path())
            .args([
                "--json",
                "check",
                "scenarios/swccg/battles/simple-example.yaml",
            ])
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
        for step in v["steps"].as_array().unwrap() {
            for id in step["cites"].as_array().unwrap() {
                let id = id.as_str().unwrap();
                assert!(
                    text.contains(id),
                    "{id} split or missing at {cols} columns:\n{text}"
                );
            }
        }
    }
}

#[test]
fn no_color_and_pipes_get_no_escapes_and_always_gets_them() {
    let tmp = TempDir::new("colour");
    let run = |args: &[&str], no_color: bool| {
        let mut c = swjudge(tmp.path());
        if no_color {
            c.env("NO_COLOR", "1");
        }
        stdout(&c.args(args).output().unwrap())
    };
    for args in [
        &["rule", "swccg.ar.the-stack"][..],
        &["rule", "--color", "auto", "swccg.ar.the-stack"][..],
        &["--color", "never", "rule", "swccg.ar.the-stack"][..],
    ] {
        assert!(!run(args, true).contains('\x1b'));
        assert!(!run(args, false).contains('\x1b'));
    }
    let always = run(&["--color", "always", "rule", "swccg.ar.the-stack"], false);
    assert!(always.contains("\x1b[1m"), "{always}");
    let bad = swjudge(tmp.path())
        .args(["--color", "sometimes", "rule", "x"])
        .output()
        .unwrap();
    assert_eq!(code(&bad), 2);
}

#[test]
fn rule_renders_markdown_resolves_case_variants_silently_and_drops_dead_ends() {
    let tmp = TempDir::new("rulemd");
    let o = swjudge(tmp.path())
        .args(["rule", "SWCCG.AR.THE-STACK"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0);
    assert_eq!(stderr(&o), "", "a case variant is not a rename");
    assert!(stdout(&o).starts_with("swccg.ar.the-stack — The Stack\n"));
    let all: String = ["swccg.ar.the-stack", "destiny.rr.modifier"]
        .iter()
        .map(|id| stdout(&swjudge(tmp.path()).args(["rule", id]).output().unwrap()))
        .collect();
    assert!(!all.contains("**") && !all.contains("{#"), "{all}");
    let o = swjudge(tmp.path())
        .args(["rule", "swtcg.rb.overkill"])
        .output()
        .unwrap();
    assert!(
        !stdout(&o).contains("not found in the rulebook"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn json_commands_print_json_on_every_path_with_the_same_exit_codes() {
    let tmp = TempDir::new("jsonpaths");
    let empty = tmp.path().join("no-scenarios");
    std::fs::create_dir_all(&empty).unwrap();
    let cases: &[(&[&str], i32)] = &[
        (&["--json", "test", empty.to_str().unwrap()], 1),
        (&["--json", "rule", "no.such.section"], 1),
        (&["--json", "rule", "swccg.ar.the-stack"], 0),
        (&["--json", "card", "zzzz qqqq"], 1),
        (&["--json", "check", "no/such/file.yaml"], 2),
        (&["--json", "rule", ""], 2),
        (&["--json", "nonsense-command"], 2),
        (&["--json", "coverage", "--game", "swtcg"], 0),
    ];
    for (args, want) in cases {
        let o = swjudge(tmp.path()).args(*args).output().unwrap();
        assert_eq!(code(&o), *want, "{args:?}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: stdout is not JSON ({e}): {}", stdout(&o)));
        if *want == 2 {
            assert!(v["error"].is_string(), "{args:?}: {v}");
        }
    }
}

#[test]
fn the_built_in_rulebook_works_from_anywhere_and_rulebook_dir_overrides_it() {
    let tmp = TempDir::new("anywhere");
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let o = swjudge(tmp.path())
        .current_dir(&elsewhere)
        .args(["rule", "swccg.ar.the-stack"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // unpacked into the cache given, not beside the binary or in the user's cache
    let unpacked = tmp.path().join("cache").join("rulebook");
    let copies: Vec<_> = std::fs::read_dir(&unpacked).unwrap().collect();
    assert_eq!(copies.len(), 1);
    let o = swjudge(tmp.path())
        .current_dir(&elsewhere)
        .env_remove("SWJUDGE_INDEX")
        .args(["search", "force drain"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(tmp.path().join("cache").join("index").is_dir());

    // an edited copy on disk, chosen by flag or environment variable
    let edited = tmp.path().join("edited");
    copy_dir(&rulebook(), &edited);
    let f = edited.join("swccg/ar-01-basics.md");
    let text = std::fs::read_to_string(&f).unwrap();
    std::fs::write(
        &f,
        text.replace(
            "The Stack is a conceptual tool",
            "The Stack is an EDITED tool",
        ),
    )
    .unwrap();
    let by_flag = swjudge(tmp.path())
        .args(["rule", "swccg.ar.the-stack", "--rulebook"])
        .arg(&edited)
        .output()
        .unwrap();
    let by_env = swjudge(tmp.path())
        .env("SWJUDGE_RULEBOOK", &edited)
        .args(["rule", "swccg.ar.the-stack"])
        .output()
        .unwrap();
    for o in [by_flag, by_env] {
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(stdout(&o).contains("EDITED tool"), "{}", stdout(&o));
    }
}

#[test]
fn coverage_counts_examples_per_game_and_lists_unreproducible_apart() {
    let tmp = TempDir::new("coverage");
    let run = |args: &[&str]| {
        let o = swjudge(tmp.path()).args(args).output().unwrap();
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let all = run(&["--json", "coverage"]);
    let games: Vec<&str> = all["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    assert_eq!(games, ["swccg", "destiny", "swtcg"]);
    for g in all["games"].as_array().unwrap() {
        let n = |k: &str| g[k].as_u64().unwrap();
        assert_eq!(
            n("examples"),
            n("covered") + n("not_covered") + n("cannot_be_reproduced")
        );
    }
    assert!(
        all["games"][0]["covered"].as_u64().unwrap() > 40,
        "{}",
        all["games"]
    );
    // every entry of scenarios/unreproducible.tsv names an example, reported apart
    assert_eq!(all["warnings"], serde_json::json!([]));
    let apart: Vec<&str> = all["examples"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["status"] == "cannot-be-reproduced")
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert!(apart.contains(&"swccg.ar.force-icons-example"), "{apart:?}");
    let missing = run(&["--json", "coverage", "--missing", "--game", "swccg"]);
    let list = missing["examples"].as_array().unwrap();
    assert!(!list.is_empty());
    assert!(
        list.iter()
            .all(|e| e["status"] == "not-covered" && e["game"] == "swccg")
    );
    let text = stdout(&swjudge(tmp.path()).args(["coverage"]).output().unwrap());
    assert!(
        text.contains("Cannot be reproduced (") && text.contains("illegible"),
        "{text}"
    );
}

/// `coverage --census` counts a rules team's census of cases against the scenarios'
/// `source:`, the N-th case of one section being `SECTION#N`.
#[test]
fn coverage_counts_a_census_by_game_and_area() {
    let tmp = TempDir::new("census");
    let census = tmp.path().join("census.tsv");
    std::fs::write(
        &census,
        "game\tname\tsection_id\ttopic\n\
         swccg\tActions 1\tswccg.ar.actions-example-1\tactions\n\
         swccg\tNowhere\tswccg.ar.no-such-example\tactions/passing\n\
         swccg\tSecond case\tswccg.ar.actions-example-1\tstack\n",
    )
    .unwrap();
    let c = census.to_str().unwrap();
    let o = swjudge(tmp.path())
        .args(["--json", "coverage", "--census", c])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"][0]["cases"], 3, "{v}");
    assert_eq!(v["games"][0]["covered"], 1, "{v}");
    let ids: Vec<&str> = v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["scenarios"].as_array().unwrap().is_empty())
        .map(|x| x["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["swccg.ar.no-such-example", "swccg.ar.actions-example-1#2"]
    );
    let actions = v["areas"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["area"] == "actions")
        .unwrap();
    assert_eq!(
        (actions["cases"].as_u64(), actions["covered"].as_u64()),
        (Some(2), Some(1))
    );
    let text = stdout(
        &swjudge(tmp.path())
            .args(["coverage", "--census", c, "--missing"])
            .output()
            .unwrap(),
    );
    assert!(
        text.contains("Not covered (2)") && text.contains("Second case [stack]"),
        "{text}"
    );
    std::fs::write(&census, "game\tname\n").unwrap();
    let o = swjudge(tmp.path())
        .args(["coverage", "--census", c])
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("section_id"), "{}", stderr(&o));
}

/// `search` follows `--color` like every other command (it used to ask the terminal itself).
#[test]
fn search_honours_color_choice() {
    let t = TempDir::new("cli-search-color");
    let on = sj(t.path(), &["--color", "always", "search", "battle destiny"]);
    assert_eq!(code(&on), 0, "{}", stderr(&on));
    assert!(
        stdout(&on).contains('\u{1b}'),
        "no emphasis with --color always"
    );
    let off = sj(t.path(), &["--color", "never", "search", "battle destiny"]);
    assert_eq!(code(&off), 0, "{}", stderr(&off));
    assert!(
        !stdout(&off).contains('\u{1b}'),
        "emphasis with --color never"
    );
}
