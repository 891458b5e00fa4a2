//! `damiera-train patterns`: fits pattern weights ([`damiera::engine::eval::learned`], a
//! `DMEV` file; the built-in evaluation of every variant is a network)
//! to self-play positions by the Texel method: minimise the logistic (cross-entropy) loss between
//! `sigmoid(eval / scale)` and a target mixing the game result and the self-play search score,
//! `lambda · result + (1 − lambda) · sigmoid(score / scale)`, with Adam over mini-batches.
//! `eval` is the score the engine keeps: in International king endings the engine scales the
//! learned score by the hand-set `drawish_scale`, and the fit goes through the same factor
//! (fitted raw, drawn king endings pulled a king's value down to 19 centi-men;
//! docs/journal/pattern-weights.md).
//!
//! `scale` (centi-men) is fitted first: the one that best predicts the results from the search
//! scores. At the end all weights are multiplied so that a man is worth exactly 100: the
//! evaluation is in centi-men, the unit of the search's margins. Whole games are
//! held out (the last `holdout` share of the games), and the loss on them is reported before
//! and after training. Everything is deterministic: positions are shuffled by a fixed seed and
//! threads sum their gradients in a fixed order.

use damiera::core::dispatch::Dispatch;
use damiera::core::variant::Variant;
use damiera::core::variant_position::VariantPosition;
use damiera::engine::eval::damone::DAMA;
use damiera::engine::eval::damone::DAMONE;
use damiera::engine::eval::damone::PEDINE;
use damiera::engine::eval::drawish_planes;
use damiera::engine::eval::learned::{
    dense_features, pattern_indices_both, phase, views, Layout, DENSE, DENSE_NAMES, MAX_WINDOWS,
    PATTERNS,
};
use damiera::engine::eval::{hand, Net};
use damiera::tools::learn::data::{Outcome, Sample};
use damiera::tools::progress::{self, ProgressBar};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// The variant (its kings fly or not; its hand-set material is the starting point).
    pub variant: Variant,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam's step size in centi-men (decays to a tenth over the run).
    pub lr: f32,
    /// Weight of the result in the target, 0..=1.
    pub lambda: f32,
    /// Share of the games held out, 0..0.5.
    pub holdout: f64,
    /// L2 penalty on pattern weights (per weight, on the mean loss).
    pub l2: f32,
    /// Adjudication threshold in centi-men, 0 for none: a game in which one side's search
    /// score is at least this for [`ADJUDICATE_RUN`] recorded positions in a row counts as
    /// that side's win, whatever its recorded result (see [`adjudicate`]).
    pub adjudicate: i32,
    /// Threads computing gradients.
    pub threads: usize,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// Starting weights in centi-men, `(mg, eg)` as [`Net::to_centi_men`] gives them (a
    /// weights file to train further on new data), instead of [`starting_point`]'s material
    /// values.
    pub init: Option<(Vec<f32>, Vec<f32>)>,
}

/// What a training run produced.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// The fitted weights.
    pub net: Net,
    /// Their layout (the variant's board).
    pub layout: Layout,
    /// The sigmoid scale of the saved weights, centi-men: the fitted one, rescaled with the
    /// weights so that a man is worth 100.
    pub scale: f32,
    /// Training and held-out positions.
    pub positions: (usize, usize),
    /// Held-out loss of the starting weights (material only, or [`TrainConfig::init`]).
    pub holdout_start: f64,
    /// Held-out loss of the self-play search scores themselves (a reference).
    pub holdout_search: f64,
    /// Training and held-out loss after each epoch.
    pub epochs: Vec<(f64, f64)>,
    /// Games whose result adjudication changed.
    pub adjudicated: usize,
}

impl TrainReport {
    /// The held-out loss at the end.
    pub fn holdout_end(&self) -> f64 {
        self.epochs.last().map_or(self.holdout_start, |e| e.1)
    }

