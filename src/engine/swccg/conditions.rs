//! Conditions of an action that look at several cards or at piles (AR Meeting
//! Conditions, Characters - Dual Character Types, Empty Deck Or Pile).

use super::effect_rules::Whose;
use super::identify::IdState;
use super::model::{Effect, Filter, PileName, Side};
use super::state::{CardIx, State};
use super::statics::Static;

pub const EMPTY_DECK: &str = "swccg.ar.empty-deck-or-pile";
pub const CANCELING_TEXT: &str = "swccg.ar.canceling-game-text";
pub const SUBSTITUTED: &str = "swccg.ar.substituted-destinies";
pub const FOR_EACH: &str = "swccg.ar.actions-for-each-for-every";

/// "If <who> has N or more cards in <pile>".
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PileCount {
    pub who: super::model::Who,
    pub pile: PileName,
    pub at_least: usize,
}

/// Every ID this module cites beyond `rules`.
pub const IDS: &[&str] = &[EMPTY_DECK, CANCELING_TEXT, SUBSTITUTED, FOR_EACH];

impl super::engine::Engine {
    /// `requires_none` and `requires_together` (AR Meeting Conditions; a dual-icon
    /// character is checked for each icon, and never counts as two characters).
    pub(super) fn conditions_on_cards(
        &self,
        p: Side,
        c: CardIx,
        ab: &super::model::Ability,
    ) -> Result<(), super::engine::Rejection> {
        use super::rules as r;
        let fail = |reason: String| super::engine::Rejection {
            reason,
            rule: r::MEETING_CONDITIONS,
            not_modelled: None,
            also: vec![super::identify::DUAL_TYPES],
        };
        if self
            .st
            .def(c)
            .identity
            .states
            .contains(&IdState::TextCanceled)
        {
            return Err(super::engine::Rejection {
                reason: format!(
                    "{}'s game text is canceled: no action may be initiated or triggered from it",
                    self.name(c)
                ),
                rule: CANCELING_TEXT,
                not_modelled: None,
                also: vec![super::rules::MEETING_CONDITIONS],
            });
        }
        if let Some(f) = &ab.requires_none
            && let Some(&x) = self.st.table_matching(f, p).first()
        {
            return Err(fail(format!(
                "{}: its condition is not met ({} is on table)",
                self.name(c),
                self.name(x)
            )));
        }
        if !ab.requires_together.is_empty() {
            let found = (0..self.st.locations.len()).any(|l| {
                let here: Vec<CardIx> = (0..self.st.cards.len())
                    .filter(|&x| self.st.active(x) && self.st.location_of(x) == Some(l))
                    .collect();
                distinct(&self.st, &here, &ab.requires_together, p, &mut Vec::new())
            });
            if !found {
                return Err(fail(format!(
                    "{}: its condition is not met (no different cards, one for each requirement, together at one location)",
                    self.name(c)
                )));
            }
        }
        if let Some(pc) = &ab.requires_pile {
            let side = match pc.who {
                super::model::Who::You => p,
                super::model::Who::Opponent => p.other(),
            };
            let n = self.st.pile_len(side, pc.pile);
            if n < pc.at_least {
                return Err(super::engine::Rejection {
                    reason: format!(
                        "{}: its condition is not met ({} has {n} cards in {}, fewer than {})",
                        self.name(c),
                        side.name(),
                        pc.pile.as_str().replace('_', " "),
                        pc.at_least
                    ),
                    rule: super::rules::MEETING_CONDITIONS,
                    not_modelled: None,
                    also: vec![super::rules::INITIATION],
                });
            }
        }
        self.empty_pile_ok(p, c, ab)?;
        self.physical_card_ok(c, ab)
    }

    /// A response that acts on the card just drawn for destiny needs a physical
    /// card: a substituted destiny value has none (AR Substituted Destinies).
    fn physical_card_ok(
        &self,
        c: CardIx,
        ab: &super::model::Ability,
    ) -> Result<(), super::engine::Rejection> {
        use super::model::{CardRef, EventKind};
        use super::stack::ActionKind;
        let on_drawn = ab
            .responds_to
            .as_ref()
            .is_some_and(|t| t.event == EventKind::DestinyDrawn);
        let uses_card = ab.effect.iter().any(|e| {
            matches!(
                e,
                Effect::SendTo {
                    card: CardRef::Current,
                    ..
                } | Effect::StackOn {
                    card: CardRef::Current,
                    ..
                }
            )
        });
        if !on_drawn || !uses_card {
            return Ok(());
        }
        if let Some(ActionKind::DestinyDrawn {
            card: None,
            value: Some(v),
            ..
        }) = self.stack.last().map(|e| &e.kind)
        {
            return Err(super::engine::Rejection {
                reason: format!(
                    "{}: the destiny just drawn is a substituted value ({v}); no card was drawn, so there is no card to act on",
                    self.name(c)
                ),
                rule: SUBSTITUTED,
                not_modelled: None,
                also: vec![super::rules::MEETING_CONDITIONS],
            });
        }
        Ok(())
    }
}

