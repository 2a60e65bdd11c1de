//! The engine kernel, shared by every game.
//!
//! A game module (`swccg`, and beside it each other game) has the same
//! shape: `model` (its YAML board, abilities and script steps, every struct
//! rejecting unknown keys), `state`, `rules` (every section ID it cites) and
//! a driver. It implements [`GameRules`]: check a loaded board and script,
//! say which expectation paths it can observe, and run. A run is a pure
//! function of (board, script) → [`RunResult`]: no clock, no randomness, no
//! I/O. The kernel never imports the scenario layer, and nothing here reads
//! English: every result is typed.
//!
//! The kernel's vocabulary fits a LIFO stack (SWCCG), a FIFO queue (Destiny)
//! and play-or-pass windows (SWTCG): an ability or action is `push`ed onto the
//! stack or queue and `pop`ped off it, a `window` is a chance to act that a
//! player takes or `pass`es, `roll` is a scripted random result.

pub mod destiny;
pub mod library;
pub mod swccg;
pub mod swtcg;

use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

pub use crate::game::Game;

/// Upper bound on engine steps for every game: a run always ends.
pub const MAX_STEPS: usize = 20_000;

/// A player's seat: 0 or 1. Each game names its seats (light/dark; player1/player2).
pub type Seat = u8;

/// Who did something: a player (by seat), or the rules themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Actor {
    Player(Seat),
    Rules,
}

/// The names of the two seats, as the game (or the scenario) calls them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Players(pub [String; 2]);

impl Players {
    pub fn new(a: impl Into<String>, b: impl Into<String>) -> Players {
        Players([a.into(), b.into()])
    }
    pub fn name(&self, a: Actor) -> &str {
        match a {
            Actor::Player(s) => self.0.get(usize::from(s)).map_or("?", |x| x.as_str()),
            Actor::Rules => "rules",
        }
    }
    /// The seat called `name`, if any.
    pub fn seat(&self, name: &str) -> Option<Seat> {
        self.0.iter().position(|n| n == name).map(|i| i as Seat)
    }
}

/// The kind of a trace step: a neutral vocabulary for every game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// An action or ability entered the stack or the queue.
    Push,
    /// An action's initiation (targets chosen, costs paid).
    Initiate,
    /// A chance to act: responses, a play-or-pass chance, a player's turn to act.
    Window,
    /// A player declined to act.
    Pass,
    /// An action had its result (or one step of it).
    Result,
    /// An action was canceled.
    Cancel,
    /// An action left the stack or the queue.
    Pop,
    /// A scripted random result: a die roll, a shuffle, a random discard.
    Roll,
    /// A card moved, a value changed, Force or resources were spent…
    StateChange,
    /// A scripted decision the rules forbid where it stands in the script.
    DecisionRejected,
    /// A phase, step or round began or ended.
    Phase,
    /// The engine met something it does not model.
    NotModelled,
    /// The run stopped.
    Stop,
}

impl Event {
    pub fn as_str(self) -> &'static str {
        match self {
            Event::Push => "push",
            Event::Initiate => "initiate",
            Event::Window => "window",
            Event::Pass => "pass",
            Event::Result => "result",
            Event::Cancel => "cancel",
            Event::Pop => "pop",
            Event::Roll => "roll",
            Event::StateChange => "state_change",
            Event::DecisionRejected => "decision_rejected",
            Event::Phase => "phase",
            Event::NotModelled => "not_modelled",
            Event::Stop => "stop",
        }
    }
}

/// A line of text with the rulebook section IDs that justify it: what a game's rule
/// helpers (a destiny draw, a drain's numbers, a battle's numbers) say before the
/// driver makes it a trace step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cited {
    pub text: String,
    pub cites: Vec<&'static str>,
}

impl Cited {
    pub fn new(text: impl Into<String>, cites: &[&'static str]) -> Cited {
        Cited {
            text: text.into(),
            cites: cites.to_vec(),
        }
    }
}

/// One step of a trace. `cites` are rulebook section IDs that justify it.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceStep {
    pub n: usize,
    /// Stack depth or queue position: 0 at top level.
    pub level: usize,
    pub actor: Actor,
    pub event: Event,
    pub text: String,
    pub cites: Vec<&'static str>,
}

