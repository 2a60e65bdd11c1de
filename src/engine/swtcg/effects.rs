//! Battle cards and activated abilities: playing them (costs, timing, once
//! per turn), their effects, and triggered abilities that wait for them.

use super::damage::{DmgKind, Instance};
use super::engine::{Answer, Engine, Flow, Rejection, reject};
use super::model::{
    Activated, Arena, Effect, EnhanceMode, Kind, Side, Step, Timing, Trigger, Verb,
};
use super::rules as r;
use super::state::{CardIx, PZone, Pid, PieceIx, has_subtype};
use crate::engine::{Event, NeedKind};

/// Where an effect is played: the attack it belongs to, if any.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ctx {
    pub attacker: Option<PieceIx>,
    /// The arena the play chose (`arena:`), for "choose an arena" effects.
    pub arena: Option<super::model::Arena>,
    /// The card whose ability it is, when it is not in play (discarded).
    pub card: Option<CardIx>,
    /// The option a "choose one" play takes (`choice:`, from 1).
    pub choice: Option<usize>,
}

/// A play of effects with "Choose one: …" must name one of its options.
pub(super) fn judge_option(effects: &[Effect], st: &Step) -> Result<(), Rejection> {
    for e in effects {
        if let Effect::ChooseOne(opts) = e
            && !st.choice.is_some_and(|n| (1..=opts.len()).contains(&n))
        {
            return Err(reject(
                format!(
                    "choose one of the {} options (`choice:`, from 1)",
                    opts.len()
                ),
                &[r::G_CHOOSE, r::USING_EFFECTS],
            ));
        }
    }
    Ok(())
}

/// The effects an activated ability gives: with a declared Enhance, its
/// effect also or instead.
pub fn enhanced(a: &Activated, enhance: bool) -> Vec<Effect> {
    match a.enhance.as_ref().filter(|_| enhance) {
        Some(x) if x.mode == EnhanceMode::Instead => x.effects.clone(),
        Some(x) => a.effects.iter().chain(&x.effects).cloned().collect(),
        None => a.effects.clone(),
    }
}

impl<'a> Engine<'a> {
    /// A card's first activated ability (a Battle card's effect).
    pub fn card_activated(&self, c: CardIx) -> Option<Activated> {
        self.st
            .def(c)
            .abilities
            .iter()
            .find_map(|a| a.activated.clone())
    }

    /// Whether a side could play a Battle card or a unit's activated ability at this timing.
    pub fn can_play(&self, s: Side, timing: Timing, attacked: Option<PieceIx>) -> bool {
        let card = self.st.pids(s).into_iter().any(|w| {
            let pl = self.st.player(w);
            pl.hand.iter().any(|&c| {
                self.st.def(c).kind == Kind::Battle
                    && self.card_activated(c).is_some_and(|a| {
                        a.timing == timing
                            && a.cost.force <= pl.force
                            && self.attack_under_way(&a).is_ok()
                    })
            })
        });
        card || (0..self.st.pieces.len()).any(|u| {
            self.st.pieces[u].side == s
                && matches!(self.st.pieces[u].zone, PZone::Arena(_) | PZone::BuildZone)
                && (timing != Timing::WhenAttacked || Some(u) == attacked)
                && (1..=self.st.top_def(u).abilities.len())
                    .any(|k| self.ability_ok(s, u, k, timing).is_ok())
        })
    }

    /// Judge a `play` of a Battle card (`card`) or a unit's ability (`unit`, `ability`).
    pub fn judge_card(&self, s: Side, st: &Step, timing: Timing) -> Result<(), Rejection> {
        if st.verb() != Verb::Play {
            return Err(reject("play a card or an ability, or pass", &[r::POP]));
        }
        if let Some(u) = self.unit_of(st) {
            self.ability_ok(s, u, st.ability.unwrap_or(1), timing)?;
            self.payer(self.st.pid_of(u), st)?;
            let k = st.ability.unwrap_or(1);
            let act = self.st.top_def(u).abilities[k - 1].activated.as_ref();
            if let Some(a) = act {
                self.judge_choice(s, Some(u), a, st)?;
            }
            if let Some(a) = act.filter(|_| st.enhance) {
                let Some(x) = &a.enhance else {
                    return Err(reject("the ability has no Enhance effect", &[r::ENHANCE]));
                };
                if a.cost.force + x.cost.force > self.st.player(self.st.pid_of(u)).force {
                    return Err(reject(
                        format!(
                            "with Enhance the ability costs {} Force",
                            a.cost.force + x.cost.force
                        ),
                        &[r::ENHANCE, r::G_PAY],
                    ));
                }
            }
            return Ok(());
        }
        let Some(c) = st.card().and_then(|k| self.st.find(k)) else {
            return Err(reject(
                "name the card (`card:`) or the unit (`unit:`)",
                &[r::BATTLE_CARDS],
            ));
        };
        let Some(w) = self
            .st
            .holder(c)
            .filter(|&w| w.side == s && self.st.player(w).hand.contains(&c))
            .filter(|_| self.st.def(c).kind == Kind::Battle)
        else {
            return Err(reject(
                "a Battle card is played from its player's hand",
                &[r::BATTLE_CARDS],
            ));
        };
        self.payer(w, st)?;
        let Some(a) = self.card_activated(c) else {
            return Err(reject("the card has no effect to play", &[r::BATTLE_CARDS]));
        };
        if a.timing != timing {
            return Err(reject(
                "the card can't be played at this time",
                &[r::POP, r::EFFECT_TYPES],
            ));
        }
        self.judge_choice(s, None, &a, st)?;
        if a.cost.force > self.st.player(w).force {
            return Err(reject(
                format!(
                    "the card costs {} Force; {} has {}",
                    a.cost.force,
                    self.st.who(w),
                    self.st.player(w).force
                ),
                &[r::G_PAY, r::G_FORCE],
            ));
        }
        if let Some(x) = a.enhance.as_ref().filter(|_| st.enhance) {
            let need = a.cost.force + x.cost.force;
            if need > self.st.player(w).force {
                return Err(reject(
                    format!(
                        "with Enhance the card costs {need} Force; {} has {}",
                        self.st.who(w),
                        self.st.player(w).force
                    ),
                    &[r::ENHANCE, r::G_PAY],
                ));
            }
        } else if st.enhance {
            return Err(reject("the card has no Enhance effect", &[r::ENHANCE]));
        }
        if a.effects
            .iter()
            .any(|e| matches!(e, Effect::GainControl | Effect::GainControlThisTurn))
            && !self
                .target_of(st)
                .is_some_and(|u| self.st.in_arena(u) && self.st.pieces[u].side != s)
        {
            return Err(reject(
                "gain control of one of your opponent's units in an arena (`target:`)",
                &[r::G_CONTROL],
            ));
        }
        if let Some(Effect::DiscardUnit(t)) = a
            .effects
            .iter()
            .find(|e| matches!(e, Effect::DiscardUnit(_)))
            && !self.target_of(st).is_some_and(|u| self.st.has_type(u, *t))
        {
            return Err(reject(
                format!(
                    "the target must have the {} type (a subtype is not a type)",
                    t.title()
                ),
                &[r::G_TYPE],
            ));
        }
        Ok(())
    }

