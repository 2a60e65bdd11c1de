//! Ranking beyond one tantivy pass: which game a question is about when no
//! game is given, how well the best passage of each candidate answers it, the
//! threshold below which nothing is an answer, and spreading the first hits
//! across games when the question does not say which game it means.

use super::query::{GAMMA, Plan};
use super::schema::{DocKind, Fields};
use crate::rulebook::Game;
use tantivy::postings::{Postings, SegmentPostings};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocAddress, DocId, DocSet, Searcher, TERMINATED, Term};

/// A document covering less than this share of the query's weight is no answer.
pub const MIN_COVER: f32 = 0.4;
/// With a word the index lacks, a document must cover at least this share:
/// one known word beside one unknown is no answer ("castling in chess"), nor
/// two beside one found only through a close word ("full" and "next" of
/// "when is the next full moon", 0.62, "moon" read as "Mon"). The line sits
/// midway to the weakest such answer a judge asks (0.66).
pub const MIN_COVER_LACKING: f32 = 0.64;
/// Once one document is an answer, others covering this share are shown too.
pub const MIN_COVER_FOLLOWING: f32 = 0.25;
/// A question of two or more groups answered by one of them alone: the
/// document must cover at least this share of the question's weight. One
/// word of several is an answer when it is most of the question ("mulligan"
/// of "can I take a mulligan"), not when it is one word among others ("speed"
/// of "what is the speed of light").
pub const MIN_COVER_ONE_WORD: f32 = 0.7;
/// Width, in words, of the passage the words of a question should fall in.
const PASSAGE: u32 = 30;
/// Score share kept by a document whose matched words are all far apart.
const SCATTERED: f32 = 0.3;
/// What a group found only in the title counts for, beside one found in the
/// answering passage: a heading names a subject, a sentence answers, but a
/// word of the question in the heading is most of the way to an answer.
const TITLE_SHARE: f32 = 0.8;
/// Below this probability for the likeliest game the question's game is
/// unclear, and the first hits are spread across games.
const CLEAR_GAME: f32 = 0.6;
/// Score factor of a game the question's words make unlikely (the likeliest gets 1).
const OTHER_GAME: f32 = 0.5;
/// A hit of another game is moved up only when it scores at least this share of the best.
const DIVERSE_SHARE: f32 = 0.3;
/// Hits checked for spread across games.
const TOP: usize = 5;

/// One candidate in the second ranking pass.
#[derive(Debug, Clone)]
pub struct Ranked {
    pub score: f32,
    pub ord: usize,
    pub rank: u64,
    pub addr: DocAddress,
    pub game: usize,
    /// Whether the document is about one card, titled with its name (a
    /// card's text, or an erratum or ruling on a card).
    pub about_a_card: bool,
    /// Whether the document is a card's own text.
    pub card_text: bool,
    /// Whether the document is a rule, glossary or FAQ entry (not an
    /// example, erratum, ruling or card).
    pub kind_rule: bool,
    /// Share of the query's weight the document covers (title or body).
    pub cover: f32,
    /// Share of the query's weight covered by the best passage of the body
    /// (and, for a rulebook section, its title).
    pub answer: f32,
    /// The groups of the question its title holds (bit `i` for group `i`, the
    /// first 64).
    pub title_groups: u64,
    /// The groups of the question its best passage holds (as `title_groups`).
    pub passage_groups: u64,
    /// The part of `gate` the question's words in its title give: for a
    /// card the question does not name, its name is no part of an answer.
    pub titled: f32,
    /// Whether it holds a word of the question that is the games' own
    /// vocabulary (see [`anchor`]), or is about a card the question names.
    pub anchored: bool,
    /// The share that decides whether the document answers the question at
    /// all: `answer`, less its title's part for a card the question does
    /// not name.
    pub gate: f32,
}

/// A word is the games' own vocabulary when at least one rule, glossary or
/// FAQ section in this many uses it (and at least one does): "magic" of one
/// introduction's aside is not, nor the name of a card that only the errata
/// and rulings on it use.
const ANCHOR_RATE: u32 = 400;

/// The rulebook sections of one segment (the first `sections` documents),
/// with each one's game.
struct Books<'a> {
    seg: &'a tantivy::SegmentReader,
    game: tantivy::columnar::Column<u64>,
    kind: tantivy::columnar::Column<u64>,
    sections: u32,
}

