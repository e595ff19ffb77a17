//! `swftool fetch` against an HTTP server started here on 127.0.0.1
//! (`SWFTOOL_FETCH_BASE`): a good file lands in the first writable trace
//! directory with its SHA-256 checked (and is then found by short name); a
//! file with another hash, and a transfer cut short, are refused and leave
//! nothing behind, not even a temporary file; an unknown name says which
//! logs are known; a log not found says which command fetches it.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::Output;

/// Serves each request once per path: (path, declared length, body).
fn serve(routes: Vec<(&'static str, usize, Vec<u8>)>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            // Skip the headers.
            let mut h = String::new();
            while reader.read_line(&mut h).is_ok_and(|n| n > 2) {
                h.clear();
            }
            let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
            match routes.iter().find(|r| r.0 == path) {
                Some((_, declared, body)) => {
                    let _ = write!(
                        stream,
                        "HTTP/1.1 200 OK\r\nContent-Length: {declared}\r\nConnection: close\r\n\r\n"
                    );
                    let _ = stream.write_all(body);
                }
                None => {
                    let _ = write!(
                        stream,
                        "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    );
                }
            }
            let _ = stream.flush();
        }
    });
    base
}

fn fetch(dir: &Path, traces: &Path, base: &str, logs: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_swftool"))
        .current_dir(dir)
        .env("SWFTOOL_TRACES", traces)
        .env("SWFTOOL_FETCH_BASE", base)
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .arg("fetch")
        .args(logs)
        .output()
        .unwrap()
}

#[test]
fn fetch_checks_the_hash_and_never_leaves_half_a_file() {
    let kth = std::fs::read(common::traces_dir().join("KTH-SP2-1996-2.1-cln.swf.gz")).unwrap();
    let base = serve(vec![
        ("/KTH-SP2-1996-2.1-cln.swf.gz", kth.len(), kth.clone()),
        // Another file's bytes under SDSC-SP2's name.
        ("/SDSC-SP2-1998-4.2-cln.swf.gz", kth.len(), kth.clone()),
        // Cut short: 1,000 bytes of 2,000,000 announced.
        (
            "/CTC-SP2-1996-3.1-cln.swf.gz",
            2_000_000,
            kth[..1_000].to_vec(),
        ),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let traces = dir.path().join("mytraces");
    std::fs::create_dir(&traces).unwrap();
    let listing = |d: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };

    let out = fetch(dir.path(), &traces, &base, &["kth-sp2"]);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    assert!(
        common::text(&out.stdout).contains("kth-sp2: "),
        "{}",
        common::text(&out.stdout)
    );
    assert_eq!(listing(&traces), ["KTH-SP2-1996-2.1-cln.swf.gz"]);
    assert_eq!(
        std::fs::read(traces.join("KTH-SP2-1996-2.1-cln.swf.gz")).unwrap(),
        kth
    );
    // Found by short name from there; a second fetch sees it is there.
    let again = fetch(dir.path(), &traces, &base, &["kth-sp2"]);
    assert!(
        common::text(&again.stdout).contains("already in"),
        "{}",
        common::text(&again.stdout)
    );

    let bad = fetch(dir.path(), &traces, &base, &["sdsc-sp2"]);
    assert!(!bad.status.success());
    let e = common::text(&bad.stderr);
    assert!(e.contains("fetching sdsc-sp2 from"), "{e}");
    assert!(e.contains("SHA-256 is 3e152f20"), "{e}");
    assert!(e.contains("nothing was kept"), "{e}");

    let cut = fetch(dir.path(), &traces, &base, &["ctc-sp2"]);
    assert!(!cut.status.success());
    let e = common::text(&cut.stderr);
    assert!(e.contains("fetching ctc-sp2 from"), "{e}");
    assert_eq!(listing(&traces), ["KTH-SP2-1996-2.1-cln.swf.gz"], "{e}");

    let unknown = fetch(dir.path(), &traces, &base, &["mars"]);
    let e = common::text(&unknown.stderr);
    assert!(
        e.contains("mars is not a known log; swftool fetch knows curie"),
        "{e}"
    );
}

#[test]
fn a_log_not_found_says_which_command_fetches_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_swftool"))
        .current_dir(dir.path())
        .env("SWFTOOL_TRACES", dir.path().join("none"))
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .args(["info", "hpc2n"])
        .output()
        .unwrap();
    let e = common::text(&out.stderr);
    assert!(e.contains("to get it: `swftool fetch hpc2n`"), "{e}");
}
