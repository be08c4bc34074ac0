//! Deterministic, realistic cluster dumps for benchmarks, as kubectl prints them.
//!
//! [`cluster`] writes what `kubectl get nodes,pods -A -o yaml|json` prints. The dump is a `kind: List` of nodes then pods with what a real cluster returns
//! (`managedFields` aside, as kubectl hides them): uids, resourceVersions, timestamps,
//! labels, annotations and owner references; nodes with capacity, allocatable, conditions,
//! addresses, images, nodeInfo and, on an `infra` pool, a taint; pods from DaemonSets,
//! ReplicaSets, StatefulSets and Jobs, with one or two containers, requests and limits,
//! ports, env, probes, volume mounts, tolerations, volumes and a status (conditions,
//! container statuses, IPs). About 1 % of the pods are pending and 2 % are completed Job
//! pods.
//!
//! The text is what kubectl writes: keys sorted, JSON indented by four spaces, YAML in
//! go-yaml's style (sequences not indented under their key, strings quoted only when they
//! would read as another type).
//!
//! Size: about 2.6 KB per pod in YAML and 5.7 KB in JSON (kubectl's four-space indentation
//! more than doubles it), 4 KB / 7 KB per node; 5 000 nodes and 150 000 pods are about
//! 416 MB of YAML and 890 MB of JSON. performance.md §5.3 sized W13 with 2.3 KB pods
//! without `status`; real pods are larger still (3–5 KB of YAML), so to stay near that
//! size four pods in five are lean: one container, `automountServiceAccountToken: false`,
//! no probes, two status conditions.
//!
//! Everything derives from the object's index through a fixed hash, so a size always gives
//! the same bytes.

use std::fmt::Write as _;

/// The output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `kubectl get -o yaml`.
    Yaml,
    /// `kubectl get -o json`.
    Json,
}

/// A `kind: List` of `nodes` nodes and `pods` pods, as kubectl prints it in `format`.
#[must_use]
pub fn cluster(nodes: usize, pods: usize, format: Format) -> String {
    // Reserved for the whole text at once (see the sizes in the module doc), so that the
    // largest dumps do not briefly need twice their size while the string grows.
    let (per_node, per_pod) = match format {
        Format::Yaml => (4_200, 2_800),
        Format::Json => (7_200, 6_000),
    };
    let mut out = String::with_capacity(nodes * per_node + pods * per_pod + 256);
    let cluster = Cluster::new(nodes, pods);
    let items = (0..nodes)
        .map(|index| cluster.node(index))
        .chain((0..pods).map(|index| cluster.pod(index)));
    match format {
        Format::Json => {
            out.push_str("{\n    \"apiVersion\": \"v1\",\n    \"items\": [");
            for (index, item) in items.enumerate() {
                out.push_str(if index == 0 {
                    "\n        "
                } else {
                    ",\n        "
                });
                json(&item, 2, &mut out);
            }
            out.push_str(if nodes + pods == 0 { "]" } else { "\n    ]" });
            out.push_str(",\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n");
        }
        Format::Yaml => {
            out.push_str("apiVersion: v1\nitems:");
            if nodes + pods == 0 {
                out.push_str(" []");
            }
            out.push('\n');
            for item in items {
                yaml_item(&item, 0, &mut out);
            }
            out.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// A JSON-shaped value with sorted keys, and its two printers.

enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    List(Vec<Value>),
    Map(Vec<(String, Value)>),
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Self::Str(text.into())
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Self::Str(text)
    }
}

impl From<i64> for Value {
    fn from(number: i64) -> Self {
        Self::Int(number)
    }
}

impl From<bool> for Value {
    fn from(flag: bool) -> Self {
        Self::Bool(flag)
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Self {
        Self::List(items)
    }
}

/// A mapping, keys sorted as kubectl prints them (Go marshals maps in key order).
fn map<K: Into<String>>(entries: impl IntoIterator<Item = (K, Value)>) -> Value {
    let mut entries: Vec<(String, Value)> = entries
        .into_iter()
        .map(|(key, value)| (key.into(), value))
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Value::Map(entries)
}

/// `map` for the common case of literal keys.
macro_rules! obj {
    ($($key:expr => $value:expr),* $(,)?) => {
        map::<&str>([$(($key, Value::from($value))),*])
    };
}

fn pad(out: &mut String, depth: usize, width: usize) {
    out.extend(std::iter::repeat_n(' ', depth * width));
}

/// Go's `json.MarshalIndent(v, "", "    ")`, which kubectl uses.
fn json(value: &Value, depth: usize, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Value::Int(number) => {
            let _ = write!(out, "{number}");
        }
        Value::Str(text) => json_string(text, out),
        Value::List(items) if items.is_empty() => out.push_str("[]"),
        Value::Map(entries) if entries.is_empty() => out.push_str("{}"),
        Value::List(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                out.push_str(if index == 0 { "\n" } else { ",\n" });
                pad(out, depth + 1, 4);
                json(item, depth + 1, out);
            }
            out.push('\n');
            pad(out, depth, 4);
            out.push(']');
        }
        Value::Map(entries) => {
            out.push('{');
            for (index, (key, item)) in entries.iter().enumerate() {
                out.push_str(if index == 0 { "\n" } else { ",\n" });
                pad(out, depth + 1, 4);
                json_string(key, out);
                out.push_str(": ");
                json(item, depth + 1, out);
            }
            out.push('\n');
            pad(out, depth, 4);
            out.push('}');
        }
    }
}

