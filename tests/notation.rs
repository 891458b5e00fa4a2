//! Square numbering and move notation per variant (WCDF, FID-I 2.4, PDN; docs/rules.md).

use damiera::core::notation::{self, parse_move, parse_square, square_name, FenCounters};
use damiera::{Brazilian, English, International, Italian, Position, Rules, Russian};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_damiera");

fn at<R: Rules>(name: &str) -> (u8, u8) {
    notation::file_rank::<R>(parse_square::<R>(name).unwrap())
}

#[test]
fn english_numbering_wcdf() {
    // 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1.
    assert_eq!(at::<English>("1"), (1, 7));
    assert_eq!(at::<English>("4"), (7, 7));
    assert_eq!(at::<English>("5"), (0, 6));
    assert_eq!(at::<English>("29"), (0, 0));
    assert_eq!(at::<English>("32"), (6, 0));
}

#[test]
fn italian_numbering_fid_2_4() {
    // 1 = a8, 4 = g8, 5 = b7, 21 = b3, 29 = b1, 32 = h1.
    assert_eq!(at::<Italian>("1"), (0, 7));
    assert_eq!(at::<Italian>("4"), (6, 7));
    assert_eq!(at::<Italian>("5"), (1, 6));
    assert_eq!(at::<Italian>("21"), (1, 2));
    assert_eq!(at::<Italian>("29"), (1, 0));
    assert_eq!(at::<Italian>("32"), (7, 0));
}

#[test]
fn algebraic_squares() {
    assert_eq!(at::<Russian>("a1"), (0, 0));
    assert_eq!(at::<Brazilian>("h8"), (7, 7));
    assert!(
        parse_square::<Russian>("b1").is_err(),
        "b1 is light on an a1-dark board"
    );
    assert!(parse_square::<Russian>("i1").is_err());
    assert_eq!(
        square_name::<Russian>(parse_square::<Russian>("e3").unwrap()),
        "e3"
    );
}

#[test]
fn fen_ranges_and_either_color_first() {
    let a = notation::parse_fen::<English>("B:W21-32:B1-12").unwrap();
    let b = notation::parse_fen::<English>(
        "B:B1,2,3,4,5,6,7,8,9,10,11,12:W21,22,23,24,25,26,27,28,29,30,31,32",
    )
    .unwrap();
    assert_eq!(a, b);
    assert_eq!(a, Position::<English>::start());
    let k = notation::parse_fen::<Italian>("W:WK1-K3:B10").unwrap();
    assert_eq!(notation::fen(&k), "W:WK1,K2,K3:B10");
}

#[test]
fn quiet_moves_and_errors() {
    let pos = Position::<English>::start();
    assert!(parse_move(&pos, "11-15").is_ok());
    assert!(matches!(
        parse_move(&pos, "11-14"),
        Err(notation::MoveError::Illegal(_))
    ));
    assert!(matches!(
        parse_move(&pos, "11-"),
        Err(notation::MoveError::Syntax(_))
    ));
    assert!(matches!(
        parse_move(&pos, "hello"),
        Err(notation::MoveError::Syntax(_))
    ));
    assert!(matches!(
        parse_move(&pos, "11-99"),
        Err(notation::MoveError::Syntax(_))
    ));
}

#[test]
fn capture_input_forms() {
    // Russian b6:d8:g5 (captures c7, f6); pydraughts #28-style promotion in passing.
    let pos = notation::parse_fen::<Russian>("W:Wb6:Bc7,f6").unwrap();
    let want = parse_move(&pos, "b6:d8:g5").unwrap();
    assert_eq!(
        parse_move(&pos, "b6xd8xg5").unwrap(),
        want,
        "x accepted as separator"
    );
    assert_eq!(
        parse_move(&pos, "b6xg5").unwrap(),
        want,
        "from x to when unambiguous"
    );
    assert_eq!(
        parse_move(&pos, "b6xg5xc7xf6").unwrap(),
        want,
        "Hub form with captured squares"
    );
    assert_eq!(
        parse_move(&pos, "b6xg5xf6xc7").unwrap(),
        want,
        "captured squares in any order"
    );
    assert!(
        parse_move(&pos, "b6-d8").is_err(),
        "a capture is compulsory"
    );
    assert!(
        parse_move(&pos, "b6:d8").is_err(),
        "a capture may not stop early"
    );
    assert!(
        parse_move(&pos, "b6xg5xc7").is_err(),
        "Hub form must list every captured square"
    );
}

