//! The SWTCG state: cards, pieces in play (unit stacks, Pilots, Equipment),
//! piles, Force and build points; and the totals the rules compute.

use super::model::{
    Arena, Board, Bonus, CardDef, Cost, Filter, Format, Grant, Keywords, Kind, Side, UnitBoard,
    Whose,
};

pub type CardIx = usize;
pub type PieceIx = usize;

/// A player: a side, and in Two-Headed Wookiee which player of the team
/// (0: player A, 1: player B; always 0 in a standard game).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pid {
    pub side: Side,
    pub p: u8,
}

impl From<Side> for Pid {
    fn from(side: Side) -> Pid {
        Pid { side, p: 0 }
    }
}

impl Pid {
    pub fn ix(self) -> usize {
        self.side.ix() * 2 + usize::from(self.p)
    }
    /// `a` or `b`.
    pub fn letter(self) -> &'static str {
        if self.p == 0 { "a" } else { "b" }
    }
}

/// Where a piece (a unit stack, a Pilot stack, an Equipment stack) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PZone {
    Arena(Arena),
    BuildZone,
    /// Piloting this unit.
    Pilot(PieceIx),
    /// Attached to this unit.
    Attached(PieceIx),
    /// A Location in play in this arena.
    Location(Arena),
    /// No longer in play (its cards are in piles).
    Gone,
}

/// A stack of versions acting as one unit, Pilot or Equipment.
#[derive(Debug, Clone)]
pub struct Piece {
    /// Top card first.
    pub stack: Vec<CardIx>,
    pub side: Side,
    pub zone: PZone,
    pub tapped: bool,
    pub damage: i64,
    pub face_down: bool,
    pub counters: i64,
    /// Until end of battle.
    pub power_mod: i64,
    pub speed_mod: i64,
    pub moved: bool,
    pub equipped: bool,
    /// Control gained until end of turn: the player it returns to then.
    pub returns_to: Option<Pid>,
    /// Two-Headed Wookiee: which player of the team controls it (0: A, 1: B).
    pub player: u8,
}

/// The summed keywords of a unit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Kw {
    pub accuracy: Option<i64>,
    pub bombard: Option<i64>,
    pub critical_hit: Option<i64>,
    pub fury: Option<i64>,
    pub ion_cannon: Option<i64>,
    pub lucky: Option<i64>,
    pub parry: Option<i64>,
    pub shields: Option<i64>,
    pub stun: Option<i64>,
    pub evade: Vec<i64>,
    /// The Force each Evade copy costs (same order as `evade`).
    pub evade_cost: Vec<i64>,
    pub deflect: Vec<i64>,
    /// The Force each Deflect copy costs (same order as `deflect`).
    pub deflect_cost: Vec<i64>,
    pub retaliate: Vec<i64>,
    /// The Force each Retaliate copy costs (same order as `retaliate`).
    pub retaliate_cost: Vec<i64>,
    pub armor: bool,
    pub double_strike: bool,
    pub overkill: bool,
    pub stealth: bool,
    /// Intercept is selective: every copy, with its cost (printed first).
    pub intercept: Vec<Cost>,
    pub bounty: Vec<Cost>,
    pub upkeep: Vec<Cost>,
    pub cant_use_evade: bool,
    pub hidden_cost: Option<i64>,
}

fn add(a: &mut Option<i64>, b: Option<i64>) {
    if let Some(b) = b {
        *a = Some(a.unwrap_or(0) + b);
    }
}

impl Kw {
    /// Add a source's keywords: cumulative values add, isolated ones exist once, layered ones each count.
    pub fn add(&mut self, k: &Keywords) {
        add(&mut self.accuracy, k.accuracy);
        add(&mut self.bombard, k.bombard);
        add(&mut self.critical_hit, k.critical_hit);
        add(&mut self.fury, k.fury);
        add(&mut self.ion_cannon, k.ion_cannon);
        add(&mut self.lucky, k.lucky);
        add(&mut self.parry, k.parry);
        add(&mut self.shields, k.shields);
        add(&mut self.stun, k.stun);
        let costs = k.costs.unwrap_or_default();
        self.evade.extend(k.evade);
        self.evade_cost.extend(k.evade.map(|_| costs.evade));
        self.deflect.extend(k.deflect);
        self.deflect_cost.extend(k.deflect.map(|_| costs.deflect));
        self.retaliate.extend(k.retaliate);
        self.retaliate_cost
            .extend(k.retaliate.map(|_| costs.retaliate));
        self.armor |= k.armor == Some(true);
        self.double_strike |= k.double_strike == Some(true);
        self.overkill |= k.overkill == Some(true);
        self.stealth |= k.stealth == Some(true);
        self.intercept.extend(k.intercept);
        self.bounty.extend(k.bounty);
        if let Some(u) = &k.upkeep {
            self.upkeep.extend(u.iter().copied());
        }
        if k.hidden_cost.is_some() && self.hidden_cost.is_none() {
            self.hidden_cost = k.hidden_cost;
        }
    }
    /// A keyword's value for observation (`null` if the unit lacks it).
    pub fn get(&self, name: &str) -> serde_json::Value {
        use serde_json::Value;
        let num = |v: Option<i64>| v.map_or(Value::Null, Value::from);
        let list = |v: &Vec<i64>| {
            if v.is_empty() {
                Value::Null
            } else {
                Value::from(v.clone())
            }
        };
        let flag = |b: bool| if b { Value::from(true) } else { Value::Null };
        match name {
            "accuracy" => num(self.accuracy),
            "bombard" => num(self.bombard),
            "critical_hit" => num(self.critical_hit),
            "fury" => num(self.fury),
            "ion_cannon" => num(self.ion_cannon),
            "lucky" => num(self.lucky),
            "parry" => num(self.parry),
            "shields" => num(self.shields),
            "stun" => num(self.stun),
            "evade" => list(&self.evade),
            "deflect" => list(&self.deflect),
            "retaliate" => list(&self.retaliate),
            "armor" => flag(self.armor),
            "double_strike" => flag(self.double_strike),
            "overkill" => flag(self.overkill),
            "stealth" => flag(self.stealth),
            "intercept" => flag(!self.intercept.is_empty()),
            "hidden_cost" => num(self.hidden_cost),
            _ => Value::Null,
        }
    }
}

