//! Death Star and Death Star II (AR Appendix C): in game text, "Death Star" refers
//! only to the first Death Star and "Death Star II" only to the second.

use super::identify::{Answer, occurs, words};

pub const DEATH_STAR_AND_II: &str = "swccg.ar.death-star-and-death-star-ii";
pub const BLOWN_AWAY: &str = "swccg.ar.blown-away";
pub const ACTIONS: &str = "swccg.ar.section-c-actions";

/// Every section these rules cite.
pub const IDS: &[&str] = &[DEATH_STAR_AND_II, BLOWN_AWAY, ACTIONS];

/// A blown away location is an unnamed location: a card that deploys only to named
/// locations may not deploy there ("a blown away Alderaan cannot have Haven deployed
/// on it").
pub fn blown_away_refusal(
    title: &str,
    only_at: &[String],
    lo: &super::state::Location,
) -> Option<super::engine::Rejection> {
    if lo.geo.epic.lost {
        return Some(super::engine::rej(
            format!(
                "{} was lost when its system was blown away: nothing may deploy there",
                lo.title
            ),
            super::blown_away::BLOWN_AWAY_TIMING,
        ));
    }
    (lo.geo.blown_away && !only_at.is_empty()).then(|| {
        super::engine::rej(
            format!(
                "{} has been blown away: it is an unnamed location, so {title} (which deploys only to {}) may not deploy there",
                lo.title,
                only_at.join(" or ")
            ),
            BLOWN_AWAY,
        )
    })
}

/// "With Death Star in title": a title naming Death Star II does not have it.
pub fn death_star_in_title(title: &str, what: &str) -> Option<Answer> {
    let ws = words(title);
    let asks_first = words(what) == ["death", "star"];
    (asks_first && occurs(&ws, "death star ii")).then(|| Answer {
        yes: false,
        why: format!(
            "\"Death Star\" in game text refers only to the first Death Star: {title} is of the Death Star II"
        ),
        cites: vec![DEATH_STAR_AND_II],
        not_modelled: None,
    })
}

/// Text its owner's opponent uses (`opponent_uses`, e.g. That Thing's Operational:
/// "opponent's piloted starfighter here may attempt to 'blow away' Death Star II") may
/// be initiated only by that opponent; the rest of a card's text only by its owner.
pub fn user_ok(
    st: &super::state::State,
    p: super::model::Side,
    c: super::state::CardIx,
    ab: &super::model::Ability,
) -> Result<(), super::engine::Rejection> {
    let owner = st.owner(c);
    if ab.opponent_uses == (p != owner) {
        return Ok(());
    }
    let why = if ab.opponent_uses {
        format!(
            "this text of {} is for {}'s opponent to use",
            st.title(c),
            owner.name()
        )
    } else {
        format!("{} is not {}'s card", st.title(c), p.name())
    };
    Err(super::engine::rej(why, ACTIONS))
}

/// Does the card carry text its owner's opponent uses?
pub fn opponent_text(st: &super::state::State, c: super::state::CardIx) -> bool {
    st.def(c).abilities.iter().any(|a| a.opponent_uses)
}

impl super::engine::Engine {
    /// An opponent's card on table whose text `d`'s player may use (`opponent_uses`).
    pub(super) fn opponents_text(
        &self,
        d: &super::engine::Decision,
    ) -> Option<super::state::CardIx> {
        let c = self.st.find(d.step.card.as_deref()?)?;
        (self.st.owner(c) != d.by && opponent_text(&self.st, c)).then_some(c)
    }
}
