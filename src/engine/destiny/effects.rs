//! The queue, triggered abilities ("before", "after", replacement), effects,
//! damage, shields and defeat.

use super::engine::{Ctx, Engine, Item, R, Stop, rej};
use super::model::{
    AbilityKind, CardType, DamageKind, Effect, Keyword, Step, Target, TriggerEvent, Verb, Who,
};
use super::rules as r;
use super::state::{DieAt, DieIx, Ix, Zone, face_shows, face_value, other, seat_name};
use crate::cards::die::Symbol;
use crate::engine::{Actor, Event, NeedKind, Scripted, Seat};

/// Damage being dealt.
#[derive(Debug, Clone, Copy)]
pub struct Dmg {
    pub amount: i64,
    pub kind: Option<DamageKind>,
    pub unblockable: bool,
    pub by: Seat,
    pub die: bool,
}

impl Dmg {
    pub fn plain(amount: i64, by: Seat) -> Dmg {
        Dmg {
            amount,
            kind: None,
            unblockable: false,
            by,
            die: false,
        }
    }
}

/// Whose dice an effect may turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Whose {
    #[default]
    Yours,
    Opponents,
    Any,
    /// Only the dice of this card (and the turning player's).
    Card(Option<Ix>),
}

/// Which dice an effect may turn, and to which sides.
#[derive(Debug, Clone, Copy, Default)]
pub struct Turning<'a> {
    /// Whose dice: the turning player's (the default), an opponent's, any
    /// player's, or only the dice of one card (`card`).
    pub whose: Whose,
    /// Only character dice.
    pub character: bool,
    /// Only dice showing this symbol (a word `symbol_shows` reads).
    pub showing: Option<&'a str>,
    /// Only to a side showing a blank.
    pub to_blank: bool,
    /// Only to a side showing this symbol.
    pub to_showing: Option<&'a str>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    Before,
    After,
}

