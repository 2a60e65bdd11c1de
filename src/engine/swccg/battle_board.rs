//! Battles and Force drains on the board engine's state: the cards at a
//! location (and aboard them) become a [`Battle`] or a [`Drain`], which is
//! resolved by [`battle::resolve`] / [`drain::resolve`]; what happened is
//! applied back to the state (cards lost, Force lost).
//!
//! Read from the board, as it stands on every read: power, ability, forfeit,
//! armor, maneuver, the first defense value, immunity to attrition, piloting
//! bonuses (`piloting`), permanent pilots (`permanent_pilot`), the `presence`
//! icon, the `light_force` / `dark_force` icons of a location, the game-text
//! modifiers of the cards on table, each player's Reserve Deck (top first) and
//! Force Pile. Each battle card carries the board card it is ([`Card::ix`]):
//! results are applied back to the board by that index.

use super::battle::{self, Battle, Card, DeckCard, DestinyValues, Kind, Reserves, Role, Script};
use super::capacity::Seat;
use super::drain::{self, Drain, DrainCard};
use super::stack::BattleDraw;
use super::state::{CardIx, State, Zone};
use super::statics::{Static, pick};
use super::text_when;
use crate::engine::Cited;

use super::stack::PowerDraw as Drawn;
use crate::engine::swccg::model::{CardState, CardType, PileName, Side as BoardSide, Verb};

/// A card's name in a battle or drain and its trace: its title, or, when another card
/// of the board has the same title, the title with its key (`Stormtrooper (t1)`).
pub fn battle_name(st: &State, c: CardIx) -> String {
    let title = st.title(c);
    if (0..st.cards.len()).any(|x| x != c && st.title(x) == title) {
        format!("{title} ({})", st.key(c))
    } else {
        title.to_string()
    }
}

/// Battle names (see [`battle_name`]) for many cards: which titles more than one card
/// of the board has is worked out once, in one pass.
pub struct BattleNames<'a> {
    st: &'a State,
    shared: Vec<bool>,
}

