//! Search: the page (updated as one types, through the results fragment) and
//! `/api/search`, which returns what `swjudge search --json` prints.

use super::App;
use super::page::{self, ApiQuery, Nav, PageQuery};
use crate::index::{DocKind, Hit, Origin, Query};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use maud::{Markup, html};
use serde::Deserialize;
use std::sync::Arc;

/// Hits a page shows.
const PAGE_LIMIT: usize = 20;

/// The search form's fields, as they appear in a shared URL.
#[derive(Debug, Default, Deserialize)]
pub struct Form {
    #[serde(default)]
    q: String,
    #[serde(default)]
    game: String,
    #[serde(default)]
    kind: String,
    limit: Option<String>,
}

/// What a search came to.
enum Answer {
    /// No question yet.
    Empty,
    Bad(String),
    /// Nothing found, and the misspelt words read as meant.
    Nothing(String, Vec<(String, String)>),
    Hits(Vec<Hit>, Vec<(String, String)>),
}

/// The request as a [`Query`]; `None` when the question is blank.
fn query(f: &Form, default_limit: usize) -> Result<Option<Query>, String> {
    let game = page::game_choice(&f.game, true)?;
    let kind = match f.kind.trim() {
        "" | "all" => None,
        k => Some(DocKind::parse(k).ok_or_else(|| {
            let all: Vec<&str> = DocKind::ALL.iter().map(|k| k.as_str()).collect();
            format!("unknown kind \"{k}\" (expected one of {})", all.join(", "))
        })?),
    };
    let limit = match f.limit.as_deref().map(str::trim) {
        None | Some("") => default_limit,
        Some(n) => n
            .parse::<usize>()
            .map_err(|_| format!("limit must be a number (got \"{n}\")"))?,
    };
    if f.q.trim().is_empty() {
        return Ok(None);
    }
    let q = Query {
        text: f.q.clone(),
        game,
        kind,
        limit,
    };
    q.validate().map_err(|e| e.to_string())?;
    Ok(Some(q))
}

fn answer(app: &App, f: &Form) -> Answer {
    let q = match query(f, PAGE_LIMIT) {
        Ok(Some(q)) => q,
        Ok(None) => return Answer::Empty,
        Err(e) => return Answer::Bad(e),
    };
    match app.search(&q) {
        Ok(found) if found.hits.is_empty() => {
            let scope = match (q.game, q.kind) {
                (Some(g), Some(k)) => format!(" in {} ({k})", g.title()),
                (Some(g), None) => format!(" in {}", g.title()),
                (None, Some(k)) => format!(" ({k})"),
                (None, None) => String::new(),
            };
            Answer::Nothing(
                format!(
                    "Nothing found for \"{}\"{scope}: no section or card covers enough of the question.",
                    q.text.trim()
                ),
                found.read_as,
            )
        }
        Ok(found) => Answer::Hits(found.hits, found.read_as),
        Err(e) => Answer::Bad(e.to_string()),
    }
}

/// `/search?q=…&game=…&kind=…`: the form and, for a question, its results.
pub async fn page(State(app): State<Arc<App>>, PageQuery(f): PageQuery<Form>) -> Response {
    let a = answer(&app, &f);
    let status = if matches!(a, Answer::Bad(_)) {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    };
    let title = if f.q.trim().is_empty() {
        "Search".to_string()
    } else {
        format!("{} — search", f.q.trim())
    };
    let body = html! {
        h1 { "Search the rules, rulings and cards" }
        (search_form(&f))
        div #results aria-live="polite" { (results(&a)) }
    };
    page::page(status, &title, Nav::Search, body)
}

/// `/search/results?…`: the results alone, for the page to swap in as one types.
pub async fn fragment(State(app): State<Arc<App>>, PageQuery(f): PageQuery<Form>) -> Response {
    let a = answer(&app, &f);
    page::html(StatusCode::OK, results(&a))
}

/// `/api/search?q=…`: the hits as `swjudge search --json` prints them (an empty list
/// when nothing is found); a bad request is `{"error": …}` with status 400.
pub async fn api(State(app): State<Arc<App>>, ApiQuery(f): ApiQuery<Form>) -> Response {
    let q = match query(&f, 10) {
        Ok(Some(q)) => q,
        Ok(None) => {
            return page::json_error(
                StatusCode::BAD_REQUEST,
                "empty query: give one or more words to search for",
            );
        }
        Err(e) => return page::json_error(StatusCode::BAD_REQUEST, &e),
    };
    match app.search(&q) {
        Ok(found) => page::json(StatusCode::OK, &found.hits),
        Err(e) => page::json_error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

fn search_form(f: &Form) -> Markup {
    let kind = f.kind.trim();
    html! {
        form #search-form role="search" action="/search" method="get" {
            div.field.grow {
                label for="q" { "Question, rule or card name" }
                input #q type="search" name="q" value=(f.q) autocomplete="off" autofocus
                    placeholder="can I react to my own battle?" aria-describedby="q-hint";
                small #q-hint { "Results update as you type." }
            }
            (page::game_field("All games", f.game.trim()))
            div.field {
                label for="kind" { "Kind" }
                select #kind name="kind" {
                    option value="" selected[kind.is_empty()] { "Everything" }
                    @for k in DocKind::ALL {
                        option value=(k.as_str()) selected[kind == k.as_str()] { (k.as_str()) }
                    }
                }
            }
            button type="submit" { "Search" }
        }
    }
}

