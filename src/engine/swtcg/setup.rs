//! Before the first turn: the build-point bid for a side, and setup
//! (building from the starting build points, back and forth).

use super::engine::{Answer, Engine, Flow, reject};
use super::model::{Kind, Side, Step, Verb};
use super::rules as r;
use super::state::{PZone, add_piece};
use crate::engine::{Event, NeedKind};

/// The result of a side bid: for each seat, the side it plays and its starting build points.
#[derive(Debug, Clone, Default)]
pub struct BidResult {
    pub sides: [Option<Side>; 2],
    pub build: [i64; 2],
}

impl<'a> Engine<'a> {
    /// The side bid: lower the starting build points back and forth from 30; the
    /// player who lets go plays the other side with 30.
    pub fn side_bid(&mut self, side: Side, first: usize) -> Flow<BidResult> {
        let seat = |i: usize| if i == 0 { Side::Dark } else { Side::Light };
        let mut cur = 30;
        let mut last: Option<usize> = None;
        let mut who = first;
        let t = format!("bidding build points for {}, from 30", side.name());
        self.rules(Event::Window, t, &[r::CHOOSE_SIDES]);
        loop {
            let judge = |_: &Engine, st: &Step| match (st.verb(), st.amount) {
                (Verb::Pass, _) => Ok(()),
                (Verb::Bid, Some(n)) if n < cur && n >= 0 => Ok(()),
                _ => Err(reject(
                    format!("bid fewer than {cur} starting build points, or let go (pass)"),
                    &[r::CHOOSE_SIDES],
                )),
            };
            match self.ask(seat(who), NeedKind::Choice, "side bid", true, &judge)? {
                Answer::Do(st) => {
                    cur = st.amount.unwrap_or(cur);
                    last = Some(who);
                    let t = format!("{} bids {cur}", self.names[who]);
                    self.log(
                        super::engine::actor(seat(who)),
                        Event::Result,
                        t,
                        &[r::CHOOSE_SIDES],
                    );
                }
                Answer::Pass => break,
            }
            who = 1 - who;
        }
        let winner = last.unwrap_or(1 - who);
        let mut out = BidResult::default();
        out.sides[winner] = Some(side);
        out.sides[1 - winner] = Some(side.other());
        out.build[winner] = if last.is_some() { cur } else { 30 };
        out.build[1 - winner] = 30;
        let t = format!(
            "{} wins {} and starts at {} build points; {} starts at 30",
            self.names[winner],
            side.name(),
            out.build[winner],
            self.names[1 - winner]
        );
        self.rules(Event::Result, t, &[r::CHOOSE_SIDES]);
        Ok(out)
    }

    /// Setup: Dark Side first, each player builds until its total is greater, back and forth.
    pub fn setup_builds(&mut self) -> Flow<[i64; 2]> {
        let mut total = [0i64; 2];
        let mut done = [false; 2];
        let mut cur = Side::Dark;
        self.rules(
            Event::Phase,
            "setup: the Dark Side builds first",
            &[r::SETUP],
        );
        while !(done[0] && done[1]) {
            let me = cur.ix();
            let pl = self.st.player(cur).clone();
            let judge = |e: &Engine, st: &Step| {
                let c = st.card().and_then(|k| e.st.find(k));
                match st.verb() {
                    Verb::Pass => Ok(()),
                    Verb::Deploy | Verb::Build => {
                        let c = c
                            .filter(|c| pl.hand.contains(c))
                            .ok_or_else(|| reject("build a card from your hand", &[r::SETUP]))?;
                        let d = e.st.def(c);
                        if !matches!(d.kind, Kind::Unit | Kind::Resource) {
                            return Err(reject(
                                "in setup you build only unit cards and 1 Resource card",
                                &[r::SETUP],
                            ));
                        }
                        if st.onto.is_some() {
                            return e.not_modelled_reject("stacking during setup");
                        }
                        let cost = if st.verb() == Verb::Build {
                            st.amount.unwrap_or(0)
                        } else {
                            d.cost
                        };
                        if cost > pl.build || cost < 0 {
                            return Err(reject(
                                format!("{cost} is more than the {} build points left", pl.build),
                                &[r::SETUP, r::G_PAY],
                            ));
                        }
                        if st.verb() == Verb::Deploy
                            && d.kind == Kind::Unit
                            && !st.arena.is_some_and(|a| d.types.contains(&a))
                        {
                            return Err(reject(
                                "put the unit into an arena of its type",
                                &[r::SETUP, r::UNIT_CARDS],
                            ));
                        }
                        Ok(())
                    }
                    _ => Err(reject(
                        "in setup: deploy a card, build your last card face-down, or pass when done",
                        &[r::SETUP],
                    )),
                }
            };
            let can = pl.build > 0 && !pl.hand.is_empty();
            let st = match self.ask(cur, NeedKind::Action, "setup build", can, &judge)? {
                Answer::Pass => {
                    done[me] = true;
                    self.by(
                        cur,
                        Event::StateChange,
                        format!("{} is done building", cur.name()),
                        &[r::SETUP],
                    );
                    cur = cur.other();
                    continue;
                }
                Answer::Do(st) => st,
            };
            let Some(c) = st.card().and_then(|k| self.st.find(k)) else {
                continue;
            };
            self.st.player_mut(cur).hand.retain(|&x| x != c);
            if st.verb() == Verb::Build {
                let n = st.amount.unwrap_or(0);
                self.st.player_mut(cur).build -= n;
                let p = add_piece(&mut self.st, cur, PZone::BuildZone, c);
                self.st.pieces[p].face_down = true;
                self.st.pieces[p].counters = n;
                done[me] = true;
                let t = format!(
                    "{} puts its last card face-down in the build zone with {n} counters",
                    cur.name()
                );
                self.by(cur, Event::StateChange, t, &[r::SETUP]);
                cur = cur.other();
                continue;
            }
            let cost = self.st.def(c).cost;
            self.st.player_mut(cur).build -= cost;
            total[me] += cost;
            if self.st.def(c).kind == Kind::Resource {
                self.st.player_mut(cur).resource = Some(c);
            } else {
                add_piece(
                    &mut self.st,
                    cur,
                    PZone::Arena(st.arena.unwrap_or(super::model::Arena::Space)),
                    c,
                );
            }
            let t = format!(
                "{} builds {} ({cost}): total {} against {}; {} build points left",
                cur.name(),
                self.st.card_label(c),
                total[me],
                total[1 - me],
                self.st.player(cur).build
            );
            self.by(cur, Event::StateChange, t, &[r::SETUP]);
            self.draw(cur, 1);
            if total[me] > total[1 - me] && !done[1 - me] {
                cur = cur.other();
            }
        }
        Ok(total)
    }

    fn not_modelled_reject(&self, what: &str) -> Result<(), super::engine::Rejection> {
        Err(reject(format!("{what} is not modelled"), &[r::SETUP]))
    }
}
