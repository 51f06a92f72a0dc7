//! The independent checks of one data file, gathered in one run.
//!
//! A rule designer who edits spec data (a board's height, say) often breaks
//! several entries of one variant file at once. Each family's builder reads
//! its file section by section, and a failed section does not stop the
//! sections that do not read what it would have produced, so one run names
//! every independent mistake. A section that reads a failed one is skipped
//! instead: its errors would only repeat the first mistake.
//!
//! [`Checks`] keeps the errors in the order the sections ran; [`first`]
//! turns a builder's errors back into the single error of the older
//! builders, which are kept as wrappers.

/// The errors of the checks run so far, in the order they ran.
#[derive(Debug)]
pub struct Checks<E> {
    errors: Vec<E>,
}

impl<E> Default for Checks<E> {
    fn default() -> Self {
        Checks { errors: Vec::new() }
    }
}

impl<E> Checks<E> {
    pub fn new() -> Self {
        Checks::default()
    }

    /// The value of a check with one error, or `None` with its error kept.
    pub fn take<T>(&mut self, result: Result<T, E>) -> Option<T> {
        result.map_err(|e| self.errors.push(e)).ok()
    }

    /// The value of a check with several errors, or `None` with them kept.
    pub fn take_all<T>(&mut self, result: Result<T, Vec<E>>) -> Option<T> {
        result.map_err(|e| self.errors.extend(e)).ok()
    }

    /// Runs `check` on every entry, keeping each entry's error: the values
    /// in order when every entry passed.
    pub fn each<I, T>(
        &mut self,
        entries: I,
        check: impl FnMut(I::Item) -> Result<T, E>,
    ) -> Option<Vec<T>>
    where
        I: IntoIterator,
    {
        let before = self.errors.len();
        let values: Vec<T> = entries
            .into_iter()
            .map(check)
            .filter_map(|r| self.take(r))
            .collect();
        (self.errors.len() == before).then_some(values)
    }

    /// Keeps the error of a check that has no value.
    pub fn push(&mut self, error: E) {
        self.errors.push(error);
    }

    /// Whether no check has failed.
    pub fn passed(&self) -> bool {
        self.errors.is_empty()
    }

    /// `value` when no check failed, else every error kept.
    pub fn finish<T>(self, value: T) -> Result<T, Vec<E>> {
        if self.errors.is_empty() {
            Ok(value)
        } else {
            Err(self.errors)
        }
    }

    /// The errors kept, for a builder that cannot go on: a value it would
    /// build is missing because one of these checks failed.
    pub fn into_errors(self) -> Vec<E> {
        self.errors
    }
}

/// The first error of a builder that reports them all (its older form,
/// which stops at the first).
pub fn first<T, E>(result: Result<T, Vec<E>>) -> Result<T, E> {
    result.map_err(|errors| {
        errors
            .into_iter()
            .next()
            .expect("a builder fails with at least one error")
    })
}

#[cfg(test)]
mod tests {
    use super::{Checks, first};

    fn even(n: u32) -> Result<u32, String> {
        if n.is_multiple_of(2) {
            Ok(n)
        } else {
            Err(format!("{n} is odd"))
        }
    }

    #[test]
    fn every_entry_is_checked_and_the_errors_keep_their_order() {
        let mut checks = Checks::new();
        assert_eq!(checks.each([2, 4], even), Some(vec![2, 4]));
        assert_eq!(checks.each([1, 2, 3], even), None);
        assert_eq!(checks.take(even(6)), Some(6));
        assert_eq!(checks.take_all::<()>(Err(vec!["late".into()])), None);
        assert!(!checks.passed());
        assert_eq!(
            checks.finish(()),
            Err(vec![
                "1 is odd".to_string(),
                "3 is odd".into(),
                "late".into()
            ])
        );
        assert_eq!(Checks::<String>::new().finish(7), Ok(7));
        assert_eq!(first::<(), _>(Err(vec!["a", "b"])), Err("a"));
    }
}
