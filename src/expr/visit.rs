//! Walking a tree's placeholders and paths in source order.

use super::ast::{
    Ast, Condition, Function, Operand, Path, SetOperand, SetValue, UpdateClause, ValueRef,
};

/// A path or a value placeholder met while walking a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ref<'a> {
    Path(&'a Path),
    Value(&'a ValueRef),
}

impl Ast {
    /// Calls `f` on every path and `:value` in the tree, left to right.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(Ref<'a>)) {
        match self {
            Ast::Condition(c) => walk_condition(c, f),
            Ast::Projection(p) => p.paths.iter().for_each(|p| f(Ref::Path(p))),
            Ast::Update(u) => {
                for clause in &u.clauses {
                    match clause {
                        UpdateClause::Set { actions, .. } => {
                            for a in actions {
                                f(Ref::Path(&a.path));
                                match &a.value {
                                    SetValue::Operand(o) => walk_set_operand(o, f),
                                    SetValue::Plus(x, y) | SetValue::Minus(x, y) => {
                                        walk_set_operand(x, f);
                                        walk_set_operand(y, f);
                                    }
                                }
                            }
                        }
                        UpdateClause::Remove { paths, .. } => {
                            paths.iter().for_each(|p| f(Ref::Path(p)))
                        }
                        UpdateClause::Add { actions, .. }
                        | UpdateClause::Delete { actions, .. } => {
                            for a in actions {
                                f(Ref::Path(&a.path));
                                f(Ref::Value(&a.value));
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every `#name` used, in order (with repeats), with the path it appears in.
    pub fn name_placeholders(&self) -> Vec<(&str, &Path)> {
        let mut out = Vec::new();
        self.walk(&mut |r| {
            if let Ref::Path(p) = r {
                for e in &p.elements {
                    if let super::ast::PathElement::Name(n) = e {
                        out.push((n.as_str(), p));
                    }
                }
            }
        });
        out
    }

    /// Every `:value` used, in order (with repeats).
    pub fn value_placeholders(&self) -> Vec<&ValueRef> {
        let mut out = Vec::new();
        self.walk(&mut |r| {
            if let Ref::Value(v) = r {
                out.push(v);
            }
        });
        out
    }
}

/// Calls `f` on every path and `:value` of a condition, left to right.
pub fn walk_condition<'a>(c: &'a Condition, f: &mut dyn FnMut(Ref<'a>)) {
    // Iterative over AND/OR/NOT chains' left spines is not needed: the parser bounds
    // nesting depth, so recursion here is bounded too.
    match c {
        Condition::Compare { left, right, .. } => {
            walk_operand(left, f);
            walk_operand(right, f);
        }
        Condition::Between {
            operand, low, high, ..
        } => {
            walk_operand(operand, f);
            walk_operand(low, f);
            walk_operand(high, f);
        }
        Condition::In { operand, list, .. } => {
            walk_operand(operand, f);
            list.iter().for_each(|o| walk_operand(o, f));
        }
        Condition::Function { function, .. } => match function {
            Function::AttributeExists(p) | Function::AttributeNotExists(p) => f(Ref::Path(p)),
            Function::AttributeType(a, b)
            | Function::BeginsWith(a, b)
            | Function::Contains(a, b) => {
                walk_operand(a, f);
                walk_operand(b, f);
            }
        },
        Condition::And { left, right, .. } | Condition::Or { left, right, .. } => {
            walk_condition(left, f);
            walk_condition(right, f);
        }
        Condition::Not { inner, .. } => walk_condition(inner, f),
    }
}

fn walk_operand<'a>(o: &'a Operand, f: &mut dyn FnMut(Ref<'a>)) {
    match o {
        Operand::Path(p) => f(Ref::Path(p)),
        Operand::Value(v) => f(Ref::Value(v)),
        Operand::Size { arg, .. } => walk_operand(arg, f),
    }
}

fn walk_set_operand<'a>(o: &'a SetOperand, f: &mut dyn FnMut(Ref<'a>)) {
    match o {
        SetOperand::Path(p) => f(Ref::Path(p)),
        SetOperand::Value(v) => f(Ref::Value(v)),
        SetOperand::IfNotExists { path, default, .. } => {
            f(Ref::Path(path));
            walk_set_operand(default, f);
        }
        SetOperand::ListAppend { first, second, .. } => {
            walk_set_operand(first, f);
            walk_set_operand(second, f);
        }
    }
}

/// Calls `f` on every path of the tree, mutably, left to right.
pub(crate) fn for_each_path_mut(ast: &mut Ast, f: &mut dyn FnMut(&mut Path)) {
    match ast {
        Ast::Condition(c) => condition_paths_mut(c, f),
        Ast::Projection(p) => p.paths.iter_mut().for_each(f),
        Ast::Update(u) => {
            for clause in &mut u.clauses {
                match clause {
                    UpdateClause::Set { actions, .. } => {
                        for a in actions {
                            f(&mut a.path);
                            match &mut a.value {
                                SetValue::Operand(o) => set_operand_paths_mut(o, f),
                                SetValue::Plus(x, y) | SetValue::Minus(x, y) => {
                                    set_operand_paths_mut(x, f);
                                    set_operand_paths_mut(y, f);
                                }
                            }
                        }
                    }
                    UpdateClause::Remove { paths, .. } => paths.iter_mut().for_each(&mut *f),
                    UpdateClause::Add { actions, .. } | UpdateClause::Delete { actions, .. } => {
                        actions.iter_mut().for_each(|a| f(&mut a.path))
                    }
                }
            }
        }
    }
}

fn condition_paths_mut(c: &mut Condition, f: &mut dyn FnMut(&mut Path)) {
    match c {
        Condition::Compare { left, right, .. } => {
            operand_paths_mut(left, f);
            operand_paths_mut(right, f);
        }
        Condition::Between {
            operand, low, high, ..
        } => {
            operand_paths_mut(operand, f);
            operand_paths_mut(low, f);
            operand_paths_mut(high, f);
        }
        Condition::In { operand, list, .. } => {
            operand_paths_mut(operand, f);
            list.iter_mut().for_each(|o| operand_paths_mut(o, f));
        }
        Condition::Function { function, .. } => match function {
            Function::AttributeExists(p) | Function::AttributeNotExists(p) => f(p),
            Function::AttributeType(a, b)
            | Function::BeginsWith(a, b)
            | Function::Contains(a, b) => {
                operand_paths_mut(a, f);
                operand_paths_mut(b, f);
            }
        },
        Condition::And { left, right, .. } | Condition::Or { left, right, .. } => {
            condition_paths_mut(left, f);
            condition_paths_mut(right, f);
        }
        Condition::Not { inner, .. } => condition_paths_mut(inner, f),
    }
}

fn operand_paths_mut(o: &mut Operand, f: &mut dyn FnMut(&mut Path)) {
    match o {
        Operand::Path(p) => f(p),
        Operand::Value(_) => {}
        Operand::Size { arg, .. } => operand_paths_mut(arg, f),
    }
}

fn set_operand_paths_mut(o: &mut SetOperand, f: &mut dyn FnMut(&mut Path)) {
    match o {
        SetOperand::Path(p) => f(p),
        SetOperand::Value(_) => {}
        SetOperand::IfNotExists { path, default, .. } => {
            f(path);
            set_operand_paths_mut(default, f);
        }
        SetOperand::ListAppend { first, second, .. } => {
            set_operand_paths_mut(first, f);
            set_operand_paths_mut(second, f);
        }
    }
}
