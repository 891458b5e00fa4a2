//! What a board drawing gets from the core (`VariantPosition::squares`, `pieces`,
//! `move_squares`; used by `damiera serve`), held to the published numberings and to a capture
//! checked with pydraughts.

use damiera::core::rules::Numbering;
use damiera::core::variant::Variant;
use damiera::core::variant_position::{Piece, VariantPosition};
use damiera::Color;

/// The square named `name`: (file, rank), 0-based from White's bottom-left.
fn place(v: Variant, name: &str) -> (u8, u8) {
    let s = VariantPosition::start(v)
        .squares()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("{name} is a square of {v}"));
    (s.file, s.rank)
}

#[test]
fn squares_follow_each_variants_numbering() {
    // English (WCDF): 1 = b8, 4 = h8, 29 = a1, 32 = g1.
    assert_eq!(place(Variant::English, "1"), (1, 7));
    assert_eq!(place(Variant::English, "4"), (7, 7));
    assert_eq!(place(Variant::English, "29"), (0, 0));
    assert_eq!(place(Variant::English, "32"), (6, 0));
    // Italian (FID rules 2.4): 1 = a8, 32 = h1; a1 is light.
    assert_eq!(place(Variant::Italian, "1"), (0, 7));
    assert_eq!(place(Variant::Italian, "32"), (7, 0));
    // International (FMJD): 1 = b10, 5 = j10, 46 = a1, 50 = i1.
    assert_eq!(place(Variant::International, "1"), (1, 9));
    assert_eq!(place(Variant::International, "5"), (9, 9));
    assert_eq!(place(Variant::International, "46"), (0, 0));
    assert_eq!(place(Variant::International, "50"), (8, 0));
    // Russian: algebraic, a1 dark.
    assert_eq!(place(Variant::Russian, "c3"), (2, 2));
    for (v, count, size) in [
        (Variant::English, 32, 8),
        (Variant::Italian, 32, 8),
        (Variant::Brazilian, 32, 8),
        (Variant::Russian, 32, 8),
        (Variant::Damone, 32, 8),
        (Variant::International, 50, 10),
    ] {
        let p = VariantPosition::start(v);
        let squares = p.squares();
        assert_eq!(squares.len(), count, "{v}");
        assert_eq!(p.board_size(), (size, size), "{v}");
        // Every square is dark: file + rank odd where a1 is dark, even where it is light.
        let a1_dark = squares.iter().any(|s| (s.file, s.rank) == (0, 0));
        let parity = if a1_dark { 0 } else { 1 };
        assert!(
            squares.iter().all(|s| (s.file + s.rank) % 2 == parity),
            "{v}"
        );
        assert_eq!(p.pieces().len(), count);
    }
    assert_eq!(
        VariantPosition::start(Variant::Russian).numbering(),
        Numbering::Algebraic
    );
    assert!(!place_is(Variant::Damone, (0, 0)), "Damone's a1 is light");
}

fn place_is(v: Variant, at: (u8, u8)) -> bool {
    VariantPosition::start(v)
        .squares()
        .iter()
        .any(|s| (s.file, s.rank) == at)
}

#[test]
fn pieces_are_listed_in_square_order() {
    // English start: Black men on 1-12, White men on 21-32 (WCDF).
    let p = VariantPosition::start(Variant::English);
    let pieces = p.pieces();
    assert!(pieces[..12]
        .iter()
        .all(|x| *x == Some((Color::Black, Piece::Man))));
    assert!(pieces[12..20].iter().all(Option::is_none));
    assert!(pieces[20..]
        .iter()
        .all(|x| *x == Some((Color::White, Piece::Man))));
}

#[test]
fn a_double_capture_gives_its_landing_and_captured_squares() {
    // tests/pdn/blunder.pdn, checked with pydraughts 0.6.7: after 6. 14x23 White takes two
    // with 26x19x12, over 23 and then 16.
    let mut p = VariantPosition::start(Variant::English);
    for m in "9-14 22-17 6-9 24-20 11-16 20x11 8x15 25-22 12-16 23-18 14x23".split(' ') {
        p.play_text(m).expect("legal");
    }
    let found = p
        .legal_moves()
        .iter()
        .map(|mv| p.move_squares(mv))
        .find(|s| s.path == ["26", "19", "12"])
        .expect("26x19x12 is legal");
    assert_eq!(found.captured, ["16", "23"]);
    assert!(!found.promotes);
}
