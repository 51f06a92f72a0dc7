//! The layer picture of ARCHITECTURE.md, held against the code.
//!
//! ARCHITECTURE.md's "Layers" table lists every module of `src/` in a
//! layer. This test reads the table and every source file's module paths
//! (`use` trees, `crate::`/`super::`/`self::` paths in code, paths through
//! a child module, re-exports followed to the item's own file) and fails,
//! naming the file, line and import, when
//! - a file belongs to no unit of the table,
//! - an import points to a higher layer, or
//! - two units use each other, directly or through others.
//!
//! A unit is a module with everything inside it (`rules`), or, written
//! `m::*`, a module's own file and each of its child modules apart
//! (`conformance::*`). Files inside one unit may use each other freely;
//! ARCHITECTURE.md says why each such unit is one. The compiler checks
//! none of this: the test keeps the picture true.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A source file: its module path (`conformance::engine`; `main` and
/// `cli::…` for the binary) and its text.
struct Source {
    path: String,
    module: Vec<String>,
    text: String,
}

/// One import found in a file: the line and the path as written.
#[derive(Clone, Debug)]
struct Import {
    line: usize,
    written: String,
    to: String,
}

struct Layer {
    number: u32,
    name: String,
    units: Vec<String>,
}

#[test]
fn imports_follow_the_layers_of_architecture_md() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let architecture =
        std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let layers = read_layers(&architecture).unwrap_or_else(|e| panic!("ARCHITECTURE.md: {e}"));
    let sources = read_sources(&root.join("src"));
    let problems = check(&layers, &sources);
    // Shown with `--nocapture`: how many files of each layer import from
    // each lower one (a file counted once per file it imports from).
    println!("{}", layer_counts(&layers, &sources));
    assert!(
        problems.is_empty(),
        "the imports of src/ disagree with the layers of ARCHITECTURE.md:\n  {}",
        problems.join("\n  ")
    );
}

/// A table of imports between layers: for each layer, how many
/// (importing file, imported file) pairs land in each layer at or below it.
fn layer_counts(layers: &[Layer], sources: &[Source]) -> String {
    let layer_of = |path: &str| -> Option<u32> {
        let s = sources.iter().find(|s| s.path == path)?;
        unit_of(layers, &unit_module(s)).map(|(_, l)| l.number)
    };
    let mut counts: BTreeMap<(u32, u32), usize> = BTreeMap::new();
    for (file, found) in imports(sources) {
        let Some(from) = layer_of(&file) else {
            continue;
        };
        let targets: BTreeSet<&String> = found.iter().map(|i| &i.to).collect();
        for to in targets.into_iter().filter_map(|t| layer_of(t)) {
            *counts.entry((from, to)).or_default() += 1;
        }
    }
    let name = |n: u32| {
        layers
            .iter()
            .find(|l| l.number == n)
            .map_or("?", |l| l.name.as_str())
    };
    let mut out = String::from("file imports by layer (from -> to: files):\n");
    for l in layers {
        let row: Vec<String> = counts
            .iter()
            .filter(|((from, _), _)| *from == l.number)
            .map(|((_, to), n)| format!("{} {n}", name(*to)))
            .collect();
        out.push_str(&format!(
            "  {:>2} {:<12} -> {}\n",
            l.number,
            l.name,
            row.join(", ")
        ));
    }
    out
}

