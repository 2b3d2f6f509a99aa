//! A deliberately naive Banqi: a 4 x 8 array of characters, loops over squares and
//! directions, no bitboards, no tables, nothing shared with the crate but the text of
//! positions and moves. It reads and writes the position string itself, generates moves
//! and plays them, so the tests compare the crate against it rather than against itself.

// It spells the rules out case by case on purpose, so some lints of style are off.
#![allow(
    dead_code,
    clippy::if_same_then_else,
    clippy::collapsible_if,
    clippy::manual_ignore_case_cmp
)]

use std::collections::BTreeMap;

/// A naive state: `board[rank][file]`, `'.'` empty, `'X'` face-down, else a piece letter.
#[derive(Clone, Debug, PartialEq)]
pub struct Naive {
    pub board: [[char; 8]; 4],
    pub turn: char,
    pub pool: BTreeMap<char, u32>,
    pub clock: u32,
    pub movenum: u32,
}

const ORDER: &str = "GAERHCSgaerhcs";

impl Naive {
    pub fn parse(text: &str) -> Naive {
        let fields: Vec<&str> = text.split(' ').collect();
        assert_eq!(fields.len(), 5, "{text}");
        let mut board = [['.'; 8]; 4];
        for (i, rank) in fields[0].split('/').enumerate() {
            let mut file = 0;
            for c in rank.chars() {
                if let Some(n) = c.to_digit(10) {
                    file += n as usize;
                } else {
                    board[3 - i][file] = c;
                    file += 1;
                }
            }
        }
        let mut pool = BTreeMap::new();
        if fields[2] != "-" {
            let chars: Vec<char> = fields[2].chars().collect();
            for pair in chars.chunks(2) {
                pool.insert(pair[0], pair[1].to_digit(10).unwrap());
            }
        }
        Naive {
            board,
            turn: fields[1].chars().next().unwrap(),
            pool,
            clock: fields[3].parse().unwrap(),
            movenum: fields[4].parse().unwrap(),
        }
    }

    pub fn text(&self) -> String {
        let mut ranks = Vec::new();
        for rank in (0..4).rev() {
            let mut s = String::new();
            let mut run = 0;
            for file in 0..8 {
                let c = self.board[rank][file];
                if c == '.' {
                    run += 1;
                } else {
                    if run > 0 {
                        s += &run.to_string();
                    }
                    run = 0;
                    s.push(c);
                }
            }
            if run > 0 {
                s += &run.to_string();
            }
            ranks.push(s);
        }
        let mut pool = String::new();
        for c in ORDER.chars() {
            if let Some(&n) = self.pool.get(&c) {
                if n > 0 {
                    pool += &format!("{c}{n}");
                }
            }
        }
        if pool.is_empty() {
            pool.push('-');
        }
        format!(
            "{} {} {} {} {}",
            ranks.join("/"),
            self.turn,
            pool,
            self.clock,
            self.movenum
        )
    }

    fn owner(c: char) -> Option<char> {
        if c == '.' || c == 'X' {
            None
        } else if c.is_ascii_uppercase() {
            Some('r')
        } else {
            Some('b')
        }
    }

    fn rank_of(c: char) -> u32 {
        match c.to_ascii_uppercase() {
            'G' => 6,
            'A' => 5,
            'E' => 4,
            'R' => 3,
            'H' => 2,
            'S' => 1,
            _ => 0,
        }
    }

    /// Whether a (non-cannon) piece `a` captures `t` by stepping, by the rules' words.
    pub fn steps_onto(a: char, t: char) -> bool {
        let (a, t) = (a.to_ascii_uppercase(), t.to_ascii_uppercase());
        if a == 'C' {
            return false;
        }
        if t == 'C' {
            return a != 'S';
        }
        if a == 'S' && t == 'G' {
            return true;
        }
        if a == 'G' && t == 'S' {
            return false;
        }
        Naive::rank_of(a) >= Naive::rank_of(t)
    }

    fn name(file: usize, rank: usize) -> String {
        format!("{}{}", (b'a' + file as u8) as char, rank)
    }

