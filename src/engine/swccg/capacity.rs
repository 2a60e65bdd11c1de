//! Capacity (AR Starships - capacity, astromech capacity; Vehicles - capacity,
//! drivers): what a starship or vehicle may carry, as its card states it ("May add
//! 2 pilots and 4 passengers", "May add 1 pilot and 1 astromech", "May add 1 driver
//! and 7 passengers", "May add 3 pilots or passengers"), and whether the cards
//! aboard it, with those coming aboard, fit.
//!
//! A card's `capacity:` lists its slots by kind. A permanent pilot occupies none of
//! them. Only characters on the bridge or cockpit (cards on the craft itself)
//! occupy pilot, driver, passenger and astromech slots; vehicles and starfighters
//! in its cargo hold occupy vehicle and starfighter slots (a squadron one for each
//! starfighter it represents); weapons and devices occupy none. Cards aboard a card
//! in the hold, or at a related starship or vehicle site, occupy nothing here.
//!
//! Cards fit if each can be given a slot of its own that it may fill: a pilot slot
//! a pilot, a driver slot a driver (non-droid characters, and droids that pilot or
//! are battle, protocol or vehicle droids), an astromech slot an astromech, a
//! passenger slot (or a "pilot or passenger" slot) any character. Which character
//! sits where is the player's to designate, and may change in their deploy and move
//! phases (AR Unlimited - Moving Between Capacity Slots); so a card is refused only
//! when no designation seats everyone. A craft whose card states no capacity is not
//! judged here: its capacity sentence, if it has one, is reported not modelled.

use super::engine::{Engine, Rejection, rej};
use super::identify;
use super::model::{Board, CardType, Placed};
use super::state::{CardIx, State, Zone};
use crate::engine::BoardError;
use serde::Deserialize;

pub const STARSHIPS_CAPACITY: &str = "swccg.ar.starships-capacity";
pub const ASTROMECH_CAPACITY: &str = "swccg.ar.starships-astromech-capacity";
pub const VEHICLES_CAPACITY: &str = "swccg.ar.vehicles-capacity";
pub const DRIVERS: &str = "swccg.ar.vehicles-drivers";
pub const CAPACITY_SLOTS: &str = "swccg.ar.unlimited-moving-between-capacity-slots";
pub const PERMANENT_PILOT: &str = "swccg.ar.starships-permanent-pilot";

/// The slots a starship or vehicle card states, by kind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Capacity {
    /// "May add N pilots".
    #[serde(default)]
    pub pilots: u32,
    /// "May add N drivers" (transport vehicles).
    #[serde(default)]
    pub drivers: u32,
    /// "May add N passengers" ('riders' on creature vehicles).
    #[serde(default)]
    pub passengers: u32,
    /// "May add N pilots or passengers": any combination of the two.
    #[serde(default)]
    pub pilots_or_passengers: u32,
    /// "May add N astromechs": passenger slots only an astromech may fill.
    #[serde(default)]
    pub astromechs: u32,
    /// "May add N vehicles" (cargo hold).
    #[serde(default)]
    pub vehicles: u32,
    /// "May add N starfighters" (cargo hold; a squadron fills one per starfighter).
    #[serde(default)]
    pub starfighters: u32,
    /// "May add N TIEs": starfighter slots only a TIE may fill.
    #[serde(default)]
    pub ties: u32,
    /// "May add unlimited pilots, passengers, vehicles and starfighters".
    #[serde(default)]
    pub unlimited: bool,
}

/// One kind of slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Pilot,
    Driver,
    Passenger,
    PilotOrPassenger,
    Astromech,
    Vehicle,
    Starfighter,
    Tie,
}

