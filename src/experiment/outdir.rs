//! Guarding an output directory while a command writes into it: one writer
//! at a time ([`OutLock`]), outputs that replace the previous ones all
//! together or not at all ([`Staging`]), and the leftovers of a run that
//! died ([`recover`], [`remove_partial_files`]).
//!
//! A command writes its tables, Markdown and figures into a staging folder
//! `<out>/.swftool-new/`, then commits them: it writes the manifest there,
//! a journal `<out>/.swftool-commit` (what to remove), and moves every file
//! into `<out>`, the manifest last; then it removes the journal. A run
//! killed before the journal leaves the previous outputs as they were (the
//! staging folder is removed by the next command); a run killed during
//! the commit leaves the journal, and the next command that opens the
//! folder finishes the commit. So a folder holds one complete run or the
//! previous one, never a mix. An interrupt (Ctrl-C) waits for a commit to
//! end ([`crate::interrupt::Committing`]).
//!
//! The lock is an advisory, exclusive `flock` on `<out>/.swftool.lock`, held
//! from before the manifest is written until the tables are: a second
//! `swftool experiment`, `compare` or `aggregate` into the same directory
//! stops at once with [`ExperimentError::Busy`] naming the holder, instead of
//! racing it. The operating system drops the lock when its process dies
//! (even by SIGKILL), so a killed run never leaves the directory locked; the
//! file stays in a folder where a run completed, holding the last holder's
//! pid and command for the message, and goes with a command that wrote
//! nothing.

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
    created: bool,
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
        Ok(OutLock {
            _file: file,
            path,
            created: false,
        })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl OutLock {
    /// The same lock on a folder the command created (`--out` did not
    /// exist): if the command ends with nothing in it but the lock, the
    /// folder is removed with the lock.
    #[must_use]
    pub fn in_created_folder(mut self, created: bool) -> OutLock {
        self.created = created;
        self
    }
}

impl Drop for OutLock {
    /// A folder without a manifest once the command ends (a command that
    /// failed before writing anything) loses the lock file, and the folder
    /// itself when the command created it and it is empty: no folder
    /// holding only `.swftool.lock` is left behind.
    fn drop(&mut self) {
        let Some(dir) = self.path.parent() else {
            return;
        };
        // No run of swftool completed here: the lock file goes (a folder
        // of the user's keeps nothing of a refused command).
        if !dir.join("manifest.json").exists() {
            let _ = std::fs::remove_file(&self.path);
        }
        let empty = std::fs::read_dir(dir).is_ok_and(|mut e| e.next().is_none());
        if self.created && empty {
            let _ = std::fs::remove_dir(dir);
        }
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

/// Removes the temporary files that a run killed between writing a cell
/// and renaming it leaves in `<out>/cells/` and `<out>/failed/`
/// ([`crate::atomic::is_partial`]; and `.<name>.<pid>.tmp`, the name
/// earlier versions of swftool wrote them under), and returns how many it
/// removed. Call it only while
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
            if crate::atomic::is_partial(&name) || (name.starts_with('.') && name.ends_with(".tmp"))
            {
                let path = entry.path();
                std::fs::remove_file(&path).map_err(ExperimentError::io(&path))?;
                removed += 1;
            }
        }
    }
    Ok(removed)
}

/// The folder a command writes its outputs into before they replace the
/// previous ones.
pub const STAGING_DIR: &str = ".swftool-new";

/// The journal of a commit under way: while it exists, the staging folder
/// holds a complete run being moved into place.
pub const JOURNAL: &str = ".swftool-commit";

/// A run's outputs being written, before they replace the previous ones
/// (module documentation).
#[derive(Debug)]
pub struct Staging {
    out: PathBuf,
    dir: PathBuf,
}

impl Staging {
    /// Starts the outputs of a run into `out` (whose [`OutLock`] the
    /// caller holds): what a killed run left is finished or removed
    /// ([`recover`]), and a fresh staging folder is made.
    ///
    /// # Errors
    /// [`ExperimentError::Io`] naming the folder that cannot be made.
    pub fn begin(out: &Path) -> Result<Staging, ExperimentError> {
        recover(out)?;
        let dir = out.join(STAGING_DIR);
        std::fs::create_dir_all(&dir).map_err(ExperimentError::io(&dir))?;
        Ok(Staging {
            out: out.to_path_buf(),
            dir,
        })
    }

    /// The staging folder: write every output here.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where a file written at `staged` ends up once committed.
    pub fn final_path(&self, staged: &Path) -> PathBuf {
        match staged.strip_prefix(&self.dir) {
            Ok(rel) => self.out.join(rel),
            Err(_) => staged.to_path_buf(),
        }
    }

    /// The staged files, as paths relative to the staging folder, in a
    /// fixed order.
    ///
    /// # Errors
    /// [`ExperimentError::Io`]: the folder cannot be read.
    pub fn files(&self) -> Result<Vec<PathBuf>, ExperimentError> {
        staged_files(&self.dir)
    }

