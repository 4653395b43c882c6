//! Expression errors, worded as DynamoDB words them.
//!
//! Each message is DynamoDB's full ValidationException text (with its
//! `Invalid XExpression: ` prefix where DynamoDB has one), so the engine can return it
//! verbatim and rules can quote it. Where the wording is ours (no DynamoDB equivalent),
//! [`ErrorCode::is_dynamodb_wording`] says so.

use std::fmt;

use thiserror::Error;

use crate::source::Span;

/// Which expression parameter of a request an expression is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExprKind {
    KeyCondition,
    Condition,
    Filter,
    Projection,
    Update,
}

impl ExprKind {
    /// The request parameter name: `KeyConditionExpression`, ...
    pub fn parameter(self) -> &'static str {
        match self {
            ExprKind::KeyCondition => "KeyConditionExpression",
            ExprKind::Condition => "ConditionExpression",
            ExprKind::Filter => "FilterExpression",
            ExprKind::Projection => "ProjectionExpression",
            ExprKind::Update => "UpdateExpression",
        }
    }

    /// True for the three kinds written in the condition grammar.
    pub fn is_condition_grammar(self) -> bool {
        matches!(
            self,
            ExprKind::KeyCondition | ExprKind::Condition | ExprKind::Filter
        )
    }
}

impl fmt::Display for ExprKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.parameter())
    }
}

/// What went wrong, for callers that branch on it rather than on the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// `The expression can not be empty;`
    Empty,
    /// `Expression size has exceeded the maximum allowed size; ...`
    TooLarge,
    /// Nesting beyond the parser's depth limit (our wording: DynamoDB's 4 KB limit makes
    /// its parser never see such input).
    TooDeep,
    /// More `AND`/`OR` operators than the parser's limit (our wording; unreachable within
    /// DynamoDB's 4 KB).
    TooComplex,
    /// `Syntax error; token: "..", near: ".."`
    Syntax,
    /// `Attribute name is a reserved keyword; reserved keyword: ..`
    ReservedKeyword,
    /// `Invalid function name; function: ..`
    InvalidFunction,
    /// `Incorrect number of operands for operator or function; ...`
    OperandCount,
    /// `Operator or function requires a document path; ...`
    RequiresPath,
    /// `The function is not allowed to be used this way in an expression; ...`
    FunctionMisuse,
    /// `The first operand must be distinct from the remaining operands ...`
    DistinctOperands,
    /// `The expression has redundant parentheses;`
    RedundantParentheses,
    /// `The "SET" section can only be used once in an update expression;`
    SectionRepeated,
    /// `An expression attribute name used in the document path is not defined; ...`
    UndefinedName,
    /// `An expression attribute value used in expression is not defined; ...`
    UndefinedValue,
    /// `Value provided in ExpressionAttributeNames unused in expressions: ...`
    UnusedNames,
    /// `Value provided in ExpressionAttributeValues unused in expressions: ...`
    UnusedValues,
    /// `ExpressionAttribute{Names,Values} contains invalid key: ...` or `... must not be empty`.
    InvalidPlaceholderMap,
    /// `Two document paths overlap with each other; ...`
    PathOverlap,
    /// `Two document paths conflict with each other; ...`
    PathConflict,
    /// A KeyConditionExpression shape DynamoDB rejects (one condition per key, only `=`
    /// on the partition key, missing key, ...).
    KeyCondition,
    /// `Incorrect operand type for operator or function; ...` decided from the key schema.
    OperandType,
    /// A `#name` whose attribute name the caller could not tell, where the check needs
    /// it (our wording; DynamoDB always knows).
    UnresolvedName,
}

impl ErrorCode {
    /// False for the codes whose message is dynalint's own rather than DynamoDB's.
    pub fn is_dynamodb_wording(self) -> bool {
        !matches!(
            self,
            ErrorCode::TooDeep | ErrorCode::TooComplex | ErrorCode::UnresolvedName
        )
    }
}

/// An expression that DynamoDB would reject (or that dynalint cannot judge).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct ExprError {
    pub code: ErrorCode,
    /// DynamoDB's full message, including the `Invalid XExpression: ` prefix.
    pub message: String,
    /// The expression the span points into; `None` for request-level errors (unused
    /// placeholders, bad placeholder maps), whose span is empty.
    pub expr: Option<ExprKind>,
    /// Byte range in that expression's string.
    pub span: Span,
}

impl ExprError {
    /// An error inside one expression, with `Invalid XExpression: ` prefixed.
    pub fn in_expr(kind: ExprKind, code: ErrorCode, span: Span, detail: impl fmt::Display) -> Self {
        Self {
            code,
            message: format!("Invalid {}: {detail}", kind.parameter()),
            expr: Some(kind),
            span,
        }
    }

    /// An error about one expression whose message DynamoDB words without the prefix.
    pub fn bare(kind: ExprKind, code: ErrorCode, span: Span, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            expr: Some(kind),
            span,
        }
    }

    /// A request-level error, not inside any one expression.
    pub fn request(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            expr: None,
            span: Span::default(),
        }
    }
}
