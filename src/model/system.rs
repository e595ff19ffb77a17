//! Heterogeneous systems of environment A: a few clusters, each of identical
//! nodes (Khemka et al. 2015, "soft and hard deadlines", §III.A).

use rand::{Rng, RngExt};
use rand_distr::Distribution;

use super::etc;

/// One cluster: `nodes` identical nodes of `cores_per_node` cores each. A node
/// runs at most one task at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cluster {
    /// Cores per node.
    pub cores_per_node: u32,
    /// Number of nodes.
    pub nodes: u32,
}

impl Cluster {
    /// Nodes a task asking for `cores` cores gets on this cluster: ceil(c/p).
    pub fn nodes_for(&self, cores: u32) -> u32 {
        cores.div_ceil(self.cores_per_node)
    }

    /// Cores a task asking for `cores` is charged on this cluster:
    /// NC = ceil(c/p)·p.
    pub fn charged_cores(&self, cores: u32) -> u64 {
        u64::from(self.nodes_for(cores)) * u64::from(self.cores_per_node)
    }

    /// Whether a task asking for `cores` cores fits on this cluster at all.
    pub fn fits(&self, cores: u32) -> bool {
        self.nodes_for(cores) <= self.nodes
    }

    /// Total cores of the cluster.
    pub fn cores(&self) -> u64 {
        u64::from(self.nodes) * u64::from(self.cores_per_node)
    }
}

/// A heterogeneous system: clusters indexed 0.., cluster 0 being the one whose
/// ETC column is the logged run time.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct System {
    /// The clusters, in index order.
    pub clusters: Vec<Cluster>,
}

/// Cores-per-node choices of docs/parallel.md.
pub const CORES_PER_NODE_CHOICES: [u32; 7] = [1, 2, 4, 8, 16, 24, 32];

/// Smallest mean system size environment A builds, cores: room for 2 to 4
/// clusters of at least one node each, with the total kept within 1 %
/// (or half a core) of the drawn one.
pub const MIN_SYSTEM_CORES: f64 = 8.0;
/// Largest mean system size environment A builds, cores (about 50 times
/// the paper's 18,432; every node has a timeline in memory).
pub const MAX_SYSTEM_CORES: f64 = 1_000_000.0;

/// Largest share of the drawn total the last cluster's node size may have,
/// so that rounding it to whole nodes moves the total by at most half of
/// it: 0.5 % (and not at all below 200 cores, where the share is under 2
/// cores and the nodes have 1 core).
const LAST_NODE_SHARE: f64 = 0.01;

/// How far the gamma draw may lie from the mean, relative: ±9 %. Draws
/// outside are redrawn; the test is on the draw divided by the mean, so the
/// three oversubscription levels of a day accept and reject the same draws
/// and keep common random numbers. With rounding to whole cores (clamped to
/// ±10 %) and to whole nodes (≤ 0.5 %), the realised total stays within
/// 10 % of the mean and the levels (25, 20, 15 %) never overlap.
const DRAW_TOLERANCE: f64 = 0.09;

/// Redraws before giving up on the truncation (never reached in practice:
/// 93 % of draws are accepted).
const MAX_REDRAWS: usize = 10_000;

/// A system size environment A cannot build.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SystemSizeError {
    /// Not a finite number of cores.
    #[error("a system of {0} cores cannot be built: the size must be a finite number of cores")]
    NotFinite(f64),
    /// Fewer than [`MIN_SYSTEM_CORES`].
    #[error(
        "a system of {0} cores is too small: environment A needs at least {MIN_SYSTEM_CORES} cores (2 to 4 clusters of whole nodes)"
    )]
    TooSmall(f64),
    /// More than [`MAX_SYSTEM_CORES`].
    #[error("a system of {0:.0} cores is beyond environment A's limit of {MAX_SYSTEM_CORES} cores")]
    TooLarge(f64),
}

