//! Known SWF logs by short name (`curie`, `datastar`, …) and where to find
//! them on disk.
//!
//! The logs are public data from the Parallel Workloads Archive (PWA, Dror
//! Feitelson, Hebrew University) and are never committed to the repository
//! (see `traces/README.md`). File names, hashes and job counts are those of
//! `traces/MANIFEST.md`.
//!
//! [`resolve`] turns what the user typed into a path: an existing file is
//! used as is; otherwise a short name or a file name is looked up in each
//! directory of [`search_path`].
//!
//! [`recognise`] tells which known log a log read from disk is: by its
//! content first (the SHA-256 of its decompressed text, computed while it
//! is read, against [`KnownLog::sha256_raw`]), whatever the file is called
//! and however it is compressed; else by its file name, as before (the
//! content then differs from the catalogue's, and the caller says so).
//! Per-log behaviour (Curie's standard arrival range and the paper's
//! totals beside it) follows the recognition, never the name typed.

use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// Environment variable naming extra trace directories (`:`-separated).
pub const TRACES_ENV: &str = "SWFTOOL_TRACES";

/// Base URL of the Parallel Workloads Archive's log pages.
pub const PWA_BASE: &str = "https://www.cs.huji.ac.il/labs/parallel/workload";

/// A log that swftool knows by a short name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownLog {
    /// Short name used on the command line (matched case-insensitively).
    pub short: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// File name as distributed (`.swf.gz`); the plain `.swf` is accepted too.
    pub file: &'static str,
    /// Where to download it: the PWA archive, or the project that ships it.
    pub url: &'static str,
    /// SHA-256 of the `.swf.gz` file, lowercase hex.
    pub sha256_gz: &'static str,
    /// SHA-256 of the decompressed `.swf` content, lowercase hex.
    pub sha256_raw: &'static str,
    /// Number of jobs (data lines) in the file.
    pub jobs: u64,
    /// One-line description: machine, period, size.
    pub description: &'static str,
}

impl KnownLog {
    /// The file name without `.gz` (the plain `.swf`).
    pub fn plain_file(&self) -> &'static str {
        self.file.strip_suffix(".gz").unwrap_or(self.file)
    }

    /// Whether `name` (case-insensitive) is this log's short name or an alias.
    pub fn is_named(&self, name: &str) -> bool {
        self.short.eq_ignore_ascii_case(name)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    }

    /// How to get the file, in one or two sentences.
    pub fn how_to_get(&self) -> String {
        if self.url.starts_with(PWA_BASE) {
            format!(
                "download {} from the Parallel Workloads Archive: {}",
                self.file, self.url
            )
        } else {
            format!(
                "{} is not a PWA log; it ships with the RLScheduler project \
                 (DIR-LAB/deep-batch-scheduler, data/{}): {} \
                 (use it as is, or compress it with `gzip -9 -n`)",
                self.file,
                self.plain_file(),
                self.url
            )
        }
    }
}

