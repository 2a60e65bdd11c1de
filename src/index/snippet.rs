//! Snippet tokenizer: splits and lowercases like the index analyzer, but runs
//! the (comparatively slow) English stemmer only on words that could stem to a
//! query term, i.e. that begin like one. Highlighting stays exactly what the
//! full analyzer would give, at a fraction of the cost. A document shown a
//! second time keeps its words, each with its stem's number ([`Words`]), so
//! its later snippets compare numbers instead of stemming or looking up text.

use super::text::FastMap;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::{Arc, Mutex};
use tantivy::tokenizer::{
    BoxTokenStream, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer, Token,
    TokenStream, Tokenizer,
};

/// Stems keep the first letters of the word they come from ("battles" →
/// "battl", "destiny" → "destini"), so a word can only stem to a query term
/// when it shares this many leading bytes with it.
const PREFIX: usize = 3;
/// Words this long (in bytes) or longer are dropped, as the index analyzer drops them.
const LONG_WORD: usize = super::text::MAX_WORD + 1;

/// Letters and digits, the bytes a word's first three are told apart by.
const SLOTS: usize = 36;

/// Position of an ASCII letter (either case) or digit among the [`SLOTS`].
fn slot(b: u8) -> Option<usize> {
    match b {
        b'a'..=b'z' => Some(usize::from(b - b'a')),
        b'A'..=b'Z' => Some(usize::from(b - b'A')),
        b'0'..=b'9' => Some(26 + usize::from(b - b'0')),
        _ => None,
    }
}

#[derive(Clone)]
pub struct SnippetTokenizer {
    /// The word splitter of the tantivy tokenizer this one also is, made when
    /// first used that way (snippets are chosen without it).
    words: Option<TextAnalyzer>,
    stemmer: TextAnalyzer,
    prefixes: Arc<[String]>,
    /// First bytes of the prefixes, either case.
    first: [bool; 256],
    /// For the letters or digits `a b` at `slot(a) * SLOTS + slot(b)`: the
    /// position in `thirds` of the third letters or digits `c` with which a
    /// word beginning `a b c` begins like a prefix (0: none). Two lookups tell
    /// whether a word of three bytes or more is a candidate.
    pairs: [u16; SLOTS * SLOTS],
    /// Bit `slot(c)` set for each such `c` (the first entry unused).
    thirds: Vec<u64>,
    /// Weights of the candidate words seen so far (lowercase word → the
    /// weight of its stem among the terms, if it is one).
    weights: FastMap<String, Option<f32>>,
    /// The index's stem numbers, and the weight of each query term by its
    /// number (worked out when first needed, and again once words were numbered).
    ids: Arc<StemIds>,
    by_id: Option<FastMap<u32, f32>>,
}

/// A number for each stem (or unstemmed lower-case word) of the words of the
/// documents kept so far, shared by an index's searches: a kept document's
/// words are told query terms by number, with no lower-casing or lookup by text.
#[derive(Default)]
pub struct StemIds(Mutex<FastMap<String, u32>>);

impl StemIds {
    /// The number of each of `stems`, numbering the new ones.
    fn number(&self, stems: impl Iterator<Item = String>) -> Vec<u32> {
        let mut ids = super::scorer::lock(&self.0);
        stems
            .map(|s| {
                let next = ids.len() as u32;
                *ids.entry(s).or_insert(next)
            })
            .collect()
    }

    /// The weight of each of `terms` that has a number, by its number.
    fn weights(&self, terms: &BTreeMap<String, f32>) -> FastMap<u32, f32> {
        let ids = super::scorer::lock(&self.0);
        terms
            .iter()
            .filter_map(|(t, &w)| ids.get(t).map(|&id| (id, w)))
            .collect()
    }
}

