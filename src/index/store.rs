//! The index on disk: where it lives, whether it is current, and how a new
//! one replaces it without disturbing a search that is reading the old one.
//!
//! Layout under the index folder (`paths.index`):
//!
//! ```text
//! index/
//!   CURRENT              the name of the generation in use (replaced by a rename)
//!   swjudge.stamp        what the sources and the generation in use looked like when last checked
//!   gen-<tag>/           a tantivy index; its commit payload is the source fingerprint
//!   .build-<tag>/        a build in progress (renamed to gen-<tag> when done)
//! ```
//!
//! A rebuild writes a new generation beside the old one and then points
//! `CURRENT` at it; no file of a generation is written again once it is in
//! use. Superseded generations are removed afterwards: a search that still
//! reads one keeps its open files (the index is read with plain reads, not
//! memory maps, so a file damaged or cut short from outside is a read error,
//! never a crash).
//!
//! The index is current when its payload equals the fingerprint of the sources'
//! contents (every `*.md` file under the rulebook, or the built-in rulebook's
//! fingerprint, and every stored card database under `<data-dir>/cards/`). It
//! is sound when tantivy's checksum of every file of it but the document store
//! holds; a damaged index is rebuilt. Hashing the sources and reading the
//! checksums is done only when the stamp cannot vouch for every file being
//! exactly as it was when last hashed or checked (size, modification and
//! change times, inode; see [`super::stamp`]): a search over an index that
//! is current reads no card data.

use super::schema::{self, Doc, schema};
use super::stamp::{STAMP_FILE, Snapshot, Stamp};
use super::text;
use crate::error::{Error, Result};
use crate::paths::{Paths, embedded};
use crate::rulebook::markdown_files;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, Lock, OwnedBytes, WatchCallback, WatchHandle, WritePtr,
};
use tantivy::{HasLen, Index, TantivyDocument};

/// The file naming the generation in use.
const CURRENT: &str = "CURRENT";
/// Bumped whenever the schema or the way documents are indexed changes.
const FORMAT: &str = "swjudge-index-13";
/// Writer memory budget: far above what the corpus needs, so it stays one segment.
const WRITER_BUDGET: usize = 64 << 20;
/// A build folder left this long is taken for an abandoned one and removed.
const ABANDONED: Duration = Duration::from_secs(600);
/// A superseded generation is kept this long, for the searches (and the
/// build that wrote it) still opening it.
const GRACE: Duration = Duration::from_secs(10);

/// The sources an index is made from: the rulebook (the built-in one by its
/// fingerprint, or the `*.md` files of one on disk) and the stored card
/// databases, with what their files looked like when first listed.
#[derive(Debug)]
pub struct Sources {
    /// The built-in rulebook's fingerprint, when it is the one used.
    builtin: Option<&'static str>,
    /// Every file to hash, by name (`rulebook/…`, `cards/…`), in order.
    files: Vec<(String, PathBuf)>,
    /// The files' metadata, read when they were listed (before any hashing).
    snapshot: Snapshot,
    fingerprint: OnceLock<String>,
}

impl Sources {
    /// The sources `paths` name.
    pub fn of(paths: &Paths) -> Result<Sources> {
        let builtin = paths
            .rulebook
            .file_name()
            .is_some_and(|n| n == embedded::FINGERPRINT)
            .then_some(embedded::FINGERPRINT);
        let mut files: Vec<(String, PathBuf)> = Vec::new();
        if builtin.is_none() {
            for path in markdown_files(&paths.rulebook)? {
                files.push((
                    format!("rulebook/{}", rel_name(&paths.rulebook, &path)),
                    path,
                ));
            }
            if files.is_empty() {
                return Err(Error::Index(format!(
                    "no rulebook files under {}",
                    paths.rulebook.display()
                )));
            }
        }
        for path in card_files(&paths.data_dir) {
            files.push((format!("cards/{}", rel_name(&paths.data_dir, &path)), path));
        }
        let snapshot = Snapshot::take(files.iter().map(|(n, p)| (n.as_str(), p.as_path())));
        Ok(Sources {
            builtin,
            files,
            snapshot,
            fingerprint: OnceLock::new(),
        })
    }

    /// What every fingerprint of these sources begins with: the index format
    /// and the built-in rulebook's fingerprint (known when the binary is built).
    fn head(&self) -> String {
        format!("{FORMAT}:{}:", self.builtin.unwrap_or("disk"))
    }

    /// The fingerprint of the sources' contents (what the index records): the
    /// files are read and hashed (xxh3) once, when first asked.
    pub fn fingerprint(&self) -> Result<&str> {
        if let Some(f) = self.fingerprint.get() {
            return Ok(f);
        }
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        for (name, path) in &self.files {
            let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
            h.update(&[0]);
            h.update(name.as_bytes());
            h.update(&(bytes.len() as u64).to_le_bytes());
            h.update(&bytes);
        }
        let f = format!("{}{:032x}", self.head(), h.digest128());
        Ok(self.fingerprint.get_or_init(|| f))
    }
}

