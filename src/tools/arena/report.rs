//! The totals of a match and its report: [`Tally`] (W-D-L, pentanomial pairs, endings, move
//! times), [`MatchReport`], the [`progress_line`] shown while the match runs and the
//! [`report_text`] printed at the end.

use crate::tools::arena::config::MatchConfig;
use crate::tools::arena::record::{GameRecord, MoveTimes, Reason};
use crate::tools::arena::stats::{self, Pentanomial, SprtState};
use serde::Serialize;
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Totals of a match so far.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games won, drawn and lost by the first engine.
    pub wdl: [u64; 3],
    /// Pentanomial counts of finished pairs (first engine's view).
    pub penta: Pentanomial,
    /// Endings by reason.
    pub reasons: HashMap<Reason, u64>,
    /// Move times per engine.
    pub times: [MoveTimes; 2],
    /// Times of the moves each engine played from its opening book (a subset of `times`).
    pub book: [MoveTimes; 2],
    /// Games played in this run, whose moves were timed (a game read back by `--resume` has
    /// no times).
    pub timed_games: u64,
    /// Half-finished pairs: pair number to the first engine's score in the finished game.
    pending: HashMap<usize, f64>,
}

impl Tally {
    /// Adds a finished game.
    pub fn add(&mut self, g: &GameRecord) {
        let s = g.first_engine_score();
        let k = if s == 1.0 {
            0
        } else if s == 0.5 {
            1
        } else {
            2
        };
        self.wdl[k] += 1;
        *self.reasons.entry(g.reason).or_default() += 1;
        self.times[0].merge(&g.times[0]);
        self.times[1].merge(&g.times[1]);
        self.book[0].merge(&g.book[0]);
        self.book[1].merge(&g.book[1]);
        if g.times.iter().any(|t| t.moves > 0) {
            self.timed_games += 1;
        }
        let pair = g.index / 2;
        if let Some(other) = self.pending.remove(&pair) {
            let idx = ((s + other) * 2.0).round() as usize;
            self.penta.counts[idx] += 1;
        } else {
            self.pending.insert(pair, s);
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wdl.iter().sum()
    }

    /// The first engine's mean score (0..1), 0.5 with no game.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            (self.wdl[0] as f64 + 0.5 * self.wdl[1] as f64) / n as f64
        }
    }
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The totals.
    pub tally: Tally,
    /// Every finished game, in the order of their numbers.
    pub games: Vec<GameRecord>,
    /// Whether the match was interrupted (Ctrl-C).
    pub interrupted: bool,
    /// The SPRT's final state, if any.
    pub sprt_state: Option<(f64, SprtState)>,
}

/// The progress line: games, W-D-L, score, Elo, LLR.
pub fn progress_line(cfg: &MatchConfig, t: &Tally) -> String {
    let mut s = format!(
        "{}-{}-{} score {:.1}%",
        t.wdl[0],
        t.wdl[1],
        t.wdl[2],
        100.0 * t.score()
    );
    if let Some(e) = t.penta.elo().filter(|_| t.penta.interval_meaningful()) {
        let _ = write!(
            s,
            " elo {:+.1} ±{:.1}",
            e.elo + 0.0,
            (e.upper - e.lower) / 2.0
        );
    }
    if let Some(sp) = &cfg.sprt {
        let (lo, hi) = sp.bounds();
        let _ = write!(s, " llr {:.2} ({lo:.2}, {hi:.2})", sp.llr(&t.penta));
    }
    s
}

