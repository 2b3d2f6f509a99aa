//! `regex-chess site`: write the static site that plays in the browser.
//!
//! The site is the page (`web/`: `index.html`, `app.js`, `worker.js`, `style.css`,
//! built into the binary), the rules as ES modules (the `js` export), the list of them
//! (`variants.json`) and the starting state (`start.txt`; and `start-white.txt`, the same
//! position with the engine as white, when the `board` program draws it). The page
//! appends the typed line to the state and runs the rules in a Web Worker; see
//! `docs/exports.md`.
//!
//! By default the rules are every search variant's `play` program
//! ([`regex_chess_engine::variants`]): `rules.js` the page's default (`--search NAME`, else
//! [`variants::default_page`]), `rules-NAME.js` each other one, which the page offers in
//! a select element. With `--program` or `--file`, `rules.js` is that program alone.
//! `variants.json` is `{"default": NAME, "variants": [{"name", "program", "file",
//! "summary"}, ...]}`, weakest first.
//!
//! With `--wasm FILE` (the fast executor built for WebAssembly, `crates/wasm`;
//! `scripts/site.sh` builds it and calls this), the site also holds the module as
//! `regex-chess.wasm` and each program's two program-cache files beside its rules
//! (`rules.program` and `rules.parses` beside `rules.js`: the rules with their parsed
//! templates, and the patterns' parses, keyed by this build), which the worker hands to
//! the module; `variants.json` then names the module (`"wasm"`) and the page offers both
//! engines, the module first.
//!
//! Its steps (each set of rules, loaded and exported; the starting state; the files)
//! show as progress on standard error ([`super::progress`]), and a program the cache does
//! not hold yet as its compilation.

use std::path::{Path, PathBuf};

use clap::Args;

use super::engine_args::search_parser;
use super::export::{ProgramSource, registered, write_file};
use super::progress::Steps;
use super::{CliError, fail};
use regex_chess_chess::notation::fen::Fen;
use regex_chess_compiler::CompileOptions;
use regex_chess_engine::cache::{ProgramCache, SOURCE_FINGERPRINT};
use regex_chess_engine::{LoadOptions, Output, Search};
use regex_chess_machine::exec::{Executor, fast::Fast};
use regex_chess_machine::export::{self, Format};
use regex_chess_machine::program::ValidProgram;

/// The page's files, as built into the binary.
pub const PAGE: [(&str, &str); 4] = [
    ("index.html", include_str!("../../web/index.html")),
    ("app.js", include_str!("../../web/app.js")),
    ("worker.js", include_str!("../../web/worker.js")),
    ("style.css", include_str!("../../web/style.css")),
];

/// The name of the WebAssembly module in the site.
pub const WASM_FILE: &str = "regex-chess.wasm";

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
    /// The fast executor built for WebAssembly (`regex_chess_wasm.wasm`, from the
    /// `regex-chess-wasm` crate built from the same sources; scripts/site.sh builds it):
    /// the page then runs the rules with it by default, the browser's RegExp on request.
    #[arg(long)]
    wasm: Option<PathBuf>,
}

/// The rules the page runs: every search variant's `play` program unless said otherwise.
#[derive(Args, Debug)]
pub struct SiteProgram {
    /// The page's default search variant (the others are offered beside it). Default: the
    /// strongest that answers within about 1 s in the browser with the fast executor in
    /// WebAssembly.
    #[arg(long, conflicts_with_all = ["program", "file"], value_parser = search_parser())]
    search: Option<Search>,
    /// A registered program, run alone (instead of the search variants' `play` programs).
    #[arg(long, conflicts_with = "file")]
    program: Option<String>,
    /// A program file (native JSON or [pattern, replacement] pairs).
    #[arg(long)]
    file: Option<PathBuf>,
}

/// One set of rules on the page.
struct PageRules {
    /// The name the page's select shows (a variant's, or the program's).
    name: String,
    /// The program's name (empty for a file without one).
    program: String,
    /// The file the page imports (`rules.js` for the default).
    file: String,
    /// One line about it.
    summary: String,
    /// The `js` export.
    text: String,
    /// How many rules.
    count: usize,
    /// The program's two program-cache files, for the WebAssembly module (when the site
    /// has one).
    files: Option<(Vec<u8>, Vec<u8>)>,
}

