// A table wrapper whose methods are named like the API (`scan`), continued by extension
// traits in other files; and an extension trait on the SDK's own client, whose
// `self.get_item()` is the client's.
pub mod table;
pub mod todos;
pub mod users;
