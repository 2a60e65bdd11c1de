//! Meaning checks on a loaded SWCCG board and script, and the expectation
//! paths a board can observe. Every error points at a position where one is
//! known.

use super::battle_scenario::{self, Case, PlanSpec};
use super::engine::find_ability;
use super::model::{AbilityKind, Board, PileName, Placed, Step, Verb};
use super::state::parse_pile_name;
use crate::engine::{BoardError, Scripted};
use serde_saphyr::Spanned;
use std::collections::BTreeSet;

/// Every pile of a side, as observed (`piles.light.used_pile`).
pub const PILES: [PileName; 6] = [
    PileName::ReserveDeck,
    PileName::ForcePile,
    PileName::UsedPile,
    PileName::LostPile,
    PileName::Hand,
    PileName::OutOfPlay,
];

/// What `force.<side>.<key>` can name.
pub const FORCE_KEYS: [&str; 8] = [
    "used",
    "lost",
    "activated",
    "retrieved",
    "drawn",
    "force_pile",
    "reserve_deck",
    "hand",
];

/// The whole-run paths a board position observes.
const RUN_KEYS: [&str; 6] = [
    "resolved",
    "canceled",
    "stack",
    "next",
    "destinies",
    "regular_moves",
];

fn nowhere(m: impl Into<String>) -> BoardError {
    BoardError::nowhere(m)
}

fn spanned(n: &Spanned<String>, m: impl Into<String>) -> BoardError {
    BoardError::new(n.referenced.line(), n.referenced.column(), m)
}

/// A board position, or exactly one rules case; and a script that names only what exists.
pub fn check(b: &Board, script: &[Scripted<Step>]) -> Result<(), BoardError> {
    let (case, n) = battle_scenario::case_of(b);
    if n > 1 {
        return Err(nowhere(
            "a file holds exactly one thing to run: give one of battle, drains, values, draws, attack",
        ));
    }
    let mut names: BTreeSet<String> = BTreeSet::new();
    let mut locations: BTreeSet<String> = BTreeSet::new();
    if let Some(c) = &case {
        check_case(b, c)?;
        if let Some(s) = script.first() {
            return Err(BoardError::at(
                s.at,
                "a rules case (battle, drains, values, draws, attack) carries its own choices; \
                 `script:` belongs to a board position",
            ));
        }
        return Ok(());
    }
    if b.turn.is_none() || b.phase.is_none() {
        return Err(nowhere(
            "a board position needs `turn:` and `phase:` (or give one rules case: battle, drains, values, draws, attack)",
        ));
    }
    names.extend(b.cards.keys().cloned());
    check_board(b, &mut locations)?;
    for s in script {
        check_step(b, s, &names, &locations)?;
    }
    Ok(())
}

fn check_case(b: &Board, c: &Case) -> Result<(), BoardError> {
    let board_given = b.turn.is_some()
        || b.phase.is_some()
        || b.next.is_some()
        || b.through.is_some()
        || !b.cards.is_empty()
        || !b.locations.is_empty()
        || !b.table.is_empty()
        || !b.stack.is_empty();
    if board_given {
        return Err(nowhere(
            "a file holds exactly one thing to run: a board position or a rules case, not both",
        ));
    }
    // `normal: N` expands to N draws: bound it, or a typo exhausts memory.
    if let Case::Draws(ds) = c
        && ds
            .iter()
            .flat_map(|d| &d.plans)
            .any(|p| matches!(p, PlanSpec::Normal(n) if *n > 1000))
    {
        return Err(nowhere("draws: `normal:` asks for more than 1000 draws"));
    }
    if let Case::Attack(a) = c
        && a.ferocity_destinies > 64
    {
        return Err(nowhere("attack: `ferocity_destinies` is more than 64"));
    }
    Ok(())
}

fn check_step(
    b: &Board,
    s: &Scripted<Step>,
    names: &BTreeSet<String>,
    locations: &BTreeSet<String>,
) -> Result<(), BoardError> {
    let st = &s.step;
    let err = |m: String| BoardError::at(s.at, m);
    let verb = st.light.or(st.dark).unwrap_or(Verb::Pass);
    if matches!(verb, Verb::LoseForce | Verb::DestinyValue) && st.amount.is_none() {
        return Err(err(format!("`{}` needs `amount:`", verb.as_str())));
    }
    if matches!(
        verb,
        Verb::Deploy | Verb::Play | Verb::Use | Verb::Forfeit | Verb::Move
    ) && st.card.is_none()
    {
        return Err(err(format!("`{}` needs `card:`", verb.as_str())));
    }
    if verb == Verb::Move && st.to.is_none() {
        return Err(err(
            "`move` needs `to:` (a location, or a card to move aboard)".into(),
        ));
    }
    if st.how.is_some() && verb != Verb::Move {
        return Err(err("`how:` belongs to a `move` step".into()));
    }
    if !st.with.is_empty() && verb != Verb::Deploy {
        return Err(err("`with:` belongs to a `deploy` step".into()));
    }
    let known =
        |n: &str| names.contains(n) || locations.contains(n) || parse_pile_name(n).is_some();
    for n in st
        .card
        .iter()
        .chain(st.via.iter())
        .chain(st.cards.iter())
        .chain(st.with.iter())
    {
        if !names.contains(n) {
            return Err(err(format!("unknown card `{n}` (not in `cards:`)")));
        }
    }
    for n in st.target.iter().chain(st.to.iter()) {
        if !known(n) {
            return Err(err(format!(
                "unknown target `{n}` (not a card, location or pile like light.used_pile)"
            )));
        }
    }
    if let (Some(a), Some(card)) = (&st.ability, &st.card)
        && let Some(def) = b.cards.get(card)
        && find_ability(&def.value.abilities, a).is_none()
    {
        return Err(err(format!("card `{card}` has no ability `{a}`")));
    }
    Ok(())
}

