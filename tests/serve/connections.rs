//! Connection slots: a cap in all (`--max-connections`) and per client address
//! (`--max-connections-per-address`), and a client that sends requests and never reads the
//! answers, which must lose its connection after `--send-timeout`. Clients at 127.0.0.2 and
//! beyond stand for other machines.

use crate::common::{closed_within, connect_from, raw_status, read_status, Server};
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// A request for the state, as a client of the loopback server sends it.
fn state_request(server: &Server) -> String {
    let auth = server
        .token
        .as_ref()
        .map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    format!(
        "GET /api/state HTTP/1.1\r\nHost: {}\r\n{auth}Connection: close\r\n\r\n",
        server.addr
    )
}

/// Of `sockets`, how many the server closes within `within` (the rest it holds).
async fn count_closed(sockets: &mut [TcpStream], within: Duration) -> usize {
    let checks = sockets.iter_mut().map(|s| closed_within(s, within));
    futures_util::future::join_all(checks)
        .await
        .into_iter()
        .filter(|&c| c)
        .count()
}

#[tokio::test]
async fn one_client_cannot_take_every_connection() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[
        "--max-connections",
        "4",
        "--max-connections-per-address",
        "2",
        "--header-timeout",
        "60",
    ]);
    let addr = server.addr;
    // A client opens four connections and sends nothing: it keeps two, the others are closed
    // at once.
    let mut idle = Vec::new();
    for _ in 0..4 {
        idle.push(connect_from(addr, [127, 0, 0, 2], None).await);
    }
    assert_eq!(count_closed(&mut idle, Duration::from_secs(1)).await, 2);
    // Another client is answered, and its connection closes (`Connection: close`) before
    // the next clients come: until then it holds a place of its own.
    let mut other = connect_from(addr, [127, 0, 0, 1], None).await;
    other
        .write_all(state_request(&server).as_bytes())
        .await
        .expect("send");
    assert_eq!(
        read_status(&mut other, Duration::from_secs(10)).await,
        Some(200)
    );
    assert!(closed_within(&mut other, Duration::from_secs(5)).await);
    // Two more clients take the last two places; one too many is closed at once. The
    // server gives back a place just after it closes the socket, so the client may come
    // before that: then it closes its connections, waits for their places to come back too,
    // and tries again (the one too many is closed either way).
    let deadline = Instant::now() + Duration::from_secs(10);
    let third = loop {
        let mut third = vec![
            connect_from(addr, [127, 0, 0, 3], None).await,
            connect_from(addr, [127, 0, 0, 4], None).await,
        ];
        let mut extra = vec![connect_from(addr, [127, 0, 0, 5], None).await];
        assert_eq!(count_closed(&mut extra, Duration::from_secs(2)).await, 1);
        let closed = count_closed(&mut third, Duration::from_millis(300)).await;
        if closed == 0 {
            break third;
        }
        assert!(
            Instant::now() < deadline,
            "{closed} of two places never came free"
        );
        drop(third);
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    // A place comes free when a connection closes.
    drop(third);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let status = raw_status(addr, [127, 0, 0, 5], &state_request(&server)).await;
        if status == Some(200) {
            break;
        }
        assert!(Instant::now() < deadline, "no place came free: {status:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_client_that_never_reads_its_answers_loses_its_connection() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[
        "--max-connections",
        "1",
        "--send-timeout",
        "1",
        "--rate",
        "1000000",
        "--header-timeout",
        "60",
    ]);
    let addr = server.addr;
    // 1,500 requests on one connection with a small receive buffer, never reading: the
    // answers (about 200 KB of refusals) cannot all fit in the sockets' buffers.
    let mut stalled = connect_from(addr, [127, 0, 0, 2], Some(1024)).await;
    let request = format!("GET /nothing HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    let requests = request.repeat(1500);
    let (mut reader, mut writer) = stalled.split();
    let sent_at = Instant::now();
    // The server may stop reading the requests while its answers wait: write in the
    // background of the check below.
    let write = async {
        let _ = writer.write_all(requests.as_bytes()).await;
    };
    let check = async {
        // Another client gets in once the stalled connection is closed, a little after the
        // send timeout.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let status = raw_status(addr, [127, 0, 0, 1], &state_request(&server)).await;
            if status == Some(200) {
                return sent_at.elapsed();
            }
            assert!(
                Instant::now() < deadline,
                "the connection that does not read still holds the only place"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    let (_, waited) = tokio::join!(write, check);
    println!(
        "a connection that did not read its answers was closed; another got in after {waited:?}"
    );
    assert!(waited >= Duration::from_millis(900), "{waited:?}");
    // The stalled connection was closed by the server.
    let closed = async {
        use tokio::io::AsyncReadExt;
        let mut buf = [0u8; 4096];
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    assert!(tokio::time::timeout(Duration::from_secs(5), closed)
        .await
        .is_ok());
}
