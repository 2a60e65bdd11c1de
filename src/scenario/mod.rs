//! Scenarios: the envelope, dispatch by game, one expectation comparer.
//!
//! A scenario file is one YAML mapping: `game`, `title`, `source`, `notes`,
//! the game's board under its own key (`swccg:`, `destiny:`, `swtcg:`),
//! `script` and `expect`. Loading reads `game:` first, then the whole file
//! with that game's typed board and script steps (unknown keys are rejected
//! with `file:line:column`), then the game checks the board's meaning and
//! every `expect:` path it is asked to observe. A path the game cannot
//! observe is a load error.
//!
//! Running hands the board and script to the game's engine
//! ([`crate::engine::GameRules::run`]) and compares the run's observations
//! with `expect:` in [`compare`]. A scenario passes only when every
//! expectation holds, no decision was illegal unless expected, none is left
//! over, and nothing was met that is not modelled unless acknowledged.

pub mod expect;

use crate::engine::{self, At, BoardError, GameRules, Observations, RunResult, Scripted};
use crate::error::{Error, Result};
use crate::game::Game;
pub use expect::{Expect, Expectation, Report, Verdict, compare};
use serde::Deserialize;
use serde_saphyr::Spanned;
use std::path::{Path, PathBuf};

/// A loaded, checked scenario, ready to run.
pub struct Scenario {
    pub file: PathBuf,
    pub game: Game,
    pub title: String,
    pub source: Option<Spanned<String>>,
    pub notes: Option<String>,
    pub expect: Expect,
    loaded: Box<dyn Runnable>,
}

/// A game's board and script, ready to run.
trait Runnable: Send + Sync {
    /// Run with only the scripted decisions whose position (from 1) `keep` accepts.
    fn run(&self, keep: &dyn Fn(usize) -> bool) -> RunResult;
    fn script_len(&self) -> usize;
    fn start(&self) -> Observations;
}

struct Loaded<G: GameRules> {
    board: G::Board,
    script: Vec<Scripted<G::Step>>,
}

impl<G: GameRules> Runnable for Loaded<G>
where
    G::Board: Send + Sync,
    G::Step: Send + Sync,
{
    fn run(&self, keep: &dyn Fn(usize) -> bool) -> RunResult {
        let script: Vec<Scripted<G::Step>> = self
            .script
            .iter()
            .filter(|d| keep(d.at.step))
            .cloned()
            .collect();
        G::run(&self.board, &script)
    }
    fn script_len(&self) -> usize {
        self.script.len()
    }
    fn start(&self) -> Observations {
        G::start(&self.board)
    }
}

impl std::fmt::Debug for Scenario {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scenario")
            .field("file", &self.file)
            .field("game", &self.game)
            .field("title", &self.title)
            .finish()
    }
}

impl Scenario {
    /// Run the engine (pure; may be called any number of times).
    pub fn run_engine(&self) -> RunResult {
        self.loaded.run(&|_| true)
    }
    /// Run with only the scripted decisions whose position (from 1) `keep` accepts.
    pub fn run_partial(&self, keep: &dyn Fn(usize) -> bool) -> RunResult {
        self.loaded.run(keep)
    }
    /// How many scripted decisions the file has.
    pub fn script_len(&self) -> usize {
        self.loaded.script_len()
    }
    /// What can be observed of the board as given, before anything happens.
    pub fn start(&self) -> Observations {
        self.loaded.start()
    }
}

/// Where to look up section IDs when checking `source:`.
pub trait SectionIds: Sync {
    fn has(&self, id: &str) -> bool;
}

/// The section IDs of the rulebook built into the binary (compiled in: checking a
/// `source:` against them reads and parses nothing).
pub struct BuiltinIds;

impl SectionIds for BuiltinIds {
    fn has(&self, id: &str) -> bool {
        crate::paths::embedded::SECTION_IDS
            .binary_search(&id)
            .is_ok()
    }
}

impl SectionIds for crate::rulebook::Corpus {
    fn has(&self, id: &str) -> bool {
        self.contains(id)
    }
}

