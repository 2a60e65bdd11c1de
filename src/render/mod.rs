//! Rendering: the only place that knows about terminals (tables, colour) and JSON.
//! Functions here return strings; the binary writes them.

pub mod card;
pub mod coverage;
pub mod deck;
pub mod markdown;
pub mod rule;
pub mod search;
pub mod trace;

/// How text output looks: colour/emphasis on or off, and the width to fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// ANSI emphasis (bold, italic). Off for pipes, `NO_COLOR` and `--color never`.
    pub color: bool,
    /// Columns available; tables and wrapped text fit in it.
    pub width: usize,
}

impl Style {
    /// Width when output goes to a pipe or file and `COLUMNS` is not set.
    pub const DEFAULT_WIDTH: usize = 100;
    /// Narrowest width honoured; below it tables cannot show a rule ID whole.
    pub const MIN_WIDTH: usize = 40;

    /// No colour, the default width.
    pub fn plain() -> Style {
        Style {
            color: false,
            width: Style::DEFAULT_WIDTH,
        }
    }

    /// `s` in bold when colour is on.
    pub fn bold(&self, s: &str) -> String {
        self.wrap_ansi(s, "\x1b[1m")
    }

    /// `s` in italics when colour is on.
    pub fn italic(&self, s: &str) -> String {
        self.wrap_ansi(s, "\x1b[3m")
    }

    fn wrap_ansi(&self, s: &str, on: &str) -> String {
        if self.color && !s.is_empty() {
            format!("{on}{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
}

impl Default for Style {
    fn default() -> Self {
        Style::plain()
    }
}

/// Wrap `text` to `width` columns at spaces; a word longer than the width (a rule
/// ID, a URL) stays whole on its own line. Each output line starts with `indent`.
pub fn wrap(text: &str, width: usize, indent: &str) -> String {
    wrap_hanging(text, width, indent, indent)
}

/// [`wrap`] with a different start for the first line (a bullet) than for the rest.
pub fn wrap_hanging(text: &str, width: usize, first: &str, rest: &str) -> String {
    let mut indent = first;
    let mut out = String::new();
    for (i, para) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        // a line that fits is kept as it is, spacing included
        if visible_len(indent) + visible_len(para) <= width {
            out.push_str(indent);
            out.push_str(para);
            indent = rest;
            continue;
        }
        let mut line = String::new();
        let mut len = 0usize;
        for word in para.split(' ').filter(|w| !w.is_empty()) {
            let wl = visible_len(word);
            let avail = width.saturating_sub(indent.chars().count()).max(20);
            if len > 0 && len + 1 + wl > avail {
                out.push_str(indent);
                out.push_str(&line);
                out.push('\n');
                indent = rest;
                line.clear();
                len = 0;
            }
            if len > 0 {
                line.push(' ');
                len += 1;
            }
            line.push_str(word);
            len += wl;
        }
        if !line.is_empty() {
            out.push_str(indent);
            out.push_str(&line);
            indent = rest;
        }
    }
    out
}

/// Characters that take a column: ANSI escape sequences excluded.
pub fn visible_len(s: &str) -> usize {
    let mut n = 0;
    let mut esc = false;
    for c in s.chars() {
        match c {
            '\x1b' => esc = true,
            'm' if esc => esc = false,
            _ if esc => {}
            _ => n += 1,
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces_and_keeps_long_words_whole() {
        let id = "swccg.ar.actions-example-1-deploying-a-card";
        let t = format!("see {id} for the whole story of it");
        let w = wrap(&t, 30, "  ");
        assert!(w.lines().all(|l| l.len() <= 30 || l.trim() == id), "{w}");
        assert!(w.lines().any(|l| l.trim() == id), "{w}");
        assert_eq!(
            w.split_whitespace().collect::<Vec<_>>(),
            t.split_whitespace().collect::<Vec<_>>()
        );
        assert!(w.lines().all(|l| l.starts_with("  ")));
    }

    #[test]
    fn no_colour_means_no_escapes() {
        let s = Style::plain();
        assert_eq!(s.bold("x"), "x");
        let c = Style {
            color: true,
            width: 80,
        };
        assert_eq!(c.bold("x"), "\x1b[1mx\x1b[0m");
        assert_eq!(visible_len(&c.bold("abc")), 3);
    }
}
