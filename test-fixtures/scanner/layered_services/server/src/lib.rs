use proto::catalog::v1::catalog_service_server::CatalogService;
use proto::catalog::v1::{ListProductsRequest, ListProductsResponse};
use tonic::{Request, Response, Status};
use usecase::CatalogQueries;

pub struct Service<Q: CatalogQueries> {
    queries: Q,
}

impl<Q: CatalogQueries> Service<Q> {
    pub fn new(queries: Q) -> Self {
        Self { queries }
    }
}

#[tonic::async_trait]
impl<Q> CatalogService for Service<Q>
where
    Q: CatalogQueries + Send + Sync + 'static,
{
    async fn list_products(
        &self,
        _: Request<ListProductsRequest>,
    ) -> Result<Response<ListProductsResponse>, Status> {
        let products = self
            .queries
            .list_products()
            .await
            .map_err(|e| Status::unknown(e.to_string()))?;
        Ok(Response::new(ListProductsResponse {
            names: products.into_iter().map(|p| p.name).collect(),
        }))
    }
}
