//! Rendering for `trace` output (text and JSON from one structure): a
//! scenario [`Report`] as a table of steps (indented by stack depth), the
//! outcome and each expectation; or as JSON.

use super::summary::{self, Summary};
use super::{Style, one_line, table, wrap_hanging};
use crate::scenario::expect::StepOut;
use crate::scenario::{Report, Verdict};
use comfy_table::{ColumnConstraint, Table, Width};
use itertools::Itertools;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write as _;

/// The report with its summary: the `check --json` contract.
#[derive(Serialize)]
struct Checked<'a> {
    #[serde(flatten)]
    report: &'a Report,
    summary: Summary,
}

/// The report as pretty JSON (the `check --json` contract): every step, and
/// the summary `check` prints by default.
pub fn json(r: &Report) -> String {
    let checked = Checked {
        report: r,
        summary: Summary::new(r),
    };
    serde_json::to_string_pretty(&checked).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// The report with every step (runs of passes folded) as readable text, fitted to `style.width`. Text from the
/// scenario (its title, card names in the trace) has its control characters
/// escaped.
pub fn text(r: &Report, style: &Style) -> String {
    let mut out = String::new();
    let head = format!("{} — {}", one_line(&r.title), one_line(&r.scenario));
    style.push_wrapped(&mut out, &head, "", "  ");
    if let Some(s) = &r.source {
        let _ = writeln!(out, "source: {}", one_line(s));
    }
    let _ = writeln!(out, "{}", steps_table(&r.steps, style));
    let outcome = format!("outcome: {}", one_line(&r.end.text));
    style.push_wrapped(&mut out, &outcome, "", "  ");
    let changed = summary::changed_text(&Summary::new(r).changed, style);
    let _ = writeln!(out, "{}", changed.join("\n"));
    if !r.expectations.is_empty() {
        let _ = writeln!(out, "{}", expectations(r, style));
    }
    let _ = writeln!(out, "verdict: {}", r.verdict.as_str());
    out
}

/// The expectations as a table whose headers and paths stay whole; as one
/// line each when the width cannot hold such a table.
fn expectations(r: &Report, style: &Style) -> String {
    let ok = |x: &crate::scenario::Expectation| {
        if x.ok {
            "ok".to_string()
        } else {
            style.bold("FAILED")
        }
    };
    let widest = r
        .expectations
        .iter()
        .map(|x| x.path.len())
        .chain(std::iter::once("expectation".len()))
        .max()
        .unwrap_or(0);
    let heads = ["expected", "actual", "ok"];
    // Each column takes its text and 2 of padding, and 5 borders.
    let least = widest + 2 + heads.iter().map(|h| h.len() + 2).sum::<usize>() + 5;
    if least > style.width {
        let lines: Vec<String> = r
            .expectations
            .iter()
            .map(|x| {
                let text = format!(
                    "{} {}: expected {}, got {}",
                    ok(x),
                    one_line(&x.path),
                    one_line(&compact(&x.expected)),
                    one_line(&compact(&x.actual))
                );
                wrap_hanging(&text, style.width, "", "   ")
            })
            .collect();
        return lines.join("\n");
    }
    let mut e = table(style.width);
    e.set_header(vec!["expectation", "expected", "actual", "ok"]);
    for x in &r.expectations {
        e.add_row(vec![
            one_line(&x.path),
            one_line(&compact(&x.expected)),
            one_line(&compact(&x.actual)),
            ok(x),
        ]);
    }
    keep_whole(&mut e, 0, widest);
    // after the expectation column, each column is at least as wide as its header
    for (c, head) in e.column_iter_mut().skip(1).zip(heads) {
        c.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(
            head.len() as u16 + 2,
        )));
    }
    e.to_string()
}

/// A visible marker per stack level (leading spaces do not survive wrapping).
fn marker(level: usize) -> String {
    "· ".repeat(level.saturating_sub(1).min(12))
}

/// A row of the printed trace: one step, or a run of passes folded into one
/// (the first step's actor and level, the run's text and rules).
struct Row {
    /// The step's number, or the first and last of the run (`5–8`).
    n: String,
    step: StepOut,
}

/// The steps with each run of passes folded into one row: a chance to act
/// (`window`), the players' passes at its level, and the result the rules
/// give when the passes close it (`5–8 … — 2 passes: light, dark`).
fn fold_passes(steps: &[StepOut]) -> Vec<Row> {
    let mut rows = Vec::with_capacity(steps.len());
    let mut i = 0;
    while i < steps.len() {
        let level = steps[i].level;
        // the passes start after the chance to act, if the run starts with one
        let passes = i + usize::from(steps[i].event == "window");
        let mut j = passes;
        while j < steps.len() && steps[j].event == "pass" && steps[j].level == level {
            j += 1;
        }
        if j == passes || j - i < 2 {
            rows.push(Row {
                n: steps[i].n.to_string(),
                step: steps[i].clone(),
            });
            i += 1;
            continue;
        }
        let passed: Vec<&str> = steps[passes..j].iter().map(|s| s.actor.as_str()).collect();
        if j < steps.len()
            && steps[j].event == "result"
            && steps[j].actor == "rules"
            && steps[j].level == level
        {
            j += 1;
        }
        let cites = steps[i..j].iter().flat_map(|s| s.cites.iter());
        let cites: Vec<&'static str> = cites.copied().unique().collect();
        let mut step = steps[i].clone();
        step.event = "pass";
        step.text = format!(
            "{} — {} passes: {}",
            step.text,
            passed.len(),
            passed.join(", ")
        );
        step.cites = cites;
        rows.push(Row {
            n: format!("{}–{}", steps[i].n, steps[j - 1].n),
            step,
        });
        i = j;
    }
    rows
}

