//! Meaning checks on a Destiny board and script, and the observable paths.

use super::model::{Board, CardType, Placed, SEATS, Step};
use crate::cards::die::DieFace;
use crate::engine::{BoardError, Scripted};
use serde_saphyr::Spanned;

fn at<T>(s: &Spanned<T>, msg: impl Into<String>) -> BoardError {
    BoardError::new(s.referenced.line(), s.referenced.column(), msg)
}

/// Every die ID the board has: `key` per card with a die, `key#2` for an elite character.
fn die_ids(board: &Board) -> Vec<String> {
    let mut out = Vec::new();
    for (k, d) in &board.cards {
        if d.value.die.is_some() {
            out.push(k.clone());
            let elite = [&board.player1, &board.player2]
                .iter()
                .any(|s| s.characters.iter().any(|x| x.elite && &x.card.value == k));
            if elite {
                out.push(format!("{k}#2"));
            }
        }
    }
    out
}

pub fn check(board: &Board, script: &[Scripted<Step>]) -> Result<(), BoardError> {
    let mut placed: Vec<String> = Vec::new();
    let seen = |s: &Spanned<String>, placed: &mut Vec<String>| -> Result<(), BoardError> {
        if !board.cards.contains_key(&s.value) {
            return Err(at(
                s,
                format!("unknown card `{}` (not under `cards:`)", s.value),
            ));
        }
        if placed.contains(&s.value) {
            return Err(at(s, format!("card `{}` is placed twice", s.value)));
        }
        placed.push(s.value.clone());
        Ok(())
    };
    for (k, d) in &board.cards {
        if let Some(faces) = &d.value.die {
            if faces.len() != 6 {
                return Err(at(
                    d,
                    format!("{k}: a die has 6 sides, {} given", faces.len()),
                ));
            }
            for f in faces {
                DieFace::parse(f).map_err(|e| at(d, format!("{k}: die side `{f}`: {e}")))?;
            }
        }
        if d.value.card_type == CardType::Character && d.value.health.is_none() {
            return Err(at(d, format!("{k}: a character needs `health:`")));
        }
    }
    fn walk(
        x: &Placed,
        board: &Board,
        f: &mut dyn FnMut(&Spanned<String>) -> Result<(), BoardError>,
    ) -> Result<(), BoardError> {
        f(&x.card)?;
        if x.shields > 3 {
            return Err(at(&x.card, "a character cannot have more than 3 shields"));
        }
        if let Some(d) = board.cards.get(&x.card.value)
            && d.value.health.is_some_and(|h| x.damage >= h)
        {
            return Err(at(
                &x.card,
                "damage equal to health: the character would be defeated",
            ));
        }
        if x.upgrades.len() > 3 {
            return Err(at(&x.card, "a card cannot have more than 3 upgrades"));
        }
        for u in &x.upgrades {
            walk(u, board, f)?;
        }
        Ok(())
    }
    for side in [&board.player1, &board.player2] {
        for x in side.characters.iter().chain(&side.supports) {
            walk(x, board, &mut |s| seen(s, &mut placed))?;
        }
        let lists = [&side.hand, &side.deck, &side.discard, &side.set_aside];
        for s in lists.into_iter().flatten().chain(side.plot.iter()) {
            seen(s, &mut placed)?;
        }
        for (host, s) in &side.stacked {
            if !side.set_aside.iter().any(|x| &x.value == host) {
                return Err(at(
                    s,
                    format!("`{host}` (stacked on) is not in this player's set-aside zone"),
                ));
            }
            seen(s, &mut placed)?;
        }
    }
    if let Some(bf) = &board.battlefield {
        seen(&bf.card, &mut placed)?;
    }
    let ids = die_ids(board);
    for side in [&board.player1, &board.player2] {
        for (id, face) in &side.pool {
            let Some(key) = ids
                .iter()
                .find(|x| *x == id)
                .map(|x| x.trim_end_matches("#2"))
            else {
                return Err(at(
                    face,
                    format!("unknown die `{id}` in the pool (known: {})", ids.join(", ")),
                ));
            };
            let faces = board.cards[key].value.die.clone().unwrap_or_default();
            if !faces.contains(&face.value) {
                return Err(at(
                    face,
                    format!(
                        "die `{id}` has no side `{}` ({})",
                        face.value,
                        faces.join(" ")
                    ),
                ));
            }
        }
    }
    for d in script {
        check_step(board, &ids, d)?;
    }
    Ok(())
}

fn check_step(board: &Board, ids: &[String], d: &Scripted<Step>) -> Result<(), BoardError> {
    let s = &d.step;
    let card = |n: &String| -> Result<(), BoardError> {
        if board.cards.contains_key(n) {
            Ok(())
        } else {
            Err(BoardError::at(d.at, format!("unknown card `{n}`")))
        }
    };
    let die = |n: &str| -> Result<(), BoardError> {
        if ids.iter().any(|x| x == n) {
            Ok(())
        } else {
            Err(BoardError::at(
                d.at,
                format!("unknown die `{n}` (known: {})", ids.join(", ")),
            ))
        }
    };
    for n in s
        .card
        .iter()
        .chain(&s.on)
        .chain(&s.replace)
        .chain(&s.play)
        .chain(&s.upgrade)
        .chain(&s.uses)
        .chain(&s.stack)
    {
        card(n)?;
    }
    for n in s
        .with
        .iter()
        .chain(&s.discard)
        .chain(&s.to)
        .chain(&s.random)
    {
        card(n)?;
    }
    for n in s.assign.keys() {
        card(n)?;
    }
    for g in &s.dice {
        for n in g.split('+') {
            die(n.trim())?;
        }
    }
    for n in s.roll.keys().chain(s.turn.keys()).chain(&s.remove) {
        die(n)?;
    }
    for n in &s.order {
        if !SEATS.contains(&n.as_str()) {
            card(n)?;
        }
    }
    Ok(())
}

const CARD_FIELDS: [&str; 8] = [
    "zone",
    "on",
    "type",
    "damage",
    "shields",
    "exhausted",
    "controller",
    "upgrades",
];
const PLAYER_FIELDS: [&str; 6] = [
    "resources",
    "hand_size",
    "hand",
    "deck",
    "discard",
    "set_aside",
];
const TOP: [&str; 7] = [
    "winner", "round", "phase", "next", "resolved", "turns", "delayed",
];

pub fn observable(board: &Board, path: &str) -> Result<(), String> {
    let parts: Vec<&str> = path.split('.').collect();
    let ok = match parts.as_slice() {
        [one] => TOP.contains(one),
        ["cards", k, f] => board.cards.contains_key(*k) && CARD_FIELDS.contains(f),
        ["dice", id] => die_ids(board).iter().any(|x| x == id),
        ["pool", p] => SEATS.contains(p),
        ["players", p, f] => SEATS.contains(p) && PLAYER_FIELDS.contains(f),
        ["battlefield", f] => ["card", "controller", "claimed_by"].contains(f),
        ["team", p, f] => {
            board.check_team && SEATS.contains(p) && ["points", "legal", "problems"].contains(f)
        }
        _ => false,
    };
    if ok {
        return Ok(());
    }
    Err(format!(
        "observable: {} ; cards.<card>.{{{}}} ; dice.<die> ; pool.<player> ; players.<player>.{{{}}} ; battlefield.{{card,controller,claimed_by}} ; team.<player>.{{points,legal,problems}} (with check_team: true)",
        TOP.join(", "),
        CARD_FIELDS.join(","),
        PLAYER_FIELDS.join(",")
    ))
}
