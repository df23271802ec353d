//! Personal API tokens (issue #15): `/api/user/tokens`. Managing tokens needs a signed-in
//! session, so a leaked token cannot mint more tokens or hide its own revocation.

use crate::text::Text;
use leadgen_core::{
    audit::{self, Action},
    ids::{TokenId, UserId},
    invitations::Person,
    personal_tokens::{self, Scope, Scopes},
    store::TokenRecord,
    time::now_unix,
    workspace::Role,
};
use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, payload::Json};
use serde_json::json;

use super::{ApiTags, invitations::PersonInfo, searches::rfc3339};
use crate::{
    auth::{Auth, access},
    error::{ApiError, Fails, status::*},
    state::AppState,
};

/// A token to create.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", example)]
pub struct CreateTokenRequest {
    /// What it is for (shown in the list), 1 to 80 characters.
    #[oai(validator(max_length = 200))]
    pub name: Text,
    /// What it may do: any of `searches:run`, `usage:read`, `exports:write`, `keys:write`,
    /// `webhooks:write`; at least one.
    #[oai(validator(max_items = 16))]
    pub scopes: Vec<String>,
    /// Days until it stops working (1 to 3650); absent or null: never.
    pub expires_in_days: Option<u32>,
}

impl poem_openapi::types::Example for CreateTokenRequest {
    fn example() -> Self {
        Self {
            name: "CRM sync".into(),
            scopes: vec!["searches:run".into(), "usage:read".into()],
            expires_in_days: Some(90),
        }
    }
}

/// A token as its list shows it (never the token itself).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", example)]
pub struct TokenInfo {
    /// Its id (for revoking it).
    pub id: TokenId,
    /// Its name.
    pub name: String,
    /// Its first characters, to recognise it (`lgp_1a2b3c4d`).
    pub prefix: String,
    /// What it may do.
    pub scopes: Vec<Scope>,
    /// When it was created (RFC 3339).
    pub created_at: String,
    /// When it was last used (RFC 3339, to the minute); null if never.
    #[oai(nullable)]
    pub last_used_at: Option<String>,
    /// When it stops working (RFC 3339); null: never.
    #[oai(nullable)]
    pub expires_at: Option<String>,
    /// Whose it is (an admin's list shows every member's tokens in the workspace).
    pub owner: PersonInfo,
}

impl poem_openapi::types::Example for TokenInfo {
    fn example() -> Self {
        Self {
            id: "0192f0c4-7a1e-7c3b-9a51-2f0d5f6b8e21".into(),
            name: "CRM sync".into(),
            prefix: "lgp_1a2b3c4d".into(),
            scopes: vec![Scope::SearchesRun, Scope::UsageRead],
            created_at: "2026-11-25T15:00:00+00:00".into(),
            last_used_at: Some("2026-11-25T16:30:00+00:00".into()),
            expires_at: Some("2027-02-23T15:00:00+00:00".into()),
            owner: PersonInfo {
                user_id: "6f1c2b9e-2f4a-4c1e-9a7b-0d3e5f7a9b1c".into(),
                email: Some("ana@acme.example".into()),
                name: Some("Ana Lima".into()),
            },
        }
    }
}

impl TokenInfo {
    /// A token as its list shows it, `owner` its owner.
    fn new(t: TokenRecord, owner: Person) -> Self {
        Self {
            owner: owner.into(),
            id: t.id,
            name: t.name,
            prefix: t.prefix,
            scopes: Scopes::from_stored(&t.scopes).iter().collect(),
            created_at: rfc3339(t.created_at),
            last_used_at: t.last_used_at.map(rfc3339),
            expires_at: t.expires_at.map(rfc3339),
        }
    }
}

/// A new token: shown this once.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", example)]
pub struct CreatedToken {
    /// The token. Store it now: it is kept only as a hash and cannot be shown again.
    /// Send it as `Authorization: Bearer <token>`.
    pub token: String,
    /// What the list will show of it.
    pub info: TokenInfo,
}

impl poem_openapi::types::Example for CreatedToken {
    fn example() -> Self {
        Self {
            token: "lgp_1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081".into(),
            info: TokenInfo::example(),
        }
    }
}

/// The caller's tokens.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct TokenList {
    /// Newest first.
    pub tokens: Vec<TokenInfo>,
    /// Every scope a token may hold, with what it allows.
    pub available_scopes: Vec<ScopeInfo>,
}

/// A scope a token may hold.
#[derive(Debug, Object)]
pub struct ScopeInfo {
    /// Its name.
    pub name: Scope,
    /// What it allows.
    pub description: String,
}

