//! The DXP transport: a message on the wire is its text followed by a `\0`
//! (`../shared/reference/protocols.md` §2). [`send_message`] writes one; a reader thread per
//! connection reads them, bounded so that a peer that never sends `\0` cannot make it buffer
//! without end, and passes each on (parsed by `message.rs`) over a channel.

use super::message::Message;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

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
                    // Skip to the next `\0`, without keeping what is skipped.
                    if !skip_past_nul(&mut reader) {
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

/// Discards bytes up to and including the next `\0`, in the reader's buffer at a time (memory
/// stays bounded however long the peer goes on); false when the connection ends first.
fn skip_past_nul(reader: &mut impl BufRead) -> bool {
    loop {
        let (found, used) = match reader.fill_buf() {
            Ok([]) => return false,
            Ok(buf) => match buf.iter().position(|&b| b == 0) {
                Some(i) => (true, i + 1),
                None => (false, buf.len()),
            },
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return false,
        };
        reader.consume(used);
        if found {
            return true;
        }
    }
}

/// How long [`close_gracefully`] and [`refuse`] wait for the peer, in milliseconds: for its
/// GAMEREQ ([`refuse`]), then for it to close its side after ours is shut.
pub const CLOSE_WAIT_MS: u64 = 2_000;

/// Closes `stream` so that the peer reads the end of the connection, not a reset: the write
/// side is shut (the peer reads EOF after all that was sent), then what the peer still sends
/// is read and dropped until it closes its side, at most [`CLOSE_WAIT_MS`]. (A socket closed
/// with unread input sends a TCP RST, which can make the peer lose the last messages sent to
/// it.) Only a peer that goes on sending past the wait can still see a reset.
pub fn close_gracefully(mut stream: TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let deadline = Instant::now() + Duration::from_millis(CLOSE_WAIT_MS);
    let mut buf = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let _ = stream.shutdown(Shutdown::Both);
}

/// Refuses a connection the follower cannot serve (docs/dxp.md): sends the CHAT `error: TEXT`;
/// answers the peer's first GAMEREQ, if one comes within [`CLOSE_WAIT_MS`] (after at most
/// `REFUSE_READ_MAX` bytes of other messages), with GAMEACC code `2` (not this game; another
/// is fine) under the follower's `name`; then closes with [`close_gracefully`]. Returns whether
/// a GAMEREQ was answered.
pub fn refuse(mut stream: TcpStream, name: &str, text: &str) -> bool {
    let _ = stream.set_nodelay(true);
    if send_message(&mut stream, &Message::Chat(format!("error: {text}"))).is_err() {
        close_gracefully(stream);
        return false;
    }
    let deadline = Instant::now() + Duration::from_millis(CLOSE_WAIT_MS);
    let mut message = Vec::new();
    let mut read = 0;
    let mut buf = [0u8; 512];
    let mut answered = false;
    'read: while read < REFUSE_READ_MAX {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        let n = match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        read += n;
        for &b in &buf[..n] {
            if b != 0 {
                message.push(b);
                continue;
            }
            // A message's end: a GAMEREQ (its header `R`, line ends tolerated) is answered.
            let start = message.iter().position(|&c| c != b'\r' && c != b'\n');
            if start.is_some_and(|i| message[i] == b'R') {
                let acc = Message::GameAcc {
                    name: name.to_string(),
                    code: 2,
                };
                answered = send_message(&mut stream, &acc).is_ok();
                break 'read;
            }
            message.clear();
        }
    }
    close_gracefully(stream);
    answered
}

/// The most bytes [`refuse`] reads while it looks for a GAMEREQ.
pub const REFUSE_READ_MAX: usize = 16 * 1024;
