//! Meaning checks on a loaded SWCCG board and script, and the expectation
//! paths a board can observe. Every error points at a position where one is
//! known.

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

fn spanned<T>(n: &Spanned<T>, m: impl Into<String>) -> BoardError {
    BoardError::new(n.referenced.line(), n.referenced.column(), m)
}

/// A board position, and a script that names only what exists.
pub fn check(b: &Board, script: &[Scripted<Step>]) -> Result<(), BoardError> {
    let mut names: BTreeSet<String> = BTreeSet::new();
    let mut locations: BTreeSet<String> = BTreeSet::new();
    if b.turn.is_none() || b.phase.is_none() {
        return Err(nowhere("a board position needs `turn:` and `phase:`"));
    }
    names.extend(b.cards.keys().cloned());
    check_board(b, &mut locations)?;
    for n in b
        .battled_this_turn
        .iter()
        .chain(&b.may_not_battle)
        .chain(&b.played_this_turn)
    {
        if !names.contains(&n.value) {
            return Err(spanned(
                n,
                format!("unknown card `{}` (not in `cards:`)", n.value),
            ));
        }
    }
    for n in &b.locate {
        if !names.contains(&n.value) && !locations.contains(&n.value) {
            return Err(spanned(
                n,
                format!(
                    "`locate`: `{}` is not a card or a location of this board",
                    n.value
                ),
            ));
        }
    }
    super::identify::check(b).map_err(nowhere)?;
    for s in script {
        check_step(b, s, &names, &locations)?;
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
    if (matches!(verb, Verb::DestinyValue | Verb::BattleDestinies)
        || (verb == Verb::LoseForce && st.from.is_empty()))
        && st.amount.is_none()
    {
        return Err(err(format!("`{}` needs `amount:`", verb.as_str())));
    }
    if matches!(verb, Verb::Battle | Verb::ForceDrain) {
        match &st.at {
            None => return Err(err(format!("`{}` needs `at:`", verb.as_str()))),
            // `battle` may name a captured starship (a besieged battle).
            Some(l) if !(locations.contains(l) || verb == Verb::Battle && names.contains(l)) => {
                return Err(err(format!("unknown location `{l}` (not in `locations:`)")));
            }
            _ => {}
        }
    } else if st.at.is_some() || st.label.is_some() {
        return Err(err(format!(
            "`at:` and `label:` belong to `battle` and `force_drain`, not `{}`",
            verb.as_str()
        )));
    }
    if !st.from.is_empty() && verb != Verb::LoseForce {
        return Err(err("`from:` belongs to `lose_force`".into()));
    }
    if verb == Verb::LoseForce && !st.cards.is_empty() {
        let hand = st.from.iter().filter(|&&p| p == PileName::Hand).count();
        if hand != st.cards.len() {
            return Err(err(format!(
                "`cards:` names the hand cards lost as Force, one for each `hand` in `from:` ({} named, {hand} from hand)",
                st.cards.len()
            )));
        }
    }
    if let Some(p) = st.from.iter().find(|p| {
        !matches!(
            p,
            PileName::Hand | PileName::ReserveDeck | PileName::ForcePile | PileName::UsedPile
        )
    }) {
        return Err(err(format!(
            "Force is lost from hand, reserve_deck, force_pile or used_pile, not {}",
            p.as_str()
        )));
    }
    if verb == Verb::Fire && st.target.len() != 1 {
        return Err(err("`fire` names one `target:`".into()));
    }
    if matches!(
        verb,
        Verb::Deploy
            | Verb::Play
            | Verb::Use
            | Verb::Forfeit
            | Verb::Fire
            | Verb::Move
            | Verb::React
            | Verb::Seize
            | Verb::Imprison
            | Verb::Escape
            | Verb::Rally
            | Verb::Maintain
            | Verb::Recycle
            | Verb::Sacrifice
            | Verb::Launch
            | Verb::BreakCover
    ) && st.card.is_none()
    {
        return Err(err(format!("`{}` needs `card:`", verb.as_str())));
    }
    if verb == Verb::Reveal && st.card.is_none() {
        return Err(err(
            "`reveal` needs `card:` (a location in your Reserve Deck)".into(),
        ));
    }
    if verb == Verb::Replace && (st.card.is_none() || st.to.is_none()) {
        return Err(err(
            "`replace` needs `card:` (the new version, from hand) and `to:` (the character replaced)".into(),
        ));
    }
    if verb == Verb::Seize && st.to.is_none() {
        return Err(err("`seize` needs `to:` (the escort)".into()));
    }
    if verb == Verb::Move && st.to.is_none() {
        return Err(err(
            "`move` needs `to:` (a location, or a card to move aboard)".into(),
        ));
    }
    if st.how.is_some() && !matches!(verb, Verb::Move | Verb::React) {
        return Err(err("`how:` belongs to a `move` step".into()));
    }
    if !st.with.is_empty() && !matches!(verb, Verb::Deploy | Verb::React | Verb::Battle) {
        return Err(err("`with:` belongs to a `deploy` or `battle` step".into()));
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
    for (k, d) in &b.cards {
        check_interrupt(k, d)?;
        check_modifiers(b, k, d)?;
        if d.value.stats.ferocity_destinies.is_some_and(|n| n > 64) {
            return Err(spanned(
                d,
                format!("card `{k}`: `ferocity_destinies` is more than 64"),
            ));
        }
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
            &piles.reserve_deck[..],
            &piles.force_pile[..],
            &piles.used_pile[..],
            &piles.lost_pile[..],
            &piles.hand[..],
            &piles.out_of_play[..],
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
    super::capacity::check_board(b)?;
    check_drain_texts(b)?;
    super::location_target::check(b)?;
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

/// The operations a Force drain modifier may have.
fn drain_op(op: super::battle::OpSpec) -> bool {
    use super::battle::OpSpec as O;
    matches!(
        op,
        O::Add(_) | O::Sub(_) | O::Mul(_) | O::Reset(_) | O::Limit(_)
    )
}

/// Force drain text: a location's names its side; `requires` names cards on this board.
fn check_drain_texts(b: &Board) -> Result<(), BoardError> {
    let known = |t: &crate::engine::swccg::model::DrainText, whose: &str| match t
        .requires
        .iter()
        .find(|k| !b.cards.contains_key(*k))
    {
        Some(k) => Err(nowhere(format!(
            "{whose}: drain text requires `{k}`, which is not in `cards:`"
        ))),
        None => match t.op {
            Some(op) if !drain_op(op) => Err(nowhere(format!(
                "{whose}: drain text `op:` is `{op}`; a drain modifier adds (`add`), subtracts (`sub`), multiplies (`mul`), resets (`reset`) or limits (`limit`)"
            ))),
            _ => Ok(()),
        },
    };
    for l in &b.locations {
        for t in &l.drain {
            if t.side.is_none() {
                return Err(nowhere(format!(
                    "location `{}`: its drain text names the side whose text it is (`side: light` or `side: dark`)",
                    l.name
                )));
            }
            known(t, &format!("location `{}`", l.name))?;
            here_conditions(&l.name, "drain", &t.when)?;
        }
        for n in &l.no_deploy {
            here_conditions(&l.name, "no_deploy", &n.when)?;
        }
    }
    for (k, d) in &b.cards {
        for t in &d.value.drain {
            known(t, &format!("card `{k}`"))?;
            if let Some(n) =
                t.at.iter()
                    .find(|n| !b.locations.iter().any(|l| l.name == **n))
            {
                return Err(nowhere(format!(
                    "card `{k}`: drain text at `{n}`, which is not a location on this board"
                )));
            }
        }
    }
    Ok(())
}

/// A location's text conditions look only at the location (`text_when::HERE_KEYS`).
fn here_conditions(
    name: &str,
    field: &str,
    when: &[crate::engine::swccg::text_when::Cond],
) -> Result<(), BoardError> {
    crate::engine::swccg::text_when::here_keys_only(when)
        .map_err(|e| nowhere(format!("location `{name}`: its {field} text's {e}")))
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
    if let Some(r) = super::identify::observable(b, path) {
        return r;
    }
    match head {
        "cards" if b.cards.contains_key(rest) => Ok(()),
        "cards" => Err(format!("`{rest}` is not a card in `cards:`")),
        "states" if b.cards.contains_key(rest) => Ok(()),
        "states" => Err(format!("`{rest}` is not a card in `cards:`")),
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
        "numbers" => board_number(rest),
        "values" => super::card_values::observable(b, rest),
        "totals" => super::destiny_total::observable(rest),
        "where" => locate_path(b, rest),
        "utinni" => match rest.split_once('.') {
            Some((k, "reached"))
                if b.cards
                    .get(k)
                    .is_some_and(|d| d.value.utinni_target.is_some()) =>
            {
                Ok(())
            }
            _ => Err(format!(
                "`utinni.{rest}`: utinni.<card>.reached names a card with `utinni_target:`"
            )),
        },
        "locations" => super::blown_away::observable(b, rest),
        "generation" | "battleground" | "owner" | "turn" | "phase" => {
            super::activation::observable(b, head, rest)
        }
        _ if rest.is_empty() && RUN_KEYS.contains(&head) => Ok(()),
        _ => Err(format!(
            "a board position observes cards.<card>, piles.<side>.<pile>, force.<side>.<key>, numbers.<battle or drain label>.<number>, {}",
            RUN_KEYS.join(", ")
        )),
    }
}

/// Interrupt subtypes (AR: Interrupt): where a played Interrupt goes after its result.
pub const INTERRUPT_SUBTYPES: &[&str] = &[
    "used",
    "lost",
    "used_or_lost",
    "starting",
    "lost_or_starting",
    "used_or_starting",
];

/// An Interrupt names a known subtype; one that is not simply Used or Lost names where
/// it goes (`then:`) on each ability.
fn check_interrupt(key: &str, d: &Spanned<super::model::CardDef>) -> Result<(), BoardError> {
    let def = &d.value;
    if def.card_type != super::model::CardType::Interrupt {
        return Ok(());
    }
    let sub = def.subtype.as_deref().map(|s| s.to_ascii_lowercase());
    match sub.as_deref() {
        None => Err(spanned(
            d,
            format!(
                "Interrupt `{key}` needs `subtype:` ({})",
                INTERRUPT_SUBTYPES.join(", ")
            ),
        )),
        Some(s) if !INTERRUPT_SUBTYPES.contains(&s) => Err(spanned(
            d,
            format!(
                "Interrupt `{key}`: unknown subtype `{s}` (one of {})",
                INTERRUPT_SUBTYPES.join(", ")
            ),
        )),
        Some("used" | "lost") => Ok(()),
        Some(s) => match def.abilities.iter().find(|a| a.then.is_none()) {
            Some(_) => Err(spanned(
                d,
                format!(
                    "Interrupt `{key}` is {s}: each ability names where the card goes with `then:`"
                ),
            )),
            None => Ok(()),
        },
    }
}

/// A card's modifiers name cards of the board (or `this`).
fn check_modifiers(
    b: &Board,
    key: &str,
    d: &Spanned<super::model::CardDef>,
) -> Result<(), BoardError> {
    for m in &d.value.modifiers {
        let named = m.target.per_card().map(|(_, n)| n);
        for n in named.into_iter().chain(m.requires.iter()) {
            let relative = [super::text_when::PILOTED, super::text_when::HOST]
                .contains(&n.as_str())
                || (n == super::text_when::EACH && m.each.is_some());
            if n != "this" && !relative && !b.cards.contains_key(n) {
                return Err(spanned(
                    d,
                    format!(
                        "card `{key}`: its modifier names `{n}`, which is not in `cards:` (or `this`)"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The numbers of a battle or Force drain on the board, by its label:
/// `<label>.light.total_power` (and `battle_destinies`, `total_battle_destiny`,
/// `attrition`, `battle_damage`, `force_lost`, for `light` and `dark`), `<label>.winner`
/// (`light`, `dark` or null), and for a drain `<label>.icons`, `<label>.amount`,
/// `<label>.force_lost`.
fn board_number(rest: &str) -> Result<(), String> {
    use super::battle_board::{BATTLE_NUMBERS, DRAIN_NUMBERS};
    let parts: Vec<&str> = rest.split('.').collect();
    match parts.as_slice() {
        [_, "winner" | "ended_early" | "cost"] => Ok(()),
        [_, "attacker_total" | "defender_total" | "defeated"] => Ok(()),
        [_, "light" | "dark", k] if BATTLE_NUMBERS.contains(k) => Ok(()),
        [_, k] if DRAIN_NUMBERS.contains(k) => Ok(()),
        _ => Err(format!(
            "`numbers.{rest}`: a battle's numbers are numbers.<label>.<winner|ended_early|cost> and numbers.<label>.<light|dark>.<{}>; a Force drain's numbers.<label>.<{}>",
            BATTLE_NUMBERS.join("|"),
            DRAIN_NUMBERS.join("|")
        )),
    }
}

/// `where.<name>.<key>`: a card or location the board asks about in `locate:`.
fn locate_path(b: &Board, rest: &str) -> Result<(), String> {
    use super::prepositions::{CARD_KEYS, LOCATION_KEYS};
    let (name, key) = rest.split_once('.').unwrap_or((rest, ""));
    if !b.locate.iter().any(|n| n.value == name) {
        return Err(format!("`{name}` is not named in the board's `locate:`"));
    }
    let keys = if b.cards.contains_key(name) {
        CARD_KEYS
    } else {
        LOCATION_KEYS
    };
    if keys.contains(&key) {
        Ok(())
    } else {
        Err(format!("`{key}` is not one of {}", keys.join(", ")))
    }
}