/// The stored card databases under `<data_dir>/cards/` (regular `*.json` files,
/// as the card store reads them); none when the folder is missing or unreadable.
fn card_files(data_dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(data_dir.join("cards")) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json") && p.is_file())
        .collect();
    out.sort();
    out
}

fn rel_name(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// The folder of the generation `CURRENT` names, when it names one.
fn current(index_dir: &Path) -> Option<PathBuf> {
    let name = std::fs::read_to_string(index_dir.join(CURRENT)).ok()?;
    let name = name.trim();
    (name.starts_with("gen-") && !name.contains(['/', '\\'])).then(|| index_dir.join(name))
}

/// Open the generation in use under `index_dir` when it was built from
/// `sources` as they are and is sound; `None` when it must be rebuilt. Any
/// problem with the index means rebuild; an unreadable source is an error.
///
/// When the stamp in the index folder vouches for every source file and
/// every file of the generation (each exactly as it was when last hashed or
/// checked, see [`Stamp`]), the fingerprint it records is taken as the
/// sources' and nothing is read but the generation's `meta.json`. Otherwise
/// the sources are hashed, every file of the generation but the document
/// store passes its checksum, and the stamp is written again.
///
/// The document store (half the index's bytes) is not checksummed here: only
/// the few documents shown as hits are read from it, its blocks are
/// compressed and its footer checked on opening, and damage found while
/// reading a hit fails the search with an index error, upon which the caller
/// rebuilds and searches again.
pub fn open_current(index_dir: &Path, sources: &Sources) -> Result<Option<Index>> {
    let Some(dir) = current(index_dir) else {
        return Ok(None);
    };
    let files = generation_files(&dir);
    let stamp = Stamp::read(index_dir).filter(|s| {
        s.fingerprint.starts_with(&sources.head())
            && s.sources.vouches_for(&sources.snapshot)
            && s.index.vouches_for(&files)
    });
    let fingerprint = match &stamp {
        Some(s) => s.fingerprint.clone(),
        None => sources.fingerprint()?.to_string(),
    };
    let Some(index) = open_generation(&dir, &fingerprint, stamp.is_none()) else {
        return Ok(None);
    };
    if stamp.is_none() {
        Stamp {
            fingerprint,
            sources: sources.snapshot.clone(),
            index: files,
        }
        .write(index_dir);
    }
    Ok(Some(index))
}

/// The generation in `dir` when it records `fingerprint` and, when `check`,
/// every file of it but the document store passes its checksum.
fn open_generation(dir: &Path, fingerprint: &str, check: bool) -> Option<Index> {
    let index = Index::open(ReadDir::new(dir)).ok()?;
    let payload = index.load_metas().ok()?.payload;
    if payload.as_deref() != Some(fingerprint) {
        return None;
    }
    schema::fields_of(&index.schema())?;
    let managed = index.directory();
    for file in managed.list_managed_files().into_iter().filter(|_| check) {
        let name = file.to_string_lossy();
        if name.ends_with(".store") || name.ends_with(".json") || name.ends_with(".lock") {
            continue;
        }
        if !managed.validate_checksum(&file).ok()? {
            return None;
        }
    }
    text::register(&index);
    Some(index)
}

/// The metadata of every file of the generation folder `dir`, each named
/// `gen-…/file`, in order, read now.
fn generation_files(dir: &Path) -> Snapshot {
    let generation = dir.file_name().unwrap_or_default().to_string_lossy();
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| {
            let name = format!("{generation}/{}", e.file_name().to_string_lossy());
            (name, e.path())
        })
        .collect();
    files.sort();
    Snapshot::take(files.iter().map(|(n, p)| (n.as_str(), p.as_path())))
}

/// Build the index of `docs` as a new generation under `index_dir`, point
/// `CURRENT` at it and remove the generations it supersedes. When the
/// index folder cannot be written, the index is built in memory instead, so
/// search still works.
pub fn build(index_dir: &Path, docs: &[Doc], fingerprint: &str) -> Result<Index> {
    match build_on_disk(index_dir, docs, fingerprint) {
        Ok(index) => Ok(index),
        Err(_) => build_in_ram(docs, fingerprint),
    }
}

/// Build an index held in memory only.
pub fn build_in_ram(docs: &[Doc], fingerprint: &str) -> Result<Index> {
    let index = Index::create_in_ram(schema().0);
    text::register(&index);
    fill(&index, docs, fingerprint)?;
    Ok(index)
}

