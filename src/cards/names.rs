//! Card names: one normaliser, the exact-name tables, stable references,
//! personas, and fuzzy matching.
//!
//! A lookup first tries exact names, in tiers: the same bytes as a title or a
//! label, then the same letters (case, punctuation, spaces and uniqueness marks
//! ignored), then the same letters once version qualifiers such as "(A)" or
//! "(V)" are dropped, then a nickname from the card data. Only when no tier has a
//! card does fuzzy matching start.
//!
//! A **reference** names one card for good: `GAME:ID`, the card's ID in its
//! source database (`swccg:1098`, `destiny:01093`, `swtcg:ROTS-12`). When two
//! stored cards share it, the later one gets `@<file>` appended.
//!
//! **Personas** come from the SWCCG Advanced Rulebook's persona lists (Appendix D):
//! "Vader" names every card whose title holds the words "Vader", or one of the
//! persona's other names the list gives ("also depicted as Ben Kenobi").

//!
//! **Fuzzy matching** ([`Matcher`]): names are normalised (lowercase,
//! diacritics and punctuation removed, uniqueness marks dropped, hyphens split
//! words, apostrophes join them), then scored against a query by token overlap
//! (with typo tolerance, plural/possessive `s`, and words run together such as
//! "quigon"), word order, whole-string Jaro-Winkler, and prefix/containment on
//! the space-free form. Parenthesised qualifiers ("(V)", "(AI)", "(Premiere)",
//! SWTCG version letters "(A)") are kept apart: a card carrying a qualifier the
//! query did not ask for scores lower than the plain card. Scores are in 0..=1.
//! Token similarities against the whole vocabulary are computed once per query,
//! so a lookup stays fast over tens of thousands of names.

use super::Card;
use crate::game::Game;
use crate::rulebook::Corpus;
use regex::Regex;
use rustc_hash::FxHashMap as HashMap;
use std::sync::LazyLock;

/// How exactly a name matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    Bytes,
    Letters,
    Version,
    /// A location's own name after its system or planet ("Mos Eisley" for
    /// "Tatooine: Mos Eisley").
    Part,
    Nickname,
}

/// One of the exact-name tables: a tier, the references, the front titles,
/// the sets and positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Table {
    Tier(Tier),
    Ref,
    Front,
    /// A set and position ([`set_number_key`]).
    SetNumber,
}

impl Table {
    /// A number per table, for a name index kept on disk.
    pub fn code(self) -> u8 {
        match self {
            Table::Tier(t) => t as u8,
            Table::Ref => 5,
            Table::Front => 6,
            Table::SetNumber => 7,
        }
    }
}

/// The key of a set and position (any case of the set).
pub fn set_number_key(set: &str, number: &str) -> String {
    format!("{}\u{0}{number}", set.to_ascii_lowercase())
}

/// The key a reference is found by.
fn ref_key(query: &str) -> String {
    query.trim().to_lowercase()
}

/// The keys each tier is searched for `query` by, tier by tier.
fn tier_keys(query: &str) -> Vec<(Tier, Vec<String>)> {
    let q = query.trim();
    let l = letters(q);
    let mut spellings = vec![l.clone()];
    spellings.extend(other_spellings(&l));
    vec![
        (Tier::Bytes, vec![q.to_string()]),
        (Tier::Letters, vec![l.clone()]),
        (Tier::Version, spellings),
        (Tier::Part, vec![l.clone()]),
        (Tier::Nickname, vec![l]),
    ]
}

/// Every table key a lookup of `query` reads (its references, each tier, the
/// front titles): a name index answers with the cards under these keys.
pub fn lookup_keys(query: &str) -> Vec<(Table, String)> {
    let mut out = vec![(Table::Ref, ref_key(query))];
    for (tier, keys) in tier_keys(query) {
        out.extend(keys.into_iter().map(|k| (Table::Tier(tier), k)));
    }
    out.push((Table::Front, letters(query)));
    out
}

/// The title without trailing parenthesised qualifiers: "Han Solo (A)" → "Han Solo".
pub(crate) fn base_title(title: &str) -> &str {
    let mut t = title.trim();
    while t.ends_with(')') {
        match t.rfind('(') {
            Some(i) if i > 0 => t = t[..i].trim_end(),
            _ => break,
        }
    }
    t
}

