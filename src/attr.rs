//! DynamoDB's attribute types, shared by the model, the scanner's IR and the engine.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A DynamoDB attribute type, spelled as DynamoDB spells it on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum AttributeType {
    S,
    N,
    B,
    #[serde(rename = "BOOL")]
    Bool,
    #[serde(rename = "NULL")]
    Null,
    M,
    L,
    SS,
    NS,
    BS,
}

impl AttributeType {
    /// Every type, in DynamoDB's documentation order.
    pub const ALL: [AttributeType; 10] = [
        Self::S,
        Self::N,
        Self::B,
        Self::Bool,
        Self::Null,
        Self::M,
        Self::L,
        Self::SS,
        Self::NS,
        Self::BS,
    ];

    /// The wire name: `S`, `N`, `BOOL`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Self::S => "S",
            Self::N => "N",
            Self::B => "B",
            Self::Bool => "BOOL",
            Self::Null => "NULL",
            Self::M => "M",
            Self::L => "L",
            Self::SS => "SS",
            Self::NS => "NS",
            Self::BS => "BS",
        }
    }

    /// Parses a wire name; `None` for anything DynamoDB does not know.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// Only S, N and B may be key attributes.
    pub fn is_key_type(self) -> bool {
        matches!(self, Self::S | Self::N | Self::B)
    }
}

impl fmt::Display for AttributeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_round_trip() {
        for t in AttributeType::ALL {
            assert_eq!(AttributeType::parse(t.as_str()), Some(t));
        }
        assert_eq!(AttributeType::parse("X"), None);
        assert!(AttributeType::S.is_key_type());
        assert!(!AttributeType::Bool.is_key_type());
    }
}
