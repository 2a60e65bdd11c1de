//! Carrying out one effect of an ability.

use super::actions::Aim;
use super::effects::{Dmg, Turning, Whose};
use super::engine::{Ctx, Engine, R, rej};
use super::model::{Amount, CardType, Color, Counted, DamageKind, DieFilter, Effect, Target, Who};
use super::rules as r;
use super::state::{DieAt, Ix, Zone, other, seat_name, symbol_shows};
use crate::engine::{Actor, Event, NeedKind, Seat};

fn amount_of(en: &Engine, a: Amount, ctx: &Ctx) -> i64 {
    match a {
        Amount::N(n) => n,
        Amount::Removed => ctx.removed.unwrap_or(0),
        Amount::YourCharacters => en.st.characters(ctx.by).len() as i64,
        Amount::RemainingHealth => ctx.source.map_or(0, |c| en.st.remaining_health(en.stat, c)),
        Amount::YourShields => en
            .st
            .characters(ctx.by)
            .iter()
            .map(|&c| en.st.cards[c].shields)
            .sum(),
        Amount::ThisDamage => ctx.source.map_or(0, |c| en.st.cards[c].damage),
        Amount::RemovedOpponentsDice => en
            .last_removed
            .iter()
            .filter(|&&x| en.st.dice[x].controller != ctx.by)
            .count() as i64,
        // Counted by the effect resolving the die, which knows its card.
        Amount::DieCardShields => 0,
        Amount::RemovedDice => ctx.removed_dice as i64,
        Amount::OtherCopiesInDiscard => ctx.source.map_or(0, |c| en.other_copies_in_discard(c)),
        Amount::OpponentsCharacters => en.st.characters(other(ctx.by)).len() as i64,
        Amount::Counted => ctx.counted.unwrap_or(0),
    }
}

/// Carry out `e`; `Ok(false)` if it did not resolve in full. One arm per effect.
pub fn apply(en: &mut Engine, e: &Effect, ctx: &mut Ctx) -> R<bool> {
    match e {
        Effect::Damage {
            amount: a,
            to,
            unblockable,
            up_to,
            color,
        } => damage(en, *a, (*to, *up_to, *color), *unblockable, ctx),
        Effect::Block { amount: a } => block(en, *a, ctx),
        Effect::Indirect {
            amount: a,
            yourself,
        } => indirect(en, *a, *yourself, ctx),
        Effect::Shields {
            amount: a,
            to,
            distributed,
        } => shields(en, *a, *to, *distributed, ctx),
        Effect::Heal { amount: a, to } => heal(en, *a, *to, ctx),
        Effect::RemoveShields { amount: a, to } => remove_shields(en, *a, *to, ctx),
        Effect::Gain {
            amount: a,
            each_player,
            opponent,
        } => gain(en, *a, (*each_player, *opponent), ctx),
        Effect::Spend { amount: a } => spend(en, *a, ctx),
        Effect::Lose { amount: a } => lose(en, *a, ctx),
        Effect::Take { amount: a } => take(en, *a, ctx),
        Effect::Draw {
            amount: a,
            each_player,
        } => draw(en, *a, *each_player, ctx),
        Effect::DrawToHandSize => draw_to_hand_size(en, ctx),
        Effect::DiscardTop {
            amount: a,
            opponents,
        } => discard_top(en, *a, *opponents, ctx),
        Effect::FromDiscard { types } => from_discard(en, types, ctx),
        Effect::DiscardRandom { amount: a } => discard_random(en, *a, ctx),
        Effect::RemoveDie { filter, place_here } => {
            let done = remove_die(en, filter, ctx)?;
            if done && *place_here {
                super::held::place_here(en, ctx);
            }
            Ok(done)
        }
        Effect::RollRemoved => super::held::roll_removed(en, ctx),
        Effect::RemoveAll { filter } => remove_all(en, filter, ctx),
        Effect::RemoveDice {
            filter,
            increase,
            at_most,
            exactly,
        } => {
            let how = HowMany {
                increase: *increase,
                at_most: *at_most,
                exactly: *exactly,
            };
            remove_dice(en, filter, how, ctx)
        }
        Effect::Count(what) => count(en, what, ctx),
        Effect::DiscardFromPlay {
            types,
            subtypes,
            cost_at_most,
            pay_dice,
        } => {
            let what = Discardable {
                types,
                subtypes,
                cost_at_most: *cost_at_most,
                pay_dice: *pay_dice,
            };
            discard_from_play(en, &what, ctx)
        }
        Effect::ToDeckBottom => move_this(en, ctx, Zone::Deck),
        Effect::Reroll {
            whose,
            count,
            character,
            color,
            all,
            showing,
        } => {
            let f = DieFilter {
                whose: *whose,
                character: *character,
                color: *color,
                showing: showing.clone(),
                ..Default::default()
            };
            if *all {
                reroll_all(en, &f, ctx)
            } else {
                reroll(en, f, *count, ctx)
            }
        }
        Effect::If {
            condition,
            effect,
            otherwise,
        } => {
            let holds = en.condition_holds(ctx.by, ctx.source, condition);
            if !holds && otherwise.is_empty() {
                return Ok(false);
            }
            let mut full = true;
            for e in if holds { effect } else { otherwise } {
                full &= en.apply(e, ctx)?;
            }
            Ok(full)
        }
        Effect::RerollUnmatched { of } => reroll_unmatched(en, *of, ctx),
        Effect::Turn {
            count,
            whose,
            character,
            showing,
            to_blank,
            to_showing,
        } => {
            let how = Turning {
                whose: en.whose_dice(*whose, ctx),
                character: *character,
                showing: showing.as_deref(),
                to_blank: *to_blank,
                to_showing: to_showing.as_deref(),
            };
            turn_dice(en, *count, how, ctx)
        }
        Effect::Exhaust { to } => exhaust_or_ready(en, *to, true, ctx),
        Effect::Defeat { to, color } => defeat(en, *to, *color, ctx),
        Effect::Ready { to } => exhaust_or_ready(en, *to, false, ctx),
        Effect::BecomeSupport => become_support(en, ctx),
        Effect::AttachFrom { title } => super::attach::attach_from(en, title, ctx),
        Effect::AttachSelf {
            subtype,
            title,
            ready_title,
        } => {
            let host = super::attach::Host {
                subtype: subtype.as_deref(),
                title: title.as_deref(),
                ready_title: ready_title.as_deref(),
            };
            super::attach::attach_self(en, &host, ctx)
        }
        Effect::DefeatAfterRound { to } => defeat_after_round(en, *to, ctx),
        Effect::ExtraAction => extra_action(en, ctx),
        Effect::ResolveDie {
            of,
            showing,
            each_opponents,
            free,
            character,
            increase,
            color,
            optional,
        } => {
            let how = Resolving {
                of: *of,
                showing: showing.as_deref(),
                each: *each_opponents,
                free: *free,
                character: *character,
                increase: *increase,
                color: *color,
                optional: *optional,
            };
            resolve_die(en, &how, ctx)
        }
        Effect::RepeatOnDiscard { effect } => super::repeat::repeat_on_discard(en, effect, ctx),
        Effect::OpponentMayPayToRemove { amount } => {
            super::repeat::opponent_may_pay_to_remove(en, *amount, ctx)
        }
        Effect::UseSpecial => use_special(en, ctx),
        Effect::ClaimSetAside => claim_set_aside(en, ctx),
        Effect::SwitchUpgrade {
            color,
            subtypes,
            roll_cost,
        } => super::switch::switch_upgrade(en, *color, subtypes, *roll_cost, ctx),
        Effect::RollIn { of } => roll_in(en, *of, ctx),
        Effect::MoveDamage {
            amount: a,
            from,
            to,
            up_to,
        } => move_damage(en, (*a, *up_to), *from, *to, ctx),
        Effect::MoveShield => move_shield(en, ctx),
        Effect::FreezeDie => freeze_die(en, ctx),
        Effect::ForceNext { must } => super::next::force_next(en, *must, ctx),
        Effect::ForbidSameAction => super::next::forbid_same_action(en, ctx),
        Effect::RollSetAside { title } => roll_set_aside(en, title, ctx),
        Effect::MoveUpgrade { from } => move_upgrade(en, *from, ctx),
        Effect::EndActionPhase => end_action_phase(en, ctx),
        Effect::GiveBattlefield => battlefield_control(en, false, ctx),
        Effect::TakeBattlefield => battlefield_control(en, true, ctx),
        Effect::SwitchBattlefield => switch_battlefield(en, ctx),
        Effect::Choose { options, count } => choose(en, options, *count, ctx),
        Effect::DiscardThis => discard_this(en, ctx),
        Effect::SetAsideThis => move_this(en, ctx, Zone::SetAside),
        Effect::StackFromHand => super::stack::stack_from_hand(en, ctx),
        Effect::PlayStacked { title } => super::stack::play_stacked(en, title, ctx),
        Effect::Activate { to, color } => activate(en, *to, *color, ctx),
        Effect::LowestRolledRemove => lowest_rolled_remove(en, ctx),
        Effect::ResolveSide => super::side::resolve_side(en, ctx),
        Effect::PlayFromHand {
            types,
            subtypes,
            discarded,
            or_discard,
            from_discard,
            on_this,
            discount_if_title,
            color,
            discount,
            free,
            cost_at_most,
            cost_at_least,
        } => {
            let how = FromHand {
                types,
                subtypes,
                discarded: *discarded,
                or_discard: *or_discard,
                from_discard: *from_discard,
                on_this: *on_this,
                discount_if_title: discount_if_title.as_deref(),
                color: *color,
                discount: *discount,
                free: *free,
                cost_at_most: *cost_at_most,
                cost_at_least: *cost_at_least,
            };
            play_from_hand(en, &how, ctx)
        }
    }
}

