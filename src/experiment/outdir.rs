//! Guarding an output directory while a grid writes into it: one writer at a
//! time ([`OutLock`]) and the leftovers of a run that died
//! ([`remove_partial_files`]).
//!
//! The lock is an advisory, exclusive `flock` on `<out>/.swftool.lock`, held
//! from before the manifest is written until the tables are: a second
//! `swftool experiment`, `compare` or `aggregate` into the same directory
//! stops at once with [`ExperimentError::Busy`] naming the holder, instead of
//! racing it. The operating system drops the lock when its process dies
//! (even by SIGKILL), so a killed run never leaves the directory locked; the
//! file itself stays, holding the last holder's pid and command for the
//! message.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::ExperimentError;

/// Name of the lock file in an output directory.
pub const LOCK_FILE: &str = ".swftool.lock";

/// An exclusive hold on an output directory, released on drop (or when the
/// process ends, however it ends).
#[derive(Debug)]
pub struct OutLock {
    _file: File,
    path: PathBuf,
}

impl OutLock {
    /// Takes the lock of `out` (which must exist) for `command` (a short
    /// description recorded for a second writer's message).
    ///
    /// On a file system without `flock` support (some parallel file systems
    /// mounted without it) the lock cannot be taken; that is not an error,
    /// but a warning is printed, since two writers are then not detected.
    ///
    /// # Errors
    /// [`ExperimentError::Busy`] when another process holds it,
    /// [`ExperimentError::Io`] when the lock file cannot be opened.
    pub fn acquire(out: &Path, command: &str) -> Result<OutLock, ExperimentError> {
        let path = out.join(LOCK_FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(ExperimentError::io(&path))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                // Best effort: the holder wrote its pid and command.
                let _ = file.read_to_string(&mut holder);
                return Err(ExperimentError::Busy {
                    dir: out.to_path_buf(),
                    holder: holder_or_default(&holder),
                });
            }
            Err(TryLockError::Error(e)) => {
                eprintln!(
                    "warning: cannot lock {} ({e}); make sure no other swftool writes into {} at the same time",
                    path.display(),
                    out.display()
                );
            }
        }
        let me = format!(
            "swftool pid {} (`{command}`, started {})",
            std::process::id(),
            jiff::Timestamp::now()
                .round(jiff::Unit::Second)
                .unwrap_or(jiff::Timestamp::now())
        );
        let written = file
            .set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(me.as_bytes()));
        written.map_err(ExperimentError::io(&path))?;
        Ok(OutLock { _file: file, path })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Checks that no process is writing into `dir` (a directory to be read,
/// such as a shard `aggregate` merges) without writing anything there: a
/// directory that was never locked, or is read-only, passes.
///
/// # Errors
/// [`ExperimentError::Busy`] naming the writer.
pub fn check_not_busy(dir: &Path) -> Result<(), ExperimentError> {
    let Ok(mut file) = File::open(dir.join(LOCK_FILE)) else {
        return Ok(());
    };
    if let Err(TryLockError::WouldBlock) = file.try_lock_shared() {
        let mut holder = String::new();
        let _ = file.read_to_string(&mut holder);
        return Err(ExperimentError::Busy {
            dir: dir.to_path_buf(),
            holder: holder_or_default(&holder),
        });
    }
    Ok(())
}

fn holder_or_default(text: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        "another swftool process".to_string()
    } else {
        text.to_string()
    }
}

/// Removes the temporary files (`.<name>.<pid>.tmp`) that a run killed
/// between writing a cell and renaming it leaves in `<out>/cells/` and
/// `<out>/failed/`, and returns how many it removed. Call it only while
/// holding the directory's [`OutLock`]: another writer's temporary files
/// would be in use.
///
/// # Errors
/// [`ExperimentError::Io`] naming a directory that cannot be listed or a file
/// that cannot be removed.
pub fn remove_partial_files(out: &Path) -> Result<usize, ExperimentError> {
    let mut removed = 0;
    for sub in ["cells", "failed"] {
        let dir = out.join(sub);
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                return Err(ExperimentError::Io {
                    path: dir,
                    source: e,
                });
            }
        };
        for entry in entries {
            let entry = entry.map_err(ExperimentError::io(&dir))?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') && name.ends_with(".tmp") {
                let path = entry.path();
                std::fs::remove_file(&path).map_err(ExperimentError::io(&path))?;
                removed += 1;
            }
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_the_same_directory_is_refused_and_names_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let first = OutLock::acquire(dir.path(), "experiment --preset smoke").unwrap();
        let err = OutLock::acquire(dir.path(), "aggregate").unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, ExperimentError::Busy { .. }), "{text}");
        assert!(text.contains(&std::process::id().to_string()), "{text}");
        assert!(text.contains("experiment --preset smoke"), "{text}");
        assert!(matches!(
            check_not_busy(dir.path()),
            Err(ExperimentError::Busy { .. })
        ));
        drop(first);
        check_not_busy(dir.path()).expect("free once dropped");
        OutLock::acquire(dir.path(), "aggregate").expect("free again once dropped");
    }

    #[test]
    fn only_temporary_files_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let cells = dir.path().join("cells");
        std::fs::create_dir_all(&cells).unwrap();
        std::fs::write(cells.join("a.json"), b"{}").unwrap();
        std::fs::write(cells.join(".a.json.123.tmp"), b"{").unwrap();
        assert_eq!(remove_partial_files(dir.path()).unwrap(), 1);
        assert!(cells.join("a.json").is_file());
        assert!(!cells.join(".a.json.123.tmp").exists());
        assert_eq!(remove_partial_files(dir.path()).unwrap(), 0);
    }
}
