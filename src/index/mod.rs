//! The tantivy index over rulebook sections and imported cards: schema,
//! build, staleness, query, ranking, snippets.
//!
//! The index is a cache of `rulebook/` and of the imported card databases:
//! [`Index::open_or_build`] checks it against the sources' contents ([`store`])
//! and rebuilds it silently when it is missing, stale or damaged. Queries are
//! built programmatically from plain words ([`query`]), never parsed as tantivy
//! query syntax, scored by tantivy ([`cover`]) and ranked again ([`rank`]).

mod cover;
mod hit;
mod query;
mod rank;
mod schema;
pub(crate) mod stamp;
mod store;
mod text;
mod vocabulary;

use crate::error::{Error, Result};
use crate::paths::Paths;
use crate::rulebook::{Corpus, Game};
use serde::Serialize;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::OnceLock;
use tantivy::collector::TopDocs;
use tantivy::columnar::Column;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{DocAddress, IndexReader, ReloadPolicy, Searcher};

pub use schema::{DocKind, Origin, SUPERSEDED_FACTOR};

use hit::Stored;
use rank::Ranked;
use schema::Fields;

/// Longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 500;
/// Largest `limit` accepted.
pub const MAX_LIMIT: usize = 1000;
/// Candidates ranked again in the second pass (at least).
const RERANK: usize = 60;
/// Score factor of the documents about one card (an imported card, and the
/// errata and rulings on a card, the rulebooks' or a database's) for a
/// question about the rules (one that names no card and does not ask what a
/// card does): with every card database imported, a casual word of the
/// question that card text or a ruling uses must not outrank the rule that
/// answers.
const CARDS_FOR_RULES: f32 = 0.25;
/// Further factor of a card's own text (not a ruling on it) for such a question.
const CARD_TEXT_FOR_RULES: f32 = 0.6;
/// Score factor of the documents of a card the question names.
const NAMED_CARD: f32 = 1.5;
/// Score factor of a worked example, unless the question asks for one: an
/// example comes under the rule it illustrates.
const EXAMPLE: f32 = 0.4;
/// Score factor of a rule section when a section inside it answers as much
/// of the question and its title holds a word of the question the rule's
/// own lacks.
const GENERAL: f32 = 0.7;
/// Score factor of a document titled with exactly what the question asks to
/// have explained ("Fury" for "what does fury do when I roll my dice").
const SUBJECT: f32 = 1.5;
/// Times a search is tried again on an index rebuilt or switched under it.
const ATTEMPTS: usize = 3;

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
    /// For a section that only points to others ("See Implied Target
    /// Rule"), the IDs of the sections it points to.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub see: Vec<String>,
}

/// What a search found, and how it read the question.
#[derive(Debug, Clone, Default)]
pub struct Found {
    pub hits: Vec<Hit>,
    /// Misspelt words read as the word meant: (as typed, as read).
    pub read_as: Vec<(String, String)>,
}

/// The documents of the rulebook's sections, in corpus order.
fn section_docs(corpus: &Corpus) -> Vec<schema::Doc> {
    let resolver = crate::rulebook::lint::Resolver::new(corpus);
    corpus
        .sections
        .iter()
        .map(|s| schema::section_doc(s, &resolver))
        .collect()
}