fn damage(
    en: &mut Engine,
    a: Amount,
    (to, up_to, color): (Target, Option<usize>, Option<Color>),
    unblockable: bool,
    ctx: &mut Ctx,
) -> R<bool> {
    if let Some(k) = up_to {
        return damage_up_to(en, a, (to, k), unblockable, ctx);
    }
    let by = ctx.by;
    let n = amount_of(en, a, ctx);
    let targets = each_or_target(en, to, ctx)?;
    if let Some(col) = color
        && let Some(&t) = targets
            .iter()
            .find(|&&t| en.stat.defs[t].color != Some(col))
    {
        return rej(
            format!(
                "{} is not a {} character: the ability deals damage only to one",
                en.key(t),
                super::library::color_name(col)
            ),
            r::CHOOSE_TARGET,
        );
    }
    let mut full = !targets.is_empty();
    for t in targets {
        let d = Dmg {
            amount: n,
            kind: None,
            unblockable,
            by,
            die: false,
        };
        full &= en.deal_damage(t, d)?;
    }
    Ok(full)
}

/// Each of a player's characters (`each_opponents`, `each_yours`), or the one target.
fn each_or_target(en: &mut Engine, to: Target, ctx: &mut Ctx) -> R<Vec<Ix>> {
    Ok(match to {
        Target::EachOpponents => en.st.characters(other(ctx.by)),
        Target::EachYours => en.st.characters(ctx.by),
        _ => en.target(to, ctx)?.into_iter().collect(),
    })
}

fn block(en: &mut Engine, a: Amount, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let n = amount_of(en, a, ctx);
    en.block += n;
    en.log(
        Actor::Player(by),
        Event::StateChange,
        format!("{n} of the damage is blocked"),
        &[r::SHIELDS, r::BEFORE_ABILITIES],
    );
    Ok(true)
}

fn indirect(en: &mut Engine, a: Amount, yourself: bool, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let n = amount_of(en, a, ctx);
    let to = if yourself { by } else { other(by) };
    en.indirect(by, to, n, Some(DamageKind::Indirect))
}

fn heal(en: &mut Engine, a: Amount, to: Target, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let Some(t) = en.target(to, ctx)? else {
        return Ok(false);
    };
    let n = amount_of(en, a, ctx).min(en.st.cards[t].damage).max(0);
    en.st.cards[t].damage -= n;
    let txt = if n > 0 {
        format!("{} heals {n} damage", en.key(t))
    } else {
        format!("{} has no damage: it is not considered healed", en.key(t))
    };
    en.log(Actor::Player(by), Event::StateChange, txt, &[r::HEAL]);
    Ok(n > 0)
}

/// Remove `a` shields (all, when `None`) from the target or from each of a
/// player's characters; in full only if a shield was removed from each.
fn remove_shields(en: &mut Engine, a: Option<Amount>, to: Target, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let targets = each_or_target(en, to, ctx)?;
    let mut full = !targets.is_empty();
    for t in targets {
        let have = en.st.cards[t].shields;
        let n = a.map_or(have, |a| amount_of(en, a, ctx)).min(have).max(0);
        en.st.cards[t].shields -= n;
        let txt = format!(
            "{n} shield(s) removed from {} ({} left)",
            en.key(t),
            have - n
        );
        en.log(Actor::Player(by), Event::StateChange, txt, &[r::SHIELDS]);
        full &= n > 0;
    }
    Ok(full)
}

fn gain(
    en: &mut Engine,
    a: Amount,
    (each_player, opponent): (bool, bool),
    ctx: &mut Ctx,
) -> R<bool> {
    let by = ctx.by;
    let n = amount_of(en, a, ctx);
    let who = match (each_player, opponent) {
        (true, _) => vec![by, other(by)],
        (false, true) => vec![other(by)],
        (false, false) => vec![by],
    };
    for p in who {
        en.st.resources[usize::from(p)] += n;
        en.log(
            Actor::Player(by),
            Event::StateChange,
            format!("{} gains {n} resource(s)", seat_name(p)),
            &[r::PART_6_GAME_CONCEPTS_RESOURCES],
        );
    }
    Ok(true)
}

/// "Spend N resources to …": all of them, or the decision is illegal.
fn spend(en: &mut Engine, a: Amount, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let n = amount_of(en, a, ctx);
    if en.st.resources[usize::from(by)] < n {
        return rej(
            format!("{} cannot spend {n} resources", seat_name(by)),
            r::PART_6_GAME_CONCEPTS_RESOURCES,
        );
    }
    en.st.resources[usize::from(by)] -= n;
    en.log(
        Actor::Player(by),
        Event::StateChange,
        format!("{} spends {n} resource(s)", seat_name(by)),
        &[r::PART_6_GAME_CONCEPTS_RESOURCES],
    );
    Ok(true)
}

/// Shields to the target, or (`distributed`) among the user's characters.
fn shields(en: &mut Engine, a: Amount, to: Target, distributed: bool, ctx: &mut Ctx) -> R<bool> {
    if distributed {
        return distribute_shields(en, a, ctx);
    }
    let targets = each_or_target(en, to, ctx)?;
    let mut full = !targets.is_empty();
    for t in targets {
        full &= en.give_shields(t, amount_of(en, a, ctx), ctx.by)?;
    }
    Ok(full)
}

/// "Give N shields to your characters, distributed as you wish": the
/// decision's `assign:` gives all N among the user's characters.
fn distribute_shields(en: &mut Engine, a: Amount, ctx: &mut Ctx) -> R<bool> {
    let n = amount_of(en, a, ctx);
    let assign = ctx
        .step
        .as_ref()
        .map(|d| d.step.assign.clone())
        .unwrap_or_default();
    let total: i64 = assign.values().sum();
    if total != n {
        return rej(
            format!(
                "{total} shields distributed (`assign:`); the ability gives {n}, distributed as you wish"
            ),
            r::SHIELD,
        );
    }
    en.distribute_shields(ctx.by, n, &assign)?;
    Ok(true)
}

/// "Deal N damage each to up to K different characters": the rest of the
/// decision's `to:`, at most K, all different.
fn damage_up_to(
    en: &mut Engine,
    a: Amount,
    (to, k): (Target, usize),
    unblockable: bool,
    ctx: &mut Ctx,
) -> R<bool> {
    let named = ctx.targets.len().saturating_sub(ctx.next_target);
    if named > k {
        return rej(
            format!("{named} characters named (`to:`); the ability deals damage to up to {k}"),
            r::CHOOSE_TARGET,
        );
    }
    let mut chosen: Vec<Ix> = Vec::new();
    for _ in 0..named {
        if let Some(t) = en.target(to, ctx)? {
            if chosen.contains(&t) {
                return rej(
                    format!(
                        "{} is named twice: the characters must be different",
                        en.key(t)
                    ),
                    r::CHOOSE_TARGET,
                );
            }
            chosen.push(t);
        }
    }
    let n = amount_of(en, a, ctx);
    let mut full = true;
    for t in chosen {
        let d = Dmg {
            amount: n,
            kind: None,
            unblockable,
            by: ctx.by,
            die: false,
        };
        full &= en.deal_damage(t, d)?;
    }
    Ok(full)
}

fn lose(en: &mut Engine, a: Amount, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let n = amount_of(en, a, ctx);
    let had = en.st.resources[usize::from(other(by))];
    en.lose(other(by), n, r::PART_6_GAME_CONCEPTS_RESOURCES);
    Ok(had >= n)
}

fn take(en: &mut Engine, a: Amount, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let n = amount_of(en, a, ctx);
    let o = usize::from(other(by));
    let k = n.min(en.st.resources[o]).max(0);
    en.st.resources[o] -= k;
    en.st.resources[usize::from(by)] += k;
    en.log(
        Actor::Player(by),
        Event::StateChange,
        format!(
            "{} takes {k} resource(s) from {}",
            seat_name(by),
            seat_name(other(by))
        ),
        &[r::PART_6_GAME_CONCEPTS_RESOURCES],
    );
    Ok(k == n)
}

