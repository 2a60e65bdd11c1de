//! The index analyzer: words split like tantivy's simple tokenizer, but English
//! contractions are read as the words they stand for, so a negation is never
//! lost: "can't" is "cannot", "won't" is "will not", "doesn't" is "does not",
//! and "Obi-Wan's" is "Obi-Wan". Then lower case and the English stemmer.

use std::cell::RefCell;
use std::collections::HashMap;
use tantivy::tokenizer::{
    Language, LowerCaser, RawTokenizer, RemoveLongFilter, Stemmer, TextAnalyzer,
    TextAnalyzerBuilder, Token, TokenFilter, TokenStream, Tokenizer,
};

/// A hash map with [`WordHash`] hashing: its keys are short words and index
/// terms the program makes itself, so a slower hash that resists chosen keys
/// buys nothing.
pub type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<WordHash>>;

/// A hash that takes its input eight bytes at a time, each step a rotate, an
/// exclusive or and a multiply (as rustc's own hash does), so that a word or
/// index term is hashed in a few steps, not one per byte.
#[derive(Default)]
pub struct WordHash(u64);

impl WordHash {
    const K: u64 = 0xf135_7aea_2e62_a9c5;

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::K);
    }
}

impl std::hash::Hasher for WordHash {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            self.add(u64::from_le_bytes(b));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            // The short last word's length in its top byte, which the bytes leave 0.
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b) | (rest.len() as u64) << 56);
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        // The multiply mixes the high bits best; the table indexes by the low ones.
        self.0.rotate_left(26)
    }
}

/// Name the analyzer is registered under in the index.
pub const ANALYZER: &str = "swj_en";

/// The analyzer the title and body fields are indexed and searched with.
pub fn analyzer() -> TextAnalyzer {
    lower_words().filter(CachedStemmer).build()
}

/// The analyzer's words before stemming: split, overlong words dropped, lower case.
fn lower_words() -> TextAnalyzerBuilder<impl Tokenizer> {
    TextAnalyzer::builder(WordTokenizer::default())
        .filter(RemoveLongFilter::limit(MAX_WORD + 1))
        .filter(LowerCaser)
}

/// The English stemmer, remembering each word's stem (per thread, across
/// documents and queries): a corpus has far fewer distinct words than words,
/// and stemming is the dearest step of indexing.
#[derive(Clone, Copy)]
pub struct CachedStemmer;

impl TokenFilter for CachedStemmer {
    type Tokenizer<T: Tokenizer> = CachedStemmerFilter<T>;

    fn transform<T: Tokenizer>(self, tokenizer: T) -> CachedStemmerFilter<T> {
        CachedStemmerFilter {
            inner: tokenizer,
            stemmer: word_stemmer(),
        }
    }
}

#[derive(Clone)]
pub struct CachedStemmerFilter<T> {
    inner: T,
    /// The stemmer itself, over one whole word.
    stemmer: TextAnalyzer,
}

/// Most words whose stems a thread remembers.
const MAX_STEMS: usize = 100_000;

thread_local! {
    /// Stem of each word this thread has stemmed.
    static STEMS: RefCell<FastMap<String, String>> = RefCell::new(FastMap::default());
}

impl<T: Tokenizer> Tokenizer for CachedStemmerFilter<T> {
    type TokenStream<'a> = CachedStemmerStream<'a, T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        CachedStemmerStream {
            tail: self.inner.token_stream(text),
            stemmer: &mut self.stemmer,
        }
    }
}

/// Replace the lower-case word `text` by its stem, remembered per thread.
fn stem_in_place(stemmer: &mut TextAnalyzer, text: &mut String) {
    STEMS.with(|cell| {
        let mut stems = cell.borrow_mut();
        if let Some(stem) = stems.get(text.as_str()) {
            text.clear();
            text.push_str(stem);
            return;
        }
        let stem = {
            let mut stream = stemmer.token_stream(text);
            stream.next().map(|t| t.text.clone()).unwrap_or_default()
        };
        let word = std::mem::replace(text, stem.clone());
        if stems.len() >= MAX_STEMS {
            stems.clear();
        }
        stems.insert(word, stem);
    });
}

/// Longest word the analyzer keeps, in bytes: longer ones are dropped.
pub const MAX_WORD: usize = 39;

