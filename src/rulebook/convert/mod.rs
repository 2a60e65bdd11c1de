//! The converter: seed text files (PDF extractions) → `rulebook/` Markdown.
//!
//! Each document has its own module that turns the seed text into [`OutFile`]s.
//! Hand corrections live in `rulebook/corrections/<doc>.yaml` and are applied to the
//! seed text before conversion, so every correction stays reviewable.
//! Rerunning the converter on the same seeds gives byte-identical output.

pub mod ar;
pub mod ar_appendix;
pub mod clean;
pub mod destiny;
pub mod legacy;
pub mod swtcg;
mod text;

use super::{DocumentMeta, Game, Kind, slug};
use crate::error::{Error, Result};
use crate::paths::write_atomic;
use serde::Deserialize;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One section to write: a heading with an explicit ID, and its Markdown body.
#[derive(Debug, Clone, PartialEq)]
pub struct OutSection {
    pub level: u8,
    pub title: String,
    pub id: String,
    pub kind: Kind,
    pub body: String,
}

/// One Markdown file to write, relative to the rulebook root.
#[derive(Debug, Clone)]
pub struct OutFile {
    pub path: PathBuf,
    pub meta: DocumentMeta,
    pub sections: Vec<OutSection>,
}

/// A document the seeds hold: its game, key and title, and the document that
/// replaces it when it is superseded.
pub struct Document {
    pub game: Game,
    pub key: &'static str,
    pub title: &'static str,
    pub superseded_by: Option<&'static str>,
}

impl Document {
    /// One converted file of the document, at `path` under the rulebook root.
    pub fn file(&self, path: &str, sections: Vec<OutSection>) -> OutFile {
        OutFile {
            path: PathBuf::from(path),
            meta: DocumentMeta {
                game: self.game,
                document: self.key.into(),
                document_title: self.title.into(),
                superseded: self.superseded_by.is_some(),
                superseded_by: self.superseded_by.map(str::to_string),
                source: None,
            },
            sections,
        }
    }
}

/// Hand corrections for one document, applied in order to the seed text.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Corrections {
    #[serde(default)]
    pub replace: Vec<Replace>,
}

/// Replace the literal `find` with `with`. `count` (default 1) is how many
/// occurrences must exist; a correction that no longer matches is an error, so
/// a new edition shows which corrections went stale.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replace {
    pub find: String,
    pub with: String,
    pub count: Option<usize>,
    pub why: Option<String>,
}

impl Corrections {
    pub fn load(path: &Path) -> Result<Corrections> {
        if !path.exists() {
            return Ok(Corrections::default());
        }
        crate::yaml::load_file(path)
    }

    pub fn apply(&self, origin: &str, text: &str) -> Result<String> {
        let mut s = text.to_string();
        for r in &self.replace {
            let n = s.matches(r.find.as_str()).count();
            let want = r.count.unwrap_or(1);
            if n != want {
                return Err(Error::Input(format!(
                    "{origin}: correction expects {want} occurrence(s) of {:?}, found {n}",
                    r.find
                )));
            }
            s = s.replace(r.find.as_str(), &r.with);
        }
        Ok(s)
    }
}

/// A converter: corrected seed text → the files of its document.
pub type Converter = fn(&str) -> Result<Vec<OutFile>>;

/// The seed documents the converter knows: file name, the correction files
/// (`rulebook/corrections/<key>.yaml`) applied to it in order, and its converter.
#[rustfmt::skip]
pub const SEEDS: [(&str, &[&str], Converter); 5] = [
    // SWCCG Advanced Rulebook 3.27
    ("000_822ecd1f8bbdd217.txt", &["ar", "ar-appendix"], ar::convert),
    // Star Wars: Destiny Rules Reference 1.8
    ("001_bbb8421acb4943c2.txt", &["destiny-rr"], destiny::convert),
    // SWTCG Rulebook, Ultimate Graphic Edition
    ("002_e60117c872e66daa.txt", &["swtcg-rb"], swtcg::convert),
    // Older SWCCG Appendix D and rules update (superseded)
    ("003_375ce422513890d6.txt", &["swccg-update"], legacy::convert_update),
    // Decipher-era SWCCG expansion rules supplements (superseded)
    ("004_e58562151f2317cd.txt", &["swccg-supplements"], legacy::convert_supplements),
];

/// Convert every known seed under `seeds` with the corrections under `corrections`.
pub fn convert_all(seeds: &Path, corrections: &Path) -> Result<Vec<OutFile>> {
    let mut files = Vec::new();
    for (name, keys, convert) in SEEDS {
        let path = seeds.join(name);
        let mut text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        for key in keys {
            let file = corrections.join(format!("{key}.yaml"));
            text =
                Corrections::load(&file)?.apply(&format!("{name} ({})", file.display()), &text)?;
        }
        let mut out = convert(&text)?;
        for f in &mut out {
            f.meta.source = Some(name.to_string());
        }
        files.extend(out);
    }
    check_unique(&files)?;
    Ok(files)
}

