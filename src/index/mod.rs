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
use crate::rulebook::{Corpus, Game, Kind};
use serde::Serialize;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::OnceLock;
use tantivy::collector::TopDocs;
use tantivy::columnar::Column;
use tantivy::schema::document::Value;
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{DocAddress, IndexReader, ReloadPolicy, Searcher, TantivyDocument};

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
    /// Stored only: the full breadcrumb, one value per level.
    crumbs: Field,
    /// Stored only: the document name within its game ("ar").
    doc: Field,
    /// Position of the section's ID in the sorted list of IDs, for tie-breaks.
    id_rank: Field,
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
    // A hit is shown from stored fields alone, so searching never parses the rulebook.
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
        game: b.add_text_field("game", STRING | STORED),
        document: b.add_text_field("document", STRING),
        kind: b.add_text_field("kind", STRING | STORED),
        superseded: b.add_u64_field("superseded", INDEXED | FAST),
        title: b.add_text_field("title", text().set_stored()),
        breadcrumb: b.add_text_field("breadcrumb", text()),
        body: b.add_text_field("body", text().set_stored()),
        title_pairs: b.add_text_field("title_pairs", pairs()),
        crumbs: b.add_text_field("crumbs", STORED),
        doc: b.add_text_field("doc", STORED),
        id_rank: b.add_u64_field("id_rank", FAST),
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
        crumbs: f("crumbs")?,
        doc: f("doc")?,
        id_rank: f("id_rank")?,
    })
}

/// What a hit shows of one section, read from the index's stored fields.
#[derive(Debug)]
struct Stored {
    id: String,
    title: String,
    breadcrumb: Vec<String>,
    game: Game,
    document: String,
    kind: Kind,
    superseded: bool,
    /// The body as plain text.
    plain: String,
}

/// Fast-field columns of one segment.
struct Columns {
    ord: Column<u64>,
    id_rank: Column<u64>,
    superseded: Column<u64>,
}

/// The search index. Searching needs only the index; the corpus it was built
/// from is loaded (parsed from the rulebook) when first asked for.
pub struct Index {
    rulebook: PathBuf,
    corpus: OnceLock<Corpus>,
    searcher: Searcher,
    fields: Fields,
    analyzer: TextAnalyzer,
    columns: Vec<Columns>,
    /// Stored fields of each section, read when first needed for a hit.
    stored: Vec<OnceLock<Stored>>,
    /// Scoring weights of the terms searched so far.
    weights: std::sync::Arc<query::TermWeights>,
    /// Whether the last open had to (re)build the index.
    built: bool,
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index")
            .field("sections", &self.stored.len())
            .field("built", &self.built)
            .finish()
    }
}

impl Index {
    /// Open the index under paths.index, (re)building it when missing, stale or corrupt.
    /// A current index is opened without parsing the rulebook.
    pub fn open_or_build(paths: &Paths) -> Result<Index> {
        let sources = store::Sources::scan(&paths.rulebook)?;
        if !sources.is_empty()
            && let Some(index) = store::open_current(&paths.index, &sources)
            && let Ok(ix) = Index::from_parts(&paths.rulebook, None, index, false)
        {
            return Ok(ix);
        }
        let corpus = Corpus::load(&paths.rulebook)?;
        Index::build_from(paths, corpus, &sources)
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
        let root = corpus.root.clone();
        Index::from_parts(&root, Some(corpus), index, true)
    }

    fn build_from(paths: &Paths, corpus: Corpus, sources: &store::Sources) -> Result<Index> {
        let index = store::build(&paths.index, &corpus, sources)?;
        Index::from_parts(&paths.rulebook, Some(corpus), index, true)
    }

    fn from_parts(
        rulebook: &std::path::Path,
        corpus: Option<Corpus>,
        index: tantivy::Index,
        built: bool,
    ) -> Result<Index> {
        let fields = fields_of(&index.schema())
            .ok_or_else(|| Error::Index("schema lacks expected fields".into()))?;
        let reader: IndexReader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(ix_err)?;
        let searcher = reader.searcher();
        let docs = searcher.num_docs() as usize;
        if corpus.is_none() && docs > 0 {
            // Opened, not built: check the document store, which hits are shown from.
            let seg = searcher
                .segment_readers()
                .iter()
                .position(|s| s.num_docs() > 0)
                .unwrap_or(0);
            let first = searcher
                .segment_reader(seg as u32)
                .doc_ids_alive()
                .next()
                .unwrap_or(0);
            searcher
                .doc::<TantivyDocument>(DocAddress::new(seg as u32, first))
                .map_err(ix_err)?;
        }
        if let Some(c) = &corpus
            && docs != c.sections.len()
        {
            return Err(Error::Index(format!(
                "index holds {docs} sections, the rulebook {}",
                c.sections.len()
            )));
        }
        let mut columns = Vec::with_capacity(searcher.segment_readers().len());
        for seg in searcher.segment_readers() {
            let ff = seg.fast_fields();
            columns.push(Columns {
                ord: ff.u64("ord").map_err(ix_err)?,
                id_rank: ff.u64("id_rank").map_err(ix_err)?,
                superseded: ff.u64("superseded").map_err(ix_err)?,
            });
        }
        let analyzer = index.tokenizer_for_field(fields.body).map_err(ix_err)?;
        let stored = (0..docs).map(|_| OnceLock::new()).collect();
        let cell = OnceLock::new();
        if let Some(c) = corpus {
            let _ = cell.set(c);
        }
        Ok(Index {
            rulebook: rulebook.to_path_buf(),
            corpus: cell,
            searcher,
            fields,
            analyzer,
            columns,
            stored,
            weights: Default::default(),
            built,
        })
    }

