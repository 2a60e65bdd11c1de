//! The index on disk: where it lives, whether it is current, and how it is
//! rebuilt atomically.
//!
//! Layout under the index folder (`paths.index`):
//!
//! ```text
//! index/
//!   sections/            the tantivy index; its commit payload is the source fingerprint
//!     manifest.txt       fingerprint, then size/mtime/path of every source file
//!   .sections.tmp-…      a build in progress (renamed to sections/ when done)
//! ```
//!
//! Staleness is checked cheaply first: when every `*.md` file under the rulebook
//! has the size and mtime the manifest recorded, the recorded fingerprint is
//! trusted. Otherwise the sources are hashed; a different hash means a rebuild.

use super::{Fields, schema};
use crate::error::{Error, Result};
use crate::rulebook::{Corpus, Section, markdown_files};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;
use tantivy::directory::Directory;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Index, TantivyDocument};

/// Folder of the tantivy index inside the index folder.
const SECTIONS_DIR: &str = "sections";
const MANIFEST: &str = "manifest.txt";
/// Bumped whenever the schema or the way sections are indexed changes.
const FORMAT: &str = "swjudge-index-6";
/// Writer memory budget: far above what the corpus needs, so it stays one segment.
const WRITER_BUDGET: usize = 32 << 20;

/// Size and modification time of one source file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stat {
    rel: String,
    size: u64,
    mtime_ns: u128,
}

/// The rulebook's `*.md` files as they are now.
#[derive(Debug, Clone)]
pub struct Sources {
    files: Vec<(PathBuf, Stat)>,
}

impl Sources {
    pub fn scan(root: &Path) -> Result<Sources> {
        let mut files = Vec::new();
        for path in markdown_files(root)? {
            let meta = std::fs::metadata(&path).map_err(|e| Error::io(&path, e))?;
            let mtime_ns = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            let rel = rel_name(root, &path);
            files.push((
                path,
                Stat {
                    rel,
                    size: meta.len(),
                    mtime_ns,
                },
            ));
        }
        Ok(Sources { files })
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Hash of the relative paths and contents of every source file.
    pub fn fingerprint(&self) -> Result<String> {
        let mut h = Fnv::new();
        h.write(FORMAT.as_bytes());
        for (path, stat) in &self.files {
            let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
            h.write(&[0]);
            h.write(stat.rel.as_bytes());
            h.write(&[0]);
            h.write(&(bytes.len() as u64).to_le_bytes());
            h.write(&bytes);
        }
        Ok(format!("{FORMAT}:{:016x}", h.finish()))
    }

    fn manifest(&self, fingerprint: &str) -> String {
        let mut out = format!("{fingerprint}\n");
        for (_, s) in &self.files {
            let _ = writeln!(out, "{}\t{}\t{}", s.size, s.mtime_ns, s.rel);
        }
        out
    }

    /// The fingerprint recorded in `manifest` if it still describes these files.
    fn matches_manifest<'m>(&self, manifest: &'m str) -> Option<&'m str> {
        let mut lines = manifest.lines();
        let fingerprint = lines.next()?;
        let mut stats = Vec::new();
        for line in lines {
            let mut parts = line.splitn(3, '\t');
            let size = parts.next()?.parse().ok()?;
            let mtime_ns = parts.next()?.parse().ok()?;
            let rel = parts.next()?.to_string();
            stats.push(Stat {
                rel,
                size,
                mtime_ns,
            });
        }
        let same = stats.len() == self.files.len()
            && stats.iter().zip(&self.files).all(|(a, (_, b))| a == b);
        same.then_some(fingerprint)
    }
}

/// Fingerprint of the `*.md` sources under `root` (what the index records).
pub fn fingerprint(root: &Path) -> Result<String> {
    Sources::scan(root)?.fingerprint()
}

