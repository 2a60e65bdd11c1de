//! Star Wars: Destiny team and deck building (Rules Reference v1.8, Part 4), and
//! a format's sets, banned and restricted cards and balance-of-the-Force points
//! (SWDestinyDB `formats.json`).

use super::{CardRef, CardRule, Deck, Problem, Slot, Summary, Zone, group_by, type_of};
use crate::cards::formats::DeckFormat;
use crate::cards::{Card, names};
use regex::Regex;
use std::sync::LazyLock;

/// Building a team: points, affiliations, unique characters, at least one.
pub const TEAM: &str = "destiny.rr.1-building-a-team";
/// Point values: one die for the smaller value, two (elite) for the larger.
pub const POINT_VALUES: &str = "destiny.rr.point-value-s";
/// At most one plot, of an affiliation and colour the team has.
pub const PLOTS: &str = "destiny.rr.plots";
/// Building a deck: 30 cards, 2 copies, affiliation and colour.
pub const DECK: &str = "destiny.rr.2-building-a-deck";
/// One battlefield.
pub const BATTLEFIELD: &str = "destiny.rr.3-selecting-a-battlefield";

const POINT_LIMIT: i64 = 30;
const DECK_CARDS: u32 = 30;
const MAX_COPIES: u32 = 2;

/// "You may include up to 4 copies of this support in your deck."
static COPIES_TEXT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)include up to (\d+) copies of this\b").unwrap());
/// Text that changes deck building, which the checker leaves to the judge.
static BUILDING_TEXT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:include|including|while building your team|deckbuilding|bring \d+ battlefields|on your team)\b").unwrap()
});

fn color(c: &Card) -> &str {
    c.stats.get("color").unwrap_or("gray")
}

fn affiliation(c: &Card) -> String {
    c.side.as_deref().unwrap_or("Neutral").to_ascii_lowercase()
}

/// A card's point values, the format's balance of the Force first.
fn points(c: &Card, format: Option<&DeckFormat>) -> Vec<i64> {
    let raw = format
        .and_then(|f| f.balance_of(&c.id))
        .or_else(|| c.stats.get("points"))
        .unwrap_or("");
    raw.split('/')
        .filter_map(|p| p.trim().parse::<i64>().ok())
        .collect()
}

/// The team's points for one character slot, or why its dice do not fit.
fn slot_points(c: &Card, s: &Slot, format: Option<&DeckFormat>) -> Result<i64, String> {
    let values = points(c, format);
    let Some(&first) = values.first() else {
        return Ok(0);
    };
    if c.uniqueness.is_some() {
        return match usize::try_from(s.dice)
            .ok()
            .filter(|&d| d >= 1 && d <= values.len())
        {
            Some(d) => Ok(values[d - 1]),
            None => Err(format!(
                "has {} dice; with point values {} it takes 1 to {} dice",
                s.dice,
                c.stats.get("points").unwrap_or(""),
                values.len()
            )),
        };
    }
    // a non-unique character: each copy brings one die, or two as an elite
    let per_copy = s
        .dice
        .checked_div(s.count)
        .filter(|_| s.dice.is_multiple_of(s.count.max(1)));
    match per_copy.and_then(|d| usize::try_from(d).ok()) {
        Some(d) if d >= 1 && d <= values.len() => Ok(values[d - 1] * i64::from(s.count)),
        _ if s.dice == 0 => Ok(first * i64::from(s.count)),
        _ => Err(format!(
            "has {} dice for {} copies; each copy brings 1 die (or 2 as an elite)",
            s.dice, s.count
        )),
    }
}

/// The team's points (characters and plot).
fn team_points(deck: &Deck, format: Option<&DeckFormat>) -> i64 {
    deck.zone(Zone::Team)
        .map(|s| {
            let c = deck.card(s);
            match type_of(c).as_str() {
                "character" => slot_points(c, s, format).unwrap_or(0),
                "plot" => points(c, format).first().copied().unwrap_or(0) * i64::from(s.count),
                _ => 0,
            }
        })
        .sum()
}

