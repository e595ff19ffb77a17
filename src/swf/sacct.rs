//! Slurm accounting (`sacct --parsable2`) read as a log, and SWF written
//! back as such (docs/input.md, "Slurm accounting").
//!
//! The input is the pipe-separated text `sacct --parsable2 --allusers
//! --format=…` prints: a header line of field names, then one line per job
//! or job step. Fields are found by name, in any order; those used are
//! `JobID`/`JobIDRaw` (one of them), `Submit`, `Start`, `End` or `Elapsed`,
//! and one of `AllocCPUS`, `NCPUS`, `ReqCPUS`; also `Eligible`,
//! `Timelimit`, `NNodes`, `User`/`UID`, `Group`/`GID`, `Partition`,
//! `State`, `ExitCode` when present (Slurm's sacct manual page defines
//! them). Each job becomes one SWF record:
//!
//! | SWF field | from |
//! |---|---|
//! | 1 job number | `JobIDRaw` (else the number of `JobID`) when every job has its own; else 1, 2, … in submit order |
//! | 2 submit | `Submit`, s since the earliest submit (`UnixStartTime` = that instant) |
//! | 3 wait | `Start` − `Submit` |
//! | 4 run | `End` − `Start`, else `Elapsed` |
//! | 5 allocated processors | `AllocCPUS`, else `NCPUS` |
//! | 8 requested processors | `ReqCPUS` |
//! | 9 requested time | `Timelimit` (`UNLIMITED`, `Partition_Limit`: −1) |
//! | 11 status | `State`: COMPLETED 1; FAILED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE 0; CANCELLED (`CANCELLED by N`), PREEMPTED 5; else −1 |
//! | 12 user, 13 group | `UID`/`GID`, else `User`/`Group`: a number as is, a name numbered 1, 2, … in order of appearance |
//! | 15 queue, 16 partition | `Partition`, numbered alike (Slurm's partitions are its queues) |
//!
//! Other SWF fields are −1. Job steps (`123.batch`, `123.extern`, `123.0`)
//! are folded into their job (counted); array tasks (`123_4`) are jobs; the
//! components of a heterogeneous job (`123+0`, `123+1`) are folded into
//! one job holding the sum of their processors, with the first component's
//! times. Times are `YYYY-MM-DDTHH:MM:SS` in the zone given (UTC unless
//! `swftool convert --time-zone` says otherwise), with an offset
//! (`+01:00`, `Z`), or seconds since the epoch (`SLURM_TIME_FORMAT=%s`);
//! `Unknown` and `None` are missing. Durations are `[D-][HH:]MM:SS[.fff]`.
//! A job that never started (`Start` missing: pending, cancelled while
//! waiting), that has not ended, or that has no processor count is not a
//! log record: it is counted by reason in [`SacctReport`], never dropped
//! silently. A value that does not parse is an error naming the file, the
//! line and the field (strict), or skips its line, counted (lenient).
//!
//! sacct gives no machine size: `MaxProcs` is set to the peak of CPUs
//! allocated at once in the accounting (a lower bound of the machine; a
//! header note says so).

use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Write as _};
use std::io::BufRead;

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;

use super::error::SwfError;
use super::header::SwfHeader;
use super::record::JobRecord;

/// What reading a sacct file did beyond the jobs it gives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SacctReport {
    /// Data lines read.
    pub lines: u64,
    /// Job-step lines folded into their job.
    pub steps_folded: u64,
    /// Components of heterogeneous jobs folded into their job (beyond the
    /// first of each).
    pub components_folded: u64,
    /// Jobs that are not log records, by reason.
    pub dropped: BTreeMap<String, u64>,
    /// Lines skipped in lenient mode for a value that does not parse, and
    /// the first five (line, reason).
    pub skipped: u64,
    /// The first skipped lines: (line, reason).
    pub examples: Vec<(u64, String)>,
    /// The zone local times were read in.
    pub zone: String,
    /// User names by id (ids given to names), when names were numbered.
    pub users: Vec<String>,
    /// Group names by id, alike.
    pub groups: Vec<String>,
    /// Partition names by id.
    pub partitions: Vec<String>,
}

