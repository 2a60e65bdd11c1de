//! Besieged battles and captured starships released (AR Appendix C Capturing Starships,
//! Capturing Starships - Besieged Battles; Besieged, Ap. A and B).
//!
//! A battle whose `at:` names a captured starship carrying the Besieged card
//! (`besieges: true`) of the player initiating it: that player's characters present
//! with the captured starship (aboard the starship it is held by, or at the site it is
//! held at; `with:` chooses some of them) battle the opponent's characters trapped
//! aboard it, as if present together at a site. The trapped characters are active for
//! that battle only; starships and vehicles do not participate. While the battle is
//! under way the board's [`Siege`] says who participates; the battle itself is an
//! ordinary board battle at the captured starship's location.
//!
//! The effect `release_starship: <filter>` ("release a starship held by any Tractor
//! Beam") releases a captured starship: its owner chooses Launch (placed on their side
//! of the system, active, with the cards aboard; not movement) or Escape (placed in
//! their Used Pile with the cards aboard; a Besieged card on it is lost).

use super::effects::Applied;
use super::engine::{Decision, Engine, Rejection, Window, actor, rej};
use super::model::{CardState, CardType, Filter, Phase, PileName, Side, Verb};
use super::rules as r;
use super::stack::{ActionKind, Entry, Tgt};
use super::state::{CardIx, State, Zone};
use super::statics::Static;
use crate::engine::End;
use crate::engine::{Actor, Event};

pub const BESIEGED_BATTLES: &str = "swccg.ar.capturing-starships-besieged-battles";
pub const BESIEGED_BATTLES_LINK: &str = "swccg.ar.besieged-battles";
pub const BESIEGED_TEXT: &str = "swccg.ar.errata.besieged";
pub const BESIEGED_RULING: &str = "swccg.ar.rulings.besieged";

/// Every section the besieged battle rules cite.
pub const IDS: &[&str] = &[
    BESIEGED_BATTLES,
    BESIEGED_BATTLES_LINK,
    BESIEGED_TEXT,
    BESIEGED_RULING,
];

/// A besieged battle under way: the captured starship, the location it is at, the
/// battle's label, and the characters that participate (both sides).
#[derive(Debug, Clone)]
pub struct Siege {
    pub ship: CardIx,
    pub at: usize,
    pub label: String,
    pub cards: Vec<CardIx>,
    /// The opponent's characters trapped aboard, active for this battle only.
    pub trapped: Vec<CardIx>,
    /// The cards made active for the battle: the trapped characters and cards on them.
    pub woken: Vec<CardIx>,
}

/// The besieged battle under way at location `at`, if any.
pub fn siege_at(st: &State, at: usize) -> Option<&Siege> {
    st.siege.as_ref().filter(|s| s.at == at)
}

/// Does `c` take part in the siege: one of its characters, or a card on one?
pub fn in_siege(st: &State, s: &Siege, c: CardIx) -> bool {
    let mut x = c;
    for _ in 0..8 {
        if s.cards.contains(&x) {
            return true;
        }
        match st.zone[x] {
            Zone::On(h) => x = h,
            _ => return false,
        }
    }
    false
}

/// Where a captured starship is held: the starship it is aboard (`Ok`), or the site it
/// is at (`Err`). Cards between (the Tractor Beam it is placed under) are skipped.
fn held_by(st: &State, s: CardIx) -> Option<Result<CardIx, usize>> {
    let mut z = st.zone[s];
    for _ in 0..8 {
        match z {
            Zone::On(h) if st.def(h).card_type == CardType::Starship => return Some(Ok(h)),
            Zone::On(h) => z = st.zone[h],
            Zone::At(l) => return Some(Err(l)),
            _ => return None,
        }
    }
    None
}

fn has_ability(st: &State, cards: &[CardIx]) -> bool {
    cards.iter().any(|&c| {
        st.def(c).stats.ability.unwrap_or(0) > 0
            || st
                .def(c)
                .stats
                .icons
                .iter()
                .any(|i| i.eq_ignore_ascii_case("presence"))
    })
}

impl Engine {
    /// Are `a` and `b` both in the besieged battle under way (present together, as if
    /// at a site)?
    pub(super) fn besieged_together(&self, a: CardIx, b: CardIx) -> bool {
        self.st
            .siege
            .as_ref()
            .is_some_and(|s| in_siege(&self.st, s, a) && in_siege(&self.st, s, b))
    }