pub fn check(
    deck: &Deck,
    format: Option<&DeckFormat>,
    problems: &mut Vec<Problem>,
    summary: &mut Summary,
) {
    team(deck, format, problems, summary);
    plots_and_battlefield(deck, problems);
    build_deck(deck, problems);
    if let Some(f) = format {
        problems.extend(format_problems(deck, f));
    }
}

/// The team's cards of one type (`character`, `plot`, `battlefield`).
fn team_of<'d>(deck: &'d Deck, card_type: &str) -> Vec<&'d Slot> {
    deck.zone(Zone::Team)
        .filter(|s| type_of(deck.card(s)) == card_type)
        .collect()
}

fn team(
    deck: &Deck,
    format: Option<&DeckFormat>,
    problems: &mut Vec<Problem>,
    summary: &mut Summary,
) {
    let chars = team_of(deck, "character");
    if chars.is_empty() {
        problems.push(Problem::new(
            "destiny.no-character",
            TEAM,
            "the team has no character; a player must choose at least one".into(),
            Vec::new(),
        ));
    }
    for s in &chars {
        if let Err(why) = slot_points(deck.card(s), s, format) {
            problems.push(Problem::new(
                "destiny.dice",
                POINT_VALUES,
                format!("{} {why}", deck.db.labels[s.card]),
                vec![deck.cref(s.card)],
            ));
        }
    }
    let total = team_points(deck, format);
    summary.points = Some(total);
    summary.point_limit = Some(POINT_LIMIT);
    summary.dice = Some(chars.iter().map(|s| s.dice).sum());
    if total > POINT_LIMIT {
        problems.push(Problem::new(
            "destiny.points",
            TEAM,
            format!(
                "the team costs {total} points; a team has up to {POINT_LIMIT} (a plot's points count, a negative plot raises the limit)"
            ),
            deck.zone(Zone::Team)
                .filter(|s| matches!(type_of(deck.card(s)).as_str(), "character" | "plot"))
                .map(|s| deck.cref(s.card))
                .collect(),
        ));
    }
    let of = |a: &str| -> Vec<CardRef> {
        chars
            .iter()
            .filter(|s| affiliation(deck.card(s)) == a)
            .map(|s| deck.cref(s.card))
            .collect()
    };
    let (heroes, villains) = (of("hero"), of("villain"));
    summary.side = Some(
        match (heroes.is_empty(), villains.is_empty()) {
            (false, true) => "Hero",
            (true, false) => "Villain",
            (true, true) => "Neutral",
            _ => "Hero and Villain",
        }
        .into(),
    );
    if !heroes.is_empty() && !villains.is_empty() {
        problems.push(Problem::new(
            "destiny.hero-and-villain",
            TEAM,
            "hero and villain characters cannot be on the same team".into(),
            heroes.into_iter().chain(villains).collect(),
        ));
    }
    unique_characters(deck, &chars, problems);
}

/// One copy of each unique character; the same title with another subtitle is
/// the same character.
fn unique_characters(deck: &Deck, chars: &[&Slot], problems: &mut Vec<Problem>) {
    let unique = chars
        .iter()
        .copied()
        .filter(|s| deck.card(s).uniqueness.is_some());
    for g in group_by(unique, |s| names::letters(&deck.card(s).title)) {
        if g.count > 1 {
            problems.push(Problem::new(
                "destiny.unique-character",
                TEAM,
                format!(
                    "{} copies of the unique character {}; a team has one copy of each unique character (whatever its subtitle)",
                    g.count, deck.db.cards[g.cards[0]].title
                ),
                deck.crefs(&g.cards),
            ));
        }
    }
}

