//! From a judge's plain words to a tantivy query, built programmatically so
//! quotes, colons and parentheses are just punctuation, never syntax.
//!
//! Each word becomes a group: its stem plus the stems of its synonyms (game
//! jargon), searched in the title (boosted) and the body; a section's score for
//! the group is the best of those, plus a little of the rest (BM25 throughout).
//! Two neighbouring words found next to each other in a body ("reserve deck")
//! add a bonus. A word the index does not know is matched fuzzily (typo
//! tolerance), and when nothing matches at all, every word is. Common function
//! words ("can", "the", "my") are dropped unless nothing else is left. The
//! ancestors' titles are indexed too but not searched: on the evaluation
//! questions they added cost and no recall.

use super::{Fields, ix_err};
use crate::error::Result;
use crate::rulebook::{Game, Kind};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use tantivy::query::{
    Bm25StatisticsProvider, BooleanQuery, BoostQuery, EnableScoring, Explanation, FuzzyTermQuery,
    Occur, PhraseQuery, Query, QueryClone, Scorer, TermQuery, Weight,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{DocId, DocSet, Score, Searcher, SegmentReader, TERMINATED, Term};

const TITLE_BOOST: f32 = 2.0;
const BODY_BOOST: f32 = 1.0;
const SYNONYM_WEIGHT: f32 = 0.7;
const FUZZY_WEIGHT: f32 = 0.8;
const TIE_BREAKER: f32 = 0.25;
/// Bonus for two neighbouring query words found next to each other, or one
/// word apart ("reserve deck", "reserve the deck").
const PAIR_BOOST: f32 = 2.0;
/// How far apart neighbouring words may be in a body and still count as a pair.
const PAIR_SLOP: u32 = 1;

/// Words that carry no meaning for a rules search, sorted for binary search.
const STOP_WORDS: &[&str] = &[
    "a", "about", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can",
    "could", "did", "do", "does", "doing", "for", "from", "get", "gets", "happen", "happens",
    "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "mean", "means", "my",
    "of", "on", "or", "our", "should", "so", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "those", "to", "was", "we", "were", "what", "when", "where", "which",
    "who", "why", "will", "with", "work", "works", "would", "you", "your",
];

/// Game jargon and spelling variants: a word on the left also searches the words
/// on the right (at a lower weight). Stemming already covers plurals.
const SYNONYMS: &[(&str, &[&str])] = &[
    ("dice", &["die"]),
    ("die", &["dice"]),
    ("hp", &["health"]),
    ("health", &["damage"]),
    ("react", &["respond", "response"]),
    ("reacting", &["respond", "response"]),
    ("respond", &["response"]),
    ("hit", &["damage"]),
    ("kill", &["defeat", "lost"]),
    ("killed", &["defeated", "lost"]),
    ("dies", &["defeated", "lost"]),
    ("discard", &["lost"]),
    ("shuffle", &["reshuffle"]),
    ("unique", &["uniqueness"]),
    ("uniqueness", &["unique"]),
    ("dot", &["unique"]),
    ("attack", &["battle", "attacking"]),
    ("fight", &["battle"]),
    ("ship", &["starship"]),
    ("ships", &["starships"]),
    ("vehicle", &["vehicles"]),
    ("deck", &["pile"]),
    ("empty", &["depleted"]),
    ("turn", &["round"]),
    ("cost", &["deploy"]),
    ("money", &["resources"]),
    ("swap", &["replace", "exchange"]),
    ("switch", &["replace", "exchange"]),
    ("travel", &["move", "movement"]),
    ("redraw", &["mulligan"]),
    ("sideways", &["tap", "exhaust"]),
    ("twice", &["once"]),
    ("again", &["once"]),
    ("opening", &["starting"]),
    ("beginning", &["start"]),
];

/// One word of the query with the stems it is searched by.
#[derive(Debug, Clone)]
struct Group {
    /// The word's own stem first, then its synonyms' stems.
    variants: Vec<Variant>,
}

#[derive(Debug, Clone)]
struct Variant {
    stem: String,
    weight: f32,
    /// Whether the stem occurs in the index at all.
    known: bool,
}

impl Group {
    /// Whether the word itself (not a synonym) occurs in the index.
    fn known(&self) -> bool {
        self.variants[0].known
    }
}

/// The analysed query, ready to become a tantivy query.
#[derive(Debug, Clone)]
pub struct Plan {
    groups: Vec<Group>,
}

/// Analyse `text` with the index's analyzer and look its words up.
pub fn plan(
    text: &str,
    analyzer: &mut TextAnalyzer,
    stats: &Stats<'_>,
    f: &Fields,
) -> Result<Plan> {
    let mut words: Vec<(String, String)> = Vec::new(); // (lowercase word, stem)
    {
        let mut stream = analyzer.token_stream(text);
        while let Some(tok) = stream.next() {
            let raw = text
                .get(tok.offset_from..tok.offset_to)
                .unwrap_or(&tok.text)
                .to_lowercase();
            words.push((raw, tok.text.clone()));
        }
    }
    let content: Vec<&(String, String)> = words
        .iter()
        .filter(|(w, _)| STOP_WORDS.binary_search(&w.as_str()).is_err() && !is_letter(w))
        .collect();
    let chosen: Vec<&(String, String)> = if content.is_empty() {
        words.iter().collect()
    } else {
        content
    };
    let mut groups: Vec<Group> = Vec::new();
    for (word, stem) in chosen {
        if groups.iter().any(|g| g.variants[0].stem == *stem) {
            continue;
        }
        let mut stems_of_word = vec![(stem.clone(), 1.0)];
        for syn in synonyms(word) {
            for s in stems(analyzer, syn) {
                if !stems_of_word.iter().any(|(v, _)| *v == s) {
                    stems_of_word.push((s, SYNONYM_WEIGHT));
                }
            }
        }
        let mut variants = Vec::with_capacity(stems_of_word.len());
        for (stem, weight) in stems_of_word {
            let mut known = false;
            for field in [f.body, f.title] {
                if stats
                    .doc_freq(&Term::from_field_text(field, &stem))
                    .map_err(ix_err)?
                    > 0
                {
                    known = true;
                    break;
                }
            }
            variants.push(Variant {
                stem,
                weight,
                known,
            });
        }
        groups.push(Group { variants });
    }
    Ok(Plan { groups })
}

/// BM25 collection statistics for one query, each looked up once: the plan
/// already asks for the words' document frequencies, and a query scores the
/// same field and term in several clauses. Same numbers as the searcher's.
pub struct Stats<'a> {
    searcher: &'a Searcher,
    docs: Cell<Option<u64>>,
    tokens: RefCell<Vec<(Field, u64)>>,
    /// Document frequencies, kept across queries: the searcher never changes.
    freqs: &'a TermWeights,
}