/// One persona: its standard name and other names, each as normalised words.
#[derive(Debug, Clone, PartialEq)]
pub struct Persona {
    pub name: String,
    pub names: Vec<Vec<String>>,
}

/// Exact-name tables over a card list.
#[derive(Debug, Default)]
pub struct Names {
    /// Each table's keys and the cards under them: the references, each tier,
    /// and two-sided cards by the letters of their front title ("Hidden Base"
    /// of "Hidden Base / Systems Will Slip Through Your Fingers").
    tables: HashMap<(Table, String), Vec<usize>>,
    personas: Vec<Persona>,
    /// Normalised title words per card, for persona membership.
    words: Vec<Vec<String>>,
    /// Each card's game, as a number.
    game: Vec<usize>,
}

/// The same persona as another game spells it: the SWCCG's "Darth Maul" is
/// Destiny's "Maul" (letters only, both ways).
const SPELLINGS: &[(&str, &str)] = &[
    ("darthmaul", "maul"),
    ("darthvader", "vader"),
    ("darthsidious", "palpatine"),
    ("emperorpalpatine", "palpatine"),
    ("countdooku", "dooku"),
    ("darthtyranus", "dooku"),
    ("benkenobi", "obiwankenobi"),
    ("generalgrievous", "grievous"),
    ("kyloren", "bensolo"),
    ("chewie", "chewbacca"),
];

/// The other spellings of a persona's name, as letters.
fn other_spellings(l: &str) -> Vec<String> {
    SPELLINGS
        .iter()
        .flat_map(|&(a, b)| [(a, b), (b, a)])
        .filter(|&(name, _)| name == l)
        .map(|(_, other)| other.to_string())
        .collect()
}

impl Names {
    pub fn new(
        cards: &[Card],
        labels: &[String],
        refs: &[String],
        nicknames: &[(usize, String)],
    ) -> Names {
        let mut n = Names::default();
        for (i, r) in refs.iter().enumerate() {
            n.tables.insert((Table::Ref, ref_key(r)), vec![i]);
        }
        let mut add = |table: Table, key: String, i: usize| {
            if key.is_empty() {
                return;
            }
            let v = n.tables.entry((table, key)).or_default();
            if !v.contains(&i) {
                v.push(i);
            }
        };
        for (i, c) in cards.iter().enumerate() {
            let title = c.title.trim();
            let mut bytes = vec![title.to_string()];
            let mut more = |b: String| {
                if !bytes.contains(&b) {
                    bytes.push(b);
                }
            };
            more(labels[i].trim().to_string());
            if let Some(u) = &c.uniqueness {
                more(format!("{u}{title}"));
            }
            if let Some(sub) = &c.subtitle {
                more(format!("{title} - {sub}"));
                more(format!("{title}, {sub}"));
            }
            let mut seen = String::new();
            for b in bytes {
                let l = letters(&b);
                add(Table::Tier(Tier::Bytes), b, i);
                // the label and the title often have the same letters
                if l != seen {
                    add(Table::Tier(Tier::Letters), l.clone(), i);
                    seen = l;
                }
            }
            add(Table::Tier(Tier::Version), letters(base_title(&c.title)), i);
            if let Some((_, part)) = base_title(&c.title).split_once(": ") {
                add(Table::Tier(Tier::Part), letters(part), i);
            }
            for nick in &c.nicknames {
                add(Table::Tier(Tier::Nickname), letters(nick), i);
            }
            if let Some((front, _)) = c.title.split_once(" / ") {
                add(Table::Front, letters(front), i);
            }
            if let (Some(set), Some(number)) = (&c.set, &c.number) {
                add(Table::SetNumber, set_number_key(set, number), i);
            }
        }
        for (i, nick) in nicknames {
            add(Table::Tier(Tier::Nickname), letters(nick), *i);
        }
        n.game = cards.iter().map(|c| c.game as usize).collect();
        n
    }

    /// The persona lists, and each card's title words they are matched against.
    pub fn set_personas(&mut self, personas: Vec<Persona>, cards: &[Card]) {
        self.personas = personas;
        self.words = cards.iter().map(|c| words(&c.title)).collect();
    }

    /// The card a reference names (`swccg:1098`, any case).
    pub fn by_ref(&self, query: &str) -> Option<usize> {
        self.tables
            .get(&(Table::Ref, ref_key(query)))
            .and_then(|v| v.first().copied())
    }

