//! The taint eviction controller: when a NoExecute taint removes a pod from its node.
//!
//! Upstream: `pkg/controller/tainteviction/taint_eviction.go` (`processPodOnNode`,
//! `getMinTolerationTime`). Only NoExecute taints count. A pod that does not tolerate one
//! of them goes at once; otherwise it goes after the smallest `tolerationSeconds` among
//! the tolerations that matched (zero or negative: a wait of zero, which deletes at once
//! unless an eviction is planned already); tolerations without seconds do not count, and
//! if every matching toleration lacks them the pod stays (1.34 calls off an eviction
//! planned before; 1.11's `pkg/controller/nodelifecycle/scheduler/taint_manager.go` lets
//! it fire). The seconds become nanoseconds with Go's wrapping multiplication, as
//! upstream's do.
//! Example: taints `k1` and `k2`, tolerated for 600 s and 60 s: the pod goes after 60 s.

use crate::duration::Duration;
use crate::model::{Taint, Toleration};
use crate::taints;

/// When a pod on a node with these taints has to go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The node has no NoExecute taint: nothing to do (a scheduled eviction is cancelled).
    NoTaints,
    /// A NoExecute taint is not tolerated: delete the pod now.
    Now,
    /// Every NoExecute taint is tolerated, some for a while: delete after this long (zero
    /// for zero or negative seconds: `getMinTolerationTime` returns 0, and the pod goes at
    /// once only if no eviction is planned, since `processPodOnNode` keeps an older plan).
    After(Duration),
    /// Every NoExecute taint is tolerated for ever: nothing new is planned (1.34 cancels a
    /// scheduled eviction; 1.11 keeps it).
    Never,
}

/// The verdict for a pod's tolerations against a node's taints.
#[must_use]
pub fn verdict(node_taints: &[Taint], tolerations: &[Toleration]) -> Verdict {
    let mut no_execute = node_taints
        .iter()
        .filter(|taint| taint.effect == "NoExecute")
        .peekable();
    if no_execute.peek().is_none() {
        return Verdict::NoTaints;
    }
    // `GetMatchingTolerations`: for each taint, the first toleration that matches it.
    let mut shortest: Option<i64> = None;
    for taint in no_execute {
        let Some(toleration) = tolerations
            .iter()
            .find(|toleration| taints::tolerates(toleration, taint))
        else {
            return Verdict::Now;
        };
        if let Some(seconds) = toleration.toleration_seconds {
            shortest = Some(shortest.map_or(seconds, |current| current.min(seconds)));
        }
    }
    // `time.Duration(seconds) * time.Second` wraps in Go: past about 292 years the product
    // can come out negative, which upstream reads as "for ever", or small.
    let nanoseconds = shortest.map(|seconds| seconds.max(0).wrapping_mul(crate::duration::SECOND));
    match nanoseconds {
        Some(nanoseconds) if nanoseconds >= 0 => Verdict::After(Duration(nanoseconds)),
        _ => Verdict::Never,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    fn taint(key: &str, effect: &str) -> Taint {
        Taint {
            key: key.into(),
            value: String::new(),
            effect: effect.into(),
            time_added: None,
        }
    }

    fn toleration(key: &str, seconds: Option<i64>) -> Toleration {
        Toleration {
            key: key.into(),
            operator: "Exists".into(),
            value: String::new(),
            effect: "NoExecute".into(),
            toleration_seconds: seconds,
        }
    }

    #[test]
    fn only_no_execute_taints_count() {
        assert_eq!(verdict(&[taint("k", "NoSchedule")], &[]), Verdict::NoTaints);
        assert_eq!(verdict(&[], &[]), Verdict::NoTaints);
    }

    /// `TestGetMinTolerationTime` and the chapter's examples (16.11.2.1, 16.11.4.1).
    #[test]
    fn the_shortest_matching_toleration_wins() {
        let both = [taint("k1", "NoExecute"), taint("k2", "NoExecute")];
        assert_eq!(
            verdict(
                &both,
                &[toleration("k1", Some(600)), toleration("k2", Some(60))]
            ),
            Verdict::After(Duration::from_seconds(60))
        );
        assert_eq!(
            verdict(&both, &[toleration("k1", None), toleration("k2", Some(60))]),
            Verdict::After(Duration::from_seconds(60))
        );
        assert_eq!(
            verdict(&both, &[toleration("k1", None), toleration("k2", None)]),
            Verdict::Never
        );
        assert_eq!(verdict(&both, &[toleration("k1", Some(60))]), Verdict::Now);
        let one = [taint("k1", "NoExecute")];
        assert_eq!(
            verdict(&one, &[toleration("k1", Some(0))]),
            Verdict::After(Duration(0))
        );
        assert_eq!(
            verdict(&one, &[toleration("k1", Some(-5))]),
            Verdict::After(Duration(0))
        );
        assert_eq!(
            verdict(&one, &[toleration("k1", Some(3600))]),
            Verdict::After(Duration::from_seconds(3600))
        );
        // Go's wrapping multiplication: 9 223 372 037 s comes out negative (for ever);
        // 18 446 744 074 s wraps to 290 448 384 ns.
        assert_eq!(
            verdict(&one, &[toleration("k1", Some(9_223_372_037))]),
            Verdict::Never
        );
        assert_eq!(
            verdict(&one, &[toleration("k1", Some(18_446_744_074))]),
            Verdict::After(Duration(290_448_384))
        );
        // A toleration of everything (empty key, Exists) matches every taint, for ever.
        assert_eq!(verdict(&both, &[toleration("", None)]), Verdict::Never);
    }
}