impl SnippetTokenizer {
    /// `stemmer` is the index analyzer; `terms` the query terms to highlight,
    /// with their weights; `ids` the index's stem numbers.
    pub fn new(
        stemmer: TextAnalyzer,
        terms: &BTreeMap<String, f32>,
        ids: Arc<StemIds>,
    ) -> SnippetTokenizer {
        let mut prefixes: Vec<String> = terms
            .keys()
            .map(|s| {
                let end = s.char_indices().nth(PREFIX).map_or(s.len(), |(i, _)| i);
                s[..end].to_string()
            })
            .filter(|p| !p.is_empty())
            .collect();
        prefixes.sort();
        prefixes.dedup();
        let first = first_bytes(&prefixes);
        let mut pairs = [0u16; SLOTS * SLOTS];
        let mut thirds = vec![0u64];
        let mut add = |pair: usize, mask: u64| {
            if pairs[pair] == 0 {
                // At most one entry per pair: the positions fit.
                pairs[pair] = thirds.len() as u16;
                thirds.push(0);
            }
            thirds[usize::from(pairs[pair])] |= mask;
        };
        let every = (1u64 << SLOTS) - 1;
        for p in prefixes.iter().map(|p| p.as_bytes()) {
            // A prefix not of letters or digits matches no word of them.
            match p
                .iter()
                .map(|&b| slot(b))
                .collect::<Option<Vec<usize>>>()
                .as_deref()
            {
                Some(&[a]) => (0..SLOTS).for_each(|b| add(a * SLOTS + b, every)),
                Some(&[a, b]) => add(a * SLOTS + b, every),
                Some(&[a, b, c]) => add(a * SLOTS + b, 1 << c),
                _ => {}
            }
        }
        SnippetTokenizer {
            first,
            pairs,
            thirds,
            words: None,
            stemmer,
            prefixes: prefixes.into(),
            weights: FastMap::default(),
            ids,
            by_id: None,
        }
    }

    /// Whether the ASCII word `b` begins like a query term (a prefix).
    fn ascii_candidate(&self, b: &[u8]) -> bool {
        if let [x, y, z, ..] = *b
            && let (Some(x), Some(y), Some(z)) = (slot(x), slot(y), slot(z))
        {
            self.thirds[usize::from(self.pairs[x * SLOTS + y])] & (1 << z) != 0
        } else {
            starts_with_any(b, &self.prefixes)
        }
    }

    /// [`SnippetTokenizer::weight_of`] of a word of ASCII letters and digits whose
    /// stem (or, unstemmed, lower-case form) has the number `id`.
    fn weight_of_id(&mut self, word: &[u8], id: u32, terms: &BTreeMap<String, f32>) -> Option<f32> {
        let ids = &self.ids;
        let by_id = self.by_id.get_or_insert_with(|| ids.weights(terms));
        let weight = by_id.get(&id).copied()?;
        self.ascii_candidate(word).then_some(weight)
    }

    /// The weight in `terms` of the term `word` (as it stands in the text)
    /// becomes as a token, lowercase and stemmed; `None` when it is no term of
    /// them. Most words are ruled out by their first letters without
    /// allocating; the others are looked up once per word.
    fn weight_of(&mut self, word: &str, terms: &BTreeMap<String, f32>) -> Option<f32> {
        let lower: Cow<'_, str> = if word.is_ascii() {
            let b = word.as_bytes();
            if !self.ascii_candidate(b) {
                return None;
            }
            if b.iter().any(u8::is_ascii_uppercase) {
                Cow::Owned(word.to_ascii_lowercase())
            } else {
                Cow::Borrowed(word)
            }
        } else {
            let mut l = String::with_capacity(word.len());
            for c in word.chars() {
                l.extend(c.to_lowercase());
            }
            if !self.prefixes.iter().any(|p| l.starts_with(p.as_str())) {
                return None;
            }
            Cow::Owned(l)
        };
        if let Some(&w) = self.weights.get(lower.as_ref()) {
            return w;
        }
        let stem = super::text::first_stem(&mut self.stemmer, &lower);
        let w = terms.get(stem.as_deref().unwrap_or(&lower)).copied();
        self.weights.insert(lower.into_owned(), w);
        w
    }
}

/// Byte range of every word of `text` as the index analyzer splits them (runs
/// of alphanumeric characters), long words left out.
fn unicode_words(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut chars = text.char_indices().peekable();
    std::iter::from_fn(move || {
        while let Some((from, c)) = chars.next() {
            if !c.is_alphanumeric() {
                continue;
            }
            let mut to = text.len();
            for (i, c) in chars.by_ref() {
                if !c.is_alphanumeric() {
                    to = i;
                    break;
                }
            }
            if to - from < LONG_WORD {
                return Some(from..to);
            }
        }
        None
    })
}

