//! Force drains, control and presence (AR Ch.4).
//!
//! [`resolve`] is a pure function of a [`Drain`] (the location, its icons,
//! the cards there, the drain modifiers with the side that owns each card)
//! and its responses. The amount is computed with a cited breakdown; a
//! drain that is prevented is never initiated, a canceled one causes no
//! Force loss.

use super::battle::{OpSpec, Side, to_op};
use super::values::{Base, Modifier, Rules, Total, cite, compute};
use crate::engine::Cited;
use serde::Deserialize;

/// A card at the drain location.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrainCard {
    pub name: String,
    pub side: Side,
    #[serde(default)]
    pub ability: Option<i64>,
    #[serde(default)]
    pub presence_icon: bool,
    /// Undercover spies have no presence and prevent drains where they are.
    #[serde(default)]
    pub undercover: bool,
    /// "May Force drain": controls the location only to drain there.
    #[serde(default)]
    pub may_force_drain: bool,
    /// Already participated in a Force drain this turn.
    #[serde(default)]
    pub drained_this_turn: bool,
    /// Starship or vehicle this card is aboard.
    #[serde(default)]
    pub aboard: Option<String>,
    /// Starship or vehicle with an enclosed cockpit or cargo bay.
    #[serde(default)]
    pub enclosed: bool,
    /// Ability of a permanent pilot.
    #[serde(default)]
    pub permanent_pilot: Option<i64>,
}

/// What a drain modifier changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrainTarget {
    /// The amount of the drain.
    Drain,
    /// The number of the opponent's Force icons (not a drain modifier).
    Icons,
    /// The cost of initiating the drain.
    Cost,
}

/// A modifier from a card; `owner` is the side that owns the card.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrainMod {
    pub source: String,
    pub owner: Side,
    #[serde(default = "drain_target")]
    pub target: DrainTarget,
    /// One of `add`, `sub`, `mul`, `reset`, `limit` (the loader refuses the others).
    pub op: OpSpec,
    /// Applies only while these cards are at the location.
    #[serde(default)]
    pub requires: Vec<String>,
    /// Its text's condition does not hold as the board stands (why).
    #[serde(default)]
    pub unmet: Option<String>,
}

fn drain_target() -> DrainTarget {
    DrainTarget::Drain
}

/// Which of the drainer's modifiers a card cancels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cancels {
    /// "opponent's Force drain bonuses": the drainer's positive modifiers.
    Bonuses,
    /// "opponent's Force drain modifiers": all the drainer's modifiers.
    Modifiers,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CancelMods {
    pub source: String,
    pub cancels: Cancels,
}

/// A response to the drain.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Response {
    /// Cancel the drain (Control, Simple Tricks And Nonsense...).
    Cancel {
        by: Side,
        source: String,
        /// A 'react' (moving in): still allowed when drains may not be canceled.
        #[serde(default)]
        react: bool,
    },
}

/// A Force drain as initiated.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drain {
    /// Key for this drain's numbers (default: the location).
    #[serde(default)]
    pub name: Option<String>,
    pub location: String,
    pub drainer: Side,
    /// Force icons on the opponent's side of the location.
    pub icons: i64,
    #[serde(default)]
    pub cards: Vec<DrainCard>,
    #[serde(default)]
    pub modifiers: Vec<DrainMod>,
    #[serde(default)]
    pub canceling: Vec<CancelMods>,
    /// "May not be modified by opponent" (source of the text).
    #[serde(default)]
    pub not_modified_by_opponent: Option<String>,
    /// "May not be canceled" (source of the text).
    #[serde(default)]
    pub not_canceled: Option<String>,
    /// "Opponent may not Force drain here" and similar (prevents initiation).
    #[serde(default)]
    pub prevented: Option<String>,
    #[serde(default)]
    pub responses: Vec<Response>,
    /// Force in the drainer's Force Pile, when tracked.
    #[serde(default)]
    pub force_pile: Option<i64>,
    /// The loss must come from a specific place first ("lose from X").
    #[serde(default)]
    pub lose_from: Option<LoseFrom>,
}

/// "Lose Force from X": how many cards X holds, and how many the loser has
/// elsewhere (hand and the rest of Life Force).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoseFrom {
    pub place: String,
    pub available: i64,
    pub elsewhere: i64,
}

