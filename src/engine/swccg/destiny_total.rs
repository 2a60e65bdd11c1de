//! Destiny totals outside battle (AR Ch.1 Section F, Drawing Destiny): an action's
//! result draws N destinies, each an ordinary destiny draw on the stack (so a player
//! about to draw may substitute, and responses to a destiny just drawn work), then
//! adds them up with the modifiers to each draw and to the total.
//!
//! Rules modelled: modifiers to each draw apply to drawn cards only, a substituted
//! destiny is final (AR Substituted Destinies; Examples Of Substituted Destinies And
//! Modifying Totals) while modifiers to the total still apply; each destiny number
//! cannot fall below zero before totaling; a limit on the number of draws counts every
//! draw made but a substituted one (Examples Of Substituted Destinies); a draw with an
//! empty Reserve Deck fails, and with no draw made there is no total to modify (Failed
//! Destiny Draws); a player with an empty Reserve Deck is not about to draw, so a
//! substitute cannot be used then (Examples Of Destinies "About To Be Drawn").
//!
//! Observed as `totals.<action label>` (null: no total).

use super::battle::{OpSpec, Target, to_op};
use super::effects::Applied;
use super::engine::*;
use super::model::{Amount, DestinyTest, Effect, Side, Who};
use super::stack::{ActionKind, Entry};
use super::state::CardIx;
use super::values::{Base, Modifier, Rules, Total, cite, compute};
use crate::engine::End;
use crate::engine::{Actor, Event};
use serde::Deserialize;

/// `destiny_total:` — what the action draws and how it is totaled.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TotalSpec {
    /// Destinies to draw (default 1).
    #[serde(default = "one")]
    pub draws: u32,
    /// At most this many draws may be made (a substituted destiny does not count).
    #[serde(default)]
    pub limit: Option<u32>,
    /// The card's own modifiers to each destiny drawn (`{add: 1}`…).
    #[serde(default)]
    pub each_draw: Vec<OpSpec>,
    /// The card's own modifiers to the total (`{add: 2}`…).
    #[serde(default)]
    pub to_total: Vec<OpSpec>,
    /// Test the total like `destiny:` does.
    #[serde(default)]
    pub less_than: Option<Amount>,
    #[serde(default)]
    pub greater_than: Option<Amount>,
    #[serde(default)]
    pub success: Vec<Effect>,
    #[serde(default)]
    pub failure: Vec<Effect>,
}

fn one() -> u32 {
    1
}

/// The draws an action made so far for its total.
#[derive(Debug, Clone)]
pub struct TotalRun {
    pub spec: TotalSpec,
    /// Each draw: its value (`None`: failed) and whether it was substituted.
    pub made: Vec<(Option<i64>, bool)>,
    /// Draws beyond one made by "draw X choose Y" (they count against limits too).
    pub extra: u32,
}

impl TotalRun {
    /// Draws that count against a limit: every one made but a substituted one.
    fn counted(&self) -> u32 {
        self.made.iter().filter(|(_, s)| !s).count() as u32 + self.extra
    }
}

/// The total of the draws made: each drawn destiny with the modifiers to each draw
/// (floored at zero), a substituted one as it is, then the modifiers to the total.
/// `None` when no draw produced a destiny.
pub fn total(
    made: &[(Option<i64>, bool)],
    each: &[Modifier],
    to_total: &[Modifier],
) -> (Vec<Total>, Option<Total>) {
    let mut draws = Vec::new();
    let mut sum: Option<i64> = None;
    for (i, &(v, substituted)) in made.iter().enumerate() {
        let Some(v) = v else { continue };
        let label = format!("destiny draw {}", i + 1);
        let t = if substituted {
            let mut base = Base::of("substituted destiny", v);
            base.cite = cite::SUBSTITUTED_DESTINIES;
            let ignored: Vec<Modifier> = each
                .iter()
                .map(|m| {
                    m.clone().canceled(
                        "the substitution (a substituted destiny is not modified; only the total is)",
                    )
                })
                .collect();
            compute(&label, &base, &ignored, Rules::default())
        } else {
            compute(&label, &Base::of("destiny", v), each, Rules::default())
        };
        sum = Some(sum.unwrap_or(0).saturating_add(t.or_zero()));
        draws.push(t);
    }
    let t = sum.map(|s| {
        let mut base = Base::of("destiny draws", s);
        base.cite = cite::STEP_TOTAL;
        compute("total destiny", &base, to_total, Rules::default())
    });
    (draws, t)
}

