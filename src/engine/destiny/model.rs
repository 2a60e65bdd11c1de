//! The Destiny board, card abilities and script steps, as read from a
//! scenario's `destiny:` key and `script:`. Every struct rejects unknown keys.

use serde::Deserialize;
use serde_saphyr::Spanned;
use std::collections::BTreeMap;

/// The two seats, as scripts and boards name them.
pub const SEATS: [&str; 2] = ["player1", "player2"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardType {
    Character,
    Upgrade,
    Support,
    Event,
    Plot,
    Battlefield,
}

impl CardType {
    pub fn as_str(self) -> &'static str {
        match self {
            CardType::Character => "character",
            CardType::Upgrade => "upgrade",
            CardType::Support => "support",
            CardType::Event => "event",
            CardType::Plot => "plot",
            CardType::Battlefield => "battlefield",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    Red,
    Blue,
    Yellow,
    Gray,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Affiliation {
    Hero,
    Villain,
    Neutral,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Keyword {
    Ambush,
    Guardian,
    Redeploy,
}

/// One card of the scenario.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardDef {
    pub title: String,
    #[serde(default)]
    pub subtitle: Option<String>,
    #[serde(rename = "type")]
    pub card_type: CardType,
    #[serde(default)]
    pub unique: bool,
    #[serde(default)]
    pub color: Option<Color>,
    #[serde(default)]
    pub affiliation: Option<Affiliation>,
    #[serde(default)]
    pub subtypes: Vec<String>,
    #[serde(default)]
    pub health: Option<i64>,
    /// Point values: one (or two for a character that can be elite; plots may be negative).
    #[serde(default)]
    pub points: Vec<i64>,
    #[serde(default)]
    pub cost: Option<i64>,
    /// The six sides of the card's die, in SWDestinyDB notation (`1MD`, `+2RD1`, `Sp`, `-`).
    #[serde(default)]
    pub die: Option<Vec<String>>,
    #[serde(default)]
    pub keywords: Vec<Keyword>,
    /// Inherent die ability: this die's shields may be distributed among your characters.
    #[serde(default)]
    pub split_shields: bool,
    /// "Damage dealt by this die is unblockable" (`die`), "… or by dice it
    /// modifies" (`modified`).
    #[serde(default)]
    pub unblockable: Option<Unblockable>,
    /// "Reroll this die instead of removing it from your pool": whenever the
    /// die would leave its controller's pool (resolved or removed), it is rerolled.
    #[serde(default)]
    pub reroll_instead: bool,
    /// "You can attach any <subtype> to this character, ignoring play
    /// restrictions": upgrades of this subtype ignore their play restrictions here.
    #[serde(default)]
    pub attach_any: Option<String>,
    /// "This character has the abilities of each non-unique character you
    /// have in play" (each copy's abilities once more: several instances of
    /// one ability are several abilities).
    #[serde(default)]
    pub has_abilities_of_non_unique: bool,
    /// "If this card would leave play as an upgrade, set it aside instead."
    #[serde(default)]
    pub aside_as_upgrade: bool,
    /// Text that applies only while building a deck ("You can include …"): it
    /// does nothing during a game.
    #[serde(default)]
    pub deck_building: bool,
    /// Text that applies only before the game, during setup (which
    /// battlefields are brought, which one is chosen and which are set
    /// aside): the board is given as setup left it, so it does nothing later.
    #[serde(default)]
    pub setup: bool,
    /// A unique upgrade whose controller's copies are non-unique while one of
    /// them is on a character with this title ("while this upgrade is on Rex,
    /// your copies of it are non-unique").
    #[serde(default)]
    pub non_unique_on: Option<String>,
    /// "Attached character is elite (place a second copy of its die on its
    /// card)": when this upgrade enters play, a die of the character's title
    /// from its owner's set-aside zone goes on the character and becomes its
    /// die; nothing when the character is already elite or there is none.
    #[serde(default)]
    pub makes_elite: bool,
    /// "You may resolve the <side> sides of this die as if they were <as>":
    /// a die resolved (by any action or effect, never when removed) with the
    /// decision's `resolve_as:` naming `as` counts as showing it.
    #[serde(default)]
    pub resolve_as: Option<ResolveAs>,
    /// What the X on this card's die is equal to.
    #[serde(default)]
    pub x: Option<XIs>,
    /// "While this die is in your pool, your other dice showing <symbol> cannot
    /// be removed by an opponent": the symbol word (`ranged`, `melee`…).
    #[serde(default)]
    pub guards: Option<String>,
    /// A change to the cost of attaching an upgrade of a subtype to this character.
    #[serde(default)]
    pub attach_cost: Option<AttachCost>,
    /// Modify: the subtype of support this mod can be played on.
    #[serde(default)]
    pub modify: Option<String>,
    /// A play restriction ("Blue character only").
    #[serde(default)]
    pub only: Option<Only>,
    /// Upgrades that cannot be played on this character ("You cannot play Blue
    /// abilities on this character"); moving or switching one here is not playing it.
    #[serde(default)]
    pub refuses: Option<Refuses>,
    /// The card's text: sentence by sentence, each saying which fields encode it
    /// (`by:`) or that it is `not_modelled:`; a plain string is wholly not modelled.
    #[serde(default)]
    pub text: crate::engine::library::CardText,
    #[serde(default)]
    pub abilities: Vec<Ability>,
    /// Where a named card came from (none for an inline definition).
    #[serde(skip)]
    pub origin: Option<crate::engine::library::Origin>,
}

/// The printed values a scenario may set on purpose on a named card (`stats:`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Printed {
    #[serde(default)]
    pub health: Option<i64>,
    #[serde(default)]
    pub cost: Option<i64>,
    #[serde(default)]
    pub points: Option<Vec<i64>>,
    #[serde(default)]
    pub die: Option<Vec<String>>,
}

/// Sides of a card's die that may be resolved as another symbol.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolveAs {
    pub side: crate::cards::die::Symbol,
    #[serde(rename = "as")]
    pub to: crate::cards::die::Symbol,
}

/// What an X on a die is equal to, for the die's controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum XIs {
    /// The number of cards in your hand.
    Hand,
    /// The number of dice of cards with this card's title in your pool.
    SameDiceInPool,
    /// The number of non-unique characters you have in play.
    NonUniqueCharacters,
}

