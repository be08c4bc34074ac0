//! Floating-point helpers the scheduler's formulas need and `core` does not offer.
//!
//! `f64::sqrt` lives in `std` only. kubefit-core keeps serde as its single required
//! dependency, so the square root is written here once: exact integer square root of
//! the scaled significand (`u128::isqrt`) with a sticky bit, then one rounding, which
//! gives the correctly rounded result IEEE 754 (and Go's `math.Sqrt`) defines. The unit
//! tests compare it with `std` bit for bit.

/// The correctly rounded square root; NaN for negative inputs and NaN.
#[must_use]
pub fn sqrt(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 || x.is_infinite() {
        return x;
    }
    let bits = x.to_bits();
    let biased = i64::try_from((bits >> 52) & 0x7ff).unwrap_or(0);
    let fraction = bits & ((1u64 << 52) - 1);
    // x = significand * 2^exponent with an integer significand.
    let (mut significand, mut exponent) = if biased == 0 {
        (fraction, -1074i64)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    };
    if exponent % 2 != 0 {
        significand <<= 1;
        exponent -= 1;
    }
    // Scale by 2^72 (even) so the root has about 63 bits: far more than the 53 kept.
    let scaled = u128::from(significand) << 72;
    let root = scaled.isqrt();
    let sticky = u128::from(root * root != scaled);
    // 2·root + sticky rounds correctly in one conversion: the sticky bit sits below the
    // rounding position and breaks exact-half ties the right way.
    let odd = u64::try_from((root << 1) | sticky).unwrap_or(u64::MAX);
    #[allow(clippy::cast_precision_loss)]
    let mantissa = odd as f64;
    mantissa * power_of_two(exponent / 2 - 36 - 1)
}

/// `2^k` for `k` in the normal range.
fn power_of_two(k: i64) -> f64 {
    let biased = u64::try_from(k + 1023).unwrap_or(0).min(2046);
    f64::from_bits(biased << 52)
}

/// `|x|`.
#[must_use]
pub fn abs(x: f64) -> f64 {
    f64::from_bits(x.to_bits() & !(1u64 << 63))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_std_bit_for_bit() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut inputs = alloc::vec![
            1.0,
            2.0,
            0.25,
            1e-300,
            5e-324,
            f64::MIN_POSITIVE,
            f64::MAX,
            0.1,
            1.0 / 3.0
        ];
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let candidate = f64::from_bits(state >> 1);
            if candidate.is_finite() {
                inputs.push(candidate);
            }
        }
        for x in inputs {
            assert_eq!(
                sqrt(x).to_bits(),
                std::primitive::f64::sqrt(x).to_bits(),
                "sqrt({x:e})"
            );
        }
        assert!(sqrt(-1.0).is_nan());
        assert_eq!(abs(-0.5), 0.5);
    }
}
