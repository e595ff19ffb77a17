//! Every log in `../shared/traces` parses in strict mode with the job counts
//! and header values recorded in traces/MANIFEST.md.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use swftool::catalog;
use swftool::swf::{HeaderValue, ReadOptions, SwfLog, read_log};

const TRACES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/traces");

/// Expected figures of one log (traces/MANIFEST.md).
struct Expected {
    file: &'static str,
    jobs: usize,
    /// MaxProcs: leading number and trailing text.
    max_procs: Option<(i64, &'static str)>,
    /// MaxNodes: leading number and trailing text.
    max_nodes: Option<(i64, &'static str)>,
    unix_start_time: Option<i64>,
}

const EXPECTED: &[Expected] = &[
    Expected {
        file: "CEA-Curie-2011-2.1-cln.swf.gz",
        jobs: 312_826,
        max_procs: Some((93312, "")),
        max_nodes: Some((5544, "")),
        unix_start_time: Some(1_296_571_124),
    },
    Expected {
        file: "SDSC-DS-2004-2.1-cln.swf.gz",
        jobs: 96_069,
        max_procs: Some((1664, "(72, 1368, 224)")),
        max_nodes: Some((184, "( 6,  171,   7)")),
        unix_start_time: Some(1_078_605_840),
    },
    Expected {
        file: "SDSC-SP2-1998-4.2-cln.swf.gz",
        jobs: 59_715,
        max_procs: Some((128, "")),
        max_nodes: Some((128, "")),
        unix_start_time: Some(893_466_664),
    },
    Expected {
        file: "HPC2N-2002-2.2-cln.swf.gz",
        jobs: 202_871,
        max_procs: Some((240, "")),
        max_nodes: Some((240, "")),
        unix_start_time: Some(1_027_839_845),
    },
    Expected {
        file: "CTC-SP2-1996-3.1-cln.swf.gz",
        jobs: 77_222,
        max_procs: Some((338, "")),
        max_nodes: Some((338, "(batch partition; 512 total)")),
        unix_start_time: Some(835_823_160),
    },
    Expected {
        file: "KTH-SP2-1996-2.1-cln.swf.gz",
        jobs: 28_476,
        max_procs: Some((100, "")),
        max_nodes: Some((100, "")),
        unix_start_time: Some(843_480_031),
    },
    Expected {
        file: "lublin_256.swf.gz",
        jobs: 10_000,
        max_procs: None,
        max_nodes: Some((256, "")),
        unix_start_time: None,
    },
];

fn path(file: &str) -> PathBuf {
    Path::new(TRACES).join(file)
}

fn number_and_text(v: &Option<HeaderValue>) -> Option<(i64, &str)> {
    v.as_ref()
        .map(|v| (v.number.unwrap_or(i64::MIN), v.text.as_str()))
}

/// Reads a log strictly and checks it against its [`Expected`] entry.
fn check(file: &str) -> SwfLog {
    let e = EXPECTED.iter().find(|e| e.file == file).unwrap();
    let log = match read_log(&path(file), &ReadOptions::default()) {
        Ok(log) => log,
        Err(err) => panic!("{file} must parse in strict mode: {err}"),
    };
    assert_eq!(log.name, file);
    assert_eq!(log.jobs.len(), e.jobs, "{file}: job count");
    assert_eq!(
        number_and_text(&log.header.max_procs),
        e.max_procs,
        "{file}: MaxProcs"
    );
    assert_eq!(
        number_and_text(&log.header.max_nodes),
        e.max_nodes,
        "{file}: MaxNodes"
    );
    assert_eq!(
        log.header.unix_start_time(),
        e.unix_start_time,
        "{file}: UnixStartTime"
    );
    assert_eq!(log.blank_lines, 0, "{file}: blank lines");
    assert!(
        log.skipped.is_empty(),
        "{file}: nothing skipped in strict mode"
    );
    // Submit times never decrease down the file (PWA SWF v2.2).
    assert!(
        log.jobs
            .windows(2)
            .all(|w| w[0].submit_time <= w[1].submit_time),
        "{file}: submit times sorted"
    );
    log
}

#[test]
fn every_log_in_shared_traces_is_covered() {
    let found: BTreeSet<String> = std::fs::read_dir(TRACES)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".swf") || n.ends_with(".swf.gz"))
        .collect();
    let expected: BTreeSet<String> = EXPECTED.iter().map(|e| e.file.to_string()).collect();
    assert_eq!(found, expected);
}

#[test]
fn catalog_agrees_with_the_real_logs() {
    for e in EXPECTED {
        let known = catalog::find(e.file).unwrap();
        assert_eq!(known.jobs, e.jobs as u64, "{}", e.file);
        let found = catalog::resolve_in(known.short, &[PathBuf::from(TRACES)]).unwrap();
        assert_eq!(found, path(e.file));
    }
    assert_eq!(catalog::KNOWN_LOGS.len(), EXPECTED.len());
}

/// The biggest log (312,826 jobs, ~30 MB of text); a few seconds in a debug build.
#[test]
fn curie_parses_strictly_with_its_three_int32_max_requested_times() {
    let log = check("CEA-Curie-2011-2.1-cln.swf.gz");
    let unlimited = log
        .jobs
        .iter()
        .filter(|j| j.requested_time == 2_147_483_647.0)
        .count();
    assert_eq!(unlimited, 3);
    let h = &log.header;
    assert_eq!(h.computer, None);
    assert_eq!(h.time_zone_string(), Some("Europe/Paris"));
    assert_eq!(h.version.as_ref().unwrap().as_f64(), Some(2.2));
    assert_eq!(h.queue_list, vec![(1, String::new())]);
    assert_eq!(h.partition_list.len(), 33);
    assert_eq!(h.partition_list[18], (19, "`;".to_string()));
    assert_eq!(h.free_text, vec!["--- SWF file converted from SACCT ---"]);
    assert_eq!(log.jobs.first().unwrap().job_number, 272_393);
    assert_eq!(log.jobs.last().unwrap().job_number, 773_138);
}

#[test]
fn sdsc_ds_keeps_fractional_cpu_time() {
    let log = check("SDSC-DS-2004-2.1-cln.swf.gz");
    let job21 = log.jobs.iter().find(|j| j.job_number == 21).unwrap();
    assert_eq!(job21.average_cpu_time, 969.56);
    assert_eq!(log.header.queue_list.len(), 21);
    assert_eq!(log.header.queue_list[0], (0, "interactive".to_string()));
    assert!(
        log.header
            .other
            .iter()
            .any(|(k, v)| k == "Copyright" && v.contains("San Diego Supercomputer Center"))
    );
}

#[test]
fn sdsc_sp2_parses() {
    check("SDSC-SP2-1998-4.2-cln.swf.gz");
}

#[test]
fn hpc2n_parses() {
    check("HPC2N-2002-2.2-cln.swf.gz");
}

#[test]
fn ctc_sp2_parses() {
    let log = check("CTC-SP2-1996-3.1-cln.swf.gz");
    assert_eq!(
        log.header.queues.as_ref().unwrap().raw,
        "these are actually LoadLeveler classes"
    );
    assert_eq!(log.header.information.len(), 2);
}

#[test]
fn kth_sp2_parses() {
    check("KTH-SP2-1996-2.1-cln.swf.gz");
}

#[test]
fn lublin_256_parses_without_maxprocs_or_start_time() {
    let log = check("lublin_256.swf.gz");
    assert_eq!(log.header.version.as_ref().unwrap().number, Some(2));
    assert_eq!(log.header.time_zone_string(), None);
    assert!(log.jobs.iter().all(|j| j.queue_number == 0));
}
