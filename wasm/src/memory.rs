//! Growing wasm memory in one step for a large input, instead of 64 KiB at a time.
//!
//! Rust's allocator on wasm (dlmalloc) grows the memory by what each allocation lacks, so
//! reading a 400 MB dump grew it thousands of times; in V8 each `memory.grow` costs about
//! 0.4 ms and replaces the memory's `ArrayBuffer`, which made the first call on a new
//! instance two to four times slower than later ones (BENCHMARKS.md). Allocating once what
//! the call will need anyway and freeing it at once hands that memory to the allocator, so
//! the call grows the memory a few times only. This is done through the allocator (not
//! with `memory.grow` directly) so that the allocator owns the new memory.

/// What reading an input takes, as a multiple of its size (in eighths): the text itself
/// and the objects decoded from it. Decoding kubectl dumps peaks at about 1.4 times their
/// size for JSON and 1.9 times for the more compact YAML (BENCHMARKS.md); evaluating them
/// takes more, so the reserve does not make `evaluate`'s peak any larger.
const JSON_EIGHTHS: u64 = 12;
const YAML_EIGHTHS: u64 = 15;

/// Inputs smaller than this fit in the memory an instance starts with, or nearly.
const SMALL: usize = 1 << 20;

/// Makes sure the wasm memory holds what reading `sources` takes, growing it at most once.
pub fn reserve_for(sources: &[crate::OwnedSource]) {
    let wanted = needed(sources.iter().map(|source| source.bytes.as_slice()));
    if wanted < SMALL {
        return;
    }
    // An instance that grew in an earlier call already has the memory.
    let missing = wanted.saturating_sub(memory_size());
    if missing > 0 {
        // Failing to reserve is no error: the call then grows the memory as it goes.
        let mut reserve: Vec<u8> = Vec::new();
        let _ = reserve.try_reserve_exact(missing);
    }
}

/// The memory that reading these texts takes at least, in bytes.
fn needed<'a>(texts: impl Iterator<Item = &'a [u8]>) -> usize {
    // In u64: `usize` is 32 bits wide in wasm, and 1.875 times 3 GB overflows it.
    let total: u64 = texts
        .map(|text| {
            let eighths = if looks_like_json(text) {
                JSON_EIGHTHS
            } else {
                YAML_EIGHTHS
            };
            u64::try_from(text.len())
                .unwrap_or(u64::MAX)
                .saturating_mul(eighths)
                / 8
        })
        .fold(0, u64::saturating_add);
    usize::try_from(total).unwrap_or(usize::MAX)
}

/// Like kubefit-core: a text whose first non-blank byte is `{` or `[` is JSON.
fn looks_like_json(bytes: &[u8]) -> bool {
    let body = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    matches!(
        body.iter().find(|byte| !byte.is_ascii_whitespace()),
        Some(b'{' | b'[')
    )
}

#[cfg(target_arch = "wasm32")]
fn memory_size() -> usize {
    core::arch::wasm32::memory_size(0).saturating_mul(64 * 1024)
}

/// Natively (in tests) there is nothing to grow.
#[cfg(not(target_arch = "wasm32"))]
fn memory_size() -> usize {
    usize::MAX
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_inputs_need_a_multiple_of_their_size() {
        let yaml = vec![b' '; 400 << 20];
        let json = b"{}".repeat(100 << 20);
        assert_eq!(needed([yaml.as_slice()].into_iter()), 750 << 20);
        assert_eq!(needed([json.as_slice()].into_iter()), 300 << 20);
        assert_eq!(
            needed([yaml.as_slice(), json.as_slice()].into_iter()),
            1050 << 20
        );
    }

    #[test]
    fn json_is_told_from_yaml_like_core_does() {
        assert!(looks_like_json(b"  \n{\"a\": 1}"));
        assert!(looks_like_json("\u{feff}[1]".as_bytes()));
        assert!(!looks_like_json(b"a: {}"));
        assert!(!looks_like_json(b""));
    }
}
