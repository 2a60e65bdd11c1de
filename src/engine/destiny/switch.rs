//! Switching an upgrade in play with one in hand.

use super::engine::{Ctx, Engine, R, rej};
use super::model::{CardType, Color};
use super::rules as r;
use super::state::{DieAt, Zone, seat_name};
use crate::engine::{Actor, Event, NeedKind};

/// Switch the upgrade with the ability (`ctx.source`) with an upgrade in the
/// user's hand (the decision's `play:`) of `color` and one of `subtypes`: the
/// new upgrade takes its place, ignoring play restrictions and paying nothing
/// (switching is not playing); the old one returns to its owner's hand. Then,
/// with `roll_cost`, the user may spend that many resources to roll the new
/// upgrade's die into their pool (when the decision's `roll:` names it).
pub fn switch_upgrade(
    en: &mut Engine,
    color: Option<Color>,
    subtypes: &[String],
    roll_cost: Option<i64>,
    ctx: &mut Ctx,
) -> R<bool> {
    let by = ctx.by;
    let Some(old) = ctx.source.filter(|&c| en.st.in_play(c)) else {
        return Ok(false);
    };
    let Some(holder) = en.st.cards[old].on else {
        return Ok(false);
    };
    if en.st.cards[old].owner != by {
        let t = format!(
            "{} is not {}'s card: a player cannot have an opponent's card in their hand, so the switch has no effect",
            en.key(old),
            seat_name(by)
        );
        en.log(Actor::Player(by), Event::Result, t, &[r::HAND, r::OWNER]);
        return Ok(false);
    }
    let Some(d) = ctx.step.clone() else {
        return Ok(false);
    };
    let Some(n) = d.step.play.clone() else {
        return Err(en.need(
            by,
            NeedKind::Choice,
            "the upgrade in hand to switch with (`play:`)",
        ));
    };
    let new = en.card_named(Some(&n), r::UPGRADES)?;
    let def = &en.stat.defs[new];
    let fits = en.st.hand[usize::from(by)].contains(&new)
        && def.card_type == CardType::Upgrade
        && color.is_none_or(|c| def.color == Some(c))
        && (subtypes.is_empty() || subtypes.iter().any(|s| def.subtypes.contains(s)));
    if !fits {
        return rej(
            format!(
                "{n} is not an upgrade in {}'s hand this ability can switch in",
                seat_name(by)
            ),
            r::UPGRADES,
        );
    }
    en.leave_play(old, Zone::Hand);
    en.st.unlist(new);
    let s = &mut en.st.cards[new];
    s.zone = Zone::Play;
    s.on = Some(holder);
    s.controller = by;
    s.exhausted = false;
    for x in en.st.dice_of(new) {
        en.st.dice[x].at = DieAt::OnCard;
    }
    let t = format!(
        "{} is switched with {n} from hand: {n} is attached to {} ignoring its play restrictions, for no cost; {} returns to the hand",
        en.key(old),
        en.key(holder),
        en.key(old)
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::UPGRADES, r::PLAY_RESTRICTIONS, r::FREE],
    );
    let Some(cost) = roll_cost else {
        return Ok(true);
    };
    let dice = en.st.dice_of(new);
    if dice.is_empty() || !dice.iter().any(|&x| d.step.roll.contains_key(en.die_id(x))) {
        let t = format!(
            "{} does not spend {cost} resource(s) to roll {n}'s die",
            seat_name(by)
        );
        en.log(Actor::Player(by), Event::Pass, t, &[r::THEN_EFFECTS]);
        return Ok(true);
    }
    if en.st.resources[usize::from(by)] < cost {
        return rej(
            format!("{} cannot spend {cost} resource(s)", seat_name(by)),
            r::PART_6_GAME_CONCEPTS_RESOURCES,
        );
    }
    en.st.resources[usize::from(by)] -= cost;
    let t = format!(
        "{} spends {cost} resource(s) to roll {n}'s die",
        seat_name(by)
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::THEN_EFFECTS, r::ROLLING],
    );
    en.roll(by, &dice, &d)?;
    Ok(true)
}
