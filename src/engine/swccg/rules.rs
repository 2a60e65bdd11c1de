//! Every rulebook section the SWCCG engine cites, in one place.
//! IDs are `swccg.ar.` + slug(section title) (Advanced Rulebook 3.27).

pub const ACTIONS: &str = "swccg.ar.section-c-actions";
/// A card's game text (AR Ch.9 Game Text): what it says and the engine may not model.
pub const CARD_TEXT: &str = "swccg.ar.game-text";
pub const TYPES_OF_ACTIONS: &str = "swccg.ar.types-of-actions";
pub const OPTIONAL_ACTIONS: &str = "swccg.ar.optional-actions";
pub const JUST_ACTIONS: &str = "swccg.ar.just-actions";
pub const AUTOMATIC_ACTIONS: &str = "swccg.ar.automatic-actions";
pub const MANDATORY_ACTIONS: &str = "swccg.ar.mandatory-actions";
pub const INITIATION: &str = "swccg.ar.steps-of-an-action-1-initiation";
pub const MEETING_CONDITIONS: &str = "swccg.ar.meeting-conditions";
pub const CHOOSING_TARGETS: &str = "swccg.ar.choosing-targets";
pub const PAYING_COSTS: &str = "swccg.ar.paying-costs";
pub const RESPONSES: &str = "swccg.ar.steps-of-an-action-2-responses";
pub const RESULT: &str = "swccg.ar.steps-of-an-action-3-result";
pub const AT_ANY_TIME: &str = "swccg.ar.actions-at-any-time";
pub const TIME_TO_RESPOND: &str = "swccg.ar.actions-time-to-respond";
pub const BEFORE: &str = "swccg.ar.actions-before";
pub const JUST_LOST: &str = "swccg.ar.actions-just-lost";
pub const JUST_DEPLOYED: &str = "swccg.ar.actions-just-deployed-just-played";
pub const THE_STACK: &str = "swccg.ar.the-stack";
pub const WHAT_IS_A_RESPONSE: &str = "swccg.ar.what-is-a-response";
pub const HOW_THE_STACK_WORKS: &str = "swccg.ar.how-the-stack-works";
pub const COMING_OFF_THE_STACK: &str = "swccg.ar.responding-to-coming-off-the-stack";
pub const SIMULTANEOUS: &str = "swccg.ar.simultaneous-actions";
pub const IMPLIED_TARGET_RULE: &str = "swccg.ar.implied-target-rule";
pub const CANCELING: &str = "swccg.ar.canceling-and-suspending";
pub const ONE_RULE: &str = "swccg.ar.the-one-rule";
pub const ONCE_PER_GAME: &str = "swccg.ar.once-per-game";
pub const IMMUNE: &str = "swccg.ar.actions-immune";
pub const TAKING_CARDS: &str = "swccg.ar.section-b-taking-cards-from-a-deck-pile";
pub const DEPLOYING_FROM_PILE: &str = "swccg.ar.deploying-playing-from-a-deck-or-pile";
pub const LEAVES_TABLE: &str = "swccg.ar.leaves-table";
pub const RETRIEVE: &str = "swccg.ar.retrieve";
pub const LOSING_FORCE: &str = "swccg.ar.losing-force";
pub const ACTIVE: &str = "swccg.ar.active";
pub const INACTIVE: &str = "swccg.ar.inactive";
pub const SUPPORTING: &str = "swccg.ar.supporting";
pub const OUT_OF_PLAY: &str = "swccg.ar.out-of-play";
pub const UNIT_OF_FORCE: &str = "swccg.ar.unit-of-force";
pub const STACKED_CARDS: &str = "swccg.ar.stacked-cards-and-card-state";
pub const SUPPORTING_EXAMPLE_2: &str = "swccg.ar.supporting-cards-example-2";
pub const ORDER_OF_EVENTS: &str = "swccg.ar.order-of-events-in-a-turn";
pub const END_OF_TURN: &str = "swccg.ar.chapter-8-draw-phase-end-of-turn-end-of-turn";

