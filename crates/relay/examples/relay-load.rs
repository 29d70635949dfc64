//! Load benchmark of `letta-relay` (`bench/run relay`; not a test): holds SOCKETS concurrent
//! relayed sockets through the relay to a loopback echo upstream, each carrying a stream of
//! FRAMES request/echo round trips, one every INTERVAL_MS per socket (starts staggered), and
//! prints the relay's resident memory (VmRSS) and the round-trip latency percentiles, through the
//! relay and straight to the echo upstream (the baseline): per run, then the medians over RUNS
//! runs. Every echo is checked against what was sent, so a lost, altered or reordered frame fails
//! the run. INTERVAL_MS 0 sends back to back (latency is then mostly queueing for the CPU).
//!
//!   cargo run --release --example relay-load -- RELAY_BINARY [SOCKETS [FRAMES [RUNS [INTERVAL_MS]]]]

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    load::main();
}

/// The benchmark is native; the wasm32 build of this target does nothing.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod load {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use futures_util::{SinkExt, StreamExt};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpStream};
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    use tokio_tungstenite::tungstenite::http::HeaderValue;
    use tokio_tungstenite::tungstenite::Message;

    /// Bytes of filler in every frame, besides its socket and sequence numbers.
    const PAYLOAD: usize = 200;
    /// Sockets opened at once while connecting (the rest wait), to stay within the listen backlog.
    const CONNECT_BATCH: usize = 100;

    struct Run {
        rss_idle_kb: u64,
        rss_peak_kb: u64,
        p50_us: f64,
        p90_us: f64,
        p99_us: f64,
        frames: usize,
        seconds: f64,
    }

    fn vm_rss_kb(pid: u32) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    fn percentile(sorted: &[f64], p: f64) -> f64 {
        let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
        sorted[i]
    }

    fn median(mut values: Vec<f64>) -> f64 {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    }

    /// The loopback upstream: accepts every WebSocket and echoes its data frames.
    async fn echo_upstream() -> String {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}/ws", listener.local_addr().unwrap());
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let Ok(mut socket) = tokio_tungstenite::accept_async(stream).await else {
                        return;
                    };
                    while let Some(Ok(message)) = socket.next().await {
                        if (message.is_text() || message.is_binary())
                            && socket.send(message).await.is_err()
                        {
                            break;
                        }
                    }
                });
            }
        });
        url
    }

    /// `GET /ticket` over a fresh connection; returns the `name=value` cookie pair.
    async fn ticket(port: u16) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        let request =
            format!("GET /ticket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).await.unwrap();
        let line = response
            .lines()
            .find_map(|l| {
                l.strip_prefix("set-cookie: ")
                    .or(l.strip_prefix("Set-Cookie: "))
            })
            .expect("a ticket cookie");
        line.split(';').next().unwrap().to_string()
    }

    type Client = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

    /// Where the clients connect: the relay (with a ticket) or the echo upstream itself.
    struct Target {
        url: String,
        cookie: Option<String>,
    }

    async fn open(target: &Target) -> Client {
        let mut request = target.url.as_str().into_client_request().unwrap();
        if let Some(cookie) = &target.cookie {
            request
                .headers_mut()
                .insert("cookie", HeaderValue::from_str(cookie).unwrap());
        }
        let (client, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("the socket is accepted");
        client
    }

    /// One socket's stream: FRAMES round trips, one per `interval` (none between them when zero)
    /// from `offset` on; returns their latencies in µs, or what went wrong.
    async fn stream(
        mut client: Client,
        id: usize,
        frames: usize,
        interval: Duration,
        offset: Duration,
    ) -> Result<Vec<f64>, String> {
        let filler = "x".repeat(PAYLOAD);
        let mut latencies = Vec::with_capacity(frames);
        let start = tokio::time::Instant::now() + offset;
        let mut ticks = tokio::time::interval_at(start, interval.max(Duration::from_micros(1)));
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        for seq in 0..frames {
            if !interval.is_zero() {
                ticks.tick().await;
            }
            let text = format!("{{\"socket\":{id},\"seq\":{seq},\"pad\":\"{filler}\"}}");
            let sent = Instant::now();
            client
                .send(Message::text(text.clone()))
                .await
                .map_err(|e| format!("socket {id}: send failed: {e}"))?;
            let echo = loop {
                match client.next().await {
                    Some(Ok(Message::Text(t))) => break t,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    other => return Err(format!("socket {id}: frame {seq} lost: {other:?}")),
                }
            };
            latencies.push(sent.elapsed().as_secs_f64() * 1e6);
            if echo.as_str() != text {
                return Err(format!("socket {id}: frame {seq} altered or out of order"));
            }
        }
        let _ = client.close(None).await;
        Ok(latencies)
    }

    async fn run(
        target: &Target,
        pid: u32,
        sockets: usize,
        frames: usize,
        interval: Duration,
    ) -> Run {
        let rss_idle_kb = vm_rss_kb(pid);
        let mut clients = Vec::with_capacity(sockets);
        for batch in (0..sockets).collect::<Vec<_>>().chunks(CONNECT_BATCH) {
            let opened = futures_util::future::join_all(batch.iter().map(|_| open(target))).await;
            clients.extend(opened);
        }
        let rss_peak_kb = vm_rss_kb(pid);
        let started = Instant::now();
        let tasks: Vec<_> = clients
            .into_iter()
            .enumerate()
            .map(|(id, client)| {
                let offset = interval * id as u32 / sockets as u32;
                tokio::spawn(stream(client, id, frames, interval, offset))
            })
            .collect();
        // Sample the relay's memory while the streams run.
        let peak = Arc::new(AtomicU64::new(rss_peak_kb));
        let sampler = tokio::spawn({
            let peak = peak.clone();
            async move {
                loop {
                    peak.fetch_max(vm_rss_kb(pid), Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        });
        let mut latencies = Vec::with_capacity(sockets * frames);
        for task in tasks {
            match task.await.unwrap() {
                Ok(l) => latencies.extend(l),
                Err(e) => panic!("frame lost: {e}"),
            }
        }
        let seconds = started.elapsed().as_secs_f64();
        sampler.abort();
        let rss_peak_kb = peak.load(Ordering::Relaxed).max(vm_rss_kb(pid));
        assert_eq!(latencies.len(), sockets * frames, "every frame came back");
        latencies.sort_by(f64::total_cmp);
        Run {
            rss_idle_kb,
            rss_peak_kb,
            p50_us: percentile(&latencies, 0.50),
            p90_us: percentile(&latencies, 0.90),
            p99_us: percentile(&latencies, 0.99),
            frames: latencies.len(),
            seconds,
        }
    }

    #[tokio::main]
    pub async fn main() {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let relay_bin = args
            .first()
            .expect("usage: relay-load RELAY_BINARY [SOCKETS [FRAMES [RUNS [INTERVAL_MS]]]]");
        let number = |i: usize, default: usize| args.get(i).map_or(default, |a| a.parse().unwrap());
        let (sockets, frames, runs) = (number(1, 1000), number(2, 50), number(3, 5));
        let interval = Duration::from_millis(number(4, 200) as u64);

        let upstream = echo_upstream().await;
        let limit = (sockets * 2).to_string();
        let mut child = Command::new(relay_bin)
            .args(["--listen", "127.0.0.1:0", "--upstream", &upstream])
            .args(["--max-sockets", &limit, "--max-sockets-per-client", "0"])
            .args(["--ttl-s", "3600", "--shutdown-grace-s", "0"])
            .env("LETTA_APP_SERVER_TOKEN", "bench-token")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the relay");
        let pid = child.id();
        // Kept open (and unread) until the end: the relay prints only its ready line there.
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut ready = String::new();
        stdout.read_line(&mut ready).unwrap();
        let port: u16 = ready
            .trim()
            .strip_prefix("relay listening on http://127.0.0.1:")
            .and_then(|r| r.strip_suffix('/'))
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("unexpected ready line {ready:?}"));
        let relayed = Target {
            url: format!("ws://127.0.0.1:{port}/ws"),
            cookie: Some(ticket(port).await),
        };
        let direct = Target {
            url: upstream.clone(),
            cookie: None,
        };

        println!(
        "relay load: {sockets} concurrent sockets × {frames} round trips of ~{} B, one per {} ms per socket, {runs} runs",
        PAYLOAD + 30,
        interval.as_millis()
    );
        let (mut through, mut baseline) = (Vec::new(), Vec::new());
        for i in 0..runs {
            for (name, target, results) in [
                ("relay ", &relayed, &mut through),
                ("direct", &direct, &mut baseline),
            ] {
                let r = run(target, pid, sockets, frames, interval).await;
                println!(
                "  run {} {name}: {} frames in {:.2} s, none lost; relay RSS {:.1} MB before, peak {:.1} MB; round trip p50 {:.0} µs, p90 {:.0} µs, p99 {:.0} µs",
                i + 1,
                r.frames,
                r.seconds,
                r.rss_idle_kb as f64 / 1024.0,
                r.rss_peak_kb as f64 / 1024.0,
                r.p50_us,
                r.p90_us,
                r.p99_us
            );
                results.push(r);
                // Let the closing handshakes finish before the next run.
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
        let med = |runs: &[Run], f: fn(&Run) -> f64| median(runs.iter().map(f).collect());
        println!(
        "median of {runs}: relay RSS peak {:.1} MB with {sockets} sockets open (before the first run {:.1} MB); {} frames per run, none lost",
        med(&through, |r| r.rss_peak_kb as f64) / 1024.0,
        through[0].rss_idle_kb as f64 / 1024.0,
        sockets * frames
    );
        for (name, results) in [
            ("through the relay", &through),
            ("direct (baseline)", &baseline),
        ] {
            println!(
                "  {name}: round trip p50 {:.0} µs, p90 {:.0} µs, p99 {:.0} µs",
                med(results, |r| r.p50_us),
                med(results, |r| r.p90_us),
                med(results, |r| r.p99_us)
            );
        }
        drop(stdout);
        let _ = child.kill();
        let _ = child.wait();
    }
}