    /// A `battle` whose `at:` names a card: a besieged battle (None: `at` names a
    /// location, an ordinary battle).
    pub(super) fn besieged_battle(
        &mut self,
        d: &Decision,
        w: Window,
    ) -> Option<Result<(), Rejection>> {
        let key = d.step.at.as_deref()?;
        if self.st.find_location(key).is_some() {
            if d.step.with.is_empty() {
                return None;
            }
            return Some(Err(rej(
                "choosing which of your characters battle (`with:`) belongs to a besieged battle; at a location every card there participates",
                BESIEGED_BATTLES,
            )));
        }
        let Some(s) = self.st.find(key) else {
            return Some(Err(rej(format!("no location {key}"), r::CHOOSING_TARGETS)));
        };
        Some(
            self.check_siege(d, w, s)
                .map(|siege| self.begin_siege(d.by, siege)),
        )
    }

    /// The cards of `p` present with captured starship `s`: characters aboard the
    /// starship holding it, or at the site holding it.
    fn besiegers(&self, p: Side, s: CardIx) -> Vec<CardIx> {
        let st = &self.st;
        let here = |c: CardIx| match held_by(st, s) {
            Some(Ok(h)) => st.zone[c] == Zone::On(h),
            Some(Err(l)) => st.zone[c] == Zone::At(l),
            None => false,
        };
        (0..st.cards.len())
            .filter(|&c| st.owner(c) == p && st.active(c) && here(c))
            .filter(|&c| st.def(c).card_type == CardType::Character)
            .collect()
    }

    /// Why `c` may not battle in a besieged battle at `s`.
    fn besieger_refusal(&self, p: Side, s: CardIx, c: CardIx) -> Rejection {
        let t = self.name(c);
        if self.st.owner(c) != p {
            return rej(format!("{t} is not {}'s card", p.name()), BESIEGED_BATTLES);
        }
        if matches!(
            self.st.def(c).card_type,
            CardType::Starship | CardType::Vehicle
        ) {
            return rej(
                format!("{t}: starships and vehicles cannot participate in a besieged battle"),
                BESIEGED_BATTLES,
            );
        }
        rej(
            format!(
                "{t} is not present with {}: only characters aboard the starship holding it, or at the site holding it, battle there",
                self.name(s)
            ),
            BESIEGED_BATTLES,
        )
        .and(BESIEGED_TEXT)
    }

    fn check_siege(&self, d: &Decision, w: Window, s: CardIx) -> Result<Siege, Rejection> {
        let p = d.by;
        let title = self.name(s);
        if let Window::Response(i) = w {
            return Err(rej(
                format!(
                    "initiating a battle is a top-level action; it cannot respond to {}",
                    self.stack[i].label
                ),
                r::THE_STACK,
            ));
        }
        if self.turn != p || self.phase != Phase::Battle {
            return Err(rej(
                format!(
                    "{} may initiate a battle only during their own battle phase",
                    p.name()
                ),
                r::BATTLE_PHASE,
            ));
        }
        if !self.captured_starship(s) {
            return Err(rej(
                format!(
                    "{title} is not a captured starship: a battle is initiated at a location, or (with Besieged) at a captured starship"
                ),
                BESIEGED_BATTLES,
            ));
        }
        if p == self.st.owner(s) {
            return Err(rej(
                format!(
                    "the characters aboard a captured starship may not initiate battle: {title} is captured"
                ),
                BESIEGED_BATTLES,
            ));
        }
        // Besieged works on the inactive captured starship it is deployed on (AR
        // Inactive: cards that target a card in that state).
        let besieged = self.st.cards_on(s).into_iter().any(|b| {
            self.st.owner(b) == p && self.st.def(b).has_static(|s| matches!(s, Static::Besieges))
        });
        if !besieged {
            return Err(rej(
                format!(
                    "{} has no Besieged on {title}: the characters trapped aboard a captured starship are inactive and battle only in a besieged battle",
                    p.name()
                ),
                BESIEGED_BATTLES,
            )
            .and(BESIEGED_TEXT));
        }
        let Some(at) = self.st.location_of(s) else {
            return Err(rej(format!("{title} is at no location"), BESIEGED_BATTLES));
        };
        if let Some(prior) = self.battles.iter().find(|b| b.location == at) {
            return Err(rej(
                format!(
                    "{} already battled at {} this turn ({}): a battle against one group or the other, not both on the same turn",
                    p.name(),
                    self.st.locations[at].title,
                    prior.label
                ),
                BESIEGED_BATTLES,
            )
            .and(r::BATTLE));
        }
        let candidates = self.besiegers(p, s);
        let mut cards = Vec::new();
        for k in &d.step.with {
            let c = self.card_named(k, r::ACTIONS)?;
            if !candidates.contains(&c) {
                return Err(self.besieger_refusal(p, s, c));
            }
            cards.push(c);
        }
        if cards.is_empty() {
            cards = candidates;
        }
        let trapped: Vec<CardIx> = self
            .st
            .cards_on(s)
            .into_iter()
            .filter(|&c| {
                self.st.owner(c) == p.other() && self.st.def(c).card_type == CardType::Character
            })
            .collect();
        for (side, group) in [(p, &cards), (p.other(), &trapped)] {
            if !has_ability(&self.st, group) {
                return Err(rej(
                    format!(
                        "{} has no presence in a battle at {title}: a battle occurs only where both players have presence",
                        side.name()
                    ),
                    r::BATTLE,
                )
                .and(BESIEGED_BATTLES));
            }
        }
        cards.extend(trapped.iter().copied());
        let label = d
            .step
            .label
            .clone()
            .unwrap_or_else(|| format!("battle_{}", self.st.key(s)));
        let siege = Siege {
            ship: s,
            at,
            label,
            cards,
            trapped,
            woken: Vec::new(),
        };
        let mut st = self.st.clone();
        st.siege = Some(siege.clone());
        self.afford_battle(p, &super::battle_board::battle_cost(&st, at, p))?;
        Ok(siege)
    }

