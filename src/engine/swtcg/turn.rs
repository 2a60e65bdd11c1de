//! Turn structure: the ready phase, the command phase (build steps, retreat
//! steps), the battle phase (contests, Space → Ground → Character, speed
//! order with the Dark Side winning ties) and the end of turn with the win check.

use super::engine::{Answer, Engine, Flow, reject};
use super::model::{Arena, Side, Start, Step, Through, Timing, Verb};
use super::rules as r;
use super::state::{PZone, PieceIx, same_unit};
use crate::engine::{Event, NeedKind};

impl<'a> Engine<'a> {
    /// Run from `start` through `through`.
    pub fn run_turn(&mut self, start: Start, through: Through, first_arena: Arena) -> Flow<()> {
        if start <= Start::Ready {
            self.ready_phase()?;
        }
        if through == Through::Ready {
            return Ok(());
        }
        if start <= Start::Command {
            self.command_phase()?;
        }
        if through == Through::Command {
            return Ok(());
        }
        let first = if start == Start::Battle {
            first_arena
        } else {
            Arena::Space
        };
        self.battle_phase(first)?;
        if through == Through::Turn {
            self.end_of_turn()?;
        }
        Ok(())
    }

    fn ready_phase(&mut self) -> Flow<()> {
        self.rules(Event::Phase, "ready phase", &[r::READY_PHASE]);
        for s in Side::BOTH {
            for p in 0..self.st.pieces.len() {
                if self.st.pieces[p].side == s && self.st.pieces[p].zone != PZone::Gone {
                    let pc = &mut self.st.pieces[p];
                    pc.tapped = false;
                    // A new turn: one move and one equip again.
                    pc.moved = false;
                    pc.equipped = false;
                }
            }
            self.rules(
                Event::StateChange,
                format!("{} untaps", s.name()),
                &[r::READY_PHASE, r::G_TAP],
            );
        }
        let team: &[&'static str] = if self.st.team {
            &[r::READY_PHASE, r::SHARING]
        } else {
            &[r::READY_PHASE]
        };
        for s in Side::BOTH {
            for w in self.st.pids(s) {
                self.st.player_mut(w).force += 4;
                let t = format!(
                    "{} gains 4 Force ({})",
                    self.st.who(w),
                    self.st.player(w).force
                );
                self.rules(Event::StateChange, t, team);
            }
        }
        let roll = self.roll(Side::Light, 1, "build points")?[0];
        for s in Side::BOTH {
            for w in self.st.pids(s) {
                let all = Arena::ALL.iter().all(|&a| {
                    self.st
                        .units_in(a, s)
                        .iter()
                        .any(|&u| self.st.pieces[u].player == w.p)
                });
                let n = roll + i64::from(all);
                self.st.player_mut(w).build = n;
                let t = format!(
                    "{} gets {n} build points{}",
                    self.st.who(w),
                    if all {
                        " (+1: units in all 3 arenas)"
                    } else {
                        ""
                    }
                );
                self.rules(Event::StateChange, t, team);
            }
        }
        self.fire(super::model::Trigger::BuildRoll, None, None)
    }

    fn command_phase(&mut self) -> Flow<()> {
        self.rules(Event::Phase, "command phase", &[r::COMMAND_PHASE]);
        for s in Side::BOTH {
            self.build_step(s)?;
        }
        for s in Side::BOTH {
            self.retreat_step(s)?;
        }
        Ok(())
    }