/// Keyword names a unit can be observed with.
pub const KEYWORDS: [&str; 18] = [
    "accuracy",
    "bombard",
    "critical_hit",
    "fury",
    "ion_cannon",
    "lucky",
    "parry",
    "shields",
    "stun",
    "evade",
    "deflect",
    "retaliate",
    "armor",
    "double_strike",
    "overkill",
    "stealth",
    "intercept",
    "hidden_cost",
];

/// A unit's totals.
#[derive(Debug, Clone, Default)]
pub struct Totals {
    pub speed: i64,
    pub power: i64,
    pub health: i64,
    pub build: i64,
    pub kw: Kw,
}

/// One player's things.
#[derive(Debug, Clone, Default)]
pub struct Player {
    pub force: i64,
    pub build: i64,
    pub hand: Vec<CardIx>,
    /// Top first.
    pub deck: Vec<CardIx>,
    pub discard: Vec<CardIx>,
    pub resource: Option<CardIx>,
    /// Bounties to gain when the next build step starts.
    pub bounty: Cost,
}

#[derive(Debug, Clone)]
pub struct State {
    pub keys: Vec<String>,
    pub defs: Vec<CardDef>,
    pub pieces: Vec<Piece>,
    /// Each player's things, by `Pid::ix` (a standard game uses 0 and 2).
    pub players: [Player; 4],
    /// Each card's owner (the player whose board lists it).
    pub owner: Vec<Pid>,
    /// Two-Headed Wookiee: each side is a team of two players.
    pub team: bool,
    /// Subtypes each card has gained by an effect until the game ends.
    pub gained: Vec<Vec<String>>,
    /// Grants that last until end of turn, with the side whose effect it is.
    pub turn_grants: Vec<(Side, Grant)>,
    /// Grants until end of turn fixed to the units in play when they resolved.
    pub fixed_grants: Vec<(PieceIx, Grant)>,
    /// The attack under way: (attacking unit, defending unit).
    pub attack: Option<(PieceIx, PieceIx)>,
    /// The unit that made the last attack (one that was not disrupted), and
    /// the hits it rolled.
    pub last_attack: Option<(PieceIx, i64)>,
    /// Bonuses units get for the attack under way ("for this attack").
    pub attack_bonuses: Vec<(PieceIx, Bonus)>,
    /// Units whose damage the opponent can't use Evade to prevent, for this attack.
    pub no_evade_from: Vec<PieceIx>,
    /// Cards removed from the game.
    pub removed: Vec<CardIx>,
    /// The number of attack dice an effect sets for the attack under way.
    pub attack_dice: Option<i64>,
    /// The defending unit is discarded if the attack under way damages it.
    pub discard_if_damaged: bool,
}

/// Names that stack and contest although they differ.
const SAME_UNIT: [(&str, &str); 6] = [
    ("Anakin Skywalker", "Darth Vader"),
    ("Chancellor Palpatine", "Emperor Palpatine"),
    ("Senator Palpatine", "Darth Sidious"),
    ("Count Dooku", "Darth Tyranus"),
    ("Finis Valorum", "Chancellor Finis Valorum"),
    ("Padmé Amidala", "Queen Amidala"),
];

/// Whether two unique names are the same unit for stacking and contesting.
pub fn same_unit(a: &str, b: &str) -> bool {
    a == b
        || SAME_UNIT
            .iter()
            .any(|(x, y)| (a == *x && b == *y) || (a == *y && b == *x))
}

