//! The Destiny driver: rounds, turns, the six actions, passing, extra actions
//! and the upkeep phase. Effects, damage and the queue are in `effects`.

use super::model::{AbilityKind, CardType, Step, Verb};
use super::rules as r;
use super::state::{DieAt, DieIx, Ix, Phase, State, Static, Zone, other, seat_name};
use crate::engine::{
    Actor, End, Event, Illegal, MAX_STEPS, NeedKind, Script, Scripted, Seat, Trace,
};
use std::collections::VecDeque;

pub use crate::engine::Stop;

pub type R<T> = Result<T, Stop>;

pub fn rej<T>(reason: impl Into<String>, rule: &'static str) -> R<T> {
    Err(Stop::Rej(crate::engine::rej(reason, rule)))
}

/// Something waiting in the queue.
#[derive(Debug, Clone)]
pub enum Item {
    /// A triggered "after" ability.
    Ability {
        card: Ix,
        ab: usize,
        by: Seat,
        subject: Option<Ix>,
    },
    /// A die (or a die with its modifiers) being resolved.
    Dice {
        by: Seat,
        dice: Vec<DieIx>,
        target: Option<String>,
        step: Box<Scripted<Step>>,
        /// The symbol the action resolves (checked when each die resolves).
        symbol: crate::cards::die::Symbol,
    },
    /// A played event's effects.
    Event {
        card: Ix,
        by: Seat,
        step: Box<Scripted<Step>>,
    },
}

/// The context an ability's effects resolve in.
#[derive(Debug, Clone, Default)]
pub struct Ctx {
    pub by: Seat,
    pub source: Option<Ix>,
    pub subject: Option<Ix>,
    pub step: Option<Scripted<Step>>,
    pub targets: Vec<String>,
    pub next_target: usize,
    pub removed: Option<i64>,
    /// How many dice this ability removed.
    pub removed_dice: usize,
    /// The card whose die this ability last removed.
    pub removed_card: Option<Ix>,
    /// How many removals (`remove_die`) this ability has made: the next takes
    /// that entry of the decision's `remove:`.
    pub removals: usize,
    /// The effects are a die's special ability (an inherent die ability, not a card effect).
    pub special: bool,
    /// The card the last targeted effect targeted.
    pub last: Option<Ix>,
    /// The character dice each activation by this ability rolled, by player.
    pub rolled: Vec<(Seat, Vec<DieIx>)>,
    /// The opponent's own decision that chose the last target
    /// (`Target::OpponentsOwn`), for what else the effect asks of them.
    pub answer: Option<Scripted<Step>>,
    /// What the ability's last `count` effect counted.
    pub counted: Option<i64>,
}

pub struct Engine<'a> {
    pub stat: &'a Static,
    pub st: State,
    pub script: Script<Scripted<Step>>,
    pub trace: Trace,
    pub illegal: Vec<Illegal>,
    pub end: Option<End>,
    pub queue: VecDeque<Item>,
    pub extra: VecDeque<Seat>,
    /// Labels of what left the queue, in order.
    pub resolved: Vec<String>,
    /// Each turn: "player1: activate rey", "player2: pass".
    pub turns: Vec<String>,
    pub level: usize,
    pub steps: usize,
    pub passes: u8,
    /// Damage blocked by "before" abilities of the damage being dealt.
    pub block: i64,
    /// An effect ended the action phase.
    pub end_phase: bool,
    /// How many of the action's `turn:` choices its focus dice have used (each
    /// focus die turns up to its value, taking the choices in die-ID order).
    pub turned: usize,
    /// Focus dice (or groups) of the action resolved so far.
    pub focus_groups: usize,
    /// Cards whose text no field encodes, already reported as met in play or played.
    pub text_met: Vec<bool>,
    /// How many dice the last activation rolled.
    pub just_rolled: i64,
    /// The action being taken (or last taken).
    pub last_verb: Option<Verb>,
    /// The dice the last card effect that removed dice removed.
    pub last_removed: Vec<DieIx>,
    /// The dice the last roll rolled (for "after one of your dice rolls …").
    pub rolled_now: Vec<DieIx>,
}

/// What a player did with a turn.
enum Took {
    Pass,
    Acted,
    /// The run stops: the script has no more decisions here.
    Done,
}

