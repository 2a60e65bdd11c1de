//! The pages in headless Chromium: type a query and see results, open a rule
//! through a link, a card with rulings, check a shipped scenario and a broken one;
//! then screenshots at phone and desktop widths. Chromium is Debian's `chromium`
//! (`.ci/run` installs it). Without it the test is skipped with a message, except
//! under CI, where it fails.

use crate::util::{TempDir, under_ci};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The test page that drives the pages in a frame (served by the test server only).
pub fn harness() -> axum::Router {
    axum::Router::new().route(
        "/test/harness",
        axum::routing::get(|| async { axum::response::Html(include_str!("harness.html")) }),
    )
}

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

/// Run headless Chromium with a fresh profile; its standard output. Killed after `limit`.
fn headless(bin: &Path, args: &[String], limit: Duration) -> String {
    let profile = TempDir::new("chromium-profile");
    let mut child = Command::new(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within {limit:?}: {args:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    reader.join().expect("reader")
}

/// The text of the `<pre id="…">` the harness wrote.
fn step<'a>(dom: &'a str, id: &str) -> &'a str {
    let open = format!("<pre id=\"{id}\">");
    let Some(at) = dom.find(&open) else {
        panic!("the harness wrote no {id}:\n{dom}");
    };
    let rest = &dom[at + open.len()..];
    &rest[..rest.find("</pre>").unwrap_or(rest.len())]
}

#[test]
fn pages_work_in_headless_chromium() {
    let Some(bin) = chromium() else {
        assert!(
            !under_ci(),
            "chromium is not installed; .ci/run installs it under CI"
        );
        eprintln!("browser test skipped: chromium is not installed (apt-get install chromium)");
        return;
    };
    let addr = super::server();
    let dom = headless(
        &bin,
        &[
            "--virtual-time-budget=60000".into(),
            "--dump-dom".into(),
            format!("http://{addr}/test/harness"),
        ],
        Duration::from_secs(180),
    );
    assert!(
        !dom.contains("<pre id=\"failure\">"),
        "the harness failed:\n{dom}"
    );
    assert!(
        dom.contains("<pre id=\"done\">"),
        "the harness did not finish:\n{dom}"
    );
    let typed = step(&dom, "typed");
    assert!(typed.starts_with("RESULTS"), "{typed}");
    assert!(typed.contains("Rule sections"), "{typed}");
    assert!(
        step(&dom, "typed-url").starts_with("/search?q=battle+destiny"),
        "{dom}"
    );
    let rule = step(&dom, "rule");
    assert!(rule.starts_with("/rule/"), "{rule}");
    assert!(
        rule.contains("Skip") || rule.contains('›') || rule.contains("swccg."),
        "{rule}"
    );
    let card = step(&dom, "card");
    assert!(
        card.contains("Womp Rat Hunter") && card.contains("Rulings (2)"),
        "{card}"
    );
    assert!(card.contains("If this character is stolen"), "{card}");
    let shipped = step(&dom, "shipped");
    assert!(
        shipped.starts_with("/check/swccg/battles/simple-example.yaml"),
        "{shipped}"
    );
    assert!(
        shipped.contains("Pass:") && shipped.contains("Trace"),
        "{shipped}"
    );
    let broken = step(&dom, "broken");
    assert!(
        broken.contains("could not be loaded") && broken.contains("Line 5, column"),
        "{broken}"
    );
    screenshots(&bin, addr);
}

/// Each page at a phone's width and a desktop's, kept for people to look at.
fn screenshots(bin: &Path, addr: std::net::SocketAddr) {
    let dir = super::shots_dir();
    let pages = [
        ("search", "/search?q=battle+destiny"),
        ("rule", "/rule/swccg.ar.the-stack"),
        ("card", "/card/swccg:9002"),
        ("check", "/check/swccg/battles/simple-example.yaml"),
        ("coverage", "/coverage"),
    ];
    for (name, path) in pages {
        for (width, height, label) in [(360, 780, "phone"), (1280, 900, "desktop")] {
            let file = dir.join(format!("{name}-{label}.png"));
            let _ = std::fs::remove_file(&file);
            headless(
                bin,
                &[
                    format!("--screenshot={}", file.display()),
                    format!("--window-size={width},{height}"),
                    format!("http://{addr}{path}"),
                ],
                Duration::from_secs(60),
            );
            let size = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
            assert!(
                size > 1000,
                "no screenshot of {path} at {width} px ({})",
                file.display()
            );
        }
    }
}