/// A JSON string as Go writes it (HTML-safe: `<`, `>` and `&` escaped).
fn json_string(text: &str, out: &mut String) {
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{0}'..='\u{1f}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(character));
            }
            _ => out.push(character),
        }
    }
    out.push('"');
}

/// One element of a sequence at `depth` (two spaces each), go-yaml style: `- ` at the
/// indentation of the key that holds the sequence, a mapping's first key on the same line.
fn yaml_item(value: &Value, depth: usize, out: &mut String) {
    pad(out, depth, 2);
    out.push_str("- ");
    match value {
        Value::Map(entries) if !entries.is_empty() => yaml_entries(entries, depth + 1, true, out),
        Value::List(items) if !items.is_empty() => {
            // A sequence in a sequence: go-yaml writes `- - a`.
            out.push('\n');
            for item in items {
                yaml_item(item, depth + 1, out);
            }
        }
        _ => {
            yaml_scalar(value, out);
            out.push('\n');
        }
    }
}

fn yaml_entries(entries: &[(String, Value)], depth: usize, first_inline: bool, out: &mut String) {
    for (index, (key, value)) in entries.iter().enumerate() {
        if index > 0 || !first_inline {
            pad(out, depth, 2);
        }
        yaml_plain_or_quoted(key, out);
        out.push(':');
        match value {
            Value::Map(inner) if !inner.is_empty() => {
                out.push('\n');
                yaml_entries(inner, depth + 1, false, out);
            }
            Value::List(items) if !items.is_empty() => {
                out.push('\n');
                for item in items {
                    yaml_item(item, depth, out);
                }
            }
            _ => {
                out.push(' ');
                yaml_scalar(value, out);
                out.push('\n');
            }
        }
    }
}

fn yaml_scalar(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Value::Int(number) => {
            let _ = write!(out, "{number}");
        }
        Value::Str(text) => yaml_plain_or_quoted(text, out),
        Value::List(_) => out.push_str("[]"),
        Value::Map(_) => out.push_str("{}"),
    }
}

/// A string plain when YAML would read it back as the same string, else double-quoted
/// (what go-yaml does for `"true"`, `"110"`, `""` and timestamps).
fn yaml_plain_or_quoted(text: &str, out: &mut String) {
    let reads_as_other = text.is_empty()
        || text.parse::<f64>().is_ok()
        || looks_like_timestamp(text)
        || matches!(
            text.to_ascii_lowercase().as_str(),
            "true"
                | "false"
                | "yes"
                | "no"
                | "on"
                | "off"
                | "y"
                | "n"
                | "null"
                | "~"
                | ".inf"
                | ".nan"
        )
        || text.starts_with([
            '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%',
            '@', '`', ' ',
        ])
        || text.ends_with([' ', ':'])
        || text.contains(": ")
        || text.contains(" #")
        || text.contains(|c: char| c.is_control());
    if reads_as_other {
        json_string(text, out);
    } else {
        out.push_str(text);
    }
}

/// `2026-11-21…`: go-yaml would read it back as a timestamp.
fn looks_like_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= 10
        && bytes.iter().take(10).enumerate().all(|(at, byte)| {
            if at == 4 || at == 7 {
                *byte == b'-'
            } else {
                byte.is_ascii_digit()
            }
        })
}

// ---------------------------------------------------------------------------------------
// The cluster.

/// splitmix64: a fixed, fast hash, so that every field derives from (salt, index).
fn hash(salt: u64, index: usize) -> u64 {
    let mut z = salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (index as u64).wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A pick from `choices`, by hash.
fn pick<T: Copy>(choices: &[T], salt: u64, index: usize) -> T {
    choices[(hash(salt, index) % choices.len() as u64) as usize]
}

fn uid(salt: u64, index: usize) -> String {
    let (a, b) = (hash(salt, index), hash(salt ^ 0xA5A5, index));
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xFFFF,
        a & 0xFFF,
        0x8000 | (b >> 48) & 0x3FFF,
        b & 0xFFFF_FFFF_FFFF
    )
}

/// The alphabet of Kubernetes' generated name suffixes (`rand.SafeEncodeString`).
fn suffix(salt: u64, index: usize, length: usize) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut bits = hash(salt, index);
    (0..length)
        .map(|_| {
            let character = ALPHABET[(bits % ALPHABET.len() as u64) as usize];
            bits /= ALPHABET.len() as u64;
            char::from(character)
        })
        .collect()
}

/// A generated-name suffix that is different for every index below 27^5: the index goes
/// through a bijection of `0..27^5` (multiplying by a number prime to 27), so names never
/// collide however many pods there are.
fn unique_suffix(index: usize) -> String {
    const SPACE: u64 = 27 * 27 * 27 * 27 * 27;
    const MULTIPLIER: u64 = 5_368_709;
    const _: () = assert!(MULTIPLIER % 3 != 0 && MULTIPLIER < SPACE);
    let mut bits = (index as u64 % SPACE * MULTIPLIER + 4_782_969) % SPACE;
    (0..5)
        .map(|_| {
            let character = b"bcdfghjklmnpqrstvwxz2456789"[(bits % 27) as usize];
            bits /= 27;
            char::from(character)
        })
        .collect()
}

