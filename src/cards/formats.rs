//! Star Wars: Destiny formats from SWDestinyDB's `formats.json`: each format's
//! code and name, its sets, banned and restricted cards, restricted pairs and
//! balance-of-the-Force point changes.
//!
//! `cards import formats.json` stores them beside the card data, as a stored
//! source with no cards and a `formats` list (so the card loader reads it as an
//! empty source); [`load`] reads them back for `swjudge deck`.

use super::import::{Format, Parsed, Rejected, strings};
use super::{SourceFile, destiny};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One format, as `swjudge deck --format` checks it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckFormat {
    /// `STD`, `TRI`, `INF`...
    pub code: String,
    /// `Standard`, `Trilogy`...
    pub name: String,
    /// The sets allowed, as (code, name) pairs.
    pub sets: Vec<(String, String)>,
    /// Card codes no deck of this format may include.
    #[serde(default)]
    pub banned: Vec<String>,
    /// Card codes of the restricted list: a team and deck may include one of them.
    #[serde(default)]
    pub restricted: Vec<String>,
    /// Card codes that may not be included together with the listed codes.
    #[serde(default)]
    pub restricted_pairs: Vec<(String, Vec<String>)>,
    /// Point values that replace a character's printed ones (`"10/14"`).
    #[serde(default)]
    pub balance: Vec<(String, String)>,
    /// The file it was imported from.
    pub file: String,
}

impl DeckFormat {
    /// The format's balance-of-the-Force points for a card code, if it changes them.
    pub fn balance_of(&self, code: &str) -> Option<&str> {
        self.balance
            .iter()
            .find(|(c, _)| c == code)
            .map(|(_, p)| p.as_str())
    }

    /// Whether a set (by code or by name) is in the format.
    pub fn has_set(&self, set: &str) -> bool {
        self.sets
            .iter()
            .any(|(c, n)| c.eq_ignore_ascii_case(set) || n.eq_ignore_ascii_case(set))
    }

    /// Whether `query` is this format's code or name, in any case.
    pub fn is_named(&self, query: &str) -> bool {
        let q = query.trim();
        self.code.eq_ignore_ascii_case(q) || self.name.eq_ignore_ascii_case(q)
    }
}

/// A stored formats file: a stored source with no cards, and the formats.
#[derive(Debug, Serialize, Deserialize)]
struct Stored {
    format: String,
    file: String,
    cards: Vec<Value>,
    formats: Vec<DeckFormat>,
}

/// Is this SWDestinyDB's `formats.json`? (an array of objects with a `code` and
/// a `data` object, one at least holding `sets`)
pub fn looks_like(v: &Value) -> bool {
    v.as_array().is_some_and(|a| {
        a.iter().all(|f| {
            f.get("code").is_some_and(Value::is_string)
                && f.get("data").is_some_and(Value::is_object)
        }) && a
            .iter()
            .any(|f| f.get("data").and_then(|d| d.get("sets")).is_some())
    })
}

/// Read every format of the file; a format without a usable code or set list is
/// rejected with its position.
pub fn parse(v: &Value, file: &str, set_names: &Value) -> (Vec<DeckFormat>, Vec<Rejected>) {
    let names = destiny::set_names(set_names);
    let mut out = Vec::new();
    let mut rejected = Vec::new();
    for (i, f) in v.as_array().into_iter().flatten().enumerate() {
        let code = f.get("code").and_then(Value::as_str).unwrap_or("").trim();
        let data = f.get("data").filter(|d| d.is_object());
        let (false, Some(data)) = (code.is_empty(), data) else {
            rejected.push(Rejected {
                id: format!("format {}", i + 1),
                reason: "missing \"code\" or \"data\"".into(),
            });
            continue;
        };
        let sets = strings(data.get("sets"));
        if sets.is_empty() {
            rejected.push(Rejected {
                id: format!("format {code}"),
                reason: "\"data.sets\" is not a list of set codes".into(),
            });
            continue;
        }
        let pairs = data
            .get("restrictedPairs")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), strings(Some(v))))
                    .collect()
            })
            .unwrap_or_default();
        let balance = data
            .get("balance")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| v.as_str().map(|p| (k.clone(), p.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        out.push(DeckFormat {
            code: code.to_string(),
            name: f
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or(code)
                .to_string(),
            sets: sets
                .into_iter()
                .map(|c| {
                    let n = names.get(&c).cloned().unwrap_or_else(|| c.clone());
                    (c, n)
                })
                .collect(),
            banned: strings(data.get("banned")),
            restricted: strings(data.get("restricted")),
            restricted_pairs: pairs,
            balance,
            file: file.to_string(),
        });
    }
    (out, rejected)
}

/// The import of a formats file: no cards, its formats kept for [`stored_json`].
pub fn parsed(path: &Path, v: &Value, file: String, set_names: &Value) -> Parsed {
    let (formats, rejected) = parse(v, &file, set_names);
    Parsed {
        path: path.to_path_buf(),
        format: Format::DestinyFormats,
        source: SourceFile {
            format: Format::DestinyFormats.as_str().into(),
            file,
            cards: Vec::new(),
        },
        rejected,
        formats,
    }
}

/// The stored form of a parsed file: its source, and its formats when it has any.
pub fn stored_json(p: &Parsed) -> Result<Vec<u8>> {
    let res = if p.formats.is_empty() {
        serde_json::to_vec(&p.source)
    } else {
        serde_json::to_vec(&Stored {
            format: p.source.format.clone(),
            file: p.source.file.clone(),
            cards: Vec::new(),
            formats: p.formats.clone(),
        })
    };
    res.map_err(|e| Error::Input(format!("{}: {e}", p.path.display())))
}

/// The stored JSON files under `<data_dir>/cards/` whose names `keep` accepts,
/// sorted; none when nothing was imported.
pub fn stored_files(data_dir: &Path, keep: impl Fn(&str) -> bool) -> Result<Vec<PathBuf>> {
    let dir = data_dir.join("cards");
    let rd = match std::fs::read_dir(&dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(&dir, e)),
    };
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.extension().is_some_and(|e| e == "json")
                && p.file_name().is_some_and(|n| keep(&n.to_string_lossy()))
        })
        .collect();
    files.sort();
    Ok(files)
}

/// Every imported Destiny format (none when no formats file was imported).
pub fn load(data_dir: &Path) -> Result<Vec<DeckFormat>> {
    let prefix = format!("{}-", Format::DestinyFormats.as_str());
    let mut out = Vec::new();
    for p in stored_files(data_dir, |n| n.starts_with(&prefix))? {
        let text = crate::paths::read_text_file(&p, super::import::MAX_FILE_BYTES, "is a folder")?;
        let s: Stored = serde_json::from_str(&text).map_err(|e| {
            Error::Input(format!(
                "{}:{}:{}: stored formats are unreadable ({e}); re-import formats.json",
                p.display(),
                e.line(),
                e.column()
            ))
        })?;
        out.extend(s.formats);
    }
    Ok(out)
}
