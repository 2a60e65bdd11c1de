//! Which worked examples of the rulebooks the scenarios reproduce.
//!
//! An *example* is found in the current (not superseded) documents by these rules:
//!
//! - a whole section of kind `example` (the SWCCG Advanced Rulebook's labelled examples)
//!   or `faq` (the Destiny FAQ), and a section of kind `ruling` in the Destiny Rules
//!   Reference (its Card Clarifications): ID = the section ID;
//! - in any other section, each paragraph or list item that gives an example in the
//!   text: it says "Example:" / "Example 2:", "for example", "for instance" or
//!   "e.g., if/when/while" (a case worked through). ID = `SECTION#N`, the
//!   N-th such passage of the section (1-based, in reading order).
//!
//! A scenario covers an example when its `source:` names it: `SECTION#N` names one
//! passage, a plain section ID every example in that section. Scenarios are read as
//! plain YAML (only `game` and `source`), so coverage does not depend on the scenario
//! model. `scenarios/unreproducible.tsv` lists examples that cannot be reproduced
//! (`ID<TAB>reason`; `#` starts a comment): they are reported apart, never as covered.

use crate::error::{Error, Result};
use crate::game::Game;
use crate::rulebook::{Corpus, Kind, Section};
use itertools::Itertools;
use regex::Regex;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// Where an example sits in the rulebook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Form {
    /// A section of kind `example`.
    Labelled,
    /// A Destiny Card Clarification.
    Clarification,
    /// A FAQ entry.
    Faq,
    /// A passage inside another section.
    InText,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Covered,
    NotCovered,
    CannotBeReproduced,
}

/// One worked example and the scenarios that reproduce it.
#[derive(Debug, Clone, Serialize)]
pub struct Example {
    /// Section ID, or `SECTION#N` for a passage inside a section.
    pub id: String,
    pub section: String,
    pub game: Game,
    pub form: Form,
    /// Section title, or the passage's first words.
    pub title: String,
    pub status: Status,
    /// Scenario files whose `source:` names it.
    pub scenarios: Vec<String>,
    /// Why it cannot be reproduced (from `unreproducible.tsv`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct GameCounts {
    pub game: Game,
    pub examples: usize,
    pub covered: usize,
    pub not_covered: usize,
    pub cannot_be_reproduced: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Coverage {
    pub games: Vec<GameCounts>,
    pub examples: Vec<Example>,
    /// Scenario sources that name no example (a rule section, or an unknown ID).
    pub other_sources: Vec<String>,
    /// Entries of `unreproducible.tsv` that name no example.
    pub warnings: Vec<String>,
    /// Published card rulings: reproduced by scenarios, or listed as not yet expressible.
    pub rulings: crate::rulings::RulingCoverage,
}

impl Coverage {
    /// Add the published rulings of the scenario folders: their sources are not
    /// "other sources" then.
    pub fn with_rulings(
        mut self,
        paths: &[PathBuf],
        sources: &[ScenarioSource],
    ) -> Result<Coverage> {
        self.rulings = crate::rulings::RulingCoverage::read(paths, sources)?;
        self.other_sources
            .retain(|s| !s.contains(&format!(": {}", crate::rulings::PREFIX)));
        Ok(self)
    }

    /// Narrowed to one game.
    pub fn retain_game(&mut self, game: Game) {
        self.games.retain(|c| c.game == game);
        self.examples.retain(|e| e.game == game);
        self.rulings.retain_game(game);
    }
}

/// A scenario's file, game and the IDs its `source:` names.
#[derive(Debug, Clone)]
pub struct ScenarioSource {
    pub file: String,
    pub game: Option<String>,
    pub sources: Vec<String>,
}

static EXAMPLE_MARK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i:\bfor (?:example|instance)\b|\be\.g\.,? (?:if|when|while)\b)",
        r"|(?:^|[\s(*_])Example(?: \d+)?[*_]*:"
    ))
    .expect("valid regex")
});

/// Every worked example of the current documents, in corpus order.
pub fn examples(corpus: &Corpus) -> Vec<Example> {
    let mut out = Vec::new();
    for s in corpus.sections.iter().filter(|s| !s.superseded) {
        let form = match s.kind {
            Kind::Example => Some(Form::Labelled),
            Kind::Faq => Some(Form::Faq),
            Kind::Ruling if s.game == Game::Destiny => Some(Form::Clarification),
            _ => None,
        };
        if let Some(form) = form {
            out.push(new_example(s, s.id.clone(), form, s.title.clone()));
            continue;
        }
        let mut n = 0;
        for passage in passages(&s.body) {
            if EXAMPLE_MARK.is_match(&passage) {
                n += 1;
                let title = format!("{} — {}", s.title, first_words(&passage, 12));
                out.push(new_example(s, format!("{}#{n}", s.id), Form::InText, title));
            }
        }
    }
    out
}