fn build_on_disk(index_dir: &Path, docs: &[Doc], fingerprint: &str) -> Result<Index> {
    std::fs::create_dir_all(index_dir).map_err(|e| Error::io(index_dir, e))?;
    let tag = unique_tag();
    let build = index_dir.join(format!(".build-{tag}"));
    let generation = index_dir.join(format!("gen-{tag}"));
    let result = (|| {
        std::fs::create_dir(&build).map_err(|e| Error::io(&build, e))?;
        let index = Index::create_in_dir(&build, schema().0).map_err(super::ix_err)?;
        text::register(&index);
        fill(&index, docs, fingerprint)?;
        drop(index);
        std::fs::rename(&build, &generation).map_err(|e| Error::io(&generation, e))?;
        point_at(index_dir, &generation, &tag)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&build);
        let _ = std::fs::remove_dir_all(&generation);
        return Err(e);
    }
    remove_superseded(index_dir, &generation);
    let index = Index::open(ReadDir::new(&generation)).map_err(super::ix_err)?;
    text::register(&index);
    Ok(index)
}

/// Point `CURRENT` at `generation`: written beside it, then renamed over it.
fn point_at(index_dir: &Path, generation: &Path, tag: &str) -> Result<()> {
    let name = generation
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = index_dir.join(format!(".{CURRENT}-{tag}"));
    std::fs::write(&tmp, name).map_err(|e| Error::io(&tmp, e))?;
    std::fs::rename(&tmp, index_dir.join(CURRENT)).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(index_dir, e)
    })
}

/// Remove every generation but the one in use and `ours` (which another
/// build may already have superseded), abandoned builds, and what older
/// versions left (best effort: a folder that cannot be removed now is
/// removed by a later build).
fn remove_superseded(index_dir: &Path, ours: &Path) {
    let keep = current(index_dir);
    let Ok(rd) = std::fs::read_dir(index_dir) else {
        return;
    };
    for entry in rd.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let older = |p: &Path, than: Duration| {
            std::fs::metadata(p)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > than)
        };
        let remove = match name.as_str() {
            n if n.starts_with("gen-") => {
                Some(&path) != keep.as_ref() && path != ours && older(&path, GRACE)
            }
            n if n.starts_with(".build-")
                || n.starts_with(&format!(".{CURRENT}-"))
                || n.starts_with(&format!(".{STAMP_FILE}.tmp-")) =>
            {
                older(&path, ABANDONED)
            }
            "sections" => true,
            n => n.starts_with(".sections."),
        };
        if remove {
            let _ = std::fs::remove_dir_all(&path).or_else(|_| std::fs::remove_file(&path));
        }
    }
}

fn unique_tag() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{nanos:x}-{}", std::process::id())
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

/// A read-only tantivy directory that reads files with plain reads at an
/// offset: a file cut short or replaced from outside gives a read error
/// where a memory map would kill the process.
#[derive(Debug, Clone)]
struct ReadDir {
    root: Arc<PathBuf>,
}

impl ReadDir {
    fn new(root: &Path) -> ReadDir {
        ReadDir {
            root: Arc::new(root.to_path_buf()),
        }
    }
}

/// An open file of a [`ReadDir`], with its length when opened.
#[derive(Debug)]
struct ReadFile {
    file: std::fs::File,
    len: usize,
}

impl HasLen for ReadFile {
    fn len(&self) -> usize {
        self.len
    }
}

impl FileHandle for ReadFile {
    fn read_bytes(&self, range: Range<usize>) -> io::Result<OwnedBytes> {
        if range.start > range.end || range.end > self.len {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "read past the end",
            ));
        }
        let mut buf = vec![0; range.len()];
        read_at(&self.file, &mut buf, range.start as u64)?;
        Ok(OwnedBytes::new(buf))
    }
}

#[cfg(unix)]
fn read_at(file: &std::fs::File, buf: &mut [u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

#[cfg(windows)]
fn read_at(file: &std::fs::File, mut buf: &mut [u8], mut at: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, buf, at)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                at += n as u64;
            }
        }
    }
    Ok(())
}

