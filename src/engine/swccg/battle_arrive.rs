//! Cards arriving in a battle on the board (AR: Initiate The Battle, React): a card
//! whose game text lets it deploy to a battle just initiated (`deploy_to_battle`) is
//! deployed from hand as a response to the battle's initiation (`{dark: deploy, card:
//! …}` while the responses to the initiation are open). A 'react' may be made only by
//! the opponent of the player who initiated the battle. A card that arrives before the
//! power segment participates (AR: Participating In Battle); cards that already
//! battled this turn (the board's `battled_this_turn`) do not.

use super::effects::Applied;
use super::engine::*;
use super::stack::{ActionKind, DeployTo, Tgt};
use super::state::{CardIx, Zone};
use super::values::cite;
use crate::engine::swccg::model::{AbilityKind, CardRef, Effect, Filter, MoveHow, PileName, Side};
use crate::engine::{Actor, Event};
use serde::Deserialize;

/// AR React - Deploy.
pub const REACT: &str = "swccg.ar.react-deploy";

/// Every section ID this file cites beyond `values::cite`.
pub const IDS: &[&str] = &[REACT, EXCLUDED];

impl Engine {
    /// The ability of `c` that deploys it to a battle just initiated, if any:
    /// (ability index, free, react).
    fn arrival_ability(&self, c: CardIx) -> Option<(usize, bool, bool)> {
        self.st
            .def(c)
            .abilities
            .iter()
            .enumerate()
            .find_map(|(a, ab)| {
                let (free, react) = ab.effect.iter().find_map(|e| {
                    if let Effect::DeployToBattle { free, react } = e {
                        Some((*free, *react))
                    } else {
                        None
                    }
                })?;
                (ab.kind == AbilityKind::Response).then_some((a, free, react))
            })
    }

    /// Whether the decision deploys a card into a battle just initiated (`deploy` in a
    /// response window, of a card with `deploy_to_battle` text).
    pub(super) fn is_arrival(&self, d: &Decision) -> bool {
        d.step
            .card
            .as_deref()
            .and_then(|k| self.st.find(k))
            .is_some_and(|c| self.arrival_ability(c).is_some())
    }

    /// `d` deploys its card from hand to the battle at stack index `i`, as a response
    /// to the battle's initiation.
    pub(super) fn arrive(&mut self, d: &Decision, i: usize) -> Result<(), Rejection> {
        let p = d.by;
        let c = self.decision_card(d, super::rules::ACTIONS)?;
        let (a, free, react, at) = self.check_arrival(p, c, i)?;
        let title = self.name(c);
        self.stack[i].responded.push((c, a));
        let how = if react {
            "as a 'react'"
        } else {
            "(its game text)"
        };
        let text = format!(
            "{} deploys {title} {how} to the battle at {}",
            p.name(),
            self.st.locations[at].title
        );
        self.log(
            actor(p),
            Event::Initiate,
            text,
            if react {
                &[cite::INITIATE_BATTLE, REACT]
            } else {
                &[cite::INITIATE_BATTLE]
            },
        );
        self.push_deploy(p, c, DeployTo::Location(at), free, Some(i));
        Ok(())
    }

    /// Could `p` deploy `c` to the battle at stack index `i` now?
    pub(super) fn can_arrive(&self, p: Side, c: CardIx, i: usize) -> bool {
        self.arrival_ability(c).is_some() && self.check_arrival(p, c, i).is_ok()
    }

