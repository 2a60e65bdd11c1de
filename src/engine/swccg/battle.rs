//! Battles (AR Ch.6): initiation, weapons segment, power segment in its
//! seven steps, damage segment, ending.
//!
//! [`resolve`] is a pure function of a [`Battle`] (the cards at the battle
//! location, the modifiers in effect in the order they occurred, each
//! player's ordered Reserve Deck) and its [`Script`] (the players'
//! choices). Every number it reports carries a cited breakdown in the trace.
//! What it does not model it says so; a choice the script lacks stops the
//! battle with "needs a decision from ...".

use super::destiny::{self, DestinyCard, Plan};
use super::values::{Base, Effect, Mode, Modifier, Op, Rules, Shown, Term, Total, cite, compute};
use crate::engine::Cited;
use serde::Deserialize;

pub use crate::engine::swccg::model::Side;

/// Card types that matter to a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Character,
    Starship,
    Vehicle,
    Weapon,
    Device,
    Creature,
}

/// How a character is aboard a starship or vehicle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    #[default]
    Pilot,
    Driver,
    Passenger,
}

/// A card at (or arriving at) the battle location.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub name: String,
    /// Its card title where `name` tells copies apart: the modifiers of copies of one
    /// card are not cumulative (AR Cumulatively).
    #[serde(default)]
    pub title: Option<String>,
    pub side: Side,
    pub kind: Kind,
    #[serde(default)]
    pub power: Option<i64>,
    #[serde(default)]
    pub ability: Option<i64>,
    #[serde(default)]
    pub forfeit: Option<i64>,
    #[serde(default)]
    pub armor: Option<i64>,
    #[serde(default)]
    pub maneuver: Option<i64>,
    /// Defense value of a creature.
    #[serde(default)]
    pub defense: Option<i64>,
    /// Ferocity of a creature (its "power").
    #[serde(default)]
    pub ferocity: Option<i64>,
    /// Printed "immune to attrition < X".
    #[serde(default)]
    pub immune_to_attrition: Option<i64>,
    /// "Adds X to power of anything he pilots."
    #[serde(default)]
    pub adds_power_piloting: Option<i64>,
    /// Ability of a starship's or vehicle's permanent pilot.
    #[serde(default)]
    pub permanent_pilot: Option<i64>,
    /// "Permanent pilot … adds N to power": what its permanent pilot adds to its power.
    #[serde(default)]
    pub permanent_pilot_power: Option<i64>,
    /// The starship or vehicle this card is aboard.
    #[serde(default)]
    pub aboard: Option<String>,
    #[serde(default)]
    pub role: Role,
    /// A starship or vehicle whose cockpit/cargo bay encloses its occupants.
    #[serde(default)]
    pub enclosed: bool,
    #[serde(default)]
    pub presence_icon: bool,
    /// "Draws X battle destiny if unable to otherwise."
    #[serde(default)]
    pub draws_if_unable: Option<u32>,
    /// "If both players draw only one battle destiny and yours is higher, reduces
    /// opponent's total battle destiny to zero" (`single_destiny.rs`).
    #[serde(default)]
    pub zeroes_lower_single_destiny: bool,
    /// Already battled this turn: cannot participate.
    #[serde(default)]
    pub battled_this_turn: bool,
    /// Not at the battle location until it arrives (react, Run Luke, Run!).
    #[serde(default)]
    pub elsewhere: bool,
    /// Already hit by a weapon (fired on the board before the battle is totaled).
    #[serde(default)]
    pub hit: bool,
    /// Its forfeit is 0 (a weapon hit that says so).
    #[serde(default)]
    pub forfeit_zero: bool,
    /// The board card this is (a battle on the board): results are joined back to the
    /// board by this index, never by name.
    #[serde(skip)]
    pub ix: Option<usize>,
}

/// What a modifier changes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Target {
    Power(String),
    Ability(String),
    Forfeit(String),
    Defense(String),
    Immunity(String),
    /// The side's total power in the battle.
    TotalPower,
    BattleDestinies,
    PowerDestinies,
    AttritionDestinies,
    /// Each battle destiny draw of the side.
    EachBattleDestiny,
    TotalBattleDestiny,
    /// Attrition the side creates against the opponent.
    Attrition,
    /// Battle damage against the side.
    BattleDamage,
    /// The cost of initiating this battle.
    BattleCost,
    // ---- card values outside battle (AR Ch.1 Section E; observed as `values.*`)
    Armor(String),
    Maneuver(String),
    Hyperspeed(String),
    Landspeed(String),
    Deploy(String),
    Destiny(String),
    Politics(String),
    // ---- destiny totals outside battle (AR Ch.1 Section F; `destiny_total`)
    /// Each destiny a side draws outside battle.
    EachDestiny,
    /// The total of the destinies a side draws outside battle.
    TotalDestiny,
}

impl Target {
    /// A value of one card: the value's name (`power`, `ability`, … `immunity`) and
    /// the card's key or title; none for a side's or a battle's value.
    pub fn per_card(&self) -> Option<(&'static str, &String)> {
        match self {
            Target::Power(n) => Some(("power", n)),
            Target::Ability(n) => Some(("ability", n)),
            Target::Forfeit(n) => Some(("forfeit", n)),
            Target::Defense(n) => Some(("defense", n)),
            Target::Immunity(n) => Some(("immunity", n)),
            Target::Armor(n) => Some(("armor", n)),
            Target::Maneuver(n) => Some(("maneuver", n)),
            Target::Hyperspeed(n) => Some(("hyperspeed", n)),
            Target::Landspeed(n) => Some(("landspeed", n)),
            Target::Deploy(n) => Some(("deploy", n)),
            Target::Destiny(n) => Some(("destiny", n)),
            Target::Politics(n) => Some(("politics", n)),
            Target::TotalPower
            | Target::BattleDestinies
            | Target::PowerDestinies
            | Target::AttritionDestinies
            | Target::EachBattleDestiny
            | Target::TotalBattleDestiny
            | Target::Attrition
            | Target::BattleDamage
            | Target::BattleCost
            | Target::EachDestiny
            | Target::TotalDestiny => None,
        }
    }
}

impl std::fmt::Display for Target {
    /// The value a modifier changes, in words ("Lord Vader's immunity to attrition").
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let of = |f: &mut std::fmt::Formatter<'_>, n: &str, what: &str| write!(f, "{n}'s {what}");
        match self {
            Target::Power(n) => of(f, n, "power"),
            Target::Ability(n) => of(f, n, "ability"),
            Target::Forfeit(n) => of(f, n, "forfeit"),
            Target::Defense(n) => of(f, n, "defense value"),
            Target::Immunity(n) => of(f, n, "immunity to attrition"),
            Target::Armor(n) => of(f, n, "armor"),
            Target::Maneuver(n) => of(f, n, "maneuver"),
            Target::Hyperspeed(n) => of(f, n, "hyperspeed"),
            Target::Landspeed(n) => of(f, n, "landspeed"),
            Target::Deploy(n) => of(f, n, "deploy cost"),
            Target::Destiny(n) => of(f, n, "destiny number"),
            Target::Politics(n) => of(f, n, "politics"),
            Target::TotalPower => f.write_str("total power"),
            Target::BattleDestinies => f.write_str("the number of battle destinies"),
            Target::PowerDestinies => f.write_str("the number of power destinies"),
            Target::AttritionDestinies => f.write_str("the number of attrition destinies"),
            Target::EachBattleDestiny => f.write_str("each battle destiny"),
            Target::TotalBattleDestiny => f.write_str("total battle destiny"),
            Target::Attrition => f.write_str("attrition"),
            Target::BattleDamage => f.write_str("battle damage"),
            Target::BattleCost => f.write_str("the cost of initiating the battle"),
            Target::EachDestiny => f.write_str("each destiny drawn"),
            Target::TotalDestiny => f.write_str("the destiny total"),
        }
    }
}

