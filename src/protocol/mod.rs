//! UCCI, UCI and CECP: typed commands in, formatted lines out, and the stdin reader thread.

pub mod cecp;
pub mod command;
pub mod output;
pub mod reader;
pub mod values;

pub use cecp::{parse_cecp, CecpCommand, CecpError};
pub use command::{parse_command, Command, Dialect, GoParams, ParseContext, ProtocolError};
pub use output::{
    format_bestmove, format_bounds, format_error, format_info, format_score, InfoLine,
};
pub use reader::{read_event, ReaderEvent};
pub use values::{parse_bool, parse_range};
