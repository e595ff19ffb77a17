//! `swftool fetch LOG…`: downloads known logs (traces/MANIFEST.md, the
//! catalog) from the Parallel Workloads Archive (or the project that ships
//! them), with a progress bar, checks each file's SHA-256 against the
//! catalog, and puts it into the first writable trace directory (else the
//! user cache directory, which the search path also reads). A transfer
//! that fails, stops early or gives other bytes leaves nothing behind: the
//! file is written under a hidden temporary name and renamed only once its
//! hash is right (`crate::atomic`).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use clap::Args;
use sha2::{Digest, Sha256};

use crate::catalog::{self, KNOWN_LOGS, KnownLog};
use crate::swf::reader::hex;

/// The environment variable that replaces the download addresses' base
/// (the file name is appended): a mirror, or a test server.
pub const BASE_ENV: &str = "SWFTOOL_FETCH_BASE";

/// Download known logs into a trace directory, checking their SHA-256.
#[derive(Debug, Clone, Args)]
pub struct FetchArgs {
    /// Short names of known logs (curie, datastar, sdsc-sp2, hpc2n,
    /// ctc-sp2, kth-sp2, lublin256), or `all`.
    #[arg(value_name = "LOG", required = true, num_args = 1..)]
    pub logs: Vec<String>,
    /// Directory to put them in [default: the first writable trace
    /// directory ($SWFTOOL_TRACES, ./traces, ../shared/traces), else the
    /// user cache directory].
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Whether `dir` exists and a file can be created in it.
fn writable(dir: &Path) -> bool {
    if !dir.is_dir() {
        return false;
    }
    let probe = dir.join(".swftool-write-probe");
    let ok = std::fs::File::create(&probe).is_ok();
    let _ = std::fs::remove_file(&probe);
    ok
}

/// Where fetched logs go: `--dir`, else the first writable trace directory,
/// else the user cache directory (created).
fn destination(given: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(d) = given {
        std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
        return Ok(d.to_path_buf());
    }
    let dirs = catalog::search_path();
    if let Some(d) = dirs.iter().find(|d| writable(d)) {
        return Ok(d.clone());
    }
    let Some(cache) = catalog::cache_dir() else {
        bail!(
            "no writable trace directory ({}) and no home directory for a cache: give --dir",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    std::fs::create_dir_all(&cache).with_context(|| format!("creating {}", cache.display()))?;
    Ok(cache)
}

/// The file a log is saved as and the hash it must have: the `.swf.gz`
/// checked against the catalog's compressed hash, or — for a log shipped
/// plain (lublin256) — the plain `.swf` against its content hash.
fn target(k: &KnownLog, url: &str) -> (&'static str, &'static str) {
    if url.ends_with(".gz") {
        (k.file, k.sha256_gz)
    } else {
        (k.plain_file(), k.sha256_raw)
    }
}

/// Runs `swftool fetch`.
///
/// # Errors
/// An unknown name; a download that fails, stops early or has another
/// hash (nothing is left behind); a directory that cannot be written.
pub fn run(args: &FetchArgs) -> anyhow::Result<()> {
    let mut logs: Vec<&'static KnownLog> = Vec::new();
    for name in &args.logs {
        if name.eq_ignore_ascii_case("all") {
            logs.extend(KNOWN_LOGS.iter());
            continue;
        }
        match catalog::find(name) {
            Some(k) => logs.push(k),
            None => refuse!(
                "{name} is not a known log; swftool fetch knows {} (traces/MANIFEST.md)",
                KNOWN_LOGS
                    .iter()
                    .map(|k| k.short)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
    let dest = destination(args.dir.as_deref())?;
    let base = std::env::var(BASE_ENV).ok().filter(|b| !b.is_empty());
    for k in logs {
        let url = match &base {
            Some(b) => format!(
                "{}/{}",
                b.trim_end_matches('/'),
                k.url.rsplit('/').next().unwrap_or(k.file)
            ),
            None => k.url.to_string(),
        };
        let (file, want) = target(k, &url);
        let path = dest.join(file);
        if path.is_file() && hash_file(&path)? == want {
            say!(
                "{}: already in {} (SHA-256 checked)",
                k.short,
                dest.display()
            );
            continue;
        }
        download(&url, &path, want).with_context(|| format!("fetching {} from {url}", k.short))?;
        say!(
            "{}: {} ({} jobs), SHA-256 checked",
            k.short,
            path.display(),
            k.jobs
        );
    }
    Ok(())
}

fn hash_file(path: &Path) -> anyhow::Result<String> {
    let mut f = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f
            .read(&mut buf)
            .with_context(|| format!("reading {}", path.display()))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(hex(&h.finalize()))
}

/// Downloads `url` into `path` if its SHA-256 is `want`; nothing is left
/// at `path` (nor a temporary file) otherwise.
fn download(url: &str, path: &Path, want: &str) -> anyhow::Result<()> {
    let mut response = ureq::get(url).call().map_err(|e| anyhow::anyhow!("{e}"))?;
    let total: Option<u64> = response
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok());
    let bar = if crate::cmd::quiet() {
        indicatif::ProgressBar::hidden()
    } else {
        match total {
            Some(n) => indicatif::ProgressBar::new(n),
            None => indicatif::ProgressBar::new_spinner(),
        }
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{msg} {bar:30} {bytes}/{total_bytes} {bytes_per_sec} {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(
        path.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
    );
    let result = crate::atomic::write_with(path, |tmp| -> anyhow::Result<()> {
        let mut out = std::io::BufWriter::new(std::fs::File::create(tmp)?);
        let mut body = response.body_mut().with_config().limit(u64::MAX).reader();
        let mut hasher = Sha256::new();
        let mut buf = vec![0u8; 1 << 16];
        let mut got: u64 = 0;
        loop {
            let n = body.read(&mut buf).context("the transfer stopped")?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
            out.write_all(&buf[..n])?;
            got += n as u64;
            bar.inc(n as u64);
            if crate::interrupt::requested() {
                return Err(crate::interrupt::Interrupted.into());
            }
        }
        out.flush()?;
        if let Some(n) = total
            && got != n
        {
            bail!("the transfer stopped after {got} of {n} bytes; nothing was kept");
        }
        let have = hex(&hasher.finalize());
        if have != want {
            bail!(
                "the file's SHA-256 is {have}, not {want} as the catalog says (traces/MANIFEST.md); nothing was kept"
            );
        }
        Ok(())
    });
    bar.finish_and_clear();
    result
}
