//! Converter for the SWCCG Advanced Rulebook 3.27 appendices A–F.
//! `text` starts at the "# Appendix A - Errata" line.

use super::OutFile;
use crate::error::Result;

pub fn convert(_text: &str) -> Result<Vec<OutFile>> {
    Ok(Vec::new())
}
