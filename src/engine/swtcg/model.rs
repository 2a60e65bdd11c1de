//! The SWTCG board, cards, abilities and script steps, as read from a
//! scenario's `swtcg:` key and `script:`. Every struct rejects unknown keys.

use serde::Deserialize;
use serde_saphyr::Spanned;
use std::collections::BTreeMap;

/// The two sides. The Dark Side is seat 0: it goes first and wins ties.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Dark,
    Light,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Dark, Side::Light];
    pub fn other(self) -> Side {
        match self {
            Side::Dark => Side::Light,
            Side::Light => Side::Dark,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Dark => "dark",
            Side::Light => "light",
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::Dark => "the Dark Side",
            Side::Light => "the Light Side",
        }
    }
    pub fn ix(self) -> usize {
        self as usize
    }
}

/// The three arenas, in battle order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arena {
    Space,
    Ground,
    Character,
}

impl Arena {
    pub const ALL: [Arena; 3] = [Arena::Space, Arena::Ground, Arena::Character];
    pub fn as_str(self) -> &'static str {
        match self {
            Arena::Space => "space",
            Arena::Ground => "ground",
            Arena::Character => "character",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Arena::Space => "Space",
            Arena::Ground => "Ground",
            Arena::Character => "Character",
        }
    }
}

/// Where a run starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// Choose sides: the build-point bid.
    SideBid,
    /// Setup: building from the starting build points.
    Setup,
    /// The ready phase (then the command and battle phases, the end of turn).
    Ready,
    /// The command phase: build steps, then retreat steps.
    Command,
    /// The battle phase.
    Battle,
}

/// How far a run goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Through {
    Ready,
    Command,
    Battle,
    /// The end of turn and the win check.
    Turn,
}

/// The format of play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    #[default]
    Standard,
    TwoHeadedWookiee,
}

/// The scenario's board (`swtcg:`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// Where the run starts (default: the battle phase).
    #[serde(default)]
    pub start: Option<Start>,
    /// How far it goes (default: the phase it starts in).
    #[serde(default)]
    pub through: Option<Through>,
    /// In the battle phase, the first arena to battle in (default: Space).
    #[serde(default)]
    pub arena: Option<Arena>,
    #[serde(default)]
    pub format: Format,
    /// The cards, by id: inline definitions or named library cards.
    #[serde(default, deserialize_with = "crate::engine::library::cards")]
    pub cards: BTreeMap<String, Spanned<CardDef>>,
    #[serde(default)]
    pub dark: PlayerBoard,
    #[serde(default)]
    pub light: PlayerBoard,
    /// The side bid (`start: side_bid`).
    #[serde(default)]
    pub side_bid: Option<SideBid>,
}

/// The build-point bid for a side: `first` bids first, for `side`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideBid {
    pub side: Side,
    /// `player1` or `player2`.
    pub first: String,
}

/// One player's things.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerBoard {
    #[serde(default)]
    pub force: i64,
    /// Build points to spend (this turn's roll, or the starting build in setup).
    #[serde(default)]
    pub build: i64,
    #[serde(default)]
    pub hand: Vec<Spanned<String>>,
    /// The deck, top first.
    #[serde(default)]
    pub deck: Vec<Spanned<String>>,
    #[serde(default)]
    pub discard: Vec<Spanned<String>>,
    #[serde(default)]
    pub resource: Option<Spanned<String>>,
    #[serde(default)]
    pub space: Vec<UnitBoard>,
    #[serde(default)]
    pub ground: Vec<UnitBoard>,
    #[serde(default)]
    pub character: Vec<UnitBoard>,
    #[serde(default)]
    pub build_zone: Vec<UnitBoard>,
    /// Locations in play, each in the arena its subtype names.
    #[serde(default)]
    pub locations: Vec<UnitBoard>,
    /// Two-Headed Wookiee: player A's own Force, build points and piles.
    #[serde(default)]
    pub a: Option<Pools>,
    /// Two-Headed Wookiee: player B's own Force, build points and piles.
    #[serde(default)]
    pub b: Option<Pools>,
}

/// One team player's own Force, build points, hand, deck, discard pile and
/// Resource (Two-Headed Wookiee: teammates don't share them).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pools {
    #[serde(default)]
    pub force: i64,
    #[serde(default)]
    pub build: i64,
    #[serde(default)]
    pub hand: Vec<Spanned<String>>,
    /// The deck, top first.
    #[serde(default)]
    pub deck: Vec<Spanned<String>>,
    #[serde(default)]
    pub discard: Vec<Spanned<String>>,
    #[serde(default)]
    pub resource: Option<Spanned<String>>,
}

impl PlayerBoard {
    /// The pools of a player: the side's own (standard), or team player `a`/`b`.
    pub fn pools(&self, p: u8) -> Pools {
        let own = |x: &Option<Pools>| x.clone().unwrap_or_default();
        match p {
            0 if self.a.is_none() && self.b.is_none() => Pools {
                force: self.force,
                build: self.build,
                hand: self.hand.clone(),
                deck: self.deck.clone(),
                discard: self.discard.clone(),
                resource: self.resource.clone(),
            },
            0 => own(&self.a),
            _ => own(&self.b),
        }
    }
}

