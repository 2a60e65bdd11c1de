//! Meaning checks on a loaded SWTCG board and script, and the paths a board
//! can observe. Errors point at a position where one is known.

use super::model::{Board, Format, Kind, PlayerBoard, Step, UnitBoard};
use super::state::KEYWORDS;
use crate::engine::{BoardError, Scripted};
use serde_saphyr::Spanned;

fn unknown(k: &Spanned<String>) -> BoardError {
    BoardError::new(
        k.referenced.line(),
        k.referenced.column(),
        format!("unknown card `{}`", k.value),
    )
}

fn known(b: &Board, k: &Spanned<String>) -> Result<(), BoardError> {
    if b.cards.contains_key(&k.value) {
        Ok(())
    } else {
        Err(unknown(k))
    }
}

fn check_unit(b: &Board, u: &UnitBoard, seen: &mut Vec<String>) -> Result<(), BoardError> {
    let team = b.format == Format::TwoHeadedWookiee;
    match (&u.player, team) {
        (Some(p), true) if p.value != "a" && p.value != "b" => {
            return Err(BoardError::new(
                p.referenced.line(),
                p.referenced.column(),
                "a team player is `a` or `b`",
            ));
        }
        (None, true) => {
            return Err(BoardError::new(
                u.card.referenced.line(),
                u.card.referenced.column(),
                "in Two-Headed Wookiee every card in play names its player (`player: a` or `b`)",
            ));
        }
        (Some(p), false) => {
            return Err(BoardError::new(
                p.referenced.line(),
                p.referenced.column(),
                "`player:` is for the Two-Headed Wookiee format (`format: two_headed_wookiee`)",
            ));
        }
        _ => {}
    }
    let all = std::iter::once(&u.card)
        .chain(&u.under)
        .chain(u.pilots.iter().flatten())
        .chain(u.equipment.iter().flatten());
    for k in all {
        known(b, k)?;
        if seen.contains(&k.value) {
            return Err(BoardError::new(
                k.referenced.line(),
                k.referenced.column(),
                format!("card `{}` is placed twice", k.value),
            ));
        }
        seen.push(k.value.clone());
    }
    if u.under.len() > 3 {
        return Err(BoardError::new(
            u.card.referenced.line(),
            u.card.referenced.column(),
            "a unique stack holds at most 4 cards",
        ));
    }
    Ok(())
}