fn draw(en: &mut Engine, a: Amount, each_player: bool, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let n = amount_of(en, a, ctx);
    let who = if each_player {
        vec![by, other(by)]
    } else {
        vec![by]
    };
    let mut full = true;
    for p in who {
        let k = en.draw(p, n);
        en.log(
            Actor::Player(by),
            Event::StateChange,
            format!("{} draws {k} card(s)", seat_name(p)),
            &[r::DRAW],
        );
        full &= k == n;
    }
    Ok(full)
}

fn draw_to_hand_size(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let n = (en.hand_size(by) - en.st.hand[usize::from(by)].len() as i64).max(0);
    let k = en.draw(by, n);
    let t = format!(
        "{} draws {k} card(s), up to a hand size of {}",
        seat_name(by),
        en.hand_size(by)
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::DRAW, r::HAND],
    );
    Ok(k == n)
}

fn discard_top(en: &mut Engine, a: Amount, opponents: bool, ctx: &mut Ctx) -> R<bool> {
    let by = if opponents { other(ctx.by) } else { ctx.by };
    let n = amount_of(en, a, ctx);
    let mut k = 0;
    while k < n {
        let Some(&c) = en.st.deck[usize::from(by)].first() else {
            break;
        };
        en.st.put(c, Zone::Discard);
        k += 1;
    }
    let t = format!(
        "{} discards the top {k} card(s) of their deck{}",
        seat_name(by),
        if k < n {
            format!(" (only {k} left)")
        } else {
            String::new()
        }
    );
    en.log(Actor::Player(by), Event::StateChange, t, &[r::DECK]);
    Ok(k == n)
}

fn from_discard(en: &mut Engine, types: &[CardType], ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let step = ctx.step.clone();
    let pick = step.as_ref().and_then(|d| d.step.play.clone());
    let Some(n) = pick else {
        en.log(
            Actor::Player(by),
            Event::Pass,
            "no card is added from the discard pile",
            &[r::DISCARD_PILE],
        );
        return Ok(true);
    };
    let c = en.card_named(Some(&n), r::DISCARD_PILE)?;
    if !en.st.discard[usize::from(by)].contains(&c) || !types.contains(&en.stat.defs[c].card_type) {
        return rej(
            format!(
                "{n} is not a card of that type in {}'s discard pile",
                seat_name(by)
            ),
            r::DISCARD_PILE,
        );
    }
    en.st.put(c, Zone::Hand);
    en.log(
        Actor::Player(by),
        Event::StateChange,
        format!("{n} is added to {}'s hand", seat_name(by)),
        &[r::DISCARD_PILE, r::HAND],
    );
    Ok(true)
}

fn discard_random(en: &mut Engine, a: Amount, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let step = ctx.step.clone();
    let n = amount_of(en, a, ctx);
    let Some(d) = step else {
        return Err(en.need(by, NeedKind::Random, "random discards (`random:`)"));
    };
    en.discard_random(by, n, &d, r::DISCARD)?;
    Ok(true)
}

/// Reroll the dice the decision names: `whose` (`this`: the dice of the card
/// with the ability), at most `count` of them, only character dice if asked.
fn reroll(en: &mut Engine, f: DieFilter, count: Option<Amount>, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let count = count.map(|a| usize::try_from(amount_of(en, a, ctx)).unwrap_or(0));
    let whose = f.whose;
    let step = ctx.step.clone();
    let Some(d) = step else { return Ok(true) };
    if whose == Who::This
        && let Some(c) = ctx.source
        && !en
            .st
            .dice_of(c)
            .iter()
            .any(|&x| matches!(en.st.dice[x].at, DieAt::Pool(_)))
    {
        let t = format!("no die of {} is in a pool: nothing is rerolled", en.key(c));
        en.log(
            Actor::Player(by),
            Event::Result,
            t,
            &[r::ROLLING, r::DICE_POOL],
        );
        return Ok(false);
    }
    // A special ability's dice are the resolved dice (`dice:`): the dice it
    // rerolls are those its `roll:` names, other than its own.
    let named: Vec<&String> = if ctx.special {
        d.step
            .roll
            .keys()
            .filter(|n| {
                en.stat
                    .die(n)
                    .is_none_or(|x| Some(en.st.dice[x].card) != ctx.source)
            })
            .collect()
    } else {
        d.step.dice.iter().collect()
    };
    if let Some(n) = count
        && named.len() > n
    {
        return rej(
            format!(
                "{} dice named; the ability rerolls at most {n}",
                named.len()
            ),
            r::ROLLING,
        );
    }
    let own = |x: usize| whose != Who::This || Some(en.st.dice[x].card) == ctx.source;
    let mut xs = Vec::new();
    for n in named {
        match en.stat.die(n) {
            Some(x)
                if matches!(en.st.dice[x].at, DieAt::Pool(_))
                    && en.die_matches(x, &f, by)
                    && own(x) =>
            {
                xs.push(x)
            }
            _ => {
                return rej(
                    format!("die {n} cannot be rerolled (not in a pool it may reroll)"),
                    r::ROLLING,
                );
            }
        }
    }
    for &x in &xs {
        let owner = en.st.dice[x].controller;
        en.roll(owner, &[x], &d)?;
    }
    Ok(true)
}

/// Reroll every die in a pool the filter allows ("reroll all dice"), each
/// with the side the decision's `roll:` names.
fn reroll_all(en: &mut Engine, f: &DieFilter, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let xs: Vec<usize> = (0..en.st.dice.len())
        .filter(|&x| matches!(en.st.dice[x].at, DieAt::Pool(_)) && en.die_matches(x, f, by))
        .collect();
    let t = if xs.is_empty() {
        "no such die in a pool: nothing is rerolled".to_string()
    } else {
        format!("every such die is rerolled: {}", en.die_list(&xs))
    };
    en.log(Actor::Player(by), Event::Result, t, &[r::ROLLING]);
    reroll_each(en, &xs, ctx)
}

/// Reroll each of `xs` with the side the decision's `roll:` names; in full
/// only if there was a die to reroll.
fn reroll_each(en: &mut Engine, xs: &[usize], ctx: &Ctx) -> R<bool> {
    let Some(d) = ctx.step.clone() else {
        return Err(en.need(
            ctx.by,
            NeedKind::Choice,
            "the side each die rerolled shows (`roll:`)",
        ));
    };
    for &x in xs {
        let owner = en.st.dice[x].controller;
        en.roll(owner, &[x], &d)?;
    }
    Ok(!xs.is_empty())
}

fn reroll_unmatched(en: &mut Engine, of: Target, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let Some(t) = en.target(of, ctx)? else {
        return Ok(false);
    };
    let symbol = |en: &Engine, x: usize| en.st.showing(en.stat, x).map(|f| f.symbol);
    let shown: Vec<_> = en
        .st
        .dice_of(t)
        .into_iter()
        .filter(|&x| matches!(en.st.dice[x].at, DieAt::Pool(_)))
        .filter_map(|x| symbol(en, x))
        .collect();
    let xs: Vec<usize> = (0..en.st.dice.len())
        .filter(|&x| matches!(en.st.dice[x].at, DieAt::Pool(_)))
        .filter(|&x| symbol(en, x).is_some_and(|s| !shown.contains(&s)))
        .collect();
    let t = if shown.is_empty() {
        format!(
            "none of {}'s character dice is in a pool: every die is rerolled",
            en.key(t)
        )
    } else {
        format!(
            "the dice showing a symbol no die of {} shows are rerolled",
            en.key(t)
        )
    };
    en.log(
        Actor::Player(by),
        Event::Result,
        t,
        &[r::ROLLING, r::JAR_JAR_BINKS],
    );
    reroll_each(en, &xs, ctx)
}

impl Engine<'_> {
    /// Whose dice a turning effect may turn, for the ability in `ctx`.
    fn whose_dice(&self, whose: Who, ctx: &Ctx) -> Whose {
        match whose {
            Who::Any => Whose::Any,
            Who::Yours => Whose::Yours,
            Who::Opponents => Whose::Opponents,
            Who::This => Whose::Card(ctx.source),
            Who::Attached => Whose::Card(ctx.source.and_then(|s| self.st.cards[s].on)),
        }
    }
}

fn turn_dice(en: &mut Engine, count: i64, how: Turning, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let step = ctx.step.clone();
    let Some(d) = step else { return Ok(true) };
    en.turn_dice(by, count, &d, how, r::TURN_DIE)?;
    Ok(true)
}

