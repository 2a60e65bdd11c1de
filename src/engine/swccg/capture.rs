//! Capturing (AR Appendix C Capturing): captured characters are seized by an escort,
//! imprisoned at a prison, or escape; captives are inactive and move only with their
//! escort (a captive is placed beneath its escort: it is carried); releasing captives.
//!
//! On the board a captive is a Light Side character placed `on` a Dark Side character
//! (its escort) with `state: inactive`, or an inactive Light Side character at a
//! `prison: true` location (imprisoned).

use super::effects::Applied;
use super::engine::{Decision, Engine, Rejection, rej};
use super::model::{CardState, CardType, Filter, LocKind, PileName, Side, Verb};
use super::rules as r;
use super::state::{CardIx, Zone};
use crate::engine::{Actor, Event};
use serde::Deserialize;

pub const CAPTURING: &str = "swccg.ar.capturing";
pub const CAPTURING_CHARACTERS: &str = "swccg.ar.capturing-characters";
pub const CAPTIVES: &str = "swccg.ar.captives";
pub const CAPTIVES_ESCORTING: &str = "swccg.ar.captives-escorting";
pub const CAPTIVES_IMPRISONED: &str = "swccg.ar.captives-imprisoned";
pub const CAPTIVES_RELEASING: &str = "swccg.ar.captives-releasing";
pub const PRISONS: &str = "swccg.ar.prisons";
pub const PRISONER_TRANSFERS: &str = "swccg.ar.unlimited-prisoner-transfers";
pub const CAPTURING_STARSHIPS: &str = "swccg.ar.capturing-starships";

/// Every section the capturing rules cite.
pub const IDS: &[&str] = &[
    CAPTURING,
    CAPTURING_CHARACTERS,
    CAPTIVES,
    CAPTIVES_ESCORTING,
    CAPTIVES_IMPRISONED,
    CAPTIVES_RELEASING,
    PRISONS,
    PRISONER_TRANSFERS,
    CAPTURING_STARSHIPS,
    super::besieged::BESIEGED_BATTLES,
    super::besieged::BESIEGED_BATTLES_LINK,
    super::besieged::BESIEGED_TEXT,
    super::besieged::BESIEGED_RULING,
];

/// "If Leia is present at a site where Han is a captive, release Han": the captives
/// (of the card's owner) matching `captive`, where one of the owner's active cards
/// matching `present` is present at the captive's site.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReleaseText {
    pub captive: Filter,
    #[serde(default)]
    pub present: Option<Filter>,
}

/// How a captive is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held {
    Escorted(CardIx),
    Imprisoned(usize),
}

fn is_capture_verb(v: Verb) -> bool {
    matches!(v, Verb::Seize | Verb::Imprison | Verb::Escape | Verb::Rally)
}

impl Engine {
    /// How `c` is held captive, if it is a captive.
    pub(super) fn held(&self, c: CardIx) -> Option<Held> {
        let st = &self.st;
        if st.owner(c) != Side::Light
            || st.def(c).card_type != CardType::Character
            || st.card_state[c] != CardState::Inactive
        {
            return None;
        }
        match st.zone[c] {
            Zone::On(e)
                if st.owner(e) == Side::Dark && st.def(e).card_type == CardType::Character =>
            {
                Some(Held::Escorted(e))
            }
            Zone::At(l) if st.locations[l].geo.prison => Some(Held::Imprisoned(l)),
            _ => None,
        }
    }

    /// Why `e` may not seize `t` (None: it may). Escorts are the Dark Side's bounty
    /// hunters, warriors and battle droids at the same location, one captive each.
    fn seize_refusal(&self, e: CardIx, t: CardIx) -> Option<(String, &'static str)> {
        let st = &self.st;
        let title = st.title(e);
        let kinds = ["bounty_hunter", "warrior", "battle_droid"];
        let is_kind = st
            .def(e)
            .keywords
            .iter()
            .any(|k| kinds.iter().any(|x| k.eq_ignore_ascii_case(x)));
        if st.owner(e) != Side::Dark || st.def(e).card_type != CardType::Character || !is_kind {
            return Some((
                format!("{title} is not one of Dark's bounty hunters, warriors or battle droids"),
                CAPTURING_CHARACTERS,
            ));
        }
        if !st.active(e) || st.location_of(e) != st.location_of(t) {
            return Some((
                format!(
                    "{title} is not active at the same location as {}",
                    st.title(t)
                ),
                CAPTURING_CHARACTERS,
            ));
        }
        if let Some(x) = st
            .cards_on(e)
            .into_iter()
            .find(|&x| x != t && self.held(x).is_some())
        {
            return Some((
                format!(
                    "{title} is already escorting {}: each character may escort only one captive at a time",
                    st.title(x)
                ),
                CAPTIVES_ESCORTING,
            ));
        }
        None
    }

