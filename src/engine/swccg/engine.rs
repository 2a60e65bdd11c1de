//! The driver: top-level actions, the stack, responses, results, canceling,
//! limits (AR Ch.1 Section C), producing a cited trace.
//!
//! Decisions are taken from the script in rules order. A decision the rules
//! forbid (or made out of turn) is rejected with its reason and rule, and the
//! run continues as if it had not been made. A player with no legal option
//! passes without a scripted decision; a player who has one and no scripted
//! decision stops the run ("needs a decision").

use super::rules as r;
use super::stack::{ActionKind, Entry, Tgt};
use super::state::{CardIx, State, Zone};
use crate::engine::swccg::model::{
    Ability, AbilityKind, CardType, Phase, PileName, Side, Step, Verb,
};
use crate::engine::{Actor, At, End, Event, Illegal, Leftover, Players, Script, Trace};

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

pub(crate) use crate::engine::{Rejection, rej};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Window {
    TopLevel,
    /// Responses to the stack entry at this index.
    Response(usize),
}

pub(super) enum Asked {
    Pass,
    Act(Box<Decision>),
    Stop,
}

pub(super) use crate::engine::{Flow, Stop};

/// What backing up restores: the game as it was just before an attempted action.
pub(super) struct Snapshot {
    pub(super) st: State,
    pub(super) stack: Vec<Entry>,
    pub(super) usage: Vec<Usage>,
    pub(super) mandatory_done: Vec<(CardIx, usize)>,
    pub(super) failed_searches: Vec<(CardIx, usize)>,
    pub(super) resolved: Vec<String>,
    pub(super) canceled: Vec<String>,
    pub(super) destinies: Vec<i64>,
    pub(super) top_next: Side,
    pub(super) top_passes: u8,
    pub(super) battles: Vec<super::battle_drain::AtLocation>,
    pub(super) drains: Vec<super::battle_drain::AtLocation>,
    pub(super) attacks: Vec<(usize, CardIx, bool)>,
    /// Ferocity added to creatures for the rest of the game ("cumulatively adding 2 to
    /// creature's ferocity").
    pub(super) ferocity_added: Vec<(CardIx, i64)>,
    pub(super) deployed_turn: Vec<CardIx>,
}

/// The last action initiated by a decision, while a "before" action may still preempt it.
pub(super) struct Attempt {
    pub(super) snap: Box<Snapshot>,
    pub(super) window: Window,
}

#[derive(Debug, Clone)]
pub(super) struct Usage {
    pub(super) card: CardIx,
    pub(super) ability: usize,
    pub(super) title: String,
    pub(super) canceled: bool,
}

/// The engine's state during one run.
pub struct Engine {
    pub st: State,
    pub turn: Side,
    pub phase: Phase,
    pub stack: Vec<Entry>,
    pub trace: Trace,
    pub(super) script: Script<Decision>,
    pub(super) top_next: Side,
    pub(super) top_passes: u8,
    pub(super) phase_over: bool,
    pub(super) usage: Vec<Usage>,
    pub(super) mandatory_done: Vec<(CardIx, usize)>,
    /// Search functions that found nothing (verified) this turn.
    pub(super) failed_searches: Vec<(CardIx, usize)>,
    pub resolved: Vec<String>,
    pub canceled: Vec<String>,
    pub illegal: Vec<Illegal>,
    pub destinies: Vec<i64>,
    /// How the run ended, once it has.
    pub outcome: Option<End>,
    pub leftover: Vec<Leftover>,
    pub(super) attempt: Option<Attempt>,
    pub(super) backed_up: bool,
    /// Some card of the board (either side of it) has a "before" action: only then can
    /// an attempted action be backed up, so only then is the game kept as it was
    /// before each attempt.
    pub(super) before_possible: bool,
    /// The last phase the run may reach (the scenario's `through:`).
    pub through: Phase,
    /// Numbers of battles and Force drains that had their result, by `<label>.<path>`.
    pub numbers: Vec<(String, serde_json::Value)>,
    /// Cards that may not battle this turn (the board's `may_not_battle`).
    pub may_not_battle: Vec<CardIx>,
    /// Attacks this turn: (location, creature, whether the creature attacked).
    pub(super) attacks: Vec<(usize, CardIx, bool)>,
    /// Ferocity added to creatures for the rest of the game ("cumulatively adding 2 to
    /// creature's ferocity").
    pub(super) ferocity_added: Vec<(CardIx, i64)>,
    /// Where each player chose to lose the next units of Force from (AR: Losing Force).
    pub(super) loss_from: [std::collections::VecDeque<PileName>; 2],
    /// The hand cards each player chose to lose as its next units of Force from hand.
    pub(super) loss_cards: [std::collections::VecDeque<String>; 2],
    /// Battles and Force drains initiated this turn, by location.
    pub(super) battles: Vec<super::battle_drain::AtLocation>,
    pub(super) drains: Vec<super::battle_drain::AtLocation>,
    /// Cards and locations asked about (`locate:`) and the answers, `<name>.<key>`.
    pub locate: Vec<String>,
    pub wheres: Vec<(String, serde_json::Value)>,
    /// The activation total counted when the activate phase began (AR Activate Phase).
    pub generation: Option<super::activation::Generation>,
    /// The end of the turn has been reported.
    pub(super) turn_over_noted: bool,
    /// Starting the game: revealed starting locations, starting hand sizes.
    pub(super) start: super::startgame::StartState,
    /// Questions about cards, answered when the run ends (AR Appendix D).
    pub questions: Vec<super::identify::Question>,
    pub answers: Vec<(String, serde_json::Value)>,
    // ---- reacts (AR Appendix C React)
    /// Cards that deployed or moved as a react this turn.
    pub(super) reacts: Vec<super::react::Reacted>,
    /// Devices used this turn, by the card using them (AR Devices - Using Devices).
    pub(super) device_uses: Vec<(CardIx, CardIx)>,
    /// Interrupts played this turn (the board's `played_this_turn`, then the run's).
    pub(super) played_turn: Vec<CardIx>,
    /// Cards whose deployment was initiated this turn (`deploy_turn.rs`).
    pub(super) deployed_turn: Vec<CardIx>,
    /// Cards whose text no field encodes, already reported as met on table or played.
    pub(super) text_met: Vec<bool>,
}

