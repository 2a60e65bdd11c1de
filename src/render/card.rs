//! Rendering for `card` and `cards import` output (text and JSON from one structure).

use super::{Style, one_line};
use crate::cards::import::{FileReport, Imported, Skipped, StoredInfo};
use crate::cards::markup::{self, Emphasis};
use crate::cards::{Card, CardDb, Entry, Face, Lookup, Match, SeeAlso, Stats, Status};
use crate::game::Game;
use serde::Serialize;

/// One die face as shown: the notation and what it means.
#[derive(Debug, Clone, Serialize)]
pub struct FaceView {
    pub face: String,
    pub meaning: String,
}

/// A card as a judge reads it: current text and where it comes from, printed
/// text when an erratum replaces it, stats, errata and rulings with sources.
#[derive(Debug, Clone, Serialize)]
pub struct CardView {
    pub title: String,
    /// Unique label when the title alone is shared by several cards.
    pub label: String,
    /// Stable reference (`swccg:1098`): `swjudge card REF` finds this card.
    pub reference: String,
    pub game: Game,
    pub side: Option<String>,
    #[serde(rename = "type")]
    pub card_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtype: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uniqueness: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    pub stats: Stats,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub die: Vec<FaceView>,
    pub text: Option<String>,
    /// What `text` is: "errata (<section>)", "printed text (<file>#<id>)", ...
    pub text_source: Option<String>,
    /// The source's text when an erratum from the rulebook replaces it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub printed_text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub back: Option<Face>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub characteristics: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lore: Option<String>,
    pub errata: Vec<Entry>,
    /// When the card data's text has errata applied and the rulebook has an
    /// erratum for the card too: whether the two agree, and where not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errata_check: Option<ErrataCheck>,
    pub rulings: Vec<Entry>,
    /// What it cancels, is canceled by, pulls and is pulled by (card titles).
    #[serde(skip_serializing_if = "crate::cards::Relations::is_empty")]
    pub relations: crate::cards::Relations,
    pub see_also: Vec<SeeAlso>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nicknames: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    pub source: String,
    /// `text` and `printed_text` with their markup, for emphasis on a terminal.
    #[serde(skip)]
    raw: (Option<String>, Option<String>),
}

impl CardView {
    /// The view of `db.cards[i]`: markup removed from its texts (see [`markup`]).
    pub fn of(db: &CardDb, i: usize, see_also: usize) -> CardView {
        let see_also = db.see_also(i, see_also);
        CardView::new(&db.cards[i], &db.labels[i], &db.refs[i], see_also)
    }

    pub fn new(card: &Card, label: &str, reference: &str, see_also: Vec<SeeAlso>) -> CardView {
        let (raw_text, text_source) = card
            .current_text()
            .map(|(t, why)| (t.to_string(), why))
            .unzip();
        let raw_printed = match (&card.text, &raw_text) {
            (Some(p), Some(t)) if p != t => Some(p.clone()),
            _ => None,
        };
        let plain = |t: &Option<String>| t.as_deref().map(markup::plain);
        let clean_entries = |list: &[Entry]| -> Vec<Entry> {
            list.iter()
                .map(|e| Entry {
                    text: markup::plain(&e.text),
                    source: e.source.clone(),
                })
                .collect()
        };
        let text = plain(&raw_text);
        let printed_text = plain(&raw_printed);
        CardView {
            title: card.title.clone(),
            label: label.to_string(),
            reference: reference.to_string(),
            game: card.game,
            side: card.side.clone(),
            card_type: card.card_type.clone(),
            subtype: card.subtype.clone(),
            subtitle: card.subtitle.clone(),
            uniqueness: card.uniqueness.clone(),
            set: card.set.clone(),
            number: card.number.clone(),
            stats: card.stats.clone(),
            die: card
                .die
                .iter()
                .map(|f| FaceView {
                    face: f.raw.clone(),
                    meaning: f.describe(),
                })
                .collect(),
            text,
            text_source,
            printed_text,
            back: card.back.clone().map(|mut b| {
                b.text = b.text.as_deref().map(markup::plain);
                b
            }),
            icons: card.icons.clone(),
            characteristics: card.characteristics.clone(),
            lore: card.lore.clone(),
            errata: clean_entries(&card.errata),
            errata_check: errata_check(card),
            rulings: clean_entries(&card.rulings),
            relations: card.relations.clone(),
            see_also,
            nicknames: card.nicknames.clone(),
            notes: card.notes.clone(),
            source: card.source.clone(),
            raw: (raw_text, raw_printed),
        }
    }
}

