//! The typed header of an SWF log: the `;` comment lines before the first job.
//!
//! Keys and their meaning follow the PWA SWF v2.2 spec ("Header Comments").
//! The header is messy in practice (docs/input.md, "Header values"): free-text
//! lines, continuation lines indented with spaces or a TAB, values followed by
//! a parenthetical, unknown keys. [`SwfHeader`] keeps every line verbatim in
//! [`SwfHeader::lines`] (so a writer reproduces the header exactly) and also
//! exposes the known keys as typed fields, each a [`HeaderValue`] holding the
//! leading number and the trailing free text.
//!
//! Continuation lines (indented text after `;`) are attached to the entry
//! above them: appended to a [`SwfHeader::notes`] entry or to an
//! [`SwfHeader::other`] value with `'\n'`, pushed to
//! [`SwfHeader::information`], or appended to a typed value's `raw` and
//! `text`. A `;` line with nothing on it ends the entry above; an indented
//! line with no entry above is free text.

use std::fmt;

use super::parser::{HeaderLine, comment_marker, header_line, leading_integer, numbered_entry};

/// One `; Key: value` value: the full text, its leading integer and the rest.
///
/// `MaxNodes: 184  ( 6,  171,   7)` gives `raw = "184  ( 6,  171,   7)"`,
/// `number = Some(184)`, `text = "( 6,  171,   7)"`. `Version: 2.2` gives
/// `number = None`, `text = raw = "2.2"` (use [`HeaderValue::as_f64`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HeaderValue {
    /// The value as written after `Key:`, trimmed; continuation lines are
    /// appended with `'\n'`.
    pub raw: String,
    /// The leading integer, if the value starts with one that ends at
    /// whitespace, `(`, `,` or the end of the value.
    pub number: Option<i64>,
    /// The free text after the leading integer (trimmed), or the whole value
    /// when there is no leading integer.
    pub text: String,
}

impl HeaderValue {
    /// Splits a (trimmed) value into its leading integer and trailing text.
    pub fn parse(raw: &str) -> HeaderValue {
        let raw = raw.trim();
        match leading_integer(raw) {
            Ok((rest, n)) => HeaderValue {
                raw: raw.to_string(),
                number: Some(n),
                text: rest.trim().to_string(),
            },
            Err(_) => HeaderValue {
                raw: raw.to_string(),
                number: None,
                text: raw.to_string(),
            },
        }
    }

    /// The leading integer, if any.
    pub fn as_i64(&self) -> Option<i64> {
        self.number
    }

    /// The leading number as `f64`: the leading integer, or the first
    /// whitespace-separated word parsed as a finite float (`2.2`).
    pub fn as_f64(&self) -> Option<f64> {
        if let Some(n) = self.number {
            return Some(n as f64);
        }
        let first = self.raw.split_whitespace().next()?;
        first.parse::<f64>().ok().filter(|v| v.is_finite())
    }

    /// The full value text (`raw`).
    pub fn as_str(&self) -> &str {
        &self.raw
    }

    fn continue_with(&mut self, more: &str) {
        append_line(&mut self.raw, more);
        append_line(&mut self.text, more);
    }
}

impl fmt::Display for HeaderValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.raw)
    }
}

fn append_line(s: &mut String, more: &str) {
    if !s.is_empty() {
        s.push('\n');
    }
    s.push_str(more);
}

/// A header value of a key swftool uses that does not parse or is out of
/// range ([`SwfHeader::problems`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderProblem {
    /// The key as SWF names it (`MaxProcs`).
    pub key: &'static str,
    /// The value as written.
    pub value: String,
    /// What is wrong (`not a whole number`, …).
    pub reason: String,
}

/// Largest `MaxProcs` / `MaxNodes`: what fits in 32 bits.
const MAX_MACHINE: i64 = u32::MAX as i64;

