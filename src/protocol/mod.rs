//! The text protocols on stdin/stdout: the native UCI-style loop ([`native`], docs/protocol.md)
//! and Hub ([`hub`], Scan 3.1's protocol as pydraughts and lidraughts-bot speak it); and DXP
//! over TCP ([`dxp`], docs/dxp.md).
//!
//! What both share is in `lines.rs`: bounded line reading ([`input_lines`]), the output that
//! the command loop and the search thread write to ([`Output`]); `start.rs` holds [`run`], which
//! picks the protocol from the first line. The two front ends import from here and never from each
//! other.

pub mod dxp;
pub mod hub;
pub mod native;

mod lines;
mod start;

pub use lines::{
    clean_error, input_lines, printable, Input, InputError, Output, ERROR_CHARS, MAX_LINE_BYTES,
    QUOTED_CHARS,
};
pub use start::run;
