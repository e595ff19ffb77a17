//! nom parsers for SWF lines, as a stack of tiny named functions.
//!
//! Data lines (PWA SWF v2.2): 18 numeric fields separated by runs of
//! whitespace (spaces or TABs; a trailing `\r` from CRLF files is whitespace
//! too), with optional leading whitespace. Data lines are parsed as bytes,
//! without allocating per field:
//!
//! * [`separator`] → [`token`] → [`field`] split a line;
//! * [`split_fields`] collects the 18 tokens (or reports the count found);
//! * [`int_field`], [`processors_field`] and [`time_field`] convert one token;
//! * [`job_line`] builds a [`JobRecord`]: a line whose 18 fields are all
//!   integers in range (nearly every line of the archive's logs) in one
//!   pass over its bytes, any other line with the parsers above
//!   ([`nom_job_line`], which also words every error).
//!
//! Header lines (`;` comments) are parsed as text by [`header_line`], which
//! classifies a line as blank, `Key: value` or free text; [`leading_integer`]
//! and [`numbered_entry`] split a header value into its leading number and
//! trailing text. Attaching continuation lines to the entry they continue is
//! the job of [`crate::swf::SwfHeader::push_line`].

use nom::{
    IResult, Parser,
    bytes::complete::{take_till1, take_while, take_while1},
    character::complete::{char, digit1, one_of, satisfy, space0},
    combinator::{all_consuming, eof, not, opt, peek, recognize},
    sequence::{preceded, terminated},
};

use super::error::{FIELD_COUNT, LineError};
use super::record::JobRecord;

/// Whether `b` separates fields: space, TAB, CR, LF, vertical tab or form feed.
#[inline]
pub fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

/// A (possibly empty) run of separators.
#[inline]
pub fn separator(input: &[u8]) -> IResult<&[u8], &[u8]> {
    take_while(is_separator).parse(input)
}

/// One non-empty token: the bytes up to the next separator.
#[inline]
pub fn token(input: &[u8]) -> IResult<&[u8], &[u8]> {
    take_till1(is_separator).parse(input)
}

/// One field: optional separators, then a token. Fails at the end of the line.
#[inline]
pub fn field(input: &[u8]) -> IResult<&[u8], &[u8]> {
    preceded(separator, token).parse(input)
}

/// Splits a data line into its 18 field tokens.
///
/// # Errors
/// [`LineError::WrongFieldCount`] with the number of fields found when the
/// line does not have exactly 18.
pub fn split_fields(line: &[u8]) -> Result<[&[u8]; FIELD_COUNT], LineError> {
    let mut out: [&[u8]; FIELD_COUNT] = [&[]; FIELD_COUNT];
    let mut found = 0usize;
    let mut rest = line;
    while let Ok((after, tok)) = field(rest) {
        if let Some(slot) = out.get_mut(found) {
            *slot = tok;
        }
        found += 1;
        rest = after;
    }
    if found == FIELD_COUNT {
        Ok(out)
    } else {
        Err(LineError::WrongFieldCount { found })
    }
}

/// A decimal integer token: optional sign and digits, nothing else.
/// Returns whether it is negative and the digits.
#[inline]
pub fn integer_token(input: &[u8]) -> IResult<&[u8], (bool, &[u8])> {
    all_consuming((opt(one_of("+-")), digit1))
        .map(|(sign, digits)| (sign == Some('-'), digits))
        .parse(input)
}

/// Accumulates decimal digits into an `i64`; `None` on overflow.
#[inline]
fn accumulate(negative: bool, digits: &[u8]) -> Option<i64> {
    let mut v: i64 = 0;
    for &d in digits {
        let d = i64::from(d - b'0');
        v = v.checked_mul(10)?;
        // Accumulate negative values downwards so that i64::MIN parses.
        v = if negative {
            v.checked_sub(d)?
        } else {
            v.checked_add(d)?
        };
    }
    Some(v)
}

/// Parses a token as a finite `f64` (`969.56`, `1e3`, `-1`); `None` when it
/// is not a number or not finite (`NaN`, `inf`). Used only to word errors.
#[inline]
fn finite_float(tok: &[u8]) -> Option<f64> {
    let s = std::str::from_utf8(tok).ok()?;
    let v: f64 = s.parse().ok()?;
    v.is_finite().then_some(v)
}

