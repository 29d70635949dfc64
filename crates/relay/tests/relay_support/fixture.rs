//! A scratch directory per test: the static directory, a file outside it, the token file.

use std::path::PathBuf;

/// A scratch directory for one test: `www/` (the static directory) with a page, a script, a
/// wasm file and a sub-directory, a secret file beside `www/`, and a token file.
pub struct Fixture {
    /// The scratch directory.
    pub base: PathBuf,
    /// The token of this test.
    pub token: String,
}

/// Content of the file placed outside the static directory.
pub const OUTSIDE_SECRET: &str = "OUTSIDE-THE-STATIC-DIRECTORY";
/// Content of `www/index.html`.
pub const INDEX_HTML: &str = "<!doctype html><title>relay test page</title>";
/// Content of `www/pkg/mod.wasm`.
pub const WASM_BYTES: &[u8] = b"\0asm\x01\0\0\0";

impl Fixture {
    /// Lays out the scratch directory for the test `name`.
    pub fn new(name: &str) -> Fixture {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let base =
            std::env::temp_dir().join(format!("letta-relay-{name}-{}-{nanos}", std::process::id()));
        let www = base.join("www");
        std::fs::create_dir_all(www.join("pkg")).unwrap();
        std::fs::create_dir_all(www.join("sub")).unwrap();
        std::fs::write(www.join("index.html"), INDEX_HTML).unwrap();
        std::fs::write(www.join("app.js"), "export const answer = 42;\n").unwrap();
        std::fs::write(www.join("pkg/mod.wasm"), WASM_BYTES).unwrap();
        std::fs::write(www.join("sub/listed-name.txt"), "in a sub-directory").unwrap();
        std::fs::write(www.join(".env"), OUTSIDE_SECRET).unwrap();
        std::fs::write(base.join("secret.txt"), OUTSIDE_SECRET).unwrap();
        let token = format!("tok-{name}-{nanos}-Zq9xW");
        std::fs::write(base.join("token.txt"), format!("  {token}\n")).unwrap();
        Fixture { base, token }
    }

    /// The static directory.
    pub fn www(&self) -> String {
        self.base.join("www").display().to_string()
    }

    /// The token file (token padded with whitespace: the relay must trim it).
    pub fn token_file(&self) -> PathBuf {
        self.base.join("token.txt")
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.base);
    }
}
