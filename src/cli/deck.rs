//! `swjudge deck FILE`: is this deck (or Destiny team) legal? Each problem with
//! the rule or format entry it breaks. Exit 0 legal, 1 illegal, 2 unreadable.

use super::card::parse_game;
use super::{CliResult, Ctx, Outcome};
use std::path::PathBuf;
use swjudge::cards::formats;
use swjudge::deck::{self, Options};
use swjudge::game::Game;
use swjudge::render::deck::text;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The deck file: SWDestinyDB deck JSON or text export, a GEMP or LackeyCCG
    /// deck file, or a plain list ("2x Card Name" or "Card Name x2" a line).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The game (swccg, destiny or swtcg); by default the file's format or its
    /// card names tell.
    #[arg(long, value_name = "GAME", value_parser = parse_game)]
    pub game: Option<Game>,
    /// A Star Wars: Destiny format, by code or name in any case (STD, standard),
    /// from an imported formats.json.
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let list = deck::read::read(&args.file)?;
    let game = args
        .game
        .or(list.game)
        .or(args.format.as_ref().map(|_| Game::Destiny));
    let cards = deck::cards_for(&ctx.paths.data_dir, &list, game)?;
    if cards.stored == 0 {
        return Err(super::usage(format!(
            "no card data{}: import a card database with `swjudge cards import FILE…` (data dir {})",
            game.map(|g| format!(" for {}", g.title()))
                .unwrap_or_default(),
            ctx.paths.data_dir.display()
        )));
    }
    let formats = match game {
        Some(Game::Destiny) | None => formats::load(&ctx.paths.data_dir)?,
        Some(_) => Vec::new(),
    };
    let opts = Options {
        game: args.game,
        format: args.format,
    };
    let file = args.file.display().to_string();
    let mut report = deck::check(&file, &list, &cards.db, &formats, &opts)?;
    if !cards.whole && deck::needs_every_card(&report) {
        let all = deck::every_card(&ctx.paths.data_dir, game)?;
        report = deck::check(&file, &list, &all.db, &formats, &opts)?;
    }
    ctx.print(&report, |v| text(v, &ctx.style))?;
    Ok(Outcome::found(report.legal))
}
