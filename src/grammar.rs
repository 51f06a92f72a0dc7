//! Recognising texts by an RFC 5234 ABNF grammar (`spec/*/notation.abnf`).
//!
//! The written grammars are the definition of which strings are texts of a
//! family's notation at all (PROTOCOL.md, "Illegal-action reasons", order
//! 2). The reference does not keep a second, hand-written copy of them:
//! every action and position text is first matched against the grammar
//! here, and only a text the grammar derives reaches the family's reader.
//! `tools/grammar/` checks this matcher against an independent ABNF parser.
//!
//! The grammar text is parsed by the `abnf` crate; matching is ours. It is
//! a recogniser, not a parser: for each element and start position it
//! computes the set of positions where the element can end, so alternation
//! and repetition never need backtracking, and ambiguity costs nothing.
//! Texts are short (an action, a one-line position) and the grammars are
//! nearly deterministic, so the sets stay small.
//!
//! Quoted strings follow RFC 5234: `"x"` is case-insensitive. The notation
//! grammars spell every letter with `%s"…"` (RFC 7405) or `%x…`, because the
//! case of a letter carries meaning.

use std::collections::{BTreeSet, HashMap};

use abnf::types::{Node, Repeat, TerminalValues};

/// The core rules of RFC 5234 appendix B.1 that a grammar may use without
/// defining them.
const CORE_RULES: &str = "\
ALPHA = %x41-5A / %x61-7A\r
BIT = \"0\" / \"1\"\r
CHAR = %x01-7F\r
CR = %x0D\r
CRLF = CR LF\r
CTL = %x00-1F / %x7F\r
DIGIT = %x30-39\r
DQUOTE = %x22\r
HEXDIG = DIGIT / \"A\" / \"B\" / \"C\" / \"D\" / \"E\" / \"F\"\r
HTAB = %x09\r
LF = %x0A\r
OCTET = %x00-FF\r
SP = %x20\r
VCHAR = %x21-7E\r
WSP = SP / HTAB\r
";

/// A grammar that cannot be used: its text does not parse, or a rule it
/// refers to is defined nowhere.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GrammarError {
    #[error("{source_name}: not ABNF: {message}")]
    Syntax {
        source_name: String,
        message: String,
    },
    #[error("{source_name}: rule '{rule}' is used but never defined")]
    Undefined { source_name: String, rule: String },
    #[error("{source_name}: rule '{rule}' is prose (<…>), which cannot be matched")]
    Prose { source_name: String, rule: String },
}

/// Why a text is not derived: how far the grammar could follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The character index (from 0) of the first character no derivation
    /// could accept; the text's length when the text stops too early.
    pub at: usize,
}

/// A compiled grammar: rules by lower-case name (ABNF rule names ignore
/// case).
#[derive(Debug)]
pub struct Grammar {
    names: HashMap<String, usize>,
    rules: Vec<Node>,
}

impl Grammar {
    /// Compiles a rule list. `source_name` labels errors (a file path).
    /// Incremental alternatives (`=/`) extend their rule; the RFC 5234 core
    /// rules are available unless the grammar redefines them.
    pub fn new(source_name: &str, text: &str) -> Result<Grammar, GrammarError> {
        let mut grammar = Grammar {
            names: HashMap::new(),
            rules: Vec::new(),
        };
        grammar.add(source_name, text)?;
        let core = abnf::rulelist(CORE_RULES).expect("the core rules are ABNF");
        for rule in core {
            let name = rule.name().to_ascii_lowercase();
            if !grammar.names.contains_key(&name) {
                grammar.names.insert(name, grammar.rules.len());
                grammar.rules.push(rule.node().clone());
            }
        }
        for node in &grammar.rules {
            grammar.check_node(source_name, node)?;
        }
        Ok(grammar)
    }

    fn add(&mut self, source_name: &str, text: &str) -> Result<(), GrammarError> {
        // RFC 5234 rule lists are ASCII, comments included: a character
        // outside it is written as a %x value.
        if let Some((line, c)) = text
            .lines()
            .enumerate()
            .find_map(|(i, l)| l.chars().find(|c| !c.is_ascii()).map(|c| (i + 1, c)))
        {
            return Err(GrammarError::Syntax {
                source_name: source_name.to_string(),
                message: format!(
                    "line {line}: '{c}' (U+{:04X}) is not ASCII; write it as %x{:X}",
                    c as u32, c as u32
                ),
            });
        }
        // The abnf crate wants CRLF line ends and a final line end, as
        // RFC 5234 writes them; files in the repository use LF.
        let mut crlf = text.replace("\r\n", "\n").replace('\n', "\r\n");
        if !crlf.ends_with("\r\n") {
            crlf.push_str("\r\n");
        }
        let rules = abnf::rulelist(&crlf).map_err(|e| GrammarError::Syntax {
            source_name: source_name.to_string(),
            message: crate::quote::bounded(&e.to_string()).into_owned(),
        })?;
        for rule in rules {
            let name = rule.name().to_ascii_lowercase();
            match (self.names.get(&name), rule.kind()) {
                (Some(&i), abnf::types::Kind::Incremental) => {
                    let old = std::mem::replace(&mut self.rules[i], Node::Alternatives(vec![]));
                    self.rules[i] = Node::Alternatives(vec![old, rule.node().clone()]);
                }
                _ => {
                    self.names.insert(name, self.rules.len());
                    self.rules.push(rule.node().clone());
                }
            }
        }
        Ok(())
    }