/// Checks the value of a key swftool uses: `MaxProcs` and `MaxNodes` must
/// start with a whole number from 1 to 4,294,967,295, `UnixStartTime` with a
/// whole number of seconds that is a date between the years -9999 and 9999.
/// Other keys are free text and never wrong.
fn check_value(key: TypedKey, value: &HeaderValue) -> Option<String> {
    match key {
        TypedKey::MaxProcs | TypedKey::MaxNodes => match value.number {
            None => Some("not a whole number (expected a count such as 128)".into()),
            Some(n) if n < 1 => Some(format!("{n} is not a machine size (expected at least 1)")),
            Some(n) if n > MAX_MACHINE => {
                Some(format!("{n} does not fit in 32 bits (at most {MAX_MACHINE})"))
            }
            Some(_) => None,
        },
        TypedKey::UnixStartTime => match value.number {
            None => Some(
                "not a whole number of seconds since 1970-01-01 00:00 UTC (expected e.g. 1296571124)"
                    .into(),
            ),
            Some(n) if jiff::Timestamp::from_second(n).is_err() => Some(format!(
                "{n} s is outside the dates swftool can show (years -9999 to 9999)"
            )),
            Some(_) => None,
        },
        _ => None,
    }
}

/// Keys with a typed single-valued field in [`SwfHeader`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TypedKey {
    Version,
    Computer,
    Installation,
    Acknowledge,
    Conversion,
    MaxJobs,
    MaxRecords,
    Preemption,
    UnixStartTime,
    TimeZone,
    TimeZoneString,
    StartTime,
    EndTime,
    MaxNodes,
    MaxProcs,
    MaxRuntime,
    MaxMemory,
    AllowOveruse,
    MaxQueues,
    Queues,
    MaxPartitions,
    Partitions,
}

impl TypedKey {
    const ALL: [TypedKey; 22] = [
        TypedKey::Version,
        TypedKey::Computer,
        TypedKey::Installation,
        TypedKey::Acknowledge,
        TypedKey::Conversion,
        TypedKey::MaxJobs,
        TypedKey::MaxRecords,
        TypedKey::Preemption,
        TypedKey::UnixStartTime,
        TypedKey::TimeZone,
        TypedKey::TimeZoneString,
        TypedKey::StartTime,
        TypedKey::EndTime,
        TypedKey::MaxNodes,
        TypedKey::MaxProcs,
        TypedKey::MaxRuntime,
        TypedKey::MaxMemory,
        TypedKey::AllowOveruse,
        TypedKey::MaxQueues,
        TypedKey::Queues,
        TypedKey::MaxPartitions,
        TypedKey::Partitions,
    ];

    fn name(self) -> &'static str {
        match self {
            TypedKey::Version => "Version",
            TypedKey::Computer => "Computer",
            TypedKey::Installation => "Installation",
            TypedKey::Acknowledge => "Acknowledge",
            TypedKey::Conversion => "Conversion",
            TypedKey::MaxJobs => "MaxJobs",
            TypedKey::MaxRecords => "MaxRecords",
            TypedKey::Preemption => "Preemption",
            TypedKey::UnixStartTime => "UnixStartTime",
            TypedKey::TimeZone => "TimeZone",
            TypedKey::TimeZoneString => "TimeZoneString",
            TypedKey::StartTime => "StartTime",
            TypedKey::EndTime => "EndTime",
            TypedKey::MaxNodes => "MaxNodes",
            TypedKey::MaxProcs => "MaxProcs",
            TypedKey::MaxRuntime => "MaxRuntime",
            TypedKey::MaxMemory => "MaxMemory",
            TypedKey::AllowOveruse => "AllowOveruse",
            TypedKey::MaxQueues => "MaxQueues",
            TypedKey::Queues => "Queues",
            TypedKey::MaxPartitions => "MaxPartitions",
            TypedKey::Partitions => "Partitions",
        }
    }

    fn from_name(key: &str) -> Option<TypedKey> {
        TypedKey::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(key))
    }
}

/// The entry that a continuation line would continue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Open {
    #[default]
    None,
    Typed(TypedKey),
    Information,
    Note(usize),
    Other(usize),
}