/// Fast-field columns of one segment.
struct Columns {
    ord: Column<u64>,
    id_rank: Column<u64>,
    game: Column<u64>,
    kind: Column<u64>,
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
    /// Stored fields of each document, read when first needed for a hit.
    stored: Vec<OnceLock<Box<Stored>>>,
    /// Rulebook sections: the first documents in build order.
    sections: u32,
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
        let sources = store::Sources::of(paths)?;
        // A generation superseded between reading `CURRENT` and opening it
        // may be gone: look again before building.
        for _ in 0..ATTEMPTS {
            if let Some(index) = store::open_current(&paths.index, &sources)?
                && let Ok(ix) = Index::from_parts(&paths.rulebook, None, index, false)
            {
                return Ok(ix);
            }
        }
        Index::build_from(paths, sources.fingerprint()?)
    }

    /// Rebuild the index from the rulebook and the imported cards now,
    /// replacing whatever was there.
    pub fn rebuild(paths: &Paths) -> Result<Index> {
        Index::build_from(paths, store::Sources::of(paths)?.fingerprint()?)
    }

    /// An index of the rulebook alone, held in memory only, never written to disk.
    pub fn in_memory(corpus: Corpus) -> Result<Index> {
        let docs = section_docs(&corpus);
        let index = store::build_in_ram(&docs, "in-memory")?;
        let root = corpus.root.clone();
        Index::from_parts(&root, Some(corpus), index, true)
    }

    fn build_from(paths: &Paths, fingerprint: &str) -> Result<Index> {
        let corpus = Corpus::load(&paths.rulebook)?;
        let mut docs = section_docs(&corpus);
        let mut warnings = Vec::new();
        match crate::cards::load_imported(&paths.data_dir) {
            Ok(sources) => {
                for s in &sources {
                    schema::card_docs(s, &mut docs);
                }
            }
            Err(e) => warnings.push(format!("imported cards are not searchable: {e}")),
        }
        let index = store::build(&paths.index, &docs, fingerprint)?;
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
                game: ff.u64("game_ord").map_err(ix_err)?,
                kind: ff.u64("kind_ord").map_err(ix_err)?,
            });
        }
        let analyzer = index.tokenizer_for_field(fields.body).map_err(ix_err)?;
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
            stored: (0..docs).map(|_| OnceLock::new()).collect(),
            sections,
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

    /// Ranked hits for `q`; empty when nothing answers enough of the
    /// question (see [`rank::MIN_COVER`]). Words the index does not know are
    /// matched by close words (typos). A read that fails on a damaged index
    /// (even one that makes tantivy panic) is an index error: the caller
    /// rebuilds the index and asks again.
    pub fn search(&self, q: &Query) -> Result<Vec<Hit>> {
        self.search_read(q).map(|f| f.hits)
    }

    /// As [`Index::search`], with the misspelt words the search read as the
    /// word meant, for the user to see.
    pub fn search_read(&self, q: &Query) -> Result<Found> {
        q.validate()?;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.search_unchecked(q)))
            .unwrap_or_else(|_| Err(Error::Index("a read of the index failed".into())))
    }

    fn search_unchecked(&self, q: &Query) -> Result<Found> {
        let mut analyzer = self.analyzer.clone();
        let mut plan = query::plan(&q.text, &mut analyzer, &self.searcher, &self.fields, q.game)?;
        let read_as = std::mem::take(&mut plan.read_as);
        let hits = self.hits(q, plan, analyzer)?;
        Ok(Found { hits, read_as })
    }

    /// The ranked hits for the analysed question.
    fn hits(&self, q: &Query, mut plan: query::Plan, analyzer: TextAnalyzer) -> Result<Vec<Hit>> {
        let searcher = &self.searcher;
        rank::anchor(searcher, &self.fields, &mut plan, self.sections);
        let (game, clear) = match q.game {
            Some(g) => (Game::ALL.map(|x| if x == g { 1.0 } else { 0.0 }), true),
            None => rank::game_prior(searcher, &self.fields, &plan, self.sections),
        };
        let factors = factors(q, &plan, game);
        let Some(tq) = plan.to_query(&self.fields, factors) else {
            return Ok(Vec::new());
        };
        let mut ranked = self.ranked(tq.as_ref(), q.limit.max(RERANK))?;
        rank::refine(searcher, &self.fields, &plan, &mut ranked);
        self.weigh_cards(q, &plan, &mut ranked)?;
        self.prefer_subject(&plan, &mut ranked)?;
        self.prefer_specific(&mut ranked)?;
        // Nothing is an answer unless the best answers enough of the question;
        // then hits that cover some of it follow.
        if !ranked.iter().any(|r| r.answers(&plan)) {
            return Ok(Vec::new());
        }
        ranked.retain(|r| r.cover >= rank::MIN_COVER_FOLLOWING);
        ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.rank.cmp(&b.rank)));
        if !clear {
            rank::diversify(&mut ranked);
        }
        ranked.truncate(q.limit);
        let snippets = tantivy::snippet::SnippetGenerator::new(
            plan.highlight_terms(),
            analyzer,
            self.fields.body,
            hit::SNIPPET_CHARS,
        );
        ranked
            .into_iter()
            .map(|r| Ok(self.stored(r.ord, r.addr)?.hit(&r, &snippets)))
            .collect()
    }

    /// Documents about one card (titled with its name) for what the question
    /// is: those of a card it names rank over rule sections; for a question
    /// about the rules (no card named, no card asked about), under them, and a
    /// card's title is then no part of its answer.
    fn weigh_cards(&self, q: &Query, plan: &query::Plan, cands: &mut [Ranked]) -> Result<()> {
        let mut named = vec![false; cands.len()];
        let mut analyzer = self.analyzer.clone();
        for (i, c) in cands.iter().enumerate().filter(|(_, c)| c.about_a_card) {
            let title = &self.stored(c.ord, c.addr)?.title;
            named[i] = plan.names(&text::stems(&mut analyzer, title));
        }
        let card_question = plan.asks_card || named.contains(&true) || q.kind.is_some();
        for (c, named) in cands.iter_mut().zip(named).filter(|(c, _)| c.about_a_card) {
            // What the first pass gave, as [`factors`] sets it.
            let first = match (rules_question(q, plan), c.card_text) {
                (true, true) => CARDS_FOR_RULES * CARD_TEXT_FOR_RULES,
                (true, false) => CARDS_FOR_RULES,
                (false, _) => 1.0,
            };
            let target = match (named, card_question) {
                (true, _) => NAMED_CARD,
                (false, true) => 1.0,
                (false, false) => first,
            };
            c.score *= target / first;
            if named {
                c.anchored = true;
            } else {
                // Its name answers nothing.
                c.gate -= c.titled;
                c.title_groups = 0;
            }
        }
        Ok(())
    }

    /// A document titled with what the question asks to have explained ranks
    /// over those that only use its words.
    fn prefer_subject(&self, plan: &query::Plan, cands: &mut [Ranked]) -> Result<()> {
        if plan.subject.is_empty() {
            return Ok(());
        }
        let mut analyzer = self.analyzer.clone();
        for c in cands.iter_mut() {
            let title = &self.stored(c.ord, c.addr)?.title;
            if plan.is_subject(&text::stems(&mut analyzer, title)) {
                c.score *= SUBJECT;
            }
        }
        Ok(())
    }

    /// A rule section ranks under a section inside it (deeper in the same
    /// breadcrumb) whose best passage answers as much of the question and
    /// whose title holds a word of the question its own lacks: the specific
    /// rule over the heading that introduces it. A question about the heading
    /// itself ("how does a force drain work") keeps the heading first.
    fn prefer_specific(&self, cands: &mut [Ranked]) -> Result<()> {
        let mut rules = Vec::new();
        for (i, c) in cands.iter().enumerate() {
            if c.kind_rule && c.ord < self.sections as usize {
                rules.push((i, &self.stored(c.ord, c.addr)?.breadcrumb));
            }
        }
        let mut demote = Vec::new();
        for &(p, outer) in &rules {
            let inside = rules.iter().any(|&(c, inner)| {
                inner.len() > outer.len()
                    && inner.starts_with(outer)
                    && cands[c].answer >= cands[p].answer
                    && cands[c].title_groups & !cands[p].title_groups != 0
            });
            if inside {
                demote.push(p);
            }
        }
        for p in demote {
            cands[p].score *= GENERAL;
        }
        Ok(())
    }

    /// The stored fields of the document at build position `ord`, stored at `addr`.
    fn stored(&self, ord: usize, addr: DocAddress) -> Result<&Stored> {
        let cell = self
            .stored
            .get(ord)
            .ok_or_else(|| Error::Index(format!("document {addr:?} has no section")))?;
        if let Some(s) = cell.get() {
            return Ok(s);
        }
        let s = Stored::read(&self.searcher, &self.fields, addr)?;
        Ok(cell.get_or_init(|| Box::new(s)))
    }

    /// Top `limit` documents by first-pass score.
    fn ranked(&self, tq: &dyn tantivy::query::Query, limit: usize) -> Result<Vec<Ranked>> {
        let top: Vec<(f32, DocAddress)> = self
            .searcher
            .search(tq, &TopDocs::with_limit(limit).order_by_score())
            .map_err(ix_err)?;
        let mut out = Vec::with_capacity(top.len());
        for &(score, addr) in top.iter().filter(|t| t.0 > 0.0) {
            let cols = self
                .columns
                .get(addr.segment_ord as usize)
                .ok_or_else(|| Error::Index(format!("no segment {}", addr.segment_ord)))?;
            let kind = cols.kind.first(addr.doc_id).unwrap_or(0) as usize;
            let kind = DocKind::ALL.get(kind).copied().unwrap_or(DocKind::Rule);
            let ord = cols
                .ord
                .first(addr.doc_id)
                .map(|o| o as usize)
                .filter(|&o| o < self.stored.len())
                .ok_or_else(|| Error::Index(format!("document {addr:?} has no section")))?;
            out.push(Ranked {
                score,
                ord,
                rank: cols.id_rank.first(addr.doc_id).unwrap_or(u64::MAX),
                addr,
                game: cols.game.first(addr.doc_id).unwrap_or(0) as usize,
                about_a_card: about_a_card(kind),
                card_text: kind == DocKind::Card,
                kind_rule: matches!(kind, DocKind::Rule | DocKind::Glossary | DocKind::Faq),
                cover: 0.0,
                answer: 0.0,
                title_groups: 0,
                passage_groups: 0,
                titled: 0.0,
                anchored: false,
                gate: 0.0,
            });
        }
        Ok(out)
    }
}