impl Capacity {
    /// Each kind of slot: how many the card states, and its words for one and many.
    fn kinds(&self) -> [(Slot, u32, &'static str, &'static str); 8] {
        [
            (Slot::Pilot, self.pilots, "pilot", "pilots"),
            (Slot::Driver, self.drivers, "driver", "drivers"),
            (Slot::Passenger, self.passengers, "passenger", "passengers"),
            (
                Slot::PilotOrPassenger,
                self.pilots_or_passengers,
                "pilot or passenger",
                "pilots or passengers",
            ),
            (Slot::Astromech, self.astromechs, "astromech", "astromechs"),
            (Slot::Vehicle, self.vehicles, "vehicle", "vehicles"),
            (
                Slot::Starfighter,
                self.starfighters,
                "starfighter",
                "starfighters",
            ),
            (Slot::Tie, self.ties, "TIE", "TIEs"),
        ]
    }

    fn slots(&self) -> Vec<Slot> {
        self.kinds()
            .into_iter()
            .flat_map(|(s, n, _, _)| std::iter::repeat_n(s, n as usize))
            .collect()
    }

    /// The capacity in the card's words ("1 pilot, 1 astromech").
    pub fn describe(&self) -> String {
        if self.unlimited {
            return "unlimited pilots, passengers, vehicles and starfighters".into();
        }
        let parts: Vec<String> = self
            .kinds()
            .iter()
            .filter(|(_, n, _, _)| *n > 0)
            .map(|(_, n, one, many)| format!("{n} {}", if *n == 1 { one } else { many }))
            .collect();
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(", ")
        }
    }
}

/// Is `c` a card of `term` (identification, AR Appendix D)?
fn is(st: &State, c: CardIx, term: &str) -> bool {
    identify::is(st, c, term).yes
}

/// May card `c` fill a slot of this kind?
fn fills(st: &State, c: CardIx, s: Slot) -> bool {
    let d = st.def(c);
    let character = d.card_type == CardType::Character;
    match s {
        Slot::Pilot => character && super::movement::is_pilot(st, c),
        Slot::Driver => {
            character
                && (!is(st, c, "droid")
                    || super::movement::is_pilot(st, c)
                    || ["battle droid", "protocol droid", "vehicle droid"]
                        .iter()
                        .any(|t| is(st, c, t)))
        }
        Slot::Passenger | Slot::PilotOrPassenger => character,
        Slot::Astromech => character && is(st, c, "astromech"),
        Slot::Vehicle => d.card_type == CardType::Vehicle,
        Slot::Starfighter => {
            d.card_type == CardType::Starship && d.subtype.as_deref() == Some("starfighter")
        }
        Slot::Tie => fills(st, c, Slot::Starfighter) && is(st, c, "tie"),
    }
}

/// Does card `c` take up capacity aboard a craft at all?
fn occupies(st: &State, c: CardIx) -> bool {
    matches!(
        st.def(c).card_type,
        CardType::Character | CardType::Vehicle | CardType::Starship
    )
}

/// Kuhn's augmenting path: may `unit` take a slot, moving others along?
fn augment(unit: usize, may: &[Vec<bool>], seen: &mut [bool], taken: &mut [Option<usize>]) -> bool {
    for s in 0..taken.len() {
        if !may[unit][s] || seen[s] {
            continue;
        }
        seen[s] = true;
        if taken[s].is_none_or(|u| augment(u, may, seen, taken)) {
            taken[s] = Some(unit);
            return true;
        }
    }
    false
}

/// The first card of `cards` left without a slot of `cap`, if any.
fn unseated(st: &State, cap: &Capacity, cards: &[CardIx]) -> Option<CardIx> {
    let slots = cap.slots();
    // A squadron fills one starfighter slot per starfighter it represents.
    let units: Vec<CardIx> = cards
        .iter()
        .flat_map(|&c| std::iter::repeat_n(c, st.def(c).squadron_of.unwrap_or(1).max(1) as usize))
        .collect();
    let may: Vec<Vec<bool>> = units
        .iter()
        .map(|&c| slots.iter().map(|&s| fills(st, c, s)).collect())
        .collect();
    let mut taken = vec![None; slots.len()];
    units.iter().enumerate().find_map(|(u, &c)| {
        let mut seen = vec![false; slots.len()];
        (!augment(u, &may, &mut seen, &mut taken)).then_some(c)
    })
}

