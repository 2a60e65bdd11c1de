//! Resolving a side of a die that is not rolled: "discard a card from your
//! hand to resolve one of the sides of its die". The side is resolved as a die
//! showing it would be; the die itself never enters a pool.

use super::actions::Aim;
use super::engine::{Ctx, Engine, R, rej};
use super::rules as r;
use super::state::{face_value, seat_name};
use crate::cards::die::Symbol;
use crate::engine::{Actor, End, Event, NeedKind};

/// Resolve the side the decision's `side:` names of the die of the card the
/// ability discarded (its `discard:`), if that card has a die.
pub fn resolve_side(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let Some(d) = ctx.step.clone() else {
        return Ok(false);
    };
    let Some(c) = d
        .step
        .discard
        .first()
        .and_then(|n| en.stat.find(n))
        .filter(|c| en.st.discard[usize::from(by)].contains(c))
    else {
        return rej(
            "name the card discarded from hand (`discard:`)",
            r::DISCARD_PILE,
        );
    };
    let faces = en.stat.card_faces(c);
    if faces.is_empty() {
        let t = format!("{} has no die: there is no side to resolve", en.key(c));
        en.log(Actor::Player(by), Event::Result, t, &[r::SPECIAL_ABILITIES]);
        return Ok(false);
    }
    let Some(side) = d.step.side.clone() else {
        return Err(en.need(
            by,
            NeedKind::Choice,
            format!("the side of {}'s die resolved (`side:`)", en.key(c)),
        ));
    };
    let Some(f) = faces.into_iter().find(|f| f.raw == side) else {
        return rej(format!("{}'s die has no side {side}", en.key(c)), r::SYMBOL);
    };
    if f.symbol == Symbol::Blank {
        return rej(
            format!("{side} is a blank, which cannot be resolved"),
            r::BLANK,
        );
    }
    if f.modifier {
        return rej(
            format!("{side} is a modifier, which cannot be resolved by itself"),
            r::MODIFIER,
        );
    }
    let Some(value) = face_value(&f) else {
        let what = format!("an X value on a side of {}'s die", en.key(c));
        en.trace.not_modelled(
            en.level,
            Actor::Player(by),
            what.clone(),
            &[r::X_AS_A_VARIABLE],
        );
        return Err(en.halt(End::NotModelled { what }));
    };
    let cost = i64::from(f.cost.unwrap_or(0));
    if en.st.resources[usize::from(by)] < cost {
        return rej(
            format!(
                "{} cannot pay the resource cost {cost} of {side}",
                seat_name(by)
            ),
            r::RESOURCE_COST,
        );
    }
    en.st.resources[usize::from(by)] -= cost;
    let t = format!(
        "{} resolves the side {side} of {}'s die ({value} {}); the die is not rolled and is not in a pool",
        seat_name(by),
        en.key(c),
        f.symbol.name()
    );
    en.log(
        Actor::Player(by),
        Event::Result,
        t,
        &[r::SPECIAL_ABILITIES, r::DICE_POOL],
    );
    let target = Aim::Named(ctx.targets.get(ctx.next_target).cloned());
    if f.symbol != Symbol::Special {
        ctx.next_target += 1;
    }
    en.symbol_effect(by, f.symbol, value, c, target, &d, &[])?;
    Ok(true)
}