/// The report printed at the end of a match.
pub fn report_text(cfg: &MatchConfig, r: &MatchReport) -> String {
    let t = &r.tally;
    let [a, b] = [&cfg.engines[0].name, &cfg.engines[1].name];
    let mut s = config_text(cfg);
    let _ = writeln!(
        s,
        "Games: {} of {}{}",
        t.games(),
        cfg.games,
        if r.interrupted { " (interrupted)" } else { "" }
    );
    let _ = writeln!(
        s,
        "Results ({a} first): W {} D {} L {}",
        t.wdl[0], t.wdl[1], t.wdl[2]
    );
    if t.games() == 0 {
        let _ = writeln!(s, "Score: n/a (no game)");
    } else {
        let _ = writeln!(s, "Score: {:.1}%", 100.0 * t.score());
    }
    let p = t.penta.counts;
    let _ = writeln!(
        s,
        "Pentanomial [0, 0.5, 1, 1.5, 2]: [{}, {}, {}, {}, {}] ({} pairs)",
        p[0],
        p[1],
        p[2],
        p[3],
        p[4],
        t.penta.pairs()
    );
    let _ = writeln!(s, "{}", elo_line(t));
    if let Some(sp) = &cfg.sprt {
        let llr = sp.llr(&t.penta);
        let (lo, hi) = sp.bounds();
        let state = match sp.state(llr) {
            SprtState::H0 => "H0 accepted",
            SprtState::H1 => "H1 accepted",
            SprtState::Continue => "continue",
        };
        let _ = writeln!(
            s,
            "SPRT: elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.2} ({lo:.2}, {hi:.2}) {state}",
            sp.elo0, sp.elo1, sp.alpha, sp.beta
        );
    }
    for (i, n) in [a, b].iter().enumerate() {
        let m = &t.times[i];
        let _ = writeln!(
            s,
            "Time per move, {n}: mean {:.1} ms, max {:.1} ms ({} moves)",
            m.mean_ms(),
            m.max_ms,
            m.moves
        );
        if let Some(line) = book_line(n, m, &t.book[i], t.timed_games) {
            s.push_str(&line);
        }
    }
    let endings: Vec<String> = Reason::ALL
        .iter()
        .filter_map(|r| t.reasons.get(r).map(|n| format!("{} {n}", r.text())))
        .collect();
    let _ = writeln!(
        s,
        "Endings: {}",
        if endings.is_empty() {
            "none".to_string()
        } else {
            endings.join(", ")
        }
    );
    s
}

/// The report's first lines: the engines, variant, time control, openings and adjudication.
fn config_text(cfg: &MatchConfig) -> String {
    let [a, b] = [&cfg.engines[0].name, &cfg.engines[1].name];
    let mut s = String::new();
    let _ = writeln!(s, "Match: {a} vs {b}");
    let _ = writeln!(s, "Variant: {}", cfg.variant);
    let _ = writeln!(s, "Time control: {}", cfg.tc.describe());
    let _ = writeln!(
        s,
        "Openings: {} ({} openings)",
        cfg.openings_source,
        cfg.openings.len()
    );
    if let Some(d) = cfg.draw_adjudication {
        let _ = writeln!(
            s,
            "Draw adjudication: after {} plies, both engines within ±{} cm for {} moves",
            d.after_plies, d.within_cm, d.moves
        );
    }
    if let Some(w) = cfg.win_adjudication {
        let _ = writeln!(
            s,
            "Win adjudication: both engines at least {} cm for one side for {} moves",
            w.margin_cm, w.moves
        );
    }
    s
}

/// The report's `Elo:` line (no newline): the pentanomial Elo with its 95% interval, or why
/// there is none.
fn elo_line(t: &Tally) -> String {
    match t.penta.elo() {
        Some(e) if !t.penta.interval_meaningful() => format!(
            "Elo: {:+.1} (no interval: {})",
            e.elo + 0.0,
            if t.penta.pairs() < stats::MIN_PAIRS_FOR_INTERVAL {
                format!(
                    "{} of the {} pairs it needs",
                    t.penta.pairs(),
                    stats::MIN_PAIRS_FOR_INTERVAL
                )
            } else {
                "every pair scored the same".to_string()
            }
        ),
        Some(e) => {
            let half = (e.upper - e.lower) / 2.0;
            let pm = if half.is_finite() {
                format!("{half:.1}")
            } else {
                "inf".to_string()
            };
            format!(
                "Elo: {:+.1} ± {pm} (95%: {:+.1} .. {:+.1}, pentanomial)",
                e.elo + 0.0,
                e.lower + 0.0,
                e.upper + 0.0
            )
        }
        None => "Elo: n/a (no finished pair)".to_string(),
    }
}

