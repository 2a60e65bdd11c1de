//! The name index: the exact-name tables of the stored card data, kept on disk
//! beside it (`<data-dir>/names/cards.idx`), so that a deck check reads only
//! the card records its names find instead of parsing every stored file.
//!
//! It holds, for every stored card (in the order [`super::load_imported`]
//! reads them), its game, where its record lies in its stored file, its label,
//! its reference and the nicknames the data implies for it; and every key of
//! the exact-name tables ([`names::Names`]: each tier, references, front titles)
//! and each card's set and position, with the cards under it, sorted for a
//! binary search. The file is written by `cards import` and `cards remove`,
//! and rebuilt when found missing or stale.
//!
//! It is a cache, never a source of answers of its own: it carries a checksum
//! of itself and a fingerprint of the stored files' contents, and is used only
//! when the files are those it was built from (a stamp of their metadata
//! vouches for that without reading them; otherwise they are hashed again). A
//! damaged, stale or unreadable index is not used, and a record read through
//! it must be the card the index says.

use super::formats::stored_files;
use super::names::{self, Table};
use super::{Card, CardDb, SourceFile};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::index::stamp::{Snapshot, Stamp};
use crate::paths::write_atomic;
use rustc_hash::FxHashMap;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

const MAGIC: &str = "swjudge-names 1";
/// The folder of the data directory that holds the index and its stamp.
pub const DIR: &str = "names";
const FILE: &str = "cards.idx";
/// Numbers per card in the card table.
const CARD_WORDS: usize = 8;
/// Numbers per key in the key table, and per implied nickname.
const KEY_WORDS: usize = 4;
const IMPLIED_WORDS: usize = 3;

/// A stored file's name and contents.
type Stored = (String, Vec<u8>);

/// The stored card files, by name.
fn stored(data_dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    Ok(stored_files(data_dir, |_| true)?
        .into_iter()
        .map(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (name, p)
        })
        .collect())
}

/// Write the stamp that vouches for an index built from files as `sources` shows them.
fn stamp(dir: &Path, fingerprint: String, sources: Snapshot) {
    let index = Snapshot::default();
    Stamp {
        fingerprint,
        sources,
        index,
    }
    .write(dir);
}

fn snapshot(files: &[(String, PathBuf)]) -> Snapshot {
    Snapshot::take(files.iter().map(|(n, p)| (n.as_str(), p.as_path())))
}

/// A hash of the stored files' names and contents.
fn fingerprint(files: &[Stored]) -> String {
    let mut h = Xxh3::new();
    for (name, bytes) in files {
        h.update(name.as_bytes());
        h.update(&[0]);
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    }
    format!("{:032x}", h.digest128())
}

fn read_all(files: &[(String, PathBuf)]) -> Result<Vec<Stored>> {
    files
        .iter()
        .map(|(n, p)| -> Result<Stored> {
            Ok((n.clone(), std::fs::read(p).map_err(|e| Error::io(p, e))?))
        })
        .collect()
}

/// A stored file with its card records unparsed.
#[derive(Deserialize)]
struct RawSource<'a> {
    format: String,
    file: String,
    #[serde(borrow)]
    cards: Vec<&'a RawValue>,
}

/// Where a card's record lies: the stored file (its number) and the bytes.
#[derive(Debug, Clone, Copy)]
struct Place {
    file: usize,
    at: usize,
    len: usize,
}

/// Parse the stored files, keeping where each card's record lies.
fn parse(files: &[Stored]) -> Result<(Vec<SourceFile>, Vec<Place>)> {
    let mut sources = Vec::new();
    let mut places = Vec::new();
    for (fi, (name, bytes)) in files.iter().enumerate() {
        let text = super::stored_text(name, bytes)?;
        let unreadable = |e: serde_json::Error| super::unreadable(name, &e);
        let raw: RawSource = serde_json::from_str(text).map_err(unreadable)?;
        let mut cards = Vec::with_capacity(raw.cards.len());
        for r in raw.cards {
            let s = r.get();
            cards.push(serde_json::from_str::<Card>(s).map_err(unreadable)?);
            places.push(Place {
                file: fi,
                at: s.as_ptr() as usize - text.as_ptr() as usize,
                len: s.len(),
            });
        }
        sources.push(SourceFile {
            format: raw.format,
            file: raw.file,
            cards,
        });
    }
    Ok((sources, places))
}

