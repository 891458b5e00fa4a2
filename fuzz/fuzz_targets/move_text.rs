//! Fuzz target: `fuzz/checks.rs` `move_text` (see its documentation for what is checked).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| {
    checks::move_text(data);
});
