//! Reading an SWF log (`.swf` or `.swf.gz`) into an [`SwfLog`].
//!
//! Plain and gzip-compressed logs are read the same way: gzip is detected by
//! its magic bytes (`1f 8b`), not by the file name, and decoded member after
//! member with `flate2` while streaming: the header line by line, then the
//! data in pieces of 256 KB cut after a line end, each parsed on the
//! thread pool while the next is read and inflated, a few pieces at a time
//! whose memory serves them all (the text is never held in memory as a
//! whole, and never decoded twice). The jobs are allocated at once for the
//! length of text the file announces (its size, or a gzip trailer's), on
//! huge pages where Linux gives them. Like `gzip -d`, zero
//! bytes after the last member are padding and ignored; other trailing
//! bytes are an error. Files compressed otherwise
//! (xz, bzip2, zstd, zip, lz4, compress, 7z) are recognised by their magic
//! bytes and refused with the command that decompresses them. A UTF-8 byte
//! order mark at the start of the text is skipped. A line with bytes that
//! text does not hold (control characters, bytes that are not UTF-8) is
//! "not text", reported by line and column, never echoed.
//!
//! While the text streams by, its SHA-256 is computed (of the decoded bytes,
//! so a plain log and its gzip give the same digest; no second pass; the
//! data's pieces on a thread of their own, beside the reading and parsing):
//! [`SwfLog::sha256`], which the catalogue compares with the known logs'
//! (`crate::catalog::recognise`) and every `manifest.json` records.
//!
//! The header values swftool uses (`MaxProcs`, `MaxNodes`, `UnixStartTime`)
//! must parse: a bad one is an error naming its line (strict) or a counted
//! note, the value being ignored (lenient). Submit times that go backwards
//! and job numbers given twice are legal but counted ([`OrderReport`]).
//!
//! Strict mode (the default) stops at the first bad line with an
//! [`SwfError`] naming the file, the line and the reason. Lenient mode skips
//! bad data lines and comment lines among the data, counting them by kind in
//! a [`SkipReport`]. I/O errors (including a truncated or corrupt gzip
//! stream) are fatal in both modes. Blank (whitespace-only) lines are
//! skipped and counted in both modes; they are not errors.
//!
//! One file of about 1,300 lines on purpose: its stages (the bytes'
//! format and gzip members, the hashing, the line loop, the data pieces
//! parsed on the thread pool and merged in order) are one pipeline, read
//! from top to bottom, whose buffers and hasher pass from each stage to
//! the next.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};

use flate2::bufread::GzDecoder;
use sha2::{Digest, Sha256};

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
    /// `skipped 3 lines: 2 wrong field count, 1 non-numeric value` and/or
    /// `ignored 1 header value` (a bad header value keeps its line), then
    /// one indented `line N: reason` per kept example.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.total();
        if total == 0 {
            return f.write_str("no lines skipped");
        }
        let values = self.count(SkipKind::BadHeaderValue);
        let lines = total - values;
        let plural = |n: u64| if n == 1 { "" } else { "s" };
        if lines > 0 {
            write!(f, "skipped {lines} line{}:", plural(lines))?;
            let mut first = true;
            for kind in SkipKind::ALL {
                let n = self.count(kind);
                if n > 0 && kind != SkipKind::BadHeaderValue {
                    write!(f, "{} {n} {kind}", if first { "" } else { "," })?;
                    first = false;
                }
            }
        }
        if values > 0 {
            let sep = if lines > 0 { "; " } else { "" };
            write!(f, "{sep}ignored {values} header value{}", plural(values))?;
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

/// Data lines out of the order the format describes: submit times that
/// decrease down the file, job numbers given more than once. Both are legal
/// input (nothing is dropped); they are counted so that `info` and `replay`
/// can say so.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OrderReport {
    /// Jobs whose submit time is earlier than the job on the line before.
    pub submit_decreases: u64,
    /// 1-based line of the first such job.
    pub first_submit_decrease: Option<u64>,
    /// Jobs whose job number an earlier job already has.
    pub duplicate_job_numbers: u64,
    /// The smallest job number given more than once.
    pub first_duplicate: Option<i64>,
}

impl OrderReport {
    /// Whether the jobs are in order (no decrease, no duplicate).
    pub fn is_empty(&self) -> bool {
        self.submit_decreases == 0 && self.duplicate_job_numbers == 0
    }
}

