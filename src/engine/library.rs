//! The card library and card text, shared by the three games.
//!
//! The library (`cards/<game>/*.yaml`, built into the binary) holds each real
//! card once, keyed by the reference users see (`swccg:1595`): a mapping of
//! reference → the game's card definition. A card's `text:` is what the card
//! says, sentence by sentence, and each sentence says how the engine knows it:
//! `by:` names the fields of the definition that encode it, `not_modelled:`
//! says the engine does not. A `text:` written as one plain string is wholly
//! not modelled, unless the card has no other game text at all to encode it.
//!
//! Scenarios name library cards by reference or title (`{card: "Luke
//! Skywalker, Jedi Knight"}`, or the bare string) and override only stats; a
//! title must be unambiguous. The engines read what is named here; nothing in
//! this module reads the scenario layer.

use crate::game::Game;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;
use std::collections::BTreeMap;
use std::fmt;

mod files {
    include!(concat!(env!("OUT_DIR"), "/library_files.rs"));
}

/// A library read from a folder (an edited copy of `cards/`) in place of the
/// built-in one: the folder, and its files as [`files::FILES`] lists them.
type Edited = (std::path::PathBuf, Vec<(&'static str, &'static str)>);
static EDITED: std::sync::OnceLock<Edited> = std::sync::OnceLock::new();

/// Read the card library from `dir` (laid out as `cards/`: `<game>/*.yaml`)
/// instead of the one built into swjudge, for the rest of the process: a rules
/// team edits a card and runs its scenarios at once. The entries are checked
/// when a scenario names them, as built-in ones are.
pub fn use_dir(dir: &std::path::Path) -> crate::Result<()> {
    use crate::Error;
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(dir).max_depth(2).sort_by_file_name() {
        let entry = entry.map_err(|e| Error::Input(format!("{}: {e}", dir.display())))?;
        let path = entry.path();
        if !entry.file_type().is_file() || path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let rel = path.strip_prefix(dir).unwrap_or(path);
        let rel = rel.to_string_lossy().replace('\\', "/");
        let text = crate::yaml::read_text(path)?;
        found.push((&*rel.leak(), &*text.leak()));
    }
    let games = Game::ALL.map(Game::as_str);
    if !found
        .iter()
        .any(|(p, _)| games.iter().any(|g| p.starts_with(&format!("{g}/"))))
    {
        return Err(Error::Usage(format!(
            "{}: no card library here (expected <game>/*.yaml, as in cards/)",
            dir.display()
        )));
    }
    let _ = EDITED.set((dir.to_path_buf(), found));
    Ok(())
}

/// Every library file of a game: its path under `cards/` and its text.
pub fn files(game: Game) -> impl Iterator<Item = (&'static str, &'static str)> {
    let prefix = game.as_str();
    let all: &[(&str, &str)] = match EDITED.get() {
        Some((_, edited)) => edited,
        None => files::FILES,
    };
    all.iter()
        .filter(move |(p, _)| p.split('/').next() == Some(prefix))
        .copied()
}

/// Where a library file is, for messages: under `cards/`, or the `--library` folder.
fn file_path(file: &str) -> std::path::PathBuf {
    match EDITED.get() {
        Some((dir, _)) => dir.join(file),
        None => std::path::Path::new("cards").join(file),
    }
}

/// A card of the user's imported databases, named in a scenario: its title and
/// printed values come from the database; its text is not modelled unless the
/// library encodes the card.
#[derive(Debug, Clone, Default)]
pub struct Imported {
    /// `swccg:1098`.
    pub reference: String,
    pub title: String,
    pub side: Option<String>,
    pub card_type: Option<String>,
    pub subtype: Option<String>,
    /// Uniqueness marks as printed ("•", "••", "<>").
    pub uniqueness: Option<String>,
    /// Printed values by name (`power`, `deploy`…), as printed.
    pub stats: Vec<(String, String)>,
    pub text: Option<String>,
}

/// Finds a card of the imported databases by exact title or reference:
/// `Ok(None)` when there is none, `Err` (listing the references) when the name
/// is ambiguous.
pub type ImportedCards = dyn Fn(Game, &str) -> Result<Option<Imported>, String> + Send + Sync;

static IMPORTED: std::sync::OnceLock<Box<ImportedCards>> = std::sync::OnceLock::new();

