//! `damiera serve` (docs/serve.md) without a browser: the HTTP guards (other origins, other
//! host names, sizes), the embedded page, and the WebSocket protocol of docs/serve-protocol.md
//! from a plain client: moves, refusals, searches, a game's analysis, stopping it, the cap on
//! pages and two pages at once. The page itself is tested in a real browser by
//! `tests/browser/test_serve.py`.

#[path = "common/book_build.rs"]
mod book_build;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tungstenite::client::IntoClientRequest;
use tungstenite::http::HeaderValue;
use tungstenite::{Message, WebSocket};

/// A running `damiera serve --port 0` and the port it took; killed when dropped.
struct Server {
    child: Child,
    port: u16,
    /// What the server wrote to stderr so far (its log).
    log: Arc<Mutex<String>>,
}

impl Server {
    /// `damiera serve` with `args` (and `--hash 8` unless they give a hash size).
    fn start(args: &[&str]) -> Server {
        let hash: &[&str] = if args.contains(&"--hash") {
            &[]
        } else {
            &["--hash", "8"]
        };
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("damiera"))
            .args(["serve", "--port", "0"])
            .args(hash)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("damiera serve starts");
        let log = Arc::new(Mutex::new(String::new()));
        let stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let kept = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                eprintln!("{line}");
                let mut log = kept.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the address line");
        let port = line
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        Server { child, port, log }
    }

    /// Whether the server's log holds `text` within 5 s.
    fn logged(&self, text: &str) -> bool {
        let end = Instant::now() + Duration::from_secs(5);
        while Instant::now() < end {
            if self.log.lock().unwrap().contains(text) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// The server's resident memory, in KiB (`VmRSS` of /proc/PID/status).
    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc/PID/status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS")
    }

    /// A raw HTTP/1.1 request: the status code and the body.
    fn request(&self, head: &str, body: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connects");
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(head.replace("PORT", &self.port.to_string()).as_bytes())
            .unwrap();
        let _ = s.write_all(body);
        let mut text = Vec::new();
        let _ = s.read_to_end(&mut text);
        let text = String::from_utf8_lossy(&text).to_string();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let body = text.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
        (status, body)
    }

    fn get(&self, path: &str, extra: &str) -> (u16, String) {
        self.request(
            &format!(
                "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n{extra}Connection: close\r\n\r\n"
            ),
            b"",
        )
    }

    /// A WebSocket to `/ws` with the page's own `Origin`.
    fn page(&self) -> Page {
        let url = format!("ws://127.0.0.1:{}/ws", self.port);
        let mut req = url.into_client_request().unwrap();
        let origin = format!("http://127.0.0.1:{}", self.port);
        req.headers_mut()
            .insert("Origin", HeaderValue::from_str(&origin).unwrap());
        let (ws, _) = tungstenite::connect(req).expect("the WebSocket opens");
        if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        }
        Page { ws }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Page {
    ws: WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
}

impl Page {
    fn send(&mut self, v: Value) {
        self.ws.send(Message::text(v.to_string())).expect("sent");
    }
    fn send_text(&mut self, t: &str) {
        self.ws.send(Message::text(t)).expect("sent");
    }
    fn recv(&mut self) -> Value {
        loop {
            match self.ws.read().expect("a message") {
                Message::Text(t) => return serde_json::from_str(t.as_str()).expect("JSON"),
                Message::Close(_) => panic!("the server closed the page"),
                _ => {}
            }
        }
    }
    /// The next message of type `kind`, skipping others.
    fn expect(&mut self, kind: &str) -> Value {
        loop {
            let m = self.recv();
            if m["type"] == kind {
                return m;
            }
            assert_ne!(m["type"], "error", "expected {kind}, got {m}");
        }
    }
    /// Whether the server closed this page within `wait`: a close frame, the end of the
    /// stream or a reset, after any messages it had sent. A read timeout is not a close.
    fn closed_within(&mut self, wait: Duration) -> bool {
        if let tungstenite::stream::MaybeTlsStream::Plain(s) = self.ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_millis(200)))
                .unwrap();
        }
        let end = Instant::now() + wait;
        while Instant::now() < end {
            match self.ws.read() {
                Ok(Message::Close(_)) => return true,
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(_) => return true,
            }
        }
        false
    }
    /// `hello` and the first position.
    fn open(server: &Server) -> (Page, Value) {
        let mut p = server.page();
        let hello = p.recv();
        assert_eq!(hello["type"], "hello");
        let pos = p.recv();
        assert_eq!(pos["type"], "position");
        (p, pos)
    }
}

