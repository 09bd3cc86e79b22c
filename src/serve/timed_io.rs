//! A connection whose writes must finish in time. Once a write has to wait because the
//! socket's buffer is full, the peer has the send timeout to take the rest, until a write is
//! taken whole at once again; otherwise the write fails and the connection is closed. This
//! holds for every byte the server sends on the connection: HTTP answers, and a watcher's
//! messages after the upgrade. A client that sends requests and never reads their answers
//! cannot keep its connection.
//!
//! A write that is only partly taken does not move the deadline: a peer that reads a byte
//! now and then does not keep the connection alive either.

use std::future::Future;
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// A socket (or any stream) with a deadline on stalled writes.
pub struct TimedWrites<S> {
    inner: S,
    timeout: Duration,
    /// Set when a write had to wait; cleared when a whole write is taken at once.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<S> TimedWrites<S> {
    /// `inner`, whose stalled writes fail after `timeout`.
    pub fn new(inner: S, timeout: Duration) -> TimedWrites<S> {
        TimedWrites {
            inner,
            timeout,
            stalled: None,
        }
    }

    /// The outcome of a write of `wanted` bytes that returned `result`.
    fn check(
        &mut self,
        cx: &mut Context<'_>,
        wanted: usize,
        result: Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        match result {
            Poll::Ready(Ok(n)) => {
                if n >= wanted {
                    self.stalled = None;
                }
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                let timeout = self.timeout;
                let deadline = self
                    .stalled
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
                if deadline.as_mut().poll(cx).is_ready() {
                    Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the peer did not take what was sent in time",
                    )))
                } else {
                    Poll::Pending
                }
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for TimedWrites<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for TimedWrites<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let result = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.check(cx, buf.len(), result)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let wanted = bufs.iter().map(|b| b.len()).sum();
        let result = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.check(cx, wanted, result)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn a_peer_that_reads_keeps_the_stream_and_one_that_stops_loses_it() {
        // A pipe with a 1 KiB buffer stands for the socket.
        let (ours, mut theirs) = tokio::io::duplex(1024);
        let mut timed = TimedWrites::new(ours, Duration::from_millis(200));
        let reader = tokio::spawn(async move {
            let mut got = vec![0u8; 64 * 1024];
            theirs.read_exact(&mut got).await.expect("all of it");
            theirs
        });
        timed
            .write_all(&[7u8; 64 * 1024])
            .await
            .expect("a reading peer takes everything");
        let mut theirs = reader.await.expect("reader");
        // Now the peer stops reading: the buffer fills and the write fails at the deadline.
        let started = tokio::time::Instant::now();
        let err = timed
            .write_all(&[7u8; 4096])
            .await
            .expect_err("a peer that does not read");
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(200), "{waited:?}");
        // A byte read now and then does not move the deadline.
        let mut timed = TimedWrites::new(timed.inner, Duration::from_millis(300));
        let mut byte = [0u8; 1];
        theirs.read_exact(&mut byte).await.expect("a byte");
        let trickle = tokio::spawn(async move {
            for _ in 0..20 {
                tokio::time::sleep(Duration::from_millis(50)).await;
                if theirs.read_exact(&mut byte).await.is_err() {
                    break;
                }
            }
        });
        let started = tokio::time::Instant::now();
        let err = timed.write_all(&[7u8; 4096]).await.expect_err("a trickle");
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(started.elapsed() < Duration::from_millis(900));
        trickle.abort();
    }
}