impl std::fmt::Display for OpSpec {
    /// The operation in words ("+3", "reset to 0", "may not be reduced").
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            OpSpec::Add(n) => write!(f, "+{n}"),
            OpSpec::Sub(n) => write!(f, "-{n}"),
            OpSpec::Mul(n) => write!(f, "multiplied by {n}"),
            OpSpec::Div(n) => write!(f, "divided by {n}"),
            OpSpec::Reset(n) => write!(f, "reset to {n}"),
            OpSpec::Define(n) => write!(f, "defined as {n}"),
            OpSpec::Substitute(n) => write!(f, "substituted by {n}"),
            OpSpec::Limit(n) => write!(f, "limited to {n}"),
            OpSpec::Free(true) => f.write_str("free"),
            OpSpec::Free(false) => f.write_str("not free"),
            OpSpec::Lose(true) => f.write_str("lost"),
            OpSpec::Lose(false) => f.write_str("kept"),
            OpSpec::NotReduced(true) => f.write_str("may not be reduced"),
            OpSpec::NotReduced(false) => f.write_str("may be reduced"),
        }
    }
}

/// The operation, as written in YAML (`add: 2`, `reset: 0`, `free: true`...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum OpSpec {
    Add(i64),
    Sub(i64),
    Mul(i64),
    Div(i64),
    Reset(i64),
    Define(i64),
    Substitute(i64),
    Limit(i64),
    Free(bool),
    /// For immunity: the card loses its immunity (overrides any gain).
    Lose(bool),
    /// The value may not be reduced (AR Reduce): a later modifier or reset that
    /// would lower it fails.
    NotReduced(bool),
}

impl OpSpec {
    /// What it adds to a value (a subtraction adds less than nothing); none for
    /// every other operation.
    pub fn added(&self) -> Option<i64> {
        match self {
            OpSpec::Add(n) => Some(*n),
            OpSpec::Sub(n) => Some(-n),
            OpSpec::Mul(_)
            | OpSpec::Div(_)
            | OpSpec::Reset(_)
            | OpSpec::Define(_)
            | OpSpec::Substitute(_)
            | OpSpec::Limit(_)
            | OpSpec::Free(_)
            | OpSpec::Lose(_)
            | OpSpec::NotReduced(_) => None,
        }
    }
}

/// A modifier in effect, listed in the order it occurred.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModSpec {
    pub source: String,
    /// The side whose value is modified (for side-wide targets).
    pub side: Side,
    pub target: Target,
    pub op: OpSpec,
    /// Optional modifiers played during the weapons segment are locked in:
    /// their conditions are not checked again.
    #[serde(default)]
    pub optional: bool,
    #[serde(default)]
    pub cumulative: bool,
    /// Automatic modifiers apply only while these cards participate.
    #[serde(default)]
    pub requires: Vec<String>,
    /// Override the cited rule for this term.
    #[serde(default)]
    pub cite: Option<String>,
}

/// A condition on drawing battle destiny ("Total ability of 6 or more
/// required for you to draw battle destiny here").
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    pub source: String,
    pub side: Side,
    pub min_ability: i64,
}

/// The battle as it stands when initiated.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Battle {
    pub location: String,
    #[serde(default)]
    pub site: bool,
    pub initiator: Side,
    pub cards: Vec<Card>,
    #[serde(default)]
    pub modifiers: Vec<ModSpec>,
    #[serde(default)]
    pub conditions: Vec<Condition>,
    /// Raises of the ability required to draw battle destiny (`min_ability`: the
    /// amount added for `side`; `ability_required.rs`).
    #[serde(default)]
    pub raises: Vec<Condition>,
    #[serde(default)]
    pub reserve: Reserves,
    /// Force each player may use (Force Pile), when the scenario tracks it.
    #[serde(default)]
    pub force_pile: Option<Pair>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    pub light: i64,
    pub dark: i64,
}

/// Each player's Reserve Deck, top card first.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Reserves {
    #[serde(default)]
    pub light: Vec<DeckCard>,
    #[serde(default)]
    pub dark: Vec<DeckCard>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckCard {
    pub name: String,
    /// Printed destiny; several for cards such as R2-D2.
    pub destiny: DestinyValues,
    /// Drawn on the stack and canceled there (not redrawn): the action that canceled it.
    #[serde(skip)]
    pub canceled_by: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum DestinyValues {
    One(i64),
    Many(Vec<i64>),
}

/// Which value a weapon's destiny is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Defense {
    Ability,
    Armor,
    Maneuver,
    Defense,
}

/// The players' choices a battle's numbers need from the board: the value chosen
/// for a drawn card with several destiny numbers, in the order drawn.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Script {
    pub destiny_values: Vec<(Side, i64)>,
}

/// Per-side results.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SideResult {
    pub total_power: Option<Total>,
    pub battle_destinies: u32,
    pub total_battle_destiny: Option<Total>,
    /// Attrition against this side; `None` when it does not exist.
    pub attrition: Option<i64>,
    pub battle_damage: i64,
    pub force_lost: i64,
    pub forfeited: Vec<String>,
    pub lost: Vec<String>,
    pub out_of_play: Vec<String>,
    /// Attrition left over and ignored (nothing left that must be forfeited).
    pub attrition_ignored: i64,
    pub battle_damage_canceled: i64,
    /// Power destinies drawn (or to draw) in the power segment.
    pub power_destinies: u32,
    /// Attrition destinies drawn (or to draw) in the power segment.
    pub attrition_destinies: u32,
}

/// The outcome of a battle.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BattleResult {
    pub lines: Vec<Cited>,
    pub light: SideResult,
    pub dark: SideResult,
    pub winner: Option<Side>,
    pub cost: Option<Total>,
    /// The battle ended before the damage segment.
    pub ended_early: bool,
    /// The battle could not be initiated.
    pub not_initiated: Option<String>,
    pub needs: Option<String>,
    /// The player whose decision `needs` is, when it is a player's (a missing
    /// choice, not a script error).
    pub needs_from: Option<Side>,
    /// Cards drawn from each Reserve Deck (Light, Dark) for destiny: each
    /// went to its owner's Used Pile when its draw completed.
    pub destiny_cards_drawn: [usize; 2],
    /// [`resolve_to_damage`]: the battle reached its damage segment, which the
    /// caller carries out as the players' decisions.
    pub damage: Option<DamageStart>,
    /// The line where the power segment begins, and the line before which its
    /// first destiny is drawn: the lines between say how many destinies each
    /// side draws ([`BattleResult::count_lines`]).
    pub power_from: Option<usize>,
    pub first_draw: Option<usize>,
    /// The line where the battle is initiated: from there to `power_from`,
    /// the lines say what the board traced when the battle was initiated (its
    /// cost, and the weapons segment beginning).
    pub initiation_from: Option<usize>,
}

