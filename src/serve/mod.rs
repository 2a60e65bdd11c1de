//! `swjudge serve`: the pages a judge opens on a laptop or a phone at the table.
//!
//! The server renders what search, rule, card, check and coverage return, through
//! the same typed values their `--json` output prints ([`crate::render`]); the
//! `/api/…` routes return exactly that JSON. Pages are maud templates (escaped at
//! compile time); the stylesheet and the one small script are embedded.
//!
//! Safety: pasted YAML goes through [`crate::yaml`]'s limits like a file, each check
//! runs under a time limit on a bounded number of threads, shipped scenarios are
//! read only from inside the scenarios folder, request bodies are size-limited, and
//! nothing is written but the index cache. The library never binds or prints: the
//! `swjudge serve` command binds the listener and hands it to [`run`].

mod card;
mod check;
mod coverage;
mod deck;
mod markdown;
mod page;
mod rule;
mod search;

use crate::cards::CardDb;
use crate::error::{Error, Result};
use crate::index::{Found, Index, Query};
use crate::paths::Paths;
use crate::rulebook::Corpus;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock, RwLock};
use std::time::Duration;

/// Largest request body accepted: a form holding a YAML file of the loader's
/// largest size, URL-encoded.
pub const MAX_BODY: usize = 3 * crate::yaml::MAX_BYTES;

/// How long one check may take, unless configured otherwise.
pub const CHECK_TIME_LIMIT: Duration = Duration::from_secs(5);

/// What the server serves.
#[derive(Debug, Clone)]
pub struct Config {
    pub paths: Paths,
    /// The shipped scenarios offered by the check page (`scenarios/`); a missing
    /// folder offers none.
    pub scenarios: PathBuf,
    /// How long one check may take before it is reported as too slow.
    pub check_time_limit: Duration,
    /// Checks run at once; more wait for a turn (within their time limit).
    pub check_threads: usize,
}

impl Config {
    pub fn new(paths: Paths, scenarios: PathBuf) -> Config {
        let threads = std::thread::available_parallelism().map_or(2, usize::from);
        Config {
            paths,
            scenarios,
            check_time_limit: CHECK_TIME_LIMIT,
            check_threads: threads.max(2),
        }
    }
}

/// The server's state: everything loaded once, shared by every request.
pub struct App {
    paths: Paths,
    corpus: Corpus,
    index: RwLock<Arc<Index>>,
    cards: CardDb,
    /// The scenarios folder as given (for the paths shown) and resolved (for the
    /// containment check); `None` when it does not exist.
    scenarios: Option<(PathBuf, PathBuf)>,
    /// Shipped scenario files, relative to the scenarios folder, with `/`.
    shipped: Vec<String>,
    /// Card titles (normalised) named in shipped scenarios, and the files naming them.
    uses: check::CardUses,
    coverage: OnceLock<Result<crate::coverage::Coverage>>,
    /// The card data and formats deck checks read, loaded on the first one.
    decks: OnceLock<std::result::Result<deck::DeckData, String>>,
    check_time_limit: Duration,
    checks: Arc<tokio::sync::Semaphore>,
    /// Problems met while loading that did not stop the server (unreadable card data).
    pub warnings: Vec<String>,
}

impl App {
    /// Load the rulebook, open (or build) the index and read the card data and the
    /// shipped scenarios' list, so that the first request is answered warm.
    pub fn open(config: Config) -> Result<App> {
        let corpus = Corpus::load(&config.paths.rulebook)?;
        let index = Index::open_or_build(&config.paths)?;
        let cards = CardDb::open(&config.paths)?;
        let mut warnings = index.warnings.clone();
        warnings.extend(cards.warnings.iter().cloned());
        let scenarios = match config.scenarios.canonicalize() {
            Ok(root) if root.is_dir() => Some((config.scenarios.clone(), root)),
            _ => None,
        };
        let (shipped, uses) = match &scenarios {
            Some((_, root)) => check::shipped(root)?,
            None => (Vec::new(), check::CardUses::new()),
        };
        // Warm the searcher's caches, so that the first search is answered as fast as later ones.
        let _ = index.search(&Query::new("battle destiny"));
        let app = App {
            paths: config.paths,
            corpus,
            index: RwLock::new(Arc::new(index)),
            cards,
            scenarios,
            shipped,
            uses,
            coverage: OnceLock::new(),
            decks: OnceLock::new(),
            check_time_limit: config.check_time_limit,
            checks: Arc::new(tokio::sync::Semaphore::new(config.check_threads.max(1))),
            warnings,
        };
        // Coverage reads every scenario file: worked out now, not on the first request.
        let _ = coverage::compute(&app);
        Ok(app)
    }

