//! The module's interface to JavaScript: plain functions over the linear memory.
//!
//! Strings cross as UTF-8 bytes. JavaScript asks for a buffer ([`rc_alloc`]), writes the
//! bytes into it, passes pointer and length, and frees it ([`rc_free`]) when the call has
//! returned. Every answer that is text (a state, an error, a pattern, an origin) is left
//! in one output buffer, read with [`rc_output_ptr`] and [`rc_output_len`] until the next
//! call. Calls that can fail return a negative number and leave the message there.
//!
//! The module imports one function, `env.progress(index, total)`, called during a run
//! ([`rc_run`]) after every [`PROGRESS_EVERY`]-th rule and after the last; JavaScript
//! decides how often to pass it on. (A call into JavaScript and its clock after every
//! rule cost the endgames a tenth of their time in Chromium.) A panic (a bug: no
//! input should cause one) traps, with its message left in the output buffer first.
//!
//! One machine lives in the module (a worker loads one program); loading another replaces
//! it.

use std::cell::RefCell;

use regex_chess_machine::exec::StateTooLarge;
use regex_chess_machine::program::wire::Damaged;

use crate::machine::Machine;

/// Why a call failed; its message is what JavaScript reads from the output buffer.
#[derive(Debug, thiserror::Error)]
enum CallError {
    #[error("the text is not UTF-8: {0}")]
    NotUtf8(#[from] std::str::Utf8Error),
    #[error("no program is loaded")]
    NotLoaded,
    #[error("the machine is busy")]
    Busy,
    #[error("the program has more rules than a 32-bit answer counts")]
    TooManyRules,
    #[error("no rule {0}")]
    NoRule(usize),
    #[error(transparent)]
    Files(#[from] Damaged),
    #[error(transparent)]
    TooLarge(#[from] StateTooLarge),
}

#[link(wasm_import_module = "env")]
unsafe extern "C" {
    /// JavaScript's progress function: rule `index` of `total` has run.
    fn progress(index: u32, total: u32);
}

/// How many rules a run applies between two calls of the progress function.
pub const PROGRESS_EVERY: usize = 64;

thread_local! {
    static MACHINE: RefCell<Option<Machine>> = const { RefCell::new(None) };
    static OUTPUT: RefCell<String> = const { RefCell::new(String::new()) };
}

fn set_output(text: &str) {
    OUTPUT.with_borrow_mut(|out| {
        out.clear();
        out.push_str(text);
    });
}

/// The `len` bytes at `ptr`.
///
/// # Safety
/// `ptr` must point to `len` readable bytes (a buffer of [`rc_alloc`]), or `len` be 0.
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller hands a buffer it wrote `len` bytes into.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// The text of `len` bytes at `ptr`, or an error message.
///
/// # Safety
/// As for [`bytes`].
unsafe fn text<'a>(ptr: *const u8, len: usize) -> Result<&'a str, CallError> {
    // SAFETY: as the caller promises.
    Ok(std::str::from_utf8(unsafe { bytes(ptr, len) })?)
}

/// Leaves `Err`'s message in the output buffer and returns -1; `Ok(n)` returns `n`.
fn answer(result: Result<i32, CallError>) -> i32 {
    result.unwrap_or_else(|error| {
        set_output(&error.to_string());
        -1
    })
}

/// `f` on the machine, shared: a run's progress function may ask for a rule meanwhile.
fn with_machine<T>(f: impl FnOnce(&Machine) -> Result<T, CallError>) -> Result<T, CallError> {
    MACHINE.with(|m| {
        f(m.try_borrow()
            .map_err(|_| CallError::Busy)?
            .as_ref()
            .ok_or(CallError::NotLoaded)?)
    })
}

/// `f` on the machine's place, alone (not during a run).
fn with_slot<T>(
    f: impl FnOnce(&mut Option<Machine>) -> Result<T, CallError>,
) -> Result<T, CallError> {
    MACHINE.with(|m| f(&mut *m.try_borrow_mut().map_err(|_| CallError::Busy)?))
}

/// `f` on the machine, alone.
fn with_machine_mut<T>(
    f: impl FnOnce(&mut Machine) -> Result<T, CallError>,
) -> Result<T, CallError> {
    with_slot(|slot| f(slot.as_mut().ok_or(CallError::NotLoaded)?))
}

/// A buffer of `len` bytes for JavaScript to write into (null when `len` is 0).
#[unsafe(no_mangle)]
pub extern "C" fn rc_alloc(len: usize) -> *mut u8 {
    if len == 0 {
        return std::ptr::null_mut();
    }
    let mut buffer = Vec::<u8>::with_capacity(len);
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Frees a buffer of [`rc_alloc`].
///
/// # Safety
/// `ptr` and `len` must be those of one [`rc_alloc`] call, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rc_free(ptr: *mut u8, len: usize) {
    if !ptr.is_null() {
        // SAFETY: `rc_alloc` made this buffer with capacity `len`.
        drop(unsafe { Vec::from_raw_parts(ptr, 0, len) });
    }
}

/// Where the output buffer's bytes are.
#[unsafe(no_mangle)]
pub extern "C" fn rc_output_ptr() -> *const u8 {
    OUTPUT.with_borrow(|out| out.as_ptr())
}

/// How many bytes the output buffer holds.
#[unsafe(no_mangle)]
pub extern "C" fn rc_output_len() -> usize {
    OUTPUT.with_borrow(|out| out.len())
}

/// Loads program `name` from the bytes of its two program-cache files (see
/// [`Machine::from_files`]): its number of rules, or -1.
///
/// # Safety
/// Each pointer must point to as many bytes as its length says, written by JavaScript.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rc_load(
    name: *const u8,
    name_len: usize,
    program: *const u8,
    program_len: usize,
    parses: *const u8,
    parses_len: usize,
) -> i32 {
    install_panic_message();
    // SAFETY: as the caller promises.
    let (name, program, parses) = unsafe {
        (
            text(name, name_len),
            bytes(program, program_len),
            bytes(parses, parses_len),
        )
    };
    answer(name.and_then(|name| {
        let machine = Machine::from_files(name, program, parses)?;
        let rules = i32::try_from(machine.rules()).map_err(|_| CallError::TooManyRules)?;
        with_slot(|slot| {
            *slot = Some(machine);
            Ok(rules)
        })
    }))
}

/// Runs the program on the state at `ptr`: 0 with the final state in the output buffer,
/// or -1 (a rule that would grow the state past the limit among the reasons: the
/// message names it).
///
/// # Safety
/// `ptr` must point to `len` bytes written by JavaScript.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rc_run(ptr: *const u8, len: usize) -> i32 {
    // SAFETY: as the caller promises.
    let state = unsafe { text(ptr, len) };
    answer(state.and_then(|state| {
        with_machine(|machine| {
            let total = machine.rules();
            let out = machine.run(state, &mut |i| {
                if (i + 1) % PROGRESS_EVERY == 0 || i + 1 == total {
                    // SAFETY: the import takes two numbers and returns nothing.
                    unsafe { progress(i as u32, total as u32) }
                }
            })?;
            set_output(&out);
            Ok(0)
        })
    }))
}

/// Starts a replay on the state at `ptr`: 0, or -1.
///
/// # Safety
/// `ptr` must point to `len` bytes written by JavaScript.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rc_replay(ptr: *const u8, len: usize) -> i32 {
    // SAFETY: as the caller promises.
    let state = unsafe { text(ptr, len) };
    answer(state.and_then(|state| {
        with_machine_mut(|machine| {
            machine.replay(state.to_string());
            Ok(0)
        })
    }))
}

/// The replay's next step (`skip` nonzero: up to the next rule that changes the state):
/// the index of the last rule applied, with the state after it in the output buffer;
/// -2 when no rule is left; -1 on error.
#[unsafe(no_mangle)]
pub extern "C" fn rc_step(skip: i32) -> i32 {
    answer(with_machine_mut(|machine| {
        let Some(index) = machine.step(skip != 0)? else {
            return Ok(-2);
        };
        set_output(machine.replay_state().unwrap_or(""));
        Ok(index as i32)
    }))
}

/// Rule `index`'s pattern (`what` 0) or origin (`what` 1) in the output buffer: 0, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn rc_rule(index: u32, what: u32) -> i32 {
    answer(with_machine(|machine| {
        let index = index as usize;
        let text = match what {
            0 => machine.pattern(index).map(str::to_string),
            _ => machine.origin(index),
        };
        let text = text.ok_or(CallError::NoRule(index))?;
        set_output(&text);
        Ok(0)
    }))
}

/// Has a panic leave its message in the output buffer before the module traps.
fn install_panic_message() {
    std::panic::set_hook(Box::new(|info| {
        set_output(&format!("the executor panicked: {info}"))
    }));
}
