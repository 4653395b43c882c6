// An in-memory lookup that shares the SDK's method name: calling it per element
// sends nothing.
use std::collections::HashMap;

pub fn get_item<'a>(items: &'a HashMap<String, String>, key: &str) -> Option<&'a String> {
    items.get(key)
}
