//! Creature attacks on the board (AR: Attacks). An attack is an action on the stack,
//! free, in the attacking player's battle phase (`{side: attack, at, card, target}`):
//! a player's creature attacks a potential target there (a non-droid character not
//! aboard a starship or vehicle; `target:` is the random pick, given by the script),
//! or the player's characters, vehicles and starships there attack a creature
//! (`card:` the creature, no `target:`). After responses, the weapons segment (the
//! attacker first; participating cards may fire at the participating creature against
//! its defense value), then the power segment: attacker and defender totals with their
//! destiny draws (a side with 4 or more ability in the attack draws one; a creature with
//! "ferocity N + destiny" draws its destinies), each an ordinary destiny draw on the
//! stack. A defender whose total is exceeded is defeated (ties are not enough) and
//! lost; hit cards are then lost. There is no battle damage, attrition or forfeiting,
//! and battle-only text (battle destinies, "draws one battle destiny if unable to
//! otherwise") does not apply.

use super::engine::*;
use super::stack::{ActionKind, BattleDraw, Entry, Stage, Tgt};
use super::state::{CardIx, Zone};
use super::statics::{Replacement, pick};
use super::values::{Total, cite};
use crate::engine::swccg::model::{
    Amount, CardType, DestinyTest, Effect, Phase, PileName, Side, Verb,
};
use crate::engine::{Actor, Event, NeedKind};

/// What an attack on the stack is.
#[derive(Debug, Clone)]
pub struct AttackInfo {
    pub at: usize,
    pub creature: CardIx,
    /// The creature attacks `target`; `None`: the creature is attacked.
    pub target: Option<CardIx>,
    /// The attacking player's participating cards when the creature is attacked.
    pub attackers: Vec<CardIx>,
    pub draws_set: bool,
}

/// AR Attacks - Example sections and the steps cited here.
pub const IDS: &[&str] = &[
    cite::ATTACKS,
    cite::ATTACKS_STEPS,
    cite::ATTACKS_CREATURES_ATTACKED,
    cite::ATTACKS_NON_PARASITE,
];

fn present_at(st: &super::state::State, c: CardIx, l: usize) -> bool {
    st.zone[c] == Zone::At(l) && st.active(c)
}

/// A potential target's place: at the location itself, active or not ("non-droid
/// characters (even if inactive)"), or a captive on its escort there (not aboard a
/// starship or vehicle).
fn target_at(st: &super::state::State, c: CardIx, l: usize) -> bool {
    match st.zone[c] {
        Zone::At(x) => x == l,
        Zone::On(h) => {
            st.def(h).card_type == CardType::Character
                && st.zone[h] == Zone::At(l)
                && st.card_state[c] == super::model::CardState::Inactive
        }
        _ => false,
    }
}

impl Engine {
    fn attack_info(&self, ix: usize) -> &AttackInfo {
        self.stack[ix].attack.as_deref().expect("an attack")
    }

