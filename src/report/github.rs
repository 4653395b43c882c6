//! `--format github`: GitHub Actions workflow annotations.

use super::position::Positions;
use super::Unread;
use crate::diagnostic::{Diagnostic, Severity};

/// One `::error file=…,line=…,col=…,title=…::message` line per diagnostic, and one
/// `::error file=…` per source file that could not be read (the run fails on it).
pub fn render(diagnostics: &[Diagnostic], positions: &Positions<'_>, unread: &[Unread]) -> String {
    let mut out = String::new();
    for u in unread {
        out.push_str(&format!(
            "::error file={},title={}::{}\n",
            property(&u.file),
            property("dynalint: file not checked"),
            data(&format!(
                "{}; the run fails on a file it could not check",
                u.message
            )),
        ));
    }
    for d in diagnostics {
        let r = positions.range(&d.location);
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut message = d.message.clone();
        if let Some(c) = &d.cost {
            message.push_str("\ncost: ");
            message.push_str(&c.text);
        }
        if let Some(h) = &d.help {
            message.push_str("\nhelp: ");
            message.push_str(h);
        }
        out.push_str(&format!(
            "::{level} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
            property(&r.file),
            r.line,
            r.column,
            r.end_line,
            r.end_column,
            property(&format!("dynalint {}", d.rule)),
            data(&message),
        ));
    }
    out
}

/// The cost gate's annotation: an error when the monthly estimate rose by more than
/// `--max-cost-increase`, else a notice, with the delta either way.
pub fn cost_gate(g: &super::json::CostGate) -> String {
    let now = g.baseline_monthly + g.increase;
    let (level, verdict) = if g.exceeded {
        ("error", "over")
    } else {
        ("notice", "within")
    };
    let delta = if g.increase >= 0.0 {
        format!("+{}", crate::pricing::dollars(g.increase))
    } else {
        format!("-{}", crate::pricing::dollars(-g.increase))
    };
    let message = format!(
        "the monthly cost estimate of the code's DynamoDB calls changed by {delta}: {} now, {} in the baseline ({verdict} --max-cost-increase {})",
        crate::pricing::dollars(now),
        crate::pricing::dollars(g.baseline_monthly),
        crate::pricing::dollars(g.max_increase)
    );
    format!(
        "::{level} title={}::{}\n",
        property(&format!("dynalint cost {delta} a month")),
        data(&message)
    )
}

/// Escapes a workflow command's message (GitHub's `escapeData`).
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value (GitHub's `escapeProperty`).
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_github_does() {
        assert_eq!(data("a%b\nc"), "a%25b%0Ac");
        assert_eq!(property("a:b,c"), "a%3Ab%2Cc");
    }
}
