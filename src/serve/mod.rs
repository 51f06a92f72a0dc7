//! `seams serve`: the rules as a local web app (play, practice opponent,
//! analysis, editor, saved games) on one page.
//!
//! Everything the page needs is embedded in the binary (`assets/`), so the
//! app works with no network and nothing to install. The server keeps no
//! state: each request carries the game or position it is about and is
//! answered by [`api`] through the reference's text interface, so a page
//! can never see anything the rules would not say.
//!
//! A server on a player's machine is still a server, so it defends itself
//! the way a local development server should:
//! - it binds to 127.0.0.1 unless told otherwise;
//! - it answers only requests whose `Host` names the address it is bound
//!   to, so a web page that rebinds its own domain name to 127.0.0.1 (DNS
//!   rebinding) cannot read or drive it;
//! - requests that change something are JSON `POST`s, which a page of
//!   another origin cannot send without the browser asking first, and an
//!   `Origin` or `Sec-Fetch-Site` naming another site is refused outright;
//! - bodies are capped at [`MAX_BODY`] bytes;
//! - a malformed request gets a 4xx with the reason in a JSON body, never
//!   a panic (a method a path does not take: 405, naming the one it does
//!   in the body and in `Allow`);
//! - every answer, page, asset, API answer or refusal alike, carries the
//!   same security headers ([`SECURITY_HEADERS`]).

pub mod api;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::variant::Variant;

/// The largest request body taken: a saved game of the longest length any
/// command plays (100,000 actions) fits with room to spare.
pub const MAX_BODY: usize = 4 * 1024 * 1024;

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");

/// The page's content security policy: its own scripts and styles only.
/// Board pictures are inline SVG, whose attributes carry their styling.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
                   img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
                   form-action 'none'; frame-ancestors 'none'";

/// The headers every answer carries, whatever it is: the content security
/// policy, no content sniffing, no framing, no caching (a game's state is
/// the player's, not a cache's), no referrer, and resources for this origin
/// only.
pub const SECURITY_HEADERS: [(header::HeaderName, &str); 7] = [
    (header::CONTENT_SECURITY_POLICY, CSP),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::CACHE_CONTROL, "no-store"),
    (header::REFERRER_POLICY, "no-referrer"),
    (
        header::HeaderName::from_static("cross-origin-resource-policy"),
        "same-origin",
    ),
    (
        header::HeaderName::from_static("cross-origin-opener-policy"),
        "same-origin",
    ),
];

/// What every request handler shares.
pub struct App {
    pub variants: Vec<&'static dyn Variant>,
    /// The `Host` values this server answers to.
    pub hosts: Vec<String>,
}

impl App {
    /// The app for `variants`, answering to the names of `addr`: for a
    /// loopback address also `localhost`, since that is what people type.
    pub fn new(variants: Vec<&'static dyn Variant>, addr: SocketAddr) -> App {
        let port = addr.port();
        let mut hosts = vec![addr.to_string()];
        if addr.ip().is_loopback() {
            hosts.push(format!("localhost:{port}"));
            hosts.push(format!("127.0.0.1:{port}"));
            hosts.push(format!("[::1]:{port}"));
        }
        hosts.sort();
        hosts.dedup();
        App { variants, hosts }
    }

    fn variant(&self, name: &str) -> Result<&'static dyn Variant, api::ApiError> {
        Ok(crate::variant::find_in(&self.variants, name)?)
    }
}

/// The router, with its safety layers, for `app`.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index).fallback(takes_get))
        .route("/app.js", get(app_js).fallback(takes_get))
        .route("/style.css", get(style_css).fallback(takes_get))
        .route("/favicon.svg", get(favicon).fallback(takes_get))
        .route("/favicon.ico", get(favicon).fallback(takes_get))
        .route("/api/variants", get(variants).fallback(takes_get))
        .route("/api/game", post(game).fallback(takes_post))
        .route("/api/load", post(load).fallback(takes_post))
        .route("/api/opponent", post(opponent).fallback(takes_post))
        .route("/api/analysis", post(analysis).fallback(takes_post))
        .route("/api/import", post(import).fallback(takes_post))
        .route("/api/palette", post(palette).fallback(takes_post))
        .route("/api/edit", post(edit).fallback(takes_post))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// Serves `app` on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(app))
        .with_graceful_shutdown(shutdown)
        .await
}

/// A JSON error body with its status.
fn refuse(status: StatusCode, message: impl Into<String>, ply: Option<usize>) -> Response {
    #[derive(Serialize)]
    struct Body {
        error: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        ply: Option<usize>,
    }
    let body = Body {
        error: message.into(),
        ply,
    };
    (status, axum::Json(body)).into_response()
}

impl IntoResponse for api::ApiError {
    fn into_response(self) -> Response {
        let status = match self {
            api::ApiError::Request(_) => StatusCode::BAD_REQUEST,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        };
        refuse(status, self.to_string(), self.ply())
    }
}

/// Host and origin checks, and the headers every answer carries.
async fn guard(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let mut res = match check_request(&app, req.method(), req.headers()) {
        Err((status, message)) => refuse(status, message, None),
        Ok(()) => next.run(req).await,
    };
    let h = res.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        h.insert(name, HeaderValue::from_static(value));
    }
    res
}

/// A method a path does not take: a 405 naming the methods it does take,
/// in the body and in `Allow`.
fn wrong_method(method: &Method, uri: &Uri, allowed: &'static str) -> Response {
    let mut res = refuse(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "method {method} is not allowed for {}: it takes {}",
            crate::quote::excerpt(uri.path()),
            allowed.replace(", ", " or ")
        ),
        None,
    );
    res.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(allowed));
    res
}

