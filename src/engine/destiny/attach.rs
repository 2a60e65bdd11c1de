//! "Search your deck or discard pile for <title> and attach it to this
//! support as an upgrade (without paying its cost)": a card entering play
//! through an ability, not played, so a second copy of a unique card may
//! enter and its controller then discards one of the copies.

use super::engine::{Ctx, Engine, R, rej};
use super::rules as r;
use super::state::{DieAt, Zone, seat_name};
use crate::engine::{Actor, End, Event, NeedKind};

/// Attach the card the decision's `play:` names, a card titled `title` from
/// the user's deck or discard pile, to the card with the ability (the
/// decision naming none: nothing is attached).
pub fn attach_from(en: &mut Engine, title: &str, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let (Some(host), Some(d)) = (ctx.source, ctx.step.clone()) else {
        return Ok(false);
    };
    let Some(n) = d.step.play.clone() else {
        let t = format!("{} attaches no {title}", seat_name(by));
        en.log(Actor::Player(by), Event::Pass, t, &[r::SEARCH]);
        return Ok(false);
    };
    let c = en.card_named(Some(&n), r::SEARCH)?;
    let p = usize::from(by);
    let from_deck = en.st.deck[p].contains(&c);
    if en.stat.defs[c].title != title || !(from_deck || en.st.discard[p].contains(&c)) {
        return rej(
            format!(
                "{n} is not a {title} in {}'s deck or discard pile",
                seat_name(by)
            ),
            r::SEARCH,
        );
    }
    en.st.unlist(c);
    let s = &mut en.st.cards[c];
    s.zone = Zone::Play;
    s.controller = by;
    s.on = Some(host);
    s.ctype = super::model::CardType::Upgrade;
    s.exhausted = false;
    for x in en.st.dice_of(c) {
        en.st.dice[x].at = DieAt::OnCard;
    }
    let t = format!(
        "{n} is attached to {} as an upgrade, without paying its cost",
        en.key(host)
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::SEARCH, r::CHANGING_CARD_TYPES],
    );
    if from_deck {
        let what = format!("the order of {}'s deck once shuffled", seat_name(by));
        en.trace
            .not_modelled(en.level, Actor::Player(by), what.clone(), &[r::SEARCH]);
        return Err(en.halt(End::NotModelled { what }));
    }
    keep_one_copy(en, c, &d)?;
    Ok(true)
}

/// A unique card that entered play while its controller already controls a
/// copy: they choose one of the copies (the decision's `discard:`) and
/// discard it.
fn keep_one_copy(
    en: &mut Engine,
    c: usize,
    d: &crate::engine::Scripted<super::model::Step>,
) -> R<()> {
    let def = &en.stat.defs[c];
    let by = en.st.cards[c].controller;
    let copies: Vec<usize> = (0..en.st.cards.len())
        .filter(|&x| {
            en.st.in_play(x)
                && en.st.cards[x].controller == by
                && en.stat.defs[x].title == def.title
        })
        .collect();
    if !def.unique || copies.len() < 2 {
        return Ok(());
    }
    let pick = match d.step.discard.as_slice() {
        [one] => en.stat.find(one).filter(|x| copies.contains(x)),
        _ => None,
    };
    let Some(x) = pick else {
        return Err(en.need(
            by,
            NeedKind::Choice,
            format!(
                "the copy of {} discarded for uniqueness (`discard:`)",
                def.title
            ),
        ));
    };
    en.leave_play(x, Zone::Discard);
    let t = format!(
        "{} controls two copies of the unique {}: they discard {}",
        seat_name(by),
        en.stat.defs[c].title,
        en.key(x)
    );
    en.log(Actor::Player(by), Event::StateChange, t, &[r::UNIQUENESS]);
    Ok(())
}

/// The supports `attach_self` may attach to, and the one it readies.
pub struct Host<'a> {
    pub subtype: Option<&'a str>,
    pub title: Option<&'a str>,
    pub ready_title: Option<&'a str>,
}

impl Host<'_> {
    fn words(&self) -> String {
        [self.title, self.subtype]
            .into_iter()
            .flatten()
            .chain(["support"])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The card with the ability becomes an upgrade on one of its controller's
/// supports of the host's subtype and title (the decision's `on:`, or the
/// only one), keeping its dice (returned to it) and its state (ready or
/// exhausted); that support is readied if its title is `ready_title`. No
/// such support: nothing happens.
pub fn attach_self(en: &mut Engine, want: &Host, ctx: &mut Ctx) -> R<bool> {
    let by = ctx.by;
    let Some(c) = ctx.source else {
        return Ok(false);
    };
    let hosts: Vec<usize> = (0..en.st.cards.len())
        .filter(|&x| {
            let def = &en.stat.defs[x];
            x != c
                && en.st.in_play(x)
                && en.st.cards[x].controller == by
                && en.st.cards[x].ctype == super::model::CardType::Support
                && want
                    .subtype
                    .is_none_or(|s| def.subtypes.iter().any(|t| t == s))
                && want.title.is_none_or(|t| def.title == t)
        })
        .collect();
    let named = ctx.step.as_ref().and_then(|d| d.step.on.clone());
    let what = want.words();
    let host = match (named, hosts.as_slice()) {
        (_, []) => {
            let t = format!("{} spots no {what}: nothing happens", seat_name(by));
            en.log(Actor::Player(by), Event::Result, t, &[r::SPOTTING]);
            return Ok(false);
        }
        (Some(n), _) => match en.stat.find(&n) {
            Some(h) if hosts.contains(&h) => h,
            _ => {
                return rej(
                    format!("{n} is not a {what} {} controls", seat_name(by)),
                    r::SPOTTING,
                );
            }
        },
        (None, [one]) => *one,
        (None, _) => {
            return Err(en.need(by, NeedKind::Choice, format!("the {what} (`on:`)")));
        }
    };
    if en.st.cards[c].on == Some(host) {
        return rej(
            format!("{} is already attached to {}", en.key(c), en.key(host)),
            r::MOVE,
        );
    }
    for u in en.st.upgrades(c) {
        en.leave_play(u, Zone::Discard);
    }
    let s = &mut en.st.cards[c];
    s.ctype = super::model::CardType::Upgrade;
    s.on = Some(host);
    s.damage = 0;
    s.shields = 0;
    for x in en.st.dice_of(c) {
        en.st.dice[x].at = DieAt::OnCard;
    }
    let t = format!(
        "{} becomes an upgrade on {}, keeping its dice (returned to it) and its state: \
         a character so attached is not defeated",
        en.key(c),
        en.key(host)
    );
    en.log(
        Actor::Player(by),
        Event::StateChange,
        t,
        &[r::CHANGING_CARD_TYPES, r::UPGRADES],
    );
    if want
        .ready_title
        .is_some_and(|ti| en.stat.defs[host].title == ti)
        && en.st.cards[host].exhausted
    {
        en.st.cards[host].exhausted = false;
        let t = format!("{} readies", en.key(host));
        en.log(Actor::Player(by), Event::StateChange, t, &[r::READY]);
    }
    Ok(true)
}
