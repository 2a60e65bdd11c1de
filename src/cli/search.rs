//! `swjudge search`.

use super::{CliResult, Ctx, Outcome};
use itertools::Itertools;
use swjudge::index::{DocKind, Index, Query};
use swjudge::render;
use swjudge::rulebook::Game;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Words to search for, as a judge would say them (no query syntax).
    #[arg(required = true, value_name = "QUERY")]
    pub query: Vec<String>,
    /// Only this game: swccg, destiny or swtcg (default: SWJUDGE_GAME, else the
    /// config file's `game:`, else the game the question's words point to).
    #[arg(long, value_name = "GAME", env = "SWJUDGE_GAME", value_parser = super::card::parse_game)]
    pub game: Option<Game>,
    /// Only hits of this kind: rule, example, errata, ruling, glossary, faq
    /// (rulebook sections), or card (imported card text); errata and ruling
    /// include the imported databases' own.
    #[arg(long, value_parser = parse_kind)]
    pub kind: Option<DocKind>,
    /// Show at most this many sections (1-1000).
    #[arg(long, short = 'n', default_value_t = 10)]
    pub limit: usize,
}

fn parse_kind(s: &str) -> Result<DocKind, String> {
    DocKind::parse(s).ok_or_else(|| {
        let all = DocKind::ALL.iter().map(|k| k.as_str()).join(", ");
        format!("unknown kind \"{s}\" (expected one of {all})")
    })
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let q = Query {
        text: args.query.join(" "),
        game: ctx.game(args.game)?,
        kind: args.kind,
        limit: args.limit,
    };
    // Check the query before touching the index, so a bad query never builds it.
    q.validate()?;
    let mut index = Index::open_or_build(&ctx.paths)?;
    let found = match index.search_read(&q) {
        Ok(found) => found,
        // Damage the checks on opening did not catch: rebuild, and try once more.
        Err(swjudge::Error::Index(e)) => {
            index = Index::rebuild(&ctx.paths)?;
            super::note(&format!(
                "swjudge: the search index was damaged ({e}); it has been rebuilt"
            ));
            index.search_read(&q)?
        }
        Err(e) => return Err(e.into()),
    };
    for w in &index.warnings {
        super::note(&format!("swjudge: {w}"));
    }
    let hits = found.hits;
    for (typed, read) in &found.read_as {
        super::note(&format!("swjudge: read \"{typed}\" as \"{read}\""));
    }
    if ctx.json {
        super::out_json(&hits)?;
    } else if !hits.is_empty() {
        super::out(&render::search::text(&hits, &ctx.style))?;
    }
    if hits.is_empty() {
        let game = q.game.map(|g| format!(" in {g}")).unwrap_or_default();
        let kind = q.kind.map(|k| format!(" ({k})")).unwrap_or_default();
        super::note(&format!(
            "nothing found for \"{}\"{game}{kind}: no section or card covers enough of the question",
            q.text.trim()
        ));
        return Ok(Outcome::NotFound);
    }
    Ok(Outcome::Found)
}
