//! From a judge's plain words to a tantivy query, built programmatically so
//! quotes, colons and parentheses are just punctuation, never syntax.
//!
//! - Each content word becomes a group: its stem plus the stems of the words
//!   players use for it ([`vocabulary`]), searched in the titles (boosted)
//!   and the body; a document's score for the group is the best of those plus
//!   a little of the rest (tantivy's BM25 and dis-max).
//! - Terms of art that need their small words ("at any time", "up to", "once
//!   per") and capitalised names ("Rule of Four") also become phrase groups.
//! - Each group weighs its inverse document frequency; a document's score is
//!   scaled by the share of that weight it covers ([`Cover`]).
//! - Two neighbouring words found next to each other add a bonus.
//! - Common function words ("can", "the", "my") are dropped unless nothing else
//!   is left; negations, modals and numbers ("not", "only", "once", "3") keep
//!   a weight of their own. A word the index does not know is matched fuzzily.

use super::cover::{Cover, Factors};
use super::schema::Fields;
use super::{ix_err, text, vocabulary};
use crate::error::Result;
use crate::rulebook::Game;
use std::collections::BTreeMap;
use tantivy::query::{BoostQuery, DisjunctionMaxQuery, PhraseQuery, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Searcher, Term};

const TITLE_BOOST: f32 = 2.0;
const BODY_BOOST: f32 = 1.0;
const SYNONYM_WEIGHT: f32 = 0.7;
const FUZZY_WEIGHT: f32 = 0.8;
/// Weight of the stem of a word the players' words hold as written ("dies"):
/// the stem stands for another word too ("die" of the dice).
const SHARED_STEM_WEIGHT: f32 = 0.3;
/// Share of its weight a word the index lacks covers when a close word is
/// found: a typo is likely, an unrelated word just as likely.
const FUZZY_COVER: f32 = 0.75;
const TIE_BREAKER: f32 = 0.25;
/// Bonus for two neighbouring query words found next to each other, or one
/// word apart ("reserve deck", "reserve the deck").
const PAIR_BOOST: f32 = 2.0;
/// Share of the mean weight of the question's words that a number, a
/// negation or a modal weighs at least: common words that change the answer.
const SMALL_WORD_FLOOR: f32 = 0.6;
/// Exponent of the covered share of the query's weight (see [`Cover`]).
pub const GAMMA: f32 = 2.0;

/// Words that carry no meaning for a rules search, sorted, of at most seven bytes.
/// Negations and modals that change a ruling (not, cannot, never, only, must,
/// may, no) are deliberately absent.
const STOP_WORDS: &[&str] = &[
    "a", "about", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can",
    "could", "did", "do", "does", "doing", "for", "from", "get", "gets", "happen", "happens",
    "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "many", "me", "mean",
    "means", "much", "my", "of", "on", "or", "our", "own", "should", "so", "that", "the", "their",
    "them", "then", "there", "these", "they", "this", "those", "to", "was", "we", "were", "what",
    "when", "where", "which", "who", "why", "will", "with", "work", "works", "would", "you",
    "your",
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

/// Share of its weight a word of casual speech keeps ([`is_casual`]).
const CASUAL_SHARE: f32 = 0.3;

/// Words of casual speech that carry little of a rules question ("does
/// unblockable damage go right through shields"): searched, but weighing
/// a fraction of their rarity, which comes from the rulebooks' formal prose.
fn is_casual(w: &str) -> bool {
    matches!(
        w,
        "go" | "goes"
            | "going"
            | "gone"
            | "went"
            | "right"
            | "through"
            | "like"
            | "really"
            | "actually"
            | "just"
            | "still"
            | "even"
            | "also"
            | "thing"
            | "things"
            | "stuff"
            | "ok"
            | "okay"
            | "basically"
            | "literally"
            | "maybe"
            | "probably"
            | "pretty"
            | "guess"
            | "think"
            | "know"
            | "want"
            | "need"
            | "needs"
            | "wanna"
            | "gonna"
            | "gotta"
            | "got"
            | "tell"
            | "anyway"
            | "ever"
            | "something"
            | "anything"
            | "someone"
            | "anyone"
            | "lot"
            | "lots"
            | "bit"
    )
}

/// Words that negate or limit what follows, and modals: they change a ruling,
/// so they keep a weight even when the rulebooks use them everywhere.
fn is_small_but_decisive(w: &str) -> bool {
    matches!(
        w,
        "not"
            | "no"
            | "never"
            | "cannot"
            | "only"
            | "once"
            | "must"
            | "may"
            | "already"
            | "without"
            | "twice"
            | "each"
            | "every"
            | "per"
            | "before"
            | "after"
    ) || w.chars().all(|c| c.is_ascii_digit())
}

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
    /// Found only through close words (the word itself is not in the index).
    pub fuzzy: bool,
    /// Whether the group is the games' own vocabulary: some variant of it
    /// is a word several rulebook sections use (set by [`super::rank::anchor`]).
    pub anchor: bool,
}

