//! Attacking, in eight steps, each play-or-pass chance Dark Side first:
//! declare (disrupt POP), attack POP, dice roll (reroll) POP, pending
//! damage, damage prevention, damage placement, unit discard, attack end.

use super::damage::{DmgKind, Instance};
use super::effects::Ctx;
use super::engine::{Answer, AttackRecord, Engine, Flow, Rejection, reject};
use super::model::{Arena, Cost, Effect, Side, Step, Timing, Verb};
use super::rules as r;
use super::state::PieceIx;
use crate::engine::{Event, NeedKind};

/// An effect waiting for the attack to end.
#[derive(Debug, Clone)]
enum Waiting {
    Retaliate {
        unit: PieceIx,
        x: i64,
    },
    Effects {
        side: Side,
        unit: PieceIx,
        effects: Vec<Effect>,
    },
}

/// How an attack comes about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// Declared in speed order: the unit taps.
    Declared,
    /// Double Strike: it does not tap.
    DoubleStrike,
    /// Another attack an effect makes when the unit's attack ends: it does
    /// not tap or untap.
    Chained,
}

/// One attack in progress.
struct Attack {
    attacker: PieceIx,
    defender: PieceIx,
    /// Every unit that has been attacked in this attack (intercepts).
    attacked: Vec<PieceIx>,
    waiting: Vec<Waiting>,
    retaliated: Vec<(PieceIx, usize)>,
    rec: usize,
}

impl<'a> Engine<'a> {
    /// Units `a` can attack: opposing units in its arena (or, with Bombard / Ion Cannon,
    /// the Ground / Space arena); not an untapped unit with Stealth.
    pub fn targets(&self, a: PieceIx) -> Vec<PieceIx> {
        let Some(arena) = self.st.arena_of(a) else {
            return Vec::new();
        };
        if self.cant_attack.contains(&a) {
            return Vec::new();
        }
        let kw = self.st.totals(a).kw;
        let mut arenas = vec![arena];
        if arena == Arena::Space && kw.bombard.is_some() {
            arenas.push(Arena::Ground);
        }
        if arena == Arena::Ground && kw.ion_cannon.is_some() {
            arenas.push(Arena::Space);
        }
        let side = self.st.pieces[a].side;
        if let Some(x) = self.may_attack[side.ix()]
            && !arenas.contains(&x)
        {
            arenas.push(x);
        }
        let mut out: Vec<PieceIx> = arenas
            .into_iter()
            .flat_map(|x| self.st.units_in(x, side.other()))
            .collect();
        if self.st.top_def(a).attacks_own {
            // "Your other units": in Two-Headed Wookiee only its own player's.
            out.extend(
                self.st
                    .units_in(arena, side)
                    .into_iter()
                    .filter(|&u| u != a && self.st.is_you(a, side, self.st.pieces[u].player)),
            );
        }
        out.retain(|&d| self.st.pieces[d].tapped || !self.st.totals(d).kw.stealth);
        out.retain(|&d| !self.unattackable(d));
        out
    }

