//! Creature attacks (AR Ch.6 Attacks): weapons segment, totals, damage.
//!
//! Two kinds: a non-parasite creature attacking a target (attacker total is
//! ferocity plus modifiers; defender total is power plus a destiny if 4 or
//! more ability), and characters attacking a creature (attacker total is
//! power plus a destiny if 4 or more ability; defender total is ferocity plus
//! defense value plus modifiers). The attacker wins only when its total is
//! greater. There is no battle damage, attrition or forfeiting; hit
//! creatures are lost.

use super::battle::{Card, Kind, Reserves, Side};
use super::destiny::{self, DestinyCard};
use super::values::{Base, Modifier, Op, Rules, Total, cite, compute};
use serde::Deserialize;

/// Who attacks whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// The creature attacks `target`.
    CreatureAttacks,
    /// `side`'s characters, vehicles and starships attack the creature.
    AttackCreature,
}

/// A step of the attack's weapons segment.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum AttackStep {
    /// A participant fires a weapon at the creature: hit if total destiny > defense value.
    Fire {
        weapon: String,
        by: Side,
        #[serde(default)]
        add: i64,
    },
    /// Draw destiny; the card is power + X for the attack (Stay Here, Where It's Safe).
    PowerPlusDestiny {
        card: String,
        by: Side,
        source: String,
    },
    /// The creature's ferocity is increased (Yaggle Gakkle's +2).
    Ferocity { add: i64, source: String },
    /// A card is lost at once. With `jump_off` (a creature vehicle eaten),
    /// the cards aboard it stay at the location and now take part on their own.
    Lose {
        card: String,
        source: String,
        #[serde(default)]
        jump_off: bool,
    },
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attack {
    pub location: String,
    pub direction: Direction,
    pub creature: String,
    /// For `creature_attacks`: the randomly selected target.
    #[serde(default)]
    pub target: Option<String>,
    /// For `attack_creature`: the attacking side.
    #[serde(default)]
    pub side: Option<Side>,
    pub cards: Vec<Card>,
    /// Destinies added to the creature's ferocity ("8 + destiny").
    #[serde(default)]
    pub ferocity_destinies: u32,
    #[serde(default)]
    pub reserve: Reserves,
    #[serde(default)]
    pub weapons: Vec<AttackStep>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    pub cites: Vec<&'static str>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Outcome {
    pub lines: Vec<Line>,
    pub attacker_total: Option<i64>,
    pub defender_total: Option<i64>,
    pub defeated: bool,
    pub lost: Vec<String>,
    pub needs: Option<String>,
}

