//! `damiera serve`: a board in the browser (docs/serve.md). A local web server (axum on
//! tokio) serves a page whose assets are embedded in the binary ([`page`]) and talks to it
//! over one WebSocket per page ([`messages`], the JSON of docs/serve-protocol.md); each page
//! gets its own [`Engine`](crate::engine::Engine) on its own thread ([`session`]), up to a cap,
//! so that one page's long analysis never holds up another's moves.

pub mod messages;
pub mod page;
pub mod server;
pub mod session;

pub use server::{serve, ServeConfig};
pub use session::SessionConfig;
