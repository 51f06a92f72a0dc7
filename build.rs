//! The `spec/` folder and the corpus are embedded into the crate with
//! `include_dir!`, which cargo cannot see through. Tell cargo to rebuild
//! when any file under them changes, so a build never carries stale rules.
fn main() {
    println!("cargo:rerun-if-changed=spec");
    println!("cargo:rerun-if-changed=conformance/cases");
}