    /// The effect `capture`: the card is captured.
    pub(super) fn capture(&mut self, me: Side, t: CardIx) -> Applied {
        let title = self.name(t);
        if me != Side::Dark {
            self.log(
                super::actor(me),
                Event::Result,
                format!("only the Dark Side may capture: {title} is not captured"),
                &[CAPTURING],
            );
            return Applied::Done;
        }
        if self.st.owner(t) != Side::Light
            || self.st.def(t).card_type != CardType::Character
            || !self.st.on_table(t)
        {
            self.log(
                Actor::Rules,
                Event::Result,
                format!("{title} is not a Light Side character on table: it cannot be captured"),
                &[CAPTURING, CAPTURING_CHARACTERS],
            );
            return Applied::Done;
        }
        self.log(
            super::actor(me),
            Event::StateChange,
            format!("{title} is captured: Dark chooses Seizure, Imprisonment or Escape"),
            &[CAPTURING_CHARACTERS],
        );
        let escorts: Vec<CardIx> = (0..self.st.cards.len())
            .filter(|&e| e != t && self.seize_refusal(e, t).is_none())
            .collect();
        let prison = self
            .st
            .location_of(t)
            .filter(|&l| self.st.locations[l].geo.prison && self.st.zone[t] == Zone::At(l));
        if escorts.is_empty() && prison.is_none() {
            // Seizure and Imprisonment are impossible: a decision naming them is refused here.
            while let Some(d) =
                self.script.peek().cloned().filter(|d| {
                    d.by == Side::Dark && matches!(d.verb, Verb::Seize | Verb::Imprison)
                })
            {
                self.script.take();
                let e = self.capture_refusal(&d, t);
                self.reject(&d, e);
            }
            self.escape(t, "no escort can seize it and it is not at a prison");
            return Applied::Done;
        }
        loop {
            let Some(d) = self
                .script
                .peek()
                .cloned()
                .filter(|d| d.by == Side::Dark && is_capture_verb(d.verb))
            else {
                let what = format!(
                    "{title} is captured: seize (by {}), imprison or escape",
                    self.keys(&escorts)
                );
                self.need_choice(Side::Dark, what);
                return Applied::Stop;
            };
            self.script.take();
            match self.capture_choice(&d, t, prison) {
                Ok(()) => return Applied::Done,
                Err(e) => self.reject(&d, e),
            }
        }
    }

    /// Why a seize or imprison decision about `t` is refused.
    fn capture_refusal(&self, d: &Decision, t: CardIx) -> Rejection {
        if d.verb == Verb::Imprison {
            return rej(
                format!(
                    "{} was not captured at a prison: it cannot be imprisoned",
                    self.name(t)
                ),
                CAPTURING_CHARACTERS,
            )
            .and(PRISONS);
        }
        let to = d.step.to.as_deref().unwrap_or("");
        match self.st.find(to) {
            Some(e) => {
                let (reason, rule) = self.seize_refusal(e, t).unwrap_or_else(|| {
                    (
                        format!("{} cannot seize {}", self.name(e), self.name(t)),
                        CAPTURING_CHARACTERS,
                    )
                });
                rej(reason, rule)
            }
            None => rej(
                format!("`seize` names the escort (`to:`); {to} is not a card"),
                CAPTURING_CHARACTERS,
            ),
        }
    }

