//! Scorers: the best-of-variants disjunction ([`DisMax`]), the coverage union
//! at the top of every query ([`Cover`]), and term and phrase queries whose
//! scoring weights are kept across queries ([`TermWeights`]).

use super::text::FastMap;
use std::sync::{Arc, Mutex, OnceLock};
use tantivy::fieldnorm::FieldNormReader;
use tantivy::index::SegmentId;
use tantivy::postings::Postings;
use tantivy::query::{
    Bm25Weight, EnableScoring, Explanation, PhraseQuery, Query, QueryClone, Scorer, TermQuery,
    Weight,
};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, Term};

/// The best of several queries plus `tie_breaker` times the rest: scores exactly
/// as tantivy's `DisjunctionMaxQuery`, but walks its few disjuncts side by side
/// instead of through a 4096-document union buffer, which a query of a dozen
/// words would otherwise allocate and clear a dozen times.
#[derive(Debug, Clone)]
pub struct DisMax {
    disjuncts: Vec<Leaf>,
    tie_breaker: Score,
}

impl DisMax {
    pub fn new(disjuncts: Vec<Leaf>, tie_breaker: Score) -> DisMax {
        DisMax {
            disjuncts,
            tie_breaker,
        }
    }

    fn dismax_weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<DisMaxWeight> {
        let weights = self
            .disjuncts
            .iter()
            .map(|d| d.leaf_weight(scoring))
            .collect::<tantivy::Result<_>>()?;
        Ok(DisMaxWeight {
            weights,
            tie_breaker: self.tie_breaker,
        })
    }
}

impl Query for DisMax {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.dismax_weight(scoring)?))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for d in &self.disjuncts {
            match d {
                Leaf::Term(t) => t.query_terms(visitor),
                Leaf::Phrase(p) => p.query_terms(visitor),
            }
        }
    }
}

/// A disjunct of a [`DisMax`]: a term or a phrase, each with its boost.
#[derive(Debug, Clone)]
pub enum Leaf {
    Term(CachedTerm),
    Phrase(CachedPhrase),
}

impl Leaf {
    fn leaf_weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<LeafWeight> {
        match self {
            Leaf::Term(t) => t.leaf_weight(scoring),
            Leaf::Phrase(p) => p.leaf_weight(scoring),
        }
    }
}

/// The weight of a [`Leaf`]: its decoded postings, or (on its first use, or
/// without scores) tantivy's own weight, boosted as tantivy's `BoostQuery`
/// boosts it.
enum LeafWeight {
    Array(ArrayTermWeight),
    Stored(Box<dyn Weight>),
}

impl LeafWeight {
    /// Tantivy's own weight of `query`, boosted by `boost` as tantivy's
    /// `BoostQuery` boosts it (with scores, an outer boost times this one).
    fn stored(
        query: &dyn Query,
        boost: Score,
        scoring: EnableScoring<'_>,
    ) -> tantivy::Result<LeafWeight> {
        let weight = query.weight(scoring)?;
        if boost == 1.0 || !scoring.is_scoring_enabled() {
            return Ok(LeafWeight::Stored(weight));
        }
        Ok(LeafWeight::Stored(Box::new(
            tantivy::query::BoostWeight::new(weight, boost),
        )))
    }

    /// The searcher and statistics `scoring` scores with; `None` without scores.
    fn statistics<'a>(
        scoring: EnableScoring<'a>,
    ) -> Option<(
        &'a tantivy::Searcher,
        &'a dyn tantivy::query::Bm25StatisticsProvider,
    )> {
        match scoring {
            EnableScoring::Enabled {
                searcher,
                statistics_provider,
            } => Some((searcher, statistics_provider)),
            _ => None,
        }
    }

    /// A warm leaf's weight (`warm`: its BM25 weight and decoded postings),
    /// boosted by `boost`; else, on its first use, what `stored` gives.
    fn warm_or(
        warm: Option<(TermBm25, SegmentPostings)>,
        boost: Score,
        stored: impl FnOnce() -> tantivy::Result<LeafWeight>,
    ) -> tantivy::Result<LeafWeight> {
        match warm {
            Some((bm25, postings)) => Ok(LeafWeight::Array(ArrayTermWeight {
                bm25,
                boost,
                postings,
            })),
            None => stored(),
        }
    }

    fn boxed(self) -> Box<dyn Weight> {
        match self {
            LeafWeight::Array(a) => Box::new(a),
            LeafWeight::Stored(w) => w,
        }
    }
}

impl Weight for LeafWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        match self {
            LeafWeight::Array(a) => a.scorer(reader, boost),
            LeafWeight::Stored(w) => w.scorer(reader, boost),
        }
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        match self {
            LeafWeight::Array(a) => a.explain(reader, doc),
            LeafWeight::Stored(w) => w.explain(reader, doc),
        }
    }
}

struct DisMaxWeight {
    weights: Vec<LeafWeight>,
    tie_breaker: Score,
}

impl Weight for DisMaxWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let union = Union::new(
            self.weights.iter().map(|w| (w as &dyn Weight, 0.0)),
            reader,
            boost,
        )?;
        // Terms alone (no phrase): walked side by side without a virtual call.
        if union.clauses.iter().all(|c| c.scorer.is::<ArrayTerm>()) {
            return Ok(Box::new(DisMaxScorer {
                union: union.map(|s| s.downcast::<ArrayTerm>().ok().map(|t| *t)),
                tie_breaker: self.tie_breaker,
            }));
        }
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

/// One scorer of a [`Union`], with its tag (its coverage weight).
struct Clause<S = Box<dyn Scorer>> {
    scorer: S,
    tag: f32,
}