/// A unit (or a face-down card, or completed Equipment) on the board.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitBoard {
    /// The top card.
    pub card: Spanned<String>,
    /// Versions under the top card, top to bottom.
    #[serde(default)]
    pub under: Vec<Spanned<String>>,
    #[serde(default)]
    pub tapped: bool,
    #[serde(default)]
    pub damage: i64,
    /// Pilots: each entry is a stack, top first.
    #[serde(default)]
    pub pilots: Vec<Vec<Spanned<String>>>,
    /// Attached Equipment: each entry is a stack, top first.
    #[serde(default)]
    pub equipment: Vec<Vec<Spanned<String>>>,
    /// Face-down (partially built) in the build zone, with build counters.
    #[serde(default)]
    pub face_down: bool,
    #[serde(default)]
    pub counters: i64,
    /// Player A or B of a Two-Headed Wookiee team (the owner of the card).
    #[serde(default)]
    pub player: Option<Spanned<String>>,
    /// A Location with several arenas on its type line: the one it is in.
    #[serde(default)]
    pub arena: Option<Arena>,
}

impl UnitBoard {
    /// The arena a Location on the board is in: the one named, else the one
    /// on its type line.
    pub fn location_arena(&self, d: &CardDef) -> Option<Arena> {
        self.arena.or_else(|| d.types.first().copied())
    }
}

/// What a card is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    #[default]
    Unit,
    Equipment,
    Battle,
    Mission,
    Location,
    Resource,
}

/// A card's side symbol: Light Side, Dark Side or neutral.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideSymbol {
    Light,
    Dark,
    Neutral,
}

/// A card: printed values, keywords and abilities.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardDef {
    pub name: String,
    #[serde(default)]
    pub version: Option<String>,
    #[serde(default)]
    pub kind: Kind,
    /// The side symbol (every library card has one; an inline card needs
    /// one only where an effect on the board names neutral cards).
    #[serde(default)]
    pub side: Option<SideSymbol>,
    /// Unit types (Space, Ground, Character), or for other cards their arena subtypes.
    #[serde(default)]
    pub types: Vec<Arena>,
    /// The subtype text after the hyphen, e.g. "Dark Jedi Master - Sith Lord".
    #[serde(default)]
    pub subtypes: String,
    #[serde(default)]
    pub cost: i64,
    #[serde(default)]
    pub speed: i64,
    #[serde(default)]
    pub power: i64,
    #[serde(default)]
    pub health: i64,
    #[serde(default)]
    pub keywords: Keywords,
    /// The Equip cost (Equipment).
    #[serde(default)]
    pub equip: Option<Cost>,
    /// The Pilot ability: which subtype it pilots, and what the piloted unit gets.
    #[serde(default)]
    pub pilot: Option<PilotDef>,
    /// Piloted "as if it were" this subtype.
    #[serde(default)]
    pub pilotable_as: Option<String>,
    #[serde(default)]
    pub abilities: Vec<Ability>,
    /// Switch: what the unit gets in each arena of its type line, in that order (`null`: None).
    #[serde(default)]
    pub switch: Option<Vec<Option<Bonus>>>,
    /// "Can attack your other units in its arena" (only its own player's, in Two-Headed Wookiee).
    #[serde(default)]
    pub attacks_own: bool,
    /// "Must attack": it can't tap to skip an attack while it has a unit to attack.
    #[serde(default)]
    pub must_attack: bool,
    /// "This unit can't retreat."
    #[serde(default)]
    pub cant_retreat: bool,
    /// "Damage from this unit can't be prevented" (its attacks, its Deflect,
    /// its effects: every damage it is the source of).
    #[serde(default)]
    pub unpreventable: bool,
    /// "Prevent all damage to and done by this unit": every damage to it
    /// or from it is prevented (not counters, and not damage that can't be
    /// prevented).
    #[serde(default)]
    pub prevents_all_damage: bool,
    /// "This unit doesn't count toward controlling the [its] arena": it
    /// neither takes nor holds the arena for its player.
    #[serde(default)]
    pub no_arena_control: bool,
    /// "Subtract 1 from each of this unit's attack dice" (-1): added to each
    /// attack die as Accuracy is, and cumulative with it, but not Accuracy.
    #[serde(default)]
    pub dice_modifier: i64,
    /// A Location's battle order ("Fight the Ground battle before the Space
    /// battle"): the arenas in the order their battle steps are fought.
    #[serde(default)]
    pub battle_order: Option<Vec<Arena>>,
    /// Card text the engine does not model: met in play, it is reported.
    #[serde(default)]
    pub unmodelled: Vec<String>,
    /// The card's text: sentence by sentence, each saying which fields encode it
    /// (`by:`) or that it is `not_modelled:`; a plain string is wholly not modelled.
    #[serde(default)]
    pub text: crate::engine::library::CardText,
    /// Where a named card came from (none for an inline definition).
    #[serde(skip)]
    pub origin: Option<crate::engine::library::Origin>,
}

/// The printed values a scenario may set on purpose on a named card (`stats:`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Printed {
    #[serde(default)]
    pub cost: Option<i64>,
    #[serde(default)]
    pub speed: Option<i64>,
    #[serde(default)]
    pub power: Option<i64>,
    #[serde(default)]
    pub health: Option<i64>,
}

impl CardDef {
    /// The text met in play that the engine does not model: the `unmodelled:`
    /// list and every sentence of `text:` no field encodes.
    pub fn unmodelled_text(&self) -> Vec<String> {
        let mut out = self.unmodelled.clone();
        for t in self.text.unencoded() {
            if !out.contains(&t) {
                out.push(t);
            }
        }
        out
    }
}

