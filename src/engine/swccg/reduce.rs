//! "May not be reduced" (AR Reduce): any time a value is modified or reset to a
//! lower number it has been reduced; a value that may not be reduced ignores each
//! modifier or reset that would lower it, in the order they occurred, while
//! increases still apply.

use super::values::{Base, Modifier, Rules, compute};

pub const REDUCE: &str = "swccg.ar.reduce";

/// Every ID this module cites.
pub const IDS: &[&str] = &[REDUCE];

/// The modifiers of a value, with those that would reduce it canceled (when
/// `active`): each is tried in order against the value so far.
pub fn guard(base: &Base, mods: Vec<Modifier>, active: bool) -> Vec<Modifier> {
    if !active {
        return mods;
    }
    let mut kept: Vec<Modifier> = Vec::with_capacity(mods.len());
    let mut before = compute("", base, &kept, Rules::default()).value;
    for m in mods {
        let mut trial = kept.clone();
        trial.push(m.clone());
        let after = compute("", base, &trial, Rules::default()).value;
        let lower = matches!((before, after), (Some(b), Some(a)) if a < b);
        if lower {
            let why = format!(
                "the value may not be reduced ({} would lower it to {})",
                m.source,
                after.unwrap_or_default()
            );
            kept.push(m.canceled(why).cite(REDUCE));
        } else {
            before = after;
            kept.push(m);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::swccg::values::Op;

    fn total(mods: Vec<Modifier>, active: bool) -> Option<i64> {
        let base = Base::of("Luke", 3);
        compute(
            "power",
            &base,
            &guard(&base, mods, active),
            Rules::default(),
        )
        .value
    }

    #[test]
    fn reductions_fail_increases_apply() {
        let mods = vec![
            Modifier::new("Ice Storm", Op::Sub(2)),
            Modifier::new("Leia", Op::Add(2)),
            Modifier::new("Lateral Damage", Op::Reset(0)),
        ];
        assert_eq!(total(mods.clone(), true), Some(5));
        assert_eq!(total(mods, false), Some(0));
    }

    #[test]
    fn a_later_reduction_below_a_raised_value_fails_too() {
        // 3 +4 = 7, then -2 would reduce it: fails; x2 = 14.
        let mods = vec![
            Modifier::new("a", Op::Add(4)),
            Modifier::new("b", Op::Sub(2)),
            Modifier::new("c", Op::Mul(2)),
        ];
        assert_eq!(total(mods, true), Some(14));
    }
}
