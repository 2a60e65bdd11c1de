//! Initiating actions: conditions, limits, costs, deploying, "before" actions backing up.

use super::engine::*;
use super::rules as r;
use super::stack::{ActionKind, DeployTo, Entry, Stage, Tgt};
use super::state::{CardIx, Zone};
use crate::engine::swccg::model::{
    Ability, AbilityKind, CardRef, CardType, Dest, Effect, Limit, Phase, PileName, Side,
    TargetKind, Verb,
};
use crate::engine::{Actor, Event};

impl Engine {
    pub(super) fn initiate(&mut self, d: &Decision, w: Window) -> Result<(), Rejection> {
        let p = d.by;
        let card_key = d.step.card.as_deref().unwrap_or("");
        match d.verb {
            Verb::Pass => Ok(()),
            Verb::Battle | Verb::ForceDrain => self.initiate_battle_or_drain(d, w),
            Verb::Fire => self.initiate_fire(d, w),
            Verb::First => Err(rej(
                "there is no result with several players to order now",
                super::each_player::RESULT,
            )),
            Verb::Retarget => Err(rej(
                "there is nothing to retarget now (a retargeting card's result asks for it)",
                super::retarget::RETARGETING,
            )),
            Verb::Choose | Verb::Order => {
                Err(rej("there is nothing to choose or order now", r::ACTIONS))
            }
            Verb::Forfeit | Verb::LoseForce | Verb::DestinyValue | Verb::BattleDestinies => {
                Err(rej(
                    "there is no battle choice to make now (forfeiting and losing Force to battle damage happen in a battle's damage segment)",
                    super::values::cite::DAMAGE_SEGMENT,
                ))
            }
            Verb::Move => self.initiate_move(d, w == Window::TopLevel),
            Verb::Activate if w != Window::TopLevel => Err(rej(
                "activating Force is a top-level action: not while the stack is not empty",
                r::THE_STACK,
            )),
            Verb::Activate => self.activate_force(d),
            Verb::Replace if w != Window::TopLevel => Err(rej(
                "persona replacement and converting are top-level actions: not while the stack is not empty",
                r::THE_STACK,
            )),
            Verb::Replace => self.replace_persona(d),
            Verb::Reveal | Verb::AllowConversion | Verb::DeclineConversion
                if w != Window::TopLevel =>
            {
                Err(rej(
                    "starting locations are revealed and converted while nothing is on the stack",
                    r::THE_STACK,
                ))
            }
            Verb::Reveal | Verb::AllowConversion | Verb::DeclineConversion => {
                self.starting_location(d)
            }
            Verb::Deploy => {
                let c = self.card_named(card_key, r::ACTIONS)?;
                if let Window::Response(i) = w
                    && self.is_arrival(d)
                {
                    return self.arrive(d, i);
                }
                if let Window::Response(_) = w {
                    return Err(rej(
                        "a top-level action (deploying from hand) cannot be initiated while the stack is not empty",
                        r::THE_STACK,
                    ));
                }
                self.shield_not_deployed(c)?;
                let to = self.check_deploy(p, c, Some(d))?;
                let with = self.check_with(p, c, d)?;
                let free = self.phase == Phase::StartOfGame;
                self.push_deploy(p, c, to, free, None);
                self.push_with(p, with);
                Ok(())
            }
            Verb::Play => self.initiate_play(d, w),
            Verb::Attack => self.initiate_attack(d, w),
            Verb::Use => self.initiate_use(d, w),
            Verb::React => self.initiate_react(d, w),
            Verb::Imprison => self.prisoner_transfer(d, w),
            Verb::Seize | Verb::Escape | Verb::Rally | Verb::Launch => {
                Err(self.stray_capture_decision(d))
            }
            Verb::Draw => self.draw_phase_draw(d, w),
            Verb::BreakCover => self.voluntary_break_cover(d, w),
            Verb::Maintain | Verb::Recycle | Verb::Sacrifice => Err(rej(
                "no maintenance cost is due now (maintenance is paid at the end of its owner's turn)",
                r::MAINTENANCE,
            )),
        }
    }

    /// The card a decision names, which must be the deciding player's own.
    fn own_card(&self, d: &Decision) -> Result<CardIx, Rejection> {
        let c = self.decision_card(d, r::ACTIONS)?;
        if self.st.owner(c) != d.by {
            return Err(rej(
                format!("{} is not {}'s card", self.name(c), d.by.name()),
                r::ACTIONS,
            ));
        }
        Ok(c)
    }

