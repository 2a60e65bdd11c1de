//! The user's default game: `--game`, else `SWJUDGE_GAME`, else `game:` in the
//! config file (`SWJUDGE_CONFIG`, else `config.yaml` in the platform config
//! folder). It applies to `search` and `card`.

use serde::Deserialize;
use std::path::PathBuf;
use swjudge::game::Game;

/// The config file as written: unknown keys are rejected.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    /// The game `search` and `card` answer for when `--game` is not given.
    #[serde(default)]
    game: Option<String>,
}

/// A non-empty environment variable.
fn env(name: &str) -> Option<std::ffi::OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

/// The config file: `SWJUDGE_CONFIG`, else `config.yaml` in
/// `$XDG_CONFIG_HOME/swjudge` or `~/.config/swjudge` (Linux),
/// `~/Library/Application Support/swjudge` (macOS), `%APPDATA%\swjudge` (Windows).
pub fn file() -> Option<PathBuf> {
    if let Some(f) = env("SWJUDGE_CONFIG") {
        return Some(PathBuf::from(f));
    }
    let dir = if let Some(x) = env("XDG_CONFIG_HOME") {
        PathBuf::from(x)
    } else if cfg!(windows) {
        PathBuf::from(env("APPDATA")?)
    } else if cfg!(target_os = "macos") {
        PathBuf::from(env("HOME")?).join("Library/Application Support")
    } else {
        PathBuf::from(env("HOME")?).join(".config")
    };
    Some(dir.join("swjudge").join("config.yaml"))
}

/// The default game of the config file, if it names one. A missing file is no
/// default; a file that cannot be read, or names no game, is an error.
pub fn default_game() -> swjudge::Result<Option<Game>> {
    let Some(path) = file().filter(|p| p.exists()) else {
        return Ok(None);
    };
    let text = swjudge::yaml::read_text(&path)?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    let f: File = swjudge::yaml::load(&path, &text)?;
    f.game
        .map(|g| {
            super::card::parse_game(&g)
                .map_err(|e| swjudge::Error::Input(format!("{}: game: {e}", path.display())))
        })
        .transpose()
}
