//! A reader for the everyday YAML the project's files are written in.
//!
//! It reads block mappings and sequences, one-line and multi-line flow
//! collections, plain, quoted, literal (`|`) and folded (`>`) scalars, comments,
//! anchors and aliases, into a [`Tree`] that [`super::tree`] hands to serde.
//! Anything else (tags, complex keys, multi-line plain or quoted scalars,
//! explicit indentation indicators, tabs, document markers, merge keys, odd
//! indentation...) makes it decline, and the file is read by serde-saphyr,
//! which stays the authority: every error message, and every file this reader
//! does not accept, comes from it. A tree it does accept deserializes to the
//! value serde-saphyr gives; the tests compare the two on every shipped file
//! and on thousands of damaged copies.
//!
//! The same limits hold: depth, aliases, and nodes after alias expansion.

use std::borrow::Cow;

/// Deepest nesting read; deeper files are left to the full parser's limit.
const MAX_DEPTH: usize = 64;
/// Most aliases read.
const MAX_ALIASES: usize = 200;
/// Most nodes, counting each alias as the nodes it stands for.
const MAX_NODES: u64 = 100_000;

/// The brackets of a flow mapping (named, so that no bracket stands alone in code).
const OPEN_MAP: u8 = 0x7b;
const CLOSE_MAP: u8 = 0x7d;

/// Where a node starts: 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Pos {
    pub line: u32,
    pub col: u32,
}

#[derive(Debug)]
pub(super) enum Kind<'a> {
    /// A plain scalar, resolved by its use; empty for an empty value.
    Plain(Cow<'a, str>),
    /// A quoted, literal or folded scalar: always a string.
    Text(Cow<'a, str>),
    /// Pairs: `kids[start..start + 2 * len]`, key then value.
    Map { start: u32, len: u32 },
    /// Items: `kids[start..start + len]`.
    Seq { start: u32, len: u32 },
    /// An alias of the node given.
    Alias(u32),
}

#[derive(Debug)]
pub(super) struct Node<'a> {
    pub kind: Kind<'a>,
    pub at: Pos,
}

/// A document read: its nodes, the children of its collections, and its root.
#[derive(Debug)]
pub(super) struct Tree<'a> {
    pub nodes: Vec<Node<'a>>,
    pub kids: Vec<u32>,
    pub root: u32,
}

/// The reader declined the text (the full parser reads it instead): the
/// document line it stopped at, and the reader's own source line, for tests.
#[derive(Debug)]
pub(super) struct Decline {
    #[cfg_attr(not(test), allow(dead_code))]
    pub line: u32,
    #[cfg_attr(not(test), allow(dead_code))]
    pub why: u32,
}

type R<T> = Result<T, Decline>;

/// Read `text`, or decline.
pub(super) fn read(text: &str) -> Option<Tree<'_>> {
    read_or_decline(text).ok()
}

/// Read `text`, or say where and why not.
pub(super) fn read_or_decline(text: &str) -> Result<Tree<'_>, Decline> {
    // Control characters, and characters YAML does not print or may take for
    // line breaks or byte-order marks, are left to the full parser.
    let odd_char = |c: char| {
        matches!(
            c,
            '\u{80}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
        )
    };
    if text.bytes().any(|b| (b < b' ' && b != b'\n') || b == 0x7f)
        || (!text.is_ascii() && text.chars().any(odd_char))
        || text.contains("<<")
    {
        return Err(Decline {
            line: 0,
            why: line!(),
        });
    }
    let mut r = Reader {
        s: text,
        b: text.as_bytes(),
        pos: 0,
        line: 1,
        line_start: 0,
        nodes: Vec::with_capacity(text.len() / 12),
        weight: Vec::with_capacity(text.len() / 12),
        kids: Vec::with_capacity(text.len() / 12),
        scratch: Vec::new(),
        anchors: Vec::new(),
        aliases: 0,
        depth: 0,
        flow_indent: 0,
        counted: (0, 0),
    };
    let root = r.document()?;
    Ok(Tree {
        nodes: r.nodes,
        kids: r.kids,
        root,
    })
}

/// What a value follows, and where it stands: an empty value is placed there.
#[derive(Clone, Copy)]
enum After {
    Colon(Pos),
    Dash(Pos),
}

