//! Applying effects: the results of actions, one effect at a time; canceling; losing Force.

use super::engine::*;
use super::rules as r;
use super::stack::{ActionKind, DeployTo, Entry, Tgt};
use super::state::{CardIx, Zone};
use crate::engine::swccg::model::{
    Amount, CardRef, CardType, Dest, Effect, Filter, PileName, Side, Verb, Who,
};
use crate::engine::{Actor, Event};

impl Engine {
    pub(super) fn apply(&mut self, ix: usize, eff: Effect) -> Applied {
        let me = self.stack[ix].actor;
        let label = self.stack[ix].label.clone();
        match eff {
            Effect::Cancel(rf) => self.cancel_effect(ix, &rf, &label),
            Effect::SendTo { card, to } => self.send_to(ix, me, card, to),
            Effect::SubstituteDestiny(n) => self.substitute_destiny(ix, me, &label, n),
            Effect::ResetDestiny(n) => self.reset_destiny(ix, me, &label, n),
            Effect::CancelBattleDamage { .. } => {
                self.cancel_battle_damage(ix, me);
                Applied::Done
            }
            // Carried out when the card is deployed (`battle_arrive`).
            Effect::DeployToBattle { .. } => Applied::Done,
            Effect::BattleModifier(m) => self.play_battle_modifier(ix, me, &m),
            Effect::BattleModifierForEach(m) => self.play_for_each_in_battle(ix, me, &m),
            Effect::AddPower {
                card,
                amount,
                cumulative,
            } => {
                let v = self.amount(ix, &amount, me).unwrap_or(0);
                for c in self.card_refs(ix, &card) {
                    self.add_power(ix, me, c, v, cumulative);
                }
                Applied::Done
            }
            Effect::ExcludedByWeapon(t) => {
                self.exclude_by_weapon(ix, t);
                Applied::Done
            }
            Effect::LostByWeapon(t) => {
                self.lost_by_weapon(ix, t);
                Applied::Done
            }
            Effect::AddDrawnDestinyToPower => {
                self.add_drawn_destiny(ix, me);
                Applied::Done
            }
            Effect::MoveAll {
                who,
                from,
                filter,
                to,
            } => self.move_all(me, &label, who, from, filter, to),
            Effect::Draw(n) => self.draw_cards(me, n),
            Effect::Activate { who, .. } if self.no_force_now(side_of(who, me), "activate") => {
                Applied::Done
            }
            Effect::Activate { who, count } => self.activate_effect(me, who, count),
            Effect::Retrieve { .. } if self.retrieval_prevented(ix) => Applied::Done,
            Effect::Retrieve { who, count } => self.retrieve_effect(me, who, count),
            Effect::RetrieveCard(_) if self.retrieval_prevented(ix) => Applied::Done,
            Effect::RetrieveCard(spec) => self.retrieve_card(me, &label, &spec),
            Effect::LoseForce { who, amount } => self.lose_force_effect(ix, me, who, amount),
            Effect::LoseForceStackHere { who, amount } => {
                self.lose_force_stack_here(ix, side_of(who, me), amount)
            }
            Effect::Destiny(test) => self.destiny_effect(ix, me, &label, test),
            Effect::TakeIntoHand {
                from,
                filter,
                reshuffle,
            } => self.take_into_hand(ix, me, &label, from, filter, reshuffle),
            Effect::DeployFrom {
                from,
                filter,
                aboard,
                free,
                reshuffle,
                optional,
            } => {
                if optional && self.declines_optional(me, &label, &filter) {
                    return Applied::Done;
                }
                self.deploy_from(ix, me, &label, from, *filter, aboard, free, reshuffle)
            }
            Effect::Relocate { card, to } => self.relocate(ix, me, &label, card, to),
            Effect::StackOn { card, on } => self.stack_on(ix, me, card, on),
            Effect::StackFrom { from, filter } => self.stack_from(ix, me, &label, from, filter),
            Effect::PlayFrom { .. } => self.play_from_effect(&label),
            Effect::Hit(t, forfeit_zero) => self.hit_now(ix, t, forfeit_zero),
            Effect::Explode => self.explode(ix),
            Effect::BreakCover(card) => self.on_refs(ix, &card, |e, c| e.break_cover(c)),
            Effect::CompleteJediTest => self.complete_jedi_test(ix),
            Effect::MoveStacked { on, to } => self.move_stacked(ix, on, to),
            Effect::Duel(def) => self.duel_begin(ix, def),
            Effect::AddDuelDestiny(n) => self.add_duel_destiny(ix, n),
            Effect::DuelDraws => self.duel_draws(ix),
            Effect::AddToDestiny(n) => self.add_to_destiny(ix, n),
            Effect::DuelWon(i) => self.duel_won(ix, i),
            Effect::EpicDuel(spec) => self.epic_duel(ix, spec),
            Effect::Eat {
                vehicle,
                add_ferocity,
            } => self.eat(ix, me, &label, vehicle, add_ferocity),
            Effect::AddFerocity(c, n) => self.add_ferocity(c, n),
            Effect::BlowAway(def) => self.blow_away(ix, *def),
            Effect::BlownAwayOccurred(locs) => self.blown_away_occurred(ix, locs),
            Effect::CrossOverAs {
                card,
                title,
                personas,
                keywords,
            } => self.on_refs(ix, &card, |e, c| {
                e.cross_over_as(me, c, &title, &personas, &keywords)
            }),
            Effect::StartingHand(n) => {
                self.set_starting_hand(me, n);
                Applied::Done
            }
            Effect::CrossOver(card) => self.on_refs(ix, &card, |e, c| e.cross_over(me, c)),
            Effect::RetrieveForEach { who, per } => {
                self.retrieve_for_each(me, who, &per);
                Applied::Done
            }
            Effect::LoseForEach { who, per } => self.lose_for_each(me, who, &per),
            Effect::DestinyTotal(spec) => self.destiny_total_effect(ix, me, &label, spec),
            Effect::CancelAndRedraw(_) => self.cancel_and_redraw(ix, &label),
            Effect::DrawXChooseY { x, y } => self.draw_x_choose_y(ix, &label, x, y),
            Effect::LoseForceFrom { who, amount, from } => {
                self.lose_force_from(ix, me, who, amount, from)
            }
            Effect::CancelText(card) => self.on_refs(ix, &card, |e, c| e.cancel_text(c)),
            Effect::Capture(card) => {
                let holder = self.stack[ix].card;
                self.each_ref(ix, &card, |e, c| e.capture_any(me, c, holder))
            }
            Effect::CaptureCard(c) => self.capture(me, c),
            Effect::CaptureAboard(filter) => self.capture_all_aboard(me, &filter),
            Effect::Release(text) => self.release(me, &text),
            Effect::ReleaseStarship(filter) => self.release_starship(me, &filter),
            Effect::Steal(card) => self.on_refs(ix, &card, |e, c| e.steal(me, c)),
            Effect::StealFrom(from) => self.steal_from(me, &from),
            Effect::Retarget(rf) => self.retarget(ix, me, &label, rf),
            Effect::EachActivates(n) => self.each_activates(ix, &label, n),
            Effect::ActivateOne(side) => self.activate_one(ix, &label, side),
            Effect::ReduceLoss(x) => self.reduce_loss(ix, x),
            Effect::DeployMatchingPair { reveal, from, to } => {
                self.deploy_matching_pair(ix, me, &reveal, from, &to)
            }
            Effect::SetValue { card, stats, to } => {
                self.set_value(ix, card, stats, to);
                Applied::Done
            }
            Effect::ModifyUntil {
                filter,
                stat,
                add,
                until,
            } => self.modify_until(ix, me, &label, filter, stat, add, until),
            Effect::Peek { count, place, to } => self.peek(me, &label, count, place, to),
            Effect::Flip(card) => self.on_refs(ix, &card, |e, c| e.flip(c)),
            Effect::MoveToBattle(m) => self.move_to_battle(ix, me, &m),
            Effect::NotModelled(text) => {
                let depth = self.depth();
                self.trace
                    .not_modelled(depth, Actor::Rules, text, &[r::RESULT]);
                Applied::Done
            }
            Effect::Maintenance(m) => self.maintenance(ix, me, &m),
            Effect::DrawUpTo { count, from } => self.draw_up_to(me, &label, count, from),
            Effect::PlaceFromHand { to, bottom } => self.place_from_hand(me, &label, to, bottom),
            Effect::DoublePowerPresent { if_less } => self.double_power_present(ix, me, if_less),
            Effect::DeploySite(spec) => self.deploy_site(ix, me, &label, &spec),
        }
    }

