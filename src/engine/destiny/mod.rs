//! The Star Wars: Destiny engine (Rules Reference v1.8).
//!
//! A run is a pure function of (board, script). Layout:
//!
//! - `model`: the YAML board, card abilities (trigger, cost, condition, effect) and script steps.
//! - `state`: cards, dice, zones, resources, the battlefield, the round's bookkeeping.
//! - `rules`: every section ID the engine cites.
//! - `engine`: rounds, turns, activate, reroll, card actions, claim, upkeep, extra actions.
//! - `actions`: playing a card (seven steps) and resolving dice.
//! - `effects`: the queue (first in, first out), "before"/"after"/replacement abilities,
//!   damage, shields, defeat; `apply`: each effect.
//! - `check`: board checks and the observable paths.
//! - `library`: cards named from the library or the imported databases.
//! - `switch`: switching an upgrade in play with one in hand.
//! - `next`: limits effects put on a player's next action or turn.
//! - `repeat`: an effect an opponent repeats by discarding.

mod actions;
mod apply;
mod attach;
mod borrow;
mod check;
pub mod effects;
pub mod engine;
mod held;
pub mod library;
pub mod model;
mod next;
mod repeat;
pub mod rules;
mod side;
mod stack;
pub mod state;
mod switch;

use crate::engine::{
    Actor, BoardError, End, Event, Game, GameRules, Leftover, Observations, Players, RunResult,
    Scripted, Seat,
};
use model::{Affiliation, Board, CardType, Placed, SEATS, Step};
use state::{DieAt, Phase, State, Static, Zone, seat_name};

/// Star Wars: Destiny, as the scenario layer sees it.
pub struct Destiny;

impl GameRules for Destiny {
    const GAME: Game = Game::Destiny;
    type Board = Board;
    type Step = Step;

    fn players(_: &Board) -> Players {
        Players::new(SEATS[0], SEATS[1])
    }

