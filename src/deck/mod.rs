//! `swjudge deck`: deck and team legality for the three games.
//!
//! A deck file is read into a [`DeckList`] ([`read`]), each line's card is found
//! by the exact names of `swjudge card` ([`resolve`]), and the game's rules are
//! checked ([`swccg`], [`destiny`], [`swtcg`]): each problem names the rulebook
//! section (or the Destiny format entry) it breaks and the cards involved.
//! [`check`] is a pure function of the deck, the cards and the formats.

pub mod destiny;
mod load;
pub mod read;
pub mod resolve;
pub mod swccg;
pub mod swtcg;

use crate::cards::formats::DeckFormat;
use crate::cards::{Card, CardDb};
use crate::error::{Error, Result};
use crate::game::Game;
use serde::Serialize;

pub use load::{DeckCards, cards_for, every_card, load_cards, needs_every_card};

/// Where a line of a deck file puts its cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Zone {
    /// The deck proper.
    Deck,
    /// A Destiny team (characters, plot) or battlefield heading.
    Team,
    /// SWCCG cards outside the deck (Defensive Shields under a Starting Effect).
    OutsideDeck,
    /// A sideboard: listed, never checked.
    Sideboard,
}

/// The kind of file a deck was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    DestinyJson,
    DestinyText,
    Gemp,
    Lackey,
    Plain,
}

/// One line of a deck file: a card name and how many.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Line {
    /// The name as written (a card code for SWDestinyDB JSON).
    pub name: String,
    pub count: u32,
    /// Line in the file (0 when the format has none).
    pub line: usize,
    pub zone: Option<Zone>,
    /// A card reference the file gives (`destiny:01001`).
    pub reference: Option<String>,
    /// Destiny dice for a character, as SWDestinyDB JSON gives them.
    pub dice: Option<u32>,
    /// For a unique Destiny character, `count` is its dice (SWDestinyDB text
    /// export and plain lists: "2x" is an elite character).
    pub count_is_dice: bool,
    /// "(elite)" was written after the name.
    pub elite: bool,
    /// Set name and position (SWDestinyDB text export).
    pub set: Option<String>,
    pub number: Option<String>,
    /// A GEMP blueprint ID given without a title.
    pub blueprint: Option<String>,
}

impl Line {
    pub fn new(name: String, count: u32, line: usize) -> Line {
        Line {
            name,
            count,
            line,
            ..Line::default()
        }
    }
}

/// A deck file, read.
#[derive(Debug, Clone)]
pub struct DeckList {
    pub source: Source,
    pub name: Option<String>,
    /// The game the file format implies.
    pub game: Option<Game>,
    /// The format the file names (SWDestinyDB `format_code`).
    pub format: Option<String>,
    pub lines: Vec<Line>,
}

impl DeckList {
    pub fn new(source: Source) -> DeckList {
        DeckList {
            source,
            name: None,
            game: None,
            format: None,
            lines: Vec::new(),
        }
    }

    /// Add a line, or one more copy to an earlier line of the same name and zone
    /// (formats that list each copy on its own).
    pub fn push_merged(&mut self, l: Line) {
        match self
            .lines
            .iter_mut()
            .find(|x| x.name == l.name && x.zone == l.zone && x.blueprint == l.blueprint)
        {
            Some(x) => x.count += l.count,
            None => self.lines.push(l),
        }
    }
}

/// A card as the report names it: its label and reference, which `swjudge card`
/// takes back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CardRef {
    pub name: String,
    pub reference: String,
}

/// One thing that makes the deck illegal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Which check found it (one of [`RULES`]): stable, for scripts and tests.
    pub check: &'static str,
    /// The rulebook section ID, or the format entry (`formats.json STD banned`), it breaks.
    pub cites: String,
    pub message: String,
    /// The cards involved.
    pub cards: Vec<CardRef>,
    /// For a name that names no card or several: the candidates.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<CardRef>,
    /// The deck file's line, where the problem is one line's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