/// Bytes the index is written as.
#[derive(Default)]
struct Writer {
    words: Vec<u32>,
    heap: Vec<u8>,
}

impl Writer {
    fn num(n: usize) -> u32 {
        u32::try_from(n).unwrap_or(u32::MAX)
    }
    fn string(&mut self, s: &[u8]) {
        self.words.push(Self::num(self.heap.len()));
        self.words.push(Self::num(s.len()));
        self.heap.extend_from_slice(s);
    }
}

/// The index of `db` (built from `files`, whose records lie at `places`).
fn encode(fp: &str, files: &[Stored], db: &CardDb, places: &[Place]) -> Vec<u8> {
    let mut keys: Vec<(Vec<u8>, &[usize])> = db
        .names()
        .entries()
        .map(|(t, k, v)| {
            let mut key = vec![t.code()];
            key.extend_from_slice(k.as_bytes());
            (key, v)
        })
        .collect();
    keys.sort();
    let mut w = Writer::default();
    let mut postings: Vec<u32> = Vec::new();
    w.words.push(Writer::num(files.len()));
    for (name, _) in files {
        w.string(name.as_bytes());
    }
    w.words.push(Writer::num(db.cards.len()));
    for (i, c) in db.cards.iter().enumerate() {
        let p = places[i];
        w.words.extend([c.game as u32, Writer::num(p.file)]);
        w.words.extend([Writer::num(p.at), Writer::num(p.len)]);
        w.string(db.labels[i].as_bytes());
        w.string(db.refs[i].as_bytes());
    }
    w.words.push(Writer::num(keys.len()));
    for (k, v) in &keys {
        w.string(k);
        w.words.push(Writer::num(postings.len()));
        w.words.push(Writer::num(v.len()));
        postings.extend(v.iter().map(|&i| Writer::num(i)));
    }
    let implied = &db.implied;
    w.words.push(Writer::num(implied.len()));
    for (i, n) in implied {
        w.words.push(Writer::num(*i));
        w.string(n.as_bytes());
    }
    w.words.push(Writer::num(postings.len()));
    w.words.extend(postings);
    let mut body: Vec<u8> = Vec::with_capacity(w.words.len() * 4 + w.heap.len());
    for n in &w.words {
        body.extend_from_slice(&n.to_le_bytes());
    }
    body.extend_from_slice(&w.heap);
    let mut out = format!("{MAGIC}\n{fp}\n{:016x}\n", xxh3_64(&body)).into_bytes();
    out.extend_from_slice(&body);
    out
}

/// One card as the index knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry<'a> {
    pub game: Game,
    file: usize,
    at: usize,
    len: usize,
    pub label: &'a str,
    pub reference: &'a str,
}

/// A name index read from disk, checked against the stored files.
#[derive(Debug, Default)]
pub struct NameIndex {
    bytes: Vec<u8>,
    /// Where the numbers start, and the heap of strings.
    words_at: usize,
    heap_at: usize,
    files: Vec<String>,
    /// The first number of each table, and its rows.
    cards: (usize, usize),
    keys: (usize, usize),
    implied: (usize, usize),
    postings: (usize, usize),
}

impl NameIndex {
    /// The index of the data directory, when it is sound and current: else
    /// it is built again from the stored files (and written, when it can be).
    /// `None` when the stored files cannot be read.
    pub fn open(data_dir: &Path) -> Option<NameIndex> {
        NameIndex::current(data_dir).or_else(|| write(data_dir).ok())
    }

