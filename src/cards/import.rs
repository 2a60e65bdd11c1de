//! `swjudge cards import`: detect the format of each file, convert its cards, and
//! store them as `<data-dir>/cards/<format>-<file stem>.json`.
//!
//! - Every file is parsed before anything is written: a malformed file fails the
//!   whole import (naming file and line:column) and leaves stored data untouched.
//! - Each stored file is written to a temporary file and renamed into place.
//! - A database is known by its content, not its file name: importing a file
//!   whose cards are mostly those of a stored file (the same format, most card
//!   IDs shared) replaces that file, under whatever name it is imported; any
//!   other file replaces the stored file of its own name.
//! - A bad card record is rejected with its ID and the rest import, unless
//!   `strict`, where any rejected record fails the import. A file with rejected
//!   records never replaces a stored copy that holds more cards: a damaged or
//!   truncated file cannot shrink what is already imported.

use super::{Card, SourceFile, destiny, swccg, swtcg};
use crate::error::{Error, Result};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// SWCCG Players Committee JSON.
    Swccg,
    /// SWDestinyDB set JSON.
    Destiny,
    /// SWTCG LackeyCCG tab-separated set file.
    Swtcg,
    /// SWDestinyDB `formats.json` (see [`super::formats`]).
    DestinyFormats,
}

impl Format {
    /// The format's key (the stored files' prefix), and what it is.
    fn spelled(self) -> (&'static str, &'static str) {
        match self {
            Format::Swccg => ("swccg", "SWCCG Players Committee JSON"),
            Format::Destiny => ("destiny", "SWDestinyDB set JSON"),
            Format::Swtcg => ("swtcg", "SWTCG LackeyCCG TSV"),
            Format::DestinyFormats => ("destiny-formats", "SWDestinyDB formats"),
        }
    }
    pub fn as_str(self) -> &'static str {
        self.spelled().0
    }
    pub fn describe(self) -> &'static str {
        self.spelled().1
    }
}

/// A record that was not imported, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejected {
    /// "card 5300", "card 01002", "line 4 (Yoda (A))", "record 3".
    pub id: String,
    pub reason: String,
}

/// Each record of a database converted by `card`; a record it refuses is
/// rejected, named by the ID `id` finds (`card 5300`), else by its position
/// (`record 3`).
pub(super) fn convert<'v>(
    records: impl IntoIterator<Item = &'v Value>,
    id: impl Fn(&Value) -> Option<String>,
    card: impl Fn(&Value) -> std::result::Result<Card, String>,
) -> (Vec<Card>, Vec<Rejected>) {
    let mut cards = Vec::new();
    let mut rejected = Vec::new();
    for (i, rec) in records.into_iter().enumerate() {
        match card(rec) {
            Ok(c) => cards.push(c),
            Err(reason) => rejected.push(Rejected {
                id: id(rec).map_or_else(|| format!("record {}", i + 1), |id| format!("card {id}")),
                reason,
            }),
        }
    }
    (cards, rejected)
}

/// A string, number or boolean of a card record as text.
pub(super) fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A text field that says something (not blank).
pub(super) fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(scalar).filter(|t| !t.trim().is_empty())
}

/// A list field's values as text.
pub(super) fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(scalar).collect())
        .unwrap_or_default()
}

/// Set names: those `built_in`, overridden by the database's `sets.json` beside
/// the card files (`[{key: "AW", "name": "Awakenings"}, ...]`) when there is one.
pub(super) fn set_names(
    built_in: impl Iterator<Item = (String, String)>,
    table: &Value,
    key: &str,
) -> HashMap<String, String> {
    let mut m: HashMap<String, String> = built_in.collect();
    for s in table.as_array().into_iter().flatten() {
        if let (Some(k), Some(n)) = (s.get(key).and_then(scalar), s.get("name").and_then(scalar)) {
            m.insert(k, n);
        }
    }
    m
}

/// One file, parsed.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub path: PathBuf,
    pub format: Format,
    pub source: SourceFile,
    pub rejected: Vec<Rejected>,
    /// Destiny formats, for a `formats.json`.
    pub formats: Vec<super::formats::DeckFormat>,
}

