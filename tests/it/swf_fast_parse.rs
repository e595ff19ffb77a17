//! The one-pass parser of integer job lines against the nom parsers: the
//! same record or the same error, on every line of every real log and on
//! generated lines built to sit on each of its edges (signs, 2^53 s,
//! 32-bit processors, 64-bit overflow, fractions, exponents, stray bytes,
//! every separator, too few or too many fields).

use std::io::{BufRead, BufReader};

use flate2::bufread::MultiGzDecoder;
use proptest::prelude::*;
use swftool::swf::parser::{job_line, nom_job_line};

use crate::common::traces_dir;

#[test]
fn every_line_of_every_real_log_parses_as_the_nom_parsers_parse_it() {
    let mut files: Vec<_> = std::fs::read_dir(traces_dir())
        .expect("the traces")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "gz"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 7, "{files:?}");
    let mut lines = 0usize;
    for path in &files {
        let file = std::fs::File::open(path).expect("a trace");
        let text = BufReader::new(MultiGzDecoder::new(BufReader::new(file)));
        for line in text.split(b'\n') {
            let line = line.expect("a line");
            if line.first() == Some(&b';') {
                continue;
            }
            assert_eq!(
                job_line(&line),
                nom_job_line(&line),
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&line)
            );
            lines += 1;
        }
    }
    // The job counts of traces/MANIFEST.md.
    assert_eq!(lines, 787_179);
}

/// A token on an edge of the fast path or past it.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        19 => (-5i64..100_000).prop_map(|v| v.to_string()),
        // Every length of digits, 1 to 20, either sign.
        2 => (any::<u64>(), 0u32..20, any::<bool>()).prop_map(|(v, digits, negative)| {
            let v = v % 10u64.pow(digits).max(1) + u64::from(digits > 0) * 10u64.pow(digits.saturating_sub(1));
            format!("{}{v}", if negative { "-" } else { "" })
        }),
        1 => prop::sample::select(vec![
            "-1", "+7", "-0", "+0", "0", "00012", "-", "+", "+-3", "--1", "1.5", "-0.25",
            "5.", ".5", "1e3", "inf", "NaN", "x", "12a", "9007199254740991",
            "9007199254740992", "-9007199254740991", "-9007199254740992", "4294967295",
            "4294967296", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "-9223372036854775809", "99999999999999999999",
            "١٢", "1\u{a0}", "\u{0}",
        ])
        .prop_map(str::to_string),
    ]
}

fn separator() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![" ", "\t", "\r", "\x0b", "\x0c"]),
        1..3,
    )
    .prop_map(|s| s.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Generated lines of 18 tokens (16 to 20 in a quarter of them), most
    /// of every token an integer: the same record or error.
    #[test]
    fn generated_lines_parse_as_the_nom_parsers_parse_them(
        tokens in prop_oneof![
            3 => prop::collection::vec((token(), separator()), 18..=18),
            1 => prop::collection::vec((token(), separator()), 16..=20),
        ],
        lead in prop::option::of(separator()),
        tail in prop::option::of(separator()),
    ) {
        let mut line = lead.unwrap_or_default();
        for (i, (t, s)) in tokens.iter().enumerate() {
            line.push_str(t);
            if i + 1 < tokens.len() {
                line.push_str(s);
            }
        }
        line.push_str(&tail.unwrap_or_default());
        prop_assert_eq!(job_line(line.as_bytes()), nom_job_line(line.as_bytes()), "{:?}", line);
    }
}