/// Whether a subtype line has the subtype an effect names. Subtypes with
/// "Jedi" or "Sith" must appear exactly as stated; other multi-word subtypes
/// need each word somewhere on the line.
pub fn has_subtype(line: &str, want: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| c.is_whitespace())
            .filter(|w| !w.is_empty() && *w != "-" && *w != "–")
            .map(|w| w.to_ascii_lowercase())
            .collect()
    };
    let want_w = words(want);
    if want_w.is_empty() {
        return false;
    }
    if want_w.iter().any(|w| w == "jedi" || w == "sith") {
        // Exact, contiguous, inside one hyphen-separated part.
        return line.split(['-', '–']).any(|part| {
            let p = words(part);
            p.windows(want_w.len()).any(|win| win == want_w.as_slice())
        });
    }
    let have = words(line);
    want_w.iter().all(|w| have.contains(w))
}

/// Whether a filter names a card not in play by what the card says: name,
/// subtype, type, printed cost (never "in the same arena").
/// Whether a card has a name the filter names (`name:` or one of
/// `or_names:`, or the filter names none) and the side symbol it asks for.
fn name_ok(f: &Filter, d: &CardDef) -> bool {
    let name = (f.name.is_none() && f.or_names.is_empty())
        || f.name.as_deref() == Some(d.name.as_str())
        || f.or_names.contains(&d.name);
    name && (!f.neutral || d.side == Some(super::model::SideSymbol::Neutral))
}

pub fn def_matches(f: &Filter, d: &CardDef) -> bool {
    !f.same_arena
        && name_ok(f, d)
        && f.subtype
            .as_ref()
            .is_none_or(|s| has_subtype(&d.subtypes, s))
        && f.not_subtype
            .as_ref()
            .is_none_or(|s| !has_subtype(&d.subtypes, s))
        && f.r#type.is_none_or(|t| d.types.contains(&t))
        && f.max_cost.is_none_or(|m| d.cost <= m)
}

