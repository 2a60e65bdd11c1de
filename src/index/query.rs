//! From a judge's plain words to a tantivy query, built programmatically so
//! quotes, colons and parentheses are just punctuation, never syntax.
//!
//! - Each content word becomes a group: its stem plus the stems of its
//!   synonyms (classes of equivalent words, so every synonym finds every
//!   other), searched in the titles (boosted) and the body; a document's score
//!   for the group is the best of those plus a little of the rest (BM25).
//! - Terms of art that need their small words ("at any time", "up to", "once
//!   per") and capitalised names ("Rule of Four") also become phrase groups.
//! - Each group weighs its inverse document frequency; a document's score is
//!   scaled by the share of that weight it covers (see [`Cover`]), so matching
//!   most of the question beats repeating one word of it.
//! - Two neighbouring words found next to each other add a bonus.
//! - Common function words ("can", "the", "my") are dropped unless nothing else
//!   is left; negations and modals ("not", "cannot", "never", "only", "must")
//!   are kept. A word the index does not know is matched fuzzily.

use super::ix_err;
use super::schema::{DocKind, Fields};
use super::scorer::{CachedPhrase, CachedTerm, Cover, DisMax, Leaf, TermWeights, lock};
use super::text;
use super::text::{FastMap, pair_token};
use crate::error::Result;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::OnceLock;
use tantivy::query::{Bm25StatisticsProvider, Query};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Searcher, Term};

const TITLE_BOOST: f32 = 2.0;
const BODY_BOOST: f32 = 1.0;
const SYNONYM_WEIGHT: f32 = 0.7;
const FUZZY_WEIGHT: f32 = 0.8;
const TIE_BREAKER: f32 = 0.25;
/// Bonus for two neighbouring query words found next to each other, or one
/// word apart ("reserve deck", "reserve the deck").
const PAIR_BOOST: f32 = 2.0;
/// Share of its weight a number keeps.
const NUMBER_WEIGHT: f32 = 0.25;
/// Exponent of the covered share of the query's weight (see [`Cover`]).
pub const GAMMA: f32 = 2.0;

/// Words that carry no meaning for a rules search, sorted, of at most seven bytes.
/// Negations and modals that change a ruling (not, cannot, never, only, must,
/// may, no) are deliberately absent.
const STOP_WORDS: &[&str] = &[
    "a", "about", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can",
    "could", "did", "do", "does", "doing", "for", "from", "get", "gets", "happen", "happens",
    "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "many", "me", "mean",
    "means", "much", "my", "of", "on", "or", "our", "should", "so", "that", "the", "their", "them",
    "then", "there", "these", "they", "this", "those", "to", "was", "we", "were", "what", "when",
    "where", "which", "who", "why", "will", "with", "work", "works", "would", "you", "your",
];

/// Terms of art that keep their small words; each is also searched as a phrase.
const TERMS_OF_ART: &[&[&str]] = &[
    &["at", "any", "time"],
    &["up", "to"],
    &["once", "per"],
    &["in", "play"],
    &["out", "of", "play"],
    &["at", "the", "start", "of"],
    &["at", "the", "end", "of"],
    &["instead", "of"],
    &["for", "each"],
    &["at", "least"],
    &["more", "than"],
    &["less", "than"],
    &["one", "at", "a", "time"],
    &["on", "top", "of"],
    &["at", "the", "same", "time"],
    &["in", "front", "of"],
];

