//! Go's `sort.Slice` and `sort.Sort`, comparison for comparison, for the upstream sorts whose
//! order among equal elements decides an answer.
//!
//! Go's sorts are not stable, and upstream sorts lists where equals are common: preemption
//! victims of one priority (`MoreImportantPod`, where two pods without a start time each
//! count as the more important), machines of one delete priority. Which of them comes
//! first decides which pod is reprieved or which machine goes. Only the algorithm that
//! upstream's binaries were built with gives the same order, so it is written out here: no
//! crate reproduces Go's sorts, and Rust's own unstable sort orders equals differently.
//!
//! - [`Toolchain::Go110`]: Go 1.18 and earlier (Kubernetes 1.11 and OpenShift 3.11 were
//!   built with Go 1.10): quicksort with Tukey's ninther, a guard against runs of equal
//!   elements, heapsort past a depth limit, and for slices of 12 or fewer a shell pass
//!   with gap 6 before an insertion sort (`src/sort/zfuncversion.go`).
//! - [`Toolchain::Go119`] and [`Toolchain::Go124`]: pattern-defeating quicksort
//!   (`src/sort/zsortfunc.go`, Go 1.19 on: OpenShift 4.12's machine API, Kubernetes
//!   1.34), an insertion sort for 12 or fewer. They differ in the xorshift that scatters
//!   elements after an unbalanced partition: Go 1.24 corrected its shifts (golang/go
//!   issue 70144) from 13, 17, 5 to 13, 7, 17.
//!
//! Indexes are signed, as Go's `int` is, so the algorithm reads as upstream's; reads and
//! swaps outside the slice (none happen) are refused rather than panicking.

/// The Go release whose sort an upstream binary used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toolchain {
    /// Go 1.10 to 1.18: quicksort with a shell pass for short slices.
    Go110,
    /// Go 1.19 to 1.23: pdqsort, xorshift shifts 13, 17, 5.
    Go119,
    /// Go 1.24 on: pdqsort, xorshift shifts 13, 7, 17.
    Go124,
}

/// Sorts `data` as Go's `sort.Slice(data, less)` (or `sort.Sort` with that `Less`) built
/// with `toolchain` does, calling `less` on the same pairs in the same order. `less` need
/// not be a strict order: Go's sorts end on any comparison function, and so does this.
pub fn sort_slice<T>(data: &mut [T], toolchain: Toolchain, less: impl FnMut(&T, &T) -> bool) {
    let length = isize::try_from(data.len()).unwrap_or(isize::MAX);
    let mut sorter = Sorter { data, less };
    match toolchain {
        Toolchain::Go110 => sorter.quick_sort(0, length, max_depth(length)),
        Toolchain::Go119 | Toolchain::Go124 => {
            let shifts = if toolchain == Toolchain::Go119 {
                (13, 17, 5)
            } else {
                (13, 7, 17)
            };
            sorter.pdqsort(0, length, bit_length(length), shifts);
        }
    }
}

/// Go's `bits.Len`: the number of bits needed to write `n`.
fn bit_length(n: isize) -> isize {
    isize::try_from(usize::BITS - n.unsigned_abs().leading_zeros()).unwrap_or(0)
}

/// Go 1.18's `maxDepth`: twice the bit length, the depth past which quicksort gives way to
/// heapsort.
fn max_depth(n: isize) -> isize {
    bit_length(n) * 2
}

/// Whether pdqsort's pivot sample looked ascending, descending, or neither.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

/// A slice and its comparison, addressed by Go-style indexes.
struct Sorter<'a, T, F> {
    data: &'a mut [T],
    less: F,
}