/// Every known log, in display order.
pub const KNOWN_LOGS: &[KnownLog] = &[
    KnownLog {
        short: "curie",
        aliases: &["cea-curie"],
        file: "CEA-Curie-2011-2.1-cln.swf.gz",
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_cea_curie/CEA-Curie-2011-2.1-cln.swf.gz",
        sha256_gz: "2a0fdbd40837590b491bbbac7d4cfe521de1f0b14c0dc39bbf82c4e49ea75bce",
        sha256_raw: "b732a04aea71e2f154c8feee580be549d0bba1462bc91ec581944cb3dd6d442d",
        jobs: 312_826,
        description: "CEA Curie (TGCC, France), Slurm, cleaned log; 93,312 cores",
    },
    KnownLog {
        short: "datastar",
        aliases: &["sdsc-ds"],
        file: "SDSC-DS-2004-2.1-cln.swf.gz",
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_sdsc_ds/SDSC-DS-2004-2.1-cln.swf.gz",
        sha256_gz: "0ddb885a96a7f5ee9009d8a36ef350b1d1c451044c205811938995aac80fcc36",
        sha256_raw: "76814a412fa415e68ffb8cc0ae801c870988e5577e60275588050332f6b1e690",
        jobs: 96_069,
        description: "SDSC DataStar (IBM p655/p690), 2004-2005; 1,664 processors",
    },
    KnownLog {
        short: "sdsc-sp2",
        aliases: &[],
        file: "SDSC-SP2-1998-4.2-cln.swf.gz",
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_sdsc_sp2/SDSC-SP2-1998-4.2-cln.swf.gz",
        sha256_gz: "e03fe48be50c4ab04d6bb2285296d9c3399e9c1f27ee79b754ad32a14abd9bac",
        sha256_raw: "2bb635f4b5793f52bd49ccb8fd913d95f9c5be6346925162cadcaf0117e28cf2",
        jobs: 59_715,
        description: "SDSC SP2 (IBM SP2 at the San Diego Supercomputer Center), 1998-2000; 128 processors",
    },
    KnownLog {
        short: "hpc2n",
        aliases: &[],
        file: "HPC2N-2002-2.2-cln.swf.gz",
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_hpc2n/HPC2N-2002-2.2-cln.swf.gz",
        sha256_gz: "3c534857d6065cfd9cc35aac8d064c9c17172be7acf336de835006f43a626e64",
        sha256_raw: "77b8993c73ae438385f6c0015708251f52dc316267b03ac19a406fbea2802afa",
        jobs: 202_871,
        description: "HPC2N Seth Linux cluster (Sweden), MAUI, 2002-2006; 240 processors",
    },
    KnownLog {
        short: "ctc-sp2",
        aliases: &[],
        file: "CTC-SP2-1996-3.1-cln.swf.gz",
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_ctc_sp2/CTC-SP2-1996-3.1-cln.swf.gz",
        sha256_gz: "9fa28ac16c4386fb81b72a91d8bd8888281df2948a9d912769d387c5ee285bb4",
        sha256_raw: "8e33a9b597e1ddda2d2164347bac08c9444e1a2620a7947df52f0a1622ec4cde",
        jobs: 77_222,
        description: "Cornell Theory Center IBM SP2, EASY, 1996-1997; 338 processors",
    },
    KnownLog {
        short: "kth-sp2",
        aliases: &[],
        file: "KTH-SP2-1996-2.1-cln.swf.gz",
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_kth_sp2/KTH-SP2-1996-2.1-cln.swf.gz",
        sha256_gz: "3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b",
        sha256_raw: "fba36494c4e4257f72182e8b629ebb0bcb054b3b82851ef957445bd627adcc87",
        jobs: 28_476,
        description: "KTH IBM SP2 (Sweden), EASY, 1996-1997; 100 processors",
    },
    KnownLog {
        short: "lublin256",
        aliases: &["lublin", "lublin_256"],
        file: "lublin_256.swf.gz",
        url: "https://raw.githubusercontent.com/DIR-LAB/deep-batch-scheduler/cd433e3d62a01705f255bd48cb55b393862800e7/data/lublin_256.swf",
        sha256_gz: "ba3ee5b59b5bd8dfd369da283bab7b9f968b57fb5e77684eda4e46cfa58694c3",
        sha256_raw: "a394ab3d81179ebcf645a1cbd593a60b6dff7f11a510e1e6285c45f43310c962",
        jobs: 10_000,
        description: "synthetic Lublin-Feitelson model log, 256 nodes (not a PWA production log)",
    },
];

/// Looks a log up by short name or alias (case-insensitive), or by its file
/// name (`.swf.gz` or plain `.swf`, any directory prefix ignored).
pub fn find(name: &str) -> Option<&'static KnownLog> {
    let file_name = Path::new(name)
        .file_name()
        .and_then(|f| f.to_str())
        .unwrap_or(name);
    KNOWN_LOGS.iter().find(|k| {
        k.is_named(name)
            || k.file.eq_ignore_ascii_case(file_name)
            || k.plain_file().eq_ignore_ascii_case(file_name)
    })
}

/// The known log whose decompressed text has SHA-256 `sha256` (lowercase
/// hex, as [`crate::swf::SwfLog::sha256`]).
pub fn by_content(sha256: &str) -> Option<&'static KnownLog> {
    KNOWN_LOGS
        .iter()
        .find(|k| k.sha256_raw.eq_ignore_ascii_case(sha256))
}