/// Scorers walked side by side.
struct Union<S = Box<dyn Scorer>> {
    /// Scorers still holding documents, in query order (the order scores are summed in).
    clauses: Vec<Clause<S>>,
    doc: DocId,
    size_hint: u32,
    cost: u64,
}

impl Union {
    /// The scorers of `weights`, each given with its tag.
    fn new<'a>(
        weights: impl Iterator<Item = (&'a dyn Weight, f32)>,
        reader: &SegmentReader,
        boost: Score,
    ) -> tantivy::Result<Union> {
        let mut clauses = Vec::new();
        for (w, tag) in weights {
            let scorer = w.scorer(reader, boost)?;
            if scorer.doc() != TERMINATED {
                clauses.push(Clause { scorer, tag });
            }
        }
        let size_hint = estimate_union(
            clauses.iter().map(|c| c.scorer.size_hint()),
            reader.num_docs(),
        );
        let cost = clauses.iter().map(|c| c.scorer.cost()).sum();
        let doc = clauses
            .iter()
            .map(|c| c.scorer.doc())
            .min()
            .unwrap_or(TERMINATED);
        Ok(Union {
            clauses,
            doc,
            size_hint,
            cost,
        })
    }

    /// The same union over `convert`ed scorers; `None` from `convert` is a
    /// scorer dropped.
    fn map<T>(self, convert: impl Fn(Box<dyn Scorer>) -> Option<T>) -> Union<T> {
        Union {
            clauses: self
                .clauses
                .into_iter()
                .filter_map(|c| {
                    Some(Clause {
                        scorer: convert(c.scorer)?,
                        tag: c.tag,
                    })
                })
                .collect(),
            doc: self.doc,
            size_hint: self.size_hint,
            cost: self.cost,
        }
    }
}

impl<S: Scorer> Union<S> {
    /// Move to `min`, the smallest document of the scorers, dropping the
    /// finished ones when there are any (`finished`).
    fn land(&mut self, min: DocId, finished: bool) -> DocId {
        if finished {
            self.clauses.retain(|c| c.scorer.doc() != TERMINATED);
        }
        self.doc = min;
        min
    }

    /// Drop every scorer: no document is left.
    fn finish(&mut self) -> DocId {
        self.clauses.clear();
        self.doc = TERMINATED;
        TERMINATED
    }

    fn advance(&mut self) -> DocId {
        let doc = self.doc;
        let (mut min, mut finished) = (TERMINATED, false);
        for c in &mut self.clauses {
            let mut d = c.scorer.doc();
            if d == doc {
                d = c.scorer.advance();
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
        for c in &mut self.clauses {
            let mut d = c.scorer.doc();
            if d < target {
                d = c.scorer.seek(target);
            }
            finished |= d == TERMINATED;
            min = min.min(d);
        }
        self.land(min, finished)
    }

    /// The scores of the scorers on the current document, with their tags.
    fn scores(&mut self) -> impl Iterator<Item = (Score, f32)> + '_ {
        let doc = self.doc;
        self.clauses
            .iter_mut()
            .filter(move |c| c.scorer.doc() == doc)
            .map(|c| (c.scorer.score(), c.tag))
    }
}

struct DisMaxScorer<S = Box<dyn Scorer>> {
    union: Union<S>,
    tie_breaker: Score,
}

impl<S: Scorer> DocSet for DisMaxScorer<S> {
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

impl<S: Scorer> Scorer for DisMaxScorer<S> {
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
///
/// The best documents are found clause at a time
/// ([`CoverWeight::sum_by_clause`]): each term's postings are read straight
/// through and its scores summed per document, with no union of every
/// clause's postings walked document by document; the scorers below
/// ([`CoverScorer`]) score one document at a time, the same to the bit.
#[derive(Debug)]
pub struct Cover {
    /// One clause per word group, with the group's weight.
    pub groups: Vec<(DisMax, f32)>,
    /// Clauses that add to the score but cover no word.
    pub bonus: Vec<DisMax>,
    /// Documents must also match this (a kind), which adds nothing to the score.
    pub filter: Option<Box<dyn Query>>,
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
    /// The entries of `p`, postings of this segment, that are documents of a
    /// game whose factor is not 0: a range of entries per run of such a game.
    /// Where each run begins among the entries is found once per posting list.
    fn counted_in<'a>(
        &'a self,
        p: &'a TermPostings,
        factor: &'a [f32; 3],
    ) -> impl Iterator<Item = std::ops::Range<usize>> + 'a {
        let starts = p.run_starts.get_or_init(|| {
            let docs = &p.docs[..p.docs.len() - 1];
            let starts = self.runs.iter().map(|r| docs.partition_point(|&d| d < r.0));
            starts.chain([docs.len()]).collect()
        });
        self.runs
            .iter()
            .enumerate()
            .filter(|(_, r)| factor[usize::from(r.1)] != 0.0)
            .map(move |(i, _)| starts[i]..starts[i + 1])
    }