impl SacctReport {
    fn drop_job(&mut self, reason: &str) {
        *self.dropped.entry(reason.to_string()).or_insert(0) += 1;
    }
}

impl fmt::Display for SacctReport {
    /// `sacct: 1,234 lines, 800 steps folded into their jobs; not jobs of
    /// the log: 3 never started, …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Slurm accounting (sacct): {} lines, {} job steps folded into their jobs",
            self.lines, self.steps_folded
        )?;
        if self.components_folded > 0 {
            write!(
                f,
                ", {} heterogeneous-job components folded",
                self.components_folded
            )?;
        }
        write!(f, "; local times read in {}", self.zone)?;
        if !self.dropped.is_empty() {
            let parts: Vec<String> = self
                .dropped
                .iter()
                .map(|(r, n)| format!("{n} {r}"))
                .collect();
            write!(f, "; not log records: {}", parts.join(", "))?;
        }
        if self.skipped > 0 {
            write!(f, "; skipped {} lines with a bad value", self.skipped)?;
            for (line, reason) in &self.examples {
                write!(f, "\n  line {line}: {reason}")?;
            }
        }
        Ok(())
    }
}

/// Whether `first_line` is the header line of `sacct --parsable2` (field
/// names separated by `|`, one of them `JobID` or `JobIDRaw`).
pub fn looks_like_sacct(first_line: &str) -> bool {
    first_line.contains('|')
        && first_line
            .trim_end_matches(['\r', '\n'])
            .split('|')
            .any(|f| f == "JobID" || f == "JobIDRaw")
}

/// The columns used, by position in the header.
#[derive(Debug, Default)]
struct Columns {
    job_id: Option<usize>,
    job_id_raw: Option<usize>,
    submit: Option<usize>,
    eligible: Option<usize>,
    start: Option<usize>,
    end: Option<usize>,
    elapsed: Option<usize>,
    timelimit: Option<usize>,
    req_cpus: Option<usize>,
    alloc_cpus: Option<usize>,
    ncpus: Option<usize>,
    user: Option<usize>,
    uid: Option<usize>,
    group: Option<usize>,
    gid: Option<usize>,
    partition: Option<usize>,
    state: Option<usize>,
}

impl Columns {
    fn of(header: &str) -> (Columns, usize) {
        let mut c = Columns::default();
        let names: Vec<&str> = header.split('|').collect();
        for (i, n) in names.iter().enumerate() {
            let slot = match *n {
                "JobID" => &mut c.job_id,
                "JobIDRaw" => &mut c.job_id_raw,
                "Submit" => &mut c.submit,
                "Eligible" => &mut c.eligible,
                "Start" => &mut c.start,
                "End" => &mut c.end,
                "Elapsed" => &mut c.elapsed,
                "Timelimit" => &mut c.timelimit,
                "ReqCPUS" => &mut c.req_cpus,
                "AllocCPUS" => &mut c.alloc_cpus,
                "NCPUS" => &mut c.ncpus,
                "User" => &mut c.user,
                "UID" => &mut c.uid,
                "Group" => &mut c.group,
                "GID" => &mut c.gid,
                "Partition" => &mut c.partition,
                "State" => &mut c.state,
                _ => continue,
            };
            slot.get_or_insert(i);
        }
        (c, names.len())
    }

    fn missing(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.job_id.is_none() && self.job_id_raw.is_none() {
            out.push("JobID (or JobIDRaw)");
        }
        if self.submit.is_none() {
            out.push("Submit");
        }
        if self.start.is_none() {
            out.push("Start");
        }
        if self.end.is_none() && self.elapsed.is_none() {
            out.push("End (or Elapsed)");
        }
        if self.alloc_cpus.is_none() && self.ncpus.is_none() && self.req_cpus.is_none() {
            out.push("AllocCPUS (or NCPUS, ReqCPUS)");
        }
        out
    }
}