    /// Each game's cards of this name, at the first tier at which that game has
    /// any kept by `keep` ("Boba Fett" is a title in one game and a title with
    /// version letters in another), with the best tier found.
    pub fn exact(&self, query: &str, keep: impl Fn(usize) -> bool) -> Option<(Tier, Vec<usize>)> {
        let mut best: Option<Tier> = None;
        let mut out: Vec<usize> = Vec::new();
        let mut games_done: Vec<usize> = Vec::new();
        for (tier, keys) in tier_keys(query) {
            let mut found: Vec<usize> = Vec::new();
            for k in keys {
                let cards = self.tables.get(&(Table::Tier(tier), k));
                for &i in cards.into_iter().flatten() {
                    if keep(i) && !games_done.contains(&self.game[i]) && !found.contains(&i) {
                        found.push(i);
                    }
                }
            }
            if found.is_empty() {
                continue;
            }
            best.get_or_insert(tier);
            // every card found is of a game no earlier tier answered
            out.extend(&found);
            games_done.extend(found.iter().map(|&i| self.game[i]));
        }
        best.map(|t| (t, out))
    }

    /// Every table entry: the table, its key and the cards it names (for a
    /// name index kept on disk).
    pub fn entries(&self) -> impl Iterator<Item = (Table, &str, &[usize])> {
        self.tables
            .iter()
            .map(|((t, k), v)| (*t, k.as_str(), v.as_slice()))
    }

    /// The cards at a set and position (any case of the set).
    pub fn at_set_number(&self, set: &str, number: &str) -> &[usize] {
        let key = (Table::SetNumber, set_number_key(set, number));
        self.tables.get(&key).map_or(&[], Vec::as_slice)
    }

    /// The two-sided cards whose front title is `query` (same letters).
    pub fn front(&self, query: &str) -> &[usize] {
        self.tables
            .get(&(Table::Front, letters(query)))
            .map_or(&[], Vec::as_slice)
    }

    /// Cards of the persona the query names ("vader", "luke"), in card order.
    pub fn persona_members(&self, query: &str) -> Vec<usize> {
        let l = letters(query);
        let Some(p) = self
            .personas
            .iter()
            .find(|p| letters(&p.name) == l && !l.is_empty())
        else {
            return Vec::new();
        };
        (0..self.words.len())
            .filter(|&i| p.names.iter().any(|n| contains_run(&self.words[i], n)))
            .collect()
    }
}

/// Whether `words` holds `run` as consecutive words.
fn contains_run(words: &[String], run: &[String]) -> bool {
    !run.is_empty() && words.windows(run.len()).any(|w| w == run)
}

/// A stable reference per card: `GAME:ID`, made unique with `@<file>` (and
/// `@<file>.<n>` when one file holds the ID twice), so that every reference
/// typed back names the card it was shown for.
pub fn references(cards: &[Card]) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::default();
    cards
        .iter()
        .map(|c| {
            let base = format!("{}:{}", c.game, c.id);
            let file = c.source.split('#').next().unwrap_or("");
            let mut candidates = [base.clone(), format!("{base}@{file}")]
                .into_iter()
                .chain((2..).map(|n| format!("{base}@{file}.{n}")));
            loop {
                let r = candidates.next().expect("an endless list");
                let n = seen.entry(r.to_lowercase()).or_default();
                *n += 1;
                if *n == 1 {
                    break r;
                }
            }
        })
        .collect()
}

static OTHER_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:also|and)\s+(?:be\s+)?(?:seen|depicted|called|known|referred to)(?:\s+disguised)?\s+as\s+([^,;()]+)")
        .expect("valid regex")
});

