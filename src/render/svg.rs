//! A tiny SVG writer: shapes appended as text to a string.
//!
//! Coordinates are printed with one decimal so that output is byte-stable
//! across platforms (insta snapshots and the committed README pictures
//! compare it exactly).

use std::fmt::Write;

/// SVG text under construction.
#[derive(Default)]
pub struct Canvas {
    out: String,
}

/// One decimal, without a trailing `.0`, so the text stays short.
pub fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Escapes text for SVG or HTML content and double-quoted attribute
/// values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// How a text is anchored horizontally.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn name(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

impl Canvas {
    pub fn into_string(self) -> String {
        self.out
    }

    /// Appends raw SVG (already well-formed).
    pub fn raw(&mut self, s: &str) {
        self.out.push_str(s);
    }

    pub fn comment(&mut self, s: &str) {
        let _ = writeln!(self.out, "<!-- {} -->", s.replace("--", "—"));
    }

    pub fn close_group(&mut self) {
        self.out.push_str("</g>\n");
    }

    #[allow(clippy::too_many_arguments)]
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: &str, sw: f64) {
        let _ = writeln!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            num(x),
            num(y),
            num(w),
            num(h),
            num(sw)
        );
    }

    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), stroke: &str, sw: f64) {
        let _ = writeln!(
            self.out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{stroke}\" stroke-width=\"{}\" stroke-linecap=\"round\"/>",
            num(a.0),
            num(a.1),
            num(b.0),
            num(b.1),
            num(sw)
        );
    }

    pub fn circle(&mut self, c: (f64, f64), r: f64, fill: &str, stroke: &str, sw: f64) {
        let _ = writeln!(
            self.out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            num(c.0),
            num(c.1),
            num(r),
            num(sw)
        );
    }

    pub fn polygon(&mut self, points: &[(f64, f64)], fill: &str, stroke: &str, sw: f64) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
            .collect();
        let _ = writeln!(
            self.out,
            "<polygon points=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            pts.join(" "),
            num(sw)
        );
    }

    /// Text with its baseline's anchor point at `at`.
    pub fn text(&mut self, at: (f64, f64), size: f64, anchor: Anchor, fill: &str, s: &str) {
        self.text_styled(at, size, anchor, fill, "", s);
    }

    /// Text with extra attributes (`font-weight="bold"`, …).
    pub fn text_styled(
        &mut self,
        at: (f64, f64),
        size: f64,
        anchor: Anchor,
        fill: &str,
        extra: &str,
        s: &str,
    ) {
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{}\" fill=\"{fill}\"{}{}>{}</text>",
            num(at.0),
            num(at.1),
            num(size),
            anchor.name(),
            if extra.is_empty() { "" } else { " " },
            extra,
            escape(s)
        );
    }

    /// A straight arrow from `a` to `b` with `heads` arrowheads stacked at
    /// the `b` end (one or two, as seam drawings tell edge pairs apart).
    pub fn arrow(&mut self, a: (f64, f64), b: (f64, f64), heads: usize, colour: &str) {
        self.line(a, b, colour, 1.6);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        for k in 0..heads {
            let tip = (b.0 - ux * 6.0 * k as f64, b.1 - uy * 6.0 * k as f64);
            let base = (tip.0 - ux * 7.0, tip.1 - uy * 7.0);
            let (px, py) = (-uy * 4.0, ux * 4.0);
            self.polygon(
                &[tip, (base.0 + px, base.1 + py), (base.0 - px, base.1 - py)],
                colour,
                "none",
                0.0,
            );
        }
    }
}