impl Group {
    /// Whether the word itself (not a synonym) occurs in the index.
    fn known(&self) -> bool {
        self.variants[0].known
    }

    /// The share of the question this group covers when found.
    pub fn covers(&self) -> f32 {
        if self.fuzzy {
            self.weight * FUZZY_COVER
        } else {
            self.weight
        }
    }

    /// Whether the group is one word searched by its own stem: a word whose
    /// stem stands for another word too ("dies", "die" of the dice) is not.
    pub fn is_own_word(&self) -> bool {
        self.variants[0].stems.len() == 1 && self.variants[0].weight == 1.0
    }

    fn is_phrase(&self) -> bool {
        self.variants[0].stems.len() > 1
    }
}

/// The analysed query, ready to become a tantivy query.
#[derive(Debug, Clone)]
pub struct Plan {
    pub groups: Vec<Group>,
    /// The stems of the question's words, stop words included, in order.
    pub stems: Vec<String>,
    /// Whether the question asks about a card ("what does X do", "card").
    pub asks_card: bool,
    /// Whether the question asks for an example.
    pub asks_example: bool,
    /// The stems of the words written with a capital, but the first.
    pub capitals: Vec<String>,
    /// The content words of what the question asks to have explained ("what
    /// does fury do", "how does a jedi test work"), sorted; empty for other
    /// questions.
    pub subject: Vec<String>,
    /// Misspelt words read as the word meant: (as typed, as read).
    pub read_as: Vec<(String, String)>,
}

/// One word of the query: lower case, its stem, and whether it was capitalised.
struct Word {
    lower: String,
    stem: String,
    capital: bool,
}

pub fn is_stop(w: &str) -> bool {
    STOP_WORDS.binary_search(&w).is_ok()
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
        // The pronoun "I" starts no name ("can I Jump to Lightspeed").
        let capital = raw != "I" && raw.chars().next().is_some_and(char::is_uppercase);
        let words = match unmarked_contraction(&lower) {
            Some(words) => words.iter().map(|w| w.to_string()).collect(),
            None => vec![lower],
        };
        for lower in words {
            let stem = text::stems(analyzer, &lower)
                .into_iter()
                .next()
                .unwrap_or_else(|| lower.clone());
            out.push(Word {
                capital,
                lower,
                stem,
            });
        }
    }
    out
}

