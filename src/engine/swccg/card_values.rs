//! A card's values on the board (AR Ch.1 Section E): its printed number (or none: a
//! value the card does not have does not exist and cannot be modified), then the
//! game-text modifiers of the cards on table that apply to it, in the order they
//! occurred (the order their cards came onto the table). Worked out from the state
//! each time it is read, never stored; the rules are those of [`values::compute`]
//! (order, copies not cumulative unless said so, resets and competing resets,
//! definitions, limits last, free costs, minimum zero) and "may not be reduced".
//!
//! Observed as `values.<card>.<stat>` when a run ends; a value with any modifier is
//! also explained by one cited trace step with its breakdown.

use super::battle::{OpSpec, Target, to_op};
use super::engine::Engine;
use super::model::Stats;
use super::state::{CardIx, State, Zone};
use super::values::{Base, Modifier, Rules, Total, cite, compute};
use crate::engine::{Actor, Event};
use serde_json::json;

/// The card values a board position observes (`values.<card>.<stat>`).
pub const STATS: &[&str] = &[
    "power",
    "ability",
    "forfeit",
    "armor",
    "maneuver",
    "hyperspeed",
    "landspeed",
    "deploy",
    "destiny",
    "politics",
    "defense",
];

/// The printed number of `stat`, if the card has one.
fn printed(s: &Stats, stat: &str) -> Option<i64> {
    match stat {
        "power" => s.power,
        "ability" => s.ability,
        "forfeit" => s.forfeit,
        "armor" => s.armor,
        "maneuver" => s.maneuver,
        "hyperspeed" => s.hyperspeed,
        "landspeed" => s.landspeed,
        "deploy" => s.deploy,
        "destiny" => s.destiny,
        "politics" => s.politics,
        _ => None,
    }
}

/// The card a modifier target names for `stat`, if it is about that value.
fn names<'a>(t: &'a Target, stat: &str) -> Option<&'a str> {
    let (s, n) = t.per_card()?;
    (s == stat).then_some(n.as_str())
}

/// Is the modifier `m` of card `s`, whose target names `n`, about card `c` (a key,
/// `this`, `piloted`, or `each` of its `each:` cards)?
fn about(st: &State, s: CardIx, m: &super::model::CardModifier, n: &str, c: CardIx) -> bool {
    if n == super::text_when::EACH {
        return m
            .each
            .as_ref()
            .is_some_and(|e| super::text_when::each(st, s, e).contains(&c));
    }
    super::text_when::refers(st, s, n, c)
}

/// Does card `s`'s modifier reach card `c` where both are now: anywhere on table with
/// `anywhere`, else at the same location `at` (where `c` is, or would be), or one on
/// the other.
fn reaches(st: &State, s: CardIx, c: CardIx, at: Option<usize>, anywhere: bool) -> bool {
    if anywhere || s == c || st.zone[s] == Zone::On(c) || st.zone[c] == Zone::On(s) {
        return true;
    }
    matches!((st.location_of(s), at), (Some(a), Some(b)) if a == b)
}

/// Every card key in `requires` is active at location `at`.
fn required_here(st: &State, at: Option<usize>, requires: &[String]) -> bool {
    if requires.is_empty() {
        return true;
    }
    let here = at
        .map(|l| super::battle_board::cards_at(st, l))
        .unwrap_or_default();
    requires
        .iter()
        .all(|k| st.find(k).is_some_and(|x| here.contains(&x)))
}

/// The value `stat` of card `c` as the board stands now, with its cited breakdown.
pub fn value(st: &State, c: CardIx, stat: &str) -> Total {
    if stat == "defense" {
        return defense(st, c);
    }
    value_at(st, c, stat, st.location_of(c))
}

