//! `swjudge search`.

use super::{CliResult, Ctx, Outcome};
use std::io::IsTerminal;
use swjudge::index::{Index, Query};
use swjudge::render;
use swjudge::rulebook::{Game, Kind};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Words to search for, as a judge would say them (no query syntax).
    #[arg(required = true, value_name = "QUERY")]
    pub query: Vec<String>,
    /// Only sections of this game.
    #[arg(long, value_parser = parse_game)]
    pub game: Option<Game>,
    /// Only sections of this kind (rule, example, errata, ruling, glossary, faq).
    #[arg(long, value_parser = parse_kind)]
    pub kind: Option<Kind>,
    /// Show at most this many sections (1-1000).
    #[arg(long, short = 'n', default_value_t = 10)]
    pub limit: usize,
}

fn parse_game(s: &str) -> Result<Game, String> {
    Game::parse(s).ok_or_else(|| format!("unknown game \"{s}\" (expected swccg, destiny or swtcg)"))
}

fn parse_kind(s: &str) -> Result<Kind, String> {
    Kind::parse(s).ok_or_else(|| {
        let all: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
        format!("unknown kind \"{s}\" (expected one of {})", all.join(", "))
    })
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let q = Query {
        text: args.query.join(" "),
        game: args.game,
        kind: args.kind,
        limit: args.limit,
    };
    // Check the query before touching the index, so a bad query never builds it.
    q.validate()?;
    let index = Index::open_or_build(&ctx.paths)?;
    let hits = index.search(&q)?;
    if ctx.json {
        super::out_json(&hits)?;
    } else if !hits.is_empty() {
        super::out(&render::search::text(
            &hits,
            std::io::stdout().is_terminal(),
        ))?;
    }
    if hits.is_empty() {
        let scope = match (q.game, q.kind) {
            (Some(g), Some(k)) => format!(" in {g} {k} sections"),
            (Some(g), None) => format!(" in {g}"),
            (None, Some(k)) => format!(" in {k} sections"),
            (None, None) => String::new(),
        };
        super::note(&format!("no sections match \"{}\"{scope}", q.text.trim()));
        return Ok(Outcome::NotFound);
    }
    Ok(Outcome::Found)
}
