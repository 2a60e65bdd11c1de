//! Actions on the stack (AR Ch.1 Section C, The Stack).

use super::state::{CardIx, Zone};
use crate::engine::swccg::model::{Dest, DestinyTest, Effect, MoveHow, PileName, Side};
use std::collections::VecDeque;

/// Where a card is being deployed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeployTo {
    Location(usize),
    OnCard(CardIx),
    Table,
}

/// What an action on the stack is. Battles and Force drains are actions too;
/// their steps are carried out by `battle` and `drain`.
#[derive(Debug, Clone)]
pub enum ActionKind {
    /// Deploying a card (from hand, or from a pile through game text).
    Deploy { to: DeployTo },
    /// Playing an Interrupt.
    Play,
    /// Using optional game text of a card on table.
    UseText,
    /// An automatic action triggered by game text.
    Triggered,
    /// A mandatory action (top-level, or triggered at the end of its time frame).
    Mandatory,
    /// A destiny draw within another action's result; `parent` is its stack index.
    DestinyDraw { parent: usize, test: DestinyTest },
    /// The destiny card just drawn, open to responses before it is placed.
    DestinyDrawn {
        parent: usize,
        test: DestinyTest,
        card: Option<CardIx>,
        value: Option<i64>,
    },
    /// A deployment coming off the stack: responses to a just deployed card.
    JustDeployed,
    /// Cards just lost from table (already in the Lost Pile): responses to just lost cards.
    JustLost { cards: Vec<CardIx> },
    /// A move or transport coming off the stack: responses to just moved cards.
    JustMoved { cards: Vec<CardIx> },
    /// A battle's winner was just determined (AR Power Segment - Winner And Loser):
    /// responses to winning or losing, before the damage segment.
    BattleWon { battle: usize },
    /// A move (AR Ch.7): the card goes to `to` when the action has its result.
    Move { to: Zone, how: MoveHow },
    /// A battle: not modelled by the stack engine itself.
    Battle,
    /// A Force drain: not modelled by the stack engine itself.
    ForceDrain,
    /// Firing a weapon in a battle's weapons segment (the battle is `responding_to`).
    Fire,
    /// A creature attack (`creature`).
    Attack,
    /// One Force activated by `side` within another action's result.
    Activation { side: Side },
    /// A Force loss required by a result, open to responses that reduce it.
    ForceLoss { side: Side, amount: i64 },
    /// Locations just blown away: responses to the blowing away (AR Blown Away - Timing).
    BlownAway { locations: Vec<usize> },
}

impl ActionKind {
    pub fn name(&self) -> &'static str {
        match self {
            ActionKind::Deploy { .. } => "deployment",
            ActionKind::Play => "play",
            ActionKind::UseText => "game text",
            ActionKind::Triggered => "automatic action",
            ActionKind::Mandatory => "mandatory action",
            ActionKind::DestinyDraw { .. } => "destiny draw",
            ActionKind::DestinyDrawn { .. } => "just drawn destiny",
            ActionKind::JustDeployed => "just deployed",
            ActionKind::JustMoved { .. } => "just moved",
            ActionKind::JustLost { .. } => "just lost",
            ActionKind::BattleWon { .. } => "battle won",
            ActionKind::Move { .. } => "move",
            ActionKind::Battle => "battle",
            ActionKind::ForceDrain => "Force drain",
            ActionKind::Fire => "weapon firing",
            ActionKind::Attack => "attack",
            ActionKind::Activation { .. } => "activation",
            ActionKind::ForceLoss { .. } => "Force loss",
            ActionKind::BlownAway { .. } => "blown away",
        }
    }
}

/// A resolved target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tgt {
    Card(CardIx),
    Cards(Vec<CardIx>),
    /// An action on the stack, by stack index.
    Entry(usize),
    Location(usize),
    Pile(Side, PileName),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Automatic actions, then just actions.
    Responding,
    /// Carrying out its result.
    Resolving,
}

