//! Format ids ([`FormatId`]): the floor the rest stands on. This module
//! names nothing else of the crate, so the lower layers (`call`, `config`,
//! `record`) use it without reaching up into the formats.

/// A format id, as `--format` takes it and records carry it.
///
/// Ids are made only by the registry ([`super::ids`]), so every id names
/// a known format; `FormatId::lookup` (in the registry) reads one from user
/// input.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FormatId(&'static str);

impl FormatId {
    /// An id; only the registry calls this.
    pub(crate) const fn new(id: &'static str) -> Self {
        FormatId(id)
    }

    /// The id as text.
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

impl std::fmt::Debug for FormatId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::fmt::Display for FormatId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl serde::Serialize for FormatId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl PartialEq<str> for FormatId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for FormatId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}
