//! The Destiny game state: cards and where they are, dice and what they show,
//! resources, the battlefield, the round's bookkeeping. `State` is cloned to
//! reverse an illegal action and compared to tell an action that did nothing.

use super::model::{Board, CardDef, CardType, Keyword, SEATS};
use crate::cards::die::{Amount as FaceAmount, DieFace, Symbol};
use crate::engine::Seat;

pub type Ix = usize;
pub type DieIx = usize;

/// Where a card is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    Play,
    Hand,
    Deck,
    Discard,
    SetAside,
    /// Played and waiting in the queue.
    Queue,
    /// Not part of the game.
    Nowhere,
}

impl Zone {
    pub fn as_str(self) -> &'static str {
        match self {
            Zone::Play => "play",
            Zone::Hand => "hand",
            Zone::Deck => "deck",
            Zone::Discard => "discard",
            Zone::SetAside => "set_aside",
            Zone::Queue => "queue",
            Zone::Nowhere => "nowhere",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct CardSt {
    pub zone: Zone,
    pub owner: Seat,
    pub controller: Seat,
    pub ctype: CardType,
    /// The card an upgrade is attached to.
    pub on: Option<Ix>,
    pub damage: i64,
    pub shields: i64,
    pub exhausted: bool,
}

/// Where a die is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DieAt {
    OnCard,
    /// In its controller's pool, showing this side (0..6).
    Pool(usize),
    SetAside,
    /// Placed on another card in play ("remove an opponent's character die
    /// and place it here"): not rolled with its card, back when that card
    /// leaves play.
    Held(Ix),
}

#[derive(Debug, Clone, PartialEq)]
pub struct DieSt {
    pub at: DieAt,
    /// The card the die belongs to.
    pub card: Ix,
    pub controller: Seat,
}

/// The fixed part: card definitions and dice faces.
#[derive(Debug)]
pub struct Static {
    pub keys: Vec<String>,
    pub defs: Vec<CardDef>,
    /// Die IDs (`rey`, `rey#2`) and their faces.
    pub die_ids: Vec<String>,
    pub faces: Vec<Vec<DieFace>>,
}

/// A limit an effect puts on a player's next action or turn.
#[derive(Debug, Clone, PartialEq)]
pub struct NextRule {
    pub player: Seat,
    pub kind: NextKind,
    /// The card whose effect it is.
    pub source: Ix,
}

#[derive(Debug, Clone, PartialEq)]
pub enum NextKind {
    /// Their next action this round activates one of their characters, if able.
    Activate,
    /// Their next action this round plays this event, if able.
    Play(Ix),
    /// They cannot take this action on their next turn.
    Not(super::model::Verb),
}

/// A delayed effect waiting for the end of the round.
#[derive(Debug, Clone, PartialEq)]
pub struct Delayed {
    pub by: Seat,
    pub source: Ix,
    pub target: Ix,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Action,
    Upkeep,
    Over,
}

/// Bookkeeping that does not make an action "do something".
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Book {
    pub claimed: Option<Seat>,
    pub replaced: [bool; 2],
    pub power_used: Vec<(Ix, usize)>,
    /// "First time each round" abilities already triggered: (card, ability).
    pub first_used: Vec<(Ix, usize)>,
}

/// A die removed from a pool: the die, whose it was (its card's controller),
/// and the turn it was removed in (an index into `State::turns`).
#[derive(Debug, Clone, PartialEq)]
pub struct Removal {
    pub die: DieIx,
    pub whose: Seat,
    pub turn: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub cards: Vec<CardSt>,
    pub dice: Vec<DieSt>,
    /// Ordered zones per player (deck: top first).
    pub hand: [Vec<Ix>; 2],
    pub deck: [Vec<Ix>; 2],
    pub discard: [Vec<Ix>; 2],
    pub set_aside: [Vec<Ix>; 2],
    pub resources: [i64; 2],
    pub battlefield: Option<Ix>,
    pub bf_controller: Option<Seat>,
    pub round: i64,
    pub phase: Phase,
    pub turn: Seat,
    pub delayed: Vec<Delayed>,
    /// Dice that cannot be rolled during a round: (die, round).
    pub frozen: Vec<(DieIx, i64)>,
    /// Limits on players' next actions or turns.
    pub next_action: Vec<NextRule>,
    pub winner: Option<Seat>,
    pub book: Book,
    /// Every turn taken so far: who took it, in which round.
    pub turns: Vec<(Seat, i64)>,
    /// Dice removed from pools by card effects, in order.
    pub removals: Vec<Removal>,
    /// Cards stacked facedown on set-aside cards: (the set-aside card, the stacked card).
    pub stacked: Vec<(Ix, Ix)>,
}

pub fn other(s: Seat) -> Seat {
    1 - s
}

pub fn seat_name(s: Seat) -> &'static str {
    SEATS[usize::from(s)]
}

