//! Time management: how long a move may take, and which compiled search fits in it.
//!
//! From `movetime`, or from the clock, increment and moves to go, [`budget`] gives the
//! time the move should take; [`CostBook`] keeps, per variant, what its moves have cost
//! in this process and picks the strongest variant expected to fit ([`CostBook::choose`]).
//! The cheapest variant is played when none fits: a move must be made. When the budget is
//! ample, [`CostBook::deeper`] names a stronger variant the clock does not choose by
//! itself (its cost varies too much to be foreseen); the session runs it after the
//! chosen one and cuts it at the end of the budget, keeping the chosen one's move.
//!
//! What a variant cost before is only a forecast: a busy machine can make the same search
//! several times slower. So [`plan`] also sets a hard limit ([`hard_limit`]), checked
//! against the time actually passing while the rules run (between two rules): a search
//! still running then is cut, its time so far is recorded as its cost (the forecast
//! learns the load), and the cheapest variant answers at once. The cheapest variant
//! itself is never cut: it is the move of last resort.
//!
//! [`plan`] turns a `go` into a [`Plan`]: which variants run, which deadlines cut them,
//! and the `info string` that says why.

use std::time::{Duration, Instant};

use super::command::Go;
use std::collections::HashMap;

use crate::variants::Search;
use regex_chess_chess::notation::Color;

/// The moves a clock is assumed to have to last for when `movestogo` is not given.
pub const MOVES_TO_GO: u64 = 25;
/// The share of what is left on the clock one move may take at most: a half.
const MAX_SHARE: u64 = 2;
/// How much more a variant one ply deeper is assumed to cost, before it is measured:
/// the selective third ply measured 2.1 times the two plies with a capture search over
/// the bench positions (geometric mean) and 7.3 times on the widest (PERF.md); 4,
/// between them.
const PLY_FACTOR: f64 = 4.0;
/// How much more a capture search is assumed to cost, before it is measured.
const QUIESCENCE_FACTOR: f64 = 4.0;
/// How much more a variant's first move costs than the next ones (the executor's cold
/// start), assumed before it is measured.
const COLD_FACTOR: f64 = 3.0;
/// How many times the expected cost of the clock's choice the budget must be for a deeper
/// variant to be tried after it: the selective third ply costs 2.1 times the two plies
/// over the bench positions (geometric mean), so after the two plies' move it usually
/// ends within 4.
const DEEPER_FACTOR: f64 = 4.0;
/// How many recent moves the worst-case memory of a variant covers.
const RECENT: usize = 4;
/// How many times the budget a search may run before it is cut ([`hard_limit`]): a
/// forecast three times too low (a machine three times busier than when measured) is
/// still answered by the chosen variant.
pub const HARD_FACTOR: u64 = 3;
/// The share of what is left on the clock a search may run at most before it is cut: a
/// quarter, so that the cheapest variant's answer after a cut still fits many times.
pub const HARD_SHARE: u64 = 4;

/// The time limits of a `go` command, in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// `wtime`, `btime`: what is left on each side's clock.
    pub time: [Option<u64>; 2],
    /// `winc`, `binc`: each side's increment.
    pub inc: [Option<u64>; 2],
    /// `movestogo`: moves until the next time control.
    pub movestogo: Option<u64>,
    /// `movetime`: the time for this move.
    pub movetime: Option<u64>,
}

impl Clock {
    /// True when neither a clock nor a move time was given.
    pub fn is_unlimited(&self) -> bool {
        self.movetime.is_none() && self.time == [None, None]
    }
}

/// The milliseconds the move of `turn` may take, after `overhead` (the GUI's and the
/// pipes' share), or `None` when `clock` sets no limit. With a clock: what is left shared
/// over the moves to go (`movestogo`, else [`MOVES_TO_GO`]), plus three quarters of the
/// increment, and never more than half of what is left.
pub fn budget(clock: &Clock, turn: Color, overhead: u64) -> Option<u64> {
    if let Some(movetime) = clock.movetime {
        return Some(movetime.saturating_sub(overhead));
    }
    let side = turn as usize;
    let left = clock.time[side]?.saturating_sub(overhead);
    let inc = clock.inc[side].unwrap_or(0);
    let moves = clock.movestogo.unwrap_or(MOVES_TO_GO).max(1);
    Some((left / moves + inc * 3 / 4).min(left / MAX_SHARE))
}