/// A card's defense value (AR Defense Value): a character's ability, armor or
/// maneuver, whichever is highest; a starship's or vehicle's armor or maneuver; or the
/// defense value the card itself gives (`defense: {name: value}`). It follows those
/// values as modified, then the modifiers to the defense value itself (which do not
/// change the values it is based on). An unarmored droid without maneuver: 0.
fn defense(st: &State, c: CardIx) -> Total {
    use super::model::CardType;
    let d = st.def(c);
    let title = d.title.clone();
    let printed = d
        .stats
        .defense
        .iter()
        .map(|(n, v)| (n.clone(), *v))
        .max_by_key(|x| x.1);
    let (source, base) = match printed {
        Some((name, v)) => (format!("{title} {name}"), Some(v)),
        None => {
            let from: &[&str] = match d.card_type {
                CardType::Character => &["ability", "armor", "maneuver"],
                CardType::Starship | CardType::Vehicle => &["armor", "maneuver"],
                _ => &[],
            };
            let best = from
                .iter()
                .filter_map(|&s| value_at(st, c, s, st.location_of(c)).value.map(|v| (s, v)))
                .max_by_key(|x| x.1);
            match best {
                Some((s, v)) => (format!("{title}'s {s}"), Some(v)),
                None if d.card_type == CardType::Character => {
                    (format!("{title} (no ability, armor or maneuver)"), Some(0))
                }
                None => (title.clone(), None),
            }
        }
    };
    let mut b = match base {
        Some(v) => Base::of(source, v),
        None => Base::none(source),
    };
    b.cite = cite::DEFENSE_VALUE;
    let mods = own_modifiers(st, c, "defense", st.location_of(c));
    compute(
        &format!("defense value of {title}"),
        &b,
        &mods,
        Rules::default(),
    )
}

/// The Force card `c` deploys for to `to` (AR Deploy; Free; Modifiers): its deploy
/// number with the modifiers that apply where it would be (none printed: 0).
pub fn deploy_cost(st: &State, c: CardIx, to: Option<super::stack::DeployTo>) -> i64 {
    use super::stack::DeployTo;
    let at = match to {
        Some(DeployTo::Location(l)) => Some(l),
        Some(DeployTo::OnCard(h)) => st.location_of(h),
        _ => None,
    };
    value_at(st, c, "deploy", at).or_zero().max(0)
}

/// The value `stat` of card `c` if it were at location `at`.
fn value_at(st: &State, c: CardIx, stat: &str, at: Option<usize>) -> Total {
    let title = st.title(c).to_string();
    let d = st.def(c);
    // A deploy cost its text gives (an asterisk, "use N Force to deploy").
    let asterisk = (stat == "deploy")
        .then(|| d.deploy_rules.from_each_player.or(d.deploy_rules.use_force))
        .flatten();
    let printed = printed(&d.stats, stat);
    // An asterisk whose game text is canceled is an unmodifiable zero.
    let canceled = printed.is_none()
        && stat == "deploy"
        && d.deploy_rules.from_each_player.is_some()
        && d.identity
            .states
            .contains(&super::identify::IdState::TextCanceled);
    if canceled {
        let base = Base {
            source: format!("{title}'s asterisk, its game text canceled: an unmodifiable zero"),
            value: Some(0),
            cite: cite::UNMODIFIABLE,
        };
        return compute(&format!("{stat} of {title}"), &base, &[], Rules::default());
    }
    let base = match printed.or(asterisk) {
        Some(v) => Base::of(title.clone(), v),
        None => Base::none(title.clone()),
    };
    let (mods, guarded) = collect(st, c, stat, at);
    let mods = super::reduce::guard(&base, mods, guarded);
    compute(
        &format!("{stat} of {title}"),
        &base,
        &mods,
        Rules::default(),
    )
}

/// The modifiers of the cards on table to `stat` of card `c` (at `at`), in the order
/// they occurred, without "may not be reduced".
fn own_modifiers(st: &State, c: CardIx, stat: &str, at: Option<usize>) -> Vec<Modifier> {
    collect(st, c, stat, at).0
}

