//! Switches for every search enhancement, so tests can compare against plain alpha-beta and the
//! ablation table can measure what each one buys.

/// The root driver.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Driver {
    /// Principal variation search (or plain alpha-beta when `pvs` is off) in iterative deepening.
    Pvs,
    /// MTD(f): zero-window searches converging on the value through the transposition table.
    Mtdf,
    /// SSS* in its practical form, MTD(+inf): zero-window searches from +inf downwards through
    /// the transposition table (Plaat et al.), in iterative deepening.
    SssStar,
    /// B* at the root (Berliner): best-first, on bounds from shallow searches, until one root
    /// move is proven best or the budget is spent. An experiment, not a tournament setting.
    BStar,
}

impl Driver {
    /// The option value naming the driver (`searchdriver`).
    pub fn name(self) -> &'static str {
        match self {
            Driver::Pvs => "pvs",
            Driver::Mtdf => "mtdf",
            Driver::SssStar => "sssstar",
            Driver::BStar => "bstar",
        }
    }

    /// The driver an option value names.
    pub fn parse(value: &str) -> Option<Driver> {
        [Driver::Pvs, Driver::Mtdf, Driver::SssStar, Driver::BStar]
            .into_iter()
            .find(|d| value.trim().eq_ignore_ascii_case(d.name()))
    }
}

/// How the search scores a repeated position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum RepetitionRule {
    /// The Asian rules: perpetual check or chase loses for the offender, any other repetition
    /// draws (the rules Pao's referee and most xiangqi GUIs apply).
    #[default]
    Asian,
    /// Every repetition is a draw, whoever checks or chases (for referees that rule so, such
    /// as cutechess's xiangqi branch).
    Draw,
}

/// Which enhancements the search uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Root driver.
    pub driver: Driver,
    /// Null windows for all but the first move, re-search on fail-high.
    pub pvs: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Use the transposition table for cutoffs (it still orders moves when off).
    pub tt_cutoffs: bool,
    /// Use the transposition table move first in ordering.
    pub tt_move: bool,
    /// Null-move pruning with a zugzwang guard and verification at high depth.
    pub null_move: bool,
    /// Late move reductions.
    pub lmr: bool,
    /// Futility and reverse-futility pruning near the leaves.
    pub futility: bool,
    /// Killer moves in ordering.
    pub killers: bool,
    /// Counter-move in ordering.
    pub counter_move: bool,
    /// History heuristic for quiet moves.
    pub history: bool,
    /// Capture ordering by MVV-LVA (off = generation order).
    pub capture_ordering: bool,
    /// Quiescence search at the leaves (off = static evaluation).
    pub quiescence: bool,
    /// Extend checking moves by one ply.
    pub check_extension: bool,
    /// Mate-distance pruning.
    pub mate_distance: bool,
    /// Evaluation knowledge beyond material and piece-square tables.
    pub knowledge: bool,
    /// How repetitions are scored (a rule of the game, not an enhancement).
    pub repetition: RepetitionRule,
    /// Static exchange evaluation: losing captures ordered after the quiet moves, skipped in
    /// quiescence, and moves losing material pruned near the leaves.
    pub see: bool,
    /// Internal iterative reduction: a node without a TT move is searched one ply shallower
    /// (the table will have a move for the next, deeper visit).
    pub iir: bool,
    /// LMR adjusted per move: less for killers, the counter-move and moves with a good
    /// history, more for bad history and when the position is not improving.
    pub lmr_adjust: bool,
    /// Continuation histories (the move one and two plies back) in quiet-move ordering.
    pub cont_history: bool,
    /// Null move reduces more the further the static evaluation is above beta.
    pub nmp_eval_r: bool,
    /// The table's score refines the static evaluation used by pruning, when its bound
    /// says the true value lies beyond it in that direction.
    pub tt_eval: bool,
    /// Razoring: near the leaves, a static evaluation far below alpha is checked with a
    /// quiescence search, and the node returns when that stays below alpha.
    pub razoring: bool,
    /// Reverse futility with a smaller margin when the position is improving.
    pub rfp_improving: bool,
    /// Checks are extended only when the checking move does not lose material by SEE.
    pub check_ext_see: bool,
    /// Singular extension of the TT move (with multi-cut): when every other move fails low
    /// against a margin below the stored score, the TT move is searched one ply deeper (two
    /// when they fail far below, a bounded number of times per line), and one ply shallower
    /// when another move holds too and the stored score beats beta.
    pub singular: bool,
    /// Quiescence delta pruning: a capture that cannot lift the stand-pat to alpha even
    /// with its victim's value and a margin is skipped (unless it gives check).
    pub qs_futility: bool,
    /// Late move pruning: near the leaves, once enough moves were searched at a node that
    /// expects no cutoff, the remaining quiet moves (checks kept) are not searched.
    pub lmp: bool,
    /// History pruning: near the leaves, a quiet move (not a check) whose history says it
    /// keeps failing is not searched.
    pub history_pruning: bool,
    /// Capture history: captures ordered by victim and by how the same capture did before.
    pub capture_history: bool,
    /// ProbCut: a capture whose reduced search beats beta by a margin cuts the node
    /// (`probcut.rs`).
    pub probcut: bool,
    /// Correction history: the static evaluation corrected by the mean of four tables of what
    /// searches found, keyed by the soldier structure, by each colour's other pieces and by
    /// the previous move (`correction.rs`).
    pub correction_history: bool,
    /// The search knows the sixty-move rule: a node at the limit (after a move that is not
    /// mate) is a draw.
    pub sixty_move_draw: bool,
    /// The static evaluation fades toward a draw as the sixty-move count grows (to half at
    /// the limit), so that the side ahead prefers the capture that resets it.
    pub sixty_move_fade: bool,
    /// A mate found by an analysis (a search no game clock bounds) is proven the shortest (the
    /// longest resistance) before the iterations end (`mate_proof.rs`); off, the held score
    /// ends them as it does on a game's clock and for `go nodes`.
    pub mate_proofs: bool,
    /// The evaluation scales toward a draw the advantage of a side whose material Pao's
    /// endgame tables show it (nearly) never wins (`src/eval/endgame.rs`).
    pub endgame_scale: bool,
    /// The evaluation of a position whose material the embedded bitbases hold (derived from
    /// Pao's endgame tables, `src/eval/bitbase/`) agrees with their verdict: a draw scores
    /// near 0, a win or loss at least a few hundred toward the winner.
    pub endgame_bitbase: bool,
}

