//! Time series of a schedule: how busy the machine was, how many jobs
//! waited and how much work waited, in bins of a step the user chooses —
//! the same for every environment, from each run's [`Occupancy`] (the spans
//! during which each job ran and waited).
//!
//! Every value of a bin is a time average over the bin, so the sums are
//! exact: Σ `busy_units` · `seconds` over the bins is the unit-seconds the
//! jobs ran, Σ `queue_length` · `seconds` the seconds they waited, and
//! Σ `submitted`, Σ `started` count the submits and first starts in the
//! series' span.

/// A job's span of running or waiting, s (absolute times, as the run's).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    /// Start of the span, s.
    pub from: f64,
    /// End of the span, s (≥ `from`).
    pub to: f64,
    /// Running: the units it held (cores, processors, nodes, machines);
    /// waiting: the work it still needed, unit-seconds.
    pub amount: f64,
    /// The job's queue (partition, SWF field 15) when the environment
    /// reports queues (D), else `None`.
    pub queue: Option<i64>,
}

/// An instant of one job: its submit or its first start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mark {
    /// When, s.
    pub at: f64,
    /// The job's queue, as in [`Span::queue`].
    pub queue: Option<i64>,
}

/// What a run held over time: the machine's size and every job's spans.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Occupancy {
    /// Units of the machine (what `utilization` divides by).
    pub capacity: f64,
    /// Time 0 of the series, s: the scenario's start (A: the start of the
    /// warm-up; B, C: the trial's start; D: the first submit).
    pub origin: f64,
    /// End of the series, s: the run's last event.
    pub end: f64,
    /// Spans during which a job held units (`amount` = units).
    pub running: Vec<Span>,
    /// Spans during which a job waited to start or resume (`amount` = the
    /// unit-seconds of work it still needed).
    pub waiting: Vec<Span>,
    /// Submits.
    pub submits: Vec<Mark>,
    /// First starts.
    pub starts: Vec<Mark>,
}

/// One bin of the series, over all jobs or one queue's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bin {
    /// `None`: every job; else the queue's.
    pub queue: Option<i64>,
    /// Start of the bin, hours since the origin.
    pub hour: f64,
    /// Start of the bin, s (absolute).
    pub from_s: f64,
    /// Length of the bin, s (the step; the last bin may be shorter).
    pub seconds: f64,
    /// Mean units held over the bin.
    pub busy_units: f64,
    /// `busy_units` / capacity.
    pub utilization: f64,
    /// Mean number of jobs waiting over the bin.
    pub queue_length: f64,
    /// Mean work waiting over the bin, unit-seconds.
    pub queued_work: f64,
    /// Jobs submitted in the bin.
    pub submitted: u64,
    /// Jobs first started in the bin.
    pub started: u64,
}

/// The integral over each of `bins` bins of `step` seconds from `origin`
/// (the last one cut at `end`) of the step function that `events` (time,
/// change) draw from 0; changes outside [origin, end] count at its edges.
fn integrate(events: &mut [(f64, f64)], origin: f64, end: f64, step: f64, bins: usize) -> Vec<f64> {
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    integrate_sorted(events.iter().copied(), origin, end, step, bins)
}

/// [`integrate`] of `events` already in time order.
fn integrate_sorted(
    events: impl Iterator<Item = (f64, f64)>,
    origin: f64,
    end: f64,
    step: f64,
    bins: usize,
) -> Vec<f64> {
    let mut out = vec![0.0; bins];
    let mut level = 0.0;
    let mut now = origin;
    let mut k = 0;
    let mut add_until = |t: f64, level: f64, now: &mut f64, k: &mut usize| {
        let t = t.clamp(origin, end);
        while *now < t && *k < bins {
            let edge = (origin + (*k + 1) as f64 * step).min(end);
            let upto = t.min(edge);
            out[*k] += level * (upto - *now);
            *now = upto;
            if upto >= edge {
                *k += 1;
            }
        }
    };
    for (t, delta) in events {
        add_until(t, level, &mut now, &mut k);
        level += delta;
    }
    add_until(end, level, &mut now, &mut k);
    out
}

/// The number of bins of `step` seconds from `origin` to `end` (at least
/// one).
fn bin_count(origin: f64, end: f64, step: f64) -> usize {
    (((end - origin) / step).ceil() as usize).max(1)
}

