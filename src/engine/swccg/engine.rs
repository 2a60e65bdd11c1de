//! The driver: top-level actions, the stack, responses, results, canceling,
//! limits (AR Ch.1 Section C), producing a cited trace.
//!
//! Decisions are taken from the script in rules order. A decision the rules
//! forbid (or made out of turn) is rejected with its reason and rule, and the
//! run continues as if it had not been made. A player with no legal option
//! passes without a scripted decision; a player who has one and no scripted
//! decision stops the run ("needs a decision").

use super::destiny;
use super::rules as r;
use super::stack::{ActionKind, DeployTo, Entry, Stage, Tgt};
use super::state::{CardIx, State, Zone};
use crate::engine::swccg::model::{
    Ability, AbilityKind, Amount, CardRef, CardType, Dest, DestinyTest, Effect, EventKind, Limit,
    Phase, PileName, Rel, Side, Step, TargetKind, TargetSpec, Trigger, Verb, Who,
};
use crate::engine::{Actor, At, Event, Illegal, Leftover, Script, Trace};

/// Upper bound on engine steps: a run always ends.
const MAX_STEPS: usize = 20_000;

/// One scripted decision, resolved to its player.
#[derive(Debug, Clone)]
pub struct Decision {
    /// Where it stands in the script.
    pub at: At,
    pub by: Side,
    pub verb: Verb,
    pub step: Step,
}

impl Decision {
    pub fn describe(&self, st: &State) -> String {
        let mut s = format!("{} {}", self.by.name(), self.verb.as_str());
        if let Some(c) = &self.step.card {
            s.push(' ');
            s.push_str(st.find(c).map(|i| st.title(i)).unwrap_or(c));
        }
        if !self.step.target.is_empty() {
            s.push_str(&format!(" targeting {}", self.step.target.join(", ")));
        }
        if let Some(v) = &self.step.via {
            s.push_str(&format!(" via {v}"));
        }
        if !self.step.cards.is_empty() {
            s.push_str(&format!(" [{}]", self.step.cards.join(", ")));
        }
        s
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "end", rename_all = "snake_case")]
pub enum Outcome {
    /// The stack is empty and the script has no more decisions.
    Complete { next: Side },
    /// Two consecutive passes ended the phase.
    PhaseEnded { phase: Phase },
    /// A player had a choice and the script gave none.
    NeedsDecision { player: Side, what: String },
    /// The run met something the engine does not model and could not go on.
    NotModelled { what: String },
    /// Safety stop.
    StepLimit,
}

impl Outcome {
    pub fn key(&self) -> &'static str {
        match self {
            Outcome::Complete { .. } => "complete",
            Outcome::PhaseEnded { .. } => "phase_ended",
            Outcome::NeedsDecision { .. } => "needs_decision",
            Outcome::NotModelled { .. } => "not_modelled",
            Outcome::StepLimit => "step_limit",
        }
    }
    pub fn sentence(&self) -> String {
        match self {
            Outcome::Complete { next } => format!(
                "the stack is empty; {} performs the next top-level action",
                next.name()
            ),
            Outcome::PhaseEnded { phase } => format!("the {} phase ended", phase.as_str()),
            Outcome::NeedsDecision { player, what } => {
                format!("needs a decision from {}: {what}", player.name())
            }
            Outcome::NotModelled { what } => format!("not modelled — ruling needed: {what}"),
            Outcome::StepLimit => format!("stopped after {MAX_STEPS} steps"),
        }
    }
}

/// Why a decision was rejected.
#[derive(Debug, Clone)]
pub struct Rej {
    pub reason: String,
    pub rule: &'static str,
    /// The decision uses game text the engine does not model: the run stops, nothing is rejected.
    pub not_modelled: Option<String>,
}