/// The card data's text with errata applied, set against the rulebook's
/// erratum for the same card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrataCheck {
    /// The rulebook section of the erratum.
    pub section: String,
    pub agrees: bool,
    /// Where they differ: the rulebook's words, with a word of context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rulebook: Option<String>,
    /// Where they differ: the card data's words, with a word of context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card_data: Option<String>,
}

/// A word as the comparison sees it: case, curly quotes and the uniqueness
/// mark's spellings (`*`, `•`) do not count.
fn same_word(a: &str, b: &str) -> bool {
    let norm = |w: &str| -> String {
        w.chars()
            .map(|c| match c {
                '*' => '•',
                '\u{2018}' | '\u{2019}' => '\'',
                '\u{201c}' | '\u{201d}' => '"',
                c => c.to_ascii_lowercase(),
            })
            .collect()
    };
    norm(a) == norm(b)
}

/// [`ErrataCheck`] for `card`, when its data's text has errata applied and the
/// rulebook has an erratum for it.
fn errata_check(card: &Card) -> Option<ErrataCheck> {
    if !card.text_is_errata {
        return None;
    }
    let text = markup::plain(card.text.as_deref()?);
    let e = card.errata.iter().rev().find(|e| !e.source.contains('#'))?;
    let erratum = markup::plain(crate::cards::errata_text(&e.text));
    let (a, b): (Vec<&str>, Vec<&str>) = (
        erratum.split_whitespace().collect(),
        text.split_whitespace().collect(),
    );
    let pre = a
        .iter()
        .zip(&b)
        .take_while(|(x, y)| same_word(x, y))
        .count();
    let suf = a[pre..]
        .iter()
        .rev()
        .zip(b[pre..].iter().rev())
        .take_while(|(x, y)| same_word(x, y))
        .count();
    let agrees = pre == a.len() && pre == b.len();
    let span = |w: &[&str]| -> String {
        let (from, to) = (pre.saturating_sub(1), (w.len() - suf + 1).min(w.len()));
        format!(
            "{}{}{}",
            if from > 0 { "… " } else { "" },
            w[from..to].join(" "),
            if to < w.len() { " …" } else { "" }
        )
    };
    Some(ErrataCheck {
        section: e.source.clone(),
        agrees,
        rulebook: (!agrees).then(|| span(&a)),
        card_data: (!agrees).then(|| span(&b)),
    })
}

/// Card text for a terminal: emphasis in bold or italics when colour is on.
fn rich(raw: Option<&str>, plain: &str, style: &Style) -> String {
    match raw {
        Some(r) if style.color => markup::render(r, |k, s| match k {
            Emphasis::Bold => style.bold(s),
            Emphasis::Italic => style.italic(s),
            Emphasis::Plain => s.to_string(),
        }),
        _ => plain.to_string(),
    }
}

/// One game's answer when a name is exact in several games.
#[derive(Debug, Clone, Serialize)]
pub struct GameAnswer {
    pub game: Game,
    /// The card, when the name is one card in this game.
    pub card: Option<CardView>,
    /// The cards to pick from, when it is several.
    pub candidates: Vec<Match>,
}