    /// The conditions of deploying `c` to the battle at `i`: its text, in `p`'s hand, a
    /// battle just initiated, a 'react' only by the initiator's opponent, its response
    /// condition, once per battle, its deploy cost. Returns (ability, free, react, location).
    fn check_arrival(
        &self,
        p: Side,
        c: CardIx,
        i: usize,
    ) -> Result<(usize, bool, bool, usize), Rejection> {
        let title = self.name(c);
        let Some((a, free, react)) = self.arrival_ability(c) else {
            return Err(rej(
                format!("{title} has no text that deploys it to a battle"),
                super::rules::ACTIONS,
            ));
        };
        if self.st.owner(c) != p || self.st.zone[c] != Zone::Pile(p, PileName::Hand) {
            return Err(rej(
                format!("{title} is not in {}'s hand", p.name()),
                super::rules::ACTIONS,
            ));
        }
        let battle = (0..=i)
            .rev()
            .find(|&j| matches!(self.stack[j].kind, ActionKind::Battle));
        if react && battle.is_some_and(|j| self.stack[j].actor == p) {
            return Err(rej(
                format!(
                    "{} cannot react to his own battle: {title} does not arrive (only the opponent of the player who initiated the battle may react)",
                    p.name()
                ),
                cite::INITIATE_BATTLE,
            )
            .and(REACT));
        }
        let at = self.battle_just_initiated(i).ok_or_else(|| {
            rej(
                format!(
                    "{title} deploys to a battle as a response to its initiation, and no battle was just initiated ({} is the current action)",
                    self.stack[i].label
                ),
                cite::INITIATE_BATTLE,
            )
        })?;
        if let Some(t) = &self.st.def(c).abilities[a].responds_to
            && !self.trigger_matches(t, i, c)
        {
            return Err(rej(
                format!("{title} does not respond to {}", self.stack[i].label),
                super::rules::WHAT_IS_A_RESPONSE,
            ));
        }
        if self.stack[i].responded.contains(&(c, a)) {
            return Err(rej(
                format!("{title} already responded to {}", self.stack[i].label),
                super::rules::THE_STACK,
            ));
        }
        let cost = if free {
            0
        } else {
            self.st.def(c).stats.deploy.unwrap_or(0).max(0)
        };
        let have = self.st.pile_len(p, PileName::ForcePile) as i64;
        if cost > have {
            return Err(rej(
                format!(
                    "{title} deploys for {cost} Force and {} has {have}",
                    p.name()
                ),
                super::rules::ACTIONS,
            ));
        }
        Ok((a, free, react, at))
    }

    /// The location of the battle at stack index `i` while the responses to its
    /// initiation are open.
    fn battle_just_initiated(&self, i: usize) -> Option<usize> {
        let e = &self.stack[i];
        if !matches!(e.kind, ActionKind::Battle) || e.stage != super::stack::Stage::Responding {
            return None;
        }
        e.targets.iter().find_map(|(_, t)| match t {
            Tgt::Location(l) => Some(*l),
            _ => None,
        })
    }

    /// The board's `battled_this_turn`: cards that already battled this turn (they do
    /// not participate in another battle this turn).
    pub fn battled_earlier(&mut self, cards: Vec<CardIx>) {
        if cards.is_empty() {
            return;
        }
        let names: Vec<String> = cards.iter().map(|&c| self.name(c)).collect();
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!("already battled this turn: {}", names.join(", ")),
            &[cite::BATTLE],
        );
        self.battles.push(super::battle_drain::AtLocation {
            // At no location of the board: it limits no later battle's location.
            location: usize::MAX,
            label: "battles earlier this turn".into(),
            cards,
        });
    }
}

/// AR Participating In Battle - Excluded From Battle.
pub const EXCLUDED: &str = "swccg.ar.participating-in-battle-excluded-from-battle";

/// Whether `c` is excluded from the battle: excluded itself, or on (aboard) an
/// excluded card (inactive with it).
pub fn is_excluded(st: &super::state::State, c: CardIx, excluded: &[CardIx]) -> bool {
    let mut x = c;
    for _ in 0..8 {
        // An undercover spy is inactive: it (and what is on it) does not participate.
        if excluded.contains(&x) || undercover(st, x) {
            return true;
        }
        match st.zone[x] {
            Zone::On(h) => x = h,
            _ => return false,
        }
    }
    false
}

