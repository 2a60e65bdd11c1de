//! Checking a scenario: a shipped one (`/check/<path under scenarios/>`), or one
//! pasted or uploaded (`POST /check`, `POST /api/check`). Each check runs on a
//! blocking thread, at most a few at once, within the configured time limit.

use super::markdown::rule_link;
use super::page::{self, Nav, PageQuery};
use super::search::url_path;
use super::{App, Checked, too_slow_page};
use crate::render::summary::{Line as SummaryLine, Summary};
use crate::rulebook::lint::normalize;
use crate::scenario::{self, Report, SectionIds, Verdict, expect::compact};
use axum::extract::rejection::{FormRejection, StringRejection};
use axum::extract::{Form, Path as UrlPath, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use regex::Regex;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, LazyLock};

/// The name pasted YAML is given in messages.
const PASTED: &str = "pasted.yaml";

/// A card named on a board: `title: Name` inside a card's mapping.
static CARD_TITLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"[{,\s]title:\s*(?:"([^"\n]*)"|'([^'\n]*)'|([^,}\n#]+))"#).expect("valid regex")
});

/// `file:line:column: message`, as every load error is written.
static AT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(.*?):(\d+):(\d+): (.*)$").expect("valid regex"));

/// Card titles (normalised) named on shipped scenarios' boards, with the files naming each.
pub type CardUses = HashMap<String, Vec<String>>;

/// The shipped scenario files under `root` (relative, with `/`), and the card
/// titles their boards name (normalised) with the files naming each.
pub fn shipped(root: &Path) -> crate::Result<(Vec<String>, CardUses)> {
    let mut files = Vec::new();
    let mut uses = CardUses::new();
    for f in scenario::find_files(&[root.to_path_buf()])? {
        let Ok(rel) = f.strip_prefix(root) else {
            continue;
        };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if let Ok(text) = crate::yaml::read_text(&f) {
            for line in text.lines().filter(|l| l.starts_with([' ', '\t'])) {
                for c in CARD_TITLE.captures_iter(line) {
                    let title = c
                        .get(1)
                        .or(c.get(2))
                        .or(c.get(3))
                        .map_or("", |m| m.as_str());
                    let key = normalize(title.trim());
                    let list = uses.entry(key).or_default();
                    if list.last() != Some(&rel) {
                        list.push(rel.clone());
                    }
                }
            }
        }
        files.push(rel);
    }
    uses.remove("");
    Ok((files, uses))
}

/// What to check: pasted text, or a shipped file (its path as shown, and as read).
enum Input {
    Text(String),
    File(PathBuf, PathBuf),
}

/// Load and run `input` on a blocking thread, within the time limit.
async fn check(app: &Arc<App>, input: Input) -> Checked<Report> {
    let job = move |app: &App| {
        let ids = Some(&app.corpus as &dyn SectionIds);
        let loaded = match &input {
            Input::Text(t) => scenario::load_str(Path::new(PASTED), t, ids),
            Input::File(shown, real) => crate::yaml::read_text(real)
                .map_err(|e| {
                    crate::Error::Input(
                        e.to_string()
                            .replace(&real.display().to_string(), &shown.display().to_string()),
                    )
                })
                .and_then(|t| scenario::load_str(shown, &t, ids)),
        };
        loaded.map(|s| scenario::run(&s)).map_err(|e| e.to_string())
    };
    super::limited(app, job).await
}

/// Why a shipped path is not served.
struct Refused(StatusCode, String);

/// `rel` as a shipped scenario: only plain names inside the scenarios folder,
/// never one that leaves it (`..`, an absolute path, a link pointing out).
fn resolve(app: &App, rel: &str) -> Result<Input, Refused> {
    let Some((given, root)) = &app.scenarios else {
        return Err(Refused(
            StatusCode::NOT_FOUND,
            "this server has no scenarios folder".into(),
        ));
    };
    let leaves = || {
        Refused(
            StatusCode::FORBIDDEN,
            format!("refused: {rel} is not a path inside the scenarios folder"),
        )
    };
    if rel.is_empty() || rel.contains(['\\', '\0']) {
        return Err(leaves());
    }
    let path = Path::new(rel);
    if !path.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(leaves());
    }
    let real = root.join(path).canonicalize().map_err(|_| {
        Refused(
            StatusCode::NOT_FOUND,
            format!("no scenario {rel} in the scenarios folder"),
        )
    })?;
    if !real.starts_with(root) {
        return Err(leaves());
    }
    if !real.is_file() || !real.extension().is_some_and(|e| e == "yaml" || e == "yml") {
        return Err(Refused(
            StatusCode::NOT_FOUND,
            format!("{rel} is not a scenario file"),
        ));
    }
    Ok(Input::File(given.join(path), real))
}

/// A shipped scenario's page link.
pub fn scenario_link(rel: &str) -> String {
    let parts: Vec<String> = rel.split('/').map(url_path).collect();
    format!("/check/{}", parts.join("/"))
}

