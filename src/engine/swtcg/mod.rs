//! The Star Wars Trading Card Game engine (IDC rulebook).
//!
//! A run is a pure function of (board, script): the board gives the cards,
//! each player's Force, build points, piles and units in the three arenas
//! and the build zone (in Two-Headed Wookiee, each team player's own pools);
//! the script gives every decision and every die.
//!
//! - `model`: the YAML board, cards, abilities and script steps.
//! - `state`: pieces (unit, Pilot and Equipment stacks), piles, totals.
//! - `engine`: asking for decisions in play-or-pass chances, dice, the trace.
//! - `turn`: ready, command and battle phases, contests, the win check.
//! - `build`: the build step (stacking, Equipment, Upkeep, Pilots).
//! - `attack`, `damage`: the eight attack steps and damage resolution.
//! - `effects`: Battle cards and activated and triggered abilities.
//! - `disrupt`: disrupt POPs (attacks, Missions), disrupts disrupted.
//! - `control`: control gained and returned, two unique cards of one name.
//! - `setup`: the side bid and setup builds.
//! - `rules`: every section ID cited.
//! - `library`: cards named from the library or the imported databases.

mod attack;
mod build;
mod check;
mod control;
mod damage;
mod disrupt;
pub mod effects;
pub mod engine;
pub mod library;
pub mod model;
mod more_effects;
pub mod rules;
mod setup;
pub mod state;
mod turn;

use crate::engine::{
    Actor, BoardError, End, Event, Game, GameRules, Leftover, Observations, Players, RunResult,
    Scripted, Seat,
};
use model::{Arena, Board, Format, Side, Start, Step, Through};
use serde_json::json;

/// The Star Wars TCG, as the scenario layer sees it.
pub struct Swtcg;

impl GameRules for Swtcg {
    const GAME: Game = Game::Swtcg;
    type Board = Board;
    type Step = Step;

    fn players(board: &Board) -> Players {
        if board.side_bid.is_some() {
            Players::new("player1", "player2")
        } else {
            Players::new("dark", "light")
        }
    }

    fn seat(board: &Board, s: &Step) -> Result<Seat, String> {
        let bid = board.side_bid.is_some();
        match (s.dark, s.light, s.player1, s.player2) {
            (Some(_), None, None, None) if !bid => Ok(0),
            (None, Some(_), None, None) if !bid => Ok(1),
            (None, None, Some(_), None) if bid => Ok(0),
            (None, None, None, Some(_)) if bid => Ok(1),
            _ if bid => Err("each script step of a side bid names one player: `player1: <verb>` or `player2: <verb>`".into()),
            _ => Err("each script step names exactly one player: `dark: <verb>` or `light: <verb>`".into()),
        }
    }

    fn check(board: &Board, script: &[Scripted<Step>]) -> Result<(), BoardError> {
        check::check(board, script)
    }

    fn observable(board: &Board, path: &str) -> Result<(), String> {
        check::observable(board, path)
    }

    fn run(board: &Board, script: &[Scripted<Step>]) -> RunResult {
        run(board, script)
    }

    fn start(board: &Board) -> Observations {
        let mut obs = Observations::default();
        observe(&engine::Engine::new(state::setup(board), &[]), &mut obs);
        obs
    }
}

/// Run a board with its script.
pub fn run(board: &Board, script: &[Scripted<Step>]) -> RunResult {
    let st = state::setup(board);
    let mut e = engine::Engine::new(st, script);
    e.note_library();
    let players = Swtcg::players(board);
    if board.side_bid.is_some() {
        e.names = ["player1", "player2"];
    }
    let mut obs = Observations::default();
    let flow = drive(&mut e, board, &mut obs);
    e.meet_in_play();
    let end = match flow {
        Ok(()) => End::Complete,
        Err(_) => e.end.clone().unwrap_or(End::StepLimit),
    };
    let leftover: Vec<Leftover> = e
        .remaining()
        .iter()
        .map(|s| Leftover {
            at: s.at,
            player: Actor::Player(s.player),
            decision: s.step.describe(),
        })
        .collect();
    e.rules(Event::Stop, end.sentence(&players), &[]);
    for l in &leftover {
        let t = format!("decision {} never taken: {}", l.at.step, l.decision);
        e.log(l.player, Event::Stop, t, &[]);
    }
    observe(&e, &mut obs);
    RunResult {
        players,
        trace: e.trace,
        end,
        illegal: e.illegal,
        leftover,
        observations: obs,
    }
}