/// The totals on one line of JSON, for programs that drive matches (docs/cluster.md):
/// `{"games":N,"of":M,"w":W,"d":D,"l":L,"penta":[5 counts],"elo":E,"lower":LO,"upper":HI,
/// "llr":X,"sprt":"H0"|"H1"|"continue"}` from the first engine's view; `elo` (logistic) is
/// `null` without a finished pair, `lower` and `upper` (the 95% pentanomial interval) also
/// when [`report_text`] prints no interval, `llr` and `sprt` without `--sprt`.
pub fn summary_json(cfg: &MatchConfig, r: &MatchReport) -> String {
    let t = &r.tally;
    // Numbers as the report has always written them: three decimals (`null` when not finite).
    let num = |x: Option<f64>| {
        x.filter(|v| v.is_finite())
            .and_then(|v| RawValue::from_string(format!("{:.3}", v + 0.0)).ok())
    };
    let e = t.penta.elo();
    let interval = t.penta.interval_meaningful();
    let (llr, sprt) = match &cfg.sprt {
        Some(sp) => {
            let llr = sp.llr(&t.penta);
            let state = match sp.state(llr) {
                SprtState::H0 => "H0",
                SprtState::H1 => "H1",
                SprtState::Continue => "continue",
            };
            (num(Some(llr)), Some(state))
        }
        None => (None, None),
    };
    let summary = Summary {
        games: t.games(),
        of: cfg.games,
        w: t.wdl[0],
        d: t.wdl[1],
        l: t.wdl[2],
        penta: t.penta.counts,
        elo: num(e.map(|e| e.elo)),
        lower: num(e.filter(|_| interval).map(|e| e.lower)),
        upper: num(e.filter(|_| interval).map(|e| e.upper)),
        llr,
        sprt,
    };
    serde_json::to_string(&summary).expect("a summary is plain JSON")
}

/// The report's line on an engine's book moves (`None` if it played none): how many, a game,
/// their mean time, and the thinking time they saved a game (book moves times the difference
/// between the mean searched move and the mean book move, in milliseconds).
fn book_line(name: &str, all: &MoveTimes, book: &MoveTimes, games: u64) -> Option<String> {
    if book.moves == 0 || games == 0 {
        return None;
    }
    let searched = MoveTimes {
        total_ms: all.total_ms - book.total_ms,
        max_ms: 0.0,
        moves: all.moves - book.moves,
    };
    let per_game = book.moves as f64 / games as f64;
    let saved = per_game * (searched.mean_ms() - book.mean_ms()).max(0.0);
    Some(format!(
        "Book moves, {name}: {} ({per_game:.2} a game, mean {:.1} ms against {:.1} ms searched: \
         {saved:.0} ms saved a game)\n",
        book.moves,
        book.mean_ms(),
        searched.mean_ms()
    ))
}

/// The fields of [`summary_json`], in its order.
#[derive(Serialize)]
struct Summary {
    games: u64,
    of: usize,
    w: u64,
    d: u64,
    l: u64,
    penta: [u64; 5],
    elo: Option<Box<RawValue>>,
    lower: Option<Box<RawValue>>,
    upper: Option<Box<RawValue>>,
    llr: Option<Box<RawValue>>,
    sprt: Option<&'static str>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::variant::Variant;
    use crate::engine::Depth;
    use crate::tools::arena::config::TimeControl;
    use crate::tools::arena::engine_spec::{EngineSpec, Protocol};
    use crate::tools::arena::stats::Sprt;

    fn config() -> MatchConfig {
        let spec = |n: &str| EngineSpec {
            name: n.to_string(),
            command: vec![n.to_string()],
            protocol: Protocol::Native,
            options: Vec::new(),
        };
        MatchConfig {
            variant: Variant::English,
            engines: [spec("a"), spec("b")],
            openings: Vec::new(),
            openings_source: "none".to_string(),
            games: 2,
            tc: TimeControl {
                depth: Some(Depth(1)),
                ..TimeControl::default()
            },
            concurrency: 1,
            sprt: None,
            egdb: None,
            draw_adjudication: None,
            win_adjudication: None,
            max_plies: 10,
            event: String::new(),
            done: Vec::new(),
            pairs: None,
        }
    }

