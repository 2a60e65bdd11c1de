//! The index on disk: where it lives, whether it is current, and how it is
//! rebuilt atomically.
//!
//! Layout under the index folder (`paths.index`):
//!
//! ```text
//! index/
//!   sections/            the tantivy index; its commit payload is the source fingerprint
//!   .sections.tmp-…      a build in progress (renamed to sections/ when done)
//! ```
//!
//! The index is current when its payload equals the fingerprint of the sources'
//! contents (every `*.md` file under the rulebook, and every stored card
//! database under `<data-dir>/cards/`). It is sound when tantivy's checksum
//! of every file of it but the document store holds (see [`open_current`]); a
//! damaged index is rebuilt. Both are read in full only when a file changed:
//! a [`Stamp`] in the index folder records every source and index file's size,
//! modification and change times and inode as they were when last hashed or
//! checked, and a file exactly as recorded (and long settled then) is not read
//! again. Writing a file always moves its change time, which no tool sets
//! back, so sizes and modification times alone are never trusted.

use super::schema::{self, Doc, schema};
use super::stamp::{Snapshot, Stamp};
use super::text;
use crate::error::{Error, Result};
use crate::paths::Paths;
use crate::rulebook::markdown_files;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;
use tantivy::directory::Directory;
use tantivy::{Index, TantivyDocument};

/// Folder of the tantivy index inside the index folder.
const SECTIONS_DIR: &str = "sections";
/// Bumped whenever the schema or the way documents are indexed changes.
const FORMAT: &str = "swjudge-index-10";
/// Writer memory budget: far above what the corpus needs, so it stays one segment.
const WRITER_BUDGET: usize = 32 << 20;

/// The source files an index is built from, as they are now.
#[derive(Debug, Clone)]
pub struct Sources {
    /// (name the fingerprint uses, path).
    files: Vec<(String, PathBuf)>,
}

impl Sources {
    /// The rulebook's `*.md` files and the stored card databases.
    pub fn scan(paths: &Paths) -> Result<Sources> {
        let mut files = Vec::new();
        for path in markdown_files(&paths.rulebook)? {
            files.push((
                format!("rulebook/{}", rel_name(&paths.rulebook, &path)),
                path,
            ));
        }
        for path in card_files(&paths.data_dir) {
            files.push((format!("cards/{}", rel_name(&paths.data_dir, &path)), path));
        }
        Ok(Sources { files })
    }

    /// The metadata of every source file, read now.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot::take(self.files.iter().map(|(n, p)| (n.as_str(), p.as_path())))
    }

    /// Whether there is no rulebook file at all.
    pub fn no_rulebook(&self) -> bool {
        !self.files.iter().any(|(n, _)| n.starts_with("rulebook/"))
    }

    /// Hash of the names and contents of every source file.
    pub fn fingerprint(&self) -> Result<String> {
        let mut h = Hash::new();
        h.write(FORMAT.as_bytes());
        for (name, path) in &self.files {
            let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
            h.write(&[0]);
            h.write(name.as_bytes());
            h.write(&[0]);
            h.write(&(bytes.len() as u64).to_le_bytes());
            h.write(&bytes);
        }
        Ok(format!("{FORMAT}:{:016x}", h.finish()))
    }
}

/// The stored card databases under `<data_dir>/cards/` (regular `*.json` files,
/// as the card store reads them); none when the folder is missing or unreadable.
fn card_files(data_dir: &Path) -> Vec<PathBuf> {
    let dir = data_dir.join("cards");
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json") && p.is_file())
        .collect();
    out.sort();
    out
}

/// Fingerprint of the sources `paths` name (what the index records).
pub fn fingerprint(paths: &Paths) -> Result<String> {
    Sources::scan(paths)?.fingerprint()
}

