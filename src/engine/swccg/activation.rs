//! Force generation and activating Force (AR Ch.3): the Force icons on each side of
//! a location (with icons cards add), battlegrounds (Locations - Battleground, with
//! the locations that are never battlegrounds), Force generation modifiers of game
//! text, the activation total counted when the activate phase begins, and the
//! `activate` action.

use super::statics::{Static, pick};
use serde::Deserialize;

use super::engine::{Decision, Engine, Rejection, rej};
use super::model::{LocKind, PileName, Side, Who};
use super::rules as r;
use super::state::CardIx;
use crate::engine::{Actor, Event};

/// One Force generation modifier of a card's game text ("Opponent's Force generation
/// at non-battlegrounds is limited to 1", "Your Force generation is +1 at docking bays
/// you occupy", "Opponent activates no Force at your Cantina").
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenModifier {
    /// Whose Force generation it changes, seen from the card's owner (default `you`).
    #[serde(default)]
    pub side: Option<Who>,
    /// The locations where it applies (default: every location).
    #[serde(default)]
    pub at: LocFilter,
    pub op: GenOp,
    /// "Your total Force generation is +1": it changes the total (only `add`), not
    /// the Force generated at a location.
    #[serde(default)]
    pub total: bool,
    /// Conditions on the card itself ("while Luke is not on Tatooine").
    #[serde(default)]
    pub when: Vec<super::text_when::Cond>,
}

/// What a Force generation modifier does at a location.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GenOp {
    /// +N (or −N) Force generated there.
    Add(i64),
    /// Force generation there is limited to N.
    Limit(i64),
    /// No Force is activated there.
    None,
}

/// Locations by what game text says of them. Every key given must hold.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocFilter {
    /// Any of these locations (board names or titles).
    #[serde(default)]
    pub name: Vec<String>,
    /// Whose location card it is ("your Cantina"), seen from the card's owner.
    #[serde(default)]
    pub owner: Option<Who>,
    /// A battleground (`true`) or a non-battleground (`false`).
    #[serde(default)]
    pub battleground: Option<bool>,
    #[serde(default)]
    pub docking_bay: Option<bool>,
    #[serde(default)]
    pub kind: Option<LocKind>,
    /// Of this system or planet: the system itself, or a site or sector related to it
    /// (its `system:`, or a title like "Tatooine: Cantina").
    #[serde(default)]
    pub system: Option<String>,
    /// A location this player occupies (has presence at).
    #[serde(default)]
    pub occupied: Option<Who>,
    // ---- "for each" (AR Actions - For Each/For Every)
    /// A location occupied by an active card matching this filter ("occupied by Xizor
    /// or Emperor"): such a card is at the location and gives its side presence there.
    #[serde(default)]
    pub occupied_by: Option<Box<super::model::Filter>>,
    // ---- location deployment under special conditions
    /// A site whose marker number is at most this (Hoth Energy Shield rules).
    #[serde(default)]
    pub marker_at_most: Option<i64>,
}

/// The count of a player's activation total, made when their activate phase begins.
#[derive(Debug, Clone, Default)]
pub struct Generation {
    pub side: Option<Side>,
    /// Force generated at each location (index, amount).
    pub at: Vec<(usize, i64)>,
    pub personal: i64,
    pub masters: i64,
    pub total: i64,
    /// Force activated by the `activate` action against this total.
    pub activated: i64,
}

fn rel(w: Option<Who>, owner: Side) -> Side {
    match w {
        Some(Who::Opponent) => owner.other(),
        None | Some(Who::You) => owner,
    }
}

fn icon_of(s: Side) -> &'static str {
    match s {
        Side::Light => "light_force",
        Side::Dark => "dark_force",
    }
}

impl Engine {
    /// Active cards at the location (at it, or on a card there), in scenario order.
    fn active_at(&self, l: usize) -> Vec<CardIx> {
        (0..self.st.cards.len())
            .filter(|&c| self.st.active(c) && self.st.location_of(c) == Some(l))
            .collect()
    }