    /// `{side: attack, …}`: initiate an attack (free, top level, in your battle phase).
    pub(super) fn initiate_attack(&mut self, d: &Decision, w: Window) -> Result<(), Rejection> {
        let p = d.by;
        if w != Window::TopLevel {
            return Err(rej(
                "an attack is a top-level action: not while the stack is not empty",
                super::rules::THE_STACK,
            ));
        }
        if self.phase != Phase::Battle || self.turn != p {
            return Err(rej(
                format!("{} attacks only during its own battle phase", p.name()),
                cite::ATTACKS,
            ));
        }
        let c = self.decision_card(d, cite::ATTACKS)?;
        if self.st.def(c).card_type != CardType::Creature {
            return Err(rej(
                format!("{} is not a creature", self.name(c)),
                cite::ATTACKS,
            ));
        }
        let Some(l) = (0..self.st.locations.len()).find(|&l| present_at(&self.st, c, l)) else {
            return Err(rej(
                format!("{} is not present at a location", self.name(c)),
                cite::ATTACKS,
            ));
        };
        self.battle_prevented_by_text(l, "attack")?;
        let info = match d.step.target.first() {
            Some(t) => self.creature_attacks(p, c, l, t)?,
            None => self.attack_creature(p, c, l)?,
        };
        if self
            .attacks
            .iter()
            .any(|&(ol, oc, by_creature)| match info.target {
                Some(_) => by_creature && oc == c,
                None => !by_creature && ol == l,
            })
        {
            return Err(rej(
                if info.target.is_some() {
                    format!("{} already attacked this turn", self.name(c))
                } else {
                    "only one attack on a creature per location during your battle phase".into()
                },
                cite::ATTACKS,
            ));
        }
        self.attacks.push((l, c, info.target.is_some()));
        let label = format!("attack_{}", self.st.key(c));
        let text = match info.target {
            Some(t) => format!(
                "{} attacks {} at {} (free)",
                self.name(c),
                self.name(t),
                self.st.locations[l].title
            ),
            None => format!(
                "{} attacks {} at {} (free)",
                p.name(),
                self.name(c),
                self.st.locations[l].title
            ),
        };
        let mut e = Entry::new(ActionKind::Attack, p, Some(c), label);
        e.targets.push(("at".into(), Tgt::Location(l)));
        e.attack = Some(Box::new(info));
        self.stack.push(e);
        self.log(
            actor(p),
            Event::Push,
            text,
            &[cite::ATTACKS_STEPS, super::rules::INITIATION],
        );
        Ok(())
    }

    /// The creature `c` (the player's) attacks `t` (a potential target present with it).
    fn creature_attacks(
        &self,
        p: Side,
        c: CardIx,
        l: usize,
        t: &str,
    ) -> Result<AttackInfo, Rejection> {
        if self.st.owner(c) != p {
            return Err(rej(
                format!("{} is not {}'s creature", self.name(c), p.name()),
                cite::ATTACKS,
            ));
        }
        let t = self.card_named(t, cite::ATTACKS)?;
        let d = self.st.def(t);
        let droid = d.keywords.iter().any(|k| k.eq_ignore_ascii_case("droid"));
        if d.card_type != CardType::Character || droid || !target_at(&self.st, t, l) {
            return Err(rej(
                format!(
                    "{} is not a potential target of {}: a non-droid character present with it, not aboard a starship or vehicle",
                    self.name(t),
                    self.name(c)
                ),
                cite::ATTACKS_NON_PARASITE,
            ));
        }
        Ok(AttackInfo {
            at: l,
            creature: c,
            target: Some(t),
            attackers: Vec::new(),
            draws_set: false,
        })
    }

    /// `p`'s characters, vehicles and starships present with the creature `c` attack it.
    fn attack_creature(&self, p: Side, c: CardIx, l: usize) -> Result<AttackInfo, Rejection> {
        let mut attackers: Vec<CardIx> = (0..self.st.cards.len())
            .filter(|&x| self.st.owner(x) == p && present_at(&self.st, x, l))
            .filter(|&x| {
                matches!(
                    self.st.def(x).card_type,
                    CardType::Character | CardType::Vehicle | CardType::Starship
                )
            })
            .collect();
        // Characters aboard those vehicles and starships take part too ("all the
        // Light Side cards there are participating").
        let aboard: Vec<CardIx> = attackers
            .iter()
            .flat_map(|&x| self.all_on(x))
            .filter(|&x| self.st.def(x).card_type == CardType::Character && self.st.active(x))
            .collect();
        attackers.extend(aboard);
        if attackers.is_empty() {
            return Err(rej(
                format!(
                    "{} has no character, vehicle or starship present with {}",
                    p.name(),
                    self.name(c)
                ),
                cite::ATTACKS_CREATURES_ATTACKED,
            ));
        }
        Ok(AttackInfo {
            at: l,
            creature: c,
            target: None,
            attackers,
            draws_set: false,
        })
    }