/// What a variant's moves have cost.
#[derive(Clone, Debug, Default)]
struct Cost {
    /// A moving average of the milliseconds a move.
    average: f64,
    /// The last [`RECENT`] costs.
    recent: Vec<f64>,
}

/// The cost of each variant's moves, measured in this process.
#[derive(Clone, Debug, Default)]
pub struct CostBook {
    costs: HashMap<&'static str, Cost>,
}

impl CostBook {
    /// An empty book: nothing measured yet.
    pub fn new() -> CostBook {
        CostBook::default()
    }

    /// Records that a move of `variant` took `millis`.
    pub fn record(&mut self, variant: Search, millis: f64) {
        let cost = self.costs.entry(variant.name()).or_default();
        cost.average = if cost.recent.is_empty() {
            millis
        } else {
            0.5 * cost.average + 0.5 * millis
        };
        cost.recent.push(millis);
        if cost.recent.len() > RECENT {
            cost.recent.remove(0);
        }
    }

    /// The milliseconds a move of `variant` is expected to take: measured, the larger of
    /// the moving average and three quarters of the worst recent move; not yet measured,
    /// the cost of the strongest measured weaker variant scaled by `PLY_FACTOR` a ply,
    /// `QUIESCENCE_FACTOR` for a capture search and `COLD_FACTOR`; `None` when no
    /// weaker variant is measured either.
    pub fn expected(&self, variant: Search) -> Option<f64> {
        if let Some(cost) = self.costs.get(variant.name()) {
            let worst = cost.recent.iter().copied().fold(0.0, f64::max);
            return Some(cost.average.max(0.75 * worst));
        }
        let base = strength_order()
            .into_iter()
            .rev()
            .find(|&w| weaker(w, variant) && self.costs.contains_key(w.name()))?;
        let mut cost = self.expected(base)? * COLD_FACTOR;
        cost *= PLY_FACTOR.powi(variant.depth() as i32 - base.depth() as i32);
        if variant.quiescence() && !base.quiescence() {
            cost *= QUIESCENCE_FACTOR;
        }
        Some(cost)
    }

    /// The strongest variant the clock may choose ([`Search::by_clock`]) expected to take
    /// at most `budget` ms; the cheapest when none is, or when nothing is measured yet.
    pub fn choose(&self, budget: u64) -> Search {
        let order = strength_order();
        order
            .iter()
            .rev()
            .filter(|v| v.by_clock())
            .find(|v| self.expected(**v).is_some_and(|cost| cost <= budget as f64))
            .copied()
            .unwrap_or(order[0])
    }

    /// The variant to run after `chosen` (the clock's choice) within `budget` ms, cut at
    /// the end of the budget: the strongest variant stronger than `chosen` that the clock
    /// does not choose by itself ([`Search::by_clock`]), when `chosen` has been measured
    /// and the budget is at least `DEEPER_FACTOR` times its expected cost.
    pub fn deeper(&self, chosen: Search, budget: u64) -> Option<Search> {
        let expected = self.expected(chosen)?;
        if (budget as f64) < DEEPER_FACTOR * expected {
            return None;
        }
        strength_order()
            .into_iter()
            .rev()
            .find(|&v| !v.by_clock() && weaker(chosen, v))
    }
}

/// True when `a` is weaker than `b`: earlier in [`Search::ALL`], which lists the
/// variants weakest first as measured against Stockfish (`2ply-see`, two plies, is
/// stronger than `3ply-qe`).
fn weaker(a: Search, b: Search) -> bool {
    let place = |v: Search| Search::ALL.iter().position(|&w| w == v);
    place(a) < place(b)
}

