//! `swjudge rule`.

use super::{CliResult, Ctx, Outcome};
use serde::Serialize;
use swjudge::render::rule::{RuleView, text};
use swjudge::rulebook::lint::{load_aliases, normalize, resolve_alias};
use swjudge::rulebook::{Corpus, Section};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Section ID, e.g. swccg.ar.the-stack.
    #[arg(value_name = "ID")]
    pub id: String,
}

/// Longest section ID accepted (the longest real one is well under 100).
const MAX_ID_CHARS: usize = 200;

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let corpus = Corpus::load(&ctx.paths.rulebook)?;
    let wanted = args.id.trim();
    if wanted.is_empty() {
        return Err(swjudge::Error::Usage(
            "empty section ID: give one such as swccg.ar.the-stack".into(),
        )
        .into());
    }
    if wanted.chars().count() > MAX_ID_CHARS {
        return Err(swjudge::Error::Usage(format!(
            "section ID is {} characters long; the limit is {MAX_ID_CHARS}",
            wanted.chars().count()
        ))
        .into());
    }
    let Some((section, via_alias)) = find(&corpus, wanted)? else {
        let suggestions = suggest(&corpus, wanted);
        let mut msg = format!("no section {wanted}");
        if !suggestions.is_empty() {
            msg.push_str("; did you mean: ");
            msg.push_str(&suggestions.join(", "));
        }
        if ctx.json {
            super::out_json(&NotFound {
                query: wanted,
                found: false,
                message: &msg,
                did_you_mean: suggestions,
            })?;
        } else {
            super::note(&msg);
        }
        return Ok(Outcome::NotFound);
    };
    if via_alias && !ctx.json {
        super::note(&format!("{wanted} is now {}", section.id));
    }
    let view = RuleView::new(&corpus, section);
    if ctx.json {
        super::out_json(&view)?;
    } else {
        super::out(&text(&view, &ctx.style))?;
    }
    Ok(Outcome::Found)
}

/// `rule --json` when no section has the ID.
#[derive(Serialize)]
struct NotFound<'a> {
    query: &'a str,
    found: bool,
    message: &'a str,
    did_you_mean: Vec<String>,
}

/// The section with this ID, ignoring case, or the one a published alias points to
/// (then `true`: the ID was renamed).
fn find<'c>(corpus: &'c Corpus, id: &str) -> swjudge::Result<Option<(&'c Section, bool)>> {
    if let Some(s) = corpus.get(id) {
        return Ok(Some((s, false)));
    }
    let lower = id.to_ascii_lowercase();
    if let Some(s) = corpus.get(&lower) {
        return Ok(Some((s, false)));
    }
    let aliases = load_aliases(&corpus.root)?;
    Ok(resolve_alias(corpus, &aliases, &lower).map(|s| (s, true)))
}

/// Sections whose title is what was typed ("the stack"), then IDs close to it.
fn suggest(corpus: &Corpus, wanted: &str) -> Vec<String> {
    let tail = wanted.rsplit('.').next().unwrap_or(wanted);
    let want = normalize(tail);
    let mut out: Vec<String> = Vec::new();
    if !want.is_empty() {
        let mut titled: Vec<&Section> = corpus
            .sections
            .iter()
            .filter(|s| {
                let t = normalize(&s.title);
                t == want || t.strip_prefix("the ").is_some_and(|t| t == want)
            })
            .collect();
        titled.sort_by_key(|s| (s.superseded, s.kind != swjudge::rulebook::Kind::Rule));
        out.extend(titled.into_iter().map(|s| s.id.clone()));
    }
    for id in corpus.suggest(wanted, 5) {
        if !out.iter().any(|o| o == id) {
            out.push(id.to_string());
        }
    }
    out.truncate(5);
    out
}
