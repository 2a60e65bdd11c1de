//! Identifying cards (AR Appendix D; Chapter 9: Subtype, Icons, Boldface Type,
//! Matching Pairs, Starships - squadron designations, Characters - Dual Character
//! Types; Persona Lists).
//!
//! A card's identity is structured data (`identity:` on a card): its character
//! type icons, its printed subtype line and lore, and for each attribute word of
//! its lore or game text what that word refers to (`mentions`). The rules below
//! decide from that data, never from the meaning of English text: where a word
//! occurs (title, subtype, lore, game text), whether it is the word itself (a
//! plural or possessive, not part of another word), whether the term is on the
//! list of characteristics, whether the card's category can have it, and what
//! the context says it refers to. A word whose context the data does not give is
//! "not modelled".

use super::model::{CardDef, CardType, Filter, Side};
use super::state::{CardIx, State, Zone};
use serde::Deserialize;

pub const IDENTIFYING: &str = "swccg.ar.appendix-d-identifying-cards";
pub const GAME_TEXT: &str = "swccg.ar.appendix-d-game-text";
pub const LORE: &str = "swccg.ar.appendix-d-lore";
pub const CHARACTERISTICS: &str = "swccg.ar.appendix-d-characteristics";
pub const RULE_OF_THREE: &str = "swccg.ar.characteristics-the-rule-of-three";
pub const TROOPERS: &str = "swccg.ar.characteristics-troopers";
pub const GUARDS: &str = "swccg.ar.characteristics-guards";
pub const SPECIES: &str = "swccg.ar.characteristics-species";
pub const PADAWAN: &str = "swccg.ar.characteristics-padawan";
pub const POSED: &str = "swccg.ar.posed";
pub const BOLDFACE: &str = "swccg.ar.boldface-type";
pub const CAPITALIZATION: &str = "swccg.ar.capitalization";
pub const WITH_X: &str = "swccg.ar.with-x-in-title-lore-game-text";
pub const SUBTYPE: &str = "swccg.ar.subtype";
pub const SQUADRONS: &str = "swccg.ar.starships-squadron-designations";
pub const DUAL_TYPES: &str = "swccg.ar.characters-dual-character-types";
pub const ICONS: &str = "swccg.ar.chapter-9-the-cards-attributes-types-icons-icons";
pub const SHORTHAND: &str = "swccg.ar.icons-shorthand-icons";
pub const PERSONA_LISTS: &str = "swccg.ar.persona-lists";
pub const MATCHING: &str = "swccg.ar.matching-pairs";
pub const MATCHING_BY_RULE: &str = "swccg.ar.matching-by-rule";
pub const MATCHING_BY_TEXT: &str = "swccg.ar.matching-by-game-text";
pub const COMMON_SENSE: &str = "swccg.ar.common-sense-list";
pub const SPECIFIC_RULINGS: &str = "swccg.ar.specific-rulings";
pub const CROSSING_OVER: &str = "swccg.ar.persona-crossing-over";
pub const UNDERCOVER: &str = "swccg.ar.undercover-spy-rules";
pub const TRANSPORT_VEHICLE: &str = "swccg.ar.vehicles-transport-vehicle";
pub const CREATURE_VEHICLE: &str = "swccg.ar.vehicles-creature-vehicles";
pub const CHARACTER_WEAPON: &str = "swccg.ar.weapons-character-weapon";
pub const MATCHING_PILOT: &str = "swccg.ar.characters-matching-pilot";
pub const GLOBAL_EFFECTS: &str = "swccg.ar.global-effects-and-card-state";

/// Every ID this module cites.
pub const IDS: &[&str] = &[
    IDENTIFYING,
    GAME_TEXT,
    LORE,
    CHARACTERISTICS,
    RULE_OF_THREE,
    TROOPERS,
    GUARDS,
    SPECIES,
    PADAWAN,
    POSED,
    BOLDFACE,
    CAPITALIZATION,
    WITH_X,
    SUBTYPE,
    SQUADRONS,
    DUAL_TYPES,
    ICONS,
    SHORTHAND,
    PERSONA_LISTS,
    MATCHING,
    MATCHING_BY_RULE,
    MATCHING_BY_TEXT,
    COMMON_SENSE,
    SPECIFIC_RULINGS,
    CROSSING_OVER,
    UNDERCOVER,
    super::break_cover::BREAKING_COVER,
    TRANSPORT_VEHICLE,
    CREATURE_VEHICLE,
    CHARACTER_WEAPON,
    MATCHING_PILOT,
    GLOBAL_EFFECTS,
];

// ------------------------------------------------------------------ rules data

/// AR Appendix D Characteristics: the list (lower case). Species are on the
/// list as "species"; the species the rulebook names are in [`SPECIES_NAMES`].
const CHARACTERISTIC_LIST: &[&str] = &[
    "accountant",
    "admiral",
    "assassin",
    "black sun agent",
    "bounty hunter",
    "captain",
    "clone",
    "commander",
    "crimson dawn",
    "gambler",
    "gangster",
    "general",
    "guard",
    "gunner",
    "handmaiden",
    "imperial council member",
    "infantry battle droid",
    "information broker",
    "inquisitor",
    "insurgent",
    "isb agent",
    "jedi council member",
    "leader",
    "mercenary",
    "miner",
    "musician",
    "padawan",
    "pirate",
    "royal naboo security",
    "scavenger",
    "scoundrel",
    "scout",
    "senator",
    "slaver",
    "smuggler",
    "spy",
    "tax collector",
    "thief",
    "trade federation",
    "trooper",
];