/// Let scenarios name the cards of the user's imported databases (set once per
/// process, by the command that loads scenarios).
pub fn use_imported(find: Box<ImportedCards>) {
    let _ = IMPORTED.set(find);
}

/// The imported card a name means, if imported cards may be named.
pub fn imported(game: Game, name: &str) -> Result<Option<Imported>, String> {
    match IMPORTED.get() {
        Some(find) => find(game, name),
        None => Ok(None),
    }
}

/// A card's printed text, and for each sentence how the engine knows it.
#[derive(Debug, Clone, Default)]
pub struct CardText {
    /// The whole text as printed (sentences joined by spaces).
    pub full: String,
    /// The sentences, when the text is written sentence by sentence.
    pub sentences: Vec<Sentence>,
    /// Written as one plain string: no sentence says what encodes it.
    pub plain: bool,
}

/// One sentence of a card's text.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sentence {
    /// The sentence as printed.
    pub said: String,
    /// The fields of the card's definition that encode it (`abilities`,
    /// `stats.piloting`, `modifiers`…), or `rules` for a sentence that says
    /// what the rules already do ("Deploy on table.").
    #[serde(default)]
    pub by: Vec<String>,
    /// The engine does not model it: `true`, or a note saying what is missing.
    #[serde(default)]
    pub not_modelled: Option<NotModelled>,
}

/// `not_modelled: true` or `not_modelled: "what is missing"`.
#[derive(Debug, Clone)]
pub enum NotModelled {
    Yes,
    Because(String),
}