    /// `doc` when its game's factor is not 0, else the first document after it
    /// of a game whose factor is not 0.
    fn counted_from(&self, doc: DocId, factor: &[f32; 3]) -> DocId {
        let game = self.games.get(doc as usize).copied().unwrap_or(0);
        if factor[usize::from(game)] != 0.0 {
            doc
        } else {
            self.next_in_games(doc, factor)
        }
    }

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
        let ff = seg.fast_fields();
        let (prior, game) = (ff.u64("prior")?, ff.u64("game_ord")?);
        let n = seg.max_doc();
        let priors: Vec<f32> = all_values(&prior, n, 1000)
            .into_iter()
            .map(|p| p as f32 / 1000.0)
            .collect();
        let games: Vec<u8> = all_values(&game, n, 0)
            .into_iter()
            .map(|g| g.min(2) as u8)
            .collect();
        let mut runs: Vec<(DocId, u8)> = Vec::new();
        for (d, &g) in games.iter().enumerate() {
            if runs.last().is_none_or(|r| r.1 != g) {
                runs.push((d as DocId, g));
            }
        }
        Ok(Priors {
            segments: vec![SegmentPriors {
                id: seg.segment_id(),
                priors,
                games,
                runs,
            }],
        })
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
            groups: self.groups.clone(),
            bonus: self.bonus.clone(),
            filter: self.filter.as_ref().map(|q| q.box_clone()),
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
            clauses.push((q.dismax_weight(scoring)?, *w));
        }
        for q in &self.bonus {
            clauses.push((q.dismax_weight(scoring)?, 0.0));
        }
        let filter = match &self.filter {
            Some(q) => Some(q.weight(scoring)?),
            None => None,
        };
        Ok(Box::new(CoverWeight {
            clauses,
            filter,
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
        if let Some(q) = &self.filter {
            q.query_terms(visitor);
        }
    }
}

struct CoverWeight {
    /// Per clause: its weight and its tag (coverage weight).
    clauses: Vec<(DisMaxWeight, f32)>,
    filter: Option<Box<dyn Weight>>,
    total: f32,
    gamma: f32,
    game_factor: [f32; 3],
    priors: Arc<Priors>,
}

impl CoverWeight {
    fn cover_scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<CoverScorer> {
        let union = Union::new(
            self.clauses.iter().map(|(w, tag)| (w as &dyn Weight, *tag)),
            reader,
            boost,
        )?;
        let filter = match &self.filter {
            Some(w) => Some(w.scorer(reader, boost)?),
            None => None,
        };
        let (priors, seg) = self.segment_priors(reader)?;
        let mut scorer = CoverScorer {
            union,
            filter,
            scale: self.scale(),
            priors,
            seg,
        };
        let first = scorer.union.doc;
        scorer.align(first);
        Ok(scorer)
    }

    /// The priors of `reader`'s segment, and its position among them.
    fn segment_priors(&self, reader: &SegmentReader) -> tantivy::Result<(Arc<Priors>, usize)> {
        Ok(match self.priors.segment(reader.segment_id()) {
            Some(i) => (Arc::clone(&self.priors), i),
            None => (Arc::new(Priors::read_segment(reader)?), 0),
        })
    }

    fn scale(&self) -> Scale {
        Scale {
            total: self.total,
            gamma: self.gamma,
            game_factor: self.game_factor,
        }
    }
}

/// How a document's summed clause scores become its score: times the share of
/// the query's weight it covers raised to `gamma`, its prior and its game's
/// factor.
#[derive(Clone, Copy)]
struct Scale {
    total: f32,
    gamma: f32,
    game_factor: [f32; 3],
}

impl Scale {
    /// The covered share of the query's weight raised to `gamma`, for the
    /// clauses of tags summing to `covered`.
    fn scaled(&self, covered: f32) -> f32 {
        let share = (covered / self.total).min(1.0);
        if self.gamma == 2.0 {
            share * share
        } else {
            share.powf(self.gamma)
        }
    }

    /// The score of `doc` of `seg` from the sum of its clauses' scores and of
    /// their tags.
    fn score(&self, seg: &SegmentPriors, doc: DocId, sum: Score, covered: f32) -> Score {
        let prior = seg.priors.get(doc as usize).copied().unwrap_or(1.0);
        let game = seg
            .games
            .get(doc as usize)
            .map_or(1.0, |&g| self.game_factor[usize::from(g)]);
        sum * self.scaled(covered) * prior * game
    }
}

impl Weight for CoverWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(Box::new(self.cover_scorer(reader, boost)?))
    }

    fn for_each_pruning(
        &self,
        threshold: Score,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(DocId, Score) -> Score,
    ) -> tantivy::Result<()> {
        self.sum_by_clause(threshold, reader, callback)
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        explain(self, reader, doc, "Cover")
    }
}

/// Per-document sums of [`CoverWeight::sum_by_clause`], one set per thread,
/// kept between searches: every entry is zero again once a pass ends (and is
/// set to zero at the start of the next one, should a pass stop half-way).
#[derive(Default)]
struct Sums {
    /// Per document, the clause's sums and the query's side by side.
    docs: Vec<DocSum>,
    /// The documents the clause holds, in the order first met.
    clause_docs: Vec<DocId>,
    /// The documents any clause holds, a bit each (bit `d % 64` of word `d / 64`).
    in_query: Vec<u64>,
}

/// One document's sums: of the clause being summed, its disjuncts' best
/// score, all of them summed, and whether it holds the document; of the
/// query, its clauses' scores summed and their tags.
#[derive(Clone, Copy, Default)]
struct DocSum {
    best: Score,
    all: Score,
    held: bool,
    sum: Score,
    covered: f32,
}

impl DocSum {
    /// The clause's sums back to zero.
    fn end_clause(&mut self) {
        (self.best, self.all, self.held) = (0.0, 0.0, false);
    }
}

thread_local! {
    static SUMS: std::cell::RefCell<Sums> = std::cell::RefCell::new(Sums::default());
}

impl Sums {
    /// Room for `n` documents, every sum zero.
    fn ready(&mut self, n: usize) {
        self.end_clause_unscored();
        self.end_query();
        if self.docs.len() < n {
            self.docs.resize(n, DocSum::default());
            self.in_query.resize(n.div_ceil(64), 0);
        }
    }

