//! The system of environment C and its matrices, redrawn per trial from
//! its seed (Khemka et al., "Comparison of energy-constrained resource
//! allocation heuristics under different task management environments",
//! §IV): 100 machines in 13
//! machine types — 4 special-purpose types of 2, 2, 3 and 3 machines, 9
//! general-purpose types of 5, 5, 5, 10, 10, 10, 10, 15 and 20 — each with
//! three P-states (0 fastest); 100 task types, 83 general and 17 special
//! (split 4, 4, 4, 5 over the special machine types: a special type runs on
//! its special machine type and on every general one; a special machine
//! runs nothing else).
//!
//! Matrices (the COV method of Ali et al. 2000; the COVs are swftool's
//! choice where the paper gives none):
//! - ETC at P-state 0, s: per task type a mean q ~ gamma(600 s, COV 0.1);
//!   on a general machine type ETC ~ gamma(q, COV 0.3); on the type's
//!   special machine type ETC ~ gamma(q / 10, COV 0.3);
//! - ETC at P-states 1 and 2: ETC(P0) · s₁ and ETC(P0) · s₂, s₁ and s₂
//!   gammas of mean 1/√0.75 and 1/√0.5 (COV 0.05) redrawn until
//!   1 < s₁ < s₂, per (task type, machine type);
//! - APC, W: dynamic power, at P-state 0 a gamma of mean 133 W (COV 0.1)
//!   per task type times a gamma of mean 1 (COV 0.1) per machine type; 75 %
//!   and 50 % of that at P-states 1 and 2; plus the static power counted in
//!   an APC ([`Matrices::static_power_w`]);
//! - EEC = ETC · APC, J.
//!
//! Where the machines' static power goes is a model choice (docs/energy.md,
//! "What the budget counts"): by default every machine draws it all day
//! whatever the schedule (the machines are never turned off, §III.A), a
//! constant that the run configuration adds to the day's energy, so drawn
//! matrices count none in their APC: APC and EEC are the power and energy a
//! task adds. `--static-counted while-busy` counts it in every APC instead
//! ([`Matrices::set_static_power`]).

use rand::Rng;

use crate::model::etc::{CovError, draw};
use crate::model::rng::stream;

/// Machines per machine type: the 4 special-purpose types first.
pub const MACHINES_PER_TYPE: [u32; 13] = [2, 2, 3, 3, 5, 5, 5, 10, 10, 10, 10, 15, 20];
/// Number of special-purpose machine types (the first ones).
pub const SPECIAL_MACHINE_TYPES: usize = 4;
/// Number of task types.
pub const TASK_TYPES: usize = 100;
/// Special task types per special machine type; they are the last task
/// types (83 … 99).
pub const SPECIAL_TASK_TYPES: [usize; 4] = [4, 4, 4, 5];
/// P-states per machine (0 fastest).
pub const P_STATES: usize = 3;
/// Mean of a task type's mean ETC at P-state 0, s (10 min).
pub const MEAN_ETC_S: f64 = 600.0;
/// Static power of a machine, W (swftool's figure: the paper gives none;
/// `--static-power`).
pub const STATIC_POWER_W: f64 = 50.0;
/// The most static power `--static-power` accepts, W.
pub const MAX_STATIC_POWER_W: f64 = 10_000.0;
/// Mean dynamic power at P-state 0, W.
pub const MEAN_DYNAMIC_POWER_W: f64 = 133.0;
/// Dynamic power of P-states 1 and 2 relative to P-state 0.
pub const DYNAMIC_POWER_FACTOR: [f64; 3] = [1.0, 0.75, 0.5];

/// One machine type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MachineType {
    /// Machines of this type.
    pub machines: u32,
    /// Whether it is special-purpose (runs only its special task types).
    pub special: bool,
}

/// The system and the ETC and APC matrices of one trial.
#[derive(Debug, Clone, PartialEq)]
pub struct Matrices {
    /// The machine types, special ones first.
    pub machine_types: Vec<MachineType>,
    /// Per task type, the special machine type it belongs to (`None`: a
    /// general task type).
    pub special_of: Vec<Option<usize>>,
    /// ETC, s, per (task type, machine type, P-state), row-major; `None`
    /// where the task type may not run.
    etc: Vec<Option<f64>>,
    /// APC less the static power counted, W, same layout (the dynamic
    /// power of drawn matrices; the APC given to [`Matrices::from_entries`]).
    power: Vec<Option<f64>>,
    /// Static power counted in every valid APC, W.
    static_power_w: f64,
}

const ETC_STREAM: u64 = 0xC_0001;
const POWER_STREAM: u64 = 0xC_0002;