/// What happened to one file.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    pub file: String,
    pub format: Format,
    pub imported: usize,
    pub rejected: Vec<Rejected>,
    pub stored_as: PathBuf,
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// A file `shown` that is not JSON: where, and serde_json's message without its
/// trailing " at line L column C".
pub(crate) fn malformed_json(shown: &str, e: &serde_json::Error) -> Error {
    let s = e.to_string();
    let message = s.rfind(" at line ").map_or(s.as_str(), |i| &s[..i]);
    Error::Input(format!(
        "{shown}:{}:{}: malformed JSON: {message}",
        e.line(),
        e.column()
    ))
}

/// Read a lookup table beside `path` (or one folder up), if there is one.
fn sibling_json(path: &Path, name: &str) -> Value {
    let dir = path.parent().unwrap_or(Path::new("."));
    for d in [Some(dir), dir.parent()].into_iter().flatten() {
        let p = d.join(name);
        if p != path
            && p.is_file()
            && let Ok(text) = std::fs::read_to_string(&p)
            && let Ok(v) = serde_json::from_str(&text)
        {
            return v;
        }
    }
    Value::Null
}

/// Largest card file accepted, in bytes (the real databases are a few MB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Read a regular file of at most [`MAX_FILE_BYTES`]. A folder, FIFO or device is
/// refused up front (reading one would fail late, block, or never end).
fn read_card_file(path: &Path) -> Result<Vec<u8>> {
    crate::paths::read_regular_file(
        path,
        MAX_FILE_BYTES,
        "is a folder; give the card files in it",
    )
}

/// A file read for an import: card data (or Destiny formats), or a file of
/// no format this imports, and why.
enum Read {
    Cards(Parsed),
    /// `at`: the file (and line, column) the message starts with.
    Unrecognised {
        at: String,
        why: String,
    },
}

/// The lookup tables the databases keep beside their card files (set names,
/// affiliations, factions…): read for the card files beside them, never
/// imported on their own.
const LOOKUP_TABLES: [&str; 6] = [
    "sets.json",
    "affiliations.json",
    "factions.json",
    "rarities.json",
    "subtypes.json",
    "types.json",
];

/// A file an import was given that it did not import, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    pub file: String,
    pub reason: String,
}

/// What `cards import` did: each file imported, and each file it passed over.
#[derive(Debug, Clone, Serialize)]
pub struct Imported {
    pub files: Vec<FileReport>,
    pub skipped: Vec<Skipped>,
}

/// The files to read for `inputs`: a file as given; a folder for every
/// `.json`, `.txt` and `.tsv` file under it (hidden ones skipped), each once.
fn expand(inputs: &[PathBuf]) -> Result<Vec<(PathBuf, bool)>> {
    let mut out: Vec<(PathBuf, bool)> = Vec::new();
    for input in inputs {
        let found = if input.is_dir() {
            crate::paths::files_under(std::slice::from_ref(input), &["json", "txt", "tsv"])?
                .into_iter()
                .map(|f| (f, false))
                .collect()
        } else {
            vec![(input.clone(), true)]
        };
        for (f, named) in found {
            let same = |(g, _): &(PathBuf, bool)| {
                g == &f || matches!((g.canonicalize(), f.canonicalize()), (Ok(a), Ok(b)) if a == b)
            };
            if !out.iter().any(same) {
                out.push((f, named));
            }
        }
    }
    Ok(out)
}

/// Longest card title (with subtitle) accepted; real titles stay under 100
/// characters, and fuzzy lookup time grows with title length.
pub const MAX_TITLE_CHARS: usize = 200;

