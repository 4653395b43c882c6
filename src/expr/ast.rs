//! The syntax trees of DynamoDB's four expression languages.
//!
//! Plain data: every node keeps the byte span of its text in the expression string, so
//! errors and findings can point into it. Placeholders stay as written (`#n`, `:v`);
//! [`super::resolve`] substitutes `#names` when the caller knows them. Printing
//! (`Display`, in `print.rs`) yields text that parses back to the same tree.

use crate::source::Span;

/// A parsed expression of any of the four languages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ast {
    /// KeyConditionExpression, ConditionExpression or FilterExpression.
    Condition(Condition),
    /// ProjectionExpression.
    Projection(Projection),
    /// UpdateExpression.
    Update(UpdateExpr),
}

impl Ast {
    /// The condition, for the three condition-grammar kinds.
    pub fn as_condition(&self) -> Option<&Condition> {
        match self {
            Ast::Condition(c) => Some(c),
            _ => None,
        }
    }

    /// The projection, for a ProjectionExpression.
    pub fn as_projection(&self) -> Option<&Projection> {
        match self {
            Ast::Projection(p) => Some(p),
            _ => None,
        }
    }

    /// The update, for an UpdateExpression.
    pub fn as_update(&self) -> Option<&UpdateExpr> {
        match self {
            Ast::Update(u) => Some(u),
            _ => None,
        }
    }
}

/// One element of a document path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathElement {
    /// An attribute or map key written literally (`price`).
    Attr(String),
    /// An expression attribute name placeholder, with its `#` (`#n`).
    Name(String),
    /// A list index (`[3]`).
    Index(u32),
}

/// A document path: `a`, `#n`, `a.b[0].#c`.
///
/// The first element is always an [`PathElement::Attr`] or [`PathElement::Name`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    /// The elements, outermost first.
    pub elements: Vec<PathElement>,
    /// From the first element to the last.
    pub span: Span,
}

impl Path {
    /// True when the path is a single top-level attribute (no `.`, no `[i]`).
    pub fn is_top_level(&self) -> bool {
        self.elements.len() == 1
    }
}

/// An expression attribute value placeholder (`:v`), stored with its `:`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueRef {
    /// The placeholder with its `:` (`:v`), the key of `ExpressionAttributeValues`.
    pub name: String,
    pub span: Span,
}

/// An operand of a comparison, `BETWEEN`, `IN` or function in a condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operand {
    Path(Path),
    Value(ValueRef),
    /// `size(operand)`: the only function that yields a value.
    Size {
        arg: Box<Operand>,
        span: Span,
    },
}

impl Operand {
    /// Where it is in the expression string.
    pub fn span(&self) -> Span {
        match self {
            Operand::Path(p) => p.span,
            Operand::Value(v) => v.span,
            Operand::Size { span, .. } => *span,
        }
    }

    /// The path, when the operand is one.
    pub fn as_path(&self) -> Option<&Path> {
        match self {
            Operand::Path(p) => Some(p),
            _ => None,
        }
    }
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Comparator {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Comparator {
    /// Every comparator, for generators and tables.
    pub const ALL: [Comparator; 6] = [Self::Eq, Self::Ne, Self::Lt, Self::Le, Self::Gt, Self::Ge];

    /// As written in an expression: `=`, `<>`, `<`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Eq => "=",
            Self::Ne => "<>",
            Self::Lt => "<",
            Self::Le => "<=",
            Self::Gt => ">",
            Self::Ge => ">=",
        }
    }

    /// The comparator with its operands swapped: `:v < a` is `a > :v`.
    pub fn flipped(self) -> Self {
        match self {
            Self::Eq => Self::Eq,
            Self::Ne => Self::Ne,
            Self::Lt => Self::Gt,
            Self::Le => Self::Ge,
            Self::Gt => Self::Lt,
            Self::Ge => Self::Le,
        }
    }
}

/// A function that yields a boolean, usable as a condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Function {
    /// `attribute_exists(path)`.
    AttributeExists(Path),
    /// `attribute_not_exists(path)`.
    AttributeNotExists(Path),
    /// `attribute_type(operand, :type)`.
    AttributeType(Operand, Operand),
    /// `begins_with(operand, :prefix)`.
    BeginsWith(Operand, Operand),
    /// `contains(operand, operand)`.
    Contains(Operand, Operand),
}

impl Function {
    /// The function's name as DynamoDB spells it (function names are case-sensitive).
    pub fn name(&self) -> &'static str {
        match self {
            Function::AttributeExists(_) => "attribute_exists",
            Function::AttributeNotExists(_) => "attribute_not_exists",
            Function::AttributeType(..) => "attribute_type",
            Function::BeginsWith(..) => "begins_with",
            Function::Contains(..) => "contains",
        }
    }
}

/// A ConditionExpression, FilterExpression or KeyConditionExpression.
///
/// `AND`/`OR` are binary and left-associative, as parsed: `a AND b AND c` is
/// `And(And(a, b), c)`. Parentheses are not kept; the printer adds the ones the tree
/// needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// `left <op> right`.
    Compare {
        left: Operand,
        op: Comparator,
        right: Operand,
        span: Span,
    },
    /// `operand BETWEEN low AND high`.
    Between {
        operand: Operand,
        low: Operand,
        high: Operand,
        span: Span,
    },
    /// `operand IN (a, b, ...)`.
    In {
        operand: Operand,
        list: Vec<Operand>,
        span: Span,
    },
    /// A boolean function call.
    Function {
        function: Function,
        span: Span,
    },
    And {
        left: Box<Condition>,
        right: Box<Condition>,
        span: Span,
    },
    Or {
        left: Box<Condition>,
        right: Box<Condition>,
        span: Span,
    },
    Not {
        inner: Box<Condition>,
        span: Span,
    },
}

