//! `regex-chess export`: write a program's rules for another regex engine (see
//! [`regex_chess_machine::export`]).

use std::path::{Path, PathBuf};

use clap::Args;

use super::{CliError, fail};
use regex_chess_engine::{self as engine, LoadOptions};
use regex_chess_machine::export::{self, Format};
use regex_chess_machine::program::ValidProgram;
use regex_chess_machine::program::json::{self, Syntax};

/// Arguments of `export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The format: json (pairs in Python syntax), python (a module) or js (an ES module).
    #[arg(long, value_parser = str::parse::<Format>)]
    format: Format,
    #[command(flatten)]
    source: ProgramSource,
    /// Where to write the export.
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
}

/// Where a program comes from: the registry or a file.
#[derive(Args, Debug)]
#[group(required = true, multiple = false)]
pub struct ProgramSource {
    /// A registered program, compiled with the default passes.
    #[arg(long)]
    pub program: Option<String>,
    /// A program file (native JSON or [pattern, replacement] pairs).
    #[arg(long)]
    pub file: Option<PathBuf>,
}

impl ProgramSource {
    /// Builds or loads the program.
    pub fn load(&self) -> Result<ValidProgram, CliError> {
        match (&self.program, &self.file) {
            (Some(name), _) => registered(name),
            (None, Some(path)) => Ok(json::load(path, Syntax::Auto)?),
            (None, None) => fail("give --program NAME or --file PROGRAM.json"),
        }
    }
}

/// The registered program `name`, loaded as every caller loads it (compiled with the
/// default passes, validated, from the program cache when it holds it).
pub fn registered(name: &str) -> Result<ValidProgram, CliError> {
    let loaded = engine::load(name, &LoadOptions::default())?;
    super::warn(&loaded.warnings);
    Ok(loaded.program)
}

/// Writes `text` to `path`, naming the file in the error.
pub fn write_file(path: &Path, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text)
        .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))
}

/// Runs `export`.
pub fn run(args: ExportArgs) -> Result<(), CliError> {
    let program = args.source.load()?;
    let text = export::export(&program, args.format)?;
    write_file(&args.output, &text)
}