    /// The attack's result begins: its weapons segment, the attacker first.
    pub(super) fn attack_begin(&mut self, ix: usize) -> Flow {
        let p = self.stack[ix].actor;
        self.stack[ix].stage = Stage::Resolving;
        self.stack[ix].segment = Some((p, 0));
        let label = self.stack[ix].label.clone();
        self.log(
            Actor::Rules,
            Event::Window,
            format!(
                "{label}: the weapon segment begins; {} takes the first action",
                p.name()
            ),
            &[cite::ATTACKS_STEPS],
        );
        Ok(())
    }

    /// Cards participating in the attack at `ix`, on `p`'s side.
    fn attack_side(&self, ix: usize, p: Side) -> Vec<CardIx> {
        let a = self.attack_info(ix);
        let mut v: Vec<CardIx> = match a.target {
            Some(t) => vec![a.creature, t],
            None => {
                let mut v = a.attackers.clone();
                v.push(a.creature);
                v
            }
        };
        v.retain(|&c| self.st.owner(c) == p && self.st.on_table(c));
        v
    }

    /// The weapons `p` could fire at the creature now.
    fn attack_weapons(&self, ix: usize, p: Side) -> Vec<CardIx> {
        let a = self.attack_info(ix);
        if a.creature_defense(&self.st).is_none() || self.st.pile_len(p, PileName::ReserveDeck) == 0
        {
            return Vec::new();
        }
        let holders = self.attack_side(ix, p);
        (0..self.st.cards.len())
            .filter(|&w| self.st.def(w).weapon.is_some() && self.st.owner(w) == p)
            .filter(|&w| matches!(self.st.zone[w], Zone::On(h) if holders.contains(&h)))
            .filter(|&w| !self.stack[ix].fired.contains(&w))
            .collect()
    }

    /// The next step of the attack at stack index `ix`.
    pub(super) fn attack_step(&mut self, ix: usize) -> Flow {
        if self.stack[ix].segment.is_some() {
            return self.attack_weapons_step(ix);
        }
        if !self.attack_info(ix).draws_set {
            self.attack_draws(ix);
        }
        let Some((s, kind)) = self.stack[ix].draws_left.pop_front() else {
            return self.attack_end(ix);
        };
        let label = self.stack[ix].label.clone();
        let k = self.stack[ix].drawn.iter().filter(|x| x.side == s).count() + 1;
        let mut e = Entry::new(
            ActionKind::DestinyDraw {
                parent: ix,
                test: Default::default(),
            },
            s,
            None,
            format!("{}'s destiny draw {k} for {label}", s.name()),
        );
        e.battle_draw = Some(s);
        e.draw_kind = kind;
        self.stack.push(e);
        self.log(
            actor(s),
            Event::Push,
            format!(
                "{label}: {} draws destiny {k} (an action of its own)",
                s.name()
            ),
            &[cite::ATTACKS, super::rules::ACTIONS],
        );
        Ok(())
    }

    fn attack_weapons_step(&mut self, ix: usize) -> Flow {
        let Some((p, passes)) = self.stack[ix].segment else {
            return Ok(());
        };
        if passes >= 2 {
            self.stack[ix].segment = None;
            self.stack[ix].weapons_done = true;
            let label = self.stack[ix].label.clone();
            self.log(
                Actor::Rules,
                Event::Phase,
                format!("{label}: both players passed consecutively: the weapon segment ends; the power segment"),
                &[cite::ATTACKS_STEPS],
            );
            return Ok(());
        }
        let can = !self.attack_weapons(ix, p).is_empty() || self.can_act(p, Window::Response(ix));
        match self.script.peek().cloned() {
            Some(d) if d.by == p && d.verb == Verb::Fire => {
                self.script.take();
                match self.attack_fire(ix, &d) {
                    Ok(()) => self.stack[ix].segment = Some((p.other(), 0)),
                    Err(e) => self.reject(&d, e),
                }
            }
            Some(d) if d.by == p && self.is_weapons_action(&d) => {
                self.script.take();
                match self.initiate(&d, Window::Response(ix)) {
                    Ok(()) => self.stack[ix].segment = Some((p.other(), 0)),
                    Err(e) => self.reject(&d, e),
                }
            }
            Some(d) if d.by == p && d.verb == Verb::Pass && can => {
                self.script.take();
                self.segment_pass(ix, "weapon segment", cite::ATTACKS_STEPS);
            }
            None if can => {
                let what = "fire a weapon at the creature or pass (weapon segment of an attack)";
                self.need(p, NeedKind::Action, what.into());
                return Err(Stop::Halt);
            }
            _ => self.segment_pass(ix, "weapon segment: nothing it can do", cite::ATTACKS_STEPS),
        }
        Ok(())
    }

