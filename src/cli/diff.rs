//! `check --fix --diff`: a fixed file as a unified diff (`patch -p0` applies it).
//!
//! One hunk per file, from the first changed line to the last, with three lines of
//! context: fixes are few and local, and a single hunk is always a correct diff.

const CONTEXT: usize = 3;

/// The unified diff turning `before` into `after`, or "" when they are equal.
pub(super) fn unified(path: &str, before: &str, after: &str) -> String {
    if before == after {
        return String::new();
    }
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let start = prefix.saturating_sub(CONTEXT);
    let old_end = (old.len() - suffix + CONTEXT).min(old.len());
    let new_end = (new.len() - suffix + CONTEXT).min(new.len());
    let mut out = format!("--- {path}\n+++ {path}\n");
    out.push_str(&format!(
        "@@ -{} +{} @@\n",
        range(start, old_end - start),
        range(start, new_end - start)
    ));
    let mut line = |mark: char, text: &str| {
        out.push(mark);
        out.push_str(text);
        if !text.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    };
    for l in &old[start..prefix] {
        line(' ', l);
    }
    for l in &old[prefix..old.len() - suffix] {
        line('-', l);
    }
    for l in &new[prefix..new.len() - suffix] {
        line('+', l);
    }
    for l in &old[old.len() - suffix..old_end] {
        line(' ', l);
    }
    out
}

/// A hunk range: `start,count` with 1-based start (`start` alone when count is 1;
/// the line before when count is 0, as diff does).
fn range(start: usize, count: usize) -> String {
    match count {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        n => format!("{},{n}", start + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_hunk_with_context() {
        let before = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let after = "a\nb\nc\nd\nE\nf\ng\nh\n";
        assert_eq!(
            unified("x.rs", before, after),
            "--- x.rs\n+++ x.rs\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n"
        );
        assert_eq!(unified("x.rs", before, before), "");
    }

    #[test]
    fn a_removed_line_and_a_missing_final_newline() {
        assert_eq!(
            unified("x.rs", "a\nb\nc", "a\nc"),
            "--- x.rs\n+++ x.rs\n@@ -1,3 +1,2 @@\n a\n-b\n c\n\\ No newline at end of file\n"
        );
        assert_eq!(
            unified("x.rs", "x\n", ""),
            "--- x.rs\n+++ x.rs\n@@ -1 +0,0 @@\n-x\n"
        );
    }
}
