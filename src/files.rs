//! Reading the files a user names: only regular files, of bounded size, as
//! UTF-8 text. A folder, FIFO or device is refused before anything is read,
//! so nothing blocks and nothing reads until memory runs out
//! (`/dev/zero`, a FIFO with no writer, a board file linked to either).
//!
//! Every limit here is far above any real file of its kind, and is listed
//! in docs/measurements.md ("Input limits").

use std::path::Path;

/// The largest board or family data file (`spec/*/*.toml`): the shipped
/// ones are under 4 KiB.
pub const MAX_SPEC_FILE_BYTES: u64 = 1 << 20;
/// The largest rules document (`rules.md`): the shipped ones are under
/// 64 KiB.
pub const MAX_RULES_BYTES: u64 = 4 << 20;
/// The largest corpus case file or expectations file: the largest shipped
/// case file is under 256 KiB.
pub const MAX_CASE_FILE_BYTES: u64 = 16 << 20;
/// The largest game record: a record of a million plies is about 10 MB.
pub const MAX_RECORD_BYTES: u64 = 64 << 20;
/// The largest position file (`--position FILE`): a position text is a few
/// hundred bytes.
pub const MAX_POSITION_FILE_BYTES: u64 = 1 << 20;
/// The largest report `seams merge` reads: the JSON report of a whole
/// conform run of the shipped corpus is about 300 KB, a few times that
/// when every case fails with its answers written out; a fuzz shard's
/// lists every game it played, a few hundred bytes each.
pub const MAX_REPORT_BYTES: u64 = 256 << 20;

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    #[error("{path} is a folder, not a file")]
    Folder { path: String },
    #[error("{path} is not a regular file (a FIFO, device or socket)")]
    NotRegular { path: String },
    #[error("{path} has {size} bytes; at most {limit} are read")]
    TooLarge { path: String, size: u64, limit: u64 },
    #[error("{path} is not UTF-8 text (bad byte at offset {offset})")]
    NotUtf8 { path: String, offset: usize },
}

impl FileError {
    /// What is wrong, without the path (for errors that name the path
    /// themselves).
    pub fn reason(&self) -> String {
        match self {
            FileError::Io { message, .. } => message.clone(),
            FileError::Folder { .. } => "a folder, not a file".into(),
            FileError::NotRegular { .. } => "not a regular file (a FIFO, device or socket)".into(),
            FileError::TooLarge { size, limit, .. } => {
                format!("{size} bytes; at most {limit} are read")
            }
            FileError::NotUtf8 { offset, .. } => {
                format!("not UTF-8 text (bad byte at offset {offset})")
            }
        }
    }
}