    /// Playing an Interrupt (or a Defensive Shield) from hand, or from a pile by a
    /// card's permission (`via:`).
    fn initiate_play(&mut self, d: &Decision, w: Window) -> Result<(), Rejection> {
        let p = d.by;
        let c = self.own_card(d)?;
        let mut then = None;
        let mut via_use = None;
        if let Some(v) = &d.step.via {
            let vc = self.card_named(v, r::ACTIONS)?;
            let (va, from, th) = self.via_ability(p, vc)?;
            if self.st.zone[c] != Zone::Pile(p, from) {
                return Err(rej(
                    format!("{} is not in {}'s {}", self.name(c), p.name(), from.title()),
                    r::DEPLOYING_FROM_PILE,
                ));
            }
            self.limit_ok(vc, va)?;
            then = Some(th);
            via_use = Some((vc, va));
        } else if self.st.zone[c] != Zone::Pile(p, PileName::Hand) {
            return Err(rej(
                format!("{} is not in {}'s hand", self.name(c), p.name()),
                r::ACTIONS,
            ));
        }
        if self.is_shield(c) && via_use.is_none() {
            return self.play_shield(p, c, w);
        }
        if self.st.def(c).card_type != CardType::Interrupt {
            return Err(rej(
                format!(
                    "{} is not an Interrupt; it is deployed, not played",
                    self.name(c)
                ),
                r::ACTIONS,
            ));
        }
        let a = self.pick_ability(p, c, d, w)?;
        let targets = self.check_ability(p, c, a, w, &d.step.target, Some(d))?;
        self.play_limits_ok(p, c, &targets)?;
        if self.st.def(c).abilities[a].kind == AbilityKind::Before
            && via_use.is_none()
            && !self.before_draw(w)
        {
            self.back_up(p, c, a, ActionKind::Play, targets, then);
            return Ok(());
        }
        if let Some((vc, va)) = via_use {
            self.record_use(vc, va);
            self.log(
                actor(p),
                Event::Initiate,
                format!(
                    "{} uses {} to play {} as if from hand",
                    p.name(),
                    self.name(vc),
                    self.name(c)
                ),
                &[r::DEPLOYING_FROM_PILE],
            );
        }
        let base = self.st.def(c).abilities[a].cost.use_force as usize;
        self.grab_cost_ok(p, c, base)?;
        self.push_ability(p, c, a, ActionKind::Play, targets, w, then);
        self.note_played(c);
        self.grab_on_initiation(p, c);
        Ok(())
    }

    /// Using a card's game text.
    fn initiate_use(&mut self, d: &Decision, w: Window) -> Result<(), Rejection> {
        let p = d.by;
        let c = match self.own_card(d) {
            Ok(c) => c,
            Err(e) => self.opponents_text(d).ok_or(e)?,
        };
        if !self.st.active(c) {
            return Err(rej(
                format!(
                    "{} is not active on table: its game text cannot be used",
                    self.name(c)
                ),
                if self.st.on_table(c) {
                    r::INACTIVE
                } else {
                    r::ACTIVE
                },
            ));
        }
        if let Ok((va, from, _)) = self.via_ability(p, c) {
            return self.search_to_play(p, c, va, from, w);
        }
        let a = self.pick_ability(p, c, d, w)?;
        let targets = self.check_ability(p, c, a, w, &d.step.target, Some(d))?;
        self.device_use_ok(c)?;
        if self.st.def(c).abilities[a].kind == AbilityKind::Before && !self.before_draw(w) {
            self.back_up(p, c, a, ActionKind::UseText, targets, None);
            return Ok(());
        }
        self.note_device_use(c);
        let kind = if self.st.def(c).abilities[a].kind == AbilityKind::Mandatory {
            self.mandatory_done.push((c, a));
            ActionKind::Mandatory
        } else {
            ActionKind::UseText
        };
        self.push_ability(p, c, a, kind, targets, w, None);
        Ok(())
    }

    /// Using "play one Interrupt from a pile as if from hand" without naming the card:
    /// the player looks through the pile; when nothing can be played now the search
    /// fails, the opponent may verify, and the once-per-turn use is spent.
    pub(super) fn search_to_play(
        &mut self,
        p: Side,
        vc: CardIx,
        va: usize,
        from: PileName,
        w: Window,
    ) -> Result<(), Rejection> {
        self.limit_ok(vc, va)?;
        let playable: Vec<CardIx> = self
            .st
            .pile(p, from)
            .iter()
            .copied()
            .filter(|&c| {
                self.st.def(c).card_type == CardType::Interrupt
                    && (0..self.st.def(c).abilities.len())
                        .any(|a| self.check_ability(p, c, a, w, &[], None).is_ok())
            })
            .collect();
        if let Some(&c) = playable.first() {
            return Err(rej(
                format!(
                    "{} can be played from the {} now and must be taken: script `play: {}` with `via: {}`",
                    self.name(c),
                    from.title(),
                    self.st.key(c),
                    self.st.key(vc)
                ),
                r::TAKING_CARDS,
            ));
        }
        self.record_use(vc, va);
        self.log(
            actor(p),
            Event::Initiate,
            format!(
                "{} uses {} and looks through the {}: no Interrupt there can be played now; the opponent may verify. The ability is used for this turn even though it failed",
                p.name(),
                self.name(vc),
                from.title()
            ),
            &[r::DEPLOYING_FROM_PILE, r::TAKING_CARDS, r::ONE_RULE],
        );
        Ok(())
    }

    pub(super) fn is_play_from(&self, c: CardIx, a: usize) -> bool {
        self.st.def(c).abilities[a]
            .effect
            .iter()
            .any(|e| matches!(e, Effect::PlayFrom { .. }))
    }