impl State {
    pub fn find(&self, key: &str) -> Option<CardIx> {
        self.keys.iter().position(|k| k == key)
    }
    pub fn def(&self, c: CardIx) -> &CardDef {
        &self.defs[c]
    }
    pub fn top(&self, p: PieceIx) -> CardIx {
        self.pieces[p].stack[0]
    }
    pub fn top_def(&self, p: PieceIx) -> &CardDef {
        &self.defs[self.top(p)]
    }
    pub fn key(&self, p: PieceIx) -> &str {
        &self.keys[self.top(p)]
    }
    pub fn label(&self, p: PieceIx) -> String {
        let d = self.top_def(p);
        match &d.version {
            Some(v) => format!("{} ({v})", d.name),
            None => d.name.clone(),
        }
    }
    pub fn card_label(&self, c: CardIx) -> String {
        let d = &self.defs[c];
        match &d.version {
            Some(v) => format!("{} ({v})", d.name),
            None => d.name.clone(),
        }
    }
    /// The piece a card is part of (any card of its stack).
    pub fn piece_of(&self, c: CardIx) -> Option<PieceIx> {
        self.pieces
            .iter()
            .position(|p| p.zone != PZone::Gone && p.stack.contains(&c))
    }
    pub fn piece_by_key(&self, key: &str) -> Option<PieceIx> {
        self.find(key).and_then(|c| self.piece_of(c))
    }
    pub fn arena_of(&self, p: PieceIx) -> Option<Arena> {
        match self.pieces[p].zone {
            PZone::Arena(a) => Some(a),
            _ => None,
        }
    }
    /// Face-up units in an arena of a side, in board order.
    pub fn units_in(&self, a: Arena, side: Side) -> Vec<PieceIx> {
        (0..self.pieces.len())
            .filter(|&p| self.pieces[p].zone == PZone::Arena(a) && self.pieces[p].side == side)
            .collect()
    }
    pub fn in_arena(&self, p: PieceIx) -> bool {
        matches!(self.pieces[p].zone, PZone::Arena(_))
    }
    /// Whether damage can be done to `p`: a unit in an arena, or face up in
    /// its build zone (where prevention doesn't work).
    pub fn damageable(&self, p: PieceIx) -> bool {
        self.in_arena(p) || (self.pieces[p].zone == PZone::BuildZone && !self.pieces[p].face_down)
    }
    /// Pieces attached to or piloting `p`.
    pub fn riders(&self, p: PieceIx, pilots: bool) -> Vec<PieceIx> {
        (0..self.pieces.len())
            .filter(|&q| {
                self.pieces[q].zone
                    == if pilots {
                        PZone::Pilot(p)
                    } else {
                        PZone::Attached(p)
                    }
            })
            .collect()
    }
    /// The unit's subtype line (with "as if it were" not counted).
    pub fn subtypes(&self, p: PieceIx) -> String {
        let printed = &self.top_def(p).subtypes;
        match self.gained[self.top(p)].as_slice() {
            [] => printed.clone(),
            more => format!("{printed} - {}", more.join(" - ")),
        }
    }
    /// Whether a unit has a type: in an arena, only that arena's type counts.
    pub fn has_type(&self, p: PieceIx, t: Arena) -> bool {
        match self.pieces[p].zone {
            PZone::Arena(a) => a == t && self.top_def(p).types.contains(&t),
            _ => self.top_def(p).types.contains(&t),
        }
    }
    /// Whether a card of `side` (and, in Two-Headed Wookiee, of team player
    /// `player`) belongs to "you" of the card `src`: the player who controls
    /// `src`; on a Location, the players who control Characters in its arena
    /// on its side.
    pub fn is_you(&self, src: PieceIx, side: Side, player: u8) -> bool {
        let sp = &self.pieces[src];
        if sp.side != side {
            return false;
        }
        if !self.team {
            return true;
        }
        match sp.zone {
            PZone::Location(a) => self.units_in(a, side).into_iter().any(|u| {
                self.pieces[u].player == player && self.top_def(u).types.contains(&Arena::Character)
            }),
            _ => sp.player == player,
        }
    }
    fn whose_ok(&self, f: &Filter, src: PieceIx, p: PieceIx) -> bool {
        let pc = &self.pieces[p];
        match f.whose {
            Whose::Your => self.is_you(src, pc.side, pc.player),
            Whose::Opponent => pc.side != self.pieces[src].side,
            Whose::Any => true,
        }
    }
    /// Whether the unit `p` is named by a filter of an ability on `src`.
    pub fn matches(&self, f: &Filter, src: PieceIx, p: PieceIx) -> bool {
        self.whose_ok(f, src, p)
            && !(f.other && p == src)
            && (!f.this_unit || p == src)
            && name_ok(f, self.top_def(p))
            && f.subtype
                .as_ref()
                .is_none_or(|s| has_subtype(&self.subtypes(p), s))
            && f.not_subtype
                .as_ref()
                .is_none_or(|s| !has_subtype(&self.subtypes(p), s))
            && f.r#type.is_none_or(|t| self.has_type(p, t))
            && (!f.unequipped || self.riders(p, false).is_empty())
            && !(f.same_arena && self.arena_of(p) != self.arena_of(src))
            && f.max_cost.is_none_or(|m| self.top_def(p).cost <= m)
            && (!f.unique || self.top_def(p).version.is_some())
    }
    /// Whether unit `p` may be chosen by an effect of `side` (of unit `src`,
    /// if a unit's) whose filter is `f`: a face-up unit in an arena (or a
    /// build zone, if the filter allows it) with what the filter names.
    pub fn target_ok(&self, f: &Filter, side: Side, src: Option<PieceIx>, p: PieceIx) -> bool {
        let pc = &self.pieces[p];
        let zone = match pc.zone {
            _ if f.face_down => pc.zone == PZone::BuildZone && pc.face_down && pc.side == side,
            PZone::Arena(a) => f.arenas.is_empty() || f.arenas.contains(&a),
            PZone::BuildZone => f.build_zone && !pc.face_down,
            _ => false,
        };
        let whose = match f.whose {
            Whose::Your => pc.side == side,
            Whose::Opponent => pc.side != side,
            Whose::Any => true,
        };
        let t = self.totals(p);
        zone && whose
            && !(f.other && src == Some(p))
            && (!f.this_unit || src == Some(p))
            && name_ok(f, self.top_def(p))
            && f.subtype
                .as_ref()
                .is_none_or(|s| has_subtype(&self.subtypes(p), s))
            && f.not_subtype
                .as_ref()
                .is_none_or(|s| !has_subtype(&self.subtypes(p), s))
            && f.r#type.is_none_or(|ty| self.has_type(p, ty))
            && (!f.untapped || !pc.tapped)
            && f.max_cost.is_none_or(|m| self.top_def(p).cost <= m)
            && (!f.unique || self.top_def(p).version.is_some())
            && f.max_power.is_none_or(|m| t.power <= m)
            && f.max_build.is_none_or(|m| t.build <= m)
            && f.max_health.is_none_or(|m| t.health <= m)
            && (!f.attacking || self.attack.is_some_and(|(a, _)| a == p))
            && (!f.last_attack_no_hits || self.last_attack == Some((p, 0)))
            && (!f.attacking_shielded
                || self
                    .attack
                    .is_some_and(|(a, d)| a == p && self.totals(d).kw.shields.is_some()))
            && (!f.bombarding
                || self.attack.is_some_and(|(a, d)| {
                    a == p
                        && self.arena_of(a) == Some(Arena::Space)
                        && self.arena_of(d) == Some(Arena::Ground)
                        && t.kw.bombard.is_some()
                }))
    }

