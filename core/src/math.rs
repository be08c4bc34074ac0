//! Arithmetic helpers the scheduler's formulas need and `core` does not offer.
//!
//! `f64::sqrt` lives in `std` only. kubefit-core keeps serde as its single required
//! dependency, so the square root is written here once: exact integer square root of
//! the scaled significand (`u128::isqrt`) with a sticky bit, then one rounding, which
//! gives the correctly rounded result IEEE 754 (and Go's `math.Sqrt`) defines. The unit
//! tests compare it with `std` bit for bit.
//!
//! `ln` is the classic fdlibm reduction and polynomial (`x = 2^k·(1+f)`, a degree-14
//! even polynomial in `s = f/(2+f)`), the algorithm Go's `math.Log` implements, so the
//! scheduler's logarithms are Go's rather than the correctly rounded ones (they differ by
//! at most one ulp, e.g. for ln 3; the unit tests bound the distance to `std`). `exp` is
//! fdlibm's too, within one ulp (Go's amd64 `math.Exp` is assembly, also within one ulp;
//! where the two differ by that ulp the machine set's ranking, its one user, cannot change
//! unless two ages fall on a rounding boundary). `round` is Go's `math.Round` (halves
//! away from zero).
//!
//! [`saturating_mul`] is `i64::saturating_mul` without its overflow check where the
//! factors are small enough not to overflow: wasm32 has no 128-bit multiply, so the check
//! is a call to a software routine, and scores multiply on every node for every pod.

/// `a.saturating_mul(b)`, with a plain multiply when the magnitudes' bit lengths add up
/// to at most 63 (the product is then below 2^63).
#[must_use]
pub fn saturating_mul(a: i64, b: i64) -> i64 {
    if a.unsigned_abs().leading_zeros() + b.unsigned_abs().leading_zeros() >= 65 {
        a.wrapping_mul(b)
    } else {
        a.saturating_mul(b)
    }
}

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

/// The natural logarithm; NaN below zero, −∞ at zero.
#[must_use]
pub fn ln(x: f64) -> f64 {
    const LN2_HI: f64 = 6.931_471_803_691_238e-1;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    const L1: f64 = 6.666_666_666_666_735e-1;
    const L2: f64 = 3.999_999_999_940_942e-1;
    const L3: f64 = 2.857_142_874_366_239e-1;
    const L4: f64 = 2.222_219_843_214_978_4e-1;
    const L5: f64 = 1.818_357_216_161_805e-1;
    const L6: f64 = 1.531_383_769_920_937_3e-1;
    const L7: f64 = 1.479_819_860_511_658_6e-1;
    const HALF_SQRT2: f64 = core::f64::consts::FRAC_1_SQRT_2;
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return x;
    }
    // x = fraction · 2^exponent with the fraction in [0.5, 1).
    let (mut fraction, mut exponent) = split(x);
    if fraction < HALF_SQRT2 {
        fraction *= 2.0;
        exponent -= 1;
    }
    let f = fraction - 1.0;
    #[allow(clippy::cast_precision_loss)]
    let k = exponent as f64;
    let s = f / (2.0 + f);
    let s2 = s * s;
    let s4 = s2 * s2;
    let t1 = s2 * (L1 + s4 * (L3 + s4 * (L5 + s4 * L7)));
    let t2 = s4 * (L2 + s4 * (L4 + s4 * L6));
    let r = t1 + t2;
    let hfsq = 0.5 * f * f;
    k * LN2_HI - ((hfsq - (s * (hfsq + r) + k * LN2_LO)) - f)
}

/// `e^x`, within one ulp: fdlibm's reduction `x = k·ln 2 + r` (ln 2 split in two for
/// the extra bits) and its rational approximation of `e^r`, the algorithm behind Go's
/// `math.Exp`. The machine set's `Oldest` delete policy ranks by `1 − e^(−age/10 days)`,
/// and upstream's float64 rounding there makes machines of nearly the same age tie.
#[must_use]
pub fn exp(x: f64) -> f64 {
    const LN2_HI: f64 = 6.931_471_803_691_238e-1;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    const P1: f64 = 1.666_666_666_666_660_2e-1;
    const P2: f64 = -2.777_777_777_701_559_3e-3;
    const P3: f64 = 6.613_756_321_437_934e-5;
    const P4: f64 = -1.653_390_220_546_525_2e-6;
    const P5: f64 = 4.138_136_797_057_238_5e-8;
    if x.is_nan() || x > 709.782_712_893_384 {
        return x * f64::INFINITY;
    }
    if x < -745.133_219_101_941_1 {
        return 0.0;
    }
    if abs(x) < 1.0 / f64::from(1u32 << 28) {
        return 1.0 + x;
    }
    let half = if x < 0.0 { -0.5 } else { 0.5 };
    #[allow(clippy::cast_possible_truncation)]
    let k = (core::f64::consts::LOG2_E * x + half) as i64;
    #[allow(clippy::cast_precision_loss)]
    let (hi, lo) = (x - k as f64 * LN2_HI, k as f64 * LN2_LO);
    let r = hi - lo;
    let t = r * r;
    let c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    let y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
    // 2^k in two normal halves: the first product is exact, the second rounds once, also
    // to a subnormal result or at k = 1024.
    y * power_of_two(k / 2) * power_of_two(k - k / 2)
}

