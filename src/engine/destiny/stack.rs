//! Cards stacked facedown on a set-aside card ("set this card aside and stack
//! a card from your hand on it facedown"), and playing them from there.

use super::engine::{Ctx, Engine, R, Stop, rej};
use super::rules as r;
use super::state::{Zone, seat_name};
use crate::engine::{Actor, Event, NeedKind};

/// Stack the card of the user's hand the decision's `stack:` names facedown
/// on the card with the ability.
pub fn stack_from_hand(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let Some(host) = ctx.source else {
        return Ok(false);
    };
    let Some(n) = ctx.step.as_ref().and_then(|d| d.step.stack.clone()) else {
        return Err(en.need(by, NeedKind::Choice, "the card stacked facedown (`stack:`)"));
    };
    let c = en.card_named(Some(&n), r::HAND)?;
    if !en.st.hand[usize::from(by)].contains(&c) {
        return rej(format!("{n} is not in {}'s hand", seat_name(by)), r::HAND);
    }
    en.st.unlist(c);
    en.st.cards[c].zone = Zone::SetAside;
    en.st.stacked.push((host, c));
    let t = format!(
        "{} stacks a card from their hand facedown on {}",
        seat_name(by),
        en.key(host)
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::SET_ASIDE_ZONE],
    );
    Ok(true)
}

/// Play the card stacked on another set-aside copy of `title` (the
/// decision's `uses:`, or the only one) for free, then discard that copy to
/// its owner's discard pile. A play restriction that keeps the stacked card
/// from being played sends it to its owner's discard pile.
pub fn play_stacked(en: &mut Engine, title: &str, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let Some(d) = ctx.step.clone() else {
        return Ok(false);
    };
    let cands: Vec<(usize, usize)> = en
        .st
        .stacked
        .iter()
        .copied()
        .filter(|&(h, _)| Some(h) != ctx.source && en.stat.defs[h].title == title)
        .collect();
    let pick = match (d.step.uses.as_ref(), cands.as_slice()) {
        (_, []) => {
            let t = format!("no other {title} has a card stacked on it: nothing is played");
            en.log(Actor::Player(by), Event::Result, t, &[r::SET_ASIDE_ZONE]);
            return Ok(false);
        }
        (Some(n), _) => cands
            .iter()
            .copied()
            .find(|&(h, _)| en.key(h) == n.as_str()),
        (None, [one]) => Some(*one),
        (None, _) => {
            let what = format!("the copy of {title} whose stacked card is played (`uses:`)");
            return Err(en.need(by, NeedKind::Choice, what));
        }
    };
    let Some((h, c)) = pick else {
        return rej(
            format!("that is not another {title} with a card stacked on it"),
            r::SET_ASIDE_ZONE,
        );
    };
    en.st.stacked.retain(|&(x, _)| x != h);
    let t = format!(
        "{} plays the card stacked facedown on {} ({}), for free",
        seat_name(by),
        en.key(h),
        en.key(c)
    );
    en.log(
        Actor::Player(by),
        Event::Result,
        t,
        &[r::FREE, r::SET_ASIDE_ZONE],
    );
    let mut d2 = d.clone();
    d2.step.card = Some(en.key(c).to_string());
    let cost = en.stat.defs[c].cost.unwrap_or(0).max(0);
    match en.play_card(by, c, &d2, cost) {
        Err(Stop::Rej(e)) if [r::PLAY_RESTRICTIONS, r::SPOTTING].contains(&e.rule) => {
            en.st.cards[c].controller = en.st.cards[c].owner;
            en.st.put(c, Zone::Discard);
            let t = format!(
                "{} cannot be played ({}): it is discarded to {}'s discard pile",
                en.key(c),
                e.reason,
                seat_name(en.st.cards[c].owner)
            );
            en.log(
                Actor::Rules,
                Event::Result,
                t,
                &[r::PLAY_RESTRICTIONS, e.rule],
            );
        }
        other => other?,
    }
    en.st.put(h, Zone::Discard);
    let t = format!(
        "{} is discarded to {}'s discard pile",
        en.key(h),
        seat_name(en.st.cards[h].owner)
    );
    en.log(Actor::Player(by), Event::StateChange, t, &[r::DISCARD_PILE]);
    Ok(true)
}