fn exhaust_or_ready(en: &mut Engine, to: Target, ex: bool, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let Some(t) = en.target(to, ctx)? else {
        return Ok(false);
    };
    if en.st.cards[t].exhausted == ex {
        let t = format!(
            "{} is already {}",
            en.key(t),
            if ex { "exhausted" } else { "ready" }
        );
        en.log(
            Actor::Player(by),
            Event::Result,
            t,
            &[if ex { r::EXHAUSTED } else { r::READY }],
        );
        return Ok(false);
    }
    en.st.cards[t].exhausted = ex;
    let txt = format!("{} {}", en.key(t), if ex { "exhausts" } else { "readies" });
    en.log(
        Actor::Player(by),
        Event::StateChange,
        txt,
        &[if ex { r::EXHAUSTED } else { r::READY }],
    );
    Ok(true)
}

/// Defeat the target, a character (of `color`, if given).
fn defeat(
    en: &mut Engine,
    to: Target,
    color: Option<super::model::Color>,
    ctx: &mut Ctx,
) -> R<bool> {
    let Some(t) = en.target(to, ctx)? else {
        return Ok(false);
    };
    if color.is_some_and(|col| en.stat.defs[t].color != Some(col)) {
        return rej(
            format!("{} is not a character of that color", en.key(t)),
            r::CHOOSE_TARGET,
        );
    }
    en.defeat(t)
}

/// The targeted character's controller activates it, as the activate action
/// does, with the sides the decision's `roll:` names.
fn activate(en: &mut Engine, to: Target, color: Option<Color>, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let Some(t) = en.target(to, ctx)? else {
        return Ok(false);
    };
    if let Some(col) = color
        && en.stat.defs[t].color != Some(col)
    {
        return rej(
            format!("{} is not a {col:?} character", en.key(t)),
            r::CHOOSE_TARGET,
        );
    }
    // The opponent who chose their own character also rolls its dice.
    let Some(mut d) = ctx.answer.take().or_else(|| ctx.step.clone()) else {
        return Err(en.need(by, NeedKind::Choice, "the character activated and its roll"));
    };
    if en.st.cards[t].ctype != CardType::Character {
        return rej(
            format!("{} is not a character", en.key(t)),
            r::ACTIVATE_A_CARD,
        );
    }
    // Its controller activates it (an ability may force them to).
    d.step.card = Some(en.key(t).to_string());
    let who = en.st.cards[t].controller;
    let before: Vec<usize> = en
        .st
        .dice_of(t)
        .into_iter()
        .filter(|&x| en.st.dice[x].at == DieAt::OnCard)
        .collect();
    en.activate(who, &d)?;
    let rolled = before
        .into_iter()
        .filter(|&x| matches!(en.st.dice[x].at, DieAt::Pool(_)))
        .collect();
    ctx.rolled.push((who, rolled));
    Ok(true)
}

/// Each player totals the value of the character dice this ability's
/// activations rolled for them; each player with the lowest total (every tied
/// player) removes those dice.
fn lowest_rolled_remove(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let totals: Vec<(Seat, Vec<usize>, i64)> = ctx
        .rolled
        .iter()
        .map(|(p, xs)| (*p, xs.clone(), xs.iter().map(|&x| en.value_of(x)).sum()))
        .collect();
    let Some(low) = totals.iter().map(|t| t.2).min() else {
        return Ok(false);
    };
    for (p, xs, total) in &totals {
        let xs: Vec<usize> = xs
            .iter()
            .copied()
            .filter(|&x| matches!(en.st.dice[x].at, DieAt::Pool(_)))
            .collect();
        let lowest = *total == low;
        let t = format!(
            "{}'s character dice just rolled total {total}{}",
            seat_name(*p),
            if lowest && !xs.is_empty() {
                format!(
                    ": the lowest, {} removes {}",
                    seat_name(*p),
                    en.die_list(&xs)
                )
            } else {
                String::new()
            }
        );
        en.log(
            Actor::Player(by),
            Event::Result,
            t,
            &[r::REMOVING_DICE, r::BATTLE_OF_WILLS],
        );
        if lowest && !xs.is_empty() {
            let owners = removal_owners(en, &xs);
            match ctx.step.clone() {
                Some(d) => en.leave_pool(&xs, &d)?,
                None => xs.iter().for_each(|&x| en.st.dice[x].at = DieAt::OnCard),
            }
            removed_by_effect(en, &xs, owners, ctx)?;
        }
    }
    Ok(true)
}

fn become_support(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let Some(c) = ctx.source else {
        return Ok(false);
    };
    for u in en.st.upgrades(c) {
        en.leave_play(u, Zone::Discard);
    }
    let s = &mut en.st.cards[c];
    s.ctype = CardType::Support;
    s.on = None;
    s.damage = 0;
    s.shields = 0;
    for x in en.st.dice_of(c) {
        en.st.dice[x].at = DieAt::OnCard;
    }
    let t = format!(
        "{} becomes a support, ready or exhausted as it was; its die moves to the support card",
        en.key(c)
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::CHANGING_CARD_TYPES],
    );
    Ok(true)
}

fn defeat_after_round(en: &mut Engine, to: Target, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let Some(t) = en.target(to, ctx)? else {
        return Ok(false);
    };
    let source = ctx.source.unwrap_or(t);
    let dl = super::state::Delayed {
        by,
        source,
        target: t,
    };
    if !en.st.delayed.contains(&dl) {
        en.st.delayed.push(dl);
    }
    let txt = format!(
        "delayed effect: {} will be defeated after this round ends",
        en.key(t)
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        txt,
        &[r::DELAYED_EFFECTS],
    );
    Ok(true)
}

fn extra_action(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    en.extra.push_back(by);
    en.log(
        Actor::Player(by),
        Event::StateChange,
        format!("{} may take an additional action", seat_name(by)),
        &[r::EXTRA_ACTIONS],
    );
    Ok(true)
}

/// Which of the user's dice an ability resolves, and how.
struct Resolving<'a> {
    of: Option<Target>,
    showing: Option<&'a str>,
    each: bool,
    free: bool,
    character: bool,
    increase: Amount,
    color: Option<super::model::Color>,
    optional: bool,
}

fn resolve_die(en: &mut Engine, how: &Resolving, ctx: &mut Ctx) -> R<bool> {
    let (of, showing, each) = (how.of, how.showing, how.each);
    let by = ctx.by;
    let step = ctx.step.clone();
    let mut cands = match of {
        Some(of) => {
            let Some(t) = en.target(of, ctx)? else {
                return Ok(false);
            };
            let mut cands = en.st.dice_of(t);
            for u in en.st.upgrades(t) {
                cands.extend(en.st.dice_of(u));
            }
            cands
        }
        None => (0..en.st.dice.len()).collect(),
    };
    let f = DieFilter {
        whose: Who::Yours,
        character: how.character,
        color: how.color,
        ..Default::default()
    };
    // A die resolved as another symbol (the decision's `resolve_as:`) counts
    // as showing it.
    let as_sym = step.as_ref().and_then(|d| d.step.resolve_as);
    cands.retain(|&x| {
        en.st
            .showing(en.stat, x)
            .is_some_and(|fc| symbol_shows(en.resolves_as(x, fc.symbol, as_sym), showing))
            && en.die_matches(x, &f, by)
    });
    // A special ability's own die, being resolved, is named first in `dice:`
    // and cannot be resolved again by its ability.
    let own_special = |x: usize| ctx.special && Some(en.st.dice[x].card) == ctx.source;
    cands.retain(|&x| !own_special(x));
    let named = step.as_ref().and_then(|d| {
        d.step
            .dice
            .iter()
            .find(|n| !en.stat.die(n).is_some_and(&own_special))
            .cloned()
    });
    let x = match named {
        Some(n) => match en.stat.die(&n) {
            Some(x) if cands.contains(&x) => x,
            _ => {
                return rej(
                    format!("die {n} is not a die this ability can resolve"),
                    r::RESOLVING_DICE_THROUGH_CARDS,
                );
            }
        },
        None if how.optional => {
            en.log(
                Actor::Player(by),
                Event::Pass,
                "no die is resolved",
                &[r::RESOLVING_DICE_THROUGH_CARDS],
            );
            return Ok(true);
        }
        None if cands.len() == 1 => cands[0],
        None if cands.is_empty() => {
            en.log(
                Actor::Player(by),
                Event::Result,
                "no die this ability can resolve is in the pool: nothing is resolved",
                &[r::RESOLVING_DICE_THROUGH_CARDS, r::DICE_LEAVING_PLAY],
            );
            return Ok(false);
        }
        None => return Err(en.need(by, NeedKind::Choice, "the die to resolve (`dice:`)")),
    };
    let Some(d) = step.or_else(|| en.script.peek().cloned()) else {
        return Err(en.need(by, NeedKind::Choice, "the die's target (`to:`)"));
    };
    let aim = if each {
        Aim::EachOpponent
    } else {
        let target = ctx.targets.get(ctx.next_target).cloned();
        ctx.next_target += 1;
        Aim::Named(target)
    };
    en.log(
        Actor::Player(by),
        Event::Result,
        format!("resolves die {} through the card", en.die_id(x)),
        &[r::RESOLVING_DICE_THROUGH_CARDS],
    );
    let increase = match how.increase {
        Amount::DieCardShields => en.st.cards[en.st.dice[x].card].shields,
        a => amount_of(en, a, ctx),
    };
    en.resolve_group(by, &[x], aim, (how.free, increase), &d)?;
    Ok(true)
}