impl<'a> BattleNames<'a> {
    pub fn of(st: &'a State) -> BattleNames<'a> {
        let mut order: Vec<CardIx> = (0..st.cards.len()).collect();
        order.sort_unstable_by(|&a, &b| st.title(a).cmp(st.title(b)));
        let mut shared = vec![false; st.cards.len()];
        for w in order.windows(2) {
            if st.title(w[0]) == st.title(w[1]) {
                shared[w[0]] = true;
                shared[w[1]] = true;
            }
        }
        BattleNames { st, shared }
    }

    pub fn get(&self, c: CardIx) -> String {
        if self.shared[c] {
            format!("{} ({})", self.st.title(c), self.st.key(c))
        } else {
            self.st.title(c).to_string()
        }
    }
}

/// The cards at the battle location that arrived after the battle's power segment
/// began (or left and returned): not participating (AR Participating In Battle).
pub fn late_arrivals(st: &State, at: usize, entry: &super::stack::Entry) -> Vec<CardIx> {
    let Some(roster) = &entry.roster else {
        return Vec::new();
    };
    cards_at(st, at)
        .into_iter()
        .filter(|&c| !roster.contains(&(c, st.entered[c])))
        .collect()
}

/// Active cards at location `at`, with the cards on them, in board order.
pub fn cards_at(st: &State, at: usize) -> Vec<CardIx> {
    fn host_at(st: &State, c: CardIx, at: usize, depth: u8) -> bool {
        match st.zone[c] {
            Zone::At(l) => l == at,
            Zone::On(h) if depth < 8 => host_at(st, h, at, depth + 1),
            _ => false,
        }
    }
    (0..st.cards.len())
        .filter(|&c| host_at(st, c, at, 0) && st.card_state[c] == CardState::Active)
        .collect()
}

fn kind(t: CardType) -> Option<Kind> {
    match t {
        CardType::Character => Some(Kind::Character),
        CardType::Starship => Some(Kind::Starship),
        CardType::Vehicle => Some(Kind::Vehicle),
        CardType::Weapon => Some(Kind::Weapon),
        CardType::Device => Some(Kind::Device),
        CardType::Creature => Some(Kind::Creature),
        _ => None,
    }
}

fn deck(st: &State, s: BoardSide, names: &BattleNames) -> Vec<DeckCard> {
    st.pile(s, PileName::ReserveDeck)
        .iter()
        .map(|&c| DeckCard {
            name: {
                if st.def(c).face_down.is_some() {
                    let _ = st.identity_read.set(c);
                }
                names.get(c)
            },
            destiny: match st.def(c).stats.destiny_values.as_slice() {
                [] => DestinyValues::One(st.def(c).stats.destiny.unwrap_or(0)),
                many => DestinyValues::Many(many.to_vec()),
            },
            canceled_by: None,
        })
        .collect()
}

/// The destiny values a battle draws from: each side's Reserve Deck, or, once its battle
/// destinies were drawn on the stack, the values drawn there (a failed draw ends them; a
/// draw canceled there is drawn canceled: it counts, and has no value).
fn decks(st: &State, drawn: Option<&[Drawn]>, names: &BattleNames) -> Reserves {
    let side = |s: BoardSide| match drawn {
        None => deck(st, s, names),
        Some(d) => {
            let mut k = [0usize; 3];
            d.iter()
                .filter(|x| x.side == s)
                .take_while(|x| x.made())
                .map(|x| {
                    k[x.kind as usize] += 1;
                    DeckCard {
                        name: format!(
                            "{} {} destiny {}",
                            s.name(),
                            x.kind.as_str(),
                            k[x.kind as usize]
                        ),
                        destiny: DestinyValues::One(x.value.unwrap_or(0)),
                        canceled_by: x.canceled_by.clone(),
                    }
                })
                .collect()
        }
    };
    Reserves {
        light: side(BoardSide::Light),
        dark: side(BoardSide::Dark),
    }
}

/// The battle at location `at`, initiated by `initiator`, as the board shows it.
pub fn battle_from_state(st: &State, at: usize, initiator: BoardSide) -> Battle {
    battle_with(st, at, initiator, None, &[], &[], &[])
}

/// The battle at `at` as the board stands now (cards that already battled this turn,
/// weapon hits).
pub fn battle_now(
    st: &State,
    at: usize,
    initiator: BoardSide,
    battled: &[CardIx],
    hits: &[(CardIx, bool)],
    excluded: &[CardIx],
) -> Battle {
    battle_with(st, at, initiator, None, battled, hits, excluded)
}

/// The battle at `at`; `battled`: cards that already battled this turn (they do not
/// participate again).
fn battle_with(
    st: &State,
    at: usize,
    initiator: BoardSide,
    drawn: Option<&[Drawn]>,
    battled: &[CardIx],
    hits: &[(CardIx, bool)],
    excluded: &[CardIx],
) -> Battle {
    let names = BattleNames::of(st);
    // A besieged battle: only its characters (and cards on them), as if at a site.
    let siege = super::besieged::siege_at(st, at);
    let mut cards = Vec::new();
    for c in cards_at(st, at) {
        if super::battle_arrive::is_excluded(st, c, excluded)
            || siege.is_some_and(|s| !super::besieged::in_siege(st, s, c))
        {
            continue;
        }
        let d = st.def(c);
        let Some(k) = kind(d.card_type) else { continue };
        let aboard = match st.zone[c] {
            Zone::On(h)
                if siege.is_none()
                    && matches!(st.def(h).card_type, CardType::Starship | CardType::Vehicle) =>
            {
                Some(names.get(h))
            }
            _ => None,
        };
        if k == Kind::Weapon || k == Kind::Device {
            // Weapons and devices add no power; they are listed for completeness.
        }
        let pilot = d.stats.piloting.is_some()
            || d.keywords.iter().any(|k| k.eq_ignore_ascii_case("pilot"));
        cards.push(Card {
            name: names.get(c),
            title: Some(d.title.clone()),
            side: d.side,
            kind: k,
            power: d.stats.power,
            ability: d.stats.ability,
            forfeit: d.stats.forfeit,
            armor: d.stats.armor,
            maneuver: d.stats.maneuver,
            defense: d.stats.defense.values().next().copied(),
            ferocity: None,
            immune_to_attrition: d.stats.immune_to_attrition,
            adds_power_piloting: d.stats.piloting,
            permanent_pilot: d.stats.permanent_pilot,
            permanent_pilot_power: d.stats.permanent_pilot_power,
            aboard: aboard.clone(),
            role: match super::capacity::seat(st, c) {
                Some(Seat::Pilot) => Role::Pilot,
                Some(Seat::Driver) => Role::Driver,
                Some(Seat::Passenger) => Role::Passenger,
                None if aboard.is_some() && !pilot => Role::Passenger,
                None => Role::Pilot,
            },
            enclosed: super::prepositions::enclosed(st, c),
            presence_icon: d
                .stats
                .icons
                .iter()
                .any(|i| i.eq_ignore_ascii_case("presence")),
            draws_if_unable: d.stats.draws_if_unable,
            zeroes_lower_single_destiny: d
                .has_static(|s| matches!(s, Static::ZeroesLowerSingleDestiny)),
            battled_this_turn: battled.contains(&c),
            elsewhere: false,
            hit: hits.iter().any(|h| h.0 == c),
            forfeit_zero: hits.iter().any(|h| h.0 == c && h.1),
            ix: Some(c),
        });
    }
    conditional_draws(st, &mut cards, initiator);
    let text_conds = text_conditions(st, &cards, initiator);
    let modifiers = card_modifiers(st, at, &cards, &names, initiator);
    Battle {
        location: st.locations[at].title.clone(),
        site: siege.is_some()
            || !matches!(
                st.locations[at].geo.kind,
                Some(
                    crate::engine::swccg::model::LocKind::System
                        | crate::engine::swccg::model::LocKind::Sector
                )
            ),
        initiator,
        cards,
        modifiers,
        conditions: st.locations[at]
            .geo
            .battle_conditions
            .iter()
            .map(|c| battle::Condition {
                source: st.locations[at].title.clone(),
                side: c.side,
                min_ability: c.min_ability,
            })
            .chain(text_conds)
            .collect(),
        raises: super::ability_required::raises(st, at),
        reserve: decks(st, drawn, &names),
        // The action is on the stack: its cost was paid when it was initiated.
        force_pile: None,
    }
}

/// The game-text modifiers of the cards on table that apply in a battle at `at`, as
/// the board stands now (never cached: a card that left, or a required card that does
/// not participate, gives none).
fn card_modifiers(
    st: &State,
    at: usize,
    cards: &[Card],
    names: &BattleNames,
    initiator: BoardSide,
) -> Vec<battle::ModSpec> {
    let mut here = cards_at(st, at);
    if let Some(s) = super::besieged::siege_at(st, at) {
        here.retain(|&c| super::besieged::in_siege(st, s, c));
    }
    let participants = participants(cards);
    let listed = listed(cards);
    let mut out = Vec::new();
    for c in 0..st.cards.len() {
        let d = st.def(c);
        if d.modifiers.is_empty() || !st.active(c) {
            continue;
        }
        let key = names.get(c);
        let key = key.as_str();
        let participates = cards.iter().any(|x| x.ix == Some(c));
        for m in &d.modifiers {
            if !(m.anywhere || here.contains(&c)) {
                continue;
            }
            let in_battle = text_when::InBattle {
                participants: &participants,
                listed: &listed,
                destinies: destiny_count(&m.target),
                initiator,
            };
            if !text_when::holds(st, c, &m.when, Some(in_battle)) {
                continue;
            }
            let this = |n: &String| {
                text_when::resolve(st, c, n).map_or_else(|| n.clone(), |x| names.get(x))
            };
            let mut requires: Vec<String> = m.requires.iter().map(this).collect();
            if participates && !m.anywhere && !requires.iter().any(|r| r == key) {
                requires.push(key.to_string());
            }
            let owner = d.side;
            let each: Vec<String> = match &m.each {
                Some(e) => text_when::each(st, c, e)
                    .into_iter()
                    .map(|x| names.get(x))
                    .collect(),
                None => Vec::new(),
            };
            for target in modifier_targets(&m.target, this, &each) {
                out.push(battle::ModSpec {
                    source: d.title.clone(),
                    side: match m.side {
                        Some(crate::engine::swccg::model::Who::Opponent) => owner.other(),
                        None | Some(crate::engine::swccg::model::Who::You) => owner,
                    },
                    target,
                    op: m.op,
                    optional: false,
                    cumulative: m.cumulative,
                    requires: requires.clone(),
                    cite: None,
                });
            }
        }
    }
    out
}

/// "When piloting Red 2, … draws one battle destiny if not able to otherwise": a
/// card's conditional text, read for each card of the battle that has no such
/// printed number.
fn conditional_draws(st: &State, cards: &mut [Card], initiator: BoardSide) {
    let participants = participants(cards);
    let listed = listed(cards);
    for card in cards.iter_mut() {
        let Some(c) = card.ix else { continue };
        if card.draws_if_unable.is_some() {
            continue;
        }
        let b = text_when::InBattle {
            participants: &participants,
            listed: &listed,
            destinies: true,
            initiator,
        };
        card.draws_if_unable = st
            .def(c)
            .static_list(pick!(Static::DrawsIfUnable))
            .iter()
            .find(|x| text_when::holds(st, c, &x.when, Some(b)))
            .map(|x| x.draws);
    }
}

/// "Total ability of 6 or more required for opponent to draw battle destiny here": the
/// text of a card taking part in the battle, while its conditions hold.
fn text_conditions(st: &State, cards: &[Card], initiator: BoardSide) -> Vec<battle::Condition> {
    let participants = participants(cards);
    let listed = listed(cards);
    let b = text_when::InBattle {
        participants: &participants,
        listed: &listed,
        destinies: true,
        initiator,
    };
    participants
        .iter()
        .filter_map(|&c| {
            let r = st.def(c).find_static(pick!(Static::AbilityRequired))?;
            text_when::holds(st, c, &r.when, Some(b)).then(|| battle::Condition {
                source: st.title(c).to_string(),
                side: st.owner(c).other(),
                min_ability: r.min_ability,
            })
        })
        .collect()
}

/// The board cards that take part in the battle (not those that battled earlier this
/// turn, nor those elsewhere).
/// Every card a battle lists (excluded cards are not listed).
fn listed(cards: &[Card]) -> Vec<CardIx> {
    cards.iter().filter_map(|x| x.ix).collect()
}

fn participants(cards: &[Card]) -> Vec<CardIx> {
    cards
        .iter()
        .filter(|x| !x.battled_this_turn && !x.elsewhere)
        .filter_map(|x| x.ix)
        .collect()
}

/// Is the value a number of destinies (whose adders must participate in the battle)?
fn destiny_count(t: &battle::Target) -> bool {
    matches!(
        t,
        battle::Target::BattleDestinies
            | battle::Target::PowerDestinies
            | battle::Target::AttritionDestinies
            | battle::Target::EachBattleDestiny
            | battle::Target::TotalBattleDestiny
    )
}

/// The battle targets a modifier's target means: its card named relative to the
/// source (`this`, `piloted`), or one per card of `each`.
fn modifier_targets(
    t: &battle::Target,
    name: impl Fn(&String) -> String,
    each: &[String],
) -> Vec<battle::Target> {
    use battle::Target as T;
    let per = |n: &String, f: &dyn Fn(String) -> T| -> Vec<T> {
        if n == text_when::EACH {
            each.iter().cloned().map(f).collect()
        } else {
            vec![f(name(n))]
        }
    };
    match t {
        T::Power(n) => per(n, &T::Power),
        T::Ability(n) => per(n, &T::Ability),
        T::Forfeit(n) => per(n, &T::Forfeit),
        T::Defense(n) => per(n, &T::Defense),
        T::Immunity(n) => per(n, &T::Immunity),
        T::Armor(n) => per(n, &T::Armor),
        T::Maneuver(n) => per(n, &T::Maneuver),
        T::Hyperspeed(n) => per(n, &T::Hyperspeed),
        T::Landspeed(n) => per(n, &T::Landspeed),
        T::Deploy(n) => per(n, &T::Deploy),
        T::Destiny(n) => per(n, &T::Destiny),
        T::Politics(n) => per(n, &T::Politics),
        T::TotalPower
        | T::BattleDestinies
        | T::PowerDestinies
        | T::AttritionDestinies
        | T::EachBattleDestiny
        | T::TotalBattleDestiny
        | T::Attrition
        | T::BattleDamage
        | T::BattleCost
        | T::EachDestiny
        | T::TotalDestiny => vec![t.clone()],
    }
}

impl super::engine::Engine {
    /// Pay the Force `p` uses to initiate the battle at `at`, tracing how much
    /// it is and why (AR: Initiate The Battle).
    pub(super) fn pay_battle_cost(&mut self, p: BoardSide, at: usize) {
        use super::values::cite;
        use crate::engine::{Actor, Event};
        let cost = battle_cost(&self.st, at, p);
        self.log(
            Actor::Rules,
            Event::Result,
            cost.to_string(),
            &[cite::INITIATE_BATTLE],
        );
        let n = u32::try_from(cost.or_zero()).unwrap_or(0);
        if n > 0 {
            self.pay_use(p, n, "to initiate the battle");
        }
    }
}

/// The Force `by` uses to initiate a battle at `at`: 1, with the `battle_cost`
/// modifiers of the cards on table that apply there (AR: Initiate The Battle).
pub fn battle_cost(st: &State, at: usize, by: BoardSide) -> super::values::Total {
    battle::cost(&battle_from_state(st, at, by))
}

/// The Force drain at location `at` by `drainer`, as the board shows it.
pub fn drain_from_state(st: &State, at: usize, drainer: BoardSide) -> Drain {
    let opp = drainer.other();
    let icon = match opp {
        BoardSide::Light => "light_force",
        BoardSide::Dark => "dark_force",
    };
    let icons = st.locations[at]
        .icons
        .iter()
        .filter(|i| i.eq_ignore_ascii_case(icon))
        .count() as i64;
    let names = BattleNames::of(st);
    let cards = cards_at(st, at)
        .into_iter()
        .map(|c| {
            let d = st.def(c);
            DrainCard {
                name: names.get(c),
                side: d.side,
                ability: d.stats.ability,
                presence_icon: d
                    .stats
                    .icons
                    .iter()
                    .any(|i| i.eq_ignore_ascii_case("presence")),
                undercover: st.undercover(c),
                may_force_drain: false,
                drained_this_turn: false,
                aboard: match st.zone[c] {
                    Zone::On(h) => Some(names.get(h)),
                    _ => None,
                },
                enclosed: super::prepositions::enclosed(st, c),
                permanent_pilot: d.stats.permanent_pilot,
            }
        })
        .collect();
    let mut d = Drain {
        name: None,
        location: st.locations[at].title.clone(),
        drainer,
        icons,
        cards,
        modifiers: Vec::new(),
        canceling: Vec::new(),
        not_modified_by_opponent: None,
        not_canceled: None,
        prevented: None,
        responses: Vec::new(),
        force_pile: None,
        lose_from: None,
    };
    drain_texts(st, at, &mut d, &names);
    d
}

/// The Force drain text of the location and of the cards on table that applies to
/// `d` (a card's at the drain location, or anywhere with `anywhere:`), as the board
/// stands now.
fn drain_texts(st: &State, at: usize, d: &mut Drain, names: &BattleNames) {
    use crate::engine::swccg::model::{DrainText, Who};
    let here = cards_at(st, at);
    let loc = &st.locations[at];
    let mut texts: Vec<(String, BoardSide, &DrainText)> = Vec::new();
    for t in &loc.geo.drain {
        if let Some(s) = t.side {
            texts.push((loc.title.clone(), s, t));
        }
    }
    for c in 0..st.cards.len() {
        let def = st.def(c);
        if def.drain.is_empty()
            || !st.active(c)
            || !matches!(st.zone[c], Zone::At(_) | Zone::On(_) | Zone::Table)
        {
            continue;
        }
        for t in &def.drain {
            let reaches = (t.at.is_empty() || t.at.contains(&loc.name))
                && (!t.related_to_target || super::location_target::related_to_target(st, c, at));
            if reaches && (t.anywhere || here.contains(&c)) {
                texts.push((names.get(c), t.side.unwrap_or(def.side), t));
            }
        }
    }
    for (source, owner, t) in texts {
        let unmet = (!super::text_when::holds_here(st, at, owner, &t.when))
            .then(|| "its condition, which does not hold here".to_string());
        let whose = match t.whose {
            Some(Who::Opponent) => owner.other(),
            None | Some(Who::You) => owner,
        };
        if whose != d.drainer
            || !(t.while_controls.is_empty() || super::control::holds(st, owner, &t.while_controls))
        {
            continue;
        }
        if t.not_modified_by_opponent {
            d.not_modified_by_opponent = Some(source.clone());
        }
        if t.not_canceled {
            d.not_canceled = Some(source.clone());
        }
        if t.may_force_drain {
            drain::allow_drain(d, &source);
        }
        if let Some(c) = t.cancels {
            d.canceling.push(drain::CancelMods {
                source: source.clone(),
                cancels: c,
            });
        }
        if let Some(op) = t.op {
            d.modifiers.push(drain::DrainMod {
                source,
                owner,
                target: t.target,
                op,
                unmet,
                requires: t
                    .requires
                    .iter()
                    .map(|k| st.find(k).map_or_else(|| k.clone(), |c| names.get(c)))
                    .collect(),
            });
        }
    }
}

/// What the board engine must do after a battle or drain resolved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Applied {
    /// Trace lines with their citations.
    pub lines: Vec<Cited>,
    /// Destiny cards drawn from the Reserve Decks, in draw order: each goes
    /// to its owner's Used Pile.
    pub destiny_drawn: Vec<CardIx>,
    /// Cards to place in their owner's Lost Pile (forfeited or lost).
    pub lost: Vec<CardIx>,
    /// Cards placed out of play.
    pub out_of_play: Vec<CardIx>,
    /// Force each side must lose (Light, Dark).
    pub force_lost: [i64; 2],
    /// A choice the board script cannot give: (player, what).
    pub needs: Option<(BoardSide, String)>,
    /// The board does not allow the action it has on the stack (no presence,
    /// no control, a drain prevented...): the result cannot be computed.
    pub unresolvable: Option<String>,
    /// The numbers judges ask about, by path below `numbers.<label>.`
    /// (`light.total_power`, `winner`, `amount`...); `null` where a value does not exist.
    pub numbers: Vec<(String, serde_json::Value)>,
    /// A battle that reached its damage segment: what each side must satisfy.
    pub damage: Option<battle::DamageStart>,
    /// The battle's winner, if any.
    pub winner: Option<BoardSide>,
}

