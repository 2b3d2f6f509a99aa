//! `regex-chess site`: write the static site that plays in the browser.
//!
//! The site is the page (`web/`: `index.html`, `app.js`, `worker.js`, `style.css`,
//! built into the binary), the program's rules as an ES module (`rules.js`, the `js`
//! export) and the starting state (`start.txt`; and `start-white.txt`, the same position
//! with the engine as white, when the `board` program draws it). The page appends the typed line to the
//! state and runs the rules in a Web Worker; see `docs/exports.md`.

use std::path::PathBuf;

use clap::Args;

use super::export::{ProgramSource, registered, write_file};
use super::{CliError, fail};
use crate::chess::fen::Fen;
use crate::exec::{Executor, fast::Fast};
use crate::export::{self, Format};

/// The page's files, as built into the binary.
pub const PAGE: [(&str, &str); 4] = [
    ("index.html", include_str!("../../web/index.html")),
    ("app.js", include_str!("../../web/app.js")),
    ("worker.js", include_str!("../../web/worker.js")),
    ("style.css", include_str!("../../web/style.css")),
];

/// The standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Arguments of `site`.
#[derive(Args, Debug)]
pub struct SiteArgs {
    /// The directory to write (created if needed).
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
    #[command(flatten)]
    source: SiteProgram,
    /// The starting state. Default: the `board` program's drawing of --fen, with the
    /// engine playing --engine-color.
    #[arg(long)]
    start: Option<PathBuf>,
    /// The starting position, when the starting state is drawn by the `board` program.
    #[arg(long, default_value = START_FEN, allow_hyphen_values = true)]
    fen: String,
    /// The side the engine plays, when the starting state is drawn by the `board` program.
    #[arg(long, default_value = "black", value_parser = ["white", "black"])]
    engine_color: String,
}

/// The program the page runs: `play` unless said otherwise.
#[derive(Args, Debug)]
pub struct SiteProgram {
    /// A registered program (default: play).
    #[arg(long, conflicts_with = "file")]
    program: Option<String>,
    /// A program file (native JSON or [pattern, replacement] pairs).
    #[arg(long)]
    file: Option<PathBuf>,
}

/// Runs `site`.
pub fn run(args: SiteArgs) -> Result<(), CliError> {
    let source = ProgramSource {
        program: match (&args.source.program, &args.source.file) {
            (None, None) => Some("play".to_string()),
            (program, _) => program.clone(),
        },
        file: args.source.file.clone(),
    };
    let program = source.load()?;
    let rules = export::export(&program, Format::Js)?;
    // With the `board` program: the start with the engine as white too, for the page's
    // "New game" as black.
    let mut start_white = None;
    let start = match &args.start {
        Some(path) => std::fs::read_to_string(path).map_err(|e| {
            CliError(format!(
                "cannot read the start state {}: {e}",
                path.display()
            ))
        })?,
        None => {
            if crate::programs::find("board").is_none() {
                return fail(
                    "no `board` program is registered to draw the starting position: \
                     give --start STATE_FILE",
                );
            }
            // The FEN is checked first, as `play` does: the rules draw only what they
            // can read.
            let fen: Fen = args.fen.parse()?;
            // The `board` program's input: the engine's side, then the FEN.
            let board = Fast::new(registered("board")?);
            let text = board.run(&format!("engine: {}\n{fen}\n", args.engine_color));
            if !text.starts_with("8 ") {
                return fail(format!("the rules could not read the FEN {:?}", args.fen));
            }
            start_white = Some(board.run(&format!("engine: white\n{fen}\n")));
            text
        }
    };
    std::fs::create_dir_all(&args.output)
        .map_err(|e| CliError(format!("cannot create {}: {e}", args.output.display())))?;
    for (name, text) in PAGE {
        write_file(&args.output.join(name), text)?;
    }
    write_file(&args.output.join("rules.js"), &rules)?;
    write_file(&args.output.join("start.txt"), &start)?;
    if let Some(text) = &start_white {
        write_file(&args.output.join("start-white.txt"), text)?;
    }
    println!(
        "wrote the site for {} ({} rules) to {}",
        if program.program().name.is_empty() {
            "the program"
        } else {
            &program.program().name
        },
        program.rules().len(),
        args.output.display()
    );
    Ok(())
}
