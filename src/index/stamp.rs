//! A cheap first check of the index against its sources: what every source
//! file and index file looked like on disk (size, modification and change
//! times, inode) when their contents were last hashed or checksummed.
//!
//! A file whose metadata is exactly as recorded has the content that was
//! hashed: writing a file always moves its change time, and no tool sets a
//! change time back. Only entries recorded well after the file last changed
//! are trusted ([`RACY`]): a file changed twice within one tick of the
//! file system's clock could keep its change time. Anything else is hashed
//! again, and the stamp rewritten. Platforms without change times always hash.

use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// File name of the stamp inside the index folder (not a tantivy file).
pub const STAMP_FILE: &str = "swjudge.stamp";
const HEADER: &str = "swjudge-stamp 1";
/// A file's entry is trusted only when the file had last changed at least
/// this long before the entry was recorded.
const RACY: Duration = Duration::from_secs(2);

/// What one file looked like: size, modification and change times (ns), inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    size: u64,
    mtime: i128,
    ctime: i128,
    ino: u64,
}

impl Key {
    /// The metadata of the file at `path`; `None` where change times are unknown.
    pub fn of(path: &Path) -> Option<Key> {
        let meta = std::fs::metadata(path).ok()?;
        Key::from_meta(&meta)
    }

    #[cfg(unix)]
    fn from_meta(meta: &std::fs::Metadata) -> Option<Key> {
        use std::os::unix::fs::MetadataExt;
        let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
        Some(Key {
            size: meta.len(),
            mtime: ns(meta.mtime(), meta.mtime_nsec()),
            ctime: ns(meta.ctime(), meta.ctime_nsec()),
            ino: meta.ino(),
        })
    }

    #[cfg(not(unix))]
    fn from_meta(_: &std::fs::Metadata) -> Option<Key> {
        None
    }
}

/// Nanoseconds since the epoch, now.
pub fn now() -> i128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
}

/// Files by name with their metadata, as recorded at `taken`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    pub taken: i128,
    pub files: Vec<(String, Option<Key>)>,
}

impl Snapshot {
    /// The metadata of `files` (name, path), read now.
    pub fn take<'a>(files: impl Iterator<Item = (&'a str, &'a Path)>) -> Snapshot {
        let taken = now();
        Snapshot {
            taken,
            files: files.map(|(n, p)| (n.to_string(), Key::of(p))).collect(),
        }
    }

    /// Whether `current` holds the same files, each exactly as recorded here,
    /// and recorded well after it last changed.
    pub fn vouches_for(&self, current: &Snapshot) -> bool {
        let settled = self.taken - RACY.as_nanos() as i128;
        self.files.len() == current.files.len()
            && self.files.iter().zip(&current.files).all(|(a, b)| {
                a.0 == b.0
                    && matches!((a.1, b.1), (Some(x), Some(y)) if x == y && x.ctime < settled && x.mtime < settled)
            })
    }
}

/// The record kept in the index folder: the sources' fingerprint and the
/// metadata of the sources and of the index files it was computed over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stamp {
    pub fingerprint: String,
    pub sources: Snapshot,
    pub index: Snapshot,
}

impl Stamp {
    /// The stamp of the index folder `dir`; `None` when missing or unreadable.
    pub fn read(dir: &Path) -> Option<Stamp> {
        let text = std::fs::read_to_string(dir.join(STAMP_FILE)).ok()?;
        let mut lines = text.lines();
        if lines.next()? != HEADER {
            return None;
        }
        let fingerprint = lines.next()?.strip_prefix("fingerprint ")?.to_string();
        let mut stamp = Stamp {
            fingerprint,
            ..Stamp::default()
        };
        for line in lines {
            let (kind, rest) = line.split_once(' ')?;
            let snap = match kind {
                "sources" => &mut stamp.sources,
                "index" => &mut stamp.index,
                _ => return None,
            };
            if let Some(taken) = rest.strip_prefix("taken ") {
                snap.taken = taken.parse().ok()?;
                continue;
            }
            let mut f = rest.splitn(5, ' ');
            let mut num = || f.next()?.parse::<i128>().ok();
            let (size, mtime, ctime, ino) = (num()?, num()?, num()?, num()?);
            let name = f.next()?.to_string();
            let key = Key {
                size: u64::try_from(size).ok()?,
                mtime,
                ctime,
                ino: u64::try_from(ino).ok()?,
            };
            snap.files.push((name, Some(key)));
        }
        Some(stamp)
    }

    /// Write the stamp into the index folder `dir` (best effort: a stamp that
    /// cannot be written only means hashing next time). Files whose metadata
    /// is unknown make no stamp.
    pub fn write(&self, dir: &Path) {
        let mut out = format!("{HEADER}\nfingerprint {}\n", self.fingerprint);
        for (kind, snap) in [("sources", &self.sources), ("index", &self.index)] {
            out.push_str(&format!("{kind} taken {}\n", snap.taken));
            for (name, key) in &snap.files {
                let Some(k) = key else {
                    return;
                };
                if name.contains('\n') {
                    return;
                }
                out.push_str(&format!(
                    "{kind} {} {} {} {} {name}\n",
                    k.size, k.mtime, k.ctime, k.ino
                ));
            }
        }
        let tmp = dir.join(format!(
            ".{STAMP_FILE}.tmp-{}-{:x}",
            std::process::id(),
            now()
        ));
        if std::fs::write(&tmp, out).is_err()
            || std::fs::rename(&tmp, dir.join(STAMP_FILE)).is_err()
        {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamp_round_trips_and_vouches_only_for_settled_files() {
        let dir = std::env::temp_dir().join(format!("swjudge-stamp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a b.md");
        std::fs::write(&file, "text").unwrap();
        let snap = Snapshot::take([("a b.md", file.as_path())].into_iter());
        if snap.files[0].1.is_none() {
            return; // no change times on this platform: nothing is vouched for
        }
        // Just written: too recent to vouch for.
        assert!(!snap.vouches_for(&snap));
        let mut old = snap.clone();
        old.taken += RACY.as_nanos() as i128 * 2;
        assert!(old.vouches_for(&snap));
        let stamp = Stamp {
            fingerprint: "fp:1".into(),
            sources: old.clone(),
            index: Snapshot::default(),
        };
        stamp.write(&dir);
        assert_eq!(Stamp::read(&dir), Some(stamp));
        // A rewrite moves the change time.
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&file, "text").unwrap();
        let now = Snapshot::take([("a b.md", file.as_path())].into_iter());
        assert!(!old.vouches_for(&now));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