    fn seat(_: &Board, step: &Step) -> Result<Seat, String> {
        match (step.player1, step.player2) {
            (Some(_), None) => Ok(0),
            (None, Some(_)) => Ok(1),
            _ => Err(
                "each script step names exactly one player: `player1: <verb>` or `player2: <verb>`"
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
        run(board, script)
    }

    fn start(board: &Board) -> Observations {
        let (stat, st) = setup(board);
        observe(&engine::Engine::new(&stat, st, Vec::new()), board)
    }
}

/// Run a board with its script.
pub fn run(board: &Board, script: &[Scripted<Step>]) -> RunResult {
    let (stat, st) = setup(board);
    let mut e = engine::Engine::new(&stat, st, script.to_vec());
    e.note_library();
    if board.check_team {
        for p in 0..2u8 {
            let t = team(board, p);
            let text = format!(
                "{}'s team: {} points{}",
                seat_name(p),
                t.points,
                if t.problems.is_empty() {
                    ", legal".to_string()
                } else {
                    format!(": {}", t.problems.join("; "))
                }
            );
            e.log(
                Actor::Player(p),
                Event::Result,
                text,
                &[rules::S1_BUILDING_A_TEAM, rules::POINT_VALUE_S],
            );
        }
    }
    e.run();
    let end = e.end.clone().unwrap_or(End::Complete);
    let leftover: Vec<Leftover> = e
        .script
        .remaining()
        .iter()
        .map(|d| Leftover {
            at: d.at,
            player: Actor::Player(d.player),
            decision: e.describe(d),
        })
        .collect();
    let players = Players::new(SEATS[0], SEATS[1]);
    e.log(Actor::Rules, Event::Stop, end.sentence(&players), &[]);
    for l in &leftover {
        let t = format!("decision {} left over: {}", l.at.step, l.decision);
        e.log(Actor::Rules, Event::Stop, t, &[]);
    }
    let observations = observe(&e, board);
    RunResult {
        players,
        trace: e.trace,
        end,
        illegal: e.illegal,
        leftover,
        observations,
    }
}

/// Build the fixed data and the starting state from a board (checked by the loader).
pub fn setup(board: &Board) -> (Static, State) {
    let mut stat = Static::build(board);
    let mut st = State::new(stat.keys.len());
    for c in 0..stat.keys.len() {
        st.cards[c].ctype = stat.defs[c].card_type;
    }
    fn place(stat: &Static, st: &mut State, p: Seat, x: &Placed, on: Option<usize>) {
        let Some(c) = stat.find(&x.card.value) else {
            return;
        };
        let s = &mut st.cards[c];
        s.zone = Zone::Play;
        s.owner = p;
        s.controller = p;
        s.on = on;
        s.damage = x.damage;
        s.shields = x.shields;
        s.exhausted = x.exhausted;
        for u in &x.upgrades {
            place(stat, st, p, u, Some(c));
        }
    }
    let mut elite = vec![false; stat.keys.len()];
    for p in 0..2u8 {
        let side = board.side(p);
        for x in side.characters.iter().chain(&side.supports) {
            place(&stat, &mut st, p, x, None);
            if x.elite
                && let Some(c) = stat.find(&x.card.value)
            {
                elite[c] = true;
            }
        }
        if let Some(pl) = &side.plot
            && let Some(c) = stat.find(&pl.value)
        {
            st.cards[c].zone = Zone::Play;
            st.cards[c].owner = p;
            st.cards[c].controller = p;
        }
        let lists = [
            (&side.hand, Zone::Hand),
            (&side.deck, Zone::Deck),
            (&side.discard, Zone::Discard),
            (&side.set_aside, Zone::SetAside),
        ];
        for (list, z) in lists {
            for k in list {
                if let Some(c) = stat.find(&k.value) {
                    st.cards[c].owner = p;
                    st.cards[c].controller = p;
                    st.put(c, z);
                }
            }
        }
        for (host, k) in &side.stacked {
            if let (Some(h), Some(c)) = (stat.find(host), stat.find(&k.value)) {
                st.cards[c].owner = p;
                st.cards[c].controller = p;
                st.cards[c].zone = Zone::SetAside;
                st.stacked.push((h, c));
            }
        }
        st.resources[usize::from(p)] = side.resources;
    }
    if let Some(bf) = &board.battlefield
        && let Some(c) = stat.find(&bf.card.value)
    {
        let ctl = bf.controller.map(|n| n.seat());
        st.unlist(c);
        st.cards[c].zone = Zone::Play;
        st.cards[c].owner = ctl.unwrap_or(0);
        st.cards[c].controller = ctl.unwrap_or(0);
        st.battlefield = Some(c);
        st.bf_controller = ctl;
    }
    // Dice: one per card with a die, two for an elite character.
    for (c, &is_elite) in elite.iter().enumerate() {
        let faces = stat.card_faces(c);
        if faces.is_empty() {
            continue;
        }
        let n = if is_elite { 2 } else { 1 };
        for i in 0..n {
            let id = if i == 0 {
                stat.keys[c].clone()
            } else {
                format!("{}#2", stat.keys[c])
            };
            stat.die_ids.push(id);
            stat.faces.push(faces.clone());
            st.dice.push(state::DieSt {
                at: if st.cards[c].zone == Zone::Play {
                    DieAt::OnCard
                } else {
                    DieAt::SetAside
                },
                card: c,
                controller: st.cards[c].controller,
            });
        }
    }
    for p in 0..2u8 {
        for (id, face) in &board.side(p).pool {
            if let Some(x) = stat.die(id)
                && let Some(f) = stat.faces[x].iter().position(|f| f.raw == face.value)
            {
                st.dice[x].at = DieAt::Pool(f);
                st.dice[x].controller = p;
            }
        }
    }
    st.round = board.round;
    st.phase = match board.phase {
        Some(model::PhaseName::Upkeep) => Phase::Upkeep,
        _ => Phase::Action,
    };
    st.turn = board
        .first
        .map(|n| n.seat())
        .or(st.bf_controller)
        .unwrap_or(0);
    st.book.claimed = board.claimed.map(|n| n.seat());
    for r in &board.replaced {
        st.book.replaced[usize::from(r.seat())] = true;
    }
    (stat, st)
}

/// A team's points and what breaks the team-building rules.
pub struct Team {
    pub points: i64,
    pub problems: Vec<String>,
}

pub fn team(board: &Board, p: Seat) -> Team {
    let side = board.side(p);
    let mut points = 0;
    let mut problems = Vec::new();
    let mut titles: Vec<&str> = Vec::new();
    let mut affs = Vec::new();
    let chars: Vec<(&str, bool)> = side
        .characters
        .iter()
        .map(|x| (x.card.value.as_str(), x.elite))
        .chain(side.set_aside.iter().map(|k| (k.value.as_str(), false)))
        .collect();
    for (k, elite) in chars {
        let Some(d) = board.cards.get(k).map(|d| &d.value) else {
            continue;
        };
        if d.card_type != CardType::Character {
            continue;
        }
        let v = if elite {
            d.points.get(1)
        } else {
            d.points.first()
        };
        points += v.copied().unwrap_or(0);
        if d.unique {
            if titles.contains(&d.title.as_str()) {
                problems.push(format!("two copies of the unique character {}", d.title));
            }
            titles.push(&d.title);
        }
        affs.extend(d.affiliation);
    }
    let mut limit = 30;
    if let Some(pl) = &side.plot
        && let Some(d) = board.cards.get(&pl.value)
    {
        let v = d.value.points.first().copied().unwrap_or(0);
        if v < 0 {
            limit -= v;
        } else {
            points += v;
        }
    }
    if points > limit {
        problems.push(format!("{points} points, more than {limit}"));
    }
    if affs.contains(&Affiliation::Hero) && affs.contains(&Affiliation::Villain) {
        problems.push("hero and villain characters on the same team".into());
    }
    if titles.is_empty() && side.characters.is_empty() {
        problems.push("no character".into());
    }
    Team { points, problems }
}

fn observe(e: &engine::Engine, board: &Board) -> Observations {
    let st = &e.st;
    let stat = e.stat;
    let mut o = Observations::default();
    for c in 0..stat.keys.len() {
        let k = &stat.keys[c];
        let s = &st.cards[c];
        let zone = if st.battlefield == Some(c) {
            "battlefield"
        } else {
            s.zone.as_str()
        };
        o.set(format!("cards.{k}.zone"), zone);
        o.set(
            format!("cards.{k}.on"),
            s.on.map_or(serde_json::Value::Null, |h| stat.keys[h].clone().into()),
        );
        o.set(format!("cards.{k}.type"), s.ctype.as_str());
        o.set(format!("cards.{k}.damage"), s.damage);
        o.set(format!("cards.{k}.shields"), s.shields);
        o.set(format!("cards.{k}.exhausted"), s.exhausted);
        o.set(format!("cards.{k}.controller"), seat_name(s.controller));
        let ups: Vec<&str> = st
            .upgrades(c)
            .iter()
            .map(|&u| stat.keys[u].as_str())
            .collect();
        o.list(format!("cards.{k}.upgrades"), &ups);
    }
    for (x, id) in stat.die_ids.iter().enumerate() {
        let v = match st.dice[x].at {
            DieAt::Pool(f) => stat.faces[x][f].raw.clone(),
            DieAt::OnCard => "on_card".into(),
            DieAt::SetAside => "set_aside".into(),
            DieAt::Held(c) => format!("on {}", stat.keys[c]),
        };
        o.set(format!("dice.{id}"), v);
    }
    for p in 0..2u8 {
        let n = seat_name(p);
        let ids: Vec<&str> = st
            .pool(p)
            .iter()
            .map(|&x| stat.die_ids[x].as_str())
            .collect();
        o.list(format!("pool.{n}"), &ids);
        let i = usize::from(p);
        o.set(format!("players.{n}.resources"), st.resources[i]);
        o.set(format!("players.{n}.hand_size"), e.hand_size(p));
        for (name, list) in [
            ("hand", &st.hand[i]),
            ("deck", &st.deck[i]),
            ("discard", &st.discard[i]),
            ("set_aside", &st.set_aside[i]),
        ] {
            let keys: Vec<&str> = list.iter().map(|&c| stat.keys[c].as_str()).collect();
            o.list(format!("players.{n}.{name}"), &keys);
        }
        if board.check_team {
            let t = team(board, p);
            o.set(format!("team.{n}.points"), t.points);
            o.set(format!("team.{n}.legal"), t.problems.is_empty());
            o.list(format!("team.{n}.problems"), &t.problems);
        }
    }
    let name = |s: Option<Seat>| s.map_or(serde_json::Value::Null, |s| seat_name(s).into());
    o.set(
        "battlefield.card",
        st.battlefield
            .map_or(serde_json::Value::Null, |c| stat.keys[c].clone().into()),
    );
    o.set("battlefield.controller", name(st.bf_controller));
    o.set("battlefield.claimed_by", name(st.book.claimed));
    o.set("winner", name(st.winner));
    o.set("round", st.round);
    o.set(
        "phase",
        match st.phase {
            Phase::Action => "action",
            Phase::Upkeep => "upkeep",
            Phase::Over => "over",
        },
    );
    o.set("next", seat_name(st.turn));
    o.list("resolved", &e.resolved);
    o.list("turns", &e.turns);
    let delayed: Vec<String> = st
        .delayed
        .iter()
        .map(|d| format!("{}: defeat {}", stat.keys[d.source], stat.keys[d.target]))
        .collect();
    o.list("delayed", &delayed);
    o
}
