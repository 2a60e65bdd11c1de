//! What the rules ask of every effect, answered in one exhaustive match: the
//! effects it carries out in its turn, and the deck or pile it takes cards from.
//! A new effect does not compile until it answers.

use super::model::{Effect, PileName};

/// What one effect is, for the rules that look inside effects.
enum About<'a> {
    /// It carries out other effects in its turn (a destiny draw's success and
    /// failure, a duel's results).
    Branches([&'a [Effect]; 2]),
    /// It takes cards from a deck or pile (an action that may not be initiated
    /// while it is empty): the pile, what the card does to it, and whether it
    /// is each player's.
    Takes(PileName, &'static str, bool),
    Neither,
}

impl Effect {
    fn about(&self) -> About<'_> {
        match self {
            Effect::Destiny(t) => About::Branches([&t.success, &t.failure]),
            Effect::DestinyTotal(t) => About::Branches([&t.success, &t.failure]),
            Effect::Duel(d) => About::Branches([&d.if_yours_wins, &d.if_theirs_wins]),
            Effect::Draw(_) => About::Takes(PileName::ReserveDeck, "draws from", false),
            Effect::TakeIntoHand { from, .. } => About::Takes(*from, "takes a card from", false),
            Effect::DeployFrom { from, .. } => About::Takes(*from, "deploys a card from", false),
            Effect::StackFrom { from, .. } => About::Takes(*from, "takes a card from", false),
            Effect::PlayFrom { from, .. } => About::Takes(*from, "plays a card from", false),
            // "Each player must activate N Force": each player's Reserve Deck.
            Effect::EachActivates(_) => {
                About::Takes(PileName::ReserveDeck, "activates Force from", true)
            }
            Effect::Cancel(_)
            | Effect::SendTo { .. }
            | Effect::Activate { .. }
            | Effect::LoseForce { .. }
            | Effect::Retrieve { .. }
            | Effect::MoveAll { .. }
            | Effect::StackOn { .. }
            | Effect::Relocate { .. }
            | Effect::ResetDestiny(_)
            | Effect::SubstituteDestiny(_)
            | Effect::NotModelled(_)
            | Effect::RetrieveForEach { .. }
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
            | Effect::RetrieveCard(_)
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
            | Effect::DrawUpTo { .. }
            | Effect::PlaceFromHand { .. }
            | Effect::DoublePowerPresent { .. }
            | Effect::DeploySite(_)
            | Effect::MoveToBattle(_)
            | Effect::BreakCover(_)
            | Effect::Peek { .. }
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
    pub(super) fn pile_taken(&self) -> Option<(PileName, &'static str, bool)> {
        match self.about() {
            About::Takes(pile, what, both) => Some((pile, what, both)),
            About::Branches(_) | About::Neither => None,
        }
    }
}
