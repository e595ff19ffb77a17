//! Fuzzing: property tests over everything swftool reads from outside — SWF
//! logs (arbitrary bytes, gzip streams whole, cut and damaged, and real
//! lines mutated), experiment configurations (the presets mutated, and
//! arbitrary text) and the numeric flags of the command line. Each property
//! asserts no panic, a clear error (naming the file and line, the key or
//! the flag, and what is wrong) and no hang: a value that is accepted lies
//! within the documented bounds that keep the work finite, checked on the
//! parsed values, never with a clock.
//!
//! `cargo test --release --test it fuzz::` runs a few dozen cases per property (seconds);
//! `PROPTEST_CASES=N` raises every property to N cases for a campaign
//! (docs/fuzzing.md). Failures are kept in `tests/fuzz.proptest-regressions`
//! and replayed first on every later run.

use std::io::{BufRead, BufReader, Cursor, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use clap::{Args, FromArgMatches};
use flate2::{Compression, bufread::GzDecoder, write::GzEncoder};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use swftool::cmd::replay::ReplayArgs;
use swftool::contract::{Environment, Input};
use swftool::env::classic::environment::Classic;
use swftool::env::classic::grid::ClassicSection;
use swftool::env::classic::params::{ClassicArgs, ClassicArgsError};
use swftool::env::classic::window::{build_window, default_window_start};
use swftool::env::configs::{
    config_from_file, config_from_toml, config_toml, preset, preset_names,
};
use swftool::env::energy::environment::Energy;
use swftool::env::energy::grid::EnergySection;
use swftool::env::energy::params::EnergySynthArgs;
use swftool::env::parallel::environment::Parallel;
use swftool::env::parallel::grid::ParallelSection;
use swftool::env::parallel::params::check_system_size;
use swftool::env::serial::environment::Serial;
use swftool::env::serial::grid::SerialSection;
use swftool::env::serial::params::SerialSynthArgs;
use swftool::experiment::config::{ConfigError, ExperimentConfig};
use swftool::experiment::grid::Grid;
use swftool::swf::{ReadOptions, SkipKind, SwfError, SwfLog, read_from, read_log};
use swftool::workload::Workload;
use swftool::workload::seeds::MAX_TRIALS;
use swftool::workload::{DayPick, pick_days};

/// Cases per property in a plain `cargo test`; `PROPTEST_CASES` overrides.
fn cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

const TRACES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/traces");

// ---------------------------------------------------------------------------
// SWF reader
// ---------------------------------------------------------------------------

/// The name the reader is given; every message must carry it.
const NAME: &str = "bad.swf";

/// Lines of `text` as the reader counts them (a last line without its
/// terminator counts).
fn line_count(text: &[u8]) -> u64 {
    text.split_inclusive(|&b| b == b'\n').count() as u64
}

/// Lines a log accounts for: header lines, jobs, skipped lines (a bad
/// header value keeps its line, so it is not a line of its own) and blank
/// lines. Lenient reading drops nothing silently: this is every line read.
fn accounted(log: &SwfLog) -> u64 {
    log.header.lines.len() as u64 + log.jobs.len() as u64 + log.skipped.total() + log.blank_lines
        - log.skipped.count(SkipKind::BadHeaderValue)
}

/// What every error must say: the file, the line when one is at fault, and
/// what is wrong.
fn check_error(e: &SwfError, text: Option<&[u8]>) {
    let msg = e.to_string();
    assert_eq!(e.file(), NAME, "{msg}");
    assert!(msg.contains(NAME), "the message names no file: {msg}");
    assert!(
        msg.trim().len() >= NAME.len() + 15,
        "the message says too little: {msg}"
    );
    if let Some(line) = e.line() {
        assert!(line >= 1, "{msg}");
        assert!(
            msg.contains(&format!("{NAME}:{line}:")) || msg.contains(&format!("line {line}")),
            "the message does not name its line {line}: {msg}"
        );
        if let Some(text) = text {
            assert!(
                line <= line_count(text) + 1,
                "line {line} past the end: {msg}"
            );
        }
    }
}

/// What every parsed log must hold.
fn check_log(log: &SwfLog, text: Option<&[u8]>, lenient: bool) {
    assert_eq!(log.name, NAME);
    if !lenient {
        assert!(log.skipped.is_empty(), "strict mode skipped lines");
    }
    let total = log.skipped.total();
    assert_eq!(
        log.skipped.examples.len() as u64,
        total.min(swftool::swf::reader::SKIP_EXAMPLES as u64)
    );
    for w in log.skipped.examples.windows(2) {
        assert!(w[0].0 <= w[1].0, "examples out of order");
    }
    for (line, reason) in &log.skipped.examples {
        assert!(*line >= 1 && !reason.trim().is_empty());
        if let Some(text) = text {
            assert!(*line <= line_count(text));
        }
    }
    if let Some(text) = text {
        assert_eq!(
            accounted(log),
            line_count(text),
            "lines read are not all accounted for (lenient: {lenient}): {} header, {} jobs, {} blank, {}",
            log.header.lines.len(),
            log.jobs.len(),
            log.blank_lines,
            log.skipped
        );
    }
}

type Read = Result<SwfLog, String>;

/// Reads `input` strictly and leniently, checks each result and how the two
/// agree, and returns both (errors as their messages). `text` is the text
/// the reader should see, when known.
fn read_both(input: &[u8], text: Option<&[u8]>) -> (Read, Read) {
    let mut out = Vec::new();
    for opts in [ReadOptions::strict(), ReadOptions::lenient()] {
        let r = read_from(Cursor::new(input), NAME, &opts);
        match &r {
            Ok(log) => check_log(log, text, opts.lenient),
            Err(e) => check_error(e, text),
        }
        out.push(r);
    }
    let lenient = out.pop().unwrap();
    let strict = out.pop().unwrap();
    match (&strict, &lenient) {
        (Ok(s), Ok(l)) => assert_eq!(s, l, "strict and lenient read a good log differently"),
        (Ok(_), Err(e)) => panic!("lenient refused what strict read: {e}"),
        (Err(e), Ok(l)) => {
            // Strict stops at the first line lenient skipped.
            let first = l.skipped.examples.first().map(|x| x.0);
            assert!(
                first.is_some(),
                "strict refused a log lenient read without a skip: {e}"
            );
            assert_eq!(
                e.line(),
                first,
                "strict error {e}, lenient skipped {first:?}"
            );
        }
        (Err(_), Err(_)) => {}
    }
    (
        strict.map_err(|e| e.to_string()),
        lenient.map_err(|e| e.to_string()),
    )
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::fast());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// Whether plain `bytes` start like a compressed file (the reader sniffs
/// the magic bytes of plain input only, not of decoded text).
fn looks_compressed(bytes: &[u8]) -> bool {
    [
        &b"\x1f"[..],
        b"\xfd7zXZ\x00",
        b"BZh",
        b"\x28\xb5\x2f\xfd",
        b"PK\x03\x04",
        b"\x04\x22\x4d\x18",
        b"7z\xbc\xaf\x27\x1c",
    ]
    .iter()
    .any(|m| {
        bytes.starts_with(m) || (bytes.len() < m.len() && m.starts_with(bytes) && !bytes.is_empty())
    })
}

/// Bytes that look like SWF more often than uniform bytes do: digits,
/// signs, points, separators, `;`, keys, and now and then anything.
fn swf_ish_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => "[0-9]{1,6}".prop_map(String::into_bytes),
        3 => Just(b" ".to_vec()),
        1 => Just(b"\t".to_vec()),
        2 => Just(b"\n".to_vec()),
        1 => Just(b"\r\n".to_vec()),
        1 => Just(b"-1".to_vec()),
        1 => Just(b".".to_vec()),
        1 => Just(b"; ".to_vec()),
        1 => prop_oneof![
            Just("MaxProcs:"),
            Just("MaxNodes:"),
            Just("UnixStartTime:"),
            Just("TimeZoneString:"),
            Just("Note:"),
        ]
        .prop_map(|k| k.as_bytes().to_vec()),
        1 => Just(b"\xef\xbb\xbf".to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
        1 => "1( -1){17}\n".prop_map(String::into_bytes),
    ];
    prop::collection::vec(piece, 0..120).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(cases(64))]

    /// Arbitrary bytes: no panic; an error names the file, its line and
    /// what is wrong; lenient reading accounts for every line; strict
    /// reading stops where lenient reading first skipped.
    #[test]
    fn swf_reader_takes_arbitrary_bytes(bytes in prop_oneof![
        prop::collection::vec(any::<u8>(), 0..2000),
        swf_ish_bytes(),
    ]) {
        let text = (!looks_compressed(&bytes)).then_some(&bytes[..]);
        let _ = read_both(&bytes, text);
    }

    /// Gzip: a gzip stream reads as its text does; cut anywhere, it is an
    /// error in both modes that says the data is truncated or damaged; a
    /// damaged byte is an error or (in a field the checksum does not cover)
    /// the same log.
    #[test]
    fn swf_reader_takes_arbitrary_gzip(
        text in prop_oneof![prop::collection::vec(any::<u8>(), 0..1500), swf_ish_bytes()],
        cut in any::<prop::sample::Index>(),
        flip in any::<prop::sample::Index>(),
        mask in 1u8..=255,
        members in 1usize..=3,
    ) {
        let mut gz = Vec::new();
        for _ in 0..members {
            gz.extend(gzip(&text.repeat(1)));
        }
        let whole_text = text.repeat(members);
        let (strict, lenient) = read_both(&gz, Some(&whole_text));
        if !looks_compressed(&whole_text) {
            let (ps, pl) = read_both(&whole_text, Some(&whole_text));
            prop_assert_eq!(&strict, &ps);
            prop_assert_eq!(&lenient, &pl);
        }
        // Cut: at least the two magic bytes are kept (fewer is not gzip).
        let single = gzip(&text);
        let at = 2 + cut.index(single.len() - 2);
        let (s, l) = read_both(&single[..at], None);
        prop_assert!(s.is_err(), "a cut gzip stream was read");
        let msg = l.expect_err("a cut gzip stream was read leniently");
        prop_assert!(msg.contains("gzip"), "{}", msg);
        // One damaged byte.
        let mut bad = single.clone();
        let i = flip.index(bad.len());
        bad[i] ^= mask;
        let (_, l) = read_both(&bad, None);
        let plain = read_from(Cursor::new(&single), NAME, &ReadOptions::lenient())
            .map_err(|e| e.to_string());
        if l.is_ok() && i >= 2 {
            prop_assert_eq!(l, plain, "a damaged gzip byte {} gave another log", i);
        }
    }
}

