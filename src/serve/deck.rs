//! Checking a deck: `/deck` takes a deck list pasted or uploaded, with its game
//! and Destiny format, and shows what `swjudge deck` reports (each problem with
//! the rule it breaks, linked, and the summary); `POST /api/deck?game=…&format=…`
//! with the list as the body returns what `swjudge deck --json` prints.
//!
//! The cards are the imported data as `swjudge deck` reads it (without the
//! rulebook's errata and rulings, which a deck check never reads), loaded on
//! the first deck checked.

use super::markdown::cite;
use super::page::{self, ApiQuery, Nav};
use super::search::url_path;
use super::{App, Checked, too_slow_page};
use crate::cards::CardDb;
use crate::cards::formats::{self, DeckFormat};
use crate::deck::{self, CardRef, Options, Problem, Report, Zone};
use crate::game::Game;
use axum::extract::rejection::{FormRejection, StringRejection};
use axum::extract::{Form, State};
use axum::http::StatusCode;
use axum::response::Response;
use maud::{Markup, html};
use serde::Deserialize;
use std::sync::Arc;

/// The name a pasted list is given in the report and in messages.
const PASTED: &str = "pasted.txt";

/// Largest deck list taken from a form or a request (a deck list is a few
/// kilobytes; its URL-encoded form stays within the request limit).
pub const MAX_LIST_BYTES: usize = 1 << 20;

/// The card data and formats a deck check reads.
pub struct DeckData {
    cards: CardDb,
    formats: Vec<DeckFormat>,
}