    /// The index on disk, when it is sound and built from the stored files as
    /// they are now.
    fn current(data_dir: &Path) -> Option<NameIndex> {
        let dir = data_dir.join(DIR);
        let ix = NameIndex::decode(std::fs::read(dir.join(FILE)).ok()?)?;
        let files = stored(data_dir).ok()?;
        if files.len() != ix.files.len() || files.iter().zip(&ix.files).any(|(a, b)| a.0 != *b) {
            return None;
        }
        let fp = ix.fingerprint()?.to_string();
        let now = snapshot(&files);
        let vouched =
            Stamp::read(&dir).is_some_and(|s| s.fingerprint == fp && s.sources.vouches_for(&now));
        if !vouched {
            if fingerprint(&read_all(&files).ok()?) != fp {
                return None;
            }
            stamp(&dir, fp, now);
        }
        Some(ix)
    }

    /// Read an index's bytes; `None` when damaged.
    fn decode(bytes: Vec<u8>) -> Option<NameIndex> {
        let mut lines = bytes.splitn(4, |&b| b == b'\n');
        if lines.next()? != MAGIC.as_bytes() {
            return None;
        }
        let _fingerprint = lines.next()?;
        let sum = std::str::from_utf8(lines.next()?).ok()?;
        let body = lines.next()?;
        if format!("{:016x}", xxh3_64(body)) != sum {
            return None;
        }
        let words_at = bytes.len() - body.len();
        let mut ix = NameIndex {
            bytes,
            words_at,
            ..NameIndex::default()
        };
        let mut at = 0;
        let mut table = |ix: &NameIndex, width: usize| -> Option<(usize, usize)> {
            let rows = ix.word(at)? as usize;
            let t = (at + 1, rows);
            at += 1 + rows.checked_mul(width)?;
            Some(t)
        };
        let files = table(&ix, 2)?;
        ix.cards = table(&ix, CARD_WORDS)?;
        ix.keys = table(&ix, KEY_WORDS)?;
        ix.implied = table(&ix, IMPLIED_WORDS)?;
        ix.postings = table(&ix, 1)?;
        ix.heap_at = ix.words_at.checked_add(at.checked_mul(4)?)?;
        if ix.heap_at > ix.bytes.len() {
            return None;
        }
        ix.files = (0..files.1)
            .map(|f| ix.string(files.0 + 2 * f).map(str::to_string))
            .collect::<Option<_>>()?;
        Some(ix)
    }

    fn fingerprint(&self) -> Option<&str> {
        let line = self.bytes.split(|&b| b == b'\n').nth(1)?;
        std::str::from_utf8(line).ok()
    }

    /// The `n`-th number of the body.
    fn word(&self, n: usize) -> Option<u32> {
        let at = self.words_at.checked_add(n.checked_mul(4)?)?;
        let b = self.bytes.get(at..at + 4)?;
        Some(u32::from_le_bytes(b.try_into().ok()?))
    }

    fn bytes_at(&self, n: usize) -> Option<&[u8]> {
        let (at, len) = (self.word(n)? as usize, self.word(n + 1)? as usize);
        let start = self.heap_at.checked_add(at)?;
        self.bytes.get(start..start.checked_add(len)?)
    }

    /// The string whose place the numbers at `n` give.
    fn string(&self, n: usize) -> Option<&str> {
        std::str::from_utf8(self.bytes_at(n)?).ok()
    }