/// A contraction typed without its apostrophe ("dont", "whats"): the words
/// it stands for, as the tokenizer reads the written contraction.
fn unmarked_contraction(word: &str) -> Option<&'static [&'static str]> {
    Some(match word {
        "dont" => &["do", "not"],
        "doesnt" => &["does", "not"],
        "didnt" => &["did", "not"],
        "cant" => &["cannot"],
        "wont" => &["will", "not"],
        "isnt" => &["is", "not"],
        "arent" => &["are", "not"],
        "wasnt" => &["was", "not"],
        "werent" => &["were", "not"],
        "hasnt" => &["has", "not"],
        "havent" => &["have", "not"],
        "hadnt" => &["had", "not"],
        "shouldnt" => &["should", "not"],
        "couldnt" => &["could", "not"],
        "wouldnt" => &["would", "not"],
        "mustnt" => &["must", "not"],
        "whats" => &["what"],
        "thats" => &["that"],
        "theres" => &["there"],
        "whos" => &["who"],
        "hows" => &["how"],
        "im" => &["i"],
        "ive" => &["i"],
        "youre" => &["you"],
        "theyre" => &["they"],
        "theyve" => &["they"],
        _ => return None,
    })
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

/// Whether the question asks what a card does or says: "what does X do",
/// or its text or errata. The word "card" alone does not make a question
/// about a card: "how many cards do I draw" asks about the rules.
fn asks_about_a_card(words: &[Word]) -> bool {
    let has = |w: &str| words.iter().any(|x| x.lower == w);
    (has("what") && (has("do") || has("does")) && words.last().is_some_and(|w| w.lower == "do"))
        || has("text")
        || has("errata")
        || has("erratum")
}

/// The words naming what the question asks to have explained: X of "what
/// does X do", "what does X mean", "how does X work", "what is X".
fn subject(words: &[Word]) -> &[Word] {
    let lower: Vec<&str> = words.iter().map(|w| w.lower.as_str()).collect();
    let until = |ends: &[&str]| (2..lower.len()).find(|&i| ends.contains(&lower[i]));
    let range = match lower.as_slice() {
        ["what", "do" | "does" | "did", ..] => until(&["do", "mean"]).map(|e| 2..e),
        ["how", "do" | "does", ..] => until(&["work", "works"]).map(|e| 2..e),
        ["what", "is" | "are", ..] => Some(2..lower.len()),
        _ => None,
    };
    range.map_or(&[], |r| &words[r])
}

/// Looks words up in the index: how many documents hold a stem in their
/// title or body, and the index's size.
struct Lookup<'a> {
    searcher: &'a Searcher,
    fields: [Field; 2],
    /// The words as written, for close words.
    words: Field,
    docs: u64,
}

impl Lookup<'_> {
    fn df(&self, stem: &str) -> Result<u64> {
        let mut best = 0;
        for field in self.fields {
            let term = Term::from_field_text(field, stem);
            best = best.max(self.searcher.doc_freq(&term).map_err(ix_err)?);
        }
        Ok(best)
    }

    fn variant(&self, stems: Vec<String>, weight: f32) -> Result<Variant> {
        let mut known = true;
        for s in &stems {
            known &= self.df(s)? > 0;
        }
        Ok(Variant {
            stems,
            weight,
            known,
        })
    }

    fn idf(&self, stem: &str) -> Result<f32> {
        Ok(idf(self.df(stem)?, self.docs))
    }

    /// Of the close words of the word at `i`, the one the corpus writes
    /// right beside the word's neighbour in the question (a content word),
    /// when exactly one does.
    fn meant(
        &self,
        close: &[(String, Vec<String>)],
        words: &[Word],
        i: usize,
    ) -> Result<Option<usize>> {
        let content = |j: usize| {
            words
                .get(j)
                .filter(|w| !is_stop(&w.lower) && !is_letter(&w.lower))
                .map(|w| w.stem.clone())
        };
        let (before, after) = (i.checked_sub(1).and_then(content), content(i + 1));
        let mut found = Vec::new();
        for (k, (_, c)) in close.iter().enumerate() {
            let pairs = [
                before.clone().map(|b| [b, c[0].clone()]),
                after.clone().map(|a| [c[0].clone(), a]),
            ];
            for pair in pairs.into_iter().flatten() {
                let terms: Vec<Term> = pair
                    .iter()
                    .map(|s| Term::from_field_text(self.fields[0], s))
                    .collect();
                let phrase = PhraseQuery::new(terms);
                let count = self
                    .searcher
                    .search(&phrase, &tantivy::collector::Count)
                    .map_err(ix_err)?;
                if count > 0 && !found.contains(&k) {
                    found.push(k);
                }
            }
        }
        Ok(match found.as_slice() {
            [one] => Some(*one),
            _ => None,
        })
    }
}