/// The deck data, read on first use.
fn data(app: &App) -> Result<&DeckData, String> {
    app.decks
        .get_or_init(|| {
            let dir = &app.paths.data_dir;
            let cards = CardDb::build(
                deck::load_cards(dir, None).map_err(|e| e.to_string())?,
                None,
            );
            let formats = formats::load(dir).map_err(|e| e.to_string())?;
            Ok(DeckData { cards, formats })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// What to check the list as, from the form or the query.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Choice {
    #[serde(default)]
    game: String,
    #[serde(default)]
    format: String,
}

impl Choice {
    fn options(&self) -> Result<Options, String> {
        let game = page::game_choice(&self.game, false)?;
        let format = Some(self.format.trim())
            .filter(|f| !f.is_empty())
            .map(str::to_string);
        Ok(Options { game, format })
    }
}

/// Read and check `text` as `swjudge deck` checks a file.
fn check(app: &App, text: &str, choice: &Choice) -> Result<Report, String> {
    if text.len() > MAX_LIST_BYTES {
        return Err(format!(
            "{PASTED}: the deck list is {} bytes; the limit is {MAX_LIST_BYTES} bytes",
            text.len()
        ));
    }
    let opts = choice.options()?;
    let list = deck::read::parse(text, PASTED).map_err(|e| e.to_string())?;
    let data = data(app)?;
    if data.cards.is_empty() {
        return Err(
            "no card data: import a card database with `swjudge cards import FILE…` and restart the server"
                .into(),
        );
    }
    let game = opts
        .game
        .or(list.game)
        .or(opts.format.as_ref().map(|_| Game::Destiny));
    let formats = deck::formats_for(game, &data.formats);
    deck::check(PASTED, &list, &data.cards, formats, &opts).map_err(|e| e.to_string())
}

async fn run(app: &Arc<App>, text: String, choice: Choice) -> Checked<Report> {
    super::limited(app, move |app: &App| check(app, &text, &choice)).await
}

/// `/deck`: the form.
pub async fn form(State(app): State<Arc<App>>) -> Response {
    let formats = data(&app).map(|d| d.formats.as_slice()).unwrap_or(&[]);
    let body = html! { h1 { "Check a deck" } (deck_form(formats, "", &Choice::default())) };
    page::page(StatusCode::OK, "Check a deck", Nav::Deck, body)
}

fn deck_form(formats: &[DeckFormat], text: &str, choice: &Choice) -> Markup {
    html! {
        form #deck-form action="/deck" method="post" {
            div.field {
                label for="deck-file" { "Upload a deck file" }
                input #deck-file type="file" accept=".txt,.json,.dek,.xml,text/plain,application/json" aria-describedby="deck-file-hint";
                small #deck-file-hint { "SWDestinyDB JSON or text export, GEMP, LackeyCCG .dek, or a plain list. The file is read into the box below; nothing is sent until you press Check." }
            }
            div.field {
                label for="deck" { "Or paste the deck list" }
                textarea #deck name="deck" rows="14" spellcheck="false" required placeholder="2x Card Name" { (text) }
            }
            div.choose {
                (page::game_field("From the list", &choice.game))
                div.field {
                    label for="format" { "Destiny format" }
                    select #format name="format" {
                        option value="" selected[choice.format.is_empty()] { "None (every imported format listed)" }
                        @for f in formats {
                            option value=(f.code) selected[choice.format.eq_ignore_ascii_case(&f.code)] { (f.name) " (" (f.code) ")" }
                        }
                    }
                }
            }
            button type="submit" { "Check" }
        }
        @if formats.is_empty() {
            p.hint { "No Destiny formats are imported: " code { "swjudge cards import formats.json" } " adds them." }
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct DeckForm {
    deck: String,
    #[serde(flatten)]
    choice: Choice,
}

/// `POST /deck`: check the pasted list.
pub async fn pasted(
    State(app): State<Arc<App>>,
    form: Result<Form<DeckForm>, FormRejection>,
) -> Response {
    let f = match form {
        Ok(f) => f.0,
        Err(e) => return page::form_refused(&e, too_large(), "Deck not checked", Nav::Deck),
    };
    let (text, choice) = (f.deck.clone(), f.choice.clone());
    match run(&app, f.deck, f.choice).await {
        Checked::Report(r) => {
            let title = format!("{} deck — check", r.game.title());
            page::page(StatusCode::OK, &title, Nav::Deck, report(&app, &r))
        }
        Checked::Refused(msg) => {
            let formats = data(&app).map(|d| d.formats.as_slice()).unwrap_or(&[]);
            let body = html! {
                h1 { "The deck could not be checked" }
                p.error role="alert" { (msg) }
                (deck_form(formats, &text, &choice))
            };
            page::page(StatusCode::BAD_REQUEST, "Deck not checked", Nav::Deck, body)
        }
        Checked::TooSlow(d) => too_slow_page(d, Nav::Deck),
    }
}

fn too_large() -> String {
    page::too_large("a deck list", MAX_LIST_BYTES)
}

/// `POST /api/deck?game=…&format=…` with the list as the body: what
/// `swjudge deck --json` prints.
pub async fn api(
    State(app): State<Arc<App>>,
    ApiQuery(choice): ApiQuery<Choice>,
    body: Result<String, StringRejection>,
) -> Response {
    let text = match page::api_body(body, too_large) {
        Ok(t) => t,
        Err(refused) => return *refused,
    };
    run(&app, text, choice)
        .await
        .json(|r| page::json(StatusCode::OK, r))
}

fn card_links(label: &str, cards: &[CardRef]) -> Markup {
    html! {
        p.cards {
            (label) ": "
            @for (i, c) in cards.iter().enumerate() {
                @if i > 0 { "; " }
                a href={ "/card/" (url_path(&c.reference)) } { (c.name) } " " code { (c.reference) }
            }
        }
    }
}

fn problem(app: &App, p: &Problem) -> Markup {
    html! {
        li {
            p { strong { "[" (cite(&app.corpus, &p.cites)) "]" } " " (p.message) @if let Some(l) = p.line { " (line " (l) ")" } }
            @if !p.cards.is_empty() { (card_links("Cards", &p.cards)) }
            @if !p.choices.is_empty() { (card_links("Choices", &p.choices)) }
        }
    }
}

fn summary(r: &Report) -> Markup {
    let s = &r.summary;
    html! {
        dl.stats {
            div { dt { "Deck" } dd { (s.deck_cards) " cards" } }
            @if s.outside_deck > 0 { div { dt { "Outside the deck" } dd { (s.outside_deck) } } }
            @if s.sideboard > 0 { div { dt { "Sideboard (not checked)" } dd { (s.sideboard) } } }
            @if let Some(side) = &s.side { div { dt { "Side" } dd { (side) } } }
            @if let (Some(p), Some(limit)) = (s.points, s.point_limit) {
                div { dt { "Team" } dd { (p) " of " (limit) " points, " (s.dice.unwrap_or(0)) " dice" } }
            }
        }
        p { "By type: " @for (i, c) in s.by_type.iter().enumerate() { @if i > 0 { ", " } (c.kind) " " (c.count) } }
        @if let Some(legal) = &s.legal_in {
            p { "Legal in: " @if legal.is_empty() { "none of the imported formats" } @else { (legal.join(", ")) } }
        }
    }
}

fn zone(z: Zone) -> &'static str {
    match z {
        Zone::Deck => "deck",
        Zone::Team => "team",
        Zone::OutsideDeck => "outside the deck",
        Zone::Sideboard => "sideboard",
    }
}

fn report(app: &App, r: &Report) -> Markup {
    let n = r.problems.len();
    html! {
        h1 { (r.game.title()) " deck" @if let Some(name) = &r.name { ": " (name) } }
        p.meta { code { (r.file) } @if let Some(f) = &r.format { " · format " (f) } }
        @if r.legal {
            p.verdict.pass role="status" { strong { "Legal" } ": no deck-building rule checked is broken." }
        } @else {
            p.verdict.fail role="status" { strong { "Illegal" } ": " (n) " problem" @if n != 1 { "s" } "." }
        }
        (summary(r))
        @if !r.problems.is_empty() {
            h2 { "Problems" }
            ol.problems { @for p in &r.problems { (problem(app, p)) } }
        }
        @if !r.card_rules.is_empty() {
            h2 { "Deck-building text on cards (not applied; for the judge)" }
            ul { @for c in &r.card_rules { li { a href={ "/card/" (url_path(&c.card.reference)) } { (c.card.name) } ": " (c.text) } } }
        }
        h2 { "Cards" }
        (page::scroll_table("Cards", None, None, &["Count", "Card", "Type", "Where", "Dice"], html! {
            @for c in &r.cards {
                tr {
                    td { (c.count) }
                    th scope="row" { a href={ "/card/" (url_path(&c.reference)) } { (c.name) } " " code { (c.reference) } }
                    td { (c.card_type.as_deref().unwrap_or("no type")) }
                    td { (zone(c.zone)) }
                    td { @if let Some(d) = c.dice { (d) } }
                }
            }
        }))
        p { a href="/deck" { "Check another deck" } }
    }
}
