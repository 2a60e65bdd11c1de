//! Rendering for `trace` output (text and JSON from one structure): a
//! scenario [`Report`] as a table of steps (indented by stack depth), the
//! outcome and each expectation; or as JSON.

use super::{Style, wrap_hanging};
use crate::scenario::{Report, Verdict};
use comfy_table::{
    ColumnConstraint, ContentArrangement, Table, Width, presets::UTF8_FULL_CONDENSED,
};
use serde::Serialize;
use serde_json::Value;

/// The report as pretty JSON (the `check --json` contract).
pub fn json(r: &Report) -> String {
    serde_json::to_string_pretty(r).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// The report as readable text, fitted to `style.width`. The report is read
/// through its JSON form, so the renderer keeps working when steps gain fields
/// (a step's stack level may be called `level` or `depth`).
pub fn text(r: &Report, style: &Style) -> String {
    let v = serde_json::to_value(r).unwrap_or(Value::Null);
    let mut out = String::new();
    let head = format!("{} — {}", str_of(&v["title"]), str_of(&v["scenario"]));
    out.push_str(&wrap_hanging(&head, style.width, "", "  "));
    out.push('\n');
    if let Some(s) = v["source"].as_str() {
        out.push_str(&format!("source: {s}\n"));
    }
    let steps = v["steps"].as_array().map(Vec::as_slice).unwrap_or_default();
    out.push_str(&steps_table(steps, style));
    out.push('\n');
    if let Some(text) = v["outcome"]["text"].as_str() {
        out.push_str(&wrap_hanging(
            &format!("outcome: {text}"),
            style.width,
            "",
            "  ",
        ));
        out.push('\n');
    }
    let expectations = v["expectations"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if !expectations.is_empty() {
        let mut e = table(style);
        e.set_header(vec!["expectation", "expected", "actual", "ok"]);
        for x in expectations {
            let ok = x["ok"].as_bool().unwrap_or(false);
            e.add_row(vec![
                str_of(&x["path"]),
                compact(&x["expected"]),
                compact(&x["actual"]),
                if ok {
                    "ok".into()
                } else {
                    style.bold("FAILED")
                },
            ]);
        }
        keep_whole(
            &mut e,
            0,
            expectations.iter().map(|x| str_of(&x["path"]).len()),
        );
        out.push_str(&e.to_string());
        out.push('\n');
    }
    out.push_str(&format!("verdict: {}\n", str_of(&v["verdict"])));
    out
}

fn table(style: &Style) -> Table {
    let mut t = Table::new();
    t.load_style(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(style.width.min(u16::MAX as usize) as u16);
    t
}

/// One trace step as read from its JSON form.
struct StepRow {
    n: String,
    depth: usize,
    actor: String,
    event: String,
    text: String,
    cites: Vec<String>,
}

impl StepRow {
    fn new(s: &Value) -> StepRow {
        StepRow {
            n: str_of(&s["n"]),
            depth: s
                .get("level")
                .or_else(|| s.get("depth"))
                .and_then(Value::as_u64)
                .unwrap_or(0) as usize,
            actor: str_of(&s["actor"]),
            event: str_of(&s["event"]),
            text: str_of(&s["text"]),
            cites: s["cites"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|c| c.as_str().map_or_else(|| str_of(&c["id"]), str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// A visible marker per stack level (leading spaces do not survive wrapping).
    fn marker(&self) -> String {
        "· ".repeat(self.depth.saturating_sub(1).min(12))
    }
}

/// Room the table needs beside its rules column to stay readable.
const TABLE_MIN_BESIDE_RULES: usize = 60;

/// The trace steps: a table when the width holds the longest rule ID beside
/// readable text, else one block per step (IDs are never split either way).
fn steps_table(steps: &[Value], style: &Style) -> String {
    let rows: Vec<StepRow> = steps.iter().map(StepRow::new).collect();
    let widest_cite = rows
        .iter()
        .flat_map(|r| r.cites.iter().map(String::len))
        .max()
        .unwrap_or(0);
    if style.width < widest_cite + TABLE_MIN_BESIDE_RULES {
        return steps_list(&rows, style);
    }
    let mut t = table(style);
    t.set_header(vec![
        "n",
        "depth",
        "actor",
        "event",
        "what happens",
        "rules",
    ]);
    for r in &rows {
        t.add_row(vec![
            r.n.clone(),
            r.depth.to_string(),
            r.actor.clone(),
            r.event.clone(),
            format!("{}{}", r.marker(), r.text),
            r.cites.join("\n"),
        ]);
    }
    for (col, c) in [
        (0, ColumnConstraint::ContentWidth),
        (1, ColumnConstraint::ContentWidth),
    ] {
        if let Some(column) = t.column_mut(col) {
            column.set_constraint(c);
        }
    }
    keep_whole(&mut t, 5, std::iter::once(widest_cite));
    t.to_string()
}

/// Steps as blocks for a narrow width: `n. actor · event`, then the text and rules.
fn steps_list(rows: &[StepRow], style: &Style) -> String {
    let mut out = String::new();
    for r in rows {
        let head = format!("{}. {}{} · {}", r.n, r.marker(), r.actor, r.event);
        out.push_str(&wrap_hanging(&head, style.width, "", "   "));
        out.push('\n');
        out.push_str(&wrap_hanging(&r.text, style.width, "   ", "   "));
        out.push('\n');
        if !r.cites.is_empty() {
            let rules = format!("rules: {}", r.cites.join(" "));
            out.push_str(&wrap_hanging(&rules, style.width, "   ", "          "));
            out.push('\n');
        }
    }
    out.trim_end().to_string()
}

/// Give column `col` at least the width of its widest unbreakable entry (a rule
/// ID), so that the table never splits one.
fn keep_whole(t: &mut Table, col: usize, widths: impl Iterator<Item = usize>) {
    let widest = widths.max().unwrap_or(0);
    if widest > 0
        && let Some(c) = t.column_mut(col)
    {
        c.set_constraint(ColumnConstraint::Absolute(Width::Fixed(
            (widest + 2).min(u16::MAX as usize) as u16,
        )));
    }
}

/// A JSON scalar as text (strings without quotes); null as empty.
fn str_of(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A value in one line with a space after each comma and colon, so a table can
/// wrap it between items rather than inside a word.
fn compact(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => format!("[{}]", a.iter().map(spaced).collect::<Vec<_>>().join(", ")),
        Value::Object(_) => spaced(v),
        other => other.to_string(),
    }
}

fn spaced(v: &Value) -> String {
    match v {
        Value::Array(a) => format!("[{}]", a.iter().map(spaced).collect::<Vec<_>>().join(", ")),
        Value::Object(o) => format!(
            "{{{}}}",
            o.iter()
                .map(|(k, x)| format!("{}: {}", Value::String(k.clone()), spaced(x)))
                .collect::<Vec<_>>()
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
    pub verdict: String,
    /// Why it failed: failed expectations, or the error for an invalid scenario.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

/// The `test --json` contract.
#[derive(Debug, Clone, Serialize)]
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
            verdict: r.verdict.as_str().to_string(),
            problems: r.problems(),
        }
    }
    pub fn failed(&self) -> bool {
        self.verdict != Verdict::Pass.as_str()
    }
}

/// `swjudge test` as text: a line per failing scenario, then `N passed, N failed`.
pub fn test_text(s: &TestSummary) -> String {
    let mut out = String::new();
    for l in &s.scenarios {
        if l.verdict == "pass" {
            continue;
        }
        out.push_str(&format!("{}: {}", l.verdict.to_uppercase(), l.file));
        if let Some(p) = l.problems.first() {
            out.push_str(&format!(" — {p}"));
            if l.problems.len() > 1 {
                out.push_str(&format!(" (+{} more)", l.problems.len() - 1));
            }
        }
        out.push('\n');
    }
    out.push_str(&format!("{} passed, {} failed\n", s.passed, s.failed));
    out
}