/// The series of `occ` in bins of `step` seconds (> 0): first the bins over
/// every job, then, when the spans name queues, each queue's bins
/// (ascending queue id; `utilization` is then the queue's share of the
/// machine).
pub fn series(occ: &Occupancy, step: f64) -> Vec<Bin> {
    let (origin, end) = (occ.origin, occ.end.max(occ.origin));
    let bins = bin_count(origin, end, step);
    let mut queues: Vec<i64> = occ
        .running
        .iter()
        .chain(&occ.waiting)
        .filter_map(|s| s.queue)
        .chain(occ.submits.iter().filter_map(|m| m.queue))
        .collect();
    queues.sort_unstable();
    queues.dedup();
    let mut out = Vec::with_capacity(bins * (1 + queues.len()));
    let all = std::iter::once(None).chain(queues.into_iter().map(Some));
    for q in all {
        let keep = |x: Option<i64>| q.is_none() || x == q;
        let mut running: Vec<(f64, f64)> = occ
            .running
            .iter()
            .filter(|s| keep(s.queue) && s.to > s.from)
            .flat_map(|s| [(s.from, s.amount), (s.to, -s.amount)])
            .collect();
        let busy = integrate(&mut running, origin, end, step, bins);
        // The waiting jobs' count and work change at the same times: one
        // stable sort serves both (the order each would get alone).
        let mut queued: Vec<(f64, f64, f64)> = occ
            .waiting
            .iter()
            .filter(|s| keep(s.queue) && s.to > s.from)
            .flat_map(|s| [(s.from, 1.0, s.amount), (s.to, -1.0, -s.amount)])
            .collect();
        queued.sort_by(|a, b| a.0.total_cmp(&b.0));
        let waiting = integrate_sorted(queued.iter().map(|e| (e.0, e.1)), origin, end, step, bins);
        let work = integrate_sorted(queued.iter().map(|e| (e.0, e.2)), origin, end, step, bins);
        let count = |marks: &[Mark]| {
            let mut c = vec![0u64; bins];
            for m in marks.iter().filter(|m| keep(m.queue)) {
                if m.at >= origin && m.at <= end {
                    let k = (((m.at - origin) / step) as usize).min(bins - 1);
                    c[k] += 1;
                }
            }
            c
        };
        let (submitted, started) = (count(&occ.submits), count(&occ.starts));
        for k in 0..bins {
            let from = origin + k as f64 * step;
            let seconds = ((origin + (k + 1) as f64 * step).min(end) - from).max(0.0);
            // Every quantity is ≥ 0; a sum of +a and −a changes may leave a
            // rounding residue below it.
            let mean = |x: f64| {
                if seconds > 0.0 {
                    (x / seconds).max(0.0)
                } else {
                    0.0
                }
            };
            let busy_units = mean(busy[k]);
            out.push(Bin {
                queue: q,
                hour: k as f64 * step / 3600.0,
                from_s: from,
                seconds,
                busy_units,
                utilization: if occ.capacity > 0.0 {
                    busy_units / occ.capacity
                } else {
                    f64::NAN
                },
                queue_length: mean(waiting[k]),
                queued_work: mean(work[k]),
                submitted: submitted[k],
                started: started[k],
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(from: f64, to: f64, amount: f64) -> Span {
        Span {
            from,
            to,
            amount,
            queue: None,
        }
    }

    /// Two jobs on a 4-unit machine, step 10 s, worked by hand:
    /// job 1 submitted at 0, runs 2 units on [0, 15); job 2 submitted at
    /// 5, waits [5, 15) needing 4 · 10 = 40 unit-s, runs 4 units on
    /// [15, 25). The series ends at 25.
    #[test]
    fn two_jobs_worked_by_hand() {
        let occ = Occupancy {
            capacity: 4.0,
            origin: 0.0,
            end: 25.0,
            running: vec![span(0.0, 15.0, 2.0), span(15.0, 25.0, 4.0)],
            waiting: vec![span(5.0, 15.0, 40.0)],
            submits: vec![
                Mark {
                    at: 0.0,
                    queue: None,
                },
                Mark {
                    at: 5.0,
                    queue: None,
                },
            ],
            starts: vec![
                Mark {
                    at: 0.0,
                    queue: None,
                },
                Mark {
                    at: 15.0,
                    queue: None,
                },
            ],
        };
        let s = series(&occ, 10.0);
        assert_eq!(s.len(), 3);
        // Bin [0, 10): 2 units all along; job 2 waits 5 s of 10.
        assert_eq!((s[0].busy_units, s[0].utilization), (2.0, 0.5));
        assert_eq!((s[0].queue_length, s[0].queued_work), (0.5, 20.0));
        assert_eq!((s[0].submitted, s[0].started), (2, 1));
        // Bin [10, 20): 2 units for 5 s, 4 units for 5 s → 3.
        assert_eq!((s[1].busy_units, s[1].queue_length), (3.0, 0.5));
        assert_eq!(s[1].started, 1);
        // Bin [20, 25): 5 s long, 4 units.
        assert_eq!(
            (s[2].seconds, s[2].busy_units, s[2].hour),
            (5.0, 4.0, 20.0 / 3600.0)
        );
        // Sums: unit-seconds run = 2·15 + 4·10 = 70; seconds waited = 10.
        let ran: f64 = s.iter().map(|b| b.busy_units * b.seconds).sum();
        let waited: f64 = s.iter().map(|b| b.queue_length * b.seconds).sum();
        assert_eq!((ran, waited), (70.0, 10.0));
    }

    /// Two runs of one heuristic, step 3600 s: run a's bins [0, 1 h) and
    /// [1 h, 1.5 h) (cut at its end), run b's [0, 1 h) only. Bin 1's mean
    /// counts b's ended run as 0 and sits at the centre of a's half-hour.
    #[test]
    fn mean_lines_sit_at_bin_centres() {
        let bin = |hour: f64, seconds: f64, utilization: f64| Bin {
            queue: None,
            hour,
            from_s: hour * 3600.0,
            seconds,
            busy_units: utilization,
            utilization,
            queue_length: 0.0,
            queued_work: 0.0,
            submitted: 0,
            started: 0,
        };
        let run = |bins: Vec<Bin>| RunSeries {
            scenario: "s".into(),
            heuristic: "h".into(),
            bins,
        };
        let runs = [
            run(vec![bin(0.0, 3600.0, 0.5), bin(1.0, 1800.0, 0.25)]),
            run(vec![bin(0.0, 3600.0, 0.75)]),
        ];
        let lines = mean_over_runs(&runs, |b| b.utilization);
        assert_eq!(lines.len(), 1);
        let got: Vec<(f64, f64)> = lines[0].1.iter().map(|&(x, m, _)| (x, m)).collect();
        assert_eq!(got, vec![(0.5, 0.625), (1.25, 0.125)]);
    }

    #[test]
    fn queues_get_their_own_bins_after_the_totals() {
        let mut a = span(0.0, 10.0, 1.0);
        a.queue = Some(3);
        let mut b = span(0.0, 10.0, 2.0);
        b.queue = Some(1);
        let occ = Occupancy {
            capacity: 4.0,
            origin: 0.0,
            end: 10.0,
            running: vec![a, b],
            ..Occupancy::default()
        };
        let s = series(&occ, 10.0);
        let got: Vec<(Option<i64>, f64)> = s.iter().map(|b| (b.queue, b.busy_units)).collect();
        assert_eq!(got, vec![(None, 3.0), (Some(1), 2.0), (Some(3), 1.0)]);
    }

    #[test]
    fn spans_outside_the_series_are_cut_at_its_edges() {
        let occ = Occupancy {
            capacity: 1.0,
            origin: 100.0,
            end: 110.0,
            running: vec![span(90.0, 105.0, 1.0)],
            ..Occupancy::default()
        };
        let s = series(&occ, 60.0);
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].seconds, s[0].busy_units), (10.0, 0.5));
    }
}

/// The series of one run: its scenario, its heuristic and its bins.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSeries {
    /// The scenario's name (a date, a trial, a log).
    pub scenario: String,
    /// The heuristic's name.
    pub heuristic: String,
    /// The bins ([`series`]).
    pub bins: Vec<Bin>,
}

