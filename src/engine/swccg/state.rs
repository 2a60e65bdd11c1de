//! The SWCCG board as the engine sees it: every physical card, where it is
//! (a pile of a side, a location, on another card, on the stack, out of play)
//! and in which state; Force counters per side.
//!
//! Piles are ordered top card first. Nothing is cached: every query walks the
//! state, so a value can never go stale.

use crate::engine::swccg::model::{CardDef, CardState, Filter, LocationDef, PileName, Rel, Side};

pub type CardIx = usize;

/// Where a card is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    /// In a deck or pile (or hand, or out of play) of a side.
    Pile(Side, PileName),
    /// On table at a location.
    At(usize),
    /// On table, at no location (Effects, Objectives).
    Table,
    /// On (aboard, deployed on, stacked on) another card.
    On(CardIx),
    /// Being played or deployed: on the stack of actions.
    Stack,
    /// A destiny card just drawn, not yet placed.
    Drawn,
}

#[derive(Debug, Clone)]
pub struct Card {
    /// The short name the scenario uses.
    pub key: String,
    pub def: CardDef,
}

impl Card {
    pub fn owner(&self) -> Side {
        self.def.side
    }
    pub fn title(&self) -> &str {
        &self.def.title
    }
}

#[derive(Debug, Clone)]
pub struct Location {
    pub name: String,
    pub title: String,
    pub icons: Vec<String>,
    /// The location as the board gives it: what movement and deployment read about it.
    pub geo: LocationDef,
}

/// Force bookkeeping of one side during the run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct ForceCount {
    pub used: i64,
    pub lost: i64,
    pub activated: i64,
    pub retrieved: i64,
    pub drawn: i64,
}

const PILES: [PileName; 6] = [
    PileName::ReserveDeck,
    PileName::ForcePile,
    PileName::UsedPile,
    PileName::LostPile,
    PileName::Hand,
    PileName::OutOfPlay,
];

fn pile_ix(p: PileName) -> usize {
    match p {
        PileName::ReserveDeck => 0,
        PileName::ForcePile => 1,
        PileName::UsedPile => 2,
        PileName::LostPile => 3,
        PileName::Hand => 4,
        PileName::OutOfPlay => 5,
    }
}

#[derive(Debug, Clone)]
pub struct State {
    pub cards: Vec<Card>,
    pub zone: Vec<Zone>,
    pub card_state: Vec<CardState>,
    pub locations: Vec<Location>,
    piles: [[Vec<CardIx>; 6]; 2],
    pub force: [ForceCount; 2],
    /// Cards that have made their regular move this turn, in order.
    pub regular_moves: Vec<CardIx>,
    /// Values game text set on cards, latest last.
    pub resets: Vec<super::value_resets::SetValue>,
    /// Cards whose game text a card on table canceled, at the last check.
    pub text_canceled: Option<Vec<CardIx>>,
    /// When each card last came onto the table (a running count; board order at the
    /// start): the order its game-text modifiers occurred in (AR Modifiers).
    pub entered: Vec<u64>,
    entries: u64,
    /// Changes in force for a stated duration (AR Actions - Duration).
    pub timed: Vec<super::globals::Timed>,
    /// Restrictions "for remainder of game" of deployed Objectives: (the Objective,
    /// the title of the side that made it, the cards its owner may not deploy).
    pub for_game: Vec<(CardIx, String, Filter)>,
    /// The besieged battle under way, if any (`besieged.rs`).
    pub siege: Option<super::besieged::Siege>,
    /// A face-down card of a counted pile whose identity a test read (`face_down.rs`).
    pub identity_read: std::sync::OnceLock<CardIx>,
    /// The location each card's text targeted when it was deployed (`location_target.rs`).
    pub location_target: Vec<Option<usize>>,
}

