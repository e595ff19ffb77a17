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
    /// A time field holds a number written otherwise than as a plain
    /// decimal (`1e3`, `5.`, `.5`).
    NotDecimal {
        /// 1-based field index (1..=18).
        field: usize,
        /// The offending token.
        token: String,
    },
    /// A time field is 2^53 s or more in magnitude: it would not be exact as
    /// an `f64` ([`crate::swf::parser::TIME_LIMIT`]).
    TimeOutOfRange {
        /// 1-based field index (1..=18).
        field: usize,
        /// The offending token.
        token: String,
    },
    /// A processor count (field 5 or 8) does not fit in 32 bits.
    ProcessorsOutOfRange {
        /// 1-based field index (5 or 8).
        field: usize,
        /// The offending token.
        token: String,
    },
    /// The line holds a byte that text does not (a control character other
    /// than whitespace, or a byte that is not UTF-8).
    NotText {
        /// 1-based column (byte offset + 1) of the first such byte.
        column: usize,
        /// The byte.
        byte: u8,
    },
}

impl LineError {
    /// The kind of problem, for counting in a [`crate::swf::SkipReport`].
    pub fn kind(&self) -> SkipKind {
        match self {
            LineError::WrongFieldCount { .. } => SkipKind::WrongFieldCount,
            LineError::NonNumeric { .. } => SkipKind::NonNumeric,
            LineError::NotAnInteger { .. } => SkipKind::NotAnInteger,
            LineError::NotDecimal { .. } => SkipKind::NonNumeric,
            LineError::OutOfRange { .. }
            | LineError::TimeOutOfRange { .. }
            | LineError::ProcessorsOutOfRange { .. } => SkipKind::OutOfRange,
            LineError::NotText { .. } => SkipKind::NotText,
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
            LineError::NotDecimal { field, token } => SwfError::NotDecimal {
                file,
                line,
                field,
                token,
            },
            LineError::TimeOutOfRange { field, token } => SwfError::TimeOutOfRange {
                file,
                line,
                field,
                token,
            },
            LineError::ProcessorsOutOfRange { field, token } => SwfError::ProcessorsOutOfRange {
                file,
                line,
                field,
                token,
            },
            LineError::NotText { column, byte } => SwfError::NotText {
                file,
                line,
                column,
                byte,
            },
        }
    }
}

/// The advice every error of one data line ends with.
const LENIENT_HINT: &str = "; correct the line, or skip such lines with --lenient (replay, info: they are counted and reported)";

/// Reason texts shared by [`LineError`] and [`SwfError`] (one wording each).
const NOT_DECIMAL: &str = "is not a plain decimal number (SWF numbers are written like 120, -1 or 969.56: no exponent, digits on both sides of a point)";
const TIME_RANGE: &str = "is out of range: a time must be below 2^53 s (9007199254740992 s, 285 million years) in magnitude to be exact";
const PROCS_RANGE: &str =
    "does not fit in 32 bits (at most 4294967295 processors; -1 means unknown)";

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
            LineError::NotDecimal { field, token } => {
                write!(f, "field {field}: {token:?} {NOT_DECIMAL}")
            }
            LineError::TimeOutOfRange { field, token } => {
                write!(f, "field {field}: time {token:?} s {TIME_RANGE}")
            }
            LineError::ProcessorsOutOfRange { field, token } => {
                write!(f, "field {field}: processor count {token:?} {PROCS_RANGE}")
            }
            LineError::NotText { column, byte } => {
                write!(f, "not text (byte 0x{byte:02x} at column {column})")
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
    /// A data line with a value out of range: an integer beyond 64 bits, a
    /// time of 2^53 s or more, a processor count beyond 32 bits.
    OutOfRange,
    /// A `;` comment line after the first data line.
    CommentAmongData,
    /// A line with bytes that are not text (control characters, not UTF-8).
    NotText,
    /// A header value that does not parse or is out of range (the line is
    /// kept; the value is ignored).
    BadHeaderValue,
}

impl SkipKind {
    /// All kinds, in reporting order.
    pub const ALL: [SkipKind; 7] = [
        SkipKind::WrongFieldCount,
        SkipKind::NonNumeric,
        SkipKind::NotAnInteger,
        SkipKind::OutOfRange,
        SkipKind::CommentAmongData,
        SkipKind::NotText,
        SkipKind::BadHeaderValue,
    ];