fn timestamp(month: u32, salt: u64, index: usize) -> String {
    let seconds = hash(salt, index) % (19 * 86_400);
    format!(
        "2026-{month:02}-{:02}T{:02}:{:02}:{:02}Z",
        1 + seconds / 86_400,
        seconds / 3_600 % 24,
        seconds / 60 % 60,
        seconds % 60
    )
}

fn ip(block: u32, index: usize) -> String {
    let address = block + index as u32;
    format!(
        "10.{}.{}.{}",
        (address >> 16) & 0xFF,
        (address >> 8) & 0xFF,
        address & 0xFF
    )
}

const NODE: u64 = 1;
const POD: u64 = 2;
const WORKLOAD: u64 = 3;
const ZONES: [&str; 3] = ["eu-west-1a", "eu-west-1b", "eu-west-1c"];
/// (instance type, cores, GiB).
const INSTANCES: [(&str, i64, i64); 4] = [
    ("m6i.2xlarge", 8, 32),
    ("m6i.4xlarge", 16, 64),
    ("r6i.2xlarge", 8, 64),
    ("c6i.4xlarge", 16, 32),
];
const APPS: [&str; 12] = [
    "checkout",
    "cart",
    "catalog",
    "search",
    "payments",
    "users",
    "orders",
    "inventory",
    "shipping",
    "reviews",
    "gateway",
    "notifications",
];
const TEAMS: [&str; 6] = [
    "shop",
    "platform",
    "data",
    "identity",
    "logistics",
    "marketing",
];
/// Per daemon: (name, image, cpu request, memory request).
const DAEMONS: [(&str, &str, &str, &str); 2] = [
    (
        "kube-proxy",
        "602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/kube-proxy:v1.34.1-eksbuild.2",
        "100m",
        "64Mi",
    ),
    (
        "aws-node",
        "602401143452.dkr.ecr.eu-west-1.amazonaws.com/amazon-k8s-cni:v1.20.4-eksbuild.1",
        "25m",
        "128Mi",
    ),
];
const IMAGES: [(&str, i64); 6] = [
    (
        "602401143452.dkr.ecr.eu-west-1.amazonaws.com/amazon-k8s-cni:v1.20.4-eksbuild.1",
        45_386_713,
    ),
    (
        "602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/kube-proxy:v1.34.1-eksbuild.2",
        37_112_890,
    ),
    ("docker.io/library/nginx:1.27.3", 72_995_231),
    ("ghcr.io/example/catalog:2.14.0", 118_331_002),
    ("docker.io/envoyproxy/envoy:v1.35.1", 64_020_117),
    (
        "602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/pause:3.10",
        318_731,
    ),
];

/// Where pods go: DaemonSet pods first (two per node while they are at most a tenth of
/// the pods), then workload pods in groups of three per ReplicaSet or StatefulSet.
struct Cluster {
    nodes: usize,
    daemon_pods: usize,
    /// Nodes from this index on are the tainted `infra` pool (5 %).
    infra_from: usize,
}

impl Cluster {
    fn new(nodes: usize, pods: usize) -> Self {
        Self {
            nodes,
            daemon_pods: (nodes * DAEMONS.len()).min(pods / 10),
            infra_from: nodes - nodes / 20,
        }
    }

    fn node_name(index: usize) -> String {
        format!(
            "ip-{}.eu-west-1.compute.internal",
            ip(0x00_1000, index).replace('.', "-")
        )
    }

