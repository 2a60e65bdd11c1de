//! Duels (AR Appendix C, Dueling).
//!
//! A duel card's text initiates a duel (step 1: responses to the initiation may
//! cancel it). Once it has begun it cannot be canceled: step 2 is a window where both
//! players, the initiator first, may only add or modify duel destinies (`responds_to:
//! {event: duel}`); step 3 each player draws duel destiny, the initiator first (only
//! responses to the draws); each total is the destinies plus the duelist's ability;
//! the highest total wins; step 4 the duel card's result for that winner.
//!
//! A duel card may state its own terms (You'll Find I'm Full Of Surprises: "Either is
//! power +2 if armed with a lightsaber. Draw destiny. Opponent draws two destiny. Both
//! players add power."): the opponent's number of draws, power instead of ability, and a
//! bonus for a duelist armed with a matching weapon. A canceled duel destiny counts as
//! drawn and adds nothing (AR Canceled And Redrawn Destiny Draws).

use super::effects::Applied;
use super::engine::*;
use super::stack::{ActionKind, Entry, Tgt};
use super::state::CardIx;
use crate::engine::swccg::model::{DestinyTest, Effect, Side};
use crate::engine::{Actor, Event};
use serde::Deserialize;

pub const DUELING: &str = "swccg.ar.dueling";

/// Every section this module cites.
pub const IDS: &[&str] = &[DUELING];

/// A duel card's text: "<theirs> and <yours> duel: each player draws destiny, adds
/// ability; highest total wins. If <yours> wins, …".
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuelDef {
    /// The target names (of the ability) of your duelist and the opponent's; `this`:
    /// the card whose text it is.
    pub yours: String,
    pub theirs: String,
    /// Duel destinies each player draws (default 1).
    #[serde(default)]
    pub draws: Option<u32>,
    /// Duel destinies the opponent draws, when the card says otherwise ("Opponent draws
    /// two destiny").
    #[serde(default)]
    pub their_draws: Option<u32>,
    /// What each player adds to its duel destinies: `ability` (default) or `power`.
    #[serde(default)]
    pub add: DuelAdd,
    /// "Either is power +N if armed with …": a weapon matching the filter on the duelist.
    #[serde(default)]
    pub armed: Option<Box<ArmedBonus>>,
    /// The result when your duelist wins, and when the opponent's wins.
    #[serde(default)]
    pub if_yours_wins: Vec<Effect>,
    #[serde(default)]
    pub if_theirs_wins: Vec<Effect>,
}

/// The duelist's value added to its duel destinies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DuelAdd {
    #[default]
    Ability,
    Power,
}

impl DuelAdd {
    fn as_str(self) -> &'static str {
        match self {
            DuelAdd::Ability => "ability",
            DuelAdd::Power => "power",
        }
    }
}

/// "Either is power +N if armed with a lightsaber" (for the duel's totals).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmedBonus {
    /// The weapon the duelist must carry.
    pub weapon: crate::engine::swccg::model::Filter,
    pub power: i64,
}

/// A duel under way.
#[derive(Debug, Clone)]
pub struct DuelState {
    pub def: DuelDef,
    /// The duelists: the initiator's, the opponent's.
    pub duelists: [CardIx; 2],
    /// Duel destinies to draw, by player (the initiator's first).
    pub draws: [u32; 2],
    /// The draws made, by player (`None`: a canceled draw, which adds nothing).
    pub drawn: [Vec<Option<i64>>; 2],
    /// The duel is over (the entry is its "just won" occurrence: steps 5 and 6).
    pub over: bool,
}

impl Engine {
    /// The duel card's result: the duel begins (step 1 is over); step 2 opens.
    pub(super) fn duel_begin(&mut self, ix: usize, def: DuelDef) -> Applied {
        let me = self.stack[ix].actor;
        // `this`: the card whose text initiates the duel is itself a duelist ("may
        // lose 1 Force to duel opponent's Jedi present").
        let card = |n: &str| match self.stack[ix].target(n) {
            Some(Tgt::Card(c)) => Some(*c),
            _ if n == "this" => self.stack[ix].card,
            _ => None,
        };
        let (Some(a), Some(b)) = (card(&def.yours), card(&def.theirs)) else {
            self.log(
                Actor::Rules,
                Event::Result,
                "the duel has no duelists: it ends with no result",
                &[DUELING],
            );
            return Applied::Done;
        };
        let n = def.draws.unwrap_or(1);
        let theirs = def.their_draws.unwrap_or(n);
        let label = format!("{} duel", self.stack[ix].label);
        let mut e = Entry::new(
            ActionKind::Triggered,
            me,
            self.stack[ix].card,
            label.clone(),
        );
        e.responding_to = Some(ix);
        e.next = me;
        // The duel card's result names its targets (e.g. "Obi-Wan is placed out of play").
        e.targets = self.stack[ix].targets.clone();
        e.pending = vec![Effect::DuelDraws].into();
        e.duel = Some(Box::new(DuelState {
            def,
            duelists: [a, b],
            draws: [n, theirs],
            drawn: [Vec::new(), Vec::new()],
            over: false,
        }));
        self.stack.push(e);
        self.log(
            actor(me),
            Event::Push,
            format!(
                "{label}: {} and {} duel. Step 1 is complete: the duel has begun and cannot be canceled. Step 2: only actions adding or modifying duel destinies; {} acts first",
                self.name(a),
                self.name(b),
                me.name()
            ),
            &[DUELING],
        );
        Applied::Pushed
    }

