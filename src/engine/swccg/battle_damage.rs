//! A battle's damage segment on the board, as the players' decisions (AR: Damage
//! Segment). The players alternate damage segment actions, the battle's initiator
//! first: forfeiting a participating card (only if it was hit, or its player has
//! pending attrition or battle damage), losing 1 Force to satisfy 1 unit of battle
//! damage (from hand, or the top of the Reserve Deck, Force Pile or Used Pile, as the
//! player chooses: AR Losing Force), and top-level actions played during the damage
//! segment (e.g. canceling battle damage). A player with a hit card, pending attrition
//! or pending battle damage may not pass; two consecutive passes end the battle.
//!
//! A choice the rules force (the only legal action of a player who may not pass) is
//! made without a scripted decision; attrition that nothing left can satisfy (every
//! remaining card immune to it, or no card left) is ignored (AR: Damage Segment -
//! Attrition, Immune To Attrition).

use super::battle::{self, DamageStart};
use super::battle_board::{battle_now, cards_at};
use super::engine::*;
use super::state::CardIx;
use super::values::{Total, cite};
use crate::engine::swccg::model::{Effect, PileName, Side, Verb};
use crate::engine::{Actor, Event, NeedKind};
use std::collections::VecDeque;

/// Where a player may lose Force from (AR: Losing Force).
const FORCE_PLACES: [PileName; 4] = [
    PileName::Hand,
    PileName::ReserveDeck,
    PileName::ForcePile,
    PileName::UsedPile,
];

/// The damage segment of a battle on the stack.
#[derive(Debug, Clone)]
pub struct DamageSeg {
    /// The battle's location.
    pub at: usize,
    pub initiator: Side,
    /// Whose damage segment action is next, and the consecutive passes.
    pub next: Side,
    pub passes: u8,
    /// Pending attrition and battle damage against each side (Light, Dark).
    pub attrition: [i64; 2],
    pub damage: [i64; 2],
    /// The cards participating when the segment began.
    pub cards: Vec<CardIx>,
    /// Cards attrition does not affect (fixed when the segment began).
    pub immune: Vec<CardIx>,
    /// Hit cards not yet forfeited.
    pub hits: Vec<CardIx>,
    pub force_lost: [i64; 2],
    pub forfeited: [usize; 2],
    pub ignored: [i64; 2],
    pub canceled: [i64; 2],
    /// Units of Force still to lose from a `lose_force` decision of several, one per turn.
    pub carry: [i64; 2],
    /// Where each player chose to lose its next units of Force from.
    pub from: [VecDeque<PileName>; 2],
    /// The battle's numbers at the start of the segment (totals, attrition, damage).
    pub numbers: Vec<(String, serde_json::Value)>,
    /// The segment has begun (responses to winning the battle come first).
    pub begun: bool,
}

impl DamageSeg {
    pub fn new(
        at: usize,
        initiator: Side,
        start: &DamageStart,
        numbers: Vec<(String, serde_json::Value)>,
    ) -> DamageSeg {
        let mut seg = DamageSeg {
            at,
            initiator,
            next: initiator,
            passes: 0,
            attrition: start.attrition.map(|a| a.unwrap_or(0)),
            damage: start.damage,
            cards: Vec::new(),
            immune: Vec::new(),
            hits: Vec::new(),
            force_lost: [0; 2],
            forfeited: [0; 2],
            ignored: [0; 2],
            canceled: [0; 2],
            carry: [0; 2],
            from: Default::default(),
            numbers,
            begun: false,
        };
        for &(c, immune, hit) in &start.cards {
            seg.cards.push(c);
            if immune {
                seg.immune.push(c);
            }
            if hit {
                seg.hits.push(c);
            }
        }
        seg
    }
}

/// The battle read once for one damage segment decision (see `Engine::reading`): each
/// card still participating with its forfeit value.
struct Reading(Vec<(CardIx, Option<Total>)>);

impl Reading {
    fn forfeit(&self, c: CardIx) -> Option<&Total> {
        self.0.iter().find(|x| x.0 == c).and_then(|x| x.1.as_ref())
    }
}

