//! A progress line on standard error for long runs, drawn only when
//! standard error is a terminal (and not before a run has taken
//! [`DELAY`]), so pipes, logs and scripts see nothing.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Runs shorter than this never show a bar.
const DELAY: Duration = Duration::from_millis(400);
/// Redraw at most this often.
const PERIOD: Duration = Duration::from_millis(100);
const WIDTH: usize = 30;

pub struct Progress {
    enabled: bool,
    start: Instant,
    last: Option<Instant>,
    drawn: bool,
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
            drawn: false,
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

    /// `done` of `total()` items; `total` is only evaluated when drawing.
    pub fn items(&mut self, what: &str, done: usize, total: impl FnOnce() -> usize) {
        if self.due() {
            let total = total().max(done);
            self.draw(&render(what, done as u64, total as u64, ""));
        }
    }

    /// `done` of `total` bytes.
    pub fn bytes(&mut self, what: &str, done: u64, total: u64) {
        if self.due() {
            self.draw(&render(what, done, total.max(done), " MiB"));
        }
    }

    /// A phase without a measurable amount (e.g. writing bytecode).
    pub fn phase(&mut self, what: &str) {
        if self.enabled && Instant::now().duration_since(self.start) >= DELAY {
            self.draw(&format!("{what}…"));
        }
    }

    fn draw(&mut self, line: &str) {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K{line}");
        let _ = err.flush();
        self.drawn = true;
    }

    /// Erases the bar (also done on drop), so diagnostics start on a clean line.
    pub fn finish(&mut self) {
        if self.drawn {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
            self.drawn = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// `what [#####.....]  45% (450/1000)`; byte counts are shown in MiB.
pub fn render(what: &str, done: u64, total: u64, unit: &str) -> String {
    let frac = if total == 0 {
        1.0
    } else {
        done as f64 / total as f64
    };
    let filled = ((frac * WIDTH as f64) as usize).min(WIDTH);
    let (d, t) = if unit.is_empty() {
        (done.to_string(), total.to_string())
    } else {
        (
            format!("{:.1}", done as f64 / (1u64 << 20) as f64),
            format!("{:.1}", total as f64 / (1u64 << 20) as f64),
        )
    };
    format!(
        "{what} [{}{}] {:3.0}% ({d}/{t}{unit})",
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        frac * 100.0
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_a_bar() {
        assert_eq!(
            render("materializing regions", 450, 1000, ""),
            "materializing regions [#############.................]  45% (450/1000)"
        );
        assert_eq!(
            render("compressing", 3 << 20, 4 << 20, " MiB"),
            "compressing [######################........]  75% (3.0/4.0 MiB)"
        );
        assert!(render("x", 0, 0, "").contains("100%"));
    }

    #[test]
    fn disabled_bar_draws_nothing() {
        let mut p = Progress::new(false);
        p.start -= DELAY * 2;
        p.items("x", 1, || 2);
        p.phase("y");
        assert!(!p.drawn);
    }
}
