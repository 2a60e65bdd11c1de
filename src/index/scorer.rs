//! Scorers: the best-of-variants disjunction ([`DisMax`]), the coverage union
//! at the top of every query ([`Cover`]), and term and phrase queries whose
//! scoring weights are kept across queries ([`TermWeights`]).

use super::text::FastMap;
use std::sync::{Arc, Mutex};
use tantivy::query::{EnableScoring, Explanation, Query, QueryClone, Scorer, TermQuery, Weight};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, Term};

/// The best of several queries plus `tie_breaker` times the rest: scores exactly
/// as tantivy's `DisjunctionMaxQuery`, but walks its few disjuncts side by side
/// instead of through a 4096-document union buffer, which a query of a dozen
/// words would otherwise allocate and clear a dozen times.
#[derive(Debug)]
pub struct DisMax {
    disjuncts: Vec<Box<dyn Query>>,
    tie_breaker: Score,
}

impl DisMax {
    pub fn new(disjuncts: Vec<Box<dyn Query>>, tie_breaker: Score) -> DisMax {
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
        let union = Union::new(
            self.weights.iter().map(|w| (w.as_ref(), 0.0)),
            reader,
            boost,
        )?;
        Ok(Box::new(DisMaxScorer {
            union,
            tie_breaker: self.tie_breaker,
        }))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        explain(self, reader, doc, "DisMax")
    }
}

fn explain(
    w: &dyn Weight,
    reader: &SegmentReader,
    doc: DocId,
    name: &'static str,
) -> tantivy::Result<Explanation> {
    let mut scorer = w.scorer(reader, 1.0)?;
    if scorer.seek(doc) != doc {
        return Err(tantivy::TantivyError::InvalidArgument(format!(
            "document #{doc} does not match"
        )));
    }
    Ok(Explanation::new(name, scorer.score()))
}

/// Scorers walked side by side, each with a tag (its coverage weight).
struct Union {
    /// Scorers still holding documents, in query order (the order scores are summed in).
    scorers: Vec<(Box<dyn Scorer>, f32)>,
    doc: DocId,
    size_hint: u32,
    cost: u64,
}

impl Union {
    fn new<'a>(
        weights: impl Iterator<Item = (&'a dyn Weight, f32)>,
        reader: &SegmentReader,
        boost: Score,
    ) -> tantivy::Result<Union> {
        let mut scorers = Vec::new();
        for (w, tag) in weights {
            let s = w.scorer(reader, boost)?;
            if s.doc() != TERMINATED {
                scorers.push((s, tag));
            }
        }
        let size_hint = estimate_union(scorers.iter().map(|s| s.0.size_hint()), reader.num_docs());
        let cost = scorers.iter().map(|s| s.0.cost()).sum();
        let doc = scorers
            .iter()
            .map(|s| s.0.doc())
            .min()
            .unwrap_or(TERMINATED);
        Ok(Union {
            scorers,
            doc,
            size_hint,
            cost,
        })
    }

    /// Move to `min`, the smallest document of the scorers, dropping the
    /// finished ones when there are any (`finished`).
    fn land(&mut self, min: DocId, finished: bool) -> DocId {
        if finished {
            self.scorers.retain(|s| s.0.doc() != TERMINATED);
        }
        self.doc = min;
        min
    }

    /// Drop every scorer: no document is left.
    fn finish(&mut self) -> DocId {
        self.scorers.clear();
        self.doc = TERMINATED;
        TERMINATED
    }

    fn advance(&mut self) -> DocId {
        let doc = self.doc;
        let (mut min, mut finished) = (TERMINATED, false);
        for (s, _) in &mut self.scorers {
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
        for (s, _) in &mut self.scorers {
            let mut d = s.doc();
            if d < target {
                d = s.seek(target);
            }
            finished |= d == TERMINATED;
            min = min.min(d);
        }
        self.land(min, finished)
    }

    /// The scores of the scorers on the current document, with their tags.
    fn scores(&mut self) -> impl Iterator<Item = (Score, f32)> + '_ {
        let doc = self.doc;
        self.scorers
            .iter_mut()
            .filter(move |(s, _)| s.doc() == doc)
            .map(|(s, tag)| (s.score(), *tag))
    }
}

/// DocSet methods of a scorer built on a [`Union`] field `union`.
macro_rules! union_docset {
    ($t:ty) => {
        impl DocSet for $t {
            fn advance(&mut self) -> DocId {
                self.union.advance()
            }
            fn seek(&mut self, target: DocId) -> DocId {
                self.union.seek(target)
            }
            fn doc(&self) -> DocId {
                self.union.doc
            }
            fn size_hint(&self) -> u32 {
                self.union.size_hint
            }
            fn cost(&self) -> u64 {
                self.union.cost
            }
        }
    };
}

struct DisMaxScorer {
    union: Union,
    tie_breaker: Score,
}