impl Static {
    pub fn build(board: &Board) -> Static {
        let mut st = Static {
            keys: Vec::new(),
            defs: Vec::new(),
            die_ids: Vec::new(),
            faces: Vec::new(),
        };
        for (k, d) in &board.cards {
            st.keys.push(k.clone());
            st.defs.push(d.value.clone());
        }
        st
    }
    pub fn find(&self, key: &str) -> Option<Ix> {
        self.keys.iter().position(|k| k == key)
    }
    pub fn die(&self, id: &str) -> Option<DieIx> {
        self.die_ids.iter().position(|k| k == id)
    }
    /// Parsed faces of a card's die (checked at load).
    pub fn card_faces(&self, c: Ix) -> Vec<DieFace> {
        self.defs[c]
            .die
            .as_ref()
            .map(|v| v.iter().filter_map(|f| DieFace::parse(f).ok()).collect())
            .unwrap_or_default()
    }
}

impl State {
    pub fn new(n: usize) -> State {
        State {
            cards: (0..n)
                .map(|_| CardSt {
                    zone: Zone::Nowhere,
                    owner: 0,
                    controller: 0,
                    ctype: CardType::Event,
                    on: None,
                    damage: 0,
                    shields: 0,
                    exhausted: false,
                })
                .collect(),
            dice: Vec::new(),
            hand: [Vec::new(), Vec::new()],
            deck: [Vec::new(), Vec::new()],
            discard: [Vec::new(), Vec::new()],
            set_aside: [Vec::new(), Vec::new()],
            resources: [0, 0],
            battlefield: None,
            bf_controller: None,
            round: 1,
            phase: Phase::Action,
            turn: 0,
            delayed: Vec::new(),
            frozen: Vec::new(),
            next_action: Vec::new(),
            winner: None,
            book: Book::default(),
            turns: Vec::new(),
            removals: Vec::new(),
            stacked: Vec::new(),
        }
    }

    pub fn in_play(&self, c: Ix) -> bool {
        self.cards[c].zone == Zone::Play
    }

    /// Characters in play controlled by `p`.
    pub fn characters(&self, p: Seat) -> Vec<Ix> {
        (0..self.cards.len())
            .filter(|&c| {
                let s = &self.cards[c];
                s.zone == Zone::Play && s.controller == p && s.ctype == CardType::Character
            })
            .collect()
    }

    /// Upgrades attached to `c`.
    pub fn upgrades(&self, c: Ix) -> Vec<Ix> {
        (0..self.cards.len())
            .filter(|&u| self.cards[u].zone == Zone::Play && self.cards[u].on == Some(c))
            .collect()
    }

    /// Dice of card `c` (its own dice).
    pub fn dice_of(&self, c: Ix) -> Vec<DieIx> {
        (0..self.dice.len())
            .filter(|&d| self.dice[d].card == c)
            .collect()
    }

    /// Dice in `p`'s pool.
    pub fn pool(&self, p: Seat) -> Vec<DieIx> {
        (0..self.dice.len())
            .filter(|&d| matches!(self.dice[d].at, DieAt::Pool(_)) && self.dice[d].controller == p)
            .collect()
    }

    /// Remove a card from every ordered zone list.
    pub fn unlist(&mut self, c: Ix) {
        for p in 0..2 {
            self.hand[p].retain(|&x| x != c);
            self.deck[p].retain(|&x| x != c);
            self.discard[p].retain(|&x| x != c);
            self.set_aside[p].retain(|&x| x != c);
        }
    }