/// An undercover spy (AR Undercover Spy Rules): inactive, not participating in battles.
fn undercover(st: &super::state::State, c: CardIx) -> bool {
    st.undercover(c)
}

impl Engine {
    /// Excludes `c` from the battle at stack index `b`: it (and what is on it) is
    /// inactive for the rest of the battle.
    pub(super) fn exclude(&mut self, b: usize, c: CardIx, why: &str) {
        if self.stack[b].excluded.contains(&c) {
            return;
        }
        self.stack[b].excluded.push(c);
        let on: Vec<String> = self.all_on(c).iter().map(|&x| self.name(x)).collect();
        let also = if on.is_empty() {
            String::new()
        } else {
            format!("; {} on it inactive too", on.join(", "))
        };
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{} is excluded from {} ({why}): inactive for the battle, not participating{also}",
                self.name(c),
                self.stack[b].label
            ),
            &[EXCLUDED, cite::PARTICIPATING],
        );
    }

    /// At the start of a battle, cards that may not battle this turn are excluded as an
    /// automatic action.
    pub(super) fn exclude_may_not_battle(&mut self, ix: usize, at: usize) {
        let here = self.cards_at(at);
        let spies: Vec<CardIx> = here
            .iter()
            .copied()
            .filter(|&c| undercover(&self.st, c))
            .collect();
        for c in spies {
            let text = format!(
                "{} is an undercover spy: inactive, it does not participate in {}",
                self.name(c),
                self.stack[ix].label
            );
            self.log(
                Actor::Rules,
                Event::StateChange,
                text,
                &[super::weapon_fire::UNDERCOVER, cite::PARTICIPATING],
            );
        }
        for c in self.may_not_battle.clone() {
            if here.contains(&c) {
                self.exclude(ix, c, "it may not battle this turn");
            }
        }
    }

    /// A weapon whose target is immediately excluded from the battle it fires in.
    pub(super) fn exclude_by_weapon(&mut self, ix: usize, t: CardIx) {
        let Some(b) = self.stack[ix]
            .responding_to
            .filter(|&b| b < self.stack.len())
        else {
            return;
        };
        let weapon = self.stack[ix]
            .card
            .map_or_else(|| self.stack[ix].label.clone(), |c| self.name(c));
        self.exclude(b, t, &format!("hit by {weapon}"));
    }
}

/// "Move <card> as a regular move (using landspeed for free) to a battle just initiated
/// at an adjacent site. <card> is power +N during that battle, unless <filter> is
/// present or adjacent to the battle site." (Run Luke, Run!): a response to the
/// battle's initiation that is not a react, so the initiator may play it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveToBattle {
    pub card: CardRef,
    /// Power added to the card for that battle.
    #[serde(default)]
    pub power: i64,
    /// No power added while a card matching this is present at or adjacent to the
    /// battle site.
    #[serde(default)]
    pub unless_near: Option<Filter>,
}

impl Engine {
    /// Whether an ability moves its target `name` to a battle just initiated.
    fn moves_target_to_battle(&self, c: CardIx, a: usize, name: &str) -> bool {
        self.st.def(c).abilities[a].effect.iter().any(
            |e| matches!(e, Effect::MoveToBattle(m) if m.card == CardRef::Target(name.to_string())),
        )
    }

