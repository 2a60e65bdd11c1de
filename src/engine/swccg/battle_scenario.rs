//! The battle, drain, value and destiny parts of a SWCCG scenario file, and
//! the numbers they produce for expectations.
//!
//! A scenario names one of `battle:`, `drain:`, `values:`, `draws:` or
//! `attack:`; [`run`] computes a [`Report`]: the trace lines (each with its
//! citations), named numbers (`light.total_power`, `dark.attrition`, `null`
//! where a value does not exist), where cards ended up, and the decision the
//! script lacked, if any. [`check`] compares a report with `expect:`.

use super::battle::{self, OpSpec, Side};
use super::battle_attack::{self, Attack};
use super::destiny::{self, DestinyCard, Plan};
use super::drain::{self, Drain};
use super::values::{Base, Mode, Modifier, Rules, cite, compute};
use serde::Deserialize;
use std::collections::BTreeMap;

/// One value computed from a base and modifiers in order.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueCase {
    pub name: String,
    pub label: String,
    /// Where the base comes from (a card's name).
    pub source: String,
    /// `null`: the value does not exist.
    pub base: Option<i64>,
    #[serde(default)]
    pub modifiers: Vec<ValueMod>,
    /// Values that cannot fall below zero (default true).
    #[serde(default = "yes")]
    pub floor_zero: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueMod {
    pub source: String,
    pub op: OpSpec,
    /// `used` or `declined` for optional modifiers.
    #[serde(default)]
    pub optional: Option<Choice>,
    #[serde(default)]
    pub cumulative: bool,
    #[serde(default)]
    pub canceled_by: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    Used,
    Declined,
}

/// One destiny request against a Reserve Deck.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawCase {
    pub name: String,
    pub kind: String,
    pub player: Side,
    #[serde(default)]
    pub reserve: Vec<battle::DeckCard>,
    pub plans: Vec<PlanSpec>,
    #[serde(default)]
    pub limit: Option<u32>,
    #[serde(default)]
    pub each_draw: Vec<ValueMod>,
    #[serde(default)]
    pub to_total: Vec<ValueMod>,
    #[serde(default)]
    pub cancels: Vec<CancelSpec>,
    #[serde(default)]
    pub value_choices: Vec<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum PlanSpec {
    Normal(u32),
    Choose {
        x: u32,
        y: u32,
        #[serde(default)]
        keep: Option<Vec<usize>>,
        source: String,
    },
    Substitute {
        source: String,
        value: i64,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CancelSpec {
    pub draw: usize,
    pub by: String,
    #[serde(default)]
    pub redraw: bool,
}

/// The rules part of a scenario this module runs.
#[derive(Debug, Clone, PartialEq)]
pub enum Case {
    Battle(Box<battle::Battle>),
    Drain(Vec<Drain>),
    Values(Vec<ValueCase>),
    Draws(Vec<DrawCase>),
    Attack(Box<Attack>),
}

/// One trace line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    pub cites: Vec<&'static str>,
}

/// What a case produced.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Report {
    pub lines: Vec<Line>,
    pub numbers: BTreeMap<String, Option<i64>>,
    /// A battle's winner (`Some(None)`: no winner); observed as `numbers.winner`:
    /// `light`, `dark` or null.
    pub winner: Option<Option<Side>>,
    /// Card → where it ended: `light.lost_pile` (forfeited or lost), `in_battle`.
    pub cards: BTreeMap<String, String>,
    pub needs: Option<String>,
    /// Scripted steps rejected: (position, rule).
    pub illegal: Vec<(usize, &'static str)>,
}

impl Report {
    fn num(&mut self, k: impl Into<String>, v: Option<i64>) {
        self.numbers.insert(k.into(), v);
    }
    fn line(&mut self, text: String, cites: Vec<&'static str>) {
        self.lines.push(Line { text, cites });
    }
}

fn modifier(m: &ValueMod) -> Modifier {
    let mut md = Modifier::new(m.source.clone(), battle::to_op(m.op));
    if m.cumulative {
        md = md.cumulative();
    }
    match m.optional {
        Some(Choice::Used) => md = md.mode(Mode::Used),
        Some(Choice::Declined) => md = md.mode(Mode::Declined),
        None => {}
    }
    if let Some(by) = &m.canceled_by {
        md = md.canceled(by.clone());
    }
    md
}

fn side_key(s: Side) -> &'static str {
    match s {
        Side::Light => "light",
        Side::Dark => "dark",
    }
}

