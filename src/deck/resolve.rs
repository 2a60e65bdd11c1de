//! Finding each line's card: by the reference a file gives, by set and position
//! (SWDestinyDB text export), else by the exact names of `swjudge card` (the
//! same bytes, the same letters, the same title without its version, a
//! nickname). A name no card has, or several cards have, is a problem listing
//! the candidates; it is never guessed. Two things are not guesses and are
//! taken: printings of one card (same title, subtitle, type and side) are one
//! card; and where a title belongs to both sides of the Force, the deck's own
//! side (that of its other cards) picks the card.

use super::{DeckList, Line, Problem, Slot, Zone, card_ref, type_of};
use crate::cards::names::{self, Names};
use crate::cards::{Card, CardDb};
use crate::game::Game;

/// How a line's name came out.
enum Found {
    One(Vec<usize>),
    Several(Vec<usize>),
    None,
}

/// The game whose cards the most lines name exactly; `None` on a tie or no match.
pub fn guess_game(list: &DeckList, db: &CardDb, names: &Names) -> Option<Game> {
    let score = Game::ALL.map(|g| {
        let found = |l: &&Line| !matches!(find(names, db, l, g), Found::None);
        list.lines.iter().filter(found).count()
    });
    let best = *score.iter().max()?;
    let winners: Vec<usize> = (0..3).filter(|&i| score[i] == best).collect();
    (best > 0 && winners.len() == 1).then(|| Game::ALL[winners[0]])
}

fn same_card(a: &Card, b: &Card) -> bool {
    names::letters(&a.title) == names::letters(&b.title)
        && a.subtitle.as_deref().map(names::letters) == b.subtitle.as_deref().map(names::letters)
        && a.card_type == b.card_type
        && a.side == b.side
}

fn find(names: &Names, db: &CardDb, l: &Line, game: Game) -> Found {
    let keep = |i: usize| db.cards[i].game == game;
    if let Some(r) = &l.reference {
        return match names.by_ref(r).filter(|&i| keep(i)) {
            Some(i) => Found::One(vec![i]),
            None => Found::None,
        };
    }
    if let (Some(set), Some(num)) = (&l.set, &l.number) {
        let mut at = names.at_set_number(set, num).to_vec();
        at.retain(|&i| keep(i));
        // the set and position find the card the name names, not another one
        let title = l.name.split(", ").next().unwrap_or(&l.name);
        if let [i] = at[..]
            && names::letters(&db.cards[i].title) == names::letters(title)
        {
            return Found::One(at);
        }
    }
    if let Some(i) = names.by_ref(&l.name).filter(|&i| keep(i)) {
        return Found::One(vec![i]);
    }
    let Some((tier, mut v)) = names.exact(&l.name, keep) else {
        return front_title(db, l, game);
    };
    db.prefer_whole_label(&mut v, &l.name, tier);
    one_card(db, v)
}

/// Cards that are printings of one card are that card: a printing legal today
/// first (a legacy version only when the card has no other), then the newest
/// (highest ID). Cards that differ are several.
fn one_card(db: &CardDb, mut v: Vec<usize>) -> Found {
    if v.is_empty() {
        return Found::None;
    }
    if !v.iter().all(|&i| same_card(&db.cards[i], &db.cards[v[0]])) {
        return Found::Several(v);
    }
    v.sort_by_key(|&i| {
        let c = &db.cards[i];
        (c.legacy, std::cmp::Reverse((c.id.len(), c.id.clone())))
    });
    Found::One(v)
}

/// A two-sided card named by its front title alone ("Hidden Base" for
/// "Hidden Base / Systems Will Slip Through Your Fingers"), as players list Objectives.
fn front_title(db: &CardDb, l: &Line, game: Game) -> Found {
    let v: Vec<usize> = db
        .names()
        .front(&l.name)
        .iter()
        .copied()
        .filter(|&i| db.cards[i].game == game)
        .collect();
    one_card(db, v)
}

/// Several cards a line's name fits, narrowed by what the file and the deck
/// say: a card listed outside the deck is a Defensive Shield; the deck's side.
fn narrow(db: &CardDb, l: &Line, v: Vec<usize>, side: Option<&str>) -> Found {
    let mut keep = v.clone();
    if l.zone == Some(Zone::OutsideDeck) {
        keep.retain(|&i| type_of(&db.cards[i]) == "defensive shield");
    }
    if let Some(side) = side {
        keep.retain(|&i| db.cards[i].side.as_deref() == Some(side));
    }
    match one_card(db, keep) {
        Found::One(keep) => Found::One(keep),
        _ => Found::Several(v),
    }
}

