//! Spend for agencies (issue #28 item 7): the client labels a workspace's searches used
//! (for a picker), and a month's searches, leads and Google cost by member and by client.
//! Read from the searches' history rows: metadata only.

use leadgen_core::{
    ids::UserId,
    spend::{self, SpendTotals},
};
use poem::web::Data;
use poem_openapi::{Object, OpenApi, param::Query, payload::Json};

use super::ApiTags;
use crate::{
    auth::{Auth, access},
    error::{Fails, status::*},
    state::AppState,
};

/// The client labels used in the workspace.
#[derive(Debug, Object)]
pub struct ClientList {
    /// One per client (labels differing only in case are one; the first typed names
    /// it), by name.
    pub clients: Vec<String>,
}

/// Searches, leads and cost.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SpendFigures {
    /// Searches started (a search given back because it failed before Google answered
    /// is not counted).
    pub searches: i64,
    /// Leads delivered.
    pub leads: i64,
    /// US dollars spent on the workspace's Google key, at list prices (finished
    /// searches, a running one once it ends; and lookups outside searches).
    pub cost_usd: f64,
    /// Of `costUsd`, what lookups outside searches cost: places located for the map
    /// (`locate_area`) and searches estimated (`estimate_search`: its locate request
    /// and its completeness count). Google bills them like a search's requests.
    pub lookups_usd: f64,
}

impl From<SpendTotals> for SpendFigures {
    fn from(t: SpendTotals) -> Self {
        Self {
            searches: t.searches,
            leads: t.leads,
            cost_usd: leadgen_core::money::round_cents(t.cost_usd),
            lookups_usd: leadgen_core::money::round_cents(t.lookups_usd),
        }
    }
}

/// One member's month.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct MemberSpendItem {
    /// Their user id.
    pub user_id: UserId,
    /// Their sign-in email.
    pub email: String,
    /// Their searches' figures.
    #[oai(flatten)]
    pub figures: SpendFigures,
}

/// One client's month.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ClientSpendItem {
    /// The client label; null for searches run for no client.
    #[oai(nullable)]
    pub client: Option<String>,
    /// Its searches' figures.
    #[oai(flatten)]
    pub figures: SpendFigures,
}

/// A month's spend by member and by client. Lookups outside searches are their member's,
/// and an estimate its client's.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct UsageBreakdown {
    /// The month (`YYYY-MM`, UTC).
    pub month: String,
    /// The whole workspace's month.
    pub total: SpendFigures,
    /// By member who started the searches, most expensive first.
    pub members: Vec<MemberSpendItem>,
    /// By client, most expensive first; `client: null` is searches run for no client.
    pub clients: Vec<ClientSpendItem>,
    /// The workspace's monthly spend cap on its Google key, US dollars (null: none).
    #[oai(nullable)]
    pub monthly_spend_cap_usd: Option<f64>,
}

/// Spend operations.
pub struct SpendApi;

#[OpenApi(tag = "ApiTags::Leads", prefix_path = "/leads")]
impl SpendApi {
    /// The client labels used in this workspace
    ///
    /// Every client a search of the workspace was run for, for a picker. Pass one as a
    /// search's `client`, or as `client` to `list_searches`.
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/clients", method = "get", operation_id = "list_clients")]
    async fn list_clients(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
    ) -> Result<Json<ClientList>, Fails<{ UNAUTHORIZED | FORBIDDEN }>> {
        Ok(Json(ClientList {
            clients: state.store.workspace_clients(auth.workspace()).await?,
        }))
    }

    /// Usage by member and by client
    ///
    /// A month's searches, leads and Google cost (US dollars, list prices) per member who
    /// started them and per client they were run for; this month unless `month` says
    /// another.
    ///
    /// API tokens: need the `usage:read` scope.
    #[oai(path = "/usage/breakdown", method = "get", operation_id = "get_usage_breakdown")]
    async fn get_usage_breakdown(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::UsageRead>,
        /// A calendar month, `YYYY-MM` (UTC); default: this month.
        #[oai(validator(max_length = 20))]
        month: Query<Option<String>>,
    ) -> Result<Json<UsageBreakdown>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN }>> {
        let month = match month.0 {
            Some(month) => spend::parse_month(&month)?,
            None => leadgen_core::usage::periods(chrono::Utc::now()).month,
        };
        let workspace = auth.workspace();
        let breakdown = state.store.spend_breakdown(workspace, &month).await?;
        let total = breakdown.clients.iter().fold(
            SpendTotals {
                searches: 0,
                leads: 0,
                cost_usd: 0.0,
                lookups_usd: 0.0,
            },
            |sum, c| SpendTotals {
                searches: sum.searches + c.totals.searches,
                leads: sum.leads + c.totals.leads,
                cost_usd: sum.cost_usd + c.totals.cost_usd,
                lookups_usd: sum.lookups_usd + c.totals.lookups_usd,
            },
        );
        let cap = state.store.spend_cap_cents(workspace).await?;
        Ok(Json(UsageBreakdown {
            month,
            total: total.into(),
            members: breakdown
                .members
                .into_iter()
                .map(|m| MemberSpendItem {
                    user_id: m.user_id,
                    email: m.email,
                    figures: m.totals.into(),
                })
                .collect(),
            clients: breakdown
                .clients
                .into_iter()
                .map(|c| ClientSpendItem {
                    client: c.client,
                    figures: c.totals.into(),
                })
                .collect(),
            monthly_spend_cap_usd: cap.map(spend::cents_to_usd),
        }))
    }
}