    fn retreat_step(&mut self, s: Side) -> Flow<()> {
        self.rules(
            Event::Window,
            format!("{}'s retreat step", s.name()),
            &[r::COMMAND_PHASE],
        );
        loop {
            let can = (0..self.st.pieces.len()).any(|p| {
                self.st.pieces[p].side == s && self.st.in_arena(p) && !self.st.pieces[p].tapped
            });
            let judge = |e: &Engine, st: &Step| {
                if st.verb() == Verb::Pass {
                    return Ok(());
                }
                match e.unit_of(st) {
                    Some(u)
                        if st.verb() == Verb::Retreat
                            && e.st.pieces[u].side == s
                            && e.st.in_arena(u) =>
                    {
                        if e.st.pieces[u].tapped {
                            Err(reject(
                                "you can't retreat a unit that's already tapped",
                                &[r::COMMAND_PHASE],
                            ))
                        } else if e.st.top_def(u).cant_retreat {
                            Err(reject(
                                "this unit can't retreat (\"can't\" beats \"can\")",
                                &[r::G_RETREAT, r::PRIMARY_RULES],
                            ))
                        } else if e.st.riders(u, true).iter().any(|&q| e.st.pieces[q].tapped) {
                            Err(reject(
                                "its Pilot is already tapped: move the Pilot to the build zone during the build step separately, then retreat the unit",
                                &[r::RETREATING_PILOTS],
                            ))
                        } else {
                            Ok(())
                        }
                    }
                    _ => Err(reject(
                        "in the retreat step: retreat one of your units in an arena, or pass",
                        &[r::COMMAND_PHASE],
                    )),
                }
            };
            match self.ask(s, NeedKind::Action, "retreat step", can, &judge)? {
                Answer::Pass => return Ok(()),
                Answer::Do(st) => {
                    let Some(u) = self.unit_of(&st) else { continue };
                    self.st.pieces[u].tapped = true;
                    self.st.pieces[u].zone = PZone::BuildZone;
                    for q in self.st.riders(u, true) {
                        self.st.pieces[q].tapped = true;
                    }
                    let t = format!(
                        "{} taps and retreats to the build zone (its Pilots tap and go with it)",
                        self.st.label(u)
                    );
                    self.by(
                        s,
                        Event::StateChange,
                        t,
                        &[r::COMMAND_PHASE, r::G_RETREAT, r::RETREATING_PILOTS],
                    );
                }
            }
        }
    }

    fn battle_phase(&mut self, first: Arena) -> Flow<()> {
        self.rules(Event::Phase, "battle phase", &[r::BATTLE_PHASE]);
        if first == Arena::Space {
            self.contests()?;
            self.battle_start_effects()?;
            self.fire(super::model::Trigger::BattlePhaseStart, None, None)?;
            self.general_pop("start of the battle phase POP", &[r::BATTLE_PHASE])?;
        }
        let order = self.battle_order();
        // Starting in Space is starting the battle phase: its first step,
        // whichever arena a Location makes first.
        let from = match first {
            Arena::Space => 0,
            _ => order.iter().position(|&a| a == first).unwrap_or(0),
        };
        for &a in &order[from..] {
            self.battle_step(a)?;
        }
        Ok(())
    }

    /// The order of the battle steps: Space, Ground, Character, unless a
    /// Location in play changes it.
    fn battle_order(&mut self) -> Vec<Arena> {
        let changed = (0..self.st.pieces.len()).find_map(|q| {
            let by = matches!(self.st.pieces[q].zone, PZone::Location(_))
                .then(|| self.st.top_def(q).battle_order.clone())
                .flatten()?;
            Some((q, by))
        });
        match changed {
            Some((q, order)) => {
                let names: Vec<&str> = order.iter().map(|a| a.title()).collect();
                let t = format!(
                    "{}: the battle steps are fought {}",
                    self.st.label(q),
                    names.join(", then ")
                );
                self.rules(Event::StateChange, t, &[r::BATTLE_PHASE, r::PRIMARY_RULES]);
                order
            }
            None => Arena::ALL.to_vec(),
        }
    }

    /// The next unit to attack in an arena: highest speed; the Dark Side wins ties.
    /// Returns the side to choose and its units of that speed.
    pub fn next_attackers(&self, a: Arena) -> Option<(Side, Vec<PieceIx>)> {
        let ready: Vec<(PieceIx, i64)> = (0..self.st.pieces.len())
            .filter(|&p| self.st.pieces[p].zone == PZone::Arena(a) && !self.st.pieces[p].tapped)
            .map(|p| (p, self.st.totals(p).speed.max(0)))
            .collect();
        let top = ready.iter().map(|x| x.1).max()?;
        let fastest: Vec<PieceIx> = ready.iter().filter(|x| x.1 == top).map(|x| x.0).collect();
        let side = if fastest
            .iter()
            .any(|&p| self.st.pieces[p].side == Side::Dark)
        {
            Side::Dark
        } else {
            Side::Light
        };
        Some((
            side,
            fastest
                .into_iter()
                .filter(|&p| self.st.pieces[p].side == side)
                .collect(),
        ))
    }

