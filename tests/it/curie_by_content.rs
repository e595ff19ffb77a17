//! The main job under another name: Curie decompressed and saved as
//! `mylog.swf` (and the shipped gzip copied as `curie-copy.gz`) is
//! recognised as Curie by its content, so `replay --heuristic maxvpr-ph`
//! picks the same standard day with the paper's arrival range and earns the
//! same value as `replay curie`; the log line says so and the manifest
//! records the digest.

use crate::common;

use std::io::Read;
use std::path::Path;

use common::{swftool_command, traces_dir};
use swftool::catalog;

const CURIE_GZ: &str = "CEA-Curie-2011-2.1-cln.swf.gz";

/// `replay LOG --heuristic maxvpr-ph --out OUT`: stdout and the manifest.
fn replay(log: &str, out: &Path) -> (String, serde_json::Value) {
    let o = swftool_command(&[
        "replay",
        log,
        "--heuristic",
        "maxvpr-ph",
        "--out",
        out.to_str().unwrap(),
    ])
    .output()
    .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{log}: {}\n{stdout}",
        String::from_utf8_lossy(&o.stderr)
    );
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    (stdout, serde_json::from_str(&manifest).unwrap())
}

/// The printed result row of the day without its wall-time columns:
/// date, heuristic, value, bound, % bound, counted, completed, dropped,
/// unfinished, events.
fn result_row(stdout: &str) -> Vec<String> {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("2012-") && l.contains("maxvpr-ph"))
        .unwrap_or_else(|| panic!("no result row:\n{stdout}"));
    line.split_whitespace().take(10).map(String::from).collect()
}

fn day_lines(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("day "))
        .take(2)
        .collect()
}

#[test]
fn curie_under_another_name_is_replayed_as_curie() {
    let dir = tempfile::tempdir().unwrap();
    let gz = traces_dir().join(CURIE_GZ);
    // Decompressed under a name the catalogue does not know.
    let plain = dir.path().join("mylog.swf");
    let mut text = Vec::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(&gz).unwrap())
        .read_to_end(&mut text)
        .unwrap();
    std::fs::write(&plain, &text).unwrap();
    drop(text);
    // Still compressed, under another name.
    let copy = dir.path().join("curie-copy.gz");
    std::fs::copy(&gz, &copy).unwrap();

    let curie = catalog::find("curie").unwrap();
    let (by_name, m) = replay("curie", &dir.path().join("by-name"));
    assert!(
        by_name.contains(&format!(
            "log      {CURIE_GZ}, recognised as curie by content ("
        )),
        "{by_name}"
    );
    assert_eq!(m["log_sha256"][0], curie.sha256_raw);

    for (log, name) in [(&plain, "mylog.swf"), (&copy, "curie-copy.gz")] {
        let out = dir.path().join(format!("out-{name}"));
        let (stdout, m) = replay(log.to_str().unwrap(), &out);
        assert!(
            stdout.contains(&format!(
                "log      {name}, recognised as curie by content ("
            )),
            "{stdout}"
        );
        assert_eq!(day_lines(&stdout), day_lines(&by_name), "{stdout}");
        assert!(stdout.contains("day      2012-07-09 "), "{stdout}");
        assert!(
            stdout.contains(
                "standard day 24 of 48; the standard days are taken from the 124 candidate days with 897–2904 arrivals (the paper's range for Curie"
            ),
            "{stdout}"
        );
        let row = result_row(&stdout);
        assert_eq!(row, result_row(&by_name));
        assert_eq!((row[0].as_str(), row[8].as_str()), ("2012-07-09", "77.67"));
        assert_eq!(m["log_sha256"][0], curie.sha256_raw);
        assert_eq!(m["log_paths"][0], log.display().to_string());
        // The manifest's day-set record carries the paper's totals.
        assert!(
            m["layout"]["logs"][0]["day_set"]["paper"].is_object(),
            "{m}"
        );
    }
}