/// Classes of words that mean the same at the table: any word of a class also
/// searches every other word of it (at a lower weight), and a member of
/// several words found in a question is searched as one meaning (the phrase
/// or any other member). Stemming already covers plurals and most verb forms.
const SYNONYMS: &[&[&str]] = &[
    &["dice", "die"],
    &["roll", "reroll"],
    &["hp", "health"],
    &["respond", "response"],
    &["win", "winning", "victory", "won"],
    &["lose", "losing", "loss"],
    &["early", "prematurely", "premature"],
    &["kill", "killed", "defeat", "defeated"],
    &["discard", "discarded"],
    &["shuffle", "reshuffle"],
    &["unique", "uniqueness"],
    &["fight", "battle"],
    &["ship", "starship"],
    &[
        "empty",
        "depleted",
        "run out",
        "runs out",
        "ran out",
        "no cards left",
        "no more cards",
    ],
    &["illegal", "not allowed", "not legal", "not permitted"],
    &["multiple", "multi", "more than one", "several"],
    &["turn", "round"],
    &["money", "resources"],
    &["swap", "switch", "replace", "exchange"],
    &["travel", "move", "movement"],
    &["redraw", "mulligan"],
    &["sideways", "tap", "exhaust", "exhausted", "tapped"],
    &["opening", "starting"],
    &["beginning", "start"],
    &["twice", "again", "once"],
    &["put", "place", "placing"],
    &["under", "beneath", "underneath"],
    &["pick", "choose", "select"],
    &["cancel", "negate", "prevent"],
    &["hand", "cards in hand"],
    &["two", "2"],
    &["three", "3"],
    &["four", "4"],
    &["five", "5"],
    &["six", "6"],
    &["seven", "7"],
    &["eight", "8"],
    &["nine", "9"],
    &["ten", "10"],
];

/// One search alternative of a group: a single stem, or a phrase of stems.
#[derive(Debug, Clone)]
pub struct Variant {
    pub stems: Vec<String>,
    weight: f32,
    /// Whether the stem (every stem of a phrase) occurs in the index.
    known: bool,
}

/// One meaning of the query: a word with its synonyms, or a phrase.
#[derive(Debug, Clone)]
pub struct Group {
    /// The word's own stem (or the phrase) first, then its synonyms.
    pub variants: Vec<Variant>,
    /// Its share of the query: inverse document frequency.
    pub weight: f32,
}

impl Group {
    /// Whether the word itself (not a synonym) occurs in the index.
    fn known(&self) -> bool {
        self.variants[0].known
    }

    fn is_phrase(&self) -> bool {
        self.variants[0].stems.len() > 1
    }
}

/// The analysed query, ready to become a tantivy query.
#[derive(Debug, Clone)]
pub struct Plan {
    pub groups: Vec<Group>,
}

/// One word of the query: lower case, its stem, and whether it was capitalised.
struct Word {
    lower: String,
    stem: String,
    capital: bool,
}

/// Whether `w` is a stop word. Called for every word indexed, so a word is
/// compared as one number (see [`packed`]).
pub fn is_stop(w: &str) -> bool {
    static PACKED: OnceLock<Vec<u64>> = OnceLock::new();
    let Some(p) = packed(w) else {
        return false;
    };
    PACKED
        .get_or_init(|| {
            let mut all: Vec<u64> = STOP_WORDS.iter().filter_map(|s| packed(s)).collect();
            all.sort_unstable();
            all
        })
        .binary_search(&p)
        .is_ok()
}

/// A word of at most seven bytes as one number: its bytes, then its length
/// in the last byte (so no two words share a number); `None` when longer.
fn packed(w: &str) -> Option<u64> {
    let b = w.as_bytes();
    let mut bytes = [0u8; 8];
    bytes
        .get_mut(..b.len())
        .filter(|_| b.len() < 8)?
        .copy_from_slice(b);
    bytes[7] = b.len() as u8;
    Some(u64::from_le_bytes(bytes))
}

/// A lone letter: the "s" of "Obi-Wan's" when typed without the apostrophe.
fn is_letter(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(char::is_alphabetic) && chars.next().is_none()
}

fn split(text: &str, analyzer: &mut TextAnalyzer) -> Vec<Word> {
    use tantivy::tokenizer::{TokenStream, Tokenizer};
    let mut tok = text::WordTokenizer::default();
    let mut stream = tok.token_stream(text);
    let mut out = Vec::new();
    while stream.advance() {
        let t = stream.token();
        let raw = text.get(t.offset_from..t.offset_to).unwrap_or("");
        let lower = t.text.to_lowercase();
        let stem = text::first_stem(analyzer, &lower).unwrap_or_else(|| lower.clone());
        out.push(Word {
            capital: raw.chars().next().is_some_and(char::is_uppercase),
            lower,
            stem,
        });
    }
    out
}