/// Resolves the battle at `at` on the board state with the players' choices and the
/// battle destinies drawn on the stack.
pub fn resolve_battle(
    st: &State,
    at: usize,
    initiator: BoardSide,
    script: &Script,
    entry: &super::stack::Entry,
    battled: &[CardIx],
) -> Applied {
    let (drawn, fewer, hits) = (&entry.drawn[..], &entry.fewer[..], &entry.hits[..]);
    let late = late_arrivals(st, at, entry);
    let mut out = entry.excluded.clone();
    out.extend(&late);
    let mut b = battle_with(st, at, initiator, Some(drawn), battled, hits, &out);
    b.modifiers.extend(entry.played_mods.iter().cloned());
    for (s, v, source) in &entry.power_adds {
        b.modifiers.push(battle::ModSpec {
            source: source.clone(),
            side: *s,
            target: battle::Target::TotalPower,
            op: battle::OpSpec::Add(*v),
            optional: false,
            cumulative: true,
            requires: Vec::new(),
            cite: None,
        });
    }
    for &(s, k) in fewer {
        b.modifiers.push(battle::ModSpec {
            source: format!("{} chooses to draw {k}", s.name()),
            side: s,
            target: battle::Target::BattleDestinies,
            op: battle::OpSpec::Limit(k as i64),
            optional: false,
            cumulative: true,
            requires: Vec::new(),
            cite: None,
        });
    }
    let o = battle::resolve_to_damage(&b, script);
    let mut a = Applied {
        lines: late
            .iter()
            .map(|&c| {
                Cited::new(
                    format!(
                        "{} arrived after the power segment began: not participating",
                        battle_name(st, c)
                    ),
                    &[super::values::cite::PARTICIPATING],
                )
            })
            // The initiation, its cost and the weapons segment were traced on
            // the board as they happened.
            .chain(
                o.lines
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !o.initiation_lines().contains(i))
                    .map(|(_, l)| l.clone()),
            )
            .collect(),
        ..Applied::default()
    };
    if let Some(why) = &o.not_initiated {
        a.unresolvable = Some(why.clone());
        return a;
    }
    battle_numbers(&o, &mut a.numbers);
    a.damage = o.damage.clone();
    a.winner = o.winner;
    // The battle destinies were drawn on the stack, their cards already placed.
    let supplied = |s: BoardSide| {
        drawn
            .iter()
            .filter(|x| x.side == s)
            .take_while(|x| x.made())
            .count()
    };
    for s in [BoardSide::Light, BoardSide::Dark] {
        if o.destiny_cards_drawn[s.ix()] > supplied(s) {
            a.unresolvable = Some(format!(
                "{} draws more destinies in the battle than its battle destinies (weapon destinies within the battle model on the board)",
                s.name()
            ));
        }
    }
    // The battle's cards carry the board card each one is.
    let board_card = |n: &String| b.cards.iter().find(|c| &c.name == n).and_then(|c| c.ix);
    for s in [battle::Side::Light, battle::Side::Dark] {
        let r = o.side(s);
        a.lost
            .extend(r.forfeited.iter().chain(&r.lost).filter_map(board_card));
        a.out_of_play
            .extend(r.out_of_play.iter().filter_map(board_card));
        a.force_lost[s.ix()] = r.force_lost;
    }
    if let Some(n) = &o.needs {
        match o.needs_from {
            Some(who) => a.needs = Some((who, n.clone())),
            // Not a player's choice: the board could not give the battle what it needs.
            None => a.unresolvable = Some(n.clone()),
        }
    }
    a
}

