//! Score normalisation shared by plugins and priorities.
//!
//! Follows `pkg/scheduler/framework/plugins/helper/normalize_score.go`
//! (`DefaultNormalizeScore`) and 1.11 `priorities/reduce.go` (`NormalizeReduce`), which
//! are the same rule with 100 or 10 as the maximum, and InterPodAffinity's min-max rule
//! (`interpodaffinity/scoring.go`, `NormalizeScore`).

/// Scales scores to `0..=max_score` by the highest one (integer division); all stay 0 when
/// the highest is 0. `reverse` turns `s` into `max_score - s` (and all-zero into
/// all-`max_score`).
pub fn default_normalize(scores: &mut [i64], max_score: i64, reverse: bool) {
    let highest = scores.iter().copied().max().unwrap_or(0);
    for score in scores.iter_mut() {
        *score = normalized(*score, highest, max_score, reverse);
    }
}

/// One score of [`default_normalize`], given the highest of them.
#[must_use]
pub fn normalized(score: i64, highest: i64, max_score: i64, reverse: bool) -> i64 {
    if highest == 0 {
        return if reverse { max_score } else { score };
    }
    let scaled = crate::math::saturating_mul(max_score, score) / highest;
    if reverse {
        max_score - scaled
    } else {
        scaled
    }
}

/// One score scaled between the lowest and the highest of them:
/// `max_score·(s−lowest)/(highest−lowest)` in floating point, truncated; 0 when they are
/// all the same.
#[must_use]
pub fn min_max(score: i64, lowest: i64, highest: i64, max_score: i64) -> i64 {
    let spread = highest.saturating_sub(lowest);
    if spread <= 0 {
        return 0;
    }
    #[allow(clippy::cast_precision_loss)]
    let scaled = max_score as f64 * (score.saturating_sub(lowest) as f64 / spread as f64);
    #[allow(clippy::cast_possible_truncation)]
    let truncated = scaled as i64;
    truncated
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_like_upstream() {
        let mut scores = [2, 11, 4];
        default_normalize(&mut scores, 10, false);
        assert_eq!(scores, [1, 10, 3]);
        let mut scores = [0, 1, 2];
        default_normalize(&mut scores, 10, true);
        assert_eq!(scores, [10, 5, 0]);
        let mut scores = [0, 0];
        default_normalize(&mut scores, 100, true);
        assert_eq!(scores, [100, 100]);
    }
}