fn rel_name(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// The folder of the tantivy index (and of its [`Stamp`]) inside `index_dir`.
pub fn sections_dir(index_dir: &Path) -> PathBuf {
    index_dir.join(SECTIONS_DIR)
}

/// Open the index under `index_dir` when it exists, records `fingerprint`, and
/// every file of it but the document store passes its checksum; `None` when
/// it must be rebuilt. Never fails: any problem means rebuild. The checksums
/// are not read again when `checked` (the index files as they were when last
/// checked) vouches for the files as they are. Returns the index, its files
/// as they are, and whether their checksums were read.
///
/// The document store (half the index's bytes) is not checksummed here: only
/// the few documents shown as hits are read from it, its blocks are
/// compressed and its footer checked on opening, and damage found while
/// reading a hit fails the search with an index error, upon which the caller
/// rebuilds and searches again.
pub fn open_current(
    index_dir: &Path,
    fingerprint: &str,
    checked: Option<&Snapshot>,
) -> Option<(Index, Snapshot, bool)> {
    let dir = sections_dir(index_dir);
    // The recorded fingerprint first, read without building the schema, so a
    // stale index costs no more than reading its meta.json.
    if recorded_fingerprint(&dir)? != fingerprint {
        return None;
    }
    let mut index = Index::open_in_dir(&dir).ok()?;
    schema::fields_of(&index.schema())?;
    let managed = index.directory();
    let files = checksummed_files(&index, &dir);
    let now = Snapshot::take(files.iter().map(|(n, p)| (n.as_str(), p.as_path())));
    let check = !checked.is_some_and(|c| c.vouches_for(&now));
    for (name, _) in files.iter().filter(|_| check) {
        if name.ends_with(".store") {
            continue;
        }
        if !managed.validate_checksum(Path::new(name)).ok()? {
            return None;
        }
    }
    text::register(&mut index);
    Some((index, now, check))
}

/// The index's files that carry a checksum footer, by name, in order: every
/// managed file but meta.json (plain JSON, read on every open) and locks.
fn checksummed_files(index: &Index, dir: &Path) -> Vec<(String, PathBuf)> {
    let mut files: Vec<(String, PathBuf)> = index
        .directory()
        .list_managed_files()
        .into_iter()
        .map(|f| (f.to_string_lossy().into_owned(), dir.join(&f)))
        .filter(|(n, _)| !n.ends_with(".lock") && !n.ends_with(".json"))
        .collect();
    files.sort();
    files
}

/// Record in the index folder that the index of `fingerprint` was built
/// from the sources as `sources` saw them, and what its files look like.
pub fn stamp(index_dir: &Path, fingerprint: &str, sources: Snapshot, files: Snapshot) {
    Stamp {
        fingerprint: fingerprint.to_string(),
        sources,
        index: files,
    }
    .write(&sections_dir(index_dir));
}

/// The payload of the last commit recorded in `dir/meta.json`.
fn recorded_fingerprint(dir: &Path) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Meta {
        payload: Option<String>,
    }
    let bytes = std::fs::read(dir.join("meta.json")).ok()?;
    serde_json::from_slice::<Meta>(&bytes).ok()?.payload
}

/// Build the index of `docs` into a fresh folder beside the current one and
/// rename it into place. When the index folder cannot be written, the index is
/// built in memory instead, so search still works.
/// `sources` is what the sources looked like when `fingerprint` was taken: it
/// is recorded in the index's [`Stamp`] beside the new files.
pub fn build(
    index_dir: &Path,
    docs: &[Doc],
    fingerprint: &str,
    sources: Snapshot,
) -> Result<Index> {
    match build_on_disk(index_dir, docs, fingerprint) {
        Ok(index) => {
            let dir = sections_dir(index_dir);
            let files = checksummed_files(&index, &dir);
            let files = Snapshot::take(files.iter().map(|(n, p)| (n.as_str(), p.as_path())));
            stamp(index_dir, fingerprint, sources, files);
            Ok(index)
        }
        Err(_) => build_in_ram(docs, fingerprint),
    }
}

/// Build an index held in memory only.
pub fn build_in_ram(docs: &[Doc], fingerprint: &str) -> Result<Index> {
    let mut index = Index::create_in_ram(schema().0);
    text::register(&mut index);
    fill(&index, docs, fingerprint)?;
    Ok(index)
}