    /// Carry out `f` on each card `card` refers to, in order, until one stops the run.
    fn each_ref(
        &mut self,
        ix: usize,
        card: &CardRef,
        mut f: impl FnMut(&mut Engine, CardIx) -> Applied,
    ) -> Applied {
        for c in self.card_refs(ix, card) {
            if let Applied::Stop = f(self, c) {
                return Applied::Stop;
            }
        }
        Applied::Done
    }

    /// Carry out `f` on each card `card` refers to, in order.
    fn on_refs(
        &mut self,
        ix: usize,
        card: &CardRef,
        mut f: impl FnMut(&mut Engine, CardIx),
    ) -> Applied {
        self.each_ref(ix, card, |e, c| {
            f(e, c);
            Applied::Done
        })
    }

    /// "Until …": values of matching cards change until the duration ends.
    #[allow(clippy::too_many_arguments)]
    fn modify_until(
        &mut self,
        ix: usize,
        me: Side,
        label: &str,
        filter: Filter,
        stat: super::globals::Stat,
        add: i64,
        until: super::globals::Until,
    ) -> Applied {
        let source = self.stack[ix]
            .card
            .map_or(label.to_string(), |c| self.st.key(c).to_string());
        self.start_duration(super::globals::Timed {
            source,
            side: me,
            filter,
            stat,
            add,
            until,
        });
        Applied::Done
    }