/// Splits a Force loss of `amount` that must come from a place holding
/// `available` cards first: (from the place, from elsewhere, not lost for
/// lack of cards).
pub fn split_loss(amount: i64, available: i64, elsewhere: i64) -> (i64, i64, i64) {
    let amount = amount.max(0);
    let first = amount.min(available.max(0));
    let rest = (amount - first).min(elsewhere.max(0));
    (first, rest, amount - first - rest)
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DrainResult {
    pub lines: Vec<Cited>,
    pub initiated: bool,
    pub not_initiated: Option<String>,
    pub cost: Option<Total>,
    pub icons: Option<Total>,
    pub amount: Option<Total>,
    pub canceled_by: Option<String>,
    /// Force the opponent loses.
    pub force_lost: i64,
    /// With "lose from X": (from X, from elsewhere).
    pub lost_from: Option<(i64, i64)>,
}

impl DrainResult {
    fn say(&mut self, text: impl Into<String>, cites: &[&'static str]) {
        self.lines.push(Cited::new(text, cites));
    }
}

/// Presence: total ability of 1 or more, or a Presence icon; undercover
/// spies have none.
pub fn has_presence(cards: &[DrainCard], side: Side) -> bool {
    let mut ability = 0i64;
    for c in cards.iter().filter(|c| c.side == side && !c.undercover) {
        if c.presence_icon {
            return true;
        }
        ability = ability.saturating_add(c.ability.unwrap_or(0).max(0));
        ability = ability.saturating_add(c.permanent_pilot.unwrap_or(0).max(0));
    }
    ability >= 1
}

/// Whether a card is present at the location (not aboard an enclosed craft).
pub fn present_at_location(cards: &[DrainCard], name: &str) -> Option<bool> {
    let c = cards.iter().find(|c| c.name.eq_ignore_ascii_case(name))?;
    Some(match &c.aboard {
        None => true,
        Some(host) => !cards
            .iter()
            .any(|h| h.name.eq_ignore_ascii_case(host) && h.enclosed),
    })
}

/// Where a card is present: `None` at the location itself, `Some(host)`
/// aboard an enclosed starship or vehicle (present aboard it only).
fn present_place<'a>(cards: &'a [DrainCard], c: &'a DrainCard) -> Option<&'a str> {
    let host = c.aboard.as_deref()?;
    cards
        .iter()
        .any(|h| h.name.eq_ignore_ascii_case(host) && h.enclosed)
        .then_some(host)
}

/// Whether two different cards are present with each other: both present at
/// the location, or both aboard the same enclosed starship or vehicle.
pub fn present_with(cards: &[DrainCard], a: &str, b: &str) -> Option<bool> {
    let ca = cards.iter().find(|c| c.name.eq_ignore_ascii_case(a))?;
    let cb = cards.iter().find(|c| c.name.eq_ignore_ascii_case(b))?;
    if std::ptr::eq(ca, cb) {
        return Some(false);
    }
    let (pa, pb) = (present_place(cards, ca), present_place(cards, cb));
    Some(match (pa, pb) {
        (None, None) => true,
        (Some(x), Some(y)) => x.eq_ignore_ascii_case(y),
        _ => false,
    })
}

/// Whether a card (or its permanent pilot) creates presence.
pub fn creates_presence(cards: &[DrainCard], name: &str) -> Option<bool> {
    let c = cards.iter().find(|c| c.name.eq_ignore_ascii_case(name))?;
    Some(
        !c.undercover
            && (c.presence_icon
                || c.ability.unwrap_or(0) >= 1
                || c.permanent_pilot.unwrap_or(0) >= 1),
    )
}

/// "May Force drain": the card named `name` lets its side control the location for
/// the purpose of draining there (AR May Force Drain).
pub fn allow_drain(d: &mut Drain, name: &str) {
    for c in d.cards.iter_mut().filter(|c| c.name == name) {
        c.may_force_drain = true;
    }
}

/// Whether `side` controls the drain's location for the purpose of Force draining:
/// presence there, or a card of theirs that "may Force drain" (AR May Force Drain);
/// and no presence of the opponent (AR Force Drain).
pub fn controls_to_drain(d: &Drain, side: Side) -> bool {
    let droid = d
        .cards
        .iter()
        .any(|c| c.side == side && c.may_force_drain && !c.undercover);
    (has_presence(&d.cards, side) || droid) && !has_presence(&d.cards, side.other())
}

fn here(d: &Drain, name: &str) -> bool {
    d.cards.iter().any(|c| c.name.eq_ignore_ascii_case(name))
}

/// Initiates and resolves one Force drain.
pub fn resolve(d: &Drain) -> DrainResult {
    let mut out = DrainResult::default();
    if !may_drain(d, &mut out) || !pay_cost(d, &mut out) || canceled(d, &mut out) {
        return out;
    }
    let (icons, amount) = amount(d, &mut out);
    out.icons = Some(icons);
    out.amount = Some(amount);
    out
}

/// An opponent's undercover spy at the location prevents the drain (AR Force Drains And
/// Canceling Example): why, when it does.
pub fn prevented_by_spy(d: &Drain) -> Option<String> {
    let opp = d.drainer.other();
    let spy = d.cards.iter().find(|c| c.side == opp && c.undercover)?;
    Some(format!(
        "{}'s undercover spy {} prevents Force drains at {}",
        opp, spy.name, d.location
    ))
}

fn fail(out: &mut DrainResult, why: String, cites: &[&'static str]) {
    out.say(why.clone(), cites);
    out.not_initiated = Some(why);
}

/// Who may drain: control (presence, and the opponent has none), spies, cards that
/// drained this turn, drains prevented. False when the drain is not initiated.
fn may_drain(d: &Drain, out: &mut DrainResult) -> bool {
    let me = d.drainer;
    let opp = me.other();
    let mine = has_presence(&d.cards, me);
    let theirs = has_presence(&d.cards, opp);
    let droid = d
        .cards
        .iter()
        .find(|c| c.side == me && c.may_force_drain && !c.undercover);
    if let Some(why) = prevented_by_spy(d) {
        fail(out, why, &[cite::FORCE_DRAIN_CANCELING_EXAMPLE]);
        return false;
    }
    if theirs {
        fail(
            out,
            format!(
                "{opp} also occupies {}: {me} does not control it and cannot Force drain",
                d.location
            ),
            &[cite::FORCE_DRAIN, cite::OCCUPY],
        );
        return false;
    }
    if !mine {
        match droid {
            Some(dr) => out.say(
                format!(
                    "{me} has no presence, but {} 'may Force drain': controls {} to drain",
                    dr.name, d.location
                ),
                &[cite::MAY_FORCE_DRAIN],
            ),
            None => {
                fail(
                    out,
                    format!(
                        "{me} has no presence at {}: does not control it and cannot Force drain",
                        d.location
                    ),
                    &[cite::FORCE_DRAIN, cite::PRESENCE],
                );
                return false;
            }
        }
    }
    if let Some(c) = d.cards.iter().find(|c| c.side == me && c.drained_this_turn) {
        fail(
            out,
            format!(
                "{} already participated in a Force drain this turn: no drain at {}",
                c.name, d.location
            ),
            &[cite::FORCE_DRAIN],
        );
        return false;
    }
    if let Some(p) = &d.prevented {
        fail(
            out,
            format!("{p}: the drain cannot be initiated (preventing is not canceling)"),
            &[cite::NOT_MODIFIED_BY_OPPONENT],
        );
        return false;
    }

    true
}

/// The Force a drain costs to initiate: 0, modified or reset by the cost text that
/// applies (AR Force Drain: "Force drains cost 0 Force unless modified").
pub fn cost(d: &Drain) -> Total {
    let cost_mods: Vec<Modifier> = d
        .modifiers
        .iter()
        .filter(|m| {
            m.target == DrainTarget::Cost
                && m.unmet.is_none()
                && m.requires.iter().all(|r| here(d, r))
        })
        .map(|m| Modifier::new(m.source.clone(), to_op(m.op)).cite(cite::FORCE_DRAIN))
        .collect();
    compute(
        "Force drain cost",
        &Base {
            source: "Force drain".into(),
            value: Some(0),
            cite: cite::FORCE_DRAIN,
        },
        &cost_mods,
        Rules::default(),
    )
}

/// The cost: 0, which can be modified or reset. False when it cannot be paid.
fn pay_cost(d: &Drain, out: &mut DrainResult) -> bool {
    let me = d.drainer;
    let cost = cost(d);
    if let (Some(fp), Some(c)) = (d.force_pile, cost.value)
        && fp < c
    {
        fail(
            out,
            format!("{me} has {fp} Force and the drain costs {c}: not initiated"),
            &[cite::FORCE_DRAIN],
        );
        out.cost = Some(cost);
        return false;
    }
    out.initiated = true;
    out.say(
        format!("{me} initiates a Force drain at {}: {cost}", d.location),
        &[cite::FORCE_DRAIN],
    );
    out.cost = Some(cost);

    true
}

/// Responses: the opponent responds first. True when the drain is canceled.
fn canceled(d: &Drain, out: &mut DrainResult) -> bool {
    let me = d.drainer;
    for r in &d.responses {
        let Response::Cancel { by, source, react } = r;
        if *by == me {
            out.say(
                format!("{me} cannot cancel his own drain with {source}"),
                &[cite::DRAIN_RESPONSES],
            );
            continue;
        }
        if let Some(nc) = &d.not_canceled
            && !react
        {
            out.say(
                format!("{source} cannot cancel the drain: {nc} (the drain may not be canceled)"),
                &[
                    cite::NOT_MODIFIED_BY_OPPONENT,
                    cite::FORCE_DRAIN_CANCELING_EXAMPLE,
                ],
            );
            continue;
        }
        out.canceled_by = Some(source.clone());
        out.say(
            format!("{by} responds with {source}: the Force drain is canceled; no Force is lost"),
            &[cite::DRAIN_RESPONSES, cite::FORCE_DRAIN_CANCELING_EXAMPLE],
        );
        return true;
    }

    false
}

/// Icons, then the amount, and where the Force is lost from.
fn amount(d: &Drain, out: &mut DrainResult) -> (Total, Total) {
    let me = d.drainer;
    let opp = me.other();
    let icon_mods: Vec<Modifier> = d
        .modifiers
        .iter()
        .filter(|m| m.target == DrainTarget::Icons)
        .map(|m| {
            let md = Modifier::new(m.source.clone(), to_op(m.op)).cite(cite::FORCE_DRAIN_MODIFIER);
            if m.unmet.is_none() && m.requires.iter().all(|r| here(d, r)) {
                md
            } else {
                md.canceled("its condition is not met")
            }
        })
        .collect();
    let icons = compute(
        &format!("{opp} Force icons at {}", d.location),
        &Base {
            source: "icons".into(),
            value: Some(d.icons),
            cite: cite::FORCE_DRAIN,
        },
        &icon_mods,
        Rules::default(),
    );
    let mut mods = Vec::new();
    for m in d
        .modifiers
        .iter()
        .filter(|m| m.target == DrainTarget::Drain)
    {
        let mut md = Modifier::new(m.source.clone(), to_op(m.op)).cite(cite::FORCE_DRAIN_MODIFIER);
        if let Some(why) = &m.unmet {
            md = md.canceled(why.clone());
        } else if let Some(missing) = m.requires.iter().find(|r| !here(d, r)) {
            md = md.canceled(format!("{missing} not there"));
        } else if m.owner == opp {
            if let (Some(nm), OpSpec::Add(_) | OpSpec::Sub(_) | OpSpec::Mul(_)) =
                (&d.not_modified_by_opponent, m.op)
            {
                md = md
                    .canceled(format!("{nm}: the drain may not be modified by opponent"))
                    .cite(cite::NOT_MODIFIED_BY_OPPONENT);
            }
        } else {
            let bonus =
                matches!(m.op, OpSpec::Add(n) if n > 0) || matches!(m.op, OpSpec::Sub(n) if n < 0);
            for c in &d.canceling {
                let hits = match c.cancels {
                    Cancels::Modifiers => !matches!(m.op, OpSpec::Reset(_) | OpSpec::Limit(_)),
                    Cancels::Bonuses => bonus,
                };
                if hits {
                    md = md
                        .canceled(format!("{} (a modifier from {me}'s own card)", c.source))
                        .cite(cite::OPPONENTS_DRAIN_MODIFIERS);
                    break;
                }
            }
        }
        mods.push(md);
    }
    for c in &d.canceling {
        out.say(
            format!(
                "{} cancels {me}'s Force drain {}; modifiers from {opp}'s cards are not affected",
                c.source,
                match c.cancels {
                    Cancels::Bonuses => "bonuses",
                    Cancels::Modifiers => "modifiers",
                }
            ),
            &[cite::OPPONENTS_DRAIN_MODIFIERS, cite::FORCE_DRAIN_MODIFIER],
        );
    }
    let amount = compute(
        &format!("Force drain at {}", d.location),
        &Base {
            source: format!("{} icons", icons.or_zero()),
            value: Some(icons.or_zero()),
            cite: cite::FORCE_DRAIN,
        },
        &mods,
        Rules::default(),
    );
    out.force_lost = amount.or_zero();
    if let Some(lf) = &d.lose_from {
        let (first, rest, short) = split_loss(out.force_lost, lf.available, lf.elsewhere);
        out.say(
            format!(
                "{opp} must lose the Force from {} first: {first} from there, {rest} from elsewhere{}",
                lf.place,
                if short > 0 { format!("; {short} cannot be lost (no cards left)") } else { String::new() }
            ),
            &[cite::LOSING_FORCE_FROM_X, cite::LOSING_FORCE],
        );
        out.force_lost = first + rest;
        out.lost_from = Some((first, rest));
    }
    out.say(
        format!("{amount}; {opp} loses {} Force", out.force_lost),
        &amount.cites(),
    );
    (icons, amount)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn drain(y: &str) -> Drain {
        crate::yaml::load(Path::new("t.yaml"), y).expect("test YAML")
    }

    const SWAMP: &str = r#"
location: "Naboo: Swamp"
drainer: light
icons: 1
cards:
  - {name: Jar Jar Binks, side: light, ability: 3}
modifiers:
  - {source: "Naboo: Swamp", owner: dark, op: {add: 1}, requires: [Jar Jar Binks]}
"#;

    #[test]
    fn swamp_drains_for_two() {
        let o = resolve(&drain(SWAMP));
        assert_eq!(o.force_lost, 2, "{:#?}", o.lines);
    }

    #[test]
    fn control_cancels() {
        let mut d = drain(SWAMP);
        d.responses.push(Response::Cancel {
            by: Side::Dark,
            source: "Control".into(),
            react: false,
        });
        let o = resolve(&d);
        assert_eq!(o.force_lost, 0);
        assert_eq!(o.canceled_by.as_deref(), Some("Control"));
    }

    #[test]
    fn present_with_needs_the_same_place() {
        let card = |name: &str, aboard: Option<&str>, enclosed: bool| DrainCard {
            name: name.into(),
            side: Side::Dark,
            ability: Some(1),
            presence_icon: false,
            undercover: false,
            may_force_drain: false,
            drained_this_turn: false,
            aboard: aboard.map(String::from),
            enclosed,
            permanent_pilot: None,
        };
        let cards = vec![
            card("Walker", None, true),
            card("Vader", Some("Walker"), false),
            card("Emperor", Some("Walker"), false),
            card("Tarkin", None, false),
            card("Speeder", None, false),
            card("Scout", Some("Speeder"), false),
        ];
        assert_eq!(present_with(&cards, "Vader", "Emperor"), Some(true));
        assert_eq!(present_with(&cards, "Vader", "Tarkin"), Some(false));
        // Aboard an open vehicle is present at the location.
        assert_eq!(present_with(&cards, "Scout", "Tarkin"), Some(true));
        assert_eq!(present_with(&cards, "Tarkin", "Tarkin"), Some(false));
        assert_eq!(present_with(&cards, "Tarkin", "Nobody"), None);
    }

    #[test]
    fn opponents_presence_prevents() {
        let mut d = drain(SWAMP);
        d.cards.push(DrainCard {
            name: "Bossk".into(),
            side: Side::Dark,
            ability: Some(4),
            presence_icon: false,
            undercover: false,
            may_force_drain: false,
            drained_this_turn: false,
            aboard: None,
            enclosed: false,
            permanent_pilot: None,
        });
        assert!(!resolve(&d).initiated);
    }

    #[test]
    fn lose_from_x_takes_the_rest_elsewhere() {
        assert_eq!(split_loss(4, 3, 10), (3, 1, 0));
        assert_eq!(split_loss(4, 5, 0), (4, 0, 0));
        assert_eq!(split_loss(4, 1, 2), (1, 2, 1));
        assert_eq!(split_loss(-1, 1, 2), (0, 0, 0));
    }

    #[test]
    fn fuzz_drains_never_negative() {
        let mut s: u64 = 77;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..5000 {
            let mut d = drain(SWAMP);
            d.icons = (next() % 5) as i64;
            for k in 0..(next() % 6) {
                let v = (next() % 9) as i64 - 4;
                let o = match next() % 4 {
                    0 => OpSpec::Add(v),
                    1 => OpSpec::Sub(v),
                    2 => OpSpec::Mul(v),
                    _ => OpSpec::Reset(v),
                };
                let owner = if next() % 2 == 0 {
                    Side::Light
                } else {
                    Side::Dark
                };
                d.modifiers.push(DrainMod {
                    source: format!("m{k}"),
                    owner,
                    target: DrainTarget::Drain,
                    op: o,
                    requires: vec![],
                    unmet: None,
                });
            }
            let o = resolve(&d);
            assert!(o.force_lost >= 0);
        }
    }
}
