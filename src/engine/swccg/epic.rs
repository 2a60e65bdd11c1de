//! Death Star and Death Star II (AR Appendix C): in game text, "Death Star" refers
//! only to the first Death Star and "Death Star II" only to the second.

use super::identify::{Answer, occurs, words};

pub const DEATH_STAR_AND_II: &str = "swccg.ar.death-star-and-death-star-ii";
pub const BLOWN_AWAY: &str = "swccg.ar.blown-away";

/// Every section these rules cite.
pub const IDS: &[&str] = &[DEATH_STAR_AND_II, BLOWN_AWAY];

/// A blown away location is an unnamed location: a card that deploys only to named
/// locations may not deploy there ("a blown away Alderaan cannot have Haven deployed
/// on it").
pub fn blown_away_refusal(
    title: &str,
    only_at: &[String],
    lo: &super::state::Location,
) -> Option<super::engine::Rej> {
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
