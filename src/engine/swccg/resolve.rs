//! The stack: automatic actions, response windows, results, destiny draws, placing cards.

use super::destiny;
use super::effects::Applied;
use super::engine::*;
use super::initiate::interrupt_default_dest;
use super::rules as r;
use super::stack::{ActionKind, DeployTo, Entry, PowerDraw, Stage};
use super::state::{CardIx, Zone};
use crate::engine::End;
use crate::engine::swccg::model::{AbilityKind, CardType, Dest, DestinyTest, PileName, Side, Verb};
use crate::engine::{Actor, Event};

impl Engine {
    pub(super) fn step_stack(&mut self) -> Flow {
        let ix = self.stack.len() - 1;
        if self.react_arrivals(ix) {
            return Ok(());
        }
        // Canceled actions are always removed from the stack.
        if self.stack[ix].canceled {
            self.attempt = None;
            let popped = self.stack.pop();
            let e = popped.as_ref().map(|e| e.label.clone()).unwrap_or_default();
            self.log(
                Actor::Rules,
                Event::Pop,
                format!("{e} (canceled) is removed from the stack"),
                &[r::CANCELING],
            );
            if let Some(p) = popped {
                self.canceled_draw(p);
            }
            return Ok(());
        }
        // An action no longer a legal target for responses comes off.
        if let ActionKind::JustDeployed = self.stack[ix].kind
            && let Some(c) = self.stack[ix].card
            && !self.st.on_table(c)
        {
            let label = self.stack[ix].label.clone();
            self.stack.pop();
            self.log(
                Actor::Rules,
                Event::Pop,
                format!("{label}: the card has left the table and is no longer just deployed; removed from the stack"),
                &[r::HOW_THE_STACK_WORKS],
            );
            return Ok(());
        }
        if let ActionKind::JustLost { cards } = &self.stack[ix].kind
            && !cards
                .iter()
                .any(|&c| matches!(self.st.zone[c], Zone::Pile(_, PileName::LostPile)))
        {
            let label = self.stack[ix].label.clone();
            self.stack.pop();
            self.log(
                Actor::Rules,
                Event::Pop,
                format!("{label}: the cards have left the Lost Pile and are no longer just lost; removed from the stack"),
                &[r::JUST_LOST, r::HOW_THE_STACK_WORKS],
            );
            return Ok(());
        }
        if self.stack[ix].stage == Stage::Resolving {
            if matches!(self.stack[ix].kind, ActionKind::Battle) {
                return self.battle_step(ix);
            }
            if matches!(self.stack[ix].kind, ActionKind::Attack) {
                return self.attack_step(ix);
            }
            return self.continue_result(ix);
        }
        // Automatic actions first.
        if self.stack[ix].autos.is_none() {
            let autos = self.collect_autos(ix);
            match autos {
                Ok(a) => self.stack[ix].autos = Some(a.into()),
                Err(()) => return Err(Stop::Halt),
            }
        }
        if let Some((c, a)) = self.stack[ix].autos.as_mut().and_then(|q| q.pop_front()) {
            self.push_automatic(ix, c, a);
            return Ok(());
        }
        // Then just actions, beginning with the opponent of the player who performed the current action.
        if !self.stack[ix].window_opened {
            self.stack[ix].window_opened = true;
            let text = format!(
                "responses to {} ({}): {} has the first just action",
                self.stack[ix].label,
                self.stack[ix].kind.name(),
                self.stack[ix].next.name()
            );
            self.log(
                Actor::Rules,
                Event::Window,
                text,
                &[r::HOW_THE_STACK_WORKS, r::JUST_ACTIONS],
            );
        }
        let p = self.stack[ix].next;
        match self.ask(p, Window::Response(ix)) {
            Asked::Stop => Err(Stop::Halt),
            Asked::Pass => {
                self.stack[ix].passes += 1;
                if self.stack[ix].passes >= 2 {
                    self.begin_result(ix)
                } else {
                    self.stack[ix].next = p.other();
                    Ok(())
                }
            }
            Asked::Act(d) => {
                let snap = self.before_possible.then(|| self.snapshot());
                match self.initiate(&d, Window::Response(ix)) {
                    Ok(()) if std::mem::take(&mut self.backed_up) => {}
                    Ok(()) => {
                        self.attempt = snap.map(|snap| Attempt {
                            snap,
                            window: Window::Response(ix),
                        });
                        self.stack[ix].passes = 0;
                        self.stack[ix].next = p.other();
                    }
                    Err(e) => self.reject(&d, e),
                }
                Ok(())
            }
        }
    }