/// Analyse `text` with the index's analyzer and look its words up; `game` is
/// the game asked about, when given (it chooses the players' words that apply).
pub fn plan(
    text: &str,
    analyzer: &mut TextAnalyzer,
    searcher: &Searcher,
    f: &Fields,
    game: Option<Game>,
) -> Result<Plan> {
    let words = split(text, analyzer);
    let look = Lookup {
        searcher,
        fields: [f.body, f.title],
        words: f.words,
        docs: searcher.num_docs(),
    };
    let stems: Vec<&str> = words.iter().map(|w| w.stem.as_str()).collect();
    let synonyms = vocabulary::phrases(&stems, game);
    let in_synonym = |i: usize| synonyms.iter().any(|f| f.at.contains(&i));
    let content: Vec<usize> = (0..words.len())
        .filter(|&i| !in_synonym(i) && !is_stop(&words[i].lower) && !is_letter(&words[i].lower))
        .collect();
    let chosen: Vec<usize> = if content.is_empty() && synonyms.is_empty() {
        (0..words.len()).collect()
    } else {
        content
    };
    let mut read_as = Vec::new();
    let mut groups = word_groups(&words, &chosen, &look, analyzer, game, &mut read_as)?;
    weigh_unknown_and_small(&mut groups, &words, &chosen);
    // Players' phrases: one group, the phrase or any other member of its
    // class, weighing what the phrase's words weigh.
    for found in &synonyms {
        let mut weight = 0.0;
        for &i in found.at.iter().filter(|&&i| !is_stop(&words[i].lower)) {
            weight += look.idf(&words[i].stem)?;
        }
        let mut variants = vec![look.variant(found.phrase.clone(), 1.0)?];
        for o in &found.others {
            variants.push(look.variant(o.clone(), SYNONYM_WEIGHT)?);
        }
        groups.push(Group {
            variants,
            weight: weight.max(idf(look.docs / 10, look.docs)),
            fuzzy: false,
            anchor: false,
        });
    }
    for (range, name) in phrases(&words) {
        if synonyms
            .iter()
            .any(|f| f.at.iter().any(|i| range.contains(i)))
        {
            continue;
        }
        let stems: Vec<String> = words[range].iter().map(|w| w.stem.clone()).collect();
        if stems.len() < 2 {
            continue;
        }
        let known = look.variant(stems.clone(), 1.0)?.known;
        // A term of art weighs what its content words weigh (at least one rare
        // word); a name twice that, so a document without it covers at most a third.
        let inner: f32 = groups
            .iter()
            .filter(|g| stems.contains(&g.variants[0].stems[0]))
            .map(|g| g.weight)
            .sum();
        let weight = inner.max(idf(look.docs / 10, look.docs)) * if name { 2.0 } else { 1.0 };
        groups.push(Group {
            variants: vec![Variant {
                stems,
                weight: 1.0,
                known,
            }],
            weight,
            fuzzy: false,
            anchor: false,
        });
    }
    let asks_example = words.iter().any(|w| w.stem == "exampl");
    let mut subject: Vec<String> = subject(&words)
        .iter()
        .filter(|w| !is_stop(&w.lower) && !is_letter(&w.lower))
        .map(|w| w.stem.clone())
        .collect();
    subject.sort();
    subject.dedup();
    Ok(Plan {
        groups,
        stems: words.iter().map(|w| w.stem.clone()).collect(),
        asks_card: asks_about_a_card(&words),
        asks_example,
        capitals: words
            .iter()
            .skip(1)
            .filter(|w| w.capital)
            .map(|w| w.stem.clone())
            .collect(),
        subject,
        read_as,
    })
}

