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
