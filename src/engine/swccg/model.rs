//! The SWCCG board, abilities and script steps, as read from a scenario's
//! `swccg:` key and `script:`. Every struct rejects unknown keys.

use serde::Deserialize;
use serde_saphyr::Spanned;
use std::collections::BTreeMap;

/// A string with the position it was read from.
pub type Pos<T> = Spanned<T>;

// ---------------------------------------------------------------- SWCCG board

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, serde::Serialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Light,
    Dark,
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Light => Side::Dark,
            Side::Dark => Side::Light,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Light => "light",
            Side::Dark => "dark",
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::Light => "Light",
            Side::Dark => "Dark",
        }
    }
    pub fn ix(self) -> usize {
        match self {
            Side::Light => 0,
            Side::Dark => 1,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Activate,
    Control,
    Deploy,
    Battle,
    Move,
    Draw,
    /// Start of turn: mandatory, then optional start of turn actions (AR Start Of Turn).
    #[serde(rename = "start_of_turn")]
    StartOfTurn,
    /// End of turn: mandatory, then optional end of turn actions (AR End Of Turn).
    #[serde(rename = "end_of_turn")]
    EndOfTurn,
    /// Starting the game (AR Ch.2): starting cards, starting locations, starting hands.
    #[serde(rename = "start_of_game")]
    StartOfGame,
}

impl Phase {
    /// Position in the turn (AR: Order Of Events In A Turn), from 0.
    pub fn index(self) -> usize {
        match self {
            Phase::StartOfGame => 0,
            Phase::StartOfTurn => 1,
            Phase::EndOfTurn => 8,
            p => p as usize + 2,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Activate => "activate",
            Phase::Control => "control",
            Phase::Deploy => "deploy",
            Phase::Battle => "battle",
            Phase::Move => "move",
            Phase::Draw => "draw",
            Phase::StartOfTurn => "start of turn",
            Phase::EndOfTurn => "end of turn",
            Phase::StartOfGame => "start of game",
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// Whose turn it is (required for a board position).
    #[serde(default)]
    pub turn: Option<Side>,
    /// The phase (required for a board position).
    #[serde(default)]
    pub phase: Option<Phase>,
    /// Who performs the next top-level action (default: the player whose turn it is).
    #[serde(default)]
    pub next: Option<Side>,
    /// The last phase the run may reach (default: `phase`): when a phase ends and the
    /// script still has decisions, the next phase of the turn begins, up to this one.
    #[serde(default)]
    pub through: Option<Pos<Phase>>,
    /// Every physical card of the scenario, keyed by a short name used everywhere else.
    /// Each is an inline definition or a card named from the library.
    #[serde(default, deserialize_with = "crate::engine::library::cards")]
    pub cards: BTreeMap<String, Pos<CardDef>>,
    #[serde(default)]
    pub light: Piles,
    #[serde(default)]
    pub dark: Piles,
    /// Locations on table and the cards at them: each an inline definition, or a
    /// library (or imported) location card named with `card:`.
    #[serde(default, deserialize_with = "super::library::locations")]
    pub locations: Vec<LocationDef>,
    /// Cards on table but at no location (Effects, Objectives…).
    #[serde(default)]
    pub table: Vec<Placed>,
    /// Actions already on the stack when the disputed position starts, bottom first
    /// (their responses begin fresh).
    #[serde(default)]
    pub stack: Vec<Pending>,
    /// Cards and locations a judge asks about: where each is, in the rulebook's words
    /// (at, present, presence, on, aboard), answered at the end of the run.
    #[serde(default)]
    pub locate: Vec<Pos<String>>,
    // ---- identification (AR Appendix D)
    /// Questions about cards, answered at the end of the run (`is.<card>.<term>`…).
    #[serde(default)]
    pub questions: Vec<super::identify::Question>,
    // ---- battles earlier this turn (AR Battle: each card battles once per turn)
    /// Cards that already battled this turn: they do not participate in a battle again.
    #[serde(default)]
    pub battled_this_turn: Vec<Pos<String>>,
    /// Cards that may not battle this turn (e.g. prevented by a Rebel Barrier played
    /// earlier): each is excluded from a battle as an automatic action when it begins.
    #[serde(default)]
    pub may_not_battle: Vec<Pos<String>>,
    // ---- durations (AR Actions - Duration)
    /// Changes already in force for a stated duration when the position starts.
    #[serde(default)]
    pub durations: Vec<super::globals::Timed>,
    // ---- unique cards played this turn (AR Unique, Restricted & Non-Unique)
    /// Cards played or deployed earlier this turn (by either player): a unique title
    /// may be played once per turn.
    #[serde(default)]
    pub played_this_turn: Vec<Pos<String>>,
}

/// The most cards a counted pile may hold: a whole deck ("the 60-card deck", AR Ch. 1).
pub const MAX_PILE: u64 = 60;

/// A deck or pile as the board gives it: its cards by key, top card first, or only
/// how many face-down cards it holds (`force_pile: 8`), whose identity is not given.
#[derive(Debug, Clone)]
pub enum PileList {
    Cards(Vec<Pos<String>>),
    Count(u32),
}

impl Default for PileList {
    fn default() -> Self {
        PileList::Cards(Vec::new())
    }
}

impl std::ops::Deref for PileList {
    type Target = [Pos<String>];
    /// The cards given by key (none for a counted pile).
    fn deref(&self) -> &[Pos<String>] {
        match self {
            PileList::Cards(v) => v,
            PileList::Count(_) => &[],
        }
    }
}

impl PileList {
    /// How many face-down cards the board gives by count alone.
    pub fn count(&self) -> u32 {
        match self {
            PileList::Cards(_) => 0,
            PileList::Count(n) => *n,
        }
    }
}

impl<'de> Deserialize<'de> for PileList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{self, SeqAccess, Visitor};
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PileList;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of card keys, top card first, or a number of face-down cards")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<PileList, E> {
                if n > MAX_PILE {
                    return Err(E::custom(format!(
                        "a pile of {n} cards: a pile holds at most {MAX_PILE} (a whole deck)"
                    )));
                }
                Ok(PileList::Count(n as u32))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<PileList, E> {
                match u64::try_from(n) {
                    Ok(n) => self.visit_u64(n),
                    Err(_) => Err(E::custom(format!(
                        "a pile of {n} cards: a count is 0 or more"
                    ))),
                }
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<PileList, A::Error> {
                let mut v = Vec::new();
                while let Some(k) = s.next_element::<Pos<String>>()? {
                    v.push(k);
                }
                Ok(PileList::Cards(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// A card of a pile the board gives by count: where it was, and that its identity
/// is not given (AR Unit of Force: a card in a deck or pile has no aspects to it).
#[derive(Debug, Clone, Copy)]
pub struct FaceDown {
    pub side: Side,
    pub pile: PileName,
    /// Its position in that pile as the board gives it, from 1 (the top card).
    pub nth: u32,
}

impl FaceDown {
    /// Why the run cannot go on when this card's identity is needed.
    pub fn identity_not_given(&self) -> String {
        let n = self.nth;
        let suffix = match (n % 10, n % 100) {
            (_, 11..=13) => "th",
            (1, _) => "st",
            (2, _) => "nd",
            (3, _) => "rd",
            _ => "th",
        };
        format!(
            "the {n}{suffix} card of {}'s {} is face down and its identity is not given in the scenario",
            self.side.as_str(),
            self.pile.title()
        )
    }
}

/// An action on the stack at the start of a scenario.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pending {
    pub action: PendingKind,
    /// The player who performed it.
    pub by: Side,
    /// Short name used in the trace and expectations.
    pub label: String,
    /// The location it takes place at, if any.
    #[serde(default)]
    pub at: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PendingKind {
    Battle,
    ForceDrain,
}

/// One side's decks and piles; every list is ordered top card first. A deck or
/// pile other than the hand may instead be given by count (`force_pile: 8`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Piles {
    #[serde(default)]
    pub reserve_deck: PileList,
    #[serde(default)]
    pub force_pile: PileList,
    #[serde(default)]
    pub used_pile: PileList,
    #[serde(default)]
    pub lost_pile: PileList,
    #[serde(default)]
    pub hand: Vec<Pos<String>>,
    #[serde(default)]
    pub out_of_play: Vec<Pos<String>>,
}

/// A location on table: its cards, and what movement and deployment read about it
/// (sites of one system, or of one starship, are adjacent in the order the board
/// lists them).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocationDef {
    /// Short name used in scripts and expectations (required on a board).
    #[serde(default)]
    pub name: String,
    /// The library or imported location card this location is (reference or title):
    /// its title, icons, kind, system and text are the card's.
    #[serde(default)]
    pub card: Option<Pos<String>>,
    /// Where a named location came from.
    #[serde(skip)]
    pub origin: Option<crate::engine::library::Origin>,
    /// The parts of a named location's text no field encodes.
    #[serde(skip)]
    pub unencoded: Vec<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub icons: Vec<String>,
    #[serde(default)]
    pub cards: Vec<Placed>,
    /// System, site or sector (movement needs it).
    #[serde(default)]
    pub kind: Option<LocKind>,
    /// For a site or sector: the system it is related to (its `name` on this board,
    /// or a planet name when the system is not on table).
    #[serde(default)]
    pub system: Option<String>,
    /// For a system: its parsec number.
    #[serde(default)]
    pub parsec: Option<i64>,
    #[serde(default)]
    pub exterior: bool,
    #[serde(default)]
    pub interior: bool,
    #[serde(default)]
    pub docking_bay: bool,
    /// Docking Bay Transit cost listed on this docking bay (none listed: 0).
    #[serde(default)]
    pub transit_cost: Option<i64>,
    /// A starship or vehicle site: the card (key) it is related to.
    #[serde(default)]
    pub starship: Option<String>,
    /// A Death Star system: the system (name) it orbits; none means deep space.
    #[serde(default)]
    pub orbiting: Option<String>,
    /// A mobile system (a Death Star): it is not a planet.
    #[serde(default)]
    pub mobile: bool,
    /// Extra landspeed needed to move to, from or through this site (e.g. Desert).
    #[serde(default)]
    pub extra_landspeed: i64,
    /// Movement text on the location card.
    #[serde(default)]
    pub movement: Vec<MoveText>,
    /// Deployment restrictions of the location ("Your spies may not deploy here").
    #[serde(default)]
    pub no_deploy: Vec<NoDeploy>,
    /// Force drain text of the location card (each names its `side`), for drains here.
    #[serde(default)]
    pub drain: Vec<DrainText>,
    // ---- turn structure and Force generation (AR Ch.3)
    /// The player whose location card this is ("your Cantina").
    #[serde(default)]
    pub owner: Option<Side>,
    /// Why this location is never a battleground (AR Locations - Battleground: e.g.
    /// "shielded Hoth site"), whatever other cards say.
    #[serde(default)]
    pub never_battleground: Option<String>,
    /// A sector: cloud, asteroid or Death Star II.
    #[serde(default)]
    pub sector: Option<SectorKind>,
    // ---- deploy costs (AR Deploy Cost)
    /// Deploy cost modifiers of the location card ("your starfighters deploy -1 here").
    #[serde(default)]
    pub deploy_mods: Vec<super::deploy_cost::DeployMod>,
    // ---- Star Destroyer: Launch Bay (AR Appendix B)
    /// A starship site that takes shuttles in place of its starship.
    #[serde(default)]
    pub shuttle_here: Option<super::launch_bay::ShuttleHere>,
    // ---- battles here (AR Battle Destiny - Conditions On Drawing)
    /// "Total ability of N or more required for <side> to draw battle destiny here."
    #[serde(default)]
    pub battle_conditions: Vec<BattleCondition>,
    // ---- reacts (AR Appendix C React)
    /// React text of the location card ("All starships may move between here and … as a
    /// 'react'"); `side:` names whose text it is.
    #[serde(default)]
    pub react: Vec<super::react::ReactText>,
    // ---- capturing (AR Appendix C Capturing)
    /// A prison (AR Prisons): captured characters may be imprisoned here.
    #[serde(default)]
    pub prison: bool,
    // ---- blown away (AR Appendix C Blown Away)
    /// The location has been blown away: face down, an unnamed location.
    #[serde(default)]
    pub blown_away: bool,
    /// What the blown away rules read about it (a Rebel Base, a generic site, its
    /// own "if 'blown away'" Force loss).
    #[serde(default)]
    pub epic: super::blown_away::LocationEpic,
    // ---- dejarik (AR Dejarik Rules)
    /// A holosite (Dejarik Hologameboard, Imperial Holotable): dejariks and
    /// holograms there are neither Interrupts nor Effects.
    #[serde(default)]
    pub holosite: bool,
    /// A Hoth site's marker number.
    #[serde(default)]
    pub marker: Option<i64>,
}

/// A location's condition on drawing battle destiny there.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleCondition {
    pub side: Side,
    pub min_ability: i64,
}

/// A card on table, with the cards on it (pilots, passengers, weapons, devices,
/// stacked cards).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placed {
    pub card: Pos<String>,
    #[serde(default)]
    pub state: CardState,
    #[serde(default)]
    pub on: Vec<Placed>,
    /// The location its text targeted when it was deployed ("Target another system").
    #[serde(default)]
    pub target: Option<Pos<String>>,
}

/// AR Ch.1 Section D card states (units of Force and out of play follow from where a card is).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CardState {
    #[default]
    Active,
    Inactive,
    Supporting,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CardType {
    Character,
    Creature,
    Device,
    Effect,
    Interrupt,
    Location,
    Objective,
    Starship,
    Vehicle,
    Weapon,
    EpicEvent,
    JediTest,
    AdmiralsOrder,
    Podracer,
    // ---- AR Defensive Shields
    DefensiveShield,
}

impl CardType {
    pub fn as_str(self) -> &'static str {
        match self {
            CardType::Character => "character",
            CardType::Creature => "creature",
            CardType::Device => "device",
            CardType::Effect => "effect",
            CardType::Interrupt => "interrupt",
            CardType::Location => "location",
            CardType::Objective => "objective",
            CardType::Starship => "starship",
            CardType::Vehicle => "vehicle",
            CardType::Weapon => "weapon",
            CardType::EpicEvent => "epic_event",
            CardType::JediTest => "jedi_test",
            CardType::AdmiralsOrder => "admirals_order",
            CardType::DefensiveShield => "defensive_shield",
            CardType::Podracer => "podracer",
        }
    }
    /// Cards that deploy to a location (rather than "on table").
    pub fn deploys_to_location(self) -> bool {
        matches!(
            self,
            CardType::Character
                | CardType::Creature
                | CardType::Starship
                | CardType::Vehicle
                | CardType::Device
                | CardType::Weapon
        )
    }
}

/// Where a card goes once it has been played (Interrupts) or canceled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dest {
    UsedPile,
    LostPile,
    OutOfPlay,
    Hand,
    ReserveDeck,
    ForcePile,
    Table,
}

impl Dest {
    pub fn as_str(self) -> &'static str {
        match self {
            Dest::UsedPile => "used_pile",
            Dest::LostPile => "lost_pile",
            Dest::OutOfPlay => "out_of_play",
            Dest::Hand => "hand",
            Dest::ReserveDeck => "reserve_deck",
            Dest::ForcePile => "force_pile",
            Dest::Table => "table",
        }
    }
}