    /// One attack: `double` for a Double Strike attack (the unit does not tap).
    pub fn attack(&mut self, attacker: PieceIx, defender: PieceIx, how: How) -> Flow<()> {
        let side = self.st.pieces[attacker].side;
        let double = how != How::Declared;
        if !double {
            self.st.pieces[attacker].tapped = true;
        }
        if self.may_attack[side.ix()].take().is_some() {
            self.rules(
                Event::StateChange,
                "\"the next time one of your units would attack\": this is that attack",
                &[r::G_MAY_ATTACK],
            );
        }
        self.attacks.push(AttackRecord {
            attacker: self.st.key(attacker).to_string(),
            defender: self.st.key(defender).to_string(),
            ..Default::default()
        });
        self.attack_order.push(self.st.key(attacker).to_string());
        let t = format!(
            "{} {} {}{}",
            self.st.label(attacker),
            if how == How::DoubleStrike {
                "double strikes"
            } else {
                "attacks"
            },
            self.st.label(defender),
            if double {
                " (it does not tap or untap)"
            } else {
                " (it taps)"
            }
        );
        // A card that lets a unit attack its own side's unit, or another arena
        // without Bombard or Ion Cannon, overrides the written rules.
        let own = self.st.pieces[defender].side == side;
        let other_arena = self.st.arena_of(attacker) != self.st.arena_of(defender)
            && self.st.totals(attacker).kw.bombard.is_none()
            && self.st.totals(attacker).kw.ion_cannon.is_none();
        let cites: &[&str] = match (how, own || other_arena) {
            (How::DoubleStrike, _) => &[r::ATTACKING, r::DOUBLE_STRIKE],
            (How::Chained, _) => &[r::ATTACKING, r::PRIMARY_RULES],
            (How::Declared, true) => &[r::ATTACKING, r::G_TAP, r::PRIMARY_RULES],
            (How::Declared, false) => &[r::ATTACKING, r::G_TAP],
        };
        self.by(side, Event::Initiate, t, cites);
        self.fire(super::model::Trigger::Attacks, Some(side), Some(attacker))?;
        let mut at = Attack {
            attacker,
            defender,
            attacked: vec![defender],
            waiting: Vec::new(),
            retaliated: Vec::new(),
            rec: self.attacks.len() - 1,
        };
        self.level += 1;
        self.st.attack = Some((attacker, defender));
        let go = self.attack_steps(&mut at);
        self.st.attack = None;
        let go = go?;
        if go {
            self.st.last_attack = Some((attacker, self.attacks[at.rec].hits));
        }
        if go {
            self.attack_end(&mut at)?;
        }
        self.st.attack_bonuses.clear();
        self.st.no_evade_from.clear();
        self.st.attack_dice = None;
        self.st.discard_if_damaged = false;
        self.level -= 1;
        for &d in &at.attacked {
            self.attacked_turn.push((attacker, d));
        }
        if go && self.attacks[at.rec].dealt == 0 {
            self.no_damage_triggers(attacker)?;
        }
        if go && self.chained.contains(&attacker) {
            // The next attack replaces Double Strike: the unit has not tapped for it.
            return self.chained_attack(attacker);
        }
        if go && !double {
            self.double_strike(attacker)?;
        }
        Ok(())
    }

    /// "Whenever any of your other units attacks but does no damage": the
    /// abilities naming the attacker, when its attack ends.
    fn no_damage_triggers(&mut self, a: PieceIx) -> Flow<()> {
        for q in 0..self.st.pieces.len() {
            if !self.st.in_arena(a) || !self.st.works(q, false) {
                continue;
            }
            let trig: Vec<_> = (self.st.top_def(q).abilities.iter())
                .filter_map(|x| x.triggered.clone())
                .filter(|t| {
                    t.when == super::model::Trigger::AttacksNoDamage
                        && t.of.as_ref().is_none_or(|f| self.st.matches(f, q, a))
                })
                .collect();
            for t in trig {
                let txt = format!(
                    "{} attacked but did no damage: {}'s ability resolves",
                    self.st.label(a),
                    self.st.label(q)
                );
                self.rules(Event::Push, txt, &[r::G_DAMAGE_DONE, r::USING_EFFECTS]);
                let w = self.st.pid_of(q);
                self.run_effects(w, Some(q), &t.effects, Some(a), Ctx::default())?;
            }
        }
        Ok(())
    }

    /// "When its attack ends, choose a unit it can attack but hasn't
    /// attacked this turn. It attacks that unit."
    fn chained_attack(&mut self, a: PieceIx) -> Flow<()> {
        if !self.st.in_arena(a) {
            return Ok(());
        }
        let units: Vec<PieceIx> = (self.targets(a).into_iter())
            .filter(|&t| !self.attacked_turn.contains(&(a, t)))
            .collect();
        if units.is_empty() {
            let t = format!(
                "{} has no unit it can attack that it hasn't attacked this turn",
                self.st.label(a)
            );
            self.rules(Event::Result, t, &[r::ATTACKING, r::G_CANT_ATTACK]);
            return Ok(());
        }
        let side = self.st.pieces[a].side;
        let why = format!(
            "{} attacks a unit it can attack but hasn't attacked this turn",
            self.st.label(a)
        );
        let cites = &[r::ATTACKING, r::G_CHOOSE];
        match self.choose_among(side, &units, "the unit it attacks next", why, cites)? {
            Some(t) => self.attack(a, t, How::Chained),
            None => Ok(()),
        }
    }

