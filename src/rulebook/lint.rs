//! Corpus lint: unique IDs, no empty sections, examples under rules, the
//! published ID list, and cross-references ("See X", "(see X, Ch. N)").
//!
//! Cross-references are resolved by matching the referenced words against
//! section titles of the same game, case-insensitively and tolerant of plural
//! "s" and punctuation; the longest leading run of words that names a section
//! wins, so "See The Stack for details" resolves to "The Stack".

use super::{Corpus, Kind, Section, slug};
use crate::error::{Error, Result};
use crate::paths::read_text_file;
use itertools::Itertools;
use regex::Regex;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// File of every section ID ever published.
pub const IDS_FILE: &str = "ids.txt";
/// File of renamed IDs, `old-id -> new-id` per line.
pub const ALIASES_FILE: &str = "aliases.txt";

/// One lint error, located at a file and line of the rulebook.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Problem {
    pub file: String,
    pub line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub message: String,
}

impl Problem {
    fn new(file: String, line: usize, id: Option<&str>, message: String) -> Problem {
        Problem {
            file,
            line,
            id: id.map(str::to_string),
            message,
        }
    }

    /// A problem found at section `s`.
    fn at(s: &Section, message: String) -> Problem {
        Problem::new(file_of(s), s.line, Some(&s.id), message)
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        } else {
            write!(f, "{}: {}", self.file, self.message)
        }
    }
}

/// A cross-reference found in a section body.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, Hash)]
pub struct CrossRef {
    /// The referenced words as written (the part that named a section when resolved).
    pub text: String,
    /// The section it names, when one exists in the corpus.
    pub id: Option<String>,
}

/// A cross-reference that names no section, with where it was found.
#[derive(Debug, Clone, Serialize)]
pub struct Unresolved {
    pub from: String,
    pub file: String,
    pub line: usize,
    pub text: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub sections: usize,
    pub errors: Vec<Problem>,
    pub cross_references: RefCounts,
    pub unresolved: Vec<Unresolved>,
}

#[derive(Debug, Clone, Copy, Serialize, Default)]
pub struct RefCounts {
    pub resolved: usize,
    pub unresolved: usize,
}

impl Report {
    pub fn is_clean(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Run every check on `corpus`, reading `ids.txt` and `aliases.txt` from its root.
pub fn lint(corpus: &Corpus) -> Result<Report> {
    let mut errors: Vec<Problem> = corpus.load_problems.iter().map(|p| located(p)).collect();
    for s in &corpus.sections {
        let at = |message: String| Problem::at(s, message);
        let prefix = format!("{}.{}.", s.game, s.document);
        if !s.id.starts_with(&prefix) {
            errors.push(at(format!("id {} does not start with {prefix}", s.id)));
        }
        if s.body.trim().is_empty() && s.children.is_empty() {
            errors.push(at(format!(
                "section {} (\"{}\") is empty: no body and no subsections",
                s.id, s.title
            )));
        }
        if s.kind == Kind::Example && !has_rule_ancestor(corpus, s) {
            errors.push(at(format!("example {} has no parent rule", s.id)));
        }
    }
    errors.extend(check_published_ids(corpus)?);

    let resolver = Resolver::new(corpus);
    let mut counts = RefCounts::default();
    let mut unresolved = Vec::new();
    for s in &corpus.sections {
        for r in resolver.cross_references(s) {
            if r.id.is_some() {
                counts.resolved += 1;
            } else {
                counts.unresolved += 1;
                unresolved.push(Unresolved {
                    from: s.id.clone(),
                    file: file_of(s),
                    line: s.line,
                    text: r.text,
                });
            }
        }
    }
    Ok(Report {
        sections: corpus.sections.len(),
        errors,
        cross_references: counts,
        unresolved,
    })
}

/// A load problem as a lint error: its message starts with `file:line:`.
fn located(msg: &str) -> Problem {
    let mut parts = msg.splitn(3, ':');
    let (file, line, rest) = (parts.next(), parts.next(), parts.next());
    match (file, line.and_then(|l| l.trim().parse().ok()), rest) {
        (Some(file), Some(line), Some(rest)) => {
            Problem::new(file.to_string(), line, None, rest.trim().to_string())
        }
        _ => Problem::new(String::new(), 0, None, msg.to_string()),
    }
}

/// The section's file inside the rulebook, with `/` between folders on every platform.
fn file_of(s: &Section) -> String {
    s.file.to_string_lossy().replace('\\', "/")
}

/// Whether a section that is not an example encloses `s` (looked for 65 levels up).
fn has_rule_ancestor(corpus: &Corpus, s: &Section) -> bool {
    std::iter::successors(Some(s), |p| {
        p.parent.as_deref().and_then(|id| corpus.get(id))
    })
    .skip(1)
    .take(65)
    .any(|p| p.kind != Kind::Example)
}

/// IDs listed in `ids.txt` (comments and blank lines skipped), with 1-based lines.
pub fn published_ids(root: &Path) -> Result<Option<Vec<(usize, String)>>> {
    let Some((_, text)) = read_if_there(root, IDS_FILE)? else {
        return Ok(None);
    };
    Ok(Some(
        crate::paths::listed_lines(&text)
            .map(|(n, id)| (n, id.trim().to_string()))
            .collect(),
    ))
}

/// Aliases from `aliases.txt`: `old-id -> new-id` per line, `#` comments.
/// A malformed line is an error naming file and line.
pub fn load_aliases(root: &Path) -> Result<HashMap<String, String>> {
    let Some((path, text)) = read_if_there(root, ALIASES_FILE)? else {
        return Ok(HashMap::new());
    };
    let mut out = HashMap::new();
    for (n, line) in crate::paths::listed_lines(&text) {
        let line = line.trim();
        match line.split_once("->") {
            Some((old, new)) if !old.trim().is_empty() && !new.trim().is_empty() => {
                out.insert(old.trim().to_string(), new.trim().to_string());
            }
            _ => {
                return Err(Error::Input(format!(
                    "{}:{n}: expected `old-id -> new-id`, found \"{line}\"",
                    path.display()
                )));
            }
        }
    }
    Ok(out)
}

/// The path and text of `root/name`; `None` when there is no such file.
fn read_if_there(root: &Path, name: &str) -> Result<Option<(PathBuf, String)>> {
    let path = root.join(name);
    if !path.exists() {
        return Ok(None);
    }
    let text = read_text_file(&path, super::MAX_FILE_BYTES, "not a regular file")?;
    Ok(Some((path, text)))
}

/// Follow aliases from `id` (16 names at most) to a section that exists, if any.
pub fn resolve_alias<'c>(
    corpus: &'c Corpus,
    aliases: &HashMap<String, String>,
    id: &str,
) -> Option<&'c Section> {
    std::iter::successors(Some(id), |cur| aliases.get(*cur).map(String::as_str))
        .take(16)
        .find_map(|cur| corpus.get(cur))
}

