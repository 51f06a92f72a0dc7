//! `seams serve`: the web app on a local port.

use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};

use super::Rulebook;

#[derive(clap::Args)]
pub struct ServeArgs {
    /// The port to listen on; a free one is chosen when absent.
    #[arg(long, value_name = "N")]
    port: Option<u16>,
    /// The address to listen on instead of 127.0.0.1. Anyone who can reach
    /// it can use the app, so a warning is printed.
    #[arg(long, value_name = "ADDR")]
    host: Option<IpAddr>,
}

/// `seams serve`.
pub fn serve(book: &Rulebook, a: ServeArgs) -> Result<ExitCode> {
    // The rules are read and checked before the port is taken, so a
    // broken --spec folder is reported at once.
    let variants = book.variants()?;
    let ip = a.host.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(ip, a.port.unwrap_or(0)))
            .await
            .with_context(|| match a.port {
                Some(p) => format!("cannot listen on {ip} port {p}"),
                None => format!("cannot listen on {ip}"),
            })?;
        let addr = listener.local_addr()?;
        if !ip.is_loopback() {
            eprintln!(
                "seams serve: warning: listening on {ip}; anyone who can reach this address can use the app"
            );
        }
        let app = Arc::new(seams::serve::App::new(variants, addr));
        outln!("seams serve: http://{addr}/ (Ctrl-C to stop)");
        std::io::stdout().flush()?;
        seams::serve::serve(listener, app, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("serving")?;
        Ok(ExitCode::SUCCESS)
    })
}