/// Phrases of the query: terms of art, and runs of capitalised words (with
/// small linking words) that name something, as word index ranges, each with
/// whether it is a name.
fn phrases(words: &[Word]) -> Vec<(std::ops::Range<usize>, bool)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let hit = TERMS_OF_ART
            .iter()
            .filter(|t| {
                t.len() <= words.len() - i && t.iter().zip(&words[i..]).all(|(a, w)| *a == w.lower)
            })
            .map(|t| t.len())
            .max();
        if let Some(n) = hit {
            out.push((i..i + n, false));
            i += n;
        } else {
            i += 1;
        }
    }
    // Capitalised names: not when every word is capitalised (a title-case question).
    if words.iter().all(|w| w.capital) {
        return out;
    }
    let linking = |w: &Word| matches!(w.lower.as_str(), "of" | "the" | "a" | "and" | "to");
    let mut i = 1; // the first word is capitalised as a sentence start
    while i < words.len() {
        if !words[i].capital {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i + 1;
        while end < words.len() {
            if words[end].capital {
                end += 1;
            } else if linking(&words[end]) && words.get(end + 1).is_some_and(|w| w.capital) {
                end += 2;
            } else {
                break;
            }
        }
        if words[start..end].iter().filter(|w| w.capital).count() >= 2 {
            out.push((start..end, true));
        }
        i = end;
    }
    out
}

/// The members of synonym class `ci` as stems (a single stem or a phrase of
/// stems each), stemmed the first time a query may need that class: a one-off
/// search stems the few classes its words could belong to, not all of them.
fn class_stems(ci: usize) -> &'static [Vec<String>] {
    static CLASSES: OnceLock<Vec<OnceLock<Vec<Vec<String>>>>> = OnceLock::new();
    let cells = CLASSES.get_or_init(|| SYNONYMS.iter().map(|_| OnceLock::new()).collect());
    cells[ci].get_or_init(|| {
        let mut analyzer = text::analyzer();
        let mut members: Vec<Vec<String>> = Vec::new();
        for w in SYNONYMS[ci] {
            let stems = text::stems(&mut analyzer, w);
            if !stems.is_empty() && !members.contains(&stems) {
                members.push(stems);
            }
        }
        members
    })
}

/// Letters a stem keeps from the start of its word: the English stemmer only
/// rewrites endings ("dying" → "die" keeps two), so a word can stem to `stem`
/// only when they begin alike (checked for every class word by a test).
const STEM_KEEPS: usize = 2;

/// Whether a word of `member` could stem to `stem` (a cheap test before stemming).
fn may_stem_to(member: &str, stem: &str) -> bool {
    member.split_whitespace().any(|w| {
        let n = STEM_KEEPS.min(w.len()).min(stem.len());
        w.as_bytes()[..n].eq_ignore_ascii_case(&stem.as_bytes()[..n])
    })
}

/// The classes with a word beginning with each byte (lower case): where a stem
/// beginning with it may belong.
fn classes_by_first_byte() -> &'static [Vec<usize>] {
    static BY_BYTE: OnceLock<Vec<Vec<usize>>> = OnceLock::new();
    BY_BYTE.get_or_init(|| {
        let mut by: Vec<Vec<usize>> = vec![Vec::new(); 256];
        for (ci, class) in SYNONYMS.iter().enumerate() {
            for w in class.iter().flat_map(|m| m.split_whitespace()) {
                let b = &mut by[usize::from(w.as_bytes()[0].to_ascii_lowercase())];
                if b.last() != Some(&ci) {
                    b.push(ci);
                }
            }
        }
        by
    })
}

/// The classes with a word of two bytes or more beginning with each two
/// (lower case) or a word of one byte, the first of them; and the classes
/// with a word of one byte, by that byte.
struct ClassStarts {
    two: FastMap<[u8; 2], Vec<usize>>,
    one: Vec<Vec<usize>>,
}

fn class_starts() -> &'static ClassStarts {
    static STARTS: OnceLock<ClassStarts> = OnceLock::new();
    STARTS.get_or_init(|| {
        let mut starts = ClassStarts {
            two: FastMap::default(),
            one: vec![Vec::new(); 256],
        };
        for (ci, class) in SYNONYMS.iter().enumerate() {
            for w in class.iter().flat_map(|m| m.split_whitespace()) {
                let list = match *w.as_bytes() {
                    [a] => &mut starts.one[usize::from(a.to_ascii_lowercase())],
                    [a, b, ..] => starts
                        .two
                        .entry([a.to_ascii_lowercase(), b.to_ascii_lowercase()])
                        .or_default(),
                    [] => continue,
                };
                if list.last() != Some(&ci) {
                    list.push(ci);
                }
            }
        }
        // A stem's two first bytes give the classes of both lists.
        for (&[a, _], list) in &mut starts.two {
            list.extend(&starts.one[usize::from(a)]);
            list.sort_unstable();
            list.dedup();
        }
        starts
    })
}