/// The first lines of some real logs (header and data), read once.
fn real_lines() -> &'static [Vec<Vec<u8>>] {
    static LINES: OnceLock<Vec<Vec<Vec<u8>>>> = OnceLock::new();
    LINES.get_or_init(|| {
        [
            "KTH-SP2-1996-2.1-cln.swf.gz",
            "CTC-SP2-1996-3.1-cln.swf.gz",
            "CEA-Curie-2011-2.1-cln.swf.gz",
        ]
        .iter()
        .map(|f| {
            let path = Path::new(TRACES).join(f);
            let file =
                std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let mut r = BufReader::new(GzDecoder::new(BufReader::new(file)));
            let mut lines = Vec::new();
            let mut buf = Vec::new();
            while lines.len() < 2000 {
                buf.clear();
                if r.read_until(b'\n', &mut buf).unwrap() == 0 {
                    break;
                }
                let end = buf.len() - usize::from(buf.ends_with(b"\n"));
                lines.push(buf[..end].to_vec());
            }
            lines
        })
        .collect()
    })
}

/// Tokens a field is replaced with: edges of every range the reader
/// checks, other ways of writing numbers, and anything.
fn nasty_token() -> impl Strategy<Value = String> {
    let special = prop::sample::select(vec![
        "",
        "-",
        "+",
        "-1",
        "0",
        "-0",
        "+5",
        "007",
        "00000000000000000000000000001",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "99999999999999999999999999999",
        "4294967295",
        "4294967296",
        "9007199254740991",
        "9007199254740992",
        "-9007199254740992",
        "9007199254740991.5",
        "1e3",
        "1E308",
        "1e309",
        "inf",
        "-inf",
        "NaN",
        "nan",
        "infinity",
        "5.",
        ".5",
        "1.5",
        "-0.0",
        "0x10",
        "1_000",
        "١٢٣",
        "１２",
        "12abc",
        "--1",
        "+-1",
        "1.2.3",
        "\u{a0}5",
        "5\u{0}",
        ";",
    ]);
    prop_oneof![
        4 => special.prop_map(String::from),
        1 => any::<i64>().prop_map(|v| v.to_string()),
        1 => any::<u64>().prop_map(|v| v.to_string()),
        1 => any::<f64>().prop_map(|v| v.to_string()),
        1 => any::<f64>().prop_map(|v| format!("{v:e}")),
        1 => "[ -~]{0,12}",
        1 => "\\PC{0,6}",
    ]
}

