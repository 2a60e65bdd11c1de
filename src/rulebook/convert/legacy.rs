//! Converters for the superseded SWCCG documents.

use super::OutFile;
use crate::error::Result;

pub fn convert_update(_text: &str) -> Result<Vec<OutFile>> {
    Ok(Vec::new())
}

pub fn convert_supplements(_text: &str) -> Result<Vec<OutFile>> {
    Ok(Vec::new())
}
