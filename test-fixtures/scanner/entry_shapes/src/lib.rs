// A service crate with several Lambda binaries, a GraphQL schema and a store layer.
pub mod graphql;
pub mod links;
pub mod repo;
pub mod resolvers;
pub mod store;

/// Each binary's `main`, written once.
#[macro_export]
macro_rules! lambda_main {
    ($handler:ident) => {
        #[tokio::main]
        async fn main() -> Result<(), lambda_runtime::Error> {
            lambda_runtime::run(lambda_runtime::service_fn($handler)).await
        }
    };
}