/// The numbers the rules read. Values the card does not have stay `None`
/// (the Implied Target Rule: a value that does not exist cannot be targeted).
#[derive(Debug, Clone, Default, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    #[serde(default)]
    pub power: Option<i64>,
    #[serde(default)]
    pub ability: Option<i64>,
    #[serde(default)]
    pub deploy: Option<i64>,
    #[serde(default)]
    pub forfeit: Option<i64>,
    #[serde(default)]
    pub destiny: Option<i64>,
    #[serde(default)]
    pub armor: Option<i64>,
    #[serde(default)]
    pub maneuver: Option<i64>,
    #[serde(default, deserialize_with = "crate::yaml::unique")]
    pub defense: BTreeMap<String, i64>,
    #[serde(default)]
    pub hyperspeed: Option<i64>,
    #[serde(default)]
    pub landspeed: Option<i64>,
    #[serde(default)]
    pub politics: Option<i64>,
    /// "Immune to attrition < N".
    #[serde(default)]
    pub immune_to_attrition: Option<i64>,
    /// Several destiny values (e.g. R2-D2's 2 and 5); the owner chooses one when drawn.
    #[serde(default)]
    pub destiny_values: Vec<i64>,
    /// "Adds N to power of anything he pilots."
    #[serde(default)]
    pub piloting: Option<i64>,
    /// Ability of a starship's or vehicle's permanent pilot.
    #[serde(default)]
    pub permanent_pilot: Option<i64>,
    /// "Permanent pilot … adds N to power": added to its power in battle.
    #[serde(default)]
    pub permanent_pilot_power: Option<i64>,
    #[serde(default)]
    pub icons: Vec<String>,
    /// "Draws N battle destiny if unable to otherwise."
    #[serde(default)]
    pub draws_if_unable: Option<u32>,
    // ---- creatures (AR Attacks - Ferocity And Defense Value)
    /// A creature's ferocity.
    #[serde(default)]
    pub ferocity: Option<i64>,
    /// "Ferocity N + destiny": the destinies drawn each time it participates in an attack.
    #[serde(default)]
    pub ferocity_destinies: Option<u32>,
}