/// "The cost to attach a <subtype> to this character is decreased (or
/// increased) by N" (`change`), only while it has no upgrade (`while_bare`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttachCost {
    pub subtype: String,
    pub change: i64,
    #[serde(default)]
    pub while_bare: bool,
}

/// Upgrades a character refuses: of this color (if given) and one of these subtypes (if given).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Refuses {
    #[serde(default)]
    pub color: Option<Color>,
    #[serde(default)]
    pub subtypes: Vec<String>,
}

/// Which damage of a card's die is unblockable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unblockable {
    /// Damage dealt by this die (and every modifier added to it).
    Die,
    /// Damage dealt by this die or by dice it modifies.
    Modified,
}

/// A play restriction: the character an upgrade goes on (or the player) must match.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Only {
    #[serde(default)]
    pub color: Option<Color>,
    /// "To play, spot a <color> character": the player must control one.
    #[serde(default)]
    pub spot: Option<Color>,
    #[serde(default)]
    pub title: Option<String>,
    /// "Non-unique character only".
    #[serde(default)]
    pub non_unique: bool,
    /// "Play only if one or more of your dice were removed during an
    /// opponent's last turn this round" (dice still yours).
    #[serde(default)]
    pub removed_last_turn: bool,
    /// "Play only if you control the battlefield."
    #[serde(default)]
    pub control_battlefield: bool,
    /// "Play only if you have N or more dice showing <symbol>" (each entry
    /// must hold: "… dice showing melee damage and shields").
    #[serde(default)]
    pub dice_showing: Vec<DiceShowing>,
}

/// "You have `at_least` (default 1) dice in your pool showing `symbol`."
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceShowing {
    pub symbol: String,
    #[serde(default = "one_die")]
    pub at_least: usize,
}

fn one_die() -> usize {
    1
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbilityKind {
    Action,
    PowerAction,
    Claim,
    Special,
    Before,
    After,
    Ongoing,
}

/// One ability: trigger, cost, condition, effect.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    pub kind: AbilityKind,
    #[serde(default)]
    pub text: Option<String>,
    /// For `before`/`after`: the trigger condition.
    #[serde(default)]
    pub on: Option<Trigger>,
    /// The player may decline it.
    #[serde(default)]
    pub may: bool,
    /// A replacement effect ("would be … instead").
    #[serde(default)]
    pub instead: bool,
    #[serde(default)]
    pub cost: Cost,
    #[serde(default)]
    pub condition: Option<Condition>,
    #[serde(default)]
    pub effect: Vec<Effect>,
    /// Resolves only if `effect` resolved in full.
    #[serde(default)]
    pub then: Vec<Effect>,
    /// "For the first time each round": only the first time its trigger
    /// happens to the card this round.
    #[serde(default)]
    pub first_each_round: bool,
    /// An action any player may take, not only the card's controller ("Any
    /// player may take an action to …").
    #[serde(default)]
    pub any_player: bool,
    /// Ongoing: hand size increase.
    #[serde(default)]
    pub hand_size: i64,
    /// Ongoing: keywords the attached character has.
    #[serde(default)]
    pub grants: Vec<Keyword>,
    /// A "before you play" ability: the cost decrease it gives.
    #[serde(default)]
    pub decrease: i64,
    /// Ongoing: a keyword each card its controller plays has, when the cost
    /// paid for it is at least a value ("each card you play that costs 3 or
    /// more has the Ambush keyword").
    #[serde(default)]
    pub grants_played: Option<PlayedGrant>,
}

/// A keyword given to the cards a player plays, by the cost paid for them.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayedGrant {
    pub keyword: Keyword,
    pub cost_at_least: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TriggerEvent {
    /// A card activates (subject: the activated card).
    Activates,
    /// A card is played (subject: the played card).
    Played,
    /// An upgrade is played on the subject.
    UpgradePlayedOn,
    /// A character is defeated.
    Defeated,
    /// A character gains shields.
    GainsShields,
    /// A character is dealt damage (even if shields block it all).
    DealtDamage,
    /// A character takes damage (a damage token is placed).
    TakesDamage,
    /// A player discards the last card from their hand.
    DiscardsLastCard,
    /// A player plays the last card from their hand.
    PlaysLastCard,
    /// A player claims the battlefield.
    Claims,
    /// One of the subject's dice is resolved.
    DieResolved,
    /// One of the subject's dice is rolled or rerolled.
    Rolled,
    /// One of the subject's dice is rolled into a pool (not rerolled there).
    RolledIn,
    /// A player takes an action (one of the six; passing is not an action).
    TakesAction,
    /// A card effect (not a die's special) removes one or more of the
    /// subject's dice (a character's own dice or its upgrades' dice).
    DiceRemoved,
    /// A player's card effect removes one or more of an opponent's dice (once per effect).
    RemovesDice,
}