/// Resolves the Force drain at `at` on the board state.
pub fn resolve_drain(st: &State, at: usize, drainer: BoardSide) -> Applied {
    let d = drain_from_state(st, at, drainer);
    let o = drain::resolve(&d);
    let mut a = Applied {
        lines: o.lines.clone(),
        ..Applied::default()
    };
    if let Some(why) = &o.not_initiated {
        a.unresolvable = Some(why.clone());
        return a;
    }
    a.force_lost[drainer.other().ix()] = o.force_lost;
    let v = |t: &Option<super::values::Total>| serde_json::json!(t.as_ref().and_then(|t| t.value));
    a.numbers.push(("icons".into(), v(&o.icons)));
    a.numbers.push(("amount".into(), v(&o.amount)));
    a.numbers.push(("cost".into(), v(&o.cost)));
    a.numbers
        .push(("force_lost".into(), serde_json::json!(o.force_lost)));
    a
}

/// The observable numbers of a battle on the board.
pub const BATTLE_NUMBERS: &[&str] = &[
    "total_power",
    "battle_destinies",
    "total_battle_destiny",
    "attrition",
    "battle_damage",
    "force_lost",
    "forfeited",
    "attrition_ignored",
    "battle_damage_canceled",
];

/// The observable numbers of a Force drain on the board.
pub const DRAIN_NUMBERS: &[&str] = &["icons", "amount", "force_lost", "cost"];

