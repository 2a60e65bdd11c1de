//! `expect:`: reading it, and the one comparer every game's runs go through.
//!
//! Five keys belong to the kernel and mean the same in every game:
//! `outcome` (how the run ends; default `complete`), `illegal` (decisions
//! rejected, by script position and a rule they break; default none),
//! `leftover` (decisions never taken; default 0), `not_modelled` (what the
//! run may meet that the engine does not model; default nothing) and
//! `trace_contains` (sentences the trace must show). Every other key is
//! flattened into paths (`cards: {alter: dark.lost_pile}` → `cards.alter`)
//! that the game must be able to observe.

use super::Scenario;
use crate::engine::{BoardError, End, Observations, Players, RunResult, Value};
use itertools::Itertools;
use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;
use std::collections::BTreeMap;

/// `expect:` as written.
pub type ExpectFile = Spanned<ExpectMap>;

/// The keys of `expect:`, each with its value and where it stands; a key
/// repeated, here or inside a value, is an error.
#[derive(Debug, Clone, Deserialize)]
#[serde(transparent)]
pub struct ExpectMap(
    #[serde(deserialize_with = "crate::yaml::unique")] pub BTreeMap<String, Spanned<Value>>,
);

/// One expected illegal decision.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct IllegalExpect {
    /// Position of the decision in the script, from 1.
    pub step: usize,
    /// A rule ID the rejection cites.
    pub rule: String,
}

/// `expect:`, checked.
#[derive(Debug, Clone, Default)]
pub struct Expect {
    pub outcome: Option<String>,
    pub illegal: Vec<IllegalExpect>,
    pub leftover: usize,
    pub not_modelled: Vec<String>,
    pub trace_contains: Vec<String>,
    /// Observed paths and their expected values.
    pub paths: BTreeMap<String, Value>,
}

fn typed<T: serde::de::DeserializeOwned>(key: &str, v: &Spanned<Value>) -> Result<T, BoardError> {
    serde_json::from_value(v.value.clone()).map_err(|e| {
        BoardError::new(
            v.referenced.line(),
            v.referenced.column(),
            format!("expect.{key}: {e}"),
        )
    })
}

fn flatten(prefix: &str, v: &Value, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                flatten(&format!("{prefix}.{k}"), x, out);
            }
        }
        other => out.push((prefix.to_string(), other.clone())),
    }
}

impl Expect {
    /// Check `expect:` against what the game can observe.
    pub fn read(
        file: Option<ExpectFile>,
        observable: impl Fn(&str) -> Result<(), String>,
    ) -> Result<Expect, BoardError> {
        let mut e = Expect::default();
        let Some(file) = file else {
            return Ok(e);
        };
        for (k, v) in &file.value.0 {
            let (line, col) = (v.referenced.line(), v.referenced.column());
            match k.as_str() {
                "outcome" => {
                    let o: String = typed(k, v)?;
                    if !End::KEYS.contains(&o.as_str()) {
                        return Err(BoardError::new(
                            line,
                            col,
                            format!(
                                "expect.outcome: `{o}` is not one of {}",
                                End::KEYS.join(", ")
                            ),
                        ));
                    }
                    e.outcome = Some(o);
                }
                "illegal" => e.illegal = typed(k, v)?,
                "leftover" => e.leftover = typed(k, v)?,
                "not_modelled" => e.not_modelled = typed(k, v)?,
                "trace_contains" => e.trace_contains = typed(k, v)?,
                _ => {
                    let mut flat = Vec::new();
                    flatten(k, &v.value, &mut flat);
                    for (path, want) in flat {
                        observable(&path).map_err(|why| {
                            BoardError::new(
                                line,
                                col,
                                format!("expect.{path}: cannot be observed: {why}"),
                            )
                        })?;
                        e.paths.insert(path, want);
                    }
                }
            }
        }
        Ok(e)
    }
}