    /// Firing a participating card's weapon at the participating creature: weapon
    /// destiny (+ the weapon's `add`) against the creature's defense value.
    fn attack_fire(&mut self, ix: usize, d: &Decision) -> Result<(), Rejection> {
        let p = d.by;
        let w = self.decision_card(d, cite::FIRING_WEAPONS)?;
        let creature = self.attack_info(ix).creature;
        if self.stack[ix].fired.contains(&w) {
            return Err(rej(
                format!("{} has already fired in this attack", self.name(w)),
                cite::FIRING_WEAPONS,
            )
            .and(cite::ATTACKS));
        }
        if !self.attack_weapons(ix, p).contains(&w) {
            return Err(rej(
                format!(
                    "{} cannot fire in this attack: only a weapon of a participating card, with a card in the Reserve Deck for its destiny",
                    self.name(w)
                ),
                cite::ATTACKS_STEPS,
            ));
        }
        let t = d.step.target.first().and_then(|k| self.st.find(k));
        if t != Some(creature) {
            return Err(rej(
                "weapons fire in an attack only at the participating creature",
                cite::ATTACKS_STEPS,
            ));
        }
        let def = self
            .st
            .def(w)
            .weapon
            .clone()
            .unwrap_or_else(|| unreachable!());
        let dv = self.attack_info(ix).creature_defense(&self.st).unwrap_or(0);
        self.stack[ix].fired.push(w);
        let test = DestinyTest {
            greater_than: Some(Amount::Value(dv - def.add)),
            success: vec![Effect::Hit(creature, false)],
            ..Default::default()
        };
        let label = format!("{} fires {}", p.name(), self.st.title(w));
        let mut e = Entry::new(ActionKind::Fire, p, Some(w), label);
        e.responding_to = Some(ix);
        e.pending = vec![Effect::Destiny(test)].into();
        self.stack.push(e);
        self.log(
            actor(p),
            Event::Push,
            format!(
                "{} fires {} at {} (weapon destiny{} against its defense value {dv})",
                p.name(),
                self.st.title(w),
                self.name(creature),
                if def.add != 0 {
                    format!(" +{}", def.add)
                } else {
                    String::new()
                }
            ),
            &[cite::ATTACKS_STEPS, cite::FIRING_WEAPONS],
        );
        if def.cost > 0 {
            self.pay_use(p, def.cost, &format!("to fire {}", self.st.title(w)));
        }
        Ok(())
    }