struct Reader<'a> {
    s: &'a str,
    b: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
    nodes: Vec<Node<'a>>,
    /// Each node's size counting aliases expanded.
    weight: Vec<u64>,
    kids: Vec<u32>,
    /// Children of the collections being read, moved to `kids` when each ends.
    scratch: Vec<u32>,
    anchors: Vec<(&'a str, u32)>,
    aliases: usize,
    depth: usize,
    /// The indentation of the block structure holding the flow collection being read.
    flow_indent: usize,
    /// A place on the current line and its column, less one.
    counted: (usize, u32),
}

fn is_space_or_end(b: Option<u8>) -> bool {
    matches!(b, None | Some(b' ' | b'\n'))
}

fn is_flow_indicator(b: u8) -> bool {
    matches!(b, b',' | b'[' | b']' | OPEN_MAP | CLOSE_MAP)
}

impl<'a> Reader<'a> {
    fn decline(&self, why: u32) -> Decline {
        Decline {
            line: self.line,
            why,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn peek_at(&self, i: usize) -> Option<u8> {
        self.b.get(self.pos + i).copied()
    }

    /// Whether a sequence entry's `-` stands `i` bytes on.
    fn dash_at(&self, i: usize) -> bool {
        self.peek_at(i) == Some(b'-') && is_space_or_end(self.peek_at(i + 1))
    }

    /// Where the reader stands. Columns count characters; each line's are
    /// counted once, on from the last place asked for.
    fn here(&mut self) -> Pos {
        if self.counted.0 < self.line_start || self.counted.0 > self.pos {
            self.counted = (self.line_start, 0);
        }
        let (from, col) = self.counted;
        let more = &self.b[from..self.pos];
        let more = if more.is_ascii() {
            more.len()
        } else {
            self.s[from..self.pos].chars().count()
        };
        self.counted = (self.pos, col + more as u32);
        Pos {
            line: self.line,
            col: self.counted.1 + 1,
        }
    }

    fn push(&mut self, kind: Kind<'a>, at: Pos, weight: u64) -> R<u32> {
        if weight > MAX_NODES {
            return Err(self.decline(line!()));
        }
        self.nodes.push(Node { kind, at });
        self.weight.push(weight);
        Ok(self.nodes.len() as u32 - 1)
    }

    /// Close a collection whose children are `scratch[mark..]`.
    fn close(&mut self, mark: usize, at: Pos, map: bool) -> R<u32> {
        let start = self.kids.len() as u32;
        let n = (self.scratch.len() - mark) as u32;
        let mut weight = 1u64;
        for &k in &self.scratch[mark..] {
            weight += self.weight[k as usize];
        }
        self.kids.extend(self.scratch.drain(mark..));
        self.depth -= 1;
        let kind = if map {
            Kind::Map { start, len: n / 2 }
        } else {
            Kind::Seq { start, len: n }
        };
        self.push(kind, at, weight)
    }

    fn open(&mut self) -> R<usize> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.decline(line!()));
        }
        Ok(self.scratch.len())
    }

    fn skip_spaces(&mut self) {
        while self.peek() == Some(b' ') {
            self.pos += 1;
        }
    }

    /// From the start of a line, pass blank and comment-only lines; return the
    /// indentation of the next line with content (staying at its start), or
    /// `None` at the end of the text.
    fn next_content_line(&mut self) -> R<Option<usize>> {
        loop {
            let start = self.pos;
            self.skip_spaces();
            let indent = self.pos - start;
            match self.peek() {
                None => return Ok(None),
                Some(b'\n') => self.new_line(),
                Some(b'#') => {
                    self.skip_to_eol();
                    if self.peek().is_some() {
                        self.new_line();
                    }
                }
                Some(_) => {
                    if indent == 0
                        && (self.b[start..].starts_with(b"---")
                            || self.b[start..].starts_with(b"..."))
                    {
                        return Err(self.decline(line!()));
                    }
                    self.pos = start;
                    return Ok(Some(indent));
                }
            }
        }
    }

    fn skip_to_eol(&mut self) {
        while !matches!(self.peek(), None | Some(b'\n')) {
            self.pos += 1;
        }
    }

    /// At a `\n`: step to the next line's start.
    fn new_line(&mut self) {
        self.pos += 1;
        self.line += 1;
        self.line_start = self.pos;
    }

    /// The rest of the line holds only spaces and a comment: pass it.
    fn finish_line(&mut self) -> R<()> {
        let before = self.pos;
        self.skip_spaces();
        match self.peek() {
            None => Ok(()),
            Some(b'\n') => {
                self.new_line();
                Ok(())
            }
            Some(b'#') if self.pos > before || self.pos == self.line_start => {
                self.skip_to_eol();
                if self.peek().is_some() {
                    self.new_line();
                }
                Ok(())
            }
            _ => Err(self.decline(line!())),
        }
    }

    fn document(&mut self) -> R<u32> {
        let root = match self.next_content_line()? {
            Some(0) => self.block_node(0)?,
            _ => return Err(self.decline(line!())),
        };
        match self.next_content_line()? {
            None => Ok(root),
            Some(_) => Err(self.decline(line!())),
        }
    }

    /// A block node whose first line has indentation `n` (at its first character).
    fn block_node(&mut self, n: usize) -> R<u32> {
        self.pos += n;
        if self.dash_at(0) {
            return self.block_seq(n);
        }
        if self.looks_like_key() {
            return self.block_map(n);
        }
        // A lone node on its own line (not a block scalar).
        if matches!(self.peek(), Some(b'|' | b'>')) {
            return Err(self.decline(line!()));
        }
        self.inline_value(n)
    }

    /// Whether a mapping key and its `:` start here.
    /// (A key never runs past its line, so only the place is put back.)
    fn looks_like_key(&mut self) -> bool {
        let pos = self.pos;
        let ok = self.key_scalar().is_ok()
            && self.peek() == Some(b':')
            && is_space_or_end(self.peek_at(1));
        self.pos = pos;
        ok
    }

    /// A mapping key: a quoted or plain scalar on one line.
    fn key_scalar(&mut self) -> R<Kind<'a>> {
        match self.peek() {
            Some(b'"' | b'\'') => self.quoted().map(Kind::Text),
            Some(_) => self.plain(false).map(Kind::Plain),
            None => Err(self.decline(line!())),
        }
    }

    /// A block mapping at indentation `n`, at its first key.
    fn block_map(&mut self, n: usize) -> R<u32> {
        let at = self.here();
        let mark = self.open()?;
        loop {
            if self.dash_at(0) {
                return Err(self.decline(line!()));
            }
            let key_at = self.here();
            let key = self.key_scalar()?;
            if self.peek() != Some(b':') || !is_space_or_end(self.peek_at(1)) {
                return Err(self.decline(line!()));
            }
            let key = self.push(key, key_at, 1)?;
            let colon = self.here();
            self.pos += 1;
            self.skip_spaces();
            let value = self.value_here(n, After::Colon(colon))?;
            self.scratch.push(key);
            self.scratch.push(value);
            match self.next_content_line()? {
                Some(i) if i == n => self.pos += i,
                Some(i) if i < n => break,
                None => break,
                Some(_) => return Err(self.decline(line!())),
            }
        }
        self.close(mark, at, true)
    }

    /// A block sequence at indentation `n`, at its first `-`.
    fn block_seq(&mut self, n: usize) -> R<u32> {
        let at = self.here();
        let mark = self.open()?;
        loop {
            let dash = self.here();
            self.pos += 1;
            let item = if self.peek() == Some(b' ') {
                self.skip_spaces();
                let col = self.pos - self.line_start;
                match self.peek() {
                    Some(b'-') if self.dash_at(0) => return Err(self.decline(line!())),
                    Some(b'&' | b'*' | OPEN_MAP | b'[' | b'|' | b'>' | b'#' | b'\n') | None => {
                        self.value_here(n, After::Dash(dash))?
                    }
                    Some(_) if self.looks_like_key() => self.block_map(col)?,
                    Some(_) => self.value_here(n, After::Dash(dash))?,
                }
            } else {
                self.value_here(n, After::Dash(dash))?
            };
            self.scratch.push(item);
            match self.next_content_line()? {
                Some(i) if i == n && self.dash_at(i) => self.pos += i,
                Some(i) if i <= n => break,
                None => break,
                Some(_) => return Err(self.decline(line!())),
            }
        }
        self.close(mark, at, false)
    }

    /// A value at this point of its line (or, with nothing more on it, below).
    fn value_here(&mut self, n: usize, after: After) -> R<u32> {
        match self.peek() {
            None | Some(b'\n') | Some(b'#') => self.value_below(n, after, false),
            Some(b'&') => {
                let name = self.anchor_name()?;
                self.skip_spaces();
                let node = match self.peek() {
                    None | Some(b'\n') | Some(b'#') => self.value_below(n, after, true)?,
                    _ => self.inline_value(n)?,
                };
                if matches!(self.nodes[node as usize].kind, Kind::Alias(_)) {
                    return Err(self.decline(line!()));
                }
                self.anchors.push((name, node));
                Ok(node)
            }
            Some(_) => self.inline_value(n),
        }
    }

    /// The name of an anchor (`&name`) or alias (`*name`).
    fn anchor_name(&mut self) -> R<&'a str> {
        self.pos += 1;
        let start = self.pos;
        while let Some(b) = self.peek() {
            if b == b' ' || b == b'\n' || is_flow_indicator(b) {
                break;
            }
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.decline(line!()));
        }
        Ok(&self.s[start..self.pos])
    }

    /// A value on the lines below its key or dash (or none: an empty value).
    fn value_below(&mut self, n: usize, after: After, anchored: bool) -> R<u32> {
        let (in_map, empty_at) = match after {
            After::Colon(at) => (true, at),
            After::Dash(at) => (false, at),
        };
        self.finish_line()?;
        if anchored {
            // An anchored node on the lines below: only a nested block collection.
            return match self.next_content_line()? {
                Some(i) if i > n => {
                    let save = self.pos;
                    self.pos += i;
                    let col_ok = self.looks_like_key() || self.dash_at(0);
                    self.pos = save;
                    if col_ok {
                        self.block_node(i)
                    } else {
                        Err(self.decline(line!()))
                    }
                }
                _ => Err(self.decline(line!())),
            };
        }
        match self.next_content_line()? {
            Some(i) if i > n => self.block_node(i),
            Some(i) if in_map && i == n && self.dash_at(i) => {
                // A sequence at its key's indentation: serde-saphyr places it at
                // its first item's text, so one with an empty first item is declined.
                self.pos += i;
                let dash = self.pos;
                self.pos += 1;
                self.skip_spaces();
                if matches!(self.peek(), None | Some(b'\n' | b'#')) {
                    return Err(self.decline(line!()));
                }
                let first = self.here();
                self.pos = dash;
                let seq = self.block_seq(i)?;
                self.nodes[seq as usize].at = first;
                Ok(seq)
            }
            _ => self.push(Kind::Plain(Cow::Borrowed("")), empty_at, 1),
        }
    }

    /// A node on the current line (a block scalar continues below); ends at a
    /// line's start. `n` is the indentation of the structure holding it.
    fn inline_value(&mut self, n: usize) -> R<u32> {
        let at = self.here();
        let node = match self.peek() {
            Some(b'|' | b'>') => return self.block_scalar(n),
            Some(OPEN_MAP | b'[' | b'*' | b'"' | b'\'') => {
                self.flow_indent = n;
                self.flow_node()?
            }
            Some(_) => {
                let text = self.plain(false)?;
                if text.is_empty() {
                    return Err(self.decline(line!()));
                }
                self.push(Kind::Plain(text), at, 1)?
            }
            None => return Err(self.decline(line!())),
        };
        self.finish_line()?;
        Ok(node)
    }

    /// `*name`.
    fn alias(&mut self) -> R<u32> {
        let at = self.here();
        let name = self.anchor_name()?;
        let target = self
            .anchors
            .iter()
            .rev()
            .find(|(a, _)| *a == name)
            .map(|(_, id)| *id)
            .ok_or(self.decline(line!()))?;
        self.aliases += 1;
        if self.aliases > MAX_ALIASES {
            return Err(self.decline(line!()));
        }
        let w = self.weight[target as usize];
        self.push(Kind::Alias(target), at, w)
    }

    /// A plain scalar (`flow`: inside a flow collection), on one line.
    fn plain(&mut self, flow: bool) -> R<Cow<'a, str>> {
        let first = self.peek().ok_or(self.decline(line!()))?;
        if matches!(
            first,
            b',' | b'['
                | b']'
                | OPEN_MAP
                | CLOSE_MAP
                | b'#'
                | b'&'
                | b'*'
                | b'!'
                | b'|'
                | b'>'
                | b'\''
                | b'"'
                | b'%'
                | b'@'
                | b'`'
        ) {
            return Err(self.decline(line!()));
        }
        if matches!(first, b'-' | b'?' | b':') {
            let next = self.peek_at(1);
            if is_space_or_end(next) || (flow && next.is_some_and(is_flow_indicator)) {
                return Err(self.decline(line!()));
            }
        }
        let start = self.pos;
        let mut end = self.pos;
        while let Some(b) = self.peek() {
            match b {
                b'\n' => break,
                b':' => {
                    let next = self.peek_at(1);
                    if is_space_or_end(next) || (flow && next.is_some_and(is_flow_indicator)) {
                        break;
                    }
                }
                b'#' if self.b[self.pos - 1] == b' ' => break,
                b if flow && is_flow_indicator(b) => break,
                _ => {}
            }
            self.pos += 1;
            if b != b' ' {
                end = self.pos;
            }
        }
        self.pos = end;
        Ok(Cow::Borrowed(&self.s[start..end]))
    }

    /// A quoted scalar on one line, at its opening `"` or `'`: in double
    /// quotes a few backslash escapes, in single quotes `''` for `'`.
    fn quoted(&mut self) -> R<Cow<'a, str>> {
        let quote = self.peek().ok_or(self.decline(line!()))?;
        self.pos += 1;
        let start = self.pos;
        let mut owned: Option<String> = None;
        let mut run = start;
        loop {
            let escaped = match self.peek() {
                None | Some(b'\n') => return Err(self.decline(line!())),
                Some(b'\'') if quote == b'\'' && self.peek_at(1) == Some(b'\'') => '\'',
                Some(b) if b == quote => break,
                Some(b'\\') if quote == b'"' => match self.peek_at(1) {
                    Some(b'"') => '"',
                    Some(b'\\') => '\\',
                    Some(b'/') => '/',
                    Some(b'n') => '\n',
                    Some(b't') => '\t',
                    _ => return Err(self.decline(line!())),
                },
                Some(_) => {
                    self.pos += 1;
                    continue;
                }
            };
            let out = owned.get_or_insert_with(String::new);
            out.push_str(&self.s[run..self.pos]);
            out.push(escaped);
            self.pos += 2;
            run = self.pos;
        }
        let text = match owned {
            None => Cow::Borrowed(&self.s[start..self.pos]),
            Some(mut out) => {
                out.push_str(&self.s[run..self.pos]);
                Cow::Owned(out)
            }
        };
        self.pos += 1;
        Ok(text)
    }

    /// `|` or `>` with clip or strip chomping, under a structure indented `n`.
    fn block_scalar(&mut self, n: usize) -> R<u32> {
        let folded = self.peek() == Some(b'>');
        self.pos += 1;
        let strip = match self.peek() {
            Some(b'-') => {
                self.pos += 1;
                true
            }
            Some(b' ' | b'\n') | None => false,
            _ => return Err(self.decline(line!())),
        };
        if self.peek().is_none() {
            return Err(self.decline(line!()));
        }
        self.finish_line()?;
        // The first line sets the indentation; it must have content.
        let first = self.pos;
        self.skip_spaces();
        let m = self.pos - first;
        self.pos = first;
        if m <= n || matches!(self.b.get(first + m), None | Some(b'\n')) {
            return Err(self.decline(line!()));
        }
        // serde-saphyr places the scalar at its first line of text.
        let at = Pos {
            line: self.line,
            col: m as u32 + 1,
        };
        let mut out = String::new();
        let mut blanks = 0usize;
        // Whether a line has been read, and whether it was more indented
        // (a folded scalar keeps the line breaks around such lines).
        let mut last: Option<bool> = None;
        loop {
            let start = self.pos;
            self.skip_spaces();
            let k = self.pos - start;
            match self.peek() {
                None => break,
                Some(b'\n') => {
                    if k > m {
                        return Err(self.decline(line!()));
                    }
                    blanks += 1;
                    self.new_line();
                    continue;
                }
                _ if k < m => {
                    self.pos = start;
                    break;
                }
                _ => {}
            }
            let spaced = k > m;
            let content_start = start + m;
            self.skip_to_eol();
            let line = &self.s[content_start..self.pos];
            if folded && line.ends_with(' ') {
                return Err(self.decline(line!()));
            }
            if let Some(last_spaced) = last {
                // A literal scalar keeps every line break; a folded one turns
                // a single break between two plain lines into a space.
                let breaks = if !folded || spaced || last_spaced {
                    blanks + 1
                } else {
                    blanks
                };
                if breaks == 0 {
                    out.push(' ');
                } else {
                    out.extend(std::iter::repeat_n('\n', breaks));
                }
            }
            out.push_str(line);
            last = Some(spaced);
            blanks = 0;
            if self.peek().is_none() {
                break;
            }
            self.new_line();
        }
        if !strip {
            out.push('\n');
        }
        self.push(Kind::Text(Cow::Owned(out)), at, 1)
    }

    /// Spaces, line breaks and comments inside a flow collection. A line the
    /// collection runs on to must be indented more than the block holding it.
    fn skip_flow_space(&mut self) -> R<()> {
        loop {
            match self.peek() {
                Some(b' ') => self.pos += 1,
                Some(b'\n') => {
                    self.new_line();
                    self.skip_spaces();
                    let indent = self.pos - self.line_start;
                    if indent <= self.flow_indent && !matches!(self.peek(), Some(b'\n' | b'#')) {
                        return Err(self.decline(line!()));
                    }
                }
                Some(b'#') if self.b[self.pos - 1] == b' ' || self.pos == self.line_start => {
                    self.skip_to_eol()
                }
                _ => return Ok(()),
            }
        }
    }

    /// A node inside (or starting) a flow collection.
    fn flow_node(&mut self) -> R<u32> {
        let at = self.here();
        match self.peek() {
            Some(OPEN_MAP) => self.flow_collection(true),
            Some(b'[') => self.flow_collection(false),
            Some(b'*') => self.alias(),
            Some(b'&') => {
                let name = self.anchor_name()?;
                if self.peek() != Some(b' ') {
                    return Err(self.decline(line!()));
                }
                self.skip_spaces();
                let node = self.flow_node()?;
                if matches!(self.nodes[node as usize].kind, Kind::Alias(_)) {
                    return Err(self.decline(line!()));
                }
                self.anchors.push((name, node));
                Ok(node)
            }
            Some(b'"' | b'\'') => {
                let t = self.quoted()?;
                self.push(Kind::Text(t), at, 1)
            }
            Some(_) => {
                let t = self.plain(true)?;
                if t.is_empty() {
                    return Err(self.decline(line!()));
                }
                // A plain scalar may not run on to the next line.
                if self.peek() == Some(b'\n') {
                    let save = (self.pos, self.line, self.line_start);
                    let next = self.skip_flow_space().ok().and_then(|_| self.peek());
                    (self.pos, self.line, self.line_start) = save;
                    if !matches!(next, Some(b',' | b']' | CLOSE_MAP)) {
                        return Err(self.decline(line!()));
                    }
                }
                self.push(Kind::Plain(t), at, 1)
            }
            None => Err(self.decline(line!())),
        }
    }

    /// `{...}` (`map`) or `[...]`, at its opening bracket.
    fn flow_collection(&mut self, map: bool) -> R<u32> {
        let at = self.here();
        let close = if map { CLOSE_MAP } else { b']' };
        let mark = self.open()?;
        self.pos += 1;
        self.skip_flow_space()?;
        if self.peek() == Some(close) {
            self.pos += 1;
            return self.close(mark, at, map);
        }
        loop {
            self.skip_flow_space()?;
            if map {
                let key_at = self.here();
                let key = match self.peek() {
                    Some(b'"' | b'\'') => self.key_scalar()?,
                    Some(_) => Kind::Plain(self.plain(true)?),
                    None => return Err(self.decline(line!())),
                };
                if self.peek() != Some(b':') || !matches!(self.peek_at(1), Some(b' ' | b'\n')) {
                    return Err(self.decline(line!()));
                }
                if let Kind::Plain(k) = &key
                    && k.is_empty()
                {
                    return Err(self.decline(line!()));
                }
                let key = self.push(key, key_at, 1)?;
                self.pos += 1;
                self.skip_flow_space()?;
                if matches!(self.peek(), Some(b',' | CLOSE_MAP | b']')) {
                    return Err(self.decline(line!()));
                }
                let value = self.flow_node()?;
                self.scratch.push(key);
                self.scratch.push(value);
            } else {
                if matches!(self.peek(), Some(b',' | CLOSE_MAP | b']')) {
                    return Err(self.decline(line!()));
                }
                let item = self.flow_node()?;
                self.scratch.push(item);
            }
            self.skip_flow_space()?;
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    // A trailing comma.
                    self.skip_flow_space()?;
                    if self.peek() == Some(close) {
                        self.pos += 1;
                        return self.close(mark, at, map);
                    }
                }
                Some(b) if b == close => {
                    self.pos += 1;
                    return self.close(mark, at, map);
                }
                _ => return Err(self.decline(line!())),
            }
        }
    }
}