    fn check_node(&self, source_name: &str, node: &Node) -> Result<(), GrammarError> {
        match node {
            Node::Alternatives(v) | Node::Concatenation(v) => {
                v.iter().try_for_each(|n| self.check_node(source_name, n))
            }
            Node::Repetition { node, .. } => self.check_node(source_name, node),
            Node::Group(n) | Node::Optional(n) => self.check_node(source_name, n),
            Node::Rulename(name) => {
                if self.names.contains_key(&name.to_ascii_lowercase()) {
                    Ok(())
                } else {
                    Err(GrammarError::Undefined {
                        source_name: source_name.to_string(),
                        rule: name.clone(),
                    })
                }
            }
            Node::Prose(p) => Err(GrammarError::Prose {
                source_name: source_name.to_string(),
                rule: p.clone(),
            }),
            Node::String(_) | Node::TerminalValues(_) => Ok(()),
        }
    }

    /// Whether the grammar defines `rule`.
    pub fn has_rule(&self, rule: &str) -> bool {
        self.names.contains_key(&rule.to_ascii_lowercase())
    }

    /// Whether `rule` derives exactly `text`, and if not, how far it got.
    ///
    /// # Panics
    /// When the grammar has no rule `rule`: callers name rules of the
    /// shipped grammars, which the test suite checks exist.
    pub fn derives(&self, rule: &str, text: &str) -> Result<(), Mismatch> {
        let start = *self
            .names
            .get(&rule.to_ascii_lowercase())
            .unwrap_or_else(|| panic!("the grammar has no rule '{rule}'"));
        let chars: Vec<char> = text.chars().collect();
        let mut run = Run {
            grammar: self,
            text: &chars,
            memo: HashMap::new(),
            furthest: 0,
        };
        let ends = run.rule(start, 0);
        if ends.contains(&chars.len()) {
            Ok(())
        } else {
            // Every end short of the text means the next character was
            // not accepted there.
            let reached = ends.iter().copied().max().unwrap_or(0);
            Err(Mismatch {
                at: run.furthest.max(reached).min(chars.len()),
            })
        }
    }
}

/// One matching of one text: memoised rule ends, and the furthest
/// character any terminal was tried at.
struct Run<'g, 't> {
    grammar: &'g Grammar,
    text: &'t [char],
    /// `None` while a rule is being matched at a position: a rule reached
    /// again there without consuming input (left recursion) derives
    /// nothing along that path.
    memo: HashMap<(usize, usize), Option<BTreeSet<usize>>>,
    furthest: usize,
}

impl Run<'_, '_> {
    fn rule(&mut self, index: usize, at: usize) -> BTreeSet<usize> {
        match self.memo.get(&(index, at)) {
            Some(Some(ends)) => return ends.clone(),
            Some(None) => return BTreeSet::new(),
            None => {}
        }
        self.memo.insert((index, at), None);
        let ends = self.node(&self.grammar.rules[index], at);
        self.memo.insert((index, at), Some(ends.clone()));
        ends
    }

    fn node(&mut self, node: &Node, at: usize) -> BTreeSet<usize> {
        match node {
            Node::Alternatives(v) => v.iter().flat_map(|n| self.node(n, at)).collect(),
            Node::Concatenation(v) => {
                let mut here = BTreeSet::from([at]);
                for n in v {
                    here = here.into_iter().flat_map(|p| self.node(n, p)).collect();
                    if here.is_empty() {
                        break;
                    }
                }
                here
            }
            Node::Repetition { repeat, node } => self.repeat(repeat, node, at),
            Node::Group(n) => self.node(n, at),
            Node::Optional(n) => {
                let mut ends = self.node(n, at);
                ends.insert(at);
                ends
            }
            Node::Rulename(name) => {
                let index = self.grammar.names[&name.to_ascii_lowercase()];
                self.rule(index, at)
            }
            Node::String(s) => self.literal(s.value(), s.is_case_sensitive(), at),
            Node::TerminalValues(t) => self.terminal(t, at),
            Node::Prose(_) => BTreeSet::new(),
        }
    }

