//! Targets (Implied Target Rule, immunity) and what a response or automatic action responds to.

use super::engine::*;
use super::rules as r;
use super::stack::{ActionKind, Entry, Tgt};
use super::state::{CardIx, State, Zone};
use crate::engine::swccg::model::{
    EventKind, PileName, Rel, Side, TargetKind, TargetSpec, Trigger,
};

impl Engine {
    pub(super) fn choose_targets(
        &self,
        p: Side,
        c: CardIx,
        a: usize,
        w: Window,
        chosen: &[String],
    ) -> Result<Vec<(String, Tgt)>, Rejection> {
        let ab = &self.st.def(c).abilities[a];
        let title = self.name(c);
        let mut out = Vec::new();
        let mut picks = chosen.iter();
        for spec in &ab.targets {
            // The current action's card is immune to this card (AR: Actions - Immune).
            if spec.kind == TargetKind::Current
                && let Window::Response(i) = w
                && let Some(tc) = self.stack[i].card
                && (filter_empty(&spec.filter) || self.st.matches(tc, &spec.filter, p))
                && self.immune(tc, c)
            {
                if spec.optional {
                    continue;
                }
                return Err(rej(
                    format!(
                        "{title} cannot be initiated: {} is immune to {title}",
                        self.name(tc)
                    ),
                    r::IMMUNE,
                ));
            }
            if spec.kind == TargetKind::Current
                && let Window::Response(i) = w
                && let Some(tc) = self.stack[i].card
            {
                self.grab_target_ok(c, tc)?;
            }
            if spec.kind == TargetKind::Card
                && let Some(x) = picks.clone().next().and_then(|k| self.st.find(k))
                && let Some(e) = self.holosite_target(&title, spec, x)
                && !spec.optional
            {
                return Err(e);
            }
            if spec.kind == TargetKind::Card
                && let Some(x) = picks.clone().next().and_then(|k| self.st.find(k))
                && let Some(e) = self.relocation_target(c, a, spec, x)
                && !spec.optional
            {
                return Err(e);
            }
            if spec.kind == TargetKind::Card
                && let Some(x) = picks.clone().next().and_then(|k| self.st.find(k))
                && let Some(e) = self.move_to_battle_target(c, a, &spec.name, x)
            {
                return Err(e);
            }
            if spec.kind == TargetKind::Card
                && let Some(x) = picks.clone().next().and_then(|k| self.st.find(k))
                && self.undercover_in_battle(x)
                && !spec.optional
            {
                return Err(rej(
                    format!(
                        "{title} cannot be initiated: {} is an undercover spy; during a battle it is inactive and may not be targeted",
                        self.name(x)
                    ),
                    super::weapon_fire::UNDERCOVER,
                ));
            }
            if spec.defined_targets
                && let Window::Response(i) = w
            {
                self.has_defined_targets(c, i)?;
            }
            let t = self.target_one(p, c, spec, w, &mut picks);
            match t {
                Ok(Some(t)) => out.push((spec.name.clone(), t)),
                Ok(None) => {}
                Err(reason) => {
                    if spec.optional {
                        continue;
                    }
                    return Err(rej(
                        format!("{title} cannot be initiated: {reason}"),
                        r::IMPLIED_TARGET_RULE,
                    ));
                }
            }
        }
        self.group_at_one_location(c, a, &out)?;
        Ok(out)
    }

    /// Was `x` hit by a weapon in a battle under way (AR Weapons - hit)?
    pub(super) fn hit_in_battle(&self, x: CardIx) -> bool {
        self.stack
            .iter()
            .any(|e| matches!(e.kind, ActionKind::Battle) && e.hits.iter().any(|&(h, _)| h == x))
    }

    /// Why `x` is not where (or what) the target spec wants relative to the card `c`
    /// whose text targets ("present", "at same site", "Undercover spy"), if it is not.
    fn near_this(&self, spec: &TargetSpec, x: CardIx, c: CardIx) -> Option<String> {
        let (me, it) = (self.name(c), self.name(x));
        if spec.present_with_this && !self.present_with(x, c) {
            return Some(format!(
                "{it} is not present with {me} (the text targets a card present with it)"
            ));
        }
        let here = self.st.location_of(c);
        if spec.same_location_as_this && (here.is_none() || self.st.location_of(x) != here) {
            return Some(format!(
                "{it} is not at the same location as {me} (the text targets a card there)"
            ));
        }
        if spec.undercover && !self.st.undercover(x) {
            return Some(format!("{it} is not an undercover spy"));
        }
        None
    }