    fn battle_step(&mut self, a: Arena) -> Flow<()> {
        self.battle_step = Some(a);
        self.rules(
            Event::Phase,
            format!("{} battle step", a.title()),
            &[r::BATTLE_PHASE],
        );
        self.fire(super::model::Trigger::BattleStepStart, None, None)?;
        self.general_pop("start of the battle step POP", &[r::BATTLE_PHASE])?;
        loop {
            self.general_pop("general POP", &[r::BATTLE_PHASE, r::G_SPEED])?;
            let Some((side, units)) = self.next_attackers(a) else {
                break;
            };
            self.next_attack(side, &units)?;
        }
        self.fire(super::model::Trigger::BattleStepEnd, None, None)?;
        self.general_pop("end of the battle step POP", &[r::BATTLE_PHASE])?;
        self.battle_step = None;
        Ok(())
    }

    /// Units an effect says `u` must attack ("… can attack Motti, it must do so"), among those it can attack.
    pub fn must_attack(&self, u: PieceIx) -> Vec<PieceIx> {
        let can = self.targets(u);
        can.iter()
            .copied()
            .filter(|&q| {
                self.st.top_def(q).abilities.iter().any(|a| {
                    a.grant.as_ref().is_some_and(|g| {
                        g.must_attack_this
                            && self.st.works(q, a.reserves)
                            && self.st.matches(&g.to, q, u)
                    })
                })
            })
            .collect()
    }

    /// "attack with a or b": the units that may attack next.
    fn attackers(&self, units: &[PieceIx]) -> String {
        let keys: Vec<&str> = units.iter().map(|&u| self.st.key(u)).collect();
        format!("attack with {}", keys.join(" or "))
    }

