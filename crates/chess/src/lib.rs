//! The chess program, written in the compiler's DSL, and the contracts of the programs
//! built from it.
//!
//! Every chess decision at move time comes from rules: native code builds the input
//! state from its arguments and reads the output state, nothing more.
//!
//! # Programs and their states
//!
//! | program | input state | output state |
//! | --- | --- | --- |
//! | `legal-moves` | a FEN and `\n` | the legal moves in UCI notation, one per line, each ending in `\n`, in any order; empty when there are none |
//! | `move` | a FEN and `\n`, then optionally the rules input below | `move <uci>\nfen <FEN after the move>\nstatus <status>\n` and the search's report (below), or, when the side to move has no legal move, `status checkmate\n` / `status stalemate\n` alone |
//! | `move-q` | as `move` | as `move`, from the `2ply-q` search |
//! | `move-qe` | as `move` | as `move`, from the `2ply-qe` search |
//! | `move-see` | as `move` | as `move`, from the `2ply-see` search |
//! | `move-3qe` | as `move` | as `move`, from the `3ply-qe` search |
//! | `move-3see` | as `move` | as `move`, from the `3ply-see` search |
//! | `move-3seec` | as `move` | as `move`, from the `3ply-see-check` search |
//! | `move-mpv`, `move-q-mpv`, `move-qe-mpv`, `move-see-mpv`, `move-3qe-mpv`, `move-3see-mpv`, `move-3seec-mpv` | as `move` | the output of `move`, `move-q`, `move-qe`, `move-see`, `move-3qe`, `move-3see` or `move-3seec`, then the ranking of the root moves (below) |
//! | `board` | `engine: white` or `engine: black`, a newline, a FEN and `\n` | the first pretty board of a game (see [`pretty`]) |
//! | `play` | the pretty board text the player sees, then the typed line | the next pretty board (see [`pretty`]): the typed move checked and played, the engine's reply (the `2ply` search's, with the game's earlier positions as its rules input, below), or the same position with a message |
//! | `play-q`, `play-qe`, `play-see`, `play-3qe`, `play-3see`, `play-3seec` | as `play` | as `play`, the engine's reply from the `2ply-q`, `2ply-qe`, `2ply-see`, `3ply-qe`, `3ply-see` or `3ply-see-check` search |
//! | `next-positions` | a FEN with white to move, a final `\n` optional (the public "regex-chess" task's input) | the FENs after every legal move (queen promotions only), joined by `\n`, none at the end; empty when there is none or black is to move (see [`crate::programs::next`]) |
//! | `next-positions-full` | a FEN, a final `\n` optional | the same for either side to move, every promotion |
//!
//! `<status>` is the position after the engine's move as the rules judge it: `ongoing`,
//! `checkmate`, `stalemate`, `fifty-move` or `insufficient-material`. FEN is the standard
//! six-field form; promotions in UCI carry a lower-case letter (`e7e8q`).
//!
//! # Rules input (the search programs, and the `play` programs from their board)
//!
//! After the FEN line the search programs read, optionally, the game and a root-move
//! restriction ([`history`]), in this order:
//!
//! - `history <board> <side> <castling> <ep>\n` lines: the first four FEN fields of the
//!   earlier positions of the game, most recent first, those since the last capture or pawn
//!   move only (native code writes the last `min(halfmove clock, 100)`; an en-passant field
//!   as FEN writes it after every two-square push);
//! - one `searchmoves <uci> ...\n` line (moves separated by one space).
//!
//! Positions are equal when their boards, sides to move and castling rights are and neither
//! has a legal en-passant capture (FIDE article 9.2.3; shakmaty's `EnPassantMode::Legal`):
//! an entry where a pawn of the side to move stands beside the pawn that moved two squares
//! (as its en-passant field says) and can take it without leaving its own king attacked
//! equals no position; a capture that is possible by placement but illegal (the pawn
//! pinned, or both pawns leaving the rank where a rook or queen then attacks the king)
//! does not count. The searched positions are compared only when their half-move clock is
//! not 0, so they have no en-passant capture. The 1st, 3rd, 5th ... history lines
//! (at most 50 of them) are the *compared* entries; the 2nd, 4th ... (at most 50) the
//! *engine-side* entries (in a game, the positions with the opponent, respectively the
//! engine, to move).
//!
//! - A child (the position after an engine move) whose half-move clock is not 0 and that
//!   equals a compared entry scores [`weights::MATE`] when it leaves the opponent checkmated,
//!   else 0 (a draw by repetition); its replies are not searched and it counts as one node.
//! - Otherwise, when the child's half-move clock is not 0, its *entries one reply away* are
//!   the first 4 engine-side entries with the other side to move, the same castling rights
//!   and a board equal to the child's but on two squares, one piece standing on one of them
//!   in the child and on the other (empty in the child) in the entry. A position after a
//!   reply where the engine has a legal move, whose half-move clock is not 0 and that equals
//!   one of them scores 0 (one node, no capture search), in place of its score of the
//!   variant.
//! - With a `searchmoves` line, the chosen move is the best legal move it lists (scores and
//!   ties as above); when it lists no legal move, every legal move may be chosen. The report
//!   counts the nodes of every legal move.
//!
//! So the engine does not walk into a repetition (or a reply back to an earlier position)
//! when ahead, and takes one when behind. A search program whose input has no such line
//! searches as the contracts below say.
//!
//! The `play` programs' search gets the same input, made by the rules from the board
//! text's `History:` line ([`history::from_keys`]; the line lists the keys of the positions
//! since the last capture or pawn move, oldest first, the shown one last, see [`pretty`]):
//! every key but the last, most recent first (at most 100), as the history lines above,
//! an entry's en-passant capture being the key's (which is there only when the capture is
//! legal); no `searchmoves`. So the terminal game's engine and the page's see the game
//! since the last capture or pawn move.
//!
//! # The search's report
//!
//! After the `status` line, the `move` program and every variant (see `Search` in `regex-chess-engine`) write
//! four lines, in this order, all computed by the rules:
//!
//! - `score cp <int>`: the chosen move's score below, in centipawns from the engine's
//!   view; or `score mate <n>` when the score is a mate: `mate 1` for [`weights::MATE`] (the
//!   move mates), `mate -1` for `-MATE` (every move allows a mate in one);
//! - `depth <plies>`: the plies searched before the capture search: 2, or 3 for the
//!   `3ply-qe`, `3ply-see` and `3ply-see-check` searches (whose third ply is selective);
//! - `nodes <count>`: the positions the search reached by a move and evaluated: every
//!   position after an engine move, after a reply, and after a move of the capture
//!   search;
//! - `pv <uci> [<uci> [<uci>]]`: the move, then the reply whose score is the move's
//!   score (the first such reply in the rules' generation order), absent when the move
//!   leaves no legal reply; in the three-ply searches, then the third-ply
//!   move whose score is the reply's score (the first such in generation order), absent
//!   when standing pat scores it (standing pat comes first), the reply leaves the engine
//!   no move or (`3ply-see`, `3ply-see-check`) the reply captured nothing on its target
//!   square (and, with the check extension, gave no check).
//!
//! # The ranking of the root moves (`-mpv` programs)
//!
//! After the `pv` line, the `-mpv` programs write one line per root move, for the best
//! [`search::MULTIPV_MAX`] (5) of them, or all of them when there are fewer:
//!
//! `multipv <rank> score <score> pv <uci> [<reply>]`
//!
//! ranked as the search chooses its move: by the move's score (the score of the search
//! without `-mpv`, every root move scored as the chosen one is), higher first, ties to
//! the smaller UCI text; `<score>` as on the `score` line, `<reply>` as on the `pv` line
//! (the first reply in the rules' generation order whose score is the move's score;
//! absent when the move leaves no legal reply). Rank 1 is the move played, with the
//! `score` and `pv` lines' values. Nothing is written when the side to move has no move.
//!
//! # The search (`move`, variant `2ply`)
//!
//! The engine (the side to move in the input) plays the legal move with the best score
//! under a 2-ply minimax over legal moves, scored by [`weights`] from the engine's view:
//! - after an engine move that leaves the opponent no legal reply: [`weights::MATE`] if the
//!   opponent is in check, else 0 (stalemate);
//! - otherwise the minimum, over the opponent's legal replies, of: `-MATE` if the reply
//!   leaves the engine checkmated, 0 if it leaves the engine stalemated, else the
//!   material-plus-table score of the position after the reply;
//! - ties go to the move whose UCI text is smallest in byte order.
//!
//! # The `2ply-q` search (`move-q`)
//!
//! The 2-ply search above, except for the score of a position after a reply that
//! captured a piece standing on its target square (en passant does not count) and that
//! leaves the engine a legal move: the larger of the material-plus-table score of that
//! position (standing pat) and the material-plus-table score after each of the engine's
//! legal captures (en passant included) and promotions (quiet ones included) there. No
//! mate, stalemate or reply is looked at below that capture. Every other leaf, mates,
//! stalemates and ties are scored as in the 2-ply search. (A capture search below every
//! leaf was measured at 4 times the time and 5 times the state; after a capture the
//! engine's recapture is what the 2-ply search missed most.)
//!
//! # The `2ply-qe` search (`move-qe`)
//!
//! The `2ply-q` search, except that every leaf where the engine has a legal move (the
//! position after a reply, scored by material and tables, or by the capture search) adds
//! the endgame term `E` of that position (after the reply; not of the positions of the
//! capture search below it), from the engine's view. Mates, stalemates and ties are
//! scored as in the 2-ply search. `E` (see [`endgame`]):
//!
//! - when one side, the defender, has only its king, and the other, the attacker, has at
//!   least one knight, bishop, rook or queen (pawns or not): for the attacker,
//!   `25 × (c(file_d) + c(rank_d)) + 10 × (7 − |file_d − file_a|) + 10 × (7 − |rank_d −
//!   rank_a|) + 30 − K(a)` cp, where `d` is the defender's king, `a` the attacker's,
//!   files and ranks count 0..7, `c(x) = 3 − x` for `x ≤ 3`, else `x − 4` (the centre
//!   distance: 0 on d4, e4, d5, e5, 6 in a corner) and `K(a)` is the king's table entry
//!   of the attacker's king from its side's view ([`weights`]; 30 is the table's largest
//!   entry: this cancels the middlegame table that would hold the attacking king at
//!   home); and when, moreover, the attacker has exactly one rook (whatever else it
//!   has), plus the rook's box `10 × (8 − s(file_d,
//!   file_r)) + 10 × (8 − s(rank_d, rank_r))` cp, where `r` is the rook and `s(x, y)`
//!   counts the lines on the defender's side of the rook's line: `y` when `x < y`,
//!   `7 − y` when `x > y`, 8 when `x = y` (the rook cuts nothing off on that axis), plus
//!   the opposition: 60 cp when `d` stands on rank 1 or 8 and `a` on its file two ranks
//!   away (`|rank_d − rank_a| = 2`, `file_d = file_a`) or `d` on file a or h and `a` on
//!   its rank two files away, 30 cp when `a` stands so but one file (rank) aside (a
//!   knight's move from the opposition: `|file_d − file_a| = 1` and `|rank_d − rank_a| =
//!   2` with `d` on rank 1 or 8, or the same with files and ranks swapped with `d` on
//!   file a or h), else 0; for the defender, its negation;
//! - on any other board, 0.
//!
//! `E` is at most 370 cp, or 570 cp with a single rook, and never negative for the
//! attacker, so losing its last piece (bare kings: `E` = 0) never pays; the only shares
//! that come or go as men are taken, the rook's box and the opposition, are at most
//! 140 + 60 = 200 cp together, less than any piece (a knight, 320 cp, the least). So
//! `E` drives the lone king to the edge, confines it with a single rook, brings the
//! attacking king towards it and, with the rook, into opposition across the edge
//! without buying material. Pawns change none of it, so giving one up buys nothing,
//! and the only promotion that can end the box and the opposition, to a second rook,
//! gains 400 cp for their 200. (Before issue 41 a board where the attacker had a pawn had
//! no term, so a pawn stood in the way of the term, and the box needed the rook alone:
//! king, rook, bishop and pawn against king was drawn by the fifty-move rule.)
//!
//! # The `2ply-see` search (`move-see`)
//!
//! The 2-ply search, scored by material and PeSTO's tapered tables blended once per
//! search at the root's phase bucket plus `E` (both exactly as in the `3ply-qe` search
//! below, `E`'s king share included), with a capture search below every leaf and a
//! recapture discount in it:
//!
//! - an engine move that leaves the opponent no legal reply: `MATE` in check, else 0;
//! - otherwise the minimum, over the opponent's legal replies, of: `-MATE` if the reply
//!   leaves the engine checkmated, 0 if it leaves the engine stalemated, else the leaf's
//!   score below;
//! - a leaf (the position after a reply, the engine to move with a legal move) scores
//!   its material-plus-table score plus `E` (standing pat), plus the largest of 0 and
//!   the gain of each of the engine's legal captures (en passant included) and
//!   promotions (quiet ones included) there, whatever the reply was. A capture's gain is
//!   its gain in the tables (what the arriving piece is worth on its target less what
//!   the mover was worth on its origin, plus the captured piece's worth); when the
//!   opponent attacks the target square on the board after the capture (a piece of
//!   the opponent's that could move there by its lines of movement: pawn diagonals,
//!   knight jumps, king steps, and rook, bishop or queen lines with every square between
//!   empty; pins and checks aside), the arriving (or promoted) piece's worth on its
//!   target is taken off: the mover is counted lost, so a capture that the opponent can
//!   answer on the same square gains what it took less what the mover was worth on its
//!   origin;
//! - ties go to the move whose UCI text is smallest in byte order.
//!
//! No mate, stalemate or reply is looked at below a leaf's captures. `nodes` counts
//! every position after an engine move, after a reply and after a move of the capture
//! search. Screened by the oracles first (docs/strength.md): the discount alone is
//! worth about 24 points in a hundred against Stockfish at skill 0 (38% without it), the
//! capture search below every leaf rather than after a capturing reply about 12 (51%
//! without it); the 2-ply search with both scores about 63%, more than `3ply-qe`.
//!
//! # The `3ply-qe` search (`move-3qe`)
//!
//! Three plies, the third selective, scored by material and tables plus `E`, from the
//! engine's view, where the tables are PeSTO's tapered ones ([`pesto`]: Ronald
//! Friederich's middlegame and endgame values and piece-square tables) blended once per
//! search at the root's game phase: the phase `P` of the root position counts knights
//! and bishops 1, rooks 2 and queens 4 of both sides, capped at 24; the search blends at
//! `p = 5·min(⌊P/5⌋, 4) + 2` (the middle of its bucket: 2, 7, 12, 17 or 22), every
//! piece's entry being `(mg·p + eg·(24 − p)) / 24` rounded to the nearest multiple of 5
//! cp (halves up), `mg` and `eg` its value plus its square's entry in either table (a
//! black piece reads its square mirrored across the board's middle rank). In `E` the
//! attacking king's share is the largest entry less its own of the tapered king's table
//! at `p = 2` (the endgame table, where the lone-king endings are). The 2-ply variants
//! keep the tables of [`weights`]; one blend per search keeps a move's gain a table lookup
//! (the rules read the bucket as one more character of its key), and a search of three
//! plies seldom crosses a bucket. A mate given on ply `p` (1, 2 or 3) scores `MATE − 5·(p − 1)` for the
//! side giving it (`score mate 1` on ply 1, `mate -1` on ply 2, `mate 2` on ply 3), so a
//! shorter mate scores higher and a longer loss less low; a stalemate on any ply scores
//! 0. The engine plays the legal move with the best score; ties go to the move whose UCI
//! text is smallest in byte order.
//!
//! - An engine move that leaves the opponent no legal reply: `MATE` in check, else 0.
//! - Otherwise the minimum, over the opponent's legal replies, of the reply's score.
//! - A reply that leaves the engine no legal move: `−(MATE − 5)` in check, else 0.
//! - Otherwise standing pat: the material-plus-table score plus `E` of the position
//!   after the reply; and when the reply captured a piece standing on its target square
//!   (en passant does not count), the maximum of standing pat and the score of each of
//!   the engine's legal captures (en passant included) and promotions (quiet ones
//!   included) there (the third ply; no quiet move, no castling).
//! - A third-ply move that leaves the opponent no legal move: `MATE − 10` in check, else
//!   0. Otherwise `E` of the position after it plus the minimum of its
//!   material-plus-table score (standing pat) and the material-plus-table score after
//!   each of the opponent's legal captures (en passant included) and promotions there.
//!   No mate, stalemate or move is looked at below that capture.
//!
//! `nodes` counts every position after an engine move, a reply, a third-ply move and a
//! move of the capture search below it. Two wider third plies were measured first (see
//! PERF.md): every legal move (the start position alone 10 s a move, a 54 MB state, 2
//! GB of peak RSS on the bench suite) and the captures and promotions after every reply
//! (kiwipete 26 s and a 142 MB state); after a capturing reply only, the third ply is
//! where the 2-ply searches erred most: the engine's recapture, now answered.
//!
//! # The `3ply-see` search (`move-3see`)
//!
//! The `3ply-qe` search (tables, `E`, mates on each ply, stalemates, ties), with two
//! changes:
//!
//! - after a reply that captured nothing on its target square (or en passant) and that
//!   leaves the engine a legal move, the leaf of the `2ply-see` search instead of
//!   standing pat: the material-plus-table score plus `E` of the position after the
//!   reply, plus the largest of 0 and the gain of each of the engine's legal captures
//!   (en passant included) and promotions (quiet ones included) there, with the
//!   recapture discount of the `2ply-see` search (the arriving piece's worth on its
//!   target taken off when the opponent then attacks that square); no mate, stalemate
//!   or reply looked at below them;
//! - below a third-ply move, each of the opponent's legal captures and promotions
//!   scores the material-plus-table score after it, plus, when the engine then attacks
//!   its target square (lines of movement as in the `2ply-see` search, pins and checks
//!   aside), the opponent's arriving (or promoted) piece's worth there (counted lost).
//!
//! A reply that captured on its target square still leads to the third ply of the
//! engine's captures and promotions (whose own gains are not discounted: each is
//! answered by the opponent's captures). `nodes` counts every position after an engine
//! move, a reply, a third-ply move, and a move of the capture searches below a
//! third-ply move or a reply. Screened by the search lab as `3ply-qe,disc,q2`
//! (docs/strength.md): about 75% against Stockfish at skill 0, where `2ply-see` scores
//! about 66% and `3ply-qe` about 46%.
//!
//! # The `3ply-see-check` search (`move-3seec`)
//!
//! The `3ply-see` search with the check extension:
//!
//! - a reply that leaves the engine in check with a legal move (and, with the rules
//!   input, repeats no position of the game: that scores 0 as before) is scored as the
//!   maximum, over every legal move of the engine there, of the third-ply move's score,
//!   without standing pat (whatever the reply captured);
//! - a third-ply move that leaves the opponent in check with a legal move scores the
//!   minimum, over every legal move of the opponent there (a fourth ply), of:
//!   `−(MATE − 15)` if it leaves the engine checkmated, 0 if stalemated, else the
//!   material-plus-table score plus `E` of the position after it; no standing pat, no
//!   capture search below.
//!
//! Every other score is `3ply-see`'s. `depth` is 3; `nodes` also counts the evasions of
//! the fourth ply; the `pv` names the third-ply move as in `3ply-see` (none after a
//! reply that captured nothing and gave no check). Screened by the search lab as
//! `3ply-qe,disc,check,q2`: about 79% against Stockfish at skill 0 and 55% against its
//! `UCI_Elo` 1350 at 100 ms a move (docs/strength.md).

pub mod board;
pub mod endgame;
pub mod evaluate;
pub mod fen_rules;
pub mod fragments;
pub mod game_end;
pub mod history;
pub mod movegen;
pub mod notation;
pub mod pesto;
pub mod positions;
pub mod pretty;
pub mod programs;
pub mod report;
pub mod san;
pub mod search;
pub mod stack_rules;
pub mod weights;
