//! libFuzzer entry for `seams::fuzz::expectations` (see its documentation).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    seams::fuzz::expectations(data);
});
