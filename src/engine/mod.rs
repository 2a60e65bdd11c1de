//! Rules engines. Shared parts: the trace, citations, scripted choices.
//! Each engine is a pure function of (board, script) → trace: no clock, no
//! randomness, no I/O.

pub mod swccg;

use serde::Serialize;

/// Who did something: a player, or the rules themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Actor {
    Light,
    Dark,
    Rules,
}

impl Actor {
    pub fn as_str(self) -> &'static str {
        match self {
            Actor::Light => "light",
            Actor::Dark => "dark",
            Actor::Rules => "rules",
        }
    }
}

/// The kind of a trace step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// An action was put on the stack.
    Push,
    /// An action's initiation (targets chosen, costs paid).
    Initiate,
    /// Responses to the current action may now be made.
    ResponseWindow,
    /// A player declined to act.
    Pass,
    /// An action had its result (or one step of it).
    Result,
    /// An action was canceled.
    Cancel,
    /// An action came off the stack.
    Pop,
    /// A card moved, Force was used, lost, activated…
    StateChange,
    /// A scripted decision the rules forbid, or one made out of turn.
    DecisionRejected,
    /// A phase ended.
    PhaseEnd,
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
            Event::ResponseWindow => "response_window",
            Event::Pass => "pass",
            Event::Result => "result",
            Event::Cancel => "cancel",
            Event::Pop => "pop",
            Event::StateChange => "state_change",
            Event::DecisionRejected => "decision_rejected",
            Event::PhaseEnd => "phase_end",
            Event::NotModelled => "not_modelled",
            Event::Stop => "stop",
        }
    }
}

/// One step of a trace. `cites` are rulebook section IDs that justify it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceStep {
    pub n: usize,
    /// Stack level: 0 with an empty stack, 1 for a top-level action, 2 for a response…
    pub depth: usize,
    pub actor: Actor,
    pub event: Event,
    pub text: String,
    pub cites: Vec<&'static str>,
}

/// The ordered record of a run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Trace {
    pub steps: Vec<TraceStep>,
}

impl Trace {
    /// Append one step; `n` is assigned here.
    pub fn push(
        &mut self,
        depth: usize,
        actor: Actor,
        event: Event,
        text: impl Into<String>,
        cites: &[&'static str],
    ) {
        let n = self.steps.len() + 1;
        self.steps.push(TraceStep {
            n,
            depth,
            actor,
            event,
            text: text.into(),
            cites: cites.to_vec(),
        });
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

/// A scripted decision cursor shared by engines: decisions are taken in order,
/// each at most once.
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
    /// Position (from 1) of the next decision.
    pub fn position(&self) -> usize {
        self.next + 1
    }
    /// Take the next decision.
    pub fn take(&mut self) -> Option<&D> {
        let d = self.items.get(self.next)?;
        self.next += 1;
        Some(d)
    }
    /// Decisions never taken.
    pub fn leftover(&self) -> usize {
        self.items.len().saturating_sub(self.next)
    }
}