/// Keyword abilities with their values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keywords {
    pub accuracy: Option<i64>,
    pub armor: Option<bool>,
    pub bombard: Option<i64>,
    pub bounty: Option<Cost>,
    pub critical_hit: Option<i64>,
    pub deflect: Option<i64>,
    pub double_strike: Option<bool>,
    pub evade: Option<i64>,
    pub fury: Option<i64>,
    pub intercept: Option<Cost>,
    pub ion_cannon: Option<i64>,
    pub lucky: Option<i64>,
    pub overkill: Option<bool>,
    pub parry: Option<i64>,
    pub retaliate: Option<i64>,
    pub shields: Option<i64>,
    pub stealth: Option<bool>,
    pub stun: Option<i64>,
    /// Upkeep costs: one ability per entry.
    pub upkeep: Option<Vec<Cost>>,
    /// Hidden Cost X (a face-down card completed anytime, paying Force for the rest).
    pub hidden_cost: Option<i64>,
    /// Keyword costs: "Pay N Force -> Evade X" (each copy this source gives costs N).
    pub costs: Option<KeywordCosts>,
}

/// The Force each keyword ability of one source costs to play.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeywordCosts {
    #[serde(default)]
    pub evade: i64,
    #[serde(default)]
    pub deflect: i64,
    #[serde(default)]
    pub retaliate: i64,
}

/// What a Switch slot gives the unit in one arena.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bonus {
    #[serde(default)]
    pub speed: i64,
    #[serde(default)]
    pub power: i64,
    #[serde(default)]
    pub health: i64,
    #[serde(default)]
    pub keywords: Keywords,
}

/// A cost (or a gain) in build points and Force.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cost {
    #[serde(default)]
    pub build: i64,
    #[serde(default)]
    pub force: i64,
}

/// A Pilot ability: "↔ [subtype] Pilot. The [subtype] gets …".
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PilotDef {
    pub subtype: String,
    /// Further subtypes it pilots ("Starfighter and Capital Ship Pilot").
    #[serde(default)]
    pub or_subtypes: Vec<String>,
    /// "If there is more than one Pilot on the [unit], it gets …": the
    /// bonuses apply only while another Pilot is on the unit too.
    #[serde(default)]
    pub with_another_pilot: bool,
    #[serde(default)]
    pub speed: i64,
    #[serde(default)]
    pub power: i64,
    #[serde(default)]
    pub health: i64,
    #[serde(default)]
    pub keywords: Keywords,
    /// "This unit gets … as long as it's attacking a [unit the filter
    /// names]": a further bonus to the piloted unit, only while it attacks
    /// such a unit.
    #[serde(default)]
    pub while_attacking: Option<WhileAttacking>,
}

/// A bonus that holds only while the unit attacks a unit the filter names
/// (`whose` is said from the unit that gets it).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WhileAttacking {
    pub of: Filter,
    pub gets: Bonus,
}

/// Which units an effect names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    /// Whose units: `your`, `opponent`, `any` (default `your`).
    #[serde(default)]
    pub whose: Whose,
    /// The exact name the effect names.
    #[serde(default)]
    pub name: Option<String>,
    /// Further names, any of which will do ("Luke Skywalker or Princess
    /// Leia"); only with `name:`.
    #[serde(default)]
    pub or_names: Vec<String>,
    /// Only neutral cards ("each neutral unit"): their side symbol (in a
    /// static grant's `to:`; every unit card on the board must then say
    /// its side symbol).
    #[serde(default)]
    pub neutral: bool,
    /// A subtype the unit must have.
    #[serde(default)]
    pub subtype: Option<String>,
    /// A subtype the unit must not have ("a non-Jedi Character").
    #[serde(default)]
    pub not_subtype: Option<String>,
    /// A type the unit must have in its current arena.
    #[serde(default)]
    pub r#type: Option<Arena>,
    /// Not the unit with the ability.
    #[serde(default)]
    pub other: bool,
    /// Only the unit with the ability ("Vader's TIE Fighter gets +1 power
    /// for this attack", on Vader's TIE Fighter).
    #[serde(default)]
    pub this_unit: bool,
    /// Only units with no Equipment attached.
    #[serde(default)]
    pub unequipped: bool,
    /// Only units in the same arena as the unit with the ability.
    #[serde(default)]
    pub same_arena: bool,
    /// Only cards with a printed build cost of at most this.
    #[serde(default)]
    pub max_cost: Option<i64>,
    /// Only unique units (a card with a version: "a unique Character").
    #[serde(default)]
    pub unique: bool,
    /// A chosen unit only (`target:`): untapped.
    #[serde(default)]
    pub untapped: bool,
    /// A chosen unit only: total power at most this ("with power 4 or less").
    #[serde(default)]
    pub max_power: Option<i64>,
    /// A chosen unit only: total build cost at most this.
    #[serde(default)]
    pub max_build: Option<i64>,
    /// A chosen unit only: total health at most this (not remaining health).
    #[serde(default)]
    pub max_health: Option<i64>,
    /// A chosen unit only: in one of these arenas (none listed: any arena).
    #[serde(default)]
    pub arenas: Vec<Arena>,
    /// A chosen unit: a face-up unit in a build zone may be chosen too; a
    /// counted unit ("for each Spirit you control"): those count too.
    #[serde(default)]
    pub build_zone: bool,
    /// A chosen unit only: the attacking unit ("play only when that unit is
    /// attacking").
    #[serde(default)]
    pub attacking: bool,
    /// A chosen unit only: the attacking unit, while the unit it attacks has
    /// Shields ("if it is attacking a unit that has shields"; judged when
    /// the effect is played).
    #[serde(default)]
    pub attacking_shielded: bool,
    /// A chosen unit only: the attacking unit, using Bombard (a Space unit
    /// with Bombard attacking a unit in the Ground arena).
    #[serde(default)]
    pub bombarding: bool,
    /// A chosen unit only: the unit that made the last attack, which rolled
    /// no hits in it ("if your opponent rolled no hits for that unit's last
    /// attack … Play only after that unit has attacked and before any other
    /// unit attacks").
    #[serde(default)]
    pub last_attack_no_hits: bool,
    /// A chosen card only: a face-down card in its player's build zone, and
    /// only such a card ("show a face-down Starfighter card in your build zone").
    #[serde(default)]
    pub face_down: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Whose {
    #[default]
    Your,
    Opponent,
    Any,
}