    /// The units in the arenas (or in arena `only`) that a filter of an
    /// effect of `side` (of unit `src`, if a unit's) names: units only, not
    /// Pilots or Equipment; with `build_zone:` (and no `only`), face-up
    /// units in the build zones too.
    pub fn count_units(
        &self,
        f: &Filter,
        side: Side,
        src: Option<PieceIx>,
        only: Option<Arena>,
    ) -> i64 {
        (0..self.pieces.len())
            .filter(|&p| match self.pieces[p].zone {
                PZone::Arena(a) => only.is_none_or(|o| o == a) && !self.pieces[p].face_down,
                PZone::BuildZone => f.build_zone && only.is_none(),
                _ => false,
            })
            .filter(|&p| self.target_ok(f, side, src, p))
            .count() as i64
    }

    /// Whether a grant lasting this turn, of an effect of `side`, names unit
    /// `p`: whose, name, subtype and type.
    pub fn turn_grant_names(&self, f: &Filter, side: Side, p: PieceIx) -> bool {
        let whose = match f.whose {
            Whose::Your => self.pieces[p].side == side,
            Whose::Opponent => self.pieces[p].side != side,
            Whose::Any => true,
        };
        whose
            && name_ok(f, self.top_def(p))
            && f.subtype
                .as_ref()
                .is_none_or(|s| has_subtype(&self.subtypes(p), s))
            && f.r#type.is_none_or(|ty| self.has_type(p, ty))
    }

    /// Whether an ability works where its card is: abilities work in an
    /// arena (a Location's in play), a Reserves ability only in the build zone.
    pub fn works(&self, q: PieceIx, reserves: bool) -> bool {
        let pc = &self.pieces[q];
        if pc.face_down {
            return false;
        }
        match pc.zone {
            PZone::Arena(_) | PZone::Location(_) => !reserves,
            PZone::BuildZone => reserves,
            _ => false,
        }
    }
    /// Whether a static grant of the card on `q` gives unit `p` its bonus
    /// now: the ability works, the filter names `p`, and a grant "as long as
    /// it's attacking" this card only while `p` attacks `q`, and one "as
    /// long as it's attacking a [unit]" only while `p` attacks such a unit.
    fn grant_names(&self, g: &Grant, reserves: bool, q: PieceIx, p: PieceIx) -> bool {
        self.works(q, reserves)
            && self.matches(&g.to, q, p)
            && (!g.attacking_this || self.attack == Some((p, q)))
            && g.attacking.as_ref().is_none_or(|f| {
                self.attack
                    .is_some_and(|(a, d)| a == p && self.matches(f, q, d))
            })
            && g.while_location.as_ref().is_none_or(|s| {
                (0..self.pieces.len()).any(|l| {
                    matches!(self.pieces[l].zone, PZone::Location(_))
                        && has_subtype(&self.subtypes(l), s)
                })
            })
    }
    /// Static grants that name unit `p`, with their source.
    pub fn grants_to(&self, p: PieceIx) -> Vec<(PieceIx, &Grant)> {
        let mut out = Vec::new();
        for q in 0..self.pieces.len() {
            if self.pieces[q].zone == PZone::Gone || self.pieces[q].stack.is_empty() {
                continue;
            }
            for a in &self.top_def(q).abilities {
                if let Some(g) = &a.grant
                    && self.grant_names(g, a.reserves, q, p)
                {
                    out.push((q, g));
                }
            }
        }
        out
    }
    /// The Force the opponent must pay to attack unit `p` ("can't attack …
    /// unless he or she pays N Force"), from the static grants naming it.
    pub fn attack_cost(&self, p: PieceIx) -> i64 {
        self.grants_to(p).iter().map(|(_, g)| g.attack_cost).sum()
    }

    /// The build cost to complete the card on top of piece `p` (a face-down
    /// card): its printed cost with the cost changes granted to it, never below 0.
    pub fn deploy_cost(&self, p: PieceIx) -> i64 {
        let d = self.top_def(p);
        let free = d.kind == Kind::Unit
            && (self.turn_grants.iter()).any(|(side, g)| {
                g.free && self.turn_grant_names(&g.to, *side, p) && def_matches(&g.to, d)
            });
        if free {
            return 0;
        }
        let lasting = self.turn_grants.iter();
        let change: i64 = self.grants_to(p).iter().map(|(_, g)| g.cost).sum::<i64>()
            + lasting
                .filter(|(side, g)| self.turn_grant_names(&g.to, *side, p))
                .map(|(_, g)| g.cost)
                .sum::<i64>();
        (self.top_def(p).cost + change).max(0)
    }
    /// The build cost to deploy card `c` of player `w` from hand: its printed
    /// cost with the cost changes static grants give it, never below 0.
    pub fn hand_cost(&self, c: CardIx, w: Pid) -> i64 {
        let d = &self.defs[c];
        let mut change = 0;
        for q in 0..self.pieces.len() {
            if self.pieces[q].zone == PZone::Gone || self.pieces[q].stack.is_empty() {
                continue;
            }
            for a in &self.top_def(q).abilities {
                if let Some(g) = &a.grant
                    && g.cost != 0
                    && !g.counters_only
                    && self.works(q, a.reserves)
                    && self.names_card(&g.to, q, d, w)
                {
                    change += g.cost;
                }
            }
        }
        for (side, g) in &self.turn_grants {
            let whose = match g.to.whose {
                Whose::Your => w.side == *side,
                Whose::Opponent => w.side != *side,
                Whose::Any => true,
            };
            if g.free && d.kind == Kind::Unit && whose && def_matches(&g.to, d) {
                return 0;
            }
            if g.cost != 0 && !g.counters_only && whose && def_matches(&g.to, d) {
                change += g.cost;
            }
        }
        (d.cost + change).max(0)
    }