    /// The ability of `vc` that lets `p` play a card from a pile.
    pub(super) fn via_ability(
        &self,
        p: Side,
        vc: CardIx,
    ) -> Result<(usize, PileName, Dest), Rejection> {
        if self.st.owner(vc) != p || !self.st.active(vc) {
            return Err(rej(
                format!(
                    "{} is not {}'s active card on table",
                    self.name(vc),
                    p.name()
                ),
                r::ACTIVE,
            ));
        }
        for (a, ab) in self.st.def(vc).abilities.iter().enumerate() {
            for e in &ab.effect {
                if let Effect::PlayFrom { from, then } = e {
                    return Ok((a, *from, *then));
                }
            }
        }
        Err(rej(
            format!(
                "{} has no game text to play a card from a pile",
                self.name(vc)
            ),
            r::DEPLOYING_FROM_PILE,
        ))
    }

    /// Could `p` play any card through the play-from ability `(vc, va)` now?
    pub(super) fn play_from_candidates(&self, p: Side, vc: CardIx, va: usize, w: Window) -> bool {
        if self.limit_ok(vc, va).is_err() {
            return false;
        }
        let _ = w;
        let Ok((_, from, _)) = self.via_ability(p, vc) else {
            return false;
        };
        // The player may state the use before looking: any non-empty pile will do.
        self.st.pile_len(p, from) > 0
    }

    pub(super) fn pick_ability(
        &self,
        p: Side,
        c: CardIx,
        d: &Decision,
        w: Window,
    ) -> Result<usize, Rejection> {
        let abilities = &self.st.def(c).abilities;
        if abilities.is_empty() {
            let nm = &self.st.def(c).not_modelled;
            if nm.is_empty() {
                return Err(rej(
                    format!("{} has no game text the engine models", self.name(c)),
                    r::ACTIONS,
                ));
            }
            let what = format!("{}: {}", self.name(c), nm.join("; "));
            return Err(Rejection {
                reason: format!("not modelled — ruling needed: {what}"),
                rule: r::ACTIONS,
                not_modelled: Some(what),
                also: Vec::new(),
            });
        }
        if let Some(name) = &d.step.ability {
            return find_ability(abilities, name).ok_or_else(|| {
                rej(
                    format!("{} has no ability {name}", self.name(c)),
                    r::ACTIONS,
                )
            });
        }
        // The first ability legal now; otherwise report why the first one is not.
        let mut first_err = None;
        for a in 0..abilities.len() {
            match self.check_ability(p, c, a, w, &d.step.target, None) {
                Ok(_) => return Ok(a),
                Err(e) => {
                    if first_err.is_none() {
                        first_err = Some(e);
                    }
                }
            }
        }
        Err(first_err.unwrap_or_else(|| rej("no legal use", r::ACTIONS)))
    }

    pub(super) fn limit_ok(&self, c: CardIx, a: usize) -> Result<(), Rejection> {
        let ab = &self.st.def(c).abilities[a];
        let Some(limit) = ab.limit else { return Ok(()) };
        let title = self.st.title(c).to_string();
        let name = ability_name(ab, a);
        let same = |u: &&Usage| match limit {
            Limit::OncePerGame | Limit::TwicePerGame => {
                u.title == title
                    && ability_name(&self.st.def(u.card).abilities[u.ability], u.ability) == name
            }
            Limit::OncePerTurn | Limit::OncePerPhase | Limit::OncePerBattle => {
                u.card == c && u.ability == a
            }
        };
        let allowed = if limit == Limit::TwicePerGame { 2 } else { 1 };
        let uses: Vec<&Usage> = self.usage.iter().filter(same).collect();
        if uses.len() < allowed {
            return Ok(());
        }
        let u = uses[0];
        let (period, rule) = match limit {
            Limit::OncePerTurn => ("turn", r::ONE_RULE),
            Limit::OncePerPhase => ("phase", r::ONE_RULE),
            Limit::OncePerBattle => ("battle", r::ONE_RULE),
            Limit::OncePerGame => ("game", r::ONCE_PER_GAME),
            Limit::TwicePerGame => ("game", r::ONCE_PER_GAME),
        };
        if u.canceled {
            return Err(rej(
                format!(
                    "{}'s action was canceled earlier this {period}; a canceled once-per-{period} action may not be initiated again in that period",
                    self.name(c)
                ),
                r::CANCELING,
            ));
        }
        Err(rej(
            format!(
                "{}'s action is limited to {} per {period} and was already initiated{}",
                self.name(c),
                if allowed == 2 { "twice" } else { "once" },
                if allowed == 2 {
                    " twice (with any card of that title)"
                } else {
                    ""
                }
            ),
            rule,
        ))
    }

    pub(super) fn search_ok(&self, c: CardIx, a: usize) -> Result<(), Rejection> {
        if self.failed_searches.contains(&(c, a)) {
            return Err(rej(
                format!(
                    "{}'s search found nothing and was verified: that search function may not be used again this turn",
                    self.name(c)
                ),
                r::TAKING_CARDS,
            ));
        }
        Ok(())
    }

    pub(super) fn record_use(&mut self, c: CardIx, a: usize) {
        if self.st.def(c).abilities[a].limit.is_some() {
            self.usage.push(Usage {
                card: c,
                ability: a,
                title: self.st.title(c).to_string(),
                canceled: false,
            });
        }
    }

