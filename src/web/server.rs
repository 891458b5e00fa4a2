//! The HTTP side of `damiera serve`: the embedded page, the WebSocket of each page, and the
//! guards: loopback by default, requests from other origins (or, on loopback, for other host
//! names: DNS rebinding) refused, request and message sizes bounded, sessions capped.

use crate::web::messages::{self, ClientMessage};
use crate::web::page;
use crate::web::session::{self, Hangup, Input, Outbox, SessionConfig, IN_QUEUE_MESSAGES};
use axum::body::Body;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE, HOST, ORIGIN};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use tokio::net::TcpListener;
use tokio::runtime::Builder;

/// The largest request body taken, in bytes (the page sends none; its messages go over the
/// WebSocket).
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// The largest WebSocket message taken, in bytes (a pasted PDN file): 4 MiB.
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;
/// The default cap on pages open at once (each has its own engine and table).
pub const DEFAULT_MAX_SESSIONS: usize = 4;

/// `damiera serve`'s options.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The address to listen on (loopback by default).
    pub host: IpAddr,
    /// The port (0: any free port; the one taken is reported).
    pub port: u16,
    /// The most pages with an engine at once; one more gets a `busy` error.
    pub max_sessions: usize,
    /// What each page's engine is made with.
    pub session: SessionConfig,
}

struct AppState {
    config: ServeConfig,
    /// Sessions running (their threads hold a [`SessionSlot`]).
    sessions: AtomicUsize,
}

/// A place among the capped sessions, given back when dropped.
struct SessionSlot(Arc<AppState>);

impl Drop for SessionSlot {
    fn drop(&mut self) {
        self.0.sessions.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves the page until the process ends. `listening` gets the address bound (with the port
/// taken when `port` was 0) once requests are accepted.
///
/// # Errors
/// The runtime cannot start or the address cannot be bound: one line.
pub fn serve(config: ServeConfig, listening: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let runtime = Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    runtime.block_on(async move {
        let addr = SocketAddr::new(config.host, config.port);
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let bound = listener.local_addr().map_err(|e| e.to_string())?;
        let state = Arc::new(AppState {
            config,
            sessions: AtomicUsize::new(0),
        });
        let app = router(state);
        listening(bound);
        axum::serve(listener, app)
            .await
            .map_err(|e| format!("server: {e}"))
    })
}

fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/ws", get(websocket))
        .fallback(get(asset))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(Arc::clone(&state), guard))
        .with_state(state)
}

/// The host named by a `Host` header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HostName<'a> {
    /// A DNS name (`localhost`, `example.org`).
    Dns(&'a str),
    /// An IPv4 address or a bracketed IPv6 literal.
    Ip(IpAddr),
}

/// Whether `name` is a DNS name: dot-separated labels of 1 to 63 letters, digits and hyphens,
/// none starting or ending with a hyphen, 253 characters at most.
fn is_dns_name(name: &str) -> bool {
    name.len() <= 253
        && name.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

/// Parses a `Host` header strictly: a host (a DNS name, an IPv4 address or a bracketed IPv6
/// literal) and an optional port (1 to 5 digits, 1 to 65535), nothing else: `localhost`,
/// `127.0.0.1:8080`, `[::1]:80`. A name of digits and dots only must be an IPv4 address.
fn parse_host(host: &str) -> Option<(HostName<'_>, Option<u16>)> {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let (literal, after) = rest.split_once(']')?;
        let ip = literal.parse::<std::net::Ipv6Addr>().ok()?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?),
        };
        (HostName::Ip(IpAddr::V6(ip)), port)
    } else {
        let (name, port) = match host.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        };
        let name = if name.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            HostName::Ip(IpAddr::V4(name.parse().ok()?))
        } else if is_dns_name(name) {
            HostName::Dns(name)
        } else {
            return None;
        };
        (name, port)
    };
    let port = match port {
        None => None,
        Some(p) if (1..=5).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()) => {
            Some(p.parse::<u16>().ok().filter(|&p| p != 0)?)
        }
        Some(_) => return None,
    };
    Some((name, port))
}

/// Whether a host names this machine's loopback (`localhost`, `127.0.0.1`, `::1`).
fn is_loopback_host(name: HostName<'_>) -> bool {
    match name {
        HostName::Dns(name) => name.eq_ignore_ascii_case("localhost"),
        HostName::Ip(ip) => ip.is_loopback(),
    }
}

/// The one `Host` header of a request, parsed by [`parse_host`]; the refusal's words when
/// there is none, more than one, or one that does not parse.
fn request_host(headers: &HeaderMap) -> Result<(&str, HostName<'_>), String> {
    let mut hosts = headers.get_all(HOST).iter();
    let (Some(host), None) = (hosts.next(), hosts.next()) else {
        return Err(if headers.contains_key(HOST) {
            "refused: more than one Host header".into()
        } else {
            "refused: no Host header".into()
        });
    };
    let text = host.to_str().ok();
    match text.and_then(|t| parse_host(t).map(|(name, _)| (t, name))) {
        Some(parsed) => Ok(parsed),
        None => Err(format!(
            "refused: bad Host header {:?} (a host name, IPv4 address or [IPv6] literal, \
             and an optional port 1-65535)",
            String::from_utf8_lossy(host.as_bytes())
        )),
    }
}