fn check_unique(files: &[OutFile]) -> Result<()> {
    let mut seen: HashMap<&str, &Path> = HashMap::new();
    for f in files {
        for s in &f.sections {
            if let Some(prev) = seen.insert(&s.id, &f.path) {
                return Err(Error::Input(format!(
                    "duplicate id {} in {} and {}",
                    s.id,
                    prev.display(),
                    f.path.display()
                )));
            }
        }
    }
    Ok(())
}

/// Render one file as Markdown with front matter.
pub fn render(file: &OutFile) -> String {
    let m = &file.meta;
    let mut out = format!(
        "---\ngame: {}\ndocument: {}\ndocument_title: {}\nsuperseded: {}\n",
        m.game,
        m.document,
        yaml_str(&m.document_title),
        m.superseded
    );
    if let Some(by) = &m.superseded_by {
        let _ = writeln!(out, "superseded_by: {}", yaml_str(by));
    }
    if let Some(src) = &m.source {
        let _ = writeln!(out, "source: {}", yaml_str(src));
    }
    out.push_str("---\n");
    for s in &file.sections {
        let hashes = "#".repeat(s.level.into());
        let class = match s.kind {
            Kind::Rule => String::new(),
            k => format!(" .{k}"),
        };
        let _ = writeln!(out, "\n{hashes} {} {{#{}{class}}}", s.title, s.id);
        let body = s.body.trim();
        if !body.is_empty() {
            let _ = writeln!(out, "\n{body}");
        }
    }
    out
}

fn yaml_str(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Write `files` under `out_root`, replacing the Markdown that was there, and
/// merge their IDs into `out_root/ids.txt` (IDs are never dropped from that list).
/// Each file is written to a temporary name and renamed into place (its
/// folder made if need be).
pub fn write_all(files: &[OutFile], out_root: &Path) -> Result<WriteReport> {
    let mut report = WriteReport::default();
    for f in files {
        write_atomic(&out_root.join(&f.path), render(f).as_bytes())?;
        report.files += 1;
        report.sections += f.sections.len();
    }
    let published = super::lint::published_ids(out_root)?.unwrap_or_default();
    let mut ids: BTreeSet<String> = published.into_iter().map(|(_, id)| id).collect();
    let before = ids.len();
    ids.extend(files.iter().flat_map(|f| &f.sections).map(|s| s.id.clone()));
    report.new_ids = ids.len() - before;
    let mut text = String::from(
        "# Every section ID ever published. Never remove a line: add an alias in aliases.txt instead.\n",
    );
    text.extend(ids.iter().map(|id| format!("{id}\n")));
    write_atomic(&out_root.join(super::lint::IDS_FILE), text.as_bytes())?;
    Ok(report)
}

#[derive(Debug, Default, Clone, Copy, serde::Serialize)]
pub struct WriteReport {
    pub files: usize,
    pub sections: usize,
    pub new_ids: usize,
}

/// Gives each section a unique ID `prefix` + slug(title). On a collision the
/// later section gets the nearest enclosing section's slug in front, then a
/// numeric suffix if that still collides. Sections that already have a
/// non-empty `id` keep it, and those IDs are reserved before any is assigned.
pub fn assign_ids(prefix: &str, sections: &mut [OutSection], taken: &mut BTreeSet<String>) {
    let given = sections.iter().filter(|s| !s.id.is_empty());
    taken.extend(given.map(|s| s.id.clone()));
    let mut stack: Vec<(u8, String)> = Vec::new();
    for s in sections.iter_mut() {
        while stack.last().is_some_and(|(l, _)| *l >= s.level) {
            stack.pop();
        }
        if s.id.is_empty() {
            let mut id = format!("{prefix}{}", slug(&s.title));
            if taken.contains(&id)
                && let Some((_, parent)) = stack.last()
            {
                id = format!("{prefix}{}-{}", parent, slug(&s.title));
            }
            s.id = unique_id(taken, id);
        }
        taken.insert(s.id.clone());
        stack.push((s.level, slug(&s.title)));
    }
}

/// `base`, or `base-2`, `base-3`… when that is taken; the ID returned is taken.
pub fn unique_id(taken: &mut BTreeSet<String>, base: String) -> String {
    let mut id = base.clone();
    let mut n = 2;
    while taken.contains(&id) {
        id = format!("{base}-{n}");
        n += 1;
    }
    taken.insert(id.clone());
    id
}