    /// What a search finds, as `swjudge search` finds it; an index found damaged is rebuilt
    /// once and asked again.
    fn search(&self, q: &Query) -> Result<Found> {
        let index = self
            .index
            .read()
            .map_or_else(|e| e.into_inner().clone(), |i| i.clone());
        match index.search_read(q) {
            Err(Error::Index(_)) => {
                let fresh = Arc::new(Index::rebuild(&self.paths)?);
                let found = fresh.search_read(q);
                if let Ok(mut slot) = self.index.write() {
                    *slot = fresh;
                }
                found
            }
            other => other,
        }
    }

    /// The shipped scenarios folder, as given.
    fn scenarios_dir(&self) -> Option<&Path> {
        self.scenarios.as_ref().map(|(given, _)| given.as_path())
    }
}

/// What a check (of a scenario or a deck) came to.
enum Checked<R> {
    Report(Box<R>),
    /// Why there is no report: the input was refused, or the check ended
    /// without an answer (it panicked, or the server is stopping).
    Refused(String),
    TooSlow(Duration),
}

/// Run the check `job` on a blocking thread, a few at once, within the time limit.
async fn limited<R: Send + 'static>(
    app: &Arc<App>,
    job: impl FnOnce(&App) -> std::result::Result<R, String> + Send + 'static,
) -> Checked<R> {
    let limit = app.check_time_limit;
    let sem = app.checks.clone();
    let app = app.clone();
    let run = async move {
        let permit = sem.acquire_owned().await.ok()?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            job(&app)
        })
        .await
        .ok()
    };
    let start = std::time::Instant::now();
    match tokio::time::timeout(limit, run).await {
        // An answer that came after the limit (the timer fired late) is too slow all the same.
        Ok(Some(_)) if start.elapsed() > limit => Checked::TooSlow(limit),
        Ok(Some(Ok(r))) => Checked::Report(Box::new(r)),
        Ok(Some(Err(why))) => Checked::Refused(why),
        Ok(None) => Checked::Refused("the check stopped without an answer".into()),
        Err(_) => Checked::TooSlow(limit),
    }
}

impl<R> Checked<R> {
    /// The API's answer: `ok` of the report, or `{"error": …}` with 400 for a
    /// refusal and 503 for a check too slow.
    fn json(self, ok: impl FnOnce(&R) -> Response) -> Response {
        match self {
            Checked::Report(r) => ok(&r),
            Checked::Refused(msg) => page::json_error(StatusCode::BAD_REQUEST, &msg),
            Checked::TooSlow(d) => page::json_error(StatusCode::SERVICE_UNAVAILABLE, &too_slow(d)),
        }
    }
}

/// Why a check took too long.
fn too_slow(d: Duration) -> String {
    format!(
        "the check took longer than its time limit of {} s and was abandoned",
        d.as_secs_f32()
    )
}

/// The page for a check that took too long.
fn too_slow_page(d: Duration, nav: page::Nav) -> Response {
    let status = StatusCode::SERVICE_UNAVAILABLE;
    page::error_page(status, "Check too slow", &too_slow(d), nav)
}

/// Every page and API route.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(search::page))
        .route("/search", get(search::page))
        .route("/search/results", get(search::fragment))
        .route("/api/search", get(search::api))
        .route("/rule/{id}", get(rule::page))
        .route("/api/rule/{id}", get(rule::api))
        .route("/card", get(card::form))
        .route("/card/{reference}", get(card::page))
        .route("/api/card/{reference}", get(card::api))
        .route("/check", get(check::form).post(check::pasted))
        .route("/check/open", get(check::open))
        .route("/check/{*path}", get(check::shipped_page))
        .route("/api/check", axum::routing::post(check::api))
        .route("/deck", get(deck::form).post(deck::pasted))
        .route("/api/deck", axum::routing::post(deck::api))
        .route("/coverage", get(coverage::page))
        .route("/api/coverage", get(coverage::api))
        .route("/static/app.css", get(page::css))
        .route("/static/app.js", get(page::js))
        .fallback(page::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::map_response(page::headers))
        .with_state(app)
}

/// Serve on `listener` until the process ends.
pub async fn run(listener: tokio::net::TcpListener, app: Arc<App>) -> Result<()> {
    let addr = listener
        .local_addr()
        .map_err(|e| Error::Usage(format!("listening socket: {e}")))?;
    axum::serve(listener, router(app))
        .await
        .map_err(|e| Error::Usage(format!("serving on {addr}: {e}")))
}
