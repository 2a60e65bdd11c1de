//! The coverage query at the top of every search: a document's score is the
//! sum of its clauses' scores (tantivy's own BM25 term, phrase, boost and
//! dis-max scorers), times the covered share of the question's weight raised
//! to a power, times the document's prior, its game's factor and its kind's.
//! Matching most of the question beats repeating one word of it.

use tantivy::columnar::Column;
use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, Term};

/// Per-document factors that do not depend on the words: by game (position in
/// `Game::ALL`; 0 leaves a game out) and by kind (position in `DocKind::ALL`;
/// 0 leaves a kind out).
#[derive(Debug, Clone, Copy)]
pub struct Factors {
    pub game: [f32; 3],
    pub kind: [f32; 7],
}

/// One clause per group of the question with the group's weight (its tag);
/// bonus clauses (tag 0) add to the score but cover nothing.
#[derive(Debug)]
pub struct Cover {
    pub clauses: Vec<(Box<dyn Query>, f32)>,
    /// Total weight of the question's groups, searchable or not.
    pub total: f32,
    pub gamma: f32,
    pub factors: Factors,
}

impl Clone for Cover {
    fn clone(&self) -> Cover {
        Cover {
            clauses: self
                .clauses
                .iter()
                .map(|(q, t)| (q.box_clone(), *t))
                .collect(),
            total: self.total,
            gamma: self.gamma,
            factors: self.factors,
        }
    }
}

impl Query for Cover {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let clauses = self
            .clauses
            .iter()
            .map(|(q, tag)| Ok((q.weight(scoring)?, *tag)))
            .collect::<tantivy::Result<_>>()?;
        Ok(Box::new(CoverWeight {
            clauses,
            total: self.total.max(f32::EPSILON),
            gamma: self.gamma,
            factors: self.factors,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for (q, _) in &self.clauses {
            q.query_terms(visitor);
        }
    }
}

struct CoverWeight {
    clauses: Vec<(Box<dyn Weight>, f32)>,
    total: f32,
    gamma: f32,
    factors: Factors,
}

impl Weight for CoverWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut clauses = Vec::with_capacity(self.clauses.len());
        for (w, tag) in &self.clauses {
            let s = w.scorer(reader, boost)?;
            if s.doc() != TERMINATED {
                clauses.push((s, *tag));
            }
        }
        let ff = reader.fast_fields();
        let mut scorer = CoverScorer {
            clauses,
            doc: 0,
            prior: ff.u64("prior")?,
            game: ff.u64("game_ord")?,
            kind: ff.u64("kind_ord")?,
            total: self.total,
            gamma: self.gamma,
            factors: self.factors,
        };
        scorer.settle();
        Ok(Box::new(scorer))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut s = self.scorer(reader, 1.0)?;
        if s.seek(doc) != doc {
            return Err(tantivy::TantivyError::InvalidArgument(format!(
                "document {doc} does not match"
            )));
        }
        Ok(Explanation::new("Cover", s.score()))
    }
}

/// The union of the clauses' scorers, one document at a time.
struct CoverScorer {
    clauses: Vec<(Box<dyn Scorer>, f32)>,
    doc: DocId,
    prior: Column<u64>,
    game: Column<u64>,
    kind: Column<u64>,
    total: f32,
    gamma: f32,
    factors: Factors,
}

impl CoverScorer {
    /// The factor of `doc` that its words do not decide.
    fn factor(&self, doc: DocId) -> f32 {
        let prior = self.prior.first(doc).unwrap_or(1000) as f32 / 1000.0;
        let game = self.game.first(doc).unwrap_or(0) as usize;
        let kind = self.kind.first(doc).unwrap_or(0) as usize;
        prior
            * self.factors.game.get(game).copied().unwrap_or(1.0)
            * self.factors.kind.get(kind).copied().unwrap_or(1.0)
    }

    /// Move to the first document from the clauses' current ones on whose
    /// factor is not 0.
    fn settle(&mut self) -> DocId {
        loop {
            let doc = self
                .clauses
                .iter()
                .map(|(s, _)| s.doc())
                .min()
                .unwrap_or(TERMINATED);
            self.doc = doc;
            if doc == TERMINATED || self.factor(doc) > 0.0 {
                return doc;
            }
            self.step_past(doc);
        }
    }

    /// Advance every clause standing on `doc`.
    fn step_past(&mut self, doc: DocId) {
        for (s, _) in &mut self.clauses {
            if s.doc() == doc {
                s.advance();
            }
        }
    }
}

impl DocSet for CoverScorer {
    fn advance(&mut self) -> DocId {
        if self.doc != TERMINATED {
            self.step_past(self.doc);
        }
        self.settle()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        for (s, _) in &mut self.clauses {
            if s.doc() < target {
                s.seek(target);
            }
        }
        self.settle()
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.clauses
            .iter()
            .map(|(s, _)| s.size_hint())
            .max()
            .unwrap_or(0)
    }
}

impl Scorer for CoverScorer {
    fn score(&mut self) -> Score {
        let doc = self.doc;
        let (mut sum, mut covered) = (0.0, 0.0);
        for (s, tag) in &mut self.clauses {
            if s.doc() == doc {
                sum += s.score();
                covered += *tag;
            }
        }
        let share = (covered / self.total).min(1.0);
        sum * share.powf(self.gamma) * self.factor(doc)
    }
}
