//! Every Rules Reference v1.8 section the Destiny engine cites.

pub const RULES: &str = "destiny.rr.rules";
pub const THE_GOLDEN_RULE: &str = "destiny.rr.the-golden-rule";
pub const PART_1_CARD_TYPES_COLORS: &str = "destiny.rr.part-1-card-types-colors";
pub const AFFILIATION: &str = "destiny.rr.affiliation";
pub const COLORS: &str = "destiny.rr.colors";
pub const TYPE_SUBTYPE: &str = "destiny.rr.type-subtype";
pub const ABILITIES: &str = "destiny.rr.abilities";
pub const UNIQUENESS: &str = "destiny.rr.uniqueness";
pub const CARD_TYPES: &str = "destiny.rr.card-types";
pub const BATTLEFIELDS: &str = "destiny.rr.battlefields";
pub const PLOTS: &str = "destiny.rr.plots";
pub const POINT_VALUE: &str = "destiny.rr.point-value";
pub const CHARACTERS: &str = "destiny.rr.characters";
pub const HEALTH: &str = "destiny.rr.health";
pub const POINT_VALUE_S: &str = "destiny.rr.point-value-s";
pub const EVENTS: &str = "destiny.rr.events";
pub const COST_ALSO_APPEARS_ON_SUPPORTS_AND_UPGRADES: &str =
    "destiny.rr.cost-also-appears-on-supports-and-upgrades";
pub const SUPPORTS: &str = "destiny.rr.supports";
pub const SUBTYPES_ALSO_APPEARS_ON_CHARACTERS_AND_UPGRADES: &str =
    "destiny.rr.subtypes-also-appears-on-characters-and-upgrades";
pub const UPGRADES: &str = "destiny.rr.upgrades";
pub const PART_2_DICE_DICE_SYMBOLS: &str = "destiny.rr.part-2-dice-dice-symbols";
pub const VALUE: &str = "destiny.rr.value";
pub const ZERO_IS_EVEN: &str =
    "destiny.rr.faq.for-game-effects-is-zero-considered-an-odd-or-even-number";
