//! Rulebook Markdown as HTML, with every rule ID and every resolved
//! cross-reference in the text a link to its rule.

use super::search::url_path;
use crate::rulebook::Corpus;
use crate::rulebook::lint::CrossRef;
use maud::{Markup, PreEscaped, html};
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};
use regex::Regex;
use std::sync::LazyLock;

/// Something that looks like a section ID (`swccg.ar.the-stack`, `destiny.rr.x#2`).
static RULE_ID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:swccg|destiny|swtcg)\.[a-z0-9][a-z0-9.-]*[a-z0-9](?:#\d+)?")
        .expect("valid regex")
});

/// `md` as HTML. Raw HTML in the source is shown as text, never passed through.
pub fn render(md: &str, corpus: &Corpus, refs: &[CrossRef]) -> Markup {
    let mut in_link = 0usize;
    let mut events: Vec<Event> = Vec::new();
    for ev in Parser::new_ext(md, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        match ev {
            Event::Start(Tag::Link { .. }) => {
                in_link += 1;
                events.push(ev);
            }
            Event::End(TagEnd::Link) => {
                in_link = in_link.saturating_sub(1);
                events.push(ev);
            }
            Event::Text(t) if in_link == 0 => linkify(&t, corpus, refs, &mut events),
            Event::Html(h) | Event::InlineHtml(h) => events.push(Event::Text(h)),
            other => events.push(other),
        }
    }
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, events.into_iter());
    PreEscaped(out)
}

/// A link to the rule `id` (for a passage `SECTION#N`, its section) with `text` as its words.
pub fn rule_link(id: &str, text: &str) -> Markup {
    let section = id.split('#').next().unwrap_or(id);
    html! { a.rule href={ "/rule/" (url_path(section)) } { (text) } }
}

/// A citation: a section of the corpus is a link to it; anything else (a format
/// entry, a card record) is shown as it is.
pub fn cite(corpus: &Corpus, id: &str) -> Markup {
    html! {
        @if corpus.contains(id) { (rule_link(id, id)) } @else { code { (id) } }
    }
}

/// `text` as events, each rule ID of the corpus and each resolved cross-reference a link.
fn linkify<'a>(text: &str, corpus: &Corpus, refs: &[CrossRef], out: &mut Vec<Event<'a>>) {
    let mut spans: Vec<(usize, usize, String)> = Vec::new();
    for m in RULE_ID.find_iter(text) {
        let id = m.as_str();
        let section = id.split('#').next().unwrap_or(id);
        if corpus.contains(section) {
            spans.push((m.start(), m.end(), id.to_string()));
        }
    }
    for r in refs {
        let Some(id) = &r.id else { continue };
        if r.text.is_empty() {
            continue;
        }
        for (start, found) in text.match_indices(r.text.as_str()) {
            spans.push((start, start + found.len(), id.clone()));
        }
    }
    spans.sort_by_key(|s| (s.0, std::cmp::Reverse(s.1)));
    let mut at = 0;
    for (start, end, id) in spans {
        if start < at {
            continue;
        }
        if start > at {
            out.push(Event::Text(CowStr::from(text[at..start].to_string())));
        }
        let link = rule_link(&id, &text[start..end]).into_string();
        out.push(Event::InlineHtml(CowStr::from(link)));
        at = end;
    }
    if at < text.len() {
        out.push(Event::Text(CowStr::from(text[at..].to_string())));
    }
}
