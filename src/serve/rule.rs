//! A rule: `/rule/<id>` and `/api/rule/<id>` (what `swjudge rule --json` prints).

use super::App;
use super::markdown::{render, rule_link};
use super::page::{self, Nav};
use crate::render::rule::RuleView;
use crate::rulebook::lookup::{self, NotFound};
use crate::rulebook::{Corpus, Kind, Section};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use std::sync::Arc;

/// The section asked for, or why there is none.
enum Found<'c> {
    Section(&'c Section),
    Missing(NotFound),
    Bad(String),
}

fn find<'c>(corpus: &'c Corpus, id: &str) -> Found<'c> {
    let wanted = match lookup::check_id(id) {
        Ok(w) => w,
        Err(e) => return Found::Bad(e.to_string()),
    };
    match lookup::find(corpus, wanted) {
        Ok(Some((s, _))) => Found::Section(s),
        Ok(None) => Found::Missing(NotFound::new(corpus, wanted)),
        Err(e) => Found::Bad(e.to_string()),
    }
}

pub async fn page(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    match find(&app.corpus, &id) {
        Found::Section(s) if s.id != id => {
            Redirect::permanent(&format!("/rule/{}", super::search::url_path(&s.id)))
                .into_response()
        }
        Found::Section(s) => {
            let view = RuleView::new(&app.corpus, s);
            let title = format!("{} — {}", view.title, view.id);
            page::page(
                StatusCode::OK,
                &title,
                Nav::Search,
                body(&app.corpus, &view),
            )
        }
        Found::Missing(nf) => {
            let body = html! {
                h1 { "No such rule" }
                p.error role="alert" { "No section has the ID " code { (nf.query) } "." }
                @if !nf.did_you_mean.is_empty() {
                    h2 { "Did you mean" }
                    ul { @for id in &nf.did_you_mean { li { (rule_link(id, id)) } } }
                }
                p { a href={ "/search?q=" (super::search::url_path(&nf.query)) } { "Search for it instead" } }
            };
            page::page(StatusCode::NOT_FOUND, "No such rule", Nav::Search, body)
        }
        Found::Bad(msg) => {
            page::error_page(StatusCode::BAD_REQUEST, "Not a rule ID", &msg, Nav::Search)
        }
    }
}

pub async fn api(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    match find(&app.corpus, &id) {
        Found::Section(s) => page::json(StatusCode::OK, &RuleView::new(&app.corpus, s)),
        Found::Missing(nf) => page::json(StatusCode::NOT_FOUND, &nf),
        Found::Bad(msg) => page::json_error(StatusCode::BAD_REQUEST, &msg),
    }
}

/// The breadcrumb: the document, then each ancestor as a link, then the section.
fn breadcrumb(corpus: &Corpus, v: &RuleView) -> Markup {
    let mut chain: Vec<&Section> = std::iter::successors(corpus.get(&v.id), |s| {
        s.parent.as_deref().and_then(|id| corpus.get(id))
    })
    .skip(1)
    .collect();
    chain.reverse();
    let document = v.breadcrumb.first().cloned().unwrap_or_default();
    html! {
        nav.crumbs aria-label="Breadcrumb" {
            ol {
                li { (document) }
                @for s in chain { li { (rule_link(&s.id, &s.title)) } }
                li aria-current="page" { (v.title) }
            }
        }
    }
}

fn body(corpus: &Corpus, v: &RuleView) -> Markup {
    html! {
        (breadcrumb(corpus, v))
        article.rule {
            h1 {
                (v.title)
                @if v.kind != Kind::Rule { " " span.tag { (v.kind.as_str()) } }
            }
            p.meta { code { (v.id) } " · " (v.game.title()) " · " (v.file) ":" (v.line) }
            @if v.superseded {
                p.superseded role="note" {
                    strong { "Superseded. " }
                    "This document is no longer current; the current rulebook of the game takes precedence."
                }
            }
            @if v.text.trim().is_empty() {
                p.hint { "This heading has no text of its own; see its subsections." }
            } @else {
                div.text { (render(&v.text, corpus, &v.cross_references)) }
            }
            @for e in &v.examples {
                section.example id=(e.id) aria-label={ "Example: " (e.title) } {
                    h2 { "Example: " (rule_link(&e.id, &e.title)) }
                    div.text { (render(&e.text, corpus, &v.cross_references)) }
                }
            }
            @if !v.children.is_empty() {
                section aria-label="Subsections" {
                    h2 { "Subsections" }
                    ul.children {
                        @for c in &v.children {
                            li {
                                (rule_link(&c.id, &c.title))
                                @if c.kind != Kind::Rule { " " span.tag { (c.kind.as_str()) } }
                            }
                        }
                    }
                }
            }
            @if !v.cross_references.is_empty() {
                section aria-label="Cross-references" {
                    h2 { "Cross-references" }
                    ul.refs {
                        @for r in &v.cross_references {
                            li {
                                @match &r.id {
                                    Some(id) => { (rule_link(id, &r.text)) " → " code { (id) } },
                                    None => { (r.text) " " span.tag { "not in the rulebooks" } },
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