union_docset!(DisMaxScorer);

impl Scorer for DisMaxScorer {
    fn score(&mut self) -> Score {
        let (mut max, mut sum): (Score, Score) = (0.0, 0.0);
        for (score, _) in self.union.scores() {
            max = Score::max(score, max);
            sum += score;
        }
        max + (sum - max) * self.tie_breaker
    }
}

/// The top of every query: the sum of the word groups' scores (and of the
/// bonus clauses: pairs of neighbouring words), times the share of the query's
/// weight the document covers raised to `gamma`, times the document's prior
/// (stubs and superseded text rank lower) and its game's factor.
#[derive(Debug)]
pub struct Cover {
    /// One clause per word group, with the group's weight.
    pub groups: Vec<(Box<dyn Query>, f32)>,
    /// Clauses that add to the score but cover no word.
    pub bonus: Vec<Box<dyn Query>>,
    /// Total weight of the query's groups, searchable or not.
    pub total: f32,
    /// Exponent of the covered share.
    pub gamma: f32,
    /// Score factor per game (by the `game_ord` fast field).
    pub game_factor: [f32; 3],
    /// Prior and game of every document, per segment.
    pub priors: Arc<Priors>,
}

/// Per segment: each document's prior and game (position in `Game::ALL`),
/// read once from the `prior` and `game_ord` fast fields.
#[derive(Debug, Default)]
pub struct Priors {
    segments: Vec<SegmentPriors>,
}

/// Priors and games of one segment's documents.
#[derive(Debug)]
struct SegmentPriors {
    id: tantivy::index::SegmentId,
    priors: Vec<f32>,
    games: Vec<u8>,
    /// Runs of documents of one game, as (first document, game), in order:
    /// documents are indexed game by game, so there are few.
    runs: Vec<(DocId, u8)>,
}

impl SegmentPriors {
    /// The first document after `doc` of a game whose factor is not 0.
    fn next_in_games(&self, doc: DocId, factor: &[f32; 3]) -> DocId {
        let from = self.runs.partition_point(|r| r.0 <= doc);
        self.runs[from..]
            .iter()
            .find(|r| factor[usize::from(r.1)] != 0.0)
            .map_or(TERMINATED, |r| r.0)
    }
}

impl Priors {
    pub fn read(searcher: &tantivy::Searcher) -> tantivy::Result<Priors> {
        let mut segments = Vec::new();
        for seg in searcher.segment_readers() {
            segments.extend(Priors::read_segment(seg)?.segments);
        }
        Ok(Priors { segments })
    }

    fn read_segment(seg: &SegmentReader) -> tantivy::Result<Priors> {
        let mut segments = Vec::new();
        {
            let ff = seg.fast_fields();
            let (prior, game) = (ff.u64("prior")?, ff.u64("game_ord")?);
            let n = seg.max_doc();
            let priors = all_values(&prior, n, 1000)
                .into_iter()
                .map(|p| p as f32 / 1000.0)
                .collect();
            let games = all_values(&game, n, 0)
                .into_iter()
                .map(|g| g.min(2) as u8)
                .collect();
            let games: Vec<u8> = games;
            let mut runs: Vec<(DocId, u8)> = Vec::new();
            for (d, &g) in games.iter().enumerate() {
                if runs.last().is_none_or(|r| r.1 != g) {
                    runs.push((d as DocId, g));
                }
            }
            segments.push(SegmentPriors {
                id: seg.segment_id(),
                priors,
                games,
                runs,
            });
        }
        Ok(Priors { segments })
    }

    /// Documents per game among the first `n` documents of the first segment.
    pub fn game_totals(&self, n: u32) -> Option<[u32; 3]> {
        let games = &self.segments.first()?.games;
        let mut totals = [0u32; 3];
        for &g in &games[..(n as usize).min(games.len())] {
            totals[usize::from(g)] += 1;
        }
        Some(totals)
    }

    /// Position of the segment `id`.
    fn segment(&self, id: tantivy::index::SegmentId) -> Option<usize> {
        self.segments.iter().position(|s| s.id == id)
    }
}

impl Clone for Cover {
    fn clone(&self) -> Cover {
        Cover {
            groups: self
                .groups
                .iter()
                .map(|(q, w)| (q.box_clone(), *w))
                .collect(),
            bonus: self.bonus.iter().map(|q| q.box_clone()).collect(),
            total: self.total,
            gamma: self.gamma,
            game_factor: self.game_factor,
            priors: Arc::clone(&self.priors),
        }
    }
}

