//! AR Location Deployment Restrictions - Presence or Force Icons: characters,
//! vehicles and starships deploy (to a location, or aboard a card there) only where
//! their side has presence or at least one Force icon. Spies need neither (AR
//! Appendix D Spy), nor does a side with an undercover spy at the site (AR
//! Undercover Spy Rules); a card that ignores location deployment restrictions, or
//! a card's permission to deploy there, lifts the restriction.

use super::engine::{Engine, Rejection, rej};
use super::model::{CardType, Side};
use super::rules as r;
use super::state::CardIx;

/// AR Appendix D Spy: spies may deploy where their side has neither presence nor icons.
const SPY: &str = "swccg.ar.spy";

impl Engine {
    /// May `p` deploy `c` to (or aboard a card at) location `l` by presence or icons?
    pub(super) fn presence_or_icons(&self, p: Side, c: CardIx, l: usize) -> Result<(), Rejection> {
        let def = self.st.def(c);
        let needs = matches!(
            def.card_type,
            CardType::Character | CardType::Vehicle | CardType::Starship
        );
        if !needs || def.deploy_rules.ignore_location_restrictions {
            return Ok(());
        }
        if self.force_icons(l, p) > 0 || self.has_presence(p, l) {
            return Ok(());
        }
        if super::identify::is(&self.st, c, "spy").yes {
            return Ok(());
        }
        let undercover_here = (0..self.st.cards.len()).any(|x| {
            x != c
                && self.st.on_table(x)
                && self.st.owner(x) == p
                && self.st.location_of(x) == Some(l)
                && self.st.undercover(x)
        });
        if undercover_here {
            return Ok(());
        }
        Err(rej(
            format!(
                "{} may not deploy to {}: {} has neither presence nor a Force icon there (and it is not a spy)",
                def.title,
                self.st.locations[l].title,
                p.name()
            ),
            r::LOCATION_DEPLOYMENT_RESTRICTIONS,
        )
        .and(SPY))
    }
}
