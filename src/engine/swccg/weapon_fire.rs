//! Weapons on the board (AR Ch.9 Weapons): who may fire, at what, when, and what a
//! firing's weapon destiny adds up to.
//!
//! Firing is an action: (1) conditions — a rule (a battle's weapons segment) or a
//! card permits it; (2) target — an opponent's card the weapon's text names, present
//! with the weapon (a long-range weapon: both present at their locations, the same or
//! adjacent sites), and in a battle only a card participating in it; (3) the cost.
//! Automated weapons are not fired (Laser Projector excepted). A card's permission
//! (`permits_fire`) is an Interrupt's (any of your weapons), a weapon's own text, or a
//! character's, starship's or device's text, which applies only to weapons on that
//! card (or on the card it is on). Each firing draws the weapon's destiny draws; each
//! draw takes its "each destiny draw" modifiers (a negative draw counts 0); firing
//! twice combined adds the two firings; modifiers to total weapon destiny are added
//! last. A hit card participating in a battle is turned sideways; any other hit card
//! (fired outside a battle, or not participating) is lost at once.

use super::battle::Defense;
use super::effects::Applied;
use super::engine::*;
use super::stack::{ActionKind, Entry, Tgt};
use super::state::{CardIx, Zone};
use super::statics::{Static, pick};
use super::values::cite;
use crate::engine::swccg::model::{
    CardType, DestinyTest, Effect, Filter, Phase, PileName, Side, WeaponDef,
};
use crate::engine::{Actor, Event};
use serde::Deserialize;

pub const USING_WEAPONS: &str = "swccg.ar.weapons-using-weapons";
pub const WEAPONS_FIRING: &str = "swccg.ar.weapons-firing";
pub const WHEN_CAN_I_FIRE: &str = "swccg.ar.weapons-when-can-i-fire";
pub const AUTOMATED: &str = "swccg.ar.weapons-automated";
pub const HIT: &str = "swccg.ar.weapons-hit";
pub const LONG_RANGE: &str = "swccg.ar.weapons-long-range-weapons";
pub const SEPARATELY_OR_COMBINED: &str = "swccg.ar.weapons-firing-separately-or-combined";
pub const WEAPON_DESTINY: &str = "swccg.ar.weapons-destiny";
pub const FIRING_FOR_FREE: &str = "swccg.ar.weapons-firing-for-free";
pub const CHARACTER_WEAPON: &str = "swccg.ar.weapons-character-weapon";
pub const STARSHIP_WEAPONS: &str = "swccg.ar.weapons-starship-and-vehicle-weapons";
pub const UNDERCOVER: &str = "swccg.ar.undercover-spy-rules";
pub const INSTEAD_OF_FIRING: &str = "swccg.ar.weapons-instead-of-firing";

/// Every section this module cites.
pub const IDS: &[&str] = &[
    USING_WEAPONS,
    WEAPONS_FIRING,
    WHEN_CAN_I_FIRE,
    AUTOMATED,
    HIT,
    LONG_RANGE,
    SEPARATELY_OR_COMBINED,
    WEAPON_DESTINY,
    FIRING_FOR_FREE,
    CHARACTER_WEAPON,
    STARSHIP_WEAPONS,
    UNDERCOVER,
    INSTEAD_OF_FIRING,
];

/// The lone automated weapon that fires (AR Weapons - Automated).
const LASER_PROJECTOR: &str = "Laser Projector";

/// "Add N if targeting …": added to the total weapon destiny when the target matches.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponVs {
    #[serde(default)]
    pub filter: Filter,
    pub add: i64,
}