    /// Card `i` as the index knows it.
    pub fn entry(&self, i: usize) -> Option<Entry<'_>> {
        if i >= self.cards.1 {
            return None;
        }
        let n = self.cards.0 + i * CARD_WORDS;
        let game = *Game::ALL.get(self.word(n)? as usize)?;
        Some(Entry {
            game,
            file: self.word(n + 1)? as usize,
            at: self.word(n + 2)? as usize,
            len: self.word(n + 3)? as usize,
            label: self.string(n + 4)?,
            reference: self.string(n + 6)?,
        })
    }

    /// How many cards of `game` (of every game when `None`) are stored.
    pub fn count(&self, game: Option<Game>) -> usize {
        (0..self.cards.1)
            .filter(|&i| {
                self.entry(i)
                    .is_some_and(|e| game.is_none_or(|g| e.game == g))
            })
            .count()
    }

    /// The cards under one key of one table.
    fn postings(&self, table: u8, key: &str) -> Vec<usize> {
        let mut want = vec![table];
        want.extend_from_slice(key.as_bytes());
        let key_of = |row: usize| self.bytes_at(self.keys.0 + row * KEY_WORDS);
        let (mut lo, mut hi) = (0, self.keys.1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match key_of(mid).map(|k| k.cmp(want.as_slice())) {
                Some(std::cmp::Ordering::Less) => lo = mid + 1,
                Some(std::cmp::Ordering::Greater) => hi = mid,
                Some(std::cmp::Ordering::Equal) => {
                    let n = self.keys.0 + mid * KEY_WORDS + 2;
                    let (at, len) = match (self.word(n), self.word(n + 1)) {
                        (Some(a), Some(l)) => (a as usize, l as usize),
                        _ => return Vec::new(),
                    };
                    return (at..at.saturating_add(len))
                        .filter(|&p| p < self.postings.1)
                        .filter_map(|p| self.word(self.postings.0 + p))
                        .map(|i| i as usize)
                        .collect();
                }
                None => return Vec::new(),
            }
        }
        Vec::new()
    }

    /// Every card an exact lookup of `query` can find ([`names::lookup_keys`]).
    pub fn named(&self, query: &str) -> Vec<usize> {
        let mut v: Vec<usize> = names::lookup_keys(query)
            .into_iter()
            .flat_map(|(t, k)| self.postings(t.code(), &k))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The cards at a set and position (any case of the set).
    pub fn at_set_number(&self, set: &str, number: &str) -> Vec<usize> {
        self.postings(Table::SetNumber.code(), &names::set_number_key(set, number))
    }

    /// The nicknames the data implies, by card.
    fn implied(&self) -> Vec<(usize, &str)> {
        (0..self.implied.1)
            .filter_map(|r| {
                let n = self.implied.0 + r * IMPLIED_WORDS;
                Some((self.word(n)? as usize, self.string(n + 1)?))
            })
            .collect()
    }

    /// The cards `wanted` (numbers in this index), read from their stored
    /// files, with the labels, references and implied nicknames they have among
    /// every stored card. `None` when a record cannot be read or is not the
    /// card the index says.
    pub fn load(&self, data_dir: &Path, wanted: &[usize]) -> Option<CardDb> {
        let mut wanted = wanted.to_vec();
        wanted.sort_unstable();
        wanted.dedup();
        let entries: Vec<Entry> = wanted
            .iter()
            .map(|&i| self.entry(i))
            .collect::<Option<_>>()?;
        let mut cards = Vec::with_capacity(entries.len());
        let mut open: Option<(usize, std::fs::File)> = None;
        let mut buf = Vec::new();
        for e in &entries {
            if open.as_ref().is_none_or(|(f, _)| *f != e.file) {
                let name = self.files.get(e.file)?;
                if name.contains(['/', '\\']) || name.starts_with('.') {
                    return None;
                }
                let f = std::fs::File::open(data_dir.join("cards").join(name)).ok()?;
                open = Some((e.file, f));
            }
            let (_, f) = open.as_mut()?;
            f.seek(SeekFrom::Start(e.at as u64)).ok()?;
            buf.resize(e.len, 0);
            f.read_exact(&mut buf).ok()?;
            let card: Card = serde_json::from_slice(&buf).ok()?;
            let base = format!("{}:{}", card.game, card.id);
            let same = e.reference == base || e.reference.starts_with(&format!("{base}@"));
            if card.game != e.game || !same {
                return None;
            }
            cards.push(card);
        }
        let local: FxHashMap<usize, usize> =
            wanted.iter().enumerate().map(|(l, &g)| (g, l)).collect();
        let implied = self
            .implied()
            .into_iter()
            .filter_map(|(g, n)| Some((*local.get(&g)?, n.to_string())))
            .collect();
        Some(CardDb::from_parts(
            cards,
            entries.iter().map(|e| e.label.to_string()).collect(),
            entries.iter().map(|e| e.reference.to_string()).collect(),
            implied,
        ))
    }
}

