//! Control: gaining control of a unit (for good or until end of turn),
//! control returning to the original controller, and one player with two
//! unique cards of the same name (completed, or gained).

use super::engine::{Answer, Engine, Flow, reject};
use super::model::{Kind, Step, Verb};
use super::rules as r;
use super::state::{PZone, Pid, PieceIx, same_unit};
use crate::engine::{Event, NeedKind};

impl<'a> Engine<'a> {
    /// Gain control of a unit: its stack changes sides; its Pilots and
    /// Equipment keep their controllers and still grant it their effects.
    /// `this_turn`: control returns to the original controller at the end of turn.
    pub fn gain_control(&mut self, w: Pid, t: PieceIx, this_turn: bool) -> Flow<()> {
        let before = self.st.pid_of(t);
        if before == w {
            return Ok(());
        }
        self.st.pieces[t].side = w.side;
        self.st.pieces[t].player = w.p;
        if this_turn && self.st.pieces[t].returns_to.is_none() {
            self.st.pieces[t].returns_to = Some(before);
        }
        let riders = !self.st.riders(t, true).is_empty() || !self.st.riders(t, false).is_empty();
        let txt = format!(
            "{} gains control of {}{}{}",
            self.st.who(w),
            self.st.label(t),
            if this_turn { " until end of turn" } else { "" },
            if riders {
                " (its Pilots and Equipment keep their controller and still grant it their effects)"
            } else {
                ""
            }
        );
        let cites: &[&'static str] = match (riders, this_turn) {
            (true, _) => &[r::G_CONTROL, r::CONTROL_OF_PILOTS, r::EQUIPMENT_CARDS],
            (false, true) => &[r::G_CONTROL, r::G_THIS_TURN],
            (false, false) => &[r::G_CONTROL],
        };
        self.rules(Event::StateChange, txt, cites);
        self.unique_clash(t)
    }

    /// At the end of turn, control gained "this turn" is turned back over to
    /// the original controlling player, with every version stacked on the
    /// unit before and after control was gained.
    pub fn control_ends(&mut self) -> Flow<()> {
        for p in 0..self.st.pieces.len() {
            let Some(w) = self.st.pieces[p].returns_to.take() else {
                continue;
            };
            if self.st.pieces[p].zone == PZone::Gone {
                continue;
            }
            self.st.pieces[p].side = w.side;
            self.st.pieces[p].player = w.p;
            let t = format!(
                "control of {} returns to {} with every version in its stack ({} cards)",
                self.st.label(p),
                self.st.who(w),
                self.st.pieces[p].stack.len()
            );
            self.rules(
                Event::StateChange,
                t,
                &[r::G_CONTROL, r::G_THIS_TURN, r::END_OF_TURN],
            );
            self.unique_clash(p)?;
        }
        Ok(())
    }

    /// Whether a piece is a face-up unique card in play (a unit in an arena,
    /// the build zone or piloting; Equipment attached to a unit: completed
    /// Equipment waits in the build zone until it is equipped or stacked).
    fn unique_in_play(&self, q: PieceIx) -> bool {
        let pc = &self.st.pieces[q];
        if pc.stack.is_empty() {
            return false;
        }
        let equipment = self.st.top_def(q).kind == Kind::Equipment;
        let zone_ok = match pc.zone {
            PZone::Gone | PZone::Location(_) => false,
            PZone::BuildZone => !equipment,
            _ => true,
        };
        zone_ok && !pc.face_down && self.st.top_def(q).version.is_some()
    }

    /// A player who completes a second unique unit or Equipment with the
    /// same name, or gains control of one, discards the one with the lower
    /// build cost, or pays Force equal to the difference in build cost to
    /// discard the higher cost one. The player chooses (`choose`, `target:`).
    pub fn unique_clash(&mut self, p: PieceIx) -> Flow<()> {
        if !self.unique_in_play(p) {
            return Ok(());
        }
        let w = self.st.pid_of(p);
        let equipment = self.st.top_def(p).kind == Kind::Equipment;
        let name = self.st.top_def(p).name.clone();
        let other = (0..self.st.pieces.len()).find(|&q| {
            q != p
                && self.unique_in_play(q)
                && self.st.pid_of(q) == w
                && (self.st.top_def(q).kind == Kind::Equipment) == equipment
                && same_unit(&self.st.top_def(q).name, &name)
        });
        let teammate = (0..self.st.pieces.len()).any(|q| {
            q != p
                && self.unique_in_play(q)
                && self.st.pieces[q].side == w.side
                && self.st.pid_of(q) != w
                && (self.st.top_def(q).kind == Kind::Equipment) == equipment
                && same_unit(&self.st.top_def(q).name, &name)
        });
        if other.is_none() && teammate {
            return self.not_modelled(
                "Two-Headed Wookiee: teammates each with a unique card of the same name in play",
                &[r::CONTESTING, r::DISTINCTIONS],
            );
        }
        let Some(q) = other else { return Ok(()) };
        let cost = |e: &Engine, x: PieceIx| e.st.top_def(x).cost;
        let diff = (cost(self, p) - cost(self, q)).abs();
        let t = format!(
            "{} has two unique cards named {name}: {} (build cost {}) and {} (build cost {}); discard the lower cost one, or pay {diff} Force to discard the higher cost one",
            self.st.who(w),
            self.st.label(p),
            cost(self, p),
            self.st.label(q),
            cost(self, q)
        );
        self.rules(Event::Window, t, &[r::CONTESTING]);
        let force = self.st.player(w).force;
        let judge = move |e: &Engine, st: &Step| {
            let x = e.target_of(st).filter(|&x| x == p || x == q);
            let Some(x) = x.filter(|_| st.verb() == Verb::Choose) else {
                return Err(reject(
                    "choose which of the two to discard (`choose`, `target:`)",
                    &[r::CONTESTING],
                ));
            };
            let y = if x == p { q } else { p };
            if cost(e, x) > cost(e, y) && diff > force {
                return Err(reject(
                    format!(
                        "discarding the higher cost one costs {diff} Force (the difference in build cost); {force} Force is available"
                    ),
                    &[r::CONTESTING, r::G_PAY],
                ));
            }
            e.payer(w, st)
        };
        let what = format!("which {name} to discard");
        let Answer::Do(st) = self.ask(w.side, NeedKind::Choice, &what, true, &judge)? else {
            return Ok(());
        };
        let Some(x) = self.target_of(&st) else {
            return Ok(());
        };
        let y = if x == p { q } else { p };
        let paid = if cost(self, x) > cost(self, y) {
            diff
        } else {
            0
        };
        self.st.player_mut(w).force -= paid;
        let label = self.st.label(x);
        let key = self.st.key(x).to_string();
        self.st.discard_piece(x);
        self.resolved.push(format!("discard:{key}"));
        let t = format!(
            "{} discards {label}{} (it still triggers discard effects); its cards go to their owner's discard pile",
            self.st.who(w),
            if paid > 0 {
                format!(", paying {paid} Force")
            } else {
                String::new()
            }
        );
        self.by(
            w.side,
            Event::StateChange,
            t,
            &[r::CONTESTING, r::G_DISCARD, r::PRIMARY_RULES],
        );
        Ok(())
    }
}
