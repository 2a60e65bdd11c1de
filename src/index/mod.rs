//! The tantivy index over rulebook sections: schema, build, staleness, query, snippets.
//!
//! The index is a cache of `rulebook/`: [`Index::open_or_build`] checks it against
//! the sources ([`store`]) and rebuilds it silently when it is missing, stale or
//! unreadable. Queries are built programmatically from plain words ([`query`]),
//! never parsed as tantivy query syntax.

mod query;
mod snippet;
mod store;

use crate::error::{Error, Result};
use crate::paths::Paths;
use crate::rulebook::{Corpus, Game, Kind, Section};
use serde::Serialize;
use std::ops::Range;
use std::sync::OnceLock;
use tantivy::collector::TopDocs;
use tantivy::columnar::Column;
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::snippet::SnippetGenerator;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{DocAddress, IndexReader, ReloadPolicy, Searcher};

pub use store::fingerprint;

/// Longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 500;
/// Largest `limit` accepted.
pub const MAX_LIMIT: usize = 1000;
/// Score factor for sections of superseded documents, so current text ranks first.
pub const SUPERSEDED_FACTOR: f32 = 0.6;
/// Longest snippet, in characters.
const SNIPPET_CHARS: usize = 200;

/// A search request: plain words, optional filters, how many hits at most.
#[derive(Debug, Clone)]
pub struct Query {
    pub text: String,
    pub game: Option<Game>,
    pub kind: Option<Kind>,
    pub limit: usize,
}

impl Query {
    pub fn new(text: impl Into<String>) -> Query {
        Query {
            text: text.into(),
            game: None,
            kind: None,
            limit: 10,
        }
    }

    /// Reject empty, punctuation-only and oversized queries and absurd limits.
    pub fn validate(&self) -> Result<()> {
        let text = self.text.trim();
        if text.is_empty() {
            return Err(Error::Usage(
                "empty query: give one or more words to search for".into(),
            ));
        }
        if text.chars().count() > MAX_QUERY_CHARS {
            return Err(Error::Usage(format!(
                "query is {} characters long; the limit is {MAX_QUERY_CHARS}",
                text.chars().count()
            )));
        }
        if !text.chars().any(char::is_alphanumeric) {
            return Err(Error::Usage(format!(
                "query \"{text}\" has no words to search for"
            )));
        }
        if self.limit == 0 || self.limit > MAX_LIMIT {
            return Err(Error::Usage(format!(
                "--limit must be between 1 and {MAX_LIMIT} (got {})",
                self.limit
            )));
        }
        Ok(())
    }
}

/// One ranked section.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    pub id: String,
    pub title: String,
    pub breadcrumb: Vec<String>,
    pub game: Game,
    pub document: String,
    pub kind: Kind,
    pub superseded: bool,
    pub score: f32,
    /// Plain text around the best-matching words of the body.
    pub snippet: String,
    /// Byte ranges of `snippet` that matched query words.
    #[serde(skip)]
    pub highlights: Vec<Range<usize>>,
}

/// Field handles of the schema.
#[derive(Debug, Clone, Copy)]
struct Fields {
    id: Field,
    ord: Field,
    game: Field,
    document: Field,
    kind: Field,
    superseded: Field,
    title: Field,
    breadcrumb: Field,
    body: Field,
    /// Neighbouring stems of the title as single tokens ("reserv_deck").
    title_pairs: Field,
}

const TOKENIZER: &str = "en_stem";

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let text = || {
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(TOKENIZER)
                .set_index_option(IndexRecordOption::WithFreqsAndPositions),
        )
    };
    // Pair tokens are made at build time (see [`pair_tokens`]); whitespace splits them.
    let pairs = || {
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer("whitespace")
                .set_index_option(IndexRecordOption::WithFreqs),
        )
    };
    let fields = Fields {
        id: b.add_text_field("id", STRING | STORED),
        ord: b.add_u64_field("ord", FAST | STORED),
        game: b.add_text_field("game", STRING),
        document: b.add_text_field("document", STRING),
        kind: b.add_text_field("kind", STRING),
        superseded: b.add_u64_field("superseded", INDEXED | FAST),
        title: b.add_text_field("title", text()),
        breadcrumb: b.add_text_field("breadcrumb", text()),
        body: b.add_text_field("body", text()),
        title_pairs: b.add_text_field("title_pairs", pairs()),
    };
    (b.build(), fields)
}

