//! Rendering for `rule` output (text and JSON from one structure).