/// The modifiers of the cards on table to `p`'s destinies outside battle, and the
/// drawing card's own, in the order they occurred.
fn modifiers(e: &Engine, p: Side, own: &[OpSpec], source: &str, each: bool) -> Vec<Modifier> {
    let mut out: Vec<Modifier> = own
        .iter()
        .map(|&o| Modifier::new(source.to_string(), to_op(o)))
        .collect();
    let mut cards: Vec<CardIx> = (0..e.st.cards.len())
        .filter(|&c| e.st.active(c) && !e.st.def(c).modifiers.is_empty())
        .collect();
    cards.sort_by_key(|&c| (e.st.entered[c], c));
    for c in cards {
        let owner = e.st.owner(c);
        for m in &e.st.def(c).modifiers {
            let whose = match m.side {
                Some(Who::Opponent) => owner.other(),
                None | Some(Who::You) => owner,
            };
            let hit = (m.target == Target::EachDestiny && each)
                || (m.target == Target::TotalDestiny && !each);
            if hit && whose == p && super::text_when::holds(&e.st, c, &m.when, None) {
                let mut md = Modifier::new(e.st.title(c).to_string(), to_op(m.op));
                if m.cumulative {
                    md = md.cumulative();
                }
                out.push(md);
            }
        }
    }
    out
}

impl Engine {
    /// `destiny_total`: start the first draw.
    pub(super) fn destiny_total_effect(
        &mut self,
        ix: usize,
        me: Side,
        label: &str,
        spec: TotalSpec,
    ) -> Applied {
        self.stack[ix].total = Some(Box::new(TotalRun {
            spec,
            made: Vec::new(),
            extra: 0,
        }));
        self.push_total_draw(ix, me, label)
    }

    fn push_total_draw(&mut self, ix: usize, me: Side, label: &str) -> Applied {
        let n = self.stack[ix].total.as_ref().map_or(0, |t| t.made.len()) + 1;
        let mut e = Entry::new(
            ActionKind::DestinyDraw {
                parent: ix,
                test: DestinyTest::default(),
            },
            me,
            None,
            format!("{}'s destiny draw {n} for {label}", me.name()),
        );
        e.next = me.other();
        self.stack.push(e);
        self.log(
            actor(me),
            Event::Push,
            format!(
                "{label}: {} draws destiny {n} (an action of its own)",
                me.name()
            ),
            &[cite::HOW_TO_DRAW, cite::DRAWING_DESTINY],
        );
        Applied::Pushed
    }

    /// A destiny draw for `parent` came off the stack: a plain test, or the next draw
    /// of a total, or the total itself.
    pub(super) fn destiny_done(
        &mut self,
        parent: usize,
        test: &DestinyTest,
        value: Option<i64>,
        substituted: bool,
    ) {
        if parent >= self.stack.len() || self.stack[parent].total.is_none() {
            let p = self.stack.get(parent).map(|e| e.actor);
            let value = match p {
                Some(p) => self.destiny_for_card(parent, p, value),
                None => value,
            };
            self.apply_destiny_test(parent, test, value);
            return;
        }
        let me = self.stack[parent].actor;
        let label = self.stack[parent].label.clone();
        let Some(run) = self.stack[parent].total.as_mut() else {
            return;
        };
        run.made.push((value, substituted));
        let (draws, limit, counted) = (run.spec.draws, run.spec.limit, run.counted());
        let more = (run.made.len() as u32) < draws;
        if more && limit.is_some_and(|l| counted >= l) {
            let text = format!(
                "{label}: {} is limited to {} destiny draw(s); no further draw",
                me.name(),
                limit.unwrap_or(0)
            );
            self.log(actor(me), Event::Result, text, &[cite::LIMITED]);
        } else if more {
            // The next draw comes after this one: the parent goes on when it pops.
            let _ = self.push_total_draw(parent, me, &label);
            return;
        }
        self.finish_total(parent, me, &label);
    }

