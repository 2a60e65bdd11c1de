//! `swjudge coverage`: the rulebooks' worked examples and the scenarios that reproduce them.

use super::{CliResult, Ctx, Outcome};
use std::path::{Path, PathBuf};
use swjudge::coverage::{self, Status};
use swjudge::game::Game;
use swjudge::render::coverage::{census_text, rulings_text, text};
use swjudge::rulebook::Corpus;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Scenario files or folders (default: scenarios/ in the current folder
    /// when there is one, else the scenarios built into swjudge).
    pub paths: Vec<PathBuf>,
    /// List only the examples no scenario covers.
    #[arg(long)]
    pub missing: bool,
    /// Only this game: swccg, destiny or swtcg.
    #[arg(long, value_name = "GAME", value_parser = super::card::parse_game)]
    pub game: Option<Game>,
    /// The list of examples that cannot be reproduced (default:
    /// unreproducible.tsv in the first scenario folder, when it exists).
    #[arg(long, value_name = "FILE")]
    pub unreproducible: Option<PathBuf>,
    /// Count against a rules team's census of worked cases instead: a TSV with the
    /// columns game, name, section_id and topic. The N-th case of one section is
    /// covered by a scenario whose `source:` is `SECTION#N`.
    #[arg(long, value_name = "FILE")]
    pub census: Option<PathBuf>,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let paths = super::scenario_paths(args.paths.clone())?;
    let files = coverage::scenario_files(&paths)?;
    let sources = coverage::scenario_sources(&files)?;
    if let Some(f) = &args.census {
        return census(f, &sources, &args, ctx);
    }
    let corpus = Corpus::load(&ctx.paths.rulebook)?;
    let list_file = args.unreproducible.clone().or_else(|| {
        let p = paths
            .iter()
            .find(|p| p.is_dir())?
            .join("unreproducible.tsv");
        p.is_file().then_some(p)
    });
    let unreproducible = match &list_file {
        Some(f) => {
            let text = swjudge::paths::read_text_file(f, 1 << 20, "is a folder, not a file")?;
            coverage::parse_unreproducible(f, &text)?
        }
        None => Vec::new(),
    };
    let mut cov =
        coverage::coverage(&corpus, &sources, &unreproducible).with_rulings(&paths, &sources)?;
    if let Some(g) = args.game {
        cov.retain_game(g);
    }
    if args.missing {
        cov.examples.retain(|e| e.status == Status::NotCovered);
    }
    ctx.print(&cov, |cov| {
        format!(
            "{}{}",
            text(cov, &ctx.style),
            rulings_text(&cov.rulings, args.missing, &ctx.style)
        )
    })?;
    Ok(Outcome::Found)
}

fn census(file: &Path, sources: &[coverage::ScenarioSource], args: &Args, ctx: &Ctx) -> CliResult {
    let text = swjudge::paths::read_text_file(file, 8 << 20, "is a folder, not a file")?;
    let cases = coverage::parse_census(file, &text)?;
    let mut c = coverage::census(cases, sources);
    if let Some(g) = args.game {
        c.games.retain(|x| x.game == g.as_str());
        c.areas.retain(|x| x.game == g.as_str());
        c.cases.retain(|x| x.game == g.as_str());
    }
    if args.missing {
        c.cases.retain(|x| x.scenarios.is_empty());
    }
    ctx.print(&c, |v| census_text(v, &ctx.style))?;
    Ok(Outcome::Found)
}
