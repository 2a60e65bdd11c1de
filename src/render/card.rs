//! Rendering for `card` output (text and JSON from one structure).
