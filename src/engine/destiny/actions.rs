//! Playing a card (its seven steps) and resolving dice.

use super::engine::{Engine, Item, R, rej};
use super::model::{AbilityKind, CardType, Keyword, Step, TriggerEvent};
use super::rules as r;
use super::state::{DieAt, DieIx, Ix, Zone, face_value, seat_name};
use crate::cards::die::Symbol;
use crate::engine::{Actor, End, Event, NeedKind, Scripted, Seat};

/// Where a resolved die's damage or shields go.
#[derive(Debug, Clone)]
pub enum Aim {
    /// The character named (or the only candidate).
    Named(Option<String>),
    /// Each of an opponent's characters ("against each of an opponent's characters").
    EachOpponent,
}

impl Aim {
    /// The character named, if one is.
    fn named(&self) -> Option<String> {
        match self {
            Aim::Named(n) => n.clone(),
            Aim::EachOpponent => None,
        }
    }
}

impl Engine<'_> {
    // ------------------------------------------------------------ play a card

    pub(crate) fn play(&mut self, p: Seat, d: &Scripted<Step>) -> R<()> {
        let c = self.card_named(d.step.card.as_ref(), r::PLAY_A_CARD)?;
        if !self.st.hand[usize::from(p)].contains(&c) {
            return rej(
                format!("{} is not in {}'s hand", self.key(c), seat_name(p)),
                r::PLAY_A_CARD,
            );
        }
        self.play_card(p, c, d, 0)
    }

    /// Steps 1-7 of playing `c` from hand; `discount` comes from the ability playing it.
    pub(crate) fn play_card(&mut self, p: Seat, c: Ix, d: &Scripted<Step>, discount: i64) -> R<()> {
        let def = &self.stat.defs[c];
        let ctype = def.card_type;
        let last = self.st.hand[usize::from(p)] == [c];
        // 1. Declare: the card enters the queue.
        self.st.unlist(c);
        self.st.cards[c].zone = Zone::Queue;
        let t = format!(
            "{} plays {} ({})",
            seat_name(p),
            self.key(c),
            ctype.as_str()
        );
        self.log(
            Actor::Player(p),
            Event::Push,
            t,
            &[r::PLAY_A_CARD, r::QUEUE],
        );
        // 2. Play restrictions and uniqueness.
        if def.unique && ctype != CardType::Event {
            let copies: Vec<Ix> = (0..self.st.cards.len())
                .filter(|&x| {
                    x != c
                        && self.st.in_play(x)
                        && self.st.cards[x].controller == p
                        && self.stat.defs[x].title == def.title
                })
                .collect();
            if !copies.is_empty() && self.copies_non_unique(&copies) {
                let t = format!(
                    "{}'s copies of {} are non-unique while one is on {}",
                    seat_name(p),
                    def.title,
                    def.non_unique_on.as_deref().unwrap_or_default()
                );
                self.log(Actor::Player(p), Event::Result, t, &[r::UNIQUENESS]);
            } else if !copies.is_empty() {
                return rej(
                    format!(
                        "{} already has a copy of {} in play",
                        seat_name(p),
                        def.title
                    ),
                    r::UNIQUENESS,
                );
            }
        }
        self.player_restrictions(p, c)?;
        // 3. An upgrade's target.
        let target = if ctype == CardType::Upgrade {
            Some(self.upgrade_target(p, c, d)?)
        } else {
            None
        };
        if ctype != CardType::Upgrade
            && let Some(o) = &def.only
            && let Some(col) = o.color
            && !self.spots(p, col)
        {
            return rej(
                format!("{}: play restriction not met", self.key(c)),
                r::PLAY_RESTRICTIONS,
            );
        }
        // 4-6. Cost, modifiers (replacing, "before you play"), payment.
        let replaced = self.replacement(p, c, target, d)?;
        let mut cost = def.cost.unwrap_or(0) - discount;
        if let Some(u) = replaced {
            let off = self.stat.defs[u].cost.unwrap_or(0);
            cost -= off;
            self.st.book.replaced[usize::from(p)] = true;
            let t = format!("replacing {} decreases the cost by {off}", self.key(u));
            self.log(
                Actor::Player(p),
                Event::StateChange,
                t,
                &[r::REPLACE, r::UPGRADES],
            );
        }
        if let Some(t) = target {
            cost += self.attach_cost(p, c, t);
        }
        cost -= self.before_you_play(p, c, d)?;
        let cost = cost.max(0);
        if self.st.resources[usize::from(p)] < cost {
            return rej(
                format!(
                    "{} costs {cost} and {} has {} resources",
                    self.key(c),
                    seat_name(p),
                    self.st.resources[usize::from(p)]
                ),
                r::COST_ALSO_APPEARS_ON_SUPPORTS_AND_UPGRADES,
            );
        }
        self.st.resources[usize::from(p)] -= cost;
        let t = format!("{} pays {cost} resource(s)", seat_name(p));
        self.log(Actor::Player(p), Event::StateChange, t, &[r::PLAY_A_CARD]);
        // 7. Resolve. An event's Ambush action is created as it resolves,
        // before anything its ability creates.
        let ambush = self.stat.defs[c].keywords.contains(&Keyword::Ambush)
            || self.granted_ambush(p, c, cost);
        if ambush && ctype == CardType::Event {
            self.ambush(p);
        }
        match ctype {
            CardType::Event => {
                self.queue.push_back(Item::Event {
                    card: c,
                    by: p,
                    step: Box::new(d.clone()),
                });
                self.drain()?;
            }
            _ => self.enter_play(p, c, target, replaced, d)?,
        }
        self.after(TriggerEvent::Played, Some(c), Some(p), None)?;
        if let Some(t) = target {
            self.after(TriggerEvent::UpgradePlayedOn, Some(t), Some(p), None)?;
        }
        if last {
            self.after(TriggerEvent::PlaysLastCard, None, Some(p), None)?;
        }
        if ambush && ctype != CardType::Event {
            self.ambush(p);
        }
        Ok(())
    }

    fn ambush(&mut self, p: Seat) {
        self.extra.push_back(p);
        self.log(
            Actor::Player(p),
            Event::StateChange,
            format!("Ambush: {} may take another action", seat_name(p)),
            &[r::AMBUSH, r::EXTRA_ACTIONS],
        );
    }

    /// Play restrictions on the player (not on an upgrade's character):
    /// "to play, spot …", "play only if … dice were removed …", "play only
    /// if you control the battlefield".
    fn player_restrictions(&self, p: Seat, c: Ix) -> R<()> {
        if let Some(col) = self.stat.defs[c].only.as_ref().and_then(|o| o.spot)
            && !self.spots(p, col)
        {
            return rej(
                format!(
                    "{}: to play it, {} must spot a {} character",
                    self.key(c),
                    seat_name(p),
                    super::library::color_name(col)
                ),
                r::SPOTTING,
            );
        }
        if self.stat.defs[c]
            .only
            .as_ref()
            .is_some_and(|o| o.removed_last_turn)
            && super::held::removed_last_turn(self, p).is_empty()
        {
            return rej(
                format!(
                    "{}: none of {}'s dice removed during an opponent's last turn this round is still theirs",
                    self.key(c),
                    seat_name(p)
                ),
                r::PLAY_RESTRICTIONS,
            );
        }
        if let Some(o) = &self.stat.defs[c].only {
            self.dice_showing_allow(c, p, &o.dice_showing)?;
        }
        if self.stat.defs[c]
            .only
            .as_ref()
            .is_some_and(|o| o.control_battlefield)
            && self.st.bf_controller != Some(p)
        {
            return rej(
                format!(
                    "{}: to play it, {} must control the battlefield",
                    self.key(c),
                    seat_name(p)
                ),
                r::PLAY_RESTRICTIONS,
            );
        }
        Ok(())
    }

    /// "Play only if you have N or more dice showing <symbol>": each entry must hold.
    fn dice_showing_allow(&self, c: Ix, p: Seat, need: &[super::model::DiceShowing]) -> R<()> {
        for n in need {
            let have = (0..self.st.dice.len())
                .filter(|&x| {
                    matches!(self.st.dice[x].at, DieAt::Pool(_))
                        && self.st.dice[x].controller == p
                        && self
                            .st
                            .showing(self.stat, x)
                            .is_some_and(|f| super::state::face_shows(f, Some(&n.symbol)))
                })
                .count();
            if have < n.at_least {
                return rej(
                    format!(
                        "{}: to play it, {} must have {} or more dice showing {} ({have} in the pool)",
                        self.key(c),
                        seat_name(p),
                        n.at_least,
                        n.symbol
                    ),
                    r::PLAY_RESTRICTIONS,
                );
            }
        }
        Ok(())
    }

    /// Whether these copies of a unique card are non-unique because one of
    /// them is on a character with the title their text names.
    fn copies_non_unique(&self, copies: &[Ix]) -> bool {
        copies.iter().any(|&x| {
            let holder = self.st.cards[x].on.map(|h| &self.stat.defs[h].title);
            self.stat.defs[x].non_unique_on.is_some()
                && self.stat.defs[x].non_unique_on.as_ref() == holder
        })
    }

    /// Whether an ongoing ability of a card `p` controls gives the card just
    /// played, for the cost paid, the Ambush keyword.
    fn granted_ambush(&mut self, p: Seat, c: Ix, paid: i64) -> bool {
        let grants: Vec<(Ix, i64)> = (0..self.st.cards.len())
            .filter(|&x| self.st.in_play(x) && self.st.cards[x].controller == p)
            .flat_map(|x| {
                self.abilities_of(x)
                    .into_iter()
                    .map(|(_, a)| a)
                    .filter(|a| a.kind == AbilityKind::Ongoing)
                    .filter_map(|a| a.grants_played.as_ref())
                    .filter(|g| g.keyword == Keyword::Ambush)
                    .map(move |g| (x, g.cost_at_least))
            })
            .collect();
        let mut has = false;
        for (x, least) in grants {
            let t = if paid >= least {
                has = true;
                format!(
                    "{}: {} was played for {paid}, {least} or more: it has Ambush",
                    self.key(x),
                    self.key(c)
                )
            } else {
                format!(
                    "{}: {} was played for {paid}, less than {least}: it does not gain Ambush",
                    self.key(x),
                    self.key(c)
                )
            };
            self.log(
                Actor::Player(p),
                Event::Result,
                t,
                &[r::ONGOING_ABILITIES, r::AMBUSH, r::DECREASES],
            );
        }
        has
    }

    fn upgrade_target(&mut self, p: Seat, c: Ix, d: &Scripted<Step>) -> R<Ix> {
        let def = &self.stat.defs[c];
        let Some(on) = &d.step.on else {
            return rej("an upgrade needs a target (`on:`)", r::PLAY_A_CARD);
        };
        let Some(t) = self.stat.find(on) else {
            return rej(format!("no card `{on}`"), r::PLAY_A_CARD);
        };
        let ts = &self.st.cards[t];
        if ts.zone != Zone::Play || ts.controller != p {
            return rej(
                format!("{on} is not a card {} controls in play", seat_name(p)),
                r::PLAY_A_CARD,
            );
        }
        match (&def.modify, ts.ctype) {
            (Some(sub), CardType::Support) if self.stat.defs[t].subtypes.contains(sub) => {}
            (Some(sub), _) => {
                return rej(
                    format!(
                        "a mod with Modify {sub} support can only be played on a {sub} support"
                    ),
                    r::MODIFY,
                );
            }
            (None, CardType::Character) => {}
            (None, _) => return rej("an upgrade is attached to a character", r::UPGRADES),
        }
        let tdef = &self.stat.defs[t];
        if let Some(no) = &tdef.refuses {
            let refused = no.color.is_none_or(|col| def.color == Some(col))
                && (no.subtypes.is_empty() || no.subtypes.iter().any(|s| def.subtypes.contains(s)));
            if refused {
                return rej(
                    format!("{} cannot be played on {on}", self.key(c)),
                    r::PLAY_RESTRICTIONS,
                );
            }
        }
        let any = tdef
            .attach_any
            .as_ref()
            .filter(|sub| def.subtypes.contains(sub));
        if let (Some(sub), Some(_)) = (any, &def.only) {
            let t = format!(
                "{on} can have any {sub} attached, ignoring play restrictions: {}'s restriction does not apply",
                self.key(c)
            );
            self.log(
                Actor::Player(p),
                Event::Result,
                t,
                &[r::ABILITIES, r::PLAY_RESTRICTIONS],
            );
        } else if let Some(o) = &def.only {
            let ok = o.color.is_none_or(|col| tdef.color == Some(col))
                && o.title.as_ref().is_none_or(|ti| &tdef.title == ti)
                && (!o.non_unique || !tdef.unique);
            if !ok {
                return rej(
                    format!("{}: play restriction not met by {on}", self.key(c)),
                    r::PLAY_RESTRICTIONS,
                );
            }
        }
        Ok(t)
    }

    fn replacement(
        &mut self,
        p: Seat,
        c: Ix,
        target: Option<Ix>,
        d: &Scripted<Step>,
    ) -> R<Option<Ix>> {
        let Some(rn) = &d.step.replace else {
            return Ok(None);
        };
        let Some(u) = self.stat.find(rn) else {
            return rej(format!("no card `{rn}`"), r::REPLACE);
        };
        if target.is_none() || self.st.cards[u].on != target || !self.st.in_play(u) {
            return rej(
                format!(
                    "{rn} is not an upgrade on the card {} is played on",
                    self.key(c)
                ),
                r::REPLACE,
            );
        }
        if self.st.book.replaced[usize::from(p)] {
            return rej(
                format!("{} already replaced an upgrade this round", seat_name(p)),
                r::REPLACE,
            );
        }
        if self.stat.defs[u].title == self.stat.defs[c].title && self.stat.defs[c].unique {
            return rej(
                "a unique upgrade cannot be played while its copy is in play",
                r::UNIQUENESS,
            );
        }
        Ok(Some(u))
    }

    /// The change the target's text makes to the cost of attaching upgrade `c`
    /// (checked while paying: an upgrade being replaced is still attached).
    fn attach_cost(&mut self, p: Seat, c: Ix, t: Ix) -> i64 {
        let Some(a) = &self.stat.defs[t].attach_cost else {
            return 0;
        };
        if !self.stat.defs[c].subtypes.contains(&a.subtype) {
            return 0;
        }
        let ups = self.st.upgrades(t);
        let applies = !a.while_bare || ups.is_empty();
        let text = if applies {
            format!(
                "{}: the cost to attach {} changes by {}",
                self.key(t),
                self.key(c),
                a.change
            )
        } else {
            format!(
                "{} has an upgrade ({} stays until the new one enters play): its cost change does not apply",
                self.key(t),
                self.key(ups[0])
            )
        };
        self.log(
            Actor::Player(p),
            Event::Result,
            text,
            &[r::ONGOING_ABILITIES, r::REPLACE, r::DECREASES],
        );
        if applies { a.change } else { 0 }
    }

    /// "Before you play" cost decreases named in `with:`; returns the total decrease.
    fn before_you_play(&mut self, p: Seat, c: Ix, d: &Scripted<Step>) -> R<i64> {
        let mut total = 0;
        for w in &d.step.with {
            let Some(s) = self.stat.find(w) else {
                return rej(format!("no card `{w}`"), r::DECREASES);
            };
            let found = self.stat.defs[s].abilities.iter().position(|a| {
                a.kind == AbilityKind::Before
                    && a.decrease > 0
                    && a.on.as_ref().is_some_and(|t| {
                        t.event == TriggerEvent::Played
                            && t.card_type
                                .is_none_or(|ty| ty == self.stat.defs[c].card_type)
                            && t.color
                                .is_none_or(|col| self.stat.defs[c].color == Some(col))
                    })
            });
            let Some(ab) = found else {
                return rej(
                    format!("{w} has no \"before you play\" ability for {}", self.key(c)),
                    r::DECREASES,
                );
            };
            if !self.st.in_play(s) || self.st.cards[s].controller != p {
                return rej(
                    format!("{w} is not in play under {}'s control", seat_name(p)),
                    r::DECREASES,
                );
            }
            let a = &self.stat.defs[s].abilities[ab];
            if a.cost.exhaust_this {
                if self.st.cards[s].exhausted {
                    return rej(format!("{w} is exhausted"), r::EXHAUSTED);
                }
                self.st.cards[s].exhausted = true;
            }
            total += a.decrease;
            let t = format!(
                "before playing {}: {w} decreases its cost by {}",
                self.key(c),
                a.decrease
            );
            self.log(
                Actor::Player(p),
                Event::StateChange,
                t,
                &[r::BEFORE_ABILITIES, r::DECREASES],
            );
        }
        Ok(total)
    }

    fn enter_play(
        &mut self,
        p: Seat,
        c: Ix,
        target: Option<Ix>,
        replaced: Option<Ix>,
        d: &Scripted<Step>,
    ) -> R<()> {
        let s = &mut self.st.cards[c];
        s.zone = Zone::Play;
        s.controller = p;
        s.on = target;
        s.exhausted = false;
        for x in self.st.dice_of(c) {
            self.st.dice[x].at = DieAt::OnCard;
        }
        let t = match target {
            Some(t) => format!(
                "{} is attached to {}; its die is placed on the card",
                self.key(c),
                self.key(t)
            ),
            None => format!("{} enters play", self.key(c)),
        };
        self.log(
            Actor::Player(p),
            Event::Pop,
            t,
            &[r::PLAY_A_CARD, r::UPGRADES],
        );
        self.resolved.push(format!("play:{}", self.key(c)));
        if let Some(u) = replaced {
            self.leave_play(u, Zone::Discard);
            let t = format!("{} is discarded (replaced)", self.key(u));
            self.log(Actor::Player(p), Event::StateChange, t, &[r::REPLACE]);
        }
        if let Some(t) = target {
            if self.stat.defs[c].makes_elite {
                self.make_elite(p, t);
            }
            self.max_upgrades(t, d)?;
        }
        Ok(())
    }

    /// "Attached character is elite (place a second copy of its die on its
    /// card)": the second die comes from the owner's set-aside zone, a die of a
    /// card with the character's title, and becomes the character's die.
    fn make_elite(&mut self, p: Seat, t: Ix) {
        let title = &self.stat.defs[t].title;
        let text = if self.st.dice_of(t).len() >= 2 {
            format!("{} is already elite: this does nothing", self.key(t))
        } else {
            let spare = (0..self.st.dice.len()).find(|&x| {
                let card = self.st.dice[x].card;
                self.st.dice[x].at == DieAt::SetAside
                    && self.st.cards[card].zone == Zone::SetAside
                    && self.st.cards[card].owner == self.st.cards[t].owner
                    && &self.stat.defs[card].title == title
            });
            match spare {
                Some(x) => {
                    self.st.dice[x].card = t;
                    self.st.dice[x].at = DieAt::OnCard;
                    self.st.dice[x].controller = self.st.cards[t].controller;
                    format!(
                        "{} is elite: die {} comes from the set-aside zone onto its card, and is its die",
                        self.key(t),
                        self.die_id(x)
                    )
                }
                None => format!(
                    "{} has no other die of {} in their set-aside zone: this does nothing",
                    seat_name(self.st.cards[t].owner),
                    self.key(t)
                ),
            }
        };
        self.log(
            Actor::Player(p),
            Event::StateChange,
            text,
            &[r::TRAINING, r::SET_ASIDE_ZONE],
        );
    }

    /// A card with more than 3 upgrades: its controller discards down to 3 (`discard:`).
    pub(crate) fn max_upgrades(&mut self, t: Ix, d: &Scripted<Step>) -> R<()> {
        let ups = self.st.upgrades(t);
        if ups.len() <= 3 {
            return Ok(());
        }
        let p = self.st.cards[t].controller;
        let pick = d
            .step
            .discard
            .iter()
            .filter_map(|n| self.stat.find(n))
            .find(|u| ups.contains(u));
        let Some(u) = pick else {
            return Err(self.need(
                p,
                NeedKind::Choice,
                format!(
                    "{} has 4 upgrades: the upgrade to discard (`discard:`)",
                    self.key(t)
                ),
            ));
        };
        self.leave_play(u, Zone::Discard);
        let txt = format!(
            "{} has more than 3 upgrades: {} is discarded",
            self.key(t),
            self.key(u)
        );
        self.log(Actor::Player(p), Event::StateChange, txt, &[r::UPGRADES]);
        Ok(())
    }

    /// A card leaves play: its dice are set aside, its upgrades discarded.
    pub(crate) fn leave_play(&mut self, c: Ix, to: Zone) {
        if self.stat.defs[c].makes_elite
            && let Some(h) = self.st.cards[c].on
            && self.st.in_play(h)
            && self.st.dice_of(h).len() >= 2
        {
            // Its character stays in play with two dice, one of which its
            // controller chooses to set aside.
            let what = format!(
                "which of {}'s dice is set aside as {} leaves play (its controller chooses)",
                self.key(h),
                self.key(c)
            );
            self.trace
                .not_modelled(self.level, Actor::Rules, what.clone(), &[r::TRAINING]);
            let _ = self.halt(End::NotModelled { what });
        }
        self.leave_with_upgrades(c, to);
    }

    fn leave_with_upgrades(&mut self, c: Ix, to: Zone) {
        let to = if to != Zone::SetAside
            && self.stat.defs[c].aside_as_upgrade
            && self.st.cards[c].ctype == CardType::Upgrade
        {
            let t = format!(
                "{} would leave play as an upgrade: it is set aside instead",
                self.key(c)
            );
            self.log(Actor::Rules, Event::Result, t, &[r::REPLACEMENT_EFFECTS]);
            Zone::SetAside
        } else {
            to
        };
        for u in self.st.upgrades(c) {
            self.leave_with_upgrades(u, Zone::Discard);
        }
        super::held::release(self, c);
        for x in self.st.dice_of(c) {
            if matches!(self.st.dice[x].at, DieAt::Held(_)) {
                continue;
            }
            self.st.dice[x].at = DieAt::SetAside;
            self.st.dice[x].controller = self.st.cards[c].owner;
        }
        self.st.put(c, to);
    }

    // ------------------------------------------------------------ resolve dice

    pub(crate) fn resolve_action(&mut self, p: Seat, d: &Scripted<Step>) -> R<()> {
        if d.step.dice.is_empty() {
            return rej(
                "resolving dice needs at least one die (`dice:`)",
                r::RESOLVE_DICE,
            );
        }
        let mut seen: Vec<DieIx> = Vec::new();
        let mut symbol: Option<Symbol> = None;
        for (i, g) in d.step.dice.iter().enumerate() {
            let names: Vec<String> = g.split('+').map(|s| s.trim().to_string()).collect();
            let dice = self.own_pool_dice(p, &names, r::RESOLVE_DICE)?;
            if let Some(x) = dice.iter().find(|x| seen.contains(x)) {
                return rej(
                    format!(
                        "a die cannot be resolved more than once per action ({})",
                        self.die_id(*x)
                    ),
                    r::RESOLVE_DICE,
                );
            }
            seen.extend(&dice);
            let sym = match symbol {
                Some(s) => s,
                None => self.group_symbol(&dice, d.step.resolve_as)?,
            };
            symbol = Some(sym);
            // A special's ability takes its own targets (all of `to:` when it is
            // the only die resolved); other symbols take one target per die.
            let own_targets = sym == Symbol::Special && d.step.dice.len() == 1;
            if i == 0 && d.step.to.len() > d.step.dice.len() && !own_targets {
                let rule = match sym {
                    Symbol::MeleeDamage => r::MELEE_DAMAGE,
                    Symbol::RangedDamage => r::RANGED_DAMAGE,
                    Symbol::Shield => r::SHIELD,
                    _ => r::RESOLVE_DICE,
                };
                return rej(
                    format!(
                        "{} targets named for {} dice: a die's {} go to a single character and cannot be split among characters (name one target per die)",
                        d.step.to.len(),
                        d.step.dice.len(),
                        if sym == Symbol::Shield {
                            "shields"
                        } else {
                            "damage and effect"
                        },
                    ),
                    rule,
                );
            }
            let target = d.step.to.get(i).cloned();
            let pos = self.queue.len() + 1;
            let t = format!("die {} enters the queue at position {pos}", names.join("+"));
            self.trace.push(
                pos,
                Actor::Player(p),
                Event::Push,
                t,
                &[r::RESOLVE_DICE, r::PART_7_ABILITIES_QUEUE],
            );
            self.queue.push_back(Item::Dice {
                by: p,
                dice,
                target,
                step: Box::new(d.clone()),
                symbol: sym,
            });
        }
        Ok(())
    }

    /// A group: one base die showing a symbol, and modifiers showing the same symbol.
    /// The symbol a die showing `face` resolves as: `as_sym` when its card
    /// lets it resolve that side as `as_sym`, else the side itself.
    pub(crate) fn resolves_as(&self, x: DieIx, face: Symbol, as_sym: Option<Symbol>) -> Symbol {
        match (as_sym, self.stat.defs[self.st.dice[x].card].resolve_as) {
            (Some(want), Some(ra)) if ra.side == face && ra.to == want => want,
            _ => face,
        }
    }

    /// The symbol a group resolves as (`as_sym`: the decision's `resolve_as:`).
    pub(crate) fn group_symbol(&self, dice: &[DieIx], as_sym: Option<Symbol>) -> R<Symbol> {
        let faces: Vec<_> = dice
            .iter()
            .map(|&x| self.st.showing(self.stat, x).cloned())
            .collect();
        let mut base = None;
        for (f, &x) in faces.iter().zip(dice) {
            let Some(f) = f else {
                return rej("die not in a pool", r::DICE_POOL);
            };
            if f.symbol == Symbol::Blank {
                return rej(
                    format!(
                        "die {} shows a blank, which cannot be resolved",
                        self.die_id(x)
                    ),
                    r::BLANK,
                );
            }
            if !f.modifier {
                if base.is_some() {
                    return rej(
                        "each die resolves separately: name one base die per group",
                        r::RESOLVE_DICE,
                    );
                }
                let sym = self.resolves_as(x, f.symbol, as_sym);
                if let Some(want) = as_sym
                    && sym != want
                {
                    return rej(
                        format!(
                            "die {} shows {}: its card does not let it resolve as {}",
                            self.die_id(x),
                            f.symbol.name(),
                            want.name()
                        ),
                        r::SYMBOL,
                    );
                }
                base = Some(sym);
            }
        }
        let Some(b) = base else {
            return rej("a modifier cannot be resolved by itself", r::MODIFIER);
        };
        for (f, &x) in faces.iter().zip(dice) {
            if let Some(f) = f
                && f.modifier
                && f.symbol != b
                && f.symbol != Symbol::Any
            {
                return rej(
                    format!(
                        "modifier {} shows {}, not {}",
                        self.die_id(x),
                        f.symbol.name(),
                        b.name()
                    ),
                    r::MODIFIER,
                );
            }
        }
        if b == Symbol::Special && dice.len() > 1 {
            return rej(
                "specials have a value of 0 that cannot be increased",
                r::SPECIAL,
            );
        }
        Ok(b)
    }

    /// Resolve one die group from the queue: pay, carry out the symbol, return the dice.
    pub(crate) fn resolve_group(
        &mut self,
        by: Seat,
        dice: &[DieIx],
        target: Aim,
        (free, increase): (bool, i64),
        d: &Scripted<Step>,
    ) -> R<()> {
        let sym = self.group_symbol(dice, d.step.resolve_as)?;
        let mut value = 0;
        let mut cost = 0;
        for &x in dice {
            let f = self.st.showing(self.stat, x).cloned();
            let Some(f) = f else { continue };
            let Some(v) = self.die_value(x) else {
                let what = format!("an X value on die {}", self.die_id(x));
                self.trace.not_modelled(
                    self.level,
                    Actor::Player(by),
                    what.clone(),
                    &[r::X_AS_A_VARIABLE],
                );
                return Err(self.halt(End::NotModelled { what }));
            };
            if face_value(&f).is_none() {
                let t = format!("the X on die {} is {v}", self.die_id(x));
                self.log(
                    Actor::Player(by),
                    Event::Result,
                    t,
                    &[r::X_AS_A_VARIABLE, r::INHERENT_DICE_ABILITIES],
                );
            }
            value += v;
            cost += i64::from(f.cost.unwrap_or(0));
        }
        if free && cost > 0 {
            let t = format!(
                "the resource cost {cost} of {} need not be paid",
                self.die_list(dice)
            );
            self.log(Actor::Player(by), Event::Result, t, &[r::RESOURCE_COST]);
        }
        let cost = if free { 0 } else { cost };
        if increase != 0 && sym != Symbol::Special {
            value += increase;
            let t = format!("the value is increased by {increase} to {value}");
            self.log(Actor::Player(by), Event::Result, t, &[r::INCREASES]);
        }
        if self.st.resources[usize::from(by)] < cost {
            return rej(
                format!(
                    "{} cannot pay the resource cost {cost}",
                    self.die_list(dice)
                ),
                r::RESOURCE_COST,
            );
        }
        self.st.resources[usize::from(by)] -= cost;
        let t = format!(
            "{} resolves {} ({value} {}{})",
            seat_name(by),
            self.die_list(dice),
            sym.name(),
            if cost > 0 {
                format!(", paying {cost}")
            } else {
                String::new()
            }
        );
        let cites: &[&'static str] = if dice.len() > 1 {
            &[r::RESOLVE_DICE, r::MODIFIER]
        } else {
            &[r::RESOLVE_DICE]
        };
        self.log(Actor::Player(by), Event::Result, t, cites);
        self.resolved.push(format!(
            "dice:{}",
            dice.iter()
                .map(|&x| self.die_id(x))
                .collect::<Vec<_>>()
                .join("+")
        ));
        let base = dice
            .iter()
            .copied()
            .find(|&x| self.st.showing(self.stat, x).is_some_and(|f| !f.modifier))
            .unwrap_or(dice[0]);
        let card = self.st.dice[base].card;
        if sym != Symbol::Special {
            self.leave_pool(dice, d)?;
        }
        self.symbol_effect(by, sym, value, card, target, d, dice)?;
        if sym == Symbol::Special {
            self.leave_pool(dice, d)?;
        }
        self.after(TriggerEvent::DieResolved, Some(card), Some(by), None)
    }

    /// Dice resolved or removed leave their pool: each is placed on its card,
    /// or rerolled when its card says "reroll this die instead of removing it"
    /// (a replacement, with the side the decision's `roll:` gives).
    pub(crate) fn leave_pool(&mut self, dice: &[DieIx], d: &Scripted<Step>) -> R<()> {
        let mut again = Vec::new();
        for &x in dice {
            if !matches!(self.st.dice[x].at, DieAt::Pool(_)) {
                continue;
            }
            let card = self.st.dice[x].card;
            if self.stat.defs[card].reroll_instead {
                again.push(x);
            } else if self.st.in_play(card) {
                self.st.dice[x].at = DieAt::OnCard;
            } else {
                self.st.dice[x].at = DieAt::SetAside;
                let t = format!(
                    "die {} leaves the pool; its card is not in play: it is set aside",
                    self.die_id(x)
                );
                self.log(
                    Actor::Rules,
                    Event::StateChange,
                    t,
                    &[r::DICE_LEAVING_PLAY, r::SET_ASIDE_ZONE],
                );
            }
        }
        for x in again {
            let p = self.st.dice[x].controller;
            let t = format!(
                "die {} would be removed from the pool: it is rerolled instead",
                self.die_id(x)
            );
            self.log(
                Actor::Player(p),
                Event::Result,
                t,
                &[r::REPLACEMENT_EFFECTS, r::INHERENT_DICE_ABILITIES],
            );
            self.roll(p, &[x], d)?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn symbol_effect(
        &mut self,
        by: Seat,
        sym: Symbol,
        value: i64,
        card: Ix,
        target: Aim,
        d: &Scripted<Step>,
        dice: &[DieIx],
    ) -> R<()> {
        use super::effects::Dmg;
        use super::model::DamageKind;
        match sym {
            Symbol::MeleeDamage | Symbol::RangedDamage => {
                let unblockable = self.die_unblockable(by, card, dice)?;
                let targets = match target {
                    Aim::EachOpponent => {
                        let t = format!(
                            "the die's damage is dealt to each of {}'s characters",
                            seat_name(1 - by)
                        );
                        self.log(Actor::Player(by), Event::Result, t, &[r::EFFECTS]);
                        self.st.characters(1 - by)
                    }
                    Aim::Named(n) => vec![self.die_target(by, n, false)?],
                };
                let kind = if sym == Symbol::MeleeDamage {
                    DamageKind::Melee
                } else {
                    DamageKind::Ranged
                };
                for t in targets {
                    let dmg = Dmg {
                        amount: value,
                        kind: Some(kind),
                        unblockable,
                        by,
                        die: true,
                    };
                    self.deal_damage(t, dmg)?;
                }
            }
            Symbol::IndirectDamage => {
                self.indirect(by, 1 - by, value, Some(DamageKind::Indirect))?;
            }
            Symbol::Shield if self.stat.defs[card].split_shields && !d.step.assign.is_empty() => {
                let t = format!(
                    "{}'s die: its shields can be given to any of your characters, distributed as you wish",
                    self.key(card)
                );
                self.log(
                    Actor::Player(by),
                    Event::Result,
                    t,
                    &[r::INHERENT_DICE_ABILITIES],
                );
                self.distribute_shields(by, value, &d.step.assign)?;
            }
            Symbol::Shield => {
                let t = self.die_target(by, target.named(), true)?;
                self.give_shields(t, value, by)?;
            }
            Symbol::Resource => {
                self.st.resources[usize::from(by)] += value;
                self.log(
                    Actor::Player(by),
                    Event::StateChange,
                    format!("{} gains {value} resource(s)", seat_name(by)),
                    &[r::RESOURCE],
                );
            }
            Symbol::Disrupt => self.lose(1 - by, value, r::DISRUPT),
            Symbol::Discard => self.discard_random(by, value, d, r::DISCARD)?,
            Symbol::Focus => self.focus_effect(by, value, d)?,
            Symbol::Special => self.special_effect(by, card, &target, d)?,
            Symbol::Blank | Symbol::Any => return rej("blanks cannot be resolved", r::BLANK),
        }
        Ok(())
    }

    /// A focus die: it turns up to its value of the action's `turn:` choices.
    fn focus_effect(&mut self, by: Seat, value: i64, d: &Scripted<Step>) -> R<()> {
        // Each focus die turns up to its value; several focus dice of one
        // action share the decision's `turn:` choices in order.
        let done = self.turned;
        let take = d
            .step
            .turn
            .len()
            .saturating_sub(done)
            .min(value.max(0) as usize);
        self.turned += take;
        self.focus_groups += 1;
        let mine: Vec<(String, String)> = d
            .step
            .turn
            .iter()
            .skip(done)
            .take(take)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        self.turn_these(by, &mine, Default::default(), r::FOCUS)?;
        if self.focus_groups >= d.step.dice.len().max(1) && self.turned < d.step.turn.len() {
            return rej(
                format!(
                    "{} dice turned; the focus dice give at most {}",
                    d.step.turn.len(),
                    self.turned
                ),
                r::FOCUS,
            );
        }
        Ok(())
    }

    /// A special: the special ability on the die's card.
    fn special_effect(&mut self, by: Seat, card: Ix, target: &Aim, d: &Scripted<Step>) -> R<()> {
        let specials: Vec<usize> = self.stat.defs[card]
            .abilities
            .iter()
            .enumerate()
            .filter(|(_, a)| a.kind == AbilityKind::Special)
            .map(|(i, _)| i)
            .collect();
        let ab = match (d.step.ability, specials.as_slice()) {
            (_, []) => {
                let what = format!("the special ability of {}", self.key(card));
                self.trace.not_modelled(
                    self.level,
                    Actor::Player(by),
                    what.clone(),
                    &[r::SPECIAL_ABILITIES],
                );
                return Err(self.halt(End::NotModelled { what }));
            }
            (Some(n), v) if n >= 1 && n <= v.len() => v[n - 1],
            (_, v) => v[0],
        };
        let t = format!("the special uses the special ability on {}", self.key(card));
        self.log(
            Actor::Player(by),
            Event::Result,
            t,
            &[r::SPECIAL, r::SPECIAL_ABILITIES],
        );
        let mut ctx = self.ctx_from(by, Some(card), None, d);
        ctx.special = true;
        ctx.targets = if d.step.dice.len() == 1 && matches!(target, Aim::Named(_)) {
            d.step.to.clone()
        } else {
            target.named().into_iter().collect()
        };
        self.use_ability(card, ab, ctx, r::SPECIAL_ABILITIES)?;
        Ok(())
    }

    /// Whether the damage of a die group is unblockable: its base die's card
    /// says so (every modifier added to it then deals unblockable damage too),
    /// or a modifier's card says its die makes the dice it modifies unblockable.
    fn die_unblockable(&mut self, by: Seat, base: Ix, dice: &[DieIx]) -> R<bool> {
        use super::model::Unblockable;
        if self.stat.defs[base].unblockable.is_some() {
            self.log(
                Actor::Player(by),
                Event::Result,
                format!("the damage of {}'s die is unblockable", self.key(base)),
                &[r::UNBLOCKABLE_DAMAGE],
            );
            return Ok(true);
        }
        for &x in dice {
            let card = self.st.dice[x].card;
            match self.stat.defs[card].unblockable {
                Some(Unblockable::Modified) if card != base => {
                    self.log(
                        Actor::Player(by),
                        Event::Result,
                        format!(
                            "{}'s die makes the damage of the die it modifies unblockable",
                            self.key(card)
                        ),
                        &[r::UNBLOCKABLE_DAMAGE],
                    );
                    return Ok(true);
                }
                Some(Unblockable::Die) if card != base => {
                    let what = format!(
                        "whether the damage of a die modified by {}'s die (\"damage dealt by this die is unblockable\") is unblockable",
                        self.key(card)
                    );
                    self.trace.not_modelled(
                        self.level,
                        Actor::Player(by),
                        what.clone(),
                        &[r::UNBLOCKABLE_DAMAGE],
                    );
                    return Err(self.halt(End::NotModelled { what }));
                }
                _ => {}
            }
        }
        Ok(false)
    }

    /// The character a die's damage or shields go to.
    /// Shields distributed among `by`'s characters (`assign:`), at most `value` in all.
    pub(crate) fn distribute_shields(
        &mut self,
        by: Seat,
        value: i64,
        assign: &std::collections::BTreeMap<String, i64>,
    ) -> R<()> {
        let mut total = 0;
        for (n, k) in assign {
            let c = self.die_target(by, Some(n.clone()), true)?;
            total += k;
            if total > value {
                return rej(
                    format!("{total} shields distributed; there are {value} to give"),
                    r::SHIELD,
                );
            }
            self.give_shields(c, *k, by)?;
        }
        Ok(())
    }

    fn die_target(&mut self, by: Seat, target: Option<String>, yours: bool) -> R<Ix> {
        let rule = if yours { r::SHIELD } else { r::MELEE_DAMAGE };
        let cands: Vec<Ix> = (0..2u8)
            .flat_map(|q| self.st.characters(q))
            .filter(|&c| !yours || self.st.cards[c].controller == by)
            .collect();
        let Some(n) = target else {
            if cands.len() == 1 {
                return Ok(cands[0]);
            }
            return Err(self.need(
                by,
                NeedKind::Choice,
                "the character the die affects (`to:`)",
            ));
        };
        match self.stat.find(&n) {
            Some(c) if cands.contains(&c) => Ok(c),
            _ => rej(
                format!(
                    "{n} is not a valid target (a character in play{})",
                    if yours { " you control" } else { "" }
                ),
                if yours { rule } else { r::CHOOSE_TARGET },
            ),
        }
    }
}