/// Where a character aboard a craft sits, as far as the craft's capacity decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    Pilot,
    Driver,
    Passenger,
}

/// The seat of character `c` aboard a craft whose card states its capacity (None
/// elsewhere: not aboard, not a character, or no stated capacity). A pilot aboard
/// acts as one while pilot capacity is available (AR Starships - pilot): the pilot
/// slots, and the "pilot or passenger" slots that the other characters aboard
/// (beyond the passenger and astromech slots) leave free, go to the pilots in the
/// order they are aboard (board order); pilots beyond them are passengers and do not
/// enhance the craft. A driver slot goes to the first character aboard that may
/// drive (AR Vehicles - drivers: a pilot driving is not piloting, and adds no power).
pub fn seat(st: &State, c: CardIx) -> Option<Seat> {
    let Zone::On(h) = st.zone[c] else {
        return None;
    };
    let cap = st.def(h).capacity.as_deref()?;
    if st.def(c).card_type != CardType::Character {
        return None;
    }
    let chars: Vec<CardIx> = st
        .cards_on(h)
        .into_iter()
        .filter(|&x| st.def(x).card_type == CardType::Character)
        .collect();
    if cap.unlimited {
        let pilot = super::movement::is_pilot(st, c);
        return Some(if pilot { Seat::Pilot } else { Seat::Passenger });
    }
    let drivers: Vec<CardIx> = chars
        .iter()
        .copied()
        .filter(|&x| fills(st, x, Slot::Driver))
        .take(cap.drivers as usize)
        .collect();
    if drivers.contains(&c) {
        return Some(Seat::Driver);
    }
    let pilots: Vec<CardIx> = chars
        .iter()
        .copied()
        .filter(|&x| !drivers.contains(&x) && super::movement::is_pilot(st, x))
        .collect();
    let astromechs = chars
        .iter()
        .filter(|&&x| !pilots.contains(&x) && fills(st, x, Slot::Astromech))
        .count()
        .min(cap.astromechs as usize);
    let others = chars.len() - drivers.len() - pilots.len() - astromechs;
    let spill = others.saturating_sub(cap.passengers as usize);
    let seats = cap.pilots as usize + (cap.pilots_or_passengers as usize).saturating_sub(spill);
    let piloting = pilots
        .iter()
        .position(|&x| x == c)
        .is_some_and(|i| i < seats);
    Some(if piloting {
        Seat::Pilot
    } else {
        Seat::Passenger
    })
}

impl Engine {
    /// May `incoming` come aboard `craft` (deployed or moved there), with the cards
    /// already aboard it? Refused, with its rule, when no designation of slots seats
    /// them all.
    pub(crate) fn capacity_ok(&self, craft: CardIx, incoming: &[CardIx]) -> Result<(), Rejection> {
        let st = &self.st;
        let d = st.def(craft);
        let Some(cap) = d.capacity.as_deref().filter(|c| !c.unlimited) else {
            return Ok(());
        };
        let coming: Vec<CardIx> = incoming
            .iter()
            .copied()
            .filter(|&c| occupies(st, c))
            .collect();
        if coming.is_empty() {
            return Ok(());
        }
        let rule = if d.card_type == CardType::Vehicle {
            VEHICLES_CAPACITY
        } else {
            STARSHIPS_CAPACITY
        };
        if self.text_canceled_by_card(craft) {
            let what = format!(
                "capacity of {} while its game text is canceled (AR Starships - capacity - lost capacity)",
                d.title
            );
            return Err(Rejection {
                reason: what.clone(),
                rule,
                not_modelled: Some(what),
                also: Vec::new(),
            });
        }
        let aboard: Vec<CardIx> = st
            .cards_on(craft)
            .into_iter()
            .filter(|&c| occupies(st, c) && !coming.contains(&c))
            .chain(coming.iter().copied())
            .collect();
        let Some(left) = unseated(st, cap, &aboard) else {
            return Ok(());
        };
        let names: Vec<String> = aboard.iter().map(|&c| self.name(c)).collect();
        let mut e = rej(
            format!(
                "{} has capacity for {}: {} cannot all be aboard it (no slot left that {} may fill)",
                self.name(craft),
                cap.describe(),
                names.join(", "),
                self.name(left)
            ),
            rule,
        );
        if cap.astromechs > 0 {
            e = e.and(ASTROMECH_CAPACITY);
        }
        if cap.drivers > 0 {
            e = e.and(DRIVERS);
        }
        Err(e.and(CAPACITY_SLOTS))
    }
}