fn check_board(b: &Board, locations: &mut BTreeSet<String>) -> Result<(), BoardError> {
    if let (Some(t), Some(phase)) = (&b.through, b.phase)
        && t.value.index() < phase.index()
    {
        return Err(BoardError::new(
            t.referenced.line(),
            t.referenced.column(),
            format!(
                "through: the {} phase comes before the starting {} phase",
                t.value.as_str(),
                phase.as_str()
            ),
        ));
    }
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut place = |n: &Spanned<String>| -> Result<(), BoardError> {
        if !b.cards.contains_key(&n.value) {
            return Err(spanned(
                n,
                format!("unknown card `{}` (not in `cards:`)", n.value),
            ));
        }
        if !seen.insert(n.value.clone()) {
            return Err(spanned(
                n,
                format!(
                    "card `{}` is placed twice (each key is one physical card)",
                    n.value
                ),
            ));
        }
        Ok(())
    };
    for piles in [&b.light, &b.dark] {
        for list in [
            &piles.reserve_deck,
            &piles.force_pile,
            &piles.used_pile,
            &piles.lost_pile,
            &piles.hand,
            &piles.out_of_play,
        ] {
            for n in list {
                place(n)?;
            }
        }
    }
    fn walk(
        p: &Placed,
        f: &mut dyn FnMut(&Spanned<String>) -> Result<(), BoardError>,
    ) -> Result<(), BoardError> {
        f(&p.card)?;
        for x in &p.on {
            walk(x, f)?;
        }
        Ok(())
    }
    for l in &b.locations {
        if !locations.insert(l.name.clone()) || b.cards.contains_key(&l.name) {
            return Err(nowhere(format!("location name `{}` is used twice", l.name)));
        }
        for p in &l.cards {
            walk(p, &mut place)?;
        }
    }
    for p in &b.table {
        walk(p, &mut place)?;
    }
    check_geo(b, locations)?;
    for p in &b.stack {
        if let Some(a) = &p.at
            && !locations.contains(a)
        {
            return Err(nowhere(format!(
                "stack: `{}` is at unknown location `{a}`",
                p.label
            )));
        }
    }
    for (k, d) in &b.cards {
        for (i, ab) in d.value.abilities.iter().enumerate() {
            if matches!(
                ab.kind,
                AbilityKind::Response | AbilityKind::Automatic | AbilityKind::Before
            ) && ab.responds_to.is_none()
            {
                return Err(BoardError::new(
                    d.referenced.line(),
                    d.referenced.column(),
                    format!(
                        "card `{k}` ability {}: a {} needs `responds_to:`",
                        i + 1,
                        ab.kind.as_str()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Movement and deployment references on locations name what exists.
fn check_geo(b: &Board, locations: &BTreeSet<String>) -> Result<(), BoardError> {
    for l in &b.locations {
        let bad = |what: &str, n: &str| {
            Err(nowhere(format!(
                "location `{}`: {what} `{n}` is not on this board",
                l.name
            )))
        };
        if let Some(s) = &l.starship
            && !b.cards.contains_key(s)
        {
            return bad("starship", s);
        }
        if let Some(o) = &l.orbiting
            && !locations.contains(o)
        {
            return bad("orbiting", o);
        }
        for m in &l.movement {
            for n in &m.between {
                if !locations.contains(n) && !b.cards.contains_key(n) {
                    return bad("movement between", n);
                }
            }
        }
    }
    Ok(())
}

/// Can a run of this board observe `path`?
pub fn observable(b: &Board, path: &str) -> Result<(), String> {
    let (head, rest) = path.split_once('.').unwrap_or((path, ""));
    if let (Some(case), _) = battle_scenario::case_of(b) {
        return match head {
            "numbers" => {
                let r = battle_scenario::run(&case);
                if r.numbers.contains_key(rest) {
                    Ok(())
                } else {
                    Err(format!(
                        "this case has no number `{rest}` (it has: {})",
                        r.numbers.keys().cloned().collect::<Vec<_>>().join(", ")
                    ))
                }
            }
            "cards" if battle_scenario::card_names(&case).iter().any(|n| n == rest) => Ok(()),
            "cards" => Err(format!("`{rest}` is not a card of this case")),
            _ => Err("a rules case observes `numbers.*` and `cards.*`".into()),
        };
    }
    match head {
        "cards" if b.cards.contains_key(rest) => Ok(()),
        "cards" => Err(format!("`{rest}` is not a card in `cards:`")),
        "piles" if parse_pile_name(rest).is_some() => Ok(()),
        "piles" => Err(format!("`{rest}` is not a pile like light.used_pile")),
        "force" => {
            let (side, key) = rest.split_once('.').unwrap_or((rest, ""));
            if side != "light" && side != "dark" {
                return Err(format!("`{side}` is not light or dark"));
            }
            if !FORCE_KEYS.contains(&key) {
                return Err(format!("`{key}` is not one of {}", FORCE_KEYS.join(", ")));
            }
            Ok(())
        }
        _ if rest.is_empty() && RUN_KEYS.contains(&head) => Ok(()),
        _ => Err(format!(
            "a board position observes cards.<card>, piles.<side>.<pile>, force.<side>.<key>, {}",
            RUN_KEYS.join(", ")
        )),
    }
}
