//! Damage resolution: the pending damage, damage prevention, damage
//! placement and unit discard POPs (attacking steps 4 to 7), for attack
//! dice, Overkill, Deflect, dice of damage and direct damage alike.

use super::engine::{Answer, Engine, Flow, Rejection, reject};
use super::model::{Effect, Instead, Kind, Side, Step, Timing, Trigger, Verb, WouldEvent};
use super::rules as r;
use super::state::PieceIx;
use crate::engine::{Event, NeedKind};

/// Where damage comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DmgKind {
    AttackDice,
    Overkill,
    Deflect,
    DiceOfDamage,
    Direct,
}

/// One instance of pending damage to one unit.
#[derive(Debug, Clone)]
pub struct Instance {
    pub unit: PieceIx,
    pub amount: i64,
    pub prevented: i64,
    pub kind: DmgKind,
    pub source: Option<PieceIx>,
    /// The attack roll showed a natural 1 (Parry).
    pub natural_one: bool,
    pub evades: usize,
    pub deflects: usize,
    /// Damage counters placed.
    pub placed: i64,
    /// Evade can't be used to prevent it ("your opponent can't use Evade to
    /// prevent that damage").
    pub no_evade: bool,
}

impl Instance {
    pub fn new(unit: PieceIx, amount: i64, kind: DmgKind, source: Option<PieceIx>) -> Self {
        Instance {
            unit,
            amount,
            prevented: 0,
            kind,
            source,
            natural_one: false,
            evades: 0,
            deflects: 0,
            placed: 0,
            no_evade: false,
        }
    }
    pub fn left(&self) -> i64 {
        (self.amount - self.prevented).max(0)
    }
}

impl Engine<'_> {
    /// Whether Evade is barred for this damage: by the effect that does it,
    /// or because its source's opponent "can't use Evade to prevent damage
    /// from" it for this attack.
    fn evade_barred(&self, i: &Instance) -> bool {
        i.no_evade || i.source.is_some_and(|s| self.st.no_evade_from.contains(&s))
    }
}

/// Damage created by Deflect, resolved after the damage it came from.
struct Deflected {
    from: PieceIx,
    to: PieceIx,
    amount: i64,
}

fn find(inst: &[Instance], p: PieceIx) -> Option<usize> {
    inst.iter().position(|i| i.unit == p && i.left() > 0)
}

impl<'a> Engine<'a> {
    /// Resolve pending damage through steps 4 to 7; returns the instances with what was placed.
    pub fn resolve_damage(&mut self, mut inst: Vec<Instance>) -> Flow<Vec<Instance>> {
        inst.retain(|i| i.amount > 0 && self.st.damageable(i.unit));
        if inst.is_empty() {
            return Ok(inst);
        }
        self.level += 1;
        for i in &inst {
            let t = format!("pending damage: {} to {}", i.amount, self.st.label(i.unit));
            self.rules(Event::Result, t, &[r::ATTACKING, r::G_DAMAGE]);
        }
        // Prevention doesn't work in the build zone: only damage to units in
        // an arena goes through the damage prevention POP.
        let (mut inst, mut zone): (Vec<_>, Vec<_>) =
            inst.into_iter().partition(|i| self.st.in_arena(i.unit));
        if !zone.is_empty() {
            let t = "damage to a unit in the build zone can't be prevented".to_string();
            self.rules(Event::Result, t, &[r::G_PREVENT, r::BUILD_ZONE]);
        }
        let (keep, sure): (Vec<_>, Vec<_>) = inst.into_iter().partition(|i| {
            i.source.is_none_or(|s| {
                self.st.pieces[s].stack.is_empty() || !self.st.top_def(s).unpreventable
            })
        });
        inst = keep;
        for i in &sure {
            let src = i.source.map_or(String::new(), |s| self.st.label(s));
            let t = format!(
                "damage from {src} can't be prevented: {} to {}",
                i.amount,
                self.st.label(i.unit)
            );
            self.rules(Event::Result, t, &[r::G_PREVENT, r::EFFECTS]);
        }
        zone.extend(sure);
        let mut prevented = self.prevent_all_to_and_from(&mut inst);
        prevented.extend(self.parry(&mut inst));
        prevented.extend(self.arena_prevention(&mut inst));
        self.prevented_triggers(&prevented)?;
        let deflected = self.prevention(&mut inst)?;
        inst.extend(zone);
        self.place(&mut inst);
        self.discards(&inst)?;
        self.damage_triggers(&inst)?;
        self.level -= 1;
        for d in deflected {
            if self.st.in_arena(d.to) {
                let t = format!(
                    "{} deflects {} damage to {}",
                    self.st.label(d.from),
                    d.amount,
                    self.st.label(d.to)
                );
                self.rules(Event::Result, t, &[r::DEFLECT]);
                self.resolve_damage(vec![Instance::new(
                    d.to,
                    d.amount,
                    DmgKind::Deflect,
                    Some(d.from),
                )])?;
            }
        }
        Ok(inst)
    }