/// The first stem the index analyzer (`analyzer`) gives the lower-case text
/// `lower`. A word of ASCII letters and digits is one token of the analyzer,
/// unchanged until stemmed, so when this thread remembers its stem that is
/// the answer, with no token stream set up.
pub fn first_stem(analyzer: &mut TextAnalyzer, lower: &str) -> Option<String> {
    if !lower.is_empty()
        && lower.len() <= MAX_WORD
        && lower
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && let Some(stem) = STEMS.with(|cell| cell.borrow().get(lower).cloned())
    {
        return Some(stem);
    }
    stems(analyzer, lower).into_iter().next()
}

/// The English stemmer over one whole word.
fn word_stemmer() -> TextAnalyzer {
    TextAnalyzer::builder(RawTokenizer::default())
        .filter(Stemmer::new(Language::English))
        .build()
}

pub struct CachedStemmerStream<'a, T> {
    tail: T,
    stemmer: &'a mut TextAnalyzer,
}

impl<T: TokenStream> TokenStream for CachedStemmerStream<'_, T> {
    fn advance(&mut self) -> bool {
        if !self.tail.advance() {
            return false;
        }
        stem_in_place(self.stemmer, &mut self.tail.token_mut().text);
        true
    }

    fn token(&self) -> &Token {
        self.tail.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.tail.token_mut()
    }
}

/// Make the analyzer known to `index` (tokenizers are not stored with an index).
pub fn register(index: &mut tantivy::Index) {
    index.tokenizers().register(ANALYZER, analyzer());
    index
        .tokenizers()
        .register(PAIRS, TextAnalyzer::from(PairTokenizer::new(false)));
    index
        .tokenizers()
        .register(CONTENT_PAIRS, TextAnalyzer::from(PairTokenizer::new(true)));
}

/// Splits on non-alphanumeric characters and expands contractions.
#[derive(Clone, Default)]
pub struct WordTokenizer {
    token: Token,
}

pub struct WordStream<'a> {
    text: &'a str,
    at: usize,
    token: &'a mut Token,
    /// A second word a contraction stands for ("not" of "doesn't"), still to come.
    pending: Option<(&'static str, usize, usize)>,
}

impl Tokenizer for WordTokenizer {
    type TokenStream<'a> = WordStream<'a>;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> WordStream<'a> {
        self.token.reset();
        WordStream {
            text,
            at: 0,
            token: &mut self.token,
            pending: None,
        }
    }
}

fn is_apostrophe(c: char) -> bool {
    c == '\'' || c == '\u{2019}'
}

/// The end of the alphanumeric run starting at `from`.
fn word_end(text: &str, from: usize) -> usize {
    text[from..]
        .char_indices()
        .find(|(_, c)| !c.is_alphanumeric())
        .map_or(text.len(), |(i, _)| from + i)
}

/// What a word followed by an apostrophe and `suffix` stands for: the word's
/// replacement (if any) and a second word.
fn contraction(word: &str, suffix: &str) -> Option<(Option<&'static str>, Option<&'static str>)> {
    let lower_suffix = suffix.to_ascii_lowercase();
    match lower_suffix.as_str() {
        "t" => {
            let w = word.to_ascii_lowercase();
            match w.as_str() {
                "can" => Some((Some("cannot"), None)),
                "won" => Some((Some("will"), Some("not"))),
                "shan" => Some((Some("shall"), Some("not"))),
                "ain" => Some((Some("is"), Some("not"))),
                _ if w.len() > 1 && w.ends_with('n') => Some((None, Some("not"))),
                _ => None,
            }
        }
        "s" | "re" | "ll" | "ve" | "d" | "m" => Some((None, None)),
        _ => None,
    }
}

impl TokenStream for WordStream<'_> {
    fn advance(&mut self) -> bool {
        self.token.text.clear();
        self.token.position = self.token.position.wrapping_add(1);
        if let Some((word, from, to)) = self.pending.take() {
            self.token.text.push_str(word);
            self.token.offset_from = from;
            self.token.offset_to = to;
            return true;
        }
        let text = self.text;
        while self.at < text.len() {
            let Some((i, c)) = text[self.at..].char_indices().next() else {
                break;
            };
            let from = self.at + i;
            if !c.is_alphanumeric() {
                self.at = from + c.len_utf8();
                continue;
            }
            let mut to = word_end(text, from);
            self.at = to;
            let mut word: &str = &text[from..to];
            let mut replaced: Option<&'static str> = None;
            // A contraction: apostrophe, then letters, then the word ends.
            if let Some(ap) = text[to..].chars().next().filter(|&c| is_apostrophe(c)) {
                let s_from = to + ap.len_utf8();
                let s_to = word_end(text, s_from);
                if s_to > s_from
                    && let Some((replace, second)) = contraction(word, &text[s_from..s_to])
                {
                    // "doesn't": the word is "does", and "not" follows.
                    let (base, extra) = match (word.len(), second) {
                        (n, Some(_)) if replace.is_none() && n > 1 => (&word[..n - 1], second),
                        _ => (word, second),
                    };
                    word = base;
                    replaced = replace;
                    self.at = s_to;
                    to = s_to;
                    self.pending = extra.map(|w| (w, from, s_to));
                }
            }
            self.token.offset_from = from;
            self.token.offset_to = to;
            self.token.text.push_str(replaced.unwrap_or(word));
            return true;
        }
        false
    }

    fn token(&self) -> &Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        self.token
    }
}