impl fmt::Display for OrderReport {
    /// `2 submit times earlier than the line before (first at line 7); 1
    /// repeated job number (job 17 is given more than once)`, the parts that
    /// apply; `jobs in order` when none does.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("jobs in order");
        }
        let mut parts = Vec::new();
        if self.submit_decreases > 0 {
            let n = self.submit_decreases;
            let mut p = format!(
                "{n} submit time{} earlier than the line before",
                if n == 1 { "" } else { "s" }
            );
            if let Some(l) = self.first_submit_decrease {
                p.push_str(&format!(" (first at line {l})"));
            }
            parts.push(p);
        }
        if self.duplicate_job_numbers > 0 {
            let n = self.duplicate_job_numbers;
            let mut p = format!("{n} repeated job number{}", if n == 1 { "" } else { "s" });
            if let Some(j) = self.first_duplicate {
                p.push_str(&format!(" (job {j} is given more than once)"));
            }
            parts.push(p);
        }
        f.write_str(&parts.join("; "))
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
    /// Submit times that go backwards and repeated job numbers, counted.
    pub order: OrderReport,
    /// SHA-256 of the log's text (decompressed), lowercase hex: set by
    /// [`read_log`] and [`read_from`], `None` for a log built in memory.
    pub sha256: Option<String>,
    /// What reading Slurm accounting did, when the file was `sacct`
    /// output ([`super::sacct`]); `None` for an SWF log.
    pub sacct: Option<super::sacct::SacctReport>,
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
/// [`SwfError::NotFound`] when the file does not exist,
/// [`SwfError::IsDirectory`] for a directory, [`SwfError::Open`] when it
/// cannot be opened, and every error of [`read_from`].
pub fn read_log(path: &Path, opts: &ReadOptions) -> Result<SwfLog, SwfError> {
    read_log_zoned(path, opts, &SacctZone::utc())
}

/// The zone local times of Slurm accounting are read in ([`super::sacct`]):
/// the zone and its name.
#[derive(Debug, Clone)]
pub struct SacctZone {
    /// The zone.
    pub zone: jiff::tz::TimeZone,
    /// Its name, for the header's `TimeZoneString`.
    pub name: String,
}

impl SacctZone {
    /// UTC, the zone unless one is given.
    pub fn utc() -> SacctZone {
        SacctZone {
            zone: jiff::tz::TimeZone::UTC,
            name: "UTC".into(),
        }
    }
}

/// [`read_log`], reading the local times of a Slurm accounting file in
/// `zone` (an SWF log is read as by [`read_log`]).
///
/// # Errors
/// As [`read_log`].
pub fn read_log_zoned(
    path: &Path,
    opts: &ReadOptions,
    zone: &SacctZone,
) -> Result<SwfLog, SwfError> {
    let shown = path.display().to_string();
    if path.is_dir() {
        return Err(SwfError::IsDirectory { file: shown });
    }
    let file = File::open(path).map_err(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            SwfError::NotFound {
                file: shown.clone(),
            }
        } else {
            SwfError::Open {
                file: shown.clone(),
                cause: e,
            }
        }
    })?;
    let mut file = file;
    let hint = text_len_hint(&mut file);
    let mut log = read_from_zoned(
        BufReader::with_capacity(BUF_SIZE, file),
        &shown,
        opts,
        zone,
        hint,
    )?;
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
/// [`SwfError::OutOfRange`], [`SwfError::NotDecimal`],
/// [`SwfError::TimeOutOfRange`], [`SwfError::ProcessorsOutOfRange`],
/// [`SwfError::NotText`], [`SwfError::BadHeaderValue`],
/// [`SwfError::CommentAmongData`]). Both modes: [`SwfError::Compressed`],
/// [`SwfError::TruncatedGzip`], [`SwfError::CorruptGzip`],
/// [`SwfError::GzipTrailingData`], [`SwfError::Io`].
pub fn read_from<R: BufRead>(
    reader: R,
    name: &str,
    opts: &ReadOptions,
) -> Result<SwfLog, SwfError> {
    read_from_zoned(reader, name, opts, &SacctZone::utc(), 0)
}

/// The length of a file's text as the file tells it, bytes, to allocate
/// the jobs at once: a plain file's size, or the size a gzip file's trailer
/// gives (ISIZE: its last member's text, modulo 2^32), at most 20 times
/// the compressed size (the archive's logs compress 6 to 9 times). A hint
/// only, never trusted for anything else; 0 when the file does not tell.
fn text_len_hint(file: &mut File) -> u64 {
    use std::io::{Seek, SeekFrom};
    // Only a regular file is looked into (a pipe would lose what is read).
    let len = match file.metadata() {
        Ok(m) if m.is_file() => m.len(),
        _ => return 0,
    };
    let mut magic = [0u8; 2];
    let mut trailer = [0u8; 4];
    let gzip = len >= 18 && file.read_exact(&mut magic).is_ok() && Magic::of(&magic) == Magic::Gzip;
    let hint = if !gzip {
        len
    } else if file.seek(SeekFrom::End(-4)).is_ok() && file.read_exact(&mut trailer).is_ok() {
        u64::from(u32::from_le_bytes(trailer)).min(len.saturating_mul(20))
    } else {
        0
    };
    // Back to the start, where the reading begins; a file that cannot
    // seek back is read as it is, from where it is (then the reading
    // fails and says so).
    match file.seek(SeekFrom::Start(0)) {
        Ok(_) => hint,
        Err(_) => 0,
    }
}

