//! Phases: top-level actions, two passes ending a phase, the next phase of the turn.

use super::engine::*;
use super::rules as r;
use super::stack::{ActionKind, Entry};
use crate::engine::End;
use crate::engine::swccg::model::{AbilityKind, Limit, Phase};
use crate::engine::{Actor, Event};

impl Engine {
    pub(super) fn top_level(&mut self) -> Flow {
        if self.phase_over {
            if self.phase == Phase::EndOfTurn && !self.turn_over_noted {
                self.turn_over_noted = true;
                self.note_turn_over();
            }
            // The run goes on into the next phase only while the script has decisions for it.
            if self.script.peek().is_none() || self.phase == self.through {
                self.outcome = Some(End::PhaseEnded {
                    phase: format!("{} phase", self.phase.as_str()),
                });
                return Err(Stop::Halt);
            }
            // `through:` is at most the draw phase, so a next phase always exists here;
            // the end of the turn is not modelled.
            let Some(next) = next_phase(self.phase) else {
                self.outcome = Some(End::PhaseEnded {
                    phase: format!("{} phase", self.phase.as_str()),
                });
                return Err(Stop::Halt);
            };
            self.begin_phase(next);
            if !self.stack.is_empty() {
                // Mandatory actions of a start or end of turn resolve first.
                return Ok(());
            }
        }
        let p = self.top_next;
        match self.ask(p, Window::TopLevel) {
            Asked::Stop => Err(Stop::Halt),
            Asked::Pass => {
                self.top_passes += 1;
                if self.top_passes >= 2 {
                    self.end_phase();
                } else {
                    self.top_next = p.other();
                }
                Ok(())
            }
            Asked::Act(d) => {
                let snap = self.before_possible.then(|| self.snapshot());
                match self.initiate(&d, Window::TopLevel) {
                    Ok(()) if std::mem::take(&mut self.backed_up) => {}
                    Ok(()) => {
                        self.attempt = snap.map(|snap| Attempt {
                            snap,
                            window: Window::TopLevel,
                        });
                        self.top_passes = 0;
                        self.top_next = p.other();
                    }
                    Err(e) => self.reject(&d, e),
                }
                Ok(())
            }
        }
    }

    /// The next phase of the same turn begins: the player whose turn it is performs
    /// its first top-level action; once-per-phase limits start again, once-per-turn
    /// limits do not.
    pub(super) fn begin_phase(&mut self, next: Phase) {
        let ended = self.phase;
        if next == Phase::EndOfTurn {
            self.recirculate_all();
        }
        self.phase = next;
        self.phase_over = false;
        self.top_passes = 0;
        self.top_next = self.turn;
        let before = self.usage.len();
        self.usage.retain(|u| {
            self.st.def(u.card).abilities[u.ability].limit != Some(Limit::OncePerPhase)
        });
        let reset = before - self.usage.len();
        self.mandatory_done.clear();
        self.attempt = None;
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "the {} phase ends and {}'s {} phase begins; {} performs the first top-level action{}",
                ended.as_str(),
                self.turn.name(),
                next.as_str(),
                self.turn.name(),
                if reset > 0 { format!(" ({reset} once-per-phase use(s) no longer count; once-per-turn uses still do)") } else { String::new() }
            ),
            &[r::ORDER_OF_EVENTS, r::TYPES_OF_ACTIONS, r::ONE_RULE],
        );
        if next == Phase::Activate {
            self.count_generation(self.turn);
        }
        if next == Phase::EndOfTurn {
            self.end_durations();
        }
        self.begin_turn_frame();
    }

    pub(super) fn end_phase(&mut self) {
        self.log(
            Actor::Rules,
            Event::Phase,
            format!(
                "two consecutive passes with an empty stack: the {} phase ends",
                self.phase.as_str()
            ),
            &[r::TYPES_OF_ACTIONS],
        );
        self.phase_over = true;
        if self.phase == Phase::StartOfGame {
            self.finish_start_of_game();
        }
        // Mandatory actions not performed become automatic actions responding to the end of the time frame.
        let mut due = Vec::new();
        for c in 0..self.st.cards.len() {
            if !self.st.active(c) {
                continue;
            }
            for (a, ab) in self.st.def(c).abilities.iter().enumerate() {
                if ab.kind == AbilityKind::Mandatory
                    && ab.during.is_none_or(|ph| ph == self.phase)
                    && !self.mandatory_done.contains(&(c, a))
                {
                    due.push((c, a));
                }
            }
        }
        // Pushed so that the first listed resolves first.
        for &(c, a) in due.iter().rev() {
            let owner = self.st.owner(c);
            let text = self.ability_text(c, a);
            self.log(
                Actor::Rules,
                Event::Push,
                format!(
                    "{}'s mandatory action was not performed during the phase: it becomes an automatic action ({text})",
                    self.name(c)
                ),
                &[r::MANDATORY_ACTIONS],
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
}

/// The phase after `p` in the same turn (AR: Order Of Events In A Turn); `None` after the draw phase.
pub(super) fn next_phase(p: Phase) -> Option<Phase> {
    match p {
        Phase::Activate => Some(Phase::Control),
        Phase::Control => Some(Phase::Deploy),
        Phase::Deploy => Some(Phase::Battle),
        Phase::Battle => Some(Phase::Move),
        Phase::Move => Some(Phase::Draw),
        Phase::Draw => Some(Phase::EndOfTurn),
        Phase::StartOfTurn => Some(Phase::Activate),
        Phase::EndOfTurn | Phase::StartOfGame => None,
    }
}
