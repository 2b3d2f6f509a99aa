//! The unit tests of `clock`.

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
    assert_eq!(for_depth(3), Search::default_play());
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