/// One change to a window of real lines; indices are taken modulo the
/// lines (or fields, or bytes) there are.
#[derive(Debug, Clone)]
enum Mutation {
    ReplaceField(usize, usize, String),
    DropField(usize, usize),
    DuplicateField(usize, usize),
    FlipByte(usize, usize, u8),
    SwapLines(usize, usize),
    DeleteLine(usize),
    DuplicateLine(usize),
    InsertLine(usize, Vec<u8>),
    TruncateLine(usize, usize),
    /// A header line `; Key: value` put first, so that it is the value read.
    HeaderValue(&'static str, String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let n = any::<usize>;
    prop_oneof![
        4 => (n(), 0usize..20, nasty_token()).prop_map(|(l, f, t)| Mutation::ReplaceField(l, f, t)),
        1 => (n(), 0usize..20).prop_map(|(l, f)| Mutation::DropField(l, f)),
        1 => (n(), 0usize..20).prop_map(|(l, f)| Mutation::DuplicateField(l, f)),
        2 => (n(), n(), 1u8..=255).prop_map(|(l, i, m)| Mutation::FlipByte(l, i, m)),
        1 => (n(), n()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        1 => n().prop_map(Mutation::DeleteLine),
        1 => n().prop_map(Mutation::DuplicateLine),
        1 => (n(), prop_oneof![
            prop::collection::vec(any::<u8>(), 0..40),
            nasty_token().prop_map(String::into_bytes),
            Just(b"; comment".to_vec()),
            Just(b"   ".to_vec()),
        ]).prop_map(|(l, t)| Mutation::InsertLine(l, t)),
        1 => (n(), n()).prop_map(|(l, i)| Mutation::TruncateLine(l, i)),
        2 => (
            prop::sample::select(vec!["MaxProcs", "MaxNodes", "UnixStartTime", "TimeZoneString", "Version", "Note"]),
            nasty_token(),
        ).prop_map(|(k, v)| Mutation::HeaderValue(k, v)),
    ]
}

fn apply(lines: &mut Vec<Vec<u8>>, m: &Mutation) {
    let fields = |line: &[u8]| -> Vec<Vec<u8>> {
        line.split(|b| b.is_ascii_whitespace())
            .filter(|f| !f.is_empty())
            .map(<[u8]>::to_vec)
            .collect()
    };
    if lines.is_empty() && !matches!(m, Mutation::InsertLine(..) | Mutation::HeaderValue(..)) {
        return;
    }
    let len = lines.len();
    match m {
        Mutation::ReplaceField(l, f, _)
        | Mutation::DropField(l, f)
        | Mutation::DuplicateField(l, f) => {
            let line = &mut lines[l % len];
            let mut fs = fields(line);
            if fs.is_empty() {
                return;
            }
            let i = f % fs.len();
            match m {
                Mutation::ReplaceField(_, _, t) => fs[i] = t.clone().into_bytes(),
                Mutation::DropField(..) => {
                    fs.remove(i);
                }
                _ => {
                    let dup = fs[i].clone();
                    fs.insert(i, dup);
                }
            }
            *line = fs.join(&b' ');
        }
        Mutation::FlipByte(l, i, mask) => {
            let line = &mut lines[l % len];
            if !line.is_empty() {
                let at = i % line.len();
                line[at] ^= mask;
            }
        }
        Mutation::SwapLines(a, b) => lines.swap(a % len, b % len),
        Mutation::DeleteLine(l) => {
            lines.remove(l % len);
        }
        Mutation::DuplicateLine(l) => {
            let dup = lines[l % len].clone();
            lines.insert(l % len, dup);
        }
        Mutation::InsertLine(l, text) => {
            let at = l % (len + 1);
            lines.insert(at, text.clone());
        }
        Mutation::TruncateLine(l, i) => {
            let line = &mut lines[l % len];
            let at = i % (line.len() + 1);
            line.truncate(at);
        }
        Mutation::HeaderValue(key, value) => {
            lines.insert(0, format!("; {key}: {value}").into_bytes())
        }
    }
}

proptest! {
    #![proptest_config(cases(64))]

    /// Real lines, mutated: a field replaced by a huge, negative, float,
    /// non-numeric or empty value, fields dropped or duplicated, bytes
    /// flipped, lines swapped, deleted, duplicated, inserted or cut, header
    /// values replaced. Unmutated, the window reads whole in strict mode.
    #[test]
    fn swf_reader_takes_mutated_real_lines(
        log in 0usize..3,
        start in any::<prop::sample::Index>(),
        len in 1usize..300,
        header in any::<bool>(),
        crlf in any::<bool>(),
        final_newline in any::<bool>(),
        mutations in prop::collection::vec(mutation(), 0..6),
    ) {
        let all = &real_lines()[log];
        let first_job = all.iter().position(|l| !l.starts_with(b";")).unwrap();
        let data = &all[first_job..];
        let from = start.index(data.len());
        let window = &data[from..(from + len).min(data.len())];
        let mut lines: Vec<Vec<u8>> = Vec::new();
        if header {
            lines.extend(all[..first_job].iter().cloned());
        }
        lines.extend(window.iter().cloned());
        let jobs = window.len();
        for m in &mutations {
            apply(&mut lines, m);
        }
        let sep: &[u8] = if crlf { b"\r\n" } else { b"\n" };
        let mut text = lines.join(sep);
        if final_newline && !lines.is_empty() {
            text.extend_from_slice(sep);
        }
        let t = (!looks_compressed(&text)).then_some(&text[..]);
        let (strict, _) = read_both(&text, t);
        if mutations.is_empty() {
            let log = strict.expect("real lines read strictly");
            prop_assert_eq!(log.jobs.len(), jobs);
        }
    }
}

#[test]
fn the_real_lines_are_there_and_read() {
    for lines in real_lines() {
        assert_eq!(lines.len(), 2000);
        let text = lines.join(&b'\n');
        let (strict, _) = read_both(&text, Some(&text));
        assert!(strict.unwrap().jobs.len() > 1900);
    }
}

// ---------------------------------------------------------------------------
// Experiment configurations
// ---------------------------------------------------------------------------

/// The file name configurations are parsed under; messages must carry it.
const CONFIG: &str = "fuzz.toml";

fn preset_texts() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        preset_names()
            .iter()
            .map(|p| config_toml(&preset(p).unwrap()).unwrap())
            .collect()
    })
}

