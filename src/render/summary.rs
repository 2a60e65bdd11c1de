//! The short account `swjudge check` prints by default: the disputed action,
//! what each player did and what came of it (each with its rule), the outcome,
//! what the run changed on the board, and the verdict. One typed
//! [`Summary`], rendered as text or JSON; `--trace` prints every step instead.

use super::{Style, one_line, wrap_hanging};
use crate::engine::{Observations, Value};
use crate::scenario::expect::{Expectation, StepOut, compact};
use crate::scenario::{Report, Verdict};
use serde::Serialize;
use std::collections::BTreeMap;

/// One step of the trace as the summary shows it, with the rule that justifies
/// it; or several steps shown one after another, by one actor, of one kind and
/// under one rule (a player losing Force card by card), their texts joined.
#[derive(Debug, Clone, Serialize)]
pub struct Line {
    pub n: usize,
    /// The other steps joined into this line, after `n`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<usize>,
    pub actor: String,
    pub event: &'static str,
    pub text: String,
    pub rule: Option<&'static str>,
}

/// An observed value the run changed: what the board had, and what it has now
/// (`null`: there was, or is, no such value).
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    pub path: String,
    pub before: Value,
    pub after: Value,
}

/// The `check` summary: the JSON contract of `check --json`'s `summary`.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub scenario: String,
    pub title: String,
    pub source: Option<String>,
    /// The first action a player takes, or tries and is refused: what the
    /// scenario is about.
    pub disputed: Option<Line>,
    /// What the players did after it and what came of it: their actions and
    /// results, cards moved and values set, rejected decisions, whatever was
    /// not modelled (stack mechanics, passes and nested draws are in `--trace`).
    pub steps: Vec<Line>,
    pub outcome: String,
    /// The board's observed values the run changed, by path.
    pub changed: Vec<Change>,
    /// Decisions the script gave and the run never took.
    pub leftover: Vec<String>,
    pub expectations_held: usize,
    pub expectations: usize,
    /// The expectations that failed.
    pub failed: Vec<Expectation>,
    pub verdict: Verdict,
}

/// Families of observations that describe the run rather than the board (the
/// actions resolved or taken, the stack, destinies drawn, the order of
/// attacks) or repeat another family (a pile's or the dice pool's list repeats
/// where each of its cards or dice is).
const NOT_BOARD: [&str; 14] = [
    "piles.",
    "owner.",
    "resolved",
    "canceled",
    "stack",
    "destinies",
    "next",
    "where.",
    "turns",
    "attack_order",
    "deck.",
    "discard.",
    "hand.",
    "pool",
];

/// Events that are a player's action or its result, worth a line in the
/// summary. A player's own changes inside an action nested in the dispute
/// (a destiny card placed on the Used Pile) are that action's mechanics: its
/// result says what came of it, and `changed:` where the cards went.
fn shown(s: &StepOut, base: usize) -> bool {
    match s.event {
        "decision_rejected" | "not_modelled" => true,
        "push" | "initiate" | "result" | "roll" | "cancel" => s.actor != "rules",
        "state_change" => s.actor == "rules" || s.level <= base,
        _ => false,
    }
}

/// Steps shown one after another that are one actor's changes or results
/// under one rule, joined into one line.
fn join_runs(lines: Vec<Line>) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    for l in lines {
        if let Some(last) = out.last_mut()
            && matches!(l.event, "state_change" | "result")
            && (last.event, &last.actor, last.rule) == (l.event, &l.actor, l.rule)
        {
            last.also.push(l.n);
            last.text = format!("{}; {} {}", last.text, l.n, l.text);
            continue;
        }
        out.push(l);
    }
    out
}

fn line(s: &StepOut) -> Line {
    Line {
        n: s.n,
        also: Vec::new(),
        actor: s.actor.clone(),
        event: s.event,
        text: s.text.clone(),
        rule: s.cites.first().copied(),
    }
}

