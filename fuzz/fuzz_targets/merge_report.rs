//! libFuzzer entry for `seams::fuzz_targets::merge_report` (see its documentation).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    seams::fuzz_targets::merge_report(data);
});
