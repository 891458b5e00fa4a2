//! Trains damiera's evaluation network ([`damiera::engine::eval::network`]) from self-play
//! data (DMSP files, [`damiera::tools::learn::data`]) with candle on the CPU, and exports it
//! as a quantised [`Network`] (docs/training.md, "Training the network"). [`patterns`] fits
//! Italian Damone's pattern weights ([`damiera::engine::eval::learned`]) to the same data.
//!
//! The float model mirrors the integer one layer by layer: the first layer (inputs -> `H`,
//! shared by both perspectives) on each perspective's 0/1 features ([`Shape::features`]),
//! clipped ReLU to `[0, 1]`, the side to move's 128 then the other's, then in the layer stack
//! of the position's piece count ([`Shape::stack`]; [`Config::stacks`] of them) 256 -> 32
//! clipped ReLU, 32 -> 32 clipped ReLU, 32 -> 1: the output in men (1.0 = 100 centi-men), side
//! to move's view. Every stack is computed for every position and the position's own is
//! picked by a one-hot mask, so each stack learns from its positions only.

pub mod patterns;

use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use damiera::egdb::{Egdb, Wld};
use damiera::engine::eval::network::{
    Network, Shape, H, L1_OUT, L2, L3, MAX_BIAS, MAX_STACKS, QA, QW,
};
use damiera::engine::eval::{Evaluate, Planes};
use damiera::tools::learn::data::{Outcome, Sample};
use damiera::{Brazilian, English, International, Italian, Rules, Russian, Variant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Candle's errors as one-line strings.
fn err(e: candle_core::Error) -> String {
    e.to_string()
}

/// Training options (the binary's flags).
#[derive(Clone, Debug)]
pub struct Config {
    /// AdamW's learning rate.
    pub lr: f64,
    /// Weight of the search score in the target (1 - `lambda`: the game result).
    pub lambda: f32,
    /// The sigmoid's scale `K` in centi-men: a score `s` stands for `sigmoid(s / K)`.
    pub scale: f32,
    /// Layer stacks by piece count (1 to [`MAX_STACKS`]; [`Shape::stack`]); a network to
    /// start from ([`Trainer::from_network`]) brings its own.
    pub stacks: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            lr: 1e-3,
            lambda: 0.7,
            scale: 200.0,
            stacks: 1,
        }
    }
}

/// The float network and its optimiser.
pub struct Trainer {
    variant: Variant,
    shape: Shape,
    cfg: Config,
    /// First layer `[n][H]` (input-major, as [`Network::from_float`] takes it) and biases.
    w1: Var,
    b1: Var,
    /// Dense layers stored `[in][out]` (transposed for export), the stacks side by side:
    /// `w2` `[L1_OUT][stacks * L2]` (stack `s`'s outputs at columns `s * L2 ..`), `b2`
    /// `[stacks * L2]`, `w3` `[stacks][L2][L3]`, `b3` `[stacks][1][L3]`, `w4`
    /// `[stacks][L3][1]`, `b4` `[stacks][1][1]`.
    w2: Var,
    b2: Var,
    w3: Var,
    b3: Var,
    w4: Var,
    b4: Var,
    opt: AdamW,
    /// Bound of the first layer's weights and biases: bias plus every piece of a full board
    /// stays within `i16` in 1/[`QA`].
    l1_bound: f32,
}

/// A batch's inputs and targets: dense 0/1 features of the side to move's perspective and
/// the other's (`B x n`), each position's layer stack as a one-hot row (`B x stacks`), and
/// the target `t` (`B x 1`).
pub struct Batch {
    us: Tensor,
    them: Tensor,
    stack: Tensor,
    target: Tensor,
}