    /// The corpus the index was built from, for `rule` and see-also lookups
    /// (parsed from the rulebook on first use when the index was only opened).
    pub fn corpus(&self) -> Result<&Corpus> {
        if let Some(c) = self.corpus.get() {
            return Ok(c);
        }
        let c = Corpus::load(&self.rulebook)?;
        Ok(self.corpus.get_or_init(|| c))
    }

    /// Whether opening this index had to build it.
    pub fn was_built(&self) -> bool {
        self.built
    }

    /// Number of index segments (one after a build: one writer thread, one commit).
    pub fn segments(&self) -> usize {
        self.searcher.segment_readers().len()
    }

    /// Number of indexed sections.
    pub fn len(&self) -> usize {
        self.stored.len()
    }

    pub fn is_empty(&self) -> bool {
        self.stored.is_empty()
    }

    /// Ranked sections for `q`: exact (stemmed) words first; words the index does
    /// not know are matched fuzzily, and when nothing matches at all every word is.
    pub fn search(&self, q: &Query) -> Result<Vec<Hit>> {
        q.validate()?;
        let searcher = &self.searcher;
        let stats = query::Stats::new(searcher, &self.weights);
        let plan = query::plan(&q.text, &mut self.analyzer.clone(), &stats, &self.fields)?;
        let mut hits = self.run(searcher, &stats, &plan, q, false)?;
        if hits.is_empty() && !plan.all_fuzzy() {
            hits = self.run(searcher, &stats, &plan, q, true)?;
        }
        Ok(hits)
    }

    fn run(
        &self,
        searcher: &Searcher,
        stats: &query::Stats<'_>,
        plan: &query::Plan,
        q: &Query,
        all_fuzzy: bool,
    ) -> Result<Vec<Hit>> {
        let Some(tq) = plan.to_query(&self.fields, q.game, q.kind, all_fuzzy, &self.weights) else {
            return Ok(Vec::new());
        };
        let ranked = self.ranked(searcher, stats, tq.as_ref(), q.limit)?;
        if ranked.is_empty() {
            return Ok(Vec::new());
        }
        let terms = plan.highlight_terms();
        let stems: Vec<String> = terms.keys().cloned().collect();
        let mut tokenizer = snippet::SnippetTokenizer::new(self.analyzer.clone(), &stems);
        ranked
            .into_iter()
            .map(|r| {
                let s = self.stored(searcher, r.ord, r.addr)?;
                Ok(hit(s, r.score, &mut tokenizer, &terms, &stems))
            })
            .collect()
    }

    /// The stored fields of the section at corpus position `ord`, stored at `addr`.
    fn stored(&self, searcher: &Searcher, ord: usize, addr: DocAddress) -> Result<&Stored> {
        let cell = self
            .stored
            .get(ord)
            .ok_or_else(|| Error::Index(format!("document {addr:?} has no section")))?;
        if let Some(s) = cell.get() {
            return Ok(s);
        }
        let doc: TantivyDocument = searcher.doc(addr).map_err(ix_err)?;
        let f = &self.fields;
        let text = |field: Field| -> Result<String> {
            doc.get_first(field)
                .and_then(|v| v.as_str())
                .map(str::to_string)
                .ok_or_else(|| Error::Index(format!("document {addr:?} lacks a stored field")))
        };
        let game = text(f.game)?;
        let kind = text(f.kind)?;
        let s = Stored {
            id: text(f.id)?,
            title: text(f.title)?,
            breadcrumb: doc
                .get_all(f.crumbs)
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            game: Game::parse(&game)
                .ok_or_else(|| Error::Index(format!("stored game {game:?} is unknown")))?,
            document: text(f.doc)?,
            kind: Kind::parse(&kind)
                .ok_or_else(|| Error::Index(format!("stored kind {kind:?} is unknown")))?,
            superseded: self.superseded(addr),
            plain: text(f.body)?,
        };
        Ok(cell.get_or_init(|| s))
    }

    fn superseded(&self, addr: DocAddress) -> bool {
        self.columns
            .get(addr.segment_ord as usize)
            .and_then(|c| c.superseded.first(addr.doc_id))
            .is_some_and(|v| v != 0)
    }