    /// `cancel`: the action responded to, or a target action, is canceled.
    fn cancel_effect(&mut self, ix: usize, rf: &CardRef, label: &str) -> Applied {
        let target = match rf {
            CardRef::Current => self.stack[ix].responding_to,
            CardRef::Target(n) => match self.stack[ix].target(n) {
                Some(Tgt::Entry(j)) => Some(*j),
                _ => None,
            },
            CardRef::This => None,
        };
        let Some(j) = target.filter(|&j| j < self.stack.len() && !self.stack[j].canceled) else {
            self.log(
                Actor::Rules,
                Event::Result,
                format!("{label}: nothing left to cancel"),
                &[r::CANCELING],
            );
            return Applied::Done;
        };
        self.cancel(ix, j);
        Applied::Done
    }

    /// "Play an Interrupt from … as if from hand": used when a card is played through it.
    fn play_from_effect(&mut self, label: &str) -> Applied {
        self.log(
            Actor::Rules,
            Event::Result,
            format!("{label}: its game text is used when a card is played through it"),
            &[r::DEPLOYING_FROM_PILE],
        );
        Applied::Done
    }

    /// A card's text makes a player activate Force (not counted against the
    /// activation total).
    fn activate_effect(&mut self, me: Side, who: Who, count: u32) -> Applied {
        let p = side_of(who, me);
        let moved = self
            .st
            .move_top(p, PileName::ReserveDeck, PileName::ForcePile, count);
        self.st.force[p.ix()].activated += i64::from(moved);
        self.log(
            actor(p),
            Event::StateChange,
            if moved < count {
                format!(
                    "{} activates {moved} Force (of {count}: no more cards in the Reserve Deck)",
                    p.name()
                )
            } else {
                format!("{} activates {moved} Force", p.name())
            },
            &[r::RESULT],
        );
        Applied::Done
    }

    /// A card's text retrieves Force: Lost Pile to Used Pile, top first.
    fn retrieve_effect(&mut self, me: Side, who: Who, count: u32) -> Applied {
        let p = side_of(who, me);
        let count = match count {
            0 => 0,
            n => match self.retrieval_amount(p, n) {
                Some(n) => n,
                None => return Applied::Done,
            },
        };
        let n = self
            .st
            .move_top(p, PileName::LostPile, PileName::UsedPile, count);
        self.st.force[p.ix()].retrieved += i64::from(n);
        self.log(
            actor(p),
            Event::StateChange,
            format!("{} retrieves {n} Force", p.name()),
            &[r::RETRIEVE],
        );
        Applied::Done
    }

    /// A destiny draw for an action's result: an action of its own on the stack.
    pub(super) fn destiny_effect(
        &mut self,
        ix: usize,
        me: Side,
        label: &str,
        test: super::model::DestinyTest,
    ) -> Applied {
        let mut e = Entry::new(
            ActionKind::DestinyDraw { parent: ix, test },
            me,
            None,
            format!("{}'s destiny draw for {label}", me.name()),
        );
        e.next = me.other();
        self.stack.push(e);
        self.log(
            actor(me),
            Event::Push,
            format!(
                "{label}: {} draws destiny (an action of its own)",
                me.name()
            ),
            &[r::ACTIONS, r::RESULT],
        );
        Applied::Pushed
    }

    fn move_all(
        &mut self,
        me: Side,
        label: &str,
        who: Who,
        from: PileName,
        filter: Filter,
        to: Dest,
    ) -> Applied {
        let p = side_of(who, me);
        let cards: Vec<CardIx> = self
            .st
            .pile(p, from)
            .iter()
            .copied()
            .filter(|&c| self.st.matches(c, &filter, me))
            .collect();
        if cards.is_empty() {
            self.log(
                actor(p),
                Event::Result,
                format!(
                    "{label}: no matching card in {}'s {}",
                    p.name(),
                    from.title()
                ),
                &[r::RESULT],
            );
        }
        for c in cards {
            self.place(c, to, me);
            if from != PileName::ReserveDeck && to == Dest::LostPile {
                self.log(
                    Actor::Rules,
                    Event::StateChange,
                    format!("{} was a unit of Force in {}: it is lost as a unit of Force, not a card just lost from table", self.name(c), from.title()),
                    &[r::UNIT_OF_FORCE, r::JUST_LOST],
                );
            }
        }
        Applied::Done
    }

