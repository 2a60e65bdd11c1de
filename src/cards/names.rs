//! Exact names, stable references and personas for card lookup.
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

use super::{Card, fuzzy};
use crate::game::Game;
use crate::rulebook::Corpus;
use regex::Regex;
use rustc_hash::FxHashMap as HashMap;
use std::sync::LazyLock;

/// How exactly a name matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    Bytes,
    Letters,
    Version,
    /// A location's own name after its system or planet ("Mos Eisley" for
    /// "Tatooine: Mos Eisley").
    Part,
    Nickname,
}

const TIERS: [Tier; 5] = [
    Tier::Bytes,
    Tier::Letters,
    Tier::Version,
    Tier::Part,
    Tier::Nickname,
];

/// One of the exact-name tables: a tier, the references, the front titles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Table {
    Tier(Tier),
    Ref,
    Front,
}

impl Table {
    /// A number per table, for a name index kept on disk.
    pub fn code(self) -> u8 {
        match self {
            Table::Tier(t) => t as u8,
            Table::Ref => 5,
            Table::Front => 6,
        }
    }
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

/// Letters and digits only, lowercased: "•Han... Solo" → "hansolo".
pub use super::fuzzy::letters;

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
    by_ref: HashMap<String, usize>,
    tiers: [HashMap<String, Vec<usize>>; 5],
    personas: Vec<Persona>,
    /// Normalised title words per card, for persona membership.
    words: Vec<Vec<String>>,
    /// Each card's game, as a number.
    game: Vec<usize>,
    /// Two-sided cards by the letters of their front title ("Hidden Base" of
    /// "Hidden Base / Systems Will Slip Through Your Fingers").
    fronts: HashMap<String, Vec<usize>>,
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
        .filter_map(|&(a, b)| {
            if a == l {
                Some(b.to_string())
            } else if b == l {
                Some(a.to_string())
            } else {
                None
            }
        })
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
            n.by_ref.insert(ref_key(r), i);
        }
        let mut add = |tier: Tier, key: String, i: usize| {
            if key.is_empty() {
                return;
            }
            let v = n.tiers[tier as usize].entry(key).or_default();
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
                add(Tier::Bytes, b, i);
                // the label and the title often have the same letters
                if l != seen {
                    add(Tier::Letters, l.clone(), i);
                    seen = l;
                }
            }
            add(Tier::Version, letters(base_title(&c.title)), i);
            if let Some((_, part)) = base_title(&c.title).split_once(": ") {
                add(Tier::Part, letters(part), i);
            }
            for nick in &c.nicknames {
                add(Tier::Nickname, letters(nick), i);
            }
            if let Some((front, _)) = c.title.split_once(" / ") {
                n.fronts.entry(letters(front)).or_default().push(i);
            }
        }
        for (i, nick) in nicknames {
            add(Tier::Nickname, letters(nick), *i);
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
        self.by_ref.get(&ref_key(query)).copied()
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
            for k in &keys {
                for &i in self.tiers[tier as usize].get(k).into_iter().flatten() {
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
            for &i in &found {
                if !games_done.contains(&self.game[i]) {
                    games_done.push(self.game[i]);
                }
            }
        }
        best.map(|t| (t, out))
    }

    /// Every table entry: the table, its key and the cards it names (for a
    /// name index kept on disk).
    pub fn entries(&self) -> impl Iterator<Item = (Table, &str, Vec<usize>)> {
        let tiers = self.tiers.iter().enumerate().flat_map(|(t, m)| {
            m.iter()
                .map(move |(k, v)| (Table::Tier(TIERS[t]), k.as_str(), v.clone()))
        });
        let refs = self
            .by_ref
            .iter()
            .map(|(k, &i)| (Table::Ref, k.as_str(), vec![i]));
        let fronts = self
            .fronts
            .iter()
            .map(|(k, v)| (Table::Front, k.as_str(), v.clone()));
        tiers.chain(refs).chain(fronts)
    }

    /// The two-sided cards whose front title is `query` (same letters).
    pub fn front(&self, query: &str) -> &[usize] {
        self.fronts.get(&letters(query)).map_or(&[], Vec::as_slice)
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

fn words(s: &str) -> Vec<String> {
    fuzzy::normalize(s)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}