impl Trainer {
    /// A float network of PyTorch-style random weights (uniform in ±1/sqrt(fan-in)) drawn
    /// from `seed`, with [`Config::stacks`] layer stacks.
    ///
    /// # Errors
    /// Stacks out of range, or candle's.
    pub fn new(variant: Variant, cfg: Config, seed: u64) -> Result<Trainer, String> {
        let shape = Shape::of(variant);
        let n = shape.inputs();
        let st = cfg.stacks;
        if !(1..=MAX_STACKS).contains(&st) {
            return Err(format!("{st} layer stacks: 1 to {MAX_STACKS}"));
        }
        let mut rng = StdRng::seed_from_u64(seed);
        let mut uniform = |fan_in: usize, len: usize| -> Vec<f32> {
            let a = 1.0 / (fan_in as f32).sqrt();
            (0..len).map(|_| rng.gen_range(-a..a)).collect()
        };
        let weights = [
            uniform(n, n * H),
            uniform(n, H),
            uniform(L1_OUT, L1_OUT * st * L2),
            uniform(L1_OUT, st * L2),
            uniform(L2, st * L2 * L3),
            uniform(L2, st * L3),
            uniform(L3, st * L3),
            uniform(L3, st),
        ];
        Trainer::with_weights(variant, cfg, weights)
    }

    /// A float network that starts from `net`'s weights, dequantised (the first layer's in
    /// 1/[`QA`], dense weights in 1/[`QW`], dense biases in 1/(`QA`·`QW`)): training goes on
    /// from a shipped network instead of from random weights, with `net`'s layer stacks; a
    /// network of one stack and [`Config::stacks`] above 1 start that many stacks, each a copy
    /// of its one. [`Trainer::export`] before any step gives `net` back exactly (or, copied,
    /// a network that evaluates every position as `net` does).
    ///
    /// # Errors
    /// Candle's.
    pub fn from_network(net: &Network, mut cfg: Config) -> Result<Trainer, String> {
        let variant = net.variant();
        // A network of one stack may seed several: each starts as a copy of it.
        let copies = match (net.stacks(), cfg.stacks) {
            (1, n @ 2..=MAX_STACKS) => n,
            _ => 1,
        };
        cfg.stacks = net.stacks() * copies;
        let stacks = (0..copies).flat_map(|_| 0..net.stacks());
        let n = net.shape().inputs();
        let qa = QA as f32;
        let qw = QW as f32;
        let qb = (QA * QW) as f32;
        let w1: Vec<f32> = (0..n)
            .flat_map(|f| net.l1_weights(f).iter().map(|&w| f32::from(w) / qa))
            .collect();
        let b1: Vec<f32> = net.l1_biases().iter().map(|&b| f32::from(b) / qa).collect();
        // `[out][in]` rows to the trainer's `[in][out]`; `w2`'s stacks side by side.
        let w2: Vec<f32> = (0..L1_OUT)
            .flat_map(|i| {
                let stacks = stacks.clone();
                stacks.flat_map(move |s| net.l2(s).0.iter().map(move |row| f32::from(row[i]) / qw))
            })
            .collect();
        let w3: Vec<f32> = stacks
            .clone()
            .flat_map(|s| {
                let rows = net.l3(s).0;
                (0..L2).flat_map(move |i| rows.iter().map(move |row| f32::from(row[i]) / qw))
            })
            .collect();
        let weights = [
            w1,
            b1,
            w2,
            stacks
                .clone()
                .flat_map(|s| net.l2(s).1.iter().map(|&b| b as f32 / qb))
                .collect(),
            w3,
            stacks
                .clone()
                .flat_map(|s| net.l3(s).1.iter().map(|&b| b as f32 / qb))
                .collect(),
            stacks
                .clone()
                .flat_map(|s| net.output(s).0.iter().map(|&w| f32::from(w) / qw))
                .collect(),
            stacks.map(|s| net.output(s).1 as f32 / qb).collect(),
        ];
        Trainer::with_weights(variant, cfg, weights)
    }