fn drive(e: &mut engine::Engine, board: &Board, obs: &mut Observations) -> engine::Flow<()> {
    if board.format == Format::TwoHeadedWookiee {
        e.rules(
            Event::Phase,
            "Two-Headed Wookiee: each side is a team of two players (a and b), each with their own Force, build points, hand, deck, discard pile and Resource; the primary player makes the team's decisions",
            &[rules::TWO_HEADED, rules::COOPERATION, rules::SHARING, rules::TEAM_ORDER],
        );
        if board.start == Some(Start::Setup) {
            return e.not_modelled(
                "Two-Headed Wookiee setup: the team's shared 50 build total",
                &[rules::SHARING, rules::SETUP],
            );
        }
    }
    // Text on the starting board is met as text met later is: reported, and
    // the run goes on (the verdict shows it unless the scenario acknowledges it).
    e.meet_in_play();
    if let Some(b) = &board.side_bid {
        let first = usize::from(b.first == "player2");
        let res = e.side_bid(b.side, first)?;
        for (i, name) in ["player1", "player2"].iter().enumerate() {
            obs.set(
                format!("side_bid.{name}.side"),
                res.sides[i].map(|s| s.as_str()),
            );
            obs.set(format!("side_bid.{name}.build"), res.build[i]);
        }
        return Ok(());
    }
    let start = board.start.unwrap_or(Start::Battle);
    if start == Start::Setup {
        let t = e.setup_builds()?;
        obs.set("setup.dark", t[0]);
        obs.set("setup.light", t[1]);
        // With `through:`, the game goes on: the first turn starts after setup.
        return match board.through {
            Some(through) => e.run_turn(Start::Ready, through, Arena::Space),
            None => Ok(()),
        };
    }
    let through = board.through.unwrap_or(match start {
        Start::Ready => Through::Ready,
        Start::Command => Through::Command,
        _ => Through::Battle,
    });
    e.run_turn(start, through, board.arena.unwrap_or(Arena::Space))
}

/// What a run can be observed with (see docs/swtcg.md).
fn observe(e: &engine::Engine, obs: &mut Observations) {
    let st = &e.st;
    for c in 0..st.keys.len() {
        obs.set(format!("cards.{}", st.keys[c]), st.where_is(c));
        let Some(p) = st.piece_of(c) else { continue };
        let k = &st.keys[c];
        let pc = &st.pieces[p];
        let t = st.totals(p);
        let u = |x: &str| format!("units.{k}.{x}");
        obs.set(u("zone"), st.where_is(c));
        if st.team {
            obs.set(u("player"), st.pid_of(p).letter());
        }
        obs.set(u("top"), st.key(p));
        obs.set(u("subtypes"), st.subtypes(p));
        obs.set(u("tapped"), pc.tapped);
        obs.set(u("damage"), pc.damage);
        obs.set(u("counters"), pc.counters);
        obs.set(u("speed"), t.speed.max(0));
        obs.set(u("power"), t.power.max(0));
        obs.set(u("health"), t.health.max(0));
        obs.set(u("build"), t.build);
        obs.list(u("stack"), &st.keys_of(&pc.stack));
        let riders = |pilots: bool| -> Vec<String> {
            st.riders(p, pilots)
                .into_iter()
                .map(|q| st.key(q).to_string())
                .collect()
        };
        obs.list(u("pilots"), &riders(true));
        obs.list(u("equipment"), &riders(false));
        // A keyword the unit lacks is not set: a missing observation compares as null.
        for kw in state::KEYWORDS {
            let v = t.kw.get(kw);
            if !v.is_null() {
                obs.set(format!("units.{k}.keywords.{kw}"), v);
            }
        }
    }
    for s in Side::BOTH {
        for w in st.pids(s) {
            let pl = st.player(w);
            let n = if st.team {
                format!("{}.{}", s.as_str(), w.letter())
            } else {
                s.as_str().to_string()
            };
            obs.set(format!("force.{n}"), pl.force);
            obs.set(format!("build.{n}"), pl.build);
            obs.list(format!("hand.{n}"), &st.keys_of(&pl.hand));
            obs.list(format!("deck.{n}"), &st.keys_of(&pl.deck));
            obs.list(format!("discard.{n}"), &st.keys_of(&pl.discard));
            obs.set(format!("bounty.{n}.force"), pl.bounty.force);
            obs.set(format!("bounty.{n}.build"), pl.bounty.build);
        }
    }
    for a in Arena::ALL {
        obs.set(
            format!("control.{}", a.as_str()),
            st.controller(a).map(|s| s.as_str()),
        );
    }
    obs.set("winner", e.winner.map(|s| s.as_str()));
    obs.list("resolved", &e.resolved);
    obs.list("attack_order", &e.attack_order);
    for (i, a) in e.attacks.iter().enumerate() {
        let p = |x: &str| format!("attacks.{}.{x}", i + 1);
        obs.set(p("attacker"), a.attacker.as_str());
        obs.set(p("defender"), a.defender.as_str());
        obs.set(p("dice"), json!(a.dice));
        obs.set(p("hits"), a.hits);
        obs.set(p("damage"), a.damage);
        obs.set(p("disrupted"), a.disrupted);
    }
}
