//! Match statistics: Elo from a score, the pentanomial (game-pair) model and its 95%
//! interval, and the generalised SPRT (GSPRT) on pentanomial results.
//!
//! Sources (formulas re-derived and written here, no code copied):
//! - Elo from a mean score `s`: `-400 log10(1/s - 1)` (the logistic Elo model; fishtest
//!   `stat_util.py` `elo`, fastchess `elo.cpp`).
//! - Pentanomial mean and variance: a pair of games with colors reversed scores 0, ½, 1, 1½
//!   or 2; normalised per game these are `x = 0, 0.25, 0.5, 0.75, 1`. With frequencies `p_i`
//!   over `N` pairs, `μ = Σ p_i x_i`, `σ² = Σ p_i (x_i - μ)²` (per pair), and the standard
//!   error of `μ` is `sqrt(σ²/N)`. The 95% interval of the score is `μ ± 1.959964·sqrt(σ²/N)`,
//!   mapped to Elo through the formula above (fastchess `EloPentanomial`, fishtest
//!   `stat_util.py` `get_elo` with pentanomial results).
//! - GSPRT: Michel Van den Bergh's generalised SPRT as in fishtest `LLRcalc.py`
//!   (`LLR_logistic`): with `s0 = L(elo0)`, `s1 = L(elo1)` (`L(e) = 1/(1+10^(-e/400))`), the
//!   log-likelihood ratio is `N · Σ p_i ln(q1_i / q0_i)`, where `q_j` is the maximum-likelihood
//!   distribution on the same five outcomes whose mean is `s_j`:
//!   `q_i = p_i / (1 + θ (x_i - s_j))`, `θ` solving `Σ p_i (x_i - s_j)/(1 + θ (x_i - s_j)) = 0`.
//!   Zero counts are replaced by 0.001 first (fishtest `regularize`, fastchess `regularize`).
//!   The bounds are `ln(β/(1-α))` and `ln((1-β)/α)` (Wald). The normal approximation
//!   `LLR ≈ (s1-s0)(2μ-s0-s1)/(2σ²/N)` (cutechess, early fastchess `getPentaLLR`) is
//!   [`llr_normal`], kept as a cross-check.

/// The 95% two-sided normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Expected score (0..1) of a side `elo` logistic Elo points stronger.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Logistic Elo difference of a mean score `s` in 0..1 (±infinity at 1 and 0).
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if s >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Pentanomial counts: `counts[i]` pairs scored `i/2` points out of 2 (i = 0..=4) from the
/// first engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs with 0, ½, 1, 1½ and 2 points.
    pub counts: [u64; 5],
}

/// The per-game pair score of outcome `i` (0, 0.25, 0.5, 0.75, 1).
fn x(i: usize) -> f64 {
    i as f64 / 4.0
}

/// An Elo estimate with its 95% interval (logistic Elo points).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Mean score per game, 0..1.
    pub score: f64,
    /// Elo of the mean score.
    pub elo: f64,
    /// Elo of the lower end of the 95% score interval.
    pub lower: f64,
    /// Elo of the upper end of the 95% score interval.
    pub upper: f64,
}

/// The fewest finished pairs for which an Elo interval is printed: below that the normal
/// approximation behind it (and the variance of so few pairs) says little.
pub const MIN_PAIRS_FOR_INTERVAL: u64 = 10;

impl Pentanomial {
    /// Whether the 95% interval means something: at least [`MIN_PAIRS_FOR_INTERVAL`] pairs,
    /// and pairs that did not all score the same (a zero variance gives a zero-width interval
    /// whatever the number of pairs).
    pub fn interval_meaningful(&self) -> bool {
        self.pairs() >= MIN_PAIRS_FOR_INTERVAL && self.mean_var().is_some_and(|(_, var)| var > 0.0)
    }

    /// Number of finished pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean score per game and the variance of the per-game pair score (per pair); `None`
    /// with no pairs.
    pub fn mean_var(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let mu: f64 = (0..5).map(|i| self.counts[i] as f64 * x(i)).sum::<f64>() / n;
        let var: f64 = (0..5)
            .map(|i| self.counts[i] as f64 * (x(i) - mu).powi(2))
            .sum::<f64>()
            / n;
        Some((mu, var))
    }

