//! Rulebook Markdown for a terminal: paragraphs wrapped to the width, `**strong**`
//! in bold and `*emphasis*` in italics (plain words without colour), lists with
//! their bullets or numbers, tables as tables. Markup characters never show.

use super::{Style, table, wrap_hanging};
use itertools::Itertools;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// Render `md` for a terminal, every line starting with `indent`.
pub fn to_terminal(md: &str, style: &Style, indent: &str) -> String {
    let mut r = Renderer {
        style: *style,
        indent,
        ..Renderer::default()
    };
    for ev in Parser::new_ext(md, Options::ENABLE_TABLES) {
        r.event(ev);
    }
    r.flush();
    r.blocks.join("\n\n")
}

#[derive(Default)]
struct Renderer<'a> {
    style: Style,
    indent: &'a str,
    /// Finished blocks (paragraphs, list items, tables), already indented.
    blocks: Vec<String>,
    /// Inline text of the block being read.
    cur: String,
    bold: usize,
    italic: usize,
    /// Open lists: the next number for ordered ones.
    lists: Vec<Option<u64>>,
    /// Bullet or number of the list item being read.
    item_prefix: Option<String>,
    quote: usize,
    /// Rows of the table being read (header first).
    table: Option<Vec<Vec<String>>>,
    code: bool,
    /// The last block was a list item (the next item joins it).
    last_item: bool,
}

impl Renderer<'_> {
    fn event(&mut self, ev: Event) {
        match ev {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) | Event::Code(t) if self.code => self.cur.push_str(&t),
            Event::Text(t) | Event::Code(t) => self.cur.push_str(&t.replace('\n', " ")),
            Event::SoftBreak => self.cur.push(' '),
            Event::HardBreak => self.cur.push('\n'),
            Event::Rule => {
                self.flush();
                self.blocks
                    .push(format!("{}{}", self.indent, "─".repeat(20)));
            }
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag) {
        match tag {
            Tag::Paragraph | Tag::Heading { .. } if !self.cur.trim().is_empty() => self.flush(),
            Tag::Strong => {
                self.bold += 1;
                self.sgr();
            }
            Tag::Emphasis => {
                self.italic += 1;
                self.sgr();
            }
            Tag::List(start) => {
                self.flush();
                self.lists.push(start);
            }
            Tag::Item => {
                self.flush();
                let prefix = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let p = format!("{n}. ");
                        *n += 1;
                        p
                    }
                    _ => "- ".to_string(),
                };
                self.item_prefix = Some(prefix);
            }
            Tag::BlockQuote(_) => {
                self.flush();
                self.quote += 1;
            }
            Tag::CodeBlock(_) => {
                self.flush();
                self.code = true;
            }
            Tag::Table(_) => {
                self.flush();
                self.table = Some(Vec::new());
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some(t) = &mut self.table {
                    t.push(Vec::new());
                }
            }
            Tag::TableCell => self.cur.clear(),
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::Item => self.flush(),
            TagEnd::Heading(_) => {
                self.cur = self.style.bold(self.cur.trim());
                self.flush();
            }
            TagEnd::Strong => {
                self.bold = self.bold.saturating_sub(1);
                self.sgr();
            }
            TagEnd::Emphasis => {
                self.italic = self.italic.saturating_sub(1);
                self.sgr();
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.last_item = false;
                }
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.quote = self.quote.saturating_sub(1);
            }
            TagEnd::CodeBlock => {
                let code = std::mem::take(&mut self.cur);
                let lines = code.trim_end().lines();
                let block = lines.map(|l| format!("{}    {l}", self.indent)).join("\n");
                self.blocks.push(block);
                self.code = false;
            }
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.cur);
                if let Some(row) = self.table.as_mut().and_then(|t| t.last_mut()) {
                    row.push(cell.trim().to_string());
                }
            }
            TagEnd::Table => {
                if let Some(rows) = self.table.take() {
                    self.blocks.push(self.table_block(rows));
                }
            }
            _ => {}
        }
    }

    /// Emit the escape sequence for the current bold/italic state.
    fn sgr(&mut self) {
        let codes = self.style.emphasis(self.bold > 0, self.italic > 0);
        self.cur.push_str(&codes);
    }

    /// Finish the current block: wrap it under its bullet and quote marks.
    fn flush(&mut self) {
        let text = std::mem::take(&mut self.cur);
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        let depth = self.lists.len().saturating_sub(1);
        let quote = "│ ".repeat(self.quote);
        let base = format!("{}{quote}{}", self.indent, "  ".repeat(depth));
        let is_item = self.item_prefix.is_some();
        let (first, rest) = match self.item_prefix.take() {
            Some(p) => (
                format!("{base}{p}"),
                format!("{base}{}", " ".repeat(p.chars().count())),
            ),
            None => (base.clone(), base),
        };
        let block = wrap_hanging(text, self.style.width, &first, &rest);
        // the items of a list stay together, with no blank line between them
        match self.blocks.last_mut() {
            Some(prev) if is_item && self.last_item => {
                prev.push('\n');
                prev.push_str(&block);
            }
            _ => self.blocks.push(block),
        }
        self.last_item = is_item;
    }

    fn table_block(&self, rows: Vec<Vec<String>>) -> String {
        let mut t = table(self.style.width.saturating_sub(self.indent.len()));
        let mut it = rows.into_iter();
        if let Some(h) = it.next() {
            t.set_header(h);
        }
        t.add_rows(it);
        t.to_string()
            .lines()
            .map(|l| format!("{}{l}", self.indent))
            .join("\n")
    }
}
