//! Drawing destiny (AR Ch.1 Section F).
//!
//! Draws come from an ordered Reserve Deck (top card first), so a draw is a
//! pure function of the deck, the request and the owner's scripted choices.
//! The eight steps: draw, automatic draw modifiers, (automatic and just
//! actions are the caller's), complete the draw (below 0 reset to 0), more
//! draws, total with modifiers to the total, complete all draws (no total:
//! the draw fails and resolves in the opponent's favour).

use super::values::{Base, Effect, Modifier, Op, Rules, Term, Total, cite, compute};
use crate::engine::Cited;

/// A card as far as destiny is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DestinyCard {
    pub name: String,
    /// Printed destiny values; several for cards such as R2-D2 (2 and 5).
    /// Location cards have destiny 0.
    pub values: Vec<i64>,
    /// A draw already made and canceled (not redrawn) where it was drawn, by this
    /// action: drawn again here, it is canceled (AR Canceled And Redrawn Destiny Draws).
    pub canceled_by: Option<String>,
}

impl DestinyCard {
    pub fn new(name: impl Into<String>, value: i64) -> DestinyCard {
        DestinyCard {
            name: name.into(),
            values: vec![value],
            canceled_by: None,
        }
    }
}

/// How one planned draw is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// Reveal the top card of the Reserve Deck.
    Normal,
    /// Draw X and choose Y of them (`keep` are 0-based indices among the X,
    /// in the owner's order of choice; `None` when the script lacks them).
    ChooseFrom {
        x: u32,
        y: u32,
        keep: Option<Vec<usize>>,
        source: String,
    },
    /// A value used instead of drawing (Darklighter Spin, It Is The Future
    /// You See...). Cannot be modified, canceled or reset; does not count
    /// against limits.
    Substitute { source: String, value: i64 },
}

/// A scripted cancel of the n-th card drawn (0-based, redraws included), optionally redrawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cancel {
    pub draw: usize,
    pub by: String,
    pub redraw: bool,
}

/// What to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// e.g. "battle destiny", "weapon destiny".
    pub kind: String,
    /// The player drawing, for decision messages ("Light", "Dark").
    pub player: String,
    /// One plan per destiny the player is entitled to, in order.
    pub plans: Vec<Plan>,
    /// Most draws that may count (limits and "if unable to otherwise" caps).
    pub limit: Option<u32>,
    /// Automatic modifiers to each destiny draw (step 2).
    pub each_draw: Vec<Modifier>,
    /// Modifiers to the total destiny (step 7).
    pub to_total: Vec<Modifier>,
    /// Cancels made in response to draws.
    pub cancels: Vec<Cancel>,
    /// The owner's choices for cards with several destiny values, in draw order.
    pub value_choices: Vec<i64>,
}

impl Request {
    pub fn new(kind: &str, player: &str, n: u32) -> Request {
        Request {
            kind: kind.into(),
            player: player.into(),
            plans: (0..n).map(|_| Plan::Normal).collect(),
            limit: None,
            each_draw: Vec::new(),
            to_total: Vec::new(),
            cancels: Vec::new(),
            value_choices: Vec::new(),
        }
    }
}

/// One destiny draw as resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawn {
    /// The card drawn, or the source of a substituted value.
    pub source: String,
    pub substituted: bool,
    /// The destiny value after draw modifiers; `None` if canceled.
    pub value: Option<Total>,
    /// Counted against limits.
    pub counted: bool,
    /// Chosen to be part of the total (draw X choose Y leaves some out).
    pub chosen: bool,
    pub canceled_by: Option<String>,
}

impl Drawn {
    /// A card drawn that gives no value (its value not chosen, or canceled): it counts.
    fn valueless(source: &str, canceled_by: Option<String>) -> Drawn {
        Drawn {
            source: source.to_string(),
            substituted: false,
            value: None,
            counted: true,
            chosen: false,
            canceled_by,
        }
    }
}

/// The outcome of a destiny request.
#[derive(Debug, Clone, PartialEq)]
pub struct DestinyResult {
    pub draws: Vec<Drawn>,
    /// The total destiny; `None` when every draw failed or was canceled.
    pub total: Option<Total>,
    /// Cards taken from the Reserve Deck.
    pub consumed: usize,
    /// Draws that counted against limits.
    pub counted: u32,
    pub notes: Vec<Cited>,
    /// A choice the script did not give ("needs a decision from Light: ...").
    pub needs: Option<String>,
}

impl DestinyResult {
    /// The draw failed: no total. It resolves in the opponent's favour.
    pub fn failed(&self) -> bool {
        self.total.is_none()
    }
    pub fn total_value(&self) -> Option<i64> {
        self.total.as_ref().and_then(|t| t.value)
    }
}

