//! The page's static files, served by tower-http's [`ServeDir`] behind two guards of ours.
//!
//! `ServeDir` does the HTTP side (content length, `ETag` and `Last-Modified` with conditional
//! requests, `Range`, `HEAD`, streaming) and refuses `..`, absolute and drive-prefixed paths on
//! its own. It does not refuse hidden names (`/.env`, `/.git/config`) and it follows symbolic
//! links out of its directory, so:
//!
//! 1. [`route`] checks the request path first: every segment percent-decoded (percent-encoding's
//!    decoder), malformed escapes, invalid UTF-8, hidden names, `.`/`..`, and a decoded `/`, `\`,
//!    `:`, NUL or control character refuse the request (404) before any file-system call. It also
//!    sends `/` and `/index.html` to the page (served by the caller, with its ticket cookie).
//! 2. [`Confined`], the file-system backend `ServeDir` opens files through, canonicalizes every
//!    path and answers "not found" for anything outside the canonical `--static` directory
//!    (a symbolic link to `/etc/passwd`, a linked-out directory).
//!
//! Directories are never listed nor redirected; what `ServeDir` does not find, the caller turns
//! into the page (an extension-less app route) or a 404.

use std::future::Future;
use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS};
use axum::http::{HeaderValue, StatusCode};
use axum::response::Response;
use percent_encoding::percent_decode_str;
use tower_http::services::fs::{Backend, TokioBackend, TokioFile};
use tower_http::services::ServeDir;

/// What a request path asks for, before any file is looked at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// The page itself: `/` or `/index.html`.
    Index,
    /// A file to look for; `app_route` when its last segment has no `.` (if there is no such
    /// file, the page answers: a single-page app's own route such as `/chats/42`).
    File {
        /// The decoded last segment (it names the content type).
        name: String,
        /// No `.` in `name`.
        app_route: bool,
    },
    /// A refused path (see the module doc): 404, whatever is on disk.
    Refused,
}

/// Classifies a request path (still percent-encoded, without the query).
pub fn route(uri_path: &str) -> Route {
    let Some(segments) = segments(uri_path) else {
        return Route::Refused;
    };
    match segments.as_slice() {
        [] => Route::Index,
        [only] if only == "index.html" => Route::Index,
        [.., last] => Route::File {
            app_route: !last.contains('.'),
            name: last.clone(),
        },
    }
}

/// Splits and decodes a path into safe segments; `None` if any segment is unsafe. Empty
/// segments (`//`) are skipped, as `ServeDir` skips them.
fn segments(uri_path: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for raw in uri_path.split('/').filter(|raw| !raw.is_empty()) {
        if !escapes_well_formed(raw) {
            return None;
        }
        let segment = percent_decode_str(raw).decode_utf8().ok()?;
        let unsafe_segment = segment.starts_with('.')
            || segment.contains(['/', '\\', ':'])
            || segment.chars().any(char::is_control);
        if unsafe_segment {
            return None;
        }
        out.push(segment.into_owned());
    }
    Some(out)
}

/// Every `%` starts a two-digit hex escape. percent-encoding passes a malformed one (`%zz`)
/// through as text; the relay refuses it rather than guess what the client meant.
fn escapes_well_formed(raw: &str) -> bool {
    raw.split('%').skip(1).all(|after| {
        after
            .as_bytes()
            .get(..2)
            .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
    })
}

/// The static directory: its canonical path and the `ServeDir` over it.
#[derive(Debug, Clone)]
pub struct StaticDir {
    root: Arc<PathBuf>,
    files: ServeDir<tower_http::services::fs::DefaultServeDirFallback, Confined>,
}

impl StaticDir {
    /// Opens `dir`, which must be an existing directory.
    pub fn open(dir: &Path) -> Result<Self, String> {
        let root = std::fs::canonicalize(dir)
            .map_err(|e| format!("--static {}: {}", dir.display(), e.kind()))?;
        if !root.is_dir() {
            return Err(format!("--static {}: not a directory", dir.display()));
        }
        let root = Arc::new(root);
        let files = ServeDir::with_backend(root.as_path(), Confined { root: root.clone() })
            .append_index_html_on_directories(false)
            .redirect_to_trailing_slash(false);
        Ok(Self { root, files })
    }