impl Problem {
    /// A problem of the deck as a whole (no line of its own, no choices).
    pub fn new(check: &'static str, cites: &str, message: String, cards: Vec<CardRef>) -> Problem {
        Problem {
            check,
            cites: cites.to_string(),
            message,
            cards,
            choices: Vec::new(),
            line: None,
        }
    }
}

/// Slots that are one card for a rule: how many copies, and the cards.
pub struct Group {
    pub count: u32,
    pub cards: Vec<usize>,
}

/// Slots grouped by a key (a card's identity for the rule), in first-seen order.
pub fn group_by<'s>(
    slots: impl IntoIterator<Item = &'s Slot>,
    key: impl Fn(&Slot) -> String,
) -> Vec<Group> {
    let mut keys: Vec<String> = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    for s in slots {
        let k = key(s);
        match keys.iter().position(|x| *x == k) {
            Some(i) => {
                groups[i].count += s.count;
                groups[i].cards.push(s.card);
            }
            None => {
                keys.push(k);
                groups.push(Group {
                    count: s.count,
                    cards: vec![s.card],
                });
            }
        }
    }
    groups
}

/// Every check and the rule it enforces. A test keeps an illegal deck for each.
pub const RULES: &[(&str, &str)] = &[
    ("name.unresolved", "swjudge card lookup"),
    ("name.ambiguous", "swjudge card lookup"),
    ("name.wrong-game", "swjudge card lookup"),
    ("swccg.deck-size", swccg::DECK_SIZE),
    ("swccg.one-side", swccg::ALLEGIANCE),
    ("swccg.one-objective", swccg::OBJECTIVES),
    ("swccg.double-sided", swccg::DOUBLE_SIDED),
    ("swccg.card-type", swccg::OTHER_CARDS),
    ("swccg.legacy", "card data: legacy"),
    ("destiny.no-character", destiny::TEAM),
    ("destiny.points", destiny::TEAM),
    ("destiny.hero-and-villain", destiny::TEAM),
    ("destiny.unique-character", destiny::TEAM),
    ("destiny.dice", destiny::POINT_VALUES),
    ("destiny.plot-count", destiny::PLOTS),
    ("destiny.plot-affiliation", destiny::PLOTS),
    ("destiny.plot-color", destiny::PLOTS),
    ("destiny.deck-size", destiny::DECK),
    ("destiny.copies", destiny::DECK),
    ("destiny.affiliation", destiny::DECK),
    ("destiny.color", destiny::DECK),
    ("destiny.battlefield", destiny::BATTLEFIELD),
    ("format.unknown-format", "formats.json"),
    ("format.sets", "formats.json sets"),
    ("format.banned", "formats.json banned"),
    ("format.restricted", "formats.json restricted"),
    ("format.restricted-pair", "formats.json restrictedPairs"),
    ("swtcg.deck-size", swtcg::DECK),
    ("swtcg.units", swtcg::DECK),
    ("swtcg.units-per-type", swtcg::DECK),
    ("swtcg.one-side", swtcg::DECK),
    ("swtcg.copies", swtcg::DECK),
    ("swtcg.unit-ratio", swtcg::DECK),
];

/// How many cards of one kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Count {
    pub kind: String,
    pub count: u32,
}

/// The deck at a glance.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Cards in the deck proper (Destiny: the 30-card deck; SWCCG: the deck, not
    /// the cards outside it).
    pub deck_cards: u32,
    #[serde(skip_serializing_if = "is_zero")]
    pub outside_deck: u32,
    #[serde(skip_serializing_if = "is_zero")]
    pub sideboard: u32,
    pub by_type: Vec<Count>,
    /// Light, Dark, Hero, Villain... as the cards say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Destiny: the team's points, the limit, and the dice its characters bring.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub point_limit: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice: Option<u32>,
    /// The formats (of those imported) the deck is legal in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_in: Option<Vec<String>>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The whole answer for one deck.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub game: Game,
    /// The format checked, as `CODE (Name)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    pub legal: bool,
    pub summary: Summary,
    pub problems: Vec<Problem>,
    /// Deck-building rules printed on cards in this deck that the checker does
    /// not apply, for a judge to read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub card_rules: Vec<CardRule>,
    pub cards: Vec<DeckCard>,
}

