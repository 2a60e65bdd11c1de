//! The build step: the draw step, Bounty, Upkeep; building, completing and
//! deploying cards, unique stacks (costs, bonuses, at most 4), Equipment,
//! rearranging stacks, moving units and Pilots.

use super::engine::{Answer, Engine, Flow, Rejection, reject};
use super::model::{Arena, Cost, Effect, Kind, Side, Step, Timing, Trigger, Verb};
use super::rules as r;
use super::state::{CardIx, PZone, Pid, PieceIx, add_piece, buildable, same_unit};
use crate::engine::{Event, NeedKind};

/// What a `deploy` does, once judged.
pub struct Plan {
    card: CardIx,
    /// The player whose card it is, who pays.
    who: Pid,
    /// Build points to pay now (after counters on a face-down card).
    pay: i64,
    /// Force paid for the rest of the build cost (Hidden Cost).
    force: i64,
    to: PZone,
    onto: Option<PieceIx>,
    beneath: bool,
    /// The unit a Mission's effect is played on.
    target: Option<PieceIx>,
    /// The arena a Mission's effect chooses.
    arena: Option<Arena>,
    /// The option a Mission's "choose one" takes.
    choice: Option<usize>,
}

impl<'a> Engine<'a> {
    pub fn build_step(&mut self, s: Side) -> Flow<()> {
        self.rules(
            Event::Phase,
            format!("{}'s build step", s.name()),
            &[r::COMMAND_PHASE],
        );
        self.fire(Trigger::BuildStepStart, Some(s), None)?;
        let team: &[&'static str] = if self.st.team {
            &[r::BOUNTY, r::COMMAND_PHASE, r::SHARING]
        } else {
            &[r::BOUNTY, r::COMMAND_PHASE]
        };
        for w in self.st.pids(s) {
            // The draw step's card triggers "when you draw a card" too.
            for _ in 0..self.draw(w, 1) {
                self.draw_triggers(w)?;
            }
        }
        for w in self.st.pids(s) {
            let b = std::mem::take(&mut self.st.player_mut(w).bounty);
            if b != Cost::default() {
                let pl = self.st.player_mut(w);
                pl.force += b.force;
                pl.build += b.build;
                let t = format!(
                    "{} gains its bounties: {} Force, {} build points",
                    self.st.who(w),
                    b.force,
                    b.build
                );
                self.rules(Event::StateChange, t, team);
            }
        }
        for w in self.st.pids(s) {
            self.upkeeps(w)?;
        }
        loop {
            let judge = |e: &Engine, st: &Step| {
                if st.verb() == Verb::Pass {
                    Ok(())
                } else {
                    e.judge_build(s, st).map(|_| ())
                }
            };
            let can = self.has_build_options(s);
            match self.ask(s, NeedKind::Action, "build step", can, &judge)? {
                Answer::Pass => break,
                Answer::Do(st) => self.do_build(s, &st)?,
            }
        }
        for w in self.st.pids(s) {
            let left = self.st.player(w).build;
            if left > 0 {
                self.st.player_mut(w).build = 0;
                let t = if self.st.team {
                    format!(
                        "{left} unspent build points are wasted ({})",
                        self.st.who(w)
                    )
                } else {
                    format!("{left} unspent build points are wasted")
                };
                self.rules(Event::StateChange, t, &[r::COMMAND_PHASE]);
            }
        }
        Ok(())
    }

    /// Whether a player has anything to do in the build step: build points or
    /// cards to build, Equipment to equip, a stack to rearrange, a unit or Pilot to move.
    fn has_build_options(&self, s: Side) -> bool {
        self.st.pids(s).into_iter().any(|w| {
            let pl = self.st.player(w);
            pl.build > 0 || !pl.hand.is_empty()
        }) || (0..self.st.pieces.len()).any(|p| {
            let pc = &self.st.pieces[p];
            pc.side == s
                && match pc.zone {
                    PZone::BuildZone => true,
                    PZone::Pilot(_) => !pc.moved,
                    PZone::Gone | PZone::Location(_) => false,
                    PZone::Arena(_) => {
                        let d = self.st.top_def(p);
                        pc.stack.len() > 1
                            || ((d.types.len() > 1 || d.pilot.is_some()) && !pc.moved)
                    }
                    _ => pc.stack.len() > 1,
                }
        }) || self.can_play(s, Timing::BuildStep, None)
    }

