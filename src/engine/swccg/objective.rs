//! Objectives (AR Double-Sided Cards - Objectives, Starting The Game Step A.2,
//! Starting Interrupts And Objectives - Mandatory Actions). An Objective is revealed
//! instead of a starting location. A revealed starting location deploys first; then
//! each Objective deploys (the player who goes first before his opponent) and carries
//! out its italic "Deploy …" text in order, for free but obeying deployment
//! conditions. That text is carried out before anything else on the Objective
//! applies ("while this side up" restrictions start once the deployment is
//! complete). A location it deploys that is already on table converts that copy.
//! If a mandatory part cannot be carried out, the Objective is placed out of play
//! and whatever it deployed goes back into the Reserve Deck: that player has no
//! starting location and no Objective.

use super::statics::{Static, pick};
use serde::Deserialize;

use super::engine::{Engine, rej};
use super::model::{CardState, CardType, Filter, PileName, Side, Verb};
use super::rules as r;
use super::state::{CardIx, Zone};
use crate::engine::{Actor, Event};

/// The 0 side's italic text: what the Objective deploys (or reveals) at the start
/// of the game, in order.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveDef {
    #[serde(default)]
    pub deploy: Vec<ObjDeploy>,
    /// "For remainder of game, you may not deploy …": restrictions that start once it
    /// is deployed and last for the rest of the game, whatever happens to it (flipped,
    /// placed out of play).
    #[serde(default)]
    pub remainder_of_game: Vec<Filter>,
}

/// One part of an Objective's "Deploy …" text.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjDeploy {
    /// The card it names, seen from the Objective's owner.
    pub filter: Filter,
    /// "(optional)", "may deploy": the player may decline (`choose` with no card).
    #[serde(default)]
    pub optional: bool,
    /// "Reveal …": the card is shown from the Reserve Deck, not deployed.
    #[serde(default)]
    pub reveal: bool,
    /// "Opponent must give you a Rebel to imprison": the card comes from the
    /// opponent's Reserve Deck (the opponent chooses it) and is held as a captive
    /// (inactive) on table.
    #[serde(default)]
    pub imprison: bool,
    /// "… if there is one in his deck": with no such card, this part is skipped;
    /// with one, it must be carried out.
    #[serde(default)]
    pub if_any: bool,
    /// The words of the card.
    #[serde(default)]
    pub text: String,
}

impl Engine {
    /// A "for remainder of game" restriction of an Objective its player deployed still
    /// applies, whatever has happened to the Objective since (AR Actions - Duration).
    pub(super) fn for_game_restriction(
        &self,
        p: Side,
        c: CardIx,
    ) -> Result<(), super::engine::Rejection> {
        let hit = self
            .st
            .for_game
            .iter()
            .find(|(o, _, f)| self.st.owner(*o) == p && self.st.matches(c, f, p));
        match hit {
            Some((_, side, _)) => {
                Err(rej(
                    format!(
                        "{} may not deploy: {} restricted it \"for remainder of game\" when deployed, and that lasts whatever happens to the Objective",
                        self.name(c),
                        side
                    ),
                    r::ACTIONS_DURATION,
                )
                .and(r::OBJECTIVE_DEPLOYMENT_RESTRICTIONS))
            }
            None => Ok(()),
        }
    }

    /// A double-sided card flips: it now has its other side's title and text (a
    /// reference to one side's title affects only that side); cards deployed on or
    /// stacked on it stay there, on the new side.
    pub(super) fn flip(&mut self, c: CardIx) {
        let Some(back) = self.st.cards[c].def.back.take() else {
            self.log(
                Actor::Rules,
                Event::Result,
                format!("{} has no other side to flip to", self.name(c)),
                &[r::OBJECTIVES],
            );
            return;
        };
        let before = self.name(c);
        let front = std::mem::replace(&mut self.st.cards[c].def, *back);
        self.st.cards[c].def.back = Some(Box::new(front));
        let on: Vec<String> = (0..self.st.cards.len())
            .filter(|&x| self.st.zone[x] == Zone::On(c))
            .map(|x| self.name(x))
            .collect();
        let carried = if on.is_empty() {
            String::new()
        } else {
            format!(
                "; {} stay(s) on it, transferred to the new side",
                on.join(", ")
            )
        };
        self.log(
            super::actor(self.st.owner(c)),
            Event::StateChange,
            format!("{before} flips to {}{carried}", self.name(c)),
            &[r::OBJECTIVES],
        );
    }

