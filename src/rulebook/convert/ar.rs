//! Converter for the SWCCG Advanced Rulebook 3.27: the introduction and
//! Chapters 1–9 here; the appendices in [`super::ar_appendix`].
//!
//! The heading levels in the extraction carry no meaning, so the hierarchy is
//! rebuilt from the titles:
//!
//! - `Chapter N - …` is level 1 (ID `swccg.ar.chapter-N`), `Section X. …` level 2;
//! - an entry sits directly under its section, or under the chapter when the
//!   chapter has no sections;
//! - `Base - Something`, where `Base` is an earlier entry of the chapter (or the
//!   part after the dash of one, as `Regular` in `Movement - Regular`), nests one
//!   level below that entry;
//! - examples (`… - Example 2`, `… Examples`, `… - A Simple Example`) are
//!   `.example` sections one level below the rule they illustrate: the nearest
//!   earlier entry whose title equals or begins the example's base title, else
//!   the nearest earlier entry;
//! - steps (`Step 3: …`), headings starting in lowercase, and headings repeating
//!   an earlier entry inside an example or a walkthrough (`Presence` inside
//!   `Present, Presence And Prepositions - A Simple Example`) become children of
//!   the section they appear in.
//!
//! Headings hidden in the text are recovered: plain lines shaped like an example
//! or step title, `**Title** text` lines, and `Title See …` headings. Headings
//! ending with a colon that are really lead-in text go back into the body.
//! One-off repairs live in `rulebook/corrections/ar.yaml`.

use super::text::re;
use super::{Document, OutFile, OutSection, assign_ids, clean};
use crate::error::{Error, Result};
use crate::rulebook::{Game, Kind, slug};
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

pub const DOCUMENT: Document = Document {
    game: Game::Swccg,
    key: "ar",
    title: "Star Wars CCG Advanced Rulebook 3.27",
    superseded_by: None,
};
pub const ID_PREFIX: &str = "swccg.ar.";

/// File name stem of each chapter, `ar-0N-<stem>.md`.
#[rustfmt::skip]
const CHAPTER_FILES: [&str; 9] = [
    "basics", "starting-the-game", "activation", "control-and-force-drains", "deploying", "battles",
    "movement", "draw-phase", "the-cards",
];

pub fn convert(text: &str) -> Result<Vec<OutFile>> {
    let split = text.find("\n# Appendix A - Errata").ok_or_else(|| {
        Error::Input("AR: cannot find the \"# Appendix A - Errata\" heading".into())
    })?;
    let mut files = chapters(&text[..split])?;
    files.extend(super::ar_appendix::convert(&text[split + 1..])?);
    Ok(files)
}

static CHAPTER: LazyLock<Regex> = LazyLock::new(|| re(r"^Chapter (\d+) - \S"));
static SECTION: LazyLock<Regex> = LazyLock::new(|| re(r"^Section [A-Z]\. "));
static EXAMPLE_WORD: LazyLock<Regex> = LazyLock::new(|| re(r"\bExamples?\b"));
/// A plain text line that is really an example heading.
static PLAIN_EXAMPLE: LazyLock<Regex> =
    LazyLock::new(|| re(r"^[A-Z][^.!?;:]{0,90}\bExamples?(?: \d+)?(?: - [^.!?;:]{1,60})?$"));
/// A plain text line that is really a step heading.
static PLAIN_STEP: LazyLock<Regex> =
    LazyLock::new(|| re(r"^Step (?:\d+[:)]|[A-Z] -) [^.!?;]{1,70}$"));
static STEP: LazyLock<Regex> = LazyLock::new(|| re(r"^Step (?:\d+[:)]|[A-Z] -) "));
/// `**Title** text` at the start of a line: a heading glued to its paragraph.
static BOLD_LEAD: LazyLock<Regex> = LazyLock::new(|| re(r"^\*\*([A-Z][^*]{2,90}?)\*\*\s*(\S.*)$"));
/// `X - Example N - Subtitle`: the ID leaves out the subtitle.
static NUMBERED_EXAMPLE: LazyLock<Regex> = LazyLock::new(|| re(r"^(.+ - Examples? \d+) - .+$"));