    fn next_attack(&mut self, side: Side, units: &[PieceIx]) -> Flow<()> {
        // A lone unit with nothing to attack taps in its speed order, unless
        // it has an ability it may play "when this unit would attack".
        if units.len() == 1
            && self.targets(units[0]).is_empty()
            && !self.would_attack_ability(units[0])
        {
            let u = units[0];
            self.st.pieces[u].tapped = true;
            let t = format!("{} has no unit it can attack: it taps", self.st.label(u));
            self.rules(Event::StateChange, t, &[r::G_CANT_ATTACK, r::BATTLE_PHASE]);
            return Ok(());
        }
        let judge = |e: &Engine, st: &Step| {
            let u = e.unit_of(st);
            let ok_unit = u.is_some_and(|u| units.contains(&u));
            match st.verb() {
                Verb::Attack | Verb::Skip if !ok_unit => {
                    let why = if u.is_some_and(|u| e.st.pieces[u].side == side) {
                        "units attack one by one from highest to lowest speed"
                    } else {
                        "the next attacker is a fastest untapped unit (the Dark Side wins ties for speed)"
                    };
                    Err(reject(
                        why,
                        &[r::BATTLE_PHASE, r::G_SPEED, r::PRIMARY_RULES],
                    ))
                }
                Verb::Skip
                    if u.is_some_and(|u| {
                        e.st.top_def(u).must_attack && !e.targets(u).is_empty()
                    }) =>
                {
                    Err(reject(
                        "this unit must attack: it can attack a unit, so it can't tap to skip its attack",
                        &[r::G_MUST_ATTACK],
                    ))
                }
                Verb::Skip if u.is_some_and(|u| !e.must_attack(u).is_empty()) => Err(reject(
                    "this unit must attack a unit it can attack, so it can't tap to skip its attack",
                    &[r::G_MUST_ATTACK],
                )),
                Verb::Skip => Ok(()),
                Verb::Attack => match (u, e.target_of(st)) {
                    (Some(u), Some(t))
                        if !e.must_attack(u).is_empty() && !e.must_attack(u).contains(&t) =>
                    {
                        Err(reject(
                            "this unit must attack the unit an effect names, when it can attack it",
                            &[r::G_MUST_ATTACK],
                        ))
                    }
                    (Some(u), Some(t))
                        if e.targets(u).contains(&t)
                            && e.st.attack_cost(t) > e.st.player(side).force =>
                    {
                        Err(reject(
                            format!(
                                "this unit can't be attacked unless {} pays {} Force",
                                side.name(),
                                e.st.attack_cost(t)
                            ),
                            &[r::G_PAY, r::PRIMARY_RULES],
                        ))
                    }
                    (Some(u), Some(t)) if e.targets(u).contains(&t) => Ok(()),
                    (Some(u), Some(t)) if e.cant_attack.contains(&u) || e.unattackable(t) => {
                        Err(reject(
                            "an effect says the attacker can't attack, or the defender can't be attacked, this turn",
                            &[r::G_CANT_ATTACK],
                        ))
                    }
                    (_, Some(t)) if matches!(e.st.pieces[t].zone, PZone::Pilot(_)) => {
                        Err(reject("a unit's Pilot can't be attacked", &[r::PILOTING]))
                    }
                    (_, Some(t)) if e.st.totals(t).kw.stealth && !e.st.pieces[t].tapped => {
                        Err(reject(
                            "Stealth: this unit can't be attacked unless it's tapped",
                            &[r::STEALTH],
                        ))
                    }
                    (Some(u), Some(t))
                        if e.st.team
                            && e.st.top_def(u).attacks_own
                            && e.st.pieces[t].side == e.st.pieces[u].side =>
                    {
                        Err(reject(
                            "\"your units\" means only the units of the player to whom the attacking unit belongs",
                            &[r::DISTINCTIONS, r::ATTACKING],
                        ))
                    }
                    (Some(u), _) if e.st.totals(u).kw.ion_cannon.is_some() => {
                        Err(other_arena(r::ION_CANNON))
                    }
                    (Some(u), _) if e.st.totals(u).kw.bombard.is_some() => {
                        Err(other_arena(r::BOMBARD))
                    }
                    _ => Err(reject(
                        "attack an opponent's unit in the same arena (`target:`)",
                        &[r::ATTACKING, r::BATTLE_PHASE],
                    )),
                },
                Verb::Play if ok_unit => e.judge_would_attack(side, st),
                Verb::DoubleStrike => Err(reject(
                    "Double Strike is played only if this unit just attacked and tapped for that attack",
                    &[r::DOUBLE_STRIKE],
                )),
                _ => Err(reject(
                    "the next attacker attacks (`attack`, `unit`, `target`) or taps instead (`skip`)",
                    &[r::BATTLE_PHASE],
                )),
            }
        };
        let what = self.attackers(units);
        match self.ask(side, NeedKind::Action, &what, true, &judge)? {
            Answer::Do(st) if st.verb() == Verb::Play => {
                let t = "\"play only when this unit would attack\": not an attack (the unit does not tap unless the ability says so; no attack effects)";
                self.rules(Event::Initiate, t, &[r::G_WOULD_ATTACK]);
                self.play(side, &st, super::effects::Ctx::default())?;
            }
            Answer::Do(st) if st.verb() == Verb::Attack => {
                if let (Some(u), Some(t)) = (self.unit_of(&st), self.target_of(&st)) {
                    let tax = self.st.attack_cost(t);
                    if tax > 0 {
                        self.st.player_mut(side).force -= tax;
                        let txt = format!(
                            "{} pays {tax} Force to attack {} ({} left)",
                            side.name(),
                            self.st.label(t),
                            self.st.player(side).force
                        );
                        self.by(side, Event::StateChange, txt, &[r::G_PAY, r::PRIMARY_RULES]);
                    }
                    self.attack(u, t, super::attack::How::Declared)?;
                }
            }
            Answer::Do(st) => {
                if let Some(u) = self.unit_of(&st) {
                    self.st.pieces[u].tapped = true;
                    let t = format!(
                        "{} taps to skip its attack (it has not attacked)",
                        self.st.label(u)
                    );
                    self.by(side, Event::StateChange, t, &[r::BATTLE_PHASE]);
                }
            }
            Answer::Pass => {}
        }
        Ok(())
    }

    /// Whether unit `u` has an ability it could play now "when this unit would attack".
    fn would_attack_ability(&self, u: PieceIx) -> bool {
        let s = self.st.pieces[u].side;
        (1..=self.st.top_def(u).abilities.len())
            .any(|k| self.ability_ok(s, u, k, Timing::WouldAttack).is_ok())
    }

    /// An ability played when the next attacker would attack, instead of
    /// attacking: not while it must attack, and only while it is untapped.
    fn judge_would_attack(&self, side: Side, st: &Step) -> Result<(), super::engine::Rejection> {
        let u = self
            .unit_of(st)
            .ok_or_else(|| reject("name the unit", &[r::G_WOULD_ATTACK]))?;
        if (self.st.top_def(u).must_attack && !self.targets(u).is_empty())
            || !self.must_attack(u).is_empty()
        {
            return Err(reject(
                "a unit that must attack can't play abilities that say \"Play only when this unit would attack\"",
                &[r::G_MUST_ATTACK, r::G_WOULD_ATTACK],
            ));
        }
        self.judge_card(side, st, Timing::WouldAttack)
    }