/// A card ability, as structured data.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    /// What the ability is, in the card's words (for the trace).
    #[serde(default)]
    pub text: String,
    /// A static bonus to units the filter names ("Anakin Skywalker gets +2 power").
    #[serde(default)]
    pub grant: Option<Grant>,
    /// An activated ability: its cost and when it may be played.
    #[serde(default)]
    pub activated: Option<Activated>,
    /// A triggered ability.
    #[serde(default)]
    pub triggered: Option<Triggered>,
    /// A replacement effect ("if this unit would be discarded, instead …").
    #[serde(default)]
    pub replacement: Option<Replacement>,
    /// Reserves: the ability works while, and only while, the card is in the build zone.
    #[serde(default)]
    pub reserves: bool,
}

/// A replacement effect: the event does not occur; what happens instead.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replacement {
    pub would: WouldEvent,
    pub instead: Instead,
    /// "You may pay …; if you do, … instead": optional, at this cost.
    #[serde(default)]
    pub cost: Option<Cost>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WouldEvent {
    /// This unit would be discarded.
    Discarded,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Instead {
    /// Return the unit (and all cards stacked with it) to its owner's hand.
    ReturnToHand,
    /// Remove all damage counters from the unit; it stays in play.
    RemoveDamage,
}

/// A static grant to units.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grant {
    pub to: Filter,
    #[serde(default)]
    pub speed: i64,
    #[serde(default)]
    pub power: i64,
    #[serde(default)]
    pub health: i64,
    #[serde(default)]
    pub keywords: Keywords,
    /// "You can't use Evade" (for units the filter names).
    #[serde(default)]
    pub cant_use_evade: bool,
    /// Build cost change to deploy the cards the filter names (-1: "costs 1 fewer").
    #[serde(default)]
    pub cost: i64,
    /// The cost change is in build counters ("costs 1 less build counter to
    /// deploy"): only a card completed from face down in the build zone
    /// gets it, not one deployed from hand.
    #[serde(default)]
    pub counters_only: bool,
    /// "You may deploy [the units the filter names] without paying their
    /// build costs."
    #[serde(default)]
    pub free: bool,
    /// The units the filter names must attack the card with this ability
    /// whenever they can ("… can attack Motti, it must do so").
    #[serde(default)]
    pub must_attack_this: bool,
    /// "Your opponent can't attack [the units the filter names] unless he or
    /// she pays N Force."
    #[serde(default)]
    pub attack_cost: i64,
    /// Only while the unit named is attacking the card with this ability
    /// ("… as long as it's attacking the Death Star").
    #[serde(default)]
    pub attacking_this: bool,
    /// Only while the unit named is attacking a unit this filter names
    /// ("as long as this unit is attacking a Squad"; `whose` is said from
    /// the card with this ability).
    #[serde(default)]
    pub attacking: Option<Filter>,
    /// Only while a Location with this subtype is in play, in any arena
    /// ("as long as there is an Aquatic Location in play").
    #[serde(default)]
    pub while_location: Option<String>,
    /// "You don't have to pay the Upkeep costs of [the units the filter names]."
    #[serde(default)]
    pub no_upkeep: bool,
    /// "[A unit the filter names] can have more than 4 cards in its stack."
    #[serde(default)]
    pub no_stack_limit: bool,
    /// "… for each damage counter on it": the speed, power and health
    /// changes count once for each damage counter on the unit named.
    #[serde(default)]
    pub per_damage_counter: bool,
}

/// When an activated ability (or a Battle card) may be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// The general POP of a battle step.
    General,
    /// The attack POP, when this unit is attacked, before dice are rolled.
    WhenAttacked,
    /// The damage prevention POP.
    Prevention,
    /// The disrupt POP of an attack.
    DisruptAttack,
    /// A Mission: its effect resolves when it is completed in the build step.
    Build,
    /// The disrupt POP of a Mission card being completed.
    DisruptMission,
    /// "Play only when this unit would attack": instead of attacking (not an attack).
    WouldAttack,
    /// A disrupt POP, once a disrupt has been played in it: disrupt that disrupt.
    DisruptCard,
    /// "Play only during your build step": a unit's ability, in its
    /// controller's build step.
    BuildStep,
}

impl Timing {
    /// A specified time ("play only when this unit is attacked", a chance
    /// to prevent damage, a disrupt POP): an ability with it may be played
    /// again later in the turn, but only once during each such time.
    pub fn specified(self) -> bool {
        match self {
            Timing::WhenAttacked
            | Timing::Prevention
            | Timing::DisruptAttack
            | Timing::DisruptMission
            | Timing::DisruptCard => true,
            Timing::General | Timing::Build | Timing::WouldAttack | Timing::BuildStep => false,
        }
    }
}

