//! Starting the game (AR Ch.2): cards deployed at the start of the game deploy for
//! free but obey every deployment condition and restriction; no Force is activated,
//! used or lost; starting locations are revealed together and resolved (different
//! locations both deploy; the same location is converted by agreement, the Dark Side
//! player asked first, or both are set aside and chosen again); then both players
//! draw their starting hands (8 cards unless a card says otherwise).

use super::statics::{Static, pick};
use serde::Deserialize;

use super::activation::LocFilter;
use super::engine::{Decision, Engine, Rejection, rej};
use super::model::{Phase, PileName, Side, Verb};
use super::rules as r;
use super::state::{CardIx, Zone};
use crate::engine::{Actor, Event};

/// A deployment condition on locations occupied: "deploy only if you occupy two
/// Tatooine sites".
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Occupy {
    pub count: usize,
    #[serde(default)]
    pub at: LocFilter,
}

/// What the start of the game keeps track of.
#[derive(Debug, Clone, Default)]
pub struct StartState {
    /// Each side's revealed starting location, not yet resolved.
    pub revealed: [Option<CardIx>; 2],
    /// Both revealed the same location: who has declined conversion so far.
    pub declined: [bool; 2],
    /// Starting locations set aside, returned to their Reserve Deck at the end.
    pub set_aside: Vec<CardIx>,
    /// Cards each player draws for their starting hand (default 8).
    pub draw: [Option<u32>; 2],
    /// Each side's starting location once deployed (converted or not).
    pub location: [Option<CardIx>; 2],
    /// Locations each side deployed at the start of the game (converted or not).
    pub deployed: [Vec<CardIx>; 2],
}

