//! Reading an SWF log (`.swf` or `.swf.gz`) into an [`SwfLog`].
//!
//! Plain and gzip-compressed logs are read the same way: gzip is detected by
//! its magic bytes (`1f 8b`), not by the file name, and decoded with
//! `flate2`'s `MultiGzDecoder` while streaming line by line (one reused line
//! buffer; the text is never held in memory as a whole, and never decoded
//! twice).
//!
//! Strict mode (the default) stops at the first bad line with an
//! [`SwfError`] naming the file, the line and the reason. Lenient mode skips
//! bad data lines and comment lines among the data, counting them by kind in
//! a [`SkipReport`]. I/O errors (including a truncated or corrupt gzip
//! stream) are fatal in both modes. Blank (whitespace-only) lines are
//! skipped and counted in both modes; they are not errors.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use flate2::bufread::MultiGzDecoder;

use super::error::{LineError, SkipKind, SwfError};
use super::header::SwfHeader;
use super::parser::{is_separator, job_line};
use super::record::JobRecord;

/// Size of the read buffers (compressed input and decoded text), bytes.
const BUF_SIZE: usize = 1 << 16;

/// Number of skipped-line examples a [`SkipReport`] keeps.
pub const SKIP_EXAMPLES: usize = 5;

/// How to read a log.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Skip bad lines (and count them) instead of failing. Default: strict.
    pub lenient: bool,
}

impl ReadOptions {
    /// Strict reading: the first bad line is an error.
    pub fn strict() -> ReadOptions {
        ReadOptions { lenient: false }
    }

    /// Lenient reading: bad lines are skipped and counted.
    pub fn lenient() -> ReadOptions {
        ReadOptions { lenient: true }
    }
}

/// Lines skipped in lenient mode, counted by kind, with the first few examples.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkipReport {
    counts: [u64; SkipKind::ALL.len()],
    /// The first [`SKIP_EXAMPLES`] skipped lines: 1-based line number and reason.
    pub examples: Vec<(u64, String)>,
}

impl SkipReport {
    /// Counts one skipped line.
    pub fn record(&mut self, line: u64, kind: SkipKind, reason: impl fmt::Display) {
        self.counts[kind.index()] += 1;
        if self.examples.len() < SKIP_EXAMPLES {
            self.examples.push((line, reason.to_string()));
        }
    }

    /// Number of skipped lines of one kind.
    pub fn count(&self, kind: SkipKind) -> u64 {
        self.counts[kind.index()]
    }

    /// Total number of skipped lines.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Whether no line was skipped.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }
}

impl fmt::Display for SkipReport {
    /// `skipped 3 lines: 2 wrong field count, 1 non-numeric value`, then one
    /// indented `line N: reason` per kept example.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.total();
        if total == 0 {
            return f.write_str("no lines skipped");
        }
        write!(
            f,
            "skipped {total} line{}:",
            if total == 1 { "" } else { "s" }
        )?;
        let mut first = true;
        for kind in SkipKind::ALL {
            let n = self.count(kind);
            if n > 0 {
                write!(f, "{} {n} {kind}", if first { "" } else { "," })?;
                first = false;
            }
        }
        for (line, reason) in &self.examples {
            write!(f, "\n  line {line}: {reason}")?;
        }
        if total > self.examples.len() as u64 {
            write!(f, "\n  …")?;
        }
        Ok(())
    }
}

/// A parsed SWF log.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SwfLog {
    /// File name (or caller-given name) for messages.
    pub name: String,
    /// The header (comment lines before the first job).
    pub header: SwfHeader,
    /// The jobs, one per data line, in file order.
    pub jobs: Vec<JobRecord>,
    /// Lines skipped in lenient mode (always empty in strict mode).
    pub skipped: SkipReport,
    /// Number of blank (whitespace-only) lines seen anywhere.
    pub blank_lines: u64,
}

impl SwfLog {
    /// Processors of the log's machine: MaxProcs, else MaxNodes (each when
    /// positive), else the largest job's processor count (at least 1).
    pub fn machine_processors(&self) -> i64 {
        self.header
            .max_procs()
            .filter(|&p| p > 0)
            .or(self.header.max_nodes().filter(|&n| n > 0))
            .unwrap_or_else(|| {
                self.jobs
                    .iter()
                    .map(|j| j.processors())
                    .max()
                    .unwrap_or(1)
                    .max(1)
            })
    }
}

/// Reads an SWF log from a file, plain or gzip-compressed (detected by magic
/// bytes). Error messages name the file by `path` as given.
///
/// # Errors
/// [`SwfError::NotFound`] when the file does not exist, [`SwfError::Open`]
/// when it cannot be opened, and every error of [`read_from`].
pub fn read_log(path: &Path, opts: &ReadOptions) -> Result<SwfLog, SwfError> {
    let shown = path.display().to_string();
    let file = File::open(path).map_err(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            SwfError::NotFound {
                file: shown.clone(),
            }
        } else {
            SwfError::Open {
                file: shown.clone(),
                source: e,
            }
        }
    })?;
    let mut log = read_from(BufReader::with_capacity(BUF_SIZE, file), &shown, opts)?;
    if let Some(n) = path.file_name() {
        log.name = n.to_string_lossy().into_owned();
    }
    Ok(log)
}

