//! Result tokens: the forms PDN 3.0 allows, the one each variant writes ([`result_token`]) and
//! what each means when read ([`parse_result`]).

use crate::core::rules::Color;
use crate::core::variant::Variant;

/// Result tokens of PDN 3.0 (draughts and chess forms).
pub(super) const RESULTS: [&str; 8] = ["2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"];

/// The result token a variant's PDN uses (winner `None`: a draw). The convention is kept here
/// for both of damiera's PDN writers (`match --pdn`, `analyse --out`) and its reader
/// ([`parse_result`]):
///
/// - **English** (GameType 21): `1-0` Black won, `0-1` White won, `1/2-1/2` a draw: the
///   first number is the first player's (Black's). CheckerBoard writes this
///   (eygilbert/CheckerBoard `dialogs.c`: "Black wins" is saved as `1-0`; `CheckerBoard.c`
///   `dostats` in engine matches) and its PDN parser ends a game only at `1-0`, `0-1`,
///   `1/2-1/2` or `*` (`PDNparser.c`); pydraughts 0.6.7's `PDNReader` takes these too.
/// - **International** (20): `2-0` White won, `1-1` a draw, `0-2` Black won, White's score
///   first: PDN 3.0 (<https://pdn.fmjd.org>), the FMJD's points (2 a win, 1 a draw), lidraughts'
///   export (`PdnDump.scala`, `Color.showResult` with `draughtsResult`, its default).
/// - **Russian** (25) and **Brazilian** (26): the same `2-0 1-1 0-2`, as lidraughts exports
///   them (tests/pdn/russian-lidraughts.pdn).
/// - **Italian** (22) and **Italian Damone**: the same `2-0 1-1 0-2`, PDN 3.0's form. The FID
///   publishes no PDN convention we could find; CheckerBoard 1.73 writes Italian results as
///   English ones (`1-0` for its "Black" player), which [`parse_result`] does not follow for
///   Italian (there `1-0` is read as a White win, the first player's).
pub fn result_token(v: Variant, winner: Option<Color>) -> &'static str {
    match (v, winner) {
        (Variant::English, Some(Color::Black)) => "1-0",
        (Variant::English, Some(Color::White)) => "0-1",
        (Variant::English, None) => "1/2-1/2",
        (_, Some(Color::White)) => "2-0",
        (_, Some(Color::Black)) => "0-2",
        (_, None) => "1-1",
    }
}

/// What a result token means in a variant: `Some(Some(winner))`, `Some(None)` for a draw,
/// `None` for `*` or anything else. Every variant reads every form: `2-0`/`0-2` with White's
/// score first (PDN 3.0), `1-1`, `1/2-1/2` and `0-0` as draws, and `1-0`/`0-1` with the first
/// player's score first: Black's in English (CheckerBoard), White's elsewhere (see
/// [`result_token`]).
pub fn parse_result(v: Variant, token: &str) -> Option<Option<Color>> {
    let first = if v == Variant::English {
        Color::Black
    } else {
        Color::White
    };
    match token.trim() {
        "2-0" => Some(Some(Color::White)),
        "0-2" => Some(Some(Color::Black)),
        "1-0" => Some(Some(first)),
        "0-1" => Some(Some(first.opponent())),
        "1-1" | "1/2-1/2" | "0-0" => Some(None),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_per_variant() {
        use Color::{Black, White};
        // English as CheckerBoard: Black (the first player) first; the others PDN 3.0's form.
        assert_eq!(result_token(Variant::English, Some(Black)), "1-0");
        assert_eq!(result_token(Variant::English, Some(White)), "0-1");
        assert_eq!(result_token(Variant::English, None), "1/2-1/2");
        for v in [
            Variant::International,
            Variant::Russian,
            Variant::Brazilian,
            Variant::Italian,
        ] {
            assert_eq!(result_token(v, Some(White)), "2-0");
            assert_eq!(result_token(v, Some(Black)), "0-2");
            assert_eq!(result_token(v, None), "1-1");
            assert_eq!(parse_result(v, "1-0"), Some(Some(White)));
        }
        // Every form is read in every variant.
        assert_eq!(parse_result(Variant::English, "2-0"), Some(Some(White)));
        assert_eq!(parse_result(Variant::English, "0-2"), Some(Some(Black)));
        assert_eq!(parse_result(Variant::English, "1-0"), Some(Some(Black)));
        assert_eq!(parse_result(Variant::English, "1-1"), Some(None));
        assert_eq!(parse_result(Variant::Russian, "1/2-1/2"), Some(None));
        assert_eq!(parse_result(Variant::Russian, "*"), None);
        for v in [Variant::English, Variant::International, Variant::Damone] {
            for w in [Some(White), Some(Black), None] {
                assert_eq!(parse_result(v, result_token(v, w)), Some(w));
            }
        }
    }
}