impl Matrices {
    /// The matrices of the trial whose seed is `seed`.
    ///
    /// # Errors
    /// [`CovError`] only if a drawn mean is not positive (it cannot be: the
    /// gamma draws are positive).
    pub fn draw(seed: u64) -> Result<Matrices, CovError> {
        let machine_types: Vec<MachineType> = MACHINES_PER_TYPE
            .iter()
            .enumerate()
            .map(|(k, &machines)| MachineType {
                machines,
                special: k < SPECIAL_MACHINE_TYPES,
            })
            .collect();
        let general = TASK_TYPES - SPECIAL_TASK_TYPES.iter().sum::<usize>();
        let mut special_of = vec![None; general];
        for (m, &n) in SPECIAL_TASK_TYPES.iter().enumerate() {
            special_of.extend(std::iter::repeat_n(Some(m), n));
        }
        let types = machine_types.len();
        let cell = |i: usize, m: usize, p: usize| (i * types + m) * P_STATES + p;
        let mut etc = vec![None; TASK_TYPES * types * P_STATES];
        let mut apc = vec![None; TASK_TYPES * types * P_STATES];
        let mut rng = stream(seed, ETC_STREAM);
        let mut power = stream(seed, POWER_STREAM);
        let machine_factor: Vec<f64> = (0..types)
            .map(|_| draw(&mut power, 1.0, 0.1))
            .collect::<Result<_, _>>()?;
        for (i, special) in special_of.iter().enumerate() {
            let q = draw(&mut rng, MEAN_ETC_S, 0.1)?;
            let dynamic = draw(&mut power, MEAN_DYNAMIC_POWER_W, 0.1)?;
            for (m, mt) in machine_types.iter().enumerate() {
                let mean = match (mt.special, *special) {
                    (false, _) => q,
                    (true, Some(s)) if s == m => q / 10.0,
                    (true, _) => continue,
                };
                let e0 = draw(&mut rng, mean, 0.3)?;
                let (s1, s2) = p_state_scales(&mut rng)?;
                for (p, s) in [1.0, s1, s2].into_iter().enumerate() {
                    etc[cell(i, m, p)] = Some(e0 * s);
                    apc[cell(i, m, p)] =
                        Some(dynamic * machine_factor[m] * DYNAMIC_POWER_FACTOR[p]);
                }
            }
        }
        Ok(Matrices {
            machine_types,
            special_of,
            etc,
            power: apc,
            static_power_w: 0.0,
        })
    }

    /// Counts `watts` of static power in every APC from now on (W; finite,
    /// ≥ 0: the caller validates `--static-power`).
    pub fn set_static_power(&mut self, watts: f64) {
        self.static_power_w = watts;
    }

    /// The static power counted in every APC, W.
    pub fn static_power_w(&self) -> f64 {
        self.static_power_w
    }

    fn cell(&self, i: usize, m: usize, p: usize) -> usize {
        (i * self.machine_types.len() + m) * P_STATES + p
    }

    /// Whether task type `i` may run on machine type `m`.
    pub fn valid(&self, i: usize, m: usize) -> bool {
        self.etc[self.cell(i, m, 0)].is_some()
    }

    /// ETC of task type `i` on machine type `m` in P-state `p`, s (`None`
    /// where it may not run).
    pub fn etc(&self, i: usize, m: usize, p: usize) -> Option<f64> {
        self.etc[self.cell(i, m, p)]
    }

    /// Average power consumption of task type `i` on machine type `m` in
    /// P-state `p`, W: the static power counted plus the dynamic power
    /// (`None` where it may not run).
    pub fn apc(&self, i: usize, m: usize, p: usize) -> Option<f64> {
        self.power[self.cell(i, m, p)].map(|d| d + self.static_power_w)
    }

    /// The ETCs in P-state `p`, s, as one table: task type by task type,
    /// one entry per machine type (task types × machine types entries),
    /// infinite where the task type may not run.
    pub fn etc_table(&self, p: usize) -> Vec<f64> {
        (0..self.task_types())
            .flat_map(|i| {
                (0..self.machine_types.len())
                    .map(move |m| self.etc(i, m, p).unwrap_or(f64::INFINITY))
            })
            .collect()
    }

    /// Expected energy to compute, EEC = ETC · APC, J (`None` where the
    /// task type may not run).
    pub fn eec(&self, i: usize, m: usize, p: usize) -> Option<f64> {
        Some(self.etc(i, m, p)? * self.apc(i, m, p)?)
    }

    /// Total machines.
    pub fn machines(&self) -> u32 {
        self.machine_types.iter().map(|t| t.machines).sum()
    }