/// Every variant, the weakest first (the registry's order).
pub fn strength_order() -> Vec<Search> {
    Search::ALL.into_iter().collect()
}

/// The deepest variant no deeper than `depth`, the strongest of that depth (the
/// cheapest when all are deeper).
pub fn for_depth(depth: u32) -> Search {
    let order = strength_order();
    let deepest = order
        .iter()
        .map(|v| v.depth())
        .filter(|&d| d <= depth)
        .max();
    order
        .iter()
        .rev()
        .find(|v| Some(v.depth()) == deepest)
        .copied()
        .unwrap_or(order[0])
}

/// The milliseconds after which a running search is cut and the cheapest variant
/// answers, or `None` when `clock` sets no limit: the budget itself for `movetime` (a
/// hard limit in UCI), else [`HARD_FACTOR`] times the budget but never more than a
/// [`HARD_SHARE`] of what is left (and never less than the budget).
pub fn hard_limit(clock: &Clock, turn: Color, overhead: u64) -> Option<u64> {
    let budget = budget(clock, turn, overhead)?;
    if clock.movetime.is_some() {
        return Some(budget);
    }
    let left = clock.time[turn as usize]?.saturating_sub(overhead);
    Some((budget * HARD_FACTOR).min(left / HARD_SHARE).max(budget))
}

/// How a `go` searches: `variant` answers, unless a `first` variant runs to the end
/// before it and `variant` is cut (by the GUI, or at the `soft` deadline), when `first`
/// answers. Any run but the cheapest variant's is cut at the `hard` deadline, and then
/// the cheapest variant answers.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The variant run to the end first, whose answer stands when `variant` is cut.
    pub first: Option<Search>,
    /// The variant whose answer is given when it ends.
    pub variant: Search,
    /// When `variant`, run after `first`, is cut: the end of the budget.
    pub soft: Option<Instant>,
    /// When any run but the cheapest variant's is cut, whatever it is.
    pub hard: Option<Instant>,
    /// The `info string` saying how the search was chosen.
    pub why: String,
}

impl Plan {
    /// `variant` alone, never cut by the clock (a held search still runs the cheapest
    /// variant first).
    fn outright(variant: Search, why: String) -> Plan {
        Plan {
            first: None,
            variant,
            soft: None,
            hard: None,
            why,
        }
    }
}

/// The cheapest variant: the move of last resort.
pub fn cheapest() -> Search {
    strength_order()[0]
}

/// How to search for `go` in a position where `turn` moves, starting `now`: the
/// variant `fixed` (the `Search` option) whatever the limits; else the deepest variant
/// within `go depth`; else, with a budget, the strongest variant `costs` expects to fit
/// (and a deeper one after it when the budget is ample), cut at [`hard_limit`]; else the
/// default variant. A held search (`go infinite`, `go ponder`) runs the cheapest variant
/// first.
pub fn plan(
    go: &Go,
    fixed: Option<Search>,
    turn: Color,
    overhead: u64,
    costs: &CostBook,
    now: Instant,
) -> Plan {
    let mut plan = choose_plan(go, fixed, turn, overhead, costs, now);
    if go.hold && plan.first.is_none() && plan.variant != cheapest() {
        plan.first = Some(cheapest());
    }
    plan
}