impl Engine<'_> {
    // ------------------------------------------------------------ the queue

    /// Resolve everything in the queue, first in, first out.
    pub fn drain(&mut self) -> R<()> {
        while let Some(item) = self.queue.pop_front() {
            self.tick()?;
            self.level = 1;
            let res = self.resolve_item(item);
            self.level = 0;
            res?;
        }
        Ok(())
    }

    fn resolve_item(&mut self, item: Item) -> R<()> {
        match item {
            Item::Dice {
                by,
                dice,
                target,
                step,
                symbol,
            } => {
                let sym = self.group_symbol(&dice, step.step.resolve_as)?;
                if sym != symbol {
                    return rej(
                        format!(
                            "all dice resolved in one action show the same symbol ({} and {})",
                            symbol.name(),
                            sym.name()
                        ),
                        r::RESOLVE_DICE,
                    );
                }
                self.resolve_group(
                    by,
                    &dice,
                    super::actions::Aim::Named(target),
                    (false, 0),
                    &step,
                )
            }
            Item::Event { card, by, step } => {
                let abs: Vec<usize> = self.stat.defs[card]
                    .abilities
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| a.kind == AbilityKind::Action)
                    .map(|(i, _)| i)
                    .collect();
                self.resolved.push(format!("event:{}", self.key(card)));
                for ab in abs {
                    let ctx = if self.stat.defs[card].abilities[ab].may {
                        // The optional part takes its choices from the `use`.
                        match self.event_may(by, card)? {
                            Some(used) => self.ctx_from(by, Some(card), None, &used),
                            None => continue,
                        }
                    } else {
                        self.ctx_from(by, Some(card), None, &step)
                    };
                    self.use_ability(card, ab, ctx, r::EVENTS)?;
                }
                if self.st.cards[card].zone == Zone::Queue {
                    self.st.put(card, Zone::Discard);
                    self.log(
                        Actor::Player(by),
                        Event::Pop,
                        format!("{} resolved and is discarded", self.key(card)),
                        &[r::EVENTS, r::QUEUE],
                    );
                }
                Ok(())
            }
            Item::Ability {
                card,
                ab,
                by,
                subject,
            } => self.resolve_triggered(card, ab, by, subject, When::After),
        }
    }

    /// The `use` with which the player who played an event takes one of its
    /// optional ("you may") sentences, or `None` when they decline it.
    fn event_may(&mut self, by: Seat, card: Ix) -> R<Option<Scripted<Step>>> {
        let key = self.key(card).to_string();
        let ask =
            format!("use or decline the optional part of {key} (`use`/`decline`, card: {key})");
        let d = self.use_or_decline(by, &key, ask)?;
        if d.step.verb() == Some(Verb::Decline) {
            let t = format!("{} declines the optional part of {key}", seat_name(by));
            self.log(Actor::Player(by), Event::Pass, t, &[r::EVENTS]);
            return Ok(None);
        }
        Ok(Some(d))
    }

    /// Whether one of the dice of `subject` the last roll rolled shows `w`.
    fn rolled_showing(&self, subject: Option<Ix>, w: &str) -> bool {
        self.rolled_now.iter().any(|&x| {
            Some(self.st.dice[x].card) == subject
                && self
                    .st
                    .showing(self.stat, x)
                    .is_some_and(|f| face_shows(f, Some(w)))
        })
    }

    /// The cost "remove this die": a die of `c` in the user's pool (of
    /// several, the decision's `remove:`) leaves the pool.
    fn remove_this_die(&mut self, c: Ix, ctx: &Ctx) -> R<()> {
        let by = ctx.by;
        let mine: Vec<DieIx> = self
            .st
            .dice_of(c)
            .into_iter()
            .filter(|&x| {
                matches!(self.st.dice[x].at, DieAt::Pool(_)) && self.st.dice[x].controller == by
            })
            .collect();
        let named = ctx
            .step
            .as_ref()
            .and_then(|d| d.step.remove.first().cloned());
        let x = match (mine.as_slice(), named) {
            ([], _) => {
                return rej(
                    format!(
                        "no die of {} is in {}'s pool: the cost (remove this die) cannot be paid",
                        self.key(c),
                        seat_name(by)
                    ),
                    r::REMOVING_DICE,
                );
            }
            (_, Some(n)) => match self.stat.die(&n) {
                Some(x) if mine.contains(&x) => x,
                _ => {
                    return rej(
                        format!("die {n} is not this card's die in the pool"),
                        r::REMOVING_DICE,
                    );
                }
            },
            ([x], None) => *x,
            (_, None) => {
                return Err(self.need(
                    by,
                    NeedKind::Choice,
                    "which of this card's dice to remove (`remove:`)",
                ));
            }
        };
        match &ctx.step {
            Some(d) => self.leave_pool(&[x], d)?,
            None => self.st.dice[x].at = DieAt::OnCard,
        }
        let t = format!(
            "{} removes die {} (the cost)",
            seat_name(by),
            self.die_id(x)
        );
        self.log(
            Actor::Player(by),
            Event::StateChange,
            t,
            &[r::REMOVING_DICE],
        );
        Ok(())
    }

    /// Abilities of `when` triggered by `ev` (concerning `subject`, done by `actor`).
    pub fn triggered(
        &self,
        when: When,
        ev: TriggerEvent,
        subject: Option<Ix>,
        actor: Option<Seat>,
        dmg: Option<DamageKind>,
    ) -> Vec<(Ix, usize)> {
        let kind = if when == When::Before {
            AbilityKind::Before
        } else {
            AbilityKind::After
        };
        let mut out = Vec::new();
        for c in 0..self.st.cards.len() {
            if !self.st.in_play(c) {
                continue;
            }
            for (i, a) in self.abilities_of(c) {
                let Some(t) = &a.on else { continue };
                if a.kind != kind || t.event != ev || a.decrease > 0 {
                    continue;
                }
                if a.first_each_round && self.st.book.first_used.contains(&(c, i)) {
                    continue;
                }
                let me = self.st.cards[c].controller;
                let owner_of_subject = subject.map(|s| self.st.cards[s].controller).or(actor);
                let ok = match t.who {
                    Who::This => subject == Some(c),
                    Who::Attached => subject.is_some() && subject == self.st.cards[c].on,
                    Who::Yours => owner_of_subject == Some(me),
                    Who::Opponents => owner_of_subject == Some(other(me)),
                    Who::Any => true,
                };
                let ok = ok
                    && t.damage.is_none_or(|k| dmg == Some(k))
                    && t.card_type.is_none_or(|ty| {
                        subject.is_some_and(|s| self.stat.defs[s].card_type == ty)
                    })
                    && t.color.is_none_or(|col| {
                        subject.is_some_and(|s| self.stat.defs[s].color == Some(col))
                    })
                    && t.subtype.as_ref().is_none_or(|sub| {
                        subject.is_some_and(|s| self.stat.defs[s].subtypes.contains(sub))
                    })
                    && (!t.on_this || subject.is_some_and(|s| self.st.cards[s].on == Some(c)))
                    && (!t.by_controller || actor == owner_of_subject)
                    && (!t.by_opponent || actor == Some(other(me)))
                    && (!t.by_you || actor == Some(me))
                    && t.showing.as_deref().is_none_or(|w| {
                        ev == TriggerEvent::Rolled && self.rolled_showing(subject, w)
                    });
                if ok {
                    out.push((c, i));
                }
            }
        }
        out
    }

    /// "After" abilities triggered by `ev` enter the queue (ordered when simultaneous).
    pub fn after(
        &mut self,
        ev: TriggerEvent,
        subject: Option<Ix>,
        actor: Option<Seat>,
        dmg: Option<DamageKind>,
    ) -> R<()> {
        let list = self.triggered(When::After, ev, subject, actor, dmg);
        let list: Vec<(Ix, usize, Option<Ix>)> =
            list.into_iter().map(|(c, a)| (c, a, subject)).collect();
        self.enqueue(list)
    }

    /// Simultaneous "after" abilities (card, ability, subject) enter the queue, ordered.
    pub fn enqueue(&mut self, list: Vec<(Ix, usize, Option<Ix>)>) -> R<()> {
        let pairs: Vec<(Ix, usize)> = list.iter().map(|&(c, a, _)| (c, a)).collect();
        let ordered = self.order(pairs)?;
        for (c, ab) in ordered {
            let Some(&(_, _, subject)) = list.iter().find(|&&(x, a, _)| x == c && a == ab) else {
                continue;
            };
            let by = self.st.cards[c].controller;
            if self.ability(c, ab).first_each_round {
                self.st.book.first_used.push((c, ab));
            }
            let pos = self.queue.len() + 1;
            let ev = self
                .ability(c, ab)
                .on
                .as_ref()
                .map_or("", |t| t.event.as_str());
            let t = format!(
                "{}'s after ability ({ev}) enters the queue at position {pos}",
                self.key(c)
            );
            self.trace.push(
                pos,
                Actor::Player(by),
                Event::Push,
                t,
                &[r::AFTER_ABILITIES, r::PART_7_ABILITIES_QUEUE],
            );
            self.queue.push_back(Item::Ability {
                card: c,
                ab,
                by,
                subject,
            });
        }
        Ok(())
    }

    /// "Before" abilities triggered by `ev` resolve at once, interrupting.
    pub fn before(
        &mut self,
        ev: TriggerEvent,
        subject: Option<Ix>,
        actor: Option<Seat>,
        dmg: Option<DamageKind>,
    ) -> R<()> {
        let list: Vec<(Ix, usize)> = self
            .triggered(When::Before, ev, subject, actor, dmg)
            .into_iter()
            .filter(|&(c, a)| !self.ability(c, a).instead)
            .collect();
        let list = self.order(list)?;
        for (c, ab) in list {
            let by = self.st.cards[c].controller;
            self.resolve_triggered(c, ab, by, subject, When::Before)?;
        }
        Ok(())
    }

    /// The order of simultaneous abilities: the battlefield's controller decides between players.
    fn order(&mut self, list: Vec<(Ix, usize)>) -> R<Vec<(Ix, usize)>> {
        if list.len() < 2 {
            return Ok(list);
        }
        let owners: Vec<Seat> = list
            .iter()
            .map(|&(c, _)| self.st.cards[c].controller)
            .collect();
        let mixed = owners.iter().any(|&o| o != owners[0]);
        let chooser = if mixed {
            self.st.bf_controller.unwrap_or(self.st.turn)
        } else {
            owners[0]
        };
        let cite = if mixed {
            r::SIMULTANEOUS_ABILITIES
        } else {
            r::TRIGGERED_ABILITIES
        };
        let Some(d) = self.script.peek().cloned() else {
            return Err(self.need(
                chooser,
                NeedKind::Order,
                "the order of simultaneous abilities (`order:`)",
            ));
        };
        if d.player != chooser || d.step.verb() != Some(Verb::Order) {
            return Err(self.need(
                chooser,
                NeedKind::Order,
                "the order of simultaneous abilities (`order:`)",
            ));
        }
        self.script.take();
        let mut out = Vec::new();
        for n in &d.step.order {
            if let Some(s) = super::model::SEATS.iter().position(|x| x == n) {
                let mine: Vec<(Ix, usize)> = list
                    .iter()
                    .copied()
                    .filter(|&(c, _)| usize::from(self.st.cards[c].controller) == s)
                    .collect();
                out.extend(mine);
            } else if let Some(c) = self.stat.find(n) {
                out.extend(list.iter().copied().filter(|&(x, _)| x == c));
            }
        }
        let mut uniq: Vec<(Ix, usize)> = Vec::new();
        for x in out {
            if !uniq.contains(&x) {
                uniq.push(x);
            }
        }
        let out = uniq;
        if out.len() != list.len() || list.iter().any(|x| !out.contains(x)) {
            self.reject(
                &d,
                "the order must name every simultaneous ability once".into(),
                cite,
            );
            return Err(self.need(
                chooser,
                NeedKind::Order,
                "the order of simultaneous abilities (`order:`)",
            ));
        }
        let names: Vec<String> = out.iter().map(|&(c, _)| self.key(c).to_string()).collect();
        let t = format!(
            "{} orders simultaneous abilities: {}",
            seat_name(chooser),
            names.join(", ")
        );
        self.log(
            Actor::Player(chooser),
            Event::StateChange,
            t,
            &[r::SIMULTANEOUS_ABILITIES, cite],
        );
        Ok(out)
    }

    /// Resolve a triggered ability: ask about "may", take its decision, pay, carry out.
    fn resolve_triggered(
        &mut self,
        c: Ix,
        ab: usize,
        by: Seat,
        subject: Option<Ix>,
        when: When,
    ) -> R<()> {
        let a = self.ability(c, ab);
        let cite = if when == When::Before {
            r::BEFORE_ABILITIES
        } else {
            r::AFTER_ABILITIES
        };
        let step = self.peek_use_or_decline(by, self.key(c));
        if a.may && step.is_none() {
            return Err(self.need(
                by,
                NeedKind::Response,
                format!(
                    "use or decline {}'s ability (`use`/`decline`, card: {})",
                    self.key(c),
                    self.key(c)
                ),
            ));
        }
        if step.is_some() {
            self.script.take();
        }
        if let Some(d) = step
            .as_ref()
            .filter(|d| d.step.verb() == Some(Verb::Decline))
        {
            if a.may {
                self.log(
                    Actor::Player(by),
                    Event::Pass,
                    format!("{} declines {}'s ability", seat_name(by), self.key(c)),
                    &[cite],
                );
                return Ok(());
            }
            let d = d.clone();
            self.reject(
                &d,
                format!("{}'s ability is not optional", self.key(c)),
                r::PART_7_ABILITIES,
            );
        }
        self.resolved.push(self.key(c).to_string());
        let mut ctx = Ctx {
            by,
            source: Some(c),
            subject,
            ..Ctx::default()
        };
        if let Some(d) = &step {
            ctx.targets = d.step.to.clone();
            ctx.step = Some(d.clone());
        }
        let res = self.use_ability(c, ab, ctx, cite);
        match (res, step) {
            (Err(Stop::Rej(e)), Some(d)) => {
                self.reject(&d, e.reason, e.rule);
                Ok(())
            }
            (other, _) => other,
        }
    }

    /// Pay an ability's cost, check its condition, carry out `effect` and (if in full) `then`.
    pub fn use_ability(&mut self, c: Ix, ab: usize, mut ctx: Ctx, cite: &'static str) -> R<()> {
        let a = self.ability(c, ab).clone();
        let by = ctx.by;
        let text = a
            .text
            .clone()
            .unwrap_or_else(|| format!("{:?} ability", a.kind));
        self.log(
            Actor::Player(by),
            Event::Result,
            format!("{}: {text}", self.key(c)),
            &[cite],
        );
        if let Some(cond) = &a.condition
            && !self.condition_holds(by, Some(c), cond)
        {
            return Ok(());
        }
        self.pay(c, &a.cost, &ctx)?;
        let mut full = true;
        for e in &a.effect {
            full &= self.apply(e, &mut ctx)?;
        }
        if !a.then.is_empty() {
            if full {
                for e in &a.then {
                    self.apply(e, &mut ctx)?;
                }
            } else {
                let t = "what precedes \"then\" did not resolve in full: the rest does not resolve";
                self.log(Actor::Player(by), Event::Result, t, &[r::THEN_EFFECTS]);
            }
        }
        Ok(())
    }

    fn pay(&mut self, c: Ix, cost: &super::model::Cost, ctx: &Ctx) -> R<()> {
        let by = ctx.by;
        if cost.exhaust_this {
            if self.st.cards[c].exhausted {
                return rej(
                    format!("{} is exhausted (the ability exhausts it)", self.key(c)),
                    r::EXHAUSTED,
                );
            }
            self.st.cards[c].exhausted = true;
            self.log(
                Actor::Player(by),
                Event::StateChange,
                format!("{} exhausts", self.key(c)),
                &[r::EXHAUSTED],
            );
        }
        let resources = if cost.resources_per_die_rolled {
            let t = format!(
                "the cost is {} resource(s), one for each die just rolled",
                self.just_rolled
            );
            self.log(Actor::Player(by), Event::Result, t, &[r::ACTIVATE_A_CARD]);
            self.just_rolled
        } else {
            cost.resources
        };
        if resources > 0 {
            if self.st.resources[usize::from(by)] < resources {
                return rej(
                    format!("{} cannot spend {resources} resources", seat_name(by)),
                    r::PART_6_GAME_CONCEPTS_RESOURCES,
                );
            }
            self.st.resources[usize::from(by)] -= resources;
        }
        if cost.set_aside_this {
            if !self.st.in_play(c) {
                return rej(format!("{} is not in play", self.key(c)), r::SET_ASIDE_ZONE);
            }
            self.leave_play(c, Zone::SetAside);
            self.log(
                Actor::Player(by),
                Event::StateChange,
                format!("{} is set aside", self.key(c)),
                &[r::SET_ASIDE_ZONE],
            );
        }
        if cost.shields > 0 {
            if self.st.cards[c].shields < cost.shields {
                return rej(
                    format!(
                        "{} has not {} shield(s) to remove",
                        self.key(c),
                        cost.shields
                    ),
                    r::SHIELDS,
                );
            }
            self.st.cards[c].shields -= cost.shields;
            self.log(
                Actor::Player(by),
                Event::StateChange,
                format!("{} removes {} shield(s)", self.key(c), cost.shields),
                &[r::SHIELDS],
            );
        }
        if cost.remove_this_die {
            self.remove_this_die(c, ctx)?;
        }
        if cost.discard > 0 {
            let names = ctx
                .step
                .as_ref()
                .map(|d| d.step.discard.clone())
                .unwrap_or_default();
            if names.len() != cost.discard {
                return rej(
                    format!(
                        "the cost discards {} card(s) from hand (`discard:`)",
                        cost.discard
                    ),
                    r::HAND,
                );
            }
            for n in names {
                let x = self.card_named(Some(&n), r::HAND)?;
                if !self.st.hand[usize::from(by)].contains(&x) {
                    return rej(format!("{n} is not in {}'s hand", seat_name(by)), r::HAND);
                }
                self.log(
                    Actor::Player(by),
                    Event::StateChange,
                    format!("{} discards {n}", seat_name(by)),
                    &[r::HAND],
                );
                self.discard_from_hand(by, x)?;
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ targets

    /// The other copies of `c` (by title) in its controller's discard pile.
    pub fn other_copies_in_discard(&self, c: Ix) -> i64 {
        let title = &self.stat.defs[c].title;
        let p = usize::from(self.st.cards[c].controller);
        self.st.discard[p]
            .iter()
            .filter(|&&x| x != c && &self.stat.defs[x].title == title)
            .count() as i64
    }

    /// Whether a condition holds for `by` (using the card `source`); when it
    /// does not, the trace says why.
    pub fn condition_holds(
        &mut self,
        by: Seat,
        source: Option<Ix>,
        cond: &super::model::Condition,
    ) -> bool {
        if cond.copy_in_discard {
            let n = source.map_or(0, |c| self.other_copies_in_discard(c));
            let t = format!(
                "{n} other copy(ies) of the card in {}'s discard pile",
                seat_name(by)
            );
            self.log(
                Actor::Player(by),
                Event::Result,
                t,
                &[r::COPY_OF_A_CARD, r::DISCARD_PILE],
            );
            if n == 0 {
                return false;
            }
        }
        if cond.first_round {
            let t = format!(
                "round {}: the first round of play is round 1",
                self.st.round
            );
            self.log(Actor::Player(by), Event::Result, t, &[r::ROUNDS]);
            if self.st.round != 1 {
                return false;
            }
        }
        if let Some(col) = cond.spot
            && !self.spots(by, col)
        {
            let t = format!(
                "{} cannot spot a {col:?} character: the card does nothing",
                seat_name(by)
            );
            self.log(Actor::Player(by), Event::Result, t, &[r::SPOTTING]);
            return false;
        }
        if let Some(want) = &cond.spot_card
            && !self.spots_card(by, want)
        {
            let color = want.color.map(super::library::color_name);
            let ty = want.card_type.map(CardType::as_str);
            let what = [color, want.title.as_deref(), want.subtype.as_deref(), ty]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" ");
            let n = match want.count {
                1 => "a".to_string(),
                n => n.to_string(),
            };
            let t = format!(
                "{} cannot spot {n} {what}: the card does nothing",
                seat_name(by)
            );
            self.log(Actor::Player(by), Event::Result, t, &[r::SPOTTING]);
            return false;
        }
        if let Some(ty) = cond.this_is
            && source.is_none_or(|c| self.st.cards[c].ctype != ty)
        {
            let t = format!("the card is not {} now: nothing happens", ty.as_str());
            self.log(
                Actor::Player(by),
                Event::Result,
                t,
                &[r::CHANGING_CARD_TYPES],
            );
            return false;
        }
        if cond.control_battlefield && self.st.bf_controller != Some(by) {
            let t = format!(
                "{} does not control the battlefield: the ability does nothing",
                seat_name(by)
            );
            self.log(Actor::Player(by), Event::Result, t, &[r::BATTLEFIELDS]);
            return false;
        }
        true
    }

    /// The card an effect's target means; `None` if there is no valid target.
    pub fn target(&mut self, t: Target, ctx: &mut Ctx) -> R<Option<Ix>> {
        let found = self.target_of(t, ctx)?;
        if found.is_some() {
            ctx.last = found;
        }
        Ok(found)
    }

    fn target_of(&mut self, t: Target, ctx: &mut Ctx) -> R<Option<Ix>> {
        let by = ctx.by;
        let filter = match t {
            Target::Same => return Ok(ctx.last),
            Target::ChosenOtherYours => Some(by),
            Target::This => return Ok(ctx.source),
            Target::Attached => return Ok(ctx.source.and_then(|s| self.st.cards[s].on)),
            Target::Subject => return Ok(ctx.subject),
            Target::EachOpponents | Target::EachYours => return Ok(None),
            Target::OpponentsOwn => return self.opponents_own(ctx),
            Target::Chosen | Target::ChosenOther => None,
            Target::ChosenYours => Some(by),
            Target::RemovedDieCard => return Ok(ctx.removed_card),
            Target::ChosenOpponents | Target::ChosenOpponentsCard => Some(other(by)),
            Target::ChosenSupport => None,
        };
        let characters = t != Target::ChosenSupport;
        let supports = matches!(t, Target::ChosenOpponentsCard | Target::ChosenSupport);
        let cands: Vec<Ix> = (0..2u8)
            .filter(|&q| characters && filter.is_none_or(|f| f == q))
            .flat_map(|q| self.st.characters(q))
            .chain((0..self.st.cards.len()).filter(|&c| {
                supports
                    && self.st.in_play(c)
                    && filter.is_none_or(|f| self.st.cards[c].controller == f)
                    && self.st.cards[c].ctype == CardType::Support
            }))
            .filter(|&c| {
                let another = matches!(t, Target::ChosenOtherYours | Target::ChosenOther);
                // "Another character": not the card with the ability, nor the
                // character an upgrade with the ability is attached to.
                !another
                    || (Some(c) != ctx.source
                        && Some(c) != ctx.source.and_then(|s| self.st.cards[s].on))
            })
            .collect();
        if let Some(n) = ctx.targets.get(ctx.next_target).cloned() {
            ctx.next_target += 1;
            return match self.stat.find(&n) {
                Some(c) if cands.contains(&c) => Ok(Some(c)),
                _ => rej(
                    format!(
                        "{n} is not a valid target (cannot choose an invalid target, e.g. a defeated character)"
                    ),
                    r::CHOOSE_TARGET,
                ),
            };
        }
        match cands.as_slice() {
            [] => {
                self.log(
                    Actor::Player(by),
                    Event::Result,
                    "no valid target: that effect does nothing",
                    &[r::CHOOSE_TARGET],
                );
                Ok(None)
            }
            [one] => Ok(Some(*one)),
            _ => Err(self.need(by, NeedKind::Choice, "a target character (`to:`)")),
        }
    }

    /// One of an opponent's characters, chosen by that opponent in their own
    /// `use` of the card with the ability (`to:`); the decision is kept in
    /// `ctx.answer` for what else the effect asks of them.
    fn opponents_own(&mut self, ctx: &mut Ctx) -> R<Option<Ix>> {
        let o = other(ctx.by);
        let Some(source) = ctx.source else {
            return Ok(None);
        };
        let cands = self.st.characters(o);
        if cands.is_empty() {
            let t = format!("{} has no character to choose", seat_name(o));
            self.log(Actor::Player(o), Event::Result, t, &[r::CHOOSE_TARGET]);
            return Ok(None);
        }
        let key = self.key(source).to_string();
        let ask = format!(
            "choose one of your characters for {key}'s effect (`use`, card: {key}, to: [one of yours])"
        );
        let d = self.use_or_decline(o, &key, ask.clone())?;
        let pick = match (d.step.verb(), d.step.to.as_slice()) {
            (Some(Verb::Use), [one]) => self.stat.find(one).filter(|c| cands.contains(c)),
            _ => None,
        };
        let Some(c) = pick else {
            let why = format!(
                "{} must choose one of their own characters (`use`, naming one in `to:`): the effect is not optional",
                seat_name(o)
            );
            self.reject(&d, why, r::CHOOSE_TARGET);
            return Err(self.need(o, NeedKind::Choice, ask));
        };
        let t = format!("{} chooses {}", seat_name(o), self.key(c));
        self.log(Actor::Player(o), Event::Result, t, &[r::CHOOSE_TARGET]);
        ctx.answer = Some(d);
        Ok(Some(c))
    }

    // ------------------------------------------------------------ damage, shields, defeat

    /// Deal damage to a character: "before" abilities, shields first, excess ignored, defeat.
    pub fn deal_damage(&mut self, c: Ix, d: Dmg) -> R<bool> {
        if !self.st.in_play(c) || self.st.cards[c].ctype != CardType::Character {
            return Ok(false);
        }
        if d.amount <= 0 {
            self.log(
                Actor::Player(d.by),
                Event::Result,
                format!("0 damage to {}: no damage is dealt", self.key(c)),
                &[r::DAMAGE],
            );
            return Ok(false);
        }
        let saved = self.block;
        self.block = 0;
        self.before(TriggerEvent::TakesDamage, Some(c), Some(d.by), d.kind)?;
        let blocked = self.block.min(d.amount);
        self.block = saved;
        if !self.st.in_play(c) {
            let t = format!(
                "{} is no longer in play: the damage is not dealt",
                self.key(c)
            );
            self.log(Actor::Rules, Event::Result, t, &[r::CHOOSE_TARGET]);
            return Ok(false);
        }
        let mut left = d.amount - blocked;
        let mut by_shields = 0;
        if !d.unblockable {
            by_shields = self.st.cards[c].shields.min(left);
            self.st.cards[c].shields -= by_shields;
            left -= by_shields;
        }
        let room = self.st.remaining_health(self.stat, c).max(0);
        let taken = left.min(room);
        self.st.cards[c].damage += taken;
        let kind = d.kind.map_or("", |k| match k {
            DamageKind::Melee => " melee",
            DamageKind::Ranged => " ranged",
            DamageKind::Indirect => " indirect",
        });
        let mut t = format!("{} is dealt {}{kind} damage", self.key(c), d.amount);
        if blocked > 0 {
            t.push_str(&format!(", {blocked} blocked by an ability"));
        }
        if by_shields > 0 {
            t.push_str(&format!(", {by_shields} blocked by shields"));
        }
        if d.unblockable {
            t.push_str(" (unblockable: shields ignored)");
        }
        t.push_str(&format!(", takes {taken}"));
        if left > taken {
            t.push_str(&format!(", {} excess ignored", left - taken));
        }
        let mut cites = vec![r::DAMAGE];
        if by_shields > 0 {
            cites.push(r::SHIELDS);
        }
        if d.unblockable {
            cites.push(r::UNBLOCKABLE_DAMAGE);
        }
        if taken == 0 {
            cites.push(r::TAKING_DAMAGE);
        }
        self.log(Actor::Player(d.by), Event::StateChange, t, &cites);
        self.after(TriggerEvent::DealtDamage, Some(c), Some(d.by), d.kind)?;
        if taken > 0 {
            self.after(TriggerEvent::TakesDamage, Some(c), Some(d.by), d.kind)?;
        }
        if self.st.cards[c].damage >= self.stat.defs[c].health.unwrap_or(0) {
            self.defeat(c)?;
        }
        Ok(true)
    }

    /// Indirect damage from `by` to the opponent, who distributes it as they wish.
    /// `by` deals indirect damage to player `o`, who distributes it.
    pub fn indirect(
        &mut self,
        by: Seat,
        o: Seat,
        amount: i64,
        kind: Option<DamageKind>,
    ) -> R<bool> {
        let chars = self.st.characters(o);
        if chars.is_empty() || amount <= 0 {
            return Ok(false);
        }
        let plan: Vec<(Ix, i64)> = if chars.len() == 1 {
            vec![(chars[0], amount)]
        } else {
            self.assignment(o, &chars, amount)?
        };
        let t = format!(
            "{} distributes {amount} indirect damage as they wish",
            seat_name(o)
        );
        self.log(
            Actor::Player(o),
            Event::StateChange,
            t,
            &[r::INDIRECT_DAMAGE, r::DAMAGE],
        );
        for (c, n) in plan {
            if n > 0 {
                self.deal_damage(
                    c,
                    Dmg {
                        amount: n,
                        kind,
                        unblockable: false,
                        by,
                        die: false,
                    },
                )?;
            }
        }
        Ok(true)
    }

    /// An `assign:` decision by `o`: no more than remaining health plus shields, unless all are full.
    fn assignment(&mut self, o: Seat, chars: &[Ix], amount: i64) -> R<Vec<(Ix, i64)>> {
        loop {
            self.tick()?;
            let Some(d) = self.script.peek().cloned() else {
                return Err(self.need(
                    o,
                    NeedKind::Choice,
                    format!("distribute {amount} damage (`assign:`)"),
                ));
            };
            if d.player != o || d.step.verb() != Some(Verb::Assign) {
                return Err(self.need(
                    o,
                    NeedKind::Choice,
                    format!("distribute {amount} damage (`assign:`)"),
                ));
            }
            self.script.take();
            match self.check_assignment(chars, amount, &d) {
                Ok(plan) => return Ok(plan),
                Err(why) => self.reject(&d, why, r::DAMAGE),
            }
        }
    }

    fn check_assignment(
        &self,
        chars: &[Ix],
        amount: i64,
        d: &Scripted<Step>,
    ) -> Result<Vec<(Ix, i64)>, String> {
        let mut plan = Vec::new();
        for (n, &k) in &d.step.assign {
            match self.stat.find(n) {
                Some(c) if chars.contains(&c) && k >= 0 => plan.push((c, k)),
                _ => return Err(format!("{n} is not one of the player's characters")),
            }
        }
        let sum: i64 = plan.iter().map(|x| x.1).sum();
        if sum != amount {
            return Err(format!("{sum} assigned, {amount} to assign"));
        }
        let cap = |c: Ix| self.st.remaining_health(self.stat, c) + self.st.cards[c].shields;
        let all_full = chars
            .iter()
            .all(|&c| plan.iter().find(|x| x.0 == c).map_or(0, |x| x.1) >= cap(c));
        for &(c, k) in &plan {
            if k > cap(c) && !all_full {
                return Err(format!(
                    "{} is assigned {k}, more than its remaining health plus shields ({}), while other characters can take more",
                    self.key(c),
                    cap(c)
                ));
            }
        }
        Ok(plan)
    }

    /// Give shields: "before" abilities first; never more than 3.
    pub fn give_shields(&mut self, c: Ix, n: i64, by: Seat) -> R<bool> {
        if !self.st.in_play(c) || n <= 0 {
            return Ok(false);
        }
        self.before(TriggerEvent::GainsShields, Some(c), Some(by), None)?;
        let have = self.st.cards[c].shields;
        let add = n.min(3 - have).max(0);
        self.st.cards[c].shields += add;
        let mut t = format!("{} gains {add} shield(s) ({} now)", self.key(c), have + add);
        if add < n {
            t.push_str(&format!("; {} excess ignored (at most 3)", n - add));
        }
        self.log(
            Actor::Player(by),
            Event::StateChange,
            t,
            &[r::SHIELD, r::SHIELDS],
        );
        if add > 0 {
            self.after(TriggerEvent::GainsShields, Some(c), Some(by), None)?;
        }
        Ok(add == n)
    }

    /// A character is defeated: replacement effects, "before" abilities, Redeploy, set aside.
    /// Whether this defeated it (not a replacement, nor an earlier defeat
    /// during its own "before" abilities).
    pub fn defeat(&mut self, c: Ix) -> R<bool> {
        self.defeat_except(c, None)
    }

    /// Defeat, where `done` (a card whose delayed defeat this is) no longer replaces it.
    pub fn defeat_except(&mut self, c: Ix, done: Option<Ix>) -> R<bool> {
        let repl: Vec<(Ix, usize)> = self
            .triggered(When::Before, TriggerEvent::Defeated, Some(c), None, None)
            .into_iter()
            .filter(|&(x, a)| self.ability(x, a).instead && Some(x) != done)
            .collect();
        if let Some(&(x, ab)) = repl.first() {
            let by = self.st.cards[x].controller;
            let t = format!(
                "{} would be defeated: {} replaces it (instead)",
                self.key(c),
                self.key(x)
            );
            self.log(
                Actor::Player(by),
                Event::Result,
                t,
                &[r::REPLACEMENT_EFFECTS],
            );
            self.resolved.push(self.key(x).to_string());
            let ctx = Ctx {
                by,
                source: Some(x),
                subject: Some(c),
                ..Ctx::default()
            };
            self.use_ability(x, ab, ctx, r::REPLACEMENT_EFFECTS)?;
            return Ok(false);
        }
        self.before(TriggerEvent::Defeated, Some(c), None, None)?;
        if !self.st.in_play(c) || self.st.cards[c].ctype != CardType::Character {
            let t = format!(
                "{} is no longer in play: this cannot defeat it",
                self.key(c)
            );
            self.log(Actor::Rules, Event::Result, t, &[r::DEFEATED_CHARACTERS]);
            return Ok(false);
        }
        let p = self.st.cards[c].controller;
        self.redeploy(c)?;
        self.leave_play(c, Zone::SetAside);
        let t = format!(
            "{} is defeated: set aside with its dice; its upgrades are discarded",
            self.key(c)
        );
        self.log(
            Actor::Rules,
            Event::StateChange,
            t,
            &[r::DEFEATED_CHARACTERS],
        );
        self.after(TriggerEvent::Defeated, Some(c), None, None)?;
        if self.st.characters(p).is_empty() {
            let t = format!(
                "{} controls no characters: {} wins",
                seat_name(p),
                seat_name(other(p))
            );
            return Err(self.game_over(other(p), t));
        }
        Ok(true)
    }

    /// Redeploy: before an upgrade is discarded by its character's defeat, it may move.
    fn redeploy(&mut self, c: Ix) -> R<()> {
        for u in self.st.upgrades(c) {
            if !self.stat.defs[u].keywords.contains(&Keyword::Redeploy) {
                continue;
            }
            let p = self.st.cards[u].controller;
            let others: Vec<Ix> = self
                .st
                .characters(p)
                .into_iter()
                .filter(|&x| x != c)
                .collect();
            if others.is_empty() {
                continue;
            }
            let key = self.key(u).to_string();
            let ask = format!("redeploy {key} or decline (`use`/`decline`, card: {key})");
            let d = self.use_or_decline(p, &key, ask)?;
            if d.step.verb() == Some(Verb::Decline) {
                continue;
            }
            let to = d
                .step
                .on
                .as_ref()
                .and_then(|n| self.stat.find(n))
                .filter(|t| others.contains(t));
            let Some(t) = to else {
                self.reject(
                    &d,
                    "redeploy moves the upgrade to another of your characters (`on:`)".into(),
                    r::REDEPLOY,
                );
                continue;
            };
            self.st.cards[u].on = Some(t);
            for x in self.st.dice_of(u) {
                self.st.dice[x].at = DieAt::OnCard;
            }
            let txt = format!(
                "Redeploy: {} moves to {} (its die moves to the card)",
                self.key(u),
                self.key(t)
            );
            self.log(Actor::Player(p), Event::StateChange, txt, &[r::REDEPLOY]);
            self.max_upgrades(t, &d)?;
        }
        Ok(())
    }

    pub fn lose(&mut self, p: Seat, n: i64, rule: &'static str) {
        let have = self.st.resources[usize::from(p)];
        let k = n.min(have).max(0);
        self.st.resources[usize::from(p)] -= k;
        let t = format!(
            "{} loses {k} resource(s){}",
            seat_name(p),
            if k < n { " (all they had)" } else { "" }
        );
        self.log(Actor::Player(p), Event::StateChange, t, &[rule]);
    }

    /// The opponent of `by` discards `n` random cards (named in `random:`; all if fewer).
    pub fn discard_random(
        &mut self,
        by: Seat,
        n: i64,
        d: &Scripted<Step>,
        rule: &'static str,
    ) -> R<()> {
        let o = other(by);
        let hand = self.st.hand[usize::from(o)].clone();
        let picks: Vec<Ix> = if hand.len() as i64 <= n {
            hand
        } else {
            let named: Vec<Ix> = d
                .step
                .random
                .iter()
                .filter_map(|x| self.stat.find(x))
                .collect();
            if named.len() as i64 != n || named.iter().any(|x| !hand.contains(x)) {
                return Err(self.need(
                    by,
                    NeedKind::Random,
                    format!(
                        "{n} random card(s) from {}'s hand (`random:`)",
                        seat_name(o)
                    ),
                ));
            }
            named
        };
        for c in &picks {
            self.st.put(*c, Zone::Discard);
        }
        let names: Vec<String> = picks.iter().map(|&c| self.key(c).to_string()).collect();
        self.log(
            Actor::Player(o),
            Event::Roll,
            format!("{} discards at random: {}", seat_name(o), names.join(", ")),
            &[rule],
        );
        if !picks.is_empty() && self.st.hand[usize::from(o)].is_empty() {
            self.after(TriggerEvent::DiscardsLastCard, None, Some(o), None)?;
        }
        Ok(())
    }

    /// Turn up to `n` dice to sides of `by`'s choice (`turn:`), as `how` allows.
    pub fn turn_dice(
        &mut self,
        by: Seat,
        n: i64,
        d: &Scripted<Step>,
        how: Turning,
        rule: &'static str,
    ) -> R<()> {
        if d.step.turn.len() as i64 > n {
            return rej(
                format!("{} dice turned; at most {n}", d.step.turn.len()),
                rule,
            );
        }
        let all: Vec<(String, String)> = d
            .step
            .turn
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        self.turn_these(by, &all, how, rule)
    }

    /// Turn each named die to the side named, each to a different side it has.
    pub fn turn_these(
        &mut self,
        by: Seat,
        turns: &[(String, String)],
        how: Turning,
        rule: &'static str,
    ) -> R<()> {
        for (id, face) in turns {
            let Some(x) = self.stat.die(id) else {
                return rej(format!("no die `{id}`"), rule);
            };
            let DieAt::Pool(cur) = self.st.dice[x].at else {
                return rej(format!("die {id} is not in a pool"), r::DICE_POOL);
            };
            let mine = self.st.dice[x].controller == by;
            match how.whose {
                Whose::Any => {}
                Whose::Yours if !mine => {
                    return rej("a player cannot turn an opponent's dice", r::FOCUS);
                }
                Whose::Opponents if mine => {
                    return rej(
                        format!(
                            "die {id} is not an opponent's die: the ability turns only an opponent's dice"
                        ),
                        r::TURN_DIE,
                    );
                }
                Whose::Card(c) if !mine || Some(self.st.dice[x].card) != c => {
                    return rej(
                        format!("die {id} is not this card's die: the ability turns only this die"),
                        r::TURN_DIE,
                    );
                }
                Whose::Yours | Whose::Opponents | Whose::Card(_) => {}
            }
            if how.character
                && self.stat.defs[self.st.dice[x].card].card_type != CardType::Character
            {
                return rej(format!("die {id} is not a character die"), r::CHARACTER_DIE);
            }
            if let Some(w) = how.showing
                && !self.stat.faces[x]
                    .get(cur)
                    .is_some_and(|f| face_shows(f, Some(w)))
            {
                return rej(
                    format!("die {id} does not show {w}: the ability turns only a die showing it"),
                    r::SHOWING,
                );
            }
            let faces = &self.stat.faces[x];
            if how.to_blank
                && faces
                    .iter()
                    .all(|f| f.raw != *face || f.symbol != Symbol::Blank)
            {
                return rej(
                    format!("die {id} must be turned to a side showing a blank, not {face}"),
                    r::TURN_DIE,
                );
            }
            if let Some(w) = how.to_showing
                && faces
                    .iter()
                    .all(|f| f.raw != *face || !face_shows(f, Some(w)))
            {
                return rej(
                    format!("die {id} must be turned to a side showing {w}, not {face}"),
                    r::TURN_DIE,
                );
            }
            let Some(f) = faces.iter().enumerate().position(|(i, f)| {
                &f.raw == face && (i != cur || faces.iter().filter(|g| g.raw == f.raw).count() > 1)
            }) else {
                return rej(
                    format!(
                        "die {id} cannot turn to {face}: it must turn to a different side it has"
                    ),
                    r::TURN_DIE,
                );
            };
            self.st.dice[x].at = DieAt::Pool(f);
            self.log(
                Actor::Player(by),
                Event::StateChange,
                format!("die {id} is turned to {face}"),
                &[rule, r::TURN_DIE],
            );
        }
        Ok(())
    }

    pub fn value_of(&self, x: usize) -> i64 {
        self.die_value(x).unwrap_or(0)
    }

    /// The value a die in a pool shows: an X is what its card says X is
    /// (checked now); `None` for an X its card does not define.
    pub fn die_value(&self, x: usize) -> Option<i64> {
        use super::model::XIs;
        let f = self.st.showing(self.stat, x)?;
        if let Some(v) = face_value(f) {
            return Some(v);
        }
        let card = self.st.dice[x].card;
        let p = self.st.dice[x].controller;
        let title = &self.stat.defs[card].title;
        let n = match self.stat.defs[card].x? {
            XIs::Hand => self.st.hand[usize::from(p)].len(),
            XIs::SameDiceInPool => self
                .st
                .pool(p)
                .iter()
                .filter(|&&y| &self.stat.defs[self.st.dice[y].card].title == title)
                .count(),
            XIs::NonUniqueCharacters => self
                .st
                .characters(p)
                .iter()
                .filter(|&&c| !self.stat.defs[c].unique)
                .count(),
        };
        Some(n as i64)
    }

    /// Whether `by` may not remove die `x`: another die in its controller's
    /// pool says their other dice showing its symbol cannot be removed by an opponent.
    pub fn guarded(&self, x: usize, by: Seat) -> bool {
        let p = self.st.dice[x].controller;
        if p == by {
            return false;
        }
        let Some(f) = self.st.showing(self.stat, x) else {
            return false;
        };
        self.st.pool(p).into_iter().any(|y| {
            y != x
                && self.stat.defs[self.st.dice[y].card]
                    .guards
                    .as_deref()
                    .is_some_and(|w| face_shows(f, Some(w)))
        })
    }

    pub fn die_matches(&self, x: usize, f: &super::model::DieFilter, by: Seat) -> bool {
        let ctl = self.st.dice[x].controller;
        let whose = match f.whose {
            Who::Yours | Who::This | Who::Attached => ctl == by,
            Who::Opponents => ctl != by,
            Who::Any => true,
        };
        whose
            && f.title
                .as_ref()
                .is_none_or(|t| &self.stat.defs[self.st.dice[x].card].title == t)
            && (!f.character
                || self.stat.defs[self.st.dice[x].card].card_type == CardType::Character)
            && f.color
                .is_none_or(|col| self.stat.defs[self.st.dice[x].card].color == Some(col))
            && self
                .st
                .showing(self.stat, x)
                .is_some_and(|fc| face_shows(fc, f.showing.as_deref()))
            && f.parity
                .is_none_or(|p| self.die_value(x).is_some_and(|v| p.holds(v)))
            && (!f.resource_cost
                || self
                    .st
                    .showing(self.stat, x)
                    .is_some_and(|fc| fc.cost.is_some_and(|n| n > 0)))
            && (!f.modifier || self.st.showing(self.stat, x).is_some_and(|fc| fc.modifier))
    }

    /// Carry out one effect; `Ok(false)` if it did not resolve in full.
    pub fn apply(&mut self, e: &Effect, ctx: &mut Ctx) -> R<bool> {
        self.tick()?;
        super::apply::apply(self, e, ctx)
    }
}