/// One card: an inline definition, or a card of the library (read from the keys
/// of `card_file.rs`).
#[derive(Debug, Clone, Deserialize)]
#[serde(from = "super::card_file::CardFile")]
pub struct CardDef {
    pub title: String,
    pub side: Side,
    pub card_type: CardType,
    /// E.g. `used`, `lost`, `used_or_lost` for Interrupts; `utinni`, `immediate` for Effects.
    pub subtype: Option<String>,
    pub unique: bool,
    /// Personas this card is a version of (default: its title), for uniqueness and out of play.
    pub personas: Vec<String>,
    /// Characteristics the rules test: imperial, warrior, alien, droid, male…
    pub keywords: Vec<String>,
    pub stats: Stats,
    /// Card titles this card is immune to (e.g. Alter).
    pub immune_to: Vec<String>,
    /// The printed game text: sentence by sentence, each saying which fields
    /// encode it (`by:`) or that it is `not_modelled:`; a plain string is
    /// wholly not modelled.
    pub text: crate::engine::library::CardText,
    /// The game text as structured abilities the engine understands.
    pub abilities: Vec<Ability>,
    /// Game text the engine does not model; reported when it matters.
    pub not_modelled: Vec<String>,
    /// How the card moves, where its game text changes the movement rules.
    pub moves: Box<MoveRules>,
    /// Where the card may or may not deploy (its own game text or its rules).
    pub deploy_rules: Box<DeployRules>,
    /// Game-text modifiers that apply in battles (e.g. "adds 2 to power of Luke"), worked
    /// out from the board each time a battle is resolved.
    pub modifiers: Vec<CardModifier>,
    /// A weapon: how it fires in a battle's weapons segment (`fire`).
    pub weapon: Option<Box<WeaponDef>>,
    /// Game text about Force drains (modifiers, canceling modifiers, protection),
    /// worked out from the board each time a drain resolves.
    pub drain: Vec<DrainText>,
    // ---- turn structure and Force generation (AR Ch.3)
    /// Force generation modifiers of its game text, while it is active on table.
    pub generation: Vec<super::activation::GenModifier>,
    // ---- identification (AR Appendix D)
    /// What identifies the card: character types, subtype line, lore, mentions…
    pub identity: Box<super::identify::Identity>,
    // ---- deploy costs and permissions (AR Deploy Cost, Conditions Versus Costs)
    /// Deploy cost modifiers of its game text for cards deploying to its location.
    pub deploy_mods: Vec<super::deploy_cost::DeployMod>,
    /// Its own deploy cost where it deploys ("deploys free to same site as one of your
    /// Imperials with ability > 2"; `own_deploy.rs`).
    pub own_deploy: Vec<super::own_deploy::OwnDeploy>,
    // ---- squadrons (AR Starships - squadron)
    /// A squadron: the number of starfighters it represents ("Squadron: 3 TIE/ln").
    pub squadron_of: Option<u32>,
    // ---- reacts (AR Appendix C React)
    /// "May deploy or move as a 'react'": who may react, how, and from where.
    pub react: Vec<super::react::ReactText>,
    // ---- stealing (AR Appendix C Stealing)
    /// Personas identified as this starship's or vehicle's permanent pilot or astromech
    /// (a stolen card is no longer those personas).
    pub pilot_personas: Vec<String>,
    // ---- Jedi tests (AR Appendix C, Jedi Testing)
    /// A Jedi Test: its number, and whether it is completed.
    pub jedi_test: Option<super::jeditest::JediTestDef>,
    // ---- identical titles and durations (AR Title - Identical Cards, Global Effects)
    /// Restricted: the number of dots next to its title (••: 2, •••: 3); a unique
    /// card (one dot) says `unique: true`.
    pub dots: u8,
    /// Diamond restricted: the number of ♦ next to its title.
    pub diamonds: u8,
    /// Game text that modifies values of cards matching a filter, in every state
    /// (deployed, in a pile, stacked, drawn), while this card is active on table.
    pub globals: Vec<super::globals::GlobalMod>,
    /// An Objective's 0 side: the "Deploy …" text carried out at the start of the game.
    pub objective: Option<super::objective::ObjectiveDef>,
    /// A double-sided card's other side (its own title, type and text).
    pub back: Option<Box<CardDef>>,
    /// An Utinni Effect's target (a card key), chosen when it was deployed.
    pub utinni_target: Option<String>,
    /// A Hoth site's marker number.
    pub marker: Option<i64>,
    /// An 'insert' card (inserted in the opponent's Reserve Deck): not part of that deck.
    pub insert: bool,
    /// An Epic Event's text for epic duels (Epic Duel): the draws and results of a duel
    /// another card initiates as an epic duel.
    pub epic_duel: Option<Box<super::epic_duel::EpicDuelDef>>,
    /// Its text's continuous rules: modifiers, permissions, prohibitions and the
    /// costs it imposes on other actions.
    pub statics: Vec<super::statics::Static>,
    /// Its text's replacement effects.
    pub replacements: Vec<super::statics::Replacement>,
    /// A location card: its printed traits and the text a board location reads
    /// (`location.<field>` in `by:`).
    pub location: Option<Box<LocationDef>>,
    /// The library card it was named as, and any stat the scenario set on purpose.
    pub origin: Option<crate::engine::library::Origin>,
    // ---- capacity (AR Starships - capacity; `capacity.rs`)
    /// A starship's or vehicle's capacity: its slots by kind.
    pub capacity: Option<Box<super::capacity::Capacity>>,
    /// A card of a pile the board gives by count: its identity is not given.
    pub face_down: Option<FaceDown>,
}

impl CardDef {
    /// A creature vehicle (AR Vehicles - Creature Vehicles): a vehicle of subtype
    /// `creature`, as the card databases print it ("Creature").
    pub fn is_creature_vehicle(&self) -> bool {
        self.card_type == CardType::Vehicle
            && self
                .subtype
                .as_deref()
                .is_some_and(|s| s.eq_ignore_ascii_case("creature"))
    }
}

/// "Total ability of `min_ability` or more required for opponent to draw battle
/// destiny here" while each condition of `when` holds ("when in battle at a site").
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityRequired {
    pub min_ability: i64,
    #[serde(default)]
    pub when: Vec<super::text_when::Cond>,
}

/// "Draws `draws` battle destiny if not able to otherwise" while each condition
/// of `when` holds (AR Battle Destiny - Draws X Battle Destiny If Unable To Otherwise).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawsIfUnable {
    #[serde(default = "one_draw")]
    pub draws: u32,
    #[serde(default)]
    pub when: Vec<super::text_when::Cond>,
}

fn one_draw() -> u32 {
    1
}

/// How a weapon fires: weapon destiny against the target's `against` value ("draw
/// destiny; target hit if destiny > ability").
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponDef {
    pub against: super::battle::Defense,
    /// Force used to fire it.
    #[serde(default)]
    pub cost: u32,
    /// Added to the weapon destiny ("if destiny +1 > defense value").
    #[serde(default)]
    pub add: i64,
    /// The hit also makes the target's forfeit 0.
    #[serde(default)]
    pub forfeit_zero: bool,
    /// "May fire repeatedly for N Force each time": the Force each shot after the first uses.
    #[serde(default)]
    pub repeat: Option<u32>,
    /// The target is immediately lost when it succeeds, instead of being hit.
    #[serde(default)]
    pub lost: bool,
    /// The target is immediately excluded from the battle when it succeeds, instead of
    /// being hit.
    #[serde(default)]
    pub excludes: bool,
    // ---- capturing (AR Appendix C Capturing)
    /// "Target captured if destiny > defense value": a success captures the target
    /// instead of hitting it.
    #[serde(default)]
    pub captures: bool,
    // ---- weapons on the board: targets, draws, long range, automated (AR Weapons)
    /// What it may target ("may target a character or creature"); default: characters,
    /// creatures, vehicles and starships.
    #[serde(default)]
    pub targets: Option<Filter>,
    /// Weapon destiny draws per firing ("draw two destiny"); default 1.
    #[serde(default)]
    pub draws: Option<u32>,
    /// "Using X Force, where X = 0 to N": the Force used (X) is added to its destiny.
    #[serde(default)]
    pub x_max: Option<u32>,
    /// "Target hit (lost instead if X = 3)": a success with this X makes the target
    /// lost instead of hit.
    #[serde(default)]
    pub lost_at_x: Option<u32>,
    /// Added to the total weapon destiny when the target matches (the first that
    /// matches): "add 1 if targeting a capital starship; otherwise, subtract 1".
    #[serde(default)]
    pub vs: Vec<super::weapon_fire::WeaponVs>,
    /// "May target … at same or adjacent site": a long-range weapon.
    #[serde(default)]
    pub adjacent: bool,
    /// An automated weapon: not fired (Laser Projector excepted).
    #[serde(default)]
    pub automated: bool,
    /// Times it may fire in one battle ("may fire twice"); default 1.
    #[serde(default)]
    pub per_battle: Option<u32>,
    /// "(For free if on your non-unique warrior)", "(for free if fired by your spy or
    /// scout)": fired for free while the card carrying it matches any of these (owner
    /// seen from the weapon's owner).
    #[serde(default)]
    pub free_on: Vec<Filter>,
    /// "Add 1 if fired by a leader": added to the total weapon destiny when the card
    /// carrying it matches (the first that matches).
    #[serde(default)]
    pub fired_by: Vec<super::weapon_fire::WeaponVs>,
}

/// One game-text modifier of a card, as structured data. It applies while the card is
/// active on table and at the battle's location (anywhere on table with `anywhere:`),
/// and only while every card in `requires` participates in the battle.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardModifier {
    /// What it changes: `{power: <card>}`, `{forfeit: <card>}`, `{ability: <card>}`,
    /// `total_power`, `attrition`, `battle_damage`, `battle_destinies`…; `this` names the
    /// card itself.
    pub target: super::battle::Target,
    /// Whose side-wide value it changes (for totals): `you` (default) or `opponent`.
    #[serde(default)]
    pub side: Option<Who>,
    pub op: super::battle::OpSpec,
    #[serde(default)]
    pub requires: Vec<String>,
    /// Applies in battles anywhere (an Effect on table), not only at its own location.
    #[serde(default)]
    pub anywhere: bool,
    /// Cumulative with other copies of the same card (AR: Cumulatively).
    #[serde(default)]
    pub cumulative: bool,
    /// Conditions on the card itself ("when piloting Red 5", "when in battle"):
    /// it applies only while each holds (`text_when.rs`).
    #[serde(default)]
    pub when: Vec<super::text_when::Cond>,
    /// For a target named `each`: the cards it changes ("each Rebel present with her").
    #[serde(default)]
    pub each: Option<super::text_when::Each>,
}