/// How a log was recognised as a known one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecognisedBy {
    /// Its decompressed text has the catalogue's SHA-256: it is that log,
    /// whatever its name.
    Content,
    /// Only its file name is the catalogue's: its content is not (edited,
    /// cut, converted) or was not hashed (a log built in memory).
    Name,
}

/// A log recognised as a known one ([`recognise`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recognition {
    /// The catalogue entry.
    pub known: &'static KnownLog,
    /// By what.
    pub by: RecognisedBy,
}

impl Recognition {
    /// Whether this is the known log with short name `short`.
    pub fn is(&self, short: &str) -> bool {
        self.known.short == short
    }
}

impl fmt::Display for Recognition {
    /// `recognised as curie by content`, or `taken as curie by its file
    /// name (its content is not the catalogue's)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.by {
            RecognisedBy::Content => write!(f, "recognised as {} by content", self.known.short),
            RecognisedBy::Name => write!(
                f,
                "taken as {} by its file name (its content is not the catalogue's)",
                self.known.short
            ),
        }
    }
}

/// Which known log `log` is: by content (its [`SwfLog::sha256`] is a
/// catalogue entry's [`KnownLog::sha256_raw`]), else by its file name
/// ([`find`] on [`SwfLog::name`]), else none.
///
/// [`SwfLog::sha256`]: crate::swf::SwfLog::sha256
/// [`SwfLog::name`]: crate::swf::SwfLog::name
pub fn recognise(log: &crate::swf::SwfLog) -> Option<Recognition> {
    if let Some(known) = log.sha256.as_deref().and_then(by_content) {
        return Some(Recognition {
            known,
            by: RecognisedBy::Content,
        });
    }
    find(&log.name).map(|known| Recognition {
        known,
        by: RecognisedBy::Name,
    })
}

/// The directories searched for logs, in order: each directory of
/// `$SWFTOOL_TRACES` (`:`-separated; empty entries ignored), then
/// `./traces`, then `../shared/traces` (both relative to the working
/// directory), then the user cache directory ([`cache_dir`], where
/// `swftool fetch` puts logs when no other is writable). A directory that
/// does not exist holds nothing, and a missing log's message says so.
pub fn search_path() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os(TRACES_ENV)
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default();
    dirs.push(PathBuf::from("traces"));
    dirs.push(PathBuf::from("../shared/traces"));
    dirs.extend(cache_dir());
    dirs
}

/// The user cache directory `swftool fetch` falls back to when no trace
/// directory is writable: `$XDG_CACHE_HOME/swftool/traces`, else
/// `~/.cache/swftool/traces`; searched last ([`search_path`]).
pub fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".cache"))
        })?;
    Some(base.join("swftool").join("traces"))
}

/// Why a log could not be found.
#[derive(Debug, Error)]
pub enum CatalogError {
    /// The log given is a directory.
    #[error(
        "{log} is a directory; expected an SWF log: a .swf or .swf.gz file, or a short name ({})",
        KNOWN_LOGS.iter().map(|k| k.short).collect::<Vec<_>>().join(", ")
    )]
    Directory {
        /// What the user asked for.
        log: String,
    },
    /// A known log, or a file name, that is in none of the searched directories.
    #[error("{}", not_found_message(.log, .tried, .searched, *.known))]
    NotFound {
        /// What the user asked for.
        log: String,
        /// The file names tried in each directory.
        tried: Vec<String>,
        /// Every directory looked in, in order.
        searched: Vec<PathBuf>,
        /// The catalog entry, when the log is a known one.
        known: Option<&'static KnownLog>,
    },
    /// Neither an existing file, nor a known short name, nor a file in the
    /// searched directories.
    #[error("{}", unknown_message(.name, .searched))]
    UnknownName {
        /// What the user asked for.
        name: String,
        /// Every directory looked in, in order.
        searched: Vec<PathBuf>,
    },
}

/// Every directory of `searched` on a line of its own, in order, those
/// that do not exist said so.
fn write_dirs(out: &mut String, searched: &[PathBuf]) {
    use std::fmt::Write as _;
    for d in searched {
        let absent = if d.is_dir() { "" } else { " (does not exist)" };
        let _ = write!(out, "\n  {}{absent}", d.display());
    }
}

