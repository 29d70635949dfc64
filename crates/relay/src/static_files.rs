//! The page's static files: path resolution confined to the `--static` directory, content types,
//! and the single-page-app fallback to `index.html`.

use std::path::{Path, PathBuf};

/// What a request path resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// A regular file inside the static directory.
    File(PathBuf),
    /// The page itself: `/`, or an extension-less path that names no file (an app route).
    Index,
    /// Nothing to serve.
    NotFound,
}

/// The static directory, canonicalized once at startup.
#[derive(Debug, Clone)]
pub struct StaticDir {
    root: PathBuf,
}

impl StaticDir {
    /// Opens `dir`, which must be an existing directory.
    pub fn open(dir: &Path) -> Result<Self, String> {
        let root = std::fs::canonicalize(dir)
            .map_err(|e| format!("--static {}: {}", dir.display(), e.kind()))?;
        if !root.is_dir() {
            return Err(format!("--static {}: not a directory", dir.display()));
        }
        Ok(Self { root })
    }

    /// The page's `index.html`.
    pub fn index(&self) -> PathBuf {
        self.root.join("index.html")
    }

    /// Resolves a request path (still percent-encoded, without the query). Refuses `..`, `.`,
    /// hidden names, backslashes and anything that would leave the directory, also through
    /// symbolic links; never lists a directory.
    pub async fn resolve(&self, uri_path: &str) -> Resolved {
        let Some(segments) = segments(uri_path) else {
            return Resolved::NotFound;
        };
        if segments.is_empty() {
            return Resolved::Index;
        }
        let candidate = segments.iter().fold(self.root.clone(), |p, s| p.join(s));
        if let Ok(real) = tokio::fs::canonicalize(&candidate).await {
            if real.starts_with(&self.root) {
                if let Ok(meta) = tokio::fs::metadata(&real).await {
                    if meta.is_file() {
                        return Resolved::File(real);
                    }
                }
            }
        }
        let last = segments.last().map_or("", String::as_str);
        if last.contains('.') {
            Resolved::NotFound
        } else {
            Resolved::Index
        }
    }
}

/// Splits and percent-decodes a path into safe segments; `None` if any segment is unsafe.
fn segments(uri_path: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for raw in uri_path.split('/') {
        if raw.is_empty() {
            continue;
        }
        let segment = percent_decode(raw)?;
        let unsafe_segment = segment.starts_with('.')
            || segment.contains(['/', '\\', '\0', ':'])
            || segment.chars().any(char::is_control);
        if unsafe_segment {
            return None;
        }
        out.push(segment);
    }
    Some(out)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
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

    #[test]
    fn segments_refuse_traversal_and_hidden_names() {
        assert_eq!(segments("/").unwrap(), Vec::<String>::new());
        assert_eq!(segments("/a/b.js").unwrap(), ["a", "b.js"]);
        assert_eq!(segments("/a%20b//c").unwrap(), ["a b", "c"]);
        for bad in [
            "/../x",
            "/a/../../x",
            "/%2e%2e/x",
            "/%2E%2E%2Fx",
            "/a%2f..%2f..%2fx",
            "/..%5cx",
            "/.env",
            "/a/./b",
            "/c:%5cwindows",
            "/%00",
            "/%zz",
            "/%c3%28",
        ] {
            assert!(segments(bad).is_none(), "{bad}");
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

    #[tokio::test]
    async fn resolution_inside_the_root_only() {
        let base = std::env::temp_dir().join(format!("letta-relay-static-{}", std::process::id()));
        let root = base.join("www");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("index.html"), "page").unwrap();
        std::fs::write(root.join("sub/app.js"), "js").unwrap();
        std::fs::write(base.join("secret.txt"), "secret").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(base.join("secret.txt"), root.join("link.txt")).unwrap();

        let dir = StaticDir::open(&root).unwrap();
        let real = |p: &str| Resolved::File(std::fs::canonicalize(root.join(p)).unwrap());
        assert_eq!(dir.resolve("/").await, Resolved::Index);
        assert_eq!(dir.resolve("/sub/app.js").await, real("sub/app.js"));
        assert_eq!(dir.resolve("/index.html").await, real("index.html"));
        assert_eq!(dir.resolve("/chat/42").await, Resolved::Index);
        assert_eq!(
            dir.resolve("/sub").await,
            Resolved::Index,
            "a directory is never listed"
        );
        assert_eq!(dir.resolve("/missing.js").await, Resolved::NotFound);
        assert_eq!(dir.resolve("/../secret.txt").await, Resolved::NotFound);
        #[cfg(unix)]
        assert_eq!(dir.resolve("/link.txt").await, Resolved::NotFound);
        std::fs::remove_dir_all(&base).unwrap();
    }
}