impl State {
    pub fn new(cards: Vec<Card>, locations: Vec<Location>) -> State {
        let n = cards.len();
        State {
            cards,
            zone: vec![Zone::Stack; n],
            card_state: vec![CardState::Active; n],
            locations,
            piles: Default::default(),
            force: [ForceCount::default(); 2],
            regular_moves: Vec::new(),
            resets: Vec::new(),
            text_canceled: None,
            entered: vec![0; n],
            entries: 0,
            timed: Vec::new(),
            for_game: Vec::new(),
            siege: None,
            identity_read: std::sync::OnceLock::new(),
            location_target: vec![None; n],
        }
    }

    pub fn find(&self, key: &str) -> Option<CardIx> {
        self.cards.iter().position(|c| c.key == key)
    }

    pub fn find_location(&self, name: &str) -> Option<usize> {
        self.locations.iter().position(|l| l.name == name)
    }

    pub fn key(&self, c: CardIx) -> &str {
        &self.cards[c].key
    }

    pub fn title(&self, c: CardIx) -> &str {
        &self.cards[c].def.title
    }

    pub fn def(&self, c: CardIx) -> &CardDef {
        &self.cards[c].def
    }

    pub fn owner(&self, c: CardIx) -> Side {
        self.cards[c].def.side
    }

    pub fn pile(&self, side: Side, p: PileName) -> &[CardIx] {
        &self.piles[side.ix()][pile_ix(p)]
    }

    pub fn pile_len(&self, side: Side, p: PileName) -> usize {
        self.pile(side, p).len()
    }

    /// Put a card in a pile at setup, at the bottom (lists are given top first).
    pub fn setup_pile(&mut self, c: CardIx, side: Side, p: PileName) {
        self.piles[side.ix()][pile_ix(p)].push(c);
        self.zone[c] = Zone::Pile(side, p);
    }

    /// Put a pile of a side in a new order (the same cards; others are left out).
    pub fn reorder(&mut self, side: Side, p: PileName, order: Vec<CardIx>) {
        let v = &mut self.piles[side.ix()][pile_ix(p)];
        if order.len() == v.len() && order.iter().all(|c| v.contains(c)) {
            *v = order;
        }
    }

    /// Take a card out of wherever it is (no rules applied).
    fn detach(&mut self, c: CardIx) {
        if let Zone::Pile(side, p) = self.zone[c] {
            self.piles[side.ix()][pile_ix(p)].retain(|&x| x != c);
        }
    }

    /// Place a card on top of a pile (hand: at the end) of a side.
    /// Move up to `n` cards, one at a time, from the top of `side`'s `from` pile
    /// to its `to` pile; returns how many moved (fewer when `from` runs out).
    pub fn move_top(&mut self, side: Side, from: PileName, to: PileName, n: u32) -> u32 {
        let mut moved = 0;
        while moved < n {
            let Some(c) = self.top(side, from) else {
                break;
            };
            self.to_pile(c, side, to);
            moved += 1;
        }
        moved
    }

    #[allow(clippy::wrong_self_convention)] // "to a pile", not a conversion
    pub fn to_pile(&mut self, c: CardIx, side: Side, p: PileName) {
        self.detach(c);
        let v = &mut self.piles[side.ix()][pile_ix(p)];
        if p == PileName::Hand {
            v.push(c)
        } else {
            v.insert(0, c)
        }
        self.zone[c] = Zone::Pile(side, p);
        self.card_state[c] = CardState::Active;
    }

    /// Move a card already in `side`'s pile `p` to the bottom of that pile.
    pub fn bottom(&mut self, c: CardIx, side: Side, p: PileName) {
        let v = &mut self.piles[side.ix()][pile_ix(p)];
        if let Some(i) = v.iter().position(|&x| x == c) {
            v.remove(i);
            v.push(c);
        }
    }

    /// Re-circulate: `side`'s Used Pile goes under its Reserve Deck, in the same order.
    pub fn recirculate(&mut self, side: Side) -> usize {
        let used = std::mem::take(&mut self.piles[side.ix()][pile_ix(PileName::UsedPile)]);
        let n = used.len();
        for &c in &used {
            self.zone[c] = Zone::Pile(side, PileName::ReserveDeck);
        }
        self.piles[side.ix()][pile_ix(PileName::ReserveDeck)].extend(used);
        n
    }

