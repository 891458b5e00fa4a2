//! DXP positions and moves in damiera's terms: the GAMEREQ's 50 squares as a FEN and back, a
//! MOVE as a move in Hub form and back (the form [`Engine::legal_moves`] gives with
//! [`MoveForm::Hub`](crate::engine::MoveForm::Hub)). Squares are numbered 1-50, as in DXP.

use super::message::Message;
use crate::core::rules::Color;
use crate::core::variant_position::{Piece, VariantPosition};
use crate::engine::Engine;

/// The normal start (GAMEREQ `A`): FMJD 2.6, White on 31-50 to move.
pub(super) const START_FEN: &str = "W:W31-50:B1-20";

/// The FEN of a DXP position (side to move, 50 squares `e w z W Z`).
pub fn fen_of(side: Color, squares: &str) -> String {
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (i, c) in squares.chars().enumerate() {
        let sq = i + 1;
        match c {
            'w' => white.push(sq.to_string()),
            'W' => white.push(format!("K{sq}")),
            'z' => black.push(sq.to_string()),
            'Z' => black.push(format!("K{sq}")),
            _ => {}
        }
    }
    format!(
        "{}:W{}:B{}",
        side.letter(),
        white.join(","),
        black.join(",")
    )
}

/// The DXP side to move and squares of the engine's position (for a GAMEREQ `B`).
pub fn squares_of(engine: &Engine) -> (Color, String) {
    let pos =
        VariantPosition::from_fen(engine.variant(), &engine.fen()).expect("the engine's own FEN");
    let squares = (1..=pos.square_count())
        .map(|n| match pos.piece_on(&n.to_string()) {
            Ok(Some((Color::White, Piece::Man))) => 'w',
            Ok(Some((Color::White, _))) => 'W',
            Ok(Some((Color::Black, Piece::Man))) => 'z',
            Ok(Some((Color::Black, _))) => 'Z',
            Ok(None) | Err(_) => 'e',
        })
        .collect();
    (pos.side(), squares)
}

/// The Hub form of a DXP move (`from-to`, or `from x to x captured...` ascending), the form
/// [`Engine::legal_moves`] gives with [`MoveForm::Hub`](crate::engine::MoveForm::Hub).
pub fn hub_form(from: u8, to: u8, captured: &[u8]) -> String {
    if captured.is_empty() {
        return format!("{from}-{to}");
    }
    let mut caps = captured.to_vec();
    caps.sort_unstable();
    let mut s = format!("{from}x{to}");
    for c in caps {
        s.push_str(&format!("x{c}"));
    }
    s
}

/// The MOVE of a move in Hub form (`None` if the text is not one).
pub fn move_message(hub: &str, seconds: u32) -> Option<Message> {
    let (sep, quiet) = if hub.contains('-') {
        ('-', true)
    } else {
        ('x', false)
    };
    let squares: Vec<u8> = hub
        .split(sep)
        .map(|s| s.parse().ok())
        .collect::<Option<_>>()?;
    if squares.len() < 2 || (quiet && squares.len() != 2) {
        return None;
    }
    Some(Message::Move {
        seconds,
        from: squares[0],
        to: squares[1],
        captured: squares[2..].to_vec(),
    })
}
