//! Integration tests: cards.
