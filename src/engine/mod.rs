//! Rules engines. Shared parts: the trace, citations, scripted choices.
//! Each engine is a pure function of (board, script) → trace.

pub mod swccg;
