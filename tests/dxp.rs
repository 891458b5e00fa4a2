//! DXP (DamExchange) over loopback TCP: pydraughts 0.6.7's `DXPEngine` (a client written by
//! others; `tests/pydraughts/dxp_games.py`) plays complete International games against
//! `damiera dxp --listen`; `damiera dxp --connect` plays complete games against a
//! `damiera dxp --listen`; scripted bad peers get the reactions documented in docs/dxp.md.
//! Message examples are the DXP specification's (../shared/reference/protocols.md §2.2).

mod common;

use damiera::core::variant::Variant;
use damiera::engine::{Engine, MoveForm, Outcome};
use damiera::protocol::dxp::{clock_limits, fen_of, hub_form, move_message, Message};
use damiera::Color;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// A `damiera dxp --listen 127.0.0.1:0 ...` process, its port and its stdout lines.
struct Listener {
    child: Child,
    port: u16,
    lines: Receiver<String>,
}

impl Listener {
    fn start(extra: &[&str]) -> Listener {
        let mut child = Command::new(env!("CARGO_BIN_EXE_damiera"))
            .args(["dxp", "--listen", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start damiera dxp --listen");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let first = lines
            .recv_timeout(Duration::from_secs(10))
            .expect("listening line");
        let port = first
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in '{first}'"));
        Listener { child, port, lines }
    }

    /// Lines printed so far (waits up to `ms` for more).
    fn drain(&self, ms: u64) -> Vec<String> {
        let mut v = Vec::new();
        while let Ok(l) = self.lines.recv_timeout(Duration::from_millis(ms)) {
            v.push(l);
        }
        v
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A scripted peer on a raw socket.
struct Peer {
    stream: TcpStream,
}

impl Peer {
    fn connect(port: u16) -> Peer {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        Peer { stream }
    }
    fn send_raw(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).unwrap();
    }
    fn send(&mut self, text: &str) {
        self.send_raw(format!("{text}\0").as_bytes());
    }
    /// The next message (without its `\0`); panics after the read timeout.
    fn recv(&mut self) -> String {
        let mut buf = Vec::new();
        let mut byte = [0u8; 1];
        loop {
            let n = self.stream.read(&mut byte).expect("a message in time");
            assert_eq!(n, 1, "connection closed; got so far {buf:?}");
            if byte[0] == 0 {
                return String::from_utf8(buf).unwrap();
            }
            buf.push(byte[0]);
        }
    }
    /// The next message that is not a CHAT, with the CHATs seen before it.
    fn recv_skipping_chat(&mut self) -> (String, Vec<String>) {
        let mut chats = Vec::new();
        loop {
            let m = self.recv();
            if m.starts_with('C') {
                chats.push(m);
            } else {
                return (m, chats);
            }
        }
    }
}

/// A GAMEREQ from "script", damiera (the follower) playing `follower`, 1 minute, normal start.
fn gamereq(follower: char) -> String {
    format!("R01{:<32}{follower}001000A", "script")
}

#[test]
fn messages_of_the_specification() {
    let m = Message::parse("M001205250422122320").unwrap();
    assert_eq!(
        m,
        Message::Move {
            seconds: 12,
            from: 5,
            to: 25,
            captured: vec![22, 12, 23, 20]
        }
    );
    assert_eq!(m.text(), "M001205250422122320");
    let a = Message::parse("ATornado voor Windows 4.0        0").unwrap();
    assert_eq!(
        a,
        Message::GameAcc {
            name: "Tornado voor Windows 4.0".into(),
            code: 0
        }
    );
    assert_eq!(a.text(), "ATornado voor Windows 4.0        0");
    let r = Message::parse("R01Tornado voor Windows 4.0        W060065A").unwrap();
    assert_eq!(
        r,
        Message::GameReq {
            version: 1,
            name: "Tornado voor Windows 4.0".into(),
            follower: Color::White,
            minutes: 60,
            moves: 65,
            position: None
        }
    );
    assert_eq!(r.text(), "R01Tornado voor Windows 4.0        W060065A");
    assert_eq!(
        Message::parse("B005Z").unwrap(),
        Message::BackReq {
            number: 5,
            color: Color::Black
        }
    );
    assert_eq!(
        Message::parse("E21").unwrap(),
        Message::GameEnd { reason: 2, stop: 1 }
    );
    assert_eq!(Message::parse("K1").unwrap(), Message::BackAcc { code: 1 });
    assert_eq!(
        Message::parse("CWhat do you think about move 35?").unwrap(),
        Message::Chat("What do you think about move 35?".into())
    );
    // pydraughts' GAMEREQ for the start position (protocols.md §2.5).
    let squares = format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20));
    let text = format!("R01{:<32}Z005075BW{squares}", "DXP Client");
    match Message::parse(&text).unwrap() {
        Message::GameReq {
            position: Some((side, sq)),
            minutes: 5,
            moves: 75,
            follower: Color::Black,
            ..
        } => assert_eq!(fen_of(side, &sq), "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"),
        other => panic!("{other:?}"),
    }
    // Malformed: each one error, naming the message.
    for bad in [
        "",
        "X12",
        "M0012052504221223",
        "M00120552",
        "M0012059900",
        "E4",
        "E41",
        "R02short",
        "B05Z",
        "K",
    ] {
        assert!(Message::parse(bad).is_err(), "{bad:?} parsed");
    }
    // pydraughts' 8x8 GAMEREQ (32 squares) is not a DXP game.
    let eight = format!("R01{:<32}Z005075BZ{}", "DXP Client", "z".repeat(32));
    let e = Message::parse(&eight).unwrap_err();
    assert!(e.starts_with("GAMEREQ") && e.contains("32 squares"), "{e}");
}

#[test]
fn the_clock_of_a_gamereq() {
    // 1 minute for the whole game, nothing used: 60,000 ms, sudden death.
    let l = clock_limits(1, 0, 0, 0, None);
    assert_eq!(
        (l.time, l.movestogo, l.movetime),
        (Some(60_000), None, None)
    );
    // 2 minutes for a game of 40 moves, 39 made and 100 s used: 20 s for the last move.
    let l = clock_limits(2, 40, 39, 100_000, None);
    assert_eq!((l.time, l.movestogo), (Some(20_000), Some(1)));
    // The move count is the game's length, not a period: no new time after it.
    let l = clock_limits(2, 40, 40, 119_000, None);
    assert_eq!((l.time, l.movestogo), (Some(1_000), Some(1)));
    // --movetime overrides; 0 minutes without it: 1 s a move.
    assert_eq!(clock_limits(5, 0, 0, 0, Some(25)).movetime, Some(25));
    assert_eq!(clock_limits(0, 0, 0, 0, None).movetime, Some(1000));
}

#[test]
fn pydraughts_dxpengine_plays_complete_games() {
    // The follower takes its clock from pydraughts' GAMEREQ: 1 minute for the game.
    let listener = Listener::start(&[]);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pydraughts/dxp_games.py");
    let out = Command::new(common::python())
        .arg(script)
        .arg(listener.port.to_string())
        .args(["--games", "2", "--initial-time", "60"])
        .output()
        .expect("run dxp_games.py");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    eprintln!("{text}");
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.lines().filter(|l| l.contains(" plies ")).count(), 2);
    let log = listener.drain(500);
    eprintln!("{}", log.join("\n"));
    let accepted: Vec<_> = log
        .iter()
        .filter(|l| l.starts_with("game accepted from DXP Client"))
        .collect();
    assert_eq!(accepted.len(), 2, "{log:?}");
    assert!(
        accepted[0].contains("plays white, 1 min"),
        "{}",
        accepted[0]
    );
    assert!(
        accepted[1].contains("plays black, 1 min"),
        "{}",
        accepted[1]
    );
    // Both games ended by GAMEEND on damiera's side too.
    assert_eq!(
        log.iter()
            .filter(|l| l.starts_with("game over after"))
            .count(),
        2,
        "{log:?}"
    );
}

