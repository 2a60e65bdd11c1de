//! The one YAML loader. Every YAML file the project reads goes through [`load`].
//!
//! It rejects unknown keys (through the target type's `deny_unknown_fields`),
//! duplicate keys, oversized input and alias bombs, expands merge keys (`<<`),
//! and names `file:line:column` in every error.
//!
//! A file is first read by the subset reader (`yaml/subset.rs`, `yaml/tree.rs`), which reads
//! the everyday YAML the project's files are written in about eight times
//! faster than the full parser and declines anything else. A file it declines,
//! or whose value the target type refuses, is read by serde-saphyr, which gives
//! every error message; a file it reads has the value serde-saphyr would give.
//!
//! serde-saphyr reads a file in one pass that hands repeated keys to the target type:
//! derived structs reject a repeated field themselves, and every map of a YAML
//! model is read through [`unique`] (or [`Json`]), which rejects a repeated key.
//! Only when that pass fails is the file read again with the parser's own
//! duplicate-key check, for its message and position. Remembering every key of
//! every mapping costs about a fifth of a scenario's load, so the pass that
//! succeeds does not. Expanding a merge key needs the keys remembered, so a file
//! that has one (`<<` appears in its text) is read with merges expanded, and one
//! that has none with merge keys refused, which remembers nothing.

mod subset;
mod tree;

use crate::error::{Error, Result};
use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::fmt;
use std::marker::PhantomData;
use std::path::Path;

/// An opening brace (named, so that no brace stands alone in code).
const OPEN_BRACE: char = '\u{7b}';

/// Largest YAML document accepted, in bytes.
pub const MAX_BYTES: usize = 1 << 20;

/// Parse `text` (read from `origin`, used only in messages) into `T`.
pub fn load<T: DeserializeOwned>(origin: &Path, text: &str) -> Result<T> {
    if text.len() > MAX_BYTES {
        return Err(Error::Input(format!(
            "{}: file is {} bytes; the limit is {} bytes",
            origin.display(),
            text.len(),
            MAX_BYTES
        )));
    }
    if text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
    {
        return Err(Error::Input(format!(
            "{}: file is empty (expected a YAML mapping)",
            origin.display()
        )));
    }
    if let Some(v) = read_subset(text) {
        return Ok(v);
    }
    match parse(text, serde_saphyr::DuplicateKeyPolicy::PassThrough) {
        Ok(v) => Ok(v),
        // Read again, the parser remembering keys: a repeated key is then named
        // where it stands.
        Err(_) => parse(text, serde_saphyr::DuplicateKeyPolicy::Error)
            .map_err(|e| Error::Input(format_error(origin, &e))),
    }
}

/// `text` read by the subset reader, or `None` when it declines the text or
/// the target type refuses what it read.
fn read_subset<T: DeserializeOwned>(text: &str) -> Option<T> {
    subset::read(text).and_then(|t| tree::from_tree(&t).ok())
}

fn parse<T: DeserializeOwned>(
    text: &str,
    duplicates: serde_saphyr::DuplicateKeyPolicy,
) -> std::result::Result<T, serde_saphyr::Error> {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_reader_input_bytes = Some(MAX_BYTES);
    budget.max_events = 200_000;
    budget.max_aliases = 200;
    budget.max_anchors = 200;
    budget.max_depth = 64;
    budget.max_documents = 1;
    budget.max_nodes = 100_000;
    budget.max_total_scalar_bytes = MAX_BYTES;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options.duplicate_keys = duplicates;
    options.merge_keys = if text.contains("<<") {
        serde_saphyr::MergeKeyPolicy::Merge
    } else {
        serde_saphyr::MergeKeyPolicy::Error
    };
    serde_saphyr::from_str_with_options(text, options)
}

/// Both readers on `text`: the subset reader's value (`None` when it declines)
/// and serde-saphyr's (`None` on an error).
#[cfg(test)]
pub(crate) fn both<T: DeserializeOwned>(text: &str) -> (Option<T>, Option<T>) {
    let fast = read_subset(text);
    let full = parse(text, serde_saphyr::DuplicateKeyPolicy::PassThrough).ok();
    (fast, full)
}