/// What kind of action an ability is (AR Ch.1 Section C, Types of Actions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AbilityKind {
    /// An optional top-level action ("may", "at any time", playing a card).
    TopLevel,
    /// A just action: an optional response to the current action.
    Response,
    /// A response that must happen when triggered.
    Automatic,
    /// A top-level action that must be performed during a time frame.
    Mandatory,
    /// A response to an attempt to initiate an action ("before").
    Before,
}

impl AbilityKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AbilityKind::TopLevel => "top-level action",
            AbilityKind::Response => "just action",
            AbilityKind::Automatic => "automatic action",
            AbilityKind::Mandatory => "mandatory action",
            AbilityKind::Before => "\"before\" action",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    OncePerTurn,
    OncePerPhase,
    OncePerBattle,
    OncePerGame,
    /// "Twice per game" (AR Once Per Game: a number of uses beyond once, per title).
    TwicePerGame,
}

/// Relation of a player to the ability's owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rel {
    You,
    Opponent,
    Any,
}

/// What happened, as seen by a response's condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// An attempt to deploy or play a card (before its result).
    Play,
    /// A card was just deployed (its deployment coming off the stack).
    JustDeployed,
    /// Optional game text of a card on table being used.
    UseText,
    /// A destiny draw (the action of drawing).
    DestinyDraw,
    /// A destiny card was just drawn (the draw's result).
    DestinyDrawn,
    /// A card was just lost.
    JustLost,
    /// A card just completed a move or transport.
    JustMoved,
    /// A battle was just initiated.
    Battle,
    /// A Force drain was just initiated.
    ForceDrain,
    /// A battle was just won (`by`: the winner), before its damage segment.
    BattleWon,
    /// A player is about to lose Force.
    ForceLoss,
    // ---- each player's actions in a result (AR Steps Of An Action - 3: Result)
    /// A player activating one Force (an action of its own within a result).
    ActivateForce,
    // ---- duels (AR Appendix C, Dueling)
    /// A duel's step 2 (actions that add or modify duel destinies).
    Duel,
    /// A duel was just won (`by`: the winner): its steps 5 and 6.
    DuelWon,
    /// A location was just blown away (`location`: which).
    BlownAway,
}

/// The condition a response puts on the current action.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trigger {
    pub event: EventKind,
    /// Who performed the current action.
    #[serde(default = "rel_any")]
    pub by: Rel,
    #[serde(default)]
    pub card: Option<Filter>,
    /// The current action concerns this very card ("When deployed…").
    #[serde(default)]
    pub this_card: bool,
    /// For `destiny_drawn`: only when the destiny drawn is exactly this value.
    #[serde(default)]
    pub destiny: Option<i64>,
    /// For `just_deployed`: the card was deployed to a location matching this (the
    /// location itself, not aboard a card there: AR System Location).
    #[serde(default)]
    pub to_location: Option<super::activation::LocFilter>,
    // ---- devices (Program Trap)
    /// For `destiny_drawn`: only when the destiny drawn equals this count, read when
    /// the destiny is drawn (the check is made once per draw).
    #[serde(default)]
    pub destiny_matches: Option<super::device::DestinyCount>,
    /// For `blown_away`: a location blown away matches this; for `force_drain` and
    /// `battle_won`: the location of the drain or battle.
    #[serde(default)]
    pub location: Option<super::activation::LocFilter>,
    /// For `destiny_drawn`: only a battle destiny ("if drawn as a battle destiny").
    #[serde(default)]
    pub battle_destiny: bool,
    /// For `destiny_drawn` with `battle_destiny`: only a draw after that player's first
    /// battle destiny draw of the battle ("if opponent draws more than one battle
    /// destiny, may cancel one": any but the first).
    #[serde(default)]
    pub not_first: bool,
}

fn rel_any() -> Rel {
    Rel::Any
}

/// A test on a card.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    /// Any of these titles.
    #[serde(default)]
    pub title: Vec<String>,
    #[serde(rename = "type", default)]
    pub card_type: Option<Vec<CardType>>,
    #[serde(default)]
    pub subtype: Option<String>,
    #[serde(default)]
    pub owner: Option<Rel>,
    #[serde(default)]
    pub keyword: Vec<String>,
    /// Has none of these characteristics ("except a Jawa").
    #[serde(default)]
    pub keyword_not: Vec<String>,
    /// The card must have this value (Implied Target Rule): `ability`, `immune_to_attrition`, `hyperspeed`…
    #[serde(default)]
    pub has: Vec<String>,
    #[serde(default)]
    pub unique: Option<bool>,
    /// Has this icon (cards: `stats.icons`; locations: `icons`).
    #[serde(default)]
    pub icon: Option<String>,
    /// Another card of the same title is on table (a duplicate): active, since an
    /// inactive card is no longer considered on table (AR Inactive).
    #[serde(default)]
    pub duplicate_on_table: bool,
    /// Contains any of these personas (its `personas:`, or its title).
    #[serde(default)]
    pub persona: Vec<String>,
    // ---- identification (AR Appendix D)
    /// Has every one of these attributes (names, subtypes, characteristics, icons of type).
    #[serde(default)]
    pub is: Vec<String>,
    /// Lacks each of these ("non-Imperial": lacks the character type icon).
    #[serde(default)]
    pub is_not: Vec<String>,
    /// Another card of the same title is in the same deck, pile or hand (a duplicate there).
    #[serde(default)]
    pub duplicate_in_pile: bool,
    // ---- Effects of any kind (AR Effects)
    /// "An Effect of any kind": `type: [effect]` then takes every subtype of Effect;
    /// without it, only normal Effects (no Immediate, Mobile, Utinni, Political or
    /// Starting Effect) unless `subtype` names one.
    #[serde(default)]
    pub any_kind: bool,
    // ---- squadrons (AR Starships - squadron)
    /// Text that works on this many starfighters at most ("one TIE": 1, "up to 3
    /// TIEs": 3): a squadron representing more does not match.
    #[serde(default)]
    pub max_ships: Option<u32>,
    // ---- global effects and durations
    /// Its current value (global effects and durations applied) is at most this.
    #[serde(default)]
    pub at_most: Option<super::globals::StatBound>,
    /// Its current value is at least this ("with ability > 2": at least 3).
    #[serde(default)]
    pub at_least: Option<super::globals::StatBound>,
    /// A location card that is (or is not) a battleground by its icons: Force icons
    /// on both sides (`stats.icons` has `light_force` and `dark_force`).
    #[serde(default)]
    pub battleground: Option<bool>,
    /// "Deploys for free": no deploy cost is listed on the card (AR Free).
    #[serde(default)]
    pub no_deploy_cost: bool,
    /// "Always immune to Alter": immune to this title by its own text (`immune_to`).
    #[serde(default)]
    pub immune_to: Option<String>,
    /// A site of this planet by its title ("Dagobah: Swamp"): a generic site (♦) in a
    /// deck or pile has no planet yet — it takes the system's name once deployed.
    #[serde(default)]
    pub site_of: Option<String>,
}

/// What an ability must be able to target before it can be initiated.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    /// Name used by effects (`target` if not given).
    #[serde(default = "target_name")]
    pub name: String,
    pub kind: TargetKind,
    #[serde(default)]
    pub filter: Filter,
    /// Which player's pile or hand.
    #[serde(default = "rel_any")]
    pub whose: Rel,
    /// For `pile`: which piles may be chosen.
    #[serde(default)]
    pub piles: Vec<PileName>,
    /// Exception 1 to the Implied Target Rule: an optional target.
    #[serde(default)]
    pub optional: bool,
    // ---- retargeting (AR Targeting - Retargeting)
    /// Card targets sharing a group name are one primary target: a group of cards
    /// at one location (that location is a secondary target, set by the group).
    #[serde(default)]
    pub group: Option<String>,
    /// For `current`: the action must already have defined a target ("an Interrupt
    /// which specifies a target"): one that targets only once searched has none yet.
    #[serde(default)]
    pub defined_targets: bool,
    /// For `card`: only a card hit by a weapon in the battle under way ("a character
    /// just hit"; AR Weapons - hit).
    #[serde(default)]
    pub hit: bool,
    /// For `card`: only a card present with this one ("opponent's Jedi present"; AR
    /// Present versus Present With).
    #[serde(default)]
    pub present_with_this: bool,
    /// For `card`: only a card at the same location as this one ("at same site"),
    /// aboard a card there or not.
    #[serde(default)]
    pub same_location_as_this: bool,
    /// For `card`: only an undercover spy ("opponent's Undercover spy"; AR Undercover
    /// Spy Rules).
    #[serde(default)]
    pub undercover: bool,
}

pub fn target_name() -> String {
    "target".to_string()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    /// The current action (the one responded to).
    Current,
    /// One card on table, chosen by the player (`target:` in the script).
    Card,
    /// All cards on table matching the filter; at least one must exist (members of an 'all' group).
    All,
    /// A player's hand; must not be empty.
    Hand,
    /// A deck or pile, chosen by the player; must not be empty.
    Pile,
    /// One card at a location, or a location; chosen by the player.
    Location,
    /// A card in a deck or pile: unknown until searched (exception 3), never blocks initiation.
    Unknown,
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, serde::Serialize,
)]
#[serde(rename_all = "snake_case")]
pub enum PileName {
    ReserveDeck,
    ForcePile,
    UsedPile,
    LostPile,
    Hand,
    OutOfPlay,
}