/// The `series` table: one row per run and bin, runs in order, each run's
/// bins over every job first (`queue` null), then per queue. Columns:
/// `scenario`, `heuristic` (text), `queue` (i64, null = every job),
/// `hour`, `from_s`, `seconds`, `busy_units`, `utilization`,
/// `queue_length`, `queued_work_unit_s` (f64), `submitted`, `started`
/// (u64).
///
/// # Errors
/// A polars error (a bug: the columns are built here).
pub fn frame(runs: &[RunSeries]) -> polars::prelude::PolarsResult<polars::prelude::DataFrame> {
    use polars::prelude::{Column, DataFrame};
    let rows = || runs.iter().flat_map(|r| r.bins.iter().map(move |b| (r, b)));
    let text = |name: &str, f: fn(&RunSeries) -> &str| {
        Column::new(name.into(), rows().map(|(r, _)| f(r)).collect::<Vec<_>>())
    };
    let num = |name: &str, f: fn(&Bin) -> f64| {
        Column::new(name.into(), rows().map(|(_, b)| f(b)).collect::<Vec<f64>>())
    };
    let count = |name: &str, f: fn(&Bin) -> u64| {
        Column::new(name.into(), rows().map(|(_, b)| f(b)).collect::<Vec<u64>>())
    };
    DataFrame::new_infer_height(vec![
        text("scenario", |r| &r.scenario),
        text("heuristic", |r| &r.heuristic),
        Column::new(
            "queue".into(),
            rows().map(|(_, b)| b.queue).collect::<Vec<Option<i64>>>(),
        ),
        num("hour", |b| b.hour),
        num("from_s", |b| b.from_s),
        num("seconds", |b| b.seconds),
        num("busy_units", |b| b.busy_units),
        num("utilization", |b| b.utilization),
        num("queue_length", |b| b.queue_length),
        num("queued_work_unit_s", |b| b.queued_work),
        count("submitted", |b| b.submitted),
        count("started", |b| b.started),
    ])
}

