//! libFuzzer entry for `seams::fuzz::board_file` (see its documentation).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    seams::fuzz::board_file(data);
});
