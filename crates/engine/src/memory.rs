//! Handing freed memory back to the system between long stretches of work: between the
//! games of a UCI session and between the positions of `bench`.
//!
//! Contract: [`release_freed`] changes nothing the process can observe but its resident
//! memory; it may be called at any time, from any thread.
//!
//! Trade-off: glibc's allocator keeps the pages of freed blocks (in every thread's arena)
//! for reuse, so a process that builds and drops executors game after game holds the
//! high-water mark of all its games, fragmented, rather than of one. `malloc_trim`
//! returns the free pages of every arena; it costs a walk of the heap (a millisecond or
//! so on this engine's heaps), so it runs where the work pauses anyway, never during a
//! search. Elsewhere (another C library, WebAssembly) it does nothing.

/// Returns the allocator's free pages to the system (glibc's `malloc_trim`); a no-op
/// where the C library has no such call.
pub fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointers and only releases pages the allocator
    // holds free; it is thread-safe (each arena is locked while it is trimmed).
    unsafe {
        libc::malloc_trim(0);
    }
}