/// `bins` of one queue (or all) merged `factor` at a time: each merged
/// bin's values are the time averages of its parts (weighted by their
/// seconds), its counts their sums, so every sum over the series is kept.
pub fn coarsen(bins: &[Bin], factor: usize) -> Vec<Bin> {
    bins.chunks(factor.max(1))
        .map(|c| {
            let seconds: f64 = c.iter().map(|b| b.seconds).sum();
            let avg = |f: fn(&Bin) -> f64| {
                if seconds > 0.0 {
                    c.iter().map(|b| f(b) * b.seconds).sum::<f64>() / seconds
                } else {
                    0.0
                }
            };
            Bin {
                queue: c[0].queue,
                hour: c[0].hour,
                from_s: c[0].from_s,
                seconds,
                busy_units: avg(|b| b.busy_units),
                utilization: avg(|b| b.utilization),
                queue_length: avg(|b| b.queue_length),
                queued_work: avg(|b| b.queued_work),
                submitted: c.iter().map(|b| b.submitted).sum(),
                started: c.iter().map(|b| b.started).sum(),
            }
        })
        .collect()
}

/// One heuristic's line of [`mean_over_runs`]: its name and, per bin,
/// `(centre, mean, ci95)`, the centre in hours since the origin.
pub type MeanLine = (String, Vec<(f64, f64, f64)>);

/// Per heuristic (first-appearance order), the mean over its runs of
/// `value` of each bin over every job, bin by bin (bin k of every run at
/// the same hour since its origin; a run that has ended counts 0 — nothing
/// runs or waits any more), with the 95 % CI half-width of the mean (NaN
/// for one run): `(heuristic, [(centre, mean, ci95)])`, where `centre` is
/// the middle of bin k in hours since the origin (of its longest span
/// among the runs: the last bin of a run may be shorter than the step),
/// the time a bin's mean belongs to. One run gives its own values.
pub fn mean_over_runs(runs: &[RunSeries], value: fn(&Bin) -> f64) -> Vec<MeanLine> {
    let mut names: Vec<&str> = Vec::new();
    for r in runs {
        if !names.contains(&r.heuristic.as_str()) {
            names.push(&r.heuristic);
        }
    }
    names
        .into_iter()
        .map(|h| {
            let mine: Vec<Vec<&Bin>> = runs
                .iter()
                .filter(|r| r.heuristic == h)
                .map(|r| r.bins.iter().filter(|b| b.queue.is_none()).collect())
                .collect();
            let longest = mine.iter().map(Vec::len).max().unwrap_or(0);
            let points = (0..longest)
                .map(|k| {
                    let xs: Vec<f64> = mine
                        .iter()
                        .map(|bins| bins.get(k).map_or(0.0, |b| value(b)))
                        .filter(|x| x.is_finite())
                        .collect();
                    let hour = mine
                        .iter()
                        .find_map(|bins| bins.get(k).map(|b| b.hour))
                        .unwrap_or(f64::NAN);
                    let span = mine
                        .iter()
                        .filter_map(|bins| bins.get(k).map(|b| b.seconds))
                        .fold(0.0, f64::max);
                    let hour = hour + span / 7200.0;
                    match super::stats::mean_sd(&xs) {
                        Some((m, sd)) => (
                            hour,
                            m,
                            sd.and_then(|sd| super::stats::ci95_half_width(sd, xs.len() as u64))
                                .unwrap_or(f64::NAN),
                        ),
                        None => (hour, f64::NAN, f64::NAN),
                    }
                })
                .collect();
            (h.to_string(), points)
        })
        .collect()
}