    /// Steps 1 to 7; false if the attack was disrupted.
    fn attack_steps(&mut self, at: &mut Attack) -> Flow<bool> {
        if self.disrupt_pop(
            Timing::DisruptAttack,
            "disrupt POP (declare attack)",
            &[r::ATTACKING, r::POP, r::G_DISRUPT],
        )? {
            self.attacks[at.rec].disrupted = true;
            self.rules(
                Event::Cancel,
                "the attack is disrupted: it never occurs and the unit stays tapped",
                &[r::ATTACKING, r::G_DISRUPT],
            );
            return Ok(false);
        }
        self.attack_pop(at)?;
        let (a, d) = (at.attacker, at.defender);
        if !self.st.in_arena(a) || !self.st.in_arena(d) {
            self.rules(
                Event::Result,
                "a unit left the arena during the attack POP: the attack ends (no hits)",
                &[r::ATTACKING, r::G_ROLLED_NO_HITS],
            );
            return Ok(true);
        }
        let (dice, hits) = self.dice_roll(a, d)?;
        self.attacks[at.rec].dice = dice.clone();
        self.attacks[at.rec].hits = hits;
        let inst = self.pending(a, d, &dice, hits)?;
        let done = self.resolve_damage(inst)?;
        self.attacks[at.rec].damage = done
            .iter()
            .filter(|i| i.unit == d && i.kind == DmgKind::AttackDice)
            .map(|i| i.placed)
            .sum();
        self.attacks[at.rec].dealt = (done.iter())
            .filter(|i| i.source == Some(a))
            .map(|i| i.placed)
            .sum();
        if self.st.discard_if_damaged && self.attacks[at.rec].damage > 0 && self.st.in_arena(d) {
            let t = format!(
                "{} damaged {}: the effect discards it",
                self.st.label(a),
                self.st.label(d)
            );
            let key = format!("discard:{}", self.st.key(d));
            self.st.discard_piece(d);
            self.resolved.push(key);
            self.rules(Event::StateChange, t, &[r::G_DAMAGE_DONE, r::G_DISCARD]);
        }
        Ok(true)
    }

    fn attack_pop_options(&self, at: &Attack, s: Side) -> bool {
        let d = at.defender;
        if self.can_play(s, Timing::General, None) {
            return true;
        }
        if s != self.st.pieces[d].side {
            return false;
        }
        self.can_play(s, Timing::WhenAttacked, Some(d))
            || (0..self.st.pieces.len()).any(|u| {
                self.judge_intercept(at, s, u, None).is_ok()
                    || self.judge_retaliate(at, s, u).is_ok()
            })
    }

    /// The Intercept copy a step uses. Intercept is selective: with copies of
    /// different costs the step chooses one (`ability:`, from 1: printed
    /// first, then Pilots, Equipment and granted copies); without a step
    /// (`step` None) the cheapest stands for whether any can be played.
    fn intercept_copy(&self, u: PieceIx, step: Option<&Step>) -> Result<Cost, Rejection> {
        let copies = self.st.totals(u).kw.intercept;
        let cheapest = copies.iter().copied().min_by_key(|c| (c.force, c.build));
        let Some(cheapest) = cheapest else {
            return Err(reject("the unit has no Intercept", &[r::INTERCEPT]));
        };
        match step.and_then(|st| st.ability) {
            Some(k) => copies.get(k.wrapping_sub(1)).copied().ok_or_else(|| {
                reject(
                    format!("the unit has {} Intercept abilities", copies.len()),
                    &[r::INTERCEPT, r::DUPLICATES],
                )
            }),
            None if step.is_some() && copies.iter().any(|c| *c != copies[0]) => Err(reject(
                "Intercept is selective: choose which copy to use (`ability:`)",
                &[r::DUPLICATES, r::INTERCEPT],
            )),
            None => Ok(cheapest),
        }
    }