    /// The choices a play makes for its effects: the unit it chooses
    /// (`target:`) must be one its filter names; "choose an arena" needs
    /// `arena:`; "play only during the [arena] battle step".
    fn judge_choice(
        &self,
        s: Side,
        src: Option<PieceIx>,
        a: &Activated,
        st: &Step,
    ) -> Result<(), Rejection> {
        if let Some(x) = &a.exile {
            self.judge_exile(s, src, x, st)?;
        }
        if let Some(f) = &a.target
            && !self
                .target_of(st)
                .is_some_and(|t| self.st.target_ok(f, s, src, t))
        {
            return Err(reject(
                "the chosen unit (`target:`) must be one the effect allows",
                &[r::G_CHOOSE, r::USING_EFFECTS],
            ));
        }
        judge_option(&a.effects, st)?;
        if a.effects.iter().any(|e| matches!(e, Effect::DamageEach(_))) && st.arena.is_none() {
            return Err(reject("choose an arena (`arena:`)", &[r::G_CHOOSE]));
        }
        if let Some(x) = a.step.filter(|&x| self.battle_step != Some(x)) {
            return Err(reject(
                format!("play only during the {} battle step", x.title()),
                &[r::G_DURING_BATTLE, r::USING_EFFECTS],
            ));
        }
        self.attack_under_way(a)?;
        for e in &a.effects {
            if let Effect::FromDiscard(x) = e {
                let w = src.map_or(Pid::from(s), |u| self.st.pid_of(u));
                let ok = src.is_some()
                    && st.card().and_then(|k| self.st.find(k)).is_some_and(|c| {
                        self.st.player(w).discard.contains(&c)
                            && self.st.def(c).kind == Kind::Unit
                            && super::state::def_matches(&x.of, self.st.def(c))
                    });
                if !ok {
                    return Err(reject(
                        "name a card (`card:`) in your discard pile that the effect allows",
                        &[r::G_CHOOSE, r::DISCARD_PILE],
                    ));
                }
            }
        }
        if let Some(x) = a
            .opponent_none_in
            .filter(|&x| !self.st.units_in(x, s.other()).is_empty())
        {
            return Err(reject(
                format!(
                    "play only if your opponent has no units in the {} arena (any unit there counts, whether or not it controls the arena)",
                    x.title()
                ),
                &[r::USING_EFFECTS, r::ARENAS],
            ));
        }
        Ok(())
    }

    /// An effect "for this attack" is played only while a unit is attacking.
    fn attack_under_way(&self, a: &Activated) -> Result<(), Rejection> {
        let this_attack = a.effects.iter().any(|e| {
            matches!(
                e,
                Effect::ThisAttack(_)
                    | Effect::AttackDice(_)
                    | Effect::DiscardIfDamaged
                    | Effect::NoEvadeThisAttack
            )
        });
        if this_attack && self.st.attack.is_none() {
            return Err(reject(
                "\"for this attack\": play it while a unit is attacking",
                &[r::ATTACKING, r::USING_EFFECTS],
            ));
        }
        if a.no_attack && self.st.attack.is_some() {
            return Err(reject(
                "play it only when no unit is attacking",
                &[r::ATTACKING, r::USING_EFFECTS],
            ));
        }
        Ok(())
    }

    pub fn ability_ok(
        &self,
        s: Side,
        u: PieceIx,
        k: usize,
        timing: Timing,
    ) -> Result<(), Rejection> {
        if self.st.pieces[u].side != s {
            return Err(reject(
                "only a unit's controller plays its abilities",
                &[r::PRIMARY_RULES],
            ));
        }
        let c = self.st.top(u);
        let ab = self.st.def(c).abilities.get(k.wrapping_sub(1));
        let Some(a) = ab.and_then(|a| a.activated.as_ref()) else {
            return Err(reject(
                "the unit has no such activated ability",
                &[r::EFFECT_TYPES],
            ));
        };
        let reserves = ab.is_some_and(|a| a.reserves);
        if !self.st.works(u, reserves) {
            return Err(reject(
                if reserves {
                    "a Reserves ability works while, and only while, its card is in the build zone"
                } else {
                    "abilities don't work in the build zone"
                },
                &[r::RESERVES, r::EFFECTS],
            ));
        }
        if a.timing != timing {
            return Err(reject(
                "the ability can't be played at this time",
                &[r::POP, r::EFFECT_TYPES],
            ));
        }
        self.attack_under_way(a)?;
        // Once per turn; an ability played at a specified time, once during
        // each such time; "play only when this unit would attack", once each
        // time it would attack; unless it also says "only once per turn".
        let per_window = a.timing.specified() && !a.once_per_turn;
        let played = |&&(uc, uk, w): &&(usize, usize, usize)| {
            uc == c && uk == k && (!per_window || w == self.window)
        };
        if (a.timing != Timing::WouldAttack || a.once_per_turn)
            && self.used.iter().any(|x| played(&x))
        {
            return Err(reject(
                if per_window {
                    "an activated effect played at a specified time is played only once during that time"
                } else {
                    "an activated effect is played once per turn"
                },
                &[r::EFFECT_TYPES],
            ));
        }
        if a.discard_self && !self.st.in_arena(u) {
            return Err(reject(
                "the cost is discarding this unit from an arena",
                &[r::G_PAY, r::G_DISCARD],
            ));
        }
        if a.tap && self.st.pieces[u].tapped {
            return Err(reject(
                "[tap]: the unit must be untapped to pay this cost",
                &[r::G_TAP, r::G_PAY],
            ));
        }
        if a.step.is_some_and(|x| self.battle_step != Some(x)) {
            return Err(reject(
                "the ability can be played only during its battle step",
                &[r::G_DURING_BATTLE, r::USING_EFFECTS],
            ));
        }
        let w = self.st.pid_of(u);
        if let Some(x) = &a.exile {
            let pile = &self.st.player(w).discard;
            let def = |c: &usize| &self.st.def(*c).subtypes;
            let have = (pile.iter())
                .filter(|c| x.subtypes.iter().any(|t| has_subtype(def(c), t)))
                .count();
            if have < x.n {
                return Err(reject(
                    format!(
                        "the cost removes {} cards of the discard pile from the game; it holds {have}",
                        x.n
                    ),
                    &[r::G_PAY, r::DISCARD_PILE],
                ));
            }
        }
        if a.cost.build > self.st.player(w).build {
            return Err(reject(
                format!(
                    "the ability costs {} build points; {} has {}",
                    a.cost.build,
                    self.st.who(w),
                    self.st.player(w).build
                ),
                &[r::G_PAY, r::EFFECT_TYPES],
            ));
        }
        if a.cost.force > self.st.player(w).force {
            return Err(reject(
                format!(
                    "the ability costs {} Force; {} has {}",
                    a.cost.force,
                    self.st.who(w),
                    self.st.player(w).force
                ),
                &[r::G_PAY, r::G_FORCE, r::EFFECT_TYPES],
            ));
        }
        Ok(())
    }

    /// Pay for a Battle card (and its Enhance, if declared) and discard it.
    pub fn pay_card(&mut self, s: Side, c: CardIx, enhance: bool) {
        let a = self.card_activated(c);
        let extra = a
            .as_ref()
            .and_then(|a| a.enhance.as_ref())
            .filter(|_| enhance)
            .map_or(0, |x| x.cost.force);
        let cost = a.map_or(0, |a| a.cost.force) + extra;
        if enhance {
            let t = format!("Enhance declared: {extra} Force more");
            self.by(s, Event::Initiate, t, &[r::ENHANCE]);
        }
        let w = self.st.holder(c).unwrap_or(Pid::from(s));
        let pl = self.st.player_mut(w);
        pl.force -= cost;
        pl.hand.retain(|&x| x != c);
        let o = self.st.owner[c];
        self.st.player_mut(o).discard.push(c);
        let t = format!(
            "{} plays {} (pays {cost} Force)",
            self.st.who(w),
            self.st.card_label(c)
        );
        self.by(s, Event::Initiate, t, &[r::BATTLE_CARDS, r::EFFECT_TYPES]);
        self.meet_text(c);
    }