/// Build the name index of the stored card files and write it (with a stamp
/// of the files it was built from) into `<data_dir>/names/`. An index that
/// cannot be written is still returned, for this run; one that cannot be
/// built (unreadable stored data), or of no stored data, is removed.
pub fn write(data_dir: &Path) -> Result<NameIndex> {
    let dir = data_dir.join(DIR);
    let built = (|| -> Result<(Vec<u8>, String, Snapshot)> {
        let files = stored(data_dir)?;
        let before = snapshot(&files);
        let contents = read_all(&files)?;
        let fp = fingerprint(&contents);
        let (sources, places) = parse(&contents)?;
        let db = CardDb::build(sources, None);
        Ok((encode(&fp, &contents, &db, &places), fp, before))
    })();
    let (bytes, fp, before) = match built {
        Ok(b) => b,
        Err(e) => {
            let _ = std::fs::remove_file(dir.join(FILE));
            return Err(e);
        }
    };
    // with nothing stored, nothing is written (a check of no data leaves no trace)
    if before.files.is_empty() {
        let _ = std::fs::remove_file(dir.join(FILE));
    } else if std::fs::create_dir_all(&dir).is_ok() && write_atomic(&dir.join(FILE), &bytes).is_ok()
    {
        stamp(&dir, fp, before);
    }
    NameIndex::decode(bytes).ok_or_else(|| Error::Input("name index: not readable back".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(game: Game, id: &str, title: &str) -> Card {
        let mut c = Card::new(game, id, title, format!("t.json#{id}"));
        c.set = Some("Premiere".into());
        c.number = Some(id.into());
        c
    }

    fn store(dir: &Path, name: &str, cards: Vec<Card>) {
        let s = SourceFile {
            format: "t".into(),
            file: "t.json".into(),
            cards,
        };
        std::fs::create_dir_all(dir.join("cards")).unwrap();
        std::fs::write(
            dir.join("cards").join(name),
            serde_json::to_vec(&s).unwrap(),
        )
        .unwrap();
    }

    #[test]
    fn no_stored_data_writes_no_index() {
        let dir = tempfile::tempdir().unwrap();
        let ix = NameIndex::open(dir.path()).unwrap();
        assert_eq!(ix.count(None), 0);
        assert!(!dir.path().join(DIR).exists());
    }

    #[test]
    fn finds_the_records_a_name_needs_and_refuses_stale_or_damaged_data() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        store(
            d,
            "swccg-a.json",
            vec![
                card(Game::Swccg, "1", "Alderaan"),
                card(Game::Swccg, "2", "Han Solo"),
            ],
        );
        store(
            d,
            "swtcg-b.json",
            vec![card(Game::Swtcg, "ANH-1", "Han Solo (A)")],
        );
        let ix = write(d).unwrap();
        assert_eq!(ix.count(None), 3);
        assert_eq!(ix.count(Some(Game::Swtcg)), 1);
        let mut han = ix.named("han solo");
        han.sort_unstable();
        assert_eq!(han, [1, 2], "letters in one game, version in another");
        assert_eq!(ix.named("SWCCG:1"), [0]);
        assert_eq!(ix.at_set_number("premiere", "ANH-1"), [2]);
        assert!(ix.named("nobody").is_empty());
        let db = ix.load(d, &[2, 1]).unwrap();
        assert_eq!(db.cards.len(), 2);
        assert_eq!(db.cards[0].title, "Han Solo");
        assert_eq!(db.refs, ["swccg:2", "swtcg:ANH-1"]);
        assert!(NameIndex::current(d).is_some());
        // another file changes the data: the index is stale until rebuilt
        store(d, "swccg-a.json", vec![card(Game::Swccg, "1", "Alderaan")]);
        assert!(NameIndex::current(d).is_none());
        assert_eq!(NameIndex::open(d).unwrap().count(None), 2, "rebuilt");
        // a damaged index is never used
        let f = d.join(DIR).join(FILE);
        let mut bytes = std::fs::read(&f).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&f, bytes).unwrap();
        assert!(NameIndex::current(d).is_none());
    }
}