    /// Initiate the besieged battle: the trapped characters are active for it; the
    /// battle goes on the stack at the captured starship's location and uses its cost.
    fn begin_siege(&mut self, p: Side, mut siege: Siege) {
        let (s, at, label) = (siege.ship, siege.at, siege.label.clone());
        self.battles.push(super::battle_drain::AtLocation {
            location: at,
            label: label.clone(),
            cards: siege.cards.clone(),
        });
        for &c in &siege.trapped {
            let mut all = vec![c];
            all.extend(self.all_on(c));
            for x in all {
                if self.st.card_state[x] == CardState::Inactive {
                    self.st.card_state[x] = CardState::Active;
                    siege.woken.push(x);
                }
            }
        }
        let besiegers: Vec<CardIx> = siege
            .cards
            .iter()
            .copied()
            .filter(|c| !siege.trapped.contains(c))
            .collect();
        let text = format!(
            "{} initiates a besieged battle at {} (captured, at {}) ({label}): {} battle {} (active for this battle), as if present together at a site",
            p.name(),
            self.name(s),
            self.st.locations[at].title,
            self.names(&besiegers),
            self.names(&siege.trapped),
        );
        self.st.siege = Some(siege);
        let mut e = Entry::new(ActionKind::Battle, p, None, label);
        e.targets.push(("at".into(), Tgt::Location(at)));
        self.stack.push(e);
        self.log(
            actor(p),
            Event::Push,
            text,
            &[r::INITIATION, r::INITIATE_BATTLE, BESIEGED_BATTLES],
        );
        self.pay_battle_cost(p, at);
    }

    /// Once the besieged battle is no longer on the stack, the characters still trapped
    /// aboard are inactive again; with none left, the starship is stolen.
    pub(super) fn siege_check(&mut self) {
        let Some(siege) = self.st.siege.as_ref() else {
            return;
        };
        if self.stack.iter().any(|e| e.label == siege.label) {
            return;
        }
        let Some(siege) = self.st.siege.take() else {
            return;
        };
        let s = siege.ship;
        let still: Vec<CardIx> = siege
            .trapped
            .iter()
            .copied()
            .filter(|&c| self.st.zone[c] == Zone::On(s))
            .collect();
        for &c in &siege.woken {
            let mut x = c;
            for _ in 0..8 {
                match self.st.zone[x] {
                    Zone::On(h) if h == s => {
                        self.st.card_state[c] = CardState::Inactive;
                        break;
                    }
                    Zone::On(h) => x = h,
                    _ => break,
                }
            }
        }
        if !still.is_empty() {
            let text = format!(
                "the besieged battle at {} is over: {} still aboard, inactive again (the starship is still captured)",
                self.name(s),
                self.names(&still)
            );
            self.log(
                Actor::Rules,
                Event::StateChange,
                text,
                &[BESIEGED_BATTLES, r::INACTIVE],
            );
            return;
        }
        if self.captured_starship(s) && self.characters_aboard(s).is_empty() {
            if self
                .all_on(s)
                .iter()
                .any(|&b| self.st.def(b).has_static(|s| matches!(s, Static::Besieges)))
            {
                // Ap. C: Besieged "remains on the starship" whichever side controls it;
                // the Besieged ruling (Ap. B): it is lost if the starship is stolen.
                self.outcome = Some(End::NotModelled {
                    what: format!(
                        "{} is stolen with Besieged on it: the rulebook says both that Besieged remains on the starship whichever side controls it and that it is lost if the starship is stolen",
                        self.name(s)
                    ),
                });
                return;
            }
            let text = format!(
                "the characters trapped aboard {} are eliminated: it is stolen",
                self.name(s)
            );
            self.log(
                Actor::Rules,
                Event::StateChange,
                text,
                &[BESIEGED_BATTLES, super::capture::CAPTURING_STARSHIPS],
            );
            let thief = self.st.owner(s).other();
            self.steal_captured(thief, s);
        }
    }