/// Keys a configuration may hold (top level, then `[table].key`), and a
/// few it may not.
const KEYS: &[&str] = &[
    "name",
    "environment",
    "logs",
    "heuristics",
    "days",
    "dates",
    "day_arrivals",
    "seed",
    "cores_base",
    "axes",
    "job_tables",
    "trials",
    "theta",
    "serial_axes",
    "energy_managements",
    "energy_filters",
    "bogus",
    "classic.reservation_depth",
    "classic.exact_estimates",
    "classic.whole_nodes",
    "classic.procs_per_node",
    "classic.clean",
    "classic.preempting_above",
    "classic.preemptible_up_to",
    "classic.preempt_min_runtime",
    "classic.preemptor_priority_factor",
    "classic.window_jobs",
    "classic.extra_jobs",
    "classic.window_start",
    "classic.window",
    "classic.tau",
    "classic.bogus",
    "serial.burst_size",
    "serial.shape",
    "serial.flag_probability",
    "serial.critical_etc",
    "serial.fixed_cores",
    "serial.load",
    "serial.theta",
    "serial.trials",
    "energy.management",
    "energy.filter",
    "energy.budget",
    "energy.drop_threshold",
    "energy.event_interval",
    "energy.tasks_per_day",
    "energy.theta",
    "energy.bogus",
    "variants.oversubscription",
];

/// TOML values: numbers at every edge (0, negative, huge, NaN, infinite),
/// words the keys take, wrong types.
fn toml_value() -> impl Strategy<Value = toml::Value> {
    use toml::Value as V;
    let leaf = prop_oneof![
        3 => prop::sample::select(vec![
            0i64,
            1,
            -1,
            2,
            48,
            1_000_000_000,
            1_000_000_000_000,
            i64::MAX,
            i64::MIN,
            10_001,
            10_000,
            4_294_967_296,
        ])
        .prop_map(V::Integer),
        1 => any::<i64>().prop_map(V::Integer),
        3 => prop::sample::select(vec![
            0.0f64,
            -0.0,
            -1.0,
            0.5,
            1.0,
            1e-300,
            1e308,
            f64::MAX,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.001,
            0.0009,
        ])
        .prop_map(V::Float),
        1 => any::<f64>().prop_map(V::Float),
        1 => any::<bool>().prop_map(V::Boolean),
        2 => prop::sample::select(vec![
            "all", "curie", "kth-sp2", "easy", "backfill", "catalina-preempt", "maxupt",
            "parallel", "serial", "energy", "classic", "none", "adaptive", "fixed:1.5",
            "fixed:nan", "1.11GJ", "-1J", "any", "p10-p90", "5-1", "month:2005-03",
            "most-wide", "2012-07-09", "2097-02-30", "higher", "classes", "", "x/y", "..",
        ])
        .prop_map(|s| V::String(s.into())),
        1 => "\\PC{0,10}".prop_map(V::String),
    ];
    let nested = leaf.clone().prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(V::Array),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..3)
                .prop_map(|m| V::Table(m.into_iter().collect())),
        ]
    });
    prop_oneof![6 => leaf, 1 => nested]
}

/// The keys of [`KEYS`] that belong to `env`'s grids (edits aimed there
/// reach validation more often than edits refused as foreign keys).
fn own_keys(env: &str) -> Vec<&'static str> {
    let (prefix, top): (&str, &[&str]) = match env {
        "parallel" => (
            "variants.",
            &[
                "days",
                "dates",
                "day_arrivals",
                "seed",
                "cores_base",
                "axes",
            ],
        ),
        "serial" => ("serial.", &["trials", "serial_axes", "seed", "theta"]),
        "energy" => (
            "energy.",
            &[
                "trials",
                "energy_managements",
                "energy_filters",
                "seed",
                "theta",
            ],
        ),
        _ => ("classic.", &["job_tables", "logs"]),
    };
    KEYS.iter()
        .copied()
        .filter(|k| k.starts_with(prefix) || top.contains(k))
        .collect()
}