impl BattleResult {
    /// The lines from the initiation to the power segment: what a board
    /// traces as it happens (none when the power segment was not reached).
    pub fn initiation_lines(&self) -> std::ops::Range<usize> {
        match (self.initiation_from, self.power_from) {
            (Some(a), Some(b)) if a <= b => a..b,
            _ => 0..0,
        }
    }

    /// The power segment's lines before its first destiny draw: how many
    /// destinies each side draws, and why (none when it was not reached).
    pub fn count_lines(&self) -> &[Cited] {
        let Some(from) = self.power_from else {
            return &[];
        };
        let to = self.first_draw.unwrap_or(self.lines.len());
        self.lines.get(from..to).unwrap_or(&[])
    }
    pub fn side(&self, s: Side) -> &SideResult {
        match s {
            Side::Light => &self.light,
            Side::Dark => &self.dark,
        }
    }
    fn side_mut(&mut self, s: Side) -> &mut SideResult {
        match s {
            Side::Light => &mut self.light,
            Side::Dark => &mut self.dark,
        }
    }
    fn say(&mut self, text: impl Into<String>, cites: &[&'static str]) {
        self.lines.push(Cited::new(text, cites));
    }
}

struct Live<'a> {
    b: &'a Battle,
    at: Vec<bool>,
    hit: Vec<bool>,
    forfeit_zero: Vec<bool>,
    reserve_used: [usize; 2],
    decks: [Vec<DestinyCard>; 2],
}

impl<'a> Live<'a> {
    fn idx(&self, name: &str) -> Option<usize> {
        self.b
            .cards
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
    }
    fn card(&self, i: usize) -> &'a Card {
        &self.b.cards[i]
    }
    /// Participating: at the location, active, has not battled this turn,
    /// and (if aboard something) its carrier participates too.
    fn participating(&self, i: usize) -> bool {
        let c = self.card(i);
        if !self.at[i] || c.battled_this_turn {
            return false;
        }
        match &c.aboard {
            Some(host) => self
                .idx(host)
                .is_some_and(|h| h != i && self.participating_shallow(h)),
            None => true,
        }
    }
    fn participating_shallow(&self, i: usize) -> bool {
        let c = self.card(i);
        self.at[i] && !c.battled_this_turn
    }
    fn participants(&self, side: Side) -> Vec<usize> {
        (0..self.b.cards.len())
            .filter(|&i| self.card(i).side == side && self.participating(i))
            .collect()
    }
    fn pilots_of(&self, craft: usize) -> Vec<usize> {
        let name = &self.card(craft).name;
        (0..self.b.cards.len())
            .filter(|&i| {
                self.participating(i)
                    && self
                        .card(i)
                        .aboard
                        .as_deref()
                        .is_some_and(|a| a.eq_ignore_ascii_case(name))
                    && matches!(self.card(i).role, Role::Pilot | Role::Driver)
            })
            .collect()
    }
    fn piloted(&self, craft: usize) -> bool {
        let c = self.card(craft);
        c.permanent_pilot.is_some() || !self.pilots_of(craft).is_empty()
    }
    /// Presence: total ability of 1 or more, or a Presence icon.
    fn presence(&self, side: Side) -> bool {
        let mut ability = 0i64;
        for i in self.participants(side) {
            let c = self.card(i);
            if c.presence_icon {
                return true;
            }
            ability = ability
                .saturating_add(self.ability(i).or_zero())
                .saturating_add(c.permanent_pilot.unwrap_or(0));
        }
        ability >= 1
    }
    fn mods_for(&self, target: &Target, side: Side) -> Vec<Modifier> {
        let mut out = Vec::new();
        for m in &self.b.modifiers {
            if &m.target != target || matches!(m.op, OpSpec::NotReduced(_)) {
                continue;
            }
            let card_target = matches!(
                target,
                Target::Power(_)
                    | Target::Ability(_)
                    | Target::Forfeit(_)
                    | Target::Defense(_)
                    | Target::Immunity(_)
            );
            if !card_target && m.side != side {
                continue;
            }
            let mut md = Modifier::new(m.source.clone(), to_op(m.op));
            if m.cumulative {
                md = md.cumulative();
            }
            if matches!(m.op, OpSpec::Lose(_)) && !matches!(target, Target::Immunity(_)) {
                md = md.canceled("`lose` applies to immunity to attrition only");
            }
            if matches!(m.op, OpSpec::Free(_)) && *target != Target::BattleCost {
                md = md.canceled("`free` applies to a cost only");
            }
            if m.optional {
                md = md.mode(Mode::Used);
            }
            if let Some(c) = &m.cite
                && let Some(known) = cite::ALL.iter().find(|k| **k == c.as_str())
            {
                md = md.cite(known);
            }
            if !m.optional {
                let needs: Vec<&String> = if m.requires.is_empty() {
                    // A card's own automatic text needs the card in the battle.
                    self.idx(&m.source).map(|_| &m.source).into_iter().collect()
                } else {
                    m.requires.iter().collect()
                };
                if let Some(missing) = needs
                    .iter()
                    .find(|n| self.idx(n).is_none_or(|j| !self.participating(j)))
                {
                    md = md.canceled(format!("{missing} is not participating (automatic modifiers need their conditions met)"));
                }
            }
            out.push(md);
        }
        out
    }
    fn value(&self, i: usize, label: &str, base: Option<i64>, target: Target) -> Total {
        let c = self.card(i);
        let base = Base {
            source: c.name.clone(),
            value: base,
            cite: cite::MODIFIERS,
        };
        let mods = self.mods_for(&target, c.side);
        let mods = super::reduce::guard(&base, mods, self.not_reduced(&target));
        compute(
            &format!("{}'s {label}", c.name),
            &base,
            &mods,
            Rules::default(),
        )
    }
    /// Is the value under a "may not be reduced" (AR Reduce)?
    fn not_reduced(&self, target: &Target) -> bool {
        self.b
            .modifiers
            .iter()
            .any(|m| &m.target == target && m.op == OpSpec::NotReduced(true))
    }
    fn ability(&self, i: usize) -> Total {
        let c = self.card(i);
        self.value(i, "ability", c.ability, Target::Ability(c.name.clone()))
    }
    fn forfeit(&self, i: usize) -> Total {
        let c = self.card(i);
        let mut t = self.value(i, "forfeit", c.forfeit, Target::Forfeit(c.name.clone()));
        if self.forfeit_zero[i] && t.value.is_some() {
            t.value = Some(0);
            t.terms.push(Term {
                source: "weapon hit".into(),
                shown: Shown::Op(Op::Reset(0)),
                effect: Effect::Applied,
                cite: cite::FIRING_WEAPONS,
            });
        }
        t
    }
    /// A participating card's power toward its side's total.
    fn power(&self, i: usize) -> Option<Total> {
        let c = self.card(i);
        match c.kind {
            Kind::Character => {
                if c.aboard.is_some() {
                    return None; // pilots add to the craft; passengers add nothing
                }
                Some(self.value(i, "power", c.power, Target::Power(c.name.clone())))
            }
            Kind::Starship | Kind::Vehicle => {
                let mut mods = Vec::new();
                if !self.piloted(i) {
                    mods.push(Modifier::new("unpiloted", Op::Reset(0)).cite(cite::UNPILOTED));
                }
                if let Some(n) = c.permanent_pilot_power {
                    mods.push(
                        Modifier::new("permanent pilot", Op::Add(n))
                            .cite(super::capacity::PERMANENT_PILOT),
                    );
                }
                for p in self.pilots_of(i) {
                    let pc = self.card(p);
                    if pc.role == Role::Pilot
                        && let Some(n) = pc.adds_power_piloting
                    {
                        // Copies of one pilot card piloting one craft: not cumulative.
                        let who = pc.title.as_deref().unwrap_or(&pc.name);
                        mods.push(
                            Modifier::new(format!("{who} piloting"), Op::Add(n))
                                .cite(cite::TOTALING_POWER),
                        );
                    }
                }
                mods.extend(self.mods_for(&Target::Power(c.name.clone()), c.side));
                let base = Base {
                    source: c.name.clone(),
                    value: c.power,
                    cite: cite::TOTALING_POWER,
                };
                let mods = super::reduce::guard(
                    &base,
                    mods,
                    self.not_reduced(&Target::Power(c.name.clone())),
                );
                Some(compute(
                    &format!("{}'s power", c.name),
                    &base,
                    &mods,
                    Rules::default(),
                ))
            }
            _ => None,
        }
    }
    /// Ability toward battle destiny: cards present and pilots/drivers; not passengers.
    fn destiny_ability(&self, side: Side) -> i64 {
        let mut a = 0i64;
        for i in self.participants(side) {
            let c = self.card(i);
            match c.kind {
                Kind::Character
                    if (c.aboard.is_none() || matches!(c.role, Role::Pilot | Role::Driver)) =>
                {
                    a = a.saturating_add(self.ability(i).or_zero());
                }
                Kind::Starship | Kind::Vehicle => {
                    a = a.saturating_add(c.permanent_pilot.unwrap_or(0))
                }
                _ => {}
            }
        }
        a
    }
    fn draw(&mut self, side: Side, req: &destiny::Request) -> destiny::DestinyResult {
        let deck = &self.decks[side.ix()];
        let from = self.reserve_used[side.ix()].min(deck.len());
        let o = destiny::draw(req, &deck[from..]);
        self.reserve_used[side.ix()] += o.consumed;
        o
    }
}

