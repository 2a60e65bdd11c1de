//! A card: `/card/<reference or name>` and `/api/card/<…>` (what `swjudge card
//! --json` prints). An ambiguous name lists the cards to choose from.

use super::App;
use super::markdown::{cite, rule_link};
use super::page::{self, Nav, PageQuery};
use super::search::url_path;
use crate::cards::{Entry, Match};
use crate::render::card::{CardReport, CardView};
use crate::rulebook::lint::normalize;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde::Deserialize;
use std::sync::Arc;

/// Longest card name accepted (real titles stay well under 100 characters).
const MAX_NAME_CHARS: usize = 200;
/// "See also" sections shown, as `swjudge card` shows by default.
const SEE_ALSO: usize = 8;

fn report(app: &App, name: &str) -> Result<CardReport, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(
            "empty card name: give a card title, a nickname or a reference such as swccg:1098"
                .into(),
        );
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "card name is {} characters long; the limit is {MAX_NAME_CHARS}",
            name.chars().count()
        ));
    }
    let lookup = app.cards.lookup(name, None);
    Ok(CardReport::new(&app.cards, &lookup, SEE_ALSO))
}

#[derive(Debug, Default, Deserialize)]
pub struct NameForm {
    #[serde(default)]
    name: String,
}

/// `/card?name=…` goes to the card's page; `/card` alone is the lookup form.
pub async fn form(State(app): State<Arc<App>>, PageQuery(q): PageQuery<NameForm>) -> Response {
    let name = q.name;
    if !name.trim().is_empty() {
        return Redirect::to(&format!("/card/{}", url_path(name.trim()))).into_response();
    }
    let body = html! {
        h1 { "Look a card up" }
        (name_form(""))
        @if app.cards.is_empty() { (no_data()) }
    };
    page::page(StatusCode::OK, "Cards", Nav::Card, body)
}

fn name_form(value: &str) -> Markup {
    html! {
        form.inline action="/card" method="get" role="search" {
            div.field.grow {
                label for="name" { "Card name or reference" }
                input #name type="search" name="name" value=(value) placeholder="obi wans cape, swccg:1098" autocomplete="off";
            }
            button type="submit" { "Look up" }
        }
    }
}

fn no_data() -> Markup {
    html! {
        p.hint { "No card database is imported: run " code { "swjudge cards import FILE…" } " and restart the server." }
    }
}

pub async fn page(State(app): State<Arc<App>>, Path(name): Path<String>) -> Response {
    let r = match report(&app, &name) {
        Ok(r) => r,
        Err(msg) => {
            return page::error_page(StatusCode::BAD_REQUEST, "Not a card name", &msg, Nav::Card);
        }
    };
    let status = if r.found() || !r.matches.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::NOT_FOUND
    };
    let title = r
        .card
        .as_ref()
        .map_or_else(|| name.trim().to_string(), |c| c.label.clone());
    page::page(status, &title, Nav::Card, body(&app, &r))
}

pub async fn api(State(app): State<Arc<App>>, Path(name): Path<String>) -> Response {
    match report(&app, &name) {
        Ok(r) => {
            let status = if r.found() {
                StatusCode::OK
            } else {
                StatusCode::NOT_FOUND
            };
            page::json(status, &r)
        }
        Err(msg) => page::json_error(StatusCode::BAD_REQUEST, &msg),
    }
}

fn body(app: &App, r: &CardReport) -> Markup {
    html! {
        @if let Some(c) = &r.card {
            (card(app, c))
        } @else if !r.by_game.is_empty() {
            h1 { "“" (r.query) "” in several games" }
            @for g in &r.by_game {
                section.game aria-label=(g.game.title()) {
                    h2 { (g.game.title()) }
                    @if let Some(c) = &g.card { (card(app, c)) }
                    @else { (choices(&g.candidates)) }
                }
            }
        } @else if !r.matches.is_empty() {
            h1 { "Which card?" }
            p role="status" { "Several cards could be meant by “" (r.query) "”. Choose one:" }
            (choices(&r.matches))
        } @else {
            h1 { "No such card" }
            p.nothing role="alert" { "No card matches “" (r.query) "”." }
            @if app.cards.is_empty() { (no_data()) }
            (name_form(&r.query))
        }
    }
}

