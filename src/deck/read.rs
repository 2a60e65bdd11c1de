//! Reading deck files into a [`DeckList`]: SWDestinyDB deck JSON and its text
//! export, GEMP deck files (XML), LackeyCCG deck files (`.dek` XML) and plain
//! lists ("2x Card Name", "Card Name x2", "4 x Card Name", "2\tCard Name").
//!
//! Reading never looks a card up: it keeps each line's name, count, dice, zone
//! and any reference the file gives (a SWDestinyDB card code, a set and
//! number), for [`super::resolve`].

use super::{DeckList, Line, Source, Zone};
use crate::error::{Error, Result};
use crate::game::Game;
use regex::Regex;
use serde_json::Value;
use std::path::Path;
use std::sync::LazyLock;

/// Largest deck file accepted, in bytes (a deck list is a few kilobytes).
pub const MAX_DECK_BYTES: u64 = 4 << 20;

/// Most lines a deck list may have, and most copies one line may ask for.
const MAX_LINES: usize = 2_000;
const MAX_COUNT: u32 = 999;

/// Read and parse a deck file. Anything that is not a deck list is an error
/// naming the file (and line, where there is one).
pub fn read(path: &Path) -> Result<DeckList> {
    let bytes =
        crate::paths::read_regular_file(path, MAX_DECK_BYTES, "is a folder; give one deck file")?;
    let text = String::from_utf8(bytes).map_err(|e| Error::not_utf8(path, &e))?;
    parse(&text, &path.display().to_string())
}

/// Parse deck text, detecting its format from its content.
pub fn parse(text: &str, shown: &str) -> Result<DeckList> {
    let text = text.trim_start_matches('\u{feff}');
    let head = text.trim_start();
    let list = if head.starts_with('{') {
        destiny_json(text, shown)?
    } else if head.starts_with('<') {
        xml(text, shown)?
    } else if is_destiny_export(text) {
        destiny_text(text, shown)?
    } else {
        plain(text, shown)?
    };
    if list.lines.is_empty() {
        return Err(Error::Input(format!("{shown}: no cards in this deck list")));
    }
    if list.lines.len() > MAX_LINES {
        return Err(Error::Input(format!(
            "{shown}: {} card lines; the limit is {MAX_LINES}",
            list.lines.len()
        )));
    }
    Ok(list)
}

fn count_of(n: u64, shown: &str, line: usize) -> Result<u32> {
    u32::try_from(n)
        .ok()
        .filter(|&c| (1..=MAX_COUNT).contains(&c))
        .ok_or_else(|| {
            Error::Input(format!(
                "{shown}:{line}: count {n} is out of range (1 to {MAX_COUNT})"
            ))
        })
}

/// SWDestinyDB deck JSON: `{"name", "format_code", "slots": {"01001": {"quantity": 1, "dice": 2}}}`.
fn destiny_json(text: &str, shown: &str) -> Result<DeckList> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| crate::cards::import::malformed_json(shown, &e))?;
    let Some(slots) = v.get("slots").and_then(Value::as_object) else {
        return Err(Error::Input(format!(
            "{shown}:1:1: JSON is not a SWDestinyDB deck (an object with \"slots\")"
        )));
    };
    let mut list = DeckList::new(Source::DestinyJson);
    list.game = Some(Game::Destiny);
    list.name = v.get("name").and_then(Value::as_str).map(str::to_string);
    list.format = v
        .get("format_code")
        .and_then(Value::as_str)
        .map(str::to_string);
    for (code, slot) in slots {
        let num = |k: &str| slot.get(k).and_then(Value::as_u64);
        let Some(q) = num("quantity").or_else(|| slot.as_u64()) else {
            return Err(Error::Input(format!(
                "{shown}: slot {code:?} has no \"quantity\" number"
            )));
        };
        let mut l = Line::new(code.clone(), count_of(q, shown, 1)?, 0);
        l.reference = Some(format!("destiny:{code}"));
        l.dice = num("dice").map(|d| d.min(u64::from(MAX_COUNT)) as u32);
        list.lines.push(l);
    }
    Ok(list)
}

/// A header line of the SWDestinyDB text export, or its underline.
fn export_section(line: &str) -> Option<Option<Zone>> {
    let t = line.trim();
    if !t.is_empty() && t.chars().all(|c| c == '¯') {
        return Some(None);
    }
    match t {
        "BATTLEFIELD" | "BATTLEFIELDS" | "CHARACTER" | "CHARACTERS" | "PLOT" | "PLOTS" => {
            Some(Some(Zone::Team))
        }
        "UPGRADE" | "UPGRADES" | "SUPPORT" | "SUPPORTS" | "EVENT" | "EVENTS" | "DOWNGRADE"
        | "DOWNGRADES" => Some(Some(Zone::Deck)),
        _ => None,
    }
}