fn token_string(tok: &[u8]) -> String {
    String::from_utf8_lossy(tok).into_owned()
}

/// 2^53 s: the first time that an `f64` cannot tell from its neighbour.
/// Time fields must be strictly between -2^53 and 2^53 seconds (about
/// 285 million years), so that every whole second is exact.
pub const TIME_LIMIT: f64 = 9_007_199_254_740_992.0;

/// Largest processor count (fields 5 and 8): what fits in 32 bits.
pub const MAX_PROCESSORS: i64 = u32::MAX as i64;

/// A plain decimal token, the syntax of SWF time fields: optional sign,
/// digits, optionally a point followed by digits (`120`, `-1`, `969.56`);
/// no exponent, no bare point (`5.`, `.5`), no `inf` or `NaN`.
#[inline]
pub fn decimal_token(input: &[u8]) -> IResult<&[u8], &[u8]> {
    all_consuming(recognize((
        opt(one_of("+-")),
        digit1,
        opt((char('.'), digit1)),
    )))
    .parse(input)
}

/// Converts the token of an integer field (count or id; fields 1, 5, 7, 8,
/// 10–17) to `i64`. Only integers are accepted: an optional sign and digits
/// (no decimal point, no exponent: the PWA logs write every integer field
/// that way).
///
/// # Errors
/// [`LineError::NotAnInteger`] for any other number (`4.5`, `5.0`, `1e3`),
/// [`LineError::OutOfRange`] beyond 64 bits, [`LineError::NonNumeric`] for
/// anything else. `field` (1..=18) is only used in the error.
#[inline]
pub fn int_field(tok: &[u8], field: usize) -> Result<i64, LineError> {
    if let Ok((_, (negative, digits))) = integer_token(tok)
        && let Some(v) = accumulate(negative, digits)
    {
        return Ok(v);
    }
    Err(int_field_error(tok, field))
}

/// Why a token is not a 64-bit integer (kept out of the hot path).
#[cold]
#[inline(never)]
fn int_field_error(tok: &[u8], field: usize) -> LineError {
    let token = token_string(tok);
    if integer_token(tok).is_ok() {
        LineError::OutOfRange { field, token }
    } else if finite_float(tok).is_some() {
        LineError::NotAnInteger { field, token }
    } else {
        LineError::NonNumeric { field, token }
    }
}

/// Converts the token of a processor count (fields 5 and 8) to `i64`: an
/// integer field ([`int_field`]) whose value must fit in 32 bits.
///
/// # Errors
/// Those of [`int_field`], and [`LineError::ProcessorsOutOfRange`] above
/// [`MAX_PROCESSORS`].
#[inline]
pub fn processors_field(tok: &[u8], field: usize) -> Result<i64, LineError> {
    let v = int_field(tok, field)?;
    if v > MAX_PROCESSORS {
        return Err(LineError::ProcessorsOutOfRange {
            field,
            token: token_string(tok),
        });
    }
    Ok(v)
}

/// Converts the token of a time field (seconds; fields 2, 3, 4, 6, 9, 18) to
/// `f64`. The token is a plain decimal ([`decimal_token`]): integers take a
/// fast path; fractional values (`969.56`) are allowed by the spec.
///
/// # Errors
/// [`LineError::TimeOutOfRange`] when |value| ≥ 2^53 s ([`TIME_LIMIT`]),
/// [`LineError::NotDecimal`] for another way of writing a number (`1e3`,
/// `5.`, `.5`), [`LineError::NonNumeric`] for anything else (`inf`, `NaN`).
#[inline]
pub fn time_field(tok: &[u8], field: usize) -> Result<f64, LineError> {
    if let Ok((_, (negative, digits))) = integer_token(tok)
        && let Some(v) = accumulate(negative, digits)
        && v.unsigned_abs() < 1 << 53
    {
        // Exact: |v| < 2^53.
        return Ok(v as f64);
    }
    time_field_slow(tok, field)
}