    /// Upkeep: each payable Upkeep must be paid; the player orders them when it matters.
    fn upkeeps(&mut self, w: Pid) -> Flow<()> {
        let s = w.side;
        let mut pending: Vec<(PieceIx, usize, Cost)> = Vec::new();
        for p in 0..self.st.pieces.len() {
            if self.st.pid_of(p) != w || self.st.pieces[p].zone == PZone::Gone {
                continue;
            }
            let waived = self.st.grants_to(p).iter().any(|(_, g)| g.no_upkeep);
            if waived && self.st.top_def(p).keywords.upkeep.is_some() {
                let t = format!(
                    "{} doesn't have to pay the Upkeep costs of {} (an effect says so)",
                    self.st.who(w),
                    self.st.label(p)
                );
                self.rules(Event::Result, t, &[r::UPKEEP, r::USING_EFFECTS]);
                continue;
            }
            for (k, c) in self
                .st
                .top_def(p)
                .keywords
                .upkeep
                .iter()
                .flatten()
                .enumerate()
            {
                pending.push((p, k + 1, *c));
            }
        }
        while !pending.is_empty() {
            let (hb, hf) = (self.st.player(w).build, self.st.player(w).force);
            let payable = |c: &Cost| c.build <= hb && c.force <= hf;
            let (ok, unpaid): (Vec<_>, Vec<_>) = pending.into_iter().partition(|x| payable(&x.2));
            pending = ok;
            for (p, n, c) in unpaid {
                let t = format!(
                    "{} can't pay Upkeep {n} of {} ({} build, {} Force) in full: it is ignored",
                    self.st.who(w),
                    self.st.label(p),
                    c.build,
                    c.force
                );
                let cites: &[&'static str] = if self.st.team {
                    &[r::UPKEEP, r::SHARING]
                } else {
                    &[r::UPKEEP]
                };
                self.rules(Event::Result, t, cites);
            }
            let total = pending.iter().fold(Cost::default(), |a, x| Cost {
                build: a.build + x.2.build,
                force: a.force + x.2.force,
            });
            let k = if pending.len() <= 1 || payable(&total) {
                0
            } else {
                let p2 = pending.clone();
                let judge = move |e: &Engine, st: &Step| {
                    let ok = st.verb() == Verb::Upkeep
                        && p2
                            .iter()
                            .any(|x| Some(x.0) == e.unit_of(st) && Some(x.1) == st.ability);
                    if ok {
                        Ok(())
                    } else {
                        Err(reject(
                            "choose which Upkeep to pay first (`unit`, `ability`)",
                            &[r::UPKEEP],
                        ))
                    }
                };
                match self.ask(s, NeedKind::Order, "the order of Upkeeps", true, &judge)? {
                    Answer::Do(st) => pending
                        .iter()
                        .position(|x| Some(x.0) == self.unit_of(&st) && Some(x.1) == st.ability)
                        .unwrap_or(0),
                    Answer::Pass => 0,
                }
            };
            if pending.is_empty() {
                break;
            }
            let (p, n, c) = pending.remove(k);
            let pl = self.st.player_mut(w);
            pl.build -= c.build;
            pl.force -= c.force;
            let t = format!(
                "{} pays Upkeep {n} of {} ({} build, {} Force)",
                self.st.who(w),
                self.st.label(p),
                c.build,
                c.force
            );
            self.rules(Event::StateChange, t, &[r::UPKEEP]);
        }
        Ok(())
    }

    fn own_piece(&self, s: Side, key: Option<&str>) -> Option<PieceIx> {
        key.and_then(|k| self.st.piece_by_key(k))
            .filter(|&p| self.st.pieces[p].side == s)
    }

    /// The player a decision about a card is for: the player who controls it
    /// (in play) or holds it; in Two-Headed Wookiee a step's `player:` naming
    /// the teammate is rejected: teammates don't share Force or build points.
    pub fn card_player(&self, s: Side, st: &Step) -> Result<Pid, Rejection> {
        let c = st.card().and_then(|k| self.st.find(k));
        let w = match (self.own_piece(s, st.card()), c) {
            (Some(p), _) => self.st.pid_of(p),
            (None, Some(c)) => self
                .st
                .holder(c)
                .filter(|w| w.side == s)
                .unwrap_or(Pid::from(s)),
            (None, None) => Pid::from(s),
        };
        self.payer(w, st)?;
        Ok(w)
    }

