//! Rendering for `search` output (text and JSON from one structure).
