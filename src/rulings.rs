//! Published card rulings as scenarios.
//!
//! A scenario that reproduces a published ruling names it in `source:` as
//! `ruling:<game>:<card id>#<n>`: the card's reference in the game's database
//! (`swccg:1595`) and the ruling's position in that card's list of rulings,
//! from 1. The game must be the scenario's; for the Star Wars CCG and the
//! SWTCG (`swtcg:ANH-1`) the card must be in the card library
//! (`cards/<game>/`), so that the ruling's card is the one the scenario can name.
//!
//! Rulings examined and not yet expressible are listed in
//! `scenarios/<game>/rulings/missing.tsv`, one a line:
//! `ruling:<game>:<id>#<n><TAB>mechanism it lacks<TAB>short ruling text`
//! (blank lines and `#` comments skipped). `coverage` counts both per game.

use crate::coverage::ScenarioSource;
use crate::error::{Error, Result};
use crate::game::Game;
use itertools::Itertools;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// The prefix that marks a ruling source.
pub const PREFIX: &str = "ruling:";

/// One published ruling: a card of a game's database and its ruling's position.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct RulingRef {
    pub game: Game,
    /// The card's ID in the game's database (`1595`).
    pub card: String,
    /// The ruling's position in the card's list, from 1.
    pub n: usize,
}

impl RulingRef {
    /// Read `ruling:<game>:<id>#<n>`. `None` when the text does not start with
    /// `ruling:`; an error says what is wrong with one that does.
    pub fn parse(text: &str) -> Option<std::result::Result<RulingRef, String>> {
        let rest = text.trim().strip_prefix(PREFIX)?;
        let bad =
            || format!("ruling source `{text}` must read `ruling:<game>:<card id>#<n>` (n from 1)");
        let parsed = (|| {
            let (game, rest) = rest.split_once(':')?;
            let game = Game::ALL.into_iter().find(|g| g.as_str() == game)?;
            let (card, n) = rest.split_once('#')?;
            // SWTCG references are LackeyCCG set and number or image file
            // (`ANH-1`, `JG-JGpromo_Homing_Missile`).
            let ok_id = !card.is_empty()
                && card
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            let n: usize = n.parse().ok().filter(|n| *n >= 1)?;
            ok_id.then(|| RulingRef {
                game,
                card: card.to_string(),
                n,
            })
        })();
        Some(parsed.ok_or_else(bad))
    }

    /// The card's reference as users type it (`swccg:1595`).
    pub fn card_reference(&self) -> String {
        format!("{}:{}", self.game.as_str(), self.card)
    }
}

impl fmt::Display for RulingRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{PREFIX}{}:{}#{}", self.game.as_str(), self.card, self.n)
    }
}

/// Check a ruling source of a scenario of `game`: its game is the scenario's,
/// and a Star Wars CCG or SWTCG card is in the card library.
pub fn check_source(game: Game, text: &str) -> Option<std::result::Result<RulingRef, String>> {
    Some(RulingRef::parse(text)?.and_then(|r| {
        if r.game != game {
            return Err(format!(
                "ruling source `{text}` names a {} card in a `game: {}` scenario",
                r.game.as_str(),
                game.as_str()
            ));
        }
        let reference = r.card_reference();
        if matches!(game, Game::Swccg | Game::Swtcg)
            && !crate::engine::library::has_card(game, &reference)
        {
            return Err(format!(
                "ruling source `{text}`: {reference} is not in the card library (cards/{}/)",
                game.as_str()
            ));
        }
        Ok(r)
    }))
}

/// One line of `missing.tsv`: a ruling not yet expressible.
#[derive(Debug, Clone, Serialize)]
pub struct Missing {
    pub ruling: RulingRef,
    /// The mechanism the engine lacks to state it.
    pub mechanism: String,
    /// The ruling, shortened.
    pub text: String,
}

/// Parse a `missing.tsv`.
pub fn parse_missing(origin: &Path, text: &str) -> Result<Vec<Missing>> {
    let mut out = Vec::new();
    for (n, line) in crate::paths::listed_lines(text) {
        let bad = |why: &str| {
            Error::Input(format!(
                "{}:{n}: {why} (expected ruling:<game>:<id>#<n><TAB>mechanism<TAB>ruling text)",
                origin.display()
            ))
        };
        let cols: Vec<&str> = line.split('\t').map(str::trim).collect();
        let [id, mechanism, ruling] = cols.as_slice() else {
            return Err(bad("three tab-separated columns"));
        };
        let ruling_ref = match RulingRef::parse(id) {
            Some(Ok(r)) => r,
            Some(Err(m)) => return Err(bad(&m)),
            None => return Err(bad("the first column is not a ruling")),
        };
        if mechanism.is_empty() || ruling.is_empty() {
            return Err(bad("an empty column"));
        }
        out.push(Missing {
            ruling: ruling_ref,
            mechanism: mechanism.to_string(),
            text: ruling.to_string(),
        });
    }
    Ok(out)
}