pub const SYMBOL: &str = "destiny.rr.symbol";
pub const RESOURCE_COST: &str = "destiny.rr.resource-cost";
pub const MODIFIER: &str = "destiny.rr.modifier";
pub const DICE_SYMBOLS: &str = "destiny.rr.dice-symbols";
pub const MELEE_DAMAGE: &str = "destiny.rr.melee-damage";
pub const RANGED_DAMAGE: &str = "destiny.rr.ranged-damage";
pub const INDIRECT_DAMAGE: &str = "destiny.rr.indirect-damage";
pub const SHIELD: &str = "destiny.rr.shield";
pub const RESOURCE: &str = "destiny.rr.resource";
pub const DISRUPT: &str = "destiny.rr.disrupt";
pub const DISCARD: &str = "destiny.rr.discard";
pub const FOCUS: &str = "destiny.rr.focus";
pub const SPECIAL: &str = "destiny.rr.special";
pub const BLANK: &str = "destiny.rr.blank";
pub const RESOLVING_DICE_THROUGH_CARDS: &str = "destiny.rr.resolving-dice-through-cards";
pub const DICE_LEAVING_PLAY: &str = "destiny.rr.dice-leaving-play";
pub const PART_3_AREAS_OF_PLAY: &str = "destiny.rr.part-3-areas-of-play";
pub const IN_PLAY: &str = "destiny.rr.in-play";
pub const CHARACTERS_PLOTS_PLAYED_CARDS: &str = "destiny.rr.characters-plots-played-cards";
pub const DICE_POOL: &str = "destiny.rr.dice-pool";
pub const RESOURCES: &str = "destiny.rr.resources";
pub const BATTLEFIELD_IF_CONTROLLED: &str = "destiny.rr.battlefield-if-controlled";
pub const OUT_OF_PLAY: &str = "destiny.rr.out-of-play";
pub const HAND: &str = "destiny.rr.hand";
pub const DECK: &str = "destiny.rr.deck";
pub const DISCARD_PILE: &str = "destiny.rr.discard-pile";
pub const QUEUE: &str = "destiny.rr.queue";
pub const DICE_ON_CARDS: &str = "destiny.rr.dice-on-cards";
pub const SET_ASIDE_ZONE: &str = "destiny.rr.set-aside-zone";
pub const SUPPLY: &str = "destiny.rr.supply";
pub const PART_4_CUSTOMIZATION: &str = "destiny.rr.part-4-customization";
pub const S1_BUILDING_A_TEAM: &str = "destiny.rr.1-building-a-team";
pub const S2_BUILDING_A_DECK: &str = "destiny.rr.2-building-a-deck";
pub const S3_SELECTING_A_BATTLEFIELD: &str = "destiny.rr.3-selecting-a-battlefield";
pub const PART_5_GAME_STRUCTURE: &str = "destiny.rr.part-5-game-structure";
pub const SETUP: &str = "destiny.rr.setup";
pub const ROUNDS: &str = "destiny.rr.rounds";
pub const ACTION_PHASE: &str = "destiny.rr.action-phase";
pub const UPKEEP_PHASE: &str = "destiny.rr.upkeep-phase";
pub const ACTIONS: &str = "destiny.rr.actions";
pub const PLAY_A_CARD: &str = "destiny.rr.play-a-card";
pub const ACTIVATE_A_CARD: &str = "destiny.rr.activate-a-card";
pub const RESOLVE_DICE: &str = "destiny.rr.resolve-dice";
pub const REROLL_DICE: &str = "destiny.rr.reroll-dice";
pub const USE_A_CARD_ACTION: &str = "destiny.rr.use-a-card-action";
pub const CLAIM_THE_BATTLEFIELD: &str = "destiny.rr.claim-the-battlefield";
pub const ILLEGAL_ACTIONS: &str = "destiny.rr.illegal-actions";
pub const EXTRA_ACTIONS: &str = "destiny.rr.extra-actions";
pub const PASSING: &str = "destiny.rr.passing";
pub const CHANGING_CARD_TYPES: &str = "destiny.rr.changing-card-types";
pub const REMINDER_TEXT: &str = "destiny.rr.reminder-text";
pub const WINNING_THE_GAME: &str = "destiny.rr.winning-the-game";
pub const PART_6_GAME_CONCEPTS: &str = "destiny.rr.part-6-game-concepts";
pub const DAMAGE: &str = "destiny.rr.damage";
pub const DEFEATED_CHARACTERS: &str = "destiny.rr.defeated-characters";
pub const PART_6_GAME_CONCEPTS_RESOURCES: &str = "destiny.rr.part-6-game-concepts-resources";
pub const SHIELDS: &str = "destiny.rr.shields";
pub const DRAW: &str = "destiny.rr.draw";
pub const READY: &str = "destiny.rr.ready";
pub const EXHAUSTED: &str = "destiny.rr.exhausted";
pub const PART_7_ABILITIES: &str = "destiny.rr.part-7-abilities";
pub const PART_7_ABILITIES_QUEUE: &str = "destiny.rr.part-7-abilities-queue";
pub const ACTION_ABILITIES: &str = "destiny.rr.action-abilities";
pub const CLAIM_ABILITIES: &str = "destiny.rr.claim-abilities";
pub const ONGOING_ABILITIES: &str = "destiny.rr.ongoing-abilities";
pub const INHERENT_DICE_ABILITIES: &str = "destiny.rr.inherent-dice-abilities";
pub const SPECIAL_ABILITIES: &str = "destiny.rr.special-abilities";
pub const KEYWORDS: &str = "destiny.rr.keywords";
pub const AMBUSH: &str = "destiny.rr.ambush";
pub const GUARDIAN: &str = "destiny.rr.guardian";
pub const MODIFY: &str = "destiny.rr.modify";
pub const REDEPLOY: &str = "destiny.rr.redeploy";
pub const TRIGGERED_ABILITIES: &str = "destiny.rr.triggered-abilities";
pub const TRIGGER_CONDITION: &str = "destiny.rr.trigger-condition";
pub const BEFORE_ABILITIES: &str = "destiny.rr.before-abilities";
pub const AFTER_ABILITIES: &str = "destiny.rr.after-abilities";
pub const SIMULTANEOUS_ABILITIES: &str = "destiny.rr.simultaneous-abilities";
pub const EFFECTS: &str = "destiny.rr.effects";
pub const DELAYED_EFFECTS: &str = "destiny.rr.delayed-effects";
pub const REPLACEMENT_EFFECTS: &str = "destiny.rr.replacement-effects";
pub const SELF_REFERENTIAL_EFFECTS: &str = "destiny.rr.self-referential-effects";
pub const NEGATIVE_EFFECTS: &str = "destiny.rr.negative-effects";
pub const THEN_EFFECTS: &str = "destiny.rr.then-effects";
pub const PART_8_TERMS: &str = "destiny.rr.part-8-terms";
pub const CHARACTER_DIE: &str = "destiny.rr.character-die";
pub const CHEAPEST: &str = "destiny.rr.cheapest";
pub const CHOOSE_EITHER: &str = "destiny.rr.choose-either";
pub const CHOOSE_TARGET: &str = "destiny.rr.choose-target";
pub const COMBINED_VALUE: &str = "destiny.rr.combined-value";
pub const CONTROLLER: &str = "destiny.rr.controller";
pub const COPY_OF_A_CARD: &str = "destiny.rr.copy-of-a-card";
pub const DECREASES: &str = "destiny.rr.decreases";
pub const FREE: &str = "destiny.rr.free";
pub const HEAL: &str = "destiny.rr.heal";
pub const INCREASES: &str = "destiny.rr.increases";
pub const LOOK_AT: &str = "destiny.rr.look-at";
pub const MOVE: &str = "destiny.rr.move";
pub const OWNER: &str = "destiny.rr.owner";
pub const PLAY_RESTRICTIONS: &str = "destiny.rr.play-restrictions";
pub const REMAINING_HEALTH: &str = "destiny.rr.remaining-health";
pub const REMOVING_DICE: &str = "destiny.rr.removing-dice";
pub const REPLACE: &str = "destiny.rr.replace";
pub const ROLLING: &str = "destiny.rr.rolling";
pub const SEARCH: &str = "destiny.rr.search";
pub const SHOWING: &str = "destiny.rr.showing";
pub const SPOTTING: &str = "destiny.rr.spotting";
pub const TAKING_DAMAGE: &str = "destiny.rr.taking-damage";
pub const TURN_DIE: &str = "destiny.rr.turn-die";
pub const UNBLOCKABLE_DAMAGE: &str = "destiny.rr.unblockable-damage";
pub const X_AS_A_VARIABLE: &str = "destiny.rr.x-as-a-variable";
pub const ERRATA: &str = "destiny.rr.errata";
pub const CLARIFICATIONS: &str = "destiny.rr.clarifications";
pub const FAQ: &str = "destiny.rr.faq";
pub const BATTLE_OF_WILLS: &str = "destiny.rr.clarifications.empire-at-war.battle-of-wills-128";
pub const JAR_JAR_BINKS: &str = "destiny.rr.clarifications.legacies.jar-jar-binks-47";
pub const TRAINING: &str = "destiny.rr.clarifications.spirit-of-rebellion.training-125";
pub const HOME_TURF_ADVANTAGE: &str =
    "destiny.rr.clarifications.way-of-the-force.home-turf-advantage-127";

