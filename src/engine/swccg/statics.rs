//! A card's text as typed lists: its continuous rules ([`Static`]: modifiers,
//! permissions, prohibitions and the costs it imposes on other actions, while the
//! card is active on table) and its replacement effects ([`Replacement`]: what
//! happens instead of an event). A card file writes each as its own key
//! (`card_file.rs`); [`Static::key`] and [`Replacement::key`] name it back, so
//! that `text:`'s `by:` can claim it.

use super::model::{AbilityRequired, AllowsWeapons, CardDef, CardType, DrawsIfUnable, Filter};

/// A continuous rule of a card's text.
#[derive(Debug, Clone)]
pub enum Static {
    /// "May fire <weapons> for free": weapons matching the filter, on this card or on
    /// the character this card is on, fire for free (a repeating weapon: its first shot).
    FiresFree(Box<Filter>),
    /// A starship's text allowing weapons to deploy on it: those matching `filter`
    /// (if they may deploy on another starship of the same type), and those it names.
    AllowsWeapons(Box<AllowsWeapons>),
    /// Force icons it adds to the location it is at or deployed on (e.g. `dark_force`).
    AddsIcons(Vec<String>),
    /// Locations its game text makes battlegrounds, while it is active on table.
    MakesBattleground(super::activation::LocFilter),
    /// "Allows multiple copies of Jawa Siesta to be on table": titles whose uniqueness
    /// limit it lifts while it is active on table.
    AllowsCopies(Vec<String>),
    /// Restricted by an objective: while this card is on table, cards matching any of
    /// these may not deploy.
    ProhibitsDeploy(Vec<Filter>),
    /// Locations its game text makes non-battlegrounds "in all states" (except for
    /// start of game actions), while it is on table.
    MakesNonBattleground(super::activation::LocFilter),
    /// "Can be replaced by opponent with …": the opponent may convert it.
    ConvertedBy(Box<super::persona::ConvertRule>),
    /// Conditional "draws N battle destiny if not able to otherwise" ("when piloting
    /// Red 2, … draws one battle destiny if not able to otherwise").
    DrawsIfUnable(Vec<DrawsIfUnable>),
    /// "You may deploy characters at this site regardless of location deployment
    /// restrictions": a permission for cards deploying to its location.
    DeployHere(Box<super::deploy_cost::DeployHere>),
    /// "To play any new Interrupt of the same name, player must first stack it here and
    /// use +1 Force for each Interrupt in stack."
    GrabsSameTitle,
    /// While this card is active on table, the game text of cards matching this
    /// (seen from its owner) is canceled.
    CancelsTextOf(Box<Filter>),
    /// "May not be aboard …": the cards it may not be aboard (its own game text).
    NotAboard(Box<Filter>),
    /// A permission to fire a weapon (an Interrupt, a device, a character's or a
    /// weapon's own text).
    PermitsFire(Box<super::weapon_fire::FirePermit>),
    /// "Adds N to each of its weapon destiny draws": weapons on the starship or
    /// vehicle this card is aboard (or on this card).
    WeaponDestinyEach(i64),
    /// "Force may not be retrieved using cards on Dagobah": while this card is
    /// active, a retrieval by a card at a matching location does not occur.
    PreventsRetrieval(super::activation::LocFilter),
    /// "Opponent must first use X Force to deploy a non-unique card to a location,
    /// where X = the number of copies of that card at that location."
    DeployTax(Box<super::globals::DeployTax>),
    /// "For opponent to deploy a character … for free (except by that card's own game
    /// text), opponent must first use 2 Force" (`free_tax.rs`).
    FreeDeployTax(Box<super::free_tax::FreeTax>),
    /// "Your <title> is doubled": every value in those cards' game text is doubled.
    Doubles(Vec<String>),
    /// Titles this card makes unique (•) for both players while it is on table (e.g.
    /// Grappling Hook on the Interrupt it grabbed).
    MakesUnique(Vec<String>),
    /// "All Interrupts of that title are unique (•)": the titles of the Interrupts
    /// stacked on it (a grabber), for both players while it is on table.
    MakesStackedUnique,
    /// Besieged ("your characters present with captured starship may battle opponent's
    /// characters aboard it"): on a captured starship, its owner may initiate a besieged
    /// battle there (`besieged.rs`).
    Besieges,
    /// "During a battle you initiate, each time opponent plays an interrupt, opponent
    /// must first use N Force" (`interrupt_tax.rs`).
    InterruptTax(Box<super::interrupt_tax::InterruptTax>),
    /// "Whenever opponent retrieves X cards, opponent must first use X Force or that
    /// retrieval is canceled" (X the full amount, whatever the Lost Pile holds).
    RetrievalTax,
    /// "Opponent's Force retrieval is reduced by X, where X = number of cards here."
    ReducesRetrievalByStacked,
    /// "Total ability of N or more required for opponent to draw battle destiny here"
    /// (a card taking part in the battle).
    AbilityRequired(Box<AbilityRequired>),
    /// "Nabrun Leids and Elis Helrot are limited to owner's move phase and exterior
    /// sites": limits on playing the cards it names, while it is active on table.
    LimitsPlay(Vec<super::play_limits::PlayLimit>),
    /// "When in a battle, if both players draw only one battle destiny and yours is
    /// higher, reduces opponent's total battle destiny to zero" (`single_destiny.rs`).
    ZeroesLowerSingleDestiny,
    /// "Opponent's ability required to draw battle destiny here is +1 for each card
    /// stacked here" (`ability_required.rs`).
    RaisesAbilityRequired(Box<super::ability_required::RaisesAbility>),
    /// "Where present am I, battles and attacks happen not unless …"
    /// (`prevents_battle.rs`).
    PreventsBattles(Box<super::prevents_battle::PreventsBattles>),
    /// "Add 4 to each player's destiny draw for Sense and Alter" (`card_destiny.rs`).
    DestinyFor(Vec<super::card_destiny::DestinyFor>),
    /// "Immune to opponent's Objective": the opponent's cards of these types do not
    /// affect it while it is being played (`card_destiny.rs`).
    ImmuneToOpponents(Vec<CardType>),
}

