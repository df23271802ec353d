//! The spreadsheets each user can export to: id and title only, never cells.

use super::handle::Store;
use crate::ids::UserId;
use crate::{CoreResult, time::now_unix};

/// How a spreadsheet became known to us.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SheetOrigin {
    /// The app created it for this user during an export.
    Created,
    /// The user gave its id or URL and Google let them open it.
    Validated,
}

impl SheetOrigin {
    fn as_str(self) -> &'static str {
        match self {
            Self::Created => "created",
            Self::Validated => "validated",
        }
    }
}

/// A spreadsheet remembered for a user.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct KnownSheet {
    /// Google's spreadsheet id.
    pub spreadsheet_id: String,
    /// Its title when last seen.
    pub name: String,
}

impl Store {
    /// Remembers (or renames) a spreadsheet for this user. A sheet first validated and
    /// later created keeps its first origin: either way the user may use it.
    #[tracing::instrument(skip(self))]
    pub async fn remember_sheet(
        &self,
        user_id: &UserId,
        spreadsheet_id: &str,
        name: &str,
        origin: SheetOrigin,
    ) -> CoreResult<()> {
        sqlx::query(
            "INSERT INTO user_sheets (user_id, spreadsheet_id, name, origin, added_at)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (user_id, spreadsheet_id) DO UPDATE SET name = excluded.name",
        )
        .bind(user_id)
        .bind(spreadsheet_id)
        .bind(name)
        .bind(origin.as_str())
        .bind(now_unix())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// This user's spreadsheets, most recently added first.
    #[tracing::instrument(skip(self))]
    pub async fn known_sheets(&self, user_id: &UserId) -> CoreResult<Vec<KnownSheet>> {
        Ok(sqlx::query_as::<_, KnownSheet>(
            "SELECT spreadsheet_id, name FROM user_sheets WHERE user_id = $1
             ORDER BY added_at DESC, spreadsheet_id",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Forgets a spreadsheet for this user (Google says it is gone or no longer theirs).
    #[tracing::instrument(skip(self))]
    pub async fn forget_sheet(&self, user_id: &UserId, spreadsheet_id: &str) -> CoreResult<bool> {
        let done = sqlx::query("DELETE FROM user_sheets WHERE user_id = $1 AND spreadsheet_id = $2")
            .bind(user_id)
            .bind(spreadsheet_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }
}
