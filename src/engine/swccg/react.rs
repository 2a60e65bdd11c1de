//! Reacts (AR Appendix C React): deploying or moving cards to the location of the
//! opponent's just-initiated battle or Force drain.
//!
//! A react is a response to the battle or Force drain itself: the reacting player
//! scripts `react` in its response window. Its Force is used at initiation; the
//! card (and the pilot deployed with it, or the characters that embarked on it
//! just before it left) may not react again this turn. A react that gives the
//! reacting player presence at a Force drain's location cancels the drain.

use super::engine::{Decision, Engine, Rejection, Window, rej};
use super::model::{CardType, Filter, LocKind, MoveHow, PileName, Side, Step, Verb};
use super::rules as r;
use super::stack::{ActionKind, DeployTo, Entry, Tgt};
use super::state::{CardIx, Zone};
use crate::engine::{At, Event};
use serde::Deserialize;

pub const APPENDIX_C_REACT: &str = "swccg.ar.appendix-c-react";
pub const REACT_DEPLOY: &str = "swccg.ar.react-deploy";
pub const REACT_MOVE: &str = "swccg.ar.react-move";
pub const VEHICLES_DEPLOYMENT: &str = "swccg.ar.vehicles-deployment";
pub const STARSHIPS_DEPLOYMENT: &str = "swccg.ar.starships-deployment";

/// Every section the react rules cite.
pub const IDS: &[&str] = &[
    APPENDIX_C_REACT,
    REACT_DEPLOY,
    REACT_MOVE,
    VEHICLES_DEPLOYMENT,
    STARSHIPS_DEPLOYMENT,
];

/// What a react text allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReactHow {
    Deploy,
    Move,
}

/// Where the battle or Force drain must be, seen from the card with the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReactRange {
    /// At this card's location.
    Here,
    /// At this card's location or an adjacent site (Comlink).
    HereOrAdjacent,
}

/// "May deploy or move as a 'react'", as data.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReactText {
    /// `deploy`, `move`, or both.
    pub how: Vec<ReactHow>,
    /// The cards that may react (default: the card with the text itself).
    #[serde(default)]
    pub cards: Option<Filter>,
    /// On a location: whose text it is (required there).
    #[serde(default)]
    pub side: Option<Side>,
    /// "All starships": either player's cards may use it (otherwise only the player on
    /// the same side of the Force as the text).
    #[serde(default)]
    pub any_side: bool,
    /// Where the battle or drain must be, from the card with the text.
    #[serde(default)]
    pub range: Option<ReactRange>,
    /// On a location: "between here and …" (location names).
    #[serde(default)]
    pub between: Vec<String>,
    /// "May deploy -1 as a 'react'": added to the deploy cost.
    #[serde(default)]
    pub deploy_mod: i64,
    /// "To same site as a gangster or smuggler": an active card at the battle or drain
    /// location must match.
    #[serde(default)]
    pub where_card: Option<Filter>,
    #[serde(default)]
    pub text: String,
}

/// A react checked at initiation.
enum Plan {
    Deploy {
        c: CardIx,
        to: DeployTo,
        with: Vec<CardIx>,
        cost: i64,
        by: String,
    },
    Move {
        c: CardIx,
        plan: super::movement::Plan,
        with: Vec<CardIx>,
        by: String,
    },
}

/// A react made this turn: the card, and the label of the battle or drain.
#[derive(Debug, Clone)]
pub struct Reacted {
    pub card: CardIx,
    pub to: String,
    /// Characters that embarked just before it left: they disembark when it arrives.
    pub riders: Vec<CardIx>,
    /// The riders still have to disembark when it arrives.
    pub disembark: bool,
    /// It moved as a react (rather than deployed).
    pub by_move: bool,
}

/// The permission a react uses.
struct Grant {
    by: String,
    deploy_mod: i64,
    location_text: bool,
}

/// The forms of movement a reacting card may use (AR React - Move); location text only
/// when the react is granted by that location's text.
fn react_how(h: MoveHow, location_text: bool) -> bool {
    matches!(
        h,
        MoveHow::Landspeed
            | MoveHow::Hyperspeed
            | MoveHow::Land
            | MoveHow::TakeOff
            | MoveHow::Embark
            | MoveHow::Disembark
            | MoveHow::DeathStarOrbit
            | MoveHow::ShipSite
    ) || (h == MoveHow::LocationText && location_text)
}

