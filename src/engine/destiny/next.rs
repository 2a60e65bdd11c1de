//! Limits an effect puts on a player's next action or turn: "force an opponent
//! to activate one of their characters as their next action", "they must play
//! that event as their next action, if able", "that opponent cannot take the
//! same action that you just took on their next turn". Passing is not an
//! action: a limit on the next action outlasts a pass; a limit on the next
//! turn ends with that turn, pass or not.

use super::engine::{Ctx, Engine, R, rej};
use super::model::{CardType, Must, Step, Verb};
use super::rules as r;
use super::state::{NextKind, NextRule, other, seat_name};
use crate::engine::{Actor, Event, NeedKind, Scripted, Seat};

/// An opponent must take a given action next, if able.
pub fn force_next(en: &mut Engine, must: Must, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let o = other(by);
    let Some(source) = ctx.source else {
        return Ok(false);
    };
    let kind = match must {
        Must::Activate => NextKind::Activate,
        Must::PlayChosen => {
            let named = ctx.step.as_ref().and_then(|d| d.step.play.clone());
            let Some(n) = named else {
                return Err(en.need(
                    by,
                    NeedKind::Choice,
                    "the event chosen in the opponent's hand (`play:`)",
                ));
            };
            let c = en.card_named(Some(&n), r::CHOOSE_TARGET)?;
            let in_hand = en.st.hand[usize::from(o)].contains(&c);
            if !in_hand || en.stat.defs[c].card_type != CardType::Event {
                return rej(
                    format!("{n} is not an event in {}'s hand", seat_name(o)),
                    r::CHOOSE_TARGET,
                );
            }
            NextKind::Play(c)
        }
    };
    let t = match &kind {
        NextKind::Play(c) => format!(
            "{}'s hand is revealed: {} must play {} as their next action this round, if able",
            seat_name(o),
            seat_name(o),
            en.key(*c)
        ),
        _ => format!(
            "{} must activate one of their characters as their next action this round, if able",
            seat_name(o)
        ),
    };
    impose(
        en,
        by,
        t,
        NextRule {
            player: o,
            kind,
            source,
        },
    )
}

/// Record `rule` on the opponent's next action, traced as `t`.
fn impose(en: &mut Engine, by: Seat, t: String, rule: NextRule) -> R<bool> {
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::EFFECTS, r::ACTIONS],
    );
    en.st.next_action.push(rule);
    Ok(true)
}

/// An opponent cannot take the action just taken on their next turn.
pub fn forbid_same_action(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let o = other(by);
    let (Some(source), Some(v)) = (ctx.source, en.last_verb) else {
        return Ok(false);
    };
    let t = format!(
        "{} cannot take the same action ({}) on their next turn",
        seat_name(o),
        v.as_str()
    );
    let rule = NextRule {
        player: o,
        kind: NextKind::Not(v),
        source,
    };
    impose(en, by, t, rule)
}

impl Engine<'_> {
    /// Whether the limits on `p`'s next action or turn allow the decision:
    /// `Err` says which limit it breaks.
    pub(super) fn next_action_allowed(&self, p: Seat, d: &Scripted<Step>) -> Result<(), String> {
        let verb = d.step.verb();
        for n in self.st.next_action.iter().filter(|n| n.player == p) {
            let src = self.key(n.source);
            match &n.kind {
                NextKind::Not(v) if verb == Some(*v) => {
                    return Err(format!(
                        "{src}: {} cannot {} on this turn",
                        seat_name(p),
                        v.as_str()
                    ));
                }
                NextKind::Activate if verb != Some(Verb::Activate) && self.can_activate(p) => {
                    return Err(format!(
                        "{src}: {} must activate one of their characters as their next action",
                        seat_name(p)
                    ));
                }
                NextKind::Play(c)
                    if (verb != Some(Verb::Play)
                        || d.step.card.as_deref() != Some(self.key(*c)))
                        && self.can_play(p, *c) =>
                {
                    return Err(format!(
                        "{src}: {} must play {} as their next action, as they are able to",
                        seat_name(p),
                        self.key(*c)
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Whether `p` has a character they can activate.
    fn can_activate(&self, p: Seat) -> bool {
        self.st
            .characters(p)
            .iter()
            .any(|&c| !self.st.cards[c].exhausted)
    }

    /// Whether `p` can play card `c` from hand: it is there, they can pay its
    /// cost, and they spot the color its play restriction asks for.
    fn can_play(&self, p: Seat, c: usize) -> bool {
        let def = &self.stat.defs[c];
        let spots = |col| self.spots(p, col);
        self.st.hand[usize::from(p)].contains(&c)
            && def.cost.unwrap_or(0) <= self.st.resources[usize::from(p)]
            && def.only.as_ref().is_none_or(|o| {
                o.spot.is_none_or(spots)
                    && (def.card_type != CardType::Event || o.color.is_none_or(spots))
            })
    }
}