    /// Tap the chosen unit, or put damage counters on it, when that is part
    /// of the cost.
    pub(super) fn tap_target(&mut self, a: &Activated, target: Option<PieceIx>) {
        if let Some(t) = target.filter(|_| a.tap_target) {
            self.st.pieces[t].tapped = true;
            let txt = format!("{} taps to pay the cost", self.st.label(t));
            self.rules(Event::StateChange, txt, &[r::G_TAP, r::G_PAY]);
        }
        if let Some(t) = target.filter(|_| a.counters_target > 0) {
            self.st.pieces[t].damage += a.counters_target;
            let txt = format!(
                "{} damage counter(s) put on {} to pay the cost",
                a.counters_target,
                self.st.label(t)
            );
            self.rules(Event::StateChange, txt, &[r::G_PAY, r::G_DAMAGE_COUNTER]);
        }
    }

    /// Pay for a unit's activated ability; returns it.
    pub fn pay_ability(
        &mut self,
        s: Side,
        u: PieceIx,
        k: usize,
        target: Option<PieceIx>,
    ) -> Option<Activated> {
        let c = self.st.top(u);
        let a = self
            .st
            .def(c)
            .abilities
            .get(k.wrapping_sub(1))?
            .activated
            .clone()?;
        self.used.push((c, k, self.window));
        let w = self.st.pid_of(u);
        self.st.player_mut(w).force -= a.cost.force;
        self.st.player_mut(w).build -= a.cost.build;
        if a.tap {
            self.st.pieces[u].tapped = true;
        }
        if a.counters_self > 0 {
            self.st.pieces[u].damage += a.counters_self;
            let t = format!(
                "{} damage counters put on {} to pay the cost",
                a.counters_self,
                self.st.label(u)
            );
            self.by(s, Event::StateChange, t, &[r::G_PAY, r::G_DAMAGE_COUNTER]);
        }
        self.tap_target(&a, target);
        if a.discard_self {
            let t = format!("{} is discarded to pay the cost", self.st.label(u));
            self.st.discard_piece(u);
            self.resolved.push(format!("discard:{}", self.st.keys[c]));
            self.by(s, Event::StateChange, t, &[r::G_PAY, r::G_DISCARD]);
        }
        let t = format!(
            "{} activates {}'s ability {k} (pays {} Force{}{})",
            self.st.who(w),
            self.st.label(u),
            a.cost.force,
            if a.cost.build > 0 {
                format!(", {} build points", a.cost.build)
            } else {
                String::new()
            },
            if a.tap { ", taps it" } else { "" }
        );
        self.by(s, Event::Initiate, t, &[r::EFFECT_TYPES]);
        Some(a)
    }

    /// Play a judged `play` step: pay, then run the effects.
    pub fn play(&mut self, s: Side, st: &Step, ctx: Ctx) -> Flow<()> {
        let target = self.target_of(st);
        let ctx = Ctx {
            arena: st.arena,
            choice: st.choice,
            ..ctx
        };
        if let Some(u) = self.unit_of(st) {
            let k = st.ability.unwrap_or(1);
            let Some(a) = self.pay_ability(s, u, k, target) else {
                return Ok(());
            };
            if let Some(t) = target.filter(|_| a.counters_target > 0) {
                self.discard_check(t, None)?;
            }
            let w = self.st.pid_of(u);
            if a.exile.is_some() {
                self.exile(w, st);
            }
            if let Some(x) = a.enhance.as_ref().filter(|_| st.enhance) {
                self.st.player_mut(w).force -= x.cost.force;
                let t = format!("Enhance declared: {} Force more", x.cost.force);
                self.by(s, Event::Initiate, t, &[r::ENHANCE]);
            }
            self.resolved.push(format!("ability:{}", self.st.key(u)));
            let effects = enhanced(&a, st.enhance);
            let ctx = Ctx {
                card: st.card().and_then(|k| self.st.find(k)).or(ctx.card),
                ..ctx
            };
            return self.run_effects(w, Some(u), &effects, target, ctx);
        }
        let Some(c) = st.card().and_then(|k| self.st.find(k)) else {
            return Ok(());
        };
        let w = self.st.holder(c).unwrap_or(Pid::from(s));
        let a = self.card_activated(c);
        self.pay_card(s, c, st.enhance);
        self.resolved.push(format!("play:{}", self.st.keys[c]));
        let effects = a.map(|a| enhanced(&a, st.enhance)).unwrap_or_default();
        self.run_effects(w, None, &effects, target, ctx)
    }

    /// Run effects in order; "when you draw a card" triggers wait until they finish.
    pub fn run_effects(
        &mut self,
        who: impl Into<Pid>,
        src: Option<PieceIx>,
        effects: &[Effect],
        target: Option<PieceIx>,
        ctx: Ctx,
    ) -> Flow<()> {
        let w = who.into();
        let mut drawn = 0;
        self.level += 1;
        for e in effects {
            drawn += self.effect(w, src, e, target, ctx)?;
        }
        self.level -= 1;
        for _ in 0..drawn {
            self.draw_triggers(w)?;
        }
        Ok(())
    }