    /// Rejection a step whose `player:` is not `w` (Two-Headed Wookiee).
    pub fn payer(&self, w: Pid, st: &Step) -> Result<(), Rejection> {
        match &st.player {
            Some(p) if self.st.team && p.value != w.letter() => Err(reject(
                format!(
                    "players on a team do not share Force or build points: the card is {}'s, and only that player pays for it",
                    self.st.who(w)
                ),
                &[r::SHARING, r::DISTINCTIONS],
            )),
            _ => Ok(()),
        }
    }

    fn judge_build(&self, s: Side, st: &Step) -> Result<Option<Plan>, Rejection> {
        match st.verb() {
            Verb::Build => {
                let c = st
                    .card()
                    .and_then(|k| self.st.find(k))
                    .ok_or_else(|| reject("name the card", &[r::BUILDING]))?;
                let w = self.card_player(s, st)?;
                let pl = self.st.player(w);
                let n = st.amount.unwrap_or(0);
                let face_down = self
                    .own_piece(s, st.card())
                    .filter(|&p| self.st.pieces[p].face_down);
                if face_down.is_none() && (!pl.hand.contains(&c) || !buildable(self.st.def(c).kind))
                {
                    return Err(reject(
                        "build a card with a build cost from your hand (or add counters to a partially built card)",
                        &[r::BUILDING],
                    ));
                }
                if n < 1 || n > pl.build {
                    return Err(reject(
                        format!("put 1 to {} build counters on it", pl.build),
                        &[r::BUILDING, r::G_PAY],
                    ));
                }
                Ok(None)
            }
            Verb::Deploy => self.judge_deploy(s, st).map(Some),
            Verb::Rearrange => self.judge_rearrange(s, st).map(|_| None),
            Verb::Equip => self.judge_equip(s, st).map(|_| None),
            Verb::Move => self.judge_move(s, st).map(|_| None),
            Verb::Play => self.judge_card(s, st, Timing::BuildStep).map(|_| None),
            _ => Err(reject(
                "in the build step: build, deploy, equip, rearrange, move, play an ability, or pass",
                &[r::COMMAND_PHASE],
            )),
        }
    }

