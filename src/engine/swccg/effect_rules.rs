//! What the rules ask of every effect, answered in one exhaustive match: the
//! effects it carries out in its turn, and the deck or pile it takes cards from.
//! A new effect does not compile until it answers.

use super::model::{Effect, PileName, Who};

/// Whose deck or pile an effect takes cards from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Whose {
    /// One player's: the acting player's (`You`) or the opponent's.
    One(Who),
    /// Each player's.
    Each,
}

/// What one effect is, for the rules that look inside effects.
enum About<'a> {
    /// It carries out other effects in its turn (a destiny draw's success and
    /// failure, a duel's results).
    Branches([&'a [Effect]; 2]),
    /// It takes cards from a deck or pile (an action that may not be initiated
    /// while it is empty): the pile, what the card does to it, and whose.
    Takes(PileName, &'static str, Whose),
    Neither,
}

/// The acting player's own deck or pile.
const MINE: Whose = Whose::One(Who::You);

impl Effect {
    fn about(&self) -> About<'_> {
        match self {
            Effect::Destiny(t) => About::Branches([&t.success, &t.failure]),
            Effect::DestinyTotal(t) => About::Branches([&t.success, &t.failure]),
            Effect::Duel(d) => About::Branches([&d.if_yours_wins, &d.if_theirs_wins]),
            Effect::Draw(_) => About::Takes(PileName::ReserveDeck, "draws from", MINE),
            Effect::DrawUpTo { from, .. } => About::Takes(*from, "draws from", MINE),
            Effect::TakeIntoHand { from, .. } => About::Takes(*from, "takes a card from", MINE),
            Effect::DeployFrom { from, .. } => About::Takes(*from, "deploys a card from", MINE),
            Effect::StackFrom { from, .. } => About::Takes(*from, "takes a card from", MINE),
            Effect::PlayFrom { from, .. } => About::Takes(*from, "plays a card from", MINE),
            Effect::Peek { .. } => About::Takes(PileName::ReserveDeck, "peeks at", MINE),
            // Activating Force takes the top card of the Reserve Deck to the Force
            // Pile (AR Activating Force).
            Effect::Activate { who, .. } => About::Takes(
                PileName::ReserveDeck,
                "activates Force from",
                Whose::One(*who),
            ),
            // "Each player must activate N Force": each player's Reserve Deck.
            Effect::EachActivates(_) => {
                About::Takes(PileName::ReserveDeck, "activates Force from", Whose::Each)
            }
            // "An empty Lost Pile does not stop a player from initiating an action
            // that retrieves Force (or retrieves card(s))" (AR Empty Deck Or Pile).
            Effect::Retrieve { .. } | Effect::RetrieveCard(_) | Effect::RetrieveForEach { .. } => {
                About::Neither
            }
            Effect::Cancel(_)
            | Effect::SendTo { .. }
            | Effect::LoseForce { .. }
            | Effect::MoveAll { .. }
            | Effect::StackOn { .. }
            | Effect::Relocate { .. }
            | Effect::ResetDestiny(_)
            | Effect::SubstituteDestiny(_)
            | Effect::NotModelled(_)
            | Effect::LoseForEach { .. }
            | Effect::CancelText(_)
            | Effect::Hit(..)
            | Effect::CrossOver(_)
            | Effect::StartingHand(_)
            | Effect::CrossOverAs { .. }
            | Effect::Retarget(_)
            | Effect::SetValue { .. }
            | Effect::ActivateOne(_)
            | Effect::DeployMatchingPair { .. }
            | Effect::ReduceLoss(_)
            | Effect::CancelBattleDamage { .. }
            | Effect::DeployToBattle { .. }
            | Effect::AddDrawnDestinyToPower
            | Effect::BattleModifier(_)
            | Effect::BattleModifierForEach(_)
            | Effect::LostByWeapon(_)
            | Effect::ExcludedByWeapon(_)
            | Effect::AddPower { .. }
            | Effect::LoseForceFrom { .. }
            | Effect::LoseForceStackHere { .. }
            | Effect::CancelAndRedraw(_)
            | Effect::DrawXChooseY { .. }
            | Effect::Capture(_)
            | Effect::Release(_)
            | Effect::CaptureCard(_)
            | Effect::CaptureAboard(_)
            | Effect::ReleaseStarship(_)
            | Effect::Steal(_)
            | Effect::StealFrom(_)
            | Effect::Explode
            | Effect::CompleteJediTest
            | Effect::MoveStacked { .. }
            | Effect::AddDuelDestiny(_)
            | Effect::DuelDraws
            | Effect::AddToDestiny(_)
            | Effect::Eat { .. }
            | Effect::AddFerocity(..)
            | Effect::DuelWon(_)
            | Effect::ModifyUntil { .. }
            | Effect::BlowAway(_)
            | Effect::BlownAwayOccurred(_)
            | Effect::EpicDuel(_)
            | Effect::Maintenance(_)
            | Effect::PlaceFromHand { .. }
            | Effect::DoublePowerPresent { .. }
            | Effect::DeploySite(_)
            | Effect::MoveToBattle(_)
            | Effect::BreakCover(_)
            | Effect::Flip(_) => About::Neither,
        }
    }

    /// The effects it carries out in its turn (a destiny draw's success and
    /// failure, a duel's results); none for every other effect.
    pub(super) fn branches(&self) -> [&[Effect]; 2] {
        match self.about() {
            About::Branches(b) => b,
            About::Takes(..) | About::Neither => [&[], &[]],
        }
    }

    /// The deck or pile it takes cards from: the pile, what the card does to it,
    /// and whether it is each player's.
    pub(super) fn pile_taken(&self) -> Option<(PileName, &'static str, Whose)> {
        match self.about() {
            About::Takes(pile, what, whose) => Some((pile, what, whose)),
            About::Branches(_) | About::Neither => None,
        }
    }
}
