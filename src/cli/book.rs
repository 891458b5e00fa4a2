//! `damiera book`: build, describe, probe, export, import and merge opening books in the DMBK
//! format (docs/book.md); `values` gives leaf values to outside builders (the Ray job).
//! The work is in `damiera::book` and `damiera::tools::book`; this file holds the arguments
//! and the printing.

use super::shared::{fail, hash_mib, variant};
use clap::Subcommand;
use damiera::book::{book_key, write, Book, BookError, BookMove};
use damiera::core::variant::Variant;
use damiera::core::variant_position::VariantPosition;
use damiera::engine::Engine;
use damiera::tools::arena::openings::read_openings;
use damiera::tools::book::{
    build_with, export_pdn, leaf_value, merge, BuildSettings, ExportSettings, GameTree, Import,
    LeafLimit, MergeError, Root, Valued,
};
use damiera::tools::progress;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// `damiera book` and its subcommands.
#[derive(clap::Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand)]
enum BookCommand {
    /// Build a book by drop-out expansion, each leaf valued by a fixed-depth search; resumes
    /// from --out when it exists (the book file is the state).
    Build {
        /// english (american, checkers), italian, brazilian, russian, damone, international, antidraughts (losing), breakthrough (bt), frisian or frysk (frysk!).
        #[arg(long, short)]
        variant: String,
        /// An openings file (one FEN and/or moves a line, `#` comments; repeatable): its
        /// positions are the roots and its lines' moves enter the book (default: the start).
        #[arg(long)]
        from: Vec<String>,
        /// With --from: the start position is a root too.
        #[arg(long, requires = "from")]
        start: bool,
        /// Stop when the book holds this many positions.
        #[arg(long)]
        positions: usize,
        /// The leaf searches' depth in plies (1 to 64): the same book on any machine.
        #[arg(
            long,
            required_unless_present = "movetime",
            conflicts_with = "movetime"
        )]
        depth: Option<u8>,
        /// The leaf searches' time in milliseconds instead of a depth (not reproducible).
        #[arg(long)]
        movetime: Option<u64>,
        /// Leaves are valued by the program at the other end of stdin/stdout (the Ray job,
        /// docs/cluster.md): the build writes `leaves N` and N FENs, and reads N lines
        /// `VALUE DEPTH` (centi-men, plies) back.
        #[arg(long)]
        leaf_pipe: bool,
        /// Leaf searches at once (each an engine on its own thread).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Each engine's hash table in MiB.
        #[arg(long, default_value_t = 16)]
        hash: u64,
        /// Plies of depth one centi-man of drop-out costs in the priority (0.02: half a man
        /// equals one ply).
        #[arg(long, default_value_t = 0.02)]
        alpha: f64,
        /// The book file (written atomically; read first to resume).
        #[arg(long)]
        out: PathBuf,
    },
    /// Leaf values as `book build` computes them: one FEN a line on stdin, one line
    /// `VALUE DEPTH` (centi-men for the side to move, plies) a FEN on stdout, in order.
    Values {
        /// english (american, checkers), italian, brazilian, russian, damone, international, antidraughts (losing), breakthrough (bt), frisian or frysk (frysk!).
        #[arg(long, short)]
        variant: String,
        /// The searches' depth in plies (1 to 64).
        #[arg(
            long,
            required_unless_present = "movetime",
            conflicts_with = "movetime"
        )]
        depth: Option<u8>,
        /// The searches' time in milliseconds instead of a depth.
        #[arg(long)]
        movetime: Option<u64>,
        /// The hash table in MiB.
        #[arg(long, default_value_t = 16)]
        hash: u64,
    },
    /// The book's variant, entries (moves) and positions.
    Info {
        /// The book file.
        book: PathBuf,
    },
    /// A position's key and its book moves, best first: name, from, to, the taken squares
    /// (book numbers, `-` for none), score (centi-men), depth (plies), count.
    Probe {
        /// The book file.
        book: PathBuf,
        /// The position (default: the variant's start).
        #[arg(long)]
        fen: Option<String>,
    },
    /// The book's tree as PDN: one game, the best moves its main line, the other book moves
    /// nested variations, each move's score a comment; each position's moves written once.
    Export {
        /// The book file.
        book: PathBuf,
        /// The PDN file to write.
        #[arg(long)]
        pdn: PathBuf,
        /// Write no move more than this many plies from the root.
        #[arg(long)]
        max_ply: Option<usize>,
        /// The root position (default: the variant's start).
        #[arg(long)]
        fen: Option<String>,
        /// One game per line from the root to a leaf instead of variations (for readers that
        /// skip variations, such as pydraughts).
        #[arg(long)]
        lines: bool,
    },
    /// A book from PDN game collections: the (position, move) pairs of the first --max-ply
    /// moves played in at least --min-games games; count = games, score = the mover's
    /// 100 * (wins - losses) / games with a result, depth 0.
    Import {
        /// english (american, checkers), italian, brazilian, russian, damone, international, antidraughts (losing), breakthrough (bt), frisian or frysk (frysk!);
        /// games with another [GameType] are skipped.
        #[arg(long, short)]
        variant: String,
        /// The PDN files.
        #[arg(long, required = true, num_args = 1..)]
        pdn: Vec<PathBuf>,
        /// Keep a move played in at least this many games.
        #[arg(long)]
        min_games: u32,
        /// Count the first this many moves (plies) of each game.
        #[arg(long, default_value_t = 30)]
        max_ply: usize,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// The union of books of one variant: of a move in several, the entry of the greatest
    /// depth (ties: the first file's), counts summed.
    Merge {
        /// The books (two or more).
        #[arg(required = true, num_args = 2..)]
        books: Vec<PathBuf>,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
    },
}

