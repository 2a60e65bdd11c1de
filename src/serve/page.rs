//! The page frame every page shares, the responses (HTML, JSON, errors) and the
//! embedded stylesheet and script.

use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use maud::{DOCTYPE, Markup, html};
use serde::Serialize;
use serde::de::DeserializeOwned;

const CSS: &str = include_str!("assets/app.css");
const JS: &str = include_str!("assets/app.js");

/// Which section of the site a page belongs to (marked in the navigation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nav {
    Search,
    Card,
    Check,
    Deck,
    Coverage,
    None,
}

/// A whole page: head, skip link, navigation and `body` as the main content.
pub fn layout(title: &str, nav: Nav, body: Markup) -> Markup {
    let item = |target: Nav, href: &str, label: &str| {
        html! {
            li { a href=(href) aria-current=[(nav == target).then_some("page")] { (label) } }
        }
    };
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="color-scheme" content="light dark";
                title { (title) " · swjudge" }
                link rel="stylesheet" href="/static/app.css";
                script src="/static/app.js" defer {}
            }
            body {
                a.skip href="#main" { "Skip to the content" }
                header.top {
                    a.brand href="/" { "swjudge" }
                    nav aria-label="Main" {
                        ul {
                            (item(Nav::Search, "/search", "Search"))
                            (item(Nav::Card, "/card", "Cards"))
                            (item(Nav::Check, "/check", "Check a scenario"))
                            (item(Nav::Deck, "/deck", "Check a deck"))
                            (item(Nav::Coverage, "/coverage", "Coverage"))
                        }
                    }
                }
                main #main tabindex="-1" { (body) }
            }
        }
    }
}

/// A whole page (see [`layout`]) as an HTML response.
pub fn page(status: StatusCode, title: &str, nav: Nav, body: Markup) -> Response {
    html(status, layout(title, nav, body))
}

/// An HTML response.
pub fn html(status: StatusCode, markup: Markup) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        markup.into_string(),
    )
        .into_response()
}

/// A JSON response, written as the `--json` output of the matching command is
/// (pretty, ending with a newline).
pub fn json<T: Serialize>(status: StatusCode, value: &T) -> Response {
    match serde_json::to_string_pretty(value) {
        Ok(text) => json_text(status, text),
        Err(e) => json_error(StatusCode::INTERNAL_SERVER_ERROR, &format!("JSON: {e}")),
    }
}

/// JSON already written.
pub fn json_text(status: StatusCode, mut text: String) -> Response {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    (status, [(header::CONTENT_TYPE, "application/json")], text).into_response()
}

/// `{"error": "…"}`, as a command's `--json` prints an error.
pub fn json_error(status: StatusCode, message: &str) -> Response {
    json(status, &serde_json::json!({ "error": message }))
}

/// A page that says what went wrong, in one sentence.
/// Why a request body is refused as too large: `what` may be at most `limit` bytes.
pub fn too_large(what: &str, limit: usize) -> String {
    format!(
        "the request is larger than {} bytes; {what} may be at most {limit} bytes",
        super::MAX_BODY
    )
}

/// The error page for a posted form that could not be read: too large
/// (`too_large` says why) or not a form.
pub fn form_refused(
    e: &axum::extract::rejection::FormRejection,
    too_large: String,
    title: &str,
    nav: Nav,
) -> Response {
    let status = e.status();
    let msg = if status == StatusCode::PAYLOAD_TOO_LARGE {
        too_large
    } else {
        format!("the form could not be read: {}", e.body_text())
    };
    error_page(status, title, &msg, nav)
}

pub fn error_page(status: StatusCode, title: &str, message: &str, nav: Nav) -> Response {
    let body = html! {
        h1 { (title) }
        p.error role="alert" { (message) }
    };
    page(status, title, nav, body)
}