/// Whether documents of `kind` are about one card, titled with its name: a
/// card's text, and errata and rulings on a card.
fn about_a_card(kind: DocKind) -> bool {
    matches!(kind, DocKind::Card | DocKind::Errata | DocKind::Ruling)
}

/// The factors of the first pass: the games', and the kinds' (`--kind` keeps
/// one; an example comes under its rule unless the question asks for one;
/// documents about a card come under rule sections unless the question asks
/// about a card).
fn factors(q: &Query, plan: &query::Plan, game: [f32; 3]) -> cover::Factors {
    let rules_question = rules_question(q, plan);
    let kind = DocKind::ALL.map(|k| match q.kind {
        Some(wanted) => f32::from(u8::from(k == wanted)),
        None if k == DocKind::Example && !plan.asks_example => EXAMPLE,
        None if k == DocKind::Card && rules_question => CARDS_FOR_RULES * CARD_TEXT_FOR_RULES,
        None if about_a_card(k) && rules_question => CARDS_FOR_RULES,
        None => 1.0,
    });
    cover::Factors { game, kind }
}

/// Whether the first pass takes `q` for a question about the rules: it does
/// not ask about a card, and `--kind` does not say what it wants.
fn rules_question(q: &Query, plan: &query::Plan) -> bool {
    !plan.asks_card && q.kind.is_none()
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
}
