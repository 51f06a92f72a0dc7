//! `seams perft --threads N` splits the root across threads, and `--shard
//! K/N` into parts run apart; both must give the counts one thread gives,
//! on every variant. `--independent` counts by a second path, which must
//! agree, and `--hash` by a transposition table, which must change nothing
//! but the time.

use crate::common::seams;
use seams::registry;
use seams::shard::Shard;
use seams::variant::{
    At, Counter, PerftJob, PerftTable, ShardDivide, Variant, divide_job, divide_parallel,
};

#[test]
fn every_variant_counts_the_same_with_one_two_and_three_threads() {
    for v in registry::variants() {
        let at = At::default();
        let one = divide_parallel(v.as_ref(), &at, 3, 1).unwrap();
        assert_eq!(one, v.divide(&at, 3).unwrap(), "{}", v.name());
        for threads in [2, 3] {
            let many = divide_parallel(v.as_ref(), &at, 3, threads).unwrap();
            assert_eq!(many, one, "{} with {threads} threads", v.name());
        }
    }
}

#[test]
fn moves_played_first_are_kept_under_every_root_action() {
    let moves = ["e2-e4".to_string(), "e8-e6".to_string()];
    let v = seams::registry::find("chess-mobius").unwrap();
    let at = At {
        position: None,
        moves: &moves,
    };
    assert_eq!(
        divide_parallel(v, &at, 2, 2).unwrap(),
        v.divide(&at, 2).unwrap()
    );
}