/// A card's permission to fire a weapon.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirePermit {
    /// The phase of your turn it permits firing in (`control`); none: during a
    /// battle's weapons segment.
    #[serde(default)]
    pub during: Option<Phase>,
    /// The weapons it permits (`{keyword: [blaster]}`); default: any it applies to.
    #[serde(default)]
    pub weapons: Option<Filter>,
    /// "Fire … (for free)".
    #[serde(default)]
    pub free: bool,
    /// "May fire that weapon twice, separately or combined" (the script fires combined).
    #[serde(default)]
    pub twice: bool,
    /// "Subtract 1 from each destiny draw when firing": added to each draw.
    #[serde(default)]
    pub each_draw: i64,
    /// "At double use of Force": the firing cost is multiplied.
    #[serde(default)]
    pub cost_mul: Option<u32>,
    /// "Instead of firing one of your weapons at a target, …": the weapon is used,
    /// not fired; this text is its result (reported, not modelled).
    #[serde(default)]
    pub instead: Option<String>,
}

/// One firing's weapon destiny, draw by draw.
#[derive(Debug, Clone)]
pub struct Shot {
    pub weapon: CardIx,
    pub target: CardIx,
    pub against: Defense,
    /// Destiny draws per firing, and firings combined.
    pub per_firing: u32,
    pub firings: u32,
    /// The draws of the firing in progress (each modified), and each firing's total.
    pub current: Vec<i64>,
    pub totals: Vec<i64>,
    /// Added to each draw (Targeting Computer, a pilot's bonus), and by which cards.
    pub each: i64,
    pub each_by: Vec<(String, i64)>,
    /// Added to the total: the weapon's "destiny +N", X, and "add N if targeting …".
    pub add: i64,
    pub forfeit_zero: bool,
    /// A success makes the target lost instead of hit, or captures it.
    pub lost: bool,
    pub captures: bool,
    /// A success excludes the target from the battle instead of hitting it.
    pub excludes: bool,
}

/// How a firing is permitted and what it costs.
pub(super) struct Firing {
    pub(super) permit: Option<(CardIx, FirePermit)>,
    pub(super) cost: u32,
    pub(super) x: i64,
}

impl Engine {
    /// The card a weapon is deployed on.
    fn holder(&self, w: CardIx) -> Option<CardIx> {
        match self.st.zone[w] {
            Zone::On(h) => Some(h),
            _ => None,
        }
    }

    /// Where a weapon fires from: where the card carrying it is present (a weapon at
    /// a location, e.g. automated: where it is).
    fn weapon_present(&self, w: CardIx) -> Option<Result<usize, CardIx>> {
        let from = self.holder(w).unwrap_or(w);
        super::prepositions::present(&self.st, from)
    }

    fn undercover(&self, c: CardIx) -> bool {
        self.st.undercover(c)
    }

    /// Is `t` participating in the battle at `l`? (Active there, not an undercover spy.)
    pub(super) fn participates(&self, t: CardIx, l: usize) -> bool {
        self.cards_at(l).contains(&t) && !self.undercover(t) && self.in_any_siege(t, l)
    }

    /// In a besieged battle at `l`, only its characters (and cards on them) take part.
    fn in_any_siege(&self, c: CardIx, l: usize) -> bool {
        super::besieged::siege_at(&self.st, l)
            .is_none_or(|s| super::besieged::in_siege(&self.st, s, c))
    }

    /// Are `a` and `b` the same location or adjacent sites (AR Adjacent)?
    pub(super) fn same_or_adjacent(&self, a: usize, b: usize) -> bool {
        if a == b {
            return true;
        }
        let row = super::movement::row(&self.st, a);
        match (
            row.iter().position(|&x| x == a),
            row.iter().position(|&x| x == b),
        ) {
            (Some(i), Some(j)) => i.abs_diff(j) == 1,
            _ => false,
        }
    }