fn roll_in(en: &mut Engine, of: Target, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let step = ctx.step.clone();
    let Some(t) = en.target(of, ctx)? else {
        return Ok(false);
    };
    let xs: Vec<usize> = en
        .st
        .dice_of(t)
        .into_iter()
        .filter(|&x| en.st.dice[x].at == DieAt::OnCard)
        .collect();
    let Some(d) = step else {
        return Err(en.need(by, NeedKind::Random, "roll results (`roll:`)"));
    };
    let txt = format!(
        "rolls the dice on {} into the pool: {}",
        en.key(t),
        if xs.is_empty() {
            "none".to_string()
        } else {
            en.die_list(&xs)
        }
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        txt,
        &[r::SELF_REFERENTIAL_EFFECTS, r::ROLLING],
    );
    en.roll(by, &xs, &d)?;
    Ok(!xs.is_empty())
}

fn end_action_phase(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    en.end_phase = true;
    en.log(
        Actor::Player(by),
        Event::Phase,
        "the action phase ends",
        &[r::ACTION_PHASE],
    );
    Ok(true)
}

/// Give control of the battlefield to an opponent, or (`take`) take it: a
/// change of control, not a claim.
fn battlefield_control(en: &mut Engine, take: bool, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let (from, to) = if take {
        (other(by), by)
    } else {
        (by, other(by))
    };
    if en.st.bf_controller == Some(to) {
        let t = format!("{} already controls the battlefield", seat_name(to));
        en.log(Actor::Player(by), Event::Result, t, &[r::BATTLEFIELDS]);
        return Ok(false);
    }
    if !take && en.st.bf_controller != Some(from) {
        let t = format!(
            "{} does not control the battlefield: it cannot give it away",
            seat_name(by)
        );
        en.log(
            Actor::Player(by),
            Event::Result,
            t,
            &[r::BATTLEFIELDS, r::CONTROLLER],
        );
        return Ok(false);
    }
    en.st.bf_controller = Some(to);
    if let Some(bf) = en.st.battlefield {
        en.st.cards[bf].controller = to;
    }
    let how = if take {
        " (this does not claim it)"
    } else {
        ""
    };
    en.log(
        Actor::Player(by),
        Event::StateChange,
        format!("{} now controls the battlefield{how}", seat_name(to)),
        &[r::BATTLEFIELDS, r::CONTROLLER],
    );
    Ok(true)
}

fn switch_battlefield(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let set: Vec<Ix> = (0..en.st.cards.len())
        .filter(|&c| {
            en.st.cards[c].zone == Zone::SetAside
                && en.stat.defs[c].card_type == CardType::Battlefield
        })
        .collect();
    let Some(old) = en.st.battlefield else {
        return Ok(false);
    };
    let new = match (
        set.as_slice(),
        ctx.step.as_ref().and_then(|d| d.step.uses.clone()),
    ) {
        ([], _) => return Ok(false),
        ([one], None) => *one,
        (_, None) => {
            let ask = "which battlefield not being used the battlefield is switched with (`uses:`)";
            return Err(en.need(by, NeedKind::Choice, ask));
        }
        (_, Some(n)) => match en.stat.find(&n) {
            Some(c) if set.contains(&c) => c,
            _ => {
                return rej(
                    format!("{n} is not a battlefield brought to the game and set aside"),
                    r::HOME_TURF_ADVANTAGE,
                );
            }
        },
    };
    en.st.put(old, Zone::SetAside);
    en.st.unlist(new);
    en.st.cards[new].zone = Zone::Play;
    en.st.battlefield = Some(new);
    let t = format!(
        "the battlefield is switched to {}; control does not change and its claim ability is not used",
        en.key(new)
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::BATTLEFIELDS, r::SET_ASIDE_ZONE, r::HOME_TURF_ADVANTAGE],
    );
    Ok(true)
}

fn choose(en: &mut Engine, options: &[Vec<Effect>], count: usize, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let step = ctx.step.clone();
    let picks: Vec<usize> = if count > 1 {
        step.as_ref()
            .map(|d| d.step.options.clone())
            .unwrap_or_default()
    } else {
        step.as_ref()
            .and_then(|d| d.step.option)
            .into_iter()
            .collect()
    };
    if picks.is_empty() {
        let what = if count > 1 {
            format!("which {count} options (`options:`)")
        } else {
            "which option (`option:`)".to_string()
        };
        return Err(en.need(by, NeedKind::Choice, what));
    }
    if picks.len() != count.min(options.len()) {
        return rej(
            format!("{} option(s) chosen; the ability does {count}", picks.len()),
            r::CHOOSE_EITHER,
        );
    }
    if let Some(n) = picks
        .iter()
        .enumerate()
        .find_map(|(i, n)| picks[..i].contains(n).then_some(n))
    {
        return rej(
            format!("option {n} chosen twice: each option chosen must be a different one"),
            r::CHOOSE_EITHER,
        );
    }
    let mut full = true;
    for n in picks {
        let Some(opt) = options.get(n.wrapping_sub(1)) else {
            return rej(format!("there is no option {n}"), r::CHOOSE_EITHER);
        };
        en.log(
            Actor::Player(by),
            Event::Result,
            format!("{} chooses option {n}", seat_name(by)),
            &[r::CHOOSE_EITHER],
        );
        for x in opt.clone() {
            full &= en.apply(&x, ctx)?;
        }
    }
    Ok(full)
}

fn discard_this(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let Some(c) = ctx.source else {
        return Ok(false);
    };
    if !en.st.in_play(c) {
        return Ok(false);
    }
    en.leave_play(c, Zone::Discard);
    en.log(
        Actor::Player(by),
        Event::StateChange,
        format!("{} is discarded", en.key(c)),
        &[r::UPGRADES],
    );
    Ok(true)
}

/// Which cards an ability plays from hand, and at what cost.
struct FromHand<'a> {
    types: &'a [CardType],
    subtypes: &'a [String],
    discarded: bool,
    or_discard: bool,
    from_discard: bool,
    on_this: bool,
    discount_if_title: Option<&'a str>,
    color: Option<super::model::Color>,
    discount: i64,
    free: bool,
    cost_at_most: Option<Amount>,
    cost_at_least: Option<i64>,
}

fn play_from_hand(en: &mut Engine, how: &FromHand, ctx: &mut Ctx) -> R<bool> {
    let types = how.types;
    let by = ctx.by;
    let step = ctx.step.clone();
    let Some(d) = step else { return Ok(false) };
    let Some(n) = d.step.play.clone() else {
        en.log(
            Actor::Player(by),
            Event::Pass,
            "no card is played",
            &[r::PLAY_A_CARD],
        );
        return Ok(false);
    };
    let c = en.card_named(Some(&n), r::PLAY_A_CARD)?;
    let in_discard = en.st.discard[usize::from(by)].contains(&c);
    let from = if how.discarded {
        d.step.discard.contains(&n) && in_discard
    } else if how.from_discard {
        in_discard
    } else {
        en.st.hand[usize::from(by)].contains(&c) || (how.or_discard && in_discard)
    };
    if how.on_this
        && let Some(s) = ctx.source
        && d.step.on.as_deref() != Some(en.key(s))
    {
        return rej(
            format!("{n} is played on {} by this ability (`on:`)", en.key(s)),
            r::PLAY_A_CARD,
        );
    }
    let def = &en.stat.defs[c];
    if !from
        || how.color.is_some_and(|col| def.color != Some(col))
        || (!types.is_empty() && !types.contains(&def.card_type))
        || (!how.subtypes.is_empty() && !def.subtypes.iter().any(|s| how.subtypes.contains(s)))
    {
        return rej(
            format!("{n} cannot be played by this ability"),
            if how.discarded {
                r::DISCARD_PILE
            } else {
                r::PLAY_A_CARD
            },
        );
    }
    let printed = en.stat.defs[c].cost.unwrap_or(0);
    if let Some(least) = how.cost_at_least
        && printed < least
    {
        return rej(
            format!(
                "{n} costs {printed}, less than {least}: a decrease of its cost does not change the cost compared"
            ),
            r::DECREASES,
        );
    }
    if let Some(a) = how.cost_at_most {
        let most = match (a, ctx.removed) {
            (Amount::Removed, None) => None,
            _ => Some(amount_of(en, a, ctx)),
        };
        if most.is_none_or(|m| printed > m) {
            return rej(
                format!(
                    "{n} costs {printed}, more than {}: a decrease of its cost does not change the cost compared",
                    most.map_or("no value (no dice removed)".to_string(), |m| m.to_string())
                ),
                r::DECREASES,
            );
        }
    }
    let discount = if how.free {
        en.log(
            Actor::Player(by),
            Event::Result,
            format!("{n} is played for free"),
            &[r::FREE],
        );
        printed.max(0)
    } else if how
        .discount_if_title
        .is_some_and(|w| !en.stat.defs[c].title.contains(w))
    {
        0
    } else {
        how.discount
    };
    let mut d2 = d.clone();
    d2.step.card = Some(n);
    en.play_card(by, c, &d2, discount)?;
    Ok(true)
}