    /// Whether piece `p` takes part in contests: a unique unit in an arena,
    /// or (`equipment`) unique Equipment attached to a unit in an arena.
    fn contestable(&self, p: PieceIx, equipment: bool) -> bool {
        let live = match self.st.pieces[p].zone {
            PZone::Arena(_) => !equipment,
            PZone::Attached(h) => equipment && self.st.in_arena(h),
            _ => false,
        };
        live && self.st.top_def(p).version.is_some()
    }

    fn contest_pairs(&self, equipment: bool) -> Vec<(PieceIx, PieceIx)> {
        let mut pairs = Vec::new();
        for d in 0..self.st.pieces.len() {
            for l in 0..self.st.pieces.len() {
                if self.st.pieces[d].side == Side::Dark
                    && self.st.pieces[l].side == Side::Light
                    && self.contestable(d, equipment)
                    && self.contestable(l, equipment)
                    && same_unit(&self.st.top_def(d).name, &self.st.top_def(l).name)
                {
                    pairs.push((d, l));
                }
            }
        }
        pairs
    }

    /// Contesting unique units (then Equipment still in an arena) on opposite
    /// sides, at the start of the battle phase; with more than one pair the
    /// Dark Side chooses the order of bidding.
    fn contests(&mut self) -> Flow<()> {
        for equipment in [false, true] {
            let mut pairs = self.contest_pairs(equipment);
            let shared = pairs
                .iter()
                .enumerate()
                .any(|(i, a)| pairs[i + 1..].iter().any(|b| a.0 == b.0 || a.1 == b.1));
            if self.st.team && shared {
                return self.not_modelled(
                    "Two-Headed Wookiee: both players of a team with a unique card of the same name contesting one card",
                    &[r::CONTESTING, r::DISTINCTIONS],
                );
            }
            while !pairs.is_empty() {
                let k = if pairs.len() == 1 {
                    0
                } else {
                    self.contest_order(&pairs, equipment)?
                };
                let (d, l) = pairs.remove(k);
                if self.contestable(d, equipment) && self.contestable(l, equipment) {
                    self.contest(d, l, equipment)?;
                }
            }
        }
        Ok(())
    }

    /// The Dark Side names the pair that bids next (`choose`, `target:` a card of the pair).
    fn contest_order(&mut self, pairs: &[(PieceIx, PieceIx)], equipment: bool) -> Flow<usize> {
        let what = format!(
            "the order of bidding for contested {} ({} pairs)",
            if equipment { "Equipment" } else { "units" },
            pairs.len()
        );
        let p2 = pairs.to_vec();
        let judge = move |e: &Engine, st: &Step| match e.target_of(st) {
            Some(t) if st.verb() == Verb::Choose && p2.iter().any(|&(d, l)| t == d || t == l) => {
                Ok(())
            }
            _ => Err(reject(
                "the Dark Side chooses which contested pair bids next (`choose`, `target:`)",
                &[r::CONTESTING, r::PRIMARY_RULES],
            )),
        };
        let Answer::Do(st) = self.ask(Side::Dark, NeedKind::Order, &what, true, &judge)? else {
            return Ok(0);
        };
        let t = self.target_of(&st);
        let k = pairs
            .iter()
            .position(|&(d, l)| Some(d) == t || Some(l) == t)
            .unwrap_or(0);
        let txt = format!(
            "the Dark Side chooses the contest of {} and {} next",
            self.st.label(pairs[k].0),
            self.st.label(pairs[k].1)
        );
        self.by(
            Side::Dark,
            Event::Result,
            txt,
            &[r::CONTESTING, r::PRIMARY_RULES],
        );
        Ok(k)
    }