    /// Add up the draws of `parent`, report the total and test it.
    fn finish_total(&mut self, parent: usize, me: Side, label: &str) {
        let Some(run) = self.stack[parent].total.clone() else {
            return;
        };
        let source = self.stack[parent]
            .card
            .map_or_else(|| label.to_string(), |c| self.st.title(c).to_string());
        let each = modifiers(self, me, &run.spec.each_draw, &source, true);
        let to_total = modifiers(self, me, &run.spec.to_total, &source, false);
        let (draws, t) = total(&run.made, &each, &to_total);
        for d in &draws {
            self.log(
                actor(me),
                Event::Result,
                format!("{label}: {d}"),
                &d.cites(),
            );
        }
        let value = t.as_ref().and_then(|t| t.value);
        match &t {
            Some(t) => self.log(
                actor(me),
                Event::Result,
                format!("{label}: {t}"),
                &t.cites(),
            ),
            None => self.log(
                actor(me),
                Event::Result,
                format!(
                    "{label}: no destiny was drawn, so there is no total to modify: the draw fails"
                ),
                &[cite::FAILED_DRAWS, cite::UNDEFINED_VALUES],
            ),
        }
        self.answers
            .push((format!("totals.{label}"), serde_json::json!(value)));
        let s = &run.spec;
        if s.less_than.is_some() || s.greater_than.is_some() {
            let test = DestinyTest {
                less_than: s.less_than.clone(),
                greater_than: s.greater_than.clone(),
                success: s.success.clone(),
                failure: s.failure.clone(),
            };
            self.apply_destiny_test(parent, &test, value);
        } else {
            self.stack[parent].destiny = value;
        }
    }

    /// Rules that stop a response from being initiated where it stands: canceling a
    /// Force drain that may not be canceled; substituting for a destiny draw by a
    /// player who is not about to draw (an empty Reserve Deck).
    pub(super) fn response_allowed(&self, c: CardIx, a: usize, w: Window) -> Result<(), Rejection> {
        self.drain_cancel_allowed(c, a, w)?;
        let Window::Response(i) = w else {
            return Ok(());
        };
        let substitutes = self.st.def(c).abilities[a]
            .effect
            .iter()
            .any(|e| matches!(e, Effect::SubstituteDestiny(_)));
        let drawer = self.stack[i].actor;
        let empty = self
            .st
            .top(drawer, super::model::PileName::ReserveDeck)
            .is_none();
        self.choose_allowed(c, a, i)?;
        if substitutes && matches!(self.stack[i].kind, ActionKind::DestinyDraw { .. }) && empty {
            return Err(rej(
                format!(
                    "{} cannot be used: the Reserve Deck is empty, so {} is not about to draw destiny",
                    self.name(c),
                    drawer.name()
                ),
                cite::ABOUT_TO_DRAW_EXAMPLES,
            ));
        }
        Ok(())
    }
}

impl Engine {
    /// `cancel_and_redraw`: the destiny just drawn (the action responded to) is
    /// canceled and will be drawn again.
    pub(super) fn cancel_and_redraw(&mut self, ix: usize, label: &str) -> Applied {
        let j = self.stack[ix]
            .responding_to
            .filter(|&j| j < self.stack.len() && !self.stack[j].canceled);
        match j {
            Some(j) if matches!(self.stack[j].kind, ActionKind::DestinyDrawn { .. }) => {
                self.cancel(ix, j);
                self.stack[j].redraw = self.stack[j].canceled;
            }
            _ => self.log(
                Actor::Rules,
                Event::Result,
                format!("{label}: no destiny just drawn to cancel and redraw"),
                &[cite::CANCELED_REDRAWN],
            ),
        }
        Applied::Done
    }

    /// A destiny draw of a total (or a duel) came off the stack canceled: its card goes to the Used
    /// Pile; a redraw is drawn in its place (and counts instead), otherwise the canceled
    /// draw still counts against the limit and adds nothing (AR Canceled And Redrawn
    /// Destiny Draws).
    pub(super) fn canceled_draw(&mut self, e: Entry) {
        let (parent, card) = match &e.kind {
            ActionKind::DestinyDrawn { parent, card, .. } => (*parent, *card),
            ActionKind::DestinyDraw { parent, .. } => (*parent, None),
            _ => return,
        };
        if parent >= self.stack.len() {
            return;
        }
        let me = e.actor;
        self.canceled_card_to_used_pile(me, card);
        if self.stack[parent].total.is_none() && self.stack[parent].duel.is_none() {
            self.single_draw_redrawn(e);
            return;
        }
        if self.stack[parent].duel.is_some() {
            self.duel_draw_canceled(parent, me, e.redraw);
            return;
        }
        let label = self.stack[parent].label.clone();
        self.log_canceled(me, &label, e.redraw);
        if e.redraw {
            let _ = self.push_total_draw(parent, me, &label);
            return;
        }
        self.destiny_done(parent, &DestinyTest::default(), None, false);
    }