/// The groups of the single words at `chosen`: each with its players' words,
/// its un- form after a negation, and close words when the index lacks it
/// (a misspelt word read as the one meant is added to `read_as`).
fn word_groups(
    words: &[Word],
    chosen: &[usize],
    look: &Lookup<'_>,
    analyzer: &mut TextAnalyzer,
    game: Option<Game>,
    read_as: &mut Vec<(String, String)>,
) -> Result<Vec<Group>> {
    let mut groups: Vec<Group> = Vec::new();
    for &i in chosen {
        let w = &words[i];
        if groups
            .iter()
            .any(|g| g.variants[0].stems == [w.stem.clone()])
        {
            continue;
        }
        let own = look.df(&w.stem)?;
        // A word found as written ("dies") shares its stem with another
        // ("die"): its class speaks for it, its stem weighs little.
        let (synonyms, written) = vocabulary::synonyms(&w.lower, &w.stem, game);
        let mut variants = vec![Variant {
            stems: vec![w.stem.clone()],
            weight: if written { SHARED_STEM_WEIGHT } else { 1.0 },
            known: own > 0,
        }];
        for s in synonyms {
            let weight = if written { 1.0 } else { SYNONYM_WEIGHT };
            variants.push(look.variant(s, weight)?);
        }
        // "nobody piloting" means "unpiloted": the negation and the word are
        // one meaning, found whole in the negated form.
        let mut weight = idf(own, look.docs);
        // A players' word the index lacks ("mana") is no word of another
        // domain: it weighs what the rulebooks' words it stands for weigh
        // (the commonest of them; a phrase by its rarest word).
        if own == 0 {
            for v in variants.iter().skip(1).filter(|v| v.known) {
                let mut rarest = 0.0f32;
                for s in &v.stems {
                    rarest = rarest.max(look.idf(s)?);
                }
                weight = weight.min(rarest);
            }
        }
        if let Some(neg) = (i.saturating_sub(2)..i)
            .rev()
            .find(|&j| is_negator(&words[j].lower))
        {
            let un = text::stems(analyzer, &format!("un{}", w.lower));
            if un.len() == 1 && look.df(&un[0])? > 0 {
                variants.push(look.variant(un, 1.0)?);
                let neg_stem = [words[neg].stem.clone()];
                if let Some(k) = groups.iter().position(|g| g.variants[0].stems == neg_stem) {
                    weight += groups.remove(k).weight;
                }
            }
        }
        // A word the index does not know may be a typo: search the close words it does.
        let mut fuzzy = false;
        if own == 0 && variants.iter().all(|v| !v.known) {
            let mut close: Vec<(String, Vec<String>)> = Vec::new();
            for written in close_words(look.searcher, look.words, &w.lower) {
                let stems = text::stems(analyzer, &written);
                if stems.len() == 1 && close.iter().all(|c| c.1 != stems) {
                    close.push((written, stems));
                }
            }
            // A close word the text also writes beside the question's
            // neighbouring word ("buld points": "build points") is what was
            // meant: the question is read with it.
            if let Some(k) = look.meant(&close, words, i)? {
                let (written, meant) = close.swap_remove(k);
                weight = look.idf(&meant[0])?;
                variants = vec![look.variant(meant, 1.0)?];
                read_as.push((w.lower.clone(), written));
            } else {
                fuzzy = !close.is_empty();
                variants.extend(close.into_iter().map(|(_, stems)| Variant {
                    stems,
                    weight: FUZZY_WEIGHT,
                    known: true,
                }));
            }
        }
        groups.push(Group {
            variants,
            weight,
            fuzzy,
            anchor: false,
        });
    }
    Ok(groups)
}

/// A word the corpus never uses, and no players' word the corpus uses
/// stands for, keeps the weight of a word no document holds, the largest
/// there is: a question whose main words the rulebooks
/// and cards never use is not theirs to answer. One found through close words
/// (a likely typo) weighs what the weightiest known word weighs. Numbers,
/// negations and modals weigh at least [`SMALL_WORD_FLOOR`] of their average;
/// words of casual speech keep [`CASUAL_SHARE`] of their weight.
fn weigh_unknown_and_small(groups: &mut [Group], words: &[Word], chosen: &[usize]) {
    let known: Vec<f32> = groups
        .iter()
        .filter(|g| g.known() && !g.fuzzy)
        .map(|g| g.weight)
        .collect();
    if known.is_empty() {
        return;
    }
    let mean = known.iter().sum::<f32>() / known.len() as f32;
    let max = known.iter().copied().fold(0.0, f32::max);
    for g in groups.iter_mut() {
        let stem = &g.variants[0].stems[0];
        // Whether the group's word, as the question writes it, is of a kind.
        let written = |kind: fn(&str) -> bool| {
            chosen
                .iter()
                .any(|&i| words[i].stem == *stem && kind(&words[i].lower))
        };
        if written(is_casual) {
            g.weight *= CASUAL_SHARE;
        } else if g.fuzzy
            && g.variants
                .iter()
                .all(|v| !v.known || v.weight == FUZZY_WEIGHT)
        {
            g.weight = max;
        } else if written(is_small_but_decisive) {
            g.weight = g.weight.max(mean * SMALL_WORD_FLOOR);
        }
    }
}

/// Most close words a misspelt word is searched by.
const MAX_CLOSE: usize = 4;

