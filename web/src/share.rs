//! Share links and saved sessions: the playground's state as a short, versioned string.
//!
//! The string is `v1.` followed by the state as JSON, deflated (raw DEFLATE, RFC 1951)
//! and written in URL-safe base64 without padding, so it fits in a URL fragment, which
//! browsers never send to a server. The same string is what `localStorage` keeps.
//!
//! Compatibility: every field but `documents` has a default, and unknown fields are
//! ignored, so adding a field keeps `v1`. A change that old readers would misread gets
//! a new version, and [`decode`] keeps reading every older one.

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::tables::{NodeColumn, PodColumn, PodFilter, Sort};

/// The prefix of the current format.
pub const CURRENT: &str = "v1";

/// Decoded states are at most this large, so a crafted link cannot exhaust memory.
pub const MAX_DECODED_BYTES: usize = 64 << 20;

/// What a link or a saved session holds: the documents and how they are shown.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// The documents, in tab order.
    pub documents: Vec<SharedDocument>,
    /// The index of the document in the editor.
    #[serde(default)]
    pub active: usize,
    /// The id of the selected panel (see `Panel::id`); unknown ids fall back to the default.
    #[serde(default)]
    pub panel: String,
    /// How the nodes table is sorted.
    #[serde(default)]
    pub nodes_sort: Sort<NodeColumn>,
    /// How the pods table is sorted.
    #[serde(default)]
    pub pods_sort: Sort<PodColumn>,
    /// Which pods the pods table shows.
    #[serde(default)]
    pub pods_filter: PodFilter,
    /// The pending pod the placement panel shows (`namespace/name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod: Option<String>,
}

/// One document of a [`Snapshot`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedDocument {
    /// The name diagnostics use.
    pub name: String,
    /// The text.
    pub text: String,
}

/// Why a string is not a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The version prefix is not one this build reads (a newer kubefit made it).
    UnknownVersion(String),
    /// The string is not what any version writes (cut short, or edited).
    Malformed(&'static str),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownVersion(version) => write!(
                f,
                "the link is in format `{version}`, which this kubefit does not read; it may come from a newer kubefit"
            ),
            Self::Malformed(what) => write!(f, "the link is damaged: {what}"),
        }
    }
}

/// The state as a string (without `#`).
#[must_use]
pub fn encode(snapshot: &Snapshot) -> String {
    // A snapshot is plain data, which serde_json always serialises.
    let json = serde_json::to_vec(snapshot).unwrap_or_default();
    let deflated = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("{CURRENT}.{}", URL_SAFE_NO_PAD.encode(deflated))
}

/// The state a string holds; a leading `#` is ignored.
///
/// # Errors
///
/// [`Error::UnknownVersion`] for a format this build does not know, [`Error::Malformed`]
/// when the string is damaged.
pub fn decode(text: &str) -> Result<Snapshot, Error> {
    let text = text.trim().trim_start_matches('#');
    let (version, payload) = text
        .split_once('.')
        .ok_or(Error::Malformed("no version prefix"))?;
    match version {
        "v1" => decode_v1(payload),
        other => Err(Error::UnknownVersion(other.chars().take(16).collect())),
    }
}

fn decode_v1(payload: &str) -> Result<Snapshot, Error> {
    let deflated = URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .map_err(|_| Error::Malformed("not base64"))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_DECODED_BYTES)
        .map_err(|_| Error::Malformed("cannot be decompressed"))?;
    serde_json::from_slice(&json).map_err(|_| Error::Malformed("not a playground state"))
}

