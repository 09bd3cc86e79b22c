//! How a one-shot command ends when the reader of its output goes away (`pao bench | head -3`,
//! `pao-tools egtb list | head -1`).

/// Gives SIGPIPE its default action, so that a write to a pipe nobody reads ends the process
/// silently (status 141 in the shell), as it ends the shell's own tools, instead of Rust's
/// panic on the failed `println!`. Only for a process whose every pipe is its output: one that
/// talks to other processes or clients over pipes or sockets (the daemon, `pao serve`, the
/// match runner with its engines) keeps Rust's default, where such a write fails with an error
/// it handles by its own rules. Call it before any thread starts; it does nothing off Linux.
pub fn quiet_on_closed_pipe() {
    #[cfg(target_os = "linux")]
    // SAFETY: restores the default action of SIGPIPE before any thread starts; no handler runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