    /// Number of task types (rows).
    pub fn task_types(&self) -> usize {
        self.special_of.len()
    }

    /// The machine type of every machine, machines numbered 0.. type by
    /// type.
    pub fn machine_type_of(&self) -> Vec<usize> {
        self.machine_types
            .iter()
            .enumerate()
            .flat_map(|(m, t)| std::iter::repeat_n(m, t.machines as usize))
            .collect()
    }

    /// Mean ETC (s) and mean EEC (J) over every valid (task type, machine
    /// type, P-state): τ̄ and ē of the energy filter (Khemka et al., §III.C).
    pub fn means(&self) -> (f64, f64) {
        let (mut t, mut e, mut n) = (0.0, 0.0, 0usize);
        for (etc, power) in self.etc.iter().zip(&self.power) {
            if let (Some(x), Some(p)) = (etc, power) {
                t += x;
                e += x * (p + self.static_power_w);
                n += 1;
            }
        }
        let n = n.max(1) as f64;
        (t / n, e / n)
    }

    /// The least EEC (J) and the least APC (W) of any task type and P-state
    /// on machine type `m` (infinite where nothing may run): a choice on it
    /// that runs for at most τ seconds of the day costs at least
    /// min(EEC, APC · τ).
    pub fn floors(&self, m: usize) -> (f64, f64) {
        let (mut eec, mut apc) = (f64::INFINITY, f64::INFINITY);
        for i in 0..self.task_types() {
            for p in 0..P_STATES {
                if let (Some(e), Some(a)) = (self.eec(i, m, p), self.apc(i, m, p)) {
                    eec = eec.min(e);
                    apc = apc.min(a);
                }
            }
        }
        (eec, apc)
    }

    /// Mean ETC at P-state 0 of task type `i` over the machine types it
    /// may run on, s: the ē that scales its utility function.
    pub fn mean_p0_etc(&self, i: usize) -> f64 {
        let v: Vec<f64> = (0..self.machine_types.len())
            .filter_map(|m| self.etc(i, m, 0))
            .collect();
        v.iter().sum::<f64>() / v.len().max(1) as f64
    }

    /// Matrices given entry by entry (hand-built scenarios): `etc[i][m]`
    /// and `apc[i][m]` are the three P-states' ETC (s) and APC (W) of task
    /// type `i` on machine type `m`, or `None` where it may not run.
    ///
    /// # Errors
    /// A sentence naming the entry, for shapes that do not match, a type
    /// with no valid machine type, or an entry that is not positive and
    /// finite.
    pub fn from_entries(
        machine_types: Vec<MachineType>,
        etc: &[Vec<Option<[f64; 3]>>],
        apc: &[Vec<Option<[f64; 3]>>],
    ) -> Result<Matrices, String> {
        let types = machine_types.len();
        if etc.len() != apc.len() {
            return Err(format!("{} ETC rows but {} APC rows", etc.len(), apc.len()));
        }
        let mut special_of = Vec::with_capacity(etc.len());
        let mut e = Vec::with_capacity(etc.len() * types * P_STATES);
        let mut a = Vec::with_capacity(etc.len() * types * P_STATES);
        for (i, (er, ar)) in etc.iter().zip(apc).enumerate() {
            if er.len() != types || ar.len() != types {
                return Err(format!("task type {i}: expected {types} machine types"));
            }
            let mut special = None;
            let mut any = false;
            for (m, (x, p)) in er.iter().zip(ar).enumerate() {
                match (x, p) {
                    (Some(x), Some(p)) => {
                        if x.iter().chain(p).any(|v| !(v.is_finite() && *v > 0.0)) {
                            return Err(format!(
                                "task type {i}, machine type {m}: ETC and APC must be positive"
                            ));
                        }
                        any = true;
                        if machine_types[m].special {
                            special = Some(m);
                        }
                        for k in 0..P_STATES {
                            e.push(Some(x[k]));
                            a.push(Some(p[k]));
                        }
                    }
                    (None, None) => {
                        for _ in 0..P_STATES {
                            e.push(None);
                            a.push(None);
                        }
                    }
                    _ => {
                        return Err(format!(
                            "task type {i}, machine type {m}: ETC and APC must both be given or both absent"
                        ));
                    }
                }
            }
            if !any {
                return Err(format!("task type {i} may run nowhere"));
            }
            special_of.push(special);
        }
        Ok(Matrices {
            machine_types,
            special_of,
            etc: e,
            power: a,
            static_power_w: 0.0,
        })
    }
}

