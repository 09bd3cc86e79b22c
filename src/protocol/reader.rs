//! Input lines as events (end of input is one too), read by the thread that then handles them
//! under the coordinator's lock. Nothing is parsed here: how a line parses depends on connection
//! state the coordinator owns.

use std::io::BufRead;

/// Longest line accepted (ElephantEye reads 8 KiB; long `moves` lists need more).
pub const MAX_LINE: usize = 64 * 1024;

/// What one read of the input yields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReaderEvent {
    /// One input line, without its end-of-line characters.
    Line(String),
    /// A line that could not be taken (too long), with the reason.
    Error(String),
    /// End of input (or an unreadable input): the daemon quits.
    Eof,
}

/// Reads the next input event from `input` (`buf` is scratch space).
pub fn read_event<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> ReaderEvent {
    buf.clear();
    match read_line(input, buf) {
        Ok(None) | Err(_) => ReaderEvent::Eof,
        Ok(Some(true)) => ReaderEvent::Error(format!("line longer than {MAX_LINE} bytes ignored")),
        Ok(Some(false)) => {
            let text = String::from_utf8_lossy(buf);
            ReaderEvent::Line(text.trim_end_matches(['\r', '\n']).to_string())
        }
    }
}

/// Reads one line into `buf`, keeping at most `MAX_LINE` bytes. `None` at end of input;
/// `Some(true)` when the line was too long (the rest of it is skipped).
fn read_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    let mut too_long = false;
    let mut any = false;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            return Ok(if any { Some(too_long) } else { None });
        }
        any = true;
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..=i], true),
            None => (available, false),
        };
        let n = chunk.len();
        if buf.len() + n > MAX_LINE {
            too_long = true;
        } else {
            buf.extend_from_slice(chunk);
        }
        input.consume(n);
        if done {
            return Ok(Some(too_long));
        }
    }
}