/// Draws destiny from `reserve` (top first), starting at `reserve[0]`.
pub fn draw(req: &Request, reserve: &[DestinyCard]) -> DestinyResult {
    let mut out = DestinyResult {
        draws: Vec::new(),
        total: None,
        consumed: 0,
        counted: 0,
        notes: Vec::new(),
        needs: None,
    };
    let mut choices = req.value_choices.iter().copied();
    let limit = req.limit.unwrap_or(u32::MAX);
    let mut index_of_counted = 0usize;

    for plan in &req.plans {
        match plan {
            Plan::Substitute { source, value } => {
                substitute(req, reserve, &mut out, source, *value);
            }
            Plan::Normal => {
                if out.counted >= limit {
                    out.notes.push(Cited::new(
                        format!("{}: limited to {limit}; no further draw", req.kind),
                        &[cite::LIMITED, cite::CANCELED_REDRAWN],
                    ));
                    continue;
                }
                draw_one(
                    req,
                    reserve,
                    &mut out,
                    &mut choices,
                    &mut index_of_counted,
                    true,
                );
            }
            Plan::ChooseFrom { x, y, keep, source } => {
                let mut draws = Draws {
                    reserve,
                    choices: &mut choices,
                    index_of_counted: &mut index_of_counted,
                };
                choose_from(req, &mut draws, &mut out, (*x, *y), keep.as_deref(), source);
            }
        }
    }
    total(req, &mut out);
    out
}

/// "About to draw": a substituted value instead of a draw, only while a draw could be
/// made at all.
fn substitute(
    req: &Request,
    reserve: &[DestinyCard],
    out: &mut DestinyResult,
    source: &String,
    value: i64,
) {
    let value = &value;
    // "About to draw": only while a draw could be made at all.
    if out.consumed >= reserve.len() {
        out.notes.push(Cited::new(
            format!(
                "{}: cannot substitute {source} — the Reserve Deck is empty, so {} is not about to draw",
                req.kind, req.player
            ),
            &[cite::ABOUT_TO_DRAW],
        ));
        return;
    }
    let t = Total {
        label: req.kind.clone(),
        value: Some(*value),
        terms: vec![Term {
            source: source.clone(),
            shown: super::values::Shown::Value(*value),
            effect: Effect::Base,
            cite: cite::SUBSTITUTED_DESTINIES,
        }],
        unresolved: None,
    };
    out.notes.push(Cited::new(
        format!(
            "{} substitutes {value} from {source} for a {} (cannot be modified, canceled or reset; not counted against limits)",
            req.player, req.kind
        ),
        &[cite::SUBSTITUTED_DESTINIES],
    ));
    out.draws.push(Drawn {
        source: source.clone(),
        substituted: true,
        value: Some(t),
        counted: false,
        chosen: true,
        canceled_by: None,
    });
}

/// What a draw X choose Y draws from, and the choices it uses.
struct Draws<'a, I: Iterator<Item = i64>> {
    reserve: &'a [DestinyCard],
    choices: &'a mut I,
    index_of_counted: &'a mut usize,
}

