//! Report text that many entries share, written out as one string.
//!
//! A taint on a few hundred nodes evicts tens of thousands of pods, and each pod's
//! `namespace/name` appears in its eviction, its events' objects and their messages.
//! [`Words`] lets them share one reference-counted copy: `Pod/` before it, or
//! `Marking for deletion Pod ` before it, costs no allocation. The descheduler's
//! decisions share pod, node and owner names the same way, and a replacement's name is
//! its owner's shared base with its five-character suffix kept inline. JSON and the
//! text rendering see a plain string.

use alloc::string::String;
use alloc::sync::Arc;
use core::fmt;
use serde::{Serialize, Serializer};

/// A string of the report: fixed wording, a shared name with fixed wording around it, or
/// a string of its own. (Forty bytes: a taint's evictions keep tens of thousands.)
#[derive(Clone, Debug)]
pub enum Words {
    /// Fixed wording.
    Fixed(&'static str),
    /// Fixed wording, then a shared string (`Pod/` and `namespace/name`).
    Shared(&'static str, Arc<str>),
    /// A shared string in a frame of fixed wording (``first pod of `ReplicaSet/web` on
    /// the node``).
    Framed(&'static Frame, Arc<str>),
    /// A shared string, then a short tail of its own (`shop/web-7d9f-` and `x5k2q`).
    Tailed(Arc<str>, Tail),
    /// Worded for this entry alone.
    Own(String),
}

/// The fixed wording before and after a shared string.
pub type Frame = (&'static str, &'static str);

/// A few bytes of text kept inline (a generated name's suffix).
#[derive(Clone, Copy, Debug)]
pub struct Tail {
    bytes: [u8; TAIL_BYTES],
    len: u8,
}

const TAIL_BYTES: usize = 7;

impl Tail {
    /// `pieces` in a row, if they fit.
    fn of(pieces: &[&str]) -> Option<Self> {
        let mut tail = Self {
            bytes: [0; TAIL_BYTES],
            len: 0,
        };
        for piece in pieces {
            let start = usize::from(tail.len);
            let end = start.checked_add(piece.len())?;
            tail.bytes
                .get_mut(start..end)?
                .copy_from_slice(piece.as_bytes());
            tail.len = u8::try_from(end).ok()?;
        }
        Some(tail)
    }

    fn as_str(&self) -> &str {
        // Whole strings were copied in, so the bytes are UTF-8.
        self.bytes
            .get(..usize::from(self.len))
            .and_then(|bytes| core::str::from_utf8(bytes).ok())
            .unwrap_or_default()
    }
}

impl Words {
    /// A shared string on its own.
    #[must_use]
    pub fn shared(text: &Arc<str>) -> Self {
        Self::Shared("", Arc::clone(text))
    }

    /// This string with fixed wording before it: shared, when this is a shared string on
    /// its own.
    #[must_use]
    pub fn prefixed(&self, before: &'static str) -> Self {
        match self {
            Self::Shared("", text) => Self::Shared(before, Arc::clone(text)),
            _ => Self::Own(alloc::format!("{before}{self}")),
        }
    }

    /// This string in a frame of fixed wording: shared, when this is a shared string on
    /// its own.
    #[must_use]
    pub fn framed(&self, frame: &'static Frame) -> Self {
        match self {
            Self::Shared("", text) => Self::Framed(frame, Arc::clone(text)),
            _ => Self::Own(alloc::format!("{}{self}{}", frame.0, frame.1)),
        }
    }

    /// A shared string followed by `tail`'s pieces: kept inline when they are short.
    #[must_use]
    pub fn tailed(text: &Arc<str>, tail: &[&str]) -> Self {
        match Tail::of(tail) {
            Some(tail) => Self::Tailed(Arc::clone(text), tail),
            None => {
                let mut own = String::from(&**text);
                tail.iter().for_each(|piece| own.push_str(piece));
                Self::Own(own)
            }
        }
    }

    /// The three pieces that make the string, in order.
    #[must_use]
    pub fn pieces(&self) -> [&str; 3] {
        match self {
            Self::Fixed(text) => ["", text, ""],
            Self::Shared(before, text) => [before, text, ""],
            Self::Framed((before, after), text) => [before, text, after],
            Self::Tailed(text, tail) => ["", text, tail.as_str()],
            Self::Own(text) => ["", text, ""],
        }
    }

    /// The string in one piece, when it is one.
    fn whole(&self) -> Option<&str> {
        match self.pieces() {
            ["", text, ""] => Some(text),
            _ => None,
        }
    }

    /// The string's length in bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.pieces().iter().map(|piece| piece.len()).sum()
    }

    /// True for the empty string.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for Words {
    fn default() -> Self {
        Self::Fixed("")
    }
}

impl From<&'static str> for Words {
    fn from(text: &'static str) -> Self {
        Self::Fixed(text)
    }
}

impl From<String> for Words {
    fn from(text: String) -> Self {
        Self::Own(text)
    }
}

impl fmt::Display for Words {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pieces()
            .iter()
            .try_for_each(|piece| formatter.write_str(piece))
    }
}