impl<'de> Deserialize<'de> for NotModelled {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = NotModelled;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("`true` or a note saying what is not modelled")
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<NotModelled, E> {
                if b {
                    Ok(NotModelled::Yes)
                } else {
                    Err(E::custom(
                        "`not_modelled: false` says nothing: name the fields that encode the sentence with `by:`",
                    ))
                }
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<NotModelled, E> {
                Ok(NotModelled::Because(s.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

impl CardText {
    /// A text given as one plain string.
    pub fn plain(s: impl Into<String>) -> CardText {
        let full: String = s.into();
        CardText {
            plain: !full.trim().is_empty(),
            full,
            sentences: Vec::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.full.trim().is_empty()
    }

    /// Check the sentences against the fields the card's definition sets
    /// (`encoded`): every `by:` names a field that is set, every sentence says
    /// `by:` or `not_modelled:` (not both), and a plain text is allowed only on a
    /// card with no encoding (then it is wholly not modelled).
    pub fn check(&self, encoded: &[&str]) -> Result<(), String> {
        if self.is_empty() {
            // A hypothetical card defined by its encodings alone.
            return Ok(());
        }
        if self.plain {
            if !encoded.is_empty() {
                return Err(format!(
                    "this card's text is encoded by `{}`: write `text:` sentence by sentence, each with `by:` (the fields that encode it) or `not_modelled:`",
                    encoded.join("`, `")
                ));
            }
            return Ok(());
        }
        for s in &self.sentences {
            match (s.by.is_empty(), &s.not_modelled) {
                (true, None) => {
                    return Err(format!(
                        "sentence \"{}\" says neither `by:` (the fields that encode it) nor `not_modelled:`",
                        s.said
                    ));
                }
                (false, Some(_)) => {
                    return Err(format!(
                        "sentence \"{}\" says both `by:` and `not_modelled:`",
                        s.said
                    ));
                }
                _ => {}
            }
            for f in &s.by {
                // `rules`: the sentence says what the rules already do for the card.
                if f != "rules" && !encoded.contains(&f.as_str()) {
                    return Err(format!(
                        "sentence \"{}\" is `by: {f}`, but the card sets no `{f}`{}",
                        s.said,
                        if encoded.is_empty() {
                            String::new()
                        } else {
                            format!(" (it sets `{}`)", encoded.join("`, `"))
                        }
                    ));
                }
            }
        }
        if let Some(f) = encoded
            .iter()
            .find(|f| !self.sentences.iter().any(|s| s.by.iter().any(|b| b == *f)))
        {
            return Err(format!(
                "`{f}` encodes game text, but no sentence of `text:` says it is `by: {f}`"
            ));
        }
        Ok(())
    }

    /// The parts of the text no field encodes, as printed (each with its note).
    pub fn unencoded(&self) -> Vec<String> {
        if self.plain {
            return vec![self.full.trim().to_string()];
        }
        self.sentences
            .iter()
            .filter_map(|s| match &s.not_modelled {
                None => None,
                Some(NotModelled::Yes) => Some(s.said.clone()),
                Some(NotModelled::Because(why)) => Some(format!("{} ({why})", s.said)),
            })
            .collect()
    }
}

impl<'de> Deserialize<'de> for CardText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CardText;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "the card's text: a string, or a list of sentences ({said, by} or {said, not_modelled})",
                )
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<CardText, E> {
                Ok(CardText::plain(s))
            }
            fn visit_unit<E: de::Error>(self) -> Result<CardText, E> {
                Ok(CardText::default())
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<CardText, A::Error> {
                let mut sentences: Vec<Sentence> = Vec::new();
                while let Some(s) = seq.next_element::<Sentence>()? {
                    sentences.push(s);
                }
                let full = sentences
                    .iter()
                    .map(|s| s.said.trim())
                    .collect::<Vec<_>>()
                    .join(" ");
                Ok(CardText {
                    full,
                    sentences,
                    plain: false,
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// Where a scenario's card came from, when it was named rather than defined.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    /// The card's reference (`swccg:1595`).
    pub reference: String,
    /// Stats the scenario set on purpose: (stat, the card's value, the scenario's).
    pub overrides: Vec<(String, String, String)>,
    /// From the user's imported databases, not the library: its text is not modelled.
    pub imported: bool,
}

impl Origin {
    /// How the trace names it: `swccg:1595`, with any stat set on purpose.
    pub fn describe(&self) -> String {
        let reference = if self.imported {
            format!("imported {}", self.reference)
        } else {
            format!("library {}", self.reference)
        };
        if self.overrides.is_empty() {
            return reference;
        }
        let set: Vec<String> = self
            .overrides
            .iter()
            .map(|(k, was, now)| format!("{k} {now} (the card says {was})"))
            .collect();
        format!(
            "{}, with {} as the scenario sets",
            self.reference,
            set.join(", ")
        )
    }
}

/// The trace line that names the card behind each named card of a board
/// (`luke is Luke Skywalker, Jedi Knight (library swccg:1595)`), from each
/// card's key, title and origin; none when no card was named.
pub fn named_cards<'a>(
    cards: impl Iterator<Item = (&'a str, String, Option<&'a Origin>)>,
) -> Option<String> {
    let named: Vec<String> = cards
        .filter_map(|(key, title, origin)| {
            Some(format!("{key} is {title} ({})", origin?.describe()))
        })
        .collect();
    (!named.is_empty()).then(|| format!("named cards: {}", named.join("; ")))
}

/// Normalised title for matching: lower case, bullets and punctuation dropped,
/// runs of spaces as one.
pub fn title_key(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    for ch in title.chars() {
        if ch.is_alphanumeric() {
            out.extend(ch.to_lowercase());
        } else if (ch.is_whitespace() || "-,:()".contains(ch))
            && !out.is_empty()
            && !out.ends_with(' ')
        {
            out.push(' ');
        }
    }
    out.trim_end().to_string()
}

/// A game's library: every entry's reference, title and definition, read once.
pub struct Catalogue<C> {
    pub entries: Vec<Entry<C>>,
}

/// One library card.
pub struct Entry<C> {
    pub reference: String,
    pub title: String,
    /// The library file it is in (`swccg/premiere.yaml`).
    pub file: &'static str,
    pub def: C,
}

/// What naming a card found.
pub enum Found<'a, C> {
    One(&'a Entry<C>),
    /// Several cards have the title: their references.
    Several(Vec<String>),
    None,
}

impl<C> Catalogue<C> {
    /// Read every library file of a game, each a mapping of reference → card.
    /// `title` reads a definition's title.
    pub fn read(game: Game, title: impl Fn(&C) -> String) -> Result<Catalogue<C>, String>
    where
        C: serde::de::DeserializeOwned,
    {
        let mut entries = Vec::new();
        for (file, text) in files(game) {
            let path = file_path(file);
            let map: std::collections::BTreeMap<String, C> =
                crate::yaml::load(&path, text).map_err(|e| e.to_string())?;
            for (reference, def) in map {
                let want = format!("{}:", game.as_str());
                if !reference.starts_with(&want) {
                    return Err(format!(
                        "{}: `{reference}` is not a {} reference (`{want}…`)",
                        path.display(),
                        game.as_str()
                    ));
                }
                entries.push(Entry {
                    title: title(&def),
                    reference,
                    file,
                    def,
                });
            }
        }
        Ok(Catalogue { entries })
    }

    /// The card a name means: a reference, or a title (exact, ignoring case,
    /// bullets and punctuation).
    pub fn find(&self, name: &str) -> Found<'_, C> {
        let name = name.trim();
        if let Some(e) = self.entries.iter().find(|e| e.reference == name) {
            return Found::One(e);
        }
        let exact: Vec<&Entry<C>> = self.entries.iter().filter(|e| e.title == name).collect();
        let hits = if exact.is_empty() {
            let key = title_key(name);
            self.entries
                .iter()
                .filter(|e| title_key(&e.title) == key)
                .collect()
        } else {
            exact
        };
        match hits.as_slice() {
            [] => Found::None,
            [one] => Found::One(one),
            many => Found::Several(many.iter().map(|e| e.reference.clone()).collect()),
        }
    }
}

/// One library entry's text, unparsed: what naming a card reads, so that a
/// scenario pays for parsing only the cards it names.
#[derive(Debug, Clone, Copy)]
pub struct Snippet {
    pub text: &'static str,
    /// Its first line in its file (from 1).
    pub line: usize,
}

/// Each game's entries as snippets, with their titles, read once.
fn snippets(game: Game) -> &'static Catalogue<Snippet> {
    static INDEX: [std::sync::OnceLock<Catalogue<Snippet>>; 3] =
        [const { std::sync::OnceLock::new() }; 3];
    let ix = Game::ALL.iter().position(|g| *g == game).unwrap_or(0);
    INDEX[ix].get_or_init(|| {
        let prefix = format!("{}:", game.as_str());
        let mut entries = Vec::new();
        for (file, text) in files(game) {
            let mut starts: Vec<(usize, usize)> = Vec::new(); // (byte, line)
            let mut at = 0;
            for (n, line) in text.split_inclusive('\n').enumerate() {
                if line.starts_with(&prefix) && line.trim_end().ends_with(':') {
                    starts.push((at, n + 1));
                }
                at += line.len();
            }
            for (k, &(start, line)) in starts.iter().enumerate() {
                let end = starts.get(k + 1).map_or(text.len(), |&(b, _)| b);
                let body = &text[start..end];
                let reference = body.lines().next().unwrap_or("").trim_end();
                let reference = reference.trim_end_matches(':').to_string();
                entries.push(Entry {
                    title: scanned_title(body),
                    reference,
                    file,
                    def: Snippet { text: body, line },
                });
            }
        }
        Catalogue { entries }
    })
}

/// The title an entry's own lines give: `title:`, or `name:` with `version:`
/// as "Name (A)" (the SWTCG's form).
fn scanned_title(body: &str) -> String {
    let field = |key: &str| {
        body.lines().find_map(|l| {
            let v = l.strip_prefix("  ")?.strip_prefix(key)?.strip_prefix(':')?;
            let v = v.trim();
            // A plain double-quoted title needs no YAML parser; anything else
            // (escapes, single quotes, plain scalars) goes through it.
            match v.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
                Some(inner) if !inner.contains(['\\', '"']) => Some(inner.to_string()),
                _ => serde_saphyr::from_str::<String>(v).ok(),
            }
        })
    };
    if let Some(t) = field("title") {
        return t;
    }
    match (field("name"), field("version")) {
        (Some(n), Some(v)) => format!("{n} ({v})"),
        (Some(n), None) => n,
        (None, _) => String::new(),
    }
}

/// Parse one entry's snippet into the game's definition, its text checked.
fn parse_entry<C: LibraryCard>(e: &Entry<Snippet>) -> Result<C, String> {
    let path = file_path(e.file);
    let map: BTreeMap<String, C> = crate::yaml::load(&path, e.def.text).map_err(|m| {
        format!(
            "{m} (in the entry at line {} of {})",
            e.def.line,
            path.display()
        )
    })?;
    let def = map
        .into_values()
        .next()
        .ok_or_else(|| format!("{}: entry {} is empty", path.display(), e.reference))?;
    def.check_text()
        .map_err(|m| format!("{}: {}: {m}", path.display(), e.reference))?;
    Ok(def)
}

/// Whether the game's library has a card of this reference (without parsing
/// the library).
pub fn has_card(game: Game, reference: &str) -> bool {
    snippets(game)
        .entries
        .iter()
        .any(|e| e.reference == reference)
}

/// Every library entry's reference and title as naming reads them (for a
/// test that they agree with the parsed library).
pub fn titles(game: Game) -> Vec<(String, String)> {
    snippets(game)
        .entries
        .iter()
        .map(|e| (e.reference.clone(), e.title.clone()))
        .collect()
}

/// A game's card definition, as the library holds it and scenarios name it.
pub trait LibraryCard: serde::de::DeserializeOwned + Clone + Send + Sync + 'static {
    const GAME: Game;
    /// The values a scenario may set on purpose on a named card, read from
    /// `stats:`.
    type Overrides: serde::de::DeserializeOwned;
    fn title(&self) -> String;
    /// What the card says (`text:`).
    fn text(&self) -> &CardText;
    /// The fields of the definition that encode game text (what `text:`'s
    /// `by:` may name).
    fn encoded_fields(&self) -> Vec<&'static str>;
    /// Check `text:` against the fields that encode it.
    fn check_text(&self) -> Result<(), String> {
        self.text()
            .check(&self.encoded_fields())
            .map_err(|m| format!("{}: {m}", self.title()))
    }
    /// Where a named card came from (none for an inline definition).
    fn origin_mut(&mut self) -> &mut Option<Origin>;
    /// Set the overridden values, each change noted as (name, was, now).
    fn apply_overrides(&mut self, over: Self::Overrides) -> Vec<(String, String, String)>;
    /// An imported card as a definition, its whole text not modelled.
    fn from_imported(card: &Imported) -> Result<Self, String>;
    /// The game's library, read once (see [`read_once`]).
    fn catalogue() -> Result<&'static Catalogue<Self>, String>;
}

/// Read a game's library into `cell` once, checking every card's text.
pub fn read_once<C: LibraryCard>(
    cell: &'static std::sync::OnceLock<Result<Catalogue<C>, String>>,
) -> Result<&'static Catalogue<C>, String> {
    cell.get_or_init(|| {
        let cat = Catalogue::read(C::GAME, C::title)?;
        for e in &cat.entries {
            e.def
                .check_text()
                .map_err(|m| format!("cards/{}: {}: {m}", e.file, e.reference))?;
        }
        Ok(cat)
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// The card a name means: a library card, else an imported one; an unknown or
/// ambiguous name is an error that says so (and lists the references).
pub fn named<C: LibraryCard>(name: &str) -> Result<C, String> {
    let game = C::GAME.as_str();
    match snippets(C::GAME).find(name) {
        Found::One(e) => {
            let mut def: C = parse_entry(e)?;
            *def.origin_mut() = Some(Origin {
                reference: e.reference.clone(),
                ..Origin::default()
            });
            Ok(def)
        }
        Found::Several(refs) => Err(format!(
            "`{name}` names {} library cards: {}; name one by its reference",
            refs.len(),
            refs.join(", ")
        )),
        Found::None => match imported(C::GAME, name)? {
            Some(card) => {
                let mut def = C::from_imported(&card).map_err(|e| {
                    format!(
                        "{} ({}): the imported card can't be named in a scenario ({e})",
                        card.title, card.reference
                    )
                })?;
                *def.origin_mut() = Some(Origin {
                    reference: card.reference.clone(),
                    overrides: Vec::new(),
                    imported: true,
                });
                Ok(def)
            }
            None => Err(format!(
                "no card `{name}` in the card library (cards/{game}/) or the imported databases; define it inline"
            )),
        },
    }
}

/// A board's `cards:`: every card inline or named, each key once.
pub fn cards<'de, D, C>(d: D) -> Result<BTreeMap<String, Spanned<C>>, D::Error>
where
    D: Deserializer<'de>,
    C: LibraryCard,
{
    let slots: BTreeMap<String, Spanned<Slot<C>>> = crate::yaml::unique(d)?;
    Ok(slots
        .into_iter()
        .map(|(k, s)| (k, Spanned::new(s.value.0, s.referenced, s.defined)))
        .collect())
}

/// One card of `cards:`: an inline definition (a mapping whose first key is not
/// `card`), or a named card (a bare reference or title, or `{card: …, stats: {…}}`
/// whose `stats:` replace the card's on purpose). Nothing else of a named card
/// can change: its text is the card's.
pub struct Slot<C>(pub C);

impl<'de, C: LibraryCard> Deserialize<'de> for Slot<C> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(SlotVisitor(std::marker::PhantomData))
    }
}

struct SlotVisitor<C>(std::marker::PhantomData<C>);

impl<'de, C: LibraryCard> Visitor<'de> for SlotVisitor<C> {
    type Value = Slot<C>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "a card: a library reference or title (`{}:…`, `{{card: …}}`), or an inline definition",
            C::GAME.as_str()
        )
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Slot<C>, E> {
        named(s).map(Slot).map_err(E::custom)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Slot<C>, A::Error> {
        let Some(first) = m.next_key::<String>()? else {
            return Err(de::Error::custom(
                "an empty card: name a library card with `card:`, or define it inline",
            ));
        };
        if first != "card" {
            let def = C::deserialize(de::value::MapAccessDeserializer::new(Prepend {
                first: Some(first),
                rest: m,
            }))?;
            def.check_text().map_err(de::Error::custom)?;
            return Ok(Slot(def));
        }
        let name: String = m.next_value()?;
        let mut def: C = named(&name).map_err(de::Error::custom)?;
        while let Some(key) = m.next_key::<String>()? {
            match key.as_str() {
                "stats" => {
                    let notes = def.apply_overrides(m.next_value()?);
                    if let Some(o) = def.origin_mut() {
                        o.overrides.extend(notes);
                    }
                }
                "card" => return Err(de::Error::custom("duplicate mapping key `card`")),
                other => {
                    return Err(de::Error::custom(format!(
                        "`{other}` can't be set on a library card (its text and traits are the card's); a named card overrides only `stats:` — define a hypothetical card inline instead"
                    )));
                }
            }
        }
        Ok(Slot(def))
    }
}

/// A `MapAccess` that hands back one key already read before the rest: lets a
/// card be read as a named card or an inline definition by its first key.
struct Prepend<A> {
    first: Option<String>,
    rest: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Prepend<A> {
    type Error = A::Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.first.take() {
            Some(k) => seed
                .deserialize(de::value::StringDeserializer::<A::Error>::new(k))
                .map(Some),
            None => self.rest.next_key_seed(seed),
        }
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, A::Error> {
        self.rest.next_value_seed(seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentences(v: &[(&str, &[&str], bool)]) -> CardText {
        CardText {
            full: v.iter().map(|(s, ..)| *s).collect::<Vec<_>>().join(" "),
            plain: false,
            sentences: v
                .iter()
                .map(|(s, by, nm)| Sentence {
                    said: s.to_string(),
                    by: by.iter().map(|b| b.to_string()).collect(),
                    not_modelled: nm.then_some(NotModelled::Yes),
                })
                .collect(),
        }
    }

    #[test]
    fn every_field_and_every_sentence_is_accounted_for() {
        let t = sentences(&[
            ("Adds 2.", &["modifiers"], false),
            ("Deploy -1.", &[], true),
        ]);
        assert!(t.check(&["modifiers"]).is_ok());
        assert_eq!(t.unencoded(), vec!["Deploy -1.".to_string()]);
        // A field no sentence claims.
        assert!(
            t.check(&["modifiers", "drain"])
                .unwrap_err()
                .contains("`drain`")
        );
        // A sentence claiming a field the card does not set.
        assert!(t.check(&[]).unwrap_err().contains("sets no `modifiers`"));
        // Neither by nor not_modelled.
        let t = sentences(&[("Adds 2.", &[], false)]);
        assert!(t.check(&[]).unwrap_err().contains("neither"));
    }

    #[test]
    fn a_plain_text_is_wholly_not_modelled_and_refused_beside_encodings() {
        let t = CardText::plain("When in battle, adds one battle destiny.");
        assert!(t.check(&[]).is_ok());
        assert_eq!(t.unencoded().len(), 1);
        assert!(t.check(&["abilities"]).is_err());
        assert!(CardText::plain("  ").unencoded().is_empty());
    }

    #[test]
    fn titles_match_ignoring_case_bullets_and_punctuation() {
        assert_eq!(
            title_key("•Luke Skywalker, Jedi Knight"),
            "luke skywalker jedi knight"
        );
        assert_eq!(title_key("Tatooine: Mos Eisley"), "tatooine mos eisley");
        assert_eq!(title_key("Obi-Wan's Cape"), "obi wans cape");
    }
}