/// The classes that may hold `stem` (a word of them may stem to it, see
/// [`may_stem_to`]), in class order, with their members as stems.
fn classes_with(stem: &str) -> impl Iterator<Item = &'static [Vec<String>]> {
    let ids: std::borrow::Cow<'static, [usize]> = class_ids(stem);
    (0..ids.len()).map(move |i| class_stems(ids[i]))
}

/// The indices of the classes [`classes_with`] gives, in order.
fn class_ids(stem: &str) -> std::borrow::Cow<'static, [usize]> {
    match *stem.as_bytes() {
        [] => std::borrow::Cow::Borrowed(&[]),
        [a] => classes_by_first_byte()[usize::from(a.to_ascii_lowercase())]
            .iter()
            .copied()
            .filter(|&ci| SYNONYMS[ci].iter().any(|m| may_stem_to(m, stem)))
            .collect(),
        [a, b, ..] => {
            let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
            let starts = class_starts();
            std::borrow::Cow::Borrowed(match starts.two.get(&[a, b]) {
                Some(both) => both,
                None => &starts.one[usize::from(a)],
            })
        }
    }
}

/// The other members of the synonym classes `stem` belongs to (single stems
/// or phrases of stems).
fn synonym_stems(stem: &str) -> Vec<Vec<String>> {
    let own = [stem.to_string()];
    let mut out: Vec<Vec<String>> = Vec::new();
    for members in classes_with(stem) {
        if !members.iter().any(|m| m[..] == own) {
            continue;
        }
        for o in members {
            if o[..] != own && !out.contains(o) {
                out.push(o.clone());
            }
        }
    }
    out
}

/// Synonyms of several words found in the query ("not allowed", "more than
/// one"), longest first, without overlaps: each as its word range and the
/// other members of its class.
fn synonym_phrases(words: &[Word]) -> Vec<(std::ops::Range<usize>, Vec<Vec<String>>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let mut best: Option<(&[String], &[Vec<String>])> = None;
        for members in classes_with(&words[i].stem) {
            for p in members.iter().filter(|p| {
                p.len() > 1
                    && p.len() <= words.len() - i
                    && p.iter().zip(&words[i..]).all(|(a, w)| *a == w.stem)
            }) {
                if best.is_none_or(|(b, _)| p.len() > b.len()) {
                    best = Some((p, members));
                }
            }
        }
        match best {
            Some((p, members)) => {
                let others = members.iter().filter(|m| m[..] != *p).cloned().collect();
                out.push((i..i + p.len(), others));
                i += p.len();
            }
            None => i += 1,
        }
    }
    out
}

/// Words that negate the word after them: with one of them, "piloted" also
/// searches "unpiloted".
fn is_negator(w: &str) -> bool {
    matches!(
        w,
        "not" | "no" | "nobody" | "never" | "without" | "none" | "cannot" | "nothing"
    )
}

