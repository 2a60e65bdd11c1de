//! The Star Wars CCG engine (Advanced Rulebook 3.27).
//!
//! [`run`] is a pure function of (board, script) → [`Run`]: the cited trace,
//! the outcome and the final state. Layout:
//!
//! - `rules`: every section ID the stack engine cites.
//! - `state`: cards, zones, piles, card states, Force counters.
//! - `stack`: actions on the stack ([`stack::ActionKind`] has a variant per kind of action).
//! - `engine`: the driver (the run loop, asking players, strict scripts, rejecting decisions).
//! - `phases`: top-level actions and phases; `resolve`: the stack (automatic actions,
//!   response windows, results, destiny draws); `effects`: applying effects, canceling,
//!   losing Force; `initiate`: conditions, limits, costs, deploying, "before" actions;
//!   `targets`: targets, immunity and what a response responds to.
//! - `values`, `destiny`, `battle`, `drain`: numbers, destiny draws, battles and Force drains.
//!
//! Extending: a battle or Force drain is an action on the stack like any
//! other ([`stack::ActionKind::Battle`], [`stack::ActionKind::ForceDrain`]);
//! responses to it use the same windows, and its result is the one place
//! (`Engine::begin_result`) that currently reports "not modelled". Card
//! numbers come from [`crate::engine::swccg::model::Stats`] (power, ability,
//! deploy, forfeit, destiny, armor, maneuver, defense values, icons, immunity
//! to attrition); destiny draws already go through [`destiny::draw`]. Steps
//! are reported with [`engine::Engine::log`], each with the rule IDs that
//! justify it.

pub mod ability_required;
mod activation;
pub mod battle;
pub mod battle_arrive;
pub mod battle_board;
mod battle_count;
mod battle_damage;
mod battle_drain;
mod battle_early;
mod battle_power;
pub mod break_cover;
pub mod capacity;
pub mod card_destiny;
mod card_file;
pub mod card_values;
mod check;
mod choose;
pub mod conditions;
pub mod control;
pub mod creature;
mod deploy;
mod deploy_turn;
pub mod destiny;
pub mod destiny_total;
pub mod drain;
mod drain_board;
mod effect_rules;
mod effects;
pub mod engine;
mod face_down;
pub mod identify;
mod initiate;
pub mod library;
pub mod model;
pub mod movement;
mod persona;
mod phases;
pub mod prevents_battle;
pub mod reduce;
mod resolve;
pub mod retrieve_card;
pub mod rules;
mod single_destiny;
pub mod stack;
pub mod startgame;
mod state;
pub mod statics;
mod targets;
mod turn;
mod uniqueness;
pub mod values;
mod weapons;

mod firing;
mod move_costs;
mod move_permits;
mod prepositions;
mod relocation;
pub mod shields;
mod weapon_deploy;
// ---- deploy costs and permissions
pub mod deploy_cost;
// ---- retargeting
pub mod retarget;
// ---- values set by game text
pub mod value_resets;
// ---- each player's actions in a result
pub mod each_player;
// ---- Star Destroyer: Launch Bay
mod launch_bay;
pub use launch_bay::IDS as LAUNCH_BAY_IDS;
// ---- game text that returns
mod text_returns;
pub use text_returns::IDS as TEXT_RETURNS_IDS;
// ---- matching pairs deployed simultaneously
mod matching_deploy;
pub use matching_deploy::IDS as MATCHING_DEPLOY_IDS;
// ---- Force loss responded to
mod force_loss;
mod free_tax;
pub use force_loss::IDS as FORCE_LOSS_IDS;
// ---- conditions and relative targets of a card's own text; its own deploy cost
pub mod own_deploy;
pub mod text_when;
// ---- grabbers
mod grabbers;
pub use grabbers::IDS as GRABBER_IDS;

// reacts, capturing
pub mod besieged;
pub mod blown_away;
pub mod capture;
pub mod epic;
pub mod react;
pub mod steal;
// Weapons on the board, devices, duels, Jedi tests, sabacc, podracing, dejarik.
pub mod device;
mod drawn_text;
pub mod duel;
pub mod epic_duel;
pub mod games;
mod globals;
mod insert;
mod interrupt_tax;
pub mod jeditest;
mod objective;
mod play_limits;
mod presence_deploy;
mod site_deploy;
pub mod titles;
mod upkeep;
mod utinni;
// A location a card targeted when deployed.
mod location_target;
pub mod weapon_fire;

