//! Rendering for `deck` output: the verdict, the summary, each problem with the
//! rule or format entry it breaks and the cards involved, then the cards. JSON
//! is the [`Report`] itself.

use super::Style;
use crate::deck::{CardRef, Problem, Report, Zone};
use itertools::Itertools;
use std::fmt::Write as _;

fn cards_line(label: &str, cards: &[CardRef]) -> String {
    let list = cards
        .iter()
        .map(|c| format!("{} ({})", c.name, c.reference));
    format!("{label}: {}", list.format("; "))
}

fn problem(out: &mut String, i: usize, p: &Problem, style: &Style) {
    let head = format!("{:>2}. ", i + 1);
    let mut text = format!("{} {}", style.bold(&format!("[{}]", p.cites)), p.message);
    if let Some(l) = p.line {
        let _ = write!(text, " (line {l})");
    }
    style.push_wrapped(out, &text, &head, "    ");
    for (label, cards) in [("cards", &p.cards), ("choices", &p.choices)] {
        if !cards.is_empty() {
            let line = cards_line(label, cards);
            style.push_wrapped(out, &line, "    ", "    ");
        }
    }
}

/// The summary lines: counts by type, side, points and dice, formats.
fn summary(out: &mut String, r: &Report, style: &Style) {
    let s = &r.summary;
    let types = s.by_type.iter().map(|c| format!("{} {}", c.kind, c.count));
    let mut deck = format!("Deck: {} cards", s.deck_cards);
    if s.outside_deck > 0 {
        let _ = write!(deck, ", {} outside the deck", s.outside_deck);
    }
    if s.sideboard > 0 {
        let _ = write!(deck, ", {} in the sideboard (not checked)", s.sideboard);
    }
    style.push_wrapped(out, &deck, "  ", "  ");
    let types = format!("By type: {}", types.format(", "));
    style.push_wrapped(out, &types, "  ", "  ");
    if let Some(side) = &s.side {
        let _ = writeln!(out, "  Side: {side}");
    }
    if let (Some(p), Some(limit)) = (s.points, s.point_limit) {
        let _ = writeln!(
            out,
            "  Team: {p} of {limit} points, {} dice",
            s.dice.unwrap_or(0)
        );
    }
    if let Some(legal) = &s.legal_in {
        let v = if legal.is_empty() {
            "none of the imported formats".to_string()
        } else {
            legal.join(", ")
        };
        style.push_wrapped(out, &format!("Legal in: {v}"), "  ", "  ");
    }
}

/// The report as text.
pub fn text(r: &Report, style: &Style) -> String {
    let mut out = String::new();
    let mut head = format!("{}: {}", r.file, r.game.title());
    if let Some(n) = &r.name {
        let _ = write!(head, ", \"{n}\"");
    }
    if let Some(f) = &r.format {
        let _ = write!(head, ", format {f}");
    }
    style.push_wrapped(&mut out, &head, "", "");
    let verdict = if r.legal {
        "LEGAL".to_string()
    } else {
        format!(
            "ILLEGAL: {} problem{}",
            r.problems.len(),
            if r.problems.len() == 1 { "" } else { "s" }
        )
    };
    let _ = writeln!(out, "{}", style.bold(&verdict));
    summary(&mut out, r, style);
    if !r.problems.is_empty() {
        let _ = writeln!(out, "\nProblems");
        for (i, p) in r.problems.iter().enumerate() {
            problem(&mut out, i, p, style);
        }
    }
    if !r.card_rules.is_empty() {
        let _ = writeln!(
            out,
            "\nDeck-building text on cards (not applied; for the judge)"
        );
        for c in &r.card_rules {
            let line = format!("{} ({}): {}", c.card.name, c.card.reference, c.text);
            style.push_wrapped(&mut out, &line, "  - ", "    ");
        }
    }
    if !r.cards.is_empty() {
        let _ = writeln!(out, "\nCards");
        for c in &r.cards {
            let zone = match c.zone {
                Zone::Deck => "",
                Zone::Team => " [team]",
                Zone::OutsideDeck => " [outside deck]",
                Zone::Sideboard => " [sideboard]",
            };
            let dice = c
                .dice
                .map(|d| format!(", {d} {}", if d == 1 { "die" } else { "dice" }))
                .unwrap_or_default();
            let line = format!(
                "{}x {} ({}, {}{dice}){zone}",
                c.count,
                c.name,
                c.reference,
                c.card_type.as_deref().unwrap_or("no type")
            );
            style.push_wrapped(&mut out, &line, "  ", "      ");
        }
    }
    out
}
