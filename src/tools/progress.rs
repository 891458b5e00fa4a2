//! The progress bars of the long commands (`match`, `selfplay`, `analyse --pdn`, `perft`,
//! `egdb build` and `egdb play`, `book build` and `book import`, and the trainer's pattern
//! fit): indicatif set up in one place. Each command keeps its own template (what it counts);
//! every bar draws on stderr, so stdout stays the command's output.

pub use indicatif::ProgressBar;
use indicatif::{ProgressDrawTarget, ProgressStyle};

/// A bar of `len` steps drawn on stderr with `template` (indicatif's template language, e.g.
/// `"{bar:30} {pos}/{len} games {msg}"`). A template indicatif refuses falls back to its
/// default bar rather than failing the command.
pub fn bar(len: u64, template: &str) -> ProgressBar {
    styled(
        ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr()),
        template,
    )
}

/// As [`bar`], but drawn nowhere until [`show`]: for work that wants a bar only once it has
/// lasted long enough, or only when asked for (`selfplay` without `progress`).
pub fn hidden_bar(len: u64, template: &str) -> ProgressBar {
    styled(
        ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden()),
        template,
    )
}

/// Starts drawing a bar made by [`hidden_bar`] on stderr.
pub fn show(bar: &ProgressBar) {
    bar.set_draw_target(ProgressDrawTarget::stderr());
}

fn styled(bar: ProgressBar, template: &str) -> ProgressBar {
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}