    /// The build points a card still needs: its cost (a stacking cost when stacked) less its counters.
    pub fn judge_deploy(&self, s: Side, st: &Step) -> Result<Plan, Rejection> {
        let c = st
            .card()
            .and_then(|k| self.st.find(k))
            .ok_or_else(|| reject("name the card", &[r::BUILDING]))?;
        let who = self.card_player(s, st)?;
        let pl = self.st.player(who);
        let fd = self
            .own_piece(s, st.card())
            .filter(|&p| self.st.pieces[p].face_down);
        if fd.is_none() && !pl.hand.contains(&c) {
            return Err(reject(
                "complete a partially built card or a card from your hand",
                &[r::BUILDING],
            ));
        }
        // A partially built card is completed when its counters fulfil its cost.
        let counters = fd.map_or(0, |p| self.st.pieces[p].counters);
        let d = self.st.def(c);
        let (cost, to, onto) = if let Some(on) = st.onto() {
            let u = self
                .own_piece(s, Some(on))
                .ok_or_else(|| reject("stack onto one of your units", &[r::STACKING]))?;
            if self.st.pid_of(u) != who {
                return Err(reject(
                    "you stack versions onto your own unique unit: in Two-Headed Wookiee \"you\" is only the player who controls the card",
                    &[r::STACKING, r::DISTINCTIONS],
                ));
            }
            self.judge_stack(c, u)?;
            let top = self.st.top_def(u).cost;
            let cost = if st.beneath {
                1
            } else {
                1 + (d.cost - top).max(0)
            };
            (cost, self.st.pieces[u].zone, Some(u))
        } else if d.kind == Kind::Mission {
            let chosen = self.card_activated(c).and_then(|a| a.target);
            if let Some(f) = chosen
                && !self
                    .target_of(st)
                    .is_some_and(|t| self.st.target_ok(&f, s, None, t))
            {
                return Err(reject(
                    "the chosen unit (`target:`) must be one the Mission allows",
                    &[r::G_CHOOSE, r::MISSION_CARDS],
                ));
            }
            let needs_arena = (self.card_activated(c).iter())
                .flat_map(|a| a.effects.iter())
                .any(|e| matches!(e, Effect::PreventInArenaThisTurn(_)));
            if let Some(a) = self.card_activated(c) {
                super::effects::judge_option(&a.effects, st)?;
            }
            if needs_arena && st.arena.is_none() {
                return Err(reject(
                    "the Mission chooses an arena (`arena:`)",
                    &[r::G_CHOOSE, r::MISSION_CARDS],
                ));
            }
            (d.cost, PZone::Gone, None)
        } else if d.kind == Kind::Location {
            let (cost, a) = self.location_cost(c, st.arena)?;
            (cost, PZone::Location(a), None)
        } else if st.build_zone || d.kind == Kind::Equipment {
            (
                fd.map_or(self.st.hand_cost(c, who), |p| self.st.deploy_cost(p)),
                PZone::BuildZone,
                None,
            )
        } else {
            let a = st.arena.ok_or_else(|| {
                reject(
                    "deploy to an arena (`arena:`), the build zone, or onto a stack",
                    &[r::UNIT_CARDS],
                )
            })?;
            if !d.types.contains(&a) {
                return Err(reject(
                    format!("{} is not a {} unit", d.name, a.title()),
                    &[r::UNIT_CARDS, r::MULTI_ARENA],
                ));
            }
            (
                fd.map_or(self.st.hand_cost(c, who), |p| self.st.deploy_cost(p)),
                PZone::Arena(a),
                None,
            )
        };
        let pay = if fd.is_some() { 0 } else { cost };
        let mut force = 0;
        let hidden = fd.and(d.keywords.hidden_cost);
        if let Some(x) = hidden.filter(|_| counters < cost && onto.is_none()) {
            if counters < x.min(cost) {
                return Err(reject(
                    format!(
                        "Hidden Cost {x}: it needs {} build counters (X or its build cost {cost}, whichever is less); it has {counters}",
                        x.min(cost)
                    ),
                    &[r::HIDDEN_COST],
                ));
            }
            force = cost - counters;
            if force > pl.force {
                return Err(reject(
                    format!(
                        "Hidden Cost: the remaining build cost is {force} Force; {} has {}",
                        self.st.who(who),
                        pl.force
                    ),
                    &[r::HIDDEN_COST, r::G_PAY, r::SHARING],
                ));
            }
        } else if fd.is_some() && counters < cost {
            return Err(reject(
                format!(
                    "it costs {cost} build and has {counters} build counters: its cost is not fulfilled"
                ),
                if d.kind == Kind::Location {
                    &[r::BUILDING, r::LOCATION_CARDS]
                } else {
                    &[r::BUILDING, r::STACKING]
                },
            ));
        }
        if pay > pl.build {
            return Err(reject(
                format!(
                    "it costs {cost} build ({counters} counters on it); {} has {} build points",
                    self.st.who(who),
                    pl.build
                ),
                &[r::BUILDING, r::STACKING, r::LOCATION_CARDS, r::G_PAY],
            ));
        }
        Ok(Plan {
            card: c,
            who,
            pay,
            force,
            to,
            onto,
            beneath: st.beneath,
            target: self.target_of(st),
            arena: st.arena,
            choice: st.choice,
        })
    }

    /// A Location goes into an arena matching its subtype; replacing the
    /// Location there costs the build cost of whichever Location costs more.
    fn location_cost(&self, c: CardIx, arena: Option<Arena>) -> Result<(i64, Arena), Rejection> {
        let d = self.st.def(c);
        let a = arena
            .or_else(|| (d.types.len() == 1).then(|| d.types[0]))
            .ok_or_else(|| {
                reject(
                    "name the arena the Location goes into (`arena:`)",
                    &[r::LOCATION_CARDS, r::MULTI_ARENA],
                )
            })?;
        if !d.types.contains(&a) {
            return Err(reject(
                format!(
                    "a Location goes into an arena that matches its subtype: {} is not a {} Location",
                    d.name,
                    a.title()
                ),
                &[r::LOCATION_CARDS],
            ));
        }
        let old = (0..self.st.pieces.len())
            .find(|&q| self.st.pieces[q].zone == PZone::Location(a))
            .map_or(0, |q| self.st.top_def(q).cost);
        Ok((d.cost.max(old), a))
    }

