//! Where the rulebook, the index and imported card data live.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

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

/// Read a regular file of at most `limit` bytes. A folder (message: `"<path>: <folder_msg>"`),
/// FIFO or device is refused up front: reading one would fail late, block, or never end.
pub fn read_regular_file(path: &Path, limit: u64, folder_msg: &str) -> Result<Vec<u8>> {
    use std::io::Read as _;
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if meta.is_dir() {
        return Err(Error::Input(format!("{}: {folder_msg}", path.display())));
    }
    if !meta.is_file() {
        return Err(Error::Input(format!(
            "{}: not a regular file",
            path.display()
        )));
    }
    let too_big = |n: u64| {
        Error::Input(format!(
            "{}: file is {n} bytes; the limit is {limit} bytes",
            path.display()
        ))
    };
    if meta.len() > limit {
        return Err(too_big(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}
