//! Progress of a grid run on stderr: a bar on a terminal; without one (a
//! Slurm job, a pipe, `nohup`) a plain line at a steady interval — cells
//! done of all, failed, rate, time elapsed and left — so a batch log shows
//! a long run moving; nothing with `--quiet`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// Default seconds between two progress lines without a terminal.
pub const DEFAULT_EVERY_S: u64 = 10;

/// How a run reports progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgressMode {
    /// A bar when stderr is a terminal, else a line every `every`.
    Auto {
        /// Interval between lines without a terminal.
        every: Duration,
    },
    /// Nothing (`--quiet`).
    Quiet,
}

impl Default for ProgressMode {
    fn default() -> ProgressMode {
        ProgressMode::Auto {
            every: Duration::from_secs(DEFAULT_EVERY_S),
        }
    }
}

struct Counts {
    total: usize,
    done: AtomicUsize,
    failed: AtomicUsize,
    start: Instant,
    stopped: Mutex<bool>,
    wake: Condvar,
}

impl Counts {
    /// `progress 120/2304 cells, 0 failed, 3.1 cells/s, 38 s elapsed, about 11 min 40 s left`.
    fn line(&self) -> String {
        let done = self.done.load(Ordering::Relaxed);
        let failed = self.failed.load(Ordering::Relaxed);
        let elapsed = self.start.elapsed().as_secs_f64();
        let rate = if elapsed > 0.0 {
            (done + failed) as f64 / elapsed
        } else {
            0.0
        };
        let left = self.total.saturating_sub(done + failed);
        let eta = if rate > 0.0 {
            format!("about {} left", duration(left as f64 / rate))
        } else {
            "time left unknown yet".to_string()
        };
        format!(
            "progress {}/{} cells, {failed} failed, {rate:.2} cells/s, {} elapsed, {eta}",
            done + failed,
            self.total,
            duration(elapsed),
        )
    }
}

/// `5 s`, `3 min 07 s`, `2 h 05 min`.
fn duration(s: f64) -> String {
    let s = s.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}

/// A running progress report over `total` cells; [`Progress::finish`] ends
/// it (also on drop).
pub struct Progress {
    bar: Option<ProgressBar>,
    counts: Arc<Counts>,
    ticker: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts reporting on `total` cells in `mode`.
    pub fn start(total: usize, mode: ProgressMode) -> Progress {
        let counts = Arc::new(Counts {
            total,
            done: AtomicUsize::new(0),
            failed: AtomicUsize::new(0),
            start: Instant::now(),
            stopped: Mutex::new(false),
            wake: Condvar::new(),
        });
        let mut progress = Progress {
            bar: None,
            counts: Arc::clone(&counts),
            ticker: None,
        };
        let ProgressMode::Auto { every } = mode else {
            return progress;
        };
        if total == 0 {
            return progress;
        }
        if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} cells  {elapsed_precise} elapsed, {eta} left",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            progress.bar = Some(bar);
        } else {
            progress.ticker = Some(std::thread::spawn(move || {
                let mut stopped = counts.stopped.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    let (guard, timeout) = counts
                        .wake
                        .wait_timeout(stopped, every)
                        .unwrap_or_else(|e| e.into_inner());
                    stopped = guard;
                    if *stopped {
                        break;
                    }
                    if timeout.timed_out() {
                        eprintln!("{}", counts.line());
                    }
                }
            }));
        }
        progress
    }

    /// Counts a finished cell.
    pub fn done(&self) {
        self.counts.done.fetch_add(1, Ordering::Relaxed);
        if let Some(b) = &self.bar {
            b.inc(1);
        }
    }

    /// Counts a failed cell and prints what went wrong (the first ten
    /// errors).
    pub fn failed(&self, id: &str, errors: &[String]) {
        self.counts.failed.fetch_add(1, Ordering::Relaxed);
        let print = || {
            eprintln!("cell {id} failed:");
            for e in errors.iter().take(10) {
                eprintln!("  {e}");
            }
        };
        match &self.bar {
            Some(b) => {
                b.suspend(print);
                b.inc(1);
            }
            None => print(),
        }
    }

    /// Ends the report: clears the bar, stops the line printer.
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
        if let Some(t) = self.ticker.take() {
            *self
                .counts
                .stopped
                .lock()
                .unwrap_or_else(|e| e.into_inner()) = true;
            self.counts.wake.notify_all();
            let _ = t.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_shows_nothing_and_counts_still_run() {
        let mut p = Progress::start(10, ProgressMode::Quiet);
        assert!(p.bar.is_none() && p.ticker.is_none());
        p.done();
        p.failed("x", &[]);
        assert_eq!(p.counts.done.load(Ordering::Relaxed), 1);
        p.finish();
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(4.6), "5 s");
        assert_eq!(duration(187.0), "3 min 07 s");
        assert_eq!(duration(7500.0), "2 h 05 min");
    }

    #[test]
    fn the_line_counts_done_and_failed_cells_and_estimates_the_rest() {
        let c = Counts {
            total: 10,
            done: AtomicUsize::new(3),
            failed: AtomicUsize::new(1),
            start: Instant::now() - Duration::from_secs(8),
            stopped: Mutex::new(false),
            wake: Condvar::new(),
        };
        let line = c.line();
        // 4 cells in 8 s: 0.5 cells/s, 6 left: 12 s.
        assert!(
            line.starts_with("progress 4/10 cells, 1 failed, 0.50 cells/s, 8 s elapsed"),
            "{line}"
        );
        assert!(line.ends_with("about 12 s left"), "{line}");
    }
}