/// Draw X, choose Y: every draw counts against the limit; the script names the kept ones.
fn choose_from<I: Iterator<Item = i64>>(
    req: &Request,
    d: &mut Draws<'_, I>,
    out: &mut DestinyResult,
    (x, y): (u32, u32),
    keep: Option<&[usize]>,
    source: &String,
) {
    let (x, y) = (&x, &y);
    let limit = req.limit.unwrap_or(u32::MAX);
    let room = limit.saturating_sub(out.counted);
    let x_eff = (*x).min(room);
    if x_eff == 0 {
        out.notes.push(Cited::new(
            format!("{}: limited to {limit}; no further draw", req.kind),
            &[cite::LIMITED, cite::DRAW_X_CHOOSE_Y],
        ));
        return;
    }
    if x_eff < *x {
        out.notes.push(Cited::new(
            format!(
                "{source}: draw {x} choose {y} — every draw counts against the limit of {limit}, so only {x_eff} may be drawn"
            ),
            &[cite::DRAW_X_CHOOSE_Y, cite::DRAW_X_CHOOSE_Y_EXAMPLE_1],
        ));
    }
    let first = out.draws.len();
    for _ in 0..x_eff {
        draw_one(req, d.reserve, out, d.choices, d.index_of_counted, false);
    }
    let group: Vec<usize> = (first..out.draws.len())
        .filter(|&i| out.draws[i].value.is_some())
        .collect();
    let y_eff = (*y as usize).min(group.len());
    let picked: Vec<usize> = if group.len() <= y_eff {
        group.clone()
    } else {
        match keep {
            Some(k) => k
                .iter()
                .filter_map(|&j| group.get(j).copied())
                .take(y_eff)
                .collect(),
            None => {
                out.needs = Some(format!(
                    "which {y} of the {} {} drawn with {source} to keep",
                    group.len(),
                    req.kind
                ));
                Vec::new()
            }
        }
    };
    for &i in &group {
        out.draws[i].chosen = picked.contains(&i);
    }
    out.notes.push(Cited::new(
        format!(
            "{source}: drew {}, chose {}",
            group.len(),
            picked
                .iter()
                .filter_map(|&i| out.draws[i].value.as_ref().and_then(|t| t.value))
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        &[cite::DRAW_X_CHOOSE_Y],
    ));
}

/// Step 7: add up the chosen, existing values, then modifiers to the total.
fn total(req: &Request, out: &mut DestinyResult) {
    let parts: Vec<&Drawn> = out
        .draws
        .iter()
        .filter(|d| d.chosen && d.value.is_some())
        .collect();
    if parts.is_empty() {
        out.notes.push(Cited::new(
            format!(
                "{}: no destiny total — the draw fails and resolves in the opponent's favour",
                req.kind
            ),
            &[cite::STEP_COMPLETE_ALL, cite::FAILED_DRAWS],
        ));
        return;
    }
    let mut mods: Vec<Modifier> = Vec::with_capacity(parts.len() + req.to_total.len());
    let mut base_source = String::new();
    let mut base_value = 0i64;
    for (k, d) in parts.iter().enumerate() {
        let v = d.value.as_ref().and_then(|t| t.value).unwrap_or(0);
        if k == 0 {
            base_source = d.source.clone();
            base_value = v;
        } else {
            mods.push(
                Modifier::new(d.source.clone(), Op::Add(v))
                    .cite(cite::STEP_TOTAL)
                    .cumulative(),
            );
        }
    }
    mods.extend(req.to_total.iter().cloned());
    let base = Base {
        source: base_source,
        value: Some(base_value),
        cite: cite::HOW_TO_DRAW,
    };
    let total = compute(
        &format!("total {}", req.kind),
        &base,
        &mods,
        Rules { floor_zero: true },
    );
    out.notes
        .push(Cited::new(format!("{total}"), &[cite::STEP_TOTAL]));
    out.total = Some(total);
}

fn draw_one(
    req: &Request,
    reserve: &[DestinyCard],
    out: &mut DestinyResult,
    choices: &mut impl Iterator<Item = i64>,
    counted_ix: &mut usize,
    chosen: bool,
) {
    let Some(card) = reserve.get(out.consumed) else {
        out.notes.push(Cited::new(
            format!(
                "{}: {}'s Reserve Deck is empty — the draw does not exist",
                req.kind, req.player
            ),
            &[cite::UNDEFINED_VALUES, cite::FAILED_DRAWS],
        ));
        return;
    };
    out.consumed += 1;
    out.counted += 1;
    let my_ix = *counted_ix;
    *counted_ix += 1;
    if let Some(by) = &card.canceled_by {
        out.notes.push(Cited::new(
            format!(
                "{}: {} was canceled by {by} and not redrawn: the draw was made and counts (against limits too), with no value",
                req.kind, card.name
            ),
            &[cite::CANCELED_REDRAWN, cite::STEP_DRAW],
        ));
        out.draws
            .push(Drawn::valueless(&card.name, Some(by.clone())));
        return;
    }
    let printed = match card.values.as_slice() {
        [] => Some(0),
        [one] => Some(*one),
        many => match choices.next() {
            Some(c) if many.contains(&c) => {
                out.notes.push(Cited::new(
                    format!(
                        "{} chooses {} as the destiny of {} (locked in)",
                        req.player, c, card.name
                    ),
                    &[cite::MULTIPLE_DESTINY_VALUES],
                ));
                Some(c)
            }
            _ => {
                if out.needs.is_none() {
                    out.needs = Some(format!(
                        "destiny value of {} ({})",
                        card.name,
                        many.iter()
                            .map(|v| v.to_string())
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ));
                }
                None
            }
        },
    };
    let Some(printed) = printed else {
        out.draws.push(Drawn::valueless(&card.name, None));
        return;
    };
    let value = compute(
        &req.kind,
        &Base {
            source: card.name.clone(),
            value: Some(printed),
            cite: cite::HOW_TO_DRAW,
        },
        &req.each_draw,
        Rules { floor_zero: true },
    );
    let cancel = req.cancels.iter().find(|c| c.draw == my_ix);
    if let Some(c) = cancel {
        out.notes.push(Cited::new(
            format!(
                "{} draws {} ({}); canceled by {}{}",
                req.player,
                card.name,
                printed,
                c.by,
                if c.redraw {
                    ", redrawn"
                } else {
                    " (still counts against limits)"
                }
            ),
            &[cite::CANCELED_REDRAWN],
        ));
        out.draws.push(Drawn {
            source: card.name.clone(),
            substituted: false,
            value: None,
            counted: !c.redraw,
            chosen: false,
            canceled_by: Some(c.by.clone()),
        });
        if c.redraw {
            out.counted = out.counted.saturating_sub(1);
            draw_one(req, reserve, out, choices, counted_ix, chosen);
        }
        return;
    }
    out.notes.push(Cited::new(
        format!("{} draws {}: {value}", req.player, card.name),
        &[cite::HOW_TO_DRAW, cite::STEP_COMPLETE_DRAW],
    ));
    out.draws.push(Drawn {
        source: card.name.clone(),
        substituted: false,
        value: Some(value),
        counted: true,
        chosen,
        canceled_by: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck(vals: &[i64]) -> Vec<DestinyCard> {
        vals.iter()
            .enumerate()
            .map(|(i, v)| DestinyCard::new(format!("c{i}"), *v))
            .collect()
    }

    #[test]
    fn simple_two_draws_sum() {
        let o = draw(
            &Request::new("battle destiny", "Light", 2),
            &deck(&[3, 4, 5]),
        );
        assert_eq!(o.total_value(), Some(7));
        assert_eq!(o.consumed, 2);
    }

    #[test]
    fn each_draw_floor_then_total_modifiers() {
        let mut r = Request::new("weapon destiny", "Light", 1);
        r.each_draw.push(Modifier::new("minus", Op::Sub(3)));
        r.to_total.push(Modifier::new("Bowcaster", Op::Add(1)));
        let o = draw(&r, &deck(&[1]));
        // 1 - 3 -> reset to 0 at completion, then +1 to the total.
        assert_eq!(o.total_value(), Some(1));
    }

    #[test]
    fn empty_reserve_fails() {
        let o = draw(&Request::new("battle destiny", "Dark", 1), &[]);
        assert!(o.failed());
        assert_eq!(o.total_value(), None);
    }

    #[test]
    fn reserve_runs_out_mid_draws() {
        let o = draw(&Request::new("battle destiny", "Dark", 3), &deck(&[2]));
        assert_eq!(o.total_value(), Some(2));
        assert_eq!(o.consumed, 1);
    }

    #[test]
    fn substituted_value_is_not_modified_but_total_is() {
        let mut r = Request::new("weapon destiny", "Light", 0);
        r.plans.push(Plan::Substitute {
            source: "Sando Aqua Monster".into(),
            value: 6,
        });
        r.each_draw.push(Modifier::new("each", Op::Add(1)));
        r.to_total.push(Modifier::new("Bowcaster", Op::Add(1)));
        let o = draw(&r, &deck(&[0]));
        assert_eq!(o.total_value(), Some(7));
        assert_eq!(o.counted, 0);
    }

    #[test]
    fn substitute_needs_a_card_in_reserve() {
        let mut r = Request::new("battle destiny", "Dark", 0);
        r.plans.push(Plan::Normal);
        r.plans.push(Plan::Substitute {
            source: "Mist Hunter maneuver".into(),
            value: 3,
        });
        let o = draw(&r, &deck(&[2]));
        assert_eq!(o.total_value(), Some(2));
        let mut r = Request::new("battle destiny", "Dark", 0);
        r.plans.push(Plan::Substitute {
            source: "Mist Hunter maneuver".into(),
            value: 3,
        });
        r.plans.push(Plan::Normal);
        let o = draw(&r, &deck(&[2]));
        assert_eq!(o.total_value(), Some(5));
    }

    #[test]
    fn canceled_counts_against_limit_unless_redrawn() {
        let mut r = Request::new("battle destiny", "Light", 2);
        r.limit = Some(2);
        r.cancels.push(Cancel {
            draw: 0,
            by: "Tarkin".into(),
            redraw: false,
        });
        let o = draw(&r, &deck(&[5, 1, 4]));
        assert_eq!(o.total_value(), Some(1));
        assert_eq!(o.counted, 2);
        let mut r = Request::new("battle destiny", "Light", 2);
        r.limit = Some(2);
        r.cancels.push(Cancel {
            draw: 0,
            by: "Imperial Enforcement".into(),
            redraw: true,
        });
        let o = draw(&r, &deck(&[5, 1, 4]));
        assert_eq!(o.total_value(), Some(5));
        assert_eq!(o.consumed, 3);
    }

    #[test]
    fn a_card_canceled_where_it_was_drawn_counts_and_adds_nothing() {
        let mut cards = deck(&[1, 5]);
        cards[0].canceled_by = Some("Destiny Denied".into());
        let o = draw(&Request::new("battle destiny", "Dark", 2), &cards);
        assert_eq!((o.counted, o.consumed), (2, 2));
        assert_eq!(o.total_value(), Some(5));
        assert_eq!(o.draws[0].canceled_by.as_deref(), Some("Destiny Denied"));
        let o = draw(&Request::new("battle destiny", "Dark", 1), &cards[..1]);
        assert_eq!(o.counted, 1);
        assert!(o.failed());
        assert!(
            o.notes
                .iter()
                .all(|n| !n.text.contains("Reserve Deck is empty"))
        );
    }

    #[test]
    fn all_canceled_means_no_total() {
        let mut r = Request::new("battle destiny", "Light", 1);
        r.cancels.push(Cancel {
            draw: 0,
            by: "Tarkin".into(),
            redraw: false,
        });
        assert!(draw(&r, &deck(&[5])).failed());
    }

    #[test]
    fn choose_from_counts_every_draw() {
        // Limit 2: draw-2-choose-1 on the first reaches the limit.
        let mut r = Request::new("battle destiny", "Light", 0);
        r.limit = Some(2);
        r.plans.push(Plan::ChooseFrom {
            x: 2,
            y: 1,
            keep: Some(vec![1]),
            source: "Dash".into(),
        });
        r.plans.push(Plan::Normal);
        let o = draw(&r, &deck(&[1, 6, 3]));
        assert_eq!(o.counted, 2);
        assert_eq!(o.total_value(), Some(6));
        // Limit 1: only one may be drawn.
        r.limit = Some(1);
        let o = draw(&r, &deck(&[1, 6, 3]));
        assert_eq!(o.counted, 1);
        assert_eq!(o.total_value(), Some(1));
    }

    #[test]
    fn choose_from_without_choice_needs_decision() {
        let mut r = Request::new("battle destiny", "Light", 0);
        r.plans.push(Plan::ChooseFrom {
            x: 2,
            y: 1,
            keep: None,
            source: "Dash".into(),
        });
        let o = draw(&r, &deck(&[1, 6]));
        assert!(o.needs.is_some());
    }

    #[test]
    fn multiple_values_are_chosen_by_owner() {
        let r2 = DestinyCard {
            name: "R2-D2".into(),
            values: vec![2, 5],
            canceled_by: None,
        };
        let mut r = Request::new("battle destiny", "Light", 1);
        r.value_choices.push(5);
        assert_eq!(draw(&r, std::slice::from_ref(&r2)).total_value(), Some(5));
        let r = Request::new("battle destiny", "Light", 1);
        assert!(draw(&r, &[r2]).needs.is_some());
    }

    #[test]
    fn fuzz_draws_never_panic_or_go_negative() {
        let mut s: u64 = 0x1234_5678_9abc_def1;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..5_000 {
            let n = (next() % 6) as usize;
            let d: Vec<DestinyCard> = (0..n)
                .map(|i| DestinyCard::new(format!("c{i}"), (next() % 15) as i64 - 4))
                .collect();
            let mut r = Request::new("battle destiny", "Light", (next() % 4) as u32);
            if next() % 2 == 0 {
                r.limit = Some((next() % 3) as u32);
            }
            if next() % 2 == 0 {
                r.plans.push(Plan::ChooseFrom {
                    x: 2,
                    y: 1,
                    keep: Some(vec![0]),
                    source: "Dash".into(),
                });
            }
            r.each_draw
                .push(Modifier::new("m", Op::Add((next() % 11) as i64 - 5)));
            r.to_total
                .push(Modifier::new("t", Op::Add((next() % 11) as i64 - 5)));
            if next() % 3 == 0 {
                r.cancels.push(Cancel {
                    draw: 0,
                    by: "x".into(),
                    redraw: next() % 2 == 0,
                });
            }
            let o = draw(&r, &d);
            assert!(o.consumed <= d.len());
            if let Some(v) = o.total_value() {
                assert!(v >= 0);
            }
            for dr in &o.draws {
                if let Some(v) = dr.value.as_ref().and_then(|t| t.value) {
                    assert!(v >= 0 || dr.substituted);
                }
            }
        }
    }
}