/// The fractional values and the errors of [`time_field`] (out of the hot
/// path: almost every time in the archive's logs is an integer).
#[cold]
#[inline(never)]
fn time_field_slow(tok: &[u8], field: usize) -> Result<f64, LineError> {
    let out_of_range = || LineError::TimeOutOfRange {
        field,
        token: token_string(tok),
    };
    if integer_token(tok).is_ok() {
        return Err(out_of_range());
    }
    if decimal_token(tok).is_ok() {
        let v = finite_float(tok).ok_or_else(out_of_range)?;
        return if v.abs() < TIME_LIMIT {
            Ok(v)
        } else {
            Err(out_of_range())
        };
    }
    let token = token_string(tok);
    if finite_float(tok).is_some() {
        Err(LineError::NotDecimal { field, token })
    } else {
        Err(LineError::NonNumeric { field, token })
    }
}

/// Parses one data line into a [`JobRecord`]. Leading and trailing
/// whitespace, including a line terminator (`\n` or `\r\n`), is ignored.
///
/// # Errors
/// The first problem found: wrong field count, then field by field from 1 to
/// 18 ([`LineError`]).
pub fn job_line(line: &[u8]) -> Result<JobRecord, LineError> {
    if let Some(job) = integer_job_line(line) {
        return Ok(job);
    }
    nom_job_line(line)
}

/// [`job_line`] for the line of every field an integer (sign and digits)
/// within its field's range, the archive's usual line, in one pass over
/// the bytes; `None` for any other line, which [`nom_job_line`] parses or
/// words the error of. For every line it accepts, the record is the one
/// [`nom_job_line`] gives: the same tokens (runs of non-separators), the
/// same integers ([`accumulate`]), the same ranges (fields 5 and 8 at most
/// [`MAX_PROCESSORS`], times below 2^53 s in magnitude); the tests compare
/// the two on every line of the real logs and on generated lines.
#[inline]
fn integer_job_line(line: &[u8]) -> Option<JobRecord> {
    let mut v = [0i64; FIELD_COUNT];
    let mut at = 0;
    for slot in &mut v {
        let mut b = *line.get(at)?;
        while is_separator(b) {
            at += 1;
            b = *line.get(at)?;
        }
        let negative = b == b'-';
        if negative || b == b'+' {
            at += 1;
        }
        let start = at;
        // Up to 18 digits cannot overflow: summed without checks.
        let mut x: u64 = 0;
        while let Some(&c) = line.get(at) {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            x = x.wrapping_mul(10).wrapping_add(u64::from(d));
            at += 1;
        }
        // Digits, then a separator or the end: anything else (a point, an
        // exponent, a letter) is for the full parser.
        if at == start || line.get(at).is_some_and(|&b| !is_separator(b)) {
            return None;
        }
        *slot = if at - start <= 18 {
            let x = x as i64;
            if negative { -x } else { x }
        } else {
            accumulate(negative, &line[start..at])?
        };
    }
    if line[at..].iter().any(|&b| !is_separator(b)) {
        return None;
    }
    let time = |x: i64| (x.unsigned_abs() < 1 << 53).then_some(x as f64);
    let processors = |x: i64| (x <= MAX_PROCESSORS).then_some(x);
    Some(JobRecord {
        job_number: v[0],
        submit_time: time(v[1])?,
        wait_time: time(v[2])?,
        run_time: time(v[3])?,
        allocated_processors: processors(v[4])?,
        average_cpu_time: time(v[5])?,
        used_memory: v[6],
        requested_processors: processors(v[7])?,
        requested_time: time(v[8])?,
        requested_memory: v[9],
        status: v[10],
        user_id: v[11],
        group_id: v[12],
        executable_number: v[13],
        queue_number: v[14],
        partition_number: v[15],
        preceding_job_number: v[16],
        think_time: time(v[17])?,
    })
}

/// [`job_line`] with the nom parsers: every line, every error.
///
/// # Errors
/// As [`job_line`].
pub fn nom_job_line(line: &[u8]) -> Result<JobRecord, LineError> {
    let t = split_fields(line)?;
    Ok(JobRecord {
        job_number: int_field(t[0], 1)?,
        submit_time: time_field(t[1], 2)?,
        wait_time: time_field(t[2], 3)?,
        run_time: time_field(t[3], 4)?,
        allocated_processors: processors_field(t[4], 5)?,
        average_cpu_time: time_field(t[5], 6)?,
        used_memory: int_field(t[6], 7)?,
        requested_processors: processors_field(t[7], 8)?,
        requested_time: time_field(t[8], 9)?,
        requested_memory: int_field(t[9], 10)?,
        status: int_field(t[10], 11)?,
        user_id: int_field(t[11], 12)?,
        group_id: int_field(t[12], 13)?,
        executable_number: int_field(t[13], 14)?,
        queue_number: int_field(t[14], 15)?,
        partition_number: int_field(t[15], 16)?,
        preceding_job_number: int_field(t[16], 17)?,
        think_time: time_field(t[17], 18)?,
    })
}