    /// The power segment's destiny draws: the creature's "+ destiny" draws, and a side
    /// with 4 or more ability in the attack draws one.
    fn attack_draws(&mut self, ix: usize) {
        let a = self.attack_info(ix).clone();
        let owner = self.st.owner(a.creature);
        let mut draws = Vec::new();
        let ferocity_draws = self
            .st
            .def(a.creature)
            .stats
            .ferocity_destinies
            .unwrap_or(0);
        let other = match a.target {
            Some(t) => self.st.owner(t),
            None => self.stack[ix].actor,
        };
        let ability: i64 = self
            .attack_side(ix, other)
            .iter()
            .filter(|&&c| c != a.creature)
            .filter_map(|&c| self.st.def(c).stats.ability)
            .sum();
        let label = self.stack[ix].label.clone();
        let (first, second) = if a.target.is_some() {
            ((owner, ferocity_draws), (other, u32::from(ability >= 4)))
        } else {
            ((other, u32::from(ability >= 4)), (owner, ferocity_draws))
        };
        for (s, n) in [first, second] {
            for _ in 0..n {
                draws.push((s, BattleDraw::Power));
            }
        }
        self.log(
            Actor::Rules,
            Event::Result,
            format!(
                "{label}: power segment: {} has {ability} ability in the attack and draws {} destiny (4 or more ability); the creature draws {ferocity_draws}",
                other.name(),
                u32::from(ability >= 4)
            ),
            &[cite::ATTACKS],
        );
        let e = &mut self.stack[ix];
        e.draws_left = draws.into();
        if let Some(info) = e.attack.as_deref_mut() {
            info.draws_set = true;
        }
    }

    /// A participant's power in the attack: printed, with what was added to it during
    /// the attack.
    fn attack_power(&mut self, ix: usize, c: CardIx) -> i64 {
        let name = super::battle_board::battle_name(&self.st, c);
        // A character aboard a vehicle or starship adds no power of its own.
        if let Zone::On(h) = self.st.zone[c]
            && matches!(
                self.st.def(h).card_type,
                CardType::Vehicle | CardType::Starship
            )
        {
            return 0;
        }
        let printed = self.st.def(c).stats.power.unwrap_or(0);
        let total = played_power(&name, printed, &self.stack[ix].played_mods);
        if total.unresolved.is_some() {
            let depth = self.depth();
            self.trace.not_modelled(
                depth,
                Actor::Rules,
                format!("{total}"),
                &[cite::ATTACKS, cite::MODIFIERS],
            );
        }
        total.value.unwrap_or(0)
    }

    /// Totals, the defeated defender and hit cards lost; the attack ends.
    fn attack_end(&mut self, ix: usize) -> Flow {
        let a = self.attack_info(ix).clone();
        let label = self.stack[ix].label.clone();
        let owner = self.st.owner(a.creature);
        // A creature attacking its owner's card: the owner's first draws are the
        // creature's ferocity destinies, the rest the target side's.
        let shared = a.target.is_some_and(|t| self.st.owner(t) == owner);
        let nf = if shared {
            self.st
                .def(a.creature)
                .stats
                .ferocity_destinies
                .unwrap_or(0) as usize
        } else {
            usize::MAX
        };
        let other = match a.target {
            Some(t) => self.st.owner(t),
            None => self.stack[ix].actor,
        };
        let mut side_total = 0;
        let mut side_terms = Vec::new();
        for c in self.attack_side(ix, other) {
            let p = self.attack_power(ix, c);
            side_total += p;
            side_terms.push(format!("{} {p}", self.name(c)));
        }
        let drawn = |s: Side, skip: usize, take: usize| -> (i64, Vec<String>) {
            let v: Vec<i64> = self.stack[ix]
                .drawn
                .iter()
                .filter(|x| x.side == s)
                .skip(skip)
                .take(take)
                .map(|x| x.value.unwrap_or(0))
                .collect();
            (
                v.iter().sum(),
                v.iter().map(|x| format!("destiny {x}")).collect(),
            )
        };
        let (printed, added) = self.ferocity(a.creature);
        let ferocity = printed + added;
        let (cd, cterms) = drawn(owner, 0, nf);
        let mut creature_terms = vec![format!("ferocity {printed}")];
        if added != 0 {
            creature_terms.push(format!("ferocity added {added}"));
        }
        creature_terms.extend(cterms);
        let mut creature_total = ferocity + cd;
        let (sd, sterms) = drawn(other, if shared { nf } else { 0 }, usize::MAX);
        side_total += sd;
        side_terms.extend(sterms);
        if a.target.is_none() {
            let dv = a.creature_defense(&self.st).unwrap_or(0);
            creature_total += dv;
            creature_terms.push(format!("defense value {dv}"));
        }
        let (att, def, att_t, def_t) = if a.target.is_some() {
            (creature_total, side_total, creature_terms, side_terms)
        } else {
            (side_total, creature_total, side_terms, creature_terms)
        };
        let defeated = att > def;
        self.log(
            Actor::Rules,
            Event::Result,
            format!(
                "{label}: attacker total {att} ({}) against defender total {def} ({}): the defender is {}",
                att_t.join(" + "),
                def_t.join(" + "),
                if defeated { "defeated" } else { "not defeated (ties are not enough)" }
            ),
            &[cite::ATTACKS_STEPS, cite::ATTACKS],
        );
        let mut lost = Vec::new();
        if defeated {
            let t = a.target.unwrap_or(a.creature);
            if a.target.is_none() || !self.relocate_defeated(&label, a.creature, t) {
                lost.push(t);
            }
        }
        lost.extend(self.stack[ix].hits.iter().map(|h| h.0));
        for c in lost {
            if !self.st.on_table(c) {
                continue;
            }
            let why = if Some(c) == a.target && defeated {
                "is defeated and eaten (lost)"
            } else if c == a.creature && defeated {
                "is defeated and lost"
            } else {
                "was hit and is lost"
            };
            self.lose_with_all_on(c);
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!("{label}: damage segment: {} {why}", self.name(c)),
                &[cite::ATTACKS_STEPS],
            );
        }
        for (k, v) in [
            ("attacker_total", serde_json::json!(att)),
            ("defender_total", serde_json::json!(def)),
            ("defeated", serde_json::json!(defeated)),
        ] {
            self.numbers.push((format!("{label}.{k}"), v));
        }
        self.resolved.push(label.clone());
        self.stack.pop();
        self.log(
            Actor::Rules,
            Event::Pop,
            format!("{label} comes off the stack: the attack ends"),
            &[super::rules::HOW_THE_STACK_WORKS],
        );
        Ok(())
    }
}

