//! The answer to `protover 2`: the features Pao needs and its options, as `feature` lines.

use crate::coordinator::Coordinator;
use std::io::Write;

impl<W: Write> Coordinator<W> {
    pub(in crate::coordinator) fn cecp_features(&mut self) {
        let version = env!("CARGO_PKG_VERSION");
        // Signals off: Pao reads its input while it thinks. Moves come as `usermove`, positions
        // as `setboard`, colours only through go/playother; memory and cores set the table and
        // the threads.
        self.line(&format!(
            "feature myname=\"Pao {version}\" variants=\"xiangqi\" setboard=1 usermove=1 \
             ping=1 playother=1 san=0 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=1 \
             colors=0 ics=0 name=0 pause=0 nps=0 debug=0 memory=1 smp=1"
        ));
        let strength = self.options.strength.cecp_lines();
        for option in self.options.cecp_lines().into_iter().chain(strength) {
            self.line(&format!("feature option=\"{option}\""));
        }
        self.line("feature done=1");
    }
}