    /// May `p` fire `w` at all now (its own card, active, not automated, and in a
    /// battle at `battle`, at the battle or able to reach it)?
    pub(super) fn check_shooter(
        &self,
        p: Side,
        w: CardIx,
        battle: Option<usize>,
    ) -> Result<(), Rejection> {
        let title = self.name(w);
        let Some(def) = self.st.def(w).weapon.as_ref() else {
            return Err(rej(format!("{title} is not a weapon"), WEAPONS_FIRING));
        };
        if self.st.owner(w) != p {
            return Err(rej(
                format!(
                    "{title} is not {}'s weapon: a player may not fire an opponent's weapon",
                    p.name()
                ),
                USING_WEAPONS,
            ));
        }
        if !self.st.active(w) {
            return Err(rej(
                format!("{title} is inactive (the card carrying it is inactive): it may not fire"),
                super::rules::INACTIVE,
            )
            .and(WEAPONS_FIRING));
        }
        if def.automated && title != LASER_PROJECTOR {
            return Err(rej(
                format!(
                    "{title} is an automated weapon: automated weapons are not fired (Laser Projector is the lone exception)"
                ),
                AUTOMATED,
            ));
        }
        let Some(l) = battle else {
            return Ok(());
        };
        if let Some(h) = self.holder(w).filter(|&h| self.undercover(h)) {
            return Err(rej(
                format!(
                    "{} is undercover: it does not participate in the battle and may not fire {title} in it",
                    self.name(h)
                ),
                UNDERCOVER,
            )
            .and(WHEN_CAN_I_FIRE));
        }
        let here = self.cards_at(l).contains(&w) && self.in_any_siege(w, l);
        let reach = def.adjacent
            && matches!(self.weapon_present(w), Some(Ok(a)) if self.same_or_adjacent(a, l));
        if here || reach {
            Ok(())
        } else {
            Err(rej(
                format!("{title} is not at the battle"),
                cite::FIRING_WEAPONS,
            ))
        }
    }

    /// May `w` (of `p`) fire at `t`? In a battle at `battle`, only at a participant.
    pub(super) fn check_target(
        &self,
        p: Side,
        w: CardIx,
        t: CardIx,
        battle: Option<usize>,
    ) -> Result<(), Rejection> {
        let (title, tt) = (self.name(w), self.name(t));
        let Some(def) = self.st.def(w).weapon.as_ref() else {
            return Err(rej(format!("{title} is not a weapon"), WEAPONS_FIRING));
        };
        if let Some(l) = battle
            && self.st.owner(t) != p
            && !self.participates(t, l)
        {
            return Err(rej(
                format!(
                    "{tt} is not participating in the battle: firing during a battle targets only participating cards"
                ),
                WHEN_CAN_I_FIRE,
            ));
        }
        if self.st.owner(t) == p || !self.st.active(t) {
            return Err(rej(
                format!("{tt} is not an opponent's active card on table"),
                WEAPONS_FIRING,
            ));
        }
        let names = match &def.targets {
            Some(f) => self.st.matches(t, f, p),
            None => matches!(
                self.st.def(t).card_type,
                CardType::Character | CardType::Vehicle | CardType::Starship | CardType::Creature
            ),
        };
        if !names {
            return Err(rej(
                format!("{title} may only fire at targets its text names; {tt} is not one"),
                WEAPONS_FIRING,
            ));
        }
        if self.stat_of(t, def.against).is_none() {
            return Err(rej(
                format!("{tt} has no value for {title} to fire against"),
                super::rules::IMPLIED_TARGET_RULE,
            ));
        }
        let (from, at) = (
            self.weapon_present(w),
            super::prepositions::present(&self.st, t),
        );
        if def.adjacent {
            let ok =
                matches!((from, at), (Some(Ok(a)), Some(Ok(b))) if self.same_or_adjacent(a, b));
            if !ok {
                return Err(rej(
                    format!(
                        "{title} fires at the same or an adjacent site: {tt} and the weapon must both be present at their sites, within that range"
                    ),
                    LONG_RANGE,
                ));
            }
        } else if (from.is_none() || from != at) && !self.besieged_together(w, t) {
            return Err(rej(
                format!("{tt} is not present with {title}"),
                WEAPONS_FIRING,
            ));
        }
        Ok(())
    }

