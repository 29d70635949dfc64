//! Many page loads over a few kept-alive HTTP/1.1 connections (the ticket-flood case).

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// What a flood of page loads got back.
#[derive(Debug, Default)]
pub struct FloodResult {
    /// Responses with status 200 and a ticket cookie.
    pub pages_with_ticket: usize,
    /// Any other response.
    pub other: usize,
}

/// Loads `/` `total` times from `127.0.0.1:port`, over `connections` kept-alive connections at
/// once. The relay answers with `Content-Length` bodies, so each response ends at its length.
pub async fn load_page(port: u16, total: usize, connections: usize) -> FloodResult {
    let per = total.div_ceil(connections);
    let mut tasks = Vec::new();
    for c in 0..connections {
        let count = per.min(total.saturating_sub(c * per));
        tasks.push(tokio::spawn(one_connection(port, count)));
    }
    let mut result = FloodResult::default();
    for task in tasks {
        let (ok, other) = task.await.unwrap();
        result.pages_with_ticket += ok;
        result.other += other;
    }
    result
}

async fn one_connection(port: u16, count: usize) -> (usize, usize) {
    let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    stream.set_nodelay(true).unwrap();
    let mut stream = BufReader::new(stream);
    let request = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    let (mut ok, mut other) = (0, 0);
    let mut line = String::new();
    let mut body = Vec::new();
    for _ in 0..count {
        stream
            .get_mut()
            .write_all(request.as_bytes())
            .await
            .unwrap();
        let mut status = 0;
        let mut length = 0;
        let mut ticket = false;
        loop {
            line.clear();
            assert!(
                stream.read_line(&mut line).await.unwrap() > 0,
                "connection closed"
            );
            let text = line.trim_end();
            if text.is_empty() {
                break;
            }
            if status == 0 {
                status = text.split(' ').nth(1).unwrap().parse::<u16>().unwrap();
            } else if let Some((name, value)) = text.split_once(':') {
                let name = name.to_ascii_lowercase();
                if name == "content-length" {
                    length = value.trim().parse::<usize>().unwrap();
                } else if name == "set-cookie" && value.trim().starts_with("letta_relay_ticket=") {
                    ticket = true;
                }
            }
        }
        body.resize(length, 0);
        stream.read_exact(&mut body).await.unwrap();
        if status == 200 && ticket {
            ok += 1;
        } else {
            other += 1;
        }
    }
    (ok, other)
}