fn is_damage_verb(v: Verb) -> bool {
    matches!(
        v,
        Verb::Forfeit | Verb::LoseForce | Verb::Pass | Verb::Play | Verb::Use
    )
}

impl Engine {
    fn seg(&self, ix: usize) -> &DamageSeg {
        self.stack[ix]
            .damage
            .as_deref()
            .expect("a battle in its damage segment")
    }

    fn seg_mut(&mut self, ix: usize) -> &mut DamageSeg {
        self.stack[ix]
            .damage
            .as_deref_mut()
            .expect("a battle in its damage segment")
    }

    /// The battle at `ix` as the board stands now (its forfeit values are read from it).
    fn battle_for_damage(&self, ix: usize) -> battle::Battle {
        let seg = self.seg(ix);
        let mut out = self.stack[ix].excluded.clone();
        out.extend(super::battle_board::late_arrivals(
            &self.st,
            seg.at,
            &self.stack[ix],
        ));
        let mut b = battle_now(
            &self.st,
            seg.at,
            seg.initiator,
            &self.battled_before(ix),
            &self.stack[ix].hits,
            &out,
        );
        b.modifiers
            .extend(self.stack[ix].played_mods.iter().cloned());
        b
    }

    /// The battle at `ix` read once for one damage segment decision: the forfeit value
    /// of each card still participating, worked out together from the board as it
    /// stands now (`None`: it has none).
    fn reading(&self, ix: usize) -> Reading {
        let seg = self.seg(ix);
        let here = cards_at(&self.st, seg.at);
        let of: Vec<CardIx> = seg
            .cards
            .iter()
            .copied()
            .filter(|c| here.contains(c))
            .collect();
        if of.is_empty() {
            return Reading(Vec::new());
        }
        Reading(battle::forfeit_values(&self.battle_for_damage(ix), &of))
    }

    /// Still participating: participating when the segment began and still at the
    /// battle location.
    fn still_participating(&self, ix: usize, c: CardIx) -> bool {
        let seg = self.seg(ix);
        seg.cards.contains(&c) && cards_at(&self.st, seg.at).contains(&c)
    }

    /// The cards `p` may forfeit now.
    fn forfeitable(&self, ix: usize, p: Side, r: &Reading) -> Vec<CardIx> {
        let seg = self.seg(ix);
        let pending = seg.attrition[p.ix()] > 0 || seg.damage[p.ix()] > 0;
        r.0.iter()
            .filter(|(c, v)| v.is_some() && self.st.def(*c).side == p)
            .map(|x| x.0)
            .filter(|c| pending || seg.hits.contains(c))
            .collect()
    }

    fn open_places(&self, p: Side) -> Vec<PileName> {
        FORCE_PLACES
            .into_iter()
            .filter(|&pl| self.st.pile_len(p, pl) > 0)
            .collect()
    }

    /// Damage segment actions of `p`'s cards (top-level actions played during the
    /// damage segment) whose conditions hold now.
    fn damage_plays(&self, ix: usize, p: Side) -> usize {
        let mut n = 0;
        for c in 0..self.st.cards.len() {
            if self.st.owner(c) != p {
                continue;
            }
            let in_reach = matches!(self.st.zone[c], super::state::Zone::Pile(_, PileName::Hand))
                || self.st.on_table(c);
            if !in_reach {
                continue;
            }
            for a in 0..self.st.def(c).abilities.len() {
                if self.st.def(c).abilities[a].damage_segment
                    && self.damage_action_ok(ix, p, c, a).is_ok()
                {
                    n += 1;
                }
            }
        }
        n
    }