fn battle_numbers(o: &battle::BattleResult, out: &mut Vec<(String, serde_json::Value)>) {
    use serde_json::json;
    let v = |t: &Option<super::values::Total>| json!(t.as_ref().and_then(|t| t.value));
    for (k, r) in [("light", &o.light), ("dark", &o.dark)] {
        out.push((format!("{k}.total_power"), v(&r.total_power)));
        out.push((format!("{k}.battle_destinies"), json!(r.battle_destinies)));
        out.push((
            format!("{k}.total_battle_destiny"),
            v(&r.total_battle_destiny),
        ));
        out.push((format!("{k}.attrition"), json!(r.attrition)));
        out.push((format!("{k}.battle_damage"), json!(r.battle_damage)));
        out.push((format!("{k}.force_lost"), json!(r.force_lost)));
        out.push((format!("{k}.forfeited"), json!(r.forfeited.len())));
        out.push((format!("{k}.attrition_ignored"), json!(r.attrition_ignored)));
        out.push((
            format!("{k}.battle_damage_canceled"),
            json!(r.battle_damage_canceled),
        ));
    }
    out.push(("winner".into(), json!(o.winner.map(|s| s.as_str()))));
    out.push(("ended_early".into(), json!(o.ended_early)));
    out.push(("cost".into(), v(&o.cost)));
}