/// Remove one die in a pool that matches the filter (the decision's `remove:`).
fn remove_die(en: &mut Engine, filter: &DieFilter, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let step = ctx.step.clone();
    let cands = pool_matching(en, filter, ctx);
    if cands.is_empty() {
        en.log(
            Actor::Player(by),
            Event::Result,
            "no such die in a pool: nothing is removed",
            &[r::REMOVING_DICE],
        );
        return Ok(false);
    }
    let named = step
        .as_ref()
        .and_then(|d| d.step.remove.get(ctx.removals).cloned());
    ctx.removals += 1;
    let x = match named {
        Some(n) => match en.stat.die(&n) {
            Some(x) if cands.contains(&x) => x,
            Some(x) if filter.parity.is_some_and(|p| !p.holds(en.value_of(x))) => {
                let v = en.value_of(x);
                let what = if v % 2 == 0 { "even" } else { "odd" };
                return rej(
                    format!(
                        "die {n} shows a value of {v}, an {what} number (a blank or a special shows 0, and zero is even): this ability cannot remove it"
                    ),
                    r::ZERO_IS_EVEN,
                );
            }
            _ => {
                return rej(
                    format!("die {n} cannot be removed by this ability"),
                    r::REMOVING_DICE,
                );
            }
        },
        None if cands.len() == 1 => cands[0],
        None => return Err(en.need(by, NeedKind::Choice, "the die to remove (`remove:`)")),
    };
    ctx.removed = Some(en.value_of(x));
    ctx.removed_dice = 1;
    ctx.removed_card = Some(en.st.dice[x].card);
    let owners = removal_owners(en, &[x]);
    if let Some(d) = &step {
        en.leave_pool(&[x], d)?;
    } else {
        en.st.dice[x].at = DieAt::OnCard;
    }
    let t = format!(
        "{} removes die {} (value {})",
        seat_name(by),
        en.die_id(x),
        ctx.removed.unwrap_or(0)
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::REMOVING_DICE],
    );
    removed_by_effect(en, &[x], owners, ctx)?;
    Ok(true)
}

/// The cards whose dice these are, as "this character's character or upgrade
/// dice" counts them (an upgrade's die is its character's), each once, with
/// the die's controller.
fn removal_owners(en: &Engine, xs: &[usize]) -> Vec<(Ix, Seat)> {
    let mut out: Vec<(Ix, Seat)> = Vec::new();
    for &x in xs {
        let card = en.st.dice[x].card;
        let holder = en.st.cards[card].on.unwrap_or(card);
        let o = (holder, en.st.dice[x].controller);
        if !out.contains(&o) {
            out.push(o);
        }
    }
    out
}

/// After a card effect removes dice: "after … dice are removed" abilities of
/// their cards, and "after you remove dice" abilities of the remover. A die's
/// special is an inherent die ability, not a card effect: it triggers neither.
fn removed_by_effect(en: &mut Engine, xs: &[usize], owners: Vec<(Ix, Seat)>, ctx: &Ctx) -> R<()> {
    use super::model::TriggerEvent;
    if xs.is_empty() {
        return Ok(());
    }
    let turn = en.st.turns.len().saturating_sub(1);
    for &x in xs {
        let whose = en.st.cards[en.st.dice[x].card].controller;
        en.st.removals.push(super::state::Removal {
            die: x,
            whose,
            turn,
        });
    }
    if ctx.special {
        let t = "removed by a die's special ability (an inherent die ability, not a card effect): abilities triggered by a card effect removing dice do not trigger";
        en.log(
            Actor::Player(ctx.by),
            Event::Result,
            t,
            &[r::INHERENT_DICE_ABILITIES, r::SPECIAL_ABILITIES],
        );
        return Ok(());
    }
    for (holder, _) in owners {
        en.after(TriggerEvent::DiceRemoved, Some(holder), Some(ctx.by), None)?;
    }
    en.last_removed = xs.to_vec();
    if xs.iter().all(|&x| en.st.dice[x].controller == ctx.by) {
        return Ok(());
    }
    en.after(TriggerEvent::RemovesDice, None, Some(ctx.by), None)
}

/// Remove every die in a pool that matches the filter; their values are combined.
fn remove_all(en: &mut Engine, filter: &DieFilter, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    note_guarded(en, filter, ctx);
    let xs = pool_matching(en, filter, ctx);
    ctx.removed = Some(xs.iter().map(|&x| en.value_of(x)).sum());
    ctx.removed_dice = xs.len();
    let owners = removal_owners(en, &xs);
    match ctx.step.clone() {
        Some(d) => en.leave_pool(&xs, &d)?,
        None => {
            for &x in &xs {
                en.st.dice[x].at = DieAt::OnCard;
            }
        }
    }
    if xs.len() > 1 {
        let t = format!(
            "the combined value of the dice removed is {}",
            ctx.removed.unwrap_or(0)
        );
        en.log(Actor::Player(by), Event::Result, t, &[r::COMBINED_VALUE]);
    }
    let t = format!(
        "removes {}",
        if xs.is_empty() {
            "no dice".to_string()
        } else {
            en.die_list(&xs)
        }
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::REMOVING_DICE],
    );
    removed_by_effect(en, &xs, owners, ctx)?;
    Ok(true)
}

/// Move damage from one card to another: shields are ignored and the damage
/// is not taken. With `up_to`, the decision's `amount:` says how much.
fn move_damage(
    en: &mut Engine,
    (a, up_to): (Amount, bool),
    from: Target,
    to: Target,
    ctx: &mut Ctx,
) -> R<bool> {
    let by = ctx.by;
    let (Some(f), Some(t)) = (en.target(from, ctx)?, en.target(to, ctx)?) else {
        return Ok(false);
    };
    if f == t {
        return rej("something cannot move to its current placement", r::MOVE);
    }
    let most = amount_of(en, a, ctx);
    let on = en.st.cards[f].damage;
    let wanted = if up_to {
        chosen_amount(en, most, on, ctx)?
    } else {
        most
    };
    let n = wanted.min(on).max(0);
    en.st.cards[f].damage -= n;
    en.st.cards[t].damage += n;
    let txt = format!(
        "{n} damage moves from {} to {} (shields ignored; not taken)",
        en.key(f),
        en.key(t)
    );
    en.log(Actor::Player(by), Event::StateChange, txt, &[r::MOVE]);
    if n > 0
        && en.st.cards[t].ctype == CardType::Character
        && en.st.cards[t].damage >= en.stat.defs[t].health.unwrap_or(i64::MAX)
    {
        en.defeat(t)?;
    }
    Ok(n == wanted && (n > 0 || !up_to))
}

/// How much of "up to `most`" the decision's `amount:` moves, from a card
/// with `on` of it: from 0 to `most`, and no more than there is.
fn chosen_amount(en: &mut Engine, most: i64, on: i64, ctx: &Ctx) -> R<i64> {
    let Some(k) = ctx.step.as_ref().and_then(|d| d.step.amount) else {
        return Err(en.need(
            ctx.by,
            NeedKind::Choice,
            format!("how much, up to {most} (`amount:`)"),
        ));
    };
    if !(0..=most).contains(&k) {
        return rej(
            format!("{k} chosen: the ability moves from 0 up to {most}"),
            r::MOVE,
        );
    }
    if k > on {
        return rej(format!("{k} chosen: there is only {on} to move"), r::MOVE);
    }
    Ok(k)
}

/// Move a shield from one of your characters to another.
fn move_shield(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let (Some(f), Some(t)) = (
        en.target(Target::ChosenYours, ctx)?,
        en.target(Target::ChosenYours, ctx)?,
    ) else {
        return Ok(false);
    };
    if f == t {
        return rej("a shield cannot move to its current placement", r::MOVE);
    }
    if en.st.cards[f].shields == 0 || en.st.cards[t].shields >= 3 {
        let txt = format!(
            "no shield can move from {} to {} (no shield there, or already 3)",
            en.key(f),
            en.key(t)
        );
        en.log(
            Actor::Player(by),
            Event::Result,
            txt,
            &[r::MOVE, r::SHIELDS],
        );
        return Ok(false);
    }
    en.st.cards[f].shields -= 1;
    en.st.cards[t].shields += 1;
    en.log(
        Actor::Player(by),
        Event::StateChange,
        format!("a shield moves from {} to {}", en.key(f), en.key(t)),
        &[r::MOVE, r::SHIELDS],
    );
    Ok(true)
}

