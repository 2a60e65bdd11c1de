//! `swjudge deck` on a 60-card deck, whole process (the release binary, as a
//! judge runs it) and in process (read, load the cards, check).
//!
//! With `SWJUDGE_REAL_DATA=/path/to/data` (the folder holding
//! `swccg-card-json`, `swdestinydb-json-data` and `swtcg-lackey`) every real
//! database is imported first, and the decks are built from real cards: a
//! 60-card SWCCG deck as a GEMP file (its game known from the file) and as a
//! plain list (its game told from its names, so every game's cards are read),
//! and a 60-card SWTCG list, a Destiny team with its 30-card deck, and
//! `swjudge card` on an exact name beside them (the same exact lookup; it
//! reads every card and the rulebook). Without it, the test fixtures are used.
//! A check reads the cards through the name index the import writes.
//!
//! Target: 20 ms or less, whole process, with the databases imported.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use swjudge::cards::{CardDb, import};
use swjudge::deck::{self, Options};
use swjudge::game::Game;

const RUNS: usize = 40;
const TARGET: Duration = Duration::from_millis(20);

fn fail(msg: &str) -> ! {
    eprintln!("bench deck: {msg}");
    std::process::exit(2)
}

fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| fail(&format!("{}: {e}", dir.display())))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

/// Every real database: SWCCG Light and Dark, every Destiny set and the
/// formats, every SWTCG set.
fn real_files(root: &Path) -> Vec<PathBuf> {
    let mut v = vec![
        root.join("swccg-card-json/Light.json"),
        root.join("swccg-card-json/Dark.json"),
        root.join("swdestinydb-json-data/formats.json"),
    ];
    v.extend(files_in(&root.join("swdestinydb-json-data/set"), "json"));
    v.extend(files_in(&root.join("swtcg-lackey/sets"), "txt"));
    v
}

/// 60 cards of `game` (30 titles twice), each named by a label only it has.
fn sixty(db: &CardDb, game: Game, side: &str) -> Vec<String> {
    let mut titles: Vec<String> = Vec::new();
    for (i, c) in db.cards.iter().enumerate() {
        let t = c.card_type.as_deref().unwrap_or("");
        if c.game == game
            && c.side.as_deref() == Some(side)
            && !matches!(t, "Objective" | "Defensive Shield" | "Game Aid")
            && c.back.is_none()
            && db.labels[i] == c.title
            && db.labels.iter().filter(|l| **l == c.title).count() == 1
            && !titles.contains(&c.title)
        {
            titles.push(c.title.clone());
        }
        if titles.len() == 30 {
            break;
        }
    }
    if titles.len() < 30 {
        fail(&format!("only {} distinct {game} titles", titles.len()));
    }
    titles
}