/// [`unicode_words`] for ASCII text, byte by byte.
fn ascii_words(b: &[u8]) -> impl Iterator<Item = Range<usize>> + '_ {
    ascii_runs(b).filter(|r| r.len() < LONG_WORD)
}

/// Every run of ASCII letters and digits in `b`, long ones included.
fn ascii_runs(b: &[u8]) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() && !b[i].is_ascii_alphanumeric() {
            i += 1;
        }
        if i >= b.len() {
            return None;
        }
        let from = i;
        while i < b.len() && b[i].is_ascii_alphanumeric() {
            i += 1;
        }
        Some(from..i)
    })
}

/// Words as byte ranges `(start, end)` in a text, in order.
type Runs = [(u32, u32)];

/// The byte range `r` as an entry of [`Runs`]; `None` past 4 GiB.
fn run(r: Range<usize>) -> Option<(u32, u32)> {
    Some((u32::try_from(r.start).ok()?, u32::try_from(r.end).ok()?))
}

/// Where the words of one document's text stand, found once and kept with the
/// document, so that choosing a snippet for it again reads no byte that cannot
/// begin a query word.
#[derive(Debug)]
pub struct Words {
    /// Every run of ASCII letters and digits (long ones included), as byte ranges.
    runs: Box<Runs>,
    /// The first byte of each run, side by side, so that looking for a word
    /// that begins like a query term reads only these.
    firsts: Box<[u8]>,
    /// Whether the text has no letter or digit beyond ASCII: then the runs are
    /// the words the index analyzer finds, in the text and in any part of it.
    ascii_words: bool,
    /// With `ascii_words`, the number ([`StemIds`]) of each run's stem (its
    /// lower-case form when it has none); empty otherwise.
    ids: Box<[u32]>,
}

impl Words {
    /// The words of `text`, each numbered by `tokenizer`'s stem numbers.
    pub fn of(text: &str, tokenizer: &mut SnippetTokenizer) -> Option<Words> {
        let runs: Box<Runs> = ascii_runs(text.as_bytes())
            .map(run)
            .collect::<Option<_>>()?;
        let firsts = runs
            .iter()
            .map(|&(s, _)| text.as_bytes()[s as usize])
            .collect();
        let ascii_words =
            text.is_ascii() || !text.chars().any(|c| !c.is_ascii() && c.is_alphanumeric());
        let ids = if ascii_words {
            // A term numbered now may be one the weights by number lack.
            tokenizer.by_id = None;
            let stemmer = &mut tokenizer.stemmer;
            let stems = runs.iter().map(|&(s, e)| {
                let lower = text[s as usize..e as usize].to_ascii_lowercase();
                super::text::first_stem(stemmer, &lower).unwrap_or(lower)
            });
            tokenizer.ids.number(stems).into()
        } else {
            Box::default()
        };
        Some(Words {
            runs,
            firsts,
            ascii_words,
            ids,
        })
    }

    /// The first run that starts with one of `stems` (ASCII case-insensitive)
    /// in `text`, the text these words were found in: its position among the
    /// runs and its byte offset.
    pub fn first_starting_with(&self, text: &[u8], stems: &[String]) -> Option<(usize, usize)> {
        let first = first_bytes(stems);
        let k = self
            .firsts
            .iter()
            .zip(&self.runs)
            .position(|(&c, &(s, _))| {
                first[usize::from(c)] && starts_with_any(&text[s as usize..], stems)
            })?;
        Some((k, self.runs[k].0 as usize))
    }

    /// The runs overlapping `text[window]` and their stem numbers, which are
    /// the words [`best_fragment`] would find there once cut to the window
    /// (long ones left out); `None` when they are not. `near` is the position
    /// of a run near the window's start: the runs are walked from there.
    fn within(&self, window: Range<usize>, near: usize) -> Option<(&Runs, &[u32])> {
        if !self.ascii_words {
            return None;
        }
        let runs = &self.runs;
        let mut from = near.min(runs.len());
        while from > 0 && runs[from - 1].1 as usize > window.start {
            from -= 1;
        }
        while from < runs.len() && runs[from].1 as usize <= window.start {
            from += 1;
        }
        let mut to = from;
        while to < runs.len() && (runs[to].0 as usize) < window.end {
            to += 1;
        }
        Some((&runs[from..to], &self.ids[from..to]))
    }
}

