//! What the index holds: the schema, the kinds of hit, and the documents made
//! from rulebook sections and from imported cards (card text, database errata
//! and rulings, one document each).

use super::text::{ANALYZER, WORDS};
use crate::cards::{Card, SourceFile};
use crate::rulebook::lint::Resolver;
use crate::rulebook::{Game, Kind, Section};
use serde::Serialize;
use std::fmt;
use std::sync::OnceLock;
use tantivy::TantivyDocument;
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};

/// Score factor for sections of superseded documents, so current text ranks first.
pub const SUPERSEDED_FACTOR: f32 = 0.6;
/// Prior of a section with no text of its own (a chapter heading).
const EMPTY_PRIOR: f32 = 0.3;
/// Prior of a stub that only points elsewhere ("See React, Ap. C.").
const STUB_PRIOR: f32 = 0.35;
/// Prior of a very short section.
const SHORT_PRIOR: f32 = 0.7;

/// What a hit is: a kind of rulebook section, or a card from an imported database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DocKind {
    Rule,
    Example,
    Errata,
    Ruling,
    Glossary,
    Faq,
    /// An imported card's text.
    Card,
}

impl DocKind {
    pub const ALL: [DocKind; 7] = [
        DocKind::Rule,
        DocKind::Example,
        DocKind::Errata,
        DocKind::Ruling,
        DocKind::Glossary,
        DocKind::Faq,
        DocKind::Card,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DocKind::Rule => "rule",
            DocKind::Example => "example",
            DocKind::Errata => "errata",
            DocKind::Ruling => "ruling",
            DocKind::Glossary => "glossary",
            DocKind::Faq => "faq",
            DocKind::Card => "card",
        }
    }

    /// Position in [`DocKind::ALL`].
    pub fn ord(self) -> usize {
        DocKind::ALL.iter().position(|&k| k == self).unwrap_or(0)
    }

    pub fn parse(s: &str) -> Option<DocKind> {
        let s = s.to_ascii_lowercase();
        DocKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

impl From<Kind> for DocKind {
    fn from(k: Kind) -> DocKind {
        match k {
            Kind::Rule => DocKind::Rule,
            Kind::Example => DocKind::Example,
            Kind::Errata => DocKind::Errata,
            Kind::Ruling => DocKind::Ruling,
            Kind::Glossary => DocKind::Glossary,
            Kind::Faq => DocKind::Faq,
        }
    }
}

impl fmt::Display for DocKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a hit comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "from", rename_all = "lowercase")]
pub enum Origin {
    /// A rulebook section, by ID.
    Rulebook { section: String },
    /// An imported card database: the stored file, the card's ID in it, and
    /// for a ruling or erratum its position (1-based) among the card's ones.
    Database {
        file: String,
        card: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        position: Option<u64>,
    },
}

/// Field handles of the schema.
#[derive(Debug, Clone, Copy)]
pub struct Fields {
    pub id: Field,
    /// Position of the document in build order (sections first, then cards).
    pub ord: Field,
    pub game: Field,
    pub kind: Field,
    /// `rulebook` or `database`.
    pub origin: Field,
    /// The title first; step and bold lead-in titles of the body follow.
    pub title: Field,
    pub body: Field,
    /// The words of the title and body as written (lower case, not
    /// stemmed), indexed without positions: the vocabulary a misspelt word
    /// is corrected from.
    pub words: Field,
    /// Stored only: the full breadcrumb, one value per level.
    pub crumbs: Field,
    /// Stored only: the document name within its game ("ar"), or the database file.
    pub doc: Field,
    /// Stored only: the card's ID in its database.
    pub card: Field,
    /// Stored only: a ruling's or erratum's position among the card's ones.
    pub position: Field,
    /// Stored only: for a section that only points to others ("See Implied
    /// Target Rule"), the IDs of the sections it points to.
    pub see: Field,
    /// Position of the document's ID in the sorted list of IDs, for tie-breaks.
    pub id_rank: Field,
    pub superseded: Field,
    /// Score factor in thousandths: stubs, empty headings and superseded text rank lower.
    pub prior: Field,
    /// The game's position in [`Game::ALL`].
    pub game_ord: Field,
    /// The kind's position in [`DocKind::ALL`].
    pub kind_ord: Field,
    /// 1 for a document of an imported card database, 0 for a rulebook section.
    pub from_db: Field,
}

