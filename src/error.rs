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
    /// Bytes read from `path` that are not UTF-8: names the line and column of
    /// the first bad byte.
    pub fn not_utf8(path: &std::path::Path, e: &std::string::FromUtf8Error) -> Self {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = good
            .rsplit(|&b| b == b'\n')
            .next()
            .map_or(0, |l| String::from_utf8_lossy(l).chars().count())
            + 1;
        Error::Input(format!(
            "{}:{line}:{col}: not UTF-8 text (save the file as UTF-8)",
            path.display()
        ))
    }

    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}