/// A scenario's modifier operation as the value engine's.
pub(crate) fn to_op(o: OpSpec) -> Op {
    match o {
        OpSpec::Add(n) => Op::Add(n),
        OpSpec::Sub(n) => Op::Sub(n),
        OpSpec::Mul(n) => Op::Mul(n),
        OpSpec::Div(n) => Op::Div(n),
        OpSpec::Reset(n) => Op::Reset(n),
        OpSpec::Define(n) => Op::Define(n),
        OpSpec::Substitute(n) => Op::Substitute(n),
        OpSpec::Limit(n) => Op::Limit(n),
        OpSpec::Free(_) => Op::Free,
        OpSpec::Lose(_) => Op::Reset(0),
        OpSpec::NotReduced(_) => Op::Add(0),
    }
}

fn deck(cards: &[DeckCard]) -> Vec<DestinyCard> {
    cards
        .iter()
        .map(|c| DestinyCard {
            name: c.name.clone(),
            values: match &c.destiny {
                DestinyValues::One(v) => vec![*v],
                DestinyValues::Many(v) => v.clone(),
            },
            canceled_by: c.canceled_by.clone(),
        })
        .collect()
}

fn live(b: &Battle) -> Live<'_> {
    Live {
        b,
        at: b.cards.iter().map(|c| !c.elsewhere).collect(),
        hit: b.cards.iter().map(|c| c.hit).collect(),
        forfeit_zero: b.cards.iter().map(|c| c.forfeit_zero).collect(),
        reserve_used: [0, 0],
        decks: [deck(&b.reserve.light), deck(&b.reserve.dark)],
    }
}

/// What initiating the battle costs its initiator: 1, with the battle cost modifiers.
pub fn cost(b: &Battle) -> Total {
    cost_of(&live(b))
}

fn cost_of(live: &Live) -> Total {
    compute(
        "battle cost",
        &Base {
            source: "initiating battle".into(),
            value: Some(1),
            cite: cite::INITIATE_BATTLE,
        },
        &live.mods_for(&Target::BattleCost, live.b.initiator),
        Rules::default(),
    )
}

/// Initiation through the responses to winning; `false` when the battle ended
/// before its damage segment.
fn up_to_damage(live: &mut Live, out: &mut BattleResult, script: &Script) -> bool {
    if !initiate(live, out) {
        return false;
    }
    // The responses to the initiation and the weapons segment are actions on the
    // board's stack (`weapons.rs`, `battle_early.rs`).
    out.say("weapons segment begins", &[cite::WEAPONS_SEGMENT]);
    let Some(d) = power_segment_draws(live, out, script) else {
        return false;
    };
    total_power(live, out, &d);
    attrition(live, out, &d);
    winner_and_loser(live, out);
    true
}

/// The destinies drawn in the power segment, by side index.
struct PowerDraws {
    power_destiny: [Option<Total>; 2],
    battle_destiny: [Option<Total>; 2],
    attrition_destiny: [Option<i64>; 2],
}

/// Initiating the battle: presence of both players, cards that battled already, the cost.
/// False when the battle is not initiated.
fn initiate(live: &mut Live, out: &mut BattleResult) -> bool {
    let b = live.b;
    let me = b.initiator;
    // Initiate: both players must occupy the location.
    for s in [me, me.other()] {
        if !live.presence(s) {
            let why = format!(
                "{s} has no presence at {}: a battle cannot be initiated",
                b.location
            );
            out.say(
                why.clone(),
                &[cite::BATTLE, cite::INITIATE_BATTLE, cite::PRESENCE],
            );
            out.not_initiated = Some(why);
            return false;
        }
    }
    for c in b.cards.iter().filter(|c| c.battled_this_turn) {
        out.say(
            format!(
                "{} already battled this turn and does not participate",
                c.name
            ),
            &[cite::BATTLE, cite::PARTICIPATING],
        );
    }
    let cost = cost_of(live);
    if let (Some(fp), Some(c)) = (b.force_pile, cost.value) {
        let have = if me == Side::Light { fp.light } else { fp.dark };
        if have < c {
            let why = format!("{me} has {have} Force and initiating battle costs {c}");
            out.say(why.clone(), &[cite::INITIATE_BATTLE]);
            out.not_initiated = Some(why);
            out.cost = Some(cost);
            return false;
        }
    }
    out.initiation_from = Some(out.lines.len());
    out.say(
        format!("{me} initiates battle at {}: {cost}", b.location),
        &[cite::INITIATE_BATTLE, cite::BATTLE],
    );
    out.cost = Some(cost);

    true
}