    /// "Prevent all damage to and done by this unit": a static prevention,
    /// for each damage to such a unit or from one in play.
    fn prevent_all_to_and_from(&mut self, inst: &mut [Instance]) -> Vec<PieceIx> {
        let mut prevented = Vec::new();
        for i in inst.iter_mut() {
            let stops = |p: PieceIx| {
                !self.st.pieces[p].stack.is_empty() && self.st.top_def(p).prevents_all_damage
            };
            let by = if stops(i.unit) {
                i.unit
            } else if let Some(s) = i.source.filter(|&s| stops(s)) {
                s
            } else {
                continue;
            };
            let n = i.left();
            i.prevented += n;
            prevented.push(i.unit);
            let t = format!(
                "{}: all damage to and done by it is prevented: {n} to {}",
                self.st.label(by),
                self.st.label(i.unit)
            );
            self.rules(Event::Result, t, &[r::G_PREVENT, r::EFFECTS]);
        }
        prevented
    }

    /// Parry: triggered first in the damage prevention POP, against attack dice with a natural 1.
    fn parry(&mut self, inst: &mut [Instance]) -> Vec<PieceIx> {
        let mut prevented = Vec::new();
        for i in inst.iter_mut() {
            if i.kind != DmgKind::AttackDice || !i.natural_one || i.source == Some(i.unit) {
                continue;
            }
            let Some(x) = self.st.totals(i.unit).kw.parry else {
                continue;
            };
            let n = x.min(i.left()).max(0);
            i.prevented += n;
            if n > 0 {
                prevented.push(i.unit);
            }
            let t = format!(
                "Parry {x} (triggered, before activated prevention): the attack roll shows a natural 1; {n} damage to {} prevented",
                self.st.label(i.unit)
            );
            let cites = [r::PARRY, r::G_NATURAL, r::POP, r::ORDER_OF_OPERATIONS];
            self.rules(Event::Result, t, &cites);
        }
        prevented
    }

    /// "Whenever damage to one of your units is prevented": once for each
    /// use of prevention that prevented some damage, in order.
    fn prevented_triggers(&mut self, units: &[PieceIx]) -> Flow<()> {
        for &u in units {
            self.fire(Trigger::Prevents, None, Some(u))?;
        }
        Ok(())
    }

    /// Whether a side can prevent any of the pending damage.
    fn can_prevent(&self, inst: &[Instance], s: Side) -> bool {
        let mine = inst
            .iter()
            .any(|i| i.left() > 0 && self.st.pieces[i.unit].side == s && self.st.in_arena(i.unit));
        if !mine {
            return false;
        }
        inst.iter().any(|i| {
            if i.left() == 0 || self.st.pieces[i.unit].side != s {
                return false;
            }
            let kw = self.st.totals(i.unit).kw;
            let force = self.st.player(self.st.pid_of(i.unit)).force;
            let affords = |costs: &[i64], k: usize| costs.get(k).is_some_and(|&c| c <= force);
            (affords(&kw.evade_cost, i.evades) && !kw.cant_use_evade && !self.evade_barred(i))
                || affords(&kw.deflect_cost, i.deflects)
        }) || self.prevention_cards(s)
            || self.can_play(s, Timing::Prevention, None)
    }

    /// Whether the controller of `u` can pay a keyword ability's Force cost.
    pub(super) fn affords(
        &self,
        u: PieceIx,
        cost: i64,
        rule: &'static str,
    ) -> Result<(), Rejection> {
        let force = self.st.player(self.st.pid_of(u)).force;
        if cost > force {
            return Err(reject(
                format!("this ability costs {cost} Force and its controller has {force}"),
                &[r::G_PAY, rule],
            ));
        }
        Ok(())
    }