/// The fallback of the paths only read.
async fn takes_get(method: Method, uri: Uri) -> Response {
    wrong_method(&method, &uri, "GET, HEAD")
}

/// The fallback of the API's requests.
async fn takes_post(method: Method, uri: Uri) -> Response {
    wrong_method(&method, &uri, "POST")
}

/// Why a request is refused before it reaches a handler: its status and
/// reason.
fn check_request(
    app: &App,
    method: &Method,
    headers: &HeaderMap,
) -> Result<(), (StatusCode, String)> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !app.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
        return Err((
            StatusCode::FORBIDDEN,
            format!(
                "host '{}' is not this server's address ({})",
                crate::quote::excerpt(host),
                app.hosts.join(", ")
            ),
        ));
    }
    if method == Method::GET || method == Method::HEAD {
        return Ok(());
    }
    // Every method but these changes something, and only POST is taken:
    // the others meet the router's 405 after the origin checks.
    let site = headers
        .get("sec-fetch-site")
        .and_then(|h| h.to_str().ok())
        .unwrap_or("same-origin");
    if site != "same-origin" && site != "none" {
        return Err((
            StatusCode::FORBIDDEN,
            format!("cross-origin request refused (sec-fetch-site: {site})"),
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let same = origin
            .strip_prefix("http://")
            .is_some_and(|o| o.eq_ignore_ascii_case(host));
        if !same {
            return Err((
                StatusCode::FORBIDDEN,
                format!(
                    "cross-origin request refused (origin '{}')",
                    crate::quote::excerpt(origin)
                ),
            ));
        }
    }
    let json = method != Method::POST
        || headers
            .get(header::CONTENT_TYPE)
            .and_then(|h| h.to_str().ok())
            .is_some_and(|t| t.split(';').next() == Some("application/json"));
    if !json {
        return Err((
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "requests must be JSON (content-type: application/json)".to_string(),
        ));
    }
    Ok(())
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

async fn app_js() -> Response {
    asset("text/javascript; charset=utf-8", APP_JS)
}

async fn style_css() -> Response {
    asset("text/css; charset=utf-8", STYLE_CSS)
}

/// The app's icon: a board square whose sides are glued with a twist.
async fn favicon() -> Response {
    asset("image/svg+xml", FAVICON_SVG)
}

async fn not_found(method: Method, uri: Uri) -> Response {
    refuse(
        StatusCode::NOT_FOUND,
        format!(
            "no such page: {method} {}",
            crate::quote::excerpt(uri.path())
        ),
        None,
    )
}

/// Reads a JSON body into `T`, or a 400 naming what is wrong and where.
fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, api::ApiError> {
    serde_json::from_slice(bytes).map_err(|e| api::ApiError::Request(format!("bad request: {e}")))
}

/// Runs a request's work away from the server's own threads: a replay or
/// the opponent's search can take a while, and a panic there (which would
/// be a bug) becomes a 500 instead of a dropped connection.
async fn work<T: Serialize + Send + 'static>(
    f: impl FnOnce() -> Result<T, api::ApiError> + Send + 'static,
) -> Response {
    match tokio::task::spawn_blocking(f).await {
        Ok(Ok(v)) => axum::Json(v).into_response(),
        Ok(Err(e)) => e.into_response(),
        Err(_) => refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error while answering",
            None,
        ),
    }
}

async fn variants(State(app): State<Arc<App>>) -> Response {
    axum::Json(api::menu(&app.variants)).into_response()
}

async fn game(State(app): State<Arc<App>>, bytes: Bytes) -> Response {
    work(move || {
        let req: api::GameRequest = body(&bytes)?;
        api::game(app.variant(&req.variant)?, &req)
    })
    .await
}

async fn load(State(app): State<Arc<App>>, bytes: Bytes) -> Response {
    work(move || api::load(&app.variants, &body(&bytes)?)).await
}

async fn opponent(State(app): State<Arc<App>>, bytes: Bytes) -> Response {
    work(move || {
        let req: api::OpponentRequest = body(&bytes)?;
        api::opponent(
            app.variant(&req.game.variant)?,
            &req,
            &AtomicBool::new(false),
        )
    })
    .await
}

async fn analysis(State(app): State<Arc<App>>, bytes: Bytes) -> Response {
    work(move || {
        let req: api::AnalysisRequest = body(&bytes)?;
        api::analysis(app.variant(&req.variant)?, &req)
    })
    .await
}

async fn import(State(app): State<Arc<App>>, bytes: Bytes) -> Response {
    work(move || {
        let req: api::PositionRequest = body(&bytes)?;
        let position = api::import(app.variant(&req.variant)?, &req)?;
        Ok(serde_json::json!({ "position": position }))
    })
    .await
}

async fn palette(State(app): State<Arc<App>>, bytes: Bytes) -> Response {
    work(move || {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Req {
            variant: String,
        }
        let req: Req = body(&bytes)?;
        let pieces = api::palette(app.variant(&req.variant)?)?;
        Ok(serde_json::json!({ "pieces": pieces }))
    })
    .await
}

async fn edit(State(app): State<Arc<App>>, bytes: Bytes) -> Response {
    work(move || {
        let req: api::EditRequest = body(&bytes)?;
        api::edit(app.variant(&req.variant)?, &req)
    })
    .await
}