/// "2x Luke Skywalker, Jedi Knight (Awakenings #28)".
static EXPORT_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:(\d+)x\s+)?(.+?)\s+\(([^()#]+?)\s+#\s*([0-9A-Za-z]+)\)$").unwrap()
});

fn is_destiny_export(text: &str) -> bool {
    text.lines()
        .any(|l| export_section(l).is_some_and(|z| z.is_some()))
        && text.lines().any(|l| EXPORT_LINE.is_match(l.trim()))
}

/// The SWDestinyDB text export: the deck's name, affiliation, colours and sets,
/// then a section per card type, each line "Nx Name, Subtitle (Set #position)".
/// A character's N is its dice; a battlefield has no N.
fn destiny_text(text: &str, shown: &str) -> Result<DeckList> {
    let mut list = DeckList::new(Source::DestinyText);
    list.game = Some(Game::Destiny);
    let mut in_cards = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if list.name.is_none() && !in_cards {
            list.name = Some(line.to_string());
            continue;
        }
        if export_section(line).is_some() {
            in_cards = true;
            continue;
        }
        let Some(c) = EXPORT_LINE.captures(line) else {
            if in_cards {
                return Err(Error::Input(format!(
                    "{shown}:{}: not a card line of the SWDestinyDB text export: {line:?}",
                    i + 1
                )));
            }
            continue;
        };
        let n = match c.get(1) {
            Some(m) => m.as_str().parse::<u64>().unwrap_or(u64::MAX),
            None => 1,
        };
        let mut l = Line::new(c[2].to_string(), count_of(n, shown, i + 1)?, i + 1);
        l.count_is_dice = true;
        l.set = Some(c[3].trim().to_string());
        l.number = Some(c[4].to_string());
        list.lines.push(l);
    }
    Ok(list)
}

/// An XML attribute's value, entities decoded.
fn attr(tag: &str, name: &str) -> Option<String> {
    static ATTR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')"#).unwrap()
    });
    let c = ATTR.captures_iter(tag).find(|c| &c[1] == name)?;
    c.get(2).or_else(|| c.get(3)).map(|m| unescape(m.as_str()))
}

/// XML character entities (`&amp;`, `&#8226;`...) decoded.
fn unescape(s: &str) -> String {
    static ENT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);").unwrap());
    ENT.replace_all(s, |c: &regex::Captures| {
        let e = &c[1];
        let ch = match e {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ if e.starts_with("#x") => u32::from_str_radix(&e[2..], 16)
                .ok()
                .and_then(char::from_u32),
            _ => e[1..].parse::<u32>().ok().and_then(char::from_u32),
        };
        ch.map_or_else(|| c[0].to_string(), |ch| ch.to_string())
    })
    .into_owned()
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at].bytes().filter(|&b| b == b'\n').count() + 1
}

/// A GEMP deck (`<deck><card blueprintId=".." title=".."/>…<cardOutsideDeck …/></deck>`)
/// or a LackeyCCG deck (`<deck version=".."><superzone name="Deck"><card><name id="..">Name</name>…`).
fn xml(text: &str, shown: &str) -> Result<DeckList> {
    if !text.contains("<deck") {
        return Err(Error::Input(format!(
            "{shown}:1: XML is neither a GEMP nor a LackeyCCG deck (no <deck> element)"
        )));
    }
    if text.contains("<superzone") {
        lackey(text, shown)
    } else {
        gemp(text, shown)
    }
}

fn gemp(text: &str, shown: &str) -> Result<DeckList> {
    static TAG: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"<(card|cardOutsideDeck)\b([^>]*)>").unwrap());
    let mut list = DeckList::new(Source::Gemp);
    list.game = Some(Game::Swccg);
    for c in TAG.captures_iter(text) {
        let at = line_of(text, c.get(0).map_or(0, |m| m.start()));
        let attrs = &c[2];
        let blueprint = attr(attrs, "blueprintId");
        let title = attr(attrs, "title").filter(|t| !t.trim().is_empty());
        let (name, from_title) = match (&title, &blueprint) {
            (Some(t), _) => (t.clone(), true),
            (None, Some(b)) => (b.clone(), false),
            (None, None) => {
                return Err(Error::Input(format!(
                    "{shown}:{at}: GEMP card element without blueprintId or title"
                )));
            }
        };
        let mut l = Line::new(name, 1, at);
        l.blueprint = blueprint.filter(|_| !from_title);
        if &c[1] == "cardOutsideDeck" {
            l.zone = Some(Zone::OutsideDeck);
        }
        list.push_merged(l);
    }
    Ok(list)
}