/// True if a URL fragment looks like a state (so other fragments are left alone).
#[must_use]
pub fn is_state(fragment: &str) -> bool {
    let fragment = fragment.trim_start_matches('#');
    fragment.split_once('.').is_some_and(|(version, _)| {
        version.len() >= 2
            && version.starts_with('v')
            && version[1..].bytes().all(|byte| byte.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot() -> Snapshot {
        Snapshot {
            documents: vec![
                SharedDocument {
                    name: "nodes.yaml".into(),
                    text: "kind: Node\nmetadata: {name: n1}\n".into(),
                },
                SharedDocument {
                    name: "ünïcode 🚀.yaml".into(),
                    text: "# ✓\n".repeat(500),
                },
            ],
            active: 1,
            panel: "pods".into(),
            nodes_sort: Sort {
                column: NodeColumn::Memory,
                descending: true,
            },
            pods_sort: Sort {
                column: PodColumn::Priority,
                descending: false,
            },
            pods_filter: PodFilter {
                namespace: Some("shop".into()),
                text: "web".into(),
            },
            pod: Some("shop/web-1".into()),
        }
    }

    #[test]
    fn a_state_survives_the_round_trip_and_fits_a_url() {
        let encoded = encode(&snapshot());
        assert!(encoded.starts_with("v1."), "{encoded}");
        assert!(
            encoded
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)),
            "URL-safe: {encoded}"
        );
        assert!(encoded.len() < 400, "compressed: {}", encoded.len());
        assert_eq!(decode(&encoded), Ok(snapshot()));
        assert_eq!(decode(&format!("#{encoded}")), Ok(snapshot()));
        assert!(is_state(&format!("#{encoded}")));
        assert!(!is_state("#main"));
        assert!(!is_state("#section.2"));
    }

    /// A version 1 link, frozen: it must open for as long as kubefit exists. (Written by
    /// Node's zlib, another deflate encoder, from
    /// `{"documents":[{"name":"input.yaml","text":"kind: Node\nmetadata: {name: n1}\n"}],"panel":"pods"}`.)
    #[test]
    fn version_1_links_keep_opening() {
        let link = "v1.FcsxCoAwDAXQq5Q_F8E1h_AC6hBMBrFNC6aglN5dfPvrkHK0rOY3aO0wzgrCabX59HJOiHB9HITrNKGwFNHNsjoLO1Po_6Bg89gMY4-obJpAqEVujA8";
        let snapshot = decode(link).expect("a v1 link");
        assert_eq!(snapshot.documents[0].name, "input.yaml");
        assert_eq!(
            snapshot.documents[0].text,
            "kind: Node\nmetadata: {name: n1}\n"
        );
        assert_eq!(snapshot.panel, "pods");
        assert_eq!(snapshot.active, 0);
        assert_eq!(snapshot.nodes_sort, Sort::default());
        // Fields from later releases are ignored by this one.
        let newer = r#"{"documents":[],"profile":"openshift-3.11","whatIf":{"pods":3}}"#;
        let link = format!(
            "v1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(newer.as_bytes(), 6))
        );
        assert_eq!(decode(&link), Ok(Snapshot::default()));
    }

    #[test]
    fn damaged_and_unknown_links_are_errors_not_panics() {
        assert_eq!(decode("v9.abc"), Err(Error::UnknownVersion("v9".into())));
        assert_eq!(
            decode("nothing"),
            Err(Error::Malformed("no version prefix"))
        );
        assert_eq!(decode("v1.***"), Err(Error::Malformed("not base64")));
        assert_eq!(
            decode("v1.AAAA"),
            Err(Error::Malformed("cannot be decompressed"))
        );
        let encoded = encode(&snapshot());
        assert!(decode(&encoded[..encoded.len() / 2]).is_err());
        let not_state = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"[1,2]", 6));
        assert_eq!(
            decode(&format!("v1.{not_state}")),
            Err(Error::Malformed("not a playground state"))
        );
        assert!(Error::UnknownVersion("v9".into())
            .to_string()
            .contains("newer kubefit"));
    }

    #[test]
    fn a_decompression_bomb_stops_at_the_limit() {
        let huge = vec![b' '; MAX_DECODED_BYTES + 1];
        let link = format!(
            "v1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&huge, 9))
        );
        assert_eq!(
            decode(&link),
            Err(Error::Malformed("cannot be decompressed"))
        );
    }
}