/// The words of `text` as the analyzer makes them (stemmed, lower case).
pub fn stems(analyzer: &mut TextAnalyzer, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stream = analyzer.token_stream(text);
    while let Some(tok) = stream.next() {
        out.push(tok.text.clone());
    }
    out
}

/// Name the pair tokenizer is registered under in the index.
pub const PAIRS: &str = "swj_pairs";
/// Name of the pair tokenizer that keeps only pairs of content words.
pub const CONTENT_PAIRS: &str = "swj_content_pairs";

/// Every pair of stems that stand next to each other or one word apart, in
/// order ("reserve deck", "reserve the deck"), as one token each
/// ([`pair_token`]): what a two-word phrase query with slop 1 matches, found
/// with a plain term lookup at query time. With `content_only`, stop words are
/// skipped and each content word pairs with the next one only: a query pairs
/// its content words, and a long text has far fewer such pairs (every distinct
/// pair is a term of the index, the dearest part of building it).
#[derive(Clone)]
pub struct PairTokenizer {
    /// The words before stemming, to tell stop words.
    words: TextAnalyzer,
    stemmer: TextAnalyzer,
    content_only: bool,
    token: Token,
}

impl PairTokenizer {
    pub fn new(content_only: bool) -> PairTokenizer {
        PairTokenizer {
            stemmer: word_stemmer(),
            words: lower_words().build(),
            content_only,
            token: Token::default(),
        }
    }
}

pub struct PairStream<'a> {
    /// The stems that may stand in a pair.
    stems: Vec<String>,
    /// The first stem of the next pair, and how far after it the second is.
    at: usize,
    gap: usize,
    max_gap: usize,
    token: &'a mut Token,
}

impl Tokenizer for PairTokenizer {
    type TokenStream<'a> = PairStream<'a>;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> PairStream<'a> {
        self.token.reset();
        let mut stems = Vec::new();
        let mut words = self.words.token_stream(text);
        while let Some(w) = words.next() {
            if !(self.content_only && super::query::is_stop(&w.text)) {
                let mut stem = w.text.clone();
                stem_in_place(&mut self.stemmer, &mut stem);
                stems.push(stem);
            }
        }
        PairStream {
            stems,
            at: 0,
            gap: 1,
            max_gap: if self.content_only { 1 } else { 2 },
            token: &mut self.token,
        }
    }
}

impl TokenStream for PairStream<'_> {
    fn advance(&mut self) -> bool {
        while self.at < self.stems.len() {
            let (a, gap) = (self.at, self.gap);
            if gap == self.max_gap {
                (self.at, self.gap) = (a + 1, 1);
            } else {
                self.gap += 1;
            }
            if let Some(b) = self.stems.get(a + gap) {
                self.token.text.clear();
                pair_token_into(&mut self.token.text, &self.stems[a], b);
                self.token.position = self.token.position.wrapping_add(1);
                return true;
            }
        }
        false
    }

    fn token(&self) -> &Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        self.token
    }
}

/// The token for two stems that stand next to each other (or one word apart).
pub fn pair_token(a: &str, b: &str) -> String {
    let mut out = String::with_capacity(a.len() + b.len() + 1);
    pair_token_into(&mut out, a, b);
    out
}

fn pair_token_into(out: &mut String, a: &str, b: &str) {
    out.push_str(a);
    out.push('_');
    out.push_str(b);
}