fn fields_of(schema: &Schema) -> Option<Fields> {
    let f = |name: &str| schema.get_field(name).ok();
    Some(Fields {
        id: f("id")?,
        ord: f("ord")?,
        game: f("game")?,
        document: f("document")?,
        kind: f("kind")?,
        superseded: f("superseded")?,
        title: f("title")?,
        breadcrumb: f("breadcrumb")?,
        body: f("body")?,
        title_pairs: f("title_pairs")?,
    })
}

/// The search index with the corpus it was built from.
pub struct Index {
    corpus: Corpus,
    reader: IndexReader,
    fields: Fields,
    analyzer: TextAnalyzer,
    /// Plain text of each section body, computed when first needed for a snippet.
    plain: Vec<OnceLock<String>>,
    /// Whether the last open had to (re)build the index.
    built: bool,
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index")
            .field("sections", &self.corpus.sections.len())
            .field("built", &self.built)
            .finish()
    }
}

impl Index {
    /// Open the index under paths.index, (re)building it when missing, stale or corrupt.
    pub fn open_or_build(paths: &Paths) -> Result<Index> {
        let corpus = Corpus::load(&paths.rulebook)?;
        let sources = store::Sources::scan(&paths.rulebook)?;
        match store::open_current(&paths.index, &sources, corpus.sections.len()) {
            Some(index) => Index::from_parts(corpus, index, false),
            None => Index::build_from(paths, corpus, &sources),
        }
    }

    /// Rebuild the index from the rulebook now, replacing whatever was there.
    pub fn rebuild(paths: &Paths) -> Result<Index> {
        let corpus = Corpus::load(&paths.rulebook)?;
        let sources = store::Sources::scan(&paths.rulebook)?;
        Index::build_from(paths, corpus, &sources)
    }

    /// An index held in memory only, never written to disk.
    pub fn in_memory(corpus: Corpus) -> Result<Index> {
        let index = store::build_in_ram(&corpus)?;
        Index::from_parts(corpus, index, true)
    }

    fn build_from(paths: &Paths, corpus: Corpus, sources: &store::Sources) -> Result<Index> {
        let index = store::build(&paths.index, &corpus, sources)?;
        Index::from_parts(corpus, index, true)
    }

    fn from_parts(corpus: Corpus, index: tantivy::Index, built: bool) -> Result<Index> {
        let fields = fields_of(&index.schema())
            .ok_or_else(|| Error::Index("schema lacks expected fields".into()))?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(ix_err)?;
        let searcher = reader.searcher();
        if searcher.num_docs() != corpus.sections.len() as u64 {
            return Err(Error::Index(format!(
                "index holds {} sections, the rulebook {}",
                searcher.num_docs(),
                corpus.sections.len()
            )));
        }
        let analyzer = index.tokenizer_for_field(fields.body).map_err(ix_err)?;
        let plain = (0..corpus.sections.len())
            .map(|_| OnceLock::new())
            .collect();
        Ok(Index {
            corpus,
            reader,
            fields,
            analyzer,
            plain,
            built,
        })
    }

    /// The loaded corpus, for `rule` and see-also lookups.
    pub fn corpus(&self) -> &Corpus {
        &self.corpus
    }

    /// Whether opening this index had to build it.
    pub fn was_built(&self) -> bool {
        self.built
    }

    /// Number of index segments (one after a build: one writer thread, one commit).
    pub fn segments(&self) -> usize {
        self.reader.searcher().segment_readers().len()
    }

    /// Number of indexed sections.
    pub fn len(&self) -> usize {
        self.corpus.sections.len()
    }

    pub fn is_empty(&self) -> bool {
        self.corpus.sections.is_empty()
    }

    /// Ranked sections for `q`: exact (stemmed) words first; words the index does
    /// not know are matched fuzzily, and when nothing matches at all every word is.
    pub fn search(&self, q: &Query) -> Result<Vec<Hit>> {
        q.validate()?;
        let searcher = self.reader.searcher();
        let plan = query::plan(&q.text, &mut self.analyzer.clone(), &searcher, &self.fields)?;
        let mut hits = self.run(&searcher, &plan, q, false)?;
        if hits.is_empty() && !plan.all_fuzzy() {
            hits = self.run(&searcher, &plan, q, true)?;
        }
        Ok(hits)
    }

