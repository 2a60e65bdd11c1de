//! A card definition as a file writes it (`cards/swccg/*.yaml`, a scenario's
//! inline card): each kind of card text its own key. Read into [`CardDef`], whose
//! continuous rules and replacement effects are the typed lists of `statics.rs`.

use super::model::{
    Ability, AbilityRequired, AllowsWeapons, CardDef, CardModifier, CardType, DeployRules,
    DrainText, DrawsIfUnable, Filter, MoveRules, Side, Stats, WeaponDef,
};
use super::statics::{Replacement, Static};
use serde::Deserialize;

/// Every key a card definition may set (those [`CardDef`] keeps as they are are
/// described there; the others become its `statics` and `replacements`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardFile {
    title: String,
    side: Side,
    #[serde(rename = "type")]
    card_type: CardType,
    #[serde(default)]
    subtype: Option<String>,
    #[serde(default)]
    unique: bool,
    #[serde(default)]
    personas: Vec<String>,
    #[serde(default)]
    keywords: Vec<String>,
    #[serde(default)]
    stats: Stats,
    #[serde(default)]
    immune_to: Vec<String>,
    #[serde(default)]
    text: crate::engine::library::CardText,
    #[serde(default)]
    abilities: Vec<Ability>,
    #[serde(default)]
    not_modelled: Vec<String>,
    #[serde(default)]
    moves: Box<MoveRules>,
    #[serde(default)]
    deploy_rules: Box<DeployRules>,
    #[serde(default)]
    modifiers: Vec<CardModifier>,
    #[serde(default)]
    weapon: Option<Box<WeaponDef>>,
    #[serde(default)]
    drain: Vec<DrainText>,
    /// "May fire <weapons> for free": weapons matching the filter, on this card or on
    /// the character this card is on, fire for free (a repeating weapon: its first shot).
    #[serde(default)]
    fires_free: Option<Box<Filter>>,
    /// A starship's text allowing weapons to deploy on it: those matching `filter`
    /// (if they may deploy on another starship of the same type), and those it names.
    #[serde(default)]
    allows_weapons: Option<Box<AllowsWeapons>>,
    #[serde(default)]
    generation: Vec<super::activation::GenModifier>,
    /// Force icons it adds to the location it is at or deployed on (e.g. `dark_force`).
    #[serde(default)]
    adds_icons: Vec<String>,
    /// Locations its game text makes battlegrounds, while it is active on table.
    #[serde(default)]
    makes_battleground: Option<super::activation::LocFilter>,
    /// "Allows multiple copies of Jawa Siesta to be on table": titles whose uniqueness
    /// limit it lifts while it is active on table.
    #[serde(default)]
    allows_copies: Vec<String>,
    /// Restricted by an objective: while this card is on table, cards matching any of
    /// these may not deploy.
    #[serde(default)]
    prohibits_deploy: Vec<Filter>,
    /// Locations its game text makes non-battlegrounds "in all states" (except for
    /// start of game actions), while it is on table.
    #[serde(default)]
    makes_non_battleground: Option<super::activation::LocFilter>,
    // ---- personas: converting (AR Persona - Converting Characters)
    /// "Can be replaced by opponent with …": the opponent may convert it.
    #[serde(default)]
    converted_by: Option<Box<super::persona::ConvertRule>>,
    #[serde(default)]
    identity: Box<super::identify::Identity>,
    #[serde(default)]
    deploy_mods: Vec<super::deploy_cost::DeployMod>,
    #[serde(default)]
    own_deploy: Vec<super::own_deploy::OwnDeploy>,
    /// Conditional "draws N battle destiny if not able to otherwise" ("when piloting
    /// Red 2, … draws one battle destiny if not able to otherwise").
    #[serde(default)]
    draws_if_unable: Vec<DrawsIfUnable>,
    /// "You may deploy characters at this site regardless of location deployment
    /// restrictions": a permission for cards deploying to its location.
    #[serde(default)]
    deploy_here: Option<Box<super::deploy_cost::DeployHere>>,
    // ---- grabbers (AR Icons - Grabbers)
    /// "To play any new Interrupt of the same name, player must first stack it here and
    /// use +1 Force for each Interrupt in stack."
    #[serde(default)]
    grabs_same_title: bool,
    // ---- game text that returns (AR Canceling Game Text)
    /// While this card is active on table, the game text of cards matching this
    /// (seen from its owner) is canceled.
    #[serde(default)]
    cancels_text_of: Option<Box<Filter>>,
    /// "May not be aboard …": the cards it may not be aboard (its own game text).
    #[serde(default)]
    not_aboard: Option<Box<Filter>>,
    #[serde(default)]
    squadron_of: Option<u32>,
    #[serde(default)]
    react: Vec<super::react::ReactText>,
    #[serde(default)]
    pilot_personas: Vec<String>,
    // ---- weapons on the board: permissions to fire (AR Weapons - When Can I Fire?)
    /// A permission to fire a weapon (an Interrupt, a device, a character's or a
    /// weapon's own text).
    #[serde(default)]
    permits_fire: Option<Box<super::weapon_fire::FirePermit>>,
    /// "Adds N to each of its weapon destiny draws": weapons on the starship or
    /// vehicle this card is aboard (or on this card).
    #[serde(default)]
    weapon_destiny_each: i64,
    #[serde(default)]
    jedi_test: Option<super::jeditest::JediTestDef>,
    /// "Force may not be retrieved using cards on Dagobah": while this card is
    /// active, a retrieval by a card at a matching location does not occur.
    #[serde(default)]
    prevents_retrieval: Option<super::activation::LocFilter>,
    #[serde(default)]
    dots: u8,
    #[serde(default)]
    diamonds: u8,
    #[serde(default)]
    globals: Vec<super::globals::GlobalMod>,
    #[serde(default)]
    objective: Option<super::objective::ObjectiveDef>,
    #[serde(default)]
    back: Option<Box<CardDef>>,
    #[serde(default)]
    utinni_target: Option<String>,
    #[serde(default)]
    marker: Option<i64>,
    /// "Opponent must first use X Force to deploy a non-unique card to a location,
    /// where X = the number of copies of that card at that location."
    #[serde(default)]
    deploy_tax: Option<Box<super::globals::DeployTax>>,
    /// "For opponent to deploy a character … for free (except by that card's own game
    /// text), opponent must first use 2 Force" (`free_tax.rs`).
    #[serde(default)]
    free_deploy_tax: Option<Box<super::free_tax::FreeTax>>,
    /// "Your <title> is doubled": every value in those cards' game text is doubled.
    #[serde(default)]
    doubles: Vec<String>,
    #[serde(default)]
    insert: bool,
    /// "If system 'blown away,' relocate to opponent's side of table" (AR Blown Away -
    /// Timing, step 1).
    #[serde(default)]
    relocates_if_blown_away: bool,
    #[serde(default)]
    epic_duel: Option<Box<super::epic_duel::EpicDuelDef>>,
    // ---- draw phase and end of turn (AR Ch.8; `upkeep.rs`)
    /// Titles this card makes unique (•) for both players while it is on table (e.g.
    /// Grappling Hook on the Interrupt it grabbed).
    #[serde(default)]
    makes_unique: Vec<String>,
    /// "All Interrupts of that title are unique (•)": the titles of the Interrupts
    /// stacked on it (a grabber), for both players while it is on table.
    #[serde(default)]
    makes_stacked_unique: bool,
    /// Its owner loses no Force to cards of these titles ("you lose no Force to …").
    #[serde(default)]
    no_loss_from: Vec<String>,
    /// A creature's text that relocates a card it defeats to a location (`creature.rs`).
    #[serde(default)]
    defeated_to: Option<Box<super::creature::DefeatedTo>>,
    /// Besieged ("your characters present with captured starship may battle opponent's
    /// characters aboard it"): on a captured starship, its owner may initiate a besieged
    /// battle there (`besieged.rs`).
    #[serde(default)]
    besieges: bool,
    /// "During a battle you initiate, each time opponent plays an interrupt, opponent
    /// must first use N Force" (`interrupt_tax.rs`).
    #[serde(default)]
    interrupt_tax: Option<Box<super::interrupt_tax::InterruptTax>>,
    /// "Whenever opponent retrieves X cards, opponent must first use X Force or that
    /// retrieval is canceled" (X the full amount, whatever the Lost Pile holds).
    #[serde(default)]
    retrieval_tax: bool,
    /// "Opponent's Force retrieval is reduced by X, where X = number of cards here."
    #[serde(default)]
    reduces_retrieval_by_stacked: bool,
    /// "Total ability of N or more required for opponent to draw battle destiny here"
    /// (a card taking part in the battle).
    #[serde(default)]
    ability_required: Option<Box<AbilityRequired>>,
    /// "Nabrun Leids and Elis Helrot are limited to owner's move phase and exterior
    /// sites": limits on playing the cards it names, while it is active on table.
    #[serde(default)]
    limits_play: Vec<super::play_limits::PlayLimit>,
    /// "When in a battle, if both players draw only one battle destiny and yours is
    /// higher, reduces opponent's total battle destiny to zero" (`single_destiny.rs`).
    #[serde(default)]
    zeroes_lower_single_destiny: bool,
    /// "Opponent's ability required to draw battle destiny here is +1 for each card
    /// stacked here" (`ability_required.rs`).
    #[serde(default)]
    raises_ability_required: Option<Box<super::ability_required::RaisesAbility>>,
    /// "Where present am I, battles and attacks happen not unless …"
    /// (`prevents_battle.rs`).
    #[serde(default)]
    prevents_battles: Option<Box<super::prevents_battle::PreventsBattles>>,
    /// "Add 4 to each player's destiny draw for Sense and Alter" (`card_destiny.rs`).
    #[serde(default)]
    destiny_for: Vec<super::card_destiny::DestinyFor>,
    /// "Immune to opponent's Objective": the opponent's cards of these types do not
    /// affect it while it is being played (`card_destiny.rs`).
    #[serde(default)]
    immune_to_opponents: Vec<CardType>,
    /// "Immune to attrition." with no limit: attrition never affects it, whatever its
    /// amount (AR Immune To Attrition). Read as the immunity level no attrition reaches.
    #[serde(default)]
    immune_to_all_attrition: bool,
    /// "May add 2 pilots and 4 passengers": a starship's or vehicle's capacity.
    #[serde(default)]
    capacity: Option<Box<super::capacity::Capacity>>,
    /// A location card: its printed traits (interior, exterior, parsec…) and its text
    /// as a board location's fields.
    #[serde(default)]
    location: Option<Box<super::model::LocationDef>>,
}

