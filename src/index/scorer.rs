//! Scorers: the best-of-variants disjunction ([`DisMax`]), the coverage union
//! at the top of every query ([`Cover`]), and term and phrase queries whose
//! scoring weights are kept across queries ([`TermWeights`]).

use super::text::FastMap;
use std::sync::{Arc, Mutex};
use tantivy::fieldnorm::FieldNormReader;
use tantivy::index::SegmentId;
use tantivy::postings::Postings;
use tantivy::query::{
    Bm25Weight, EnableScoring, Explanation, Query, QueryClone, Scorer, TermQuery, Weight,
};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, Term};

/// The best of several queries plus `tie_breaker` times the rest: scores exactly
/// as tantivy's `DisjunctionMaxQuery`, but walks its few disjuncts side by side
/// instead of through a 4096-document union buffer, which a query of a dozen
/// words would otherwise allocate and clear a dozen times.
///
/// Each disjunct comes with an upper bound of its score (see [`bm25_bound`]),
/// from which the disjunction's own bound follows ([`DisMax::bound`]).
#[derive(Debug)]
pub struct DisMax {
    disjuncts: Vec<(Box<dyn Query>, Score)>,
    tie_breaker: Score,
}

impl DisMax {
    pub fn new(disjuncts: Vec<(Box<dyn Query>, Score)>, tie_breaker: Score) -> DisMax {
        DisMax {
            disjuncts,
            tie_breaker,
        }
    }

    /// No document scores more than this. The score is the best disjunct's
    /// plus `tie_breaker` times the others', `(1 - t) · max + t · sum`, which
    /// grows with each disjunct's score, so the disjuncts' bounds bound it.
    pub fn bound(&self) -> Score {
        let (mut max, mut sum): (Score, Score) = (0.0, 0.0);
        for &(_, b) in &self.disjuncts {
            max = max.max(b);
            sum += b;
        }
        (1.0 - self.tie_breaker) * max + self.tie_breaker * sum
    }
}

/// Upper bound of the BM25 score of a term, or of a phrase of several, whose
/// idf (summed over the phrase's terms) is given, boosted by `boost`. The score
/// is the BM25 weight `idf × (1 + k1) × boost` times a term-frequency factor
/// `tf / (tf + norm)` below 1, so the weight bounds it.
pub fn bm25_bound(idfs: impl IntoIterator<Item = Score>, boost: Score) -> Score {
    const K1: Score = 1.2;
    idfs.into_iter().sum::<Score>() * (1.0 + K1) * boost
}

impl Clone for DisMax {
    fn clone(&self) -> DisMax {
        DisMax::new(
            self.disjuncts
                .iter()
                .map(|(q, b)| (q.box_clone(), *b))
                .collect(),
            self.tie_breaker,
        )
    }
}