    fn node(&self, index: usize) -> Value {
        let name = Self::node_name(index);
        let zone = ZONES[index % ZONES.len()];
        let (instance, cores, gib) = pick(&INSTANCES, NODE ^ 7, index);
        let infra = index >= self.infra_from;
        let created = timestamp(10, NODE, index);
        let pool = if infra { "infra" } else { "general" };
        let labels = obj! {
            "beta.kubernetes.io/arch" => "amd64",
            "beta.kubernetes.io/instance-type" => instance,
            "beta.kubernetes.io/os" => "linux",
            "eks.amazonaws.com/capacityType" => "ON_DEMAND",
            "eks.amazonaws.com/nodegroup" => pool,
            "failure-domain.beta.kubernetes.io/region" => "eu-west-1",
            "failure-domain.beta.kubernetes.io/zone" => zone,
            "kubernetes.io/arch" => "amd64",
            "kubernetes.io/hostname" => name.as_str(),
            "kubernetes.io/os" => "linux",
            "node-pool" => pool,
            "node.kubernetes.io/instance-type" => instance,
            "topology.kubernetes.io/region" => "eu-west-1",
            "topology.kubernetes.io/zone" => zone,
        };
        let resources = |cpu: String, storage: &str, memory_kib: i64, pods: i64| {
            obj! {
                "cpu" => cpu,
                "ephemeral-storage" => storage,
                "hugepages-1Gi" => "0",
                "hugepages-2Mi" => "0",
                "memory" => format!("{memory_kib}Ki"),
                "pods" => pods.to_string(),
            }
        };
        let pods = if cores >= 16 { 234 } else { 110 };
        let capacity = resources(
            cores.to_string(),
            "104845292Ki",
            gib * 1024 * 1024 - 400_000,
            pods,
        );
        let allocatable = resources(
            format!("{}m", cores * 1000 - 70 - cores * 5),
            "95551679124",
            gib * 1024 * 1024 - 400_000 - 1_500_000,
            pods,
        );
        let condition = |kind: &str, status: &str, reason: &str, message: &str| {
            obj! {
                "lastHeartbeatTime" => timestamp(11, NODE ^ 3, index),
                "lastTransitionTime" => created.clone(),
                "message" => message,
                "reason" => reason,
                "status" => status,
                "type" => kind,
            }
        };
        let mut spec = vec![
            (
                "podCIDR".to_string(),
                Value::from(format!(
                    "10.{}.{}.0/24",
                    100 + index / 256 % 100,
                    index % 256
                )),
            ),
            (
                "podCIDRs".to_string(),
                vec![Value::from(format!(
                    "10.{}.{}.0/24",
                    100 + index / 256 % 100,
                    index % 256
                ))]
                .into(),
            ),
            (
                "providerID".to_string(),
                format!("aws:///{zone}/i-0{:016x}", hash(NODE ^ 5, index) >> 1).into(),
            ),
        ];
        if infra {
            spec.push((
                "taints".into(),
                vec![obj! { "effect" => "NoSchedule", "key" => "dedicated", "value" => "infra" }]
                    .into(),
            ));
        }
        let images = IMAGES
            .iter()
            .enumerate()
            .filter(|(image, _)| (hash(NODE ^ 11, index) >> image) & 1 == 1 || *image < 2)
            .map(|(image, (reference, size))| {
                let repository = reference.rsplit_once(':').map_or(*reference, |(repository, _)| repository);
                let digest = format!("{repository}@sha256:{:016x}{:016x}{:016x}{:016x}", hash(17, image), hash(18, image), hash(19, image), hash(20, image));
                obj! { "names" => vec![Value::from(digest), Value::from(*reference)], "sizeBytes" => *size }
            })
            .collect::<Vec<_>>();
        obj! {
            "apiVersion" => "v1",
            "kind" => "Node",
            "metadata" => obj! {
                "annotations" => obj! {
                    "alpha.kubernetes.io/provided-node-ip" => ip(0x00_1000, index),
                    "node.alpha.kubernetes.io/ttl" => "0",
                    "volumes.kubernetes.io/controller-managed-attach-detach" => "true",
                },
                "creationTimestamp" => created.clone(),
                "labels" => labels,
                "name" => name.as_str(),
                "resourceVersion" => (hash(NODE ^ 13, index) % 90_000_000 + 1_000_000).to_string(),
                "uid" => uid(NODE, index),
            },
            "spec" => map(spec),
            "status" => obj! {
                "addresses" => vec![
                    obj! { "address" => ip(0x00_1000, index), "type" => "InternalIP" },
                    obj! { "address" => name.as_str(), "type" => "InternalDNS" },
                    obj! { "address" => name.as_str(), "type" => "Hostname" },
                ],
                "allocatable" => allocatable,
                "capacity" => capacity,
                "conditions" => vec![
                    condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
                    condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
                    condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
                    condition("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
                ],
                "daemonEndpoints" => obj! { "kubeletEndpoint" => obj! { "Port" => 10_250_i64 } },
                "images" => images,
                "nodeInfo" => obj! {
                    "architecture" => "amd64",
                    "bootID" => uid(NODE ^ 21, index),
                    "containerRuntimeVersion" => "containerd://1.7.27",
                    "kernelVersion" => "6.12.40-63.114.amzn2023.x86_64",
                    "kubeProxyVersion" => "",
                    "kubeletVersion" => "v1.34.1-eks-113cf36",
                    "machineID" => format!("ec2{:029x}", hash(NODE ^ 23, index) >> 4),
                    "operatingSystem" => "linux",
                    "osImage" => "Amazon Linux 2023.9.20251014",
                    "systemUUID" => format!("ec2{:05x}-{}", hash(NODE ^ 25, index) & 0xFFFFF, &uid(NODE ^ 25, index)[9..]),
                },
            },
        }
    }

    fn pod(&self, index: usize) -> Value {
        if index < self.daemon_pods {
            self.daemon_pod(index)
        } else {
            self.workload_pod(index - self.daemon_pods, index)
        }
    }

    fn daemon_pod(&self, index: usize) -> Value {
        let (daemon, image, cpu, memory) = DAEMONS[index / self.nodes];
        let node = index % self.nodes;
        let node_name = Self::node_name(node);
        let hash_label = suffix(WORKLOAD ^ 40, index / self.nodes, 9);
        let name = format!("{daemon}-{}", unique_suffix(index));
        let container = obj! {
            "env" => vec![
                obj! { "name" => "NODE_NAME", "valueFrom" => obj! { "fieldRef" => obj! { "apiVersion" => "v1", "fieldPath" => "spec.nodeName" } } },
            ],
            "image" => image,
            "imagePullPolicy" => "IfNotPresent",
            "name" => daemon,
            "resources" => obj! { "requests" => obj! { "cpu" => cpu, "memory" => memory } },
            "securityContext" => obj! { "privileged" => true },
            "terminationMessagePath" => "/dev/termination-log",
            "terminationMessagePolicy" => "File",
            "volumeMounts" => vec![
                obj! { "mountPath" => "/lib/modules", "name" => "lib-modules", "readOnly" => true },
                obj! { "mountPath" => "/var/run/secrets/kubernetes.io/serviceaccount", "name" => format!("kube-api-access-{}", suffix(POD ^ 2, index, 5)), "readOnly" => true },
            ],
        };
        let affinity = obj! {
            "nodeAffinity" => obj! {
                "requiredDuringSchedulingIgnoredDuringExecution" => obj! {
                    "nodeSelectorTerms" => vec![obj! {
                        "matchFields" => vec![obj! { "key" => "metadata.name", "operator" => "In", "values" => vec![Value::from(node_name.as_str())] }],
                    }],
                },
            },
        };
        let spec = obj! {
            "affinity" => affinity,
            "containers" => vec![container],
            "dnsPolicy" => "ClusterFirst",
            "enableServiceLinks" => true,
            "hostNetwork" => true,
            "nodeName" => node_name.as_str(),
            "preemptionPolicy" => "PreemptLowerPriority",
            "priority" => 2_000_001_000_i64,
            "priorityClassName" => "system-node-critical",
            "restartPolicy" => "Always",
            "schedulerName" => "default-scheduler",
            "securityContext" => obj! {},
            "serviceAccount" => daemon,
            "serviceAccountName" => daemon,
            "terminationGracePeriodSeconds" => 30_i64,
            "tolerations" => vec![obj! { "operator" => "Exists" }],
            "volumes" => vec![
                obj! { "hostPath" => obj! { "path" => "/lib/modules", "type" => "" }, "name" => "lib-modules" },
                api_access_volume(index),
            ],
        };
        let metadata = obj! {
            "creationTimestamp" => timestamp(10, POD, index),
            "generateName" => format!("{daemon}-"),
            "labels" => obj! {
                "controller-revision-hash" => hash_label,
                "k8s-app" => daemon,
                "pod-template-generation" => "1",
            },
            "name" => name,
            "namespace" => "kube-system",
            "ownerReferences" => vec![owner("apps/v1", "DaemonSet", daemon, &uid(WORKLOAD, index / self.nodes + 1_000_000))],
            "resourceVersion" => (hash(POD ^ 13, index) % 90_000_000 + 1_000_000).to_string(),
            "uid" => uid(POD, index),
        };
        let status = running_status(
            index,
            &[(daemon, image)],
            &ip(0x00_1000, node),
            Some(&ip(0x00_1000, node)),
            "Burstable",
        );
        obj! { "apiVersion" => "v1", "kind" => "Pod", "metadata" => metadata, "spec" => spec, "status" => status }
    }

    fn workload_pod(&self, position: usize, index: usize) -> Value {
        let group = position / 3;
        let app = APPS[group % APPS.len()];
        let team = TEAMS[group / APPS.len() % TEAMS.len()];
        let app_name = format!("{app}-{}", group / (APPS.len() * TEAMS.len()));
        let namespace = format!("{team}-{}", group / (APPS.len() * TEAMS.len() * 50));
        let stateful = group % 10 == 7;
        let job = group % 50 == 13;
        let pending = !job && hash(POD ^ 3, index) % 100 == 0;
        let node = if self.nodes == 0 || pending {
            None
        } else {
            Some((position * 7 + group) % self.nodes)
        };
        let infra = node.is_some_and(|node| node >= self.infra_from);
        let template_hash = suffix(WORKLOAD ^ 41, group, 10);
        let (kind, api_version, owner_name, name) = if job {
            (
                "Job",
                "batch/v1",
                app_name.clone(),
                format!("{app_name}-{}", unique_suffix(index)),
            )
        } else if stateful {
            (
                "StatefulSet",
                "apps/v1",
                app_name.clone(),
                format!("{app_name}-{}", position % 3),
            )
        } else {
            let replica_set = format!("{app_name}-{template_hash}");
            let pod = format!("{replica_set}-{}", unique_suffix(index));
            ("ReplicaSet", "apps/v1", replica_set, pod)
        };
        let cpu = pick(
            &["50m", "100m", "200m", "250m", "500m"],
            WORKLOAD ^ 42,
            group,
        );
        let memory = pick(
            &["64Mi", "128Mi", "256Mi", "512Mi", "1Gi"],
            WORKLOAD ^ 43,
            group,
        );
        let image = pick(
            &[
                "docker.io/library/nginx:1.27.3",
                "ghcr.io/example/catalog:2.14.0",
            ],
            WORKLOAD ^ 44,
            group,
        );
        let api_access = format!("kube-api-access-{}", suffix(POD ^ 2, index, 5));
        let guaranteed = stateful;
        let limits = if guaranteed {
            obj! { "cpu" => cpu, "memory" => memory }
        } else {
            obj! { "memory" => memory }
        };
        // A fifth of the apps are "rich" (probes, downward-API env, a config volume, the
        // service-account token, Prometheus annotations), a tenth also run a sidecar; the
        // others are lean, with `automountServiceAccountToken: false` (so no volumes).
        let rich = group % 5 == 0;
        let sidecar = group % 10 == 0 && !job;
        let mut env = vec![obj! { "name" => "LOG_LEVEL", "value" => "info" }];
        let mut mounts = Vec::new();
        if rich {
            env.insert(0, obj! { "name" => "POD_NAME", "valueFrom" => obj! { "fieldRef" => obj! { "apiVersion" => "v1", "fieldPath" => "metadata.name" } } });
            mounts.push(obj! { "mountPath" => format!("/etc/{app}"), "name" => "config" });
            mounts.push(obj! {
                "mountPath" => "/var/run/secrets/kubernetes.io/serviceaccount",
                "name" => api_access.as_str(),
                "readOnly" => true,
            });
        }
        let mut main = vec![
            ("env", env.into()),
            ("image", image.into()),
            ("imagePullPolicy", "IfNotPresent".into()),
            ("name", app.into()),
            (
                "ports",
                vec![obj! { "containerPort" => 8080_i64, "name" => "http", "protocol" => "TCP" }]
                    .into(),
            ),
            (
                "resources",
                obj! { "limits" => limits, "requests" => obj! { "cpu" => cpu, "memory" => memory } },
            ),
        ];
        if rich {
            main.push(("volumeMounts", mounts.into()));
        }
        if rich && !job {
            main.push((
                "readinessProbe",
                obj! {
                    "failureThreshold" => 3_i64,
                    "httpGet" => obj! { "path" => "/healthz", "port" => "http", "scheme" => "HTTP" },
                    "periodSeconds" => 10_i64,
                    "successThreshold" => 1_i64,
                    "timeoutSeconds" => 1_i64,
                },
            ));
        }
        let mut containers = vec![map(main)];
        let mut statuses = vec![(app, image)];
        if sidecar {
            containers.push(obj! {
                "args" => vec![Value::from("--config-path"), Value::from("/etc/envoy/envoy.yaml")],
                "image" => "docker.io/envoyproxy/envoy:v1.35.1",
                "imagePullPolicy" => "IfNotPresent",
                "name" => "envoy",
                "ports" => vec![obj! { "containerPort" => 15_090_i64, "name" => "metrics", "protocol" => "TCP" }],
                "resources" => obj! {
                    "limits" => if guaranteed { obj! { "cpu" => "50m", "memory" => "64Mi" } } else { obj! { "memory" => "64Mi" } },
                    "requests" => obj! { "cpu" => "50m", "memory" => "64Mi" },
                },
            });
            statuses.push(("envoy", "docker.io/envoyproxy/envoy:v1.35.1"));
        }
        let mut tolerations = vec![
            obj! { "effect" => "NoExecute", "key" => "node.kubernetes.io/not-ready", "operator" => "Exists", "tolerationSeconds" => 300_i64 },
            obj! { "effect" => "NoExecute", "key" => "node.kubernetes.io/unreachable", "operator" => "Exists", "tolerationSeconds" => 300_i64 },
        ];
        if infra {
            tolerations.insert(0, obj! { "effect" => "NoSchedule", "key" => "dedicated", "operator" => "Equal", "value" => "infra" });
        }
        let mut spec = vec![
            ("containers", containers.into()),
            ("dnsPolicy", "ClusterFirst".into()),
            ("preemptionPolicy", "PreemptLowerPriority".into()),
            ("priority", 0_i64.into()),
            ("restartPolicy", if job { "Never" } else { "Always" }.into()),
            ("schedulerName", "default-scheduler".into()),
            ("serviceAccountName", "default".into()),
            ("terminationGracePeriodSeconds", 30_i64.into()),
            ("tolerations", tolerations.into()),
        ];
        if rich {
            spec.push((
                "volumes",
                vec![
                    obj! { "configMap" => obj! { "defaultMode" => 420_i64, "name" => format!("{app_name}-config") }, "name" => "config" },
                    api_access_volume(index),
                ]
                .into(),
            ));
        } else {
            spec.push(("automountServiceAccountToken", false.into()));
        }
        if let Some(node) = node {
            spec.push(("nodeName", Self::node_name(node).into()));
        }
        if infra {
            spec.push(("nodeSelector", obj! { "node-pool" => "infra" }));
        }
        if stateful {
            spec.push(("hostname", name.as_str().into()));
            spec.push(("subdomain", app_name.as_str().into()));
        }
        let mut labels = vec![
            ("app.kubernetes.io/name", Value::from(app)),
            ("app.kubernetes.io/instance", app_name.as_str().into()),
            ("app.kubernetes.io/part-of", team.into()),
        ];
        if kind == "ReplicaSet" {
            labels.push(("pod-template-hash", template_hash.as_str().into()));
        } else if stateful {
            labels.push((
                "apps.kubernetes.io/pod-index",
                (position % 3).to_string().into(),
            ));
            labels.push(("statefulset.kubernetes.io/pod-name", name.as_str().into()));
        } else {
            labels.push(("batch.kubernetes.io/job-name", app_name.as_str().into()));
        }
        let created = timestamp(11, POD, index);
        let mut metadata = vec![
            ("creationTimestamp", created.as_str().into()),
            ("labels", map(labels)),
            ("name", name.as_str().into()),
            ("namespace", namespace.as_str().into()),
            (
                "ownerReferences",
                vec![owner(api_version, kind, &owner_name, &uid(WORKLOAD, group))].into(),
            ),
            (
                "resourceVersion",
                (hash(POD ^ 13, index) % 90_000_000 + 1_000_000)
                    .to_string()
                    .into(),
            ),
            ("uid", uid(POD, index).into()),
        ];
        if !stateful {
            metadata.push(("generateName", format!("{owner_name}-").into()));
        }
        if rich {
            // kubectl leaves empty maps out (`omitempty`).
            metadata.push((
                "annotations",
                obj! { "prometheus.io/port" => "8080", "prometheus.io/scrape" => "true" },
            ));
        }
        let qos = if guaranteed {
            "Guaranteed"
        } else {
            "Burstable"
        };
        let status = match node {
            _ if job => completed_status(
                index,
                &statuses,
                node.map(|node| ip(0x00_1000, node)).as_deref(),
            ),
            Some(node) => running_status(
                index,
                &statuses,
                &ip(0x00_1000, node),
                Some(&ip(0x40_0000, position)),
                qos,
            ),
            None => pending_status(index, self.nodes, qos),
        };
        obj! { "apiVersion" => "v1", "kind" => "Pod", "metadata" => map(metadata), "spec" => map(spec), "status" => status }
    }
}

fn owner(api_version: &str, kind: &str, name: &str, uid: &str) -> Value {
    obj! {
        "apiVersion" => api_version,
        "blockOwnerDeletion" => true,
        "controller" => true,
        "kind" => kind,
        "name" => name,
        "uid" => uid,
    }
}

/// The service-account token volume every pod gets from admission.
fn api_access_volume(index: usize) -> Value {
    obj! {
        "name" => format!("kube-api-access-{}", suffix(POD ^ 2, index, 5)),
        "projected" => obj! {
            "defaultMode" => 420_i64,
            "sources" => vec![
                obj! { "serviceAccountToken" => obj! { "expirationSeconds" => 3607_i64, "path" => "token" } },
                obj! { "configMap" => obj! { "items" => vec![obj! { "key" => "ca.crt", "path" => "ca.crt" }], "name" => "kube-root-ca.crt" } },
            ],
        },
    }
}

fn condition(kind: &str, status: &str, at: &str) -> Value {
    obj! { "lastProbeTime" => Value::Null, "lastTransitionTime" => at, "status" => status, "type" => kind }
}

fn running_status(
    index: usize,
    containers: &[(&str, &str)],
    host_ip: &str,
    pod_ip: Option<&str>,
    qos: &str,
) -> Value {
    let started = timestamp(11, POD ^ 5, index);
    let statuses: Vec<Value> = containers
        .iter()
        .enumerate()
        .map(|(position, (name, image))| {
            obj! {
                "containerID" => format!("containerd://{:016x}{:016x}{:016x}{:016x}", hash(30, index), hash(31, index), hash(32, index), hash(33 + position as u64, index)),
                "image" => *image,
                "lastState" => obj! {},
                "name" => *name,
                "ready" => true,
                "restartCount" => (hash(POD ^ 6, index) % 4) as i64 / 3,
                "started" => true,
                "state" => obj! { "running" => obj! { "startedAt" => started.as_str() } },
            }
        })
        .collect();
    let pod_ip = pod_ip.unwrap_or(host_ip);
    obj! {
        "conditions" => vec![condition("Ready", "True", &started), condition("PodScheduled", "True", &started)],
        "containerStatuses" => statuses,
        "hostIP" => host_ip,
        "phase" => "Running",
        "podIP" => pod_ip,
        "qosClass" => qos,
        "startTime" => started.as_str(),
    }
}

fn completed_status(index: usize, containers: &[(&str, &str)], host_ip: Option<&str>) -> Value {
    let started = timestamp(11, POD ^ 5, index);
    let statuses: Vec<Value> = containers
        .iter()
        .map(|(name, image)| {
            obj! {
                "containerID" => format!("containerd://{:016x}{:016x}", hash(30, index), hash(31, index)),
                "image" => *image,
                "lastState" => obj! {},
                "name" => *name,
                "ready" => false,
                "restartCount" => 0_i64,
                "started" => false,
                "state" => obj! { "terminated" => obj! {
                    "exitCode" => 0_i64,
                    "finishedAt" => started.as_str(),
                    "reason" => "Completed",
                    "startedAt" => started.as_str(),
                } },
            }
        })
        .collect();
    let mut status = vec![
        (
            "conditions",
            vec![
                condition("Initialized", "True", &started),
                condition("Ready", "False", &started),
                condition("PodScheduled", "True", &started),
            ]
            .into(),
        ),
        ("containerStatuses", statuses.into()),
        ("phase", "Succeeded".into()),
        ("qosClass", "Burstable".into()),
        ("startTime", started.as_str().into()),
    ];
    if let Some(host_ip) = host_ip {
        status.push(("hostIP", host_ip.into()));
    }
    map(status)
}

fn pending_status(index: usize, nodes: usize, qos: &str) -> Value {
    let at = timestamp(11, POD ^ 7, index);
    let message = format!(
        "0/{nodes} nodes are available: {} Insufficient cpu, {} node(s) had untolerated taint {{dedicated: infra}}. preemption: 0/{nodes} nodes are available: {} No preemption victims found for incoming pod, {} Preemption is not helpful for scheduling.",
        nodes - nodes / 20,
        nodes / 20,
        nodes - nodes / 20,
        nodes / 20
    );
    obj! {
        "conditions" => vec![obj! {
            "lastProbeTime" => Value::Null,
            "lastTransitionTime" => at,
            "message" => message,
            "reason" => "Unschedulable",
            "status" => "False",
            "type" => "PodScheduled",
        }],
        "phase" => "Pending",
        "qosClass" => qos,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubefit_core::{evaluate, Options, Source};

    fn evaluated(nodes: usize, pods: usize, format: Format) -> (String, kubefit_core::Report) {
        let text = cluster(nodes, pods, format);
        let report = evaluate(&[Source::new("cluster", &text)], &Options::default());
        (text, report)
    }

    #[test]
    fn both_formats_evaluate_cleanly_with_every_object() {
        for format in [Format::Yaml, Format::Json] {
            let (_, report) = evaluated(40, 1_200, format);
            assert!(
                report.diagnostics.is_empty(),
                "{format:?}: {:#?}",
                &report.diagnostics[..report.diagnostics.len().min(5)]
            );
            assert_eq!(report.nodes.len(), 40, "{format:?}");
            assert_eq!(report.pods.len(), 1_200, "{format:?}");
            assert_eq!(report.inventory.kinds.get("Node"), Some(&40));
            assert_eq!(report.inventory.kinds.get("Pod"), Some(&1_200));
            assert_eq!(report.inventory.generated_pods, 0);
            assert!(
                report.nodes.iter().all(|node| node.ready && node.pods > 0),
                "{format:?}"
            );
            assert_eq!(
                report
                    .nodes
                    .iter()
                    .filter(|node| !node.taints.is_empty())
                    .count(),
                2
            );
        }
    }

    #[test]
    fn yaml_and_json_say_the_same() {
        let (_, yaml) = evaluated(20, 600, Format::Yaml);
        let (_, json) = evaluated(20, 600, Format::Json);
        let value = |report| serde_json::to_value(report).unwrap_or_default();
        assert_eq!(value(&yaml), value(&json));
    }

    #[test]
    fn json_is_kubectl_shaped_json() {
        let text = cluster(3, 30, Format::Json);
        assert!(text.starts_with("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n            \"apiVersion\": \"v1\",\n"));
        assert!(text.ends_with("    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n"));
        let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(value["items"].as_array().map(Vec::len), Some(33));
        assert_eq!(value["items"][0]["kind"], "Node");
        assert_eq!(value["items"][3]["kind"], "Pod");
    }

    #[test]
    fn yaml_is_go_yaml_shaped() {
        let text = cluster(3, 30, Format::Yaml);
        assert!(text.starts_with("apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    annotations:\n"));
        assert!(text.ends_with("kind: List\nmetadata:\n  resourceVersion: \"\"\n"));
        assert!(text.contains("\n    creationTimestamp: \"2026-"));
        assert!(
            text.contains("\n      pods: \"110\"\n") || text.contains("\n      pods: \"234\"\n")
        );
        assert!(text.contains("\n    containers:\n    - env:\n"));
        assert!(text.contains("lastProbeTime: null"));
    }

    #[test]
    fn the_same_size_gives_the_same_bytes() {
        assert_eq!(cluster(7, 90, Format::Yaml), cluster(7, 90, Format::Yaml));
        assert_eq!(cluster(7, 90, Format::Json), cluster(7, 90, Format::Json));
        assert_ne!(cluster(7, 90, Format::Yaml), cluster(7, 91, Format::Yaml));
    }

    #[test]
    fn pods_are_two_to_three_kilobytes_of_yaml_and_twice_that_in_json() {
        let per_pod =
            |format| (cluster(100, 3_000, format).len() - cluster(100, 0, format).len()) / 3_000;
        let (yaml, json) = (per_pod(Format::Yaml), per_pod(Format::Json));
        assert!((2_300..=2_900).contains(&yaml), "{yaml} B/pod in YAML");
        assert!((5_000..=6_200).contains(&json), "{json} B/pod in JSON");
    }

    #[test]
    fn degenerate_sizes_still_read() {
        for (nodes, pods) in [(0, 0), (0, 5), (3, 0), (1, 1)] {
            for format in [Format::Yaml, Format::Json] {
                let (text, report) = evaluated(nodes, pods, format);
                assert!(
                    report.diagnostics.is_empty(),
                    "{nodes}/{pods} {format:?}: {:?}\n{text}",
                    report.diagnostics
                );
                assert_eq!((report.nodes.len(), report.pods.len()), (nodes, pods));
            }
        }
    }
}
