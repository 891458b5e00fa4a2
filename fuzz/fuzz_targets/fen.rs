//! Fuzz target: `fuzz/checks.rs` `fen` (see its documentation for what is checked).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| {
    checks::fen(data);
});