fn connect(port: u16, extra: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(["dxp", "--connect", &format!("127.0.0.1:{port}")])
        .args(extra)
        .output()
        .expect("run damiera dxp --connect");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn connect_plays_complete_games_against_listen() {
    let listener = Listener::start(&["--movetime", "20"]);
    // The normal start, damiera-initiator White, then a FEN with Black to move and the
    // initiator Black.
    let games: [&[&str]; 2] = [
        &["--movetime", "20", "--time", "1", "--moves", "50"],
        &[
            "--movetime",
            "20",
            "--color",
            "black",
            "--fen",
            "B:W27,28,32,33,36,37,38,41,42,43,46,47,48:B6,7,8,11,12,13,16,17,18,19,22,23,24",
        ],
    ];
    for (i, args) in games.iter().enumerate() {
        let (ok, text) = connect(listener.port, args);
        assert!(ok, "{text}");
        let result = text
            .lines()
            .find_map(|l| l.strip_prefix("result: "))
            .unwrap_or_else(|| panic!("no result line: {text}"))
            .to_string();
        assert!(!result.starts_with('*'), "game {i} unfinished: {text}");
        let log = listener.drain(1000);
        let over = log
            .iter()
            .find(|l| l.starts_with("game over after"))
            .unwrap_or_else(|| panic!("the follower saw no end: {log:?}"));
        // Both sides agree on the result.
        let score = &result[..3];
        assert!(over.contains(score), "initiator {result}, follower {over}");
        let expect = if i == 0 {
            "plays black, 1 min for 50 moves"
        } else {
            "plays white, 5 min for all moves, from B:"
        };
        assert!(log.iter().any(|l| l.contains(expect)), "{log:?}");
    }
}

#[test]
fn connect_reports_a_refused_or_absent_follower() {
    // Nobody listening on this port (bound then released): an error, not a hang.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (ok, text) = connect(port, &["--movetime", "10"]);
    assert!(!ok);
    assert!(text.contains("error: cannot connect"), "{text}");
    let (ok, text) = connect(port, &["--fen", "W:W99:B1"]);
    assert!(!ok);
    assert!(text.starts_with("error: --fen"), "{text}");
}

#[test]
fn bad_peers_get_the_documented_reactions() {
    let listener = Listener::start(&["--movetime", "20"]);

    // Garbage and an over-long message: a CHAT error each, and the follower goes on.
    let mut p = Peer::connect(listener.port);
    p.send("Xhello");
    let m = p.recv();
    assert!(
        m.starts_with("Cerror: malformed message: unknown message type 'X'"),
        "{m}"
    );
    p.send_raw(&[b'C'; 5000]);
    p.send_raw(b"\0");
    let m = p.recv();
    assert!(m.starts_with("Cerror: malformed message:"), "{m}");
    // A MOVE outside a game.
    p.send("M0000312600");
    assert!(p.recv().starts_with("Cerror: MOVE outside a game"));
    // An 8x8 GAMEREQ (pydraughts' non-standard form): refused with code 2.
    p.send(&format!(
        "R01{:<32}Z005075BZ{}",
        "DXP Client",
        "z".repeat(32)
    ));
    let (m, chats) = p.recv_skipping_chat();
    assert!(m.starts_with('A') && m.ends_with('2'), "{m}");
    assert!(chats.iter().any(|c| c.contains("32 squares")), "{chats:?}");
    // A version we do not speak: code 1.
    p.send(&format!("R02{:<32}Z001000A", "script"));
    let m = p.recv();
    assert!(m.starts_with("Adamiera") && m.ends_with('1'), "{m}");

    // An illegal move ends the game: a CHAT, then GAMEEND "I win"; our answer closes it.
    p.send(&gamereq('Z'));
    let m = p.recv();
    assert!(m.starts_with("Adamiera") && m.ends_with('0'), "{m}");
    p.send("M0000312200");
    let (m, chats) = p.recv_skipping_chat();
    assert_eq!(m, "E30");
    assert!(
        chats.iter().any(|c| c.contains("illegal move 31-22")),
        "{chats:?}"
    );
    p.send("E10");

    // A new game on the same connection; damiera is White and moves first.
    p.send(&gamereq('W'));
    assert!(p.recv().ends_with('0'));
    let first = p.recv();
    assert!(first.starts_with('M'), "{first}");
    // Black replies (no capture is possible yet); damiera moves again.
    p.send("M0000162100");
    let second = p.recv();
    assert!(second.starts_with('M'), "{second}");
    // Take back to move 1 with White to move: accepted, and damiera moves again.
    p.send("B001W");
    assert_eq!(p.recv(), "K0");
    let again = p.recv();
    assert!(again.starts_with('M'), "{again}");
    // A take-back beyond the game: refused.
    p.send("B009Z");
    assert_eq!(p.recv(), "K1");
    // CHAT is accepted at any time; GAMEEND from us gets damiera's GAMEEND (no result yet).
    p.send("Chello");
    p.send("E01");
    assert_eq!(p.recv(), "E01");
    drop(p);

    // A dropped connection in the middle of a game: the follower serves the next one.
    let mut p = Peer::connect(listener.port);
    p.send(&gamereq('W'));
    assert!(p.recv().ends_with('0'));
    assert!(p.recv().starts_with('M'));
    drop(p);
    let mut p = Peer::connect(listener.port);
    p.send(&gamereq('Z'));
    assert!(p.recv().ends_with('0'));
    // A malformed MOVE on the peer's turn ends the game like an illegal one.
    p.send("M00003126");
    let (m, _) = p.recv_skipping_chat();
    assert_eq!(m, "E30");
    drop(p);
    let log = listener.drain(500);
    assert!(
        log.iter()
            .any(|l| l.contains("connection was closed during the game")),
        "{log:?}"
    );
}

#[test]
fn match_plays_an_engine_over_dxp() {
    let listener = Listener::start(&["--movetime", "20"]);
    let out = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(["match", "--variant", "international"])
        .args(["--engine", &format!("127.0.0.1:{}", listener.port)])
        .args(["--engine-protocol", "dxp", "--name", "over-dxp"])
        .args([
            "--engine",
            env!("CARGO_BIN_EXE_damiera"),
            "--name",
            "native",
        ])
        .args([
            "--random-openings",
            "2",
            "--opening-plies",
            "4",
            "--seed",
            "3",
        ])
        .args(["--games", "2", "--movetime", "20"])
        .output()
        .expect("run damiera match");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{text}\n{err}");
    assert!(text.contains("Games: 2 of 2"), "{text}");
    let endings = text
        .lines()
        .find(|l| l.starts_with("Endings:"))
        .unwrap_or_default()
        .to_string();
    for bad in ["crash", "illegal", "time", "no answer"] {
        assert!(!endings.contains(bad), "{endings}\n{err}");
    }
    // The follower saw both games to their end, with the match's results.
    let log = listener.drain(1000);
    let overs: Vec<&String> = log
        .iter()
        .filter(|l| l.starts_with("game over after"))
        .collect();
    assert_eq!(overs.len(), 2, "{log:?}");
    for (over, game) in overs
        .iter()
        .zip(err.lines().filter(|l| l.starts_with("game ")))
    {
        let score = game
            .split_whitespace()
            .find(|w| ["2-0", "0-2", "1-1"].contains(w))
            .unwrap_or_else(|| panic!("no score in {game}"));
        assert!(over.contains(score), "match: {game}; follower: {over}");
    }
}

/// How a [`ScriptedFollower`] behaves besides playing the first legal move.
#[derive(Clone, Copy, Default)]
struct Script {
    /// After this many of its own moves, on its turn: GAMEEND with this reason, then the CHAT
    /// Moby Dam sends ("gameend sent due to all N moves completed", ../shared/reference/
    /// protocols.md §8.3).
    end_after: Option<(u32, u8)>,
}

/// A DXP follower scripted here, for `damiera match` and `damiera dxp --connect`: it accepts
/// every GAMEREQ, plays the first legal move (damiera's move order), ends a game the rules end
/// on its turn with GAMEEND (`1` no legal move, `2` a draw, as Moby Dam does) or as its
/// [`Script`] says, and answers a GAMEEND with reason `0` and the same stop code (Moby Dam).
/// Its log: `GAMEREQ M min N moves`, `sent GAMEEND R`, `GAMEEND R from the initiator` (the
/// initiator ended the game) and `GAMEEND R answer` (the answer to ours).
struct ScriptedFollower {
    port: u16,
    log: Receiver<String>,
}

struct ScriptedGame {
    fen: String,
    moves: Vec<String>,
    us: Color,
    own: u32,
    ended: bool,
}

fn read_message(stream: &mut TcpStream) -> Option<String> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        match stream.read(&mut byte) {
            Ok(1) if byte[0] == 0 => return Some(String::from_utf8_lossy(&buf).into_owned()),
            Ok(1) => buf.push(byte[0]),
            _ => return None,
        }
    }
}