impl TriggerEvent {
    pub fn as_str(self) -> &'static str {
        match self {
            TriggerEvent::Activates => "activates",
            TriggerEvent::Played => "played",
            TriggerEvent::UpgradePlayedOn => "upgrade played on",
            TriggerEvent::Defeated => "defeated",
            TriggerEvent::GainsShields => "gains shields",
            TriggerEvent::DealtDamage => "dealt damage",
            TriggerEvent::TakesDamage => "takes damage",
            TriggerEvent::DiscardsLastCard => "discards the last card in hand",
            TriggerEvent::PlaysLastCard => "plays the last card in hand",
            TriggerEvent::Claims => "claims the battlefield",
            TriggerEvent::DieResolved => "die resolved",
            TriggerEvent::Rolled => "rolled",
            TriggerEvent::RolledIn => "rolled into the pool",
            TriggerEvent::TakesAction => "takes an action",
            TriggerEvent::DiceRemoved => "dice removed",
            TriggerEvent::RemovesDice => "removes dice",
        }
    }
}

/// Whose card or which card a trigger (or a target) concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    /// The card with the ability.
    #[default]
    This,
    /// The card this upgrade is attached to.
    Attached,
    /// Any card (or player) of the ability's controller.
    Yours,
    /// Any card (or player) of an opponent.
    Opponents,
    /// Any card or player.
    Any,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageKind {
    Melee,
    Ranged,
    Indirect,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trigger {
    pub event: TriggerEvent,
    #[serde(default)]
    pub who: Who,
    /// Only damage of this kind (`takes_damage`, `dealt_damage`).
    #[serde(default)]
    pub damage: Option<DamageKind>,
    /// Only cards of this type (`played`, `activates`).
    #[serde(default, rename = "type")]
    pub card_type: Option<CardType>,
    /// Only cards of this color (`played`).
    #[serde(default)]
    pub color: Option<Color>,
    /// Only cards of this subtype (`played`).
    #[serde(default)]
    pub subtype: Option<String>,
    /// Only an upgrade attached to the card with the ability ("after you play
    /// a weapon on this character").
    #[serde(default)]
    pub on_this: bool,
    /// Only if the player resolving the die controls the subject (`die_resolved`).
    #[serde(default)]
    pub by_controller: bool,
    /// Only if an opponent of the ability's controller did it.
    #[serde(default)]
    pub by_opponent: bool,
    /// Only if the ability's controller did it ("after you deal … to yourself").
    #[serde(default)]
    pub by_you: bool,
    /// `rolled`: only when one of the dice just rolled shows this symbol
    /// ("after one of your dice rolls a focus").
    #[serde(default)]
    pub showing: Option<String>,
}

/// Costs paid to use an ability.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cost {
    #[serde(default)]
    pub exhaust_this: bool,
    #[serde(default)]
    pub resources: i64,
    /// Cards discarded from hand (named in the decision's `discard:`).
    #[serde(default)]
    pub discard: usize,
    /// Shields removed from the card with the ability.
    #[serde(default)]
    pub shields: i64,
    /// Resources equal to the number of dice just rolled.
    #[serde(default)]
    pub resources_per_die_rolled: bool,
    /// Set the card with the ability aside.
    #[serde(default)]
    pub set_aside_this: bool,
    /// "Remove this die": a die of the card with the ability, in its
    /// controller's pool, is removed (of two, the decision's `remove:`).
    #[serde(default)]
    pub remove_this_die: bool,
}

/// Which dice an effect or cost may pick.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DieFilter {
    #[serde(default)]
    pub whose: Who,
    /// The die's card title.
    #[serde(default)]
    pub title: Option<String>,
    /// Only character dice (dice matching a character card, not upgrade dice).
    #[serde(default)]
    pub character: bool,
    /// What the die shows: `damage`, `ranged`, `melee`, `indirect`, `blank`, `shield`…, or any.
    #[serde(default)]
    pub showing: Option<String>,
    /// Only dice of this color (the color of the die's card).
    #[serde(default)]
    pub color: Option<Color>,
    /// Only dice showing a value of at most this.
    #[serde(default)]
    pub value_at_most: Option<Amount>,
    /// Only dice showing an odd, or an even, value (a blank or a special
    /// shows 0, and zero is even).
    #[serde(default)]
    pub parity: Option<Parity>,
    /// Only dice showing a side with a resource cost.
    #[serde(default)]
    pub resource_cost: bool,
    /// Only dice showing a modifier side (a side with a +).
    #[serde(default)]
    pub modifier: bool,
}

/// Odd or even, of a die's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Parity {
    Odd,
    Even,
}