/// What a job id says.
#[derive(Debug, Clone, PartialEq, Eq)]
enum JobId {
    /// A job (or an array task), with the number of its raw id when it has one.
    Job { key: String, number: Option<i64> },
    /// Component `k` of heterogeneous job `key`.
    Component { key: String, k: u32 },
    /// A step of job `key`.
    Step,
    /// A pending array (`123_[5-10]`): tasks that never started.
    PendingArray,
}

fn parse_job_id(id: &str) -> Option<JobId> {
    if id.contains('.') {
        return Some(JobId::Step);
    }
    if id.contains('[') {
        return Some(JobId::PendingArray);
    }
    if let Some((job, comp)) = id.split_once('+') {
        let k = comp.parse().ok()?;
        job.parse::<u64>().ok()?;
        return Some(JobId::Component {
            key: job.to_string(),
            k,
        });
    }
    if let Some((job, task)) = id.split_once('_') {
        job.parse::<u64>().ok()?;
        task.parse::<u64>().ok()?;
        return Some(JobId::Job {
            key: id.to_string(),
            number: None,
        });
    }
    let n = id.parse::<i64>().ok().filter(|&n| n >= 0)?;
    Some(JobId::Job {
        key: id.to_string(),
        number: Some(n),
    })
}

/// A time: `Unknown`/`None`/empty is `Ok(None)`.
fn parse_time(s: &str, zone: &TimeZone) -> Result<Option<i64>, String> {
    let s = s.trim();
    if s.is_empty() || s == "Unknown" || s == "None" {
        return Ok(None);
    }
    if s.bytes().all(|b| b.is_ascii_digit()) {
        return s
            .parse::<i64>()
            .map(Some)
            .map_err(|_| format!("time {s:?} out of range"));
    }
    if let Ok(ts) = s.parse::<Timestamp>() {
        return Ok(Some(ts.as_second()));
    }
    let dt: DateTime = s.parse().map_err(|_| {
        format!("time {s:?} is not YYYY-MM-DDTHH:MM:SS (with an optional offset), seconds, Unknown or None")
    })?;
    let zoned = dt
        .to_zoned(zone.clone())
        .map_err(|e| format!("time {s:?}: {e}"))?;
    Ok(Some(zoned.timestamp().as_second()))
}

/// A duration `[D-][HH:]MM:SS[.fff]`, s; `UNLIMITED`, `Partition_Limit`,
/// `INVALID`, `Unknown`, `None`, empty: `Ok(None)`.
pub fn parse_duration(s: &str) -> Result<Option<f64>, String> {
    let s = s.trim();
    if matches!(
        s,
        "" | "UNLIMITED" | "Partition_Limit" | "INVALID" | "Unknown" | "None"
    ) {
        return Ok(None);
    }
    let bad = || format!("duration {s:?} is not [D-][HH:]MM:SS, UNLIMITED or Partition_Limit");
    let (days, rest) = match s.split_once('-') {
        Some((d, r)) => (d.parse::<u64>().map_err(|_| bad())?, r),
        None => (0, s),
    };
    let parts: Vec<&str> = rest.split(':').collect();
    let (h, m, sec) = match parts.as_slice() {
        [h, m, sec] => (*h, *m, *sec),
        [m, sec] if days == 0 => ("0", *m, *sec),
        // `D-HH` and `D-HH:MM` as Slurm accepts for time limits.
        [h] if s.contains('-') => (*h, "0", "0"),
        [h, m] => (*h, *m, "0"),
        _ => return Err(bad()),
    };
    let h: u64 = h.parse().map_err(|_| bad())?;
    let m: u64 = m.parse().map_err(|_| bad())?;
    let sec: f64 = sec.parse().map_err(|_| bad())?;
    if m >= 60 || !(0.0..60.0).contains(&sec) || (days > 0 && h >= 24) {
        return Err(bad());
    }
    Ok(Some((days * 86_400 + h * 3_600 + m * 60) as f64 + sec))
}

