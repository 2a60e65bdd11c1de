//! The tantivy index over rulebook sections and imported cards: schema,
//! build, staleness, query, ranking, snippets.
//!
//! The index is a cache of `rulebook/` and of the imported card databases:
//! [`Index::open_or_build`] checks it against the sources' contents ([`store`])
//! and rebuilds it silently when it is missing, stale or damaged. Queries are
//! built programmatically from plain words ([`query`]), never parsed as tantivy
//! query syntax, and ranked in two passes ([`rank`]).

mod query;
mod rank;
mod schema;
mod scorer;
mod snippet;
mod stamp;
mod store;
mod text;

use crate::error::{Error, Result};
use crate::paths::Paths;
use crate::rulebook::{Corpus, Game};
use serde::Serialize;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use tantivy::collector::TopDocs;
use tantivy::columnar::Column;
use tantivy::schema::Field;
use tantivy::schema::document::Value;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{DocAddress, IndexReader, ReloadPolicy, Searcher, TantivyDocument};

pub use schema::{DocKind, Origin, SUPERSEDED_FACTOR};
pub use store::fingerprint;

use rank::Ranked;
use schema::Fields;

/// Longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 500;
/// Largest `limit` accepted.
pub const MAX_LIMIT: usize = 1000;
/// Longest snippet, in characters.
const SNIPPET_CHARS: usize = 200;
/// How far back a snippet may reach for the start of its sentence, in bytes.
const SENTENCE_REACH: usize = 90;
/// Candidates ranked again in the second pass (at least).
const RERANK: usize = 20;

/// What a search starts from: the query plan, the analyzer it was made with,
/// whether the game is clear (asked for, or plain from the words), and the
/// first-pass query.
struct First {
    plan: query::Plan,
    analyzer: TextAnalyzer,
    clear: bool,
    query: Option<Box<dyn tantivy::query::Query>>,
}

/// A search request: plain words, optional filters, how many hits at most.
#[derive(Debug, Clone)]
pub struct Query {
    pub text: String,
    pub game: Option<Game>,
    pub kind: Option<DocKind>,
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

/// One ranked rulebook section, card, or card ruling.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    /// A section ID, or `<database file>#<card id>` (with `/ruling/N` or
    /// `/errata/N` for a database's ruling or erratum on the card).
    pub id: String,
    pub title: String,
    pub breadcrumb: Vec<String>,
    pub game: Game,
    /// The rulebook document ("ar"), or the database file.
    pub document: String,
    pub kind: DocKind,
    /// Where the hit comes from: the rulebook section, or the card database
    /// with the card and the ruling's position.
    pub source: Origin,
    pub superseded: bool,
    pub score: f32,
    /// Share of the query's weighted words the hit covers (0 to 1).
    pub coverage: f32,
    /// Plain text around the best-matching words of the body: it starts at a
    /// sentence, or with "…" when cut.
    pub snippet: String,
    /// Byte ranges of `snippet` that matched query words.
    #[serde(skip)]
    pub highlights: Vec<Range<usize>>,
}

/// What a hit shows of one document, read from the index's stored fields.
#[derive(Debug)]
struct Stored {
    id: String,
    title: String,
    breadcrumb: Vec<String>,
    game: Game,
    document: String,
    kind: DocKind,
    source: Origin,
    superseded: bool,
    /// The body as plain text.
    plain: String,
    /// Whether the document has been a hit before.
    shown: AtomicBool,
    /// The words of `plain`, found on the document's second time as a hit (a
    /// one-off search reads only the part of the body it shows).
    words: OnceLock<Option<snippet::Words>>,
}

impl Stored {
    /// The words of the body, when kept (see `words`).
    fn words(&self, tokenizer: &mut snippet::SnippetTokenizer) -> Option<&snippet::Words> {
        if let Some(w) = self.words.get() {
            return w.as_ref();
        }
        if !self.shown.swap(true, Ordering::Relaxed) {
            return None;
        }
        self.words
            .get_or_init(|| snippet::Words::of(&self.plain, tokenizer))
            .as_ref()
    }
}

