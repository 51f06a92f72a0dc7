//! A tiny SVG writer: shapes appended as text to a string.
//!
//! Coordinates are printed with one decimal so that output is byte-stable
//! across platforms (insta snapshots and the committed README pictures
//! compare it exactly).
//!
//! A canvas may turn what is drawn on it half a turn about the middle of a
//! box ([`Canvas::turned`]): every point is moved, but text stays upright
//! (its anchor point moves and its alignment mirrors), so a board drawn for
//! the second player reads the right way up. This is done per point rather
//! than with an SVG `transform`, which would turn the letters too.

use std::fmt::Write;

/// SVG text under construction.
#[derive(Default)]
pub struct Canvas {
    out: String,
    /// The box (width, height) whose middle everything is turned about,
    /// when the canvas draws half a turn round.
    turn: Option<(f64, f64)>,
}

/// How far below the middle of a line of text its baseline lies, as a
/// share of the font size (about half the height of a capital letter).
const BASELINE_BELOW_MIDDLE: f64 = 0.35;

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

    /// The anchor that keeps a text on the same side of its point once the
    /// point is turned half round.
    fn mirrored(self) -> Anchor {
        match self {
            Anchor::Start => Anchor::End,
            Anchor::Middle => Anchor::Middle,
            Anchor::End => Anchor::Start,
        }
    }
}

impl Canvas {
    /// A canvas that draws everything half a turn round about the middle
    /// of the `width` × `height` box at the origin when `turned`, and as
    /// given otherwise.
    pub fn turned(width: f64, height: f64, turned: bool) -> Canvas {
        Canvas {
            out: String::new(),
            turn: turned.then_some((width, height)),
        }
    }

    /// An empty canvas drawing the way this one does.
    pub fn like(&self) -> Canvas {
        Canvas {
            out: String::new(),
            turn: self.turn,
        }
    }

    /// Where a point is drawn.
    pub fn at(&self, (x, y): (f64, f64)) -> (f64, f64) {
        match self.turn {
            None => (x, y),
            Some((w, h)) => (w - x, h - y),
        }
    }

    /// Whether the canvas draws half a turn round.
    pub fn is_turned(&self) -> bool {
        self.turn.is_some()
    }

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
        self.rect_with(
            x,
            y,
            w,
            h,
            "",
            &format!(
                "fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"",
                num(sw)
            ),
        );
    }

    /// A rectangle with its attributes other than the geometry written
    /// out by the caller (already escaped).
    pub fn rect_with(&mut self, x: f64, y: f64, w: f64, h: f64, before: &str, after: &str) {
        // Turned half round, the far corner becomes the near one.
        let (x, y) = match self.turn {
            None => (x, y),
            Some(_) => self.at((x + w, y + h)),
        };
        let _ = writeln!(
            self.out,
            "<rect {before}{}x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {after}/>",
            if before.is_empty() { "" } else { " " },
            num(x),
            num(y),
            num(w),
            num(h),
        );
    }

    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), stroke: &str, sw: f64) {
        let (a, b) = (self.at(a), self.at(b));
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
        let c = self.at(c);
        let _ = writeln!(
            self.out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            num(c.0),
            num(c.1),
            num(r),
            num(sw)
        );
    }

    /// A circle with its attributes other than its place written out by
    /// the caller (already escaped), `before` the place and `after` it.
    pub fn circle_with(&mut self, c: (f64, f64), r: f64, before: &str, after: &str) {
        let c = self.at(c);
        let _ = writeln!(
            self.out,
            "<circle {before}{}cx=\"{}\" cy=\"{}\" r=\"{}\" {after}/>",
            if before.is_empty() { "" } else { " " },
            num(c.0),
            num(c.1),
            num(r),
        );
    }

    pub fn polygon(&mut self, points: &[(f64, f64)], fill: &str, stroke: &str, sw: f64) {
        self.polygon_with(
            points,
            "",
            &format!(
                "fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"",
                num(sw)
            ),
        );
    }

    /// A polygon with its attributes other than the points written out by
    /// the caller (already escaped), `before` the points and `after` them.
    pub fn polygon_with(&mut self, points: &[(f64, f64)], before: &str, after: &str) {
        let pts: Vec<String> = points
            .iter()
            .map(|&p| {
                let (x, y) = self.at(p);
                format!("{},{}", num(x), num(y))
            })
            .collect();
        let _ = writeln!(
            self.out,
            "<polygon {before}{}points=\"{}\" {after}/>",
            if before.is_empty() { "" } else { " " },
            pts.join(" "),
        );
    }

    /// A path `d` drawn in a 100 × 100 box whose middle is put at `centre`
    /// (which turns with the canvas), scaled by `scale` and turned by
    /// `degrees` clockwise as seen on the picture: the turn is the caller's
    /// choice, so a figurine stays upright on a board turned half round.
    pub fn figure(&mut self, centre: (f64, f64), scale: f64, degrees: u16, d: &str, attrs: &str) {
        let (x, y) = self.at(centre);
        let turn = if degrees == 0 {
            String::new()
        } else {
            format!(" rotate({degrees})")
        };
        let _ = writeln!(
            self.out,
            "<path transform=\"translate({},{}){turn} scale({}) translate(-50,-50)\" d=\"{d}\" {attrs}/>",
            num(x),
            num(y),
            (scale * 1000.0).round() / 1000.0,
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
        // Turned, the text's middle goes where the middle was turned to,
        // and it keeps to the same side of its point.
        let (at, anchor) = match self.turn {
            None => (at, anchor),
            Some(_) => {
                let (x, y) = self.at(at);
                (
                    (x, y + 2.0 * BASELINE_BELOW_MIDDLE * size),
                    anchor.mirrored(),
                )
            }
        };
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