    #[test]
    fn the_book_line_counts_book_moves_and_the_time_they_saved() {
        // 10 moves in 910 ms, 2 of them from the book in 10 ms, over 2 games: the 8 searched
        // moves took 112.5 ms each, a book move 5 ms, so 1 book move a game saved 107.5 ms.
        let all = MoveTimes {
            total_ms: 910.0,
            max_ms: 120.0,
            moves: 10,
        };
        let book = MoveTimes {
            total_ms: 10.0,
            max_ms: 6.0,
            moves: 2,
        };
        let line = book_line("a", &all, &book, 2).unwrap();
        assert_eq!(
            line,
            "Book moves, a: 2 (1.00 a game, mean 5.0 ms against 112.5 ms searched: 108 ms saved \
             a game)\n"
        );
        assert_eq!(book_line("a", &all, &MoveTimes::default(), 2), None);
    }

    #[test]
    fn no_score_and_no_interval_before_they_mean_something() {
        let cfg = config();
        let empty = MatchReport {
            tally: Tally::default(),
            games: Vec::new(),
            interrupted: true,
            sprt_state: None,
        };
        let text = report_text(&cfg, &empty);
        assert!(text.contains("Score: n/a (no game)"), "{text}");
        assert!(text.contains("Elo: n/a (no finished pair)"), "{text}");
        let mut tally = Tally::default();
        // Nine pairs of different scores: an estimate, no interval yet.
        tally.penta.counts = [2, 2, 1, 2, 2];
        let text = report_text(
            &cfg,
            &MatchReport {
                tally: tally.clone(),
                ..empty.clone()
            },
        );
        assert!(
            text.contains("Elo: +0.0 (no interval: 9 of the 10 pairs it needs)"),
            "{text}"
        );
        assert!(!progress_line(&cfg, &tally).contains("elo"));
        // Ten pairs that all scored the same: still no interval.
        tally.penta.counts = [0, 0, 10, 0, 0];
        let text = report_text(
            &cfg,
            &MatchReport {
                tally: tally.clone(),
                ..empty.clone()
            },
        );
        assert!(text.contains("every pair scored the same"), "{text}");
        // Ten pairs that differ: the interval.
        tally.penta.counts = [2, 2, 2, 2, 2];
        let text = report_text(&cfg, &MatchReport { tally, ..empty });
        assert!(text.contains("Elo: +0.0 ± "), "{text}");
    }

    #[test]
    fn the_json_summary_says_what_the_text_says() {
        let mut cfg = config();
        let empty = MatchReport {
            tally: Tally::default(),
            games: Vec::new(),
            interrupted: false,
            sprt_state: None,
        };
        assert_eq!(
            summary_json(&cfg, &empty),
            "{\"games\":0,\"of\":2,\"w\":0,\"d\":0,\"l\":0,\"penta\":[0,0,0,0,0],\
             \"elo\":null,\"lower\":null,\"upper\":null,\"llr\":null,\"sprt\":null}"
        );
        // Nine pairs: an estimate but no interval, as in the text.
        let mut tally = Tally {
            wdl: [6, 6, 6],
            ..Tally::default()
        };
        tally.penta.counts = [2, 2, 1, 2, 2];
        let nine = MatchReport {
            tally: tally.clone(),
            ..empty.clone()
        };
        let json = summary_json(&cfg, &nine);
        assert!(
            json.contains("\"w\":6,\"d\":6,\"l\":6,\"penta\":[2,2,1,2,2],\"elo\":0.000,\"lower\":null,\"upper\":null"),
            "{json}"
        );
        // Ten differing pairs: the interval of the text, and the SPRT's state.
        tally.penta.counts = [2, 2, 2, 2, 2];
        cfg.sprt = Some(Sprt::parse("0,10").expect("sprt"));
        let ten = MatchReport { tally, ..empty };
        let (json, text) = (summary_json(&cfg, &ten), report_text(&cfg, &ten));
        let lower = json
            .split("\"lower\":")
            .nth(1)
            .and_then(|r| r.split(',').next())
            .and_then(|v| v.parse::<f64>().ok())
            .expect("a lower bound");
        assert!(
            text.contains(&format!("95%: {lower:+.1} ..")),
            "{json}\n{text}"
        );
        assert!(json.ends_with("\"sprt\":\"continue\"}"), "{json}");
    }
}