    /// The stacking rules: same unit, not the same version, at most 4.
    fn judge_stack(&self, c: CardIx, u: PieceIx) -> Result<(), Rejection> {
        let d = self.st.def(c);
        let top = self.st.top_def(u);
        if d.version.is_none() || top.version.is_none() || !same_unit(&d.name, &top.name) {
            return Err(reject(
                format!(
                    "{} and {} are not versions of the same unique unit",
                    d.name, top.name
                ),
                &[r::STACKING, r::DIFFERENT_NAMES],
            ));
        }
        if self.st.pieces[u]
            .stack
            .iter()
            .any(|&x| self.st.def(x).name == d.name && self.st.def(x).version == d.version)
        {
            return Err(reject(
                "you can't have two copies of the same version in a stack",
                &[r::STACKING],
            ));
        }
        if self.st.pieces[u].stack.len() >= 4
            && !self.st.grants_to(u).iter().any(|(_, g)| g.no_stack_limit)
        {
            return Err(reject(
                format!(
                    "you can't add to a stack that already has {} cards in it (at most 4, and no effect in play lets it hold more)",
                    self.st.pieces[u].stack.len()
                ),
                &[r::STACKING],
            ));
        }
        Ok(())
    }

    fn judge_rearrange(&self, s: Side, st: &Step) -> Result<(), Rejection> {
        let c = st
            .card()
            .and_then(|k| self.st.find(k))
            .ok_or_else(|| reject("name the card to put on top", &[r::STACKING]))?;
        let u = self
            .own_piece(s, st.card())
            .ok_or_else(|| reject("rearrange one of your stacks", &[r::STACKING]))?;
        if self.st.top(u) == c {
            return Err(reject("the card is already on top", &[r::STACKING]));
        }
        self.payer(self.st.pid_of(u), st)?;
        let diff = (self.st.def(c).cost - self.st.top_def(u).cost).max(0);
        if diff > self.st.player(self.st.pid_of(u)).build {
            return Err(reject(
                format!("putting it on top costs {diff} build points"),
                &[r::STACKING, r::G_PAY],
            ));
        }
        if let PZone::Pilot(host) = self.st.pieces[u].zone {
            let pd = self.st.def(c).pilot.as_ref();
            let hd = self.st.top_def(host);
            let ok = pd.is_some_and(|p| {
                super::state::has_subtype(&hd.subtypes, &p.subtype)
                    || hd.pilotable_as.as_deref() == Some(p.subtype.as_str())
            });
            if !ok {
                return Err(reject(
                    "that version can't pilot this unit: move the Pilot off it (to a unit it can pilot, the Character arena or the build zone) first",
                    &[r::FALL_OFF, r::PILOT],
                ));
            }
        }
        Ok(())
    }

    fn judge_equip(&self, s: Side, st: &Step) -> Result<(), Rejection> {
        let e = self
            .own_piece(s, st.card())
            .ok_or_else(|| reject("equip a completed Equipment of yours", &[r::EQUIP]))?;
        if self.st.top_def(e).kind != Kind::Equipment || self.st.pieces[e].zone != PZone::BuildZone
        {
            return Err(reject(
                "equip a completed Equipment from your build zone",
                &[r::EQUIPMENT_CARDS, r::EQUIP],
            ));
        }
        if self.st.pieces[e].equipped {
            return Err(reject(
                "you may only equip each Equipment once per turn",
                &[r::EQUIP, r::EQUIPMENT_CARDS],
            ));
        }
        let w = self.st.pid_of(e);
        self.payer(w, st)?;
        let cost = self.equip_cost(e, st);
        let pl = self.st.player(w);
        if cost.build > pl.build || cost.force > pl.force {
            return Err(reject(
                format!(
                    "the equip cost is {} build and {} Force",
                    cost.build, cost.force
                ),
                &[r::EQUIP, r::G_PAY],
            ));
        }
        if let Some(on) = st.onto() {
            let x = self
                .own_piece(s, Some(on))
                .filter(|&x| matches!(self.st.pieces[x].zone, PZone::Attached(_)));
            let x = x.ok_or_else(|| reject("stack onto attached Equipment", &[r::STACKING]))?;
            return self.judge_stack(self.st.top(e), x);
        }
        let u = self
            .own_piece(s, st.unit())
            .filter(|&u| self.st.in_arena(u))
            .ok_or_else(|| reject("equip one of your units in an arena", &[r::EQUIP]))?;
        if self.st.pid_of(u) != w {
            return Err(reject(
                "equip a valid unit you control: in Two-Headed Wookiee not your teammate's",
                &[r::EQUIPMENT_CARDS, r::DISTINCTIONS],
            ));
        }
        let ed = self.st.top_def(e);
        if !ed.types.iter().any(|&t| self.st.has_type(u, t)) {
            return Err(reject(
                "the Equipment's subtype does not match the unit's type",
                &[r::EQUIPMENT_CARDS],
            ));
        }
        Ok(())
    }