/// The first read of a file: which game, which board keys are present, and no
/// key the envelope does not know.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Head {
    game: Spanned<Game>,
    title: serde::de::IgnoredAny,
    source: Option<serde::de::IgnoredAny>,
    notes: Option<serde::de::IgnoredAny>,
    script: Option<serde::de::IgnoredAny>,
    expect: Option<serde::de::IgnoredAny>,
    swccg: Option<Spanned<serde::de::IgnoredAny>>,
    destiny: Option<Spanned<serde::de::IgnoredAny>>,
    swtcg: Option<Spanned<serde::de::IgnoredAny>>,
}

/// The envelope, with the game's typed board and script steps.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File<B, S> {
    #[allow(dead_code)]
    game: Game,
    title: String,
    source: Option<Spanned<String>>,
    notes: Option<String>,
    #[serde(alias = "swccg", alias = "destiny", alias = "swtcg")]
    board: Spanned<B>,
    #[serde(default = "Vec::new")]
    script: Vec<Spanned<S>>,
    expect: Option<expect::ExpectFile>,
}

pub(crate) fn at(path: &Path, line: u64, col: u64, msg: impl std::fmt::Display) -> Error {
    if line == 0 {
        Error::Input(format!("{}: {msg}", path.display()))
    } else {
        Error::Input(format!("{}:{line}:{col}: {msg}", path.display()))
    }
}

/// An error at the place in the file where `value` is written.
fn at_value<T>(path: &Path, value: &Spanned<T>, msg: impl std::fmt::Display) -> Error {
    let (line, column) = (value.referenced.line(), value.referenced.column());
    at(path, line, column, msg)
}

/// Load and check a scenario file. `ids`, when given, is used to check `source:`.
pub fn load(path: &Path, ids: Option<&dyn SectionIds>) -> Result<Scenario> {
    let text = crate::yaml::read_text(path)?;
    load_str(path, &text, ids)
}

/// Load from text (`origin` names it in messages).
pub fn load_str(origin: &Path, text: &str, ids: Option<&dyn SectionIds>) -> Result<Scenario> {
    // Most files say `game:` on a line of its own: then one parse does. Otherwise, or
    // when that parse fails, the envelope is read first for the clearer message.
    let game = match quick_game(text) {
        Some(g) => g,
        None => read_head(origin, text)?,
    };
    let loaded = match game {
        Game::Swccg => load_game::<engine::swccg::Swccg>(origin, text, ids),
        Game::Destiny => load_game::<engine::destiny::Destiny>(origin, text, ids),
        Game::Swtcg => load_game::<engine::swtcg::Swtcg>(origin, text, ids),
    };
    match loaded {
        Err(e) if quick_game(text).is_some() => read_head(origin, text).and(Err(e)),
        other => other,
    }
}

/// The game named on a top-level `game:` line, if the file has exactly one.
fn quick_game(text: &str) -> Option<Game> {
    let mut found = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("game:") {
            let word = rest.split('#').next().unwrap_or("").trim();
            let g = Game::ALL.into_iter().find(|g| g.as_str() == word)?;
            if found.replace(g).is_some() {
                return None;
            }
        }
    }
    found
}

/// The first read of a file: which game, and whether its board is under that game's key.
fn read_head(origin: &Path, text: &str) -> Result<Game> {
    let head: Head = crate::yaml::load(origin, text)?;
    let game = head.game.value;
    let keys = [
        (Game::Swccg, &head.swccg),
        (Game::Destiny, &head.destiny),
        (Game::Swtcg, &head.swtcg),
    ];
    for (g, k) in keys {
        if let Some(k) = k
            && g != game
        {
            return Err(at_value(
                origin,
                k,
                format!(
                    "board `{}:` given for a `game: {}` scenario (a file holds exactly one thing to run)",
                    g.as_str(),
                    game.as_str()
                ),
            ));
        }
    }
    if keys.iter().all(|(g, k)| *g != game || k.is_none()) {
        return Err(at_value(
            origin,
            &head.game,
            format!(
                "a `game: {0}` scenario needs its board under `{0}:`",
                game.as_str()
            ),
        ));
    }
    Ok(game)
}