/// The slow-down factors of P-states 1 and 2: gammas of mean 1/√0.75 and
/// 1/√0.5 (COV 0.05), redrawn until 1 < s₁ < s₂.
fn p_state_scales<R: Rng + ?Sized>(rng: &mut R) -> Result<(f64, f64), CovError> {
    loop {
        let s1 = draw(rng, 1.0 / 0.75_f64.sqrt(), 0.05)?;
        let s2 = draw(rng, 1.0 / 0.5_f64.sqrt(), 0.05)?;
        if 1.0 < s1 && s1 < s2 {
            return Ok((s1, s2));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_system_has_the_papers_machines_and_task_types() {
        let m = Matrices::draw(1).unwrap();
        assert_eq!(m.machines(), 100);
        assert_eq!(m.machine_types.len(), 13);
        assert_eq!(m.machine_types.iter().filter(|t| t.special).count(), 4);
        assert_eq!(m.special_of.len(), 100);
        assert_eq!(m.special_of.iter().filter(|s| s.is_some()).count(), 17);
    }

    #[test]
    fn eec_is_etc_times_apc_and_p0_is_the_fastest() {
        let m = Matrices::draw(7).unwrap();
        for i in 0..TASK_TYPES {
            for k in 0..m.machine_types.len() {
                if !m.valid(i, k) {
                    assert!(m.etc(i, k, 0).is_none() && m.eec(i, k, 2).is_none());
                    continue;
                }
                for p in 0..P_STATES {
                    let (e, a) = (m.etc(i, k, p).unwrap(), m.apc(i, k, p).unwrap());
                    assert_eq!(m.eec(i, k, p).unwrap(), e * a);
                    assert!(a > 0.0);
                }
                assert!(m.etc(i, k, 0) < m.etc(i, k, 1));
                assert!(m.etc(i, k, 1) < m.etc(i, k, 2));
                assert!(m.apc(i, k, 0) > m.apc(i, k, 1));
            }
        }
    }

    #[test]
    fn special_machines_accept_only_their_special_task_types() {
        let m = Matrices::draw(3).unwrap();
        for (i, s) in m.special_of.iter().enumerate() {
            for (k, t) in m.machine_types.iter().enumerate() {
                let expect = !t.special || *s == Some(k);
                assert_eq!(m.valid(i, k), expect, "task type {i}, machine type {k}");
            }
        }
        // Types 83..99 are special: 4, 4, 4, 5 per special machine type.
        assert_eq!(m.special_of[82], None);
        assert_eq!(m.special_of[83], Some(0));
        assert_eq!(m.special_of[99], Some(3));
    }

    #[test]
    fn the_draws_follow_their_means_over_many_trials() {
        let (mut general, mut n) = (0.0, 0.0);
        let (mut s1, mut ns) = (0.0, 0.0);
        for seed in 0..40 {
            let m = Matrices::draw(seed).unwrap();
            for i in 0..83 {
                for k in SPECIAL_MACHINE_TYPES..m.machine_types.len() {
                    general += m.etc(i, k, 0).unwrap();
                    n += 1.0;
                    s1 += m.etc(i, k, 1).unwrap() / m.etc(i, k, 0).unwrap();
                    ns += 1.0;
                }
            }
        }
        // E[ETC(P0)] on general machines = E[q] = 600 s.
        assert!((general / n - 600.0).abs() < 6.0, "{}", general / n);
        // s₁ has mean 1/√0.75 ≈ 1.1547 (the truncation 1 < s₁ < s₂ moves
        // it by much less than 1 %).
        assert!((s1 / ns - 1.1547).abs() < 0.01, "{}", s1 / ns);
    }

    #[test]
    fn static_power_is_added_to_every_apc_and_eec() {
        let m = Matrices::draw(5).unwrap();
        assert_eq!(m.static_power_w(), 0.0);
        let mut s = m.clone();
        s.set_static_power(STATIC_POWER_W);
        let (t, e) = m.means();
        let (ts, es) = s.means();
        assert_eq!(t, ts);
        // ē grows by 50 W × τ̄.
        assert!((es - e - STATIC_POWER_W * t).abs() < 1e-6 * es);
        let (a, b) = (m.apc(3, 5, 2).unwrap(), s.apc(3, 5, 2).unwrap());
        assert_eq!(b, a + STATIC_POWER_W);
        assert_eq!(s.eec(3, 5, 2).unwrap(), s.etc(3, 5, 2).unwrap() * b);
        assert!(s.apc(3, 0, 0).is_none());
    }

    #[test]
    fn the_same_seed_gives_the_same_matrices() {
        assert_eq!(Matrices::draw(11).unwrap(), Matrices::draw(11).unwrap());
        assert_ne!(Matrices::draw(11).unwrap(), Matrices::draw(12).unwrap());
    }
}
