//! The Star Wars CCG engine (Advanced Rulebook 3.27).

pub mod battle;
pub mod battle_attack;
pub mod battle_scenario;
pub mod destiny;
pub mod drain;
pub mod values;
