//! The derived facts of two specs compared: what `seams spec check`
//! lists by default, so that a designer reads what an edit changed
//! rather than two sets of absolute tables.
//!
//! Each kind of fact (board geometry, tetrahedral facts, exchange
//! symmetry, designer rows, opening audits) is a list of rows with a key
//! (a board or a variant). Rows are compared field by field through their
//! JSON form, which every row already has for `--json`: a field that is a
//! list is compared item by item (new items, vanished items), any other
//! as `old → new`. One comparison for every kind keeps the report honest:
//! no kind can be left out of the diff by forgetting to write its printer.

use serde::Serialize;
use serde_json::Value;

use crate::quote;

/// One difference in one row.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(tag = "change", rename_all = "kebab-case")]
pub enum FactLine {
    /// A row only the draft has.
    Added { key: String },
    /// A row only the base has.
    Removed { key: String },
    /// A field whose value changed, as compact JSON.
    Changed {
        key: String,
        field: String,
        old: String,
        new: String,
    },
    /// An item a list field gained (an audit line, a stuck pawn, …).
    Gained {
        key: String,
        field: String,
        item: String,
    },
    /// An item a list field lost.
    Lost {
        key: String,
        field: String,
        item: String,
    },
}

/// The differences of one kind of fact, and how many rows did not change.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct FactDiff {
    pub kind: String,
    pub unchanged: usize,
    pub lines: Vec<FactLine>,
}

/// A line as `seams spec check` prints it: `key: field: old → new`,
/// `key: field: + item` and so on; the HTML page shows the same words.
impl std::fmt::Display for FactLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FactLine::Added { key } => write!(f, "{key}: new"),
            FactLine::Removed { key } => write!(f, "{key}: gone"),
            FactLine::Changed {
                key,
                field,
                old,
                new,
            } => write!(f, "{key}: {field}: {old} → {new}"),
            FactLine::Gained { key, field, item } => write!(f, "{key}: {field}: + {item}"),
            FactLine::Lost { key, field, item } => write!(f, "{key}: {field}: − {item}"),
        }
    }
}

impl FactLine {
    /// The row the line is about (a board or a variant).
    pub fn key(&self) -> &str {
        match self {
            FactLine::Added { key }
            | FactLine::Removed { key }
            | FactLine::Changed { key, .. }
            | FactLine::Gained { key, .. }
            | FactLine::Lost { key, .. } => key,
        }
    }
}

impl FactDiff {
    /// Rows that differ (added, removed or changed).
    pub fn changed_rows(&self) -> usize {
        let mut keys: Vec<&str> = self.lines.iter().map(FactLine::key).collect();
        keys.dedup();
        keys.len()
    }
}

/// Compares two lists of rows of one kind, keyed by the field `key`
/// (`board` or `variant`). Fields named in `ignore` (a rules version,
/// which an accepted draft changes on purpose) are left out.
pub fn diff_rows<T: Serialize>(
    kind: &str,
    key: &str,
    ignore: &[&str],
    base: &[T],
    draft: &[T],
) -> FactDiff {
    let rows = |list: &[T]| -> Vec<(String, serde_json::Map<String, Value>)> {
        list.iter()
            .filter_map(|r| match serde_json::to_value(r) {
                Ok(Value::Object(mut m)) => {
                    let k = m.get(key).map(shown).unwrap_or_default();
                    for f in ignore {
                        m.remove(*f);
                    }
                    Some((k, m))
                }
                _ => None,
            })
            .collect()
    };
    let (base, draft) = (rows(base), rows(draft));
    let mut lines = Vec::new();
    let mut unchanged = 0;
    for (k, b) in &base {
        match draft.iter().find(|(dk, _)| dk == k) {
            None => lines.push(FactLine::Removed { key: k.clone() }),
            Some((_, d)) if d == b => unchanged += 1,
            Some((_, d)) => diff_fields(k, b, d, &mut lines),
        }
    }
    for (k, _) in &draft {
        if !base.iter().any(|(bk, _)| bk == k) {
            lines.push(FactLine::Added { key: k.clone() });
        }
    }
    FactDiff {
        kind: kind.to_string(),
        unchanged,
        lines,
    }
}