impl Directory for ReadDir {
    fn get_file_handle(
        &self,
        path: &Path,
    ) -> std::result::Result<Arc<dyn FileHandle>, OpenReadError> {
        let full = self.root.join(path);
        let file = std::fs::File::open(&full).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => OpenReadError::FileDoesNotExist(path.to_path_buf()),
            _ => OpenReadError::wrap_io_error(e, full.clone()),
        })?;
        let len = file
            .metadata()
            .map_err(|e| OpenReadError::wrap_io_error(e, full))?
            .len() as usize;
        Ok(Arc::new(ReadFile { file, len }))
    }

    fn delete(&self, path: &Path) -> std::result::Result<(), DeleteError> {
        Err(DeleteError::IoError {
            io_error: Arc::new(io::Error::other("the index is read-only")),
            filepath: path.to_path_buf(),
        })
    }

    fn exists(&self, path: &Path) -> std::result::Result<bool, OpenReadError> {
        Ok(self.root.join(path).exists())
    }

    fn open_write(&self, path: &Path) -> std::result::Result<WritePtr, OpenWriteError> {
        Err(OpenWriteError::wrap_io_error(
            io::Error::other("the index is read-only"),
            path.to_path_buf(),
        ))
    }

    fn atomic_read(&self, path: &Path) -> std::result::Result<Vec<u8>, OpenReadError> {
        let full = self.root.join(path);
        std::fs::read(&full).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => OpenReadError::FileDoesNotExist(path.to_path_buf()),
            _ => OpenReadError::wrap_io_error(e, full),
        })
    }

    fn atomic_write(&self, _path: &Path, _data: &[u8]) -> io::Result<()> {
        Err(io::Error::other("the index is read-only"))
    }

    fn sync_directory(&self) -> io::Result<()> {
        Ok(())
    }

    /// Nothing here is ever written: a lock guards nothing.
    fn acquire_lock(&self, _lock: &Lock) -> std::result::Result<DirectoryLock, LockError> {
        Ok(DirectoryLock::from(Box::new(())))
    }

    fn watch(&self, _callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        Ok(WatchHandle::empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Move the stamp's time of taking forward, as if it had been taken long
    /// after every file it records last changed.
    fn settle_stamp(index_dir: &Path) {
        let mut stamp = Stamp::read(index_dir).expect("a stamp was written");
        for snap in [&mut stamp.sources, &mut stamp.index] {
            snap.taken += 10_000_000_000;
        }
        stamp.write(index_dir);
    }

    #[test]
    fn a_settled_stamp_stands_in_for_hashing_until_a_source_changes() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = Paths {
            rulebook: tmp.path().join("rulebook"),
            index: tmp.path().join("index"),
            data_dir: tmp.path().join("data"),
        };
        std::fs::create_dir_all(&paths.rulebook).unwrap();
        std::fs::create_dir_all(paths.data_dir.join("cards")).unwrap();
        let card = paths.data_dir.join("cards/set.json");
        std::fs::write(paths.rulebook.join("a.md"), "# A {#x.a}\n\nText.\n").unwrap();
        std::fs::write(&card, "[1]").unwrap();
        let sources = Sources::of(&paths).unwrap();
        let doc = Doc {
            id: "x.a".into(),
            game: crate::rulebook::Game::Swtcg,
            kind: schema::DocKind::Rule,
            titles: vec!["A".into()],
            body: "Text.".into(),
            crumbs: Vec::new(),
            doc: "a".into(),
            card: None,
            superseded: false,
            prior: 1.0,
            see: Vec::new(),
        };
        build(&paths.index, &[doc], sources.fingerprint().unwrap()).unwrap();
        if Snapshot::take(std::iter::once(("c", card.as_path()))).files[0]
            .1
            .is_none()
        {
            return; // no change times on this platform: every open hashes
        }
        // No stamp yet: the sources are hashed, and a stamp written.
        let sources = Sources::of(&paths).unwrap();
        assert!(open_current(&paths.index, &sources).unwrap().is_some());
        assert!(sources.fingerprint.get().is_some());
        // A settled stamp: opened without hashing.
        settle_stamp(&paths.index);
        let sources = Sources::of(&paths).unwrap();
        assert!(open_current(&paths.index, &sources).unwrap().is_some());
        assert!(sources.fingerprint.get().is_none(), "hashed");
        // The same bytes written again: hashed, and still current.
        std::fs::write(&card, "[1]").unwrap();
        let sources = Sources::of(&paths).unwrap();
        assert!(open_current(&paths.index, &sources).unwrap().is_some());
        assert!(sources.fingerprint.get().is_some());
        // Other bytes of the same size: stale, whatever the stamp says.
        settle_stamp(&paths.index);
        std::fs::write(&card, "[2]").unwrap();
        let sources = Sources::of(&paths).unwrap();
        assert!(open_current(&paths.index, &sources).unwrap().is_none());
        // A file of the generation rewritten: its checksums are read again.
        std::fs::write(&card, "[1]").unwrap();
        let sources = Sources::of(&paths).unwrap();
        assert!(open_current(&paths.index, &sources).unwrap().is_some());
        settle_stamp(&paths.index);
        let generation = current(&paths.index).unwrap();
        let victim = std::fs::read_dir(&generation)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "idx" || x == "term"))
            .unwrap();
        let mut bytes = std::fs::read(&victim).unwrap();
        bytes[0] ^= 0xff;
        std::fs::write(&victim, bytes).unwrap();
        let sources = Sources::of(&paths).unwrap();
        assert!(open_current(&paths.index, &sources).unwrap().is_none());
    }
}