/// Personas from the rulebook's persona lists: each list item "Name (notes)" under
/// the SWCCG persona-list sections.
pub fn personas_from(corpus: &Corpus) -> Vec<Persona> {
    let mut out = Vec::new();
    let lists = corpus.sections.iter().filter(|s| {
        s.game == Game::Swccg
            && !s.superseded
            && (s.id.ends_with("persona-lists")
                || s.parent
                    .as_deref()
                    .is_some_and(|p| p.ends_with("persona-lists")))
    });
    for s in lists {
        for line in s.body.lines() {
            let Some(item) = line.trim().strip_prefix("- ") else {
                continue;
            };
            let plain = crate::rulebook::markdown_to_plain(item);
            let (name, notes) = match plain.split_once('(') {
                Some((n, rest)) => (n.trim(), rest),
                None => (plain.trim(), ""),
            };
            let name = name.trim_end_matches('.').trim();
            if name.is_empty() {
                continue;
            }
            let mut names = vec![words(name)];
            for c in OTHER_NAME.captures_iter(notes) {
                for other in c[1].split(" or ") {
                    let other = other
                        .trim()
                        .trim_end_matches(['.', ' '])
                        .trim_end_matches(" etc");
                    if !other.is_empty() {
                        names.push(words(other));
                    }
                }
            }
            out.push(Persona {
                name: name.to_string(),
                names,
            });
        }
    }
    out
}

/// A name's normalised words.
fn words(s: &str) -> Vec<String> {
    normalize(s)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Two candidates within this distance of the top are "close": ask, don't guess.
pub const AMBIGUITY_MARGIN: f64 = 0.05;
/// Below this a candidate is not offered at all.
pub const MIN_SCORE: f64 = 0.55;
/// The best candidate must reach this to be taken as the answer.
pub const ACCEPT_SCORE: f64 = 0.65;

/// Lowercase, strip diacritics, uniqueness marks and punctuation; collapse spaces.
/// Hyphens, slashes, commas and the like separate words; apostrophes do not.
pub fn normalize(s: &str) -> String {
    normalize_with(s, true)
}

/// [`normalize`] without the spaces between words: "•Han... Solo" → "hansolo".
pub fn letters(s: &str) -> String {
    normalize_with(s, false)
}

fn normalize_with(s: &str, spaces: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_ascii() {
            // the common case, without folding or Unicode case tables
            if c.is_ascii_alphanumeric() {
                if spaces && space && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.push(c.to_ascii_lowercase());
            } else if !matches!(c, '\'' | '`') {
                space = true;
            }
            continue;
        }
        for c in fold(c) {
            if c.is_alphanumeric() {
                if spaces && space && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.extend(c.to_lowercase());
            } else if matches!(
                c,
                '\'' | '\u{2019}' | '\u{2018}' | '`' | '\u{2022}' | '\u{00b7}'
            ) {
                // apostrophes join ("Han's" -> "hans"); uniqueness dots vanish
            } else {
                space = true;
            }
        }
    }
    out
}

/// Fold accented Latin letters to ASCII; other characters pass through.
fn fold(c: char) -> impl Iterator<Item = char> {
    let s: &'static str = match c {
        'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' | 'ā' => "a",
        'Á' | 'À' | 'Â' | 'Ä' | 'Ã' | 'Å' => "A",
        'é' | 'è' | 'ê' | 'ë' | 'ē' => "e",
        'É' | 'È' | 'Ê' | 'Ë' => "E",
        'í' | 'ì' | 'î' | 'ï' => "i",
        'Í' | 'Ì' | 'Î' | 'Ï' => "I",
        'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'ø' => "o",
        'Ó' | 'Ò' | 'Ô' | 'Ö' | 'Õ' | 'Ø' => "O",
        'ú' | 'ù' | 'û' | 'ü' => "u",
        'Ú' | 'Ù' | 'Û' | 'Ü' => "U",
        'ñ' => "n",
        'Ñ' => "N",
        'ç' => "c",
        'Ç' => "C",
        'ý' | 'ÿ' => "y",
        'æ' => "ae",
        'œ' => "oe",
        'ß' => "ss",
        _ => "",
    };
    let single = if s.is_empty() { Some(c) } else { None };
    s.chars().chain(single)
}

/// A name split into its base words and its parenthesised qualifiers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    pub base: Vec<String>,
    /// Each qualifier group, normalised, e.g. `["v"]`, `["ai"]`, `["premiere"]`.
    pub qualifiers: Vec<String>,
}

impl Split {
    /// The base and the qualifiers without spaces: "hansolo" and "v" → "hansolov".
    fn compact(&self) -> String {
        let mut s = self.base.concat();
        for q in &self.qualifiers {
            s.push_str(&q.replace(' ', ""));
        }
        s
    }
}

