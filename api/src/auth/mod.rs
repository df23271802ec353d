//! Authentication: the bearer scheme every protected operation takes, OIDC sign-in, and
//! the local operator account of embedded mode.
//!
//! A bearer value is either a session token (a JWT from sign-in) or a personal API token
//! (`lgp_...`). Both are checked here and only here: an operation states what it needs in
//! its signature (`Auth<access::SearchesRun>`, or [`BearerAuth`] for a session), and the
//! extractor refuses anything less before the handler runs. A session may do everything;
//! a token only what its scopes allow (403 otherwise), and never what needs a session.

pub mod access;
pub mod http_client;
pub mod local;
pub mod oidc;
pub mod workspace;

use std::marker::PhantomData;

use leadgen_core::{
    ids::{UserId, WorkspaceId},
    personal_tokens,
    session::Claims,
    store::TokenGrant,
    user::User,
    workspace::Role,
};
use poem::{Request, RequestBody};
use poem_openapi::{
    ApiExtractor, ApiExtractorType, ExtractParamOptions, SecurityScheme,
    auth::Bearer,
    registry::{MetaParamIn, MetaSchemaRef, Registry},
};

use self::access::{Access, InWorkspace, Needs, Scoping};
use crate::{
    error::ApiError,
    rate_limits::{Caller, RateLimits},
    state::AppState,
};

/// How the caller proved who they are.
#[derive(Debug, Clone)]
pub enum Credential {
    /// A session token's claims (for logout and refresh).
    Session(Claims),
    /// A personal API token and its scopes.
    Token(TokenGrant),
}

/// The caller, authenticated. Handlers receive it as an argument, so none can forget to
/// authenticate, and every store call takes `user.id`.
#[derive(Debug, Clone)]
pub struct AuthUser {
    /// The user.
    pub user: User,
    /// Session or personal token.
    pub credential: Credential,
}

impl AuthUser {
    /// The session's claims, when the caller used a session.
    pub fn session(&self) -> Option<&Claims> {
        match &self.credential {
            Credential::Session(claims) => Some(claims),
            Credential::Token(_) => None,
        }
    }

    /// Refuses a token that lacks what the operation needs (403, naming it).
    fn allow(&self, needs: Needs) -> Result<(), ApiError> {
        let Credential::Token(grant) = &self.credential else {
            return Ok(());
        };
        match needs {
            Needs::AnyCredential => Ok(()),
            Needs::Scope(scope) if grant.scopes.contains(scope) => Ok(()),
            Needs::Scope(scope) => Err(ApiError::forbidden(
                "insufficient_scope",
                format!(
                    "This API token lacks the '{scope}' scope this operation needs. Create a token with it in Settings > API access."
                ),
            )),
            Needs::Session => Err(ApiError::forbidden(
                "session_required",
                "This operation needs a signed-in session; API tokens cannot use it.",
            )),
        }
    }
}

/// A session token from sign-in, or a personal API token (`lgp_...`, create one in
/// Settings > API access or with `POST /api/user/tokens`). A token may call only the
/// operations its scopes allow: each operation's description names its scope
/// (`searches:run`, `usage:read`, `exports:write`, `keys:write`, `webhooks:write`), or says
/// it needs a session. Refusals are 403 `insufficient_scope` or `session_required`.
/// Each token also has its own rate limit (429 `rate_limited` with `Retry-After`).
//
// (The doc comment above is the scheme's description in OpenAPI: one scheme, both kinds.)
#[derive(SecurityScheme)]
#[oai(rename = "BearerAuth", ty = "bearer", checker = "check_bearer")]
struct Credentials(AuthUser);

async fn check_bearer(req: &Request, bearer: Bearer) -> poem::Result<AuthUser> {
    let state = req
        .data::<AppState>()
        .ok_or_else(|| ApiError::internal(&"application state missing"))?;
    let caller = authenticate(state, &bearer.token).await?;
    // Only now, verified, may the caller have a bucket of its own (see `rate_limits`).
    if let Some(limits) = req.data::<RateLimits>() {
        let key = match &caller.credential {
            Credential::Session(_) => Caller::User(caller.user.id.as_str()),
            Credential::Token(grant) => Caller::Token(&grant.token_id),
        };
        limits.check_caller(key)?;
    }
    Ok(caller)
}

/// The workspace an operation acts in, and the caller's role there.
#[derive(Debug, Clone)]
pub struct CallerWorkspace {
    /// The workspace.
    pub id: WorkspaceId,
    /// The caller's role in it (at least the one the operation needs).
    pub role: Role,
}

