//! The CPU time of this process, or of the calling thread, for measurements on a shared
//! machine where wall-clock time says more about the scheduler than about the work (the
//! `scale` and `rope_ab` examples, the match's time per move).

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

/// The CPU time of the calling thread so far (user and system), in milliseconds; 0 where
/// the system has no such clock.
pub fn thread_cpu_ms() -> f64 {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes into the struct it is given.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    if status != 0 {
        return 0.0;
    }
    time.tv_sec as f64 * 1e3 + time.tv_nsec as f64 / 1e6
}

/// The medians of `runs` runs of `exec` on `input` (at least one): wall-clock and the
/// calling thread's CPU milliseconds. On one core the rules run on the calling thread, so
/// its CPU time is the run's, and a shared machine's wait for a core is not counted.
pub fn median_times(
    exec: &dyn regex_chess_machine::exec::Executor,
    input: &str,
    runs: usize,
) -> (f64, f64) {
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        let (start, cpu_start) = (std::time::Instant::now(), thread_cpu_ms());
        drop(exec.run(input));
        cpu.push(thread_cpu_ms() - cpu_start);
        wall.push(start.elapsed().as_secs_f64() * 1e3);
    }
    wall.sort_by(f64::total_cmp);
    cpu.sort_by(f64::total_cmp);
    (super::median(&wall), super::median(&cpu))
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

    #[test]
    fn thread_cpu_time_grows_with_this_thread_s_work_only() {
        let before = thread_cpu_ms();
        // Another thread's work is not this thread's.
        std::thread::spawn(|| {
            let start = thread_cpu_ms();
            let mut x = 0u64;
            while thread_cpu_ms() - start < 20.0 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            x
        })
        .join()
        .unwrap();
        assert!(thread_cpu_ms() - before < 20.0);
        let mut x = 0u64;
        while thread_cpu_ms() - before < 5.0 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        assert!(thread_cpu_ms() >= before + 5.0, "{x}");
    }
}