/// One action on the stack.
#[derive(Debug, Clone)]
pub struct Entry {
    pub kind: ActionKind,
    /// The player who performed it.
    pub actor: Side,
    /// The card played, deployed, or whose game text is used.
    pub card: Option<CardIx>,
    pub ability: Option<usize>,
    pub targets: Vec<(String, Tgt)>,
    /// The stack index of the action this one responds to.
    pub responding_to: Option<usize>,
    /// Short name used in trace and expectations.
    pub label: String,
    pub stage: Stage,
    /// Automatic actions still to initiate; `None` until collected.
    pub autos: Option<VecDeque<(CardIx, usize)>>,
    /// Whose just action is next.
    pub next: Side,
    pub passes: u8,
    pub window_opened: bool,
    /// Just actions already initiated against this occurrence (card, ability).
    pub responded: Vec<(CardIx, usize)>,
    /// Where the card goes afterwards, even if canceled (e.g. played "then place out of play").
    pub then: Option<Dest>,
    /// Remaining steps of the result.
    pub pending: VecDeque<Effect>,
    /// The last destiny drawn for this action.
    pub destiny: Option<i64>,
    /// Cards this action relocated (it completes a move when it comes off the stack).
    pub moved: Vec<CardIx>,
    pub canceled: bool,
    /// The action that canceled this one (its label).
    pub canceled_by: Option<String>,
    /// A destiny draw: the substituted value used instead of drawing a card.
    pub substitute: Option<i64>,
    /// A battle destiny draw: the side drawing it (its value goes to the battle).
    pub battle_draw: Option<Side>,
    /// A battle: the destiny draws still to make (power, battle, attrition), in order.
    pub draws_left: VecDeque<(Side, BattleDraw)>,
    /// A battle: the destinies drawn in its power segment, in order.
    pub drawn: Vec<PowerDraw>,
    /// A battle: sides that chose to draw fewer battle destinies, and how many.
    pub fewer: Vec<(Side, u32)>,
    /// A battle in its weapons segment: who acts next and the consecutive passes.
    pub segment: Option<(Side, u8)>,
    /// A battle: the weapon segment is over.
    pub weapons_done: bool,
    /// A battle: cards hit by weapons (and whether their forfeit became 0).
    pub hits: Vec<(CardIx, bool)>,
    /// A battle: weapons fired in it.
    pub fired: Vec<CardIx>,
    /// A weapon firing: added to its weapon destiny before comparing.
    pub destiny_add: i64,
    /// A battle's destiny draw: which kind it is.
    pub draw_kind: BattleDraw,
    /// A battle: the repeating weapon whose owner may fire it again now.
    pub repeating: Option<CardIx>,
    /// An action drawing a destiny total outside battle: its draws so far.
    pub total: Option<Box<super::destiny_total::TotalRun>>,
    /// A canceled destiny draw that is drawn again.
    pub redraw: bool,
    /// A destiny draw made as "draw X and choose Y".
    pub choose: Option<(u32, u32)>,
    /// A played Interrupt grabbed (stacked on a grabber) before its result: it has none.
    pub grabbed: bool,
    /// A Force loss: how much responses reduced it.
    pub loss_reduced: i64,
    // ---- the damage segment as decisions
    /// A battle in its damage segment.
    pub damage: Option<Box<super::battle_damage::DamageSeg>>,
    /// A battle: destinies just drawn that responses added to a side's total power
    /// (side, value, source).
    pub power_adds: Vec<(Side, i64, String)>,
    /// A battle: modifiers played for the rest of it.
    pub played_mods: Vec<super::battle::ModSpec>,
    /// A battle: cards excluded from it (inactive for the battle, with what is on them).
    pub excluded: Vec<CardIx>,
    /// A battle: the lines saying how many destinies each side draws, traced
    /// where they are worked out, before the draws (not again with the result).
    pub counts: Vec<crate::engine::Cited>,
    /// A battle: the cards at its location when its power segment began, with when each
    /// came onto the table. A card that arrives later (or returns) does not participate
    /// (AR Participating In Battle).
    pub roster: Option<Vec<(CardIx, u64)>>,
    /// A creature attack.
    pub attack: Option<Box<super::creature::AttackInfo>>,
    /// A weapon firing: its weapon destiny draws so far and what they add up to.
    pub shot: Option<Box<super::weapon_fire::Shot>>,
    /// A duel: its duelists, draws and totals.
    pub duel: Option<Box<super::duel::DuelState>>,
}

impl Entry {
    pub fn new(kind: ActionKind, actor: Side, card: Option<CardIx>, label: String) -> Entry {
        Entry {
            kind,
            actor,
            card,
            ability: None,
            targets: Vec::new(),
            responding_to: None,
            label,
            stage: Stage::Responding,
            autos: None,
            next: actor.other(),
            passes: 0,
            window_opened: false,
            responded: Vec::new(),
            then: None,
            pending: VecDeque::new(),
            destiny: None,
            moved: Vec::new(),
            canceled: false,
            canceled_by: None,
            substitute: None,
            battle_draw: None,
            draws_left: VecDeque::new(),
            drawn: Vec::new(),
            fewer: Vec::new(),
            segment: None,
            weapons_done: false,
            hits: Vec::new(),
            fired: Vec::new(),
            destiny_add: 0,
            draw_kind: BattleDraw::Battle,
            repeating: None,
            total: None,
            redraw: false,
            choose: None,
            grabbed: false,
            loss_reduced: 0,
            damage: None,
            power_adds: Vec::new(),
            played_mods: Vec::new(),
            excluded: Vec::new(),
            counts: Vec::new(),
            roster: None,
            attack: None,
            shot: None,
            duel: None,
        }
    }

    pub fn target(&self, name: &str) -> Option<&Tgt> {
        self.targets.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }
}

/// The destiny draws of a battle's power segment, each an action on the stack: power
/// destinies (added to total power), battle destinies and attrition destinies (added to
/// attrition). Each side's draws are made in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BattleDraw {
    Power,
    #[default]
    Battle,
    Attrition,
}

/// A destiny drawn in a battle's power segment (or an attack) on the stack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PowerDraw {
    /// Who drew it.
    pub side: Side,
    /// Its value; `None` when the draw failed (an empty Reserve Deck) or was canceled.
    pub value: Option<i64>,
    pub kind: BattleDraw,
    /// Canceled and not redrawn: the action that canceled it. The draw was made, and it
    /// counts toward the destinies drawn (AR Canceled And Redrawn Destiny Draws).
    pub canceled_by: Option<String>,
}

impl PowerDraw {
    /// The draw was made: it has a value, or it was canceled (not a failed draw).
    pub fn made(&self) -> bool {
        self.value.is_some() || self.canceled_by.is_some()
    }
}

impl BattleDraw {
    pub fn as_str(self) -> &'static str {
        match self {
            BattleDraw::Power => "power",
            BattleDraw::Battle => "battle",
            BattleDraw::Attrition => "attrition",
        }
    }
}
