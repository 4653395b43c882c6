//! Printing expressions back to text.
//!
//! The output parses back to the same tree (spans aside): parentheses are added exactly
//! where precedence or left-associativity needs them, and never doubled (DynamoDB
//! rejects `((..))` as redundant).

use std::fmt::{self, Display, Formatter};

use super::ast::{
    Ast, Comparator, Condition, Function, Operand, Path, PathElement, PathValueAction, Projection,
    SetAction, SetOperand, SetValue, UpdateClause, UpdateExpr, ValueRef,
};

impl Display for PathElement {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Attr(s) | PathElement::Name(s) => f.write_str(s),
            PathElement::Index(i) => write!(f, "[{i}]"),
        }
    }
}

impl Display for Path {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for (i, element) in self.elements.iter().enumerate() {
            if i > 0 && !matches!(element, PathElement::Index(_)) {
                f.write_str(".")?;
            }
            element.fmt(f)?;
        }
        Ok(())
    }
}

impl Display for ValueRef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl Display for Comparator {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Display for Operand {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Path(p) => p.fmt(f),
            Operand::Value(v) => v.fmt(f),
            Operand::Size { arg, .. } => write!(f, "size({arg})"),
        }
    }
}

impl Display for Function {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Function::AttributeExists(p) | Function::AttributeNotExists(p) => {
                write!(f, "{}({p})", self.name())
            }
            Function::AttributeType(a, b)
            | Function::BeginsWith(a, b)
            | Function::Contains(a, b) => write!(f, "{}({a}, {b})", self.name()),
        }
    }
}

/// Binding strength: OR < AND < NOT < everything else.
fn precedence(c: &Condition) -> u8 {
    match c {
        Condition::Or { .. } => 1,
        Condition::And { .. } => 2,
        Condition::Not { .. } => 3,
        _ => 4,
    }
}

/// Writes `c`, parenthesised when it binds less tightly than `min`.
fn write_at(f: &mut Formatter<'_>, c: &Condition, min: u8) -> fmt::Result {
    if precedence(c) < min {
        write!(f, "({c})")
    } else {
        c.fmt(f)
    }
}

impl Display for Condition {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Condition::Compare {
                left, op, right, ..
            } => write!(f, "{left} {op} {right}"),
            Condition::Between {
                operand, low, high, ..
            } => write!(f, "{operand} BETWEEN {low} AND {high}"),
            Condition::In { operand, list, .. } => {
                write!(f, "{operand} IN (")?;
                for (i, item) in list.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    item.fmt(f)?;
                }
                f.write_str(")")
            }
            Condition::Function { function, .. } => function.fmt(f),
            // Left-associative: a right child of the same strength needs parentheses.
            Condition::And { left, right, .. } => {
                write_at(f, left, 2)?;
                f.write_str(" AND ")?;
                write_at(f, right, 3)
            }
            Condition::Or { left, right, .. } => {
                write_at(f, left, 1)?;
                f.write_str(" OR ")?;
                write_at(f, right, 2)
            }
            Condition::Not { inner, .. } => {
                f.write_str("NOT ")?;
                write_at(f, inner, 3)
            }
        }
    }
}

impl Display for Projection {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for (i, p) in self.paths.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            p.fmt(f)?;
        }
        Ok(())
    }
}

impl Display for SetOperand {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            SetOperand::Path(p) => p.fmt(f),
            SetOperand::Value(v) => v.fmt(f),
            SetOperand::IfNotExists { path, default, .. } => {
                write!(f, "if_not_exists({path}, {default})")
            }
            SetOperand::ListAppend { first, second, .. } => {
                write!(f, "list_append({first}, {second})")
            }
        }
    }
}

impl Display for SetValue {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            SetValue::Operand(o) => o.fmt(f),
            SetValue::Plus(a, b) => write!(f, "{a} + {b}"),
            SetValue::Minus(a, b) => write!(f, "{a} - {b}"),
        }
    }
}

impl Display for SetAction {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", self.path, self.value)
    }
}

impl Display for PathValueAction {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.path, self.value)
    }
}

fn write_list<T: Display>(f: &mut Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        item.fmt(f)?;
    }
    Ok(())
}

impl Display for UpdateClause {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())?;
        f.write_str(" ")?;
        match self {
            UpdateClause::Set { actions, .. } => write_list(f, actions),
            UpdateClause::Remove { paths, .. } => write_list(f, paths),
            UpdateClause::Add { actions, .. } | UpdateClause::Delete { actions, .. } => {
                write_list(f, actions)
            }
        }
    }
}

impl Display for UpdateExpr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for (i, clause) in self.clauses.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            clause.fmt(f)?;
        }
        Ok(())
    }
}

impl Display for Ast {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Ast::Condition(c) => c.fmt(f),
            Ast::Projection(p) => p.fmt(f),
            Ast::Update(u) => u.fmt(f),
        }
    }
}