impl Engine {
    /// No Force is activated, used or lost during the start of the game: that part
    /// of any action is ignored (and said so).
    pub(super) fn no_force_now(&mut self, p: Side, what: &str) -> bool {
        if self.phase != Phase::StartOfGame {
            return false;
        }
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{} does not {what} Force: no Force is activated, used or lost during the start of the game",
                p.name()
            ),
            &[r::STARTING_THE_GAME_GENERAL],
        );
        true
    }

    /// Deployment conditions of the card (AR Conditions Versus Costs): they hold
    /// even where the card deploys for free.
    pub(super) fn deploy_conditions(&self, p: Side, c: CardIx) -> Result<(), Rejection> {
        self.objective_restrictions(p, c)?;
        let Some(o) = &self.st.def(c).deploy_rules.occupy else {
            return Ok(());
        };
        let n = (0..self.st.locations.len())
            .filter(|&l| self.has_presence(p, l) && self.loc_matches(l, &o.at, p, true))
            .count();
        if n < o.count {
            let mut e = rej(
                format!(
                    "{} has a deployment condition: occupy {} such locations; {} occupies {n}",
                    self.name(c),
                    o.count,
                    p.name()
                ),
                r::CONDITIONS_VERSUS_COSTS,
            )
            .and(r::OCCUPY);
            if self.phase == Phase::StartOfGame {
                e = e.and(r::STARTING_THE_GAME_GENERAL);
            }
            return Err(e);
        }
        Ok(())
    }

    /// "If your starting location was a system": the condition holds for the location
    /// deployed, even if it was converted since (AR Starting The Game - Example 4).
    pub(super) fn starting_location_ok(
        &self,
        p: Side,
        c: CardIx,
        ab: &super::model::Ability,
    ) -> Result<(), Rejection> {
        if let Some(f) = &ab.deployed_location
            && !self.start.deployed[p.ix()]
                .iter()
                .any(|&l| self.st.matches(l, f, p))
        {
            return Err(rej(
                format!(
                    "{}: {} has deployed no such location",
                    self.name(c),
                    p.name()
                ),
                r::MEETING_CONDITIONS,
            )
            .and(r::STARTING_THE_GAME_EXAMPLE_1));
        }
        let Some(f) = &ab.starting_location else {
            return Ok(());
        };
        match self.start.location[p.ix()] {
            Some(l) if self.st.matches(l, f, p) => Ok(()),
            _ => Err(rej(
                format!(
                    "{}: its condition on {}'s starting location is not met",
                    self.name(c),
                    p.name()
                ),
                r::MEETING_CONDITIONS,
            )
            .and(r::STARTING_LOCATION)),
        }
    }

    /// Objective deployment restrictions: restricted to an objective (`only_with`) or by
    /// one (`prohibits_deploy` of a card on table). Ignoring location deployment
    /// restrictions does not lift them.
    fn objective_restrictions(&self, p: Side, c: CardIx) -> Result<(), Rejection> {
        let title = self.name(c);
        if let Some(f) = &self.st.def(c).deploy_rules.only_with
            && self.st.table_matching(f, p).is_empty()
        {
            return Err(rej(
                format!("{title} deploys only while the card its text names is on table"),
                r::OBJECTIVE_DEPLOYMENT_RESTRICTIONS,
            ));
        }
        let by = (0..self.st.cards.len()).find(|&x| {
            self.st.active(x)
                && self
                    .st
                    .def(x)
                    .static_list(pick!(Static::ProhibitsDeploy))
                    .iter()
                    .any(|f| self.st.matches(c, f, self.st.owner(x)))
        });
        if let Some(x) = by {
            return Err(rej(
                format!("{title} may not deploy while {} is on table", self.name(x)),
                r::OBJECTIVE_DEPLOYMENT_RESTRICTIONS,
            ));
        }
        self.for_game_restriction(p, c)?;
        Ok(())
    }

    /// "Draw N more cards instead of eight."
    pub(super) fn set_starting_hand(&mut self, p: Side, n: u32) {
        self.start.draw[p.ix()] = Some(n);
        self.log(
            super::actor(p),
            Event::StateChange,
            format!(
                "{} will draw {n} cards for the starting hand instead of 8",
                p.name()
            ),
            &[r::STARTING_HAND],
        );
    }

    /// `reveal`, `allow_conversion`, `decline_conversion` (AR Step A.2).
    pub(super) fn starting_location(&mut self, d: &Decision) -> Result<(), Rejection> {
        let p = d.by;
        if self.phase != Phase::StartOfGame {
            return Err(rej(
                "starting locations are revealed only at the start of the game",
                r::STEP_A,
            ));
        }
        let (mine, theirs) = (
            self.start.revealed[p.ix()],
            self.start.revealed[p.other().ix()],
        );
        let same = matches!((mine, theirs), (Some(a), Some(b)) if self.st.title(a).eq_ignore_ascii_case(self.st.title(b)));
        match d.verb {
            Verb::Reveal => {
                if mine.is_some() {
                    return Err(rej(
                        format!("{} has already revealed a starting location", p.name()),
                        r::STEP_A,
                    ));
                }
                let key = d.step.card.as_deref().unwrap_or("");
                let c = self
                    .st
                    .find(key)
                    .filter(|&c| self.st.zone[c] == Zone::Pile(p, PileName::ReserveDeck))
                    .ok_or_else(|| {
                        rej(
                            format!("{key} is not in {}'s Reserve Deck", p.name()),
                            r::STEP_A,
                        )
                    })?;
                if !matches!(
                    self.st.def(c).card_type,
                    super::model::CardType::Location | super::model::CardType::Objective
                ) {
                    return Err(rej(
                        format!("{} is not a location or an Objective", self.name(c)),
                        r::STEP_A,
                    ));
                }
                self.start.revealed[p.ix()] = Some(c);
                // Revealed: out of the Reserve Deck until it is deployed or set aside.
                self.st.put(c, Zone::Stack);
                self.log(
                    super::actor(p),
                    Event::StateChange,
                    format!(
                        "{} reveals {} as {}",
                        p.name(),
                        self.name(c),
                        if self.st.def(c).card_type == super::model::CardType::Objective {
                            "Objective"
                        } else {
                            "starting location"
                        }
                    ),
                    &[r::STEP_A, r::STARTING_LOCATION],
                );
                if let Some(t) = theirs {
                    self.both_revealed(c, t, p);
                }
                Ok(())
            }
            _ if !same => Err(rej(
                "there is no same starting location to convert",
                r::STEP_A,
            )),
            _ => {
                let dark_first = Side::Dark;
                if p != dark_first && !self.start.declined[dark_first.ix()] {
                    return Err(rej(
                        "the Dark Side player is given the choice of conversion first",
                        r::STEP_A,
                    ));
                }
                if d.verb == Verb::DeclineConversion {
                    self.start.declined[p.ix()] = true;
                    self.log(
                        super::actor(p),
                        Event::StateChange,
                        format!("{} declines to have his location converted", p.name()),
                        &[r::STEP_A],
                    );
                    if self.start.declined == [true, true] {
                        self.set_aside_both();
                    }
                    return Ok(());
                }
                let (a, b) = (mine.unwrap_or_default(), theirs.unwrap_or_default());
                self.deploy_starting(a, None);
                self.deploy_starting(b, Some(a));
                self.start.revealed = [None, None];
                Ok(())
            }
        }
    }

    /// Both revealed: different locations deploy simultaneously; the same one waits
    /// for the conversion choices.
    fn both_revealed(&mut self, a: CardIx, b: CardIx, _p: Side) {
        let objective = |c: CardIx| self.st.def(c).card_type == super::model::CardType::Objective;
        if objective(a) || objective(b) {
            self.resolve_objectives(a, b);
            return;
        }
        if self.st.title(a).eq_ignore_ascii_case(self.st.title(b)) {
            self.start.declined = [false, false];
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!(
                    "both players chose {}: the Dark Side player may allow his to be converted; if he declines, the Light Side player may",
                    self.name(a)
                ),
                &[r::STEP_A],
            );
            return;
        }
        let (d, l) = if self.st.owner(a) == Side::Dark {
            (a, b)
        } else {
            (b, a)
        };
        self.deploy_starting(d, None);
        self.deploy_starting(l, None);
        self.start.revealed = [None, None];
    }

    /// Location `c` is deployed on top of the opponent's copy `x`, converting it; the
    /// trace's words for it.
    pub(super) fn convert_copy(&mut self, c: CardIx, x: CardIx) -> String {
        self.st.put(c, Zone::On(x));
        format!(
            "{}'s {} is deployed on top of {}'s copy: it converts it (the one on top is the one on table)",
            self.st.owner(c).name(),
            self.name(c),
            self.st.owner(x).name()
        )
    }

    /// A starting location goes on table; `on`: it converts that copy (placed on top).
    fn deploy_starting(&mut self, c: CardIx, on: Option<CardIx>) {
        let p = self.st.owner(c);
        self.start.location[p.ix()] = Some(c);
        self.start.deployed[p.ix()].push(c);
        let text = match on {
            Some(x) => self.convert_copy(c, x),
            None => {
                self.st.put(c, Zone::Table);
                format!(
                    "{}'s starting location {} is deployed (for free)",
                    p.name(),
                    self.name(c)
                )
            }
        };
        self.log(super::actor(p), Event::StateChange, text, &[r::STEP_A]);
    }

    /// Both declined: each sets his choice aside and selects a new one.
    fn set_aside_both(&mut self) {
        for x in self.start.revealed.iter_mut().filter_map(Option::take) {
            self.start.set_aside.push(x);
        }
        self.log(
            Actor::Rules,
            Event::StateChange,
            "both declined: each player sets his choice aside and selects a new one (the failed choices go back into the Reserve Decks)",
            &[r::STEP_A],
        );
    }

    /// The start of the game ends: failed choices go back into the Reserve Decks, and
    /// both players draw their starting hands simultaneously.
    pub(super) fn finish_start_of_game(&mut self) {
        for c in std::mem::take(&mut self.start.set_aside) {
            let p = self.st.owner(c);
            self.st.to_pile(c, p, PileName::ReserveDeck);
            self.st.bottom(c, p, PileName::ReserveDeck);
            self.log(
                super::actor(p),
                Event::StateChange,
                format!(
                    "{} (a failed choice) is reshuffled back into {}'s Reserve Deck (shuffles keep the listed order: it goes to the bottom)",
                    self.name(c),
                    p.name()
                ),
                &[r::STEP_A],
            );
        }
        for p in [Side::Dark, Side::Light] {
            let n = self.start.draw[p.ix()].unwrap_or(8);
            let drawn = self
                .st
                .move_top(p, PileName::ReserveDeck, PileName::Hand, n);
            let hand = self.st.pile_len(p, PileName::Hand);
            self.log(
                super::actor(p),
                Event::StateChange,
                format!(
                    "{} draws {drawn} card(s) for the starting hand: {hand} card(s) in the starting hand",
                    p.name()
                ),
                &[r::STEP_B, r::STARTING_HAND],
            );
        }
    }
}