fn build_on_disk(index_dir: &Path, docs: &[Doc], fingerprint: &str) -> Result<Index> {
    std::fs::create_dir_all(index_dir).map_err(|e| Error::io(index_dir, e))?;
    let tag = unique_tag();
    let tmp = index_dir.join(format!(".{SECTIONS_DIR}.tmp-{tag}"));
    let result = (|| {
        std::fs::create_dir(&tmp).map_err(|e| Error::io(&tmp, e))?;
        let index = build_in_ram(docs, fingerprint)?;
        write_files(&index, &tmp)?;
        drop(index);
        swap_into_place(index_dir, &tmp, &tag)
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    let dir = result?;
    let mut index = Index::open_in_dir(&dir).map_err(super::ix_err)?;
    text::register(&mut index);
    Ok(index)
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

/// Add every document with one writer thread and one commit, so the index is
/// one segment in build order.
fn fill(index: &Index, docs: &[Doc], fingerprint: &str) -> Result<()> {
    let f = schema::fields_of(&index.schema())
        .ok_or_else(|| Error::Index("schema lacks expected fields".into()))?;
    let mut writer = index
        .writer_with_num_threads::<TantivyDocument>(1, WRITER_BUDGET)
        .map_err(super::ix_err)?;
    let mut ids: Vec<&str> = docs.iter().map(|d| d.id.as_str()).collect();
    ids.sort_unstable();
    for (ord, d) in docs.iter().enumerate() {
        let rank = ids.partition_point(|id| *id < d.id.as_str());
        writer
            .add_document(d.to_tantivy(&f, ord, rank))
            .map_err(super::ix_err)?;
    }
    let mut commit = writer.prepare_commit().map_err(super::ix_err)?;
    commit.set_payload(fingerprint);
    commit.commit().map_err(super::ix_err)?;
    writer.wait_merging_threads().map_err(super::ix_err)?;
    Ok(())
}

/// A 64-bit hash of a byte stream, eight bytes a step: small,
/// dependency-free, stable across builds, and fast enough to hash every source
/// on every open. It detects changes; it is not meant to resist an adversary.
struct Hash {
    h: u64,
    /// Bytes not yet hashed (fewer than eight).
    tail: Vec<u8>,
}

const K: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hash {
    fn new() -> Hash {
        Hash {
            h: 0xcbf2_9ce4_8422_2325,
            tail: Vec::with_capacity(8),
        }
    }

    fn word(&mut self, w: u64) {
        self.h = (self.h ^ w).wrapping_mul(K).rotate_left(29);
    }

    fn write(&mut self, mut bytes: &[u8]) {
        if !self.tail.is_empty() {
            let take = (8 - self.tail.len()).min(bytes.len());
            self.tail.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.tail.len() < 8 {
                return;
            }
            let w = u64::from_le_bytes(self.tail[..8].try_into().unwrap_or([0; 8]));
            self.word(w);
            self.tail.clear();
        }
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
        }
        self.tail.extend_from_slice(chunks.remainder());
    }

    fn finish(&self) -> u64 {
        let mut last = [0u8; 8];
        last[..self.tail.len()].copy_from_slice(&self.tail);
        let h = (self.h ^ u64::from_le_bytes(last) ^ self.tail.len() as u64).wrapping_mul(K);
        h ^ (h >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_stable_and_split_independent() {
        let data: Vec<u8> = (0..100u8).collect();
        let mut a = Hash::new();
        a.write(&data);
        let mut b = Hash::new();
        for part in data.chunks(3) {
            b.write(part);
        }
        assert_eq!(a.finish(), b.finish());
        let mut c = Hash::new();
        c.write(&data[..99]);
        assert_ne!(a.finish(), c.finish());
        let mut one = Hash::new();
        one.write(b"a");
        assert_eq!(one.finish(), {
            let mut again = Hash::new();
            again.write(b"a");
            again.finish()
        });
    }
}
