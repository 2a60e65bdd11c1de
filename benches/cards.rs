//! Card benchmarks: fuzzy lookup over ~10,000 names (target ≤ 5 ms per lookup)
//! and importing the full SWCCG and Destiny databases (target ≤ 2 s).
//!
//! With `SWJUDGE_REAL_DATA=/path/to/data` the real community files are used
//! (`swccg-card-json/{Light,Dark}.json`, `swdestinydb-json-data/set/*.json`);
//! otherwise generated files of the same size and shape.
//!
//! Run: `cargo bench --bench cards`

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use swjudge::cards::{CardDb, import};

const LOOKUP_TARGET: Duration = Duration::from_millis(5);
const IMPORT_TARGET: Duration = Duration::from_secs(2);

const FIRST: &[&str] = &[
    "Luke",
    "Han",
    "Leia",
    "Obi-Wan",
    "Qui-Gon",
    "Darth",
    "Admiral",
    "Captain",
    "General",
    "Commander",
    "Lieutenant",
    "Boba",
    "Jabba's",
    "Lando",
    "Chewbacca",
    "Wedge",
    "Biggs",
    "Mara",
    "Grand Moff",
    "Emperor",
    "Master",
    "Young",
    "Dark",
    "Rebel",
    "Imperial",
    "Echo",
    "Gold",
    "Red",
    "Black",
    "Blue",
    "Rogue",
    "Death Star",
    "Cloud City",
    "Jedi",
    "Sith",
    "Bounty",
    "Hunter",
    "Trooper",
];
const SECOND: &[&str] = &[
    "Skywalker",
    "Solo",
    "Organa",
    "Kenobi",
    "Jinn",
    "Vader",
    "Motti",
    "Piett",
    "Needa",
    "Rieekan",
    "Fett",
    "Palace",
    "Calrissian",
    "Antilles",
    "Darklighter",
    "Jade",
    "Tarkin",
    "Palpatine",
    "Yoda",
    "Squadron",
    "Fleet",
    "Base",
    "Trooper",
    "Cannon",
    "Blaster",
    "Lightsaber",
    "Cape",
    "Journal",
    "Rifle",
    "Pistol",
    "Docking Bay",
    "Throne Room",
    "Command",
    "Shuttle",
    "Walker",
    "Speeder",
];
const THIRD: &[&str] = &[
    "",
    "",
    "",
    "",
    "With Lightsaber",
    "Of The Force",
    "In Mist Hunter",
    "Jedi Knight",
    "Rebel Scout",
    "The Last Jedi",
    "Heavy Blaster",
    "Secret Plans",
    "Strike Force",
    "Enforcer",
    "Of Ability",
    "Leader",
];
const SUFFIX: &[&str] = &["", "", "", "", " (V)", " (AI)", " (Premiere)", " (V) (AI)"];

/// Deterministic pseudo-random numbers (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.next() % xs.len()]
    }
}

fn generated_name(rng: &mut Rng) -> String {
    let mut n = format!("{} {}", rng.pick(FIRST), rng.pick(SECOND));
    let t = rng.pick(THIRD);
    if !t.is_empty() {
        n = format!("{n} {t}");
    }
    n.push_str(rng.pick(SUFFIX));
    n
}

/// A Players Committee-shaped file with `n` cards.
fn generated_swccg(n: usize, side: &str, rng: &mut Rng) -> Value {
    let cards: Vec<Value> = (0..n)
        .map(|i| {
            json!({
                "id": i + if side == "Light" { 0 } else { 100_000 },
                "gempId": format!("1_{i}"),
                "side": side,
                "set": "1",
                "rarity": "R",
                "legacy": false,
                "printings": [{"set": "1"}],
                "abbr": if i % 10 == 0 { json!([format!("Nick {i}")]) } else { json!(null) },
                "rulings": if i % 6 == 0 { json!(["A ruling about this card that runs to a sentence or two of text."]) } else { json!(null) },
                "front": {
                    "title": format!("•{}", generated_name(rng)),
                    "type": "Character", "subType": "Rebel",
                    "power": "3", "ability": "2", "deploy": "4", "forfeit": "5", "destiny": "2",
                    "icons": ["Warrior", "Pilot"],
                    "characteristics": ["leader"],
                    "gametext": "Adds 2 to power of anything he pilots. Once per turn, may use 1 Force to draw the top card of your Reserve Deck. Immune to attrition < 4.",
                    "lore": "Lore text of moderate length describing the character's background in the Star Wars universe.",
                    "imageUrl": "https://example.invalid/card.gif"
                }
            })
        })
        .collect();
    json!({ "cards": cards })
}

/// An SWDestinyDB-shaped set file with `n` cards.
fn generated_destiny(code: &str, n: usize, rng: &mut Rng) -> Value {
    let faces = [
        "1RD", "2RD", "+1MD", "3RD1", "Sp", "-", "1Sh", "2R", "1F", "1Dc", "XID", "+2*1",
    ];
    let cards: Vec<Value> = (0..n)
        .map(|i| {
            let die: Vec<&str> = (0..6).map(|_| faces[rng.next() % faces.len()]).collect();
            json!({
                "affiliation_code": "hero", "code": format!("{code}{i:03}"), "deck_limit": 2, "faction_code": "blue",
                "has_die": i % 2 == 0, "has_errata": false, "is_unique": false, "name": generated_name(rng),
                "position": i + 1, "rarity_code": "R", "set_code": code, "cost": 2,
                "sides": if i % 2 == 0 { json!(die) } else { json!(null) },
                "text": "Power Action - Deal 1 damage to a character. Then you may reroll this die.",
                "ttscardid": "0000", "type_code": "upgrade"
            })
        })
        .collect();
    Value::Array(cards)
}

