//! SIGTERM and SIGINT stop a long command cleanly: the handler only raises a flag, and the
//! command's loop sees it and ends its work in order (a generation stops its stage's child and
//! records the time spent; a tuning run hands out no more pairs). The handler is installed
//! explicitly, so a command started in the background by a shell without job control, which
//! inherits SIGINT ignored, still stops on it. Children also get SIGTERM from the system when
//! their parent dies without a word (SIGKILL), so no child outlives it to write on alone.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);
static SIGNAL: AtomicI32 = AtomicI32::new(0);

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    // Only atomics here: a signal handler may do nothing else safely.
    SIGNAL.store(signal, Ordering::Relaxed);
    STOP.store(true, Ordering::Relaxed);
}

/// Installs the handler of SIGTERM and SIGINT.
pub fn install() {
    #[cfg(unix)]
    // SAFETY: the handler only stores to atomics, which is async-signal-safe.
    unsafe {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::signal(libc::SIGTERM, handler);
        libc::signal(libc::SIGINT, handler);
    }
}

/// The signal that asked the command to stop, if one did.
pub fn stopped() -> Option<&'static str> {
    stopped_by().map(|signal| match signal {
        #[cfg(unix)]
        libc::SIGINT => "SIGINT",
        _ => "SIGTERM",
    })
}

/// The number of the signal that asked the command to stop, if one did.
pub fn stopped_by() -> Option<i32> {
    STOP.load(Ordering::Relaxed)
        .then(|| SIGNAL.load(Ordering::Relaxed))
}

/// Makes `command`'s child the leader of its own process group (so that stopping it reaches
/// its engines) and asks the system to send it SIGTERM when this process dies.
pub fn detach_and_tie(command: &mut std::process::Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
        #[cfg(target_os = "linux")]
        // SAFETY: prctl is async-signal-safe and touches only the child's own settings.
        unsafe {
            command.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
}

/// Stops the process group that `pid` leads: SIGTERM, then SIGKILL for what is left after a
/// grace period.
pub fn stop_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        let group = child.id() as libc::pid_t;
        // SAFETY: kill with a negative pid signals the group the child leads (detach_and_tie).
        unsafe {
            libc::kill(-group, libc::SIGTERM);
        }
        let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while std::time::Instant::now() < until {
            if let Ok(Some(_)) = child.try_wait() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        // SAFETY: as above; what still runs of the group is killed.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}
