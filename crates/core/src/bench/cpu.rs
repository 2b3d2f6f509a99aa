//! The CPU time of this process, for measurements on a shared machine where wall-clock
//! time says more about the scheduler than about the work (the `scale` and `rope_ab`
//! examples).

/// The CPU time of the process so far (every thread, user and system), in milliseconds.
pub fn process_cpu_ms() -> f64 {
    // SAFETY: getrusage only writes into the zeroed struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
    ms(usage.ru_utime) + ms(usage.ru_stime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_grows_with_work() {
        let before = process_cpu_ms();
        let mut x = 0u64;
        while process_cpu_ms() - before < 5.0 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        assert!(process_cpu_ms() >= before + 5.0, "{x}");
    }
}