#[test]
fn the_command_prints_the_published_count_with_two_threads() {
    let r = seams(&["perft", "shogi-flat", "3", "--threads", "2"]);
    assert_eq!((r.code, r.stdout.trim()), (0, "25470"), "{}", r.stderr);
    let r = seams(&["perft", "shogi-flat", "1", "--threads", "0"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("0 is not in 1..=1024"), "{}", r.stderr);
}

#[test]
fn a_transposition_table_changes_no_count_on_any_variant() {
    for v in registry::variants() {
        let v = v.as_ref();
        let at = At::default();
        let table = PerftTable::with_mib(16);
        for depth in 0..=3 {
            let plain = v.perft(&at, depth).unwrap();
            let hashed = v.perft_hashed(&at, depth, &table).unwrap();
            assert_eq!(hashed, plain, "{} depth {depth}", v.name());
        }
        // A job with a table, split across threads and shards, divides
        // as one plain count does.
        let whole = v.divide(&at, 3).unwrap();
        let mut rows = Vec::new();
        for k in 1..=2 {
            let job = PerftJob {
                depth: 3,
                threads: 2,
                shard: Shard::new(k, 2).unwrap(),
                counter: Counter::Perft,
                hash_mib: 8,
            };
            rows.extend(divide_job(v, &at, &job, &|_| ()).unwrap().rows);
        }
        rows.sort();
        assert_eq!(rows, whole, "{}", v.name());
    }
    let v = registry::find("chess-flat").unwrap();
    let job = PerftJob {
        depth: 1,
        threads: 1,
        shard: Shard::WHOLE,
        counter: Counter::Perft,
        hash_mib: seams::variant::MAX_TABLE_MIB + 1,
    };
    let e = divide_job(v, &At::default(), &job, &|_| ()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a transposition table of 65537 MiB is over the bound of 65536 MiB"
    );
}

#[test]
fn a_table_counts_each_transposition_once_and_gets_the_published_count() {
    // Depth 5 is the first from the start where two orders of actions
    // meet with two plies left: 1. e3 e6 2. d3 and 1. d3 e6 2. e3.
    for (name, published) in [("chess-flat", 4_865_609), ("shogi-flat", 19_861_490)] {
        let v = registry::find(name).unwrap();
        let table = PerftTable::with_mib(16);
        assert_eq!(
            v.perft_hashed(&At::default(), 5, &table).unwrap(),
            published
        );
        assert!(table.hits() > 100, "{name}: {} hits", table.hits());
        assert!(!table.is_empty());
    }
}

#[test]
fn the_command_counts_with_a_table_and_says_so() {
    let r = seams(&["perft", "chess-flat", "5", "--hash", "16", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let report: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(report["nodes"], 4_865_609);
    assert_eq!(report["hash_mib"], 16);
    let schema = perft_schema();
    assert!(schema.is_valid(&report), "{}", r.stdout);
    let r = seams(&["perft", "chess-flat", "5", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(report.get("hash_mib").is_none(), "{}", r.stdout);
    assert!(schema.is_valid(&report), "{}", r.stdout);
    let refused = crate::common::check_input_error;
    refused(
        &["perft", "chess-flat", "3", "--hash", "8", "--independent"],
        "the second path counts without a transposition table",
    );
    for bad in ["0", "65537"] {
        refused(
            &["perft", "chess-flat", "3", "--hash", bad],
            "not in 1..=65536",
        );
    }
}

/// The divide of `v` at `depth` from `at` by `counter`, split into `n`
/// shards, each counted on its own and the parts joined.
fn joined(v: &dyn Variant, at: &At, depth: u32, counter: Counter, n: u32) -> ShardDivide {
    let mut rows = Vec::new();
    let mut roots = None;
    for k in 1..=n {
        let job = PerftJob {
            depth,
            threads: 2,
            shard: Shard::new(k, n).unwrap(),
            counter,
            hash_mib: 0,
        };
        let part = divide_job(v, at, &job, &|_| ()).unwrap();
        assert!(roots.is_none_or(|r| r == part.roots), "{}", v.name());
        roots = Some(part.roots);
        rows.extend(part.rows);
    }
    rows.sort();
    ShardDivide {
        roots: roots.unwrap_or(0),
        rows,
    }
}

#[test]
fn shards_of_the_root_add_up_to_the_divide_on_every_variant() {
    for v in registry::variants() {
        let at = At::default();
        let whole = v.divide(&at, 3).unwrap();
        for n in [1, 2, 3, 7] {
            let parts = joined(v.as_ref(), &at, 3, Counter::Perft, n);
            assert_eq!(parts.rows, whole, "{} in {n} shards", v.name());
            assert_eq!(parts.roots, whole.len(), "{}", v.name());
        }
    }
}

#[test]
fn the_second_path_counts_what_the_first_counts() {
    for v in registry::variants() {
        let v = v.as_ref();
        let Some(second) = v.independent_perft(&At::default(), 3).unwrap() else {
            assert!(
                v.name().starts_with("kyoto"),
                "{} has no second path",
                v.name()
            );
            continue;
        };
        assert_eq!(second, v.perft(&At::default(), 3).unwrap(), "{}", v.name());
        // And from a position five plies in, where captures, checks and
        // (in shogi) drops are nearer: each ply takes a fixed pick of the
        // legal actions, so the line is the same on every run.
        let mut moves: Vec<String> = Vec::new();
        for ply in 0..5 {
            let at = At {
                position: None,
                moves: &moves,
            };
            let legal = v.legal_actions(&at).unwrap();
            moves.push(legal[(7 * ply + 3) % legal.len()].clone());
        }
        let at = At {
            position: None,
            moves: &moves,
        };
        let fast = v.divide(&at, 3).unwrap();
        let parts = joined(v, &at, 3, Counter::Independent, 3);
        assert_eq!(parts.rows, fast, "{} after {moves:?}", v.name());
    }
}

#[test]
fn the_command_counts_a_shard_and_by_the_second_path() {
    let r = seams(&["perft", "chess-flat", "3", "--independent"]);
    assert_eq!((r.code, r.stdout.trim()), (0, "8902"), "{}", r.stderr);
    let refused = crate::common::check_input_error;
    refused(
        &["perft", "kyoto", "2", "--independent"],
        "kyoto has no second counting path",
    );
    refused(
        &["perft", "chess-flat", "0", "--shard", "1/2"],
        "depth 0 has no root actions",
    );
    refused(
        &["perft", "chess-flat", "3", "--shard", "2/0"],
        "the count must be 1 to 10000",
    );
    let r = seams(&["perft", "chess-flat", "3", "--shard", "2/3", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let report: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let divide = report["divide"].as_object().unwrap();
    let sum: u64 = divide.values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(report["nodes"].as_u64(), Some(sum));
    assert_eq!(report["shard"], serde_json::json!({"index": 2, "count": 3}));
    assert_eq!(report["roots"], 20);
    assert!(divide.keys().all(|a| Shard::new(2, 3).unwrap().holds(a)));
}

#[test]
fn perft_shards_merge_into_the_whole_count_and_divide() {
    let dir = crate::common::scratch_dir("perft-shards");
    let whole = seams(&["perft", "chess-mobius", "3", "--divide", "--json"]);
    let whole: serde_json::Value = serde_json::from_str(&whole.stdout).unwrap();
    for n in [1, 2, 3, 7] {
        let mut files = Vec::new();
        for k in 1..=n {
            let r = seams(&[
                "perft",
                "chess-mobius",
                "3",
                "--shard",
                &format!("{k}/{n}"),
                "--json",
            ]);
            assert_eq!(r.code, 0, "{}", r.stderr);
            let file = dir.join(format!("{n}-{k}.json"));
            std::fs::write(&file, &r.stdout).unwrap();
            files.push(file.display().to_string());
        }
        let mut args = vec!["merge", "--format", "json"];
        args.extend(files.iter().map(String::as_str));
        let r = seams(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let merged: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(merged["nodes"], whole["nodes"], "{n} shards");
        assert_eq!(merged["divide"], whole["divide"], "{n} shards");
        assert_eq!(merged["merged_from"], n);
        assert!(perft_schema().is_valid(&merged), "{merged}");
        // The text form: the divide, then the count.
        let mut args = vec!["merge"];
        args.extend(files.iter().map(String::as_str));
        let text = seams(&args).stdout;
        assert_eq!(text.lines().last(), Some("18710"), "{text}");
        assert_eq!(text.lines().count(), 26, "{text}");
    }
    let part = |k: u32, n: u32, depth: &str| {
        let r = seams(&[
            "perft",
            "chess-mobius",
            depth,
            "--shard",
            &format!("{k}/{n}"),
            "--json",
        ]);
        let file = dir.join(format!("p{k}-{n}-{depth}.json"));
        std::fs::write(&file, &r.stdout).unwrap();
        file.display().to_string()
    };
    let (a, b, deeper) = (part(1, 2, "2"), part(2, 2, "2"), part(2, 2, "3"));
    crate::common::check_input_error(&["merge", &a], "1 of 2 shard(s) missing: 2");
    crate::common::check_input_error(&["merge", &a, &a], "shard 1/2 is given twice");
    crate::common::check_input_error(
        &["merge", &a, &deeper],
        "count different questions: depth '2' against '3'",
    );
    crate::common::check_input_error(
        &["merge", &a, &b, "--format", "junit"],
        "there is no junit perft report",
    );
}

/// The published schema of `seams perft --json`, which shard reports and
/// merged ones follow too.
fn perft_schema() -> jsonschema::Validator {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("conformance/schema/perft-report.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::draft202012::new(&schema).expect("the schema compiles")
}

/// The deep counts kept in conformance/deep/ are perft reports with their
/// divide, which adds up to the count PERFT.md gives.
#[test]
fn the_kept_deep_counts_are_whole_reports_that_add_up() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let perft_md = std::fs::read_to_string(root.join("conformance/PERFT.md")).unwrap();
    let schema = perft_schema();
    let mut kept = 0;
    for entry in std::fs::read_dir(root.join("conformance/deep")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(schema.is_valid(&json), "{}", path.display());
        let report = seams::variant::perft_report::parse("kept", &text).unwrap();
        let divide = report
            .divide
            .as_ref()
            .expect("a kept count lists its divide");
        assert_eq!(
            divide.values().sum::<u64>(),
            report.nodes,
            "{}",
            path.display()
        );
        assert_eq!(divide.len(), report.roots, "{}", path.display());
        let row = format!(
            "| {} | {} | {} |",
            report.variant, report.depth, report.nodes
        );
        assert!(perft_md.contains(&row), "PERFT.md lacks {row}");
        kept += 1;
    }
    assert_eq!(kept, 2);
}
