//! Stable case ids: `slug#hash`.
//!
//! The hash is the first 8 hex digits (the high 32 bits, zero-padded) of
//! the 64-bit FNV-1a hash of the case written as canonical JSON: the case
//! as the corpus types serialize it (defaults dropped), without its `id`,
//! with object keys sorted, no whitespace, and strings escaped as
//! `serde_json` escapes them. FNV-1a 64: start from `0xcbf29ce484222325`;
//! for each byte, xor it in, then multiply by `0x100000001b3` (wrapping).
//! The same text always gives the same id, on every machine.

use serde_json::Value;

use super::case::Case;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// 64-bit FNV-1a.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(FNV_OFFSET, |h, &b| (h ^ b as u64).wrapping_mul(FNV_PRIME))
}

/// JSON with sorted keys and no whitespace.
pub fn canonical_json(v: &Value) -> String {
    let mut out = String::new();
    write_canonical(v, &mut out);
    out
}

fn write_canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String((*k).clone()).to_string());
                out.push(':');
                write_canonical(&map[*k], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(x, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// The 8-hex-digit hash of a case (its id is ignored).
pub fn case_hash(case: &Case) -> String {
    let mut v = serde_json::to_value(case).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut v {
        map.remove("id");
    }
    format!("{:08x}", fnv1a64(canonical_json(&v).as_bytes()) >> 32)
}

/// The id the case should carry: its slug, `#`, its hash.
pub fn expected_id(case: &Case) -> String {
    format!("{}#{}", case.slug(), case_hash(case))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_known_values() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn canonical_sorts_keys_at_every_level() {
        let v: Value = serde_json::from_str(r#"{"b": [ {"z":1, "a":"é\n"} ], "a": null}"#).unwrap();
        assert_eq!(canonical_json(&v), r#"{"a":null,"b":[{"a":"é\n","z":1}]}"#);
    }
}
