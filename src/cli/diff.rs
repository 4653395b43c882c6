//! `check --fix --diff`: the fixes as a unified diff that `git apply` and `patch -p1`
//! apply: `a/` and `b/` prefixes, and a minimal line diff (`similar`'s Myers) cut into
//! hunks with three lines of context, so two fixes far apart are two small hunks.

const CONTEXT: usize = 3;

/// The unified diff turning `before` into `after` for the file shown as `path`
/// (relative, `/`-separated), or "" when they are equal.
pub(super) fn unified(path: &str, before: &str, after: &str) -> String {
    if before == after {
        return String::new();
    }
    let diff = similar::TextDiff::from_lines(before, after);
    diff.unified_diff()
        .context_radius(CONTEXT)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
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
            "--- a/x.rs\n+++ b/x.rs\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n"
        );
        assert_eq!(unified("x.rs", before, before), "");
    }

    #[test]
    fn changes_far_apart_are_hunks_of_their_own() {
        let before: String = (1..=40).map(|i| format!("line {i}\n")).collect();
        let after = before
            .replace("line 5\n", "line five\n")
            .replace("line 35\n", "line thirty-five\n");
        let d = unified("src/x.rs", &before, &after);
        assert_eq!(d.matches("\n@@ ").count(), 2, "{d}");
        assert!(d.contains("@@ -2,7 +2,7 @@\n"), "{d}");
        assert!(d.contains("@@ -32,7 +32,7 @@\n"), "{d}");
        assert_eq!(d.lines().count(), 2 + 2 * 9, "{d}");
    }

    #[test]
    fn a_removed_line_and_a_missing_final_newline() {
        assert_eq!(
            unified("x.rs", "a\nb\nc", "a\nc"),
            "--- a/x.rs\n+++ b/x.rs\n@@ -1,3 +1,2 @@\n a\n-b\n c\n\\ No newline at end of file\n"
        );
        assert_eq!(
            unified("x.rs", "x\n", ""),
            "--- a/x.rs\n+++ b/x.rs\n@@ -1 +0,0 @@\n-x\n"
        );
    }
}