/// The header of an SWF log, typed (PWA SWF v2.2 "Header Comments").
///
/// Build it with [`SwfHeader::push_line`] (the reader does) or
/// [`SwfHeader::push_field`]; [`SwfHeader::lines`] is what a writer emits, so
/// keep the two in step by only using those methods. A key given twice keeps
/// its first value in the typed field; the repeat goes to
/// [`SwfHeader::other`]. Keys match case-insensitively.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SwfHeader {
    /// `Version`: SWF version of the file (`2.2`; lublin_256 says `2`).
    pub version: Option<HeaderValue>,
    /// `Computer`: machine type and vendor.
    pub computer: Option<HeaderValue>,
    /// `Installation`: site or machine name.
    pub installation: Option<HeaderValue>,
    /// `Acknowledge`: who provided the log.
    pub acknowledge: Option<HeaderValue>,
    /// `Information`: URLs; one entry per `Information:` line and per
    /// continuation line.
    pub information: Vec<String>,
    /// `Conversion`: who converted the log to SWF, and when.
    pub conversion: Option<HeaderValue>,
    /// `MaxJobs`: number of jobs in the original log (may be stale after cleaning).
    pub max_jobs: Option<HeaderValue>,
    /// `MaxRecords`: number of records (lines) in the original log.
    pub max_records: Option<HeaderValue>,
    /// `Preemption`: whether jobs could be preempted (`No`, `Yes`, …).
    pub preemption: Option<HeaderValue>,
    /// `UnixStartTime`: epoch second (UTC) of relative time 0.
    pub unix_start_time: Option<HeaderValue>,
    /// `TimeZone`: deprecated numeric offset in seconds (known to be buggy).
    pub time_zone: Option<HeaderValue>,
    /// `TimeZoneString`: IANA time-zone name of the site (`Europe/Paris`).
    pub time_zone_string: Option<HeaderValue>,
    /// `StartTime`: human-readable first time, in `date` format.
    pub start_time: Option<HeaderValue>,
    /// `EndTime`: human-readable last time, in `date` format.
    pub end_time: Option<HeaderValue>,
    /// `MaxNodes`: number of nodes, maybe with a parenthetical breakdown.
    pub max_nodes: Option<HeaderValue>,
    /// `MaxProcs`: number of processors (cores), maybe with a breakdown.
    pub max_procs: Option<HeaderValue>,
    /// `MaxRuntime`: upper limit on run time, seconds.
    pub max_runtime: Option<HeaderValue>,
    /// `MaxMemory`: upper limit on memory, KB.
    pub max_memory: Option<HeaderValue>,
    /// `AllowOveruse`: whether jobs could exceed their requests.
    pub allow_overuse: Option<HeaderValue>,
    /// `MaxQueues`: number of queues.
    pub max_queues: Option<HeaderValue>,
    /// `Queues`: free-text description of the queues.
    pub queues: Option<HeaderValue>,
    /// `MaxPartitions`: number of partitions.
    pub max_partitions: Option<HeaderValue>,
    /// `Partitions`: free-text description of the partitions.
    pub partitions: Option<HeaderValue>,
    /// `Queue: <number> <name>` lines, in file order; the name is trimmed and
    /// may be empty.
    pub queue_list: Vec<(i64, String)>,
    /// `Partition: <number> <name>` lines, in file order (names may contain
    /// `;`, `` ` ``, `=`, `-1`, …).
    pub partition_list: Vec<(i64, String)>,
    /// `Note:` texts; each note's continuation lines are appended (trimmed)
    /// with `'\n'`.
    pub notes: Vec<String>,
    /// Unknown keys (e.g. `Copyright`) and repeated keys, as `(key, value)`
    /// in file order; continuation lines are appended with `'\n'`.
    pub other: Vec<(String, String)>,
    /// Comment lines with no key and no entry to continue (trimmed text
    /// after `;`), e.g. Curie's `--- SWF file converted from SACCT ---`.
    pub free_text: Vec<String>,
    /// Every header comment line verbatim, without its line terminator.
    pub lines: Vec<String>,
    /// Values of the keys swftool uses (`MaxProcs`, `MaxNodes`,
    /// `UnixStartTime`) that do not parse or are out of range, each with the
    /// index of its line in [`SwfHeader::lines`]. Such a value keeps its
    /// text but has no number (it is ignored). The reader turns the first
    /// one into an error (strict) or counts them (lenient).
    pub problems: Vec<(usize, HeaderProblem)>,
    /// Entry that an indented line would continue (parsing state).
    open: Open,
}