/// Can each filter be matched by a different card among `cards`?
fn distinct(st: &State, cards: &[CardIx], fs: &[Filter], me: Side, used: &mut Vec<CardIx>) -> bool {
    let Some((f, rest)) = fs.split_first() else {
        return true;
    };
    for &x in cards {
        if !used.contains(&x) && st.matches(x, f, me) {
            used.push(x);
            if distinct(st, cards, rest, me, used) {
                return true;
            }
            used.pop();
        }
    }
    false
}

impl super::engine::Engine {
    /// An action that draws, takes, deploys or stacks cards from a deck or pile
    /// may not be initiated while that deck or pile is empty (destiny draws
    /// excepted: they fail instead).
    fn empty_pile_ok(
        &self,
        p: Side,
        c: CardIx,
        ab: &super::model::Ability,
    ) -> Result<(), super::engine::Rejection> {
        for e in &ab.effect {
            let Some((pile, what, whose)) = e.pile_taken() else {
                continue;
            };
            if matches!(pile, PileName::Hand | PileName::OutOfPlay) {
                continue;
            }
            let players = match whose {
                Whose::Each => vec![p, p.other()],
                Whose::One(w) => vec![super::effects::side_of(w, p)],
            };
            if let Some(s) = players
                .into_iter()
                .find(|&s| self.st.pile_len(s, pile) == 0)
            {
                return Err(super::engine::Rejection {
                    reason: format!(
                        "{} {what} {}'s {}, which is empty",
                        self.name(c),
                        s.name(),
                        pile.as_str().replace('_', " ")
                    ),
                    rule: EMPTY_DECK,
                    not_modelled: None,
                    also: vec![super::rules::MEETING_CONDITIONS],
                });
            }
        }
        Ok(())
    }
}

impl super::engine::Engine {
    /// A triggered automatic action whose card's game text has since been canceled is
    /// not initiated (AR Canceling Game Text: competing automatic actions).
    pub(super) fn automatic_text_canceled(&mut self, c: CardIx) -> bool {
        if !self
            .st
            .def(c)
            .identity
            .states
            .contains(&IdState::TextCanceled)
        {
            return false;
        }
        self.log(
            crate::engine::Actor::Rules,
            crate::engine::Event::StateChange,
            format!(
                "{}'s game text was canceled first: its automatic action cannot be initiated",
                self.name(c)
            ),
            &[CANCELING_TEXT, super::rules::AUTOMATIC_ACTIONS],
        );
        true
    }

    /// Cancel a card's game text (AR Canceling Game Text): it stays on table,
    /// neither lost nor suspended; its title, statistics and icons are unaffected.
    pub(super) fn cancel_text(&mut self, c: CardIx) {
        let states = &mut self.st.cards[c].def.identity.states;
        if !states.contains(&IdState::TextCanceled) {
            states.push(IdState::TextCanceled);
        }
        self.log(
            crate::engine::Actor::Rules,
            crate::engine::Event::StateChange,
            format!(
                "{}'s game text is canceled: it stays on table, and no action may be initiated or triggered from its game text",
                self.name(c)
            ),
            &[CANCELING_TEXT],
        );
    }
}

impl super::engine::Engine {
    /// Retrieve 1 Force for each qualifying location: one action for the full
    /// amount; with none qualifying, an unmodifiable zero (AR Actions - For Each).
    pub(super) fn retrieve_for_each(
        &mut self,
        me: Side,
        who: super::model::Who,
        per: &super::activation::LocFilter,
    ) {
        let p = match who {
            super::model::Who::You => me,
            super::model::Who::Opponent => me.other(),
        };
        let at: Vec<String> = (0..self.st.locations.len())
            .filter(|&l| self.loc_matches(l, per, me, true))
            .map(|l| self.st.locations[l].title.clone())
            .collect();
        let n = match at.len() as u32 {
            0 => 0,
            n => match self.retrieval_amount(p, n) {
                Some(n) => n,
                None => return,
            },
        };
        let why = if at.is_empty() {
            "no location qualifies: the amount is an unmodifiable zero".to_string()
        } else {
            format!("{n} qualifying: {}", at.join(", "))
        };
        let got = self
            .st
            .move_top(p, PileName::LostPile, PileName::UsedPile, n);
        self.st.force[p.ix()].retrieved += i64::from(got);
        self.log(
            crate::engine::Actor::Player(super::seat(p)),
            crate::engine::Event::StateChange,
            format!(
                "{} retrieves {got} Force in one action, 1 for each location ({why})",
                p.name()
            ),
            &[FOR_EACH, super::rules::RETRIEVE],
        );
    }
}

impl super::engine::Engine {
    /// The Force `p` retrieves of the `x` it is about to: reduced by the opponent's
    /// cards, then taxed by them; `None` when the retrieval is canceled.
    pub(super) fn retrieval_amount(&mut self, p: Side, x: u32) -> Option<u32> {
        let x = self.retrieval_reduced(p, x);
        (x == 0 || self.retrieval_paid(p, x)).then_some(x)
    }