/// [`read_from`] with the zone of Slurm accounting times and the text's
/// length if known ([`text_len_hint`]; 0 when not).
fn read_from_zoned<R: BufRead>(
    mut reader: R,
    name: &str,
    opts: &ReadOptions,
    zone: &SacctZone,
    text_len: u64,
) -> Result<SwfLog, SwfError> {
    let mut text_len = text_len;
    let magic = match reader.fill_buf() {
        Ok(buf) => {
            // Text held in memory is all in the buffer: its length.
            text_len = text_len.max(buf.len() as u64);
            Magic::of(buf)
        }
        Err(e) => {
            return Err(SwfError::Io {
                file: name.to_string(),
                line: 1,
                cause: e,
            });
        }
    };
    match magic {
        Magic::Gzip => read_hashed(GzMembers::new(reader), name, opts, true, zone, text_len),
        Magic::Other { what, command } => Err(SwfError::Compressed {
            file: name.to_string(),
            what,
            command,
        }),
        Magic::Text => read_hashed(reader, name, opts, false, zone, text_len),
    }
}

/// Reads the text of `source` line by line ([`read_lines`]), hashing every
/// byte as it is consumed, and records the digest in [`SwfLog::sha256`].
/// `text_len` is the text's length if known (bytes; 0 when not).
fn read_hashed<R: Read>(
    source: R,
    name: &str,
    opts: &ReadOptions,
    gzip: bool,
    zone: &SacctZone,
    text_len: u64,
) -> Result<SwfLog, SwfError> {
    let mut text = HashConsumed {
        inner: BufReader::with_capacity(BUF_SIZE, source),
        hasher: Some(Sha256::new()),
    };
    // Slurm accounting (`sacct --parsable2`) is read as a log too.
    let sacct = match text.fill_buf() {
        Ok(buf) => {
            let end = buf.iter().position(|&b| b == b'\n').unwrap_or(buf.len());
            super::sacct::looks_like_sacct(&String::from_utf8_lossy(&buf[..end]))
        }
        Err(e) => return Err(io_error(e, name, 0, gzip)),
    };
    let mut log = if sacct {
        let s = super::sacct::read_sacct(&mut text, name, opts.lenient, &zone.zone, &zone.name)?;
        SwfLog {
            name: name.to_string(),
            order: order_of(&s.jobs),
            header: s.header,
            jobs: s.jobs,
            sacct: Some(s.report),
            ..SwfLog::default()
        }
    } else {
        read_lines(&mut text, name, opts, gzip, text_len)?
    };
    log.sha256 = text.hasher.map(|h| hex(&h.finalize()));
    Ok(log)
}

/// Lowercase hexadecimal of `bytes` (a SHA-256 digest as `sha256sum`
/// prints it).
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    s
}

/// A buffered reader that hashes (SHA-256) every byte consumed from it, in
/// order, while `hasher` is set: read with `read_until` or `read`, the
/// digest is of exactly the text taken. [`read_chunks`] takes the hasher
/// away to hash the data section on a thread of its own and gives it back.
struct HashConsumed<B> {
    inner: B,
    hasher: Option<Sha256>,
}

impl<B: BufRead> Read for HashConsumed<B> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.hasher.is_none() {
            // Large reads go past the buffer, as BufReader's do.
            return self.inner.read(out);
        }
        let buf = self.inner.fill_buf()?;
        let n = buf.len().min(out.len());
        out[..n].copy_from_slice(&buf[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<B: BufRead> BufRead for HashConsumed<B> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        if n > 0
            && let Some(h) = &mut self.hasher
            // The bytes consumed are the front of the buffer the last
            // fill_buf returned, still there (a non-empty buffer is
            // returned again without reading).
            && let Ok(buf) = self.inner.fill_buf()
        {
            h.update(&buf[..n.min(buf.len())]);
        }
        self.inner.consume(n);
    }
}

/// What the first bytes of a file say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Magic {
    /// gzip (`1f 8b`): decoded.
    Gzip,
    /// Another compressed format or archive: refused.
    Other {
        what: &'static str,
        command: &'static str,
    },
    /// Anything else: read as text.
    Text,
}