fn pdn(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/pdn")
        .join(name);
    std::fs::read_to_string(path).expect("test PDN")
}

fn names(pos: &Value) -> Vec<String> {
    pos["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_page_is_served_and_other_origins_and_hosts_are_refused() {
    let s = Server::start(&[]);
    let (status, body) = s.get("/", "");
    assert_eq!(status, 200);
    assert!(
        body.contains("<html") || body.contains("<!DOCTYPE"),
        "{body}"
    );
    for asset in [
        "/assets/app.js",
        "/assets/style.css",
        "/assets/vendor/uPlot.iife.min.js",
    ] {
        assert_eq!(s.get(asset, "").0, 200, "{asset}");
    }
    assert_eq!(s.get("/nope", "").0, 404);
    // The page's own origin is welcome; another site's is not, for the page or the socket.
    assert_eq!(s.get("/", "Origin: http://127.0.0.1:PORT\r\n").0, 200);
    let (status, body) = s.get("/", "Origin: http://evil.example\r\n");
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("another origin"), "{body}");
    let upgrade = "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\
                   Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    let (status, _) = s.get("/ws", &format!("{upgrade}Origin: http://evil.example\r\n"));
    assert_eq!(status, 403);
    let (status, _) = s.get(
        "/ws",
        &format!("{upgrade}Origin: http://127.0.0.1:PORT\r\n"),
    );
    assert_eq!(status, 101);
    // DNS rebinding: a loopback server answers only to loopback names.
    let (status, body) = s.request(
        "GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
        b"",
    );
    assert_eq!(status, 403, "{body}");
    // A body larger than the limit is refused before it is read.
    let (status, _) = s.request(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nContent-Length: 10000000\r\nConnection: close\r\n\r\n",
        b"",
    );
    assert_eq!(status, 413);
}

