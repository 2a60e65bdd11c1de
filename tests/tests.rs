//! The one integration-test binary. Each module covers one area.

mod util;

mod cards;
mod cli;
mod destiny;
mod faults;
mod rulebook;
mod scenarios;
mod search;
mod swtcg;
