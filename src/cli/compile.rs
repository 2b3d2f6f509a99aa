//! `regex-chess compile`: build a registered program and write its rules as JSON.
//!
//! Its steps (recording the program, the passes and lowering, validating the rules,
//! writing the file) show as progress on standard error ([`super::progress`]): the large
//! programs take seconds.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::progress::Steps;
use super::{CliError, fail};
use regex_chess_compiler::{self as compiler, CompileOptions, report::RuleStats};
use regex_chess_engine as engine;
use regex_chess_machine::program::json;

/// Arguments of `compile`.
#[derive(Args, Debug)]
pub struct CompileArgs {
    /// The registered program to build (see the error message for the list).
    #[arg(long)]
    program: String,
    /// Where to write the program (native JSON).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Print the pass report, rule counts by instruction and origin, and distinct patterns.
    #[arg(long)]
    stats: bool,
    /// Print the instruction list after the passes, with the DSL call site of each.
    #[arg(long)]
    ir: bool,
    /// Do not push constants in place of the variables that hold them.
    #[arg(long)]
    no_const_inline: bool,
    /// Do not delete variables after their last use.
    #[arg(long)]
    no_dead_var_elim: bool,
    /// Do not remove do-nothing instruction sequences.
    #[arg(long)]
    no_peephole: bool,
    /// Do not rewrite the joins of conditionals (common tails, known conditions).
    #[arg(long)]
    no_joins: bool,
}

/// Runs `compile`.
pub fn run(args: CompileArgs) -> Result<(), CliError> {
    let Some(registered) = engine::registry::find(&args.program) else {
        return Err(engine::LoadError::Unknown {
            name: args.program.clone(),
        }
        .into());
    };
    if args.output.is_none() && !args.stats && !args.ir {
        return fail("nothing to do: give -o FILE, --stats or --ir");
    }
    let options = CompileOptions {
        const_inline: !args.no_const_inline,
        dead_var_elim: !args.no_dead_var_elim,
        peephole: !args.no_peephole,
        joins: !args.no_joins,
    };
    // Recording, the passes with lowering, validating, and writing when there is a file:
    // what `engine::compile` and `engine::validate` do, one step at a time.
    let what = format!("compile {}", args.program);
    let mut steps = Steps::new(&what, 3 + u64::from(args.output.is_some()), 1);
    steps.doing("recording the program");
    let ir = registered.build();
    steps.step(&format!("recorded {} instructions", ir.body.len()));
    steps.doing("running the passes and lowering to rules");
    let compiled = compiler::compile(ir, &options);
    steps.step(&format!(
        "ran the passes: {} instructions, {} rules",
        compiled.ir.body.len(),
        compiled.program.rules.len()
    ));
    steps.doing("validating the rules");
    let valid = engine::validate(&args.program, compiled.program.clone())?;
    steps.step(&format!("validated {} rules", valid.rules().len()));
    if let Some(path) = &args.output {
        steps.doing(format!("writing {}", path.display()));
        json::save(valid.program(), path)
            .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
        steps.step(&format!("wrote {}", path.display()));
    }
    steps.finish();
    let mut stdout = std::io::stdout().lock();
    if args.ir {
        for located in &compiled.ir.body {
            writeln!(
                stdout,
                "{:<40} {}",
                located.instruction.to_string(),
                located.site
            )?;
        }
    }
    if args.stats {
        write!(stdout, "{}", compiled.report)?;
        write!(stdout, "{}", RuleStats::of(valid.program()))?;
    }
    Ok(())
}