    /// Whether a filter of an ability on `src` names a card of player `w`
    /// that is not in play (no arena, no Equipment, not the source itself).
    fn names_card(&self, f: &Filter, src: PieceIx, d: &CardDef, w: Pid) -> bool {
        let whose = match f.whose {
            Whose::Your => self.is_you(src, w.side, w.p),
            Whose::Opponent => w.side != self.pieces[src].side,
            Whose::Any => true,
        };
        whose && def_matches(f, d)
    }

    /// A unit's totals: printed values of the top card, +10 speed, +1 power,
    /// +1 health and +1 build for each version beneath it, Pilots,
    /// untapped Equipment, static grants and effects until end of battle.
    pub fn totals(&self, p: PieceIx) -> Totals {
        let pc = &self.pieces[p];
        let d = self.top_def(p);
        let under = pc.stack.len() as i64 - 1;
        let mut t = Totals {
            speed: d.speed + 10 * under + pc.speed_mod,
            power: d.power + under + pc.power_mod,
            health: d.health + under,
            build: d.cost + under,
            kw: Kw::default(),
        };
        t.kw.add(&d.keywords);
        if !matches!(pc.zone, PZone::Arena(_)) {
            return t;
        }
        for q in 0..self.pieces.len() {
            match self.pieces[q].zone {
                PZone::Pilot(h) if h == p => self.add_pilot(q, p, &mut t),
                PZone::Attached(h) if h == p && !self.pieces[q].tapped => {
                    let e = self.top_def(q);
                    t.speed += e.speed;
                    t.power += e.power;
                    t.health += e.health;
                    t.kw.add(&e.keywords);
                }
                PZone::Gone => continue,
                _ => {}
            }
            if self.pieces[q].face_down || self.pieces[q].stack.is_empty() {
                continue;
            }
            for a in &self.top_def(q).abilities {
                if let Some(g) = &a.grant
                    && self.grant_names(g, a.reserves, q, p)
                {
                    let k = if g.per_damage_counter { pc.damage } else { 1 };
                    t.speed += g.speed * k;
                    t.power += g.power * k;
                    t.health += g.health * k;
                    t.kw.add(&g.keywords);
                    t.kw.cant_use_evade |= g.cant_use_evade;
                }
            }
        }
        let fixed = self.fixed_grants.iter().filter(|(q, _)| *q == p);
        let lasting = (self.turn_grants.iter())
            .filter(|(side, g)| self.turn_grant_names(&g.to, *side, p))
            .map(|(_, g)| g);
        for g in lasting.chain(fixed.map(|(_, g)| g)) {
            t.speed += g.speed;
            t.power += g.power;
            t.health += g.health;
            t.kw.add(&g.keywords);
        }
        for (_, b) in self.attack_bonuses.iter().filter(|(q, _)| *q == p) {
            t.speed += b.speed;
            t.power += b.power;
            t.health += b.health;
            t.kw.add(&b.keywords);
        }
        if let (Some(sw), PZone::Arena(a)) = (&d.switch, pc.zone)
            && let Some(Some(b)) = d.types.iter().position(|&x| x == a).and_then(|i| sw.get(i))
        {
            t.speed += b.speed;
            t.power += b.power;
            t.health += b.health;
            t.kw.add(&b.keywords);
        }
        t
    }