    /// Choices of a card its deployment conditions or an Objective's restrictions
    /// bar from deploying are rejected with that rule.
    pub(super) fn reject_barred_choices(&mut self, p: Side, f: &Filter) {
        while let Some((d, c)) = self.next_chosen_card(p) {
            if let Some(why) = self.not_a_battleground_when_deployed(c, f, p) {
                self.script.take();
                self.reject(&d, why);
                continue;
            }
            if !self.st.matches(c, f, p) {
                return;
            }
            let Err(why) = self.deploy_conditions(p, c) else {
                return;
            };
            self.script.take();
            self.reject(&d, why);
        }
    }

    /// A location card an action may take only if it is a battleground, which would
    /// be a non-battleground when deployed: not a legal target.
    fn not_a_battleground_when_deployed(
        &self,
        c: CardIx,
        f: &Filter,
        p: Side,
    ) -> Option<super::engine::Rejection> {
        if f.battleground != Some(true) {
            return None;
        }
        let mut rest = f.clone();
        rest.battleground = None;
        if !self.st.matches(c, &rest, p) {
            return None;
        }
        let x = self.st.makes_card_non_battleground(c)?;
        Some(
            rej(
                format!(
                    "{} would not be a battleground when deployed ({} makes it a non-battleground), so it is not a legal target",
                    self.name(c),
                    self.name(x)
                ),
                r::LOCATION_SPECIAL_CONDITIONS,
            )
            .and(r::BATTLEGROUND),
        )
    }

    /// An optional deployment ("and/or", "up to"): the player's `choose` with no
    /// card declines it.
    pub(super) fn declines_optional(&mut self, p: Side, label: &str, f: &Filter) -> bool {
        if !self
            .next_of(p, Verb::Choose)
            .is_some_and(|d| d.step.cards.is_empty())
        {
            return false;
        }
        self.script.take();
        let what = if f.title.is_empty() {
            "a card".to_string()
        } else {
            f.title.join(" or ")
        };
        self.log(
            super::actor(p),
            Event::Pass,
            format!(
                "{label}: {} chooses not to deploy {what} (optional)",
                p.name()
            ),
            &[r::RESULT],
        );
        true
    }
}

enum Pick {
    Card(CardIx),
    Declined,
    Stop,
}

impl Engine {
    /// Both players have revealed and at least one revealed an Objective: starting
    /// locations deploy first, then Objectives, the Dark Side player's first.
    pub(super) fn resolve_objectives(&mut self, a: CardIx, b: CardIx) {
        let (d, l) = if self.st.owner(a) == Side::Dark {
            (a, b)
        } else {
            (b, a)
        };
        let is_obj = |e: &Engine, c: CardIx| e.st.def(c).card_type == CardType::Objective;
        for c in [d, l] {
            if !is_obj(self, c) {
                self.deploy_starting_location(c);
            }
        }
        self.start.revealed = [None, None];
        for c in [d, l] {
            if is_obj(self, c) && !self.deploy_objective(c) {
                return;
            }
        }
    }

    /// A starting location goes on table, converting an opponent's copy of it.
    fn deploy_starting_location(&mut self, c: CardIx) {
        let p = self.st.owner(c);
        self.start.location[p.ix()] = Some(c);
        self.place_location(c, p, r::STEP_A);
    }

    /// Put a location card on table; an identical location of the opponent's already
    /// there is converted (this one goes on top).
    fn place_location(&mut self, c: CardIx, p: Side, rule: &'static str) {
        let under = (0..self.st.cards.len()).find(|&x| {
            x != c
                && self.st.zone[x] == Zone::Table
                && self.st.owner(x) != p
                && self.st.def(x).card_type == CardType::Location
                && super::titles::identical(self.st.def(x), self.st.def(c))
        });
        let text = match under {
            Some(x) => self.convert_copy(c, x),
            None => {
                self.st.put(c, Zone::Table);
                format!("{}'s {} is deployed (for free)", p.name(), self.name(c))
            }
        };
        self.start.deployed[p.ix()].push(c);
        self.log(super::actor(p), Event::StateChange, text, &[rule]);
    }