/// One change to a configuration's TOML table, or to its text.
#[derive(Debug, Clone)]
enum ConfigEdit {
    /// A key of the preset's own environment ([`own_keys`]), by index.
    SetOwn(prop::sample::Index, toml::Value),
    Set(&'static str, toml::Value),
    Remove(&'static str),
    RemoveAny(prop::sample::Index),
}

fn config_edit() -> impl Strategy<Value = ConfigEdit> {
    prop_oneof![
        4 => (any::<prop::sample::Index>(), toml_value()).prop_map(|(k, v)| ConfigEdit::SetOwn(k, v)),
        2 => (prop::sample::select(KEYS.to_vec()), toml_value()).prop_map(|(k, v)| ConfigEdit::Set(k, v)),
        1 => prop::sample::select(KEYS.to_vec()).prop_map(ConfigEdit::Remove),
        1 => any::<prop::sample::Index>().prop_map(ConfigEdit::RemoveAny),
    ]
}

fn edit(table: &mut toml::Table, env: &str, e: &ConfigEdit) {
    match e {
        ConfigEdit::SetOwn(i, value) => {
            let keys = own_keys(env);
            edit(
                table,
                env,
                &ConfigEdit::Set(keys[i.index(keys.len())], value.clone()),
            );
        }
        ConfigEdit::Set(key, value) => match key.split_once('.') {
            Some((t, k)) if t == "variants" => {
                let mut v = toml::Table::new();
                v.insert(k.into(), value.clone());
                match table
                    .entry(t)
                    .or_insert_with(|| toml::Value::Array(Vec::new()))
                {
                    toml::Value::Array(a) => a.push(toml::Value::Table(v)),
                    other => *other = toml::Value::Array(vec![toml::Value::Table(v)]),
                }
            }
            Some((t, k)) => {
                let sub = table
                    .entry(t)
                    .or_insert_with(|| toml::Value::Table(toml::Table::new()));
                if !sub.is_table() {
                    *sub = toml::Value::Table(toml::Table::new());
                }
                if let toml::Value::Table(sub) = sub {
                    sub.insert(k.into(), value.clone());
                }
            }
            None => {
                table.insert((*key).into(), value.clone());
            }
        },
        ConfigEdit::Remove(key) => match key.split_once('.') {
            Some((t, k)) => {
                if let Some(toml::Value::Table(sub)) = table.get_mut(t) {
                    sub.remove(k);
                }
            }
            None => {
                table.remove(*key);
            }
        },
        ConfigEdit::RemoveAny(i) => {
            if !table.is_empty() {
                let key = table.keys().nth(i.index(table.len())).cloned().unwrap();
                table.remove(&key);
            }
        }
    }
}

/// One change to a configuration's text.
#[derive(Debug, Clone)]
enum TextEdit {
    Truncate(prop::sample::Index),
    DeleteLine(prop::sample::Index),
    DuplicateLine(prop::sample::Index),
    InsertLine(prop::sample::Index, String),
    FlipByte(prop::sample::Index, u8),
}

fn text_edit() -> impl Strategy<Value = TextEdit> {
    let i = any::<prop::sample::Index>;
    prop_oneof![
        i().prop_map(TextEdit::Truncate),
        i().prop_map(TextEdit::DeleteLine),
        i().prop_map(TextEdit::DuplicateLine),
        (
            i(),
            prop_oneof![
                "[a-z_]{1,12} = [0-9a-z\\[\\]\"., -]{0,12}",
                Just("[classic]".to_string()),
                Just("[[variants]]".to_string()),
                Just("trials = 1000000000000".to_string()),
                Just("seed = -1".to_string()),
                Just("days = 0".to_string()),
                "\\PC{0,20}",
            ]
        )
            .prop_map(|(at, l)| TextEdit::InsertLine(at, l)),
        (i(), 1u8..=127).prop_map(|(at, m)| TextEdit::FlipByte(at, m)),
    ]
}

fn edit_text(text: &str, e: &TextEdit) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let rejoin = |v: Vec<&str>| v.join("\n");
    match e {
        TextEdit::Truncate(i) => {
            let mut at = i.index(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text[..at].to_string()
        }
        TextEdit::DeleteLine(i) if !lines.is_empty() => {
            let mut v = lines.clone();
            v.remove(i.index(v.len()));
            rejoin(v)
        }
        TextEdit::DuplicateLine(i) if !lines.is_empty() => {
            let mut v = lines.clone();
            let k = i.index(v.len());
            v.insert(k, lines[k]);
            rejoin(v)
        }
        TextEdit::InsertLine(i, l) => {
            let mut v = lines.clone();
            v.insert(i.index(v.len() + 1), l);
            rejoin(v)
        }
        TextEdit::FlipByte(i, m) if !text.is_empty() => {
            let mut b = text.as_bytes().to_vec();
            let k = i.index(b.len());
            b[k] ^= m;
            String::from_utf8_lossy(&b).into_owned()
        }
        _ => text.to_string(),
    }
}

/// Parses `text` as `swftool experiment CONFIG.toml` does
/// ([`config_from_toml`]) and checks the outcome: an error names the file
/// and the problem (a line for a TOML error, a key, a heuristic or a flag
/// otherwise); an accepted configuration implies bounded work and writes
/// back to itself.
fn check_config(text: &str) -> Result<ExperimentConfig, String> {
    let origin = Path::new(CONFIG);
    match config_from_toml(text, origin) {
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.starts_with(CONFIG), "the message names no file: {msg}");
            assert!(
                msg.len() > CONFIG.len() + 15,
                "the message says too little: {msg}"
            );
            match &e {
                ConfigError::Parse { .. } => {
                    assert!(msg.contains("line "), "a TOML error names no line: {msg}")
                }
                ConfigError::Invalid { key, .. } => {
                    assert!(msg.contains(&format!("key `{key}`")), "{msg}")
                }
                ConfigError::Heuristic { .. } => assert!(msg.contains("key `heuristics`"), "{msg}"),
                ConfigError::Environment { .. } => {
                    assert!(msg.contains("key `environment`"), "{msg}")
                }
                ConfigError::Refused { source, .. } => {
                    let classic = source.downcast_ref::<ClassicArgsError>();
                    if !matches!(classic, Some(ClassicArgsError::Unknown(_))) {
                        assert!(msg.contains("--"), "no flag named: {msg}");
                    }
                }
                ConfigError::Read { .. } | ConfigError::UnknownPreset { .. } => {
                    panic!("config_from_toml cannot give {msg}")
                }
            }
            Err(msg)
        }
        Ok(c) => {
            // Bounded work: the grid's numbers are within their bounds.
            if let Some(t) = c.trials {
                assert!((1..=MAX_TRIALS).contains(&t), "trials = {t} accepted");
            }
            if let Some(t) = c.theta {
                assert!(t.is_finite() && t > 0.0, "theta = {t} accepted");
            }
            match c.environment.as_str() {
                "serial" => {
                    let s: SerialSection = c.section().unwrap();
                    let args = Serial::grid_args(&c, &s);
                    if c.logs.is_empty() {
                        args.synthetic().validate().unwrap();
                    } else {
                        args.log_params().validate().unwrap();
                    }
                }
                "energy" => {
                    let s: EnergySection = c.section().unwrap();
                    let args = Energy::grid_args(&c, &s);
                    args.synthetic().validate().unwrap();
                    if let Some(d) = args.drop_threshold {
                        assert!(d.is_finite() && d >= 0.0, "drop_threshold = {d} accepted");
                    }
                }
                "classic" => {
                    let s: ClassicSection = c.section().unwrap();
                    s.classic.policies(&c.heuristics).unwrap();
                }
                _ => {
                    let s: ParallelSection = c.section().unwrap();
                    if let Some(b) = Parallel::grid_args(&c, &s).cores_base {
                        assert!(b.is_finite() && b > 0.0);
                    }
                }
            }
            // Written back, it reads the same (no NaN slipped through).
            let again = config_toml(&c).expect("an accepted configuration writes");
            let back = config_from_toml(&again, origin)
                .unwrap_or_else(|e| panic!("written back, it is refused: {e}\n{again}"));
            assert_eq!(back, c, "written back, it reads otherwise:\n{again}");
            Ok(c)
        }
    }
}