fn write_message(stream: &mut TcpStream, text: &str) {
    let _ = stream.write_all(format!("{text}\0").as_bytes());
}

impl ScriptedFollower {
    fn start(script: Script) -> ScriptedFollower {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let (tx, log) = mpsc::channel();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let tx = tx.clone();
                std::thread::spawn(move || Self::serve(&mut stream, script, &tx));
            }
        });
        ScriptedFollower { port, log }
    }

    fn serve(stream: &mut TcpStream, script: Script, tx: &mpsc::Sender<String>) {
        let mut game: Option<ScriptedGame> = None;
        while let Some(text) = read_message(stream) {
            match Message::parse(&text) {
                Ok(Message::GameReq {
                    follower,
                    minutes,
                    moves,
                    position,
                    ..
                }) => {
                    let _ = tx.send(format!("GAMEREQ {minutes} min {moves} moves"));
                    let fen = match position {
                        Some((side, squares)) => fen_of(side, &squares),
                        None => "W:W31-50:B1-20".to_string(),
                    };
                    write_message(stream, &format!("A{:<32}0", "scripted"));
                    let mut g = ScriptedGame {
                        fen,
                        moves: Vec::new(),
                        us: follower,
                        own: 0,
                        ended: false,
                    };
                    Self::act(stream, &mut g, script, tx);
                    game = Some(g);
                }
                Ok(Message::Move {
                    from, to, captured, ..
                }) => {
                    let Some(g) = game.as_mut() else { continue };
                    let e = Self::engine(g);
                    let want = hub_form(from, to, &captured);
                    let i = e
                        .legal_moves(MoveForm::Hub)
                        .iter()
                        .position(|m| *m == want)
                        .unwrap_or_else(|| panic!("illegal move {want} in {}", e.fen()));
                    g.moves.push(e.legal_moves(MoveForm::Native)[i].clone());
                    Self::act(stream, g, script, tx);
                }
                Ok(Message::GameEnd { reason, stop }) => {
                    match game.take() {
                        Some(g) if g.ended => {
                            let _ = tx.send(format!("GAMEEND {reason} answer"));
                        }
                        _ => {
                            let _ = tx.send(format!("GAMEEND {reason} from the initiator"));
                            write_message(stream, &format!("E0{stop}"));
                        }
                    }
                    if stop == 1 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    fn engine(g: &ScriptedGame) -> Engine {
        let mut e = Engine::new(Variant::International, 1);
        let refs: Vec<&str> = g.moves.iter().map(String::as_str).collect();
        e.set_position(Some(&g.fen), &refs).unwrap();
        e
    }

    fn act(
        stream: &mut TcpStream,
        g: &mut ScriptedGame,
        script: Script,
        tx: &mpsc::Sender<String>,
    ) {
        let e = Self::engine(g);
        if g.ended || e.side_to_move() != g.us {
            return;
        }
        let end = match e.outcome() {
            Some(Outcome::Win(c, _)) => Some(if c == g.us { 3 } else { 1 }),
            Some(Outcome::Draw(_)) => Some(2),
            None => None,
        };
        if let Some(r) = end {
            write_message(stream, &format!("E{r}0"));
            g.ended = true;
            let _ = tx.send(format!("sent GAMEEND {r}"));
            return;
        }
        if let Some((n, r)) = script.end_after {
            if g.own >= n {
                write_message(stream, &format!("E{r}0"));
                write_message(
                    stream,
                    &format!("Cgameend sent due to all {n} moves completed, reason={r}"),
                );
                g.ended = true;
                let _ = tx.send(format!("sent GAMEEND {r}"));
                return;
            }
        }
        let hub = e.legal_moves(MoveForm::Hub)[0].clone();
        let native = e.legal_moves(MoveForm::Native)[0].clone();
        write_message(stream, &move_message(&hub, 0).unwrap().text());
        g.moves.push(native);
        g.own += 1;
    }

    /// The log lines so far (waits up to `ms` for each next one).
    fn drain(&self, ms: u64) -> Vec<String> {
        let mut v = Vec::new();
        while let Ok(l) = self.log.recv_timeout(Duration::from_millis(ms)) {
            v.push(l);
        }
        v
    }
}

/// `damiera match` with the engines given as extra arguments, in a temporary directory with
/// `openings` as its openings file; returns (success, report, stderr, PDN).
fn run_match(engines: &[&str], openings: &str, extra: &[&str]) -> (bool, String, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("openings.txt");
    std::fs::write(&book, openings).unwrap();
    let pdn = dir.path().join("games.pdn");
    let out = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(["match", "--variant", "international"])
        .args(engines)
        .args(["--openings", book.to_str().unwrap()])
        .args(["--pdn", pdn.to_str().unwrap()])
        .args(extra)
        .output()
        .expect("run damiera match");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        std::fs::read_to_string(&pdn).unwrap_or_default(),
    )
}

fn report_field<'a>(report: &'a str, prefix: &str) -> &'a str {
    report
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no '{prefix}' in:\n{report}"))
}