/// An activated ability or a Battle card: pay the cost, get the effects.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Activated {
    #[serde(default)]
    pub cost: Cost,
    pub timing: Timing,
    /// What happens now.
    #[serde(default)]
    pub effects: Vec<Effect>,
    /// What happens when the attack ends (a waiting effect).
    #[serde(default)]
    pub at_attack_end: Vec<Effect>,
    /// Enhance: an additional cost for another effect, played `also` or `instead`.
    #[serde(default)]
    pub enhance: Option<Enhance>,
    /// "Play only once per turn."
    #[serde(default)]
    pub once_per_turn: bool,
    /// "Play only when no unit is attacking."
    #[serde(default)]
    pub no_attack: bool,
    /// "[tap] ->": tapping this unit is part of the cost.
    #[serde(default)]
    pub tap: bool,
    /// "Put N damage counters on this unit ->": part of the cost (counters,
    /// not damage).
    #[serde(default)]
    pub counters_self: i64,
    /// "To complete [this Mission], you must also tap one of your untapped
    /// Jedi": tapping the chosen unit (`target:`) is part of the cost.
    #[serde(default)]
    pub tap_target: bool,
    /// "Put N damage counters on one of your units ->": putting them on the
    /// chosen unit (`target:`) is part of the cost.
    #[serde(default)]
    pub counters_target: i64,
    /// "Remove 2 [subtype] cards in your discard pile from the game ->":
    /// removing the cards the play names (`cards:`) is part of the cost.
    #[serde(default)]
    pub exile: Option<Exile>,
    /// "Discard [this unit] from the [arena] ->": discarding it is the cost
    /// (it must be in an arena; nothing replaces a discard paid as a cost).
    #[serde(default)]
    pub discard_self: bool,
    /// The unit the effect chooses (`target:` of the play), when it must be one.
    #[serde(default)]
    pub target: Option<Filter>,
    /// "Play only during the [arena] battle step."
    #[serde(default)]
    pub step: Option<Arena>,
    /// "Play only if your opponent has no units in the [arena]" (units in
    /// that arena; a build zone does not count).
    #[serde(default)]
    pub opponent_none_in: Option<Arena>,
}

/// How many cards of the discard pile are removed from the game, each with
/// one of the subtypes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exile {
    pub n: usize,
    pub subtypes: Vec<String>,
}

/// Enhance: [effect] — played only when declared, paying the additional cost.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Enhance {
    #[serde(default)]
    pub cost: Cost,
    pub mode: EnhanceMode,
    pub effects: Vec<Effect>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnhanceMode {
    Also,
    Instead,
}

/// A triggered ability.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Triggered {
    pub when: Trigger,
    #[serde(default)]
    pub effects: Vec<Effect>,
    /// Only while this unit is in this arena.
    #[serde(default)]
    pub in_arena: Option<Arena>,
    /// `deploy`: the units whose deployment triggers it (default: this
    /// unit); `damages`: the units whose damage triggers it; `prevents`: the
    /// units whose damage prevented triggers it (default: any of yours).
    #[serde(default)]
    pub of: Option<Filter>,
    /// `battle_step_start`, `battle_step_end`: the arena whose battle step it is.
    #[serde(default)]
    pub step: Option<Arena>,
    /// The effects' chosen unit is the unit with the ability ("this unit
    /// gets +2 power").
    #[serde(default)]
    pub target_self: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// "When you draw a card": once for each card drawn.
    Draw,
    /// "When the roll for build points is made" (the ready phase's roll;
    /// none is made in setup).
    BuildRoll,
    /// "When your build step starts".
    BuildStepStart,
    /// "When you deploy this unit" / "whenever you deploy a [filter]"
    /// (completing a card in the build step or anytime; not setup).
    Deploy,
    /// "Whenever this unit attacks": once when it taps to attack (and for
    /// each Double Strike attack), not again when the defender changes.
    Attacks,
    /// "When the [arena] battle step starts" (`step:`; any battle step without it).
    BattleStepStart,
    /// "At the end of the [arena] battle step" (`step:`; any battle step
    /// without it): when its units have all attacked, before the end of the
    /// battle step POP.
    BattleStepEnd,
    /// "When the battle phase starts" (before its first POP; `in_arena:` "if
    /// this unit is in the [arena]").
    BattlePhaseStart,
    /// "When this unit is discarded from play" (from an arena by damage;
    /// `in_arena:` "from the [arena]"): it has gone to the discard pile.
    Discarded,
    /// "When this unit damages a [unit `of:` names]": once for each unit it
    /// put damage counters on (damage done after prevention), however many.
    Damages,
    /// "Whenever any of your other units [`of:`] attacks but does no damage"
    /// (after prevention), when the attack ends: the effects' chosen unit is
    /// the attacker.
    AttacksNoDamage,
    /// "Whenever damage to one of your units [`of:`; default any of yours] is
    /// prevented": each time a prevention prevents some of it (Evade,
    /// Deflect, Parry, a prevention card or ability, an arena's prevention),
    /// not once for each damage prevention POP.
    Prevents,
}

/// Whose build points an effect changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Whom {
    /// The player whose card it is.
    You,
    /// That player's opponent.
    Opponent,
    /// The Dark Side, whoever controls the card.
    Dark,
    /// The Light Side, whoever controls the card.
    Light,
}

impl Whom {
    /// The side this names, for an effect of side `you`.
    pub fn side(self, you: Side) -> Side {
        match self {
            Whom::You => you,
            Whom::Opponent => you.other(),
            Whom::Dark => Side::Dark,
            Whom::Light => Side::Light,
        }
    }
}

