//! Effects on arenas, zones and the attack under way: discarding every unit
//! in an arena, build counters on a face-down card, a card put from the
//! discard pile into an arena, what lasts "for this attack", and what waits
//! for the start of the battle phase.

use super::damage::{DmgKind, Instance};
use super::effects::Ctx;
use super::engine::{Engine, Flow, Rejection, reject};
use super::model::{
    Arena, AtBattleStart, Bonus, Exile, Filter, FromDiscard, Keywords, NoEvadeDamage, SearchFor,
    Side, Step, Verb,
};
use super::rules as r;
use super::state::{CardIx, PZone, Pid, PieceIx, add_piece, has_subtype};
use crate::engine::Event;

impl<'a> Engine<'a> {
    /// "Each player rolls one of his or her dice. The player who rolls
    /// higher gains N Force. If it's a tie, you gain M Force": the
    /// effect's controller rolls first, then the opponent.
    pub(super) fn roll_off(&mut self, w: Pid, x: super::model::RollOff) -> Flow<()> {
        let mine = self.roll(w.side, 1, "the roll-off")?[0];
        let theirs = self.roll(w.side.other(), 1, "the roll-off")?[0];
        let (to, n, why) = match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => (w, x.higher, "rolls higher"),
            std::cmp::Ordering::Less => (Pid::from(w.side.other()), x.higher, "rolls higher"),
            std::cmp::Ordering::Equal => (w, x.tie, "gains on a tie"),
        };
        self.st.player_mut(to).force += n;
        let txt = format!(
            "roll-off {mine} to {theirs}: {} {why} and gains {n} Force ({} now)",
            self.st.who(to),
            self.st.player(to).force
        );
        self.rules(Event::Result, txt, &[r::G_ROLL, r::G_GAIN_LOSE, r::G_FORCE]);
        Ok(())
    }

    /// "You may search your deck for N cards [of a kind]": the player passes,
    /// or takes N of those found (all of them, if fewer).
    pub(super) fn search_for(&mut self, w: Pid, x: &SearchFor) -> Flow<()> {
        let s = w.side;
        let found: Vec<CardIx> = (self.st.player(w).deck.iter().copied())
            .filter(|&c| {
                let d = self.st.def(c);
                // A card "of a type" (Space, Ground, Character) is a unit card.
                super::state::def_matches(&x.of, d)
                    && (x.of.r#type.is_none() || d.kind == super::model::Kind::Unit)
            })
            .collect();
        let n = x.n.min(found.len());
        let txt = format!(
            "{} searches the deck: {} card(s) of the kind found; {n} must be taken, unless the search is declined",
            self.st.who(w),
            found.len()
        );
        self.by(s, Event::Result, txt, &[r::G_SEARCH]);
        if n == 0 {
            return Ok(());
        }
        let judge = move |e: &Engine, st: &Step| {
            if st.verb() == Verb::Pass {
                return Ok(());
            }
            let cs: Vec<Option<CardIx>> = st.cards.iter().map(|k| e.st.find(&k.value)).collect();
            let distinct = cs.iter().enumerate().all(|(i, c)| !cs[..i].contains(c));
            if st.verb() == Verb::Take
                && cs.len() == n
                && distinct
                && cs.iter().all(|c| c.is_some_and(|c| found.contains(&c)))
            {
                Ok(())
            } else {
                Err(reject(
                    format!("take exactly {n} of the cards the search found (not \"up to\")"),
                    &[r::G_SEARCH],
                ))
            }
        };
        // The judge admits only a step taking exactly `n` cards.
        self.take_found(w, &judge)
    }

    /// "Each player discards all of his or her units in the [arena]".
    pub(super) fn discard_all(&mut self, a: Arena) {
        for x in Side::BOTH {
            for u in self.st.units_in(a, x) {
                let key = format!("discard:{}", self.st.key(u));
                let txt = format!(
                    "{} discards {} from the {} arena, with all cards stacked with it and its Pilots",
                    x.name(),
                    self.st.label(u),
                    a.title()
                );
                self.st.discard_piece(u);
                self.resolved.push(key);
                self.by(
                    x,
                    Event::StateChange,
                    txt,
                    &[r::G_DISCARD, r::G_STACKED_WITH],
                );
            }
        }
    }

    /// The chosen unit gets a bonus for this attack.
    pub(super) fn this_attack_bonus(&mut self, b: &Bonus, target: Option<PieceIx>) {
        if let Some(t) = target {
            self.st.attack_bonuses.push((t, b.clone()));
            let txt = format!(
                "{} gets {} for this attack",
                self.st.label(t),
                describe_bonus(b)
            );
            self.rules(Event::StateChange, txt, &[r::G_TOTAL, r::ATTACKING]);
        }
    }

    /// "For this attack, roll only N of your dice".
    pub(super) fn set_attack_dice(&mut self, n: i64) {
        self.st.attack_dice = Some(n);
        let txt = format!("for this attack, {n} attack dice instead of the attacking unit's power");
        self.rules(Event::StateChange, txt, &[r::ATTACKING, r::USING_EFFECTS]);
    }

    /// "If the attacking unit damages the defending unit, the defending unit
    /// is discarded."
    pub(super) fn set_discard_if_damaged(&mut self) {
        self.st.discard_if_damaged = true;
        let txt = "for this attack, if the attacking unit damages the defending unit, the defending unit is discarded";
        self.rules(Event::StateChange, txt, &[r::G_DAMAGE_DONE, r::G_DISCARD]);
    }

    /// Put the card the play named from player `w`'s discard pile into an
    /// arena, with damage counters on it.
    pub(super) fn put_from_discard(&mut self, w: Pid, x: &FromDiscard, ctx: Ctx) -> Flow<()> {
        let Some(c) = ctx.card.filter(|c| self.st.player(w).discard.contains(c)) else {
            return Ok(());
        };
        self.st.player_mut(w).discard.retain(|&y| y != c);
        let p = add_piece(&mut self.st, w, PZone::Arena(x.arena), c);
        self.st.pieces[p].damage = x.counters;
        let txt = format!(
            "{} is put from the discard pile into the {} arena (not deployed), with {} damage counter{} on it",
            self.st.label(p),
            x.arena.title(),
            x.counters,
            if x.counters == 1 { "" } else { "s" }
        );
        self.rules(
            Event::StateChange,
            txt,
            &[r::G_PUT, r::DISCARD_PILE, r::G_DAMAGE_COUNTER],
        );
        self.meet_text(c);
        self.discard_check(p, None)
    }

    /// Gain Force equal to the chosen unit's total build cost.
    pub(super) fn gain_force_equal_build(&mut self, w: Pid, target: Option<PieceIx>) {
        if let Some(t) = target {
            let n = self.st.totals(t).build;
            self.st.player_mut(w).force += n;
            let txt = format!(
                "{} gains {n} Force, the total build cost of {} ({} now)",
                self.st.who(w),
                self.st.label(t),
                self.st.player(w).force
            );
            self.rules(Event::StateChange, txt, &[r::G_GAIN_LOSE, r::G_TOTAL]);
        }
    }

    /// Free build counters on the chosen face-down card.
    pub(super) fn build_counters(&mut self, n: i64, target: Option<PieceIx>) {
        if let Some(t) = target.filter(|&t| self.st.pieces[t].face_down) {
            self.st.pieces[t].counters += n;
            let txt = format!(
                "{n} build counters put on the face-down {} ({} on it; not paid from build points)",
                self.st.label(t),
                self.st.pieces[t].counters
            );
            self.rules(
                Event::StateChange,
                txt,
                &[r::G_PUT_COUNTERS, r::G_FACE_DOWN],
            );
        }
    }
}