impl<'a> Stats<'a> {
    pub fn new(searcher: &'a Searcher, weights: &'a TermWeights) -> Stats<'a> {
        Stats {
            searcher,
            docs: Cell::new(None),
            tokens: RefCell::new(Vec::new()),
            freqs: weights,
        }
    }
}

impl Bm25StatisticsProvider for Stats<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        if let Some(&(_, n)) = self.tokens.borrow().iter().find(|(f, _)| *f == field) {
            return Ok(n);
        }
        let n = Bm25StatisticsProvider::total_num_tokens(self.searcher, field)?;
        self.tokens.borrow_mut().push((field, n));
        Ok(n)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        if let Some(n) = self.docs.get() {
            return Ok(n);
        }
        let n = Bm25StatisticsProvider::total_num_docs(self.searcher)?;
        self.docs.set(Some(n));
        Ok(n)
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        let lock = || self.freqs.freqs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&n) = lock().get(term) {
            return Ok(n);
        }
        let n = self.searcher.doc_freq(term)?;
        lock().insert(term.clone(), n);
        Ok(n)
    }
}

/// A lone letter: the "s" of "Obi-Wan's", the "t" of "can't".
fn is_letter(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(char::is_alphabetic) && chars.next().is_none()
}

fn synonyms(word: &str) -> &'static [&'static str] {
    SYNONYMS
        .iter()
        .find(|(w, _)| *w == word)
        .map_or(&[], |(_, s)| s)
}

fn stems(analyzer: &mut TextAnalyzer, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stream = analyzer.token_stream(text);
    while let Some(tok) = stream.next() {
        out.push(tok.text.clone());
    }
    out
}

/// Edit distance allowed when matching a stem of this length fuzzily; `None`
/// for stems too short to correct safely.
fn fuzzy_distance(stem: &str) -> Option<u8> {
    match stem.chars().count() {
        0..=3 => None,
        4..=8 => Some(1),
        _ => Some(2),
    }
}