    /// A human-readable summary: losses, and the counted terms' weights.
    pub fn text(&self) -> String {
        let mut s = format!(
            "positions: {} training, {} held out; scale {:.1} centi-men; {} games adjudicated\n\
             held-out loss: start {:.5}, end {:.5} (the search scores themselves: {:.5})\n",
            self.positions.0,
            self.positions.1,
            self.scale,
            self.adjudicated,
            self.holdout_start,
            self.holdout_end(),
            self.holdout_search
        );
        for (i, (t, h)) in self.epochs.iter().enumerate() {
            s += &format!("epoch {:>3}: training {t:.5}, held out {h:.5}\n", i + 1);
        }
        let (mg, eg) = self.net.to_centi_men();
        let (d, stm) = (self.layout.dense_offset, self.layout.stm);
        s += "term            middle game   endgame (centi-men)\n";
        for (i, name) in DENSE_NAMES.iter().enumerate() {
            s += &format!("{name:<15} {:>11.1} {:>9.1}\n", mg[d + i], eg[d + i]);
        }
        s += &format!(
            "{:<15} {:>11.1} {:>9.1}\n",
            "side-to-move", mg[stm], eg[stm]
        );
        s
    }
}

/// Indices where a new game starts in a file's samples (the ply does not increase).
pub fn game_starts(samples: &[Sample]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut prev: Option<u8> = None;
    for (i, s) in samples.iter().enumerate() {
        let new = match prev {
            None => true,
            Some(p) => s.ply < p || (s.ply == p && p != 255),
        };
        if new {
            starts.push(i);
        }
        prev = Some(s.ply);
    }
    starts
}

/// Recorded positions in a row that [`adjudicate`] asks for.
pub const ADJUDICATE_RUN: usize = 4;

/// Adjudicated results, one per game of `starts`: `Some(outcome)` for a game in which one
/// side's search score (White's view, centi-men) was at least `threshold` for
/// [`ADJUDICATE_RUN`] recorded positions in a row and whose recorded result is not already
/// that side's win; `None` otherwise, or when `threshold` is 0.
///
/// Why: fast self-play does not convert won endings well (docs/journal/pattern-weights.md: in
/// the English data a side a piece up with under 4 pieces left scored only 53.5%), so a
/// recorded draw often follows a won position. An arbiter would have scored it a win, as match
/// rules adjudicate a game both engines see as decided.
pub fn adjudicate(samples: &[Sample], starts: &[usize], threshold: i32) -> Vec<Option<Outcome>> {
    let mut out = vec![None; starts.len()];
    if threshold <= 0 {
        return out;
    }
    for (g, &a) in starts.iter().enumerate() {
        let b = starts.get(g + 1).copied().unwrap_or(samples.len());
        let (mut side, mut run) = (0i8, 0usize);
        for s in &samples[a..b] {
            let sc = s.score as i32;
            let now = if sc >= threshold {
                1
            } else if sc <= -threshold {
                -1
            } else {
                0
            };
            run = if now != 0 && now == side { run + 1 } else { 1 };
            side = now;
            if side != 0 && run >= ADJUDICATE_RUN {
                let won = if side > 0 {
                    Outcome::WhiteWin
                } else {
                    Outcome::BlackWin
                };
                if samples[a].outcome != won {
                    out[g] = Some(won);
                }
                break;
            }
        }
    }
    out
}

/// One position's features, precomputed.
#[derive(Clone)]
struct Row {
    /// Pattern weights: the first `windows` of the layout count +1 (White's view), the next
    /// `windows` −1; the rest is unused.
    idx: [u32; 2 * MAX_WINDOWS],
    /// Counted terms, White's minus Black's.
    dense: [i16; DENSE],
    /// +1 White to move, −1 Black.
    stm: i8,
    phase: u8,
    /// Sixteenths of the evaluation the engine keeps when White leads and when Black does
    /// (International king endings, [`drawish_planes`]; 16 elsewhere).
    draw: [u8; 2],
    target: f32,
    result: f32,
    score: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn cross_entropy(t: f32, p: f32) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6) as f64;
    let t = t as f64;
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

