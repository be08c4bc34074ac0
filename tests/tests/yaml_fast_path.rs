//! The YAML fast path on generated kubectl dumps: it reads them, with every event exactly
//! as granit-parser gives it (the scenarios and random documents are compared in
//! kubefit-core's own tests).

use kubefit_core::input::compare_yaml_readers;
use kubefit_tests::generate::{cluster, Format};

#[test]
fn generated_dumps_read_the_same_on_both_paths() {
    for (nodes, pods) in [(1, 0), (3, 40), (20, 600)] {
        let text = cluster(nodes, pods, Format::Yaml);
        assert_eq!(
            compare_yaml_readers(&text),
            Ok(true),
            "{nodes} nodes, {pods} pods"
        );
    }
}