    /// Carry out an Objective's "Deploy …" text. `false` when the run must stop for a
    /// decision.
    fn deploy_objective(&mut self, o: CardIx) -> bool {
        let p = self.st.owner(o);
        self.log(
            super::actor(p),
            Event::StateChange,
            format!(
                "{} deploys the Objective {} (0 side) and carries out its \"Deploy\" text, for free; nothing else on it applies until that deployment is complete",
                p.name(),
                self.name(o)
            ),
            &[r::OBJECTIVES, r::STEP_A],
        );
        let items = self
            .st
            .def(o)
            .objective
            .as_ref()
            .map(|x| x.deploy.clone())
            .unwrap_or_default();
        let mut placed: Vec<CardIx> = Vec::new();
        for it in &items {
            let chooser = if it.imprison { p.other() } else { p };
            let cands = self.objective_candidates(p, chooser, it);
            if cands.is_empty() {
                if it.optional || it.if_any {
                    self.log(
                        super::actor(chooser),
                        Event::Result,
                        format!(
                            "no card in {}'s Reserve Deck for \"{}\": that part is skipped",
                            chooser.name(),
                            it.text
                        ),
                        &[r::OBJECTIVES],
                    );
                    continue;
                }
                self.objective_fails(o, &placed, it);
                return true;
            }
            match self.pick(chooser, &cands, it) {
                Pick::Stop => return false,
                Pick::Declined => continue,
                Pick::Card(c) => self.objective_place(o, c, it, &mut placed),
            }
        }
        self.st.put(o, Zone::Table);
        self.log(
            super::actor(p),
            Event::StateChange,
            format!(
                "{}'s deployment is complete: its game text now applies",
                self.name(o)
            ),
            &[r::OBJECTIVES],
        );
        self.st.note_for_game(o);
        true
    }

    /// Cards that can satisfy one part of the text: in the chooser's Reserve Deck,
    /// matching it, and (when deployed) able to deploy now.
    fn objective_candidates(
        &self,
        p: Side,
        chooser: Side,
        it: &super::objective::ObjDeploy,
    ) -> Vec<CardIx> {
        self.st
            .pile(chooser, PileName::ReserveDeck)
            .iter()
            .copied()
            .filter(|&c| {
                self.st.matches(c, &it.filter, p)
                    && (it.reveal
                        || it.imprison
                        || (self.deploy_conditions(p, c).is_ok() && self.unique_ok(c).is_ok()))
            })
            .collect()
    }

    /// The chooser's `choose` decision for one part of the text (no card: declines an
    /// optional part).
    fn pick(&mut self, chooser: Side, cands: &[CardIx], it: &ObjDeploy) -> Pick {
        while let Some(d) = self.take_next_of(chooser, Verb::Choose) {
            let chosen: Vec<Option<CardIx>> =
                d.step.cards.iter().map(|k| self.st.find(k)).collect();
            match chosen.as_slice() {
                [] if it.optional => {
                    self.log(
                        super::actor(chooser),
                        Event::Pass,
                        format!("{} declines the optional \"{}\"", chooser.name(), it.text),
                        &[r::OBJECTIVES],
                    );
                    return Pick::Declined;
                }
                [Some(c)] if cands.contains(c) => return Pick::Card(*c),
                _ => {
                    let why = format!(
                        "choose one card of the Reserve Deck for \"{}\"{}",
                        it.text,
                        if it.optional {
                            " (or none)"
                        } else {
                            " (mandatory)"
                        }
                    );
                    self.reject(&d, rej(why, r::OBJECTIVES).and(r::STARTING_MANDATORY));
                }
            }
        }
        self.need_choice(chooser, format!("a card for \"{}\"", it.text));
        Pick::Stop
    }