    /// The effect `release_starship`: a captured starship matching `f` is released; its
    /// owner chooses Launch or Escape.
    pub(super) fn release_starship(&mut self, me: Side, f: &Filter) -> Applied {
        let ships: Vec<CardIx> = (0..self.st.cards.len())
            .filter(|&s| self.captured_starship(s) && self.st.matches(s, f, me))
            .collect();
        let s = match ships.as_slice() {
            [] => {
                self.log(
                    Actor::Rules,
                    Event::Result,
                    "no captured starship matches: nothing is released",
                    &[super::capture::CAPTURING_STARSHIPS],
                );
                return Applied::Done;
            }
            [s] => *s,
            _ => {
                self.outcome = Some(End::NotModelled {
                    what: "choosing which of several captured starships is released".into(),
                });
                return Applied::Stop;
            }
        };
        let owner = self.st.owner(s);
        let title = self.name(s);
        let launch = loop {
            let Some(d) = self
                .script
                .peek()
                .cloned()
                .filter(|d| d.by == owner && matches!(d.verb, Verb::Launch | Verb::Escape))
            else {
                self.need_choice(owner, format!("{title} is released: launch or escape"));
                return Applied::Stop;
            };
            self.script.take();
            if d.step.card.as_deref() == Some(self.st.key(s)) {
                break d.verb == Verb::Launch;
            }
            let e = rej(
                format!("the starship released is {title}"),
                super::capture::CAPTURING_STARSHIPS,
            );
            self.reject(&d, e);
        };
        if launch {
            self.launch(s);
        } else {
            self.escape_starship(s);
        }
        Applied::Done
    }

    /// Launch: the starship goes to its owner's side of the system it is at, active
    /// with the cards aboard (not movement); cards on it stay on it.
    fn launch(&mut self, s: CardIx) {
        let Some(l) = self.st.location_of(s) else {
            return;
        };
        self.st.put(s, Zone::At(l));
        let mut aboard = vec![s];
        aboard.extend(self.all_on(s));
        for c in aboard {
            self.st.card_state[c] = CardState::Active;
        }
        let kept: Vec<String> = self
            .st
            .cards_on(s)
            .into_iter()
            .map(|c| self.name(c))
            .collect();
        let text = format!(
            "Launch: {} is placed on {}'s side of {}, active (this is not movement); aboard or on it: {}",
            self.name(s),
            self.st.owner(s).name(),
            self.st.locations[l].title,
            kept.join(", ")
        );
        self.log(
            actor(self.st.owner(s)),
            Event::StateChange,
            text,
            &[super::capture::CAPTURING_STARSHIPS, BESIEGED_BATTLES],
        );
    }

    /// Escape: the starship and the cards aboard go to its owner's Used Pile; a
    /// Besieged card on it is lost (its text: "canceled if starship escapes").
    fn escape_starship(&mut self, s: CardIx) {
        let owner = self.st.owner(s);
        for c in self.all_on(s) {
            let o = self.st.owner(c);
            if self.st.def(c).has_static(|s| matches!(s, Static::Besieges)) {
                self.st.to_pile(c, o, PileName::LostPile);
                let text = format!("{} is canceled: it goes to the Lost Pile", self.name(c));
                self.log(
                    Actor::Rules,
                    Event::StateChange,
                    text,
                    &[BESIEGED_TEXT, BESIEGED_RULING],
                );
            } else {
                self.st.to_pile(c, o, PileName::UsedPile);
            }
        }
        self.st.to_pile(s, owner, PileName::UsedPile);
        let text = format!(
            "Escape: {} and the cards aboard are placed in {}'s Used Pile",
            self.name(s),
            owner.name()
        );
        self.log(
            actor(owner),
            Event::StateChange,
            text,
            &[super::capture::CAPTURING_STARSHIPS],
        );
    }
}