/// Split "Obi-Wan Kenobi, Padawan Learner (V) (AI)" into base words and qualifiers.
/// Only trailing parenthesised groups are qualifiers; "2-1B (Too-Onebee)" keeps its
/// nickname as a qualifier too, which the matcher treats as optional words.
pub fn split_name(name: &str) -> Split {
    let mut rest = name.trim();
    let mut quals = Vec::new();
    while rest.ends_with(')') {
        let Some(open) = rest.rfind('(') else { break };
        let inner = normalize(&rest[open + 1..rest.len() - 1]);
        if !inner.is_empty() {
            quals.push(inner);
        }
        rest = rest[..open].trim_end();
    }
    quals.reverse();
    let base = words(rest);
    if base.is_empty() {
        // "(V)" alone: treat the qualifier as the name
        let words = quals
            .iter()
            .flat_map(|q| q.split(' '))
            .map(str::to_string)
            .collect();
        return Split {
            base: words,
            qualifiers: Vec::new(),
        };
    }
    Split {
        base,
        qualifiers: quals,
    }
}

/// Words that qualify a version rather than name a card.
fn is_version_word(w: &str) -> bool {
    matches!(w, "v" | "ai") || (w.len() == 1 && w.chars().all(|c| c.is_ascii_lowercase()))
}

#[derive(Debug, Clone)]
struct Entry {
    /// Caller's key (e.g. card index).
    key: usize,
    /// Base word ids.
    base: Vec<u32>,
    /// Qualifier groups as word ids.
    quals: Vec<Vec<u32>>,
    /// Normalised base with spaces.
    base_norm: String,
    /// Normalised full name (base + qualifiers), space-free, for exact tests.
    full_compact: String,
    /// Base, space-free.
    base_compact: String,
    /// Offsets in `base_compact` where a word ends.
    bounds: Vec<usize>,
    /// A nickname rather than the title: close (not exact) matches count a little less.
    alias: bool,
}

/// A name index: add names with a key, then query.
#[derive(Debug, Default, Clone)]
pub struct Matcher {
    words: Vec<String>,
    word_ids: HashMap<String, u32>,
    entries: Vec<Entry>,
}

/// One scored key: 1 when the query is its title once normalised (space-free,
/// qualifiers included).
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub key: usize,
    pub score: f64,
}

impl Matcher {
    fn word_id(&mut self, w: &str) -> u32 {
        if let Some(&id) = self.word_ids.get(w) {
            return id;
        }
        let id = self.words.len() as u32;
        self.words.push(w.to_string());
        self.word_ids.insert(w.to_string(), id);
        id
    }

    /// Add one name for `key`. A key may have several names (title, nicknames).
    pub fn add(&mut self, key: usize, name: &str) {
        self.add_name(key, name, false);
    }

    /// Add a nickname for `key`.
    pub fn add_alias(&mut self, key: usize, name: &str) {
        self.add_name(key, name, true);
    }

    fn add_name(&mut self, key: usize, name: &str, alias: bool) {
        let split = split_name(name);
        if split.base.is_empty() {
            return;
        }
        let base: Vec<u32> = split.base.iter().map(|w| self.word_id(w)).collect();
        let quals: Vec<Vec<u32>> = split
            .qualifiers
            .iter()
            .map(|q| q.split(' ').map(|w| self.word_id(w)).collect())
            .collect();
        let base_norm = split.base.join(" ");
        let base_compact: String = split.base.concat();
        let bounds = split
            .base
            .iter()
            .scan(0, |acc, w| {
                *acc += w.len();
                Some(*acc)
            })
            .collect();
        let full_compact = split.compact();
        self.entries.push(Entry {
            key,
            base,
            quals,
            base_norm,
            full_compact,
            base_compact,
            bounds,
            alias,
        });
    }