/// Why the subset reader does not give a `T` for `text`: where it declined the
/// text, or what the typed read over its tree said; "read" when it does.
#[cfg(test)]
pub(crate) fn declined<T: DeserializeOwned>(text: &str) -> String {
    match subset::read_or_decline(text) {
        Err(d) => format!("read: line {} (subset.rs:{})", d.line, d.why),
        Ok(t) => match tree::from_tree::<T>(&t) {
            Err(e) => format!("typed: {e}"),
            Ok(_) => "read".into(),
        },
    }
}

/// A value's debug form without the character spans serde-saphyr's locations
/// carry (the subset reader gives lines and columns only; nothing reads spans).
#[cfg(test)]
pub(crate) fn debug_without_spans<T: fmt::Debug>(v: &T) -> String {
    let re = regex::Regex::new(r"span: Span \{[^{}]*(\{[^{}]*\}[^{}]*)*\}, ").unwrap();
    re.replace_all(&format!("{v:?}"), "").into_owned()
}

/// Copies of `text`, each damaged in one place: a character or a YAML
/// indicator inserted, a few characters deleted, a line repeated, dropped,
/// indented or outdented. `seed` picks the places.
#[cfg(test)]
pub(crate) fn damaged(text: &str, seed: u64, copies: usize) -> Vec<String> {
    const INSERTS: [&str; 36] = [
        " ", ":", "-", "#", "\n", "\"", "'", "{", "}", "[", "]", ",", "&a ", "*a", "|", ">", "  ",
        "\n  ", "null", "1e3", "~", "- ", ": ", "\\", "é", "\u{85}", "!x ", "? ", "%", "@", "`",
        "&b", "*b", "0x1", "yes", "y",
    ];
    let mut state = seed | 1;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    let bounds: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    (0..copies)
        .map(|_| {
            let at = bounds[next(bounds.len())];
            let line = next(lines.len());
            match next(6) {
                0 | 1 => format!(
                    "{}{}{}",
                    &text[..at],
                    INSERTS[next(INSERTS.len())],
                    &text[at..]
                ),
                2 => {
                    let end = bounds
                        [(bounds.partition_point(|&b| b < at) + 1 + next(3)).min(bounds.len() - 1)];
                    format!("{}{}", &text[..at], &text[end..])
                }
                3 => {
                    let mut l = lines.clone();
                    l.insert(line, lines[line]);
                    l.concat()
                }
                4 => {
                    let mut l = lines.clone();
                    l.remove(line);
                    l.concat()
                }
                _ => {
                    let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
                    if next(2) == 0 {
                        l[line].insert(0, ' ');
                    } else if l[line].starts_with(' ') {
                        l[line].remove(0);
                    }
                    l.concat()
                }
            }
        })
        .collect()
}

/// Read a mapping whose keys must all differ (`#[serde(deserialize_with =
/// "crate::yaml::unique")]`): a repeated key is an error, never a value lost.
pub fn unique<'de, D, K, V>(d: D) -> std::result::Result<BTreeMap<K, V>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord,
    V: Deserialize<'de>,
{
    d.deserialize_map(UniqueMap(PhantomData))
}

struct UniqueMap<K, V>(PhantomData<(K, V)>);

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Visitor<'de> for UniqueMap<K, V> {
    type Value = BTreeMap<K, V>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a mapping")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> std::result::Result<Self::Value, A::Error> {
        let mut out = BTreeMap::new();
        while let Some((k, v)) = m.next_entry()? {
            match out.entry(k) {
                Entry::Vacant(e) => {
                    e.insert(v);
                }
                Entry::Occupied(_) => return Err(de::Error::custom("duplicate mapping key")),
            }
        }
        Ok(out)
    }
}