    /// The permission card `v` gives for weapon `w`, if it applies to it: an
    /// Interrupt's to any of your weapons; a weapon's to itself; any other card's to
    /// weapons on it or on the card it is on.
    fn permit_for(&self, v: CardIx, w: CardIx) -> Result<FirePermit, Rejection> {
        let Some(pm) = self
            .st
            .def(v)
            .find_static(pick!(Static::PermitsFire))
            .map(|pm| FirePermit::clone(pm))
        else {
            return Err(rej(
                format!("{}'s text does not permit firing", self.name(v)),
                WHEN_CAN_I_FIRE,
            ));
        };
        let applies = v == w
            || self.st.def(v).card_type == CardType::Interrupt
            || self.holder(w) == Some(v)
            || (self.holder(v).is_some() && self.holder(v) == self.holder(w));
        if !applies {
            return Err(rej(
                format!(
                    "{}'s text about firing applies only to a weapon on that card, not to {}",
                    self.name(v),
                    self.name(w)
                ),
                USING_WEAPONS,
            ));
        }
        if let Some(f) = &pm.weapons
            && !self.st.matches(w, f, self.st.owner(v))
        {
            return Err(rej(
                format!("{} does not permit firing {}", self.name(v), self.name(w)),
                WHEN_CAN_I_FIRE,
            ));
        }
        Ok(pm)
    }

    /// The cost of a firing: the weapon's cost (+ X), times a permission's multiplier;
    /// nothing when fired for free (and then X is 0).
    pub(super) fn firing(
        &self,
        p: Side,
        w: CardIx,
        d: &Decision,
        permit: Option<(CardIx, FirePermit)>,
        base: u32,
    ) -> Result<Firing, Rejection> {
        let Some(def) = self.st.def(w).weapon.clone() else {
            return Err(rej(
                format!("{} is not a weapon", self.name(w)),
                WEAPONS_FIRING,
            ));
        };
        let free = permit.as_ref().is_some_and(|(_, pm)| pm.free);
        // Fired for free by its own text (`base` 0: not a repeated shot), X is 0 too.
        let own_free = base == 0 && self.free_on_carrier(w).is_some();
        let x = match (def.x_max, d.step.amount) {
            (Some(_), _) if free || own_free => 0,
            (Some(m), Some(x)) if x >= 0 && x <= i64::from(m) => x,
            (Some(m), Some(x)) => {
                return Err(rej(
                    format!("X for {} is 0 to {m}, not {x}", self.name(w)),
                    WEAPONS_FIRING,
                ));
            }
            (Some(_), None) => 0,
            (None, _) => 0,
        };
        let mul = permit.as_ref().and_then(|(_, pm)| pm.cost_mul).unwrap_or(1);
        // Firing twice (separately or combined) is two firings: each uses the cost.
        let times = if permit.as_ref().is_some_and(|(_, pm)| pm.twice) {
            2
        } else {
            1
        };
        let cost = if free {
            0
        } else {
            (base + x as u32) * mul * times
        };
        if self.st.pile_len(p, PileName::ReserveDeck) == 0 {
            return Err(rej(
                format!(
                    "weapon destiny must be drawn and {}'s Reserve Deck is empty",
                    p.name()
                ),
                WEAPON_DESTINY,
            ));
        }
        let force = self.st.pile_len(p, PileName::ForcePile) as u32;
        if cost > force {
            return Err(rej(
                format!(
                    "firing {} uses {cost} Force; {} has {force} in Force Pile",
                    self.name(w),
                    p.name()
                ),
                super::rules::PAYING_COSTS,
            ));
        }
        Ok(Firing { permit, cost, x })
    }

