//! Finding a section by the ID a person typed: exact, ignoring case, or through a
//! published alias; and "did you mean" when nothing has it. Shared by `swjudge rule`
//! and the web page of a rule.

use super::lint::{load_aliases, normalize, resolve_alias};
use super::{Corpus, Kind, Section};
use crate::error::{Error, Result};
use itertools::Itertools;
use serde::Serialize;

/// Longest section ID accepted (the longest real one is well under 100).
pub const MAX_ID_CHARS: usize = 200;

/// Reject an empty or oversized ID; the ID trimmed.
pub fn check_id(id: &str) -> Result<&str> {
    let wanted = id.trim();
    if wanted.is_empty() {
        return Err(Error::Usage(
            "empty section ID: give one such as swccg.ar.the-stack".into(),
        ));
    }
    if wanted.chars().count() > MAX_ID_CHARS {
        return Err(Error::Usage(format!(
            "section ID is {} characters long; the limit is {MAX_ID_CHARS}",
            wanted.chars().count()
        )));
    }
    Ok(wanted)
}

/// The section with this ID, ignoring case, or the one a published alias points to
/// (then `true`: the ID was renamed).
pub fn find<'c>(corpus: &'c Corpus, id: &str) -> Result<Option<(&'c Section, bool)>> {
    if let Some(s) = corpus.get(id) {
        return Ok(Some((s, false)));
    }
    let lower = id.to_ascii_lowercase();
    if let Some(s) = corpus.get(&lower) {
        return Ok(Some((s, false)));
    }
    let aliases = load_aliases(&corpus.root)?;
    Ok(resolve_alias(corpus, &aliases, &lower).map(|s| (s, true)))
}

/// Sections whose title is what was typed ("the stack"), then IDs close to it.
pub fn suggest(corpus: &Corpus, wanted: &str) -> Vec<String> {
    let tail = wanted.rsplit('.').next().unwrap_or(wanted);
    let want = normalize(tail);
    let mut out: Vec<String> = Vec::new();
    if !want.is_empty() {
        let mut titled: Vec<&Section> = corpus
            .sections
            .iter()
            .filter(|s| {
                let t = normalize(&s.title);
                t == want || t.strip_prefix("the ").is_some_and(|t| t == want)
            })
            .collect();
        titled.sort_by_key(|s| (s.superseded, s.kind != Kind::Rule));
        out.extend(titled.into_iter().map(|s| s.id.clone()));
    }
    out.extend(corpus.suggest(wanted, 5).into_iter().map(str::to_string));
    out.into_iter().unique().take(5).collect()
}

/// The answer when no section has the ID (`rule --json` prints it).
#[derive(Debug, Clone, Serialize)]
pub struct NotFound {
    pub query: String,
    pub found: bool,
    pub message: String,
    pub did_you_mean: Vec<String>,
}

impl NotFound {
    pub fn new(corpus: &Corpus, wanted: &str) -> NotFound {
        let did_you_mean = suggest(corpus, wanted);
        let mut message = format!("no section {wanted}");
        if !did_you_mean.is_empty() {
            message.push_str("; did you mean: ");
            message.push_str(&did_you_mean.join(", "));
        }
        NotFound {
            query: wanted.to_string(),
            found: false,
            message,
            did_you_mean,
        }
    }
}