/// The checker itself, on small trees: it must find each kind of problem,
/// or the test above could pass while checking nothing.
#[test]
fn the_checker_finds_what_it_must() {
    let layers = read_layers(
        "<!-- layers -->\n```text\n\
         layer  name     units           may use\n\
         0      base     quote           std\n\
         1      rules    rules           base\n\
         2      top      conformance::*  everything below\n\
         ```\n",
    )
    .expect("the example table reads");
    let ok = [
        ("src/quote.rs", "pub fn f() {}"),
        ("src/rules/mod.rs", "mod game;\npub use game::Game;"),
        ("src/rules/game.rs", "use super::Player; pub struct Game;"),
        (
            "src/conformance/mod.rs",
            "pub mod a;\npub mod b;\npub use a::A;",
        ),
        ("src/conformance/a.rs", "use crate::rules::Game;"),
        (
            "src/conformance/b.rs",
            "use crate::quote::f; // crate::rules::nothing",
        ),
    ];
    check_tree(&layers, &ok, &[]);

    // An import pointing up, written three ways.
    let mut up = ok.to_vec();
    up[0] = ("src/quote.rs", "use crate::rules::Game;");
    check_tree(&layers, &up, &["src/quote.rs:1 imports crate::rules::Game"]);
    up[0] = (
        "src/quote.rs",
        "fn f() { crate::rules::game::Game::new(); }",
    );
    check_tree(
        &layers,
        &up,
        &["src/quote.rs:1 imports crate::rules::game::Game"],
    );
    up[0] = ("src/quote.rs", "use crate::{conformance::a, rules};");
    check_tree(
        &layers,
        &up,
        &[
            "src/quote.rs:1 imports crate::conformance::a",
            "src/quote.rs:1 imports crate::rules",
        ],
    );

    // Two units of one layer using each other, one of them through a
    // re-export of the folder's own file.
    let mut circle = ok.to_vec();
    circle[4] = ("src/conformance/a.rs", "use super::b::B;");
    circle[5] = ("src/conformance/b.rs", "use crate::conformance::A;");
    check_tree(
        &layers,
        &circle,
        &["circle: conformance::a -> conformance::b"],
    );

    // A circle through three units, with a shortcut beside it.
    let mut three = ok.to_vec();
    three[4] = ("src/conformance/a.rs", "use super::b; use super::c;");
    three[5] = ("src/conformance/b.rs", "use super::c::C;");
    three.push(("src/conformance/c.rs", "use super::a::A;"));
    check_tree(
        &layers,
        &three,
        &["circle: conformance::a -> conformance::c -> conformance::a"],
    );
    three[6] = (
        "src/conformance/c.rs",
        "use crate::quote; fn f() { super::b::g() }",
    );
    three[4] = ("src/conformance/a.rs", "use super::b;");
    three[5] = ("src/conformance/b.rs", "use super::c::C;\nuse super::a::A;");
    check_tree(
        &layers,
        &three,
        &["circle: conformance::a -> conformance::b -> conformance::a"],
    );
    three[5] = ("src/conformance/b.rs", "use super::c::C;");
    three[6] = ("src/conformance/c.rs", "fn f() { super::a::g() }");
    check_tree(
        &layers,
        &three,
        &["circle: conformance::a -> conformance::b -> conformance::c -> conformance::a"],
    );

    // Inside one unit, files may use each other.
    let mut inside = ok.to_vec();
    inside[1] = (
        "src/rules/mod.rs",
        "mod game;\nuse game::Game;\npub struct Player;",
    );
    check_tree(&layers, &inside, &[]);

    // A test module's `super` is its own file's module.
    let mut tests = ok.to_vec();
    tests[2] = (
        "src/rules/game.rs",
        "#[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::conformance::b;\n}",
    );
    check_tree(
        &layers,
        &tests,
        &["src/rules/game.rs:4 imports crate::conformance::b"],
    );

    // A file in no unit, and strings and comments that only look like paths.
    let mut stray = ok.to_vec();
    stray.push(("src/stray.rs", "const S: &str = \"crate::conformance::a\";"));
    check_tree(&layers, &stray, &["src/stray.rs belongs to no unit"]);
}

/// Checks a made-up tree and compares the problems found with `expect`,
/// each a start of one problem's text, in order.
fn check_tree(layers: &[Layer], files: &[(&str, &str)], expect: &[&str]) {
    let sources: Vec<Source> = files
        .iter()
        .map(|(path, text)| Source {
            path: path.to_string(),
            module: module_of(path.strip_prefix("src/").unwrap()),
            text: text.to_string(),
        })
        .collect();
    let problems = check(layers, &sources);
    let shown = problems.join("\n");
    assert_eq!(problems.len(), expect.len(), "problems:\n{shown}");
    for (p, e) in problems.iter().zip(expect) {
        assert!(p.starts_with(e), "expected '{e}…', found:\n{shown}");
    }
}

// ---- the table --------------------------------------------------------