/// Checks a mean system size (cores) against [`MIN_SYSTEM_CORES`] and
/// [`MAX_SYSTEM_CORES`].
///
/// # Errors
/// [`SystemSizeError`] when it is not finite or out of range.
pub fn check_size(mean_total_cores: f64) -> Result<(), SystemSizeError> {
    if !mean_total_cores.is_finite() {
        Err(SystemSizeError::NotFinite(mean_total_cores))
    } else if mean_total_cores < MIN_SYSTEM_CORES {
        Err(SystemSizeError::TooSmall(mean_total_cores))
    } else if mean_total_cores > MAX_SYSTEM_CORES {
        Err(SystemSizeError::TooLarge(mean_total_cores))
    } else {
        Ok(())
    }
}

impl System {
    /// Total cores over all clusters.
    pub fn total_cores(&self) -> u64 {
        self.clusters.iter().map(Cluster::cores).sum()
    }

    /// Draws a system after Khemka et al. 2015, §V (docs/parallel.md):
    /// the total T from a gamma with mean `mean_total_cores` and COV 0.05,
    /// redrawn until it lies within ±9 % of the mean (swftool's truncation:
    /// ±1.8 standard deviations, 93 % of draws), rounded to whole cores
    /// (kept within ±10 %); 2, 3 or 4 clusters; each cluster but the
    /// last takes ⌊U(0.1, 0.5) · unclaimed⌋ cores, the last what is left.
    ///
    /// Node sizes are chosen to fit (swftool's rule, so that small logs get
    /// systems of the size asked for): each cluster's cores per node are
    /// drawn uniformly among the [`CORES_PER_NODE_CHOICES`] no larger than
    /// its cores (1 when none is); a cluster but the last gets
    /// ⌊cores / cores per node⌋ nodes (at least 1) and what that leaves
    /// over goes to the next cluster; the last cluster's node size is also
    /// at most 1 % of T and its node count is rounded to the nearest. The
    /// realised total is therefore within 0.5 % of T (exactly T below 200
    /// cores, where the last cluster has 1-core nodes), and always within
    /// 10 % of the mean.
    ///
    /// Returns the system and T.
    ///
    /// # Errors
    /// [`SystemSizeError`] when `mean_total_cores` is outside
    /// [`MIN_SYSTEM_CORES`]..=[`MAX_SYSTEM_CORES`].
    pub fn generate<R: Rng + ?Sized>(
        rng: &mut R,
        mean_total_cores: f64,
    ) -> Result<(System, u64), SystemSizeError> {
        check_size(mean_total_cores)?;
        let gamma = etc::gamma_mean_cov(mean_total_cores, 0.05)
            .map_err(|_| SystemSizeError::NotFinite(mean_total_cores))?;
        let mut relative = 1.0;
        for _ in 0..MAX_REDRAWS {
            let r = gamma.sample(rng) / mean_total_cores;
            if (r - 1.0).abs() <= DRAW_TOLERANCE {
                relative = r;
                break;
            }
        }
        let total = (relative * mean_total_cores)
            .round()
            .clamp(
                (0.9 * mean_total_cores).ceil(),
                (1.1 * mean_total_cores).floor(),
            )
            .max(1.0);
        let n_clusters: usize = rng.random_range(2..=4);
        let mut unclaimed = total;
        let mut clusters = Vec::with_capacity(n_clusters);
        for i in 0..n_clusters {
            let last = i + 1 == n_clusters;
            let cores = if last {
                unclaimed
            } else {
                let share: f64 = rng.random_range(0.1..0.5);
                (share * unclaimed).floor()
            };
            let limit = if last {
                cores.min(LAST_NODE_SHARE * total)
            } else {
                cores
            };
            let cpn = pick_node_size(rng, limit);
            let per_node = f64::from(cpn);
            let nodes = if last {
                (cores / per_node).round()
            } else {
                (cores / per_node).floor()
            }
            .max(1.0) as u32;
            unclaimed -= f64::from(nodes) * per_node;
            clusters.push(Cluster {
                cores_per_node: cpn,
                nodes,
            });
        }
        Ok((System { clusters }, total as u64))
    }
}

