pub mod blogs;
pub mod users;