/// SWF status of a Slurm state (field 11).
fn status_of(state: &str) -> i64 {
    let base = state
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches('+');
    match base {
        "COMPLETED" => 1,
        "FAILED" | "TIMEOUT" | "NODE_FAIL" | "OUT_OF_MEMORY" | "BOOT_FAIL" | "DEADLINE" => 0,
        "CANCELLED" | "PREEMPTED" => 5,
        _ => -1,
    }
}

/// Names numbered 1, 2, … in order of appearance; a number stays itself.
#[derive(Default)]
struct Ids {
    by_name: HashMap<String, i64>,
    names: Vec<String>,
}

impl Ids {
    fn id(&mut self, name: &str) -> i64 {
        let name = name.trim();
        if name.is_empty() {
            return -1;
        }
        if let Ok(n) = name.parse::<i64>()
            && n >= 0
        {
            return n;
        }
        if let Some(&id) = self.by_name.get(name) {
            return id;
        }
        self.names.push(name.to_string());
        let id = self.names.len() as i64;
        self.by_name.insert(name.to_string(), id);
        id
    }
}

/// One job being assembled from its lines.
#[derive(Debug, Clone)]
struct Pending {
    line: u64,
    number: Option<i64>,
    submit: Option<i64>,
    start: Option<i64>,
    end: Option<i64>,
    elapsed: Option<f64>,
    limit: Option<f64>,
    req: i64,
    alloc: i64,
    user: i64,
    group: i64,
    partition: i64,
    status: i64,
    state: String,
}

/// Slurm accounting read as a log: the header, the records in submit
/// order, and what reading did.
#[derive(Debug, Clone)]
pub struct SacctLog {
    /// The SWF header made for it (`UnixStartTime`, `TimeZoneString`,
    /// `MaxProcs`, notes).
    pub header: SwfHeader,
    /// The jobs, in submit order.
    pub jobs: Vec<JobRecord>,
    /// Steps folded, jobs not records by reason, lines skipped, names.
    pub report: SacctReport,
}

/// Reads `sacct --parsable2` text (the header line first) as a log;
/// local times are read in `zone` (named `zone_name`). Every command reads
/// such a file through [`crate::swf::read_log`].
///
/// # Errors
/// [`SwfError::Sacct`] naming the file and line: a missing column, a line
/// with another number of fields than the header, a value that does not
/// parse (strict mode; lenient mode skips and counts the line); and
/// [`SwfError::Io`].
pub fn read_sacct<R: BufRead>(
    mut reader: R,
    name: &str,
    lenient: bool,
    zone: &TimeZone,
    zone_name: &str,
) -> Result<SacctLog, SwfError> {
    let err = |line: u64, message: String| SwfError::Sacct {
        file: name.to_string(),
        line,
        message,
    };
    let mut text = String::new();
    let io = |e: std::io::Error, line: u64| SwfError::Io {
        file: name.to_string(),
        line,
        cause: e,
    };
    reader.read_line(&mut text).map_err(|e| io(e, 1))?;
    let header_line = text
        .trim_start_matches('\u{feff}')
        .trim_end_matches(['\r', '\n'])
        .to_string();
    let (cols, width) = Columns::of(&header_line);
    let missing = cols.missing();
    if !missing.is_empty() {
        return Err(err(
            1,
            format!(
                "the sacct header has no {} column; run sacct --parsable2 --format=JobID,JobIDRaw,Submit,Start,End,Elapsed,Timelimit,ReqCPUS,AllocCPUS,User,Group,Partition,State",
                missing.join(", ")
            ),
        ));
    }
    let mut report = SacctReport {
        zone: zone_name.to_string(),
        ..SacctReport::default()
    };
    let (mut users, mut groups, mut partitions) = (Ids::default(), Ids::default(), Ids::default());
    let mut jobs: Vec<Pending> = Vec::new();
    let mut by_key: HashMap<String, usize> = HashMap::new();
    let mut line_no = 1u64;
    loop {
        text.clear();
        let n = reader
            .read_line(&mut text)
            .map_err(|e| io(e, line_no + 1))?;
        if n == 0 {
            break;
        }
        line_no += 1;
        let line = text.trim_end_matches(['\r', '\n']);
        if line.trim().is_empty() {
            continue;
        }
        report.lines += 1;
        let fields: Vec<&str> = line.split('|').collect();
        let parsed = parse_line(
            &fields,
            width,
            &cols,
            zone,
            line_no,
            &mut users,
            &mut groups,
            &mut partitions,
        );
        let (id, job) = match parsed {
            Ok(p) => p,
            Err(message) if lenient => {
                report.skipped += 1;
                if report.examples.len() < 5 {
                    report.examples.push((line_no, message));
                }
                continue;
            }
            Err(message) => {
                return Err(err(
                    line_no,
                    format!("{message} (--lenient skips such lines, counted)"),
                ));
            }
        };
        match id {
            JobId::Step => report.steps_folded += 1,
            JobId::PendingArray => report.drop_job("pending array tasks (never started)"),
            JobId::Job { key, number } => {
                let job = Pending { number, ..job };
                by_key.insert(key, jobs.len());
                jobs.push(job);
            }
            JobId::Component { key, k } => match by_key.get(&key) {
                Some(&at) => {
                    report.components_folded += 1;
                    let first = &mut jobs[at];
                    first.req = add_count(first.req, job.req);
                    first.alloc = add_count(first.alloc, job.alloc);
                }
                None => {
                    let number = if k == 0 { key.parse().ok() } else { None };
                    by_key.insert(key, jobs.len());
                    jobs.push(Pending { number, ..job });
                }
            },
        }
    }
    Ok(build_log(name, jobs, report, users, groups, partitions))
}