/// Each line's card, and a problem for each line whose card cannot be told.
pub fn resolve(
    list: &DeckList,
    db: &CardDb,
    names: &Names,
    game: Game,
) -> (Vec<Slot>, Vec<Problem>) {
    let found: Vec<Found> = list
        .lines
        .iter()
        .map(|l| find(names, db, l, game))
        .collect();
    let side = deck_side(db, &found);
    let mut slots = Vec::new();
    let mut problems = Vec::new();
    for (l, f) in list.lines.iter().zip(found) {
        let f = match f {
            Found::Several(v) => narrow(db, l, v, side),
            f => f,
        };
        match f {
            Found::One(v) => slots.push(slot(db, l, v, game)),
            Found::Several(v) => problems.push(ambiguous(db, l, &v)),
            Found::None => problems.push(unresolved(db, names, l, game)),
        }
    }
    (slots, problems)
}

/// The side most of the deck's plainly found cards are on (SWCCG, SWTCG).
fn deck_side(db: &CardDb, found: &[Found]) -> Option<&'static str> {
    let on = |side: &str| {
        let of_side = |v: &Vec<usize>| db.cards[v[0]].side.as_deref() == Some(side);
        found
            .iter()
            .filter(|f| matches!(f, Found::One(v) if of_side(v)))
            .count()
    };
    match on("Light").cmp(&on("Dark")) {
        std::cmp::Ordering::Greater => Some("Light"),
        std::cmp::Ordering::Less => Some("Dark"),
        std::cmp::Ordering::Equal => None,
    }
}

fn slot(db: &CardDb, l: &Line, printings: Vec<usize>, game: Game) -> Slot {
    let card = &db.cards[printings[0]];
    let t = type_of(card);
    let team = matches!(t.as_str(), "character" | "plot" | "battlefield");
    let zone = match l.zone {
        Some(Zone::Sideboard) => Zone::Sideboard,
        Some(Zone::OutsideDeck) if game == Game::Swccg => Zone::OutsideDeck,
        _ if game == Game::Destiny && team => Zone::Team,
        _ if game == Game::Swccg && t == "defensive shield" => Zone::OutsideDeck,
        _ => Zone::Deck,
    };
    let (mut count, mut dice) = (l.count, 0);
    if game == Game::Destiny && t == "character" {
        let unique = card.uniqueness.is_some();
        dice = match l.dice {
            Some(d) => d,
            None if unique && l.count_is_dice => l.count,
            None if l.elite => 2 * l.count,
            None => l.count,
        };
        if unique && l.count_is_dice && l.dice.is_none() {
            count = 1;
        }
        if l.elite && unique {
            dice = dice.max(2);
        }
    }
    Slot {
        card: printings[0],
        printings,
        count,
        zone,
        dice,
        line: l.line,
    }
}

fn problem(check: &'static str, message: String, l: &Line) -> Problem {
    let mut p = Problem::new(check, "swjudge card lookup", message, Vec::new());
    p.line = (l.line > 0).then_some(l.line);
    p
}

fn ambiguous(db: &CardDb, l: &Line, v: &[usize]) -> Problem {
    let mut p = problem(
        "name.ambiguous",
        format!(
            "{:?} names {} different cards; write the one meant (its name or reference)",
            l.name,
            v.len()
        ),
        l,
    );
    p.choices = v.iter().map(|&i| card_ref(db, i)).collect();
    p
}