/// Move an upgrade to another of your characters, ignoring play restrictions.
fn move_upgrade(en: &mut Engine, from: Option<Target>, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let step = ctx.step.clone();
    let Some(d) = step else { return Ok(false) };
    let (Some(un), Some(on)) = (d.step.upgrade.clone(), d.step.on.clone()) else {
        return Err(en.need(
            by,
            NeedKind::Choice,
            "the upgrade to move (`upgrade:`) and where (`on:`)",
        ));
    };
    let u = en.card_named(Some(&un), r::MOVE)?;
    let t = en.card_named(Some(&on), r::MOVE)?;
    let holder = match from {
        Some(f) => en.target(f, ctx)?,
        None => en.st.cards[u].on,
    };
    if !en.st.in_play(u) || en.st.cards[u].on.is_none() || en.st.cards[u].on != holder {
        return rej(
            format!("{un} is not an upgrade this ability can move"),
            r::MOVE,
        );
    }
    if !en.st.in_play(t)
        || en.st.cards[t].ctype != CardType::Character
        || en.st.cards[t].controller != by
        || en.st.cards[u].on == Some(t)
    {
        return rej(format!("{on} is not one of your other characters"), r::MOVE);
    }
    en.st.cards[u].on = Some(t);
    en.st.cards[u].controller = by;
    for x in en.st.dice_of(u) {
        en.st.dice[x].at = DieAt::OnCard;
        en.st.dice[x].controller = by;
    }
    let txt =
        format!("{un} moves to {on} (ignoring play restrictions; its die returns to the card)",);
    en.log(Actor::Player(by), Event::StateChange, txt, &[r::MOVE]);
    en.max_upgrades(t, &d)?;
    Ok(true)
}

/// The dice in a pool that match the filter (and its bound on the value shown).
fn pool_matching(en: &Engine, filter: &DieFilter, ctx: &Ctx) -> Vec<usize> {
    let bound = filter.value_at_most.map(|a| amount_of(en, a, ctx));
    (0..en.st.dice.len())
        .filter(|&x| {
            matches!(en.st.dice[x].at, DieAt::Pool(_))
                && en.die_matches(x, filter, ctx.by)
                && bound.is_none_or(|b| en.value_of(x) <= b)
                && !en.guarded(x, ctx.by)
        })
        .collect()
}

/// "Count the number of …": the dice in a pool the filter matches (whether
/// or not they could be removed), or the user's cards in play that match;
/// the ability reads it as `counted`.
fn count(en: &mut Engine, what: &Counted, ctx: &mut Ctx) -> R<bool> {
    let (n, list, cites) = match what {
        Counted::Dice(filter) => {
            let xs: Vec<usize> = (0..en.st.dice.len())
                .filter(|&x| {
                    matches!(en.st.dice[x].at, DieAt::Pool(_)) && en.die_matches(x, filter, ctx.by)
                })
                .collect();
            (xs.len(), en.die_list(&xs), [r::SHOWING, r::DICE_POOL])
        }
        Counted::Cards(want) => {
            let cs = en.cards_spotted(ctx.by, want);
            let keys: Vec<&str> = cs.iter().map(|&c| en.key(c)).collect();
            (cs.len(), keys.join(", "), [r::IN_PLAY, r::CONTROLLER])
        }
    };
    ctx.counted = Some(n as i64);
    let t = if n == 0 {
        "counted: none".to_string()
    } else {
        format!("counted: {n} ({list})")
    };
    en.log(Actor::Player(ctx.by), Event::Result, t, &cites);
    Ok(true)
}

/// Say which dice the filter matches that their controller's other die keeps
/// an opponent from removing.
fn note_guarded(en: &mut Engine, filter: &DieFilter, ctx: &Ctx) {
    let kept: Vec<usize> = (0..en.st.dice.len())
        .filter(|&x| {
            matches!(en.st.dice[x].at, DieAt::Pool(_))
                && en.die_matches(x, filter, ctx.by)
                && en.guarded(x, ctx.by)
        })
        .collect();
    if !kept.is_empty() {
        let t = format!(
            "{} cannot be removed by an opponent (another die in that pool says so)",
            en.die_list(&kept)
        );
        en.log(
            Actor::Player(ctx.by),
            Event::Result,
            t,
            &[r::REMOVING_DICE, r::INHERENT_DICE_ABILITIES],
        );
    }
}

/// Choose a character die (in a pool or not): it cannot be rolled next round.
fn freeze_die(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let named = ctx.step.as_ref().and_then(|d| d.step.dice.first().cloned());
    let Some(n) = named else {
        return Err(en.need(by, NeedKind::Choice, "the character die chosen (`dice:`)"));
    };
    let x = match en.stat.die(&n) {
        Some(x) if en.stat.defs[en.st.dice[x].card].card_type == CardType::Character => x,
        _ => {
            return rej(format!("{n} is not a character die"), r::CHARACTER_DIE);
        }
    };
    let next = en.st.round + 1;
    en.st.frozen.push((x, next));
    let t = format!(
        "die {n} is chosen ({}): it cannot be rolled during round {next}",
        if matches!(en.st.dice[x].at, DieAt::Pool(_)) {
            "in a pool"
        } else {
            "not in a pool"
        }
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::CHARACTER_DIE, r::ROLLING],
    );
    Ok(true)
}

/// Remove any number of dice matching the filter (the decision's `dice:`);
/// `removed` is their combined value, each increased by `increase`, or none
/// when no die is removed (then there is no value to reference).
/// How many dice `remove_dice` removes, and the increase to their values.
struct HowMany {
    increase: i64,
    at_most: Option<Amount>,
    exactly: Option<Amount>,
}

fn remove_dice(en: &mut Engine, filter: &DieFilter, how: HowMany, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let increase = how.increase;
    let Some(d) = ctx.step.clone() else {
        return Ok(false);
    };
    if let Some(a) = how.at_most {
        let n = usize::try_from(amount_of(en, a, ctx)).unwrap_or(0);
        if d.step.dice.len() > n {
            return rej(
                format!(
                    "{} dice named; the ability removes up to {n}",
                    d.step.dice.len()
                ),
                r::REMOVING_DICE,
            );
        }
    }
    let cands = pool_matching(en, filter, ctx);
    let mut xs = Vec::new();
    for n in &d.step.dice {
        match en.stat.die(n) {
            Some(x) if cands.contains(&x) && !xs.contains(&x) => xs.push(x),
            _ => {
                return rej(
                    format!("die {n} cannot be removed by this ability"),
                    r::REMOVING_DICE,
                );
            }
        }
    }
    if let Some(a) = how.exactly {
        let n = usize::try_from(amount_of(en, a, ctx)).unwrap_or(0);
        let must = n.min(cands.len());
        if xs.len() != must {
            return rej(
                format!(
                    "{} dice named; the ability removes {n}, and {} can be removed: {must} must be",
                    xs.len(),
                    cands.len()
                ),
                r::REMOVING_DICE,
            );
        }
    }
    if xs.is_empty() {
        ctx.removed = None;
        en.log(
            Actor::Player(by),
            Event::Result,
            "no dice are removed: there is no value to reference",
            &[r::REMOVING_DICE, r::COMBINED_VALUE],
        );
        return Ok(false);
    }
    let total: i64 = xs.iter().map(|&x| en.value_of(x) + increase).sum();
    ctx.removed = Some(total);
    ctx.removed_dice = xs.len();
    let t = format!(
        "{} removes {}{}: combined value {total}",
        seat_name(by),
        en.die_list(&xs),
        if increase > 0 {
            format!(", each value increased by {increase}")
        } else {
            String::new()
        }
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::REMOVING_DICE, r::COMBINED_VALUE, r::INCREASES],
    );
    let owners = removal_owners(en, &xs);
    en.leave_pool(&xs, &d)?;
    removed_by_effect(en, &xs, owners, ctx)?;
    Ok(true)
}

/// What a discard-from-play effect may discard.
struct Discardable<'a> {
    types: &'a [CardType],
    subtypes: &'a [String],
    cost_at_most: Option<Amount>,
    pay_dice: bool,
}

