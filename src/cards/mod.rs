//! Card records from the rulebook and from imported community databases; their names.
//!
//! - [`import`] reads the community formats (SWCCG Players Committee JSON,
//!   SWDestinyDB set JSON, SWTCG LackeyCCG TSV) and stores one JSON file per
//!   imported source under `<data-dir>/cards/`.
//! - [`from_rulebook`] collects per-card errata and rulings from the rulebook corpus.
//! - [`CardDb`] merges both, names each card uniquely, and answers fuzzy lookups
//!   through [`names::Matcher`].
//!
//! Every erratum and ruling keeps its source: a rulebook section ID, or
//! `<file name>#<card id>` for imported data.

pub mod die;
pub mod formats;
pub mod from_rulebook;
pub mod import;
pub mod markup;
pub mod name_index;
pub mod names;

mod destiny;
mod swccg;
mod swtcg;

use crate::error::{Error, Result};
use crate::game::Game;
use crate::paths::Paths;
use crate::rulebook::Corpus;
use die::DieFace;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

/// A piece of card text with where it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub text: String,
    /// A rulebook section ID, or `<file name>#<card id>`.
    pub source: String,
}

/// Card statistics in the order players read them. Serialised as a JSON object
/// whose keys keep that order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats(#[serde(with = "tuple_vec_map")] pub Vec<(String, String)>);

impl Stats {
    pub fn push(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        if !value.trim().is_empty() {
            self.0.push((name.to_string(), value));
        }
    }
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// What a card cancels, is canceled by, pulls and is pulled by: the titles the
/// database gives, each a name `swjudge card` looks up.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Relations {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cancels: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub canceled_by: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pulls: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pulled_by: Vec<String>,
}

impl Relations {
    pub fn is_empty(&self) -> bool {
        self.listed().is_empty()
    }

    /// Each relation with its heading, non-empty ones only.
    pub fn listed(&self) -> Vec<(&'static str, &[String])> {
        [
            ("Cancels", &self.cancels),
            ("Canceled by", &self.canceled_by),
            ("Pulls", &self.pulls),
            ("Pulled by", &self.pulled_by),
        ]
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| (k, v.as_slice()))
        .collect()
    }
}

/// The back of a two-sided card (SWCCG objectives and flip cards).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Face {
    pub title: String,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub card_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Stats::is_empty")]
    pub stats: Stats,
}

/// One card as stored after import, and as merged with the rulebook.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Card {
    /// The card's ID within its source (SWCCG `id`, Destiny `code`, SWTCG `SET-number`).
    pub id: String,
    pub game: Game,
    /// The printed title without uniqueness marks.
    pub title: String,
    /// Uniqueness marks as printed ("•", "••", "<>").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uniqueness: Option<String>,
    /// Destiny subtitle, e.g. "Elite Trooper".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub card_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtype: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<String>,
    /// Collector number / position in the set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rarity: Option<String>,
    #[serde(default, skip_serializing_if = "Stats::is_empty")]
    pub stats: Stats,
    /// Destiny die faces, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub die: Vec<DieFace>,
    /// Game text from the source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The source says its text already carries an erratum.
    #[serde(default)]
    pub text_is_errata: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back: Option<Face>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lore: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub characteristics: Vec<String>,
    /// Nicknames players use (SWCCG `abbr`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nicknames: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errata: Vec<Entry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rulings: Vec<Entry>,
    /// Notes about the record itself (e.g. "marked as errata'd").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Cards this one names by relation (the Players Committee's `cancels`,
    /// `canceledBy`, `pulls`, `pulledBy`), by title.
    #[serde(default, skip_serializing_if = "Relations::is_empty")]
    pub relations: Relations,
    /// A legacy version: not legal in tournaments (the Players Committee's `legacy`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub legacy: bool,
    /// `<file name>#<card id>`, or the first rulebook section for rulebook-only cards.
    pub source: String,
}

impl Card {
    pub fn new(game: Game, id: &str, title: &str, source: String) -> Card {
        Card {
            id: id.to_string(),
            game,
            title: title.to_string(),
            source,
            ..Card::default()
        }
    }