fn is_battle_choice(v: Verb) -> bool {
    matches!(v, Verb::DestinyValue)
}

impl super::engine::Engine {
    /// The battle choices at the front of the script when its power segment is
    /// totaled (the value of a drawn card with several destiny values), turned into the
    /// battle's script. The damage segment's choices are decisions of their own
    /// (`battle_damage`).
    fn battle_choices(&mut self) -> Script {
        let mut script = Script::default();
        for d in self.take_decisions_while(|d| is_battle_choice(d.verb)) {
            let side = d.by;
            if d.verb == Verb::DestinyValue
                && let Some(v) = d.step.amount
            {
                script.destiny_values.push((side, v));
            }
        }
        script
    }

    /// The result of a battle or Force drain on the stack (entry `ix`): resolve
    /// it at its location, apply it to the state and take it off the stack.
    /// Returns false when the run must stop (a decision or a location is missing).
    pub(crate) fn battle_or_drain_result(&mut self, ix: usize) -> bool {
        use super::stack::{ActionKind, Tgt};
        use crate::engine::End;
        use crate::engine::{Actor, Event};
        let label = self.stack[ix].label.clone();
        let by = self.stack[ix].actor;
        let is_battle = matches!(self.stack[ix].kind, ActionKind::Battle);
        let at = self.stack[ix].targets.iter().find_map(|(_, t)| {
            if let Tgt::Location(l) = t {
                Some(*l)
            } else {
                None
            }
        });
        let Some(at) = at else {
            self.outcome = Some(End::NotModelled {
                what: format!("the result of {label}: its location is not given"),
            });
            return false;
        };
        let a = if is_battle {
            let script = self.battle_choices();
            let before = self.battled_before(ix);
            resolve_battle(&self.st, at, by, &script, &self.stack[ix], &before)
        } else {
            resolve_drain(&self.st, at, by)
        };
        // The destiny counts were traced before the draws (`battle_begin`); the
        // same lines are not traced again here.
        let counts = &self.stack[ix].counts;
        let skip = match counts.len() {
            0 => None,
            n => a.lines.windows(n).position(|w| w == &counts[..]),
        };
        let skipped = skip.map_or(0..0, |p| p..p + counts.len());
        for (i, l) in a.lines.iter().enumerate() {
            if !skipped.contains(&i) {
                self.log(Actor::Rules, Event::Result, l.text.clone(), &l.cites);
            }
        }
        if a.damage.is_none() {
            for (k, v) in &a.numbers {
                self.numbers.push((format!("{label}.{k}"), v.clone()));
            }
        }
        if let Some(why) = a.unresolvable {
            self.outcome = Some(End::NotModelled {
                what: format!("the result of {label}: {why}"),
            });
            return false;
        }
        if let Some((player, what)) = a.needs {
            self.need(player, crate::engine::NeedKind::Choice, what);
            return false;
        }
        for &c in &a.destiny_drawn {
            let owner = self.st.owner(c);
            self.st.to_pile(c, owner, PileName::UsedPile);
            let text = format!(
                "the destiny card {} is placed on {}'s Used Pile",
                self.st.title(c),
                owner.name()
            );
            self.log(
                Actor::Rules,
                Event::StateChange,
                text,
                &[super::values::cite::STEP_COMPLETE_DRAW],
            );
        }
        for (cards, pile) in [
            (&a.lost, PileName::LostPile),
            (&a.out_of_play, PileName::OutOfPlay),
        ] {
            for &c in cards {
                let owner = self.st.owner(c);
                self.st.to_pile(c, owner, pile);
                let text = format!(
                    "{} goes to {}'s {}",
                    self.st.title(c),
                    owner.name(),
                    pile.title()
                );
                self.log(
                    Actor::Rules,
                    Event::StateChange,
                    text,
                    &[super::values::cite::FORFEIT],
                );
            }
        }
        for s in [BoardSide::Light, BoardSide::Dark] {
            let n = a.force_lost[s.ix()];
            if n > 0 {
                let lost = self.lose_force(s, n);
                let cite = if is_battle {
                    super::values::cite::BATTLE_DAMAGE
                } else {
                    super::values::cite::FORCE_DRAIN
                };
                self.log(
                    Actor::Rules,
                    Event::StateChange,
                    format!("{} loses {lost} Force", s.name()),
                    &[cite],
                );
            }
        }
        if let Some(start) = &a.damage {
            // The damage segment: the players' decisions, one at a time.
            let seg = super::battle_damage::DamageSeg::new(at, by, start, a.numbers);
            self.stack[ix].damage = Some(Box::new(seg));
            if let Some(w) = a.winner {
                self.push_battle_won(ix, at, w);
            }
            return true;
        }
        self.resolved.push(label.clone());
        self.stack.pop();
        self.log(
            Actor::Rules,
            Event::Pop,
            format!("{label} comes off the stack"),
            &[super::rules::HOW_THE_STACK_WORKS],
        );
        true
    }
}