#[test]
fn match_scores_a_peers_gameend_by_the_rules_not_as_a_crash() {
    // Moby Dam ends the game with GAMEEND 0 and a CHAT when its move count is reached; a
    // resignation (1) loses; a claimed win (3) the rules do not give is a draw. The match
    // answers each with the result it scored, and asks for a move count that its own
    // --max-plies reaches first: 30 plies, 15 moves a side, 1 minute (20 ms × 15, rounded up).
    for (reason, wdl, ending, answer) in [
        (0, "W 0 D 2 L 0", "peer ended the game 2", 2),
        (1, "W 0 D 0 L 2", "resignation 2", 3),
        (3, "W 0 D 2 L 0", "peer ended the game 2", 2),
    ] {
        let peer = ScriptedFollower::start(Script {
            end_after: Some((2, reason)),
        });
        let addr = format!("127.0.0.1:{}", peer.port);
        let engines = [
            "--engine",
            &addr,
            "--engine-protocol",
            "dxp",
            "--name",
            "peer",
            "--engine",
            env!("CARGO_BIN_EXE_damiera"),
            "--name",
            "damiera",
        ];
        let (ok, report, err, pdn) = run_match(
            &engines,
            "32-28 17-21\n",
            &["--games", "2", "--movetime", "20", "--max-plies", "30"],
        );
        assert!(ok, "{report}\n{err}");
        assert_eq!(
            report_field(&report, "Results (peer first): "),
            wdl,
            "{report}"
        );
        assert_eq!(
            report_field(&report, "Endings: "),
            ending,
            "{report}\n{pdn}"
        );
        let note = format!("DXP GAMEEND reason {reason} (");
        assert_eq!(pdn.matches(&note).count(), 2, "{pdn}");
        assert_eq!(
            pdn.matches("after 2 of its moves (GAMEREQ: 15 moves)")
                .count(),
            2,
            "{pdn}"
        );
        let log = peer.drain(500);
        assert_eq!(
            log.iter()
                .filter(|l| *l == "GAMEREQ 1 min 15 moves")
                .count(),
            2,
            "{log:?}"
        );
        let answers: Vec<&String> = log.iter().filter(|l| l.ends_with(" answer")).collect();
        assert_eq!(
            answers,
            [
                &format!("GAMEEND {answer} answer"),
                &format!("GAMEEND {answer} answer")
            ],
            "{log:?}"
        );
    }
}