fn check_player(b: &Board, p: &PlayerBoard, seen: &mut Vec<String>) -> Result<(), BoardError> {
    let team = b.format == Format::TwoHeadedWookiee;
    let shared = p.force != 0
        || p.build != 0
        || !p.hand.is_empty()
        || !p.deck.is_empty()
        || !p.discard.is_empty()
        || p.resource.is_some();
    if team && shared {
        let why = "in Two-Headed Wookiee teammates don't share Force, build points, hands, decks, discard piles or Resources: give each player's under `a:` and `b:`";
        let first = p
            .hand
            .iter()
            .chain(&p.deck)
            .chain(&p.discard)
            .chain(&p.resource)
            .next();
        return Err(match first {
            Some(k) => BoardError::new(k.referenced.line(), k.referenced.column(), why),
            None => BoardError::nowhere(why),
        });
    }
    if !team && (p.a.is_some() || p.b.is_some()) {
        return Err(BoardError::nowhere(
            "`a:` and `b:` (each team player's own pools) are for the Two-Headed Wookiee format (`format: two_headed_wookiee`)",
        ));
    }
    let pools: Vec<_> = if team {
        vec![p.pools(0), p.pools(1)]
    } else {
        vec![p.pools(0)]
    };
    let piles: Vec<&Spanned<String>> = pools
        .iter()
        .flat_map(|x| {
            x.hand
                .iter()
                .chain(&x.deck)
                .chain(&x.discard)
                .chain(&x.resource)
        })
        .collect();
    for k in piles {
        known(b, k)?;
        if seen.contains(&k.value) {
            return Err(BoardError::new(
                k.referenced.line(),
                k.referenced.column(),
                format!("card `{}` is placed twice", k.value),
            ));
        }
        seen.push(k.value.clone());
    }
    for u in p
        .space
        .iter()
        .chain(&p.ground)
        .chain(&p.character)
        .chain(&p.build_zone)
        .chain(&p.locations)
    {
        check_unit(b, u, seen)?;
    }
    let units = p.space.iter().chain(&p.ground).chain(&p.character);
    if let Some(u) = units.chain(&p.build_zone).find(|u| u.arena.is_some()) {
        return Err(BoardError::new(
            u.card.referenced.line(),
            u.card.referenced.column(),
            "`arena:` names the arena of a Location with several arenas; a unit's arena is the list it is in",
        ));
    }
    for u in &p.locations {
        let d = &b.cards[&u.card.value].value;
        let at = |m: &str| BoardError::new(u.card.referenced.line(), u.card.referenced.column(), m);
        if d.kind != Kind::Location {
            return Err(at("`locations:` holds Location cards (`kind: location`)"));
        }
        match u.arena {
            Some(a) if !d.types.contains(&a) => {
                return Err(at(
                    "`arena:` is one of the arenas on the Location's type line",
                ));
            }
            None if d.types.len() != 1 => {
                return Err(at(
                    "a Location with several arenas on its type line names the one it is in (`arena:`)",
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Names exist, each card is placed once, steps name only known cards, dice are bounded.
/// Where a card on the board names neutral units ("each neutral unit"),
/// every unit card on the board must say its side symbol: the engine never
/// takes a card without one for neutral or not.
fn side_symbols_known(b: &Board) -> Result<(), BoardError> {
    let names_neutral = (b.cards.values()).any(|c| {
        (c.value.abilities.iter()).any(|a| a.grant.as_ref().is_some_and(|g| g.to.neutral))
    });
    if !names_neutral {
        return Ok(());
    }
    match (b.cards.iter()).find(|(_, c)| c.value.kind == Kind::Unit && c.value.side.is_none()) {
        Some((k, c)) => Err(BoardError::new(
            c.referenced.line(),
            c.referenced.column(),
            format!(
                "card `{k}` needs `side:` (light, dark or neutral): a card on the board names neutral units"
            ),
        )),
        None => Ok(()),
    }
}

pub fn check(b: &Board, script: &[Scripted<Step>]) -> Result<(), BoardError> {
    let mut seen = Vec::new();
    check_player(b, &b.dark, &mut seen)?;
    check_player(b, &b.light, &mut seen)?;
    let mut arenas = Vec::new();
    for u in b.dark.locations.iter().chain(&b.light.locations) {
        let Some(a) = u.location_arena(&b.cards[&u.card.value].value) else {
            continue;
        };
        if arenas.contains(&a) {
            return Err(BoardError::new(
                u.card.referenced.line(),
                u.card.referenced.column(),
                "only 1 Location can be in each arena",
            ));
        }
        arenas.push(a);
    }
    side_symbols_known(b)?;
    if let Some(sb) = &b.side_bid
        && sb.first != "player1"
        && sb.first != "player2"
    {
        return Err(BoardError::nowhere(
            "side_bid.first is `player1` or `player2`",
        ));
    }
    for s in script {
        let st = &s.step;
        for k in [&st.unit, &st.target, &st.card, &st.onto]
            .into_iter()
            .flatten()
            .chain(&st.cards)
        {
            known(b, k)?;
        }
        if let Some(p) = &st.player {
            let why = if b.format != Format::TwoHeadedWookiee {
                Some("`player:` on a step is for the Two-Headed Wookiee format")
            } else if p.value != "a" && p.value != "b" {
                Some("a team player is `a` or `b`")
            } else {
                None
            };
            if let Some(why) = why {
                return Err(BoardError::new(
                    p.referenced.line(),
                    p.referenced.column(),
                    why,
                ));
            }
        }
        if st.dice.len() > 100 || st.reroll.len() > 100 {
            return Err(BoardError::at(s.at, "more than 100 dice in one step"));
        }
    }
    Ok(())
}

const UNIT_KEYS: [&str; 15] = [
    "zone",
    "subtypes",
    "player",
    "top",
    "tapped",
    "damage",
    "counters",
    "speed",
    "power",
    "health",
    "build",
    "stack",
    "pilots",
    "equipment",
    "keywords",
];
const ATTACK_KEYS: [&str; 6] = [
    "attacker",
    "defender",
    "dice",
    "hits",
    "damage",
    "disrupted",
];

/// Whether an expectation path can be observed.
pub fn observable(b: &Board, path: &str) -> Result<(), String> {
    let parts: Vec<&str> = path.split('.').collect();
    let card = |k: &str| {
        if b.cards.contains_key(k) {
            Ok(())
        } else {
            Err(format!("no card `{k}` on the board"))
        }
    };
    let side = |s: &str| {
        if s == "dark" || s == "light" {
            Ok(())
        } else {
            Err(format!("`{s}` is not a side (dark, light)"))
        }
    };
    let team = b.format == Format::TwoHeadedWookiee;
    let pools = |s: &str, p: Option<&str>| match (team, p) {
        (false, None) => side(s),
        (true, Some("a" | "b")) => side(s),
        (true, _) => Err(format!(
            "in Two-Headed Wookiee each player has their own: `{s}.a` or `{s}.b`"
        )),
        (false, Some(_)) => Err("team players (`.a`, `.b`) are for Two-Headed Wookiee".into()),
    };
    match parts.as_slice() {
        ["cards", k] => card(k),
        ["units", k, "keywords", kw] => {
            card(k)?;
            if KEYWORDS.contains(kw) { Ok(()) } else { Err(format!("keywords are {}", KEYWORDS.join(", "))) }
        }
        ["units", k, key] => {
            card(k)?;
            if *key == "player" && !team {
                Err("`player` (a team player) is for Two-Headed Wookiee".into())
            } else if UNIT_KEYS.contains(key) && *key != "keywords" {
                Ok(())
            } else {
                Err(format!("a unit has {}", UNIT_KEYS.join(", ")))
            }
        }
        ["setup", s] => side(s),
        ["force" | "build" | "hand" | "deck" | "discard", s] => pools(s, None),
        ["force" | "build" | "hand" | "deck" | "discard", s, p] => pools(s, Some(p)),
        ["bounty", s, "force" | "build"] => pools(s, None),
        ["bounty", s, p, "force" | "build"] => pools(s, Some(p)),
        ["control", a] if ["space", "ground", "character"].contains(a) => Ok(()),
        ["winner" | "resolved" | "attack_order"] => Ok(()),
        ["attacks", n, key] if n.parse::<usize>().is_ok_and(|n| n >= 1) && ATTACK_KEYS.contains(key) => Ok(()),
        ["side_bid", "player1" | "player2", "side" | "build"] => Ok(()),
        _ => Err(
            "paths are cards.<id>, units.<id>.<zone|subtypes|player|top|tapped|damage|counters|speed|power|health|build|stack|pilots|equipment|keywords.<kw>>, \
             force|build|hand|deck|discard.<side>[.<a|b> in Two-Headed Wookiee], setup.<side>, bounty.<side>[.<a|b>].<force|build>, control.<arena>, winner, resolved, attack_order, \
             attacks.<n>.<attacker|defender|dice|hits|damage|disrupted>, side_bid.<player>.<side|build>"
                .into(),
        ),
    }
}