/// `x = fraction · 2^exponent` with the fraction in [0.5, 1), for finite positive `x`.
fn split(x: f64) -> (f64, i64) {
    let mut bits = x.to_bits();
    let mut exponent = i64::try_from((bits >> 52) & 0x7ff).unwrap_or(0);
    let mut scale = 0;
    if exponent == 0 {
        // Subnormal: scale into the normal range first.
        bits = (x * power_of_two(54)).to_bits();
        exponent = i64::try_from((bits >> 52) & 0x7ff).unwrap_or(0);
        scale = 54;
    }
    let fraction = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (fraction, exponent - 1022 - scale)
}

/// Go's `math.Round`: the nearest integer, halves away from zero (saturating).
#[must_use]
pub fn round(x: f64) -> i64 {
    if x.is_nan() {
        return 0;
    }
    #[allow(clippy::cast_possible_truncation)]
    let whole = x as i64;
    #[allow(clippy::cast_precision_loss)]
    let rest = x - whole as f64;
    if rest >= 0.5 {
        whole.saturating_add(1)
    } else if rest <= -0.5 {
        whole.saturating_sub(1)
    } else {
        whole
    }
}

#[cfg(test)]
mod tests {
    /// The fast path agrees with `i64::saturating_mul` at the edges of its bound.
    #[test]
    fn saturating_mul_matches_the_checked_one() {
        let values = [
            0,
            1,
            -1,
            100,
            -100,
            i64::from(i32::MAX),
            i64::from(i32::MIN),
            1 << 31,
            1 << 32,
            (1 << 32) - 1,
            -(1 << 32),
            1 << 62,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
            3_037_000_499,
            3_037_000_500,
        ];
        for a in values {
            for b in values {
                assert_eq!(
                    super::saturating_mul(a, b),
                    a.saturating_mul(b),
                    "{a} * {b}"
                );
            }
        }
    }

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

    #[test]
    fn ln_is_within_one_ulp_of_std() {
        let mut inputs: alloc::vec::Vec<f64> = (1..=20_000).map(f64::from).collect();
        inputs.extend([0.5, 0.1, 1e-300, 5e-324, f64::MAX, core::f64::consts::E]);
        for x in inputs {
            let ours = ln(x).to_bits();
            let theirs = std::primitive::f64::ln(x).to_bits();
            assert!(ours.abs_diff(theirs) <= 1, "ln({x:e})");
        }
        assert_eq!(ln(1.0), 0.0);
        assert!(ln(-1.0).is_nan());
        assert_eq!(ln(0.0), f64::NEG_INFINITY);
        // fdlibm (and Go's `math.Log`) is one ulp below the correctly rounded ln 3.
        assert_eq!(ln(3.0).to_bits(), 0x3FF1_93EA_7AAD_030A);
        assert_eq!(alloc::format!("{}", ln(6.0)), "1.791759469228055");
    }

    #[test]
    fn exp_is_within_one_ulp_of_std() {
        let mut inputs: alloc::vec::Vec<f64> =
            (-8_000..=8_000).map(|n| f64::from(n) / 10.0).collect();
        inputs.extend([1e-10, -1e-10, -37.43, -745.0, -708.5, 709.7, 0.5e-8]);
        for x in inputs {
            let ours = exp(x).to_bits();
            let theirs = std::primitive::f64::exp(x).to_bits();
            assert!(ours.abs_diff(theirs) <= 1, "exp({x:e})");
        }
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-800.0), 0.0);
        assert_eq!(exp(800.0), f64::INFINITY);
        assert!(exp(f64::NAN).is_nan());
    }

    #[test]
    fn round_halves_away_from_zero() {
        assert_eq!(round(2.5), 3);
        assert_eq!(round(-2.5), -3);
        assert_eq!(round(2.499_999_999_999_999_6), 2);
        assert_eq!(round(0.499_999_999_999_999_94), 0);
        assert_eq!(round(7.0), 7);
        assert_eq!(round(f64::NAN), 0);
    }
}
