//! Dice placed on another card ("remove an opponent's character die and
//! place it here") and dice removed earlier rolled back in ("roll one of
//! those removed dice into your pool").

use super::engine::{Ctx, Engine, R, rej};
use super::rules as r;
use super::state::{DieAt, DieIx, Ix, other, seat_name};
use crate::engine::{Actor, Event, NeedKind, Seat};

/// The die the ability just removed goes onto the card with the ability,
/// under that card's controller's control.
pub fn place_here(en: &mut Engine, ctx: &Ctx) {
    let (Some(c), Some(&x)) = (ctx.source, en.last_removed.last()) else {
        return;
    };
    en.st.dice[x].at = DieAt::Held(c);
    en.st.dice[x].controller = ctx.by;
    let t = format!(
        "die {} is placed on {}, under {}'s control: it is not rolled with its card",
        en.die_id(x),
        en.key(c),
        seat_name(ctx.by)
    );
    en.log(
        Actor::Player(ctx.by),
        Event::StateChange,
        t,
        &[r::REMOVING_DICE, r::CONTROLLER],
    );
}

/// Dice held on `c`, as it leaves play, go back to their cards (set aside
/// when their card is no longer in play), under their owners' control.
pub fn release(en: &mut Engine, c: Ix) {
    for x in 0..en.st.dice.len() {
        if en.st.dice[x].at != DieAt::Held(c) {
            continue;
        }
        let card = en.st.dice[x].card;
        let back = en.st.in_play(card);
        en.st.dice[x].at = if back { DieAt::OnCard } else { DieAt::SetAside };
        en.st.dice[x].controller = en.st.cards[card].controller;
        let t = format!(
            "{} leaves play: die {} returns to {}{}",
            en.key(c),
            en.die_id(x),
            en.key(card),
            if back {
                ""
            } else {
                " (not in play: set aside)"
            }
        );
        en.log(Actor::Rules, Event::StateChange, t, &[r::REMOVING_DICE]);
    }
}

/// `p`'s dice removed during an opponent's last turn this round that are
/// still theirs and out of every pool.
pub fn removed_last_turn(en: &Engine, p: Seat) -> Vec<DieIx> {
    let round = en.st.round;
    let Some(last) = en
        .st
        .turns
        .iter()
        .rposition(|&(q, rd)| q == other(p) && rd == round)
    else {
        return Vec::new();
    };
    let mut out: Vec<DieIx> = en
        .st
        .removals
        .iter()
        .filter(|m| m.turn == last && m.whose == p)
        .map(|m| m.die)
        .filter(|&x| en.st.dice[x].controller == p && en.st.dice[x].at == DieAt::OnCard)
        .collect();
    out.dedup();
    out
}

/// Roll one of those dice (the decision's `dice:`) into the user's pool.
pub fn roll_removed(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let cands = removed_last_turn(en, by);
    let Some(d) = ctx.step.clone() else {
        return Err(en.need(by, NeedKind::Choice, "the removed die rolled (`dice:`)"));
    };
    let x = match d.step.dice.as_slice() {
        [one] => match en.stat.die(one) {
            Some(x) if cands.contains(&x) => x,
            _ => {
                return rej(
                    format!(
                        "die {one} is not one of {}'s dice removed during an opponent's last turn this round",
                        seat_name(by)
                    ),
                    r::REMOVING_DICE,
                );
            }
        },
        _ if cands.is_empty() => return Ok(false),
        _ => return Err(en.need(by, NeedKind::Choice, "the removed die rolled (`dice:`)")),
    };
    en.roll(by, &[x], &d)?;
    Ok(true)
}
