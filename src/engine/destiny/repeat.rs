//! What an opponent may do during another player's ability: "then that
//! opponent may discard a card from their hand to repeat this effect", "any
//! opponent may give you 1 resource to remove this die".

use super::engine::{Ctx, Engine, R, rej};
use super::model::{Effect, Verb};
use super::rules as r;
use super::state::{DieAt, other, seat_name};
use crate::engine::{Actor, Event, NeedKind};

/// Carry out `effect`, then again each time the opponent discards a card from
/// their hand to repeat it (a `use` of the card with the ability, naming the
/// card in `discard:`), until they decline or have no card left.
pub fn repeat_on_discard(en: &mut Engine, effect: &[Effect], ctx: &mut Ctx) -> R<bool> {
    let o = other(ctx.by);
    let Some(source) = ctx.source else {
        return Ok(false);
    };
    let key = en.key(source).to_string();
    let mut full = true;
    loop {
        for e in effect {
            full &= en.apply(e, ctx)?;
        }
        if en.st.hand[usize::from(o)].is_empty() {
            let t = format!(
                "{} has no card to discard: the effect is not repeated",
                seat_name(o)
            );
            en.log(Actor::Player(o), Event::Result, t, &[r::HAND]);
            return Ok(full);
        }
        let ask = format!(
            "discard a card to repeat {key}'s effect, or decline (`use`/`decline`, card: {key})"
        );
        let d = en.use_or_decline(o, &key, ask.clone())?;
        if d.step.verb() == Some(Verb::Decline) {
            let t = format!(
                "{} does not discard: the effect is not repeated",
                seat_name(o)
            );
            en.log(Actor::Player(o), Event::Pass, t, &[r::THEN_EFFECTS]);
            return Ok(full);
        }
        let pick = match d.step.discard.as_slice() {
            [one] => en
                .stat
                .find(one)
                .filter(|c| en.st.hand[usize::from(o)].contains(c)),
            _ => None,
        };
        let Some(c) = pick else {
            let why = format!(
                "name one card of {}'s hand to discard (`discard:`)",
                seat_name(o)
            );
            en.reject(&d, why, r::HAND);
            return Err(en.need(o, NeedKind::Response, ask));
        };
        let t = format!(
            "{} discards {} to repeat the effect",
            seat_name(o),
            en.key(c)
        );
        en.log(
            Actor::Player(o),
            Event::StateChange,
            t,
            &[r::THEN_EFFECTS, r::HAND],
        );
        en.discard_from_hand(o, c)?;
    }
}

/// The opponent may give the user `amount` resources to remove the die of the
/// card with the ability from the pool (a `use` of that card by the opponent,
/// or `decline`).
pub fn opponent_may_pay_to_remove(en: &mut Engine, amount: i64, ctx: &mut Ctx) -> R<bool> {
    let (by, o) = (ctx.by, other(ctx.by));
    let Some(source) = ctx.source else {
        return Ok(false);
    };
    let key = en.key(source).to_string();
    let dice: Vec<usize> = en
        .st
        .dice_of(source)
        .into_iter()
        .filter(|&x| matches!(en.st.dice[x].at, DieAt::Pool(_)))
        .collect();
    if dice.is_empty() {
        return Ok(false);
    }
    let ask = format!(
        "give {amount} resource(s) to remove {key}'s die, or decline (`use`/`decline`, card: {key})"
    );
    let d = en.use_or_decline(o, &key, ask)?;
    if d.step.verb() == Some(Verb::Decline) {
        let t = format!("{} gives nothing: {key}'s die stays", seat_name(o));
        en.log(
            Actor::Player(o),
            Event::Pass,
            t,
            &[r::PART_6_GAME_CONCEPTS_RESOURCES],
        );
        return Ok(false);
    }
    if en.st.resources[usize::from(o)] < amount {
        return rej(
            format!("{} has not {amount} resource(s) to give", seat_name(o)),
            r::PART_6_GAME_CONCEPTS_RESOURCES,
        );
    }
    en.st.resources[usize::from(o)] -= amount;
    en.st.resources[usize::from(by)] += amount;
    let t = format!(
        "{} gives {} {amount} resource(s) to remove {}",
        seat_name(o),
        seat_name(by),
        en.die_list(&dice)
    );
    en.log(
        Actor::Player(o),
        Event::StateChange,
        t,
        &[r::PART_6_GAME_CONCEPTS_RESOURCES, r::REMOVING_DICE],
    );
    en.leave_pool(&dice, &d)?;
    Ok(true)
}