/// Entries that head the entries after them, up to and including the one
/// named last: the extraction prints them all as peers, but the first is the
/// topic of the rest (`Deployment Restrictions` → `Location Deployment
/// Restrictions` … `Objective Deployment Restrictions`).
#[rustfmt::skip]
const GROUPS: [(&str, &str); 25] = [
    ("Types of Actions", "Mandatory Actions"),
    ("Steps Of An Action - 1: Initiation", "Paying Costs"),
    ("Steps Of An Action - 2: Responses", "Actions - Just Targeted"),
    ("The Stack", "Responding To Coming Off The Stack"),
    ("Canceling And Suspending", "Suspending Cards"),
    ("Starting The Game - General Rules", "Starting Location"),
    ("Turn", "Order Of Events In A Turn"),
    ("Force Drain", "\"Opponent's Force Drain Modifiers\""),
    ("Deployment Restrictions", "Objective Deployment Restrictions"),
    ("Persona", "Persona - Crossing Over"),
    ("Steps of a Battle", "Battle Just Ended"),
    ("Movement", "Movement - moving through locations"),
    ("Card Attributes", "Flavor Text"),
    ("Issues With Physical Cards", "Alternate Image Cards"),
    ("Characters", "Characters - Icons"),
    ("Characters - Force Sensitivity", "Characters - Jedi Master"),
    ("Locations", "Locations - Icons"),
    ("Locations - Sites", "Starship and Vehicle Sites"),
    ("Locations - Sectors", "Death Star II Sectors"),
    ("Locations - Systems", "Mobile"),
    ("Locations - General", "Xizor's Palace Sites"),
    ("Starships", "Starships - Icons"),
    ("Weapons", "Weapons - Stealing"),
    ("Matching Pairs", "Matching By Game Text"),
    ("Virtual Cards", "Not Unique/Is Doubled/etc. and Virtual Cards"),
];

/// Examples whose title names no single rule, with the rule they illustrate
/// (`None`: the chapter as a whole, for examples spanning several entries).
#[rustfmt::skip]
const EXAMPLE_PARENTS: [(&str, Option<&str>); 5] = [
    ("Examples of destinies \"about to be drawn\"", Some("About to Draw")),
    ("Force Draining And Presence - A Set Of Complex Examples", None),
    ("Regular Moves - Examples", Some("Movement - Regular")),
    ("Regular Moves And Unlimited Moves - Examples", Some("Movement")),
    ("Drawing, Draw Phase, And End of Turn - Examples", None),
];

/// An open group: its heading level, and whether its last member was seen.
#[derive(Debug)]
struct Group {
    level: u8,
    last: &'static str,
    done: bool,
}

/// One piece of the seed after heading recovery.
#[derive(Debug)]
enum Item {
    Head(String),
    Line(String),
}

/// Recover headings: `#` lines (cleaned and split from glued text), `**Title** text`
/// lines, and plain lines shaped like example or step titles.
fn items(text: &str) -> Vec<Item> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim_end();
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && t[hashes..].starts_with(' ') {
            push_heading(t[hashes..].trim(), &mut out);
        } else if let Some(c) = BOLD_LEAD
            .captures(t)
            .filter(|c| !c[1].ends_with(':') && !c[2].starts_with(['–', '-', ':', ',', '.']))
        {
            out.push(Item::Head(clean::title(&c[1])));
            out.push(Item::Line(String::new()));
            out.push(Item::Line(c[2].to_string()));
        } else if t.len() <= 120
            && (PLAIN_EXAMPLE.is_match(t.trim()) || PLAIN_STEP.is_match(t.trim()))
        {
            out.push(Item::Head(clean::title(t)));
        } else {
            out.push(Item::Line(t.to_string()));
        }
    }
    out
}