impl Magic {
    /// Formats by their magic bytes (no SWF line starts with any of them:
    /// a line starts with blanks, a digit, a sign or `;`).
    const OTHERS: [(&'static [u8], &'static str, &'static str); 7] = [
        (b"\xfd7zXZ\x00", "xz-compressed", "xz -d"),
        (b"BZh", "bzip2-compressed", "bunzip2"),
        (b"\x28\xb5\x2f\xfd", "zstd-compressed", "zstd -d"),
        (b"PK\x03\x04", "a zip archive", "unzip"),
        (b"\x04\x22\x4d\x18", "lz4-compressed", "lz4 -d"),
        (b"\x1f\x9d", "compressed with `compress` (.Z)", "uncompress"),
        (b"7z\xbc\xaf\x27\x1c", "a 7z archive", "7z x"),
    ];

    fn of(start: &[u8]) -> Magic {
        if start.starts_with(&[0x1f, 0x8b]) {
            return Magic::Gzip;
        }
        Magic::OTHERS
            .iter()
            .find(|(m, _, _)| start.starts_with(m))
            .map_or(Magic::Text, |&(_, what, command)| Magic::Other {
                what,
                command,
            })
    }
}

/// Marks the error [`GzMembers`] returns for non-zero bytes after the last
/// gzip member.
#[derive(Debug)]
struct TrailingData;

impl fmt::Display for TrailingData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unexpected bytes after the gzip data")
    }
}

impl std::error::Error for TrailingData {}

/// A gzip file of one or more members, decoded as one stream; zero bytes
/// after the last member are padding (as `gzip -d` takes them), any other
/// byte that does not start a member is an error ([`TrailingData`]).
struct GzMembers<R: BufRead> {
    decoder: Option<GzDecoder<R>>,
}

impl<R: BufRead> GzMembers<R> {
    fn new(reader: R) -> GzMembers<R> {
        GzMembers {
            decoder: Some(GzDecoder::new(reader)),
        }
    }
}

/// Consumes the rest of `reader`; an error unless every byte is zero.
fn skip_zero_padding<R: BufRead>(reader: &mut R) -> io::Result<()> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if buf.iter().any(|&b| b != 0) {
            return Err(io::Error::new(io::ErrorKind::InvalidData, TrailingData));
        }
        let n = buf.len();
        reader.consume(n);
    }
}

impl<R: BufRead> io::Read for GzMembers<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(decoder) = self.decoder.as_mut() else {
                return Ok(0);
            };
            let n = decoder.read(out)?;
            if n > 0 || out.is_empty() {
                return Ok(n);
            }
            // The member is finished (its checksum verified): what follows?
            let Some(decoder) = self.decoder.take() else {
                return Ok(0);
            };
            let mut inner = decoder.into_inner();
            match inner.fill_buf()?.first() {
                None => return Ok(0),
                Some(0x1f) => self.decoder = Some(GzDecoder::new(inner)),
                Some(_) => {
                    skip_zero_padding(&mut inner)?;
                    return Ok(0);
                }
            }
        }
    }
}

