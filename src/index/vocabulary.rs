//! Players' words and the rulebooks' words, as reviewed data: one list for
//! every game and one per game (`vocabulary/*.txt`). Each line is a class of
//! members that mean the same at the table ("walk | landspeed | move"); any
//! member also searches every other. A member in double quotes ("dies") is
//! a word as written, for a word whose stem is another word's ("dies" and
//! "die" both stem to "die"): it matches that form only, and its class
//! replaces those its stem belongs to.

use super::text;
use crate::rulebook::Game;
use std::sync::OnceLock;

const COMMON: &str = include_str!("vocabulary/common.txt");
const PER_GAME: [(Game, &str); 3] = [
    (Game::Swccg, include_str!("vocabulary/swccg.txt")),
    (Game::Destiny, include_str!("vocabulary/destiny.txt")),
    (Game::Swtcg, include_str!("vocabulary/swtcg.txt")),
];

/// One class: its game (none for every game), its members as stems (a
/// word's stem, or a phrase of stems), and its words as written (lower case).
#[derive(Debug)]
pub struct Class {
    pub game: Option<Game>,
    pub members: Vec<Vec<String>>,
    pub forms: Vec<String>,
}

/// The classes of one list: a line's members split at "|", comments (`#`)
/// and blank lines skipped.
fn parse(list: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            l.split('|')
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .collect()
        })
}

/// Every class of every list, stemmed once.
pub fn classes() -> &'static [Class] {
    static ALL: OnceLock<Vec<Class>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut analyzer = text::analyzer();
        let lists = [(None, COMMON)]
            .into_iter()
            .chain(PER_GAME.map(|(g, l)| (Some(g), l)));
        let mut out = Vec::new();
        for (game, list) in lists {
            for written in parse(list) {
                let mut members: Vec<Vec<String>> = Vec::new();
                let mut forms = Vec::new();
                for w in &written {
                    if let Some(form) = w.strip_prefix('"').and_then(|w| w.strip_suffix('"')) {
                        forms.push(form.to_lowercase());
                        continue;
                    }
                    let stems = text::stems(&mut analyzer, w);
                    if !stems.is_empty() && !members.contains(&stems) {
                        members.push(stems);
                    }
                }
                out.push(Class {
                    game,
                    members,
                    forms,
                });
            }
        }
        out
    })
}

/// The classes that apply to a question about `game` (every list's when the
/// game is not known).
pub fn for_game(game: Option<Game>) -> impl Iterator<Item = &'static Class> {
    classes()
        .iter()
        .filter(move |c| c.game.is_none() || game.is_none() || c.game == game)
}

/// The other members of the classes holding the word `word` as written,
/// else of those holding its single stem `stem`; and whether the word was
/// found as written (its stem then stands for another word too).
pub fn synonyms(word: &str, stem: &str, game: Option<Game>) -> (Vec<Vec<String>>, bool) {
    let written = for_game(game).any(|c| c.forms.iter().any(|f| f == word));
    let mut out: Vec<Vec<String>> = Vec::new();
    for c in for_game(game) {
        let holds = match written {
            true => c.forms.iter().any(|f| f == word),
            false => c.members.iter().any(|m| m.len() == 1 && m[0] == stem),
        };
        if !holds {
            continue;
        }
        for m in &c.members {
            if !(out.contains(m) || m.len() == 1 && m[0] == stem) {
                out.push(m.clone());
            }
        }
    }
    (out, written)
}

/// Most words a player puts inside a phrase of several words ("put my
/// characters into play", "throw my cards back").
const MAX_GAP: usize = 2;

/// A players' phrase found in a question: the positions of its words, the
/// member it is, and the other members of its classes.
#[derive(Debug)]
pub struct Found {
    pub at: Vec<usize>,
    pub phrase: Vec<String>,
    pub others: Vec<Vec<String>>,
}

/// Where `member` (several stems) stands in `stems` from `i`: its words in
/// order, with at most [`MAX_GAP`] other words at one place inside it.
fn fit(member: &[String], stems: &[&str], i: usize) -> Option<Vec<usize>> {
    let n = member.len();
    if n < 2 {
        return None;
    }
    let same = |from: usize, part: &[String]| {
        from + part.len() <= stems.len() && part.iter().zip(&stems[from..]).all(|(a, b)| a == b)
    };
    for gap in 0..=MAX_GAP {
        for split in 1..n {
            let (head, tail) = member.split_at(split);
            if (gap > 0 || split == 1) && same(i, head) && same(i + split + gap, tail) {
                let mut at: Vec<usize> = (i..i + split).collect();
                at.extend(i + split + gap..i + n + gap);
                return Some(at);
            }
        }
    }
    None
}