    /// One effect; returns the number of cards drawn.
    fn effect(
        &mut self,
        w: Pid,
        src: Option<PieceIx>,
        e: &Effect,
        target: Option<PieceIx>,
        ctx: Ctx,
    ) -> Flow<i64> {
        let s = w.side;
        let tl = |e: &Engine| target.map_or("no unit".to_string(), |t| e.st.label(t));
        match e {
            Effect::Untap => {
                if let Some(t) = target {
                    self.st.pieces[t].tapped = false;
                    let txt = format!("{} untaps", tl(self));
                    self.rules(Event::StateChange, txt, &[r::G_TAP]);
                }
            }
            Effect::Damage(n) => {
                if let Some(t) = target {
                    self.resolve_damage(vec![Instance::new(t, *n, DmgKind::Direct, src)])?;
                }
            }
            Effect::Power(n) | Effect::Speed(n) => {
                if let Some(t) = target {
                    let (what, m) = if matches!(e, Effect::Power(_)) {
                        ("power", &mut self.st.pieces[t].power_mod)
                    } else {
                        ("speed", &mut self.st.pieces[t].speed_mod)
                    };
                    *m += n;
                    let txt = format!("{} gets {n:+} {what} until end of turn", tl(self));
                    self.rules(Event::StateChange, txt, &[r::G_TOTAL, r::G_THIS_TURN]);
                }
            }
            Effect::GainForceEqualBuild => self.gain_force_equal_build(w, target),
            Effect::RollOff(x) => self.roll_off(w, *x)?,
            Effect::DiscardLowestCost => self.discard_lowest_cost()?,
            Effect::GrantNowThisTurn(g) => self.grant_now(s, g),
            Effect::ChooseOne(opts) => return self.choose_one(w, src, opts, target, ctx),
            Effect::GrantThisTurn(g) => self.grant_this_turn(s, g),
            Effect::KeepOneRetreatRest(k) => self.keep_one_retreat_rest(w, *k)?,
            Effect::DiscardAll(a) => self.discard_all(*a),
            Effect::ThisAttack(b) => self.this_attack_bonus(b, target),
            Effect::AttackDice(n) => self.set_attack_dice(*n),
            Effect::DiscardIfDamaged => self.set_discard_if_damaged(),
            Effect::FromDiscard(x) => self.put_from_discard(w, x, ctx)?,
            Effect::BuildCounters(n) => self.build_counters(*n, target),
            Effect::BuildCountersToPoints => self.build_counters_to_points(w),
            Effect::GainForce(n) => {
                self.st.player_mut(w).force += n;
                let txt = format!(
                    "{} gains {n} Force ({} now)",
                    self.st.who(w),
                    self.st.player(w).force
                );
                self.rules(Event::StateChange, txt, &[r::G_GAIN_LOSE, r::G_FORCE]);
            }
            Effect::LoseForce(_) if self.st.team => {
                return self.not_modelled(
                    "Two-Headed Wookiee: \"your opponent loses X Force\" when the opponent is two players with their own Force",
                    &[r::DISTINCTIONS, r::SHARING, r::G_GAIN_LOSE],
                );
            }
            Effect::LoseForce(n) => {
                let o = s.other();
                let lost = (*n).min(self.st.player(o).force).max(0);
                self.st.player_mut(o).force -= lost;
                let txt = format!(
                    "{} loses {lost} Force (of {n}; Force is never negative)",
                    o.name()
                );
                self.rules(Event::StateChange, txt, &[r::G_GAIN_LOSE, r::G_FORCE]);
            }
            Effect::Draw(n) => return Ok(self.draw(w, *n)),
            Effect::DiscardCards(n) => self.discard_from_hand(w, *n)?,
            Effect::Search(names) => self.search(w, names)?,
            Effect::SearchFor(x) => self.search_for(w, x)?,
            Effect::RetreatSelf => {
                if let Some(u) = src.filter(|&u| self.st.in_arena(u)) {
                    self.st.pieces[u].zone = PZone::BuildZone;
                    let txt = format!("{} retreats to the build zone", self.st.label(u));
                    self.rules(Event::StateChange, txt, &[r::G_RETREAT]);
                }
            }
            Effect::CountersOnAttacker(n) => {
                if let Some(a) = ctx.attacker.filter(|&a| self.st.in_arena(a)) {
                    self.st.pieces[a].damage += n;
                    let txt = format!(
                        "{n} damage counters put on {} (not damage: they can't be prevented)",
                        self.st.label(a)
                    );
                    self.rules(Event::StateChange, txt, &[r::G_DAMAGE_COUNTER, r::POP]);
                    self.discard_check(a, None)?;
                }
            }
            Effect::RemoveCounters { n, from } => self.remove_counters(w, *n, from)?,
            Effect::DisruptAttack | Effect::DisruptMission | Effect::DisruptCard => {}
            Effect::IfUnits(x) => return self.if_units(w, src, x, target, ctx),
            Effect::MayPay(x) => return self.may_pay(w, src, x, target, ctx),
            Effect::TapSelf | Effect::UntapSelf => self.tap_self(src, matches!(e, Effect::TapSelf)),
            Effect::RemoveCountersSelf(n) => self.remove_counters_self(src, *n),
            Effect::RemoveAllCountersSelf => self.remove_counters_self(src, i64::MAX),
            Effect::GainForcePer(f) => self.gain_force_per(w, src, f),
            Effect::AtBattlePhaseStart(x) => self.wait_for_battle_start(w, src, x, ctx),
            Effect::OpponentGainsForce(n) => self.opponent_gains_force(s, *n)?,
            Effect::NoEvadeThisAttack => self.no_evade_this_attack(src),
            Effect::ChainAttacks => self.chain_attacks(target),
            Effect::PreventInArenaThisTurn(n) => self.prevent_in_arena(s, ctx.arena, *n),
            Effect::CantAttackOrBeAttacked => self.protect(target, false),
            Effect::GuardOthersThisTurn => self.protect(target, true),
            Effect::DamageNoEvade(x) => self.damage_no_evade(src, x, target)?,
            Effect::DiscardUnit(_) | Effect::DiscardIt => {
                if let Some(t) = target {
                    let txt = format!("{} is discarded", tl(self));
                    self.st.discard_piece(t);
                    self.rules(Event::StateChange, txt, &[r::G_DISCARD, r::G_TYPE]);
                }
            }
            Effect::DiscardOneEachArena(n) => self.discard_one_each_arena(*n)?,
            Effect::GainControl | Effect::GainControlThisTurn => {
                if let Some(t) = target {
                    self.gain_control(w, t, matches!(e, Effect::GainControlThisTurn))?;
                }
            }
            Effect::MayAttackIn(a) => {
                self.may_attack[s.ix()] = Some(*a);
                let txt = format!(
                    "the next time one of {}'s units would attack this turn, it may attack a unit in the {} arena instead",
                    s.name(),
                    a.title()
                );
                self.rules(Event::StateChange, txt, &[r::G_MAY_ATTACK]);
            }
            Effect::BuildPoints(b) => self.build_points(w, src, b),
            Effect::Counters(_)
            | Effect::Tap
            | Effect::Retreat
            | Effect::ReturnToHand
            | Effect::DiceDamage(_)
            | Effect::DamageEach(_)
            | Effect::DiceDamageEach(_)
            | Effect::ReturnFromDiscard
            | Effect::GainSubtype(_) => self.effect_on_units(s, src, e, target, ctx)?,
            Effect::OpponentTapsUnlessPays(x) => self.tap_unless_pays(s.other(), *x)?,
            Effect::Prevent(_) | Effect::PreventAll | Effect::GainForcePrevented => {}
        }
        Ok(0)
    }