/// "When the battle phase starts, choose one of your opponent's units in the
/// Ground arena. [This card] does 6 dice of damage to that unit": a
/// Mission's effects that wait for the start of this turn's battle phase.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AtBattleStart {
    /// The unit chosen when they resolve (none there: they do nothing).
    #[serde(default)]
    pub choose: Option<Choice>,
    pub effects: Vec<Effect>,
}

/// Who chooses a unit, and among which (units in the arenas the filter
/// names; `whose:` from the controller of the effect).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    pub chooser: Whom,
    pub of: Filter,
}

/// "[Whom] gets +N build points this turn" (with `per:`, N for each unit
/// the filter names in the arenas: "+1 build point for each Jedi Character
/// he or she has in any arena").
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildPoints {
    pub to: Whom,
    pub n: i64,
    #[serde(default)]
    pub per: Option<Filter>,
}

/// "If you have 2 or more units in each arena, …", "if your opponent doesn't
/// have at least one unit in each arena, …": units in the arenas counted when
/// the effect resolves; the effects `then:` happen only if the count holds.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IfUnits {
    /// The units counted (whose: from the controller of the effect).
    pub units: Filter,
    /// How many there must be (default 1).
    #[serde(default = "one")]
    pub at_least: i64,
    /// There must be that many in each arena.
    #[serde(default)]
    pub each_arena: bool,
    /// The condition holds when the count is not reached ("doesn't have").
    #[serde(default)]
    pub not: bool,
    pub then: Vec<Effect>,
}

fn one() -> i64 {
    1
}

/// "You may pay N Force. If you do, [the effects `then:`]."
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MayPay {
    pub force: i64,
    pub then: Vec<Effect>,
}

/// One effect.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Untap the chosen unit.
    Untap,
    /// Untap the unit with the ability.
    UntapSelf,
    /// Remove N damage counters from the unit with the ability.
    RemoveCountersSelf(i64),
    /// Remove all damage counters from the unit with the ability.
    RemoveAllCountersSelf,
    /// Gain 1 Force for each unit the filter names in the arenas ("for each
    /// of your Characters in any arena": units only, not Pilots).
    GainForcePer(Filter),
    /// Effects that happen only if a count of units holds.
    IfUnits(Box<IfUnits>),
    /// "You may pay N Force. If you do, …": the controller pays or passes.
    MayPay(Box<MayPay>),
    /// "Your opponent can't use Evade to prevent damage from [the unit with
    /// the ability] for this attack" (other prevention still can).
    NoEvadeThisAttack,
    /// Do N damage to the chosen unit; "your opponent can't use Evade to
    /// prevent that damage unless that Character is a [subtype]".
    DamageNoEvade(Box<NoEvadeDamage>),
    /// "Each time [the chosen unit] attacks this turn, when its attack ends,
    /// choose a unit it can attack but hasn't attacked this turn. [It]
    /// attacks that unit" (without tapping or untapping).
    ChainAttacks,
    /// "[The chosen unit] can't attack or be attacked this turn."
    CantAttackOrBeAttacked,
    /// "As long as [the chosen unit] is in an arena, your other units in
    /// that arena can't be attacked this turn."
    GuardOthersThisTurn,
    /// Effects that wait for the start of this turn's battle phase.
    AtBattlePhaseStart(Box<AtBattleStart>),
    /// "Your opponent gains N Force".
    OpponentGainsForce(i64),
    /// Do N damage to the chosen unit.
    Damage(i64),
    /// Prevent N damage to the chosen unit.
    Prevent(i64),
    /// Prevent all damage to the chosen unit.
    PreventAll,
    /// "Then you gain additional Force equal to the damage prevented" (by
    /// this play, in the damage prevention POP).
    GainForcePrevented,
    /// The chosen unit gets +N power until end of battle.
    Power(i64),
    /// The chosen unit gets +N speed until end of battle.
    Speed(i64),
    GainForce(i64),
    LoseForce(i64),
    /// Draw N cards.
    Draw(i64),
    /// Discard N cards from hand (the script names them).
    DiscardCards(i64),
    /// Search your deck for cards with these names and put them into your hand.
    Search(Vec<String>),
    /// "You may search your deck for N cards [the filter names] … and put
    /// them into your hand": having searched, the player takes N such cards,
    /// or all there are if fewer (not "up to N").
    SearchFor(Box<SearchFor>),
    /// Retreat the unit with the ability.
    RetreatSelf,
    /// Put N damage counters on the attacking unit.
    CountersOnAttacker(i64),
    /// Remove N damage counters from one of your units in an arena of these types.
    RemoveCounters {
        n: i64,
        from: Vec<Arena>,
    },
    /// Disrupt the attack.
    DisruptAttack,
    /// Discard the chosen unit, which must have this type.
    DiscardUnit(Arena),
    /// Discard that unit: the chosen unit, or the unit a triggered ability
    /// is about ("discard it").
    DiscardIt,
    /// "This turn, when any of your units in [the chosen arena] would be
    /// damaged, prevent N of that damage" (each time; such effects add up).
    PreventInArenaThisTurn(i64),
    /// Each side chooses and discards one of its units from each arena in
    /// which it has at least N units, Dark Side first (Clear the Skies).
    DiscardOneEachArena(i64),
    /// Gain control of the chosen unit.
    GainControl,
    /// Gain control of the chosen unit until end of turn.
    GainControlThisTurn,
    /// Tap the unit with the ability.
    TapSelf,
    /// Disrupt a Mission card being completed (it is discarded without effect).
    DisruptMission,
    /// Disrupt a Battle card played to disrupt (a disrupt in the same disrupt POP).
    DisruptCard,
    /// "The next time one of your units would attack this turn, you may have
    /// it attack another of your opponent's units in the [arena]."
    MayAttackIn(Arena),
    /// A player gets +N (or -N) build points this turn.
    BuildPoints(BuildPoints),
    /// Put N damage counters on the chosen unit (not damage: not prevented).
    Counters(i64),
    /// Tap the chosen unit.
    Tap,
    /// Retreat the chosen unit (an effect's retreat doesn't tap it).
    Retreat,
    /// Return the chosen unit, with its stack, Pilots and Equipment, to its
    /// owners' hands.
    ReturnToHand,
    /// Do N dice of damage to the chosen unit.
    DiceDamage(i64),
    /// Do N damage to each unit in the chosen arena (`arena:` of the play).
    DamageEach(i64),
    /// Do N dice of damage to each unit in the arena of the battle step
    /// (or the chosen arena): every unit's dice, then one damage
    /// prevention POP, one damage placement and one discard for all.
    DiceDamageEach(i64),
    /// Return this card from its owner's discard pile to his or her hand.
    ReturnFromDiscard,
    /// The chosen unit gains this subtype until the game ends: each card in
    /// its stack now (only the versions in play; a card stacked later does not).
    GainSubtype(String),
    /// "Your opponent chooses one of his or her units in the [arena]. Tap that
    /// unit unless your opponent pays N Force."
    OpponentTapsUnlessPays(TapUnlessPays),
    /// Gain Force equal to the chosen unit's total build cost.
    GainForceEqualBuild,
    /// Each player discards his or her unit with the lowest build cost in
    /// any arena (the player chooses among tied units).
    DiscardLowestCost,
    /// A grant that lasts until end of turn, to every unit it names then or
    /// later in the turn ("Each of your units gets Accuracy 1 until end of turn").
    GrantThisTurn(Box<Grant>),
    /// A grant until end of turn to the units it names in play when it
    /// resolves (in an arena or face-up in a build zone), and to no unit that
    /// comes into play later ("each unit of that type gets -3 power until
    /// end of turn").
    GrantNowThisTurn(Box<Grant>),
    /// "Choose one: …": the play names the option it takes (`choice:`, from 1).
    ChooseOne(Vec<Vec<Effect>>),
    /// "[The Light Side player] chooses one of his or her units in the
    /// [arena] and retreats the rest."
    KeepOneRetreatRest(KeepOne),
    /// "Each player discards all of his or her units in the [arena]" (each
    /// with its stack, Pilots and Equipment; not a discard by damage).
    DiscardAll(Arena),
    /// Put N build counters on the chosen face-down card.
    BuildCounters(i64),
    /// "Remove all build counters from each partially built card in your
    /// build zone. You get that many extra build points this turn" (the
    /// cards stay partially built).
    BuildCountersToPoints,
    /// The chosen unit gets this bonus for this attack (played only while a
    /// unit is attacking; it ends when the attack ends).
    ThisAttack(Box<Bonus>),
    /// "For this attack, roll only N of your dice instead of a number of dice
    /// equal to the attacking unit's power": Shields and power changes don't
    /// change the number.
    AttackDice(i64),
    /// "If the attacking unit damages the defending unit [in this attack],
    /// the defending unit is discarded."
    DiscardIfDamaged,
    /// A unit's ability: put the card the `play` step names (`card:`) from
    /// your discard pile into an arena (put: not deployed).
    FromDiscard(Box<FromDiscard>),
    /// "Each player rolls one of his or her dice. The player who rolls
    /// higher gains N Force. If it's a tie, you gain M Force."
    RollOff(RollOff),
}