    /// Dark's choice for a captured character.
    fn capture_choice(
        &mut self,
        d: &Decision,
        t: CardIx,
        prison: Option<usize>,
    ) -> Result<(), Rejection> {
        if d.step.card.as_deref() != Some(self.st.key(t)) {
            return Err(rej(
                format!("the character captured is {}", self.name(t)),
                CAPTURING_CHARACTERS,
            ));
        }
        match d.verb {
            Verb::Seize => {
                let e = self
                    .st
                    .find(d.step.to.as_deref().unwrap_or(""))
                    .ok_or_else(|| self.capture_refusal(d, t))?;
                if self.seize_refusal(e, t).is_some() {
                    return Err(self.capture_refusal(d, t));
                }
                self.st.put(t, Zone::On(e));
                self.st.card_state[t] = CardState::Inactive;
                let text = format!(
                    "Seizure: {} takes {} captive and is now its escort (the captive is inactive, beneath its escort)",
                    self.name(e),
                    self.name(t)
                );
                self.log(
                    super::actor(Side::Dark),
                    Event::StateChange,
                    text,
                    &[CAPTURING_CHARACTERS, CAPTIVES_ESCORTING, CAPTIVES],
                );
                Ok(())
            }
            Verb::Imprison => {
                let l = prison.ok_or_else(|| self.capture_refusal(d, t))?;
                self.st.put(t, Zone::At(l));
                self.st.card_state[t] = CardState::Inactive;
                let text = format!(
                    "Imprisonment: {} is imprisoned at {}",
                    self.name(t),
                    self.st.locations[l].title
                );
                self.log(
                    super::actor(Side::Dark),
                    Event::StateChange,
                    text,
                    &[CAPTURING_CHARACTERS, CAPTIVES_IMPRISONED],
                );
                Ok(())
            }
            Verb::Escape => {
                self.escape(t, "Dark chooses Escape");
                Ok(())
            }
            _ => Err(rej(
                "a captured character is seized, imprisoned or escapes; rallying follows a release",
                CAPTURING_CHARACTERS,
            )),
        }
    }

    /// The character escapes: it is placed in its owner's Used Pile.
    fn escape(&mut self, t: CardIx, why: &str) {
        let owner = self.st.owner(t);
        self.st.to_pile(t, owner, PileName::UsedPile);
        let text = format!(
            "Escape: {} is placed in {}'s Used Pile ({why})",
            self.name(t),
            owner.name()
        );
        self.log(
            Actor::Rules,
            Event::StateChange,
            text,
            &[CAPTURING_CHARACTERS, CAPTIVES_RELEASING],
        );
    }

    /// The effect `release`: each matching captive of the card's owner is released.
    pub(super) fn release(&mut self, me: Side, text: &super::capture::ReleaseText) -> Applied {
        let found: Vec<(CardIx, Held)> = (0..self.st.cards.len())
            .filter(|&c| self.st.owner(c) == me && self.st.matches(c, &text.captive, me))
            .filter_map(|c| self.held(c).map(|h| (c, h)))
            .filter(|&(c, _)| {
                text.present.as_ref().is_none_or(|f| {
                    let l = self.st.location_of(c);
                    (0..self.st.cards.len()).any(|x| {
                        self.st.active(x)
                            && self.st.matches(x, f, me)
                            && matches!(self.st.zone[x], Zone::At(y) if Some(y) == l)
                    })
                })
            })
            .collect();
        if found.is_empty() {
            self.log(
                Actor::Rules,
                Event::Result,
                "no captive meets the conditions: nobody is released",
                &[CAPTIVES_RELEASING],
            );
            return Applied::Done;
        }
        for (c, h) in found {
            if !self.released(c, h) {
                return Applied::Stop;
            }
        }
        Applied::Done
    }