    fn prevention_cards(&self, s: Side) -> bool {
        self.st
            .pids(s)
            .into_iter()
            .any(|w| self.prevention_cards_of(w))
    }

    fn prevention_cards_of(&self, w: super::state::Pid) -> bool {
        let pl = self.st.player(w);
        pl.hand.iter().any(|&c| {
            let d = self.st.def(c);
            d.kind == Kind::Battle
                && d.abilities.iter().any(|a| {
                    a.activated
                        .as_ref()
                        .is_some_and(|x| x.timing == Timing::Prevention && x.cost.force <= pl.force)
                })
        })
    }

    fn judge_prevent(&self, inst: &[Instance], s: Side, st: &Step) -> Result<(), Rejection> {
        match st.verb() {
            Verb::Evade | Verb::Deflect => {
                let Some(u) = self.unit_of(st) else {
                    return Err(reject("name the unit (`unit:`)", &[r::POP]));
                };
                if self.st.pieces[u].side != s {
                    return Err(reject(
                        "only a unit's controller plays its abilities",
                        &[r::PRIMARY_RULES],
                    ));
                }
                let Some(i) = find(inst, u) else {
                    return Err(reject(
                        format!("no damage is pending to {}", self.st.label(u)),
                        &[r::G_PREVENT],
                    ));
                };
                let kw = self.st.totals(u).kw;
                if st.verb() == Verb::Evade {
                    if kw.cant_use_evade {
                        return Err(reject(
                            "this unit can't use Evade",
                            &[r::G_CANT_USE, r::PRIMARY_RULES],
                        ));
                    }
                    if self.evade_barred(&inst[i]) {
                        return Err(reject(
                            "Evade can't be used to prevent this damage (other prevention can)",
                            &[r::G_CANT_USE, r::EVADE],
                        ));
                    }
                    if kw.evade.is_empty() {
                        return Err(reject(
                            format!("{} has no Evade ability", self.st.label(u)),
                            &[r::EVADE, r::KEYWORDS],
                        ));
                    }
                    if inst[i].evades >= kw.evade.len() {
                        return Err(reject(
                            "Evade can be played only once for each instance of damage",
                            &[r::EVADE],
                        ));
                    }
                    if st
                        .amount
                        .is_some_and(|a| a < 1 || a > kw.evade[inst[i].evades])
                    {
                        return Err(reject("Evade X prevents up to X damage", &[r::EVADE]));
                    }
                    self.affords(u, kw.evade_cost[inst[i].evades], r::EVADE)?;
                } else {
                    if inst[i].deflects >= kw.deflect.len() {
                        return Err(reject(
                            "each Deflect is played once for this damage",
                            &[r::DEFLECT, r::DUPLICATES],
                        ));
                    }
                    self.affords(u, kw.deflect_cost[inst[i].deflects], r::DEFLECT)?;
                    if let Some(t) = self.target_of(st)
                        && self.st.arena_of(t) != self.st.arena_of(u)
                    {
                        return Err(reject(
                            "Deflect does damage to a unit in the same arena",
                            &[r::DEFLECT],
                        ));
                    }
                }
                Ok(())
            }
            Verb::Play => {
                self.judge_card(s, st, Timing::Prevention)
                    .and_then(|_| match self.target_of(st) {
                        Some(t) if find(inst, t).is_some() => Ok(()),
                        _ => Err(reject(
                            "prevent damage to a unit with damage pending (`target:`)",
                            &[r::G_PREVENT],
                        )),
                    })
            }
            Verb::Deploy => Err(reject(
                "\"anytime\" effects such as Hidden Cost can't be played during damage prevention, reroll and disrupt POP chances",
                &[r::G_ANYTIME, r::HIDDEN_COST, r::POP],
            )),
            _ => Err(reject(
                "during the damage prevention POP: evade, deflect, play or pass",
                &[r::POP],
            )),
        }
    }