    /// Every legal move as text, sorted.
    pub fn moves(&self) -> Vec<String> {
        let mut out = Vec::new();
        for rank in 0..4 {
            for file in 0..8 {
                if self.board[rank][file] == 'X' {
                    out.push(format!(
                        "{}{}",
                        Naive::name(file, rank),
                        Naive::name(file, rank)
                    ));
                }
            }
        }
        if self.turn == '-' {
            out.sort();
            return out;
        }
        let dirs: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        for rank in 0..4 {
            for file in 0..8 {
                let c = self.board[rank][file];
                if Naive::owner(c) != Some(self.turn) {
                    continue;
                }
                for (df, dr) in dirs {
                    let (f, r) = (file as i32 + df, rank as i32 + dr);
                    if !(0..8).contains(&f) || !(0..4).contains(&r) {
                        continue;
                    }
                    let t = self.board[r as usize][f as usize];
                    let from = Naive::name(file, rank);
                    let to = Naive::name(f as usize, r as usize);
                    if t == '.' {
                        out.push(format!("{from}{to}"));
                    } else if Naive::owner(t).is_some_and(|o| o != self.turn)
                        && Naive::steps_onto(c, t)
                    {
                        out.push(format!("{from}{to}"));
                    }
                    if c.to_ascii_uppercase() == 'C' {
                        // walk: the first occupied square is the screen, the next one the target
                        let (mut f, mut r) = (file as i32, rank as i32);
                        let mut seen = 0;
                        loop {
                            f += df;
                            r += dr;
                            if !(0..8).contains(&f) || !(0..4).contains(&r) {
                                break;
                            }
                            let t = self.board[r as usize][f as usize];
                            if t == '.' {
                                continue;
                            }
                            seen += 1;
                            if seen == 2 {
                                if Naive::owner(t).is_some_and(|o| o != self.turn) {
                                    out.push(format!(
                                        "{from}{}",
                                        Naive::name(f as usize, r as usize)
                                    ));
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// The pieces a flip can reveal, in the pool's order, with their counts.
    pub fn outcomes(&self) -> Vec<(char, u32)> {
        ORDER
            .chars()
            .filter_map(|c| self.pool.get(&c).filter(|&&n| n > 0).map(|&n| (c, n)))
            .collect()
    }

    /// Plays `mv` (text), `revealed` the piece a flip shows.
    pub fn play(&mut self, mv: &str, revealed: Option<char>) {
        let b = mv.as_bytes();
        let (ff, fr) = ((b[0] - b'a') as usize, (b[1] - b'0') as usize);
        let (tf, tr) = ((b[2] - b'a') as usize, (b[3] - b'0') as usize);
        let mover;
        if (ff, fr) == (tf, tr) {
            let p = revealed.unwrap();
            *self.pool.get_mut(&p).unwrap() -= 1;
            self.board[fr][ff] = p;
            self.clock = 0;
            mover = if self.turn == '-' {
                Naive::owner(p).unwrap()
            } else {
                self.turn
            };
        } else {
            let p = self.board[fr][ff];
            if self.board[tr][tf] == '.' {
                self.clock += 1;
            } else {
                self.clock = 0;
            }
            self.board[tr][tf] = p;
            self.board[fr][ff] = '.';
            mover = self.turn;
        }
        if mover == 'b' {
            self.movenum += 1;
        }
        self.turn = if mover == 'r' { 'b' } else { 'r' };
    }

    /// Perft, a flip counted once per kind of piece it can reveal.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        for mv in self.moves() {
            let flip = mv[..2] == mv[2..];
            let outcomes: Vec<Option<char>> = if flip {
                self.outcomes().into_iter().map(|(c, _)| Some(c)).collect()
            } else {
                vec![None]
            };
            for revealed in outcomes {
                let mut next = self.clone();
                next.play(&mv, revealed);
                total += next.perft(depth - 1);
            }
        }
        total
    }
}

/// A small seeded generator for the tests (not the crate's).
pub struct TestRng(pub u64);

impl TestRng {
    pub fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A piece from the pool, weighted by count.
    pub fn pick_from_pool(&mut self, naive: &Naive) -> char {
        let outcomes = naive.outcomes();
        let total: u32 = outcomes.iter().map(|o| o.1).sum();
        let mut pick = self.below(total as usize) as u32;
        for (c, n) in outcomes {
            if pick < n {
                return c;
            }
            pick -= n;
        }
        unreachable!()
    }
}

/// A random possible position: some of the 32 pieces gone, some face-down, some
/// revealed, at random squares, a side to move (a flip has happened).
pub fn random_position(rng: &mut TestRng) -> Naive {
    let mut pieces: Vec<char> = Vec::new();
    for (c, n) in "GAERHCSgaerhcs"
        .chars()
        .zip([1, 2, 2, 2, 2, 2, 5, 1, 2, 2, 2, 2, 2, 5])
    {
        for _ in 0..n {
            pieces.push(c);
        }
    }
    let keep = 1 + rng.below(32);
    for i in (1..pieces.len()).rev() {
        let j = rng.below(i + 1);
        pieces.swap(i, j);
    }
    pieces.truncate(keep);
    let mut squares: Vec<usize> = (0..32).collect();
    for i in (1..32).rev() {
        let j = rng.below(i + 1);
        squares.swap(i, j);
    }
    let hidden_share = rng.below(4); // 0: none face-down .. 3: most
    let mut naive = Naive {
        board: [['.'; 8]; 4],
        turn: if rng.below(2) == 0 { 'r' } else { 'b' },
        pool: BTreeMap::new(),
        clock: rng.below(30) as u32,
        movenum: 1 + rng.below(100) as u32,
    };
    for (i, &p) in pieces.iter().enumerate() {
        let s = squares[i];
        let hide = i > 0 && rng.below(4) < hidden_share;
        if hide {
            naive.board[s / 8][s % 8] = 'X';
            *naive.pool.entry(p).or_insert(0) += 1;
        } else {
            naive.board[s / 8][s % 8] = p;
        }
    }
    naive
}