/// The taken squares of a book move as book numbers joined by commas, or `-`.
pub fn captured_list(mv: &BookMove) -> String {
    let squares: Vec<String> = (0..64)
        .filter(|i| mv.captured >> i & 1 == 1)
        .map(|i| (i + 1).to_string())
        .collect();
    if squares.is_empty() {
        "-".into()
    } else {
        squares.join(",")
    }
}

/// Runs `damiera book`: exit status 0, or 2 after a one-line error (an unreadable, foreign
/// or truncated book, a bad FEN).
pub fn run(a: BookArgs) -> ExitCode {
    let path = match &a.command {
        BookCommand::Info { book } | BookCommand::Probe { book, .. } => book,
        BookCommand::Build { .. } => return run_build(a.command),
        BookCommand::Values { .. } => return run_values(a.command),
        BookCommand::Export { .. } => return run_export(a.command),
        BookCommand::Import { .. } => return run_import(a.command),
        BookCommand::Merge { books, out } => return run_merge(books, out),
    };
    let book = match Book::open(path) {
        Ok(b) => b,
        Err(e) => return fail(&e.to_string()),
    };
    match a.command {
        BookCommand::Info { .. } => {
            let info = book.info();
            println!("variant {}", info.variant.name());
            println!("entries {}", info.entries);
            println!("positions {}", info.positions);
        }
        BookCommand::Build { .. }
        | BookCommand::Values { .. }
        | BookCommand::Export { .. }
        | BookCommand::Import { .. }
        | BookCommand::Merge { .. } => unreachable!("handled above"),
        BookCommand::Probe { fen, .. } => {
            let pos = match VariantPosition::new(book.variant(), fen.as_deref()) {
                Ok(p) => p,
                Err(e) => return fail(&format!("--fen: {e}")),
            };
            println!("key {:016x}", book_key(&pos));
            for m in book.probe(&pos) {
                let e = m.entry;
                println!(
                    "{} {} {} {} {} {} {}",
                    m.name,
                    e.mv.from,
                    e.mv.to,
                    captured_list(&e.mv),
                    e.score,
                    e.depth,
                    e.count
                );
            }
        }
    }
    ExitCode::SUCCESS
}