/// Any YAML value, read as JSON, a repeated key at any depth being an error.
#[derive(Debug, Clone, PartialEq)]
pub struct Json(pub serde_json::Value);

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor).map(Json)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = serde_json::Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<E>(self, v: bool) -> std::result::Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_i64<E>(self, v: i64) -> std::result::Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> std::result::Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> std::result::Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_str<E>(self, v: &str) -> std::result::Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_string<E>(self, v: String) -> std::result::Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_unit<E>(self) -> std::result::Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_none<E>(self) -> std::result::Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Self::Value, D::Error> {
        Json::deserialize(d).map(|j| j.0)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> std::result::Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(Json(v)) = s.next_element()? {
            out.push(v);
        }
        Ok(serde_json::Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> std::result::Result<Self::Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some((k, Json(v))) = m.next_entry::<String, Json>()? {
            if out.insert(k, v).is_some() {
                return Err(de::Error::custom("duplicate mapping key"));
            }
        }
        Ok(serde_json::Value::Object(out))
    }
}

/// Read and parse a YAML file. Only regular files are read (a FIFO or device
/// would block or never end), and never more than [`MAX_BYTES`] + 1 bytes.
pub fn load_file<T: DeserializeOwned>(path: &Path) -> Result<T> {
    let text = read_text(path)?;
    load(path, &text)
}

/// Read a regular UTF-8 text file of at most [`MAX_BYTES`] bytes.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes =
        crate::paths::read_regular_file(path, MAX_BYTES as u64, "is a folder, not a YAML file")?;
    String::from_utf8(bytes).map_err(|e| Error::not_utf8(path, &e))
}

fn format_error(origin: &Path, e: &serde_saphyr::Error) -> String {
    let msg = e.without_snippet().to_string();
    let first = msg
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("invalid YAML")
        .trim();
    match e.location() {
        Some(loc) => format!(
            "{}:{}:{}: {}",
            origin.display(),
            loc.line(),
            loc.column(),
            plain(strip_location(first))
        ),
        None => format!("{}: {}", origin.display(), plain(first)),
    }
}

/// The parser's message in the user's terms: no advice about parser options,
/// and budget breaches said in words instead of debug output.
fn plain(msg: &str) -> String {
    if let Some(i) = msg.find(", set DuplicateKeyPolicy") {
        return msg[..i].to_string();
    }
    let Some(breach) = msg.strip_prefix("budget breached: ") else {
        return msg.to_string();
    };
    let what = breach.split([' ', OPEN_BRACE]).next().unwrap_or(breach);
    match what {
        "Documents" => "more than one YAML document (a `---` separator); put one per file".into(),
        "Aliases" | "Anchors" | "MergeKeys" => {
            "too many anchors or aliases (alias expansion is limited)".into()
        }
        "Depth" => "nested too deeply (the limit is 64 levels)".into(),
        "Events" | "Nodes" => "too many YAML nodes (after alias expansion)".into(),
        "ScalarBytes" => {
            format!("too much text (the limit is {MAX_BYTES} bytes after alias expansion)")
        }
        _ => format!("YAML size limit exceeded ({what})"),
    }
}