/// Fast-field columns of one segment.
struct Columns {
    ord: Column<u64>,
    id_rank: Column<u64>,
    superseded: Column<u64>,
    game: Column<u64>,
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
    /// Stored fields of each document, read when first needed for a hit
    /// (boxed: an empty cell costs a pointer, not a whole `Stored`).
    stored: Vec<OnceLock<Box<Stored>>>,
    /// Rulebook sections: the first documents in build order.
    sections: u32,
    /// Scoring weights of the terms searched so far.
    weights: std::sync::Arc<scorer::TermWeights>,
    /// Every document's prior and game, read on the first search.
    priors: OnceLock<std::sync::Arc<scorer::Priors>>,
    /// Numbers of the stems of kept documents' words (see `snippet::Words`).
    stem_ids: Arc<snippet::StemIds>,
    /// Whether the last open had to (re)build the index.
    built: bool,
    /// Problems that did not stop the index from being built (unreadable card data).
    pub warnings: Vec<String>,
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index")
            .field("documents", &self.stored.len())
            .field("sections", &self.sections)
            .field("built", &self.built)
            .finish()
    }
}

impl Index {
    /// Open the index under paths.index, (re)building it when missing, stale or
    /// damaged. A current index is opened without parsing the rulebook.
    pub fn open_or_build(paths: &Paths) -> Result<Index> {
        let sources = store::Sources::scan(paths)?;
        let seen = sources.snapshot();
        // The sources' metadata as last hashed stands in for their contents
        // when every file is exactly as it was then (see [`stamp`]).
        let stamp = stamp::Stamp::read(&store::sections_dir(&paths.index));
        let (fingerprint, hashed) = match &stamp {
            Some(s) if s.sources.vouches_for(&seen) => (s.fingerprint.clone(), false),
            _ => (sources.fingerprint()?, true),
        };
        if !sources.no_rulebook()
            && let Some((index, files, checked)) =
                store::open_current(&paths.index, &fingerprint, stamp.as_ref().map(|s| &s.index))
            && let Ok(ix) = Index::from_parts(&paths.rulebook, None, index, false)
        {
            if hashed || checked {
                store::stamp(&paths.index, &fingerprint, seen, files);
            }
            return Ok(ix);
        }
        Index::build_from(paths, &fingerprint, seen)
    }

    /// Rebuild the index from the rulebook and the imported cards now,
    /// replacing whatever was there.
    pub fn rebuild(paths: &Paths) -> Result<Index> {
        let sources = store::Sources::scan(paths)?;
        let seen = sources.snapshot();
        let fingerprint = sources.fingerprint()?;
        Index::build_from(paths, &fingerprint, seen)
    }

    /// An index of the rulebook alone, held in memory only, never written to disk.
    pub fn in_memory(corpus: Corpus) -> Result<Index> {
        let docs: Vec<schema::Doc> = corpus.sections.iter().map(schema::section_doc).collect();
        let index = store::build_in_ram(&docs, "in-memory")?;
        let root = corpus.root.clone();
        Index::from_parts(&root, Some(corpus), index, true)
    }

    fn build_from(paths: &Paths, fingerprint: &str, seen: stamp::Snapshot) -> Result<Index> {
        let corpus = Corpus::load(&paths.rulebook)?;
        let mut docs: Vec<schema::Doc> = corpus.sections.iter().map(schema::section_doc).collect();
        let mut warnings = Vec::new();
        match crate::cards::load_imported(&paths.data_dir) {
            Ok(sources) => {
                for s in &sources {
                    schema::card_docs(s, &mut docs);
                }
            }
            Err(e) => warnings.push(format!("imported cards are not searchable: {e}")),
        }
        let index = store::build(&paths.index, &docs, fingerprint, seen)?;
        let mut ix = Index::from_parts(&paths.rulebook, Some(corpus), index, true)?;
        ix.warnings = warnings;
        Ok(ix)
    }

