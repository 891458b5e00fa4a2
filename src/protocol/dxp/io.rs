//! The DXP transport: a message on the wire is its text followed by a `\0`
//! (`../shared/reference/protocols.md` §2). [`send_message`] writes one; a reader thread per
//! connection reads them, bounded so that a peer that never sends `\0` cannot make it buffer
//! without end, and passes each on (parsed by `message.rs`) over a channel.

use super::message::Message;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::mpsc::{self, Receiver, Sender};

/// The DXP standard port (protocols.md §2.1).
pub const DEFAULT_PORT: u16 = 27531;

/// What the session loop waits on: a message (or a malformed one), the end of the
/// connection, or the search's move.
pub(super) enum Input {
    Peer(Result<Message, String>),
    Closed,
    Best(Option<String>),
}

/// Sends one message followed by its `\0`.
///
/// # Errors
/// The connection's write error.
pub fn send_message(stream: &mut TcpStream, m: &Message) -> std::io::Result<()> {
    let mut bytes = m.text().into_bytes();
    bytes.push(0);
    stream.write_all(&bytes)?;
    stream.flush()
}

/// Reads the messages of `stream` on a thread: each as it arrives (`Err` for a malformed
/// one), then `None` when the connection ends.
pub fn message_reader(stream: TcpStream) -> Receiver<Option<Result<Message, String>>> {
    let (tx, rx) = mpsc::channel();
    let (itx, irx) = mpsc::channel();
    spawn_reader(stream, itx);
    std::thread::spawn(move || {
        for input in irx {
            let item = match input {
                Input::Peer(m) => Some(m),
                Input::Closed => None,
                Input::Best(_) => continue,
            };
            let end = item.is_none();
            if tx.send(item).is_err() || end {
                return;
            }
        }
    });
    rx
}

/// Reads `\0`-terminated messages from `stream` into `tx` until the connection ends.
pub(super) fn spawn_reader(stream: TcpStream, tx: Sender<Input>) {
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        loop {
            let mut buf = Vec::new();
            // Bounded: a peer that never sends `\0` cannot make us buffer without end.
            match (&mut reader).take(4096).read_until(0, &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if buf.last() != Some(&0) {
                if buf.len() >= 4096 {
                    let _ = tx.send(Input::Peer(Err(
                        "message longer than 127 characters (no \\0 in 4096 bytes)".into(),
                    )));
                    // Skip to the next `\0`.
                    let mut skip = Vec::new();
                    if reader
                        .read_until(0, &mut skip)
                        .map(|n| n == 0)
                        .unwrap_or(true)
                    {
                        break;
                    }
                    continue;
                }
                break; // the connection ended inside a message
            }
            buf.pop();
            let text = String::from_utf8_lossy(&buf).to_string();
            // Tolerate line ends some clients add.
            let text = text.trim_matches(|c| c == '\r' || c == '\n');
            if text.is_empty() {
                continue;
            }
            if tx.send(Input::Peer(Message::parse(text))).is_err() {
                return;
            }
        }
        let _ = tx.send(Input::Closed);
    });
}