/// Indexed words (as written) within [`fuzzy_distance`] edits of `word`
/// that begin with its first letter and, unless swapped, its second (a
/// transposition counting as one edit): the nearest, the commonest first. A
/// typo is corrected from the words as written, not from stems: "critcal"
/// is one edit from "critical" and three from its stem "critic".
fn close_words(searcher: &Searcher, field: Field, word: &str) -> Vec<String> {
    let Some(d) = fuzzy_distance(word) else {
        return Vec::new();
    };
    let chars: Vec<char> = word.chars().collect();
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
                let Ok(close) = std::str::from_utf8(stream.key()) else {
                    continue;
                };
                if close.len().abs_diff(word.len()) > usize::from(d) || close == word {
                    continue;
                }
                let dist = strsim::damerau_levenshtein(close, word);
                if dist <= usize::from(d) {
                    let df = stream.value().doc_freq;
                    match found.iter_mut().find(|f| f.2 == close) {
                        Some(f) => f.1 += df,
                        None => found.push((dist, df, close.to_string())),
                    }
                }
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    // Only the nearest words are likely meant; two or more two edits away
    // are guesses, no typo ("president": precedent, resident...).
    let nearest = found.first().map_or(0, |f| f.0);
    found.retain(|f| f.0 == nearest);
    if nearest >= 2 && found.len() > 1 {
        return Vec::new();
    }
    found.into_iter().take(MAX_CLOSE).map(|f| f.2).collect()
}

/// Edit distance allowed when correcting a word of this length as written;
/// `None` for words too short to correct safely.
fn fuzzy_distance(word: &str) -> Option<u8> {
    match word.chars().count() {
        0..=3 => None,
        4..=7 => Some(1),
        _ => Some(2),
    }
}

/// A term or phrase query over `field`, boosted.
fn leaf(field: Field, stems: &[String], boost: f32, slop: u32) -> Box<dyn Query> {
    let terms: Vec<Term> = stems
        .iter()
        .map(|s| Term::from_field_text(field, s))
        .collect();
    let inner: Box<dyn Query> = match <[Term; 1]>::try_from(terms) {
        Ok([term]) => Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)),
        Err(terms) => {
            let mut q = PhraseQuery::new(terms);
            q.set_slop(slop);
            Box::new(q)
        }
    };
    Box::new(BoostQuery::new(inner, boost))
}

impl Plan {
    /// Whether a word of the question is one the index lacks (found, if at
    /// all, through close words or players' words).
    pub fn lacks_a_word(&self) -> bool {
        self.groups.iter().any(|g| !g.is_phrase() && !g.known())
    }

    /// Whether the question names the card titled with `title` (its stems):
    /// it holds every content word of the title, and either the title has
    /// several, or the question writes it with a capital or asks about a card;
    /// or it holds all of a title of three or more words but one, a name
    /// written with a capital among them.
    pub fn names(&self, title: &[String]) -> bool {
        let content: Vec<&String> = title
            .iter()
            .filter(|s| !is_stop(s) && !is_letter(s))
            .collect();
        match content.as_slice() {
            [] => false,
            [one] => self.stems.contains(one) && (self.asks_card || self.capitals.contains(one)),
            several => {
                // Players shorten a name by a word ("Asajj's lightsabers" for
                // Asajj Ventress With Lightsabers): all words but one, a name
                // written with a capital among them.
                let held = several.iter().filter(|s| self.stems.contains(s)).count();
                held == several.len()
                    || (held >= 2
                        && held + 1 == several.len()
                        && several.iter().any(|s| self.capitals.contains(s)))
            }
        }
    }

    /// Whether a title (its stems) names exactly what the question asks to
    /// have explained: "Fury" for "what does fury do when I roll".
    pub fn is_subject(&self, title: &[String]) -> bool {
        let mut content: Vec<&String> = title
            .iter()
            .filter(|s| !is_stop(s) && !is_letter(s))
            .collect();
        content.sort();
        content.dedup();
        !self.subject.is_empty() && content.iter().copied().eq(self.subject.iter())
    }

    /// Total weight of the groups.
    pub fn total_weight(&self) -> f32 {
        self.groups.iter().map(|g| g.weight).sum()
    }