proptest! {
    #![proptest_config(cases(96))]

    /// Each preset, with keys set to wrong types, huge, negative, zero,
    /// NaN or infinite numbers, unknown keys, keys removed, then its text
    /// cut, lines removed, duplicated or inserted, bytes flipped.
    #[test]
    fn configs_take_mutated_presets(
        preset in 0..preset_names().len(),
        edits in prop::collection::vec(config_edit(), 0..4),
        text_edits in prop::collection::vec(text_edit(), 0..3),
    ) {
        let mut table: toml::Table = preset_texts()[preset].parse().unwrap();
        let env = self::preset(preset_names()[preset]).unwrap().environment;
        for e in &edits {
            edit(&mut table, &env, e);
        }
        let mut text = toml::to_string(&table).unwrap();
        for e in &text_edits {
            text = edit_text(&text, e);
        }
        let r = check_config(&text);
        if edits.is_empty() && text_edits.is_empty() {
            prop_assert!(r.is_ok(), "{:?}", r);
        }
    }

    /// Arbitrary text (and bytes, read as `from_file` reads them).
    #[test]
    fn configs_take_arbitrary_text(
        text in prop_oneof![
            "\\PC{0,200}",
            "([a-z_]{1,10} = [0-9a-z\\[\\]\"., -]{0,10}\n){0,8}",
        ],
        bytes in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let _ = check_config(&text);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CONFIG);
        std::fs::write(&path, &bytes).unwrap();
        if let Err(e) = config_from_file(&path) {
            let msg = e.to_string();
            prop_assert!(msg.contains(CONFIG), "{}", msg);
        }
    }
}

// ---------------------------------------------------------------------------
// The command line's numeric flags
// ---------------------------------------------------------------------------

/// Parses `argv` (without the program and subcommand names) into a
/// subcommand's arguments, as the binary's parser does.
fn parse<A: Args + FromArgMatches>(argv: &[String]) -> Result<A, clap::Error> {
    let cmd = A::augment_args(clap::Command::new("swftool").no_binary_name(true));
    let m = cmd.try_get_matches_from(argv)?;
    A::from_arg_matches(&m)
}

/// Values given to numeric flags: 0, -1, NaN, infinities, 1e308, u64::MAX
/// and past it, empty, exponents, blanks, percentages, and anything.
fn flag_value() -> impl Strategy<Value = String> {
    let special = prop::sample::select(vec![
        "0",
        "1",
        "-1",
        "-0",
        "NaN",
        "nan",
        "inf",
        "-inf",
        "infinity",
        "1e308",
        "1e309",
        "-1e308",
        "1e-300",
        "5e-324",
        "18446744073709551615",
        "18446744073709551616",
        "9223372036854775807",
        "-9223372036854775808",
        "4294967295",
        "4294967296",
        "1000000000",
        "1000000000000000",
        "1e15",
        "1e9",
        "",
        " ",
        "1e3",
        "  5",
        "5  ",
        "+5",
        "0x10",
        "1_000",
        "1.5",
        "0.5",
        "0.001",
        "0.0009",
        "10001",
        "10000",
        "1024",
        "1025",
        "40%",
        "150%",
        "fixed:nan",
        "fixed:-1",
        "fixed:1e308",
        "1.11GJ",
        "-1J",
        "none",
        "all",
        "3/2",
        "0/0",
        "1/18446744073709551615",
    ]);
    prop_oneof![
        4 => special.prop_map(String::from),
        1 => any::<u64>().prop_map(|v| v.to_string()),
        1 => any::<i64>().prop_map(|v| v.to_string()),
        1 => any::<f64>().prop_map(|v| v.to_string()),
        1 => any::<f64>().prop_map(|v| format!("{v:e}")),
        1 => (0u64..100_000).prop_map(|v| v.to_string()),
        1 => "[ -~]{0,10}",
    ]
}

/// A flag, the subcommand it is given to and the rest of the command line.
#[derive(Debug, Clone, Copy)]
enum Target {
    /// `replay` with these other arguments.
    Replay(&'static [&'static str]),
    SynthSerial,
    SynthEnergy,
}

/// The command lines the flags are given on: environment B on synthetic
/// trials and on a log, environment C.
const B_TRIALS: Target = Target::Replay(&["--env", "serial", "-H", "all"]);
const B_LOG: Target = Target::Replay(&["kth-sp2", "--env", "serial", "-H", "maxupt"]);
const C_TRIALS: Target = Target::Replay(&["--env", "energy", "-H", "all"]);

/// Every numeric flag with a command line it belongs to.
const FLAGS: &[(&str, Target)] = &[
    // Environment B, synthetic trials.
    ("--trial", B_TRIALS),
    ("--trials", B_TRIALS),
    ("--burst-size", B_TRIALS),
    ("--flag-probability", B_TRIALS),
    ("--critical-etc", B_TRIALS),
    ("--theta", B_TRIALS),
    ("--seed", B_TRIALS),
    ("--threads", B_TRIALS),
    // Environment B on a log.
    ("--load", B_LOG),
    ("--theta", B_LOG),
    ("--days", B_LOG),
    ("--day", B_LOG),
    // Environment C.
    ("--trial", C_TRIALS),
    ("--trials", C_TRIALS),
    ("--theta", C_TRIALS),
    ("--budget", C_TRIALS),
    ("--drop-threshold", C_TRIALS),
    ("--static-power", C_TRIALS),
    ("--event-interval", C_TRIALS),
    ("--tasks-per-day", C_TRIALS),
    ("--filter", C_TRIALS),
    // Environment A.
    ("--days", Target::Replay(&["kth-sp2", "-H", "easy"])),
    ("--day", Target::Replay(&["kth-sp2", "-H", "easy"])),
    ("--seed", Target::Replay(&["kth-sp2", "-H", "easy"])),
    ("--cores-base", Target::Replay(&["kth-sp2", "-H", "easy"])),
    ("--threads", Target::Replay(&["kth-sp2", "-H", "easy"])),
    // Environment D.
    (
        "--reservation-depth",
        Target::Replay(&["kth-sp2", "--env", "classic", "-H", "backfill"]),
    ),
    (
        "--procs-per-node",
        Target::Replay(&["kth-sp2", "--env", "classic", "-H", "fcfs", "--whole-nodes"]),
    ),
    (
        "--preempting-above",
        Target::Replay(&["kth-sp2", "--env", "classic", "-H", "catalina-preempt"]),
    ),
    (
        "--preemptible-up-to",
        Target::Replay(&["kth-sp2", "--env", "classic", "-H", "catalina-preempt"]),
    ),
    (
        "--preempt-min-runtime",
        Target::Replay(&["kth-sp2", "--env", "classic", "-H", "catalina-preempt"]),
    ),
    (
        "--preemptor-priority-factor",
        Target::Replay(&["kth-sp2", "--env", "classic", "-H", "catalina-preempt"]),
    ),
    (
        "--window-jobs",
        Target::Replay(&[
            "kth-sp2",
            "--env",
            "classic",
            "-H",
            "fcfs",
            "--window-start",
            "0",
        ]),
    ),
    (
        "--extra-jobs",
        Target::Replay(&[
            "kth-sp2",
            "--env",
            "classic",
            "-H",
            "fcfs",
            "--window-jobs",
            "50",
        ]),
    ),
    (
        "--window-start",
        Target::Replay(&[
            "kth-sp2",
            "--env",
            "classic",
            "-H",
            "fcfs",
            "--window-jobs",
            "50",
        ]),
    ),
    (
        "--tau",
        Target::Replay(&["kth-sp2", "--env", "classic", "-H", "fcfs"]),
    ),
    // synth.
    ("--trial", Target::SynthSerial),
    ("--seed", Target::SynthSerial),
    ("--burst-size", Target::SynthSerial),
    ("--flag-probability", Target::SynthSerial),
    ("--critical-etc", Target::SynthSerial),
    ("--trial", Target::SynthEnergy),
    ("--seed", Target::SynthEnergy),
    ("--tasks-per-day", Target::SynthEnergy),
    ("--theta", Target::SynthEnergy),
    ("--event-interval", Target::SynthEnergy),
];