pub fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let text = || {
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(ANALYZER)
                .set_index_option(IndexRecordOption::WithFreqsAndPositions),
        )
    };
    let fields = Fields {
        id: b.add_text_field("id", STRING | STORED),
        ord: b.add_u64_field("ord", FAST | STORED),
        game: b.add_text_field("game", STRING | STORED),
        kind: b.add_text_field("kind", STRING | STORED),
        origin: b.add_text_field("origin", STRING | STORED),
        title: b.add_text_field("title", text().set_stored()),
        body: b.add_text_field("body", text().set_stored()),
        words: b.add_text_field(
            "words",
            TextOptions::default().set_indexing_options(
                TextFieldIndexing::default()
                    .set_tokenizer(WORDS)
                    .set_index_option(IndexRecordOption::Basic),
            ),
        ),
        crumbs: b.add_text_field("crumbs", STORED),
        doc: b.add_text_field("doc", STORED),
        card: b.add_text_field("card", STORED),
        position: b.add_u64_field("position", STORED),
        see: b.add_text_field("see", STORED),
        id_rank: b.add_u64_field("id_rank", FAST),
        superseded: b.add_u64_field("superseded", INDEXED | FAST | STORED),
        prior: b.add_u64_field("prior", FAST),
        game_ord: b.add_u64_field("game_ord", FAST),
        kind_ord: b.add_u64_field("kind_ord", FAST),
        from_db: b.add_u64_field("from_db", FAST),
    };
    (b.build(), fields)
}

pub fn fields_of(schema: &Schema) -> Option<Fields> {
    let f = |name: &str| schema.get_field(name).ok();
    Some(Fields {
        id: f("id")?,
        ord: f("ord")?,
        game: f("game")?,
        kind: f("kind")?,
        origin: f("origin")?,
        title: f("title")?,
        body: f("body")?,
        words: f("words")?,
        crumbs: f("crumbs")?,
        doc: f("doc")?,
        card: f("card")?,
        position: f("position")?,
        see: f("see")?,
        id_rank: f("id_rank")?,
        superseded: f("superseded")?,
        prior: f("prior")?,
        game_ord: f("game_ord")?,
        kind_ord: f("kind_ord")?,
        from_db: f("from_db")?,
    })
}

pub fn game_ord(g: Game) -> u64 {
    Game::ALL.iter().position(|&x| x == g).unwrap_or(0) as u64
}

/// One document to index, before it gets its position and ID rank.
pub struct Doc {
    pub id: String,
    pub game: Game,
    pub kind: DocKind,
    pub titles: Vec<String>,
    pub body: String,
    pub crumbs: Vec<String>,
    pub doc: String,
    /// `Some((card id, position))` for database documents.
    pub card: Option<(String, Option<u64>)>,
    pub superseded: bool,
    pub prior: f32,
    /// The sections a pointer section points to (see [`Fields::see`]).
    pub see: Vec<String>,
}

impl Doc {
    pub fn to_tantivy(&self, f: &Fields, ord: usize, rank: usize) -> TantivyDocument {
        let mut d = TantivyDocument::default();
        d.add_text(f.id, &self.id);
        d.add_u64(f.ord, ord as u64);
        d.add_u64(f.id_rank, rank as u64);
        d.add_text(f.doc, &self.doc);
        for part in &self.crumbs {
            d.add_text(f.crumbs, part);
        }
        for id in &self.see {
            d.add_text(f.see, id);
        }
        d.add_text(f.game, self.game.as_str());
        d.add_u64(f.game_ord, game_ord(self.game));
        d.add_text(f.kind, self.kind.as_str());
        d.add_u64(f.kind_ord, self.kind.ord() as u64);
        d.add_u64(f.from_db, u64::from(self.card.is_some()));
        d.add_u64(f.superseded, u64::from(self.superseded));
        let mut prior = self.prior;
        if self.superseded {
            prior *= SUPERSEDED_FACTOR;
        }
        d.add_u64(f.prior, (prior * 1000.0).round() as u64);
        match &self.card {
            Some((card, position)) => {
                d.add_text(f.origin, "database");
                d.add_text(f.card, card);
                if let Some(p) = position {
                    d.add_u64(f.position, *p);
                }
            }
            None => d.add_text(f.origin, "rulebook"),
        }
        for t in &self.titles {
            d.add_text(f.title, t);
            d.add_text(f.words, t);
        }
        d.add_text(f.body, &self.body);
        d.add_text(f.words, &self.body);
        d
    }
}

/// The document of one rulebook section: its title and lead-in titles, its
/// plain body, and a prior that demotes empty headings and stubs; a stub
/// that only points elsewhere ("See 1.C. Implied Target Rule") names the
/// sections it points to.
pub fn section_doc(s: &Section, resolver: &Resolver) -> Doc {
    let body = s.plain_body();
    let mut titles = vec![s.title.clone()];
    titles.extend(lead_in_titles(&s.body));
    let words = body.split_whitespace().count();
    let stub = words <= 12 && body.trim_start().to_ascii_lowercase().starts_with("see ");
    let prior = if words == 0 {
        EMPTY_PRIOR
    } else if stub {
        STUB_PRIOR
    } else if words <= 6 {
        SHORT_PRIOR
    } else {
        1.0
    };
    let see = match stub {
        true => resolver
            .cross_references(s)
            .into_iter()
            .filter_map(|r| r.id)
            .filter(|id| *id != s.id)
            .collect(),
        false => Vec::new(),
    };
    Doc {
        id: s.id.clone(),
        game: s.game,
        kind: s.kind.into(),
        titles,
        body,
        crumbs: s.breadcrumb.clone(),
        doc: s.document.clone(),
        card: None,
        superseded: s.superseded,
        prior,
        see,
    }
}

