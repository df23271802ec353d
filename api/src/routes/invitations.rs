//! Invitations (issue #28 item 3): an admin invites an email with a role
//! (`/api/workspaces/{id}/invitations`); the invited person opens the link and accepts
//! (`/api/invitations/{token}`). The token is shown once, in the answer's `link` (and the
//! mail, when SMTP is configured); the store keeps its SHA-256 only.

use leadgen_core::{
    audit::{self, Action},
    ids::{UserId, WorkspaceId},
    invitations::{self, Invitation, NewInvitation, Person},
    store::Acceptance,
    time::now_unix,
    workspace::Role,
};
use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, payload::Json};
use serde_json::json;

use super::{ApiTags, searches::rfc3339, workspaces::WorkspaceInfo};
use crate::{
    auth::{Auth, access, workspace::NO_SUCH_WORKSPACE},
    error::{ApiError, Fails, status::*},
    state::AppState,
    text::Text,
};

/// A person, as an invitation or the audit log names them.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct PersonInfo {
    /// Their user id.
    pub user_id: UserId,
    /// Their sign-in email; null when their account is gone.
    #[oai(nullable)]
    pub email: Option<String>,
    /// Their name, when their identity provider gave one.
    #[oai(nullable)]
    pub name: Option<String>,
}

impl From<Person> for PersonInfo {
    fn from(p: Person) -> Self {
        Self {
            user_id: p.user_id,
            email: p.email,
            name: p.name,
        }
    }
}

/// Someone to invite.
#[derive(Debug, Object)]
pub struct CreateInvitationRequest {
    /// Their email: accepting needs a sign-in whose verified email is this one (case
    /// does not matter). At most 254 characters.
    #[oai(validator(max_length = 400))]
    pub email: Text,
    /// The role they join with: `member` or `admin`; `owner` only when you are one.
    pub role: Role,
}

/// A pending invitation (never its token).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct InvitationInfo {
    /// Its id (for `revoke_invitation`).
    pub id: String,
    /// The invited address.
    pub email: String,
    /// The role it gives.
    pub role: Role,
    /// Who invited.
    pub invited_by: PersonInfo,
    /// When (RFC 3339).
    pub created_at: String,
    /// When its link stops working (RFC 3339): 7 days after it was made.
    pub expires_at: String,
}

impl From<Invitation> for InvitationInfo {
    fn from(i: Invitation) -> Self {
        Self {
            id: i.id,
            email: i.email,
            role: i.role,
            invited_by: i.invited_by.into(),
            created_at: rfc3339(i.created_at),
            expires_at: rfc3339(i.expires_at),
        }
    }
}

/// A new invitation, with its link: shown this once.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CreatedInvitation {
    /// Its id (for `revoke_invitation`).
    pub id: String,
    /// The invited address.
    pub email: String,
    /// The role it gives.
    pub role: Role,
    /// Who invited (you).
    pub invited_by: PersonInfo,
    /// When (RFC 3339).
    pub created_at: String,
    /// When its link stops working (RFC 3339): 7 days from now.
    pub expires_at: String,
    /// The one-time link to send them (`<public URL>/invitations/<token>`). It cannot be
    /// shown again: only the token's hash is kept.
    pub link: String,
    /// Whether the link was also mailed to them (SMTP configured and the server took the
    /// message). False is no failure: send them the link yourself.
    pub mailed: bool,
}

/// The pending invitations of a workspace.
#[derive(Debug, Object)]
pub struct InvitationList {
    /// Newest first; expired ones are left out.
    pub invitations: Vec<InvitationInfo>,
}

/// An invitation as its link's landing page shows it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct InvitationPreview {
    /// The workspace it joins.
    pub workspace_name: String,
    /// The role it gives.
    pub role: Role,
    /// Who invited.
    pub invited_by: PersonInfo,
    /// The invited address: accepting needs a sign-in whose verified email is this one.
    pub email: String,
    /// When its link stops working (RFC 3339).
    pub expires_at: String,
}

/// What `create_invitation` answers.
#[derive(Debug, ApiResponse)]
pub enum CreateInvitationResponse {
    /// Invited: the link, shown once.
    #[oai(status = 201)]
    Created(Json<CreatedInvitation>),
}

/// What `revoke_invitation` answers.
#[derive(Debug, ApiResponse)]
pub enum RevokeInvitationResponse {
    /// Revoked: its link no longer works.
    #[oai(status = 204)]
    Revoked,
}

fn no_such_invitation() -> ApiError {
    ApiError::not_found("This invitation does not exist, was already used, or was revoked.")
}

fn expired() -> ApiError {
    ApiError::gone(
        "invitation_expired",
        "This invitation has expired. Ask whoever invited you for a new one.",
    )
}