/// A sum of two processor counts, −1 when unknown.
fn add_count(a: i64, b: i64) -> i64 {
    match (a > 0, b > 0) {
        (true, true) => a + b,
        (true, false) => a,
        (false, _) => b,
    }
}

#[allow(clippy::too_many_arguments)]
fn parse_line(
    fields: &[&str],
    width: usize,
    cols: &Columns,
    zone: &TimeZone,
    line: u64,
    users: &mut Ids,
    groups: &mut Ids,
    partitions: &mut Ids,
) -> Result<(JobId, Pending), String> {
    if fields.len() != width {
        return Err(format!(
            "{} fields where the header has {width} (a `|` inside a value? run sacct with --delimiter)",
            fields.len()
        ));
    }
    let get = |c: Option<usize>| c.map_or("", |i| fields[i].trim());
    let raw_id = get(cols.job_id.or(cols.job_id_raw));
    let mut id = parse_job_id(raw_id).ok_or_else(|| {
        format!("JobID {raw_id:?} is not a job id (123, 123_4, 123+0, 123.batch)")
    })?;
    if id == JobId::Step {
        return Ok((id, empty(line)));
    }
    if let (Some(_), JobId::Job { number, .. }) = (cols.job_id_raw, &mut id) {
        *number = get(cols.job_id_raw).parse().ok();
    }
    let time =
        |c: Option<usize>, what: &str| parse_time(get(c), zone).map_err(|e| format!("{what}: {e}"));
    let count = |c: Option<usize>, what: &str| -> Result<i64, String> {
        let s = get(c);
        if s.is_empty() {
            return Ok(-1);
        }
        s.parse::<i64>()
            .ok()
            .filter(|&n| n >= 0)
            .ok_or_else(|| format!("{what} {s:?} is not a count"))
    };
    let elapsed = parse_duration(get(cols.elapsed)).map_err(|e| format!("Elapsed: {e}"))?;
    let limit = parse_duration(get(cols.timelimit)).map_err(|e| format!("Timelimit: {e}"))?;
    let alloc = match count(cols.alloc_cpus, "AllocCPUS")? {
        n if n > 0 => n,
        _ => count(cols.ncpus, "NCPUS")?,
    };
    let state = get(cols.state).to_string();
    let user = if cols.uid.is_some() && !get(cols.uid).is_empty() {
        count(cols.uid, "UID")?
    } else {
        users.id(get(cols.user))
    };
    let group = if cols.gid.is_some() && !get(cols.gid).is_empty() {
        count(cols.gid, "GID")?
    } else {
        groups.id(get(cols.group))
    };
    let job = Pending {
        line,
        number: None,
        submit: time(cols.submit, "Submit")?,
        start: time(cols.start, "Start")?,
        end: time(cols.end, "End")?,
        elapsed,
        limit,
        req: count(cols.req_cpus, "ReqCPUS")?,
        alloc,
        user,
        group,
        partition: partitions.id(get(cols.partition)),
        status: status_of(&state),
        state,
    };
    // Eligible is read to check it, not used: SWF's wait runs from submit.
    time(cols.eligible, "Eligible")?;
    Ok((id, job))
}