/// One header (comment) line, classified. Text is borrowed from the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderLine<'a> {
    /// `;` followed by nothing but whitespace.
    Blank,
    /// `; Key: value`. `value` is trimmed; it may be empty.
    KeyValue {
        /// The key as written (letters, digits, `_`, `-`; starts with a letter).
        key: &'a str,
        /// The value, trimmed.
        value: &'a str,
        /// Whether the text after `;` is indented (a TAB or ≥ 2 spaces).
        indented: bool,
    },
    /// Any other comment: free text, or the continuation of the line above.
    Text {
        /// The text after `;`, trimmed.
        text: &'a str,
        /// Whether the text after `;` is indented (a TAB or ≥ 2 spaces),
        /// which marks a continuation line in the PWA logs.
        indented: bool,
    },
}

/// The comment marker: optional leading separators (see [`is_separator`]),
/// then `;`.
pub fn comment_marker(input: &str) -> IResult<&str, char> {
    preceded(
        take_while(|c: char| c.is_ascii() && is_separator(c as u8)),
        char(';'),
    )
    .parse(input)
}

/// A header key followed by `:` that is not followed by `/` (so that
/// `http://…` is not a key). Returns the key.
pub fn header_key(input: &str) -> IResult<&str, &str> {
    terminated(
        recognize((
            satisfy(|c| c.is_ascii_alphabetic()),
            take_while(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
        )),
        (char(':'), not(char('/'))),
    )
    .parse(input)
}

/// Parses a comment line (`;` and what follows; the line terminator may be
/// present as a trailing `\r`) into a [`HeaderLine`].
///
/// # Errors
/// A nom error when the line is not a comment (its first non-blank character
/// is not `;`).
pub fn header_line(input: &str) -> IResult<&str, HeaderLine<'_>> {
    let (rest, _) = comment_marker(input)?;
    let (rest, indent) = space0(rest)?;
    let indented = indent.contains('\t') || indent.len() >= 2;
    let body = rest.trim_end();
    if body.is_empty() {
        return Ok(("", HeaderLine::Blank));
    }
    let line = match header_key(body) {
        Ok((value, key)) => HeaderLine::KeyValue {
            key,
            value: value.trim(),
            indented,
        },
        Err(_) => HeaderLine::Text {
            text: body,
            indented,
        },
    };
    Ok(("", line))
}

/// The leading integer of a header value, if it is followed by the end,
/// whitespace or `(`: `184  ( 6,  171,   7)` → `184`, rest `  ( 6,  171,   7)`.
/// `2.2` and `sacct-2-swf` have no leading integer.
pub fn leading_integer(input: &str) -> IResult<&str, i64> {
    let (rest, (sign, digits)) = (opt(one_of("+-")), digit1).parse(input)?;
    // The number must end here: not `2.2`, not `12abc`.
    let (rest, _) = peek(nom::branch::alt((
        eof,
        take_while1(|c: char| c.is_whitespace() || c == '(' || c == ','),
    )))
    .parse(rest)?;
    match accumulate(sign == Some('-'), digits.as_bytes()) {
        Some(v) => Ok((rest, v)),
        None => Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::TooLarge,
        ))),
    }
}

