//! Interruptions (Ctrl-C, SIGTERM) that stop a run cleanly.
//!
//! The first signal only raises a flag ([`requested`]): a replay stops
//! taking new runs and a grid new cells, the command says what it finished
//! and how to finish the rest, and exits with code 130. Writing the outputs
//! is never cut: a signal that arrives while an output folder is being
//! committed ([`Committing`]) waits for the commit to end
//! ([`crate::experiment::outdir::Staging`]). A second signal outside a
//! commit ends the process at once (the outputs of the run are not written,
//! and the folder keeps the previous ones).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);
static COMMITTING: AtomicUsize = AtomicUsize::new(0);
static SECOND: AtomicBool = AtomicBool::new(false);

/// Exit code of a run stopped by an interrupt (128 + SIGINT).
pub const EXIT_CODE: i32 = 130;

/// Installs the handler of Ctrl-C and SIGTERM (once per process; a second
/// call does nothing).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            if COMMITTING.load(Ordering::SeqCst) == 0 {
                eprintln!(
                    "\ninterrupted again: stopping now; the output folder keeps its previous contents"
                );
                std::process::exit(EXIT_CODE);
            }
            SECOND.store(true, Ordering::SeqCst);
        } else {
            eprintln!(
                "\ninterrupt: finishing the runs under way, then stopping (Ctrl-C again to stop at once)"
            );
        }
    });
}

/// Whether an interrupt asked the run to stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Asks the run under way to stop, as a first Ctrl-C does: the Python
/// package calls it when the interpreter receives `KeyboardInterrupt`.
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Clears an earlier request, before the next run of a process that lives
/// on after one was interrupted (the Python interpreter).
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
    SECOND.store(false, Ordering::SeqCst);
}

/// Held while an output folder is committed: an interrupt waits for it to
/// be dropped.
#[derive(Debug)]
pub struct Committing(());

impl Committing {
    /// Starts a commit.
    pub fn start() -> Committing {
        COMMITTING.fetch_add(1, Ordering::SeqCst);
        Committing(())
    }
}

impl Drop for Committing {
    fn drop(&mut self) {
        if COMMITTING.fetch_sub(1, Ordering::SeqCst) == 1 && SECOND.load(Ordering::SeqCst) {
            eprintln!("interrupted again: the outputs are written; stopping now");
            std::process::exit(EXIT_CODE);
        }
    }
}

/// The error a command returns when an interrupt stopped it, after saying
/// what it finished; the binary exits with [`EXIT_CODE`] and adds nothing.
#[derive(Debug, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;
