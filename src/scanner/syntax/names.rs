//! Interned names for what every file's index keeps until the link (the call graph,
//! pending references, argument sites, constants, `use`s): the same function, call
//! and type names (`new`, `get`, `from`, `clone`) recur in every crate of a large tree. One shared copy of each name, held by a
//! reference-counted pointer (16 bytes), replaces an owned `String` per occurrence.
//! The same goes for paths: module paths and the paths references write.

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// The sets' hasher: names are short identifiers, looked up once per occurrence in
/// every file of a tree, where SipHash cost more than the lookups. A name is no
/// secret, and a hash flood through crafted identifiers would only slow the one run
/// that reads them; foldhash still seeds each process's hasher at random.
type Hasher = foldhash::fast::RandomState;

/// A name in the call graph, shared with every other occurrence of it.
pub type Name = Arc<str>;

/// The one shared copy of `s`. Names are never freed: a process sees a bounded
/// vocabulary of identifiers (the LSP's grows only by names typed).
pub fn intern(s: &str) -> Name {
    thread_local! {
        /// This thread's names: every scanning thread looks up the same few thousand
        /// names over and over, and finds them here without taking the shared lock.
        /// It holds only copies of the shared set's pointers, so any two threads
        /// still give the same copy of a name.
        static SEEN: RefCell<HashSet<Name, Hasher>> = RefCell::default();
    }
    SEEN.with(|seen| {
        if let Some(n) = seen.borrow().get(s) {
            return Arc::clone(n);
        }
        let n = intern_shared(s);
        seen.borrow_mut().insert(Arc::clone(&n));
        n
    })
}

/// The shared set behind [`intern`]'s per-thread ones.
fn intern_shared(s: &str) -> Name {
    static NAMES: OnceLock<Mutex<HashSet<Name, Hasher>>> = OnceLock::new();
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

/// A path of names (a module path, the segments a reference writes), shared like a
/// name: a tree of many crates repeats the same paths in every one of them.
pub type Path = Arc<[Name]>;

/// The one shared copy of the path `segments`.
pub fn intern_path<S: AsRef<str>>(segments: &[S]) -> Path {
    static PATHS: OnceLock<Mutex<HashSet<Path, Hasher>>> = OnceLock::new();
    let names: Vec<Name> = segments.iter().map(|s| intern(s.as_ref())).collect();
    let mut paths = PATHS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(p) = paths.get(names.as_slice()) {
        return Arc::clone(p);
    }
    let p: Path = Arc::from(names);
    paths.insert(Arc::clone(&p));
    p
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

    #[test]
    fn a_path_is_stored_once() {
        let a = intern_path(&["db", "names"]);
        let b = intern_path(&[String::from("db"), String::from("names")]);
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(a.len(), 2);
        assert_eq!(&*a[1], "names");
        assert!(!Arc::ptr_eq(&a, &intern_path(&["db"])));
    }
}
