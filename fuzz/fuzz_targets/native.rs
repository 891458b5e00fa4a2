//! Fuzz target: damiera::fuzzing::native_session_reused (see its documentation for what is checked).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    damiera::fuzzing::native_session_reused(data);
});