impl Parity {
    /// Whether `n` is odd or even as this says (zero is even).
    pub fn holds(self, n: i64) -> bool {
        match self {
            Parity::Odd => n % 2 != 0,
            Parity::Even => n % 2 == 0,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// Spot a character of this color.
    #[serde(default)]
    pub spot: Option<Color>,
    /// "If you control the battlefield".
    #[serde(default)]
    pub control_battlefield: bool,
    /// "If there is another copy of this event in your discard pile".
    #[serde(default)]
    pub copy_in_discard: bool,
    /// "In the first round of play".
    #[serde(default)]
    pub first_round: bool,
    /// "Spot a <title>", "spot a <subtype>", "spot two Red characters": the
    /// user has `count` cards in play that match.
    #[serde(default)]
    pub spot_card: Option<SpotCard>,
    /// "If this card is an <type>": the card with the ability is now of this type.
    #[serde(default)]
    pub this_is: Option<CardType>,
}

/// Cards of the user's to spot: of this title, subtype, type and color
/// (each if given), `count` of them (1 by default).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpotCard {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub subtype: Option<String>,
    #[serde(default, rename = "type")]
    pub card_type: Option<CardType>,
    #[serde(default)]
    pub color: Option<Color>,
    #[serde(default = "one_die")]
    pub count: usize,
}

/// How much: a number, or the value of the die removed by this ability (`removed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Amount {
    N(i64),
    /// The value (or combined value) of the dice this ability removed.
    Removed,
    /// The number of characters the ability's user has in play.
    YourCharacters,
    /// The remaining health of the card with the ability.
    RemainingHealth,
    /// The number of shields on the user's characters.
    YourShields,
    /// All the damage on the card with the ability.
    ThisDamage,
    /// The number of opponents' dice the user just removed.
    RemovedOpponentsDice,
    /// The number of shields on the card whose die is being resolved.
    DieCardShields,
    /// The number of dice this ability removed ("equal to the number of
    /// dice you just removed").
    RemovedDice,
    /// The number of other copies of the card with the ability (by title) in
    /// its controller's discard pile.
    OtherCopiesInDiscard,
    /// The number of characters an opponent has in play.
    OpponentsCharacters,
    /// What the ability's last `count` effect counted ("that many").
    Counted,
}

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Amount;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a number, `removed`, `your_characters`, `remaining_health` or `your_shields`",
                )
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Amount, E> {
                Ok(Amount::N(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Amount, E> {
                i64::try_from(v)
                    .map(Amount::N)
                    .map_err(|_| E::custom("number too large"))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Amount, E> {
                match v {
                    "removed" => Ok(Amount::Removed),
                    "your_characters" => Ok(Amount::YourCharacters),
                    "remaining_health" => Ok(Amount::RemainingHealth),
                    "your_shields" => Ok(Amount::YourShields),
                    "this_damage" => Ok(Amount::ThisDamage),
                    "removed_opponents_dice" => Ok(Amount::RemovedOpponentsDice),
                    "die_card_shields" => Ok(Amount::DieCardShields),
                    "removed_dice" => Ok(Amount::RemovedDice),
                    "other_copies_in_discard" => Ok(Amount::OtherCopiesInDiscard),
                    "opponents_characters" => Ok(Amount::OpponentsCharacters),
                    "counted" => Ok(Amount::Counted),
                    _ => Err(E::custom(format!(
                        "unknown amount `{v}`: a number, `removed`, `your_characters`, `remaining_health` or `your_shields`"
                    ))),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// Which character(s) or card an effect concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// A character chosen by the player using the ability (any player's).
    Chosen,
    /// One of the user's characters, chosen.
    ChosenYours,
    /// One of an opponent's characters, chosen.
    ChosenOpponents,
    /// One of an opponent's characters or supports, chosen.
    ChosenOpponentsCard,
    /// A support in play, any player's, chosen.
    ChosenSupport,
    /// The character whose die this ability removed ("that character").
    RemovedDieCard,
    /// The card with the ability.
    This,
    /// The card this upgrade is attached to.
    Attached,
    /// The card the trigger concerns.
    Subject,
    /// Each of an opponent's characters.
    EachOpponents,
    /// Each of the user's characters.
    EachYours,
    /// Another one of the user's characters (not the card with the ability,
    /// nor the character an upgrade with the ability is attached to), chosen.
    ChosenOtherYours,
    /// Another character, any player's (not the card with the ability, nor
    /// the character an upgrade with the ability is attached to), chosen.
    ChosenOther,
    /// The card the previous effect of the ability targeted ("its", "that character").
    Same,
    /// One of an opponent's characters, which that opponent chooses ("each
    /// player activates one of their characters"): their own `use` of the
    /// card with the ability, naming it in `to:` (and anything else the
    /// effect needs of them, such as the sides rolled in `roll:`).
    OpponentsOwn,
}

/// One effect. Effects of an ability resolve in order; `then:` needs them all in full.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Deal damage to the target; with `up_to`, "deal N damage each to up to
    /// K different characters": the rest of the decision's `to:` names at
    /// most K characters, all different, each dealt the damage.
    Damage {
        amount: Amount,
        to: Target,
        #[serde(default)]
        unblockable: bool,
        #[serde(default)]
        up_to: Option<usize>,
        /// Only a character of this color ("one of your Blue characters").
        #[serde(default)]
        color: Option<Color>,
    },
    /// Block damage being dealt (a "before" ability of taking damage).
    Block {
        amount: Amount,
    },
    /// Indirect damage to an opponent, distributed as they wish; to the
    /// user, distributed as they wish, with `yourself` ("deal 1 indirect
    /// damage to yourself").
    Indirect {
        amount: Amount,
        #[serde(default)]
        yourself: bool,
    },
    /// Give shields to the target; with `distributed`, "give N shields to
    /// your characters, distributed as you wish": the decision's `assign:`
    /// (character → shields, the user's characters) gives all N.
    Shields {
        amount: Amount,
        to: Target,
        #[serde(default)]
        distributed: bool,
    },
    Heal {
        amount: Amount,
        to: Target,
    },
    /// Remove shields from the target (each of an opponent's characters with
    /// `each_opponents`): `amount` of them, or all of them when it is not given.
    RemoveShields {
        #[serde(default)]
        amount: Option<Amount>,
        to: Target,
    },
    /// Gain resources; with `each_player`, each player gains them; with
    /// `opponent`, an opponent gains them ("then that opponent gains 1 resource").
    Gain {
        amount: Amount,
        #[serde(default)]
        each_player: bool,
        #[serde(default)]
        opponent: bool,
    },
    /// Spend resources ("spend N resources to …"): the user cannot take
    /// this effect without paying them all.
    Spend {
        amount: Amount,
    },
    /// An opponent loses resources.
    Lose {
        amount: Amount,
    },
    /// Take resources from an opponent (they lose them, you gain them).
    Take {
        amount: Amount,
    },
    /// Draw cards; with `each_player`, each player draws them.
    Draw {
        amount: Amount,
        #[serde(default)]
        each_player: bool,
    },
    /// Draw until your hand size.
    DrawToHandSize,
    /// Discard the top cards of your deck (of an opponent's, with `opponents`).
    DiscardTop {
        amount: Amount,
        #[serde(default)]
        opponents: bool,
    },
    /// Add a card of one of these types from your discard pile to your hand (`may`).
    FromDiscard {
        types: Vec<CardType>,
    },
    /// An opponent discards cards at random.
    DiscardRandom {
        amount: Amount,
    },
    /// Remove a die from a pool (chosen in the decision's `remove:`); `removed` is its value.
    /// With `place_here`, the die is placed on the card with the ability,
    /// under its controller's control: it is not rolled with its own card
    /// and goes back to it only when the card with the ability leaves play.
    RemoveDie {
        filter: DieFilter,
        #[serde(default)]
        place_here: bool,
    },
    /// Roll one of the user's dice that were removed from their pool during
    /// an opponent's last turn this round, and are still theirs (the
    /// decision's `dice:`), into their pool.
    RollRemoved,
    /// Remove every die matching the filter.
    RemoveAll {
        filter: DieFilter,
    },
    /// Remove any number of dice matching the filter (the decision's `dice:`),
    /// increasing each of their values by `increase`; `removed` is their
    /// combined value (none when no die is removed).
    RemoveDice {
        filter: DieFilter,
        #[serde(default)]
        increase: i64,
        /// "Up to N": at most this many dice.
        #[serde(default)]
        at_most: Option<Amount>,
        /// "Remove that many": exactly this many dice, or every die that can
        /// be removed when there are fewer.
        #[serde(default)]
        exactly: Option<Amount>,
    },
    /// "Count the number of …": dice or cards; later effects of the ability
    /// read the number as `counted`.
    Count(Counted),
    /// Discard a card from play (the decision's `to:`): of one of `types`
    /// (and one of `subtypes`, if given), costing at most `cost_at_most`; with
    /// `pay_dice`, the player removes as many of their character dice (the
    /// decision's `dice:`) as the card costs.
    DiscardFromPlay {
        types: Vec<CardType>,
        #[serde(default)]
        subtypes: Vec<String>,
        #[serde(default)]
        cost_at_most: Option<Amount>,
        #[serde(default)]
        pay_dice: bool,
    },
    /// Place the card with the ability on the bottom of its owner's deck.
    ToDeckBottom,
    /// Reroll any number of dice (named, with results, in the decision):
    /// `whose: this` the dice of the card with the ability; at most `count`
    /// of them ("reroll one of …"); only character dice (`character`).
    Reroll {
        whose: Who,
        #[serde(default)]
        count: Option<Amount>,
        #[serde(default)]
        character: bool,
        /// Only dice of this color.
        #[serde(default)]
        color: Option<Color>,
        /// Every die in a pool it may reroll, not any number ("reroll all dice").
        #[serde(default)]
        all: bool,
        /// Only dice showing this symbol.
        #[serde(default)]
        showing: Option<String>,
    },
    /// Carry out `effect` only if `condition` holds ("…, or, if you control
    /// the battlefield, …"); if it does not, `otherwise` ("X, or Y instead
    /// if …": Y the effect, X otherwise).
    If {
        condition: Condition,
        effect: Vec<Effect>,
        #[serde(default)]
        otherwise: Vec<Effect>,
    },
    /// Turn up to `count` dice to sides of your choice (the decision's `turn:`):
    /// only the die of the card with the ability (`whose: this`, the
    /// default) or of the character it is attached to (`attached`), your
    /// dice (`yours`), an opponent's (`opponents`) or any player's (`any`);
    /// only character dice (`character`); only dice showing a symbol
    /// (`showing`); only to a blank side (`to_blank`).
    Turn {
        count: i64,
        #[serde(default)]
        whose: Who,
        #[serde(default)]
        character: bool,
        #[serde(default)]
        showing: Option<String>,
        #[serde(default)]
        to_blank: bool,
        /// Only to a side showing this symbol ("to a side showing ranged damage").
        #[serde(default)]
        to_showing: Option<String>,
    },
    Exhaust {
        to: Target,
    },
    /// Defeat the target (only a character of `color`, if given); in full
    /// only if this defeats it (not when it is already defeated).
    Defeat {
        to: Target,
        #[serde(default)]
        color: Option<Color>,
    },
    Ready {
        to: Target,
    },
    /// This card becomes a support.
    BecomeSupport,
    /// Search your deck or discard pile for a card with this title (the
    /// decision's `play:`; none: nothing) and attach it to the card with the
    /// ability as an upgrade, without paying its cost; a second copy of a
    /// unique card: its controller discards one of the copies (`discard:`).
    AttachFrom {
        title: String,
    },
    /// The card with the ability becomes an upgrade on one of the user's
    /// supports of `subtype` and titled `title` (each if given; the
    /// decision's `on:`), keeping its dice (a character so attached is not
    /// defeated); that support readies if its title is `ready_title`.
    AttachSelf {
        #[serde(default)]
        subtype: Option<String>,
        #[serde(default)]
        title: Option<String>,
        #[serde(default)]
        ready_title: Option<String>,
    },
    /// The target is defeated after this round ends (a delayed effect).
    DefeatAfterRound {
        to: Target,
    },
    /// Take an additional action.
    ExtraAction,
    /// Resolve one of your dice in the pool (the decision's `dice:`): one of
    /// the dice of the card `of` (or of its upgrades), or any die `showing` a
    /// symbol; `each_opponents`: against each of an opponent's characters (any
    /// resource cost paid once).
    ResolveDie {
        #[serde(default)]
        of: Option<Target>,
        #[serde(default)]
        showing: Option<String>,
        #[serde(default)]
        each_opponents: bool,
        /// "If it has a resource cost, you do not have to pay it."
        #[serde(default)]
        free: bool,
        /// Only character dice (not upgrade dice).
        #[serde(default)]
        character: bool,
        /// "Increasing its value by N".
        #[serde(default = "no_amount")]
        increase: Amount,
        /// Only dice of this color.
        #[serde(default)]
        color: Option<Color>,
        /// "You may resolve it": when the decision names no die, none is.
        #[serde(default)]
        optional: bool,
    },
    /// An opponent may give the user `amount` resources (a `use` of this card
    /// by the opponent, or `decline`) to remove this card's die from the pool.
    OpponentMayPayToRemove {
        amount: i64,
    },
    /// Carry out `effect`; then the opponent may discard a card from their
    /// hand (a `use` of this card naming it in `discard:`, or `decline`) to
    /// repeat it, as long as they discard.
    RepeatOnDiscard {
        effect: Vec<Effect>,
    },
    /// Resolve a special ability on another card in play (the decision's
    /// `uses:`) as if it were your card.
    UseSpecial,
    /// Use the claim ability of a battlefield in the set-aside zone (the
    /// decision's `uses:`) as if you had just claimed it.
    ClaimSetAside,
    /// Switch this upgrade with an upgrade in your hand (the decision's `play:`)
    /// of `color` and one of `subtypes`, ignoring its play restrictions and
    /// paying nothing; then you may spend `roll_cost` resources to roll its die
    /// into your pool (the decision's `roll:` for it).
    SwitchUpgrade {
        #[serde(default)]
        color: Option<Color>,
        #[serde(default)]
        subtypes: Vec<String>,
        #[serde(default)]
        roll_cost: Option<i64>,
    },
    /// Reroll every die in a pool showing a symbol that none of the target's
    /// character dice in a pool shows (every die, when none of them is in a
    /// pool), each with the side the decision's `roll:` names.
    RerollUnmatched {
        of: Target,
    },
    /// Roll the dice on the target card into your pool.
    RollIn {
        of: Target,
    },
    /// Move damage from one character to another; with `up_to`, "move up
    /// to N damage": the decision's `amount:` says how much (0 to N, at most
    /// the damage on the first character).
    MoveDamage {
        amount: Amount,
        from: Target,
        to: Target,
        #[serde(default)]
        up_to: bool,
    },
    /// Move a shield from one of your characters to another (the decision's `to:`).
    MoveShield,
    /// Choose a character die (the decision's `dice:`, in a pool or not): it
    /// cannot be rolled during the next round.
    FreezeDie,
    /// An opponent must, as their next action this round, if able: activate
    /// one of their characters (`activate`), or play the event of their hand
    /// the decision's `play:` names (`play_chosen`, their hand revealed).
    ForceNext {
        must: Must,
    },
    /// An opponent cannot take the action the user just took on their next turn.
    ForbidSameAction,
    /// Roll a die of a card with this title from your set-aside zone into your
    /// pool (nothing if there is none); it is set aside again once resolved or
    /// removed, its card not being in play.
    RollSetAside {
        title: String,
    },
    /// Move an upgrade (the decision's `upgrade:`) to a character (its `on:`), ignoring play restrictions.
    MoveUpgrade {
        #[serde(default)]
        from: Option<Target>,
    },
    /// End the action phase.
    EndActionPhase,
    /// Give control of the battlefield to an opponent.
    GiveBattlefield,
    /// Take control of the battlefield (this does not claim it).
    TakeBattlefield,
    /// Switch the battlefield with the one set aside (control does not change).
    SwitchBattlefield,
    /// Choose either option (the decision's `option:`, from 1); with `count`
    /// above 1, that many different options (the decision's `options:`).
    Choose {
        options: Vec<Vec<Effect>>,
        #[serde(default = "one_choice")]
        count: usize,
    },
    /// Discard the card with the ability.
    DiscardThis,
    /// Each player with the lowest combined value of the character dice this
    /// ability's activations just rolled for them removes those dice.
    LowestRolledRemove,
    /// Activate one of your characters (exhaust it and roll its dice, the
    /// decision's `roll:` naming each side), as the activate action does;
    /// only a character of `color`, if given.
    Activate {
        to: Target,
        #[serde(default)]
        color: Option<Color>,
    },
    /// Stack a card from the user's hand (the decision's `stack:`) facedown
    /// on the card with the ability.
    StackFromHand,
    /// Play the card stacked on another copy of a card with this title, in
    /// any player's set-aside zone (the decision's `uses:`), for free, then
    /// discard that copy to its owner's discard pile; a stacked card a play
    /// restriction keeps from being played goes to its owner's discard pile.
    PlayStacked {
        title: String,
    },
    /// Set the card with the ability aside (an event being resolved goes to
    /// the set-aside zone instead of the discard pile).
    SetAsideThis,
    /// Resolve one of the sides of the die of the card this ability
    /// discarded from hand (the decision's `discard:`), chosen in the
    /// decision's `side:`, if able: the die is not rolled and never enters a
    /// pool, so nothing that acts on the die in a pool applies.
    ResolveSide,
    /// Play a card from your hand (the decision's `play:` and `on:`), paying its cost minus `discount`.
    PlayFromHand {
        #[serde(default)]
        types: Vec<CardType>,
        /// Only a card of one of these subtypes.
        #[serde(default)]
        subtypes: Vec<String>,
        /// Instead of a card in hand: the card this ability discarded from
        /// hand (the decision's `discard:`), from your discard pile.
        #[serde(default)]
        discarded: bool,
        /// A card from your hand or your discard pile.
        #[serde(default)]
        or_discard: bool,
        /// A card from your discard pile (not from hand).
        #[serde(default)]
        from_discard: bool,
        /// An upgrade played on the card with the ability ("on her").
        #[serde(default)]
        on_this: bool,
        /// The `discount` only for a card with this word in its title.
        #[serde(default)]
        discount_if_title: Option<String>,
        /// Only a card of this color.
        #[serde(default)]
        color: Option<Color>,
        #[serde(default)]
        discount: i64,
        /// For free ("play a card … for free").
        #[serde(default)]
        free: bool,
        /// Only a card whose cost is at most this (its printed cost: decreases do not count).
        #[serde(default)]
        cost_at_most: Option<Amount>,
        /// Only a card whose printed cost is at least this ("that costs 3 or more").
        #[serde(default)]
        cost_at_least: Option<i64>,
    },
}

/// What a `count` effect counts.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Counted {
    /// The dice in a pool the filter matches ("blanks showing on an
    /// opponent's dice"), whether or not they could be removed.
    Dice(DieFilter),
    /// The user's cards in play that match ("Red characters you have", "upgrades you have in play").
    Cards(SpotCard),
}

/// What an opponent must do as their next action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Must {
    Activate,
    PlayChosen,
}

fn no_amount() -> Amount {
    Amount::N(0)
}

fn one_choice() -> usize {
    1
}

// ---------------------------------------------------------------- the board

/// A card in play (character, support) with its state and what is on it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placed {
    pub card: Spanned<String>,
    #[serde(default)]
    pub elite: bool,
    #[serde(default)]
    pub damage: i64,
    #[serde(default)]
    pub shields: i64,
    #[serde(default)]
    pub exhausted: bool,
    #[serde(default)]
    pub upgrades: Vec<Placed>,
}

/// One player's side of the table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    #[serde(default = "two")]
    pub resources: i64,
    #[serde(default)]
    pub characters: Vec<Placed>,
    #[serde(default)]
    pub supports: Vec<Placed>,
    #[serde(default)]
    pub plot: Option<Spanned<String>>,
    #[serde(default)]
    pub hand: Vec<Spanned<String>>,
    /// Top card first.
    #[serde(default)]
    pub deck: Vec<Spanned<String>>,
    #[serde(default)]
    pub discard: Vec<Spanned<String>>,
    /// Cards in the set-aside zone (defeated characters, unused battlefields…).
    #[serde(default)]
    pub set_aside: Vec<Spanned<String>>,
    /// Cards stacked facedown on a card of the set-aside zone: that card's
    /// key → the stacked card's key.
    #[serde(default, deserialize_with = "crate::yaml::unique")]
    pub stacked: BTreeMap<String, Spanned<String>>,
    /// Dice in the pool: die ID → side showing.
    #[serde(default, deserialize_with = "crate::yaml::unique")]
    pub pool: BTreeMap<String, Spanned<String>>,
}