#[test]
fn match_sends_the_result_in_its_gameend() {
    // Two scripted followers play each other through the match (first legal moves, so the
    // games are known): from W:W33:B19 White wins in 3 plies (33-29 19-24 29x20), from
    // W:W38:B27 the game is drawn after 23 plies by the endgame rule (king against king, 5
    // moves each: FMJD 6.4; the no-progress rule needs 50 plies). The match plays the
    // follower's opponent, so its GAMEEND says "I lose" (1) to the winner, "I win" (3) to the
    // loser, "draw" (2) to both; Scan 2.0 logs reason 0 as a draw.
    let a = ScriptedFollower::start(Script::default());
    let b = ScriptedFollower::start(Script::default());
    let (addr_a, addr_b) = (
        format!("127.0.0.1:{}", a.port),
        format!("127.0.0.1:{}", b.port),
    );
    let engines = [
        "--engine",
        &addr_a,
        "--engine-protocol",
        "dxp",
        "--name",
        "a",
        "--engine",
        &addr_b,
        "--engine-protocol",
        "dxp",
        "--name",
        "b",
    ];
    let (ok, report, err, pdn) = run_match(
        &engines,
        "W:W33:B19\nW:W38:B27\n",
        &["--games", "4", "--movetime", "20"],
    );
    assert!(ok, "{report}\n{err}");
    assert_eq!(report_field(&report, "Results (a first): "), "W 1 D 2 L 1");
    assert_eq!(
        report_field(&report, "Endings: "),
        "no legal move 2, endgame rule 2",
        "{pdn}"
    );
    let reasons = |log: Vec<String>| -> Vec<u8> {
        log.iter()
            .filter_map(|l| l.strip_prefix("GAMEEND "))
            .map(|l| l[..1].parse().unwrap())
            .collect()
    };
    // a: White and winner in game 1, Black and loser in game 2, then two draws.
    assert_eq!(reasons(a.drain(500)), [1, 3, 2, 2]);
    assert_eq!(reasons(b.drain(500)), [3, 1, 2, 2]);
}