fn rel_name(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Open the index under `index_dir` when it exists, is readable and matches the
/// sources; `None` when it must be rebuilt. Never fails: any problem means rebuild
/// (the segments themselves are checked when the index is opened for search).
pub fn open_current(index_dir: &Path, sources: &Sources) -> Option<Index> {
    let dir = index_dir.join(SECTIONS_DIR);
    let manifest = std::fs::read_to_string(dir.join(MANIFEST)).ok();
    let index = Index::open_in_dir(&dir).ok()?;
    let payload = index.load_metas().ok()?.payload?;
    let cheap = manifest
        .as_deref()
        .and_then(|m| sources.matches_manifest(m));
    match cheap {
        Some(fp) if fp == payload => {}
        _ => {
            let fp = sources.fingerprint().ok()?;
            if fp != payload {
                return None;
            }
            // Same content, new mtimes: record them so the next check is cheap again.
            let _ = write_atomic(&dir.join(MANIFEST), &sources.manifest(&fp));
        }
    }
    super::fields_of(&index.schema())?;
    Some(index)
}

/// Build the index for `corpus` into a fresh folder beside the current one and
/// rename it into place. When the index folder cannot be written, the index is
/// built in memory instead, so search still works.
pub fn build(index_dir: &Path, corpus: &Corpus, sources: &Sources) -> Result<Index> {
    let fingerprint = sources.fingerprint()?;
    match build_on_disk(index_dir, corpus, sources, &fingerprint) {
        Ok(index) => Ok(index),
        Err(_) => {
            let index = Index::create_in_ram(schema().0);
            fill(&index, corpus, &fingerprint)?;
            Ok(index)
        }
    }
}

/// Build an index held in memory only.
pub fn build_in_ram(corpus: &Corpus) -> Result<Index> {
    let index = Index::create_in_ram(schema().0);
    fill(&index, corpus, "in-memory")?;
    Ok(index)
}

fn build_on_disk(
    index_dir: &Path,
    corpus: &Corpus,
    sources: &Sources,
    fingerprint: &str,
) -> Result<Index> {
    std::fs::create_dir_all(index_dir).map_err(|e| Error::io(index_dir, e))?;
    let tag = unique_tag();
    let tmp = index_dir.join(format!(".{SECTIONS_DIR}.tmp-{tag}"));
    let result = (|| {
        std::fs::create_dir(&tmp).map_err(|e| Error::io(&tmp, e))?;
        let index = Index::create_in_ram(schema().0);
        fill(&index, corpus, fingerprint)?;
        write_files(&index, &tmp)?;
        drop(index);
        std::fs::write(tmp.join(MANIFEST), sources.manifest(fingerprint))
            .map_err(|e| Error::io(tmp.join(MANIFEST), e))?;
        swap_into_place(index_dir, &tmp, &tag)
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    let dir = result?;
    Index::open_in_dir(&dir).map_err(super::ix_err)
}

/// Copy an index built in memory into the folder `dir`. Files are not synced:
/// the index is a cache, and one damaged by a crash is rebuilt on next use.
fn write_files(index: &Index, dir: &Path) -> Result<()> {
    let managed = index.directory();
    let mut files: Vec<PathBuf> = managed.list_managed_files().into_iter().collect();
    files.extend([PathBuf::from("meta.json"), PathBuf::from(".managed.json")]);
    files.sort();
    files.dedup();
    for file in files {
        if file.to_string_lossy().ends_with(".lock") {
            continue;
        }
        // Raw bytes (with tantivy's footers), as the underlying directory holds them.
        let Ok(bytes) = managed.atomic_read(&file) else {
            continue;
        };
        let path = dir.join(&file);
        std::fs::write(&path, bytes).map_err(|e| Error::io(&path, e))?;
    }
    if !dir.join("meta.json").is_file() {
        return Err(Error::Index("built index has no meta.json".into()));
    }
    Ok(())
}

/// Rename `tmp` to `index_dir/sections`, moving any previous index aside first.
fn swap_into_place(index_dir: &Path, tmp: &Path, tag: &str) -> Result<PathBuf> {
    let dir = index_dir.join(SECTIONS_DIR);
    let old = index_dir.join(format!(".{SECTIONS_DIR}.old-{tag}"));
    let had_old = match std::fs::rename(&dir, &old) {
        Ok(()) => true,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(e) => return Err(Error::io(&dir, e)),
    };
    std::fs::rename(tmp, &dir).map_err(|e| Error::io(&dir, e))?;
    if had_old {
        let _ = std::fs::remove_dir_all(&old);
    }
    Ok(dir)
}

fn unique_tag() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}-{}", std::process::id(), nanos)
}

/// Add every section with one writer thread and one commit, so the index is one
/// segment in corpus order.
fn fill(index: &Index, corpus: &Corpus, fingerprint: &str) -> Result<()> {
    let f = super::fields_of(&index.schema())
        .ok_or_else(|| Error::Index("schema lacks expected fields".into()))?;
    let mut writer = index
        .writer_with_num_threads::<TantivyDocument>(1, WRITER_BUDGET)
        .map_err(super::ix_err)?;
    let mut analyzer = index.tokenizer_for_field(f.body).map_err(super::ix_err)?;
    let mut ids: Vec<&str> = corpus.sections.iter().map(|s| s.id.as_str()).collect();
    ids.sort_unstable();
    for (ord, s) in corpus.sections.iter().enumerate() {
        let rank = ids.partition_point(|id| *id < s.id.as_str());
        writer
            .add_document(document(&f, &mut analyzer, ord, rank, s))
            .map_err(super::ix_err)?;
    }
    let mut commit = writer.prepare_commit().map_err(super::ix_err)?;
    commit.set_payload(fingerprint);
    commit.commit().map_err(super::ix_err)?;
    writer.wait_merging_threads().map_err(super::ix_err)?;
    Ok(())
}

fn document(
    f: &Fields,
    analyzer: &mut TextAnalyzer,
    ord: usize,
    rank: usize,
    s: &Section,
) -> TantivyDocument {
    let mut d = TantivyDocument::default();
    d.add_text(f.id, &s.id);
    d.add_u64(f.ord, ord as u64);
    d.add_u64(f.id_rank, rank as u64);
    d.add_text(f.doc, &s.document);
    for part in &s.breadcrumb {
        d.add_text(f.crumbs, part);
    }
    d.add_text(f.game, s.game.as_str());
    d.add_text(f.document, format!("{}.{}", s.game, s.document));
    d.add_text(f.kind, s.kind.as_str());
    d.add_u64(f.superseded, u64::from(s.superseded));
    d.add_text(f.title, &s.title);
    // Ancestors only: the document title would match every section of a document.
    let n = s.breadcrumb.len();
    if n > 2 {
        d.add_text(f.breadcrumb, s.breadcrumb[1..n - 1].join(" / "));
    }
    let body = s.plain_body();
    d.add_text(f.title_pairs, super::pair_tokens(analyzer, &s.title));
    d.add_text(f.body, body);
    d
}

fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension(format!("tmp-{}", unique_tag()));
    std::fs::write(&tmp, text).map_err(|e| Error::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

/// 64-bit FNV-1a: small, dependency-free and stable across builds.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_is_stable() {
        let mut h = Fnv::new();
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn manifest_round_trips() {
        let s = Sources {
            files: vec![(
                PathBuf::from("r/a.md"),
                Stat {
                    rel: "a.md".into(),
                    size: 3,
                    mtime_ns: 42,
                },
            )],
        };
        let m = s.manifest("fp");
        assert_eq!(s.matches_manifest(&m), Some("fp"));
        let mut changed = s.clone();
        changed.files[0].1.size = 4;
        assert_eq!(changed.matches_manifest(&m), None);
    }
}