    /// Automatic actions triggered by the current action: in card order; from
    /// different cards, in the order chosen by the player whose turn it is.
    pub(super) fn collect_autos(&mut self, ix: usize) -> Result<Vec<(CardIx, usize)>, ()> {
        let mut found = Vec::new();
        for c in 0..self.st.cards.len() {
            if !self.st.active(c) && !self.drawn_text_active(ix, c) {
                continue;
            }
            for (a, ab) in self.st.def(c).abilities.iter().enumerate() {
                if ab.kind != AbilityKind::Automatic {
                    continue;
                }
                let Some(t) = &ab.responds_to else { continue };
                if self.trigger_matches(t, ix, c)
                    && self.conditions_hold(self.st.owner(c), c, ab).is_ok()
                {
                    found.push((c, a));
                }
            }
        }
        let mut sources: Vec<CardIx> = found.iter().map(|x| x.0).collect();
        sources.dedup();
        if sources.len() > 1 {
            let p = self.turn;
            let Some(order) = self.take_order(p, &sources) else {
                return Err(());
            };
            self.log(
                actor(p),
                Event::StateChange,
                format!(
                    "{} (whose turn it is) orders the automatic actions: {}",
                    p.name(),
                    self.names(&order)
                ),
                &[r::AUTOMATIC_ACTIONS],
            );
            let mut sorted = Vec::new();
            for c in order {
                sorted.extend(found.iter().filter(|x| x.0 == c).copied());
            }
            found = sorted;
        }
        Ok(found)
    }

    /// The order of competing automatic actions, chosen by `p` (whose turn it is). An
    /// `order` decision by the other player, or one that does not name each source once,
    /// is rejected where it stands; with none left, the run needs `p`'s decision.
    pub(super) fn take_order(&mut self, p: Side, sources: &[CardIx]) -> Option<Vec<CardIx>> {
        let names = self.keys(sources);
        while let Some(d) = self
            .script
            .peek()
            .filter(|d| d.verb == Verb::Order)
            .cloned()
        {
            self.script.take();
            if d.by != p {
                let reason = format!(
                    "{} cannot order the automatic actions: {} (whose turn it is) chooses their order",
                    d.by.name(),
                    p.name()
                );
                self.reject(&d, rej(reason, r::AUTOMATIC_ACTIONS));
                continue;
            }
            let mut order = Vec::new();
            for k in &d.step.cards {
                if let Some(c) = self.st.find(k).filter(|c| sources.contains(c))
                    && !order.contains(&c)
                {
                    order.push(c);
                }
            }
            if order.len() == sources.len() && d.step.cards.len() == sources.len() {
                return Some(order);
            }
            let reason = format!("the order must name each of: {names}");
            self.reject(&d, rej(reason, r::AUTOMATIC_ACTIONS));
        }
        self.need(
            p,
            crate::engine::NeedKind::Order,
            format!("the order of competing automatic actions from {names}"),
        );
        None
    }

    pub(super) fn push_automatic(&mut self, ix: usize, c: CardIx, a: usize) {
        if self.automatic_text_canceled(c) {
            return;
        }
        let owner = self.st.owner(c);
        let targets = match self
            .response_allowed(c, a, Window::Response(ix))
            .and_then(|()| self.choose_targets(owner, c, a, Window::Response(ix), &[]))
        {
            Ok(t) => t,
            Err(e) => {
                self.log(
                    Actor::Rules,
                    Event::StateChange,
                    format!(
                        "{}'s automatic action cannot target: {}",
                        self.name(c),
                        e.reason
                    ),
                    &[e.rule],
                );
                return;
            }
        };
        let text = self.ability_text(c, a);
        let mut e = Entry::new(
            ActionKind::Triggered,
            owner,
            Some(c),
            self.st.key(c).to_string(),
        );
        e.ability = Some(a);
        e.targets = targets;
        e.responding_to = Some(ix);
        self.stack.push(e);
        self.log(
            actor(owner),
            Event::Push,
            format!(
                "automatic action triggered by {}: {} ({text})",
                self.stack[ix].label,
                self.name(c)
            ),
            &[r::AUTOMATIC_ACTIONS, r::HOW_THE_STACK_WORKS],
        );
    }