impl Engine {
    /// The battle or Force drain a response window belongs to, and its location.
    fn react_target(&self, w: Window) -> Option<(usize, usize)> {
        let Window::Response(ix) = w else { return None };
        let e = &self.stack[ix];
        if !matches!(e.kind, ActionKind::Battle | ActionKind::ForceDrain) {
            return None;
        }
        match e.target("at") {
            Some(Tgt::Location(l)) => Some((ix, *l)),
            _ => None,
        }
    }

    /// Is `w` the response window of a battle or Force drain (where reacts are judged)?
    pub(super) fn react_window(&self, w: Window) -> bool {
        self.react_target(w).is_some()
    }

    /// The react text that lets `c` (of `p`) react by `how` to a battle or drain at `l`.
    fn react_grant(&self, p: Side, c: CardIx, how: ReactHow, l: usize) -> Option<Grant> {
        let st = &self.st;
        let fits = |t: &ReactText, owner: Side, x: Option<CardIx>| {
            t.how.contains(&how)
                && (t.any_side || owner == p)
                && match &t.cards {
                    Some(f) => st.matches(c, f, owner),
                    None => x == Some(c),
                }
                && t.where_card.as_ref().is_none_or(|f| {
                    self.cards_at(l)
                        .into_iter()
                        .any(|y| y != c && st.active(y) && st.matches(y, f, owner))
                })
        };
        for x in 0..st.cards.len() {
            if x != c && !st.active(x) {
                continue;
            }
            for t in &st.def(x).react {
                let in_range = match t.range {
                    None => true,
                    Some(ReactRange::Here) => st.location_of(x) == Some(l),
                    Some(ReactRange::HereOrAdjacent) => st
                        .location_of(x)
                        .is_some_and(|h| self.same_or_adjacent(h, l)),
                };
                if in_range && fits(t, st.owner(x), Some(x)) {
                    return Some(Grant {
                        by: st.title(x).to_string(),
                        deploy_mod: t.deploy_mod,
                        location_text: false,
                    });
                }
            }
        }
        let from = st.location_of(c);
        for (h, loc) in st.locations.iter().enumerate() {
            for t in &loc.geo.react {
                let ends = |a: usize, b: Option<usize>| {
                    a == h && b.is_some_and(|b| t.between.contains(&st.locations[b].name))
                };
                let owner = t.side.unwrap_or(p);
                if (ends(l, from) || from.is_some_and(|f| ends(f, Some(l)))) && fits(t, owner, None)
                {
                    return Some(Grant {
                        by: loc.title.clone(),
                        deploy_mod: 0,
                        location_text: true,
                    });
                }
            }
        }
        None
    }

    /// Has `c` deployed or moved as a react (or ridden one) this turn?
    fn has_reacted(&self, c: CardIx) -> bool {
        self.reacts
            .iter()
            .any(|x| x.card == c || x.riders.contains(&c))
    }

    /// A scripted `react`.
    pub(super) fn initiate_react(&mut self, d: &Decision, w: Window) -> Result<(), Rejection> {
        let plan = self.check_react(d, w)?;
        let (ix, _) = self.react_target(w).expect("checked");
        let label = self.stack[ix].label.clone();
        match plan {
            Plan::Deploy {
                c,
                to,
                with,
                cost,
                by,
            } => {
                self.reacts.push(Reacted {
                    card: c,
                    to: label.clone(),
                    riders: with.clone(),
                    disembark: false,
                    by_move: false,
                });
                self.push_react_deploy(d.by, c, to, cost, &by, &label);
                self.push_with(d.by, with);
            }
            Plan::Move { c, plan, with, by } => {
                self.reacts.push(Reacted {
                    card: c,
                    to: label.clone(),
                    disembark: !with.is_empty(),
                    by_move: true,
                    riders: with.clone(),
                });
                self.push_react_move(d.by, c, plan, with, &by, &label);
            }
        }
        Ok(())
    }