/// The power segment's destiny draws: power destinies, battle destinies (with responses
/// to a battle destiny just drawn) and attrition destinies. None when a decision is needed.
fn power_segment_draws(
    live: &mut Live,
    out: &mut BattleResult,
    script: &Script,
) -> Option<PowerDraws> {
    let me = live.b.initiator;
    // Power segment.
    out.power_from = Some(out.lines.len());
    out.say("power segment begins", &[cite::POWER_SEGMENT]);
    let order = [me, me.other()];
    let mut power_destiny: [Option<Total>; 2] = [None, None];
    for s in order {
        let count = compute(
            &format!("{s}'s power destiny count"),
            &Base {
                source: "start".into(),
                value: Some(0),
                cite: cite::POWER_DESTINIES,
            },
            &live.mods_for(&Target::PowerDestinies, s),
            Rules::default(),
        );
        let k = count.or_zero().clamp(0, 64) as u32;
        out.side_mut(s).power_destinies = k;
        if k > 0 {
            let req = destiny::Request::new("power destiny", &s.to_string(), k);
            out.first_draw.get_or_insert(out.lines.len());
            let o = live.draw(s, &req);
            push_notes(out, &o);
            power_destiny[s.ix()] = o.total;
        }
    }
    let mut bd: [Option<Total>; 2] = [None, None];
    let mut drawn: [Option<destiny::DestinyResult>; 2] = [None, None];
    for s in order {
        let o = battle_destinies(live, out, script, s);
        drawn[s.ix()].clone_from(&o);
        if let Some(o) = o {
            out.side_mut(s).battle_destinies =
                o.counted + o.draws.iter().filter(|d| d.substituted).count() as u32;
            if o.needs.is_some() {
                out.needs = o.needs.clone();
                out.needs_from = Some(s);
                return None;
            }
            bd[s.ix()] = o.total.clone();
            out.side_mut(s).total_battle_destiny = o.total;
        }
    }
    let holders = [Side::Light, Side::Dark].map(|s| {
        live.participants(s)
            .into_iter()
            .filter(|&i| live.card(i).zeroes_lower_single_destiny)
            .map(|i| live.card(i).name.clone())
            .collect::<Vec<_>>()
    });
    let results = [drawn[0].as_ref(), drawn[1].as_ref()];
    for (text, cites) in super::single_destiny::compare(&holders, results, &mut bd) {
        out.say(text, &cites);
    }
    for s in order {
        out.side_mut(s).total_battle_destiny.clone_from(&bd[s.ix()]);
    }
    let mut attrition_destiny: [Option<i64>; 2] = [None, None];
    for s in order {
        let count = compute(
            &format!("{s}'s attrition destiny count"),
            &Base {
                source: "start".into(),
                value: Some(0),
                cite: cite::ATTRITION_DESTINIES,
            },
            &live.mods_for(&Target::AttritionDestinies, s),
            Rules::default(),
        );
        let mut k = count.or_zero().clamp(0, 64) as u32;
        if k > 0 && bd[s.ix()].is_none() {
            out.say(
                format!(
                    "{s} has no total battle destiny: its {k} attrition {} reduced to an unmodifiable zero",
                    if k == 1 { "destiny is" } else { "destinies are" }
                ),
                &[cite::ATTRITION_DESTINIES],
            );
            k = 0;
        }
        out.side_mut(s).attrition_destinies = k;
        if k > 0 {
            let o = live.draw(
                s,
                &destiny::Request::new("attrition destiny", &s.to_string(), k),
            );
            push_notes(out, &o);
            attrition_destiny[s.ix()] = o.total_value();
        }
    }
    Some(PowerDraws {
        power_destiny,
        battle_destiny: bd,
        attrition_destiny,
    })
}

/// Each side's total power.
fn total_power(live: &mut Live, out: &mut BattleResult, d: &PowerDraws) {
    let me = live.b.initiator;
    let order = [me, me.other()];
    let (power_destiny, bd) = (&d.power_destiny, &d.battle_destiny);
    // Totaling power.
    for s in order {
        let mut parts: Vec<Modifier> = Vec::new();
        for i in live.participants(s) {
            if let Some(t) = live.power(i)
                && let Some(v) = t.value
            {
                if t.terms.len() > 1 {
                    out.say(format!("{t}"), &t.cites());
                }
                match flat_terms(&t) {
                    // Sums show each term in the side's total.
                    Some(terms) => parts.extend(terms),
                    None => parts.push(
                        Modifier::new(live.card(i).name.clone(), Op::Add(v))
                            .cite(cite::TOTALING_POWER)
                            .cumulative(),
                    ),
                }
            }
        }
        if let Some(p) = &power_destiny[s.ix()]
            && let Some(v) = p.value
        {
            parts.push(
                Modifier::new("power destiny", Op::Add(v))
                    .cite(cite::POWER_DESTINIES)
                    .cumulative(),
            );
        }
        if let Some(t) = &bd[s.ix()]
            && let Some(v) = t.value
        {
            parts.push(
                Modifier::new("battle destiny", Op::Add(v))
                    .cite(cite::TOTALING_POWER)
                    .cumulative(),
            );
        }
        parts.extend(live.mods_for(&Target::TotalPower, s));
        let (base, rest) = match parts.first() {
            Some(Modifier {
                op: Op::Add(v),
                source,
                cite: c,
                ..
            }) => (
                Base {
                    source: source.clone(),
                    value: Some(*v),
                    cite: c,
                },
                parts[1..].to_vec(),
            ),
            _ => (
                Base {
                    source: "no power".into(),
                    value: Some(0),
                    cite: cite::TOTALING_POWER,
                },
                parts.clone(),
            ),
        };
        let total = compute(
            &format!("{s}'s total power"),
            &base,
            &rest,
            Rules::default(),
        );
        out.say(format!("{total}"), &total.cites());
        out.side_mut(s).total_power = Some(total);
    }
}

