//! Fuzz target: `fuzz/checks.rs` `pdn` (see its documentation for what is checked).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| {
    checks::pdn(data);
});