    fn take_into_hand(
        &mut self,
        ix: usize,
        me: Side,
        label: &str,
        from: PileName,
        filter: Filter,
        reshuffle: bool,
    ) -> Applied {
        let cands: Vec<CardIx> = self
            .st
            .pile(me, from)
            .iter()
            .copied()
            .filter(|&c| self.st.matches(c, &filter, me))
            .collect();
        if cands.is_empty() {
            self.log(
                actor(me),
                Event::Result,
                format!("{label}: {} searches the {} and finds no matching card; the opponent may verify. The search may not be repeated this turn", me.name(), from.title()),
                &[r::TAKING_CARDS],
            );
            if let (Some(c), Some(a)) = (self.stack[ix].card, self.stack[ix].ability) {
                self.failed_searches.push((c, a));
            }
        } else {
            let Some(c) = self.choose_one(
                me,
                &cands,
                &format!("a card to take into hand from {}", from.title()),
            ) else {
                return Applied::Stop;
            };
            self.st.to_pile(c, me, PileName::Hand);
            self.log(
                actor(me),
                Event::StateChange,
                format!(
                    "{} takes {} into hand from the {} and reveals it",
                    me.name(),
                    self.name(c),
                    from.title()
                ),
                &[r::TAKING_CARDS],
            );
        }
        if reshuffle {
            self.reshuffle_note(me, from);
        }
        Applied::Done
    }

    #[allow(clippy::too_many_arguments)]
    fn deploy_from(
        &mut self,
        ix: usize,
        me: Side,
        label: &str,
        from: PileName,
        filter: Filter,
        aboard: Option<CardRef>,
        free: bool,
        reshuffle: bool,
    ) -> Applied {
        let force = self.st.pile_len(me, PileName::ForcePile) as i64;
        let cands: Vec<CardIx> = self
            .st
            .pile(me, from)
            .iter()
            .copied()
            .filter(|&c| {
                self.st.matches(c, &filter, me)
                    && self.shield_not_deployed(c).is_ok()
                    && self.unique_ok(c).is_ok()
                    && self.deploy_conditions(me, c).is_ok()
                    && (free
                        || self.st.value(c, super::globals::Stat::Deploy).unwrap_or(0) <= force)
            })
            .collect();
        if cands.is_empty() {
            self.log(
                actor(me),
                Event::Result,
                format!(
                    "{label}: no card in the {} can be deployed; the opponent may verify",
                    from.title()
                ),
                &[r::DEPLOYING_FROM_PILE, r::TAKING_CARDS],
            );
            if let (Some(c), Some(a)) = (self.stack[ix].card, self.stack[ix].ability) {
                self.failed_searches.push((c, a));
            }
            if reshuffle {
                self.reshuffle_note(me, from);
            }
            return Applied::Done;
        }
        self.reject_shield_choices(me);
        self.reject_barred_choices(me, &filter);
        let what = format!("a card to deploy from {}", from.title());
        let (c, to) = loop {
            let Some((c, d)) = self.choose_one_decision(me, &cands, &what) else {
                return Applied::Stop;
            };
            match self.deploy_from_destination(ix, me, c, aboard.as_ref(), &d) {
                Ok(to) => break (c, to),
                Err(e) => self.reject(&d, e),
            }
        };
        if reshuffle {
            self.reshuffle_note(me, from);
        }
        self.push_deploy(me, c, to, free, Some(ix));
        Applied::Pushed
    }

    /// Where a card deploys from a pile: aboard the ability's card target; where the
    /// player's choice says (`to:`, a location or a card: "deploy … for free" with no
    /// place given); else here, at the ability's card's location; else on table.
    fn deploy_from_destination(
        &self,
        ix: usize,
        me: Side,
        c: CardIx,
        aboard: Option<&CardRef>,
        d: &Decision,
    ) -> Result<DeployTo, Rejection> {
        if let Some(v) = aboard.map(|rf| self.card_refs(ix, rf))
            && let Some(&h) = v.first()
        {
            // Aboard the card the text names, still only where the card may deploy.
            let to = DeployTo::OnCard(h);
            self.deploy_restrictions(me, c, to)?;
            return Ok(to);
        }
        let here = self.stack[ix].card.and_then(|h| self.st.location_of(h));
        match (here, d.step.to.as_deref()) {
            (Some(l), None) => Ok(DeployTo::Location(l)),
            (Some(l), Some(k)) if self.st.find_location(k) == Some(l) => Ok(DeployTo::Location(l)),
            // "To same location": on a card there too (e.g. a device on a character).
            (Some(l), Some(k))
                if self
                    .st
                    .find(k)
                    .is_some_and(|h| self.st.on_table(h) && self.st.location_of(h) == Some(l)) =>
            {
                self.deploy_destination(me, c, Some(d))
            }
            (Some(l), Some(_)) => Err(rej(
                format!("this deploys here, to {}", self.st.locations[l].title),
                r::CHOOSING_TARGETS,
            )),
            (None, None) if !self.st.def(c).card_type.deploys_to_location() => Ok(DeployTo::Table),
            (None, _) => self.deploy_destination(me, c, Some(d)),
        }
    }

