//! Ranking beyond one tantivy pass: which game a question is about when no
//! game is given, how well the best passage of each candidate answers it, the
//! threshold below which nothing is an answer, and spreading the first hits
//! across games when the question does not say which game it means.

use super::query::{GAMMA, Plan};
use super::schema::Fields;
use super::scorer::{Priors, TermPositions, TermWeights, lock};
use crate::rulebook::Game;
use std::sync::Arc;
use tantivy::SegmentReader;
use tantivy::postings::{Postings, SegmentPostings};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocAddress, DocId, DocSet, Searcher, TERMINATED, Term};

/// A document covering less than this share of the query's weight is no answer.
pub const MIN_COVER: f32 = 0.4;
/// Once one document is an answer, others covering this share are shown too.
pub const MIN_COVER_FOLLOWING: f32 = 0.25;
/// Width, in words, of the passage the words of a question should fall in.
const PASSAGE: u32 = 40;
/// Score share kept by a document whose matched words are all far apart.
const SCATTERED: f32 = 0.3;
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
    /// Share of the query's weight the document covers (title or body).
    pub cover: f32,
}

/// Score factors per game inferred from the question's words, and whether the
/// inference is clear. Each word votes by how much more often rulebook
/// sections of one game use it than those of the others, weighted by its rarity.
pub fn game_prior(
    searcher: &Searcher,
    f: &Fields,
    plan: &Plan,
    weights: &TermWeights,
    priors: &Priors,
    sections: u32,
) -> ([f32; 3], bool) {
    let Some(totals) = priors.game_totals(sections) else {
        return ([1.0; 3], false);
    };
    let mut evidence = [0.0f32; 3];
    for g in plan
        .groups
        .iter()
        .filter(|g| g.variants[0].stems.len() == 1)
    {
        let stem = &g.variants[0].stems[0];
        let counts = stem_games(searcher, f, weights, stem, sections);
        let p: Vec<f32> = (0..3)
            .map(|i| (counts[i] as f32 + 0.5) / (totals[i] as f32 + 1.0))
            .collect();
        let sum: f32 = p.iter().sum();
        for i in 0..3 {
            evidence[i] += g.weight * (3.0 * p[i] / sum).ln();
        }
    }
    let max = evidence.iter().copied().fold(f32::MIN, f32::max);
    let exp: Vec<f32> = evidence.iter().map(|e| ((e - max) * 0.5).exp()).collect();
    let sum: f32 = exp.iter().sum();
    let prob: Vec<f32> = exp.iter().map(|e| e / sum).collect();
    let top = prob.iter().copied().fold(0.0, f32::max);
    let mut factor = [1.0; 3];
    for i in 0..3 {
        factor[i] = OTHER_GAME + (1.0 - OTHER_GAME) * prob[i] / top;
    }
    (factor, top >= CLEAR_GAME)
}

/// Rulebook sections per game whose body holds `stem`, counted once per index.
fn stem_games(
    searcher: &Searcher,
    f: &Fields,
    weights: &TermWeights,
    stem: &str,
    sections: u32,
) -> [u32; 3] {
    let held = || lock(&weights.games);
    if let Some(c) = held().get(stem) {
        return *c;
    }
    let mut counts = [0u32; 3];
    if let Some(seg) = searcher.segment_readers().first()
        && let Ok(col) = seg.fast_fields().u64("game_ord")
        && let Ok(inv) = seg.inverted_index(f.body)
        && let Ok(Some(mut postings)) = inv.read_postings(
            &Term::from_field_text(f.body, stem),
            IndexRecordOption::Basic,
        )
    {
        let mut doc = postings.doc();
        while doc != TERMINATED && doc < sections {
            if let Some(g) = col.first(doc) {
                counts[(g as usize).min(2)] += 1;
            }
            doc = postings.advance();
        }
    }
    held().insert(stem.to_string(), counts);
    counts
}

