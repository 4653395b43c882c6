//! Interned names for the call graph: the same function and call names (`new`,
//! `get`, `from`, `clone`) recur in every crate of a large tree, and every file's
//! graph stays alive until the link. One shared copy of each name, held by a
//! reference-counted pointer (16 bytes), replaces an owned `String` per occurrence.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// A name in the call graph, shared with every other occurrence of it.
pub type Name = Arc<str>;

/// The one shared copy of `s`. Names are never freed: a process sees a bounded
/// vocabulary of identifiers (the LSP's grows only by names typed).
pub fn intern(s: &str) -> Name {
    static NAMES: OnceLock<Mutex<HashSet<Name>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(n) = names.get(s) {
        return Arc::clone(n);
    }
    let n: Name = Arc::from(s);
    names.insert(Arc::clone(&n));
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_stored_once() {
        let a = intern("list_orders");
        let b = intern(&String::from("list_orders"));
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(&*a, "list_orders");
        assert!(!Arc::ptr_eq(&a, &intern("list_order")));
    }
}