fn diff_fields(
    key: &str,
    base: &serde_json::Map<String, Value>,
    draft: &serde_json::Map<String, Value>,
    out: &mut Vec<FactLine>,
) {
    diff_objects(key, "", base, draft, out)
}

/// The fields of two objects compared, named below `path`.
fn diff_objects(
    key: &str,
    path: &str,
    base: &serde_json::Map<String, Value>,
    draft: &serde_json::Map<String, Value>,
    out: &mut Vec<FactLine>,
) {
    let mut fields: Vec<&String> = base.keys().chain(draft.keys()).collect();
    fields.sort();
    fields.dedup();
    for field in fields {
        let named = if path.is_empty() {
            field.clone()
        } else {
            format!("{path}.{field}")
        };
        diff_values(key, &named, base.get(field), draft.get(field), out);
    }
}

/// Two values of one field compared. Objects are compared field by field
/// and lists of objects of one length item by item (their order is the
/// rows' own, such as the pawns by cell), so that a change names the
/// innermost field; a list of plain values gives one line of the items
/// gained and one of the items lost; anything else is `old → new`.
fn diff_values(
    key: &str,
    field: &str,
    base: Option<&Value>,
    draft: Option<&Value>,
    out: &mut Vec<FactLine>,
) {
    if base == draft {
        return;
    }
    let line = |make: fn(String, String, String) -> FactLine, items: Vec<&Value>| {
        let text: Vec<String> = items.into_iter().map(shown).collect();
        make(key.to_string(), field.to_string(), text.join(" "))
    };
    match (base, draft) {
        (Some(Value::Object(b)), Some(Value::Object(d))) => diff_objects(key, field, b, d, out),
        (Some(Value::Array(b)), Some(Value::Array(d)))
            if let (Some(bl), Some(dl)) = (labelled(b), labelled(d)) =>
        {
            // Items that name themselves (a pawn by owner and cell, a rule
            // by name) are compared with the same-named item.
            for (label, bi) in &bl {
                match dl.iter().find(|(l, _)| l == label) {
                    Some((_, di)) => {
                        let named = format!("{field}[{label}]");
                        diff_values(key, &named, Some(bi), Some(di), out);
                    }
                    None => out.push(line(
                        |key, field, item| FactLine::Lost { key, field, item },
                        vec![bi],
                    )),
                }
            }
            for (label, di) in &dl {
                if !bl.iter().any(|(l, _)| l == label) {
                    out.push(line(
                        |key, field, item| FactLine::Gained { key, field, item },
                        vec![di],
                    ));
                }
            }
        }
        (Some(Value::Array(b)), Some(Value::Array(d))) => {
            let gained: Vec<&Value> = d.iter().filter(|i| !b.contains(i)).collect();
            let lost: Vec<&Value> = b.iter().filter(|i| !d.contains(i)).collect();
            let plain = b.iter().chain(d).all(|v| !v.is_object() && !v.is_array());
            let gain = |key, field, item| FactLine::Gained { key, field, item };
            let lose = |key, field, item| FactLine::Lost { key, field, item };
            if plain {
                if !gained.is_empty() {
                    out.push(line(gain, gained));
                }
                if !lost.is_empty() {
                    out.push(line(lose, lost));
                }
            } else {
                out.extend(gained.into_iter().map(|i| line(gain, vec![i])));
                out.extend(lost.into_iter().map(|i| line(lose, vec![i])));
            }
        }
        _ => out.push(FactLine::Changed {
            key: key.to_string(),
            field: field.to_string(),
            old: base.map_or("absent".into(), shown),
            new: draft.map_or("absent".into(), shown),
        }),
    }
}