    /// The conditions of a damage segment action (AR: Damage Segment): it modifies or
    /// cancels battle damage only if its player has pending battle damage.
    pub(super) fn damage_action_ok(
        &self,
        ix: usize,
        p: Side,
        c: CardIx,
        a: usize,
    ) -> Result<(), Rejection> {
        let title = self.st.title(c);
        let seg = self.seg(ix);
        for e in &self.st.def(c).abilities[a].effect {
            if let Effect::CancelBattleDamage { no_cards_left } = e {
                if seg.damage[p.ix()] <= 0 {
                    return Err(rej(
                        format!(
                            "{title} cancels battle damage, and {} has no pending battle damage",
                            p.name()
                        ),
                        cite::DAMAGE_SEGMENT,
                    ));
                }
                if *no_cards_left && !self.forfeitable(ix, p, &self.reading(ix)).is_empty() {
                    return Err(rej(
                        format!(
                            "{title} needs {} to have no cards left that can be forfeited",
                            p.name()
                        ),
                        cite::FORFEIT,
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether `p` may not pass: a hit card it can forfeit, pending attrition or
    /// pending battle damage.
    fn must_act(&self, ix: usize, p: Side, r: &Reading) -> bool {
        let seg = self.seg(ix);
        if seg.attrition[p.ix()] > 0 || seg.damage[p.ix()] > 0 {
            return true;
        }
        seg.hits
            .iter()
            .any(|&c| self.st.def(c).side == p && r.forfeit(c).is_some())
    }

    /// The next damage segment action of the battle at stack index `ix`.
    pub(super) fn damage_step(&mut self, ix: usize) -> Flow {
        if !self.seg(ix).begun {
            self.seg_mut(ix).begun = true;
            let text = format!("{}: damage segment begins", self.stack[ix].label);
            self.log(Actor::Rules, Event::Phase, text, &[cite::DAMAGE_SEGMENT]);
        }
        let r = self.reading(ix);
        self.ignore_attrition(ix, &r);
        let (p, passes) = (self.seg(ix).next, self.seg(ix).passes);
        if passes >= 2 {
            return self.damage_end(ix);
        }
        if self.seg(ix).carry[p.ix()] > 0 {
            if self.seg(ix).damage[p.ix()] > 0 && !self.open_places(p).is_empty() {
                return self.lose_unit(ix, p);
            }
            let seg = self.seg_mut(ix);
            seg.carry[p.ix()] = 0;
            seg.from[p.ix()].clear();
        }
        let must = self.must_act(ix, p, &r);
        let forfeits = self.forfeitable(ix, p, &r);
        let can_lose = self.seg(ix).damage[p.ix()] > 0 && !self.open_places(p).is_empty();
        let plays = self.damage_plays(ix, p);
        let options = forfeits.len() + usize::from(can_lose) + plays;
        if must && options == 0 {
            self.unsatisfiable(ix, p);
        }
        let next = self.script.peek().cloned();
        let own = next.as_ref().filter(|d| {
            d.by == p
                && is_damage_verb(d.verb)
                && (options > 0 || matches!(d.verb, Verb::Forfeit | Verb::LoseForce))
        });
        if let Some(d) = own.cloned() {
            self.script.take();
            return self.damage_decision(ix, &d, &r);
        }
        if options == 0 {
            return self.damage_pass(ix, p, "nothing it must or can do");
        }
        if must && options == 1 && plays == 0 {
            self.seg_mut(ix).passes = 0;
            self.seg_mut(ix).next = p.other();
            return match forfeits.first() {
                Some(&c) => {
                    self.forfeit_card(ix, p, c, true, &r);
                    Ok(())
                }
                None => self.lose_one(ix, p),
            };
        }
        match next {
            Some(d) if is_damage_verb(d.verb) => {
                self.script.take();
                let reason = format!(
                    "out of turn: {} has the next action in the damage segment (actions alternate, the battle's initiator first)",
                    p.name()
                );
                self.reject(&d, rej(reason, cite::DAMAGE_SEGMENT));
                Ok(())
            }
            _ => {
                let what = self.damage_need(ix, p, &forfeits, can_lose, plays);
                self.need(p, NeedKind::Choice, what);
                Err(Stop::Halt)
            }
        }
    }

    /// What `p` must decide: "satisfy 1 battle damage (forfeit Luke Skywalker or lose Force)".
    fn damage_need(
        &self,
        ix: usize,
        p: Side,
        forfeits: &[CardIx],
        can_lose: bool,
        plays: usize,
    ) -> String {
        let seg = self.seg(ix);
        let mut owed = Vec::new();
        if seg.attrition[p.ix()] > 0 {
            owed.push(format!("{} attrition", seg.attrition[p.ix()]));
        }
        if seg.damage[p.ix()] > 0 {
            owed.push(format!("{} battle damage", seg.damage[p.ix()]));
        }
        if owed.is_empty() {
            owed.push("its hit cards".into());
        }
        let mut how = Vec::new();
        if !forfeits.is_empty() {
            let names: Vec<String> = forfeits.iter().map(|&c| self.name(c)).collect();
            how.push(format!("forfeit {}", names.join(", ")));
        }
        if can_lose {
            how.push("lose Force".into());
        }
        if plays > 0 {
            how.push("a damage segment action".into());
        }
        format!("satisfy {} ({})", owed.join(" and "), how.join(" or "))
    }

    /// Pending battle damage that nothing can satisfy (no card to forfeit, no Force
    /// left) remains unsatisfied: it is ignored.
    fn unsatisfiable(&mut self, ix: usize, p: Side) {
        let seg = self.seg_mut(ix);
        let d = std::mem::take(&mut seg.damage[p.ix()]);
        if d > 0 {
            self.log(
                Actor::Rules,
                Event::Result,
                format!(
                    "{} has no card left to forfeit and no Force left to lose: the remaining {d} battle damage cannot be satisfied",
                    p.name()
                ),
                &[cite::BATTLE_DAMAGE, cite::LOSING_FORCE],
            );
        }
    }

    fn damage_pass(&mut self, ix: usize, p: Side, why: &str) -> Flow {
        self.log(
            actor(p),
            Event::Pass,
            format!("{} passes (damage segment: {why})", p.name()),
            &[cite::DAMAGE_SEGMENT],
        );
        let seg = self.seg_mut(ix);
        seg.passes += 1;
        seg.next = p.other();
        Ok(())
    }

    /// Attrition that nothing left can satisfy is ignored: every remaining card of the
    /// side is immune to it, or has no forfeit value, or none is left.
    fn ignore_attrition(&mut self, ix: usize, r: &Reading) {
        for s in [Side::Light, Side::Dark] {
            let a = self.seg(ix).attrition[s.ix()];
            if a <= 0 {
                continue;
            }
            let affected = r.0.iter().any(|(c, v)| {
                v.is_some() && self.st.def(*c).side == s && !self.seg(ix).immune.contains(c)
            });
            if affected {
                continue;
            }
            let seg = self.seg_mut(ix);
            seg.attrition[s.ix()] = 0;
            seg.ignored[s.ix()] += a;
            self.log(
                Actor::Rules,
                Event::Result,
                format!(
                    "{} has nothing left that attrition affects: remaining attrition {a} is ignored",
                    s.name()
                ),
                &[cite::ATTRITION, cite::IMMUNE_TO_ATTRITION],
            );
        }
    }

    /// A scripted damage segment decision of the player whose action it is.
    fn damage_decision(&mut self, ix: usize, d: &Decision, r: &Reading) -> Flow {
        let p = d.by;
        let res = match d.verb {
            Verb::Pass if self.must_act(ix, p, r) => Err(rej(
                format!(
                    "{} may not pass in the damage segment with a hit card, pending attrition or pending battle damage",
                    p.name()
                ),
                cite::DAMAGE_SEGMENT,
            )),
            Verb::Pass => {
                self.script_pass(ix, p);
                return Ok(());
            }
            Verb::Forfeit => self.check_forfeit(ix, d, r).map(|c| {
                self.forfeit_card(ix, p, c, false, r);
            }),
            Verb::LoseForce => self
                .check_lose(ix, d)
                .and_then(|n| self.check_loss_cards(d).map(|()| n))
                .map(|n| {
                    let seg = self.seg_mut(ix);
                    seg.carry[p.ix()] = n;
                    seg.from[p.ix()] = d.step.from.iter().copied().collect();
                    self.take_loss_cards(d);
                }),
            _ => self.initiate(d, Window::Response(ix)),
        };
        match res {
            Err(e) => {
                self.reject(d, e);
                Ok(())
            }
            Ok(()) => {
                let seg = self.seg_mut(ix);
                seg.passes = 0;
                seg.next = p.other();
                if d.verb == Verb::LoseForce {
                    // The first unit now; the rest on this player's next turns.
                    self.seg_mut(ix).next = p;
                    return self.lose_unit(ix, p);
                }
                Ok(())
            }
        }
    }

    fn script_pass(&mut self, ix: usize, p: Side) {
        self.log(
            actor(p),
            Event::Pass,
            format!("{} passes (damage segment)", p.name()),
            &[cite::DAMAGE_SEGMENT],
        );
        let seg = self.seg_mut(ix);
        seg.passes += 1;
        seg.next = p.other();
    }

    /// A `forfeit` decision: the card must be the player's, participating in the battle,
    /// have a forfeit value, and be hit or forfeited to pending attrition or battle damage.
    fn check_forfeit(&self, ix: usize, d: &Decision, r: &Reading) -> Result<CardIx, Rejection> {
        let c = self.decision_card(d, cite::FORFEIT)?;
        let title = self.st.title(c);
        if !self.still_participating(ix, c) {
            return Err(rej(
                format!("{title} is not participating in the battle and cannot be forfeited"),
                cite::FORFEIT,
            )
            .and(cite::PARTICIPATING));
        }
        if self.st.def(c).side != d.by {
            return Err(rej(
                format!(
                    "{title} is not {}'s card: only its owner forfeits it",
                    d.by.name()
                ),
                cite::FORFEIT,
            ));
        }
        if !self.forfeitable(ix, d.by, r).contains(&c) {
            let why = if r.forfeit(c).is_none() {
                "it has no forfeit value"
            } else {
                "it was not hit and its player has no pending attrition or battle damage"
            };
            return Err(
                rej(format!("{title} cannot be forfeited: {why}"), cite::FORFEIT)
                    .and(cite::DAMAGE_SEGMENT),
            );
        }
        Ok(c)
    }

    /// A `lose_force` decision: only to satisfy pending battle damage (attrition is
    /// satisfied only by forfeiting), at most the damage pending, each unit from a place
    /// that has a card. Returns the units to lose.
    fn check_lose(&self, ix: usize, d: &Decision) -> Result<i64, Rejection> {
        let p = d.by;
        let seg = self.seg(ix);
        let n = d.step.amount.unwrap_or(d.step.from.len().max(1) as i64);
        if seg.damage[p.ix()] <= 0 {
            if seg.attrition[p.ix()] > 0 {
                return Err(rej(
                    format!(
                        "{} has pending attrition ({}) but no pending battle damage: attrition is satisfied only by forfeiting cards, never by losing Force",
                        p.name(),
                        seg.attrition[p.ix()]
                    ),
                    cite::ATTRITION,
                )
                .and(cite::DAMAGE_SEGMENT));
            }
            return Err(rej(
                format!(
                    "{} has no pending battle damage: no Force is lost to it",
                    p.name()
                ),
                cite::DAMAGE_SEGMENT,
            ));
        }
        if n < 1 || n > seg.damage[p.ix()] {
            return Err(rej(
                format!(
                    "{} may lose 1 to {} Force to the battle damage pending, not {n}",
                    p.name(),
                    seg.damage[p.ix()]
                ),
                cite::BATTLE_DAMAGE,
            ));
        }
        let have: usize = FORCE_PLACES.iter().map(|&pl| self.st.pile_len(p, pl)).sum();
        if n as usize > have {
            return Err(rej(
                format!(
                    "{} has {have} Force left (hand and Life Force) and cannot lose {n}",
                    p.name()
                ),
                cite::LOSING_FORCE,
            ));
        }
        if !d.step.from.is_empty() && d.step.from.len() as i64 != n {
            return Err(rej(
                format!("`from:` gives {} places for {n} Force", d.step.from.len()),
                cite::LOSING_FORCE,
            ));
        }
        let mut left: Vec<(PileName, usize)> = FORCE_PLACES
            .iter()
            .map(|&pl| (pl, self.st.pile_len(p, pl)))
            .collect();
        for pl in &d.step.from {
            match left.iter_mut().find(|x| x.0 == *pl) {
                Some(x) if x.1 > 0 => x.1 -= 1,
                Some(_) => {
                    let open: Vec<&str> = left
                        .iter()
                        .filter(|x| x.1 > 0)
                        .map(|x| x.0.as_str())
                        .collect();
                    return Err(rej(
                        format!(
                            "{} has no card in its {} to lose as Force (it may lose from: {})",
                            p.name(),
                            pl.title(),
                            if open.is_empty() {
                                "nowhere".to_string()
                            } else {
                                open.join(", ")
                            }
                        ),
                        cite::LOSING_FORCE,
                    ));
                }
                None => {
                    return Err(rej(
                        format!("Force is not lost from the {}", pl.title()),
                        cite::LOSING_FORCE,
                    ));
                }
            }
        }
        Ok(n)
    }

    /// One unit of a `lose_force` decision being carried out; the turn passes on.
    fn lose_unit(&mut self, ix: usize, p: Side) -> Flow {
        let seg = self.seg_mut(ix);
        seg.carry[p.ix()] -= 1;
        seg.passes = 0;
        seg.next = p.other();
        self.lose_one(ix, p)
    }

    /// `p` loses 1 Force to satisfy 1 unit of battle damage, from the place chosen (or
    /// the only place that has a card).
    fn lose_one(&mut self, ix: usize, p: Side) -> Flow {
        let open = self.open_places(p);
        let chosen = self.seg_mut(ix).from[p.ix()].pop_front();
        let place = match (chosen, open.as_slice()) {
            (Some(pl), _) if open.contains(&pl) => pl,
            (_, [only]) => *only,
            _ => {
                self.need(p, NeedKind::Choice, format!(
                        "where to lose 1 Force from to battle damage (`lose_force` with `from:`: {})",
                        open.iter()
                            .map(|x| x.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                return Err(Stop::Halt);
            }
        };
        let c = match self.card_to_lose(p, place) {
            super::force_loss::LossCard::Card(c) => c,
            super::force_loss::LossCard::None => return Ok(()),
            super::force_loss::LossCard::Choose(what) => {
                // The place chosen stands; the card is asked for.
                self.seg_mut(ix).from[p.ix()].push_front(place);
                self.need(p, NeedKind::Choice, what);
                return Err(Stop::Halt);
            }
        };
        self.st.to_pile(c, p, PileName::LostPile);
        self.st.force[p.ix()].lost += 1;
        let seg = self.seg_mut(ix);
        seg.damage[p.ix()] -= 1;
        seg.force_lost[p.ix()] += 1;
        let left = seg.damage[p.ix()];
        let text = format!(
            "{} loses 1 Force to battle damage ({left} remaining): {} from {}",
            p.name(),
            self.name(c),
            place.title()
        );
        self.log(
            actor(p),
            Event::StateChange,
            text,
            &[cite::BATTLE_DAMAGE, cite::LOSING_FORCE],
        );
        Ok(())
    }

    /// `p` forfeits `c`: its forfeit value satisfies attrition and battle damage; it and
    /// everything on it go to the Lost Pile.
    fn forfeit_card(&mut self, ix: usize, p: Side, c: CardIx, forced: bool, r: &Reading) {
        let name = self.name(c);
        if forced {
            let seg = self.seg(ix);
            let why = if seg.hits.contains(&c) {
                format!("{name} was hit and must be forfeited")
            } else if seg.attrition[p.ix()] > 0 && !seg.immune.contains(&c) {
                format!(
                    "{name} is {}'s only card affected by attrition and must be forfeited",
                    p.name()
                )
            } else {
                format!(
                    "{name} is {}'s only way to satisfy what is pending and must be forfeited",
                    p.name()
                )
            };
            let cites: &[&str] = if self.seg(ix).hits.contains(&c) {
                &[cite::WEAPON_HITS]
            } else {
                &[cite::ATTRITION, cite::BATTLE_DAMAGE]
            };
            self.log(Actor::Rules, Event::Result, why, cites);
        }
        let fv = r.forfeit(c).cloned();
        let v = fv.as_ref().and_then(|t| t.value).unwrap_or(0).max(0);
        let seg = self.seg_mut(ix);
        seg.attrition[p.ix()] = (seg.attrition[p.ix()] - v).max(0);
        seg.damage[p.ix()] = (seg.damage[p.ix()] - v).max(0);
        seg.hits.retain(|&h| h != c);
        seg.forfeited[p.ix()] += 1;
        let (a, d) = (seg.attrition[p.ix()], seg.damage[p.ix()]);
        let shown = fv.map_or_else(|| "0".to_string(), |t| t.to_string());
        self.log(
            actor(p),
            Event::StateChange,
            format!(
                "{} forfeits {name} ({shown}): attrition remaining {a}, battle damage remaining {d}",
                p.name()
            ),
            &[cite::FORFEIT, cite::ATTRITION, cite::BATTLE_DAMAGE],
        );
        for x in self.lose_with_all_on(c) {
            let owner = self.st.owner(x);
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!("{} goes to {}'s Lost Pile", self.st.title(x), owner.name()),
                &[cite::FORFEIT, super::rules::LEAVES_TABLE],
            );
        }
    }

    /// A damage segment action's result: all remaining battle damage against `me` is
    /// canceled.
    pub(super) fn cancel_battle_damage(&mut self, ix: usize, me: Side) {
        let Some(j) = (0..ix).rev().find(|&j| self.stack[j].damage.is_some()) else {
            return;
        };
        let source = self.stack[ix].card.map_or_else(
            || self.stack[ix].label.clone(),
            |c| self.st.title(c).to_string(),
        );
        let seg = self.seg_mut(j);
        let n = std::mem::take(&mut seg.damage[me.ix()]);
        seg.canceled[me.ix()] += n;
        seg.carry[me.ix()] = 0;
        self.log(
            actor(me),
            Event::Result,
            format!("{source} cancels {n} battle damage against {}", me.name()),
            &[cite::DAMAGE_SEGMENT, cite::BATTLE_DAMAGE],
        );
    }

    /// The battle's numbers as they stand: its totals, and what the damage segment has
    /// done so far (Force lost, cards forfeited, attrition ignored, battle damage canceled).
    fn push_damage_numbers(&mut self, ix: usize) {
        let label = self.stack[ix].label.clone();
        let seg = self.seg(ix);
        let mut out = Vec::with_capacity(seg.numbers.len());
        for (k, v) in &seg.numbers {
            let mut v = v.clone();
            for s in [Side::Light, Side::Dark] {
                let i = s.ix();
                let counted = match k.strip_prefix(s.as_str()).and_then(|r| r.strip_prefix('.')) {
                    Some("force_lost") => Some(serde_json::json!(seg.force_lost[i])),
                    Some("forfeited") => Some(serde_json::json!(seg.forfeited[i])),
                    Some("attrition_ignored") => Some(serde_json::json!(seg.ignored[i])),
                    Some("battle_damage_canceled") => Some(serde_json::json!(seg.canceled[i])),
                    _ => None,
                };
                if let Some(x) = counted {
                    v = x;
                }
            }
            out.push((format!("{label}.{k}"), v));
        }
        self.numbers.extend(out);
    }

    /// When a run stops during a damage segment, the numbers of the battle so far.
    pub fn damage_numbers_so_far(&mut self) {
        for ix in 0..self.stack.len() {
            if self.stack[ix].damage.is_some() {
                self.push_damage_numbers(ix);
            }
        }
    }

    /// Both players passed consecutively: the battle ends; its numbers are recorded.
    fn damage_end(&mut self, ix: usize) -> Flow {
        let label = self.stack[ix].label.clone();
        self.log(
            Actor::Rules,
            Event::Phase,
            format!(
                "{label}: both players passed consecutively in the damage segment: the battle ends"
            ),
            &[cite::DAMAGE_SEGMENT, cite::END_OF_BATTLE],
        );
        self.push_damage_numbers(ix);
        self.resolved.push(label.clone());
        self.stack.pop();
        self.log(
            Actor::Rules,
            Event::Pop,
            format!("{label} comes off the stack"),
            &[super::rules::HOW_THE_STACK_WORKS],
        );
        Ok(())
    }
}