fn load_game<G: GameRules + Send + Sync + 'static>(
    origin: &Path,
    text: &str,
    ids: Option<&dyn SectionIds>,
) -> Result<Scenario>
where
    G::Board: Send + Sync,
    G::Step: Send + Sync,
{
    let f: File<G::Board, G::Step> = crate::yaml::load(origin, text)?;
    // `ruling:<game>:<id>#<n>` names a published card ruling (see `rulings`).
    if let Some(src) = &f.source
        && let Some(Err(m)) = crate::rulings::check_source(G::GAME, &src.value)
    {
        return Err(at_value(origin, src, m));
    }
    // `SECTION#N` names the Nth worked example inside a section (see `coverage`).
    if let (Some(src), Some(ids)) = (&f.source, ids)
        && crate::rulings::RulingRef::parse(&src.value).is_none()
        && !ids.has(section_of(&src.value))
    {
        let msg = format!("source `{}` is not a rulebook section ID", src.value);
        return Err(at_value(origin, src, msg));
    }
    let board = f.board.value;
    // A problem the game finds with no position of its own is placed at the board.
    let (board_line, board_column) = (f.board.referenced.line(), f.board.referenced.column());
    let placed = |e: BoardError| match e.line {
        0 => at(origin, board_line, board_column, e.message),
        line => at(origin, line, e.column, e.message),
    };
    let mut script = Vec::with_capacity(f.script.len());
    for (i, s) in f.script.into_iter().enumerate() {
        let pos = At {
            step: i + 1,
            line: s.referenced.line(),
            column: s.referenced.column(),
        };
        let seat = G::seat(&board, &s.value).map_err(|m| at(origin, pos.line, pos.column, m))?;
        script.push(Scripted {
            at: pos,
            player: seat,
            step: s.value,
        });
    }
    G::check(&board, &script).map_err(placed)?;
    let expect = Expect::read(f.expect, |p| G::observable(&board, p)).map_err(placed)?;
    Ok(Scenario {
        file: origin.to_path_buf(),
        game: G::GAME,
        title: f.title,
        source: f.source,
        notes: f.notes,
        expect,
        loaded: Box::new(Loaded::<G> { board, script }),
    })
}

/// The section a `source:` names: `swccg.ar.x#2` is the second example inside `swccg.ar.x`.
pub fn section_of(source: &str) -> &str {
    match source.rsplit_once('#') {
        Some((id, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => id,
        _ => source,
    }
}

/// Run a scenario and check its expectations.
pub fn run(s: &Scenario) -> Report {
    compare(s, s.run_engine())
}

/// Load and run each file, as [`run_files_with`] does, keeping every report.
pub fn run_files(files: &[PathBuf], ids: Option<&dyn SectionIds>) -> Vec<Result<Report>> {
    run_files_with(files, ids, |_, r| r)
}

/// Load and run each file, on every core the machine has, each file's result
/// handed to `each` on the thread that ran it (so what a caller keeps of a
/// report is made, and the rest dropped, on every core); the results come back
/// in the order of `files`. Each scenario is loaded and run on its own, so the
/// order of work never changes a result.
pub fn run_files_with<T: Send>(
    files: &[PathBuf],
    ids: Option<&dyn SectionIds>,
    each: impl Fn(&Path, Result<Report>) -> T + Sync,
) -> Vec<T> {
    use rayon::prelude::*;
    files
        .par_iter()
        .map(|f| each(f, load(f, ids).map(|s| run(&s))))
        .collect()
}

/// The scenarios shipped with swjudge, built into the binary by `build.rs`
/// from every file of `scenarios/`.
pub mod shipped {
    include!(concat!(env!("OUT_DIR"), "/scenario_files.rs"));
}

/// The shipped scenarios as a folder, `<cache>/scenarios/<fingerprint>/`:
/// unpacked on first use (as the built-in rulebook is), so that `swjudge test`
/// and `coverage` have them wherever swjudge is installed.
pub fn shipped_folder(cache: &Path) -> Result<PathBuf> {
    let files = shipped::FILES
        .iter()
        .map(|(rel, text)| (*rel, text.as_bytes()));
    let marker = shipped::FILES.last().map_or("", |(rel, _)| rel);
    let folder = cache.join("scenarios");
    crate::paths::unpack(&folder, shipped::FINGERPRINT, marker, files)
}

/// Every `*.yaml` / `*.yml` file under the paths, sorted (see [`crate::paths::files_under`]).
pub fn find_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    crate::paths::files_under(paths, &["yaml", "yml"])
}