    /// The tantivy query; `None` when no word can be searched.
    pub fn to_query(&self, f: &Fields, factors: Factors) -> Option<Box<dyn Query>> {
        let mut clauses: Vec<(Box<dyn Query>, f32)> = Vec::new();
        for g in &self.groups {
            let mut disjuncts: Vec<Box<dyn Query>> = Vec::new();
            for v in g.variants.iter().filter(|v| v.known) {
                for (field, boost) in [(f.title, TITLE_BOOST), (f.body, BODY_BOOST)] {
                    disjuncts.push(leaf(field, &v.stems, boost * v.weight, 0));
                }
            }
            if !disjuncts.is_empty() {
                let q = DisjunctionMaxQuery::with_tie_breaker(disjuncts, TIE_BREAKER);
                clauses.push((Box::new(q), g.covers()));
            }
        }
        if clauses.is_empty() {
            return None;
        }
        // Neighbouring words found together (or one word apart): best of
        // title and body, so a pair in both does not count twice.
        let words: Vec<&Group> = self.groups.iter().filter(|g| !g.is_phrase()).collect();
        for pair in words.windows(2) {
            // Not a word whose stem stands for another word too.
            let own = |g: &Group| g.known() && g.is_own_word();
            if !(own(pair[0]) && own(pair[1])) {
                continue;
            }
            let stems = [
                pair[0].variants[0].stems[0].clone(),
                pair[1].variants[0].stems[0].clone(),
            ];
            let disjuncts = [(f.title, TITLE_BOOST), (f.body, BODY_BOOST)]
                .map(|(field, boost)| leaf(field, &stems, PAIR_BOOST * boost, 1));
            clauses.push((Box::new(DisjunctionMaxQuery::new(disjuncts.into())), 0.0));
        }
        Some(Box::new(Cover {
            clauses,
            total: self.total_weight(),
            gamma: GAMMA,
            factors,
        }))
    }

    /// Stems to highlight in snippets, with their weights.
    pub fn highlight_terms(&self) -> BTreeMap<String, f32> {
        let mut out = BTreeMap::new();
        for g in &self.groups {
            for v in g.variants.iter().filter(|v| v.known) {
                for s in &v.stems {
                    out.entry(s.clone()).or_insert(v.weight * g.weight);
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
    fn stop_words_are_sorted() {
        assert!(
            STOP_WORDS.windows(2).all(|w| w[0] < w[1]),
            "STOP_WORDS must be sorted and unique"
        );
        assert!(is_stop("the") && !is_stop("not") && !is_stop("cannot"));
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
    fn card_questions_are_told_from_rules_questions() {
        let mut a = text::analyzer();
        assert!(asks_about_a_card(&split(
            "what does Vader's Cape do",
            &mut a
        )));
        assert!(!asks_about_a_card(&split(
            "how many cards do I draw for my opening hand",
            &mut a
        )));
        assert!(!asks_about_a_card(&split(
            "what do I do when my deck is empty",
            &mut a
        )));
        assert!(!asks_about_a_card(&split(
            "can I react to my own battle",
            &mut a
        )));
    }

    #[test]
    fn the_subject_of_a_question_is_found() {
        let mut a = text::analyzer();
        let mut lower = |q: &str| -> Vec<String> {
            subject(&split(q, &mut a))
                .iter()
                .map(|w| w.lower.clone())
                .collect()
        };
        assert_eq!(lower("what does fury do when I roll my dice"), ["fury"]);
        assert_eq!(lower("how does a jedi test work"), ["a", "jedi", "test"]);
        assert_eq!(lower("what is a critical hit"), ["a", "critical", "hit"]);
        assert!(lower("can I react to my own battle").is_empty());
        assert!(lower("what does it cost to deploy").is_empty());
    }

    #[test]
    fn contractions_without_apostrophes_and_the_pronoun_i() {
        let mut a = text::analyzer();
        let lower = |ws: &[Word]| ws.iter().map(|w| w.lower.clone()).collect::<Vec<_>>();
        let ws = split("whats Emperor's Favor do", &mut a);
        assert_eq!(lower(&ws), ["what", "emperor", "favor", "do"]);
        assert!(asks_about_a_card(&ws));
        let ws = split("if I dont have enough", &mut a);
        assert_eq!(lower(&ws), ["if", "i", "do", "not", "have", "enough"]);
        // "I" starts no name: the card is Jump to Lightspeed.
        let ws = split("can I Jump to Lightspeed a ship", &mut a);
        assert_eq!(phrases(&ws), [(2..5, true)]);
        assert!(is_casual("right") && !is_casual("not"));
    }

    #[test]
    fn short_words_are_not_corrected() {
        assert_eq!(fuzzy_distance("die"), None);
        assert_eq!(fuzzy_distance("shiel"), Some(1));
        assert_eq!(fuzzy_distance("dockng"), Some(1));
        assert_eq!(fuzzy_distance("uniqueness"), Some(2));
    }
}