/// `/check`: choose a shipped scenario, or paste or upload one.
pub async fn form(State(app): State<Arc<App>>) -> Response {
    let body = check_forms(&app, "");
    page::page(StatusCode::OK, "Check a scenario", Nav::Check, body)
}

fn check_forms(app: &App, pasted: &str) -> Markup {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for f in &app.shipped {
        let top = f.split('/').next().unwrap_or("");
        match groups.last_mut() {
            Some((g, list)) if *g == top => list.push(f),
            _ => groups.push((top, vec![f])),
        }
    }
    html! {
        h1 { "Check a scenario" }
        section aria-labelledby="shipped-h" {
            h2 #shipped-h { "A shipped scenario" }
            @if app.shipped.is_empty() {
                p.hint { "No scenarios folder is served." }
            } @else {
                form.inline action="/check/open" method="get" {
                    div.field.grow {
                        label for="path" { "Scenario (" (app.shipped.len()) ")" }
                        select #path name="path" {
                            @for (g, list) in &groups {
                                optgroup label=(g) { @for f in list { option value=(f) { (f) } } }
                            }
                        }
                    }
                    button type="submit" { "Check" }
                }
            }
        }
        section aria-labelledby="paste-h" {
            h2 #paste-h { "Your own scenario" }
            form #paste-form action="/check" method="post" {
                div.field {
                    label for="yaml-file" { "Upload a YAML file" }
                    input #yaml-file type="file" accept=".yaml,.yml,text/yaml" aria-describedby="file-hint";
                    small #file-hint { "The file is read into the box below; nothing is sent until you press Check." }
                }
                div.field {
                    label for="yaml" { "Or paste the scenario's YAML" }
                    textarea #yaml name="yaml" rows="14" spellcheck="false" required { (pasted) }
                }
                button type="submit" { "Check" }
            }
            p.hint { "The format: docs/scenarios.md in the swjudge sources." }
        }
    }
}

#[derive(Debug, Default, Deserialize)]
pub struct OpenForm {
    #[serde(default)]
    path: String,
}

/// `/check/open?path=…` (the chooser's form) goes to the scenario's own page.
pub async fn open(PageQuery(q): PageQuery<OpenForm>) -> Response {
    let path = q.path;
    if path.trim().is_empty() {
        return Redirect::to("/check").into_response();
    }
    Redirect::to(&scenario_link(path.trim())).into_response()
}

/// `/check/<path>`: run a shipped scenario.
pub async fn shipped_page(State(app): State<Arc<App>>, UrlPath(rel): UrlPath<String>) -> Response {
    let input = match resolve(&app, &rel) {
        Ok(i) => i,
        Err(Refused(status, msg)) => {
            return page::error_page(status, "Scenario not served", &msg, Nav::Check);
        }
    };
    let checked = check(&app, input).await;
    result_page(&app, checked, None)
}

#[derive(Debug, Deserialize)]
pub struct PasteForm {
    yaml: String,
}

/// `POST /check`: run pasted YAML.
pub async fn pasted(
    State(app): State<Arc<App>>,
    form: Result<Form<PasteForm>, FormRejection>,
) -> Response {
    let text = match form {
        Ok(f) => f.0.yaml,
        Err(e) => {
            return page::form_refused(&e, too_large(), "Scenario not checked", Nav::Check);
        }
    };
    let checked = check(&app, Input::Text(text.clone())).await;
    result_page(&app, checked, Some(&text))
}

fn too_large() -> String {
    page::too_large("a scenario", crate::yaml::MAX_BYTES)
}

/// `POST /api/check` with the YAML as the body: what `swjudge check --json` prints.
pub async fn api(State(app): State<Arc<App>>, body: Result<String, StringRejection>) -> Response {
    let text = match page::api_body(body, too_large) {
        Ok(t) => t,
        Err(refused) => return *refused,
    };
    check(&app, Input::Text(text))
        .await
        .json(|r| page::json_text(StatusCode::OK, crate::render::trace::json(r)))
}

fn result_page(app: &App, checked: Checked<Report>, pasted: Option<&str>) -> Response {
    match checked {
        Checked::Report(r) => {
            let title = format!("{} — check", r.title);
            page::page(StatusCode::OK, &title, Nav::Check, report(&r))
        }
        Checked::Refused(msg) => {
            let body = html! {
                (load_error(&msg, pasted))
                @if let Some(t) = pasted { (check_forms(app, t)) }
            };
            page::page(
                StatusCode::BAD_REQUEST,
                "Scenario not loaded",
                Nav::Check,
                body,
            )
        }
        Checked::TooSlow(d) => too_slow_page(d, Nav::Check),
    }
}