fn check_published_ids(corpus: &Corpus) -> Result<Vec<Problem>> {
    let mut out = Vec::new();
    let Some(ids) = published_ids(&corpus.root)? else {
        return Ok(out);
    };
    let aliases = match load_aliases(&corpus.root) {
        Ok(a) => a,
        Err(e) => {
            out.push(Problem::new(ALIASES_FILE.into(), 0, None, e.to_string()));
            HashMap::new()
        }
    };
    let mut seen = BTreeSet::new();
    for (line, id) in &ids {
        let at = |message: String| Problem::new(IDS_FILE.into(), *line, Some(id), message);
        if !seen.insert(id.as_str()) {
            out.push(at(format!("{id} is listed twice")));
        }
        if corpus.contains(id) {
            continue;
        }
        match aliases.get(id) {
            None => out.push(at(format!(
                "published id {id} no longer exists; add `{id} -> new-id` to {ALIASES_FILE}"
            ))),
            Some(_) if resolve_alias(corpus, &aliases, id).is_none() => out.push(at(format!(
                "published id {id} is aliased to a section that does not exist"
            ))),
            Some(_) => {}
        }
    }
    let listed: BTreeSet<&str> = ids.iter().map(|(_, id)| id.as_str()).collect();
    for s in corpus
        .sections
        .iter()
        .filter(|s| !listed.contains(s.id.as_str()))
    {
        let why = format!(
            "id {} is missing from {IDS_FILE} (rerun `swjudge convert`)",
            s.id
        );
        out.push(Problem::at(s, why));
    }
    Ok(out)
}

/// Finds cross-references in section bodies and resolves them to sections.
pub struct Resolver<'c> {
    corpus: &'c Corpus,
    /// Normalised title → indices of sections so titled.
    by_title: HashMap<String, Vec<usize>>,
    /// Normalised part of a title before or after " - " ("Starships - Landed" is
    /// found as "Landed" and as "Starships"), tried when no whole title matches.
    by_part: HashMap<String, Vec<usize>>,
}