/// Attrition against each side: starts from the total battle destiny, if it exists.
fn attrition(live: &mut Live, out: &mut BattleResult, d: &PowerDraws) {
    let b = live.b;
    let me = b.initiator;
    let order = [me, me.other()];
    let (bd, attrition_destiny) = (&d.battle_destiny, &d.attrition_destiny);
    // Attrition: starts from the total battle destiny, if it exists.
    for s in order {
        let against = s.other();
        let att = match &bd[s.ix()] {
            None => {
                out.say(
                    format!("{s} has no total battle destiny: no attrition against {against} (it cannot be modified)"),
                    &[cite::CALCULATING_ATTRITION, cite::ATTRITION],
                );
                for m in b
                    .modifiers
                    .iter()
                    .filter(|m| m.target == Target::Attrition && m.side == s && m.optional)
                {
                    out.say(
                        format!("{} cannot be played: optional power segment actions on attrition need attrition to exist", m.source),
                        &[cite::OPTIONAL_POWER_ACTIONS],
                    );
                }
                None
            }
            Some(t) => {
                let mut mods = Vec::new();
                if let Some(a) = attrition_destiny[s.ix()] {
                    mods.push(
                        Modifier::new("attrition destiny", Op::Add(a))
                            .cite(cite::ATTRITION_DESTINIES),
                    );
                }
                mods.extend(live.mods_for(&Target::Attrition, s));
                let base = Base {
                    source: "total battle destiny".into(),
                    value: t.value,
                    cite: cite::CALCULATING_ATTRITION,
                };
                let a = compute(
                    &format!("attrition against {against}"),
                    &base,
                    &mods,
                    Rules::default(),
                );
                out.say(format!("{a}"), &a.cites());
                a.value
            }
        };
        out.side_mut(against).attrition = att;
    }
}

/// The winner and loser, and battle damage against the loser.
fn winner_and_loser(live: &mut Live, out: &mut BattleResult) {
    // Winner and loser.
    let pl = out
        .light
        .total_power
        .as_ref()
        .map(|t| t.or_zero())
        .unwrap_or(0);
    let pd = out
        .dark
        .total_power
        .as_ref()
        .map(|t| t.or_zero())
        .unwrap_or(0);
    out.winner = if pl > pd {
        Some(Side::Light)
    } else if pd > pl {
        Some(Side::Dark)
    } else {
        None
    };
    match out.winner {
        Some(w) => {
            let loser = w.other();
            let diff = (pl - pd).saturating_abs();
            let dmg = compute(
                &format!("battle damage against {loser}"),
                &Base {
                    source: "difference in total power".into(),
                    value: Some(diff),
                    cite: cite::BATTLE_DAMAGE,
                },
                &live.mods_for(&Target::BattleDamage, loser),
                Rules::default(),
            );
            out.say(
                format!("{w} wins the battle ({pl} to {pd}); {dmg}"),
                &[cite::WINNER_AND_LOSER, cite::BATTLE_DAMAGE],
            );
            out.side_mut(loser).battle_damage = dmg.or_zero();
        }
        None => out.say(
            format!("tie at {pl}: no winner and no loser"),
            &[cite::WINNER_AND_LOSER],
        ),
    }
}

/// A card's power as separate added terms, when it is a plain sum of its
/// base and applied additions (no multiplication, reset, floor or limit).
fn flat_terms(t: &Total) -> Option<Vec<Modifier>> {
    let mut out = Vec::with_capacity(t.terms.len());
    for term in &t.terms {
        match &term.effect {
            Effect::Ignored(_) => continue,
            Effect::Base => {
                let Shown::Value(v) = term.shown else {
                    return None;
                };
                out.push(
                    Modifier::new(term.source.clone(), Op::Add(v))
                        .cite(cite::TOTALING_POWER)
                        .cumulative(),
                );
            }
            Effect::Applied => {
                let Shown::Op(Op::Add(v @ 0..)) = term.shown else {
                    return None;
                };
                out.push(
                    Modifier::new(term.source.clone(), Op::Add(v))
                        .cite(term.cite)
                        .cumulative(),
                );
            }
        }
    }
    Some(out)
}

fn push_notes(out: &mut BattleResult, o: &destiny::DestinyResult) {
    for n in &o.notes {
        out.lines.push(n.clone());
    }
}

/// Battle destiny: the In Brief steps, then the draws.
fn battle_destinies(
    live: &mut Live,
    out: &mut BattleResult,
    script: &Script,
    s: Side,
) -> Option<destiny::DestinyResult> {
    let ability = live.destiny_ability(s);
    let (raise, raised_by) = super::ability_required::total_for(&live.b.raises, s);
    if raise != 0 {
        out.say(
            format!(
                "{s}'s ability required to draw battle destiny here is {} ({})",
                4 + raise,
                raised_by.join(", ")
            ),
            &[cite::BATTLE_DESTINY_IN_BRIEF, cite::CONDITIONS_ON_DRAWING],
        );
    }
    let start = if ability >= 4 + raise { 1 } else { 0 };
    let mods = live.mods_for(&Target::BattleDestinies, s);
    let limit = mods
        .iter()
        .filter(|m| m.canceled.is_none())
        .filter_map(|m| {
            if let Op::Limit(l) = m.op {
                Some(l)
            } else {
                None
            }
        })
        .min();
    let counted = compute(
        &format!("{s}'s battle destiny count"),
        &Base {
            source: if start == 1 {
                format!("ability {ability} ({} or more)", 4 + raise)
            } else {
                format!("ability {ability} (under {})", 4 + raise)
            },
            value: Some(start),
            cite: cite::BATTLE_DESTINIES,
        },
        &mods,
        Rules::default(),
    );
    let mut x = counted.or_zero().max(0);
    out.say(format!("{counted}"), &counted.cites());
    for c in live.b.conditions.iter().filter(|c| c.side == s) {
        let min = c.min_ability + raise;
        if ability < min {
            out.say(
                format!(
                    "{}: total ability of {min} or more required; {s} has {ability}, so {x} battle destinies become 0",
                    c.source
                ),
                &[cite::CONDITIONS_ON_DRAWING, cite::BATTLE_DESTINY_IN_BRIEF],
            );
            x = 0;
        }
    }
    let y = live
        .participants(s)
        .into_iter()
        .filter_map(|i| {
            live.card(i)
                .draws_if_unable
                .map(|n| (n, live.card(i).name.clone()))
        })
        .max_by_key(|(n, _)| *n);
    let (draws, cap) = match &y {
        Some((yn, who)) if i64::from(*yn) > x => {
            out.say(
                format!(
                    "{who} draws {yn} battle destiny if unable to otherwise: {s} may draw {yn}"
                ),
                &[cite::UNABLE_OTHERWISE, cite::BATTLE_DESTINY_IN_BRIEF],
            );
            (i64::from(*yn), Some(*yn))
        }
        _ => (x, limit.map(|l| l.max(0) as u32)),
    };
    if draws <= 0 {
        out.say(
            format!("{s} draws no battle destiny"),
            &[cite::BATTLE_DESTINY_IN_BRIEF],
        );
        return None;
    }
    let mut req = destiny::Request::new("battle destiny", &s.to_string(), 0);
    req.limit = cap;
    req.each_draw = live.mods_for(&Target::EachBattleDestiny, s);
    req.to_total = live.mods_for(&Target::TotalBattleDestiny, s);
    req.value_choices = script
        .destiny_values
        .iter()
        .filter(|(side, _)| *side == s)
        .map(|(_, v)| *v)
        .collect();
    let n = draws.clamp(0, 64) as usize;
    req.plans = vec![Plan::Normal; n];
    out.first_draw.get_or_insert(out.lines.len());
    let o = live.draw(s, &req);
    push_notes(out, &o);
    Some(o)
}