    /// "Add 1 if fired by a leader": the card carrying `w` and what its own text adds to
    /// the total weapon destiny when that card matches.
    fn fired_by(&self, w: CardIx, def: &WeaponDef) -> Option<(CardIx, i64)> {
        let h = self.holder(w)?;
        let p = self.st.owner(w);
        def.fired_by
            .iter()
            .find(|v| self.st.matches(h, &v.filter, p))
            .map(|v| (h, v.add))
    }

    /// The shot of `w` at `t`: its draws, per-draw and total modifiers.
    pub(super) fn new_shot(&self, w: CardIx, t: CardIx, f: &Firing, def: &WeaponDef) -> Shot {
        let p = self.st.owner(w);
        let vs = def
            .vs
            .iter()
            .find(|v| self.st.matches(t, &v.filter, p))
            .map_or(0, |v| v.add);
        let by = self.fired_by(w, def).map_or(0, |(_, n)| n);
        let mut each_by: Vec<(String, i64)> = self
            .holder(w)
            .map(|h| {
                std::iter::once(h)
                    .chain(self.st.cards_on(h))
                    .filter(|&c| self.st.active(c))
                    .filter_map(|c| {
                        let n = self
                            .st
                            .def(c)
                            .find_static(pick!(Static::WeaponDestinyEach))?;
                        Some((self.name(c), *n))
                    })
                    .collect()
            })
            .unwrap_or_default();
        if let Some((v, pm)) = f.permit.as_ref().filter(|(_, pm)| pm.each_draw != 0) {
            each_by.push((self.name(*v), pm.each_draw));
        }
        let pm = f.permit.as_ref().map(|(_, pm)| pm);
        Shot {
            weapon: w,
            target: t,
            against: def.against,
            per_firing: def.draws.unwrap_or(1).max(1),
            firings: if pm.is_some_and(|pm| pm.twice) { 2 } else { 1 },
            current: Vec::new(),
            totals: Vec::new(),
            each: each_by.iter().map(|(_, n)| n).sum(),
            each_by,
            add: def.add + f.x + vs + by,
            forfeit_zero: def.forfeit_zero,
            lost: def.lost || def.lost_at_x.is_some_and(|n| f.x == i64::from(n)),
            captures: def.captures,
            excludes: def.excludes,
        }
    }

    /// `fire` as a top-level action, by a card's permission (`via:`, or the weapon's
    /// or its carrier's own text) during a phase of your turn.
    pub(super) fn initiate_fire(&mut self, d: &Decision, w: Window) -> Result<(), Rejection> {
        let p = d.by;
        if w != Window::TopLevel {
            return Err(rej(
                "weapons fire in a battle's weapons segment, or as a top-level action a card permits",
                WHEN_CAN_I_FIRE,
            ));
        }
        let wc = self.decision_card(d, WEAPONS_FIRING)?;
        let t = d
            .step
            .target
            .first()
            .and_then(|k| self.st.find(k))
            .ok_or_else(|| rej("`fire` names its target", WEAPONS_FIRING))?;
        self.check_shooter(p, wc, None)?;
        let (v, pm) = self.top_level_permit(d, wc)?;
        match pm.during {
            Some(ph) if ph == self.phase && self.turn == p => {}
            Some(ph) => {
                return Err(rej(
                    format!(
                        "{} permits firing during {}'s {} phase; it is {}'s {} phase",
                        self.name(v),
                        p.name(),
                        ph.as_str(),
                        self.turn.name(),
                        self.phase.as_str()
                    ),
                    WHEN_CAN_I_FIRE,
                ));
            }
            None => {
                return Err(rej(
                    format!("{} permits firing only during a battle", self.name(v)),
                    WHEN_CAN_I_FIRE,
                ));
            }
        }
        self.check_target(p, wc, t, None)?;
        let base = self.st.def(wc).weapon.as_ref().map_or(0, |d| d.cost);
        let f = self.firing(p, wc, d, Some((v, pm)), base)?;
        self.push_fire(p, wc, t, f, None, v);
        Ok(())
    }