/// Second pass over the candidates: each one's covered share of the query, and
/// a score scaled down when its matched words are scattered rather than
/// together in one passage. Re-sorts the candidates.
pub fn refine(
    searcher: &Searcher,
    weights: &TermWeights,
    f: &Fields,
    plan: &Plan,
    cands: &mut [Ranked],
) {
    let total = plan.total_weight().max(f32::EPSILON);
    let groups = plan.groups.len();
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by_key(|&i| (cands[i].addr.segment_ord, cands[i].addr.doc_id));
    // Per (candidate, group): whether the group is in the title, and whether
    // anywhere; the body positions of every candidate in one list, as
    // (candidate, position, group), so no list is grown per candidate.
    let mut in_title = vec![false; cands.len() * groups];
    let mut anywhere = vec![false; cands.len() * groups];
    let mut marks: Vec<u64> = Vec::new();
    for (gi, g) in plan.groups.iter().enumerate() {
        for v in &g.variants {
            locate(
                searcher,
                weights,
                f,
                &v.stems,
                cands,
                &order,
                &mut |ci, title, pos| {
                    in_title[ci * groups + gi] |= title;
                    anywhere[ci * groups + gi] = true;
                    marks.extend(pos.iter().map(|&p| mark(ci, p, gi)));
                },
            );
        }
    }
    // Sorted as one list would sort them, by candidate first: put in each
    // candidate's place, then each candidate's few sorted.
    let mut starts = vec![0usize; cands.len() + 1];
    for &m in &marks {
        starts[unmark(m).0 + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut sorted = vec![0u64; marks.len()];
    let mut next = starts.clone();
    for &m in &marks {
        let ci = unmark(m).0;
        sorted[next[ci]] = m;
        next[ci] += 1;
    }
    let mut window: Vec<(u32, usize)> = Vec::new();
    let mut count = vec![0u32; groups];
    for (ci, c) in cands.iter_mut().enumerate() {
        let mine = &mut sorted[starts[ci]..starts[ci + 1]];
        // Each variant's marks are already in order: a stable sort merges those runs.
        mine.sort();
        let (mut covered, mut title_weight) = (0.0, 0.0);
        for (gi, g) in plan.groups.iter().enumerate() {
            if anywhere[ci * groups + gi] {
                covered += g.weight;
            }
            if in_title[ci * groups + gi] {
                title_weight += g.weight;
            }
        }
        // Words of groups found in the title are not looked for in a passage.
        window.clear();
        window.extend(
            mine.iter()
                .map(|&m| unmark(m))
                .filter(|m| !in_title[ci * groups + m.2])
                .map(|m| (m.1, m.2)),
        );
        let best = best_window(&window, |gi| plan.groups[gi].weight, &mut count);
        c.cover = (covered / total).min(1.0);
        if covered > 0.0 {
            // The first pass scaled by the share covered anywhere; what counts is
            // the share covered by the title and the best passage.
            let together = ((title_weight + best) / covered).min(1.0);
            c.score *= SCATTERED + (1.0 - SCATTERED) * together.powf(GAMMA);
        }
    }
}

/// Bits of a mark for the group, and for the position above them.
const GROUP_BITS: u32 = 20;
const POSITION_BITS: u32 = 32;

/// A body position of a group's word in a candidate as one number that sorts
/// by candidate, then position, then group (a plain integer sort, cheaper
/// than sorting tuples). Candidates are fewer than 2^12, groups than 2^20.
fn mark(candidate: usize, position: u32, group: usize) -> u64 {
    ((candidate as u64) << (POSITION_BITS + GROUP_BITS))
        | (u64::from(position) << GROUP_BITS)
        | group as u64
}

/// The candidate, position and group of a [`mark`].
fn unmark(m: u64) -> (usize, u32, usize) {
    (
        (m >> (POSITION_BITS + GROUP_BITS)) as usize,
        (m >> GROUP_BITS) as u32,
        (m & ((1 << GROUP_BITS) - 1)) as usize,
    )
}

/// The largest total weight of distinct groups within [`PASSAGE`] words.
/// `count` has an entry per group, each 0, and is left so.
fn best_window(marks: &[(u32, usize)], weight: impl Fn(usize) -> f32, count: &mut [u32]) -> f32 {
    let (mut sum, mut best, mut lo) = (0.0f32, 0.0f32, 0);
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
        best = best.max(sum);
    }
    for &(_, g) in &marks[lo..] {
        count[g] = 0;
    }
    best
}

/// Where a stem stands in each document: decoded and kept (with a cursor, as
/// documents are asked in ascending order), or read from its posting list as
/// stored (on the stem's first use, see `TermWeights::second_use`).
enum Positions {
    Kept(Arc<TermPositions>, usize),
    Stored(Box<SegmentPostings>),
}

impl Positions {
    fn open(weights: &TermWeights, seg: &SegmentReader, term: &Term) -> Option<Positions> {
        match weights.positions(seg, term) {
            Some(kept) => kept.map(|p| Positions::Kept(p, 0)),
            None => {
                let inv = seg.inverted_index(term.field()).ok()?;
                let option = IndexRecordOption::WithFreqsAndPositions;
                let p = inv.read_postings(term, option).ok()??;
                Some(Positions::Stored(Box::new(p)))
            }
        }
    }

    /// Whether `doc` holds the stem (documents are asked in ascending order).
    fn holds(&mut self, doc: DocId) -> bool {
        match self {
            Positions::Kept(p, at) => p.in_doc_from(doc, at).is_some(),
            Positions::Stored(p) => on_doc(p, doc),
        }
    }

    /// Into `out`, where the stem stands in `doc`; `false` when `doc` lacks it.
    fn in_doc(&mut self, doc: DocId, out: &mut Vec<u32>) -> bool {
        match self {
            Positions::Kept(p, at) => match p.in_doc_from(doc, at) {
                Some(here) => {
                    out.clear();
                    out.extend_from_slice(here);
                    true
                }
                None => false,
            },
            Positions::Stored(p) => {
                if !on_doc(p, doc) {
                    return false;
                }
                p.positions(out);
                true
            }
        }
    }
}

/// Whether `p` holds `doc` (moving it there when it is behind).
fn on_doc(p: &mut SegmentPostings, doc: DocId) -> bool {
    if p.doc() < doc {
        p.seek(doc);
    }
    p.doc() == doc
}

/// Call `each(candidate, in_title, body positions)` for every candidate holding
/// the stem (or the phrase of stems) in its title or body.
fn locate(
    searcher: &Searcher,
    weights: &TermWeights,
    f: &Fields,
    stems: &[String],
    cands: &[Ranked],
    order: &[usize],
    each: &mut dyn FnMut(usize, bool, &[u32]),
) {
    let mut seg_ord = u32::MAX;
    let mut title: Vec<Option<Positions>> = Vec::new();
    let mut body: Vec<Option<Positions>> = Vec::new();
    let (mut pos, mut scratch) = (Vec::new(), Vec::new());
    for &ci in order {
        let addr = cands[ci].addr;
        if addr.segment_ord != seg_ord {
            seg_ord = addr.segment_ord;
            let seg = searcher.segment_reader(seg_ord);
            let open = |field| -> Vec<Option<Positions>> {
                let mut term = Term::from_field_text(field, "");
                stems
                    .iter()
                    .map(|s| {
                        term.set_bytes(s.as_bytes());
                        Positions::open(weights, seg, &term)
                    })
                    .collect()
            };
            title = open(f.title);
            body = open(f.body);
        }
        let doc = addr.doc_id;
        let in_title = if stems.len() == 1 {
            title
                .first_mut()
                .and_then(Option::as_mut)
                .is_some_and(|p| p.holds(doc))
        } else {
            phrase_positions(&mut title, doc, &mut pos, &mut scratch) && !pos.is_empty()
        };
        // One stem with kept positions: they are handed on as they are.
        if let [Some(Positions::Kept(p, at))] = body.as_mut_slice() {
            let here = p.in_doc_from(doc, at).unwrap_or_default();
            if in_title || !here.is_empty() {
                each(ci, in_title, here);
            }
            continue;
        }
        if !phrase_positions(&mut body, doc, &mut pos, &mut scratch) {
            pos.clear();
        }
        if in_title || !pos.is_empty() {
            each(ci, in_title, &pos);
        }
    }
}

/// Into `out`, the positions in `doc` where the stems stand in order, one after
/// another (for one stem, where it stands); `false` when a stem is absent.
fn phrase_positions(
    lists: &mut [Option<Positions>],
    doc: DocId,
    out: &mut Vec<u32>,
    scratch: &mut Vec<u32>,
) -> bool {
    out.clear();
    if lists.is_empty() {
        return false;
    }
    for (i, list) in lists.iter_mut().enumerate() {
        let Some(list) = list.as_mut() else {
            return false;
        };
        if i == 0 {
            if !list.in_doc(doc, out) {
                out.clear();
                return false;
            }
        } else {
            if !list.in_doc(doc, scratch) {
                return false;
            }
            out.retain(|&q| scratch.binary_search(&(q + i as u32)).is_ok());
        }
    }
    true
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
    fn marks_sort_by_candidate_then_position() {
        let mut m = [mark(1, 0, 3), mark(0, 7, 1), mark(0, 7, 0), mark(0, 2, 9)];
        m.sort_unstable();
        let back: Vec<_> = m.iter().map(|&x| unmark(x)).collect();
        assert_eq!(back, [(0, 2, 9), (0, 7, 0), (0, 7, 1), (1, 0, 3)]);
        assert_eq!(unmark(mark(999, u32::MAX, 5)), (999, u32::MAX, 5));
    }

    #[test]
    fn best_window_counts_distinct_groups_close_together() {
        let w = |g: usize| [1.0, 2.0, 4.0][g];
        let marks = [(0, 0), (5, 1), (100, 0), (110, 1), (120, 2), (300, 2)];
        // One count serves every call: each leaves it as it found it.
        let mut count = [0; 3];
        assert_eq!(best_window(&marks, w, &mut count), 7.0);
        assert_eq!(count, [0; 3]);
        assert_eq!(best_window(&[(0, 0), (0, 0)], w, &mut count), 1.0);
        assert_eq!(best_window(&[], w, &mut count), 0.0);
        assert_eq!(count, [0; 3]);
    }

    fn r(score: f32, game: usize) -> Ranked {
        Ranked {
            score,
            ord: 0,
            rank: 0,
            addr: DocAddress::new(0, 0),
            game,
            cover: 1.0,
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