    /// The documents any clause holds, in order.
    fn held(&self) -> impl Iterator<Item = DocId> + '_ {
        self.in_query
            .iter()
            .enumerate()
            .flat_map(|(w, &bits)| members(bits).map(move |b| (w * 64 + b) as DocId))
    }

    /// A disjunct of the current clause scores `score` on `doc`.
    fn add(&mut self, doc: DocId, score: Score) {
        let d = &mut self.docs[doc as usize];
        if !d.held {
            d.held = true;
            self.clause_docs.push(doc);
        }
        d.best = Score::max(score, d.best);
        d.all += score;
    }

    /// The current clause is summed: on each document it holds, its score is
    /// its best disjunct's plus `tie_breaker` times the rest (as
    /// [`DisMaxScorer`] scores), added to the document's score with the
    /// clause's `tag`.
    fn end_clause(&mut self, tie_breaker: Score, tag: f32) {
        for &doc in &self.clause_docs {
            let i = doc as usize;
            self.in_query[i / 64] |= 1 << (i % 64);
            let d = &mut self.docs[i];
            let (best, all) = (d.best, d.all);
            d.end_clause();
            d.sum += best + (all - best) * tie_breaker;
            d.covered += tag;
        }
        self.clause_docs.clear();
    }

    /// A clause of one disjunct scores `score` on `doc`: that is the clause's
    /// score (its best, with no rest: [`Sums::end_clause`] gives the same
    /// bits), added to the document's at once with the clause's `tag`.
    fn add_alone(&mut self, doc: DocId, score: Score, tag: f32) {
        let i = doc as usize;
        self.in_query[i / 64] |= 1 << (i % 64);
        let d = &mut self.docs[i];
        d.sum += score;
        d.covered += tag;
    }

    fn end_clause_unscored(&mut self) {
        for &doc in &self.clause_docs {
            self.docs[doc as usize].end_clause();
        }
        self.clause_docs.clear();
    }

    fn end_query(&mut self) {
        for w in 0..self.in_query.len() {
            for b in members(self.in_query[w]) {
                let d = &mut self.docs[w * 64 + b];
                (d.sum, d.covered) = (0.0, 0.0);
            }
            self.in_query[w] = 0;
        }
    }
}

/// The first document of `s` from `doc` on: its current one when that is not
/// before `doc`, else where seeking `doc` lands.
fn seek_from(s: &mut dyn Scorer, doc: DocId) -> DocId {
    match s.doc() {
        at if at < doc => s.seek(doc),
        at => at,
    }
}

/// Every document of a game that counts in decoded postings `p`, handed to
/// `each` with its score: `weight` times its frequency factor.
fn for_postings(
    p: &TermPostings,
    weight: Score,
    seg: &SegmentPriors,
    factor: &[f32; 3],
    mut each: impl FnMut(DocId, Score),
) {
    for run in seg.counted_in(p, factor) {
        for (&doc, &tf) in p.docs[run.clone()].iter().zip(&p.tf[run]) {
            each(doc, weight * tf);
        }
    }
}

/// Every document of a game that counts that `scorer` holds, from its current
/// one on, added to `sums` with its score.
fn add_scorer(sums: &mut Sums, scorer: &mut dyn Scorer, seg: &SegmentPriors, factor: &[f32; 3]) {
    let mut doc = scorer.doc();
    while doc != TERMINATED {
        let counted = seg.counted_from(doc, factor);
        if counted != doc {
            if counted == TERMINATED {
                break;
            }
            doc = scorer.seek(counted);
            continue;
        }
        sums.add(doc, scorer.score());
        doc = scorer.advance();
    }
}

impl CoverWeight {
    /// Hand `callback` every document scoring above `threshold` (which the
    /// callback raises as it goes), in document order, term at a time: each
    /// clause's disjuncts are walked one after another, their scores summed
    /// per document, then the clause's score added to each document's, in
    /// query order, so every score is the one [`Scorer::score`] gives, to the
    /// bit. Only documents of a game that counts are summed; the filter is
    /// looked up on the documents found.
    fn sum_by_clause(
        &self,
        mut threshold: Score,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(DocId, Score) -> Score,
    ) -> tantivy::Result<()> {
        let (priors, seg) = self.segment_priors(reader)?;
        let seg = &priors.segments[seg];
        let factor = &self.game_factor;
        SUMS.with(|cell| {
            let mut sums = cell.borrow_mut();
            sums.ready(reader.max_doc() as usize);
            for (w, tag) in &self.clauses {
                if let [LeafWeight::Array(a)] = w.weights.as_slice() {
                    let weight = a.weight(1.0);
                    let alone = |doc, score| sums.add_alone(doc, score, *tag);
                    for_postings(a.postings(reader)?, weight, seg, factor, alone);
                    continue;
                }
                for leaf in &w.weights {
                    match leaf {
                        LeafWeight::Array(a) => {
                            let weight = a.weight(1.0);
                            let add = |doc, score| sums.add(doc, score);
                            for_postings(a.postings(reader)?, weight, seg, factor, add);
                        }
                        LeafWeight::Stored(s) => {
                            let mut scorer = s.scorer(reader, 1.0)?;
                            add_scorer(&mut sums, scorer.as_mut(), seg, factor);
                        }
                    }
                }
                sums.end_clause(w.tie_breaker, *tag);
            }
            let mut filter = match &self.filter {
                Some(w) => Some(w.scorer(reader, 1.0)?),
                None => None,
            };
            let scale = self.scale();
            for doc in sums.held() {
                if let Some(f) = &mut filter
                    && seek_from(f.as_mut(), doc) != doc
                {
                    continue;
                }
                let DocSum { sum, covered, .. } = sums.docs[doc as usize];
                let score = scale.score(seg, doc, sum, covered);
                if score > threshold {
                    threshold = callback(doc, score);
                }
            }
            sums.end_query();
            Ok(())
        })
    }
}

struct CoverScorer {
    union: Union,
    filter: Option<Box<dyn Scorer>>,
    scale: Scale,
    priors: Arc<Priors>,
    /// This segment's position in `priors`.
    seg: usize,
}