/// The fenced block after the `<!-- layers -->` marker: a header line,
/// then one line per layer with columns apart by two or more spaces:
/// number, name, units (apart by single spaces), what it may use.
fn read_layers(text: &str) -> Result<Vec<Layer>, String> {
    let start = text
        .find("<!-- layers -->")
        .ok_or("no `<!-- layers -->` marker before the layer table")?;
    let block = text[start..]
        .split("```")
        .nth(1)
        .ok_or("no fenced block after the `<!-- layers -->` marker")?;
    let mut layers = Vec::new();
    for line in block.lines().skip(2).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = split_columns(line.trim());
        if cols.len() != 4 {
            return Err(format!(
                "layer line '{line}' has {} columns, not 4 (layer, name, units, may use)",
                cols.len()
            ));
        }
        let number = cols[0]
            .parse()
            .map_err(|_| format!("layer line '{line}': '{}' is not a number", cols[0]))?;
        layers.push(Layer {
            number,
            name: cols[1].to_string(),
            units: cols[2].split(' ').map(str::to_string).collect(),
        });
    }
    if layers.is_empty() {
        return Err("the layer table lists no layer".into());
    }
    if layers.windows(2).any(|w| w[0].number >= w[1].number) {
        return Err("the layers are not numbered bottom up".into());
    }
    Ok(layers)
}

fn split_columns(line: &str) -> Vec<&str> {
    let mut cols = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("  ") {
        cols.push(rest[..i].trim());
        rest = rest[i..].trim_start();
    }
    if !rest.is_empty() {
        cols.push(rest);
    }
    cols
}

/// The unit a module belongs to, with its layer: the longest unit that is
/// the module or holds it; `m::*` makes `m` itself and each child apart.
fn unit_of<'l>(layers: &'l [Layer], module: &[String]) -> Option<(String, &'l Layer)> {
    let name = module.join("::");
    let mut best: Option<(String, &Layer, usize)> = None;
    for layer in layers {
        for unit in &layer.units {
            let found = match unit.strip_suffix("::*") {
                Some(parent) if name == parent => Some((parent.to_string(), usize::MAX)),
                Some(parent) => {
                    let p: Vec<&str> = parent.split("::").collect();
                    (module.len() > p.len() && module.iter().zip(&p).all(|(a, b)| a == b))
                        .then(|| (module[..=p.len()].join("::"), p.len() + 1))
                }
                None => {
                    let u: Vec<&str> = unit.split("::").collect();
                    (module.len() >= u.len() && module.iter().zip(&u).all(|(a, b)| a == b))
                        .then(|| (unit.clone(), u.len()))
                }
            };
            if let Some((id, depth)) = found
                && best.as_ref().is_none_or(|b| depth > b.2)
            {
                best = Some((id, layer, depth));
            }
        }
    }
    best.map(|(id, layer, _)| (id, layer))
}

// ---- the sources ------------------------------------------------------

fn read_sources(src: &Path) -> Vec<Source> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(src)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let rel = p
                .strip_prefix(src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            // The library root only declares modules.
            (rel != "lib.rs").then(|| Source {
                path: format!("src/{rel}"),
                module: module_of(&rel),
                text: std::fs::read_to_string(&p).unwrap(),
            })
        })
        .collect()
}

/// `conformance/engine.rs` → `conformance::engine`; `rules/mod.rs` →
/// `rules`; `main.rs` → `main` (the binary, whose `crate` is `main`).
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The module a file's unit is looked up by: `main` for the binary's root
/// (whose `crate` holds `cli`), the file's own module otherwise.
fn unit_module(s: &Source) -> Vec<String> {
    if s.module.first().is_some_and(|m| m == "main") {
        vec!["main".to_string()]
    } else {
        s.module.clone()
    }
}

/// Whether a file is part of the binary (`main.rs` and `cli/`), whose
/// `crate::` is the binary and whose `seams::` is the library.
fn in_binary(module: &[String]) -> bool {
    module.first().is_some_and(|m| m == "main" || m == "cli")
}

/// Every import of every file, resolved to the file that defines it.
fn imports(sources: &[Source]) -> BTreeMap<String, Vec<Import>> {
    let files: BTreeMap<Vec<String>, &Source> =
        sources.iter().map(|s| (s.module.clone(), s)).collect();
    let reexports: BTreeMap<Vec<String>, Vec<(String, Vec<String>)>> = sources
        .iter()
        .map(|s| (s.module.clone(), reexports_of(s, &files)))
        .collect();
    let mut out = BTreeMap::new();
    for s in sources {
        let mut found = Vec::new();
        for (line, scope, path) in paths_of(&s.text) {
            let Some(absolute) = absolute(s, &scope, &path, &files) else {
                continue;
            };
            let Some(target) = resolve(&absolute, &files, &reexports, 0) else {
                continue;
            };
            if target != s.module {
                found.push(Import {
                    line,
                    written: path.join("::"),
                    to: files[&target].path.clone(),
                });
            }
        }
        out.insert(s.path.clone(), found);
    }
    out
}