    /// The trainer over the given float weights: the first layer `[inputs][H]` and its
    /// biases, then each dense layer `[in][out]` and its biases.
    fn with_weights(
        variant: Variant,
        cfg: Config,
        weights: [Vec<f32>; 8],
    ) -> Result<Trainer, String> {
        let shape = Shape::of(variant);
        let n = shape.inputs();
        let st = cfg.stacks;
        let dims: [&[usize]; 8] = [
            &[n, H],
            &[H],
            &[L1_OUT, st * L2],
            &[st * L2],
            &[st, L2, L3],
            &[st, 1, L3],
            &[st, L3, 1],
            &[st, 1, 1],
        ];
        let vars = weights
            .into_iter()
            .zip(dims)
            .map(|(w, d)| {
                Var::from_tensor(&Tensor::from_vec(w, d, &Device::Cpu).map_err(err)?).map_err(err)
            })
            .collect::<Result<Vec<Var>, String>>()?;
        let opt = AdamW::new(
            vars.clone(),
            ParamsAdamW {
                lr: cfg.lr,
                ..Default::default()
            },
        )
        .map_err(err)?;
        let [w1, b1, w2, b2, w3, b3, w4, b4]: [Var; 8] = vars
            .try_into()
            .map_err(|_| "eight weight tensors expected".to_string())?;
        // Pieces on a full board: 24 on 8x8, 40 on 10x10, 16 in Italian Damone (the start's).
        let pieces = shape.start_pieces() as f32;
        let l1_bound = (f32::from(i16::MAX) - 0.5) / QA as f32 / (pieces + 1.0);
        let t = Trainer {
            variant,
            shape,
            cfg,
            w1,
            b1,
            w2,
            b2,
            w3,
            b3,
            w4,
            b4,
            opt,
            l1_bound,
        };
        t.clamp().map_err(err)?;
        Ok(t)
    }

    /// The variant trained.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The options.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// The dense 0/1 features (`rows x n`) of the given perspective of each position:
    /// `stm` true for the side to move's, false for the other's.
    fn features(&self, ps: &[Planes], stm: bool) -> candle_core::Result<Tensor> {
        let n = self.shape.inputs();
        let mut x = vec![0f32; ps.len() * n];
        for (row, p) in ps.iter().enumerate() {
            let f = self.shape.features(p);
            let persp = usize::from(p.black_to_move == stm);
            for &i in &f[persp] {
                x[row * n + i as usize] = 1.0;
            }
        }
        Tensor::from_vec(x, (ps.len(), n), &Device::Cpu)
    }

    /// Each position's layer stack as a one-hot row (`rows x stacks`).
    fn stacks(&self, ps: &[Planes]) -> candle_core::Result<Tensor> {
        let st = self.cfg.stacks;
        let mut x = vec![0f32; ps.len() * st];
        for (row, p) in ps.iter().enumerate() {
            x[row * st + self.shape.stack_of(p, st)] = 1.0;
        }
        Tensor::from_vec(x, (ps.len(), st), &Device::Cpu)
    }

    /// The inputs and targets of `samples`: `t = lambda * sigmoid(score_stm / K) + (1 -
    /// lambda) * result_stm`, the score and the result (0, 0.5, 1) from the side to move's
    /// view.
    ///
    /// # Errors
    /// Candle's.
    pub fn batch(&self, samples: &[Sample]) -> Result<Batch, String> {
        let ps: Vec<Planes> = samples.iter().map(|s| s.planes).collect();
        let (lambda, k) = (self.cfg.lambda, self.cfg.scale);
        let t: Vec<f32> = samples
            .iter()
            .map(|s| {
                let white = s.outcome.white_score();
                let (score, result) = if s.planes.black_to_move {
                    (-f32::from(s.score), 1.0 - white)
                } else {
                    (f32::from(s.score), white)
                };
                lambda * sigmoid(score / k) + (1.0 - lambda) * result
            })
            .collect();
        (|| {
            Ok(Batch {
                us: self.features(&ps, true)?,
                them: self.features(&ps, false)?,
                stack: self.stacks(&ps)?,
                target: Tensor::from_vec(t, (samples.len(), 1), &Device::Cpu)?,
            })
        })()
        .map_err(err)
    }