/// Which group a hit is listed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Group {
    Rules,
    Rulings,
    Cards,
}

impl Group {
    fn of(h: &Hit) -> Group {
        match (&h.source, h.kind) {
            (Origin::Database { .. }, DocKind::Card) => Group::Cards,
            (Origin::Database { .. }, _) | (_, DocKind::Ruling | DocKind::Errata) => Group::Rulings,
            _ => Group::Rules,
        }
    }

    fn heading(self) -> &'static str {
        match self {
            Group::Rules => "Rule sections",
            Group::Rulings => "Card rulings and errata",
            Group::Cards => "Cards",
        }
    }
}

fn results(a: &Answer) -> Markup {
    match a {
        Answer::Empty => html! {
            p.hint { "Type a question as you would say it: \"battle destiny\", \"maximum shields\", a card's name." }
        },
        Answer::Bad(msg) => html! { p.error role="alert" { (msg) } },
        Answer::Nothing(msg, read) => html! {
            (read_as(read))
            p.nothing role="status" { (msg) }
        },
        Answer::Hits(hits, read) => html! {
            (read_as(read))
            p.count role="status" { (hits.len()) " found" }
            @for g in [Group::Rules, Group::Rulings, Group::Cards] {
                @let list: Vec<&Hit> = hits.iter().filter(|h| Group::of(h) == g).collect();
                @if !list.is_empty() {
                    section.group aria-label=(g.heading()) {
                        h2 { (g.heading()) " (" (list.len()) ")" }
                        ol.hits { @for h in list { (hit(h)) } }
                    }
                }
            }
        },
    }
}

/// The misspelt words the search read as the word meant.
fn read_as(read: &[(String, String)]) -> Markup {
    html! {
        @for (typed, meant) in read {
            p.read-as { "Read \u{201c}" (typed) "\u{201d} as \u{201c}" strong { (meant) } "\u{201d}." }
        }
    }
}

/// Where a hit links to: its section, or its card (at the ruling or erratum).
fn hit_link(h: &Hit) -> String {
    match &h.source {
        Origin::Rulebook { section } => format!("/rule/{}", url_path(section)),
        Origin::Database { card, position, .. } => {
            let anchor = match (h.kind, position) {
                (DocKind::Errata, Some(n)) => format!("#errata-{n}"),
                (DocKind::Ruling, Some(n)) => format!("#ruling-{n}"),
                _ => String::new(),
            };
            format!("/card/{}{anchor}", url_path(&format!("{}:{card}", h.game)))
        }
    }
}

fn source_text(h: &Hit) -> String {
    match &h.source {
        Origin::Rulebook { section } => section.clone(),
        Origin::Database {
            file,
            card,
            position,
        } => match position {
            Some(n) => format!("{file}#{card}, {} {n}", h.kind),
            None => format!("{file}#{card}"),
        },
    }
}

fn hit(h: &Hit) -> Markup {
    html! {
        li.hit {
            h3 {
                a href=(hit_link(h)) { (h.title) }
                " " span.tag { (h.game.as_str()) }
                @if h.kind != DocKind::Rule { " " span.tag { (h.kind.as_str()) } }
                @if h.superseded { " " span.tag.superseded { "superseded" } }
            }
            p.crumbs { (h.breadcrumb.join(" › ")) }
            p.snippet { (highlighted(&h.snippet, &h.highlights)) }
            @if !h.see.is_empty() {
                p.see { "See " @for (i, id) in h.see.iter().enumerate() {
                    @if i > 0 { ", " } (super::markdown::rule_link(id, id))
                } }
            }
            p.source { "Source: " code { (source_text(h)) } }
        }
    }
}

/// The snippet with its matched words marked.
fn highlighted(snippet: &str, ranges: &[std::ops::Range<usize>]) -> Markup {
    let mut parts: Vec<(&str, bool)> = Vec::new();
    let mut at = 0;
    for r in ranges {
        if r.start < at
            || r.end > snippet.len()
            || !snippet.is_char_boundary(r.start)
            || !snippet.is_char_boundary(r.end)
        {
            continue;
        }
        parts.push((&snippet[at..r.start], false));
        parts.push((&snippet[r.start..r.end], true));
        at = r.end;
    }
    parts.push((&snippet[at..], false));
    html! {
        @for (text, mark) in parts {
            @if mark { mark { (text) } } @else { (text) }
        }
    }
}

/// `text` percent-encoded for a URL path segment (letters, digits and `-._~:` kept).
pub fn url_path(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~:".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
