//! Rendering: the only place that knows about terminals (tables, colour) and JSON.
//! Functions here return strings; the binary writes them.

pub mod card;
pub mod coverage;
pub mod deck;
pub mod markdown;
pub mod rule;
pub mod search;
pub mod summary;
pub mod trace;

const BOLD: &str = "\x1b[1m";
const ITALIC: &str = "\x1b[3m";
const RESET: &str = "\x1b[0m";

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
        self.wrap_ansi(s, BOLD)
    }

    /// `s` in italics when colour is on.
    pub fn italic(&self, s: &str) -> String {
        self.wrap_ansi(s, ITALIC)
    }

    fn wrap_ansi(&self, s: &str, on: &str) -> String {
        if self.color && !s.is_empty() {
            format!("{on}{s}{RESET}")
        } else {
            s.to_string()
        }
    }

    /// Append `text` wrapped to the width under the indents of
    /// [`wrap_hanging`], and a line break.
    pub fn push_wrapped(&self, out: &mut String, text: &str, first: &str, rest: &str) {
        out.push_str(&wrap_hanging(text, self.width, first, rest));
        out.push('\n');
    }

    /// The escape codes that switch emphasis to exactly `bold` and `italic`,
    /// whatever was on before; nothing when colour is off.
    pub fn emphasis(&self, bold: bool, italic: bool) -> String {
        if !self.color {
            return String::new();
        }
        let mut codes = RESET.to_string();
        if bold {
            codes.push_str(BOLD);
        }
        if italic {
            codes.push_str(ITALIC);
        }
        codes
    }
}

impl Default for Style {
    fn default() -> Self {
        Style::plain()
    }
}

/// Wrap `text` to `width` terminal columns at spaces; a word longer than the
/// width (a rule ID, a URL) stays whole on its own line. Each output line starts
/// with `indent`.
pub fn wrap(text: &str, width: usize, indent: &str) -> String {
    wrap_hanging(text, width, indent, indent)
}

/// [`wrap`] with a different start for the first line (a bullet) than for the
/// rest. A line of `text` that fits is kept as it is, spacing included; every
/// line leaves at least 20 columns beside its indent.
pub fn wrap_hanging(text: &str, width: usize, first: &str, rest: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for para in text.split('\n') {
        let indent = if out.is_empty() { first } else { rest };
        if visible_len(indent) + visible_len(para) <= width {
            out.push(format!("{indent}{para}"));
            continue;
        }
        let width = width.max(visible_len(indent).max(visible_len(rest)) + 20);
        let options = textwrap::Options::new(width)
            .initial_indent(indent)
            .subsequent_indent(rest)
            .break_words(false)
            .word_separator(textwrap::WordSeparator::AsciiSpace)
            .word_splitter(textwrap::WordSplitter::NoHyphenation);
        let lines = textwrap::wrap(para, options);
        out.extend(lines.into_iter().map(|l| l.into_owned()));
    }
    out.join("\n")
}

/// A table `width` columns wide in the one look every renderer uses: thin
/// borders, columns wrapped to fit.
pub fn table(width: usize) -> comfy_table::Table {
    let mut t = comfy_table::Table::new();
    t.load_style(comfy_table::presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(comfy_table::ContentArrangement::Dynamic)
        .set_width(width.min(u16::MAX as usize) as u16);
    t
}

/// Right-align the columns of `t` from `first` on (counts).
pub fn numbers_right(t: &mut comfy_table::Table, first: usize) {
    for column in t.column_iter_mut().skip(first) {
        column.set_cell_alignment(comfy_table::CellAlignment::Right);
    }
}

/// `text` with control characters escaped (`\n`, `\u{1b}`, …), tabs kept: what
/// came from input never reaches a terminal raw, and stays on one line.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            c if c.is_control() && c != '\t' => c.escape_default().to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// Terminal columns `s` takes: wide characters count two, ANSI escape
/// sequences none.
pub fn visible_len(s: &str) -> usize {
    textwrap::core::display_width(s)
}