impl PageRules {
    fn new(
        name: &str,
        program: &ValidProgram,
        file: String,
        summary: &str,
        wasm: bool,
    ) -> Result<PageRules, CliError> {
        Ok(PageRules {
            name: name.to_string(),
            program: program.program().name.clone(),
            file,
            summary: summary.to_string(),
            text: export::export(program, Format::Js)?,
            count: program.rules().len(),
            files: wasm.then(|| {
                ProgramCache::new("", SOURCE_FINGERPRINT).files(
                    &program.program().name,
                    &CompileOptions::default(),
                    program,
                )
            }),
        })
    }
}

impl SiteProgram {
    /// Whether the page runs one program (`--program`, `--file`) rather than every
    /// search variant's.
    fn alone(&self) -> bool {
        self.program.is_some() || self.file.is_some()
    }
}

/// The page's rules: every variant's `play` program, or the one `--program`/`--file`
/// names; and the default's name. Each set of rules is a step of `steps`.
fn page_rules(
    source: &SiteProgram,
    wasm: bool,
    steps: &mut Steps,
) -> Result<(Vec<PageRules>, String), CliError> {
    if source.alone() {
        steps.doing("loading and exporting the program");
        let program = ProgramSource {
            program: source.program.clone(),
            file: source.file.clone(),
        }
        .load()?;
        let name = match program.program().name.as_str() {
            "" => "the program".to_string(),
            name => name.to_string(),
        };
        let rules = PageRules::new(&name, &program, "rules.js".to_string(), "", wasm)?;
        steps.step(&format!("{name}: {}", count_rules(rules.count)));
        return Ok((vec![rules], name));
    }
    let default = source.search.unwrap_or(Search::default_page());
    let mut all = Vec::new();
    for v in Search::ALL {
        let file = if v == default {
            "rules.js".to_string()
        } else {
            format!("rules-{}.js", v.name())
        };
        let name = v.program(Output::Play);
        steps.doing(format!(
            "{}: loading and exporting the `{name}` program",
            v.name()
        ));
        // From the program cache, as `play` reads them.
        let loaded = regex_chess_engine::load(name, &LoadOptions::default())?;
        super::warn(&loaded.warnings);
        let program = loaded.program;
        let rules = PageRules::new(v.name(), &program, file, v.summary(), wasm)?;
        steps.step(&format!("{}: {}", v.name(), count_rules(rules.count)));
        all.push(rules);
    }
    Ok((all, default.name().to_string()))
}

/// `1 rule`, `8819 rules`.
fn count_rules(count: usize) -> String {
    match count {
        1 => "1 rule".to_string(),
        n => format!("{n} rules"),
    }
}

/// The text of `variants.json`; `wasm` the module's file, if the site has one.
fn variants_json(rules: &[PageRules], default: &str, wasm: Option<&str>) -> String {
    let list: Vec<serde_json::Value> = rules
        .iter()
        .map(|r| {
            serde_json::json!({
                "name": r.name,
                "program": r.program,
                "file": r.file,
                "summary": r.summary,
            })
        })
        .collect();
    let value = serde_json::json!({ "default": default, "wasm": wasm, "variants": list });
    format!("{value:#}\n")
}

/// Where the starting state comes from.
enum StartFrom<'a> {
    /// A file (`--start`).
    File(&'a Path),
    /// The `board` program's drawing of this position.
    Board(Fen),
}