    /// Conditions (AR: meeting conditions), targets (Implied Target Rule), costs; in that order.
    pub(super) fn check_ability(
        &self,
        p: Side,
        c: CardIx,
        a: usize,
        w: Window,
        chosen: &[String],
        d: Option<&Decision>,
    ) -> Result<Vec<(String, Tgt)>, Rejection> {
        let _ = d;
        let ab = &self.st.def(c).abilities[a];
        let title = self.name(c);
        super::epic::user_ok(&self.st, p, c, ab)?;
        self.unique_this_turn_ok(c)?;
        self.check_timing(p, c, a, w)?;
        if ab.kind == AbilityKind::Mandatory && self.mandatory_done.contains(&(c, a)) {
            return Err(rej(
                format!("{title}'s mandatory action was already performed in this time frame"),
                r::MANDATORY_ACTIONS,
            ));
        }
        self.conditions_hold(p, c, ab)?;
        self.search_ok(c, a)?;
        self.limit_ok(c, a)?;
        let targets = self.choose_targets(p, c, a, w, chosen)?;
        if let Window::Response(i) = w
            && ab
                .effect
                .iter()
                .any(|e| matches!(e, Effect::Cancel(CardRef::Current)))
            && let (ActionKind::Deploy { .. } | ActionKind::JustDeployed, Some(x)) =
                (&self.stack[i].kind, self.stack[i].card)
            && matches!(
                self.st.def(x).card_type,
                CardType::Character | CardType::Vehicle | CardType::Starship
            )
        {
            return Err(rej(
                format!(
                    "{title} cannot be initiated: {} cannot be canceled (characters, vehicles and starships may not be canceled)",
                    self.name(x)
                ),
                r::IMPLIED_TARGET_RULE,
            ));
        }
        self.response_allowed(c, a, w)?;
        self.check_costs(p, c, a)?;
        self.interrupt_tax_ok(p, c, self.st.def(c).abilities[a].cost.use_force)?;
        Ok(targets)
    }

    /// Is `w` the time just before a destiny draw (the draw on top of the stack, not yet
    /// made)? A "before" action there is performed before the draw, with no backing up.
    pub(super) fn before_draw(&self, w: Window) -> bool {
        matches!(w, Window::Response(i)
            if matches!(self.stack[i].kind, ActionKind::DestinyDraw { .. }))
    }

    /// A "before" action may preempt only an action just being attempted, by the
    /// opponent (or a destiny about to be drawn), that its condition names.
    fn check_before(
        &self,
        p: Side,
        c: CardIx,
        a: usize,
        i: usize,
        w: Window,
    ) -> Result<(), Rejection> {
        let ab = &self.st.def(c).abilities[a];
        let title = self.name(c);
        let Some(t) = &ab.responds_to else {
            return Err(rej(
                format!("{title}'s \"before\" action names no action"),
                r::BEFORE,
            ));
        };
        // A destiny draw is made by the rules, not attempted by a player: a
        // "before" action to it happens while it is about to be drawn.
        let draw = self.before_draw(w);
        let fresh = (draw
            || self
                .attempt
                .as_ref()
                .is_some_and(|at| at.snap.stack.len() == i))
            && i + 1 == self.stack.len()
            && self.stack[i].stage == Stage::Responding
            && self.stack[i].responded.is_empty();
        if !fresh {
            return Err(rej(
                format!(
                    "{title}'s \"before\" action happens before the action is even initiated; {} is no longer just being attempted",
                    self.stack[i].label
                ),
                r::BEFORE,
            ));
        }
        if self.stack[i].actor == p && !draw {
            return Err(rej(
                format!(
                    "{} may not back up from their own action ({}): a \"before\" action to one's own action is played before initiating it",
                    p.name(),
                    self.stack[i].label
                ),
                r::BEFORE,
            ));
        }
        if !self.trigger_matches(t, i, c) {
            return Err(rej(
                format!(
                    "{title}'s \"before\" action does not preempt the attempted action ({}, {})",
                    self.stack[i].label,
                    self.stack[i].kind.name()
                ),
                r::BEFORE,
            ));
        }
        if ab.targets.iter().any(|x| x.kind == TargetKind::Current) {
            return Err(rej(
                format!(
                    "{title}'s \"before\" action cannot target the action it preempts: that action is never initiated"
                ),
                r::BEFORE,
            ));
        }
        Ok(())
    }

