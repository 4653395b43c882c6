//! The time the engine reads: the system's, or a manual clock that tests set and move
//! forward, so that what DynamoDB does over time (TTL deleting expired items, streams
//! trimming records after 24 hours, shard iterators expiring after 15 minutes) is
//! tested without sleeping.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch, from the system or from a manual clock. Clones share
/// one manual time: a test keeps a clone and moves the engine's time with it.
#[derive(Debug, Clone, Default)]
pub struct Clock(Option<Arc<AtomicU64>>);

impl Clock {
    /// The system's clock.
    pub fn system() -> Clock {
        Clock(None)
    }

    /// A clock that says `seconds` (since the epoch) until it is set or advanced.
    pub fn manual(seconds: f64) -> Clock {
        Clock(Some(Arc::new(AtomicU64::new(seconds.to_bits()))))
    }

    /// The time now, in seconds since the epoch.
    pub fn now(&self) -> f64 {
        match &self.0 {
            Some(t) => f64::from_bits(t.load(Ordering::SeqCst)),
            None => SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs_f64())
                .unwrap_or(0.0),
        }
    }

    /// True for a manual clock.
    pub fn is_manual(&self) -> bool {
        self.0.is_some()
    }

    /// Sets a manual clock to `seconds`; the system clock cannot be set.
    pub fn set(&self, seconds: f64) {
        if let Some(t) = &self.0 {
            t.store(seconds.to_bits(), Ordering::SeqCst);
        }
    }

    /// Moves a manual clock forward by `seconds`.
    pub fn advance(&self, seconds: f64) {
        if let Some(t) = &self.0 {
            let _ = t.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |bits| {
                Some((f64::from_bits(bits) + seconds).to_bits())
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clocks_share_their_time_and_the_system_clock_moves() {
        let c = Clock::manual(100.0);
        let seen_by_engine = c.clone();
        c.advance(2.5);
        assert_eq!(seen_by_engine.now(), 102.5);
        c.set(7.0);
        assert_eq!(seen_by_engine.now(), 7.0);
        assert!(Clock::system().now() > 1.6e9);
        assert!(!Clock::system().is_manual());
    }
}