    fn run(
        &self,
        searcher: &Searcher,
        plan: &query::Plan,
        q: &Query,
        all_fuzzy: bool,
    ) -> Result<Vec<Hit>> {
        let Some(tq) = plan.to_query(&self.fields, q.game, q.kind, all_fuzzy) else {
            return Ok(Vec::new());
        };
        let ranked = self.ranked(searcher, tq.as_ref(), q.limit)?;
        let terms = plan.highlight_terms();
        let stems: Vec<String> = terms.keys().cloned().collect();
        let tokenizer = snippet::SnippetTokenizer::new(self.analyzer.clone(), &stems);
        let snippets = SnippetGenerator::new(
            terms,
            TextAnalyzer::from(tokenizer),
            self.fields.body,
            SNIPPET_CHARS,
        );
        Ok(ranked
            .into_iter()
            .map(|(score, ord)| {
                let s = &self.corpus.sections[ord];
                let plain = self.plain[ord].get_or_init(|| s.plain_body());
                hit(s, plain, score, &snippets, &stems)
            })
            .collect())
    }

    /// Top `limit` sections by score, superseded ones scaled down by [`SUPERSEDED_FACTOR`].
    fn ranked(
        &self,
        searcher: &Searcher,
        tq: &dyn tantivy::query::Query,
        limit: usize,
    ) -> Result<Vec<(f32, usize)>> {
        let total = self.corpus.sections.len().max(1);
        let mut fetch = (limit * 2 + 10).min(total);
        let mut columns: Vec<Option<Column<u64>>> = vec![None; searcher.segment_readers().len()];
        loop {
            let top: Vec<(f32, DocAddress)> = searcher
                .search(tq, &TopDocs::with_limit(fetch).order_by_score())
                .map_err(ix_err)?;
            let floor = if top.len() == fetch {
                top.last().map_or(0.0, |t| t.0)
            } else {
                0.0
            };
            let mut out = Vec::with_capacity(top.len());
            for (score, addr) in &top {
                let ord = self.ordinal(searcher, &mut columns, *addr)?;
                let s = &self.corpus.sections[ord];
                let score = if s.superseded {
                    score * SUPERSEDED_FACTOR
                } else {
                    *score
                };
                out.push((score, ord));
            }
            let sections = &self.corpus.sections;
            out.sort_by(|a, b| {
                b.0.total_cmp(&a.0)
                    .then_with(|| sections[a.1].id.cmp(&sections[b.1].id))
            });
            // Documents not fetched score at most `floor`; the first `limit` are final
            // once each of them scores at least that.
            let settled = out.iter().take(limit).all(|(s, _)| *s >= floor);
            if settled || top.len() < fetch || fetch >= total {
                out.truncate(limit);
                return Ok(out);
            }
            fetch = (fetch * 2).min(total);
        }
    }

    /// The corpus position of the section stored at `addr` (its `ord` fast field).
    fn ordinal(
        &self,
        searcher: &Searcher,
        columns: &mut [Option<Column<u64>>],
        addr: DocAddress,
    ) -> Result<usize> {
        let slot = columns
            .get_mut(addr.segment_ord as usize)
            .ok_or_else(|| Error::Index(format!("no segment {}", addr.segment_ord)))?;
        if slot.is_none() {
            let reader = searcher.segment_reader(addr.segment_ord);
            *slot = Some(reader.fast_fields().u64("ord").map_err(ix_err)?);
        }
        slot.as_ref()
            .and_then(|c| c.first(addr.doc_id))
            .map(|o| o as usize)
            .filter(|&o| o < self.corpus.sections.len())
            .ok_or_else(|| Error::Index(format!("document {addr:?} has no section")))
    }
}

fn hit(s: &Section, plain: &str, score: f32, snippets: &SnippetGenerator, stems: &[String]) -> Hit {
    let window = &plain[snippet_window(plain, stems)];
    let snip = snippets.snippet(window);
    let (snippet, highlights) = if snip.is_empty() || snip.fragment().trim().is_empty() {
        (lead(plain, SNIPPET_CHARS), Vec::new())
    } else {
        (snip.fragment().to_string(), snip.highlighted().to_vec())
    };
    // Same byte length, so the highlight ranges stay valid.
    let snippet = snippet.replace(['\n', '\t', '\r'], " ");
    Hit {
        id: s.id.clone(),
        title: s.title.clone(),
        breadcrumb: s.breadcrumb.clone(),
        game: s.game,
        document: s.document.clone(),
        kind: s.kind,
        superseded: s.superseded,
        score,
        snippet,
        highlights,
    }
}