    /// The current text and what it is: an erratum from the rulebook wins over
    /// printed text; a source that already carries the erratum is used as is.
    pub fn current_text(&self) -> Option<(&str, String)> {
        let rule_errata = self.errata.iter().rev().find(|e| !e.source.contains('#'));
        match (&self.text, rule_errata) {
            (Some(t), _) if self.text_is_errata => Some((
                t.as_str(),
                format!("current text with errata applied ({})", self.source),
            )),
            (_, Some(e)) => Some((errata_text(&e.text), format!("errata ({})", e.source))),
            (Some(t), None) => Some((t.as_str(), format!("printed text ({})", self.source))),
            (None, None) => None,
        }
    }
}

/// The new card text an erratum gives: the quoted text after "Should read:"
/// (Destiny Rules Reference style), else the whole erratum (SWCCG Appendix A
/// gives the full corrected text).
pub fn errata_text(e: &str) -> &str {
    let lower = e.to_ascii_lowercase();
    if let Some(i) = lower.find("should read:") {
        let rest = e[i + "should read:".len()..].trim();
        let quotes = ['"', '\u{201c}', '\u{201d}'];
        if let Some(inner) = rest.strip_prefix(quotes)
            && let Some(end) = inner.rfind(quotes)
        {
            return inner[..end].trim();
        }
        return rest;
    }
    e.trim()
}

/// One imported source as stored in `<data-dir>/cards/<name>.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SourceFile {
    /// `swccg`, `destiny` or `swtcg` format key.
    pub format: String,
    /// The imported file's name, used in `<file name>#<card id>` sources.
    pub file: String,
    pub cards: Vec<Card>,
}

/// Load every stored source under `<data_dir>/cards/`. A missing folder is no data.
pub fn load_imported(data_dir: &Path) -> Result<Vec<SourceFile>> {
    load_stored(data_dir, |_| true)
}

/// Load the stored sources whose file names `keep` accepts, in name order.
pub fn load_stored(data_dir: &Path, keep: impl Fn(&str) -> bool) -> Result<Vec<SourceFile>> {
    formats::stored_files(data_dir, keep)?
        .iter()
        .map(|p| {
            let bytes = std::fs::read(p).map_err(|e| Error::io(p, e))?;
            let shown = p.display().to_string();
            serde_json::from_str(stored_text(&shown, &bytes)?).map_err(|e| unreadable(&shown, &e))
        })
        .collect()
}

/// The text of a stored card file (named `shown` in errors).
fn stored_text<'b>(shown: &str, bytes: &'b [u8]) -> Result<&'b str> {
    std::str::from_utf8(bytes).map_err(|_| {
        Error::Input(format!(
            "{shown}: stored card data is not UTF-8 text; re-import it"
        ))
    })
}

/// A stored card file that does not read as card data.
fn unreadable(shown: &str, e: &serde_json::Error) -> Error {
    Error::Input(format!(
        "{shown}:{}:{}: stored card data is unreadable ({e}); re-import it",
        e.line(),
        e.column()
    ))
}

/// A rulebook section that mentions a card.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeeAlso {
    pub id: String,
    pub title: String,
}

/// One candidate in a lookup.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Match {
    /// The card's unique label (title, plus side/set when titles repeat); typed
    /// back, it finds this card.
    pub title: String,
    pub game: Game,
    /// The card's stable reference (`swccg:1098`), also accepted by the lookup.
    pub reference: String,
    /// 1 for an exact name; below 1, how close a fuzzy match is.
    pub score: f64,
    #[serde(skip)]
    pub index: usize,
}

/// The answer to a lookup.
#[derive(Debug, Clone, Default)]
pub struct Lookup {
    pub query: String,
    /// Candidates: the exact ones, persona members, then close names.
    pub matches: Vec<Match>,
    /// Index of the chosen card, when one is clearly meant.
    pub chosen: Option<usize>,
    /// When the exact name belongs to several games: each game's cards (one card
    /// is that game's answer; several are listed for the user to pick).
    pub by_game: Vec<(Game, Vec<usize>)>,
}