/// The step of the series a grid's cells keep, s (one hour).
pub const GRID_STEP: f64 = 3600.0;

/// What a grid's cell keeps of its run's series (bins over every job):
/// per bin of `step` seconds, the utilization, the queue length and the
/// queued work (unit-seconds), time averages as in [`Bin`].
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CellSeries {
    /// Bin length, s.
    pub step: f64,
    /// Per bin: `utilization`.
    pub utilization: Vec<f64>,
    /// Per bin: `queue_length`.
    pub queue_length: Vec<f64>,
    /// Per bin: `queued_work`, unit-seconds.
    pub queued_work: Vec<f64>,
}

impl CellSeries {
    /// The bins over every job of `bins` (of `step` seconds).
    pub fn of(bins: &[Bin], step: f64) -> CellSeries {
        let all: Vec<&Bin> = bins.iter().filter(|b| b.queue.is_none()).collect();
        CellSeries {
            step,
            utilization: all.iter().map(|b| b.utilization).collect(),
            queue_length: all.iter().map(|b| b.queue_length).collect(),
            queued_work: all.iter().map(|b| b.queued_work).collect(),
        }
    }

    /// Back to bins (hour and values; the rest 0), for the figures.
    pub fn bins(&self) -> Vec<Bin> {
        (0..self.utilization.len())
            .map(|k| Bin {
                queue: None,
                hour: k as f64 * self.step / 3600.0,
                from_s: 0.0,
                seconds: self.step,
                busy_units: 0.0,
                utilization: self.utilization[k],
                queue_length: self.queue_length[k],
                queued_work: self.queued_work[k],
                submitted: 0,
                started: 0,
            })
            .collect()
    }
}

/// A grid's `series` table from its cells' series: `rows` are (log key,
/// variant, heuristic, series), in cell order. Per (log key, variant,
/// heuristic) and bin, in first-appearance order then hour: `n` (the
/// scenarios) and the mean, sample standard deviation and 95 % CI
/// half-width of `utilization`, `queue_length` and `queued_work_unit_s`
/// over the scenarios, a scenario whose run has ended counting 0 (nothing
/// runs or waits any more).
///
/// # Errors
/// A polars error (a bug: the columns are built here).
pub fn grid_table(
    rows: &[(String, String, String, &CellSeries)],
) -> polars::prelude::PolarsResult<polars::prelude::DataFrame> {
    use polars::prelude::{Column, DataFrame};
    // The longest run of each group: shorter ones are padded with 0.
    let mut longest: std::collections::HashMap<(&str, &str, &str), usize> =
        std::collections::HashMap::new();
    for (l, v, h, s) in rows {
        let e = longest.entry((l, v, h)).or_default();
        *e = (*e).max(s.utilization.len());
    }
    let (mut logs, mut variants, mut heuristics, mut hours) = (vec![], vec![], vec![], vec![]);
    let (mut util, mut queue, mut work) = (vec![], vec![], vec![]);
    for (l, v, h, s) in rows {
        for k in 0..longest[&(l.as_str(), v.as_str(), h.as_str())] {
            logs.push(l.clone());
            variants.push(v.clone());
            heuristics.push(h.clone());
            hours.push(k as f64 * s.step / 3600.0);
            util.push(s.utilization.get(k).copied().unwrap_or(0.0));
            queue.push(s.queue_length.get(k).copied().unwrap_or(0.0));
            work.push(s.queued_work.get(k).copied().unwrap_or(0.0));
        }
    }
    let work = DataFrame::new_infer_height(vec![
        Column::new("log_key".into(), logs),
        Column::new("variant".into(), variants),
        Column::new("heuristic".into(), heuristics),
        Column::new("hour".into(), hours),
        Column::new("utilization".into(), util),
        Column::new("queue_length".into(), queue),
        Column::new("queued_work_unit_s".into(), work),
    ])?;
    let metrics = ["utilization", "queue_length", "queued_work_unit_s"];
    let keys = ["log_key", "variant", "heuristic", "hour"];
    let grouped = super::aggregate::mean_ci(work, &keys, &metrics, vec![])?;
    let mut names: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    names.push("n".into());
    for m in metrics {
        for s in ["mean", "sd", "ci95"] {
            names.push(format!("{m}_{s}"));
        }
    }
    grouped.select(names)
}