impl Query for DisMax {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let weights = self
            .disjuncts
            .iter()
            .map(|(d, _)| d.weight(scoring))
            .collect::<tantivy::Result<_>>()?;
        Ok(Box::new(DisMaxWeight {
            weights,
            tie_breaker: self.tie_breaker,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for (d, _) in &self.disjuncts {
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
            self.weights.iter().map(|w| (w.as_ref(), 0.0, 0.0)),
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

/// One scorer of a [`Union`], with its tag (its coverage weight) and an upper
/// bound of its score.
struct Clause<S = Box<dyn Scorer>> {
    scorer: S,
    tag: f32,
    bound: Score,
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
    /// The scorers of `weights`, each given with its tag and bound.
    fn new<'a>(
        weights: impl Iterator<Item = (&'a dyn Weight, f32, Score)>,
        reader: &SegmentReader,
        boost: Score,
    ) -> tantivy::Result<Union> {
        let mut clauses = Vec::new();
        for (w, tag, bound) in weights {
            let scorer = w.scorer(reader, boost)?;
            if scorer.doc() != TERMINATED {
                clauses.push(Clause { scorer, tag, bound });
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
                        bound: c.bound,
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
/// The best documents are found by MaxScore pruning ([`CoverScorer::prune`]):
/// once the top documents are known well enough, a document that only the
/// clauses of small bound hold cannot join them, so those clauses are no
/// longer walked, only looked up on the documents the others hold.
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
    /// The largest of `priors` (1 when there are none).
    max_prior: f32,
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
        let max_prior = priors.iter().copied().reduce(f32::max).unwrap_or(1.0);
        Ok(Priors {
            segments: vec![SegmentPriors {
                id: seg.segment_id(),
                priors,
                max_prior,
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
            clauses.push((q.weight(scoring)?, *w, q.bound()));
        }
        for q in &self.bonus {
            clauses.push((q.weight(scoring)?, 0.0, q.bound()));
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
    /// Per clause: its weight, its tag (coverage weight) and its bound.
    clauses: Vec<(Box<dyn Weight>, f32, Score)>,
    filter: Option<Box<dyn Weight>>,
    total: f32,
    gamma: f32,
    game_factor: [f32; 3],
    priors: Arc<Priors>,
}

impl CoverWeight {
    fn cover_scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<CoverScorer> {
        let union = Union::new(
            self.clauses
                .iter()
                .map(|(w, tag, bound)| (w.as_ref(), *tag, *bound * boost)),
            reader,
            boost,
        )?;
        let filter = match &self.filter {
            Some(w) => Some(w.scorer(reader, boost)?),
            None => None,
        };
        let (priors, seg) = match self.priors.segment(reader.segment_id()) {
            Some(i) => (Arc::clone(&self.priors), i),
            None => (Arc::new(Priors::read_segment(reader)?), 0),
        };
        let mut scorer = CoverScorer {
            union,
            filter,
            total: self.total,
            gamma: self.gamma,
            game_factor: self.game_factor,
            priors,
            seg,
        };
        let first = scorer.union.doc;
        scorer.align(first);
        Ok(scorer)
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
        self.cover_scorer(reader, 1.0)?.prune(threshold, callback);
        Ok(())
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        explain(self, reader, doc, "Cover")
    }
}

struct CoverScorer {
    union: Union,
    filter: Option<Box<dyn Scorer>>,
    total: f32,
    gamma: f32,
    game_factor: [f32; 3],
    priors: Arc<Priors>,
    /// This segment's position in `priors`.
    seg: usize,
}

/// A bound is raised by this share before it is compared, so that rounding in
/// the sums it is made of never lets it fall below a score it bounds.
const BOUND_MARGIN: f32 = 1.0 + 1e-4;

impl CoverScorer {
    /// The first document from `doc` on that may be scored: of a game asked for
    /// (the others would score 0, so they are skipped whole) and matching the
    /// filter.
    fn allowed(&mut self, mut doc: DocId) -> DocId {
        let seg = &self.priors.segments[self.seg];
        while doc != TERMINATED {
            let game = seg.games.get(doc as usize).copied().unwrap_or(0);
            if self.game_factor[usize::from(game)] == 0.0 {
                doc = seg.next_in_games(doc, &self.game_factor);
                continue;
            }
            let Some(f) = &mut self.filter else {
                break;
            };
            let mut at = f.doc();
            if at < doc {
                at = f.seek(doc);
            }
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

    /// Hand `callback` every document scoring above `threshold` (which the
    /// callback raises as it goes), by MaxScore: the clauses are taken by
    /// bound, the smallest first, and the longest run of them whose documents
    /// could not score above the threshold even holding all of them is
    /// "non-essential". Only the other clauses are walked; the non-essential
    /// ones are sought to a document only when the bound of what it holds
    /// could still beat the threshold. Scores are computed exactly as
    /// [`Scorer::score`] does, so the documents found and their scores are
    /// those of a walk over every document.
    fn prune(&mut self, mut threshold: Score, callback: &mut dyn FnMut(DocId, Score) -> Score) {
        let clauses = std::mem::take(&mut self.union.clauses);
        if clauses.len() > Walk::MAX_CLAUSES {
            // Too many clauses to mark in a word: every document is scored.
            self.union.clauses = clauses;
            let mut doc = self.union.doc;
            while doc != TERMINATED {
                let score = self.score();
                if score > threshold {
                    threshold = callback(doc, score);
                }
                doc = self.advance();
            }
            return;
        }
        let mut walk = Walk::new(clauses);
        let seg = &self.priors.segments[self.seg];
        let best_factor =
            seg.max_prior * self.game_factor.iter().copied().fold(0.0, f32::max) * BOUND_MARGIN;
        // The bound and tags of the clauses not walked.
        let (mut rest_bound, mut rest_tags) = (0.0, 0.0);
        let (mut doc, mut on) = walk.next_doc();
        while doc != TERMINATED {
            let next = self.allowed(doc);
            if next != doc {
                if next == TERMINATED {
                    break;
                }
                (doc, on) = walk.seek_walked(next);
                continue;
            }
            let may_beat = threshold == Score::MIN || {
                let (bound, tags) = walk.sums(on, rest_bound, rest_tags);
                self.finish(doc, bound, tags) * BOUND_MARGIN > threshold
            };
            if may_beat {
                let score = walk.score(doc, on, |sum, covered| self.finish(doc, sum, covered));
                if score > threshold {
                    let raised = callback(doc, score);
                    if raised > threshold {
                        threshold = raised;
                        (rest_bound, rest_tags) =
                            walk.partition(|b, t| b * self.scaled(t) * best_factor <= threshold);
                    }
                }
            }
            (doc, on) = walk.advance_walked(on);
        }
        self.union.finish();
    }

    /// The score of `doc` from the sum of its clauses' scores and of their
    /// tags: times the covered share raised to `gamma`, its prior and its
    /// game's factor.
    fn finish(&self, doc: DocId, sum: Score, covered: f32) -> Score {
        let (prior, game) = self.prior_and_game(doc);
        sum * self.scaled(covered) * prior * game
    }

    /// The prior of `doc` and its game's factor.
    fn prior_and_game(&self, doc: DocId) -> (f32, f32) {
        let seg = &self.priors.segments[self.seg];
        let prior = seg.priors.get(doc as usize).copied().unwrap_or(1.0);
        let game = seg
            .games
            .get(doc as usize)
            .map_or(1.0, |&g| self.game_factor[usize::from(g)]);
        (prior, game)
    }
}

/// The clauses of a MaxScore walk ([`CoverScorer::prune`]), each one's
/// current document kept beside it, and which of them are walked. A set of
/// clauses is a word of bits, bit `i` for clause `i` (in query order).
struct Walk {
    clauses: Vec<Clause>,
    docs: Vec<DocId>,
    /// The clauses walked ("essential").
    walked: u64,
    /// Every clause by bound, the smallest first. The clauses not walked, only
    /// sought, are a run at its start that grows as the threshold rises.
    by_bound: Vec<usize>,
    /// How many of `by_bound` are not walked.
    sought: usize,
}

/// The clauses of the set `bits`, in query order.
fn members(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            i
        })
    })
}

impl Walk {
    /// Most clauses a walk takes.
    const MAX_CLAUSES: usize = 64;

    fn new(clauses: Vec<Clause>) -> Walk {
        let docs = clauses.iter().map(|c| c.scorer.doc()).collect();
        let mut by_bound: Vec<usize> = (0..clauses.len()).collect();
        by_bound.sort_by(|&a, &b| clauses[a].bound.total_cmp(&clauses[b].bound));
        let walked = match clauses.len() {
            64 => u64::MAX,
            n => (1u64 << n) - 1,
        };
        Walk {
            clauses,
            docs,
            walked,
            by_bound,
            sought: 0,
        }
    }

    /// The next document a walked clause holds, and the walked clauses on it.
    fn next_doc(&self) -> (DocId, u64) {
        let (mut min, mut on) = (TERMINATED, 0u64);
        for i in members(self.walked) {
            let d = self.docs[i];
            if d < min {
                (min, on) = (d, 1 << i);
            } else if d == min {
                on |= 1 << i;
            }
        }
        (min, on)
    }

    fn seek_walked(&mut self, target: DocId) -> (DocId, u64) {
        for i in members(self.walked) {
            if self.docs[i] < target {
                self.docs[i] = self.clauses[i].scorer.seek(target);
            }
        }
        self.next_doc()
    }

    /// Advance the clauses `on` (walked, on the current document).
    fn advance_walked(&mut self, on: u64) -> (DocId, u64) {
        for i in members(on) {
            self.docs[i] = self.clauses[i].scorer.advance();
        }
        self.next_doc()
    }

    /// The bounds and tags of the clauses `on`, added to `bound` and `tags`.
    fn sums(&self, on: u64, mut bound: Score, mut tags: f32) -> (Score, f32) {
        for i in members(on) {
            bound += self.clauses[i].bound;
            tags += self.clauses[i].tag;
        }
        (bound, tags)
    }

    /// The score of `doc`, on which the walked clauses `on` are: the clauses
    /// not walked are sought to it, then `finish` is given the sum of the
    /// scores of the clauses on it (in query order, as [`Union::scores`] sums
    /// them) and the sum of their tags.
    fn score(&mut self, doc: DocId, mut on: u64, finish: impl Fn(Score, f32) -> Score) -> Score {
        for &i in &self.by_bound[..self.sought] {
            let mut d = self.docs[i];
            if d < doc {
                d = self.clauses[i].scorer.seek(doc);
                self.docs[i] = d;
            }
            if d == doc {
                on |= 1 << i;
            }
        }
        let (mut sum, mut covered) = (0.0, 0.0);
        for i in members(on) {
            let c = &mut self.clauses[i];
            sum += c.scorer.score();
            covered += c.tag;
        }
        finish(sum, covered)
    }

    /// Stop walking the longest run of clauses by bound, the smallest first,
    /// whose bounds and tags summed still pass `beaten`; return those sums.
    fn partition(&mut self, beaten: impl Fn(Score, f32) -> bool) -> (Score, f32) {
        let (mut bound, mut tags) = (0.0, 0.0);
        let mut count = 0;
        for &i in &self.by_bound {
            let c = &self.clauses[i];
            if !beaten(bound + c.bound, tags + c.tag) {
                break;
            }
            bound += c.bound;
            tags += c.tag;
            count += 1;
        }
        for &i in &self.by_bound[self.sought..count.max(self.sought)] {
            self.walked &= !(1 << i);
        }
        self.sought = self.sought.max(count);
        (bound, tags)
    }
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
    bm25: Option<Bm25Weight>,
    postings: Vec<(SegmentId, Arc<TermPostings>)>,
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
        let mut terms = lock(&self.terms);
        let bit = what as u8;
        match terms.get_mut(term) {
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
                terms.insert(term.clone(), k);
                false
            }
        }
    }

    /// The BM25 weight of `term`, worked out by `weigh` the first time.
    fn bm25(
        &self,
        term: &Term,
        weigh: impl FnOnce() -> tantivy::Result<Bm25Weight>,
    ) -> tantivy::Result<Bm25Weight> {
        if let Some(w) = lock(&self.terms).get(term).and_then(|k| k.bm25.clone()) {
            return Ok(w);
        }
        let w = weigh()?;
        lock(&self.terms).entry(term.clone()).or_default().bm25 = Some(w.clone());
        Ok(w)
    }

    /// The decoded postings of `term` in `seg`, decoded the first time.
    fn postings(&self, seg: &SegmentReader, term: &Term) -> tantivy::Result<Arc<TermPostings>> {
        let id = seg.segment_id();
        let kept = |k: &Kept| {
            k.postings
                .iter()
                .find(|p| p.0 == id)
                .map(|p| Arc::clone(&p.1))
        };
        if let Some(p) = lock(&self.terms).get(term).and_then(kept) {
            return Ok(p);
        }
        let p = Arc::new(TermPostings::read(seg, term)?);
        let mut terms = lock(&self.terms);
        let k = terms.entry(term.clone()).or_default();
        k.postings.push((id, Arc::clone(&p)));
        Ok(p)
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

    /// The positions of the term in `doc`, or `None` when `doc` lacks it.
    pub fn in_doc(&self, doc: DocId) -> Option<&[u32]> {
        let i = self.docs.binary_search(&doc).ok()?;
        Some(&self.positions[self.starts[i] as usize..self.starts[i + 1] as usize])
    }
}

/// A term's postings in one segment, decoded: its documents (ending with
/// `TERMINATED`, so a cursor never runs off the end), and on each its
/// frequency and field-norm id.
struct TermPostings {
    docs: Vec<DocId>,
    freqs: Vec<u32>,
    norms: Vec<u8>,
}

impl TermPostings {
    fn read(reader: &SegmentReader, term: &Term) -> tantivy::Result<TermPostings> {
        let field = term.field();
        let mut out = TermPostings {
            docs: Vec::new(),
            freqs: Vec::new(),
            norms: Vec::new(),
        };
        let inverted = reader.inverted_index(field)?;
        if let Some(mut p) = inverted.read_postings(term, IndexRecordOption::WithFreqs)? {
            let norms = match reader.fieldnorms_readers().get_field(field)? {
                Some(r) => r,
                None => FieldNormReader::constant(reader.max_doc(), 1),
            };
            let mut doc = p.doc();
            while doc != TERMINATED {
                out.docs.push(doc);
                out.freqs.push(p.term_freq());
                out.norms.push(norms.fieldnorm_id(doc));
                doc = p.advance();
            }
        }
        out.docs.push(TERMINATED);
        out.freqs.push(0);
        out.norms.push(0);
        Ok(out)
    }
}

/// A term query that scores as tantivy's `TermQuery` (the same BM25 weight,
/// the same frequencies and field norms, so the same scores to the bit), over
/// postings decoded once per searcher and kept in [`TermWeights`]: a query
/// then sets up no posting-list reader, and walking a term is stepping
/// through an array.
#[derive(Debug, Clone)]
pub struct CachedTerm {
    pub term: Term,
    pub option: IndexRecordOption,
    pub weights: Arc<TermWeights>,
}

impl Query for CachedTerm {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let stats = match scoring {
            EnableScoring::Enabled {
                statistics_provider,
                ..
            } if self.option.has_freq() => statistics_provider,
            _ => return TermQuery::new(self.term.clone(), self.option).weight(scoring),
        };
        if !self.weights.second_use(Use::Scored, &self.term) {
            // Scored as tantivy scores it, the same to the bit, from its posting
            // list as stored: nothing is decoded that the walk skips.
            return TermQuery::new(self.term.clone(), self.option).weight(scoring);
        }
        let bm25 = self.weights.bm25(&self.term, || {
            // As `Bm25Weight::for_terms` weighs one term, without its explanation.
            let field = self.term.field();
            let docs = stats.total_num_docs()?;
            let average = stats.total_num_tokens(field)? as Score / docs as Score;
            let df = stats.doc_freq(&self.term)?;
            Ok(Bm25Weight::for_one_term_without_explain(df, docs, average))
        })?;
        Ok(Box::new(ArrayTermWeight {
            term: self.term.clone(),
            bm25,
            weights: Arc::clone(&self.weights),
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        visitor(&self.term, false);
    }
}

struct ArrayTermWeight {
    term: Term,
    bm25: Bm25Weight,
    weights: Arc<TermWeights>,
}

impl ArrayTermWeight {
    fn array_scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<ArrayTerm> {
        let postings = self.weights.postings(reader, &self.term)?;
        Ok(ArrayTerm {
            postings,
            at: 0,
            bm25: self.bm25.boost_by(boost),
        })
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
        Ok(s.bm25.explain(p.norms[s.at], p.freqs[s.at]))
    }
}

/// A cursor over a term's decoded postings.
struct ArrayTerm {
    postings: Arc<TermPostings>,
    /// Position of the current document in `postings`.
    at: usize,
    bm25: Bm25Weight,
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
        let p = &self.postings;
        self.bm25.score(p.norms[self.at], p.freqs[self.at])
    }
}