    fn check_react(&self, d: &Decision, w: Window) -> Result<Plan, Rejection> {
        let p = d.by;
        let Some((ix, l)) = self.react_target(w) else {
            return Err(rej(
                "a react is made just after the opponent initiates a battle or Force drain: there is none to react to now",
                APPENDIX_C_REACT,
            ));
        };
        if self.stack[ix].actor == p {
            return Err(rej(
                format!(
                    "{} initiated {}: a player is not permitted to react to their own battles or Force drains",
                    p.name(),
                    self.stack[ix].label
                ),
                APPENDIX_C_REACT,
            )
            .and(REACT_MOVE));
        }
        let key = d.step.card.as_deref().unwrap_or("");
        let c = self
            .st
            .find(key)
            .filter(|&c| self.st.owner(c) == p)
            .ok_or_else(|| rej(format!("{key} is not {}'s card", p.name()), r::ACTIONS))?;
        let title = self.st.title(c).to_string();
        if self.has_reacted(c) {
            return Err(rej(
                format!("{title} has already deployed or moved as a react this turn"),
                APPENDIX_C_REACT,
            ));
        }
        if self.st.zone[c] == Zone::Pile(p, PileName::Hand) {
            self.check_react_deploy(d, c, l)
        } else if self.st.on_table(c) {
            self.check_react_move(d, c, l)
        } else {
            Err(rej(
                format!("{title} is neither in hand nor on table: it cannot react"),
                APPENDIX_C_REACT,
            ))
        }
    }