/// The Force a roll-off gives: to the player who rolls higher, or to the
/// effect's controller on a tie.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollOff {
    pub higher: i64,
    pub tie: i64,
}

/// How many cards of a kind a search takes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchFor {
    /// The cards: their type (unit cards of that type), subtype, name or
    /// printed cost.
    pub of: Filter,
    pub n: usize,
}

/// Damage Evade can't prevent, unless the unit has one of the subtypes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoEvadeDamage {
    pub n: i64,
    #[serde(default)]
    pub unless: Vec<String>,
}

/// Which card may come from the discard pile, where it goes, and the damage
/// counters put on it there.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FromDiscard {
    /// The card: its type, subtype, name or printed cost.
    pub of: Filter,
    pub arena: Arena,
    #[serde(default)]
    pub counters: i64,
}

/// Who keeps one unit in which arena; the rest retreat.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeepOne {
    pub chooser: Whom,
    pub arena: Arena,
}

/// The arena the opponent chooses a unit in, and the Force that saves it.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TapUnlessPays {
    pub arena: Arena,
    pub force: i64,
}

/// A scripted decision: exactly one of `dark`, `light` (or `player1`,
/// `player2` in the side bid) names who makes it and what it is.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    #[serde(default)]
    pub dark: Option<Verb>,
    #[serde(default)]
    pub light: Option<Verb>,
    #[serde(default)]
    pub player1: Option<Verb>,
    #[serde(default)]
    pub player2: Option<Verb>,
    /// The unit that acts (a card id in its stack).
    #[serde(default)]
    pub unit: Option<Spanned<String>>,
    /// The unit or card it acts on.
    #[serde(default)]
    pub target: Option<Spanned<String>>,
    /// A card (in hand, the build zone, a stack).
    #[serde(default)]
    pub card: Option<Spanned<String>>,
    /// Cards (discarded, found…).
    #[serde(default)]
    pub cards: Vec<Spanned<String>>,
    /// Die results, in order.
    #[serde(default)]
    pub dice: Vec<i64>,
    /// Positions of dice (from 1), for a reroll.
    #[serde(default)]
    pub reroll: Vec<usize>,
    #[serde(default)]
    pub amount: Option<i64>,
    #[serde(default)]
    pub arena: Option<Arena>,
    /// Put a unit card on (top of) or beneath this unit's stack.
    #[serde(default)]
    pub onto: Option<Spanned<String>>,
    #[serde(default)]
    pub beneath: bool,
    /// Which ability of the card (from 1) or which Upkeep cost.
    #[serde(default)]
    pub ability: Option<usize>,
    /// Into the build zone.
    #[serde(default)]
    pub build_zone: bool,
    /// Play the card's Enhance effect too (declared, with its additional cost).
    #[serde(default)]
    pub enhance: bool,
    /// "Choose one: …": the option taken (from 1).
    #[serde(default)]
    pub choice: Option<usize>,
    /// Two-Headed Wookiee: the team player (`a` or `b`) who pays for the
    /// decision (default: the player whose card it is).
    #[serde(default)]
    pub player: Option<Spanned<String>>,
}