    fn send_to(&mut self, ix: usize, me: Side, card: CardRef, to: Dest) -> Applied {
        let mut lost = Vec::new();
        let label = self.stack[ix].label.clone();
        for c in self.card_refs(ix, &card) {
            if self.st.zone[c] == Zone::Stack || self.keep_on_grabber(c, &label) {
                continue;
            }
            let from_table = self.st.on_table(c);
            if from_table && !self.release_escorted_by(c) {
                return Applied::Stop;
            }
            if from_table && to == Dest::LostPile {
                self.jump_off(c);
            }
            let carried = if from_table {
                self.all_on(c)
            } else {
                Vec::new()
            };
            self.place(c, to, me);
            if from_table && to == Dest::LostPile {
                lost.push(c);
                lost.extend(
                    carried
                        .into_iter()
                        .filter(|&x| matches!(self.st.zone[x], Zone::Pile(_, PileName::LostPile))),
                );
            }
        }
        if lost.is_empty() {
            return Applied::Done;
        }
        self.push_just_lost(me, lost);
        Applied::Pushed
    }

    fn substitute_destiny(&mut self, ix: usize, me: Side, label: &str, n: i64) -> Applied {
        let j = self.stack[ix]
            .responding_to
            .filter(|&j| j < self.stack.len());
        match j {
            Some(j) if matches!(self.stack[j].kind, ActionKind::DestinyDraw { .. }) => {
                self.stack[j].substitute = Some(n);
                let drawn = self.stack[j].label.clone();
                self.log(
                    actor(me),
                    Event::StateChange,
                    format!("{label}: {drawn} will use destiny {n} instead of drawing"),
                    &[r::RESULT],
                );
            }
            _ => self.log(
                Actor::Rules,
                Event::Result,
                format!("{label}: no destiny draw about to happen"),
                &[r::RESULT],
            ),
        }
        Applied::Done
    }

    fn reset_destiny(&mut self, ix: usize, me: Side, label: &str, n: i64) -> Applied {
        let Some(j) = self.stack[ix]
            .responding_to
            .filter(|&j| j < self.stack.len())
        else {
            self.log(
                Actor::Rules,
                Event::Result,
                format!("{label}: no destiny just drawn to reset"),
                &[r::RESULT],
            );
            return Applied::Done;
        };
        if let ActionKind::DestinyDrawn { value, .. } = &mut self.stack[j].kind {
            *value = Some(n);
            let drawn = self.stack[j].label.clone();
            self.log(
                actor(me),
                Event::StateChange,
                format!("{label}: {drawn}: destiny = {n}"),
                &[r::RESULT],
            );
        } else {
            self.log(
                Actor::Rules,
                Event::Result,
                format!("{label}: no destiny just drawn to reset"),
                &[r::RESULT],
            );
        }
        Applied::Done
    }

    fn draw_cards(&mut self, me: Side, n: u32) -> Applied {
        for _ in 0..n {
            let Some(c) = self.st.top(me, PileName::ReserveDeck) else {
                self.log(
                    actor(me),
                    Event::Result,
                    format!("{}'s Reserve Deck is empty: no card to draw", me.name()),
                    &[r::IMPLIED_TARGET_RULE],
                );
                break;
            };
            self.st.to_pile(c, me, PileName::Hand);
            self.st.force[me.ix()].drawn += 1;
            self.log(
                actor(me),
                Event::StateChange,
                format!("{} draws {} into hand", me.name(), self.name(c)),
                &[r::RESULT],
            );
        }
        Applied::Done
    }

    fn lose_force_effect(&mut self, ix: usize, me: Side, who: Who, amount: Amount) -> Applied {
        let p = side_of(who, me);
        if let Some(by) = self.protected_from_loss(p, self.stack[ix].card) {
            self.note_protected(ix, p, by);
            return Applied::Done;
        }
        let n = self.amount(ix, &amount, me).unwrap_or(0).max(0);
        if n > 0 && self.loss_can_be_responded_to() {
            return self.push_force_loss(ix, p, n);
        }
        let lost = self.lose_force(p, n);
        let short = if lost < n {
            format!(
                " of {n} (no more cards in hand or Life Force; cards stacked on table are not units of Force)"
            )
        } else {
            String::new()
        };
        self.log(
            actor(p),
            Event::StateChange,
            format!("{} loses {lost} Force{short}", p.name()),
            &[r::LOSING_FORCE, r::UNIT_OF_FORCE],
        );
        Applied::Done
    }

    fn relocate(&mut self, ix: usize, me: Side, label: &str, card: CardRef, to: String) -> Applied {
        let loc = match self.stack[ix].target(&to) {
            Some(Tgt::Location(l)) => Some(*l),
            _ => None,
        };
        let Some(l) = loc else {
            self.log(
                Actor::Rules,
                Event::Result,
                format!("{label}: no destination"),
                &[r::CHOOSING_TARGETS],
            );
            return Applied::Done;
        };
        for c in self.card_refs(ix, &card) {
            if !self.st.on_table(c) {
                continue;
            }
            if self.may_not_move(c) {
                self.log(
                    Actor::Rules,
                    Event::Result,
                    format!(
                        "{} may not move, so it is not relocated: a relocation is an unlimited move",
                        self.name(c)
                    ),
                    &[r::RELOCATING, r::CANNOT_MOVE],
                );
                continue;
            }
            if self.st.location_of(c) == Some(l) {
                self.log(
                    actor(me),
                    Event::StateChange,
                    format!(
                        "{} stays at {}: a relocation that does not change locations is no move",
                        self.name(c),
                        self.st.locations[l].title
                    ),
                    &[r::RELOCATING],
                );
                continue;
            }
            self.st.put(c, Zone::At(l));
            self.stack[ix].moved.push(c);
            self.log(
                actor(me),
                Event::StateChange,
                format!(
                    "{} is relocated to {} (an unlimited move)",
                    self.name(c),
                    self.st.locations[l].title
                ),
                &[r::RESULT, r::RELOCATING],
            );
        }
        Applied::Done
    }