/// A card whose own text changes deck building.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CardRule {
    pub card: CardRef,
    pub text: String,
}

/// One resolved line of the deck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeckCard {
    pub count: u32,
    pub name: String,
    pub reference: String,
    #[serde(rename = "type")]
    pub card_type: Option<String>,
    pub zone: Zone,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice: Option<u32>,
}

/// What to check the deck as.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub game: Option<Game>,
    /// A Destiny format's code or name, any case.
    pub format: Option<String>,
}

/// One line's card, found.
#[derive(Debug, Clone)]
pub struct Slot {
    /// The card (index into the card list).
    pub card: usize,
    /// Every printing the name names (reprints), the card first.
    pub printings: Vec<usize>,
    pub count: u32,
    pub zone: Zone,
    /// Destiny: the dice this character brings.
    pub dice: u32,
    pub line: usize,
}

/// A deck with its cards found: what the game checks read.
pub struct Deck<'a> {
    pub db: &'a CardDb,
    pub slots: Vec<Slot>,
}

impl Deck<'_> {
    pub fn card(&self, s: &Slot) -> &Card {
        &self.db.cards[s.card]
    }
    pub fn cref(&self, i: usize) -> CardRef {
        card_ref(self.db, i)
    }
    /// References to several cards.
    pub fn crefs(&self, cards: &[usize]) -> Vec<CardRef> {
        cards.iter().map(|&i| self.cref(i)).collect()
    }
    /// The slots the rules count: all but the sideboard.
    pub fn in_play(&self) -> impl Iterator<Item = &Slot> {
        self.slots.iter().filter(|s| s.zone != Zone::Sideboard)
    }
    /// The slots in a zone.
    pub fn zone(&self, z: Zone) -> impl Iterator<Item = &Slot> {
        self.slots.iter().filter(move |s| s.zone == z)
    }
}

/// Card `i` of `db` as a report names it.
pub fn card_ref(db: &CardDb, i: usize) -> CardRef {
    CardRef {
        name: db.labels[i].clone(),
        reference: db.refs[i].clone(),
    }
}

/// A card's type in lower case ("" when the data has none).
pub fn type_of(c: &Card) -> String {
    c.card_type.as_deref().unwrap_or("").to_ascii_lowercase()
}

/// The imported formats a check of a deck of `game` reads: the Destiny formats,
/// unless the deck is known to be of another game.
pub fn formats_for(game: Option<Game>, formats: &[DeckFormat]) -> &[DeckFormat] {
    match game {
        Some(Game::Destiny) | None => formats,
        Some(_) => &[],
    }
}