/// A path as written in `scope` (the file's module plus inline modules)
/// made absolute, or `None` for a path outside this crate.
fn absolute(
    s: &Source,
    scope: &[String],
    path: &[String],
    files: &BTreeMap<Vec<String>, &Source>,
) -> Option<Vec<String>> {
    let binary = in_binary(&s.module);
    let mut here: Vec<String> = s.module.iter().chain(scope).cloned().collect();
    if binary && here.first().is_some_and(|m| m == "main") {
        here.remove(0);
    }
    let first = path.first()?.as_str();
    let rest = &path[1..];
    let base: Vec<String> = match first {
        "crate" => Vec::new(),
        "seams" if binary => return Some(rest.to_vec()),
        "self" => here.clone(),
        "super" => {
            let mut up = here.clone();
            let mut rest = path;
            while rest.first().is_some_and(|p| p == "super") {
                up.pop()?;
                rest = &rest[1..];
            }
            return Some(up.into_iter().chain(rest.iter().cloned()).collect());
        }
        // A path through a child module of the file (`use data::X`).
        _ => {
            let mut child = s.module.clone();
            if binary && child.first().is_some_and(|m| m == "main") {
                child.remove(0);
            }
            child.push(first.to_string());
            // The binary's only child modules are `cli`'s.
            if binary && child.first().is_none_or(|m| m != "cli") {
                return None;
            }
            return files.contains_key(&child).then(|| {
                child
                    .into_iter()
                    .chain(rest.iter().cloned())
                    .collect::<Vec<_>>()
            });
        }
    };
    Some(base.into_iter().chain(rest.iter().cloned()).collect())
}

/// The file that defines what `path` names: the longest prefix that is a
/// module file, then, where that file re-exports the next name, the
/// re-export's own file.
fn resolve(
    path: &[String],
    files: &BTreeMap<Vec<String>, &Source>,
    reexports: &BTreeMap<Vec<String>, Vec<(String, Vec<String>)>>,
    depth: usize,
) -> Option<Vec<String>> {
    let len = (1..=path.len())
        .rev()
        .find(|&n| files.contains_key(&path[..n]))?;
    let module = path[..len].to_vec();
    if depth < 8
        && let Some(name) = path.get(len)
        && let Some((_, target)) = reexports
            .get(&module)
            .and_then(|r| r.iter().find(|(n, _)| n == name))
    {
        let mut next = target.clone();
        next.extend(path[len + 1..].iter().cloned());
        return resolve(&next, files, reexports, depth + 1).or(Some(module));
    }
    Some(module)
}

/// The names a file re-exports (`pub use x::Y;`, `pub use x::{Y, Z as W}`)
/// with the absolute path each stands for.
fn reexports_of(s: &Source, files: &BTreeMap<Vec<String>, &Source>) -> Vec<(String, Vec<String>)> {
    let stripped = strip(&s.text);
    let mut out = Vec::new();
    for (_, scope, public, tree) in use_statements(&stripped) {
        if !public {
            continue;
        }
        for (path, alias) in tree {
            if let Some(abs) = absolute(s, &scope, &path, files)
                && let Some(last) = alias.or_else(|| path.last().cloned())
                && last != "*"
            {
                out.push((last, abs));
            }
        }
    }
    out
}

// ---- reading paths out of Rust text -----------------------------------

