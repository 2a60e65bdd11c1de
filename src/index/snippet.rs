//! Snippet tokenizer: splits and lowercases like the index analyzer, but runs
//! the (comparatively slow) English stemmer only on words that could stem to a
//! query term, i.e. that begin like one. Highlighting stays exactly what the
//! full analyzer would give, at a fraction of the cost.

use std::sync::Arc;
use tantivy::tokenizer::{
    BoxTokenStream, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer, Token,
    TokenStream, Tokenizer,
};

/// Stems keep the first letters of the word they come from ("battles" →
/// "battl", "destiny" → "destini"), so a word can only stem to a query term
/// when it shares this many leading bytes with it.
const PREFIX: usize = 3;

#[derive(Clone)]
pub struct SnippetTokenizer {
    words: TextAnalyzer,
    stemmer: TextAnalyzer,
    prefixes: Arc<[String]>,
}

impl SnippetTokenizer {
    /// `stemmer` is the index analyzer; `stems` the query terms to highlight.
    pub fn new(stemmer: TextAnalyzer, stems: &[String]) -> SnippetTokenizer {
        let words = TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(RemoveLongFilter::limit(40))
            .filter(LowerCaser)
            .build();
        let mut prefixes: Vec<String> = stems
            .iter()
            .map(|s| {
                let end = s.char_indices().nth(PREFIX).map_or(s.len(), |(i, _)| i);
                s[..end].to_string()
            })
            .filter(|p| !p.is_empty())
            .collect();
        prefixes.sort();
        prefixes.dedup();
        SnippetTokenizer {
            words,
            stemmer,
            prefixes: prefixes.into(),
        }
    }
}

impl Tokenizer for SnippetTokenizer {
    type TokenStream<'a> = SnippetStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> SnippetStream<'a> {
        SnippetStream {
            inner: self.words.token_stream(text),
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
            .filter(RemoveLongFilter::limit(40))
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

    #[test]
    fn matches_the_full_analyzer_on_query_words() {
        let text = "Battles: each player draws battle destiny; destinies are Drawn";
        let mut full = en_stem();
        let stems = vec![
            "battl".to_string(),
            "destini".to_string(),
            "drawn".to_string(),
        ];
        let mut fast = TextAnalyzer::from(SnippetTokenizer::new(en_stem(), &stems));
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