    /// An effect on units or cards other than the one with the ability:
    /// counters, tapping, retreating, returning, damage to one or every unit.
    fn effect_on_units(
        &mut self,
        s: Side,
        src: Option<PieceIx>,
        e: &Effect,
        target: Option<PieceIx>,
        ctx: Ctx,
    ) -> Flow<()> {
        let tl = |e: &Engine| target.map_or("no unit".to_string(), |t| e.st.label(t));
        match e {
            Effect::Tap => {
                if let Some(t) = target {
                    self.st.pieces[t].tapped = true;
                    let txt = format!("{} taps", tl(self));
                    self.rules(Event::StateChange, txt, &[r::G_TAP]);
                }
            }
            Effect::Retreat => {
                if let Some(t) = target.filter(|&t| self.st.in_arena(t)) {
                    self.st.pieces[t].zone = PZone::BuildZone;
                    let txt = format!(
                        "{} retreats to its controller's build zone (retreating with an effect doesn't tap or untap it)",
                        tl(self)
                    );
                    self.rules(Event::StateChange, txt, &[r::G_RETREAT]);
                }
            }
            Effect::ReturnToHand => {
                if let Some(t) = target {
                    let txt = format!(
                        "{} returns to its owner's hand with all cards stacked with it, its Pilots and its Equipment",
                        tl(self)
                    );
                    self.st.return_to_hand(t);
                    self.rules(
                        Event::StateChange,
                        txt,
                        &[r::G_STACKED_WITH, r::G_AND_ITS_PILOT],
                    );
                }
            }
            Effect::DiceDamage(n) => {
                if let Some(t) = target {
                    self.dice_of_damage(s, *n, t, src, "dice of damage")?;
                }
            }
            Effect::DiceDamageEach(n) => {
                if let Some(a) = ctx.arena {
                    self.dice_damage_each(s, *n, a, src)?;
                }
            }
            Effect::ReturnFromDiscard => {
                if let Some(c) = ctx.card {
                    let o = self.st.owner[c];
                    if self.st.player(o).discard.contains(&c) {
                        self.st.player_mut(o).discard.retain(|&x| x != c);
                        self.st.player_mut(o).hand.push(c);
                        let txt = format!(
                            "{} returns from the discard pile to its owner's hand",
                            self.st.card_label(c)
                        );
                        self.rules(
                            Event::StateChange,
                            txt,
                            &[r::G_WHEN_DISCARDED, r::DISCARD_PILE],
                        );
                    }
                }
            }
            Effect::DamageEach(n) => {
                if let Some(a) = ctx.arena {
                    let each: Vec<_> = Side::BOTH
                        .iter()
                        .flat_map(|&x| self.st.units_in(a, x))
                        .map(|u| Instance::new(u, *n, DmgKind::Direct, src))
                        .collect();
                    let txt = format!("{n} damage to each unit in the {} arena", a.title());
                    self.rules(Event::Result, txt, &[r::G_DAMAGE, r::POP]);
                    self.resolve_damage(each)?;
                }
            }
            Effect::Counters(n) => {
                if let Some(t) = target.filter(|&t| self.st.in_arena(t)) {
                    self.st.pieces[t].damage += n;
                    let txt = format!(
                        "{n} damage counters put on {} (not damage: they can't be prevented)",
                        self.st.label(t)
                    );
                    self.rules(Event::StateChange, txt, &[r::G_DAMAGE_COUNTER, r::G_PUT]);
                    self.discard_check(t, None)?;
                }
            }
            Effect::GainSubtype(sub) => {
                if let Some(t) = target {
                    for c in self.st.pieces[t].stack.clone() {
                        self.st.gained[c].push(sub.clone());
                    }
                    let txt = format!(
                        "{} becomes a {sub} until the game ends (each card in its stack now)",
                        tl(self)
                    );
                    self.rules(Event::StateChange, txt, &[r::G_SUBTYPE, r::USING_EFFECTS]);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A grant until end of turn to the units it names, those in play and
    /// those that come into play later (side `s`'s effect).
    fn grant_this_turn(&mut self, s: Side, g: &super::model::Grant) {
        self.st.turn_grants.push((s, g.clone()));
        let txt = format!(
            "until end of turn, the units it names get its grant, those in play and those that come into play later ({})",
            s.name()
        );
        self.rules(Event::StateChange, txt, &[r::G_THIS_TURN, r::USING_EFFECTS]);
    }

    /// A grant until end of turn to the units it names now (side `s`'s effect).
    fn grant_now(&mut self, s: Side, g: &super::model::Grant) {
        let now: Vec<PieceIx> = (0..self.st.pieces.len())
            .filter(|&p| {
                let pc = &self.st.pieces[p];
                let in_play = matches!(pc.zone, PZone::Arena(_))
                    || (pc.zone == PZone::BuildZone && !pc.face_down);
                in_play && !pc.stack.is_empty() && self.st.turn_grant_names(&g.to, s, p)
            })
            .collect();
        let names: Vec<String> = now.iter().map(|&p| self.st.label(p)).collect();
        for p in now {
            self.st.fixed_grants.push((p, g.clone()));
        }
        let txt = format!(
            "until end of turn, the units it names now get its grant ({}); none that comes into play later",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        );
        self.rules(
            Event::StateChange,
            txt,
            &[r::G_THIS_TURN, r::G_EACH_OF_YOUR_UNITS],
        );
    }

    /// "Choose one: …": the option the play named.
    fn choose_one(
        &mut self,
        w: Pid,
        src: Option<PieceIx>,
        opts: &[Vec<Effect>],
        target: Option<PieceIx>,
        ctx: Ctx,
    ) -> Flow<i64> {
        // A play names its option; a triggered ability's player chooses now.
        let n = match ctx.choice {
            Some(n) => n,
            None => {
                let k = opts.len();
                let judge = move |_: &Engine, st: &Step| {
                    if st.verb() == Verb::Choose && st.choice.is_some_and(|n| (1..=k).contains(&n))
                    {
                        Ok(())
                    } else {
                        Err(reject(
                            format!("choose one of the {k} options (`choose`, `choice:` from 1)"),
                            &[r::G_CHOOSE, r::USING_EFFECTS],
                        ))
                    }
                };
                match self.ask(w.side, NeedKind::Choice, "an option", true, &judge)? {
                    Answer::Do(st) => st.choice.unwrap_or(1),
                    Answer::Pass => 1,
                }
            }
        };
        let Some(chosen) = n.checked_sub(1).and_then(|i| opts.get(i)) else {
            return Ok(0);
        };
        let t = format!("option {n} is chosen");
        self.rules(Event::Result, t, &[r::G_CHOOSE]);
        let mut drawn = 0;
        for e in chosen {
            drawn += self.effect(w, src, e, target, ctx)?;
        }
        Ok(drawn)
    }

    /// The chooser keeps one of its units in the arena; the rest retreat
    /// (retreating with an effect doesn't tap them).
    fn keep_one_retreat_rest(&mut self, w: Pid, k: super::model::KeepOne) -> Flow<()> {
        use super::model::Whom;
        let o = match k.chooser {
            Whom::You => w.side,
            Whom::Opponent => w.side.other(),
            Whom::Dark => Side::Dark,
            Whom::Light => Side::Light,
        };
        let units = self.st.units_in(k.arena, o);
        let keep = match units.as_slice() {
            [] => return Ok(()),
            [only] => *only,
            _ => {
                let what = format!("the unit to keep in the {} arena", k.arena.title());
                self.choose_own_unit(o, k.arena, &units, &what, &[r::G_CHOOSE])?
                    .unwrap_or(units[0])
            }
        };
        for u in units.into_iter().filter(|&u| u != keep) {
            self.st.pieces[u].zone = PZone::BuildZone;
            let txt = format!(
                "{} retreats to the build zone ({} keeps {})",
                self.st.label(u),
                o.name(),
                self.st.label(keep)
            );
            self.rules(Event::StateChange, txt, &[r::G_RETREAT, r::G_CHOOSE]);
        }
        Ok(())
    }

    /// Each player discards his or her unit with the lowest total build cost
    /// in any arena, Dark Side first; the player chooses among tied units.
    fn discard_lowest_cost(&mut self) -> Flow<()> {
        for s in Side::BOTH {
            let units: Vec<_> = Arena::ALL
                .iter()
                .flat_map(|&a| self.st.units_in(a, s))
                .collect();
            let Some(low) = units.iter().map(|&u| self.st.totals(u).build).min() else {
                continue;
            };
            let tied: Vec<_> = units
                .into_iter()
                .filter(|&u| self.st.totals(u).build == low)
                .collect();
            let t = if let [only] = tied.as_slice() {
                *only
            } else {
                let t2 = tied.clone();
                let judge = move |e: &Engine, st: &Step| match e.target_of(st) {
                    Some(t) if st.verb() == Verb::Choose && t2.contains(&t) => Ok(()),
                    _ => Err(reject(
                        format!("choose one of your units tied for the lowest build cost ({low})"),
                        &[r::G_CHOOSE, r::G_DISCARD],
                    )),
                };
                let what = "which unit tied for the lowest build cost to discard";
                match self.ask(s, NeedKind::Choice, what, true, &judge)? {
                    Answer::Do(st) => self.target_of(&st).unwrap_or(tied[0]),
                    Answer::Pass => continue,
                }
            };
            let txt = format!(
                "{} discards {}, its unit with the lowest build cost ({low})",
                s.name(),
                self.st.label(t)
            );
            self.st.discard_piece(t);
            self.by(s, Event::StateChange, txt, &[r::G_DISCARD, r::G_TOTAL]);
        }
        Ok(())
    }

    /// Each side chooses and discards one of its units from each arena where it
    /// has at least `n` units, Dark Side first. In Two-Headed Wookiee a side
    /// is both players of the team, and the team chooses among their units.
    fn discard_one_each_arena(&mut self, n: i64) -> Flow<()> {
        let cites: &[&'static str] = if self.st.team {
            &[r::G_DISCARD, r::SHARING, r::PRIMARY_RULES]
        } else {
            &[r::G_DISCARD, r::PRIMARY_RULES]
        };
        for s in Side::BOTH {
            for a in super::model::Arena::ALL {
                let units = self.st.units_in(a, s);
                if (units.len() as i64) < n.max(1) {
                    continue;
                }
                let what = format!("a unit to discard from the {} arena", a.title());
                if let Some(t) = self.choose_own_unit(s, a, &units, &what, cites)? {
                    let txt = format!(
                        "{} discards {} from the {} arena ({} units there)",
                        s.name(),
                        self.st.label(t),
                        a.title(),
                        units.len()
                    );
                    self.st.discard_piece(t);
                    self.resolved.push(format!(
                        "discard:{}",
                        self.st.keys[self.st.pieces[t].stack[0]]
                    ));
                    self.by(s, Event::StateChange, txt, cites);
                }
            }
        }
        Ok(())
    }

    /// Draw up to `n` cards (as many as there are).
    pub fn draw(&mut self, who: impl Into<Pid>, n: i64) -> i64 {
        let w = who.into();
        let mut k = 0;
        for _ in 0..n {
            let pl = self.st.player_mut(w);
            if pl.deck.is_empty() {
                break;
            }
            let c = pl.deck.remove(0);
            pl.hand.push(c);
            k += 1;
        }
        let txt = format!(
            "{} draws {k} card{}",
            self.st.who(w),
            if k == 1 { "" } else { "s" }
        );
        let cites: &[&'static str] = if self.st.team {
            &[r::G_DRAW_X, r::DECK, r::SHARING]
        } else {
            &[r::G_DRAW_X, r::DECK]
        };
        self.rules(Event::StateChange, txt, cites);
        k
    }

    fn discard_from_hand(&mut self, w: Pid, n: i64) -> Flow<()> {
        let s = w.side;
        let n = (n.max(0) as usize).min(self.st.player(w).hand.len());
        if n == 0 {
            return Ok(());
        }
        let judge = move |e: &Engine, st: &Step| {
            let ok = st.verb() == Verb::Discard
                && st.cards.len() == n
                && st.cards.iter().all(|k| {
                    e.st.find(&k.value)
                        .is_some_and(|c| e.st.player(w).hand.contains(&c))
                });
            if ok {
                Ok(())
            } else {
                Err(reject(
                    format!("discard exactly {n} cards from hand"),
                    &[r::G_DISCARD],
                ))
            }
        };
        if let Answer::Do(st) = self.ask(s, NeedKind::Choice, "cards to discard", true, &judge)? {
            for k in &st.cards {
                if let Some(c) = self.st.find(&k.value) {
                    self.st.player_mut(w).hand.retain(|&x| x != c);
                    let o = self.st.owner[c];
                    self.st.player_mut(o).discard.push(c);
                }
            }
            let txt = format!("{} discards {} cards", self.st.who(w), n);
            self.by(s, Event::StateChange, txt, &[r::G_DISCARD]);
        }
        Ok(())
    }

    fn search(&mut self, w: Pid, names: &[String]) -> Flow<()> {
        let s = w.side;
        let found: Vec<CardIx> = self
            .st
            .player(w)
            .deck
            .iter()
            .copied()
            .filter(|&c| names.contains(&self.st.def(c).name))
            .collect();
        let txt = format!(
            "{} searches the deck: {} of {} named cards found",
            self.st.who(w),
            found.len(),
            names.len()
        );
        self.by(s, Event::Result, txt, &[r::G_SEARCH]);
        if found.is_empty() {
            return Ok(());
        }
        let f2 = found.clone();
        let judge = move |e: &Engine, st: &Step| {
            if st.verb() == Verb::Pass {
                return Ok(());
            }
            let cs: Vec<Option<CardIx>> = st.cards.iter().map(|k| e.st.find(&k.value)).collect();
            let mut seen: Vec<&str> = Vec::new();
            for c in &cs {
                let Some(c) = c.filter(|c| f2.contains(c)) else {
                    return Err(reject("take only cards the search found", &[r::G_SEARCH]));
                };
                let n = e.st.def(c).name.as_str();
                if seen.contains(&n) {
                    return Err(reject(
                        "one card for each card the effect names",
                        &[r::G_SEARCH],
                    ));
                }
                seen.push(n);
            }
            Ok(())
        };
        self.take_found(w, &judge)
    }

    /// The player takes the cards a deck search found into hand, as their
    /// scripted step names them (`judge` says which steps are legal), or
    /// passes.
    pub(super) fn take_found(
        &mut self,
        w: Pid,
        judge: &dyn Fn(&Engine, &Step) -> Result<(), Rejection>,
    ) -> Flow<()> {
        let s = w.side;
        if let Answer::Do(st) = self.ask(
            s,
            NeedKind::Choice,
            "cards found in the search",
            true,
            judge,
        )? {
            for k in &st.cards {
                if let Some(c) = self.st.find(&k.value) {
                    let pl = self.st.player_mut(w);
                    pl.deck.retain(|&x| x != c);
                    pl.hand.push(c);
                }
            }
            let txt = format!("{} takes {} card(s) into hand", s.name(), st.cards.len());
            self.by(s, Event::StateChange, txt, &[r::G_SEARCH]);
        }
        Ok(())
    }

    fn remove_counters(&mut self, w: Pid, n: i64, from: &[super::model::Arena]) -> Flow<()> {
        let s = w.side;
        let cands: Vec<PieceIx> = (0..self.st.pieces.len())
            .filter(|&u| {
                self.st.pid_of(u) == w
                    && self.st.pieces[u].damage > 0
                    && self.st.arena_of(u).is_some_and(|a| from.contains(&a))
            })
            .collect();
        let u = match cands.len() {
            0 => {
                self.rules(
                    Event::Result,
                    "no unit has damage counters to remove",
                    &[r::G_DAMAGE_COUNTER],
                );
                return Ok(());
            }
            1 => cands[0],
            _ => {
                let c2 = cands.clone();
                let judge = move |e: &Engine, st: &Step| match e.target_of(st) {
                    Some(t) if st.verb() == Verb::Choose && c2.contains(&t) => Ok(()),
                    _ => Err(reject(
                        "choose one of your units with damage counters",
                        &[r::G_DAMAGE_COUNTER],
                    )),
                };
                match self.ask(
                    s,
                    NeedKind::Choice,
                    "a unit to remove counters from",
                    true,
                    &judge,
                )? {
                    Answer::Do(st) => self.target_of(&st).unwrap_or(cands[0]),
                    Answer::Pass => return Ok(()),
                }
            }
        };
        let k = n.min(self.st.pieces[u].damage);
        self.st.pieces[u].damage -= k;
        let txt = format!("{k} damage counter(s) removed from {}", self.st.label(u));
        self.rules(
            Event::StateChange,
            txt,
            &[r::G_DAMAGE_COUNTER, r::G_WHEN_DRAW],
        );
        Ok(())
    }

    /// Roll `n` dice of damage against `t` (4+ hits, 5+ against Armor; no
    /// other keyword changes them), then resolve the damage.
    pub fn dice_of_damage(
        &mut self,
        s: Side,
        n: i64,
        t: PieceIx,
        src: Option<PieceIx>,
        what: &str,
    ) -> Flow<()> {
        let dice = self.roll(s, n.max(0) as usize, what)?;
        let need = if self.st.totals(t).kw.armor { 5 } else { 4 };
        let hits = dice.iter().filter(|&&v| v >= need).count() as i64;
        let txt = format!("{hits} hit{}", if hits == 1 { "" } else { "s" });
        self.rules(Event::Result, txt, &[r::G_DICE_OF_DAMAGE, r::G_HIT]);
        self.resolve_damage(vec![Instance::new(t, hits, DmgKind::DiceOfDamage, src)])?;
        Ok(())
    }

    /// N dice of damage to each unit in an arena: each unit's dice in board
    /// order (the Dark Side's units first; the order only orders the
    /// scripted dice), then one damage prevention POP, one placement and one
    /// discard for all of them.
    fn dice_damage_each(&mut self, s: Side, n: i64, a: Arena, src: Option<PieceIx>) -> Flow<()> {
        let units: Vec<_> = Side::BOTH
            .iter()
            .flat_map(|&x| self.st.units_in(a, x))
            .collect();
        let mut each = Vec::new();
        for u in units {
            let what = format!("dice of damage against {}", self.st.label(u));
            let dice = self.roll(s, n.max(0) as usize, &what)?;
            let need = if self.st.totals(u).kw.armor { 5 } else { 4 };
            let hits = dice.iter().filter(|&&v| v >= need).count() as i64;
            let txt = format!(
                "{}: {hits} hit{}",
                self.st.label(u),
                if hits == 1 { "" } else { "s" }
            );
            self.rules(Event::Result, txt, &[r::G_DICE_OF_DAMAGE, r::G_HIT, r::POP]);
            each.push(Instance::new(u, hits, DmgKind::DiceOfDamage, src));
        }
        self.resolve_damage(each)?;
        Ok(())
    }

    /// "When this unit is discarded" abilities of the card on top of a unit
    /// just discarded from arena `from`, run by its controller.
    pub fn discarded_triggers(&mut self, top: CardIx, from: Arena, w: Pid) -> Flow<()> {
        let trig: Vec<_> = (self.st.def(top).abilities.iter())
            .filter_map(|a| a.triggered.clone())
            .filter(|t| t.when == Trigger::Discarded && t.in_arena.is_none_or(|a| a == from))
            .collect();
        for t in trig {
            let txt = format!(
                "{}: \"when this unit is discarded\" resolves",
                self.st.card_label(top)
            );
            self.rules(Event::Push, txt, &[r::G_WHEN_DISCARDED, r::USING_EFFECTS]);
            let ctx = Ctx {
                card: Some(top),
                ..Ctx::default()
            };
            self.run_effects(w, None, &t.effects, None, ctx)?;
        }
        Ok(())
    }

    /// Ask `who` whether to pay `force` Force ("unless a player pays"):
    /// `pay`, or `pass` to decline; a player who can't pay it all declines.
    pub fn offer_payment(&mut self, who: Side, force: i64, what: &str) -> Flow<bool> {
        let can = self.st.player(who).force >= force;
        if !can {
            let t = format!("{} can't pay {force} Force {what}", who.name());
            self.rules(Event::Result, t, &[r::G_PAY]);
            return Ok(false);
        }
        let judge = |_: &Engine, st: &Step| match st.verb() {
            Verb::Pay | Verb::Pass => Ok(()),
            _ => Err(reject(
                format!("pay {force} Force {what}, or pass to decline"),
                &[r::G_PAY],
            )),
        };
        let ask = format!("pay {force} Force {what}?");
        let paid = matches!(
            self.ask(who, NeedKind::Choice, &ask, true, &judge)?,
            Answer::Do(st) if st.verb() == Verb::Pay
        );
        if paid {
            self.st.player_mut(who).force -= force;
            let t = format!(
                "{} pays {force} Force {what} ({} left)",
                who.name(),
                self.st.player(who).force
            );
            self.by(who, Event::StateChange, t, &[r::G_PAY]);
        } else {
            let t = format!("{} does not pay {what}", who.name());
            self.by(who, Event::Pass, t, &[r::G_PAY]);
        }
        Ok(paid)
    }

    /// `o` chooses one of `units`, its own in `arena` (`what` says what for;
    /// another choice is refused under `cites`); `None` when it passes.
    fn choose_own_unit(
        &mut self,
        o: Side,
        arena: Arena,
        units: &[PieceIx],
        what: &str,
        cites: &'static [&'static str],
    ) -> Flow<Option<PieceIx>> {
        let why = format!(
            "{} chooses one of its own units in the {} arena",
            o.name(),
            arena.title()
        );
        self.choose_among(o, units, what, why, cites)
    }

    /// `o` chooses one of `units` (`what` says what for; another choice is
    /// refused for `why`, under `cites`); `None` when it passes.
    pub(super) fn choose_among(
        &mut self,
        o: Side,
        units: &[PieceIx],
        what: &str,
        why: String,
        cites: &'static [&'static str],
    ) -> Flow<Option<PieceIx>> {
        let allowed = units.to_vec();
        let judge = move |e: &Engine, st: &Step| match e.target_of(st) {
            Some(t) if st.verb() == Verb::Choose && allowed.contains(&t) => Ok(()),
            _ => Err(reject(why.clone(), cites)),
        };
        Ok(match self.ask(o, NeedKind::Choice, what, true, &judge)? {
            Answer::Do(st) => self.target_of(&st),
            Answer::Pass => None,
        })
    }

    /// The opponent `o` chooses one of its units in an arena (tapped or
    /// not); it taps unless `o` pays the Force.
    fn tap_unless_pays(&mut self, o: Side, x: super::model::TapUnlessPays) -> Flow<()> {
        let units = self.st.units_in(x.arena, o);
        if units.is_empty() {
            let t = format!(
                "{} has no unit in the {} arena to choose",
                o.name(),
                x.arena.title()
            );
            self.rules(Event::Result, t, &[r::G_CHOOSE]);
            return Ok(());
        }
        let what = format!("one of its units in the {} arena", x.arena.title());
        let Some(t) = self.choose_own_unit(o, x.arena, &units, &what, &[r::G_CHOOSE])? else {
            return Ok(());
        };
        let t_label = self.st.label(t);
        let chose = format!("{} chooses {t_label}", o.name());
        self.by(o, Event::Result, chose, &[r::G_CHOOSE]);
        if !self.offer_payment(o, x.force, &format!("to keep {t_label} from tapping"))? {
            let txt = if self.st.pieces[t].tapped {
                format!("{t_label} taps (it was already tapped)")
            } else {
                format!("{t_label} taps")
            };
            self.st.pieces[t].tapped = true;
            self.rules(Event::StateChange, txt, &[r::G_TAP]);
        }
        Ok(())
    }

    /// A condition counting units: the effects `then:` happen only if it holds.
    fn if_units(
        &mut self,
        w: Pid,
        src: Option<PieceIx>,
        x: &super::model::IfUnits,
        target: Option<PieceIx>,
        ctx: Ctx,
    ) -> Flow<i64> {
        let counts: Vec<i64> = if x.each_arena {
            Arena::ALL
                .iter()
                .map(|&a| self.st.count_units(&x.units, w.side, src, Some(a)))
                .collect()
        } else {
            vec![self.st.count_units(&x.units, w.side, src, None)]
        };
        let reached = counts.iter().all(|&n| n >= x.at_least);
        let holds = reached != x.not;
        let txt = format!(
            "condition: {} {} unit(s) the effect names{} (counted: {counts:?}): {}",
            if x.not { "not at least" } else { "at least" },
            x.at_least,
            if x.each_arena { " in each arena" } else { "" },
            if holds {
                "it holds, the effect works"
            } else {
                "it does not hold, the effect does nothing"
            }
        );
        self.rules(Event::Result, txt, &[r::USING_EFFECTS]);
        if !holds {
            return Ok(0);
        }
        self.effects_then(w, src, &x.then, target, ctx)
    }

    /// "You may pay N Force. If you do, …": the effects follow a payment.
    fn may_pay(
        &mut self,
        w: Pid,
        src: Option<PieceIx>,
        x: &super::model::MayPay,
        target: Option<PieceIx>,
        ctx: Ctx,
    ) -> Flow<i64> {
        if !self.offer_payment(w.side, x.force, "for the effect")? {
            return Ok(0);
        }
        self.effects_then(w, src, &x.then, target, ctx)
    }

    /// The effects a condition or a payment leads to, in order (the cards
    /// they drew).
    fn effects_then(
        &mut self,
        w: Pid,
        src: Option<PieceIx>,
        then: &[Effect],
        target: Option<PieceIx>,
        ctx: Ctx,
    ) -> Flow<i64> {
        let mut drawn = 0;
        for e in then {
            drawn += self.effect(w, src, e, target, ctx)?;
        }
        Ok(drawn)
    }

    /// "[Whom] gets +N build points this turn" (never below 0).
    fn build_points(&mut self, w: Pid, src: Option<PieceIx>, b: &super::model::BuildPoints) {
        use super::model::Whom;
        let side = match b.to {
            Whom::You => w.side,
            Whom::Opponent => w.side.other(),
            Whom::Dark => Side::Dark,
            Whom::Light => Side::Light,
        };
        let to = if side == w.side { w } else { Pid::from(side) };
        let (n, each) = match &b.per {
            Some(f) => {
                let k = self.st.count_units(f, w.side, src, None);
                (b.n * k, format!(" ({:+} for each of {k} units)", b.n))
            }
            None => (b.n, String::new()),
        };
        let p = self.st.player_mut(to);
        p.build = (p.build + n).max(0);
        let txt = format!(
            "{} gets {n:+} build points this turn{each} ({} now)",
            self.st.who(to),
            self.st.player(to).build
        );
        self.rules(Event::StateChange, txt, &[r::READY_PHASE, r::G_THIS_TURN]);
    }

    /// Triggered abilities of cards in play (units in an arena, Locations)
    /// for one event, Dark Side first, in board order: `side` limits them to
    /// one side's cards ("your build step"); `subject` is the unit the event
    /// is about (the deployed unit, the attacker).
    pub fn fire(
        &mut self,
        when: Trigger,
        side: Option<Side>,
        subject: Option<PieceIx>,
    ) -> Flow<()> {
        for s in Side::BOTH
            .into_iter()
            .filter(|&s| side.is_none_or(|x| x == s))
        {
            for u in 0..self.st.pieces.len() {
                if self.st.pieces[u].side != s || self.st.pieces[u].stack.is_empty() {
                    continue;
                }
                let trig: Vec<_> = (self.st.top_def(u).abilities.iter())
                    .filter(|a| self.st.works(u, a.reserves))
                    .filter_map(|a| a.triggered.clone())
                    .filter(|t| t.when == when && self.triggers_on(u, t, subject))
                    .collect();
                for t in trig {
                    let (words, cite) = match when {
                        Trigger::Draw => ("when you draw a card", r::G_WHEN_DRAW),
                        Trigger::BuildRoll => (
                            "when the roll for build points is made",
                            r::G_WHEN_BUILD_ROLL,
                        ),
                        Trigger::BuildStepStart => {
                            ("when your build step starts", r::G_WHEN_BUILD_STEP)
                        }
                        Trigger::Deploy => ("when you deploy", r::BUILDING),
                        Trigger::Attacks => ("whenever this unit attacks", r::G_WHEN_ATTACKS),
                        Trigger::BattleStepStart => {
                            ("when the battle step starts", r::BATTLE_PHASE)
                        }
                        Trigger::BattleStepEnd => {
                            ("at the end of the battle step", r::BATTLE_PHASE)
                        }
                        Trigger::BattlePhaseStart => {
                            ("when the battle phase starts", r::G_WHEN_BATTLE_PHASE)
                        }
                        Trigger::Discarded => ("when this unit is discarded", r::G_WHEN_DISCARDED),
                        Trigger::Damages => ("when this unit damages", r::G_DAMAGE_DONE),
                        Trigger::AttacksNoDamage => (
                            "whenever a unit attacks but does no damage",
                            r::G_DAMAGE_DONE,
                        ),
                        Trigger::Prevents => ("whenever damage is prevented", r::G_PREVENT),
                    };
                    let txt = format!("{}: \"{words}\" resolves", self.st.label(u));
                    self.rules(Event::Push, txt, &[cite, r::USING_EFFECTS]);
                    let w = self.st.pid_of(u);
                    let ctx = Ctx {
                        arena: self.battle_step,
                        ..Ctx::default()
                    };
                    let target = t.target_self.then_some(u);
                    self.run_effects(w, Some(u), &t.effects, target, ctx)?;
                }
            }
        }
        Ok(())
    }

    /// Whether a triggered ability of `u` is met: its arena, and for
    /// `deploy` and `attacks` the unit the event is about.
    fn triggers_on(
        &self,
        u: PieceIx,
        t: &super::model::Triggered,
        subject: Option<PieceIx>,
    ) -> bool {
        let at = match self.st.pieces[u].zone {
            PZone::Arena(a) | PZone::Location(a) => Some(a),
            _ => None,
        };
        if t.in_arena.is_some_and(|a| at != Some(a)) {
            return false;
        }
        match (t.when, subject) {
            (Trigger::BattleStepStart | Trigger::BattleStepEnd, _) => {
                t.step.is_none_or(|a| self.battle_step == Some(a))
            }
            (Trigger::Discarded | Trigger::Damages | Trigger::AttacksNoDamage, _) => false,
            (Trigger::Deploy, Some(d)) => match &t.of {
                Some(f) => self.st.matches(f, u, d),
                None => d == u,
            },
            (Trigger::Attacks, Some(a)) => a == u,
            (Trigger::Prevents, Some(p)) => {
                self.st.matches(&t.of.clone().unwrap_or_default(), u, p)
            }
            (Trigger::Deploy | Trigger::Attacks | Trigger::Prevents, None) => false,
            _ => true,
        }
    }

    /// "When you draw a card" abilities of a side's units, once.
    pub(super) fn draw_triggers(&mut self, w: Pid) -> Flow<()> {
        for u in 0..self.st.pieces.len() {
            if self.st.pid_of(u) != w || !self.st.in_arena(u) {
                continue;
            }
            let trig: Vec<_> = self
                .st
                .top_def(u)
                .abilities
                .iter()
                .filter_map(|a| a.triggered.clone())
                .filter(|t| t.when == Trigger::Draw)
                .collect();
            for t in trig {
                if t.in_arena.is_some_and(|a| self.st.arena_of(u) != Some(a)) {
                    continue;
                }
                let txt = format!("{}: \"when you draw a card\" resolves", self.st.label(u));
                self.rules(Event::Push, txt, &[r::G_WHEN_DRAW, r::USING_EFFECTS]);
                self.run_effects(w, Some(u), &t.effects, None, Ctx::default())?;
            }
        }
        Ok(())
    }

    /// A general POP (or a start/end POP): Battle cards and abilities played at that time.
    pub fn general_pop(&mut self, what: &str, cites: &[&'static str]) -> Flow<()> {
        let opts =
            |e: &Engine, s: Side| e.can_play(s, Timing::General, None) || e.hidden_cost_ready(s);
        let judge = |e: &Engine, s: Side, st: &Step| match st.verb() {
            Verb::Deploy => e.judge_anytime(s, st),
            Verb::Move => Err(reject(
                "units move between arenas only during the build step; Switch doesn't allow units to change arenas during the battle phase",
                &[r::G_MOVE, r::MULTI_ARENA, r::SWITCH],
            )),
            _ => e.judge_card(s, st, Timing::General),
        };
        let mut play = |e: &mut Engine<'a>, s: Side, st: &Step| {
            if st.verb() == Verb::Deploy {
                match e.judge_deploy(s, st) {
                    Ok(plan) => e.deploy(s, plan),
                    Err(_) => Ok(()),
                }
            } else {
                e.play(s, st, Ctx::default())
            }
        };
        self.pop(what, cites, &opts, &judge, &mut play)
    }

    /// Whether a side has a face-down card with Hidden Cost it could complete now.
    fn hidden_cost_ready(&self, s: Side) -> bool {
        (0..self.st.pieces.len()).any(|p| {
            let pc = &self.st.pieces[p];
            pc.side == s
                && pc.face_down
                && pc.zone == PZone::BuildZone
                && self.st.top_def(p).keywords.hidden_cost.is_some_and(|x| {
                    let cost = self.st.deploy_cost(p);
                    pc.counters >= x.min(cost)
                        && cost - pc.counters <= self.st.player(self.st.pid_of(p)).force
                })
        })
    }

    /// Completing a card outside the build step: only with Hidden Cost ("anytime").
    fn judge_anytime(&self, s: Side, st: &Step) -> Result<(), Rejection> {
        let p = st
            .card()
            .and_then(|k| self.st.piece_by_key(k))
            .filter(|&p| self.st.pieces[p].side == s && self.st.pieces[p].face_down);
        match p {
            Some(p) if self.st.top_def(p).keywords.hidden_cost.is_some() => {
                self.judge_deploy(s, st).map(|_| ())
            }
            _ => Err(reject(
                "cards are completed during your build step; only a partially built card with Hidden Cost may be completed anytime",
                &[r::BUILDING, r::HIDDEN_COST, r::G_ANYTIME],
            )),
        }
    }
}