#[test]
fn moves_refusals_and_the_engine_over_the_websocket() {
    let s = Server::start(&[]);
    let (mut p, start) = Page::open(&s);
    // English: 32 squares, numbered 1 at b8 (WCDF), Black to move with 7 moves.
    assert_eq!(start["variant"], "english");
    assert_eq!(start["squares"].as_array().unwrap().len(), 32);
    assert_eq!(
        start["squares"][0],
        json!({"name": "1", "file": 1, "rank": 7})
    );
    assert_eq!(start["side"], "black");
    assert_eq!(names(&start).len(), 7);
    // An illegal move is refused and changes nothing.
    p.send(json!({"type": "move", "move": "9-18"}));
    let e = p.recv();
    assert_eq!(e["type"], "error");
    assert_eq!(e["request"], "move", "{e}");
    assert!(e["message"].as_str().unwrap().contains("9-18"), "{e}");
    p.send(json!({"type": "move", "move": "9-13"}));
    let pos = p.expect("position");
    assert_eq!(pos["history"], json!(["9-13"]));
    assert_eq!(pos["last"]["path"], json!(["9", "13"]));
    assert_eq!(pos["side"], "white");
    // Garbage and unknown messages: one-line errors, and the game goes on.
    // Each error names the request it answers: `null` when it could not be read as one.
    p.send_text("garbage");
    let e = p.recv();
    assert!(e["message"].as_str().unwrap().starts_with("bad message"));
    assert_eq!(e["request"], Value::Null, "{e}");
    p.send(json!({"type": "castle"}));
    let e = p.recv();
    assert!(e["message"].as_str().unwrap().starts_with("bad message"));
    assert_eq!(e["request"], "castle", "{e}");
    p.send(json!({"type": "go", "depth": 99}));
    let e = p.recv();
    assert!(e["message"].as_str().unwrap().contains("depth 99"));
    assert_eq!(e["request"], "go", "{e}");
    p.send(json!({"type": "go"}));
    assert!(p.recv()["message"]
        .as_str()
        .unwrap()
        .starts_with("go needs a depth"));
    // The engine plays White at depth 2.
    p.send(json!({"type": "go", "depth": 2}));
    let info = p.expect("info");
    assert!(info["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
    let best = p.expect("bestmove");
    let pos = p.expect("position");
    assert_eq!(pos["history"][1], best["move"]);
    assert_eq!(pos["side"], "black");
    p.send(json!({"type": "takeback", "plies": 2}));
    assert_eq!(p.expect("position")["history"], json!([]));
    // A bad FEN: its column and the old game kept.
    p.send(json!({"type": "new", "variant": "international", "fen": "W:W31,32:B1,zz"}));
    let e = p.recv();
    assert_eq!(e["message"], "column 13: bad FEN: 'zz' is not a square");
    assert_eq!(e["request"], "new", "{e}");
    p.send(json!({"type": "new", "variant": "chess"}));
    assert_eq!(p.recv()["type"], "error");
    // Russian: algebraic squares; International: 50 numbered squares, 1 at b10.
    p.send(json!({"type": "new", "variant": "russian"}));
    let ru = p.expect("position");
    assert_eq!(ru["notation"], "algebraic");
    assert!(names(&ru).contains(&"c3-d4".to_string()));
    p.send(json!({"type": "new", "variant": "international"}));
    let int = p.expect("position");
    assert_eq!(int["notation"], "numbers");
    assert_eq!(
        (int["files"].clone(), int["ranks"].clone()),
        (json!(10), json!(10))
    );
    assert_eq!(
        int["squares"][0],
        json!({"name": "1", "file": 1, "rank": 9})
    );
    assert_eq!(
        int["squares"][45],
        json!({"name": "46", "file": 0, "rank": 0})
    );
    // A capture lists its landing and captured squares: 1. 32-28 19-23 2. 28x19.
    for m in ["32-28", "19-23"] {
        p.send(json!({"type": "move", "move": m}));
        p.expect("position");
    }
    p.send(json!({"type": "move", "move": "28x19"}));
    let pos = p.expect("position");
    assert_eq!(
        pos["last"],
        json!({"path": ["28", "19"], "captured": ["23"]})
    );
    // Analysis runs until stopped, then reports its best move; the position stays.
    p.send(json!({"type": "analyse"}));
    p.expect("info");
    p.send(json!({"type": "stop"}));
    let best = p.expect("bestmove");
    assert!(best["move"].is_string());
    p.send(json!({"type": "takeback", "plies": 1}));
    assert_eq!(p.expect("position")["history"], json!(["32-28", "19-23"]));
}

#[test]
fn italian_damone_plays_by_the_end_of_game_rule_the_page_chooses() {
    // Ruling I.4 (docs/rules.md, Italian Damone): a side without a legal move has lost; with
    // the option `damones`, so has a side that has lost every Damone.
    let s = Server::start(&[]);
    let (mut p, _) = Page::open(&s);
    // White's Damone takes Black's only Damone: e4xc6.
    let fen = "W:WIe4,Kb1:BId5,Kh7";
    p.send(json!({"type": "new", "variant": "damone", "fen": fen}));
    let all = p.expect("position");
    assert_eq!(all["damone_win"], "all");
    assert_eq!(names(&all), ["e4xc6"]);
    p.send(json!({"type": "move", "move": "e4xc6"}));
    let after = p.expect("position");
    assert_eq!(after["outcome"], Value::Null, "{after}");
    assert!(!names(&after).is_empty());
    // The same game under `damones` ends with the capture.
    p.send(json!({"type": "new", "variant": "damone", "fen": fen, "damone_win": "damones"}));
    assert_eq!(p.expect("position")["damone_win"], "damones");
    p.send(json!({"type": "move", "move": "e4xc6"}));
    let after = p.expect("position");
    assert_eq!(
        after["outcome"], "White wins: Black has lost its last Damone",
        "{after}"
    );
    assert!(names(&after).is_empty());
    // The engine's game follows the rule too: its capture ends the game.
    p.send(
        json!({"type": "new", "variant": "damone", "fen": "W:WIe4,Kb1,a2:BId5,Kh7,h5",
                  "damone_win": "damones"}),
    );
    p.expect("position");
    p.send(json!({"type": "go", "depth": 3}));
    assert_eq!(p.expect("bestmove")["move"], "e4xc6");
    assert!(p.expect("position")["outcome"]
        .as_str()
        .is_some_and(|o| o.contains("White wins")));
    // A rule of another name is refused and the game stays; other variants have none.
    p.send(json!({"type": "new", "variant": "damone", "damone_win": "kings"}));
    let e = p.expect("error");
    assert_eq!(e["message"], "damone_win is all or damones, not 'kings'");
    p.send(json!({"type": "new", "variant": "italian"}));
    assert_eq!(p.expect("position")["damone_win"], Value::Null);
}

#[test]
fn a_game_analysis_marks_the_planted_blunder_and_bad_pdn_gets_its_line() {
    let s = Server::start(&["--eval-file", "hand"]);
    let (mut p, _) = Page::open(&s);
    // tests/pdn/blunder.pdn: Black's 5. 12-16 drops a man to a 2-for-1 shot (checked with
    // pydraughts, tests/analysis.rs); with the hand-set evaluation a man is 100 centi-men.
    p.send(json!({"type": "analyse_pdn", "pdn": pdn("blunder.pdn"), "depth": 10}));
    let mut last = 0;
    let a = loop {
        let m = p.recv();
        match m["type"].as_str() {
            Some("progress") => {
                let done = m["done"].as_u64().unwrap();
                assert!(done > last && m["total"] == 12, "{m}");
                last = done;
            }
            Some("analysis") => break m,
            _ => panic!("unexpected {m}"),
        }
    };
    assert_eq!(last, 12);
    let plies = a["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 11);
    let marked: Vec<String> = plies
        .iter()
        .filter(|p| p["mark"] == "??")
        .map(|p| {
            format!(
                "{} {}",
                p["label"].as_str().unwrap(),
                p["move"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(marked, ["5. 12-16"]);
    let blunder = &plies[8];
    assert!(blunder["score"].as_f64().unwrap() >= 1.0, "{blunder}");
    assert_eq!(blunder["path"], json!(["12", "16"]));
    assert!(blunder["best"].is_string() && blunder["line"].as_array().unwrap().len() >= 3);
    assert!(a["pdn"].as_str().unwrap().contains("12-16??"));
    assert!(a["report"]
        .as_str()
        .unwrap()
        .contains("blunders: 5. 12-16??"));
    // The boards before and after agree with the move: 12 empties, 16 fills.
    let idx = |name: &str| {
        a["squares"]
            .as_array()
            .unwrap()
            .iter()
            .position(|s| s["name"] == name)
            .unwrap()
    };
    assert_eq!(blunder["pieces_before"][idx("12")], "bm");
    assert_eq!(blunder["pieces"][idx("12")], "");
    assert_eq!(blunder["pieces"][idx("16")], "bm");
    // A PDN with an illegal move: its line and column (tests/pdn/errors.pdn).
    p.send(json!({"type": "analyse_pdn", "pdn": pdn("errors.pdn"), "game": 1}));
    let e = p.recv();
    assert_eq!(e["message"], "line 5, column 33: illegal move 11-20", "{e}");
    p.send(json!({"type": "analyse_pdn", "pdn": pdn("blunder.pdn"), "game": 3}));
    assert_eq!(p.recv()["message"], "game 3: the PDN holds 1 game");
    // The game being played is still there.
    p.send(json!({"type": "move", "move": "11-15"}));
    assert_eq!(p.expect("position")["history"], json!(["11-15"]));
}

#[test]
fn a_long_analysis_is_stopped_and_never_holds_up_another_page() {
    let s = Server::start(&["--max-sessions", "2"]);
    let (mut a, _) = Page::open(&s);
    let (mut b, _) = Page::open(&s);
    // A third page finds the server busy.
    let mut c = s.page();
    let busy = c.recv();
    assert!(
        busy["message"].as_str().unwrap().contains("server busy"),
        "{busy}"
    );
    assert_eq!(busy["request"], Value::Null, "{busy}");
    // Page a analyses a long game deeply; page b plays meanwhile.
    a.send(
        json!({"type": "analyse_pdn", "pdn": pdn("english-loy-chinook-1991.pdn"),
                  "depth": 40}),
    );
    b.send(json!({"type": "move", "move": "11-15"}));
    assert_eq!(b.expect("position")["history"], json!(["11-15"]));
    b.send(json!({"type": "go", "depth": 4}));
    b.expect("bestmove");
    assert_eq!(b.expect("position")["history"].as_array().unwrap().len(), 2);
    // Stopping ends a's analysis with a one-line error, and a plays on.
    a.send(json!({"type": "stop"}));
    let e = a.expect("error");
    assert_eq!(e["message"], "the game's analysis was stopped");
    assert_eq!(e["request"], "analyse_pdn", "{e}");
    a.send(json!({"type": "move", "move": "9-13"}));
    assert_eq!(a.expect("position")["history"], json!(["9-13"]));
    // When a page goes, its place is free again.
    drop(a);
    let mut ok = false;
    for _ in 0..50 {
        let mut d = s.page();
        if d.recv()["type"] == "hello" {
            ok = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(ok, "a closed page's place is given back");
}

/// Sends `n` copies of `text` on `page` as fast as it takes them (a server that stopped
/// reading ends it: a write waits at most 2 s); the number sent.
fn flood(page: &mut Page, text: &str, n: usize) -> usize {
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = page.ws.get_ref() {
        s.set_write_timeout(Some(Duration::from_secs(2))).unwrap();
    }
    (0..n)
        .take_while(|_| page.ws.send(Message::text(text)).is_ok())
        .count()
}

#[test]
fn a_page_that_sends_without_reading_is_dropped_and_the_memory_stays_bounded() {
    // 20,000 `new` International messages never read: each answer is a 2.7 KB position. With
    // unbounded queues the server grew from 16,632 KiB to 44,852 KiB within 3 s of the flood
    // (91,844 KiB after 10 s); with bounded ones it stays within 1 MiB of where it was.
    let s = Server::start(&[]);
    let (mut other, _) = Page::open(&s);
    let new = json!({"type": "new", "variant": "international"}).to_string();
    other.send_text(&new);
    other.expect("position");
    let before = s.rss_kib();
    let mut unread = s.page();
    let sent = flood(&mut unread, &new, 20_000);
    let mut peak = 0;
    for _ in 0..30 {
        std::thread::sleep(Duration::from_millis(100));
        peak = peak.max(s.rss_kib());
    }
    eprintln!("{sent} sent; resident before {before} KiB, at most {peak} KiB in the 3 s after");
    assert!(
        peak < before + 10 * 1024,
        "resident memory grew from {before} KiB to {peak} KiB"
    );
    assert!(
        unread.closed_within(Duration::from_secs(10)),
        "the unread page is closed"
    );
    assert!(s.logged("its connection is dropped"), "the drop is logged");
    // The page open before and a new one are served as usual.
    other.send(json!({"type": "new", "variant": "russian"}));
    assert_eq!(other.expect("position")["variant"], "russian");
    let (mut again, _) = Page::open(&s);
    again.send_text(&new);
    let pos = again.expect("position");
    assert_eq!(pos["variant"], "international");
    assert_eq!(names(&pos).len(), 9);
}

#[test]
fn requests_piling_up_behind_a_busy_session_drop_the_page() {
    let s = Server::start(&[]);
    let (mut p, _) = Page::open(&s);
    // A deep analysis of a long game holds the session's thread; the page's next requests
    // wait for it, up to the bound (64), and the page is then dropped.
    p.send(
        json!({"type": "analyse_pdn", "pdn": pdn("english-loy-chinook-1991.pdn"),
                  "depth": 40}),
    );
    let sent = flood(
        &mut p,
        &json!({"type": "move", "move": "11-15"}).to_string(),
        500,
    );
    assert!(p.closed_within(Duration::from_secs(10)), "{sent} sent");
    assert!(
        s.logged("requests its session has not read"),
        "the drop is logged"
    );
    // Its analysis was ended and its place given back: the server goes on.
    let (mut q, _) = Page::open(&s);
    q.send(json!({"type": "move", "move": "11-15"}));
    assert_eq!(q.expect("position")["history"], json!(["11-15"]));
}

#[test]
fn a_page_that_stops_reading_is_dropped_when_its_outbox_fills() {
    // Requests paced (one a millisecond) so that the session keeps up: the page's unread
    // positions fill the socket's buffers, then the outbox (256 messages), and the page is
    // dropped. A session that falls 64 requests behind (a loaded machine) has the page
    // dropped by the other bound instead; either way it is closed and logged.
    let s = Server::start(&["--hash", "1"]);
    let before = s.rss_kib();
    let mut unread = s.page();
    if let tungstenite::stream::MaybeTlsStream::Plain(t) = unread.ws.get_ref() {
        t.set_write_timeout(Some(Duration::from_secs(2))).unwrap();
    }
    let new = json!({"type": "new", "variant": "international"}).to_string();
    let start = Instant::now();
    let mut sent = 0;
    while start.elapsed() < Duration::from_secs(10)
        && unread.ws.send(Message::text(new.as_str())).is_ok()
    {
        sent += 1;
        std::thread::sleep(Duration::from_millis(1));
    }
    let after = s.rss_kib();
    eprintln!(
        "{sent} sent in {:?}; resident {before} KiB before, {after} KiB after",
        start.elapsed()
    );
    assert!(unread.closed_within(Duration::from_secs(5)), "{sent} sent");
    assert!(s.logged("its connection is dropped"));
    assert!(after < before + 10 * 1024, "{before} KiB, then {after} KiB");
    let (mut again, _) = Page::open(&s);
    again.send_text(&new);
    assert_eq!(again.expect("position")["variant"], "international");
}

#[test]
fn malformed_or_repeated_host_headers_are_refused() {
    let s = Server::start(&[]);
    let get = |hosts: &str| {
        s.request(
            &format!("GET / HTTP/1.1\r\n{hosts}Connection: close\r\n\r\n"),
            b"",
        )
    };
    assert_eq!(get("Host: localhost:PORT\r\n").0, 200);
    assert_eq!(get("Host: [::1]:PORT\r\n").0, 200);
    for hosts in [
        "Host: localhost:evil.com\r\n",
        "Host: [::1]evil.com\r\n",
        "Host: localhost:PORT:80\r\n",
        "Host: 127.0.0.1:PORT\r\nHost: 127.0.0.1:PORT\r\n",
        "Host: localhost:PORT\r\nHost: evil.com\r\n",
    ] {
        let (status, body) = get(hosts);
        assert_eq!(status, 400, "{hosts:?}: {body}");
        assert!(body.starts_with("refused: "), "{hosts:?}: {body}");
    }
}

#[test]
fn hello_lists_the_levels_and_go_plays_at_one() {
    let s = Server::start(&[]);
    let mut p = s.page();
    let hello = p.recv();
    assert_eq!(hello["type"], "hello");
    // Levels 0 (random moves, no Elo) to 20 (full strength), in order; the Elo of levels
    // 1-20 is measured above level 1 (docs/strength.md), so it starts at 0 and climbs.
    let levels = hello["levels"].as_array().expect("levels");
    assert_eq!(levels.len(), 21, "{hello}");
    assert_eq!(levels[0], json!({"level": 0, "elo": null}));
    let elo: Vec<i64> = levels[1..]
        .iter()
        .enumerate()
        .map(|(i, l)| {
            assert_eq!(l["level"], json!(i + 1), "{l}");
            l["elo"].as_i64().expect("an Elo")
        })
        .collect();
    assert_eq!(elo[0], 0, "{elo:?}");
    assert!(elo.windows(2).all(|w| w[0] <= w[1]), "{elo:?}");
    assert!(elo[19] > elo[0], "{elo:?}");
    p.expect("position");
    // A weak level plays a legal move on the board; a level out of range is refused.
    p.send(json!({"type": "go", "depth": 4, "level": 3}));
    let best = p.expect("bestmove");
    let pos = p.expect("position");
    assert_eq!(pos["history"][0], best["move"]);
    p.send(json!({"type": "go", "depth": 4, "level": 21}));
    let e = p.recv();
    assert_eq!(e["type"], "error", "{e}");
    assert_eq!(e["request"], "go", "{e}");
    assert!(e["message"].as_str().unwrap().contains("level 21"), "{e}");
    // The refusal changed nothing: the position is as it was.
    p.send(json!({"type": "takeback", "plies": 1}));
    assert_eq!(p.expect("position")["history"], json!([]));
}

/// `damiera book probe BOOK --fen FEN`'s moves: name, score (centi-men), depth, count.
fn probed(book: &Path, fen: &str) -> Vec<Value> {
    let out = Command::new(assert_cmd::cargo::cargo_bin("damiera"))
        .args(["book", "probe"])
        .arg(book)
        .args(["--fen", fen])
        .output()
        .expect("book probe runs");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let n = |i: usize| f[i].parse::<i64>().expect("a number");
            json!({"name": f[0], "cm": n(4), "depth": n(5), "count": n(6)})
        })
        .collect()
}

/// A position message's book moves without the fields computed from the score.
fn book_of(pos: &Value) -> Vec<Value> {
    pos["book"]
        .as_array()
        .unwrap_or_else(|| panic!("a book list: {pos}"))
        .iter()
        .map(
            |b| json!({"name": b["name"], "cm": b["cm"], "depth": b["depth"], "count": b["count"]}),
        )
        .collect()
}

#[test]
fn positions_carry_the_book_moves_and_the_engine_plays_from_the_book() {
    let dir = tempfile::tempdir().expect("temp dir");
    let book = book_build::english_book(dir.path(), 12, 2);
    let path = book.to_str().expect("a UTF-8 path");

    // A bad book, or two books of one variant: one line, exit status 2, no server.
    let bad = dir.path().join("bad.dmbk");
    std::fs::write(&bad, [b'x'; 64]).expect("written");
    for (args, says) in [
        (vec![path, bad.to_str().unwrap()], "not a DMBK"),
        (vec![path, path], "a second english book"),
    ] {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("damiera"));
        cmd.args(["serve", "--port", "0"]);
        for a in args {
            cmd.args(["--book", a]);
        }
        let out = cmd.output().expect("runs");
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("error: --book ") && err.contains(says),
            "{err}"
        );
    }

    let s = Server::start(&["--book", path]);
    let (mut p, start) = Page::open(&s);
    let fen = start["fen"].as_str().expect("a FEN");
    let moves = probed(&book, fen);
    assert_eq!(moves.len(), 7, "every move of the start is in the book");
    assert_eq!(book_of(&start), moves);
    // Each book move is one of the position's moves, with its score in men from White's view
    // (Black moves first in English: the book's +0.19 for Black is -0.19).
    for b in start["book"].as_array().unwrap() {
        assert!(names(&start).contains(&b["name"].as_str().unwrap().to_string()));
        let cm = b["cm"].as_f64().unwrap();
        assert!(
            (b["score"].as_f64().unwrap() + cm / 100.0).abs() < 1e-9,
            "{b}"
        );
        assert_eq!(b["score_text"], format!("{:+.2}", -cm / 100.0), "{b}");
    }
    // After a book move: the book's moves of the new position.
    let first = moves[0]["name"].as_str().unwrap();
    p.send(json!({"type": "move", "move": first}));
    let pos = p.expect("position");
    assert_eq!(book_of(&pos), probed(&book, pos["fen"].as_str().unwrap()));
    // The engine plays the best book move at once, and says it came from the book.
    let best_book = book_of(&pos)[0]["name"].clone();
    p.send(json!({"type": "go", "depth": 2}));
    let best = p.expect("bestmove");
    assert_eq!(best["book"], true, "{best}");
    assert_eq!(best["move"], best_book, "{best}");
    let pos = p.expect("position");
    assert_eq!(pos["history"], json!([first, best_book]));
    // Out of the book: an empty list; a variant without a book: null.
    p.send(json!({"type": "new", "variant": "english", "fen": "W:WK5,22:BK27,3"}));
    assert_eq!(p.expect("position")["book"], json!([]));
    p.send(json!({"type": "new", "variant": "russian"}));
    assert_eq!(p.expect("position")["book"], Value::Null);
    p.send(json!({"type": "go", "depth": 2}));
    assert_eq!(p.expect("bestmove")["book"], false);

    // Without --book, positions carry no book.
    let s = Server::start(&[]);
    let (_, start) = Page::open(&s);
    assert_eq!(start["book"], Value::Null);
}
