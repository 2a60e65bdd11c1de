//! Integration tests: search.