/// All known cards, merged, with a name index.
#[derive(Debug, Default)]
pub struct CardDb {
    pub cards: Vec<Card>,
    /// Unique label per card, parallel to `cards`.
    pub labels: Vec<String>,
    /// Stable reference per card (`swccg:1098`), parallel to `cards`.
    pub refs: Vec<String>,
    /// The fuzzy index, built on the first lookup that needs it (an exact
    /// name or a reference is found without it).
    matcher: OnceLock<names::Matcher>,
    /// Nicknames the data implies (a card and the name), beside those it
    /// lists: kept for the fuzzy index and the name index.
    implied: Vec<(usize, String)>,
    names: names::Names,
    /// Problems that did not stop loading (e.g. no rulebook).
    pub warnings: Vec<String>,
    /// The rulebook the errata and rulings came from, for "see also" by scan.
    pub corpus: Option<Corpus>,
}

impl CardDb {
    /// Merge imported sources with the rulebook's errata and rulings.
    pub fn build(imported: Vec<SourceFile>, corpus: Option<&Corpus>) -> CardDb {
        let mut cards: Vec<Card> = Vec::with_capacity(imported.iter().map(|s| s.cards.len()).sum());
        for s in imported {
            cards.extend(s.cards);
        }
        if let Some(c) = corpus {
            from_rulebook::merge(&mut cards, &from_rulebook::entries(c));
        }
        let norm: Vec<String> = cards.iter().map(|c| names::normalize(&c.title)).collect();
        let labels = make_labels(&cards, &norm);
        let refs = names::references(&cards);
        let implied = implied_nicknames(&cards, &norm);
        let mut db = CardDb::from_parts(cards, labels, refs, implied);
        if let Some(c) = corpus {
            db.names.set_personas(names::personas_from(c), &db.cards);
        }
        db
    }

    /// Cards with their labels, references and implied nicknames already
    /// worked out over a larger card list (a name index's): the exact-name
    /// tables then answer, for the names these cards were chosen by, as they
    /// would over the whole list. No rulebook entries are merged.
    pub fn from_parts(
        mut cards: Vec<Card>,
        labels: Vec<String>,
        refs: Vec<String>,
        implied: Vec<(usize, String)>,
    ) -> CardDb {
        explain_source_errata(&mut cards);
        let names = names::Names::new(&cards, &labels, &refs, &implied);
        CardDb {
            cards,
            labels,
            refs,
            implied,
            names,
            ..CardDb::default()
        }
    }

    /// The fuzzy index over every title, label, subtitle and nickname.
    fn matcher(&self) -> &names::Matcher {
        self.matcher.get_or_init(|| {
            let mut matcher = names::Matcher::default();
            for (i, n) in &self.implied {
                matcher.add_alias(*i, n);
            }
            for (i, card) in self.cards.iter().enumerate() {
                matcher.add(i, &card.title);
                if self.labels[i] != card.title {
                    matcher.add(i, &self.labels[i]);
                }
                if let Some(sub) = &card.subtitle {
                    matcher.add(i, &format!("{} {}", card.title, sub));
                }
                // a nickname ending in a lone "V" names a virtual card: "Hunt
                // Down V" is "Hunt Down (V)", so that a query without the V
                // prefers the non-virtual card
                for n in &card.nicknames {
                    let n = without_v(n).map_or_else(|| n.clone(), |b| format!("{b} (V)"));
                    matcher.add_alias(i, &n);
                }
            }
            matcher
        })
    }

    /// The exact-name tables (references, titles, labels, nicknames, personas).
    pub fn names(&self) -> &names::Names {
        &self.names
    }

    /// Load imported data and the rulebook that `paths` name; a rulebook
    /// that cannot be loaded becomes a warning.
    pub fn open(paths: &Paths) -> Result<CardDb> {
        let imported = load_imported(&paths.data_dir)?;
        Ok(CardDb::load_with(imported, &paths.rulebook))
    }

