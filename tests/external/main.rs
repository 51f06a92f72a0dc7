//! Trials that need programs from outside Rust: Python (`python.rs`),
//! Chromium (`html_chromium.rs`), and Chromium with chromedriver driving
//! the web app (`webapp.rs`; the players' habits in `webapp_play.rs`) and
//! showing the draft page of `seams spec check --format html`
//! (`spec_html.rs`, on `webapp.rs`'s browser). Own harness (libtest-mimic), so that a
//! machine without one of them reports its trials as *ignored*, with the
//! reason in their names, never as a silent pass; `--include-ignored`
//! runs them anyway, and they then fail. `.ci/run` installs them all.

#[path = "../common/mod.rs"]
mod common;
mod html_chromium;
mod python;
mod spec_html;
mod webapp;
mod webapp_layout;
mod webapp_play;
mod webapp_seams;

use libtest_mimic::Arguments;

fn main() {
    let args = Arguments::from_args();
    let mut trials = python::trials();
    trials.extend(html_chromium::trials());
    trials.extend(webapp::trials());
    trials.extend(spec_html::trials());
    let conclusion = libtest_mimic::run(&args, trials);
    webapp::stop();
    conclusion.exit();
}