fn plots_and_battlefield(deck: &Deck, problems: &mut Vec<Problem>) {
    let plots = team_of(deck, "plot");
    let n: u32 = plots.iter().map(|s| s.count).sum();
    if n > 1 {
        problems.push(Problem::new(
            "destiny.plot-count",
            PLOTS,
            format!("{n} plots; a team may include one plot, no more"),
            plots.iter().map(|s| deck.cref(s.card)).collect(),
        ));
    }
    let chars = team_of(deck, "character");
    for s in &plots {
        let p = deck.card(s);
        let a = affiliation(p);
        if (a == "hero" || a == "villain") && !chars.iter().any(|c| affiliation(deck.card(c)) == a)
        {
            problems.push(Problem::new(
                "destiny.plot-affiliation",
                PLOTS,
                format!(
                    "the {a} plot {} needs a {a} character on the team",
                    deck.db.labels[s.card]
                ),
                vec![deck.cref(s.card)],
            ));
        }
        let col = color(p);
        if col != "gray" && !chars.iter().any(|c| color(deck.card(c)) == col) {
            problems.push(Problem::new(
                "destiny.plot-color",
                PLOTS,
                format!(
                    "the {col} plot {} needs a {col} character on the team",
                    deck.db.labels[s.card]
                ),
                vec![deck.cref(s.card)],
            ));
        }
    }
    let fields = team_of(deck, "battlefield");
    let n: u32 = fields.iter().map(|s| s.count).sum();
    if n != 1 {
        problems.push(Problem::new(
            "destiny.battlefield",
            BATTLEFIELD,
            format!("{n} battlefields; a player selects one battlefield"),
            fields.iter().map(|s| deck.cref(s.card)).collect(),
        ));
    }
}

/// How many copies of a card a deck may hold: 2, or what its text allows.
fn copy_limit(c: &Card) -> u32 {
    c.text
        .as_deref()
        .and_then(|t| COPIES_TEXT.captures(t))
        .and_then(|m| m[1].parse().ok())
        .unwrap_or(MAX_COPIES)
}

fn build_deck(deck: &Deck, problems: &mut Vec<Problem>) {
    let cards: Vec<&Slot> = deck.zone(Zone::Deck).collect();
    let size: u32 = cards.iter().map(|s| s.count).sum();
    if size != DECK_CARDS {
        problems.push(Problem::new(
            "destiny.deck-size",
            DECK,
            format!("the deck has {size} cards; a deck includes exactly {DECK_CARDS} (characters, plots and battlefields not counted)"),
            Vec::new(),
        ));
    }
    for g in group_by(cards.iter().copied(), |s| {
        names::letters(&deck.card(s).title)
    }) {
        let lim = g
            .cards
            .iter()
            .map(|&i| copy_limit(&deck.db.cards[i]))
            .min()
            .unwrap_or(MAX_COPIES);
        if g.count > lim {
            problems.push(Problem::new(
                "destiny.copies",
                DECK,
                format!(
                    "{} copies of {}; a deck cannot include more than {lim} copies of the same card",
                    g.count, deck.db.cards[g.cards[0]].title
                ),
                deck.crefs(&g.cards),
            ));
        }
    }
    let chars = team_of(deck, "character");
    let has = |f: &dyn Fn(&Card) -> bool| chars.iter().any(|s| f(deck.card(s)));
    let hero = has(&|c| affiliation(c) == "hero");
    let villain = has(&|c| affiliation(c) == "villain");
    for s in &cards {
        let c = deck.card(s);
        let a = affiliation(c);
        let barred = match a.as_str() {
            "villain" => hero || !villain,
            "hero" => villain || !hero,
            _ => false,
        };
        if barred && !(hero && villain) {
            problems.push(Problem::new(
                "destiny.affiliation",
                DECK,
                format!(
                    "{} is a {a} card; a {} team's deck cannot include {a} cards",
                    deck.db.labels[s.card],
                    if hero {
                        "hero"
                    } else if villain {
                        "villain"
                    } else {
                        "neutral"
                    }
                ),
                vec![deck.cref(s.card)],
            ));
        }
        let col = color(c);
        if col != "gray" && !has(&|ch| color(ch) == col) {
            problems.push(Problem::new(
                "destiny.color",
                DECK,
                format!(
                    "{} is {col}; {col} cards need a {col} character on the team",
                    deck.db.labels[s.card]
                ),
                vec![deck.cref(s.card)],
            ));
        }
    }
}