impl Plan {
    /// Whether every word is already matched fuzzily (so a fuzzy retry adds nothing).
    pub fn all_fuzzy(&self) -> bool {
        self.groups.iter().all(|g| !g.known())
    }

    /// The tantivy query; `None` when no word can be searched.
    pub fn to_query(
        &self,
        f: &Fields,
        game: Option<Game>,
        kind: Option<Kind>,
        all_fuzzy: bool,
        weights: &Arc<TermWeights>,
    ) -> Option<Box<dyn Query>> {
        let term_query = |term: Term, option: IndexRecordOption| -> Box<dyn Query> {
            Box::new(CachedTerm {
                term,
                option,
                weights: Arc::clone(weights),
            })
        };
        let mut should: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for g in &self.groups {
            let mut disjuncts: Vec<Box<dyn Query>> = Vec::new();
            for (i, v) in g.variants.iter().enumerate() {
                // Only the word itself is matched fuzzily (it may be a typo); a
                // synonym the rulebook does not use is simply left out.
                let fuzzy = all_fuzzy || !v.known;
                if fuzzy && i > 0 {
                    continue;
                }
                for (field, boost) in [(f.title, TITLE_BOOST), (f.body, BODY_BOOST)] {
                    let term = Term::from_field_text(field, &v.stem);
                    let q: Box<dyn Query> = if fuzzy {
                        match fuzzy_distance(&v.stem) {
                            Some(d) => Box::new(FuzzyTermQuery::new(term, d, true)),
                            None => continue,
                        }
                    } else {
                        term_query(term, IndexRecordOption::WithFreqs)
                    };
                    let w = boost * v.weight * if fuzzy { FUZZY_WEIGHT } else { 1.0 };
                    disjuncts.push(Box::new(BoostQuery::new(q, w)));
                }
            }
            if !disjuncts.is_empty() {
                should.push((Occur::Should, Box::new(DisMax::new(disjuncts, TIE_BREAKER))));
            }
        }
        if should.is_empty() {
            return None;
        }
        if !all_fuzzy {
            for pair in self.groups.windows(2) {
                if !(pair[0].known() && pair[1].known()) {
                    continue;
                }
                let (a, b) = (&pair[0].variants[0].stem, &pair[1].variants[0].stem);
                // Best of title and body, so a pair in both does not count twice.
                // Titles are short: their pairs are indexed as tokens (cheap to look
                // up); bodies are matched with a phrase query of slop 1.
                let title = term_query(
                    Term::from_field_text(f.title_pairs, &super::pair_token(a, b)),
                    IndexRecordOption::WithFreqs,
                );
                let body = CachedPair {
                    terms: (
                        Term::from_field_text(f.body, a),
                        Term::from_field_text(f.body, b),
                    ),
                    weights: Arc::clone(weights),
                };
                let pairs: Vec<Box<dyn Query>> = vec![
                    Box::new(BoostQuery::new(title, PAIR_BOOST * TITLE_BOOST)),
                    Box::new(BoostQuery::new(Box::new(body), PAIR_BOOST * BODY_BOOST)),
                ];
                should.push((Occur::Should, Box::new(DisMax::new(pairs, 0.0))));
            }
        }
        let mut clauses: Vec<(Occur, Box<dyn Query>)> =
            vec![(Occur::Must, Box::new(BooleanQuery::new(should)))];
        if let Some(g) = game {
            clauses.push((
                Occur::Must,
                term_query(
                    Term::from_field_text(f.game, g.as_str()),
                    IndexRecordOption::Basic,
                ),
            ));
        }
        if let Some(k) = kind {
            clauses.push((
                Occur::Must,
                term_query(
                    Term::from_field_text(f.kind, k.as_str()),
                    IndexRecordOption::Basic,
                ),
            ));
        }
        Some(Box::new(BooleanQuery::new(clauses)))
    }

    /// Stems to highlight in snippets, rarer words weighing more is left to the
    /// snippet scorer; every searched stem counts the same here.
    pub fn highlight_terms(&self) -> BTreeMap<String, f32> {
        let mut out = BTreeMap::new();
        for g in &self.groups {
            for v in g.variants.iter().filter(|v| v.known) {
                out.insert(v.stem.clone(), v.weight);
            }
        }
        out
    }
}

