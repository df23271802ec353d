//! The error type shared by everything in `leadgen-core`. Each variant's doc comment names
//! the HTTP status the API maps it to.

/// A failure in the domain layer.
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    /// 400: the caller sent something that cannot be accepted; the text says what.
    #[error("{0}")]
    Invalid(String),
    /// 401: missing, malformed, expired or revoked credentials.
    #[error("{0}")]
    Unauthorized(String),
    /// 404: nothing of that kind belongs to the caller.
    #[error("{0}")]
    NotFound(String),
    /// 500: a secret could not be sealed or opened (wrong or missing master key).
    #[error("secret could not be decrypted: {0}")]
    Crypto(String),
    /// 500: database failure; logged, never shown.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// 500: migration failure at start.
    #[error("migration error: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// 503: Redis failure.
    #[error("redis error: {0}")]
    Redis(#[from] redis::RedisError),
    /// 500: anything else unexpected; logged, never shown.
    #[error("{0}")]
    Internal(String),
}

impl CoreError {
    /// The database cannot be reached (stopped, restarting, unreachable), as opposed to a
    /// query that failed: worth trying again shortly.
    pub fn is_store_unreachable(&self) -> bool {
        matches!(
            self,
            Self::Database(sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed)
        )
    }
}

/// Result alias for the domain layer.
pub type CoreResult<T> = Result<T, CoreError>;