#[test]
fn match_refuses_two_connections_to_one_dxp_follower() {
    // Nothing listens there: the refusal comes before any connection.
    for extra in [
        &[
            "--engine",
            "127.0.0.1:9",
            "--engine-protocol",
            "dxp",
            "--engine",
            env!("CARGO_BIN_EXE_damiera"),
            "--concurrency",
            "2",
        ][..],
        &[
            "--engine",
            "127.0.0.1:9",
            "--engine-protocol",
            "dxp",
            "--engine",
            "127.0.0.1:9",
            "--engine-protocol",
            "dxp",
        ][..],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_damiera"))
            .args(["match", "--variant", "international"])
            .args(extra)
            .args(["--random-openings", "1", "--opening-plies", "2"])
            .args(["--games", "2", "--movetime", "20"])
            .output()
            .expect("run damiera match");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("error: ")
                && err.contains("127.0.0.1:9, which plays one game at a time"),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn connect_sends_the_result_and_ends_at_the_move_count() {
    let peer = ScriptedFollower::start(Script::default());
    // damiera White takes the last black man; the follower, out of moves, says "I lose"
    // and gets "I win".
    let (ok, text) = connect(
        peer.port,
        &["--movetime", "20", "--fen", "W:W28:B23", "--color", "white"],
    );
    assert!(ok && text.contains("result: 2-0 (no legal move)"), "{text}");
    assert_eq!(
        peer.drain(500),
        [
            "GAMEREQ 5 min 0 moves",
            "sent GAMEEND 1",
            "GAMEEND 3 answer"
        ]
    );
    // The follower takes damiera's last man: damiera, out of moves, says "I lose".
    let (ok, text) = connect(
        peer.port,
        &["--movetime", "20", "--fen", "W:W28:B23", "--color", "black"],
    );
    assert!(ok && text.contains("result: 2-0 (no legal move)"), "{text}");
    assert_eq!(
        peer.drain(500),
        ["GAMEREQ 5 min 0 moves", "GAMEEND 1 from the initiator"]
    );
    // A game of 2 moves: after its second move and the follower's, damiera ends it, a draw
    // (GAMEEND 2), instead of starting a new period; stderr shows every move.
    let (ok, text) = connect(
        peer.port,
        &["--movetime", "20", "--time", "1", "--moves", "2"],
    );
    assert!(
        ok && text.contains("result: 1-1 (move limit: 2 moves)"),
        "{text}"
    );
    assert_eq!(
        peer.drain(500),
        ["GAMEREQ 1 min 2 moves", "GAMEEND 2 from the initiator"]
    );
    let plies: Vec<&str> = text.lines().filter(|l| l.starts_with("ply ")).collect();
    assert_eq!(plies.len(), 4, "{text}");
    for (i, l) in plies.iter().enumerate() {
        let color = if i % 2 == 0 { "white" } else { "black" };
        assert!(l.starts_with(&format!("ply {}: ", i + 1)), "{l}");
        assert!(
            l.contains(&format!(" ({color}, ")) && l.ends_with(" s)"),
            "{l}"
        );
    }
}

/// A GAMEREQ from "script" for a game of `moves` moves in `minutes`, damiera (the follower)
/// playing `follower`, from black men on 1-5 and white men on 46-50, White to move.
fn far_apart_gamereq(follower: char, minutes: u32, moves: u32) -> String {
    let squares = format!("{}{}{}", "z".repeat(5), "e".repeat(40), "w".repeat(5));
    format!(
        "R01{:<32}{follower}{minutes:03}{moves:03}BW{squares}",
        "script"
    )
}

#[test]
fn listen_ends_at_the_move_count_and_answers_gameends_with_its_result() {
    let listener = Listener::start(&["--movetime", "20"]);
    let mut p = Peer::connect(listener.port);
    // A game of 2 moves: damiera (White) ends it on its turn after 2 moves each, a draw, with
    // the CHAT after the GAMEEND (Moby Dam's order); no new period begins.
    p.send(&far_apart_gamereq('W', 1, 2));
    assert!(p.recv().ends_with('0'));
    assert!(p.recv().starts_with('M'));
    p.send("M0000010600");
    assert!(p.recv().starts_with('M'));
    p.send("M0000020800");
    assert_eq!(p.recv(), "E20");
    let chat = p.recv();
    assert_eq!(
        chat,
        "Cgame ended: all 2 moves played, a draw by the game's length"
    );
    p.send("E00");
    // The opponent resigns (1): damiera answers "I win" (3).
    p.send(&far_apart_gamereq('Z', 1, 0));
    assert!(p.recv().ends_with('0'));
    p.send("M0000464100");
    assert!(p.recv().starts_with('M'));
    p.send("E10");
    assert_eq!(p.recv(), "E30");
    // A claimed win (3) the rules do not give: "no reason" (0); a draw (2) is accepted.
    for (claim, answer) in [("E30", "E00"), ("E20", "E20")] {
        p.send(&far_apart_gamereq('Z', 1, 0));
        assert!(p.recv().ends_with('0'));
        p.send(claim);
        assert_eq!(p.recv(), answer, "answer to {claim}");
    }
    drop(p);
    let log = listener.drain(500);
    let overs: Vec<&String> = log
        .iter()
        .filter(|l| l.starts_with("game over after"))
        .collect();
    assert_eq!(overs.len(), 4, "{log:?}");
    assert!(
        overs[0].contains("1-1 (move limit: 2 moves)"),
        "{}",
        overs[0]
    );
    assert!(
        overs[1].contains("0-2 (the opponent resigned)"),
        "{}",
        overs[1]
    );
    assert!(
        overs[2].contains("* (the opponent claimed a win"),
        "{}",
        overs[2]
    );
    assert!(
        overs[3].contains("1-1 (a draw by the opponent's GAMEEND)"),
        "{}",
        overs[3]
    );
}

#[test]
fn a_non_ascii_gamereq_is_refused() {
    let listener = Listener::start(&["--movetime", "20"]);
    let mut p = Peer::connect(listener.port);
    // UTF-8, then Latin-1 (not UTF-8 at all): a CHAT naming the fault and GAMEACC code 2, so
    // the initiator does not wait.
    let utf8 = format!("R01{:<32}Z001000A", "Dämon");
    let mut latin1 = format!("R01{:<32}Z001000A", "Dxmon").into_bytes();
    latin1[4] = 0xE4;
    latin1.push(0);
    for bytes in [format!("{utf8}\0").into_bytes(), latin1] {
        p.send_raw(&bytes);
        let (m, chats) = p.recv_skipping_chat();
        assert!(m.starts_with("Adamiera") && m.ends_with('2'), "{m}");
        assert!(
            chats.iter().any(|c| c.contains("GAMEREQ: not ASCII")),
            "{chats:?}"
        );
    }
    // The session goes on: a good GAMEREQ is accepted.
    p.send(&gamereq('Z'));
    assert!(p.recv().ends_with('0'));
}

/// Reads until the connection closes; true if it does before the read timeout.
fn closes(p: &mut Peer) -> bool {
    let mut buf = [0u8; 64];
    loop {
        match p.stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(_) => return false,
        }
    }
}

#[test]
fn a_silent_connection_blocks_nobody_and_is_closed() {
    let listener = Listener::start(&["--movetime", "20", "--idle-timeout", "3"]);
    // A connection that sends nothing, then an initiator: it is served at once.
    let mut silent = Peer::connect(listener.port);
    let (ok, text) = connect(listener.port, &["--movetime", "20", "--fen", "W:W28:B23"]);
    assert!(ok && text.contains("result: 2-0"), "{text}");
    // The silent one is told and closed after its idle timeout, after the other game.
    assert_eq!(
        silent.recv(),
        "Cerror: nothing from the peer in 3 s: connection closed"
    );
    assert!(closes(&mut silent));
    let log = listener.drain(500);
    let accepted = log
        .iter()
        .position(|l| l.starts_with("game accepted from damiera"));
    let dropped = log
        .iter()
        .position(|l| l.contains("nothing from the peer in 3 s"));
    assert!(
        accepted.is_some() && dropped.is_some() && accepted < dropped,
        "{log:?}"
    );
    // In a game, on the peer's turn: the idle timeout plus the peer's thinking time (0 min).
    let mut p = Peer::connect(listener.port);
    p.send(&far_apart_gamereq('W', 0, 0));
    assert!(p.recv().ends_with('0'));
    assert!(p.recv().starts_with('M'));
    assert_eq!(
        p.recv(),
        "Cerror: nothing from the peer in 3 s: connection closed"
    );
    assert!(closes(&mut p));
}

#[test]
fn the_idle_timeout_does_not_run_while_damiera_thinks() {
    // 1.5 s a move and a 1 s idle timeout: the first move comes, then the peer's silence ends
    // the connection.
    let listener = Listener::start(&["--movetime", "1500", "--idle-timeout", "1"]);
    let mut p = Peer::connect(listener.port);
    p.send(&far_apart_gamereq('W', 0, 0));
    assert!(p.recv().ends_with('0'));
    let m = p.recv();
    assert!(m.starts_with('M'), "{m}");
    assert_eq!(
        p.recv(),
        "Cerror: nothing from the peer in 1 s: connection closed"
    );
    assert!(closes(&mut p));
}

/// The messages the follower still sends, then how the connection ends: `Ok(())` for a clean
/// end (EOF), the error otherwise (`ConnectionReset` for a reset, `WouldBlock`/`TimedOut` when
/// it stays open past the read timeout).
fn rest_and_end(p: &mut Peer) -> (Vec<String>, Result<(), std::io::ErrorKind>) {
    let mut bytes = Vec::new();
    let mut buf = [0u8; 4096];
    let end = loop {
        match p.stream.read(&mut buf) {
            Ok(0) => break Ok(()),
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            Err(e) => break Err(e.kind()),
        }
    };
    let text = String::from_utf8_lossy(&bytes).to_string();
    let messages = text
        .split('\0')
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect();
    (messages, end)
}

/// Waits (at most 10 s) until the follower has printed `n` lines starting with `prefix` in
/// all, counting those already in `log`; appends what it reads to `log`.
fn wait_for_lines(listener: &Listener, log: &mut Vec<String>, prefix: &str, n: usize) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while log.iter().filter(|l| l.starts_with(prefix)).count() < n {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match listener.lines.recv_timeout(left) {
            Ok(l) => log.push(l),
            Err(_) => panic!("fewer than {n} lines '{prefix}...' in {log:?}"),
        }
    }
}