    /// A captive is released: from a prison it must Rally; from an escort, Light
    /// chooses Escape or Rally (Rally only at a site). False: the run needs a decision.
    pub(super) fn released(&mut self, c: CardIx, h: Held) -> bool {
        let l = self.st.location_of(c);
        let at_site = l.filter(|&l| self.st.locations[l].geo.kind == Some(LocKind::Site));
        let title = self.name(c);
        let rally = match h {
            Held::Imprisoned(_) => true,
            Held::Escorted(_) if at_site.is_none() => false,
            Held::Escorted(_) => loop {
                let Some(d) = self.script.peek().cloned().filter(|d| {
                    d.by == Side::Light && matches!(d.verb, Verb::Escape | Verb::Rally)
                }) else {
                    self.need_choice(Side::Light, format!("{title} is released: escape or rally"));
                    return false;
                };
                self.script.take();
                if d.step.card.as_deref() == Some(self.st.key(c)) {
                    break d.verb == Verb::Rally;
                }
                let e = rej(
                    format!("the character released is {title}"),
                    CAPTIVES_RELEASING,
                );
                self.reject(&d, e);
            },
        };
        match (rally, at_site) {
            (true, Some(l)) => {
                self.st.put(c, Zone::At(l));
                self.st.card_state[c] = CardState::Active;
                let why = if matches!(h, Held::Imprisoned(_)) {
                    "released from a prison, it must Rally"
                } else {
                    "Light chooses Rally"
                };
                let text = format!(
                    "{title} is released and Rallies: it moves to the Light Side of {} and is active ({why})",
                    self.st.locations[l].title
                );
                self.log(
                    super::actor(Side::Light),
                    Event::StateChange,
                    text,
                    &[CAPTIVES_RELEASING, r::ACTIVE],
                );
            }
            _ => self.escape(c, "released"),
        }
        true
    }

    /// An escort leaving the table releases its captive (AR Captives - Releasing).
    /// False: the run needs Light's decision.
    pub(super) fn release_escorted_by(&mut self, e: CardIx) -> bool {
        let captives: Vec<CardIx> = self
            .st
            .cards_on(e)
            .into_iter()
            .filter(|&x| self.held(x) == Some(Held::Escorted(e)))
            .collect();
        for x in captives {
            let text = format!(
                "{} leaves the table: its captive {} is released",
                self.name(e),
                self.name(x)
            );
            self.log(
                Actor::Rules,
                Event::StateChange,
                text,
                &[CAPTIVES_RELEASING],
            );
            if !self.released(x, Held::Escorted(e)) {
                return false;
            }
        }
        true
    }

    /// `imprison` as a prisoner transfer: during Dark's move phase, an escort present
    /// at a prison delivers its captive there (an unlimited move, free).
    pub(super) fn prisoner_transfer(
        &mut self,
        d: &Decision,
        w: super::engine::Window,
    ) -> Result<(), Rejection> {
        if w != super::engine::Window::TopLevel {
            return Err(self.stray_capture_decision(d));
        }
        if d.by != Side::Dark || self.turn != Side::Dark || self.phase != super::model::Phase::Move
        {
            return Err(rej(
                "prisoner transfers happen during the Dark Side's move phase",
                PRISONER_TRANSFERS,
            ));
        }
        let c = self.decision_card(d, r::ACTIONS)?;
        let Some(Held::Escorted(e)) = self.held(c) else {
            return Err(rej(
                format!("{} is not a captive escorted by Dark", self.name(c)),
                PRISONER_TRANSFERS,
            ));
        };
        let l = match self.st.zone[e] {
            Zone::At(l) if self.st.locations[l].geo.prison => l,
            _ => {
                return Err(rej(
                    format!(
                        "{} is not present at a prison: it cannot deliver its captive",
                        self.name(e)
                    ),
                    PRISONER_TRANSFERS,
                )
                .and(PRISONS));
            }
        };
        self.st.put(c, Zone::At(l));
        self.st.card_state[c] = CardState::Inactive;
        let text = format!(
            "{} transfers its captive {} into the prison: {} is imprisoned at {} (an unlimited move, free)",
            self.name(e),
            self.name(c),
            self.name(c),
            self.st.locations[l].title
        );
        self.log(
            super::actor(Side::Dark),
            Event::StateChange,
            text,
            &[PRISONER_TRANSFERS, CAPTIVES_IMPRISONED],
        );
        Ok(())
    }

