//! Blowing away a location (AR Appendix C, Blown Away - Timing, Planet Systems,
//! Mobile Systems, Main Power Generators).
//!
//! When a card's text reaches "… is 'blown away'" (the effect `blow_away`), in order:
//!
//! 1. cards on that location that say they are relocated when it is blown away are
//!    relocated (to the table);
//! 2. at a site, every card there is lost except the cards causing the blowing away;
//! 3. the Force loss of the cards and rules is applied: the loss the card lists, 2
//!    Force for each light side Force icon at a blown away Rebel Base system and its
//!    related locations, 2 for each dark side icon at a blown away mobile system and
//!    its related locations (doubled when the card says so; generic sites ignored), a
//!    location's own "if blown away" loss only when that location itself is blown
//!    away;
//! 4. at a system, every related site and sector (and the cards at them) is lost, and
//!    every card at the system except starships;
//! 5. the location is flipped over (blown away);
//! 6. the card's text continues if it is still on table;
//! 7. and 8. the blowing away is an occurrence open to automatic, then just, actions
//!    (`responds_to: {event: blown_away, location: …}`).

use super::activation::LocFilter;
use super::effects::Applied;
use super::engine::*;
use super::model::{CardType, Effect, LocKind, SectorKind, Side, Who};
use super::stack::{ActionKind, Entry, Tgt};
use super::state::{CardIx, Zone};
use super::statics::Replacement;
use crate::engine::{Actor, Event};
use serde::Deserialize;

pub const BLOWN_AWAY_TIMING: &str = "swccg.ar.blown-away-timing";
pub const PLANET_SYSTEMS: &str = "swccg.ar.blown-away-planet-systems";
pub const MOBILE_SYSTEMS: &str = "swccg.ar.blown-away-mobile-systems";
pub const MAIN_POWER_GENERATORS: &str = "swccg.ar.blown-away-main-power-generators";

/// Every section this module cites.
pub const IDS: &[&str] = &[
    BLOWN_AWAY_TIMING,
    PLANET_SYSTEMS,
    MOBILE_SYSTEMS,
    MAIN_POWER_GENERATORS,
];

/// The effect `blow_away`: the card's text reaches "… is 'blown away'".
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlowAway {
    /// The locations blown away: a location target of the ability by its name, or a
    /// location on the board by its name or title ("Bunker and Landing Platform (if
    /// on table)": one not on table is skipped).
    pub at: Vec<String>,
    /// The Force loss the card lists for it ("opponent loses 8 Force"), applied at
    /// step 3.
    #[serde(default)]
    pub lose: Option<CardLoss>,
    /// "Lose double Force": the Force loss of the rules is doubled.
    #[serde(default)]
    pub doubled: bool,
}

/// "<who> loses N Force".
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardLoss {
    pub who: Who,
    pub amount: i64,
}

/// What the blown away rules read about a location (`epic:` on a board location).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocationEpic {
    /// The system is a Rebel Base (Yavin 4 or Hoth).
    #[serde(default)]
    pub rebel_base: bool,
    /// A generic site (♦): not counted in blown away totals.
    #[serde(default)]
    pub generic: bool,
    /// The location's own text "If 'blown away,' <side> loses N Force".
    #[serde(default)]
    pub if_blown_away: Option<SideLoss>,
    /// Lost with the system it is related to (set during the run).
    #[serde(skip)]
    pub lost: bool,
}

/// "<side> loses N Force".
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideLoss {
    pub side: Side,
    pub lose: i64,
}

