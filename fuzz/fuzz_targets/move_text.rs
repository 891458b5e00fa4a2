//! Fuzz target: damiera::fuzzing::move_text (see its documentation for what is checked).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    damiera::fuzzing::move_text(data);
});
