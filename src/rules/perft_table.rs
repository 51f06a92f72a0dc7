//! A transposition table for deep perft (`seams perft --hash MIB`).
//!
//! Deep in the tree many positions are reached again by another order of
//! the same actions (two moves of each player already make four orders),
//! and the count below a position depends only on the position and the
//! depth left. The table remembers that count, so each such subtree is
//! counted once. It never changes a count; it only saves time.
//!
//! A position is known by a 128-bit FNV-1a digest of its text (which holds
//! everything the rules read; see [`Rules::format_position`]) and the depth.
//! Two different positions sharing a digest would make a count wrong; with
//! `n` stored positions the chance is about n² / 2¹²⁹, below 10⁻²¹ for the
//! 10⁸ positions a 4 GiB table holds. Only nodes with two or more plies
//! left are stored: below that a count costs less than its key.
//!
//! The table is shared by the threads of one count: it is split into
//! stripes, each behind its own lock, chosen by the digest. When it is full
//! it stops taking new entries, so its memory stays within the bound.
//!
//! [`Rules::format_position`]: super::Rules::format_position

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The largest table `--hash` accepts, in MiB (64 GiB).
pub const MAX_TABLE_MIB: usize = 1 << 16;

/// Bytes one stored entry costs: a 16-byte digest and an 8-byte count,
/// padded to 32 for the digest's alignment, plus the map's control byte
/// and spare room.
const ENTRY_BYTES: usize = 40;

/// Locks of one table: enough that two to a few dozen threads seldom wait
/// on each other.
const STRIPES: usize = 64;

/// Counts below positions, by digest of (position text, depth left).
pub struct PerftTable {
    stripes: Vec<Mutex<HashMap<u128, u64>>>,
    /// Entries the table may hold in all.
    capacity: usize,
    len: AtomicUsize,
    hits: AtomicUsize,
}

impl PerftTable {
    /// A table of at most `mib` MiB (clamped to [`MAX_TABLE_MIB`]).
    pub fn with_mib(mib: usize) -> PerftTable {
        let capacity = mib.min(MAX_TABLE_MIB) * (1 << 20) / ENTRY_BYTES;
        PerftTable {
            stripes: (0..STRIPES).map(|_| Mutex::new(HashMap::new())).collect(),
            capacity,
            len: AtomicUsize::new(0),
            hits: AtomicUsize::new(0),
        }
    }

    /// The key of `position` (its text) with `depth` plies left.
    pub fn key(position: &str, depth: u32) -> u128 {
        let h = fnv1a_128(OFFSET, position.as_bytes());
        fnv1a_128(h, &depth.to_le_bytes())
    }

    fn stripe(&self, key: u128) -> &Mutex<HashMap<u128, u64>> {
        &self.stripes[(key % STRIPES as u128) as usize]
    }

    /// The count stored for `key`, if any.
    pub fn get(&self, key: u128) -> Option<u64> {
        let found = self.lock(key).get(&key).copied();
        if found.is_some() {
            self.hits.fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    /// Stores the count for `key`, unless the table is full.
    pub fn put(&self, key: u128, count: u64) {
        if self.len.load(Ordering::Relaxed) >= self.capacity {
            return;
        }
        if self.lock(key).insert(key, count).is_none() {
            self.len.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn lock(&self, key: u128) -> std::sync::MutexGuard<'_, HashMap<u128, u64>> {
        // A poisoned stripe means a thread panicked mid-insert of a plain
        // map entry; its contents are still whole counts.
        self.stripe(key)
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How many counts the table holds.
    pub fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many lookups found a count.
    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::Relaxed)
    }
}

const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

/// 128-bit FNV-1a of `bytes`, continuing from `h` (start from `OFFSET`).
fn fnv1a_128(h: u128, bytes: &[u8]) -> u128 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u128::from(b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_fnv1a_128() {
        // The published FNV-1a 128-bit test vectors.
        assert_eq!(fnv1a_128(OFFSET, b""), OFFSET);
        assert_eq!(
            fnv1a_128(OFFSET, b"a"),
            0xd228_cb69_6f1a_8caf_7891_2b70_4e4a_8964
        );
        assert_eq!(
            fnv1a_128(OFFSET, b"foobar"),
            0x343e_1662_793c_64bf_6f0d_3597_ba44_6f18
        );
    }

    #[test]
    fn the_depth_is_part_of_the_key() {
        assert_ne!(PerftTable::key("x w", 2), PerftTable::key("x w", 3));
        assert_ne!(PerftTable::key("x w", 2), PerftTable::key("x b", 2));
    }

    #[test]
    fn a_full_table_takes_no_more() {
        let t = PerftTable::with_mib(1);
        let cap = (1 << 20) / ENTRY_BYTES;
        for k in 0..cap as u128 + 10 {
            t.put(k, 7);
        }
        assert_eq!(t.len(), cap);
        assert_eq!(t.get(0), Some(7));
        assert_eq!(t.get(cap as u128 + 5), None);
        assert_eq!(t.hits(), 1);
        // Storing a key again does not count it twice.
        let t = PerftTable::with_mib(1);
        t.put(3, 1);
        t.put(3, 1);
        assert_eq!(t.len(), 1);
        assert!(PerftTable::with_mib(0).is_empty());
    }
}
