//! The engine over the chess rules: which programs there are, how one is loaded, and how
//! a loaded program is run on a position.
//!
//! - [`registry`]: every program the compiler can build, by name; the search programs
//!   come from [`variants::Search`], the one registry of search variants.
//! - [`load()`]: finds a registered program, compiles it, validates it and keeps it in the
//!   program cache ([`cache`]) for every caller; the cache's problems come back as
//!   warnings in [`Loaded`], never printed here; a compilation (a first start) is told
//!   to the process's observer, if the caller set one ([`observe`]).
//! - [`runner`]: [`runner::LegalMoves`] and [`runner::MovePicker`] write a program's
//!   input state for a position, run it and read its output state into typed values
//!   ([`reply`]). Nothing here generates a move or judges a position: that is the rules'.
//!
//! The layers below: [`regex_chess_chess`] (the rules in the DSL), [`regex_chess_chess::programs`] (whole
//! programs recorded from them), [`regex_chess_compiler`], [`regex_chess_machine::exec`]. Above: the UCI
//! session, matches, benchmarks and the command line.

pub mod cache;
pub mod observe;
pub mod registry;
pub mod reply;
pub mod runner;
pub mod variants;

pub mod bench;
pub mod matchplay;
pub mod profile;
pub mod uci;

pub use variants::{Output, Search};

use regex_chess_compiler::{self as compiler, CompileOptions};
use regex_chess_machine::program::{Program, ValidProgram};

/// How [`load()`] gets a program.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// The compiler's passes.
    pub compile: CompileOptions,
    /// Whether to use the program cache.
    pub cache: CacheUse,
}

/// Whether [`load()`] uses the program cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CacheUse {
    /// Read it and write it where the environment allows
    /// ([`cache::ProgramCache::from_env`]).
    #[default]
    FromEnv,
    /// Compile, and leave the cache alone.
    Off,
}

/// A loaded program, and what went wrong with the program cache on the way (a damaged
/// or foreign entry, a directory that cannot be written): warnings, not errors, since
/// the program was compiled instead.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The program, validated.
    pub program: ValidProgram,
    /// The cache's problems, one sentence each.
    pub warnings: Vec<String>,
}

/// Why a program could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// No program of that name is registered.
    #[error("unknown program `{name}` (known: {})", registry::names().join(", "))]
    Unknown {
        /// The name asked for.
        name: String,
    },
    /// The compiled program has a rule the `regex` crate refuses: a compiler bug.
    #[error("the `{name}` program does not validate: {message}")]
    Invalid {
        /// The program.
        name: String,
        /// The validation error.
        message: String,
    },
}

/// Records and compiles the registered program `name` with `options`, without
/// validating it (for the compiler's report: see [`compiler::compile`]).
pub fn compile(name: &str, options: &CompileOptions) -> Result<compiler::Compilation, LoadError> {
    let registered = registry::find(name).ok_or_else(|| LoadError::Unknown {
        name: name.to_string(),
    })?;
    Ok(compiler::compile(registered.build(), options))
}

/// Validates a program compiled from the registered program `name`.
pub fn validate(name: &str, program: Program) -> Result<ValidProgram, LoadError> {
    program.validate().map_err(|e| LoadError::Invalid {
        name: name.to_string(),
        message: e.to_string(),
    })
}

/// Records, compiles and validates the registered program `name`, without the cache.
pub fn compile_valid(name: &str, options: &CompileOptions) -> Result<ValidProgram, LoadError> {
    validate(name, compile(name, options)?.program)
}

/// The registered program `name`, compiled with `options` and validated: read from the
/// program cache when it holds this build's copy, else compiled and stored there.
pub fn load(name: &str, options: &LoadOptions) -> Result<Loaded, LoadError> {
    let cache = match options.cache {
        CacheUse::FromEnv => cache::ProgramCache::from_env(),
        CacheUse::Off => None,
    };
    let cached = cache.is_some();
    let compile_valid = || {
        let started = std::time::Instant::now();
        observe::notify(observe::CompileEvent::Started { name, cached });
        let program = compile_valid(name, &options.compile);
        observe::notify(observe::CompileEvent::Finished {
            name,
            elapsed: started.elapsed(),
        });
        program
    };
    let Some(cache) = cache else {
        return Ok(Loaded {
            program: compile_valid()?,
            warnings: Vec::new(),
        });
    };
    if registry::find(name).is_none() {
        return Err(LoadError::Unknown {
            name: name.to_string(),
        });
    }
    let loaded = cache.load_or_compile(name, &options.compile, compile_valid);
    Ok(Loaded {
        program: loaded.program?,
        warnings: loaded.warnings,
    })
}

/// [`load()`] with the default options, the cache's warnings dropped: for tools and
/// tests that have nowhere to show them.
pub fn program(name: &str) -> Result<ValidProgram, LoadError> {
    Ok(load(name, &LoadOptions::default())?.program)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_program_is_named_with_the_known_ones() {
        let options = LoadOptions {
            cache: CacheUse::Off,
            ..LoadOptions::default()
        };
        let error = load("nope", &options).unwrap_err();
        assert_eq!(
            error,
            LoadError::Unknown {
                name: "nope".to_string()
            }
        );
        let message = error.to_string();
        assert!(message.starts_with("unknown program `nope` (known: demo-arith, "));
        assert!(message.contains("legal-moves"), "{message}");
    }

    #[test]
    fn a_registered_program_loads_and_validates() {
        let options = LoadOptions {
            cache: CacheUse::Off,
            ..LoadOptions::default()
        };
        let loaded = load("demo-arith", &options).unwrap();
        assert!(loaded.warnings.is_empty());
        assert!(!loaded.program.rules().is_empty());
    }
}
