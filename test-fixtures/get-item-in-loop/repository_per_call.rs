// A repository built where it is used, whose method is nothing but the GetItem it
// sends (`ProductRepo::new(&self.client).find_product(id)`): its call is the request.
// A loop three callers above the function that calls it repeats the read, as it would
// were the chain written in that function.
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::get_item::{GetItemError, GetItemOutput};
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct ProductRepo<'a> {
    client: &'a Client,
}

impl<'a> ProductRepo<'a> {
    pub fn new(client: &'a Client) -> Self {
        Self { client }
    }

    async fn find_product(
        &self,
        id: AttributeValue,
    ) -> Result<GetItemOutput, SdkError<GetItemError>> {
        self.client
            .get_item()
            //~^ get-item-in-loop
            .table_name("Products")
            .key("productId", id)
            .send()
            .await
    }
}

pub struct Catalog {
    client: Client,
}

impl Catalog {
    async fn product(&self, id: &str) -> Result<Product, Error> {
        let out = ProductRepo::new(&self.client)
            .find_product(AttributeValue::S(id.to_string()))
            .await?;
        out.item().map(to_product).ok_or(Error::NotFound)
    }

    async fn price_of(&self, id: &str) -> Result<f64, Error> {
        Ok(self.product(id).await?.price)
    }

    async fn line_total(&self, line: &Line) -> Result<f64, Error> {
        Ok(self.price_of(&line.product_id).await? * line.quantity as f64)
    }

    pub async fn basket_total(&self, lines: &[Line]) -> Result<f64, Error> {
        let mut total = 0.0;
        for line in lines {
            total += self.line_total(line).await?;
        }
        Ok(total)
    }
}

// ---- must not be flagged ----

/// A function that does more than send the read is not its callers' request: the loop
/// four callers above it is further than dynalint looks.
pub async fn stock_of(client: &Client, id: &str) -> Result<i64, Error> {
    let out = client
        .get_item()
        .table_name("Products")
        .key("productId", AttributeValue::S(id.to_string()))
        .send()
        .await?;
    let item = out.item().ok_or(Error::NotFound)?;
    Ok(item.get("stock").and_then(|v| v.as_n().ok()).and_then(|n| n.parse().ok()).unwrap_or(0))
}

pub async fn in_stock(client: &Client, id: &str) -> Result<bool, Error> {
    Ok(stock_of(client, id).await? > 0)
}

pub async fn line_available(client: &Client, line: &Line) -> Result<bool, Error> {
    Ok(in_stock(client, &line.product_id).await?)
}

pub async fn check_line(client: &Client, line: &Line) -> Result<bool, Error> {
    line_available(client, line).await
}

pub async fn basket_available(client: &Client, lines: &[Line]) -> Result<bool, Error> {
    for line in lines {
        if !check_line(client, line).await? {
            return Ok(false);
        }
    }
    Ok(true)
}