pub(crate) fn rej(reason: impl Into<String>, rule: &'static str) -> Rej {
    Rej {
        reason: reason.into(),
        rule,
        not_modelled: None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Window {
    TopLevel,
    /// Responses to the stack entry at this index.
    Response(usize),
}

enum Asked {
    Pass,
    Act(Box<Decision>),
    Stop,
}

enum Flow {
    Go,
    Stop,
}

/// What backing up restores: the game as it was just before an attempted action.
struct Snapshot {
    st: State,
    stack: Vec<Entry>,
    usage: Vec<Usage>,
    mandatory_done: Vec<(CardIx, usize)>,
    failed_searches: Vec<(CardIx, usize)>,
    resolved: Vec<String>,
    canceled: Vec<String>,
    destinies: Vec<i64>,
    top_next: Side,
    top_passes: u8,
}

/// The last action initiated by a decision, while a "before" action may still preempt it.
struct Attempt {
    snap: Box<Snapshot>,
    window: Window,
}

#[derive(Debug, Clone)]
struct Usage {
    card: CardIx,
    ability: usize,
    title: String,
    canceled: bool,
}

/// The engine's state during one run.
pub struct Engine {
    pub st: State,
    pub turn: Side,
    pub phase: Phase,
    pub stack: Vec<Entry>,
    pub trace: Trace,
    script: Script<Decision>,
    top_next: Side,
    top_passes: u8,
    phase_over: bool,
    usage: Vec<Usage>,
    mandatory_done: Vec<(CardIx, usize)>,
    /// Search functions that found nothing (verified) this turn.
    failed_searches: Vec<(CardIx, usize)>,
    pub resolved: Vec<String>,
    pub canceled: Vec<String>,
    pub illegal: Vec<Illegal>,
    pub destinies: Vec<i64>,
    pub outcome: Option<Outcome>,
    pub leftover: Vec<Leftover>,
    attempt: Option<Attempt>,
    backed_up: bool,
    /// The last phase the run may reach (the scenario's `through:`).
    pub through: Phase,
}

impl Engine {
    pub fn new(st: State, turn: Side, phase: Phase, next: Side, script: Vec<Decision>) -> Engine {
        Engine {
            st,
            turn,
            phase,
            stack: Vec::new(),
            trace: Trace::default(),
            script: Script::new(script),
            top_next: next,
            top_passes: 0,
            phase_over: false,
            usage: Vec::new(),
            mandatory_done: Vec::new(),
            failed_searches: Vec::new(),
            resolved: Vec::new(),
            canceled: Vec::new(),
            illegal: Vec::new(),
            destinies: Vec::new(),
            outcome: None,
            leftover: Vec::new(),
            attempt: None,
            backed_up: false,
            through: phase,
        }
    }

    /// Put an action on the stack before the run: the position starts mid-stack.
    pub fn seed(&mut self, p: &crate::engine::swccg::model::Pending) {
        use crate::engine::swccg::model::PendingKind;
        let kind = match p.action {
            PendingKind::Battle => ActionKind::Battle,
            PendingKind::ForceDrain => ActionKind::ForceDrain,
        };
        let at =
            p.at.as_ref()
                .and_then(|a| self.st.find_location(a))
                .map(|l| format!(" at {}", self.st.locations[l].title))
                .unwrap_or_default();
        let what = kind.name();
        let mut e = Entry::new(kind, p.by, None, p.label.clone());
        if let Some(l) = p.at.as_ref().and_then(|a| self.st.find_location(a)) {
            e.targets.push(("at".into(), Tgt::Location(l)));
        }
        self.stack.push(e);
        self.log(
            actor(p.by),
            Event::Push,
            format!(
                "the position starts with {}'s {what}{at} on the stack ({}), just initiated",
                p.by.name(),
                p.label
            ),
            &[r::THE_STACK],
        );
    }

    /// Who performs the next top-level action.
    pub fn next_top_level(&self) -> Side {
        self.top_next
    }

    fn depth(&self) -> usize {
        self.stack.len()
    }

    /// Append a trace step at the current stack depth. Battles, Force drains,
    /// values and destiny draws report their steps through this.
    pub fn log(
        &mut self,
        actor: Actor,
        event: Event,
        text: impl Into<String>,
        cites: &[&'static str],
    ) {
        let d = self.depth();
        self.trace.push(d, actor, event, text, cites);
    }

    fn name(&self, c: CardIx) -> String {
        self.st.title(c).to_string()
    }

    /// Run to the end.
    pub fn run(&mut self) {
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{}'s {} phase; {} performs the next top-level action",
                self.turn.name(),
                self.phase.as_str(),
                self.top_next.name()
            ),
            &[r::TYPES_OF_ACTIONS],
        );
        for _ in 0..MAX_STEPS {
            let flow = if self.stack.is_empty() {
                self.top_level()
            } else {
                self.step_stack()
            };
            if matches!(flow, Flow::Stop) || self.outcome.is_some() {
                break;
            }
        }
        if self.outcome.is_none() {
            self.outcome = Some(Outcome::StepLimit);
        }
        self.leftover = self
            .script
            .remaining()
            .iter()
            .map(|d| Leftover {
                at: d.at,
                player: actor(d.by),
                decision: d.describe(&self.st),
            })
            .collect();
        let outcome = self.outcome.clone().unwrap_or(Outcome::StepLimit);
        self.log(Actor::Rules, Event::Stop, outcome.sentence(), &[]);
        let left: Vec<String> = self
            .leftover
            .iter()
            .map(|l| format!("decision {} left over: {}", l.at.step, l.decision))
            .collect();
        for l in left {
            self.log(Actor::Rules, Event::Stop, l, &[]);
        }
    }

    // ------------------------------------------------------------ asking

    /// Ask `p` for a decision in `w`.
    fn ask(&mut self, p: Side, w: Window) -> Asked {
        loop {
            let can = self.can_act(p, w);
            let Some(d) = self.script.peek().cloned() else {
                if w == Window::TopLevel {
                    self.outcome = Some(Outcome::Complete { next: p });
                    return Asked::Stop;
                }
                if can {
                    let what = self.what_is_asked(p, w);
                    self.outcome = Some(Outcome::NeedsDecision { player: p, what });
                    return Asked::Stop;
                }
                self.auto_pass(p, w);
                return Asked::Pass;
            };
            // Strict scripts: the asked player's next decision is taken here and judged
            // here when it is an attempt to respond (a just, automatic or "before"
            // action), legal or not. A player with no legal option passes without using
            // the script when the next decision is the other player's, or is their own
            // pass, top-level action or choice, which belongs to a later window.
            // A response anchored to a later action (`responding_to:`) waits for it:
            // its player passes until that action is the one responded to.
            if let (Some(anchor), Window::Response(i)) = (&d.step.responding_to, w)
                && d.by == p
                && (self.stack[i].label != *anchor || !can)
            {
                let text = format!(
                    "{} passes (its next decision responds to {anchor})",
                    p.name()
                );
                self.log_pass(p, w, text);
                return Asked::Pass;
            }
            // A decision placed after an action (`after:`) waits until that action is done.
            if let (Some(first), Window::Response(_)) = (&d.step.after, w)
                && d.by == p
                && !self.resolved.contains(first)
                && !self.canceled.contains(first)
            {
                let text = format!(
                    "{} passes (its next decision comes after {first})",
                    p.name()
                );
                self.log_pass(p, w, text);
                return Asked::Pass;
            }
            if !can && (d.by != p || (w != Window::TopLevel && !self.is_response_attempt(&d))) {
                self.auto_pass(p, w);
                return Asked::Pass;
            }
            if d.by == p {
                self.script.take();
                if d.verb == Verb::Pass {
                    let text = match w {
                        Window::TopLevel => format!("{} passes (no top-level action)", p.name()),
                        Window::Response(i) => format!(
                            "{} passes (no response to {})",
                            p.name(),
                            self.stack[i].label
                        ),
                    };
                    self.log_pass(p, w, text);
                    return Asked::Pass;
                }
                return Asked::Act(Box::new(d));
            }
            // Out of turn: the other player acts first; the decision is treated as not made.
            self.script.take();
            let (reason, rule) = match w {
                Window::TopLevel => (
                    format!(
                        "out of turn: {} performs the next top-level action",
                        p.name()
                    ),
                    r::TYPES_OF_ACTIONS,
                ),
                Window::Response(i) => (
                    format!(
                        "out of turn: {} has the next response to {} (play backs up; the action was never initiated)",
                        p.name(),
                        self.stack[i].label
                    ),
                    r::TIME_TO_RESPOND,
                ),
            };
            self.reject(&d, rej(reason, rule));
        }
    }

    /// Is a scripted decision an attempt to respond (playing or using an ability that
    /// is a just, automatic or "before" action)?
    fn is_response_attempt(&self, d: &Decision) -> bool {
        if !matches!(d.verb, Verb::Play | Verb::Use) {
            return false;
        }
        let Some(c) = d.step.card.as_deref().and_then(|k| self.st.find(k)) else {
            return false;
        };
        let abilities = &self.st.def(c).abilities;
        let responds = |ab: &Ability| {
            matches!(
                ab.kind,
                AbilityKind::Response | AbilityKind::Automatic | AbilityKind::Before
            )
        };
        match d.step.ability.as_deref() {
            Some(name) => find_ability(abilities, name).is_some_and(|a| responds(&abilities[a])),
            None => abilities.iter().any(responds),
        }
    }

    fn what_is_asked(&self, _p: Side, w: Window) -> String {
        match w {
            Window::TopLevel => "a top-level action or pass".to_string(),
            Window::Response(i) => format!("respond to {} or pass", self.stack[i].label),
        }
    }

    fn auto_pass(&mut self, p: Side, w: Window) {
        let text = match w {
            Window::TopLevel => format!("{} has no legal top-level action: passes", p.name()),
            Window::Response(i) => format!(
                "{} has no legal response to {}: passes",
                p.name(),
                self.stack[i].label
            ),
        };
        self.log_pass(p, w, text);
    }

    /// A pass: top-level passes follow the types of actions, response passes the stack.
    fn log_pass(&mut self, p: Side, w: Window, text: String) {
        let cites: &[&'static str] = if w == Window::TopLevel {
            &[r::TYPES_OF_ACTIONS]
        } else {
            &[r::HOW_THE_STACK_WORKS]
        };
        self.log(actor(p), Event::Pass, text, cites);
    }

    /// The decisions at the front of the script that `f` accepts, taken in order.
    pub(crate) fn take_decisions_while(&mut self, f: impl Fn(&Decision) -> bool) -> Vec<Decision> {
        let mut v = Vec::new();
        while let Some(d) = self.script.peek().filter(|d| f(d)).cloned() {
            self.script.take();
            v.push(d);
        }
        v
    }

    pub(crate) fn reject(&mut self, d: &Decision, e: Rej) {
        let desc = d.describe(&self.st);
        if let Some(what) = e.not_modelled {
            let depth = self.depth();
            self.trace
                .not_modelled(depth, actor(d.by), what.clone(), &[e.rule]);
            self.outcome = Some(Outcome::NotModelled { what });
            return;
        }
        self.log(
            actor(d.by),
            Event::DecisionRejected,
            format!("decision {} rejected ({desc}): {}", d.at.step, e.reason),
            &[e.rule],
        );
        self.illegal.push(Illegal {
            at: d.at,
            player: actor(d.by),
            decision: desc,
            reason: e.reason,
            cites: vec![e.rule],
        });
    }

    /// Does `p` have any legal action in `w`?
    fn can_act(&self, p: Side, w: Window) -> bool {
        let n = self.st.cards.len();
        for c in 0..n {
            if self.st.owner(c) != p {
                continue;
            }
            let zone = self.st.zone[c];
            if zone == Zone::Pile(p, PileName::Hand) {
                if w == Window::TopLevel && self.check_deploy(p, c, None).is_ok() {
                    return true;
                }
                if self.st.def(c).card_type == CardType::Interrupt {
                    for a in 0..self.st.def(c).abilities.len() {
                        if self.check_ability(p, c, a, w, &[], None).is_ok() {
                            return true;
                        }
                    }
                }
            } else if self.st.active(c) {
                for a in 0..self.st.def(c).abilities.len() {
                    if self.is_play_from(c, a) {
                        if self.play_from_candidates(p, c, a, w) {
                            return true;
                        }
                        continue;
                    }
                    if self.check_ability(p, c, a, w, &[], None).is_ok() {
                        return true;
                    }
                }
            }
        }
        false
    }

    // ------------------------------------------------------------ top level

    fn top_level(&mut self) -> Flow {
        if self.phase_over {
            // The run goes on into the next phase only while the script has decisions for it.
            if self.script.peek().is_none() || self.phase == self.through {
                self.outcome = Some(Outcome::PhaseEnded { phase: self.phase });
                return Flow::Stop;
            }
            // `through:` is at most the draw phase, so a next phase always exists here;
            // the end of the turn is not modelled.
            let Some(next) = next_phase(self.phase) else {
                self.outcome = Some(Outcome::PhaseEnded { phase: self.phase });
                return Flow::Stop;
            };
            self.begin_phase(next);
        }
        let p = self.top_next;
        match self.ask(p, Window::TopLevel) {
            Asked::Stop => Flow::Stop,
            Asked::Pass => {
                self.top_passes += 1;
                if self.top_passes >= 2 {
                    self.end_phase();
                } else {
                    self.top_next = p.other();
                }
                Flow::Go
            }
            Asked::Act(d) => {
                let snap = self.snapshot();
                match self.initiate(&d, Window::TopLevel) {
                    Ok(()) if std::mem::take(&mut self.backed_up) => {}
                    Ok(()) => {
                        self.attempt = Some(Attempt {
                            snap,
                            window: Window::TopLevel,
                        });
                        self.top_passes = 0;
                        self.top_next = p.other();
                    }
                    Err(e) => self.reject(&d, e),
                }
                Flow::Go
            }
        }
    }

    /// The next phase of the same turn begins: the player whose turn it is performs
    /// its first top-level action; once-per-phase limits start again, once-per-turn
    /// limits do not.
    fn begin_phase(&mut self, next: Phase) {
        let ended = self.phase;
        self.phase = next;
        self.phase_over = false;
        self.top_passes = 0;
        self.top_next = self.turn;
        let before = self.usage.len();
        self.usage.retain(|u| {
            self.st.def(u.card).abilities[u.ability].limit != Some(Limit::OncePerPhase)
        });
        let reset = before - self.usage.len();
        self.mandatory_done.clear();
        self.attempt = None;
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "the {} phase ends and {}'s {} phase begins; {} performs the first top-level action{}",
                ended.as_str(),
                self.turn.name(),
                next.as_str(),
                self.turn.name(),
                if reset > 0 { format!(" ({reset} once-per-phase use(s) no longer count; once-per-turn uses still do)") } else { String::new() }
            ),
            &[r::ORDER_OF_EVENTS, r::TYPES_OF_ACTIONS, r::ONE_RULE],
        );
    }

    fn end_phase(&mut self) {
        self.log(
            Actor::Rules,
            Event::Phase,
            format!(
                "two consecutive passes with an empty stack: the {} phase ends",
                self.phase.as_str()
            ),
            &[r::TYPES_OF_ACTIONS],
        );
        self.phase_over = true;
        // Mandatory actions not performed become automatic actions responding to the end of the time frame.
        let mut due = Vec::new();
        for c in 0..self.st.cards.len() {
            if !self.st.active(c) {
                continue;
            }
            for (a, ab) in self.st.def(c).abilities.iter().enumerate() {
                if ab.kind == AbilityKind::Mandatory
                    && ab.during.is_none_or(|ph| ph == self.phase)
                    && !self.mandatory_done.contains(&(c, a))
                {
                    due.push((c, a));
                }
            }
        }
        // Pushed so that the first listed resolves first.
        for &(c, a) in due.iter().rev() {
            let owner = self.st.owner(c);
            let text = self.ability_text(c, a);
            self.log(
                Actor::Rules,
                Event::Push,
                format!(
                    "{}'s mandatory action was not performed during the phase: it becomes an automatic action ({text})",
                    self.name(c)
                ),
                &[r::MANDATORY_ACTIONS],
            );
            let mut e = Entry::new(
                ActionKind::Mandatory,
                owner,
                Some(c),
                self.st.key(c).to_string(),
            );
            e.ability = Some(a);
            self.mandatory_done.push((c, a));
            self.stack.push(e);
        }
    }

    // ------------------------------------------------------------ the stack

    fn step_stack(&mut self) -> Flow {
        let ix = self.stack.len() - 1;
        // Canceled actions are always removed from the stack.
        if self.stack[ix].canceled {
            self.attempt = None;
            let e = self.stack.pop().map(|e| e.label).unwrap_or_default();
            self.log(
                Actor::Rules,
                Event::Pop,
                format!("{e} (canceled) is removed from the stack"),
                &[r::CANCELING],
            );
            return Flow::Go;
        }
        // An action no longer a legal target for responses comes off.
        if let ActionKind::JustDeployed = self.stack[ix].kind
            && let Some(c) = self.stack[ix].card
            && !self.st.on_table(c)
        {
            let label = self.stack[ix].label.clone();
            self.stack.pop();
            self.log(
                Actor::Rules,
                Event::Pop,
                format!("{label}: the card has left the table and is no longer just deployed; removed from the stack"),
                &[r::HOW_THE_STACK_WORKS],
            );
            return Flow::Go;
        }
        if let ActionKind::JustLost { cards } = &self.stack[ix].kind
            && !cards
                .iter()
                .any(|&c| matches!(self.st.zone[c], Zone::Pile(_, PileName::LostPile)))
        {
            let label = self.stack[ix].label.clone();
            self.stack.pop();
            self.log(
                Actor::Rules,
                Event::Pop,
                format!("{label}: the cards have left the Lost Pile and are no longer just lost; removed from the stack"),
                &[r::JUST_LOST, r::HOW_THE_STACK_WORKS],
            );
            return Flow::Go;
        }
        if self.stack[ix].stage == Stage::Resolving {
            return self.continue_result(ix);
        }
        // Automatic actions first.
        if self.stack[ix].autos.is_none() {
            let autos = self.collect_autos(ix);
            match autos {
                Ok(a) => self.stack[ix].autos = Some(a.into()),
                Err(()) => return Flow::Stop,
            }
        }
        if let Some((c, a)) = self.stack[ix].autos.as_mut().and_then(|q| q.pop_front()) {
            self.push_automatic(ix, c, a);
            return Flow::Go;
        }
        // Then just actions, beginning with the opponent of the player who performed the current action.
        if !self.stack[ix].window_opened {
            self.stack[ix].window_opened = true;
            let text = format!(
                "responses to {} ({}): {} has the first just action",
                self.stack[ix].label,
                self.stack[ix].kind.name(),
                self.stack[ix].next.name()
            );
            self.log(
                Actor::Rules,
                Event::Window,
                text,
                &[r::HOW_THE_STACK_WORKS, r::JUST_ACTIONS],
            );
        }
        let p = self.stack[ix].next;
        match self.ask(p, Window::Response(ix)) {
            Asked::Stop => Flow::Stop,
            Asked::Pass => {
                self.stack[ix].passes += 1;
                if self.stack[ix].passes >= 2 {
                    self.begin_result(ix)
                } else {
                    self.stack[ix].next = p.other();
                    Flow::Go
                }
            }
            Asked::Act(d) => {
                let snap = self.snapshot();
                match self.initiate(&d, Window::Response(ix)) {
                    Ok(()) if std::mem::take(&mut self.backed_up) => {}
                    Ok(()) => {
                        self.attempt = Some(Attempt {
                            snap,
                            window: Window::Response(ix),
                        });
                        self.stack[ix].passes = 0;
                        self.stack[ix].next = p.other();
                    }
                    Err(e) => self.reject(&d, e),
                }
                Flow::Go
            }
        }
    }

    /// Automatic actions triggered by the current action: in card order; from
    /// different cards, in the order chosen by the player whose turn it is.
    fn collect_autos(&mut self, ix: usize) -> Result<Vec<(CardIx, usize)>, ()> {
        let mut found = Vec::new();
        for c in 0..self.st.cards.len() {
            if !self.st.active(c) {
                continue;
            }
            for (a, ab) in self.st.def(c).abilities.iter().enumerate() {
                if ab.kind != AbilityKind::Automatic {
                    continue;
                }
                let Some(t) = &ab.responds_to else { continue };
                if self.trigger_matches(t, ix, c)
                    && self.conditions_hold(self.st.owner(c), c, ab).is_ok()
                {
                    found.push((c, a));
                }
            }
        }
        let mut sources: Vec<CardIx> = found.iter().map(|x| x.0).collect();
        sources.dedup();
        if sources.len() > 1 {
            let p = self.turn;
            match self.script.peek().cloned() {
                Some(d) if d.by == p && d.verb == Verb::Order => {
                    self.script.take();
                    let mut order = Vec::new();
                    for k in &d.step.cards {
                        if let Some(c) = self.st.find(k).filter(|c| sources.contains(c)) {
                            order.push(c);
                        }
                    }
                    if order.len() != sources.len() {
                        self.reject(
                            &d,
                            rej(
                                format!(
                                    "the order must name each of: {}",
                                    sources
                                        .iter()
                                        .map(|&c| self.st.key(c).to_string())
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                                r::AUTOMATIC_ACTIONS,
                            ),
                        );
                        self.outcome = Some(Outcome::NeedsDecision {
                            player: p,
                            what: "the order of competing automatic actions".into(),
                        });
                        return Err(());
                    }
                    self.log(
                        actor(p),
                        Event::StateChange,
                        format!(
                            "{} (whose turn it is) orders the automatic actions: {}",
                            p.name(),
                            order
                                .iter()
                                .map(|&c| self.name(c))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        &[r::AUTOMATIC_ACTIONS],
                    );
                    let mut sorted = Vec::new();
                    for c in order {
                        sorted.extend(found.iter().filter(|x| x.0 == c).copied());
                    }
                    found = sorted;
                }
                _ => {
                    self.outcome = Some(Outcome::NeedsDecision {
                        player: p,
                        what: format!(
                            "the order of competing automatic actions from {}",
                            sources
                                .iter()
                                .map(|&c| self.st.key(c).to_string())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    });
                    return Err(());
                }
            }
        }
        Ok(found)
    }

    fn push_automatic(&mut self, ix: usize, c: CardIx, a: usize) {
        let owner = self.st.owner(c);
        let targets = match self.choose_targets(owner, c, a, Window::Response(ix), &[]) {
            Ok(t) => t,
            Err(e) => {
                self.log(
                    Actor::Rules,
                    Event::StateChange,
                    format!(
                        "{}'s automatic action cannot target: {}",
                        self.name(c),
                        e.reason
                    ),
                    &[e.rule],
                );
                return;
            }
        };
        let text = self.ability_text(c, a);
        let mut e = Entry::new(
            ActionKind::Triggered,
            owner,
            Some(c),
            self.st.key(c).to_string(),
        );
        e.ability = Some(a);
        e.targets = targets;
        e.responding_to = Some(ix);
        self.stack.push(e);
        self.log(
            actor(owner),
            Event::Push,
            format!(
                "automatic action triggered by {}: {} ({text})",
                self.stack[ix].label,
                self.name(c)
            ),
            &[r::AUTOMATIC_ACTIONS, r::HOW_THE_STACK_WORKS],
        );
    }

    fn begin_result(&mut self, ix: usize) -> Flow {
        // Once any action has its result, nothing before it can be backed up to.
        self.attempt = None;
        let label = self.stack[ix].label.clone();
        let kind = self.stack[ix].kind.clone();
        self.log(
            Actor::Rules,
            Event::Result,
            format!("two consecutive passes: responses to {label} are over; it has its result"),
            &[r::HOW_THE_STACK_WORKS, r::RESULT],
        );
        match kind {
            ActionKind::Deploy { to } => {
                let Some(c) = self.stack[ix].card else {
                    return Flow::Go;
                };
                let z = match to {
                    DeployTo::Location(l) => Zone::At(l),
                    DeployTo::OnCard(h) => Zone::On(h),
                    DeployTo::Table => Zone::Table,
                };
                self.st.put(c, z);
                self.st.card_state[c] = crate::engine::swccg::model::CardState::Active;
                let actor_side = self.stack[ix].actor;
                let place = match z {
                    Zone::At(l) => format!("at {}", self.st.locations[l].title),
                    Zone::On(h) => format!("on {}", self.name(h)),
                    _ => "on table".to_string(),
                };
                self.log(
                    actor(actor_side),
                    Event::StateChange,
                    format!("{} is deployed {place}", self.name(c)),
                    &[r::RESULT, r::ACTIVE],
                );
                self.resolved.push(label.clone());
                self.stack.pop();
                self.log(
                    Actor::Rules,
                    Event::Pop,
                    format!("{label} comes off the stack"),
                    &[r::HOW_THE_STACK_WORKS],
                );
                // The deployment coming off the stack can itself be responded to.
                let mut e = Entry::new(
                    ActionKind::JustDeployed,
                    actor_side,
                    Some(c),
                    format!("{label} just deployed"),
                );
                e.next = actor_side.other();
                self.stack.push(e);
                self.log(
                    actor(actor_side),
                    Event::Push,
                    format!(
                        "{} is just deployed: responses to the completed deployment",
                        self.name(c)
                    ),
                    &[r::COMING_OFF_THE_STACK, r::JUST_DEPLOYED],
                );
                Flow::Go
            }
            ActionKind::Play
            | ActionKind::UseText
            | ActionKind::Triggered
            | ActionKind::Mandatory => {
                let (c, a) = (self.stack[ix].card, self.stack[ix].ability);
                if let (Some(c), Some(a)) = (c, a) {
                    let effects = self.st.def(c).abilities[a].effect.clone();
                    self.stack[ix].pending = effects.into();
                }
                self.stack[ix].stage = Stage::Resolving;
                Flow::Go
            }
            ActionKind::DestinyDraw { parent, test } => {
                let p = self.stack[ix].actor;
                let (card, value) = match self.stack[ix].substitute {
                    Some(v) => {
                        self.destinies.push(v);
                        self.log(
                            actor(p),
                            Event::Result,
                            format!(
                                "{} does not draw a card: the substituted destiny {v} is used",
                                p.name()
                            ),
                            &[r::RESULT],
                        );
                        (None, Some(v))
                    }
                    None => self.draw_destiny(p),
                };
                self.stack[ix].kind = ActionKind::DestinyDrawn {
                    parent,
                    test,
                    card,
                    value,
                };
                self.stack[ix].label = format!(
                    "{}'s destiny draw for {}",
                    p.name(),
                    self.stack[parent].label
                );
                self.stack[ix].autos = None;
                self.stack[ix].passes = 0;
                self.stack[ix].next = p.other();
                self.stack[ix].window_opened = false;
                self.stack[ix].responded.clear();
                Flow::Go
            }
            ActionKind::DestinyDrawn {
                parent,
                test,
                card,
                value,
            } => {
                let p = self.stack[ix].actor;
                // Unless a response already sent the destiny card elsewhere.
                if let Some(c) = card
                    && self.st.zone[c] == Zone::Drawn
                {
                    self.st.to_pile(c, p, PileName::UsedPile);
                    self.log(
                        actor(p),
                        Event::StateChange,
                        format!(
                            "the destiny card {} is placed on {}'s Used Pile",
                            self.name(c),
                            p.name()
                        ),
                        &[r::RESULT],
                    );
                }
                self.resolved.push(label.clone());
                self.stack.pop();
                self.log(
                    Actor::Rules,
                    Event::Pop,
                    format!("{label} comes off the stack"),
                    &[r::HOW_THE_STACK_WORKS],
                );
                self.apply_destiny_test(parent, &test, value);
                Flow::Go
            }
            ActionKind::JustDeployed
            | ActionKind::JustMoved { .. }
            | ActionKind::JustLost { .. } => {
                self.stack.pop();
                self.log(
                    Actor::Rules,
                    Event::Pop,
                    format!("{label} comes off the stack"),
                    &[r::HOW_THE_STACK_WORKS],
                );
                Flow::Go
            }
            ActionKind::Battle | ActionKind::ForceDrain => {
                if self.battle_or_drain_result(ix) {
                    Flow::Go
                } else {
                    Flow::Stop
                }
            }
        }
    }

    fn draw_destiny(&mut self, p: Side) -> (Option<CardIx>, Option<i64>) {
        let Some(c) = self.st.top(p, PileName::ReserveDeck) else {
            self.log(
                actor(p),
                Event::Result,
                format!(
                    "{}'s Reserve Deck is empty: the destiny draw fails",
                    p.name()
                ),
                &[r::IMPLIED_TARGET_RULE],
            );
            return (None, None);
        };
        let printed = self.st.def(c).stats.destiny.unwrap_or(0);
        let req = destiny::Request::new("destiny", p.name(), 1);
        let out = destiny::draw(
            &req,
            &[destiny::DestinyCard::new(self.st.title(c), printed)],
        );
        let value = out.total_value();
        self.st.put(c, Zone::Drawn);
        if let Some(v) = value {
            self.destinies.push(v);
        }
        let shown = value
            .map(|v| v.to_string())
            .unwrap_or_else(|| "none".into());
        self.log(
            actor(p),
            Event::Result,
            format!(
                "{} draws destiny: {} (destiny {shown})",
                p.name(),
                self.name(c)
            ),
            &[r::RESULT],
        );
        (Some(c), value)
    }

    fn apply_destiny_test(&mut self, parent: usize, test: &DestinyTest, value: Option<i64>) {
        if parent >= self.stack.len() {
            return;
        }
        self.stack[parent].destiny = value;
        let me = self.stack[parent].actor;
        let ok = match value {
            None => false,
            Some(v) => {
                let lt = test
                    .less_than
                    .as_ref()
                    .map(|a| self.amount(parent, a, me).map(|x| v < x));
                let gt = test
                    .greater_than
                    .as_ref()
                    .map(|a| self.amount(parent, a, me).map(|x| v > x));
                let mut ok = true;
                for t in [lt, gt].into_iter().flatten() {
                    ok &= t.unwrap_or(false);
                }
                ok
            }
        };
        let bound = [
            test.less_than
                .as_ref()
                .and_then(|a| self.amount(parent, a, me))
                .map(|x| format!("< {x}")),
            test.greater_than
                .as_ref()
                .and_then(|a| self.amount(parent, a, me))
                .map(|x| format!("> {x}")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" and ");
        let shown = value
            .map(|v| v.to_string())
            .unwrap_or_else(|| "no destiny".into());
        self.log(
            actor(me),
            Event::Result,
            format!(
                "{}: destiny {shown} needs {bound}: {}",
                self.stack[parent].label,
                if ok { "success" } else { "failure" }
            ),
            &[r::RESULT],
        );
        let branch = if ok { &test.success } else { &test.failure };
        for e in branch.iter().rev() {
            self.stack[parent].pending.push_front(e.clone());
        }
    }

    fn continue_result(&mut self, ix: usize) -> Flow {
        while let Some(eff) = self.stack[ix].pending.pop_front() {
            match self.apply(ix, eff) {
                Applied::Done => {}
                Applied::Pushed => return Flow::Go,
                Applied::Stop => return Flow::Stop,
            }
            if self.stack.len() <= ix {
                return Flow::Go;
            }
        }
        self.finish(ix);
        Flow::Go
    }

    /// The action has had all its results: place its card and take it off the stack.
    fn finish(&mut self, ix: usize) {
        let label = self.stack[ix].label.clone();
        let e = &self.stack[ix];
        let (kind, card, then, a_side, moved) =
            (e.kind.clone(), e.card, e.then, e.actor, e.moved.clone());
        self.resolved.push(label.clone());
        if let (ActionKind::Play, Some(c)) = (&kind, card)
            && self.st.zone[c] == Zone::Stack
        {
            let dest = then
                .or_else(|| e.ability.and_then(|a| self.st.def(c).abilities[a].then))
                .unwrap_or_else(|| interrupt_default_dest(self.st.def(c).subtype.as_deref()));
            self.place(c, dest, a_side);
        }
        self.stack.truncate(ix);
        self.log(
            Actor::Rules,
            Event::Pop,
            format!("{label} has its result and comes off the stack"),
            &[r::HOW_THE_STACK_WORKS],
        );
        if !moved.is_empty() {
            let names = moved
                .iter()
                .map(|&c| self.name(c))
                .collect::<Vec<_>>()
                .join(", ");
            let mut e = Entry::new(
                ActionKind::JustMoved { cards: moved },
                a_side,
                card,
                format!("{label} completed move"),
            );
            e.next = a_side.other();
            self.stack.push(e);
            self.log(
                actor(a_side),
                Event::Push,
                format!("{names} just moved: responses to the completed move"),
                &[r::COMING_OFF_THE_STACK],
            );
        }
    }

    fn place(&mut self, c: CardIx, dest: Dest, fallback_owner: Side) {
        let owner = self.st.owner(c);
        let _ = fallback_owner;
        let pile = match dest {
            Dest::UsedPile => PileName::UsedPile,
            Dest::LostPile => PileName::LostPile,
            Dest::OutOfPlay => PileName::OutOfPlay,
            Dest::Hand => PileName::Hand,
            Dest::ReserveDeck => PileName::ReserveDeck,
            Dest::ForcePile => PileName::ForcePile,
            Dest::Table => {
                self.st.put(c, Zone::Table);
                self.log(
                    actor(owner),
                    Event::StateChange,
                    format!("{} is placed on table", self.name(c)),
                    &[r::RESULT],
                );
                return;
            }
        };
        let was_on_table = self.st.on_table(c);
        let carried = if was_on_table {
            self.all_on(c)
        } else {
            Vec::new()
        };
        self.st.to_pile(c, owner, pile);
        self.log(
            actor(owner),
            Event::StateChange,
            format!(
                "{} is placed in {}'s {}",
                self.name(c),
                owner.name(),
                pile.title()
            ),
            &[if pile == PileName::OutOfPlay {
                r::OUT_OF_PLAY
            } else {
                r::RESULT
            }],
        );
        for x in carried {
            let o = self.st.owner(x);
            self.st.to_pile(x, o, PileName::LostPile);
            self.log(
                actor(o),
                Event::StateChange,
                format!(
                    "{} leaves table with {}: placed in {}'s Lost Pile",
                    self.name(x),
                    self.name(c),
                    o.name()
                ),
                &[r::LEAVES_TABLE],
            );
        }
    }

    /// Every card on `c`, recursively.
    fn all_on(&self, c: CardIx) -> Vec<CardIx> {
        let mut out = Vec::new();
        let mut todo = self.st.cards_on(c);
        while let Some(x) = todo.pop() {
            if x == c || out.contains(&x) {
                continue;
            }
            out.push(x);
            todo.extend(self.st.cards_on(x));
        }
        out.sort_unstable();
        out
    }

    // ------------------------------------------------------------ effects

    fn apply(&mut self, ix: usize, eff: Effect) -> Applied {
        let me = self.stack[ix].actor;
        let label = self.stack[ix].label.clone();
        match eff {
            Effect::Cancel(rf) => {
                let target = match &rf {
                    CardRef::Current => self.stack[ix].responding_to,
                    CardRef::Target(n) => match self.stack[ix].target(n) {
                        Some(Tgt::Entry(j)) => Some(*j),
                        _ => None,
                    },
                    CardRef::This => None,
                };
                let Some(j) = target.filter(|&j| j < self.stack.len() && !self.stack[j].canceled)
                else {
                    self.log(
                        Actor::Rules,
                        Event::Result,
                        format!("{label}: nothing left to cancel"),
                        &[r::CANCELING],
                    );
                    return Applied::Done;
                };
                self.cancel(ix, j);
                Applied::Done
            }
            Effect::SendTo { card, to } => {
                let mut lost = Vec::new();
                for c in self.card_refs(ix, &card) {
                    if self.st.zone[c] == Zone::Stack {
                        continue;
                    }
                    let from_table = self.st.on_table(c);
                    let carried = if from_table {
                        self.all_on(c)
                    } else {
                        Vec::new()
                    };
                    self.place(c, to, me);
                    if from_table && to == Dest::LostPile {
                        lost.push(c);
                        lost.extend(carried.into_iter().filter(|&x| {
                            matches!(self.st.zone[x], Zone::Pile(_, PileName::LostPile))
                        }));
                    }
                }
                if lost.is_empty() {
                    return Applied::Done;
                }
                self.push_just_lost(me, lost);
                Applied::Pushed
            }
            Effect::SubstituteDestiny(n) => {
                let j = self.stack[ix]
                    .responding_to
                    .filter(|&j| j < self.stack.len());
                match j {
                    Some(j) if matches!(self.stack[j].kind, ActionKind::DestinyDraw { .. }) => {
                        self.stack[j].substitute = Some(n);
                        let drawn = self.stack[j].label.clone();
                        self.log(
                            actor(me),
                            Event::StateChange,
                            format!("{label}: {drawn} will use destiny {n} instead of drawing"),
                            &[r::RESULT],
                        );
                    }
                    _ => self.log(
                        Actor::Rules,
                        Event::Result,
                        format!("{label}: no destiny draw about to happen"),
                        &[r::RESULT],
                    ),
                }
                Applied::Done
            }
            Effect::ResetDestiny(n) => {
                let Some(j) = self.stack[ix]
                    .responding_to
                    .filter(|&j| j < self.stack.len())
                else {
                    self.log(
                        Actor::Rules,
                        Event::Result,
                        format!("{label}: no destiny just drawn to reset"),
                        &[r::RESULT],
                    );
                    return Applied::Done;
                };
                if let ActionKind::DestinyDrawn { value, .. } = &mut self.stack[j].kind {
                    *value = Some(n);
                    let drawn = self.stack[j].label.clone();
                    self.log(
                        actor(me),
                        Event::StateChange,
                        format!("{label}: {drawn}: destiny = {n}"),
                        &[r::RESULT],
                    );
                } else {
                    self.log(
                        Actor::Rules,
                        Event::Result,
                        format!("{label}: no destiny just drawn to reset"),
                        &[r::RESULT],
                    );
                }
                Applied::Done
            }
            Effect::MoveAll {
                who,
                from,
                filter,
                to,
            } => {
                let p = side_of(who, me);
                let cards: Vec<CardIx> = self
                    .st
                    .pile(p, from)
                    .iter()
                    .copied()
                    .filter(|&c| self.st.matches(c, &filter, me))
                    .collect();
                if cards.is_empty() {
                    self.log(
                        actor(p),
                        Event::Result,
                        format!(
                            "{label}: no matching card in {}'s {}",
                            p.name(),
                            from.title()
                        ),
                        &[r::RESULT],
                    );
                }
                for c in cards {
                    self.place(c, to, me);
                    if from != PileName::ReserveDeck && to == Dest::LostPile {
                        self.log(
                            Actor::Rules,
                            Event::StateChange,
                            format!("{} was a unit of Force in {}: it is lost as a unit of Force, not a card just lost from table", self.name(c), from.title()),
                            &[r::UNIT_OF_FORCE, r::JUST_LOST],
                        );
                    }
                }
                Applied::Done
            }
            Effect::Draw(n) => {
                for _ in 0..n {
                    let Some(c) = self.st.top(me, PileName::ReserveDeck) else {
                        self.log(
                            actor(me),
                            Event::Result,
                            format!("{}'s Reserve Deck is empty: no card to draw", me.name()),
                            &[r::IMPLIED_TARGET_RULE],
                        );
                        break;
                    };
                    self.st.to_pile(c, me, PileName::Hand);
                    self.st.force[me.ix()].drawn += 1;
                    self.log(
                        actor(me),
                        Event::StateChange,
                        format!("{} draws {} into hand", me.name(), self.name(c)),
                        &[r::RESULT],
                    );
                }
                Applied::Done
            }
            Effect::Activate { who, count } => {
                let p = side_of(who, me);
                let moved = self
                    .st
                    .move_top(p, PileName::ReserveDeck, PileName::ForcePile, count);
                self.st.force[p.ix()].activated += i64::from(moved);
                self.log(
                    actor(p),
                    Event::StateChange,
                    format!("{} activates {count} Force", p.name()),
                    &[r::RESULT],
                );
                Applied::Done
            }
            Effect::Retrieve { who, count } => {
                let p = side_of(who, me);
                let n = self
                    .st
                    .move_top(p, PileName::LostPile, PileName::UsedPile, count);
                self.st.force[p.ix()].retrieved += i64::from(n);
                self.log(
                    actor(p),
                    Event::StateChange,
                    format!("{} retrieves {n} Force", p.name()),
                    &[r::RETRIEVE],
                );
                Applied::Done
            }
            Effect::LoseForce { who, amount } => {
                let p = side_of(who, me);
                let n = self.amount(ix, &amount, me).unwrap_or(0).max(0);
                let lost = self.lose_force(p, n);
                let short = if lost < n {
                    format!(
                        " of {n} (no more cards in hand or Life Force; cards stacked on table are not units of Force)"
                    )
                } else {
                    String::new()
                };
                self.log(
                    actor(p),
                    Event::StateChange,
                    format!("{} loses {lost} Force{short}", p.name()),
                    &[r::LOSING_FORCE, r::UNIT_OF_FORCE],
                );
                Applied::Done
            }
            Effect::Destiny(test) => {
                let mut e = Entry::new(
                    ActionKind::DestinyDraw { parent: ix, test },
                    me,
                    None,
                    format!("{}'s destiny draw for {label}", me.name()),
                );
                e.next = me.other();
                self.stack.push(e);
                self.log(
                    actor(me),
                    Event::Push,
                    format!(
                        "{label}: {} draws destiny (an action of its own)",
                        me.name()
                    ),
                    &[r::ACTIONS, r::RESULT],
                );
                Applied::Pushed
            }
            Effect::TakeIntoHand {
                from,
                filter,
                reshuffle,
            } => {
                let cands: Vec<CardIx> = self
                    .st
                    .pile(me, from)
                    .iter()
                    .copied()
                    .filter(|&c| self.st.matches(c, &filter, me))
                    .collect();
                if cands.is_empty() {
                    self.log(
                        actor(me),
                        Event::Result,
                        format!("{label}: {} searches the {} and finds no matching card; the opponent may verify. The search may not be repeated this turn", me.name(), from.title()),
                        &[r::TAKING_CARDS],
                    );
                    if let (Some(c), Some(a)) = (self.stack[ix].card, self.stack[ix].ability) {
                        self.failed_searches.push((c, a));
                    }
                } else {
                    let Some(c) = self.choose_one(
                        me,
                        &cands,
                        &format!("a card to take into hand from {}", from.title()),
                    ) else {
                        return Applied::Stop;
                    };
                    self.st.to_pile(c, me, PileName::Hand);
                    self.log(
                        actor(me),
                        Event::StateChange,
                        format!(
                            "{} takes {} into hand from the {} and reveals it",
                            me.name(),
                            self.name(c),
                            from.title()
                        ),
                        &[r::TAKING_CARDS],
                    );
                }
                if reshuffle {
                    self.reshuffle_note(me, from);
                }
                Applied::Done
            }
            Effect::DeployFrom {
                from,
                filter,
                aboard,
                free,
                reshuffle,
            } => {
                let force = self.st.pile_len(me, PileName::ForcePile) as i64;
                let cands: Vec<CardIx> = self
                    .st
                    .pile(me, from)
                    .iter()
                    .copied()
                    .filter(|&c| {
                        self.st.matches(c, &filter, me)
                            && self.unique_ok(c).is_ok()
                            && (free || self.st.def(c).stats.deploy.unwrap_or(0) <= force)
                    })
                    .collect();
                if cands.is_empty() {
                    self.log(
                        actor(me),
                        Event::Result,
                        format!(
                            "{label}: no card in the {} can be deployed; the opponent may verify",
                            from.title()
                        ),
                        &[r::DEPLOYING_FROM_PILE, r::TAKING_CARDS],
                    );
                    if let (Some(c), Some(a)) = (self.stack[ix].card, self.stack[ix].ability) {
                        self.failed_searches.push((c, a));
                    }
                    if reshuffle {
                        self.reshuffle_note(me, from);
                    }
                    return Applied::Done;
                }
                let Some(c) = self.choose_one(
                    me,
                    &cands,
                    &format!("a card to deploy from {}", from.title()),
                ) else {
                    return Applied::Stop;
                };
                let to = match aboard.as_ref().map(|rf| self.card_refs(ix, rf)) {
                    Some(v) if !v.is_empty() => DeployTo::OnCard(v[0]),
                    _ => match self.stack[ix].card.and_then(|h| self.st.location_of(h)) {
                        Some(l) => DeployTo::Location(l),
                        None => DeployTo::Table,
                    },
                };
                if reshuffle {
                    self.reshuffle_note(me, from);
                }
                self.push_deploy(me, c, to, free, Some(ix));
                Applied::Pushed
            }
            Effect::Relocate { card, to } => {
                let loc = match self.stack[ix].target(&to) {
                    Some(Tgt::Location(l)) => Some(*l),
                    _ => None,
                };
                let Some(l) = loc else {
                    self.log(
                        Actor::Rules,
                        Event::Result,
                        format!("{label}: no destination"),
                        &[r::CHOOSING_TARGETS],
                    );
                    return Applied::Done;
                };
                for c in self.card_refs(ix, &card) {
                    if !self.st.on_table(c) {
                        continue;
                    }
                    self.st.put(c, Zone::At(l));
                    self.stack[ix].moved.push(c);
                    self.log(
                        actor(me),
                        Event::StateChange,
                        format!(
                            "{} is relocated to {}",
                            self.name(c),
                            self.st.locations[l].title
                        ),
                        &[r::RESULT],
                    );
                }
                Applied::Done
            }
            Effect::StackOn { card, on } => {
                let Some(&host) = self.card_refs(ix, &on).first() else {
                    return Applied::Done;
                };
                for c in self.card_refs(ix, &card) {
                    // The played Interrupt stacking itself as its result: it is stacked after it
                    // resolves, from the stack, and is supporting (no longer an action on the stack).
                    if self.st.zone[c] == Zone::Stack
                        && self.stack[ix].card == Some(c)
                        && matches!(self.stack[ix].kind, ActionKind::Play)
                    {
                        if c == host {
                            continue;
                        }
                        self.st.put(c, Zone::On(host));
                        self.st.card_state[c] = crate::engine::swccg::model::CardState::Supporting;
                        self.log(
                            actor(me),
                            Event::StateChange,
                            format!(
                                "{} is stacked on {} as it resolves: it is supporting (not on table, and no longer an action that can be responded to or canceled)",
                                self.name(c),
                                self.name(host)
                            ),
                            &[r::STACKED_CARDS, r::SUPPORTING, r::SUPPORTING_EXAMPLE_2],
                        );
                        continue;
                    }
                    let just_lost = self.is_just_lost(c);
                    if c == host
                        || !(self.st.on_table(c) || just_lost)
                        || self.all_on(c).contains(&host)
                    {
                        continue;
                    }
                    // From an active or inactive state: inactive. A just lost card counts as
                    // having been active; only that card is relocated.
                    self.st.put(c, Zone::On(host));
                    self.st.card_state[c] = crate::engine::swccg::model::CardState::Inactive;
                    let (from, cites): (&str, &[&'static str]) = if just_lost {
                        (
                            "from the Lost Pile (just lost, so treated as having been active)",
                            &[r::STACKED_CARDS, r::JUST_LOST, r::INACTIVE],
                        )
                    } else {
                        ("from the table", &[r::STACKED_CARDS, r::INACTIVE])
                    };
                    self.log(
                        actor(me),
                        Event::StateChange,
                        format!(
                            "{} is stacked on {} {from}: it is inactive",
                            self.name(c),
                            self.name(host)
                        ),
                        cites,
                    );
                }
                Applied::Done
            }
            Effect::StackFrom { from, filter } => {
                let Some(host) = self.stack[ix].card else {
                    return Applied::Done;
                };
                let cands: Vec<CardIx> = self
                    .st
                    .pile(me, from)
                    .iter()
                    .copied()
                    .filter(|&c| self.st.matches(c, &filter, me))
                    .collect();
                if cands.is_empty() {
                    self.log(
                        actor(me),
                        Event::Result,
                        format!("{label}: no matching card in {}", from.title()),
                        &[r::TAKING_CARDS],
                    );
                    return Applied::Done;
                }
                let Some(c) = self.choose_one(
                    me,
                    &cands,
                    &format!("a card to stack on {}", self.name(host)),
                ) else {
                    return Applied::Stop;
                };
                // From a unit-of-Force state: supporting.
                self.st.put(c, Zone::On(host));
                self.st.card_state[c] = crate::engine::swccg::model::CardState::Supporting;
                self.log(
                    actor(me),
                    Event::StateChange,
                    format!(
                        "{} is stacked on {} from {}: it is supporting",
                        self.name(c),
                        self.name(host),
                        from.title()
                    ),
                    &[r::STACKED_CARDS, r::SUPPORTING],
                );
                Applied::Done
            }
            Effect::PlayFrom { .. } => {
                self.log(
                    Actor::Rules,
                    Event::Result,
                    format!("{label}: its game text is used when a card is played through it"),
                    &[r::DEPLOYING_FROM_PILE],
                );
                Applied::Done
            }
            Effect::NotModelled(text) => {
                let depth = self.depth();
                self.trace
                    .not_modelled(depth, Actor::Rules, text.clone(), &[r::RESULT]);
                let _ = label;
                Applied::Done
            }
        }
    }

    fn is_just_lost(&self, c: CardIx) -> bool {
        matches!(self.st.zone[c], Zone::Pile(_, PileName::LostPile))
            && self
                .stack
                .iter()
                .any(|e| matches!(&e.kind, ActionKind::JustLost { cards } if cards.contains(&c)))
    }

    fn push_just_lost(&mut self, by: Side, cards: Vec<CardIx>) {
        let names = cards
            .iter()
            .map(|&c| self.name(c))
            .collect::<Vec<_>>()
            .join(", ");
        let label = format!(
            "{} just lost",
            cards
                .iter()
                .map(|&c| self.st.key(c).to_string())
                .collect::<Vec<_>>()
                .join("+")
        );
        let first = cards.first().copied();
        let mut e = Entry::new(ActionKind::JustLost { cards }, by, first, label);
        e.next = by.other();
        self.stack.push(e);
        self.log(
            actor(by),
            Event::Push,
            format!(
                "{names} just lost from table (already in the Lost Pile): responses to the loss"
            ),
            &[r::JUST_LOST, r::COMING_OFF_THE_STACK],
        );
    }

    fn reshuffle_note(&mut self, p: Side, from: PileName) {
        self.log(
            actor(p),
            Event::StateChange,
            format!(
                "{} reshuffles the {} (its new order is not modelled; the listed order is kept)",
                p.name(),
                from.title()
            ),
            &[r::TAKING_CARDS],
        );
    }

    /// Take a `choose` decision from `p` naming one of `cands`.
    fn choose_one(&mut self, p: Side, cands: &[CardIx], what: &str) -> Option<CardIx> {
        loop {
            match self.script.peek().cloned() {
                Some(d) if d.by == p && d.verb == Verb::Choose => {
                    self.script.take();
                    let pick = d
                        .step
                        .cards
                        .first()
                        .and_then(|k| self.st.find(k))
                        .filter(|c| cands.contains(c));
                    match pick {
                        Some(c) => return Some(c),
                        None => self.reject(
                            &d,
                            rej(
                                format!(
                                    "must choose one of: {} (a search must take a card if possible)",
                                    cands.iter().map(|&c| self.st.key(c).to_string()).collect::<Vec<_>>().join(", ")
                                ),
                                r::TAKING_CARDS,
                            ),
                        ),
                    }
                }
                _ => {
                    self.outcome = Some(Outcome::NeedsDecision {
                        player: p,
                        what: format!(
                            "choose {what}: one of {}",
                            cands
                                .iter()
                                .map(|&c| self.st.key(c).to_string())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    });
                    return None;
                }
            }
        }
    }

    pub(crate) fn lose_force(&mut self, p: Side, n: i64) -> i64 {
        let mut lost = 0;
        let order = [
            PileName::ReserveDeck,
            PileName::ForcePile,
            PileName::UsedPile,
            PileName::Hand,
        ];
        for _ in 0..n {
            let Some(c) = order.iter().find_map(|&pl| self.st.top(p, pl)) else {
                break;
            };
            self.st.to_pile(c, p, PileName::LostPile);
            self.st.force[p.ix()].lost += 1;
            lost += 1;
        }
        lost
    }

    fn cancel(&mut self, by: usize, j: usize) {
        let by_label = self.stack[by].label.clone();
        let e = self.stack[j].clone();
        if let (ActionKind::Deploy { .. } | ActionKind::JustDeployed, Some(c)) = (&e.kind, e.card)
            && matches!(
                self.st.def(c).card_type,
                CardType::Character | CardType::Vehicle | CardType::Starship
            )
        {
            self.log(
                Actor::Rules,
                Event::Result,
                format!("{by_label} cannot cancel {}: characters, vehicles and starships may not be canceled", e.label),
                &[r::CANCELING],
            );
            return;
        }
        self.stack[j].canceled = true;
        self.canceled.push(e.label.clone());
        self.log(
            Actor::Rules,
            Event::Cancel,
            format!("{by_label} cancels {}: it will not have its result; costs paid to initiate it remain paid", e.label),
            &[r::CANCELING],
        );
        for u in self.usage.iter_mut() {
            if Some(u.card) == e.card && Some(u.ability) == e.ability {
                u.canceled = true;
            }
        }
        if let (Some(c), Some(a)) = (e.card, e.ability)
            && self.st.def(c).abilities[a].limit.is_some()
        {
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!("{} was limited to once per time period: it may not be initiated again in that period", e.label),
                &[r::CANCELING],
            );
        }
        if let Some(c) = e.card
            && self.st.zone[c] == Zone::Stack
        {
            let dest = e.then.unwrap_or(Dest::LostPile);
            self.place(c, dest, e.actor);
        }
    }

    fn card_refs(&self, ix: usize, rf: &CardRef) -> Vec<CardIx> {
        match rf {
            CardRef::This => self.stack[ix].card.into_iter().collect(),
            CardRef::Current => {
                let Some(e) = self.stack[ix].responding_to.and_then(|j| self.stack.get(j)) else {
                    return Vec::new();
                };
                match &e.kind {
                    // The card drawn for destiny.
                    ActionKind::DestinyDrawn { card, .. } => card.iter().copied().collect(),
                    // Simultaneous losses or moves: the card this response is about.
                    ActionKind::JustLost { cards } | ActionKind::JustMoved { cards } => {
                        let about =
                            self.stack[ix]
                                .card
                                .zip(self.stack[ix].ability)
                                .and_then(|(c, a)| {
                                    let f = self.st.def(c).abilities[a]
                                        .responds_to
                                        .as_ref()?
                                        .card
                                        .clone()?;
                                    Some((self.st.owner(c), f))
                                });
                        let lost = matches!(e.kind, ActionKind::JustLost { .. });
                        cards
                            .iter()
                            .copied()
                            .filter(|&x| {
                                !lost
                                    || matches!(self.st.zone[x], Zone::Pile(_, PileName::LostPile))
                            })
                            .find(|&x| {
                                about
                                    .as_ref()
                                    .is_none_or(|(me, f)| self.st.matches(x, f, *me))
                            })
                            .into_iter()
                            .collect()
                    }
                    _ => e.card.into_iter().collect(),
                }
            }
            CardRef::Target(n) => match self.stack[ix].target(n) {
                Some(Tgt::Card(c)) => vec![*c],
                Some(Tgt::Cards(v)) => v.clone(),
                Some(Tgt::Entry(j)) => self
                    .stack
                    .get(*j)
                    .and_then(|e| e.card)
                    .into_iter()
                    .collect(),
                _ => Vec::new(),
            },
        }
    }

    fn amount(&self, ix: usize, a: &Amount, me: Side) -> Option<i64> {
        match a {
            Amount::Value(v) => Some(*v),
            Amount::Destiny => self.stack.get(ix).and_then(|e| e.destiny),
            Amount::AbilityOf(n) => match self.stack.get(ix).and_then(|e| e.target(n)) {
                Some(Tgt::Card(c)) => self.st.def(*c).stats.ability,
                _ => None,
            },
            Amount::HighestAbility => (0..self.st.cards.len())
                .filter(|&c| {
                    self.st.active(c)
                        && self.st.owner(c) == me
                        && self.st.def(c).card_type == CardType::Character
                })
                .filter_map(|c| self.st.def(c).stats.ability)
                .max(),
        }
    }

    // ------------------------------------------------------------ initiation

    fn initiate(&mut self, d: &Decision, w: Window) -> Result<(), Rej> {
        let p = d.by;
        let card_key = d.step.card.as_deref().unwrap_or("");
        match d.verb {
            Verb::Pass => Ok(()),
            Verb::Choose | Verb::Order => {
                Err(rej("there is nothing to choose or order now", r::ACTIONS))
            }
            Verb::Forfeit | Verb::LoseForce | Verb::DestinyValue => Err(rej(
                "there is no battle choice to make now (a battle's choices are taken when its result is reached)",
                super::values::cite::DAMAGE_SEGMENT,
            )),
            Verb::Deploy => {
                let c = self
                    .st
                    .find(card_key)
                    .ok_or_else(|| rej(format!("no card {card_key}"), r::ACTIONS))?;
                if let Window::Response(_) = w {
                    return Err(rej(
                        "a top-level action (deploying from hand) cannot be initiated while the stack is not empty",
                        r::THE_STACK,
                    ));
                }
                let to = self.check_deploy(p, c, Some(d))?;
                self.push_deploy(p, c, to, false, None);
                Ok(())
            }
            Verb::Play => {
                let c = self
                    .st
                    .find(card_key)
                    .ok_or_else(|| rej(format!("no card {card_key}"), r::ACTIONS))?;
                if self.st.owner(c) != p {
                    return Err(rej(
                        format!("{} is not {}'s card", self.name(c), p.name()),
                        r::ACTIONS,
                    ));
                }
                let mut then = None;
                let mut via_use = None;
                if let Some(v) = &d.step.via {
                    let vc = self
                        .st
                        .find(v)
                        .ok_or_else(|| rej(format!("no card {v}"), r::ACTIONS))?;
                    let (va, from, th) = self.via_ability(p, vc)?;
                    if self.st.zone[c] != Zone::Pile(p, from) {
                        return Err(rej(
                            format!("{} is not in {}'s {}", self.name(c), p.name(), from.title()),
                            r::DEPLOYING_FROM_PILE,
                        ));
                    }
                    self.limit_ok(vc, va)?;
                    then = Some(th);
                    via_use = Some((vc, va));
                } else if self.st.zone[c] != Zone::Pile(p, PileName::Hand) {
                    return Err(rej(
                        format!("{} is not in {}'s hand", self.name(c), p.name()),
                        r::ACTIONS,
                    ));
                }
                if self.st.def(c).card_type != CardType::Interrupt {
                    return Err(rej(
                        format!(
                            "{} is not an Interrupt; it is deployed, not played",
                            self.name(c)
                        ),
                        r::ACTIONS,
                    ));
                }
                let a = self.pick_ability(p, c, d, w)?;
                let targets = self.check_ability(p, c, a, w, &d.step.target, Some(d))?;
                if self.st.def(c).abilities[a].kind == AbilityKind::Before && via_use.is_none() {
                    self.back_up(p, c, a, ActionKind::Play, targets, then);
                    return Ok(());
                }
                if let Some((vc, va)) = via_use {
                    self.record_use(vc, va);
                    self.log(
                        actor(p),
                        Event::Initiate,
                        format!(
                            "{} uses {} to play {} as if from hand",
                            p.name(),
                            self.name(vc),
                            self.name(c)
                        ),
                        &[r::DEPLOYING_FROM_PILE],
                    );
                }
                self.push_ability(p, c, a, ActionKind::Play, targets, w, then);
                Ok(())
            }
            Verb::Use => {
                let c = self
                    .st
                    .find(card_key)
                    .ok_or_else(|| rej(format!("no card {card_key}"), r::ACTIONS))?;
                if self.st.owner(c) != p {
                    return Err(rej(
                        format!("{} is not {}'s card", self.name(c), p.name()),
                        r::ACTIONS,
                    ));
                }
                if !self.st.active(c) {
                    return Err(rej(
                        format!(
                            "{} is not active on table: its game text cannot be used",
                            self.name(c)
                        ),
                        if self.st.on_table(c) {
                            r::INACTIVE
                        } else {
                            r::ACTIVE
                        },
                    ));
                }
                if let Ok((va, from, _)) = self.via_ability(p, c) {
                    return self.search_to_play(p, c, va, from, w);
                }
                let a = self.pick_ability(p, c, d, w)?;
                let targets = self.check_ability(p, c, a, w, &d.step.target, Some(d))?;
                if self.st.def(c).abilities[a].kind == AbilityKind::Before {
                    self.back_up(p, c, a, ActionKind::UseText, targets, None);
                    return Ok(());
                }
                let kind = if self.st.def(c).abilities[a].kind == AbilityKind::Mandatory {
                    self.mandatory_done.push((c, a));
                    ActionKind::Mandatory
                } else {
                    ActionKind::UseText
                };
                self.push_ability(p, c, a, kind, targets, w, None);
                Ok(())
            }
        }
    }

    /// Using "play one Interrupt from a pile as if from hand" without naming the card:
    /// the player looks through the pile; when nothing can be played now the search
    /// fails, the opponent may verify, and the once-per-turn use is spent.
    fn search_to_play(
        &mut self,
        p: Side,
        vc: CardIx,
        va: usize,
        from: PileName,
        w: Window,
    ) -> Result<(), Rej> {
        self.limit_ok(vc, va)?;
        let playable: Vec<CardIx> = self
            .st
            .pile(p, from)
            .iter()
            .copied()
            .filter(|&c| {
                self.st.def(c).card_type == CardType::Interrupt
                    && (0..self.st.def(c).abilities.len())
                        .any(|a| self.check_ability(p, c, a, w, &[], None).is_ok())
            })
            .collect();
        if let Some(&c) = playable.first() {
            return Err(rej(
                format!(
                    "{} can be played from the {} now and must be taken: script `play: {}` with `via: {}`",
                    self.name(c),
                    from.title(),
                    self.st.key(c),
                    self.st.key(vc)
                ),
                r::TAKING_CARDS,
            ));
        }
        self.record_use(vc, va);
        self.log(
            actor(p),
            Event::Initiate,
            format!(
                "{} uses {} and looks through the {}: no Interrupt there can be played now; the opponent may verify. The ability is used for this turn even though it failed",
                p.name(),
                self.name(vc),
                from.title()
            ),
            &[r::DEPLOYING_FROM_PILE, r::TAKING_CARDS, r::ONE_RULE],
        );
        Ok(())
    }

    fn is_play_from(&self, c: CardIx, a: usize) -> bool {
        self.st.def(c).abilities[a]
            .effect
            .iter()
            .any(|e| matches!(e, Effect::PlayFrom { .. }))
    }

    /// The ability of `vc` that lets `p` play a card from a pile.
    fn via_ability(&self, p: Side, vc: CardIx) -> Result<(usize, PileName, Dest), Rej> {
        if self.st.owner(vc) != p || !self.st.active(vc) {
            return Err(rej(
                format!(
                    "{} is not {}'s active card on table",
                    self.name(vc),
                    p.name()
                ),
                r::ACTIVE,
            ));
        }
        for (a, ab) in self.st.def(vc).abilities.iter().enumerate() {
            for e in &ab.effect {
                if let Effect::PlayFrom { from, then } = e {
                    return Ok((a, *from, *then));
                }
            }
        }
        Err(rej(
            format!(
                "{} has no game text to play a card from a pile",
                self.name(vc)
            ),
            r::DEPLOYING_FROM_PILE,
        ))
    }

    /// Could `p` play any card through the play-from ability `(vc, va)` now?
    fn play_from_candidates(&self, p: Side, vc: CardIx, va: usize, w: Window) -> bool {
        if self.limit_ok(vc, va).is_err() {
            return false;
        }
        let _ = w;
        let Ok((_, from, _)) = self.via_ability(p, vc) else {
            return false;
        };
        // The player may state the use before looking: any non-empty pile will do.
        self.st.pile_len(p, from) > 0
    }

    fn pick_ability(&self, p: Side, c: CardIx, d: &Decision, w: Window) -> Result<usize, Rej> {
        let abilities = &self.st.def(c).abilities;
        if abilities.is_empty() {
            let nm = &self.st.def(c).not_modelled;
            if nm.is_empty() {
                return Err(rej(
                    format!("{} has no game text the engine models", self.name(c)),
                    r::ACTIONS,
                ));
            }
            let what = format!("{}: {}", self.name(c), nm.join("; "));
            return Err(Rej {
                reason: format!("not modelled — ruling needed: {what}"),
                rule: r::ACTIONS,
                not_modelled: Some(what),
            });
        }
        if let Some(name) = &d.step.ability {
            return find_ability(abilities, name).ok_or_else(|| {
                rej(
                    format!("{} has no ability {name}", self.name(c)),
                    r::ACTIONS,
                )
            });
        }
        // The first ability legal now; otherwise report why the first one is not.
        let mut first_err = None;
        for a in 0..abilities.len() {
            match self.check_ability(p, c, a, w, &d.step.target, None) {
                Ok(_) => return Ok(a),
                Err(e) => {
                    if first_err.is_none() {
                        first_err = Some(e);
                    }
                }
            }
        }
        Err(first_err.unwrap_or_else(|| rej("no legal use", r::ACTIONS)))
    }

    fn limit_ok(&self, c: CardIx, a: usize) -> Result<(), Rej> {
        let ab = &self.st.def(c).abilities[a];
        let Some(limit) = ab.limit else { return Ok(()) };
        let title = self.st.title(c).to_string();
        let name = ability_name(ab, a);
        let prior = self.usage.iter().find(|u| match limit {
            Limit::OncePerGame => {
                u.title == title
                    && ability_name(&self.st.def(u.card).abilities[u.ability], u.ability) == name
            }
            _ => u.card == c && u.ability == a,
        });
        let Some(u) = prior else { return Ok(()) };
        let (period, rule) = match limit {
            Limit::OncePerTurn => ("turn", r::ONE_RULE),
            Limit::OncePerPhase => ("phase", r::ONE_RULE),
            Limit::OncePerBattle => ("battle", r::ONE_RULE),
            Limit::OncePerGame => ("game", r::ONCE_PER_GAME),
        };
        if u.canceled {
            return Err(rej(
                format!(
                    "{}'s action was canceled earlier this {period}; a canceled once-per-{period} action may not be initiated again in that period",
                    self.name(c)
                ),
                r::CANCELING,
            ));
        }
        Err(rej(
            format!(
                "{}'s action is limited to once per {period} and was already initiated",
                self.name(c)
            ),
            rule,
        ))
    }

    fn search_ok(&self, c: CardIx, a: usize) -> Result<(), Rej> {
        if self.failed_searches.contains(&(c, a)) {
            return Err(rej(
                format!(
                    "{}'s search found nothing and was verified: that search function may not be used again this turn",
                    self.name(c)
                ),
                r::TAKING_CARDS,
            ));
        }
        Ok(())
    }

    fn record_use(&mut self, c: CardIx, a: usize) {
        if self.st.def(c).abilities[a].limit.is_some() {
            self.usage.push(Usage {
                card: c,
                ability: a,
                title: self.st.title(c).to_string(),
                canceled: false,
            });
        }
    }

    /// Conditions (AR: meeting conditions), targets (Implied Target Rule), costs; in that order.
    fn check_ability(
        &self,
        p: Side,
        c: CardIx,
        a: usize,
        w: Window,
        chosen: &[String],
        d: Option<&Decision>,
    ) -> Result<Vec<(String, Tgt)>, Rej> {
        let _ = d;
        let ab = &self.st.def(c).abilities[a];
        let title = self.name(c);
        match (ab.kind, w) {
            (AbilityKind::Automatic, _) => {
                return Err(rej(
                    format!("{title}'s text is an automatic action: it is triggered, not chosen"),
                    r::AUTOMATIC_ACTIONS,
                ));
            }
            (AbilityKind::Before, Window::TopLevel) => {
                return Err(rej(
                    format!(
                        "{title}'s \"before\" action preempts an attempt to initiate an action, and no action is being attempted \
                         (announcing your own action first is not modelled — ruling needed)"
                    ),
                    r::BEFORE,
                ));
            }
            (AbilityKind::Before, Window::Response(i)) => {
                let Some(t) = &ab.responds_to else {
                    return Err(rej(
                        format!("{title}'s \"before\" action names no action"),
                        r::BEFORE,
                    ));
                };
                let fresh = self
                    .attempt
                    .as_ref()
                    .is_some_and(|at| at.snap.stack.len() == i)
                    && i + 1 == self.stack.len()
                    && self.stack[i].stage == Stage::Responding
                    && self.stack[i].responded.is_empty();
                if !fresh {
                    return Err(rej(
                        format!(
                            "{title}'s \"before\" action happens before the action is even initiated; {} is no longer just being attempted",
                            self.stack[i].label
                        ),
                        r::BEFORE,
                    ));
                }
                if self.stack[i].actor == p {
                    return Err(rej(
                        format!(
                            "{} may not back up from their own action ({}): a \"before\" action to one's own action is played before initiating it",
                            p.name(),
                            self.stack[i].label
                        ),
                        r::BEFORE,
                    ));
                }
                if !self.trigger_matches(t, i, c) {
                    return Err(rej(
                        format!(
                            "{title}'s \"before\" action does not preempt the attempted action ({}, {})",
                            self.stack[i].label,
                            self.stack[i].kind.name()
                        ),
                        r::BEFORE,
                    ));
                }
                if ab.targets.iter().any(|x| x.kind == TargetKind::Current) {
                    return Err(rej(
                        format!(
                            "{title}'s \"before\" action cannot target the action it preempts: that action is never initiated"
                        ),
                        r::BEFORE,
                    ));
                }
            }
            (AbilityKind::TopLevel | AbilityKind::Mandatory, Window::Response(i)) => {
                let any_time = ab
                    .text
                    .as_deref()
                    .is_some_and(|t| t.to_ascii_lowercase().contains("at any time"));
                return Err(rej(
                    format!(
                        "{title}'s action is a top-level action; it cannot respond to {} (the stack is not empty)",
                        self.stack[i].label
                    ),
                    if any_time {
                        r::AT_ANY_TIME
                    } else {
                        r::THE_STACK
                    },
                ));
            }
            (AbilityKind::Response, Window::TopLevel) => {
                return Err(rej(
                    format!(
                        "{title}'s action is a response, and there is no current action to respond to"
                    ),
                    r::JUST_ACTIONS,
                ));
            }
            (AbilityKind::TopLevel | AbilityKind::Mandatory, Window::TopLevel) => {
                if let Some(ph) = ab.during
                    && ph != self.phase
                {
                    return Err(rej(
                        format!("{title}'s action is only during the {} phase", ph.as_str()),
                        r::MEETING_CONDITIONS,
                    ));
                }
            }
            (AbilityKind::Response, Window::Response(i)) => {
                let Some(t) = &ab.responds_to else {
                    return Err(rej(
                        format!("{title}'s response has no condition"),
                        r::WHAT_IS_A_RESPONSE,
                    ));
                };
                if !self.trigger_matches(t, i, c) {
                    return Err(rej(
                        format!(
                            "{title} does not respond to the current action ({}, {})",
                            self.stack[i].label,
                            self.stack[i].kind.name()
                        ),
                        r::WHAT_IS_A_RESPONSE,
                    ));
                }
                if self.stack[i].responded.contains(&(c, a)) {
                    return Err(rej(
                        format!(
                            "{title}'s just action was already initiated once in response to {}",
                            self.stack[i].label
                        ),
                        r::THE_STACK,
                    ));
                }
            }
        }
        if ab.kind == AbilityKind::Mandatory && self.mandatory_done.contains(&(c, a)) {
            return Err(rej(
                format!("{title}'s mandatory action was already performed in this time frame"),
                r::MANDATORY_ACTIONS,
            ));
        }
        self.conditions_hold(p, c, ab)?;
        self.search_ok(c, a)?;
        self.limit_ok(c, a)?;
        let targets = self.choose_targets(p, c, a, w, chosen)?;
        if let Window::Response(i) = w
            && ab
                .effect
                .iter()
                .any(|e| matches!(e, Effect::Cancel(CardRef::Current)))
            && let (ActionKind::Deploy { .. } | ActionKind::JustDeployed, Some(x)) =
                (&self.stack[i].kind, self.stack[i].card)
            && matches!(
                self.st.def(x).card_type,
                CardType::Character | CardType::Vehicle | CardType::Starship
            )
        {
            return Err(rej(
                format!(
                    "{title} cannot be initiated: {} cannot be canceled (characters, vehicles and starships may not be canceled)",
                    self.name(x)
                ),
                r::IMPLIED_TARGET_RULE,
            ));
        }
        let force_pile = self.st.pile_len(p, PileName::ForcePile) as u32;
        if ab.cost.use_force > force_pile {
            return Err(rej(
                format!(
                    "{title} costs {} Force to use; {} has {force_pile} in Force Pile",
                    ab.cost.use_force,
                    p.name()
                ),
                r::PAYING_COSTS,
            ));
        }
        if ab.cost.lose_force > 0 {
            let life = [
                PileName::ReserveDeck,
                PileName::ForcePile,
                PileName::UsedPile,
                PileName::Hand,
            ]
            .iter()
            .map(|&x| self.st.pile_len(p, x))
            .sum::<usize>() as u32;
            if ab.cost.lose_force > life {
                return Err(rej(
                    format!(
                        "{title} costs losing {} Force; {} cannot",
                        ab.cost.lose_force,
                        p.name()
                    ),
                    r::PAYING_COSTS,
                ));
            }
        }
        Ok(targets)
    }

    /// Does the decision use a "before" ability of the deciding player's card?
    fn snapshot(&self) -> Box<Snapshot> {
        Box::new(Snapshot {
            st: self.st.clone(),
            stack: self.stack.clone(),
            usage: self.usage.clone(),
            mandatory_done: self.mandatory_done.clone(),
            failed_searches: self.failed_searches.clone(),
            resolved: self.resolved.clone(),
            canceled: self.canceled.clone(),
            destinies: self.destinies.clone(),
            top_next: self.top_next,
            top_passes: self.top_passes,
        })
    }

    /// A "before" action preempts the opponent's attempted action: play backs up to
    /// just before that action (it was never initiated; its costs were never paid),
    /// the "before" action is performed in its place, and afterwards the attempting
    /// player may initiate the action again, or not.
    fn back_up(
        &mut self,
        p: Side,
        c: CardIx,
        a: usize,
        kind: ActionKind,
        targets: Vec<(String, Tgt)>,
        then: Option<Dest>,
    ) {
        let Some(at) = self.attempt.take() else {
            return;
        };
        let top = self.stack.last().map(|e| (e.label.clone(), e.actor));
        let s = *at.snap;
        self.st = s.st;
        self.stack = s.stack;
        self.usage = s.usage;
        self.mandatory_done = s.mandatory_done;
        self.failed_searches = s.failed_searches;
        self.resolved = s.resolved;
        self.canceled = s.canceled;
        self.destinies = s.destinies;
        self.top_next = s.top_next;
        self.top_passes = s.top_passes;
        if let Some((label, by)) = top {
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!(
                    "play backs up: {}'s {label} is not initiated (its costs are not paid, its card returns); {} performs a \"before\" action first, then {} may initiate it again or not",
                    by.name(),
                    p.name(),
                    by.name()
                ),
                &[r::BEFORE, r::TIME_TO_RESPOND],
            );
        }
        self.push_ability(p, c, a, kind, targets, at.window, then);
        self.backed_up = true;
    }

    fn conditions_hold(&self, p: Side, c: CardIx, ab: &Ability) -> Result<(), Rej> {
        if ab.your_turn && self.turn != p {
            return Err(rej(
                format!("{} is only during {}'s own turn", self.name(c), p.name()),
                r::MEETING_CONDITIONS,
            ));
        }
        if let Some(f) = &ab.requires
            && self.st.table_matching(f, p).is_empty()
        {
            return Err(rej(
                format!(
                    "{}: its condition is not met (no such card on table)",
                    self.name(c)
                ),
                r::MEETING_CONDITIONS,
            ));
        }
        Ok(())
    }

    fn choose_targets(
        &self,
        p: Side,
        c: CardIx,
        a: usize,
        w: Window,
        chosen: &[String],
    ) -> Result<Vec<(String, Tgt)>, Rej> {
        let ab = &self.st.def(c).abilities[a];
        let title = self.name(c);
        let mut out = Vec::new();
        let mut picks = chosen.iter();
        for spec in &ab.targets {
            let t = self.target_one(p, c, spec, w, &mut picks);
            match t {
                Ok(Some(t)) => out.push((spec.name.clone(), t)),
                Ok(None) => {}
                Err(reason) => {
                    if spec.optional {
                        continue;
                    }
                    let rule = if reason.contains(" is immune to ") {
                        r::IMMUNE
                    } else {
                        r::IMPLIED_TARGET_RULE
                    };
                    return Err(rej(format!("{title} cannot be initiated: {reason}"), rule));
                }
            }
        }
        Ok(out)
    }

    fn immune(&self, target: CardIx, by: CardIx) -> bool {
        let t = self.st.title(by);
        self.st
            .def(target)
            .immune_to
            .iter()
            .any(|x| x.eq_ignore_ascii_case(t))
    }

    fn target_one<'a>(
        &self,
        p: Side,
        c: CardIx,
        spec: &TargetSpec,
        w: Window,
        picks: &mut impl Iterator<Item = &'a String>,
    ) -> Result<Option<Tgt>, String> {
        match spec.kind {
            TargetKind::Current => {
                let Window::Response(i) = w else {
                    return Err("there is no current action".into());
                };
                let e = &self.stack[i];
                if let Some(tc) = e.card {
                    if !filter_empty(&spec.filter) && !self.st.matches(tc, &spec.filter, p) {
                        return Err(format!("{} is not a valid target", self.name(tc)));
                    }
                    if self.immune(tc, c) {
                        return Err(format!("{} is immune to {}", self.name(tc), self.name(c)));
                    }
                } else if !filter_empty(&spec.filter) {
                    return Err(format!("{} is not a valid target", e.label));
                }
                Ok(Some(Tgt::Entry(i)))
            }
            TargetKind::Card => {
                let cands: Vec<CardIx> = self
                    .st
                    .table_matching(&spec.filter, p)
                    .into_iter()
                    .filter(|&x| !self.immune(x, c))
                    .collect();
                match picks.next() {
                    Some(k) => {
                        let x = self.st.find(k).ok_or_else(|| format!("no card {k}"))?;
                        if cands.contains(&x) {
                            Ok(Some(Tgt::Card(x)))
                        } else if !self.st.on_table(x) {
                            Err(format!("{} is not on table", self.name(x)))
                        } else if !self.st.active(x) {
                            Err(format!(
                                "{} is not active (an inactive card cannot be targeted)",
                                self.name(x)
                            ))
                        } else if let Some(h) = spec
                            .filter
                            .has
                            .iter()
                            .find(|h| !super::state::has_value(self.st.def(x), h))
                        {
                            Err(format!(
                                "{} has no {h} (a value that does not exist cannot be targeted)",
                                self.name(x)
                            ))
                        } else {
                            Err(format!("{} is not a valid target", self.name(x)))
                        }
                    }
                    None => match cands.len() {
                        0 => Err("no valid target on table".into()),
                        _ => Ok(Some(Tgt::Card(cands[0]))),
                    },
                }
            }
            TargetKind::All => {
                let cands: Vec<CardIx> = self
                    .st
                    .table_matching(&spec.filter, p)
                    .into_iter()
                    .filter(|&x| !self.immune(x, c))
                    .collect();
                if cands.is_empty() {
                    Err("there is no such card on table (you cannot cancel or affect something that does not exist)".into())
                } else {
                    Ok(Some(Tgt::Cards(cands)))
                }
            }
            TargetKind::Hand => {
                let sides: Vec<Side> = whose(spec.whose, p);
                for s in sides {
                    if self.st.pile_len(s, PileName::Hand) > 0 {
                        return Ok(Some(Tgt::Pile(s, PileName::Hand)));
                    }
                }
                Err("no cards in that hand (cards cannot be removed from an empty hand)".into())
            }
            TargetKind::Pile => {
                let allowed = |s: Side, pl: PileName| {
                    whose(spec.whose, p).contains(&s)
                        && (spec.piles.is_empty() || spec.piles.contains(&pl))
                };
                match picks.next() {
                    Some(k) => {
                        let (s, pl) = super::state::parse_pile_name(k)
                            .ok_or_else(|| format!("no pile {k}"))?;
                        if !allowed(s, pl) {
                            return Err(format!("{k} is not a valid target"));
                        }
                        if self.st.pile_len(s, pl) == 0 {
                            return Err(format!(
                                "{}'s {} is empty (an empty pile cannot be targeted)",
                                s.name(),
                                pl.title()
                            ));
                        }
                        Ok(Some(Tgt::Pile(s, pl)))
                    }
                    None => {
                        for s in whose(spec.whose, p) {
                            for pl in State::all_piles() {
                                if allowed(s, pl) && self.st.pile_len(s, pl) > 0 {
                                    return Ok(Some(Tgt::Pile(s, pl)));
                                }
                            }
                        }
                        Err("every such pile is empty".into())
                    }
                }
            }
            TargetKind::Location => {
                let ok = |l: usize| {
                    spec.filter.icon.as_ref().is_none_or(|i| {
                        self.st.locations[l]
                            .icons
                            .iter()
                            .any(|x| x.eq_ignore_ascii_case(i))
                    })
                };
                match picks.next() {
                    Some(k) => {
                        let l = self
                            .st
                            .find_location(k)
                            .ok_or_else(|| format!("no location {k}"))?;
                        if ok(l) {
                            Ok(Some(Tgt::Location(l)))
                        } else {
                            Err(format!(
                                "{} lacks what the card targets",
                                self.st.locations[l].title
                            ))
                        }
                    }
                    None => (0..self.st.locations.len())
                        .find(|&l| ok(l))
                        .map(|l| Some(Tgt::Location(l)))
                        .ok_or_else(|| "no such location".to_string()),
                }
            }
            TargetKind::Unknown => Ok(None),
        }
    }

    fn trigger_matches(&self, t: &Trigger, ix: usize, c: CardIx) -> bool {
        let e = &self.stack[ix];
        if e.canceled {
            return false;
        }
        let me = self.st.owner(c);
        let kind_ok = match (t.event, &e.kind) {
            (EventKind::Play, ActionKind::Deploy { .. } | ActionKind::Play) => true,
            (EventKind::JustDeployed, ActionKind::JustDeployed) => true,
            (
                EventKind::UseText,
                ActionKind::UseText | ActionKind::Triggered | ActionKind::Mandatory,
            ) => true,
            (EventKind::DestinyDraw, ActionKind::DestinyDraw { .. }) => true,
            (EventKind::DestinyDrawn, ActionKind::DestinyDrawn { value, .. }) => {
                t.destiny.is_none_or(|d| Some(d) == *value)
            }
            (EventKind::JustMoved, ActionKind::JustMoved { .. }) => true,
            (EventKind::JustLost, ActionKind::JustLost { .. }) => true,
            (EventKind::Battle, ActionKind::Battle) => true,
            (EventKind::ForceDrain, ActionKind::ForceDrain) => true,
            _ => false,
        };
        if !kind_ok {
            return false;
        }
        match t.by {
            Rel::You if e.actor != me => return false,
            Rel::Opponent if e.actor == me => return false,
            _ => {}
        }
        if t.this_card && e.card != Some(c) {
            return false;
        }
        if let Some(f) = &t.card {
            let mut subject: Vec<CardIx> = e.card.into_iter().collect();
            match &e.kind {
                ActionKind::DestinyDrawn { card, .. } => subject = card.iter().copied().collect(),
                ActionKind::JustMoved { cards } => subject.extend(cards.iter().copied()),
                ActionKind::JustLost { cards } => {
                    // Only cards still in the Lost Pile are just lost.
                    subject = cards
                        .iter()
                        .copied()
                        .filter(|&x| matches!(self.st.zone[x], Zone::Pile(_, PileName::LostPile)))
                        .collect();
                }
                _ => {}
            }
            if !subject.iter().any(|&x| self.st.matches(x, f, me)) {
                return false;
            }
        }
        true
    }

    // ------------------------------------------------------------ deploying

    /// Deploying from hand as a top-level action: its conditions and cost.
    fn check_deploy(&self, p: Side, c: CardIx, d: Option<&Decision>) -> Result<DeployTo, Rej> {
        let def = self.st.def(c);
        let title = self.name(c);
        if self.st.owner(c) != p || self.st.zone[c] != Zone::Pile(p, PileName::Hand) {
            return Err(rej(
                format!("{title} is not in {}'s hand", p.name()),
                r::ACTIONS,
            ));
        }
        if def.card_type == CardType::Interrupt {
            return Err(rej(
                format!("{title} is an Interrupt: it is played, not deployed"),
                r::ACTIONS,
            ));
        }
        if self.turn != p || self.phase != Phase::Deploy {
            return Err(rej(
                format!(
                    "{} may deploy {title} only during their own deploy phase",
                    p.name()
                ),
                r::MEETING_CONDITIONS,
            ));
        }
        self.unique_ok(c)?;
        let cost = def.stats.deploy.unwrap_or(0).max(0) as usize;
        let have = self.st.pile_len(p, PileName::ForcePile);
        if cost > have {
            return Err(rej(
                format!(
                    "{title} deploys for {cost} Force; {} has {have} in Force Pile",
                    p.name()
                ),
                r::PAYING_COSTS,
            ));
        }
        let to = d.and_then(|d| d.step.to.clone());
        if def.card_type.deploys_to_location() {
            match to {
                Some(k) => {
                    if let Some(l) = self.st.find_location(&k) {
                        Ok(DeployTo::Location(l))
                    } else if let Some(h) = self.st.find(&k).filter(|&h| self.st.active(h)) {
                        Ok(DeployTo::OnCard(h))
                    } else {
                        Err(rej(
                            format!("{k} is not a location or a card on table"),
                            r::CHOOSING_TARGETS,
                        ))
                    }
                }
                None if d.is_none() => Ok(DeployTo::Table),
                None => Err(rej(
                    format!("{title} must be deployed to a location (`to:`)"),
                    r::CHOOSING_TARGETS,
                )),
            }
        } else {
            Ok(DeployTo::Table)
        }
    }

    /// Uniqueness and persona: a unique card may not be deployed while a copy
    /// (or another version of its persona) is on table, active or inactive, or out of play.
    fn unique_ok(&self, c: CardIx) -> Result<(), Rej> {
        let def = self.st.def(c);
        if !def.unique {
            return Ok(());
        }
        let mine = personas(def);
        for x in 0..self.st.cards.len() {
            if x == c || self.st.owner(x) != self.st.owner(c) {
                continue;
            }
            let theirs = personas(self.st.def(x));
            if !mine
                .iter()
                .any(|m| theirs.iter().any(|t| t.eq_ignore_ascii_case(m)))
            {
                continue;
            }
            if self.st.on_table(x)
                && self.st.card_state[x] != crate::engine::swccg::model::CardState::Supporting
            {
                let rule = if self.st.active(x) {
                    r::ACTIVE
                } else {
                    r::INACTIVE
                };
                return Err(rej(
                    format!(
                        "{} may not be deployed: {} is on table ({}), and unique cards count toward uniqueness",
                        self.name(c),
                        self.name(x),
                        state_word(self.st.card_state[x])
                    ),
                    rule,
                ));
            }
            if self.st.zone[x] == Zone::Pile(self.st.owner(x), PileName::OutOfPlay)
                && self.st.def(x).card_type.deploys_to_location()
            {
                return Err(rej(
                    format!(
                        "{} may not be deployed: {} is out of play, which prevents additional copies of that persona",
                        self.name(c),
                        self.name(x)
                    ),
                    r::OUT_OF_PLAY,
                ));
            }
        }
        Ok(())
    }

    fn push_deploy(
        &mut self,
        p: Side,
        c: CardIx,
        to: DeployTo,
        free: bool,
        responding_to: Option<usize>,
    ) {
        let cost = if free {
            0
        } else {
            self.st.def(c).stats.deploy.unwrap_or(0).max(0)
        };
        let from = match self.st.zone[c] {
            Zone::Pile(s, pl) => format!("{}'s {}", s.name(), pl.title()),
            _ => self.st.where_is(c),
        };
        self.st.put(c, Zone::Stack);
        let mut e = Entry::new(
            ActionKind::Deploy { to },
            p,
            Some(c),
            self.st.key(c).to_string(),
        );
        e.responding_to = responding_to;
        self.stack.push(e);
        let dest = match to {
            DeployTo::Location(l) => format!(" to {}", self.st.locations[l].title),
            DeployTo::OnCard(h) => format!(" on {}", self.name(h)),
            DeployTo::Table => " on table".to_string(),
        };
        let kind_word = match responding_to {
            Some(i) => format!("within the result of {}", self.stack[i].label),
            None => "top-level action".to_string(),
        };
        self.log(
            actor(p),
            Event::Push,
            format!(
                "{} deploys {}{dest} from {from} ({kind_word}){}",
                p.name(),
                self.name(c),
                if free { " for free" } else { "" }
            ),
            &[
                r::INITIATION,
                if responding_to.is_some() {
                    r::RESULT
                } else {
                    r::OPTIONAL_ACTIONS
                },
            ],
        );
        self.pay_use(p, cost as u32, &format!("to deploy {}", self.name(c)));
    }

    fn pay_use(&mut self, p: Side, n: u32, why: &str) {
        if n == 0 {
            return;
        }
        let paid = self
            .st
            .move_top(p, PileName::ForcePile, PileName::UsedPile, n);
        self.st.force[p.ix()].used += i64::from(paid);
        self.log(
            actor(p),
            Event::Initiate,
            format!("{} uses {paid} Force {why} (cost of initiation)", p.name()),
            &[r::PAYING_COSTS],
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn push_ability(
        &mut self,
        p: Side,
        c: CardIx,
        a: usize,
        kind: ActionKind,
        targets: Vec<(String, Tgt)>,
        w: Window,
        then: Option<Dest>,
    ) {
        let ab = self.st.def(c).abilities[a].clone();
        let responding_to = match w {
            Window::Response(i) => Some(i),
            Window::TopLevel => None,
        };
        if let Some(i) = responding_to {
            self.stack[i].responded.push((c, a));
        }
        self.record_use(c, a);
        let is_play = matches!(kind, ActionKind::Play);
        if is_play {
            self.st.put(c, Zone::Stack);
        }
        let mut e = Entry::new(kind, p, Some(c), self.st.key(c).to_string());
        e.ability = Some(a);
        e.targets = targets.clone();
        e.responding_to = responding_to;
        e.then = then;
        let verb = if is_play { "plays" } else { "uses" };
        let role = match (ab.kind, responding_to) {
            (AbilityKind::Mandatory, _) => "mandatory action".to_string(),
            (AbilityKind::Before, _) => {
                "\"before\" action, in place of the preempted action".to_string()
            }
            (_, Some(i)) => format!("just action responding to {}", self.stack[i].label),
            (_, None) => "top-level action".to_string(),
        };
        let tg = targets
            .iter()
            .map(|(_, t)| self.tgt_name(t))
            .collect::<Vec<_>>()
            .join(", ");
        self.stack.push(e);
        let mut role = role;
        if let Some(i) = responding_to
            && matches!(
                self.stack[i].kind,
                ActionKind::JustLost { .. } | ActionKind::JustMoved { .. }
            )
        {
            let top = self.stack.len() - 1;
            let about = self.card_refs(top, &CardRef::Current);
            if let Some(&x) = about.first() {
                role.push_str(&format!(", about {}", self.name(x)));
            }
        }
        let text = self.ability_text(c, a);
        self.log(
            actor(p),
            Event::Push,
            format!(
                "{} {verb} {} ({role}){}: {text}",
                p.name(),
                self.name(c),
                if tg.is_empty() {
                    String::new()
                } else {
                    format!(" targeting {tg}")
                }
            ),
            &[
                r::INITIATION,
                match (ab.kind, responding_to) {
                    (AbilityKind::Mandatory, _) => r::MANDATORY_ACTIONS,
                    (AbilityKind::Before, _) => r::BEFORE,
                    (_, Some(_)) => r::JUST_ACTIONS,
                    (_, None) => r::OPTIONAL_ACTIONS,
                },
            ],
        );
        if !targets.is_empty() {
            self.log(
                actor(p),
                Event::Initiate,
                format!("targets chosen: {tg}"),
                &[r::CHOOSING_TARGETS],
            );
        }
        self.pay_use(p, ab.cost.use_force, &format!("for {}", self.name(c)));
        if ab.cost.lose_force > 0 {
            let n = self.lose_force(p, ab.cost.lose_force as i64);
            self.log(
                actor(p),
                Event::Initiate,
                format!("{} loses {n} Force (cost of initiation)", p.name()),
                &[r::PAYING_COSTS],
            );
        }
    }

    fn tgt_name(&self, t: &Tgt) -> String {
        match t {
            Tgt::Card(c) => self.name(*c),
            Tgt::Cards(v) => v
                .iter()
                .map(|&c| self.name(c))
                .collect::<Vec<_>>()
                .join(" + "),
            Tgt::Entry(j) => self
                .stack
                .get(*j)
                .map(|e| e.label.clone())
                .unwrap_or_default(),
            Tgt::Location(l) => self.st.locations[*l].title.clone(),
            Tgt::Pile(s, p) => format!("{}'s {}", s.name(), p.title()),
        }
    }

    fn ability_text(&self, c: CardIx, a: usize) -> String {
        let ab = &self.st.def(c).abilities[a];
        match &ab.text {
            Some(t) => format!("\"{t}\""),
            None => ability_name(ab, a),
        }
    }
}

enum Applied {
    Done,
    Pushed,
    Stop,
}

/// The phase after `p` in the same turn (AR: Order Of Events In A Turn); `None` after the draw phase.
fn next_phase(p: Phase) -> Option<Phase> {
    match p {
        Phase::Activate => Some(Phase::Control),
        Phase::Control => Some(Phase::Deploy),
        Phase::Deploy => Some(Phase::Battle),
        Phase::Battle => Some(Phase::Move),
        Phase::Move => Some(Phase::Draw),
        Phase::Draw => None,
    }
}

fn actor(s: Side) -> Actor {
    match s {
        Side::Light => Actor::Player(0),
        Side::Dark => Actor::Player(1),
    }
}

fn side_of(w: Who, me: Side) -> Side {
    match w {
        Who::You => me,
        Who::Opponent => me.other(),
    }
}

fn whose(r: Rel, me: Side) -> Vec<Side> {
    match r {
        Rel::You => vec![me],
        Rel::Opponent => vec![me.other()],
        Rel::Any => vec![me.other(), me],
    }
}

fn filter_empty(f: &crate::engine::swccg::model::Filter) -> bool {
    f.title.is_empty()
        && f.card_type.is_none()
        && f.subtype.is_none()
        && f.owner.is_none()
        && f.keyword.is_empty()
        && f.has.is_empty()
        && f.unique.is_none()
        && f.icon.is_none()
        && !f.duplicate_on_table
}

fn personas(d: &crate::engine::swccg::model::CardDef) -> Vec<String> {
    if d.personas.is_empty() {
        vec![d.title.clone()]
    } else {
        d.personas.clone()
    }
}

fn state_word(s: crate::engine::swccg::model::CardState) -> &'static str {
    match s {
        crate::engine::swccg::model::CardState::Active => "active",
        crate::engine::swccg::model::CardState::Inactive => "inactive",
        crate::engine::swccg::model::CardState::Supporting => "supporting",
    }
}

/// The name of an ability: its `name`, else its position from 1.
pub fn ability_name(ab: &Ability, a: usize) -> String {
    ab.name.clone().unwrap_or_else(|| (a + 1).to_string())
}

pub fn find_ability(abilities: &[Ability], name: &str) -> Option<usize> {
    abilities
        .iter()
        .enumerate()
        .find(|(i, ab)| ab.name.as_deref() == Some(name) || (i + 1).to_string() == name)
        .map(|(i, _)| i)
}

/// Where a played Interrupt goes after its result, from its subtype.
fn interrupt_default_dest(subtype: Option<&str>) -> Dest {
    match subtype.map(|s| s.to_ascii_lowercase()) {
        Some(s) if s == "used" => Dest::UsedPile,
        _ => Dest::LostPile,
    }
}