use crate::engine::{
    Actor, BoardError, End, Game, GameRules, Illegal, Leftover, Observations, Observe, Players,
    RunResult, Scripted, Seat, Trace, Want,
};
pub use engine::Decision;
use model::{Board, CardState, Placed, Side, Step};
use state::{Card, CardIx, Location, State, Zone};

/// The Star Wars CCG, as the scenario layer sees it.
pub struct Swccg;

impl GameRules for Swccg {
    const GAME: Game = Game::Swccg;
    type Board = Board;
    type Step = Step;

    fn players(_: &Board) -> Players {
        Players::new("light", "dark")
    }

    fn seat(_: &Board, step: &Step) -> Result<Seat, String> {
        match (step.light, step.dark) {
            (Some(_), None) => Ok(0),
            (None, Some(_)) => Ok(1),
            _ => Err(
                "each script step names exactly one player: `light: <verb>` or `dark: <verb>`"
                    .into(),
            ),
        }
    }

    fn check(board: &Board, script: &[Scripted<Step>]) -> Result<(), BoardError> {
        check::check(board, script)
    }

    fn observable(board: &Board, path: &str) -> Result<(), String> {
        check::observable(board, path)
    }

    fn run(board: &Board, script: &[Scripted<Step>]) -> RunResult {
        let decisions = script.iter().filter_map(decision).collect();
        result(run(board, decisions))
    }

    fn start(board: &Board) -> Observations {
        let turn = board.turn.unwrap_or(Side::Light);
        Observations::from_source(std::sync::Arc::new(Observed {
            state: setup(board),
            resolved: Vec::new(),
            canceled: Vec::new(),
            stack: Vec::new(),
            next: board.next.unwrap_or(turn),
            destinies: Vec::new(),
            numbers: Vec::new(),
            wheres: Vec::new(),
            turn_obs: Vec::new(),
            answers: Vec::new(),
        }))
    }
}

/// The seat of a side.
pub fn seat(s: Side) -> Seat {
    s.ix() as Seat
}

/// The actor for a side.
pub fn actor(s: Side) -> Actor {
    Actor::Player(seat(s))
}

/// A board run as the kernel's result: how it ended, and what can be observed.
fn result(run: Run) -> RunResult {
    RunResult {
        players: Players::new("light", "dark"),
        trace: run.trace,
        end: run.outcome,
        illegal: run.illegal,
        leftover: run.leftover,
        observations: Observations::from_source(std::sync::Arc::new(run.end)),
    }
}

/// What a board run leaves to observe: its end state and what happened on the way.
pub struct Observed {
    pub state: State,
    /// Labels of actions that had their result, in order.
    pub resolved: Vec<String>,
    /// Labels of actions canceled, in order.
    pub canceled: Vec<String>,
    /// Labels of the actions left on the stack, bottom first.
    pub stack: Vec<String>,
    pub next: Side,
    pub destinies: Vec<i64>,
    /// Numbers of battles and Force drains, by `<label>.<path>`.
    pub numbers: Vec<(String, serde_json::Value)>,
    /// Answers to the board's `locate:` questions, `<name>.<key>`.
    pub wheres: Vec<(String, serde_json::Value)>,
    /// Turn structure: the activation count and each location's battleground status.
    pub turn_obs: Vec<(String, serde_json::Value)>,
    /// Answers to the board's questions about cards, by observation path.
    pub answers: Vec<(String, serde_json::Value)>,
}