    /// Score every name against `query`; best hit per key, best first.
    pub fn search(&self, query: &str) -> Vec<Hit> {
        let q = split_name(query);
        if q.base.is_empty() {
            return Vec::new();
        }
        // Query words: base words, then qualifier words (explicit "(V)").
        let q_words: Vec<&str> = q.base.iter().map(String::as_str).collect();
        let q_quals: Vec<&str> = q.qualifiers.iter().flat_map(|g| g.split(' ')).collect();
        let q_norm = q.base.join(" ");
        let q_compact: String = q.base.concat();
        let q_full_compact = q.compact();

        // Similarity of each query word to each vocabulary word, computed once
        // (1 only for the same word).
        let sims: Vec<Vec<f32>> = q_words
            .iter()
            .chain(q_quals.iter())
            .map(|qw| self.words.iter().map(|w| word_sim(qw, w) as f32).collect())
            .collect();

        // Each name's score, and the most the whole-string Jaro-Winkler term
        // (up to JW_WEIGHT) could give it: a name is kept unless even that
        // leaves it more than KEEP_WITHIN below the least the best name scores.
        let mut scored: Vec<(&Entry, f64, f64)> = Vec::new();
        let mut best_low = 0.0f64;
        for e in &self.entries {
            let Some(p) = self.score_entry(e, &q_words, &q_quals, &sims, &q_compact) else {
                continue;
            };
            let same = e.full_compact == q_full_compact
                || (q.qualifiers.is_empty() && e.full_compact == q_compact);
            let finish = |jw| self.finish(e, &p, jw, &q_compact, same);
            let (low, high) = (finish(0.0), finish(1.0));
            if high < MIN_SCORE {
                continue;
            }
            best_low = best_low.max(low);
            let score = if p.uses_jw && high > low {
                finish(strsim::jaro_winkler(&q_norm, &e.base_norm))
            } else {
                low
            };
            scored.push((e, score, high));
        }
        let mut best: HashMap<usize, f64> = HashMap::default();
        for (e, score, high) in scored {
            if high >= best_low - KEEP_WITHIN && score >= MIN_SCORE {
                let b = best.entry(e.key).or_insert(score);
                *b = b.max(score);
            }
        }
        let mut hits: Vec<Hit> = best
            .into_iter()
            .map(|(key, score)| Hit { key, score })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.key.cmp(&b.key)));
        hits
    }

    fn score_entry(
        &self,
        e: &Entry,
        q_words: &[&str],
        q_quals: &[&str],
        sims: &[Vec<f32>],
        q_compact: &str,
    ) -> Option<Partial> {
        let nq = q_words.len();
        let nb = e.base.len();
        // Best match of each query word among base words, allowing a query word to
        // span two or three consecutive base words ("quigon" = "qui" + "gon").
        let mut total = 0.0f64;
        // cheap rejection: no word of this name is like any query word, and the
        // space-free query is not inside the name
        let hot = |w: &u32| {
            sims.iter().any(|row| row[*w as usize] > 0.0)
                || q_words
                    .iter()
                    .any(|qw| qw.len() >= 4 && qw.starts_with(self.words[*w as usize].as_str()))
        };
        if !e.base.iter().any(hot)
            && !e.quals.iter().flatten().any(hot)
            && prefix_score(e, q_compact).is_none()
        {
            return None;
        }
        let mut covered = vec![false; nb];
        let mut positions: Vec<Option<usize>> = Vec::with_capacity(nq);
        let mut bests: Vec<f64> = Vec::with_capacity(nq);
        let mut cover_sum = 0.0f64;
        // the query's words are the name's first words, in order ("han heavy blaster")
        let mut from_start = true;
        for (qi, qw) in q_words.iter().enumerate() {
            let mut best = 0.0f64;
            let mut best_pos = None;
            let mut best_span = 1;
            for (j, &w) in e.base.iter().enumerate() {
                let s = sims[qi][w as usize] as f64;
                if s > best {
                    best = s;
                    best_pos = Some(j);
                    best_span = 1;
                }
            }
            if best < 1.0
                && qw.len() >= 4
                && let Some((s, j, span)) = self.best_joined(e, qw)
                && s > best
            {
                best = s;
                best_pos = Some(j);
                best_span = span;
            }
            bests.push(best);
            if best > 0.0 {
                cover_sum += best * best_span as f64;
            }
            if let Some(p) = best_pos {
                for c in covered.iter_mut().skip(p).take(best_span) {
                    *c = true;
                }
                let expected = positions.last().copied().flatten().map_or(0, |l| l + 1);
                if p != expected {
                    from_start = false;
                }
                positions.push(Some(p + best_span - 1));
            } else {
                from_start = false;
                positions.push(None);
            }
            total += best;
        }
        // Qualifiers named by the query: plain words ("luke skywalker v") or
        // parenthesised ("Luke (V)").
        let mut quals_hit = vec![false; e.quals.len()];
        let mut recall_num = total;
        for (qi, best) in bests.iter().enumerate() {
            let hit = e
                .quals
                .iter()
                .position(|g| g.iter().any(|&w| sims[qi][w as usize] == 1.0));
            if let Some(gi) = hit {
                quals_hit[gi] = true;
                if *best < 1.0 {
                    recall_num += 1.0 - best;
                }
            }
        }
        let mut unmatched_q = 0.0f64;
        for (k, qw) in q_quals.iter().enumerate() {
            let qi = q_words.len() + k;
            let hit = e
                .quals
                .iter()
                .position(|g| g.iter().any(|&w| sims[qi][w as usize] >= 0.95));
            match hit {
                Some(gi) => {
                    quals_hit[gi] = true;
                    recall_num += 0.5;
                }
                None => unmatched_q += if is_version_word(qw) { 2.5 } else { 1.0 },
            }
        }
        if total <= 0.0 {
            // maybe the space-free query is a prefix of the name ("quigonj")
            prefix_score(e, q_compact)?;
            return Some(Partial {
                base: 0.0,
                uses_jw: false,
                quals_hit,
                unmatched_q,
            });
        }
        let recall = recall_num / (nq as f64 + q_quals.len() as f64 * 0.5);
        let precision = (cover_sum / nb as f64).min(1.0);
        // In-order adjacency of matched query words; a lone word counts as ordered
        // when it matches the first base word.
        let adjacency = adjacency(&positions, &covered);
        let mut base = 0.5 * recall + 0.3 * precision + 0.1 * adjacency;
        if from_start {
            base += START_BONUS;
        }
        Some(Partial {
            base,
            uses_jw: true,
            quals_hit,
            unmatched_q,
        })
    }

    /// The best match of a query word with two or three consecutive base words
    /// joined ("quigon" = "qui" + "gon"): (score, first word, span).
    fn best_joined(&self, e: &Entry, qw: &str) -> Option<(f64, usize, usize)> {
        let nb = e.base.len();
        let mut best: Option<(f64, usize, usize)> = None;
        for span in 2..=3usize {
            for j in 0..nb.saturating_sub(span - 1) {
                let joined_len: usize = e.base[j..j + span]
                    .iter()
                    .map(|&w| self.words[w as usize].len())
                    .sum();
                if joined_len != qw.len() && joined_len != qw.len() + 1 {
                    continue;
                }
                let mut joined = String::with_capacity(joined_len);
                for &w in &e.base[j..j + span] {
                    joined.push_str(&self.words[w as usize]);
                }
                let s = if joined == qw {
                    1.0
                } else if plural_of(&joined, qw) {
                    POSSESSIVE
                } else {
                    0.0
                };
                if s > best.map_or(0.0, |b| b.0) {
                    best = Some((s, j, span));
                }
            }
        }
        best
    }

    /// The final score of a name from its partial score and the whole-string
    /// Jaro-Winkler similarity `jw`; `same`: the name is the query once normalised.
    fn finish(&self, e: &Entry, p: &Partial, jw: f64, q_compact: &str, same: bool) -> f64 {
        let mut score = if p.uses_jw {
            p.base + JW_WEIGHT * jw
        } else {
            0.0
        };
        // Prefix / containment on the space-free form.
        if let Some(ps) = prefix_score(e, q_compact) {
            score = score.max(ps);
        }
        if e.base_compact == q_compact && p.unmatched_q == 0.0 {
            score = score.max(0.97);
        }
        // Qualifiers: asked-for and present is good; present but not asked costs,
        // and so does asking for one the card does not have.
        score = score.min(1.0);
        score -= self.unasked_qualifiers(e, &p.quals_hit);
        score -= 0.1 * p.unmatched_q;
        let score = score.clamp(0.0, 1.0);
        match (same, e.alias) {
            (true, false) => 1.0,
            (true, true) => 1.0 - ALIAS_DISCOUNT,
            (false, false) => score.min(0.99),
            (false, true) => score.min(0.99) - ALIAS_DISCOUNT,
        }
    }

    /// Penalty for qualifiers the card has but the query did not ask for.
    fn unasked_qualifiers(&self, e: &Entry, quals_hit: &[bool]) -> f64 {
        e.quals
            .iter()
            .zip(quals_hit)
            .filter(|(_, hit)| !**hit)
            .map(|(g, _)| {
                if g.len() == 1 && is_version_word(&self.words[g[0] as usize]) {
                    0.07
                } else {
                    0.03
                }
            })
            .sum()
    }
}

