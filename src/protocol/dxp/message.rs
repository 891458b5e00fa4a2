//! The DXP wire codec: [`Message`], parsed from and printed to its text with fixed-width
//! fields. Nothing here reads or writes a connection (`io.rs` does).
//!
//! Messages (`../shared/reference/protocols.md` §2, after the DXP specification and Scan 3.1's
//! dxp.cpp): 1 to 127 ASCII characters, each followed by a `\0`; the first character names the
//! message, the fields after it have fixed widths and zero-padded decimals:
//! - `R` GAMEREQ: version `01`, initiator name (32), follower color `W`/`Z`, thinking time in
//!   minutes (3), number of moves (3, the game's length; `000`: no limit), `A` (the start
//!   position, White to move) or `B` followed by the color to move and 50 squares
//!   (`e w z W Z`);
//! - `A` GAMEACC: follower name (32), code (`0` accepted, `1` version not supported, `2` not
//!   this game, `3` no games);
//! - `M` MOVE: seconds used (4), from (2), to (2), number captured (2), captured squares (2
//!   each);
//! - `E` GAMEEND: reason (`0` none, `1` I lose, `2` draw, `3` I win), stop code (`0` another
//!   game is welcome, `1` no more games);
//! - `C` CHAT: free text; `B` BACKREQ: move number (3), color to move; `K` BACKACC: code
//!   (`0` yes, `1` no, `2` continue the game).

use crate::core::rules::Color;

