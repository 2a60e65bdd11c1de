//! Converter for one seed document. See the parent module.

use super::OutFile;
use crate::error::Result;

pub fn convert(_text: &str) -> Result<Vec<OutFile>> {
    Ok(Vec::new())
}