    /// The page's `index.html`.
    pub fn index(&self) -> PathBuf {
        self.root.join("index.html")
    }

    /// Serves the file `request` names (a GET or HEAD whose path [`route`] classified as
    /// [`Route::File`] with `name`), or `None` if there is no such file inside the directory
    /// (a directory, a missing file, a link out, an unreadable file).
    pub async fn serve(&self, request: Request, name: &str) -> Option<Response> {
        let response = self.files.clone().try_call(request).await.ok()?;
        if response.status() == StatusCode::NOT_FOUND {
            return None;
        }
        let mut response = response.map(Body::new);
        let h = response.headers_mut();
        // Ours rather than mime_guess's: UTF-8 text, and `.ts` (source maps' sources) as text.
        if h.contains_key(CONTENT_TYPE) {
            h.insert(
                CONTENT_TYPE,
                HeaderValue::from_static(content_type(Path::new(name))),
            );
        }
        h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        // Cached, but revalidated on every use (`ETag` / `Last-Modified` make that a 304).
        h.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        Some(response)
    }
}

/// `ServeDir`'s file-system backend, confined to `root`: a path whose canonical form (symbolic
/// links resolved) is outside `root` is "not found". The rest is tower-http's `tokio::fs` backend.
#[derive(Debug, Clone)]
pub struct Confined {
    root: Arc<PathBuf>,
}

type Pending<T> = Pin<Box<dyn Future<Output = io::Result<T>> + Send>>;

impl Confined {
    async fn confine(root: &Path, path: &Path) -> io::Result<PathBuf> {
        let real = tokio::fs::canonicalize(path).await?;
        if real.starts_with(root) {
            Ok(real)
        } else {
            Err(io::ErrorKind::NotFound.into())
        }
    }
}

impl Backend for Confined {
    type File = TokioFile;
    type Metadata = std::fs::Metadata;
    type OpenFuture = Pending<TokioFile>;
    type MetadataFuture = Pending<std::fs::Metadata>;

    fn open(&self, path: PathBuf) -> Self::OpenFuture {
        let root = self.root.clone();
        Box::pin(async move { TokioBackend.open(Self::confine(&root, &path).await?).await })
    }

    fn metadata(&self, path: PathBuf) -> Self::MetadataFuture {
        let root = self.root.clone();
        Box::pin(async move {
            TokioBackend
                .metadata(Self::confine(&root, &path).await?)
                .await
        })
    }
}

