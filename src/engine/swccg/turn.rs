//! The turn around its six phases (AR Ch.2 Order Of Events In A Turn, Ch.3 Start Of
//! Turn, Ch.8 Draw Phase and End Of Turn): start of turn and end of turn actions (the
//! mandatory ones first, as automatic actions; then optional ones, the player whose
//! turn it is first; nothing else may be initiated), re-circulating the Used Piles
//! after the draw phase, and conditions on where cards are.

use serde::Deserialize;

use super::activation::LocFilter;
use super::engine::{Engine, Rejection, rej};
use super::model::{Ability, AbilityKind, Filter, Phase, PileName, Side};
use super::rules as r;
use super::stack::{ActionKind, Entry};
use super::state::{CardIx, Zone};
use crate::engine::{Actor, Event};

/// A condition on a card's whereabouts: a card matching `card` is present at a
/// location matching `at` (or, with `out_of_play`, is out of play; with `captured`,
/// is a captive, escorted or imprisoned).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Where {
    pub card: Filter,
    #[serde(default)]
    pub at: Option<LocFilter>,
    #[serde(default)]
    pub out_of_play: bool,
    #[serde(default)]
    pub captured: bool,
    /// The card participates in the battle under way ("if Vader in battle").
    #[serde(default)]
    pub in_battle: bool,
    /// The card is alone at its location (AR Alone/Lone; "in battle alone").
    #[serde(default)]
    pub alone: bool,
}

/// Start of turn and end of turn are the frames around the phases.
pub(super) fn is_turn_frame(p: Phase) -> bool {
    matches!(p, Phase::StartOfTurn | Phase::EndOfTurn)
}

fn frame_rule(p: Phase) -> &'static str {
    if p == Phase::StartOfTurn {
        r::START_OF_TURN
    } else {
        r::END_OF_TURN
    }
}

impl Engine {
    /// Does `w` hold, seen from `me`?
    fn where_holds(&self, w: &Where, me: Side) -> bool {
        (0..self.st.cards.len()).any(|c| {
            if !self.st.matches(c, &w.card, me) {
                return false;
            }
            if w.out_of_play {
                return matches!(self.st.zone[c], Zone::Pile(_, PileName::OutOfPlay));
            }
            if w.captured {
                return self.held(c).is_some();
            }
            if w.alone && !super::text_when::alone(&self.st, c) {
                return false;
            }
            if w.in_battle {
                return self.participates_in_battle(c).is_ok();
            }
            // Present: active, at the location itself (not aboard another card).
            let Zone::At(l) = self.st.zone[c] else {
                return false;
            };
            self.st.active(c)
                && w.at
                    .as_ref()
                    .is_none_or(|f| self.loc_matches(l, f, me, true))
        })
    }

    /// The `when` / `unless` conditions of an ability (AR Meeting Conditions).
    pub(super) fn where_conditions(
        &self,
        p: Side,
        c: CardIx,
        ab: &Ability,
    ) -> Result<(), Rejection> {
        self.starting_location_ok(p, c, ab)?;
        // Deploying from a deck or pile obeys the deployed card's normal timing: your
        // own deploy phase (AR Deploying/Playing From A Deck Or Pile: "from a place
        // other than your hand"; a card that lets you deploy from hand sets its own
        // timing). Text that names the moment it is used ("if opponent just deployed
        // a planet site, deploy the related system from your Reserve Deck") is told
        // otherwise: its trigger is its timing.
        let deploys = ab.effect.iter().any(|e| {
            matches!(e, super::model::Effect::DeployFrom { from, .. } if *from != super::model::PileName::Hand)
        });
        if deploys
            && ab.responds_to.is_none()
            && self.phase != Phase::StartOfGame
            && (self.turn != p || self.phase != Phase::Deploy)
        {
            return Err(rej(
                format!(
                    "{}: a card deployed from a deck or pile obeys its normal timing: only during {}'s own deploy phase",
                    self.name(c),
                    p.name()
                ),
                r::DEPLOYING_FROM_PILE,
            ));
        }
        if ab.when.iter().any(|w| !self.where_holds(w, p)) {
            return Err(rej(
                format!(
                    "{}: its condition is not met (no card where its text says)",
                    self.name(c)
                ),
                r::MEETING_CONDITIONS,
            ));
        }
        if ab.unless.iter().any(|w| self.where_holds(w, p)) {
            return Err(rej(
                format!("{}: its \"unless\" condition holds", self.name(c)),
                r::MEETING_CONDITIONS,
            ));
        }
        Ok(())
    }

