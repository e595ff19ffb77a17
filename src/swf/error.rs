//! Errors raised while reading an SWF log.
//!
//! Every variant names the file and, where it applies, the 1-based line number,
//! so that a message reads like
//! `CEA-Curie-2011-2.1-cln.swf.gz:1234: wrong field count: expected 18, found 17`
//! (a clear error naming the file, the line number and what was wrong).

use std::fmt;
use std::io;

use thiserror::Error;

/// Number of fields of an SWF data line (PWA SWF v2.2).
pub const FIELD_COUNT: usize = 18;

/// What is wrong with one data line, without the file and line number.
///
/// Produced by [`crate::swf::parser::job_line`]; the reader adds the location
/// and turns it into an [`SwfError`] (strict mode) or counts it in a
/// [`crate::swf::SkipReport`] (lenient mode).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineError {
    /// The line does not have exactly 18 whitespace-separated fields.
    WrongFieldCount {
        /// Number of fields found on the line.
        found: usize,
    },
    /// A field is not a number at all (e.g. `abc`, `12x`, `NaN`).
    NonNumeric {
        /// 1-based field index (1..=18, as in the PWA spec).
        field: usize,
        /// The offending token, as found on the line (lossily decoded).
        token: String,
    },
    /// An integer field (count or id) holds a number with a fractional part.
    NotAnInteger {
        /// 1-based field index (1..=18).
        field: usize,
        /// The offending token.
        token: String,
    },
    /// An integer field holds an integer that does not fit in 64 bits.
    OutOfRange {
        /// 1-based field index (1..=18).
        field: usize,
        /// The offending token.
        token: String,
    },
}

impl LineError {
    /// The kind of problem, for counting in a [`crate::swf::SkipReport`].
    pub fn kind(&self) -> SkipKind {
        match self {
            LineError::WrongFieldCount { .. } => SkipKind::WrongFieldCount,
            LineError::NonNumeric { .. } => SkipKind::NonNumeric,
            LineError::NotAnInteger { .. } => SkipKind::NotAnInteger,
            LineError::OutOfRange { .. } => SkipKind::OutOfRange,
        }
    }

    /// Attaches a file name and a 1-based line number.
    pub fn at(self, file: &str, line: u64) -> SwfError {
        let file = file.to_string();
        match self {
            LineError::WrongFieldCount { found } => SwfError::WrongFieldCount { file, line, found },
            LineError::NonNumeric { field, token } => SwfError::NonNumeric {
                file,
                line,
                field,
                token,
            },
            LineError::NotAnInteger { field, token } => SwfError::NotAnInteger {
                file,
                line,
                field,
                token,
            },
            LineError::OutOfRange { field, token } => SwfError::OutOfRange {
                file,
                line,
                field,
                token,
            },
        }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::WrongFieldCount { found } => {
                write!(
                    f,
                    "wrong field count: expected {FIELD_COUNT}, found {found}"
                )
            }
            LineError::NonNumeric { field, token } => {
                write!(f, "field {field}: non-numeric value {token:?}")
            }
            LineError::NotAnInteger { field, token } => {
                write!(
                    f,
                    "field {field}: non-integer value {token:?} in an integer field"
                )
            }
            LineError::OutOfRange { field, token } => {
                write!(
                    f,
                    "field {field}: integer {token:?} does not fit in 64 bits"
                )
            }
        }
    }
}

/// The kinds of line that lenient mode skips (and counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SkipKind {
    /// A data line without exactly 18 fields.
    WrongFieldCount,
    /// A data line with a token that is not a number.
    NonNumeric,
    /// A data line with a fractional value in an integer field.
    NotAnInteger,
    /// A data line with an integer that does not fit in 64 bits.
    OutOfRange,
    /// A `;` comment line after the first data line.
    CommentAmongData,
}

impl SkipKind {
    /// All kinds, in reporting order.
    pub const ALL: [SkipKind; 5] = [
        SkipKind::WrongFieldCount,
        SkipKind::NonNumeric,
        SkipKind::NotAnInteger,
        SkipKind::OutOfRange,
        SkipKind::CommentAmongData,
    ];

    /// A short human-readable label ("wrong field count", …).
    pub fn label(self) -> &'static str {
        match self {
            SkipKind::WrongFieldCount => "wrong field count",
            SkipKind::NonNumeric => "non-numeric value",
            SkipKind::NotAnInteger => "non-integer value in an integer field",
            SkipKind::OutOfRange => "integer out of 64-bit range",
            SkipKind::CommentAmongData => "comment among data lines",
        }
    }

    pub(crate) fn index(self) -> usize {
        match self {
            SkipKind::WrongFieldCount => 0,
            SkipKind::NonNumeric => 1,
            SkipKind::NotAnInteger => 2,
            SkipKind::OutOfRange => 3,
            SkipKind::CommentAmongData => 4,
        }
    }
}

