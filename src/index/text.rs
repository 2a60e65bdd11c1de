//! The index analyzer: words split like tantivy's simple tokenizer, but English
//! contractions are read as the words they stand for, so a negation is never
//! lost: "can't" is "cannot", "won't" is "will not", "doesn't" is "does not",
//! and "Obi-Wan's" is "Obi-Wan". Then lower case and the English stemmer.

use std::cell::RefCell;
use tantivy::tokenizer::{
    Language, LowerCaser, RawTokenizer, RemoveLongFilter, Stemmer, TextAnalyzer,
    TextAnalyzerBuilder, Token, TokenFilter, TokenStream, Tokenizer,
};

/// A hash map keyed by words the program makes itself.
type FastMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// Name the analyzer is registered under in the index.
pub const ANALYZER: &str = "swj_en";

/// Name of the analyzer of words as written (lower case, not stemmed).
pub const WORDS: &str = "swj_words";

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
pub fn register(index: &tantivy::Index) {
    index.tokenizers().register(ANALYZER, analyzer());
    index.tokenizers().register(WORDS, lower_words().build());
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