impl Summary {
    /// The summary of `report`.
    pub fn new(report: &Report) -> Summary {
        let steps = &report.steps;
        let first = steps.iter().position(|s| {
            s.actor != "rules" && matches!(s.event, "push" | "initiate" | "decision_rejected")
        });
        let base = first.map_or(0, |i| steps[i].level);
        // Rejected decisions and what is not modelled, wherever they stand; from
        // the disputed action on (from the start when no player acts), the
        // players' actions and results and what changed, at its level and the
        // next. With no player acting, the rules' own results are the story.
        let kept = steps
            .iter()
            .enumerate()
            .filter(|&(i, s)| {
                let from_dispute = first.is_none_or(|f| i > f);
                (first != Some(i) && matches!(s.event, "decision_rejected" | "not_modelled"))
                    || (from_dispute
                        && s.level <= base + 1
                        && (shown(s, base) || (first.is_none() && s.event == "result")))
            })
            .map(|(_, s)| line(s))
            .collect();
        let kept = join_runs(kept);
        let (held, failed): (Vec<&Expectation>, Vec<&Expectation>) =
            report.expectations.iter().partition(|e| e.ok);
        Summary {
            scenario: report.scenario.clone(),
            title: report.title.clone(),
            source: report.source.clone(),
            disputed: first.map(|i| line(&steps[i])),
            steps: kept,
            outcome: report.end.text.clone(),
            changed: changes(&report.start, &report.observations),
            leftover: report
                .leftover
                .iter()
                .map(|l| format!("decision {} ({}): {}", l.step, l.player, l.decision))
                .collect(),
            expectations_held: held.len(),
            expectations: report.expectations.len(),
            failed: failed.into_iter().cloned().collect(),
            verdict: report.verdict,
        }
    }
}

/// The values of the board as given that the run changed, by path, and the
/// numbers the run worked out (those not 0, false or null).
fn changes(start: &Observations, end: &Observations) -> Vec<Change> {
    let before = start.all();
    end.all()
        .into_iter()
        .filter(|(path, _)| !NOT_BOARD.iter().any(|f| path.starts_with(f)))
        .filter_map(|(path, after)| {
            let was = match before.get(&path) {
                Some(v) if *v != after => v.clone(),
                Some(_) => return None,
                None if path.starts_with("numbers.") && !is_nothing(&after) => Value::Null,
                None => return None,
            };
            Some(Change {
                path,
                before: was,
                after,
            })
        })
        .collect()
}

/// Null, false or 0: a number nothing came of.
fn is_nothing(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => true,
        Value::Number(n) => n.as_f64() == Some(0.0),
        _ => false,
    }
}

/// The group a changed path is shown in (`cards`, `force.light`,
/// `numbers.battle`), and the rest of its path.
fn group(path: &str) -> (&str, &str) {
    let parts = if path.starts_with("numbers.") || path.starts_with("force.") {
        2
    } else {
        1
    };
    match path.match_indices('.').nth(parts - 1) {
        Some((i, _)) => (&path[..i], &path[i + 1..]),
        None => (path, ""),
    }
}

/// A step on one wrapped line: `n actor: text [rule]`, after `lead`.
fn step_text(l: &Line, style: &Style, lead: &str) -> String {
    let rule = l.rule.map_or(String::new(), |r| format!("  [{r}]"));
    let text = format!(
        "{lead}{:>3} {}: {}{rule}",
        l.n,
        one_line(&l.actor),
        one_line(&l.text)
    );
    wrap_hanging(&text, style.width, "", "      ")
}

/// The summary as text, fitted to `style.width`.
pub fn text(s: &Summary, style: &Style) -> String {
    let mut out: Vec<String> = Vec::new();
    out.push(wrap_hanging(&one_line(&s.title), style.width, "", "  "));
    // the file is the one the judge named; its source is what it reproduces
    let from = match &s.source {
        Some(src) => format!("source: {}", one_line(src)),
        None => one_line(&s.scenario),
    };
    out.push(wrap_hanging(&from, style.width, "  ", "  "));
    match &s.disputed {
        Some(d) => out.push(step_text(d, style, &style.bold("disputed:"))),
        None => out.push("disputed: no player acts".into()),
    }
    out.extend(s.steps.iter().map(|l| step_text(l, style, " ")));
    out.extend(changed_text(&s.changed, style));
    for l in &s.leftover {
        let text = format!("left over: {}", one_line(l));
        out.push(wrap_hanging(&text, style.width, "", "  "));
    }
    for e in &s.failed {
        let text = format!("FAILED {}", one_line(&e.failure()));
        out.push(wrap_hanging(&style.bold(&text), style.width, "", "  "));
    }
    let end = format!(
        "outcome: {} · expectations: {} of {} hold · verdict: {}",
        one_line(&s.outcome),
        s.expectations_held,
        s.expectations,
        s.verdict.as_str()
    );
    out.push(wrap_hanging(&end, style.width, "", "  "));
    out.join("\n")
}