/// Titles inside a body: numbered steps ("11. Check for Win Condition.") and
/// bold lead-ins ("**4. Can't Overrides.**"), one per line at most.
pub fn lead_in_titles(markdown: &str) -> Vec<String> {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r"(?m)^\s*(?:[-*+]\s+)?(?:\*\*([^*\n]{3,80}?)\*\*|(\d{1,2}\.\s+[A-Z][^.:\n]{2,60})[.:])",
        )
        .expect("lead-in pattern")
    });
    re.captures_iter(markdown)
        .filter_map(|c| c.get(1).or_else(|| c.get(2)))
        .map(|m| {
            m.as_str()
                .trim()
                .trim_end_matches(['.', ':'])
                .trim()
                .to_string()
        })
        .filter(|t| t.chars().any(char::is_alphabetic))
        .collect()
}

/// A game's name as a breadcrumb shows it.
fn game_label(g: Game) -> &'static str {
    match g {
        Game::Swccg => "Star Wars CCG",
        Game::Destiny => "Star Wars: Destiny",
        Game::Swtcg => "Star Wars TCG",
    }
}

/// Card text without markup: HTML tags dropped, icon codes in brackets kept as words.
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            '[' | ']' if !in_tag => out.push(' '),
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// The documents of one imported database: per card, its text, and each of
/// the database's errata and rulings on it.
pub fn card_docs(source: &SourceFile, out: &mut Vec<Doc>) {
    for card in &source.cards {
        card_doc(&source.file, card, out);
    }
}

fn card_doc(file: &str, card: &Card, out: &mut Vec<Doc>) {
    let mut name = format!("{}{}", card.uniqueness.as_deref().unwrap_or(""), card.title);
    if let Some(sub) = &card.subtitle {
        name = format!("{name}, {sub}");
    }
    let base = format!("{file}#{}", card.id);
    let top = format!("{} cards ({file})", game_label(card.game));
    let mut titles = vec![card.title.clone()];
    titles.extend(card.subtitle.clone());
    titles.extend(card.nicknames.iter().cloned());
    let mut body = Vec::new();
    for part in [&card.card_type, &card.subtype].into_iter().flatten() {
        body.push(part.clone());
    }
    body.extend(card.characteristics.iter().cloned());
    body.extend(card.text.as_deref().map(clean));
    if let Some(back) = &card.back {
        body.push(back.title.clone());
        body.extend(back.text.as_deref().map(clean));
        titles.push(back.title.clone());
    }
    let doc = |id: String, kind: DocKind, body: String, crumb: Option<String>, pos| Doc {
        id,
        game: card.game,
        kind,
        titles: titles.clone(),
        body,
        crumbs: [top.clone(), name.clone()]
            .into_iter()
            .chain(crumb)
            .collect(),
        doc: file.to_string(),
        card: Some((card.id.clone(), pos)),
        superseded: false,
        prior: 1.0,
        see: Vec::new(),
    };
    out.push(doc(
        base.clone(),
        DocKind::Card,
        body.join(". "),
        None,
        None,
    ));
    // Only the database's own entries: rulebook errata and rulings are sections.
    let own = |e: &&crate::cards::Entry| e.source.contains('#');
    for (i, e) in card.errata.iter().filter(own).enumerate() {
        let n = i as u64 + 1;
        out.push(doc(
            format!("{base}/errata/{n}"),
            DocKind::Errata,
            clean(&e.text),
            Some(format!("Erratum {n}")),
            Some(n),
        ));
    }
    for (i, e) in card.rulings.iter().filter(own).enumerate() {
        let n = i as u64 + 1;
        out.push(doc(
            format!("{base}/ruling/{n}"),
            DocKind::Ruling,
            clean(&e.text),
            Some(format!("Ruling {n}")),
            Some(n),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lead_in_titles_are_found() {
        let md = "Intro.\n\n- **4. Can't Overrides.** If one card says...\n\
                  11. Check for Win Condition. The player that controls...\n\
                  **Bold Lead:** text\nplain 3. not a step\n";
        assert_eq!(
            lead_in_titles(md),
            [
                "4. Can't Overrides",
                "11. Check for Win Condition",
                "Bold Lead"
            ]
        );
    }

    #[test]
    fn card_markup_is_cleaned() {
        assert_eq!(
            clean("<b>Action</b> - deal [blank]"),
            "Action - deal  blank "
        );
    }
}