/// `damiera book build`: the settings checked, the roots read, the build with its bar.
fn run_build(command: BookCommand) -> ExitCode {
    let BookCommand::Build {
        variant: name,
        from,
        start,
        positions,
        depth,
        movetime,
        leaf_pipe,
        threads,
        hash,
        alpha,
        out,
    } = command
    else {
        unreachable!("run_build gets a build")
    };
    let v = match variant(&name) {
        Ok(v) => v,
        Err(e) => return fail(&e),
    };
    let limit = match leaf_limit(depth, movetime) {
        Ok(l) => l,
        Err(e) => return fail(&e),
    };
    if threads == 0 || !(alpha.is_finite() && alpha >= 0.0) {
        return fail("--threads is at least 1 and --alpha a number at least 0");
    }
    let hash_mib = match hash_mib(hash) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let mut roots = Vec::new();
    for path in &from {
        match roots_of(path, v) {
            Ok(r) => roots.extend(r),
            Err(e) => return fail(&e),
        }
    }
    if from.is_empty() || start {
        roots.push(Root::at(VariantPosition::start(v)));
    }
    let settings = BuildSettings {
        variant: v,
        roots,
        positions,
        limit,
        threads,
        hash_mib,
        alpha,
    };
    let bar = progress::bar(
        positions as u64,
        "{bar:30} {pos}/{len} positions {msg} {elapsed_precise} left {eta}",
    );
    let started = Instant::now();
    let mut first = None;
    let tree = if leaf_pipe {
        GameTree::external(limit, Box::new(pipe_values))
    } else {
        GameTree::new(v, limit, threads, hash_mib)
    };
    let result = build_with(tree, &settings, &out, |n| {
        let base = *first.get_or_insert(n);
        bar.set_position(n as u64);
        let minutes = started.elapsed().as_secs_f64() / 60.0;
        if minutes > 0.0 {
            bar.set_message(format!("{:.0}/min", (n - base) as f64 / minutes));
        }
    });
    bar.finish_and_clear();
    match result {
        Ok(n) => {
            let held = Book::open(&out).map_or(n, |b| b.info().positions);
            println!(
                "{}: {n} positions expanded, {held} in the book with the lines' ({} book)",
                out.display(),
                v.name()
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e.to_string()),
    }
}

/// The leaf limit of `--depth` or `--movetime` (clap makes it one of the two).
fn leaf_limit(depth: Option<u8>, movetime: Option<u64>) -> Result<LeafLimit, String> {
    match (depth, movetime) {
        (Some(d), _) if (1..=64).contains(&d) => Ok(LeafLimit::Depth(d)),
        (Some(d), _) => Err(format!("--depth {d}: 1 to 64 plies")),
        (None, Some(ms)) if (1..=3_600_000).contains(&ms) => Ok(LeafLimit::Movetime(ms)),
        (None, Some(ms)) => Err(format!("--movetime {ms}: 1 to 3,600,000 ms")),
        (None, None) => Err("--depth or --movetime".into()),
    }
}

/// The roots an openings file names: each line's position after its moves, with the line.
fn roots_of(path: &str, v: Variant) -> Result<Vec<Root>, String> {
    let mut roots = Vec::new();
    for o in read_openings(path, v)? {
        let mut p =
            VariantPosition::new(v, o.fen.as_deref()).map_err(|e| format!("{path}: {e}"))?;
        let mut line = Vec::new();
        for m in &o.moves {
            let mv = p.parse_move(m).map_err(|e| format!("{path}: {e}"))?;
            line.push((p, mv));
            p.play(&mv);
        }
        roots.push(Root { position: p, line });
    }
    Ok(roots)
}

/// The `--leaf-pipe` valuer: `leaves N` and N FENs on stdout, N lines `VALUE DEPTH` from
/// stdin.
fn pipe_values(ps: &[VariantPosition]) -> Result<Vec<Valued>, BookError> {
    let bad = |why: String| BookError(format!("--leaf-pipe: {why}"));
    let mut out = std::io::stdout().lock();
    let mut text = format!("leaves {}\n", ps.len());
    for p in ps {
        text.push_str(&p.fen());
        text.push('\n');
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| bad(e.to_string()))?;
    let stdin = std::io::stdin();
    let mut values = Vec::with_capacity(ps.len());
    for _ in ps {
        let mut line = String::new();
        match stdin.lock().read_line(&mut line) {
            Ok(0) => return Err(bad("stdin closed before the values came".into())),
            Ok(_) => {}
            Err(e) => return Err(bad(e.to_string())),
        }
        let mut fields = line.split_whitespace().map(str::parse::<i32>);
        match (fields.next(), fields.next(), fields.next()) {
            (Some(Ok(value)), Some(Ok(depth)), None)
                if value.abs() <= 32_767 && (0..=255).contains(&depth) =>
            {
                values.push(Valued {
                    value,
                    depth: depth as u8,
                })
            }
            _ => return Err(bad(format!("'{}' is not VALUE DEPTH", line.trim()))),
        }
    }
    Ok(values)
}

/// `damiera book values`: a leaf value a FEN of stdin, as the build computes it.
fn run_values(command: BookCommand) -> ExitCode {
    let BookCommand::Values {
        variant: name,
        depth,
        movetime,
        hash,
    } = command
    else {
        unreachable!("run_values gets values")
    };
    let v = match variant(&name) {
        Ok(v) => v,
        Err(e) => return fail(&e),
    };
    let limit = match leaf_limit(depth, movetime) {
        Ok(l) => l,
        Err(e) => return fail(&e),
    };
    let hash_mib = match hash_mib(hash) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let mut engine = Engine::new(v, hash_mib);
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let Ok(line) = line else {
            return fail("stdin: not UTF-8 text");
        };
        if line.trim().is_empty() {
            continue;
        }
        let pos = match VariantPosition::new(v, Some(line.trim())) {
            Ok(p) => p,
            Err(e) => return fail(&format!("line {}: {e}", n + 1)),
        };
        let r = leaf_value(&mut engine, &pos, limit);
        println!("{} {}", r.value, r.depth);
    }
    ExitCode::SUCCESS
}

