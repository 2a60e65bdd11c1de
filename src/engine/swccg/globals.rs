//! Global effects and durations (AR Global Effects And Card State, Actions - Duration,
//! Until End Of Turn). A card's game text that modifies the values of other cards
//! (`globals:` — "Leia is deploy +2") applies to those cards in every state: on table,
//! in a deck, pile or hand (units of Force), stacked, drawn for destiny. A change made by
//! an action for a stated duration ("power +2 until end of turn") lasts until that
//! duration ends, regardless of what happens to the card that caused it; changes that
//! last "until end of turn" cease during the end of turn, as automatic actions, before
//! any optional end of turn action.

use super::statics::{Static, pick};
use serde::Deserialize;

use super::engine::Engine;
use super::model::{CardDef, Filter, Side};
use super::rules as r;
use super::state::{CardIx, State};
use crate::engine::{Actor, Event};

/// A value of a card that game text may modify.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stat {
    Power,
    Ability,
    Deploy,
    Forfeit,
    Destiny,
}

impl Stat {
    pub const ALL: [Stat; 5] = [
        Stat::Power,
        Stat::Ability,
        Stat::Deploy,
        Stat::Forfeit,
        Stat::Destiny,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            Stat::Power => "power",
            Stat::Ability => "ability",
            Stat::Deploy => "deploy",
            Stat::Forfeit => "forfeit",
            Stat::Destiny => "destiny",
        }
    }
    /// The stat of this name.
    pub fn named(s: &str) -> Option<Stat> {
        Stat::ALL.into_iter().find(|x| x.as_str() == s)
    }
    /// The printed value (none: the value does not exist and cannot be modified).
    pub fn printed(self, d: &CardDef) -> Option<i64> {
        match self {
            Stat::Power => d.stats.power,
            Stat::Ability => d.stats.ability,
            Stat::Deploy => d.stats.deploy,
            Stat::Forfeit => d.stats.forfeit,
            Stat::Destiny => d.stats.destiny,
        }
    }
}

/// Game text modifying a value of every card matching `filter` (seen from the card
/// whose text it is), in all states, while that card is active on table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GlobalMod {
    pub filter: Filter,
    pub stat: Stat,
    pub add: i64,
    #[serde(default)]
    pub text: String,
    /// "All your other aliens": never the card whose text it is.
    #[serde(default)]
    pub others: bool,
    /// Conditions on the card whose text it is ("while at Audience Chamber"; `text_when.rs`).
    #[serde(default)]
    pub when: Vec<super::text_when::Cond>,
}

/// "Power 4 or less": a bound on a card's current value, for filters.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatBound {
    pub stat: Stat,
    pub value: i64,
}

/// When a change with a stated duration ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[allow(clippy::enum_variant_names)] // the rulebook's own words: "until end of …"
pub enum Until {
    /// "Until end of turn": at the end of this turn (`end_of_turn`).
    #[serde(rename = "end_of_turn")]
    Now,
    /// "Until the end of the next Light Side player's turn" (made outside it).
    #[serde(rename = "end_of_light_turn")]
    Light,
    /// "Until the end of the next Dark Side player's turn" (made outside it).
    #[serde(rename = "end_of_dark_turn")]
    Dark,
}

impl Until {
    fn ends_after(self, turn: Side) -> bool {
        match self {
            Until::Now => true,
            Until::Light => turn == Side::Light,
            Until::Dark => turn == Side::Dark,
        }
    }
    fn words(self) -> &'static str {
        match self {
            Until::Now => "until end of turn",
            Until::Light => "until the end of the Light Side player's turn",
            Until::Dark => "until the end of the Dark Side player's turn",
        }
    }
}

/// A change in force for a stated duration: values of cards matching `filter`
/// (seen from `side`) change by `add`. On a board (`durations:`), one made before the
/// position starts; `source` is the card whose action made it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timed {
    pub source: String,
    pub side: Side,
    pub filter: Filter,
    pub stat: Stat,
    pub add: i64,
    pub until: Until,
}

/// A cost another card's text adds to deploying a card to a location: X Force, X the
/// number of copies of that card already at that location (doubled where a card says
/// the text is doubled).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeployTax {
    /// The cards it taxes, seen from the taxing card's owner.
    pub filter: Filter,
    #[serde(default)]
    pub text: String,
}

impl State {
    /// What other cards' text adds to deploying `c` to location `l`: the amount and
    /// the cards responsible (the highest one applies; copies are not cumulative).
    pub fn deploy_tax(&self, c: CardIx, l: usize) -> (i64, String) {
        let copies = (0..self.cards.len())
            .filter(|&x| {
                x != c
                    && self.on_table(x)
                    && self.location_of(x) == Some(l)
                    && super::titles::identical(self.def(x), self.def(c))
            })
            .count() as i64;
        let mut best = (0, String::new());
        for x in 0..self.cards.len() {
            let Some(t) = self.def(x).find_static(pick!(Static::DeployTax)) else {
                continue;
            };
            if !self.active(x) || !self.matches(c, &t.filter, self.owner(x)) {
                continue;
            }
            let doubled = (0..self.cards.len()).find(|&y| {
                self.active(y)
                    && self.owner(y) == self.owner(x)
                    && self
                        .def(y)
                        .static_list(pick!(Static::Doubles))
                        .iter()
                        .any(|d| super::titles::same_title(d, self.title(x)))
            });
            let amount = copies * if doubled.is_some() { 2 } else { 1 };
            let why = match doubled {
                Some(y) => format!(
                    "{}: X = {copies} cop(ies) at the location, doubled by {} = {amount}",
                    self.title(x),
                    self.title(y)
                ),
                None => format!("{}: X = {copies} cop(ies) at the location", self.title(x)),
            };
            if amount > best.0 {
                best = (amount, why);
            }
        }
        best
    }