fn new_example(s: &Section, id: String, form: Form, title: String) -> Example {
    Example {
        id,
        section: s.id.clone(),
        game: s.game,
        form,
        title,
        status: Status::NotCovered,
        scenarios: Vec::new(),
        reason: None,
    }
}

/// Paragraphs and list items of a Markdown body, as plain text, in order.
pub fn passages(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let flush = |cur: &mut String, out: &mut Vec<String>| {
        if !cur.trim().is_empty() {
            out.push(crate::rulebook::markdown_to_plain(cur.trim()));
        }
        cur.clear();
    };
    for line in body.lines() {
        let t = line.trim_start();
        let item = t.starts_with("- ")
            || t.starts_with("* ")
            || t.split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if t.is_empty() || item || t.starts_with('|') {
            flush(&mut cur, &mut out);
        }
        if !t.is_empty() {
            cur.push_str(line);
            cur.push('\n');
        }
    }
    flush(&mut cur, &mut out);
    out
}

fn first_words(text: &str, n: usize) -> String {
    let mut s = text.split_whitespace().take(n).join(" ");
    if text.split_whitespace().nth(n).is_some() {
        s.push('…');
    }
    s
}

/// Scenario files (`*.yaml`, `*.yml`) under `paths`, sorted.
pub fn scenario_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    crate::scenario::find_files(paths)
}

/// Read `game` and `source` (a string or a list of strings) of each scenario file.
pub fn scenario_sources(files: &[PathBuf]) -> Result<Vec<ScenarioSource>> {
    let mut out = Vec::new();
    for f in files {
        let v: serde_json::Value = crate::yaml::load_file(f)?;
        let sources = match v.get("source") {
            Some(serde_json::Value::String(s)) => vec![s.trim().to_string()],
            Some(serde_json::Value::Array(a)) => a
                .iter()
                .filter_map(|x| x.as_str().map(|s| s.trim().to_string()))
                .collect(),
            _ => Vec::new(),
        };
        out.push(ScenarioSource {
            file: f.display().to_string(),
            game: v.get("game").and_then(|g| g.as_str()).map(str::to_string),
            sources,
        });
    }
    Ok(out)
}

/// Parse `unreproducible.tsv`: `ID<TAB>reason` lines; blank lines and `#` comments skipped.
pub fn parse_unreproducible(origin: &Path, text: &str) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for (n, line) in crate::paths::listed_lines(text) {
        match line.split_once('\t') {
            Some((id, reason)) if !id.trim().is_empty() && !reason.trim().is_empty() => {
                out.push((id.trim().to_string(), reason.trim().to_string()));
            }
            _ => {
                return Err(Error::Input(format!(
                    "{}:{n}: expected SECTION-ID<TAB>reason",
                    origin.display()
                )));
            }
        }
    }
    Ok(out)
}

/// Match scenarios and the unreproducible list against the examples.
pub fn coverage(
    corpus: &Corpus,
    scenarios: &[ScenarioSource],
    unreproducible: &[(String, String)],
) -> Coverage {
    let mut list = examples(corpus);
    let mut other = Vec::new();
    for sc in scenarios {
        for src in &sc.sources {
            // `SECTION` alone names a section's first example, as in the census:
            // a scenario reproduces one example, not every example of its section.
            let first = format!("{src}#1");
            let names = |e: &&mut Example| e.id == *src || (e.section == *src && e.id == first);
            let mut named = list.iter_mut().filter(names).peekable();
            if named.peek().is_none() {
                other.push(format!("{}: {src}", sc.file));
            }
            named.for_each(|e| e.scenarios.push(sc.file.clone()));
        }
    }
    let mut warnings = Vec::new();
    for (id, reason) in unreproducible {
        let mut named = list.iter_mut().filter(|e| e.id == *id).peekable();
        if named.peek().is_none() {
            warnings.push(format!(
                "unreproducible.tsv names {id}, which is no example"
            ));
        }
        named.for_each(|e| e.reason = Some(reason.clone()));
    }
    let mut counts: BTreeMap<Game, GameCounts> = BTreeMap::new();
    for e in &mut list {
        e.status = if e.reason.is_some() {
            Status::CannotBeReproduced
        } else if e.scenarios.is_empty() {
            Status::NotCovered
        } else {
            Status::Covered
        };
        let c = counts.entry(e.game).or_insert(GameCounts {
            game: e.game,
            examples: 0,
            covered: 0,
            not_covered: 0,
            cannot_be_reproduced: 0,
        });
        c.examples += 1;
        match e.status {
            Status::Covered => c.covered += 1,
            Status::NotCovered => c.not_covered += 1,
            Status::CannotBeReproduced => c.cannot_be_reproduced += 1,
        }
    }
    Coverage {
        games: counts.into_values().collect(),
        examples: list,
        other_sources: other,
        warnings,
        rulings: Default::default(),
    }
}