/// `damiera book export`: the book read, its tree written as PDN.
fn run_export(command: BookCommand) -> ExitCode {
    let BookCommand::Export {
        book,
        pdn,
        max_ply,
        fen,
        lines,
    } = command
    else {
        unreachable!("run_export gets an export")
    };
    let b = match Book::open(&book) {
        Ok(b) => b,
        Err(e) => return fail(&e.to_string()),
    };
    let root = match VariantPosition::new(b.variant(), fen.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(&format!("--fen: {e}")),
    };
    let name = book.file_name().map_or_else(
        || book.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    let settings = ExportSettings {
        root,
        max_ply,
        event: format!("damiera book {name}"),
        lines,
    };
    let e = match export_pdn(&b, &settings) {
        Ok(e) => e,
        Err(e) => return fail(&format!("{}: {e}", book.display())),
    };
    if let Err(err) = std::fs::write(&pdn, &e.pdn) {
        return fail(&format!("{}: {err}", pdn.display()));
    }
    println!(
        "{}: {} game{}, {} moves from {} positions, main line {} plies",
        pdn.display(),
        e.games,
        if e.games == 1 { "" } else { "s" },
        e.moves,
        e.positions,
        e.main_line
    );
    ExitCode::SUCCESS
}

/// `damiera book import`: every file read and counted (a bar over the files), the book
/// written, the skipped games reported in one warning line each.
fn run_import(command: BookCommand) -> ExitCode {
    let BookCommand::Import {
        variant: name,
        pdn,
        min_games,
        max_ply,
        out,
    } = command
    else {
        unreachable!("run_import gets an import")
    };
    let v = match variant(&name) {
        Ok(v) => v,
        Err(e) => return fail(&e),
    };
    if min_games == 0 {
        return fail("--min-games is at least 1");
    }
    let mut import = Import::new(v, max_ply);
    let bar = progress::bar(
        pdn.len() as u64,
        "{bar:30} {pos}/{len} files {msg} {elapsed_precise} left {eta}",
    );
    for path in &pdn {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                bar.finish_and_clear();
                return fail(&format!("{}: {e}", path.display()));
            }
        };
        // Old PDN collections are often Latin-1: undecodable bytes become U+FFFD.
        let text = String::from_utf8_lossy(&bytes);
        let s = import.add_pdn(&path.display().to_string(), &text);
        if s.imported == 0 {
            bar.finish_and_clear();
            let why = match (&s.first_problem, s.other_variant) {
                (Some(p), _) => format!(" (first problem: {p})"),
                (None, n) if n > 0 => format!(" ({n} of another variant)"),
                _ => String::new(),
            };
            return fail(&format!(
                "{}: no game of {} with a legal move in {} game{}{why}",
                path.display(),
                v.name(),
                s.games,
                if s.games == 1 { "" } else { "s" }
            ));
        }
        bar.inc(1);
        bar.set_message(format!("{} games", import.summary().imported));
    }
    bar.finish_and_clear();
    let entries = import.entries(min_games);
    let written = match write(&out, v, &entries) {
        Ok(n) => n,
        Err(e) => return fail(&e.to_string()),
    };
    let s = import.summary();
    if s.other_variant > 0 {
        eprintln!(
            "warning: {} game{} of another variant skipped",
            s.other_variant,
            if s.other_variant == 1 { "" } else { "s" }
        );
    }
    if s.stopped > 0 {
        eprintln!(
            "warning: {} game{} stopped at a bad move or unreadable, the rest of each skipped \
             (first: {})",
            s.stopped,
            if s.stopped == 1 { "" } else { "s" },
            s.first_problem.as_deref().unwrap_or("?")
        );
    }
    let info = Book::new(v, entries).info();
    println!(
        "{}: {written} entries, {} positions ({} book) from {} games",
        out.display(),
        info.positions,
        v.name(),
        s.imported
    );
    ExitCode::SUCCESS
}

/// `damiera book merge`: the books read, merged, written.
fn run_merge(paths: &[PathBuf], out: &std::path::Path) -> ExitCode {
    let mut books = Vec::with_capacity(paths.len());
    for p in paths {
        match Book::open(p) {
            Ok(b) => books.push(b),
            Err(e) => return fail(&e.to_string()),
        }
    }
    let merged = match merge(&books) {
        Ok(m) => m,
        Err(MergeError::MixedVariants {
            index,
            expected,
            found,
        }) => {
            return fail(&format!(
                "{} is {}, {} is {}: books of one variant only",
                paths[index].display(),
                found.name(),
                paths[0].display(),
                expected.name()
            ))
        }
        Err(e) => return fail(&e.to_string()),
    };
    match write(out, merged.variant(), merged.entries()) {
        Ok(n) => {
            println!(
                "{}: {n} entries, {} positions ({} book)",
                out.display(),
                merged.info().positions,
                merged.variant().name()
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e.to_string()),
    }
}