fn reject_long_titles(p: &mut Parsed) {
    let (keep, long): (Vec<_>, Vec<_>) =
        std::mem::take(&mut p.source.cards)
            .into_iter()
            .partition(|c| {
                c.title.chars().count() + c.subtitle.as_deref().map_or(0, |s| s.chars().count())
                    <= MAX_TITLE_CHARS
            });
    p.source.cards = keep;
    p.rejected.extend(long.into_iter().map(|c| Rejected {
        id: format!("card {}", c.id),
        reason: format!(
            "title is {} characters long; the limit is {MAX_TITLE_CHARS}",
            c.title.chars().count()
        ),
    }));
}

fn parse_content(path: &Path) -> Result<Read> {
    let bytes = read_card_file(path)?;
    let shown = path.display().to_string();
    let name = file_name(path);
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let first = bytes
        .iter()
        .copied()
        .find(|b| !b.is_ascii_whitespace() && *b != 0xEF && *b != 0xBB && *b != 0xBF);
    let is_json = ext == "json" || first.is_some_and(|b| b"{[".contains(&b));
    let text = String::from_utf8(bytes).map_err(|e| Error::not_utf8(path, &e))?;
    let (format, (cards, rejected)) = if !is_json {
        if ext != "txt" && ext != "tsv" && !swtcg::looks_like(&text) {
            return Ok(Read::Unrecognised {
                at: shown,
                why: "unrecognised card file (expected SWCCG Players Committee JSON, SWDestinyDB set JSON or a LackeyCCG .txt set file)".into(),
            });
        }
        if !swtcg::looks_like(&text) {
            return Ok(Read::Unrecognised {
                at: format!("{shown}:1"),
                why: "not a LackeyCCG set file (expected a tab-separated header line with a Name column)".into(),
            });
        }
        (Format::Swtcg, swtcg::parse(&text, &shown, &name)?)
    } else {
        let v: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
            .map_err(|e| malformed_json(&shown, &e))?;
        let sets = || sibling_json(path, "sets.json");
        if swccg::looks_like(&v) {
            (
                Format::Swccg,
                swccg::parse(&v, &name, &swccg::set_names(&sets())),
            )
        } else if destiny::looks_like(&v) {
            (
                Format::Destiny,
                destiny::parse(&v, &name, &destiny::set_names(&sets())),
            )
        } else if super::formats::looks_like(&v) {
            return Ok(Read::Cards(super::formats::parsed(path, &v, name, &sets())));
        } else if LOOKUP_TABLES.contains(&name.to_ascii_lowercase().as_str()) {
            return Ok(Read::Unrecognised {
                at: shown,
                why: "a lookup table, read for the card files beside it (not imported on its own)"
                    .into(),
            });
        } else {
            return Ok(Read::Unrecognised {
                at: format!("{shown}:1:1"),
                why: "JSON is neither SWCCG Players Committee data (an object with a \"cards\" array) nor an SWDestinyDB set file (an array of cards with \"code\" and \"type_code\")".into(),
            });
        }
    };
    Ok(Read::Cards(Parsed {
        path: path.to_path_buf(),
        format,
        source: SourceFile {
            format: format.as_str().into(),
            file: name,
            cards,
        },
        rejected,
        formats: Vec::new(),
    }))
}

/// The stored file for an imported file: `<data-dir>/cards/<format>-<stem>.json`.
pub fn target(data_dir: &Path, format: Format, path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let clean: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let name = if clean.starts_with(&format!("{}-", format.as_str())) {
        clean
    } else {
        format!("{}-{}", format.as_str(), clean)
    };
    data_dir.join("cards").join(format!("{name}.json"))
}

/// `bytes` staged beside `dest` ([`crate::paths::stage`]), refused when a folder
/// stands where the card file goes.
fn stage(dest: &Path, bytes: &[u8]) -> Result<NamedTempFile> {
    if dest.is_dir() {
        return Err(Error::Input(format!(
            "{}: is a folder; move it away to import this file",
            dest.display()
        )));
    }
    crate::paths::stage(dest, bytes)
}

/// Import `files` into `data_dir`: [`import_all`], without what it passed over.
pub fn import(files: &[PathBuf], data_dir: &Path, strict: bool) -> Result<Vec<FileReport>> {
    import_all(files, data_dir, strict).map(|i| i.files)
}