/// The modifiers to `stat` of card `c` (at `at`) and whether it may not be reduced.
fn collect(st: &State, c: CardIx, stat: &str, at: Option<usize>) -> (Vec<Modifier>, bool) {
    let mut sources: Vec<CardIx> = (0..st.cards.len())
        .filter(|&s| st.active(s) && !st.def(s).modifiers.is_empty())
        .collect();
    sources.sort_by_key(|&s| (st.entered[s], s));
    let mut mods = Vec::new();
    let mut guarded = false;
    for s in sources {
        for m in &st.def(s).modifiers {
            let Some(n) = names(&m.target, stat) else {
                continue;
            };
            if !about(st, s, m, n, c)
                || !reaches(st, s, c, at, m.anywhere)
                || !required_here(st, at, &m.requires)
                || !super::text_when::holds(st, s, &m.when, None)
            {
                continue;
            }
            if matches!(m.op, OpSpec::NotReduced(true)) {
                guarded = true;
                continue;
            }
            let mut md = Modifier::new(st.title(s).to_string(), to_op(m.op));
            if m.cumulative {
                md = md.cumulative();
            }
            mods.push(md);
        }
    }
    // Global effects and changes for a stated duration (AR Global Effects And Card
    // State, Actions - Duration): in every state, after the card's own modifiers.
    if let Some(gs) = super::globals::Stat::named(stat) {
        for (who, add) in st.value_terms(c, gs) {
            mods.push(
                Modifier::new(who, super::values::Op::Add(add)).cite(super::rules::GLOBAL_EFFECTS),
            );
        }
    }
    // Values game text set on the card (AR Reset): resets, so "may not be reduced"
    // keeps one that would lower the value from applying (AR Reduce).
    for r in super::value_resets::set_on(st, c, stat) {
        mods.push(Modifier::new(r.by.clone(), super::values::Op::Reset(r.to)));
    }
    (mods, guarded)
}

impl Engine {
    /// The card values when the run ends: `values.<card>.<stat>` for every card on
    /// table, in a pile or in hand, and one cited step for each value with modifiers.
    pub(crate) fn report_values(&mut self) {
        for c in 0..self.st.cards.len() {
            let named = |stat: &str| {
                (0..self.st.cards.len()).any(|s| {
                    self.st.active(s)
                        && self.st.def(s).modifiers.iter().any(|m| {
                            names(&m.target, stat).is_some_and(|n| about(&self.st, s, m, n, c))
                        })
                }) || super::globals::Stat::named(stat)
                    .is_some_and(|g| !self.st.value_terms(c, g).is_empty())
                    || super::value_resets::set_on(&self.st, c, stat)
                        .next()
                        .is_some()
            };
            let modified: Vec<bool> = STATS.iter().map(|s| named(s)).collect();
            for (i, &stat) in STATS.iter().enumerate() {
                let path = format!("values.{}.{stat}", self.st.key(c));
                // A defense value follows the values it is based on.
                let based = stat == "defense"
                    && STATS
                        .iter()
                        .zip(&modified)
                        .any(|(s, m)| *m && ["ability", "armor", "maneuver"].contains(s));
                // A deploy cost its text defines is worked out, not printed.
                let rules = &self.st.def(c).deploy_rules;
                let by_text =
                    stat == "deploy" && rules.from_each_player.or(rules.use_force).is_some();
                if !modified[i] && !based && !by_text {
                    let v = match stat {
                        "defense" => value(&self.st, c, stat).value,
                        _ => printed(&self.st.def(c).stats, stat),
                    };
                    self.answers.push((path, json!(v)));
                    continue;
                }
                let t = value(&self.st, c, stat);
                self.answers.push((path, json!(t.value)));
                let mut cites = t.cites();
                if t.value.is_none() && !cites.contains(&cite::UNDEFINED_VALUES) {
                    cites.push(cite::UNDEFINED_VALUES);
                }
                self.log(Actor::Rules, Event::Result, t.to_string(), &cites);
            }
        }
    }
}

/// Is `values.<rest>` a path a board position can observe?
pub fn observable(b: &super::model::Board, rest: &str) -> Result<(), String> {
    let (card, stat) = rest.split_once('.').unwrap_or((rest, ""));
    if !b.cards.contains_key(card) {
        return Err(format!("`{card}` is not a card in `cards:`"));
    }
    if !STATS.contains(&stat) {
        return Err(format!(
            "`values.{card}.{stat}`: a card's value is one of {}",
            STATS.join(", ")
        ));
    }
    Ok(())
}