    /// The duel a step-2 response (at `ix`) responds to.
    fn duel_of(&self, ix: usize) -> Option<usize> {
        self.stack[ix]
            .responding_to
            .filter(|&j| j < self.stack.len() && self.stack[j].duel.is_some())
    }

    /// "Add a destiny to your total" (step 2).
    pub(super) fn add_duel_destiny(&mut self, ix: usize, n: u32) -> Applied {
        let me = self.stack[ix].actor;
        let Some(j) = self.duel_of(ix) else {
            return Applied::Done;
        };
        let first = self.stack[j].actor;
        if let Some(d) = self.stack[j].duel.as_mut() {
            d.draws[usize::from(me != first)] += n;
        }
        self.log(
            actor(me),
            Event::StateChange,
            format!(
                "{}: {} draws {n} more duel destiny",
                self.stack[j].label,
                me.name()
            ),
            &[DUELING],
        );
        Applied::Done
    }

    /// Step 3: the next duel destiny draw (the initiator's first), or the totals.
    pub(super) fn duel_draws(&mut self, ix: usize) -> Applied {
        let first = self.stack[ix].actor;
        let Some(d) = self.stack[ix].duel.as_ref() else {
            return Applied::Done;
        };
        let next = (0..2).find(|&i| d.drawn[i].len() < d.draws[i] as usize);
        let Some(i) = next else {
            self.duel_result(ix);
            return Applied::Done;
        };
        let p = if i == 0 { first } else { first.other() };
        let label = self.stack[ix].label.clone();
        let mut e = Entry::new(
            ActionKind::DestinyDraw {
                parent: ix,
                test: DestinyTest::default(),
            },
            p,
            None,
            format!("{}'s destiny draw for {label}", p.name()),
        );
        e.next = p.other();
        self.stack.push(e);
        self.log(
            actor(p),
            Event::Push,
            format!("{label}: step 3: {} draws duel destiny", p.name()),
            &[DUELING],
        );
        Applied::Pushed
    }

    /// A duel destiny was drawn for the duel at `ix`.
    pub(super) fn duel_drawn(&mut self, ix: usize, value: Option<i64>) {
        let Some(d) = self.stack[ix].duel.as_mut() else {
            return;
        };
        if let Some(i) = (0..2).find(|&i| d.drawn[i].len() < d.draws[i] as usize) {
            d.drawn[i].push(Some(value.unwrap_or(0)));
        }
        self.stack[ix].pending.push_front(Effect::DuelDraws);
    }

    /// A duel destiny draw for the duel at `ix` was canceled: it counts as drawn and
    /// adds nothing to its player's total, unless it is to be redrawn (the redraw
    /// counts instead); the duel goes on with the next draw.
    pub(super) fn duel_draw_canceled(&mut self, ix: usize, p: Side, redraw: bool) {
        let label = self.stack[ix].label.clone();
        let Some(d) = self.stack[ix].duel.as_mut() else {
            return;
        };
        if !redraw && let Some(i) = (0..2).find(|&i| d.drawn[i].len() < d.draws[i] as usize) {
            d.drawn[i].push(None);
        }
        self.stack[ix].pending.push_front(Effect::DuelDraws);
        let what = if redraw {
            "is redrawn; the redraw counts instead"
        } else {
            "counts as drawn and adds nothing to the total"
        };
        self.log(
            actor(p),
            Event::Result,
            format!("{label}: {}'s canceled duel destiny {what}", p.name()),
            &[DUELING, super::values::cite::CANCELED_REDRAWN],
        );
    }