fn empty(line: u64) -> Pending {
    Pending {
        line,
        number: None,
        submit: None,
        start: None,
        end: None,
        elapsed: None,
        limit: None,
        req: -1,
        alloc: -1,
        user: -1,
        group: -1,
        partition: -1,
        status: -1,
        state: String::new(),
    }
}

/// The log of the jobs read: records in submit order, the header.
fn build_log(
    name: &str,
    jobs: Vec<Pending>,
    mut report: SacctReport,
    users: Ids,
    groups: Ids,
    partitions: Ids,
) -> SacctLog {
    let mut usable = Vec::with_capacity(jobs.len());
    for j in jobs {
        let reason = match (j.submit, j.start) {
            (None, _) => Some("without a submit time"),
            (Some(_), None) => Some("never started (pending, or cancelled while waiting)"),
            (Some(s), Some(t)) if t < s => Some("starting before their submit time"),
            _ if j.end.is_none() && j.elapsed.is_none() => Some("not ended (running)"),
            _ if j.end.is_none() && j.state.starts_with("RUNNING") => Some("not ended (running)"),
            _ if j.alloc <= 0 && j.req <= 0 => Some("without a processor count"),
            _ => None,
        };
        match reason {
            Some(r) => report.drop_job(r),
            None => usable.push(j),
        }
    }
    usable.sort_by_key(|j| (j.submit, j.line));
    let origin = usable.first().and_then(|j| j.submit).unwrap_or(0);
    let numbers: Vec<Option<i64>> = usable.iter().map(|j| j.number).collect();
    let distinct = {
        let mut seen: Vec<i64> = numbers.iter().flatten().copied().collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len() == numbers.len()
    };
    let mut records = Vec::with_capacity(usable.len());
    // (time, +cpus / −cpus) for the peak of CPUs in use.
    let mut use_events: Vec<(i64, i64)> = Vec::with_capacity(2 * usable.len());
    for (k, j) in usable.iter().enumerate() {
        let (submit, start) = (j.submit.unwrap_or(0), j.start.unwrap_or(0));
        let run = match j.end {
            Some(e) => (e - start).max(0) as f64,
            None => j.elapsed.unwrap_or(0.0),
        };
        let cpus = if j.alloc > 0 { j.alloc } else { j.req };
        use_events.push((start, cpus));
        use_events.push((start + run.ceil() as i64, -cpus));
        records.push(JobRecord {
            job_number: if distinct {
                numbers[k].unwrap_or(0)
            } else {
                k as i64 + 1
            },
            submit_time: (submit - origin) as f64,
            wait_time: (start - submit) as f64,
            run_time: run,
            allocated_processors: j.alloc,
            average_cpu_time: -1.0,
            used_memory: -1,
            requested_processors: j.req,
            requested_time: j.limit.unwrap_or(-1.0),
            requested_memory: -1,
            status: j.status,
            user_id: j.user,
            group_id: j.group,
            executable_number: -1,
            queue_number: j.partition,
            partition_number: j.partition,
            preceding_job_number: -1,
            think_time: -1.0,
        });
    }
    use_events.sort_unstable_by_key(|&(t, d)| (t, d));
    let (mut now, mut peak) = (0i64, 0i64);
    for (_, d) in use_events {
        now += d;
        peak = peak.max(now);
    }
    report.users = users.names;
    report.groups = groups.names;
    report.partitions = partitions.names;
    let mut header_text = String::new();
    let _ = writeln!(header_text, "; Version: 2.2");
    let _ = writeln!(header_text, "; Computer: Slurm cluster (sacct)");
    let _ = writeln!(
        header_text,
        "; Installation: converted by swftool from {name}"
    );
    let _ = writeln!(header_text, "; UnixStartTime: {origin}");
    let _ = writeln!(header_text, "; TimeZoneString: {}", report.zone);
    let _ = writeln!(header_text, "; MaxJobs: {}", records.len());
    let _ = writeln!(header_text, "; MaxRecords: {}", records.len());
    if peak > 0 {
        let _ = writeln!(header_text, "; MaxProcs: {peak}");
        let _ = writeln!(
            header_text,
            "; Note: MaxProcs is the peak of CPUs allocated at once in the accounting; sacct does not give the machine's size"
        );
    }
    SacctLog {
        header: SwfHeader::from_lines(header_text.lines()),
        jobs: records,
        report,
    }
}