// Deployment and movement (AR Ch.5, Ch.7, Ch.9).
pub const MOVE_PHASE: &str = "swccg.ar.move-phase";
pub const MOVEMENT: &str = "swccg.ar.movement";
pub const MOVEMENT_REGULAR: &str = "swccg.ar.movement-regular";
pub const MOVEMENT_UNLIMITED: &str = "swccg.ar.movement-unlimited";
pub const LANDSPEED: &str = "swccg.ar.regular-landspeed";
pub const HYPERSPEED: &str = "swccg.ar.regular-hyperspeed";
pub const LANDING: &str = "swccg.ar.regular-landing-and-taking-off";
pub const DOCKING_BAY_TRANSIT: &str = "swccg.ar.regular-docking-bay-transit";
pub const SHUTTLING: &str = "swccg.ar.regular-shuttling";
pub const STARSHIP_SITES: &str = "swccg.ar.regular-starship-and-vehicle-sites";
pub const LOCATION_TEXT_MOVE: &str = "swccg.ar.regular-using-the-movement-text-on-a-location-card";
pub const MOVING_DEATH_STARS: &str = "swccg.ar.regular-mobile-system-moving-death-stars";
pub const TO_FROM_DEATH_STAR: &str =
    "swccg.ar.regular-mobile-system-moving-to-or-from-a-death-star";
pub const EMBARKING: &str = "swccg.ar.unlimited-embarking-and-disembarking";
pub const CANNOT_MOVE: &str = "swccg.ar.movement-cannot-move";
pub const CARRYING: &str = "swccg.ar.movement-carrying-cards";
pub const MOVE_COSTS: &str = "swccg.ar.movement-costs-x-to-move-moves-for-free";
pub const MOVES_LIKE_CHARACTER: &str = "swccg.ar.movement-moves-like-a-character";
pub const MOVES_LIKE_STARFIGHTER: &str = "swccg.ar.movement-moves-like-a-starfighter";
pub const UNPILOTED: &str = "swccg.ar.starships-or-vehicles-unpiloted";
pub const LANDED: &str = "swccg.ar.starships-landed";
pub const NAV_COMPUTER: &str = "swccg.ar.starships-nav-computer";
pub const PERSONA: &str = "swccg.ar.persona";
pub const UNIQUENESS: &str = "swccg.ar.unique-restricted-non-unique";
pub const DEPLOY: &str = "swccg.ar.deploy";
pub const DEPLOY_PHASE: &str = "swccg.ar.deploy-phase";
pub const DEPLOYMENT_RESTRICTIONS: &str = "swccg.ar.deployment-restrictions";
pub const SIMULTANEOUS_DEPLOYMENT: &str = "swccg.ar.simultaneous-deployment";
pub const DEPLOYING_ABOARD: &str = "swccg.ar.starships-deploying-on-or-aboard";
pub const LOCATION_DEPLOYMENT_RESTRICTIONS: &str = "swccg.ar.location-deployment-restrictions";
pub const INTERIOR_SITES: &str = "swccg.ar.interior-sites";

/// Every ID above, for audits.
pub const ALL: &[&str] = &[
    CARD_TEXT,
    ACTIONS,
    TYPES_OF_ACTIONS,
    OPTIONAL_ACTIONS,
    JUST_ACTIONS,
    AUTOMATIC_ACTIONS,
    MANDATORY_ACTIONS,
    INITIATION,
    MEETING_CONDITIONS,
    CHOOSING_TARGETS,
    PAYING_COSTS,
    RESPONSES,
    RESULT,
    AT_ANY_TIME,
    TIME_TO_RESPOND,
    BEFORE,
    JUST_LOST,
    JUST_DEPLOYED,
    THE_STACK,
    WHAT_IS_A_RESPONSE,
    HOW_THE_STACK_WORKS,
    COMING_OFF_THE_STACK,
    SIMULTANEOUS,
    IMPLIED_TARGET_RULE,
    CANCELING,
    ONE_RULE,
    ONCE_PER_GAME,
    IMMUNE,
    TAKING_CARDS,
    DEPLOYING_FROM_PILE,
    LEAVES_TABLE,
    RETRIEVE,
    LOSING_FORCE,
    ACTIVE,
    INACTIVE,
    SUPPORTING,
    OUT_OF_PLAY,
    UNIT_OF_FORCE,
    STACKED_CARDS,
    ORDER_OF_EVENTS,
    END_OF_TURN,
    SUPPORTING_EXAMPLE_2,
    MOVE_PHASE,
    MOVEMENT,
    MOVEMENT_REGULAR,
    MOVEMENT_UNLIMITED,
    LANDSPEED,
    HYPERSPEED,
    LANDING,
    DOCKING_BAY_TRANSIT,
    SHUTTLING,
    STARSHIP_SITES,
    LOCATION_TEXT_MOVE,
    MOVING_DEATH_STARS,
    TO_FROM_DEATH_STAR,
    EMBARKING,
    CANNOT_MOVE,
    CARRYING,
    MOVE_COSTS,
    MOVES_LIKE_CHARACTER,
    MOVES_LIKE_STARFIGHTER,
    UNPILOTED,
    LANDED,
    NAV_COMPUTER,
    PERSONA,
    UNIQUENESS,
    DEPLOY,
    DEPLOY_PHASE,
    DEPLOYMENT_RESTRICTIONS,
    SIMULTANEOUS_DEPLOYMENT,
    DEPLOYING_ABOARD,
    LOCATION_DEPLOYMENT_RESTRICTIONS,
    INTERIOR_SITES,
    BATTLE,
    BATTLE_PHASE,
    INITIATE_BATTLE,
    CONTROL_PHASE,
    FORCE_DRAIN,
    PRESENCE,
    CONTROL,
    LOSING_FORCE_FROM_X,
];

