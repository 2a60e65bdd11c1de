//! Where the rulebook, the index and imported card data live.

use std::path::PathBuf;

#[derive(Debug, Clone)]
pub struct Paths {
    /// The `rulebook/` folder of Markdown sources.
    pub rulebook: PathBuf,
    /// The index cache folder (gitignored contents).
    pub index: PathBuf,
    /// Where imported card databases are kept.
    pub data_dir: PathBuf,
}

impl Paths {
    /// Resolve defaults: an explicit value wins; then `./rulebook` when the current
    /// directory has one; then the `rulebook/` beside this crate's manifest.
    pub fn resolve(
        rulebook: Option<PathBuf>,
        index: Option<PathBuf>,
        data_dir: Option<PathBuf>,
    ) -> Paths {
        let rulebook = rulebook.unwrap_or_else(default_rulebook);
        let index = index.unwrap_or_else(|| match rulebook.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.join("index"),
            _ => PathBuf::from("index"),
        });
        let data_dir = data_dir.unwrap_or_else(default_data_dir);
        Paths {
            rulebook,
            index,
            data_dir,
        }
    }
}

fn default_rulebook() -> PathBuf {
    let local = PathBuf::from("rulebook");
    if local.join("ids.txt").is_file() {
        return local;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rulebook")
}

/// The platform data directory: `$XDG_DATA_HOME/swjudge`, else
/// `~/.local/share/swjudge` (`%APPDATA%\swjudge` on Windows), else `./swjudge-data`.
pub fn default_data_dir() -> PathBuf {
    if let Some(x) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(x).join("swjudge");
    }
    if cfg!(windows)
        && let Some(a) = std::env::var_os("APPDATA")
    {
        return PathBuf::from(a).join("swjudge");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(h).join(".local/share/swjudge");
    }
    PathBuf::from("swjudge-data")
}