impl Engine {
    /// A creature whose text relocates a card it defeats (`defeated_to`): the defeated
    /// card is relocated there if it can move; otherwise it is eaten (AR Creatures -
    /// Relocating Defeated Cards). A captive cannot move (except with its escort,
    /// automatically); "cannot move" text prevents it; a prohibition on relocating
    /// specifically (an escort's) is ignored; the escort's captive moves with it.
    fn relocate_defeated(&mut self, label: &str, creature: CardIx, t: CardIx) -> bool {
        use super::rules as r;
        let Some(rule) = self
            .st
            .def(creature)
            .find_replacement(pick!(Replacement::DefeatedTo))
            .cloned()
        else {
            return false;
        };
        let dest = self.st.find_location(&rule.to).or_else(|| {
            (0..self.st.locations.len()).find(|&l| self.st.locations[l].title == rule.to)
        });
        let why_not = match dest {
            None => Some(format!("{} is not on table", rule.to)),
            Some(_) if self.held(t).is_some() => Some(format!(
                "{} is a captive: captives cannot move, except with their escort automatically",
                self.name(t)
            )),
            Some(_) if self.st.def(t).moves.cannot_move => {
                Some(format!("{} cannot move", self.name(t)))
            }
            Some(l) if self.st.zone[t] == Zone::At(l) => {
                Some(format!("{} is already there", self.name(t)))
            }
            Some(_) => None,
        };
        if let Some(why) = why_not {
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!(
                    "{label}: {} cannot be relocated to {} ({why}), so it is eaten instead",
                    self.name(t),
                    rule.to
                ),
                &[r::RELOCATING_DEFEATED, r::CAPTIVES_ESCORTING],
            );
            return false;
        }
        let l = dest.expect("checked");
        self.st.put(t, Zone::At(l));
        let escorted: Vec<CardIx> = self
            .st
            .cards_on(t)
            .into_iter()
            .filter(|&x| self.held(x).is_some())
            .collect();
        let with = if escorted.is_empty() {
            String::new()
        } else {
            format!(
                "; its captive {} moves with it automatically",
                self.names(&escorted)
            )
        };
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{label}: {} is defeated and relocated to {} instead of being eaten (relocating defeated cards ignores conditions that specifically prevent relocation){with}",
                self.name(t),
                self.st.locations[l].title
            ),
            &[r::RELOCATING_DEFEATED, r::RELOCATING, r::CAPTIVES_ESCORTING],
        );
        true
    }
}