    /// Are `x` and `c` different cards, both present at the same location or aboard the
    /// same enclosed craft (AR Present versus Present With)?
    pub(super) fn present_with(&self, x: CardIx, c: CardIx) -> bool {
        let here = super::prepositions::present(&self.st, c);
        x != c && here.is_some() && super::prepositions::present(&self.st, x) == here
    }

    /// An undercover spy during a battle: inactive, not a valid target (AR Undercover
    /// Spy Rules: "except during battle, they may still be targeted by Interrupts").
    pub(super) fn undercover_in_battle(&self, x: CardIx) -> bool {
        self.st.undercover(x)
            && self
                .stack
                .iter()
                .any(|e| matches!(e.kind, ActionKind::Battle))
    }

    pub(super) fn immune(&self, target: CardIx, by: CardIx) -> bool {
        let t = self.st.title(by);
        self.st
            .def(target)
            .immune_to
            .iter()
            .any(|x| x.eq_ignore_ascii_case(t))
    }

    pub(super) fn target_one<'a>(
        &self,
        p: Side,
        c: CardIx,
        spec: &TargetSpec,
        w: Window,
        picks: &mut impl Iterator<Item = &'a String>,
    ) -> Result<Option<Tgt>, String> {
        match spec.kind {
            TargetKind::Current => {
                let Window::Response(i) = w else {
                    return Err("there is no current action".into());
                };
                let e = &self.stack[i];
                if let Some(tc) = e.card {
                    if !filter_empty(&spec.filter) && !self.st.matches(tc, &spec.filter, p) {
                        return Err(format!("{} is not a valid target", self.name(tc)));
                    }
                } else if !filter_empty(&spec.filter) {
                    return Err(format!("{} is not a valid target", e.label));
                }
                Ok(Some(Tgt::Entry(i)))
            }
            TargetKind::Card => {
                let cands: Vec<CardIx> = self
                    .st
                    .table_matching(&spec.filter, p)
                    .into_iter()
                    .filter(|&x| !self.immune(x, c) && (!spec.hit || self.hit_in_battle(x)))
                    .filter(|&x| !self.undercover_in_battle(x))
                    .filter(|&x| self.near_this(spec, x, c).is_none())
                    .collect();
                match picks.next() {
                    Some(k) => {
                        let x = self.st.find(k).ok_or_else(|| format!("no card {k}"))?;
                        if let Some(why) = self.near_this(spec, x, c) {
                            Err(why)
                        } else if spec.hit && !self.hit_in_battle(x) {
                            Err(format!(
                                "{} has not been hit in this battle (the text targets a card just hit)",
                                self.name(x)
                            ))
                        } else if cands.contains(&x) {
                            Ok(Some(Tgt::Card(x)))
                        } else if !self.st.on_table(x) {
                            Err(format!("{} is not on table", self.name(x)))
                        } else if !self.st.active(x) {
                            Err(format!(
                                "{} is not active (an inactive card cannot be targeted)",
                                self.name(x)
                            ))
                        } else if let Some(h) = spec
                            .filter
                            .has
                            .iter()
                            .find(|h| !super::state::has_value(self.st.def(x), h))
                        {
                            Err(format!(
                                "{} has no {h} (a value that does not exist cannot be targeted)",
                                self.name(x)
                            ))
                        } else {
                            Err(format!("{} is not a valid target", self.name(x)))
                        }
                    }
                    // "Any or all of …": a further optional member of a group is
                    // only ever one the player names.
                    None if spec.optional && spec.group.is_some() => Ok(None),
                    None => match cands.len() {
                        0 => Err("no valid target on table".into()),
                        _ => Ok(Some(Tgt::Card(cands[0]))),
                    },
                }
            }
            TargetKind::All => {
                let cands: Vec<CardIx> = self
                    .st
                    .table_matching(&spec.filter, p)
                    .into_iter()
                    .filter(|&x| !self.immune(x, c))
                    .collect();
                if cands.is_empty() {
                    Err("there is no such card on table (you cannot cancel or affect something that does not exist)".into())
                } else {
                    Ok(Some(Tgt::Cards(cands)))
                }
            }
            TargetKind::Hand => {
                let sides: Vec<Side> = whose(spec.whose, p);
                for s in sides {
                    if self.st.pile_len(s, PileName::Hand) > 0 {
                        return Ok(Some(Tgt::Pile(s, PileName::Hand)));
                    }
                }
                Err("no cards in that hand (cards cannot be removed from an empty hand)".into())
            }
            TargetKind::Pile => self.target_pile(p, spec, picks),
            TargetKind::Location => {
                // A location target's filter reads its icon, and `subtype: site` ("to
                // any one other site") its kind.
                let ok = |l: usize| {
                    let site = spec.filter.subtype.as_deref() != Some("site")
                        || self.st.locations[l].geo.kind == Some(super::model::LocKind::Site);
                    site && spec.filter.icon.as_ref().is_none_or(|i| {
                        self.st.locations[l]
                            .icons
                            .iter()
                            .any(|x| x.eq_ignore_ascii_case(i))
                    })
                };
                match picks.next() {
                    Some(k) => {
                        let l = self
                            .st
                            .find_location(k)
                            .ok_or_else(|| format!("no location {k}"))?;
                        if ok(l) {
                            Ok(Some(Tgt::Location(l)))
                        } else {
                            Err(format!(
                                "{} lacks what the card targets",
                                self.st.locations[l].title
                            ))
                        }
                    }
                    None => (0..self.st.locations.len())
                        .find(|&l| ok(l))
                        .map(|l| Some(Tgt::Location(l)))
                        .ok_or_else(|| "no such location".to_string()),
                }
            }
            TargetKind::Unknown => Ok(None),
        }
    }

    /// A pile target: the one named, else the first non-empty allowed pile.
    fn target_pile<'a>(
        &self,
        p: Side,
        spec: &TargetSpec,
        picks: &mut impl Iterator<Item = &'a String>,
    ) -> Result<Option<Tgt>, String> {
        let allowed = |s: Side, pl: PileName| {
            whose(spec.whose, p).contains(&s) && (spec.piles.is_empty() || spec.piles.contains(&pl))
        };
        match picks.next() {
            Some(k) => {
                let (s, pl) =
                    super::state::parse_pile_name(k).ok_or_else(|| format!("no pile {k}"))?;
                if !allowed(s, pl) {
                    return Err(format!("{k} is not a valid target"));
                }
                if self.st.pile_len(s, pl) == 0 {
                    return Err(format!(
                        "{}'s {} is empty (an empty pile cannot be targeted)",
                        s.name(),
                        pl.title()
                    ));
                }
                Ok(Some(Tgt::Pile(s, pl)))
            }
            None => {
                for s in whose(spec.whose, p) {
                    for pl in State::all_piles() {
                        if allowed(s, pl) && self.st.pile_len(s, pl) > 0 {
                            return Ok(Some(Tgt::Pile(s, pl)));
                        }
                    }
                }
                Err("every such pile is empty".into())
            }
        }
    }

    /// The battle destiny draws `side` already made in the battle at `parent` (the
    /// draw under way not included).
    fn earlier_battle_draws(&self, parent: usize, side: Option<Side>) -> usize {
        self.stack.get(parent).map_or(0, |b| {
            b.drawn
                .iter()
                .filter(|x| Some(x.side) == side && x.kind == super::stack::BattleDraw::Battle)
                .count()
        })
    }

    /// A "when drawn for destiny" trigger (`destiny_drawn`) and the stack entry `e`:
    /// a destiny just drawn, of the kind and value the trigger asks for.
    fn destiny_drawn_matches(&self, t: &Trigger, e: &Entry, c: CardIx) -> bool {
        let ActionKind::DestinyDrawn { value, parent, .. } = &e.kind else {
            return false;
        };
        (!t.battle_destiny
            || (e.battle_draw.is_some() && e.draw_kind == super::stack::BattleDraw::Battle))
            && (!t.not_first || self.earlier_battle_draws(*parent, e.battle_draw) > 0)
            && t.destiny.is_none_or(|d| Some(d) == *value)
            && t.destiny_matches
                .is_none_or(|m| value.is_some() && self.destiny_count(m, c) == *value)
    }

    pub(super) fn trigger_matches(&self, t: &Trigger, ix: usize, c: CardIx) -> bool {
        let e = &self.stack[ix];
        if e.canceled {
            return false;
        }
        let me = self.st.owner(c);
        // A duel's steps admit only duel actions (AR Dueling, step 2).
        if e.duel.is_some() && !matches!(t.event, EventKind::Duel | EventKind::DuelWon) {
            return false;
        }
        let kind_ok = match t.event {
            EventKind::Play => matches!(e.kind, ActionKind::Deploy { .. } | ActionKind::Play),
            EventKind::JustDeployed => matches!(e.kind, ActionKind::JustDeployed),
            EventKind::UseText => matches!(
                e.kind,
                ActionKind::UseText | ActionKind::Triggered | ActionKind::Mandatory
            ),
            EventKind::DestinyDraw => matches!(e.kind, ActionKind::DestinyDraw { .. }),
            EventKind::DestinyDrawn => self.destiny_drawn_matches(t, e, c),
            EventKind::JustMoved => matches!(e.kind, ActionKind::JustMoved { .. }),
            EventKind::JustLost => matches!(e.kind, ActionKind::JustLost { .. }),
            EventKind::Battle => matches!(e.kind, ActionKind::Battle),
            EventKind::BattleWon => matches!(e.kind, ActionKind::BattleWon { .. }),
            EventKind::ForceDrain => matches!(e.kind, ActionKind::ForceDrain),
            EventKind::ActivateForce => matches!(e.kind, ActionKind::Activation { .. }),
            EventKind::ForceLoss => matches!(e.kind, ActionKind::ForceLoss { .. }),
            EventKind::Duel => {
                matches!(e.kind, ActionKind::Triggered) && e.duel.as_ref().is_some_and(|d| !d.over)
            }
            EventKind::DuelWon => {
                matches!(e.kind, ActionKind::Triggered) && e.duel.as_ref().is_some_and(|d| d.over)
            }
            EventKind::BlownAway => {
                if let ActionKind::BlownAway { locations } = &e.kind {
                    self.blown_matches(locations, t.location.as_ref(), me)
                } else {
                    false
                }
            }
        };
        if !kind_ok {
            return false;
        }
        let by_ok = match t.by {
            Rel::You => e.actor == me,
            Rel::Opponent => e.actor != me,
            Rel::Any => true,
        };
        if !by_ok {
            return false;
        }
        let this = match &e.kind {
            // "When drawn for destiny": the card drawn.
            ActionKind::DestinyDrawn { card, .. } => *card,
            _ => e.card,
        };
        if t.this_card && this != Some(c) {
            return false;
        }
        if let Some(f) = &t.to_location
            && !e.card.is_some_and(|x| self.deployed_to(x, f, me))
        {
            return false;
        }
        // "If you just initiated a Force drain (or won a battle) at <location>".
        let at_entry = match e.kind {
            ActionKind::ForceDrain => Some(ix),
            ActionKind::BattleWon { battle } => Some(battle),
            _ => None,
        };
        if let (Some(f), Some(j)) = (&t.location, at_entry) {
            let at = self.stack.get(j).and_then(|b| {
                b.targets.iter().find_map(|(_, x)| match x {
                    super::stack::Tgt::Location(l) => Some(*l),
                    _ => None,
                })
            });
            if !at.is_some_and(|l| self.loc_matches(l, f, me, true)) {
                return false;
            }
        }
        if let Some(f) = &t.card {
            let mut subject: Vec<CardIx> = e.card.into_iter().collect();
            match &e.kind {
                ActionKind::DestinyDrawn { card, .. } => subject = card.iter().copied().collect(),
                ActionKind::JustMoved { cards } => subject.extend(cards.iter().copied()),
                ActionKind::JustLost { cards } => {
                    // Only cards still in the Lost Pile are just lost.
                    subject = cards
                        .iter()
                        .copied()
                        .filter(|&x| matches!(self.st.zone[x], Zone::Pile(_, PileName::LostPile)))
                        .collect();
                }
                _ => {}
            }
            if !subject.iter().any(|&x| self.st.matches(x, f, me)) {
                return false;
            }
        }
        true
    }
}

pub(super) fn whose(r: Rel, me: Side) -> Vec<Side> {
    match r {
        Rel::You => vec![me],
        Rel::Opponent => vec![me.other()],
        Rel::Any => vec![me.other(), me],
    }
}

pub(super) fn filter_empty(f: &crate::engine::swccg::model::Filter) -> bool {
    f.title.is_empty()
        && f.card_type.is_none()
        && f.subtype.is_none()
        && f.owner.is_none()
        && f.keyword.is_empty()
        && f.keyword_not.is_empty()
        && f.has.is_empty()
        && f.unique.is_none()
        && f.icon.is_none()
        && !f.duplicate_on_table
        && f.persona.is_empty()
        && f.is.is_empty()
        && f.is_not.is_empty()
        && !f.duplicate_in_pile
}