    fn stack_on(&mut self, ix: usize, me: Side, card: CardRef, on: CardRef) -> Applied {
        let Some(&host) = self.card_refs(ix, &on).first() else {
            return Applied::Done;
        };
        for c in self.card_refs(ix, &card) {
            if self.grab_from_stack(me, c, host) {
                continue;
            }
            // The played Interrupt stacking itself as its result: it is stacked after it
            // resolves, from the stack, and is supporting (no longer an action on the stack).
            if self.st.zone[c] == Zone::Stack
                && self.stack[ix].card == Some(c)
                && matches!(self.stack[ix].kind, ActionKind::Play)
            {
                if c == host {
                    continue;
                }
                self.st.put(c, Zone::On(host));
                self.st.card_state[c] = crate::engine::swccg::model::CardState::Supporting;
                self.log(
                    actor(me),
                    Event::StateChange,
                    format!(
                        "{} is stacked on {} as it resolves: it is supporting (not on table, and no longer an action that can be responded to or canceled)",
                        self.name(c),
                        self.name(host)
                    ),
                    &[r::STACKED_CARDS, r::SUPPORTING, r::SUPPORTING_EXAMPLE_2],
                );
                continue;
            }
            let just_lost = self.is_just_lost(c);
            if c == host || !(self.st.on_table(c) || just_lost) || self.all_on(c).contains(&host) {
                continue;
            }
            // From an active or inactive state: inactive. A just lost card counts as
            // having been active; only that card is relocated.
            self.st.put(c, Zone::On(host));
            self.st.card_state[c] = crate::engine::swccg::model::CardState::Inactive;
            let (from, cites): (&str, &[&'static str]) = if just_lost {
                (
                    "from the Lost Pile (just lost, so treated as having been active)",
                    &[r::STACKED_CARDS, r::JUST_LOST, r::INACTIVE],
                )
            } else {
                ("from the table", &[r::STACKED_CARDS, r::INACTIVE])
            };
            self.log(
                actor(me),
                Event::StateChange,
                format!(
                    "{} is stacked on {} {from}: it is inactive",
                    self.name(c),
                    self.name(host)
                ),
                cites,
            );
        }
        Applied::Done
    }

    fn stack_from(
        &mut self,
        ix: usize,
        me: Side,
        label: &str,
        from: PileName,
        filter: Filter,
    ) -> Applied {
        let Some(host) = self.stack[ix].card else {
            return Applied::Done;
        };
        let cands: Vec<CardIx> = self
            .st
            .pile(me, from)
            .iter()
            .copied()
            .filter(|&c| self.st.matches(c, &filter, me))
            .collect();
        if cands.is_empty() {
            self.log(
                actor(me),
                Event::Result,
                format!("{label}: no matching card in {}", from.title()),
                &[r::TAKING_CARDS],
            );
            return Applied::Done;
        }
        let Some(c) = self.choose_one(
            me,
            &cands,
            &format!("a card to stack on {}", self.name(host)),
        ) else {
            return Applied::Stop;
        };
        // From a unit-of-Force state: supporting.
        self.st.put(c, Zone::On(host));
        self.st.card_state[c] = crate::engine::swccg::model::CardState::Supporting;
        self.log(
            actor(me),
            Event::StateChange,
            format!(
                "{} is stacked on {} from {}: it is supporting",
                self.name(c),
                self.name(host),
                from.title()
            ),
            &[r::STACKED_CARDS, r::SUPPORTING],
        );
        Applied::Done
    }

    pub(super) fn is_just_lost(&self, c: CardIx) -> bool {
        matches!(self.st.zone[c], Zone::Pile(_, PileName::LostPile))
            && self
                .stack
                .iter()
                .any(|e| matches!(&e.kind, ActionKind::JustLost { cards } if cards.contains(&c)))
    }

    pub(super) fn push_just_lost(&mut self, by: Side, cards: Vec<CardIx>) {
        let names = self.names(&cards);
        let label = format!(
            "{} just lost",
            cards
                .iter()
                .map(|&c| self.st.key(c).to_string())
                .collect::<Vec<_>>()
                .join("+")
        );
        let first = cards.first().copied();
        let mut e = Entry::new(ActionKind::JustLost { cards }, by, first, label);
        e.next = by.other();
        self.stack.push(e);
        self.log(
            actor(by),
            Event::Push,
            format!(
                "{names} just lost from table (already in the Lost Pile): responses to the loss"
            ),
            &[r::JUST_LOST, r::COMING_OFF_THE_STACK],
        );
    }

    pub(super) fn reshuffle_note(&mut self, p: Side, from: PileName) {
        self.log(
            actor(p),
            Event::StateChange,
            format!(
                "{} reshuffles the {} (its new order is not modelled; the listed order is kept)",
                p.name(),
                from.title()
            ),
            &[r::TAKING_CARDS],
        );
    }

    /// Take a `choose` decision from `p` naming one of `cands`.
    pub(super) fn choose_one(&mut self, p: Side, cands: &[CardIx], what: &str) -> Option<CardIx> {
        self.choose_one_decision(p, cands, what).map(|(c, _)| c)
    }

    /// `choose_one`, also giving the decision taken (for its `to:`).
    pub(super) fn choose_one_decision(
        &mut self,
        p: Side,
        cands: &[CardIx],
        what: &str,
    ) -> Option<(CardIx, Decision)> {
        let (chosen, d) = self.choose_cards(
            p,
            cands,
            1,
            |e| format!("choose {what}: one of {}", e.keys(cands)),
            |e, _| {
                rej(
                    format!(
                        "must choose one of: {} (a search must take a card if possible)",
                        e.keys(cands)
                    ),
                    r::TAKING_CARDS,
                )
            },
        )?;
        Some((chosen[0], d))
    }

    /// `p` loses `n` Force, one card at a time (AR: Losing Force): from hand or the top
    /// of the Reserve Deck, Force Pile or Used Pile, as `p` chooses. Where only one of
    /// these has cards there is no choice; otherwise the next place comes from `p`'s
    /// `lose_force` decision (`from:`), taken from the script. With none, the run needs
    /// `p`'s decision and stops after the units already lost.
    pub(crate) fn lose_force(&mut self, p: Side, n: i64) -> i64 {
        if self.no_force_now(p, "lose") {
            return 0;
        }
        const PLACES: [PileName; 4] = [
            PileName::Hand,
            PileName::ReserveDeck,
            PileName::ForcePile,
            PileName::UsedPile,
        ];
        let mut lost = 0;
        let mut cards = Vec::new();
        for _ in 0..n {
            let open: Vec<PileName> = PLACES
                .into_iter()
                .filter(|&pl| self.st.pile_len(p, pl) > 0)
                .collect();
            let place = match open.as_slice() {
                [] => break,
                [only] => *only,
                _ => match self.next_loss_place(p, &open) {
                    Some(pl) => pl,
                    None => {
                        let places: Vec<&str> = open.iter().map(|x| x.as_str()).collect();
                        let what = format!(
                            "where to lose {} more Force from (`lose_force` with `from:`: {})",
                            n - lost,
                            places.join(", ")
                        );
                        self.need_choice(p, what);
                        break;
                    }
                },
            };
            let c = match self.card_to_lose(p, place) {
                super::force_loss::LossCard::Card(c) => c,
                super::force_loss::LossCard::None => break,
                super::force_loss::LossCard::Choose(what) => {
                    self.need_choice(p, what);
                    break;
                }
            };
            self.st.to_pile(c, p, PileName::LostPile);
            self.st.force[p.ix()].lost += 1;
            lost += 1;
            cards.push(format!("{} from {}", self.name(c), place.title()));
        }
        if !cards.is_empty() {
            self.log(
                actor(p),
                Event::StateChange,
                format!("{} loses as Force: {}", p.name(), cards.join(", ")),
                &[r::LOSING_FORCE],
            );
        }
        lost
    }

    /// The next place `p` chose to lose Force from: the front of the places given by
    /// `p`'s `lose_force` decisions (`from:`), taking the next such decision from the
    /// script when none are left. A place with no cards is rejected.
    fn next_loss_place(&mut self, p: Side, open: &[PileName]) -> Option<PileName> {
        loop {
            if let Some(pl) = self.loss_from[p.ix()].pop_front() {
                if open.contains(&pl) {
                    return Some(pl);
                }
                self.log(
                    actor(p),
                    Event::DecisionRejected,
                    format!(
                        "{} has no card in {} to lose as Force; the next place given is used",
                        p.name(),
                        pl.title()
                    ),
                    &[r::LOSING_FORCE],
                );
                continue;
            }
            let d = self
                .script
                .peek()
                .filter(|d| d.by == p && d.verb == Verb::LoseForce && !d.step.from.is_empty())
                .cloned()?;
            self.script.take();
            if let Err(e) = self.check_loss_cards(&d) {
                self.reject(&d, e);
                continue;
            }
            self.loss_from[p.ix()].extend(d.step.from.iter().copied());
            self.take_loss_cards(&d);
        }
    }

    pub(super) fn cancel(&mut self, by: usize, j: usize) {
        let by_label = self.stack[by].label.clone();
        let e = self.stack[j].clone();
        if let (ActionKind::Deploy { .. } | ActionKind::JustDeployed, Some(c)) = (&e.kind, e.card)
            && matches!(
                self.st.def(c).card_type,
                CardType::Character | CardType::Vehicle | CardType::Starship
            )
        {
            self.log(
                Actor::Rules,
                Event::Result,
                format!("{by_label} cannot cancel {}: characters, vehicles and starships may not be canceled", e.label),
                &[r::CANCELING],
            );
            return;
        }
        if self.refuse_drain_cancel(by, j) {
            return;
        }
        self.stack[j].canceled = true;
        self.stack[j].canceled_by = Some(by_label.clone());
        self.canceled.push(e.label.clone());
        self.log(
            Actor::Rules,
            Event::Cancel,
            format!("{by_label} cancels {}: it will not have its result; costs paid to initiate it remain paid", e.label),
            &[r::CANCELING],
        );
        for u in self.usage.iter_mut() {
            if Some(u.card) == e.card && Some(u.ability) == e.ability {
                u.canceled = true;
            }
        }
        if let (Some(c), Some(a)) = (e.card, e.ability)
            && self.st.def(c).abilities[a].limit.is_some()
        {
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!("{} was limited to once per time period: it may not be initiated again in that period", e.label),
                &[r::CANCELING],
            );
        }
        if let Some(c) = e.card
            && self.st.zone[c] == Zone::Stack
        {
            let dest = e.then.unwrap_or(Dest::LostPile);
            self.place(c, dest, e.actor);
        }
    }