impl<'c> Resolver<'c> {
    pub fn new(corpus: &'c Corpus) -> Resolver<'c> {
        let mut by_title: HashMap<String, Vec<usize>> = HashMap::new();
        let mut by_part: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, s) in corpus.sections.iter().enumerate() {
            let title = strip_numbering(&s.title);
            if let Some((head, tail)) = title.split_once(" - ") {
                let tail = tail.rsplit(" - ").next().unwrap_or(tail);
                for part in [normalize(head), normalize(tail)] {
                    if part.len() >= 3 {
                        by_part.entry(part).or_default().push(i);
                    }
                }
            }
            let mut keys = vec![normalize(&s.title), normalize(strip_numbering(&s.title))];
            if let Some(p) = s.parent.as_deref().and_then(|p| corpus.get(p)) {
                keys.push(normalize(&format!(
                    "{} {}",
                    strip_numbering(&p.title),
                    s.title
                )));
            }
            for k in keys.into_iter().filter(|k| k.len() >= 3).sorted().dedup() {
                by_title.entry(k).or_default().push(i);
            }
        }
        Resolver {
            corpus,
            by_title,
            by_part,
        }
    }

    /// The cross-references in `s`'s body, each resolved where the target exists.
    pub fn cross_references(&self, s: &Section) -> Vec<CrossRef> {
        let refs = mentions(&s.body).into_iter().map(|m| self.resolve(s, &m));
        refs.unique().collect()
    }

    /// Resolve one mention (the words after "see") from section `from`.
    pub fn resolve(&self, from: &Section, mention: &str) -> CrossRef {
        let words: Vec<&str> = mention.split_whitespace().take(14).collect();
        for map in [&self.by_title, &self.by_part] {
            for k in (1..=words.len()).rev() {
                let phrase = words[..k].join(" ");
                let phrase = phrase.trim_end_matches(|c: char| !c.is_alphanumeric());
                if let Some(s) = self.lookup(map, from, &normalize(phrase), mention) {
                    return CrossRef {
                        text: phrase.to_string(),
                        id: Some(s.id.clone()),
                    };
                }
            }
        }
        if let Some(s) = self.chapter(from, mention) {
            return CrossRef {
                text: mention.trim().to_string(),
                id: Some(s.id.clone()),
            };
        }
        CrossRef {
            text: short(mention),
            id: None,
        }
    }

    fn lookup(
        &self,
        map: &HashMap<String, Vec<usize>>,
        from: &Section,
        key: &str,
        mention: &str,
    ) -> Option<&'c Section> {
        let candidates = map.get(key)?;
        let family = family(&from.title);
        let chapter = chapter_hint(mention);
        candidates
            .iter()
            .map(|&i| &self.corpus.sections[i])
            .filter(|s| s.game == from.game && s.id != from.id)
            .min_by_key(|s| {
                let in_chapter = chapter.as_ref().is_none_or(|c| {
                    s.breadcrumb
                        .get(1)
                        .is_some_and(|b| normalize(b).starts_with(c.as_str()))
                });
                let same_family = match (&family, self::family(&s.title)) {
                    (Some(a), Some(b)) => b.starts_with(a.as_str()) || a.starts_with(b.as_str()),
                    _ => false,
                };
                (
                    !in_chapter,
                    s.document != from.document,
                    s.superseded,
                    !same_family,
                    s.parent != from.parent,
                    s.kind == Kind::Example,
                )
            })
    }

    /// "see Ch. 8", "see Chapter 8", "see Appendix C", "Ap. C": the chapter itself.
    fn chapter(&self, from: &Section, mention: &str) -> Option<&'c Section> {
        let want = chapter_hint(&format!(", {mention}"))?;
        self.corpus
            .sections
            .iter()
            .filter(|s| s.game == from.game && s.document == from.document && s.id != from.id)
            .find(|s| {
                let t = normalize(&s.title);
                t == want || t.starts_with(&format!("{want} "))
            })
    }
}

/// The part of a title before " - " ("Starships" for "Starships - Landed").
fn family(title: &str) -> Option<String> {
    let (head, _) = strip_numbering(title).split_once(" - ")?;
    Some(normalize(head)).filter(|h| !h.is_empty())
}

/// "…, Ch. 3" / "Chapter 3" / "Ap. B" / "Appendix B" in a mention, normalised
/// to "chapter 3" / "appendix b".
fn chapter_hint(mention: &str) -> Option<String> {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)(?:^|[,\s(])(ch|chapter|ap|app|appendix)\.?\s*([0-9]+|[a-f])\b")
            .expect("valid regex")
    });
    let c = RE.captures(mention)?;
    let which = if c[1].to_ascii_lowercase().starts_with("ch") {
        "chapter"
    } else {
        "appendix"
    };
    Some(format!("{which} {}", c[2].to_ascii_lowercase()))
}

