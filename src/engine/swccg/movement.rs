//! Movement (AR Ch.7): regular moves (landspeed, hyperspeed, landing and taking
//! off, Docking Bay Transit, shuttling, starship sites, location text, moving
//! to or from a Death Star) and unlimited moves (embarking and disembarking).
//!
//! A move is a top-level action: its conditions and cost are checked and paid
//! at initiation, the opponent may respond, and its result relocates the card
//! with everything aboard it (carried cards do not move as far as the rules are
//! concerned). The card then "just moved". A card makes one regular move per
//! turn; unlimited moves are not counted.

use super::engine::{Decision, Engine, Rejection, rej};
use super::model::{CardType, LocKind, MoveHow, MovesLike, Phase, Side};
use super::rules as r;
use super::stack::{ActionKind, Entry, Stage};
use super::state::{CardIx, State, Zone};
use crate::engine::Event;

/// How a card moves, by its type and its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Character,
    Vehicle,
    Starfighter,
    Capital,
    Other,
}

/// A legal move, as planned at initiation.
#[derive(Debug, Clone)]
pub struct Plan {
    pub how: MoveHow,
    pub to: Zone,
    pub cost: i64,
    pub cite: &'static str,
    /// The phase the move belongs to.
    pub during: Phase,
    /// Cards whose text added to the cost (AR Movement - costs +X to move).
    pub surcharged_by: Vec<CardIx>,
}

fn class(st: &State, c: CardIx) -> Class {
    let d = st.def(c);
    match d.moves.like {
        Some(MovesLike::Character) => return Class::Character,
        Some(MovesLike::Starfighter) => return Class::Starfighter,
        None => {}
    }
    let sub = d.subtype.as_deref().unwrap_or("").to_ascii_lowercase();
    match d.card_type {
        CardType::Character | CardType::Creature => Class::Character,
        CardType::Vehicle => Class::Vehicle,
        CardType::Starship if sub == "starfighter" || sub == "squadron" => Class::Starfighter,
        CardType::Starship => Class::Capital,
        _ => Class::Other,
    }
}

fn has_word(st: &State, c: CardIx, w: &str) -> bool {
    st.def(c).keywords.iter().any(|k| k.eq_ignore_ascii_case(w))
}

/// A pilot: a character with a pilot's ability to add to power, or called a pilot.
pub fn is_pilot(st: &State, c: CardIx) -> bool {
    let d = st.def(c);
    d.card_type == CardType::Character && (d.stats.piloting.is_some() || has_word(st, c, "pilot"))
}

/// A starship or vehicle with a permanent pilot or an active pilot aboard
/// (creature vehicles are never unpiloted).
pub fn piloted(st: &State, s: CardIx) -> bool {
    let d = st.def(s);
    d.stats.permanent_pilot.is_some()
        || d.is_creature_vehicle()
        || st
            .cards_on(s)
            .into_iter()
            .any(|x| st.active(x) && is_pilot(st, x))
}

/// An astromech or nav computer aboard (or built in).
fn has_nav(st: &State, s: CardIx) -> bool {
    let nav = |c: CardIx| has_word(st, c, "astromech") || has_word(st, c, "nav_computer");
    nav(s) || st.cards_on(s).into_iter().any(|x| st.active(x) && nav(x))
}

fn is_site(st: &State, l: usize) -> bool {
    st.locations[l].geo.kind == Some(LocKind::Site)
}

fn is_system(st: &State, l: usize) -> bool {
    st.locations[l].geo.kind == Some(LocKind::System)
}

/// The group a site is arranged in: its system, or its starship.
fn group(st: &State, l: usize) -> Option<&str> {
    let g = &st.locations[l].geo;
    g.system.as_deref().or(g.starship.as_deref())
}

/// The sites of a site's group, in board order.
pub(super) fn row(st: &State, l: usize) -> Vec<usize> {
    let g = group(st, l);
    (0..st.locations.len())
        .filter(|&x| is_site(st, x) && group(st, x) == g)
        .collect()
}

/// The system a site is related to (by `system:` naming a system location).
fn system_of_site(st: &State, l: usize) -> Option<usize> {
    let s = st.locations[l].geo.system.as_deref()?;
    st.find_location(s).filter(|&x| is_system(st, x))
}

/// The location of the starship a starship site belongs to.
fn ship_of_site(st: &State, l: usize) -> Option<CardIx> {
    st.locations[l]
        .geo
        .starship
        .as_deref()
        .and_then(|k| st.find(k))
}