    /// What duelist `c` adds to its destinies (the duel card's terms), and the words.
    fn duelist_adds(&self, c: CardIx, def: &DuelDef) -> (i64, String) {
        let base = match def.add {
            DuelAdd::Ability => self.st.def(c).stats.ability.unwrap_or(0),
            DuelAdd::Power => super::card_values::value(&self.st, c, "power").or_zero(),
        };
        let mut words = format!("{} {base}", def.add.as_str());
        let mut total = base;
        if let Some(b) = &def.armed {
            let owner = self.st.owner(c);
            let weapon = self.st.cards_on(c).into_iter().find(|&w| {
                self.st.def(w).card_type == crate::engine::swccg::model::CardType::Weapon
                    && self.st.matches(w, &b.weapon, owner)
            });
            if let Some(w) = weapon {
                total += b.power;
                words.push_str(&format!(" {:+} (armed with {})", b.power, self.name(w)));
            }
        }
        (total, words)
    }

    /// Totals (destinies + ability), the winner, and step 4: the duel card's result.
    fn duel_result(&mut self, ix: usize) {
        let first = self.stack[ix].actor;
        let Some(d) = self.stack[ix].duel.clone() else {
            return;
        };
        let total = |i: usize| -> (i64, String) {
            let c = d.duelists[i];
            let (adds, words) = self.duelist_adds(c, &d.def);
            let sum: i64 = d.drawn[i].iter().flatten().sum();
            let parts = d.drawn[i]
                .iter()
                .map(|v| v.map_or_else(|| "canceled".to_string(), |v| v.to_string()))
                .collect::<Vec<_>>()
                .join(" + ");
            (
                sum + adds,
                format!(
                    "{}: destiny {parts} + {words} = {}",
                    self.name(c),
                    sum + adds
                ),
            )
        };
        let ((ta, sa), (tb, sb)) = (total(0), total(1));
        let winner = match ta.cmp(&tb) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        let label = self.stack[ix].label.clone();
        let said = match winner {
            Some(i) => format!(
                "{} ({}) wins the duel",
                self.name(d.duelists[i]),
                side_of_ix(first, i).name()
            ),
            None => "a tie: neither duelist wins".into(),
        };
        self.log(
            Actor::Rules,
            Event::Result,
            format!("{label}: {sa}; {sb}: {said}"),
            &[DUELING],
        );
        let result = match winner {
            Some(0) => d.def.if_yours_wins.clone(),
            Some(_) => d.def.if_theirs_wins.clone(),
            None => Vec::new(),
        };
        if result.is_empty() {
            self.log(
                Actor::Rules,
                Event::Result,
                format!("{label}: step 4: the duel card states no result for this outcome"),
                &[DUELING],
            );
        }
        if let Some(i) = winner {
            // The result may name the winner and the loser.
            self.stack[ix]
                .targets
                .push(("winner".into(), Tgt::Card(d.duelists[i])));
            self.stack[ix]
                .targets
                .push(("loser".into(), Tgt::Card(d.duelists[1 - i])));
        }
        for e in result.into_iter().rev() {
            self.stack[ix].pending.push_front(e);
        }
        if let Some(i) = winner {
            let s = side_of_ix(first, i);
            self.numbers
                .push((format!("{label}.winner"), s.as_str().into()));
            self.stack[ix].pending.push_back(Effect::DuelWon(i));
        }
    }

    /// Steps 5 and 6: the duel just won, open to automatic, then optional, responses.
    pub(super) fn duel_won(&mut self, ix: usize, i: usize) -> Applied {
        let first = self.stack[ix].actor;
        let Some(mut d) = self.stack[ix].duel.clone() else {
            return Applied::Done;
        };
        d.over = true;
        let s = side_of_ix(first, i);
        let c = d.duelists[i];
        let label = format!("{} won", self.stack[ix].label);
        let mut e = Entry::new(ActionKind::Triggered, s, Some(c), label.clone());
        e.duel = Some(d);
        self.stack.push(e);
        self.log(
            actor(s),
            Event::Push,
            format!(
                "{label}: {} just won the duel: step 5, automatic responses; step 6, optional responses",
                self.name(c)
            ),
            &[DUELING],
        );
        Applied::Pushed
    }

    /// "Add N to a destiny just drawn".
    pub(super) fn add_to_destiny(&mut self, ix: usize, n: i64) -> Applied {
        let me = self.stack[ix].actor;
        let label = self.stack[ix].label.clone();
        let Some(j) = self.stack[ix]
            .responding_to
            .filter(|&j| j < self.stack.len())
        else {
            return Applied::Done;
        };
        if let ActionKind::DestinyDrawn { value: Some(v), .. } = &mut self.stack[j].kind {
            *v += n;
            let now = *v;
            let drawn = self.stack[j].label.clone();
            self.log(
                actor(me),
                Event::StateChange,
                format!("{label}: {drawn}: destiny {n:+} = {now}"),
                &[super::rules::RESULT],
            );
        }
        Applied::Done
    }
}

fn side_of_ix(first: Side, i: usize) -> Side {
    if i == 0 { first } else { first.other() }
}