impl CoverScorer {
    /// The first document from `doc` on that may be scored: of a game asked for
    /// (the others would score 0, so they are skipped whole) and matching the
    /// filter.
    fn allowed(&mut self, mut doc: DocId) -> DocId {
        let seg = &self.priors.segments[self.seg];
        while doc != TERMINATED {
            let counted = seg.counted_from(doc, &self.scale.game_factor);
            if counted != doc {
                doc = counted;
                continue;
            }
            let Some(f) = &mut self.filter else {
                break;
            };
            let at = seek_from(f.as_mut(), doc);
            if at == doc {
                break;
            }
            doc = at;
        }
        doc
    }

    /// Move the union to the first document from `doc` on that may be scored.
    fn align(&mut self, mut doc: DocId) -> DocId {
        loop {
            match self.allowed(doc) {
                TERMINATED => return self.union.finish(),
                next if next == doc => return doc,
                next => doc = self.union.seek(next),
            }
        }
    }

    /// The score of `doc` from the sum of its clauses' scores and of their tags.
    fn finish(&self, doc: DocId, sum: Score, covered: f32) -> Score {
        self.scale
            .score(&self.priors.segments[self.seg], doc, sum, covered)
    }
}

/// The members of the set `bits` (bit `i` for member `i`), in order.
fn members(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            i
        })
    })
}

impl DocSet for CoverScorer {
    fn advance(&mut self) -> DocId {
        let doc = self.union.advance();
        self.align(doc)
    }
    fn seek(&mut self, target: DocId) -> DocId {
        let doc = self.union.seek(target);
        self.align(doc)
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
        self.finish(self.union.doc, sum, covered)
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

/// Per-searcher caches kept across queries: the searcher never changes, so
/// neither do a term's statistics, its BM25 weight or its postings.
#[derive(Default)]
pub struct TermWeights {
    /// What is kept of each term used so far.
    terms: Mutex<FastMap<Term, Kept>>,
    /// What is kept of each phrase scored so far (its positions never are).
    phrases: Mutex<FastMap<Vec<Term>, Kept>>,
    /// Document frequency of each term looked up so far.
    pub freqs: Mutex<FastMap<Term, u64>>,
    /// Close indexed words of each unknown stem looked up so far.
    pub close: Mutex<FastMap<String, Vec<String>>>,
    /// Rulebook sections per game holding each body stem, counted so far.
    pub games: Mutex<FastMap<String, [u32; 3]>>,
}

/// What is kept of one term: its uses so far, its BM25 weight, and per segment
/// its decoded postings and positions.
#[derive(Default)]
struct Kept {
    /// Bit `Use as u8` set once the term was used for it.
    used: u8,
    bm25: Option<TermBm25>,
    /// Per segment (shared with the weights that read them).
    postings: SegmentPostings,
    positions: Vec<(SegmentId, Option<Arc<TermPositions>>)>,
}

impl std::fmt::Debug for TermWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TermWeights")
    }
}

/// `m` locked, even when a thread panicked holding it (the caches stay valid).
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// [`TermWeights::second_use`] of `key` in `map` (of terms or of phrases).
fn second_use_in<K, Q>(map: &Mutex<FastMap<K, Kept>>, what: Use, key: &Q) -> bool
where
    K: std::borrow::Borrow<Q> + std::hash::Hash + Eq,
    Q: std::hash::Hash + Eq + ToOwned<Owned = K> + ?Sized,
{
    let mut map = lock(map);
    let bit = what as u8;
    match map.get_mut(key) {
        Some(k) => {
            let before = k.used;
            k.used |= bit;
            before & bit != 0
        }
        None => {
            let k = Kept {
                used: bit,
                ..Kept::default()
            };
            map.insert(key.to_owned(), k);
            false
        }
    }
}

/// Decoded postings per segment.
type SegmentPostings = Arc<[(SegmentId, Arc<TermPostings>)]>;

/// On the second use or a later one of `key` (a term or a phrase) in `map`
/// for scoring: its BM25 weight, worked out by `weigh`, and its postings in
/// every segment of `searcher`, decoded by `decode`, each the first time and
/// kept. `None` on its first use (now counted). Once all is kept, this is one
/// lookup.
fn scored_in<K, Q>(
    map: &Mutex<FastMap<K, Kept>>,
    key: &Q,
    searcher: &tantivy::Searcher,
    weigh: impl FnOnce() -> tantivy::Result<TermBm25>,
    mut decode: impl FnMut(&SegmentReader, &TermBm25) -> tantivy::Result<TermPostings>,
) -> tantivy::Result<Option<(TermBm25, SegmentPostings)>>
where
    K: std::borrow::Borrow<Q> + std::hash::Hash + Eq,
    Q: std::hash::Hash + Eq + ToOwned<Owned = K> + ?Sized,
{
    let segments = searcher.segment_readers();
    let bm25 = {
        let mut held = lock(map);
        let bit = Use::Scored as u8;
        let Some(k) = held.get_mut(key) else {
            let k = Kept {
                used: bit,
                ..Kept::default()
            };
            held.insert(key.to_owned(), k);
            return Ok(None);
        };
        let before = k.used;
        k.used |= bit;
        if before & bit == 0 {
            return Ok(None);
        }
        let every = |k: &Kept| {
            segments
                .iter()
                .all(|seg| k.postings.iter().any(|p| p.0 == seg.segment_id()))
        };
        match &k.bm25 {
            Some(b) if every(k) => return Ok(Some((b.clone(), Arc::clone(&k.postings)))),
            Some(b) => b.clone(),
            None => {
                drop(held);
                let b = weigh()?;
                lock(map).entry(key.to_owned()).or_default().bm25 = Some(b.clone());
                b
            }
        }
    };
    let mut postings = Vec::with_capacity(segments.len());
    for seg in segments {
        let id = seg.segment_id();
        let kept = lock(map).get(key).and_then(|k| {
            k.postings
                .iter()
                .find(|p| p.0 == id)
                .map(|p| Arc::clone(&p.1))
        });
        let p = match kept {
            Some(p) => p,
            None => {
                let p = Arc::new(decode(seg, &bm25)?);
                let mut held = lock(map);
                let k = held.entry(key.to_owned()).or_default();
                if !k.postings.iter().any(|q| q.0 == id) {
                    let with = k.postings.iter().cloned().chain([(id, Arc::clone(&p))]);
                    k.postings = with.collect();
                }
                p
            }
        };
        postings.push((id, p));
    }
    Ok(Some((bm25, postings.into())))
}