impl Engine {
    /// The effect `blow_away` (steps 1 to 5; step 6 is the rest of the card's
    /// effects; steps 7 and 8 the occurrence pushed after them).
    pub(super) fn blow_away(&mut self, ix: usize, def: BlowAway) -> Applied {
        let me = self.stack[ix].actor;
        let cause = self.stack[ix].card;
        let locs = self.blown_locations(ix, &def);
        if locs.is_empty() {
            self.log(
                Actor::Rules,
                Event::Result,
                "no such location on table: nothing is blown away",
                &[BLOWN_AWAY_TIMING],
            );
            return Applied::Done;
        }
        let names = self.loc_names(&locs);
        self.log(
            Actor::Rules,
            Event::Result,
            format!(
                "{names} {} 'blown away': the steps of Blown Away - Timing follow",
                if locs.len() > 1 { "are" } else { "is" }
            ),
            &[BLOWN_AWAY_TIMING],
        );
        self.step_relocate(&locs);
        self.step_sites(&locs, cause);
        if !self.step_force_loss(me, &locs, &def) {
            return Applied::Stop;
        }
        self.step_systems(&locs);
        for &l in &locs {
            self.st.locations[l].geo.blown_away = true;
        }
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!("5) {names}: flipped over (blown away)"),
            &[BLOWN_AWAY_TIMING, super::epic::BLOWN_AWAY],
        );
        let still = cause.is_some_and(|c| self.st.on_table(c));
        if !still {
            self.stack[ix].pending.clear();
        }
        let step6 = match cause {
            Some(c) if still => format!("6) the events on {} continue", self.name(c)),
            Some(c) => format!(
                "6) {} is no longer on table: its events do not continue",
                self.name(c)
            ),
            None => "6) no card to continue with".to_string(),
        };
        self.log(Actor::Rules, Event::Result, step6, &[BLOWN_AWAY_TIMING]);
        self.stack[ix]
            .pending
            .push_back(Effect::BlownAwayOccurred(locs));
        Applied::Done
    }

    /// Steps 7 and 8: the blowing away, open to automatic, then just, actions.
    pub(super) fn blown_away_occurred(&mut self, ix: usize, locs: Vec<usize>) -> Applied {
        let me = self.stack[ix].actor;
        let names = self.loc_names(&locs);
        let label = format!("{names} blown away");
        let mut e = Entry::new(ActionKind::BlownAway { locations: locs }, me, None, label);
        e.next = me.other();
        self.stack.push(e);
        self.log(
            actor(me),
            Event::Push,
            format!("7) and 8) {names} just blown away: automatic actions, then just actions"),
            &[BLOWN_AWAY_TIMING],
        );
        Applied::Pushed
    }

    /// Does a `blown_away` trigger's location filter match the locations blown away?
    pub(super) fn blown_matches(&self, locs: &[usize], f: Option<&LocFilter>, me: Side) -> bool {
        f.is_none_or(|f| locs.iter().any(|&l| self.loc_matches(l, f, me, true)))
    }

    fn blown_locations(&self, ix: usize, def: &BlowAway) -> Vec<usize> {
        let mut out = Vec::new();
        for n in &def.at {
            let l = match self.stack[ix].target(n) {
                Some(Tgt::Location(l)) => Some(*l),
                _ => self.st.find_location(n).or_else(|| {
                    (0..self.st.locations.len())
                        .find(|&l| self.st.locations[l].title.eq_ignore_ascii_case(n))
                }),
            };
            if let Some(l) = l.filter(|&l| self.location_on_table(l) && !out.contains(&l)) {
                out.push(l);
            }
        }
        out
    }

    /// A location still on table (not lost, not already blown away).
    fn location_on_table(&self, l: usize) -> bool {
        let g = &self.st.locations[l].geo;
        !g.epic.lost && !g.blown_away
    }

    fn loc_names(&self, locs: &[usize]) -> String {
        locs.iter()
            .map(|&l| self.st.locations[l].title.clone())
            .collect::<Vec<_>>()
            .join(" and ")
    }

    /// Step 1: cards deployed on the location that say they are relocated.
    fn step_relocate(&mut self, locs: &[usize]) {
        let movers: Vec<CardIx> = (0..self.st.cards.len())
            .filter(|&c| {
                self.st
                    .def(c)
                    .has_replacement(|r| matches!(r, Replacement::RelocatesIfBlownAway))
                    && matches!(self.st.zone[c], Zone::At(l) if locs.contains(&l))
            })
            .collect();
        if movers.is_empty() {
            self.log(
                Actor::Rules,
                Event::Result,
                "1) no card there states it is relocated",
                &[BLOWN_AWAY_TIMING],
            );
        }
        for c in movers {
            self.st.put(c, Zone::Table);
            let text = format!(
                "1) {} states it is relocated when its location is blown away: relocated to the table",
                self.name(c)
            );
            self.log(
                actor(self.st.owner(c)),
                Event::StateChange,
                text,
                &[BLOWN_AWAY_TIMING],
            );
        }
    }

    /// Step 2: at a site, every card there is lost except the cards causing it.
    fn step_sites(&mut self, locs: &[usize], cause: Option<CardIx>) {
        let sites: Vec<usize> = locs
            .iter()
            .copied()
            .filter(|&l| self.st.locations[l].geo.kind == Some(LocKind::Site))
            .collect();
        if sites.is_empty() {
            self.log(
                Actor::Rules,
                Event::Result,
                "2) not a site: no cards are lost at this step",
                &[BLOWN_AWAY_TIMING],
            );
            return;
        }
        for l in sites {
            let keep = |c: CardIx| Some(c) == cause;
            let at = self.cards_directly_at(l, |c| !keep(c));
            let lost = self.lose_all(&at);
            let spared = cause
                .filter(|&c| matches!(self.st.zone[c], Zone::At(x) if x == l))
                .map(|c| format!(", except {} (it is causing the blowing away)", self.name(c)))
                .unwrap_or_default();
            let text = format!(
                "2) every card at {} is lost: {}{spared}",
                self.st.locations[l].title,
                if lost.is_empty() { "none" } else { &lost }
            );
            self.log(Actor::Rules, Event::StateChange, text, &[BLOWN_AWAY_TIMING]);
        }
    }

    /// Cards at location `l` itself (not on other cards) that pass `keep`.
    fn cards_directly_at(&self, l: usize, keep: impl Fn(CardIx) -> bool) -> Vec<CardIx> {
        (0..self.st.cards.len())
            .filter(|&c| matches!(self.st.zone[c], Zone::At(x) if x == l) && keep(c))
            .collect()
    }

    /// Loses each card (with everything on it): the names, for the trace.
    fn lose_all(&mut self, cards: &[CardIx]) -> String {
        let mut names = Vec::new();
        for &c in cards {
            if self.st.on_table(c) {
                names.push(self.name(c));
                self.lose_with_all_on(c);
            }
        }
        names.join(", ")
    }

    /// Step 3: the Force loss of the cards and rules. False: the run needs a decision.
    fn step_force_loss(&mut self, me: Side, locs: &[usize], def: &BlowAway) -> bool {
        let mut owed: Vec<(Side, i64, String, &'static str)> = Vec::new();
        if let Some(l) = def.lose {
            let p = super::effects::side_of(l.who, me);
            owed.push((p, l.amount, "the card's text".into(), BLOWN_AWAY_TIMING));
        }
        for &l in locs {
            owed.extend(self.rules_loss(l, def.doubled));
            if let Some(s) = self.st.locations[l].geo.epic.if_blown_away {
                // Only a location blown away itself (not one lost with its system).

                let why = format!(
                    "{}'s text (it is blown away itself)",
                    self.st.locations[l].title
                );
                owed.push((s.side, s.lose, why, MAIN_POWER_GENERATORS));
            }
        }
        if owed.is_empty() {
            self.log(
                Actor::Rules,
                Event::Result,
                "3) no card or rule causes a Force loss",
                &[BLOWN_AWAY_TIMING, PLANET_SYSTEMS],
            );
        }
        for (p, n, why, cite) in owed {
            let lost = self.lose_force(p, n);
            if self.outcome.is_some() {
                return false;
            }
            let mut cites = vec![BLOWN_AWAY_TIMING, super::rules::LOSING_FORCE];
            if cite != BLOWN_AWAY_TIMING {
                cites.insert(1, cite);
            }
            self.log(
                actor(p),
                Event::StateChange,
                format!("3) {} loses {lost} Force ({why})", p.name()),
                &cites,
            );
        }
        true
    }

    /// The loss the rules attach to a blown away system: a Rebel Base, 2 per light
    /// side icon; a mobile system, 2 per dark side icon; over the system and its
    /// related locations, generic sites ignored.
    fn rules_loss(&mut self, l: usize, doubled: bool) -> Option<(Side, i64, String, &'static str)> {
        let g = &self.st.locations[l].geo;
        if g.kind != Some(LocKind::System) {
            return None;
        }
        let title = self.st.locations[l].title.clone();
        let (side, cite, what) = if g.mobile {
            (Side::Dark, MOBILE_SYSTEMS, "a mobile system")
        } else if g.epic.rebel_base {
            (Side::Light, PLANET_SYSTEMS, "a Rebel Base")
        } else {
            self.log(
                Actor::Rules,
                Event::Result,
                format!("3) {title} is not a Rebel Base: the rules cause no Force loss for it"),
                &[BLOWN_AWAY_TIMING, PLANET_SYSTEMS],
            );
            return None;
        };
        let mut counted = vec![l];
        counted.extend(
            self.related(l)
                .into_iter()
                .filter(|&x| !self.st.locations[x].geo.epic.generic),
        );
        let parts: Vec<String> = counted
            .iter()
            .map(|&x| {
                format!(
                    "{} {}",
                    self.st.locations[x].title,
                    self.force_icons(x, side)
                )
            })
            .collect();
        let icons: i64 = counted.iter().map(|&x| self.force_icons(x, side)).sum();
        let mul = if doubled { 4 } else { 2 };
        let why = format!(
            "{title} is {what}: 2 for each of {icons} {} Force icon(s) ({}){}",
            side.name().to_lowercase(),
            parts.join(", "),
            if doubled { ", doubled" } else { "" }
        );
        Some((side, icons * mul, why, cite))
    }

    /// The sites and sectors related to system `l` (asteroid sectors included, as
    /// the related locations lost with it; still on table).
    fn related(&self, l: usize) -> Vec<usize> {
        let (name, title) = (&self.st.locations[l].name, &self.st.locations[l].title);
        (0..self.st.locations.len())
            .filter(|&x| x != l && self.location_on_table(x))
            .filter(|&x| {
                let g = &self.st.locations[x].geo;
                matches!(g.kind, Some(LocKind::Site) | Some(LocKind::Sector))
                    && g.starship.is_none()
                    && g.system.as_ref().is_some_and(|s| {
                        s.eq_ignore_ascii_case(name) || s.eq_ignore_ascii_case(title)
                    })
            })
            .collect()
    }

    /// Step 4: at a system, the related sites, cloud and Death Star II sectors and
    /// the cards at them are lost, and the cards at the system except starships.
    fn step_systems(&mut self, locs: &[usize]) {
        let systems: Vec<usize> = locs
            .iter()
            .copied()
            .filter(|&l| self.st.locations[l].geo.kind == Some(LocKind::System))
            .collect();
        if systems.is_empty() {
            self.log(
                Actor::Rules,
                Event::Result,
                "4) not a system: no related locations are lost",
                &[BLOWN_AWAY_TIMING],
            );
            return;
        }
        for l in systems {
            let related: Vec<usize> = self
                .related(l)
                .into_iter()
                .filter(|&x| self.st.locations[x].geo.sector != Some(SectorKind::Asteroid))
                .collect();
            for &x in &related {
                let at = self.cards_directly_at(x, |_| true);
                let lost = self.lose_all(&at);
                self.st.locations[x].geo.epic.lost = true;
                let text = format!(
                    "4) {} is lost with {}{}",
                    self.st.locations[x].title,
                    self.st.locations[l].title,
                    if lost.is_empty() {
                        String::new()
                    } else {
                        format!(", and the cards there: {lost}")
                    }
                );
                self.log(Actor::Rules, Event::StateChange, text, &[BLOWN_AWAY_TIMING]);
            }
            let at = self.cards_directly_at(l, |c| self.st.def(c).card_type != CardType::Starship);
            let lost = self.lose_all(&at);
            let text = format!(
                "4) the cards at {} other than starships are lost: {}",
                self.st.locations[l].title,
                if lost.is_empty() { "none" } else { &lost }
            );
            self.log(Actor::Rules, Event::StateChange, text, &[BLOWN_AWAY_TIMING]);
        }
    }

    /// Observations `locations.<name>`: `table`, `lost` or `blown_away`.
    pub(super) fn location_observations(&self) -> Vec<(String, serde_json::Value)> {
        self.st
            .locations
            .iter()
            .map(|lo| {
                let v = if lo.geo.epic.lost {
                    "lost"
                } else if lo.geo.blown_away {
                    "blown_away"
                } else {
                    "table"
                };
                (format!("locations.{}", lo.name), v.into())
            })
            .collect()
    }
}

/// Is `locations.<name>` a path a board position can observe?
pub(super) fn observable(b: &super::model::Board, rest: &str) -> Result<(), String> {
    if b.locations.iter().any(|l| l.name == rest) {
        Ok(())
    } else {
        Err(format!(
            "`locations.{rest}`: `{rest}` is not a location name"
        ))
    }
}