/// A Destiny team (the first two unique Hero characters and a battlefield) and
/// 30 cards (15 Hero titles twice), each named by title and subtitle.
fn destiny_team(db: &CardDb) -> String {
    let name = |i: usize| {
        let c = &db.cards[i];
        match &c.subtitle {
            Some(s) => format!("{}, {s}", c.title),
            None => c.title.clone(),
        }
    };
    let of = |kind: &str, unique: bool, n: usize| -> Vec<String> {
        (0..db.cards.len())
            .filter(|&i| {
                let c = &db.cards[i];
                c.game == Game::Destiny
                    && c.side.as_deref() == Some("Hero")
                    && c.card_type.as_deref() == Some(kind)
                    && (!unique || c.uniqueness.is_some())
            })
            .map(name)
            .take(n)
            .collect()
    };
    let mut out = String::from("Team\n");
    for c in of("Character", true, 2) {
        out.push_str(&format!("1x {c}\n"));
    }
    out.push_str("\nDeck\n");
    for kind in ["Upgrade", "Event", "Support"] {
        for c in of(kind, false, 5) {
            out.push_str(&format!("2x {c}\n"));
        }
    }
    out
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn whole_process(exe: &Path, data: &Path, args: &[&std::ffi::OsStr], label: &str) {
    let run = || {
        let start = Instant::now();
        let o = Command::new(exe)
            .env("SWJUDGE_CACHE_DIR", data.with_file_name("cache"))
            .args(["--data-dir"])
            .arg(data)
            .args(args)
            .arg("--json")
            .output()
            .unwrap_or_else(|e| fail(&format!("run: {e}")));
        let took = start.elapsed();
        if !matches!(o.status.code(), Some(0 | 1)) {
            fail(&format!("{label}: {}", String::from_utf8_lossy(&o.stderr)));
        }
        took
    };
    run();
    let mut t: Vec<Duration> = (0..RUNS).map(|_| run()).collect();
    let med = median(&mut t);
    println!(
        "{label}: whole process median {:.1} ms, fastest {:.1} ms, slowest {:.1} ms over {RUNS} runs  [{}]",
        med.as_secs_f64() * 1e3,
        t[0].as_secs_f64() * 1e3,
        t[t.len() - 1].as_secs_f64() * 1e3,
        if args.first().is_none_or(|a| *a != "deck") {
            "no target"
        } else if med <= TARGET {
            "ok"
        } else {
            "OVER TARGET"
        }
    );
}

fn in_process(data: &Path, deck: &Path, game: Option<Game>, label: &str) {
    let mut t: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let list = deck::read::read(deck).unwrap_or_else(|e| fail(&e.to_string()));
            let g = game.or(list.game);
            let cards = deck::cards_for(data, &list, g).unwrap_or_else(|e| fail(&e.to_string()));
            let formats = swjudge::cards::formats::load(data).unwrap_or_default();
            let mut r = deck::check("bench", &list, &cards.db, &formats, &Options::default())
                .unwrap_or_else(|e| fail(&e.to_string()));
            if !cards.whole && deck::needs_every_card(&r) {
                let all = deck::every_card(data, g).unwrap_or_else(|e| fail(&e.to_string()));
                r = deck::check("bench", &list, &all.db, &formats, &Options::default())
                    .unwrap_or_else(|e| fail(&e.to_string()));
            }
            std::hint::black_box(r);
            start.elapsed()
        })
        .collect();
    println!(
        "{label}: in process median {:.1} ms",
        median(&mut t).as_secs_f64() * 1e3
    );
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_swjudge"));
    let tmp = std::env::temp_dir().join(format!("swjudge-bench-deck-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let data = tmp.join("data");
    let real = std::env::var_os("SWJUDGE_REAL_DATA").map(PathBuf::from);
    let files = match &real {
        Some(r) => real_files(r),
        None => files_in(&root.join("tests/data/decks/cards"), "json")
            .into_iter()
            .chain([root.join("tests/data/decks/cards/swtcg.txt")])
            .collect(),
    };
    let reports =
        import::import(&files, &data, false).unwrap_or_else(|e| fail(&format!("import: {e}")));
    let cards: usize = reports.iter().map(|r| r.imported).sum();
    println!(
        "\n== {cards} cards and formats imported from {} files ({})",
        files.len(),
        real.as_ref()
            .map_or("test fixtures".into(), |r| r.display().to_string())
    );
    let db = CardDb::build(deck::load_cards(&data, None).unwrap_or_default(), None);
    let ccg = sixty(&db, Game::Swccg, "Light");
    let gemp = tmp.join("light.gemp.txt");
    let mut xml = String::from("<?xml version=\"1.0\"?>\n<deck>\n");
    for t in ccg.iter().chain(&ccg) {
        let t = t.replace('&', "&amp;").replace('"', "&quot;");
        xml.push_str(&format!("  <card blueprintId=\"0_0\" title=\"{t}\"/>\n"));
    }
    xml.push_str("</deck>\n");
    std::fs::write(&gemp, xml).unwrap_or_else(|e| fail(&e.to_string()));
    let plain = tmp.join("light.txt");
    let list: String = ccg.iter().map(|t| format!("2x {t}\n")).collect();
    std::fs::write(&plain, list).unwrap_or_else(|e| fail(&e.to_string()));
    let tcg = tmp.join("tcg.txt");
    let list: String = sixty(&db, Game::Swtcg, "Light")
        .iter()
        .map(|t| format!("2 x {t}\n"))
        .collect();
    std::fs::write(&tcg, list).unwrap_or_else(|e| fail(&e.to_string()));
    let team = tmp.join("destiny.txt");
    std::fs::write(&team, destiny_team(&db)).unwrap_or_else(|e| fail(&e.to_string()));
    for (deck, game, label) in [
        (&gemp, Some(Game::Swccg), "SWCCG 60 cards, GEMP file"),
        (
            &plain,
            None,
            "SWCCG 60 cards, plain list, game told from its names",
        ),
        (
            &tcg,
            None,
            "SWTCG 60 cards, plain list, game told from its names",
        ),
        (
            &team,
            None,
            "Destiny team and 30 cards, plain list, game told from its names",
        ),
    ] {
        whole_process(&exe, &data, &["deck".as_ref(), deck.as_os_str()], label);
        in_process(&data, deck, game, label);
    }
    let name = ccg[0].as_str();
    whole_process(
        &exe,
        &data,
        &["card".as_ref(), name.as_ref()],
        &format!("swjudge card {name:?} (for comparison)"),
    );
    let _ = std::fs::remove_dir_all(&tmp);
}