/// Cores per node drawn uniformly among the choices no larger than `limit`
/// (1 when none is).
fn pick_node_size<R: Rng + ?Sized>(rng: &mut R, limit: f64) -> u32 {
    let fit = CORES_PER_NODE_CHOICES
        .iter()
        .take_while(|&&c| f64::from(c) <= limit)
        .count()
        .max(1);
    CORES_PER_NODE_CHOICES[rng.random_range(0..fit)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::stream;

    #[test]
    fn node_rounding_charges_whole_nodes() {
        let c = Cluster {
            cores_per_node: 16,
            nodes: 10,
        };
        assert_eq!(c.nodes_for(1), 1);
        assert_eq!(c.nodes_for(16), 1);
        assert_eq!(c.nodes_for(17), 2);
        assert_eq!(c.charged_cores(17), 32);
        assert!(c.fits(160));
        assert!(!c.fits(161));
    }

    #[test]
    fn generated_systems_follow_the_recipe() {
        for seed in 0..200 {
            let mut rng = stream(seed, 9);
            let (s, drawn) = System::generate(&mut rng, 18_432.0).unwrap();
            assert!((2..=4).contains(&s.clusters.len()));
            for c in &s.clusters {
                assert!(CORES_PER_NODE_CHOICES.contains(&c.cores_per_node));
                assert!(c.nodes >= 1);
            }
            let total = s.total_cores() as f64;
            assert!(
                (total - drawn as f64).abs() <= 0.005 * drawn as f64,
                "{total} {drawn}"
            );
            assert!(
                (drawn as f64 - 18_432.0).abs() <= 0.09 * 18_432.0 + 0.5,
                "{drawn}"
            );
        }
    }

    /// Small systems keep their size: the realised total stays within
    /// 0.5 % of the drawn one (exactly it when small) and within 10 % of
    /// the mean, at every size from the smallest allowed up.
    #[test]
    fn small_systems_keep_the_size_asked_for() {
        for mean in [
            8.0, 9.5, 15.0, 19.2, 25.6, 32.0, 48.0, 60.0, 100.0, 133.0, 150.0, 183.0, 199.0, 250.0,
            333.3, 18_662.4,
        ] {
            for seed in 0..300 {
                let mut rng = stream(seed, 9);
                let (s, drawn) = System::generate(&mut rng, mean).unwrap();
                let total = s.total_cores() as f64;
                let err = (total - drawn as f64).abs();
                assert!(
                    err <= 0.005 * drawn as f64,
                    "mean {mean} seed {seed}: {total} cores for {drawn} drawn: {s:?}"
                );
                if drawn < 200 {
                    assert_eq!(total, drawn as f64, "mean {mean} seed {seed}: {s:?}");
                }
                assert!(
                    (total - mean).abs() <= 0.1 * mean,
                    "mean {mean} seed {seed}: {total} cores: {s:?}"
                );
            }
        }
    }

    /// The levels of a day share their draws: the same number of clusters,
    /// whatever the mean (common random numbers across the oversubscription
    /// levels).
    #[test]
    fn the_levels_of_a_day_share_their_draws() {
        for seed in 0..300 {
            let clusters = |mean: f64| {
                let (s, _) = System::generate(&mut stream(seed, 9), mean).unwrap();
                s.clusters.len()
            };
            let n = clusters(23_328.0);
            assert_eq!(clusters(18_662.4), n, "seed {seed}");
            assert_eq!(clusters(13_996.8), n, "seed {seed}");
            assert_eq!(clusters(60.0), clusters(36.0), "seed {seed}");
        }
    }

    #[test]
    fn sizes_out_of_range_are_refused() {
        let mut rng = stream(1, 9);
        for bad in [0.0, -1.0, 7.9, f64::NAN, f64::INFINITY, 1e12] {
            assert!(System::generate(&mut rng, bad).is_err(), "{bad}");
        }
        assert!(System::generate(&mut rng, MIN_SYSTEM_CORES).is_ok());
        assert!(System::generate(&mut rng, MAX_SYSTEM_CORES).is_ok());
    }
}