    /// A short human-readable label ("wrong field count", …).
    pub fn label(self) -> &'static str {
        match self {
            SkipKind::WrongFieldCount => "wrong field count",
            SkipKind::NonNumeric => "non-numeric value",
            SkipKind::NotAnInteger => "non-integer value in an integer field",
            SkipKind::OutOfRange => "value out of range",
            SkipKind::CommentAmongData => "comment among data lines",
            SkipKind::NotText => "not text",
            SkipKind::BadHeaderValue => "header value ignored",
        }
    }

    pub(crate) fn index(self) -> usize {
        match self {
            SkipKind::WrongFieldCount => 0,
            SkipKind::NonNumeric => 1,
            SkipKind::NotAnInteger => 2,
            SkipKind::OutOfRange => 3,
            SkipKind::CommentAmongData => 4,
            SkipKind::NotText => 5,
            SkipKind::BadHeaderValue => 6,
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
    /// The file's first data line shows it is another kind of file (a CSV
    /// table, JSON, HTML), not an SWF log.
    #[error(
        "{file}:{line}: this does not look like an SWF log but like {what}; an SWF log has one job per line, 18 numbers separated by blanks, after `;` header lines (docs/input.md)"
    )]
    NotSwf {
        /// File path or name.
        file: String,
        /// 1-based line number of the first data line.
        line: u64,
        /// What it looks like, with the start of the line.
        what: String,
    },
    /// A data line does not have exactly 18 fields.
    #[error("{file}:{line}: wrong field count: expected 18, found {found}{LENIENT_HINT}")]
    WrongFieldCount {
        /// File path or name.
        file: String,
        /// 1-based line number.
        line: u64,
        /// Number of fields found.
        found: usize,
    },
    /// A field is not a number.
    #[error("{file}:{line}: field {field}: non-numeric value {token:?}{LENIENT_HINT}")]
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
    #[error(
        "{file}:{line}: field {field}: non-integer value {token:?} in an integer field{LENIENT_HINT}"
    )]
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
    #[error(
        "{file}:{line}: field {field}: integer {token:?} does not fit in 64 bits{LENIENT_HINT}"
    )]
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
    /// A time field is written otherwise than as a plain decimal.
    #[error("{file}:{line}: field {field}: {token:?} {NOT_DECIMAL}{LENIENT_HINT}")]
    NotDecimal {
        /// File path or name.
        file: String,
        /// 1-based line number.
        line: u64,
        /// 1-based field index (1..=18).
        field: usize,
        /// The offending token.
        token: String,
    },
    /// A time field is 2^53 s or more in magnitude.
    #[error("{file}:{line}: field {field}: time {token:?} s {TIME_RANGE}{LENIENT_HINT}")]
    TimeOutOfRange {
        /// File path or name.
        file: String,
        /// 1-based line number.
        line: u64,
        /// 1-based field index (1..=18).
        field: usize,
        /// The offending token.
        token: String,
    },
    /// A processor count (field 5 or 8) does not fit in 32 bits.
    #[error("{file}:{line}: field {field}: processor count {token:?} {PROCS_RANGE}{LENIENT_HINT}")]
    ProcessorsOutOfRange {
        /// File path or name.
        file: String,
        /// 1-based line number.
        line: u64,
        /// 1-based field index (5 or 8).
        field: usize,
        /// The offending token.
        token: String,
    },
    /// A line holds bytes that are not text (the file is binary).
    #[error(
        "{file}: line {line} is not text (byte 0x{byte:02x} at column {column}); SWF is plain text"
    )]
    NotText {
        /// File path or name.
        file: String,
        /// 1-based line number.
        line: u64,
        /// 1-based column of the first such byte.
        column: usize,
        /// The byte.
        byte: u8,
    },
    /// A header value that swftool uses does not parse or is out of range.
    #[error(
        "{file}:{line}: header field {key}: {reason} (found {value:?}); correct the line, or pass --lenient to ignore the value"
    )]
    BadHeaderValue {
        /// File path or name.
        file: String,
        /// 1-based line number.
        line: u64,
        /// The key (`MaxProcs`, `UnixStartTime`, …).
        key: String,
        /// The value as written.
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The file is compressed with something other than gzip.
    #[error(
        "{file} is {what}; swftool reads plain SWF text or gzip (.swf.gz): decompress it with `{command}`"
    )]
    Compressed {
        /// File path or name.
        file: String,
        /// What the file is (`xz-compressed`, `a zip archive`, …).
        what: &'static str,
        /// The command that decompresses it (`xz -d`, …).
        command: &'static str,
    },
    /// Bytes after the last gzip member that are neither another member nor
    /// zero padding.
    #[error(
        "{file}: unexpected bytes after the end of the gzip data (neither another gzip member nor zero padding); the file may be damaged (check it with `gzip -t`)"
    )]
    GzipTrailingData {
        /// File path or name.
        file: String,
    },
    /// A `;` comment line after the first data line (the header must come first).
    #[error(
        "{file}:{line}: comment line among data lines (the header must precede the first job){LENIENT_HINT}"
    )]
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
    ///
    /// The decoder's error is part of the message, not a
    /// [`std::error::Error::source`], so that a printed chain says it once.
    #[error(
        "{file}:{line}: the gzip data is damaged ({cause}); get the file again (`gzip -t` checks a copy)"
    )]
    CorruptGzip {
        /// File path or name.
        file: String,
        /// 1-based number of the line being read when the error happened.
        line: u64,
        /// The decoder's error.
        cause: io::Error,
    },
    /// Any other error while reading (the cause is part of the message).
    #[error("{file}:{line}: read error: {cause}")]
    Io {
        /// File path or name.
        file: String,
        /// 1-based number of the line being read.
        line: u64,
        /// The underlying error.
        cause: io::Error,
    },
    /// The file exists but cannot be opened (permission denied, …; the
    /// cause is part of the message).
    #[error("{file}: cannot open: {cause}")]
    Open {
        /// File path as given.
        file: String,
        /// The underlying error.
        cause: io::Error,
    },
    /// The file does not exist.
    #[error("{file}: no such file")]
    NotFound {
        /// File path as given.
        file: String,
    },
    /// A problem in Slurm accounting text read as a log ([`super::sacct`]).
    #[error("{file}:{line}: {message}")]
    Sacct {
        /// File path or name.
        file: String,
        /// 1-based line number.
        line: u64,
        /// What is wrong and what to do.
        message: String,
    },
    /// The path is a directory.
    #[error("{file} is a directory; give an SWF log file (.swf or .swf.gz)")]
    IsDirectory {
        /// Path as given.
        file: String,
    },
}