/// The caller, authenticated, allowed what `A` says (see [`access`]), and for a
/// workspace-scoped `A` the workspace they act in, their membership and role checked.
/// The only way an operation gets a caller.
#[derive(Debug, Clone)]
pub struct Auth<A: Access>(pub AuthUser, Option<CallerWorkspace>, PhantomData<A>);

impl<A: InWorkspace> Auth<A> {
    /// The workspace the operation acts in (chosen by the header or the path, checked).
    pub fn workspace(&self) -> &WorkspaceId {
        &self.caller_workspace().id
    }

    /// The workspace and the caller's role in it.
    pub fn caller_workspace(&self) -> &CallerWorkspace {
        // The extractor resolves a workspace for every `InWorkspace` requirement.
        self.1.as_ref().expect("a workspace-scoped operation has a workspace")
    }
}

/// A caller with a session (personal tokens are refused with 403).
pub type BearerAuth = Auth<access::Session>;

impl<'a, A: Access> ApiExtractor<'a> for Auth<A> {
    // A workspace-scoped operation also declares a parameter: the contract's post-processing
    // (`openapi_workspaces`) turns it into the documented `Leadgen-Workspace` header (or
    // drops it, when the path names the workspace) and the operation's `x-leadgen-role`,
    // so the role is written once, here in the type, and documented from it.
    const TYPES: &'static [ApiExtractorType] = match A::SCOPE {
        Scoping::User => &[ApiExtractorType::SecurityScheme],
        Scoping::Workspace(_) | Scoping::WorkspaceInPath(_) => {
            &[ApiExtractorType::SecurityScheme, ApiExtractorType::Parameter]
        }
    };
    type ParamType = ();
    type ParamRawType = ();

    fn register(registry: &mut Registry) {
        <Credentials as ApiExtractor<'a>>::register(registry);
    }

    fn security_schemes() -> Vec<&'static str> {
        <Credentials as ApiExtractor<'a>>::security_schemes()
    }

    fn param_in() -> Option<MetaParamIn> {
        A::SCOPE.role().map(|_| MetaParamIn::Header)
    }

    fn param_schema_ref() -> Option<MetaSchemaRef> {
        crate::openapi_workspaces::marker_schema(A::SCOPE)
    }

    async fn from_request(
        request: &'a Request,
        body: &mut RequestBody,
        param_opts: ExtractParamOptions<Self::ParamType>,
    ) -> poem::Result<Self> {
        let Credentials(user) = <Credentials as ApiExtractor<'a>>::from_request(request, body, param_opts).await?;
        user.allow(A::NEEDS)?;
        let workspace = match A::SCOPE {
            Scoping::User => None,
            Scoping::Workspace(needed) => {
                let named = workspace::from_header(request)?;
                Some(workspace::resolve(request, &user, named, needed).await?)
            }
            Scoping::WorkspaceInPath(needed) => {
                let named = workspace::from_path(request)?;
                Some(workspace::resolve(request, &user, Some(named), needed).await?)
            }
        };
        Ok(Self(user, workspace, PhantomData))
    }
}

/// Verifies a bearer value: a personal token (by its hash: exists, unexpired), or a
/// session token (signature, algorithm, expiry, and that its session is live).
pub async fn authenticate(state: &AppState, token: &str) -> Result<AuthUser, ApiError> {
    if personal_tokens::is_personal_token(token) {
        let grant = state
            .store
            .authenticate_token(&personal_tokens::hash(token))
            .await?
            .ok_or_else(ApiError::token_invalid)?;
        let user = state
            .store
            .user(&grant.user_id)
            .await?
            .ok_or_else(ApiError::session_invalid)?;
        return Ok(AuthUser {
            user,
            credential: Credential::Token(grant),
        });
    }
    let claims = state.sessions.verify(token).map_err(|_| ApiError::session_invalid())?;
    // The session's liveness and its user, in one read.
    let user = state
        .store
        .user_of_active_session(&UserId::from(claims.sub.as_str()), &claims.jti)
        .await?
        .ok_or_else(ApiError::session_invalid)?;
    Ok(AuthUser {
        user,
        credential: Credential::Session(claims),
    })
}

/// Issues and records a session token for `user_id`.
pub async fn start_session(state: &AppState, user_id: &UserId) -> Result<String, ApiError> {
    let (token, claims) = state.sessions.issue(user_id)?;
    state.store.create_session(&claims).await?;
    Ok(token)
}