/// The line-by-line loop shared by plain and gzip input. `text_len` is the
/// text's length if known (bytes; 0 when not): the jobs are allocated at
/// once for that much text, instead of growing (each growth copies them,
/// and the copies' memory is new to the process: page faults, which cost
/// more than the parsing).
fn read_lines<B: BufRead>(
    reader: &mut HashConsumed<B>,
    name: &str,
    opts: &ReadOptions,
    gzip: bool,
    text_len: u64,
) -> Result<SwfLog, SwfError> {
    let mut log = SwfLog {
        name: name.to_string(),
        ..SwfLog::default()
    };
    let mut buf: Vec<u8> = Vec::with_capacity(256);
    let mut line_no: u64 = 0;
    let mut order = OrderTracker::default();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(io_error(e, name, line_no, gzip)),
        }
        line_no += 1;
        let mut line = trim_line_end(&buf);
        if line_no == 1 {
            line = line.strip_prefix(BOM).unwrap_or(line);
        }
        let Some(first) = line.iter().position(|&b| !is_separator(b)) else {
            log.blank_lines += 1;
            continue;
        };
        if line[first] == b';' {
            if let Some((column, byte)) = control_byte(line) {
                let e = LineError::NotText { column, byte };
                if opts.lenient {
                    record_skip(&mut log.skipped, line_no, e);
                    continue;
                }
                return Err(e.at(name, line_no));
            }
            // Non-UTF-8 bytes (never seen in the PWA logs) become U+FFFD.
            let known = log.header.problems.len();
            log.header.push_line(&String::from_utf8_lossy(line));
            if let Some((_, p)) = log.header.problems.get(known) {
                let error = SwfError::BadHeaderValue {
                    file: name.to_string(),
                    line: line_no,
                    key: p.key.to_string(),
                    value: p.value.clone(),
                    reason: p.reason.clone(),
                };
                if !opts.lenient {
                    return Err(error);
                }
                let reason = format!(
                    "header field {}: {} (found {:?}); ignored",
                    p.key, p.reason, p.value
                );
                log.skipped
                    .record(line_no, SkipKind::BadHeaderValue, reason);
            }
            continue;
        }
        {
            // The header read, the rest of the text is data: read in
            // pieces cut after a line end, each parsed on the thread pool
            // while the next is read (inflated) and merged in order as
            // soon as it is parsed (read_chunks), after this first data
            // line, which decides alone whether the file is SWF at all.
            let first = match job_line(line) {
                Ok(job) => Ok(job),
                Err(e) => Err(match not_text(line) {
                    Some((column, byte)) => LineError::NotText { column, byte },
                    None => e,
                }),
            };
            let first_line = line_no;
            let other = match &first {
                Err(_) if !opts.lenient => other_format(line),
                _ => None,
            };
            match first {
                Ok(job) => {
                    order.see(&job, line_no);
                    log.jobs.push(job);
                }
                Err(e) if opts.lenient => record_skip(&mut log.skipped, line_no, e),
                Err(e) => {
                    // Not read as data: a failed read (a cut or corrupt
                    // gzip stream) is the better report, if there is one.
                    let mut lines = 0;
                    reader.hasher = None;
                    let (cut, _) = read_chunks(reader, false, None, |c| {
                        lines += c.newlines;
                        Ok(())
                    })?;
                    if let Some(cut) = cut {
                        return Err(io_error(cut, name, line_no + lines, gzip));
                    }
                    return Err(match other {
                        Some(what) => SwfError::NotSwf {
                            file: name.to_string(),
                            line: first_line,
                            what,
                        },
                        None => e.at(name, first_line),
                    });
                }
            }
            // At least 64 bytes a line in the archive's logs (93 in most).
            // Only a hint: memory refused now is asked for as it is needed.
            let _ = log
                .jobs
                .try_reserve(usize::try_from(text_len / 64).unwrap_or(0));
            huge_pages(&mut log.jobs);
            let mut base = line_no;
            let hasher = reader.hasher.take();
            let (cut, hasher) = read_chunks(reader, opts.lenient, hasher, |c| {
                merge_chunk(c, &mut base, name, &mut log, &mut order)
            })?;
            reader.hasher = hasher;
            if let Some(cut) = cut {
                // A read that fails (a cut gzip stream): the lines read
                // whole came first, as a line-by-line read meets them.
                return Err(io_error(cut, name, base, gzip));
            }
            break;
        }
    }
    log.order = order.finish(&log.jobs);
    log.jobs.shrink_to_fit();
    Ok(log)
}

/// Asks Linux to back the spare capacity of `jobs` with huge pages (2 MB)
/// where it can: tens of MB of job records then cost tens of page faults
/// instead of thousands. Only advice: nothing changes but the time.
fn huge_pages(jobs: &mut Vec<JobRecord>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let spare = jobs.spare_capacity_mut();
        let start = spare.as_mut_ptr() as usize;
        let end = start + std::mem::size_of_val(spare);
        let (from, to) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if to > from {
            // SAFETY: the range lies within the vector's own allocation,
            // not yet written; MADV_HUGEPAGE changes neither the mapping
            // nor its contents, only how the kernel backs it.
            let _ = unsafe {
                rustix::mm::madvise(from as *mut _, to - from, rustix::mm::Advice::LinuxHugepage)
            };
        }
    }
}

/// One line of the data section that is not a job: blank lines are only
/// counted.
#[derive(Debug)]
enum NotJob {
    /// A comment line among data lines.
    Comment,
    /// A line that does not parse.
    Bad(LineError),
}

/// What one chunk of the data section holds: its line count, blank lines,
/// jobs and lines that are not jobs with their line numbers within the
/// chunk (1-based), and in strict mode the first line that stops the read
/// (the chunk stops there).
#[derive(Debug, Default)]
struct Chunk {
    lines: u64,
    blank: u64,
    jobs: Vec<JobRecord>,
    /// The line of each job of `jobs`.
    job_lines: Vec<u64>,
    not_jobs: Vec<(u64, NotJob)>,
    stop: Option<(u64, NotJob)>,
    /// Line ends in the chunk's text (`lines` unless it stopped early).
    newlines: u64,
}