    pub(super) fn begin_result(&mut self, ix: usize) -> Flow {
        // Once any action has its result, nothing before it can be backed up to.
        self.attempt = None;
        let label = self.stack[ix].label.clone();
        let kind = self.stack[ix].kind.clone();
        self.log(
            Actor::Rules,
            Event::Result,
            format!("two consecutive passes: responses to {label} are over; it has its result"),
            &[r::HOW_THE_STACK_WORKS, r::RESULT],
        );
        match kind {
            ActionKind::Deploy { to } => self.deploy_result(ix, label, to),
            ActionKind::Play
            | ActionKind::UseText
            | ActionKind::Triggered
            | ActionKind::Mandatory
            | ActionKind::Fire => {
                let (c, a) = (self.stack[ix].card, self.stack[ix].ability);
                if self.stack[ix].grabbed {
                    self.log(
                        Actor::Rules,
                        Event::Result,
                        format!("{label} has no result: its Interrupt was stacked on a grabber"),
                        &[super::grabbers::GRABBERS],
                    );
                } else if let (Some(c), Some(a)) = (c, a) {
                    let effects = self.st.def(c).abilities[a].effect.clone();
                    self.stack[ix].pending = effects.into();
                }
                self.stack[ix].stage = Stage::Resolving;
                Ok(())
            }
            ActionKind::DestinyDraw { parent, test } => self.destiny_draw_result(ix, parent, test),
            ActionKind::DestinyDrawn {
                parent,
                test,
                card,
                value,
            } => {
                let p = self.stack[ix].actor;
                let battle_draw = self.stack[ix].battle_draw;
                let draw_kind = self.stack[ix].draw_kind;
                let substituted = self.stack[ix].substitute.is_some();
                // Unless a response already sent the destiny card elsewhere.
                if let Some(c) = card
                    && self.st.zone[c] == Zone::Drawn
                {
                    self.st.to_pile(c, p, PileName::UsedPile);
                    self.log(
                        actor(p),
                        Event::StateChange,
                        format!(
                            "the destiny card {} is placed on {}'s Used Pile",
                            self.name(c),
                            p.name()
                        ),
                        &[r::RESULT],
                    );
                }
                self.resolved.push(label.clone());
                self.stack.pop();
                self.log(
                    Actor::Rules,
                    Event::Pop,
                    format!("{label} comes off the stack"),
                    &[r::HOW_THE_STACK_WORKS],
                );
                match battle_draw {
                    Some(s) if parent < self.stack.len() => {
                        self.stack[parent].drawn.push(PowerDraw {
                            side: s,
                            value,
                            kind: draw_kind,
                            canceled_by: None,
                        });
                    }
                    Some(_) => {}
                    None => self.destiny_done(parent, &test, value, substituted),
                }
                Ok(())
            }
            ActionKind::JustDeployed
            | ActionKind::JustMoved { .. }
            | ActionKind::JustLost { .. }
            | ActionKind::BattleWon { .. }
            | ActionKind::BlownAway { .. } => {
                self.stack.pop();
                self.log(
                    Actor::Rules,
                    Event::Pop,
                    format!("{label} comes off the stack"),
                    &[r::HOW_THE_STACK_WORKS],
                );
                Ok(())
            }
            ActionKind::Move { to, .. } => {
                self.move_result(ix, to);
                Ok(())
            }
            ActionKind::Battle => self.battle_begin(ix),
            ActionKind::Attack => self.attack_begin(ix),
            ActionKind::Activation { side } => self.activation_result(ix, side),
            ActionKind::ForceLoss { side, amount } => self.force_loss_result(ix, side, amount),
            ActionKind::ForceDrain => {
                if self.battle_or_drain_result(ix) {
                    Ok(())
                } else {
                    Err(Stop::Halt)
                }
            }
        }
    }

