//! Rendering for `trace` output (text and JSON from one structure): a
//! scenario [`Report`] as a table of steps (indented by stack depth), the
//! outcome and each expectation; or as JSON.

use crate::scenario::{Report, Verdict};
use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};
use serde::Serialize;

/// The report as pretty JSON (the `check --json` contract).
pub fn json(r: &Report) -> String {
    serde_json::to_string_pretty(r).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// The report as readable text.
pub fn text(r: &Report) -> String {
    let mut out = String::new();
    out.push_str(&format!("{} — {}\n", r.title, r.scenario));
    if let Some(s) = &r.source {
        out.push_str(&format!("source: {s}\n"));
    }
    let mut t = Table::new();
    t.load_style(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(140);
    t.set_header(vec![
        "n",
        "level",
        "actor",
        "event",
        "what happens",
        "rules",
    ]);
    for s in &r.steps {
        // A visible marker per stack level (leading spaces do not survive wrapping).
        let indent = "· ".repeat(s.level.saturating_sub(1).min(12));
        t.add_row(vec![
            s.n.to_string(),
            s.level.to_string(),
            s.actor.clone(),
            s.event.to_string(),
            format!("{indent}{}", s.text),
            s.cites.join("\n"),
        ]);
    }
    out.push_str(&t.to_string());
    out.push('\n');
    out.push_str(&format!("outcome: {}\n", r.end.text));
    for i in &r.illegal {
        out.push_str(&format!(
            "rejected: decision {} (line {}) by {}: {} — {} [{}]\n",
            i.step,
            i.line,
            i.player,
            i.decision,
            i.reason,
            i.cites.join(", ")
        ));
    }
    for n in &r.not_modelled {
        out.push_str(&format!("not modelled — ruling needed: {n}\n"));
    }
    if !r.expectations.is_empty() {
        let mut e = Table::new();
        e.load_style(UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(140);
        e.set_header(vec!["expectation", "expected", "actual", "ok"]);
        for x in &r.expectations {
            e.add_row(vec![
                x.path.clone(),
                compact(&x.expected),
                compact(&x.actual),
                if x.ok { "ok".into() } else { "FAILED".into() },
            ]);
        }
        out.push_str(&e.to_string());
        out.push('\n');
    }
    out.push_str(&format!("verdict: {}\n", r.verdict.as_str()));
    out
}

fn compact(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
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