/// Every path of interest in `text` with its line and the module scope it
/// is written in (the file's module is the caller's; inline `mod x {}`
/// blocks add to it).
fn paths_of(text: &str) -> Vec<(usize, Vec<String>, Vec<String>)> {
    let stripped = strip(text);
    let mut out = Vec::new();
    let mut in_use = BTreeSet::new();
    for (range, scope, _, tree) in use_statements(&stripped) {
        let line = line_of(&stripped, range.start);
        in_use.extend(range.clone());
        for (path, _) in tree {
            out.push((line, scope.clone(), path));
        }
    }
    // Paths in code: `a::b::c` outside `use` statements. A path of one
    // segment names nothing across files.
    let tokens = tokens(&stripped);
    let mut i = 0;
    while i < tokens.len() {
        let (at, ref tok) = tokens[i];
        let starts = is_ident(tok)
            && tokens.get(i + 1).is_some_and(|t| t.1 == "::")
            && (i == 0 || tokens[i - 1].1 != "::")
            && !in_use.contains(&at);
        if starts {
            let mut path = vec![tok.clone()];
            let mut j = i + 1;
            while tokens.get(j).is_some_and(|t| t.1 == "::")
                && tokens.get(j + 1).is_some_and(|t| is_ident(&t.1))
            {
                path.push(tokens[j + 1].1.clone());
                j += 2;
            }
            let scope = scope_at(&stripped, at);
            out.push((line_of(&stripped, at), scope, path));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Each `use` statement: its byte range, its scope, whether it is `pub`,
/// and its paths with their aliases.
#[allow(clippy::type_complexity)]
fn use_statements(
    stripped: &str,
) -> Vec<(
    std::ops::Range<usize>,
    Vec<String>,
    bool,
    Vec<(Vec<String>, Option<String>)>,
)> {
    let tokens = tokens(stripped);
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i].1 != "use" {
            i += 1;
            continue;
        }
        let public = i > 0 && (tokens[i - 1].1 == "pub" || tokens[i - 1].1 == ")");
        let start = tokens[i].0;
        let mut j = i + 1;
        let mut tree = Vec::new();
        use_tree(&tokens, &mut j, &mut Vec::new(), &mut tree);
        let end = tokens.get(j).map_or(stripped.len(), |t| t.0 + 1);
        out.push((start..end, scope_at(stripped, start), public, tree));
        i = j + 1;
    }
    out
}

/// Reads one use tree from `tokens[*i]`, appending its full paths.
fn use_tree(
    tokens: &[(usize, String)],
    i: &mut usize,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let depth = prefix.len();
    while let Some((_, t)) = tokens.get(*i) {
        match t.as_str() {
            "::" => *i += 1,
            "{" => {
                *i += 1;
                loop {
                    use_tree(tokens, i, prefix, out);
                    match tokens.get(*i).map(|t| t.1.as_str()) {
                        Some(",") => *i += 1,
                        Some("}") => {
                            *i += 1;
                            break;
                        }
                        _ => break,
                    }
                    if tokens.get(*i).is_some_and(|t| t.1 == "}") {
                        *i += 1;
                        break;
                    }
                }
                prefix.truncate(depth);
                return;
            }
            "as" => {
                let alias = tokens.get(*i + 1).map(|t| t.1.clone());
                *i += 2;
                out.push((prefix.clone(), alias));
                prefix.truncate(depth);
                return;
            }
            "," | "}" | ";" => {
                if prefix.len() > depth {
                    let path = prefix.clone();
                    // `self` in a list names the list's own path.
                    let path = if path.last().is_some_and(|p| p == "self") && path.len() > 1 {
                        path[..path.len() - 1].to_vec()
                    } else {
                        path
                    };
                    out.push((path, None));
                }
                prefix.truncate(depth);
                return;
            }
            tok => {
                prefix.push(tok.to_string());
                *i += 1;
            }
        }
    }
}

/// The inline modules (`mod tests { … }`) open at byte `at`, outermost
/// first.
fn scope_at(stripped: &str, at: usize) -> Vec<String> {
    let tokens = tokens(&stripped[..at]);
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    for (k, (_, t)) in tokens.iter().enumerate() {
        match t.as_str() {
            "{" => {
                depth += 1;
                if k >= 2 && tokens[k - 2].1 == "mod" && is_ident(&tokens[k - 1].1) {
                    stack.push((tokens[k - 1].1.clone(), depth));
                }
            }
            "}" => {
                if stack.last().is_some_and(|s| s.1 == depth) {
                    stack.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
    stack.into_iter().map(|s| s.0).collect()
}

fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// Identifiers, `::` and single punctuation, with their byte offsets.
fn tokens(stripped: &str) -> Vec<(usize, String)> {
    let b = stripped.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            // `r#ident` is the raw identifier `ident`.
            out.push((start, stripped[start..i].to_string()));
        } else if c == b':' && b.get(i + 1) == Some(&b':') {
            out.push((i, "::".into()));
            i += 2;
        } else {
            if !c.is_ascii_whitespace() {
                out.push((i, (c as char).to_string()));
            }
            i += 1;
        }
    }
    out
}

/// `text` with comments, strings and character literals blanked out (kept
/// as spaces, newlines kept), so that only code is read.
fn strip(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for x in out.iter_mut().take(to).skip(from) {
            if *x != b'\n' {
                *x = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(b.len(), |n| i + n);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let (mut depth, mut j) = (1, i + 2);
                while j < b.len() && depth > 0 {
                    if b[j] == b'/' && b.get(j + 1) == Some(&b'*') {
                        depth += 1;
                        j += 2;
                    } else if b[j] == b'*' && b.get(j + 1) == Some(&b'/') {
                        depth -= 1;
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i, j);
                i = j;
            }
            b'r' if matches!(b.get(i + 1), Some(b'"') | Some(b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let body = i + 2 + hashes;
                let end = text[body..]
                    .find(&close)
                    .map_or(b.len(), |n| body + n + close.len());
                blank(&mut out, i, end);
                i = end;
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                blank(&mut out, i, (j + 1).min(b.len()));
                i = j + 1;
            }
            b'\'' => {
                // A character literal ('x', '\n', '\u{1F600}') or a lifetime.
                let end = if b.get(i + 1) == Some(&b'\\') {
                    text[i + 2..].find('\'').map(|n| i + 2 + n + 1)
                } else {
                    let ch = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                    (b.get(i + 1 + ch) == Some(&b'\'')).then_some(i + 2 + ch)
                };
                match end {
                    Some(end) => {
                        blank(&mut out, i, end);
                        i = end;
                    }
                    None => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    String::from_utf8(out).expect("only ASCII bytes were blanked")
}

// ---- the checks -------------------------------------------------------

/// Every problem, each as one line naming the file, the import and the
/// rule it breaks.
fn check(layers: &[Layer], sources: &[Source]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut unit_of_file: BTreeMap<String, (String, &Layer)> = BTreeMap::new();
    for s in sources {
        let module = unit_module(s);
        match unit_of(layers, &module) {
            Some(u) => {
                unit_of_file.insert(s.path.clone(), u);
            }
            None => problems.push(format!(
                "{} belongs to no unit of the layer table (module {})",
                s.path,
                module.join("::")
            )),
        }
    }
    let imports = imports(sources);
    // unit -> unit -> the first import that ties them, for the messages.
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (file, found) in &imports {
        let Some((unit, layer)) = unit_of_file.get(file) else {
            continue;
        };
        for imp in found {
            let Some((to_unit, to_layer)) = unit_of_file.get(&imp.to) else {
                continue;
            };
            if to_unit == unit {
                continue;
            }
            if to_layer.number > layer.number {
                problems.push(format!(
                    "{file}:{} imports {} ({}, layer {} {}) from layer {} {}: imports must point down",
                    imp.line,
                    imp.written,
                    imp.to,
                    to_layer.number,
                    to_layer.name,
                    layer.number,
                    layer.name
                ));
            }
            edges
                .entry(unit.clone())
                .or_default()
                .entry(to_unit.clone())
                .or_insert_with(|| format!("{file}:{} imports {}", imp.line, imp.written));
        }
    }
    for circle in circles(&edges) {
        let ties: Vec<String> = circle
            .iter()
            .zip(circle.iter().cycle().skip(1))
            .map(|(a, b)| edges[a][b].clone())
            .collect();
        problems.push(format!(
            "circle: {} -> {} ({})",
            circle.join(" -> "),
            circle[0],
            ties.join("; ")
        ));
    }
    problems
}

/// The circles of the unit graph: for each strongly connected set of more
/// than one unit, one closed walk through its members.
fn circles(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges
        .keys()
        .chain(edges.values().flat_map(|m| m.keys()))
        .collect();
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for next in edges.get(&n).into_iter().flat_map(|m| m.keys()) {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for n in &nodes {
        if done.contains(*n) || !reaches[n].contains(*n) {
            continue;
        }
        let members: BTreeSet<String> = reaches[n]
            .iter()
            .filter(|m| reaches[m].contains(*n))
            .cloned()
            .collect();
        done.extend(members.iter().cloned());
        // The shortest circle through n: breadth first from n until a
        // unit with an import back to n.
        let mut parent: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([(*n).clone()]);
        let mut last = None;
        while let Some(at) = queue.pop_front() {
            let next = edges.get(&at).into_iter().flat_map(|m| m.keys());
            if next.clone().any(|k| k == *n) {
                last = Some(at);
                break;
            }
            for k in next.filter(|k| members.contains(*k)) {
                if *k != **n && !parent.contains_key(k) {
                    parent.insert(k.clone(), at.clone());
                    queue.push_back(k.clone());
                }
            }
        }
        let mut walk = Vec::new();
        let mut at = last.expect("a member of a circle leads back");
        while at != **n {
            let up = parent[&at].clone();
            walk.push(at);
            at = up;
        }
        walk.push((*n).clone());
        walk.reverse();
        out.push(walk);
    }
    out
}