/// A bonus in words: "+5 power", "Accuracy 1", "+10 speed and +1 power".
impl super::engine::Engine<'_> {
    /// Tap (or untap) the unit with the ability.
    pub(super) fn tap_self(&mut self, src: Option<PieceIx>, tap: bool) {
        if let Some(u) = src {
            self.st.pieces[u].tapped = tap;
            let txt = format!(
                "{} {}",
                self.st.label(u),
                if tap { "taps" } else { "untaps" }
            );
            self.rules(Event::StateChange, txt, &[r::G_TAP]);
        }
    }

    /// Remove N damage counters from the unit with the ability.
    pub(super) fn remove_counters_self(&mut self, src: Option<PieceIx>, n: i64) {
        if let Some(u) = src.filter(|&u| self.st.in_arena(u)) {
            let k = n.min(self.st.pieces[u].damage).max(0);
            self.st.pieces[u].damage -= k;
            let txt = format!(
                "{k} damage counter(s) removed from {} ({} left)",
                self.st.label(u),
                self.st.pieces[u].damage
            );
            self.rules(Event::StateChange, txt, &[r::G_DAMAGE_COUNTER]);
        }
    }

    /// Gain 1 Force for each unit the filter names in the arenas (and face
    /// up in the build zones, if it says so).
    pub(super) fn gain_force_per(&mut self, w: Pid, src: Option<PieceIx>, f: &Filter) {
        let n = self.st.count_units(f, w.side, src, None);
        self.st.player_mut(w).force += n;
        let zones = if f.build_zone {
            "the arenas and build zones"
        } else {
            "the arenas"
        };
        let txt = format!(
            "{} gains {n} Force, 1 for each of {n} units in {zones} ({} now)",
            self.st.who(w),
            self.st.player(w).force
        );
        self.rules(Event::StateChange, txt, &[r::G_GAIN_LOSE, r::G_FORCE]);
    }

    /// Effects put aside until the start of this turn's battle phase.
    pub(super) fn wait_for_battle_start(
        &mut self,
        w: Pid,
        src: Option<PieceIx>,
        x: &AtBattleStart,
        ctx: Ctx,
    ) {
        let from = (ctx.card.map(|c| self.st.card_label(c)))
            .or_else(|| src.map(|u| self.st.label(u)))
            .unwrap_or_default();
        let txt = format!("{from}: its effect waits for the start of the battle phase");
        let cites = [r::BATTLE_PHASE, r::USING_EFFECTS];
        self.rules(Event::StateChange, txt, &cites);
        self.at_battle_start.push((w, from, x.clone()));
    }

    /// "Your opponent can't use Evade to prevent damage from [this unit]
    /// for this attack".
    pub(super) fn no_evade_this_attack(&mut self, src: Option<PieceIx>) {
        if let Some(u) = src {
            self.st.no_evade_from.push(u);
            let txt = format!(
                "for this attack, the opponent can't use Evade to prevent damage from {}",
                self.st.label(u)
            );
            self.rules(Event::StateChange, txt, &[r::G_CANT_USE, r::EVADE]);
        }
    }

    /// N damage to the chosen unit that Evade can't prevent, unless the
    /// unit has one of the subtypes named.
    pub(super) fn damage_no_evade(
        &mut self,
        src: Option<PieceIx>,
        x: &NoEvadeDamage,
        target: Option<PieceIx>,
    ) -> Flow<()> {
        let Some(t) = target else { return Ok(()) };
        let line = self.st.subtypes(t);
        let excepted = x.unless.iter().any(|s| has_subtype(&line, s));
        let mut i = Instance::new(t, x.n, DmgKind::Direct, src);
        i.no_evade = !excepted;
        let txt = format!(
            "{}: Evade {} be used to prevent this damage",
            self.st.label(t),
            if excepted { "can" } else { "can't" }
        );
        let cites = [r::G_CANT_USE, r::G_UNLESS_MASTER, r::EVADE];
        self.rules(Event::Result, txt, &cites);
        self.resolve_damage(vec![i])?;
        Ok(())
    }

    /// The chosen unit attacks again each time its attack ends this turn.
    pub(super) fn chain_attacks(&mut self, target: Option<PieceIx>) {
        if let Some(t) = target {
            self.chained.push(t);
            let txt = format!(
                "each time {} attacks this turn, when its attack ends it attacks a unit it hasn't attacked this turn",
                self.st.label(t)
            );
            self.rules(Event::StateChange, txt, &[r::ATTACKING, r::G_THIS_TURN]);
        }
    }

    /// The chosen unit can't attack or be attacked this turn, or (`others`)
    /// it keeps its controller's other units in its arena from being attacked.
    pub(super) fn protect(&mut self, target: Option<PieceIx>, others: bool) {
        let Some(t) = target else { return };
        let txt = if others {
            self.guards.push(t);
            format!(
                "as long as {} is in an arena, its controller's other units in that arena can't be attacked this turn",
                self.st.label(t)
            )
        } else {
            self.cant_attack.push(t);
            format!("{} can't attack or be attacked this turn", self.st.label(t))
        };
        self.rules(Event::StateChange, txt, &[r::G_CANT_ATTACK, r::G_THIS_TURN]);
    }

    /// Whether a unit can't be attacked now, by an effect of this turn.
    pub fn unattackable(&self, d: PieceIx) -> bool {
        self.cant_attack.contains(&d)
            || self.guards.iter().any(|&g| {
                g != d
                    && self.st.in_arena(g)
                    && self.st.arena_of(g) == self.st.arena_of(d)
                    && self.st.pieces[g].side == self.st.pieces[d].side
            })
    }

    /// Every build counter on the player's partially built cards becomes a
    /// build point this turn; the cards stay partially built.
    pub(super) fn build_counters_to_points(&mut self, w: Pid) {
        let mut n = 0;
        for p in 0..self.st.pieces.len() {
            let pc = &self.st.pieces[p];
            if pc.zone == PZone::BuildZone && pc.face_down && self.st.pid_of(p) == w {
                n += pc.counters;
                self.st.pieces[p].counters = 0;
            }
        }
        self.st.player_mut(w).build += n;
        let txt = format!(
            "{n} build counters removed from {}'s partially built cards, which stay partially built: {n} build points more this turn ({} now)",
            self.st.who(w),
            self.st.player(w).build
        );
        self.rules(Event::StateChange, txt, &[r::BUILDING, r::G_THIS_TURN]);
    }

    /// The cards an exile cost names: as many as it says, different, each
    /// in the player's discard pile with one of its subtypes.
    pub(super) fn judge_exile(
        &self,
        s: Side,
        src: Option<PieceIx>,
        x: &Exile,
        st: &Step,
    ) -> Result<(), Rejection> {
        let w = src.map_or(Pid::from(s), |u| self.st.pid_of(u));
        let pile = &self.st.player(w).discard;
        let mut cards: Vec<CardIx> = Vec::new();
        for k in &st.cards {
            let c = self.st.find(&k.value).filter(|c| pile.contains(c));
            let ok = c.is_some_and(|c| {
                !cards.contains(&c)
                    && (x.subtypes.iter()).any(|t| has_subtype(&self.st.def(c).subtypes, t))
            });
            match c {
                Some(c) if ok => cards.push(c),
                _ => {
                    return Err(reject(
                        format!(
                            "`{}` is not a card of your discard pile the cost names ({})",
                            k.value,
                            x.subtypes.join(", ")
                        ),
                        &[r::G_PAY, r::DISCARD_PILE],
                    ));
                }
            }
        }
        if cards.len() != x.n {
            return Err(reject(
                format!(
                    "the cost removes {} cards of your discard pile from the game (`cards:`)",
                    x.n
                ),
                &[r::G_PAY, r::DISCARD_PILE],
            ));
        }
        Ok(())
    }

    /// Remove the cards a judged exile cost names from the game.
    pub(super) fn exile(&mut self, w: Pid, st: &Step) {
        for k in &st.cards {
            if let Some(c) = self.st.find(&k.value) {
                self.st.player_mut(w).discard.retain(|&x| x != c);
                self.st.removed.push(c);
                let txt = format!(
                    "{} is removed from the game to pay the cost",
                    self.st.card_label(c)
                );
                self.rules(Event::StateChange, txt, &[r::G_PAY, r::DISCARD_PILE]);
            }
        }
    }

    /// This turn, N of any damage to the side's units in the arena is prevented.
    pub(super) fn prevent_in_arena(&mut self, s: Side, arena: Option<Arena>, n: i64) {
        if let Some(a) = arena {
            self.arena_prevention.push((s, a, n));
            let txt = format!(
                "this turn, when any of {}'s units in the {} arena would be damaged, {n} of that damage is prevented",
                s.name(),
                a.title()
            );
            self.rules(Event::StateChange, txt, &[r::G_PREVENT, r::G_THIS_TURN]);
        }
    }

    /// "Your opponent gains N Force".
    pub(super) fn opponent_gains_force(&mut self, s: Side, n: i64) -> Flow<()> {
        if self.st.team {
            return self.not_modelled(
                "Two-Headed Wookiee: \"your opponent gains X Force\" when the opponent is two players with their own Force",
                &[r::DISTINCTIONS, r::SHARING, r::G_GAIN_LOSE],
            );
        }
        let o = Pid::from(s.other());
        self.st.player_mut(o).force += n;
        let txt = format!(
            "{} gains {n} Force ({} now)",
            self.st.who(o),
            self.st.player(o).force
        );
        self.rules(Event::StateChange, txt, &[r::G_GAIN_LOSE, r::G_FORCE]);
        Ok(())
    }

    /// At the start of the battle phase, the effects that wait for it, in
    /// the order they were played: the unit is chosen then (with none to
    /// choose, they do nothing), and they resolve.
    pub(super) fn battle_start_effects(&mut self) -> Flow<()> {
        for (w, from, x) in std::mem::take(&mut self.at_battle_start) {
            let t = format!("{from}: \"when the battle phase starts\" resolves");
            self.rules(Event::Push, t, &[r::BATTLE_PHASE, r::USING_EFFECTS]);
            let target = match &x.choose {
                None => None,
                Some(ch) => {
                    let units: Vec<PieceIx> = (0..self.st.pieces.len())
                        .filter(|&p| {
                            self.st.in_arena(p) && self.st.target_ok(&ch.of, w.side, None, p)
                        })
                        .collect();
                    if units.is_empty() {
                        let t = format!("{from}: there is no unit to choose, so it does nothing");
                        self.rules(Event::Result, t, &[r::G_CHOOSE, r::USING_EFFECTS]);
                        continue;
                    }
                    let o = ch.chooser.side(w.side);
                    let why = format!("{} chooses one of the units {from} names", o.name());
                    let Some(t) = self.choose_among(o, &units, "a unit", why, &[r::G_CHOOSE])?
                    else {
                        continue;
                    };
                    let chose = format!("{} chooses {}", o.name(), self.st.label(t));
                    self.by(o, Event::Result, chose, &[r::G_CHOOSE]);
                    Some(t)
                }
            };
            self.run_effects(w, None, &x.effects, target, Ctx::default())?;
        }
        Ok(())
    }
}

fn describe_bonus(b: &Bonus) -> String {
    let mut parts: Vec<String> = [(b.speed, "speed"), (b.power, "power"), (b.health, "health")]
        .iter()
        .filter(|(n, _)| *n != 0)
        .map(|(n, w)| format!("{n:+} {w}"))
        .collect();
    let k = &b.keywords;
    let named = [
        ("Accuracy", k.accuracy),
        ("Critical Hit", k.critical_hit),
        ("Stun", k.stun),
        ("Shields", k.shields),
        ("Lucky", k.lucky),
    ];
    for (name, v) in named {
        if let Some(v) = v {
            parts.push(format!("{name} {v}"));
        }
    }
    let listed = Keywords {
        accuracy: k.accuracy,
        critical_hit: k.critical_hit,
        stun: k.stun,
        shields: k.shields,
        lucky: k.lucky,
        ..Keywords::default()
    };
    if *k != listed {
        parts.push("the other keywords of its card's bonus".to_string());
    }
    if parts.is_empty() {
        "nothing".to_string()
    } else {
        parts.join(" and ")
    }
}