impl super::engine::Engine {
    /// A battle reaches its result: no weapons are fired on the board, so the power
    /// segment begins. How many battle destinies each side may draw comes from the
    /// board (ability, modifiers); a player draws all of them or declines and draws
    /// none (`battle_destinies`: 0 or the number entitled; anything between is
    /// rejected, AR Power Segment - Draw Battle Destinies). The draws are then made
    /// one at a time on the stack, the battle's initiator first, each an action that
    /// can be responded to.
    pub(super) fn battle_begin(&mut self, ix: usize) -> super::engine::Flow {
        use super::engine::rej;
        use super::stack::{Stage, Tgt};
        use super::values::cite;
        use crate::engine::{Actor, Event};
        let by = self.stack[ix].actor;
        let at = self.stack[ix].targets.iter().find_map(|(_, t)| match t {
            Tgt::Location(l) => Some(*l),
            _ => None,
        });
        let Some(at) = at else {
            return self.battle_end(ix);
        };
        // The weapons segment: players alternate actions, the initiator first.
        if !self.stack[ix].weapons_done {
            if self.stack[ix].segment.is_none() {
                self.exclude_may_not_battle(ix, at);
                self.stack[ix].stage = Stage::Resolving;
                self.stack[ix].segment = Some((by, 0));
                let label = self.stack[ix].label.clone();
                self.log(
                    Actor::Rules,
                    Event::Window,
                    format!(
                        "{label}: the weapons segment begins; {} (who initiated the battle) takes the first action",
                        by.name()
                    ),
                    &[cite::WEAPONS_SEGMENT],
                );
            }
            return Ok(());
        }
        let before = self.battled_before(ix);
        let hits = self.stack[ix].hits.clone();
        let excluded = self.stack[ix].excluded.clone();
        let mut b = battle_with(&self.st, at, by, None, &before, &hits, &excluded);
        b.modifiers
            .extend(self.stack[ix].played_mods.iter().cloned());
        let o = battle::resolve_to_damage(&b, &Script::default());
        if o.not_initiated.is_some() {
            return self.battle_end(ix);
        }
        let mut n = [o.light.battle_destinies, o.dark.battle_destinies];
        for d in self.take_decisions_while(|d| d.verb == Verb::BattleDestinies) {
            let s = d.by;
            let entitled = n[s.ix()];
            match d.step.amount {
                Some(k) if k == 0 || k == i64::from(entitled) => {
                    self.log(
                        super::engine::actor(s),
                        Event::StateChange,
                        format!(
                            "{} chooses to draw {k} of its {entitled} battle destinies",
                            s.name(),
                        ),
                        &[cite::BATTLE_DESTINIES],
                    );
                    n[s.ix()] = k as u32;
                    self.stack[ix].fewer.push((s, k as u32));
                }
                Some(k) if k > 0 && k < i64::from(entitled) => {
                    let reason = format!(
                        "{} is entitled to {entitled} battle destinies: it must draw all of them or decline and draw none, not {k}",
                        s.name(),
                    );
                    self.reject(&d, rej(reason, cite::BATTLE_DESTINIES));
                }
                _ => {
                    let reason = format!(
                        "{} may draw at most {} battle destinies here",
                        s.name(),
                        n[s.ix()]
                    );
                    self.reject(&d, rej(reason, cite::BATTLE_DESTINIES));
                }
            }
        }
        let label = self.stack[ix].label.clone();
        self.log(
            Actor::Rules,
            Event::Result,
            format!(
                "{label}: power segment: {} draws {} battle destin{}, {} draws {}",
                by.name(),
                n[by.ix()],
                if n[by.ix()] == 1 { "y" } else { "ies" },
                by.other().name(),
                n[by.other().ix()]
            ),
            &[cite::POWER_SEGMENT, cite::BATTLE_DESTINIES],
        );
        let power = [o.light.power_destinies, o.dark.power_destinies];
        let attrition = [o.light.attrition_destinies, o.dark.attrition_destinies];
        self.log_extra_destinies(&label, by, power, attrition);
        // How many destinies each side draws, and why: traced here, before the draws.
        let counts = o.count_lines().to_vec();
        for l in &counts {
            self.log(Actor::Rules, Event::Result, l.text.clone(), &l.cites);
        }
        self.stack[ix].counts = counts;
        let roster = cards_at(&self.st, at)
            .into_iter()
            .map(|c| (c, self.st.entered[c]))
            .collect();
        let e = &mut self.stack[ix];
        e.roster = Some(roster);
        e.stage = Stage::Resolving;
        e.draws_left.clear();
        e.drawn.clear();
        for (kind, count) in [
            (BattleDraw::Power, power),
            (BattleDraw::Battle, n),
            (BattleDraw::Attrition, attrition),
        ] {
            for s in [by, by.other()] {
                for _ in 0..count[s.ix()] {
                    e.draws_left.push_back((s, kind));
                }
            }
        }
        Ok(())
    }