    /// Force icons on `s`'s side of the location: its own and those active cards there add.
    pub(super) fn force_icons(&self, l: usize, s: Side) -> i64 {
        let icon = icon_of(s);
        let own = self.st.locations[l]
            .icons
            .iter()
            .filter(|i| i.eq_ignore_ascii_case(icon))
            .count();
        let added: usize = self
            .active_at(l)
            .into_iter()
            .map(|c| {
                self.st
                    .def(c)
                    .static_list(pick!(Static::AddsIcons))
                    .iter()
                    .filter(|i| i.eq_ignore_ascii_case(icon))
                    .count()
            })
            .sum();
        (own + added) as i64
    }

    /// Is the location a battleground (AR Locations - Battleground), and why.
    pub(super) fn battleground(&self, l: usize) -> (bool, String, Vec<&'static str>) {
        let lo = &self.st.locations[l];
        if let Some(why) = &lo.geo.never_battleground {
            return (
                false,
                format!("{} is never a battleground ({why})", lo.title),
                vec![r::BATTLEGROUND, r::NEVER],
            );
        }
        let (li, di) = (
            self.force_icons(l, Side::Light),
            self.force_icons(l, Side::Dark),
        );
        let non = (0..self.st.cards.len()).find(|&c| {
            self.st.on_table(c)
                && self
                    .st
                    .def(c)
                    .find_static(pick!(Static::MakesNonBattleground))
                    .is_some_and(|f| self.loc_matches(l, f, self.st.owner(c), false))
        });
        if let Some(c) = non
            && self.phase != super::model::Phase::StartOfGame
        {
            return (
                false,
                format!(
                    "{} is a non-battleground in all states while {} is on table",
                    lo.title,
                    self.st.title(c)
                ),
                vec![r::BATTLEGROUND, r::INVASION],
            );
        }
        if li > 0 && di > 0 {
            return (
                true,
                format!(
                    "{} is a battleground: Force icons on both sides ({li} light, {di} dark)",
                    lo.title
                ),
                vec![r::BATTLEGROUND, r::FORCE_ICONS],
            );
        }
        let by = (0..self.st.cards.len()).find(|&c| {
            self.st.active(c)
                && self
                    .st
                    .def(c)
                    .find_static(pick!(Static::MakesBattleground))
                    .is_some_and(|f| self.loc_matches(l, f, self.st.owner(c), false))
        });
        match by {
            Some(c) => (
                true,
                format!("{} is a battleground by {}", lo.title, self.st.title(c)),
                vec![r::BATTLEGROUND],
            ),
            None => (
                false,
                format!(
                    "{} is not a battleground: Force icons are not on both sides ({li} light, {di} dark)",
                    lo.title
                ),
                vec![r::BATTLEGROUND, r::FORCE_ICONS],
            ),
        }
    }

    /// At the start of the run: the locations whose battleground status game text or
    /// a "never" rule decides, rather than their Force icons alone.
    pub(super) fn note_battlegrounds(&mut self) {
        for l in 0..self.st.locations.len() {
            let (li, di) = (
                self.force_icons(l, Side::Light),
                self.force_icons(l, Side::Dark),
            );
            let (bg, why, cites) = self.battleground(l);
            if bg != (li > 0 && di > 0) {
                self.log(Actor::Rules, Event::StateChange, why, &cites);
            }
        }
    }

    /// Was the card deployed to a location matching `f` itself (not aboard a card)?
    pub(super) fn deployed_to(&self, c: CardIx, f: &LocFilter, me: Side) -> bool {
        matches!(self.st.zone[c], super::state::Zone::At(l) if self.loc_matches(l, f, me, true))
    }

