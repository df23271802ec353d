//! Deterministic randomness. The world must be identical for a seed on every machine and
//! with every version of our dependencies, so it uses its own small generator (SplitMix64)
//! seeded through SHA-256, rather than `rand` (whose streams may change between releases)
//! or `std`'s randomly keyed hasher.

use sha2::{Digest, Sha256};

/// SplitMix64: tiny, fast, and good enough for synthetic data.
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// A generator whose seed is a stable hash of `parts`.
    pub(crate) fn from_parts(parts: &[&[u8]]) -> Self {
        Self(seed_from(parts))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`; the modulo bias is irrelevant for the small `n` used here).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub(crate) fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi.saturating_sub(lo) + 1)
    }

    /// Uniform in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// True with probability `p`.
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// SHA-256 of `parts`, each prefixed by its length so that ("ab", "c") and ("a", "bc") differ.
pub(crate) fn hash_parts(parts: &[&[u8]]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_be_bytes());
        hasher.update(part);
    }
    hasher.finalize().into()
}

/// A `u64` seed derived from `parts`.
pub(crate) fn seed_from(parts: &[&[u8]]) -> u64 {
    let digest = hash_parts(parts);
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_parts_are_length_prefixed() {
        let a: Vec<u64> = (0..4).map(|_| 0).scan(Rng::new(7), |r, _| Some(r.next_u64())).collect();
        let b: Vec<u64> = (0..4).map(|_| 0).scan(Rng::new(7), |r, _| Some(r.next_u64())).collect();
        assert_eq!(a, b);
        assert_ne!(Rng::new(8).next_u64(), a[0]);
        assert_ne!(seed_from(&[b"ab", b"c"]), seed_from(&[b"a", b"bc"]));
    }

    #[test]
    fn ranges_stay_in_bounds() {
        let mut rng = Rng::new(1);
        for _ in 0..1000 {
            let v = rng.between(25, 45);
            assert!((25..=45).contains(&v));
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
            assert!(rng.below(3) < 3);
        }
    }
}