/// Reads an SWF log from any buffered reader, plain or gzip-compressed
/// (detected by the magic bytes `1f 8b`). `name` is used in error messages
/// and as [`SwfLog::name`].
///
/// # Errors
/// Strict mode: the first bad line ([`SwfError::WrongFieldCount`],
/// [`SwfError::NonNumeric`], [`SwfError::NotAnInteger`],
/// [`SwfError::OutOfRange`], [`SwfError::CommentAmongData`]). Both modes:
/// [`SwfError::TruncatedGzip`], [`SwfError::CorruptGzip`], [`SwfError::Io`].
pub fn read_from<R: BufRead>(
    mut reader: R,
    name: &str,
    opts: &ReadOptions,
) -> Result<SwfLog, SwfError> {
    let is_gzip = match reader.fill_buf() {
        Ok(buf) => buf.starts_with(&[0x1f, 0x8b]),
        Err(e) => {
            return Err(SwfError::Io {
                file: name.to_string(),
                line: 1,
                source: e,
            });
        }
    };
    if is_gzip {
        let decoded = BufReader::with_capacity(BUF_SIZE, MultiGzDecoder::new(reader));
        read_lines(decoded, name, opts, true)
    } else {
        read_lines(reader, name, opts, false)
    }
}

/// The line-by-line loop shared by plain and gzip input.
fn read_lines<R: BufRead>(
    mut reader: R,
    name: &str,
    opts: &ReadOptions,
    gzip: bool,
) -> Result<SwfLog, SwfError> {
    let mut log = SwfLog {
        name: name.to_string(),
        ..SwfLog::default()
    };
    let mut buf: Vec<u8> = Vec::with_capacity(256);
    let mut line_no: u64 = 0;
    let mut seen_data = false;
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(io_error(e, name, line_no, gzip)),
        }
        line_no += 1;
        let line = trim_line_end(&buf);
        let Some(first) = line.iter().position(|&b| !is_separator(b)) else {
            log.blank_lines += 1;
            continue;
        };
        if line[first] == b';' {
            if seen_data {
                if opts.lenient {
                    log.skipped.record(
                        line_no,
                        SkipKind::CommentAmongData,
                        "comment line among data lines",
                    );
                    continue;
                }
                return Err(SwfError::CommentAmongData {
                    file: name.to_string(),
                    line: line_no,
                });
            }
            // Non-UTF-8 bytes (never seen in the PWA logs) become U+FFFD.
            log.header.push_line(&String::from_utf8_lossy(line));
            continue;
        }
        seen_data = true;
        match job_line(line) {
            Ok(job) => log.jobs.push(job),
            Err(e) if opts.lenient => record_skip(&mut log.skipped, line_no, e),
            Err(e) => return Err(e.at(name, line_no)),
        }
    }
    Ok(log)
}

fn record_skip(report: &mut SkipReport, line: u64, e: LineError) {
    report.record(line, e.kind(), &e);
}

/// Removes the line terminator (`\n`, `\r\n`) and any other trailing `\r`.
fn trim_line_end(buf: &[u8]) -> &[u8] {
    let mut end = buf.len();
    while end > 0 && (buf[end - 1] == b'\n' || buf[end - 1] == b'\r') {
        end -= 1;
    }
    &buf[..end]
}

fn io_error(e: io::Error, name: &str, complete: u64, gzip: bool) -> SwfError {
    let file = name.to_string();
    let line = complete + 1;
    match e.kind() {
        io::ErrorKind::UnexpectedEof if gzip => SwfError::TruncatedGzip {
            file,
            line,
            complete,
        },
        io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData if gzip => SwfError::CorruptGzip {
            file,
            line,
            source: e,
        },
        _ => SwfError::Io {
            file,
            line,
            source: e,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    const TEXT: &str = "; Version: 2.2\n; MaxProcs: 4\n\n1 0 1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\r\n  2 5 0 3 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n";

    #[test]
    fn reads_header_jobs_and_counts_blank_lines() {
        let log = read_from(Cursor::new(TEXT), "t.swf", &ReadOptions::default()).unwrap();
        assert_eq!(log.header.lines, vec!["; Version: 2.2", "; MaxProcs: 4"]);
        assert_eq!(log.header.max_procs(), Some(4));
        assert_eq!(log.jobs.len(), 2);
        assert_eq!(log.jobs[1].job_number, 2);
        assert_eq!(log.blank_lines, 1);
        assert!(log.skipped.is_empty());
    }

    #[test]
    fn strict_reports_line_number_lenient_counts() {
        let text = format!("{TEXT}3 1 2\n; late comment\n");
        let err = read_from(Cursor::new(&text), "t.swf", &ReadOptions::strict()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.swf:6: wrong field count: expected 18, found 3"
        );
        let log = read_from(Cursor::new(&text), "t.swf", &ReadOptions::lenient()).unwrap();
        assert_eq!(log.jobs.len(), 2);
        assert_eq!(log.skipped.count(SkipKind::WrongFieldCount), 1);
        assert_eq!(log.skipped.count(SkipKind::CommentAmongData), 1);
        assert_eq!(log.skipped.total(), 2);
        assert_eq!(
            log.skipped.to_string(),
            "skipped 2 lines: 1 wrong field count, 1 comment among data lines\n  line 6: wrong field count: expected 18, found 3\n  line 7: comment line among data lines"
        );
    }

    #[test]
    fn gzip_is_detected_by_magic_bytes() {
        use flate2::{Compression, write::GzEncoder};
        use std::io::Write;
        let mut enc = GzEncoder::new(Vec::new(), Compression::fast());
        enc.write_all(TEXT.as_bytes()).unwrap();
        let gz = enc.finish().unwrap();
        let log = read_from(Cursor::new(&gz), "t", &ReadOptions::default()).unwrap();
        assert_eq!(log.jobs.len(), 2);
        let cut = &gz[..gz.len() - 12];
        let err = read_from(Cursor::new(cut), "t.gz", &ReadOptions::lenient()).unwrap_err();
        assert!(matches!(err, SwfError::TruncatedGzip { .. }), "{err}");
    }
}