/// The longest message, in characters, without its `\0` (DXP specification).
pub const MAX_MESSAGE: usize = 127;

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R`: a game request from the initiator.
    GameReq {
        /// Protocol version (`01`).
        version: u32,
        /// The initiator's name (trimmed).
        name: String,
        /// The color the follower plays.
        follower: Color,
        /// Thinking time per player, in minutes.
        minutes: u32,
        /// The game's length in moves a side (0: no limit): Moby Dam and Scan end the game
        /// there, and so does damiera (docs/dxp.md).
        moves: u32,
        /// The start position: `None` for the normal start (White to move), or the side to
        /// move and the 50 squares (`e`, `w`, `z`, `W`, `Z`, square 1 first).
        position: Option<(Color, String)>,
    },
    /// `A`: the follower's answer to a game request.
    GameAcc {
        /// The follower's name (trimmed).
        name: String,
        /// `0` accepted, `1` version not supported, `2` not this game, `3` no games.
        code: u8,
    },
    /// `M`: a move.
    Move {
        /// Seconds used for it (informational).
        seconds: u32,
        /// From square, 1-50.
        from: u8,
        /// To square, 1-50.
        to: u8,
        /// Captured squares, in any order.
        captured: Vec<u8>,
    },
    /// `E`: the end of the game.
    GameEnd {
        /// `0` no reason, `1` I lose, `2` draw, `3` I win.
        reason: u8,
        /// `0` another game is welcome, `1` no more games.
        stop: u8,
    },
    /// `C`: a chat line.
    Chat(String),
    /// `B`: a request to take moves back to move `number` with `color` to move.
    BackReq {
        /// The move number, 1-999.
        number: u32,
        /// The side to move there.
        color: Color,
    },
    /// `K`: the answer to a take-back request: `0` yes, `1` no, `2` continue the game.
    BackAcc {
        /// The code.
        code: u8,
    },
}

fn color_char(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

fn parse_color(c: u8) -> Result<Color, String> {
    match c {
        b'W' | b'w' => Ok(Color::White),
        b'Z' | b'z' => Ok(Color::Black),
        _ => Err(format!("bad colour '{}' (expected W or Z)", c as char)),
    }
}

/// A fixed-width decimal field.
fn num(text: &str, at: usize, width: usize) -> Result<u32, String> {
    let field = text
        .get(at..at + width)
        .ok_or_else(|| format!("message too short: '{text}'"))?;
    if !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("bad number '{field}' in '{text}'"));
    }
    field.parse().map_err(|_| format!("bad number '{field}'"))
}

fn byte(text: &str, at: usize) -> Result<u8, String> {
    text.as_bytes()
        .get(at)
        .copied()
        .ok_or_else(|| format!("message too short: '{text}'"))
}

fn name_field(text: &str, at: usize) -> Result<String, String> {
    text.get(at..at + 32)
        .map(|s| s.trim().to_string())
        .ok_or_else(|| format!("message too short: '{text}'"))
}

fn padded_name(name: &str) -> String {
    let mut n: String = name
        .chars()
        .filter(|c| c.is_ascii() && *c != '\0')
        .take(32)
        .collect();
    while n.len() < 32 {
        n.push(' ');
    }
    n
}

impl Message {
    /// Parses one message (without its `\0`). Errors name what is wrong, in one line.
    pub fn parse(text: &str) -> Result<Message, String> {
        if text.is_empty() {
            return Err("empty message".into());
        }
        let header = text.as_bytes()[0];
        let named = |e: String| match header {
            b'R' => format!("GAMEREQ: {e}"),
            b'M' => format!("MOVE: {e}"),
            _ => e,
        };
        if text.len() > MAX_MESSAGE {
            return Err(named(format!(
                "{} characters, more than 127",
                text.chars().count()
            )));
        }
        if let Some(c) = text.chars().find(|c| !c.is_ascii()) {
            return Err(named(format!(
                "not ASCII (character U+{:04X} at byte {})",
                u32::from(c),
                text.find(c).unwrap_or(0)
            )));
        }
        let exact = |len: usize| {
            if text.len() == len {
                Ok(())
            } else {
                Err(format!(
                    "'{text}': {} characters, expected {len}",
                    text.len()
                ))
            }
        };
        Message::parse_fields(text, header, exact).map_err(named)
    }

    fn parse_fields(
        text: &str,
        header: u8,
        exact: impl Fn(usize) -> Result<(), String>,
    ) -> Result<Message, String> {
        match header {
            b'R' => {
                let version = num(text, 1, 2)?;
                let name = name_field(text, 3)?;
                let follower = parse_color(byte(text, 35)?)?;
                let minutes = num(text, 36, 3)?;
                let moves = num(text, 39, 3)?;
                let position = match byte(text, 42)? {
                    b'A' => {
                        exact(43)?;
                        None
                    }
                    b'B' => {
                        let side = parse_color(byte(text, 43)?)?;
                        let squares = &text[44.min(text.len())..];
                        if squares.len() != 50 {
                            return Err(format!(
                                "position of {} squares (DXP is International: 50)",
                                squares.len()
                            ));
                        }
                        if let Some(c) = squares.chars().find(|c| !"ewzWZ".contains(*c)) {
                            return Err(format!("bad square '{c}' in the position"));
                        }
                        Some((side, squares.to_string()))
                    }
                    c => return Err(format!("bad start '{}' (expected A or B)", c as char)),
                };
                Ok(Message::GameReq {
                    version,
                    name,
                    follower,
                    minutes,
                    moves,
                    position,
                })
            }
            b'A' => {
                exact(34)?;
                let name = name_field(text, 1)?;
                let code = num(text, 33, 1)? as u8;
                Ok(Message::GameAcc { name, code })
            }
            b'M' => {
                let seconds = num(text, 1, 4)?;
                let from = num(text, 5, 2)? as u8;
                let to = num(text, 7, 2)? as u8;
                let n = num(text, 9, 2)? as usize;
                exact(11 + 2 * n)?;
                let captured = (0..n)
                    .map(|i| num(text, 11 + 2 * i, 2).map(|v| v as u8))
                    .collect::<Result<Vec<u8>, String>>()?;
                for sq in std::iter::once(&from).chain(&[to]).chain(&captured) {
                    if !(1..=50).contains(sq) {
                        return Err(format!("square {sq} out of 1-50 in '{text}'"));
                    }
                }
                Ok(Message::Move {
                    seconds,
                    from,
                    to,
                    captured,
                })
            }
            b'E' => {
                exact(3)?;
                let reason = num(text, 1, 1)? as u8;
                let stop = num(text, 2, 1)? as u8;
                if reason > 3 || stop > 1 {
                    return Err(format!("bad GAMEEND '{text}'"));
                }
                Ok(Message::GameEnd { reason, stop })
            }
            b'C' => Ok(Message::Chat(text[1..].to_string())),
            b'B' => {
                exact(5)?;
                Ok(Message::BackReq {
                    number: num(text, 1, 3)?,
                    color: parse_color(byte(text, 4)?)?,
                })
            }
            b'K' => {
                exact(2)?;
                Ok(Message::BackAcc {
                    code: num(text, 1, 1)? as u8,
                })
            }
            c => Err(format!("unknown message type '{}'", c as char)),
        }
    }

    /// The message as sent (without its `\0`).
    pub fn text(&self) -> String {
        match self {
            Message::GameReq {
                version,
                name,
                follower,
                minutes,
                moves,
                position,
            } => {
                let mut s = format!(
                    "R{:02}{}{}{:03}{:03}",
                    version % 100,
                    padded_name(name),
                    color_char(*follower),
                    minutes % 1000,
                    moves % 1000
                );
                match position {
                    None => s.push('A'),
                    Some((side, squares)) => {
                        s.push('B');
                        s.push(color_char(*side));
                        s.push_str(squares);
                    }
                }
                s
            }
            Message::GameAcc { name, code } => format!("A{}{}", padded_name(name), code % 10),
            Message::Move {
                seconds,
                from,
                to,
                captured,
            } => {
                let mut s = format!(
                    "M{:04}{:02}{:02}{:02}",
                    seconds % 10000,
                    from,
                    to,
                    captured.len()
                );
                for c in captured {
                    s.push_str(&format!("{c:02}"));
                }
                s
            }
            Message::GameEnd { reason, stop } => format!("E{reason}{stop}"),
            Message::Chat(t) => {
                let t: String = t
                    .chars()
                    .map(|c| if c.is_ascii() && c != '\0' { c } else { '?' })
                    .take(MAX_MESSAGE - 1)
                    .collect();
                format!("C{t}")
            }
            Message::BackReq { number, color } => {
                format!("B{:03}{}", number % 1000, color_char(*color))
            }
            Message::BackAcc { code } => format!("K{code}"),
        }
    }
}