/// Import `inputs` (files, and folders read for every file they hold) into
/// `data_dir`. Parses all first; writes only if all parse (and, when `strict`,
/// only if no record was rejected). A lookup table (`sets.json`…) is read for
/// the card files beside it, and a file of no known format inside a folder is
/// passed over; both are listed in [`Imported::skipped`]. A file named on its
/// own that is no card data is an error.
pub fn import_all(inputs: &[PathBuf], data_dir: &Path, strict: bool) -> Result<Imported> {
    if inputs.is_empty() {
        return Err(Error::Usage("no files to import".into()));
    }
    let mut parsed = Vec::new();
    let mut skipped = Vec::new();
    for (f, named) in expand(inputs)? {
        let lookup = LOOKUP_TABLES.contains(&file_name(&f).to_ascii_lowercase().as_str());
        match parse_content(&f)? {
            Read::Cards(mut p) => {
                reject_long_titles(&mut p);
                parsed.push(p);
            }
            Read::Unrecognised { at, why } if named && !lookup => {
                return Err(Error::Input(format!("{at}: {why}")));
            }
            Read::Unrecognised { why, .. } => skipped.push(Skipped {
                file: f.display().to_string(),
                reason: why,
            }),
        }
    }
    let mut bad = parsed
        .iter()
        .flat_map(|p| p.rejected.iter().map(move |r| (p, r)));
    if strict && let Some((p, r)) = bad.next() {
        return Err(Error::Input(format!(
            "--strict: {} record(s) rejected, nothing imported; first: {}: {}: {}",
            1 + bad.count(),
            p.path.display(),
            r.id,
            r.reason
        )));
    }
    let stored = list(data_dir);
    let mut targets: Vec<PathBuf> = Vec::new();
    let mut superseded: Vec<PathBuf> = Vec::new();
    for p in &parsed {
        let same: Vec<&StoredInfo> = stored.iter().filter(|d| d.is_same_database(p)).collect();
        let t = same
            .first()
            .map_or_else(|| target(data_dir, p.format, &p.path), |d| d.path.clone());
        // Two inputs that would land in the same stored file would overwrite each other.
        if targets.contains(&t) {
            return Err(Error::Usage(format!(
                "{} and another file both import as {}; import them separately",
                p.path.display(),
                t.display()
            )));
        }
        if let Some(old) = stored.iter().find(|d| d.path == t)
            && !p.rejected.is_empty()
            && old.ids.len() > p.source.cards.len()
        {
            return Err(Error::Input(format!(
                "{}: {} record(s) rejected, and its {} cards would replace the {} of {}; nothing imported",
                p.path.display(),
                p.rejected.len(),
                p.source.cards.len(),
                old.ids.len(),
                t.display()
            )));
        }
        superseded.extend(same.iter().skip(1).map(|d| d.path.clone()));
        targets.push(t);
    }
    // Write every file to a temporary file first, so a failure (a full disk, a
    // folder in the way) leaves the stored data as it was; then rename them all.
    // A temporary file not renamed is removed when dropped.
    let staged = parsed
        .iter()
        .zip(&targets)
        .map(|(p, t)| {
            let bytes = super::formats::stored_json(p)?;
            stage(t, &bytes)
        })
        .collect::<Result<Vec<_>>>()?;
    // Copies of one database stored before identity came from content.
    superseded.retain(|p| !targets.contains(p));
    let mut reports = Vec::with_capacity(parsed.len());
    for ((p, t), tmp) in parsed.into_iter().zip(targets).zip(staged) {
        tmp.persist(&t).map_err(|e| Error::io(&t, e.error))?;
        reports.push(FileReport {
            file: p.path.display().to_string(),
            format: p.format,
            imported: p.source.cards.len() + p.formats.len(),
            rejected: p.rejected,
            stored_as: t,
        });
    }
    for old in &superseded {
        match std::fs::remove_file(old) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Error::io(old, e)),
            _ => {}
        }
    }
    // the name index follows the stored data (a cache: one not written is
    // rebuilt when next needed)
    let _ = super::name_index::write(data_dir);
    Ok(Imported {
        files: reports,
        skipped,
    })
}

