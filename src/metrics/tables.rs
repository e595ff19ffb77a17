//! Writing output tables: every table swftool writes goes through
//! [`write_both`], as CSV (with a header) and Parquet side by side, each
//! whole or not at all ([`crate::atomic`]).

use std::fs::File;
use std::path::Path;

use polars::prelude::*;
use polars_io::SerWriter;
use polars_io::csv::write::CsvWriter;
use polars_io::parquet::write::ParquetWriter;

/// A table that could not be written.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The file could not be created.
    #[error("cannot create {}: {source}", path.display())]
    Create {
        /// The file.
        path: std::path::PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The finished file could not be renamed into place.
    #[error("cannot write a table: {0}")]
    Rename(#[from] std::io::Error),
    /// The frame could not be encoded or written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: std::path::PathBuf,
        /// The polars error.
        source: PolarsError,
    },
}

/// Writes `df` as the CSV file `csv` (with a header), whole or not at all.
///
/// # Errors
/// [`TableError`] naming the file.
pub fn write_csv(df: &mut DataFrame, csv: &Path) -> Result<(), TableError> {
    crate::atomic::write_with(csv, |tmp| {
        let f = File::create(tmp).map_err(|source| TableError::Create {
            path: csv.to_path_buf(),
            source,
        })?;
        CsvWriter::new(f)
            .include_header(true)
            .finish(df)
            .map_err(|source| TableError::Write {
                path: csv.to_path_buf(),
                source,
            })
    })
}

/// Writes `df` as `<dir>/<stem>.csv` and `<dir>/<stem>.parquet`.
///
/// # Errors
/// [`TableError`] naming the file that could not be created or written.
pub fn write_both(df: &mut DataFrame, dir: &Path, stem: &str) -> Result<(), TableError> {
    write_csv(df, &dir.join(format!("{stem}.csv")))?;
    let pq = dir.join(format!("{stem}.parquet"));
    crate::atomic::write_with(&pq, |tmp| {
        let f = File::create(tmp).map_err(|source| TableError::Create {
            path: pq.clone(),
            source,
        })?;
        ParquetWriter::new(f)
            .finish(df)
            .map(|_| ())
            .map_err(|source| TableError::Write {
                path: pq.clone(),
                source,
            })
    })
}

/// Writes each named table of `tables` into `dir` ([`write_both`]), in
/// order, and returns their names; the first table that could not be
/// built or written stops it.
///
/// # Errors
/// [`TableError`] naming the file of the table that failed.
pub fn write_all(
    dir: &Path,
    tables: Vec<(&'static str, PolarsResult<DataFrame>)>,
) -> Result<Vec<&'static str>, TableError> {
    let mut names = Vec::with_capacity(tables.len());
    for (name, frame) in tables {
        let mut df = frame.map_err(|source| TableError::Write {
            path: dir.join(format!("{name}.csv")),
            source,
        })?;
        write_both(&mut df, dir, name)?;
        names.push(name);
    }
    Ok(names)
}
