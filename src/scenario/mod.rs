//! Scenarios: the YAML model, the loader with positions, expectations, the runner.
//!
//! A scenario is loaded through [`crate::yaml::load`] (unknown keys, duplicate
//! keys and oversized input are rejected with `file:line:column`), then
//! checked for meaning (every card name, location and source ID must exist;
//! each script step names exactly one player). Running it hands the board and
//! the script to the game's engine and compares the result with `expect:`.

pub mod model;

use crate::engine::swccg::{self, Outcome};
use crate::engine::{Actor, Event, Trace};
use crate::error::{Error, Result};
use model::{Board, GameKey, Placed, ScenarioFile, Verb};
use serde::Serialize;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A loaded, checked scenario.
#[derive(Debug)]
pub struct Scenario {
    pub file: PathBuf,
    pub data: ScenarioFile,
}

/// The verdict of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    Fail,
    /// The game's engine is not modelled yet.
    Unchecked,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Unchecked => "unchecked",
        }
    }
}

/// One expectation with its expected and actual values.
#[derive(Debug, Clone, Serialize)]
pub struct Expectation {
    pub path: String,
    pub expected: serde_json::Value,
    pub actual: serde_json::Value,
    pub ok: bool,
}

/// The report of one scenario run: the JSON contract of `swjudge check --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub scenario: String,
    pub title: String,
    pub game: &'static str,
    pub source: Option<String>,
    pub verdict: Verdict,
    pub steps: Vec<crate::engine::TraceStep>,
    pub outcome: serde_json::Value,
    pub expectations: Vec<Expectation>,
}

impl Report {
    /// Every rule ID cited by the trace.
    pub fn cited(&self) -> Vec<&'static str> {
        let t = Trace {
            steps: self.steps.clone(),
        };
        t.cited_ids()
    }
}

/// Where to look up section IDs when checking `source:`.
pub trait SectionIds {
    fn has(&self, id: &str) -> bool;
}

impl SectionIds for crate::rulebook::Corpus {
    fn has(&self, id: &str) -> bool {
        self.contains(id)
    }
}

/// Load and check a scenario file. `ids`, when given, is used to check `source:`.
pub fn load(path: &Path, ids: Option<&dyn SectionIds>) -> Result<Scenario> {
    let data: ScenarioFile = crate::yaml::load_file(path)?;
    check(path, &data, ids)?;
    Ok(Scenario {
        file: path.to_path_buf(),
        data,
    })
}

/// Load from text (for tests and benchmarks).
pub fn load_str(origin: &Path, text: &str, ids: Option<&dyn SectionIds>) -> Result<Scenario> {
    let data: ScenarioFile = crate::yaml::load(origin, text)?;
    check(origin, &data, ids)?;
    Ok(Scenario {
        file: origin.to_path_buf(),
        data,
    })
}

fn at(path: &Path, line: u64, col: u64, msg: impl std::fmt::Display) -> Error {
    if line == 0 {
        Error::Input(format!("{}: {msg}", path.display()))
    } else {
        Error::Input(format!("{}:{line}:{col}: {msg}", path.display()))
    }
}

