//! The `seams` command line.
//!
//! This file only parses arguments, runs one command from `cli/`, and turns
//! its result into an exit code and an error message: all error printing
//! and exit codes live here, in one place. 0 success, 1 a check found a
//! mismatch, 2 a usage or input error. The library returns typed errors;
//! the commands wrap them with `anyhow` context.

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// Reference implementation and conformance suite for chess and shogi on
/// boards that are not flat planes: Möbius strips, Klein bottles and a
/// genus-two surface.
///
/// Boards are data files in spec/boards/; every number `seams geometry`
/// prints is computed from their gluing.
#[derive(Parser)]
#[command(name = "seams", version, propagate_version = true)]
struct Cli {
    /// Load rules data from this spec folder instead of the built-in one
    /// (for trying an edited copy).
    ///
    /// Its boards/ and family folders are read (a missing family folder
    /// means the built-in one); every command that reads boards or rules
    /// uses them.
    #[arg(long, global = true, value_name = "DIR")]
    spec: Option<PathBuf>,
    #[command(subcommand)]
    command: cli::Command,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout with success; usage
            // errors go to stderr with our input-error status.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli::run(cli.spec, cli.command) {
        Ok(code) => code,
        // A reader that stopped early (`seams geometry | head -1`) is not
        // an error: end quietly, as grep and ls do.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("seams: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Whether the error is a write to a closed pipe, wherever in the chain.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    /// clap checks a command line's definition (unique names, valid
    /// settings) only where it is built with debug assertions; the release
    /// profile keeps them on for clap, so this runs under `cargo test
    /// --release` too. Without it, a clash seen only in debug builds went
    /// unnoticed: `spec check --version` against the global `--version`.
    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