    /// The equip cost; onto an Equipment stack, 1 build point more, then -1 from each
    /// number for each card already in the stack.
    fn equip_cost(&self, e: PieceIx, st: &Step) -> Cost {
        let base = self.st.top_def(e).equip.unwrap_or_default();
        match st.onto().and_then(|k| self.st.piece_by_key(k)) {
            Some(x) => {
                let n = self.st.pieces[x].stack.len() as i64;
                Cost {
                    build: (base.build + 1 - n).max(0),
                    force: (base.force - n).max(0),
                }
            }
            None => base,
        }
    }

    fn judge_move(&self, s: Side, st: &Step) -> Result<(), Rejection> {
        let u = self
            .own_piece(s, st.unit())
            .ok_or_else(|| reject("move one of your units", &[r::G_MOVE]))?;
        let pc = &self.st.pieces[u];
        if let Some(t) = st.target() {
            let h = self
                .own_piece(s, Some(t))
                .filter(|&h| self.st.in_arena(h))
                .ok_or_else(|| reject("pilot one of your units in an arena", &[r::PILOTING]))?;
            if !self.st.can_pilot(u, h) {
                return Err(reject(
                    "a Pilot pilots a non-Droid unit of its subtype",
                    &[r::PILOTING, r::PILOT],
                ));
            }
            if !self.st.riders(h, true).is_empty() {
                return Err(reject(
                    "the piloted unit can't have more than one Pilot",
                    &[r::PILOT],
                ));
            }
            return if pc.moved {
                Err(reject(
                    "a Pilot moves once per build step",
                    &[r::PILOT, r::G_MOVE],
                ))
            } else {
                Ok(())
            };
        }
        match (pc.zone, st.arena, st.build_zone) {
            (PZone::BuildZone, Some(a), _) if self.st.top_def(u).types.contains(&a) => Ok(()),
            (PZone::Pilot(_), _, true) | (PZone::Arena(_), _, true) if !pc.moved => Ok(()),
            (PZone::Arena(_), Some(a), _) if self.st.top_def(u).types.contains(&a) && !pc.moved => {
                Ok(())
            }
            _ => Err(reject(
                "move a unit from the build zone to an arena of its type, or once per turn between arenas or to the build zone",
                &[r::G_MOVE, r::MULTI_ARENA],
            )),
        }
    }

    fn do_build(&mut self, s: Side, st: &Step) -> Flow<()> {
        let Ok(plan) = self.judge_build(s, st) else {
            return Ok(());
        };
        match st.verb() {
            Verb::Play => self.play(s, st, super::effects::Ctx::default())?,
            Verb::Build => {
                let Some(c) = st.card().and_then(|k| self.st.find(k)) else {
                    return Ok(());
                };
                let n = st.amount.unwrap_or(0);
                let w = self.card_player(s, st).unwrap_or(Pid::from(s));
                let p = match self.own_piece(s, st.card()) {
                    Some(p) => p,
                    None => {
                        self.st.player_mut(w).hand.retain(|&x| x != c);
                        let p = add_piece(&mut self.st, w, PZone::BuildZone, c);
                        self.st.pieces[p].face_down = true;
                        p
                    }
                };
                self.st.pieces[p].counters += n;
                self.st.player_mut(w).build -= n;
                let t = format!(
                    "{} puts {n} build counter(s) on {} face-down ({} in all)",
                    self.st.who(w),
                    self.st.card_label(c),
                    self.st.pieces[p].counters
                );
                self.by(s, Event::StateChange, t, &[r::BUILDING]);
            }
            Verb::Deploy => {
                if let Some(plan) = plan {
                    self.deploy(s, plan)?;
                }
            }
            Verb::Rearrange => self.rearrange(s, st)?,
            Verb::Equip => self.equip(s, st)?,
            Verb::Move => self.do_move(s, st),
            _ => {}
        }
        Ok(())
    }