/// Reads `path` as UTF-8 text if it is a regular file of at most `limit`
/// bytes (symbolic links are followed, to their target's kind and size).
pub fn read_text(path: &Path, limit: u64) -> Result<String, FileError> {
    let shown = || path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| FileError::Io {
        path: shown(),
        message: e.to_string(),
    })?;
    if meta.is_dir() {
        return Err(FileError::Folder { path: shown() });
    }
    if !meta.is_file() {
        return Err(FileError::NotRegular { path: shown() });
    }
    if meta.len() > limit {
        return Err(FileError::TooLarge {
            path: shown(),
            size: meta.len(),
            limit,
        });
    }
    // The size is read again as the file is: it may have grown since.
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path).map_err(|e| FileError::Io {
        path: shown(),
        message: e.to_string(),
    })?;
    use std::io::Read as _;
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::Io {
            path: shown(),
            message: e.to_string(),
        })?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            path: shown(),
            size: bytes.len() as u64,
            limit,
        });
    }
    String::from_utf8(bytes).map_err(|e| FileError::NotUtf8 {
        path: shown(),
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Writes a file by writing a temporary file beside it and renaming it
/// over the target, so readers never see half a file.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(path: &Path, limit: u64, expect: &str) {
        match read_text(path, limit) {
            Ok(text) => assert_eq!(text, expect),
            Err(e) => assert!(e.to_string().contains(expect), "{e}"),
        }
    }

    #[test]
    fn only_regular_files_of_bounded_size() {
        let dir = std::env::temp_dir().join(format!("seams-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.txt");
        std::fs::write(&file, "hello").unwrap();
        check(&file, 5, "hello");
        check(&file, 4, "has 5 bytes; at most 4 are read");
        check(&dir, 5, "is a folder, not a file");
        check(Path::new("/dev/zero"), 5, "is not a regular file");
        check(&dir.join("missing"), 5, "missing");
        std::fs::write(&file, b"\xffx").unwrap();
        check(&file, 5, "not UTF-8 text (bad byte at offset 0)");
    }
}

/// The 1-based line of `entry` in the TOML `text`: a dotted path with
/// array indexes as the data errors name their fields (`promotion.first`,
/// `setup.rows[2].pieces`, `setup[0]`). Where the path goes further than
/// the file does (a missing key, an index past the end), the line of the
/// deepest part that exists; `None` when not even the first key exists
/// or the text is not TOML (its parse error names its own line).
pub fn toml_line(text: &str, entry: &str) -> Option<usize> {
    use toml::de::{DeTable, DeValue};
    let doc = DeTable::parse(text).ok()?;
    let mut found: Option<std::ops::Range<usize>> = None;
    let mut here: &DeValue = &DeValue::Table(doc.get_ref().clone());
    for part in path_parts(entry) {
        let next = match (here, part) {
            (DeValue::Table(t), Part::Key(k)) => t
                .iter()
                .find(|(key, _)| key.get_ref() == k)
                .map(|(key, value)| (key.span(), value)),
            (DeValue::Array(a), Part::Index(i)) => a.get(i).map(|v| (v.span(), v)),
            _ => None,
        };
        let Some((span, value)) = next else { break };
        found = Some(span);
        here = value.get_ref();
    }
    let start = found?.start.min(text.len());
    Some(text[..start].matches('\n').count() + 1)
}

/// One step of an entry path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part<'a> {
    Key(&'a str),
    Index(usize),
}

/// `setup.rows[2].pieces` as `setup`, `rows`, `[2]`, `pieces`. A part
/// that is neither (such as `[x]`) ends the path.
fn path_parts(entry: &str) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    for dotted in entry.split('.') {
        let (key, mut rest) = dotted.split_once('[').map_or((dotted, ""), |(k, r)| (k, r));
        if !key.is_empty() {
            out.push(Part::Key(key));
        }
        while !rest.is_empty() {
            let Some((index, after)) = rest.split_once(']') else {
                return out;
            };
            let Ok(i) = index.parse() else { return out };
            out.push(Part::Index(i));
            rest = after.strip_prefix('[').unwrap_or(after);
        }
    }
    out
}

#[cfg(test)]
mod toml_line_tests {
    use super::toml_line;

    const TEXT: &str = "variant = \"x\"\n\n[[setup.rows]]\npieces = \"LN\"\nfirst = \"1\"\n\n[[setup.rows]]\npieces = \"B.\"\n\n[promotion]\nfirst = [\"9-11\"]\n";

    #[test]
    fn entries_are_found_by_their_paths() {
        for (entry, line) in [
            ("variant", Some(1)),
            ("setup.rows[0].pieces", Some(4)),
            ("setup.rows[0].first", Some(5)),
            ("setup.rows[1].pieces", Some(8)),
            ("promotion.first", Some(11)),
            ("promotion.first[0]", Some(11)),
            // Past the end: the deepest part that exists.
            ("setup.rows[7].pieces", Some(3)),
            ("promotion.second", Some(10)),
            ("dead-ranks.pawn", None),
            ("toml", None),
        ] {
            assert_eq!(toml_line(TEXT, entry), line, "{entry}");
        }
        assert_eq!(toml_line("not = = toml", "not"), None);
    }
}