    /// `min*max element`, breadth first: the positions after k matches,
    /// for k = 0, 1, …, stopping when no new position appears.
    fn repeat(&mut self, repeat: &Repeat, node: &Node, at: usize) -> BTreeSet<usize> {
        let (min, max) = match *repeat {
            Repeat::Specific(n) => (n, Some(n)),
            Repeat::Variable { min, max } => (min.unwrap_or(0), max),
        };
        let mut ends = BTreeSet::new();
        let mut seen = BTreeSet::new();
        let mut frontier = BTreeSet::from([at]);
        let mut count = 0;
        loop {
            if count >= min {
                ends.extend(frontier.iter().copied());
                // Past the minimum, a position already expanded adds
                // nothing new: this ends repetitions of empty matches.
                frontier.retain(|p| seen.insert(*p));
            }
            if frontier.is_empty() || max.is_some_and(|m| count >= m) {
                return ends;
            }
            frontier = frontier
                .into_iter()
                .flat_map(|p| self.node(node, p))
                .collect();
            count += 1;
        }
    }

    fn literal(&mut self, value: &str, case_sensitive: bool, at: usize) -> BTreeSet<usize> {
        let mut p = at;
        for want in value.chars() {
            self.furthest = self.furthest.max(p);
            let Some(&got) = self.text.get(p) else {
                return BTreeSet::new();
            };
            let same = if case_sensitive {
                got == want
            } else {
                got.eq_ignore_ascii_case(&want)
            };
            if !same {
                return BTreeSet::new();
            }
            p += 1;
        }
        BTreeSet::from([p])
    }

    fn terminal(&mut self, t: &TerminalValues, at: usize) -> BTreeSet<usize> {
        match t {
            TerminalValues::Range(lo, hi) => {
                self.furthest = self.furthest.max(at);
                match self.text.get(at) {
                    Some(&c) if (*lo..=*hi).contains(&(c as u32)) => BTreeSet::from([at + 1]),
                    _ => BTreeSet::new(),
                }
            }
            TerminalValues::Concatenation(values) => {
                let mut p = at;
                for v in values {
                    self.furthest = self.furthest.max(p);
                    match self.text.get(p) {
                        Some(&c) if c as u32 == *v => p += 1,
                        _ => return BTreeSet::new(),
                    }
                }
                BTreeSet::from([p])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `check(grammar, rule, text, expect)`: `expect` is `Ok(())` or the
    /// mismatch position.
    fn check(grammar: &str, rule: &str, text: &str, expect: Result<(), usize>) {
        let g = Grammar::new("test", grammar).expect("a valid grammar");
        assert_eq!(
            g.derives(rule, text).map_err(|m| m.at),
            expect,
            "{rule} on {text:?}"
        );
    }

    const MOVE: &str = "move = cell \"-\" cell [mark]\n\
                        cell = %x61-69 nonzero *DIGIT\n\
                        nonzero = %x31-39\n\
                        mark = %s\"^\" / %s\"v\"\n";

    #[test]
    fn concatenation_option_and_repetition() {
        check(MOVE, "move", "e2-e4", Ok(()));
        check(MOVE, "move", "e2-e4^", Ok(()));
        check(MOVE, "move", "a10-i99v", Ok(()));
        check(MOVE, "move", "e2-e4 ", Err(5));
        check(MOVE, "move", "e2e4", Err(2));
        check(MOVE, "move", "e2-", Err(3));
        check(MOVE, "move", "", Err(0));
        check(MOVE, "move", "e02-e4", Err(1));
        check(MOVE, "MOVE", "e2-e4V", Err(5));
    }

    #[test]
    fn quoted_strings_ignore_case_unless_marked() {
        let g = "a = \"o-o\"\nb = %s\"O-O\"\n";
        check(g, "a", "O-O", Ok(()));
        check(g, "b", "O-O", Ok(()));
        check(g, "b", "o-o", Err(0));
    }

    #[test]
    fn bounded_repetition_and_incremental_rules() {
        let g = "two = 2DIGIT\nsome = 1*3DIGIT\nx = \"a\"\nx =/ \"b\"\n";
        check(g, "two", "12", Ok(()));
        check(g, "two", "1", Err(1));
        check(g, "two", "123", Err(2));
        check(g, "some", "123", Ok(()));
        check(g, "some", "1234", Err(3));
        check(g, "x", "b", Ok(()));
    }

    #[test]
    fn empty_repetitions_and_left_recursion_end() {
        check("a = *(*\"x\")\n", "a", "xxx", Ok(()));
        check("a = a \"x\" / \"y\"\n", "a", "y", Ok(()));
    }

    #[test]
    fn non_ascii_values() {
        check("dash = %x2D / %x2013\n", "dash", "–", Ok(()));
    }

    #[test]
    fn a_bad_grammar_is_refused_with_its_rule() {
        let err = |t: &str| Grammar::new("g.abnf", t).expect_err("refused").to_string();
        assert_eq!(err("a = b\n"), "g.abnf: rule 'b' is used but never defined");
        assert!(
            err("a = = b\n").starts_with("g.abnf: not ABNF"),
            "{}",
            err("a = = b\n")
        );
        assert_eq!(
            err("; a dash \u{2013}\na = \"-\"\n"),
            "g.abnf: not ABNF: line 1: '\u{2013}' (U+2013) is not ASCII; write it as %x2013"
        );
        assert_eq!(
            err("a = <a cell>\n"),
            "g.abnf: rule 'a cell' is prose (<…>), which cannot be matched"
        );
    }
}