/// One case of a rules team's census: a worked case they found in a rulebook.
#[derive(Debug, Clone, Serialize)]
pub struct CensusCase {
    pub game: String,
    pub name: String,
    /// The section the case sits in; the N-th case of one section is `SECTION#N`.
    pub id: String,
    /// The census topic's first part ("deployment" for "deployment/personas").
    pub area: String,
    /// Scenario files whose `source:` names the case (or its whole section).
    pub scenarios: Vec<String>,
}

/// Cases and cases covered, for one game or one area of a game.
#[derive(Debug, Clone, Serialize)]
pub struct CensusCount {
    pub game: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area: Option<String>,
    pub cases: usize,
    pub covered: usize,
}

/// The census against the scenarios: totals per game, per area, and each case.
#[derive(Debug, Clone, Serialize)]
pub struct Census {
    pub games: Vec<CensusCount>,
    pub areas: Vec<CensusCount>,
    pub cases: Vec<CensusCase>,
}

/// Parse a census: tab-separated, with a header line naming at least the columns
/// `game`, `name`, `section_id` and `topic` (in any order; other columns are ignored).
pub fn parse_census(origin: &Path, text: &str) -> Result<Vec<CensusCase>> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Err(Error::Input(format!(
            "{}: empty census (expected a header line: game, name, section_id, topic)",
            origin.display()
        )));
    };
    let cols: Vec<&str> = header.split('\t').map(str::trim).collect();
    let col = |name: &str| {
        cols.iter().position(|c| *c == name).ok_or_else(|| {
            Error::Input(format!(
                "{}:1: the header has no `{name}` column (expected game, name, section_id, topic)",
                origin.display()
            ))
        })
    };
    let [g, n, s, t] = ["game", "name", "section_id", "topic"].map(col);
    let (g, n, s, t) = (g?, n?, s?, t?);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for (i, line) in lines {
        let f: Vec<&str> = line.split('\t').map(str::trim).collect();
        let get = |k: usize| f.get(k).copied().filter(|v| !v.is_empty());
        let (Some(game), Some(name), Some(section)) = (get(g), get(n), get(s)) else {
            return Err(Error::Input(format!(
                "{}:{}: expected a game, a name and a section_id on this line",
                origin.display(),
                i + 1
            )));
        };
        let k = seen.entry(section.to_string()).or_insert(0);
        *k += 1;
        let topic = get(t).unwrap_or("other");
        out.push(CensusCase {
            game: game.to_string(),
            name: name.to_string(),
            id: if *k == 1 {
                section.to_string()
            } else {
                format!("{section}#{k}")
            },
            area: topic.split('/').next().unwrap_or(topic).trim().to_string(),
            scenarios: Vec::new(),
        });
    }
    Ok(out)
}

/// Match scenarios against the census. A scenario covers a case when its `source:`
/// names the case's ID: `SECTION` and `SECTION#1` both name the first case of a
/// section, `SECTION#N` the N-th.
pub fn census(mut cases: Vec<CensusCase>, scenarios: &[ScenarioSource]) -> Census {
    for c in &mut cases {
        let (section, n) = c.id.rsplit_once('#').unwrap_or((c.id.as_str(), "1"));
        for sc in scenarios {
            let hit = sc.sources.iter().any(|src| match src.rsplit_once('#') {
                Some((s, k)) => s == section && k == n,
                None => src == section && n == "1",
            });
            if hit {
                c.scenarios.push(sc.file.clone());
            }
        }
    }
    // Each case counts for its game (no area) and for its game's area.
    let mut counts: BTreeMap<(String, Option<String>), CensusCount> = BTreeMap::new();
    for c in &cases {
        for area in [None, Some(c.area.clone())] {
            let n = counts
                .entry((c.game.clone(), area.clone()))
                .or_insert_with(|| CensusCount {
                    game: c.game.clone(),
                    area,
                    cases: 0,
                    covered: 0,
                });
            n.cases += 1;
            n.covered += usize::from(!c.scenarios.is_empty());
        }
    }
    let (games, mut areas): (Vec<_>, Vec<_>) = counts.into_values().partition(|n| n.area.is_none());
    // by game, then the areas with most cases first
    areas.sort_by(|a, b| (&a.game, b.cases, &a.area).cmp(&(&b.game, a.cases, &b.area)));
    Census {
        games,
        areas,
        cases,
    }
}