    /// A card's current value (`card_values`): printed, its card modifiers, global
    /// game text of active cards on table, changes still in force for their
    /// duration. `None` when the card has no such value (it cannot be modified).
    pub fn value(&self, c: CardIx, stat: Stat) -> Option<i64> {
        super::card_values::value(self, c, stat.as_str()).value
    }

    /// The modifiers of a card's value: (what, amount), in board order.
    pub fn value_terms(&self, c: CardIx, stat: Stat) -> Vec<(String, i64)> {
        let mut out = Vec::new();
        for x in 0..self.cards.len() {
            if !self.active(x) || !self.on_table(x) {
                continue;
            }
            for g in &self.def(x).globals {
                if g.stat == stat
                    && !(g.others && x == c)
                    && self.matches(c, &g.filter, self.owner(x))
                    && super::text_when::holds(self, x, &g.when, None)
                {
                    out.push((self.title(x).to_string(), g.add));
                }
            }
        }
        for t in &self.timed {
            if t.stat == stat && self.matches(c, &t.filter, t.side) {
                let src = self
                    .find(&t.source)
                    .map_or(t.source.clone(), |s| self.title(s).to_string());
                out.push((format!("{src} ({})", t.until.words()), t.add));
            }
        }
        out
    }

    /// Does the card's current value stay within the bound?
    pub fn within(&self, c: CardIx, b: &StatBound) -> bool {
        self.value(c, b.stat).is_some_and(|v| v <= b.value)
    }
}

fn signed(n: i64) -> String {
    if n < 0 {
        n.to_string()
    } else {
        format!("+{n}")
    }
}

impl Engine {
    /// The extra Force another card's text requires to deploy `c` to location `l`,
    /// said in the trace when there is any.
    pub(super) fn note_deploy_tax(&mut self, p: Side, c: CardIx, l: usize) -> i64 {
        let (n, why) = self.st.deploy_tax(c, l);
        if n > 0 {
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!(
                    "{} must first use {n} more Force to deploy {} to {} ({why})",
                    p.name(),
                    self.name(c),
                    self.st.locations[l].title
                ),
                &[r::NOT_UNIQUE_DOUBLED, r::PAYING_COSTS],
            );
        }
        n
    }

    /// A rejection about a value that a global effect or a duration changes cites
    /// that rule too.
    pub(super) fn global_cite(
        &self,
        e: super::engine::Rejection,
        c: CardIx,
        stat: Stat,
    ) -> super::engine::Rejection {
        if self.st.value_terms(c, stat).is_empty() {
            e
        } else {
            e.and(r::GLOBAL_EFFECTS)
        }
    }

    /// Say so when a card's value is not its printed one (a global effect or a
    /// duration applies, whatever state the card is in).
    pub(super) fn note_value(&mut self, c: CardIx, stat: Stat, why: &str) {
        let terms = self.st.value_terms(c, stat);
        let (Some(v), Some(printed)) = (self.st.value(c, stat), stat.printed(self.st.def(c)))
        else {
            return;
        };
        if terms.is_empty() {
            return;
        }
        let parts: Vec<String> = terms
            .iter()
            .map(|(w, a)| format!("{w} {}", signed(*a)))
            .collect();
        let state = super::card_state_name(&self.st, c).replace('_', " ");
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{} is {} {v} (printed {printed}; {}) as a {state} card {why}: a global effect applies in every state",
                self.name(c),
                stat.as_str(),
                parts.join(", ")
            ),
            &[r::GLOBAL_EFFECTS, r::MODIFIERS],
        );
    }

    /// An action's change for a stated duration takes effect.
    pub(super) fn start_duration(&mut self, t: Timed) {
        let src = self
            .st
            .find(&t.source)
            .map_or(t.source.clone(), |s| self.name(s));
        let text = format!(
            "{src}: {} of every card matching its text {} {}",
            t.stat.as_str(),
            signed(t.add),
            t.until.words()
        );
        self.st.timed.push(t);
        self.log(
            Actor::Rules,
            Event::StateChange,
            text,
            &[r::ACTIONS_DURATION],
        );
    }

    /// The end of the turn begins: changes lasting until now cease, as automatic
    /// actions, before any optional end of turn action.
    pub(super) fn end_durations(&mut self) {
        let turn = self.turn;
        let (ended, kept): (Vec<Timed>, Vec<Timed>) = std::mem::take(&mut self.st.timed)
            .into_iter()
            .partition(|t| t.until.ends_after(turn));
        self.st.timed = kept;
        for t in ended {
            let src = self
                .st
                .find(&t.source)
                .map_or(t.source.clone(), |s| self.name(s));
            self.log(
                Actor::Rules,
                Event::StateChange,
                format!(
                    "end of {}'s turn: {src}'s {} {} ({}) ceases, as an automatic action before any optional end of turn action",
                    turn.name(),
                    t.stat.as_str(),
                    signed(t.add),
                    t.until.words()
                ),
                &[r::UNTIL_END_OF_TURN, r::ACTIONS_DURATION],
            );
        }
    }
}