    fn add_pilot(&self, q: PieceIx, p: PieceIx, t: &mut Totals) {
        {
            if let Some(pd) = &self.top_def(q).pilot
                && self.can_pilot(q, p)
                && (!pd.with_another_pilot || self.riders(p, true).len() > 1)
            {
                t.speed += pd.speed;
                t.power += pd.power;
                t.health += pd.health;
                t.kw.add(&pd.keywords);
                if let Some(w) = &pd.while_attacking
                    && self
                        .attack
                        .is_some_and(|(a, d)| a == p && self.matches(&w.of, p, d))
                {
                    t.speed += w.gets.speed;
                    t.power += w.gets.power;
                    t.health += w.gets.health;
                    t.kw.add(&w.gets.keywords);
                }
            }
        }
    }
    /// Whether Pilot piece `pilot` can pilot unit `unit` (subtype, or "as if it were").
    pub fn can_pilot(&self, pilot: PieceIx, unit: PieceIx) -> bool {
        let Some(pd) = &self.top_def(pilot).pilot else {
            return false;
        };
        let u = self.top_def(unit);
        !has_subtype(&u.subtypes, "Droid")
            && !u.types.contains(&Arena::Character)
            && std::iter::once(&pd.subtype)
                .chain(&pd.or_subtypes)
                .any(|s| has_subtype(&u.subtypes, s) || u.pilotable_as.as_deref() == Some(s))
    }
    pub fn remaining_health(&self, p: PieceIx) -> i64 {
        self.totals(p).health - self.pieces[p].damage
    }
    /// Who controls an arena: units there and none of the opponent's,
    /// counting only units that count toward controlling it.
    pub fn controller(&self, a: Arena) -> Option<Side> {
        let counts =
            |s: Side| (self.units_in(a, s).iter()).any(|&p| !self.top_def(p).no_arena_control);
        let (d, l) = (counts(Side::Dark), counts(Side::Light));
        match (d, l) {
            (true, false) => Some(Side::Dark),
            (false, true) => Some(Side::Light),
            _ => None,
        }
    }
    pub fn player(&self, who: impl Into<Pid>) -> &Player {
        &self.players[who.into().ix()]
    }
    pub fn player_mut(&mut self, who: impl Into<Pid>) -> &mut Player {
        &mut self.players[who.into().ix()]
    }
    /// The players of a side: one, or a team's two.
    pub fn pids(&self, side: Side) -> impl Iterator<Item = Pid> + use<> {
        let n = if self.team { 2 } else { 1 };
        (0..n).map(move |p| Pid { side, p })
    }
    /// The player who controls a piece.
    pub fn pid_of(&self, p: PieceIx) -> Pid {
        Pid {
            side: self.pieces[p].side,
            p: self.pieces[p].player,
        }
    }
    /// The player whose hand, deck, discard pile or Resource zone holds a card.
    pub fn holder(&self, c: CardIx) -> Option<Pid> {
        Side::BOTH
            .into_iter()
            .flat_map(|s| self.pids(s))
            .find(|&w| {
                let pl = self.player(w);
                pl.hand.contains(&c)
                    || pl.deck.contains(&c)
                    || pl.discard.contains(&c)
                    || pl.resource == Some(c)
            })
    }
    /// A player, in words: "the Dark Side", or "player A of the Dark Side".
    pub fn who(&self, w: Pid) -> String {
        if self.team {
            format!("player {} of {}", w.letter().to_uppercase(), w.side.name())
        } else {
            w.side.name().to_string()
        }
    }
    /// Where a card is, as observed: `dark.space`, `light.hand`, `dark.pilot`…
    pub fn where_is(&self, c: CardIx) -> String {
        if let Some(p) = self.piece_of(c) {
            let pc = &self.pieces[p];
            let z = match pc.zone {
                PZone::Arena(a) => a.as_str(),
                PZone::BuildZone => "build_zone",
                PZone::Pilot(_) => "pilot",
                PZone::Attached(_) => "equipment",
                PZone::Location(_) => "location",
                PZone::Gone => "gone",
            };
            return format!("{}.{z}", pc.side.as_str());
        }
        let Some(w) = self.holder(c) else {
            return if self.removed.contains(&c) {
                "removed".into()
            } else {
                "nowhere".into()
            };
        };
        let pl = self.player(w);
        let name = if pl.hand.contains(&c) {
            "hand"
        } else if pl.deck.contains(&c) {
            "deck"
        } else if pl.discard.contains(&c) {
            "discard"
        } else {
            "resource"
        };
        if self.team {
            format!("{}.{}.{name}", w.side.as_str(), w.letter())
        } else {
            format!("{}.{name}", w.side.as_str())
        }
    }
    /// Cards of a pile, as keys.
    pub fn keys_of(&self, cs: &[CardIx]) -> Vec<String> {
        cs.iter().map(|&c| self.keys[c].clone()).collect()
    }
    /// Discard a piece and everything with it (Equipment returns to the build
    /// zone). Each card goes to its owner's discard pile (Owner Overrides).
    pub fn discard_piece(&mut self, p: PieceIx) {
        for q in self.riders(p, false) {
            self.pieces[q].zone = PZone::BuildZone;
        }
        for q in self.riders(p, true) {
            self.discard_piece(q);
        }
        let cards = self.pieces[p].stack.clone();
        for c in cards {
            let o = self.owner[c];
            self.player_mut(o).discard.push(c);
        }
        self.pieces[p].zone = PZone::Gone;
        self.pieces[p].damage = 0;
    }
    /// Return a piece and all cards stacked with it (Pilots, Equipment) to
    /// their owners' hands.
    pub fn return_to_hand(&mut self, p: PieceIx) {
        for q in self
            .riders(p, false)
            .into_iter()
            .chain(self.riders(p, true))
        {
            self.return_to_hand(q);
        }
        let cards = self.pieces[p].stack.clone();
        for c in cards {
            let o = self.owner[c];
            self.player_mut(o).hand.push(c);
        }
        self.pieces[p].zone = PZone::Gone;
        self.pieces[p].damage = 0;
    }
}

