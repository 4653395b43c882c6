//! Stopping an analysis early: the caller (the editor's host, when a newer edit
//! arrives) raises a flag the analysis reads between its phases.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::ProjectError;

/// A cancellation flag shared between the caller and an analysis, on any thread.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not raised.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the analysis holding a clone of this flag to stop at its next phase.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `Err(Cancelled)` once cancelled: what an analysis checks between phases.
    pub fn check(&self) -> Result<(), ProjectError> {
        if self.is_cancelled() {
            Err(ProjectError::Cancelled)
        } else {
            Ok(())
        }
    }
}
