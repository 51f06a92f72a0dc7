//! The draft page of `seams spec check --format html` in a real browser:
//! headless Chromium, driven through chromedriver by `webapp.rs`'s
//! harness, opens the page of three drafts (a swapped setup, deeper
//! promotion zones, a smaller board) by `file://` URL, and every picture
//! must be shown: each figure's SVG and its board take room on the page,
//! and each part holds as many as the draft's JSON report says.
//!
//! Without Chromium and chromedriver the trial is reported as *ignored*
//! with the reason in its name, never as a silent pass.

use std::path::{Path, PathBuf};

use libtest_mimic::{Failed, Trial};
use serde_json::{Value, json};

use crate::common::drafts::{
    deeper_shogi_zones, expected_pictures, klein_14, scratch, swapped_mobius,
};
use crate::common::seams;
use crate::webapp::{self, Page, fail};

const NAME: &str = "every_picture_of_the_draft_page_is_shown_in_headless_chromium";

/// The trial, ignored with the reason in its name without a browser.
pub fn trials() -> Vec<Trial> {
    let trial = match webapp::missing_tools() {
        None => Trial::test(NAME, every_draft),
        Some(why) => Trial::test(format!("{NAME} (needs {why}; .ci/run installs it)"), || {
            Err("no browser".into())
        })
        .with_ignored_flag(true),
    };
    vec![trial]
}

type Make = fn(&Path) -> PathBuf;

fn every_draft() -> Result<(), Failed> {
    let drafts: [(&str, Make); 3] = [
        ("the swapped Möbius setup", swapped_mobius),
        ("the deeper flat shogi zones", deeper_shogi_zones),
        ("the Klein bottle of 14 ranks", klein_14),
    ];
    for (what, make) in drafts {
        let root = scratch();
        let outcome = one_draft(&make(&root));
        let _ = std::fs::remove_dir_all(&root);
        outcome.map_err(|e| fail(format!("{what}: {}", e.message().unwrap_or_default())))?;
    }
    Ok(())
}

/// Writes the draft's page and checks it in the browser against the
/// pictures its JSON report implies.
fn one_draft(draft: &Path) -> Result<(), Failed> {
    let dir = draft.parent().ok_or("a draft in a folder")?;
    let page = dir.join("check.html");
    let path = |p: &Path| p.to_str().map(String::from).ok_or("a UTF-8 path");
    let r = seams(&[
        "spec",
        "check",
        &path(draft)?,
        "--format",
        "html",
        "--out",
        &path(&page)?,
    ]);
    if r.code != 1 {
        return Err(format!("exit {} writing the page: {}", r.code, r.stderr).into());
    }
    let r = seams(&["spec", "check", &path(draft)?, "--json"]);
    let report: Value = serde_json::from_str(&r.stdout).map_err(fail)?;
    let (facts, fingerprints, cases) = expected_pictures(&report);
    if facts + fingerprints + cases == 0 {
        return Err("the draft changes nothing to draw".into());
    }
    let want = json!({ "facts": facts, "fingerprints": fingerprints, "cases": cases });
    let url = format!("file://{}", page.display());
    webapp::run(|p| shown(p, url, want))
}

/// For each part of the page: its figures, and those whose SVG and board
/// are laid out with a width and a height.
const SHOWN: &str = "\
const seen = (e) => { if (!e) return false; const r = e.getBoundingClientRect(); \
  const s = getComputedStyle(e); \
  return r.width > 0 && r.height > 0 && s.display !== 'none' && s.visibility !== 'hidden'; }; \
const out = {}; \
for (const id of ['facts', 'fingerprints', 'cases']) { \
  const figures = [...document.querySelectorAll(`#${id} figure`)]; \
  out[id] = { figures: figures.length, \
    shown: figures.filter(f => { const svg = f.querySelector('svg'); \
      return seen(svg) && seen(svg.querySelector('g[id=board]')); }).length }; \
} \
out.all = document.querySelectorAll('figure').length; \
return out;";

async fn shown(p: Page, url: String, want: Value) -> Result<(), Failed> {
    p.client.goto(&url).await.map_err(fail)?;
    // Counted only once this page (not the one before it) is parsed
    // whole: a page of many pictures is still being read when the
    // navigation returns.
    p.until(
        "the page is loaded",
        &format!(
            "return document.URL === {} && document.readyState === 'complete'",
            json!(url)
        ),
    )
    .await?;
    let got = p.js(SHOWN).await?;
    let mut total = 0;
    for id in ["facts", "fingerprints", "cases"] {
        let n = want[id].as_u64().unwrap_or_default();
        total += n;
        let part = &got[id];
        if part["figures"] != json!(n) || part["shown"] != json!(n) {
            return Err(format!("{id}: {n} pictures listed, the page shows {part}").into());
        }
    }
    if got["all"] != json!(total) {
        return Err(format!(
            "{total} pictures listed, {} figures on the page",
            got["all"]
        )
        .into());
    }
    Ok(())
}
