//! The SWTCG driver: asking players for decisions in play-or-pass (POP)
//! chances, scripted dice, the trace, rejected decisions and stops.

use super::model::{Side, Step, Verb};
use super::rules as r;
use super::state::{PieceIx, State};
use crate::engine::{Actor, At, End, Event, Illegal, MAX_STEPS, NeedKind, Scripted, Trace};

pub use crate::engine::{Flow, Stop};

pub use crate::engine::Rejection;

/// A decision refused for `reason`, under the rules `cites` (the main one
/// first; with none given, the 4 Primary Rules, which every refusal rests on).
pub fn reject(reason: impl Into<String>, cites: &[&'static str]) -> Rejection {
    let (rule, also) = cites.split_first().unwrap_or((&r::PRIMARY_RULES, &[]));
    let mut why = crate::engine::rej(reason, rule);
    why.also = also.to_vec();
    why
}

/// A player's answer to a chance or a choice.
#[derive(Debug, Clone)]
pub enum Answer {
    Pass,
    Do(Box<Step>),
}

/// One attack, as observed.
#[derive(Debug, Clone, Default)]
pub struct AttackRecord {
    pub attacker: String,
    pub defender: String,
    pub dice: Vec<i64>,
    pub hits: i64,
    pub damage: i64,
    /// Damage counters the attacker put on any unit in the attack.
    pub dealt: i64,
    pub disrupted: bool,
}

pub struct Engine<'a> {
    pub st: State,
    script: &'a [Scripted<Step>],
    next: usize,
    pub trace: Trace,
    pub illegal: Vec<Illegal>,
    pub end: Option<End>,
    pub resolved: Vec<String>,
    pub attacks: Vec<AttackRecord>,
    pub attack_order: Vec<String>,
    pub winner: Option<Side>,
    /// Activated abilities used this turn: (card, ability index, the POP
    /// it was played in).
    pub used: Vec<(usize, usize, usize)>,
    /// The play-or-pass chance under way (each one numbered as it opens).
    pub window: usize,
    windows: usize,
    pub level: usize,
    steps: usize,
    /// Seat names (for messages).
    pub names: [&'static str; 2],
    /// "The next time one of your units would attack this turn, you may have
    /// it attack … in the [arena]", for each side.
    pub may_attack: [Option<super::model::Arena>; 2],
    /// Effects waiting for the start of the battle phase: whose, the card
    /// they come from, what they do.
    pub at_battle_start: Vec<(super::state::Pid, String, super::model::AtBattleStart)>,
    /// Units that attack again, each time their attack ends, a unit they
    /// haven't attacked this turn.
    pub chained: Vec<PieceIx>,
    /// Each unit attacked this turn, and by whom: (attacker, attacked).
    pub attacked_turn: Vec<(PieceIx, PieceIx)>,
    /// Units that can't attack or be attacked this turn.
    pub cant_attack: Vec<PieceIx>,
    /// Units whose controller's other units in their arena can't be
    /// attacked this turn, as long as they are in that arena.
    pub guards: Vec<PieceIx>,
    /// "This turn, when any of your units in [arena] would be damaged,
    /// prevent N of that damage": whose units, where, how much.
    pub arena_prevention: Vec<(Side, super::model::Arena, i64)>,
    /// The arena whose battle step is being fought, if any.
    pub battle_step: Option<super::model::Arena>,
    /// Cards whose unencoded text has been reported.
    text_met: Vec<super::state::CardIx>,
}

pub fn actor(s: Side) -> Actor {
    Actor::Player(s.ix() as u8)
}

impl<'a> Engine<'a> {
    pub fn new(st: State, script: &'a [Scripted<Step>]) -> Self {
        Engine {
            st,
            script,
            next: 0,
            trace: Trace::default(),
            illegal: Vec::new(),
            end: None,
            resolved: Vec::new(),
            attacks: Vec::new(),
            attack_order: Vec::new(),
            winner: None,
            used: Vec::new(),
            window: 0,
            at_battle_start: Vec::new(),
            chained: Vec::new(),
            cant_attack: Vec::new(),
            guards: Vec::new(),
            arena_prevention: Vec::new(),
            attacked_turn: Vec::new(),
            windows: 0,
            battle_step: None,
            level: 0,
            steps: 0,
            names: ["dark", "light"],
            may_attack: [None, None],
            text_met: Vec::new(),
        }
    }

    /// A card's text no field encodes, as reported: its label and reference,
    /// and the sentences (none if every sentence is encoded).
    pub fn unencoded(&self, c: super::state::CardIx) -> Option<String> {
        let d = self.st.def(c);
        let parts = d.unmodelled_text();
        if parts.is_empty() {
            return None;
        }
        let who = match d.reference() {
            Some(r) => format!("{} ({r})", self.st.card_label(c)),
            None => self.st.card_label(c),
        };
        Some(format!("{who}: \"{}\"", parts.join(" ")))
    }

    /// A card entering play or being played: its unencoded text is reported
    /// (once per card) and the run goes on, so the verdict shows it unless
    /// the scenario acknowledges it.
    pub fn meet_text(&mut self, c: super::state::CardIx) {
        if self.text_met.contains(&c) {
            return;
        }
        self.text_met.push(c);
        if let Some(what) = self.unencoded(c) {
            self.trace
                .not_modelled(self.level, Actor::Rules, what, &[r::EFFECTS]);
        }
    }

    /// Every card whose text is in play (the top card of each face-up piece).
    pub fn meet_in_play(&mut self) {
        for p in 0..self.st.pieces.len() {
            let pc = &self.st.pieces[p];
            if pc.zone != super::state::PZone::Gone && !pc.face_down && !pc.stack.is_empty() {
                self.meet_text(self.st.top(p));
            }
        }
    }

    pub fn log(&mut self, who: Actor, ev: Event, text: impl Into<String>, cites: &[&'static str]) {
        self.trace.push(self.level, who, ev, text, cites);
    }
    pub fn rules(&mut self, ev: Event, text: impl Into<String>, cites: &[&'static str]) {
        self.log(Actor::Rules, ev, text, cites);
    }
    pub fn by(&mut self, s: Side, ev: Event, text: impl Into<String>, cites: &[&'static str]) {
        self.log(actor(s), ev, text, cites);
    }

    /// Stop the run with an end.
    pub fn stop<T>(&mut self, end: End) -> Flow<T> {
        if self.end.is_none() {
            self.end = Some(end);
        }
        Err(Stop::Halt)
    }

    /// Something the engine does not model: record it and stop.
    pub fn not_modelled<T>(&mut self, what: impl Into<String>, cites: &[&'static str]) -> Flow<T> {
        let what = what.into();
        self.trace
            .not_modelled(self.level, Actor::Rules, what.clone(), cites);
        self.stop(End::NotModelled { what })
    }

    /// Scripted decisions never taken.
    pub fn remaining(&self) -> &'a [Scripted<Step>] {
        self.script.get(self.next..).unwrap_or(&[])
    }

    fn name(&self, s: Side) -> &'static str {
        self.names[s.ix()]
    }

    fn reject_step(&mut self, at: At, by: Side, step: &Step, why: Rejection) {
        self.by(
            by,
            Event::DecisionRejected,
            format!(
                "decision {} rejected ({} {}): {}",
                at.step,
                self.name(by),
                step.describe(),
                why.reason
            ),
            &why.cites(),
        );
        self.illegal.push(Illegal {
            at,
            player: actor(by),
            decision: step.describe(),
            cites: why.cites(),
            reason: why.reason,
        });
    }

    /// Ask `side` for a decision. `options`: the side has a legal play here,
    /// so a pass must be scripted (without options a missing decision is a
    /// pass). `judge` accepts or rejects a scripted step (a `pass` step too).
    pub fn ask(
        &mut self,
        side: Side,
        kind: NeedKind,
        what: &str,
        options: bool,
        judge: &dyn Fn(&Engine, &Step) -> Result<(), Rejection>,
    ) -> Flow<Answer> {
        loop {
            self.meet_in_play();
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return self.stop(End::StepLimit);
            }
            // Without a legal option the player passes: the next scripted
            // decision belongs to a later chance.
            if !options {
                return Ok(Answer::Pass);
            }
            let Some(s) = self.script.get(self.next) else {
                return self.stop(End::NeedsDecision {
                    player: actor(side),
                    kind,
                    what: what.to_string(),
                });
            };
            let by = if s.player == 0 {
                Side::Dark
            } else {
                Side::Light
            };
            if by != side {
                self.next += 1;
                let why = reject(
                    format!(
                        "out of turn: {} has the chance to act first ({what})",
                        self.name(side)
                    ),
                    &[r::POP, r::PRIMARY_RULES],
                );
                self.reject_step(s.at, by, &s.step, why);
                continue;
            }
            self.next += 1;
            match judge(self, &s.step) {
                Ok(()) if s.step.verb() == Verb::Pass => {
                    self.by(
                        side,
                        Event::Pass,
                        format!("{} passes: {what}", self.name(side)),
                        &[r::POP],
                    );
                    return Ok(Answer::Pass);
                }
                Ok(()) => return Ok(Answer::Do(Box::new(s.step.clone()))),
                Err(why) => self.reject_step(s.at, by, &s.step, why),
            }
        }
    }

    /// Scripted dice: `n` results rolled by `side`.
    pub fn roll(&mut self, side: Side, n: usize, what: &str) -> Flow<Vec<i64>> {
        if n == 0 {
            return Ok(Vec::new());
        }
        let judge = move |_: &Engine, s: &Step| {
            if s.verb() != Verb::Roll {
                return Err(reject(
                    format!("{n} dice must be rolled now ({what})"),
                    &[r::G_ROLL],
                ));
            }
            if s.dice.len() != n || s.dice.iter().any(|d| !(1..=6).contains(d)) {
                return Err(reject(
                    format!("{what}: give exactly {n} results from 1 to 6"),
                    &[r::G_ROLL],
                ));
            }
            Ok(())
        };
        let w = format!(
            "roll {n} {} for {what}",
            if n == 1 { "die" } else { "dice" }
        );
        match self.ask(side, NeedKind::Random, &w, true, &judge)? {
            Answer::Do(s) => {
                self.by(
                    side,
                    Event::Roll,
                    format!("{} rolls {:?} ({what})", self.name(side), s.dice),
                    &[r::G_ROLL],
                );
                Ok(s.dice.clone())
            }
            Answer::Pass => self.stop(End::NeedsDecision {
                player: actor(side),
                kind: NeedKind::Random,
                what: w,
            }),
        }
    }

    /// The piece a step names by `unit` (any card of its stack).
    pub fn unit_of(&self, s: &Step) -> Option<PieceIx> {
        s.unit().and_then(|k| self.st.piece_by_key(k))
    }
    pub fn target_of(&self, s: &Step) -> Option<PieceIx> {
        s.target().and_then(|k| self.st.piece_by_key(k))
    }

    /// A play-or-pass chance: Dark Side first, back and forth until both pass in a row.
    /// `options(side)` says whether a side can play; `play` judges and resolves one play.
    pub fn pop(
        &mut self,
        what: &str,
        cites: &[&'static str],
        options: &dyn Fn(&Engine, Side) -> bool,
        judge: &dyn Fn(&Engine, Side, &Step) -> Result<(), Rejection>,
        play: &mut dyn FnMut(&mut Engine<'a>, Side, &Step) -> Flow<()>,
    ) -> Flow<()> {
        let outer = self.window;
        self.windows += 1;
        self.window = self.windows;
        let any = options(self, Side::Dark) || options(self, Side::Light);
        if any {
            self.rules(Event::Window, format!("{what}: Dark Side first"), cites);
        }
        let mut side = Side::Dark;
        let mut passes = 0;
        while passes < 2 {
            let has = options(self, side);
            let j = |e: &Engine, s: &Step| {
                if s.verb() == Verb::Pass {
                    Ok(())
                } else {
                    judge(e, side, s)
                }
            };
            match self.ask(side, NeedKind::Response, what, has, &j)? {
                Answer::Pass => passes += 1,
                Answer::Do(s) => {
                    passes = 0;
                    play(self, side, &s)?;
                }
            }
            side = side.other();
        }
        self.window = outer;
        Ok(())
    }
}
