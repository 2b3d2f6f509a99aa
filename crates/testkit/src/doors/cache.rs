//! Damage to the program cache's files from random bytes: bits flipped, bytes cut off,
//! padded or overwritten, a header line changed, another program's file or the parses of
//! another program put in place, an empty file, a directory where the file should be.
//! The contract (`crates/engine/src/cache.rs`) says a load then gives the program
//! its compiler gives, with a warning, and writes the file again whole; never another
//! program. A checksum detects accidents, not forgery, so no damage here writes a
//! checksum of its own.

use std::path::Path;

use super::Bytes;

/// One way to damage a file's bytes.
#[derive(Clone, Debug)]
pub enum Damage {
    /// Flip bit `bit` of byte `at` (taken modulo the length).
    Flip { at: usize, bit: u8 },
    /// Keep the first `keep` bytes (modulo the length).
    Truncate { keep: usize },
    /// Append bytes.
    Pad(Vec<u8>),
    /// Overwrite bytes from `at` (modulo the length).
    Overwrite { at: usize, with: Vec<u8> },
    /// Replace header line `line` (0: magic, 1: key, 2: length, 3: checksum) by `with`.
    Header { line: usize, with: Vec<u8> },
    /// The whole file replaced by another file's bytes (another program, or the parses
    /// file in the program's place).
    Swap,
    /// An empty file.
    Empty,
}

/// Up to four damages from `bytes` (none at all now and then: an intact file must load
/// from the cache).
pub fn damages(bytes: &mut Bytes<'_>) -> Vec<Damage> {
    (0..bytes.below(5))
        .map(|_| match bytes.below(7) {
            0 => Damage::Flip {
                at: bytes.below(1 << 16),
                bit: bytes.byte() % 8,
            },
            1 => Damage::Truncate {
                keep: bytes.below(1 << 16),
            },
            2 => Damage::Pad(bytes.raw(16)),
            3 => Damage::Overwrite {
                at: bytes.below(1 << 16),
                with: bytes.raw(8),
            },
            4 => Damage::Header {
                line: bytes.below(4),
                with: bytes.raw(20),
            },
            5 => Damage::Swap,
            _ => Damage::Empty,
        })
        .collect()
}

/// `good` damaged by `damage`; `other` is the file a [`Damage::Swap`] puts in place.
pub fn apply(good: &[u8], other: &[u8], damage: &[Damage]) -> Vec<u8> {
    let mut bytes = good.to_vec();
    for d in damage {
        let len = bytes.len().max(1);
        match d {
            Damage::Flip { at, bit } => {
                if let Some(b) = bytes.get_mut(at % len) {
                    *b ^= 1 << bit;
                }
            }
            Damage::Truncate { keep } => bytes.truncate(keep % len),
            Damage::Pad(more) => bytes.extend_from_slice(more),
            Damage::Overwrite { at, with } => {
                for (i, b) in with.iter().enumerate() {
                    if let Some(slot) = bytes.get_mut((at + i) % len) {
                        *slot = *b;
                    }
                }
            }
            Damage::Header { line, with } => {
                let starts: Vec<usize> = std::iter::once(0)
                    .chain(
                        bytes
                            .iter()
                            .enumerate()
                            .filter(|(_, b)| **b == b'\n')
                            .map(|(i, _)| i + 1),
                    )
                    .collect();
                if let (Some(&from), Some(&to)) = (starts.get(*line), starts.get(line + 1)) {
                    let mut with: Vec<u8> = with.iter().copied().filter(|b| *b != b'\n').collect();
                    with.push(b'\n');
                    bytes.splice(from..to, with);
                }
            }
            Damage::Swap => bytes = other.to_vec(),
            Damage::Empty => bytes.clear(),
        }
    }
    bytes
}

/// The files of `dir`, sorted: (name, bytes), directories as `None`.
pub fn files(dir: &Path) -> Vec<(String, Option<Vec<u8>>)> {
    let mut out: Vec<(String, Option<Vec<u8>>)> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let bytes = std::fs::read(e.path()).ok();
                    (name, bytes)
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}