    /// The float network's output (`B x 1`, men, side to move's view); `stack` the one-hot
    /// stack of each row (`B x stacks`).
    fn forward(&self, us: &Tensor, them: &Tensor, stack: &Tensor) -> candle_core::Result<Tensor> {
        let l1 = |x: &Tensor| {
            x.matmul(self.w1.as_tensor())?
                .broadcast_add(self.b1.as_tensor())?
                .clamp(0f32, 1f32)
        };
        let a1 = Tensor::cat(&[&l1(us)?, &l1(them)?], 1)?;
        let rows = a1.dim(0)?;
        // `B x stacks*L2`, then `stacks x B x L2`: each stack's second layer on every row.
        let a2 = a1
            .matmul(self.w2.as_tensor())?
            .broadcast_add(self.b2.as_tensor())?
            .clamp(0f32, 1f32)?
            .reshape((rows, self.cfg.stacks, L2))?
            .transpose(0, 1)?
            .contiguous()?;
        let a3 = a2
            .matmul(self.w3.as_tensor())?
            .broadcast_add(self.b3.as_tensor())?
            .clamp(0f32, 1f32)?;
        // `stacks x B x 1` to `B x stacks`, then each row's own stack.
        a3.matmul(self.w4.as_tensor())?
            .broadcast_add(self.b4.as_tensor())?
            .squeeze(2)?
            .t()?
            .mul(stack)?
            .sum_keepdim(1)
    }

    /// Mean squared error between `sigmoid(100 * output / K)` and the target.
    fn loss_tensor(&self, b: &Batch) -> candle_core::Result<Tensor> {
        let out = self.forward(&b.us, &b.them, &b.stack)?;
        let p = candle_nn::ops::sigmoid(&out.affine(100.0 / f64::from(self.cfg.scale), 0.0)?)?;
        candle_nn::loss::mse(&p, &b.target)
    }

    /// The loss of the current weights on a batch (no update).
    ///
    /// # Errors
    /// Candle's.
    pub fn loss(&self, b: &Batch) -> Result<f32, String> {
        (|| {
            self.loss_tensor(b)?
                .to_dtype(DType::F32)?
                .to_scalar::<f32>()
        })()
        .map_err(err)
    }

    /// One AdamW step on a batch, then the weights clamped to what the quantisation holds;
    /// returns the batch's loss before the step.
    ///
    /// # Errors
    /// Candle's.
    pub fn step(&mut self, b: &Batch) -> Result<f32, String> {
        (|| {
            let loss = self.loss_tensor(b)?;
            self.opt.backward_step(&loss)?;
            self.clamp()?;
            loss.to_scalar::<f32>()
        })()
        .map_err(err)
    }

    /// Sets AdamW's learning rate (a schedule's step).
    pub fn set_learning_rate(&mut self, lr: f64) {
        self.opt.set_learning_rate(lr);
    }

    /// Clamps the weights into the integer network's ranges: first layer and its biases
    /// within ±`l1_bound` (so the accumulator's sums fit `i16`), dense weights in `[-2,
    /// 127/64]` (`i8` in 1/[`QW`]), dense biases within ±[`MAX_BIAS`] in 1/([`QA`] * [`QW`]).
    fn clamp(&self) -> candle_core::Result<()> {
        let (l1, wmax) = (self.l1_bound, 127.0 / QW as f32);
        let bmax = MAX_BIAS as f32 / (QA * QW) as f32;
        for v in [&self.w1, &self.b1] {
            v.set(&v.as_tensor().clamp(-l1, l1)?)?;
        }
        for v in [&self.w2, &self.w3, &self.w4] {
            v.set(&v.as_tensor().clamp(-2f32, wmax)?)?;
        }
        for v in [&self.b2, &self.b3, &self.b4] {
            v.set(&v.as_tensor().clamp(-bmax, bmax)?)?;
        }
        Ok(())
    }

    /// The float network's evaluation of `p` in centi-men, side to move's view.
    ///
    /// # Errors
    /// Candle's.
    pub fn eval_centi(&self, p: &Planes) -> Result<f32, String> {
        (|| {
            let ps = [*p];
            let (us, them) = (self.features(&ps, true)?, self.features(&ps, false)?);
            let out = self.forward(&us, &them, &self.stacks(&ps)?)?;
            Ok(100.0 * out.flatten_all()?.to_vec1::<f32>()?[0])
        })()
        .map_err(err)
    }

