//! Disrupt POPs: when an attack is declared or a Mission is completed, both
//! players may play disrupt effects, Dark Side first; disrupts may be
//! disrupted. A disrupt card's other effects occur only if and when it
//! resolves: the last disrupt played resolves first and cancels the one it
//! answers.

use super::effects::{Ctx, enhanced};
use super::engine::{Engine, Flow, reject};
use super::model::{Effect, Side, Step, Timing};
use super::rules as r;
use super::state::{CardIx, Pid};
use crate::engine::Event;
use std::cell::RefCell;

/// A disrupt card played in the POP, waiting to resolve.
struct Played {
    who: Pid,
    card: CardIx,
    effects: Vec<Effect>,
}

fn disrupts(effects: &[Effect]) -> bool {
    effects
        .iter()
        .any(|x| matches!(x, Effect::DisruptAttack | Effect::DisruptMission))
}

impl<'a> Engine<'a> {
    /// A disrupt POP (an attack declared, a Mission completed): true if the
    /// action is disrupted, i.e. the first disrupt played resolves.
    pub fn disrupt_pop(
        &mut self,
        timing: Timing,
        what: &str,
        cites: &[&'static str],
    ) -> Flow<bool> {
        let chain: RefCell<Vec<Played>> = RefCell::new(Vec::new());
        {
            let opts = |e: &Engine, s: Side| {
                e.can_play(s, timing, None)
                    || (!chain.borrow().is_empty() && e.can_play(s, Timing::DisruptCard, None))
            };
            let judge = |e: &Engine, s: Side, st: &Step| {
                let c = st.card().and_then(|k| e.st.find(k));
                let t = c.and_then(|c| e.card_activated(c)).map(|a| a.timing);
                if t == Some(Timing::DisruptCard) {
                    if chain.borrow().is_empty() {
                        return Err(reject(
                            "there is no disrupt to disrupt yet",
                            &[r::POP, r::G_DISRUPT],
                        ));
                    }
                    return e.judge_card(s, st, Timing::DisruptCard);
                }
                e.judge_card(s, st, timing)
            };
            let mut play = |e: &mut Engine<'a>, s: Side, st: &Step| {
                let c = st.card().and_then(|k| e.st.find(k));
                let act = c.and_then(|c| e.card_activated(c));
                let (Some(c), Some(a)) = (c, act) else {
                    return e.play(s, st, Ctx::default());
                };
                let effects = enhanced(&a, st.enhance);
                let chained = a.timing == Timing::DisruptCard;
                if !chained && !disrupts(&effects) {
                    return e.play(s, st, Ctx::default());
                }
                let who = e.st.holder(c).unwrap_or(Pid::from(s));
                e.pay_card(s, c, st.enhance);
                let t = format!(
                    "{} waits to resolve until the disrupt POP ends{}",
                    e.st.card_label(c),
                    if chained {
                        " (it disrupts the disrupt before it)"
                    } else {
                        ""
                    }
                );
                e.by(s, Event::Push, t, &[r::POP, r::G_DISRUPT]);
                chain.borrow_mut().push(Played {
                    who,
                    card: c,
                    effects,
                });
                Ok(())
            };
            self.pop(what, cites, &opts, &judge, &mut play)?;
        }
        self.resolve_disrupts(chain.into_inner())
    }

    /// The last disrupt resolves first and cancels the one before it; a
    /// cancelled disrupt's effects never occur. True if the first resolves.
    fn resolve_disrupts(&mut self, chain: Vec<Played>) -> Flow<bool> {
        let mut cancelled = false;
        let mut first = false;
        for (i, p) in chain.into_iter().enumerate().rev() {
            let label = self.st.card_label(p.card);
            if cancelled {
                let t = format!("{label} is disrupted: its effects don't occur");
                self.rules(Event::Cancel, t, &[r::POP, r::G_DISRUPT]);
                cancelled = false;
                continue;
            }
            let t = format!("{label} resolves");
            self.rules(Event::Pop, t, &[r::POP, r::G_DISRUPT]);
            self.resolved.push(format!("play:{}", self.st.keys[p.card]));
            self.run_effects(p.who, None, &p.effects, None, Ctx::default())?;
            cancelled = true;
            first = i == 0;
        }
        Ok(first)
    }
}