#[test]
fn ambiguous_from_x_to() {
    // Russian, free choice: the king on h6 reaches a7 two ways (hand analysis):
    // h6:f8:c5:a7 takes g7, e7, b6 (from f8 it must land on c5 or d6 to go on; c5 goes on over
    // b6), and h6:e3:a7 takes f4, b6 (only e3 lets it go on, over b6).
    let pos = notation::parse_fen::<Russian>("W:WKh6:Bb6,b8,e7,f4,g7").unwrap();
    match parse_move(&pos, "h6:a7") {
        Err(notation::MoveError::Ambiguous(_, c)) => {
            let mut c = c.clone();
            c.sort();
            assert_eq!(c, ["h6:e3:a7", "h6:f8:c5:a7"]);
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
    // Either full path, or the Hub form with its captured squares, picks one.
    let long = parse_move(&pos, "h6:f8:c5:a7").unwrap();
    assert_eq!(long.captured.count(), 3);
    assert_eq!(parse_move(&pos, "h6xa7xg7xe7xb6").unwrap(), long);
    assert_eq!(parse_move(&pos, "h6xe3xa7").unwrap().captured.count(), 2);
}

#[test]
fn english_full_capture_notation() {
    let pos = notation::parse_fen::<English>("B:W14,15,23:B10,6").unwrap();
    let mv = parse_move(&pos, "10x26").unwrap();
    assert_eq!(notation::move_name(&pos, &mv), "10x19x26");
    assert_eq!(notation::move_name_hub::<English>(&mv), "10x26x15x23");
}

#[test]
fn pdn_names_are_the_shortest_unambiguous_form() {
    // English 10x19x26 (the only capture from 10 to 26) is written 10x26, as CheckerBoard's
    // move_to_pdn_english and lidraughts write it.
    let pos = notation::parse_fen::<English>("B:W14,15,23:B10,6").unwrap();
    let mv = parse_move(&pos, "10x19x26").unwrap();
    assert_eq!(notation::move_name_pdn(&pos, &mv), "10x26");
    // Russian with ':', a capture with a promotion in passing (b6:d8:g5).
    let pos = notation::parse_fen::<Russian>("W:Wb6:Bc7,f6").unwrap();
    let mv = parse_move(&pos, "b6:d8:g5").unwrap();
    assert_eq!(notation::move_name_pdn(&pos, &mv), "b6:g5");
    // Two captures from h6 to a7 (see ambiguous_from_x_to): each is written in full.
    let pos = notation::parse_fen::<Russian>("W:WKh6:Bb6,b8,e7,f4,g7").unwrap();
    let mut names: Vec<String> = ["h6:e3:a7", "h6xa7xg7xe7xb6"]
        .iter()
        .map(|t| notation::move_name_pdn(&pos, &parse_move(&pos, t).unwrap()))
        .collect();
    names.sort();
    assert_eq!(names, ["h6:e3:a7", "h6:f8:c5:a7"]);
    // English: the man on 2 takes 2x9x18 or 2x11x18 (tests/pdn/errors.pdn, game 2).
    let pos = notation::parse_fen::<English>("B:W6,7,14,15:B2").unwrap();
    let name = notation::move_name_pdn(&pos, &parse_move(&pos, "2x9x18").unwrap());
    assert_eq!(name, "2x9x18");
    // Quiet moves are from-to; every name reads back as its move.
    let pos = Position::<International>::start();
    let mv = parse_move(&pos, "32-28").unwrap();
    assert_eq!(notation::move_name_pdn(&pos, &mv), "32-28");
}

#[test]
fn lidraughts_move_counters_after_the_fen() {
    // lidraughts' Forsyth.scala: `:H` plies since the endgame material appeared, `:F` the
    // full-move number. Read, and not kept in the position.
    let start = Position::<International>::start();
    assert_eq!(
        notation::parse_fen::<International>("W:W31-50:B1-20:H0:F1").unwrap(),
        start
    );
    assert_eq!(
        notation::fen_counters("W:W31-50:B1-20:H3:F12").unwrap(),
        FenCounters {
            halfmove: Some(3),
            fullmove: Some(12)
        }
    );
    assert_eq!(
        notation::fen_counters("B:W18:B12").unwrap(),
        FenCounters::default()
    );
    let with = notation::parse_fen::<Russian>("B:Wa1,c1:Bh8:H0:F5").unwrap();
    assert_eq!(
        with,
        notation::parse_fen::<Russian>("B:Wa1,c1:Bh8").unwrap()
    );
    // H is lidraughts' endgame count, not damiera's no-progress counter (docs/rules.md).
    let kings = notation::parse_fen::<International>("W:WK46:BK5:H12:F40").unwrap();
    assert_eq!(kings.quiet_plies(), 0);
    let damone = format!("{}:H0:F1", damiera::core::damone::START_FEN);
    assert_eq!(
        damiera::core::damone::notation::parse_fen(&damone).unwrap(),
        damiera::core::damone::notation::parse_fen(damiera::core::damone::START_FEN).unwrap()
    );
    // Unknown or garbage fields are one-line errors that name the field.
    for (fen, says) in [
        ("W:W31-50:B1-20:X3", "'X3' is neither a colour list"),
        ("W:W31-50:B1-20:Hx", "'Hx' is not a halfmove clock"),
        ("W:W31-50:B1-20:F", "'F' is not a full-move number"),
        ("W:W31-50:B1-20:F0", "starts at 1"),
        ("W:W31-50:B1-20:H1:H2", "the H field appears twice"),
        ("W:W31-50:B1-20:H-1", "'H-1' is not a halfmove clock"),
    ] {
        let e = notation::parse_fen::<International>(fen)
            .unwrap_err()
            .to_string();
        assert!(e.contains(says) && !e.contains('\n'), "{fen}: {e}");
        assert!(
            damiera::core::damone::notation::parse_fen(fen).is_err(),
            "{fen}"
        );
    }
}

#[test]
fn lidraughts_fens_work_in_every_command() {
    let fen = "W:W31-50:B1-20:H0:F1";
    let out = Command::new(BIN)
        .args([
            "analyse",
            "--variant",
            "international",
            "--fen",
            fen,
            "--depth",
            "2",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("best move: "));
    // The start position's perft(2): 9 x 9 moves (docs/perft.md).
    let out = Command::new(BIN)
        .args([
            "perft",
            "--variant",
            "international",
            "--fen",
            fen,
            "--depth",
            "2",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: 81"));
    // The native protocol's `position fen`.
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"uci\nsetoption name Variant value russian\nposition fen B:Wa1,c1:Bh8:H7:F30 moves h8-g7\nd\nquit\n",
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Fen: W:Wa1,c1:Bg7"), "{text}");
    assert!(!text.contains("error"), "{text}");
    // A garbage field is a one-line error.
    let out = Command::new(BIN)
        .args([
            "perft",
            "--variant",
            "international",
            "--fen",
            "W:W31-50:B1-20:Z9",
        ])
        .args(["--depth", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("'Z9'"), "{err}");
}