/// Byte offset of the first word of `text` that starts with one of `stems`
/// (ASCII case-insensitive), words being runs of ASCII letters and digits.
pub fn first_word_starting_with(text: &[u8], stems: &[String]) -> Option<usize> {
    first_starting_with(text, ascii_runs(text).map(|r| r.start), stems)
}

/// The first of `starts` (where words of `text` start) at which one of `stems`
/// begins, ASCII case-insensitive.
fn first_starting_with(
    text: &[u8],
    starts: impl Iterator<Item = usize>,
    stems: &[String],
) -> Option<usize> {
    let first = first_bytes(stems);
    starts
        .into_iter()
        .find(|&i| first[usize::from(text[i])] && starts_with_any(&text[i..], stems))
}

/// First bytes of `stems`, either case: one lookup rules out most words.
fn first_bytes(stems: &[String]) -> [bool; 256] {
    let mut first = [false; 256];
    for s in stems {
        if let Some(&c) = s.as_bytes().first() {
            first[usize::from(c.to_ascii_lowercase())] = true;
            first[usize::from(c.to_ascii_uppercase())] = true;
        }
    }
    first
}

/// Whether `text` begins with one of `stems`, ASCII case-insensitive.
fn starts_with_any(text: &[u8], stems: &[String]) -> bool {
    stems.iter().any(|s| {
        let s = s.as_bytes();
        !s.is_empty() && text.len() >= s.len() && text[..s.len()].eq_ignore_ascii_case(s)
    })
}

/// A run of words considered for the snippet.
struct Fragment {
    score: f32,
    start: usize,
    stop: usize,
    highlighted: Vec<Range<usize>>,
}

impl Fragment {
    fn new(start: usize) -> Fragment {
        Fragment {
            score: 0.0,
            start,
            stop: start,
            highlighted: Vec::new(),
        }
    }
}

/// The best fragment of `text`, at most `max` bytes long, and the byte ranges
/// of matched words within it; `None` when no term of `terms` occurs. Picks what
/// tantivy's `SnippetGenerator` picks (cut into consecutive fragments, sum the
/// weights of matched words, first of the highest), with the words of this
/// tokenizer, but without building a token for each word.
pub fn best_fragment(
    tokenizer: &mut SnippetTokenizer,
    text: &str,
    terms: &BTreeMap<String, f32>,
    max: usize,
) -> Option<(Range<usize>, Vec<Range<usize>>)> {
    let runs: Vec<(u32, u32)> = if text.is_ascii() {
        ascii_words(text.as_bytes())
            .map(run)
            .collect::<Option<_>>()?
    } else {
        unicode_words(text).map(run).collect::<Option<_>>()?
    };
    best_of(tokenizer, text, 0..text.len(), &runs, None, terms, max)
}

/// [`best_fragment`] of `text[window]`, its words read from `words` (those of
/// `text`) when they serve; `near` is the position among them of a word near
/// the window's start. Ranges are relative to the window.
pub fn best_fragment_in(
    tokenizer: &mut SnippetTokenizer,
    text: &str,
    (window, near): (Range<usize>, usize),
    words: &Words,
    terms: &BTreeMap<String, f32>,
    max: usize,
) -> Option<(Range<usize>, Vec<Range<usize>>)> {
    match words.within(window.clone(), near) {
        Some((runs, ids)) => best_of(tokenizer, text, window, runs, Some(ids), terms, max),
        None => best_fragment(tokenizer, &text[window], terms, max),
    }
}