    /// The card permitting a top-level firing: `via:` (an Interrupt in hand, or a
    /// card on table), else the weapon's own or its carrier's text.
    fn top_level_permit(
        &self,
        d: &Decision,
        wc: CardIx,
    ) -> Result<(CardIx, FirePermit), Rejection> {
        let p = d.by;
        if let Some(k) = &d.step.via {
            let v = self.card_named(k, WEAPONS_FIRING)?;
            let in_hand = self.st.zone[v] == Zone::Pile(p, PileName::Hand);
            let interrupt = self.st.def(v).card_type == CardType::Interrupt;
            if self.st.owner(v) != p
                || (interrupt && !in_hand)
                || (!interrupt && !self.st.active(v))
            {
                return Err(rej(
                    format!(
                        "{} is not {}'s Interrupt in hand or active card on table",
                        self.name(v),
                        p.name()
                    ),
                    super::rules::ACTIONS,
                ));
            }
            return Ok((v, self.permit_for(v, wc)?));
        }
        let own = std::iter::once(wc).chain(self.holder(wc));
        for v in own {
            if self
                .st
                .def(v)
                .find_static(pick!(Static::PermitsFire))
                .is_some()
            {
                return Ok((v, self.permit_for(v, wc)?));
            }
        }
        Err(rej(
            format!(
                "{} may fire only when a rule or card permits: in a battle's weapons segment, or by a card's text (none permits it now)",
                self.name(wc)
            ),
            cite::FIRING_WEAPONS,
        )
        .and(WHEN_CAN_I_FIRE))
    }

    /// Put a firing on the stack and pay for it. `battle`: the battle it responds to.
    /// `v`: the permitting card (an Interrupt is played: it is the action's card).
    pub(super) fn push_fire(
        &mut self,
        p: Side,
        w: CardIx,
        t: CardIx,
        f: Firing,
        battle: Option<usize>,
        v: CardIx,
    ) {
        let Some(def) = self.st.def(w).weapon.clone() else {
            return;
        };
        let shot = self.new_shot(w, t, &f, &def);
        let interrupt = self.st.def(v).card_type == CardType::Interrupt && v != w;
        let label = format!("{} fires {}", p.name(), self.name(w));
        let mut e = if interrupt {
            self.st.put(v, Zone::Stack);
            Entry::new(ActionKind::Play, p, Some(v), label)
        } else {
            Entry::new(ActionKind::Fire, p, Some(w), label)
        };
        e.responding_to = battle;
        e.targets.push(("target".into(), Tgt::Card(t)));
        e.pending = vec![Effect::Destiny(DestinyTest::default())].into();
        let draws = shot.per_firing * shot.firings;
        e.shot = Some(Box::new(shot));
        self.stack.push(e);
        let via = if v == w {
            String::new()
        } else {
            format!(" ({} permits it)", self.name(v))
        };
        let (_, what) = self.fired_against(t, def.against);
        let prefix = format!("{}'s ", self.name(t));
        let against = what.strip_prefix(&prefix).unwrap_or("defense value");
        self.log(
            actor(p),
            Event::Push,
            format!(
                "{} fires {} at {} (weapon destiny against its {against}){via}: {draws} weapon destiny draw(s)",
                p.name(),
                self.name(w),
                self.name(t),
            ),
            &[WEAPONS_FIRING, WHEN_CAN_I_FIRE],
        );
        if let Some((h, n)) = self.fired_by(w, &def) {
            self.log(
                actor(p),
                Event::Initiate,
                format!(
                    "{} fired by {}: {n:+} to its total weapon destiny (its own text)",
                    self.name(w),
                    self.name(h)
                ),
                &[WEAPON_DESTINY],
            );
        }
        if f.permit.as_ref().is_some_and(|(_, pm)| pm.free) {
            self.log(
                actor(p),
                Event::Initiate,
                format!(
                    "{} is fired for free: any value that depends on the cost of firing (X) is 0",
                    self.name(w)
                ),
                &[FIRING_FOR_FREE],
            );
        }
        self.pay_use(p, f.cost, &format!("to fire {}", self.name(w)));
    }

