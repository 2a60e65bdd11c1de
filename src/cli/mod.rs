//! Command-line interface: one file per subcommand, sharing this prelude.

mod card;
mod cards;
mod check;
mod completions;
mod config;
mod convert;
mod coverage;
mod deck;
mod index;
mod lint;
mod man;
mod rule;
mod search;
mod serve;
mod test;

use clap::{Parser, Subcommand};
use itertools::Itertools;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use swjudge::paths::Paths;
use swjudge::render::Style;
use swjudge::scenario::{BuiltinIds, SectionIds};

/// Judge and rules-lookup assistant for the Star Wars CCG, Star Wars: Destiny
/// and the Star Wars Trading Card Game.
#[derive(Debug, Parser)]
#[command(name = "swjudge", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Print machine-readable JSON instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// Use the rulebook in this folder (an edited copy) instead of the one built into swjudge.
    #[arg(long, global = true, value_name = "DIR", env = "SWJUDGE_RULEBOOK")]
    pub rulebook: Option<PathBuf>,
    /// The index cache folder (default: in the platform cache directory, or SWJUDGE_CACHE_DIR).
    #[arg(long, global = true, value_name = "DIR", env = "SWJUDGE_INDEX")]
    pub index_dir: Option<PathBuf>,
    /// Use the card library in this folder (an edited copy of cards/) instead of the one built into swjudge.
    #[arg(long, global = true, value_name = "DIR", env = "SWJUDGE_LIBRARY")]
    pub library: Option<PathBuf>,
    /// Where imported card data is kept (default: the platform data directory).
    #[arg(long, global = true, value_name = "DIR", env = "SWJUDGE_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// Colour and emphasis: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Search the rulebooks, and imported cards and rulings: the game is --game,
    /// else the default game (SWJUDGE_GAME or the config file), else inferred from
    /// the question's words.
    Search(search::Args),
    /// Print one rulebook section by ID, with its examples and cross-references.
    Rule(rule::Args),
    /// Look a card up by (fuzzy) name: text, errata, rulings, see-also sections.
    Card(card::Args),
    /// Manage imported card databases.
    Cards(cards::Args),
    /// Check a deck (or Destiny team) against its game's deck rules and a format.
    Deck(deck::Args),
    /// Run one scenario and print its cited trace and verdict.
    Check(check::Args),
    /// Run every scenario under the given paths (default: scenarios/).
    Test(test::Args),
    /// Rebuild the search index now.
    Index(index::Args),
    /// Check the rulebook: unique IDs, empty sections, examples, cross-references.
    Lint(lint::Args),
    /// Regenerate rulebook/ from the seed documents.
    Convert(convert::Args),
    /// List the rulebooks' worked examples and the scenarios that reproduce them.
    Coverage(coverage::Args),
    /// Serve the search, rule, card, check and coverage pages to a web browser.
    Serve(serve::Args),
    /// Print the completion script for a shell.
    Completions(completions::Args),
    /// Print the manual page, or write every page into a folder.
    Man(man::Args),
}

/// What a successful run found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Found something, or everything passed: exit 0.
    Found,
    /// Nothing found, or an expectation failed: exit 1.
    NotFound,
}

impl Outcome {
    /// [`Outcome::Found`] when `found`, else [`Outcome::NotFound`].
    pub fn found(found: bool) -> Outcome {
        if found {
            Outcome::Found
        } else {
            Outcome::NotFound
        }
    }

    pub fn exit_code(self) -> ExitCode {
        match self {
            Outcome::Found => ExitCode::SUCCESS,
            Outcome::NotFound => ExitCode::from(1),
        }
    }
}

#[derive(Debug)]
pub enum Failure {
    /// stdout was closed (e.g. `| head`): end quietly.
    BrokenPipe,
    Error(swjudge::Error),
}

impl From<swjudge::Error> for Failure {
    fn from(e: swjudge::Error) -> Self {
        Failure::Error(e)
    }
}

pub type CliResult = Result<Outcome, Failure>;

/// A usage error (exit 2) saying `msg`.
pub fn usage(msg: impl Into<String>) -> Failure {
    Failure::Error(swjudge::Error::Usage(msg.into()))
}

/// Shared context handed to every subcommand.
pub struct Ctx {
    pub json: bool,
    pub paths: Paths,
    /// The rulebook folder given with `--rulebook` / `SWJUDGE_RULEBOOK`, if any.
    pub rulebook_dir: Option<PathBuf>,
    /// Colour and width for text output.
    pub style: Style,
}