/// The whole answer of `swjudge card`.
#[derive(Debug, Clone, Serialize)]
pub struct CardReport {
    pub query: String,
    pub matches: Vec<Match>,
    /// Null when nothing matched, the name is ambiguous, or it is in several games.
    pub card: Option<CardView>,
    /// The name is exact in several games: each game's answer, side by side.
    pub by_game: Vec<GameAnswer>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl CardReport {
    pub fn new(db: &CardDb, lookup: &Lookup, see_also_limit: usize) -> CardReport {
        let card = lookup.chosen.map(|i| CardView::of(db, i, see_also_limit));
        let by_game = lookup
            .by_game
            .iter()
            .map(|(game, cards)| GameAnswer {
                game: *game,
                card: match cards.as_slice() {
                    [one] => Some(CardView::of(db, *one, see_also_limit)),
                    _ => None,
                },
                candidates: lookup
                    .matches
                    .iter()
                    .filter(|m| cards.len() > 1 && cards.contains(&m.index))
                    .cloned()
                    .collect(),
            })
            .collect();
        CardReport {
            query: lookup.query.clone(),
            matches: lookup.matches.clone(),
            card,
            by_game,
            warnings: db.warnings.clone(),
        }
    }

    /// Whether a card answers the query.
    /// One card answers the query (or one card in each game it names): an
    /// answer that leaves a choice to make, in any game, is "several cards match".
    pub fn found(&self) -> bool {
        self.card.is_some()
            || (!self.by_game.is_empty() && self.by_game.iter().all(|g| g.card.is_some()))
    }
}

fn stats_line(stats: &Stats) -> String {
    stats
        .iter()
        .filter(|(k, _)| *k != "die")
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Text output for `swjudge card`.
pub fn text(r: &CardReport, style: &Style) -> String {
    if let Some(c) = &r.card {
        let mut out = card_text(c, style);
        let others: Vec<String> = r
            .matches
            .iter()
            .filter(|m| m.reference != c.reference)
            .take(8)
            .map(|m| format!("{} [{}] {}", m.title, m.game, m.reference))
            .collect();
        if !others.is_empty() {
            let line = format!("Other close names: {}", others.join("; "));
            out.push('\n');
            style.push_wrapped(&mut out, &line, "", "  ");
        }
        return out;
    }
    let mut out = String::new();
    if !r.by_game.is_empty() {
        out.push_str(&format!(
            "\"{}\" names cards in {} games:\n",
            one_line(&r.query),
            r.by_game.len()
        ));
        for g in &r.by_game {
            out.push_str(&format!("\n{}\n", style.bold(&format!("── {} ──", g.game))));
            match &g.card {
                Some(c) => out.push_str(&card_text(c, style)),
                None => out.push_str(&candidates(&g.candidates, style)),
            }
        }
        out.push_str(&format!(
            "\nAdd --game to see one game, or give a reference such as {}.\n",
            r.matches
                .first()
                .map_or("swccg:1", |m| m.reference.as_str())
        ));
        return out;
    }
    if r.matches.is_empty() {
        out.push_str(&format!("no card matches \"{}\"\n", one_line(&r.query)));
        return out;
    }
    out.push_str(&format!(
        "\"{}\" could mean several cards; which one?\n",
        one_line(&r.query)
    ));
    out.push_str(&candidates(&r.matches, style));
    out.push_str(
        "Type a name from the list exactly as shown, or its reference (game:id), or add --game.\n",
    );
    out
}

/// Candidates, one per line: score, name as typed back, game and reference.
fn candidates(list: &[Match], style: &Style) -> String {
    let mut out = String::new();
    for m in list {
        let line = format!("{:.3}  {}  [{}]  {}", m.score, m.title, m.game, m.reference);
        style.push_wrapped(&mut out, &line, "  ", "         ");
    }
    out
}

/// One card as text.
fn card_text(c: &CardView, style: &Style) -> String {
    let mut out = format!(
        "{}{}",
        c.uniqueness
            .as_deref()
            .filter(|u| !u.starts_with('◆'))
            .unwrap_or(""),
        c.label
    );
    if let Some(sub) = &c.subtitle
        && !c.label.contains(sub.as_str())
    {
        out.push_str(&format!(" - {sub}"));
    }
    out.push('\n');
    let mut facts = vec![c.game.to_string()];
    if let Some(s) = &c.side {
        facts.push(s.clone());
    }
    match (&c.card_type, &c.subtype) {
        (Some(t), Some(st)) => facts.push(format!("{t} - {st}")),
        (Some(t), None) => facts.push(t.clone()),
        _ => {}
    }
    match (&c.set, &c.number) {
        (Some(s), Some(n)) => facts.push(format!("{s} #{n}")),
        (Some(s), None) => facts.push(s.clone()),
        _ => {}
    }
    out.push_str(&format!("{}\n", facts.join(" · ")));
    let sl = stats_line(&c.stats);
    if !sl.is_empty() {
        out.push_str(&format!("Stats: {sl}\n"));
    }
    for (name, list) in [("Icons", &c.icons), ("Characteristics", &c.characteristics)] {
        if !list.is_empty() {
            out.push_str(&format!("{name}: {}\n", list.join(", ")));
        }
    }
    if !c.die.is_empty() {
        out.push_str("Die:\n");
        for (i, f) in c.die.iter().enumerate() {
            out.push_str(&format!("  {}. {:<6} {}\n", i + 1, f.face, f.meaning));
        }
    }
    match (&c.text, &c.text_source) {
        (Some(t), Some(src)) => {
            out.push_str(&format!("\nText — {src}:\n"));
            style.push_wrapped(&mut out, &rich(c.raw.0.as_deref(), t, style), "  ", "  ");
        }
        _ => out.push_str("\nText: not known (no imported card data for this card)\n"),
    }
    if let Some(x) = &c.errata_check {
        let note = match (&x.rulebook, &x.card_data) {
            (Some(r), Some(d)) if !x.agrees => format!(
                "The rulebook's erratum ({}) reads differently: rulebook \"{r}\", card data \"{d}\". \
                 The card data does not date its text, so which is newer is not known; the \
                 erratum is quoted under Errata.",
                x.section
            ),
            _ => format!("Agrees with the rulebook's erratum ({}).", x.section),
        };
        style.push_wrapped(&mut out, &one_line(&note), "  ", "  ");
    }
    if let Some(l) = &c.lore {
        style.push_wrapped(&mut out, &format!("Lore: {l}"), "", "  ");
    }
    if let Some(p) = &c.printed_text {
        out.push_str(&format!(
            "\nText in the card data — {} (the errata above replace it):\n",
            c.source
        ));
        style.push_wrapped(&mut out, &rich(c.raw.1.as_deref(), p, style), "  ", "  ");
    }
    if let Some(b) = &c.back {
        out.push_str(&format!(
            "\nBack: {}{}\n",
            b.title,
            b.card_type
                .as_deref()
                .map(|t| format!(" ({t})"))
                .unwrap_or_default()
        ));
        let bs = stats_line(&b.stats);
        if !bs.is_empty() {
            out.push_str(&format!("  Stats: {bs}\n"));
        }
        if let Some(t) = &b.text {
            style.push_wrapped(&mut out, &rich(c.raw.0.as_deref(), t, style), "  ", "  ");
        }
    }
    for (name, list) in [("Errata", &c.errata), ("Rulings", &c.rulings)] {
        if list.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{name}:\n"));
        for e in list {
            out.push_str(&format!("  [{}]\n", e.source));
            style.push_wrapped(&mut out, &e.text, "    ", "    ");
        }
    }
    for (name, titles) in c.relations.listed() {
        out.push_str(&format!("\n{name} (look each up with `swjudge card`):\n"));
        style.push_wrapped(&mut out, &titles.join("; "), "  ", "  ");
    }
    if !c.see_also.is_empty() {
        out.push_str("\nSee also:\n");
        for s in &c.see_also {
            out.push_str(&format!("  {}  {}\n", s.id, s.title));
        }
    }
    if !c.nicknames.is_empty() {
        out.push_str(&format!("\nAlso known as: {}\n", c.nicknames.join(", ")));
    }
    for n in &c.notes {
        style.push_wrapped(&mut out, &format!("Note: {n}"), "", "  ");
    }
    out.push_str(&format!("Reference: {}\n", c.reference));
    out
}

/// The answer of `swjudge cards import`.
#[derive(Debug, Clone, Serialize)]
pub struct ImportSummary {
    pub files: Vec<FileReport>,
    pub imported: usize,
    pub rejected: usize,
    /// Files given (or found in a folder) that were not imported, and why.
    pub skipped: Vec<Skipped>,
}

impl ImportSummary {
    pub fn new(done: Imported) -> ImportSummary {
        let imported = done.files.iter().map(|f| f.imported).sum();
        let rejected = done.files.iter().map(|f| f.rejected.len()).sum();
        ImportSummary {
            files: done.files,
            imported,
            rejected,
            skipped: done.skipped,
        }
    }
}

/// Text output for `swjudge cards import`.
pub fn import_text(s: &ImportSummary) -> String {
    let mut out = String::new();
    for f in &s.files {
        out.push_str(&format!(
            "{}: {} cards imported ({}), {} rejected → {}\n",
            f.file,
            f.imported,
            f.format.describe(),
            f.rejected.len(),
            f.stored_as.display()
        ));
        for r in &f.rejected {
            out.push_str(&format!("  rejected {}: {}\n", r.id, r.reason));
        }
    }
    for k in &s.skipped {
        out.push_str(&format!("{}: skipped: {}\n", k.file, k.reason));
    }
    out.push_str(&format!(
        "total: {} cards imported, {} rejected\n",
        s.imported, s.rejected
    ));
    out
}

/// Text output for `swjudge cards list`: a line per stored database.
pub fn list_text(data_dir: &std::path::Path, list: &[StoredInfo]) -> String {
    let mut out = format!("card data: {}\n", data_dir.display());
    if list.is_empty() {
        out.push_str("  nothing imported (use `swjudge cards import FILE|DIR…`)\n");
    }
    for d in list {
        let what = if d.formats > 0 {
            format!("{} formats", d.formats)
        } else {
            format!("{} cards", d.cards)
        };
        out.push_str(&format!(
            "  {:<28} {:<16} {:>12}  from {}\n",
            d.name, d.format, what, d.file
        ));
    }
    out
}

/// Text output for `swjudge cards remove`.
pub fn removed_text(removed: &[StoredInfo]) -> String {
    let mut out = String::new();
    for d in removed {
        out.push_str(&format!("removed {} (from {})\n", d.name, d.file));
    }
    out
}

/// Text output for `swjudge cards status`.
pub fn status_text(s: &Status, list_limit: usize) -> String {
    let mut out = format!("card data: {}\n", s.data_dir);
    if s.sources.is_empty() {
        out.push_str("  no imported sources (use `swjudge cards import FILE…`)\n");
    }
    for src in &s.sources {
        out.push_str(&format!(
            "  {:<24} {:<8} {:>5} cards\n",
            src.file, src.format, src.cards
        ));
    }
    out.push_str("\ngame      cards  errata  rulings  rulebook-only\n");
    for g in &s.games {
        out.push_str(&format!(
            "{:<8} {:>6} {:>7} {:>8} {:>14}\n",
            g.game.as_str(),
            g.cards,
            g.with_errata,
            g.with_rulings,
            g.rulebook_only
        ));
    }
    if !s.rulebook_only.is_empty() {
        out.push_str(&format!(
            "\nrulebook entries that match no imported card ({}):\n",
            s.rulebook_only.len()
        ));
        for r in s.rulebook_only.iter().take(list_limit) {
            out.push_str(&format!("  {r}\n"));
        }
        if s.rulebook_only.len() > list_limit {
            out.push_str(&format!(
                "  … {} more (--all lists them)\n",
                s.rulebook_only.len() - list_limit
            ));
        }
    }
    for w in &s.warnings {
        out.push_str(&format!("warning: {w}\n"));
    }
    out
}