/// The invitation a link's token names, if it has not expired.
async fn by_token(state: &AppState, token: &str) -> Result<Invitation, ApiError> {
    let invitation = state
        .store
        .invitation_by_token(&invitations::hash_token(token))
        .await?
        .ok_or_else(no_such_invitation)?;
    if invitation.is_expired(now_unix()) {
        return Err(expired());
    }
    Ok(invitation)
}

/// Mails the link; whether the server took it. A failure is logged (without the link,
/// which is a credential) and said in the answer, not raised: the invitation stands.
async fn mail_link(state: &AppState, invitation: &Invitation, link: &str) -> bool {
    let Some(mailer) = &state.mailer else {
        return false;
    };
    let inviter = invitation
        .invited_by
        .name
        .clone()
        .or_else(|| invitation.invited_by.email.clone())
        .unwrap_or_else(|| "Someone".into());
    let workspace = &invitation.workspace_name;
    let subject = format!("{inviter} invited you to join {workspace} on Leadgen");
    let text = format!(
        "{inviter} invited you to join the workspace \"{workspace}\" on Leadgen as {role}.\n\n\
         Open this link to accept (sign in as {email}):\n{link}\n\n\
         It works once, until {expires}. If you did not expect it, ignore this message.\n",
        role = invitation.role.as_str(),
        email = invitation.email,
        expires = rfc3339(invitation.expires_at),
    );
    match mailer.send(&invitation.email, &subject, &text, None).await {
        Ok(()) => true,
        Err(e) => {
            tracing::warn!(error = %e, invitation = %invitation.id, "could not mail an invitation");
            false
        }
    }
}

/// A workspace's invitations.
pub struct InvitationsApi;

