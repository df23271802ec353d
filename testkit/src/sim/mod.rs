//! What the simulators share: the server scaffold (bind, serve in the background, stop
//! on drop), a sliding-window quota, and Google's error envelope (`google.rpc.Status`).

pub mod google_error;
pub mod quota;
pub mod server;
