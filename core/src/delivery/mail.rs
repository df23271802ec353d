//! Outgoing mail over SMTP (lettre): a search's CSV to its owner, later invitations.
//! The SMTP URL holds the server's password: it is a secret, parsed once here and never
//! logged (errors name the problem, not the URL).

use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{Attachment, Mailbox, MultiPart, SinglePart, header::ContentType},
};
use secrecy::ExposeSecret;

/// Where mail goes and who it is from: settings (`[mail]`), declared with the
/// configuration, which checks the URL and the sender.
pub use crate::config::MailConfig;

/// Why a message was not sent, in words its owner can read (no server address).
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// The address is not one mail can go to.
    #[error("'{0}' is not an email address")]
    BadAddress(String),
    /// The SMTP server refused or could not be reached.
    #[error("the mail server did not take the message ({0})")]
    Server(String),
}

impl MailError {
    /// True when trying again later may work (the server was unreachable or busy).
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Server(_))
    }
}

/// Sends mail through the configured SMTP server (a pool of connections).
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer").field("from", &self.from.to_string()).finish()
    }
}

/// A file sent with a message.
#[derive(Debug, Clone)]
pub struct MailFile {
    /// Its name, e.g. `leads-dentist-houston-tx-2026-11-26T13-45-00.csv`.
    pub name: String,
    /// Its content type, e.g. `text/csv; charset=utf-8`.
    pub content_type: &'static str,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

impl Mailer {
    /// A mailer for `config` (checked when the configuration was read).
    pub fn new(config: &MailConfig) -> Result<Self, MailError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(config.smtp_url.expose_secret().trim())
            .map_err(|e| MailError::Server(e.to_string()))?
            .build();
        Ok(Self {
            transport,
            from: config.from.clone(),
        })
    }

    /// Sends a plain-text message to `to`, with `file` attached when given.
    pub async fn send(&self, to: &str, subject: &str, text: &str, file: Option<MailFile>) -> Result<(), MailError> {
        let to: Mailbox = to.parse().map_err(|_| MailError::BadAddress(to.to_owned()))?;
        let builder = Message::builder().from(self.from.clone()).to(to).subject(subject);
        let body = SinglePart::plain(text.to_owned());
        let message = match file {
            Some(file) => {
                let content_type = ContentType::parse(file.content_type)
                    .map_err(|e| MailError::Server(format!("content type: {e}")))?;
                builder.multipart(
                    MultiPart::mixed()
                        .singlepart(body)
                        .singlepart(Attachment::new(file.name).body(file.bytes, content_type)),
                )
            }
            None => builder.singlepart(body),
        }
        .map_err(|e| MailError::Server(format!("could not build the message: {e}")))?;
        self.transport
            .send(message)
            .await
            .map_err(|e| MailError::Server(plain_smtp_error(&e)))?;
        Ok(())
    }
}

/// lettre's error in a few words: its status code when the server answered, else the
/// kind of failure (never the server's address, which can carry credentials).
fn plain_smtp_error(error: &lettre::transport::smtp::Error) -> String {
    match error.status() {
        Some(code) => format!("it answered {code}"),
        None if error.is_timeout() => "it did not answer in time".into(),
        None if error.is_tls() => "a secure connection could not be made".into(),
        None => "it could not be reached".into(),
    }
}