    /// Place a card somewhere on table (or on the stack).
    pub fn put(&mut self, c: CardIx, z: Zone) {
        self.detach(c);
        let table = |z: Zone| matches!(z, Zone::At(_) | Zone::On(_) | Zone::Table);
        if table(z) && !table(self.zone[c]) {
            self.entries += 1;
            self.entered[c] = self.entries;
        }
        self.zone[c] = z;
    }

    /// The top card of a pile.
    pub fn top(&self, side: Side, p: PileName) -> Option<CardIx> {
        self.pile(side, p).first().copied()
    }

    /// Cards directly on `c`, in index order.
    pub fn cards_on(&self, c: CardIx) -> Vec<CardIx> {
        (0..self.cards.len())
            .filter(|&x| self.zone[x] == Zone::On(c))
            .collect()
    }

    /// Is the card on table (at a location, on table, or on a card that is on table)?
    pub fn on_table(&self, c: CardIx) -> bool {
        let mut z = self.zone[c];
        for _ in 0..64 {
            match z {
                Zone::At(_) | Zone::Table => return true,
                Zone::On(p) => z = self.zone[p],
                _ => return false,
            }
        }
        false
    }

    /// On table and active (AR Ch.1 D: when a card's state is not referred to, only active cards count).
    pub fn active(&self, c: CardIx) -> bool {
        self.on_table(c) && self.card_state[c] == CardState::Active
    }

    /// An undercover spy (AR Undercover Spy Rules): by its own characteristics, or
    /// made one by an active card deployed on it ("Spy is now Undercover").
    pub fn undercover(&self, c: CardIx) -> bool {
        let says = |list: &[String]| list.iter().any(|k| k.eq_ignore_ascii_case("undercover"));
        says(&self.def(c).keywords)
            || (0..self.cards.len()).any(|x| {
                self.zone[x] == Zone::On(c) && self.active(x) && says(&self.def(x).identity.grants)
            })
    }

    /// Where the card is, in the words of expectations: `light.lost_pile`,
    /// `at:<location>`, `on:<card>`, `table`, `stack`, `drawn`.
    pub fn where_is(&self, c: CardIx) -> String {
        match self.zone[c] {
            Zone::Pile(side, p) => format!("{}.{}", side.as_str(), p.as_str()),
            Zone::At(l) => format!("at:{}", self.locations[l].name),
            Zone::Table => "table".to_string(),
            Zone::On(p) => format!("on:{}", self.cards[p].key),
            Zone::Stack => "stack".to_string(),
            Zone::Drawn => "drawn".to_string(),
        }
    }

    /// A pile by its expectation name (`light.used_pile`).
    pub fn pile_by_name(&self, name: &str) -> Option<Vec<String>> {
        let (side, p) = parse_pile_name(name)?;
        Some(
            self.pile(side, p)
                .iter()
                .map(|&c| self.cards[c].key.clone())
                .collect(),
        )
    }

    pub fn all_piles() -> [PileName; 6] {
        PILES
    }