    /// A deployment has its result: the card is deployed, then is "just deployed".
    fn deploy_result(&mut self, ix: usize, label: String, to: DeployTo) -> Flow {
        let Some(c) = self.stack[ix].card else {
            return Ok(());
        };
        let z = match to {
            DeployTo::Location(l) => Zone::At(l),
            DeployTo::OnCard(h) => Zone::On(h),
            DeployTo::Table => Zone::Table,
        };
        self.st.put(c, z);
        self.st.card_state[c] = crate::engine::swccg::model::CardState::Active;
        self.place_with(ix, c);
        let actor_side = self.stack[ix].actor;
        let place = match z {
            Zone::At(l) => format!("at {}", self.st.locations[l].title),
            Zone::On(h) => format!("on {}", self.name(h)),
            _ => "on table".to_string(),
        };
        self.log(
            actor(actor_side),
            Event::StateChange,
            format!("{} is deployed {place}", self.name(c)),
            &[r::RESULT, r::ACTIVE],
        );
        self.resolved.push(label.clone());
        let with = self.stack[ix].target("with").cloned();
        self.stack.pop();
        self.log(
            Actor::Rules,
            Event::Pop,
            format!("{label} comes off the stack"),
            &[r::HOW_THE_STACK_WORKS],
        );
        // The deployment coming off the stack can itself be responded to.
        let mut e = Entry::new(
            ActionKind::JustDeployed,
            actor_side,
            Some(c),
            format!("{label} just deployed"),
        );
        // The cards deployed simultaneously with it share what happens to it.
        if let Some(w) = with {
            e.targets.push(("with".into(), w));
        }
        e.next = actor_side.other();
        self.stack.push(e);
        self.log(
            actor(actor_side),
            Event::Push,
            format!(
                "{} is just deployed: responses to the completed deployment",
                self.name(c)
            ),
            &[r::COMING_OFF_THE_STACK, r::JUST_DEPLOYED],
        );
        Ok(())
    }

    /// A destiny draw has its result: the card is drawn (or a substitute used); the
    /// drawn destiny can then be responded to.
    fn destiny_draw_result(&mut self, ix: usize, parent: usize, test: DestinyTest) -> Flow {
        let p = self.stack[ix].actor;
        let (card, value) = match self.stack[ix].substitute {
            Some(v) => {
                self.destinies.push(v);
                self.log(
                    actor(p),
                    Event::Result,
                    format!(
                        "{} does not draw a card: the substituted destiny {v} is used",
                        p.name()
                    ),
                    &[r::RESULT],
                );
                (None, Some(v))
            }
            None if self.stack[ix].choose.is_some() => self.draw_and_choose(ix, parent, p),
            None => self.draw_destiny(p),
        };
        self.stack[ix].kind = ActionKind::DestinyDrawn {
            parent,
            test,
            card,
            value,
        };
        // A battle destiny draw keeps its label (which draw it is).
        if self.stack[ix].battle_draw.is_none() {
            self.stack[ix].label = format!(
                "{}'s destiny draw for {}",
                p.name(),
                self.stack[parent].label
            );
        }
        self.stack[ix].autos = None;
        self.stack[ix].passes = 0;
        self.stack[ix].next = p.other();
        self.stack[ix].window_opened = false;
        self.stack[ix].responded.clear();
        Ok(())
    }

    pub(super) fn draw_destiny(&mut self, p: Side) -> (Option<CardIx>, Option<i64>) {
        let Some(c) = self.st.top(p, PileName::ReserveDeck) else {
            self.log(
                actor(p),
                Event::Result,
                format!(
                    "{}'s Reserve Deck is empty: the destiny draw fails",
                    p.name()
                ),
                &[r::IMPLIED_TARGET_RULE],
            );
            return (None, None);
        };
        let Some(printed) = self.destiny_number(p, c) else {
            return (None, None);
        };
        let req = destiny::Request::new("destiny", p.name(), 1);
        let out = destiny::draw(
            &req,
            &[destiny::DestinyCard::new(self.st.title(c), printed)],
        );
        let value = out.total_value();
        self.st.put(c, Zone::Drawn);
        if let Some(v) = value {
            self.destinies.push(v);
        }
        let shown = value
            .map(|v| v.to_string())
            .unwrap_or_else(|| "none".into());
        self.log(
            actor(p),
            Event::Result,
            format!(
                "{} draws destiny: {} (destiny {shown})",
                p.name(),
                self.name(c)
            ),
            &[r::RESULT],
        );
        (Some(c), value)
    }