/// A board whose starships and vehicles already carry more than their capacity allows
/// is refused where it is loaded, at the first card aboard that no designation of slots
/// seats (AR Starships - capacity; Vehicles - capacity): a run never starts from a
/// position the rules could not have reached.
pub fn check_board(b: &Board) -> Result<(), BoardError> {
    fn judged(b: &Board, p: &Placed) -> bool {
        let stated = b
            .cards
            .get(&p.card.value)
            .is_some_and(|d| d.value.capacity.as_deref().is_some_and(|c| !c.unlimited));
        (stated && !p.on.is_empty()) || p.on.iter().any(|x| judged(b, x))
    }
    let placed = || b.locations.iter().flat_map(|l| &l.cards).chain(&b.table);
    if !placed().any(|p| judged(b, p)) {
        return Ok(());
    }
    let st = super::setup(b);
    placed().try_for_each(|p| over_capacity(&st, p))
}

/// The craft `p` and every craft aboard it: each within its capacity.
fn over_capacity(st: &State, p: &Placed) -> Result<(), BoardError> {
    for x in &p.on {
        over_capacity(st, x)?;
    }
    let Some(craft) = st.find(&p.card.value) else {
        return Ok(());
    };
    let d = st.def(craft);
    let Some(cap) = d.capacity.as_deref().filter(|c| !c.unlimited) else {
        return Ok(());
    };
    let aboard: Vec<CardIx> = st
        .cards_on(craft)
        .into_iter()
        .filter(|&c| occupies(st, c))
        .collect();
    let Some(left) = unseated(st, cap, &aboard) else {
        return Ok(());
    };
    let at =
        p.on.iter()
            .find(|x| x.card.value == st.key(left))
            .map_or(&p.card, |x| &x.card);
    let (rule, section) = if d.card_type == CardType::Vehicle {
        (VEHICLES_CAPACITY, "Vehicles - Capacity")
    } else {
        (STARSHIPS_CAPACITY, "Starships - Capacity")
    };
    let keys: Vec<&str> = aboard.iter().map(|&c| st.key(c)).collect();
    Err(BoardError::new(
        at.referenced.line(),
        at.referenced.column(),
        format!(
            "`{}` ({}) has capacity for {}: {} cannot all be aboard it; no slot is left that `{}` may fill (AR {section}, {rule})",
            p.card.value,
            d.title,
            cap.describe(),
            keys.join(", "),
            st.key(left)
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_says_the_slots_in_the_cards_words() {
        let c = Capacity {
            pilots: 2,
            passengers: 4,
            ..Capacity::default()
        };
        assert_eq!(c.describe(), "2 pilots, 4 passengers");
        let c = Capacity {
            pilots: 1,
            astromechs: 1,
            ..Capacity::default()
        };
        assert_eq!(c.describe(), "1 pilot, 1 astromech");
        let c = Capacity {
            pilots_or_passengers: 3,
            ..Capacity::default()
        };
        assert_eq!(c.describe(), "3 pilots or passengers");
        assert_eq!(Capacity::default().describe(), "nothing");
    }
}