/// Parses the lines of one chunk of the data section into `c` (its
/// vectors emptied first, their memory kept).
fn parse_chunk(text: &[u8], lenient: bool, c: &mut Chunk) {
    c.jobs.clear();
    c.job_lines.clear();
    c.not_jobs.clear();
    c.stop = None;
    c.lines = 0;
    c.blank = 0;
    // About 90 bytes a line in the archive's logs: room for most chunks'
    // jobs at once.
    c.jobs.reserve(text.len() / 80);
    c.job_lines.reserve(text.len() / 80);
    let mut start = 0;
    let ends = memchr::memchr_iter(b'\n', text).map(|i| i + 1);
    let last = (!text.ends_with(b"\n") && !text.is_empty()).then_some(text.len());
    for end in ends.chain(last) {
        let line = trim_line_end(&text[start..end]);
        start = end;
        c.lines += 1;
        let Some(first) = line.iter().position(|&b| !is_separator(b)) else {
            c.blank += 1;
            continue;
        };
        let not_job = if line[first] == b';' {
            NotJob::Comment
        } else {
            match job_line(line) {
                Ok(job) => {
                    c.jobs.push(job);
                    c.job_lines.push(c.lines);
                    continue;
                }
                Err(e) => NotJob::Bad(match not_text(line) {
                    Some((column, byte)) => LineError::NotText { column, byte },
                    None => e,
                }),
            }
        };
        if lenient {
            c.not_jobs.push((c.lines, not_job));
        } else {
            c.stop = Some((c.lines, not_job));
            break;
        }
    }
    c.newlines = if c.stop.is_some() {
        memchr::memchr_iter(b'\n', text).count() as u64
    } else {
        c.lines - u64::from(last.is_some())
    };
}