/// The words of `text` as the tokenizer makes them (lower case, not stemmed).
#[cfg(test)]
fn words(text: &str) -> Vec<String> {
    let mut t = WordTokenizer::default();
    let mut out = Vec::new();
    let mut stream = t.token_stream(text);
    while let Some(tok) = stream.next() {
        out.push(tok.text.to_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// Words and terms that differ in one late byte, or only in length, land
    /// in buckets spread as random ones would be (a table indexes by the low bits).
    #[test]
    fn word_hash_spreads_close_keys() {
        let hasher = std::hash::BuildHasherDefault::<WordHash>::default();
        let mut keys: Vec<String> = (0..1000)
            .map(|i| format!("battle destiny {i:04}"))
            .collect();
        keys.extend((1..=24).map(|n| "a".repeat(n)));
        keys.extend(
            (0..976).map(|i| format!("{}", (b'a' + (i % 26) as u8) as char).repeat(1 + i / 26)),
        );
        keys.sort_unstable();
        keys.dedup();
        let mut hashes: Vec<u64> = keys.iter().map(|k| hasher.hash_one(k)).collect();
        let buckets: std::collections::HashSet<u64> = hashes.iter().map(|h| h & 1023).collect();
        // 1,976 random keys would fill about 880 of 1,024 buckets.
        assert_eq!(keys.len(), 1976);
        assert!(buckets.len() > 800, "{} buckets", buckets.len());
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), keys.len(), "whole hashes collide");
        let term =
            |w: &str| tantivy::Term::from_field_text(tantivy::schema::Field::from_field_id(1), w);
        assert_ne!(
            hasher.hash_one(term("drain")),
            hasher.hash_one(term("drains"))
        );
    }

    /// The remembered stem [`first_stem`] reads is the one the analyzer gives,
    /// once remembered and before, for every kind of word.
    #[test]
    fn first_stem_is_the_analyzers() {
        let mut a = analyzer();
        let long = "a".repeat(MAX_WORD);
        let longer = "b".repeat(MAX_WORD + 1);
        let words = [
            "drains",
            "battling",
            "destiny",
            "x2",
            "4th",
            "a",
            "cannot",
            "can't",
            "obi-wan",
            "c3po",
            "naïve",
            "ewoks",
            "i\u{307}zmir",
            &long,
            &longer,
            "",
        ];
        for _ in 0..2 {
            for w in words {
                let want = stems(&mut a, w).into_iter().next();
                assert_eq!(first_stem(&mut a, w), want, "{w:?}");
            }
        }
    }

    #[test]
    fn contractions_keep_their_negation() {
        assert_eq!(words("can't"), ["cannot"]);
        assert_eq!(words("Can\u{2019}t stop"), ["cannot", "stop"]);
        assert_eq!(words("won't"), ["will", "not"]);
        assert_eq!(words("doesn't work"), ["does", "not", "work"]);
        assert_eq!(words("isn't"), ["is", "not"]);
        assert_eq!(words("Obi-Wan's cape"), ["obi", "wan", "cape"]);
        assert_eq!(words("they're here"), ["they", "here"]);
        assert_eq!(
            words("'quoted' rock 'n' roll"),
            ["quoted", "rock", "n", "roll"]
        );
        assert_eq!(words("x't"), ["x", "t"]);
    }

    #[test]
    fn remembered_stems_are_the_stemmer_s() {
        let mut plain = TextAnalyzer::builder(WordTokenizer::default())
            .filter(LowerCaser)
            .filter(Stemmer::new(Language::English))
            .build();
        let mut cached = analyzer();
        let text = "Deploying deployed deploys; running runs ran. Deploying again!";
        for _ in 0..2 {
            assert_eq!(stems(&mut cached, text), stems(&mut plain, text));
        }
    }

    #[test]
    fn pair_tokens_cover_neighbours_and_one_gap() {
        let pairs_of = |text: &str, content_only: bool| {
            let mut t = PairTokenizer::new(content_only);
            let mut s = t.token_stream(text);
            let mut out = Vec::new();
            while let Some(tok) = s.next() {
                out.push(tok.text.clone());
            }
            out
        };
        let pairs = |text: &str| pairs_of(text, false);
        assert_eq!(
            pairs("Reserve the Deck"),
            ["reserv_the", "reserv_deck", "the_deck"]
        );
        assert!(pairs("one").is_empty());
        assert_eq!(pairs("a b"), ["a_b"]);
        assert_eq!(
            pairs_of("the Reserve of the Deck, not used", true),
            ["reserv_deck", "deck_not", "not_use"]
        );
        assert_eq!(pairs_of("reserve the deck", true), ["reserv_deck"]);
    }

    #[test]
    fn positions_follow_the_expanded_words() {
        let mut a = analyzer();
        let mut s = a.token_stream("it doesn't deploy");
        let mut got = Vec::new();
        while let Some(t) = s.next() {
            got.push((t.text.clone(), t.position));
        }
        assert_eq!(
            got,
            [
                ("it".to_string(), 0),
                ("doe".to_string(), 1),
                ("not".to_string(), 2),
                ("deploy".to_string(), 3)
            ]
        );
    }
}