/// Runs a case.
pub fn run(case: &Case) -> Report {
    let mut r = Report::default();
    match case {
        Case::Values(vs) => values_case(&mut r, vs),
        Case::Draws(ds) => draws_case(&mut r, ds),
        Case::Drain(ds) => drain_case(&mut r, ds),
        Case::Battle(b) => battle_case(&mut r, b),
        Case::Attack(a) => attack_case(&mut r, a),
    }
    r
}

fn values_case(r: &mut Report, vs: &[ValueCase]) {
    for v in vs {
        let mods: Vec<Modifier> = v.modifiers.iter().map(modifier).collect();
        let base = Base {
            source: v.source.clone(),
            value: v.base,
            cite: if v.base.is_some() {
                cite::MODIFIERS
            } else {
                cite::UNDEFINED_VALUES
            },
        };
        let t = compute(
            &v.label,
            &base,
            &mods,
            Rules {
                floor_zero: v.floor_zero,
            },
        );
        r.line(t.to_string(), t.cites());
        if let Some(u) = &t.unresolved {
            r.needs.get_or_insert_with(|| u.clone());
        }
        r.num(v.name.clone(), t.value);
    }
}

fn draws_case(r: &mut Report, ds: &[DrawCase]) {
    for d in ds {
        let deck: Vec<DestinyCard> = d
            .reserve
            .iter()
            .map(|c| DestinyCard {
                name: c.name.clone(),
                values: match &c.destiny {
                    battle::DestinyValues::One(v) => vec![*v],
                    battle::DestinyValues::Many(v) => v.clone(),
                },
            })
            .collect();
        let mut req = destiny::Request::new(&d.kind, &side_name(d.player), 0);
        for p in &d.plans {
            match p {
                PlanSpec::Normal(n) => req.plans.extend((0..*n).map(|_| Plan::Normal)),
                PlanSpec::Choose { x, y, keep, source } => req.plans.push(Plan::ChooseFrom {
                    x: *x,
                    y: *y,
                    keep: keep.clone(),
                    source: source.clone(),
                }),
                PlanSpec::Substitute { source, value } => req.plans.push(Plan::Substitute {
                    source: source.clone(),
                    value: *value,
                }),
            }
        }
        req.limit = d.limit;
        req.each_draw = d.each_draw.iter().map(modifier).collect();
        req.to_total = d.to_total.iter().map(modifier).collect();
        req.cancels = d
            .cancels
            .iter()
            .map(|c| destiny::Cancel {
                draw: c.draw,
                by: c.by.clone(),
                redraw: c.redraw,
            })
            .collect();
        req.value_choices = d.value_choices.clone();
        let o = destiny::draw(&req, &deck);
        for n in &o.notes {
            r.line(n.text.clone(), n.cites.clone());
        }
        if r.needs.is_none() {
            r.needs = o
                .needs
                .as_ref()
                .map(|n| format!("needs a decision from {}: {n}", d.player));
        }
        r.num(format!("{}.total", d.name), o.total_value());
        r.num(format!("{}.counted", d.name), Some(i64::from(o.counted)));
        r.num(format!("{}.consumed", d.name), Some(o.consumed as i64));
        r.num(
            format!("{}.chosen", d.name),
            Some(
                o.draws
                    .iter()
                    .filter(|x| x.chosen && x.value.is_some())
                    .count() as i64,
            ),
        );
    }
}

fn drain_case(r: &mut Report, ds: &[Drain]) {
    for d in ds {
        let o = drain::resolve(d);
        for l in &o.lines {
            r.line(l.text.clone(), l.cites.clone());
        }
        let key = drain_key(d.name.as_deref().unwrap_or(&d.location));
        r.num(format!("{key}.force_lost"), Some(o.force_lost));
        r.num(format!("{key}.initiated"), Some(i64::from(o.initiated)));
        r.num(
            format!("{key}.amount"),
            o.amount.as_ref().and_then(|t| t.value),
        );
        r.num(format!("{key}.cost"), o.cost.as_ref().and_then(|t| t.value));
        if let Some((first, rest)) = o.lost_from {
            r.num(format!("{key}.lost_from_place"), Some(first));
            r.num(format!("{key}.lost_elsewhere"), Some(rest));
        }
        card_places(r, &key, d);
        let total = r.numbers.get("force_lost").copied().flatten().unwrap_or(0);
        r.num("force_lost", Some(total.saturating_add(o.force_lost)));
    }
}

