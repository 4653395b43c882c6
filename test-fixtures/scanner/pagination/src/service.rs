// No SDK call is written here: builders come from the repository and go to the pager.
use crate::pager;
use crate::repo::OrdersRepo;

pub struct OrderService {
    repo: OrdersRepo,
}

impl OrderService {
    pub async fn history(&self, customer_id: &str) -> Result<Vec<Order>, Error> {
        let query = self.repo.by_customer(customer_id);
        pager::collect_all(query).await
    }

    pub async fn recent(&self, customer_id: &str) -> Result<Vec<Order>, Error> {
        pager::first_page(self.repo.by_customer(customer_id)).await
    }

    pub async fn export(&self) -> Result<Vec<Order>, Error> {
        pager::scan_all(self.repo.everything()).await
    }

    /// The page method called until the cursor runs out.
    pub async fn all_pages(&self, customer_id: &str) -> Result<Vec<Order>, Error> {
        let mut all = Vec::new();
        let mut cursor = None;
        loop {
            let (orders, next) = self.repo.page(customer_id, cursor).await?;
            all.extend(orders);
            match next {
                Some(k) => cursor = Some(k),
                None => break,
            }
        }
        Ok(all)
    }

    /// One history per customer: the read repeats per element.
    pub async fn histories(&self, customers: &[String]) -> Result<usize, Error> {
        let mut n = 0;
        for c in customers {
            let mut cursor = None;
            while let Some(page) = Some(self.repo.page(c, cursor).await?) {
                n += page.0.len();
                cursor = page.1;
                if cursor.is_none() {
                    break;
                }
            }
        }
        Ok(n)
    }

    pub async fn orders(&self, ids: &[String]) -> Result<Vec<Order>, Error> {
        let mut out = Vec::new();
        for id in ids {
            out.push(self.repo.get_order(id).await?);
        }
        Ok(out)
    }
}