impl fmt::Display for SkipKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// An error reading an SWF log (strict mode), or a fatal error in any mode.
///
/// `file` is the path as given by the caller (or the name passed to
/// [`crate::swf::read_from`]); `line` is 1-based. For read errors `line` is
/// the line that was being read when the error happened.
#[derive(Debug, Error)]
pub enum SwfError {
    /// A data line does not have exactly 18 fields.
    #[error("{file}:{line}: wrong field count: expected 18, found {found}")]
    WrongFieldCount {
        /// File path or name.
        file: String,
        /// 1-based line number.
        line: u64,
        /// Number of fields found.
        found: usize,
    },
    /// A field is not a number.
    #[error("{file}:{line}: field {field}: non-numeric value {token:?}")]
    NonNumeric {
        /// File path or name.
        file: String,
        /// 1-based line number.
        line: u64,
        /// 1-based field index (1..=18).
        field: usize,
        /// The offending token.
        token: String,
    },
    /// An integer field (count or id) holds a fractional number.
    #[error("{file}:{line}: field {field}: non-integer value {token:?} in an integer field")]
    NotAnInteger {
        /// File path or name.
        file: String,
        /// 1-based line number.
        line: u64,
        /// 1-based field index (1..=18).
        field: usize,
        /// The offending token.
        token: String,
    },
    /// An integer field holds an integer that does not fit in 64 bits.
    #[error("{file}:{line}: field {field}: integer {token:?} does not fit in 64 bits")]
    OutOfRange {
        /// File path or name.
        file: String,
        /// 1-based line number.
        line: u64,
        /// 1-based field index (1..=18).
        field: usize,
        /// The offending token.
        token: String,
    },
    /// A `;` comment line after the first data line (the header must come first).
    #[error("{file}:{line}: comment line among data lines (the header must precede the first job)")]
    CommentAmongData {
        /// File path or name.
        file: String,
        /// 1-based line number.
        line: u64,
    },
    /// The gzip stream ended before its end marker: the file is truncated.
    #[error(
        "{file}:{line}: unexpected end of gzip stream (file truncated? {complete} complete lines were read)"
    )]
    TruncatedGzip {
        /// File path or name.
        file: String,
        /// 1-based number of the line being read when the stream ended.
        line: u64,
        /// Number of complete lines read before the error.
        complete: u64,
    },
    /// The gzip stream is corrupt (bad deflate data or checksum).
    #[error("{file}:{line}: corrupt gzip stream: {source}")]
    CorruptGzip {
        /// File path or name.
        file: String,
        /// 1-based number of the line being read when the error happened.
        line: u64,
        /// The decoder's error.
        source: io::Error,
    },
    /// Any other error while reading.
    #[error("{file}:{line}: read error: {source}")]
    Io {
        /// File path or name.
        file: String,
        /// 1-based number of the line being read.
        line: u64,
        /// The underlying error.
        source: io::Error,
    },
    /// The file exists but cannot be opened (permission denied, …).
    #[error("{file}: cannot open: {source}")]
    Open {
        /// File path as given.
        file: String,
        /// The underlying error.
        source: io::Error,
    },
    /// The file does not exist.
    #[error("{file}: no such file")]
    NotFound {
        /// File path as given.
        file: String,
    },
}

impl SwfError {
    /// The file path or name the error is about.
    pub fn file(&self) -> &str {
        match self {
            SwfError::WrongFieldCount { file, .. }
            | SwfError::NonNumeric { file, .. }
            | SwfError::NotAnInteger { file, .. }
            | SwfError::OutOfRange { file, .. }
            | SwfError::CommentAmongData { file, .. }
            | SwfError::TruncatedGzip { file, .. }
            | SwfError::CorruptGzip { file, .. }
            | SwfError::Io { file, .. }
            | SwfError::Open { file, .. }
            | SwfError::NotFound { file } => file,
        }
    }

    /// The 1-based line number, if the error is tied to a line.
    pub fn line(&self) -> Option<u64> {
        match self {
            SwfError::WrongFieldCount { line, .. }
            | SwfError::NonNumeric { line, .. }
            | SwfError::NotAnInteger { line, .. }
            | SwfError::OutOfRange { line, .. }
            | SwfError::CommentAmongData { line, .. }
            | SwfError::TruncatedGzip { line, .. }
            | SwfError::CorruptGzip { line, .. }
            | SwfError::Io { line, .. } => Some(*line),
            SwfError::Open { .. } | SwfError::NotFound { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_file_line_and_reason() {
        let e = LineError::WrongFieldCount { found: 17 }.at("CEA-Curie.swf.gz", 1234);
        assert_eq!(
            e.to_string(),
            "CEA-Curie.swf.gz:1234: wrong field count: expected 18, found 17"
        );
        assert_eq!(e.line(), Some(1234));
        assert_eq!(e.file(), "CEA-Curie.swf.gz");
    }

    #[test]
    fn line_error_display_matches_swf_error_reason() {
        let le = LineError::NonNumeric {
            field: 3,
            token: "x1".into(),
        };
        let se = le.clone().at("f.swf", 7);
        assert_eq!(se.to_string(), format!("f.swf:7: {le}"));
    }
}