impl Query for Cover {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let mut clauses = Vec::with_capacity(self.groups.len() + self.bonus.len());
        for (q, w) in &self.groups {
            clauses.push((q.weight(scoring)?, *w));
        }
        for q in &self.bonus {
            clauses.push((q.weight(scoring)?, 0.0));
        }
        Ok(Box::new(CoverWeight {
            clauses,
            total: self.total.max(f32::EPSILON),
            gamma: self.gamma,
            game_factor: self.game_factor,
            priors: Arc::clone(&self.priors),
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for (q, _) in &self.groups {
            q.query_terms(visitor);
        }
        for q in &self.bonus {
            q.query_terms(visitor);
        }
    }
}

struct CoverWeight {
    clauses: Vec<(Box<dyn Weight>, f32)>,
    total: f32,
    gamma: f32,
    game_factor: [f32; 3],
    priors: Arc<Priors>,
}

impl Weight for CoverWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let union = Union::new(
            self.clauses.iter().map(|(w, tag)| (w.as_ref(), *tag)),
            reader,
            boost,
        )?;
        let (priors, seg) = match self.priors.segment(reader.segment_id()) {
            Some(i) => (Arc::clone(&self.priors), i),
            None => (Arc::new(Priors::read_segment(reader)?), 0),
        };
        let mut scorer = CoverScorer {
            union,
            total: self.total,
            gamma: self.gamma,
            game_factor: self.game_factor,
            priors,
            seg,
        };
        let first = scorer.union.doc;
        scorer.skip_other_games(first);
        Ok(Box::new(scorer))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        explain(self, reader, doc, "Cover")
    }
}

struct CoverScorer {
    union: Union,
    total: f32,
    gamma: f32,
    game_factor: [f32; 3],
    priors: Arc<Priors>,
    /// This segment's position in `priors`.
    seg: usize,
}

impl CoverScorer {
    /// `doc`, or when its game's factor is 0 (a game not asked for), the
    /// first document of a game asked for: the others would score 0, so they
    /// are skipped whole, never scored.
    fn skip_other_games(&mut self, mut doc: DocId) -> DocId {
        let seg = &self.priors.segments[self.seg];
        while doc != TERMINATED {
            let game = seg.games.get(doc as usize).copied().unwrap_or(0);
            if self.game_factor[usize::from(game)] != 0.0 {
                break;
            }
            doc = match seg.next_in_games(doc, &self.game_factor) {
                TERMINATED => self.union.finish(),
                next => self.union.seek(next),
            };
        }
        doc
    }
}

impl DocSet for CoverScorer {
    fn advance(&mut self) -> DocId {
        let doc = self.union.advance();
        self.skip_other_games(doc)
    }
    fn seek(&mut self, target: DocId) -> DocId {
        let doc = self.union.seek(target);
        self.skip_other_games(doc)
    }
    fn doc(&self) -> DocId {
        self.union.doc
    }
    fn size_hint(&self) -> u32 {
        self.union.size_hint
    }
    fn cost(&self) -> u64 {
        self.union.cost
    }
}

impl Scorer for CoverScorer {
    fn score(&mut self) -> Score {
        let (mut sum, mut covered) = (0.0, 0.0);
        for (score, weight) in self.union.scores() {
            sum += score;
            covered += weight;
        }
        let share = (covered / self.total).min(1.0);
        let scaled = if self.gamma == 2.0 {
            share * share
        } else {
            share.powf(self.gamma)
        };
        let doc = self.union.doc as usize;
        let SegmentPriors { priors, games, .. } = &self.priors.segments[self.seg];
        let prior = priors.get(doc).copied().unwrap_or(1.0);
        let game = games
            .get(doc)
            .map_or(1.0, |&g| self.game_factor[usize::from(g)]);
        sum * scaled * prior * game
    }
}

/// The value of every one of the `n` documents in `col` (`missing` for those
/// without one): one bulk read when every document has a value.
fn all_values(col: &tantivy::columnar::Column<u64>, n: u32, missing: u64) -> Vec<u64> {
    if col.get_cardinality() == tantivy::columnar::Cardinality::Full && col.values.num_vals() == n {
        let mut out = vec![0; n as usize];
        col.values.get_range(0, &mut out);
        return out;
    }
    (0..n).map(|d| col.first(d).unwrap_or(missing)).collect()
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
    weights: Mutex<FastMap<Term, WeightPair>>,
    /// Document frequency of each term looked up so far.
    pub freqs: Mutex<FastMap<Term, u64>>,
    /// Close indexed words of each unknown stem looked up so far.
    pub close: Mutex<FastMap<String, Vec<String>>>,
    /// Rulebook sections per game holding each body stem, counted so far.
    pub games: Mutex<FastMap<String, [u32; 3]>>,
}

impl std::fmt::Debug for TermWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TermWeights")
    }
}

/// A term query whose scoring weight comes from [`TermWeights`]: scores as
/// tantivy's `TermQuery`.
#[derive(Debug, Clone)]
pub struct CachedTerm {
    pub term: Term,
    pub option: IndexRecordOption,
    pub weights: Arc<TermWeights>,
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
