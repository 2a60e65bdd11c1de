//! The one integration-test binary. Each module covers one area.

mod http;
mod util;

mod cards;
mod cli;
mod counted_piles;
mod deck;
mod destiny;
mod faults;
mod library;
mod library_destiny;
mod library_swccg;
mod library_swtcg;
mod lookup;
mod rulebook;
mod rulings;
mod scenarios;
mod search;
mod serve;
mod swtcg;
mod table;
