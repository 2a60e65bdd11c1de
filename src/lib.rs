//! swjudge: a judge and rules-lookup assistant for the Star Wars CCG,
//! Star Wars: Destiny and the Star Wars Trading Card Game.
//!
//! The library never prints and never exits; the `swjudge` binary does both.
//! See ARCHITECTURE.md for the code map and invariants.

pub mod cards;
pub mod coverage;
pub mod deck;
pub mod engine;
pub mod error;
pub mod game;
pub mod index;
pub mod paths;
pub mod render;
pub mod rulebook;
pub mod rulings;
pub mod scenario;
pub mod serve;
pub mod yaml;

pub use error::{Error, Result};
pub use game::Game;

/// The allocator of every binary built on this library (the `swjudge` binary, its
/// benchmarks and tests). Loading a scenario and searching the index allocate many
/// small strings; mimalloc serves them with about a tenth fewer instructions in all
/// than the system allocator (README, "Measured").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
