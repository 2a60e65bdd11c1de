//! The one integration-test binary. Each module covers one area.

mod http;
mod util;

mod cards;
mod cli;
mod destiny;
mod rulebook;
mod scenarios;
mod search;
mod serve;
mod swtcg;