/// The format's problems with this deck: cards outside its sets, banned cards,
/// more than one restricted card, restricted pairs.
pub fn format_problems(deck: &Deck, f: &DeckFormat) -> Vec<Problem> {
    let mut out = Vec::new();
    let entry = |what: &str| format!("{} {} {what}", f.file, f.code);
    let slots: Vec<&Slot> = deck.in_play().collect();
    let codes = |s: &Slot| -> Vec<&str> {
        s.printings
            .iter()
            .map(|&i| deck.db.cards[i].id.as_str())
            .collect()
    };
    for s in &slots {
        let in_sets = s.printings.iter().any(|&i| {
            deck.db.cards[i]
                .set
                .as_deref()
                .is_some_and(|set| f.has_set(set))
        });
        if !in_sets {
            out.push(Problem::new(
                "format.sets",
                &entry("sets"),
                format!(
                    "{} is from {}, which is not in {}",
                    deck.db.labels[s.card],
                    deck.card(s).set.as_deref().unwrap_or("no known set"),
                    f.name
                ),
                vec![deck.cref(s.card)],
            ));
        }
        if codes(s).iter().any(|c| f.banned.iter().any(|b| b == c)) {
            out.push(Problem::new(
                "format.banned",
                &entry("banned"),
                format!("{} is banned in {}", deck.db.labels[s.card], f.name),
                vec![deck.cref(s.card)],
            ));
        }
    }
    let restricted: Vec<&&Slot> = slots
        .iter()
        .filter(|s| codes(s).iter().any(|c| f.restricted.iter().any(|r| r == c)))
        .collect();
    if restricted.len() > 1 {
        out.push(Problem::new(
            "format.restricted",
            &entry("restricted"),
            format!(
                "{} cards of {}'s restricted list; a team and deck may include only one",
                restricted.len(),
                f.name
            ),
            restricted.iter().map(|s| deck.cref(s.card)).collect(),
        ));
    }
    for (a, partners) in &f.restricted_pairs {
        let has = |code: &str| slots.iter().find(|s| codes(s).contains(&code));
        if let Some(sa) = has(a) {
            for b in partners.iter().filter(|b| a < *b) {
                if let Some(sb) = has(b) {
                    out.push(Problem::new(
                        "format.restricted-pair",
                        &entry("restrictedPairs"),
                        format!(
                            "{} and {} may not be used together in {}",
                            deck.db.labels[sa.card], deck.db.labels[sb.card], f.name
                        ),
                        vec![deck.cref(sa.card), deck.cref(sb.card)],
                    ));
                }
            }
        }
    }
    out
}

/// Whether a deck legal by the Rules Reference is legal in a format too (its
/// points recounted with the format's balance of the Force).
pub fn legal_in(deck: &Deck, f: &DeckFormat) -> bool {
    format_problems(deck, f).is_empty()
        && team_points(deck, Some(f)) <= POINT_LIMIT
        && team_of(deck, "character")
            .iter()
            .all(|s| slot_points(deck.card(s), s, Some(f)).is_ok())
}

/// Cards whose own text changes deck building (beyond "include up to N
/// copies", which is applied): listed for the judge, not applied.
pub fn card_rules(deck: &Deck) -> Vec<CardRule> {
    static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"<[^>]*>").unwrap());
    let mut out: Vec<CardRule> = Vec::new();
    for s in deck.in_play() {
        let Some(text) = deck.card(s).text.as_deref() else {
            continue;
        };
        let plain = TAG.replace_all(text, "");
        let lines: Vec<&str> = plain
            .lines()
            .filter(|l| BUILDING_TEXT.is_match(l) && !COPIES_TEXT.is_match(l))
            .collect();
        if !lines.is_empty() && !out.iter().any(|r| r.card.reference == deck.db.refs[s.card]) {
            out.push(CardRule {
                card: deck.cref(s.card),
                text: lines.join(" "),
            });
        }
    }
    out
}