/// A qualifier-free query that is a prefix of (or contained in) the space-free
/// name: "quigon" in "quigonjinn". Ending on a word boundary counts more.
fn prefix_score(e: &Entry, q_compact: &str) -> Option<f64> {
    if q_compact.len() < 4 {
        return None;
    }
    let ratio = q_compact.len() as f64 / e.base_compact.len() as f64;
    if e.base_compact.starts_with(q_compact) {
        let boundary = if e.bounds.contains(&q_compact.len()) {
            0.05
        } else {
            0.0
        };
        Some(0.55 + 0.35 * ratio + boundary)
    } else if e.base_compact.contains(q_compact) {
        Some(0.6 + 0.25 * ratio)
    } else {
        None
    }
}

/// Partial score of one name, before the whole-string similarity term.
#[derive(Debug, Clone)]
struct Partial {
    /// Recall, precision, adjacency and start terms (0 when only the prefix rule matched).
    base: f64,
    uses_jw: bool,
    quals_hit: Vec<bool>,
    unmatched_q: f64,
}

/// Weight of the whole-string Jaro-Winkler term.
const JW_WEIGHT: f64 = 0.1;

/// Names scoring more than this below the best are not returned.
pub const KEEP_WITHIN: f64 = 0.25;

/// Bonus when the query's words are the name's first words, in order.
const START_BONUS: f64 = 0.04;

