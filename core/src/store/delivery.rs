//! Each user's choice of automatic delivery, and how each search's delivery went (its
//! history entry). Spreadsheet ids and titles only; nothing of the leads.

use super::handle::Store;
use crate::{
    CoreResult,
    delivery::{DeliveryKind, DeliveryPreference, DeliveryStatus},
    ids::{SearchId, WorkspaceId},
    time::now_unix,
};

impl Store {
    /// The user's automatic delivery, if they chose one.
    #[tracing::instrument(skip(self))]
    pub async fn delivery_preference(&self, workspace_id: &WorkspaceId) -> CoreResult<Option<DeliveryPreference>> {
        let row: Option<(String, Option<String>, Option<String>)> = sqlx::query_as(
            "SELECT kind, spreadsheet_id, spreadsheet_name FROM workspace_delivery_preferences WHERE workspace_id = $1",
        )
        .bind(workspace_id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.and_then(|(kind, spreadsheet_id, spreadsheet_name)| {
            Some(DeliveryPreference {
                kind: crate::words::parse(&kind)?,
                spreadsheet_id,
                spreadsheet_name,
            })
        }))
    }

    /// Sets the user's automatic delivery (`None`: none).
    #[tracing::instrument(skip(self))]
    pub async fn set_delivery_preference(
        &self,
        workspace_id: &WorkspaceId,
        preference: Option<&DeliveryPreference>,
    ) -> CoreResult<()> {
        match preference {
            None => {
                sqlx::query("DELETE FROM workspace_delivery_preferences WHERE workspace_id = $1")
                    .bind(workspace_id)
                    .execute(&self.pool)
                    .await?;
            }
            Some(p) => {
                sqlx::query(
                    "INSERT INTO workspace_delivery_preferences (workspace_id, kind, spreadsheet_id, spreadsheet_name, updated_at)
                     VALUES ($1, $2, $3, $4, $5)
                     ON CONFLICT (workspace_id) DO UPDATE SET kind = excluded.kind,
                       spreadsheet_id = excluded.spreadsheet_id, spreadsheet_name = excluded.spreadsheet_name,
                       updated_at = excluded.updated_at",
                )
                .bind(workspace_id)
                .bind(p.kind.as_str())
                .bind(&p.spreadsheet_id)
                .bind(&p.spreadsheet_name)
                .bind(now_unix())
                .execute(&self.pool)
                .await?;
            }
        }
        Ok(())
    }

    /// Records how the search's automatic delivery stands (`detail`: why it failed, or
    /// where it went).
    #[tracing::instrument(skip(self))]
    pub async fn record_search_delivery(
        &self,
        workspace_id: &WorkspaceId,
        search_id: &SearchId,
        kind: DeliveryKind,
        status: DeliveryStatus,
        detail: Option<&str>,
    ) -> CoreResult<()> {
        sqlx::query(
            "UPDATE searches SET delivery_kind = $3, delivery_status = $4, delivery_detail = $5
             WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2",
        )
        .bind(search_id)
        .bind(workspace_id)
        .bind(kind.as_str())
        .bind(status.as_str())
        .bind(detail)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
