//! Report text that many entries share, written out as one string.
//!
//! A taint on a few hundred nodes evicts tens of thousands of pods, and each pod's
//! `namespace/name` appears in its eviction, its events' objects and their messages.
//! [`Words`] lets them share one reference-counted copy: `Pod/` before it, or
//! `Marking for deletion Pod ` before it, costs no allocation. JSON and the text
//! rendering see a plain string.

use alloc::string::String;
use alloc::sync::Arc;
use core::fmt;
use serde::{Serialize, Serializer};

/// A string of the report: fixed wording, a shared name with fixed wording before it, or
/// a string of its own.
#[derive(Clone, Debug)]
pub enum Words {
    /// Fixed wording.
    Fixed(&'static str),
    /// Fixed wording, then a shared string (`Pod/` and `namespace/name`).
    Shared(&'static str, Arc<str>),
    /// Worded for this entry alone.
    Own(String),
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

    /// The two pieces that make the string, in order.
    #[must_use]
    pub fn pieces(&self) -> (&str, &str) {
        match self {
            Self::Fixed(text) => ("", text),
            Self::Shared(before, text) => (before, text),
            Self::Own(text) => ("", text),
        }
    }

    /// The string's length in bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        let (before, after) = self.pieces();
        before.len() + after.len()
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
        let (before, after) = self.pieces();
        formatter.write_str(before)?;
        formatter.write_str(after)
    }
}

impl PartialEq<str> for Words {
    fn eq(&self, other: &str) -> bool {
        let (before, after) = self.pieces();
        other.strip_prefix(before).is_some_and(|rest| rest == after)
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
        let (before, after) = other.pieces();
        self.len() == other.len()
            && match self.pieces() {
                ("", text) => text.strip_prefix(before).is_some_and(|rest| rest == after),
                _ => *self == *alloc::format!("{other}"),
            }
    }
}

impl Eq for Words {}

impl Serialize for Words {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.pieces() {
            ("", text) => serializer.serialize_str(text),
            _ => serializer.collect_str(self),
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
}