    /// Does location `l` match `f`, seen from `me`? `with_bg`: whether the battleground
    /// key may be read (not while deciding battleground status itself).
    pub(super) fn loc_matches(&self, l: usize, f: &LocFilter, me: Side, with_bg: bool) -> bool {
        let lo = &self.st.locations[l];
        if !f.name.is_empty()
            && !f
                .name
                .iter()
                .any(|n| n.eq_ignore_ascii_case(&lo.name) || n.eq_ignore_ascii_case(&lo.title))
        {
            return false;
        }
        if f.owner.is_some() && lo.geo.owner != Some(rel(f.owner, me)) {
            return false;
        }
        if f.docking_bay.is_some_and(|d| d != lo.geo.docking_bay) {
            return false;
        }
        if f.kind.is_some() && f.kind != lo.geo.kind {
            return false;
        }
        if let Some(s) = &f.system {
            let of = lo.title.eq_ignore_ascii_case(s)
                || lo
                    .geo
                    .system
                    .as_ref()
                    .is_some_and(|x| x.eq_ignore_ascii_case(s))
                || super::prepositions::titled_under(&lo.title, s);
            if !of {
                return false;
            }
        }
        if f.marker_at_most
            .is_some_and(|m| lo.geo.marker.is_none_or(|x| x > m))
        {
            return false;
        }
        if f.occupied.is_some() && !self.has_presence(rel(f.occupied, me), l) {
            return false;
        }
        if let Some(by) = &f.occupied_by
            && !self.occupied_by(l, by, me)
        {
            return false;
        }
        match f.battleground {
            Some(b) if with_bg => self.battleground(l).0 == b,
            Some(_) => false,
            None => true,
        }
    }