impl Engine {
    pub fn new(st: State, turn: Side, phase: Phase, next: Side, script: Vec<Decision>) -> Engine {
        fn has_before(d: &super::model::CardDef) -> bool {
            d.abilities.iter().any(|a| a.kind == AbilityKind::Before)
                || d.back.as_deref().is_some_and(has_before)
        }
        let before_possible = st.cards.iter().any(|c| has_before(&c.def));
        Engine {
            before_possible,
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
            battles: Vec::new(),
            drains: Vec::new(),
            numbers: Vec::new(),
            loss_from: Default::default(),
            loss_cards: Default::default(),
            may_not_battle: Vec::new(),
            attacks: Vec::new(),
            ferocity_added: Vec::new(),
            locate: Vec::new(),
            wheres: Vec::new(),
            generation: None,
            turn_over_noted: false,
            start: Default::default(),
            questions: Vec::new(),
            answers: Vec::new(),
            reacts: Vec::new(),
            device_uses: Vec::new(),
            played_turn: Vec::new(),
            deployed_turn: Vec::new(),
            text_met: Vec::new(),
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
            self.record_battle_or_drain(p.by, p.action == PendingKind::Battle, l, &p.label);
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

    pub(super) fn depth(&self) -> usize {
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

    /// The keys of `cards`, joined for a message.
    pub(super) fn keys(&self, cards: &[CardIx]) -> String {
        cards
            .iter()
            .map(|&c| self.st.key(c).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The names of `cards` (as [`Engine::name`] gives them), joined for a message.
    pub(super) fn names(&self, cards: &[CardIx]) -> String {
        cards
            .iter()
            .map(|&c| self.name(c))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The card a scripted decision names by `key`; refused, citing `rule`, when no
    /// card has that key.
    pub(super) fn card_named(&self, key: &str, rule: &'static str) -> Result<CardIx, Rejection> {
        self.st
            .find(key)
            .ok_or_else(|| rej(format!("no card {key}"), rule))
    }

    /// The card of a decision's `card:` key ([`Engine::card_named`]).
    pub(super) fn decision_card(
        &self,
        d: &Decision,
        rule: &'static str,
    ) -> Result<CardIx, Rejection> {
        self.card_named(d.step.card.as_deref().unwrap_or(""), rule)
    }

    pub(super) fn name(&self, c: CardIx) -> String {
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
        self.note_library();
        self.meet_location_text();
        self.note_battlegrounds();
        if self.phase == Phase::Activate {
            self.count_generation(self.turn);
        }
        self.begin_turn_frame();
        for _ in 0..MAX_STEPS {
            self.meet_unencoded_text();
            self.text_returns();
            self.siege_check();
            let flow = if self.stack.is_empty() {
                self.top_level()
            } else {
                self.step_stack()
            };
            if self.face_down_met() || flow.is_err() || self.outcome.is_some() {
                break;
            }
            if self.stack.is_empty() && !self.enforce_copies() {
                break;
            }
        }
        if self.outcome.is_none() {
            self.outcome = Some(End::StepLimit);
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
        self.report_where();
        self.answer_questions();
        self.report_values();
        let utinni = self.utinni_answers();
        self.answers.extend(utinni);
        let sentence = match self.outcome.clone().unwrap_or(End::StepLimit) {
            End::Complete => format!(
                "the stack is empty; {} performs the next top-level action",
                self.top_next.name()
            ),
            end => end.sentence(&Players::new("Light", "Dark")),
        };
        self.log(Actor::Rules, Event::Stop, sentence, &[]);
        let left: Vec<String> = self
            .leftover
            .iter()
            .map(|l| format!("decision {} left over: {}", l.at.step, l.decision))
            .collect();
        for l in left {
            self.log(Actor::Rules, Event::Stop, l, &[]);
        }
    }

    /// Ask `p` for a decision in `w`.
    pub(super) fn ask(&mut self, p: Side, w: Window) -> Asked {
        loop {
            let can = self.can_act(p, w);
            let Some(d) = self.script.peek().cloned() else {
                if w == Window::TopLevel {
                    self.outcome = Some(End::Complete);
                    return Asked::Stop;
                }
                if can {
                    let what = self.what_is_asked(p, w);
                    self.need(p, crate::engine::NeedKind::Response, what);
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
            // A response anchored to an action already canceled is judged now: a
            // canceled action is removed from the stack and can no longer be responded
            // to (a destiny canceled cannot then be canceled and redrawn).
            if let Some(anchor) = &d.step.responding_to
                && d.by == p
                && self.canceled.contains(anchor)
                && !self.stack.iter().any(|e| e.label == *anchor)
            {
                self.script.take();
                let why = format!(
                    "{anchor} has been canceled and removed from the stack: it can no longer be responded to"
                );
                self.reject(&d, rej(why, r::CANCELING));
                continue;
            }
            // A response anchored to a later action (`responding_to:`) waits for it:
            // its player passes until that action is the one responded to.
            if let (Some(anchor), Window::Response(i)) = (&d.step.responding_to, w)
                && d.by == p
                && (self.stack[i].label != *anchor || !(can || self.anchored_here(&d, i)))
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
            // A react is judged in the response window of the opponent's battle or drain.
            let react_now = d.verb == Verb::React && d.by == p && self.react_window(w);
            if !can
                && !react_now
                && (d.by != p || (w != Window::TopLevel && !self.is_response_attempt(&d)))
            {
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
    pub(super) fn is_response_attempt(&self, d: &Decision) -> bool {
        if d.verb == Verb::Deploy && self.is_arrival(d) {
            return true;
        }
        if !matches!(d.verb, Verb::Play | Verb::Use) {
            return false;
        }
        let Some(c) = d.step.card.as_deref().and_then(|k| self.st.find(k)) else {
            return false;
        };
        if d.verb == Verb::Play && self.is_shield(c) {
            // judged when played: a Defensive Shield is never a valid response
            return true;
        }
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

    pub(super) fn what_is_asked(&self, _p: Side, w: Window) -> String {
        match w {
            Window::TopLevel => "a top-level action or pass".to_string(),
            Window::Response(i) => format!("respond to {} or pass", self.stack[i].label),
        }
    }

    pub(super) fn auto_pass(&mut self, p: Side, w: Window) {
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
    pub(super) fn log_pass(&mut self, p: Side, w: Window, text: String) {
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

    pub(crate) fn reject(&mut self, d: &Decision, e: Rejection) {
        let desc = d.describe(&self.st);
        if let Some(what) = e.not_modelled {
            let depth = self.depth();
            self.trace
                .not_modelled(depth, actor(d.by), what.clone(), &[e.rule]);
            self.outcome = Some(End::NotModelled { what });
            return;
        }
        self.log(
            actor(d.by),
            Event::DecisionRejected,
            format!("decision {} rejected ({desc}): {}", d.at.step, e.reason),
            &e.cites(),
        );
        self.illegal.push(Illegal {
            at: d.at,
            player: actor(d.by),
            decision: desc,
            reason: e.reason,
            cites: std::iter::once(e.rule)
                .chain(e.also.iter().copied())
                .collect(),
        });
    }

    /// Does `p` have any legal action in `w`?
    pub(super) fn can_act(&self, p: Side, w: Window) -> bool {
        if w == Window::TopLevel && (self.can_battle_or_drain(p) || self.can_activate(p)) {
            return true;
        }
        if self.can_react(p, w) {
            return true;
        }
        let n = self.st.cards.len();
        for c in 0..n {
            if self.st.owner(c) != p && !super::epic::opponent_text(&self.st, c) {
                continue;
            }
            let zone = self.st.zone[c];
            if zone == Zone::Pile(p, PileName::Hand) {
                if w == Window::TopLevel && self.check_deploy(p, c, None).is_ok() {
                    return true;
                }
                if let Window::Response(i) = w
                    && self.can_arrive(p, c, i)
                {
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
        w == Window::TopLevel && self.can_move(p)
    }
}

pub(super) fn actor(s: Side) -> Actor {
    match s {
        Side::Light => Actor::Player(0),
        Side::Dark => Actor::Player(1),
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
