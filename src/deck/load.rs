//! The imported card data a deck check needs: only the stored sources of the
//! deck's game when it is known (each stored file is named after its format,
//! `swccg-…`, `destiny-…`, `swtcg-…`), every source otherwise.

use crate::cards::SourceFile;
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
    let dir = data_dir.join("cards");
    let rd = match std::fs::read_dir(&dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(&dir, e)),
    };
    let mut files: Vec<_> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.extension().is_some_and(|e| e == "json")
                && p.file_name()
                    .is_some_and(|n| holds(&n.to_string_lossy(), game))
        })
        .collect();
    files.sort();
    files
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
