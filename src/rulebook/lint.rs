//! Corpus lint: unique IDs, no empty sections, examples under rules, cross-references.