/// Inverse document frequency, as BM25 computes it.
fn idf(df: u64, n: u64) -> f32 {
    let (df, n) = (df as f32, n.max(1) as f32);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// Analyse `text` with the index's analyzer and look its words up.
pub fn plan(
    text: &str,
    analyzer: &mut TextAnalyzer,
    stats: &Stats<'_>,
    f: &Fields,
    cache: &TermWeights,
) -> Result<Plan> {
    let words = split(text, analyzer);
    let n = stats.total_num_docs().map_err(ix_err)?;
    // One term per field, its text set for each stem looked up.
    let scratch = RefCell::new([f.body, f.title].map(|field| Term::from_field_text(field, "")));
    let df = |stem: &str| -> Result<u64> {
        let mut best = 0;
        for term in scratch.borrow_mut().iter_mut() {
            term.set_bytes(stem.as_bytes());
            best = best.max(stats.doc_freq(term).map_err(ix_err)?);
        }
        Ok(best)
    };
    let synonyms = synonym_phrases(&words);
    let in_synonym = |i: usize| synonyms.iter().any(|(r, _)| r.contains(&i));
    let content: Vec<usize> = (0..words.len())
        .filter(|&i| !in_synonym(i) && !is_stop(&words[i].lower) && !is_letter(&words[i].lower))
        .collect();
    let chosen: Vec<usize> = if content.is_empty() && synonyms.is_empty() {
        (0..words.len()).collect()
    } else {
        content
    };
    let mut groups: Vec<Group> = Vec::new();
    for i in chosen {
        let w = &words[i];
        if groups
            .iter()
            .any(|g| g.variants[0].stems == [w.stem.clone()])
        {
            continue;
        }
        let own = df(&w.stem)?;
        let mut variants = vec![Variant {
            stems: vec![w.stem.clone()],
            weight: 1.0,
            known: own > 0,
        }];
        for s in synonym_stems(&w.stem) {
            variants.push(variant(s.clone(), SYNONYM_WEIGHT, &df)?);
        }
        // "nobody piloting" means "unpiloted": the negation and the word are
        // one meaning, found whole in the negated form.
        let mut weight = idf(own, n);
        if let Some(neg) = (i.saturating_sub(2)..i)
            .rev()
            .find(|&j| is_negator(&words[j].lower))
        {
            let un = text::stems(analyzer, &format!("un{}", w.lower));
            if un.len() == 1 && df(&un[0])? > 0 {
                variants.push(variant(un, 1.0, &df)?);
                let neg_stem = [words[neg].stem.clone()];
                if let Some(k) = groups.iter().position(|g| g.variants[0].stems == neg_stem) {
                    weight += groups.remove(k).weight;
                }
            }
        }
        // A word the index does not know may be a typo: search the close words it does.
        if own == 0 {
            for s in close_words(stats.searcher, f.body, &w.stem, cache) {
                if !variants.iter().any(|v| v.stems[0] == s) {
                    variants.push(Variant {
                        stems: vec![s],
                        weight: FUZZY_WEIGHT,
                        known: true,
                    });
                }
            }
        }
        // A number ("ability 4") narrows a question but is rarely its subject.
        let number = w.lower.chars().all(|c| c.is_ascii_digit());
        groups.push(Group {
            variants,
            weight: weight * if number { NUMBER_WEIGHT } else { 1.0 },
        });
    }
    weigh_unknown(&mut groups);
    // Synonyms of several words: one group, the phrase or any other member of
    // its class, weighing what the phrase's words weigh.
    for (range, others) in &synonyms {
        let stems: Vec<String> = words[range.clone()]
            .iter()
            .map(|w| w.stem.clone())
            .collect();
        let mut weight = 0.0;
        for w in words[range.clone()].iter().filter(|w| !is_stop(&w.lower)) {
            weight += idf(df(&w.stem)?, n);
        }
        let mut variants = vec![variant(stems, 1.0, &df)?];
        for o in others {
            variants.push(variant(o.clone(), SYNONYM_WEIGHT, &df)?);
        }
        groups.push(Group {
            variants,
            weight: weight.max(idf(n / 10, n)),
        });
    }
    for (range, name) in phrases(&words) {
        if synonyms
            .iter()
            .any(|(r, _)| r.start < range.end && range.start < r.end)
        {
            continue;
        }
        let stems: Vec<String> = words[range.clone()]
            .iter()
            .map(|w| w.stem.clone())
            .collect();
        if stems.len() < 2 {
            continue;
        }
        let known = variant(stems.clone(), 1.0, &df)?.known;
        // A term of art weighs what its content words weigh (at least one rare
        // word); a name twice that, so a document without it covers at most a third.
        let inner: f32 = groups
            .iter()
            .filter(|g| stems.contains(&g.variants[0].stems[0]))
            .map(|g| g.weight)
            .sum();
        let weight = inner.max(idf(n / 10, n)) * if name { 2.0 } else { 1.0 };
        groups.push(Group {
            variants: vec![Variant {
                stems,
                weight: 1.0,
                known,
            }],
            weight,
        });
    }
    Ok(Plan { groups })
}

/// A word the corpus never uses (and no close word stands in for) weighs what
/// the known words weigh on average: it should not decide alone whether a
/// document answers the question.
fn weigh_unknown(groups: &mut [Group]) {
    let known: Vec<f32> = groups
        .iter()
        .filter(|g| g.known())
        .map(|g| g.weight)
        .collect();
    if known.is_empty() {
        return;
    }
    let mean = known.iter().sum::<f32>() / known.len() as f32;
    for g in groups
        .iter_mut()
        .filter(|g| !g.known() && g.variants.len() == 1)
    {
        g.weight = mean;
    }
}

/// A search alternative: known when every one of its stems is in the index.
fn variant(stems: Vec<String>, weight: f32, df: &dyn Fn(&str) -> Result<u64>) -> Result<Variant> {
    let mut known = true;
    for s in &stems {
        known &= df(s)? > 0;
    }
    Ok(Variant {
        stems,
        weight,
        known,
    })
}

/// BM25 collection statistics for one query, each looked up once: the plan
/// already asks for the words' document frequencies, and a query scores the
/// same field and term in several clauses. Same numbers as the searcher's.
pub struct Stats<'a> {
    pub searcher: &'a Searcher,
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
        let held = || lock(&self.freqs.freqs);
        if let Some(&n) = held().get(term) {
            return Ok(n);
        }
        let n = self.searcher.doc_freq(term)?;
        held().insert(term.clone(), n);
        Ok(n)
    }
}