    /// Put a card into an out-of-play zone of its owner (at the end), or into play.
    pub fn put(&mut self, c: Ix, z: Zone) {
        self.unlist(c);
        let o = usize::from(self.cards[c].owner);
        match z {
            Zone::Hand => self.hand[o].push(c),
            Zone::Deck => self.deck[o].push(c),
            Zone::Discard => self.discard[o].push(c),
            Zone::SetAside => self.set_aside[o].push(c),
            _ => {}
        }
        let s = &mut self.cards[c];
        s.zone = z;
        if z != Zone::Play {
            s.on = None;
            s.damage = 0;
            s.shields = 0;
            s.exhausted = false;
            s.controller = s.owner;
        }
    }

    pub fn remaining_health(&self, stat: &Static, c: Ix) -> i64 {
        stat.defs[c].health.unwrap_or(0) - self.cards[c].damage
    }

    /// The keywords `c` has: printed, or granted by an upgrade on it.
    pub fn has_keyword(&self, stat: &Static, c: Ix, k: Keyword) -> bool {
        stat.defs[c].keywords.contains(&k)
            || self
                .lenders(stat, c)
                .iter()
                .any(|&x| stat.defs[x].keywords.contains(&k))
            || self
                .upgrades(c)
                .iter()
                .any(|&u| stat.defs[u].abilities.iter().any(|a| a.grants.contains(&k)))
    }

    /// The cards whose abilities `c` also has: each non-unique character its
    /// controller has in play, when its text says so.
    pub fn lenders(&self, stat: &Static, c: Ix) -> Vec<Ix> {
        if !stat.defs[c].has_abilities_of_non_unique || !self.in_play(c) {
            return Vec::new();
        }
        self.characters(self.cards[c].controller)
            .into_iter()
            .filter(|&x| x != c && !stat.defs[x].unique)
            .collect()
    }

    /// The face a die in a pool shows.
    pub fn showing<'a>(&self, stat: &'a Static, d: DieIx) -> Option<&'a DieFace> {
        match self.dice[d].at {
            DieAt::Pool(f) => stat.faces[d].get(f),
            _ => None,
        }
    }
}

/// The value shown by a face: blanks and specials are 0; X is not modelled (None).
pub fn face_value(f: &DieFace) -> Option<i64> {
    match f.symbol {
        Symbol::Blank | Symbol::Special => Some(0),
        _ => match f.amount {
            Some(FaceAmount::Value(n)) => Some(i64::from(n)),
            Some(FaceAmount::X) => None,
            None => Some(0),
        },
    }
}

/// Does a face show `what` (`damage`, `melee`, `ranged`, `indirect`, `shield`, `resource`,
/// `disrupt`, `discard`, `focus`, `special`, `blank`, or anything for `None`)?
pub fn face_shows(f: &DieFace, what: Option<&str>) -> bool {
    symbol_shows(f.symbol, what)
}

/// Does a symbol count as `what` (as `face_shows`)?
pub fn symbol_shows(s: Symbol, what: Option<&str>) -> bool {
    let Some(w) = what else { return true };
    match w {
        "damage" => matches!(
            s,
            Symbol::MeleeDamage | Symbol::RangedDamage | Symbol::IndirectDamage
        ),
        other => symbol_word(s) == other,
    }
}

pub fn symbol_word(s: Symbol) -> &'static str {
    match s {
        Symbol::MeleeDamage => "melee",
        Symbol::RangedDamage => "ranged",
        Symbol::IndirectDamage => "indirect",
        Symbol::Shield => "shield",
        Symbol::Resource => "resource",
        Symbol::Disrupt => "disrupt",
        Symbol::Discard => "discard",
        Symbol::Focus => "focus",
        Symbol::Special => "special",
        Symbol::Blank => "blank",
        Symbol::Any => "any",
    }
}

/// The words a `showing:` filter accepts.
pub const SHOWING_WORDS: [&str; 11] = [
    "damage", "melee", "ranged", "indirect", "shield", "resource", "disrupt", "discard", "focus",
    "special", "blank",
];