/// Specialized characteristics (AR Characteristics - Troopers / Guards): each
/// also gives the characteristics listed with it.
const SPECIALIZED: &[(&str, &[&str], &str)] = &[
    ("stormtrooper", &["trooper"], TROOPERS),
    ("sandtrooper", &["stormtrooper", "trooper"], TROOPERS),
    ("snowtrooper", &["stormtrooper", "trooper"], TROOPERS),
    ("death trooper", &["stormtrooper", "trooper"], TROOPERS),
    (
        "biker scout",
        &["stormtrooper", "scout", "trooper"],
        TROOPERS,
    ),
    ("clone trooper", &["trooper"], TROOPERS),
    ("cloud city trooper", &["trooper"], TROOPERS),
    ("death star trooper", &["trooper"], TROOPERS),
    ("echo base trooper", &["trooper"], TROOPERS),
    ("rebel trooper", &["trooper"], TROOPERS),
    ("bodyguard", &["guard"], GUARDS),
    ("coruscant guard", &["guard"], GUARDS),
    ("magnaguard", &["guard"], GUARDS),
    ("royal guard", &["guard"], GUARDS),
];

/// Species the rulebook names (AR Characteristics - Species and Specific Rulings).
/// Human and humanoid are not species.
const SPECIES_NAMES: &[&str] = &[
    "wookiee",
    "jawa",
    "hutt",
    "tusken raider",
    "ewok",
    "corellian",
    "gungan",
    "gamorrean",
    "alderaanian",
    "neimoidian",
];

/// Character type icons (AR Characters - Dual Character Types).
const CHARACTER_TYPES: &[&str] = &[
    "alien",
    "imperial",
    "rebel",
    "droid",
    "republic",
    "separatist",
    "first order",
    "resistance",
    "jedi master",
    "dark jedi master",
];

/// AR Common Sense List (and Appendix D's own examples): a term names only
/// cards of this category ("astromechs are characters", "banthas are creature
/// vehicles"). `sub` is a word the subtype must contain.
const CATEGORY: &[(&str, CardType, Option<&str>)] = &[
    ("astromech", CardType::Character, None),
    ("protocol droid", CardType::Character, None),
    ("probe droid", CardType::Character, None),
    ("bantha", CardType::Vehicle, Some("creature")),
    ("tauntaun", CardType::Vehicle, Some("creature")),
    ("blaster", CardType::Weapon, None),
    ("dark jedi", CardType::Character, None),
    ("jedi", CardType::Character, None),
    ("lift tube", CardType::Vehicle, None),
    ("mentor", CardType::Character, None),
    ("speeder", CardType::Vehicle, None),
    ("star destroyer", CardType::Starship, Some("capital")),
    ("capital", CardType::Starship, None),
    ("cruiser", CardType::Starship, None),
    ("freighter", CardType::Starship, None),
    ("starfighter", CardType::Starship, None),
    ("t-47", CardType::Vehicle, None),
    ("y-wing", CardType::Starship, Some("starfighter")),
    ("tatooine", CardType::Location, None),
];

/// Shorthand icons found in game text (AR Icons - Shorthand Icons).
const SHORTHAND_ICONS: &[&str] = &[
    "reshuffle",
    "maintenance",
    "immune_to_alter",
    "immune_to_control",
    "immune_to_sense",
    "virtual",
];

// ------------------------------------------------------------------ card data

/// What identifies a card, as data.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Identity {
    /// Character type icons: `alien`, `imperial`, `rebel`, `droid`…
    #[serde(default)]
    pub character_types: Vec<String>,
    /// The printed subtype line, e.g. "Capital: Imperial-class Star Destroyer".
    #[serde(default)]
    pub subtype: Option<String>,
    /// The printed lore.
    #[serde(default)]
    pub lore: String,
    /// Attribute words of the title, lore or game text and what each refers to.
    #[serde(default)]
    pub mentions: Vec<Mention>,
    /// Attributes given by a ruling (AR Appendix D Specific Rulings, Appendix B).
    #[serde(default)]
    pub rulings: Vec<String>,
    /// By a ruling: it may be on table while the opponent's version of its persona
    /// is, and theirs while it is (Mara Jade).
    #[serde(default)]
    pub persona_both_sides: bool,
    /// Card titles or persona names its game text refers to.
    #[serde(default)]
    pub names: Vec<String>,
    /// "Matching pilot / weapon for …" stated by its game text.
    #[serde(default)]
    pub matching: Vec<Filter>,
    /// Its squadron designation, and where it is found.
    #[serde(default)]
    pub squadron: Option<Squadron>,
    /// Its game text lets no other pilot aboard (e.g. a persona permanently piloting it).
    #[serde(default)]
    pub no_pilots: bool,
    /// States that change who it is or what it can do.
    #[serde(default)]
    pub states: Vec<IdState>,
    /// Attributes it gives the one card it is deployed on ("makes him a pilot").
    #[serde(default)]
    pub grants: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mention {
    /// The words as printed (they must occur in `in`).
    pub words: String,
    #[serde(rename = "in")]
    pub place: Place,
    pub about: About,
    /// Printed in boldface (has no effect: AR Boldface Type).
    #[serde(default)]
    pub bold: Option<bool>,
    /// A conditional attribute ("Spy while on Coruscant"): the condition, as printed.
    #[serde(default, rename = "while")]
    pub condition: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    Title,
    Lore,
    GameText,
}

impl Place {
    fn name(self) -> &'static str {
        match self {
            Place::Title => "title",
            Place::Lore => "lore",
            Place::GameText => "game text",
        }
    }
}

