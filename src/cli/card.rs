//! `swjudge card NAME…`: fuzzy card lookup with current text, errata, rulings
//! and the rulebook sections that mention the card.

use super::{CliResult, Ctx, Outcome, note};
use swjudge::cards::CardDb;
use swjudge::game::Game;
use swjudge::render::card::{CardReport, text};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The card's name; typos, missing punctuation, partial names, versions
    /// ("(V)", "(A)") and nicknames ("4lom", "quigon") are fine.
    #[arg(required = true, value_name = "NAME")]
    pub name: Vec<String>,
    /// Only this game: swccg, destiny or swtcg (default: SWJUDGE_GAME, else the
    /// config file's `game:`, else every game).
    #[arg(long, value_name = "GAME", env = "SWJUDGE_GAME", value_parser = parse_game)]
    pub game: Option<Game>,
    /// At most this many "see also" rulebook sections.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = parse_see_also)]
    pub see_also: usize,
}

/// Longest card name accepted (real titles stay well under 100 characters).
const MAX_NAME_CHARS: usize = 200;

/// Whether `name` has a letter or digit outside parentheses: "(V)" alone or
/// "!!!" names no card, and a fuzzy match on it would only be a guess.
fn has_title_words(name: &str) -> bool {
    let mut depth = 0usize;
    name.chars().any(|c| match c {
        '(' => {
            depth += 1;
            false
        }
        ')' => {
            depth = depth.saturating_sub(1);
            false
        }
        c => depth == 0 && c.is_alphanumeric(),
    })
}

fn parse_see_also(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n <= 200 => Ok(n),
        _ => Err(format!("expected a number from 0 to 200, got \"{s}\"")),
    }
}

pub fn parse_game(s: &str) -> Result<Game, String> {
    Game::parse(s).ok_or_else(|| format!("unknown game \"{s}\" (expected swccg, destiny or swtcg)"))
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let query = args.name.join(" ");
    if query.trim().is_empty() {
        return Err(super::usage(
            "empty card name: give a card title, a nickname or a reference such as swccg:1098",
        ));
    }
    if query.chars().count() > MAX_NAME_CHARS {
        return Err(super::usage(format!(
            "card name is {} characters long; the limit is {MAX_NAME_CHARS}",
            query.chars().count()
        )));
    }
    if !has_title_words(&query) {
        return Err(super::usage(format!(
            "card name \"{}\" has no letters or digits outside a version marker such as (V)",
            query.trim()
        )));
    }
    let db = CardDb::open(&ctx.paths)?;
    if !ctx.json {
        for w in &db.warnings {
            note(&format!("swjudge: warning: {w}"));
        }
    }
    if db.is_empty() {
        note(&format!(
            "swjudge: no card data: import a card database with `swjudge cards import FILE…` (data dir {})",
            ctx.paths.data_dir.display()
        ));
    }
    let lookup = db.lookup(&query, ctx.game(args.game)?);
    let report = CardReport::new(&db, &lookup, args.see_also);
    ctx.print(&report, |v| text(v, &ctx.style))?;
    Ok(Outcome::found(report.found()))
}
