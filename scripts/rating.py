"""A rating on a known scale from a gauntlet of recorded matches.

Usage: python3 scripts/rating.py MATCHES.jsonl --search NAME --anchor ELO:TEXT [--anchor ...]

Reads the match lines `regex-chess match --results FILE` appends (one JSON object a
line), keeps those of the search variant NAME whose opponent contains one anchor's TEXT,
and gives each such opponent the anchor's rating ELO (for instance `1320:"Skill Level=0"`
for Stockfish at Skill Level 0 and depth 1, which Stockfish's own calibration puts at
about 1320 on the CCRL Blitz scale). The opponent is named with its limit as the charts
name it: a line that records the limit (`opponent_depth`, `opponent_movetime_ms`, which
`match --results` writes since the xboard opponents came) reads `NAME, depth N` or
`NAME, MS ms`; an older line's opponent names its limit itself, written by hand. It prints each match's performance and the rating
that makes the expected score over all games equal the score made (the maximum of the
logistic model's likelihood, draws counted as half a point), with a 95% interval from
the spread of the game results (the sandwich estimate: the games' variance over the
model's slope).
"""

import argparse
import json
import math

SLOPE = math.log(10) / 400


def expected(rating, opponent):
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def opponent_label(row):
    """The opponent with its recorded limit, as `MatchLine::opponent_label` writes it."""
    if row.get("opponent_depth") is not None:
        return f"{row['opponent']}, depth {row['opponent_depth']}"
    if row.get("opponent_movetime_ms") is not None:
        return f"{row['opponent']}, {row['opponent_movetime_ms']} ms"
    return row["opponent"]


def fit(matches):
    """The rating whose expected total equals the total scored, by bisection."""
    scored = sum(m["points"] for m in matches)
    low, high = -1000.0, 4000.0
    for _ in range(100):
        mid = (low + high) / 2
        total = sum(m["games"] * expected(mid, m["anchor"]) for m in matches)
        low, high = (mid, high) if total < scored else (low, mid)
    return (low + high) / 2


def interval(rating, matches):
    """The 95% interval: the variance of the games' points over the slope of the total."""
    variance = 0.0
    slope = 0.0
    for m in matches:
        mean = m["points"] / m["games"]
        spread = (m["wins"] * (1 - mean) ** 2 + m["draws"] * (0.5 - mean) ** 2
                  + m["losses"] * mean ** 2)
        variance += spread
        p = expected(rating, m["anchor"])
        slope += m["games"] * p * (1 - p) * SLOPE
    half = 1.96 * math.sqrt(variance) / slope
    return rating - half, rating + half


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("matches")
    parser.add_argument("--search", required=True)
    parser.add_argument("--anchor", action="append", required=True,
                        help="ELO:TEXT, the rating of every opponent whose name contains TEXT")
    args = parser.parse_args()
    anchors = []
    for anchor in args.anchor:
        elo, _, text = anchor.partition(":")
        anchors.append((float(elo), text))
    matches = []
    with open(args.matches) as f:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("search") != args.search:
                continue
            label = opponent_label(row)
            found = [elo for elo, text in anchors if text in label]
            if not found:
                continue
            row["anchor"] = found[0]
            row["points"] = row["wins"] + row["draws"] / 2
            matches.append(row)
            score = row["points"] / row["games"]
            print(f"{label} ({found[0]:.0f}): {row['games']} games, "
                  f"+{row['wins']} ={row['draws']} -{row['losses']}, {score:.1%}, "
                  f"performance {fit([row]):.0f}")
    if not matches:
        raise SystemExit(f"no match of `{args.search}` against an anchored opponent")
    rating = fit(matches)
    low, high = interval(rating, matches)
    games = sum(m["games"] for m in matches)
    print(f"rating {rating:.0f} (95%: {low:.0f} to {high:.0f}) over {games} games")


if __name__ == "__main__":
    main()
