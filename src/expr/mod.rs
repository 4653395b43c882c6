//! DynamoDB's expression languages: key condition, condition/filter, projection and
//! update expressions. Knows nothing of tables.
//!
//! - [`parse`] (or [`parse_condition`], [`parse_key_condition`], [`parse_projection`],
//!   [`parse_update`]) turns an expression string into an [`ast`] tree, or an
//!   [`ExprError`] with a byte span and DynamoDB's own message.
//! - Printing (`Display`) gives text that parses back to the same tree.
//!
//! - [`check_request`] parses and checks all the expressions of one request together
//!   against its `ExpressionAttributeNames`/`Values` (undefined, unused, overlapping
//!   paths), in DynamoDB's order; [`check_placeholders`] does the same for trees already
//!   parsed.
//! - [`check_key_condition`] applies DynamoDB's KeyConditionExpression rules against a
//!   [`KeySchema`] and returns the [`KeyCondition`] a Query executes.
//! - [`resolve_names`] / [`Path::resolve`] substitute `#names` with real attribute names.
//!
//! Errors a single expression can show on its own (syntax, reserved words, function
//! names and arity, redundant parentheses, repeated update clauses, size) come from
//! parsing. Errors that need the request's maps or a key schema are those separate
//! checks. Errors that need item values or the table's data (operand types of values,
//! BETWEEN bounds order, key attributes in a filter) are the engine's.

pub mod ast;
mod condition;
pub mod error;
pub mod key_condition;
pub mod legacy;
mod lexer;
mod parser;
pub mod placeholders;
mod print;
mod projection;
pub mod reserved;
pub mod resolve;
mod update;
pub mod visit;

#[cfg(test)]
mod tests;

pub use ast::{
    Ast, Comparator, Condition, Function, Operand, Path, PathElement, PathValueAction, Projection,
    SetAction, SetOperand, SetValue, UpdateClause, UpdateExpr, ValueRef,
};
pub use error::{ErrorCode, ExprError, ExprKind};
pub use key_condition::{
    check_key_condition, KeyAttribute, KeyCondition, KeySchema, PartitionCondition, SortCondition,
    SortOp,
};
pub use parser::Limits;
pub use placeholders::{check_maps, check_placeholders, check_request, first_undefined};
pub use reserved::is_reserved;
pub use resolve::{resolve_names, AttrElement, AttrPath, Names, Unresolved};

/// Parses `src` as the expression parameter `kind`, with DynamoDB's limits.
pub fn parse(src: &str, kind: ExprKind) -> Result<Ast, ExprError> {
    parse_with(src, kind, &Limits::DYNAMODB)
}

/// [`parse`] with explicit limits (e.g. no size limit, to analyse oversized input).
pub fn parse_with(src: &str, kind: ExprKind, limits: &Limits) -> Result<Ast, ExprError> {
    match kind {
        ExprKind::KeyCondition | ExprKind::Condition | ExprKind::Filter => {
            condition::parse(src, kind, limits).map(Ast::Condition)
        }
        ExprKind::Projection => projection::parse(src, limits).map(Ast::Projection),
        ExprKind::Update => update::parse(src, limits).map(Ast::Update),
    }
}

/// Parses a ConditionExpression or FilterExpression (or, with
/// [`ExprKind::KeyCondition`], the grammar of a KeyConditionExpression). `kind` only
/// names the parameter in error messages; any kind parses with the condition grammar.
pub fn parse_condition(src: &str, kind: ExprKind) -> Result<Condition, ExprError> {
    condition::parse(src, kind, &Limits::DYNAMODB)
}

/// Parses a KeyConditionExpression's grammar. Its structural rules (one condition per
/// key, only `=` on the partition key, ...) need the key schema: see `key_condition`.
pub fn parse_key_condition(src: &str) -> Result<Condition, ExprError> {
    condition::parse(src, ExprKind::KeyCondition, &Limits::DYNAMODB)
}

/// Parses a KeyConditionExpression as its author meant it: a reserved word written
/// as an attribute name (`action = :a`) names that attribute instead of failing. For
/// reading what code intends (which attributes key a table nobody declares), never
/// for judging a request: DynamoDB rejects such a condition.
pub fn parse_key_condition_as_meant(src: &str) -> Result<Condition, ExprError> {
    condition::parse_forgiving(
        src,
        ExprKind::KeyCondition,
        &Limits::DYNAMODB,
        &[ErrorCode::ReservedKeyword],
    )
}

/// Parses a ProjectionExpression.
pub fn parse_projection(src: &str) -> Result<Projection, ExprError> {
    projection::parse(src, &Limits::DYNAMODB)
}

/// Parses an UpdateExpression.
pub fn parse_update(src: &str) -> Result<UpdateExpr, ExprError> {
    update::parse(src, &Limits::DYNAMODB)
}