/// Where to put a log that is not a known one so that it is found.
fn where_to_put() -> String {
    format!(
        "put the file in ./traces or point {TRACES_ENV} at its directory (see traces/README.md)"
    )
}

fn not_found_message(
    log: &str,
    tried: &[String],
    searched: &[PathBuf],
    known: Option<&KnownLog>,
) -> String {
    let mut s = match known {
        Some(k) if k.is_named(log) => format!("log {log} ({}) not found", k.file),
        Some(k) => format!("log file {log} ({}) not found", k.short),
        None => format!("log file {log} not found"),
    };
    if searched.is_empty() {
        s.push_str(" (no such file)");
    } else {
        s.push_str(&format!("; looked for {} in:", tried.join(", ")));
        write_dirs(&mut s, searched);
    }
    if let Some(k) = known {
        s.push_str(&format!(
            "\nto get it: `swftool fetch {}` (downloads it and checks its SHA-256), or {}\nput it in ./traces (or point {TRACES_ENV} at its directory) and check \
             `sha256sum {}` = {} (see traces/README.md)",
            k.short,
            k.how_to_get(),
            k.file,
            k.sha256_gz
        ));
    } else if !searched.is_empty() {
        // A bare file name was searched for; a path with a folder is
        // simply not there, and where logs are looked for does not apply.
        s.push('\n');
        s.push_str(&where_to_put());
    }
    s
}

fn unknown_message(name: &str, searched: &[PathBuf]) -> String {
    let known: Vec<&str> = KNOWN_LOGS.iter().map(|k| k.short).collect();
    let lower = name.to_ascii_lowercase();
    let close = KNOWN_LOGS
        .iter()
        .flat_map(|k| {
            std::iter::once(k.short)
                .chain(k.aliases.iter().copied())
                .map(move |n| (k.short, n))
        })
        .map(|(short, n)| (strsim::damerau_levenshtein(&lower, n), short))
        .filter(|(d, _)| *d <= 2)
        .min();
    let mut s = format!(
        "unknown log {name:?}: not an existing file and not a known short name{} (known: {})",
        close.map_or(String::new(), |(_, short)| format!(
            "; did you mean {short}?"
        )),
        known.join(", ")
    );
    if !searched.is_empty() {
        s.push_str(&format!("; no {name}, {name}.swf.gz or {name}.swf in:"));
        write_dirs(&mut s, searched);
        s.push('\n');
        s.push_str(&where_to_put());
    }
    s
}

/// Resolves a log given on the command line to a path, searching
/// [`search_path`]. See [`resolve_in`].
///
/// # Errors
/// [`CatalogError::NotFound`] (with every directory looked in and how to get
/// the file) or [`CatalogError::UnknownName`] (with the known names).
pub fn resolve(log: &str) -> Result<PathBuf, CatalogError> {
    resolve_in(log, &search_path())
}

/// Resolves `log` against the given directories:
///
/// 1. an existing file path is returned as is;
/// 2. a known short name (case-insensitive) or file name is looked for in
///    each directory, first as `.swf.gz` then as plain `.swf`;
/// 3. any other name is looked for as given, then with `.swf.gz` and `.swf`
///    appended (or with `.gz` added/removed when it already ends in
///    `.swf`/`.swf.gz`).
///
/// # Errors
/// As [`resolve`].
pub fn resolve_in(log: &str, dirs: &[PathBuf]) -> Result<PathBuf, CatalogError> {
    let given = Path::new(log);
    if given.is_file() {
        return Ok(given.to_path_buf());
    }
    if given.is_dir() {
        return Err(CatalogError::Directory {
            log: log.to_string(),
        });
    }
    let known = find(log);
    let has_dir = given.components().count() > 1;
    let searched: Vec<PathBuf> = if has_dir { Vec::new() } else { dirs.to_vec() };
    let tried: Vec<String> = match known {
        Some(k) => vec![k.file.to_string(), k.plain_file().to_string()],
        None => {
            let lower = log.to_ascii_lowercase();
            if let Some(stem) = log
                .strip_suffix(".gz")
                .filter(|_| lower.ends_with(".swf.gz"))
            {
                vec![log.to_string(), stem.to_string()]
            } else if lower.ends_with(".swf") {
                vec![log.to_string(), format!("{log}.gz")]
            } else {
                vec![
                    log.to_string(),
                    format!("{log}.swf.gz"),
                    format!("{log}.swf"),
                ]
            }
        }
    };
    for dir in &searched {
        for name in &tried {
            let p = dir.join(name);
            if p.is_file() {
                return Ok(p);
            }
        }
    }
    let looks_like_file = has_dir
        || log.to_ascii_lowercase().ends_with(".swf")
        || log.to_ascii_lowercase().ends_with(".gz");
    if known.is_some() || looks_like_file {
        Err(CatalogError::NotFound {
            log: log.to_string(),
            tried,
            searched,
            known,
        })
    } else {
        Err(CatalogError::UnknownName {
            name: log.to_string(),
            searched,
        })
    }
}