/// Build the state from a board (names have been checked by the loader).
pub fn setup(b: &Board) -> State {
    let team = b.format == Format::TwoHeadedWookiee;
    let mut st = State {
        keys: b.cards.keys().cloned().collect(),
        defs: b.cards.values().map(|d| d.value.clone()).collect(),
        pieces: Vec::new(),
        players: Default::default(),
        owner: vec![Pid::from(Side::Dark); b.cards.len()],
        team,
        gained: vec![Vec::new(); b.cards.len()],
        turn_grants: Vec::new(),
        fixed_grants: Vec::new(),
        attack: None,
        attack_bonuses: Vec::new(),
        no_evade_from: Vec::new(),
        last_attack: None,
        removed: Vec::new(),
        attack_dice: None,
        discard_if_damaged: false,
    };
    for (side, pb) in [(Side::Dark, &b.dark), (Side::Light, &b.light)] {
        let ids = |v: &Vec<serde_saphyr::Spanned<String>>, st: &State| -> Vec<CardIx> {
            v.iter().filter_map(|k| st.find(&k.value)).collect()
        };
        for w in st.pids(side) {
            let pools = pb.pools(w.p);
            let pl = Player {
                force: pools.force,
                build: pools.build,
                hand: ids(&pools.hand, &st),
                deck: ids(&pools.deck, &st),
                discard: ids(&pools.discard, &st),
                resource: pools.resource.as_ref().and_then(|k| st.find(&k.value)),
                bounty: Cost::default(),
            };
            let listed: Vec<CardIx> = pl
                .hand
                .iter()
                .chain(&pl.deck)
                .chain(&pl.discard)
                .chain(&pl.resource)
                .copied()
                .collect();
            for c in listed {
                st.owner[c] = w;
            }
            st.players[w.ix()] = pl;
        }
        for (zone, list) in [
            (PZone::Arena(Arena::Space), &pb.space),
            (PZone::Arena(Arena::Ground), &pb.ground),
            (PZone::Arena(Arena::Character), &pb.character),
            (PZone::BuildZone, &pb.build_zone),
        ] {
            for u in list {
                place(&mut st, side, zone, u);
            }
        }
        for u in &pb.locations {
            let arena = st
                .find(&u.card.value)
                .and_then(|c| u.location_arena(st.def(c)))
                .unwrap_or(Arena::Space);
            place(&mut st, side, PZone::Location(arena), u);
        }
    }
    st
}

fn new_piece(st: &mut State, side: Side, zone: PZone, stack: Vec<CardIx>) -> PieceIx {
    st.pieces.push(Piece {
        stack,
        side,
        zone,
        tapped: false,
        damage: 0,
        face_down: false,
        counters: 0,
        power_mod: 0,
        speed_mod: 0,
        moved: false,
        equipped: false,
        returns_to: None,
        player: 0,
    });
    st.pieces.len() - 1
}

fn place(st: &mut State, side: Side, zone: PZone, u: &UnitBoard) -> Option<PieceIx> {
    let mut stack = vec![st.find(&u.card.value)?];
    stack.extend(u.under.iter().filter_map(|k| st.find(&k.value)));
    let player = u8::from(u.player.as_ref().is_some_and(|s| s.value == "b"));
    let w = Pid { side, p: player };
    for &c in &stack {
        st.owner[c] = w;
    }
    let p = new_piece(st, side, zone, stack);
    {
        let pc = &mut st.pieces[p];
        pc.tapped = u.tapped;
        pc.damage = u.damage;
        pc.face_down = u.face_down;
        pc.counters = u.counters;
        pc.player = player;
    }
    for (list, zone) in [
        (&u.pilots, PZone::Pilot(p)),
        (&u.equipment, PZone::Attached(p)),
    ] {
        for stack in list {
            let cs: Vec<CardIx> = stack.iter().filter_map(|k| st.find(&k.value)).collect();
            for &c in &cs {
                st.owner[c] = w;
            }
            if !cs.is_empty() {
                let q = new_piece(st, side, zone, cs);
                st.pieces[q].player = player;
            }
        }
    }
    Some(p)
}

/// Make a new piece (a card completed or deployed), controlled by `who`.
pub fn add_piece(st: &mut State, who: impl Into<Pid>, zone: PZone, c: CardIx) -> PieceIx {
    let w = who.into();
    let p = new_piece(st, w.side, zone, vec![c]);
    st.pieces[p].player = w.p;
    p
}

/// Whether a card kind has a build cost (and can be built).
pub fn buildable(k: Kind) -> bool {
    !matches!(k, Kind::Battle)
}