    /// The effect `capture` on any card: characters as above; a starship is captured
    /// by the card whose text captures it (`holder`).
    pub(super) fn capture_any(&mut self, me: Side, t: CardIx, holder: Option<CardIx>) -> Applied {
        if self.st.def(t).card_type != CardType::Starship {
            return self.capture(me, t);
        }
        if me != Side::Dark || self.st.owner(t) != Side::Light {
            self.log(
                Actor::Rules,
                Event::Result,
                format!(
                    "only the Dark Side captures, and only Light Side cards: {} is not captured",
                    self.name(t)
                ),
                &[CAPTURING],
            );
            return Applied::Done;
        }
        let aboard = self.characters_aboard(t);
        let Some(h) = holder.filter(|_| !aboard.is_empty()) else {
            self.log(
                super::actor(me),
                Event::StateChange,
                format!(
                    "{} is captured with no characters aboard: it is stolen",
                    self.name(t)
                ),
                &[CAPTURING_STARSHIPS],
            );
            self.steal_captured(me, t);
            return Applied::Done;
        };
        let mut all = vec![t];
        all.extend(self.st.cards_on(t));
        for &x in &all {
            self.st.card_state[x] = CardState::Inactive;
        }
        self.st.put(t, Zone::On(h));
        let text = format!(
            "{} is captured with characters aboard: it is placed under {}; it and {} are inactive",
            self.name(t),
            self.name(h),
            self.names(&aboard)
        );
        self.log(
            super::actor(me),
            Event::StateChange,
            text,
            &[CAPTURING_STARSHIPS],
        );
        Applied::Done
    }

    pub(super) fn characters_aboard(&self, s: CardIx) -> Vec<CardIx> {
        self.st
            .cards_on(s)
            .into_iter()
            .filter(|&x| self.st.def(x).card_type == CardType::Character)
            .collect()
    }

    /// A captured starship with no characters aboard is stolen: it goes to the system
    /// it is at, on the captor's side, active.
    pub(super) fn steal_captured(&mut self, me: Side, s: CardIx) {
        let at = self.st.location_of(s);
        self.steal(me, s);
        if let Some(l) = at {
            self.st.put(s, Zone::At(l));
            self.st.card_state[s] = CardState::Active;
            let text = format!(
                "{} is placed at {} as {}'s starship",
                self.name(s),
                self.st.locations[l].title,
                me.name()
            );
            self.log(
                super::actor(me),
                Event::StateChange,
                text,
                &[CAPTURING_STARSHIPS],
            );
        }
    }

    /// A captured starship: a Light Side starship held (inactive) under a Dark card.
    pub(super) fn captured_starship(&self, s: CardIx) -> bool {
        self.st.def(s).card_type == CardType::Starship
            && self.st.owner(s) == Side::Light
            && self.st.card_state[s] == CardState::Inactive
            && matches!(self.st.zone[s], Zone::On(h) if self.st.owner(h) == Side::Dark)
    }

    /// The effect `capture_aboard`: every character aboard each captured starship
    /// matching `f` is captured; a starship left with none is stolen.
    pub(super) fn capture_all_aboard(&mut self, me: Side, f: &Filter) -> Applied {
        let ships: Vec<CardIx> = (0..self.st.cards.len())
            .filter(|&s| self.captured_starship(s) && self.st.matches(s, f, me))
            .collect();
        if ships.is_empty() {
            self.log(
                Actor::Rules,
                Event::Result,
                "there is no captured starship: nobody is captured",
                &[CAPTURING_STARSHIPS],
            );
        }
        for s in ships {
            if let Applied::Stop = self.capture_aboard(me, s) {
                return Applied::Stop;
            }
        }
        Applied::Done
    }

    fn capture_aboard(&mut self, me: Side, s: CardIx) -> Applied {
        for x in self.characters_aboard(s) {
            // Captives aboard a captured starship are inactive characters of Light.
            if let Applied::Stop = self.capture(me, x) {
                return Applied::Stop;
            }
        }
        if self.characters_aboard(s).is_empty() {
            self.log(
                super::actor(me),
                Event::StateChange,
                format!(
                    "{} has no characters aboard any more: it is stolen",
                    self.name(s)
                ),
                &[CAPTURING_STARSHIPS],
            );
            self.steal_captured(me, s);
        }
        Applied::Done
    }

    /// A capture decision with no captured or released character to decide about.
    pub(super) fn stray_capture_decision(&self, d: &Decision) -> Rejection {
        if let Some(c) = d.step.card.as_deref().and_then(|k| self.st.find(k))
            && self.held(c).is_some()
        {
            return rej(
                format!(
                    "{} is a captive: only a card that releases captives (or removing its escort) releases it; controlling the location is not sufficient",
                    self.name(c)
                ),
                CAPTIVES_RELEASING,
            );
        }
        rej(
            format!(
                "there is no captured or released character to {} now",
                d.verb.as_str()
            ),
            CAPTURING_CHARACTERS,
        )
    }
}