/// The ordered record of a run.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    pub steps: Vec<TraceStep>,
    /// What was met and not modelled, in order (each also a `not_modelled` step).
    pub not_modelled: Vec<String>,
}

impl Trace {
    /// Append one step; `n` is assigned here.
    pub fn push(
        &mut self,
        level: usize,
        actor: Actor,
        event: Event,
        text: impl Into<String>,
        cites: &[&'static str],
    ) {
        let n = self.steps.len() + 1;
        self.steps.push(TraceStep {
            n,
            level,
            actor,
            event,
            text: text.into(),
            cites: cites.to_vec(),
        });
    }

    /// Record something the engine does not model: a `not_modelled` step
    /// ("not modelled — ruling needed: …") and an entry in [`Trace::not_modelled`].
    pub fn not_modelled(
        &mut self,
        level: usize,
        actor: Actor,
        what: impl Into<String>,
        cites: &[&'static str],
    ) {
        let what = what.into();
        self.push(
            level,
            actor,
            Event::NotModelled,
            format!("not modelled — ruling needed: {what}"),
            cites,
        );
        self.not_modelled.push(what);
    }

    /// Every rule ID cited anywhere in the trace, deduplicated, in first-cited order.
    pub fn cited_ids(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for s in &self.steps {
            for c in &s.cites {
                if !out.contains(c) {
                    out.push(c);
                }
            }
        }
        out
    }
}

/// What kind of decision a stopped run needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NeedKind {
    /// A top-level action, a turn's action, or a pass.
    Action,
    /// A response (or a play in a play-or-pass chance), or a pass.
    Response,
    /// A choice among cards, targets, values or piles.
    Choice,
    /// The order of simultaneous abilities.
    Order,
    /// A random result the script must give: a roll, a draw, a random discard.
    Random,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// Everything resolved and the script has no more decisions.
    Complete,
    /// A phase (or round, or turn) ended and the run was not to go further.
    PhaseEnded { phase: String },
    /// A player had a choice and the script gave none.
    NeedsDecision {
        player: Actor,
        kind: NeedKind,
        what: String,
    },
    /// The run met something the engine does not model and could not go on.
    NotModelled { what: String },
    /// Safety stop after [`MAX_STEPS`].
    StepLimit,
}

impl End {
    /// The key expectations use: `complete`, `phase_ended`, `needs_decision`, `not_modelled`, `step_limit`.
    pub fn key(&self) -> &'static str {
        match self {
            End::Complete => "complete",
            End::PhaseEnded { .. } => "phase_ended",
            End::NeedsDecision { .. } => "needs_decision",
            End::NotModelled { .. } => "not_modelled",
            End::StepLimit => "step_limit",
        }
    }
    pub const KEYS: [&'static str; 5] = [
        "complete",
        "phase_ended",
        "needs_decision",
        "not_modelled",
        "step_limit",
    ];
    /// One sentence for people.
    pub fn sentence(&self, players: &Players) -> String {
        match self {
            End::Complete => "everything resolved".to_string(),
            End::PhaseEnded { phase } => format!("the {phase} ended"),
            End::NeedsDecision { player, what, .. } => {
                format!("needs a decision from {}: {what}", players.name(*player))
            }
            End::NotModelled { what } => format!("not modelled — ruling needed: {what}"),
            End::StepLimit => format!("stopped after {MAX_STEPS} steps"),
        }
    }
}

/// Where a scripted decision stands: its position in the script (from 1) and in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct At {
    pub step: usize,
    pub line: u64,
    pub column: u64,
}

/// A scripted decision with where it stands; `player` is the seat that makes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Scripted<D> {
    pub at: At,
    pub player: Seat,
    pub step: D,
}

/// Why an engine stopped carrying out a run or an action, in every game: the
/// run ends here (the engine has recorded how, as its [`End`]), or the decision
/// being carried out is illegal and is refused.
#[derive(Debug)]
pub enum Stop {
    Halt,
    Rej(Rejection),
}