struct Pending {
    attrition: i64,
    damage: i64,
    immune: Vec<bool>,
}

/// What each side must satisfy, with immunity fixed at the start of the damage segment.
fn fixed_immunity(live: &Live, out: &mut BattleResult) -> [Pending; 2] {
    let n = live.b.cards.len();
    // Immunity is fixed at the start of the damage segment.
    let mut pend = [
        Pending {
            attrition: 0,
            damage: 0,
            immune: vec![false; n],
        },
        Pending {
            attrition: 0,
            damage: 0,
            immune: vec![false; n],
        },
    ];
    for s in [Side::Light, Side::Dark] {
        let att = out.side(s).attrition;
        pend[s.ix()].attrition = att.unwrap_or(0).max(0);
        pend[s.ix()].damage = out.side(s).battle_damage.max(0);
        for i in live.participants(s).into_iter().filter(|_| att.is_some()) {
            if let Some(level) = immunity(live, i) {
                let a = att.unwrap_or(0);
                if level > a {
                    pend[s.ix()].immune[i] = true;
                    out.say(
                        format!(
                            "{} is immune to {}; attrition is {a}: not affected",
                            live.card(i).name,
                            immunity_says(level)
                        ),
                        &[cite::IMMUNE_TO_ATTRITION],
                    );
                } else {
                    out.say(
                        format!(
                            "{} is immune to {}; attrition is {a}: affected",
                            live.card(i).name,
                            immunity_says(level)
                        ),
                        &[cite::IMMUNE_TO_ATTRITION],
                    );
                }
            }
        }
        // Enclosed craft protect the cards aboard.
        for i in live.participants(s) {
            if let Some(h) = live.card(i).aboard.as_deref().and_then(|h| live.idx(h))
                && live.card(h).enclosed
                && pend[s.ix()].immune[h]
                && !pend[s.ix()].immune[i]
            {
                pend[s.ix()].immune[i] = true;
                out.say(
                    format!(
                        "{} is aboard {}, enclosed and not affected by this attrition: not affected",
                        live.card(i).name,
                        live.card(h).name
                    ),
                    &[cite::IMMUNE_TO_ATTRITION, super::rules::STARSHIPS_ENCLOSED],
                );
            }
        }
    }
    pend
}

/// The immunity level of "Immune to attrition." with no limit: higher than any
/// attrition (AR Immune To Attrition).
pub const ALL_ATTRITION: i64 = i64::MAX;

/// An immunity level as the card says it: "attrition < 4", or "attrition" with no limit.
fn immunity_says(level: i64) -> String {
    if level == ALL_ATTRITION {
        "attrition".into()
    } else {
        format!("attrition < {level}")
    }
}

/// Highest immunity from any source; losing immunity overrides gaining it.
fn immunity(live: &Live, i: usize) -> Option<i64> {
    let c = live.card(i);
    let mods: Vec<&ModSpec> = live
        .b
        .modifiers
        .iter()
        .filter(|m| m.target == Target::Immunity(c.name.clone()))
        .filter(|m| {
            m.optional
                || m.requires
                    .iter()
                    .all(|r| live.idx(r).is_some_and(|j| live.participating(j)))
        })
        .collect();
    if mods.iter().any(|m| matches!(m.op, OpSpec::Lose(true))) {
        return None;
    }
    let mut best = c.immune_to_attrition;
    for m in mods {
        if let OpSpec::Define(v) | OpSpec::Add(v) | OpSpec::Reset(v) = m.op {
            let v = if let OpSpec::Add(a) = m.op {
                c.immune_to_attrition.unwrap_or(0).saturating_add(a)
            } else {
                v
            };
            best = Some(best.map_or(v, |b| b.max(v)));
        }
    }
    best
}

// ---------------------------------------------------------------- the damage segment as decisions

/// A battle at the start of its damage segment: what each side must satisfy and the
/// cards that participate (AR: Damage Segment).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DamageStart {
    /// Attrition against each side (Light, Dark); `None` when there is none.
    pub attrition: [Option<i64>; 2],
    /// Battle damage against each side (Light, Dark).
    pub damage: [i64; 2],
    /// The participating board cards: its index, whether attrition does not affect it
    /// (cards aboard an enclosed immune craft too) and whether a weapon hit it.
    pub cards: Vec<(usize, bool, bool)>,
}

/// Resolves a battle up to the start of its damage segment (responses to winning
/// included); the segment itself is left to the caller (`BattleResult::damage`).
pub fn resolve_to_damage(b: &Battle, script: &Script) -> BattleResult {
    let mut live = live(b);
    let mut out = BattleResult::default();
    run_to_damage(&mut live, &mut out, script);
    out.destiny_cards_drawn = live.reserve_used;
    out
}

fn run_to_damage(live: &mut Live, out: &mut BattleResult, script: &Script) {
    if !up_to_damage(live, out, script) {
        return;
    }
    let pend = fixed_immunity(live, out);
    let mut start = DamageStart::default();
    for s in [Side::Light, Side::Dark] {
        start.attrition[s.ix()] = out.side(s).attrition.map(|a| a.max(0));
        start.damage[s.ix()] = out.side(s).battle_damage.max(0);
        for i in live.participants(s) {
            let immune = pend[s.ix()].immune[i];
            if let Some(c) = live.card(i).ix {
                start.cards.push((c, immune, live.hit[i]));
            }
        }
    }
    out.damage = Some(start);
}

/// Whether `side` has presence in battle `b` (its participating cards' ability, or a
/// Presence icon).
pub fn presence_of(b: &Battle, side: Side) -> bool {
    live(b).presence(side)
}

/// `side`'s power present in battle `b` now: its participating cards' power, before
/// any destiny (AR Unit of Force - Example 1: EG-6).
pub fn power_present(b: &Battle, side: Side) -> i64 {
    let live = live(b);
    live.participants(side)
        .into_iter()
        .filter_map(|i| live.power(i).and_then(|t| t.value))
        .sum()
}

/// The forfeit value of the card `name` in battle `b` now (its modifiers, a weapon hit
/// that made it 0); `None` when it has none (it cannot be forfeited).
pub fn forfeit_value(b: &Battle, name: &str) -> Option<Total> {
    let live = live(b);
    let i = live.idx(name)?;
    let t = live.forfeit(i);
    t.value.map(|_| t)
}