/// The verdict of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every step was computed and every expectation holds.
    Pass,
    /// An expectation failed.
    Fail,
    /// The run met something the engine does not model, and the scenario did not acknowledge it.
    NotModelled,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::NotModelled => "not_modelled",
        }
    }
}

/// One expectation with its expected and actual values.
#[derive(Debug, Clone, Serialize)]
pub struct Expectation {
    pub path: String,
    pub expected: Value,
    pub actual: Value,
    pub ok: bool,
}

impl Expectation {
    /// `path: expected X, got Y`, the values as [`compact`] writes them.
    pub fn failure(&self) -> String {
        let (want, got) = (compact(&self.expected), compact(&self.actual));
        format!("{}: expected {want}, got {got}", self.path)
    }
}

/// One trace step as reported.
#[derive(Debug, Clone, Serialize)]
pub struct StepOut {
    pub n: usize,
    pub level: usize,
    pub actor: String,
    pub event: &'static str,
    pub text: String,
    pub cites: Vec<&'static str>,
}

/// How the run ended, as reported.
#[derive(Debug, Clone, Serialize)]
pub struct EndOut {
    pub end: &'static str,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub need: Option<crate::engine::NeedKind>,
}

/// A rejected decision, as reported.
#[derive(Debug, Clone, Serialize)]
pub struct IllegalOut {
    pub step: usize,
    pub line: u64,
    pub column: u64,
    pub player: String,
    pub decision: String,
    pub reason: String,
    pub cites: Vec<&'static str>,
}

/// A decision never taken, as reported.
#[derive(Debug, Clone, Serialize)]
pub struct LeftoverOut {
    pub step: usize,
    pub line: u64,
    pub player: String,
    pub decision: String,
}

/// The report of one scenario run: the JSON contract of `swjudge check --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub scenario: String,
    pub title: String,
    pub game: &'static str,
    pub source: Option<String>,
    pub verdict: Verdict,
    pub players: [String; 2],
    pub steps: Vec<StepOut>,
    pub end: EndOut,
    pub illegal: Vec<IllegalOut>,
    pub leftover: Vec<LeftoverOut>,
    pub not_modelled: Vec<String>,
    pub observations: Observations,
    pub expectations: Vec<Expectation>,
    /// What could be observed of the board as given, before the run: what the
    /// run changed is the difference with [`Report::observations`].
    #[serde(skip)]
    pub start: Observations,
}

impl Report {
    /// Every rule ID cited by the trace and by rejected decisions.
    pub fn cited(&self) -> Vec<&'static str> {
        let steps = self.steps.iter().flat_map(|s| s.cites.iter());
        let illegal = self.illegal.iter().flat_map(|i| i.cites.iter());
        steps.chain(illegal).copied().unique().collect()
    }
    /// The failed expectations, one line each.
    pub fn problems(&self) -> Vec<String> {
        // what was not modelled is a problem only when it decided the verdict
        let shown = self.verdict == Verdict::NotModelled;
        let unmodelled = self.not_modelled.iter().filter(|_| shown);
        let unmodelled = unmodelled.map(|n| format!("not modelled — ruling needed: {n}"));
        let failed = self.expectations.iter().filter(|e| !e.ok);
        unmodelled.chain(failed.map(Expectation::failure)).collect()
    }
}