/// The best of several queries plus `tie_breaker` times the rest: scores exactly
/// as tantivy's `DisjunctionMaxQuery`, but walks its few disjuncts side by side
/// instead of through a 4096-document union buffer, which a query of a dozen
/// words would otherwise allocate and clear a dozen times.
#[derive(Debug)]
struct DisMax {
    disjuncts: Vec<Box<dyn Query>>,
    tie_breaker: Score,
}

impl DisMax {
    fn new(disjuncts: Vec<Box<dyn Query>>, tie_breaker: Score) -> DisMax {
        DisMax {
            disjuncts,
            tie_breaker,
        }
    }
}

impl Clone for DisMax {
    fn clone(&self) -> DisMax {
        DisMax::new(
            self.disjuncts.iter().map(|q| q.box_clone()).collect(),
            self.tie_breaker,
        )
    }
}

impl Query for DisMax {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let weights = self
            .disjuncts
            .iter()
            .map(|d| d.weight(scoring))
            .collect::<tantivy::Result<_>>()?;
        Ok(Box::new(DisMaxWeight {
            weights,
            tie_breaker: self.tie_breaker,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for d in &self.disjuncts {
            d.query_terms(visitor);
        }
    }
}

struct DisMaxWeight {
    weights: Vec<Box<dyn Weight>>,
    tie_breaker: Score,
}

impl Weight for DisMaxWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut scorers = Vec::with_capacity(self.weights.len());
        for w in &self.weights {
            let s = w.scorer(reader, boost)?;
            if s.doc() != TERMINATED {
                scorers.push(s);
            }
        }
        let size_hint = estimate_union(scorers.iter().map(|s| s.size_hint()), reader.num_docs());
        let cost = scorers.iter().map(|s| s.cost()).sum();
        let doc = scorers.iter().map(|s| s.doc()).min().unwrap_or(TERMINATED);
        Ok(Box::new(DisMaxScorer {
            scorers,
            tie_breaker: self.tie_breaker,
            doc,
            size_hint,
            cost,
        }))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) != doc {
            return Err(tantivy::TantivyError::InvalidArgument(format!(
                "document #{doc} does not match"
            )));
        }
        Ok(Explanation::new("DisMax", scorer.score()))
    }
}

struct DisMaxScorer {
    /// Disjuncts still holding documents, in query order (the order scores are summed in).
    scorers: Vec<Box<dyn Scorer>>,
    tie_breaker: Score,
    doc: DocId,
    size_hint: u32,
    cost: u64,
}

impl DisMaxScorer {
    /// Move to `min`, the smallest document of the disjuncts, dropping the
    /// finished ones when there are any (`finished`).
    fn land(&mut self, min: DocId, finished: bool) -> DocId {
        if finished {
            self.scorers.retain(|s| s.doc() != TERMINATED);
        }
        self.doc = min;
        min
    }
}

impl DocSet for DisMaxScorer {
    fn advance(&mut self) -> DocId {
        let doc = self.doc;
        let (mut min, mut finished) = (TERMINATED, false);
        for s in &mut self.scorers {
            let mut d = s.doc();
            if d == doc {
                d = s.advance();
            }
            finished |= d == TERMINATED;
            min = min.min(d);
        }
        self.land(min, finished)
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        let (mut min, mut finished) = (TERMINATED, false);
        for s in &mut self.scorers {
            let mut d = s.doc();
            if d < target {
                d = s.seek(target);
            }
            finished |= d == TERMINATED;
            min = min.min(d);
        }
        self.land(min, finished)
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.size_hint
    }

    fn cost(&self) -> u64 {
        self.cost
    }
}

impl Scorer for DisMaxScorer {
    fn score(&mut self) -> Score {
        let (mut max, mut sum): (Score, Score) = (0.0, 0.0);
        let doc = self.doc;
        for s in &mut self.scorers {
            if s.doc() == doc {
                let score = s.score();
                max = Score::max(score, max);
                sum += score;
            }
        }
        max + (sum - max) * self.tie_breaker
    }
}

/// Estimated size of a union of sets of these sizes (tantivy's own estimate,
/// so query planning sees the same numbers as for its unions).
fn estimate_union(sizes: impl Iterator<Item = u32>, max_docs: u32) -> u32 {
    let mut not_in_any = 1.0f64;
    for size in sizes {
        not_in_any *= 1.0 - (f64::from(size) / f64::from(max_docs)) * 0.8;
    }
    let estimate = (f64::from(max_docs) * (1.0 - not_in_any)).round();
    estimate.min(f64::from(max_docs)) as u32
}