impl PileName {
    pub fn as_str(self) -> &'static str {
        match self {
            PileName::ReserveDeck => "reserve_deck",
            PileName::ForcePile => "force_pile",
            PileName::UsedPile => "used_pile",
            PileName::LostPile => "lost_pile",
            PileName::Hand => "hand",
            PileName::OutOfPlay => "out_of_play",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            PileName::ReserveDeck => "Reserve Deck",
            PileName::ForcePile => "Force Pile",
            PileName::UsedPile => "Used Pile",
            PileName::LostPile => "Lost Pile",
            PileName::Hand => "hand",
            PileName::OutOfPlay => "out of play",
        }
    }
}

/// The costs of initiation.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cost {
    /// Use N Force (Force Pile → Used Pile).
    #[serde(default)]
    pub use_force: u32,
    /// Lose N Force.
    #[serde(default)]
    pub lose_force: u32,
    /// "Draw destiny. Use that much Force to …, or place Interrupt in Lost Pile": a
    /// destiny drawn during initiation sets a further Force to use (`play_limits.rs`).
    #[serde(default)]
    pub destiny_force: bool,
}

/// Which card an effect acts on.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardRef {
    /// The card whose ability this is.
    This,
    /// The action being responded to (its card).
    Current,
    /// A named target of this ability.
    Target(String),
}

/// Whose Force/pile an effect concerns, relative to the ability's owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    You,
    Opponent,
}

/// A comparison for a destiny draw.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DestinyTest {
    /// Succeeds when destiny < this value.
    #[serde(default)]
    pub less_than: Option<Amount>,
    /// Succeeds when destiny > this value.
    #[serde(default)]
    pub greater_than: Option<Amount>,
    #[serde(default)]
    pub success: Vec<Effect>,
    #[serde(default)]
    pub failure: Vec<Effect>,
}

/// A number read from the board when the effect is carried out.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Amount {
    Value(i64),
    /// The ability of a named target.
    AbilityOf(String),
    /// The highest ability among your characters on table.
    HighestAbility,
    /// The last destiny drawn by this action.
    Destiny,
    /// A weapon's target's value it fires against, read when the destiny is compared.
    #[serde(skip)]
    StatOf(usize, super::battle::Defense),
    // ---- capturing (AR Appendix C Capturing)
    /// The defense value of a named target: a character's ability, a starship's or
    /// vehicle's armor or maneuver.
    DefenseOf(String),
}

/// One step of an ability's result. Steps are carried out in the order listed
/// (AR: automatic actions on a single card happen in the order on the card).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Cancel an action on the stack.
    Cancel(CardRef),
    /// Move a card to a pile (its owner's); cards on it follow the Leaves Table rule.
    SendTo { card: CardRef, to: Dest },
    /// Draw N cards from your Reserve Deck into hand.
    Draw(u32),
    /// Activate N Force.
    Activate { who: Who, count: u32 },
    /// Lose N Force.
    LoseForce { who: Who, amount: Amount },
    /// Retrieve N Force.
    Retrieve { who: Who, count: u32 },
    /// Draw destiny (an action of its own) and test it.
    Destiny(DestinyTest),
    /// Search a pile for a card matching the filter and take it into hand (the script chooses).
    TakeIntoHand {
        from: PileName,
        filter: Filter,
        #[serde(default)]
        reshuffle: bool,
    },
    /// Search a pile for a card and deploy it (the script chooses), optionally aboard/at a target.
    DeployFrom {
        from: PileName,
        filter: Box<Filter>,
        #[serde(default)]
        aboard: Option<CardRef>,
        #[serde(default)]
        free: bool,
        #[serde(default)]
        reshuffle: bool,
        /// "and/or", "up to": the player may deploy none (`choose` with no card).
        #[serde(default)]
        optional: bool,
    },
    /// Play one Interrupt from a pile as if from hand; it goes to `then` afterwards, even if canceled.
    PlayFrom { from: PileName, then: Dest },
    /// Move every card matching the filter from a pile of a player to a destination (e.g. lose cards from hand).
    MoveAll {
        who: Who,
        from: PileName,
        filter: Filter,
        to: Dest,
    },
    /// Place a card on table (or a just lost card) on another card ("stacked"): it becomes inactive (AR: stacked from an active or inactive state).
    StackOn { card: CardRef, on: CardRef },
    /// Take a card from one of your piles (the script chooses) and stack it on this card: it becomes supporting (from a unit-of-Force state).
    StackFrom { from: PileName, filter: Filter },
    /// Relocate a card (with what it carries) to a target location; the action then completes a move.
    Relocate { card: CardRef, to: String },
    /// Reset the destiny just drawn (the action responded to) to this value.
    ResetDestiny(i64),
    /// Responding to a destiny draw ("about to draw"): use this value instead of drawing a card.
    SubstituteDestiny(i64),
    /// Something the engine does not model; carrying it out reports "not modelled — ruling needed".
    NotModelled(String),
    // ---- "for each" (AR Actions - For Each/For Every)
    /// Retrieve 1 Force for each location matching the filter, as one action for the
    /// full amount (none qualifying: an unmodifiable zero).
    RetrieveForEach {
        who: Who,
        per: super::activation::LocFilter,
    },
    /// Lose 1 Force for each location matching the filter, as one Force loss for the
    /// full amount (none qualifying: an unmodifiable zero).
    LoseForEach {
        who: Who,
        per: super::activation::LocFilter,
    },
    // ---- canceling game text (AR Canceling Game Text)
    /// Cancel the game text of a card: no action or modifier may be initiated or
    /// triggered from it while it stays canceled.
    CancelText(CardRef),
    /// A weapon hits this card (and, with `true`, its forfeit becomes 0) in the battle it fires in.
    #[serde(skip)]
    Hit(usize, bool),
    /// The card (and every card on it) crosses over to your side (AR Converting Characters).
    CrossOver(CardRef),
    /// "When you draw your starting hand, draw N more cards instead of eight."
    StartingHand(u32),
    /// The card crosses over to your side and becomes another character: its new
    /// title, personas and characteristics (AR Crossing Over).
    CrossOverAs {
        card: CardRef,
        title: String,
        #[serde(default)]
        personas: Vec<String>,
        #[serde(default)]
        keywords: Vec<String>,
    },
    // ---- retargeting (AR Targeting - Retargeting)
    /// Change one primary target of an action on the stack (the player's `retarget`
    /// decision names the new target); secondary targets follow.
    Retarget(CardRef),
    // ---- values set by game text (AR Choosing Targets)
    /// "Target's power and forfeit = 0": the named values of the card (only that card).
    SetValue {
        card: CardRef,
        stats: Vec<String>,
        to: i64,
    },
    // ---- each player's actions in a result (AR Steps Of An Action - 3: Result)
    /// "Each player must activate N Force": the player whose turn it is decides who
    /// activates first (`first` decision); each Force activated is an action of its own.
    EachActivates(u32),
    /// One Force activated by this player, as an action on the stack.
    #[serde(skip)]
    ActivateOne(Side),
    // ---- matching pairs deployed simultaneously (AR Persona And Simultaneous Deployment)
    /// Reveal a card from hand matching `reveal`, take its matching pilot character
    /// from `from`, and deploy both simultaneously to the location target `to`.
    DeployMatchingPair {
        reveal: Filter,
        from: PileName,
        to: String,
    },
    // ---- Force loss responded to (AR Paying Costs, Losing Force)
    /// "Reduce the loss by N": the Force loss responded to is N less.
    ReduceLoss(i64),
    // ---- the damage segment (AR Damage Segment)
    /// Cancel all remaining battle damage against you (a damage segment action, e.g.
    /// Houjix); with `no_cards_left`, only if you have no cards left that can be forfeited.
    CancelBattleDamage {
        #[serde(default)]
        no_cards_left: bool,
    },
    // ---- cards arriving in a battle (AR Initiate The Battle, React)
    /// This card (in hand) deploys to the location of a battle just initiated, as a
    /// response to the initiation (`free`: for free; `react`: as a 'react', which only
    /// the opponent of the player who initiated the battle may do).
    DeployToBattle {
        #[serde(default)]
        free: bool,
        #[serde(default)]
        react: bool,
    },
    /// Responding to a battle destiny just drawn: add its destiny number to your total
    /// power in that battle.
    AddDrawnDestinyToPower,
    /// A modifier for the rest of the current battle (a played card's "add 2 battle
    /// destinies", "adds 2 to power of …"): its conditions were met when it was played
    /// and are not checked again.
    BattleModifier(CardModifier),
    /// Retrieve a specific card from the Lost Pile ("may retrieve Fly Casual";
    /// `retrieve_card.rs`).
    RetrieveCard(super::retrieve_card::RetrieveCard),
    /// "Your total battle destiny is +1 for each character in battle": a battle
    /// modifier whose amount is counted when played and locked in (`battle_count.rs`).
    BattleModifierForEach(super::battle_count::ForEachInBattle),
    /// A weapon whose target is immediately lost (not hit) when it succeeds.
    #[serde(skip)]
    LostByWeapon(usize),
    /// A weapon whose target is immediately excluded from the battle when it succeeds.
    #[serde(skip)]
    ExcludedByWeapon(usize),
    /// Add an amount (e.g. the destiny just drawn for this action) to the power of a
    /// card for the rest of the current battle or attack ("adds a destiny to power").
    /// Another copy of the same card adds nothing more unless its text says
    /// "cumulatively" (AR Cumulatively).
    AddPower {
        card: CardRef,
        amount: Amount,
        #[serde(default)]
        cumulative: bool,
    },
    // ---- losing Force from a place (AR Losing Force - From X)
    /// Lose N Force from a pile first ("lose 4 Force from Reserve Deck"); what that pile
    /// cannot give is lost from anywhere else, as the losing player chooses.
    LoseForceFrom {
        who: Who,
        amount: Amount,
        from: PileName,
    },
    /// "Opponent loses N Force (cannot be reduced) and stacks lost card here face
    /// down" (Insignificant Rebellion): a loss no response can reduce; each card lost
    /// is stacked on this card, supporting.
    LoseForceStackHere { who: Who, amount: i64 },
    // ---- destiny totals outside battle (AR Ch.1 Section F)
    /// Draw N destinies, each an action of its own on the stack, and total them with
    /// the modifiers to each draw and to the total; test the total like `destiny`.
    DestinyTotal(super::destiny_total::TotalSpec),
    /// Cancel the destiny just drawn (the action responded to) and draw it again: the
    /// redraw counts instead of the canceled draw (AR Canceled And Redrawn Destiny Draws).
    CancelAndRedraw(CardRef),
    /// Responding to a destiny about to be drawn: draw X instead and choose Y of them
    /// (AR Draw X Choose Y); every one drawn counts against limits.
    DrawXChooseY { x: u32, y: u32 },
    // ---- capturing (AR Appendix C Capturing)
    /// The card is captured (only the Dark Side captures; only Light Side characters).
    Capture(CardRef),
    /// Release the Light Side's captives matching `captive`, where a
    /// card matching `present` is present at the captive's site ("If Leia is present at
    /// a site where Han is a captive, release Han.").
    Release(Box<super::capture::ReleaseText>),
    /// A weapon's success captures this card.
    #[serde(skip)]
    CaptureCard(usize),
    /// Capture every character aboard each captured starship matching the filter;
    /// a starship left with no characters aboard is then stolen.
    CaptureAboard(Filter),
    /// Release a captured starship matching the filter ("release a starship held by any
    /// Tractor Beam"): its owner chooses Launch or Escape (`besieged.rs`).
    ReleaseStarship(Filter),
    // ---- stealing (AR Appendix C Stealing)
    /// Steal a targeted card of the opponent on table: it becomes yours.
    Steal(CardRef),
    /// Steal a card of the opponent's pile (the script chooses) into one of your piles.
    StealFrom(super::steal::StealFrom),
    // ---- devices (AR Devices; Program Trap, Ap. B)
    /// The card this card is deployed on 'explodes': it and every character present
    /// with it are lost (only while it is at a site).
    Explode,
    // ---- Jedi tests (AR Appendix C, Jedi Testing)
    /// This Jedi Test is completed by the apprentice it is on.
    CompleteJediTest,
    // ---- podracing (AR Podracing)
    /// "Place all race destinies here in owner's Used Pile": the cards stacked on
    /// that card (supporting), and on no other, go to their owner's pile.
    MoveStacked { on: CardRef, to: Dest },
    // ---- duels (AR Appendix C, Dueling)
    /// Two characters duel (your target against the opponent's).
    Duel(super::duel::DuelDef),
    /// A duel's step 2: add N duel destinies to your total.
    AddDuelDestiny(u32),
    /// A duel's step 3: the next duel destiny draw (internal).
    #[serde(skip)]
    DuelDraws,
    /// Add N to the destiny just drawn (the action responded to).
    AddToDestiny(i64),
    // ---- creatures (AR Attacks; Vehicles - Creature Vehicles)
    /// "If ferocity > target's maneuver + landspeed, creature vehicle is eaten,
    /// cumulatively adding N to creature's ferocity" (Yaggle Gakkle): the creature
    /// present with the targeted creature vehicle draws its ferocity destiny; if its
    /// ferocity is more, the vehicle is lost (characters aboard jump off) and the
    /// creature's ferocity is +N for the rest of the game.
    Eat { vehicle: CardRef, add_ferocity: i64 },
    /// The creature's ferocity is +N for the rest of the game (internal).
    #[serde(skip)]
    AddFerocity(usize, i64),
    /// A duel was just won by duelist 0 (the initiator's) or 1 (internal).
    #[serde(skip)]
    DuelWon(usize),
    // ---- durations (AR Actions - Duration, Until End Of Turn)
    /// Values of every card matching the filter (seen from the action's player)
    /// change by `add` until the duration ends, whatever happens to this card.
    ModifyUntil {
        filter: Filter,
        stat: super::globals::Stat,
        add: i64,
        until: super::globals::Until,
    },
    /// A double-sided card turns over to its other side (`back:`).
    Flip(CardRef),
    /// Peek at the top `count` cards of your Reserve Deck and place `place` of them
    /// (your `choose`) in `to`; the others return on top.
    Peek {
        count: usize,
        place: usize,
        to: Dest,
    },
    // ---- blown away (AR Appendix C, Blown Away - Timing)
    /// The card's text reaches "… is 'blown away'": steps 1 to 6 of the timing.
    BlowAway(Box<super::blown_away::BlowAway>),
    /// Steps 7 and 8: the blowing away of these locations, open to responses (internal).
    #[serde(skip)]
    BlownAwayOccurred(Vec<usize>),
    /// The card initiates an epic duel between two targets, carried out with the text
    /// of the Epic Event on table (`epic_duel:`).
    EpicDuel(super::epic_duel::EpicDuel),
    // ---- draw phase and end of turn (AR Ch.8, Icons - Maintenance Cards; `upkeep.rs`)
    /// A maintenance card's cost, due at the end of its owner's turn: the owner chooses
    /// to maintain, recycle or sacrifice it.
    Maintenance(super::upkeep::MaintenanceCost),
    /// "Draw up to N cards from <pile>": the player draws 1 to N (the script's `draw`).
    DrawUpTo { count: u32, from: PileName },
    /// Place one card from your hand (your `choose`) in one of your piles, on top or
    /// (`bottom`) on the bottom.
    PlaceFromHand {
        to: PileName,
        #[serde(default)]
        bottom: bool,
    },
    /// "Your total power present is doubled" in the battle the destiny just drawn
    /// belongs to; with `if_less`, only where your power is less than the opponent's.
    DoublePowerPresent {
        #[serde(default)]
        if_less: bool,
    },
    /// Deploy a site from a deck or pile to a planet system on table (the player's
    /// `choose` with `to:`), only where the end result obeys every rule and condition.
    DeploySite(Box<super::site_deploy::SiteDeploy>),
    /// Move a card as a regular move to a battle just initiated at an adjacent site
    /// (Run Luke, Run!; `battle_arrive.rs`).
    MoveToBattle(Box<super::battle_arrive::MoveToBattle>),
    /// "'Break cover' of opponent's Undercover spy": the spy loses every card that makes
    /// it undercover (`break_cover.rs`).
    BreakCover(CardRef),
}