/// The fields [`write_sacct`] writes, in order.
pub const SACCT_FIELDS: [&str; 14] = [
    "JobID",
    "JobIDRaw",
    "User",
    "Group",
    "Partition",
    "Submit",
    "Start",
    "End",
    "Elapsed",
    "Timelimit",
    "ReqCPUS",
    "AllocCPUS",
    "State",
    "ExitCode",
];

/// A duration in seconds as sacct prints it: `[D-]HH:MM:SS`.
pub fn format_duration(seconds: f64) -> String {
    let s = seconds.round().max(0.0) as u64;
    let (d, h, m, sec) = (s / 86_400, s / 3_600 % 24, s / 60 % 60, s % 60);
    if d > 0 {
        format!("{d}-{h:02}:{m:02}:{sec:02}")
    } else {
        format!("{h:02}:{m:02}:{sec:02}")
    }
}

/// What [`write_sacct`] could not say exactly.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriteReport {
    /// Jobs written.
    pub jobs: u64,
    /// Jobs whose wait or run is unknown in the log: written with `Start`
    /// or `End` `Unknown` (read back, they are not log records).
    pub unknown_times: u64,
    /// Jobs with a fractional time, rounded to the second.
    pub rounded: u64,
}

/// Writes a log (`header`, `jobs`) as `sacct --parsable2` text
/// ([`SACCT_FIELDS`]): times in UTC from the header's `UnixStartTime` (0
/// without one), user, group and
/// partition as their numbers, SWF status as a state (1 COMPLETED, 0
/// FAILED, 5 CANCELLED, else UNKNOWN). SWF fields sacct has no column for
/// (CPU time, memory, executable, preceding job, think time) are not
/// written.
///
/// # Errors
/// The writer's I/O error.
pub fn write_sacct<W: std::io::Write>(
    header: &SwfHeader,
    jobs: &[JobRecord],
    mut out: W,
) -> std::io::Result<WriteReport> {
    let origin = header.unix_start_time().unwrap_or(0);
    let mut report = WriteReport::default();
    writeln!(out, "{}", SACCT_FIELDS.join("|"))?;
    let stamp = |t: f64| -> String {
        Timestamp::from_second(origin + t.round() as i64).map_or_else(
            |_| "Unknown".to_string(),
            |ts| ts.to_zoned(TimeZone::UTC).datetime().to_string(),
        )
    };
    let num = |n: i64| {
        if n < 0 { String::new() } else { n.to_string() }
    };
    for j in jobs {
        report.jobs += 1;
        let times = [j.submit_time, j.wait_time, j.run_time, j.requested_time];
        if times.iter().any(|t| t.fract() != 0.0) {
            report.rounded += 1;
        }
        let started = j.wait_time >= 0.0;
        let ended = started && j.run_time >= 0.0;
        if !ended {
            report.unknown_times += 1;
        }
        let start = j.submit_time + j.wait_time.max(0.0);
        let state = match j.status {
            1 => "COMPLETED",
            0 => "FAILED",
            5 => "CANCELLED by 0",
            _ => "UNKNOWN",
        };
        writeln!(
            out,
            "{id}|{id}|{user}|{group}|{part}|{submit}|{start}|{end}|{elapsed}|{limit}|{req}|{alloc}|{state}|0:0",
            id = j.job_number,
            user = num(j.user_id),
            group = num(j.group_id),
            part = num(j.queue_number),
            submit = stamp(j.submit_time),
            start = if started {
                stamp(start)
            } else {
                "Unknown".into()
            },
            end = if ended {
                stamp(start + j.run_time)
            } else {
                "Unknown".into()
            },
            elapsed = if ended {
                format_duration(j.run_time)
            } else {
                String::new()
            },
            limit = if j.requested_time > 0.0 && j.requested_time < 2_147_483_647.0 {
                format_duration(j.requested_time)
            } else {
                "UNLIMITED".into()
            },
            req = num(j.requested_processors),
            alloc = num(j.allocated_processors),
        )?;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_follow_slurms_forms() {
        assert_eq!(parse_duration("00:01:05"), Ok(Some(65.0)));
        assert_eq!(parse_duration("2-03:04:05"), Ok(Some(183_845.0)));
        assert_eq!(parse_duration("59:59"), Ok(Some(3_599.0)));
        assert_eq!(parse_duration("1-12"), Ok(Some(129_600.0)));
        assert_eq!(parse_duration("00:00:01.500"), Ok(Some(1.5)));
        assert_eq!(parse_duration("UNLIMITED"), Ok(None));
        assert_eq!(parse_duration("Partition_Limit"), Ok(None));
        assert!(parse_duration("1:61:00").is_err());
        assert!(parse_duration("abc").is_err());
        assert_eq!(format_duration(183_845.0), "2-03:04:05");
        assert_eq!(format_duration(65.0), "00:01:05");
    }

    #[test]
    fn job_ids_say_job_step_component_or_pending_array() {
        assert_eq!(
            parse_job_id("123"),
            Some(JobId::Job {
                key: "123".into(),
                number: Some(123)
            })
        );
        assert_eq!(parse_job_id("123.batch"), Some(JobId::Step));
        assert_eq!(parse_job_id("123.0"), Some(JobId::Step));
        assert_eq!(parse_job_id("123+1.0"), Some(JobId::Step));
        assert_eq!(parse_job_id("123_[4-9%2]"), Some(JobId::PendingArray));
        assert_eq!(
            parse_job_id("123+1"),
            Some(JobId::Component {
                key: "123".into(),
                k: 1
            })
        );
        assert!(matches!(
            parse_job_id("123_4"),
            Some(JobId::Job { number: None, .. })
        ));
        assert_eq!(parse_job_id("abc"), None);
    }

    #[test]
    fn states_map_to_swf_status() {
        assert_eq!(status_of("COMPLETED"), 1);
        assert_eq!(status_of("CANCELLED by 1234"), 5);
        assert_eq!(status_of("CANCELLED+"), 5);
        assert_eq!(status_of("TIMEOUT"), 0);
        assert_eq!(status_of("OUT_OF_MEMORY"), 0);
        assert_eq!(status_of("RUNNING"), -1);
    }

    #[test]
    fn times_with_offsets_zones_and_epochs() {
        let paris = TimeZone::get("Europe/Paris").unwrap();
        let utc = TimeZone::UTC;
        assert_eq!(parse_time("1970-01-01T01:00:00", &utc), Ok(Some(3_600)));
        assert_eq!(parse_time("1970-01-01T01:00:00", &paris), Ok(Some(0)));
        assert_eq!(parse_time("1970-01-01T01:00:00+01:00", &utc), Ok(Some(0)));
        assert_eq!(parse_time("1970-01-01T01:00:00Z", &paris), Ok(Some(3_600)));
        assert_eq!(parse_time("86400", &paris), Ok(Some(86_400)));
        assert_eq!(parse_time("Unknown", &utc), Ok(None));
        assert_eq!(parse_time("None", &utc), Ok(None));
        assert!(parse_time("yesterday", &utc).is_err());
    }
}