impl Static {
    /// The card-file key that writes it.
    pub fn key(&self) -> &'static str {
        match self {
            Static::FiresFree(_) => "fires_free",
            Static::AllowsWeapons(_) => "allows_weapons",
            Static::AddsIcons(_) => "adds_icons",
            Static::MakesBattleground(_) => "makes_battleground",
            Static::AllowsCopies(_) => "allows_copies",
            Static::ProhibitsDeploy(_) => "prohibits_deploy",
            Static::MakesNonBattleground(_) => "makes_non_battleground",
            Static::ConvertedBy(_) => "converted_by",
            Static::DrawsIfUnable(_) => "draws_if_unable",
            Static::DeployHere(_) => "deploy_here",
            Static::GrabsSameTitle => "grabs_same_title",
            Static::CancelsTextOf(_) => "cancels_text_of",
            Static::NotAboard(_) => "not_aboard",
            Static::PermitsFire(_) => "permits_fire",
            Static::WeaponDestinyEach(_) => "weapon_destiny_each",
            Static::PreventsRetrieval(_) => "prevents_retrieval",
            Static::DeployTax(_) => "deploy_tax",
            Static::FreeDeployTax(_) => "free_deploy_tax",
            Static::Doubles(_) => "doubles",
            Static::MakesUnique(_) => "makes_unique",
            Static::MakesStackedUnique => "makes_stacked_unique",
            Static::Besieges => "besieges",
            Static::InterruptTax(_) => "interrupt_tax",
            Static::RetrievalTax => "retrieval_tax",
            Static::ReducesRetrievalByStacked => "reduces_retrieval_by_stacked",
            Static::AbilityRequired(_) => "ability_required",
            Static::LimitsPlay(_) => "limits_play",
            Static::ZeroesLowerSingleDestiny => "zeroes_lower_single_destiny",
            Static::RaisesAbilityRequired(_) => "raises_ability_required",
            Static::PreventsBattles(_) => "prevents_battles",
            Static::DestinyFor(_) => "destiny_for",
            Static::ImmuneToOpponents(_) => "immune_to_opponents",
        }
    }
}

/// A replacement effect of a card's text.
#[derive(Debug, Clone)]
pub enum Replacement {
    /// "If system 'blown away,' relocate to opponent's side of table" (AR Blown Away -
    /// Timing, step 1).
    RelocatesIfBlownAway,
    /// Its owner loses no Force to cards of these titles ("you lose no Force to …").
    NoLossFrom(Vec<String>),
    /// A creature's text that relocates a card it defeats to a location (`creature.rs`).
    DefeatedTo(Box<super::creature::DefeatedTo>),
}

impl Replacement {
    /// The card-file key that writes it.
    pub fn key(&self) -> &'static str {
        match self {
            Replacement::RelocatesIfBlownAway => "relocates_if_blown_away",
            Replacement::NoLossFrom(_) => "no_loss_from",
            Replacement::DefeatedTo(_) => "defeated_to",
        }
    }
}

/// A projection onto one kind of [`Static`] or [`Replacement`], for
/// [`CardDef::find_static`] and [`CardDef::find_replacement`]:
/// `pick!(Static::FiresFree)` takes a `FiresFree`'s filter.
macro_rules! pick {
    ($kind:path) => {
        |s| if let $kind(x) = s { Some(x) } else { None }
    };
}
pub(crate) use pick;

impl CardDef {
    /// Whether its text has a continuous rule of the kind `is` tells
    /// (`|s| matches!(s, Static::Besieges)`).
    pub fn has_static(&self, is: impl Fn(&Static) -> bool) -> bool {
        self.statics.iter().any(is)
    }

    /// The list its text's continuous rule of the kind `pick` takes holds (empty
    /// without one).
    pub fn static_list<'a, T>(
        &'a self,
        pick: impl FnMut(&'a Static) -> Option<&'a Vec<T>>,
    ) -> &'a [T] {
        self.find_static(pick).map_or(&[], Vec::as_slice)
    }

    /// Whether its text has a replacement effect of the kind `is` tells.
    pub fn has_replacement(&self, is: impl Fn(&Replacement) -> bool) -> bool {
        self.replacements.iter().any(is)
    }

    /// Its text's continuous rule of the kind `pick` takes (see [`pick!`]).
    pub fn find_static<'a, T: ?Sized + 'a>(
        &'a self,
        pick: impl FnMut(&'a Static) -> Option<&'a T>,
    ) -> Option<&'a T> {
        self.statics.iter().find_map(pick)
    }

    /// Its text's replacement effect of the kind `pick` takes (see [`pick!`]).
    pub fn find_replacement<'a, T: ?Sized + 'a>(
        &'a self,
        pick: impl FnMut(&'a Replacement) -> Option<&'a T>,
    ) -> Option<&'a T> {
        self.replacements.iter().find_map(pick)
    }
}