    /// Only the value of a destiny drawn is canceled: its card, still unresolved, goes to
    /// the Used Pile as any drawn destiny card does (AR Step 1: Drawing The Destiny;
    /// Unresolved Destiny Draws; Step 5: Complete Draw).
    fn canceled_card_to_used_pile(&mut self, me: Side, card: Option<CardIx>) {
        let Some(c) = card.filter(|&c| self.st.zone[c] == super::state::Zone::Drawn) else {
            return;
        };
        self.st.to_pile(c, me, super::model::PileName::UsedPile);
        let text = format!(
            "only the value of the destiny drawn was canceled: the card {} is placed on {}'s Used Pile",
            self.name(c),
            me.name()
        );
        let cites = [
            cite::STEP_DRAW,
            cite::UNRESOLVED_DRAWS,
            cite::STEP_COMPLETE_DRAW,
        ];
        self.log(actor(me), Event::StateChange, text, &cites);
    }

    /// A canceled draw of the action `label`: a redraw counts instead of it; otherwise
    /// it still counts (AR Canceled And Redrawn Destiny Draws).
    fn log_canceled(&mut self, me: Side, label: &str, redraw: bool) {
        let text = if redraw {
            "the canceled destiny is redrawn; the redraw counts instead"
        } else {
            "a canceled destiny draw still counts against the limit"
        };
        let text = format!("{label}: {text}");
        self.log(actor(me), Event::Result, text, &[cite::CANCELED_REDRAWN]);
    }
}

impl Engine {
    /// A single destiny draw of a result (a weapon's, an Interrupt's, a battle's) came
    /// off the stack canceled. To be redrawn, the destiny is drawn again, tested as the
    /// canceled one would have been, and the redraw counts instead (AR Canceled And
    /// Redrawn Destiny Draws); otherwise the draw has no result, and a battle's draw still
    /// counts as one of the battle's draws, with no value.
    fn single_draw_redrawn(&mut self, e: Entry) {
        let ActionKind::DestinyDrawn { parent, test, .. } = e.kind else {
            return;
        };
        let me = e.actor;
        let label = self.stack[parent].label.clone();
        if e.redraw || e.battle_draw.is_some() {
            self.log_canceled(me, &label, e.redraw);
        }
        if !e.redraw {
            if let Some(s) = e.battle_draw {
                self.stack[parent].drawn.push(super::stack::PowerDraw {
                    side: s,
                    value: None,
                    kind: e.draw_kind,
                    canceled_by: Some(e.canceled_by.unwrap_or_else(|| "a response".into())),
                });
            }
            return;
        }
        // A battle's destiny: drawn again as the battle's next draw, of the same kind.
        if let Some(s) = e.battle_draw {
            self.stack[parent].draws_left.push_front((s, e.draw_kind));
            return;
        }
        let _ = self.destiny_effect(parent, me, &label, test);
    }

    /// `draw_x_choose_y`: the destiny about to be drawn (the action responded to) is
    /// drawn as X destinies, of which Y are chosen.
    pub(super) fn draw_x_choose_y(&mut self, ix: usize, label: &str, x: u32, y: u32) -> Applied {
        let j = self.stack[ix]
            .responding_to
            .filter(|&j| j < self.stack.len());
        match j {
            Some(j) if matches!(self.stack[j].kind, ActionKind::DestinyDraw { .. }) => {
                self.stack[j].choose = Some((x, y));
                let text = format!(
                    "{label}: {} will draw {x} destinies and choose {y}",
                    self.stack[j].label
                );
                self.log(
                    actor(self.stack[ix].actor),
                    Event::StateChange,
                    text,
                    &[cite::DRAW_X_CHOOSE_Y],
                );
            }
            _ => self.log(
                Actor::Rules,
                Event::Result,
                format!("{label}: no destiny draw about to happen"),
                &[cite::DRAW_X_CHOOSE_Y],
            ),
        }
        Applied::Done
    }

    /// How many more destinies the total of `parent` may draw under its limit.
    fn allowance(&self, parent: usize) -> Option<u32> {
        let run = self.stack.get(parent)?.total.as_ref()?;
        run.spec.limit.map(|l| l.saturating_sub(run.counted()))
    }