    /// Can `x` move now, as a regular move by landspeed, to the battle just initiated
    /// (the current action) from an adjacent site? Returns the battle's stack index and
    /// location.
    fn move_to_battle_check(&self, p: Side, x: CardIx) -> Result<(usize, usize), Rejection> {
        let title = self.name(x);
        let i = self.stack.len().checked_sub(1);
        let Some((i, at)) = i.and_then(|i| self.battle_just_initiated(i).map(|l| (i, l))) else {
            return Err(rej(
                format!("{title} may move only to a battle just initiated, and none was"),
                cite::INITIATE_BATTLE,
            ));
        };
        let from = match self.st.zone[x] {
            Zone::At(l) => l,
            _ => {
                return Err(rej(
                    format!("{title} is not at a site of its own to move from"),
                    super::rules::MOVEMENT_REGULAR,
                ));
            }
        };
        if from == at || !self.same_or_adjacent(from, at) {
            return Err(rej(
                format!(
                    "{title} is not at a site adjacent to the battle at {}",
                    self.st.locations[at].title
                ),
                super::rules::LANDSPEED,
            ));
        }
        if self.st.regular_moves.contains(&x) {
            return Err(rej(
                format!("{title} has already made its regular move this turn"),
                super::rules::MOVEMENT_REGULAR,
            ));
        }
        let to = self.st.locations[at].name.clone();
        match self.plan_move_as(p, x, &to, Some(MoveHow::Landspeed), true) {
            // The move is for free: its Force cost does not apply.
            Err(e) if e.rule != super::rules::PAYING_COSTS => Err(e),
            _ => Ok((i, at)),
        }
    }

    /// Is `x` refused as target `name` of ability `a` of `c` because it cannot make the
    /// move to the battle the ability makes?
    pub(super) fn move_to_battle_target(
        &self,
        c: CardIx,
        a: usize,
        name: &str,
        x: CardIx,
    ) -> Option<Rejection> {
        if !self.moves_target_to_battle(c, a, name) {
            return None;
        }
        self.move_to_battle_check(self.st.owner(c), x).err()
    }

    /// The result: each card moves to the battle (a regular move by landspeed, for
    /// free), then gets its power bonus for that battle unless the named card is near.
    pub(super) fn move_to_battle(&mut self, ix: usize, me: Side, m: &MoveToBattle) -> Applied {
        let label = self.stack[ix].label.clone();
        for c in self.card_refs(ix, &m.card) {
            let at = self.stack[ix]
                .responding_to
                .and_then(|j| self.battle_location(j));
            let Some(at) = at.filter(|&l| {
                matches!(self.st.zone[c], Zone::At(f) if f != l && self.same_or_adjacent(f, l))
            }) else {
                self.log(
                    Actor::Rules,
                    Event::Result,
                    format!(
                        "{label}: {} is no longer at a site adjacent to the battle: it does not move",
                        self.name(c)
                    ),
                    &[super::rules::LANDSPEED],
                );
                continue;
            };
            let from = self.st.zone[c];
            self.st.regular_moves.push(c);
            self.st.put(c, Zone::At(at));
            self.stack[ix].moved.push(c);
            self.log(
                actor(me),
                Event::StateChange,
                format!(
                    "{label}: {} moves from {} to the battle at {} (a regular move by landspeed, for free; a response to the battle's initiation, not a react)",
                    self.name(c),
                    match from {
                        Zone::At(l) => self.st.locations[l].title.clone(),
                        _ => String::new(),
                    },
                    self.st.locations[at].title
                ),
                &[cite::INITIATE_BATTLE, super::rules::MOVEMENT_REGULAR],
            );
            if m.power != 0 {
                self.move_bonus(ix, me, c, at, m);
            }
        }
        Applied::Done
    }

    /// "Power +N during that battle, unless <filter> is present or adjacent".
    fn move_bonus(&mut self, ix: usize, me: Side, c: CardIx, at: usize, m: &MoveToBattle) {
        let near = m.unless_near.as_ref().and_then(|f| {
            (0..self.st.cards.len()).find(|&x| {
                self.st.active(x)
                    && self.st.matches(x, f, me)
                    && matches!(self.st.zone[x], Zone::At(l) if self.same_or_adjacent(l, at))
            })
        });
        match near {
            Some(x) => self.log(
                Actor::Rules,
                Event::Result,
                format!(
                    "{}: {} is present at or adjacent to the battle site: {} gets no power {:+}",
                    self.stack[ix].label,
                    self.name(x),
                    self.name(c),
                    m.power
                ),
                &[cite::MODIFIERS],
            ),
            None => self.add_power(ix, me, c, m.power, false),
        }
    }
}