    /// Complete a card: deploy a unit, put Equipment in the build zone, or
    /// resolve a Mission and discard it.
    pub fn deploy(&mut self, s: Side, plan: Plan) -> Flow<()> {
        let c = plan.card;
        if let Some(p) = self.st.piece_of(c) {
            self.st.pieces[p].zone = PZone::Gone;
            self.st.pieces[p].stack.clear();
        }
        let w = plan.who;
        self.st.player_mut(w).hand.retain(|&x| x != c);
        self.st.player_mut(w).build -= plan.pay;
        if plan.force > 0 {
            self.st.player_mut(w).force -= plan.force;
            let t = format!(
                "Hidden Cost: {} pays {} Force for the rest of the build cost of {}",
                self.st.who(w),
                plan.force,
                self.st.card_label(c)
            );
            self.by(s, Event::StateChange, t, &[r::HIDDEN_COST, r::G_PAY]);
        }
        if self.st.def(c).kind == Kind::Mission {
            return self.complete_mission(s, &plan);
        }
        match plan.onto {
            Some(u) => {
                if plan.beneath {
                    self.st.pieces[u].stack.push(c);
                } else {
                    self.st.pieces[u].stack.insert(0, c);
                }
                let t = format!(
                    "{} completes {} for {} build point(s) and stacks it {} {} (stack of {})",
                    s.name(),
                    self.st.card_label(c),
                    plan.pay,
                    if plan.beneath { "beneath" } else { "on top of" },
                    self.st
                        .card_label(self.st.pieces[u].stack[if plan.beneath { 0 } else { 1 }]),
                    self.st.pieces[u].stack.len()
                );
                self.by(s, Event::StateChange, t, &[r::STACKING, r::BUILDING]);
                self.meet_in_play();
                self.discard_check(u, None)?;
                self.fire(Trigger::Deploy, Some(s), Some(u))?;
            }
            None => {
                if let PZone::Location(a) = plan.to
                    && let Some(q) =
                        (0..self.st.pieces.len()).find(|&q| self.st.pieces[q].zone == plan.to)
                {
                    let t = format!(
                        "{} replaces {} in the {} arena (paying the build cost of whichever Location costs more); {} goes to its owner's discard pile",
                        self.st.card_label(c),
                        self.st.label(q),
                        a.title(),
                        self.st.label(q)
                    );
                    self.st.discard_piece(q);
                    self.by(
                        s,
                        Event::StateChange,
                        t,
                        &[r::LOCATION_CARDS, r::PRIMARY_RULES],
                    );
                }
                let p = add_piece(&mut self.st, w, plan.to, c);
                let (z, cite) = match plan.to {
                    PZone::Arena(a) => (
                        format!("deploys it to the {} arena", a.title()),
                        r::UNIT_CARDS,
                    ),
                    PZone::Location(a) => (
                        format!(
                            "puts it into the {} arena (a Location is not deployed)",
                            a.title()
                        ),
                        r::LOCATION_CARDS,
                    ),
                    _ => ("deploys it to the build zone".into(), r::UNIT_CARDS),
                };
                let t = format!(
                    "{} completes {} for {} build point(s) and {z}",
                    self.st.who(w),
                    self.st.card_label(c),
                    plan.pay
                );
                self.by(s, Event::StateChange, t, &[r::BUILDING, cite]);
                self.meet_in_play();
                self.unique_clash(p)?;
                if self.st.def(c).kind == Kind::Unit && self.st.pieces[p].zone != PZone::Gone {
                    self.fire(Trigger::Deploy, Some(s), Some(p))?;
                }
            }
        }
        Ok(())
    }