/// Battles and Force drains started by the script (`battle`, `force_drain`).
pub const BATTLE: &str = "swccg.ar.battle";
pub const BATTLE_PHASE: &str = "swccg.ar.battle-phase";
pub const INITIATE_BATTLE: &str = "swccg.ar.initiate-the-battle";
pub const CONTROL_PHASE: &str = "swccg.ar.control-phase";
pub const FORCE_DRAIN: &str = "swccg.ar.force-drain";
pub const PRESENCE: &str = "swccg.ar.presence";
pub const CONTROL: &str = "swccg.ar.control-of-a-location";
pub const LOSING_FORCE_FROM_X: &str = "swccg.ar.losing-force-from-x";

// Turn structure, Force generation and activation (AR Ch.2, Ch.3, Ch.8).
pub const ACTIVATE_PHASE: &str = "swccg.ar.activate-phase";
pub const ACTIVATING_FORCE: &str = "swccg.ar.activating-force";
pub const FORCE_ICONS: &str = "swccg.ar.force-icons";
pub const FORCE_GENERATION: &str = "swccg.ar.force-generation";
pub const FORCE_GENERATION_MODIFIER: &str = "swccg.ar.force-generation-modifier";
pub const BATTLEGROUND: &str = "swccg.ar.locations-battleground";
pub const NEVER: &str = "swccg.ar.never";
pub const OCCUPY: &str = "swccg.ar.occupy";
pub const MODIFIERS: &str = "swccg.ar.modifiers";
pub const START_OF_TURN: &str = "swccg.ar.start-of-turn";
pub const DRAW_PHASE: &str = "swccg.ar.draw-phase";
pub const STARTING_THE_GAME_GENERAL: &str = "swccg.ar.starting-the-game-general-rules";
pub const CONDITIONS_VERSUS_COSTS: &str = "swccg.ar.conditions-versus-costs";
pub const STARTING_HAND: &str = "swccg.ar.starting-hand";
pub const STEP_A: &str = "swccg.ar.step-a-playing-starting-cards";
pub const STEP_B: &str = "swccg.ar.step-b-shuffle-and-draw-starting-hand";
pub const STARTING_LOCATION: &str = "swccg.ar.starting-location";
pub const NEVER_LOCATION_RESTRICTIONS: &str = "swccg.ar.never-location-restrictions";
pub const INVASION: &str = "swccg.ar.rulings.invasion";
pub const OBJECTIVE_DEPLOYMENT_RESTRICTIONS: &str = "swccg.ar.objective-deployment-restrictions";
pub const ANAKIN_AND_VADER: &str = "swccg.ar.personas-anakin-skywalker-and-darth-vader";
pub const CROSSING_OVER: &str = "swccg.ar.persona-crossing-over";
pub const PERSONA_REPLACEMENT: &str = "swccg.ar.persona-replacement";
pub const PERSONA_NON_UNIQUE: &str = "swccg.ar.persona-replacement-non-unique-persona";
pub const CONVERTING: &str = "swccg.ar.persona-converting-characters";

/// Every section the turn-structure, activation and deployment additions cite.
pub const TURN_ALL: &[&str] = &[
    ACTIVATE_PHASE,
    ACTIVATING_FORCE,
    FORCE_ICONS,
    FORCE_GENERATION,
    FORCE_GENERATION_MODIFIER,
    BATTLEGROUND,
    NEVER,
    OCCUPY,
    MODIFIERS,
    START_OF_TURN,
    DRAW_PHASE,
    STARTING_THE_GAME_GENERAL,
    CONDITIONS_VERSUS_COSTS,
    STARTING_HAND,
    STEP_A,
    STEP_B,
    STARTING_LOCATION,
    NEVER_LOCATION_RESTRICTIONS,
    INVASION,
    OBJECTIVE_DEPLOYMENT_RESTRICTIONS,
    ANAKIN_AND_VADER,
    CROSSING_OVER,
    PERSONA_REPLACEMENT,
    PERSONA_NON_UNIQUE,
    CONVERTING,
];