fn real_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![
        root.join("swccg-card-json/Light.json"),
        root.join("swccg-card-json/Dark.json"),
    ];
    let mut sets: Vec<PathBuf> = std::fs::read_dir(root.join("swdestinydb-json-data/set"))
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect()
        })
        .unwrap_or_default();
    sets.sort();
    files.extend(sets);
    files
}

fn generated_files(dir: &Path, rng: &mut Rng) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir.join("set")).expect("temp dir");
    let mut files = Vec::new();
    for (name, n, side) in [("Light.json", 1939, "Light"), ("Dark.json", 1858, "Dark")] {
        let p = dir.join(name);
        std::fs::write(
            &p,
            serde_json::to_vec(&generated_swccg(n, side, rng)).expect("json"),
        )
        .expect("write");
        files.push(p);
    }
    for s in 0..18 {
        let code = format!("S{s:02}");
        let p = dir.join("set").join(format!("{code}.json"));
        std::fs::write(
            &p,
            serde_json::to_vec(&generated_destiny(&code, 113, rng)).expect("json"),
        )
        .expect("write");
        files.push(p);
    }
    files
}

fn verdict(ok: bool) -> &'static str {
    if ok { "ok" } else { "OVER TARGET" }
}

fn main() {
    let mut rng = Rng(0x5eed_cafe_f00d);
    let tmp = std::env::temp_dir().join(format!("swjudge-bench-cards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let real = std::env::var_os("SWJUDGE_REAL_DATA").map(PathBuf::from);
    let (files, what) = match &real {
        Some(root) => (real_files(root), "real SWCCG + Destiny files"),
        None => (
            generated_files(&tmp.join("src"), &mut rng),
            "generated files (3,797 SWCCG + 2,034 Destiny cards)",
        ),
    };

    // Import: best of 3.
    let data = tmp.join("data");
    let mut best = Duration::MAX;
    let mut imported = 0;
    for _ in 0..3 {
        let t = Instant::now();
        let reports = import::import(&files, &data, false).expect("import");
        best = best.min(t.elapsed());
        imported = reports.iter().map(|r| r.imported).sum::<usize>();
    }
    println!(
        "import {} files, {imported} cards ({what}): {:.1} ms (target ≤ {} ms) {}",
        files.len(),
        best.as_secs_f64() * 1000.0,
        IMPORT_TARGET.as_millis(),
        verdict(best <= IMPORT_TARGET)
    );

    // Load the stored data; with generated data, top up to ~10,000 names.
    let t = Instant::now();
    let mut sources = swjudge::cards::load_imported(&data).expect("load");
    let load = t.elapsed();
    let count: usize = sources.iter().map(|s| s.cards.len()).sum();
    if count < 10_000 {
        let extra: Vec<swjudge::cards::Card> = (count..10_000)
            .map(|i| {
                swjudge::cards::Card::new(
                    swjudge::rulebook::Game::Swtcg,
                    &i.to_string(),
                    &generated_name(&mut rng),
                    format!("gen#{i}"),
                )
            })
            .collect();
        sources.push(swjudge::cards::SourceFile {
            format: "swtcg".into(),
            file: "generated".into(),
            cards: extra,
        });
    }
    let t = Instant::now();
    let db = CardDb::build(sources, None);
    let build = t.elapsed();
    println!(
        "load stored data: {:.1} ms; build name index over {} cards: {:.1} ms",
        load.as_secs_f64() * 1000.0,
        db.len(),
        build.as_secs_f64() * 1000.0
    );

    let queries = [
        "4lom",
        "quigon",
        "han heavy blaster",
        "obi wans cape",
        "Luke (V)",
        "admrial moti",
        "luke skywalkr",
        "darth vader",
        "millenium falcon",
        "death star",
        "jedi knight",
        "boba fett with lightsaber",
        "zzzz qqqq",
        "echo base trooper",
        "farmboy luke v",
        "Leia Organa (V) (AI)",
    ];
    let rounds = 5;
    let mut worst = Duration::ZERO;
    let t = Instant::now();
    for _ in 0..rounds {
        for q in queries {
            let s = Instant::now();
            let l = db.lookup(q, None);
            std::hint::black_box(&l);
            worst = worst.max(s.elapsed());
        }
    }
    let mean = t.elapsed() / (rounds * queries.len()) as u32;
    println!(
        "fuzzy lookup over {} names ({} queries × {rounds}): mean {:.2} ms, worst {:.2} ms (target ≤ {} ms) {}",
        db.len(),
        queries.len(),
        mean.as_secs_f64() * 1000.0,
        worst.as_secs_f64() * 1000.0,
        LOOKUP_TARGET.as_millis(),
        verdict(mean <= LOOKUP_TARGET)
    );
    let _ = std::fs::remove_dir_all(&tmp);
}
