//! A battle's weapons segment on the board: the players alternate actions, the
//! battle's initiator first; firing a weapon (`fire`) is an action on the stack that
//! can be responded to, and its weapon destiny is an ordinary destiny draw. Two
//! consecutive passes end the segment (AR: Weapons Segment).

use super::battle::Defense;
use super::engine::*;
use super::state::CardIx;
use super::values::cite;
use crate::engine::swccg::model::{PileName, Side, Verb};
use crate::engine::{Actor, Event, NeedKind};

impl Engine {
    /// The next action of the weapons segment of the battle at stack index `ix`.
    pub(super) fn weapons_step(&mut self, ix: usize) -> Flow {
        let Some((p, passes)) = self.stack[ix].segment else {
            return Ok(());
        };
        if self.end_if_no_presence(ix) {
            return Ok(());
        }
        if passes >= 2 {
            self.stack[ix].segment = None;
            self.stack[ix].weapons_done = true;
            let label = self.stack[ix].label.clone();
            self.log(
                Actor::Rules,
                Event::Phase,
                format!("{label}: both players passed consecutively: the weapons segment ends"),
                &[cite::WEAPONS_SEGMENT],
            );
            return self.battle_begin(ix);
        }
        if let Some(w) = self.stack[ix].repeating {
            return self.repeat_step(ix, p, w);
        }
        let can = self.can_fire(ix, p) || self.can_act(p, Window::Response(ix));
        let next = self.script.peek().cloned();
        match next {
            Some(d) if d.by == p && d.verb == Verb::Deploy && self.is_arrival(&d) => {
                self.script.take();
                let reason = format!(
                    "too late: {} may deploy to the battle only as a response to its initiation, and those responses ended when both players passed",
                    d.step
                        .card
                        .as_deref()
                        .and_then(|k| self.st.find(k))
                        .map_or("the card", |c| self.st.title(c))
                );
                self.reject(&d, rej(reason, cite::INITIATE_BATTLE));
            }
            Some(d) if d.by == p && self.is_weapons_action(&d) => {
                self.script.take();
                match self.initiate(&d, Window::Response(ix)) {
                    Ok(()) => self.stack[ix].segment = Some((p.other(), 0)),
                    Err(e) => self.reject(&d, e),
                }
            }
            Some(d) if d.verb == Verb::Fire && d.by == p => {
                self.script.take();
                match self.fire(ix, &d) {
                    Ok(w) => self.after_fire(ix, p, w),
                    Err(e) => self.reject(&d, e),
                }
            }
            Some(d) if d.verb == Verb::Pass && d.by == p => {
                self.script.take();
                self.segment_pass(ix, "weapons segment", cite::WEAPONS_SEGMENT);
            }
            Some(d) if d.verb == Verb::Fire && can => {
                self.script.take();
                let reason = format!(
                    "out of turn: {} has the next action in the weapons segment (actions alternate)",
                    p.name()
                );
                self.reject(&d, rej(reason, cite::WEAPONS_SEGMENT));
            }
            None if can => {
                self.need(
                    p,
                    NeedKind::Action,
                    "fire a weapon or pass (weapons segment)".into(),
                );
                return Err(Stop::Halt);
            }
            _ => {
                // No weapon to fire (or the next decision belongs to a later segment).
                let why = if can {
                    "its next decision belongs to a later segment"
                } else {
                    "no weapon it can fire"
                };
                let what = format!("weapons segment: {why}");
                self.segment_pass(ix, &what, cite::WEAPONS_SEGMENT);
            }
        }
        Ok(())
    }

    /// The player whose turn it is in the alternating segment of the action at `ix`
    /// passes (`what`: the segment, and why when not by choice); the other player acts
    /// next.
    pub(super) fn segment_pass(&mut self, ix: usize, what: &str, cite: &'static str) {
        let Some((p, passes)) = self.stack[ix].segment else {
            return;
        };
        self.log(
            actor(p),
            Event::Pass,
            format!("{} passes ({what})", p.name()),
            &[cite],
        );
        self.stack[ix].segment = Some((p.other(), passes + 1));
    }

    /// The battle's location.
    fn battle_at(&self, ix: usize) -> Option<usize> {
        self.stack[ix].targets.iter().find_map(|(_, t)| match t {
            super::stack::Tgt::Location(l) => Some(*l),
            _ => None,
        })
    }

    /// Could `p` fire any weapon now?
    fn can_fire(&self, ix: usize, p: Side) -> bool {
        let Some(l) = self.battle_at(ix) else {
            return false;
        };
        let here = self.cards_at(l);
        (0..self.st.cards.len())
            .filter(|&w| self.st.def(w).weapon.is_some() && self.st.owner(w) == p)
            .any(|w| here.iter().any(|&t| self.check_fire(ix, p, w, t).is_ok()))
    }