/// The best fragment of `text[window]` (see [`best_fragment`]) among the
/// words at `runs` (byte ranges in `text`, in order, each cut to the window;
/// long ones left out), each with its stem number in `ids` when given and
/// the window holds it whole. Ranges are relative to the window.
fn best_of(
    tokenizer: &mut SnippetTokenizer,
    text: &str,
    window: Range<usize>,
    runs: &Runs,
    ids: Option<&[u32]>,
    terms: &BTreeMap<String, f32>,
    max: usize,
) -> Option<(Range<usize>, Vec<Range<usize>>)> {
    let mut best: Option<Fragment> = None;
    let mut keep = |f: Fragment| {
        if f.score > 0.0 && best.as_ref().is_none_or(|b| f.score > b.score) {
            best = Some(f);
        }
    };
    let bytes = text.as_bytes();
    let (from, to) = (window.start, window.end);
    let mut current = Fragment::new(0);
    for (k, &(s, e)) in runs.iter().enumerate() {
        let (s, e) = (s as usize, e as usize);
        let (start, end) = (s.max(from), e.min(to));
        if end - start >= LONG_WORD {
            continue;
        }
        if end - from - current.start > max {
            keep(std::mem::replace(&mut current, Fragment::new(start - from)));
        }
        current.stop = end - from;
        // Most words begin like no query term: one lookup, before slicing.
        let c = bytes[start];
        if c.is_ascii() && !tokenizer.first[usize::from(c)] {
            continue;
        }
        let weight = match ids {
            Some(ids) if s >= from && e <= to => {
                tokenizer.weight_of_id(&bytes[start..end], ids[k], terms)
            }
            _ => tokenizer.weight_of(&text[start..end], terms),
        };
        if let Some(weight) = weight {
            current.score += weight;
            current.highlighted.push(start - from..end - from);
        }
    }
    keep(current);
    let best = best?;
    let highlighted = best
        .highlighted
        .iter()
        .map(|r| r.start - best.start..r.end - best.start)
        .collect();
    Some((best.start..best.stop, highlighted))
}

impl Tokenizer for SnippetTokenizer {
    type TokenStream<'a> = SnippetStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> SnippetStream<'a> {
        SnippetStream {
            inner: self
                .words
                .get_or_insert_with(|| {
                    TextAnalyzer::builder(SimpleTokenizer::default())
                        .filter(RemoveLongFilter::limit(LONG_WORD))
                        .filter(LowerCaser)
                        .build()
                })
                .token_stream(text),
            stemmer: &mut self.stemmer,
            prefixes: &self.prefixes,
        }
    }
}

pub struct SnippetStream<'a> {
    inner: BoxTokenStream<'a>,
    stemmer: &'a mut TextAnalyzer,
    prefixes: &'a [String],
}