/// What the context says a word refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum About {
    /// The card itself ("Stormtrooper assigned to…", "other troopers").
    #[serde(rename = "self")]
    This,
    /// Something else (Het Nkik's "stormtrooper assault", Padme's "Jedi").
    Other,
    /// The character "poses" or "posed" as it.
    Posed,
    /// The image pictured on a non-unique card.
    Image,
    /// A group the non-unique card belongs to, many of whose members have it.
    Group,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Squadron {
    pub name: String,
    pub from: SquadronFrom,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SquadronFrom {
    Title,
    Lore,
    GameText,
    Ruling,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdState {
    Undercover,
    Disarmed,
    CrossedOver,
    TextCanceled,
}

/// A question about a card, answered from the board at the end of the run.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub card: String,
    /// Does it have this attribute (name, persona, subtype, characteristic, character type…)?
    #[serde(default)]
    pub is: Option<String>,
    /// May it be targeted as a non-<this> (it lacks the character type icon)?
    #[serde(default)]
    pub not: Option<String>,
    /// Is it a matching pair with this card?
    #[serde(default)]
    pub matching: Option<String>,
    /// Does it have this icon?
    #[serde(default)]
    pub icon: Option<String>,
    /// Searches for words: "with X in title / lore / game text".
    #[serde(default)]
    pub in_title: Option<String>,
    #[serde(default)]
    pub in_lore: Option<String>,
    #[serde(default)]
    pub in_game_text: Option<String>,
}

impl Question {
    /// The observation path of the answer, or an error when the question is malformed.
    pub fn path(&self) -> Result<String, String> {
        let kinds: Vec<(&str, &String)> = [
            ("is", &self.is),
            ("not", &self.not),
            ("matching", &self.matching),
            ("icon", &self.icon),
            ("in_title", &self.in_title),
            ("in_lore", &self.in_lore),
            ("in_game_text", &self.in_game_text),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
        .collect();
        match kinds.as_slice() {
            [(k, v)] => Ok(format!("{k}.{}.{v}", self.card)),
            _ => Err(
                "a question asks exactly one of is, not, matching, icon, in_title, in_lore, in_game_text"
                    .into(),
            ),
        }
    }
}

/// The answer to a question, with its reason and the rules it rests on.
#[derive(Debug, Clone)]
pub struct Answer {
    pub yes: bool,
    pub why: String,
    pub cites: Vec<&'static str>,
    /// Set when the answer needs something the data does not give.
    pub not_modelled: Option<String>,
}

impl Answer {
    fn yes(why: impl Into<String>, cites: &[&'static str]) -> Answer {
        Answer {
            yes: true,
            why: why.into(),
            cites: cites.to_vec(),
            not_modelled: None,
        }
    }
    fn no(why: impl Into<String>, cites: &[&'static str]) -> Answer {
        Answer {
            yes: false,
            why: why.into(),
            cites: cites.to_vec(),
            not_modelled: None,
        }
    }
    fn unknown(what: String, cites: &[&'static str]) -> Answer {
        Answer {
            yes: false,
            why: what.clone(),
            cites: cites.to_vec(),
            not_modelled: Some(what),
        }
    }
}

// ------------------------------------------------------------------ words

/// An icon inside game text is written between braces: `{hoth}`.
const ICON_OPEN: char = '\x7b';
const ICON_CLOSE: char = '\x7d';

/// A text's words, lower case (capitalization is not relevant: AR Capitalization);
/// icons written `{name}` in game text are pictures, not words, and are skipped.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for raw in text.split(|c: char| c.is_whitespace() || ",.;:!?()\"“”[]/&".contains(c)) {
        if raw.starts_with(ICON_OPEN) || raw.is_empty() {
            continue;
        }
        let mut w = raw.trim_start_matches(['\'', '‘', '’']).to_lowercase();
        w = w.replace('’', "'");
        if w.ends_with('\'') && !w.ends_with("s'") {
            w.pop();
        }
        if !w.is_empty() {
            out.push(w);
        }
    }
    out
}

/// Icons written `{name}` in a text.
fn icons_in(text: &str) -> Vec<String> {
    text.split(ICON_OPEN)
        .skip(1)
        .filter_map(|s| {
            s.split_once(ICON_CLOSE)
                .map(|(i, _)| i.trim().to_lowercase())
        })
        .collect()
}

/// The word itself, or its plural or possessive (AR "With X in title/lore/game text").
fn same_word(w: &str, t: &str) -> bool {
    if w == t {
        return true;
    }
    let Some(rest) = w.strip_prefix(t) else {
        return false;
    };
    matches!(rest, "s" | "es" | "'s" | "s'" | "es'" | "'")
}

/// Does the term (one or more words, in order, nothing between) occur in these words?
pub fn occurs(ws: &[String], term: &str) -> bool {
    let t = words(term);
    !t.is_empty()
        && ws.len() >= t.len()
        && (0..=ws.len() - t.len())
            .any(|i| t.iter().enumerate().all(|(k, x)| same_word(&ws[i + k], x)))
}

fn norm(s: &str) -> String {
    words(s).join(" ")
}

// ------------------------------------------------------------------ attributes

fn is_pilot(d: &CardDef) -> bool {
    d.card_type == CardType::Character
        && (d.stats.piloting.is_some()
            || d.keywords.iter().any(|k| k.eq_ignore_ascii_case("pilot")))
}

fn has_state(d: &CardDef, s: IdState) -> bool {
    d.identity.states.contains(&s)
}

fn subtype_line(d: &CardDef) -> String {
    match (&d.identity.subtype, &d.subtype) {
        (Some(s), _) => s.clone(),
        (None, Some(s)) => s.clone(),
        _ => String::new(),
    }
}

/// The persona names a card stands for (none once it has crossed over).
pub fn personas(d: &CardDef) -> Vec<String> {
    if has_state(d, IdState::CrossedOver) {
        return Vec::new();
    }
    if d.personas.is_empty() {
        let name = super::titles::persona_name(&d.title);
        if name.eq_ignore_ascii_case(&d.title) {
            vec![d.title.clone()]
        } else {
            vec![d.title.clone(), name.to_string()]
        }
    } else {
        d.personas.clone()
    }
}

/// Card types that have personas (AR Persona: characters, starships, vehicles, weapons).
pub(crate) fn persona_type(t: CardType) -> bool {
    matches!(
        t,
        CardType::Character | CardType::Starship | CardType::Vehicle | CardType::Weapon
    )
}

fn is_characteristic(t: &str) -> bool {
    CHARACTERISTIC_LIST.contains(&t)
        || SPECIES_NAMES.contains(&t)
        || SPECIALIZED.iter().any(|(s, _, _)| *s == t)
}

/// Does the card have the attribute `term`?
pub fn is(st: &State, c: CardIx, term: &str) -> Answer {
    let d = st.def(c);
    let t = norm(term);
    let title = &d.title;
    if t.is_empty() {
        return Answer::no("an empty term names nothing", &[IDENTIFYING]);
    }
    // Persona names (AR Persona Lists): unique cards, or cards that list their personas.
    if (d.unique || !d.personas.is_empty()) && personas(d).iter().any(|p| norm(p) == t) {
        return Answer::yes(
            format!("{title} represents the persona {term}"),
            &[PERSONA_LISTS],
        );
    }
    if has_state(d, IdState::CrossedOver)
        && (d.personas.iter().any(|p| norm(p) == t) || norm(title) == t)
    {
        return Answer::no(
            format!(
                "{title} has crossed over: its persona name has changed, it is no longer {term}"
            ),
            &[CROSSING_OVER, PERSONA_LISTS],
        );
    }
    // A card deployed on this one gives it an attribute: only this copy (AR Global
    // Effects And Card State).
    if let Some(g) = (0..st.cards.len()).find(|&x| {
        st.zone[x] == Zone::On(c)
            && st.active(x)
            && st.def(x).identity.grants.iter().any(|a| norm(a) == t)
    }) {
        return Answer::yes(
            format!(
                "{} is deployed on {title}: this copy is {term}",
                st.def(g).title
            ),
            &[GLOBAL_EFFECTS],
        );
    }
    // An undercover spy (AR Undercover Spy Rules), by its keywords or a card on it.
    if t == "undercover" && st.undercover(c) {
        return Answer::yes(format!("{title} is an undercover spy"), &[UNDERCOVER]);
    }
    // Another card's persona name: this card is not that persona. Only characters,
    // starships, vehicles and weapons are personas (AR Persona): a unique Effect's
    // title ("Undercover") names no persona.
    let other_persona = (0..st.cards.len()).any(|x| {
        x != c && {
            let dx = st.def(x);
            persona_type(dx.card_type)
                && (dx.unique || !dx.personas.is_empty())
                && personas(dx).iter().any(|p| norm(p) == t)
        }
    });
    if other_persona {
        return Answer::no(
            format!("{term} is a persona {title} does not represent"),
            &[PERSONA_LISTS, MATCHING],
        );
    }
    if t == "pilot" && is_pilot(d) {
        return Answer::yes(format!("{title} is a pilot (pilot icon)"), &[ICONS]);
    }
    // Character type icons (AR Characters - Dual Character Types).
    if CHARACTER_TYPES.contains(&t.as_str()) {
        if d.card_type != CardType::Character {
            return Answer::no(
                format!("{title} is not a character: character types are character icons"),
                &[DUAL_TYPES],
            );
        }
        // The card database lists character type icons among a card's keywords.
        let has = d
            .identity
            .character_types
            .iter()
            .chain(&d.keywords)
            .any(|x| norm(x) == t);
        let n = d.identity.character_types.len();
        let both = if n > 1 {
            " (one of its character type icons)"
        } else {
            ""
        };
        return if has {
            Answer::yes(format!("{title} has the {term} icon{both}"), &[DUAL_TYPES])
        } else {
            Answer::no(format!("{title} has no {term} icon"), &[DUAL_TYPES])
        };
    }
    // Rebel trooper: a trooper of the Rebel card type (AR Characteristics - Troopers).
    if t == "rebel trooper" {
        let trooper = is(st, c, "trooper");
        let rebel = d
            .identity
            .character_types
            .iter()
            .any(|x| norm(x) == "rebel");
        if trooper.yes && rebel {
            return Answer::yes(
                format!("{title} is a trooper of the Rebel card type: a Rebel trooper"),
                &[TROOPERS, DUAL_TYPES],
            );
        }
    }
    if let Some(a) = squadron_question(st, c, &t) {
        return a;
    }
    // A ruling gives it (AR Appendix D Specific Rulings).
    if d.identity.rulings.iter().any(|x| norm(x) == t) {
        return Answer::yes(
            format!("{title} is {term} by ruling"),
            &[SPECIFIC_RULINGS, IDENTIFYING],
        );
    }
    if is_characteristic(&t) {
        return characteristic(st, c, &t, term);
    }
    attribute(d, &t, term)
}

/// A term on the list of characteristics (AR Characteristics, The Rule Of Three).
fn characteristic(st: &State, c: CardIx, t: &str, term: &str) -> Answer {
    let d = st.def(c);
    let title = &d.title;
    if d.card_type != CardType::Character {
        return Answer::no(
            format!(
                "{term} is a characteristic and only characters have characteristics: {title} is a {}",
                d.card_type.as_str()
            ),
            &[RULE_OF_THREE, CHARACTERISTICS],
        );
    }
    if let Some(a) = padawan_excluded(d, t, term) {
        return a;
    }
    let mut cites = vec![RULE_OF_THREE, CHARACTERISTICS];
    if SPECIES_NAMES.contains(&t) {
        cites.push(SPECIES);
    }
    // The card database lists the characteristics a card has among its keywords.
    if d.keywords.iter().any(|k| norm(k) == t) {
        return Answer::yes(format!("{title} has the characteristic {term}"), &cites);
    }
    let found = find(d, t, true);
    if found.yes || found.not_modelled.is_some() {
        let mut a = found;
        a.cites.extend(cites);
        return a;
    }
    // A specialized characteristic gives the general one (troopers, guards).
    for (s, gives, rule) in SPECIALIZED {
        if gives.contains(&t) {
            let sub = find(d, s, true);
            if sub.yes {
                return Answer::yes(
                    format!("{}; a {s} is also a {term}", sub.why),
                    &[rule, RULE_OF_THREE],
                );
            }
        }
    }
    let mut a = found;
    a.cites.extend(cites);
    a
}

/// AR Characteristics - Padawan: a character with ability 6 or more (printed, or
/// raised to 6 by completing Jedi Test 6) is never a Padawan, whatever its title,
/// lore or game text say.
fn padawan_excluded(d: &CardDef, t: &str, term: &str) -> Option<Answer> {
    let ability = d.stats.ability.filter(|&a| a >= 6)?;
    (t == "padawan").then(|| {
        Answer::no(
            format!(
                "{} has ability {ability}: a character with ability 6 or higher may never be a {term}",
                d.title
            ),
            &[PADAWAN, CHARACTERISTICS],
        )
    })
}

/// A term that is not a characteristic: name, subtype and game text identify a
/// card; lore does not (AR Appendix D Identifying Cards, Game Text, Lore).
fn attribute(d: &CardDef, t: &str, term: &str) -> Answer {
    let title = &d.title;
    if let Some((_, ty, sub)) = CATEGORY.iter().find(|(k, _, _)| *k == t) {
        let sub_ok = sub.is_none_or(|s| occurs(&words(&subtype_line(d)), s));
        if d.card_type != *ty || !sub_ok {
            let what = match sub {
                Some(s) => format!("{s} {}", ty.as_str()),
                None => ty.as_str().to_string(),
            };
            return Answer::no(
                format!(
                    "only a {what} is a {term} (common sense): {title} is a {}",
                    d.card_type.as_str()
                ),
                &[COMMON_SENSE, IDENTIFYING],
            );
        }
    }
    let mut a = find(d, t, false);
    if !a.yes && a.not_modelled.is_none() && occurs(&words(&d.identity.lore), t) {
        a.why = format!(
            "\"{term}\" appears only in the lore of {title}, and lore does not identify a card ({term} is not a characteristic)"
        );
        a.cites = vec![LORE, CHARACTERISTICS];
    }
    a
}

/// Where the term names the card: title, subtype, then the mentions of lore
/// (only for characteristics) and game text.
fn find(d: &CardDef, t: &str, lore_counts: bool) -> Answer {
    let title = &d.title;
    if occurs(&words(title), t) {
        if let Some(m) = mention(d, Place::Title, t)
            && m.about != About::This
        {
            return Answer::no(
                format!(
                    "\"{}\" in the title of {title} does not refer to the card itself",
                    m.words
                ),
                &[IDENTIFYING],
            );
        }
        return Answer::yes(
            format!("\"{t}\" is in the title of {title}"),
            &[IDENTIFYING, WITH_X],
        );
    }
    let sub = subtype_line(d);
    if occurs(&words(&sub), t) {
        return Answer::yes(
            format!("\"{t}\" is part of the subtype of {title} ({sub})"),
            &[SUBTYPE, IDENTIFYING],
        );
    }
    let mut places = vec![Place::GameText];
    if lore_counts {
        places.insert(0, Place::Lore);
    }
    let mut last: Option<Answer> = None;
    for p in places {
        let text = match p {
            Place::Lore => &d.identity.lore,
            _ => &d.text.full,
        };
        if !occurs(&words(text), t) {
            continue;
        }
        let Some(m) = mention(d, p, t) else {
            return Answer::unknown(
                format!("what \"{t}\" in the {} of {title} refers to", p.name()),
                &[RULE_OF_THREE],
            );
        };
        let a = by_context(d, m, p, t);
        if a.yes {
            return a;
        }
        last = Some(a);
    }
    last.unwrap_or_else(|| {
        let at = if lore_counts {
            "title, subtype, lore or game text"
        } else {
            "title, subtype or game text"
        };
        Answer::no(
            format!("the word \"{t}\" itself (or its plural or possessive) is not in the {at} of {title}"),
            &[RULE_OF_THREE, WITH_X],
        )
    })
}

fn mention<'a>(d: &'a CardDef, p: Place, t: &str) -> Option<&'a Mention> {
    d.identity
        .mentions
        .iter()
        .find(|m| m.place == p && occurs(&words(&m.words), t))
}

/// What the context of the word says (AR The Rule Of Three, Posed, Game Text, Boldface Type).
fn by_context(d: &CardDef, m: &Mention, p: Place, t: &str) -> Answer {
    let title = &d.title;
    let place = p.name();
    let w = &m.words;
    match m.about {
        About::Posed => Answer::no(
            format!("{title} only poses as \"{w}\" in its lore: posing does not grant it"),
            &[POSED],
        ),
        About::Other => Answer::no(
            format!("\"{w}\" in the {place} of {title} does not refer to {title}"),
            if p == Place::GameText {
                &[RULE_OF_THREE, GAME_TEXT]
            } else {
                &[RULE_OF_THREE]
            },
        ),
        About::Image | About::Group if d.unique => Answer::no(
            format!("\"{w}\" in the lore of {title} refers to someone else, and {title} is unique"),
            &[RULE_OF_THREE],
        ),
        About::Image | About::Group | About::This => {
            if p == Place::GameText && has_state(d, IdState::TextCanceled) {
                if let Some(cond) = &m.condition {
                    return Answer::no(
                        format!("{title} is \"{w}\" only {cond}, by game text that is canceled"),
                        &[GAME_TEXT],
                    );
                }
                return Answer::yes(
                    format!(
                        "\"{w}\" in the game text of {title} refers to itself: it keeps the attribute although its game text is canceled"
                    ),
                    &[GAME_TEXT, RULE_OF_THREE],
                );
            }
            if let Some(cond) = &m.condition {
                return Answer::unknown(format!("whether {title} is {t} \"{cond}\""), &[GAME_TEXT]);
            }
            let mut cites = vec![RULE_OF_THREE];
            if p == Place::GameText {
                cites.push(GAME_TEXT);
            }
            let mut why = format!("\"{w}\" in the {place} of {title} refers to itself");
            if m.about == About::Image {
                why.push_str(" (the image on a non-unique card)");
            }
            if m.about == About::Group {
                why.push_str(" (a group many of whose members have it)");
            }
            if m.bold == Some(false) {
                why.push_str("; it is not in boldface, which has no effect on play");
                cites.push(BOLDFACE);
            }
            Answer {
                yes: true,
                why,
                cites,
                not_modelled: None,
            }
        }
    }
}

/// `<name> squadron <pilot|gunner|tie|starship|starfighter>` (AR Starships - squadron designations).
fn squadron_question(st: &State, c: CardIx, t: &str) -> Option<Answer> {
    let ws: Vec<&str> = t.split(' ').collect();
    let [name, "squadron", role] = ws.as_slice() else {
        return None;
    };
    let d = st.def(c);
    let title = &d.title;
    let sub = words(&subtype_line(d));
    let role_ok = match *role {
        "pilot" => is_pilot(d),
        "gunner" => d.keywords.iter().any(|k| k.eq_ignore_ascii_case("gunner")),
        "tie" => d.card_type == CardType::Starship && occurs(&sub, "tie"),
        "starfighter" => d.card_type == CardType::Starship && occurs(&sub, "starfighter"),
        "starship" => d.card_type == CardType::Starship,
        _ => return None,
    };
    if !role_ok {
        return Some(Answer::no(
            format!("{title} is not a {role}: a squadron designation also needs that"),
            &[SQUADRONS],
        ));
    }
    let own = |d: &CardDef| {
        d.identity
            .squadron
            .as_ref()
            .filter(|s| norm(&s.name) == *name)
            .map(|s| s.from)
    };
    if let Some(from) = own(d) {
        let where_ = match from {
            SquadronFrom::Title => "its title",
            SquadronFrom::Lore => "its lore",
            SquadronFrom::GameText => "its game text",
            SquadronFrom::Ruling => "a ruling",
        };
        return Some(Answer::yes(
            format!("{title} is {name} Squadron by {where_}, and a {role}"),
            &[SQUADRONS],
        ));
    }
    // Game text that names a card of that squadron.
    for n in &d.identity.names {
        for x in 0..st.cards.len() {
            let dx = st.def(x);
            if x != c
                && (norm(&dx.title) == norm(n) || personas(dx).iter().any(|p| norm(p) == norm(n)))
                && own(dx).is_some()
            {
                return Some(Answer::yes(
                    format!(
                        "{title}'s game text refers to {}, a {name} Squadron card: {title} is a {name} Squadron {role}",
                        dx.title
                    ),
                    &[SQUADRONS, SPECIFIC_RULINGS],
                ));
            }
        }
    }
    // Piloting (or gunner aboard) a starship of the squadron.
    if matches!(*role, "pilot" | "gunner")
        && let Zone::On(h) = st.zone[c]
        && st.def(h).card_type == CardType::Starship
        && own(st.def(h)).is_some()
    {
        return Some(Answer::yes(
            format!(
                "{title} is aboard {}, a {name} Squadron starship, as a {role}: a {name} Squadron {role} while there",
                st.def(h).title
            ),
            &[SQUADRONS],
        ));
    }
    Some(Answer::no(
        format!("nothing makes {title} a {name} Squadron {role} (a permanent pilot never counts)"),
        &[SQUADRONS],
    ))
}

/// "Non-<type>": only a character that lacks the character type icon.
pub fn non(st: &State, c: CardIx, term: &str) -> Answer {
    let d = st.def(c);
    let t = norm(term);
    if d.card_type != CardType::Character || !CHARACTER_TYPES.contains(&t.as_str()) {
        let a = is(st, c, term);
        return Answer {
            yes: !a.yes && a.not_modelled.is_none(),
            why: format!("non-{term}: {}", a.why),
            ..a
        };
    }
    if d.identity.character_types.iter().any(|x| norm(x) == t) {
        Answer::no(
            format!(
                "{} has the {term} icon: not a non-{term}, whatever other icons it has",
                d.title
            ),
            &[DUAL_TYPES],
        )
    } else {
        Answer::yes(
            format!("{} lacks the {term} icon: a non-{term}", d.title),
            &[DUAL_TYPES],
        )
    }
}

/// Does the card have this icon (printed outside its game text)?
pub fn icon(st: &State, c: CardIx, name: &str) -> Answer {
    let d = st.def(c);
    let n = name.to_lowercase();
    if d.stats.icons.iter().any(|i| i.eq_ignore_ascii_case(&n)) {
        return Answer::yes(format!("{} has the {name} icon", d.title), &[ICONS]);
    }
    if icons_in(&d.text.full).contains(&n) {
        let rule = if SHORTHAND_ICONS.contains(&n.as_str()) {
            SHORTHAND
        } else {
            ICONS
        };
        return Answer::no(
            format!(
                "the {name} icon appears only in the game text of {}: an icon must be outside the game text to be valid",
                d.title
            ),
            &[ICONS, rule],
        );
    }
    Answer::no(format!("{} has no {name} icon", d.title), &[ICONS])
}

/// "With X in title / lore / game text": the words, not part of another word.
pub fn search(st: &State, c: CardIx, p: Place, what: &str) -> Answer {
    let d = st.def(c);
    let text = match p {
        Place::Title => &d.title,
        Place::Lore => &d.identity.lore,
        Place::GameText => &d.text.full,
    };
    if matches!(p, Place::Title)
        && let Some(a) = super::epic::death_star_in_title(text, what)
    {
        return a;
    }
    if occurs(&words(text), what) {
        return Answer::yes(
            format!(
                "\"{what}\" (or its plural or possessive) is in the {} of {}",
                p.name(),
                d.title
            ),
            &[WITH_X],
        );
    }
    let t = norm(what).replace(' ', "_");
    if icons_in(text).contains(&t) {
        let rule = if SHORTHAND_ICONS.contains(&t.as_str()) {
            SHORTHAND
        } else {
            ICONS
        };
        return Answer::no(
            format!(
                "the {} of {} has the {what} icon, a picture, not the word \"{what}\"",
                p.name(),
                d.title
            ),
            &[rule, WITH_X],
        );
    }
    let near = words(text)
        .into_iter()
        .find(|w| w.starts_with(&norm(what)) && !same_word(w, &norm(what)));
    let why = match near {
        Some(w) => format!(
            "\"{what}\" is not in the {} of {}: \"{w}\" has it only as part of another word",
            p.name(),
            d.title
        ),
        None => format!("\"{what}\" is not in the {} of {}", p.name(), d.title),
    };
    Answer::no(why, &[WITH_X])
}

// ------------------------------------------------------------------ matching pairs

/// Are the two cards a matching pair (AR Matching Pairs)?
pub fn matching(st: &State, a: CardIx, b: CardIx) -> Answer {
    let (da, db) = (st.def(a), st.def(b));
    use CardType as T;
    let interact = match (da.card_type, db.card_type) {
        (T::Character, T::Starship | T::Vehicle) => can_pilot(st, a, b),
        (T::Starship | T::Vehicle, T::Character) => can_pilot(st, b, a),
        (T::Weapon, T::Character) => can_use(st, a, b),
        (T::Character, T::Weapon) => can_use(st, b, a),
        _ => Err(Answer::no(
            format!(
                "a {} and a {} cannot form a matching pair (pilot/starship, pilot/vehicle, weapon/character only)",
                da.card_type.as_str(),
                db.card_type.as_str()
            ),
            &[MATCHING],
        )),
    };
    if let Err(no) = interact {
        return no;
    }
    // By game text.
    for (x, y) in [(a, b), (b, a)] {
        let dx = st.def(x);
        if dx
            .identity
            .matching
            .iter()
            .any(|f| st.matches(y, f, dx.side))
        {
            return Answer::yes(
                format!(
                    "{}'s game text makes it part of a matching pair with {}",
                    dx.title,
                    st.def(y).title
                ),
                &[MATCHING_BY_TEXT, MATCHING],
            );
        }
    }
    // By rule.
    if !da.unique || !db.unique {
        let nu = if da.unique { &db.title } else { &da.title };
        return Answer::no(
            format!("{nu} is not unique, and neither card's game text states the pair"),
            &[MATCHING_BY_RULE],
        );
    }
    for (x, y) in [(a, b), (b, a)] {
        if let Some(n) = refers(st, x, y) {
            return Answer::yes(
                format!(
                    "both are unique and {} refers to {} ({n})",
                    st.def(x).title,
                    st.def(y).title
                ),
                &[MATCHING_BY_RULE, PERSONA_LISTS],
            );
        }
    }
    let crossed = [a, b]
        .iter()
        .any(|&x| has_state(st.def(x), IdState::CrossedOver));
    let mut cites = vec![MATCHING_BY_RULE];
    if crossed {
        cites.push(CROSSING_OVER);
    }
    Answer::no(
        format!(
            "neither {} nor {} refers to the other in its title or game text{}",
            da.title,
            db.title,
            if crossed {
                " (a crossed-over character's persona name has changed)"
            } else {
                ""
            }
        ),
        &cites,
    )
}

/// Does `x` refer to `y` by card title or persona name, in title or game text?
fn refers(st: &State, x: CardIx, y: CardIx) -> Option<String> {
    let (dx, dy) = (st.def(x), st.def(y));
    let mut theirs = personas(dy);
    if !has_state(dy, IdState::CrossedOver) {
        theirs.push(dy.title.clone());
    }
    for n in &dx.identity.names {
        if theirs
            .iter()
            .any(|p| occurs(&words(n), &norm(p)) || occurs(&words(p), &norm(n)))
        {
            return Some(format!("its game text names {n}"));
        }
    }
    // Its title names the other's persona (e.g. "Luke's T-16 Skyhopper").
    for q in personas(dy) {
        if norm(&q) != norm(&dx.title) && occurs(&words(&dx.title), &norm(&q)) {
            return Some(format!("its title names {q}"));
        }
    }
    // Its title contains the other's persona (e.g. "Lando In Millennium Falcon").
    for p in personas(dx) {
        if norm(&p) != norm(&dx.title) && theirs.iter().any(|q| norm(q) == norm(&p)) {
            return Some(format!("its title names {p}"));
        }
    }
    None
}

fn can_pilot(st: &State, ch: CardIx, craft: CardIx) -> Result<(), Answer> {
    let (dc, dv) = (st.def(ch), st.def(craft));
    let sub = words(&subtype_line(dv));
    if has_state(dc, IdState::Undercover) {
        return Err(Answer::no(
            format!(
                "{} is an undercover spy: it cannot deploy or move aboard a starship, so cannot pilot {}",
                dc.title, dv.title
            ),
            &[MATCHING, UNDERCOVER],
        ));
    }
    if dv.card_type == CardType::Vehicle && occurs(&sub, "transport") {
        return Err(Answer::no(
            format!("{} is a transport vehicle: driven, not piloted", dv.title),
            &[MATCHING, TRANSPORT_VEHICLE],
        ));
    }
    if dv.is_creature_vehicle() {
        return Err(Answer::no(
            format!("{} is a creature vehicle: ridden, not piloted", dv.title),
            &[MATCHING, CREATURE_VEHICLE],
        ));
    }
    if !is_pilot(dc) {
        return Err(Answer::no(
            format!("{} is not a pilot, so cannot pilot {}", dc.title, dv.title),
            &[MATCHING, MATCHING_PILOT],
        ));
    }
    if dv.identity.no_pilots {
        return Err(Answer::no(
            format!(
                "{}'s game text lets no other pilot aboard: {} cannot pilot it",
                dv.title, dc.title
            ),
            &[MATCHING],
        ));
    }
    Ok(())
}

fn can_use(st: &State, w: CardIx, ch: CardIx) -> Result<(), Answer> {
    let (dw, dc) = (st.def(w), st.def(ch));
    if !occurs(&words(&subtype_line(dw)), "character") {
        return Err(Answer::no(
            format!(
                "{} is not a character weapon: only character weapons may be a matching weapon",
                dw.title
            ),
            &[MATCHING, CHARACTER_WEAPON],
        ));
    }
    if has_state(dc, IdState::Disarmed) {
        return Err(Answer::no(
            format!(
                "{} is disarmed: disarmed characters cannot use weapons",
                dc.title
            ),
            &[MATCHING],
        ));
    }
    let side: Side = dw.side;
    if dw
        .deploy_rules
        .on
        .as_ref()
        .is_some_and(|f| !f.persona.is_empty())
        && has_state(dc, IdState::CrossedOver)
    {
        return Err(Answer::no(
            format!(
                "{} has crossed over: no longer a persona {} deploys on, so it cannot use it",
                dc.title, dw.title
            ),
            &[MATCHING, CROSSING_OVER],
        ));
    }
    let deploys = match &dw.deploy_rules.on {
        Some(f) => st.matches(ch, f, side),
        None => dc.side == side,
    };
    if !deploys {
        return Err(Answer::no(
            format!(
                "{} cannot deploy on {}, so {} cannot use it",
                dw.title, dc.title, dc.title
            ),
            &[MATCHING, CHARACTER_WEAPON],
        ));
    }
    Ok(())
}

// ------------------------------------------------------------------ questions

impl super::engine::Engine {
    /// Answer the board's questions about cards, as they stand at the end of the run.
    pub(super) fn answer_questions(&mut self) {
        use crate::engine::{Actor, Event};
        let qs = std::mem::take(&mut self.questions);
        for q in &qs {
            let (Ok(path), Some(c)) = (q.path(), self.st.find(&q.card)) else {
                continue;
            };
            let a = if let Some(t) = &q.is {
                is(&self.st, c, t)
            } else if let Some(t) = &q.not {
                non(&self.st, c, t)
            } else if let Some(o) = &q.matching {
                match self.st.find(o) {
                    Some(b) => matching(&self.st, c, b),
                    None => continue,
                }
            } else if let Some(i) = &q.icon {
                icon(&self.st, c, i)
            } else if let Some(w) = &q.in_title {
                search(&self.st, c, Place::Title, w)
            } else if let Some(w) = &q.in_lore {
                search(&self.st, c, Place::Lore, w)
            } else if let Some(w) = &q.in_game_text {
                search(&self.st, c, Place::GameText, w)
            } else {
                continue;
            };
            let mut cites: Vec<&'static str> = Vec::new();
            for x in &a.cites {
                if !cites.contains(x) {
                    cites.push(x);
                }
            }
            if let Some(what) = a.not_modelled {
                let d = self.depth();
                self.trace.not_modelled(d, Actor::Rules, what, &cites);
                self.answers.push((path, serde_json::Value::Null));
                continue;
            }
            let verdict = if a.yes { "yes" } else { "no" };
            self.log(
                Actor::Rules,
                Event::Result,
                format!("{path}: {verdict} — {}", a.why),
                &cites,
            );
            self.answers.push((path, serde_json::Value::Bool(a.yes)));
        }
        self.questions = qs;
    }
}

/// Load checks: every question names existing cards and asks one thing; every
/// mention's words occur where it says.
pub fn check(b: &super::model::Board) -> Result<(), String> {
    for q in &b.questions {
        q.path()?;
        for k in [Some(&q.card), q.matching.as_ref()].into_iter().flatten() {
            if !b.cards.contains_key(k) {
                return Err(format!("question: `{k}` is not a card in `cards:`"));
            }
        }
    }
    for (key, d) in &b.cards {
        let d = &d.value;
        for m in &d.identity.mentions {
            let text = match m.place {
                Place::Title => &d.title,
                Place::Lore => &d.identity.lore,
                Place::GameText => &d.text.full,
            };
            if !occurs(&words(text), &m.words) {
                return Err(format!(
                    "card `{key}`: the mention \"{}\" is not in its {}",
                    m.words,
                    m.place.name()
                ));
            }
        }
    }
    Ok(())
}

/// Is `path` the answer to one of the board's questions?
pub fn observable(b: &super::model::Board, path: &str) -> Option<Result<(), String>> {
    let head = path.split('.').next().unwrap_or("");
    if ![
        "is",
        "not",
        "matching",
        "icon",
        "in_title",
        "in_lore",
        "in_game_text",
    ]
    .contains(&head)
    {
        return None;
    }
    if b.questions.iter().any(|q| q.path().as_deref() == Ok(path)) {
        Some(Ok(()))
    } else {
        Some(Err(format!(
            "`{path}` answers no question in `questions:` (e.g. {{card: x, is: trooper}} is observed as is.x.trooper)"
        )))
    }
}

// ------------------------------------------------------------------ persona lists

/// The AR's Starship Personas list (lower case).
const STARSHIP_PERSONAS: &[&str] = &[
    "black 2",
    "black 3",
    "executor",
    "falcon",
    "millennium falcon",
    "gold 1",
    "hound's tooth",
    "ig-2000",
    "mist hunter",
    "punishing one",
    "red 1",
    "red 2",
    "red 5",
    "rogue one",
    "slave i",
    "vader's custom tie",
];

/// A character weapon deploying "on <persona>" onto a starship or vehicle that
/// carries that persona only as its permanent pilot: a permanent pilot's persona
/// identical to a character's is a character persona, so the craft is not a
/// valid place for it (AR Persona Lists: Zuckuss' Snare Rifle).
pub fn character_persona_host(
    st: &State,
    c: CardIx,
    h: CardIx,
    f: &Filter,
) -> Result<(), super::engine::Rejection> {
    let (dw, dh) = (st.def(c), st.def(h));
    if dw.card_type != CardType::Weapon
        || !occurs(&words(&subtype_line(dw)), "character")
        || !matches!(dh.card_type, CardType::Starship | CardType::Vehicle)
        || f.persona.is_empty()
    {
        return Ok(());
    }
    let named: Vec<String> = f
        .persona
        .iter()
        .filter(|p| personas(dh).iter().any(|q| norm(q) == norm(p)))
        .cloned()
        .collect();
    let character = |p: &String| {
        !STARSHIP_PERSONAS.contains(&norm(p).as_str())
            && (dh.stats.permanent_pilot.is_some()
                || (0..st.cards.len()).any(|x| {
                    st.def(x).card_type == CardType::Character
                        && personas(st.def(x)).iter().any(|q| norm(q) == norm(p))
                }))
    };
    if let Some(p) = named.iter().find(|p| character(p)) {
        return Err(super::engine::Rejection {
            reason: format!(
                "{p} is a character persona (the permanent pilot of {} shares the name of a character): {} may not deploy on the {}",
                dh.title,
                dw.title,
                dh.card_type.as_str()
            ),
            rule: PERSONA_LISTS,
            not_modelled: None,
            also: vec![CHARACTER_WEAPON],
        });
    }
    Ok(())
}