    pub(super) fn card_refs(&self, ix: usize, rf: &CardRef) -> Vec<CardIx> {
        match rf {
            CardRef::This => self.stack[ix].card.into_iter().collect(),
            CardRef::Current => {
                let Some(e) = self.stack[ix].responding_to.and_then(|j| self.stack.get(j)) else {
                    return Vec::new();
                };
                match &e.kind {
                    // The card drawn for destiny.
                    ActionKind::DestinyDrawn { card, .. } => card.iter().copied().collect(),
                    // Simultaneous losses or moves: the card this response is about.
                    ActionKind::JustLost { cards } | ActionKind::JustMoved { cards } => {
                        let about =
                            self.stack[ix]
                                .card
                                .zip(self.stack[ix].ability)
                                .and_then(|(c, a)| {
                                    let f = self.st.def(c).abilities[a]
                                        .responds_to
                                        .as_ref()?
                                        .card
                                        .clone()?;
                                    Some((self.st.owner(c), f))
                                });
                        let lost = matches!(e.kind, ActionKind::JustLost { .. });
                        cards
                            .iter()
                            .copied()
                            .filter(|&x| {
                                !lost
                                    || matches!(self.st.zone[x], Zone::Pile(_, PileName::LostPile))
                            })
                            .find(|&x| {
                                about
                                    .as_ref()
                                    .is_none_or(|(me, f)| self.st.matches(x, f, *me))
                            })
                            .into_iter()
                            .collect()
                    }
                    // Cards deployed simultaneously: a result applies to each that the
                    // response may take (AR Simultaneous Deployment), those aboard first.
                    ActionKind::JustDeployed => {
                        let mut v = self.deployed_with(ix, e);
                        v.extend(e.card);
                        v
                    }
                    _ => e.card.into_iter().collect(),
                }
            }
            CardRef::Target(n) => match self.stack[ix].target(n) {
                Some(Tgt::Card(c)) => vec![*c],
                Some(Tgt::Cards(v)) => v.clone(),
                Some(Tgt::Entry(j)) => self
                    .stack
                    .get(*j)
                    .and_then(|e| e.card)
                    .into_iter()
                    .collect(),
                _ => Vec::new(),
            },
        }
    }

