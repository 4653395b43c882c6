use std::collections::HashMap;

use aws_sdk_dynamodb::Client;

use crate::tracker::HashTracker;

pub struct FileChange {
    pub path: String,
    pub new_hash: Option<String>,
    pub old_hash: Option<String>,
}

/// Brings every changed file's hash tracker up to date.
pub async fn backup(client: &Client, table: &str, changes: Vec<FileChange>) -> usize {
    let mut trackers: HashMap<String, HashTracker> = HashMap::new();
    for change in changes {
        if let Some(hash) = change.new_hash {
            let t = tracker_for(client, table, &mut trackers, hash).await;
            t.file_names.push(change.path.clone());
        }
        if let Some(hash) = change.old_hash {
            let t = tracker_for(client, table, &mut trackers, hash).await;
            t.file_names.retain(|f| *f != change.path);
        }
    }
    trackers.len()
}

/// The tracker of `hash`: read from the table the first time the run meets it.
async fn tracker_for<'a>(
    client: &Client,
    table: &str,
    trackers: &'a mut HashMap<String, HashTracker>,
    hash: String,
) -> &'a mut HashTracker {
    if !trackers.contains_key(&hash) {
        let found = HashTracker::get(client, table, hash.clone()).await;
        let tracker = found.unwrap_or(HashTracker {
            hash: hash.clone(),
            file_names: Vec::new(),
        });
        trackers.insert(hash.clone(), tracker);
    }
    trackers.get_mut(&hash).unwrap()
}

/// Settings by name: a map's `get` per key is no request.
pub fn labels(settings: &HashMap<String, String>, keys: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for key in keys {
        if let Some(v) = settings.get(key) {
            out.push(v.clone());
        }
    }
    out
}