impl<'a> Books<'a> {
    fn of(searcher: &'a Searcher, sections: u32) -> Option<Books<'a>> {
        let seg = searcher.segment_readers().first()?;
        let game = seg.fast_fields().u64("game_ord").ok()?;
        let kind = seg.fast_fields().u64("kind_ord").ok()?;
        Some(Books {
            seg,
            game,
            kind,
            sections: sections.min(seg.max_doc()),
        })
    }

    fn is_rule(&self, doc: DocId) -> bool {
        let rules = [DocKind::Rule, DocKind::Glossary, DocKind::Faq].map(|k| k.ord() as u64);
        self.kind.first(doc).is_some_and(|k| rules.contains(&k))
    }

    fn game_of(&self, doc: DocId) -> usize {
        (self.game.first(doc).unwrap_or(0) as usize).min(2)
    }

    /// Sections of each game whose `field` holds `stem`, of every kind or
    /// only rules (rule, glossary and FAQ sections).
    fn counts(&self, field: Field, stem: &str, rules_only: bool) -> [u32; 3] {
        let mut counts = [0u32; 3];
        let term = Term::from_field_text(field, stem);
        if let Some(mut p) = postings(self.seg, &term, IndexRecordOption::Basic) {
            while p.doc() != TERMINATED && p.doc() < self.sections {
                let doc = p.doc();
                if !rules_only || self.is_rule(doc) {
                    counts[self.game_of(doc)] += 1;
                }
                p.advance();
            }
        }
        counts
    }
}

impl Ranked {
    /// Whether the document answers `plan` enough to be an answer at all:
    /// it holds a word of the games' own vocabulary, covers enough of the
    /// question (more with a word the index lacks), and more than one of its
    /// groups unless that one is most of the question.
    pub fn answers(&self, plan: &Plan) -> bool {
        let groups = (self.passage_groups | self.title_groups).count_ones();
        self.anchored
            && match plan.lacks_a_word() {
                true => self.gate >= MIN_COVER_LACKING,
                false => self.gate >= MIN_COVER,
            }
            && (plan.groups.len() < 2 || groups >= 2 || self.gate >= MIN_COVER_ONE_WORD)
    }
}

/// Mark the groups of `plan` that are the games' own vocabulary: a variant
/// holds a word a rule's heading uses, or enough rule sections' text (see
/// [`ANCHOR_RATE`]).
pub fn anchor(searcher: &Searcher, f: &Fields, plan: &mut Plan, sections: u32) {
    let Some(books) = Books::of(searcher, sections) else {
        return;
    };
    let rules = (0..books.sections).filter(|&d| books.is_rule(d)).count() as u32;
    let needed = rules.div_ceil(ANCHOR_RATE).max(1);
    for g in &mut plan.groups {
        g.anchor = g.variants.iter().any(|v| {
            v.stems.iter().any(|s| {
                let uses = |field: Field| books.counts(field, s, true).iter().sum::<u32>();
                uses(f.title) > 0 || uses(f.body) >= needed
            })
        });
    }
}

/// Score factors per game inferred from the question's words, and whether the
/// inference is clear. Each word votes by how much more often rulebook
/// sections of one game use it than those of the others, weighted by its
/// rarity; a word whose stem stands for another word too ("dies") does not vote.
pub fn game_prior(searcher: &Searcher, f: &Fields, plan: &Plan, sections: u32) -> ([f32; 3], bool) {
    let Some(books) = Books::of(searcher, sections) else {
        return ([1.0; 3], false);
    };
    let mut totals = [0u32; 3];
    for doc in 0..books.sections {
        totals[books.game_of(doc)] += 1;
    }
    let mut evidence = [0.0f32; 3];
    for g in plan.groups.iter().filter(|g| g.is_own_word()) {
        let counts = books.counts(f.body, &g.variants[0].stems[0], false);
        let p: Vec<f32> = (0..3)
            .map(|i| (counts[i] as f32 + 0.5) / (totals[i] as f32 + 1.0))
            .collect();
        let sum: f32 = p.iter().sum();
        for i in 0..3 {
            evidence[i] += g.weight * (3.0 * p[i] / sum).ln();
        }
    }
    let max = evidence.iter().copied().fold(f32::MIN, f32::max);
    let exp = evidence.map(|e| ((e - max) * 0.5).exp());
    let sum: f32 = exp.iter().sum();
    let top = exp.iter().copied().fold(0.0, f32::max) / sum;
    (
        exp.map(|e| OTHER_GAME + (1.0 - OTHER_GAME) * (e / sum) / top),
        top >= CLEAR_GAME,
    )
}

/// The postings of `term` in `seg`, when it has any.
fn postings(
    seg: &tantivy::SegmentReader,
    term: &Term,
    option: IndexRecordOption,
) -> Option<SegmentPostings> {
    seg.inverted_index(term.field())
        .ok()?
        .read_postings(term, option)
        .ok()?
}

/// Where each stem of a variant stands, in one field of one segment.
struct Stems(Vec<Option<SegmentPostings>>);

impl Stems {
    fn open(seg: &tantivy::SegmentReader, field: Field, stems: &[String]) -> Stems {
        let option = IndexRecordOption::WithFreqsAndPositions;
        Stems(
            stems
                .iter()
                .map(|s| postings(seg, &Term::from_field_text(field, s), option))
                .collect(),
        )
    }

