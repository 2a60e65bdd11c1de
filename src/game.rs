//! The three games. One enum serves the whole crate: the rulebook, the
//! index, card records, scenarios and engines.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The default (the SWCCG) only lets a record be built field by field; every
/// constructor names its game.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord,
)]
#[serde(rename_all = "lowercase")]
pub enum Game {
    #[default]
    Swccg,
    Destiny,
    Swtcg,
}

impl Game {
    pub const ALL: [Game; 3] = [Game::Swccg, Game::Destiny, Game::Swtcg];
    pub fn as_str(self) -> &'static str {
        match self {
            Game::Swccg => "swccg",
            Game::Destiny => "destiny",
            Game::Swtcg => "swtcg",
        }
    }
    /// The game's name as players say it.
    pub fn title(self) -> &'static str {
        match self {
            Game::Swccg => "Star Wars CCG",
            Game::Destiny => "Star Wars: Destiny",
            Game::Swtcg => "Star Wars TCG",
        }
    }
    pub fn parse(s: &str) -> Option<Game> {
        match s.to_ascii_lowercase().as_str() {
            "swccg" | "ccg" => Some(Game::Swccg),
            "destiny" | "swd" => Some(Game::Destiny),
            "swtcg" | "tcg" => Some(Game::Swtcg),
            _ => None,
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
