//! Star Wars: Destiny die faces in SWDestinyDB notation.
//!
//! Grammar (one face, no spaces):
//!
//! ```text
//! face     := blank | special | value
//! blank    := "-"
//! special  := "Sp" cost?
//! value    := "+" amount ( symbol | "*" ) cost?     modifier side ("*": modifies any symbol)
//!           |     amount symbol cost?
//! amount   := digits | "X"
//! symbol   := "MD" | "RD" | "ID" | "Sh" | "R" | "Dr" | "Dc" | "F"
//! cost     := digits                                 resource cost to resolve
//! ```
//!
//! Examples: `2RD`, `+1MD`, `3RD1` (three ranged damage costing one resource),
//! `XSh`, `Sp`, `Sp1`, `+2*`, `+2*1`, `-`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// What a die face shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Symbol {
    MeleeDamage,
    RangedDamage,
    IndirectDamage,
    Shield,
    Resource,
    Disrupt,
    Discard,
    Focus,
    Special,
    Blank,
    /// Only on modifier faces (`+N*`): modifies a die showing any symbol.
    Any,
}

impl Symbol {
    /// The symbol's code in SWDestinyDB notation, and its name.
    fn spelled(self) -> (&'static str, &'static str) {
        match self {
            Symbol::MeleeDamage => ("MD", "melee damage"),
            Symbol::RangedDamage => ("RD", "ranged damage"),
            Symbol::IndirectDamage => ("ID", "indirect damage"),
            Symbol::Shield => ("Sh", "shield"),
            Symbol::Resource => ("R", "resource"),
            Symbol::Disrupt => ("Dr", "disrupt"),
            Symbol::Discard => ("Dc", "discard"),
            Symbol::Focus => ("F", "focus"),
            Symbol::Special => ("Sp", "special"),
            Symbol::Blank => ("-", "blank"),
            Symbol::Any => ("*", "any symbol"),
        }
    }

    pub fn code(self) -> &'static str {
        self.spelled().0
    }

    pub fn name(self) -> &'static str {
        self.spelled().1
    }
}

/// The number printed on a face: a value or `X`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Amount {
    Value(u32),
    X,
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Amount::Value(n) => write!(f, "{n}"),
            Amount::X => f.write_str("X"),
        }
    }
}

/// One parsed die face.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieFace {
    /// The face as written in the data, e.g. `+2RD1`.
    pub raw: String,
    pub symbol: Symbol,
    /// `+` faces modify a die already showing the symbol.
    #[serde(default)]
    pub modifier: bool,
    /// None for blank and special faces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<Amount>,
    /// Resources to pay to resolve the face.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<u32>,
}

impl DieFace {
    /// Parse one face; the error says what was expected where.
    pub fn parse(s: &str) -> Result<DieFace, String> {
        let raw = s.to_string();
        if s.is_empty() {
            return Err("empty face".into());
        }
        // a blank or special face has no amount
        let bare = |symbol, cost| DieFace {
            raw: raw.clone(),
            symbol,
            modifier: false,
            amount: None,
            cost,
        };
        if s == "-" {
            return Ok(bare(Symbol::Blank, None));
        }
        if let Some(rest) = s.strip_prefix("Sp") {
            return Ok(bare(Symbol::Special, parse_cost(rest, s)?));
        }
        let (modifier, rest) = match s.strip_prefix('+') {
            Some(r) => (true, r),
            None => (false, s),
        };
        let (amount, rest) = if let Some(r) = rest.strip_prefix('X') {
            (Amount::X, r)
        } else {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                return Err(format!("expected a value (digits or X) in \"{s}\""));
            }
            let n: u32 = rest[..digits]
                .parse()
                .map_err(|_| format!("value too large in \"{s}\""))?;
            (Amount::Value(n), &rest[digits..])
        };
        // "RD" before "R": the longer code first
        const SYMBOLS: [Symbol; 9] = [
            Symbol::MeleeDamage,
            Symbol::RangedDamage,
            Symbol::IndirectDamage,
            Symbol::Shield,
            Symbol::Disrupt,
            Symbol::Discard,
            Symbol::Resource,
            Symbol::Focus,
            Symbol::Any,
        ];
        let Some(symbol) = SYMBOLS.into_iter().find(|s| rest.starts_with(s.code())) else {
            return Err(format!(
                "unknown symbol in \"{s}\" (expected MD, RD, ID, Sh, R, Dr, Dc, F, Sp, * or -)"
            ));
        };
        if symbol == Symbol::Any && !modifier {
            return Err(format!("\"*\" (any symbol) needs a + modifier in \"{s}\""));
        }
        let cost = parse_cost(&rest[symbol.code().len()..], s)?;
        Ok(DieFace {
            raw,
            symbol,
            modifier,
            amount: Some(amount),
            cost,
        })
    }

    /// Words a player reads: "+2 ranged damage (costs 1 resource)".
    pub fn describe(&self) -> String {
        let mut out = String::new();
        match self.symbol {
            Symbol::Blank => out.push_str("blank"),
            Symbol::Special => out.push_str("special"),
            sym => {
                if self.modifier {
                    out.push('+');
                }
                if let Some(a) = self.amount {
                    out.push_str(&a.to_string());
                    out.push(' ');
                }
                out.push_str(sym.name());
            }
        }
        if let Some(c) = self.cost {
            out.push_str(&format!(
                " (costs {c} resource{})",
                if c == 1 { "" } else { "s" }
            ));
        }
        out
    }
}

fn parse_cost(rest: &str, whole: &str) -> Result<Option<u32>, String> {
    if rest.is_empty() {
        return Ok(None);
    }
    if !rest.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "unexpected \"{rest}\" after the symbol in \"{whole}\" (expected a resource cost)"
        ));
    }
    rest.parse()
        .map(Some)
        .map_err(|_| format!("cost too large in \"{whole}\""))
}