fn scope_description(scope: Scope) -> &'static str {
    match scope {
        Scope::SearchesRun => "Estimate, run, follow, list and cancel searches",
        Scope::UsageRead => "Read usage, plan and subscription status",
        Scope::ExportsWrite => "Export leads to Google Sheets",
        Scope::KeysWrite => "Save, delete or test the Places API key",
        Scope::WebhooksWrite => "Create, list, test and delete webhook endpoints",
    }
}

/// Revoking a token.
#[derive(Debug, ApiResponse)]
pub enum RevokeResponse {
    /// Revoked: it no longer works.
    #[oai(status = 204)]
    Revoked,
}

/// Whose tokens the caller manages here: their own (`Some`), or, for an admin, every
/// member's in the workspace (`None`).
fn own_only(auth: &Auth<access::TokensOwn>) -> Option<&UserId> {
    (!auth.caller_workspace().role.allows(Role::Admin)).then_some(&auth.0.user.id)
}

/// Personal API token operations.
pub struct TokensApi;

#[OpenApi(tag = "ApiTags::Integrations", prefix_path = "/user/tokens")]
impl TokensApi {
    /// Create a personal API token
    ///
    /// Answers the token once; only its hash is kept. It works as a bearer token wherever
    /// a session does, limited to its scopes, until it expires or is revoked.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/", method = "post", operation_id = "create_token")]
    async fn create_token(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::TokensOwn>,
        body: Json<CreateTokenRequest>,
    ) -> Result<Json<CreatedToken>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN }>> {
        let name = personal_tokens::check_name(&body.name)?;
        let scopes = Scopes::parse(&body.scopes)?;
        let expires_at =
            personal_tokens::check_expiry_days(body.expires_in_days)?.map(|days| now_unix() + i64::from(days) * 86_400);
        let token = personal_tokens::generate();
        let record = state
            .store
            .create_token(&auth.0.user.id, auth.workspace(), &name, &token, &scopes, expires_at)
            .await?;
        audit::record(
            &state.store,
            auth.workspace(),
            Some(&auth.0.user.id),
            Action::TokenCreated,
            &record.name,
            json!({"tokenId": record.id, "scopes": scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>()}),
        )
        .await;
        let me = &auth.0.user;
        let owner = Person {
            user_id: me.id.clone(),
            email: Some(me.email.clone()),
            name: me.name.clone(),
        };
        Ok(Json(CreatedToken {
            token: token.secret,
            info: TokenInfo::new(record, owner),
        }))
    }

    /// Personal API tokens of the workspace
    ///
    /// Name, prefix, scopes, creation, last use, expiry and owner of each; never the
    /// token. A member sees their own tokens made in this workspace; an admin or owner
    /// sees every member's, and may revoke any of them.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/", method = "get", operation_id = "list_tokens")]
    async fn list_tokens(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::TokensOwn>,
    ) -> Result<Json<TokenList>, Fails<{ UNAUTHORIZED | FORBIDDEN }>> {
        let tokens = state.store.list_tokens(auth.workspace(), own_only(&auth)).await?;
        let members = state.store.list_members(auth.workspace()).await?;
        let owner_of = |user: &UserId| {
            let member = members.iter().find(|m| m.user_id == *user);
            Person {
                user_id: user.clone(),
                email: member.map(|m| m.email.clone()),
                name: member.and_then(|m| m.name.clone()),
            }
        };
        Ok(Json(TokenList {
            tokens: tokens
                .into_iter()
                .map(|t| {
                    let owner = owner_of(&t.user_id);
                    TokenInfo::new(t, owner)
                })
                .collect(),
            available_scopes: Scope::ALL
                .into_iter()
                .map(|s| ScopeInfo {
                    name: s,
                    description: scope_description(s).into(),
                })
                .collect(),
        }))
    }

    /// Revoke a personal API token
    ///
    /// It stops working at once. A member revokes their own tokens; an admin or owner any
    /// token made in the workspace.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/:id", method = "delete", operation_id = "revoke_token")]
    async fn revoke_token(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::TokensOwn>,
        id: Path<TokenId>,
    ) -> Result<RevokeResponse, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let revoked = state
            .store
            .revoke_token(auth.workspace(), own_only(&auth), &id.0)
            .await?
            .ok_or_else(|| ApiError::not_found("No token of yours in this workspace has that id."))?;
        audit::record(
            &state.store,
            auth.workspace(),
            Some(&auth.0.user.id),
            Action::TokenRevoked,
            &revoked.name,
            json!({"tokenId": revoked.id, "ownerId": revoked.user_id}),
        )
        .await;
        Ok(RevokeResponse::Revoked)
    }
}