impl Outcome {
    fn say(&mut self, text: impl Into<String>, cites: &[&'static str]) {
        self.lines.push(Line {
            text: text.into(),
            cites: cites.to_vec(),
        });
    }
}

struct Decks {
    cards: [Vec<DestinyCard>; 2],
    used: [usize; 2],
}

impl Decks {
    fn draw(&mut self, side: Side, kind: &str, n: u32, add: i64, out: &mut Outcome) -> Option<i64> {
        let ix = if side == Side::Light { 0 } else { 1 };
        let mut req = destiny::Request::new(kind, &side.to_string(), n);
        if add != 0 {
            req.to_total.push(Modifier::new("weapon", Op::Add(add)));
        }
        let from = self.used[ix].min(self.cards[ix].len());
        let o = destiny::draw(&req, &self.cards[ix][from..]);
        self.used[ix] += o.consumed;
        for n in &o.notes {
            out.lines.push(Line {
                text: n.text.clone(),
                cites: n.cites.clone(),
            });
        }
        o.total_value()
    }
}

fn deck(cards: &[super::battle::DeckCard]) -> Vec<DestinyCard> {
    cards
        .iter()
        .map(|c| DestinyCard {
            name: c.name.clone(),
            values: match &c.destiny {
                super::battle::DestinyValues::One(v) => vec![*v],
                super::battle::DestinyValues::Many(v) => v.clone(),
            },
        })
        .collect()
}

/// What an attack has done so far, beside its outcome.
struct Fight {
    decks: Decks,
    gone: Vec<bool>,
    /// Cards that jumped off a lost creature vehicle: no longer aboard.
    off: Vec<bool>,
    hit: bool,
    power_mods: Vec<Vec<Modifier>>,
    ferocity_mods: Vec<Modifier>,
}

fn find(a: &Attack, n: &str) -> Option<usize> {
    a.cards.iter().position(|c| c.name.eq_ignore_ascii_case(n))
}

/// Resolves one attack.
pub fn resolve(a: &Attack) -> Outcome {
    let mut out = Outcome::default();
    let Some(cr) = find(a, &a.creature) else {
        out.needs = Some(format!("unknown creature: {}", a.creature));
        return out;
    };
    let creature = &a.cards[cr];
    if creature.kind != Kind::Creature {
        out.needs = Some(format!("{} is not a creature", creature.name));
        return out;
    }
    let mut f = Fight {
        decks: Decks {
            cards: [deck(&a.reserve.light), deck(&a.reserve.dark)],
            used: [0, 0],
        },
        gone: vec![false; a.cards.len()],
        off: vec![false; a.cards.len()],
        hit: false,
        power_mods: vec![Vec::new(); a.cards.len()],
        ferocity_mods: Vec::new(),
    };
    let Some((opp_side, participants)) = participants(a, &mut out) else {
        return out;
    };
    out.say(
        format!(
            "attack at {} ({}): initiated for free",
            a.location, creature.name
        ),
        &[cite::ATTACKS_STEPS, cite::ATTACKS],
    );
    out.say(
        "weapons segment begins",
        &[cite::ATTACKS_STEPS, cite::WEAPONS_SEGMENT],
    );
    if !weapons_segment(a, cr, &mut f, &mut out) {
        return out;
    }
    let participants: Vec<usize> = participants.into_iter().filter(|&i| !f.gone[i]).collect();
    if participants.is_empty() || f.gone[cr] {
        out.say(
            "one side of the attack has no cards left: the attack ends",
            &[cite::ATTACKS],
        );
        return out;
    }
    out.say("power segment begins", &[cite::ATTACKS_STEPS]);
    totals(a, cr, opp_side, &participants, &mut f, &mut out);
    damage(a, cr, &participants, f.hit, &mut out);
    out
}

/// The attack's participants on the non-creature side, and that side. None when the
/// attack needs a decision or has no target.
fn participants(a: &Attack, out: &mut Outcome) -> Option<(Side, Vec<usize>)> {
    Some(match a.direction {
        Direction::CreatureAttacks => {
            let Some(t) = a.target.as_deref().and_then(|n| find(a, n)) else {
                out.needs =
                    Some("needs a decision: the randomly selected target of the attack".into());
                return None;
            };
            let tc = &a.cards[t];
            if tc.aboard.is_some() && tc.kind == Kind::Character {
                out.say(
                    format!(
                        "{} is aboard a vehicle or starship and is not a potential target",
                        tc.name
                    ),
                    &[cite::ATTACKS_NON_PARASITE],
                );
                return None;
            }
            (tc.side, vec![t])
        }
        Direction::AttackCreature => {
            let Some(s) = a.side else {
                out.needs = Some("needs a decision: which side attacks the creature".into());
                return None;
            };
            let v = (0..a.cards.len())
                .filter(|&i| {
                    a.cards[i].side == s
                        && matches!(
                            a.cards[i].kind,
                            Kind::Character | Kind::Vehicle | Kind::Starship
                        )
                })
                .collect();
            (s, v)
        }
    })
}

/// The attack's weapons segment (and the script's other steps before the power segment).
/// False when the attack stopped for a decision or something not modelled.
fn weapons_segment(a: &Attack, cr: usize, f: &mut Fight, out: &mut Outcome) -> bool {
    let creature = &a.cards[cr];
    let mut fired: Vec<&str> = Vec::new();
    for st in &a.weapons {
        match st {
            AttackStep::Fire { weapon, by, add } => {
                if fired.contains(&weapon.as_str()) {
                    out.say(
                        format!("{weapon} has already fired in this attack"),
                        &[cite::ATTACKS_STEPS],
                    );
                    continue;
                }
                fired.push(weapon);
                let dv = creature.defense;
                let d = f.decks.draw(*by, "weapon destiny", 1, *add, out);
                match (d, dv) {
                    (Some(d), Some(v)) if d > v => {
                        f.hit = true;
                        out.say(
                            format!("{weapon} fires at {}: total weapon destiny {d} > defense value {v}: hit (turned sideways; the attack continues)", creature.name),
                            &[cite::ATTACKS_STEPS, cite::FIRING_WEAPONS],
                        );
                    }
                    (d, v) => out.say(
                        format!(
                            "{weapon} fires at {}: {} against defense value {}: missed",
                            creature.name,
                            d.map(|x| x.to_string())
                                .unwrap_or_else(|| "no destiny".into()),
                            v.map(|x| x.to_string()).unwrap_or_else(|| "(none)".into())
                        ),
                        &[cite::ATTACKS_STEPS],
                    ),
                }
            }
            AttackStep::PowerPlusDestiny { card, by, source } => {
                let Some(i) = find(a, card) else {
                    out.needs = Some(format!("unknown card in script: {card}"));
                    return false;
                };
                if let Some(x) = f.decks.draw(*by, "destiny", 1, 0, out) {
                    f.power_mods[i].push(Modifier::new(source.clone(), Op::Add(x)));
                    out.say(
                        format!("{source}: {card} is power +{x}"),
                        &[cite::ATTACKS_STEPS],
                    );
                }
            }
            AttackStep::Ferocity { add, source } => {
                f.ferocity_mods
                    .push(Modifier::new(source.clone(), Op::Add(*add)));
                out.say(
                    format!("{source}: {} ferocity +{add}", creature.name),
                    &[cite::ATTACKS_STEPS],
                );
            }
            AttackStep::Lose {
                card,
                source,
                jump_off,
            } => {
                if let Some(i) = find(a, card) {
                    f.gone[i] = true;
                    out.lost.push(a.cards[i].name.clone());
                    out.say(format!("{card} is lost ({source})"), &[cite::ATTACKS_STEPS]);
                    let host = &a.cards[i].name;
                    let riders: Vec<usize> = (0..a.cards.len())
                        .filter(|&j| {
                            a.cards[j]
                                .aboard
                                .as_deref()
                                .is_some_and(|h| h.eq_ignore_ascii_case(host))
                        })
                        .collect();
                    for j in riders {
                        if *jump_off {
                            f.off[j] = true;
                            out.say(
                                format!(
                                    "{} jumps off {card} (a creature vehicle) and stays at {}",
                                    a.cards[j].name, a.location
                                ),
                                &[cite::ATTACKS_STEPS],
                            );
                        } else {
                            out.say(
                                format!(
                                    "not modelled — ruling needed: what happens to {} aboard {card}",
                                    a.cards[j].name
                                ),
                                &[cite::ATTACKS_STEPS],
                            );
                            out.needs.get_or_insert_with(|| {
                                format!(
                                    "not modelled — ruling needed: what happens to {} aboard {card}",
                                    a.cards[j].name
                                )
                            });
                            return false;
                        }
                    }
                }
            }
        }
    }
    true
}

/// The power segment: the creature's total against the other side's total.
fn totals(
    a: &Attack,
    cr: usize,
    opp_side: Side,
    participants: &[usize],
    f: &mut Fight,
    out: &mut Outcome,
) {
    let creature = &a.cards[cr];
    // The creature's total.
    let mut fmods = Vec::new();
    if a.ferocity_destinies > 0
        && let Some(d) = f.decks.draw(
            creature.side,
            "ferocity destiny",
            a.ferocity_destinies,
            0,
            out,
        )
    {
        fmods.push(Modifier::new("destiny", Op::Add(d)));
    }
    fmods.extend(std::mem::take(&mut f.ferocity_mods));
    if a.direction == Direction::AttackCreature
        && let Some(dv) = creature.defense
    {
        fmods.push(
            Modifier::new("defense value", Op::Add(dv)).cite(cite::ATTACKS_CREATURES_ATTACKED),
        );
    }
    let ferocity = compute(
        &format!("{} total", creature.name),
        &Base {
            source: "ferocity".into(),
            value: creature.ferocity.or(creature.power),
            cite: cite::ATTACKS,
        },
        &fmods,
        Rules::default(),
    );
    out.say(ferocity.to_string(), &ferocity.cites());

    // The other side's total.
    let mut parts: Vec<Modifier> = Vec::new();
    let mut ability = 0i64;
    for &i in participants {
        let c = &a.cards[i];
        if c.aboard.is_none() || f.off[i] {
            let p = compute(
                &format!("power of {}", c.name),
                &Base {
                    source: c.name.clone(),
                    value: c.power,
                    cite: cite::ATTACKS,
                },
                &f.power_mods[i],
                Rules::default(),
            );
            if let Some(v) = p.value {
                parts.push(Modifier::new(c.name.clone(), Op::Add(v)).cumulative());
            }
        }
        ability = ability
            .saturating_add(c.ability.unwrap_or(0))
            .saturating_add(c.permanent_pilot.unwrap_or(0));
    }
    if ability >= 4 {
        if let Some(d) = f.decks.draw(opp_side, "destiny", 1, 0, out) {
            parts.push(Modifier::new("destiny (4 or more ability)", Op::Add(d)).cumulative());
        }
    } else {
        out.say(
            format!("{opp_side} has {ability} ability in the attack: no destiny (\"if unable to otherwise\" battle destiny text does not apply to attacks)"),
            &[cite::ATTACKS],
        );
    }
    let base = Base {
        source: "total".into(),
        value: Some(0),
        cite: cite::ATTACKS,
    };
    let side_total: Total = compute(
        &format!("{opp_side} total"),
        &base,
        &parts,
        Rules::default(),
    );
    out.say(side_total.to_string(), &side_total.cites());

    let (att, def) = match a.direction {
        Direction::CreatureAttacks => (ferocity.value, side_total.value),
        Direction::AttackCreature => (side_total.value, ferocity.value),
    };
    out.attacker_total = att;
    out.defender_total = def;
    out.defeated = matches!((att, def), (Some(x), Some(y)) if x > y);
    let cites = match a.direction {
        Direction::CreatureAttacks => [cite::ATTACKS_NON_PARASITE, cite::ATTACKS_STEPS],
        Direction::AttackCreature => [cite::ATTACKS_CREATURES_ATTACKED, cite::ATTACKS_STEPS],
    };
    out.say(
        format!(
            "attacker {} against defender {}: {}",
            att.unwrap_or(0),
            def.unwrap_or(0),
            if out.defeated {
                "the defender is defeated"
            } else {
                "the defender is not defeated (ties are not enough)"
            }
        ),
        &cites,
    );
}

/// The damage segment: the defeated are lost, and so is a creature that was hit.
fn damage(a: &Attack, cr: usize, participants: &[usize], hit: bool, out: &mut Outcome) {
    let creature = &a.cards[cr];
    let defeated = out.defeated;
    let cites = match a.direction {
        Direction::CreatureAttacks => [cite::ATTACKS_NON_PARASITE, cite::ATTACKS_STEPS],
        Direction::AttackCreature => [cite::ATTACKS_CREATURES_ATTACKED, cite::ATTACKS_STEPS],
    };
    out.say("damage segment begins", &[cite::ATTACKS_STEPS]);
    if defeated {
        let victims: Vec<usize> = match a.direction {
            Direction::CreatureAttacks => participants.to_vec(),
            Direction::AttackCreature => vec![cr],
        };
        for i in victims {
            out.lost.push(a.cards[i].name.clone());
            out.say(format!("{} is defeated and lost", a.cards[i].name), &cites);
        }
    }
    if hit && !out.lost.iter().any(|n| n == &creature.name) {
        out.lost.push(creature.name.clone());
        out.say(
            format!("{} was hit and is lost", creature.name),
            &[cite::ATTACKS_STEPS, cite::ATTACKS],
        );
    }
}
