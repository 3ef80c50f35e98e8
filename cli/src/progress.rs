//! A progress line on standard error for long runs, drawn only when
//! standard error is a terminal (and not before a run has taken
//! [`DELAY`]), so pipes, logs and scripts see nothing.
//!
//! Counted work (`items`, `bytes`) draws a bar from the working thread;
//! a phase without a measurable amount (parsing text, writing bytecode)
//! is shown with its elapsed time by a small ticker thread, since the
//! work itself is one call that cannot report.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Runs shorter than this never show a bar.
const DELAY: Duration = Duration::from_millis(400);
/// Redraw at most this often.
const PERIOD: Duration = Duration::from_millis(100);
const WIDTH: usize = 30;

#[derive(Default)]
struct Shared {
    /// The current unmeasured phase and when it started.
    phase: Option<(String, Instant)>,
    drawn: bool,
    done: bool,
}

pub struct Progress {
    enabled: bool,
    start: Instant,
    last: Option<Instant>,
    shared: Arc<Mutex<Shared>>,
    ticker: Option<std::thread::JoinHandle<()>>,
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
            shared: Arc::default(),
            ticker: None,
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
        self.end_phase();
        if self.due() {
            let total = total().max(done);
            self.draw(&render(what, done as u64, total as u64, ""));
        }
    }

    /// `done` of `total` bytes.
    pub fn bytes(&mut self, what: &str, done: u64, total: u64) {
        self.end_phase();
        if self.due() {
            self.draw(&render(what, done, total.max(done), " MiB"));
        }
    }

    /// A phase without a measurable amount (e.g. writing bytecode): shown
    /// with its elapsed time until the next update or `finish`.
    pub fn phase(&mut self, what: &str) {
        if !self.enabled {
            return;
        }
        lock(&self.shared).phase = Some((what.to_string(), Instant::now()));
        if self.ticker.is_none() {
            let shared = Arc::clone(&self.shared);
            let start = self.start;
            self.ticker = Some(std::thread::spawn(move || tick(shared, start)));
        }
    }

    fn end_phase(&mut self) {
        if self.ticker.is_some() {
            lock(&self.shared).phase = None;
        }
    }

    fn draw(&mut self, line: &str) {
        draw_line(&mut lock(&self.shared), line);
    }

    /// Erases the bar (also done on drop), so output and diagnostics start
    /// on a clean line.
    pub fn finish(&mut self) {
        {
            let mut s = lock(&self.shared);
            s.phase = None;
            s.done = true;
            erase(&mut s);
        }
        if let Some(t) = self.ticker.take() {
            let _ = t.join();
        }
        lock(&self.shared).done = false;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

fn lock(m: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn draw_line(s: &mut Shared, line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\r\x1b[2K{line}");
    let _ = err.flush();
    s.drawn = true;
}

fn erase(s: &mut Shared) {
    if s.drawn {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K");
        let _ = err.flush();
        s.drawn = false;
    }
}

/// The ticker thread: redraws the current phase until `finish`.
fn tick(shared: Arc<Mutex<Shared>>, start: Instant) {
    loop {
        std::thread::sleep(PERIOD);
        let mut s = lock(&shared);
        if s.done {
            return;
        }
        if start.elapsed() < DELAY {
            continue;
        }
        if let Some((what, since)) = s.phase.clone() {
            draw_line(
                &mut s,
                &format!("{what}… {:.1}s", since.elapsed().as_secs_f64()),
            );
        }
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
    fn disabled_bar_draws_nothing_and_starts_no_thread() {
        let mut p = Progress::new(false);
        p.start -= DELAY * 2;
        p.items("x", 1, || 2);
        p.phase("y");
        assert!(p.ticker.is_none());
        assert!(!lock(&p.shared).drawn);
    }
}