impl Ctx {
    /// The game a command answers for: `given` (`--game` or `SWJUDGE_GAME`),
    /// else the config file's `game:`, else none.
    pub fn game(
        &self,
        given: Option<swjudge::game::Game>,
    ) -> Result<Option<swjudge::game::Game>, Failure> {
        if given.is_some() {
            return Ok(given);
        }
        Ok(config::default_game()?)
    }

    /// Print `value`: as JSON with `--json`, else as the text `text` makes of it.
    pub fn print<T: serde::Serialize>(
        &self,
        value: &T,
        text: impl FnOnce(&T) -> String,
    ) -> Result<(), Failure> {
        if self.json {
            out_json(value)
        } else {
            out(&text(value))
        }
    }

    /// What a scenario's `source:` is checked against: the built-in rulebook's
    /// section IDs (compiled in, nothing parsed), or the sections of the
    /// `--rulebook` folder, which must then load.
    pub fn section_ids(&self) -> Result<Box<dyn SectionIds>, Failure> {
        Ok(match self.rulebook_dir {
            None => Box::new(BuiltinIds),
            Some(_) => Box::new(swjudge::rulebook::Corpus::load(&self.paths.rulebook)?),
        })
    }
}

/// Whether stdout gets colour: `--color`, then `NO_COLOR` (any non-empty value
/// turns it off), then whether stdout is a terminal.
fn color_enabled(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// Width for text output: `COLUMNS` when set to a number, else the terminal's
/// width, else [`Style::DEFAULT_WIDTH`] (output to a pipe or file).
fn output_width() -> usize {
    if let Some(n) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
    {
        return n.clamp(Style::MIN_WIDTH, 1000);
    }
    if std::io::stdout().is_terminal()
        && let Some(w) = comfy_table::Table::new().width()
    {
        return usize::from(w).max(Style::MIN_WIDTH);
    }
    Style::DEFAULT_WIDTH
}

/// Parse the command line. `--help` and `--version` print and exit 0; a usage
/// error prints one line (`swjudge: error: …`) and exits 2.
pub fn parse() -> Cli {
    match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => match e.kind() {
            clap::error::ErrorKind::DisplayHelp
            | clap::error::ErrorKind::DisplayVersion
            | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
            _ => {
                let line = usage_line(&e.render().to_string());
                if std::env::args_os().skip(1).any(|a| a == "--json") {
                    let _ = out_json(&serde_json::json!({ "error": line }));
                }
                note(&format!("swjudge: {line}"));
                std::process::exit(2)
            }
        },
    }
}

/// A clap error as one line: its message (joined when clap wraps it, as for a
/// list of missing arguments) without the "error: " prefix or the usage block.
fn usage_line(rendered: &str) -> String {
    let mut msg = rendered
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
        .join(" ");
    for tip in rendered
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("tip: "))
    {
        msg.push_str("; ");
        msg.push_str(tip);
    }
    let msg = msg.strip_prefix("error: ").unwrap_or(&msg);
    if msg.is_empty() {
        "invalid arguments (see --help)".into()
    } else {
        format!("{msg} (see --help)")
    }
}

/// Run the command. An error message always comes out as one line: control
/// characters from user input (a newline in a path or name) are escaped. With
/// `--json`, an error that left stdout empty also prints `{"error": "…"}` there.
pub fn run(cli: Cli) -> CliResult {
    let json = cli.json;
    let res = match dispatch(cli) {
        Err(Failure::Error(e)) if e.to_string().chars().any(char::is_control) => {
            Err(usage(one_line(&e.to_string())))
        }
        other => other,
    };
    if json
        && !WROTE.load(Ordering::SeqCst)
        && let Err(Failure::Error(e)) = &res
    {
        out_json(&serde_json::json!({ "error": e.to_string() }))?;
    }
    res
}

/// Whether anything was written to stdout (so an error adds no second JSON document).
static WROTE: AtomicBool = AtomicBool::new(false);

pub use swjudge::render::one_line;