/// The forfeit value of each of the board cards `of` in battle `b`, worked out together
/// from one reading of the battle: (board card, its forfeit; `None` when it has none).
pub fn forfeit_values(b: &Battle, of: &[usize]) -> Vec<(usize, Option<Total>)> {
    let live = live(b);
    (0..b.cards.len())
        .filter_map(|i| {
            let c = b.cards[i].ix.filter(|c| of.contains(c))?;
            let t = live.forfeit(i);
            Some((c, t.value.map(|_| t)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn load(y: &str) -> (Battle, Script) {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Doc {
            battle: Battle,
        }
        let d: Doc = crate::yaml::load(Path::new("t.yaml"), y).expect("test YAML");
        (d.battle, Script::default())
    }

    const SIMPLE: &str = r#"
battle:
  location: Rogue 1's site
  site: true
  initiator: light
  cards:
    - {name: Princess Leia, side: light, kind: character, power: 3, ability: 4, forfeit: 7, adds_power_piloting: 1, aboard: Rogue 1, immune_to_attrition: 3}
    - {name: Rogue 1, side: light, kind: vehicle, power: 3, forfeit: 6}
    - {name: Snoova, side: dark, kind: character, power: 6, ability: 2, forfeit: 4}
  reserve:
    light: [{name: light top, destiny: 1}]
    dark: [{name: dark top, destiny: 3}]
"#;

    #[test]
    fn simple_example_numbers() {
        let (b, s) = load(SIMPLE);
        let o = resolve_to_damage(&b, &s);
        assert_eq!(o.needs, None, "{:#?}", o.lines);
        assert_eq!(o.light.total_power.as_ref().and_then(|t| t.value), Some(5));
        assert_eq!(o.dark.total_power.as_ref().and_then(|t| t.value), Some(6));
        assert_eq!(o.winner, Some(Side::Dark));
        assert_eq!(o.light.battle_damage, 1);
        assert_eq!(o.dark.attrition, Some(1));
        assert_eq!(o.light.attrition, None);
        let d = o.damage.expect("the damage segment is reached");
        assert_eq!((d.damage, d.attrition), ([1, 0], [None, Some(1)]));
    }

    /// A random card for the fuzz test: any kind, values from -1 to 7 or huge.
    fn random_card(next: &mut impl FnMut() -> u64, side: Side, i: u64) -> Card {
        let kinds = [Kind::Character, Kind::Starship, Kind::Vehicle, Kind::Weapon];
        let kind = kinds[(next() % 4) as usize];
        let name = format!("{side}{i}");
        let aboard = if kind == Kind::Character && i > 0 && next().is_multiple_of(3) {
            Some(format!("{side}{}", next() % i))
        } else {
            None
        };
        let big = next().is_multiple_of(50);
        let v = |n: u64| {
            if big {
                i64::MAX / 3
            } else {
                (n % 9) as i64 - 1
            }
        };
        Card {
            name,
            title: None,
            side,
            kind,
            power: Some(v(next())),
            ability: if next().is_multiple_of(4) {
                None
            } else {
                Some(v(next()))
            },
            forfeit: if next().is_multiple_of(5) {
                None
            } else {
                Some(v(next()))
            },
            armor: Some(v(next())),
            maneuver: None,
            defense: None,
            ferocity: None,
            immune_to_attrition: if next().is_multiple_of(3) {
                Some(v(next()))
            } else {
                None
            },
            adds_power_piloting: Some(v(next())),
            permanent_pilot: if next().is_multiple_of(4) {
                Some(2)
            } else {
                None
            },
            permanent_pilot_power: None,
            aboard,
            role: if next().is_multiple_of(2) {
                Role::Pilot
            } else {
                Role::Passenger
            },
            enclosed: next().is_multiple_of(2),
            presence_icon: next().is_multiple_of(6),
            draws_if_unable: if next().is_multiple_of(5) {
                Some((next() % 3) as u32)
            } else {
                None
            },
            zeroes_lower_single_destiny: false,
            battled_this_turn: next().is_multiple_of(10),
            elsewhere: next().is_multiple_of(8),
            hit: false,
            forfeit_zero: false,
            ix: None,
        }
    }

    fn pick(names: &[String], n: u64) -> String {
        names
            .get((n as usize) % names.len().max(1))
            .cloned()
            .unwrap_or_default()
    }

    /// Up to 19 random modifiers on random targets.
    fn random_modifiers(next: &mut impl FnMut() -> u64, names: &[String]) -> Vec<ModSpec> {
        let mut modifiers = Vec::new();
        for k in 0..(next() % 20) {
            let side = if next().is_multiple_of(2) {
                Side::Light
            } else {
                Side::Dark
            };
            let target = match next() % 9 {
                0 => Target::Power(pick(names, next())),
                1 => Target::Forfeit(pick(names, next())),
                2 => Target::Immunity(pick(names, next())),
                3 => Target::TotalPower,
                4 => Target::BattleDestinies,
                5 => Target::EachBattleDestiny,
                6 => Target::TotalBattleDestiny,
                7 => Target::Attrition,
                _ => Target::BattleDamage,
            };
            let n = (next() % 13) as i64 - 6;
            let op = match next() % 7 {
                0 => OpSpec::Add(n),
                1 => OpSpec::Sub(n),
                2 => OpSpec::Mul(n),
                3 => OpSpec::Reset(n),
                4 => OpSpec::Limit(n),
                5 => OpSpec::Lose(true),
                _ => OpSpec::Add(i64::MAX / 2),
            };
            modifiers.push(ModSpec {
                source: format!("m{k}"),
                side,
                target,
                op,
                optional: next().is_multiple_of(2),
                cumulative: next().is_multiple_of(2),
                requires: Vec::new(),
                cite: None,
            });
        }
        modifiers
    }

    #[test]
    fn fuzz_random_battles_never_panic_or_go_negative() {
        let mut seed: u64 = 0xdead_beef_1234_5678;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..1500 {
            let mut cards = Vec::new();
            for side in [Side::Light, Side::Dark] {
                for i in 0..(next() % 7) {
                    cards.push(random_card(&mut next, side, i));
                }
            }
            let names: Vec<String> = cards.iter().map(|c| c.name.clone()).collect();
            let modifiers = random_modifiers(&mut next, &names);
            let deck = |n: u64| -> Vec<DeckCard> {
                (0..n % 6)
                    .map(|i| DeckCard {
                        name: format!("c{i}"),
                        destiny: DestinyValues::One((i as i64 * 7) % 8 - 1),
                        canceled_by: None,
                    })
                    .collect()
            };
            let b = Battle {
                location: "x".into(),
                site: true,
                initiator: if next().is_multiple_of(2) {
                    Side::Light
                } else {
                    Side::Dark
                },
                cards,
                modifiers,
                conditions: Vec::new(),
                raises: Vec::new(),
                reserve: Reserves {
                    light: deck(next()),
                    dark: deck(next()),
                },
                force_pile: None,
            };
            let o = resolve_to_damage(&b, &Script::default());
            for s in [Side::Light, Side::Dark] {
                let r = o.side(s);
                if let Some(v) = r.total_power.as_ref().and_then(|t| t.value) {
                    assert!(v >= 0, "{:#?}", o.lines);
                }
                assert!(r.battle_damage >= 0);
                assert!(r.attrition.is_none_or(|a| a >= 0));
                if let Some(v) = r.total_battle_destiny.as_ref().and_then(|t| t.value) {
                    assert!(v >= 0);
                }
            }
        }
    }

    #[test]
    fn no_presence_no_battle() {
        let (mut b, s) = load(SIMPLE);
        b.cards.retain(|c| c.name != "Snoova");
        assert!(resolve_to_damage(&b, &s).not_initiated.is_some());
    }
}
