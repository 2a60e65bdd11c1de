//! Integration tests: rulebook.