    /// Whether the ability may be used in this window: its kind (top-level, response,
    /// automatic, "before", mandatory) against the current action.
    fn check_timing(&self, p: Side, c: CardIx, a: usize, w: Window) -> Result<(), Rejection> {
        let ab = &self.st.def(c).abilities[a];
        let title = self.name(c);
        if ab.in_battle {
            self.participates_in_battle(c)?;
        }
        if ab.not_during_battle
            && self
                .stack
                .iter()
                .any(|e| matches!(e.kind, ActionKind::Battle))
        {
            return Err(rej(
                format!("{title}'s text may be used at any time except during battle"),
                r::AT_ANY_TIME,
            )
            .and(r::CARD_TEXT));
        }
        match (ab.kind, w) {
            (AbilityKind::Automatic, _) => {
                return Err(rej(
                    format!("{title}'s text is an automatic action: it is triggered, not chosen"),
                    r::AUTOMATIC_ACTIONS,
                ));
            }
            (AbilityKind::Before, Window::TopLevel) => {
                return Err(rej(
                    format!(
                        "{title}'s \"before\" action preempts an attempt to initiate an action, and no action is being attempted \
                         (announcing your own action first is not modelled — ruling needed)"
                    ),
                    r::BEFORE,
                ));
            }
            (AbilityKind::Before, Window::Response(i)) => self.check_before(p, c, a, i, w)?,
            (AbilityKind::TopLevel, Window::Response(i))
                if ab.damage_segment && self.stack[i].damage.is_some() =>
            {
                self.damage_action_ok(i, p, c, a)?
            }
            (AbilityKind::TopLevel, Window::Response(i))
                if !ab.damage_segment && self.in_weapons_segment(i) =>
            {
                self.frame_allows(c, ab)?;
            }
            (AbilityKind::TopLevel, _) if ab.damage_segment => {
                return Err(rej(
                    format!("{title}'s action is played only during a battle's damage segment"),
                    super::values::cite::DAMAGE_SEGMENT,
                ));
            }
            (AbilityKind::TopLevel | AbilityKind::Mandatory, Window::Response(i)) => {
                let any_time = ab.at_any_time;
                return Err(rej(
                    format!(
                        "{title}'s action is a top-level action; it cannot respond to {} (the stack is not empty)",
                        self.stack[i].label
                    ),
                    if any_time {
                        r::AT_ANY_TIME
                    } else {
                        r::THE_STACK
                    },
                ));
            }
            (AbilityKind::Response, Window::TopLevel)
                if ab.responds_to.as_ref().is_some_and(|t| {
                    t.event == crate::engine::swccg::model::EventKind::JustLost
                }) =>
            {
                return Err(Rejection {
                    reason: format!(
                        "{title} responds to a card just lost, and no card is just lost now (a card that has left the Lost Pile is no longer just lost)"
                    ),
                    rule: r::MEETING_CONDITIONS,
                    not_modelled: None,
                    also: vec![r::JUST_LOST, r::JUST_ACTIONS],
                });
            }
            (AbilityKind::Response, Window::TopLevel) => {
                return Err(rej(
                    format!(
                        "{title}'s action is a response, and there is no current action to respond to"
                    ),
                    r::JUST_ACTIONS,
                ));
            }
            (AbilityKind::TopLevel | AbilityKind::Mandatory, Window::TopLevel) => {
                self.frame_allows(c, ab)?;
                if let Some(ph) = ab.during
                    && ph != self.phase
                {
                    return Err(rej(
                        format!("{title}'s action is only during the {} phase", ph.as_str()),
                        r::MEETING_CONDITIONS,
                    ));
                }
            }
            (AbilityKind::Response, Window::Response(i)) => {
                let Some(t) = &ab.responds_to else {
                    return Err(rej(
                        format!("{title}'s response has no condition"),
                        r::WHAT_IS_A_RESPONSE,
                    ));
                };
                if !self.trigger_matches(t, i, c) {
                    return Err(rej(
                        format!(
                            "{title} does not respond to the current action ({}, {})",
                            self.stack[i].label,
                            self.stack[i].kind.name()
                        ),
                        r::WHAT_IS_A_RESPONSE,
                    ));
                }
                self.power_response_ok(c, a, i)?;
                if self.stack[i].responded.contains(&(c, a)) {
                    return Err(rej(
                        format!(
                            "{title}'s just action was already initiated once in response to {}",
                            self.stack[i].label
                        ),
                        r::THE_STACK,
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether `p` can pay the ability's costs (AR: paying costs).
    fn check_costs(&self, p: Side, c: CardIx, a: usize) -> Result<(), Rejection> {
        let ab = &self.st.def(c).abilities[a];
        let title = self.name(c);
        let force_pile = self.st.pile_len(p, PileName::ForcePile) as u32;
        if ab.cost.use_force > force_pile {
            return Err(rej(
                format!(
                    "{title} costs {} Force to use; {} has {force_pile} in Force Pile",
                    ab.cost.use_force,
                    p.name()
                ),
                r::PAYING_COSTS,
            ));
        }
        if ab.cost.lose_force > 0 {
            let life = [
                PileName::ReserveDeck,
                PileName::ForcePile,
                PileName::UsedPile,
                PileName::Hand,
            ]
            .iter()
            .map(|&x| self.st.pile_len(p, x))
            .sum::<usize>() as u32;
            if ab.cost.lose_force > life {
                return Err(rej(
                    format!(
                        "{title} costs losing {} Force; {} cannot",
                        ab.cost.lose_force,
                        p.name()
                    ),
                    r::PAYING_COSTS,
                ));
            }
        }
        Ok(())
    }

    /// Does the decision use a "before" ability of the deciding player's card?
    pub(super) fn snapshot(&self) -> Box<Snapshot> {
        Box::new(Snapshot {
            st: self.st.clone(),
            stack: self.stack.clone(),
            usage: self.usage.clone(),
            mandatory_done: self.mandatory_done.clone(),
            failed_searches: self.failed_searches.clone(),
            resolved: self.resolved.clone(),
            canceled: self.canceled.clone(),
            destinies: self.destinies.clone(),
            top_next: self.top_next,
            top_passes: self.top_passes,
            battles: self.battles.clone(),
            drains: self.drains.clone(),
            attacks: self.attacks.clone(),
            ferocity_added: self.ferocity_added.clone(),
            deployed_turn: self.deployed_turn.clone(),
        })
    }

    /// A "before" action preempts the opponent's attempted action: play backs up to
    /// just before that action (it was never initiated; its costs were never paid),
    /// the "before" action is performed in its place, and afterwards the attempting
    /// player may initiate the action again, or not.
    pub(super) fn back_up(
        &mut self,
        p: Side,
        c: CardIx,
        a: usize,
        kind: ActionKind,
        targets: Vec<(String, Tgt)>,
        then: Option<Dest>,
    ) {
        let Some(at) = self.attempt.take() else {
            return;
        };
        let top = self.stack.last().map(|e| (e.label.clone(), e.actor));
        let s = *at.snap;
        self.st = s.st;
        self.stack = s.stack;
        self.usage = s.usage;
        self.mandatory_done = s.mandatory_done;
        self.failed_searches = s.failed_searches;
        self.resolved = s.resolved;
        self.canceled = s.canceled;
        self.destinies = s.destinies;
        self.top_next = s.top_next;
        self.top_passes = s.top_passes;
        self.battles = s.battles;
        self.drains = s.drains;
        self.attacks = s.attacks;
        self.ferocity_added = s.ferocity_added;
        self.deployed_turn = s.deployed_turn;
        if let Some((label, by)) = top {
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!(
                    "play backs up: {}'s {label} is not initiated (its costs are not paid, its card returns); {} performs a \"before\" action first, then {} may initiate it again or not",
                    by.name(),
                    p.name(),
                    by.name()
                ),
                &[r::BEFORE, r::TIME_TO_RESPOND],
            );
        }
        self.push_ability(p, c, a, kind, targets, at.window, then);
        self.backed_up = true;
    }

    pub(super) fn conditions_hold(
        &self,
        p: Side,
        c: CardIx,
        ab: &Ability,
    ) -> Result<(), Rejection> {
        if ab.your_turn && self.turn != p {
            return Err(rej(
                format!("{} is only during {}'s own turn", self.name(c), p.name()),
                r::MEETING_CONDITIONS,
            ));
        }
        self.where_conditions(p, c, ab)?;
        if let Some(f) = &ab.requires
            && self.st.table_matching(f, p).is_empty()
        {
            return Err(rej(
                format!(
                    "{}: its condition is not met (no such card on table)",
                    self.name(c)
                ),
                r::MEETING_CONDITIONS,
            ));
        }
        self.conditions_on_cards(p, c, ab)
    }

    /// Deploying from hand as a top-level action: its conditions and cost.
    pub(super) fn check_deploy(
        &self,
        p: Side,
        c: CardIx,
        d: Option<&Decision>,
    ) -> Result<DeployTo, Rejection> {
        let def = self.st.def(c);
        let title = self.name(c);
        // At the start of the game, starting cards come from the Reserve Deck.
        let sog = self.phase == Phase::StartOfGame;
        let from_deck = sog && self.st.zone[c] == Zone::Pile(p, PileName::ReserveDeck);
        if self.st.owner(c) != p || (self.st.zone[c] != Zone::Pile(p, PileName::Hand) && !from_deck)
        {
            return Err(rej(
                format!("{title} is not in {}'s hand", p.name()),
                r::ACTIONS,
            ));
        }
        if def.card_type == CardType::Interrupt {
            return Err(rej(
                format!("{title} is an Interrupt: it is played, not deployed"),
                r::ACTIONS,
            ));
        }
        if let Some(timing) = self.effect_timing(c, sog) {
            timing?;
        } else if !sog && (self.turn != p || self.phase != Phase::Deploy) {
            return Err(rej(
                format!(
                    "{} may deploy {title} only during their own deploy phase",
                    p.name()
                ),
                r::MEETING_CONDITIONS,
            ));
        }
        self.unique_ok(c)?;
        let with = match d {
            Some(d) => self.check_with(p, c, d)?,
            None => Vec::new(),
        };
        self.deploy_conditions(p, c)?;
        let dest = self.deploy_destination(p, c, d);
        let own = match &dest {
            Ok(to) => self.deploy_cost(p, c, *to).cost,
            Err(_) => super::card_values::deploy_cost(&self.st, c, None),
        };
        let cost = if sog {
            0
        } else {
            let tax = match dest {
                Ok(DeployTo::Location(l)) => self.st.deploy_tax(c, l).0,
                _ => 0,
            };
            own as usize + tax.max(0) as usize + self.with_cost(&with)
        };
        let have = self.st.pile_len(p, PileName::ForcePile);
        if cost > have {
            let e = rej(
                format!(
                    "{title} deploys for {cost} Force; {} has {have} in Force Pile",
                    p.name()
                ),
                r::PAYING_COSTS,
            );
            return Err(self.global_cite(e, c, super::globals::Stat::Deploy));
        }
        let theirs = self.st.pile_len(p.other(), PileName::ForcePile);
        if !sog && def.deploy_rules.from_each_player.is_some() && own.max(0) as usize > theirs {
            return Err(rej(
                format!(
                    "{title} deploys only with {own} Force from each player's Force Pile; {} has {theirs} in Force Pile, so it cannot deploy",
                    p.other().name()
                ),
                super::deploy_cost::DEPLOY_COST,
            ));
        }
        dest
    }

    /// Uniqueness and persona: a unique card may not be deployed while a copy
    /// (or another version of its persona) is on table, active or inactive, or out of play.
    pub(super) fn unique_ok(&self, c: CardIx) -> Result<(), Rejection> {
        let def = self.st.def(c);
        if !def.unique {
            return Ok(());
        }
        if let Some(e) = self.persona_on_table(c) {
            return Err(e);
        }
        if self.copies_allowed(c) {
            return Ok(());
        }
        let mine = personas(def);
        for x in 0..self.st.cards.len() {
            if x == c || self.st.owner(x) != self.st.owner(c) {
                continue;
            }
            let theirs = personas(self.st.def(x));
            if !mine
                .iter()
                .any(|m| theirs.iter().any(|t| t.eq_ignore_ascii_case(m)))
            {
                continue;
            }
            if self.st.on_table(x)
                && self.st.card_state[x] != crate::engine::swccg::model::CardState::Supporting
            {
                let rule = if self.st.active(x) {
                    r::ACTIVE
                } else {
                    r::INACTIVE
                };
                return Err(rej(
                    format!(
                        "{} may not be deployed: {} is on table ({}), and unique cards count toward uniqueness",
                        self.name(c),
                        self.name(x),
                        state_word(self.st.card_state[x])
                    ),
                    rule,
                ));
            }
            if self.st.zone[x] == Zone::Pile(self.st.owner(x), PileName::OutOfPlay)
                && self.st.def(x).card_type.deploys_to_location()
            {
                return Err(rej(
                    format!(
                        "{} may not be deployed: {} is out of play, which prevents additional copies of that persona",
                        self.name(c),
                        self.name(x)
                    ),
                    r::OUT_OF_PLAY,
                ));
            }
        }
        self.deployed_this_turn_ok(c)
    }

    pub(super) fn push_deploy(
        &mut self,
        p: Side,
        c: CardIx,
        to: DeployTo,
        free: bool,
        responding_to: Option<usize>,
    ) {
        let line = self.deploy_cost(p, c, to);
        if !free {
            self.note_value(c, super::globals::Stat::Deploy, "when deployed");
        }
        // Separate costs still apply to a free deployment (AR Free).
        let tax = match to {
            DeployTo::Location(l) => self.note_deploy_tax(p, c, l).max(0),
            _ => 0,
        };
        // Free by another card's text (not by its own: a card deploying itself).
        let own = responding_to.is_some_and(|i| self.stack[i].card == Some(c));
        let free_tax = if (free && !own) || line.free_by_other {
            self.note_free_tax(p, c)
        } else {
            0
        };
        let cost = if free { 0 } else { line.cost } + tax + free_tax;
        let from = match self.st.zone[c] {
            Zone::Pile(s, pl) => format!("{}'s {}", s.name(), pl.title()),
            _ => self.st.where_is(c),
        };
        self.st.put(c, Zone::Stack);
        self.note_deployed(c);
        let mut e = Entry::new(
            ActionKind::Deploy { to },
            p,
            Some(c),
            self.st.key(c).to_string(),
        );
        e.responding_to = responding_to;
        self.stack.push(e);
        let dest = match to {
            DeployTo::Location(l) => format!(" to {}", self.st.locations[l].title),
            DeployTo::OnCard(h) => format!(" on {}", self.name(h)),
            DeployTo::Table => " on table".to_string(),
        };
        let kind_word = match responding_to {
            Some(i) => format!("within the result of {}", self.stack[i].label),
            None => "top-level action".to_string(),
        };
        self.log(
            actor(p),
            Event::Push,
            format!(
                "{} deploys {}{dest} from {from} ({kind_word}){}",
                p.name(),
                self.name(c),
                if free { " for free" } else { "" }
            ),
            &[
                r::INITIATION,
                if responding_to.is_some() {
                    r::RESULT
                } else {
                    r::OPTIONAL_ACTIONS
                },
            ],
        );
        if !free && !line.why.is_empty() {
            self.log(
                actor(p),
                Event::StateChange,
                format!(
                    "{}'s deploy cost is {cost} ({})",
                    self.name(c),
                    line.why.join("; ")
                ),
                &[super::deploy_cost::DEPLOY_COST],
            );
        }
        self.pay_use(p, cost as u32, &format!("to deploy {}", self.name(c)));
        if !free && self.st.def(c).deploy_rules.from_each_player.is_some() {
            let why = format!(
                "to deploy {} (its text: Force from each player's Force Pile, the opponent's use mandatory)",
                self.name(c)
            );
            self.pay_use(p.other(), line.cost.max(0) as u32, &why);
        }
    }

    pub(super) fn pay_use(&mut self, p: Side, n: u32, why: &str) {
        if n == 0 || self.no_force_now(p, "use") {
            return;
        }
        let paid = self
            .st
            .move_top(p, PileName::ForcePile, PileName::UsedPile, n);
        self.st.force[p.ix()].used += i64::from(paid);
        self.log(
            actor(p),
            Event::Initiate,
            format!("{} uses {paid} Force {why} (cost of initiation)", p.name()),
            &[r::PAYING_COSTS],
        );
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_ability(
        &mut self,
        p: Side,
        c: CardIx,
        a: usize,
        kind: ActionKind,
        targets: Vec<(String, Tgt)>,
        w: Window,
        then: Option<Dest>,
    ) {
        let ab = self.st.def(c).abilities[a].clone();
        let responding_to = match w {
            Window::Response(i) => Some(i),
            Window::TopLevel => None,
        };
        if let Some(i) = responding_to {
            self.stack[i].responded.push((c, a));
        }
        self.record_use(c, a);
        let is_play = matches!(kind, ActionKind::Play);
        if is_play {
            self.st.put(c, Zone::Stack);
        }
        let mut e = Entry::new(kind, p, Some(c), self.st.key(c).to_string());
        e.ability = Some(a);
        e.targets = targets.clone();
        e.responding_to = responding_to;
        e.then = then;
        let verb = if is_play { "plays" } else { "uses" };
        let role = match (ab.kind, responding_to) {
            (AbilityKind::Mandatory, _) => "mandatory action".to_string(),
            (AbilityKind::Before, _) => {
                "\"before\" action, in place of the preempted action".to_string()
            }
            (_, Some(i)) => format!("just action responding to {}", self.stack[i].label),
            (_, None) => "top-level action".to_string(),
        };
        let tg = targets
            .iter()
            .map(|(_, t)| self.tgt_name(t))
            .collect::<Vec<_>>()
            .join(", ");
        self.stack.push(e);
        let mut role = role;
        if let Some(i) = responding_to
            && matches!(
                self.stack[i].kind,
                ActionKind::JustLost { .. } | ActionKind::JustMoved { .. }
            )
        {
            let top = self.stack.len() - 1;
            let about = self.card_refs(top, &CardRef::Current);
            if let Some(&x) = about.first() {
                role.push_str(&format!(", about {}", self.name(x)));
            }
        }
        let text = self.ability_text(c, a);
        self.log(
            actor(p),
            Event::Push,
            format!(
                "{} {verb} {} ({role}){}: {text}",
                p.name(),
                self.name(c),
                if tg.is_empty() {
                    String::new()
                } else {
                    format!(" targeting {tg}")
                }
            ),
            &[
                r::INITIATION,
                match (ab.kind, responding_to) {
                    (AbilityKind::Mandatory, _) => r::MANDATORY_ACTIONS,
                    (AbilityKind::Before, _) => r::BEFORE,
                    (_, Some(_)) => r::JUST_ACTIONS,
                    (_, None) => r::OPTIONAL_ACTIONS,
                },
            ],
        );
        if !targets.is_empty() {
            self.log(
                actor(p),
                Event::Initiate,
                format!("targets chosen: {tg}"),
                &[r::CHOOSING_TARGETS],
            );
        }
        self.pay_use(p, ab.cost.use_force, &format!("for {}", self.name(c)));
        if is_play {
            self.pay_interrupt_tax(p, c);
        }
        if ab.cost.lose_force > 0 {
            let n = self.lose_force(p, ab.cost.lose_force as i64);
            self.log(
                actor(p),
                Event::Initiate,
                format!("{} loses {n} Force (cost of initiation)", p.name()),
                &[r::PAYING_COSTS],
            );
        }
        if ab.cost.destiny_force {
            self.pay_destiny_price(p, c);
        }
    }

    pub(super) fn tgt_name(&self, t: &Tgt) -> String {
        match t {
            Tgt::Card(c) => self.name(*c),
            Tgt::Cards(v) => v
                .iter()
                .map(|&c| self.name(c))
                .collect::<Vec<_>>()
                .join(" + "),
            Tgt::Entry(j) => self
                .stack
                .get(*j)
                .map(|e| e.label.clone())
                .unwrap_or_default(),
            Tgt::Location(l) => self.st.locations[*l].title.clone(),
            Tgt::Pile(s, p) => format!("{}'s {}", s.name(), p.title()),
        }
    }

    pub(super) fn ability_text(&self, c: CardIx, a: usize) -> String {
        let ab = &self.st.def(c).abilities[a];
        match &ab.text {
            Some(t) => format!("\"{t}\""),
            None => ability_name(ab, a),
        }
    }
}

pub(super) fn personas(d: &crate::engine::swccg::model::CardDef) -> Vec<String> {
    if d.personas.is_empty() {
        // A virtual card has the title of the original (AR Virtual Cards).
        vec![super::titles::base_title(&d.title).to_string()]
    } else {
        d.personas.clone()
    }
}

pub(super) fn state_word(s: crate::engine::swccg::model::CardState) -> &'static str {
    match s {
        crate::engine::swccg::model::CardState::Active => "active",
        crate::engine::swccg::model::CardState::Inactive => "inactive",
        crate::engine::swccg::model::CardState::Supporting => "supporting",
    }
}

/// Where a played Interrupt goes after its result, from its subtype. The loader
/// accepts only known subtypes, and requires `then:` on every ability of an
/// Interrupt that is not simply Used or Lost, so only those two reach here.
pub(super) fn interrupt_default_dest(subtype: Option<&str>) -> Dest {
    match subtype.map(|s| s.eq_ignore_ascii_case("used")) {
        Some(true) => Dest::UsedPile,
        _ => Dest::LostPile,
    }
}
