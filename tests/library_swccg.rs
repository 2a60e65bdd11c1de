//! SWCCG library cards whose text shipped scenarios exercise: cards with an encoded
//! sentence that a shipped SWCCG scenario names from the library (as a card, or as a
//! board location).

use std::collections::BTreeSet;
use swjudge::engine::swccg::library;

/// SWCCG library cards with encoded text that a shipped scenario names, by reference
/// or by title: at least this many (the target was 600 cards, each with a
/// scenario that exercises its text).
const NAMED_ENCODED_CARDS: usize = 1203;

/// What every shipped SWCCG board names from the library: each entry of its `cards:`
/// that is a bare reference or title, or a mapping with `card:`.
fn named_by_shipped_boards() -> BTreeSet<String> {
    let dir = crate::util::root().join("scenarios").join("swccg");
    let mut named = BTreeSet::new();
    for f in swjudge::scenario::find_files(&[dir]).unwrap() {
        let text = std::fs::read_to_string(&f).unwrap();
        let doc: serde_json::Value =
            serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        // A board location names a location card with `card:`.
        if let Some(locations) = doc["swccg"]["locations"].as_array() {
            named.extend(
                locations
                    .iter()
                    .filter_map(|l| l["card"].as_str().map(str::to_string)),
            );
        }
        let Some(cards) = doc["swccg"]["cards"].as_object() else {
            continue;
        };
        for v in cards.values() {
            let name = v.as_str().or_else(|| v["card"].as_str());
            named.extend(name.map(str::to_string));
        }
    }
    named
}

#[test]
fn swccg_library_cards_with_encoded_text_are_named_by_scenarios() {
    let cat = library::catalogue().unwrap();
    let encoded = crate::library::encoded_references(cat, |d| &d.text);
    let named = named_by_shipped_boards();
    let title_of = |r: &str| {
        cat.entries
            .iter()
            .find(|e| e.reference == r)
            .map(|e| e.def.title.as_str())
    };
    let exercised = encoded
        .iter()
        .filter(|r| named.contains(**r) || title_of(r).is_some_and(|t| named.contains(t)))
        .count();
    assert!(
        exercised >= NAMED_ENCODED_CARDS,
        "{exercised} of {} encoded SWCCG library cards are named by a scenario (at least {NAMED_ENCODED_CARDS} expected)",
        encoded.len()
    );
    // A board names a card by reference or title; a title inside an inline
    // definition names nothing.
    assert!(named.contains("swccg:1112") && named.contains("Imperial Pilot"));
    assert!(!named.contains("destiny 1"));
}
