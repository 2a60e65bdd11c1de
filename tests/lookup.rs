//! Card lookup over every real database: famous names, nicknames and typos
//! across the three games, and references that round-trip.

use crate::util::{TempDir, code, real_data, stderr, swjudge};
use std::path::{Path, PathBuf};
use swjudge::cards::{CardDb, load_imported};

/// Import every real database (all three games) into a data folder.
fn import_everything(data: &Path, tmp: &TempDir) {
    let mut files: Vec<PathBuf> = vec![
        data.join("swccg-card-json/Light.json"),
        data.join("swccg-card-json/Dark.json"),
        data.join("swccg-card-json/LightLegacy.json"),
        data.join("swccg-card-json/DarkLegacy.json"),
    ];
    for dir in ["swdestinydb-json-data/set", "swtcg-lackey/sets"] {
        let mut more: Vec<PathBuf> = std::fs::read_dir(data.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "txt"))
            .collect();
        more.sort();
        files.extend(more);
    }
    let o = swjudge(tmp.path())
        .args(["cards", "import"])
        .args(&files)
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

fn real_db() -> Option<(CardDb, TempDir)> {
    let data = real_data()?;
    let tmp = TempDir::new("lookup-real");
    import_everything(&data, &tmp);
    let files = load_imported(&tmp.path().join("data")).unwrap();
    Some((CardDb::build(files, None), tmp))
}

#[test]
fn famous_names_nicknames_and_typos_find_the_intended_card() {
    let Some((db, _tmp)) = real_db() else { return };
    let list = std::fs::read_to_string(crate::util::root().join("tests/data/lookups.tsv")).unwrap();
    let mut missed = Vec::new();
    let mut n = 0;
    for line in list
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (query, want) = line.split_once('\t').unwrap();
        n += 1;
        let l = db.lookup(query, None);
        let opened = l.chosen.into_iter().chain(
            l.by_game
                .iter()
                .filter(|(_, v)| v.len() == 1)
                .map(|(_, v)| v[0]),
        );
        let offered = l.matches.iter().take(3).map(|m| m.index).chain(
            l.by_game
                .iter()
                .flat_map(|(_, v)| v.iter().take(3).copied()),
        );
        if !opened.chain(offered).any(|i| db.refs[i] == want) {
            let top: Vec<&str> = l
                .matches
                .iter()
                .take(3)
                .map(|m| m.reference.as_str())
                .collect();
            missed.push(format!("{query}: wanted {want}, got {top:?}"));
        }
    }
    assert_eq!(n, 30);
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

#[test]
fn every_reference_is_unique_and_names_its_card() {
    let Some((db, _tmp)) = real_db() else { return };
    assert!(db.cards.len() > 7000, "{}", db.cards.len());
    let mut seen = std::collections::HashSet::new();
    for (i, r) in db.refs.iter().enumerate() {
        assert!(seen.insert(r.to_lowercase()), "{r} twice");
        let l = db.lookup(r, None);
        assert_eq!(l.chosen, Some(i), "{r} opens another card");
    }
}