/// One piece of game text the engine understands.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    /// Short name used in scripts (`ability:`); default: its position, from 1.
    #[serde(default)]
    pub name: Option<String>,
    pub kind: AbilityKind,
    /// For responses, automatic and "before" actions: what they respond to.
    #[serde(default)]
    pub responds_to: Option<Trigger>,
    /// For top-level and mandatory actions: the phase they belong to.
    #[serde(default)]
    pub during: Option<Phase>,
    /// Only during your own turn.
    #[serde(default)]
    pub your_turn: bool,
    /// A top-level action the card says may be taken "at any time" (AR: Actions At Any
    /// Time): it is still a top-level action and cannot respond while the stack is not empty.
    #[serde(default)]
    pub at_any_time: bool,
    /// "(except during battle)": not while a battle is under way.
    #[serde(default)]
    pub not_during_battle: bool,
    /// A card matching this filter must be on table (a condition, checked before targets).
    #[serde(default)]
    pub requires: Option<Box<Filter>>,
    /// Conditions on where cards are ("when Vader is present at a battleground site"):
    /// each must hold.
    #[serde(default)]
    pub when: Vec<super::turn::Where>,
    /// "… unless Luke is out of play, or present at a battleground site": the action
    /// may not happen if any of these holds.
    #[serde(default)]
    pub unless: Vec<super::turn::Where>,
    /// "If your starting location was a system": your starting location (deployed,
    /// converted or not) must match.
    #[serde(default)]
    pub starting_location: Option<Box<Filter>>,
    #[serde(default)]
    pub limit: Option<Limit>,
    #[serde(default)]
    pub targets: Vec<TargetSpec>,
    #[serde(default)]
    pub cost: Cost,
    #[serde(default)]
    pub effect: Vec<Effect>,
    /// For an Interrupt: where it goes after its result (default from its subtype).
    #[serde(default)]
    pub then: Option<Dest>,
    /// The words of the card this ability models.
    #[serde(default)]
    pub text: Option<String>,
    // ---- conditions on several cards (AR Meeting Conditions, Dual Character Types)
    /// No active card on table may match this filter ("you have no Imperials…").
    #[serde(default)]
    pub requires_none: Option<Box<Filter>>,
    /// Different active cards at one location, one matching each filter ("alien and
    /// Rebel … together": a dual-icon character does not count as two characters).
    #[serde(default)]
    pub requires_together: Vec<Filter>,
    /// A player's deck or pile must hold at least this many cards ("if opponent has
    /// 13 or more cards in hand"): checked at initiation only.
    #[serde(default)]
    pub requires_pile: Option<super::conditions::PileCount>,
    // ---- the damage segment (AR Damage Segment)
    /// A top-level action played during a battle's damage segment (e.g. Houjix).
    #[serde(default)]
    pub damage_segment: bool,
    /// "During each battle": only during a battle this card participates in (AR
    /// Participating In Battle - During Battle).
    #[serde(default)]
    pub in_battle: bool,
    // ---- starting the game (AR Starting The Game - Example 1)
    /// "If you have deployed a battleground": a location you deployed at the start of
    /// the game (converted since or not) must match.
    #[serde(default)]
    pub deployed_location: Option<Box<Filter>>,
    /// Text the opponent of the card's owner uses ("opponent's piloted starfighter here
    /// may attempt to …"): only the opponent may initiate it.
    #[serde(default)]
    pub opponent_uses: bool,
    /// An action already scheduled (its trigger happened earlier): it still occurs if
    /// the card has since become inactive (AR Inactive).
    #[serde(default)]
    pub scheduled: bool,
}