    /// A Mission completed: the disrupt POP, then (if not disrupted) its
    /// instructions; it is discarded either way.
    fn complete_mission(&mut self, s: Side, plan: &Plan) -> Flow<()> {
        let (c, w) = (plan.card, plan.who);
        let o = self.st.owner[c];
        self.st.player_mut(o).discard.push(c);
        let t = format!(
            "{} completes the Mission {} for {} build point(s): unless it is disrupted, follow its instructions and discard it",
            self.st.who(w),
            self.st.card_label(c),
            plan.pay
        );
        self.by(s, Event::Initiate, t, &[r::MISSION_CARDS, r::BUILDING]);
        self.meet_text(c);
        if let Some(a) = self.card_activated(c) {
            self.tap_target(&a, plan.target);
        }
        let cites = [r::MISSION_CARDS, r::POP, r::G_DISRUPT];
        let what = format!("disrupt POP ({} completed)", self.st.card_label(c));
        if self.disrupt_pop(Timing::DisruptMission, &what, &cites)? {
            let t = format!(
                "the completion of {} is disrupted: it is discarded without effect (its cost stays paid)",
                self.st.card_label(c)
            );
            self.rules(Event::Cancel, t, &cites);
            return Ok(());
        }
        self.resolved.push(format!("play:{}", self.st.keys[c]));
        let effects = self
            .card_activated(c)
            .map(|a| a.effects)
            .unwrap_or_default();
        let ctx = super::effects::Ctx {
            card: Some(c),
            arena: plan.arena,
            choice: plan.choice,
            ..Default::default()
        };
        self.run_effects(w, None, &effects, plan.target, ctx)
    }

    fn rearrange(&mut self, s: Side, st: &Step) -> Flow<()> {
        let (Some(c), Some(u)) = (
            st.card().and_then(|k| self.st.find(k)),
            self.own_piece(s, st.card()),
        ) else {
            return Ok(());
        };
        let diff = (self.st.def(c).cost - self.st.top_def(u).cost).max(0);
        let w = self.st.pid_of(u);
        self.st.player_mut(w).build -= diff;
        self.st.pieces[u].stack.retain(|&x| x != c);
        self.st.pieces[u].stack.insert(0, c);
        let t = format!(
            "{} puts {} on top of its stack (pays {diff} build)",
            s.name(),
            self.st.card_label(c)
        );
        self.by(s, Event::StateChange, t, &[r::STACKING]);
        self.discard_check(u, None)
    }

    fn equip(&mut self, s: Side, st: &Step) -> Flow<()> {
        let Some(e) = self.own_piece(s, st.card()) else {
            return Ok(());
        };
        let cost = self.equip_cost(e, st);
        let w = self.st.pid_of(e);
        let pl = self.st.player_mut(w);
        pl.build -= cost.build;
        pl.force -= cost.force;
        if let Some(x) = st.onto().and_then(|k| self.st.piece_by_key(k)) {
            let c = self.st.top(e);
            self.st.pieces[e].zone = PZone::Gone;
            self.st.pieces[e].stack.clear();
            self.st.pieces[x].stack.insert(0, c);
            self.st.pieces[x].equipped = true;
        } else if let Some(u) = self.own_piece(s, st.unit()) {
            self.st.pieces[e].zone = PZone::Attached(u);
            self.st.pieces[e].equipped = true;
        }
        let t = format!(
            "{} equips {} (pays {} build, {} Force)",
            s.name(),
            self.st
                .card_label(self.st.find(st.card().unwrap_or_default()).unwrap_or(0)),
            cost.build,
            cost.force
        );
        self.by(s, Event::StateChange, t, &[r::EQUIP, r::STACKING]);
        if self.st.pieces[e].zone != PZone::Gone {
            self.unique_clash(e)?;
        }
        Ok(())
    }

    fn do_move(&mut self, s: Side, st: &Step) {
        let Some(u) = self.own_piece(s, st.unit()) else {
            return;
        };
        let from_bz = self.st.pieces[u].zone == PZone::BuildZone;
        let to = if let Some(h) = st.target().and_then(|k| self.st.piece_by_key(k)) {
            PZone::Pilot(h)
        } else if st.build_zone {
            PZone::BuildZone
        } else {
            PZone::Arena(st.arena.unwrap_or(Arena::Space))
        };
        self.st.pieces[u].zone = to;
        if !from_bz || matches!(to, PZone::Pilot(_)) {
            self.st.pieces[u].moved = true;
        }
        let t = format!(
            "{} moves {} ({})",
            s.name(),
            self.st.label(u),
            st.describe()
        );
        self.by(s, Event::StateChange, t, &[r::G_MOVE, r::COMMAND_PHASE]);
    }
}
