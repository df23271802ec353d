//! What a search costs the user's Google key: Google requests counted by SKU and
//! priced from a table (Google's list prices per 1,000 requests, configurable since
//! users' contracts and Google's prices change).

use serde::{Deserialize, Serialize};

/// The SKUs a search uses: Text Search's, cheapest first, then the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sku {
    /// "Text Search Essentials (IDs Only)": the probes' `places.id,nextPageToken` mask.
    IdsOnly,
    /// "Text Search Pro": the locate request (viewport, address).
    Pro,
    /// "Text Search Enterprise": the lead mask (phone, website, rating).
    Enterprise,
    /// "Places Aggregate": one `computeInsights` call of the Places Aggregate API (the
    /// completeness meter's count).
    Aggregate,
    /// "Place Details Enterprise": one place by id with the lead fields (a few new places
    /// of a rectangle, when cheaper than its pages; places Google counts that no page
    /// listed).
    Details,
}

/// US dollars per 1,000 requests of each SKU: settings (`[places.prices]`), declared
/// with the configuration.
pub use crate::config::PriceTable;

impl PriceTable {
    /// Dollars for one request of `sku`.
    pub fn per_request(&self, sku: Sku) -> f64 {
        let per_thousand = match sku {
            Sku::IdsOnly => self.ids_only,
            Sku::Pro => self.pro,
            Sku::Enterprise => self.enterprise,
            Sku::Aggregate => self.aggregate,
            Sku::Details => self.details,
        };
        per_thousand / 1_000.0
    }
}

/// Requests made, by SKU.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Object),
    oai(rename = "SkuRequests", rename_all = "camelCase")
)]
pub struct Requests {
    /// "Text Search Essentials (IDs Only)": free probes.
    pub ids_only: u32,
    /// "Text Search Pro": locating the area.
    pub pro: u32,
    /// "Text Search Enterprise": pages of leads.
    pub enterprise: u32,
    /// "Places Aggregate": the completeness meter's counts. Absent in what older
    /// versions recorded (a checkpoint, a queued job), hence the default.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", oai(default))]
    pub aggregate: u32,
    /// "Place Details Enterprise": places fetched one by one, by id. Absent in what
    /// older versions recorded, hence the default.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", oai(default))]
    pub details: u32,
}

impl Requests {
    /// Counts `n` more requests of `sku`.
    pub fn add(&mut self, sku: Sku, n: u32) {
        match sku {
            Sku::IdsOnly => self.ids_only += n,
            Sku::Pro => self.pro += n,
            Sku::Enterprise => self.enterprise += n,
            Sku::Aggregate => self.aggregate += n,
            Sku::Details => self.details += n,
        }
    }

    /// These requests and `other`'s together.
    pub fn plus(&self, other: &Requests) -> Requests {
        Requests {
            ids_only: self.ids_only + other.ids_only,
            pro: self.pro + other.pro,
            enterprise: self.enterprise + other.enterprise,
            aggregate: self.aggregate + other.aggregate,
            details: self.details + other.details,
        }
    }

    /// Dollars at `prices`.
    pub fn cost_usd(&self, prices: &PriceTable) -> f64 {
        f64::from(self.ids_only) * prices.per_request(Sku::IdsOnly)
            + f64::from(self.pro) * prices.per_request(Sku::Pro)
            + f64::from(self.enterprise) * prices.per_request(Sku::Enterprise)
            + f64::from(self.aggregate) * prices.per_request(Sku::Aggregate)
            + f64::from(self.details) * prices.per_request(Sku::Details)
    }

    /// Requests Google bills (those of a SKU with a price).
    pub fn billable(&self, prices: &PriceTable) -> u32 {
        [
            (self.ids_only, Sku::IdsOnly),
            (self.pro, Sku::Pro),
            (self.enterprise, Sku::Enterprise),
            (self.aggregate, Sku::Aggregate),
            (self.details, Sku::Details),
        ]
        .iter()
        .filter(|(_, sku)| prices.per_request(*sku) > 0.0)
        .map(|(n, _)| n)
        .sum()
    }

    /// The summary `complete` carries.
    pub fn report(&self, prices: &PriceTable) -> SearchCost {
        SearchCost {
            requests: *self,
            billable_requests: self.billable(prices),
            cost_usd: round_cents(self.cost_usd(prices)),
        }
    }
}

/// What a search cost, as `complete` and the estimate report it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Object),
    oai(rename = "CostItem", rename_all = "camelCase")
)]
pub struct SearchCost {
    /// Requests by SKU.
    pub requests: Requests,
    /// Requests Google bills.
    pub billable_requests: u32,
    /// Dollars at the configured list prices, to a tenth of a cent.
    pub cost_usd: f64,
}

pub use crate::money::round_cents;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_requests_by_sku_and_counts_only_billable_ones() {
        let prices = PriceTable::default();
        let mut r = Requests::default();
        r.add(Sku::IdsOnly, 300);
        r.add(Sku::Pro, 1);
        r.add(Sku::Enterprise, 80);
        assert_eq!(r.billable(&prices), 81, "IDs-only probes are free");
        let report = r.report(&prices);
        assert_eq!(report.cost_usd, 2.832, "1 x $0.032 + 80 x $0.035");
        let paid_probes = PriceTable {
            ids_only: 1.0,
            ..prices
        };
        assert_eq!(r.billable(&paid_probes), 381);
        r.add(Sku::Aggregate, 1);
        assert_eq!(r.billable(&prices), 82, "an Aggregate call is billed");
        assert_eq!(r.report(&prices).cost_usd, 2.842, "plus $0.01 for the count");
        let old: Requests = serde_json::from_str(r#"{"idsOnly":1,"pro":0,"enterprise":2}"#).expect("older JSON");
        assert_eq!(old.aggregate, 0, "what older versions recorded still reads");
        assert_eq!(old.details, 0);
        r.add(Sku::Details, 2);
        assert_eq!(r.billable(&prices), 84, "Place Details calls are billed");
        assert_eq!(r.report(&prices).cost_usd, 2.882, "plus 2 x $0.02 for two places by id");
        assert_eq!(r.plus(&r).details, 4);
    }
}
