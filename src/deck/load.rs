//! The imported card data a deck check needs: only the stored sources of the
//! deck's game when it is known (each stored file is named after its format,
//! `swccg-…`, `destiny-…`, `swtcg-…`), every source otherwise.

use crate::cards::SourceFile;
use crate::cards::formats::stored_files;
use crate::cards::import::Format;
use crate::error::{Error, Result};
use crate::game::Game;
use std::path::Path;

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
    stored_files(data_dir, |n| holds(n, game))?
        .iter()
        .map(|p| {
            let text = Error::read_text(p)?;
            serde_json::from_str::<SourceFile>(&text).map_err(|e| {
                Error::Input(format!(
                    "{}:{}:{}: stored card data is unreadable ({e}); re-import it",
                    p.display(),
                    e.line(),
                    e.column()
                ))
            })
        })
        .collect()
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