/// What a scripted decision does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verb {
    /// Pass a chance to play (or end a step).
    Pass,
    /// Declare an attack: `unit` attacks `target`.
    Attack,
    /// Tap `unit` instead of attacking.
    Skip,
    /// Give die results (`dice`).
    Roll,
    /// Lucky: reroll the dice at positions `reroll` (`unit` has Lucky).
    Lucky,
    /// Intercept with `unit`.
    Intercept,
    /// Retaliate with `unit`.
    Retaliate,
    /// Evade with `unit` (prevent up to `amount`, default all it can).
    Evade,
    /// Deflect with `unit`, doing the damage to `target` (optional).
    Deflect,
    /// Overkill: put `amount` of the excess hits on `target`.
    Overkill,
    /// Double Strike: `unit` attacks `target`.
    DoubleStrike,
    /// Play a Battle card (`card`) or an activated ability (`unit`, `ability`), on `target`.
    Play,
    /// Bid Force (contest) or build points (side bid): `amount`.
    Bid,
    /// Build `card` face-down, putting `amount` build counters on it.
    Build,
    /// Complete and deploy `card`: to `arena`, `build_zone`, or `onto` a unique stack (`beneath`).
    Deploy,
    /// Equip `card` to `unit` (or `onto` an Equipment stack).
    Equip,
    /// Rearrange: put `card` on top of its stack.
    Rearrange,
    /// Move `unit` to `arena` or the build zone, or a Pilot onto `target`.
    Move,
    /// Pay Upkeep `ability` of `unit`.
    Upkeep,
    /// Retreat `unit`.
    Retreat,
    /// Discard `cards` from hand.
    Discard,
    /// Take `cards` found in a search.
    Take,
    /// Choose `target` for an effect.
    Choose,
    /// Pay what an effect asks ("unless a player pays"); `pass` declines.
    Pay,
}

impl Verb {
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Pass => "pass",
            Verb::Attack => "attack",
            Verb::Skip => "skip",
            Verb::Roll => "roll",
            Verb::Lucky => "lucky",
            Verb::Intercept => "intercept",
            Verb::Retaliate => "retaliate",
            Verb::Evade => "evade",
            Verb::Deflect => "deflect",
            Verb::Overkill => "overkill",
            Verb::DoubleStrike => "double_strike",
            Verb::Play => "play",
            Verb::Bid => "bid",
            Verb::Build => "build",
            Verb::Deploy => "deploy",
            Verb::Equip => "equip",
            Verb::Rearrange => "rearrange",
            Verb::Move => "move",
            Verb::Upkeep => "upkeep",
            Verb::Retreat => "retreat",
            Verb::Discard => "discard",
            Verb::Take => "take",
            Verb::Choose => "choose",
            Verb::Pay => "pay",
        }
    }
}

impl Step {
    /// The verb, whoever gives it.
    pub fn verb(&self) -> Verb {
        self.dark
            .or(self.light)
            .or(self.player1)
            .or(self.player2)
            .unwrap_or(Verb::Pass)
    }
    pub fn unit(&self) -> Option<&str> {
        self.unit.as_ref().map(|s| s.value.as_str())
    }
    pub fn target(&self) -> Option<&str> {
        self.target.as_ref().map(|s| s.value.as_str())
    }
    pub fn card(&self) -> Option<&str> {
        self.card.as_ref().map(|s| s.value.as_str())
    }
    pub fn onto(&self) -> Option<&str> {
        self.onto.as_ref().map(|s| s.value.as_str())
    }
    /// The decision in words.
    pub fn describe(&self) -> String {
        let mut s = self.verb().as_str().to_string();
        for (k, v) in [
            ("unit", self.unit()),
            ("card", self.card()),
            ("target", self.target()),
            ("onto", self.onto()),
        ] {
            if let Some(v) = v {
                s.push_str(&format!(" {k} {v}"));
            }
        }
        if let Some(a) = self.arena {
            s.push_str(&format!(" to {}", a.as_str()));
        }
        if let Some(a) = self.amount {
            s.push_str(&format!(" {a}"));
        }
        if !self.dice.is_empty() {
            s.push_str(&format!(" {:?}", self.dice));
        }
        s
    }
}