#[test]
fn connections_over_the_cap_are_refused_cleanly() {
    // Issue 77: a connection over the cap of 8 that had sent messages before it was read was
    // reset (closed with unread input), so the peer could lose the refusal.
    let listener = Listener::start(&["--movetime", "20"]);
    let mut log = Vec::new();
    let held: Vec<Peer> = (0..8).map(|_| Peer::connect(listener.port)).collect();
    wait_for_lines(&listener, &mut log, "connection from", 8);
    for _ in 0..3 {
        // Garbage and a GAMEREQ at once, before the follower has said anything.
        let mut p = Peer::connect(listener.port);
        p.stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        p.send_raw(format!("Xjunk\0{}\0", gamereq('Z')).as_bytes());
        let (m, end) = rest_and_end(&mut p);
        assert_eq!(end, Ok(()), "a clean end, not a reset; got {m:?}");
        // The CHAT, then GAMEACC code 2 (refused) to the GAMEREQ.
        assert_eq!(m.len(), 2, "{m:?}");
        assert_eq!(m[0], "Cerror: 8 connections open already; try again later");
        assert!(m[1].starts_with("Adamiera") && m[1].ends_with('2'), "{m:?}");
    }
    // The peer reads the refusal first, then sends more: the end is clean all the same.
    let mut p = Peer::connect(listener.port);
    p.stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    p.send(&gamereq('Z'));
    assert_eq!(
        p.recv(),
        "Cerror: 8 connections open already; try again later"
    );
    let acc = p.recv();
    assert!(acc.starts_with("Adamiera") && acc.ends_with('2'), "{acc}");
    p.send("Chello");
    p.send(&gamereq('W'));
    let (m, end) = rest_and_end(&mut p);
    assert_eq!((m, end), (Vec::new(), Ok(())));
    // A silent one: the CHAT, then the end after the follower's wait (2 s).
    let mut silent = Peer::connect(listener.port);
    silent
        .stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let (m, end) = rest_and_end(&mut silent);
    assert_eq!(end, Ok(()));
    assert_eq!(m.len(), 1, "{m:?}");
    // `damiera dxp --connect` is told so: it exits 1 naming the refusal.
    let (ok, text) = connect(listener.port, &["--movetime", "20"]);
    assert!(!ok && text.contains("GAMEACC code 2"), "{text}");
    wait_for_lines(&listener, &mut log, "connection from", 14);
    assert_eq!(
        log.iter()
            .filter(|l| l.contains("refused: 8 connections open"))
            .count(),
        6,
        "{log:?}"
    );
    // Once the held connections close, a new one is served.
    drop(held);
    wait_for_lines(&listener, &mut log, "connection closed", 8);
    let mut p = Peer::connect(listener.port);
    p.send(&gamereq('Z'));
    let acc = p.recv();
    assert!(acc.starts_with("Adamiera") && acc.ends_with('0'), "{acc}");
}