impl PartialEq<str> for Words {
    fn eq(&self, other: &str) -> bool {
        let [before, text, after] = self.pieces();
        other
            .strip_prefix(before)
            .and_then(|rest| rest.strip_suffix(after))
            .is_some_and(|rest| rest == text)
    }
}

impl PartialEq<&str> for Words {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

/// Equal when they read the same, however they are made up.
impl PartialEq for Words {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && match (self.whole(), other.whole()) {
                (Some(text), _) => other == text,
                (_, Some(text)) => self == text,
                _ => *self == *alloc::format!("{other}"),
            }
    }
}

impl Eq for Words {}

impl Serialize for Words {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.whole() {
            Some(text) => serializer.serialize_str(text),
            None => serializer.collect_str(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn reads_as_one_string_however_it_is_made_up() {
        let name: Arc<str> = Arc::from("default/web-1");
        let object = Words::Shared("Pod/", Arc::clone(&name));
        assert_eq!(object, "Pod/default/web-1");
        assert_eq!(object.to_string(), "Pod/default/web-1");
        assert_eq!(object.len(), 17);
        assert_eq!(object, Words::Own("Pod/default/web-1".into()));
        assert_eq!(Words::Own("Pod/default/web-1".into()), object);
        assert_ne!(object, Words::shared(&name));
        assert_ne!(object, "Pod/default/web-2");
        assert_eq!(Words::shared(&name), Words::Fixed("default/web-1"));
        assert!(Words::default().is_empty());
        assert_eq!(
            serde_json::to_string(&object).ok().as_deref(),
            Some("\"Pod/default/web-1\"")
        );
        let quoted = Words::Shared("say ", Arc::from("\"hi\""));
        assert_eq!(
            serde_json::to_string(&quoted).ok().as_deref(),
            Some(r#""say \"hi\"""#)
        );
    }

    #[test]
    fn framed_words_read_as_their_three_pieces() {
        let owner: Arc<str> = Arc::from("ReplicaSet/web");
        let reason = Words::Framed(&("first pod of `", "` on the node"), Arc::clone(&owner));
        let text = "first pod of `ReplicaSet/web` on the node";
        assert_eq!(reason, text);
        assert_eq!(reason.to_string(), text);
        assert_eq!(reason.len(), text.len());
        assert_eq!(reason, Words::Own(text.into()));
        assert_eq!(Words::Fixed(text), reason);
        let split = Words::Shared("first pod of `", Arc::from("ReplicaSet/web` on the node"));
        assert_eq!(reason, split);
        assert_ne!(reason, "first pod of `ReplicaSet/web`");
        assert_ne!(reason, "first pod of `ReplicaSet/api` on the node");
        assert_ne!(Words::Framed(&("a", "a"), Arc::from("")), "a");
        assert_eq!(
            core::mem::size_of::<Words>(),
            5 * core::mem::size_of::<usize>()
        );
        let base: Arc<str> = Arc::from("shop/web-7d9f-");
        let replacement = Words::tailed(&base, &["x5k2q"]);
        assert!(matches!(replacement, Words::Tailed(..)));
        assert_eq!(replacement, "shop/web-7d9f-x5k2q");
        assert_eq!(replacement.to_string(), "shop/web-7d9f-x5k2q");
        assert_eq!(
            Words::tailed(&base, &["-", "x5k2q"]),
            "shop/web-7d9f--x5k2q"
        );
        let long = Words::tailed(&base, &["-", "x5k2q", "!!"]);
        assert!(matches!(long, Words::Own(_)));
        assert_eq!(long, "shop/web-7d9f--x5k2q!!");
        assert_eq!(
            serde_json::to_string(&replacement).ok().as_deref(),
            Some(r#""shop/web-7d9f-x5k2q""#)
        );
        assert_eq!(
            serde_json::to_string(&reason).ok().as_deref(),
            Some(r#""first pod of `ReplicaSet/web` on the node""#)
        );
    }
}
