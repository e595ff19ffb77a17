//! Parsing throughput on the biggest real log, CEA Curie (312,826 jobs,
//! ~30 MB of text): from the `.swf.gz` file, from a plain `.swf` file, and
//! from memory (parser only, no I/O or decompression).
//!
//! Throughput is reported in bytes of *decompressed* text per second for all
//! three, so the numbers compare. The plain copy is made in a temporary
//! directory before timing starts. Run with `cargo bench --bench parse`.

use std::hint::black_box;
use std::io::{Cursor, Read};
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use flate2::read::MultiGzDecoder;
use swftool::swf::{ReadOptions, read_from, read_log};

const CURIE_GZ: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/traces/CEA-Curie-2011-2.1-cln.swf.gz"
);

fn parse_curie(c: &mut Criterion) {
    let gz_path = Path::new(CURIE_GZ);
    let mut text = Vec::new();
    if let Err(e) =
        std::fs::File::open(gz_path).and_then(|f| MultiGzDecoder::new(f).read_to_end(&mut text))
    {
        eprintln!("skipping parse benchmark: cannot read {CURIE_GZ}: {e}");
        return;
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    let plain_path = dir.path().join("CEA-Curie-2011-2.1-cln.swf");
    std::fs::write(&plain_path, &text).expect("write the plain copy");
    let opts = ReadOptions::strict();

    let mut group = c.benchmark_group("parse_curie");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(10))
        .throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("gzip_file", |b| {
        b.iter(|| read_log(black_box(gz_path), &opts).map(|l| l.jobs.len()))
    });
    group.bench_function("plain_file", |b| {
        b.iter(|| read_log(black_box(&plain_path), &opts).map(|l| l.jobs.len()))
    });
    group.bench_function("in_memory", |b| {
        b.iter(|| {
            read_from(Cursor::new(black_box(&text[..])), "curie", &opts).map(|l| l.jobs.len())
        })
    });
    group.finish();
}

// No HTML plots: criterion's plotters backend wants system fonts, and the
// figures would not be read anyway; the numbers go to the terminal.
criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = parse_curie
}
criterion_main!(benches);