/// KTH-SP2, read once (28,000 jobs: the smallest real log at hand).
fn kth() -> &'static (PathBuf, SwfLog, Workload) {
    static KTH: OnceLock<(PathBuf, SwfLog, Workload)> = OnceLock::new();
    KTH.get_or_init(|| {
        let path = Path::new(TRACES).join("KTH-SP2-1996-2.1-cln.swf.gz");
        let log = read_log(&path, &ReadOptions::strict()).unwrap();
        let w = Workload::from_log(&log);
        (path, log, w)
    })
}

/// A refusal is clear when it names the flag (clap's, or ours).
fn assert_names(msg: &str, flag: &str, value: &str) {
    let value = value.trim();
    assert!(
        msg.contains(flag) || (value.starts_with('-') && msg.contains(value)),
        "the refusal of {flag} {value:?} does not name it: {msg}"
    );
    assert!(msg.trim().len() > flag.len() + 10, "says too little: {msg}");
}

/// Parses and checks one numeric flag's value as the command does before
/// any long work, and for a replay that reads a log, prepares what the log
/// decides (days, system size, window) without simulating.
fn check_flag(flag: &str, target: Target, value: &str, joined: bool) {
    let mut argv: Vec<String> = match target {
        Target::Replay(rest) => rest.iter().map(|s| s.to_string()).collect(),
        Target::SynthSerial | Target::SynthEnergy => vec!["--out".into(), "x.swf".into()],
    };
    if joined {
        argv.push(format!("{flag}={value}"));
    } else {
        argv.push(flag.into());
        argv.push(value.into());
    }
    match target {
        Target::SynthSerial => match parse::<SerialSynthArgs>(&argv) {
            Err(e) => assert_names(&e.to_string(), flag, value),
            Ok(a) => {
                if let Err(e) = a.params().validate() {
                    assert_names(&e.to_string(), flag, value);
                }
            }
        },
        Target::SynthEnergy => match parse::<EnergySynthArgs>(&argv) {
            Err(e) => assert_names(&e.to_string(), flag, value),
            Ok(a) => match a.params().validate() {
                Err(e) => assert_names(&e.to_string(), flag, value),
                Ok(()) => {
                    let p = a.params();
                    assert!(p.tasks_per_day <= swftool::env::energy::workload::MAX_TASKS_PER_DAY);
                    assert!(p.event_interval_s >= 1.0 && p.theta_s.is_none_or(f64::is_finite));
                }
            },
        },
        Target::Replay(_) => match parse::<ReplayArgs>(&argv) {
            Err(e) => assert_names(&e.to_string(), flag, value),
            Ok(a) => match swftool::cmd::replay::check(&a) {
                Err(e) => assert_names(&swftool::cmd::error_message(&e), flag, value),
                Ok(()) => accepted_replay(&a, flag, value),
            },
        },
    }
}

