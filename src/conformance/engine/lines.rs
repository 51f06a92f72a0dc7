//! Lines of bounded length from any byte stream, read resumably: both ends
//! of the protocol read through it.

use std::io::{BufRead, BufReader};

/// One line read by [`CappedLines`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's bytes, without the newline.
    Text(Vec<u8>),
    /// A line longer than the cap, with its length in bytes.
    TooLong(usize),
    /// End of file or a read error: the stream is closed.
    Closed,
}

/// Reads newline-terminated lines of at most `cap` bytes from any byte
/// stream; a longer line is counted and skipped as it streams by, never
/// held whole. Both ends of the protocol read through it: the runner the
/// engine's replies, `seams engine` its requests. On a non-blocking stream
/// a line may arrive in pieces: [`CappedLines::try_line`] keeps what it
/// has read and goes on where it stopped.
pub struct CappedLines<R> {
    pub(super) reader: BufReader<R>,
    cap: usize,
    /// The line read so far (empty once it is known to be too long).
    line: Vec<u8>,
    /// The length so far of a line found to be longer than the cap.
    too_long: Option<usize>,
    /// Whether any byte of the current line was read.
    read_any: bool,
}

impl<R: std::io::Read> CappedLines<R> {
    pub fn new(inner: R, cap: usize) -> CappedLines<R> {
        CappedLines {
            reader: BufReader::with_capacity(64 << 10, inner),
            cap,
            line: Vec::new(),
            too_long: None,
            read_any: false,
        }
    }

    /// Whether a whole line is already read into the buffer, so that the
    /// next [`CappedLines::next_line`] returns without waiting. An engine
    /// may hold its replies while this holds, and must flush before it
    /// waits.
    pub fn line_waiting(&self) -> bool {
        self.reader.buffer().contains(&b'\n')
    }

    /// The next line. A last line without a newline still counts. On a
    /// blocking stream this waits for it.
    pub fn next_line(&mut self) -> Line {
        loop {
            if let Some(line) = self.try_line() {
                return line;
            }
        }
    }

    /// The next line if it can be read without waiting; `None` when a
    /// non-blocking stream has nothing more for now (the part of the line
    /// read so far is kept for the next call).
    pub fn try_line(&mut self) -> Option<Line> {
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(b) if !b.is_empty() => b,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return None,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                _ if self.read_any => break,
                _ => return Some(Line::Closed),
            };
            self.read_any = true;
            let newline = buf.iter().position(|&b| b == b'\n');
            let chunk = &buf[..newline.unwrap_or(buf.len())];
            match &mut self.too_long {
                Some(n) => *n += chunk.len(),
                None if self.line.len() + chunk.len() > self.cap => {
                    self.too_long = Some(self.line.len() + chunk.len());
                    self.line = Vec::new();
                }
                None => self.line.extend_from_slice(chunk),
            }
            let used = newline.map_or(buf.len(), |i| i + 1);
            self.reader.consume(used);
            if newline.is_some() {
                break;
            }
        }
        self.read_any = false;
        let mut line = std::mem::take(&mut self.line);
        Some(match self.too_long.take() {
            Some(n) => Line::TooLong(n),
            None => {
                while line.last().is_some_and(|b| b.is_ascii_whitespace()) {
                    line.pop();
                }
                Line::Text(line)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream that hands out its pieces one read at a time, saying
    /// "would block" between them, like a non-blocking pipe whose writer
    /// is slow.
    struct Trickle(Vec<&'static [u8]>, bool);

    impl std::io::Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.1 = !self.1;
            if self.1 {
                return Err(std::io::ErrorKind::WouldBlock.into());
            }
            if self.0.is_empty() {
                return Ok(0);
            }
            let piece = self.0.remove(0);
            buf[..piece.len()].copy_from_slice(piece);
            Ok(piece.len())
        }
    }

    #[test]
    fn a_line_in_pieces_is_read_whole() {
        let pieces = vec![&b"{\"id\":"[..], b"1}\nlong", b"er than ten\nla", b"st"];
        let mut lines = CappedLines::new(Trickle(pieces, false), 10);
        let mut got = Vec::new();
        let mut waits = 0;
        loop {
            match lines.try_line() {
                None => waits += 1,
                Some(Line::Closed) => break,
                Some(line) => got.push(line),
            }
        }
        assert_eq!(
            got,
            vec![
                Line::Text(b"{\"id\":1}".to_vec()),
                Line::TooLong(15),
                Line::Text(b"last".to_vec()),
            ]
        );
        assert!(waits >= 4, "the stream said 'would block' {waits} times");
    }

    #[test]
    fn long_lines_are_skipped_not_held() {
        let input = format!("short\n{}\nnext\r\nlast", "x".repeat(100));
        let mut lines = CappedLines::new(input.as_bytes(), 10);
        assert_eq!(lines.next_line(), Line::Text(b"short".to_vec()));
        assert_eq!(lines.next_line(), Line::TooLong(100));
        assert_eq!(lines.next_line(), Line::Text(b"next".to_vec()));
        assert_eq!(lines.next_line(), Line::Text(b"last".to_vec()));
        assert_eq!(lines.next_line(), Line::Closed);
        let bytes: &[u8] = b"\xff\xfe\n";
        let mut lines = CappedLines::new(bytes, 10);
        assert_eq!(lines.next_line(), Line::Text(vec![0xff, 0xfe]));
    }
}
