pub mod repo;
pub mod stats;

/// The application's database handle.
pub struct Db {
    inner: repo::Handle,
}

impl Db {
    pub fn handle(&self) -> repo::Handle {
        self.inner.clone()
    }
}
