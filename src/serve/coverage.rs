//! Coverage of the rulebooks' worked examples: `/coverage` per game and area, with
//! links to the examples no scenario reproduces yet, and `/api/coverage` (what
//! `swjudge coverage --json` prints for the served scenarios folder).

use super::App;
use super::markdown::rule_link;
use super::page::{self, ApiQuery, Nav, PageQuery};
use crate::coverage::{self, Coverage, Example, Status};
use crate::game::Game;
use crate::paths::read_text_file;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use maud::{Markup, html};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Largest `unreproducible.tsv` read.
const MAX_LIST_BYTES: u64 = 1 << 20;

/// Coverage of the served scenarios folder, worked out on first use.
pub(super) fn compute(app: &App) -> Result<&Coverage, String> {
    app.coverage
        .get_or_init(|| {
            let dirs: Vec<PathBuf> = app
                .scenarios_dir()
                .map(Path::to_path_buf)
                .into_iter()
                .collect();
            let sources = if dirs.is_empty() {
                Vec::new()
            } else {
                coverage::scenario_sources(&coverage::scenario_files(&dirs)?)?
            };
            let unreproducible = match dirs.first().map(|d| d.join("unreproducible.tsv")) {
                Some(f) if f.is_file() => {
                    let text = read_text_file(&f, MAX_LIST_BYTES, "is a folder, not a file")?;
                    coverage::parse_unreproducible(&f, &text)?
                }
                _ => Vec::new(),
            };
            coverage::coverage(&app.corpus, &sources, &unreproducible).with_rulings(&dirs, &sources)
        })
        .as_ref()
        .map_err(|e| e.to_string())
}

#[derive(Debug, Default, Deserialize)]
pub struct Filter {
    #[serde(default)]
    game: String,
    missing: Option<String>,
}

/// The coverage narrowed as `--game` and `--missing` narrow it.
fn filtered(app: &App, f: &Filter) -> Result<Coverage, (StatusCode, String)> {
    let game = page::game_choice(&f.game, true).map_err(|e| (StatusCode::BAD_REQUEST, e))?;
    let missing = match f.missing.as_deref().map(str::trim) {
        None | Some("" | "false" | "0" | "no") => false,
        Some("true" | "1" | "yes" | "on") => true,
        Some(other) => {
            return Err((
                StatusCode::BAD_REQUEST,
                format!("missing must be true or false (got \"{other}\")"),
            ));
        }
    };
    let mut cov = compute(app)
        .map_err(|e| (StatusCode::INTERNAL_SERVER_ERROR, e))?
        .clone();
    if let Some(g) = game {
        cov.retain_game(g);
    }
    if missing {
        cov.examples.retain(|e| e.status == Status::NotCovered);
    }
    Ok(cov)
}

pub async fn api(State(app): State<Arc<App>>, ApiQuery(f): ApiQuery<Filter>) -> Response {
    match filtered(&app, &f) {
        Ok(cov) => page::json(StatusCode::OK, &cov),
        Err((status, msg)) => page::json_error(status, &msg),
    }
}

pub async fn page(State(app): State<Arc<App>>, PageQuery(f): PageQuery<Filter>) -> Response {
    match filtered(&app, &f) {
        Ok(cov) => page::page(StatusCode::OK, "Coverage", Nav::Coverage, body(&app, &cov)),
        Err((status, msg)) => page::error_page(status, "Coverage", &msg, Nav::Coverage),
    }
}

/// Counts of one game's area.
#[derive(Default)]
struct Counts<'c> {
    examples: usize,
    covered: usize,
    cannot: usize,
    missing: Vec<&'c Example>,
}

/// The area an example belongs to: the top heading of its document above it.
fn area(app: &App, e: &Example) -> String {
    match app.corpus.get(&e.section) {
        Some(s) if s.breadcrumb.len() > 2 => s.breadcrumb[1].clone(),
        Some(s) => s.breadcrumb.first().cloned().unwrap_or_default(),
        None => "(unknown)".into(),
    }
}

fn body(app: &App, cov: &Coverage) -> Markup {
    let mut areas: BTreeMap<(Game, String), Counts> = BTreeMap::new();
    for e in &cov.examples {
        let c = areas.entry((e.game, area(app, e))).or_default();
        c.examples += 1;
        match e.status {
            Status::Covered => c.covered += 1,
            Status::CannotBeReproduced => c.cannot += 1,
            Status::NotCovered => c.missing.push(e),
        }
    }
    html! {
        h1 { "Coverage of the worked examples" }
        p { "Each worked example of the rulebooks, and whether a shipped scenario reproduces it." }
        (page::scroll_table("Coverage per game", None, Some("Per game"), &["Game", "Examples", "Covered", "Not covered", "Cannot be reproduced"], html! {
            @for g in &cov.games {
                tr { th scope="row" { (g.game.title()) } td { (g.examples) } td { (g.covered) } td { (g.not_covered) } td { (g.cannot_be_reproduced) } }
            }
        }))
        (page::scroll_table("Coverage per area", None, Some("Per area"), &["Game", "Area", "Examples", "Covered", "Not covered", "Cannot be reproduced"], html! {
            @for ((game, name), c) in &areas {
                tr { td { (game.as_str()) } th scope="row" { (name) } td { (c.examples) } td { (c.covered) } td { (c.missing.len()) } td { (c.cannot) } }
            }
        }))
        h2 { "Examples not yet reproduced" }
        @for ((game, name), c) in &areas {
            @if !c.missing.is_empty() {
                details {
                    summary { (game.title()) " · " (name) " (" (c.missing.len()) ")" }
                    ul { @for e in &c.missing { li { (rule_link(&e.id, &e.title)) " " code { (e.id) } } } }
                }
            }
        }
    }
}
