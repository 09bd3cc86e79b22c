//! How a command fails: a bad command line (status 2, reported as clap reports its own
//! errors) or a run that went wrong (status 1, one line).

/// Why a command failed.
#[derive(Debug)]
pub enum Failure {
    /// A bad argument or bad input named on the command line: reported as clap reports its own
    /// errors, exit status 2.
    Usage(String),
    /// The command ran and failed (an engine could not be run, a file could not be written):
    /// exit status 1.
    Run(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Run(message)
    }
}