/// Members of several words found in `stems` (a question's), longest first
/// (and with nothing inside them before with something), without overlaps.
pub fn phrases(stems: &[&str], game: Option<Game>) -> Vec<Found> {
    let mut out: Vec<Found> = Vec::new();
    let taken =
        |out: &[Found], at: &[usize]| out.iter().any(|f| f.at.iter().any(|p| at.contains(p)));
    for i in 0..stems.len() {
        let best = for_game(game)
            .flat_map(|c| c.members.iter())
            .filter_map(|m| fit(m, stems, i).map(|at| (m, at)))
            .filter(|(_, at)| !taken(&out, at))
            .max_by_key(|(m, at)| (m.len(), std::cmp::Reverse(at[at.len() - 1])));
        let Some((phrase, at)) = best else {
            continue;
        };
        let mut others: Vec<Vec<String>> = Vec::new();
        for c in for_game(game).filter(|c| c.members.contains(phrase)) {
            for m in c.members.iter().filter(|m| *m != phrase) {
                if !others.contains(m) {
                    others.push(m.clone());
                }
            }
        }
        out.push(Found {
            at,
            phrase: phrase.clone(),
            others,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_has_two_members() {
        for c in classes() {
            let n = c.members.len() + c.forms.len();
            assert!(
                n >= 2 && !c.members.is_empty(),
                "{:?}: {:?}",
                c.game,
                c.members
            );
        }
        let lists = [COMMON].into_iter().chain(PER_GAME.map(|(_, l)| l));
        let written: usize = lists.map(|l| parse(l).count()).sum();
        assert_eq!(written, classes().len());
    }

    /// Each class holds a word or phrase the rulebooks use (its game's, or
    /// any for the common list): players' words lead to the rulebooks' own.
    #[test]
    fn every_class_reaches_the_rulebook() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulebook");
        let mut analyzer = text::analyzer();
        let mut stems_of = |dir: &str| -> Vec<String> {
            let mut all = Vec::new();
            for f in crate::rulebook::markdown_files(&root.join(dir)).unwrap() {
                let text = std::fs::read_to_string(f).unwrap();
                all.extend(text::stems(&mut analyzer, &text));
            }
            all
        };
        let books: Vec<(Game, Vec<String>)> = Game::ALL.map(|g| (g, stems_of(g.as_str()))).into();
        for c in classes() {
            let holds = |book: &Vec<String>| {
                c.members
                    .iter()
                    .any(|m| book.windows(m.len()).any(|w| w == m.as_slice()))
            };
            let found = books
                .iter()
                .filter(|(g, _)| c.game.is_none_or(|cg| cg == *g))
                .any(|(_, book)| holds(book));
            assert!(
                found,
                "{:?}: no member in the rulebook: {:?}",
                c.game, c.members
            );
        }
    }

    #[test]
    fn synonyms_are_symmetric() {
        for c in classes() {
            for m in c.members.iter().filter(|m| m.len() == 1) {
                let (found, _) = synonyms(&m[0], &m[0], c.game);
                for o in c.members.iter().filter(|o| *o != m) {
                    assert!(found.contains(o), "{:?} -> {o:?}", m);
                }
            }
        }
    }

    /// "dies" is the players' word for defeated, whose stem is the stem of
    /// "die" (of the dice): as written, it finds its own class only.
    #[test]
    fn a_word_as_written_finds_its_own_class() {
        let (dies, written) = synonyms("dies", "die", Some(Game::Destiny));
        assert!(
            written && dies.contains(&vec!["defeat".to_string()]),
            "{dies:?}"
        );
        assert!(!dies.contains(&vec!["dice".to_string()]), "{dies:?}");
        let (die, written) = synonyms("die", "die", Some(Game::Destiny));
        assert!(
            !written && die.contains(&vec!["dice".to_string()]),
            "{die:?}"
        );
        assert!(!die.contains(&vec!["defeat".to_string()]), "{die:?}");
    }

    #[test]
    fn players_phrases_are_found_longest_first() {
        let stems = ["what", "if", "my", "deck", "run", "out", "of", "card"];
        let found = phrases(&stems, Some(Game::Swccg));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].at, [4, 5, 6, 7]);
        assert!(found[0].others.contains(&vec!["empti".to_string()]));
        assert!(phrases(&stems, Some(Game::Swtcg))[0].others.len() >= 2);
        // A phrase with the player's own words inside it.
        let stems = ["where", "can", "i", "put", "my", "charact", "into", "play"];
        let found = phrases(&stems, Some(Game::Swccg));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].at, [3, 6, 7]);
        assert!(found[0].others.contains(&vec!["deploy".to_string()]));
    }
}