    /// Elo and its 95% interval from the pentanomial mean and variance; `None` with no pairs.
    pub fn elo(&self) -> Option<EloEstimate> {
        let (mu, var) = self.mean_var()?;
        let se = (var / self.pairs() as f64).sqrt();
        Some(EloEstimate {
            score: mu,
            elo: elo_of_score(mu),
            lower: elo_of_score(mu - Z95 * se),
            upper: elo_of_score(mu + Z95 * se),
        })
    }

    /// The regularised frequencies (zero counts become 0.001) and their total.
    fn regularized(&self) -> ([f64; 5], f64) {
        let c = self.counts.map(|n| if n == 0 { 1e-3 } else { n as f64 });
        let total: f64 = c.iter().sum();
        (c.map(|v| v / total), total)
    }
}

/// The maximum-likelihood distribution on the outcomes `x(i)` with mean `s`, closest to `p`
/// (fishtest `LLRcalc.MLE_expected`): `q_i = p_i / (1 + θ (x_i - s))`.
fn mle_with_mean(p: &[f64; 5], s: f64) -> [f64; 5] {
    // g(θ) = Σ p_i (x_i - s) / (1 + θ (x_i - s)) is decreasing in θ on the interval where
    // every denominator is positive: θ in (-1/(1 - s), 1/s) for outcomes spanning 0..1.
    let g = |t: f64| -> f64 {
        (0..5)
            .map(|i| p[i] * (x(i) - s) / (1.0 + t * (x(i) - s)))
            .sum()
    };
    let eps = 1e-12;
    let (mut lo, mut hi) = (-1.0 / (1.0 - s) + eps, 1.0 / s - eps);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = 0.5 * (lo + hi);
    let mut q = [0.0; 5];
    for i in 0..5 {
        q[i] = p[i] / (1.0 + t * (x(i) - s));
    }
    let sum: f64 = q.iter().sum();
    q.map(|v| v / sum)
}

/// SPRT parameters: hypotheses in logistic Elo and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// LLR at or below the lower bound: H0 accepted.
    H0,
    /// LLR at or above the upper bound: H1 accepted.
    H1,
    /// Neither bound reached.
    Continue,
}