/// The SWF names of the single-valued keys [`SwfHeader::get`] knows, in
/// the order of the PWA SWF v2.2 "Header Comments".
pub fn typed_keys() -> impl Iterator<Item = &'static str> {
    TypedKey::ALL.into_iter().map(TypedKey::name)
}

impl SwfHeader {
    /// An empty header.
    pub fn new() -> SwfHeader {
        SwfHeader::default()
    }

    /// Builds a header from comment lines (see [`SwfHeader::push_line`]).
    pub fn from_lines<I, S>(lines: I) -> SwfHeader
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut h = SwfHeader::new();
        for l in lines {
            h.push_line(l.as_ref());
        }
        h
    }

    /// Adds a header line: stores it in [`SwfHeader::lines`] and updates the
    /// typed fields.
    ///
    /// Text containing `'\n'` is split into several lines (a trailing `'\r'`
    /// on each is dropped). A line that is not a comment (its first non-blank
    /// character is not `;`) is stored as `"; " + line`, so that the header
    /// always writes back as comments.
    pub fn push_line(&mut self, line: &str) {
        for piece in line.split('\n') {
            let piece = piece.strip_suffix('\r').unwrap_or(piece);
            if comment_marker(piece).is_ok() {
                self.push_comment(piece.to_string());
            } else {
                self.push_comment(format!("; {piece}"));
            }
        }
    }

    /// Adds a `; Key: value` line (see [`SwfHeader::push_line`]).
    pub fn push_field(&mut self, key: &str, value: &str) {
        self.push_line(&format!("; {key}: {value}"));
    }

    fn push_comment(&mut self, line: String) {
        let parsed = match header_line(&line) {
            Ok((_, parsed)) => parsed,
            Err(_) => HeaderLine::Text {
                text: line.trim(),
                indented: false,
            },
        };
        match parsed {
            HeaderLine::Blank => self.open = Open::None,
            HeaderLine::KeyValue {
                key,
                value,
                indented,
            } => {
                if !self.is_known_key(key) && indented && self.open != Open::None {
                    let text = after_marker(&line);
                    self.continue_open(text);
                } else {
                    self.set_key(key, value);
                }
            }
            HeaderLine::Text { text, indented } => {
                if indented && self.open != Open::None {
                    self.continue_open(text);
                } else {
                    self.free_text.push(text.to_string());
                    self.open = Open::None;
                }
            }
        }
        self.lines.push(line);
    }

    fn is_known_key(&self, key: &str) -> bool {
        TypedKey::from_name(key).is_some()
            || ["Information", "Note", "Queue", "Partition"]
                .iter()
                .any(|k| k.eq_ignore_ascii_case(key))
    }

    fn set_key(&mut self, key: &str, value: &str) {
        if key.eq_ignore_ascii_case("Information") {
            self.information.push(value.to_string());
            self.open = Open::Information;
        } else if key.eq_ignore_ascii_case("Note") {
            self.notes.push(value.to_string());
            self.open = Open::Note(self.notes.len() - 1);
        } else if key.eq_ignore_ascii_case("Queue")
            && let Some((n, name)) = numbered_entry(value)
        {
            self.queue_list.push((n, name.to_string()));
            self.open = Open::None;
        } else if key.eq_ignore_ascii_case("Partition")
            && let Some((n, name)) = numbered_entry(value)
        {
            self.partition_list.push((n, name.to_string()));
            self.open = Open::None;
        } else if let Some(k) = TypedKey::from_name(key)
            && self.slot(k).is_none()
        {
            let mut parsed = HeaderValue::parse(value);
            if let Some(reason) = check_value(k, &parsed) {
                parsed.number = None;
                self.problems.push((
                    self.lines.len(),
                    HeaderProblem {
                        key: k.name(),
                        value: parsed.raw.clone(),
                        reason,
                    },
                ));
            }
            *self.slot(k) = Some(parsed);
            self.open = Open::Typed(k);
        } else {
            self.other.push((key.to_string(), value.to_string()));
            self.open = Open::Other(self.other.len() - 1);
        }
    }

    fn continue_open(&mut self, text: &str) {
        match self.open {
            Open::None => self.free_text.push(text.to_string()),
            Open::Typed(k) => {
                if let Some(v) = self.slot(k).as_mut() {
                    v.continue_with(text);
                }
            }
            Open::Information => self.information.push(text.to_string()),
            Open::Note(i) => {
                if let Some(n) = self.notes.get_mut(i) {
                    append_line(n, text);
                }
            }
            Open::Other(i) => {
                if let Some((_, v)) = self.other.get_mut(i) {
                    append_line(v, text);
                }
            }
        }
    }

    fn slot(&mut self, key: TypedKey) -> &mut Option<HeaderValue> {
        match key {
            TypedKey::Version => &mut self.version,
            TypedKey::Computer => &mut self.computer,
            TypedKey::Installation => &mut self.installation,
            TypedKey::Acknowledge => &mut self.acknowledge,
            TypedKey::Conversion => &mut self.conversion,
            TypedKey::MaxJobs => &mut self.max_jobs,
            TypedKey::MaxRecords => &mut self.max_records,
            TypedKey::Preemption => &mut self.preemption,
            TypedKey::UnixStartTime => &mut self.unix_start_time,
            TypedKey::TimeZone => &mut self.time_zone,
            TypedKey::TimeZoneString => &mut self.time_zone_string,
            TypedKey::StartTime => &mut self.start_time,
            TypedKey::EndTime => &mut self.end_time,
            TypedKey::MaxNodes => &mut self.max_nodes,
            TypedKey::MaxProcs => &mut self.max_procs,
            TypedKey::MaxRuntime => &mut self.max_runtime,
            TypedKey::MaxMemory => &mut self.max_memory,
            TypedKey::AllowOveruse => &mut self.allow_overuse,
            TypedKey::MaxQueues => &mut self.max_queues,
            TypedKey::Queues => &mut self.queues,
            TypedKey::MaxPartitions => &mut self.max_partitions,
            TypedKey::Partitions => &mut self.partitions,
        }
    }

    /// The typed value of a single-valued key by its SWF name
    /// (case-insensitive, e.g. `"MaxProcs"`); `None` for an absent or
    /// multi-valued key (`Information`, `Note`, `Queue`, `Partition`).
    pub fn get(&self, key: &str) -> Option<&HeaderValue> {
        let k = TypedKey::from_name(key)?;
        let v = match k {
            TypedKey::Version => &self.version,
            TypedKey::Computer => &self.computer,
            TypedKey::Installation => &self.installation,
            TypedKey::Acknowledge => &self.acknowledge,
            TypedKey::Conversion => &self.conversion,
            TypedKey::MaxJobs => &self.max_jobs,
            TypedKey::MaxRecords => &self.max_records,
            TypedKey::Preemption => &self.preemption,
            TypedKey::UnixStartTime => &self.unix_start_time,
            TypedKey::TimeZone => &self.time_zone,
            TypedKey::TimeZoneString => &self.time_zone_string,
            TypedKey::StartTime => &self.start_time,
            TypedKey::EndTime => &self.end_time,
            TypedKey::MaxNodes => &self.max_nodes,
            TypedKey::MaxProcs => &self.max_procs,
            TypedKey::MaxRuntime => &self.max_runtime,
            TypedKey::MaxMemory => &self.max_memory,
            TypedKey::AllowOveruse => &self.allow_overuse,
            TypedKey::MaxQueues => &self.max_queues,
            TypedKey::Queues => &self.queues,
            TypedKey::MaxPartitions => &self.max_partitions,
            TypedKey::Partitions => &self.partitions,
        };
        v.as_ref()
    }

    /// `MaxProcs` as a number of processors (cores), if present.
    pub fn max_procs(&self) -> Option<i64> {
        self.max_procs.as_ref().and_then(HeaderValue::as_i64)
    }

    /// `MaxNodes` as a number of nodes, if present.
    pub fn max_nodes(&self) -> Option<i64> {
        self.max_nodes.as_ref().and_then(HeaderValue::as_i64)
    }

    /// `UnixStartTime`: epoch seconds (UTC) of relative time 0, if present.
    pub fn unix_start_time(&self) -> Option<i64> {
        self.unix_start_time.as_ref().and_then(HeaderValue::as_i64)
    }

    /// `TimeZoneString`: the IANA zone name (first word of the value), if present.
    pub fn time_zone_string(&self) -> Option<&str> {
        self.time_zone_string
            .as_ref()
            .and_then(|v| v.raw.split_whitespace().next())
    }

    /// Whether the header has no line at all.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// The text after the first `;` of a comment line, trimmed.