    /// The damage prevention POP: activated prevention, Dark Side first.
    fn prevention(&mut self, inst: &mut Vec<Instance>) -> Flow<Vec<Deflected>> {
        let mut out = Vec::new();
        let cell = std::cell::RefCell::new(std::mem::take(inst));
        {
            let opts = |e: &Engine, s: Side| e.can_prevent(&cell.borrow(), s);
            let judge = |e: &Engine, s: Side, st: &Step| e.judge_prevent(&cell.borrow(), s, st);
            let mut play = |e: &mut Engine<'a>, s: Side, st: &Step| -> Flow<()> {
                let prevented = e.play_prevention(&mut cell.borrow_mut(), s, st, &mut out);
                e.prevented_triggers(&prevented)
            };
            self.pop(
                "damage prevention POP",
                &[r::POP, r::ATTACKING, r::G_PREVENT],
                &opts,
                &judge,
                &mut play,
            )?;
        }
        *inst = cell.into_inner();
        Ok(out)
    }

    /// Play a prevention; returns the units whose damage it prevented.
    fn play_prevention(
        &mut self,
        inst: &mut [Instance],
        s: Side,
        st: &Step,
        out: &mut Vec<Deflected>,
    ) -> Vec<PieceIx> {
        match st.verb() {
            Verb::Evade | Verb::Deflect => {
                let Some(u) = self.unit_of(st) else {
                    return Vec::new();
                };
                let Some(i) = find(inst, u) else {
                    return Vec::new();
                };
                let kw = self.st.totals(u).kw;
                let evade = st.verb() == Verb::Evade;
                let x = if evade {
                    kw.evade[inst[i].evades]
                } else {
                    kw.deflect[inst[i].deflects]
                };
                let n = if evade {
                    st.amount.unwrap_or(x).min(inst[i].left())
                } else {
                    x.min(inst[i].left())
                };
                let cost = if evade {
                    kw.evade_cost[inst[i].evades]
                } else {
                    kw.deflect_cost[inst[i].deflects]
                };
                if cost > 0 {
                    let w = self.st.pid_of(u);
                    self.st.player_mut(w).force -= cost;
                    let t = format!(
                        "{} pays {cost} Force for the ability ({} left)",
                        self.st.who(w),
                        self.st.player(w).force
                    );
                    self.by(s, Event::StateChange, t, &[r::G_PAY, r::KEYWORDS]);
                }
                inst[i].prevented += n;
                let name = if evade { "Evade" } else { "Deflect" };
                if evade {
                    inst[i].evades += 1;
                } else {
                    inst[i].deflects += 1;
                }
                let label = format!("{}:{}", st.verb().as_str(), self.st.key(u));
                self.resolved.push(label);
                let t = format!(
                    "{} plays {name} {x}: {n} damage prevented",
                    self.st.label(u)
                );
                self.by(
                    s,
                    Event::Result,
                    t,
                    &[if evade { r::EVADE } else { r::DEFLECT }, r::G_PREVENT],
                );
                if !evade
                    && n > 0
                    && let Some(t) = self.target_of(st)
                {
                    out.push(Deflected {
                        from: u,
                        to: t,
                        amount: n,
                    });
                }
                if n > 0 { vec![u] } else { Vec::new() }
            }
            Verb::Play => {
                let Some(t) = self.target_of(st) else {
                    return Vec::new();
                };
                let Some(i) = find(inst, t) else {
                    return Vec::new();
                };
                let (act, played) = if let Some(u) = self.unit_of(st) {
                    let act = self.pay_ability(s, u, st.ability.unwrap_or(1), Some(t));
                    if let Some(x) = act.as_ref().and_then(|a| a.enhance.as_ref())
                        && st.enhance
                    {
                        let w = self.st.pid_of(u);
                        self.st.player_mut(w).force -= x.cost.force;
                    }
                    (act, format!("ability:{}", self.st.key(u)))
                } else {
                    let Some(c) = st.card().and_then(|k| self.st.find(k)) else {
                        return Vec::new();
                    };
                    let act = self.card_activated(c);
                    self.pay_card(s, c, st.enhance);
                    (act, format!("play:{}", self.st.keys[c]))
                };
                let mut total = 0;
                for e in act
                    .map(|a| super::effects::enhanced(&a, st.enhance))
                    .unwrap_or_default()
                {
                    let n = match e {
                        Effect::Prevent(n) => n,
                        Effect::PreventAll => inst[i].left(),
                        _ => 0,
                    };
                    if n > 0 {
                        let n = n.min(inst[i].left());
                        inst[i].prevented += n;
                        total += n;
                        let txt = format!("{n} damage to {} prevented", self.st.label(t));
                        self.by(s, Event::Result, txt, &[r::G_PREVENT]);
                    }
                    if matches!(e, Effect::GainForcePrevented) {
                        let w = (self.unit_of(st))
                            .map_or(super::state::Pid::from(s), |u| self.st.pid_of(u));
                        self.st.player_mut(w).force += total;
                        let txt = format!(
                            "{} gains {total} Force, the damage prevented ({} now)",
                            self.st.who(w),
                            self.st.player(w).force
                        );
                        self.rules(Event::StateChange, txt, &[r::G_GAIN_LOSE, r::G_PREVENT]);
                    }
                }
                self.resolved.push(played);
                if total > 0 { vec![t] } else { Vec::new() }
            }
            _ => Vec::new(),
        }
    }

    /// Damage placement: counters for damage not prevented; Stun.
    fn place(&mut self, inst: &mut [Instance]) {
        for i in inst.iter_mut() {
            let n = i.left();
            if n == 0 || !self.st.damageable(i.unit) {
                let t = format!("no damage counters placed on {}", self.st.label(i.unit));
                self.rules(Event::Result, t, &[r::ATTACKING, r::G_DAMAGE_COUNTER]);
                continue;
            }
            self.st.pieces[i.unit].damage += n;
            i.placed = n;
            let t = format!(
                "{n} damage counter{} placed on {} ({} in all)",
                if n == 1 { "" } else { "s" },
                self.st.label(i.unit),
                self.st.pieces[i.unit].damage
            );
            self.rules(Event::StateChange, t, &[r::ATTACKING, r::G_DAMAGE_COUNTER]);
            let Some(src) = i.source else { continue };
            if src == i.unit {
                continue;
            }
            if let Some(x) = self.st.totals(src).kw.stun {
                self.st.pieces[i.unit].power_mod -= x;
                let t = format!(
                    "Stun {x}: {} gets -{x} power until end of battle",
                    self.st.label(i.unit)
                );
                self.rules(Event::StateChange, t, &[r::STUN, r::G_DAMAGE_DONE]);
            }
        }
    }

    /// Prevention lasting this turn for a side's units in an arena: each
    /// effect prevents its N of each damage to each such unit.
    fn arena_prevention(&mut self, inst: &mut [Instance]) -> Vec<PieceIx> {
        let mut prevented = Vec::new();
        for (s, a, n) in self.arena_prevention.clone() {
            for i in inst.iter_mut() {
                let p = n.min(i.left());
                if p > 0 && self.st.pieces[i.unit].side == s && self.st.arena_of(i.unit) == Some(a)
                {
                    i.prevented += p;
                    prevented.push(i.unit);
                    let t = format!(
                        "{p} of the damage to {} prevented (this turn, in the {} arena)",
                        self.st.label(i.unit),
                        a.title()
                    );
                    self.rules(Event::Result, t, &[r::G_PREVENT, r::G_THIS_TURN]);
                }
            }
        }
        prevented
    }

    /// "When this unit damages a [unit]": for each unit a source in an arena
    /// put damage counters on, once, however many.
    fn damage_triggers(&mut self, inst: &[Instance]) -> Flow<()> {
        for i in inst.iter().filter(|i| i.placed > 0) {
            let Some(src) = i.source.filter(|&u| self.st.in_arena(u)) else {
                continue;
            };
            let trig: Vec<_> = (self.st.top_def(src).abilities.iter())
                .filter_map(|a| a.triggered.clone())
                .filter(|t| {
                    t.when == Trigger::Damages
                        && t.of
                            .as_ref()
                            .is_none_or(|f| self.st.matches(f, src, i.unit))
                })
                .collect();
            for t in trig {
                let txt = format!(
                    "{} damaged {}: \"when this unit damages\" resolves",
                    self.st.label(src),
                    self.st.label(i.unit)
                );
                self.rules(Event::Push, txt, &[r::G_DAMAGE_DONE, r::USING_EFFECTS]);
                let w = self.st.pid_of(src);
                let ctx = super::effects::Ctx::default();
                self.run_effects(w, Some(src), &t.effects, None, ctx)?;
            }
        }
        Ok(())
    }

    /// Unit discard: a unit whose damage counters reach its health is discarded.
    pub fn discards(&mut self, inst: &[Instance]) -> Flow<()> {
        for i in inst {
            self.discard_check(i.unit, i.source)?;
        }
        Ok(())
    }

    /// A replacement effect on the unit ("if this unit would be discarded,
    /// instead …"): the discard does not occur, and nothing that triggers on
    /// it (Bounty, "when this unit is discarded") triggers. One with a cost
    /// ("you may pay …; if you do, … instead") is its controller's choice, in
    /// the damage placement POP, and only if the cost can be paid in full.
    fn replace_discard(&mut self, u: PieceIx) -> Flow<bool> {
        let Some(rep) = self
            .st
            .top_def(u)
            .abilities
            .iter()
            .find_map(|a| a.replacement.clone())
            .filter(|x| x.would == WouldEvent::Discarded)
        else {
            return Ok(false);
        };
        let label = self.st.label(u);
        if let Some(cost) = rep.cost {
            let w = self.st.pid_of(u);
            let pl = self.st.player(w);
            if cost.force > pl.force || cost.build > pl.build {
                let t = format!(
                    "{label}'s replacement effect costs {} Force and {} build: {} can't pay it in full, so the discard occurs",
                    cost.force,
                    cost.build,
                    self.st.who(w)
                );
                self.rules(
                    Event::Result,
                    t,
                    &[r::G_REPLACEMENT, r::EFFECT_TYPES, r::G_PAY],
                );
                return Ok(false);
            }
            let judge = move |e: &Engine, st: &Step| match (st.verb(), e.unit_of(st)) {
                (Verb::Pass, _) => Ok(()),
                (Verb::Play, Some(x)) if x == u => e.payer(w, st),
                _ => Err(reject(
                    "play the unit's replacement effect (`play`, `unit:`) or pass",
                    &[r::G_REPLACEMENT, r::ATTACKING],
                )),
            };
            let what = format!("pay to replace the discard of {label}");
            match self.ask(w.side, NeedKind::Choice, &what, true, &judge)? {
                Answer::Pass => return Ok(false),
                Answer::Do(_) => {
                    let pl = self.st.player_mut(w);
                    pl.force -= cost.force;
                    pl.build -= cost.build;
                    let t = format!(
                        "{} pays {} Force and {} build for {label}'s replacement effect",
                        self.st.who(w),
                        cost.force,
                        cost.build
                    );
                    self.by(w.side, Event::Initiate, t, &[r::G_REPLACEMENT, r::G_PAY]);
                }
            }
        }
        let done = match rep.instead {
            Instead::ReturnToHand => {
                self.st.return_to_hand(u);
                "it returns to its owner's hand with all cards stacked with it"
            }
            Instead::RemoveDamage => {
                self.st.pieces[u].damage = 0;
                "all its damage counters are removed and it stays in play"
            }
        };
        self.resolved.push(format!(
            "replaced:{}",
            self.st.keys[self.st.pieces[u].stack[0]]
        ));
        let t = format!(
            "{label} would be discarded; instead {done} (the discard never occurs: nothing triggers from it)"
        );
        self.rules(
            Event::StateChange,
            t,
            &[r::G_REPLACEMENT, r::G_WHEN_DISCARDED, r::G_OWNER],
        );
        Ok(true)
    }

    /// Discard a unit if its damage counters reach its health; Bounty for the source.
    pub fn discard_check(&mut self, u: PieceIx, source: Option<PieceIx>) -> Flow<()> {
        if !self.st.damageable(u) {
            return Ok(());
        }
        let h = self.st.totals(u).health;
        if self.st.pieces[u].damage < h {
            return Ok(());
        }
        let label = self.st.label(u);
        let key = self.st.key(u).to_string();
        if self.replace_discard(u)? {
            return Ok(());
        }
        let (top, from, w) = (self.st.top(u), self.st.arena_of(u), self.st.pid_of(u));
        self.st.discard_piece(u);
        self.resolved.push(format!("discard:{key}"));
        let t = format!("{label} has damage counters equal to its health ({h}) and is discarded");
        self.rules(
            Event::StateChange,
            t,
            &[r::ATTACKING, r::ATTACK_SUMMARY, r::G_DISCARD],
        );
        if let Some(src) = source
            && src != u
        {
            let kw = self.st.totals(src).kw;
            let w = self.st.pid_of(src);
            for b in kw.bounty {
                let pl = self.st.player_mut(w);
                pl.bounty.build += b.build;
                pl.bounty.force += b.force;
                let t = format!(
                    "Bounty: {} gains {} Force and {} build points when its next build step starts",
                    self.st.who(w),
                    b.force,
                    b.build
                );
                self.rules(Event::StateChange, t, &[r::BOUNTY]);
            }
        }
        if let Some(from) = from {
            self.discarded_triggers(top, from, w)?;
        }
        Ok(())
    }
}