    /// "Opponent's Force retrieval is reduced by X, where X = number of cards here":
    /// each active card of the other side with this text reduces `x`.
    pub(super) fn retrieval_reduced(&mut self, p: Side, mut x: u32) -> u32 {
        for t in 0..self.st.cards.len() {
            if !self.st.active(t)
                || self.st.owner(t) != p.other()
                || !self
                    .st
                    .def(t)
                    .has_static(|s| matches!(s, Static::ReducesRetrievalByStacked))
            {
                continue;
            }
            let n = self.st.cards_on(t).len() as u32;
            if n == 0 {
                continue;
            }
            x = x.saturating_sub(n);
            self.log(
                crate::engine::Actor::Rules,
                crate::engine::Event::StateChange,
                format!(
                    "{}: {}'s Force retrieval is reduced by {n} (the cards here), to {x}",
                    self.name(t),
                    p.name()
                ),
                &[super::rules::RETRIEVE],
            );
        }
        x
    }

    /// "Whenever opponent retrieves X cards, opponent must first use X Force or that
    /// retrieval is canceled": for each active card of the other side with this text,
    /// `p`, about to retrieve `x` Force, first uses `x` Force (the full amount, whatever
    /// its Lost Pile holds), or declines (its next scripted decision a `pass`) or cannot
    /// pay, and the retrieval is canceled. Whether the retrieval goes ahead.
    pub(super) fn retrieval_paid(&mut self, p: Side, x: u32) -> bool {
        use crate::engine::{Actor, Event};
        let taxes: Vec<CardIx> = (0..self.st.cards.len())
            .filter(|&t| {
                self.st.active(t)
                    && self.st.owner(t) == p.other()
                    && self
                        .st
                        .def(t)
                        .has_static(|s| matches!(s, Static::RetrievalTax))
            })
            .collect();
        let who = Actor::Player(super::seat(p));
        for t in taxes {
            let name = self.name(t);
            let have = self.st.pile_len(p, PileName::ForcePile);
            let declined = self.take_next_of(p, super::model::Verb::Pass).is_some();
            if declined || have < x as usize {
                let why = if declined {
                    format!("{} declines to use {x} Force", p.name())
                } else {
                    format!("{} has {have} Force in Force Pile, not {x}", p.name())
                };
                self.log(
                    who,
                    Event::StateChange,
                    format!("{name}: {why}, so the retrieval of {x} Force is canceled"),
                    &[super::rules::RETRIEVE],
                );
                return false;
            }
            let used = self
                .st
                .move_top(p, PileName::ForcePile, PileName::UsedPile, x);
            self.st.force[p.ix()].used += i64::from(used);
            let lost = self.st.pile_len(p, PileName::LostPile);
            self.log(
                who,
                Event::StateChange,
                format!(
                    "{name}: {} first uses {x} Force to retrieve {x} Force (X is the amount retrieved, whatever the Lost Pile holds: {lost} there)",
                    p.name()
                ),
                &[super::rules::RETRIEVE],
            );
        }
        true
    }

    /// Whether an active card matching `by` is at location `l` and gives its side
    /// presence there ("a location occupied by Xizor or Emperor").
    pub(super) fn occupied_by(&self, l: usize, by: &Filter, me: Side) -> bool {
        self.st
            .table_matching(by, me)
            .into_iter()
            .any(|c| self.st.location_of(c) == Some(l) && self.has_presence(self.st.owner(c), l))
    }

    /// `who` loses 1 Force for each qualifying location: one Force loss for the full
    /// amount; with none qualifying, an unmodifiable zero, and the action still
    /// resolves (AR Actions - For Each, an exception to the Implied Target rule).
    pub(super) fn lose_for_each(
        &mut self,
        me: Side,
        who: super::model::Who,
        per: &super::activation::LocFilter,
    ) -> super::effects::Applied {
        let p = match who {
            super::model::Who::You => me,
            super::model::Who::Opponent => me.other(),
        };
        let at: Vec<String> = (0..self.st.locations.len())
            .filter(|&l| self.loc_matches(l, per, me, true))
            .map(|l| self.st.locations[l].title.clone())
            .collect();
        if at.is_empty() {
            self.log(
                crate::engine::Actor::Rules,
                crate::engine::Event::StateChange,
                format!(
                    "no location qualifies: {}'s Force loss is an unmodifiable zero",
                    p.name()
                ),
                &[FOR_EACH, super::rules::IMPLIED_TARGET_RULE],
            );
            return super::effects::Applied::Done;
        }
        let n = at.len() as i64;
        let lost = self.lose_force(p, n);
        self.log(
            crate::engine::Actor::Player(super::seat(p)),
            crate::engine::Event::StateChange,
            format!(
                "{} loses {lost} Force in one Force loss, 1 for each location ({n} qualifying: {})",
                p.name(),
                at.join(", ")
            ),
            &[FOR_EACH, super::rules::LOSING_FORCE],
        );
        super::effects::Applied::Done
    }
}