fn battle_case(r: &mut Report, b: &battle::Battle) {
    let o = battle::resolve(b, &b.script);
    for l in &o.lines {
        r.line(l.text.clone(), l.cites.clone());
    }
    r.needs = match (o.needs_from, &o.needs) {
        (Some(s), Some(n)) => Some(format!("needs a decision from {s}: {n}")),
        (_, n) => n.clone(),
    };
    r.illegal = o.illegal.iter().map(|x| (x.step, x.rule)).collect();
    r.num("initiated", Some(i64::from(o.not_initiated.is_none())));
    r.num("cost", o.cost.as_ref().and_then(|t| t.value));
    r.num("ended_early", Some(i64::from(o.ended_early)));
    for s in [Side::Light, Side::Dark] {
        let k = side_key(s);
        let sr = o.side(s);
        r.num(
            format!("{k}.total_power"),
            sr.total_power.as_ref().and_then(|t| t.value),
        );
        r.num(
            format!("{k}.battle_destinies"),
            Some(i64::from(sr.battle_destinies)),
        );
        r.num(
            format!("{k}.total_battle_destiny"),
            sr.total_battle_destiny.as_ref().and_then(|t| t.value),
        );
        r.num(format!("{k}.attrition"), sr.attrition);
        r.num(format!("{k}.battle_damage"), Some(sr.battle_damage));
        r.num(format!("{k}.force_lost"), Some(sr.force_lost));
        r.num(format!("{k}.attrition_ignored"), Some(sr.attrition_ignored));
        r.num(
            format!("{k}.battle_damage_canceled"),
            Some(sr.battle_damage_canceled),
        );
        r.num(format!("{k}.forfeited"), Some(sr.forfeited.len() as i64));
        for c in sr.forfeited.iter().chain(&sr.lost) {
            r.cards.insert(c.clone(), format!("{k}.lost_pile"));
        }
        for c in &sr.out_of_play {
            r.cards.insert(c.clone(), "out_of_play".into());
        }
    }
    r.winner = Some(o.winner);
    for c in &b.cards {
        r.cards
            .entry(c.name.clone())
            .or_insert_with(|| "table".into());
    }
}

fn attack_case(r: &mut Report, a: &Attack) {
    let o = battle_attack::resolve(a);
    for l in &o.lines {
        r.line(l.text.clone(), l.cites.clone());
    }
    r.needs = o.needs.clone();
    r.num("attacker_total", o.attacker_total);
    r.num("defender_total", o.defender_total);
    r.num("defeated", Some(i64::from(o.defeated)));
    for c in &o.lost {
        r.cards.insert(c.clone(), "lost_pile".into());
    }
    for c in &a.cards {
        r.cards
            .entry(c.name.clone())
            .or_insert_with(|| "table".into());
    }
}

fn side_name(s: Side) -> String {
    s.to_string()
}

/// Presence and present for each card of a drain case, as numbers
/// (`<drain>.<card>.presence`, `<drain>.<card>.present`,
/// `<drain>.<card>.present_with.<other>`: 1 yes, 0 no) and one trace line per card.
fn card_places(r: &mut Report, key: &str, d: &Drain) {
    for c in &d.cards {
        let ck = drain_key(&c.name);
        let presence = drain::creates_presence(&d.cards, &c.name).unwrap_or(false);
        let present = drain::present_at_location(&d.cards, &c.name).unwrap_or(false);
        let with: Vec<&str> = d
            .cards
            .iter()
            .filter(|o| drain::present_with(&d.cards, &c.name, &o.name) == Some(true))
            .map(|o| o.name.as_str())
            .collect();
        let place = match (&c.aboard, present) {
            (Some(h), false) => format!("present aboard {h}, not present at {}", d.location),
            (Some(h), true) => format!("aboard {h} and present at {}", d.location),
            (None, _) => format!("present at {}", d.location),
        };
        r.line(
            format!(
                "{}: {}; {place}; present with: {}",
                c.name,
                if presence {
                    "creates presence"
                } else {
                    "creates no presence"
                },
                if with.is_empty() {
                    "no card".to_string()
                } else {
                    with.join(", ")
                }
            ),
            vec![cite::PRESENCE, cite::PRESENT, cite::PRESENT_WITH],
        );
        r.num(format!("{key}.{ck}.presence"), Some(i64::from(presence)));
        r.num(format!("{key}.{ck}.present"), Some(i64::from(present)));
        for o in d.cards.iter().filter(|o| !std::ptr::eq(*o, c)) {
            let w = drain::present_with(&d.cards, &c.name, &o.name).unwrap_or(false);
            r.num(
                format!("{key}.{ck}.present_with.{}", drain_key(&o.name)),
                Some(i64::from(w)),
            );
        }
    }
}