fn refuse(status: StatusCode, why: String) -> Response {
    (status, format!("{why}\n")).into_response()
}

/// Refuses what a page of another site (or a rebound DNS name) could send: a request without
/// exactly one well-formed `Host` header (400, [`request_host`]), a request whose `Origin` is
/// not this server's own, and on a loopback server a request for another host name (403);
/// and a body larger than [`MAX_BODY_BYTES`] (413). Adds headers that keep the page from
/// being framed or sniffed.
async fn guard(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    let (host, name) = match request_host(headers) {
        Ok(h) => h,
        Err(why) => return refuse(StatusCode::BAD_REQUEST, why),
    };
    if state.config.host.is_loopback() && !is_loopback_host(name) {
        return refuse(
            StatusCode::FORBIDDEN,
            format!("refused: host {host} is not this loopback server"),
        );
    }
    if let Some(origin) = headers.get(ORIGIN) {
        let own = format!("http://{host}");
        if origin.as_bytes() != own.as_bytes() {
            let origin = String::from_utf8_lossy(origin.as_bytes());
            return refuse(
                StatusCode::FORBIDDEN,
                format!("refused: a request from another origin ({origin})"),
            );
        }
    }
    let length = headers
        .get(CONTENT_LENGTH)
        .and_then(|l| l.to_str().ok())
        .and_then(|l| l.parse::<u64>().ok());
    if length.is_some_and(|l| l > MAX_BODY_BYTES as u64) {
        return refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("refused: a request body is at most {MAX_BODY_BYTES} bytes"),
        );
    }
    let mut response = next.run(req).await;
    let h = response.headers_mut();
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert(
        "content-security-policy",
        HeaderValue::from_static(
            "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; \
             style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
        ),
    );
    response
}

async fn asset(uri: Uri) -> Response {
    match page::find(uri.path()) {
        Some(a) => ([(CONTENT_TYPE, a.content_type)], Body::from(a.bytes)).into_response(),
        None => refuse(StatusCode::NOT_FOUND, format!("not found: {}", uri.path())),
    }
}

async fn websocket(State(state): State<Arc<AppState>>, ws: WebSocketUpgrade) -> Response {
    ws.max_message_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| page_socket(socket, state))
}

async fn send_text(socket: &mut WebSocket, text: String) -> bool {
    socket.send(Message::Text(text.into())).await.is_ok()
}