/// A value as one short string.
pub fn compact(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A list as a JSON value, as the run's observations are.
fn json<T: Serialize>(list: &[T]) -> Value {
    serde_json::to_value(list).unwrap_or(Value::Null)
}

fn row(path: impl Into<String>, expected: Value, actual: Value) -> Expectation {
    let ok = expected == actual;
    Expectation {
        path: path.into(),
        expected,
        actual,
        ok,
    }
}

/// Compare a run with the scenario's expectations: the one comparer.
pub fn compare(s: &Scenario, mut r: RunResult) -> Report {
    let observations = std::mem::take(&mut r.observations);
    let trace = std::mem::take(&mut r.trace.steps);
    let r = &r;
    let e = &s.expect;
    let p = &r.players;
    let mut rows = Vec::new();
    let want_end = e.outcome.clone().unwrap_or_else(|| "complete".into());
    rows.push(row(
        "outcome",
        Value::from(want_end),
        Value::from(r.end.key()),
    ));
    let paths: Vec<String> = e.paths.keys().cloned().collect();
    let got = observations.values_at(&paths);
    for ((path, want), got) in e.paths.iter().zip(got) {
        rows.push(row(path.clone(), want.clone(), got.unwrap_or(Value::Null)));
    }
    // Illegal decisions: by position, each matched against a rule it cites.
    let got: Vec<IllegalExpect> = r
        .illegal
        .iter()
        .map(|i| {
            let rule = e
                .illegal
                .iter()
                .find(|x| x.step == i.at.step && i.cites.contains(&x.rule.as_str()))
                .map_or_else(
                    || i.cites.first().copied().unwrap_or("").to_string(),
                    |x| x.rule.clone(),
                );
            IllegalExpect {
                step: i.at.step,
                rule,
            }
        })
        .collect();
    rows.push(row("illegal", json(&e.illegal), json(&got)));
    rows.push(row(
        "leftover",
        Value::from(e.leftover),
        Value::from(r.leftover.len()),
    ));
    let ended = match &r.end {
        End::NotModelled { what } => Some(what),
        _ => None,
    };
    let met: Vec<String> = r
        .trace
        .not_modelled
        .iter()
        .chain(ended)
        .cloned()
        .unique()
        .collect();
    let unacknowledged = met.iter().any(|m| !e.not_modelled.contains(m));
    if !e.not_modelled.is_empty() || !met.is_empty() {
        rows.push(row("not_modelled", json(&e.not_modelled), json(&met)));
    }
    for want in &e.trace_contains {
        let found = trace.iter().any(|s| s.text.contains(want.as_str()));
        rows.push(Expectation {
            path: "trace_contains".into(),
            expected: Value::from(want.as_str()),
            actual: Value::from(if found {
                want.as_str()
            } else {
                "(not in trace)"
            }),
            ok: found,
        });
    }
    let verdict = if unacknowledged {
        Verdict::NotModelled
    } else if rows.iter().all(|x| x.ok) {
        Verdict::Pass
    } else {
        Verdict::Fail
    };
    Report {
        scenario: s.file.display().to_string(),
        title: s.title.clone(),
        game: s.game.as_str(),
        source: s.source.as_ref().map(|x| x.value.clone()),
        verdict,
        players: p.0.clone(),
        steps: trace
            .into_iter()
            .map(|t| StepOut {
                n: t.n,
                level: t.level,
                actor: p.name(t.actor).to_string(),
                event: t.event.as_str(),
                text: t.text,
                cites: t.cites,
            })
            .collect(),
        end: end_out(&r.end, p),
        illegal: r
            .illegal
            .iter()
            .map(|i| IllegalOut {
                step: i.at.step,
                line: i.at.line,
                column: i.at.column,
                player: p.name(i.player).to_string(),
                decision: i.decision.clone(),
                reason: i.reason.clone(),
                cites: i.cites.clone(),
            })
            .collect(),
        leftover: r
            .leftover
            .iter()
            .map(|l| LeftoverOut {
                step: l.at.step,
                line: l.at.line,
                player: p.name(l.player).to_string(),
                decision: l.decision.clone(),
            })
            .collect(),
        not_modelled: met,
        observations,
        expectations: rows,
        start: s.start(),
    }
}

fn end_out(end: &End, p: &Players) -> EndOut {
    let (player, need) = match end {
        End::NeedsDecision { player, kind, .. } => (Some(p.name(*player).to_string()), Some(*kind)),
        _ => (None, None),
    };
    EndOut {
        end: end.key(),
        text: end.sentence(p),
        player,
        need,
    }
}