/// Reads `reader` to its end in pieces of 256 KB cut after a line end,
/// each parsed ([`parse_chunk`]) on the thread pool (rayon) while this
/// thread reads the next, so that inflating a `.gz` and parsing overlap,
/// and hands the parsed pieces to `merge` in order as soon as each is
/// ready; the memory of a merged piece (its text and its vectors) is used
/// again for a later one. The last piece is the text after the last line
/// end, if any. With a `hasher`, the pieces are hashed in order on a thread
/// of their own, beside the reading and the parsing, and the hasher is
/// returned with every piece read in it.
///
/// Returns the error of a read that failed, once the pieces of the lines
/// read whole before it are merged (the rest of the text is dropped, and
/// the hasher has not seen all of the text).
///
/// # Errors
/// The first error `merge` returns; the read stops there.
fn read_chunks<R: Read>(
    reader: &mut R,
    lenient: bool,
    hasher: Option<Sha256>,
    mut merge: impl FnMut(&mut Chunk) -> Result<(), SwfError>,
) -> Result<(Option<io::Error>, Option<Sha256>), SwfError> {
    const CHUNK: usize = 1 << 18;
    let done: Parsed = Mutex::new(Vec::new());
    let mut pieces = InOrder::default();
    let mut cut = None;
    let mut stopped = Ok(());
    let hasher = std::thread::scope(|threads| {
        let (to_hash, hash_queue) = mpsc::channel::<(Arc<Vec<u8>>, usize)>();
        let hashing = hasher.map(|mut h| {
            threads.spawn(move || {
                for (text, len) in hash_queue {
                    h.update(&text[..len]);
                }
                h
            })
        });
        let to_hash = hashing.is_some().then_some(to_hash);
        rayon::in_place_scope(|s| {
            let done = &done;
            let to_hash = &to_hash;
            // Pieces read and not merged yet, at most: one per thread of
            // the pool and one more; past that, this thread parses the
            // piece it read itself. So the reading never runs far ahead of
            // the parsing, and the memory of a few pieces serves them all
            // (new memory is page faults, which cost more than parsing).
            let most = rayon::current_num_threads() + 1;
            let mut k = 0;
            // Piece number `k`, its text `text[..len]`, to be parsed.
            let parse = |k: &mut usize, next: usize, text: Vec<u8>, len: usize, mut c: Chunk| {
                let text = Arc::new(text);
                if let Some(tx) = to_hash {
                    // The receiver lives until the sender is dropped.
                    let _ = tx.send((Arc::clone(&text), len));
                }
                let n = *k;
                *k += 1;
                let work = move || {
                    parse_chunk(&text[..len], lenient, &mut c);
                    done.lock().expect("no parse panics").push((n, c, text));
                };
                if n - next >= most {
                    work();
                } else {
                    s.spawn(move |_| work());
                }
            };
            // The text after the last line end of a piece, which begins
            // the next.
            let mut carry: Vec<u8> = Vec::new();
            loop {
                // A piece's memory keeps its length (bytes written before)
                // from piece to piece: only what was never written is
                // zeroed, once.
                let mut text = pieces.spare_text.pop().unwrap_or_default();
                let want = carry.len() + CHUNK;
                if text.len() < want {
                    text.resize(want, 0);
                }
                text[..carry.len()].copy_from_slice(&carry);
                // The carried text holds no line end: look in what is new
                // only (a long line costs its length once, not once per
                // piece).
                let old = carry.len();
                let mut filled = old;
                let read = loop {
                    match reader.read(&mut text[filled..want]) {
                        Ok(0) => break Ok(()),
                        Ok(n) => {
                            filled += n;
                            if filled == want {
                                break Ok(());
                            }
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => break Err(e),
                    }
                };
                let whole = memchr::memrchr(b'\n', &text[old..filled]).map_or(0, |i| old + i + 1);
                let chunk = pieces.spare_chunks.pop().unwrap_or_default();
                match read {
                    Ok(()) if filled == old => {
                        if filled > 0 {
                            parse(&mut k, pieces.next, text, filled, chunk);
                        }
                        break;
                    }
                    Ok(()) => {
                        carry.clear();
                        carry.extend_from_slice(&text[whole..filled]);
                        if whole > 0 {
                            parse(&mut k, pieces.next, text, whole, chunk);
                        } else {
                            pieces.spare_text.push(text);
                        }
                    }
                    Err(e) => {
                        if whole > 0 {
                            parse(&mut k, pieces.next, text, whole, chunk);
                        }
                        cut = Some(e);
                        break;
                    }
                }
                if let Err(e) = pieces.merge_ready(done, &mut merge) {
                    stopped = Err(e);
                    break;
                }
            }
        });
        drop(to_hash);
        hashing.map(|h| h.join().expect("no hashing panics"))
    });
    stopped?;
    pieces.merge_ready(&done, &mut merge)?;
    Ok((cut, hasher))
}

/// Pieces parsed and not yet taken for merging: each one's number, what it
/// holds and its text.
type Parsed = Mutex<Vec<(usize, Chunk, Arc<Vec<u8>>)>>;

/// [`read_chunks`]'s parsed pieces on their way to being merged in order,
/// and the memory of the merged ones.
#[derive(Default)]
struct InOrder {
    /// Parsed pieces not merged yet, by number.
    ready: Vec<Option<(Chunk, Arc<Vec<u8>>)>>,
    /// The number of the next piece to merge.
    next: usize,
    /// Texts and chunks of merged pieces, for the next ones.
    spare_text: Vec<Vec<u8>>,
    spare_chunks: Vec<Chunk>,
}

impl InOrder {
    /// Takes the pieces parsed since (`done`) and merges every one that is
    /// next in order.
    ///
    /// # Errors
    /// The first error `merge` returns.
    fn merge_ready(
        &mut self,
        done: &Parsed,
        merge: &mut impl FnMut(&mut Chunk) -> Result<(), SwfError>,
    ) -> Result<(), SwfError> {
        for (k, c, text) in std::mem::take(&mut *done.lock().expect("no parse panics")) {
            if self.ready.len() <= k {
                self.ready.resize_with(k + 1, || None);
            }
            self.ready[k] = Some((c, text));
        }
        while let Some((mut c, text)) = self.ready.get_mut(self.next).and_then(Option::take) {
            self.next += 1;
            merge(&mut c)?;
            // The text's memory is used again once the hasher is done
            // with it.
            if let Some(text) = Arc::into_inner(text) {
                self.spare_text.push(text);
            }
            self.spare_chunks.push(c);
        }
        Ok(())
    }
}

/// Merges one parsed piece of the data section, whose first line is the
/// one after line `base` (moved on past the piece): jobs, blank lines,
/// skipped lines and the first error exactly as a line-by-line read finds
/// them. The piece's vectors are left empty (their memory kept).
///
/// # Errors
/// Strict mode: the first comment among data lines or bad line.
fn merge_chunk(
    c: &mut Chunk,
    base: &mut u64,
    name: &str,
    log: &mut SwfLog,
    order: &mut OrderTracker,
) -> Result<(), SwfError> {
    log.blank_lines += c.blank;
    for (job, line) in c.jobs.iter().zip(&c.job_lines) {
        order.see(job, *base + line);
    }
    log.jobs.append(&mut c.jobs);
    for (line, not_job) in c.not_jobs.drain(..) {
        match not_job {
            NotJob::Comment => log.skipped.record(
                *base + line,
                SkipKind::CommentAmongData,
                "comment line among data lines",
            ),
            NotJob::Bad(e) => record_skip(&mut log.skipped, *base + line, e),
        }
    }
    if let Some((line, not_job)) = c.stop.take() {
        return Err(match not_job {
            NotJob::Comment => SwfError::CommentAmongData {
                file: name.to_string(),
                line: *base + line,
            },
            NotJob::Bad(e) => e.at(name, *base + line),
        });
    }
    *base += c.newlines;
    Ok(())
}

/// What a line that is not a job line looks like, when it looks like
/// another kind of file: a CSV table (commas between fields), a
/// tab-separated table with a header, JSON, HTML or XML. `None` for a line
/// that is just a bad SWF line.
fn other_format(line: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    let start: String = text.chars().take(60).collect();
    let start = if start.len() < text.len() {
        format!("{start}…")
    } else {
        start
    };
    let fields = |sep: char| text.split(sep).count();
    let wordy = |sep: char| {
        text.split(sep)
            .any(|f| f.trim().chars().next().is_some_and(|c| c.is_alphabetic()))
    };
    if text.starts_with('{') || text.starts_with('[') {
        Some(format!("JSON (`{start}`)"))
    } else if text.starts_with('#') {
        Some(format!("Markdown or a script (`{start}`)"))
    } else if text.starts_with('<') {
        Some(format!("HTML or XML (`{start}`)"))
    } else if fields(',') >= 3 {
        Some(format!(
            "a CSV table ({} comma-separated fields{}: `{start}`)",
            fields(','),
            if wordy(',') { ", a header line" } else { "" }
        ))
    } else if fields('\t') >= 3 && wordy('\t') {
        Some(format!(
            "a tab-separated table with a header line (`{start}`)"
        ))
    } else {
        None
    }
}

/// The UTF-8 byte order mark, skipped at the start of the text.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// The first control byte of a line (other than the separators of
/// [`is_separator`]), 1-based column and byte.
fn control_byte(line: &[u8]) -> Option<(usize, u8)> {
    line.iter()
        .position(|&b| (b < 0x20 && !is_separator(b)) || b == 0x7f)
        .map(|i| (i + 1, line[i]))
}

/// The first byte that makes a line not text: a control byte, or a byte
/// where the line stops being UTF-8. Only called on a line that failed to
/// parse, so it costs nothing on good lines.
fn not_text(line: &[u8]) -> Option<(usize, u8)> {
    let utf8 = match std::str::from_utf8(line) {
        Ok(_) => None,
        Err(e) => Some((e.valid_up_to() + 1, line[e.valid_up_to()])),
    };
    match (control_byte(line), utf8) {
        (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// Counts, while reading, what [`OrderReport`] reports.
/// The [`OrderReport`] of jobs in file order (for logs built otherwise
/// than by reading SWF lines).
fn order_of(jobs: &[JobRecord]) -> OrderReport {
    let mut t = OrderTracker::default();
    for (k, j) in jobs.iter().enumerate() {
        t.see(j, k as u64 + 1);
    }
    t.finish(jobs)
}

#[derive(Debug, Default)]
struct OrderTracker {
    report: OrderReport,
    last: Option<(f64, i64)>,
    numbers_increase: bool,
}

impl OrderTracker {
    #[inline]
    fn see(&mut self, job: &JobRecord, line: u64) {
        match self.last {
            None => self.numbers_increase = true,
            Some((submit, number)) => {
                if job.submit_time < submit {
                    self.report.submit_decreases += 1;
                    self.report.first_submit_decrease.get_or_insert(line);
                }
                if job.job_number <= number {
                    self.numbers_increase = false;
                }
            }
        }
        self.last = Some((job.submit_time, job.job_number));
    }

    /// The report; repeated job numbers are looked for (by sorting) only
    /// when the numbers do not strictly increase down the file.
    fn finish(mut self, jobs: &[JobRecord]) -> OrderReport {
        if !self.numbers_increase && !jobs.is_empty() {
            let mut numbers: Vec<i64> = jobs.iter().map(|j| j.job_number).collect();
            numbers.sort_unstable();
            for w in numbers.windows(2) {
                if w[0] == w[1] {
                    self.report.duplicate_job_numbers += 1;
                    self.report.first_duplicate.get_or_insert(w[0]);
                }
            }
        }
        self.report
    }
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
    if e.get_ref().is_some_and(|inner| inner.is::<TrailingData>()) {
        return SwfError::GzipTrailingData { file };
    }
    match e.kind() {
        io::ErrorKind::UnexpectedEof if gzip => SwfError::TruncatedGzip {
            file,
            line,
            complete,
        },
        io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData if gzip => SwfError::CorruptGzip {
            file,
            line,
            cause: e,
        },
        _ => SwfError::Io {
            file,
            line,
            cause: e,
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
        assert!(
            err.to_string()
                .starts_with("t.swf:6: wrong field count: expected 18, found 3; "),
            "{err}"
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
        // The digest is of the decoded text: the same for plain and gzip.
        let plain = read_from(Cursor::new(TEXT), "t", &ReadOptions::default()).unwrap();
        assert_eq!(log.sha256, plain.sha256);
        assert_eq!(log.sha256.as_ref().map(String::len), Some(64));
        let cut = &gz[..gz.len() - 12];
        let err = read_from(Cursor::new(cut), "t.gz", &ReadOptions::lenient()).unwrap_err();
        assert!(matches!(err, SwfError::TruncatedGzip { .. }), "{err}");
    }
}
