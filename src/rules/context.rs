//! What a rule sees while it runs, and how it reports.

use crate::diagnostic::{Diagnostic, Severity};
use crate::model::{Model, RuleLevel};
use crate::source::{FilePath, Span};

use super::{Rule, RuleMeta};

/// Which rules run and at what level: the model's `[rules]` plus CLI `--select`.
#[derive(Debug, Clone, Default)]
pub struct RuleSelection {
    /// When set, only these rule ids run (at least at their default level, or warning).
    pub only: Option<Vec<String>>,
    /// These rule ids never run (`--ignore`), whatever `only` and `[rules]` say.
    pub ignore: Vec<String>,
}

impl RuleSelection {
    /// Whether a rule the pipeline reports itself (`unused-allow`) runs: on unless
    /// `--select` leaves it out or `--ignore` names it.
    pub fn runs_builtin(&self, id: &str) -> bool {
        !self.ignore.iter().any(|i| i == id)
            && self.only.as_ref().is_none_or(|o| o.iter().any(|i| i == id))
    }

    /// The level a rule runs at, or `None` when it is off.
    pub fn severity(&self, meta: &RuleMeta, model: &Model) -> Option<Severity> {
        if self.ignore.iter().any(|id| id == meta.id) {
            return None;
        }
        if let Some(only) = &self.only {
            if !only.iter().any(|id| id == meta.id) {
                return None;
            }
        }
        let configured = model.rules.get(meta.id).and_then(|s| s.level);
        match configured {
            Some(RuleLevel::Off) => None,
            Some(RuleLevel::On(sev)) => Some(sev),
            None => meta
                .category
                .default_severity()
                .or_else(|| self.only.as_ref().map(|_| Severity::Warning)),
        }
    }
}

/// Handed to a rule's hooks: the model, the rule's level and options, and a sink.
pub struct RuleContext<'a> {
    pub model: &'a Model,
    pub meta: &'static RuleMeta,
    pub severity: Severity,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> RuleContext<'a> {
    pub fn new(model: &'a Model, rule: &dyn Rule, severity: Severity) -> Self {
        Self {
            model,
            meta: rule.meta(),
            severity,
            diagnostics: Vec::new(),
        }
    }

    /// The rule's `[rules.<id>]` options table, if any.
    pub fn options(&self) -> Option<&'a toml::Table> {
        self.model.rules.get(self.meta.id).map(|s| &s.options)
    }

    /// An integer option of this rule, or the default.
    pub fn option_u64(&self, key: &str, default: u64) -> u64 {
        self.options()
            .and_then(|o| o.get(key))
            .and_then(|v| v.as_integer())
            .and_then(|v| u64::try_from(v).ok())
            .unwrap_or(default)
    }

    /// Starts a finding of this rule; refine it through the returned reference.
    pub fn report(
        &mut self,
        file: FilePath,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let d = Diagnostic::new(
            self.meta.id,
            self.meta.category,
            self.severity,
            file,
            span,
            message,
        );
        self.diagnostics.push(d);
        let last = self.diagnostics.len() - 1;
        &mut self.diagnostics[last]
    }

    /// The finding reported last, to refine after a helper reported it.
    pub fn last_mut(&mut self) -> Option<&mut Diagnostic> {
        self.diagnostics.last_mut()
    }

    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics
    }
}
