//! "When in a battle, if both players draw only one battle destiny and yours is
//! higher, reduces opponent's total battle destiny to zero": compared as an automatic
//! action once both players have drawn (or substituted) their one battle destiny,
//! with each draw's own modifiers applied; the opponent's total is then reset to an
//! unmodifiable zero (AR Reset; Power Segment - Draw Battle Destinies).

use super::destiny::DestinyResult;
use super::model::Side;
use super::values::{Base, Modifier, Op, Rules, Total, cite, compute};

/// The value of a side's one battle destiny draw, if it drew exactly one (drawn or
/// substituted) and it was not canceled.
fn single(r: Option<&DestinyResult>) -> Option<i64> {
    let r = r?;
    match &r.draws[..] {
        [d] => d.value.as_ref().and_then(|t| t.value),
        _ => None,
    }
}

/// Compares the draws for each side whose participating cards have this text
/// (`holders`, per side by index) and resets the other side's total battle destiny
/// where that side's one draw is lower. Returns the trace lines.
pub(super) fn compare(
    holders: &[Vec<String>; 2],
    results: [Option<&DestinyResult>; 2],
    bd: &mut [Option<Total>; 2],
) -> Vec<(String, Vec<&'static str>)> {
    let mut lines = Vec::new();
    for s in [Side::Light, Side::Dark] {
        let Some(holder) = holders[s.ix()].first() else {
            continue;
        };
        let opp = s.other();
        let (Some(mine), Some(theirs)) = (single(results[s.ix()]), single(results[opp.ix()]))
        else {
            lines.push((
                format!("{holder}: both players did not draw only one battle destiny each: no comparison"),
                vec![cite::BATTLE_DESTINIES],
            ));
            continue;
        };
        if mine <= theirs {
            lines.push((
                format!("{holder}: {s}'s one battle destiny {mine} is not higher than {opp}'s {theirs}: no effect"),
                vec![cite::BATTLE_DESTINIES],
            ));
            continue;
        }
        let Some(total) = bd[opp.ix()].as_ref() else {
            continue;
        };
        let reset = compute(
            &format!("{opp}'s total battle destiny"),
            &Base::of("total battle destiny", total.or_zero()),
            &[Modifier::new(holder.clone(), Op::Reset(0))],
            Rules::default(),
        );
        lines.push((
            format!("{holder}: {s}'s one battle destiny {mine} is higher than {opp}'s {theirs}: {reset} (an unmodifiable zero)"),
            vec![cite::BATTLE_DESTINIES, cite::RESET],
        ));
        bd[opp.ix()] = Some(reset);
    }
    lines
}
