//! DynamoDB's errors: the exception type a client sees and DynamoDB's message, word
//! for word. Every engine failure is one of these; nothing panics on a request.

use thiserror::Error;

use super::value::Item;

/// The exception types DynamoDB (and its HTTP front end) answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    Validation,
    ResourceNotFound,
    ResourceInUse,
    ConditionalCheckFailed,
    TransactionCanceled,
    IdempotentParameterMismatch,
    DuplicateItem,
    Serialization,
    UnknownOperation,
    MissingAuthenticationToken,
    AccessDenied,
    InternalServer,
    /// DynamoDB Streams: a read before the oldest record still kept (24 hours).
    TrimmedDataAccess,
    /// DynamoDB Streams: a shard iterator used more than 15 minutes after it was given.
    ExpiredIterator,
}

impl ErrorKind {
    /// The exception's short name, the part after `#` in `__type`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Validation => "ValidationException",
            Self::ResourceNotFound => "ResourceNotFoundException",
            Self::ResourceInUse => "ResourceInUseException",
            Self::ConditionalCheckFailed => "ConditionalCheckFailedException",
            Self::TransactionCanceled => "TransactionCanceledException",
            Self::IdempotentParameterMismatch => "IdempotentParameterMismatchException",
            Self::DuplicateItem => "DuplicateItemException",
            Self::Serialization => "SerializationException",
            Self::UnknownOperation => "UnknownOperationException",
            Self::MissingAuthenticationToken => "MissingAuthenticationTokenException",
            Self::AccessDenied => "AccessDeniedException",
            Self::InternalServer => "InternalServerError",
            Self::TrimmedDataAccess => "TrimmedDataAccessException",
            Self::ExpiredIterator => "ExpiredIteratorException",
        }
    }

    /// The full `__type` as the real service writes it: validation and protocol errors
    /// come from the Coral framework, the rest from the DynamoDB service model.
    pub fn wire_type(self) -> String {
        let namespace = match self {
            Self::Validation => "com.amazon.coral.validate",
            Self::Serialization
            | Self::UnknownOperation
            | Self::MissingAuthenticationToken
            | Self::AccessDenied => "com.amazon.coral.service",
            _ => "com.amazonaws.dynamodb.v20120810",
        };
        format!("{namespace}#{}", self.name())
    }
}

/// Why one action of a transaction failed (`CancellationReasons`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CancellationReason {
    /// `None`, `ConditionalCheckFailed`, `ValidationError`, ...
    pub code: String,
    pub message: Option<String>,
    pub item: Option<Item>,
}

/// An error answer: its type and DynamoDB's message.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}: {message}", kind.name())]
pub struct DynamoError {
    pub kind: ErrorKind,
    pub message: String,
    /// `ConditionalCheckFailedException` with `ReturnValuesOnConditionCheckFailure`.
    pub item: Option<Item>,
    /// `TransactionCanceledException` only.
    pub cancellation_reasons: Vec<CancellationReason>,
}

impl DynamoError {
    /// An error of `kind` with `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            item: None,
            cancellation_reasons: Vec::new(),
        }
    }

    /// A `ValidationException`.
    pub fn validation(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Validation, message)
    }

    /// The ValidationException for a required request member that is absent, in
    /// DynamoDB's words; `path` is the member's wire path (`key`, `requestItems`).
    pub fn missing_member(path: &str) -> Self {
        Self::validation(format!(
            "1 validation error detected: Value null at '{path}' failed to satisfy constraint: Member must not be null"
        ))
    }

    /// `ResourceNotFoundException` for a missing table or index.
    pub fn not_found() -> Self {
        Self::new(ErrorKind::ResourceNotFound, "Requested resource not found")
    }

    /// `ConditionalCheckFailedException`.
    pub fn condition_failed(item: Option<Item>) -> Self {
        Self {
            item,
            ..Self::new(
                ErrorKind::ConditionalCheckFailed,
                "The conditional request failed",
            )
        }
    }

    /// A `SerializationException` (malformed JSON or a field of the wrong JSON type).
    pub fn serialization(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Serialization, message)
    }
}

/// Result of an engine operation.
pub type DynamoResult<T> = Result<T, DynamoError>;