impl Observe for Observed {
    fn observe(&self, want: &Want<'_>, obs: &mut Observations) {
        let st = &self.state;
        let (cards, states) = (want.family("cards."), want.family("states."));
        for c in 0..st.cards.len() {
            if cards {
                obs.set(format!("cards.{}", st.cards[c].key), st.where_is(c));
            }
            if states {
                obs.set(
                    format!("states.{}", st.cards[c].key),
                    card_state_name(st, c),
                );
            }
        }
        for side in [Side::Light, Side::Dark] {
            if want.family("piles.") {
                for p in check::PILES {
                    let name = format!("{}.{}", side.as_str(), p.as_str());
                    obs.list(
                        format!("piles.{name}"),
                        &st.pile_by_name(&name).unwrap_or_default(),
                    );
                }
            }
            if want.family("force.") {
                force_observations(st, side, obs);
            }
        }
        if want.family("regular_moves") {
            let moved: Vec<&str> = st.regular_moves.iter().map(|&c| st.key(c)).collect();
            obs.list("regular_moves", &moved);
        }
        for (key, list) in [
            ("resolved", &self.resolved),
            ("canceled", &self.canceled),
            ("stack", &self.stack),
        ] {
            if want.family(key) {
                obs.list(key, list);
            }
        }
        if want.family("next") {
            obs.set("next", self.next.as_str());
        }
        if want.family("destinies") {
            obs.set("destinies", serde_json::json!(self.destinies));
        }
        let named = [("numbers.", &self.numbers), ("where.", &self.wheres)];
        for (prefix, list) in named {
            if !want.family(prefix) {
                continue;
            }
            for (k, v) in list {
                let path = format!("{prefix}{k}");
                if want.family(&path) {
                    obs.set(path, v.clone());
                }
            }
        }
        for (k, v) in self.turn_obs.iter().chain(&self.answers) {
            if want.family(k) {
                obs.set(k.clone(), v.clone());
            }
        }
    }
}

/// `force.<side>.*`: the Force a side used, lost, activated, retrieved and drew,
/// and the cards in its Force Pile, Reserve Deck and hand.
fn force_observations(st: &State, side: Side, obs: &mut Observations) {
    let f = st.force[side.ix()];
    let k = side.as_str();
    obs.num(format!("force.{k}.used"), Some(f.used));
    obs.num(format!("force.{k}.lost"), Some(f.lost));
    obs.num(format!("force.{k}.activated"), Some(f.activated));
    obs.num(format!("force.{k}.retrieved"), Some(f.retrieved));
    obs.num(format!("force.{k}.drawn"), Some(f.drawn));
    for (key, p) in [
        ("force_pile", model::PileName::ForcePile),
        ("reserve_deck", model::PileName::ReserveDeck),
        ("hand", model::PileName::Hand),
    ] {
        obs.num(
            format!("force.{k}.{key}"),
            Some(st.pile_len(side, p) as i64),
        );
    }
}

/// A card's state (AR Ch.1 Section D): `active`, `inactive` or `supporting` on
/// table; `unit_of_force` in a deck, pile or hand; `out_of_play`; `stack` while
/// being played or deployed, `drawn` while drawn for destiny.
fn card_state_name(st: &State, c: CardIx) -> &'static str {
    match st.zone[c] {
        Zone::Pile(_, model::PileName::OutOfPlay) => "out_of_play",
        Zone::Pile(..) => "unit_of_force",
        Zone::Stack => "stack",
        Zone::Drawn => "drawn",
        Zone::At(_) | Zone::Table | Zone::On(_) => match st.card_state[c] {
            CardState::Active => "active",
            CardState::Inactive => "inactive",
            CardState::Supporting => "supporting",
        },
    }
}

/// Everything a board run produced.
pub struct Run {
    pub trace: Trace,
    pub outcome: End,
    pub illegal: Vec<Illegal>,
    pub leftover: Vec<Leftover>,
    /// The end state and what can be observed of the run.
    pub end: Observed,
}