/// Semantic checks, each error pointing at a position where one is known.
fn check(path: &Path, s: &ScenarioFile, ids: Option<&dyn SectionIds>) -> Result<()> {
    if let (Some(src), Some(ids)) = (&s.source, ids)
        && !ids.has(&src.value)
    {
        return Err(at(
            path,
            src.referenced.line(),
            src.referenced.column(),
            format!("source `{}` is not a rulebook section ID", src.value),
        ));
    }
    let present = [
        ("swccg", s.swccg.is_some()),
        ("destiny", s.destiny.is_some()),
        ("swtcg", s.swtcg.is_some()),
    ];
    for (k, p) in present {
        if p && k != s.game.as_str() {
            return Err(at(
                path,
                0,
                0,
                format!(
                    "board `{k}:` given for a `game: {}` scenario",
                    s.game.as_str()
                ),
            ));
        }
    }
    // `normal: N` expands to N draws: bound it, or a typo exhausts memory.
    if s.draws
        .iter()
        .flatten()
        .flat_map(|d| &d.plans)
        .any(|p| matches!(p, swccg::battle_scenario::PlanSpec::Normal(n) if *n > 1000))
    {
        return Err(at(
            path,
            0,
            0,
            "draws: `normal:` asks for more than 1000 draws",
        ));
    }
    if s.attack.as_ref().is_some_and(|a| a.ferocity_destinies > 64) {
        return Err(at(
            path,
            0,
            0,
            "attack: `ferocity_destinies` is more than 64",
        ));
    }
    let mut names: BTreeSet<String> = BTreeSet::new();
    let mut locations: BTreeSet<String> = BTreeSet::new();
    let case = swccg::battle_scenario::case_of(s);
    if let Some(c) = &case {
        names.extend(swccg::battle_scenario::card_names(c));
    }
    if let Some(b) = &s.swccg {
        names.extend(b.cards.keys().cloned());
        check_board(path, b, &mut locations)?;
    } else if s.game == GameKey::Swccg && case.is_none() {
        return Err(at(
            path,
            0,
            0,
            "a `game: swccg` scenario needs a `swccg:` board",
        ));
    }
    for step in &s.script {
        let (l, c) = (step.referenced.line(), step.referenced.column());
        let st = &step.value;
        match (st.light, st.dark) {
            (Some(_), None) | (None, Some(_)) => {}
            _ => {
                return Err(at(
                    path,
                    l,
                    c,
                    "each script step names exactly one player: `light: <verb>` or `dark: <verb>`",
                ));
            }
        }
        let verb = st.light.or(st.dark).unwrap_or(Verb::Pass);
        if matches!(verb, Verb::LoseForce | Verb::DestinyValue) && st.amount.is_none() {
            return Err(at(
                path,
                l,
                c,
                format!("`{}` needs `amount:`", verb.as_str()),
            ));
        }
        if matches!(verb, Verb::Deploy | Verb::Play | Verb::Use | Verb::Forfeit)
            && st.card.is_none()
        {
            return Err(at(path, l, c, format!("`{}` needs `card:`", verb.as_str())));
        }
        if s.game != GameKey::Swccg {
            continue;
        }
        let known = |n: &str| {
            names.contains(n) || locations.contains(n) || swccg::state::parse_pile_name(n).is_some()
        };
        for n in st.card.iter().chain(st.via.iter()).chain(st.cards.iter()) {
            if !names.contains(n) {
                return Err(at(
                    path,
                    l,
                    c,
                    format!("unknown card `{n}` (not in `cards:`)"),
                ));
            }
        }
        for n in st.target.iter().chain(st.to.iter()) {
            if !known(n) {
                return Err(at(
                    path,
                    l,
                    c,
                    format!(
                        "unknown target `{n}` (not a card, location or pile like light.used_pile)"
                    ),
                ));
            }
        }
        if let (Some(a), Some(card)) = (&st.ability, &st.card)
            && let Some(def) = s.swccg.as_ref().and_then(|b| b.cards.get(card))
            && swccg::engine::find_ability(&def.value.abilities, a).is_none()
        {
            return Err(at(
                path,
                l,
                c,
                format!("card `{card}` has no ability `{a}`"),
            ));
        }
    }
    if let Some(e) = &s.expect {
        let (l, c) = (e.referenced.line(), e.referenced.column());
        for k in e.value.cards.keys() {
            if !names.contains(k) {
                return Err(at(path, l, c, format!("expect.cards: unknown card `{k}`")));
            }
        }
        for k in e.value.piles.keys() {
            if swccg::state::parse_pile_name(k).is_none() {
                return Err(at(
                    path,
                    l,
                    c,
                    format!("expect.piles: `{k}` is not a pile like light.used_pile"),
                ));
            }
        }
        for (k, m) in &e.value.force {
            if k != "light" && k != "dark" {
                return Err(at(
                    path,
                    l,
                    c,
                    format!("expect.force: `{k}` is not light or dark"),
                ));
            }
            for f in m.keys() {
                if !FORCE_KEYS.contains(&f.as_str()) {
                    return Err(at(
                        path,
                        l,
                        c,
                        format!(
                            "expect.force.{k}: `{f}` is not one of {}",
                            FORCE_KEYS.join(", ")
                        ),
                    ));
                }
            }
        }
        if let Some(o) = &e.value.outcome
            && !OUTCOMES.contains(&o.as_str())
        {
            return Err(at(
                path,
                l,
                c,
                format!(
                    "expect.outcome: `{o}` is not one of {}",
                    OUTCOMES.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

const FORCE_KEYS: &[&str] = &[
    "used",
    "lost",
    "activated",
    "retrieved",
    "drawn",
    "force_pile",
    "reserve_deck",
    "hand",
];
const OUTCOMES: &[&str] = &[
    "complete",
    "phase_ended",
    "needs_decision",
    "not_modelled",
    "step_limit",
];

fn check_board(path: &Path, b: &Board, locations: &mut BTreeSet<String>) -> Result<()> {
    if let Some(t) = &b.through
        && t.value.index() < b.phase.index()
    {
        return Err(at(
            path,
            t.referenced.line(),
            t.referenced.column(),
            format!(
                "through: the {} phase comes before the starting {} phase",
                t.value.as_str(),
                b.phase.as_str()
            ),
        ));
    }
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut place = |n: &serde_saphyr::Spanned<String>| -> Result<()> {
        if !b.cards.contains_key(&n.value) {
            return Err(at(
                path,
                n.referenced.line(),
                n.referenced.column(),
                format!("unknown card `{}` (not in `cards:`)", n.value),
            ));
        }
        if !seen.insert(n.value.clone()) {
            return Err(at(
                path,
                n.referenced.line(),
                n.referenced.column(),
                format!(
                    "card `{}` is placed twice (each key is one physical card)",
                    n.value
                ),
            ));
        }
        Ok(())
    };
    for piles in [&b.light, &b.dark] {
        for list in [
            &piles.reserve_deck,
            &piles.force_pile,
            &piles.used_pile,
            &piles.lost_pile,
            &piles.hand,
            &piles.out_of_play,
        ] {
            for n in list {
                place(n)?;
            }
        }
    }
    fn walk(
        p: &Placed,
        f: &mut dyn FnMut(&serde_saphyr::Spanned<String>) -> Result<()>,
    ) -> Result<()> {
        f(&p.card)?;
        for x in &p.on {
            walk(x, f)?;
        }
        Ok(())
    }
    for l in &b.locations {
        if !locations.insert(l.name.clone()) || b.cards.contains_key(&l.name) {
            return Err(at(
                path,
                0,
                0,
                format!("location name `{}` is used twice", l.name),
            ));
        }
        for p in &l.cards {
            walk(p, &mut place)?;
        }
    }
    for p in &b.table {
        walk(p, &mut place)?;
    }
    for p in &b.stack {
        if let Some(a) = &p.at
            && !locations.contains(a)
        {
            return Err(at(
                path,
                0,
                0,
                format!("stack: `{}` is at unknown location `{a}`", p.label),
            ));
        }
    }
    for (k, d) in &b.cards {
        for (i, ab) in d.value.abilities.iter().enumerate() {
            for t in &ab.targets {
                let _ = t;
            }
            if matches!(
                ab.kind,
                model::AbilityKind::Response
                    | model::AbilityKind::Automatic
                    | model::AbilityKind::Before
            ) && ab.responds_to.is_none()
            {
                return Err(at(
                    path,
                    d.referenced.line(),
                    d.referenced.column(),
                    format!(
                        "card `{k}` ability {}: a {} needs `responds_to:`",
                        i + 1,
                        ab.kind.as_str()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Run a scenario and check its expectations.
pub fn run(s: &Scenario) -> Report {
    let d = &s.data;
    let base = Report {
        scenario: s.file.display().to_string(),
        title: d.title.clone(),
        game: d.game.as_str(),
        source: d.source.as_ref().map(|x| x.value.clone()),
        verdict: Verdict::Unchecked,
        steps: Vec::new(),
        outcome: serde_json::json!({"end": "not_modelled", "text": format!("engine for {} not modelled yet", d.game.as_str())}),
        expectations: Vec::new(),
    };
    if let Some(case) = swccg::battle_scenario::case_of(d) {
        return swccg::battle_scenario::report(d, &case, base);
    }
    let Some(board) = &d.swccg else {
        let mut t = Trace::default();
        t.push(
            0,
            Actor::Rules,
            Event::NotModelled,
            format!("engine for {} not modelled yet", d.game.as_str()),
            &[],
        );
        return Report {
            steps: t.steps,
            ..base
        };
    };
    let script: Vec<swccg::Decision> = d
        .script
        .iter()
        .enumerate()
        .filter_map(|(i, st)| {
            swccg::decision(
                i + 1,
                st.referenced.line(),
                st.referenced.column(),
                &st.value,
            )
        })
        .collect();
    let run = swccg::run(board, script);
    let expectations = expectations(d, &run);
    let verdict = if expectations.iter().all(|e| e.ok) {
        Verdict::Pass
    } else {
        Verdict::Fail
    };
    let mut outcome = serde_json::to_value(&run.outcome).unwrap_or(serde_json::Value::Null);
    if let serde_json::Value::Object(m) = &mut outcome {
        m.insert(
            "text".into(),
            serde_json::Value::String(run.outcome.sentence()),
        );
        m.insert("stack".into(), serde_json::json!(run.stack));
        m.insert("next".into(), serde_json::json!(run.next));
        m.insert("resolved".into(), serde_json::json!(run.resolved));
        m.insert("canceled".into(), serde_json::json!(run.canceled));
        m.insert("illegal".into(), serde_json::json!(run.illegal));
        m.insert("leftover".into(), serde_json::json!(run.leftover));
    }
    Report {
        steps: run.trace.steps,
        outcome,
        expectations,
        verdict,
        ..base
    }
}

fn exp(
    path: impl Into<String>,
    expected: serde_json::Value,
    actual: serde_json::Value,
) -> Expectation {
    let ok = expected == actual;
    Expectation {
        path: path.into(),
        expected,
        actual,
        ok,
    }
}

fn expectations(d: &ScenarioFile, run: &swccg::Run) -> Vec<Expectation> {
    use serde_json::json;
    let e = d
        .expect
        .as_ref()
        .map(|x| x.value.clone())
        .unwrap_or_default();
    let st = &run.state;
    let mut out = Vec::new();
    // Strict defaults: the run completes, nothing is rejected, nothing is left over.
    let outcome = e.outcome.clone().unwrap_or_else(|| "complete".into());
    let mut actual_outcome = run.outcome.key().to_string();
    if outcome == "phase_ended" && matches!(run.outcome, Outcome::PhaseEnded { .. }) {
        actual_outcome = "phase_ended".into();
    }
    out.push(exp("outcome", json!(outcome), json!(actual_outcome)));
    for (k, want) in &e.cards {
        let actual = st.find(k).map(|c| st.where_is(c)).unwrap_or_default();
        out.push(exp(format!("cards.{k}"), json!(want), json!(actual)));
    }
    for (k, want) in &e.piles {
        out.push(exp(
            format!("piles.{k}"),
            json!(want),
            json!(st.pile_by_name(k).unwrap_or_default()),
        ));
    }
    for (side, m) in &e.force {
        let s = if side == "light" {
            model::Side::Light
        } else {
            model::Side::Dark
        };
        let f = st.force[s.ix()];
        for (k, want) in m {
            let actual = match k.as_str() {
                "used" => f.used,
                "lost" => f.lost,
                "activated" => f.activated,
                "retrieved" => f.retrieved,
                "drawn" => f.drawn,
                "force_pile" => st.pile_len(s, model::PileName::ForcePile) as i64,
                "reserve_deck" => st.pile_len(s, model::PileName::ReserveDeck) as i64,
                "hand" => st.pile_len(s, model::PileName::Hand) as i64,
                _ => i64::MIN,
            };
            out.push(exp(format!("force.{side}.{k}"), json!(want), json!(actual)));
        }
    }
    if let Some(r) = &e.resolved {
        out.push(exp("resolved", json!(r), json!(run.resolved)));
    }
    if let Some(c) = &e.canceled {
        out.push(exp("canceled", json!(c), json!(run.canceled)));
    }
    let want_illegal: Vec<serde_json::Value> = e
        .illegal
        .iter()
        .map(|i| json!({"step": i.step, "rule": i.rule}))
        .collect();
    let got_illegal: Vec<serde_json::Value> = run
        .illegal
        .iter()
        .map(|i| json!({"step": i.step, "rule": i.rule}))
        .collect();
    out.push(exp("illegal", json!(want_illegal), json!(got_illegal)));
    if let Some(s) = &e.stack {
        out.push(exp("stack", json!(s), json!(run.stack)));
    }
    if let Some(n) = e.next {
        out.push(exp("next", json!(n), json!(run.next)));
    }
    out.push(exp(
        "leftover",
        json!(e.leftover.unwrap_or(0)),
        json!(run.leftover),
    ));
    if let Some(ds) = &e.destinies {
        out.push(exp("destinies", json!(ds), json!(run.destinies)));
    }
    for want in &e.trace_contains {
        let found = run
            .trace
            .steps
            .iter()
            .any(|s| s.text.contains(want.as_str()));
        out.push(Expectation {
            path: "trace_contains".into(),
            expected: json!(want),
            actual: json!(if found {
                want.clone()
            } else {
                "(not in trace)".to_string()
            }),
            ok: found,
        });
    }
    out
}

/// Every `*.yaml` file under the paths, recursively, sorted.
pub fn find_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_file() {
            out.push(p.clone());
            continue;
        }
        if !p.is_dir() {
            return Err(Error::Usage(format!(
                "{}: no such file or directory",
                p.display()
            )));
        }
        walk(p, &mut out)?;
    }
    out.sort();
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() && !p.is_symlink() {
            walk(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            out.push(p);
        }
    }
    Ok(())
}