/// Where cards are (prepositions), weapons on the board.
pub const PREPOSITIONS: &str = "swccg.ar.prepositions";
pub const PRESENT: &str = "swccg.ar.present";
pub const PLANET: &str = "swccg.ar.planet";
pub const ASTEROID_SECTORS: &str = "swccg.ar.asteroid-sectors";
pub const STARSHIP_VEHICLE_SITES: &str = "swccg.ar.starship-and-vehicle-sites";
pub const STARSHIPS_ENCLOSED: &str = "swccg.ar.starships-enclosed";
pub const OPEN_VEHICLES: &str = "swccg.ar.vehicles-open-vehicles";
pub const VEHICLES_CREATURE: &str = "swccg.ar.vehicles-creature-vehicles";
pub const DAGOBAH_AHCH_TO: &str = "swccg.ar.dagobah-and-ahch-to";
pub const REPEATING_WEAPONS: &str = "swccg.ar.weapons-repeating-weapons-fire-repeatedly";
pub const FIRING_FOR_FREE: &str = "swccg.ar.weapons-firing-for-free";
pub const MOVEMENT_COSTS: &str = "swccg.ar.movement-costs-x-to-move-moves-for-free";
pub const RELOCATING: &str = "swccg.ar.unlimited-relocating-cards-between-locations";
pub const STARSHIP_WEAPON_DEPLOYMENT: &str = "swccg.ar.weapons-starship-weapons-special-deployment";

pub const ALL_PLACES: &[&str] = &[
    PREPOSITIONS,
    PRESENT,
    PLANET,
    ASTEROID_SECTORS,
    STARSHIP_VEHICLE_SITES,
    STARSHIPS_ENCLOSED,
    OPEN_VEHICLES,
    VEHICLES_CREATURE,
    DAGOBAH_AHCH_TO,
    REPEATING_WEAPONS,
    FIRING_FOR_FREE,
    MOVEMENT_COSTS,
    RELOCATING,
    STARSHIP_WEAPON_DEPLOYMENT,
];

// ---- identical titles, global effects and durations
pub const TITLE_IDENTICAL: &str = "swccg.ar.title-identical-cards";
pub const VIRTUAL_CARDS: &str = "swccg.ar.virtual-cards";
pub const GLOBAL_EFFECTS: &str = "swccg.ar.global-effects-and-card-state";
pub const ACTIONS_DURATION: &str = "swccg.ar.actions-duration";
pub const UNTIL_END_OF_TURN: &str = "swccg.ar.until-end-of-turn";
pub const OBJECTIVES: &str = "swccg.ar.double-sided-cards-objectives";
pub const STARTING_MANDATORY: &str =
    "swccg.ar.starting-interrupts-and-objectives-mandatory-actions";
pub const STARTING_THE_GAME_EXAMPLE_1: &str = "swccg.ar.starting-the-game-example-1";
pub const NOT_UNIQUE_DOUBLED: &str = "swccg.ar.not-unique-is-doubled-etc-and-virtual-cards";
pub const INSERT_CARDS: &str = "swccg.ar.insert-cards-effects-on-gameplay";
pub const REACHING_UTINNI: &str = "swccg.ar.reaching-an-utinni-effect";
pub const LOCATION_SPECIAL_CONDITIONS: &str =
    "swccg.ar.deploying-locations-while-there-are-special-conditions";

/// Every section the identical-title, global-effect and duration rules cite.
pub const STATES_ALL: &[&str] = &[
    TITLE_IDENTICAL,
    VIRTUAL_CARDS,
    GLOBAL_EFFECTS,
    ACTIONS_DURATION,
    UNTIL_END_OF_TURN,
    OBJECTIVES,
    STARTING_MANDATORY,
    STARTING_THE_GAME_EXAMPLE_1,
    REACHING_UTINNI,
    LOCATION_SPECIAL_CONDITIONS,
];

// ---- draw phase, end of turn, maintenance, unique cards per turn (`upkeep.rs`)
pub const DRAWING_CARDS: &str = "swccg.ar.drawing-cards";
pub const MAINTENANCE: &str = "swccg.ar.icons-maintenance-cards";
pub const GRAPPLING_HOOK: &str = "swccg.ar.rulings.grappling-hook";
pub const RELOCATING_DEFEATED: &str = "swccg.ar.creatures-relocating-defeated-cards";
pub const CAPTIVES_ESCORTING: &str = "swccg.ar.captives-escorting";
pub const GENERIC_SITES: &str = "swccg.ar.generic-sites";

/// Every section the draw phase, maintenance and unique-per-turn rules cite.
pub const UPKEEP_ALL: &[&str] = &[
    DRAWING_CARDS,
    MAINTENANCE,
    GRAPPLING_HOOK,
    RELOCATING_DEFEATED,
    CAPTIVES_ESCORTING,
    GENERIC_SITES,
];