    /// Must a pilot deploy simultaneously with `c` at `l` (an unpiloted starship, or a
    /// vehicle without a permanent pilot, to a system or sector)?
    fn needs_pilot(&self, c: CardIx, l: usize) -> Option<&'static str> {
        let d = self.st.def(c);
        let cite = match d.card_type {
            CardType::Starship => STARSHIPS_DEPLOYMENT,
            CardType::Vehicle => VEHICLES_DEPLOYMENT,
            _ => return None,
        };
        let open = matches!(
            self.st.locations[l].geo.kind,
            Some(LocKind::System | LocKind::Sector)
        );
        (open && !super::movement::piloted(&self.st, c)).then_some(cite)
    }

    fn check_react_deploy(&self, d: &Decision, c: CardIx, l: usize) -> Result<Plan, Rejection> {
        let p = d.by;
        let def = self.st.def(c);
        let title = def.title.clone();
        if !matches!(
            def.card_type,
            CardType::Character
                | CardType::Vehicle
                | CardType::Starship
                | CardType::Weapon
                | CardType::Device
        ) {
            return Err(rej(
                format!(
                    "{title} is not a character, vehicle, starship, weapon or device (it is of type {}): only those may deploy as a react",
                    def.card_type.as_str()
                ),
                REACT_DEPLOY,
            ));
        }
        let Some(g) = self.react_grant(p, c, ReactHow::Deploy, l) else {
            return Err(rej(
                format!(
                    "no card or rule lets {title} deploy as a react to {}",
                    self.st.locations[l].title
                ),
                APPENDIX_C_REACT,
            ));
        };
        self.unique_ok(c)?;
        self.deploy_conditions(p, c)?;
        let to = self.deploy_destination(p, c, Some(d))?;
        let at = match to {
            DeployTo::Location(x) => Some(x),
            DeployTo::OnCard(h) => self.st.location_of(h),
            DeployTo::Table => None,
        };
        if at != Some(l) {
            return Err(rej(
                format!(
                    "a react deploys to the location of the battle or Force drain ({})",
                    self.st.locations[l].title
                ),
                APPENDIX_C_REACT,
            ));
        }
        let with = self.check_with(p, c, d)?;
        match (self.needs_pilot(c, l), with.is_empty()) {
            (Some(cite), true) => {
                return Err(rej(
                    format!(
                        "{title} may not deploy unpiloted to {}: it must deploy simultaneously with a pilot",
                        self.st.locations[l].title
                    ),
                    cite,
                ));
            }
            (None, false) => {
                return Err(rej(
                    format!(
                        "{title} may deploy unpiloted to {}: a pilot that may not react deploys with it only where the location requires simultaneous deployment of a pilot",
                        self.st.locations[l].title
                    ),
                    REACT_DEPLOY,
                ));
            }
            _ => {}
        }
        let cost = (def.stats.deploy.unwrap_or(0) + g.deploy_mod).max(0);
        let total = cost + self.with_cost(&with) as i64;
        let have = self.st.pile_len(p, PileName::ForcePile) as i64;
        if total > have {
            return Err(rej(
                format!(
                    "the react costs {total} Force; {} has {have} in Force Pile",
                    p.name()
                ),
                r::PAYING_COSTS,
            ));
        }
        Ok(Plan::Deploy {
            c,
            to,
            with,
            cost,
            by: g.by,
        })
    }

    fn check_react_move(&self, d: &Decision, c: CardIx, l: usize) -> Result<Plan, Rejection> {
        let p = d.by;
        let title = self.st.title(c).to_string();
        let to = d.step.to.as_deref().unwrap_or("");
        if let Some(h) = self.st.find(to)
            && self.reacts.iter().any(|x| x.card == h && x.by_move)
        {
            return Err(rej(
                format!(
                    "{title} cannot embark on {}: cards may embark only on a card that begins a react, not when it ends it",
                    self.st.title(h)
                ),
                REACT_MOVE,
            ));
        }
        let Some(g) = self.react_grant(p, c, ReactHow::Move, l) else {
            return Err(rej(
                format!("no card or rule lets {title} move as a react (unless a card or rule says otherwise, cards move and embark only during their owner's move phase)"),
                APPENDIX_C_REACT,
            )
            .and(r::MOVE_PHASE));
        };
        if self.st.location_of(c) == Some(l) {
            return Err(rej(
                format!(
                    "{title} is already at {}: a card may not react to a battle or Force drain at its own location",
                    self.st.locations[l].title
                ),
                REACT_MOVE,
            ));
        }
        if let Some(h) = d.step.how
            && !react_how(h, g.location_text)
        {
            return Err(rej(
                format!(
                    "{} is not a form of movement allowed by the react movement rules",
                    h.as_str()
                ),
                REACT_MOVE,
            ));
        }
        let plan = self.plan_move_as(p, c, to, d.step.how, true)?;
        let legal = react_how(plan.how, g.location_text);
        if !legal {
            return Err(rej(
                format!(
                    "{} is not a form of movement allowed by the react movement rules",
                    plan.how.as_str()
                ),
                REACT_MOVE,
            ));
        }
        let arrives = match plan.to {
            Zone::At(x) => Some(x),
            Zone::On(h) => self.st.location_of(h),
            _ => None,
        };
        if arrives != Some(l) {
            return Err(rej(
                format!(
                    "moving as a react must be to the location of the battle or Force drain ({})",
                    self.st.locations[l].title
                ),
                REACT_MOVE,
            ));
        }
        let with = self.react_riders(d, c)?;
        Ok(Plan::Move {
            c,
            plan,
            with,
            by: g.by,
        })
    }

    /// Characters that embark on the reacting card just before it leaves (`with:`).
    fn react_riders(&self, d: &Decision, c: CardIx) -> Result<Vec<CardIx>, Rejection> {
        let mut v = Vec::new();
        for k in &d.step.with {
            let x = self.card_named(k, r::ACTIONS)?;
            let ok = self.st.owner(x) == d.by
                && self.st.active(x)
                && self.st.def(x).card_type == CardType::Character
                && self.st.zone[x] == self.st.zone[c]
                && matches!(self.st.zone[c], Zone::At(_))
                && !self.has_reacted(x);
            if !ok {
                return Err(rej(
                    format!(
                        "{} cannot embark on {} as it begins its react: only your active characters at its location that have not reacted this turn may",
                        self.st.title(x),
                        self.st.title(c)
                    ),
                    REACT_MOVE,
                ));
            }
            v.push(x);
        }
        self.capacity_ok(c, &v)?;
        Ok(v)
    }

    fn push_react_deploy(
        &mut self,
        p: Side,
        c: CardIx,
        to: DeployTo,
        cost: i64,
        by: &str,
        label: &str,
    ) {
        self.st.put(c, Zone::Stack);
        let mut e = Entry::new(
            ActionKind::Deploy { to },
            p,
            Some(c),
            self.st.key(c).to_string(),
        );
        e.next = p.other();
        self.stack.push(e);
        let dest = match to {
            DeployTo::Location(l) => format!(" to {}", self.st.locations[l].title),
            DeployTo::OnCard(h) => format!(" aboard {}", self.name(h)),
            DeployTo::Table => String::new(),
        };
        self.log(
            super::actor(p),
            Event::Push,
            format!(
                "{} deploys {}{dest} as a react to {label} (by {by}), for {cost} Force",
                p.name(),
                self.name(c)
            ),
            &[r::INITIATION, APPENDIX_C_REACT, REACT_DEPLOY],
        );
        self.pay_use(
            p,
            cost as u32,
            &format!("to deploy {} as a react", self.name(c)),
        );
    }

    fn push_react_move(
        &mut self,
        p: Side,
        c: CardIx,
        plan: super::movement::Plan,
        with: Vec<CardIx>,
        by: &str,
        label: &str,
    ) {
        for &x in &with {
            self.st.put(x, Zone::On(c));
            let text = format!(
                "{} embarks on {} just before it leaves (it reacts with it)",
                self.name(x),
                self.name(c)
            );
            self.log(super::actor(p), Event::StateChange, text, &[REACT_MOVE]);
        }
        let mut e = Entry::new(
            ActionKind::Move {
                to: plan.to,
                how: plan.how,
            },
            p,
            Some(c),
            format!("{} react", self.st.key(c)),
        );
        e.next = p.other();
        self.stack.push(e);
        let text = format!(
            "{} moves {} by {} as a react to {label} (by {by})",
            p.name(),
            self.name(c),
            plan.how.as_str()
        );
        self.log(
            super::actor(p),
            Event::Push,
            text,
            &[r::INITIATION, APPENDIX_C_REACT, REACT_MOVE, plan.cite],
        );
        let cost = plan.cost.max(0) as u32;
        self.pay_use(p, cost, &format!("for {}'s react", self.name(c)));
    }

    /// Before a battle or Force drain takes its next response: characters that rode a
    /// react disembark once it has arrived, and a react that brought presence to a
    /// Force drain's location cancels the drain. Returns true when it changed anything.
    pub(super) fn react_arrivals(&mut self, ix: usize) -> bool {
        let Some((_, l)) = self.react_target(Window::Response(ix)) else {
            return false;
        };
        let label = self.stack[ix].label.clone();
        let mut changed = false;
        for i in 0..self.reacts.len() {
            let x = self.reacts[i].clone();
            if !x.disembark || x.to != label || self.st.zone[x.card] != Zone::At(l) {
                continue;
            }
            let aboard: Vec<CardIx> = x
                .riders
                .iter()
                .copied()
                .filter(|&y| self.st.zone[y] == Zone::On(x.card))
                .collect();
            for y in aboard {
                self.st.put(y, Zone::At(l));
                let text = format!(
                    "{} disembarks from {} just after it arrives",
                    self.name(y),
                    self.name(x.card)
                );
                self.log(
                    super::actor(self.st.owner(y)),
                    Event::StateChange,
                    text,
                    &[REACT_MOVE, r::EMBARKING],
                );
            }
            self.reacts[i].disembark = false;
            changed = true;
        }
        changed | self.react_cancels_drain(ix, l, &label)
    }

    fn react_cancels_drain(&mut self, ix: usize, l: usize, label: &str) -> bool {
        let e = &self.stack[ix];
        if !matches!(e.kind, ActionKind::ForceDrain) || e.canceled {
            return false;
        }
        let p = e.actor.other();
        let reacted = self.reacts.iter().any(|x| x.to == label);
        if !reacted || !self.has_presence(p, l) {
            return false;
        }
        self.stack[ix].canceled = true;
        self.canceled.push(label.to_string());
        let text = format!(
            "{} reacted to {label} and now has presence at {}: the Force drain is canceled",
            p.name(),
            self.st.locations[l].title
        );
        self.log(
            super::actor(p),
            Event::Cancel,
            text,
            &[APPENDIX_C_REACT, r::CANCELING],
        );
        true
    }

    /// Could `p` react to the battle or drain responded to in `w` (strict scripts)?
    pub(super) fn can_react(&self, p: Side, w: Window) -> bool {
        let Some((_, l)) = self.react_target(w) else {
            return false;
        };
        let loc = self.st.locations[l].name.clone();
        (0..self.st.cards.len()).any(|c| {
            self.st.owner(c) == p && {
                let step = Step {
                    light: (p == Side::Light).then_some(Verb::React),
                    dark: (p == Side::Dark).then_some(Verb::React),
                    card: Some(self.st.key(c).to_string()),
                    to: Some(loc.clone()),
                    ..Step::default()
                };
                let d = Decision {
                    at: At::default(),
                    by: p,
                    verb: Verb::React,
                    step,
                };
                self.check_react(&d, w).is_ok()
            }
        })
    }
}