impl TokenStream for SnippetStream<'_> {
    fn advance(&mut self) -> bool {
        if !self.inner.advance() {
            return false;
        }
        let token = self.inner.token_mut();
        if self
            .prefixes
            .iter()
            .any(|p| token.text.starts_with(p.as_str()))
        {
            let stem = {
                let mut stream = self.stemmer.token_stream(&token.text);
                stream.next().map(|t| t.text.clone())
            };
            if let Some(stem) = stem {
                token.text = stem;
            }
        }
        true
    }

    fn token(&self) -> &Token {
        self.inner.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.inner.token_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::tokenizer::{Language, Stemmer};

    fn en_stem() -> TextAnalyzer {
        TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(RemoveLongFilter::limit(LONG_WORD))
            .filter(LowerCaser)
            .filter(Stemmer::new(Language::English))
            .build()
    }

    fn tokens(a: &mut TextAnalyzer, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut s = a.token_stream(text);
        while let Some(t) = s.next() {
            out.push(t.text.clone());
        }
        out
    }

    fn terms_of(stems: &[String]) -> BTreeMap<String, f32> {
        stems.iter().map(|s| (s.clone(), 1.0)).collect()
    }

    /// A kept document's words, told query terms by stem number, give the
    /// fragment reading the text gives: in windows that cut words and that do
    /// not, walked to from any word, and when a term is numbered after the
    /// tokenizer first weighed by number.
    #[test]
    fn numbered_words_choose_what_reading_the_text_chooses() {
        let text = "Battles happen here. Battle destiny is drawn; DESTINIES are drawn \
            at the end of the battle, then nothing more for a while. battles";
        let terms: BTreeMap<String, f32> = [
            ("battl".to_string(), 1.0),
            ("destini".to_string(), 0.7),
            ("drawn".to_string(), 0.4),
        ]
        .into();
        let ids: Arc<StemIds> = Arc::default();
        let mut tok = SnippetTokenizer::new(en_stem(), &terms, Arc::clone(&ids));
        // Weighed by number while only "battl" has one.
        let first = "a battle";
        let early = Words::of(first, &mut tok).unwrap();
        let got = best_fragment_in(&mut tok, first, (0..first.len(), 0), &early, &terms, 100);
        let (fragment, highlights) = got.expect("a fragment");
        assert_eq!(fragment, 0..8);
        assert_eq!(highlights.len(), 1);
        assert_eq!(highlights[0], 2..8);
        let words = Words::of(text, &mut tok).unwrap();
        let mut compared = 0;
        for start in [0, 3, 10, 21, 30] {
            for end in [text.len(), 80, 47, 40] {
                for max in [20, 45, 200] {
                    if start >= end {
                        continue;
                    }
                    let window = start..end;
                    let mut plain = SnippetTokenizer::new(en_stem(), &terms, Arc::default());
                    let want = best_fragment(&mut plain, &text[window.clone()], &terms, max);
                    // Walked from any word, the window holds the same words.
                    for near in [0, 4, 9, 1000] {
                        let at = (window.clone(), near);
                        let got = best_fragment_in(&mut tok, text, at, &words, &terms, max);
                        assert_eq!(got, want, "window {window:?}, near {near}, max {max}");
                    }
                    compared += usize::from(want.is_some());
                }
            }
        }
        assert!(compared >= 45, "{compared} windows with a match");
    }

    #[test]
    fn best_fragment_picks_what_the_snippet_generator_picks() {
        let text = "Battles happen. A long stretch of words with nothing in it at all, \
            really nothing. Then a battle destiny is drawn, and another battle destiny; \
            more words follow here without any match whatsoever, going on and on. \
            Finally one more destiny at the end. BATTLES and Destinies in capitals, \
            battlebattlebattlebattlebattlebattlebattle (too long), Ünïcode bättle battle.";
        let stems = vec!["battl".to_string(), "destini".to_string()];
        let terms: BTreeMap<String, f32> =
            [("battl".to_string(), 1.0), ("destini".to_string(), 0.7)].into();
        let ascii = text.replace("Ünïcode bättle", "Unicode battle");
        for (text, max) in [20, 45, 60, 120, 200, 400]
            .into_iter()
            .flat_map(|m| [(text, m), (ascii.as_str(), m)])
        {
            let generator = tantivy::snippet::SnippetGenerator::new(
                terms.clone(),
                TextAnalyzer::from(SnippetTokenizer::new(
                    en_stem(),
                    &terms_of(&stems),
                    Arc::default(),
                )),
                tantivy::schema::Field::from_field_id(0),
                max,
            );
            let want = generator.snippet(text);
            let mut tok = SnippetTokenizer::new(en_stem(), &terms_of(&stems), Arc::default());
            let got = best_fragment(&mut tok, text, &terms, max);
            match got {
                None => assert!(want.is_empty(), "max {max}"),
                Some((range, hl)) => {
                    assert_eq!(&text[range], want.fragment(), "max {max}");
                    assert_eq!(hl, want.highlighted(), "max {max}");
                }
            }
        }
        let mut tok = SnippetTokenizer::new(en_stem(), &terms_of(&stems), Arc::default());
        assert!(best_fragment(&mut tok, "no match here", &terms, 200).is_none());
    }

    #[test]
    fn matches_the_full_analyzer_on_query_words() {
        let text = "Battles: each player draws battle destiny; destinies are Drawn";
        let mut full = en_stem();
        let stems = vec![
            "battl".to_string(),
            "destini".to_string(),
            "drawn".to_string(),
        ];
        let mut fast = TextAnalyzer::from(SnippetTokenizer::new(
            en_stem(),
            &terms_of(&stems),
            Arc::default(),
        ));
        let want = tokens(&mut full, text);
        let got = tokens(&mut fast, text);
        assert_eq!(want.len(), got.len());
        for (w, g) in want.iter().zip(&got) {
            if stems.contains(w) {
                assert_eq!(w, g);
            } else {
                assert!(!stems.contains(g), "{g} should not match");
            }
        }
    }
}
