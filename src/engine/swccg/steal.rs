//! Stealing (AR Appendix C Stealing): taking an opponent's card as your own, only
//! where a card allows it. Starships and vehicles with the opponent's characters
//! aboard may not be stolen; a stolen starship's permanent pilot is no longer its
//! unique persona. Only character weapons, and devices that deploy on characters,
//! may be stolen.

use super::effects::Applied;
use super::engine::{Engine, rej};
use super::model::{CardType, Filter, PileName, Side};
use super::state::{CardIx, Zone};
use crate::engine::{Actor, Event};
use serde::Deserialize;

pub const STEALING: &str = "swccg.ar.stealing";
pub const STEALING_VEHICLES: &str = "swccg.ar.stealing-vehicles-and-starships";
pub const STEALING_WEAPONS: &str = "swccg.ar.stealing-weapons-and-devices";

/// Every section the stealing rules cite.
pub const IDS: &[&str] = &[STEALING, STEALING_VEHICLES, STEALING_WEAPONS];

/// "Steal a weapon from opponent's Lost Pile": which pile, what kind of card, and
/// where the stolen card goes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StealFrom {
    pub from: PileName,
    #[serde(default)]
    pub filter: Filter,
    pub to: PileName,
}

impl Engine {
    /// Why `c` may not be stolen by its opponent (None: it may).
    pub(super) fn steal_refusal(&self, c: CardIx) -> Option<(String, &'static str)> {
        let st = &self.st;
        let d = st.def(c);
        let title = &d.title;
        match d.card_type {
            CardType::Starship | CardType::Vehicle => st
                .cards_on(c)
                .into_iter()
                .find(|&x| st.def(x).card_type == CardType::Character && st.owner(x) == st.owner(c))
                .map(|x| {
                    (
                        format!(
                            "{title} may not be stolen: {} (a character) is aboard",
                            st.title(x)
                        ),
                        STEALING_VEHICLES,
                    )
                }),
            CardType::Weapon if d.subtype.as_deref() != Some("character") => Some((
                format!("{title} is not a character weapon: only character weapons may be stolen"),
                STEALING_WEAPONS,
            )),
            CardType::Device
                if !d.deploy_rules.on.as_ref().is_some_and(|f| {
                    f.card_type
                        .as_ref()
                        .is_some_and(|t| t.contains(&CardType::Character))
                }) =>
            {
                Some((
                    format!(
                        "{title} does not deploy on characters: only such devices may be stolen"
                    ),
                    STEALING_WEAPONS,
                ))
            }
            CardType::Weapon | CardType::Device => None,
            _ => Some((
                format!("{title} is not a starship, vehicle, weapon or device"),
                STEALING,
            )),
        }
    }

    /// The effect `steal`: the card (and its cargo) becomes `me`'s.
    pub(super) fn steal(&mut self, me: Side, c: CardIx) {
        if self.st.owner(c) == me {
            return;
        }
        if let Some((why, rule)) = self.steal_refusal(c) {
            self.log(Actor::Rules, Event::Result, why, &[rule]);
            return;
        }
        let mut all = vec![c];
        let mut i = 0;
        while i < all.len() {
            all.extend(self.st.cards_on(all[i]));
            i += 1;
        }
        for &x in &all {
            self.st.cards[x].def.side = me;
        }
        let gone = std::mem::take(&mut self.st.cards[c].def.pilot_personas);
        self.st.cards[c]
            .def
            .personas
            .retain(|p| !gone.iter().any(|g| g.eq_ignore_ascii_case(p)));
        let pilot = if gone.is_empty() {
            if self.st.def(c).stats.permanent_pilot.is_some() {
                format!(
                    "; its permanent pilot is now a {} permanent pilot with the same ability",
                    me.name()
                )
            } else {
                String::new()
            }
        } else {
            format!(
                "; its permanent pilot is now a generic {} permanent pilot with the same ability, no longer {}",
                me.name(),
                gone.join(", ")
            )
        };
        let text = format!(
            "{} steals {}: it is now {}'s card{pilot}",
            me.name(),
            self.name(c),
            me.name()
        );
        self.log(
            super::actor(me),
            Event::StateChange,
            text,
            &[STEALING, STEALING_VEHICLES],
        );
    }

    /// The effect `steal_from`: `me` chooses a card of the opponent's pile; a card
    /// that may not be stolen is refused where the choice stands.
    pub(super) fn steal_from(&mut self, me: Side, s: &StealFrom) -> Applied {
        let opp = me.other();
        let pile: Vec<CardIx> = self
            .st
            .pile(opp, s.from)
            .iter()
            .copied()
            .filter(|&c| self.st.matches(c, &s.filter, me))
            .collect();
        let ok: Vec<CardIx> = pile
            .iter()
            .copied()
            .filter(|&c| self.steal_refusal(c).is_none())
            .collect();
        if ok.is_empty() {
            self.log(
                super::actor(me),
                Event::Result,
                format!(
                    "{}'s {} holds no card that may be stolen",
                    opp.name(),
                    s.from.title()
                ),
                &[STEALING_WEAPONS],
            );
            return Applied::Done;
        }
        let (chosen, _) = match self.choose_cards(
            me,
            &ok,
            1,
            |e| {
                format!(
                    "choose a card to steal from {}'s {}: one of {}",
                    opp.name(),
                    s.from.title(),
                    e.keys(&ok)
                )
            },
            |e, named| match named {
                [c] if pile.contains(c) => {
                    let (why, rule) = e
                        .steal_refusal(*c)
                        .unwrap_or_else(|| ("it may not be stolen".into(), STEALING));
                    rej(why, rule)
                }
                _ => rej(
                    format!(
                        "the card chosen is not in {}'s {}",
                        opp.name(),
                        s.from.title()
                    ),
                    STEALING,
                ),
            },
        ) {
            Some(x) => x,
            None => return Applied::Stop,
        };
        let c = chosen[0];
        self.st.cards[c].def.side = me;
        self.st.to_pile(c, me, s.to);
        let text = format!(
            "{} steals {} from {}'s {} into {}'s {}",
            me.name(),
            self.name(c),
            opp.name(),
            s.from.title(),
            me.name(),
            s.to.title()
        );
        self.log(super::actor(me), Event::StateChange, text, &[STEALING]);
        Applied::Done
    }

    /// Boarding an opponent's empty starship or vehicle does not steal it.
    pub(super) fn boarding_refusal(&self, c: CardIx, to: &str) -> Option<super::engine::Rejection> {
        let s = self.st.find(to)?;
        let craft = matches!(
            self.st.def(s).card_type,
            CardType::Starship | CardType::Vehicle
        );
        (craft && self.st.owner(s) != self.st.owner(c) && matches!(self.st.zone[s], Zone::At(_)))
            .then(|| {
                rej(
                    format!(
                        "{} is {}'s: a card is stolen only where a card or rule allows it, never by boarding it",
                        self.st.title(s),
                        self.st.owner(s).name()
                    ),
                    STEALING,
                )
            })
    }
}
