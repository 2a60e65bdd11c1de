//! Card text markup from the databases: HTML tags (`<b>`, `<i>`, `<em>`,
//! `<strong>`, `<u>`, `<li>`, `<br>`, entities), the Players Committee's bold
//! words in braces (`{While}`) and Destiny icon codes
//! (`[special]`, `[melee]`). Tags become emphasis through a caller's function (a
//! terminal makes them bold or italic, JSON drops them); icon codes become words.

/// Emphasis a piece of text carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Emphasis {
    Plain,
    Bold,
    Italic,
}

/// Destiny icon codes and the words for them.
const ICONS: &[(&str, &str)] = &[
    ("melee", "melee damage"),
    ("ranged", "ranged damage"),
    ("indirect", "indirect damage"),
    ("shield", "shield"),
    ("resource", "resource"),
    ("discard", "discard"),
    ("disrupt", "disrupt"),
    ("focus", "focus"),
    ("special", "special"),
    ("blank", "blank"),
];

/// `text` without markup, emphasis dropped.
pub fn plain(text: &str) -> String {
    render(text, |_, s| s.to_string())
}

/// `text` with tags turned into `emph(kind, words)` and icon codes into words.
pub fn render(text: &str, emph: impl Fn(Emphasis, &str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let (mut bold, mut italic) = (0usize, 0usize);
    let flush = |run: &mut String, out: &mut String, bold: usize, italic: usize| {
        if run.is_empty() {
            return;
        }
        let kind = if bold > 0 {
            Emphasis::Bold
        } else if italic > 0 {
            Emphasis::Italic
        } else {
            Emphasis::Plain
        };
        out.push_str(&emph(kind, run));
        run.clear();
    };
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '<'
            && let Some(end) = rest.find('>')
            && let Some(tag) = tag_name(&rest[1..end])
        {
            flush(&mut run, &mut out, bold, italic);
            let closing = rest[1..].starts_with('/');
            let step = |n: &mut usize| {
                if closing {
                    *n = n.saturating_sub(1)
                } else {
                    *n += 1
                }
            };
            match tag.as_str() {
                "b" | "strong" => step(&mut bold),
                "i" | "em" | "u" => step(&mut italic),
                "br" => out.push('\n'),
                "li" if !closing => out.push_str("\n• "),
                _ => {}
            }
            rest = &rest[end + 1..];
            continue;
        }
        // The Players Committee's `{While}`, `{Flip}`: words printed in bold.
        if c == '{'
            && let Some(end) = rest.find('}')
            && end > 1
            && !rest[1..end].contains('{')
        {
            flush(&mut run, &mut out, bold, italic);
            out.push_str(&emph(Emphasis::Bold, &rest[1..end]));
            rest = &rest[end + 1..];
            continue;
        }
        if c == '['
            && let Some(end) = rest.find(']')
            && let Some(word) = icon_word(&rest[1..end])
        {
            run.push_str(&word);
            rest = &rest[end + 1..];
            continue;
        }
        if c == '&'
            && let Some((ch, len)) = entity(rest)
        {
            run.push(ch);
            rest = &rest[len..];
            continue;
        }
        run.push(c);
        rest = &rest[c.len_utf8()..];
    }
    flush(&mut run, &mut out, bold, italic);
    out.trim().to_string()
}

/// The lowercase name of an HTML tag (`b`, `/em`, `span class="x"`, `i.`), if it is one.
fn tag_name(inner: &str) -> Option<String> {
    let inner = inner.strip_prefix('/').unwrap_or(inner).trim();
    let name: String = inner
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    const TAGS: [&str; 13] = [
        "b", "strong", "i", "em", "u", "br", "li", "ul", "ol", "span", "p", "sup", "sub",
    ];
    let known = TAGS.contains(&name.as_str());
    let tail = &inner[name.len()..];
    let tail_ok =
        tail.is_empty() || tail.starts_with(' ') || tail == "." || tail == "/" || tail == " /";
    (known && tail_ok).then_some(name)
}

/// The word for an icon code (`special`, `Ranged`), if it is one.
fn icon_word(code: &str) -> Option<String> {
    let c = code.trim().to_ascii_lowercase();
    ICONS
        .iter()
        .find(|(k, _)| *k == c)
        .map(|(_, w)| w.to_string())
}

/// A named or numeric HTML entity at the start of `s`: the character and its length.
fn entity(s: &str) -> Option<(char, usize)> {
    let end = s[..s.len().min(10)].find(';')?;
    let name = &s[1..end];
    let ch = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        n if n.starts_with('#') => {
            let num = n.strip_prefix("#x").map_or_else(
                || n[1..].parse::<u32>().ok(),
                |h| u32::from_str_radix(h, 16).ok(),
            )?;
            char::from_u32(num)?
        }
        _ => return None,
    };
    Some((ch, end + 1))
}
