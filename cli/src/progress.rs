//! A progress line on standard error for long runs (`indicatif`), drawn
//! only when standard error is a terminal and not before a run has taken
//! [`DELAY`], so pipes, logs, scripts and short runs see nothing.
//!
//! Counted work (`items`, `bytes`) draws a bar; a phase without a
//! measurable amount (parsing text, writing bytecode) is one call that
//! cannot report, so it is shown as its name and elapsed time, redrawn by
//! `indicatif`'s ticker thread.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Runs shorter than this never show a bar.
const DELAY: Duration = Duration::from_millis(400);
/// Redraw at most this often.
const PERIOD: Duration = Duration::from_millis(100);

const ITEMS: &str = "{msg} [{bar:30}] {percent:>3}% ({pos}/{len})";
const BYTES: &str = "{msg} [{bar:30}] {percent:>3}% ({binary_bytes}/{binary_total_bytes})";
const PHASE: &str = "{msg}… {elapsed}";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    None,
    Items,
    Bytes,
    Phase,
}

pub struct Progress {
    enabled: bool,
    start: Instant,
    last: Option<Instant>,
    bar: ProgressBar,
    shape: Shape,
    /// Whether the bar draws to standard error yet (after [`DELAY`]).
    shown: Arc<AtomicBool>,
    /// Shows a phase that started before [`DELAY`] once it has passed.
    reveal: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// A bar that draws only if standard error is a terminal.
    pub fn for_stderr() -> Self {
        Self::new(std::io::stderr().is_terminal())
    }

    pub fn new(enabled: bool) -> Self {
        Progress {
            enabled,
            start: Instant::now(),
            last: None,
            bar: ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()),
            shape: Shape::None,
            shown: Arc::default(),
            reveal: None,
        }
    }

    /// Whether a redraw is due now (cheap; call before computing totals).
    fn due(&mut self) -> bool {
        if !self.enabled {
            return false;
        }
        let now = Instant::now();
        if now.duration_since(self.start) < DELAY {
            return false;
        }
        if self.last.is_some_and(|l| now.duration_since(l) < PERIOD) {
            return false;
        }
        self.last = Some(now);
        true
    }

    fn shape(&mut self, shape: Shape, what: &str) {
        if self.shape != shape {
            let template = match shape {
                Shape::Items => ITEMS,
                Shape::Bytes => BYTES,
                Shape::Phase | Shape::None => PHASE,
            };
            let style = ProgressStyle::with_template(template)
                .expect("the templates above are valid")
                .progress_chars("#.");
            self.bar.set_style(style);
            if self.shape == Shape::Phase {
                self.bar.disable_steady_tick();
            }
            self.shape = shape;
        }
        self.bar.set_message(what.to_string());
    }

    fn show(&mut self) {
        if !self.shown.swap(true, Ordering::AcqRel) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// `done` of `total()` items; `total` is only evaluated when drawing.
    pub fn items(&mut self, what: &str, done: usize, total: impl FnOnce() -> usize) {
        if self.due() {
            let total = total().max(done);
            self.shape(Shape::Items, what);
            self.bar.set_length(total as u64);
            self.bar.set_position(done as u64);
            self.show();
        }
    }

    /// `done` of `total` bytes.
    pub fn bytes(&mut self, what: &str, done: u64, total: u64) {
        if self.due() {
            self.shape(Shape::Bytes, what);
            self.bar.set_length(total.max(done));
            self.bar.set_position(done);
            self.show();
        }
    }

    /// A phase without a measurable amount (e.g. writing bytecode): shown
    /// with its elapsed time until the next update or `finish`.
    pub fn phase(&mut self, what: &str) {
        if !self.enabled {
            return;
        }
        self.shape(Shape::Phase, what);
        self.bar.reset_elapsed();
        self.bar.enable_steady_tick(PERIOD);
        let wait = DELAY.saturating_sub(self.start.elapsed());
        if wait.is_zero() {
            self.show();
        } else if self.reveal.is_none() && !self.shown.load(Ordering::Acquire) {
            let (bar, shown) = (self.bar.clone(), Arc::clone(&self.shown));
            self.reveal = Some(std::thread::spawn(move || {
                std::thread::sleep(wait);
                if !bar.is_finished() && !shown.swap(true, Ordering::AcqRel) {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                }
            }));
        }
    }

    /// Erases the bar (also done on drop), so output and diagnostics start
    /// on a clean line.
    pub fn finish(&mut self) {
        self.bar.finish_and_clear();
        if let Some(t) = self.reveal.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disabled_bar_draws_nothing_and_starts_no_thread() {
        let mut p = Progress::new(false);
        p.start -= DELAY * 2;
        p.items("x", 1, || 2);
        p.phase("y");
        assert!(p.reveal.is_none());
        assert!(!p.shown.load(Ordering::Acquire));
        assert!(p.bar.is_hidden());
    }

    #[test]
    fn nothing_is_shown_before_the_delay() {
        let mut p = Progress::new(true);
        p.items("x", 1, || panic!("no total is computed before the delay"));
        assert!(!p.shown.load(Ordering::Acquire));
        p.start -= DELAY * 2;
        p.items("x", 1, || 2);
        assert!(p.shown.load(Ordering::Acquire));
        assert_eq!((p.bar.position(), p.bar.length()), (1, Some(2)));
        p.finish();
    }
}