/// How much less a close (not exact) nickname match counts than a title match.
const ALIAS_DISCOUNT: f64 = 0.06;

/// Score for a plural / possessive word: "han" for "hans".
const POSSESSIVE: f64 = 0.9;

/// Whether `word` is `base` with an `s` after it (a plural or possessive).
fn plural_of(word: &str, base: &str) -> bool {
    word.len() == base.len() + 1 && word.ends_with('s') && word.starts_with(base)
}

/// Similarity of a query word to a name word, 0..=1.
fn word_sim(q: &str, w: &str) -> f64 {
    if q == w {
        return 1.0;
    }
    // plural / possessive: "wans" ~ "wan", "han" ~ "hans"
    if plural_of(w, q) || plural_of(q, w) {
        return POSSESSIVE;
    }
    let digits = |s: &str| s.chars().any(|c| c.is_ascii_digit());
    if digits(q) || digits(w) {
        // model numbers: digits must agree; one mistyped letter is allowed ("I7" / "l7")
        let diff: Vec<(char, char)> = q.chars().zip(w.chars()).filter(|(a, b)| a != b).collect();
        return if q.len() == w.len()
            && q.len() >= 2
            && diff.len() == 1
            && diff[0].0.is_alphabetic()
            && diff[0].1.is_alphabetic()
        {
            0.7
        } else {
            0.0
        };
    }
    // a typed prefix of a long word: "skywal" for "skywalker"
    if q.len() >= 3 && w.len() > q.len() && w.starts_with(q) {
        return 0.75 + 0.2 * q.len() as f64 / w.len() as f64;
    }
    if q.len() >= 4 && w.len() >= 4 && q.len().abs_diff(w.len()) <= 2 {
        // typos keep the first letter, or swap the first two
        let (qb, wb) = (q.as_bytes(), w.as_bytes());
        if qb[0] != wb[0] && !(qb[0] == wb[1] && qb[1] == wb[0]) {
            return 0.0;
        }
        let d = strsim::damerau_levenshtein(q, w);
        let long = q.len().max(w.len());
        // one slip in a short word changes it more than in a long one
        return match (d, long) {
            (1, 8..) => 0.88,
            (1, 6..) => 0.82,
            (1, _) => 0.7,
            (2, 8..) => 0.72,
            _ => 0.0,
        };
    }
    0.0
}

/// In-order adjacency of the matched query words (positions: the base word each
/// matched, in query order); a lone word counts as ordered when it matches the
/// first base word.
fn adjacency(positions: &[Option<usize>], covered: &[bool]) -> f64 {
    if positions.len() == 1 {
        return if positions[0] == Some(0) || covered.first() == Some(&true) {
            1.0
        } else {
            0.5
        };
    }
    let mut good = 0.0;
    for w in positions.windows(2) {
        if let (Some(a), Some(b)) = (w[0], w[1])
            && b > a
        {
            good += if b == a + 1 { 1.0 } else { 0.5 };
        }
    }
    good / (positions.len() - 1) as f64
}