#[test]
fn over_long_messages_are_reported_and_the_follower_goes_on() {
    let listener = Listener::start(&["--movetime", "20"]);
    // 5,000 bytes without a `\0`, then a GAMEREQ: reported once; the GAMEREQ is part of the
    // skipped bytes (up to the next `\0`), so it gets no answer; the next one is answered.
    let mut p = Peer::connect(listener.port);
    p.send_raw(&[b'C'; 5000]);
    p.send(&gamereq('Z'));
    assert_eq!(
        p.recv(),
        "Cerror: malformed message: message longer than 127 characters (no \\0 in 4096 bytes)"
    );
    p.send(&gamereq('Z'));
    let acc = p.recv();
    assert!(acc.starts_with("Adamiera") && acc.ends_with('0'), "{acc}");
    // The peer ends the game and the session (stop code 1) and goes on talking: the follower
    // answers and closes, and the peer reads the end of the connection, not a reset.
    p.send_raw(b"E01\0Chello\0Xjunk\0");
    let (m, end) = rest_and_end(&mut p);
    assert_eq!(m, vec!["E01".to_string()]);
    assert_eq!(end, Ok(()));
    drop(p);
    // A MiB without a `\0`, then the peer closes its side: the report, then a clean end.
    let mut p = Peer::connect(listener.port);
    p.send_raw(&vec![b'M'; 1 << 20]);
    p.stream.shutdown(std::net::Shutdown::Write).unwrap();
    let (m, end) = rest_and_end(&mut p);
    assert_eq!(end, Ok(()));
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].contains("longer than 127 characters"), "{m:?}");
    // A new connection is served.
    let mut p = Peer::connect(listener.port);
    p.send(&gamereq('Z'));
    let acc = p.recv();
    assert!(acc.starts_with("Adamiera") && acc.ends_with('0'), "{acc}");
}