/// Drop a trailing "at line L, column C" that the parser's message may carry,
/// since the location is already given in front.
fn strip_location(s: &str) -> &str {
    match s.rfind(" at line ") {
        Some(i) => s[..i].trim_end_matches([',', ' ']),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct T {
        a: u32,
        #[serde(default)]
        b: Vec<String>,
    }

    fn err(text: &str) -> String {
        load::<T>(Path::new("s.yaml"), text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn reports_file_line_column() {
        let e = err("a: 1\nzzz: 2\n");
        assert!(e.starts_with("s.yaml:2:1:"), "{e}");
        assert!(e.contains("zzz"), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }

    #[test]
    fn rejects_duplicate_keys() {
        let e = err("a: 1\na: 2\n");
        assert!(e.starts_with("s.yaml:2:"), "{e}");
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct M {
        #[serde(deserialize_with = "unique")]
        m: BTreeMap<String, u32>,
        #[serde(default)]
        j: Option<Json>,
    }

    #[test]
    fn maps_and_untyped_values_reject_repeated_keys() {
        let e = |text: &str| {
            load::<M>(Path::new("s.yaml"), text)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            e("m:\n  x: 1\n  x: 2\n"),
            "s.yaml:3:3: duplicate mapping key: x"
        );
        assert_eq!(
            e("m: {}\nj: [{a: {b: 1, b: 2}}]\n"),
            "s.yaml:2:16: duplicate mapping key: b"
        );
        let ok = load::<M>(
            Path::new("s.yaml"),
            "m: {x: 1, y: 2}\nj: {a: [1, 2.5, x, null, true]}\n",
        );
        let ok = ok.unwrap();
        assert_eq!(ok.m.len(), 2);
        assert_eq!(
            ok.j.unwrap().0,
            serde_json::json!({"a": [1, 2.5, "x", null, true]})
        );
    }

    #[test]
    fn merge_keys_expand_only_where_written() {
        let m: M = load(Path::new("s.yaml"), "m:\n  <<: {x: 1, y: 2}\n  y: 3\n").unwrap();
        assert_eq!(m.m.get("x"), Some(&1));
        assert_eq!(m.m.get("y"), Some(&3));
    }

    #[test]
    fn stops_alias_bombs() {
        let mut y = String::from("a: 1\nb:\n  - &x0 [\"lol\"]\n");
        for i in 1..30 {
            y.push_str(&format!(
                "  - &x{i} [*x{p},*x{p},*x{p},*x{p},*x{p},*x{p},*x{p},*x{p},*x{p}]\n",
                p = i - 1
            ));
        }
        assert!(load::<T>(Path::new("s.yaml"), &y).is_err());
    }

    #[test]
    fn type_errors_name_the_position() {
        let e = err("a: many\n");
        assert!(e.starts_with("s.yaml:1:"), "{e}");
    }

    /// Documents in the subset: the reader must read each, to serde-saphyr's value.
    const READ: &[&str] = &[
        "a: 1\nb: [x, 'y''s', \"q\\\"t\\\\\", -2, 2.5, true, ~, null]\n",
        "a:\n- 1\n- {k: v, l: [1, 2]}\nb:\n  - x: 1\n    y: 2\n  - z\n",
        "a: >\n  one\n  two\n\n  three\n    more\n  four\nb: |\n  one\n    two\n\n  three\nc: >-\n  x\n  y\n",
        "a: &x {k: 1}\nb: *x\nc: &y\n  deep: [*x, *x]\nd: *y\n",
        "a: {k: 1,\n  l: [2,\n    3], }\nb: [x, z, ]\n# comment\nc: 3 # trailing\n",
        "a:\nb: \"\"\nc: ''\nd: 1R\ne: 3RD1\nf: at:cantina\ng: Yoda Stew, the soup\n",
        "seq:\n  -\n    a: 1\n  - [1, [2, [3]]]\n  - \"x\"\n",
        "\"quoted key\": 1\n'single': {\"a\": b}\n",
        "a: b\n\n\n# only comments\n\nc: d",
        "t: 'Tatooine: Cantina'\nu: Tatooine:Cantina\n",
    ];

    #[test]
    fn subset_reader_reads_the_subset_as_serde_saphyr_does() {
        for doc in READ {
            let (fast, full) = both::<Json>(doc);
            let full = full.unwrap_or_else(|| panic!("serde-saphyr rejects {doc:?}"));
            assert_eq!(fast.as_ref(), Some(&full), "{doc:?}");
        }
    }

    /// Documents outside it: the reader declines, or reads them as serde-saphyr does.
    const ODD: &[&str] = &[
        "a: !!str 5\n",
        "a: 0x1F\nb: 1e3\nc: +5\nd: .inf\ne: 1_000\nf: 12:30\ng: yes\nh: 007\n",
        "a: multi\n  line\n",
        "a: \"multi\n  line\"\n",
        "? complex\n: key\n",
        "---\na: 1\n",
        "a: |2\n   x\n",
        "a: |+\n  x\n\n",
        "a: [x,\nb]\n",
        "a:\n\tb: 1\n",
        "a: *undefined\n",
        "a: &x [*x]\n",
        "a: 1\n  b: 2\n",
        "a:\n    b: 1\n  c: 2\n",
        "- a\n- b\n",
        "a: {b: 1}: 2\n",
        "a: b: c\n",
        "a: \"\\x41\"\n",
        "a: 'x' y\n",
        "a: >\n\n  x\n",
        "t: Tatooine: Cantina\n",
        "a: b\u{85}c\n",
        "a: \u{9f}\n",
        "a: x\u{2028}y\n",
        "a: \u{feff}x\n",
        "a: x\u{a0}y\n",
    ];

    #[test]
    fn subset_reader_declines_or_agrees_outside_the_subset() {
        for doc in ODD {
            let (fast, full) = both::<Json>(doc);
            if let Some(fast) = fast {
                assert_eq!(Some(fast), full, "{doc:?}");
            }
        }
        // Most of these the reader declines outright.
        let declined = ODD.iter().filter(|d| both::<Json>(d).0.is_none()).count();
        assert!(
            declined >= ODD.len() - 2,
            "{declined} of {} declined",
            ODD.len()
        );
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Located {
        a: serde_saphyr::Spanned<String>,
        b: Vec<serde_saphyr::Spanned<Json>>,
        c: serde_saphyr::Spanned<BTreeMap<String, u32>>,
        d: serde_saphyr::Spanned<Json>,
        e: Option<serde_saphyr::Spanned<String>>,
        f: serde_saphyr::Spanned<Json>,
    }

    #[test]
    fn subset_reader_gives_serde_saphyr_locations() {
        let doc = "a: \"é\"\nb:\n  - {x: 1}\n  - &s sé\n  - *s\n  -   [1]\nc:\n  k: 1\nd: >\n  t\ne:\nf:\n-   x\n- z\n";
        let (fast, full) = both::<Located>(doc);
        let (fast, full) = (
            fast.unwrap_or_else(|| panic!("{}", declined::<Located>(doc))),
            full.expect("serde-saphyr reads it"),
        );
        assert_eq!(debug_without_spans(&fast), debug_without_spans(&full));
        assert_eq!(
            (fast.b[2].referenced.line(), fast.b[2].defined.line()),
            (5, 4)
        );
        assert!(debug_without_spans(&fast).contains("line: 6, column: 7"));
        // A sequence at its key's indentation stands at its first item.
        assert_eq!(
            (fast.f.referenced.line(), fast.f.referenced.column()),
            (13, 5)
        );
    }

    /// Every YAML file shipped: the rulebook's corrections, the search
    /// evaluations and the scenarios.
    fn shipped_yaml() -> Vec<std::path::PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = crate::scenario::find_files(&[root.join("scenarios")]).unwrap();
        for dir in ["rulebook/corrections", "tests/data"] {
            for e in std::fs::read_dir(root.join(dir)).unwrap() {
                let p = e.unwrap().path();
                if p.extension().is_some_and(|x| x == "yaml") {
                    files.push(p);
                }
            }
        }
        files
    }

    #[test]
    fn subset_reader_reads_every_shipped_file_as_serde_saphyr_does() {
        let files = shipped_yaml();
        assert!(files.len() > 700, "{} files", files.len());
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            let (fast, full) = both::<Json>(&text);
            assert!(full.is_some(), "{}", f.display());
            // Merge keys are left to serde-saphyr.
            if !text.contains("<<") {
                assert_eq!(fast, full, "{}", f.display());
            }
        }
    }

    #[test]
    fn subset_reader_agrees_with_serde_saphyr_on_damaged_files() {
        let (mut read, mut tried) = (0, 0);
        for (i, f) in shipped_yaml().iter().enumerate() {
            let text = std::fs::read_to_string(f).unwrap();
            for copy in damaged(&text, i as u64 + 1, 6) {
                tried += 1;
                let (fast, full) = both::<Json>(&copy);
                if let Some(fast) = fast {
                    read += 1;
                    assert_eq!(Some(fast), full, "{} damaged:\n{copy}", f.display());
                }
            }
        }
        assert!(
            read * 4 > tried,
            "only {read} of {tried} damaged copies read"
        );
    }
}
