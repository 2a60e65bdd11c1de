//! `swjudge serve`: every page and API route over real HTTP on 127.0.0.1 (not
//! found, bad input, path traversal, oversized bodies, the time limit), the API's
//! JSON against the matching `--json` command, and a headless Chromium test of
//! the pages as a judge uses them.

use crate::http::{self, Response};
use crate::util::{TempDir, code, root, stdout, swjudge};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use swjudge::paths::Paths;
use swjudge::serve::{App, Config};

/// The card fixtures every server here has imported.
const FIXTURES: [&str; 3] = ["swccg-rulings.json", "swccg-light.json", "destiny-set.json"];

/// A server's folders: the rulebook of the source tree, an index and imported
/// card data of its own.
struct Folders {
    tmp: TempDir,
    paths: Paths,
}

fn folders(name: &str) -> Folders {
    let tmp = TempDir::new(name);
    let paths = Paths {
        rulebook: crate::util::rulebook(),
        index: tmp.path().join("index"),
        data_dir: tmp.path().join("data"),
    };
    let files: Vec<PathBuf> = FIXTURES
        .iter()
        .map(|f| root().join("tests/fixtures/cards").join(f))
        .collect();
    swjudge::cards::import::import(&files, &paths.data_dir, false).expect("fixtures import");
    Folders { tmp, paths }
}

/// Start a server for `config` (plus `extra` routes) on a free loopback port, on
/// a runtime of its own that lives as long as the test binary.
pub fn start(config: Config, extra: axum::Router) -> SocketAddr {
    let app = Arc::new(App::open(config).expect("the server's state loads"));
    let router = swjudge::serve::router(app).merge(extra);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind");
            tx.send(listener.local_addr().expect("address"))
                .expect("send");
            axum::serve(listener, router).await.expect("serve");
        });
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("server started")
}

/// The shared server: the shipped scenarios, the card fixtures, the browser harness.
fn server() -> SocketAddr {
    static SERVER: OnceLock<(SocketAddr, Folders)> = OnceLock::new();
    SERVER
        .get_or_init(|| {
            let f = folders("serve");
            let config = Config::new(f.paths.clone(), PathBuf::from("scenarios"));
            (start(config, browser::harness()), f)
        })
        .0
}

fn shared_paths() -> &'static Folders {
    static F: OnceLock<Folders> = OnceLock::new();
    F.get_or_init(|| folders("serve-cli"))
}

fn get(path: &str) -> Response {
    let r = http::get(server(), path).unwrap_or_else(|e| panic!("GET {path}: {e}"));
    assert!(r.complete, "GET {path}: incomplete response");
    r
}

fn post(path: &str, kind: &str, body: &[u8]) -> Response {
    http::post(server(), path, kind, body).unwrap_or_else(|e| panic!("POST {path}: {e}"))
}

fn assert_has(r: &Response, what: &str) {
    assert!(r.body.contains(what), "expected {what:?} in:\n{}", r.body);
}

// ---- search ----

#[test]
fn search_page_groups_hits_and_links_them() {
    let r = get("/search?q=battle+destiny&game=swccg");
    assert_eq!(r.status, 200);
    assert_has(&r, "Rule sections (");
    assert_has(&r, "href=\"/rule/swccg.");
    assert_has(&r, "<mark>");
    assert_has(&r, "<option value=\"swccg\" selected>");
    let cards = get("/search?q=womp+rat+hunter+battle+damage");
    assert_has(&cards, "Card rulings and errata (");
    assert_has(&cards, "href=\"/card/swccg:9002#ruling-");
}

#[test]
fn search_page_links_where_a_pointer_section_points() {
    let r = get("/search?q=empty+hand&game=swccg");
    assert_eq!(r.status, 200);
    assert_has(
        &r,
        "See <a class=\"rule\" href=\"/rule/swccg.ar.implied-target-rule\">",
    );
}