    /// Force generated for `p` at location `l` (AR Force Generation): the icons on
    /// `p`'s side, then the game text that modifies generation there (a limit applies
    /// to the modified amount). Each step goes to the trace.
    fn generation_at(&mut self, p: Side, l: usize) -> i64 {
        let title = self.st.locations[l].title.clone();
        let icons = self.force_icons(l, p);
        let mut value = icons;
        let mut parts = vec![format!("{icons} icon(s)")];
        let mut limit: Option<(i64, String)> = None;
        let mut none: Option<String> = None;
        for c in 0..self.st.cards.len() {
            if !self.st.active(c) {
                continue;
            }
            let owner = self.st.owner(c);
            for m in &self.st.def(c).generation {
                if m.total
                    || rel(m.side, owner) != p
                    || !self.loc_matches(l, &m.at, owner, true)
                    || !super::text_when::holds(&self.st, c, &m.when, None)
                {
                    continue;
                }
                let src = self.st.title(c).to_string();
                match m.op {
                    GenOp::Add(n) => {
                        value += n;
                        parts.push(format!("{n:+} ({src})"));
                    }
                    GenOp::Limit(n) => {
                        if limit.as_ref().is_none_or(|(x, _)| n < *x) {
                            limit = Some((n, src));
                        }
                    }
                    GenOp::None => none = Some(src),
                }
            }
        }
        let mut cites = vec![r::FORCE_GENERATION, r::ACTIVATE_PHASE];
        let mut text = format!("{title}: {}", parts.join(" "));
        if parts.len() > 1 {
            cites.push(r::FORCE_GENERATION_MODIFIER);
        }
        if let Some((n, src)) = limit
            && value > n
        {
            let (bg, why, bc) = self.battleground(l);
            value = n;
            text.push_str(&format!(", limited to {n} ({src})"));
            cites.push(super::values::cite::LIMITED);
            if !bg {
                text.push_str(&format!("; {why}"));
            }
            cites.push(r::FORCE_GENERATION_MODIFIER);
            cites.extend(bc);
        }
        if let Some(src) = none {
            value = 0;
            text.push_str(&format!("; {} activates no Force here ({src})", p.name()));
            cites.push(r::FORCE_GENERATION_MODIFIER);
        }
        let value = value.max(0);
        cites.dedup();
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!("{}'s Force generation at {text}: {value}", p.name()),
            &cites,
        );
        value
    }

    /// The activate phase begins: `p` counts the Force they may activate this turn
    /// (icons, personal Force, Jedi or Dark Jedi Masters). The total is fixed once counted.
    pub(super) fn count_generation(&mut self, p: Side) {
        let mut g = Generation {
            side: Some(p),
            ..Default::default()
        };
        for l in 0..self.st.locations.len() {
            let n = self.generation_at(p, l);
            g.at.push((l, n));
        }
        let master = match p {
            Side::Light => "jedi_master",
            Side::Dark => "dark_jedi_master",
        };
        g.masters = (0..self.st.cards.len())
            .filter(|&c| {
                self.st.active(c)
                    && self.st.owner(c) == p
                    && self
                        .st
                        .def(c)
                        .keywords
                        .iter()
                        .any(|k| k.eq_ignore_ascii_case(master))
            })
            .count() as i64;
        g.personal = 1;
        let icons: i64 = g.at.iter().map(|x| x.1).sum();
        let text = self.total_generation(p);
        g.total = (icons + g.personal + g.masters + text).max(0);
        let by_text = if text == 0 {
            String::new()
        } else {
            format!(" {text:+} by game text")
        };
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{}'s activate phase begins: {icons} from locations + 1 personal Force + {} for {}{by_text} = {} Force may be activated this turn (the total is fixed now)",
                p.name(),
                g.masters,
                if p == Side::Light { "Jedi Masters" } else { "Dark Jedi Masters" },
                g.total
            ),
            &[r::ACTIVATE_PHASE, r::FORCE_GENERATION],
        );
        self.generation = Some(g);
    }

    /// Game text changing `p`'s total Force generation ("while Luke is not on
    /// Tatooine your total Force generation is +1"), each step traced.
    fn total_generation(&mut self, p: Side) -> i64 {
        let mut n = 0;
        for c in 0..self.st.cards.len() {
            if !self.st.active(c) {
                continue;
            }
            let owner = self.st.owner(c);
            let mut lines = Vec::new();
            for m in &self.st.def(c).generation {
                let GenOp::Add(k) = m.op else { continue };
                if !m.total
                    || rel(m.side, owner) != p
                    || !super::text_when::holds(&self.st, c, &m.when, None)
                {
                    continue;
                }
                n += k;
                lines.push(format!(
                    "{}'s total Force generation {k:+} ({})",
                    p.name(),
                    self.st.title(c)
                ));
            }
            for t in lines {
                self.log(
                    Actor::Rules,
                    Event::StateChange,
                    t,
                    &[
                        r::FORCE_GENERATION,
                        r::FORCE_GENERATION_MODIFIER,
                        super::text_when::PREPOSITIONS,
                    ],
                );
            }
        }
        n
    }

    /// How many units an `activate` decision activates, if legal now.
    pub(super) fn check_activate(&self, d: &Decision) -> Result<u32, Rejection> {
        let p = d.by;
        let n = d.step.amount.unwrap_or(1);
        if self.phase != super::model::Phase::Activate || self.turn != p {
            return Err(rej(
                format!(
                    "{} may activate Force only during their own activate phase",
                    p.name()
                ),
                r::ACTIVATE_PHASE,
            ));
        }
        if n < 1 {
            return Err(rej("activate at least 1 Force", r::ACTIVATING_FORCE));
        }
        let g = self.generation.as_ref().filter(|g| g.side == Some(p));
        let left = g.map_or(0, |g| g.total - g.activated);
        if n > left {
            return Err(rej(
                format!(
                    "{} may activate up to {} Force this turn and has {left} left; not {n}",
                    p.name(),
                    g.map_or(0, |g| g.total)
                ),
                r::ACTIVATE_PHASE,
            ));
        }
        let deck = self.st.pile_len(p, PileName::ReserveDeck) as i64;
        if n > deck {
            return Err(rej(
                format!(
                    "Force is activated from the top of the Reserve Deck, one card at a time: {} has {deck} card(s) there, not {n}",
                    p.name()
                ),
                r::ACTIVATING_FORCE,
            ));
        }
        Ok(n as u32)
    }

    /// Could `p` activate Force now (a top-level action)?
    pub(super) fn can_activate(&self, p: Side) -> bool {
        let d = Decision {
            at: crate::engine::At::default(),
            by: p,
            verb: super::model::Verb::Activate,
            step: Default::default(),
        };
        self.check_activate(&d).is_ok()
    }

    /// `activate`: each unit is a separate action, a card from the top of the Reserve
    /// Deck to the top of the Force Pile.
    pub(super) fn activate_force(&mut self, d: &Decision) -> Result<(), Rejection> {
        let n = self.check_activate(d)?;
        let p = d.by;
        let moved = self
            .st
            .move_top(p, PileName::ReserveDeck, PileName::ForcePile, n);
        self.st.force[p.ix()].activated += i64::from(moved);
        let (total, done) = match self.generation.as_mut() {
            Some(g) => {
                g.activated += i64::from(moved);
                (g.total, g.activated)
            }
            None => (0, 0),
        };
        self.log(
            super::actor(p),
            Event::StateChange,
            format!(
                "{} activates {moved} Force, one card at a time from the top of the Reserve Deck to the Force Pile ({done} of {total} this turn)",
                p.name()
            ),
            &[r::ACTIVATING_FORCE, r::ACTIVATE_PHASE],
        );
        Ok(())
    }
}