impl<'a> Engine<'a> {
    pub fn new(stat: &'a Static, st: State, script: Vec<Scripted<Step>>) -> Engine<'a> {
        Engine {
            stat,
            st,
            script: Script::new(script),
            trace: Trace::default(),
            illegal: Vec::new(),
            end: None,
            queue: VecDeque::new(),
            extra: VecDeque::new(),
            resolved: Vec::new(),
            turns: Vec::new(),
            level: 0,
            steps: 0,
            passes: 0,
            block: 0,
            end_phase: false,
            turned: 0,
            focus_groups: 0,
            text_met: Vec::new(),
            just_rolled: 0,
            last_verb: None,
            last_removed: Vec::new(),
            rolled_now: Vec::new(),
        }
    }

    /// Report, once per card, the text no field encodes of every card in play
    /// or being played: the engine cannot say what that text would do.
    fn meet_unencoded_text(&mut self) {
        self.text_met.resize(self.st.cards.len(), false);
        for c in 0..self.st.cards.len() {
            let here = matches!(self.st.cards[c].zone, Zone::Play | Zone::Queue);
            if self.text_met[c] || !here {
                continue;
            }
            let parts = self.stat.defs[c].text.unencoded();
            if parts.is_empty() {
                continue;
            }
            self.text_met[c] = true;
            let what = format!("{}: \"{}\"", self.stat.defs[c].described(), parts.join(" "));
            self.trace
                .not_modelled(self.level, Actor::Rules, what, &[r::EFFECTS]);
        }
    }

    /// Whether `p` spots a character of colour `col` (RR Spot).
    pub fn spots(&self, p: Seat, col: super::model::Color) -> bool {
        self.st
            .characters(p)
            .iter()
            .any(|&x| self.stat.defs[x].color == Some(col))
    }

    /// Whether `p` has as many cards in play as `want` asks for, each of its
    /// title, subtype, type (as the card is now) and color.
    pub fn spots_card(&self, p: Seat, want: &super::model::SpotCard) -> bool {
        self.cards_spotted(p, want).len() >= want.count
    }

    /// `p`'s cards in play of the title, subtype, type (as the card is now)
    /// and color `want` names.
    pub fn cards_spotted(&self, p: Seat, want: &super::model::SpotCard) -> Vec<Ix> {
        (0..self.st.cards.len())
            .filter(|&x| {
                let def = &self.stat.defs[x];
                self.st.in_play(x)
                    && self.st.cards[x].controller == p
                    && want.title.as_ref().is_none_or(|t| &def.title == t)
                    && want
                        .subtype
                        .as_ref()
                        .is_none_or(|s| def.subtypes.contains(s))
                    && want.card_type.is_none_or(|t| self.st.cards[x].ctype == t)
                    && want.color.is_none_or(|c| def.color == Some(c))
            })
            .collect()
    }

    pub fn key(&self, c: Ix) -> &str {
        &self.stat.keys[c]
    }

    pub fn die_id(&self, d: DieIx) -> &str {
        &self.stat.die_ids[d]
    }

    pub fn log(
        &mut self,
        actor: Actor,
        ev: Event,
        text: impl Into<String>,
        cites: &[&'static str],
    ) {
        self.trace.push(self.level, actor, ev, text, cites);
    }

    pub fn halt(&mut self, e: End) -> Stop {
        if self.end.is_none() {
            self.end = Some(e);
        }
        Stop::Halt
    }

    pub fn need(&mut self, p: Seat, kind: NeedKind, what: impl Into<String>) -> Stop {
        self.halt(End::NeedsDecision {
            player: Actor::Player(p),
            kind,
            what: what.into(),
        })
    }

    /// `p`'s scripted `use` or `decline` of the card `key`, when it is the
    /// next decision.
    pub fn peek_use_or_decline(&self, p: Seat, key: &str) -> Option<Scripted<Step>> {
        self.script.peek().cloned().filter(|d| {
            d.player == p
                && matches!(d.step.verb(), Some(Verb::Use | Verb::Decline))
                && d.step.card.as_deref() == Some(key)
        })
    }

    /// `p`'s `use` or `decline` of the card `key`, taken from the script; the
    /// run stops needing it, asked as `ask`, when it is not the next decision.
    pub fn use_or_decline(&mut self, p: Seat, key: &str, ask: String) -> R<Scripted<Step>> {
        let Some(d) = self.peek_use_or_decline(p, key) else {
            return Err(self.need(p, NeedKind::Response, ask));
        };
        self.script.take();
        Ok(d)
    }

    pub fn tick(&mut self) -> R<()> {
        self.meet_unencoded_text();
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(self.halt(End::StepLimit));
        }
        Ok(())
    }

    /// Run until the script is spent, the game ends or a decision is missing.
    pub fn run(&mut self) {
        let _ = self.run_rounds();
        let end = self.end.clone().unwrap_or(End::Complete);
        self.end = Some(end);
    }

    fn run_rounds(&mut self) -> R<()> {
        loop {
            self.tick()?;
            match self.st.phase {
                Phase::Over => return Ok(()),
                Phase::Upkeep => {
                    self.upkeep()?;
                    if self.script.peek().is_none() {
                        return Err(self.halt(End::Complete));
                    }
                }
                Phase::Action => self.one_turn()?,
            }
        }
    }

    /// One turn of the action phase.
    fn one_turn(&mut self) -> R<()> {
        let p = self.st.turn;
        self.st.turns.push((p, self.st.round));
        let took = if self.st.book.claimed == Some(p) {
            let t = format!(
                "{} claimed the battlefield this round: passes automatically",
                seat_name(p)
            );
            self.log(
                Actor::Player(p),
                Event::Pass,
                t,
                &[r::CLAIM_THE_BATTLEFIELD],
            );
            self.turns.push(format!("{}: pass (claimed)", seat_name(p)));
            Took::Pass
        } else {
            self.take_turn(p, false)?
        };
        match took {
            Took::Done => return Err(self.halt(End::Complete)),
            Took::Pass => self.passes += 1,
            Took::Acted => self.passes = 0,
        }
        // "On their next turn": a limit on this player's turn ends with it.
        self.st
            .next_action
            .retain(|n| n.player != p || !matches!(n.kind, super::state::NextKind::Not(_)));
        if self.end_phase {
            self.end_phase = false;
            self.passes = 2;
        }
        if self.passes >= 2 {
            self.log(
                Actor::Rules,
                Event::Phase,
                "both players passed consecutively: the action phase ends",
                &[r::ACTION_PHASE, r::PASSING],
            );
            self.st.phase = Phase::Upkeep;
        } else {
            self.st.turn = other(p);
        }
        Ok(())
    }

    /// Ask `p` for an action (or a pass); `extra`: an additional action (may be declined).
    fn take_turn(&mut self, p: Seat, extra: bool) -> R<Took> {
        loop {
            self.tick()?;
            let what = if extra { "additional action" } else { "turn" };
            self.log(
                Actor::Player(p),
                Event::Window,
                format!("{}'s {what}", seat_name(p)),
                &[if extra {
                    r::EXTRA_ACTIONS
                } else {
                    r::ACTION_PHASE
                }],
            );
            let Some(d) = self.script.peek().cloned() else {
                return Ok(Took::Done);
            };
            let verb = d.step.verb().unwrap_or(Verb::Pass);
            if d.player == p && verb == Verb::Use && self.before_action_offered(p, &d) {
                let ev = super::model::TriggerEvent::TakesAction;
                let before = self.st.clone();
                match self
                    .before(ev, None, Some(p), None)
                    .and_then(|_| self.drain())
                {
                    Err(Stop::Rej(e)) => {
                        self.st = before;
                        self.queue.clear();
                        self.reject(&d, e.reason, e.rule);
                    }
                    other => other?,
                }
                continue;
            }
            if d.player != p || !(verb.is_action() || (extra && verb == Verb::Decline)) {
                self.script.take();
                let why = if d.player != p {
                    format!("out of turn: it is {}'s {what}", seat_name(p))
                } else {
                    format!(
                        "`{}` is not an action: {} must act or pass",
                        verb.as_str(),
                        seat_name(p)
                    )
                };
                self.reject(&d, why, r::ACTIONS);
                continue;
            }
            self.script.take();
            if verb == Verb::Pass || verb == Verb::Decline {
                let word = if verb == Verb::Pass {
                    "passes"
                } else {
                    "declines to act"
                };
                self.log(
                    Actor::Player(p),
                    Event::Pass,
                    format!("{} {word}", seat_name(p)),
                    &[if extra { r::EXTRA_ACTIONS } else { r::PASSING }],
                );
                self.turns
                    .push(format!("{}: {}", seat_name(p), verb.as_str()));
                return Ok(Took::Pass);
            }
            match self.action(p, &d)? {
                Some(t) => return Ok(t),
                None => continue,
            }
        }
    }

    /// Carry out one action with everything it triggers; `None` if it was illegal and reversed.
    fn action(&mut self, p: Seat, d: &Scripted<Step>) -> R<Option<Took>> {
        let before = self.st.clone();
        self.turned = 0;
        self.focus_groups = 0;
        self.last_verb = d.step.verb();
        let label = self.describe(d);
        self.log(
            Actor::Player(p),
            Event::Initiate,
            format!("{}: {label}", seat_name(p)),
            &[r::ACTIONS],
        );
        if let Err(why) = self.next_action_allowed(p, d) {
            self.reject(d, why, r::EFFECTS);
            return Ok(None);
        }
        let res = self.perform(p, d).and_then(|_| self.drain());
        match res {
            Err(Stop::Rej(e)) => {
                self.st = before;
                self.queue.clear();
                self.extra.clear();
                self.reject(d, e.reason, e.rule);
                Ok(None)
            }
            Err(Stop::Halt) => Err(Stop::Halt),
            Ok(()) => {
                let mut a = before.clone();
                a.book = self.st.book.clone();
                let nothing = a == self.st;
                let took = if nothing {
                    self.log(
                        Actor::Player(p),
                        Event::Pass,
                        format!(
                            "{label} did nothing: {} is considered to have passed",
                            seat_name(p)
                        ),
                        &[r::PASSING],
                    );
                    self.turns
                        .push(format!("{}: {label} (did nothing: pass)", seat_name(p)));
                    Took::Pass
                } else {
                    self.turns.push(format!("{}: {label}", seat_name(p)));
                    Took::Acted
                };
                self.st
                    .next_action
                    .retain(|n| n.player != p || matches!(n.kind, super::state::NextKind::Not(_)));
                if !nothing {
                    let ev = super::model::TriggerEvent::TakesAction;
                    self.after(ev, None, Some(p), None)?;
                    self.drain()?;
                }
                self.extra_actions()?;
                Ok(Some(took))
            }
        }
    }

    /// Additional actions, in the order they were created.
    fn extra_actions(&mut self) -> R<()> {
        while let Some(p) = self.extra.pop_front() {
            if self.st.phase != Phase::Action {
                self.extra.clear();
                return Ok(());
            }
            if self.st.book.claimed == Some(p) {
                self.log(
                    Actor::Player(p),
                    Event::Pass,
                    format!(
                        "{} claimed the battlefield: declines the additional action",
                        seat_name(p)
                    ),
                    &[r::CLAIM_THE_BATTLEFIELD, r::EXTRA_ACTIONS],
                );
                continue;
            }
            if let Took::Done = self.take_turn(p, true)? {
                return Err(self.halt(End::Complete));
            }
        }
        Ok(())
    }

    /// Whether the decision uses one of `p`'s "before you take an action"
    /// abilities: taken before the action, which need not be declared first.
    fn before_action_offered(&self, p: Seat, d: &Scripted<Step>) -> bool {
        let Some(c) = d.step.card.as_deref().and_then(|n| self.stat.find(n)) else {
            return false;
        };
        self.st.in_play(c)
            && self.st.cards[c].controller == p
            && self.abilities_of(c).iter().any(|(_, a)| {
                a.kind == AbilityKind::Before
                    && a.on
                        .as_ref()
                        .is_some_and(|t| t.event == super::model::TriggerEvent::TakesAction)
            })
    }

    pub fn reject(&mut self, d: &Scripted<Step>, reason: String, rule: &'static str) {
        let desc = self.describe(d);
        self.log(
            Actor::Player(d.player),
            Event::DecisionRejected,
            format!("decision {} rejected ({desc}): {reason}", d.at.step),
            &[rule, r::ILLEGAL_ACTIONS],
        );
        self.illegal.push(Illegal {
            at: d.at,
            player: Actor::Player(d.player),
            decision: desc,
            reason,
            cites: vec![rule, r::ILLEGAL_ACTIONS],
        });
    }

    pub fn describe(&self, d: &Scripted<Step>) -> String {
        let s = &d.step;
        let mut out = s.verb().map_or("?", |v| v.as_str()).to_string();
        if let Some(c) = &s.card {
            out.push(' ');
            out.push_str(c);
        }
        if !s.dice.is_empty() {
            out.push(' ');
            out.push_str(&s.dice.join(", "));
        }
        if let Some(o) = &s.on {
            out.push_str(&format!(" on {o}"));
        }
        out
    }

    fn perform(&mut self, p: Seat, d: &Scripted<Step>) -> R<()> {
        match d.step.verb() {
            Some(Verb::Play) => self.play(p, d),
            Some(Verb::Activate) => self.activate(p, d),
            Some(Verb::Resolve) => self.resolve_action(p, d),
            Some(Verb::Reroll) => self.reroll_action(p, d),
            Some(Verb::Action) => self.card_action(p, d),
            Some(Verb::Claim) => self.claim(p, d),
            _ => Ok(()),
        }
    }

    /// A card named by a decision.
    pub fn card_named(&self, name: Option<&String>, rule: &'static str) -> R<Ix> {
        let Some(n) = name else {
            return rej("the decision names no card (`card:`)", rule);
        };
        match self.stat.find(n) {
            Some(c) => Ok(c),
            None => rej(format!("no card `{n}`"), rule),
        }
    }

    // ------------------------------------------------------------ activate

    pub(super) fn activate(&mut self, p: Seat, d: &Scripted<Step>) -> R<()> {
        let c = self.card_named(d.step.card.as_ref(), r::ACTIVATE_A_CARD)?;
        let s = &self.st.cards[c];
        if s.zone != Zone::Play || s.controller != p {
            return rej(
                format!(
                    "{} is not a card {} controls in play",
                    self.key(c),
                    seat_name(p)
                ),
                r::ACTIVATE_A_CARD,
            );
        }
        match s.ctype {
            CardType::Character => {}
            CardType::Support if !self.st.dice_of(c).is_empty() => {}
            CardType::Support => {
                return rej(
                    "supports without a die cannot be activated",
                    r::ACTIVATE_A_CARD,
                );
            }
            _ => {
                return rej(
                    "only characters and supports are activated",
                    r::ACTIVATE_A_CARD,
                );
            }
        }
        if s.exhausted {
            return rej(
                format!("{} is exhausted and cannot be activated", self.key(c)),
                r::ACTIVATE_A_CARD,
            );
        }
        if let Some(g) = d.step.remove.first() {
            self.guardian(p, c, g)?;
            if !self.st.in_play(c) {
                return Ok(());
            }
        }
        self.before(
            super::model::TriggerEvent::Activates,
            Some(c),
            Some(p),
            None,
        )?;
        if !self.st.in_play(c) {
            return Ok(());
        }
        self.st.cards[c].exhausted = true;
        let mut dice = self.st.dice_of(c);
        for u in self.st.upgrades(c) {
            dice.extend(self.st.dice_of(u));
        }
        let dice: Vec<DieIx> = dice
            .into_iter()
            .filter(|&x| self.st.dice[x].at == DieAt::OnCard)
            .collect();
        let t = format!(
            "{} exhausts {} and rolls {} into the pool",
            seat_name(p),
            self.key(c),
            if dice.is_empty() {
                "no dice".to_string()
            } else {
                self.die_list(&dice)
            }
        );
        self.log(
            Actor::Player(p),
            Event::StateChange,
            t,
            &[r::ACTIVATE_A_CARD],
        );
        self.just_rolled = dice.len() as i64;
        let mut list = self.roll_only(p, &dice, d)?;
        let act = self.triggered(
            super::effects::When::After,
            super::model::TriggerEvent::Activates,
            Some(c),
            Some(p),
            None,
        );
        list.extend(act.into_iter().map(|(x, a)| (x, a, Some(c))));
        self.enqueue(list)
    }

    pub fn die_list(&self, dice: &[DieIx]) -> String {
        dice.iter()
            .map(|&x| self.die_id(x).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Guardian: before activating, remove an opponent's die showing damage to deal its value here.
    fn guardian(&mut self, p: Seat, c: Ix, die: &str) -> R<()> {
        use super::model::Keyword;
        if !self.st.has_keyword(self.stat, c, Keyword::Guardian) {
            return rej(
                format!("{} does not have Guardian", self.key(c)),
                r::GUARDIAN,
            );
        }
        let Some(x) = self.stat.die(die) else {
            return rej(format!("no die `{die}`"), r::GUARDIAN);
        };
        let shows = self
            .st
            .showing(self.stat, x)
            .is_some_and(|f| super::state::face_shows(f, Some("damage")));
        if self.st.dice[x].controller == p || !shows {
            return rej(
                format!("{die} is not a die in an opponent's pool showing damage"),
                r::GUARDIAN,
            );
        }
        let v = self
            .st
            .showing(self.stat, x)
            .and_then(super::state::face_value)
            .unwrap_or(0);
        self.st.dice[x].at = DieAt::OnCard;
        let t = format!(
            "Guardian: {} removes {die} to deal {v} damage to {}",
            seat_name(p),
            self.key(c)
        );
        self.log(
            Actor::Player(p),
            Event::StateChange,
            t,
            &[r::GUARDIAN, r::REMOVING_DICE],
        );
        let dmg = super::effects::Dmg::plain(v, p);
        self.deal_damage(c, dmg)?;
        Ok(())
    }

    /// Roll dice into `p`'s pool with the results the decision gives.
    pub fn roll(&mut self, p: Seat, dice: &[DieIx], d: &Scripted<Step>) -> R<()> {
        let list = self.roll_only(p, dice, d)?;
        self.enqueue(list)
    }

    /// Roll, and return the "after" abilities the rolls triggered (not yet queued).
    pub fn roll_only(
        &mut self,
        p: Seat,
        dice: &[DieIx],
        d: &Scripted<Step>,
    ) -> R<Vec<(Ix, usize, Option<Ix>)>> {
        let round = self.st.round;
        let mut rolled_in: Vec<Ix> = Vec::new();
        for &x in dice {
            let id = self.die_id(x).to_string();
            if self.st.frozen.contains(&(x, round)) {
                let t =
                    format!("die {id} cannot be rolled during this round: it stays where it is");
                self.log(
                    Actor::Player(p),
                    Event::Result,
                    t,
                    &[r::ROLLING, r::CLAIM_ABILITIES],
                );
                continue;
            }
            let Some(face) = d.step.roll.get(&id) else {
                return Err(self.need(
                    p,
                    NeedKind::Random,
                    format!("the side die {id} lands on (`roll:`)"),
                ));
            };
            let Some(f) = self.stat.faces[x].iter().position(|f| &f.raw == face) else {
                return rej(format!("die {id} has no side {face}"), r::ROLLING);
            };
            if !matches!(self.st.dice[x].at, DieAt::Pool(_)) {
                rolled_in.push(self.st.dice[x].card);
            }
            self.st.dice[x].at = DieAt::Pool(f);
            self.st.dice[x].controller = p;
            self.log(
                Actor::Player(p),
                Event::Roll,
                format!("die {id} rolls {face}"),
                &[r::ROLLING, r::DICE_POOL],
            );
        }
        self.rolled_now = dice
            .iter()
            .copied()
            .filter(|&x| !self.st.frozen.contains(&(x, round)))
            .collect();
        let mut cards: Vec<Ix> = self
            .rolled_now
            .iter()
            .map(|&x| self.st.dice[x].card)
            .collect();
        cards.dedup();
        let mut list = Vec::new();
        for c in cards {
            let t = self.triggered(
                super::effects::When::After,
                super::model::TriggerEvent::Rolled,
                Some(c),
                Some(p),
                None,
            );
            list.extend(t.into_iter().map(|(x, a)| (x, a, Some(c))));
            if rolled_in.contains(&c) {
                let t = self.triggered(
                    super::effects::When::After,
                    super::model::TriggerEvent::RolledIn,
                    Some(c),
                    Some(p),
                    None,
                );
                list.extend(t.into_iter().map(|(x, a)| (x, a, Some(c))));
            }
        }
        Ok(list)
    }

    // ------------------------------------------------------------ reroll

    fn reroll_action(&mut self, p: Seat, d: &Scripted<Step>) -> R<()> {
        let Some(card) = d.step.discard.first() else {
            return rej(
                "rerolling needs a card discarded from hand (`discard:`)",
                r::REROLL_DICE,
            );
        };
        let c = self.card_named(Some(card), r::REROLL_DICE)?;
        if !self.st.hand[usize::from(p)].contains(&c) {
            return rej(
                format!("{card} is not in {}'s hand", seat_name(p)),
                r::REROLL_DICE,
            );
        }
        let dice = self.own_pool_dice(p, &d.step.dice, r::REROLL_DICE)?;
        self.discard_from_hand(p, c)?;
        let t = format!(
            "{} discards {card} to reroll {}",
            seat_name(p),
            self.die_list(&dice)
        );
        self.log(Actor::Player(p), Event::StateChange, t, &[r::REROLL_DICE]);
        self.roll(p, &dice, d)
    }

    /// Dice named by a decision, all in `p`'s pool, each once.
    pub fn own_pool_dice(&self, p: Seat, names: &[String], rule: &'static str) -> R<Vec<DieIx>> {
        let mut out = Vec::new();
        for n in names {
            let Some(x) = self.stat.die(n) else {
                return rej(format!("no die `{n}`"), rule);
            };
            if !matches!(self.st.dice[x].at, DieAt::Pool(_)) || self.st.dice[x].controller != p {
                return rej(
                    format!("die {n} is not in {}'s pool", seat_name(p)),
                    r::DICE_POOL,
                );
            }
            if out.contains(&x) {
                return rej(format!("die {n} named twice"), rule);
            }
            out.push(x);
        }
        Ok(out)
    }

    /// Discard a card from hand; triggers "after you discard the last card".
    pub fn discard_from_hand(&mut self, p: Seat, c: Ix) -> R<()> {
        self.st.put(c, Zone::Discard);
        if self.st.hand[usize::from(p)].is_empty() {
            self.after(
                super::model::TriggerEvent::DiscardsLastCard,
                None,
                Some(p),
                None,
            )?;
        }
        Ok(())
    }

    // ------------------------------------------------------------ card action

    fn card_action(&mut self, p: Seat, d: &Scripted<Step>) -> R<()> {
        let c = self.card_named(d.step.card.as_ref(), r::USE_A_CARD_ACTION)?;
        let s = &self.st.cards[c];
        let anyone = self.abilities_of(c).iter().any(|(_, a)| a.any_player);
        if s.zone != Zone::Play || (s.controller != p && !anyone) {
            return rej(
                format!(
                    "{} is not a card {} controls in play",
                    self.key(c),
                    seat_name(p)
                ),
                r::USE_A_CARD_ACTION,
            );
        }
        let acts: Vec<usize> = self
            .abilities_of(c)
            .into_iter()
            .filter(|(_, a)| matches!(a.kind, AbilityKind::Action | AbilityKind::PowerAction))
            .map(|(i, _)| i)
            .collect();
        let ab = match (d.step.ability, acts.as_slice()) {
            (_, []) => {
                return rej(
                    format!("{} has no action", self.key(c)),
                    r::USE_A_CARD_ACTION,
                );
            }
            (None, [one]) => *one,
            (None, _) => {
                return rej(
                    "the card has several actions: say which (`ability:`)",
                    r::USE_A_CARD_ACTION,
                );
            }
            (Some(n), _) => match acts.get(n.wrapping_sub(1)) {
                Some(&a) => a,
                None => return rej(format!("the card has no action {n}"), r::USE_A_CARD_ACTION),
            },
        };
        let a = self.ability(c, ab);
        if self.st.cards[c].controller != p && !a.any_player {
            return rej(
                format!("only {}'s controller may take this action", self.key(c)),
                r::USE_A_CARD_ACTION,
            );
        }
        if a.kind == AbilityKind::PowerAction {
            if self.st.book.power_used.contains(&(c, ab)) {
                return rej(
                    "a power action can be used once per round",
                    r::USE_A_CARD_ACTION,
                );
            }
            self.st.book.power_used.push((c, ab));
        }
        let ctx = self.ctx_from(p, Some(c), None, d);
        self.use_ability(c, ab, ctx, r::ACTION_ABILITIES)
    }

    pub fn ctx_from(
        &self,
        p: Seat,
        source: Option<Ix>,
        subject: Option<Ix>,
        d: &Scripted<Step>,
    ) -> Ctx {
        Ctx {
            by: p,
            source,
            subject,
            step: Some(d.clone()),
            targets: d.step.to.clone(),
            next_target: 0,
            removed: None,
            removed_dice: 0,
            removed_card: None,
            removals: 0,
            special: false,
            last: None,
            rolled: Vec::new(),
            answer: None,
            counted: None,
        }
    }

    // ------------------------------------------------------------ claim

    fn claim(&mut self, p: Seat, d: &Scripted<Step>) -> R<()> {
        let Some(bf) = self.st.battlefield else {
            return rej("there is no battlefield", r::CLAIM_THE_BATTLEFIELD);
        };
        if let Some(q) = self.st.book.claimed {
            return rej(
                format!(
                    "{} already claimed the battlefield this round",
                    seat_name(q)
                ),
                r::CLAIM_THE_BATTLEFIELD,
            );
        }
        self.st.book.claimed = Some(p);
        let t = if self.st.bf_controller == Some(p) {
            format!(
                "{} claims the battlefield it already controls (keeps control)",
                seat_name(p)
            )
        } else {
            format!(
                "{} claims the battlefield and takes control of it",
                seat_name(p)
            )
        };
        self.st.bf_controller = Some(p);
        self.st.cards[bf].controller = p;
        self.log(
            Actor::Player(p),
            Event::StateChange,
            t,
            &[r::CLAIM_THE_BATTLEFIELD],
        );
        let ev = super::model::TriggerEvent::Claims;
        let triggered: Vec<(Ix, usize, Option<Ix>)> = self
            .triggered(super::effects::When::After, ev, None, Some(p), None)
            .into_iter()
            .map(|(x, a)| (x, a, None))
            .collect();
        let claims: Vec<usize> = self.stat.defs[bf]
            .abilities
            .iter()
            .enumerate()
            .filter(|(_, a)| a.kind == AbilityKind::Claim)
            .map(|(i, _)| i)
            .collect();
        if let Some(&ab) = claims.first() {
            if d.step.no_claim_ability {
                self.log(
                    Actor::Player(p),
                    Event::Pass,
                    "declines the claim ability",
                    &[r::CLAIM_ABILITIES],
                );
            } else {
                let ctx = self.ctx_from(p, Some(bf), None, d);
                self.use_ability(bf, ab, ctx, r::CLAIM_ABILITIES)?;
            }
        }
        self.enqueue(triggered)
    }

    // ------------------------------------------------------------ upkeep

    fn upkeep(&mut self) -> R<()> {
        self.log(
            Actor::Rules,
            Event::Phase,
            format!("round {}: upkeep phase", self.st.round),
            &[r::UPKEEP_PHASE],
        );
        for p in 0..2u8 {
            for c in 0..self.st.cards.len() {
                let s = &mut self.st.cards[c];
                if s.zone == Zone::Play && s.controller == p && s.exhausted {
                    s.exhausted = false;
                }
            }
            for x in self.st.pool(p) {
                self.st.dice[x].at = DieAt::OnCard;
            }
            self.st.resources[usize::from(p)] += 2;
            let t = format!(
                "{} readies, returns the dice in the pool, gains 2 resources",
                seat_name(p)
            );
            self.log(
                Actor::Player(p),
                Event::StateChange,
                t,
                &[r::UPKEEP_PHASE, r::PART_6_GAME_CONCEPTS_RESOURCES],
            );
        }
        for _ in 0..2 {
            let Some(d) = self.script.peek().cloned() else {
                break;
            };
            if d.step.verb() != Some(Verb::Discard) {
                break;
            }
            self.script.take();
            for n in &d.step.discard {
                match self.stat.find(n) {
                    Some(c) if self.st.hand[usize::from(d.player)].contains(&c) => {
                        self.st.put(c, Zone::Discard)
                    }
                    _ => {
                        self.reject(
                            &d,
                            format!("{n} is not in {}'s hand", seat_name(d.player)),
                            r::UPKEEP_PHASE,
                        );
                        break;
                    }
                }
            }
        }
        for p in 0..2u8 {
            let want = self.hand_size(p) - self.st.hand[usize::from(p)].len() as i64;
            let n = self.draw(p, want.max(0));
            let t = format!(
                "{} draws {n} card(s) up to a hand size of {}",
                seat_name(p),
                self.hand_size(p)
            );
            self.log(
                Actor::Player(p),
                Event::StateChange,
                t,
                &[r::UPKEEP_PHASE, r::DRAW],
            );
        }
        self.end_of_round()
    }

    fn end_of_round(&mut self) -> R<()> {
        let out: Vec<bool> = (0..2)
            .map(|p| self.st.hand[p].is_empty() && self.st.deck[p].is_empty())
            .collect();
        let winner = match (out[0], out[1]) {
            (true, true) => self.st.bf_controller,
            (true, false) => Some(1),
            (false, true) => Some(0),
            _ => None,
        };
        if let Some(w) = winner {
            let t = format!(
                "{} has no cards in hand and deck at the end of the round: {} wins",
                seat_name(other(w)),
                seat_name(w)
            );
            return Err(self.game_over(w, t));
        }
        for dl in std::mem::take(&mut self.st.delayed) {
            let t = format!(
                "delayed effect of {}: {} is defeated after the round ends",
                self.key(dl.source),
                self.key(dl.target)
            );
            self.log(
                Actor::Player(dl.by),
                Event::Result,
                t,
                &[r::DELAYED_EFFECTS],
            );
            if self.st.in_play(dl.target) && self.st.cards[dl.target].ctype == CardType::Character {
                self.defeat_except(dl.target, Some(dl.source))?;
                self.drain()?;
            }
        }
        self.st.round += 1;
        self.st.book = Default::default();
        self.st.next_action.clear();
        self.st.phase = Phase::Action;
        self.passes = 0;
        self.st.turn = self.st.bf_controller.unwrap_or(0);
        let t = format!(
            "round {}: action phase; {} takes the first turn",
            self.st.round,
            seat_name(self.st.turn)
        );
        self.log(Actor::Rules, Event::Phase, t, &[r::ROUNDS, r::BATTLEFIELDS]);
        Ok(())
    }

    pub fn game_over(&mut self, w: Seat, text: String) -> Stop {
        self.st.winner = Some(w);
        self.st.phase = Phase::Over;
        self.log(Actor::Rules, Event::Result, text, &[r::WINNING_THE_GAME]);
        self.halt(End::Complete)
    }

    pub fn hand_size(&self, p: Seat) -> i64 {
        let mut n = 5;
        for c in 0..self.st.cards.len() {
            if self.st.in_play(c) && self.st.cards[c].controller == p {
                n += self
                    .abilities_of(c)
                    .iter()
                    .filter(|(_, a)| a.kind == AbilityKind::Ongoing)
                    .map(|(_, a)| a.hand_size)
                    .sum::<i64>();
            }
        }
        n
    }

    /// Draw up to `n` cards; returns how many were drawn.
    pub fn draw(&mut self, p: Seat, n: i64) -> i64 {
        let mut k = 0;
        while k < n {
            let Some(&c) = self.st.deck[usize::from(p)].first() else {
                break;
            };
            self.st.put(c, Zone::Hand);
            k += 1;
        }
        k
    }
}