/// Every ID above.
pub const ALL: &[&str] = &[
    RULES,
    THE_GOLDEN_RULE,
    PART_1_CARD_TYPES_COLORS,
    AFFILIATION,
    COLORS,
    TYPE_SUBTYPE,
    ABILITIES,
    UNIQUENESS,
    CARD_TYPES,
    BATTLEFIELDS,
    PLOTS,
    POINT_VALUE,
    CHARACTERS,
    HEALTH,
    POINT_VALUE_S,
    EVENTS,
    COST_ALSO_APPEARS_ON_SUPPORTS_AND_UPGRADES,
    SUPPORTS,
    SUBTYPES_ALSO_APPEARS_ON_CHARACTERS_AND_UPGRADES,
    UPGRADES,
    PART_2_DICE_DICE_SYMBOLS,
    VALUE,
    SYMBOL,
    RESOURCE_COST,
    MODIFIER,
    DICE_SYMBOLS,
    MELEE_DAMAGE,
    RANGED_DAMAGE,
    INDIRECT_DAMAGE,
    SHIELD,
    RESOURCE,
    DISRUPT,
    DISCARD,
    FOCUS,
    SPECIAL,
    BLANK,
    RESOLVING_DICE_THROUGH_CARDS,
    DICE_LEAVING_PLAY,
    PART_3_AREAS_OF_PLAY,
    IN_PLAY,
    CHARACTERS_PLOTS_PLAYED_CARDS,
    DICE_POOL,
    RESOURCES,
    BATTLEFIELD_IF_CONTROLLED,
    OUT_OF_PLAY,
    HAND,
    DECK,
    DISCARD_PILE,
    QUEUE,
    DICE_ON_CARDS,
    SET_ASIDE_ZONE,
    SUPPLY,
    PART_4_CUSTOMIZATION,
    S1_BUILDING_A_TEAM,
    S2_BUILDING_A_DECK,
    S3_SELECTING_A_BATTLEFIELD,
    PART_5_GAME_STRUCTURE,
    SETUP,
    ROUNDS,
    ACTION_PHASE,
    UPKEEP_PHASE,
    ACTIONS,
    PLAY_A_CARD,
    ACTIVATE_A_CARD,
    RESOLVE_DICE,
    REROLL_DICE,
    USE_A_CARD_ACTION,
    CLAIM_THE_BATTLEFIELD,
    ILLEGAL_ACTIONS,
    EXTRA_ACTIONS,
    PASSING,
    CHANGING_CARD_TYPES,
    REMINDER_TEXT,
    WINNING_THE_GAME,
    PART_6_GAME_CONCEPTS,
    DAMAGE,
    DEFEATED_CHARACTERS,
    PART_6_GAME_CONCEPTS_RESOURCES,
    SHIELDS,
    DRAW,
    READY,
    EXHAUSTED,
    PART_7_ABILITIES,
    PART_7_ABILITIES_QUEUE,
    ACTION_ABILITIES,
    CLAIM_ABILITIES,
    ONGOING_ABILITIES,
    INHERENT_DICE_ABILITIES,
    SPECIAL_ABILITIES,
    KEYWORDS,
    AMBUSH,
    GUARDIAN,
    MODIFY,
    REDEPLOY,
    TRIGGERED_ABILITIES,
    TRIGGER_CONDITION,
    BEFORE_ABILITIES,
    AFTER_ABILITIES,
    SIMULTANEOUS_ABILITIES,
    EFFECTS,
    DELAYED_EFFECTS,
    REPLACEMENT_EFFECTS,
    SELF_REFERENTIAL_EFFECTS,
    NEGATIVE_EFFECTS,
    THEN_EFFECTS,
    PART_8_TERMS,
    CHARACTER_DIE,
    CHEAPEST,
    CHOOSE_EITHER,
    CHOOSE_TARGET,
    COMBINED_VALUE,
    CONTROLLER,
    COPY_OF_A_CARD,
    DECREASES,
    FREE,
    HEAL,
    INCREASES,
    LOOK_AT,
    MOVE,
    OWNER,
    PLAY_RESTRICTIONS,
    REMAINING_HEALTH,
    REMOVING_DICE,
    REPLACE,
    ROLLING,
    SEARCH,
    SHOWING,
    SPOTTING,
    TAKING_DAMAGE,
    TURN_DIE,
    UNBLOCKABLE_DAMAGE,
    X_AS_A_VARIABLE,
    ERRATA,
    CLARIFICATIONS,
    FAQ,
];