impl AttackInfo {
    /// The creature's defense value (the first its card gives).
    fn creature_defense(&self, st: &super::state::State) -> Option<i64> {
        st.def(self.creature).stats.defense.values().next().copied()
    }
}

impl Engine {
    /// A creature's ferocity without destiny: printed, with what was added to it for
    /// the rest of the game.
    pub(super) fn ferocity(&self, c: CardIx) -> (i64, i64) {
        let printed = self.st.def(c).stats.ferocity.unwrap_or(0);
        let added = self
            .ferocity_added
            .iter()
            .filter(|x| x.0 == c)
            .map(|x| x.1)
            .sum();
        (printed, added)
    }

    pub(super) fn add_ferocity(&mut self, c: CardIx, n: i64) -> super::effects::Applied {
        self.ferocity_added.push((c, n));
        let (printed, added) = self.ferocity(c);
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{}'s ferocity is +{n} for the rest of the game (cumulatively: {printed} + {added})",
                self.name(c)
            ),
            &[cite::ATTACKS],
        );
        super::effects::Applied::Done
    }

    /// Yaggle Gakkle: the creature present with the targeted creature vehicle draws its
    /// ferocity destiny; if ferocity + destiny is more than the vehicle's maneuver +
    /// landspeed, the vehicle is eaten (lost) and the creature's ferocity is +`add`.
    pub(super) fn eat(
        &mut self,
        ix: usize,
        me: Side,
        label: &str,
        vehicle: crate::engine::swccg::model::CardRef,
        add: i64,
    ) -> super::effects::Applied {
        use crate::engine::swccg::model::Dest;
        let target = self.card_refs(ix, &vehicle).first().copied();
        let at = target.and_then(|v| match self.st.zone[v] {
            Zone::At(l) => Some(l),
            _ => None,
        });
        let (Some(v), Some(l)) = (target, at) else {
            let text = format!("{label}: no creature vehicle at a site to eat");
            self.log(Actor::Rules, Event::Result, text, &[cite::ATTACKS]);
            return super::effects::Applied::Done;
        };
        let creatures: Vec<CardIx> = (0..self.st.cards.len())
            .filter(|&c| self.st.def(c).card_type == CardType::Creature)
            .filter(|&c| present_at(&self.st, c, l))
            .collect();
        let [c] = creatures[..] else {
            let depth = self.depth();
            let text = format!(
                "{label}: {} creatures at the site: which one eats is not modelled",
                creatures.len()
            );
            self.trace
                .not_modelled(depth, Actor::Rules, text, &[cite::ATTACKS]);
            return super::effects::Applied::Stop;
        };
        let stats = &self.st.def(v).stats;
        let (m, s) = (stats.maneuver.unwrap_or(0), stats.landspeed.unwrap_or(0));
        let (printed, added) = self.ferocity(c);
        let fer = printed + added;
        self.log(
            actor(me),
            Event::Result,
            format!(
                "{label}: {}'s ferocity {fer} + destiny must be more than {}'s maneuver {m} + landspeed {s} = {}: destiny > {}",
                self.name(c),
                self.name(v),
                m + s,
                m + s - fer
            ),
            &[cite::ATTACKS, super::rules::VEHICLES_CREATURE],
        );
        let test = DestinyTest {
            less_than: None,
            greater_than: Some(Amount::Value(m + s - fer)),
            success: vec![
                Effect::SendTo {
                    card: vehicle,
                    to: Dest::LostPile,
                },
                Effect::AddFerocity(c, add),
            ],
            failure: Vec::new(),
        };
        self.destiny_effect(ix, me, label, test)
    }

    /// A creature vehicle about to be lost: the characters aboard it "jump off"
    /// (disembark) at the same site and survive (AR Vehicles - Creature Vehicles).
    pub(super) fn jump_off(&mut self, v: CardIx) {
        let creature_vehicle = self.st.def(v).is_creature_vehicle();
        let Zone::At(l) = self.st.zone[v] else {
            return;
        };
        if !creature_vehicle
            || self.st.locations[l].geo.kind != Some(crate::engine::swccg::model::LocKind::Site)
        {
            return;
        }
        for c in self.st.cards_on(v) {
            if self.st.def(c).card_type != CardType::Character {
                continue;
            }
            self.st.put(c, Zone::At(l));
            let text = format!(
                "{} jumps off {} (a creature vehicle about to be lost) and disembarks at {}",
                self.name(c),
                self.name(v),
                self.st.locations[l].title
            );
            self.log(
                actor(self.st.owner(c)),
                Event::StateChange,
                text,
                &[super::rules::VEHICLES_CREATURE],
            );
        }
    }
}

