//! A request's deadline. A request that has not begun to act on the analysis by its deadline
//! is answered 408 and changes nothing, however long it then waits for its turn; one that has
//! begun is answered when its change is made, late if need be. Either way the answer says
//! what happened.
//!
//! The deadline travels with the request's task (a task-local), so that the one place that
//! acts on the analysis (`api::with_control`) can claim it without every handler passing it.

use super::respond::refuse;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Duration;

const OPEN: u8 = 0;
const ACTING: u8 = 1;
const EXPIRED: u8 = 2;

tokio::task_local! {
    static DEADLINE: Deadline;
}

/// Whether a request still may act, has begun to, or ran out of time.
#[derive(Clone, Debug, Default)]
pub struct Deadline(Arc<AtomicU8>);

impl Deadline {
    /// The request begins to act: true unless its time ran out first (then it must not).
    pub fn begin(&self) -> bool {
        match self
            .0
            .compare_exchange(OPEN, ACTING, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(now) => now == ACTING,
        }
    }

    /// The time ran out: true unless the request has begun to act (then it must be awaited).
    fn expire(&self) -> bool {
        self.0
            .compare_exchange(OPEN, EXPIRED, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }
}

/// The deadline of the request this task is answering, if any.
pub fn current() -> Option<Deadline> {
    DEADLINE.try_with(Deadline::clone).ok()
}

/// The middleware: 408 for a request that has not begun to act within `timeout`.
pub async fn limit(State(timeout): State<Duration>, req: Request, next: Next) -> Response {
    let deadline = Deadline::default();
    let answer = DEADLINE.scope(deadline.clone(), next.run(req));
    tokio::pin!(answer);
    tokio::select! {
        biased;
        r = &mut answer => r,
        () = tokio::time::sleep(timeout) => {
            if deadline.expire() {
                refuse(StatusCode::REQUEST_TIMEOUT, "the request took too long; nothing was changed")
            } else {
                answer.await
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_of_acting_and_expiring_wins() {
        let d = Deadline::default();
        assert!(d.begin());
        assert!(d.begin(), "a request may act more than once");
        assert!(!d.expire(), "a request that acts is awaited");
        let d = Deadline::default();
        assert!(d.expire());
        assert!(!d.begin(), "a request out of time does not act");
    }

    #[tokio::test]
    async fn the_deadline_is_found_inside_the_request_only() {
        assert!(current().is_none());
        let d = Deadline::default();
        let inside = DEADLINE.scope(d.clone(), async { current() }).await;
        assert!(inside.is_some_and(|i| Arc::ptr_eq(&i.0, &d.0)));
    }
}