/// A replay whose flags passed [`swftool::cmd::replay::check`]: the values
/// are within bounds, and what the log decides is refused clearly or
/// bounded by the log.
fn accepted_replay(a: &ReplayArgs, flag: &str, value: &str) {
    if let Some(t) = a.threads {
        assert!(t <= swftool::cmd::MAX_THREADS, "--threads {t} accepted");
    }
    if let Some(t) = a.shared.trials {
        assert!((1..=MAX_TRIALS).contains(&t), "--trials {t} accepted");
    }
    let synthetic = a.log.is_none();
    if synthetic {
        // Workload sizes: bounded by the validated parameters.
        if a.env == Energy::NAME {
            let e = a.env_flags.args::<Energy>(&a.shared).unwrap();
            let p = e.synthetic();
            assert!(p.tasks_per_day <= swftool::env::energy::workload::MAX_TASKS_PER_DAY);
            assert!(p.event_interval_s >= 1.0);
        }
        return;
    }
    let (path, log, w) = kth();
    let input = Input { log, path };
    let refused = |msg: String| assert_names(&msg, flag, value);
    match a.env.as_str() {
        "parallel" => {
            let p = a.env_flags.args::<Parallel>(&a.shared).unwrap();
            let pick = match (&p.shared.days, &p.shared.day) {
                (Some(n), _) => DayPick::Count(*n),
                (None, d) => DayPick::One(d.as_deref()),
            };
            match pick_days(w, pick, p.shared.day_arrivals.unwrap_or_default()) {
                Err(e) => refused(e.to_string()),
                Ok((set, days)) => assert!(days.len() <= set.eligible.len().max(1)),
            }
            if let Err(e) = check_system_size(w, &p.scenario_params()) {
                refused(e.to_string());
            }
        }
        "serial" => {
            let s = a.env_flags.args::<Serial>(&a.shared).unwrap();
            match Serial::scenarios(Some(input), &s) {
                Err(e) => refused(e.to_string()),
                Ok((_, scenarios)) => {
                    for sc in &scenarios {
                        assert!(u64::from(sc.total_cores()) <= 1_000_000);
                    }
                }
            }
        }
        "classic" => {
            let c = a.env_flags.args::<Classic>(&a.shared).unwrap();
            match Classic::scenarios(Some(input), &c) {
                Err(e) => refused(e.to_string()),
                Ok((_, scenarios)) => {
                    assert!(scenarios.iter().all(|s| s.jobs.len() <= log.jobs.len()))
                }
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(cases(256))]

    /// Every numeric flag, arbitrary strings and extreme numbers: no panic,
    /// a refusal that names the flag, and accepted values within bounds.
    #[test]
    fn numeric_flags_are_parsed_checked_and_bounded(
        which in 0..FLAGS.len(),
        value in flag_value(),
        joined in any::<bool>(),
    ) {
        let (flag, target) = FLAGS[which];
        check_flag(flag, target, &value, joined);
    }

    /// `--threads` of `experiment`, `compare` and `aggregate`, and
    /// `--shard`: the bounds hold whatever the parse gave.
    #[test]
    fn threads_and_shards_are_bounded(value in flag_value(), n in any::<usize>()) {
        match swftool::cmd::parse_threads(&value) {
            Ok(t) => prop_assert!(t <= swftool::cmd::MAX_THREADS),
            Err(e) => assert_names(&e, "--threads", &value),
        }
        if n > swftool::cmd::MAX_THREADS {
            let mut ran = false;
            let e = swftool::cmd::with_threads(Some(n), || { ran = true; Ok(()) }).unwrap_err();
            prop_assert!(!ran);
            assert_names(&e.to_string(), "--threads", &n.to_string());
        }
        if let Ok(s) = value.parse::<swftool::experiment::runner::Shard>() {
            prop_assert!(s.count >= 1 && s.index <= s.count);
        }
    }

    /// The window flags of environment D reach these functions as given:
    /// any sum past `usize::MAX` is a window past the end, not a panic.
    #[test]
    fn classic_windows_take_any_bounds(
        start in prop_oneof![0usize..40, any::<usize>(), Just(usize::MAX)],
        window in prop_oneof![0usize..40, any::<usize>(), Just(usize::MAX)],
        extra in prop_oneof![0usize..40, any::<usize>(), Just(usize::MAX)],
    ) {
        let (_, log, _) = kth();
        let args = ClassicArgs::default();
        let machine = args.machine(log).unwrap();
        let jobs = swftool::env::classic::clean::clean(&log.jobs, &machine, &args.clean_options()).0;
        let jobs = &jobs[..30];
        let rule = args.preemption().unwrap();
        if let Some(s) = default_window_start(jobs, window, extra, 100, &rule) {
            prop_assert!(s + window + extra <= jobs.len());
        }
        match build_window(jobs, start, window, extra) {
            Ok(w) => prop_assert_eq!(w.len(), window + extra),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

/// Known refusals of absurd values, one per bound (deterministic).
#[test]
fn absurd_values_are_refused_up_front_naming_the_flag_and_range() {
    let replay = |argv: &[&str]| -> String {
        let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
        match parse::<ReplayArgs>(&argv) {
            Err(e) => e.to_string(),
            Ok(a) => {
                swftool::cmd::error_message(&swftool::cmd::replay::check(&a).expect_err("accepted"))
            }
        }
    };
    let cases: [(&[&str], &[&str]); 7] = [
        (
            &["--env", "serial", "-H", "all", "--trials", "1000000000"],
            &["--trials", "1 to 10000"],
        ),
        (
            &[
                "--env",
                "energy",
                "-H",
                "all",
                "--trials",
                "18446744073709551615",
            ],
            &["--trials", "1 to 10000"],
        ),
        (
            &["--env", "serial", "-H", "all", "--threads", "1000000000"],
            &["--threads", "0 (all cores) to 1024"],
        ),
        (
            &["--env", "energy", "-H", "all", "--tasks-per-day", "1e15"],
            &["--tasks-per-day", "at most 10,000,000"],
        ),
        (
            &[
                "kth-sp2", "--env", "serial", "-H", "maxupt", "--load", "1e-9",
            ],
            &["--load", "at least 0.001"],
        ),
        (
            &["--env", "serial", "-H", "all", "--theta", "1e308"],
            &["--theta", "positive number of minutes"],
        ),
        (
            &["--env", "energy", "-H", "all", "--static-power", "1e6"],
            &["--static-power", "0 to 10000"],
        ),
    ];
    for (argv, says) in cases {
        let msg = replay(argv);
        for s in says {
            assert!(msg.contains(s), "{argv:?}: {msg}");
        }
    }
}

/// A burst size at its maximum gives a bounded workload: bursts grow, so
/// they come rarer (here none in the day), and the task bound holds.
#[test]
fn the_largest_burst_size_gives_a_bounded_workload() {
    use swftool::env::serial::workload::{MAX_TASKS, SyntheticParams, synthetic};
    use swftool::workload::WorkloadError;
    let p = SyntheticParams {
        burst_size: u32::MAX,
        ..SyntheticParams::default()
    };
    match synthetic(&p, 1, u64::MAX) {
        Ok(s) => assert!(s.tasks.len() <= MAX_TASKS),
        Err(e) => assert!(matches!(e, WorkloadError::TooManyTasks { .. }), "{e}"),
    }
}

/// Numbers of `[energy]` that no flag parser sees when they come from a
/// configuration: each out-of-range one is refused naming the key.
#[test]
fn energy_numbers_in_a_config_are_checked_as_their_flags_are() {
    let base = "name = \"x\"\nenvironment = \"energy\"\nheuristics = [\"all\"]\n[energy]\n";
    for (line, says) in [
        ("drop_threshold = nan", "drop_threshold"),
        ("drop_threshold = -1.0", "drop_threshold"),
        ("drop_threshold = inf", "drop_threshold"),
        ("tasks_per_day = 1e15", "--tasks-per-day"),
        ("event_interval = 0.5", "--event-interval"),
        ("static_power = -5.0", "static_power"),
        ("static_power = 1e9", "static_power"),
    ] {
        let text = format!("{base}{line}\n");
        let e = config_from_toml(&text, Path::new(CONFIG))
            .expect_err(line)
            .to_string();
        assert!(e.starts_with("fuzz.toml: key `energy`: "), "{line}: {e}");
        assert!(e.contains(says), "{line}: {e}");
    }
    // θ is a shared key, at the top level.
    let e = config_from_toml(
        "name = \"x\"\nenvironment = \"energy\"\nheuristics = [\"all\"]\ntheta = nan\n",
        Path::new(CONFIG),
    )
    .expect_err("theta = nan")
    .to_string();
    assert!(e.starts_with("fuzz.toml: key `theta`: "), "{e}");
}
