//! Starting the real `letta-relay` binary, capturing its stdout and stderr, and stopping it.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How the relay under test gets its token.
pub enum TokenSource<'a> {
    /// `--token-file PATH`.
    File(&'a Path),
    /// The `LETTA_APP_SERVER_TOKEN` environment variable.
    Env(&'a str),
    /// `--cloud` mode: `--api-key-file PATH`.
    CloudFile(&'a Path),
    /// `--cloud` mode: the `LETTA_API_KEY` environment variable.
    CloudEnv(&'a str),
    /// Neither.
    Missing,
}

/// A running relay process started by a test (killed when dropped).
pub struct RelayProcess {
    child: Option<Child>,
    readers: Vec<JoinHandle<()>>,
    output: Arc<Mutex<String>>,
    /// The port it listens on.
    pub port: u16,
    /// The token it was given: no response, close reason or output line may contain it.
    pub token: String,
}

fn command(args: &[String], token: &TokenSource<'_>) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_letta-relay"));
    cmd.args(args)
        .env_remove("LETTA_APP_SERVER_TOKEN")
        .env_remove("LETTA_RELAY_SECRET")
        .env_remove("LETTA_API_KEY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match token {
        TokenSource::File(path) => {
            cmd.arg("--token-file").arg(path);
        }
        TokenSource::Env(value) => {
            cmd.env("LETTA_APP_SERVER_TOKEN", value);
        }
        TokenSource::CloudFile(path) => {
            cmd.arg("--api-key-file").arg(path);
        }
        TokenSource::CloudEnv(value) => {
            cmd.env("LETTA_API_KEY", value);
        }
        TokenSource::Missing => {}
    }
    cmd
}

fn collect(
    stream: impl Read + Send + 'static,
    output: Arc<Mutex<String>>,
    first: Option<mpsc::Sender<String>>,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut first = first;
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            {
                let mut out = output.lock().unwrap();
                out.push_str(&line);
                out.push('\n');
            }
            if let Some(tx) = first.take() {
                let _ = tx.send(line);
            }
        }
    })
}

impl RelayProcess {
    /// Starts the relay with `args` (plus `--listen 127.0.0.1:0 --ttl-s 60`) and waits for its
    /// one ready line, which must announce the port.
    pub fn start(args: &[String], token: TokenSource<'_>, token_text: &str) -> RelayProcess {
        Self::start_with_env(args, token, token_text, &[])
    }

    /// [`RelayProcess::start`] with extra environment variables.
    pub fn start_with_env(
        args: &[String],
        token: TokenSource<'_>,
        token_text: &str,
        env: &[(&str, &str)],
    ) -> RelayProcess {
        let mut all = vec![
            "--listen".to_string(),
            "127.0.0.1:0".into(),
            "--ttl-s".into(),
            "60".into(),
        ];
        all.extend_from_slice(args);
        let mut cmd = command(&all, &token);
        cmd.envs(env.iter().copied());
        let mut child = cmd.spawn().expect("spawn letta-relay");
        let output = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = mpsc::channel();
        let readers = vec![
            collect(child.stdout.take().unwrap(), output.clone(), Some(tx)),
            collect(child.stderr.take().unwrap(), output.clone(), None),
        ];
        let mut relay = RelayProcess {
            child: Some(child),
            readers,
            output,
            port: 0,
            token: token_text.to_string(),
        };
        let line = rx
            .recv_timeout(Duration::from_secs(15))
            .unwrap_or_else(|_| panic!("relay printed no ready line; output:\n{}", relay.stop()));
        let port = line
            .strip_prefix("relay listening on http://127.0.0.1:")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|port| port.parse::<u16>().ok())
            .unwrap_or_else(|| panic!("unexpected ready line: {line:?}"));
        assert_ne!(port, 0);
        relay.port = port;
        relay
    }

    /// `127.0.0.1:<port>`.
    pub fn authority(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// The relay's own origin.
    pub fn origin(&self) -> String {
        format!("http://{}", self.authority())
    }

    /// Everything the relay printed so far.
    pub fn output(&self) -> String {
        self.output.lock().unwrap().clone()
    }

    /// Waits (up to 10 s) until the relay printed `needle`; fails the test otherwise.
    pub async fn wait_for_output(&self, needle: &str) {
        for _ in 0..400 {
            if self.output().contains(needle) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("the relay never printed {needle:?}:\n{}", self.output());
    }

    /// Sends SIGTERM to the relay (by its pid).
    pub fn terminate(&self) {
        let pid = self.child.as_ref().expect("running").id();
        let status = Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .expect("run kill");
        assert!(status.success());
    }

    /// Waits (up to `limit`) for the relay to exit by itself; returns its status.
    pub async fn wait_exit(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        let child = self.child.as_mut().expect("running");
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the relay did not exit in time");
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// Stops the relay (if still running) and returns everything it printed.
    pub fn stop(&mut self) -> String {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        for reader in self.readers.drain(..) {
            let _ = reader.join();
        }
        self.output.lock().unwrap().clone()
    }

    /// Stops the relay and checks its output: the ready line and request log lines are there,
    /// the token is not. Returns the output.
    pub fn stop_and_check_output(&mut self) -> String {
        let output = self.stop();
        assert!(
            output.contains("relay listening on http://127.0.0.1:"),
            "{output}"
        );
        assert!(
            output.contains("letta-relay: GET "),
            "requests are logged:\n{output}"
        );
        assert!(
            !output.contains(&self.token),
            "the token leaked into the relay's output:\n{output}"
        );
        output
    }
}

impl Drop for RelayProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Runs the relay expecting it to refuse to start; returns its exit status and output.
pub fn run_expecting_exit(args: &[String], token: TokenSource<'_>) -> (ExitStatus, String) {
    let mut child = command(args, &token).spawn().expect("spawn letta-relay");
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("letta-relay did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut output = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut output)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut output)
        .unwrap();
    (status, output)
}