/// Build the state from a board. Card names have been checked by the loader;
/// an unknown one here is skipped.
pub fn setup(board: &Board) -> State {
    let mut cards: Vec<Card> = board
        .cards
        .iter()
        .map(|(k, d)| Card {
            key: k.clone(),
            def: d.value.clone(),
        })
        .collect();
    let named = cards.len();
    cards.extend(face_down::counted_cards(board));
    let locations = board
        .locations
        .iter()
        .map(|l| Location {
            name: l.name.clone(),
            title: l.title.clone().unwrap_or_else(|| l.name.clone()),
            icons: l.icons.clone(),
            geo: l.clone(),
        })
        .collect();
    let mut st = State::new(cards, locations);
    for (side, piles) in [(Side::Light, &board.light), (Side::Dark, &board.dark)] {
        use crate::engine::swccg::model::PileName as P;
        for (p, list) in [
            (P::ReserveDeck, &piles.reserve_deck[..]),
            (P::ForcePile, &piles.force_pile[..]),
            (P::UsedPile, &piles.used_pile[..]),
            (P::LostPile, &piles.lost_pile[..]),
            (P::Hand, &piles.hand[..]),
            (P::OutOfPlay, &piles.out_of_play[..]),
        ] {
            for k in list {
                if let Some(c) = st.find(&k.value) {
                    st.setup_pile(c, side, p);
                }
            }
        }
    }
    for c in named..st.cards.len() {
        if let Some(f) = st.def(c).face_down {
            st.setup_pile(c, f.side, f.pile);
        }
    }
    fn place(st: &mut State, p: &Placed, z: Zone) {
        let Some(c) = st.find(&p.card.value) else {
            return;
        };
        st.put(c, z);
        st.card_state[c] = p.state;
        st.location_target[c] = p.target.as_ref().and_then(|t| st.find_location(&t.value));
        for x in &p.on {
            place(st, x, Zone::On(c));
        }
    }
    for (l, loc) in board.locations.iter().enumerate() {
        for p in &loc.cards {
            place(&mut st, p, Zone::At(l));
        }
    }
    for p in &board.table {
        place(&mut st, p, Zone::Table);
    }
    st.timed = board.durations.clone();
    for c in 0..st.cards.len() {
        if st.on_table(c) {
            st.note_for_game(c);
        }
    }
    // A card on an inactive card is inactive too.
    for c in 0..st.cards.len() {
        if let Zone::On(h) = st.zone[c]
            && st.card_state[h] == CardState::Inactive
            && st.card_state[c] == CardState::Active
        {
            st.card_state[c] = CardState::Inactive;
        }
    }
    st
}

/// Cards that appear nowhere on the board are not part of the game.
pub fn unplaced(st: &State) -> Vec<CardIx> {
    (0..st.cards.len())
        .filter(|&c| st.zone[c] == Zone::Stack)
        .collect()
}

/// Run a board with its script.
pub fn run(board: &Board, script: Vec<Decision>) -> Run {
    let st = setup(board);
    // The loader has checked that a board position has `turn:` and `phase:`.
    let turn = board.turn.unwrap_or(Side::Light);
    let phase = board.phase.unwrap_or(model::Phase::Deploy);
    let next = board.next.unwrap_or(turn);
    let mut e = engine::Engine::new(st, turn, phase, next, script);
    e.through = board.through.as_ref().map_or(phase, |t| t.value);
    e.locate = board.locate.iter().map(|n| n.value.clone()).collect();
    e.questions = board.questions.clone();
    let battled = board
        .battled_this_turn
        .iter()
        .filter_map(|k| e.st.find(&k.value))
        .collect();
    e.battled_earlier(battled);
    e.may_not_battle = board
        .may_not_battle
        .iter()
        .filter_map(|k| e.st.find(&k.value))
        .collect();
    e.played_turn = board
        .played_this_turn
        .iter()
        .filter_map(|k| e.st.find(&k.value))
        .collect();
    for p in &board.stack {
        e.seed(p);
    }
    e.run();
    e.damage_numbers_so_far();
    let turn_obs = e.turn_observations();
    let outcome = e.outcome.clone().unwrap_or(End::StepLimit);
    let end = Observed {
        stack: e.stack.iter().map(|x| x.label.clone()).collect(),
        next: e.next_top_level(),
        state: e.st,
        resolved: e.resolved,
        canceled: e.canceled,
        destinies: e.destinies,
        numbers: e.numbers,
        wheres: e.wheres,
        turn_obs,
        answers: e.answers,
    };
    Run {
        leftover: e.leftover,
        trace: e.trace,
        outcome,
        illegal: e.illegal,
        end,
    }
}

/// Turn a script step into a decision (the loader has checked exactly one side is given).
pub fn decision(s: &Scripted<Step>) -> Option<Decision> {
    let step = &s.step;
    let (by, verb) = match (step.light, step.dark) {
        (Some(v), None) => (Side::Light, v),
        (None, Some(v)) => (Side::Dark, v),
        _ => return None,
    };
    Some(Decision {
        at: s.at,
        by,
        verb,
        step: step.clone(),
    })
}
