//! How a command fails: a bad command line (status 2, reported as clap reports its own
//! errors), a run that went wrong (status 1, one line), or a run stopped by a signal after
//! saving its work (status 128 + the signal's number, as the shells report such a stop).

/// Why a command failed.
#[derive(Debug)]
pub enum Failure {
    /// A bad argument or bad input named on the command line: reported as clap reports its own
    /// errors, exit status 2.
    Usage(String),
    /// The command ran and failed (an engine could not be run, a file could not be written):
    /// exit status 1.
    Run(String),
    /// SIGTERM or SIGINT (the number) stopped the command after it saved its work and said so:
    /// exit status 128 + the number, so that a scheduler or a script sees the interruption.
    Interrupted(i32),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Run(message)
    }
}