/// `changed:`, one wrapped line per group of paths (the first beside the
/// label). In a group, paths whose value changed alike share it
/// (`h1, h2 light.hand → light.lost_pile`), and paths under one name share it
/// (`dark: attrition 2, total_power 7`).
pub fn changed_text(changed: &[Change], style: &Style) -> Vec<String> {
    const LABEL: &str = "changed: ";
    if changed.is_empty() {
        return vec!["changed: nothing on the board".into()];
    }
    let mut groups: BTreeMap<&str, Vec<Item>> = BTreeMap::new();
    for c in changed {
        let (g, rest) = group(&c.path);
        let (value, moved) = match &c.before {
            Value::Null => (compact(&c.after), false),
            before => (format!("{} → {}", compact(before), compact(&c.after)), true),
        };
        let value = one_line(&value);
        let items = groups.entry(g).or_default();
        match items
            .iter_mut()
            .find(|i| i.moved && moved && i.value == value)
        {
            Some(i) => i.names.push(one_line(rest)),
            None => items.push(Item {
                names: vec![one_line(rest)],
                value,
                moved,
            }),
        }
    }
    let indent = " ".repeat(LABEL.len());
    let rest = format!("{indent}    ");
    groups
        .into_iter()
        .enumerate()
        .map(|(i, (g, items))| {
            let text = format!("{}: {}", one_line(g), group_items(&items));
            let first = if i == 0 { LABEL } else { indent.as_str() };
            wrap_hanging(&text, style.width, first, &rest)
        })
        .collect()
}

/// Paths of one group that changed alike, and how.
struct Item {
    names: Vec<String>,
    value: String,
    moved: bool,
}

/// A group's items, `; ` between them; runs of paths under one name
/// (`dark.attrition`, `dark.total_power`) as `dark: attrition 2, total_power 7`.
fn group_items(items: &[Item]) -> String {
    let entry = |name: &str, value: &str| {
        if name.is_empty() {
            value.to_string()
        } else {
            format!("{name} {value}")
        }
    };
    // (the shared name, or none; the entries under it)
    let mut parts: Vec<(Option<&str>, Vec<String>)> = Vec::new();
    for i in items {
        let split = match i.names.as_slice() {
            [only] => only.split_once('.'),
            _ => None,
        };
        let same_head = matches!(
            (split, parts.last()),
            (Some((head, _)), Some((Some(h), _))) if *h == head
        );
        match split {
            Some((_, tail)) if same_head => {
                if let Some((_, v)) = parts.last_mut() {
                    v.push(entry(tail, &i.value));
                }
            }
            Some((head, tail)) => parts.push((Some(head), vec![entry(tail, &i.value)])),
            None => parts.push((None, vec![entry(&i.names.join(", "), &i.value)])),
        }
    }
    parts
        .into_iter()
        .map(|(head, v)| match (head, v.as_slice()) {
            (Some(h), [one]) => format!("{h}.{one}"),
            (Some(h), _) => format!("{h}: {}", v.join(", ")),
            (None, _) => v.join("; "),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_keep_two_parts_for_numbers_and_force() {
        assert_eq!(group("cards.snoova"), ("cards", "snoova"));
        assert_eq!(
            group("numbers.battle.light.total_power"),
            ("numbers.battle", "light.total_power")
        );
        assert_eq!(group("force.light.used"), ("force.light", "used"));
        assert_eq!(group("phase"), ("phase", ""));
    }
}