/// A switch `SearchConfig::with_switches` can name: its name and the field it sets.
type Switch = (&'static str, fn(&mut SearchConfig) -> &mut bool);

/// The enhancements the `SearchSwitches` option can turn on or off, by name.
const SWITCHES: &[Switch] = &[
    ("pvs", |c| &mut c.pvs),
    ("aspiration", |c| &mut c.aspiration),
    ("tt_cutoffs", |c| &mut c.tt_cutoffs),
    ("tt_move", |c| &mut c.tt_move),
    ("null_move", |c| &mut c.null_move),
    ("lmr", |c| &mut c.lmr),
    ("futility", |c| &mut c.futility),
    ("killers", |c| &mut c.killers),
    ("counter_move", |c| &mut c.counter_move),
    ("history", |c| &mut c.history),
    ("capture_ordering", |c| &mut c.capture_ordering),
    ("quiescence", |c| &mut c.quiescence),
    ("check_extension", |c| &mut c.check_extension),
    ("mate_distance", |c| &mut c.mate_distance),
    ("see", |c| &mut c.see),
    ("iir", |c| &mut c.iir),
    ("lmr_adjust", |c| &mut c.lmr_adjust),
    ("cont_history", |c| &mut c.cont_history),
    ("nmp_eval_r", |c| &mut c.nmp_eval_r),
    ("tt_eval", |c| &mut c.tt_eval),
    ("razoring", |c| &mut c.razoring),
    ("rfp_improving", |c| &mut c.rfp_improving),
    ("check_ext_see", |c| &mut c.check_ext_see),
    ("singular", |c| &mut c.singular),
    ("qs_futility", |c| &mut c.qs_futility),
    ("lmp", |c| &mut c.lmp),
    ("history_pruning", |c| &mut c.history_pruning),
    ("capture_history", |c| &mut c.capture_history),
    ("probcut", |c| &mut c.probcut),
    ("correction_history", |c| &mut c.correction_history),
    ("sixty_move_draw", |c| &mut c.sixty_move_draw),
    ("sixty_move_fade", |c| &mut c.sixty_move_fade),
    ("mate_proofs", |c| &mut c.mate_proofs),
    ("endgame_scale", |c| &mut c.endgame_scale),
    ("endgame_bitbase", |c| &mut c.endgame_bitbase),
];

impl SearchConfig {
    /// Everything on: the engine as it plays.
    pub const FULL: SearchConfig = SearchConfig {
        driver: Driver::Pvs,
        pvs: true,
        aspiration: true,
        tt_cutoffs: true,
        tt_move: true,
        null_move: true,
        lmr: true,
        futility: true,
        killers: true,
        counter_move: true,
        history: true,
        capture_ordering: true,
        quiescence: true,
        check_extension: true,
        mate_distance: true,
        knowledge: true,
        repetition: RepetitionRule::Asian,
        // Accepted by an SPRT in self-play (docs/strength-log.md, "Strength log").
        see: true,
        // Accepted by an SPRT in self-play (docs/strength-log.md, "Strength log").
        lmr_adjust: true,
        lmp: true,
        correction_history: true,
        tt_eval: true,
        // Off until an SPRT in self-play accepts them (docs/strength-log.md, "In test"); a
        // switch that games reject leaves the code (docs/strength-log.md, "Tried and rejected").
        iir: false,
        cont_history: false,
        nmp_eval_r: false,
        razoring: false,
        rfp_improving: false,
        check_ext_see: false,
        singular: false,
        qs_futility: false,
        history_pruning: false,
        capture_history: false,
        probcut: false,
        sixty_move_draw: false,
        sixty_move_fade: false,
        // Exact mate lengths for analysis; measured in games (docs/strength-log.md).
        mate_proofs: true,
        // What the tables know, together: a non-regression SPRT in self-play accepted them
        // (docs/strength-log.md, "Strength log").
        endgame_scale: true,
        endgame_bitbase: true,
    };

    /// Everything off: fixed-depth alpha-beta in generation order with static leaves.
    pub const PLAIN: SearchConfig = SearchConfig {
        driver: Driver::Pvs,
        pvs: false,
        aspiration: false,
        tt_cutoffs: false,
        tt_move: false,
        null_move: false,
        lmr: false,
        futility: false,
        killers: false,
        counter_move: false,
        history: false,
        capture_ordering: false,
        quiescence: false,
        check_extension: false,
        mate_distance: false,
        knowledge: true,
        repetition: RepetitionRule::Asian,
        see: false,
        iir: false,
        lmr_adjust: false,
        cont_history: false,
        nmp_eval_r: false,
        tt_eval: false,
        razoring: false,
        rfp_improving: false,
        check_ext_see: false,
        singular: false,
        qs_futility: false,
        lmp: false,
        history_pruning: false,
        capture_history: false,
        probcut: false,
        correction_history: false,
        sixty_move_draw: false,
        sixty_move_fade: false,
        mate_proofs: false,
        endgame_scale: false,
        endgame_bitbase: false,
    };

    /// This configuration with the switches of `spec` flipped: names separated by spaces or
    /// commas, each `+name` or `name` (on) or `-name` (off); empty (or `<empty>`) changes
    /// nothing. An unknown name is an error naming it, and nothing is changed.
    pub fn with_switches(mut self, spec: &str) -> Result<SearchConfig, String> {
        let spec = spec.trim();
        if spec.eq_ignore_ascii_case("<empty>") {
            return Ok(self);
        }
        for token in spec.split([' ', ',']).filter(|t| !t.is_empty()) {
            let (on, name) = match token.as_bytes()[0] {
                b'+' => (true, &token[1..]),
                b'-' => (false, &token[1..]),
                _ => (true, token),
            };
            let field = SWITCHES
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, f)| f)
                .ok_or_else(|| format!("unknown search switch '{name}'"))?;
            *field(&mut self) = on;
        }
        Ok(self)
    }

    /// Whether the switch called `name` is on here; `None` for a name `with_switches` does not
    /// know.
    pub fn is_on(&self, name: &str) -> Option<bool> {
        let mut probe = *self;
        SWITCHES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, f)| *f(&mut probe))
    }

    /// The names `with_switches` knows.
    pub fn switch_names() -> impl Iterator<Item = &'static str> {
        SWITCHES.iter().map(|(n, _)| *n)
    }

    /// This configuration without forward pruning (UCCI's `pruning none`): every switch
    /// that skips or reduces moves or returns before searching them is turned off, so the
    /// search cuts only by alpha-beta and the table; extensions and ordering stay.
    pub fn without_forward_pruning(self) -> SearchConfig {
        SearchConfig {
            null_move: false,
            nmp_eval_r: false,
            lmr: false,
            lmr_adjust: false,
            futility: false,
            rfp_improving: false,
            razoring: false,
            see: false,
            iir: false,
            qs_futility: false,
            singular: false,
            lmp: false,
            history_pruning: false,
            probcut: false,
            ..self
        }
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig::FULL
    }
}
