//! The one error type of the library. Every variant renders as one line.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The user asked for something that cannot be done as asked.
    #[error("{0}")]
    Usage(String),
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Input data is malformed; the message names file:line:column where known.
    #[error("{0}")]
    Input(String),
    /// The search index failed in a way a rebuild could not fix.
    #[error("index: {0}")]
    Index(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}