fn after_marker(line: &str) -> &str {
    line.split_once(';').map_or(line, |(_, rest)| rest).trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CURIE_TOP: &str = ";   --- SWF file converted from SACCT ---
; Version: 2.2
; Conversion: sacct-2-swf script - March 2013
;
; Installation: CEA Curie Cluster
; Information: http://www-hpc.cea.fr/en/complexe/tgcc-curie.htm
; UnixStartTime: 1296571124
; TimeZoneString: Europe/Paris
; 
; Note: Curie is composed of 3 types of nodes: thin, fat, and hybrid,
;\tsee: http://www-hpc.cea.fr/en/complexe/tgcc-curie.htm
; Note: hybrid nodes (16 chassis) are not taken into account in the MaxNodes
;\tand MaxProcs fields.
; MaxNodes: 5544
; MaxProcs: 93312
; MaxQueues: 1
; Queue:  1  
; MaxPartitions: 33
; Partition: 13  -1
; Partition: 19  `;
;
; Note: THIS IS A CLEANED VERSION OF THE LOG!
;       The filters used to produce it were
;         submit<=2012-02-03 00:00:00 (272392 jobs removed)
;";

    #[test]
    fn header_value_keeps_number_and_text() {
        let v = HeaderValue::parse("184  ( 6,  171,   7)");
        assert_eq!(v.as_i64(), Some(184));
        assert_eq!(v.text, "( 6,  171,   7)");
        assert_eq!(v.raw, "184  ( 6,  171,   7)");
        let v = HeaderValue::parse("2.2");
        assert_eq!(v.number, None);
        assert_eq!(v.as_f64(), Some(2.2));
        assert_eq!(v.text, "2.2");
    }

    #[test]
    fn curie_header_is_typed_and_kept_verbatim() {
        let h = SwfHeader::from_lines(CURIE_TOP.lines());
        assert_eq!(h.lines.len(), CURIE_TOP.lines().count());
        assert_eq!(h.lines[8], "; ");
        assert_eq!(h.free_text, vec!["--- SWF file converted from SACCT ---"]);
        assert_eq!(h.version.as_ref().unwrap().as_f64(), Some(2.2));
        assert_eq!(h.max_procs(), Some(93312));
        assert_eq!(h.max_nodes(), Some(5544));
        assert_eq!(h.unix_start_time(), Some(1296571124));
        assert_eq!(h.time_zone_string(), Some("Europe/Paris"));
        assert_eq!(h.computer, None);
        assert_eq!(h.queue_list, vec![(1, String::new())]);
        assert_eq!(
            h.partition_list,
            vec![(13, "-1".to_string()), (19, "`;".to_string())]
        );
        assert_eq!(h.notes.len(), 3);
        assert_eq!(
            h.notes[0],
            "Curie is composed of 3 types of nodes: thin, fat, and hybrid,\nsee: http://www-hpc.cea.fr/en/complexe/tgcc-curie.htm"
        );
        assert_eq!(
            h.notes[2],
            "THIS IS A CLEANED VERSION OF THE LOG!\nThe filters used to produce it were\nsubmit<=2012-02-03 00:00:00 (272392 jobs removed)"
        );
        assert!(h.other.is_empty());
    }

    #[test]
    fn information_and_unknown_keys_take_continuations() {
        let h = SwfHeader::from_lines([
            "; Copyright: JOBLOG Repository Data Usage Agreement:",
            ";   This Job Trace Repository is brought to you by",
            "; Information: http://joblog.npaci.edu/",
            ";              http://www.cs.huji.ac.il/labs/parallel/workload/",
            "; Conversion: Dror Feitelson 01 Jan 2012",
        ]);
        assert_eq!(
            h.other,
            vec![(
                "Copyright".to_string(),
                "JOBLOG Repository Data Usage Agreement:\nThis Job Trace Repository is brought to you by"
                    .to_string()
            )]
        );
        assert_eq!(
            h.information,
            vec![
                "http://joblog.npaci.edu/",
                "http://www.cs.huji.ac.il/labs/parallel/workload/"
            ]
        );
        assert_eq!(h.conversion.unwrap().raw, "Dror Feitelson 01 Jan 2012");
    }

    #[test]
    fn repeated_key_keeps_first_and_records_repeat() {
        let h = SwfHeader::from_lines(["; MaxProcs: 128", "; maxprocs: 256"]);
        assert_eq!(h.max_procs(), Some(128));
        assert_eq!(h.other, vec![("maxprocs".to_string(), "256".to_string())]);
    }

    #[test]
    fn values_swftool_uses_are_checked_and_ignored_when_bad() {
        for (line, reason) in [
            ("; MaxProcs: abc", "not a whole number"),
            ("; MaxProcs: 0x100", "not a whole number"),
            ("; MaxProcs: 1.5", "not a whole number"),
            ("; MaxProcs: 0", "0 is not a machine size"),
            ("; MaxNodes: -1", "-1 is not a machine size"),
            (
                "; MaxProcs: 4294967296",
                "4294967296 does not fit in 32 bits",
            ),
            ("; UnixStartTime: 1e10", "not a whole number of seconds"),
            ("; UnixStartTime: abc", "not a whole number of seconds"),
            (
                "; UnixStartTime: 99999999999999",
                "99999999999999 s is outside the dates",
            ),
        ] {
            let h = SwfHeader::from_lines(["; Version: 2.2", line]);
            assert_eq!(h.problems.len(), 1, "{line}");
            let (index, p) = &h.problems[0];
            assert_eq!(*index, 1);
            assert!(p.reason.starts_with(reason), "{line}: {}", p.reason);
            assert_eq!(h.max_procs(), None);
            assert_eq!(h.max_nodes(), None);
            assert_eq!(h.unix_start_time(), None);
        }
        let h =
            SwfHeader::from_lines(["; MaxProcs: 1664 (72, 1368, 224)", "; MaxNodes: 4294967295"]);
        assert!(h.problems.is_empty());
        assert_eq!(h.max_nodes(), Some(4_294_967_295));
    }

    #[test]
    fn push_line_keeps_the_header_a_comment() {
        let mut h = SwfHeader::new();
        h.push_line("MaxNodes: 4\r\n; Note: two\n\tlines");
        assert_eq!(h.lines, vec!["; MaxNodes: 4", "; Note: two", "; \tlines"]);
        assert_eq!(h.max_nodes(), Some(4));
        assert_eq!(h.notes, vec!["two\nlines"]);
        h.push_field("MaxProcs", "16 (cores)");
        assert_eq!(h.max_procs(), Some(16));
        assert_eq!(h.get("maxprocs").unwrap().text, "(cores)");
    }
}