    /// The quantised network ([`Network::from_float`]).
    ///
    /// # Errors
    /// A weight out of range (not after [`Trainer::step`]'s clamping), or candle's.
    pub fn export(&self) -> Result<Network, String> {
        let flat = |v: &Var| -> Result<Vec<f32>, String> {
            v.as_tensor()
                .flatten_all()
                .and_then(|t| t.to_vec1::<f32>())
                .map_err(err)
        };
        // `[in][out]` to `[out][in]` (each stack's for `[stacks][in][out]`).
        let rows = |v: &Var| -> Result<Vec<f32>, String> {
            let t = v.as_tensor();
            t.transpose(t.rank() - 2, t.rank() - 1)
                .and_then(|t| t.contiguous())
                .and_then(|t| t.flatten_all())
                .and_then(|t| t.to_vec1::<f32>())
                .map_err(err)
        };
        Network::from_float(
            self.variant,
            &flat(&self.w1)?,
            &flat(&self.b1)?,
            &rows(&self.w2)?,
            &flat(&self.b2)?,
            &rows(&self.w3)?,
            &flat(&self.b3)?,
            &flat(&self.w4)?,
            &flat(&self.b4)?,
        )
    }
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The score (centi-men, side to move) a position the endgame databases hold as won gets as
/// its label ([`label_with_egdb`]): `sigmoid(1000 / 200)` = 0.993.
pub const DB_WIN_SCORE: i16 = 1000;

/// Labels the quiet positions the endgame databases `db` hold by their value instead of the
/// self-play search: a win for the side to move scores [`DB_WIN_SCORE`] and counts as won, a
/// loss the opposite, a draw 0 and drawn (the databases' value without the draw counters,
/// docs/egdb.md). `db` must be `v`'s tables. Returns how many samples were relabelled.
pub fn label_with_egdb(v: Variant, db: &Egdb, samples: &mut [Sample]) -> usize {
    fn label<R: Rules>(db: &Egdb, samples: &mut [Sample]) -> usize {
        let mut n = 0;
        for s in samples.iter_mut() {
            let pos = <R as Evaluate>::from_planes(&s.planes);
            let Some(p) = db.probe(&pos) else { continue };
            let (stm_score, stm_result) = match p.value {
                Wld::Win => (DB_WIN_SCORE, 2),
                Wld::Draw => (0, 1),
                Wld::Loss => (-DB_WIN_SCORE, 0),
            };
            let (score, white) = if s.planes.black_to_move {
                (-stm_score, 2 - stm_result)
            } else {
                (stm_score, stm_result)
            };
            s.score = score;
            s.outcome = match white {
                2 => Outcome::WhiteWin,
                1 => Outcome::Draw,
                _ => Outcome::BlackWin,
            };
            n += 1;
        }
        n
    }
    match v {
        Variant::English => label::<English>(db, samples),
        Variant::Italian => label::<Italian>(db, samples),
        Variant::Brazilian => label::<Brazilian>(db, samples),
        Variant::Russian => label::<Russian>(db, samples),
        Variant::International => label::<International>(db, samples),
        // No databases: Italian Damone's three ranks, the goals of Antidraughts and
        // Breakthrough, which the databases' values do not follow, and Frisian's king-move
        // count, which their index does not hold.
        Variant::Damone
        | Variant::Antidraughts
        | Variant::Breakthrough
        | Variant::Frisian
        | Variant::Frysk => 0,
    }
}

/// Drops every sample whose position (pieces and side to move) came earlier in `samples`,
/// keeping the first; returns how many were dropped.
pub fn dedup(samples: &mut Vec<Sample>) -> usize {
    let before = samples.len();
    let mut seen = std::collections::HashSet::with_capacity(before);
    samples.retain(|s| {
        let p = &s.planes;
        seen.insert((p.white, p.black, p.rank2, p.rank3, p.black_to_move))
    });
    before - samples.len()
}
