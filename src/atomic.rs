//! Every file swftool writes appears whole or not at all: it is written
//! under a temporary name beside its place (`.<name>.partial.<ext>`, the
//! extension kept for the writers that choose a format by it) and renamed
//! into place once complete. A run stopped half-way leaves at most a hidden
//! temporary file, never a cut table, log or figure under its real name.

use std::path::{Path, PathBuf};

/// The temporary name a file is written under before it is renamed to
/// `path`: `.<stem>.partial.<ext>` in the same folder.
pub fn partial_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let name = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!(".{stem}.partial.{ext}"),
        _ => format!(".{name}.partial"),
    };
    path.with_file_name(name)
}

/// Whether `name` (a file name) is one [`partial_path`] gives: a file
/// whose writer stopped before renaming it into place.
pub fn is_partial(name: &str) -> bool {
    name.starts_with('.') && (name.ends_with(".partial") || name.contains(".partial."))
}

/// Writes `bytes` to `path` under the temporary name, then renames it into
/// place ([`write_with`]): readers see the previous file or the whole new
/// one.
///
/// # Errors
/// The write's or the rename's error.
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_with(path, |tmp| std::fs::write(tmp, bytes))
}

/// Writes `path` through `write`, which writes the file it is given (the
/// temporary name); renames it into place when `write` succeeds, removes
/// it when it fails.
///
/// # Errors
/// `write`'s error, or the rename's as `E`.
pub fn write_with<E: From<std::io::Error>>(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), E> {
    let tmp = partial_path(path);
    match write(&tmp) {
        Ok(()) => std::fs::rename(&tmp, path).map_err(E::from),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_temporary_name_is_hidden_beside_and_keeps_the_extension() {
        assert_eq!(
            partial_path(Path::new("out/summary.csv")),
            PathBuf::from("out/.summary.partial.csv")
        );
        assert_eq!(
            partial_path(Path::new("figs/a-b.png")),
            PathBuf::from("figs/.a-b.partial.png")
        );
        assert_eq!(
            partial_path(Path::new("x/log")),
            PathBuf::from("x/.log.partial")
        );
        for p in ["out/summary.csv", "x/log", "cells/a.b.json", "x/.hidden"] {
            let tmp = partial_path(Path::new(p));
            let name = tmp.file_name().unwrap().to_str().unwrap();
            assert!(is_partial(name), "{name}");
        }
        for name in [
            "summary.csv",
            "partial.csv",
            ".swftool.lock",
            "a.partial.csv",
        ] {
            assert!(!is_partial(name), "{name}");
        }
    }

    #[test]
    fn a_failed_write_leaves_neither_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        let r: Result<(), std::io::Error> = write_with(&path, |tmp| {
            std::fs::write(tmp, b"half")?;
            Err(std::io::Error::other("stopped"))
        });
        assert!(r.is_err());
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
        write_with(&path, |tmp| std::fs::write(tmp, b"whole")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"whole");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        write(&path, b"again").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"again");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(write(&dir.path().join("no/such/t.csv"), b"x").is_err());
    }
}