/// A load error: its message, where it is, and the pasted lines around it.
fn load_error(msg: &str, pasted: Option<&str>) -> Markup {
    let at = AT.captures(msg).and_then(|c| {
        Some((
            c[2].parse::<usize>().ok()?,
            c[3].parse::<usize>().ok()?,
            c.get(4)?.as_str(),
        ))
    });
    html! {
        h1 { "The scenario could not be loaded" }
        div.error role="alert" {
            @if let Some((line, col, what)) = at {
                p { strong { "Line " (line) ", column " (col) ": " } (what) }
            }
            p { code { (msg) } }
        }
        @if let (Some((line, _, _)), Some(text)) = (at, pasted) {
            @let first = line.saturating_sub(3).max(1);
            pre.listing aria-label="The lines around the error" {
                @for (n, l) in text.lines().enumerate().skip(first - 1).take(line + 3 - first) {
                    @if n + 1 == line { mark { (format!("{:>4} │ {l}", n + 1)) } "\n" }
                    @else { (format!("{:>4} │ {l}", n + 1)) "\n" }
                }
            }
        }
    }
}

fn verdict(v: Verdict) -> (&'static str, &'static str) {
    match v {
        Verdict::Pass => (
            "Pass",
            "every step was computed and every expectation holds.",
        ),
        Verdict::Fail => (
            "Fail",
            "an expectation does not hold, or a decision was rejected or left over.",
        ),
        Verdict::NotModelled => (
            "Not modelled — ruling needed",
            "the run met something the engine does not model.",
        ),
    }
}

fn cites(list: &[&str]) -> Markup {
    html! { @for (i, c) in list.iter().enumerate() { @if i > 0 { ", " } (rule_link(c, c)) } }
}

/// What `swjudge check` prints by default: the disputed action, what came of
/// it with its rule, and what the run changed on the board.
fn summary(s: &Summary) -> Markup {
    let line = |l: &SummaryLine| {
        html! {
            li {
                "Step " (l.n) ", " (l.actor) ": " (l.text)
                @if let Some(c) = l.rule { " (" (rule_link(c, c)) ")" }
            }
        }
    };
    html! {
        h2 { "Summary" }
        @if let Some(d) = &s.disputed {
            p { strong { "Disputed action" } }
            ul.summary { (line(d)) }
        }
        @if !s.steps.is_empty() {
            p { strong { "What came of it" } }
            ul.summary { @for l in &s.steps { (line(l)) } }
        }
        @if !s.changed.is_empty() {
            p { strong { "What the run changed on the board" } }
            ul.summary {
                @for c in &s.changed {
                    li { code { (c.path) } ": " (compact(&c.before)) " → " (compact(&c.after)) }
                }
            }
        }
    }
}

fn report(r: &Report) -> Markup {
    let (word, why) = verdict(r.verdict);
    html! {
        h1 { (r.title) }
        p.meta {
            code { (r.scenario) } " · " (r.game)
            @if let Some(s) = &r.source { " · source " (rule_link(s, s)) }
        }
        p.verdict.(r.verdict.as_str()) role="status" { strong { (word) } ": " (why) }
        @let problems = r.problems();
        @if !problems.is_empty() { ul.problems { @for p in &problems { li { (p) } } } }
        h2 { "Expectations" }
        (page::scroll_table("Expectations", None, None, &["Expectation", "Expected", "Actual", "Result"], html! {
            @for e in &r.expectations {
                tr.(if e.ok { "ok" } else { "failed" }) {
                    th scope="row" { code { (e.path) } }
                    td { (compact(&e.expected)) }
                    td { (compact(&e.actual)) }
                    td { @if e.ok { "ok" } @else { strong { "FAILED" } } }
                }
            }
        }))
        p { strong { "Outcome: " } (r.end.text) }
        (summary(&Summary::new(r)))
        h2 { "Trace" }
        (page::scroll_table("Trace", Some("trace"), None, &["#", "Player", "Step", "Rules"], html! {
            @for s in &r.steps {
                tr {
                    td { (s.n) }
                    td { (s.actor) }
                    td.(format!("lvl-{}", s.level.min(6))) { span.event { (s.event) } " " (s.text) }
                    td.cites { (cites(&s.cites)) }
                }
            }
        }))
        @if !r.illegal.is_empty() {
            h2 { "Rejected decisions" }
            ul { @for i in &r.illegal { li { "Step " (i.step) " (line " (i.line) ", column " (i.column) "), " (i.player) ": " code { (i.decision) } " — " (i.reason) " (" (cites(&i.cites)) ")" } } }
        }
        @if !r.leftover.is_empty() {
            h2 { "Decisions never taken" }
            ul { @for l in &r.leftover { li { "Step " (l.step) " (line " (l.line) "), " (l.player) ": " code { (l.decision) } } } }
        }
        @if !r.not_modelled.is_empty() {
            h2 { "Not modelled — ruling needed" }
            ul { @for n in &r.not_modelled { li { (n) } } }
        }
        p { a href="/check" { "Check another scenario" } }
    }
}