// ---------------------------------------------------------------- script

/// One decision. Exactly one of `light:` / `dark:` names the player and the verb.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    #[serde(default)]
    pub light: Option<Verb>,
    #[serde(default)]
    pub dark: Option<Verb>,
    /// The card played, deployed or whose game text is used.
    #[serde(default)]
    pub card: Option<String>,
    /// Which ability of the card (name, or position from 1).
    #[serde(default)]
    pub ability: Option<String>,
    /// Targets: card names, location names, or `pile` names; in the order of the ability's targets.
    #[serde(default)]
    pub target: Vec<String>,
    /// Where to deploy (a location name) or the card to deploy on.
    #[serde(default)]
    pub to: Option<String>,
    /// For `play`: the card whose game text lets this card be played (e.g. from Lost Pile).
    #[serde(default)]
    pub via: Option<String>,
    /// For `choose` / `order`: the cards chosen, in order.
    #[serde(default)]
    pub cards: Vec<String>,
    /// For `lose_force`: the Force lost; for `destiny_value`: the value chosen.
    #[serde(default)]
    pub amount: Option<i64>,
    /// For `battle` / `force_drain`: the location (its `name`).
    #[serde(default)]
    pub at: Option<String>,
    /// For `battle` / `force_drain`: the label of the action (default `battle_<at>` /
    /// `force_drain_<at>`), used by `responding_to:`, `after:` and expectations.
    #[serde(default)]
    pub label: Option<String>,
    /// For `lose_force`: where each unit of Force is lost from, in order (AR: Losing
    /// Force): `hand`, `reserve_deck`, `force_pile` or `used_pile`.
    #[serde(default)]
    pub from: Vec<PileName>,
    /// For a response: the label of the action it responds to. Until that action is
    /// the one being responded to and its player has a legal response, its player
    /// passes (the decision is not judged earlier).
    #[serde(default)]
    pub responding_to: Option<String>,
    /// The label of an action that must have had its result (or been canceled) first:
    /// until then, in response windows, its player passes (the decision is not
    /// judged earlier).
    #[serde(default)]
    pub after: Option<String>,
    /// A short remark carried into the trace.
    #[serde(default)]
    pub say: Option<String>,
    /// For `move`: which kind of move (default: the only one that fits).
    #[serde(default)]
    pub how: Option<MoveHow>,
    /// For `deploy`: cards deployed simultaneously aboard (pilots, passengers).
    #[serde(default)]
    pub with: Vec<String>,
    /// For `first`: the player who acts first.
    #[serde(default)]
    pub player: Option<Side>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verb {
    /// Decline to act now.
    Pass,
    /// Deploy a card from hand (top-level, in your deploy phase).
    Deploy,
    /// Play a card (an Interrupt) from hand, or through `via`.
    Play,
    /// Use game text of a card on table.
    Use,
    /// Choose cards (a search result).
    Choose,
    /// Choose the order of competing automatic actions.
    Order,
    /// Battle damage segment: forfeit a participating card (`card`).
    Forfeit,
    /// Battle damage segment: lose Force (`amount`) to satisfy battle damage.
    LoseForce,
    /// Battle: the value (`amount`) of a drawn card with several destiny values.
    DestinyValue,
    /// Move a card (`card`) to a location or aboard a card (`to`), by `how` if given.
    Move,
    /// Initiate a battle at a location (`at`), in your battle phase.
    Battle,
    /// Initiate a Force drain at a location (`at`), in your control phase.
    ForceDrain,
    /// A battle on the stack reaching its power segment: draw only `amount` of the
    /// battle destinies you may draw.
    BattleDestinies,
    /// A battle's weapons segment: fire the weapon `card` at `target`.
    Fire,
    /// Activate `amount` Force (default 1), one card at a time, in your activate phase.
    Activate,
    /// Persona replacement (your character) or converting (the opponent's) with the
    /// character `card` from hand, in place of the character `to`.
    Replace,
    /// Starting the game: reveal your starting location (`card`, from Reserve Deck).
    Reveal,
    /// Starting the game: both chose the same starting location; allow yours to be converted.
    AllowConversion,
    /// Starting the game: decline to have your starting location converted.
    DeclineConversion,
    /// A creature attack (`card`: the creature; `target`: the card it attacks, the
    /// random pick; without `target`, your cards attack the creature).
    Attack,
    // ---- retargeting (AR Targeting - Retargeting)
    /// A retargeting result: the new primary target (`target:`, cards or a location).
    Retarget,
    /// A result with several players: the player whose turn it is decides who acts
    /// first (`player:`).
    First,
    // ---- reacts (AR Appendix C React)
    /// Deploy (from hand) or move (on table) `card` as a react to the opponent's
    /// just-initiated battle or Force drain; `to`, `how`, `with` as for deploy and move.
    React,
    // ---- capturing (AR Appendix C Capturing)
    /// A captured character (`card`) is seized by an escort (`to`).
    Seize,
    /// A captured character (`card`) is imprisoned at the prison it was captured at.
    Imprison,
    /// A captured or released character (`card`) escapes to its owner's Used Pile.
    Escape,
    /// A released character (`card`) rallies: it moves to its owner's side of the site.
    Rally,
    // ---- draw phase and end of turn (`upkeep.rs`)
    /// Draw `amount` cards (default 1) one at a time into hand: in your draw phase from
    /// the Force Pile, or the number chosen for a "draw up to N" result.
    Draw,
    /// A maintenance cost: pay the maintain option and keep `card` on table.
    Maintain,
    /// A maintenance cost: pay the recycle option and place `card` in the Used Pile.
    Recycle,
    /// A maintenance cost: place `card` out of play (no cost).
    Sacrifice,
    /// A released captured starship (`card`) launches: placed on its owner's side of
    /// the system (`escape` places it in the Used Pile).
    Launch,
    // ---- undercover spies (AR Undercover Spy Rules - Breaking Cover; `break_cover.rs`)
    /// Your undercover spy (`card`) voluntarily breaks cover, in your deploy phase.
    BreakCover,
}

impl Verb {
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Pass => "pass",
            Verb::Deploy => "deploy",
            Verb::Play => "play",
            Verb::Use => "use",
            Verb::Choose => "choose",
            Verb::Order => "order",
            Verb::Forfeit => "forfeit",
            Verb::LoseForce => "lose_force",
            Verb::DestinyValue => "destiny_value",
            Verb::Move => "move",
            Verb::Battle => "battle",
            Verb::ForceDrain => "force_drain",
            Verb::BattleDestinies => "battle_destinies",
            Verb::Fire => "fire",
            Verb::Activate => "activate",
            Verb::Replace => "replace",
            Verb::Reveal => "reveal",
            Verb::AllowConversion => "allow_conversion",
            Verb::DeclineConversion => "decline_conversion",
            Verb::Attack => "attack",
            Verb::Retarget => "retarget",
            Verb::First => "first",
            Verb::React => "react",
            Verb::Seize => "seize",
            Verb::Imprison => "imprison",
            Verb::Escape => "escape",
            Verb::Rally => "rally",
            Verb::Draw => "draw",
            Verb::Maintain => "maintain",
            Verb::Recycle => "recycle",
            Verb::Sacrifice => "sacrifice",
            Verb::Launch => "launch",
            Verb::BreakCover => "break_cover",
        }
    }
}

// ---------------------------------------------------------------- movement and deployment

/// The kind of a location card (AR Ch.9 Locations).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LocKind {
    System,
    Site,
    Sector,
}

/// Movement text on a location: "you may move (free) between here and …".
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveText {
    /// Locations (names) or starships (card keys) reachable from here, and back.
    pub between: Vec<String>,
    /// Force it costs (no cost given on the card: 1).
    #[serde(default = "one")]
    pub cost: i64,
    /// The phase it may be used in (default: your move phase).
    #[serde(default)]
    pub during: Option<Phase>,
    /// Which cards may use it (default: your characters).
    #[serde(default)]
    pub filter: Option<Filter>,
    #[serde(default)]
    pub text: String,
}

fn one() -> i64 {
    1
}

/// The kinds of move (AR Ch.7 Movement).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveHow {
    Landspeed,
    Hyperspeed,
    Land,
    TakeOff,
    DockingBayTransit,
    Shuttle,
    ShipSite,
    LocationText,
    DeathStarOrbit,
    Embark,
    Disembark,
}