/// What an engine's step gives: go on with its value, or stop.
pub type Flow<T = ()> = Result<T, Stop>;

/// Why a scripted decision is refused, in every game: the reason, the rule it
/// breaks and any further rules it rests on. A decision that needs game text
/// the engine does not model is not refused: `not_modelled` says what, and the
/// run stops there.
#[derive(Debug, Clone)]
pub struct Rejection {
    pub reason: String,
    pub rule: &'static str,
    /// Further rules the rejection rests on (cited after `rule`).
    pub also: Vec<&'static str>,
    pub not_modelled: Option<String>,
}

impl Rejection {
    /// Cite one more rule.
    pub fn and(mut self, rule: &'static str) -> Rejection {
        self.also.push(rule);
        self
    }

    /// Every rule cited, the main one first.
    pub fn cites(&self) -> Vec<&'static str> {
        std::iter::once(self.rule)
            .chain(self.also.iter().copied())
            .collect()
    }
}

/// A decision refused for `reason`, under `rule`.
pub fn rej(reason: impl Into<String>, rule: &'static str) -> Rejection {
    Rejection {
        reason: reason.into(),
        rule,
        also: Vec::new(),
        not_modelled: None,
    }
}

/// A scripted decision the rules did not allow where it stood.
#[derive(Debug, Clone, PartialEq)]
pub struct Illegal {
    pub at: At,
    pub player: Actor,
    /// The decision, in words.
    pub decision: String,
    pub reason: String,
    /// The rules it breaks (at least one).
    pub cites: Vec<&'static str>,
}

/// A scripted decision never taken.
#[derive(Debug, Clone, PartialEq)]
pub struct Leftover {
    pub at: At,
    pub player: Actor,
    pub decision: String,
}

/// A typed value an expectation can be checked against.
pub type Value = serde_json::Value;

/// The values a run produced, by path (`cards.alter`, `force.light.used`,
/// `numbers.light.total_power`…). A path the game can observe but that has no
/// value here compares as `null`: the value does not exist.
///
/// A game either sets its values as the run ends, or hands over an [`Observe`]
/// source that works them out from the end state on request: checking three
/// expected paths then does not write out every card's place.
#[derive(Clone, Default)]
pub struct Observations {
    values: BTreeMap<String, Value>,
    source: Option<Arc<dyn Observe>>,
}

/// A game's observations, worked out from a run's end state when asked.
pub trait Observe: Send + Sync {
    /// Add to `out` the observations of every family `want` asks for.
    fn observe(&self, want: &Want<'_>, out: &mut Observations);
}

/// Which families of observations to work out: every one, or those that some
/// of the given paths fall in.
pub struct Want<'a>(Option<&'a [String]>);

impl<'a> Want<'a> {
    pub fn all() -> Want<'static> {
        Want(None)
    }
    pub fn paths(paths: &'a [String]) -> Want<'a> {
        Want(Some(paths))
    }
    /// Whether the family of paths that begin with `prefix` is wanted. A family
    /// writes only paths that begin with its prefix, so working out more than
    /// was asked for never changes an answer.
    pub fn family(&self, prefix: &str) -> bool {
        self.0
            .is_none_or(|ps| ps.iter().any(|p| p.starts_with(prefix)))
    }
}