/// The body of an API request, or the JSON error that refuses it: too large
/// (`too_large` says why) or not text.
pub fn api_body(
    body: Result<String, axum::extract::rejection::StringRejection>,
    too_large: impl FnOnce() -> String,
) -> Result<String, Box<Response>> {
    body.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => json_error(StatusCode::PAYLOAD_TOO_LARGE, &too_large()),
        status => json_error(status, &e.body_text()),
    })
    .map_err(Box::new)
}

/// A page's query; one that cannot be read is taken as empty (the page then
/// shows its form).
pub struct PageQuery<T>(pub T);

impl<T: DeserializeOwned + Default, S: Send + Sync> FromRequestParts<S> for PageQuery<T> {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let q = Query::<T>::from_request_parts(parts, state).await;
        Ok(PageQuery(q.map(|q| q.0).unwrap_or_default()))
    }
}

/// An API request's query; one that cannot be read is refused with
/// `{"error": …}` and status 400.
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(q) => Ok(ApiQuery(q.0)),
            Err(e) => Err(json_error(StatusCode::BAD_REQUEST, &e.body_text())),
        }
    }
}

/// The game a form or query names: none for `""` (and for `"all"` when `all`
/// is allowed), or why the name is not a game.
pub fn game_choice(name: &str, all: bool) -> Result<Option<crate::game::Game>, String> {
    match name.trim() {
        "" => Ok(None),
        "all" if all => Ok(None),
        g => crate::game::Game::parse(g)
            .map(Some)
            .ok_or_else(|| format!("unknown game \"{g}\" (expected swccg, destiny or swtcg)")),
    }
}

/// A table in a region that scrolls sideways on a narrow screen: `label` names
/// the region, `headers` head the columns, `rows` are its body's rows.
pub fn scroll_table(
    label: &str,
    class: Option<&str>,
    caption: Option<&str>,
    headers: &[&str],
    rows: Markup,
) -> Markup {
    html! {
        div.scroll tabindex="0" role="region" aria-label=(label) {
            table class=[class] {
                @if let Some(c) = caption { caption { (c) } }
                thead { tr { @for h in headers { th scope="col" { (h) } } } }
                tbody { (rows) }
            }
        }
    }
}

/// The form field choosing a game: `none` labels the empty choice, `chosen`
/// is the game chosen (`""` for none).
pub fn game_field(none: &str, chosen: &str) -> Markup {
    html! {
        div.field {
            label for="game" { "Game" }
            select #game name="game" {
                option value="" selected[chosen.is_empty()] { (none) }
                @for g in crate::game::Game::ALL {
                    option value=(g.as_str()) selected[chosen == g.as_str()] { (g.title()) }
                }
            }
        }
    }
}

/// Any path no route serves.
pub async fn not_found(uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return json_error(
            StatusCode::NOT_FOUND,
            &format!("no such API route: {}", uri.path()),
        );
    }
    error_page(
        StatusCode::NOT_FOUND,
        "Page not found",
        &format!("Nothing is served at {}. Try the search.", uri.path()),
        Nav::None,
    )
}

pub async fn css() -> Response {
    asset("text/css; charset=utf-8", CSS)
}

pub async fn js() -> Response {
    asset("text/javascript; charset=utf-8", JS)
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "max-age=3600"),
        ],
        body,
    )
        .into_response()
}

/// Headers every response carries: nothing is loaded from elsewhere, nothing is
/// framed by another site, no referrer leaves the page. Rejections made by the
/// framework (an oversized body, a malformed query) are given a readable body.
pub async fn headers(mut res: Response) -> Response {
    let h = res.headers_mut();
    let set = |h: &mut axum::http::HeaderMap, name, value: &'static str| {
        h.insert(name, HeaderValue::from_static(value));
    };
    set(
        h,
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; img-src 'self' data:; frame-ancestors 'self'; base-uri 'none'; form-action 'self'",
    );
    set(h, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(h, header::REFERRER_POLICY, "no-referrer");
    if !h.contains_key(header::CACHE_CONTROL) {
        set(h, header::CACHE_CONTROL, "no-store");
    }
    res
}