    /// At start of turn and end of turn only start (end) of turn actions may be initiated.
    pub(super) fn frame_allows(&self, c: CardIx, ab: &Ability) -> Result<(), Rejection> {
        if is_turn_frame(self.phase) && ab.during != Some(self.phase) {
            return Err(rej(
                format!(
                    "only {} actions (or responses) may be initiated now; {}'s action is not one",
                    self.phase.as_str(),
                    self.name(c)
                ),
                frame_rule(self.phase),
            ));
        }
        Ok(())
    }

    /// A start of turn or end of turn begins: its mandatory actions are initiated
    /// and resolve as automatic actions, in the order the player whose turn it is
    /// chooses when they compete. Then optional actions, that player first.
    pub(super) fn begin_turn_frame(&mut self) {
        if !is_turn_frame(self.phase) {
            return;
        }
        let rule = frame_rule(self.phase);
        let mut due = Vec::new();
        let mut idle = Vec::new();
        for c in 0..self.st.cards.len() {
            if !self.st.on_table(c) {
                continue;
            }
            let owner = self.st.owner(c);
            for (a, ab) in self.st.def(c).abilities.iter().enumerate() {
                if ab.kind != AbilityKind::Mandatory || ab.during != Some(self.phase) {
                    continue;
                }
                // An inactive card does nothing, except an action already scheduled.
                if !self.st.active(c) && !ab.scheduled {
                    continue;
                }
                match self.conditions_hold(owner, c, ab) {
                    Ok(()) => due.push((c, a)),
                    Err(e) => idle.push(e),
                }
            }
        }
        for e in idle {
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!("not initiated: {}", e.reason),
                &[rule, e.rule],
            );
        }
        let sources: Vec<CardIx> = due.iter().map(|x| x.0).collect();
        if due.len() > 1 {
            match self.take_order(self.turn, &sources) {
                Some(order) => due.sort_by_key(|x| order.iter().position(|&c| c == x.0)),
                None => return,
            }
        }
        // Pushed so that the first in order resolves first.
        for &(c, a) in due.iter().rev() {
            let owner = self.st.owner(c);
            let text = self.ability_text(c, a);
            self.log(
                Actor::Rules,
                Event::Push,
                format!(
                    "{}: {}'s mandatory {} action is initiated and resolves as an automatic action ({text})",
                    self.phase.as_str(),
                    self.name(c),
                    self.phase.as_str()
                ),
                &[rule, r::MANDATORY_ACTIONS],
            );
            let mut e = Entry::new(
                ActionKind::Mandatory,
                owner,
                Some(c),
                self.st.key(c).to_string(),
            );
            e.ability = Some(a);
            self.mandatory_done.push((c, a));
            self.stack.push(e);
        }
    }

    /// The draw phase is over: both players re-circulate their Used Piles under their
    /// Reserve Decks; then the end of turn begins (still the same player's turn).
    pub(super) fn recirculate_all(&mut self) {
        for s in [self.turn, self.turn.other()] {
            let n = self.st.recirculate(s);
            self.log(
                super::actor(s),
                Event::StateChange,
                format!(
                    "{} re-circulates: {n} card(s) of the Used Pile go under the Reserve Deck",
                    s.name()
                ),
                &[r::DRAW_PHASE, r::END_OF_TURN],
            );
        }
    }

    /// The end of turn is over: the next player's turn begins at once.
    pub(super) fn note_turn_over(&mut self) {
        self.log(
            Actor::Rules,
            Event::Phase,
            format!(
                "{}'s turn ends; {}'s turn begins immediately with their start of turn",
                self.turn.name(),
                self.turn.other().name()
            ),
            &[r::END_OF_TURN, r::START_OF_TURN],
        );
    }
}