/// Most close words a misspelt word is searched by.
const MAX_CLOSE: usize = 4;

/// Indexed stems within [`fuzzy_distance`] edits of `stem` that begin with
/// its first letter and, unless swapped, its second (a transposition counting
/// as one edit), the commonest first; found once per stem and index.
fn close_words(searcher: &Searcher, field: Field, stem: &str, cache: &TermWeights) -> Vec<String> {
    let held = || lock(&cache.close);
    if let Some(found) = held().get(stem) {
        return found.clone();
    }
    let found = find_close_words(searcher, field, stem);
    held().insert(stem.to_string(), found.clone());
    found
}

fn find_close_words(searcher: &Searcher, field: Field, stem: &str) -> Vec<String> {
    let Some(d) = fuzzy_distance(stem) else {
        return Vec::new();
    };
    let chars: Vec<char> = stem.chars().collect();
    // Prefixes a close word may start with: the first two letters, or the
    // first and third (the second and third swapped or the second dropped).
    let mut prefixes = vec![chars[..2].iter().collect::<String>()];
    prefixes.push([chars[0], chars[2]].iter().collect());
    prefixes.dedup();
    let mut found: Vec<(usize, u32, String)> = Vec::new();
    for seg in searcher.segment_readers() {
        let Ok(inv) = seg.inverted_index(field) else {
            continue;
        };
        for prefix in &prefixes {
            let mut hi = prefix.clone();
            hi.push(char::MAX);
            let Ok(mut stream) = inv.terms().range().ge(prefix).lt(&hi).into_stream() else {
                continue;
            };
            while stream.advance() {
                let Ok(word) = std::str::from_utf8(stream.key()) else {
                    continue;
                };
                if word.len().abs_diff(stem.len()) > usize::from(d) || word == stem {
                    continue;
                }
                let dist = strsim::damerau_levenshtein(word, stem);
                if dist <= usize::from(d) {
                    let df = stream.value().doc_freq;
                    match found.iter_mut().find(|f| f.2 == word) {
                        Some(f) => f.1 += df,
                        None => found.push((dist, df, word.to_string())),
                    }
                }
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    found.into_iter().take(MAX_CLOSE).map(|f| f.2).collect()
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

/// Boost that makes the body pair token of `a` and `b` score as the two-word
/// phrase (slop 1) it stands for: a phrase weighs the sum of its words'
/// inverse document frequencies, a token its own.
fn phrase_scale(stats: &Stats<'_>, f: &Fields, a: &str, b: &str, token: &str) -> f32 {
    let Ok(n) = stats.total_num_docs() else {
        return 1.0;
    };
    let idf_of = |field: Field, s: &str| {
        let df = stats
            .doc_freq(&Term::from_field_text(field, s))
            .unwrap_or(0);
        idf(df, n)
    };
    let own = idf_of(f.body_pairs, token);
    if own <= 0.0 {
        return 1.0;
    }
    (idf_of(f.body, a) + idf_of(f.body, b)) / own
}

/// What to search for besides the words.
pub struct Scope {
    pub kind: Option<DocKind>,
    /// Score factor per game: 0 for games other than the one asked for, else
    /// inferred from the question when no game is given (see [`super::rank::game_prior`]).
    pub game_factor: [f32; 3],
    pub priors: Arc<super::scorer::Priors>,
}

impl Plan {
    /// Total weight of the groups.
    pub fn total_weight(&self) -> f32 {
        self.groups.iter().map(|g| g.weight).sum()
    }

    /// The tantivy query; `None` when no word can be searched.
    pub fn to_query(
        &self,
        f: &Fields,
        scope: &Scope,
        weights: &Arc<TermWeights>,
        stats: &Stats<'_>,
    ) -> Option<Box<dyn Query>> {
        // A clause over a term its field never holds matches nothing: it is left
        // out rather than set up (a dictionary lookup and a scorer) for every
        // query. Document frequencies are kept across queries, so this is a
        // table lookup.
        let present = |term: &Term| -> bool { stats.doc_freq(term).map_or(true, |n| n > 0) };
        let term_leaf = |term: Term, boost: f32| -> Leaf {
            Leaf::Term(CachedTerm {
                term,
                option: IndexRecordOption::WithFreqs,
                boost,
                weights: Arc::clone(weights),
            })
        };
        let mut groups: Vec<(DisMax, f32)> = Vec::new();
        for g in &self.groups {
            let mut disjuncts: Vec<Leaf> = Vec::new();
            for v in g.variants.iter().filter(|v| v.known) {
                for (field, boost) in [(f.title, TITLE_BOOST), (f.body, BODY_BOOST)] {
                    let terms: Option<Vec<Term>> = v
                        .stems
                        .iter()
                        .map(|s| Some(Term::from_field_text(field, s)).filter(|t| present(t)))
                        .collect();
                    let Some(terms) = terms else { continue };
                    let boost = boost * v.weight;
                    disjuncts.push(match <[Term; 1]>::try_from(terms) {
                        Ok([term]) => term_leaf(term, boost),
                        Err(terms) => Leaf::Phrase(CachedPhrase {
                            terms,
                            boost,
                            weights: Arc::clone(weights),
                        }),
                    });
                }
            }
            if !disjuncts.is_empty() {
                groups.push((DisMax::new(disjuncts, TIE_BREAKER), g.weight));
            }
        }
        if groups.is_empty() {
            return None;
        }
        let mut bonus: Vec<DisMax> = Vec::new();
        {
            let words: Vec<&Group> = self.groups.iter().filter(|g| !g.is_phrase()).collect();
            for pair in words.windows(2) {
                if !(pair[0].known() && pair[1].known()) {
                    continue;
                }
                let (a, b) = (&pair[0].variants[0].stems[0], &pair[1].variants[0].stems[0]);
                // Best of title and body, so a pair in both does not count twice.
                // Pairs are indexed as tokens (neighbours or one word apart), so
                // each is a plain term lookup, not a phrase match.
                let token = pair_token(a, b);
                let mut pairs: Vec<Leaf> = Vec::with_capacity(2);
                for (field, boost) in [(f.title_pairs, TITLE_BOOST), (f.body_pairs, BODY_BOOST)] {
                    let term = Term::from_field_text(field, &token);
                    if present(&term) {
                        let scale = if field == f.body_pairs {
                            phrase_scale(stats, f, a, b, &token)
                        } else {
                            1.0
                        };
                        pairs.push(term_leaf(term, PAIR_BOOST * boost * scale));
                    }
                }
                if !pairs.is_empty() {
                    bonus.push(DisMax::new(pairs, 0.0));
                }
            }
        }
        // Filters add nothing to the score. (A game is not a filter: its factor
        // is 0 for the other games, cheaper than seeking every clause.)
        let filter = scope.kind.map(|k| -> Box<dyn Query> {
            Box::new(CachedTerm {
                term: Term::from_field_text(f.kind, k.as_str()),
                option: IndexRecordOption::Basic,
                boost: 1.0,
                weights: Arc::clone(weights),
            })
        });
        Some(Box::new(Cover {
            groups,
            bonus,
            filter,
            total: self.total_weight(),
            gamma: GAMMA,
            game_factor: scope.game_factor,
            priors: Arc::clone(&scope.priors),
        }))
    }

    /// Stems to highlight in snippets, with their weights.
    pub fn highlight_terms(&self) -> BTreeMap<String, f32> {
        let mut out = BTreeMap::new();
        for g in &self.groups {
            for v in g.variants.iter().filter(|v| v.known) {
                for s in &v.stems {
                    out.entry(s.clone()).or_insert(v.weight);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted_and_each_is_found() {
        assert!(
            STOP_WORDS.windows(2).all(|w| w[0] < w[1]),
            "STOP_WORDS must be sorted and unique"
        );
        for w in STOP_WORDS {
            assert!(packed(w).is_some(), "{w}: longer than seven bytes");
            assert!(is_stop(w), "{w}");
        }
        for w in [
            "",
            "not",
            "cannot",
            "must",
            "the\0",
            "thee",
            "th",
            "whichever",
            "happened",
        ] {
            assert!(!is_stop(w), "{w:?}");
        }
    }

    #[test]
    fn terms_of_art_and_names_become_phrases() {
        let mut a = text::analyzer();
        let ws = split("can I play it at any time", &mut a);
        assert_eq!(phrases(&ws), [(4..7, false)]);
        let ws = split("what is the Rule of Four", &mut a);
        assert_eq!(phrases(&ws), [(3..6, true)]);
        let ws = split("How Does A Force Drain Work", &mut a);
        assert!(phrases(&ws).is_empty());
        let ws = split("Can't deploy", &mut a);
        assert_eq!(ws[0].lower, "cannot");
    }

    #[test]
    fn synonyms_are_symmetric() {
        let mut a = text::analyzer();
        for class in SYNONYMS {
            for w in class.iter().filter(|w| !w.contains(' ')) {
                let stem = text::stems(&mut a, w).remove(0);
                for other in class.iter() {
                    let o = text::stems(&mut a, other);
                    if o != [stem.clone()] {
                        assert!(synonym_stems(&stem).contains(&o), "{w} -> {other}");
                    }
                }
            }
        }
    }

    #[test]
    fn class_words_keep_their_first_letters_when_stemmed() {
        let mut a = text::analyzer();
        for w in SYNONYMS
            .iter()
            .flat_map(|c| c.iter())
            .flat_map(|m| m.split_whitespace())
        {
            for stem in text::stems(&mut a, w) {
                assert!(may_stem_to(w, &stem), "{w} -> {stem}");
            }
        }
    }

    #[test]
    fn several_word_synonyms_are_found_longest_first() {
        let mut a = text::analyzer();
        let ws = split("what if my deck runs out of cards", &mut a);
        let found = synonym_phrases(&ws);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, 4..6);
        assert!(found[0].1.contains(&text::stems(&mut a, "empty")));
    }

    #[test]
    fn classes_are_found_by_their_words_first_letters() {
        let mut stems: Vec<String> = SYNONYMS
            .iter()
            .flat_map(|c| c.iter().flat_map(|m| m.split_whitespace()))
            .flat_map(|w| [w.to_string(), w[..1].to_string(), w.to_uppercase()])
            .collect();
        stems.extend(["zz", "qx", "a", "b9", "\u{e9}t\u{e9}"].map(String::from));
        for stem in &stems {
            let first = stem.as_bytes()[0].to_ascii_lowercase();
            let want: Vec<usize> = classes_by_first_byte()[usize::from(first)]
                .iter()
                .copied()
                .filter(|&ci| SYNONYMS[ci].iter().any(|m| may_stem_to(m, stem)))
                .collect();
            assert_eq!(class_ids(stem), want, "{stem}");
        }
    }

    #[test]
    fn short_stems_are_not_fuzzed() {
        assert_eq!(fuzzy_distance("die"), None);
        assert_eq!(fuzzy_distance("shield"), Some(1));
        assert_eq!(fuzzy_distance("charcter"), Some(1));
        assert_eq!(fuzzy_distance("uniqueness"), Some(2));
    }
}