/// The items of a list of objects by what names them (their owner,
/// piece, cell or rule: `second a8`, `promotion zone`), when every item
/// has a name and no two share one.
fn labelled(items: &[Value]) -> Option<Vec<(String, &Value)>> {
    let mut out: Vec<(String, &Value)> = Vec::new();
    for item in items {
        let parts: Vec<&str> = ["owner", "piece", "cell", "rule"]
            .iter()
            .filter_map(|f| item.get(f).and_then(Value::as_str))
            .collect();
        let label = parts.join(" ");
        if label.is_empty() || out.iter().any(|(l, _)| *l == label) {
            return None;
        }
        out.push((label, item));
    }
    Some(out)
}

/// A value as a reader sees it, cut to a line's length: a string without
/// its quotes; a flat object (an audit line, say) as `field: value`
/// pairs, lists of plain values joined by spaces; anything deeper as
/// compact JSON.
fn shown(v: &Value) -> String {
    let text = match v {
        Value::Object(m) if piece_on_cell(v).is_none() => m
            .iter()
            .map(|(k, v)| words(v).map(|p| format!("{k}: {p}")))
            .collect::<Option<Vec<_>>>()
            .map_or_else(|| v.to_string(), |pairs| pairs.join("; ")),
        other => words(other).unwrap_or_else(|| other.to_string()),
    };
    quote::excerpt(&text).into_owned()
}

/// A plain value, a piece on a cell or a list of them in words; `None`
/// for anything deeper.
fn words(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(_) | Value::Bool(_) | Value::Null => Some(v.to_string()),
        Value::Array(items) => items
            .iter()
            .map(|i| if i.is_array() { None } else { words(i) })
            .collect::<Option<Vec<_>>>()
            .map(|parts| parts.join(" ")),
        Value::Object(_) => piece_on_cell(v),
    }
}

/// A piece on a cell, as the audit lines name one: `rb8`.
fn piece_on_cell(v: &Value) -> Option<String> {
    let (piece, cell) = (v.get("piece")?.as_str()?, v.get("cell")?.as_str()?);
    Some(format!("{piece}{cell}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Row {
        board: &'static str,
        faces: u32,
        lines: Vec<&'static str>,
        rules: &'static str,
    }

    fn row(board: &'static str, faces: u32, lines: &[&'static str], rules: &'static str) -> Row {
        Row {
            board,
            faces,
            lines: lines.to_vec(),
            rules,
        }
    }

    #[test]
    fn rows_compare_by_key_field_and_item() {
        let base = [
            row("a", 1, &["x"], "0.1"),
            row("b", 2, &["y", "z"], "0.1"),
            row("c", 3, &[], "0.1"),
        ];
        let draft = [
            row("a", 1, &["x"], "0.2"),
            row("b", 5, &["z", "w"], "0.1"),
            row("d", 4, &[], "0.1"),
        ];
        let d = diff_rows("boards", "board", &["rules"], &base, &draft);
        assert_eq!(d.unchanged, 1, "{d:?}");
        assert_eq!(
            d.lines,
            vec![
                FactLine::Changed {
                    key: "b".into(),
                    field: "faces".into(),
                    old: "2".into(),
                    new: "5".into()
                },
                FactLine::Gained {
                    key: "b".into(),
                    field: "lines".into(),
                    item: "w".into()
                },
                FactLine::Lost {
                    key: "b".into(),
                    field: "lines".into(),
                    item: "y".into()
                },
                FactLine::Removed { key: "c".into() },
                FactLine::Added { key: "d".into() },
            ]
        );
        assert_eq!(d.changed_rows(), 3);
        assert_eq!(
            shown(&serde_json::json!({"mate": false, "moves": ["a1-a2", "h9-b3"]})),
            "mate: false; moves: a1-a2 h9-b3"
        );
        assert_eq!(
            shown(&serde_json::json!({"players": [{"dark": ["g1"]}]})),
            r#"{"players":[{"dark":["g1"]}]}"#
        );
        let same = diff_rows("boards", "board", &[], &base, &base);
        assert_eq!((same.unchanged, same.lines.len()), (3, 0));
    }
}
