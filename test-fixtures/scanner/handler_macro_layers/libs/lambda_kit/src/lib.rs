//! The boiler-plate every API Gateway lambda of the project shares.
pub use lambda_http;
pub use log;
pub use tokio;

pub struct SimpleRequest<'a> {
    pub path: &'a str,
}

pub type SimpleResult = Result<String, String>;

#[macro_export]
macro_rules! sync_or_async {
    (sync $blk:block) => {
        $crate::tokio::task::spawn_blocking(move || $blk).await.unwrap()
    };
    (async $blk:block) => {
        $blk.await
    };
}

#[macro_export]
macro_rules! lambda_main_internal {
    ($sync_or_async:ident, $rc:ident $(,$fn_name:ident = $sdk:ty)*) => {
        async fn http_function_handler(
            event: $crate::lambda_http::Request,
        ) -> Result<$crate::lambda_http::Response<String>, $crate::lambda_http::Error> {
            let req = $crate::SimpleRequest { path: event.uri().path() };
            let body = $crate::sync_or_async!($sync_or_async { $rc(req) })?;
            Ok($crate::lambda_http::Response::new(body))
        }

        #[$crate::tokio::main]
        async fn main() -> Result<(), $crate::lambda_http::Error> {
            $crate::lambda_http::run($crate::lambda_http::service_fn(http_function_handler)).await
        }
    };
}

/// `lambda_main!(async handler, dynamo = aws_sdk_dynamodb::Client);`
#[macro_export]
macro_rules! lambda_main {
    ($sync_or_async:ident $rc:ident $(,$fn_name:ident = $sdk:ty)*) => {
        $crate::lambda_main_internal!($sync_or_async, $rc $(, $fn_name = $sdk)*);
    };
    ($rc:ident $(,$fn_name:ident = $sdk:ty)*) => {
        $crate::lambda_main_internal!(sync, $rc $(, $fn_name = $sdk)*);
    };
}

/// A one-off job's `main`: logs, runs the job once, exits.
#[macro_export]
macro_rules! batch_main {
    ($sync_or_async:ident $job:ident) => {
        #[$crate::tokio::main]
        async fn main() {
            $crate::log::info!("starting");
            $job().await;
        }
    };
}