/// What a term is used for, as [`TermWeights::second_use`] counts it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Use {
    Scored = 1,
    Located = 2,
}

impl TermWeights {
    /// Whether `term` was used for `what` before; it is from now on. A term's
    /// postings and positions are decoded and kept on its second use only, so
    /// a one-off search (the command line) decodes nothing it does not walk.
    pub fn second_use(&self, what: Use, term: &Term) -> bool {
        second_use_in(&self.terms, what, term)
    }

    /// The positions of `term` in every document of `seg` holding it, decoded
    /// once and kept (`Some(None)` when no document holds it); `None` on the
    /// term's first use for this, when they are not decoded.
    pub fn positions(
        &self,
        seg: &SegmentReader,
        term: &Term,
    ) -> Option<Option<Arc<TermPositions>>> {
        let id = seg.segment_id();
        let kept = |k: &Kept| k.positions.iter().find(|p| p.0 == id).map(|p| p.1.clone());
        if let Some(p) = lock(&self.terms).get(term).and_then(kept) {
            return Some(p);
        }
        if !self.second_use(Use::Located, term) {
            return None;
        }
        let p = TermPositions::read(seg, term).map(Arc::new);
        let mut terms = lock(&self.terms);
        let k = terms.entry(term.clone()).or_default();
        k.positions.push((id, p.clone()));
        Some(p)
    }
}

/// A term's positions in one segment, decoded: the documents holding it, and
/// in each the positions where it stands (ascending).
pub struct TermPositions {
    docs: Vec<DocId>,
    /// Where each document's positions begin in `positions` (one more entry
    /// than `docs`, the last the end).
    starts: Vec<u32>,
    positions: Vec<u32>,
}

impl TermPositions {
    fn read(seg: &SegmentReader, term: &Term) -> Option<TermPositions> {
        let inv = seg.inverted_index(term.field()).ok()?;
        let option = IndexRecordOption::WithFreqsAndPositions;
        let mut p = inv.read_postings(term, option).ok()??;
        let mut out = TermPositions {
            docs: Vec::new(),
            starts: vec![0],
            positions: Vec::new(),
        };
        let mut buf = Vec::new();
        let mut doc = p.doc();
        while doc != TERMINATED {
            p.positions(&mut buf);
            out.docs.push(doc);
            out.positions.extend_from_slice(&buf);
            out.starts.push(out.positions.len() as u32);
            doc = p.advance();
        }
        Some(out)
    }

    /// The positions of the term in `doc`, or `None` when `doc` lacks it,
    /// searched from the document at `at` on (every document before it is
    /// before `doc`), which is left at the first document not before `doc`.
    pub fn in_doc_from(&self, doc: DocId, at: &mut usize) -> Option<&[u32]> {
        let docs = &self.docs;
        // Galloping: the documents asked for are near one another.
        let (mut lo, mut step) = (*at, 1);
        while lo + step < docs.len() && docs[lo + step] < doc {
            lo += step;
            step *= 2;
        }
        let hi = (lo + step + 1).min(docs.len());
        let i = lo
            + docs
                .get(lo..hi)
                .unwrap_or_default()
                .partition_point(|&d| d < doc);
        *at = i;
        (docs.get(i) == Some(&doc))
            .then(|| &self.positions[self.starts[i] as usize..self.starts[i + 1] as usize])
    }
}

/// A term's postings in one segment, decoded: its documents (ending with
/// `TERMINATED`, so a cursor never runs off the end), and on each its
/// frequency, field-norm id, and BM25 term-frequency factor.
#[derive(Default)]
struct TermPostings {
    docs: Vec<DocId>,
    freqs: Vec<u32>,
    norms: Vec<u8>,
    /// [`tf_factor`] of each document: its score is the term's weight times this.
    tf: Vec<Score>,
    /// Where each run of one game's documents begins among the entries (see
    /// `SegmentPriors::counted_in`), and the end.
    run_starts: OnceLock<Box<[usize]>>,
}

impl TermPostings {
    fn read(reader: &SegmentReader, term: &Term, average: Score) -> tantivy::Result<TermPostings> {
        let field = term.field();
        let mut out = TermPostings::default();
        let inverted = reader.inverted_index(field)?;
        if let Some(mut p) = inverted.read_postings(term, IndexRecordOption::WithFreqs)? {
            let norms = field_norms(reader, field)?;
            let mut doc = p.doc();
            while doc != TERMINATED {
                out.push(doc, p.term_freq(), norms.fieldnorm_id(doc), average);
                doc = p.advance();
            }
        }
        Ok(out.finish())
    }

    fn push(&mut self, doc: DocId, freq: u32, norm: u8, average: Score) {
        self.docs.push(doc);
        self.freqs.push(freq);
        self.norms.push(norm);
        self.tf.push(tf_factor(norm, freq, average));
    }

    /// The postings, ended by `TERMINATED`.
    fn finish(mut self) -> TermPostings {
        self.docs.push(TERMINATED);
        self.freqs.push(0);
        self.norms.push(0);
        self.tf.push(0.0);
        self
    }

