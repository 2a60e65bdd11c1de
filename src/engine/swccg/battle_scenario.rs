//! The `battle:` rules case of a SWCCG scenario file (kept for the one scenario not
//! yet written as a board position), and the numbers it produces for expectations.
//!
//! [`run`] computes a [`Report`]:
//! the trace lines (each with its citations), named numbers (`light.total_power`,
//! `dark.attrition`, `null` where a value does not exist), where cards ended up, and
//! the decision the script lacked, if any.

use super::battle::{self, Side};
use std::collections::BTreeMap;

/// The rules part of a scenario this module runs.
#[derive(Debug, Clone, PartialEq)]
pub enum Case {
    Battle(Box<battle::Battle>),
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
        Case::Battle(b) => battle_case(&mut r, b),
    }
    r
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

/// The rules case a board names, if any (`battle:`).
pub fn case_of(b: &crate::engine::swccg::model::Board) -> Option<Case> {
    b.battle.as_ref().map(|x| Case::Battle(Box::new(x.clone())))
}

/// Card names a case knows, for checking `expect.cards`.
pub fn card_names(c: &Case) -> Vec<String> {
    match c {
        Case::Battle(b) => b.cards.iter().map(|c| c.name.clone()).collect(),
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