fn row<const TEN: bool>(s: &Sample, flying: bool) -> Row {
    let l = Layout::board(TEN);
    let [wv, bv] = views::<TEN>(&s.planes);
    let mut idx = [0u32; 2 * MAX_WINDOWS];
    let (iw, ib) = pattern_indices_both::<TEN>(wv.men, wv.opp_men);
    for w in 0..l.windows {
        idx[w] = (w * PATTERNS + iw[w] as usize) as u32;
        idx[l.windows + w] = (w * PATTERNS + ib[w] as usize) as u32;
    }
    let (fw, fb) = (
        dense_features::<TEN>(&wv, flying),
        dense_features::<TEN>(&bv, flying),
    );
    let mut dense = [0i16; DENSE];
    for i in 0..DENSE {
        dense[i] = (fw[i] - fb[i]) as i16;
    }
    Row {
        idx,
        dense,
        stm: if s.planes.black_to_move { -1 } else { 1 },
        phase: phase(&s.planes, l) as u8,
        draw: if TEN {
            [1, -1].map(|sign| drawish_planes(&s.planes, sign) as u8)
        } else {
            [16, 16]
        },
        target: 0.0,
        result: s.outcome.white_score(),
        score: s.score as f32,
    }
}

/// The evaluation of a row (White's view, centi-men) with float weights.
#[inline]
fn eval_row(r: &Row, mg: &[f32], eg: &[f32], l: Layout) -> f32 {
    let (mut m, mut e) = (0f32, 0f32);
    for (k, &i) in r.idx[..2 * l.windows].iter().enumerate() {
        let sign = if k < l.windows { 1.0 } else { -1.0 };
        m += sign * mg[i as usize];
        e += sign * eg[i as usize];
    }
    for (j, &d) in r.dense.iter().enumerate() {
        if d != 0 {
            m += d as f32 * mg[l.dense_offset + j];
            e += d as f32 * eg[l.dense_offset + j];
        }
    }
    m += r.stm as f32 * mg[l.stm];
    e += r.stm as f32 * eg[l.stm];
    let ph = r.phase as f32 / l.phase_max as f32;
    m * ph + e * (1.0 - ph)
}

/// The evaluation the engine runs on a row: [`eval_row`] times the share of it the engine
/// keeps in International king endings; returns the evaluation and that share.
#[inline]
fn eval_kept(r: &Row, mg: &[f32], eg: &[f32], l: Layout) -> (f32, f32) {
    let e = eval_row(r, mg, eg, l);
    let share = r.draw[usize::from(e <= 0.0)] as f32 / 16.0;
    (e * share, share)
}

fn mean_loss(rows: &[Row], mg: &[f32], eg: &[f32], scale: f32, l: Layout) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    rows.iter()
        .map(|r| cross_entropy(r.target, sigmoid(eval_kept(r, mg, eg, l).0 / scale)))
        .sum::<f64>()
        / rows.len() as f64
}