fn two() -> i64 {
    2
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerName {
    Player1,
    Player2,
}

impl PlayerName {
    pub fn seat(self) -> u8 {
        match self {
            PlayerName::Player1 => 0,
            PlayerName::Player2 => 1,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattlefieldDef {
    pub card: Spanned<String>,
    #[serde(default)]
    pub controller: Option<PlayerName>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseName {
    Action,
    Upkeep,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// The cards, by key: inline definitions or named library cards.
    #[serde(default, deserialize_with = "crate::engine::library::cards")]
    pub cards: BTreeMap<String, Spanned<CardDef>>,
    #[serde(default)]
    pub battlefield: Option<BattlefieldDef>,
    /// Who takes the next turn (default: the battlefield's controller, else player1).
    #[serde(default)]
    pub first: Option<PlayerName>,
    /// The player who already claimed the battlefield this round.
    #[serde(default)]
    pub claimed: Option<PlayerName>,
    /// Players who already replaced an upgrade this round.
    #[serde(default)]
    pub replaced: Vec<PlayerName>,
    #[serde(default = "one")]
    pub round: i64,
    /// The phase the position starts in (default: action).
    #[serde(default)]
    pub phase: Option<PhaseName>,
    /// Check both teams (points, affiliations, unique characters) and report them.
    #[serde(default)]
    pub check_team: bool,
    #[serde(default)]
    pub player1: Side,
    #[serde(default)]
    pub player2: Side,
}

fn one() -> i64 {
    1
}

impl Board {
    pub fn side(&self, s: u8) -> &Side {
        if s == 0 { &self.player1 } else { &self.player2 }
    }
}

// ---------------------------------------------------------------- the script

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verb {
    /// Play a card from hand.
    Play,
    /// Activate a character or support.
    Activate,
    /// Resolve dice.
    Resolve,
    /// Discard a card to reroll dice.
    Reroll,
    /// Use a card's action (or power action).
    Action,
    /// Claim the battlefield.
    Claim,
    /// Pass the turn.
    Pass,
    /// Use an optional triggered ability (or give a mandatory one its choices).
    Use,
    /// Decline an optional ability or an additional action.
    Decline,
    /// Distribute damage "as you wish".
    Assign,
    /// Order simultaneous abilities.
    Order,
    /// Upkeep: discard cards before drawing.
    Discard,
}

impl Verb {
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Play => "play",
            Verb::Activate => "activate",
            Verb::Resolve => "resolve",
            Verb::Reroll => "reroll",
            Verb::Action => "action",
            Verb::Claim => "claim",
            Verb::Pass => "pass",
            Verb::Use => "use",
            Verb::Decline => "decline",
            Verb::Assign => "assign",
            Verb::Order => "order",
            Verb::Discard => "discard",
        }
    }
    /// One of the six actions (or a pass).
    pub fn is_action(self) -> bool {
        matches!(
            self,
            Verb::Play
                | Verb::Activate
                | Verb::Resolve
                | Verb::Reroll
                | Verb::Action
                | Verb::Claim
                | Verb::Pass
        )
    }
}

/// One scripted decision: exactly one of `player1:`/`player2:` names the verb.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    #[serde(default)]
    pub player1: Option<Verb>,
    #[serde(default)]
    pub player2: Option<Verb>,
    /// The card played, activated, used or declined.
    #[serde(default)]
    pub card: Option<String>,
    /// Which of the card's abilities (from 1), when it has several of the kind.
    #[serde(default)]
    pub ability: Option<usize>,
    /// The card an upgrade is played on.
    #[serde(default)]
    pub on: Option<String>,
    /// The upgrade replaced to decrease the cost.
    #[serde(default)]
    pub replace: Option<String>,
    /// Cards whose "before you play" cost decreases are used.
    #[serde(default)]
    pub with: Vec<String>,
    /// Cards discarded (reroll action, costs, upkeep, a 4th upgrade).
    #[serde(default)]
    pub discard: Vec<String>,
    /// Dice resolved (a modified die: `base+modifier`) or rerolled.
    #[serde(default)]
    pub dice: Vec<String>,
    /// Targets, in order (one per resolved die, or per chosen target of an ability).
    #[serde(default)]
    pub to: Vec<String>,
    /// Roll results: die → side.
    #[serde(default, deserialize_with = "crate::yaml::unique")]
    pub roll: BTreeMap<String, String>,
    /// Focus or turn: die → side.
    #[serde(default, deserialize_with = "crate::yaml::unique")]
    pub turn: BTreeMap<String, String>,
    /// Random discards: the cards.
    #[serde(default)]
    pub random: Vec<String>,
    /// Damage distributed: character → amount.
    #[serde(default, deserialize_with = "crate::yaml::unique")]
    pub assign: BTreeMap<String, i64>,
    /// Choose either: the option taken (from 1).
    #[serde(default)]
    pub option: Option<usize>,
    /// Choose several: the options taken (from 1).
    #[serde(default)]
    pub options: Vec<usize>,
    /// How much, where the ability says "up to N" (`move_damage` with `up_to`).
    #[serde(default)]
    pub amount: Option<i64>,
    /// Order of simultaneous abilities: cards, or players.
    #[serde(default)]
    pub order: Vec<String>,
    /// A die removed by an ability or by Guardian; a list when an ability
    /// removes dice more than once (the first removal takes the first, …).
    #[serde(default, deserialize_with = "one_or_many")]
    pub remove: Vec<String>,
    /// An upgrade moved by an ability (`move_upgrade`).
    #[serde(default)]
    pub upgrade: Option<String>,
    /// A card played by an ability (`play_from_hand`).
    #[serde(default)]
    pub play: Option<String>,
    /// A card whose ability an effect uses (`use_special`, `claim_set_aside`).
    #[serde(default)]
    pub uses: Option<String>,
    /// Resolve the dice as showing this symbol, where their card allows it
    /// (`resolve_as` on the card).
    #[serde(default)]
    pub resolve_as: Option<crate::cards::die::Symbol>,
    /// The card stacked facedown (`stack_from_hand`).
    #[serde(default)]
    pub stack: Option<String>,
    /// The side of a die an effect resolves without rolling it (`resolve_side`).
    #[serde(default)]
    pub side: Option<String>,
    /// Claim: decline the claim ability.
    #[serde(default)]
    pub no_claim_ability: bool,
    /// A comment for people.
    #[serde(default)]
    pub say: Option<String>,
}

/// A string, or a list of strings.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        One(String),
        Many(Vec<String>),
    }
    Ok(match Either::deserialize(d)? {
        Either::One(s) => vec![s],
        Either::Many(v) => v,
    })
}

impl Step {
    pub fn verb(&self) -> Option<Verb> {
        self.player1.or(self.player2)
    }
}