#[OpenApi(tag = "ApiTags::Workspaces")]
impl InvitationsApi {
    /// Invite someone
    ///
    /// Answers a one-time link, valid 7 days, shown this once; when the server has SMTP
    /// configured it is also mailed to them (`mailed`). Inviting an address that already
    /// has a pending invitation here replaces it (the earlier link stops working).
    /// Someone who is already a member is refused (409 `already_member`). Only an owner
    /// invites an owner. A personal workspace takes no invitations (403
    /// `personal_workspace`).
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(
        path = "/workspaces/:id/invitations",
        method = "post",
        operation_id = "create_invitation"
    )]
    async fn create_invitation(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WorkspaceAdmin>,
        // The extractor reads and checks it (`auth`); named here for the contract.
        #[oai(name = "id")] _id: Path<WorkspaceId>,
        body: Json<CreateInvitationRequest>,
    ) -> Result<CreateInvitationResponse, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND | CONFLICT }>>
    {
        let caller = auth.caller_workspace();
        // A personal workspace is its person's alone (workspace.rs): people are invited to
        // a workspace made to be shared.
        let personal = state
            .store
            .workspace_for(&caller.id, &auth.0.user.id)
            .await?
            .is_some_and(|w| w.personal);
        if personal {
            return Err(ApiError::forbidden(
                "personal_workspace",
                "Your personal workspace is yours alone: create a workspace to invite people to it.",
            )
            .into());
        }
        if body.role == Role::Owner && caller.role != Role::Owner {
            return Err(ApiError::forbidden("role_required", "Only an owner may invite an owner.").into());
        }
        let (email, key) = invitations::parse_email(&body.email)?;
        if state.store.has_member_with_email(&caller.id, &key).await? {
            return Err(ApiError::conflict(
                "already_member",
                format!("{email} is already a member of this workspace."),
            )
            .into());
        }
        let token = invitations::generate_token();
        let invitation = state
            .store
            .create_invitation(&NewInvitation {
                workspace: &caller.id,
                invited_by: &auth.0.user.id,
                email: &email,
                email_key: &key,
                role: body.role,
                token_hash: &token.hash,
                expires_at: now_unix() + invitations::VALID_FOR_SECS,
            })
            .await?;
        let link = state
            .config
            .public_path(&format!("/invitations/{}", token.secret))
            .to_string();
        let mailed = mail_link(&state, &invitation, &link).await;
        audit::record(
            &state.store,
            &caller.id,
            Some(&auth.0.user.id),
            Action::InvitationCreated,
            &invitation.email,
            json!({"role": invitation.role.as_str(), "mailed": mailed}),
        )
        .await;
        let info = InvitationInfo::from(invitation);
        Ok(CreateInvitationResponse::Created(Json(CreatedInvitation {
            id: info.id,
            email: info.email,
            role: info.role,
            invited_by: info.invited_by,
            created_at: info.created_at,
            expires_at: info.expires_at,
            link,
            mailed,
        })))
    }

    /// Pending invitations
    ///
    /// The invitations of the workspace whose links still work (never their tokens).
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(
        path = "/workspaces/:id/invitations",
        method = "get",
        operation_id = "list_invitations"
    )]
    async fn list_invitations(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WorkspaceAdmin>,
        // The extractor reads and checks it (`auth`); named here for the contract.
        #[oai(name = "id")] _id: Path<WorkspaceId>,
    ) -> Result<Json<InvitationList>, Fails<{ UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let invitations = state.store.list_invitations(auth.workspace()).await?;
        Ok(Json(InvitationList {
            invitations: invitations.into_iter().map(InvitationInfo::from).collect(),
        }))
    }

    /// Revoke an invitation
    ///
    /// Its link stops working at once.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(
        path = "/workspaces/:id/invitations/:invitation_id",
        method = "delete",
        operation_id = "revoke_invitation"
    )]
    async fn revoke_invitation(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WorkspaceAdmin>,
        // The extractor reads and checks it (`auth`); named here for the contract.
        #[oai(name = "id")] _id: Path<WorkspaceId>,
        // Plain text, which always parses: an id of no invitation is 404 (a refusal to
        // parse would be named by position, `payload_errors`, as the workspace's `id`).
        invitation_id: Path<String>,
    ) -> Result<RevokeInvitationResponse, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let email = state
            .store
            .revoke_invitation(auth.workspace(), &invitation_id.0)
            .await?
            .ok_or_else(|| ApiError::not_found("No pending invitation of this workspace has that id."))?;
        audit::record(
            &state.store,
            auth.workspace(),
            Some(&auth.0.user.id),
            Action::InvitationRevoked,
            email,
            json!({}),
        )
        .await;
        Ok(RevokeInvitationResponse::Revoked)
    }

    /// An invitation, by its link
    ///
    /// What the link's landing page shows: the workspace, the role, who invited and which
    /// address may accept. 404 when the link is unknown, used or revoked; 410 when it
    /// expired.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/invitations/:token", method = "get", operation_id = "get_invitation")]
    async fn get_invitation(
        &self,
        state: Data<&AppState>,
        _auth: Auth<access::Session>,
        // Plain text, which always parses (see `revoke_invitation`): an unknown one is 404.
        token: Path<String>,
    ) -> Result<Json<InvitationPreview>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND | GONE }>> {
        let invitation = by_token(&state, &token.0).await?;
        Ok(Json(InvitationPreview {
            workspace_name: invitation.workspace_name,
            role: invitation.role,
            invited_by: invitation.invited_by.into(),
            email: invitation.email,
            expires_at: rfc3339(invitation.expires_at),
        }))
    }

    /// Accept an invitation
    ///
    /// Joins the workspace with the invitation's role and answers it. Your identity
    /// provider must have verified your email, and it must be the invited one (403
    /// `invitation_email` names the address otherwise). A link works once: 404 after
    /// (or when unknown or revoked); 410 when it expired.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(
        path = "/invitations/:token/accept",
        method = "post",
        operation_id = "accept_invitation"
    )]
    async fn accept_invitation(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::Session>,
        // Plain text, which always parses (see `revoke_invitation`): an unknown one is 404.
        token: Path<String>,
    ) -> Result<Json<WorkspaceInfo>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND | GONE }>> {
        let user = &auth.0.user;
        let invitation = by_token(&state, &token.0).await?;
        let verified = state.store.verified_email(&user.id).await?;
        if verified.as_deref().map(invitations::email_key) != Some(invitations::email_key(&invitation.email)) {
            let why = match verified {
                Some(address) => format!("you are signed in as {address}"),
                None => format!(
                    "your identity provider has not verified your email ({})",
                    if user.email.is_empty() {
                        "none given"
                    } else {
                        &user.email
                    }
                ),
            };
            return Err(ApiError::forbidden(
                "invitation_email",
                format!(
                    "This invitation is for {}, but {why}. Sign in with that address to accept it.",
                    invitation.email
                ),
            )
            .into());
        }
        let workspace = match state
            .store
            .accept_invitation(&invitations::hash_token(&token.0), &user.id)
            .await?
        {
            Acceptance::Joined(workspace) => workspace,
            Acceptance::Unknown => return Err(no_such_invitation().into()),
            Acceptance::Expired => return Err(expired().into()),
        };
        audit::record(
            &state.store,
            &workspace,
            Some(&user.id),
            Action::InvitationAccepted,
            &invitation.email,
            json!({"role": invitation.role.as_str(), "invitedBy": invitation.invited_by.user_id}),
        )
        .await;
        let joined = state
            .store
            .workspace_for(&workspace, &user.id)
            .await?
            .ok_or_else(|| ApiError::not_found(NO_SUCH_WORKSPACE))?;
        Ok(Json(joined.into()))
    }
}
