//! The Star Wars CCG engine (Advanced Rulebook 3.27).