/// A creature's text that relocates a card it defeats to a location instead of eating
/// it ("… relocated to Wampa Cave"): `to` names the location (board name or title).
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DefeatedTo {
    pub to: String,
    #[serde(default)]
    pub text: Option<String>,
}

/// A card's power in an attack: `printed`, with the modifiers played on `name`'s power
/// during the attack, each by its own operation (AR Modifiers; "may not be reduced",
/// AR Reduce). A value that needs a ruling is returned as unresolved.
fn played_power(name: &str, printed: i64, played: &[super::battle::ModSpec]) -> Total {
    use super::battle::{OpSpec, Target, to_op};
    use super::values::{Base, Mode, Modifier, Rules, compute};
    let target = Target::Power(name.to_string());
    let mut guarded = false;
    let mut mods = Vec::new();
    for m in played.iter().filter(|m| m.target == target) {
        if let OpSpec::NotReduced(g) = m.op {
            guarded |= g;
            continue;
        }
        let mut md = Modifier::new(m.source.clone(), to_op(m.op)).mode(Mode::Used);
        if m.cumulative {
            md = md.cumulative();
        }
        if matches!(m.op, OpSpec::Free(_) | OpSpec::Lose(_)) {
            md = md.canceled("`free` and `lose` apply to a cost or to immunity, not to power");
        }
        mods.push(md);
    }
    let base = Base::of(name, printed);
    let mods = super::reduce::guard(&base, mods, guarded);
    compute(&format!("{name}'s power"), &base, &mods, Rules::default())
}

#[cfg(test)]
mod tests {
    use super::super::battle::{ModSpec, OpSpec, Target};
    use super::super::model::Side;

    fn played(op: OpSpec) -> ModSpec {
        ModSpec {
            source: "Played card".into(),
            side: Side::Light,
            target: Target::Power("Palpatine".into()),
            op,
            optional: true,
            cumulative: false,
            requires: Vec::new(),
            cite: None,
        }
    }

    fn value(op: OpSpec) -> Option<i64> {
        super::played_power("Palpatine", 6, &[played(op)]).value
    }

    /// AR Modifiers: a modifier played during an attack applies with its own
    /// operation; a subtraction lowers the power, a multiplication multiplies it.
    #[test]
    fn every_played_power_operation_applies_in_an_attack() {
        assert_eq!(value(OpSpec::Add(2)), Some(8));
        assert_eq!(value(OpSpec::Sub(2)), Some(4));
        assert_eq!(value(OpSpec::Mul(2)), Some(12));
        assert_eq!(value(OpSpec::Reset(1)), Some(1));
        assert_eq!(value(OpSpec::Limit(3)), Some(3));
        assert_eq!(
            super::played_power("Uutkik", 2, &[played(OpSpec::Sub(2))]).value,
            Some(2)
        );
    }
}