fn push_heading(raw: &str, out: &mut Vec<Item>) {
    let (head, mut rest) = match raw
        .strip_prefix("**")
        .and_then(|r| r.find("**").map(|j| (&r[..j], r[j + 2..].trim())))
    {
        Some((h, r)) if !r.is_empty() && !r.starts_with(['–', '-', ':']) => {
            (h.to_string(), r.to_string())
        }
        _ => (raw.to_string(), String::new()),
    };
    let mut title = clean::title(&head);
    if let Some(i) = title.find(" See ") {
        let see = title[i + 1..].to_string();
        rest = if rest.is_empty() {
            see
        } else {
            format!("{see} {rest}")
        };
        title.truncate(i);
    }
    if !title.is_empty() {
        out.push(Item::Head(title));
    }
    if !rest.is_empty() {
        out.push(Item::Line(String::new()));
        out.push(Item::Line(rest));
        out.push(Item::Line(String::new()));
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Role {
    Chapter,
    Section,
    Entry,
    /// A step or sub-heading inside another section.
    Child,
}

#[derive(Debug)]
struct Sec {
    /// Position in the seed, stable while examples move.
    uid: usize,
    /// For an example: the `uid` of the rule it illustrates.
    under: Option<usize>,
    level: u8,
    title: String,
    kind: Kind,
    role: Role,
    lines: Vec<String>,
}

/// Letters, digits, spaces and dashes, lowercase; `/` reads as "or".
fn norm(s: &str) -> String {
    let s = s.to_lowercase().replace('/', " or ");
    clean::collapse_spaces(&s.replace(|c: char| !c.is_alphanumeric() && c != '-', " "))
}

/// The title a section is matched on: sections without their `Section X.` label.
fn match_title(s: &Sec) -> String {
    match s.role {
        Role::Section => norm(&SECTION.replace(&s.title, "")),
        _ => norm(&s.title),
    }
}

/// The rule title an example illustrates: the text before `Example(s)`, without
/// `- A Simple`, `- An`, `Set Of Complex` and the like.
fn example_base(title: &str) -> String {
    if let Some(r) = title.strip_prefix("Examples of ") {
        return norm(r);
    }
    let before = EXAMPLE_WORD
        .find(title)
        .map_or(title, |m| &title[..m.start()]);
    const FILLERS: [&str; 10] = [
        "a", "an", "simple", "more", "complex", "detailed", "set", "of", "-", "–",
    ];
    let mut words: Vec<&str> = before.split_whitespace().collect();
    while words
        .last()
        .is_some_and(|w| FILLERS.contains(&w.to_lowercase().as_str()))
    {
        words.pop();
    }
    norm(&words.join(" "))
}

/// `n` names the same rule as `base`, or begins it (`Reset` for `Resets`,
/// `Battle` for `Battles`, `Inactive` for `Inactive Cards`).
fn begins(base: &str, n: &str) -> bool {
    if n.is_empty() || !base.starts_with(n) {
        return false;
    }
    let rest = &base[n.len()..];
    rest.is_empty() || rest.starts_with([' ', '-', 's'])
}

/// Where an example hangs, nearest earlier rule first: one named exactly by the
/// base title (or `… - base`, or for `X - Y` one starting with `X - Y` or starting
/// with `X` and mentioning `Y`); else one whose title begins the base (`Reset`
/// for `Resets`); else the nearest earlier rule.
fn example_parent(secs: &[Sec], title: &str) -> Option<usize> {
    if let Some(&(_, rule)) = EXAMPLE_PARENTS.iter().find(|(t, _)| *t == title) {
        let found = secs.iter().enumerate().rev().find(|(_, s)| match rule {
            Some(r) => s.title == r && s.role != Role::Child && s.kind != Kind::Example,
            None => s.role == Role::Chapter,
        });
        if let Some((i, _)) = found {
            return Some(i);
        }
    }
    let base = example_base(title);
    let rules = || {
        secs.iter()
            .enumerate()
            .rev()
            .filter(|(_, s)| s.role != Role::Child && s.kind != Kind::Example)
    };
    if !base.is_empty() {
        let suffix = format!("- {base}");
        let split = base.split_once(" - ");
        let exact = rules().find(|(_, s)| {
            let n = match_title(s);
            n == base
                || n.strip_suffix('s') == Some(base.as_str())
                || n.ends_with(&suffix)
                || split
                    .is_some_and(|(x, y)| begins(&n, &base) || (n.starts_with(x) && n.contains(y)))
        });
        if let Some((i, _)) =
            exact.or_else(|| rules().find(|(_, s)| begins(&base, &match_title(s))))
        {
            return Some(i);
        }
    }
    rules().next().map(|(i, _)| i)
}

/// Where `Base - Something` hangs: among the sections enclosing the heading
/// (`path`, innermost last), the innermost one called `Base` (longest base
/// first), else one whose part after the first dash is `Base` (`Regular` in
/// `Movement - Regular`). A base that no longer encloses the heading does not
/// count: the heading then stays a plain entry.
fn subentry_parent(secs: &[Sec], path: &[usize], title: &str) -> Option<usize> {
    let cuts: Vec<usize> = title.match_indices(" - ").map(|(i, _)| i).collect();
    let candidates = || {
        path.iter().rev().copied().filter(|&i| {
            secs[i].kind != Kind::Example && matches!(secs[i].role, Role::Entry | Role::Section)
        })
    };
    for &cut in cuts.iter().rev() {
        let base = norm(&title[..cut]);
        let plural = format!("{base}s");
        if let Some(i) = candidates().find(|&i| {
            let n = match_title(&secs[i]);
            n == base || n == plural
        }) {
            return Some(i);
        }
        if let Some(i) = candidates().find(|&i| {
            secs[i]
                .title
                .split_once(" - ")
                .is_some_and(|(_, tail)| norm(tail) == base)
        }) {
            return Some(i);
        }
    }
    None
}

/// Indices of the sections that enclose a heading about to be added at `level`
/// after `secs`, outermost first.
fn enclosing(secs: &[Sec], level: u8) -> Vec<usize> {
    let mut path = Vec::new();
    let mut cur = level;
    for (i, s) in secs.iter().enumerate().rev() {
        if s.level < cur {
            path.push(i);
            cur = s.level;
        }
    }
    path.reverse();
    path
}

/// The output order: each example (with its sub-headings) whose rule does not
/// enclose it moves to the end of that rule's subtree, so the heading
/// hierarchy nests it there. Returns seed positions in output order.
fn place_examples(secs: &[Sec]) -> Vec<usize> {
    let mut slots: Vec<&Sec> = secs.iter().collect();
    for uid in 0..slots.len() {
        let Some(pos) = slots.iter().position(|s| s.uid == uid) else {
            continue;
        };
        let Some(parent_uid) = slots[pos].under else {
            continue;
        };
        let Some(ppos) = slots.iter().position(|s| s.uid == parent_uid) else {
            continue;
        };
        let level = slots[pos].level;
        let enclosing = slots[..pos].iter().rposition(|s| s.level < level);
        if enclosing == Some(ppos) || ppos > pos {
            continue;
        }
        let end = slots[pos + 1..]
            .iter()
            .position(|s| s.level <= level)
            .map_or(slots.len(), |k| pos + 1 + k);
        let block: Vec<&Sec> = slots.drain(pos..end).collect();
        let plevel = slots[ppos].level;
        let at = slots[ppos + 1..]
            .iter()
            .position(|s| s.level <= plevel)
            .map_or(slots.len(), |k| ppos + 1 + k);
        slots.splice(at..at, block);
    }
    slots.into_iter().map(|s| s.uid).collect()
}

/// Builder for one output file.
#[derive(Default)]
struct FileBuild {
    stem: String,
    secs: Vec<Sec>,
    has_sections: bool,
    /// Index of the section that sub-headings attach to.
    container: Option<usize>,
    /// Open groups, innermost last.
    groups: Vec<Group>,
}

impl FileBuild {
    fn new(stem: String) -> FileBuild {
        FileBuild {
            stem,
            ..FileBuild::default()
        }
    }

    fn push_line(&mut self, line: String) {
        if let Some(s) = self.secs.last_mut() {
            s.lines.push(line);
        }
    }

    fn push(&mut self, level: u8, title: String, kind: Kind, role: Role) {
        let uid = self.secs.len();
        self.secs.push(Sec {
            uid,
            under: None,
            level: level.min(6),
            title,
            kind,
            role,
            lines: Vec::new(),
        });
        if role != Role::Child {
            self.container = Some(self.secs.len() - 1);
        }
    }

    fn container(&self) -> Option<&Sec> {
        self.container.map(|i| &self.secs[i])
    }

    /// Place one heading of a chapter.
    fn heading(&mut self, title: String) {
        if SECTION.is_match(&title) {
            self.has_sections = true;
            self.groups.clear();
            self.push(2, title, Kind::Rule, Role::Section);
            return;
        }
        let in_example = self.container().is_some_and(|c| c.kind == Kind::Example);
        if let Some(lead) = title.strip_suffix(':')
            && !EXAMPLE_WORD.is_match(&title)
        {
            if in_example && title.split_whitespace().count() <= 6 {
                self.child(lead.trim().to_string());
            } else {
                let text = if title.split_whitespace().count() <= 4 {
                    format!("**{title}**")
                } else {
                    title
                };
                self.push_line(String::new());
                self.push_line(text);
                self.push_line(String::new());
            }
            return;
        }
        let title = title.trim_end_matches(':').trim().to_string();
        if EXAMPLE_WORD.is_match(&title) {
            let parent = example_parent(&self.secs, &title);
            let level = parent.map_or(2, |p| self.secs[p].level + 1);
            self.push(level, title, Kind::Example, Role::Entry);
            if let Some(last) = self.secs.last_mut() {
                last.under = parent;
            }
            return;
        }
        let first_lower = title
            .trim_start_matches(['\'', '"', '‘', '“'])
            .chars()
            .next()
            .is_some_and(char::is_lowercase);
        let n = norm(&title);
        let repeats = self.secs.iter().any(|s| {
            s.role == Role::Entry
                && s.kind == Kind::Rule
                && match_title(s) == n
                && (in_example || s.title != title)
        });
        if STEP.is_match(&title) || first_lower || repeats {
            self.child(title);
            return;
        }
        while self.groups.last().is_some_and(|g| g.done) {
            self.groups.pop();
        }
        let entry = match self.groups.last() {
            Some(g) => g.level + 1,
            None if self.has_sections => 3,
            None => 2,
        };
        let path = enclosing(&self.secs, 6);
        let level = subentry_parent(&self.secs, &path, &title)
            .map_or(entry, |p| (self.secs[p].level + 1).max(entry));
        if let Some(g) = self.groups.last_mut()
            && g.last == title
        {
            g.done = true;
        }
        if let Some(&(_, last)) = GROUPS.iter().find(|(first, _)| *first == title) {
            self.groups.push(Group {
                level: level.min(6),
                last,
                done: false,
            });
        }
        self.push(level, title, Kind::Rule, Role::Entry);
    }

    fn child(&mut self, title: String) {
        let (level, kind) = self
            .container()
            .map_or((2, Kind::Rule), |c| (c.level + 1, c.kind));
        self.push(level, title, kind, Role::Child);
    }
}

fn chapters(text: &str) -> Result<Vec<OutFile>> {
    let start = text.find("\n## Introduction\n").ok_or_else(|| {
        Error::Input(
            "AR: cannot find the \"## Introduction\" heading after the table of contents".into(),
        )
    })?;
    let mut builds: Vec<FileBuild> = vec![FileBuild::new("ar-00-introduction".into())];
    let mut chapter_no: Vec<Option<usize>> = vec![None];
    for item in items(&text[start + 1..]) {
        let Some(b) = builds.last_mut() else { continue };
        match item {
            Item::Line(l) => b.push_line(l),
            Item::Head(title) => {
                if let Some(c) = CHAPTER.captures(&title) {
                    let n: usize = c[1].parse().map_err(|_| {
                        Error::Input(format!("AR: bad chapter number in {title:?}"))
                    })?;
                    let stem = CHAPTER_FILES.get(n.wrapping_sub(1)).ok_or_else(|| {
                        Error::Input(format!("AR: unexpected chapter {n}: {title:?}"))
                    })?;
                    let mut nb = FileBuild::new(format!("ar-{n:02}-{stem}"));
                    nb.push(1, title, Kind::Rule, Role::Chapter);
                    builds.push(nb);
                    chapter_no.push(Some(n));
                } else if chapter_no.len() == 1 {
                    b.push(1, title, Kind::Rule, Role::Entry);
                } else {
                    b.heading(title);
                }
            }
        }
    }
    let found: Vec<usize> = chapter_no.iter().flatten().copied().collect();
    if found != (1..=9).collect::<Vec<_>>() {
        return Err(Error::Input(format!(
            "AR: expected Chapters 1–9 in order, found {found:?}"
        )));
    }

    let mut taken = BTreeSet::new();
    let mut files = Vec::new();
    for (b, chapter) in builds.into_iter().zip(chapter_no) {
        let order = place_examples(&b.secs);
        let mut sections: Vec<OutSection> = b
            .secs
            .into_iter()
            .map(|s| {
                let lines: Vec<&str> = s.lines.iter().map(String::as_str).collect();
                let id = match s.role {
                    Role::Chapter => chapter
                        .map(|n| format!("{ID_PREFIX}chapter-{n}"))
                        .unwrap_or_default(),
                    _ => NUMBERED_EXAMPLE
                        .captures(&s.title)
                        .filter(|_| s.kind == Kind::Example)
                        .map(|c| format!("{ID_PREFIX}{}", slug(&c[1])))
                        .unwrap_or_default(),
                };
                OutSection {
                    level: s.level,
                    title: s.title,
                    id,
                    kind: s.kind,
                    body: clean::body(&lines, &clean::CHAPTERS),
                }
            })
            .collect();
        for s in &mut sections {
            if !s.id.is_empty() && !taken.insert(s.id.clone()) {
                s.id.clear();
            }
        }
        // IDs follow the seed order, so moving an example never changes one.
        assign_ids(ID_PREFIX, &mut sections, &mut taken);
        let mut slots: Vec<Option<OutSection>> = sections.into_iter().map(Some).collect();
        let sections: Vec<OutSection> = order
            .iter()
            .filter_map(|&i| slots.get_mut(i).and_then(Option::take))
            .collect();
        files.push(DOCUMENT.file(&format!("swccg/{}.md", b.stem), sections));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn titles(text: &str) -> Vec<(u8, String, Kind)> {
        let files = chapters(text).unwrap();
        files
            .iter()
            .flat_map(|f| f.sections.iter().map(|s| (s.level, s.id.clone(), s.kind)))
            .collect()
    }

    fn doc(body: &str) -> String {
        let mut s = String::from("TOC\n\n## Introduction\n\nIntro.\n\n");
        s.push_str(body);
        for n in 2..=9 {
            s.push_str(&format!("\n# Chapter {n} - C{n}\n\nText.\n"));
        }
        s
    }

    #[test]
    fn hierarchy_is_rebuilt_from_titles() {
        let text = doc(
            "## Chapter 1 - Basics\n\n## Section C. Actions\n\nA.\n\n# **Targeting**\n\nT.\n\n#### Targeting - Retargeting\n\nR.\n\nActions - Example 3 - Just Actions And Backing Up\nLight plays.\n\n#### Implied Target Rule - Examples\n\nE.\n",
        );
        let got = titles(&text);
        let want = [
            (1, "swccg.ar.introduction".to_string(), Kind::Rule),
            (1, "swccg.ar.chapter-1".into(), Kind::Rule),
            (2, "swccg.ar.section-c-actions".into(), Kind::Rule),
            (3, "swccg.ar.targeting".into(), Kind::Rule),
            (4, "swccg.ar.targeting-retargeting".into(), Kind::Rule),
            // No rule matches, so it hangs under the nearest rule, and moves there.
            (
                5,
                "swccg.ar.implied-target-rule-examples".into(),
                Kind::Example,
            ),
            (3, "swccg.ar.actions-example-3".into(), Kind::Example),
        ];
        assert_eq!(&got[..7], &want);
    }

    #[test]
    fn sub_headings_inside_an_example_are_its_children() {
        let text = doc(
            "## Chapter 1 - Basics\n\n#### Prepositions\n\nP.\n\n#### Presence\n\nQ.\n\n# Prepositions - A Simple Example\n\nX.\n\n#### Prepositions\n\nY.\n\n#### Presence\n\nZ.\n\n#### Also note:\n\nW.\n",
        );
        let got = titles(&text);
        // The example moves under the rule it illustrates, with its sub-headings.
        assert_eq!(
            got[3],
            (
                3,
                "swccg.ar.prepositions-a-simple-example".into(),
                Kind::Example
            )
        );
        assert_eq!(
            got[4],
            (
                4,
                "swccg.ar.prepositions-a-simple-example-prepositions".into(),
                Kind::Example
            )
        );
        assert_eq!(got[5].0, 4);
        assert_eq!(got[7], (2, "swccg.ar.presence".into(), Kind::Rule));
        let files = chapters(&text).unwrap();
        assert_eq!(files[1].sections[3].body, "Y.");
        assert_eq!(files[1].sections[5].title, "Also note");
        assert_eq!(files[1].sections[5].kind, Kind::Example);
    }

    #[test]
    fn glued_headings_are_split() {
        let text = doc(
            "## Chapter 1 - Basics\n\n# **Deploying Cards On Vehicles** See Starships, Ch. 9\n\n**Unlimited - Escaping**See Blown Away.\n",
        );
        let files = chapters(&text).unwrap();
        let s = &files[1].sections;
        assert_eq!(s[1].title, "Deploying Cards On Vehicles");
        assert_eq!(s[1].body, "See Starships, Ch. 9");
        assert_eq!(s[2].title, "Unlimited - Escaping");
        assert_eq!(s[2].body, "See Blown Away.");
    }

    #[test]
    fn a_group_heading_holds_the_entries_up_to_its_last_member() {
        let text = doc(
            "## Chapter 1 - Basics\n\n# Deployment Restrictions\n\nA.\n\n# Location Deployment Restrictions\n\nB.\n\n# Objective Deployment Restrictions\n\nC.\n\n# Never Deploys Or Moves\n\nD.\n",
        );
        let got: Vec<u8> = titles(&text).iter().map(|t| t.0).collect();
        assert_eq!(&got[2..6], [2, 3, 3, 2]);
    }

    #[test]
    fn listed_examples_hang_under_their_rule_or_the_chapter() {
        let text = doc(
            "## Chapter 1 - Basics\n\n# About to Draw\n\nA.\n\n# Modifying Totals\n\nM.\n\n# Examples of destinies \"about to be drawn\"\n\nE.\n\n# Drawing, Draw Phase, And End of Turn - Examples\n\nD.\n",
        );
        let got = titles(&text);
        assert_eq!(got[2], (2, "swccg.ar.about-to-draw".into(), Kind::Rule));
        assert_eq!(
            got[3],
            (
                3,
                "swccg.ar.examples-of-destinies-about-to-be-drawn".into(),
                Kind::Example
            )
        );
        assert_eq!(got[4], (2, "swccg.ar.modifying-totals".into(), Kind::Rule));
        assert_eq!(
            got[5],
            (
                2,
                "swccg.ar.drawing-draw-phase-and-end-of-turn-examples".into(),
                Kind::Example
            )
        );
    }

    #[test]
    fn missing_chapter_is_an_error() {
        assert!(chapters("## Introduction\n\n# Chapter 1 - A\n").is_err());
    }
}