    /// The destiny number of the card `p` draws: its printed value; a location's is 0;
    /// with several values (`destiny_values`), the drawing player's `destiny_value`
    /// decision picks one. A card whose destiny number the board does not give is not
    /// modelled (the run stops) rather than drawn as 0.
    pub(super) fn destiny_number(&mut self, p: Side, c: CardIx) -> Option<i64> {
        use super::values::cite;
        if self.identity_needed(c) {
            return None;
        }
        let def = self.st.def(c);
        let values = if !def.stats.destiny_values.is_empty() {
            def.stats.destiny_values.clone()
        } else if let Some(v) = def.stats.destiny {
            vec![v]
        } else if def.card_type == CardType::Location {
            vec![0]
        } else {
            let what = format!(
                "the destiny number of {} (drawn for destiny) is not given on the board",
                self.name(c)
            );
            let depth = self.depth();
            self.trace
                .not_modelled(depth, actor(p), what.clone(), &[cite::UNDEFINED_VALUES]);
            self.outcome = Some(End::NotModelled { what });
            return None;
        };
        if let [v] = values[..] {
            return Some(v);
        }
        while let Some(d) = self
            .script
            .peek()
            .filter(|d| d.by == p && d.verb == Verb::DestinyValue)
            .cloned()
        {
            self.script.take();
            match d.step.amount.filter(|v| values.contains(v)) {
                Some(v) => {
                    self.log(
                        actor(p),
                        Event::StateChange,
                        format!(
                            "{} has several destiny numbers ({}): {} chooses {v}",
                            self.name(c),
                            values
                                .iter()
                                .map(|v| v.to_string())
                                .collect::<Vec<_>>()
                                .join(", "),
                            p.name()
                        ),
                        &[cite::MULTIPLE_DESTINY_VALUES],
                    );
                    return Some(v);
                }
                None => {
                    let reason = format!(
                        "{}'s destiny numbers are {}",
                        self.name(c),
                        values
                            .iter()
                            .map(|v| v.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    self.reject(&d, rej(reason, cite::MULTIPLE_DESTINY_VALUES));
                }
            }
        }
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        let what = format!(
            "the destiny number of {} (one of {})",
            self.name(c),
            values.join(", ")
        );
        self.need_choice(p, what);
        None
    }

    pub(super) fn apply_destiny_test(
        &mut self,
        parent: usize,
        test: &DestinyTest,
        value: Option<i64>,
    ) {
        if parent >= self.stack.len() {
            return;
        }
        if self.stack[parent].shot.is_some() {
            self.shot_drawn(parent, value);
            return;
        }
        if self.stack[parent].duel.is_some() {
            self.duel_drawn(parent, value);
            return;
        }
        self.stack[parent].destiny = value;
        let me = self.stack[parent].actor;
        let ok = match value {
            None => false,
            Some(v) => {
                let lt = test
                    .less_than
                    .as_ref()
                    .map(|a| self.amount(parent, a, me).map(|x| v < x));
                let gt = test
                    .greater_than
                    .as_ref()
                    .map(|a| self.amount(parent, a, me).map(|x| v > x));
                let mut ok = true;
                for t in [lt, gt].into_iter().flatten() {
                    ok &= t.unwrap_or(false);
                }
                ok
            }
        };
        let bound = [
            test.less_than
                .as_ref()
                .and_then(|a| self.amount(parent, a, me))
                .map(|x| format!("< {x}")),
            test.greater_than
                .as_ref()
                .and_then(|a| self.amount(parent, a, me))
                .map(|x| format!("> {x}")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" and ");
        let shown = value
            .map(|v| v.to_string())
            .unwrap_or_else(|| "no destiny".into());
        self.log(
            actor(me),
            Event::Result,
            format!(
                "{}: destiny {shown} needs {bound}: {}",
                self.stack[parent].label,
                if ok { "success" } else { "failure" }
            ),
            &[r::RESULT],
        );
        let branch = if ok { &test.success } else { &test.failure };
        for e in branch.iter().rev() {
            self.stack[parent].pending.push_front(e.clone());
        }
    }

    pub(super) fn continue_result(&mut self, ix: usize) -> Flow {
        while let Some(eff) = self.stack[ix].pending.pop_front() {
            match self.apply(ix, eff) {
                Applied::Done => {}
                Applied::Pushed => return Ok(()),
                Applied::Stop => return Err(Stop::Halt),
            }
            if self.stack.len() <= ix {
                return Ok(());
            }
        }
        self.finish(ix);
        Ok(())
    }

    /// The action has had all its results: place its card and take it off the stack.
    pub(super) fn finish(&mut self, ix: usize) {
        let label = self.stack[ix].label.clone();
        let e = &self.stack[ix];
        let (kind, card, then, a_side, moved) =
            (e.kind.clone(), e.card, e.then, e.actor, e.moved.clone());
        if e.grabbed {
            self.stack.truncate(ix);
            self.log(
                Actor::Rules,
                Event::Pop,
                format!("{label} comes off the stack without a result"),
                &[super::grabbers::GRABBERS],
            );
            return;
        }
        self.resolved.push(label.clone());
        if let (ActionKind::Play, Some(c)) = (&kind, card)
            && self.st.zone[c] == Zone::Stack
        {
            let dest = then
                .or_else(|| e.ability.and_then(|a| self.st.def(c).abilities[a].then))
                .unwrap_or_else(|| interrupt_default_dest(self.st.def(c).subtype.as_deref()));
            self.place(c, dest, a_side);
        }
        self.stack.truncate(ix);
        self.log(
            Actor::Rules,
            Event::Pop,
            format!("{label} has its result and comes off the stack"),
            &[r::HOW_THE_STACK_WORKS],
        );
        if !moved.is_empty() {
            let names = self.names(&moved);
            let mut e = Entry::new(
                ActionKind::JustMoved { cards: moved },
                a_side,
                card,
                format!("{label} completed move"),
            );
            e.next = a_side.other();
            self.stack.push(e);
            self.log(
                actor(a_side),
                Event::Push,
                format!("{names} just moved: responses to the completed move"),
                &[r::COMING_OFF_THE_STACK],
            );
        }
    }

    pub(super) fn place(&mut self, c: CardIx, dest: Dest, fallback_owner: Side) {
        let owner = self.st.owner(c);
        let _ = fallback_owner;
        let pile = match dest {
            Dest::UsedPile => PileName::UsedPile,
            Dest::LostPile => PileName::LostPile,
            Dest::OutOfPlay => PileName::OutOfPlay,
            Dest::Hand => PileName::Hand,
            Dest::ReserveDeck => PileName::ReserveDeck,
            Dest::ForcePile => PileName::ForcePile,
            Dest::Table => {
                self.st.put(c, Zone::Table);
                self.log(
                    actor(owner),
                    Event::StateChange,
                    format!("{} is placed on table", self.name(c)),
                    &[r::RESULT],
                );
                return;
            }
        };
        let was_on_table = self.st.on_table(c);
        let carried = if was_on_table {
            self.all_on(c)
        } else {
            Vec::new()
        };
        self.st.to_pile(c, owner, pile);
        self.log(
            actor(owner),
            Event::StateChange,
            format!(
                "{} is placed in {}'s {}",
                self.name(c),
                owner.name(),
                pile.title()
            ),
            &[if pile == PileName::OutOfPlay {
                r::OUT_OF_PLAY
            } else {
                r::RESULT
            }],
        );
        for x in carried {
            let o = self.st.owner(x);
            self.st.to_pile(x, o, PileName::LostPile);
            self.log(
                actor(o),
                Event::StateChange,
                format!(
                    "{} leaves table with {}: placed in {}'s Lost Pile",
                    self.name(x),
                    self.name(c),
                    o.name()
                ),
                &[r::LEAVES_TABLE],
            );
        }
    }

    /// Every card on `c`, recursively.
    pub(super) fn all_on(&self, c: CardIx) -> Vec<CardIx> {
        let mut out = Vec::new();
        let mut todo = self.st.cards_on(c);
        while let Some(x) = todo.pop() {
            if x == c || out.contains(&x) {
                continue;
            }
            out.push(x);
            todo.extend(self.st.cards_on(x));
        }
        out.sort_unstable();
        out
    }

    /// `c` and every card on it go to their owners' Lost Piles; returns them, `c`
    /// first.
    pub(super) fn lose_with_all_on(&mut self, c: CardIx) -> Vec<CardIx> {
        self.jump_off(c);
        let mut gone = vec![c];
        gone.extend(self.all_on(c));
        for &x in &gone {
            let owner = self.st.owner(x);
            self.st.to_pile(x, owner, PileName::LostPile);
        }
        gone
    }
}
