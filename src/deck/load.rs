//! The imported card data a deck check needs. Through the name index
//! ([`NameIndex`]), only the records the deck's names can find; without it,
//! only the stored sources of the deck's game when it is known (each stored
//! file is named after its format, `swccg-…`, `destiny-…`, `swtcg-…`), every
//! source otherwise.

use super::{DeckList, Report};
use crate::cards::import::Format;
use crate::cards::name_index::NameIndex;
use crate::cards::{CardDb, SourceFile};
use crate::error::Result;
use crate::game::Game;
use std::path::Path;

/// The cards a deck check reads.
pub struct DeckCards {
    pub db: CardDb,
    /// Every stored card of the game is in `db` (not only those the names find).
    pub whole: bool,
    /// How many cards of the game (of every game, when it is not known) are stored.
    pub stored: usize,
}

/// The cards a check of `list` as a deck of `game` (any game when `None`)
/// reads: every card an exact lookup of one of its names or references, or of
/// its sets and positions, can find, read through the name index. Every
/// stored card of the game when there is no usable index.
pub fn cards_for(data_dir: &Path, list: &DeckList, game: Option<Game>) -> Result<DeckCards> {
    if let Some(ix) = NameIndex::open(data_dir) {
        let mut wanted: Vec<usize> = Vec::new();
        for l in &list.lines {
            wanted.extend(ix.named(&l.name));
            if let Some(r) = &l.reference {
                wanted.extend(ix.named(r));
            }
            if let (Some(s), Some(n)) = (&l.set, &l.number) {
                wanted.extend(ix.at_set_number(s, n));
            }
        }
        wanted.retain(|&i| game.is_none_or(|g| ix.entry(i).is_some_and(|e| e.game == g)));
        if let Some(db) = ix.load(data_dir, &wanted) {
            return Ok(DeckCards {
                db,
                whole: false,
                stored: ix.count(game),
            });
        }
    }
    every_card(data_dir, game)
}

/// Every stored card of `game` (of every game when `None`).
pub fn every_card(data_dir: &Path, game: Option<Game>) -> Result<DeckCards> {
    let sources = load_cards(data_dir, game)?;
    let stored = sources.iter().map(|s| s.cards.len()).sum();
    Ok(DeckCards {
        db: CardDb::build(sources, None),
        whole: true,
        stored,
    })
}

/// Whether a report checked against only the cards a deck's names find must
/// be made again against every card: a name that found no card lists close
/// names (or its card in another game), which only every card can give.
pub fn needs_every_card(report: &Report) -> bool {
    report
        .problems
        .iter()
        .any(|p| matches!(p.check, "name.unresolved" | "name.wrong-game"))
}

/// Whether a stored file's name says it holds cards of `game`.
fn holds(name: &str, game: Option<Game>) -> bool {
    let formats = format!("{}-", Format::DestinyFormats.as_str());
    if name.starts_with(&formats) {
        return false;
    }
    game.is_none_or(|g| name.starts_with(&format!("{}-", g.as_str())))
}

/// Load the stored card sources of `game` (every game's when `None`).
pub fn load_cards(data_dir: &Path, game: Option<Game>) -> Result<Vec<SourceFile>> {
    crate::cards::load_stored(data_dir, |n| holds(n, game))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_reads_its_own_files_and_never_the_formats() {
        assert!(holds("destiny-aw.json", Some(Game::Destiny)));
        assert!(!holds("destiny-formats-formats.json", Some(Game::Destiny)));
        assert!(!holds("swccg-light.json", Some(Game::Destiny)));
        assert!(holds("swccg-light.json", None));
        assert!(!holds("destiny-formats-formats.json", None));
    }
}