#[test]
fn search_page_says_what_a_typo_was_read_as() {
    let r = get("/search?q=how+many+batle+destiny&game=swccg");
    assert_eq!(r.status, 200);
    assert_has(
        &r,
        "Read \u{201c}batle\u{201d} as \u{201c}<strong>battle</strong>\u{201d}.",
    );
    assert!(
        !get("/search?q=battle+destiny&game=swccg")
            .body
            .contains("Read \u{201c}")
    );
}

#[test]
fn search_says_nothing_found_plainly() {
    let r = get("/search?q=zzxqv+wibblewobble");
    assert_eq!(r.status, 200);
    assert_has(&r, "Nothing found for &quot;zzxqv wibblewobble&quot;");
    let empty = get("/search");
    assert_eq!(empty.status, 200);
    assert_has(&empty, "Type a question");
}

#[test]
fn search_rejects_bad_filters() {
    let r = get("/search?q=battle&game=chess");
    assert_eq!(r.status, 400);
    assert_has(&r, "unknown game &quot;chess&quot;");
    let r = get("/search?q=battle&kind=poem");
    assert_eq!(r.status, 400);
    assert_has(&r, "unknown kind &quot;poem&quot;");
    let api = get("/api/search?q=%21%21%21");
    assert_eq!(api.status, 400);
    assert_has(
        &api,
        "\"error\": \"query \\\"!!!\\\" has no words to search for\"",
    );
    assert_eq!(get("/api/search").status, 400);
    assert_eq!(get("/api/search?q=battle&limit=0").status, 400);
    assert_eq!(get("/api/search?q=battle&limit=ten").status, 400);
    let long = format!("/api/search?q={}", "a".repeat(600));
    assert_has(&get(&long), "the limit is 500");
}

#[test]
fn search_fragment_is_the_results_alone() {
    let r = get("/search/results?q=force+drain&game=swccg&kind=rule");
    assert_eq!(r.status, 200);
    assert!(!r.body.contains("<html"), "{}", r.body);
    assert_has(&r, "class=\"hit\"");
}

/// A `swjudge` command over the same card data as the server, with an index of its own.
fn cli(args: &[&str]) -> String {
    let f = shared_paths();
    let o = swjudge(f.tmp.path())
        .env("SWJUDGE_DATA_DIR", &f.paths.data_dir)
        .args(args)
        .output()
        .expect("swjudge runs");
    assert!(code(&o) < 2, "{args:?}: {}", crate::util::stderr(&o));
    stdout(&o)
}

#[test]
fn api_returns_what_the_json_commands_print() {
    let pairs: [(&str, &[&str]); 6] = [
        (
            "/api/search?q=battle+destiny&game=swccg",
            &["search", "battle destiny", "--game", "swccg", "--json"],
        ),
        (
            "/api/search?q=womp+rat+hunter&kind=ruling&limit=3",
            &[
                "search",
                "womp rat hunter",
                "--kind",
                "ruling",
                "--limit",
                "3",
                "--json",
            ],
        ),
        (
            "/api/rule/swccg.ar.the-stack",
            &["rule", "swccg.ar.the-stack", "--json"],
        ),
        ("/api/card/swccg:9002", &["card", "swccg:9002", "--json"]),
        ("/api/card/womp%20rat", &["card", "womp rat", "--json"]),
        (
            "/api/coverage?game=swtcg",
            &["coverage", "--game", "swtcg", "--json"],
        ),
    ];
    for (url, args) in pairs {
        let served = get(url);
        assert_eq!(served.status, 200, "{url}: {}", served.body);
        assert_eq!(served.header("content-type"), Some("application/json"));
        assert_eq!(
            served.body,
            cli(args),
            "{url} differs from swjudge {args:?}"
        );
    }
}