    /// The next battle destiny draw, an action of its own on the stack; when all are
    /// drawn, the battle's totals and damage segment.
    pub(super) fn battle_step(&mut self, ix: usize) -> super::engine::Flow {
        use super::stack::{ActionKind, Entry};
        use super::values::cite;
        use crate::engine::Event;
        if self.stack[ix].damage.is_some() {
            return self.damage_step(ix);
        }
        if self.stack[ix].segment.is_some() {
            return self.weapons_step(ix);
        }
        if !self.stack[ix].weapons_done {
            return self.battle_begin(ix);
        }
        let Some((s, kind)) = self.stack[ix].draws_left.pop_front() else {
            return self.battle_end(ix);
        };
        let label = self.stack[ix].label.clone();
        let k = self.stack[ix]
            .drawn
            .iter()
            .filter(|x| x.side == s && x.kind == kind)
            .count()
            + 1;
        let what = kind.as_str();
        let mut e = Entry::new(
            ActionKind::DestinyDraw {
                parent: ix,
                test: Default::default(),
            },
            s,
            None,
            format!("{}'s {what} destiny draw {k} for {label}", s.name()),
        );
        e.battle_draw = Some(s);
        e.draw_kind = kind;
        self.stack.push(e);
        self.log(
            super::engine::actor(s),
            Event::Push,
            format!(
                "{label}: {} draws {what} destiny {k} (an action of its own)",
                s.name()
            ),
            &[
                match kind {
                    BattleDraw::Power => cite::POWER_DESTINIES,
                    BattleDraw::Battle => cite::BATTLE_DESTINIES,
                    BattleDraw::Attrition => cite::ATTRITION_DESTINIES,
                },
                super::rules::ACTIONS,
            ],
        );
        Ok(())
    }

    /// The power and attrition destinies each side draws besides its battle destinies
    /// (from the cards' `power_destinies` / `attrition_destinies` modifiers), if any.
    fn log_extra_destinies(
        &mut self,
        label: &str,
        by: BoardSide,
        power: [u32; 2],
        attrition: [u32; 2],
    ) {
        use super::values::cite;
        use crate::engine::{Actor, Event};
        for (what, n, c) in [
            ("power", power, cite::POWER_DESTINIES),
            ("attrition", attrition, cite::ATTRITION_DESTINIES),
        ] {
            for s in [by, by.other()] {
                let k = n[s.ix()];
                if k > 0 {
                    self.log(
                        Actor::Rules,
                        Event::Result,
                        format!(
                            "{label}: {} also draws {k} {what} destin{}",
                            s.name(),
                            if k == 1 { "y" } else { "ies" }
                        ),
                        &[c],
                    );
                }
            }
        }
    }

    fn battle_end(&mut self, ix: usize) -> super::engine::Flow {
        if self.battle_or_drain_result(ix) {
            Ok(())
        } else {
            Err(super::engine::Stop::Halt)
        }
    }
}

impl super::engine::Engine {
    /// The battle's winner was just determined: automatic responses to winning or
    /// losing, then optional ones, beginning with the opponent of the player who
    /// initiated the battle (AR Power Segment - Winner And Loser).
    fn push_battle_won(&mut self, ix: usize, at: usize, winner: BoardSide) {
        use super::stack::{ActionKind, Entry, Tgt};
        let label = format!("{} won by {}", self.stack[ix].label, winner.name());
        let mut e = Entry::new(ActionKind::BattleWon { battle: ix }, winner, None, label);
        e.next = self.stack[ix].actor.other();
        e.targets.push(("location".to_string(), Tgt::Location(at)));
        self.stack.push(e);
        self.log(
            super::engine::actor(winner),
            crate::engine::Event::Push,
            format!(
                "{} won {}: responses to winning or losing the battle, before the damage segment",
                winner.name(),
                self.stack[ix].label
            ),
            &[super::values::cite::WINNER_AND_LOSER],
        );
    }
}