/// Discard a card from play (the decision's `to:`), as `what` allows.
fn discard_from_play(en: &mut Engine, what: &Discardable, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    if what.cost_at_most == Some(Amount::Removed) && ctx.removed.is_none() {
        en.log(
            Actor::Player(by),
            Event::Result,
            "no dice were removed: there is no value to compare a cost with, so nothing is discarded",
            &[r::COMBINED_VALUE, r::REMOVING_DICE],
        );
        return Ok(false);
    }
    let Some(n) = ctx.targets.get(ctx.next_target).cloned() else {
        return Err(en.need(
            by,
            NeedKind::Choice,
            "the card to discard from play (`to:`)",
        ));
    };
    ctx.next_target += 1;
    let c = en.card_named(Some(&n), r::CHOOSE_TARGET)?;
    let def = &en.stat.defs[c];
    let kind_ok = en.st.in_play(c)
        && what.types.contains(&en.st.cards[c].ctype)
        && (what.subtypes.is_empty() || what.subtypes.iter().any(|s| def.subtypes.contains(s)));
    if !kind_ok {
        let types: Vec<&str> = what.types.iter().map(|t| t.as_str()).collect();
        return rej(
            format!(
                "{n} is not a valid target: the ability discards a {}{} in play",
                if what.subtypes.is_empty() {
                    String::new()
                } else {
                    format!("{} ", what.subtypes.join(" or "))
                },
                types.join(" or ")
            ),
            r::CHOOSE_TARGET,
        );
    }
    let cost = def.cost.unwrap_or(0);
    if let Some(a) = what.cost_at_most {
        let most = amount_of(en, a, ctx);
        if cost > most {
            return rej(
                format!("{n} costs {cost}, more than {most}"),
                r::CHOOSE_TARGET,
            );
        }
    }
    if what.pay_dice {
        pay_character_dice(en, cost, ctx)?;
    }
    en.leave_play(c, Zone::Discard);
    en.log(
        Actor::Player(by),
        Event::StateChange,
        format!("{n} is discarded from play"),
        &[r::DISCARD_PILE, r::DICE_LEAVING_PLAY],
    );
    Ok(true)
}

/// Remove exactly `n` of the user's character dice (the decision's `dice:`).
fn pay_character_dice(en: &mut Engine, n: i64, ctx: &mut Ctx) -> R<()> {
    let by = ctx.by;
    let names = ctx
        .step
        .as_ref()
        .map(|d| d.step.dice.clone())
        .unwrap_or_default();
    if names.len() as i64 != n {
        return rej(
            format!(
                "{} character dice named (`dice:`); the card's cost asks for {n}",
                names.len()
            ),
            r::REMOVING_DICE,
        );
    }
    let xs = en.own_pool_dice(by, &names, r::REMOVING_DICE)?;
    if let Some(&x) = xs
        .iter()
        .find(|&&x| en.stat.defs[en.st.dice[x].card].card_type != CardType::Character)
    {
        return rej(
            format!("die {} is not a character die", en.die_id(x)),
            r::CHARACTER_DIE,
        );
    }
    let t = if xs.is_empty() {
        format!("{} removes no dice (the cost is 0)", seat_name(by))
    } else {
        format!("{} removes {}", seat_name(by), en.die_list(&xs))
    };
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::REMOVING_DICE],
    );
    if let Some(d) = ctx.step.clone() {
        en.leave_pool(&xs, &d)?;
    }
    Ok(())
}

/// Place the card with the ability on the bottom of its owner's deck, or in
/// their set-aside zone: from play, or, for an event being resolved, instead
/// of the discard pile.
fn move_this(en: &mut Engine, ctx: &mut Ctx, to: Zone) -> R<bool> {
    let by = ctx.by;
    let Some(c) = ctx.source else {
        return Ok(false);
    };
    if en.st.cards[c].zone == Zone::Queue {
        en.st.put(c, to);
    } else if en.st.in_play(c) {
        en.leave_play(c, to);
    } else {
        return Ok(false);
    }
    let owner = seat_name(en.st.cards[c].owner);
    let (t, rule) = if to == Zone::Deck {
        (
            format!("{} is placed on the bottom of {owner}'s deck", en.key(c)),
            r::DECK,
        )
    } else {
        (
            format!("{} is set aside in {owner}'s set-aside zone", en.key(c)),
            r::SET_ASIDE_ZONE,
        )
    };
    en.log(Actor::Player(by), Event::StateChange, t, &[rule]);
    Ok(true)
}

/// The card a decision's `uses:` names.
fn used_card(en: &mut Engine, ctx: &Ctx, rule: &'static str) -> R<Ix> {
    let name = ctx.step.as_ref().and_then(|d| d.step.uses.clone());
    let Some(n) = name else {
        return Err(en.need(
            ctx.by,
            NeedKind::Choice,
            "the card whose ability is used (`uses:`)",
        ));
    };
    en.card_named(Some(&n), rule)
}

/// A context for using another card's ability as if it were the user's: the
/// decision's targets not yet taken go with it.
fn borrowed(ctx: &Ctx, card: Ix) -> Ctx {
    Ctx {
        by: ctx.by,
        source: Some(card),
        subject: None,
        step: ctx.step.clone(),
        targets: ctx.targets.iter().skip(ctx.next_target).cloned().collect(),
        next_target: 0,
        removed: None,
        removed_dice: 0,
        removed_card: None,
        removals: 0,
        special: false,
        last: None,
        rolled: Vec::new(),
        answer: None,
        counted: None,
    }
}

/// Resolve a special ability on another card in play as if it were the user's.
fn use_special(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let c = used_card(en, ctx, r::SPECIAL_ABILITIES)?;
    let specials: Vec<usize> = en.stat.defs[c]
        .abilities
        .iter()
        .enumerate()
        .filter(|(_, a)| a.kind == super::model::AbilityKind::Special)
        .map(|(i, _)| i)
        .collect();
    if !en.st.in_play(c) || Some(c) == ctx.source {
        return rej(
            format!("{} is not another card in play", en.key(c)),
            r::CHOOSE_TARGET,
        );
    }
    let Some(&ab) = specials.first() else {
        return rej(
            format!("{} has no special ability", en.key(c)),
            r::SPECIAL_ABILITIES,
        );
    };
    let t = format!(
        "{} resolves the special ability on {} as if it were their card",
        seat_name(ctx.by),
        en.key(c)
    );
    en.log(
        Actor::Player(ctx.by),
        Event::Result,
        t,
        &[r::SPECIAL_ABILITIES, r::CONTROLLER],
    );
    let mut sub = borrowed(ctx, c);
    sub.special = true;
    en.use_ability(c, ab, sub, r::SPECIAL_ABILITIES)?;
    Ok(true)
}

/// Use the claim ability of a battlefield in the set-aside zone as if just claimed.
fn claim_set_aside(en: &mut Engine, ctx: &mut Ctx) -> R<bool> {
    let bf = used_card(en, ctx, r::BATTLEFIELDS)?;
    let set_aside = en.st.cards[bf].zone == Zone::SetAside
        && en.stat.defs[bf].card_type == CardType::Battlefield;
    if !set_aside {
        return rej(
            format!(
                "{} is not a battlefield brought to the game and not being used (in the set-aside zone)",
                en.key(bf)
            ),
            r::SET_ASIDE_ZONE,
        );
    }
    let claim = en.stat.defs[bf]
        .abilities
        .iter()
        .position(|a| a.kind == super::model::AbilityKind::Claim);
    let Some(ab) = claim else {
        en.log(
            Actor::Player(ctx.by),
            Event::Result,
            format!("{} has no claim ability: nothing happens", en.key(bf)),
            &[r::CLAIM_ABILITIES],
        );
        return Ok(false);
    };
    let t = format!(
        "{} uses the claim ability of {} (not being used) as if they had just claimed it",
        seat_name(ctx.by),
        en.key(bf)
    );
    en.log(
        Actor::Player(ctx.by),
        Event::Result,
        t,
        &[r::CLAIM_ABILITIES, r::SET_ASIDE_ZONE],
    );
    let sub = borrowed(ctx, bf);
    en.use_ability(bf, ab, sub, r::CLAIM_ABILITIES)?;
    Ok(true)
}

/// Roll a die of a card titled `title` from the user's set-aside zone into their pool.
fn roll_set_aside(en: &mut Engine, title: &str, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let found = (0..en.st.dice.len()).find(|&x| {
        let c = en.st.dice[x].card;
        en.st.dice[x].at == DieAt::SetAside
            && en.st.cards[c].zone == Zone::SetAside
            && en.st.cards[c].owner == by
            && en.stat.defs[c].title == title
    });
    let Some(x) = found else {
        let t = format!(
            "no {title} die is in {}'s set-aside zone: nothing is rolled",
            seat_name(by)
        );
        en.log(Actor::Player(by), Event::Result, t, &[r::SET_ASIDE_ZONE]);
        return Ok(false);
    };
    let Some(d) = ctx.step.clone() else {
        return Err(en.need(by, NeedKind::Random, "roll results (`roll:`)"));
    };
    let t = format!(
        "rolls the {title} die {} from the set-aside zone into the pool",
        en.die_id(x)
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::SET_ASIDE_ZONE, r::ROLLING],
    );
    en.roll(by, &[x], &d)?;
    Ok(true)
}