/// The part of `text` the snippet is chosen from: long bodies are cut to a
/// window starting a little before the first word that begins with a query stem,
/// so snippet cost does not grow with section length.
fn snippet_window(text: &str, stems: &[String]) -> Range<usize> {
    const BEFORE: usize = 100;
    const WINDOW: usize = 450;
    if text.len() <= WINDOW {
        return 0..text.len();
    }
    let first = first_word_starting_with(text.as_bytes(), stems).unwrap_or(0);
    let mut start = first.saturating_sub(BEFORE);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + WINDOW).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    start..end
}

/// Byte offset of the first word of `text` that starts with one of `stems`
/// (ASCII case-insensitive), in one pass over the text.
fn first_word_starting_with(text: &[u8], stems: &[String]) -> Option<usize> {
    let mut prev_alnum = false;
    for (i, &b) in text.iter().enumerate() {
        let alnum = b.is_ascii_alphanumeric();
        if alnum && !prev_alnum {
            let rest = &text[i..];
            let hit = stems.iter().any(|s| {
                let s = s.as_bytes();
                !s.is_empty() && rest.len() >= s.len() && rest[..s.len()].eq_ignore_ascii_case(s)
            });
            if hit {
                return Some(i);
            }
        }
        prev_alnum = alnum;
    }
    None
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

/// The token for two stems that stand next to each other (or one word apart).
fn pair_token(a: &str, b: &str) -> String {
    format!("{a}_{b}")
}

/// Every pair of stems in `text` that are adjacent or one word apart, in order
/// ("reserve deck", "reserve the deck"), as space-separated [`pair_token`]s:
/// what a two-word phrase query with slop 1 would match, found with a plain
/// term lookup at query time.
fn pair_tokens(analyzer: &mut TextAnalyzer, text: &str) -> String {
    let mut stems: Vec<String> = Vec::new();
    let mut stream = analyzer.token_stream(text);
    while let Some(tok) = stream.next() {
        stems.push(tok.text.clone());
    }
    let mut out = String::with_capacity(text.len() * 2);
    let mut push = |a: &str, b: &str| {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&pair_token(a, b));
    };
    for i in 0..stems.len() {
        for j in [i + 1, i + 2] {
            if let Some(b) = stems.get(j) {
                push(&stems[i], b);
            }
        }
    }
    out
}

fn ix_err(e: tantivy::TantivyError) -> Error {
    Error::Index(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validates_queries() {
        let mut q = Query::new("  ");
        assert!(q.validate().is_err());
        q.text = "?!(*)".into();
        assert!(q.validate().is_err());
        q.text = "x".repeat(501);
        assert!(q.validate().is_err());
        q.text = "force drain".into();
        assert!(q.validate().is_ok());
        q.limit = 0;
        assert!(q.validate().is_err());
        q.limit = 1001;
        assert!(q.validate().is_err());
    }

    #[test]
    fn snippet_window_starts_near_the_first_match() {
        let text = format!(
            "{} force drain here {}",
            "x ".repeat(1000),
            "y ".repeat(1000)
        );
        let w = snippet_window(&text, &["drain".to_string()]);
        assert!(text[w.clone()].contains("force drain here"));
        assert!(w.len() <= 450);
        assert_eq!(snippet_window("short text", &["zz".to_string()]), 0..10);
        let drain = ["drain".to_string()];
        assert_eq!(first_word_starting_with(b"a Drains b", &drain), Some(2));
        assert_eq!(first_word_starting_with(b"redrain", &drain), None);
    }

    #[test]
    fn pair_tokens_cover_neighbours_and_one_gap() {
        let mut a = tantivy::tokenizer::TextAnalyzer::builder(
            tantivy::tokenizer::SimpleTokenizer::default(),
        )
        .filter(tantivy::tokenizer::LowerCaser)
        .build();
        assert_eq!(
            pair_tokens(&mut a, "Reserve the Deck"),
            "reserve_the reserve_deck the_deck"
        );
        assert_eq!(pair_tokens(&mut a, "one"), "");
    }

    #[test]
    fn lead_cuts_at_words() {
        assert_eq!(lead("short", 10), "short");
        let l = lead("alpha beta gamma delta epsilon", 14);
        assert_eq!(l, "alpha beta…");
    }
}
