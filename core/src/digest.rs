//! FNV-1a, the one hash kubefit-core needs: node names to slots, shared toleration lists,
//! owner keys and generated-name suffixes. (`core` has no hasher and kubefit-core keeps
//! serde as its only required dependency; a digest here only picks candidates or seeds a
//! suffix.)

/// The FNV-1a offset basis: the digest of nothing.
pub(crate) const EMPTY: u64 = 0xcbf2_9ce4_8422_2325;

/// `digest` carried on over `bytes`.
#[must_use]
pub(crate) fn fnv1a(digest: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(digest, |digest, byte| {
        (digest ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published FNV-1a 64-bit test vectors.
    #[test]
    fn matches_the_reference_vectors() {
        assert_eq!(fnv1a(EMPTY, b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(EMPTY, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(EMPTY, b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(fnv1a(fnv1a(EMPTY, b"foo"), b"bar"), fnv1a(EMPTY, b"foobar"));
    }
}