impl Observations {
    /// Observations worked out on request by `source`.
    pub fn from_source(source: Arc<dyn Observe>) -> Observations {
        Observations {
            values: BTreeMap::new(),
            source: Some(source),
        }
    }
    pub fn set(&mut self, path: impl Into<String>, v: impl Into<Value>) {
        self.values.insert(path.into(), v.into());
    }
    /// A number that may not exist (`None` → `null`).
    pub fn num(&mut self, path: impl Into<String>, v: Option<i64>) {
        self.values
            .insert(path.into(), v.map_or(Value::Null, Value::from));
    }
    pub fn list<S: AsRef<str>>(&mut self, path: impl Into<String>, items: &[S]) {
        let v = items
            .iter()
            .map(|s| Value::from(s.as_ref()))
            .collect::<Vec<_>>();
        self.values.insert(path.into(), Value::Array(v));
    }
    /// The value at each of `paths`, in order: `None` where there is none.
    pub fn values_at(&self, paths: &[String]) -> Vec<Option<Value>> {
        let mut worked = Observations::default();
        if let Some(src) = &self.source {
            src.observe(&Want::paths(paths), &mut worked);
        }
        paths
            .iter()
            .map(|p| {
                worked
                    .values
                    .remove(p)
                    .or_else(|| self.values.get(p).cloned())
            })
            .collect()
    }
    pub fn get(&self, path: &str) -> Option<Value> {
        self.values_at(&[path.to_string()]).pop().flatten()
    }
    /// Every observation, by path.
    pub fn all(&self) -> BTreeMap<String, Value> {
        let mut out = Observations {
            values: self.values.clone(),
            source: None,
        };
        if let Some(src) = &self.source {
            src.observe(&Want::all(), &mut out);
        }
        out.values
    }
}

impl Serialize for Observations {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.all().serialize(s)
    }
}

impl std::fmt::Debug for Observations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.all()).finish()
    }
}

/// Everything a run produced.
#[derive(Debug, Clone)]
pub struct RunResult {
    pub players: Players,
    pub trace: Trace,
    pub end: End,
    pub illegal: Vec<Illegal>,
    pub leftover: Vec<Leftover>,
    pub observations: Observations,
}

/// A semantic error in a loaded board or script, with where it is when known
/// (line 0: no position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardError {
    pub line: u64,
    pub column: u64,
    pub message: String,
}

impl BoardError {
    pub fn new(line: u64, column: u64, message: impl Into<String>) -> BoardError {
        BoardError {
            line,
            column,
            message: message.into(),
        }
    }
    pub fn at(at: At, message: impl Into<String>) -> BoardError {
        BoardError::new(at.line, at.column, message)
    }
    pub fn nowhere(message: impl Into<String>) -> BoardError {
        BoardError::new(0, 0, message)
    }
}

/// One game's engine, as the scenario layer sees it.
pub trait GameRules {
    const GAME: Game;
    /// The game's board, read from the scenario's `<game>:` key.
    type Board: serde::de::DeserializeOwned;
    /// One scripted decision.
    type Step: serde::de::DeserializeOwned + Clone;
    /// The two seats' names for this board.
    fn players(board: &Self::Board) -> Players;
    /// The seat a step names, or why it names none (each step names exactly one player).
    fn seat(board: &Self::Board, step: &Self::Step) -> Result<Seat, String>;
    /// Meaning checks on the board and the script (names exist, limits…).
    fn check(board: &Self::Board, script: &[Scripted<Self::Step>]) -> Result<(), BoardError>;
    /// Whether an expectation path (`cards.x`, `numbers.y`…) can be observed on this
    /// board; `Err` says why not, and what can be.
    fn observable(board: &Self::Board, path: &str) -> Result<(), String>;
    /// Run the board with its script.
    fn run(board: &Self::Board, script: &[Scripted<Self::Step>]) -> RunResult;
    /// What can be observed of the board as given, before anything happens (the
    /// paths [`RunResult::observations`] has): what a run changed is the difference.
    fn start(board: &Self::Board) -> Observations;
}

/// A scripted decision cursor: decisions are taken in order, each at most once.
#[derive(Debug, Clone)]
pub struct Script<D> {
    items: Vec<D>,
    next: usize,
}

impl<D> Script<D> {
    pub fn new(items: Vec<D>) -> Self {
        Script { items, next: 0 }
    }
    /// The next decision, not yet taken.
    pub fn peek(&self) -> Option<&D> {
        self.items.get(self.next)
    }
    /// Take the next decision.
    pub fn take(&mut self) -> Option<&D> {
        let d = self.items.get(self.next)?;
        self.next += 1;
        Some(d)
    }
    /// Decisions never taken, in order.
    pub fn remaining(&self) -> &[D] {
        self.items.get(self.next..).unwrap_or(&[])
    }
    /// How many decisions were never taken.
    pub fn leftover(&self) -> usize {
        self.items.len().saturating_sub(self.next)
    }
}