    /// Draws X destinies for the draw at `ix` (each counts against limits), and the
    /// drawing player chooses one to keep (`choose`); the others go to the Used Pile.
    pub(super) fn draw_and_choose(
        &mut self,
        ix: usize,
        parent: usize,
        p: Side,
    ) -> (Option<CardIx>, Option<i64>) {
        use super::model::PileName;
        let (x, y) = self.stack[ix].choose.unwrap_or((1, 1));
        if y != 1 {
            let what = format!("draw {x} and choose {y} destinies (only one kept is modelled)");
            let depth = self.depth();
            self.trace
                .not_modelled(depth, actor(p), what.clone(), &[cite::DRAW_X_CHOOSE_Y]);
            self.outcome = Some(End::NotModelled { what });
            return (None, None);
        }
        let mut drawn: Vec<(CardIx, i64)> = Vec::new();
        for _ in 0..x {
            let Some(c) = self.st.top(p, PileName::ReserveDeck) else {
                break;
            };
            let Some(v) = self.destiny_number(p, c) else {
                break;
            };
            self.st.put(c, super::state::Zone::Drawn);
            self.destinies.push(v);
            drawn.push((c, v));
        }
        if let Some(t) = self.stack.get_mut(parent).and_then(|e| e.total.as_mut()) {
            t.extra += (drawn.len() as u32).saturating_sub(1);
        }
        let shown: Vec<String> = drawn
            .iter()
            .map(|&(c, v)| format!("{} ({v})", self.st.key(c)))
            .collect();
        self.log(
            actor(p),
            Event::Result,
            format!(
                "{} draws {} destinies: {}; each counts as a draw",
                p.name(),
                drawn.len(),
                shown.join(", ")
            ),
            &[cite::DRAW_X_CHOOSE_Y],
        );
        let keep = match drawn.as_slice() {
            [] => return (None, None),
            [only] => Some(only.0),
            _ => {
                let cands: Vec<CardIx> = drawn.iter().map(|d| d.0).collect();
                self.choose_one(p, &cands, "the destiny to keep")
            }
        };
        let Some(keep) = keep else {
            return (None, None);
        };
        for &(c, _) in drawn.iter().filter(|d| d.0 != keep) {
            self.st.to_pile(c, p, PileName::UsedPile);
        }
        let v = drawn.iter().find(|d| d.0 == keep).map(|d| d.1);
        self.log(
            actor(p),
            Event::Result,
            format!(
                "{} chooses {} ({}); the others go to the Used Pile",
                p.name(),
                self.name(keep),
                v.unwrap_or(0)
            ),
            &[cite::DRAW_X_CHOOSE_Y],
        );
        (Some(keep), v)
    }

    /// "Draw X choose Y" may be used only when every one of the X draws may be made:
    /// all of them count against the limit (AR Draw X Choose Y - Examples 1 to 3).
    fn choose_allowed(&self, c: CardIx, a: usize, i: usize) -> Result<(), Rejection> {
        let x = self.st.def(c).abilities[a].effect.iter().find_map(|e| {
            if let Effect::DrawXChooseY { x, .. } = e {
                Some(*x)
            } else {
                None
            }
        });
        let (Some(x), ActionKind::DestinyDraw { parent, .. }) = (x, &self.stack[i].kind) else {
            return Ok(());
        };
        match self.allowance(*parent) {
            Some(left) if left < x => Err(rej(
                format!(
                    "{} cannot be used: its {x} draws all count against the limit, and only {left} more may be drawn",
                    self.name(c)
                ),
                cite::DRAW_X_CHOOSE_Y_EXAMPLE_1,
            )),
            _ => Ok(()),
        }
    }
}

impl Engine {
    /// A scripted response anchored (`responding_to:`) to the action at `i` whose card
    /// has text responding to that kind of action is judged there even when the rules
    /// forbid it there (so it is rejected with the rule, never silently held).
    pub(super) fn anchored_here(&self, d: &Decision, i: usize) -> bool {
        let Some(c) = d.step.card.as_deref().and_then(|k| self.st.find(k)) else {
            return false;
        };
        self.st
            .def(c)
            .abilities
            .iter()
            .filter_map(|a| a.responds_to.as_ref())
            .any(|t| self.trigger_matches(t, i, c))
    }
}

/// Is `totals.<rest>` a path a board position can observe? Any action label.
pub fn observable(rest: &str) -> Result<(), String> {
    if rest.is_empty() {
        return Err("`totals.<label>`: the label of the action that drew the total".into());
    }
    Ok(())
}