impl From<CardFile> for CardDef {
    fn from(mut f: CardFile) -> CardDef {
        if f.immune_to_all_attrition {
            f.stats.immune_to_attrition = Some(super::battle::ALL_ATTRITION);
        }
        let statics = [
            f.fires_free.map(Static::FiresFree),
            f.allows_weapons.map(Static::AllowsWeapons),
            listed(f.adds_icons, Static::AddsIcons),
            f.makes_battleground.map(Static::MakesBattleground),
            listed(f.allows_copies, Static::AllowsCopies),
            listed(f.prohibits_deploy, Static::ProhibitsDeploy),
            f.makes_non_battleground.map(Static::MakesNonBattleground),
            f.converted_by.map(Static::ConvertedBy),
            listed(f.draws_if_unable, Static::DrawsIfUnable),
            f.deploy_here.map(Static::DeployHere),
            f.grabs_same_title.then_some(Static::GrabsSameTitle),
            f.cancels_text_of.map(Static::CancelsTextOf),
            f.not_aboard.map(Static::NotAboard),
            f.permits_fire.map(Static::PermitsFire),
            (f.weapon_destiny_each != 0)
                .then_some(Static::WeaponDestinyEach(f.weapon_destiny_each)),
            f.prevents_retrieval.map(Static::PreventsRetrieval),
            f.deploy_tax.map(Static::DeployTax),
            f.free_deploy_tax.map(Static::FreeDeployTax),
            listed(f.doubles, Static::Doubles),
            listed(f.makes_unique, Static::MakesUnique),
            f.makes_stacked_unique.then_some(Static::MakesStackedUnique),
            f.besieges.then_some(Static::Besieges),
            f.interrupt_tax.map(Static::InterruptTax),
            f.retrieval_tax.then_some(Static::RetrievalTax),
            f.reduces_retrieval_by_stacked
                .then_some(Static::ReducesRetrievalByStacked),
            f.ability_required.map(Static::AbilityRequired),
            listed(f.limits_play, Static::LimitsPlay),
            f.zeroes_lower_single_destiny
                .then_some(Static::ZeroesLowerSingleDestiny),
            f.raises_ability_required.map(Static::RaisesAbilityRequired),
            f.prevents_battles.map(Static::PreventsBattles),
            listed(f.destiny_for, Static::DestinyFor),
            listed(f.immune_to_opponents, Static::ImmuneToOpponents),
        ];
        let replacements = [
            f.relocates_if_blown_away
                .then_some(Replacement::RelocatesIfBlownAway),
            listed(f.no_loss_from, Replacement::NoLossFrom),
            f.defeated_to.map(Replacement::DefeatedTo),
        ];
        CardDef {
            title: f.title,
            side: f.side,
            card_type: f.card_type,
            subtype: f.subtype,
            unique: f.unique,
            personas: f.personas,
            keywords: f.keywords,
            stats: f.stats,
            immune_to: f.immune_to,
            text: f.text,
            abilities: f.abilities,
            not_modelled: f.not_modelled,
            moves: f.moves,
            deploy_rules: f.deploy_rules,
            modifiers: f.modifiers,
            weapon: f.weapon,
            drain: f.drain,
            generation: f.generation,
            identity: f.identity,
            deploy_mods: f.deploy_mods,
            own_deploy: f.own_deploy,
            squadron_of: f.squadron_of,
            react: f.react,
            pilot_personas: f.pilot_personas,
            jedi_test: f.jedi_test,
            dots: f.dots,
            diamonds: f.diamonds,
            globals: f.globals,
            objective: f.objective,
            back: f.back,
            utinni_target: f.utinni_target,
            marker: f.marker,
            insert: f.insert,
            epic_duel: f.epic_duel,
            statics: statics.into_iter().flatten().collect(),
            replacements: replacements.into_iter().flatten().collect(),
            location: f.location,
            origin: None,
            face_down: None,
            capacity: f.capacity,
        }
    }
}

/// A list key as one rule of `kind`, when the list is not empty.
fn listed<T, K>(list: Vec<T>, kind: fn(Vec<T>) -> K) -> Option<K> {
    (!list.is_empty()).then(|| kind(list))
}
