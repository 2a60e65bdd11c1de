//! Results with several players (AR Steps Of An Action - 3: Result). The result of an
//! action is itself automatic actions: "each player must activate 2 Force" has two
//! targets, so the player whose turn it is decides who activates first; activating
//! each Force is an action of its own, which can be responded to, while the action
//! whose result this is can no longer be (the time for responses to it has passed).

use super::effects::Applied;
use super::engine::{Engine, Flow, actor, rej};
use super::model::{PileName, Side, Verb};
use super::stack::{ActionKind, Entry};
use crate::engine::Event;

pub const RESULT: &str = "swccg.ar.steps-of-an-action-3-result";
pub const AUTOMATIC_ACTIONS: &str = "swccg.ar.automatic-actions";
pub const ACTIVATING_FORCE: &str = "swccg.ar.activating-force";

/// Every section this file cites.
pub const IDS: &[&str] = &[RESULT, AUTOMATIC_ACTIONS, ACTIVATING_FORCE];

impl Engine {
    /// "Each player must activate `n` Force": the player whose turn it is decides who
    /// activates first; each Force is then one action, in that order.
    pub(super) fn each_activates(&mut self, ix: usize, label: &str, n: u32) -> Applied {
        let chooser = self.turn;
        let first = loop {
            if let Some(d) = self
                .script
                .peek()
                .cloned()
                .filter(|d| d.by != chooser && d.verb == Verb::First)
            {
                self.script.take();
                let why = format!(
                    "{} decides who activates first for {label}: it is {}'s turn",
                    chooser.name(),
                    chooser.name()
                );
                self.reject(&d, rej(why, RESULT).and(AUTOMATIC_ACTIONS));
                continue;
            }
            let Some(d) = self.take_next_of(chooser, Verb::First) else {
                self.need_choice(
                    chooser,
                    format!("who activates first for {label} (`first`)"),
                );
                return Applied::Stop;
            };
            match d.step.player {
                Some(p) => break p,
                None => self.reject(
                    &d,
                    rej("`first` names the `player:` who acts first", RESULT),
                ),
            }
        };
        self.log(
            actor(chooser),
            Event::StateChange,
            format!(
                "{label}: each player must activate {n} Force; {} (whose turn it is) decides that {} activates first; each Force activated is an action of its own",
                chooser.name(),
                first.name()
            ),
            &[RESULT, AUTOMATIC_ACTIONS],
        );
        for side in [first.other(), first] {
            for _ in 0..n {
                self.stack[ix]
                    .pending
                    .push_front(super::model::Effect::ActivateOne(side));
            }
        }
        Applied::Done
    }

    /// One Force activated by `side`, pushed as an action of its own (responses to it
    /// come before it has its result).
    pub(super) fn activate_one(&mut self, ix: usize, label: &str, side: Side) -> Applied {
        let done = self
            .resolved
            .iter()
            .filter(|l| l.starts_with(&format!("{label}: {} activates", side.as_str())))
            .count();
        let mut e = Entry::new(
            ActionKind::Activation { side },
            side,
            None,
            format!("{label}: {} activates {}", side.as_str(), done + 1),
        );
        e.responding_to = Some(ix);
        e.next = side.other();
        let text = format!(
            "{} activates one Force for {label} (an action of its own)",
            side.name()
        );
        self.stack.push(e);
        self.log(actor(side), Event::Push, text, &[RESULT, ACTIVATING_FORCE]);
        Applied::Pushed
    }

    /// The result of one activation: the top card of the Reserve Deck to the Force Pile.
    pub(super) fn activation_result(&mut self, ix: usize, side: Side) -> Flow {
        let moved = self
            .st
            .move_top(side, PileName::ReserveDeck, PileName::ForcePile, 1);
        self.st.force[side.ix()].activated += i64::from(moved);
        self.log(
            actor(side),
            Event::StateChange,
            if moved == 1 {
                format!("{} activates 1 Force", side.name())
            } else {
                format!(
                    "{} has no card in the Reserve Deck to activate",
                    side.name()
                )
            },
            &[ACTIVATING_FORCE],
        );
        self.finish(ix);
        Ok(())
    }
}
