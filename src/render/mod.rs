//! Rendering: the only place that knows about terminals (tables, colour) and JSON.
//! Functions here return strings; the binary writes them.

pub mod card;
pub mod rule;
pub mod search;
pub mod trace;