    fn judge_intercept(
        &self,
        at: &Attack,
        s: Side,
        u: PieceIx,
        step: Option<&Step>,
    ) -> Result<(), Rejection> {
        let pc = &self.st.pieces[u];
        if pc.side != s || !self.st.in_arena(u) {
            return Err(reject("intercept with one of your units", &[r::INTERCEPT]));
        }
        let cost = self.intercept_copy(u, step)?;
        if u == at.defender || u == at.attacker {
            return Err(reject(
                "Intercept: one of your other units must be attacked; a unit may not intercept its own attack",
                &[r::INTERCEPT],
            ));
        }
        if self.st.arena_of(u) != self.st.arena_of(at.defender) {
            return Err(reject(
                "Intercept works for a unit attacked in the same arena",
                &[r::INTERCEPT],
            ));
        }
        if self.st.team && pc.player != self.st.pieces[at.defender].player {
            return Err(reject(
                "Intercept protects \"your other units\": in Two-Headed Wookiee only the units of the player who controls the interceptor",
                &[r::DISTINCTIONS, r::INTERCEPT],
            ));
        }
        if cost.force > self.st.player(self.st.pid_of(u)).force {
            return Err(reject("not enough Force for Intercept", &[r::G_PAY]));
        }
        Ok(())
    }

    fn judge_retaliate(&self, at: &Attack, s: Side, u: PieceIx) -> Result<(), Rejection> {
        if self.st.pieces[u].side != s || !at.attacked.contains(&u) {
            return Err(reject(
                "Retaliate: the unit must be one the attack is attacking",
                &[r::RETALIATE],
            ));
        }
        let n = self.st.totals(u).kw.retaliate.len();
        let used = at.retaliated.iter().filter(|(x, _)| *x == u).count();
        if used >= n {
            return Err(reject(
                "each Retaliate may be used once per attack",
                &[r::RETALIATE],
            ));
        }
        if self.st.arena_of(u) != self.st.arena_of(at.attacker) {
            return Err(reject(
                "Retaliate works against a unit attacking from the same arena",
                &[r::RETALIATE],
            ));
        }
        let cost = self.st.totals(u).kw.retaliate_cost[used];
        self.affords(u, cost, r::RETALIATE)
    }

    fn judge_attack_pop(&self, at: &Attack, s: Side, st: &Step) -> Result<(), Rejection> {
        let u = self.unit_of(st);
        match (st.verb(), u) {
            (Verb::Intercept, Some(u)) => self.judge_intercept(at, s, u, Some(st)),
            (Verb::Retaliate, Some(u)) => self.judge_retaliate(at, s, u),
            (Verb::Play, Some(u)) => {
                let k = st.ability.unwrap_or(1);
                let ab = self.st.top_def(u).abilities.get(k.wrapping_sub(1));
                let when_attacked = ab
                    .and_then(|a| a.activated.as_ref())
                    .is_some_and(|a| a.timing == Timing::WhenAttacked);
                match (when_attacked, u == at.defender) {
                    (true, true) => self.judge_card(s, st, Timing::WhenAttacked),
                    (true, false) => Err(reject(
                        "play only when this unit is attacked",
                        &[r::ATTACKING, r::EFFECT_TYPES],
                    )),
                    (false, _) => self.judge_card(s, st, Timing::General),
                }
            }
            (Verb::Play, None) => self.judge_card(s, st, Timing::General),
            _ => Err(reject(
                "during the attack POP: intercept, retaliate, play or pass (`unit:` names the unit)",
                &[r::ATTACKING, r::POP],
            )),
        }
    }