    /// The documents of `reader` that tantivy's phrase query `phrase` (weighed
    /// with `bm25`, unboosted) matches, each with the number of times the
    /// phrase stands there, its field-norm id and term-frequency factor.
    fn read_phrase(
        reader: &SegmentReader,
        field: tantivy::schema::Field,
        phrase: &dyn Weight,
        bm25: &TermBm25,
    ) -> tantivy::Result<TermPostings> {
        let mut out = TermPostings::default();
        let mut scorer = phrase.scorer(reader, 1.0)?;
        let norms = field_norms(reader, field)?;
        let mut doc = scorer.doc();
        while doc != TERMINATED {
            let norm = norms.fieldnorm_id(doc);
            let count = phrase_count(&bm25.bm25, norm, scorer.score()).ok_or_else(|| {
                tantivy::TantivyError::InternalError(format!(
                    "no phrase count gives the score of document #{doc}"
                ))
            })?;
            out.push(doc, count, norm, bm25.average);
            doc = scorer.advance();
        }
        Ok(out.finish())
    }
}

/// The field-norm reader of `field` (a constant one when norms are not kept).
fn field_norms(
    reader: &SegmentReader,
    field: tantivy::schema::Field,
) -> tantivy::Result<FieldNormReader> {
    Ok(match reader.fieldnorms_readers().get_field(field)? {
        Some(r) => r,
        None => FieldNormReader::constant(reader.max_doc(), 1),
    })
}

/// The number of times a phrase stands in a document, from the score
/// tantivy's phrase scorer gives it (`bm25` of the phrase times its
/// frequency factor): the count whose score is that one to the bit, if any.
/// The scorer keeps the count to itself; scores grow with the count.
fn phrase_count(bm25: &Bm25Weight, norm: u8, score: Score) -> Option<u32> {
    (1..=1 << 16)
        .map(|count| (count, bm25.score(norm, count)))
        .find(|&(_, s)| s >= score)
        .filter(|&(_, s)| s.to_bits() == score.to_bits())
        .map(|(count, _)| count)
}

/// tantivy's BM25 constants.
const K1: Score = 1.2;
const B: Score = 0.75;

/// The factor by which a term's BM25 weight is multiplied on a document where
/// it occurs `freq` times in a field of norm id `norm`, the field's average
/// length being `average`: as `Bm25Weight` works it out, operation for
/// operation, so `weight * tf_factor(..)` is `Bm25Weight::score(..)` to the bit
/// (a test checks it over every norm id).
fn tf_factor(norm: u8, freq: u32, average: Score) -> Score {
    let length = FieldNormReader::id_to_fieldnorm(norm) as Score;
    let component = K1 * (1.0 - B + B * length / average);
    let freq = freq as Score;
    freq / (freq + component)
}

/// The number of documents, and the average length of `field` in them, as
/// tantivy's BM25 works them out.
fn field_average(
    stats: &dyn tantivy::query::Bm25StatisticsProvider,
    field: tantivy::schema::Field,
) -> tantivy::Result<(u64, Score)> {
    let docs = stats.total_num_docs()?;
    Ok((
        docs,
        stats.total_num_tokens(field)? as Score / docs as Score,
    ))
}

/// A term's BM25 weight, and the average length of its field it was worked
/// out with.
#[derive(Clone)]
struct TermBm25 {
    bm25: Bm25Weight,
    average: Score,
}

impl TermBm25 {
    /// The weight the term-frequency factor is multiplied by, boosted by
    /// `boost` (as `Bm25Weight::boost_by` multiplies it): a factor of exactly 1
    /// (a frequency so large the length term vanishes beside it) gives the
    /// unboosted weight exactly.
    fn weight(&self, boost: Score) -> Score {
        self.bm25.score(0, 1 << 30) * boost
    }
}

/// A term query that scores as tantivy's `TermQuery` boosted by `boost` (the
/// same BM25 weight, the same frequencies and field norms, so the same scores
/// to the bit), over postings decoded once per searcher and kept in
/// [`TermWeights`]: a query then sets up no posting-list reader, and walking a
/// term is stepping through an array.
#[derive(Debug, Clone)]
pub struct CachedTerm {
    pub term: Term,
    pub option: IndexRecordOption,
    pub boost: Score,
    pub weights: Arc<TermWeights>,
}

impl CachedTerm {
    fn leaf_weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<LeafWeight> {
        let stored = || {
            let query = TermQuery::new(self.term.clone(), self.option);
            LeafWeight::stored(&query, self.boost, scoring)
        };
        let Some((searcher, stats)) = LeafWeight::statistics(scoring) else {
            return stored();
        };
        if !self.option.has_freq() {
            return stored();
        }
        // On its first use, scored as tantivy scores it, the same to the bit,
        // from its posting list as stored: nothing is decoded that the walk skips.
        let warm = scored_in(
            &self.weights.terms,
            &self.term,
            searcher,
            || {
                // As `Bm25Weight::for_terms` weighs one term, without its explanation.
                let (docs, average) = field_average(stats, self.term.field())?;
                let df = stats.doc_freq(&self.term)?;
                let bm25 = Bm25Weight::for_one_term_without_explain(df, docs, average);
                Ok(TermBm25 { bm25, average })
            },
            |seg, bm25| TermPostings::read(seg, &self.term, bm25.average),
        )?;
        LeafWeight::warm_or(warm, self.boost, stored)
    }
}

impl Query for CachedTerm {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(self.leaf_weight(scoring)?.boxed())
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        visitor(&self.term, false);
    }
}

/// A phrase query (no slop) that scores as tantivy's `PhraseQuery` boosted by
/// `boost`, to the bit: on its second use, the documents where the phrase
/// stands and how many times it does are found once (by tantivy's phrase
/// scorer) and kept in [`TermWeights`], and later queries step through them
/// as through a term's.
#[derive(Debug, Clone)]
pub struct CachedPhrase {
    pub terms: Vec<Term>,
    pub boost: Score,
    pub weights: Arc<TermWeights>,
}

