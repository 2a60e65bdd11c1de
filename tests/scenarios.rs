//! Integration tests: scenarios.