/// The `Content-Type` for a file name.
pub fn content_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" | "cjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "txt" | "ts" | "md" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::{ETAG, IF_NONE_MATCH, LAST_MODIFIED, RANGE};
    use axum::http::Method;

    fn file(name: &str, app_route: bool) -> Route {
        Route::File {
            name: name.into(),
            app_route,
        }
    }

    #[test]
    fn routes_of_request_paths() {
        for index in ["/", "//", "/index.html", "/index%2ehtml"] {
            assert_eq!(route(index), Route::Index, "{index}");
        }
        assert_eq!(route("/a/b.js"), file("b.js", false));
        assert_eq!(route("/a%20b//c"), file("c", true));
        assert_eq!(route("/chats/42"), file("42", true));
        assert_eq!(route("/pkg/mod%2Ewasm"), file("mod.wasm", false));
        assert_eq!(route("/sub/index.html"), file("index.html", false));
    }

    #[test]
    fn routes_refuse_traversal_hidden_names_and_odd_bytes() {
        for bad in [
            "/../x",
            "/a/../../x",
            "/a/..",
            "/%2e%2e/x",
            "/%2E%2E%2Fx",
            "/a/%2e%2e",
            "/a%2f..%2f..%2fx",
            "/pkg%2fmod.wasm",
            "/..%5cx",
            "/a%5Cb",
            "/a\\b",
            "/.env",
            "/%2eenv",
            "/.git/config",
            "/a/./b",
            "/a/%2e/b",
            "/c:%5cwindows",
            "/c:",
            "/%00",
            "/a.js%00.txt",
            "/a%0ab",
            "/a%7f",
            "/%zz",
            "/%2",
            "/a%",
            "/%c3%28",
        ] {
            assert_eq!(route(bad), Route::Refused, "{bad}");
        }
    }

    #[test]
    fn content_types() {
        assert_eq!(content_type(Path::new("a.wasm")), "application/wasm");
        assert_eq!(
            content_type(Path::new("a.JS")),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(
            content_type(Path::new("a.mjs")),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(
            content_type(Path::new("index.html")),
            "text/html; charset=utf-8"
        );
        assert_eq!(content_type(Path::new("x")), "application/octet-stream");
    }

    /// `www/` with a page, `sub/app.js`, a link out to a file and one to a directory, and a
    /// link to a file inside; `secret.txt` beside `www/`.
    fn scratch() -> (PathBuf, StaticDir) {
        let base = std::env::temp_dir().join(format!("letta-relay-static-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let root = base.join("www");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("index.html"), "page").unwrap();
        std::fs::write(root.join("sub/app.js"), "0123456789").unwrap();
        std::fs::write(base.join("secret.txt"), "secret").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::symlink;
            symlink(base.join("secret.txt"), root.join("link.txt")).unwrap();
            symlink(&base, root.join("outside")).unwrap();
            symlink(root.join("sub/app.js"), root.join("inside.js")).unwrap();
        }
        let dir = StaticDir::open(&root).unwrap();
        (base, dir)
    }

    fn request(
        method: Method,
        path: &str,
        header: Option<(axum::http::HeaderName, &str)>,
    ) -> Request {
        let mut builder = Request::builder().method(method).uri(path);
        if let Some((name, value)) = header {
            builder = builder.header(name, value);
        }
        builder.body(Body::empty()).unwrap()
    }

    async fn get(dir: &StaticDir, path: &str) -> Option<Response> {
        let name = path.rsplit('/').next().unwrap();
        dir.serve(request(Method::GET, path, None), name).await
    }

    async fn body(response: Response) -> Vec<u8> {
        axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap()
            .to_vec()
    }

    #[tokio::test]
    async fn serves_files_inside_the_root_only() {
        let (base, dir) = scratch();
        let js = get(&dir, "/sub/app.js").await.expect("a file");
        assert_eq!(js.status(), StatusCode::OK);
        let h = js.headers();
        assert_eq!(h[CONTENT_TYPE], "text/javascript; charset=utf-8");
        assert_eq!(h[X_CONTENT_TYPE_OPTIONS], "nosniff");
        assert_eq!(h[CACHE_CONTROL], "no-cache");
        assert!(h.contains_key(LAST_MODIFIED));
        let etag = h[ETAG].to_str().unwrap().to_owned();
        assert_eq!(body(js).await, b"0123456789");

        for absent in ["/sub", "/sub/", "/missing.js", "/sub/app.js/", "/chats/42"] {
            assert!(get(&dir, absent).await.is_none(), "{absent}");
        }
        #[cfg(unix)]
        {
            assert!(get(&dir, "/link.txt").await.is_none(), "a link out");
            assert!(
                get(&dir, "/outside/secret.txt").await.is_none(),
                "through a linked-out directory"
            );
            let inside = get(&dir, "/inside.js").await.expect("a link inside");
            assert_eq!(body(inside).await, b"0123456789");
        }

        let again = request(Method::GET, "/sub/app.js", Some((IF_NONE_MATCH, &etag)));
        let again = dir.serve(again, "app.js").await.unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert!(body(again).await.is_empty());

        let head = request(Method::HEAD, "/sub/app.js", None);
        let head = dir.serve(head, "app.js").await.unwrap();
        assert_eq!(head.status(), StatusCode::OK);
        assert_eq!(head.headers()["content-length"], "10");
        assert!(body(head).await.is_empty());

        let part = request(Method::GET, "/sub/app.js", Some((RANGE, "bytes=2-4")));
        let part = dir.serve(part, "app.js").await.unwrap();
        assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
        assert_eq!(body(part).await, b"234");
        std::fs::remove_dir_all(&base).unwrap();
    }
}