    /// Into `out`, the positions in `doc` where the stems stand in order, one
    /// after another; `false` when a stem is absent (documents are asked in
    /// ascending order).
    fn positions(&mut self, doc: DocId, out: &mut Vec<u32>) -> bool {
        out.clear();
        let mut scratch = Vec::new();
        for (i, p) in self.0.iter_mut().enumerate() {
            let Some(p) = p else { return false };
            if p.doc() < doc {
                p.seek(doc);
            }
            if p.doc() != doc {
                return false;
            }
            if i == 0 {
                p.positions(out);
            } else {
                p.positions(&mut scratch);
                out.retain(|&q| scratch.binary_search(&(q + i as u32)).is_ok());
            }
        }
        !out.is_empty()
    }
}

/// Second pass over the candidates: each one's covered share of the query, the
/// share its best passage (with its title) answers, and a score scaled down
/// when its matched words are scattered rather than together in one passage.
pub fn refine(searcher: &Searcher, f: &Fields, plan: &Plan, cands: &mut [Ranked]) {
    let total = plan.total_weight().max(f32::EPSILON);
    let groups = plan.groups.len();
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by_key(|&i| cands[i].addr);
    // Per candidate: whether each group is in its title; its body's (position, group).
    let mut in_title = vec![false; cands.len() * groups];
    let mut marks: Vec<Vec<(u32, usize)>> = vec![Vec::new(); cands.len()];
    let mut pos = Vec::new();
    for (gi, g) in plan.groups.iter().enumerate() {
        for v in &g.variants {
            let mut seg_ord = u32::MAX;
            let (mut title, mut body) = (Stems(Vec::new()), Stems(Vec::new()));
            for &ci in &order {
                let addr = cands[ci].addr;
                if addr.segment_ord != seg_ord {
                    seg_ord = addr.segment_ord;
                    let seg = searcher.segment_reader(seg_ord);
                    title = Stems::open(seg, f.title, &v.stems);
                    body = Stems::open(seg, f.body, &v.stems);
                }
                in_title[ci * groups + gi] |= title.positions(addr.doc_id, &mut pos);
                if body.positions(addr.doc_id, &mut pos) {
                    marks[ci].extend(pos.iter().map(|&p| (p, gi)));
                }
            }
        }
    }
    let mut count = vec![0u32; groups];
    let guessed = plan.groups.iter().filter(|g| g.fuzzy).count();
    for (ci, c) in cands.iter_mut().enumerate() {
        let mine = &mut marks[ci];
        mine.sort_unstable();
        let titled = |gi: usize| in_title[ci * groups + gi];
        let anywhere = |gi: usize| titled(gi) || mine.iter().any(|m| m.1 == gi);
        let covers = |gi: usize| plan.groups[gi].covers();
        let covered: f32 = (0..groups).filter(|&gi| anywhere(gi)).map(covers).sum();
        let (best, in_best) = best_window(mine, covers, &mut count);
        let title_only: f32 = (0..groups)
            .filter(|&gi| titled(gi) && !in_best.contains(&gi))
            .map(covers)
            .sum();
        let answer = best + TITLE_SHARE * title_only;
        let untitled = |gi: usize| if titled(gi) { 0.0 } else { covers(gi) };
        let (plain, _) = best_window(mine, untitled, &mut count);
        c.title_groups = (0..groups.min(64))
            .filter(|&gi| titled(gi))
            .fold(0, |m, gi| m | 1 << gi);
        c.passage_groups = in_best
            .iter()
            .filter(|&&gi| gi < 64)
            .fold(0, |m, gi| m | 1 << gi);
        c.cover = (covered / total).min(1.0);
        c.answer = (answer / total).min(1.0);
        // Whether the question is answered at all: a title holding words of
        // it counts in full (a heading names its subject).
        c.titled = (best + title_only - plain).max(0.0) / total;
        c.gate = ((best + title_only) / total).min(1.0);
        c.anchored =
            (0..groups).any(|gi| plan.groups[gi].anchor && (titled(gi) || in_best.contains(&gi)));
        // One word the index lacks may be a typo; two or more are words of
        // something else ("shuffle songs on spotify"): their close words
        // answer nothing.
        if guessed >= 2 {
            let close: f32 = (0..groups)
                .filter(|&gi| plan.groups[gi].fuzzy && (titled(gi) || in_best.contains(&gi)))
                .map(covers)
                .sum();
            c.gate = (c.gate - close / total).max(0.0);
        }
        // A question of several words none of which the index holds as
        // written (only close words) is not about these games.
        let exact = (0..groups).any(|gi| anywhere(gi) && !plan.groups[gi].fuzzy);
        if groups > 1 && !exact {
            c.gate = 0.0;
        }
        if covered > 0.0 {
            // The first pass scaled by the share covered anywhere; what counts is
            // the share the best passage answers, with the title's help.
            let together = (answer / covered).min(1.0);
            c.score *= SCATTERED + (1.0 - SCATTERED) * together.powf(GAMMA);
        }
    }
}

/// The largest total weight of distinct groups within [`PASSAGE`] words, and
/// those groups. `count` has an entry per group, each 0, and is left so.
fn best_window(
    marks: &[(u32, usize)],
    weight: impl Fn(usize) -> f32,
    count: &mut [u32],
) -> (f32, Vec<usize>) {
    let (mut sum, mut best, mut lo, mut best_at) = (0.0f32, 0.0f32, 0, (0, 0));
    for hi in 0..marks.len() {
        let (p, g) = marks[hi];
        if count[g] == 0 {
            sum += weight(g);
        }
        count[g] += 1;
        while marks[lo].0 + PASSAGE < p {
            let lg = marks[lo].1;
            count[lg] -= 1;
            if count[lg] == 0 {
                sum -= weight(lg);
            }
            lo += 1;
        }
        if sum > best {
            (best, best_at) = (sum, (lo, hi + 1));
        }
    }
    for &(_, g) in &marks[lo..] {
        count[g] = 0;
    }
    let mut groups: Vec<usize> = marks[best_at.0..best_at.1].iter().map(|m| m.1).collect();
    groups.sort_unstable();
    groups.dedup();
    (best, groups)
}

/// Spread the first [`TOP`] hits across games: a game with a good hit (at
/// least [`DIVERSE_SHARE`] of the best score) but none among the first ones
/// gets its best hit moved up to the last of those places.
pub fn diversify(hits: &mut Vec<Ranked>) {
    let Some(best) = hits.first().map(|h| h.score) else {
        return;
    };
    for _ in Game::ALL {
        let top = TOP.min(hits.len());
        let shown: Vec<usize> = hits[..top].iter().map(|h| h.game).collect();
        let Some(i) = hits
            .iter()
            .enumerate()
            .skip(top)
            .find(|(_, h)| !shown.contains(&h.game) && h.score >= best * DIVERSE_SHARE)
            .map(|(i, _)| i)
        else {
            return;
        };
        // Replace the last place held by a game shown more than once.
        let Some(slot) = (0..top)
            .rev()
            .find(|&j| shown.iter().filter(|&&g| g == hits[j].game).count() > 1)
        else {
            return;
        };
        let moved = hits.remove(i);
        hits.insert(slot, moved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_window_counts_distinct_groups_close_together() {
        let w = |g: usize| [1.0, 2.0, 4.0][g];
        let marks = [(0, 0), (5, 1), (100, 0), (110, 1), (120, 2), (300, 2)];
        // One count serves every call: each leaves it as it found it.
        let mut count = [0; 3];
        assert_eq!(best_window(&marks, w, &mut count), (7.0, vec![0, 1, 2]));
        assert_eq!(count, [0; 3]);
        assert_eq!(best_window(&[(0, 0), (0, 0)], w, &mut count).0, 1.0);
        assert_eq!(best_window(&[], w, &mut count).0, 0.0);
        assert_eq!(count, [0; 3]);
    }

    fn r(score: f32, game: usize) -> Ranked {
        Ranked {
            score,
            ord: 0,
            rank: 0,
            addr: DocAddress::new(0, 0),
            game,
            about_a_card: false,
            card_text: false,
            kind_rule: true,
            title_groups: 0,
            passage_groups: 0,
            cover: 1.0,
            answer: 1.0,
            titled: 0.0,
            anchored: true,
            gate: 1.0,
        }
    }

    #[test]
    fn diversify_moves_up_another_game() {
        let mut hits = vec![
            r(10.0, 0),
            r(9.0, 0),
            r(8.0, 0),
            r(7.0, 0),
            r(6.0, 0),
            r(5.0, 2),
            r(1.0, 1),
        ];
        diversify(&mut hits);
        let games: Vec<usize> = hits.iter().map(|h| h.game).collect();
        assert_eq!(games, [0, 0, 0, 0, 2, 0, 1]);
    }
}
