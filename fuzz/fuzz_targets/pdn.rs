//! Fuzz target: damiera::fuzzing::pdn (see its documentation for what is checked).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    damiera::fuzzing::pdn(data);
});
