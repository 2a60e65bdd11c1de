//! The Star Wars CCG engine (Advanced Rulebook 3.27).
//!
//! [`run`] is a pure function of (board, script) → [`Run`]: the cited trace,
//! the outcome and the final state. Layout:
//!
//! - `rules`: every section ID the stack engine cites.
//! - `state`: cards, zones, piles, card states, Force counters.
//! - `stack`: actions on the stack ([`stack::ActionKind`] has a variant per kind of action).
//! - `engine`: the driver (top-level actions, responses, results, canceling, limits).
//! - `values`, `destiny`, `battle`, `drain`: numbers, destiny draws, battles and Force drains.
//!
//! Extending: a battle or Force drain is an action on the stack like any
//! other ([`stack::ActionKind::Battle`], [`stack::ActionKind::ForceDrain`]);
//! responses to it use the same windows, and its result is the one place
//! (`Engine::begin_result`) that currently reports "not modelled". Card
//! numbers come from [`crate::scenario::model::Stats`] (power, ability,
//! deploy, forfeit, destiny, armor, maneuver, defense values, icons, immunity
//! to attrition); destiny draws already go through [`destiny::draw`]. Steps
//! are reported with [`engine::Engine::log`], each with the rule IDs that
//! justify it.

pub mod battle;
pub mod battle_attack;
pub mod battle_board;
pub mod battle_scenario;
pub mod destiny;
pub mod drain;
pub mod engine;
pub mod rules;
pub mod stack;
pub mod state;
pub mod values;

use crate::engine::Trace;
use crate::scenario::model::{Board, CardState, Placed, Side, Step};
pub use engine::{Decision, Illegal, Outcome};
use state::{Card, CardIx, Location, State, Zone};

/// Everything a run produced.
pub struct Run {
    pub trace: Trace,
    pub outcome: Outcome,
    pub state: State,
    /// Labels of actions that had their result, in order.
    pub resolved: Vec<String>,
    /// Labels of actions canceled, in order.
    pub canceled: Vec<String>,
    pub illegal: Vec<Illegal>,
    /// Labels of the actions left on the stack, bottom first.
    pub stack: Vec<String>,
    pub next: Side,
    pub leftover: usize,
    pub destinies: Vec<i64>,
    pub not_modelled: Vec<String>,
}

/// Build the state from a board. Card names have been checked by the loader;
/// an unknown one here is skipped.
pub fn setup(board: &Board) -> State {
    let cards: Vec<Card> = board
        .cards
        .iter()
        .map(|(k, d)| Card {
            key: k.clone(),
            def: d.value.clone(),
        })
        .collect();
    let locations = board
        .locations
        .iter()
        .map(|l| Location {
            name: l.name.clone(),
            title: l.title.clone().unwrap_or_else(|| l.name.clone()),
            icons: l.icons.clone(),
        })
        .collect();
    let mut st = State::new(cards, locations);
    for (side, piles) in [(Side::Light, &board.light), (Side::Dark, &board.dark)] {
        use crate::scenario::model::PileName as P;
        for (p, list) in [
            (P::ReserveDeck, &piles.reserve_deck),
            (P::ForcePile, &piles.force_pile),
            (P::UsedPile, &piles.used_pile),
            (P::LostPile, &piles.lost_pile),
            (P::Hand, &piles.hand),
            (P::OutOfPlay, &piles.out_of_play),
        ] {
            for k in list {
                if let Some(c) = st.find(&k.value) {
                    st.setup_pile(c, side, p);
                }
            }
        }
    }
    fn place(st: &mut State, p: &Placed, z: Zone) {
        let Some(c) = st.find(&p.card.value) else {
            return;
        };
        st.put(c, z);
        st.card_state[c] = p.state;
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
    let next = board.next.unwrap_or(board.turn);
    let mut e = engine::Engine::new(st, board.turn, board.phase, next, script);
    e.through = board.through.as_ref().map_or(board.phase, |t| t.value);
    for p in &board.stack {
        e.seed(p);
    }
    e.run();
    let outcome = e.outcome.clone().unwrap_or(Outcome::StepLimit);
    Run {
        stack: e.stack.iter().map(|x| x.label.clone()).collect(),
        next: e.next_top_level(),
        leftover: e.leftover(),
        trace: e.trace,
        outcome,
        state: e.st,
        resolved: e.resolved,
        canceled: e.canceled,
        illegal: e.illegal,
        destinies: e.destinies,
        not_modelled: e.not_modelled,
    }
}

/// Turn a script step into a decision (the loader has checked exactly one side is given).
pub fn decision(pos: usize, line: u64, column: u64, step: &Step) -> Option<Decision> {
    let (by, verb) = match (step.light, step.dark) {
        (Some(v), None) => (Side::Light, v),
        (None, Some(v)) => (Side::Dark, v),
        _ => return None,
    };
    Some(Decision {
        pos,
        line,
        column,
        by,
        verb,
        step: step.clone(),
    })
}
