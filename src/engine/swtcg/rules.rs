//! Every rulebook section ID the SWTCG engine cites.

pub const UNIT_CARDS: &str = "swtcg.rb.unit-cards";
pub const BATTLE_CARDS: &str = "swtcg.rb.battle-cards";
pub const EQUIPMENT_CARDS: &str = "swtcg.rb.equipment-cards";
pub const MULTI_ARENA: &str = "swtcg.rb.multi-arena-cards";
pub const BUILDING: &str = "swtcg.rb.building-cards-with-build-costs";
pub const UNIQUE: &str = "swtcg.rb.unique-cards";
pub const DIFFERENT_NAMES: &str = "swtcg.rb.different-versions-with-different-names";
pub const CONTESTING: &str = "swtcg.rb.contesting-unique-cards";
pub const STACKING: &str = "swtcg.rb.stacking-and-rearranging";
pub const ARENAS: &str = "swtcg.rb.arenas";
pub const BUILD_ZONE: &str = "swtcg.rb.build-zone";
pub const DECK: &str = "swtcg.rb.deck";
pub const DISCARD_PILE: &str = "swtcg.rb.discard-pile";
pub const HAND: &str = "swtcg.rb.hand";
pub const SIDE: &str = "swtcg.rb.side";
pub const CHOOSE_SIDES: &str = "swtcg.rb.choose-sides";
pub const SETUP: &str = "swtcg.rb.setup";
pub const OBJECT: &str = "swtcg.rb.object-of-the-game";
pub const PRIMARY_RULES: &str = "swtcg.rb.the-4-primary-rules";
pub const TURN_STRUCTURE: &str = "swtcg.rb.turn-structure";
pub const READY_PHASE: &str = "swtcg.rb.ready-phase";
pub const COMMAND_PHASE: &str = "swtcg.rb.command-phase";
pub const BATTLE_PHASE: &str = "swtcg.rb.battle-phase";
pub const END_OF_TURN: &str = "swtcg.rb.end-of-turn";
pub const ATTACKING: &str = "swtcg.rb.attacking";
pub const TWO_HEADED: &str = "swtcg.rb.two-headed-wookiee";
pub const SHARING: &str = "swtcg.rb.sharing";
pub const DISTINCTIONS: &str = "swtcg.rb.distinctions";
pub const EFFECTS: &str = "swtcg.rb.section-3-effects";
pub const EFFECT_TYPES: &str = "swtcg.rb.effect-types";
pub const USING_EFFECTS: &str = "swtcg.rb.using-effects";
pub const DUPLICATES: &str = "swtcg.rb.duplicate-effects-and-bonuses";
pub const POP: &str = "swtcg.rb.play-or-pass-pop-chances";
pub const KEYWORDS: &str = "swtcg.rb.keywords";
pub const ACCURACY: &str = "swtcg.rb.accuracy";
pub const ARMOR: &str = "swtcg.rb.armor";
pub const BOMBARD: &str = "swtcg.rb.bombard";
pub const BOUNTY: &str = "swtcg.rb.bounty";
pub const CRITICAL_HIT: &str = "swtcg.rb.critical-hit";
pub const DEFLECT: &str = "swtcg.rb.deflect";
pub const DOUBLE_STRIKE: &str = "swtcg.rb.double-strike";
pub const EQUIP: &str = "swtcg.rb.equip";
pub const EVADE: &str = "swtcg.rb.evade";
pub const FURY: &str = "swtcg.rb.fury";
pub const INTERCEPT: &str = "swtcg.rb.intercept";
pub const ION_CANNON: &str = "swtcg.rb.ion-cannon";
pub const LUCKY: &str = "swtcg.rb.lucky";
pub const OVERKILL: &str = "swtcg.rb.overkill";
pub const PARRY: &str = "swtcg.rb.parry";
pub const PILOT: &str = "swtcg.rb.pilot";
pub const RETALIATE: &str = "swtcg.rb.retaliate";
pub const SHIELDS: &str = "swtcg.rb.shields";
pub const STEALTH: &str = "swtcg.rb.stealth";
pub const STUN: &str = "swtcg.rb.stun";
pub const UPKEEP: &str = "swtcg.rb.upkeep";
pub const PILOTS: &str = "swtcg.rb.pilots";
pub const PILOTING: &str = "swtcg.rb.piloting-units";
pub const FALL_OFF: &str = "swtcg.rb.causing-pilots-to-fall-off";
pub const RETREATING_PILOTS: &str = "swtcg.rb.retreating-pilots";
pub const G_ATTACK_DICE: &str = "swtcg.rb.glossary.attack-dice";
pub const G_DAMAGE: &str = "swtcg.rb.glossary.damage";
pub const G_DAMAGE_COUNTER: &str = "swtcg.rb.glossary.damage-counter";
pub const G_DICE_OF_DAMAGE: &str = "swtcg.rb.glossary.dice-of-damage";
pub const G_DISCARD: &str = "swtcg.rb.glossary.discard";
pub const G_DISRUPT: &str = "swtcg.rb.glossary.disrupt";
pub const G_DRAW_STEP: &str = "swtcg.rb.glossary.draw-step";
pub const G_FORCE: &str = "swtcg.rb.glossary.force";
pub const G_HEALTH: &str = "swtcg.rb.glossary.health";
pub const G_HIT: &str = "swtcg.rb.glossary.hit";
pub const G_MOVE: &str = "swtcg.rb.glossary.move";
pub const G_NAME: &str = "swtcg.rb.glossary.name";
pub const G_POWER: &str = "swtcg.rb.glossary.power";
pub const G_PREVENT: &str = "swtcg.rb.glossary.prevent-damage";
pub const G_RETREAT: &str = "swtcg.rb.glossary.retreat";
pub const G_ROLL: &str = "swtcg.rb.glossary.roll";
pub const G_SPEED: &str = "swtcg.rb.glossary.speed";
pub const G_SUBTYPE: &str = "swtcg.rb.glossary.subtype";
pub const G_TAP: &str = "swtcg.rb.glossary.tap";
pub const G_TOTAL: &str = "swtcg.rb.glossary.total-build-speed-power-or-health";
pub const G_TYPE: &str = "swtcg.rb.glossary.type";
pub const G_PLUS_MINUS: &str = "swtcg.rb.glossary.plus-minus";
pub const G_AS_IF: &str = "swtcg.rb.glossary.as-if-it-were";
pub const G_AS_LONG_AS: &str = "swtcg.rb.glossary.as-long-as";
pub const G_CANT_ATTACK: &str = "swtcg.rb.glossary.cant-attack";
pub const G_CANT_USE: &str = "swtcg.rb.glossary.cant-use";
pub const G_UNLESS_MASTER: &str = "swtcg.rb.glossary.unless-that-character-is-a-jedi-master";
pub const G_CONTROL_ARENA: &str = "swtcg.rb.glossary.control-the-arena";
pub const G_DAMAGE_DONE: &str = "swtcg.rb.glossary.damage-done";
pub const G_DIVIDE: &str = "swtcg.rb.glossary.divide-hits-or-divide-the-damage";
pub const G_DRAW_X: &str = "swtcg.rb.glossary.draw-x-cards";
pub const G_GAIN_LOSE: &str = "swtcg.rb.glossary.gain-lose-x-force";
pub const G_NATURAL: &str = "swtcg.rb.glossary.natural-x";
pub const G_PAY: &str = "swtcg.rb.glossary.pay-x-force-build-points";
pub const G_ROLLED_NO_HITS: &str = "swtcg.rb.glossary.rolled-no-hits";
pub const G_SEARCH: &str = "swtcg.rb.glossary.search-your-deck-hand-discard-pile";
pub const G_THIS_TURN: &str = "swtcg.rb.glossary.this-turn";
pub const G_EACH_OF_YOUR_UNITS: &str = "swtcg.rb.glossary.each-of-your-units";
pub const G_WHEN_ATTACKS: &str = "swtcg.rb.glossary.when-this-unit-attacks";
pub const G_WHEN_DRAW: &str = "swtcg.rb.glossary.when-you-draw-a-card";
pub const G_WOULD_BE_DAMAGED: &str = "swtcg.rb.glossary.would-be-damaged";
pub const TURN_SUMMARY: &str = "swtcg.rb.turn-sequence-summary";
pub const ATTACK_SUMMARY: &str = "swtcg.rb.attack-sequence-summary";
pub const ORDER_OF_OPERATIONS: &str = "swtcg.rb.order-of-operations-for-effects";
pub const MISSION_CARDS: &str = "swtcg.rb.mission-cards";
pub const LOCATION_CARDS: &str = "swtcg.rb.location-cards";
pub const COOPERATION: &str = "swtcg.rb.cooperation";
pub const TEAM_ORDER: &str = "swtcg.rb.order";
pub const ENHANCE: &str = "swtcg.rb.enhance";
pub const HIDDEN_COST: &str = "swtcg.rb.hidden-cost";
pub const RESERVES: &str = "swtcg.rb.reserves";
pub const SWITCH: &str = "swtcg.rb.switch";
pub const CONTROL_OF_PILOTS: &str = "swtcg.rb.control-of-pilots-and-piloted-units";
pub const G_CONTROL: &str = "swtcg.rb.glossary.control";
pub const G_OWNER: &str = "swtcg.rb.glossary.owner";
pub const G_REPLACEMENT: &str = "swtcg.rb.glossary.replacement-effect";
pub const G_ANYTIME: &str = "swtcg.rb.glossary.anytime";
pub const G_MUST_ATTACK: &str = "swtcg.rb.glossary.must-attack";
pub const G_WHEN_DISCARDED: &str = "swtcg.rb.glossary.when-this-unit-is-discarded";
pub const G_MAY_ATTACK: &str = "swtcg.rb.glossary.may-attack";
pub const G_WOULD_ATTACK: &str = "swtcg.rb.glossary.would-attack";
pub const G_WHEN_BUILD_ROLL: &str = "swtcg.rb.glossary.when-the-roll-for-build-points-is-made";
pub const G_WHEN_BATTLE_PHASE: &str = "swtcg.rb.glossary.when-the-battle-phase-starts";
pub const G_WHEN_BUILD_STEP: &str = "swtcg.rb.glossary.when-your-opponents-build-step-starts";
pub const G_COSTS_MORE_LESS: &str = "swtcg.rb.glossary.costs-x-more-less";
pub const G_PUT: &str = "swtcg.rb.glossary.put";
pub const G_CHOOSE: &str = "swtcg.rb.glossary.choose";
pub const G_STACKED_WITH: &str = "swtcg.rb.glossary.all-cards-stacked-with-it";
pub const G_AND_ITS_PILOT: &str = "swtcg.rb.glossary.and-its-pilot";
pub const G_DURING_BATTLE: &str = "swtcg.rb.glossary.during-battle";
pub const G_PUT_COUNTERS: &str = "swtcg.rb.glossary.put-x-build-counters";
pub const G_FACE_DOWN: &str = "swtcg.rb.glossary.face-down";

