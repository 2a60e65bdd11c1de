//! Players' words and the rulebooks' words, as reviewed data: one list for
//! every game and one per game (`vocabulary/*.txt`). Each line is a class of
//! members that mean the same at the table ("walk | landspeed | move"); any
//! member also searches every other.

use super::text;
use crate::rulebook::Game;
use std::sync::OnceLock;

const COMMON: &str = include_str!("vocabulary/common.txt");
const PER_GAME: [(Game, &str); 3] = [
    (Game::Swccg, include_str!("vocabulary/swccg.txt")),
    (Game::Destiny, include_str!("vocabulary/destiny.txt")),
    (Game::Swtcg, include_str!("vocabulary/swtcg.txt")),
];

/// One class: its game (none for every game), and its members as written
/// and as stems (a word's stem, or a phrase of stems).
#[derive(Debug)]
pub struct Class {
    pub game: Option<Game>,
    pub written: Vec<&'static str>,
    pub members: Vec<Vec<String>>,
}

/// The classes of one list: a line's members split at "|", comments (`#`)
/// and blank lines skipped.
fn parse(list: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split('|').map(str::trim).filter(|m| !m.is_empty()).collect())
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
                for w in &written {
                    let stems = text::stems(&mut analyzer, w);
                    if !stems.is_empty() && !members.contains(&stems) {
                        members.push(stems);
                    }
                }
                out.push(Class {
                    game,
                    written,
                    members,
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

/// The other members of the classes holding the single stem `stem`.
pub fn synonyms(stem: &str, game: Option<Game>) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for c in for_game(game) {
        if !c.members.iter().any(|m| m.len() == 1 && m[0] == stem) {
            continue;
        }
        for m in &c.members {
            if !(m.len() == 1 && m[0] == stem) && !out.contains(m) {
                out.push(m.clone());
            }
        }
    }
    out
}

/// Members of several words found in `stems` (a question's), longest first,
/// without overlaps: each as its range of stems and the other members of its
/// classes.
pub fn phrases(stems: &[&str], game: Option<Game>) -> Vec<(std::ops::Range<usize>, Vec<Vec<String>>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < stems.len() {
        let fits = |m: &Vec<String>| {
            m.len() > 1 && m.len() <= stems.len() - i && m.iter().zip(&stems[i..]).all(|(a, b)| a == b)
        };
        let best = for_game(game)
            .flat_map(|c| c.members.iter().filter(|m| fits(m)))
            .map(Vec::len)
            .max();
        let Some(n) = best else {
            i += 1;
            continue;
        };
        let phrase: Vec<String> = stems[i..i + n].iter().map(|s| s.to_string()).collect();
        let mut others: Vec<Vec<String>> = Vec::new();
        for c in for_game(game).filter(|c| c.members.contains(&phrase)) {
            for m in c.members.iter().filter(|m| **m != phrase) {
                if !others.contains(m) {
                    others.push(m.clone());
                }
            }
        }
        out.push((i..i + n, others));
        i += n;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_has_two_members() {
        for c in classes() {
            assert!(c.members.len() >= 2, "{:?}: {:?}", c.game, c.written);
            assert_eq!(c.written.len(), c.members.len(), "{:?}: a member twice", c.written);
        }
    }

    #[test]
    fn synonyms_are_symmetric() {
        for c in classes() {
            for m in c.members.iter().filter(|m| m.len() == 1) {
                let found = synonyms(&m[0], c.game);
                for o in c.members.iter().filter(|o| *o != m) {
                    assert!(found.contains(o), "{:?} -> {o:?}", m);
                }
            }
        }
    }

    #[test]
    fn players_phrases_are_found_longest_first() {
        let stems = ["what", "if", "my", "deck", "run", "out", "of", "card"];
        let found = phrases(&stems, Some(Game::Swccg));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, 4..8);
        assert!(found[0].1.contains(&vec!["empti".to_string()]));
        assert!(phrases(&stems, Some(Game::Swtcg))[0].1.len() >= 2);
    }
}