/// Numbers key for a drain location: lower case, spaces and punctuation to `_`.
pub fn drain_key(location: &str) -> String {
    let mut k = String::with_capacity(location.len());
    for c in location.chars() {
        if c.is_ascii_alphanumeric() {
            k.push(c.to_ascii_lowercase());
        } else if !k.ends_with('_') {
            k.push('_');
        }
    }
    k.trim_matches('_').to_string()
}

/// The rules case a board names, if any (one of `battle:`, `drains:`,
/// `values:`, `draws:`, `attack:`), and how many it names.
pub fn case_of(b: &crate::engine::swccg::model::Board) -> (Option<Case>, usize) {
    let n = usize::from(b.battle.is_some())
        + usize::from(b.drains.is_some())
        + usize::from(b.values.is_some())
        + usize::from(b.draws.is_some())
        + usize::from(b.attack.is_some());
    let case = if let Some(x) = &b.battle {
        Some(Case::Battle(Box::new(x.clone())))
    } else if let Some(x) = &b.drains {
        Some(Case::Drain(x.clone()))
    } else if let Some(x) = &b.values {
        Some(Case::Values(x.clone()))
    } else if let Some(x) = &b.draws {
        Some(Case::Draws(x.clone()))
    } else {
        b.attack.as_ref().map(|a| Case::Attack(Box::new(a.clone())))
    };
    (case, n)
}

/// Card names a case knows, for checking `expect.cards`.
pub fn card_names(c: &Case) -> Vec<String> {
    match c {
        Case::Battle(b) => b.cards.iter().map(|c| c.name.clone()).collect(),
        Case::Attack(a) => a.cards.iter().map(|c| c.name.clone()).collect(),
        Case::Drain(ds) => ds
            .iter()
            .flat_map(|d| d.cards.iter().map(|c| c.name.clone()))
            .collect(),
        Case::Values(_) | Case::Draws(_) => Vec::new(),
    }
}

/// Runs a case: its trace, how it ended, and its numbers and card places as observations.
pub fn run_result(case: &Case) -> crate::engine::RunResult {
    use crate::engine::{
        Actor, At, End, Event, Illegal, NeedKind, Observations, Players, RunResult, Trace,
    };
    let r = run(case);
    let mut t = Trace::default();
    for l in &r.lines {
        t.push(0, Actor::Rules, Event::Result, l.text.clone(), &l.cites);
    }
    if let Some(n) = &r.needs {
        t.push(0, Actor::Rules, Event::Stop, n.clone(), &[]);
    }
    let end = match &r.needs {
        Some(n) => End::NeedsDecision {
            player: Actor::Rules,
            kind: NeedKind::Choice,
            what: n.clone(),
        },
        None => End::Complete,
    };
    let mut obs = Observations::default();
    for (k, v) in &r.numbers {
        obs.num(format!("numbers.{k}"), *v);
    }
    if let Some(w) = r.winner {
        obs.set("numbers.winner", serde_json::json!(w.map(|s| s.as_str())));
    }
    for (k, v) in &r.cards {
        obs.set(format!("cards.{k}"), v.as_str());
    }
    RunResult {
        players: Players::new("light", "dark"),
        trace: t,
        end,
        illegal: r
            .illegal
            .iter()
            .map(|(step, rule)| Illegal {
                at: At {
                    step: *step,
                    line: 0,
                    column: 0,
                },
                player: Actor::Rules,
                decision: format!("case script step {step}"),
                reason: "rejected by the rules".into(),
                cites: vec![*rule],
            })
            .collect(),
        leftover: Vec::new(),
        observations: obs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn every_cited_id_exists() {
        let Ok(t) =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("rulebook/ids.txt"))
        else {
            return;
        };
        let ids: Vec<&str> = t.lines().collect();
        let missing: Vec<&&str> = cite::ALL.iter().filter(|c| !ids.contains(c)).collect();
        assert!(
            missing.is_empty(),
            "cited but not in rulebook/ids.txt: {missing:?}"
        );
    }
}