fn choose_plan(
    go: &Go,
    fixed: Option<Search>,
    turn: Color,
    overhead: u64,
    costs: &CostBook,
    now: Instant,
) -> Plan {
    if let Some(variant) = fixed {
        let why = format!("info string option Search: variant {}", variant.name());
        return Plan::outright(variant, why);
    }
    if let Some(depth) = go.depth {
        let variant = for_depth(depth.min(u32::MAX as u64) as u32);
        let why = format!("info string depth {depth}: variant {}", variant.name());
        return Plan::outright(variant, why);
    }
    let (Some(budget), Some(hard)) = (
        budget(&go.clock, turn, overhead),
        hard_limit(&go.clock, turn, overhead),
    ) else {
        let variant = Search::default_play();
        let why = format!("info string no time limit: variant {}", variant.name());
        return Plan::outright(variant, why);
    };
    let variant = costs.choose(budget);
    let expected = costs.expected(variant).map_or_else(
        || "not yet measured".to_string(),
        |ms| format!("{ms:.0} ms"),
    );
    let why = format!(
        "info string budget {budget} ms: variant {} (expected {expected})",
        variant.name()
    );
    let hard = Some(now + Duration::from_millis(hard));
    match costs.deeper(variant, budget) {
        Some(deeper) => Plan {
            first: Some(variant),
            variant: deeper,
            soft: Some(now + Duration::from_millis(budget)),
            hard,
            why: format!("{why}, then {} until the budget ends", deeper.name()),
        },
        None => Plan {
            hard,
            ..Plan::outright(variant, why)
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(white: u64, black: u64, inc: u64, movestogo: Option<u64>) -> Clock {
        Clock {
            time: [Some(white), Some(black)],
            inc: [Some(inc), Some(inc)],
            movestogo,
            movetime: None,
        }
    }

    #[test]
    fn budgets_from_move_time_and_clocks() {
        let movetime = Clock {
            movetime: Some(500),
            ..Clock::default()
        };
        assert_eq!(budget(&movetime, Color::White, 30), Some(470));
        assert_eq!(budget(&movetime, Color::Black, 800), Some(0));
        assert_eq!(budget(&Clock::default(), Color::White, 30), None);
        assert!(Clock::default().is_unlimited());
        // 60 s each, no increment: a 25th of what is left after the overhead.
        assert_eq!(
            budget(&clock(60_000, 1_000, 0, None), Color::White, 30),
            Some(59_970 / 25)
        );
        // Black's own clock, with its increment.
        assert_eq!(
            budget(&clock(60_000, 10_030, 1_000, None), Color::Black, 30),
            Some(400 + 750)
        );
        // One move to go: half of what is left at most.
        assert_eq!(
            budget(&clock(2_030, 0, 0, Some(1)), Color::White, 30),
            Some(1_000)
        );
        // Less than the overhead left: nothing.
        assert_eq!(budget(&clock(20, 20, 0, None), Color::White, 30), Some(0));
    }

    #[test]
    fn the_cheapest_variant_is_chosen_until_measured_and_when_nothing_fits() {
        let cheapest = strength_order()[0];
        let book = CostBook::new();
        assert_eq!(book.choose(1_000_000), cheapest);
        assert_eq!(book.expected(cheapest), None);
        let mut book = CostBook::new();
        book.record(cheapest, 100.0);
        assert_eq!(book.expected(cheapest), Some(100.0));
        assert_eq!(book.choose(0), cheapest);
        book.record(cheapest, 300.0);
        // Average 200, worst recent 300: 225 expected.
        assert_eq!(book.expected(cheapest), Some(225.0));
        for _ in 0..RECENT + 2 {
            book.record(cheapest, 10.0);
        }
        assert!(book.expected(cheapest).unwrap() < 20.0);
    }

    #[test]
    fn an_unmeasured_stronger_variant_is_estimated_from_a_weaker_one() {
        // The strongest variant, unmeasured, estimated from the cheapest.
        let strong = *strength_order().last().unwrap();
        let mut book = CostBook::new();
        assert_eq!(book.expected(strong), None);
        let cheapest = strength_order()[0];
        book.record(cheapest, 10.0);
        let plies = strong.depth() as i32 - cheapest.depth() as i32;
        let q = if cheapest.quiescence() {
            1.0
        } else {
            QUIESCENCE_FACTOR
        };
        assert_eq!(
            book.expected(strong),
            Some(10.0 * COLD_FACTOR * PLY_FACTOR.powi(plies) * q)
        );
    }

    #[test]
    fn a_deeper_variant_is_tried_only_with_an_ample_budget() {
        let mut book = CostBook::new();
        // A variant the clock chooses with a stronger one it does not choose after it.
        let order = strength_order();
        let chosen = order
            .iter()
            .copied()
            .filter(|v| v.by_clock())
            .find(|&v| order.iter().any(|&w| !w.by_clock() && weaker(v, w)))
            .expect("a variant kept from the clock is stronger than one it chooses");
        // Not measured: nothing deeper.
        assert!(book.deeper(chosen, 1_000_000).is_none());
        book.record(chosen, 50.0);
        let deeper = book.deeper(chosen, 200).expect("4 times the cost is ample");
        assert!(
            !deeper.by_clock() && weaker(chosen, deeper),
            "{}",
            deeper.name()
        );
        assert!(book.deeper(chosen, 199).is_none());
        // Nothing is stronger than the strongest.
        let strongest = *strength_order().last().unwrap();
        book.record(strongest, 1.0);
        assert!(book.deeper(strongest, 1_000_000).is_none());
    }

    #[test]
    fn the_clock_never_chooses_a_variant_kept_from_it() {
        let mut book = CostBook::default();
        for v in Search::ALL {
            book.record(v, 1.0);
        }
        let chosen = book.choose(1_000_000);
        assert!(chosen.by_clock(), "{}", chosen.name());
        let strongest = strength_order().into_iter().rev().find(|v| v.by_clock());
        assert_eq!(Some(chosen.name()), strongest.map(|v| v.name()));
        assert!(Search::ALL.into_iter().any(|v| !v.by_clock()));
    }

    #[test]
    fn go_depth_picks_the_deepest_variant_within_it() {
        let order = strength_order();
        assert_eq!(for_depth(0), order[0]);
        let deepest = order.iter().map(|v| v.depth()).max().unwrap();
        assert_eq!(for_depth(99).depth(), deepest);
        for v in &order {
            let chosen = for_depth(v.depth());
            assert!(chosen.depth() == v.depth());
            // The strongest of its depth.
            assert!(!weaker(chosen, *v) || chosen == *v);
        }
        assert_eq!(for_depth(2), Search::default_play());
    }

    #[test]
    fn the_hard_limit_is_the_move_time_or_a_few_budgets_within_a_share_of_the_clock() {
        let movetime = Clock {
            movetime: Some(500),
            ..Clock::default()
        };
        assert_eq!(hard_limit(&movetime, Color::White, 30), Some(470));
        assert_eq!(hard_limit(&Clock::default(), Color::White, 30), None);
        // 60 s: a budget of 2,398 ms, cut at three budgets.
        let c = clock(60_030, 60_030, 0, None);
        assert_eq!(budget(&c, Color::White, 30), Some(2_400));
        assert_eq!(hard_limit(&c, Color::White, 30), Some(7_200));
        // One move to go: half the clock as budget, never less.
        let c = clock(2_030, 2_030, 0, Some(1));
        assert_eq!(hard_limit(&c, Color::Black, 30), Some(1_000));
        // A large increment: a quarter of what is left.
        let c = clock(4_030, 4_030, 1_000, None);
        assert_eq!(budget(&c, Color::White, 30), Some(160 + 750));
        assert_eq!(hard_limit(&c, Color::White, 30), Some(1_000));
    }

    #[test]
    fn a_timed_plan_is_cut_at_the_hard_limit_and_an_untimed_one_never() {
        let now = Instant::now();
        let mut go = Go::default();
        go.clock.movetime = Some(1_030);
        let book = CostBook::new();
        let plan = plan(&go, None, Color::White, 30, &book, now);
        assert_eq!(plan.hard, Some(now + Duration::from_millis(1_000)));
        assert_eq!(plan.variant, cheapest());
        assert!(plan.why.starts_with("info string budget 1000 ms: variant "));
        go.depth = Some(2);
        assert!(plan_hard_is_none(&go, &book, now));
        let untimed = Go {
            hold: true,
            ..Go::default()
        };
        let held = super::plan(&untimed, None, Color::White, 30, &book, now);
        assert!(held.hard.is_none());
        assert_eq!(held.first, Some(cheapest()));
    }

    fn plan_hard_is_none(go: &Go, book: &CostBook, now: Instant) -> bool {
        plan(go, None, Color::White, 30, book, now).hard.is_none()
    }
}
