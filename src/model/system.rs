//! Heterogeneous systems of environment A: a few clusters, each of identical
//! nodes (Khemka et al. 2015, "soft and hard deadlines", §III.A).

use rand::{Rng, RngExt};

use super::etc::{self, CovError};

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

impl System {
    /// Total cores over all clusters.
    pub fn total_cores(&self) -> u64 {
        self.clusters.iter().map(Cluster::cores).sum()
    }

    /// Draws a system after Khemka et al. 2015, §4 (docs/parallel.md): total cores from a gamma with mean
    /// `mean_total_cores` and COV 0.05; 2, 3 or 4 clusters; cores per node of
    /// each from [`CORES_PER_NODE_CHOICES`]; each cluster but the last takes
    /// U(0.1, 0.5) of the still unclaimed cores, the last takes the rest;
    /// nodes = floor(cores / cores per node), at least 1.
    ///
    /// # Errors
    /// [`CovError`] when `mean_total_cores` is not positive.
    pub fn generate<R: Rng + ?Sized>(
        rng: &mut R,
        mean_total_cores: f64,
    ) -> Result<System, CovError> {
        let total = etc::draw(rng, mean_total_cores, 0.05)?.round().max(1.0);
        let n_clusters: usize = rng.random_range(2..=4);
        let mut unclaimed = total;
        let mut clusters = Vec::with_capacity(n_clusters);
        for i in 0..n_clusters {
            let cpn = CORES_PER_NODE_CHOICES[rng.random_range(0..CORES_PER_NODE_CHOICES.len())];
            let cores = if i + 1 == n_clusters {
                unclaimed
            } else {
                let share: f64 = rng.random_range(0.1..0.5);
                (share * unclaimed).floor()
            };
            unclaimed -= cores;
            let nodes = ((cores / f64::from(cpn)).floor() as u32).max(1);
            clusters.push(Cluster {
                cores_per_node: cpn,
                nodes,
            });
        }
        Ok(System { clusters })
    }
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
            let s = System::generate(&mut rng, 18_432.0).unwrap();
            assert!((2..=4).contains(&s.clusters.len()));
            for c in &s.clusters {
                assert!(CORES_PER_NODE_CHOICES.contains(&c.cores_per_node));
                assert!(c.nodes >= 1);
            }
            let total = s.total_cores() as f64;
            // 5 % COV: 8 standard deviations is far beyond any seed here; node
            // rounding loses less than 32 cores per cluster.
            assert!((total - 18_432.0).abs() < 0.4 * 18_432.0, "{total}");
        }
    }
}
