//! Snapshots of the derived tables a rules change would alter: perft to
//! depth 2 and whether each start position is exactly exchange-symmetric.
//! A reviewer sees any change as an insta diff (`cargo insta review`).

use seams::registry;
use seams::variant::At;

#[test]
fn perft_and_start_symmetry_per_variant() {
    let mut table = serde_json::Map::new();
    for v in registry::variants() {
        let at = At::default();
        let perft: Vec<u64> = (1..=2)
            .map(|d| v.perft(&at, d).expect("the start position is valid"))
            .collect();
        table.insert(
            v.name().to_string(),
            serde_json::json!({
                "rules": v.rules_version(),
                "perft": perft,
                "start_exchange_symmetric": v.start_exchange_symmetric(),
            }),
        );
    }
    insta::assert_json_snapshot!("derived-tables", table);
}