/// A term's weight without and with term frequencies.
type WeightPair = [Option<Arc<dyn Weight>>; 2];

/// Term weights (BM25 statistics: document frequency, average field length,
/// and the tables derived from them) of one searcher, made once per term and
/// reused by every later query: the searcher never changes, so neither do they.
#[derive(Default)]
pub struct TermWeights {
    /// Per term: its weight without and with term frequencies.
    weights: Mutex<HashMap<Term, WeightPair>>,
    /// Weight of each body phrase of two terms (slop [`PAIR_SLOP`]).
    pairs: Mutex<HashMap<(Term, Term), Arc<dyn Weight>>>,
    /// Document frequency of each term looked up so far.
    freqs: Mutex<HashMap<Term, u64>>,
}

impl std::fmt::Debug for TermWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TermWeights")
    }
}

/// A term query whose scoring weight comes from [`TermWeights`]: scores as
/// tantivy's `TermQuery`.
#[derive(Debug, Clone)]
struct CachedTerm {
    term: Term,
    option: IndexRecordOption,
    weights: Arc<TermWeights>,
}

impl Query for CachedTerm {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let plain = || TermQuery::new(self.term.clone(), self.option);
        if !scoring.is_scoring_enabled() {
            return plain().weight(scoring);
        }
        let slot = usize::from(self.option.has_freq());
        let cached = {
            let map = self
                .weights
                .weights
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            map.get(&self.term).and_then(|w| w[slot].clone())
        };
        let weight = match cached {
            Some(w) => w,
            None => {
                let w: Arc<dyn Weight> = Arc::from(plain().weight(scoring)?);
                let mut map = self
                    .weights
                    .weights
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                let entry = map.entry(self.term.clone()).or_default();
                Arc::clone(entry[slot].get_or_insert(w))
            }
        };
        Ok(Box::new(SharedWeight(weight)))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        visitor(&self.term, false);
    }
}

/// A two-term body phrase (slop [`PAIR_SLOP`]) whose scoring weight comes from
/// [`TermWeights`]: scores as tantivy's `PhraseQuery`.
#[derive(Debug, Clone)]
struct CachedPair {
    terms: (Term, Term),
    weights: Arc<TermWeights>,
}

impl Query for CachedPair {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let plain = || {
            let mut q = PhraseQuery::new(vec![self.terms.0.clone(), self.terms.1.clone()]);
            q.set_slop(PAIR_SLOP);
            q
        };
        if !scoring.is_scoring_enabled() {
            return plain().weight(scoring);
        }
        let cached = {
            let map = self.weights.pairs.lock().unwrap_or_else(|e| e.into_inner());
            map.get(&self.terms).cloned()
        };
        let weight = match cached {
            Some(w) => w,
            None => {
                let w: Arc<dyn Weight> = Arc::from(plain().weight(scoring)?);
                let mut map = self.weights.pairs.lock().unwrap_or_else(|e| e.into_inner());
                Arc::clone(map.entry(self.terms.clone()).or_insert(w))
            }
        };
        Ok(Box::new(SharedWeight(weight)))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        visitor(&self.terms.0, true);
        visitor(&self.terms.1, true);
    }
}

struct SharedWeight(Arc<dyn Weight>);

impl Weight for SharedWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        self.0.scorer(reader, boost)
    }

    fn scorer_danger(
        &self,
        reader: &SegmentReader,
        target: DocId,
        boost: Score,
    ) -> tantivy::Result<(tantivy::SeekDangerResult, Box<dyn Scorer>)> {
        self.0.scorer_danger(reader, target, boost)
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.0.explain(reader, doc)
    }

    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        self.0.count(reader)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(
            STOP_WORDS.windows(2).all(|w| w[0] < w[1]),
            "STOP_WORDS must be sorted and unique"
        );
    }

    #[test]
    fn short_stems_are_not_fuzzed() {
        assert_eq!(fuzzy_distance("die"), None);
        assert_eq!(fuzzy_distance("shield"), Some(1));
        assert_eq!(fuzzy_distance("charcter"), Some(1));
        assert_eq!(fuzzy_distance("uniqueness"), Some(2));
    }
}