fn lackey(text: &str, shown: &str) -> Result<DeckList> {
    static ZONE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?s)<superzone\s+name\s*=\s*"([^"]*)"\s*>(.*?)</superzone>"#).unwrap()
    });
    static CARD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?s)<card>\s*<name\b[^>]*>(.*?)</name>(?:\s*<set>(.*?)</set>)?").unwrap()
    });
    static GAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<game>(.*?)</game>").unwrap());
    let mut list = DeckList::new(Source::Lackey);
    list.game = GAME.captures(text).and_then(|c| {
        let g = c[1].trim().to_ascii_lowercase();
        if g.contains("ccg") {
            Some(Game::Swccg)
        } else if g.contains("tcg") || g == "starwars" {
            Some(Game::Swtcg)
        } else {
            Game::parse(&g)
        }
    });
    for z in ZONE.captures_iter(text) {
        let zone_start = z.get(2).map_or(0, |m| m.start());
        let zone = match z[1].trim().to_ascii_lowercase().as_str() {
            "deck" | "main" | "main deck" => Zone::Deck,
            _ => Zone::Sideboard,
        };
        for c in CARD.captures_iter(&z[2]) {
            let at = line_of(text, zone_start + c.get(0).map_or(0, |m| m.start()));
            let name = unescape(c[1].trim());
            if name.is_empty() {
                return Err(Error::Input(format!(
                    "{shown}:{at}: card with an empty name"
                )));
            }
            let mut l = Line::new(name, 1, at);
            l.zone = Some(zone);
            list.push_merged(l);
        }
    }
    if list.lines.is_empty() && !text.contains("<card>") {
        return Err(Error::Input(format!(
            "{shown}:1: LackeyCCG deck without <card> entries"
        )));
    }
    Ok(list)
}

/// A section header of a plain list: "Characters (12)", "Defensive Shields:",
/// "**Space**", "Sideboard". `None` when the line is not one.
fn plain_section(line: &str) -> Option<Option<Zone>> {
    static COUNTED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(.*?)\s*(?:\(\s*\d+\s*\)|\[\s*\d+\s*\]|:\s*\d+)?\s*:?$").unwrap()
    });
    let t = line.trim().trim_matches('*').trim_matches('#').trim();
    let colon = t.ends_with(':');
    let words = COUNTED
        .captures(t)
        .map_or(t.to_string(), |c| c[1].trim().to_ascii_lowercase());
    let zone = match words.as_str() {
        "sideboard" | "side deck" | "side board" => Some(Zone::Sideboard),
        "outside deck" | "outside of deck" | "cards outside deck" | "outside the deck"
        | "defensive shields" => Some(Zone::OutsideDeck),
        "team" | "characters" | "character" | "plot" | "plots" | "battlefield" | "battlefields" => {
            Some(Zone::Team)
        }
        "deck" | "main" | "main deck" | "reserve deck" => Some(Zone::Deck),
        w if SECTION_WORDS.is_match(w) => None,
        _ if colon => None,
        _ => return None,
    };
    Some(zone)
}

/// Card-type headings of SWCCG, Destiny and SWTCG lists, most singular or plural.
static SECTION_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:(?:location|effect|interrupt|starship|vehicle|weapon|device|objective|creature",
        r"|admiral's order|epic event|jedi test|podracer|upgrade|support|event|downgrade",
        r"|mission|resource|unit)s?",
        r"|starting(?: cards)?|battle(?: cards)?|space|ground|multi[- ]arena|equipment",
        r"|(?:used|lost) interrupts|(?:dark|light) side)$",
    ))
    .unwrap()
});

/// "2x Name", "2 x Name", "2 Name", "2\tName", "- 4 x Name".
static COUNT_FIRST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d+)\s*[xX×]?\s+(\S.*)$").unwrap());
/// "Name x2", "Name (x2)", "Name ×2".
static COUNT_LAST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(.*\S)\s+\(?[xX×]\s*(\d+)\)?$").unwrap());
/// "(elite)" or "(e)" after a Destiny character's name: two dice.
static ELITE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\s*\((?:elite|e)\)\s*$").unwrap());

/// A plain list: one card a line, with a count before or after the name, under
/// optional section headers. `#` and `//` start comments.
fn plain(text: &str, shown: &str) -> Result<DeckList> {
    let mut list = DeckList::new(Source::Plain);
    let mut zone: Option<Zone> = None;
    for (i, raw) in text.lines().enumerate() {
        let mut line = raw.trim();
        if line.is_empty()
            || line.starts_with("//")
            || line.starts_with('#') && !line.starts_with("##")
        {
            continue;
        }
        if let Some(z) = plain_section(line) {
            zone = z;
            continue;
        }
        line = line.trim_start_matches(['-', '*', '•']).trim_start();
        if line.starts_with('-') || line.starts_with('*') {
            continue;
        }
        let (count, name) = if let Some(c) = COUNT_FIRST.captures(line) {
            (
                c[1].parse::<u64>().unwrap_or(u64::MAX),
                c[2].trim().to_string(),
            )
        } else if let Some(c) = COUNT_LAST.captures(line) {
            (
                c[2].parse::<u64>().unwrap_or(u64::MAX),
                c[1].trim().to_string(),
            )
        } else {
            (1, line.to_string())
        };
        let mut l = Line::new(String::new(), count_of(count, shown, i + 1)?, i + 1);
        l.name = match ELITE.find(&name) {
            Some(m) => {
                l.elite = true;
                name[..m.start()].trim().to_string()
            }
            None => name,
        };
        if l.name.is_empty() {
            return Err(Error::Input(format!(
                "{shown}:{}: a count with no card name",
                i + 1
            )));
        }
        l.count_is_dice = true;
        l.zone = zone;
        list.lines.push(l);
    }
    Ok(list)
}