fn choices(list: &[Match]) -> Markup {
    html! {
        ul.choices {
            @for m in list {
                li {
                    a href={ "/card/" (url_path(&m.reference)) } { (m.title) }
                    " " span.tag { (m.game.as_str()) } " " code { (m.reference) }
                }
            }
        }
    }
}

fn entries(app: &App, kind: &str, list: &[Entry]) -> Markup {
    html! {
        ol.entries {
            @for (i, e) in list.iter().enumerate() {
                li id={ (kind) "-" (i + 1) } {
                    p { (e.text) }
                    p.source { "Source: " (cite(&app.corpus, &e.source)) }
                }
            }
        }
    }
}

fn card(app: &App, c: &CardView) -> Markup {
    let errata = c
        .text_source
        .as_deref()
        .is_some_and(|s| s.starts_with("errata"));
    let uses = app
        .uses
        .get(&normalize(&c.title))
        .map(Vec::as_slice)
        .unwrap_or_default();
    html! {
        article.card {
            h1 { (c.uniqueness.as_deref().unwrap_or("")) (c.title) }
            p.meta {
                span.tag { (c.game.as_str()) } " " code { (c.reference) }
                @for part in [&c.side, &c.card_type, &c.subtype, &c.set].into_iter().flatten() { " · " (part) }
                @if let Some(n) = &c.number { " · #" (n) }
            }
            @if let Some(s) = &c.subtitle { p.subtitle { (s) } }
            @if !c.stats.is_empty() {
                dl.stats { @for (k, v) in c.stats.iter() { div { dt { (k) } dd { (v) } } } }
            }
            @if !c.die.is_empty() {
                h2 { "Die" }
                ul.die { @for f in &c.die { li { code { (f.face) } " " (f.meaning) } } }
            }
            @if let Some(t) = &c.text {
                section.cardtext aria-label="Game text" {
                    h2 { "Game text" @if errata { " " span.tag.errata { "errata" } } }
                    p.gametext { (t) }
                    @if let Some(src) = &c.text_source { p.source { "Text: " (src) } }
                    @if let Some(p) = &c.printed_text {
                        details { summary { "Printed text (replaced by the erratum)" } p.printed { (p) } }
                    }
                }
            }
            @if let Some(b) = &c.back {
                section aria-label="Back" { h2 { "Back: " (b.title) } @if let Some(t) = &b.text { p { (t) } } }
            }
            @if !c.icons.is_empty() { p { "Icons: " (c.icons.join(", ")) } }
            @if !c.characteristics.is_empty() { p { "Characteristics: " (c.characteristics.join(", ")) } }
            @if let Some(l) = &c.lore { p.lore { (l) } }
            @if !c.errata.is_empty() {
                section aria-label="Errata" { h2 { "Errata (" (c.errata.len()) ")" } (entries(app, "errata", &c.errata)) }
            }
            section aria-label="Rulings" {
                h2 { "Rulings (" (c.rulings.len()) ")" }
                @if c.rulings.is_empty() { p.hint { "No rulings on this card." } }
                @else { (entries(app, "ruling", &c.rulings)) }
            }
            @if !c.see_also.is_empty() {
                section aria-label="See also" {
                    h2 { "See also" }
                    ul { @for s in &c.see_also { li { (rule_link(&s.id, &s.title)) " " code { (s.id) } } } }
                }
            }
            @if !uses.is_empty() {
                section aria-label="Scenarios using this card" {
                    h2 { "Scenarios using this card" }
                    ul { @for f in uses { li { a href=(super::check::scenario_link(f)) { (f) } } } }
                }
            }
            @if !c.nicknames.is_empty() { p { "Also called: " (c.nicknames.join(", ")) } }
            p.source { "Record: " code { (c.source) } }
        }
    }
}