/// Runs `site`.
pub fn run(args: SiteArgs) -> Result<(), CliError> {
    // The module is checked before anything is compiled or written.
    let module = args.wasm.as_deref().map(read_wasm).transpose()?;
    // So is the FEN, when the `board` program draws the start, as `play` checks it: the
    // rules draw only what they can read.
    let start_from = match &args.start {
        Some(path) => StartFrom::File(path),
        None => {
            if regex_chess_engine::registry::find("board").is_none() {
                return fail(
                    "no `board` program is registered to draw the starting position: \
                     give --start STATE_FILE",
                );
            }
            StartFrom::Board(args.fen.parse()?)
        }
    };
    // The steps: each set of rules, the starting state, the files.
    let sets = if args.source.alone() {
        1
    } else {
        Search::ALL.len()
    };
    let mut steps = Steps::new("site", sets as u64 + 2, 1);
    let (rules, default) = page_rules(&args.source, module.is_some(), &mut steps)?;
    // With the `board` program: the start with the engine as white too, for the page's
    // "New game" as black.
    let mut start_white = None;
    let start = match start_from {
        StartFrom::File(path) => {
            steps.doing(format!("reading the starting state {}", path.display()));
            let text = std::fs::read_to_string(path).map_err(|e| {
                CliError(format!(
                    "cannot read the start state {}: {e}",
                    path.display()
                ))
            })?;
            steps.step(&format!("read the starting state {}", path.display()));
            text
        }
        StartFrom::Board(fen) => {
            steps.doing("drawing the starting state with the `board` program");
            // The `board` program's input: the engine's side, then the FEN.
            let board = Fast::new(registered("board")?);
            let text = board.run(&format!("engine: {}\n{fen}\n", args.engine_color));
            if !text.starts_with("8 ") {
                return fail(format!("the rules could not read the FEN {:?}", args.fen));
            }
            start_white = Some(board.run(&format!("engine: white\n{fen}\n")));
            steps.step("drew the starting state with the `board` program");
            text
        }
    };
    steps.doing(format!("writing the files to {}", args.output.display()));
    let written = write_site(
        &args,
        &rules,
        &default,
        module.as_deref(),
        &start,
        start_white.as_deref(),
    )?;
    steps.step(&format!(
        "wrote {written} files to {}",
        args.output.display()
    ));
    steps.finish();
    let wasm = module.as_ref().map(|_| WASM_FILE);
    let listed: Vec<String> = rules
        .iter()
        .map(|r| {
            let program = if r.program.is_empty() || r.program == r.name {
                String::new()
            } else {
                format!(" ({})", r.program)
            };
            format!("{}{program}: {} rules in {}", r.name, r.count, r.file)
        })
        .collect();
    let engines = match wasm {
        Some(_) => "WebAssembly and RegExp",
        None => "RegExp only, no --wasm",
    };
    println!(
        "wrote the site to {} ({engines}; default {default}; {})",
        args.output.display(),
        listed.join("; ")
    );
    Ok(())
}

/// Writes the site's files to `args.output`: the page, the rules (and with the `module`
/// its program-cache files), `variants.json` and the starting states; how many files.
fn write_site(
    args: &SiteArgs,
    rules: &[PageRules],
    default: &str,
    module: Option<&[u8]>,
    start: &str,
    start_white: Option<&str>,
) -> Result<usize, CliError> {
    std::fs::create_dir_all(&args.output)
        .map_err(|e| CliError(format!("cannot create {}: {e}", args.output.display())))?;
    let mut written = 0;
    let mut text_file = |name: &str, text: &str| {
        written += 1;
        write_file(&args.output.join(name), text)
    };
    for (name, text) in PAGE {
        text_file(name, text)?;
    }
    for r in rules {
        text_file(&r.file, &r.text)?;
    }
    let wasm = module.map(|_| WASM_FILE);
    text_file("variants.json", &variants_json(rules, default, wasm))?;
    text_file("start.txt", start)?;
    if let Some(text) = start_white {
        text_file("start-white.txt", text)?;
    }
    if let Some(module) = module {
        write_bytes(&args.output.join(WASM_FILE), module)?;
        written += 1;
        for r in rules {
            let rules_file = args.output.join(&r.file);
            if let Some((program, parses)) = &r.files {
                write_bytes(&rules_file.with_extension("program"), program)?;
                write_bytes(&rules_file.with_extension("parses"), parses)?;
                written += 2;
            }
        }
    }
    Ok(written)
}

/// The WebAssembly module at `path`, refusing a file that is not one.
fn read_wasm(path: &Path) -> Result<Vec<u8>, CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError(format!("cannot read the module {}: {e}", path.display())))?;
    if !bytes.starts_with(b"\0asm") {
        return fail(format!(
            "{} is not a WebAssembly module (scripts/site.sh builds it)",
            path.display()
        ));
    }
    Ok(bytes)
}

fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    std::fs::write(path, bytes)
        .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))
}