impl Engine {
    /// A scripted `move`: plan it, pay its cost and put it on the stack.
    pub(crate) fn initiate_move(&mut self, d: &Decision, top_level: bool) -> Result<(), Rejection> {
        let p = d.by;
        let c = self.decision_card(d, r::ACTIONS)?;
        if !top_level {
            return Err(rej(
                "a move is a top-level action (a react is not modelled here); the stack is not empty",
                r::THE_STACK,
            ));
        }
        let to = d.step.to.as_deref().unwrap_or("");
        if let Some(e) = self.boarding_refusal(c, to) {
            return Err(e);
        }
        let plan = self.plan_move(p, c, to, d.step.how)?;
        self.push_move(p, c, plan);
        Ok(())
    }

    fn push_move(&mut self, p: Side, c: CardIx, plan: Plan) {
        if plan.how.regular() {
            self.st.regular_moves.push(c);
        }
        let dest = self.zone_words(plan.to);
        let from = self.zone_words(self.st.zone[c]);
        let kind = if plan.how.regular() {
            "a regular move"
        } else {
            "an unlimited move"
        };
        let mut e = Entry::new(
            ActionKind::Move {
                to: plan.to,
                how: plan.how,
            },
            p,
            Some(c),
            format!("{} move", self.st.key(c)),
        );
        e.next = p.other();
        self.stack.push(e);
        let carried = self.st.cards_on(c);
        let along = if carried.is_empty() {
            String::new()
        } else {
            format!(
                " carrying {}",
                carried
                    .iter()
                    .map(|&x| self.st.title(x).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let text = format!(
            "{} moves {} from {from} to {dest} by {} ({kind}){along}",
            p.name(),
            self.st.title(c),
            plan.how.as_str()
        );
        let kind_cite = if plan.how.regular() {
            r::MOVEMENT_REGULAR
        } else {
            r::MOVEMENT_UNLIMITED
        };
        self.log(
            super::actor(p),
            Event::Push,
            text,
            &[r::INITIATION, plan.cite, kind_cite],
        );
        self.log_surcharge(p, c, &plan);
        let cost = plan.cost.max(0) as u32;
        let why = format!("for {}'s move", self.st.title(c));
        if cost == 0 {
            self.log(
                super::actor(p),
                Event::Initiate,
                format!("the move costs no Force ({why})"),
                &[plan.cite],
            );
        }
        self.pay_use(p, cost, &why);
    }

    /// The move's result: the card (and all it carries) is relocated; it then just moved.
    pub(crate) fn move_result(&mut self, ix: usize, to: Zone) {
        let Some(c) = self.stack[ix].card else {
            return;
        };
        self.st.put(c, to);
        let dest = self.zone_words(to);
        let carried = self.st.cards_on(c);
        let mut cites = vec![r::RESULT];
        if !carried.is_empty() {
            cites.push(r::CARRYING);
        }
        self.log(
            super::actor(self.stack[ix].actor),
            Event::StateChange,
            format!(
                "{} is now {dest}{}",
                self.st.title(c),
                if carried.is_empty() {
                    String::new()
                } else {
                    " (the cards aboard are carried: they have not moved themselves)".to_string()
                }
            ),
            &cites,
        );
        self.stack[ix].moved = vec![c];
        self.stack[ix].stage = Stage::Resolving;
    }

    fn zone_words(&self, z: Zone) -> String {
        match z {
            Zone::At(l) => self.st.locations[l].title.clone(),
            Zone::On(h) => format!("aboard {}", self.st.title(h)),
            Zone::Table => "table".to_string(),
            Zone::Pile(s, pl) => format!("{}'s {}", s.name(), pl.title()),
            Zone::Stack | Zone::Drawn => "the stack".to_string(),
        }
    }

    /// Does `p` have any legal move now (for strict scripts)?
    pub(crate) fn can_move(&self, p: Side) -> bool {
        if self.phase != Phase::Move || self.turn != p {
            return false;
        }
        let names: Vec<String> = self
            .st
            .locations
            .iter()
            .map(|l| l.name.clone())
            .chain(self.st.cards.iter().map(|c| c.key.clone()))
            .collect();
        (0..self.st.cards.len()).any(|c| {
            self.st.owner(c) == p
                && self.st.active(c)
                && class(&self.st, c) != Class::Other
                && names.iter().any(|n| self.plan_move(p, c, n, None).is_ok())
        })
    }

    /// Check a move of `c` by `p` to `to` (a location name or a card key).
    pub(crate) fn plan_move(
        &self,
        p: Side,
        c: CardIx,
        to: &str,
        how: Option<MoveHow>,
    ) -> Result<Plan, Rejection> {
        self.plan_move_as(p, c, to, how, false)
    }

    /// Check a move; a react (`react`) is not bound to the move phase or the one
    /// regular move per turn (AR Appendix C React - Move).
    pub(crate) fn plan_move_as(
        &self,
        p: Side,
        c: CardIx,
        to: &str,
        how: Option<MoveHow>,
        react: bool,
    ) -> Result<Plan, Rejection> {
        let title = self.st.title(c).to_string();
        if self.st.owner(c) != p {
            return Err(rej(
                format!("{title} is not {}'s card", p.name()),
                r::MOVEMENT,
            ));
        }
        if !self.st.active(c) {
            return Err(rej(
                format!("{title} is not active on table and cannot move"),
                r::ACTIVE,
            ));
        }
        let def = self.st.def(c);
        if self.may_not_move(c) {
            return Err(rej(
                format!("{title} may not move (its game text)"),
                r::CANNOT_MOVE,
            ));
        }
        let dest = if let Some(l) = self.st.find_location(to) {
            Zone::At(l)
        } else if let Some(h) = self.st.find(to).filter(|&h| self.st.active(h)) {
            Zone::On(h)
        } else {
            return Err(rej(
                format!("{to} is not a location or a card on table"),
                r::MOVEMENT,
            ));
        };
        let dest_at = match dest {
            Zone::At(l) => Some(l),
            Zone::On(h) => self.st.location_of(h),
            _ => None,
        };
        if let Some(l) = dest_at.filter(|&l| self.opponent_occupies_site(p, l))
            && let Some(x) = std::iter::once(c)
                .chain(self.st.cards_on(c))
                .find(|&x| self.st.def(x).deploy_rules.never_to_opponents_site)
        {
            return Err(rej(
                format!(
                    "{} never moves (even aboard a starship or vehicle) to a site opponent occupies; {} occupies {}",
                    self.st.title(x),
                    p.other().name(),
                    self.st.locations[l].title
                ),
                r::MOVEMENT,
            ));
        }
        if let Some(what) = self.unknown_geography(c, dest) {
            return Err(Rejection {
                reason: what.clone(),
                rule: r::MOVEMENT,
                not_modelled: Some(what),
                also: Vec::new(),
            });
        }
        let (mut plans, mut misses) = self.candidates(p, c, dest);
        if let Some(h) = how {
            if !plans.is_empty() && !plans.iter().any(|x| x.how == h) {
                misses.insert(
                    0,
                    (
                        format!(
                            "{title} cannot move there by {} (it may by {})",
                            h.as_str(),
                            plans
                                .iter()
                                .map(|x| x.how.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        r::MOVEMENT,
                    ),
                );
            }
            plans.retain(|x| x.how == h);
        }
        let Some(mut plan) = plans.into_iter().next() else {
            let (reason, rule) = misses.into_iter().next().unwrap_or_else(|| {
                let aboard = matches!(self.st.zone[c], Zone::On(_)) || matches!(dest, Zone::On(_));
                (
                    format!(
                        "no kind of move takes {title} from {} to {}{}",
                        self.zone_words(self.st.zone[c]),
                        self.zone_words(dest),
                        if aboard {
                            " (embarking and disembarking are separate moves of their own)"
                        } else {
                            ""
                        }
                    ),
                    if aboard { r::EMBARKING } else { r::MOVEMENT },
                )
            });
            return Err(rej(reason, rule));
        };
        if !react {
            self.timing_ok(p, c, &plan)?;
        }
        if let Zone::On(h) = dest {
            self.capacity_ok(h, &[c])?;
        }
        let mover_is_craft = matches!(
            class(&self.st, c),
            Class::Vehicle | Class::Starfighter | Class::Capital
        ) && matches!(def.card_type, CardType::Starship | CardType::Vehicle);
        let exempt = matches!(plan.how, MoveHow::DockingBayTransit | MoveHow::Shuttle)
            && def.card_type == CardType::Vehicle;
        if mover_is_craft && !exempt && !def.moves.without_presence && !piloted(&self.st, c) {
            return Err(rej(
                format!("{title} is unpiloted: an unpiloted starship or vehicle may not move"),
                r::UNPILOTED,
            ));
        }
        if def.moves.free {
            plan.cost = 0;
        } else if plan.cost > 0 || plan.how == MoveHow::Landspeed {
            plan.cost += def.moves.extra_cost;
            if plan.how == MoveHow::Landspeed {
                plan.cost += def.moves.landspeed_extra;
            }
            self.surcharge(c, &mut plan);
        }
        let have = self.st.pile_len(p, super::model::PileName::ForcePile) as i64;
        if plan.cost > have {
            return Err(rej(
                format!(
                    "the move costs {} Force; {} has {have} in Force Pile",
                    plan.cost,
                    p.name()
                ),
                r::PAYING_COSTS,
            ));
        }
        Ok(plan)
    }
}

type Misses = Vec<(String, &'static str)>;

impl Engine {
    /// Moves between locations the board has not described are not judged.
    fn unknown_geography(&self, c: CardIx, dest: Zone) -> Option<String> {
        let from = self.st.location_of(c)?;
        let to = match dest {
            Zone::At(l) => l,
            Zone::On(h) => self.st.location_of(h)?,
            _ => return None,
        };
        [from, to]
            .into_iter()
            .find(|&l| self.st.locations[l].geo.kind.is_none())
            .map(|l| {
                format!(
                    "movement: the board does not say whether {} is a system, site or sector",
                    self.st.locations[l].title
                )
            })
    }

    /// The moves that take `c` to `dest`, and why near misses fail.
    fn candidates(&self, p: Side, c: CardIx, dest: Zone) -> (Vec<Plan>, Misses) {
        let st = &self.st;
        let mut ok = Vec::new();
        let mut miss = Vec::new();
        let cl = class(st, c);
        let plan = |how, cost, cite| Plan {
            how,
            to: dest,
            cost,
            cite,
            during: Phase::Move,
            surcharged_by: Vec::new(),
        };
        match (st.zone[c], dest) {
            (Zone::At(a), Zone::At(b)) if a != b => {
                let (ga, gb) = (&st.locations[a].geo, &st.locations[b].geo);
                if matches!(cl, Class::Character | Class::Vehicle)
                    && is_site(st, a)
                    && is_site(st, b)
                {
                    self.landspeed(c, cl, a, b, &mut ok, &mut miss, plan);
                    if ga.docking_bay && gb.docking_bay {
                        let cost = ga.transit_cost.unwrap_or(0) + gb.transit_cost.unwrap_or(0);
                        ok.push(plan(
                            MoveHow::DockingBayTransit,
                            cost,
                            r::DOCKING_BAY_TRANSIT,
                        ));
                    }
                }
                if matches!(cl, Class::Starfighter | Class::Capital)
                    && is_system(st, a)
                    && is_system(st, b)
                {
                    if ga.orbiting.as_deref() == Some(st.locations[b].name.as_str())
                        || gb.orbiting.as_deref() == Some(st.locations[a].name.as_str())
                    {
                        ok.push(plan(MoveHow::DeathStarOrbit, 1, r::TO_FROM_DEATH_STAR));
                    }
                    self.hyperspeed(c, a, b, &mut ok, &mut miss, plan);
                }
                if cl == Class::Starfighter {
                    self.land_or_take_off(c, a, b, &mut ok, &mut miss, plan);
                }
            }
            (Zone::At(a), Zone::On(s)) if st.owner(s) == p => {
                let here = st.zone[s] == Zone::At(a);
                if cl == Class::Character && ship_of_site(st, a) == Some(s) {
                    ok.push(plan(MoveHow::ShipSite, 0, r::STARSHIP_SITES));
                }
                if matches!(cl, Class::Character | Class::Vehicle)
                    && st.locations[a].geo.exterior
                    && class(st, s) == Class::Capital
                    && system_of_site(st, a).is_some_and(|y| st.zone[s] == Zone::At(y))
                {
                    ok.push(plan(MoveHow::Shuttle, 1, r::SHUTTLING));
                }
                let carrier = matches!(st.def(s).card_type, CardType::Vehicle | CardType::Starship);
                if cl == Class::Character && carrier && here && is_site(st, a) {
                    ok.push(plan(MoveHow::Embark, 0, r::EMBARKING));
                }
                // A starship into a carrying starship's cargo hold at the same system.
                if cl == Class::Starfighter
                    && class(st, s) == Class::Capital
                    && here
                    && is_system(st, a)
                {
                    if st.def(c).card_type == CardType::Starship {
                        ok.push(plan(MoveHow::Embark, 0, r::EMBARKING));
                    } else {
                        miss.push((
                            format!(
                                "{} moves like a starfighter but is not a starfighter: {} has no capacity for it",
                                st.title(c),
                                st.title(s)
                            ),
                            r::MOVES_LIKE_STARFIGHTER,
                        ));
                    }
                }
            }
            // Between the bridge of a carrying starship and a starship or vehicle in its hold.
            (Zone::On(h), Zone::On(s)) if cl == Class::Character && st.owner(s) == p => {
                if st.zone[s] == Zone::On(h) {
                    ok.push(plan(MoveHow::Embark, 0, r::EMBARKING));
                } else if st.zone[h] == Zone::On(s) {
                    ok.push(plan(MoveHow::Disembark, 0, r::EMBARKING));
                }
            }
            (Zone::On(h), Zone::At(b)) => {
                if cl == Class::Character && ship_of_site(st, b) == Some(h) {
                    ok.push(plan(MoveHow::ShipSite, 0, r::STARSHIP_SITES));
                }
                if matches!(cl, Class::Character | Class::Vehicle)
                    && class(st, h) == Class::Capital
                    && st.locations[b].geo.exterior
                    && system_of_site(st, b).is_some_and(|y| st.zone[h] == Zone::At(y))
                {
                    ok.push(plan(MoveHow::Shuttle, 1, r::SHUTTLING));
                }
                let site_ok = cl == Class::Character && is_site(st, b);
                let hold_ok = matches!(cl, Class::Starfighter | Class::Vehicle);
                if st.zone[h] == Zone::At(b) && (site_ok || hold_ok) {
                    ok.push(plan(MoveHow::Disembark, 0, r::EMBARKING));
                }
            }
            _ => {}
        }
        self.location_text(p, c, dest, &mut ok);
        self.launch_bay_moves(p, c, dest, &mut ok);
        (ok, miss)
    }

    #[allow(clippy::too_many_arguments)]
    fn landspeed(
        &self,
        c: CardIx,
        cl: Class,
        a: usize,
        b: usize,
        ok: &mut Vec<Plan>,
        miss: &mut Misses,
        plan: impl Fn(MoveHow, i64, &'static str) -> Plan,
    ) {
        let st = &self.st;
        let row = row(st, a);
        let (Some(ia), Some(ib)) = (
            row.iter().position(|&x| x == a),
            row.iter().position(|&x| x == b),
        ) else {
            return;
        };
        let (lo, hi) = (ia.min(ib), ia.max(ib));
        let path = &row[lo..=hi];
        let dist = (hi - lo) as i64;
        let extra: i64 = path
            .iter()
            .map(|&l| st.locations[l].geo.extra_landspeed)
            .sum();
        let d = st.def(c);
        let speed = d
            .stats
            .landspeed
            .unwrap_or(if cl == Class::Character { 1 } else { 0 });
        let title = &d.title;
        if cl == Class::Vehicle
            && !d.moves.interior
            && path.iter().any(|&l| !st.locations[l].geo.exterior)
        {
            miss.push((
                format!("{title} is a vehicle: it may use landspeed only between exterior sites"),
                r::LANDSPEED,
            ));
            return;
        }
        if dist + extra > speed {
            let more = if extra > 0 {
                format!(" and {extra} more landspeed is needed there")
            } else {
                String::new()
            };
            miss.push((
                format!(
                    "{title} has landspeed {speed}: {} is {dist} adjacent site(s) away{more}",
                    st.locations[b].title
                ),
                r::LANDSPEED,
            ));
            return;
        }
        ok.push(plan(MoveHow::Landspeed, 1, r::LANDSPEED));
    }

    fn hyperspeed(
        &self,
        c: CardIx,
        a: usize,
        b: usize,
        ok: &mut Vec<Plan>,
        miss: &mut Misses,
        plan: impl Fn(MoveHow, i64, &'static str) -> Plan,
    ) {
        let st = &self.st;
        let (Some(pa), Some(pb)) = (st.locations[a].geo.parsec, st.locations[b].geo.parsec) else {
            return;
        };
        let d = st.def(c);
        let Some(hs) = d.stats.hyperspeed else {
            miss.push((
                format!(
                    "{} has no hyperspeed: it cannot move to another system by hyperspeed",
                    d.title
                ),
                r::HYPERSPEED,
            ));
            return;
        };
        let dist = (pa - pb).abs();
        let title = &d.title;
        if hs <= 0 {
            miss.push((
                format!(
                    "{title} has hyperspeed {hs}: using hyperspeed (even 0 parsecs) requires hyperspeed greater than 0"
                ),
                r::HYPERSPEED,
            ));
        } else if dist > hs {
            miss.push((
                format!(
                    "{title} has hyperspeed {hs}: {} is {dist} parsecs away",
                    st.locations[b].title
                ),
                r::HYPERSPEED,
            ));
        } else if !has_nav(st, c) {
            miss.push((
                format!(
                    "{title} has no astromech or nav computer aboard: it cannot use its hyperspeed"
                ),
                r::NAV_COMPUTER,
            ));
        } else {
            ok.push(plan(MoveHow::Hyperspeed, 1, r::HYPERSPEED));
        }
    }

    fn land_or_take_off(
        &self,
        c: CardIx,
        a: usize,
        b: usize,
        ok: &mut Vec<Plan>,
        miss: &mut Misses,
        plan: impl Fn(MoveHow, i64, &'static str) -> Plan,
    ) {
        let st = &self.st;
        // `site` is the site end, `sys` the system end.
        let related = |site: usize, sys: usize| {
            is_site(st, site)
                && is_system(st, sys)
                && ((st.locations[site].geo.exterior && system_of_site(st, site) == Some(sys))
                    || ship_of_site(st, site).is_some_and(|s| st.location_of(s) == Some(sys)))
        };
        let how = if related(b, a) {
            MoveHow::Land
        } else if related(a, b) {
            MoveHow::TakeOff
        } else {
            return;
        };
        let site = if how == MoveHow::Land { b } else { a };
        let bay = st.locations[site].geo.docking_bay;
        if has_word(st, c, "tie") && !bay {
            miss.push((
                format!(
                    "{} is a TIE: TIEs require docking bay facilities and may land only at docking bay sites",
                    st.title(c)
                ),
                r::LANDING,
            ));
            return;
        }
        ok.push(plan(how, if bay { 0 } else { 1 }, r::LANDING));
    }

    /// Movement text on the location moved from or to ("move between here and …").
    fn location_text(&self, p: Side, c: CardIx, dest: Zone, ok: &mut Vec<Plan>) {
        let st = &self.st;
        let name_of = |z: Zone| match z {
            Zone::At(l) => Some(st.locations[l].name.clone()),
            Zone::On(h) => Some(st.key(h).to_string()),
            _ => None,
        };
        let (Some(from), Some(to)) = (name_of(st.zone[c]), name_of(dest)) else {
            return;
        };
        for (here, other) in [(&from, &to), (&to, &from)] {
            let Some(l) = st.find_location(here) else {
                continue;
            };
            for m in &st.locations[l].geo.movement {
                let fits = match &m.filter {
                    Some(f) => st.matches(c, f, p),
                    None => class(st, c) == Class::Character,
                };
                if fits && m.between.iter().any(|x| x == other) {
                    ok.push(Plan {
                        how: MoveHow::LocationText,
                        to: dest,
                        cost: m.cost,
                        cite: r::LOCATION_TEXT_MOVE,
                        during: m.during.unwrap_or(Phase::Move),
                        surcharged_by: Vec::new(),
                    });
                }
            }
        }
    }

    /// Moves happen in your own move phase (location text may say otherwise); one
    /// regular move per card per turn.
    fn timing_ok(&self, p: Side, c: CardIx, plan: &Plan) -> Result<(), Rejection> {
        let title = self.st.title(c);
        if self.turn != p || self.phase != plan.during {
            return Err(rej(
                format!(
                    "{} may move {title} by {} only during their own {} phase",
                    p.name(),
                    plan.how.as_str(),
                    plan.during.as_str()
                ),
                if plan.how == MoveHow::LocationText {
                    r::LOCATION_TEXT_MOVE
                } else {
                    r::MOVE_PHASE
                },
            ));
        }
        if plan.how.regular() && self.st.regular_moves.contains(&c) {
            return Err(rej(
                format!(
                    "{title} has already made its regular move this turn (a card is permitted one regular move per turn; a free move still counts)"
                ),
                r::MOVEMENT_REGULAR,
            ));
        }
        Ok(())
    }
}