    /// Top `limit` sections by score, superseded ones scaled down by [`SUPERSEDED_FACTOR`].
    fn ranked(
        &self,
        searcher: &Searcher,
        stats: &query::Stats<'_>,
        tq: &dyn tantivy::query::Query,
        limit: usize,
    ) -> Result<Vec<Ranked>> {
        let total = self.stored.len().max(1);
        let mut fetch = (limit * 2 + 10).min(total);
        loop {
            let top: Vec<(f32, DocAddress)> = searcher
                .search_with_statistics_provider(
                    tq,
                    &TopDocs::with_limit(fetch).order_by_score(),
                    stats,
                )
                .map_err(ix_err)?;
            let floor = if top.len() == fetch {
                top.last().map_or(0.0, |t| t.0)
            } else {
                0.0
            };
            let mut out = Vec::with_capacity(top.len());
            for &(score, addr) in &top {
                let cols = self
                    .columns
                    .get(addr.segment_ord as usize)
                    .ok_or_else(|| Error::Index(format!("no segment {}", addr.segment_ord)))?;
                let ord = cols
                    .ord
                    .first(addr.doc_id)
                    .map(|o| o as usize)
                    .filter(|&o| o < self.stored.len())
                    .ok_or_else(|| Error::Index(format!("document {addr:?} has no section")))?;
                let rank = cols.id_rank.first(addr.doc_id).unwrap_or(u64::MAX);
                let superseded = cols.superseded.first(addr.doc_id).is_some_and(|v| v != 0);
                let score = if superseded {
                    score * SUPERSEDED_FACTOR
                } else {
                    score
                };
                out.push(Ranked {
                    score,
                    ord,
                    rank,
                    addr,
                });
            }
            out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.rank.cmp(&b.rank)));
            // Documents not fetched score at most `floor`; the first `limit` are final
            // once each of them scores at least that.
            let settled = out.iter().take(limit).all(|r| r.score >= floor);
            if settled || top.len() < fetch || fetch >= total {
                out.truncate(limit);
                return Ok(out);
            }
            fetch = (fetch * 2).min(total);
        }
    }
}

/// One ranked document: its score, corpus position, ID rank and address.
struct Ranked {
    score: f32,
    ord: usize,
    rank: u64,
    addr: DocAddress,
}

fn hit(
    s: &Stored,
    score: f32,
    tokenizer: &mut snippet::SnippetTokenizer,
    terms: &BTreeMap<String, f32>,
    stems: &[String],
) -> Hit {
    let plain = s.plain.as_str();
    let window = &plain[snippet_window(plain, stems)];
    let best = snippet::best_fragment(tokenizer, window, terms, SNIPPET_CHARS)
        .map(|(range, hl)| (&window[range], hl))
        .filter(|(fragment, _)| !fragment.trim().is_empty());
    let (snippet, highlights) = match best {
        Some((fragment, hl)) => (fragment.to_string(), hl),
        None => (lead(plain, SNIPPET_CHARS), Vec::new()),
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
    // Never begin or end inside a word: a cut word reads as a typo.
    let bytes = text.as_bytes();
    if start > 0
        && bytes[start - 1].is_ascii_alphanumeric()
        && let Some(ws) = text[start..end].find(char::is_whitespace)
    {
        start += ws + 1;
    }
    if end < text.len()
        && bytes[end].is_ascii_alphanumeric()
        && let Some(ws) = text[start..end].rfind(char::is_whitespace)
    {
        end = start + ws;
    }
    start..end
}

/// Byte offset of the first word of `text` that starts with one of `stems`
/// (ASCII case-insensitive), in one pass over the text.
fn first_word_starting_with(text: &[u8], stems: &[String]) -> Option<usize> {
    // First bytes of the stems, either case: most words are ruled out by one lookup.
    let mut first = [false; 256];
    for s in stems {
        if let Some(&c) = s.as_bytes().first() {
            first[usize::from(c.to_ascii_lowercase())] = true;
            first[usize::from(c.to_ascii_uppercase())] = true;
        }
    }
    let mut prev_alnum = false;
    for (i, &b) in text.iter().enumerate() {
        let alnum = b.is_ascii_alphanumeric();
        if alnum && !prev_alnum && first[usize::from(b)] {
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
    fn snippet_window_never_cuts_a_word() {
        let text = format!(
            "{} Commander drain {}",
            "abcdefghij ".repeat(60),
            "klmnopqrs ".repeat(60)
        );
        let w = snippet_window(&text, &["drain".to_string()]);
        assert!(w.start > 0 && w.end < text.len(), "{w:?}");
        assert_eq!(
            text.as_bytes()[w.start - 1],
            b' ',
            "starts inside a word: {w:?}"
        );
        assert_eq!(text.as_bytes()[w.end], b' ', "ends inside a word: {w:?}");
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