    fn contest(&mut self, d: PieceIx, l: PieceIx, equipment: bool) -> Flow<()> {
        let t = format!(
            "{} and {} contest: Force bids, Dark Side first",
            self.st.label(d),
            self.st.label(l)
        );
        self.rules(Event::Window, t, &[r::CONTESTING]);
        let base = [self.st.totals(d).build, self.st.totals(l).build];
        let bidder = [self.st.pid_of(d), self.st.pid_of(l)];
        let mut bid = [0i64; 2];
        let mut side = Side::Dark;
        let mut first = true;
        loop {
            let me = side.ix();
            let force = self.st.player(bidder[me]).force;
            let can = force > bid[me];
            let judge = |_: &Engine, st: &Step| match (st.verb(), st.amount) {
                (Verb::Pass, _) => Ok(()),
                (Verb::Bid, Some(n)) if n > bid[me] && n <= force => Ok(()),
                _ => Err(reject(
                    format!(
                        "bid more than {} and at most your {force} Force, or pass",
                        bid[me]
                    ),
                    &[r::CONTESTING, r::G_FORCE],
                )),
            };
            match self.ask(side, NeedKind::Choice, "contest bid", can, &judge)? {
                Answer::Pass if !first => break,
                Answer::Pass => {}
                Answer::Do(st) => {
                    bid[me] = st.amount.unwrap_or(0);
                    let t = format!(
                        "{} bids {} Force (total {})",
                        side.name(),
                        bid[me],
                        base[me] + bid[me]
                    );
                    self.by(side, Event::Result, t, &[r::CONTESTING]);
                }
            }
            first = false;
            side = side.other();
        }
        let dt = base[0] + bid[0];
        let lt = base[1] + bid[1];
        let (win, lose, ws) = if dt >= lt {
            (d, l, Side::Dark)
        } else {
            (l, d, Side::Light)
        };
        self.st.player_mut(bidder[ws.ix()]).force -= bid[ws.ix()];
        let fate = if equipment {
            self.st.pieces[lose].tapped = true;
            "taps and remains attached to the equipped unit"
        } else {
            self.st.pieces[lose].zone = PZone::BuildZone;
            "moves to the build zone without tapping"
        };
        let t = format!(
            "{} wins the contest ({dt} to {lt}; the Dark Side wins ties) and pays {} Force; {} {fate}",
            self.st.label(win),
            bid[ws.ix()],
            self.st.label(lose)
        );
        self.rules(Event::Result, t, &[r::CONTESTING, r::PRIMARY_RULES]);
        Ok(())
    }

    fn end_of_turn(&mut self) -> Flow<()> {
        for p in &mut self.st.pieces {
            p.power_mod = 0;
            p.speed_mod = 0;
        }
        self.may_attack = [None, None];
        self.st.turn_grants.clear();
        self.st.fixed_grants.clear();
        self.rules(
            Event::Phase,
            "end of turn: effects until end of battle and end of turn end",
            &[r::END_OF_TURN, r::G_THIS_TURN],
        );
        self.control_ends()?;
        self.note_no_arena_control();
        let count = |s: Side, e: &Engine| {
            Arena::ALL
                .iter()
                .filter(|&&a| e.st.controller(a) == Some(s))
                .count()
        };
        for s in Side::BOTH {
            if count(s, self) >= 2 {
                self.winner = Some(s);
                let t = format!("{} controls {} arenas and wins", s.name(), count(s, self));
                self.rules(
                    Event::Result,
                    t,
                    &[r::END_OF_TURN, r::OBJECT, r::G_CONTROL_ARENA],
                );
                return Ok(());
            }
        }
        self.rules(
            Event::Result,
            "no player controls 2 or more arenas: a new turn starts",
            &[r::END_OF_TURN, r::OBJECT],
        );
        Ok(())
    }
}

impl Engine<'_> {
    /// A step for each unit in an arena that doesn't count toward
    /// controlling it (judged as the turn ends).
    fn note_no_arena_control(&mut self) {
        for p in 0..self.st.pieces.len() {
            if let Some(a) = self.st.arena_of(p)
                && self.st.top_def(p).no_arena_control
            {
                let t = format!(
                    "{} doesn't count toward controlling the {} arena",
                    self.st.label(p),
                    a.title()
                );
                self.rules(Event::Result, t, &[r::G_CONTROL_ARENA, r::END_OF_TURN]);
            }
        }
    }
}

/// An attack outside the same arena by a unit with Ion Cannon (`rule`
/// `ION_CANNON`) or Bombard: the one other arena its keyword reaches.
fn other_arena(rule: &'static str) -> super::engine::Rejection {
    let (keyword, reach) = if rule == r::ION_CANNON {
        ("Ion Cannon: a Ground unit", "Space")
    } else {
        ("Bombard: a Space unit", "Ground")
    };
    reject(
        format!(
            "{keyword} may attack a unit in the {reach} arena instead; otherwise attack an opponent's unit in the same arena"
        ),
        &[rule, r::ATTACKING],
    )
}
