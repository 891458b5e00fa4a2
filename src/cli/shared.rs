//! What the subcommands share: the one-line usage errors ([`fail`]), variant names
//! ([`variant`]), the `--hash` range ([`hash_mib`]) and the evaluations of an `--eval-file`
//! ([`evaluations`]).

use damiera::core::variant::Variant;
use damiera::engine::eval::Evaluation;
use std::process::ExitCode;

/// A usage error: `error: <msg>` on stderr and exit status 2.
pub fn fail(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// A variant by name (one line naming the accepted names if unknown).
pub fn variant(name: &str) -> Result<Variant, String> {
    name.parse::<Variant>().map_err(|e| e.to_string())
}

/// The `--hash` of every shell tool: MiB from 1 to [`damiera::engine::MAX_HASH_MIB`], the
/// range the protocols' `Hash` option takes too; outside it a one-line error (printed here)
/// and exit status 2.
pub fn hash_mib(mib: u64) -> Result<usize, ExitCode> {
    let max = damiera::engine::MAX_HASH_MIB;
    match usize::try_from(mib) {
        Ok(m) if (1..=max).contains(&m) => Ok(m),
        _ => {
            eprintln!("error: --hash {mib}: a hash table is 1 to {max} MiB");
            Err(ExitCode::from(2))
        }
    }
}

/// The evaluations an `--eval-file` sets: for `variant` only, or without one (a PDN file's
/// games, a web page's games say theirs) for each variant the file fits (`hand` fits all).
///
/// # Errors
/// The file does not fit `variant`, or fits no variant: the reader's one line.
pub fn evaluations(
    variant: Option<Variant>,
    path: &str,
) -> Result<Vec<(Variant, Evaluation)>, String> {
    let results: Vec<_> = variant
        .map_or(Variant::ALL.to_vec(), |v| vec![v])
        .into_iter()
        .map(|v| (v, Evaluation::from_eval_file(v, path)))
        .collect();
    if let Some((_, Err(e))) = results
        .iter()
        .find(|(_, r)| r.is_err())
        .filter(|_| variant.is_some() || results.iter().all(|(_, r)| r.is_err()))
    {
        return Err(e.clone());
    }
    Ok(results
        .into_iter()
        .filter_map(|(v, r)| r.ok().map(|e| (v, e)))
        .collect())
}