    /// Does the card match the filter, seen from `me`?
    pub fn matches(&self, c: CardIx, f: &Filter, me: Side) -> bool {
        let d = &self.cards[c].def;
        if d.face_down.is_some() && format!("{f:?}") != format!("{:?}", Filter::default()) {
            let _ = self.identity_read.set(c);
        }
        if !f.title.is_empty() && !f.title.iter().any(|t| super::titles::names(t, &d.title)) {
            return false;
        }
        if let Some(types) = &f.card_type
            && (!types.contains(&d.card_type) || super::games::at_holosite(self, c))
        {
            return false;
        }
        if let Some(st) = &f.subtype
            && d.subtype.as_deref().map(|s| s.eq_ignore_ascii_case(st)) != Some(true)
        {
            return false;
        }
        if !super::deploy_cost::effect_kind_matches(d, f) {
            return false;
        }
        match f.owner {
            Some(Rel::You) if d.side != me => return false,
            Some(Rel::Opponent) if d.side == me => return false,
            _ => {}
        }
        if f.keyword
            .iter()
            .any(|k| !d.keywords.iter().any(|x| x.eq_ignore_ascii_case(k)))
            || f.keyword_not
                .iter()
                .any(|k| d.keywords.iter().any(|x| x.eq_ignore_ascii_case(k)))
        {
            return false;
        }
        if let Some(u) = f.unique
            && d.unique != u
        {
            return false;
        }
        for h in &f.has {
            if !has_value(d, h) {
                return false;
            }
        }
        if let Some(icon) = &f.icon
            && !d.stats.icons.iter().any(|i| i.eq_ignore_ascii_case(icon))
        {
            return false;
        }
        if !f.persona.is_empty() {
            let mine: Vec<&str> = if d.personas.is_empty() {
                // A virtual card has the title of the original (AR Virtual Cards).
                vec![super::titles::base_title(&d.title)]
            } else {
                d.personas.iter().map(String::as_str).collect()
            };
            if !f
                .persona
                .iter()
                .any(|p| mine.iter().any(|m| m.eq_ignore_ascii_case(p)))
            {
                return false;
            }
        }
        if f.duplicate_in_pile
            && !match self.zone[c] {
                Zone::Pile(side, p) => self
                    .pile(side, p)
                    .iter()
                    .any(|&x| x != c && super::titles::identical(&self.cards[x].def, d)),
                _ => false,
            }
        {
            return false;
        }
        if f.is.iter().any(|t| !super::identify::is(self, c, t).yes)
            || f.is_not
                .iter()
                .any(|t| !super::identify::non(self, c, t).yes)
        {
            return false;
        }
        if let Some(b) = &f.at_most
            && !self.within(c, b)
        {
            return false;
        }
        if let Some(b) = &f.at_least
            && self.value(c, b.stat).is_none_or(|v| v < b.value)
        {
            return false;
        }
        if !super::objective::card_tests(d, f) {
            return false;
        }
        if f.battleground
            .is_some_and(|b| self.card_is_battleground(c) != b)
        {
            return false;
        }
        if f.duplicate_on_table
            && !(0..self.cards.len()).any(|x| {
                x != c && self.active(x) && super::titles::identical(&self.cards[x].def, d)
            })
        {
            return false;
        }
        true
    }

    /// Active cards on table matching the filter, in scenario order.
    pub fn table_matching(&self, f: &Filter, me: Side) -> Vec<CardIx> {
        (0..self.cards.len())
            .filter(|&c| self.active(c) && self.matches(c, f, me))
            .collect()
    }

    /// The location a card on table is at (through the cards it is on).
    pub fn location_of(&self, c: CardIx) -> Option<usize> {
        let mut z = self.zone[c];
        for _ in 0..64 {
            match z {
                Zone::At(l) => return Some(l),
                Zone::On(p) => z = self.zone[p],
                _ => return None,
            }
        }
        None
    }
}

/// Does the card have this value at all (Implied Target Rule: a value that does not exist cannot be targeted)?
pub fn has_value(d: &CardDef, name: &str) -> bool {
    let s = &d.stats;
    match name {
        "power" => s.power.is_some(),
        "ability" => s.ability.is_some(),
        "deploy" => s.deploy.is_some(),
        "forfeit" => s.forfeit.is_some(),
        "destiny" => s.destiny.is_some(),
        "armor" => s.armor.is_some(),
        "maneuver" => s.maneuver.is_some(),
        "hyperspeed" => s.hyperspeed.is_some(),
        "landspeed" => s.landspeed.is_some(),
        "politics" => s.politics.is_some(),
        "immune_to_attrition" => s.immune_to_attrition.is_some(),
        other => s.defense.contains_key(other),
    }
}

/// `light.used_pile` → (Light, UsedPile).
pub fn parse_pile_name(name: &str) -> Option<(Side, PileName)> {
    let (side, pile) = name.split_once('.')?;
    let side = match side {
        "light" => Side::Light,
        "dark" => Side::Dark,
        _ => return None,
    };
    let p = PILES.into_iter().find(|p| p.as_str() == pile)?;
    Some((side, p))
}