    fn from_parts(
        rulebook: &std::path::Path,
        corpus: Option<Corpus>,
        index: tantivy::Index,
        built: bool,
    ) -> Result<Index> {
        let fields = schema::fields_of(&index.schema())
            .ok_or_else(|| Error::Index("schema lacks expected fields".into()))?;
        let reader: IndexReader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(ix_err)?;
        let searcher = reader.searcher();
        let docs = searcher.num_docs() as usize;
        let sections = searcher
            .doc_freq(&tantivy::Term::from_field_text(fields.origin, "rulebook"))
            .map_err(ix_err)? as u32;
        if let Some(c) = &corpus
            && sections as usize != c.sections.len()
        {
            return Err(Error::Index(format!(
                "index holds {sections} sections, the rulebook {}",
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
                game: ff.u64("game_ord").map_err(ix_err)?,
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
            sections,
            weights: Default::default(),
            priors: OnceLock::new(),
            stem_ids: Arc::default(),
            built,
            warnings: Vec::new(),
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

    /// Number of indexed documents: sections, cards, and card errata and rulings.
    pub fn len(&self) -> usize {
        self.stored.len()
    }

    /// Whether a document with this ID (section, card, or card ruling) is indexed.
    pub fn contains_id(&self, id: &str) -> bool {
        self.searcher
            .doc_freq(&tantivy::Term::from_field_text(self.fields.id, id))
            .is_ok_and(|n| n > 0)
    }

    /// Number of indexed rulebook sections.
    pub fn sections(&self) -> usize {
        self.sections as usize
    }

    pub fn is_empty(&self) -> bool {
        self.stored.is_empty()
    }

    /// Ranked hits for `q`; empty when nothing covers enough of the question
    /// (see [`rank::MIN_COVER`]). Words the index does not know are matched
    /// by close words (typos).
    pub fn search(&self, q: &Query) -> Result<Vec<Hit>> {
        let searcher = &self.searcher;
        let stats = query::Stats::new(searcher, &self.weights);
        let First {
            plan,
            analyzer,
            clear,
            query: tq,
        } = self.first_query(q, &stats)?;
        let Some(tq) = tq else {
            return Ok(Vec::new());
        };
        let want = q.limit.max(RERANK);
        let mut ranked = self.ranked(searcher, &stats, tq.as_ref(), want)?;
        rank::refine(searcher, &self.weights, &self.fields, &plan, &mut ranked);
        // Nothing is an answer unless the best covers enough of the question;
        // then hits that cover some of it follow.
        if !ranked.iter().any(|r| r.cover >= rank::MIN_COVER) {
            return Ok(Vec::new());
        }
        ranked.retain(|r| r.cover >= rank::MIN_COVER_FOLLOWING);
        ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.rank.cmp(&b.rank)));
        if !clear {
            rank::diversify(&mut ranked);
        }
        ranked.truncate(q.limit);
        let terms = plan.highlight_terms();
        let stems: Vec<String> = terms.keys().cloned().collect();
        let ids = Arc::clone(&self.stem_ids);
        let mut tokenizer = snippet::SnippetTokenizer::new(analyzer, &terms, ids);
        ranked
            .into_iter()
            .map(|r| {
                let s = self.stored(searcher, r.ord, r.addr)?;
                Ok(hit(s, &r, &mut tokenizer, &terms, &stems))
            })
            .collect()
    }

    /// The query plan of `q`, its game factors, and its first-pass query (none
    /// when no word of it is in the index).
    fn first_query(&self, q: &Query, stats: &query::Stats<'_>) -> Result<First> {
        q.validate()?;
        let searcher = &self.searcher;
        let mut analyzer = self.analyzer.clone();
        let plan = query::plan(&q.text, &mut analyzer, stats, &self.fields, &self.weights)?;
        let priors = match self.priors.get() {
            Some(p) => std::sync::Arc::clone(p),
            None => {
                let p = std::sync::Arc::new(scorer::Priors::read(searcher).map_err(ix_err)?);
                std::sync::Arc::clone(self.priors.get_or_init(|| p))
            }
        };
        let (game_factor, clear) = match q.game {
            Some(g) => (Game::ALL.map(|x| if x == g { 1.0 } else { 0.0 }), true),
            None => rank::game_prior(
                searcher,
                &self.fields,
                &plan,
                &self.weights,
                &priors,
                self.sections,
            ),
        };
        let scope = query::Scope {
            kind: q.kind,
            game_factor,
            priors,
        };
        let query = plan.to_query(&self.fields, &scope, &self.weights, stats);
        Ok(First {
            plan,
            analyzer,
            clear,
            query,
        })
    }

    /// The best `limit` documents of the first pass (before re-ranking), as
    /// (ID, score), the best first: found as [`Index::search`] finds them
    /// (clause at a time), or, with `every_document`, by scoring every document
    /// the query matches one at a time. The two must agree; this lets a test
    /// check it.
    pub fn first_pass(
        &self,
        q: &Query,
        limit: usize,
        every_document: bool,
    ) -> Result<Vec<(String, f32)>> {
        let searcher = &self.searcher;
        let stats = query::Stats::new(searcher, &self.weights);
        let Some(tq) = self.first_query(q, &stats)?.query else {
            return Ok(Vec::new());
        };
        let mut top: Vec<(f32, DocAddress)> = if every_document {
            let scoring =
                tantivy::query::EnableScoring::enabled_from_statistics_provider(&stats, searcher);
            let weight = tq.weight(scoring).map_err(ix_err)?;
            let mut all = Vec::new();
            for (ord, reader) in searcher.segment_readers().iter().enumerate() {
                let mut scorer = weight.scorer(reader, 1.0).map_err(ix_err)?;
                let mut doc = scorer.doc();
                while doc != tantivy::TERMINATED {
                    all.push((scorer.score(), DocAddress::new(ord as u32, doc)));
                    doc = scorer.advance();
                }
            }
            all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            all.truncate(limit);
            all
        } else {
            searcher
                .search_with_statistics_provider(
                    tq.as_ref(),
                    &TopDocs::with_limit(limit).order_by_score(),
                    &stats,
                )
                .map_err(ix_err)?
        };
        top.retain(|t| t.0 > 0.0);
        top.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        top.into_iter()
            .map(|(score, addr)| {
                let id = self.stored(searcher, self.ord(addr)?, addr)?.id.clone();
                Ok((id, score))
            })
            .collect()
    }

    /// The stored fields of the document at build position `ord`, stored at `addr`.
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
        let s = Stored {
            id,
            title: text(f.title)?,
            breadcrumb: doc
                .get_all(f.crumbs)
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            game: Game::parse(&game)
                .ok_or_else(|| Error::Index(format!("stored game {game:?} is unknown")))?,
            document,
            kind: DocKind::parse(&kind)
                .ok_or_else(|| Error::Index(format!("stored kind {kind:?} is unknown")))?,
            source,
            superseded: self.superseded(addr),
            plain: text(f.body)?,
            shown: AtomicBool::new(false),
            words: OnceLock::new(),
        };
        Ok(cell.get_or_init(|| Box::new(s)))
    }

    fn superseded(&self, addr: DocAddress) -> bool {
        self.columns
            .get(addr.segment_ord as usize)
            .and_then(|c| c.superseded.first(addr.doc_id))
            .is_some_and(|v| v != 0)
    }

    /// The fast-field columns of `addr`'s segment.
    fn columns(&self, addr: DocAddress) -> Result<&Columns> {
        self.columns
            .get(addr.segment_ord as usize)
            .ok_or_else(|| Error::Index(format!("no segment {}", addr.segment_ord)))
    }

    /// The build position of the document at `addr`.
    fn ord(&self, addr: DocAddress) -> Result<usize> {
        self.columns(addr)?
            .ord
            .first(addr.doc_id)
            .map(|o| o as usize)
            .filter(|&o| o < self.stored.len())
            .ok_or_else(|| Error::Index(format!("document {addr:?} has no section")))
    }

    /// Top `limit` documents by first-pass score.
    fn ranked(
        &self,
        searcher: &Searcher,
        stats: &query::Stats<'_>,
        tq: &dyn tantivy::query::Query,
        limit: usize,
    ) -> Result<Vec<Ranked>> {
        let top: Vec<(f32, DocAddress)> = searcher
            .search_with_statistics_provider(
                tq,
                &TopDocs::with_limit(limit).order_by_score(),
                stats,
            )
            .map_err(ix_err)?;
        let mut out = Vec::with_capacity(top.len());
        // A score of 0 is a document of another game than the one asked for.
        for &(score, addr) in top.iter().filter(|t| t.0 > 0.0) {
            let cols = self.columns(addr)?;
            let ord = self.ord(addr)?;
            out.push(Ranked {
                score,
                ord,
                rank: cols.id_rank.first(addr.doc_id).unwrap_or(u64::MAX),
                addr,
                game: cols.game.first(addr.doc_id).unwrap_or(0) as usize,
                cover: 0.0,
            });
        }
        Ok(out)
    }
}

fn hit(
    s: &Stored,
    r: &Ranked,
    tokenizer: &mut snippet::SnippetTokenizer,
    terms: &BTreeMap<String, f32>,
    stems: &[String],
) -> Hit {
    let plain = s.plain.as_str();
    let words = s.words(tokenizer);
    let (win, near) = snippet_window(plain, stems, words);
    let window = &plain[win.clone()];
    let best = match words {
        Some(w) => snippet::best_fragment_in(
            tokenizer,
            plain,
            (win.clone(), near),
            w,
            terms,
            SNIPPET_CHARS,
        ),
        None => snippet::best_fragment(tokenizer, window, terms, SNIPPET_CHARS),
    }
    .filter(|(range, _)| !window[range.clone()].trim().is_empty())
    .map(|(range, hl)| (range.start + win.start..range.end + win.start, hl));
    let (snippet, highlights) = match best {
        Some((range, hl)) => sentence_snippet(plain, range, hl),
        None => (lead(plain, SNIPPET_CHARS), Vec::new()),
    };
    Hit {
        id: s.id.clone(),
        title: s.title.clone(),
        breadcrumb: s.breadcrumb.clone(),
        game: s.game,
        document: s.document.clone(),
        kind: s.kind,
        source: s.source.clone(),
        superseded: s.superseded,
        score: r.score,
        coverage: (r.cover * 1000.0).round() / 1000.0,
        snippet,
        highlights,
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

/// The part of `text` the snippet is chosen from: long bodies are cut to a
/// window starting a little before the first word that begins with a query stem,
/// so snippet cost does not grow with section length. With it, the position
/// of that word among `words` (0 when there is none).
fn snippet_window(
    text: &str,
    stems: &[String],
    words: Option<&snippet::Words>,
) -> (Range<usize>, usize) {
    const BEFORE: usize = 100;
    const WINDOW: usize = 450;
    if text.len() <= WINDOW {
        return (0..text.len(), 0);
    }
    let (near, first) = match words {
        Some(w) => w.first_starting_with(text.as_bytes(), stems),
        None => snippet::first_word_starting_with(text.as_bytes(), stems).map(|at| (0, at)),
    }
    .unwrap_or((0, 0));
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
    (start..end, near)
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
        let (w, _) = snippet_window(&text, &["drain".to_string()], None);
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
        let drain = ["drain".to_string()];
        let (w, _) = snippet_window(&text, &drain, None);
        assert!(text[w.clone()].contains("force drain here"));
        assert!(w.len() <= 450);
        // A kept document's words give the same window, and the position of
        // the word it was found by: the 1,001st word, "drain".
        let terms = BTreeMap::from([("drain".to_string(), 1.0)]);
        let mut tok = snippet::SnippetTokenizer::new(text::analyzer(), &terms, Arc::default());
        let words = snippet::Words::of(&text, &mut tok).expect("words");
        assert_eq!(snippet_window(&text, &drain, Some(&words)), (w, 1001));
        assert_eq!(
            snippet_window("short text", &["zz".to_string()], None),
            (0..10, 0)
        );
        assert_eq!(
            snippet::first_word_starting_with(b"a Drains b", &drain),
            Some(2)
        );
        assert_eq!(snippet::first_word_starting_with(b"redrain", &drain), None);
    }

    #[test]
    fn lead_cuts_at_words() {
        assert_eq!(lead("short", 10), "short");
        let l = lead("alpha beta gamma delta epsilon", 14);
        assert_eq!(l, "alpha beta…");
    }
}