impl CachedPhrase {
    fn leaf_weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<LeafWeight> {
        let phrase = || PhraseQuery::new(self.terms.clone());
        let stored = || LeafWeight::stored(&phrase(), self.boost, scoring);
        let Some((searcher, stats)) = LeafWeight::statistics(scoring) else {
            return stored();
        };
        let field = self.terms[0].field();
        // Decoded in every segment at once: a segment's scorer cannot weigh the phrase.
        let mut tantivy_weight: Option<Box<dyn Weight>> = None;
        let warm = scored_in(
            &self.weights.phrases,
            self.terms.as_slice(),
            searcher,
            || {
                let (_, average) = field_average(stats, field)?;
                let bm25 = Bm25Weight::for_terms(stats, &self.terms)?;
                Ok(TermBm25 { bm25, average })
            },
            |seg, bm25| {
                let w = match &mut tantivy_weight {
                    Some(w) => w,
                    None => tantivy_weight.insert(phrase().weight(scoring)?),
                };
                TermPostings::read_phrase(seg, field, w.as_ref(), bm25)
            },
        )?;
        LeafWeight::warm_or(warm, self.boost, stored)
    }
}

impl Query for CachedPhrase {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(self.leaf_weight(scoring)?.boxed())
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for t in &self.terms {
            visitor(t, true);
        }
    }
}

/// A term's or a phrase's BM25 weight, boost and postings, decoded in every
/// segment of the searcher.
struct ArrayTermWeight {
    bm25: TermBm25,
    boost: Score,
    postings: SegmentPostings,
}

impl ArrayTermWeight {
    /// The postings of `reader`'s segment.
    fn postings(&self, reader: &SegmentReader) -> tantivy::Result<&Arc<TermPostings>> {
        let id = reader.segment_id();
        self.postings
            .iter()
            .find(|p| p.0 == id)
            .map(|p| &p.1)
            .ok_or_else(|| {
                tantivy::TantivyError::InternalError("postings of an unknown segment".into())
            })
    }

    /// A cursor over the postings of `reader`'s segment, scored with an outer
    /// `boost` times this one (as tantivy's `BoostWeight` passes it on).
    fn array_scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<ArrayTerm> {
        Ok(ArrayTerm {
            postings: Arc::clone(self.postings(reader)?),
            at: 0,
            weight: self.weight(boost),
        })
    }

    /// The weight a posting's frequency factor is multiplied by, under an
    /// outer `boost`: the outer boost times this one, as tantivy's
    /// `BoostWeight` passes it on.
    fn weight(&self, boost: Score) -> Score {
        self.bm25.weight(boost * self.boost)
    }
}

impl Weight for ArrayTermWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(Box::new(self.array_scorer(reader, boost)?))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut s = self.array_scorer(reader, 1.0)?;
        if s.seek(doc) != doc {
            return Err(tantivy::TantivyError::InvalidArgument(format!(
                "document #{doc} does not match"
            )));
        }
        let p = &s.postings;
        let inner = self.bm25.bm25.explain(p.norms[s.at], p.freqs[s.at]);
        if self.boost == 1.0 {
            return Ok(inner);
        }
        let mut boosted = Explanation::new_with_string(
            format!("Boost x{} of ...", self.boost),
            inner.value() * self.boost,
        );
        boosted.add_detail(inner);
        Ok(boosted)
    }
}

/// A cursor over a term's decoded postings.
struct ArrayTerm {
    postings: Arc<TermPostings>,
    /// Position of the current document in `postings`.
    at: usize,
    /// The term's BM25 weight, boosted.
    weight: Score,
}

impl DocSet for ArrayTerm {
    fn advance(&mut self) -> DocId {
        let docs = &self.postings.docs;
        if docs[self.at] != TERMINATED {
            self.at += 1;
        }
        docs[self.at]
    }

    fn seek(&mut self, target: DocId) -> DocId {
        let docs = &self.postings.docs;
        self.at += docs[self.at..].partition_point(|&d| d < target);
        docs[self.at]
    }

    fn doc(&self) -> DocId {
        self.postings.docs[self.at]
    }

    fn size_hint(&self) -> u32 {
        (self.postings.docs.len() - 1) as u32
    }
}

impl Scorer for ArrayTerm {
    fn score(&mut self) -> Score {
        self.weight * self.postings.tf[self.at]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A decoded posting scores as tantivy's BM25 scores it, to the bit: for
    /// every field-norm id, a range of frequencies, document frequencies,
    /// averages and boosts.
    #[test]
    fn tf_factor_times_weight_is_bm25_to_the_bit() {
        for average in [1.0, 3.7, 18.25, 120.5, 2048.0] {
            for (df, n) in [(1, 2), (3, 2340), (700, 2340), (9000, 10000)] {
                let bm25 = Bm25Weight::for_one_term_without_explain(df, n, average);
                let term = TermBm25 {
                    bm25: bm25.clone(),
                    average,
                };
                for boost in [1.0, 0.35, 2.5] {
                    let boosted = bm25.boost_by(boost);
                    let weight = term.weight(boost);
                    for norm in 0..=255u8 {
                        for freq in (1..=40).chain([1000, 123_456]) {
                            let want = boosted.score(norm, freq);
                            let got = weight * tf_factor(norm, freq, average);
                            assert_eq!(
                                want.to_bits(),
                                got.to_bits(),
                                "norm {norm}, freq {freq}, average {average}, df {df}, boost {boost}: {want} vs {got}"
                            );
                        }
                    }
                }
            }
        }
    }
}