/// A `Queue:`/`Partition:` value: a number, then an optional name or
/// description (`1 DSI      ` → `(1, "DSI")`, `13  -1` → `(13, "-1")`).
/// `None` when the value does not start with an integer.
pub fn numbered_entry(value: &str) -> Option<(i64, &str)> {
    let (rest, n) = leading_integer(value.trim_start()).ok()?;
    Some((n, rest.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CURIE_LINE: &str = "272393 31656837  33492  86395  256     -1    -1  256  86400    -1  1  87  95  -1 -1  4 -1 -1";

    #[test]
    fn field_skips_leading_whitespace_and_stops_at_separator() {
        assert_eq!(field(b"   12  34").unwrap(), (&b"  34"[..], &b"12"[..]));
        assert_eq!(field(b"\t7\t").unwrap(), (&b"\t"[..], &b"7"[..]));
        assert!(field(b"   ").is_err());
        assert!(field(b"").is_err());
    }

    #[test]
    fn split_fields_counts_all_tokens() {
        assert!(split_fields(CURIE_LINE.as_bytes()).is_ok());
        assert_eq!(
            split_fields(b"1 2 3"),
            Err(LineError::WrongFieldCount { found: 3 })
        );
        let long = format!("{CURIE_LINE} 5");
        assert_eq!(
            split_fields(long.as_bytes()),
            Err(LineError::WrongFieldCount { found: 19 })
        );
    }

    #[test]
    fn job_line_parses_curie_line() {
        let j = job_line(CURIE_LINE.as_bytes()).unwrap();
        assert_eq!(j.job_number, 272393);
        assert_eq!(j.submit_time, 31656837.0);
        assert_eq!(j.wait_time, 33492.0);
        assert_eq!(j.run_time, 86395.0);
        assert_eq!(j.allocated_processors, 256);
        assert_eq!(j.average_cpu_time, -1.0);
        assert_eq!(j.requested_processors, 256);
        assert_eq!(j.requested_time, 86400.0);
        assert_eq!(j.status, 1);
        assert_eq!(j.user_id, 87);
        assert_eq!(j.group_id, 95);
        assert_eq!(j.partition_number, 4);
        assert_eq!(j.think_time, -1.0);
    }

    #[test]
    fn job_line_tolerates_leading_whitespace_tabs_and_crlf() {
        let line = "   21\t2137605 117703   8418   32 969.56    -1   32 604800    -1  1  14  10  -1  9  3 -1 -1\r";
        let j = job_line(line.as_bytes()).unwrap();
        assert_eq!(j.job_number, 21);
        assert_eq!(j.average_cpu_time, 969.56);
        assert_eq!(j.think_time, -1.0);
    }

    #[test]
    fn job_line_accepts_int32_max_and_fractional_times() {
        let line = "1 0.5 1.25 3.75 4 5.5 6 7 2147483647 9 1 2 3 4 5 6 7 8.5";
        let j = job_line(line.as_bytes()).unwrap();
        assert_eq!(j.requested_time, 2147483647.0);
        assert_eq!(j.submit_time, 0.5);
        assert_eq!(j.think_time, 8.5);
    }

    #[test]
    fn job_line_rejects_fraction_in_integer_field() {
        let line = "1 0 0 0 4.5 0 0 0 0 0 0 0 0 0 0 0 0 0";
        assert_eq!(
            job_line(line.as_bytes()),
            Err(LineError::NotAnInteger {
                field: 5,
                token: "4.5".into()
            })
        );
    }

    #[test]
    fn job_line_rejects_non_numeric_tokens() {
        let line = "1 0 0 0 4 0 0 0 0 0 0 0 0 0 0 0 abc 0";
        assert_eq!(
            job_line(line.as_bytes()),
            Err(LineError::NonNumeric {
                field: 17,
                token: "abc".into()
            })
        );
        let line = "1 NaN 0 0 4 0 0 0 0 0 0 0 0 0 0 0 0 0";
        assert!(matches!(
            job_line(line.as_bytes()),
            Err(LineError::NonNumeric { field: 2, .. })
        ));
    }

    #[test]
    fn int_field_handles_extremes() {
        assert_eq!(int_field(b"-1", 1), Ok(-1));
        assert_eq!(int_field(b"+7", 1), Ok(7));
        assert_eq!(int_field(b"-9223372036854775808", 1), Ok(i64::MIN));
        assert_eq!(int_field(b"9223372036854775807", 1), Ok(i64::MAX));
        assert!(matches!(
            int_field(b"9223372036854775808", 3),
            Err(LineError::OutOfRange { field: 3, .. })
        ));
        for t in ["5.0", "5.", "1e3", "2e9", "-1e308", "1e30"] {
            assert!(
                matches!(
                    int_field(t.as_bytes(), 1),
                    Err(LineError::NotAnInteger { .. })
                ),
                "{t}"
            );
        }
        assert!(matches!(
            int_field(b"12x", 1),
            Err(LineError::NonNumeric { .. })
        ));
    }

    #[test]
    fn processor_counts_must_fit_in_32_bits() {
        assert_eq!(processors_field(b"4294967295", 5), Ok(4_294_967_295));
        assert_eq!(processors_field(b"-1", 8), Ok(-1));
        assert!(matches!(
            processors_field(b"4294967296", 5),
            Err(LineError::ProcessorsOutOfRange { field: 5, .. })
        ));
    }

    #[test]
    fn time_field_parses_integers_and_floats() {
        assert_eq!(time_field(b"2147483647", 9), Ok(2147483647.0));
        assert_eq!(time_field(b"969.56", 6), Ok(969.56));
        assert_eq!(time_field(b"-1", 4), Ok(-1.0));
        assert_eq!(time_field(b"-0.25", 4), Ok(-0.25));
        assert_eq!(time_field(b"9007199254740991", 2), Ok(9007199254740991.0));
        for t in [
            "9007199254740992",
            "-9007199254740992",
            "99999999999999999999",
            "9007199254740992.5",
        ] {
            assert!(
                matches!(
                    time_field(t.as_bytes(), 2),
                    Err(LineError::TimeOutOfRange { field: 2, .. })
                ),
                "{t}"
            );
        }
        for t in ["1e3", "5.", ".5", "1E3"] {
            assert!(
                matches!(
                    time_field(t.as_bytes(), 4),
                    Err(LineError::NotDecimal { field: 4, .. })
                ),
                "{t}"
            );
        }
        assert!(time_field(b"--1", 4).is_err());
        assert!(matches!(
            time_field(b"inf", 4),
            Err(LineError::NonNumeric { .. })
        ));
    }

    #[test]
    fn header_line_classifies_lines() {
        assert_eq!(header_line(";").unwrap().1, HeaderLine::Blank);
        assert_eq!(header_line("; \r").unwrap().1, HeaderLine::Blank);
        assert_eq!(
            header_line("; MaxNodes: 184  ( 6,  171,   7)").unwrap().1,
            HeaderLine::KeyValue {
                key: "MaxNodes",
                value: "184  ( 6,  171,   7)",
                indented: false
            }
        );
        assert_eq!(
            header_line("; Queue:  1  ").unwrap().1,
            HeaderLine::KeyValue {
                key: "Queue",
                value: "1",
                indented: false
            }
        );
        assert_eq!(
            header_line(";\tsee: http://www-hpc.cea.fr/").unwrap().1,
            HeaderLine::KeyValue {
                key: "see",
                value: "http://www-hpc.cea.fr/",
                indented: true
            }
        );
        assert_eq!(
            header_line(";   --- SWF file converted from SACCT ---")
                .unwrap()
                .1,
            HeaderLine::Text {
                text: "--- SWF file converted from SACCT ---",
                indented: true
            }
        );
        assert_eq!(
            header_line("; http://example.org/x").unwrap().1,
            HeaderLine::Text {
                text: "http://example.org/x",
                indented: false
            }
        );
        assert_eq!(
            header_line("  ;Version: 2.2").unwrap().1,
            HeaderLine::KeyValue {
                key: "Version",
                value: "2.2",
                indented: false
            }
        );
        assert!(header_line("1 2 3").is_err());
    }

    #[test]
    fn leading_integer_needs_a_clean_end() {
        assert_eq!(
            leading_integer("184  ( 6,  171,   7)").unwrap(),
            ("  ( 6,  171,   7)", 184)
        );
        assert_eq!(
            leading_integer("338 (batch partition; 512 total)")
                .unwrap()
                .1,
            338
        );
        assert_eq!(leading_integer("-18000").unwrap().1, -18000);
        assert_eq!(leading_integer("1664(72)").unwrap().1, 1664);
        assert!(leading_integer("2.2").is_err());
        assert!(leading_integer("sacct-2-swf").is_err());
        assert!(leading_integer("12abc").is_err());
        assert!(leading_integer("99999999999999999999").is_err());
    }

    #[test]
    fn numbered_entry_splits_number_and_name() {
        assert_eq!(numbered_entry("1 DSI      "), Some((1, "DSI")));
        assert_eq!(numbered_entry(" 1  "), Some((1, "")));
        assert_eq!(numbered_entry("13  -1"), Some((13, "-1")));
        assert_eq!(numbered_entry("19  `;"), Some((19, "`;")));
        assert_eq!(numbered_entry("x 1"), None);
    }
}
