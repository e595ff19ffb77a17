//! Seeded random streams. Every random draw in swftool comes from a
//! [`ChaCha8Rng`] whose seed is derived from the user's seed and a fixed
//! label, so results do not depend on thread count or on which other
//! streams were used.

use rand::SeedableRng;
pub use rand::rngs::ChaCha8Rng;

/// SplitMix64 finaliser: a bijective mix of a 64-bit value (Steele et al. 2014).
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Derives a child seed from a parent seed and a label (e.g. a day index or
/// a stream number). Distinct labels give unrelated streams.
pub fn derive_seed(parent: u64, label: u64) -> u64 {
    mix64(mix64(parent) ^ mix64(label.wrapping_add(0x5EED)))
}

/// A ChaCha8 generator for stream `label` of seed `seed`.
pub fn stream(seed: u64, label: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(derive_seed(seed, label))
}