    /// Step 2: the attack POP (Intercept, Retaliate, "when attacked" abilities).
    fn attack_pop(&mut self, at: &mut Attack) -> Flow<()> {
        let cell = std::cell::RefCell::new(std::mem::replace(
            at,
            Attack {
                attacker: 0,
                defender: 0,
                attacked: vec![],
                waiting: vec![],
                retaliated: vec![],
                rec: 0,
            },
        ));
        let res = {
            let opts = |e: &Engine, s: Side| e.attack_pop_options(&cell.borrow(), s);
            let judge = |e: &Engine, s: Side, st: &Step| e.judge_attack_pop(&cell.borrow(), s, st);
            let mut play = |e: &mut Engine<'a>, s: Side, st: &Step| {
                let mut a = cell.borrow_mut();
                e.attack_pop_play(&mut a, s, st)
            };
            self.pop(
                "attack POP",
                &[r::ATTACKING, r::POP],
                &opts,
                &judge,
                &mut play,
            )
        };
        *at = cell.into_inner();
        res
    }

    fn attack_pop_play(&mut self, at: &mut Attack, s: Side, st: &Step) -> Flow<()> {
        let Some(u) = self.unit_of(st) else {
            return self.play(
                s,
                st,
                Ctx {
                    attacker: Some(at.attacker),
                    ..Ctx::default()
                },
            );
        };
        match st.verb() {
            Verb::Intercept => {
                let tax = self.st.attack_cost(u);
                let attacker_side = self.st.pieces[at.attacker].side;
                if tax > 0 {
                    let what = format!("to attack {}", self.st.label(u));
                    if !self.offer_payment(attacker_side, tax, &what)? {
                        let t = format!(
                            "{} can't be attacked unless its opponent pays: the Intercept does not take place, and {} is still the defender",
                            self.st.label(u),
                            self.st.label(at.defender)
                        );
                        self.rules(Event::Result, t, &[r::INTERCEPT, r::PRIMARY_RULES]);
                        return Ok(());
                    }
                }
                let cost = self.intercept_copy(u, Some(st)).unwrap_or_default();
                let w = self.st.pid_of(u);
                self.st.player_mut(w).force -= cost.force;
                at.defender = u;
                self.st.attack = Some((at.attacker, u));
                if !at.attacked.contains(&u) {
                    at.attacked.push(u);
                }
                self.attacks[at.rec].defender = self.st.key(u).to_string();
                self.resolved.push(format!("intercept:{}", self.st.key(u)));
                let t = format!(
                    "{} intercepts (paying {} Force): {} now attacks it",
                    self.st.label(u),
                    cost.force,
                    self.st.label(at.attacker)
                );
                self.by(s, Event::Result, t, &[r::INTERCEPT, r::DUPLICATES]);
            }
            Verb::Retaliate => {
                let kw = self.st.totals(u).kw;
                let k = at.retaliated.iter().filter(|(x, _)| *x == u).count();
                let x = kw.retaliate[k];
                let cost = kw.retaliate_cost[k];
                if cost > 0 {
                    let w = self.st.pid_of(u);
                    self.st.player_mut(w).force -= cost;
                    let t = format!(
                        "{} pays {cost} Force for Retaliate ({} left)",
                        self.st.who(w),
                        self.st.player(w).force
                    );
                    self.by(s, Event::StateChange, t, &[r::G_PAY, r::RETALIATE]);
                }
                at.retaliated.push((u, k));
                at.waiting.push(Waiting::Retaliate { unit: u, x });
                let t = format!(
                    "{} activates Retaliate {x}: it waits for the attack to end",
                    self.st.label(u)
                );
                self.by(s, Event::Push, t, &[r::RETALIATE, r::USING_EFFECTS]);
            }
            _ => {
                let k = st.ability.unwrap_or(1);
                let Some(a) = self.pay_ability(s, u, k, self.target_of(st)) else {
                    return Ok(());
                };
                if !a.at_attack_end.is_empty() {
                    at.waiting.push(Waiting::Effects {
                        side: s,
                        unit: u,
                        effects: a.at_attack_end.clone(),
                    });
                    let t = format!("{}'s ability waits for the attack to end", self.st.label(u));
                    self.by(s, Event::Push, t, &[r::USING_EFFECTS, r::INTERCEPT]);
                }
                let target = self.target_of(st);
                self.run_effects(
                    self.st.pid_of(u),
                    Some(u),
                    &a.effects,
                    target,
                    Ctx {
                        attacker: Some(at.attacker),
                        ..Ctx::default()
                    },
                )?;
            }
        }
        Ok(())
    }

    /// Step 3: dice roll (reroll) POP. Returns the final dice and the hits.
    fn dice_roll(&mut self, a: PieceIx, d: PieceIx) -> Flow<(Vec<i64>, i64)> {
        let side = self.st.pieces[a].side;
        let ta = self.st.totals(a);
        let td = self.st.totals(d);
        let (from, to) = (self.st.arena_of(a), self.st.arena_of(d));
        let bombard = from != to
            && ((from == Some(Arena::Space) && ta.kw.bombard.is_some())
                || (from == Some(Arena::Ground) && ta.kw.ion_cannon.is_some()));
        let base = if bombard {
            let printed = self.st.top_def(a).power + self.st.pieces[a].stack.len() as i64 - 1;
            ta.kw.bombard.or(ta.kw.ion_cannon).unwrap_or(0) + ta.power - printed
        } else {
            ta.power
        };
        let shields = td.kw.shields.unwrap_or(0);
        if let Some(n) = self.st.attack_dice {
            let t = format!(
                "{} rolls {n} attack dice (an effect sets the number: power and Shields don't change it)",
                self.st.label(a)
            );
            self.rules(Event::Result, t, &[r::ATTACKING, r::USING_EFFECTS]);
            let dice = self.roll(side, n.max(0) as usize, "attack dice")?;
            let dice = self.lucky_pop(a, d, dice)?;
            return Ok(self.hits_of(a, d, dice));
        }
        let n = (base - shields).max(0);
        let mut cites = vec![r::ATTACKING, r::G_POWER];
        if shields != 0 {
            cites.push(r::SHIELDS);
        }
        if bombard {
            cites.push(if ta.kw.bombard.is_some() {
                r::BOMBARD
            } else {
                r::ION_CANNON
            });
        }
        let t = format!(
            "{} rolls {n} attack dice (power {base}{})",
            self.st.label(a),
            if shields != 0 {
                format!(", Shields {shields}")
            } else {
                String::new()
            }
        );
        self.rules(Event::Result, t, &cites);
        let mut dice = self.roll(side, n as usize, "attack dice")?;
        if let Some(x) = ta.kw.fury
            && dice.contains(&4)
        {
            let t = format!("Fury {x}: a natural 4 in the initial roll; {x} more attack dice");
            self.rules(Event::Push, t, &[r::FURY, r::G_NATURAL, r::POP]);
            dice.extend(self.roll(side, x.max(0) as usize, "Fury dice")?);
        }
        dice = self.lucky_pop(a, d, dice)?;
        Ok(self.hits_of(a, d, dice))
    }

    /// The hits of an attack roll (after rerolls): Accuracy and Armor.
    fn hits_of(&mut self, a: PieceIx, d: PieceIx, dice: Vec<i64>) -> (Vec<i64>, i64) {
        let (ta, td) = (self.st.totals(a), self.st.totals(d));
        let acc = ta.kw.accuracy.unwrap_or(0);
        let modifier = self.st.top_def(a).dice_modifier;
        let need = if td.kw.armor { 5 } else { 4 };
        let hits = (dice.iter())
            .filter(|&&x| x + acc + modifier >= need)
            .count() as i64;
        let mut cites = vec![r::ATTACKING, r::G_HIT];
        if acc != 0 {
            cites.push(r::ACCURACY);
        }
        if modifier != 0 {
            cites.push(r::USING_EFFECTS);
        }
        if td.kw.armor {
            cites.push(r::ARMOR);
        }
        let t = format!(
            "dice {dice:?}{}{}: {hits} hit{} ({}+ hits{})",
            if acc != 0 {
                format!(" with Accuracy {acc:+}")
            } else {
                String::new()
            },
            if modifier != 0 {
                format!(" and {modifier:+} to each die by the unit's text (not Accuracy)")
            } else {
                String::new()
            },
            if hits == 1 { "" } else { "s" },
            need,
            if td.kw.armor { ", Armor" } else { "" }
        );
        self.rules(Event::Result, t, &cites);
        (dice, hits)
    }

    /// Lucky, once per unit, after triggered reroll effects.
    fn lucky_pop(&mut self, a: PieceIx, d: PieceIx, dice: Vec<i64>) -> Flow<Vec<i64>> {
        let cell = std::cell::RefCell::new((dice, Vec::<PieceIx>::new()));
        let roller = self.st.pieces[a].side;
        {
            let lucky_of = move |e: &Engine, s: Side| -> Option<(PieceIx, i64)> {
                [a, d].into_iter().find_map(|u| {
                    (e.st.pieces[u].side == s).then_some(())?;
                    e.st.totals(u).kw.lucky.map(|x| (u, x))
                })
            };
            let opts = |e: &Engine, s: Side| {
                lucky_of(e, s).is_some_and(|(u, _)| !cell.borrow().1.contains(&u))
                    && !cell.borrow().0.is_empty()
            };
            let judge = |e: &Engine, s: Side, st: &Step| {
                let (u, x) = lucky_of(e, s).ok_or_else(|| reject("no Lucky here", &[r::LUCKY]))?;
                let c = cell.borrow();
                if st.verb() != Verb::Lucky || e.unit_of(st) != Some(u) || c.1.contains(&u) {
                    return Err(reject(
                        "in the reroll POP: lucky (once, `unit:` with Lucky) or pass",
                        &[r::LUCKY, r::POP],
                    ));
                }
                let mut pos = st.reroll.clone();
                pos.sort_unstable();
                pos.dedup();
                if pos.len() != st.reroll.len()
                    || pos.is_empty()
                    || pos.len() as i64 > x
                    || pos.iter().any(|&p| p == 0 || p > c.0.len())
                {
                    return Err(reject(
                        format!(
                            "Lucky {x}: reroll up to {x} of the {} attack dice (positions from 1)",
                            c.0.len()
                        ),
                        &[r::LUCKY],
                    ));
                }
                Ok(())
            };
            let mut play = |e: &mut Engine<'a>, s: Side, st: &Step| {
                let Some(u) = e.unit_of(st) else {
                    return Ok(());
                };
                let t = format!(
                    "{} uses Lucky: dice {:?} are rerolled",
                    e.st.label(u),
                    st.reroll
                );
                e.by(s, Event::Result, t, &[r::LUCKY, r::POP]);
                let new = e.roll(roller, st.reroll.len(), "Lucky rerolls")?;
                let mut c = cell.borrow_mut();
                c.1.push(u);
                for (p, v) in st.reroll.iter().zip(new) {
                    c.0[p - 1] = v;
                }
                Ok(())
            };
            self.pop(
                "dice roll (reroll) POP",
                &[r::POP, r::ATTACKING],
                &opts,
                &judge,
                &mut play,
            )?;
        }
        Ok(cell.into_inner().0)
    }

    /// Step 4: pending damage: Critical Hit, Overkill.
    fn pending(&mut self, a: PieceIx, d: PieceIx, dice: &[i64], hits: i64) -> Flow<Vec<Instance>> {
        let ta = self.st.totals(a);
        let side = self.st.pieces[a].side;
        let mut main = hits;
        let mut out = Vec::new();
        if ta.kw.overkill {
            let excess = hits - self.st.remaining_health(d).max(0);
            let arena = self.st.arena_of(d);
            let others: Vec<PieceIx> = (0..self.st.pieces.len())
                .filter(|&u| u != d && self.st.in_arena(u) && self.st.arena_of(u) == arena)
                .collect();
            if excess > 0 && !others.is_empty() {
                let judge = |e: &Engine, st: &Step| {
                    if st.verb() == Verb::Pass {
                        return Ok(());
                    }
                    let ok = st.verb() == Verb::Overkill
                        && e.target_of(st).is_some_and(|t| others.contains(&t))
                        && st.amount.is_some_and(|n| (1..=excess).contains(&n));
                    if ok {
                        Ok(())
                    } else {
                        Err(reject(
                            format!(
                                "Overkill: name another unit in the arena (`target:`) and up to {excess} hits (`amount:`)"
                            ),
                            &[r::OVERKILL, r::G_DIVIDE],
                        ))
                    }
                };
                let what =
                    format!("Overkill: {excess} hits in excess of the defender's remaining health");
                if let Answer::Do(st) = self.ask(side, NeedKind::Choice, &what, true, &judge)?
                    && let (Some(t), Some(n)) = (self.target_of(&st), st.amount)
                {
                    main -= n;
                    let txt = format!(
                        "Overkill: {n} of the hits go to {} (not dice: Shields, Parry and Armor don't apply)",
                        self.st.label(t)
                    );
                    self.by(side, Event::Result, txt, &[r::OVERKILL, r::G_DIVIDE]);
                    out.push(Instance::new(t, n, DmgKind::Overkill, Some(a)));
                }
            }
        }
        if let Some(x) = ta.kw.critical_hit
            && dice.contains(&6)
        {
            main += x;
            let t = format!("Critical Hit {x}: a natural 6 after rerolls; {x} more damage");
            self.rules(Event::Result, t, &[r::CRITICAL_HIT, r::G_NATURAL]);
        }
        let mut m = Instance::new(d, main, DmgKind::AttackDice, Some(a));
        m.natural_one = dice.contains(&1);
        out.insert(0, m);
        Ok(out)
    }

    /// Step 8: the attack end POP: waiting effects resolve in their order.
    fn attack_end(&mut self, at: &mut Attack) -> Flow<()> {
        self.rules(
            Event::Phase,
            "the attack ends",
            &[r::ATTACKING, r::ATTACK_SUMMARY],
        );
        for w in std::mem::take(&mut at.waiting) {
            match w {
                Waiting::Retaliate { unit, x } => {
                    let a = at.attacker;
                    self.resolved
                        .push(format!("retaliate:{}", self.st.key(unit)));
                    if !self.st.in_arena(a) {
                        continue;
                    }
                    let s = self.st.pieces[unit].side;
                    let t = format!(
                        "{}'s Retaliate {x} resolves: {x} dice of damage to {}",
                        self.st.label(unit),
                        self.st.label(a)
                    );
                    self.by(s, Event::Pop, t, &[r::RETALIATE, r::G_DICE_OF_DAMAGE]);
                    self.dice_of_damage(s, x, a, Some(unit), "Retaliate dice of damage")?;
                }
                Waiting::Effects {
                    side,
                    unit,
                    effects,
                } => {
                    self.resolved.push(format!("ability:{}", self.st.key(unit)));
                    let t = format!("{}'s waiting ability resolves", self.st.label(unit));
                    self.by(side, Event::Pop, t, &[r::USING_EFFECTS, r::INTERCEPT]);
                    let w = if self.st.pieces[unit].side == side {
                        self.st.pid_of(unit)
                    } else {
                        side.into()
                    };
                    self.run_effects(
                        w,
                        Some(unit),
                        &effects,
                        None,
                        Ctx {
                            attacker: Some(at.attacker),
                            ..Ctx::default()
                        },
                    )?;
                }
            }
        }
        Ok(())
    }

    /// Double Strike: after the attack end POP, if the unit tapped for that attack.
    fn double_strike(&mut self, a: PieceIx) -> Flow<()> {
        if !self.st.in_arena(a) || !self.st.totals(a).kw.double_strike {
            return Ok(());
        }
        let targets = self.targets(a);
        if targets.is_empty() {
            return Ok(());
        }
        let side = self.st.pieces[a].side;
        let judge = |e: &Engine, st: &Step| {
            if st.verb() == Verb::Pass {
                return Ok(());
            }
            if st.verb() != Verb::DoubleStrike || e.unit_of(st) != Some(a) {
                return Err(reject(
                    "Double Strike: `double_strike` with this unit, or pass",
                    &[r::DOUBLE_STRIKE],
                ));
            }
            match e.target_of(st) {
                Some(t) if targets.contains(&t) => Ok(()),
                _ => Err(reject(
                    "choose a unit this unit can attack",
                    &[r::DOUBLE_STRIKE],
                )),
            }
        };
        if let Answer::Do(st) = self.ask(side, NeedKind::Choice, "Double Strike", true, &judge)?
            && let Some(t) = self.target_of(&st)
        {
            self.attack(a, t, How::DoubleStrike)?;
        }
        Ok(())
    }
}