    /// Merge already-loaded sources with the rulebook at `rulebook`.
    pub fn load_with(imported: Vec<SourceFile>, rulebook: &Path) -> CardDb {
        let corpus = Corpus::load(rulebook);
        let mut db = CardDb::build(imported, corpus.as_ref().ok());
        match corpus {
            Ok(c) => db.corpus = Some(c),
            Err(e) => db.warnings.push(format!(
                "rulebook not loaded ({e}); rulebook errata and rulings are missing"
            )),
        }
        db
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Current rulebook sections that mention card `index` (its own errata and
    /// rulings excluded).
    pub fn see_also(&self, index: usize, limit: usize) -> Vec<SeeAlso> {
        match (&self.corpus, self.cards.get(index)) {
            (Some(c), Some(card)) => from_rulebook::see_also(c, card, limit),
            _ => Vec::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Look a card up. A stable reference (`swccg:1098`) names one card. Then
    /// exact names win, tier by tier (see [`names`]): one card at the first tier
    /// with any is the answer; cards of several games are each game's answer; several
    /// cards of one game are listed. With no exact name, fuzzy matching chooses a
    /// card only when it is the only close one, or clearly ahead (by more than
    /// [`names::AMBIGUITY_MARGIN`]); otherwise the close candidates are listed.
    /// Cards of the persona the query names ("vader") are always among the candidates.
    pub fn lookup(&self, query: &str, game: Option<Game>) -> Lookup {
        let keep = |i: usize| game.is_none_or(|g| self.cards[i].game == g);
        let mut l = Lookup {
            query: query.to_string(),
            ..Lookup::default()
        };
        if let Some(i) = self.names.by_ref(query).filter(|&i| keep(i)) {
            l.chosen = Some(i);
            l.matches.push(self.to_match(i, 1.0));
            return l;
        }
        // an exact name is the answer: the fuzzy index is built only without one
        let exact = self.names.exact(query, keep);
        let hits: Vec<names::Hit> = match exact {
            Some(_) => Vec::new(),
            None => self
                .matcher()
                .search(query)
                .into_iter()
                .filter(|h| keep(h.key))
                .collect(),
        };
        let mut persona: Vec<usize> = self
            .names
            .persona_members(query)
            .into_iter()
            .filter(|&i| keep(i))
            .collect();
        // the persona lists are SWCCG's; characters before the things named after them
        persona.sort_by_key(|&i| {
            let c = &self.cards[i];
            let character = c
                .card_type
                .as_deref()
                .is_some_and(|t| t.to_ascii_lowercase().contains("character"));
            (c.game, !character, c.title.len(), i)
        });
        if let Some((tier, exact)) = exact {
            let mut games: BTreeMap<Game, Vec<usize>> = BTreeMap::new();
            for &i in &exact {
                games.entry(self.cards[i].game).or_default().push(i);
            }
            for v in games.values_mut() {
                self.prefer_whole_label(v, query, tier);
            }
            if games.len() > 1 {
                l.by_game = games.into_iter().collect();
            } else if let Some([only]) = games.values().next().map(Vec::as_slice) {
                l.chosen = Some(*only);
            }
            l.matches
                .extend(exact.iter().map(|&i| self.to_match(i, 1.0)));
        } else {
            l.chosen = match hits.as_slice() {
                [] => None,
                [only] => (only.score >= names::ACCEPT_SCORE).then_some(only.key),
                [a, b, ..] => (a.score >= names::ACCEPT_SCORE
                    && a.score - b.score > names::AMBIGUITY_MARGIN)
                    .then_some(a.key),
            };
            if let Some(i) = l.chosen {
                l.matches.push(self.to_match(i, hits[0].score));
            }
        }
        // persona members next, then close names: suggestions beside the answer
        let top = hits.first().map_or(0.0, |h| h.score);
        let close = hits
            .iter()
            .filter(|h| top - h.score <= names::AMBIGUITY_MARGIN * 2.0)
            .map(|h| (h.key, h.score));
        // a persona member the fuzzy pass did not score gets its title's similarity
        let persona_score = |i: usize| {
            hits.iter().find(|h| h.key == i).map_or_else(
                || {
                    strsim::jaro_winkler(
                        &names::letters(query),
                        &names::letters(&self.cards[i].title),
                    )
                },
                |h| h.score,
            )
        };
        for (i, score) in persona.iter().map(|&i| (i, persona_score(i))).chain(close) {
            if l.matches.len() >= 12 {
                break;
            }
            if !l.matches.iter().any(|m| m.index == i) {
                l.matches.push(self.to_match(i, score));
            }
        }
        // best first; the card chosen, if any, stays first
        let chosen = l.chosen;
        l.matches.sort_by(|a, b| {
            (Some(b.index) == chosen)
                .cmp(&(Some(a.index) == chosen))
                .then(b.score.total_cmp(&a.score))
                .then(a.title.len().cmp(&b.title.len()))
        });
        l
    }

    /// Among the cards of one game that an exact name found at `tier`, the one
    /// card whose whole label is the name (same bytes, or same letters), when
    /// there is one, beats cards that only share the title ("Chopper" vs
    /// "Chopper - Metal Menace").
    pub fn prefer_whole_label(&self, cards: &mut Vec<usize>, query: &str, tier: names::Tier) {
        let whole: Vec<usize> = cards
            .iter()
            .copied()
            .filter(|&i| match tier {
                names::Tier::Bytes => self.labels[i] == query.trim(),
                _ => names::letters(&self.labels[i]) == names::letters(query),
            })
            .collect();
        if whole.len() == 1 {
            *cards = whole;
        }
    }

    fn to_match(&self, i: usize, score: f64) -> Match {
        Match {
            title: self.labels[i].clone(),
            game: self.cards[i].game,
            reference: self.refs[i].clone(),
            score: (score * 1000.0).round() / 1000.0,
            index: i,
        }
    }
}

/// The note the Destiny importer leaves on a card SWDestinyDB marks as errata'd.
pub const SOURCE_ERRATA_NOTE: &str = "SWDestinyDB marks this card as having errata";

/// Say where the errata of a card marked by its database is: in the rulebook
/// section shown with the card, or nowhere in the Rules Reference.
fn explain_source_errata(cards: &mut [Card]) {
    for c in cards {
        let Some(pos) = c.notes.iter().position(|n| n == SOURCE_ERRATA_NOTE) else {
            continue;
        };
        let in_rulebook: Vec<&str> = c
            .errata
            .iter()
            .filter(|e| !e.source.contains('#'))
            .map(|e| e.source.as_str())
            .collect();
        c.notes[pos] = if in_rulebook.is_empty() {
            format!(
                "{SOURCE_ERRATA_NOTE}, but the Rules Reference has no errata for it: the text shown is the database's, which may already include the change"
            )
        } else {
            format!(
                "{SOURCE_ERRATA_NOTE}; its errata text is in the Rules Reference, {} (shown above as the current text)",
                in_rulebook.join(", ")
            )
        };
    }
}

/// Counts for `swjudge cards status`.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    pub data_dir: String,
    pub sources: Vec<SourceStatus>,
    pub games: Vec<GameStatus>,
    /// Cards known only from rulebook errata/rulings (no imported record matched).
    pub rulebook_only: Vec<String>,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SourceStatus {
    pub file: String,
    pub format: String,
    pub cards: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct GameStatus {
    pub game: Game,
    pub cards: usize,
    pub with_errata: usize,
    pub with_rulings: usize,
    pub rulebook_only: usize,
}

/// Summarise stored sources and how the rulebook's card entries matched them.
pub fn status(data_dir: &Path, rulebook: &Path) -> Result<Status> {
    let imported = load_imported(data_dir)?;
    let sources = imported
        .iter()
        .map(|s| SourceStatus {
            file: s.file.clone(),
            format: s.format.clone(),
            cards: s.cards.len(),
        })
        .collect();
    let db = CardDb::load_with(imported, rulebook);
    let only = |c: &Card| !c.source.contains('#');
    let games = Game::ALL
        .into_iter()
        .map(|g| {
            let cs: Vec<&Card> = db.cards.iter().filter(|c| c.game == g).collect();
            GameStatus {
                game: g,
                cards: cs.len(),
                with_errata: cs.iter().filter(|c| !c.errata.is_empty()).count(),
                with_rulings: cs.iter().filter(|c| !c.rulings.is_empty()).count(),
                rulebook_only: cs.iter().filter(|c| only(c)).count(),
            }
        })
        .collect();
    let rulebook_only = db
        .cards
        .iter()
        .enumerate()
        .filter(|(_, c)| only(c))
        .map(|(i, c)| format!("{} [{}] ({})", db.labels[i], c.game, c.source))
        .collect();
    Ok(Status {
        data_dir: data_dir.display().to_string(),
        sources,
        games,
        rulebook_only,
        warnings: db.warnings,
    })
}

/// A nickname of a virtual card without its lone "V": "Hunt Down V" → "Hunt Down".
fn without_v(nick: &str) -> Option<&str> {
    let n = nick.trim();
    n.strip_suffix(" V")
        .or_else(|| n.strip_suffix(" v"))
        .map(str::trim)
        .filter(|b| !b.is_empty())
}

/// Nicknames the data implies but does not list: when "X (V)" is nicknamed
/// "Hunt Down V", the card "X" (same game and side) is "Hunt Down". `norm` is
/// each card's normalised title.
fn implied_nicknames(cards: &[Card], norm: &[String]) -> Vec<(usize, String)> {
    // (the virtual card, its base title normalised, the nickname without its V)
    let mut wanted: Vec<(usize, String, &str)> = Vec::new();
    for (i, c) in cards.iter().enumerate() {
        let Some(base_title) = c.title.trim().strip_suffix("(V)") else {
            continue;
        };
        for base in c.nicknames.iter().filter_map(|n| without_v(n)) {
            wanted.push((i, names::normalize(base_title), base));
        }
    }
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut by_title: FxHashMap<(Game, Option<&str>, &str), Vec<usize>> = FxHashMap::default();
    for (i, c) in cards.iter().enumerate() {
        by_title
            .entry((c.game, c.side.as_deref(), &norm[i]))
            .or_default()
            .push(i);
    }
    let mut out = Vec::new();
    for (v, base_title, base) in wanted {
        let c = &cards[v];
        let Some(targets) = by_title.get(&(c.game, c.side.as_deref(), base_title.as_str())) else {
            continue;
        };
        for &t in targets {
            let known = cards[t]
                .nicknames
                .iter()
                .any(|x| names::normalize(x) == names::normalize(base));
            if !known {
                out.push((t, base.to_string()));
            }
        }
    }
    out
}

/// Unique labels: the title, plus the side when the same title exists on both
/// sides, plus the set (and number) when still repeated. `norm` is each card's
/// normalised title.
fn make_labels(cards: &[Card], norm: &[String]) -> Vec<String> {
    let count = per_game(cards, norm);
    let labels: Vec<String> = cards
        .iter()
        .zip(norm)
        .map(|(c, n)| match &c.subtitle {
            Some(sub) if count[&(c.game, n.as_str())] > 1 => format!("{} - {sub}", c.title),
            _ => c.title.clone(),
        })
        .collect();
    // second pass: the side, where one label has cards of several sides
    let mut sides: FxHashMap<(Game, &str), Vec<Option<&str>>> = FxHashMap::default();
    for (c, l) in cards.iter().zip(&labels) {
        let seen = sides.entry((c.game, l)).or_default();
        if !seen.contains(&c.side.as_deref()) {
            seen.push(c.side.as_deref());
        }
    }
    let several = |c: &Card, l: &str| sides[&(c.game, l)].len() > 1;
    let labels: Vec<String> = cards
        .iter()
        .zip(&labels)
        .map(|(c, l)| match &c.side {
            Some(side) if several(c, l) => format!("{l} ({side} Side)"),
            _ => l.clone(),
        })
        .collect();
    // third pass: the set and number, where a label is still repeated
    let count = per_game(cards, &labels);
    cards
        .iter()
        .zip(&labels)
        .map(|(c, l)| {
            let mut l = if count[&(c.game, l.as_str())] < 2 {
                l.clone()
            } else {
                let place = match (&c.set, &c.number) {
                    (Some(s), Some(n)) => format!("{s} #{n}"),
                    (Some(s), None) => s.clone(),
                    (None, Some(n)) => format!("#{n}"),
                    (None, None) => c.id.clone(),
                };
                format!("{l} [{place}]")
            };
            if c.legacy {
                l.push_str(" (Legacy)");
            }
            l
        })
        .collect()
}

/// How many cards of each game have each of `names` (one per card).
fn per_game<'n>(cards: &[Card], names: &'n [String]) -> FxHashMap<(Game, &'n str), usize> {
    let mut count = FxHashMap::default();
    for (c, n) in cards.iter().zip(names) {
        *count.entry((c.game, n.as_str())).or_default() += 1;
    }
    count
}