    /// Firing conditions and target of `w` at `t` in the battle at `ix` (not its costs).
    fn check_fire_conditions(
        &self,
        ix: usize,
        p: Side,
        w: CardIx,
        t: CardIx,
    ) -> Result<(), Rejection> {
        let title = self.st.title(w);
        let Some(def) = self.st.def(w).weapon.as_ref() else {
            return Err(rej(
                format!("{title} is not a weapon"),
                cite::FIRING_WEAPONS,
            ));
        };
        let at = self.battle_at(ix);
        self.check_shooter(p, w, at)?;
        let fired = self.stack[ix].fired.iter().filter(|&&x| x == w).count();
        let limit = def.per_battle.unwrap_or(1) as usize;
        if fired >= limit && self.stack[ix].repeating != Some(w) {
            return Err(if def.repeat.is_some() {
                rej(
                    format!(
                        "{title} fires repeatedly only while its owner keeps firing it: once its owner stopped, it may not begin firing again"
                    ),
                    super::rules::REPEATING_WEAPONS,
                )
            } else {
                let mut e = rej(
                    format!(
                        "{title} has already fired {fired} time(s) in this battle, its limit (a weapon fires once per battle unless it says otherwise)"
                    ),
                    cite::FIRING_WEAPONS,
                );
                e.also.push(super::rules::REPEATING_WEAPONS);
                e.also.push(super::weapon_fire::WHEN_CAN_I_FIRE);
                e
            });
        }
        self.check_target(p, w, t, at)
    }

    /// Can `p` fire weapon `w` at `t` in the battle at `ix`?
    fn check_fire(&self, ix: usize, p: Side, w: CardIx, t: CardIx) -> Result<(), Rejection> {
        self.check_fire_conditions(ix, p, w, t)?;
        let title = self.st.title(w);
        let reserve = self.st.pile_len(p, PileName::ReserveDeck);
        if reserve == 0 {
            return Err(rej(
                format!(
                    "{} may not fire {title}: weapon destiny must be drawn and {}'s Reserve Deck is empty",
                    p.name(),
                    p.name()
                ),
                cite::WEAPONS_DESTINY,
            ));
        }
        let force = self.st.pile_len(p, PileName::ForcePile) as u32;
        let (cost, _) = self.fire_cost(ix, w);
        if cost > force {
            return Err(rej(
                format!(
                    "firing {title} uses {cost} Force; {} has {force} in Force Pile",
                    p.name()
                ),
                super::rules::PAYING_COSTS,
            ));
        }
        Ok(())
    }

    /// The value a weapon fires against as the board stands (`None`: the card has
    /// none): its ability, armor or maneuver as modified, or its defense value (AR
    /// Defense Value: a character's highest of the three, a starship's or vehicle's
    /// armor or maneuver, or the defense value the card gives).
    pub(super) fn stat_of(&self, t: CardIx, d: Defense) -> Option<i64> {
        self.fired_against(t, d).0
    }

    /// The value a weapon fires against and what it is: "Red 5's maneuver"; a defense
    /// value names the value it is based on.
    pub(super) fn fired_against(&self, t: CardIx, d: Defense) -> (Option<i64>, String) {
        let name = super::weapon_fire::defense_name(d);
        let stat = if d == Defense::Defense {
            "defense"
        } else {
            name
        };
        let total = super::card_values::value(&self.st, t, stat);
        let what = match (d, total.terms.first()) {
            (Defense::Defense, Some(base)) => base.source.clone(),
            _ => format!("{}'s {name}", self.name(t)),
        };
        (total.value, what)
    }

    /// `fire`: a weapon fires at a target; an action on the stack responding to the
    /// battle, whose result draws weapon destiny and, if it is greater, hits the target.
    pub(super) fn fire(&mut self, ix: usize, d: &Decision) -> Result<CardIx, Rejection> {
        let p = d.by;
        let w = self.decision_card(d, cite::FIRING_WEAPONS)?;
        let t = d
            .step
            .target
            .first()
            .and_then(|k| self.st.find(k))
            .ok_or_else(|| rej("`fire` names its target", cite::FIRING_WEAPONS))?;
        let permit = self.battle_permit(d, w)?;
        if let Some((v, _)) = permit.as_ref().filter(|(_, pm)| pm.instead.is_some()) {
            self.check_fire_conditions(ix, p, w, t)
                .map_err(|e| e.and(super::weapon_fire::INSTEAD_OF_FIRING))?;
            self.stack[ix].fired.push(w);
            self.push_instead(p, w, t, *v, ix);
            return Ok(w);
        }
        self.check_fire(ix, p, w, t)?;
        let (base, why) = self.fire_cost(ix, w);
        let f = self.firing(p, w, d, permit, base)?;
        let v = f.permit.as_ref().map_or(w, |(v, _)| *v);
        self.stack[ix].fired.push(w);
        if let Some((text, rule)) = why {
            self.log(actor(p), Event::Initiate, text, &[rule]);
        }
        self.push_fire(p, w, t, f, Some(ix), v);
        Ok(w)
    }

    /// A weapon hit: the card is hit in the battle the weapon fires in.
    pub(super) fn hit(&mut self, ix: usize, t: CardIx, forfeit_zero: bool) {
        let Some(b) = self.stack[ix]
            .responding_to
            .filter(|&b| b < self.stack.len())
        else {
            return;
        };
        self.stack[b].hits.push((t, forfeit_zero));
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{} is hit (turned sideways, still participating){}",
                self.st.title(t),
                if forfeit_zero {
                    "; its forfeit is 0"
                } else {
                    ""
                }
            ),
            &[cite::WEAPON_HITS, cite::FIRING_WEAPONS],
        );
    }
}