/// Check a deck: find its game and cards, then apply the game's rules and the
/// format's. An unknown format, or a deck whose game cannot be told, is an error.
pub fn check(
    file: &str,
    list: &DeckList,
    db: &CardDb,
    formats: &[DeckFormat],
    opts: &Options,
) -> Result<Report> {
    if let (Some(g), Some(_)) = (opts.game.or(list.game), &opts.format)
        && g != Game::Destiny
    {
        return Err(Error::Usage(format!(
            "--format names a Star Wars: Destiny format; this deck is checked as {}",
            g.title()
        )));
    }
    let format_query = opts.format.clone().or_else(|| list.format.clone());
    let format = match &format_query {
        Some(q) => Some(find_format(formats, q, opts.format.is_some())?),
        None => None,
    }
    .flatten();
    let names = db.names();
    let game = match opts.game.or(list.game).or(format.map(|_| Game::Destiny)) {
        Some(g) => g,
        None => resolve::guess_game(list, db, names).ok_or_else(|| {
            Error::Usage(format!(
                "{file}: cannot tell which game this deck is for (its names are found in none or several games); give --game swccg, destiny or swtcg"
            ))
        })?,
    };
    let (slots, mut problems) = resolve::resolve(list, db, names, game);
    let deck = Deck { db, slots };
    let mut summary = Summary::default();
    let mut card_rules = Vec::new();
    match game {
        Game::Swccg => swccg::check(&deck, &mut problems, &mut summary),
        Game::Swtcg => swtcg::check(&deck, &mut problems, &mut summary),
        Game::Destiny => {
            destiny::check(&deck, format, &mut problems, &mut summary);
            card_rules = destiny::card_rules(&deck);
            if format.is_none() && !formats.is_empty() && problems.is_empty() {
                summary.legal_in = Some(
                    formats
                        .iter()
                        .filter(|f| destiny::legal_in(&deck, f))
                        .map(|f| format!("{} ({})", f.code, f.name))
                        .collect(),
                );
            }
        }
    }
    if let (Some(q), None) = (&format_query, format)
        && opts.format.is_none()
        && !formats.is_empty()
    {
        problems.push(Problem::new(
            "format.unknown-format",
            "formats.json",
            format!(
                "the deck file names format {q:?}, which no imported formats.json has; import formats.json to check it"
            ),
            Vec::new(),
        ));
    }
    summary.deck_cards = deck.zone(Zone::Deck).map(|s| s.count).sum();
    summary.outside_deck = deck.zone(Zone::OutsideDeck).map(|s| s.count).sum();
    summary.sideboard = deck.zone(Zone::Sideboard).map(|s| s.count).sum();
    summary.by_type = by_type(&deck);
    let cards = deck
        .slots
        .iter()
        .map(|s| DeckCard {
            count: s.count,
            name: db.labels[s.card].clone(),
            reference: db.refs[s.card].clone(),
            card_type: db.cards[s.card].card_type.clone(),
            zone: s.zone,
            dice: (game == Game::Destiny && s.dice > 0).then_some(s.dice),
        })
        .collect();
    Ok(Report {
        file: file.to_string(),
        name: list.name.clone(),
        game,
        format: format.map(|f| format!("{} ({})", f.code, f.name)),
        legal: problems.is_empty(),
        summary,
        problems,
        card_rules,
        cards,
    })
}

/// The format a query names. Asked for on the command line, an unknown format is
/// an error listing the known ones; named only by the file, it is a problem.
fn find_format<'f>(
    formats: &'f [DeckFormat],
    q: &str,
    asked: bool,
) -> Result<Option<&'f DeckFormat>> {
    if let Some(f) = formats.iter().find(|f| f.is_named(q)) {
        return Ok(Some(f));
    }
    if !asked {
        return Ok(None);
    }
    if formats.is_empty() {
        return Err(Error::Usage(format!(
            "no Destiny formats imported: import SWDestinyDB's formats.json with `swjudge cards import formats.json` to check format {q:?}"
        )));
    }
    let known: Vec<String> = formats
        .iter()
        .map(|f| format!("{} ({})", f.code, f.name))
        .collect();
    Err(Error::Usage(format!(
        "unknown format {q:?}; the imported formats are {}",
        known.join(", ")
    )))
}

/// Counts by card type over the deck, the team and the cards outside the deck.
fn by_type(deck: &Deck) -> Vec<Count> {
    let kind = |i: usize| {
        let t = deck.db.cards[i].card_type.clone();
        t.unwrap_or_else(|| "(no type)".into())
    };
    group_by(deck.in_play(), |s| kind(s.card))
        .into_iter()
        .map(|g| Count {
            kind: kind(g.cards[0]),
            count: g.count,
        })
        .collect()
}