/// Room the table needs beside its rules column to stay readable.
const TABLE_MIN_BESIDE_RULES: usize = 60;

/// The trace steps, runs of passes folded: a table when the width holds the
/// longest rule ID beside readable text, else one block per step (IDs are never
/// split either way).
fn steps_table(steps: &[StepOut], style: &Style) -> String {
    let rows = fold_passes(steps);
    let widest_cite = rows
        .iter()
        .flat_map(|r| r.step.cites.iter().map(|c| c.len()))
        .max()
        .unwrap_or(0);
    if style.width < widest_cite + TABLE_MIN_BESIDE_RULES {
        return steps_list(&rows, style);
    }
    let mut t = table(style.width);
    t.set_header(vec![
        "n",
        "depth",
        "actor",
        "event",
        "what happens",
        "rules",
    ]);
    for Row { n, step: r } in &rows {
        t.add_row(vec![
            n.clone(),
            r.level.to_string(),
            one_line(&r.actor),
            r.event.to_string(),
            format!("{}{}", marker(r.level), one_line(&r.text)),
            r.cites.join("\n"),
        ]);
    }
    // the step number and depth are as wide as their contents
    for column in t.column_iter_mut().take(2) {
        column.set_constraint(ColumnConstraint::ContentWidth);
    }
    keep_whole(&mut t, 5, widest_cite);
    t.to_string()
}

/// Steps as blocks for a narrow width: `n. actor · event`, then the text and rules.
fn steps_list(rows: &[Row], style: &Style) -> String {
    let mut out = String::new();
    for Row { n, step: r } in rows {
        let head = format!(
            "{n}. {}{} · {}",
            marker(r.level),
            one_line(&r.actor),
            r.event
        );
        style.push_wrapped(&mut out, &head, "", "   ");
        style.push_wrapped(&mut out, &one_line(&r.text), "   ", "   ");
        if !r.cites.is_empty() {
            let rules = format!("rules: {}", r.cites.join(" "));
            style.push_wrapped(&mut out, &rules, "   ", "          ");
        }
    }
    out.trim_end().to_string()
}

/// Give column `col` the width of its widest unbreakable entry (`widest`: a
/// rule ID), so that the table never splits one.
fn keep_whole(t: &mut Table, col: usize, widest: usize) {
    if widest > 0
        && let Some(c) = t.column_mut(col)
    {
        c.set_constraint(ColumnConstraint::Absolute(Width::Fixed(
            (widest + 2).min(u16::MAX as usize) as u16,
        )));
    }
}

/// A value in one line with a space after each comma and colon, so a table can
/// wrap it between items rather than inside a word.
fn compact(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => spaced(other),
    }
}

fn spaced(v: &Value) -> String {
    match v {
        Value::Array(a) => format!("[{}]", a.iter().map(spaced).join(", ")),
        Value::Object(o) => format!(
            "{{{}}}",
            o.iter()
                .map(|(k, x)| format!("{}: {}", Value::String(k.clone()), spaced(x)))
                .join(", ")
        ),
        other => other.to_string(),
    }
}

/// One line of `swjudge test` output per scenario.
#[derive(Debug, Clone, Serialize)]
pub struct TestLine {
    pub file: String,
    pub game: String,
    pub source: Option<String>,
    /// The run's verdict; none for a file that did not load (`invalid`).
    #[serde(serialize_with = "verdict_or_invalid")]
    pub verdict: Option<Verdict>,
    /// Why it failed: failed expectations, or the error for an invalid scenario.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

/// The `test --json` contract.
#[derive(Debug, Clone, Default, Serialize)]
pub struct TestSummary {
    pub passed: usize,
    pub failed: usize,
    pub scenarios: Vec<TestLine>,
}

impl TestLine {
    pub fn from_report(file: &str, r: &Report) -> TestLine {
        TestLine {
            file: file.to_string(),
            game: r.game.to_string(),
            source: r.source.clone(),
            verdict: Some(r.verdict),
            problems: r.problems(),
        }
    }

    /// The line of a file that did not load, with the error.
    pub fn invalid(file: &str, error: &crate::Error) -> TestLine {
        TestLine {
            file: file.to_string(),
            game: String::new(),
            source: None,
            verdict: None,
            problems: vec![error.to_string()],
        }
    }

    pub fn failed(&self) -> bool {
        self.verdict != Some(Verdict::Pass)
    }
}

/// A test line's verdict by name: the run's, or `invalid`.
fn verdict_name(v: Option<Verdict>) -> &'static str {
    v.map_or("invalid", Verdict::as_str)
}

fn verdict_or_invalid<S: serde::Serializer>(v: &Option<Verdict>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(verdict_name(*v))
}

/// `swjudge test` as text: a line per failing scenario, then `N passed, N failed`.
pub fn test_text(s: &TestSummary) -> String {
    let mut out = String::new();
    for l in s.scenarios.iter().filter(|l| l.failed()) {
        let verdict = verdict_name(l.verdict).to_uppercase();
        out.push_str(&format!("{verdict}: {}", one_line(&l.file)));
        if let Some(p) = l.problems.first() {
            out.push_str(&format!(" — {}", one_line(p)));
            if l.problems.len() > 1 {
                out.push_str(&format!(" (+{} more)", l.problems.len() - 1));
            }
        }
        out.push('\n');
    }
    out.push_str(&format!("{} passed, {} failed\n", s.passed, s.failed));
    out
}