/// The words following each "See"/"(see" in `body`, up to a closing bracket,
/// line end or semicolon. A lowercase "see" outside brackets is prose ("you can
/// see") and is skipped.
pub fn mentions(body: &str) -> Vec<String> {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:(\()\s*|\b)(See|see|SEE)(?:\s+also)?[:\s]+").expect("valid regex")
    });
    let mut out = Vec::new();
    for c in RE.captures_iter(body) {
        let (Some(all), Some(word)) = (c.get(0), c.get(2)) else {
            continue;
        };
        let bracketed = c.get(1).is_some();
        // "…, see Ch. 8)" and "; see The Stack" are references too; "you can see" is not.
        let after_clause = body[..all.start()].trim_end().ends_with([',', ';']);
        if !bracketed && !after_clause && word.as_str() == "see" {
            continue;
        }
        let rest = strip_numbering(body[all.end()..].trim_start_matches(['"', '\'', '*', '“']));
        let text = rest[..mention_end(rest)]
            .trim()
            .trim_end_matches(['"', '\'', '*', '”'])
            .trim();
        if text.is_empty() || !text.starts_with(|c: char| c.is_alphanumeric()) {
            continue;
        }
        if bracketed || text.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit()) {
            out.push(text.to_string());
        }
    }
    out
}

/// Where a mention ends: a closing bracket, line end or semicolon, or a sentence
/// end (". " before a capital) that is not an abbreviation like "Ch." or "Ap.".
fn mention_end(rest: &str) -> usize {
    let mut end = rest.find([')', '\n', ';', ']']).unwrap_or(rest.len());
    for (i, _) in rest[..end].match_indices(". ") {
        let before = rest[..i]
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("");
        let numeral = !before.is_empty() && before.chars().all(|c| c.is_ascii_digit());
        let abbreviation = (!numeral && before.len() <= 2)
            || matches!(before.to_ascii_lowercase().as_str(), "app" | "chap" | "vs");
        let next_upper = rest[i + 2..].starts_with(|c: char| c.is_uppercase());
        if !abbreviation && next_upper {
            end = i;
            break;
        }
    }
    let mut end = end.min(200);
    while !rest.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// Drop a leading outline number: "1.E. Failed Destiny Draws", "1D. Card States",
/// "Section C. Actions", "Part 2. Dice".
fn strip_numbering(title: &str) -> &str {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^(?i:(?:section|part)\s+)?(?:[0-9]{1,2}\.?\s?[A-Z]?\.|[A-Z]\.|[0-9]{1,2}\.)\s+",
        )
        .expect("valid regex")
    });
    match RE.find(title) {
        Some(m) if m.end() < title.len() => &title[m.end()..],
        _ => title,
    }
}

/// Lowercase words, punctuation dropped, a trailing plural "s" dropped from each word.
pub fn normalize(s: &str) -> String {
    slug(s)
        .split('-')
        .filter(|w| !w.is_empty())
        .map(|w| {
            if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
                &w[..w.len() - 1]
            } else {
                w
            }
        })
        .join(" ")
}

/// A mention shortened for reports: up to the first comma or sentence end.
fn short(mention: &str) -> String {
    let cut = mention.find([',', '.']).unwrap_or(mention.len());
    let s = mention[..cut].trim();
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_mentions() {
        let m = mentions(
            "Life Force (see entry, Ch. 1). See The Stack for details. You can see that. (see 1.E. Failed Destiny Draws)",
        );
        assert_eq!(
            m,
            [
                "entry, Ch. 1",
                "The Stack for details",
                "Failed Destiny Draws"
            ]
        );
        let m = mentions(
            "drawn into your hand (during the Draw Phase, see Ch. 8) or left; so you see it",
        );
        assert_eq!(m, ["Ch. 8"]);
        let m = mentions("See Empty Deck Or Pile, Empty Hand, Ch. 2. Next sentence.");
        assert_eq!(m, ["Empty Deck Or Pile, Empty Hand, Ch. 2"]);
    }

    #[test]
    fn normalizes_titles() {
        assert_eq!(normalize("Force Drains"), normalize("force drain"));
        assert_eq!(normalize("Obi-Wan's Cape"), "obi wan cape");
        assert_eq!(
            strip_numbering("1.E. Failed Destiny Draws"),
            "Failed Destiny Draws"
        );
        assert_eq!(strip_numbering("Section C. Actions"), "Actions");
        assert_eq!(
            strip_numbering("Part 2. Dice & Dice Symbols"),
            "Dice & Dice Symbols"
        );
        assert_eq!(strip_numbering("The Stack"), "The Stack");
    }

    #[test]
    fn chapter_hints() {
        assert_eq!(
            chapter_hint("Activating Force, Ch. 3").as_deref(),
            Some("chapter 3")
        );
        assert_eq!(
            chapter_hint("Eyes In The Dark, Ap. B").as_deref(),
            Some("appendix b")
        );
        assert_eq!(chapter_hint("The Stack"), None);
    }
}