#[test]
fn api_check_returns_what_check_json_prints() {
    let tmp = TempDir::new("serve-check");
    let file = root().join("scenarios/swccg/battles/simple-example.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(tmp.path().join("pasted.yaml"), &text).unwrap();
    let served = post("/api/check", "application/yaml", text.as_bytes());
    assert_eq!(served.status, 200, "{}", served.body);
    let o = swjudge(tmp.path())
        .current_dir(tmp.path())
        .args(["check", "pasted.yaml", "--json"])
        .output()
        .unwrap();
    assert_eq!(served.body, stdout(&o));
    assert_has(&served, "\"verdict\": \"pass\"");
}

// ---- rule ----

#[test]
fn rule_page_links_ids_children_and_breadcrumb() {
    let r = get("/rule/swccg.ar.the-stack");
    assert_eq!(r.status, 200);
    assert_has(&r, "aria-label=\"Breadcrumb\"");
    assert_has(&r, "<li aria-current=\"page\">The Stack</li>");
    assert_has(&r, "swccg.ar.the-stack");
    assert!(r.body.matches("href=\"/rule/").count() > 3, "{}", r.body);
}

#[test]
fn rule_page_marks_superseded_documents() {
    let corpus = swjudge::rulebook::Corpus::load(&crate::util::rulebook()).unwrap();
    let old = corpus
        .sections
        .iter()
        .find(|s| s.superseded && !s.body.trim().is_empty())
        .expect("a superseded section");
    let r = get(&format!("/rule/{}", old.id));
    assert_eq!(r.status, 200);
    assert_has(&r, "Superseded.");
    let current = get("/rule/swccg.ar.the-stack");
    assert!(!current.body.contains("Superseded."));
}

#[test]
fn rule_cross_references_and_ids_in_text_are_links() {
    let corpus = swjudge::rulebook::Corpus::load(&crate::util::rulebook()).unwrap();
    let resolver = swjudge::rulebook::lint::Resolver::new(&corpus);
    let (s, target) = corpus
        .sections
        .iter()
        .find_map(|s| {
            let refs = resolver.cross_references(s);
            let id = refs
                .into_iter()
                .find_map(|r| r.id.filter(|_| s.body.contains(&r.text)))?;
            Some((s, id))
        })
        .expect("a section with a resolved cross-reference");
    let r = get(&format!("/rule/{}", s.id));
    assert_eq!(r.status, 200);
    assert_has(&r, &format!("class=\"rule\" href=\"/rule/{target}\""));
}

#[test]
fn unknown_rule_is_404_with_suggestions() {
    let r = get("/rule/swccg.ar.the-stak");
    assert_eq!(r.status, 404);
    assert_has(&r, "Did you mean");
    assert_has(&r, "href=\"/rule/swccg.ar.the-stack\"");
    let api = get("/api/rule/swccg.ar.the-stak");
    assert_eq!(api.status, 404);
    assert_has(&api, "\"found\": false");
    assert_eq!(get(&format!("/rule/{}", "x".repeat(300))).status, 400);
    assert_eq!(get(&format!("/api/rule/{}", "x".repeat(300))).status, 400);
    let moved = get("/rule/SWCCG.AR.THE-STACK");
    assert_eq!(moved.status, 308);
    assert_eq!(moved.header("location"), Some("/rule/swccg.ar.the-stack"));
}

// ---- card ----

#[test]
fn card_page_shows_text_stats_rulings_and_sources() {
    let r = get("/card/swccg:9002");
    assert_eq!(r.status, 200);
    assert_has(&r, "Womp Rat Hunter");
    assert_has(&r, "Rulings (2)");
    assert_has(&r, "id=\"ruling-2\"");
    assert_has(&r, "If this character is stolen");
    assert_has(&r, "<dt>power</dt>");
    assert_has(&r, "Source: ");
    let by_name = get("/card/womp%20rat%20hunter");
    assert_has(&by_name, "Rulings (2)");
}

#[test]
fn card_lookup_lists_choices_or_says_none() {
    let none = get("/card/zzxqv%20wibble");
    assert_eq!(none.status, 404);
    assert_has(&none, "No card matches");
    assert_eq!(get(&format!("/card/{}", "a".repeat(300))).status, 400);
    assert_eq!(get(&format!("/api/card/{}", "a".repeat(300))).status, 400);
    assert_eq!(get("/api/card/zzxqv%20wibble").status, 404);
    let form = get("/card?name=womp+rat+hunter");
    assert_eq!(form.status, 303);
    assert_eq!(form.header("location"), Some("/card/womp%20rat%20hunter"));
    assert_has(&get("/card"), "Look a card up");
}

#[test]
fn ambiguous_card_name_lists_every_candidate() {
    let api = get("/api/card/the");
    let report: serde_json::Value = serde_json::from_str(&api.body).unwrap();
    let page = get("/card/the");
    if report["card"].is_null() && report["by_game"].as_array().is_some_and(Vec::is_empty) {
        for m in report["matches"].as_array().unwrap() {
            let reference = m["reference"].as_str().unwrap();
            assert_has(&page, &format!("href=\"/card/{reference}\""));
        }
    }
    assert!(
        page.body.contains("Which card?")
            || page.body.contains("No card matches")
            || page.body.contains("Rulings (")
    );
}

// ---- check ----

#[test]
fn check_form_offers_every_shipped_scenario() {
    let r = get("/check");
    assert_eq!(r.status, 200);
    assert_has(&r, "<option value=\"swccg/battles/simple-example.yaml\">");
    assert_has(&r, "<textarea id=\"yaml\" name=\"yaml\"");
    let open = get("/check/open?path=swccg/battles/simple-example.yaml");
    assert_eq!(open.status, 303);
    assert_eq!(
        open.header("location"),
        Some("/check/swccg/battles/simple-example.yaml")
    );
}

#[test]
fn check_shipped_scenario_shows_verdict_expectations_and_cited_trace() {
    let r = get("/check/swccg/battles/simple-example.yaml");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_has(&r, "<strong>Pass</strong>");
    assert_has(&r, "<th scope=\"row\"><code>outcome</code></th>");
    assert_has(&r, "<table class=\"trace\">");
    assert_has(
        &r,
        "<td class=\"cites\"><a class=\"rule\" href=\"/rule/swccg.",
    );
    assert_has(&r, "scenarios/swccg/battles/simple-example.yaml");
    // The summary `check` prints stands above the full trace.
    assert_has(&r, "<h2>Summary</h2>");
    assert_has(&r, "Step 2, light: Light initiates a battle at Hoth site");
    assert_has(&r, "What the run changed on the board");
    let (summary, trace) = (
        r.body.find("<h2>Summary</h2>"),
        r.body.find("<h2>Trace</h2>"),
    );
    assert!(summary < trace, "the summary comes before the trace");
}

#[test]
fn check_refuses_paths_that_leave_the_scenarios_folder() {
    for path in [
        "/check/../Cargo.toml",
        "/check/%2e%2e/Cargo.toml",
        "/check/swccg/..%2f..%2fCargo.toml",
        "/check/%2fetc%2fpasswd",
        "/check//etc/passwd",
        "/check/swccg\\..\\..\\Cargo.toml",
    ] {
        let r = http::get(server(), path).unwrap();
        assert!(
            r.status == 403 || r.status == 404 || r.status == 400,
            "{path}: {}",
            r.status
        );
        assert!(
            !r.body.contains("[package]"),
            "{path} served a file outside scenarios/"
        );
    }
    let r = get("/check/%2e%2e/Cargo.toml");
    assert_eq!(r.status, 403);
    assert_has(&r, "is not a path inside the scenarios folder");
    assert_eq!(get("/check/swccg/no-such.yaml").status, 404);
    assert_eq!(get("/check/unreproducible.tsv").status, 404);
}

#[cfg(unix)]
#[test]
fn check_refuses_a_link_out_of_the_scenarios_folder() {
    let f = folders("serve-link");
    let dir = f.tmp.path().join("scenarios");
    std::fs::create_dir_all(&dir).unwrap();
    let outside = f.tmp.path().join("outside.yaml");
    std::fs::copy(
        root().join("scenarios/swccg/battles/simple-example.yaml"),
        &outside,
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("link.yaml")).unwrap();
    let addr = start(Config::new(f.paths.clone(), dir), axum::Router::new());
    let r = http::get(addr, "/check/link.yaml").unwrap();
    assert_eq!(r.status, 403, "{}", r.body);
}

#[test]
fn pasted_scenario_is_checked_and_a_broken_one_shows_line_and_column() {
    let good = std::fs::read_to_string(root().join("scenarios/swccg/battles/simple-example.yaml"))
        .unwrap();
    let r = post(
        "/check",
        "application/x-www-form-urlencoded",
        format!("yaml={}", http::encode(&good)).as_bytes(),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_has(&r, "<strong>Pass</strong>");
    let broken = good.replacen("turn: light", "turn: light\n  bogus_key: 1", 1);
    let r = post(
        "/check",
        "application/x-www-form-urlencoded",
        format!("yaml={}", http::encode(&broken)).as_bytes(),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert_has(&r, "The scenario could not be loaded");
    assert!(
        regex::Regex::new(r"Line \d+, column \d+")
            .unwrap()
            .is_match(&r.body),
        "{}",
        r.body
    );
    assert_has(&r, "<mark>");
    assert_has(&r, "bogus_key");
    let api = post("/api/check", "application/yaml", broken.as_bytes());
    assert_eq!(api.status, 400);
    assert!(
        regex::Regex::new(r#""error": "pasted.yaml:\d+:\d+: "#)
            .unwrap()
            .is_match(&api.body),
        "{}",
        api.body
    );
    let missing_field = post("/check", "application/x-www-form-urlencoded", b"other=1");
    assert_eq!(missing_field.status, 422);
}

#[test]
fn oversized_bodies_are_refused() {
    let big = vec![b'a'; swjudge::serve::MAX_BODY + 1];
    let r = post("/api/check", "application/yaml", &big);
    assert_eq!(r.status, 413, "{}", r.body);
    assert_has(&r, "a scenario may be at most");
    let mut form = b"yaml=".to_vec();
    form.extend_from_slice(&big);
    let r = post("/check", "application/x-www-form-urlencoded", &form);
    assert_eq!(r.status, 413);
    // Within the body limit but over the YAML loader's: the loader's own message.
    let yaml = format!(
        "game: swccg\ntitle: big\nnotes: {}\n",
        "a".repeat(swjudge::yaml::MAX_BYTES)
    );
    let r = post("/api/check", "application/yaml", yaml.as_bytes());
    assert_eq!(r.status, 400);
    assert_has(&r, "the limit is 1048576 bytes");
}

#[test]
fn a_check_over_its_time_limit_is_abandoned() {
    let f = folders("serve-slow");
    let mut config = Config::new(f.paths.clone(), PathBuf::from("scenarios"));
    config.check_time_limit = Duration::ZERO;
    let addr = start(config, axum::Router::new());
    let r = http::get(addr, "/check/swccg/battles/simple-example.yaml").unwrap();
    assert_eq!(r.status, 503);
    assert!(r.body.contains("longer than its time limit"), "{}", r.body);
    let text = std::fs::read(root().join("scenarios/swccg/battles/simple-example.yaml")).unwrap();
    let r = http::post(addr, "/api/check", "application/yaml", &text).unwrap();
    assert_eq!(r.status, 503);
    drop(f);
}

// ---- deck ----

/// The deck fixtures' folder.
fn decks() -> PathBuf {
    root().join("tests/data/decks")
}

/// A server whose card data is the deck fixtures (every game's cards and the
/// Destiny formats).
fn deck_server() -> SocketAddr {
    static SERVER: OnceLock<(SocketAddr, Folders)> = OnceLock::new();
    SERVER
        .get_or_init(|| {
            let tmp = TempDir::new("serve-deck");
            let paths = Paths {
                rulebook: crate::util::rulebook(),
                index: tmp.path().join("index"),
                data_dir: tmp.path().join("data"),
            };
            let c = decks().join("cards");
            let files: Vec<PathBuf> = [
                "swccg.json",
                "LEG.json",
                "AW.json",
                "formats.json",
                "swtcg.txt",
            ]
            .iter()
            .map(|f| c.join(f))
            .collect();
            swjudge::cards::import::import(&files, &paths.data_dir, false)
                .expect("deck fixtures import");
            let config = Config::new(paths.clone(), PathBuf::from("scenarios"));
            (start(config, axum::Router::new()), Folders { tmp, paths })
        })
        .0
}

fn post_deck(form: &str) -> Response {
    http::post(
        deck_server(),
        "/deck",
        "application/x-www-form-urlencoded",
        form.as_bytes(),
    )
    .expect("POST /deck")
}

fn deck_form(file: &str, game: &str, format: &str) -> String {
    let text = std::fs::read_to_string(decks().join(file)).unwrap();
    format!(
        "deck={}&game={game}&format={}",
        http::encode(&text),
        http::encode(format)
    )
}

#[test]
fn deck_form_offers_games_and_the_imported_formats() {
    let r = http::get(deck_server(), "/deck").unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    assert_has(&r, "<textarea id=\"deck\" name=\"deck\"");
    assert_has(&r, "<input id=\"deck-file\" type=\"file\"");
    assert_has(&r, "<option value=\"swtcg\">");
    assert_has(&r, "<option value=\"STD\">Standard (STD)</option>");
    assert_has(&r, "aria-current=\"page\">Check a deck");
}

#[test]
fn an_illegal_deck_shows_each_problem_with_its_rule_linked() {
    let r = post_deck(&deck_form("swccg-59-cards.txt", "", ""));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_has(&r, "<strong>Illegal</strong>: 1 problem.");
    assert_has(
        &r,
        "<a class=\"rule\" href=\"/rule/swccg.ar.reserve-deck\">swccg.ar.reserve-deck</a>",
    );
    assert_has(&r, "the deck has 59 cards");
    assert_has(&r, "Star Wars CCG deck");
    // the cards, each a link to its page
    assert!(
        regex::Regex::new(r#"<a href="/card/swccg:\d+">Luke Skywalker</a>"#)
            .unwrap()
            .is_match(&r.body),
        "{}",
        r.body
    );
    // a problem whose citation is a card record, not a section: shown, not linked
    let r = post_deck(&deck_form("swccg-legacy.txt", "", ""));
    assert_has(&r, "<code>swccg.json#15 (legacy)</code>");
    // a name no card has: the candidates to choose from
    let r = post_deck(&deck_form("names-ambiguous.txt", "", ""));
    assert_has(&r, "Choices: ");
}

#[test]
fn a_legal_deck_shows_its_summary_and_the_formats_it_is_legal_in() {
    let r = post_deck(&deck_form("destiny-legal.txt", "", ""));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_has(&r, "<strong>Legal</strong>");
    assert_has(&r, "points, ");
    assert_has(&r, "Legal in: ");
    let r = post_deck(&deck_form("destiny-balance.txt", "destiny", "std"));
    assert_has(&r, "format STD (Standard)");
    assert_has(&r, "the team costs 31 points");
}

#[test]
fn api_deck_returns_what_deck_json_prints() {
    let tmp = TempDir::new("serve-deck-cli");
    let data = tmp.path().join("data");
    let c = decks().join("cards");
    let o = swjudge(tmp.path())
        .env("SWJUDGE_DATA_DIR", &data)
        .args(["cards", "import"])
        .args(
            [
                "swccg.json",
                "LEG.json",
                "AW.json",
                "formats.json",
                "swtcg.txt",
            ]
            .map(|f| c.join(f)),
        )
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", crate::util::stderr(&o));
    for (file, query, args) in [
        ("swccg-legal.gemp.txt", "", &[][..]),
        (
            "swccg-two-sides.txt",
            "?game=swccg",
            &["--game", "swccg"][..],
        ),
        (
            "destiny-balance.txt",
            "?format=STD",
            &["--format", "STD"][..],
        ),
        ("destiny-legal.json", "", &[][..]),
        ("names-unresolved.txt", "", &[][..]),
        ("swtcg-legal.dek", "", &[][..]),
    ] {
        let text = std::fs::read_to_string(decks().join(file)).unwrap();
        std::fs::write(tmp.path().join("pasted.txt"), &text).unwrap();
        let url = format!("/api/deck{query}");
        let served = http::post(deck_server(), &url, "text/plain", text.as_bytes()).unwrap();
        assert_eq!(served.status, 200, "{url} {file}: {}", served.body);
        assert_eq!(served.header("content-type"), Some("application/json"));
        let o = swjudge(tmp.path())
            .env("SWJUDGE_DATA_DIR", &data)
            .current_dir(tmp.path())
            .args(["deck", "pasted.txt", "--json"])
            .args(args)
            .output()
            .unwrap();
        assert!(code(&o) < 2, "{file}: {}", crate::util::stderr(&o));
        assert_eq!(
            served.body,
            stdout(&o),
            "{file}: /api/deck differs from swjudge deck"
        );
    }
}

#[test]
fn bad_deck_input_is_one_clear_message() {
    let r = post_deck("deck=%23+nothing+here%0A&game=&format=");
    assert_eq!(r.status, 400, "{}", r.body);
    assert_has(&r, "pasted.txt: no cards in this deck list");
    assert_has(&r, "<textarea id=\"deck\" name=\"deck\"");
    let r = post_deck("deck=2x+Luke+Skywalker&game=chess&format=");
    assert_eq!(r.status, 400);
    assert_has(&r, "unknown game");
    let r = post_deck("deck=2x+Luke+Skywalker&game=swccg&format=STD");
    assert_eq!(r.status, 400);
    assert_has(&r, "names a Star Wars: Destiny format");
    let r = http::post(
        deck_server(),
        "/api/deck?format=nosuch",
        "text/plain",
        b"1x Rebel Trooper",
    )
    .unwrap();
    assert_eq!(r.status, 400);
    assert_has(&r, "\"error\": \"unknown format");
    // over the deck list's limit, within the request's
    let big = "1x Rebel Trooper\n".repeat(100_000);
    let r = http::post(deck_server(), "/api/deck", "text/plain", big.as_bytes()).unwrap();
    assert_eq!(r.status, 400, "{}", r.body);
    assert_has(&r, "the limit is 1048576 bytes");
    let r = post_deck("game=swccg");
    assert_eq!(r.status, 422);
    let mut form = b"deck=".to_vec();
    form.extend(vec![b'a'; swjudge::serve::MAX_BODY + 1]);
    let r = http::post(
        deck_server(),
        "/deck",
        "application/x-www-form-urlencoded",
        &form,
    )
    .unwrap();
    assert_eq!(r.status, 413);
    assert_has(&r, "a deck list may be at most");
}

// ---- coverage ----

#[test]
fn coverage_page_counts_per_game_and_area_and_links_missing_examples() {
    let r = get("/coverage");
    assert_eq!(r.status, 200);
    assert_has(&r, "<caption>Per game</caption>");
    assert_has(&r, "<caption>Per area</caption>");
    assert_has(&r, "<th scope=\"row\">Star Wars CCG</th>");
    assert_has(&r, "Examples not yet reproduced");
    assert_has(&r, "<summary>Star Wars CCG · ");
    assert_eq!(get("/coverage?game=chess").status, 400);
    assert_eq!(get("/api/coverage?missing=perhaps").status, 400);
    let missing: serde_json::Value =
        serde_json::from_str(&get("/api/coverage?missing=true").body).unwrap();
    assert!(
        missing["examples"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["status"] == "not-covered")
    );
}

// ---- the frame ----

#[test]
fn unknown_paths_are_404_and_every_page_is_self_contained() {
    let r = get("/no/such/page");
    assert_eq!(r.status, 404);
    assert_has(&r, "Page not found");
    let api = get("/api/nothing");
    assert_eq!(api.status, 404);
    assert_has(&api, "\"error\"");
    for path in [
        "/search?q=battle",
        "/rule/swccg.ar.the-stack",
        "/card/swccg:9002",
        "/check",
        "/deck",
        "/coverage",
        "/static/app.css",
        "/static/app.js",
    ] {
        let r = get(path);
        assert_eq!(r.status, 200, "{path}");
        assert!(
            !r.body.contains("http://")
                && !r.body.contains("https://")
                && !r.body.contains("//cdn"),
            "{path} loads something from elsewhere"
        );
        assert!(
            r.header("content-security-policy")
                .is_some_and(|c| c.starts_with("default-src 'self'")),
            "{path}"
        );
        if !path.starts_with("/static/") {
            assert_has(&r, "<html lang=\"en\">");
            assert_has(&r, "<main id=\"main\"");
            assert_has(&r, "href=\"#main\"");
        }
    }
}

#[test]
fn pages_label_every_form_control() {
    let ids = regex::Regex::new(r#"<(?:input|select|textarea) id="([^"]+)""#).unwrap();
    for path in ["/search", "/check", "/card", "/deck"] {
        let r = get(path);
        for c in ids.captures_iter(&r.body) {
            assert_has(&r, &format!("<label for=\"{}\">", &c[1]));
        }
    }
}

/// `swjudge serve` prints where to open the pages and serves them on the loopback
/// address without a warning (the warning off it: `cli::serve`'s unit test).
#[test]
fn serve_command_prints_the_address_and_serves() {
    use std::io::BufRead;
    let tmp = TempDir::new("serve-cli");
    let mut child = swjudge(tmp.path())
        .args(["serve", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port: u16 = regex::Regex::new(r"http://127\.0\.0\.1:(\d+)")
        .unwrap()
        .captures(&line)
        .expect("an address")[1]
        .parse()
        .unwrap();
    let page = http::get(
        SocketAddr::from(([127, 0, 0, 1], port)),
        "/search?q=force+drain",
    );
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    let page = page.unwrap();
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Force Drain"), "{}", page.body);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("anyone on the networks"), "{err}");
}

/// Bounded load: 50 clients on the loopback address typing searches and checking
/// scenarios for a few seconds (`SWJUDGE_LOAD_SECS` for longer): no request may fail
/// and every response must be whole. Latency targets are the bench's (`--bench serve`).
#[test]
fn fifty_clients_search_and_check_without_an_error() {
    let secs = std::env::var("SWJUDGE_LOAD_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let questions: Vec<String> = [
        "battle destiny",
        "force drain at a site",
        "womp rat hunter",
        "maximum shields on a character",
        "can I react to my own battle",
    ]
    .map(String::from)
    .to_vec();
    let shipped = vec!["swccg/battles/simple-example.yaml".to_string()];
    let pasted =
        std::fs::read_to_string(root().join("scenarios/swccg/battles/simple-example.yaml"))
            .unwrap();
    let seen = http::load(
        server(),
        50,
        Duration::from_secs(secs),
        &questions,
        &shipped,
        &pasted,
    );
    assert!(seen.requests > 50, "{seen:?}");
    assert_eq!(seen.errors, 0, "{:?}", seen.first_errors);
    assert_eq!(seen.incomplete, 0);
    assert!(!seen.check_ms.is_empty() && !seen.search_ms.is_empty());
}

#[path = "browser/browser.rs"]
mod browser;

/// Where this test run keeps its screenshots.
fn shots_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-screenshots");
    std::fs::create_dir_all(&d).unwrap();
    d
}