    /// Commits the run: `manifest` written into the staging folder, the
    /// journal (with the names of `remove`, files of the previous run this
    /// one does not write again), every staged file moved into the output
    /// folder with the manifest last, then the journal removed. An
    /// interrupt waits for it; returns the final paths, manifest last.
    ///
    /// # Errors
    /// [`ExperimentError::Io`] or [`ExperimentError::Json`]: a file cannot be
    /// written or moved (the journal then lets the next command finish).
    pub fn commit(
        self,
        manifest: &super::manifest::Manifest,
        remove: &[String],
    ) -> Result<Vec<PathBuf>, ExperimentError> {
        let _wait = crate::interrupt::Committing::start();
        manifest.write(&self.dir)?;
        let journal = self.out.join(JOURNAL);
        let text = serde_json::json!({ "remove": remove }).to_string();
        crate::atomic::write(&journal, text.as_bytes()).map_err(ExperimentError::io(&journal))?;
        roll_forward(&self.out)
    }
}

impl Drop for Staging {
    /// A staging folder not committed (an error, an interrupt) is removed:
    /// the output folder keeps the previous run.
    fn drop(&mut self) {
        if self.dir.exists() && !self.out.join(JOURNAL).exists() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

fn staged_files(dir: &Path) -> Result<Vec<PathBuf>, ExperimentError> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), ExperimentError> {
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(source) => {
                return Err(ExperimentError::Io {
                    path: dir.to_path_buf(),
                    source,
                });
            }
        };
        for entry in entries {
            let path = entry.map_err(ExperimentError::io(dir))?.path();
            if path.is_dir() {
                walk(root, &path, out)?;
            } else if let Ok(rel) = path.strip_prefix(root) {
                out.push(rel.to_path_buf());
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files)?;
    // The manifest last: a folder with the new manifest holds every new file.
    files.sort_by_key(|f| (f == Path::new("manifest.json"), f.clone()));
    Ok(files)
}

/// Moves every file of the staging folder of `out` into `out`, the
/// manifest last, after removing the files the journal names; then removes
/// the staging folder and the journal.
fn roll_forward(out: &Path) -> Result<Vec<PathBuf>, ExperimentError> {
    let dir = out.join(STAGING_DIR);
    let journal = out.join(JOURNAL);
    let text = std::fs::read_to_string(&journal).unwrap_or_default();
    let remove: Vec<String> = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| serde_json::from_value(v["remove"].clone()).ok())
        .unwrap_or_default();
    for name in remove {
        // Paths inside the folder only (plain names, or `sub/dir/file`):
        // nothing outside it.
        let rel = Path::new(&name);
        if rel
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
        {
            let path = out.join(rel);
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => return Err(ExperimentError::Io { path, source }),
            }
            // An emptied sub-folder goes too (not the folder itself).
            let mut dir = path.parent();
            while let Some(d) = dir.filter(|d| *d != out) {
                if std::fs::remove_dir(d).is_err() {
                    break;
                }
                dir = d.parent();
            }
        }
    }
    let mut done = Vec::new();
    for rel in staged_files(&dir)? {
        let to = out.join(&rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(ExperimentError::io(parent))?;
        }
        let from = dir.join(&rel);
        std::fs::rename(&from, &to).map_err(ExperimentError::io(&to))?;
        done.push(to);
    }
    std::fs::remove_dir_all(&dir).map_err(ExperimentError::io(&dir))?;
    std::fs::remove_file(&journal).map_err(ExperimentError::io(&journal))?;
    Ok(done)
}

/// Finishes or discards what a killed run left in `out`: with a journal,
/// the commit it was making is finished (its staging folder was complete);
/// without one, a staging folder is a run that died before its outputs
/// were complete, and is removed. Returns what was done, to print.
///
/// # Errors
/// [`ExperimentError::Io`]: a file cannot be moved or removed.
pub fn recover(out: &Path) -> Result<Option<String>, ExperimentError> {
    let dir = out.join(STAGING_DIR);
    if out.join(JOURNAL).exists() {
        let n = roll_forward(out)?.len();
        return Ok(Some(format!(
            "finished writing the outputs of a run that was stopped while writing them ({n} files moved into {})",
            out.display()
        )));
    }
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(ExperimentError::io(&dir))?;
        return Ok(Some(format!(
            "removed the unfinished outputs of a run that was stopped before writing them; {} keeps the run before it",
            out.display()
        )));
    }
    Ok(None)
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
        let partial = crate::atomic::partial_path(&cells.join("b.json"));
        std::fs::write(&partial, b"{").unwrap();
        let failed = dir.path().join("failed");
        std::fs::create_dir_all(&failed).unwrap();
        std::fs::write(failed.join("c.txt"), b"errors").unwrap();
        std::fs::write(crate::atomic::partial_path(&failed.join("d.txt")), b"err").unwrap();
        assert_eq!(remove_partial_files(dir.path()).unwrap(), 3);
        assert!(cells.join("a.json").is_file() && failed.join("c.txt").is_file());
        assert!(!cells.join(".a.json.123.tmp").exists() && !partial.exists());
        assert_eq!(remove_partial_files(dir.path()).unwrap(), 0);
    }
}