fn dispatch(cli: Cli) -> CliResult {
    if let Some(dir) = &cli.library {
        swjudge::engine::library::use_dir(dir)?;
    }
    let ctx = Ctx {
        json: cli.json,
        rulebook_dir: cli.rulebook.clone(),
        paths: Paths::resolve(cli.rulebook, cli.index_dir, cli.data_dir)?,
        style: Style {
            color: color_enabled(cli.color),
            width: output_width(),
        },
    };
    match cli.command {
        Command::Search(a) => search::run(a, &ctx),
        Command::Rule(a) => rule::run(a, &ctx),
        Command::Card(a) => card::run(a, &ctx),
        Command::Cards(a) => cards::run(a, &ctx),
        Command::Deck(a) => deck::run(a, &ctx),
        Command::Check(a) => check::run(a, &ctx),
        Command::Test(a) => test::run(a, &ctx),
        Command::Index(a) => index::run(a, &ctx),
        Command::Lint(a) => lint::run(a, &ctx),
        Command::Convert(a) => convert::run(a, &ctx),
        Command::Coverage(a) => coverage::run(a, &ctx),
        Command::Serve(a) => serve::run(a, &ctx),
        Command::Completions(a) => completions::run(a, &ctx),
        Command::Man(a) => man::run(a, &ctx),
    }
}

/// The scenario folders to run or count: those given; else `scenarios/` in the
/// current folder when there is one (a clone, a rules team's working copy);
/// else the scenarios built into swjudge, unpacked into the cache.
pub fn scenario_paths(given: Vec<PathBuf>) -> Result<Vec<PathBuf>, Failure> {
    if !given.is_empty() {
        return Ok(given);
    }
    let here = PathBuf::from("scenarios");
    if here.is_dir() {
        return Ok(vec![here]);
    }
    Ok(vec![swjudge::scenario::shipped_folder(
        &swjudge::paths::default_cache_dir(),
    )?])
}

/// Write to stdout; a closed pipe becomes [`Failure::BrokenPipe`].
pub fn out(text: &str) -> Result<(), Failure> {
    WROTE.store(true, Ordering::SeqCst);
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let res = lock.write_all(text.as_bytes()).and_then(|_| {
        if !text.is_empty() && !text.ends_with('\n') {
            lock.write_all(b"\n")?;
        }
        lock.flush()
    });
    match res {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(Failure::BrokenPipe),
        Err(e) => Err(Failure::Error(swjudge::Error::io("<stdout>", e))),
    }
}

/// Write a one-line note to stderr (progress, warnings). Never fails.
pub fn note(text: &str) {
    let _ = writeln!(std::io::stderr(), "{}", one_line(text));
}

/// Serialize to pretty JSON and write it.
pub fn out_json<T: serde::Serialize>(value: &T) -> Result<(), Failure> {
    let s = serde_json::to_string_pretty(value)
        .map_err(|e| Failure::Error(swjudge::Error::Input(format!("JSON: {e}"))))?;
    out(&s)
}

/// Let scenarios name the cards of the user's imported databases (read on first
/// use, exact titles and references only; an ambiguous name lists the references).
pub fn name_imported_cards(paths: &swjudge::paths::Paths) {
    use std::sync::OnceLock;
    use swjudge::cards::{CardDb, load_imported};
    use swjudge::engine::library::{Imported, use_imported};
    let data_dir = paths.data_dir.clone();
    let db: OnceLock<Result<CardDb, String>> = OnceLock::new();
    use_imported(Box::new(move |game, name| {
        let db = db
            .get_or_init(|| {
                load_imported(&data_dir)
                    .map(|files| CardDb::build(files, None))
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(Clone::clone)?;
        let found = db.lookup(name, Some(game));
        let exact: Vec<usize> = found
            .matches
            .iter()
            .filter(|m| m.score >= 1.0 && m.game == game)
            .map(|m| m.index)
            .collect();
        match exact.as_slice() {
            [] => Ok(None),
            [i] => {
                let c = &db.cards[*i];
                Ok(Some(Imported {
                    reference: db.refs[*i].clone(),
                    title: c.title.clone(),
                    side: c.side.clone(),
                    card_type: c.card_type.clone(),
                    subtype: c.subtype.clone(),
                    uniqueness: c.uniqueness.clone(),
                    stats: c.stats.0.clone(),
                    text: c.text.clone(),
                }))
            }
            many => Err(format!(
                "`{name}` names {} imported cards: {}; name one by its reference",
                many.len(),
                many.iter().map(|i| db.refs[*i].as_str()).join(", ")
            )),
        }
    }));
}