impl Sprt {
    /// Parses `ELO0,ELO1[,ALPHA,BETA]` (alpha and beta default to 0.05).
    ///
    /// # Errors
    /// A malformed list, `elo0 >= elo1`, or alpha/beta outside (0, 1) or summing to 1 or more.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let v: Result<Vec<f64>, _> = text.split(',').map(|t| t.trim().parse::<f64>()).collect();
        let v = v.map_err(|_| format!("--sprt '{text}': expected ELO0,ELO1[,ALPHA,BETA]"))?;
        let s = match v.as_slice() {
            [e0, e1] => Sprt {
                elo0: *e0,
                elo1: *e1,
                alpha: 0.05,
                beta: 0.05,
            },
            [e0, e1, a, b] => Sprt {
                elo0: *e0,
                elo1: *e1,
                alpha: *a,
                beta: *b,
            },
            _ => return Err(format!("--sprt '{text}': expected ELO0,ELO1[,ALPHA,BETA]")),
        };
        if s.elo0 >= s.elo1 {
            return Err(format!("--sprt '{text}': ELO0 must be below ELO1"));
        }
        if !(s.alpha > 0.0 && s.beta > 0.0 && s.alpha + s.beta < 1.0) {
            return Err(format!(
                "--sprt '{text}': ALPHA and BETA must be in (0, 1), sum below 1"
            ));
        }
        Ok(s)
    }

    /// The lower (accept H0) and upper (accept H1) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The GSPRT log-likelihood ratio of H1 against H0 (0 with no pairs).
    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        if penta.pairs() == 0 {
            return 0.0;
        }
        let (p, n) = penta.regularized();
        let q0 = mle_with_mean(&p, score_of_elo(self.elo0));
        let q1 = mle_with_mean(&p, score_of_elo(self.elo1));
        n * (0..5).map(|i| p[i] * (q1[i] / q0[i]).ln()).sum::<f64>()
    }

    /// The state for a given LLR.
    pub fn state(&self, llr: f64) -> SprtState {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::H1
        } else if llr <= lo {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

/// The normal approximation of the pentanomial GSPRT LLR,
/// `(s1 - s0)(2μ - s0 - s1) / (2σ²/N)` (0 with no pairs or no variance).
pub fn llr_normal(sprt: &Sprt, penta: &Pentanomial) -> f64 {
    let Some((mu, var)) = penta.mean_var() else {
        return 0.0;
    };
    if var == 0.0 {
        return 0.0;
    }
    let (s0, s1) = (score_of_elo(sprt.elo0), score_of_elo(sprt.elo1));
    (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var / penta.pairs() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_formula() {
        // -400 log10(1/s - 1): s = 0.75 gives 400 log10 3 = 190.848...; s = 0.5 gives 0;
        // s = 0.64 gives the well-known ~100 Elo (L(100) = 0.6400649998).
        assert!(close(elo_of_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_of_score(0.5), 0.0, 1e-12));
        assert!(close(score_of_elo(100.0), 0.640_064_999_802_885, 1e-12));
        assert!(close(elo_of_score(score_of_elo(-37.0)), -37.0, 1e-9));
    }

    #[test]
    fn pentanomial_interval_by_hand() {
        // Counts [5, 10, 30, 15, 10] (70 pairs), computed independently in python from the
        // published formulas (fastchess elo.cpp / fishtest stat_util.py):
        // mu = (0*5 + .25*10 + .5*30 + .75*15 + 1*10)/70 = 38.75/70 = 0.5535714...
        // var = Σ c_i (x_i - mu)^2 / 70 = 0.0730229591836...
        // Elo(mu) = 37.36867; interval mu ± 1.959964·sqrt(var/70) gives -6.76350 .. 82.74273.
        let p = Pentanomial {
            counts: [5, 10, 30, 15, 10],
        };
        let (mu, var) = p.mean_var().unwrap();
        assert!(close(mu, 38.75 / 70.0, 1e-12));
        assert!(close(var, 0.073_022_959_183_673_46, 1e-12));
        let e = p.elo().unwrap();
        assert!(close(e.elo, 37.368_674_064_894, 1e-9), "{e:?}");
        assert!(close(e.lower, -6.763_497_743_613, 1e-9), "{e:?}");
        assert!(close(e.upper, 82.742_732_615_583, 1e-9), "{e:?}");
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let s = Sprt::parse("0,5").unwrap();
        let (lo, hi) = s.bounds();
        // ln(0.05/0.95) = -2.944438979...; the usual ±2.94.
        assert!(close(lo, -2.944_438_979_166_44, 1e-12));
        assert!(close(hi, 2.944_438_979_166_44, 1e-12));
        // Expected values computed by hand in python from fishtest's published LLR_logistic
        // (MLE under each hypothesis, same regularisation) and from the normal approximation.
        let p = Pentanomial {
            counts: [20, 150, 400, 180, 30],
        };
        let s = Sprt::parse("0,10").unwrap();
        assert!(close(s.llr(&p), LLR_EXACT, 1e-6), "{}", s.llr(&p));
        assert!(
            close(llr_normal(&s, &p), LLR_NORMAL, 1e-6),
            "{}",
            llr_normal(&s, &p)
        );
        // No results: LLR 0.
        assert_eq!(s.llr(&Pentanomial::default()), 0.0);
        assert_eq!(s.state(3.0), SprtState::H1);
        assert_eq!(s.state(-3.0), SprtState::H0);
        assert_eq!(s.state(0.0), SprtState::Continue);
        assert!(Sprt::parse("5,0").is_err());
        assert!(Sprt::parse("0,5,0.6,0.6").is_err());
    }

    // Counts [20, 150, 400, 180, 30], elo0 0, elo1 10: computed in python from fishtest's
    // LLR_logistic formulas with a Newton root finder (the Rust code bisects), and from the
    // normal approximation (cutechess / early fastchess getPentaLLR).
    const LLR_EXACT: f64 = 2.342_206_528_315_794;
    const LLR_NORMAL: f64 = 2.348_036_909_338_177;
}
