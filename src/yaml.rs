//! The one YAML loader. Every YAML file the project reads goes through [`load`].
//!
//! It rejects unknown keys (through the target type's `deny_unknown_fields`),
//! duplicate keys, oversized input and alias bombs, expands merge keys (`<<`),
//! and names `file:line:column` in every error.
//!
//! serde-saphyr reads the file in one pass, its parser rejecting a repeated
//! key in any mapping. Merge keys are expanded only in a file that has one
//! (`<<` appears in its text) and refused elsewhere.

use crate::error::{Error, Result};
use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, MapAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use std::path::Path;

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
    if crate::paths::listed_lines(text).next().is_none() {
        return Err(Error::Input(format!(
            "{}: file is empty (expected a YAML mapping)",
            origin.display()
        )));
    }
    parse(text).map_err(|e| Error::Input(format_error(origin, &e)))
}

fn parse<T: DeserializeOwned>(text: &str) -> std::result::Result<T, serde_saphyr::Error> {
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
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::Error;
    options.merge_keys = if text.contains("<<") {
        serde_saphyr::MergeKeyPolicy::Merge
    } else {
        serde_saphyr::MergeKeyPolicy::Error
    };
    serde_saphyr::from_str_with_options(text, options)
}

/// Read a mapping whose keys must all differ (`#[serde(deserialize_with =
/// "crate::yaml::unique")]`): a repeated key is an error, never a value lost,
/// even when the value is read from something other than the loader.
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
            if out.insert(k, v).is_some() {
                return Err(de::Error::custom("duplicate mapping key"));
            }
        }
        Ok(out)
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
    crate::paths::read_text_file(path, MAX_BYTES as u64, "is a folder, not a YAML file")
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
    let what = breach.split([' ', '{']).next().unwrap_or(breach);
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
