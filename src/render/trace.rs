//! Rendering for `trace` output (text and JSON from one structure).