/// Every ID above.
pub const ALL: &[&str] = &[
    UNIT_CARDS,
    BATTLE_CARDS,
    EQUIPMENT_CARDS,
    MULTI_ARENA,
    BUILDING,
    UNIQUE,
    DIFFERENT_NAMES,
    CONTESTING,
    STACKING,
    ARENAS,
    BUILD_ZONE,
    DECK,
    DISCARD_PILE,
    HAND,
    SIDE,
    CHOOSE_SIDES,
    SETUP,
    OBJECT,
    PRIMARY_RULES,
    TURN_STRUCTURE,
    READY_PHASE,
    COMMAND_PHASE,
    BATTLE_PHASE,
    END_OF_TURN,
    ATTACKING,
    TWO_HEADED,
    SHARING,
    DISTINCTIONS,
    EFFECTS,
    EFFECT_TYPES,
    USING_EFFECTS,
    DUPLICATES,
    POP,
    KEYWORDS,
    ACCURACY,
    ARMOR,
    BOMBARD,
    BOUNTY,
    CRITICAL_HIT,
    DEFLECT,
    DOUBLE_STRIKE,
    EQUIP,
    EVADE,
    FURY,
    INTERCEPT,
    ION_CANNON,
    LUCKY,
    OVERKILL,
    PARRY,
    PILOT,
    RETALIATE,
    SHIELDS,
    STEALTH,
    STUN,
    UPKEEP,
    PILOTS,
    PILOTING,
    FALL_OFF,
    RETREATING_PILOTS,
    G_ATTACK_DICE,
    G_DAMAGE,
    G_DAMAGE_COUNTER,
    G_DICE_OF_DAMAGE,
    G_DISCARD,
    G_DISRUPT,
    G_DRAW_STEP,
    G_FORCE,
    G_HEALTH,
    G_HIT,
    G_MOVE,
    G_NAME,
    G_POWER,
    G_PREVENT,
    G_RETREAT,
    G_ROLL,
    G_SPEED,
    G_SUBTYPE,
    G_TAP,
    G_TOTAL,
    G_TYPE,
    G_PLUS_MINUS,
    G_AS_IF,
    G_AS_LONG_AS,
    G_CANT_ATTACK,
    G_CANT_USE,
    G_UNLESS_MASTER,
    G_CONTROL_ARENA,
    G_DAMAGE_DONE,
    G_DIVIDE,
    G_DRAW_X,
    G_GAIN_LOSE,
    G_NATURAL,
    G_PAY,
    G_ROLLED_NO_HITS,
    G_SEARCH,
    G_THIS_TURN,
    G_EACH_OF_YOUR_UNITS,
    G_WHEN_ATTACKS,
    G_WHEN_DRAW,
    G_WOULD_BE_DAMAGED,
    TURN_SUMMARY,
    ATTACK_SUMMARY,
    ORDER_OF_OPERATIONS,
    G_MAY_ATTACK,
    MISSION_CARDS,
    LOCATION_CARDS,
    COOPERATION,
    TEAM_ORDER,
    ENHANCE,
    HIDDEN_COST,
    RESERVES,
    SWITCH,
    CONTROL_OF_PILOTS,
    G_CONTROL,
    G_OWNER,
    G_REPLACEMENT,
    G_ANYTIME,
    G_MUST_ATTACK,
    G_WHEN_DISCARDED,
    G_WOULD_ATTACK,
    G_WHEN_BUILD_ROLL,
    G_WHEN_BATTLE_PHASE,
    G_WHEN_BUILD_STEP,
    G_COSTS_MORE_LESS,
    G_PUT,
    G_CHOOSE,
    G_STACKED_WITH,
    G_AND_ITS_PILOT,
    G_DURING_BATTLE,
    G_PUT_COUNTERS,
    G_FACE_DOWN,
];