    fn objective_place(&mut self, o: CardIx, c: CardIx, it: &ObjDeploy, placed: &mut Vec<CardIx>) {
        let p = self.st.owner(o);
        let (zone_text, cites): (String, &[&'static str]) = if it.reveal {
            (
                format!(
                    "{} reveals {} from the Reserve Deck (\"{}\")",
                    p.name(),
                    self.name(c),
                    it.text
                ),
                &[r::OBJECTIVES],
            )
        } else if it.imprison {
            self.st.put(c, Zone::Table);
            self.st.card_state[c] = CardState::Inactive;
            placed.push(c);
            (
                format!(
                    "{} gives {} from his Reserve Deck: it is imprisoned (a captive, inactive) (\"{}\")",
                    p.other().name(),
                    self.name(c),
                    it.text
                ),
                &[r::OBJECTIVES, r::INACTIVE],
            )
        } else if self.st.def(c).card_type == CardType::Location {
            placed.push(c);
            self.place_location(c, p, r::OBJECTIVES);
            return;
        } else {
            self.st.put(c, Zone::Table);
            placed.push(c);
            (
                format!(
                    "{} deploys {} for free (\"{}\")",
                    p.name(),
                    self.name(c),
                    it.text
                ),
                &[r::OBJECTIVES, r::STARTING_THE_GAME_GENERAL],
            )
        };
        self.log(super::actor(p), Event::StateChange, zone_text, cites);
    }

    /// A mandatory part cannot be carried out: the Objective is placed out of play and
    /// the cards it deployed go back into their owners' Reserve Decks.
    fn objective_fails(&mut self, o: CardIx, placed: &[CardIx], it: &ObjDeploy) {
        let p = self.st.owner(o);
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{} cannot carry out the mandatory \"{}\" of {}: the Objective is placed out of play and the cards it deployed return to the Reserve Deck; {} has neither a starting location nor an Objective",
                p.name(),
                it.text,
                self.name(o),
                p.name()
            ),
            &[r::STARTING_MANDATORY, r::OBJECTIVES],
        );
        self.st.to_pile(o, p, PileName::OutOfPlay);
        for &c in placed {
            let owner = self.st.owner(c);
            self.st.card_state[c] = CardState::Active;
            self.st.to_pile(c, owner, PileName::ReserveDeck);
            self.st.bottom(c, owner, PileName::ReserveDeck);
            self.start.deployed[p.ix()].retain(|&x| x != c);
            self.log(
                super::actor(owner),
                Event::StateChange,
                format!(
                    "{} returns to {}'s Reserve Deck",
                    self.name(c),
                    owner.name()
                ),
                &[r::STARTING_MANDATORY],
            );
        }
    }
}

/// The tests of a filter on the card itself that starting cards read: no deploy
/// cost, immune to a title by its own text.
pub fn card_tests(d: &super::model::CardDef, f: &Filter) -> bool {
    if let Some(p) = &f.site_of
        && !(d.card_type == CardType::Location && super::prepositions::titled_under(&d.title, p))
    {
        return false;
    }
    if f.no_deploy_cost && d.stats.deploy.is_some() {
        return false;
    }
    if let Some(t) = &f.immune_to
        && !d.immune_to.iter().any(|x| x.eq_ignore_ascii_case(t))
    {
        return false;
    }
    true
}

impl super::state::State {
    /// The card on table whose text would make this location card a
    /// non-battleground once deployed (AR Deploying Locations While There Are
    /// Special Conditions): its `makes_non_battleground` names the location by title,
    /// system, kind or marker number.
    pub fn makes_card_non_battleground(&self, c: CardIx) -> Option<CardIx> {
        let d = self.def(c);
        let kind = d.subtype.as_deref().unwrap_or("");
        (0..self.cards.len()).find(|&x| {
            self.on_table(x)
                && self
                    .def(x)
                    .find_static(pick!(Static::MakesNonBattleground))
                    .is_some_and(|f| {
                        (f.name.is_empty()
                            || f.name.iter().any(|n| n.eq_ignore_ascii_case(&d.title)))
                            && f.system.as_ref().is_none_or(|s| {
                                super::prepositions::titled_under(&d.title, s)
                                    || d.title.eq_ignore_ascii_case(s)
                            })
                            && f.kind.is_none_or(|k| {
                                kind.eq_ignore_ascii_case(match k {
                                    super::model::LocKind::System => "system",
                                    super::model::LocKind::Site => "site",
                                    super::model::LocKind::Sector => "sector",
                                })
                            })
                            && f.marker_at_most
                                .is_none_or(|m| d.marker.is_some_and(|x| x <= m))
                    })
        })
    }

    /// Would this location card be a battleground when deployed: Force icons on
    /// both sides, and nothing on table making it a non-battleground?
    pub fn card_is_battleground(&self, c: CardIx) -> bool {
        let d = self.def(c);
        let icon = |n: &str| d.stats.icons.iter().any(|i| i.eq_ignore_ascii_case(n));
        d.card_type == CardType::Location
            && icon("light_force")
            && icon("dark_force")
            && self.makes_card_non_battleground(c).is_none()
    }

    /// An Objective's "for remainder of game" restrictions take effect (it has been
    /// deployed).
    pub fn note_for_game(&mut self, o: CardIx) {
        if let Some(x) = &self.def(o).objective {
            let fs = x.remainder_of_game.clone();
            let t = self.title(o).to_string();
            self.for_game
                .extend(fs.into_iter().map(|f| (o, t.clone(), f)));
        }
    }
}