impl MoveHow {
    pub fn as_str(self) -> &'static str {
        match self {
            MoveHow::Landspeed => "landspeed",
            MoveHow::Hyperspeed => "hyperspeed",
            MoveHow::Land => "landing",
            MoveHow::TakeOff => "taking off",
            MoveHow::DockingBayTransit => "Docking Bay Transit",
            MoveHow::Shuttle => "shuttling",
            MoveHow::ShipSite => "moving between a starship site and its starship",
            MoveHow::LocationText => "the movement text of a location",
            MoveHow::DeathStarOrbit => "moving between a Death Star and the system it orbits",
            MoveHow::Embark => "embarking",
            MoveHow::Disembark => "disembarking",
        }
    }
    /// Regular moves count toward the one regular move per turn; the others are unlimited.
    pub fn regular(self) -> bool {
        !matches!(self, MoveHow::Embark | MoveHow::Disembark)
    }
}

/// Game text that changes how a card moves.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRules {
    /// "May not move".
    #[serde(default)]
    pub cannot_move: bool,
    /// "Rebel Guards at same site may move": cards at its site matching this (seen from
    /// its owner) may move despite their own "may not move" text (`move_permits.rs`).
    #[serde(default)]
    pub lets_move: Option<Filter>,
    /// "Moves for free".
    #[serde(default)]
    pub free: bool,
    /// "Costs +X to move" (only where the move has a cost of its own or is landspeed).
    #[serde(default)]
    pub extra_cost: i64,
    /// "To use his landspeed requires +X Force": only a move using landspeed costs more.
    #[serde(default)]
    pub landspeed_extra: i64,
    /// A vehicle whose text lets it move between interior sites (e.g. Lift Tube).
    #[serde(default)]
    pub interior: bool,
    /// "May move without presence aboard": moves with no pilot aboard (e.g. Lift Tube).
    #[serde(default)]
    pub without_presence: bool,
    /// "Moves like a character" / "moves like a starfighter".
    #[serde(default)]
    pub like: Option<MovesLike>,
    /// Text of this card that makes other cards' moves to its location cost more
    /// ("opponent's characters require +1 Force to move here").
    #[serde(default)]
    pub to_here: Option<MoveToHere>,
}

/// "Cards matching `filter` (seen from this card's owner) require +`add` Force to move
/// to this card's location" (AR Movement - costs +X to move).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveToHere {
    pub filter: Filter,
    pub add: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MovesLike {
    Character,
    Starfighter,
}

/// Where a card may deploy, from its own text or its rules (AR Ch.5 Deployment Restrictions).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeployRules {
    /// "Deploys only on/at …": location titles, systems or names it may deploy to.
    #[serde(default)]
    pub only_at: Vec<String>,
    /// "May not deploy to …".
    #[serde(default)]
    pub not_at: Vec<String>,
    /// "Deploys only aboard …" / "deploy on": the cards it may deploy on (filter).
    #[serde(default)]
    pub on: Option<Filter>,
    /// "Deploy on an alien or Imperial": it may deploy on a card matching any of these.
    #[serde(default)]
    pub on_any: Vec<Filter>,
    /// "Deploys only to a site": the kind of location it deploys to.
    #[serde(default)]
    pub kind: Option<LocKind>,
    /// "Deploys only where an Imperial is": an active card at the destination must match.
    #[serde(default)]
    pub where_card: Option<Filter>,
    /// A card deploying on a persona deploys only on a card of that persona's type
    /// (AR Persona): the type, e.g. `character` for an Effect that deploys on Vader.
    /// A character, starship or vehicle weapon (its `subtype`) needs none.
    #[serde(default)]
    pub persona_type: Option<CardType>,
    /// Deployment conditions: "deploy only if you occupy two Tatooine sites".
    #[serde(default)]
    pub occupy: Option<super::startgame::Occupy>,
    /// Restricted to an objective: it deploys only while a card matching this (e.g. an
    /// objective, or one side of it) is on table.
    #[serde(default)]
    pub only_with: Option<Filter>,
    /// "May ignore location deployment restrictions": the location's own restrictions
    /// do not apply (rules and objective restrictions still do).
    #[serde(default)]
    pub ignore_location_restrictions: bool,
    // ---- AR Starships - deploys like a starfighter
    /// "Deploys like a starfighter": it follows every rule and text for deploying
    /// starfighters, and none for its own class.
    #[serde(default)]
    pub like_starfighter: bool,
    // ---- AR Deploy Cost: a cost both players pay
    /// "To deploy, requires N Force from each player's Force Pile. Cannot deploy
    /// otherwise.": the deploy cost its text defines (an asterisk), used from each
    /// player's Force Pile; whatever modifies it modifies it for both players.
    #[serde(default)]
    pub from_each_player: Option<i64>,
    /// "Use N Force to deploy …": the deploy cost its text gives (a card with no
    /// printed deploy cost, such as a weapon, device or Effect).
    #[serde(default)]
    pub use_force: Option<i64>,
    /// "Deploys only on <planet>" (AR Prepositions - On): to a site or cloud sector
    /// of that planet (or a site whose title begins with the name, "Cloud City:"),
    /// never to the system itself.
    #[serde(default)]
    pub only_on: Vec<String>,
    /// "Never deploys or moves (even aboard a starship or vehicle) to a site opponent
    /// occupies": deploying or persona replacing to such a site, moving there, or
    /// being aboard a card that moves there, is refused.
    #[serde(default)]
    pub never_to_opponents_site: bool,
}

/// A location's deployment restriction, as data: "Light: Your spies may not deploy
/// here", "If you occupy with a Star Cruiser, opponent's Star Destroyers may not deploy
/// here" (AR Location Deployment Restrictions - Game Text).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoDeploy {
    /// The cards that may not deploy here, their owner seen from `side` ("your spies":
    /// `owner: you`; "opponent's Star Destroyers": `owner: opponent`).
    pub filter: Filter,
    /// The side whose text it is (the half of the card it is printed on); required on
    /// a location card. Without it (a board's own location), seen from the player
    /// deploying.
    #[serde(default)]
    pub side: Option<Side>,
    /// Applies only while these conditions hold here (`text_when::HERE_KEYS`).
    #[serde(default)]
    pub when: Vec<super::text_when::Cond>,
}

/// Force drain text of a card or location, as data. A card's text applies to drains
/// at its location (anywhere on table with `anywhere:`); a location's to drains there.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrainText {
    /// The side whose text it is: a card's own side (default); required on a location.
    #[serde(default)]
    pub side: Option<Side>,
    /// Whose Force drains it is about: `you` (default) or `opponent`.
    #[serde(default)]
    pub whose: Option<Who>,
    /// What it modifies: the drain's amount (default), the `icons` or the `cost`.
    #[serde(default = "drain_amount")]
    pub target: super::drain::DrainTarget,
    /// `{add: N}`, `{sub: N}`, `{mul: N}`, `{reset: N}`, `{limit: N}`.
    #[serde(default)]
    pub op: Option<super::battle::OpSpec>,
    /// "Cancels opponent's Force drain bonuses" / "modifiers" (the drainer's own cards').
    #[serde(default)]
    pub cancels: Option<super::drain::Cancels>,
    /// "Your Force drains here may not be modified by opponent."
    #[serde(default)]
    pub not_modified_by_opponent: bool,
    /// Applies only while these cards (keys) are at the drain location.
    #[serde(default)]
    pub requires: Vec<String>,
    /// A location's text: applies only while these conditions hold at the drain
    /// location ("If Maul here", "Unless Tarkin here": `text_when::HERE_KEYS`), seen
    /// from the text's side.
    #[serde(default)]
    pub when: Vec<super::text_when::Cond>,
    #[serde(default)]
    pub anywhere: bool,
    /// Applies only to drains at these locations (names; default: any it reaches).
    #[serde(default)]
    pub at: Vec<String>,
    /// "At locations related to target system": applies only at the sites and sectors
    /// related to the system the card targeted when deployed (`location_target.rs`).
    #[serde(default)]
    pub related_to_target: bool,
    // ---- permissions and protection (AR May Force Drain; Force Drains May Not Be
    // Modified Or Canceled By Opponent)
    /// "May Force drain here": this card lets its side control the location for the
    /// purpose of Force draining there, without presence (a card's text only).
    #[serde(default)]
    pub may_force_drain: bool,
    /// "Your Force drains here may not be canceled" (a 'react' may still stop one).
    #[serde(default)]
    pub not_canceled: bool,
    /// "Whenever you control any two Rebel Base locations, or any one planet site and
    /// two systems": applies only while one of these alternatives holds (`control.rs`).
    #[serde(default)]
    pub while_controls: Vec<Vec<super::control::ControlCount>>,
}

fn drain_amount() -> super::drain::DrainTarget {
    super::drain::DrainTarget::Drain
}

/// The kind of a sector (AR Ch.9 Sectors): cloud sectors are part of their planet,
/// asteroid sectors are only related to its system, Death Star II sectors belong to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SectorKind {
    Cloud,
    Asteroid,
    DeathStarIi,
}

/// "Weapons with <attribute> may deploy on this starship" (AR Weapons - Starship Weapons -
/// Special Deployment); `named`: weapons named by title, which deploy regardless.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AllowsWeapons {
    #[serde(default)]
    pub filter: Option<Filter>,
    /// More attributes, any of which qualifies ("turbolaser batteries and laser cannons").
    #[serde(default)]
    pub any: Vec<Filter>,
    #[serde(default)]
    pub named: Vec<String>,
}
