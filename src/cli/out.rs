//! Printing for every command: `outln!`/`out!` write to stdout and return
//! the error instead of panicking, so a closed pipe (`seams … | head -1`)
//! ends the program quietly (see `main.rs`); `wln!` writes a line into a
//! report made whole before it is printed or written to a file; [`Table`]
//! is the one way a command prints aligned columns.

/// `println!` that returns the write error (with `?`) instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// `print!` that returns the write error (with `?`) instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// `writeln!` into a report being made as a `String`, which cannot fail:
/// a report that may go to `--out` is made whole first, then printed or
/// written at once.
macro_rules! wln {
    ($o:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($o, $($arg)*);
    }};
}

/// How a column's cells line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// Rows of cells printed with every column as wide as its widest cell, so
/// long names such as `kyoto-repetition-loss` never push a row out of
/// line. Columns are two spaces apart; the last column is not padded, so
/// lines carry no trailing spaces.
pub struct Table {
    aligns: Vec<Align>,
    indent: usize,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table whose columns line up as `aligns` says (columns past the
    /// list are left-aligned).
    pub fn new(aligns: &[Align]) -> Table {
        Table {
            aligns: aligns.to_vec(),
            indent: 0,
            rows: Vec::new(),
        }
    }

    /// Every line starts with this many spaces.
    pub fn indent(mut self, spaces: usize) -> Table {
        self.indent = spaces;
        self
    }

    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }

    /// The table as text, one line per row, each ending in a newline.
    pub fn render(&self) -> String {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let width = |c: usize| {
            self.rows
                .iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..columns).map(width).collect();
        let mut text = String::new();
        for row in &self.rows {
            let mut line = " ".repeat(self.indent);
            for (c, cell) in row.iter().enumerate() {
                if c > 0 {
                    line.push_str("  ");
                }
                let pad = widths[c].saturating_sub(cell.chars().count());
                let last = c + 1 == row.len();
                match self.aligns.get(c).copied().unwrap_or(Align::Left) {
                    Align::Right => {
                        line.push_str(&" ".repeat(pad));
                        line.push_str(cell);
                    }
                    Align::Left => {
                        line.push_str(cell);
                        if !last {
                            line.push_str(&" ".repeat(pad));
                        }
                    }
                }
            }
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text
    }

    /// Prints the table to stdout.
    pub fn print(&self) -> std::io::Result<()> {
        use std::io::Write as _;
        std::io::stdout().lock().write_all(self.render().as_bytes())
    }
}

/// A progress bar on stderr for `len` steps, only when stderr is a
/// terminal (pipes and CI logs get no control characters).
pub fn progress(len: usize) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal as _;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{prefix}{bar:40} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    Some(bar)
}

/// [`progress`] with `label` before the bar, such as `shard 2/7`.
pub fn progress_labelled(len: usize, label: &str) -> Option<indicatif::ProgressBar> {
    let bar = progress(len)?;
    bar.set_style(
        indicatif::ProgressStyle::with_template("{prefix} {bar:40} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_prefix(label.to_string());
    Some(bar)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(table: &Table, expect: &str) {
        assert_eq!(table.render(), expect);
    }

    #[test]
    fn columns_are_as_wide_as_their_widest_cell() {
        let mut t = Table::new(&[Align::Left, Align::Right, Align::Left]);
        t.row(["kyoto", "25", "Kyoto shogi"]);
        t.row(["kyoto-repetition-loss", "25", "the alternative rule"]);
        t.row(["χ", "165", ""]);
        check(
            &t,
            "kyoto                   25  Kyoto shogi\n\
             kyoto-repetition-loss   25  the alternative rule\n\
             χ                      165\n",
        );
    }

    #[test]
    fn indent_and_empty_table() {
        let mut t = Table::new(&[]).indent(2);
        check(&t, "");
        t.row(["a", "b"]);
        check(&t, "  a  b\n");
    }
}
