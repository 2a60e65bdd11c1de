//! "Opponent's ability required to draw battle destiny here is +1 for each card
//! stacked here": a raise of the ability a player needs to draw battle destiny at a
//! location, which raises the usual requirement of 4 and any special requirement
//! alike (AR Battle Destiny In Brief; Conditions On Drawing Battle Destiny).

use super::battle::Condition;
use super::model::Side;
use super::state::{CardIx, State, Zone};
use super::statics::{Static, pick};
use serde::Deserialize;

/// The text on a card: the opponent's requirement at its location is +`by`, +1 more
/// for each card stacked on it (`per_stacked`); with `present`, only while the card
/// (or the card it is deployed on) is present at the location, not aboard a starship
/// or vehicle.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaisesAbility {
    #[serde(default)]
    pub by: i64,
    #[serde(default)]
    pub per_stacked: bool,
    #[serde(default)]
    pub present: bool,
}

/// Standing directly at location `at`, or deployed on a card that does (a device on a
/// character present there).
fn present_at(st: &State, c: CardIx, at: usize) -> bool {
    match st.zone[c] {
        Zone::At(l) => l == at,
        Zone::On(h) => {
            matches!(st.zone[h], Zone::At(l) if l == at)
                && st.def(h).card_type == super::model::CardType::Character
        }
        _ => false,
    }
}

/// The raises the active cards at `at` give: one `Condition` per card, whose
/// `min_ability` is the amount added to the requirement of `side`.
pub fn raises(st: &State, at: usize) -> Vec<Condition> {
    let here = super::battle_board::cards_at(st, at);
    here.iter()
        .filter_map(|&c| {
            let r = st
                .def(c)
                .find_static(pick!(Static::RaisesAbilityRequired))?;
            if r.present && !present_at(st, c, at) {
                return None;
            }
            let stacked = if r.per_stacked {
                st.cards_on(c).len() as i64
            } else {
                0
            };
            let by = r.by + stacked;
            (by != 0).then(|| Condition {
                source: st.title(c).to_string(),
                side: st.owner(c).other(),
                min_ability: by,
            })
        })
        .collect()
}

/// The total raise for `s`, and the sources in words.
pub fn total_for(raises: &[Condition], s: Side) -> (i64, Vec<String>) {
    let mine: Vec<&Condition> = raises.iter().filter(|r| r.side == s).collect();
    (
        mine.iter().map(|r| r.min_ability).sum(),
        mine.iter()
            .map(|r| format!("{} +{}", r.source, r.min_ability))
            .collect(),
    )
}