fn unresolved(db: &CardDb, names: &Names, l: &Line, game: Game) -> Problem {
    if let Some(b) = &l.blueprint {
        return problem(
            "name.unresolved",
            format!(
                "GEMP blueprint {b} has no title in the file, and the card data has no GEMP IDs; export the deck with titles"
            ),
            l,
        );
    }
    let other = Game::ALL
        .into_iter()
        .filter(|&g| g != game)
        .find(|&g| !matches!(find(names, db, l, g), Found::None));
    if let Some(g) = other {
        let mut p = problem(
            "name.wrong-game",
            format!(
                "{:?} is a {} card, not a {} one",
                l.name,
                g.title(),
                game.title()
            ),
            l,
        );
        let lk = db.lookup(&l.name, Some(g));
        p.cards = lk
            .matches
            .iter()
            .take(1)
            .map(|m| card_ref(db, m.index))
            .collect();
        return p;
    }
    let lk = db.lookup(&l.name, Some(game));
    let mut p = problem(
        "name.unresolved",
        if lk.matches.is_empty() {
            format!("no {} card is named {:?}", game.title(), l.name)
        } else {
            format!(
                "no {} card is named exactly {:?}; did you mean one of these?",
                game.title(),
                l.name
            )
        },
        l,
    );
    p.choices = lk.matches.iter().map(|m| card_ref(db, m.index)).collect();
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SourceFile;

    fn card(game: Game, id: &str, title: &str, side: &str, t: &str) -> Card {
        let mut c = Card::new(game, id, title, format!("t.json#{id}"));
        c.side = Some(side.into());
        c.card_type = Some(t.into());
        c
    }

    fn db(cards: Vec<Card>) -> CardDb {
        CardDb::build(
            vec![SourceFile {
                format: "t".into(),
                file: "t.json".into(),
                cards,
            }],
            None,
        )
    }

    fn line(name: &str) -> Line {
        Line::new(name.into(), 1, 1)
    }

    #[test]
    fn a_set_and_position_that_name_another_card_give_way_to_the_name() {
        let mut leia = card(Game::Destiny, "01028", "Leia Organa", "Hero", "Character");
        leia.set = Some("Awakenings".into());
        leia.number = Some("28".into());
        let mut padawan = card(Game::Destiny, "01036", "Padawan", "Hero", "Upgrade");
        padawan.set = Some("Awakenings".into());
        padawan.number = Some("36".into());
        let db = db(vec![leia, padawan]);
        let names = db.names();
        let mut l = line("Padawan");
        (l.set, l.number) = (Some("Awakenings".into()), Some("28".into()));
        assert!(matches!(find(names, &db, &l, Game::Destiny), Found::One(v) if v == [1]));
        l.name = "Leia Organa, Born Leader".into();
        assert!(matches!(find(names, &db, &l, Game::Destiny), Found::One(v) if v == [0]));
    }

    #[test]
    fn a_title_with_a_legacy_printing_is_the_card_legal_today() {
        let old = |id: &str| {
            let mut c = card(Game::Swccg, id, "Old Ben", "Light", "Character");
            c.legacy = true;
            c
        };
        let db = db(vec![
            card(Game::Swccg, "15", "Old Ben", "Light", "Character"),
            old("5015"),
        ]);
        let found = |db: &CardDb| find(db.names(), db, &line("Old Ben"), Game::Swccg);
        assert!(
            matches!(found(&db), Found::One(v) if v == [0, 1]),
            "the printing legal today, though the legacy one is newer"
        );
        let db = self::db(vec![old("15"), old("5015")]);
        assert!(matches!(found(&db), Found::One(v) if v == [1, 0]));
    }

    #[test]
    fn front_titles_shield_sections_and_the_decks_side_pick_one_card() {
        let db = db(vec![
            card(
                Game::Swccg,
                "1",
                "Hidden Base / Systems Will Slip",
                "Light",
                "Objective",
            ),
            card(Game::Swccg, "2", "Do, Or Do Not", "Light", "Effect"),
            card(
                Game::Swccg,
                "3",
                "Do, Or Do Not",
                "Light",
                "Defensive Shield",
            ),
            card(Game::Swccg, "4", "Tatooine", "Light", "Location"),
            card(Game::Swccg, "5", "Tatooine", "Dark", "Location"),
        ]);
        let names = db.names();
        let found = |l: &Line| find(names, &db, l, Game::Swccg);
        assert!(matches!(found(&line("Hidden Base")), Found::One(v) if v == [0]));
        let mut shield = line("Do, Or Do Not");
        assert!(
            matches!(found(&shield), Found::Several(_)),
            "two types: no guess"
        );
        shield.zone = Some(Zone::OutsideDeck);
        let Found::Several(v) = found(&shield) else {
            panic!("several before narrowing")
        };
        assert!(matches!(narrow(&db, &shield, v, None), Found::One(v) if v == [2]));
        let Found::Several(v) = found(&line("Tatooine")) else {
            panic!("both sides")
        };
        assert!(matches!(
            narrow(&db, &line("Tatooine"), v.clone(), None),
            Found::Several(_)
        ));
        assert!(
            matches!(narrow(&db, &line("Tatooine"), v, Some("Dark")), Found::One(v) if v == [4])
        );
    }
}
