//! What a hit shows: a document's stored fields, and a snippet that starts at
//! a sentence, chosen by tantivy's snippet generator.

use super::rank::Ranked;
use super::schema::Fields;
use super::{DocKind, Hit, Origin, ix_err};
use crate::error::{Error, Result};
use crate::rulebook::Game;
use std::ops::Range;
use tantivy::schema::Field;
use tantivy::schema::document::Value;
use tantivy::snippet::SnippetGenerator;
use tantivy::{DocAddress, Searcher, TantivyDocument};

/// Longest snippet, in characters.
pub const SNIPPET_CHARS: usize = 200;
/// How far back a snippet may reach for the start of its sentence, in bytes.
const SENTENCE_REACH: usize = 90;

/// What a hit shows of one document, read from the index's stored fields.
#[derive(Debug)]
pub struct Stored {
    id: String,
    pub title: String,
    pub breadcrumb: Vec<String>,
    game: Game,
    document: String,
    kind: DocKind,
    source: Origin,
    superseded: bool,
    /// The body as plain text.
    plain: String,
    see: Vec<String>,
}

impl Stored {
    /// The stored fields of the document at `addr`.
    pub fn read(searcher: &Searcher, f: &Fields, addr: DocAddress) -> Result<Stored> {
        let doc: TantivyDocument = searcher.doc(addr).map_err(ix_err)?;
        let text = |field: Field| -> Result<String> {
            doc.get_first(field)
                .and_then(|v| v.as_str())
                .map(str::to_string)
                .ok_or_else(|| Error::Index(format!("document {addr:?} lacks a stored field")))
        };
        let game = text(f.game)?;
        let kind = text(f.kind)?;
        let id = text(f.id)?;
        let document = text(f.doc)?;
        let source = match text(f.origin)?.as_str() {
            "database" => Origin::Database {
                file: document.clone(),
                card: text(f.card)?,
                position: doc.get_first(f.position).and_then(|v| v.as_u64()),
            },
            _ => Origin::Rulebook {
                section: id.clone(),
            },
        };
        let all = |field: Field| -> Vec<String> {
            doc.get_all(field)
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        };
        Ok(Stored {
            id,
            title: text(f.title)?,
            breadcrumb: all(f.crumbs),
            game: Game::parse(&game)
                .ok_or_else(|| Error::Index(format!("stored game {game:?} is unknown")))?,
            document,
            kind: DocKind::parse(&kind)
                .ok_or_else(|| Error::Index(format!("stored kind {kind:?} is unknown")))?,
            source,
            superseded: doc.get_first(f.superseded).and_then(|v| v.as_u64()) == Some(1),
            plain: text(f.body)?,
            see: all(f.see),
        })
    }

    /// The hit this document makes as candidate `r`, with its snippet.
    pub fn hit(&self, r: &Ranked, snippets: &SnippetGenerator) -> Hit {
        let plain = self.plain.as_str();
        let snip = snippets.snippet(plain);
        let (snippet, highlights) = if snip.fragment().trim().is_empty() {
            (lead(plain, SNIPPET_CHARS), Vec::new())
        } else {
            sentence_snippet(plain, snip.fragment_range(), snip.highlighted().to_vec())
        };
        Hit {
            id: self.id.clone(),
            title: self.title.clone(),
            breadcrumb: self.breadcrumb.clone(),
            game: self.game,
            document: self.document.clone(),
            kind: self.kind,
            source: self.source.clone(),
            superseded: self.superseded,
            score: r.score,
            coverage: (r.cover * 1000.0).round() / 1000.0,
            snippet,
            highlights,
            see: self.see.clone(),
        }
    }
}

/// The snippet for the fragment `range` of `text` (with highlights relative to
/// it): moved back to the start of its sentence when that is near, else begun
/// with "…"; ended with "…" when the text goes on mid-sentence. Whitespace runs
/// become single spaces.
fn sentence_snippet(
    text: &str,
    range: Range<usize>,
    highlights: Vec<Range<usize>>,
) -> (String, Vec<Range<usize>>) {
    let bytes = text.as_bytes();
    let mut start = range.start;
    let mut cut_front = false;
    if start > 0 {
        let reach = start.saturating_sub(SENTENCE_REACH);
        match (reach..start).rev().find(|&i| sentence_starts_at(bytes, i)) {
            Some(i) => start = i,
            None if (reach == 0) => start = 0,
            None => cut_front = true,
        }
    }
    // Closing punctuation right after the last word belongs to the snippet.
    let mut end = range.end;
    while let Some(c) = text[end..]
        .chars()
        .next()
        .filter(|c| ".!?:;,)\"\u{201d}'".contains(*c))
    {
        end += c.len_utf8();
    }
    let ends_sentence = text[end..].trim().is_empty()
        || text[..end].ends_with(['.', '!', '?', ':', ')', '"', '\u{201d}']);
    let shift = range.start - start;
    let mut out = String::with_capacity(end - start + 8);
    let mut hl = Vec::with_capacity(highlights.len());
    if cut_front {
        out.push('…');
    }
    let offset = out.len();
    // Whitespace is mapped one byte for one, so the ranges stay valid.
    let mut rest = &text[start..end];
    while let Some(i) = rest
        .bytes()
        .position(|b| matches!(b, b'\n' | b'\t' | b'\r'))
    {
        out.push_str(&rest[..i]);
        out.push(' ');
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
    for r in highlights {
        hl.push(r.start + shift + offset..r.end + shift + offset);
    }
    if !ends_sentence {
        out.push('…');
    }
    (out, hl)
}

/// Whether a sentence starts at byte `i`: the text's first word, or a capital
/// or digit after ". ", "? ", "! ", ": " or a line break.
fn sentence_starts_at(b: &[u8], i: usize) -> bool {
    if !b[i].is_ascii_uppercase() && !b[i].is_ascii_digit() && b[i] != b'"' {
        return false;
    }
    let mut j = i;
    let mut space = false;
    while j > 0 && b[j - 1].is_ascii_whitespace() {
        if b[j - 1] == b'\n' {
            return true;
        }
        space = true;
        j -= 1;
    }
    j == 0 || (space && matches!(b[j - 1], b'.' | b'?' | b'!' | b':'))
}

/// The first `max` characters of `text`, cut at a word boundary.
fn lead(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.chars().count() <= max {
        return text.to_string();
    }
    let end = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    let cut = text[..end]
        .rfind(char::is_whitespace)
        .filter(|&i| i > max / 2)
        .unwrap_or(end);
    format!("{}…", text[..cut].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lead_cuts_at_words() {
        assert_eq!(lead("short", 10), "short");
        let l = lead("alpha beta gamma delta epsilon", 14);
        assert_eq!(l, "alpha beta…");
    }

    #[test]
    fn snippets_begin_at_a_sentence_near_the_fragment() {
        let text = "First sentence here. The answer is 3 shields. More follows on and on.";
        let at = text.find("answer").unwrap();
        let answer = 0..6;
        let end = text.find(" More").unwrap();
        let (s, hl) = sentence_snippet(text, at..end, [answer].into());
        assert!(s.starts_with("The answer is 3 shields"), "{s}");
        assert_eq!(&s[hl[0].clone()], "answer");
        let long = format!("{} tail words", "x".repeat(200));
        let (s, _) = sentence_snippet(&long, 201..205, vec![]);
        assert!(s.starts_with('…'), "{s}");
    }
}