/// The scale that best predicts the results from the search scores (golden-section search on
/// 20..2000 centi-men).
fn fit_scale(rows: &[Row]) -> f32 {
    let loss = |s: f32| -> f64 {
        rows.iter()
            .map(|r| cross_entropy(r.result, sigmoid(r.score / s)))
            .sum::<f64>()
    };
    let (mut a, mut b) = (20f32, 2000f32);
    let g = 0.618_034f32;
    for _ in 0..40 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if loss(c) < loss(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Adds the gradient of the mean loss over `rows` (scaled by `1 / n`) at the weights
/// `(mg, eg)` into `gm`, `ge`.
fn gradient(
    rows: &[Row],
    (mg, eg): (&[f32], &[f32]),
    scale: f32,
    n: f32,
    gm: &mut [f32],
    ge: &mut [f32],
    l: Layout,
) {
    for r in rows {
        let (e, share) = eval_kept(r, mg, eg, l);
        let g = (sigmoid(e / scale) - r.target) / scale / n * share;
        let ph = r.phase as f32 / l.phase_max as f32;
        let (a, b) = (g * ph, g * (1.0 - ph));
        for (k, &i) in r.idx[..2 * l.windows].iter().enumerate() {
            let sign = if k < l.windows { 1.0 } else { -1.0 };
            gm[i as usize] += sign * a;
            ge[i as usize] += sign * b;
        }
        for (j, &d) in r.dense.iter().enumerate() {
            if d != 0 {
                gm[l.dense_offset + j] += d as f32 * a;
                ge[l.dense_offset + j] += d as f32 * b;
            }
        }
        gm[l.stm] += r.stm as f32 * a;
        ge[l.stm] += r.stm as f32 * b;
    }
}

/// The starting weights: the hand-set material values, everything else 0.
pub fn starting_point(v: Variant) -> (Vec<f32>, Vec<f32>) {
    let l = Layout::of(v);
    let mut mg = vec![0f32; l.features];
    let (man, king, damone) = match v {
        Variant::Damone => (PEDINE, DAMA, DAMONE),
        _ => {
            let w = hand::weights(v);
            (w.man, w.king, 0)
        }
    };
    mg[l.dense_offset] = man as f32;
    mg[l.dense_offset + 1] = king as f32;
    mg[l.dense_offset + 2] = damone as f32;
    (mg.clone(), mg)
}

/// Whether the variant's kings fly (the king-reach term): the rules' `FLYING_KINGS`.
pub fn flying(v: Variant) -> bool {
    VariantPosition::start(v).flying_kings()
}

/// Fits weights to `samples` (`starts`: the index of each game's first sample, increasing).
///
/// # Errors
/// No positions to train on.
pub fn train(
    cfg: &TrainConfig,
    samples: &[Sample],
    starts: &[usize],
) -> Result<TrainReport, String> {
    if samples.is_empty() {
        return Err("no training positions".into());
    }
    let l = Layout::of(cfg.variant);
    let (mut train_rows, held_rows, scale, adjudicated) = rows(cfg, samples, starts);
    let (mut mg, mut eg) = match &cfg.init {
        Some((m, e)) if m.len() == l.features && e.len() == l.features => (m.clone(), e.clone()),
        Some(_) => return Err("the starting weights are for another board".into()),
        None => starting_point(cfg.variant),
    };
    let holdout_start = mean_loss(&held_rows, &mg, &eg, scale, l);
    let holdout_search = if held_rows.is_empty() {
        0.0
    } else {
        held_rows
            .iter()
            .map(|r| cross_entropy(r.target, sigmoid(r.score / scale)))
            .sum::<f64>()
            / held_rows.len() as f64
    };
    let epochs = fit(cfg, &mut train_rows, &held_rows, scale, (&mut mg, &mut eg));
    // Centi-men: rescale so that a man is worth 100 (the search's margins are in those units);
    // the sigmoid's scale follows.
    let man = mg[l.dense_offset];
    let factor = if man > 1.0 { 100.0 / man } else { 1.0 };
    for w in mg.iter_mut().chain(eg.iter_mut()) {
        *w *= factor;
    }
    Ok(TrainReport {
        net: Net::from_centi_men(&mg, &eg),
        layout: l,
        scale: scale * factor,
        positions: (train_rows.len(), held_rows.len()),
        holdout_start,
        holdout_search,
        epochs,
        adjudicated,
    })
}

/// The training rows (shuffled) and the held-out ones of `samples` (the last `cfg.holdout`
/// share of the games), their results adjudicated ([`adjudicate`]) and their targets set, the
/// fitted sigmoid scale, and how many games adjudication changed.
fn rows(
    cfg: &TrainConfig,
    samples: &[Sample],
    starts: &[usize],
) -> (Vec<Row>, Vec<Row>, f32, usize) {
    let fly = flying(cfg.variant);
    let ten = cfg.variant.squares() == 50;
    // Hold out the last games.
    let held_games = ((starts.len() as f64) * cfg.holdout).round() as usize;
    let split = if held_games == 0 || held_games >= starts.len() {
        samples.len()
    } else {
        starts[starts.len() - held_games]
    };
    let mut rows: Vec<Row> = samples
        .iter()
        .map(|s| {
            if ten {
                row::<true>(s, fly)
            } else {
                row::<false>(s, fly)
            }
        })
        .collect();
    let verdicts = adjudicate(samples, starts, cfg.adjudicate);
    let adjudicated = verdicts.iter().flatten().count();
    for (g, v) in verdicts.iter().enumerate() {
        if let Some(o) = v {
            let b = starts.get(g + 1).copied().unwrap_or(rows.len());
            for r in &mut rows[starts[g]..b] {
                r.result = o.white_score();
            }
        }
    }
    let mut held_rows = rows.split_off(split);
    let mut train_rows = rows;
    let scale = fit_scale(&train_rows);
    for r in train_rows.iter_mut().chain(held_rows.iter_mut()) {
        r.target = cfg.lambda * r.result + (1.0 - cfg.lambda) * sigmoid(r.score / scale);
    }
    train_rows.shuffle(&mut StdRng::seed_from_u64(0));
    (train_rows, held_rows, scale, adjudicated)
}

/// Adam over `cfg.epochs` passes of mini-batches of `train_rows` from the weights `(mg, eg)`
/// (updated in place): the training and held-out loss after each epoch.
fn fit(
    cfg: &TrainConfig,
    train_rows: &mut [Row],
    held_rows: &[Row],
    scale: f32,
    (mg, eg): (&mut Vec<f32>, &mut Vec<f32>),
) -> Vec<(f64, f64)> {
    let l = Layout::of(cfg.variant);
    let n = l.features;
    let (mut m1, mut v1) = (vec![0f32; 2 * n], vec![0f32; 2 * n]);
    let threads = cfg.threads.max(1);
    let mut grads: Vec<(Vec<f32>, Vec<f32>)> = (0..threads)
        .map(|_| (vec![0f32; n], vec![0f32; n]))
        .collect();
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let steps_per_epoch = train_rows.len().div_ceil(cfg.batch);
    let bar = progress_bar(cfg.progress, (cfg.epochs as usize * steps_per_epoch) as u64);
    let mut epochs = Vec::new();
    let total_steps = (cfg.epochs as usize * steps_per_epoch).max(1) as f32;
    for _ in 0..cfg.epochs {
        for batch in train_rows.chunks(cfg.batch) {
            let chunk = batch.len().div_ceil(threads);
            let bn = batch.len() as f32;
            std::thread::scope(|s| {
                for (part, (gm, ge)) in batch.chunks(chunk).zip(grads.iter_mut()) {
                    let (mg, eg) = (&*mg, &*eg);
                    s.spawn(move || {
                        gm.fill(0.0);
                        ge.fill(0.0);
                        gradient(part, (mg, eg), scale, bn, gm, ge, l);
                    });
                }
            });
            let used = batch.chunks(chunk).count();
            step += 1;
            let lr = cfg.lr * (1.0 - 0.9 * step as f32 / total_steps);
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for i in 0..2 * n {
                let (w, k) = if i < n {
                    (&mut *mg, i)
                } else {
                    (&mut *eg, i - n)
                };
                let mut g: f32 = grads[..used]
                    .iter()
                    .map(|(gm, ge)| if i < n { gm[k] } else { ge[k] })
                    .sum();
                if k < l.dense_offset {
                    g += cfg.l2 * w[k];
                }
                m1[i] = b1 * m1[i] + (1.0 - b1) * g;
                v1[i] = b2 * v1[i] + (1.0 - b2) * g * g;
                w[k] -= lr * (m1[i] / c1) / ((v1[i] / c2).sqrt() + eps);
            }
            // Material has one value whatever the phase: the endgame results of fast self-play
            // undervalue a lead (weak technique draws won endings), which would teach the
            // engine to avoid trading when ahead.
            for k in l.dense_offset..l.dense_offset + 3 {
                let avg = (mg[k] + eg[k]) / 2.0;
                mg[k] = avg;
                eg[k] = avg;
            }
            bar.inc(1);
        }
        let t = mean_loss(train_rows, mg, eg, scale, l);
        let h = mean_loss(held_rows, mg, eg, scale, l);
        bar.set_message(format!("training loss {t:.5}, held out {h:.5}"));
        epochs.push((t, h));
    }
    bar.finish_and_clear();
    epochs
}

/// A progress bar of `len` steps on stderr (`show`), or a hidden one.
fn progress_bar(show: bool, len: u64) -> ProgressBar {
    let bar = progress::hidden_bar(
        len,
        "[{elapsed_precise}] {bar:30} {pos}/{len} steps, eta {eta} {msg}",
    );
    if show {
        progress::show(&bar);
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use damiera::core::notation::parse_fen;
    use damiera::core::rules::{International, Russian};
    use damiera::engine::eval::{evaluate10, planes, Evaluate};

    #[test]
    fn games_start_where_the_ply_does_not_increase() {
        let at = |ply| Sample {
            planes: Default::default(),
            score: 0,
            outcome: Outcome::Draw,
            ply,
        };
        let s: Vec<Sample> = [8, 9, 12, 8, 10, 255, 255, 9].into_iter().map(at).collect();
        assert_eq!(game_starts(&s), vec![0, 3, 7]);
    }

    #[test]
    fn adjudication_scores_a_game_won_by_a_run_of_search_scores() {
        let at = |ply, score, outcome| Sample {
            planes: Default::default(),
            score,
            outcome,
            ply,
        };
        use Outcome::*;
        // A game's samples from ply 8 on, one per search score.
        let game = |scores: &[i16], outcome: Outcome| -> Vec<Sample> {
            (8u8..)
                .zip(scores)
                .map(|(ply, &sc)| at(ply, sc, outcome))
                .collect()
        };
        let s = [
            // Game 0, drawn: White +300 three times, then 0, then four times: a White win.
            game(&[300, 310, 305, 0, 300, 300, 300, 350], Draw),
            // Game 1, drawn: Black's run of three, one short.
            game(&[-400; 3], Draw),
            // Game 2, won by White: Black's run of four comes first, so Black's win.
            game(&[-300, -301, -302, -303, 3000], WhiteWin),
            // Game 3, won by White already: nothing to change.
            game(&[300; 4], WhiteWin),
            // Game 4, White's scores alternate with Black's: no run.
            game(&[300, -300, 300, -300], Draw),
        ]
        .concat();
        let starts = game_starts(&s);
        assert_eq!(starts, vec![0, 8, 11, 16, 20]);
        assert_eq!(
            adjudicate(&s, &starts, 300),
            vec![Some(WhiteWin), None, Some(BlackWin), None, None]
        );
        // A higher threshold leaves game 0 alone; 0 adjudicates nothing.
        assert_eq!(adjudicate(&s, &starts, 351)[0], None);
        assert_eq!(adjudicate(&s, &starts, 0), vec![None; 5]);
    }

    /// The float evaluation the trainer fits and the integer one the engine runs agree (up
    /// to rounding) on positions of random games of `G`, for a net with random weights.
    fn evaluate_alike<G: Evaluate, const TEN: bool>(fly: bool) {
        use damiera::core::moves::MoveList;
        use rand::Rng;
        let l = Layout::board(TEN);
        let mut rng = StdRng::seed_from_u64(2);
        let mg: Vec<f32> = (0..l.features)
            .map(|_| rng.gen_range(-50.0..50.0))
            .collect();
        let eg: Vec<f32> = (0..l.features)
            .map(|_| rng.gen_range(-50.0..50.0))
            .collect();
        let net = Net::from_centi_men(&mg, &eg);
        let (mg, eg) = net.to_centi_men();
        let mut list = MoveList::new();
        for _ in 0..30 {
            let mut pos = G::start();
            for _ in 0..60 {
                G::generate(&pos, &mut list, damiera::Duplicates::Drop);
                if list.is_empty() {
                    break;
                }
                pos = G::make(&pos, &list[rng.gen_range(0..list.len())]);
                let planes = G::planes(&pos);
                let s = Sample {
                    planes,
                    score: 0,
                    outcome: Outcome::Draw,
                    ply: 0,
                };
                let float = eval_row(&row::<TEN>(&s, fly), &mg, &eg, l);
                let stm = net.evaluate::<TEN>(&planes, fly);
                let white = if planes.black_to_move { -stm } else { stm };
                assert!((float - white as f32).abs() <= 1.0, "{float} vs {white}");
            }
        }
    }

    #[test]
    fn training_and_engine_evaluate_alike() {
        evaluate_alike::<Russian, false>(true);
        evaluate_alike::<International, true>(true);
    }

    /// In International king endings the engine keeps only a share of the learned score
    /// (`hand::drawish_scale`); the trainer fits that same kept score. Random sparse positions
    /// with kings, a net with random weights.
    #[test]
    fn training_fits_the_score_the_engine_keeps_in_king_endings() {
        use rand::Rng;
        use International;
        let l = Layout::board(true);
        let mut rng = StdRng::seed_from_u64(3);
        let mut w = || -> Vec<f32> {
            (0..l.features)
                .map(|_| rng.gen_range(-50.0..50.0))
                .collect()
        };
        let net = Net::from_centi_men(&w(), &w());
        let (mg, eg) = net.to_centi_men();
        let mut scaled = 0;
        for i in 0..2000 {
            // Up to six pieces on distinct squares, kings anywhere, men off their crowning row.
            let mut squares: Vec<u32> = (1..=50).collect();
            squares.shuffle(&mut rng);
            let n = 2 + i % 5;
            let side = |k: usize| if k.is_multiple_of(2) { 'W' } else { 'B' };
            let mut fen = [String::new(), String::new()];
            for (k, &sq) in squares[..n].iter().enumerate() {
                let crown = if side(k) == 'W' { sq <= 5 } else { sq > 45 };
                let king = crown || rng.gen_bool(0.5);
                let entry = format!("{}{sq}", if king { "K" } else { "" });
                let f = &mut fen[k % 2];
                f.push_str(if f.is_empty() { "" } else { "," });
                f.push_str(&entry);
            }
            let stm = if rng.gen_bool(0.5) { 'W' } else { 'B' };
            let text = format!("{stm}:W{}:B{}", fen[0], fen[1]);
            let pos = parse_fen::<International>(&text).expect("random FEN");
            let s = Sample {
                planes: planes(&pos),
                score: 0,
                outcome: Outcome::Draw,
                ply: 0,
            };
            let r = row::<true>(&s, true);
            let (float, share) = eval_kept(&r, &mg, &eg, l);
            scaled += usize::from(share < 1.0);
            let stm = evaluate10(&net, &pos);
            let white = if s.planes.black_to_move { -stm } else { stm };
            assert!(
                (float - white as f32).abs() <= 2.0,
                "{text}: {float} vs {white}"
            );
        }
        assert!(
            scaled > 500,
            "only {scaled} positions were king endings the engine scales"
        );
    }

    #[test]
    fn training_starts_from_given_weights() {
        use rand::Rng;
        let v = Variant::International;
        let l = Layout::of(v);
        let mut rng = StdRng::seed_from_u64(3);
        let mut mg: Vec<f32> = (0..l.features)
            .map(|_| rng.gen_range(-50.0..50.0))
            .collect();
        let mut eg: Vec<f32> = (0..l.features)
            .map(|_| rng.gen_range(-50.0..50.0))
            .collect();
        // A man worth 100 in both phases: the final rescaling leaves the weights alone.
        mg[l.dense_offset] = 100.0;
        eg[l.dense_offset] = 100.0;
        let net = Net::from_centi_men(&mg, &eg);
        let start = {
            use damiera::core::draughts::Play;
            use Evaluate;
            International::planes(&International::start())
        };
        let samples: Vec<Sample> = (0..40u8)
            .map(|ply| Sample {
                planes: start,
                score: 0,
                outcome: Outcome::Draw,
                ply,
            })
            .collect();
        let mut cfg = TrainConfig {
            variant: v,
            epochs: 0,
            batch: 16,
            lr: 1.0,
            lambda: 0.7,
            holdout: 0.0,
            l2: 0.0,
            adjudicate: 0,
            threads: 1,
            progress: false,
            init: Some(net.to_centi_men()),
        };
        // No epochs: the weights come out as they went in (and not as the material values).
        let out = train(&cfg, &samples, &[0]).unwrap().net;
        assert_eq!(out.to_bytes(v), net.to_bytes(v));
        cfg.init = None;
        let material = train(&cfg, &samples, &[0]).unwrap().net;
        assert_ne!(material.to_bytes(v), net.to_bytes(v));
        // Weights of the 8x8 layout do not fit the 10x10 board.
        let small = Layout::of(Variant::Russian).features;
        cfg.init = Some((vec![0.0; small], vec![0.0; small]));
        assert!(train(&cfg, &samples, &[0]).is_err());
    }

    #[test]
    fn the_fitted_scale_recovers_the_one_that_made_the_results() {
        // Results drawn from sigmoid(score / 150): the fit finds about 150.
        use rand::Rng;
        let mut rng = StdRng::seed_from_u64(1);
        let rows: Vec<Row> = (0..20_000)
            .map(|_| {
                let score: f32 = rng.gen_range(-600.0..600.0);
                let p = sigmoid(score / 150.0);
                let result = if rng.gen::<f32>() < p { 1.0 } else { 0.0 };
                Row {
                    idx: [0; 2 * MAX_WINDOWS],
                    dense: [0; DENSE],
                    stm: 1,
                    phase: 0,
                    draw: [16, 16],
                    target: 0.0,
                    result,
                    score,
                }
            })
            .collect();
        let s = fit_scale(&rows);
        assert!((135.0..165.0).contains(&s), "{s}");
    }
}