    /// A weapon destiny was drawn for the firing at `ix`: record it; draw again, or
    /// total the firings and compare with the target's defense value.
    pub(super) fn shot_drawn(&mut self, ix: usize, value: Option<i64>) {
        let Some(mut sh) = self.stack[ix].shot.take() else {
            return;
        };
        let v = value.unwrap_or(0);
        let m = (v + sh.each).max(0);
        sh.current.push(m);
        let p = self.stack[ix].actor;
        if !sh.each_by.is_empty() {
            let by = sh
                .each_by
                .iter()
                .map(|(c, n)| format!("{c} {n:+}"))
                .collect::<Vec<_>>()
                .join(", ");
            self.log(
                actor(p),
                Event::Result,
                format!("weapon destiny draw {v} ({by}) counts {m}"),
                &[WEAPON_DESTINY],
            );
        }
        if sh.current.len() < sh.per_firing as usize {
            self.again(ix, sh);
            return;
        }
        let firing: i64 = sh.current.drain(..).sum();
        sh.totals.push(firing);
        if sh.totals.len() < sh.firings as usize {
            self.log(
                actor(p),
                Event::Result,
                format!(
                    "first firing: weapon destiny {firing}; the second firing is combined with it"
                ),
                &[SEPARATELY_OR_COMBINED],
            );
            self.again(ix, sh);
            return;
        }
        self.shot_result(ix, *sh);
    }

    fn again(&mut self, ix: usize, sh: Box<Shot>) {
        self.stack[ix].shot = Some(sh);
        self.stack[ix]
            .pending
            .push_front(Effect::Destiny(DestinyTest::default()));
    }