/// A stored database, as `cards list` shows it and `cards remove` names it,
/// and as an import knows it: by its format and card IDs.
#[derive(Debug, Clone, Serialize)]
pub struct StoredInfo {
    /// The stored file's name without `.json` (`swccg-light`): how `cards remove` names it.
    pub name: String,
    /// The file it was imported from (`Light.json`).
    pub file: String,
    pub format: String,
    pub cards: usize,
    /// How many Destiny formats it holds (a `formats.json`).
    pub formats: usize,
    pub path: PathBuf,
    /// Its card IDs, sorted.
    #[serde(skip)]
    ids: Vec<String>,
}

/// Remove the stored databases `names` names: each a stored name
/// (`swccg-light`), the name of the file it was imported from (`Light.json`)
/// or a format (`swccg`, `destiny`, `swtcg`, `destiny-formats`: every database
/// of it), in any case; `all` removes every one. A name that matches nothing
/// is an error, and then nothing is removed.
pub fn remove(data_dir: &Path, names: &[String], all: bool) -> Result<Vec<StoredInfo>> {
    let stored = list(data_dir);
    let mut chosen: Vec<StoredInfo> = if all { stored.clone() } else { Vec::new() };
    for n in names {
        let hits: Vec<&StoredInfo> = stored
            .iter()
            .filter(|d| {
                [&d.name, &d.file, &d.format]
                    .iter()
                    .any(|k| k.eq_ignore_ascii_case(n))
            })
            .collect();
        if hits.is_empty() {
            let known: Vec<&str> = stored.iter().map(|d| d.name.as_str()).collect();
            return Err(Error::Usage(if known.is_empty() {
                format!("no imported database is called `{n}`: nothing is imported")
            } else {
                format!(
                    "no imported database is called `{n}`; imported: {} (nothing removed)",
                    known.join(", ")
                )
            }));
        }
        for h in hits {
            if !chosen.iter().any(|c| c.path == h.path) {
                chosen.push(h.clone());
            }
        }
    }
    for d in &chosen {
        match std::fs::remove_file(&d.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(Error::io(&d.path, e));
            }
            _ => {}
        }
    }
    let _ = super::name_index::write(data_dir);
    Ok(chosen)
}

impl StoredInfo {
    /// Whether `p` is this database (perhaps another version of it): the same
    /// format, and more than half of the smaller one's card IDs in both.
    fn is_same_database(&self, p: &Parsed) -> bool {
        if self.format != p.format.as_str() {
            return false;
        }
        let shared = p
            .source
            .cards
            .iter()
            .filter(|c| self.ids.binary_search(&c.id).is_ok())
            .count();
        let smaller = self.ids.len().min(p.source.cards.len());
        smaller > 0 && shared * 2 > smaller
    }
}

/// Every stored database under `<data_dir>/cards/`, by stored name, read for
/// its identity; a file that cannot be read has none, and is replaced only by name.
pub fn list(data_dir: &Path) -> Vec<StoredInfo> {
    #[derive(serde::Deserialize)]
    struct Id {
        id: String,
    }
    #[derive(serde::Deserialize)]
    struct Stored {
        format: String,
        #[serde(default)]
        file: String,
        cards: Vec<Id>,
        #[serde(default)]
        formats: Vec<serde::de::IgnoredAny>,
    }
    let Ok(files) = crate::paths::files_under(&[data_dir.join("cards")], &["json"]) else {
        return Vec::new();
    };
    files
        .into_iter()
        .filter_map(|path| {
            let bytes = read_card_file(&path).ok()?;
            let s: Stored = serde_json::from_slice(&bytes).ok()?;
            let mut ids: Vec<String> = s.cards.into_iter().map(|c| c.id).collect();
            ids.sort_unstable();
            Some(StoredInfo {
                name: path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                file: s.file,
                format: s.format,
                cards: ids.len(),
                formats: s.formats.len(),
                path,
                ids,
            })
        })
        .collect()
}