impl<T, F: FnMut(&T, &T) -> bool> Sorter<'_, T, F> {
    fn less(&mut self, i: isize, j: isize) -> bool {
        let at = |k: isize| usize::try_from(k).ok();
        match (
            at(i).and_then(|i| self.data.get(i)),
            at(j).and_then(|j| self.data.get(j)),
        ) {
            (Some(a), Some(b)) => (self.less)(a, b),
            _ => false,
        }
    }

    fn swap(&mut self, i: isize, j: isize) {
        if let (Ok(i), Ok(j)) = (usize::try_from(i), usize::try_from(j)) {
            if i < self.data.len() && j < self.data.len() {
                self.data.swap(i, j);
            }
        }
    }

    fn insertion_sort(&mut self, a: isize, b: isize) {
        for i in a + 1..b {
            let mut j = i;
            while j > a && self.less(j, j - 1) {
                self.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    /// Restores the heap property below `root`, in the heap at `first` of `hi` elements.
    fn sift_down(&mut self, mut root: isize, hi: isize, first: isize) {
        loop {
            let mut child = 2 * root + 1;
            if child >= hi {
                return;
            }
            if child + 1 < hi && self.less(first + child, first + child + 1) {
                child += 1;
            }
            if !self.less(first + root, first + child) {
                return;
            }
            self.swap(first + root, first + child);
            root = child;
        }
    }

    fn heap_sort(&mut self, a: isize, b: isize) {
        let (first, hi) = (a, b - a);
        let mut i = (hi - 1) / 2;
        while i >= 0 {
            self.sift_down(i, hi, first);
            i -= 1;
        }
        let mut i = hi - 1;
        while i >= 0 {
            self.swap(first, first + i);
            self.sift_down(0, i, first);
            i -= 1;
        }
    }

    // Go 1.18 and earlier.

    /// Go 1.18's `medianOfThree`: puts the median of the three at `m1` (arguments in
    /// upstream's order).
    fn median_of_three(&mut self, m1: isize, m0: isize, m2: isize) {
        if self.less(m1, m0) {
            self.swap(m1, m0);
        }
        if self.less(m2, m1) {
            self.swap(m2, m1);
            if self.less(m1, m0) {
                self.swap(m1, m0);
            }
        }
    }

    /// Go 1.18's `doPivot`: partitions `lo..hi` around a median pivot into less, equal
    /// (when many equals are suspected) and greater; returns where the equal run starts
    /// and ends.
    fn do_pivot(&mut self, lo: isize, hi: isize) -> (isize, isize) {
        let m = lo + (hi - lo) / 2;
        if hi - lo > 40 {
            let s = (hi - lo) / 8;
            self.median_of_three(lo, lo + s, lo + 2 * s);
            self.median_of_three(m, m - s, m + s);
            self.median_of_three(hi - 1, hi - 1 - s, hi - 1 - 2 * s);
        }
        self.median_of_three(lo, m, hi - 1);

        let pivot = lo;
        let (mut a, mut c) = (lo + 1, hi - 1);
        while a < c && self.less(a, pivot) {
            a += 1;
        }
        let mut b = a;
        loop {
            while b < c && !self.less(pivot, b) {
                b += 1;
            }
            while b < c && self.less(pivot, c - 1) {
                c -= 1;
            }
            if b >= c {
                break;
            }
            self.swap(b, c - 1);
            b += 1;
            c -= 1;
        }
        // Few elements above the pivot suggest duplicates of it: test three points.
        let mut protect = hi - c < 5;
        if !protect && hi - c < (hi - lo) / 4 {
            let mut dups = 0;
            if !self.less(pivot, hi - 1) {
                self.swap(c, hi - 1);
                c += 1;
                dups += 1;
            }
            if !self.less(b - 1, pivot) {
                b -= 1;
                dups += 1;
            }
            if !self.less(m, pivot) {
                self.swap(m, b - 1);
                b -= 1;
                dups += 1;
            }
            protect = dups > 1;
        }
        if protect {
            // Gather the elements equal to the pivot between `b` and `c`.
            loop {
                while a < b && !self.less(b - 1, pivot) {
                    b -= 1;
                }
                while a < b && self.less(a, pivot) {
                    a += 1;
                }
                if a >= b {
                    break;
                }
                self.swap(a, b - 1);
                a += 1;
                b -= 1;
            }
        }
        self.swap(pivot, b - 1);
        (b - 1, c)
    }

    /// Go 1.18's `quickSort`.
    fn quick_sort(&mut self, mut a: isize, mut b: isize, mut depth: isize) {
        while b - a > 12 {
            if depth == 0 {
                self.heap_sort(a, b);
                return;
            }
            depth -= 1;
            let (low, high) = self.do_pivot(a, b);
            // Recurse into the smaller side, loop on the larger.
            if low - a < b - high {
                self.quick_sort(a, low, depth);
                a = high;
            } else {
                self.quick_sort(high, b, depth);
                b = low;
            }
        }
        if b - a > 1 {
            // One shell-sort pass with gap 6, then insertion.
            for i in a + 6..b {
                if self.less(i, i - 6) {
                    self.swap(i, i - 6);
                }
            }
            self.insertion_sort(a, b);
        }
    }

    // Go 1.19 and later.

    /// Go's `pdqsort` on `a..b`, with `limit` unbalanced partitions left before heapsort.
    fn pdqsort(&mut self, mut a: isize, mut b: isize, mut limit: isize, shifts: (u32, u32, u32)) {
        const MAX_INSERTION: isize = 12;
        let mut was_balanced = true;
        let mut was_partitioned = true;
        loop {
            let length = b - a;
            if length <= MAX_INSERTION {
                self.insertion_sort(a, b);
                return;
            }
            if limit == 0 {
                self.heap_sort(a, b);
                return;
            }
            if !was_balanced {
                self.break_patterns(a, b, shifts);
                limit -= 1;
            }
            let (mut pivot, mut hint) = self.choose_pivot(a, b);
            if hint == Hint::Decreasing {
                self.reverse_range(a, b);
                pivot = (b - 1) - (pivot - a);
                hint = Hint::Increasing;
            }
            // Probably sorted already: try a few insertions.
            if was_balanced
                && was_partitioned
                && hint == Hint::Increasing
                && self.partial_insertion_sort(a, b)
            {
                return;
            }
            // Everything here is at least the element before `a`: many duplicates.
            if a > 0 && !self.less(a - 1, pivot) {
                a = self.partition_equal(a, b, pivot);
                continue;
            }
            let (mid, already_partitioned) = self.partition(a, b, pivot);
            was_partitioned = already_partitioned;
            let (left, right) = (mid - a, b - mid);
            let balance_threshold = length / 8;
            if left < right {
                was_balanced = left >= balance_threshold;
                self.pdqsort(a, mid, limit, shifts);
                a = mid + 1;
            } else {
                was_balanced = right >= balance_threshold;
                self.pdqsort(mid + 1, b, limit, shifts);
                b = mid;
            }
        }
    }

    /// Go's `partition`: the pivot goes to `a`, then smaller elements left and the rest
    /// right; returns the pivot's final place and whether nothing had to move.
    fn partition(&mut self, a: isize, b: isize, pivot: isize) -> (isize, bool) {
        self.swap(a, pivot);
        let (mut i, mut j) = (a + 1, b - 1);
        while i <= j && self.less(i, a) {
            i += 1;
        }
        while i <= j && !self.less(j, a) {
            j -= 1;
        }
        if i > j {
            self.swap(j, a);
            return (j, true);
        }
        self.swap(i, j);
        i += 1;
        j -= 1;
        loop {
            while i <= j && self.less(i, a) {
                i += 1;
            }
            while i <= j && !self.less(j, a) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
        self.swap(j, a);
        (j, false)
    }

    /// Go's `partitionEqual`: elements equal to the pivot, then greater ones; returns where
    /// the greater ones start.
    fn partition_equal(&mut self, a: isize, b: isize, pivot: isize) -> isize {
        self.swap(a, pivot);
        let (mut i, mut j) = (a + 1, b - 1);
        loop {
            while i <= j && !self.less(a, i) {
                i += 1;
            }
            while i <= j && self.less(a, j) {
                j -= 1;
            }
            if i > j {
                return i;
            }
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
    }

    /// Go's `partialInsertionSort`: fixes up to five out-of-order neighbours (on slices of
    /// 50 or more); whether the slice ended sorted.
    fn partial_insertion_sort(&mut self, a: isize, b: isize) -> bool {
        const MAX_STEPS: usize = 5;
        const SHORTEST_SHIFTING: isize = 50;
        let mut i = a + 1;
        for _ in 0..MAX_STEPS {
            while i < b && !self.less(i, i - 1) {
                i += 1;
            }
            if i == b {
                return true;
            }
            if b - a < SHORTEST_SHIFTING {
                return false;
            }
            self.swap(i, i - 1);
            // Upstream walks down to index 1 here, not to `a`.
            if i - a >= 2 {
                let mut j = i - 1;
                while j >= 1 && self.less(j, j - 1) {
                    self.swap(j, j - 1);
                    j -= 1;
                }
            }
            if b - i >= 2 {
                let mut j = i + 1;
                while j < b && self.less(j, j - 1) {
                    self.swap(j, j - 1);
                    j += 1;
                }
            }
        }
        false
    }

    /// Go's `breakPatterns`: three swaps around the middle with pseudo-random partners,
    /// seeded by the length.
    fn break_patterns(&mut self, a: isize, b: isize, (s1, s2, s3): (u32, u32, u32)) {
        let length = b - a;
        if length < 8 {
            return;
        }
        let mut random = u64::try_from(length).unwrap_or(0);
        let modulus = 1_u64.checked_shl(u32::try_from(bit_length(length)).unwrap_or(0));
        let mask = modulus.unwrap_or(0).wrapping_sub(1);
        let middle = a + (length / 4) * 2;
        for index in middle - 1..=middle + 1 {
            random ^= random << s1;
            random ^= random >> s2;
            random ^= random << s3;
            // Go converts to `uint` and masks; the mask is below the length's next power of
            // two, so the value fits.
            let mut other = isize::try_from(random & mask).unwrap_or(0);
            if other >= length {
                other -= length;
            }
            self.swap(index, a + other);
        }
    }

    /// Go's `choosePivot`: the middle of three quarter points (each the median of its
    /// neighbours from 50 elements on), and what the comparisons said of the order.
    fn choose_pivot(&mut self, a: isize, b: isize) -> (isize, Hint) {
        const SHORTEST_NINTHER: isize = 50;
        const MAX_SWAPS: u32 = 4 * 3;
        let l = b - a;
        let mut swaps = 0;
        let mut i = a + l / 4;
        let mut j = a + l / 4 * 2;
        let mut k = a + l / 4 * 3;
        if l >= 8 {
            if l >= SHORTEST_NINTHER {
                i = self.median(i - 1, i, i + 1, &mut swaps);
                j = self.median(j - 1, j, j + 1, &mut swaps);
                k = self.median(k - 1, k, k + 1, &mut swaps);
            }
            j = self.median(i, j, k, &mut swaps);
        }
        match swaps {
            0 => (j, Hint::Increasing),
            MAX_SWAPS => (j, Hint::Decreasing),
            _ => (j, Hint::Unknown),
        }
    }

    /// Go's `order2`: the two indexes, the smaller element's first.
    fn order2(&mut self, a: isize, b: isize, swaps: &mut u32) -> (isize, isize) {
        if self.less(b, a) {
            *swaps += 1;
            (b, a)
        } else {
            (a, b)
        }
    }

    /// Go's `median`: the index of the median of three elements.
    fn median(&mut self, a: isize, b: isize, c: isize, swaps: &mut u32) -> isize {
        let (a, b) = self.order2(a, b, swaps);
        let (b, _) = self.order2(b, c, swaps);
        let (_, b) = self.order2(a, b, swaps);
        b
    }

    fn reverse_range(&mut self, a: isize, b: isize) {
        let (mut i, mut j) = (a, b - 1);
        while i < j {
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{sort_slice, Toolchain};
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// The positions `keys` end at after Go's sort, higher keys first (a priority order),
    /// as a Go program sorting the same list reported them.
    fn order(toolchain: Toolchain, keys: &[u8]) -> Vec<usize> {
        let mut items: Vec<(u8, usize)> = keys.iter().copied().zip(0..).collect();
        sort_slice(&mut items, toolchain, |a, b| a.0 > b.0);
        items.into_iter().map(|(_, at)| at).collect()
    }

    /// The positions after sorting `n` elements with a `less` that is always true, as
    /// `MoreImportantPod` is for pods of one priority without start times.
    fn order_always_less(toolchain: Toolchain, n: usize) -> Vec<usize> {
        let mut items: Vec<usize> = (0..n).collect();
        sort_slice(&mut items, toolchain, |_, _| true);
        items
    }

    #[test]
    fn short_slices_reverse_or_shuffle_runs_that_always_compare_less() {
        // Go 1.24 (and 1.19): insertion sort, a full reversal.
        assert_eq!(
            order_always_less(Toolchain::Go124, 8),
            [7, 6, 5, 4, 3, 2, 1, 0]
        );
        // Go 1.10: the gap-6 pass first.
        assert_eq!(
            order_always_less(Toolchain::Go110, 8),
            [1, 0, 5, 4, 3, 2, 7, 6]
        );
    }

    #[test]
    fn go_1_10_moves_equals_past_each_other_from_seven_elements() {
        // The gap-6 pass swaps the 1 with the first 0, which lands after the other 0s.
        assert_eq!(
            order(Toolchain::Go110, &[0, 0, 0, 0, 0, 0, 1, 0]),
            [6, 1, 2, 3, 4, 5, 0, 7]
        );
        assert_eq!(
            order(Toolchain::Go124, &[0, 0, 0, 0, 0, 0, 1, 0]),
            [6, 0, 1, 2, 3, 4, 5, 7]
        );
    }

    #[test]
    fn long_runs_follow_each_toolchain() {
        assert_eq!(
            order_always_less(Toolchain::Go124, 20),
            [6, 0, 4, 16, 12, 3, 17, 1, 9, 15, 14, 7, 5, 13, 8, 18, 2, 11, 19, 10]
        );
        assert_eq!(
            order_always_less(Toolchain::Go119, 20),
            [1, 6, 4, 19, 12, 7, 9, 8, 11, 15, 14, 0, 2, 13, 5, 3, 18, 17, 16, 10]
        );
        assert_eq!(
            order_always_less(Toolchain::Go110, 20),
            [5, 4, 3, 2, 1, 12, 11, 19, 17, 15, 13, 6, 14, 7, 16, 8, 18, 9, 0, 10]
        );
        let keys = [
            0, 2, 2, 0, 1, 2, 1, 2, 2, 0, 2, 0, 1, 1, 2, 0, 0, 2, 1, 2, 2, 1, 1, 2, 0, 0, 2, 0, 2,
            1, 2, 0, 2, 0, 0, 2, 0, 1, 0, 1,
        ];
        assert_eq!(
            order(Toolchain::Go119, &keys),
            [
                20, 28, 2, 35, 19, 5, 32, 7, 8, 30, 10, 1, 26, 23, 14, 17, 4, 37, 6, 12, 18, 21,
                29, 13, 22, 39, 33, 15, 9, 24, 34, 25, 27, 31, 36, 3, 16, 0, 38, 11
            ]
        );
        // Go 1.24's corrected xorshift scatters differently after an unbalanced split.
        assert_eq!(
            order(Toolchain::Go124, &keys),
            [
                20, 14, 2, 35, 32, 5, 30, 7, 8, 28, 10, 26, 23, 1, 19, 17, 29, 39, 13, 18, 37, 21,
                22, 12, 4, 6, 36, 33, 11, 27, 0, 31, 24, 16, 34, 3, 9, 25, 38, 15
            ]
        );
        assert_eq!(
            order(Toolchain::Go110, &keys),
            [
                30, 1, 2, 23, 20, 5, 19, 7, 8, 35, 10, 32, 26, 17, 14, 28, 29, 13, 18, 6, 4, 21,
                22, 37, 12, 39, 25, 27, 24, 16, 15, 31, 11, 33, 34, 9, 36, 3, 38, 0
            ]
        );
    }

    proptest! {
        /// Whatever the comparison, the result is a permutation, and with a strict order it
        /// is sorted.
        #[test]
        fn sorts_any_list(keys in proptest::collection::vec(0_u8..6, 0..300), coin in any::<bool>()) {
            for toolchain in [Toolchain::Go110, Toolchain::Go119, Toolchain::Go124] {
                let positions = order(toolchain, &keys);
                let mut seen = positions.clone();
                seen.sort_unstable();
                prop_assert_eq!(seen, (0..keys.len()).collect::<Vec<_>>());
                let sorted: Vec<u8> = positions.iter().filter_map(|&at| keys.get(at).copied()).collect();
                prop_assert!(sorted.windows(2).all(|pair| pair[0] >= pair[1]));
                let mut items: Vec<usize> = (0..keys.len()).collect();
                sort_slice(&mut items, toolchain, |_, _| coin);
                items.sort_unstable();
                prop_assert_eq!(items, (0..keys.len()).collect::<Vec<_>>());
            }
        }
    }
}