impl SwfError {
    /// The file path or name the error is about.
    pub fn file(&self) -> &str {
        match self {
            SwfError::NotSwf { file, .. }
            | SwfError::Sacct { file, .. }
            | SwfError::WrongFieldCount { file, .. }
            | SwfError::NonNumeric { file, .. }
            | SwfError::NotAnInteger { file, .. }
            | SwfError::OutOfRange { file, .. }
            | SwfError::NotDecimal { file, .. }
            | SwfError::TimeOutOfRange { file, .. }
            | SwfError::ProcessorsOutOfRange { file, .. }
            | SwfError::NotText { file, .. }
            | SwfError::BadHeaderValue { file, .. }
            | SwfError::Compressed { file, .. }
            | SwfError::GzipTrailingData { file }
            | SwfError::IsDirectory { file }
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
            SwfError::NotSwf { line, .. }
            | SwfError::Sacct { line, .. }
            | SwfError::WrongFieldCount { line, .. }
            | SwfError::NonNumeric { line, .. }
            | SwfError::NotAnInteger { line, .. }
            | SwfError::OutOfRange { line, .. }
            | SwfError::NotDecimal { line, .. }
            | SwfError::TimeOutOfRange { line, .. }
            | SwfError::ProcessorsOutOfRange { line, .. }
            | SwfError::NotText { line, .. }
            | SwfError::BadHeaderValue { line, .. }
            | SwfError::CommentAmongData { line, .. }
            | SwfError::TruncatedGzip { line, .. }
            | SwfError::CorruptGzip { line, .. }
            | SwfError::Io { line, .. } => Some(*line),
            SwfError::Open { .. }
            | SwfError::NotFound { .. }
            | SwfError::IsDirectory { .. }
            | SwfError::Compressed { .. }
            | SwfError::GzipTrailingData { .. } => None,
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
            format!(
                "CEA-Curie.swf.gz:1234: wrong field count: expected 18, found 17{LENIENT_HINT}"
            )
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
        assert_eq!(se.to_string(), format!("f.swf:7: {le}{LENIENT_HINT}"));
    }
}