/// The `missing.tsv` files that belong to scenario paths: `<dir>/<game>/rulings/`,
/// `<dir>/rulings/` or `<dir>/` itself (a `rulings` folder), each once.
pub fn missing_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = BTreeSet::new();
    for p in paths.iter().filter(|p| p.is_dir()) {
        let mut candidates = vec![p.join("rulings/missing.tsv")];
        if p.file_name().is_some_and(|n| n == "rulings") {
            candidates.push(p.join("missing.tsv"));
        }
        for g in Game::ALL {
            candidates.push(p.join(g.as_str()).join("rulings/missing.tsv"));
        }
        for c in candidates.into_iter().filter(|c| c.is_file()) {
            out.insert(c.canonicalize().unwrap_or(c));
        }
    }
    out.into_iter().collect()
}

/// Rulings reproduced and listed missing, for one game.
#[derive(Debug, Clone, Serialize)]
pub struct RulingCounts {
    pub game: Game,
    /// Distinct rulings named by a scenario's `source:`.
    pub reproduced: usize,
    /// Distinct rulings in `missing.tsv` that no scenario reproduces.
    pub missing: usize,
    /// Missing rulings by mechanism, most first.
    pub mechanisms: Vec<(String, usize)>,
}

/// The rulings the scenarios reproduce and the ones listed as not yet expressible.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RulingCoverage {
    pub games: Vec<RulingCounts>,
    /// Each reproduced ruling with its scenarios.
    pub reproduced: Vec<(RulingRef, Vec<String>)>,
    pub missing: Vec<Missing>,
    /// Rulings listed missing although a scenario reproduces them, and lines listed twice.
    pub warnings: Vec<String>,
}

/// Match the scenarios' ruling sources and the missing lists.
pub fn ruling_coverage(scenarios: &[ScenarioSource], listed: Vec<Missing>) -> RulingCoverage {
    let mut reproduced: BTreeMap<RulingRef, Vec<String>> = BTreeMap::new();
    for sc in scenarios {
        for r in sc.sources.iter().filter_map(|s| RulingRef::parse(s)?.ok()) {
            reproduced.entry(r).or_default().push(sc.file.clone());
        }
    }
    let mut warnings = Vec::new();
    let mut seen = BTreeSet::new();
    let mut missing = Vec::new();
    for m in listed {
        if reproduced.contains_key(&m.ruling) {
            warnings.push(format!(
                "{} is listed missing but reproduced by {}",
                m.ruling,
                reproduced[&m.ruling].join(", ")
            ));
        } else if !seen.insert(m.ruling.clone()) {
            warnings.push(format!("{} is listed missing twice", m.ruling));
        } else {
            missing.push(m);
        }
    }
    let mut games = Vec::new();
    for g in Game::ALL {
        let done = reproduced.keys().filter(|r| r.game == g).count();
        let of_game = missing.iter().filter(|m| m.ruling.game == g);
        let names = of_game.map(|m| m.mechanism.clone());
        let mut mechanisms: Vec<(String, usize)> = names.counts().into_iter().collect();
        mechanisms.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let listed: usize = mechanisms.iter().map(|m| m.1).sum();
        if done + listed > 0 {
            games.push(RulingCounts {
                game: g,
                reproduced: done,
                missing: listed,
                mechanisms,
            });
        }
    }
    RulingCoverage {
        games,
        reproduced: reproduced.into_iter().collect(),
        missing,
        warnings,
    }
}

impl RulingCoverage {
    /// The rulings of the scenario folders `paths` (their `missing.tsv` lists
    /// and the scenarios' ruling sources).
    pub fn read(paths: &[PathBuf], sources: &[ScenarioSource]) -> Result<RulingCoverage> {
        let mut listed = Vec::new();
        for f in missing_files(paths) {
            let text = crate::paths::read_text_file(&f, 8 << 20, "is a folder, not a file")?;
            listed.extend(parse_missing(&f, &text)?);
        }
        Ok(ruling_coverage(sources, listed))
    }

    /// Keep one game only.
    pub fn retain_game(&mut self, game: Game) {
        self.games.retain(|c| c.game == game);
        self.reproduced.retain(|(r, _)| r.game == game);
        self.missing.retain(|m| m.ruling.game == game);
    }
}