    pub(super) fn amount(&self, ix: usize, a: &Amount, me: Side) -> Option<i64> {
        match a {
            Amount::Value(v) => Some(*v),
            Amount::Destiny => self.stack.get(ix).and_then(|e| e.destiny),
            // destiny + add > value  <=>  destiny > value - add
            Amount::StatOf(c, d) => self
                .stat_of(*c, *d)
                .map(|v| v - self.stack.get(ix).map_or(0, |e| e.destiny_add)),
            Amount::DefenseOf(n) => match self.stack.get(ix).and_then(|e| e.target(n)) {
                Some(Tgt::Card(c)) => {
                    let s = &self.st.def(*c).stats;
                    s.armor.or(s.maneuver).or(s.ability)
                }
                _ => None,
            },
            Amount::AbilityOf(n) => match self.stack.get(ix).and_then(|e| e.target(n)) {
                Some(Tgt::Card(c)) => self.st.def(*c).stats.ability,
                _ => None,
            },
            Amount::HighestAbility => (0..self.st.cards.len())
                .filter(|&c| {
                    self.st.active(c)
                        && self.st.owner(c) == me
                        && self.st.def(c).card_type == CardType::Character
                })
                .filter_map(|c| self.st.def(c).stats.ability)
                .max(),
        }
    }
}

pub(crate) enum Applied {
    Done,
    Pushed,
    Stop,
}

pub(super) fn side_of(w: Who, me: Side) -> Side {
    match w {
        Who::You => me,
        Who::Opponent => me.other(),
    }
}