impl Engine {
    /// Observations of the turn structure: `generation.<side>.<total|personal|masters|
    /// location>` (the count made when the activate phase began) and
    /// `battleground.<location>` (at the end of the run).
    pub fn turn_observations(&self) -> Vec<(String, serde_json::Value)> {
        let mut v = Vec::new();
        if let Some(g) = &self.generation
            && let Some(s) = g.side
        {
            let k = s.as_str();
            v.push((format!("generation.{k}.total"), g.total.into()));
            v.push((format!("generation.{k}.personal"), g.personal.into()));
            v.push((format!("generation.{k}.masters"), g.masters.into()));
            v.push((format!("generation.{k}.activated"), g.activated.into()));
            for &(l, n) in &g.at {
                v.push((
                    format!("generation.{k}.{}", self.st.locations[l].name),
                    n.into(),
                ));
            }
        }
        v.push(("turn".into(), self.turn.as_str().into()));
        v.push((
            "phase".into(),
            serde_json::to_value(self.phase).unwrap_or_default(),
        ));
        for c in 0..self.st.cards.len() {
            v.push((
                format!("owner.{}", self.st.key(c)),
                self.st.owner(c).as_str().into(),
            ));
        }
        for l in 0..self.st.locations.len() {
            v.push((
                format!("battleground.{}", self.st.locations[l].name),
                self.battleground(l).0.into(),
            ));
        }
        v.extend(self.location_observations());
        v
    }
}

/// Is `generation.*` / `battleground.*` a path a board position can observe?
pub(super) fn observable(b: &super::model::Board, head: &str, rest: &str) -> Result<(), String> {
    let known = |n: &str| b.locations.iter().any(|l| l.name == n);
    if matches!(head, "turn" | "phase") && rest.is_empty() {
        return Ok(());
    }
    if head == "owner" {
        return if b.cards.contains_key(rest) {
            Ok(())
        } else {
            Err(format!(
                "`owner.{rest}`: `{rest}` is not a card in `cards:`"
            ))
        };
    }
    if head == "battleground" {
        return if known(rest) {
            Ok(())
        } else {
            Err(format!(
                "`battleground.{rest}`: `{rest}` is not a location name"
            ))
        };
    }
    let (side, key) = rest.split_once('.').unwrap_or((rest, ""));
    if side != "light" && side != "dark" {
        return Err(format!(
            "`generation.{rest}`: `{side}` is not light or dark"
        ));
    }
    if ["total", "personal", "masters", "activated"].contains(&key) || known(key) {
        Ok(())
    } else {
        Err(format!(
            "`generation.{rest}`: observes generation.<side>.<total|personal|masters|activated|location name>"
        ))
    }
}