/// One page: a session thread with its engine, fed by the page's messages; its messages go
/// back in order. `stop` also sets the session's cancel flag at once (a game analysis holds
/// the session's thread). Both queues are bounded, so a page never grows the server's memory
/// without bound: a page that stops reading while its session's messages reach
/// [`session::OUT_QUEUE_MESSAGES`] is dropped (see [`Outbox::send`]), and so is a page whose
/// requests reach [`IN_QUEUE_MESSAGES`] not yet read by its session; either way with a
/// warning in the log.
async fn page_socket(mut socket: WebSocket, state: Arc<AppState>) {
    let max = state.config.max_sessions;
    if state.sessions.fetch_add(1, Ordering::SeqCst) >= max {
        state.sessions.fetch_sub(1, Ordering::SeqCst);
        let busy = format!("server busy: {max} pages are open (damiera serve --max-sessions)");
        send_text(&mut socket, messages::error(None, &busy).to_string()).await;
        let _ = socket.send(Message::Close(None)).await;
        return;
    }
    let slot = SessionSlot(Arc::clone(&state));
    let hangup = Arc::new(Hangup::default());
    let (out_tx, mut out_rx) = Outbox::new(Arc::clone(&hangup));
    let (in_tx, in_rx) = mpsc::sync_channel::<Input>(IN_QUEUE_MESSAGES);
    let cancel = Arc::new(AtomicBool::new(false));
    let started = {
        let (config, inbox, out, cancel) = (
            state.config.session.clone(),
            in_tx.clone(),
            out_tx.clone(),
            Arc::clone(&cancel),
        );
        std::thread::Builder::new()
            .name("damiera-page".into())
            .spawn(move || {
                let _slot = slot;
                session::run(&config, in_rx, inbox, out, cancel);
            })
    };
    if let Err(e) = started {
        let text = messages::error(None, &format!("cannot start a session: {e}"));
        send_text(&mut socket, text.to_string()).await;
        return;
    }
    // The page's messages are read while a send to it waits: a page that stops reading
    // holds up the writer only, its session's messages then fill the outbox, and the
    // hangup of a full outbox ends both.
    let (mut sink, mut stream) = socket.split();
    let writer = async {
        while let Some(text) = out_rx.recv().await {
            if sink.send(Message::Text(text.into())).await.is_err() {
                return;
            }
        }
    };
    let reader = async {
        while let Some(incoming) = stream.next().await {
            let m = match incoming {
                Ok(Message::Text(t)) => match serde_json::from_str::<ClientMessage>(t.as_str()) {
                    Ok(m) => m,
                    Err(e) => {
                        let request = messages::request_type(t.as_str());
                        let e = messages::error(request.as_deref(), &format!("bad message: {e}"));
                        out_tx.send(e.to_string());
                        continue;
                    }
                },
                Ok(Message::Binary(_)) => {
                    let why = "bad message: binary messages are not read; send JSON text";
                    out_tx.send(messages::error(None, why).to_string());
                    continue;
                }
                Ok(Message::Ping(_) | Message::Pong(_)) => continue,
                Ok(Message::Close(_)) | Err(_) => return,
            };
            if m == ClientMessage::Stop {
                cancel.store(true, Ordering::SeqCst);
            }
            match in_tx.try_send(Input::Client(m)) {
                Ok(()) => {}
                Err(mpsc::TrySendError::Full(_)) => {
                    log::warn!(
                        "damiera serve: a page sent {IN_QUEUE_MESSAGES} requests its session \
                         has not read: its connection is dropped"
                    );
                    return;
                }
                Err(mpsc::TrySendError::Disconnected(_)) => return,
            }
        }
    };
    tokio::select! {
        () = writer => {}
        () = reader => {}
        () = hangup.hung_up() => {}
    }
    // The session ends at its next input, or at `Close` when its queue has room for it.
    hangup.hang_up();
    cancel.store(true, Ordering::SeqCst);
    let _ = in_tx.try_send(Input::Close);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    #[test]
    fn well_formed_hosts_are_parsed() {
        let v6 = HostName::Ip(IpAddr::V6(Ipv6Addr::LOCALHOST));
        let v4 = HostName::Ip(IpAddr::V4(Ipv4Addr::LOCALHOST));
        for (host, name, port) in [
            ("localhost", HostName::Dns("localhost"), None),
            ("localhost:8080", HostName::Dns("localhost"), Some(8080)),
            ("LocalHost:1", HostName::Dns("LocalHost"), Some(1)),
            ("127.0.0.1:80", v4, Some(80)),
            ("127.0.0.1", v4, None),
            ("[::1]:8080", v6, Some(8080)),
            ("[::1]", v6, None),
            ("[::1]:65535", v6, Some(65535)),
            (
                "play.example-site.org",
                HostName::Dns("play.example-site.org"),
                None,
            ),
        ] {
            assert_eq!(parse_host(host), Some((name, port)), "{host}");
        }
        for loopback in [
            "localhost",
            "LOCALHOST:80",
            "127.0.0.1:80",
            "127.1.2.3",
            "[::1]",
        ] {
            let (name, _) = parse_host(loopback).unwrap();
            assert!(is_loopback_host(name), "{loopback}");
        }
        for other in ["evil.com", "10.0.0.1:80", "[::2]", "localhost.evil.com"] {
            let (name, _) = parse_host(other).unwrap();
            assert!(!is_loopback_host(name), "{other}");
        }
    }

    #[test]
    fn malformed_hosts_are_refused() {
        for host in [
            "localhost:evil.com",
            "[::1]evil.com",
            "[::1]:evil.com",
            "[::1",
            "[evil.com]",
            "localhost:",
            "localhost:99999",
            "localhost:65536",
            "localhost:0",
            "localhost:123456",
            "localhost:+80",
            "localhost:80:80",
            "localhost:80 ",
            " localhost",
            "",
            ":80",
            "127.0.0.1.5",
            "999.0.0.1",
            "local_host",
            "-localhost",
            "localhost.",
            "a..b",
            "user@localhost",
            "localhost/path",
            "::1",
        ] {
            assert_eq!(parse_host(host), None, "{host:?}");
        }
    }

    #[test]
    fn a_request_needs_exactly_one_well_formed_host_header() {
        let mut headers = HeaderMap::new();
        let refused = |h: &HeaderMap| request_host(h).expect_err("refused");
        assert!(refused(&headers).contains("no Host header"));
        headers.insert(HOST, HeaderValue::from_static("localhost:8080"));
        assert_eq!(
            request_host(&headers),
            Ok(("localhost:8080", HostName::Dns("localhost")))
        );
        headers.append(HOST, HeaderValue::from_static("localhost:8080"));
        assert!(refused(&headers).contains("more than one Host header"));
        headers.insert(HOST, HeaderValue::from_static("localhost:evil.com"));
        assert!(refused(&headers).contains("bad Host header"));
    }
}