impl fmt::Display for KnownLog {
    /// `curie  CEA-Curie-2011-2.1-cln.swf.gz  312826 jobs  <description>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:<10} {:<31} {:>7} jobs  {}",
            self.short, self.file, self.jobs, self.description
        )
    }
}

/// The key of a log in cell ids and tables: the catalog's short name for a
/// known log, else the file name without `.gz`/`.swf`, with characters other
/// than ASCII letters, digits, `.` and `-` replaced by `-`. A path and its
/// file name give the same key.
pub fn log_key(spec: &str) -> String {
    if let Some(k) = find(spec) {
        return k.short.to_string();
    }
    let file = Path::new(spec)
        .file_name()
        .and_then(|f| f.to_str())
        .unwrap_or(spec);
    let stem = file.strip_suffix(".gz").unwrap_or(file);
    let stem = stem.strip_suffix(".swf").unwrap_or(stem);
    stem.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn find_accepts_short_names_aliases_and_file_names() {
        assert_eq!(find("Curie").unwrap().file, "CEA-Curie-2011-2.1-cln.swf.gz");
        assert_eq!(find("sdsc-ds").unwrap().short, "datastar");
        assert_eq!(find("SDSC-DS-2004-2.1-cln.swf").unwrap().short, "datastar");
        assert_eq!(find("x/lublin_256.swf.gz").unwrap().short, "lublin256");
        assert!(find("nope").is_none());
    }

    #[test]
    fn resolve_searches_dirs_in_order_and_accepts_plain_swf() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        fs::write(b.path().join("KTH-SP2-1996-2.1-cln.swf"), "").unwrap();
        fs::write(b.path().join("mine.swf.gz"), "").unwrap();
        let dirs = vec![a.path().to_path_buf(), b.path().to_path_buf()];
        assert_eq!(
            resolve_in("KTH-sp2", &dirs).unwrap(),
            b.path().join("KTH-SP2-1996-2.1-cln.swf")
        );
        assert_eq!(
            resolve_in("mine", &dirs).unwrap(),
            b.path().join("mine.swf.gz")
        );
        fs::write(a.path().join("KTH-SP2-1996-2.1-cln.swf.gz"), "").unwrap();
        assert_eq!(
            resolve_in("kth-sp2", &dirs).unwrap(),
            a.path().join("KTH-SP2-1996-2.1-cln.swf.gz")
        );
        let existing = b.path().join("mine.swf.gz");
        assert_eq!(
            resolve_in(existing.to_str().unwrap(), &[]).unwrap(),
            existing
        );
    }

    #[test]
    fn not_found_lists_dirs_and_how_to_get_the_file() {
        let a = tempfile::tempdir().unwrap();
        let err = resolve_in("curie", &[a.path().to_path_buf()]).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, CatalogError::NotFound { .. }));
        assert!(msg.contains(&a.path().display().to_string()), "{msg}");
        assert!(
            msg.contains("l_cea_curie/CEA-Curie-2011-2.1-cln.swf.gz"),
            "{msg}"
        );
        assert!(msg.contains("traces/README.md"), "{msg}");
        let msg = resolve_in("lublin256", &[]).unwrap_err().to_string();
        assert!(msg.contains("RLScheduler"), "{msg}");
    }

    #[test]
    fn a_directory_is_named_as_one() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().display().to_string();
        let err = resolve_in(&log, &[]).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "{log} is a directory; expected an SWF log: a .swf or .swf.gz file, or a short name (curie, datastar, sdsc-sp2, hpc2n, ctc-sp2, kth-sp2, lublin256)"
            )
        );
    }

    const NOT_KNOWN: &str = "; MaxProcs: 4\n1 0 1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1\n2 5 0 3 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n";

    fn read(text: &str, name: &str) -> crate::swf::SwfLog {
        crate::swf::read_from(
            std::io::Cursor::new(text),
            name,
            &crate::swf::ReadOptions::default(),
        )
        .unwrap()
    }

    #[test]
    fn a_log_whose_content_is_not_known_is_not_recognised() {
        let log = read(NOT_KNOWN, "curie.swf");
        assert!(by_content(log.sha256.as_deref().unwrap()).is_none());
        assert_eq!(recognise(&log), None);
        // Neither does a known header make it known.
        let header = format!("; Computer: Bull bullx\n; Installation: CEA Curie\n{NOT_KNOWN}");
        assert_eq!(recognise(&read(&header, "mylog.swf")), None);
        // A log built in memory has no digest and is known by name only.
        let built = crate::swf::SwfLog {
            name: "x/CEA-Curie-2011-2.1-cln.swf".into(),
            ..crate::swf::SwfLog::default()
        };
        assert_eq!(recognise(&built).map(|r| r.by), Some(RecognisedBy::Name));
    }

    #[test]
    fn a_known_file_name_with_other_content_is_taken_by_name_and_says_so() {
        let r = recognise(&read(NOT_KNOWN, "CEA-Curie-2011-2.1-cln.swf")).unwrap();
        assert_eq!((r.known.short, r.by), ("curie", RecognisedBy::Name));
        assert_eq!(
            r.to_string(),
            "taken as curie by its file name (its content is not the catalogue's)"
        );
    }

    #[test]
    fn content_is_recognised_by_the_digest_of_the_text_whatever_the_name() {
        use sha2::{Digest, Sha256};
        let mut log = read(NOT_KNOWN, "anything.dat");
        let digest: String = Sha256::digest(NOT_KNOWN.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(log.sha256.as_deref(), Some(digest.as_str()));
        // Pretend the catalogue's Curie digest was read.
        log.sha256 = Some(KNOWN_LOGS[0].sha256_raw.to_uppercase());
        let r = recognise(&log).unwrap();
        assert_eq!((r.known.short, r.by), ("curie", RecognisedBy::Content));
        assert!(r.is("curie"));
        assert_eq!(r.to_string(), "recognised as curie by content");
        for k in KNOWN_LOGS {
            assert_eq!(by_content(k.sha256_raw), Some(k));
            assert!(by_content(k.sha256_gz).is_none(), "{}", k.short);
        }
    }

    #[test]
    fn a_missing_log_names_every_directory_searched() {
        let here = tempfile::tempdir().unwrap();
        let there = here.path().join("absent");
        let dirs = vec![here.path().to_path_buf(), there.clone()];
        for log in ["curie", "nosuchlog", "mine.swf"] {
            let msg = resolve_in(log, &dirs).unwrap_err().to_string();
            let lines: Vec<&str> = msg.lines().collect();
            assert!(
                lines.contains(&format!("  {}", here.path().display()).as_str()),
                "{log}: {msg}"
            );
            assert!(
                lines.contains(&format!("  {} (does not exist)", there.display()).as_str()),
                "{log}: {msg}"
            );
            assert!(msg.contains(TRACES_ENV), "{log}: {msg}");
        }
        let every = search_path();
        assert!(every.contains(&PathBuf::from("traces")));
        assert!(every.contains(&PathBuf::from("../shared/traces")));
        if let Some(cache) = cache_dir() {
            assert_eq!(
                every.last(),
                Some(&cache),
                "the cache is searched, last, even before it exists"
            );
        }
    }

    #[test]
    fn unknown_name_lists_known_names() {
        let err = resolve_in("nosuchlog", &[]).unwrap_err();
        assert!(matches!(err, CatalogError::UnknownName { .. }));
        let msg = err.to_string();
        for k in KNOWN_LOGS {
            assert!(msg.contains(k.short), "{msg}");
        }
    }
}