impl Condition {
    /// Where it is in the expression string.
    pub fn span(&self) -> Span {
        match self {
            Condition::Compare { span, .. }
            | Condition::Between { span, .. }
            | Condition::In { span, .. }
            | Condition::Function { span, .. }
            | Condition::And { span, .. }
            | Condition::Or { span, .. }
            | Condition::Not { span, .. } => *span,
        }
    }
}

/// A ProjectionExpression: the paths to return, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Projection {
    pub paths: Vec<Path>,
    pub span: Span,
}

/// An operand on the right of `SET path = ...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetOperand {
    Path(Path),
    Value(ValueRef),
    /// `if_not_exists(path, operand)`.
    IfNotExists {
        path: Path,
        default: Box<SetOperand>,
        span: Span,
    },
    /// `list_append(a, b)`.
    ListAppend {
        first: Box<SetOperand>,
        second: Box<SetOperand>,
        span: Span,
    },
}

impl SetOperand {
    /// Where it is in the expression string.
    pub fn span(&self) -> Span {
        match self {
            SetOperand::Path(p) => p.span,
            SetOperand::Value(v) => v.span,
            SetOperand::IfNotExists { span, .. } | SetOperand::ListAppend { span, .. } => *span,
        }
    }
}

/// The value assigned by a `SET` action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetValue {
    Operand(SetOperand),
    /// `a + b` (numbers).
    Plus(SetOperand, SetOperand),
    /// `a - b` (numbers).
    Minus(SetOperand, SetOperand),
}

/// `path = value` in a `SET` clause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAction {
    pub path: Path,
    pub value: SetValue,
    pub span: Span,
}

/// `path :value` in an `ADD` or `DELETE` clause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathValueAction {
    pub path: Path,
    pub value: ValueRef,
    pub span: Span,
}

/// One clause of an update expression, with its actions in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpdateClause {
    Set {
        actions: Vec<SetAction>,
        span: Span,
    },
    Remove {
        paths: Vec<Path>,
        span: Span,
    },
    /// `ADD path :v`: add to a number or a set.
    Add {
        actions: Vec<PathValueAction>,
        span: Span,
    },
    /// `DELETE path :v`: remove elements from a set.
    Delete {
        actions: Vec<PathValueAction>,
        span: Span,
    },
}

impl UpdateClause {
    /// The clause keyword, upper-case as DynamoDB names it in messages.
    pub fn keyword(&self) -> &'static str {
        match self {
            UpdateClause::Set { .. } => "SET",
            UpdateClause::Remove { .. } => "REMOVE",
            UpdateClause::Add { .. } => "ADD",
            UpdateClause::Delete { .. } => "DELETE",
        }
    }

    /// Where it is in the expression string.
    pub fn span(&self) -> Span {
        match self {
            UpdateClause::Set { span, .. }
            | UpdateClause::Remove { span, .. }
            | UpdateClause::Add { span, .. }
            | UpdateClause::Delete { span, .. } => *span,
        }
    }
}

/// An UpdateExpression: its clauses in source order, each kind at most once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdateExpr {
    pub clauses: Vec<UpdateClause>,
    pub span: Span,
}

impl UpdateExpr {
    /// All `SET` actions.
    pub fn set_actions(&self) -> impl Iterator<Item = &SetAction> {
        self.clauses.iter().flat_map(|c| match c {
            UpdateClause::Set { actions, .. } => actions.as_slice(),
            _ => &[],
        })
    }

    /// All `REMOVE` paths.
    pub fn remove_paths(&self) -> impl Iterator<Item = &Path> {
        self.clauses.iter().flat_map(|c| match c {
            UpdateClause::Remove { paths, .. } => paths.as_slice(),
            _ => &[],
        })
    }

    /// All `ADD` actions.
    pub fn add_actions(&self) -> impl Iterator<Item = &PathValueAction> {
        self.clauses.iter().flat_map(|c| match c {
            UpdateClause::Add { actions, .. } => actions.as_slice(),
            _ => &[],
        })
    }

    /// All `DELETE` actions.
    pub fn delete_actions(&self) -> impl Iterator<Item = &PathValueAction> {
        self.clauses.iter().flat_map(|c| match c {
            UpdateClause::Delete { actions, .. } => actions.as_slice(),
            _ => &[],
        })
    }

    /// Every path the update writes or removes (the targets of all actions), in order.
    pub fn target_paths(&self) -> Vec<&Path> {
        let mut out = Vec::new();
        for clause in &self.clauses {
            match clause {
                UpdateClause::Set { actions, .. } => out.extend(actions.iter().map(|a| &a.path)),
                UpdateClause::Remove { paths, .. } => out.extend(paths.iter()),
                UpdateClause::Add { actions, .. } | UpdateClause::Delete { actions, .. } => {
                    out.extend(actions.iter().map(|a| &a.path))
                }
            }
        }
        out
    }
}