    fn shot_result(&mut self, ix: usize, sh: Shot) {
        let p = self.stack[ix].actor;
        let sum: i64 = sh.totals.iter().sum();
        let total = sum + sh.add;
        self.stack[ix].destiny = Some(total);
        let (def, what) = self.fired_against(sh.target, sh.against);
        let hit = def.is_some_and(|dv| total > dv);
        let parts = if sh.totals.len() > 1 {
            format!(
                "combined {} = {sum}",
                sh.totals
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" + ")
            )
        } else {
            format!("{sum}")
        };
        let add = if sh.add != 0 {
            format!(" {:+} = {total}", sh.add)
        } else {
            String::new()
        };
        let mut cites = vec![WEAPON_DESTINY, WEAPONS_FIRING];
        if sh.against == Defense::Defense {
            cites.push(cite::DEFENSE_VALUE);
        }
        if sh.totals.len() > 1 {
            cites.push(SEPARATELY_OR_COMBINED);
        }
        self.log(
            actor(p),
            Event::Result,
            format!(
                "total weapon destiny {parts}{add} against {what} {}: {}",
                def.map_or("(none)".into(), |d| d.to_string()),
                if hit { "hit" } else { "missed" }
            ),
            &cites,
        );
        if hit {
            let success = if sh.lost {
                Effect::LostByWeapon(sh.target)
            } else if sh.captures {
                Effect::CaptureCard(sh.target)
            } else if sh.excludes {
                Effect::ExcludedByWeapon(sh.target)
            } else {
                Effect::Hit(sh.target, sh.forfeit_zero)
            };
            self.stack[ix].pending.push_front(success);
        }
    }

    /// A weapon hits `t` (the firing at `ix`): in a battle it is participating in, it
    /// is turned sideways until the damage segment; otherwise it is lost at once.
    pub(super) fn hit_now(&mut self, ix: usize, t: CardIx, forfeit_zero: bool) -> Applied {
        let battle = self.stack[ix]
            .responding_to
            .filter(|&b| b < self.stack.len() && matches!(self.stack[b].kind, ActionKind::Battle));
        let at = battle.and_then(|b| {
            self.stack[b].targets.iter().find_map(|(_, x)| match x {
                Tgt::Location(l) => Some(*l),
                _ => None,
            })
        });
        if let Some(l) = at
            && self.participates(t, l)
        {
            self.hit(ix, t, forfeit_zero);
            return Applied::Done;
        }
        if !self.st.on_table(t) {
            return Applied::Done;
        }
        let by = self.stack[ix].actor;
        let carried = self.all_on(t);
        self.place(t, crate::engine::swccg::model::Dest::LostPile, by);
        let mut lost = vec![t];
        lost.extend(
            carried
                .into_iter()
                .filter(|&x| matches!(self.st.zone[x], Zone::Pile(_, PileName::LostPile))),
        );
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{} is hit {}: it is lost at once",
                self.name(t),
                if at.is_some() {
                    "but not participating in the battle"
                } else {
                    "outside a battle"
                }
            ),
            &[HIT],
        );
        self.push_just_lost(by, lost);
        Applied::Pushed
    }

    /// A `fire` decision in a battle's weapons segment naming a permitting card
    /// (`via:`, e.g. a Targeting Computer): the permission, checked.
    pub(super) fn battle_permit(
        &self,
        d: &Decision,
        w: CardIx,
    ) -> Result<Option<(CardIx, FirePermit)>, Rejection> {
        let Some(k) = &d.step.via else {
            return Ok(None);
        };
        let v = self.card_named(k, WEAPONS_FIRING)?;
        let in_hand = self.st.zone[v] == Zone::Pile(d.by, PileName::Hand)
            && self.st.def(v).card_type == CardType::Interrupt;
        if self.st.owner(v) != d.by || !(in_hand || self.st.active(v)) {
            return Err(rej(
                format!(
                    "{} is not {}'s Interrupt in hand or active card on table",
                    self.name(v),
                    d.by.name()
                ),
                super::rules::ACTIONS,
            ));
        }
        let pm = self.permit_for(v, w)?;
        if pm.during.is_some() {
            return Err(rej(
                format!("{} does not permit firing during a battle", self.name(v)),
                WHEN_CAN_I_FIRE,
            ));
        }
        Ok(Some((v, pm)))
    }
}

pub(super) fn defense_name(d: Defense) -> &'static str {
    match d {
        Defense::Ability => "ability",
        Defense::Armor => "armor",
        Defense::Maneuver => "maneuver",
        Defense::Defense => "defense value",
    }
}

impl Engine {
    /// "Instead of firing": the Interrupt `v` is played targeting your weapon `w`,
    /// which could fire at `t` now (conditions and target checked, Force not needed);
    /// the weapon is used, not fired, and this counts toward its firing limit.
    pub(super) fn push_instead(&mut self, p: Side, w: CardIx, t: CardIx, v: CardIx, battle: usize) {
        let what = self
            .st
            .def(v)
            .find_static(pick!(Static::PermitsFire))
            .and_then(|pm| pm.instead.clone())
            .unwrap_or_default();
        self.st.put(v, Zone::Stack);
        let label = format!("{} plays {}", p.name(), self.name(v));
        let mut e = Entry::new(ActionKind::Play, p, Some(v), label);
        e.responding_to = Some(battle);
        e.targets.push(("weapon".into(), Tgt::Card(w)));
        e.targets.push(("target".into(), Tgt::Card(t)));
        e.pending = vec![Effect::NotModelled(what)].into();
        self.stack.push(e);
        self.log(
            actor(p),
            Event::Push,
            format!(
                "{} plays {} instead of firing {} at {}: the weapon is used, not fired, and this counts toward its firing limit",
                p.name(),
                self.name(v),
                self.name(w),
                self.name(t)
            ),
            &[INSTEAD_OF_FIRING],
        );
    }
}
