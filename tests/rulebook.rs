//! Integration tests: the converted rulebook corpus under `rulebook/`.
//!
//! - the corpus loads, IDs are unique, and the IDs other code cites exist;
//! - coverage: sentences sampled from the seed documents are found in the
//!   Markdown, so the conversion loses no rule text;
//! - converting the seeds writes exactly the committed Markdown, and keeps
//!   the seeds' sentences.

use crate::util::*;
use std::collections::HashSet;
use swjudge::rulebook::{Corpus, Game, Kind, convert};

fn corpus() -> Corpus {
    match Corpus::load(&rulebook()) {
        Ok(c) => c,
        Err(e) => panic!("rulebook does not load: {e}"),
    }
}

fn has_ar(c: &Corpus) -> bool {
    c.documents
        .iter()
        .any(|(_, m)| m.game == Game::Swccg && m.document == "ar")
}

#[test]
fn corpus_loads_with_unique_ids() {
    let c = corpus();
    assert!(
        c.load_problems.is_empty(),
        "load problems:\n{}",
        c.load_problems.join("\n")
    );
    let mut seen = HashSet::new();
    for s in &c.sections {
        assert!(seen.insert(s.id.as_str()), "duplicate id {}", s.id);
        assert!(!s.title.is_empty(), "{} has an empty title", s.id);
    }
}

#[test]
fn required_ar_ids_exist() {
    let c = corpus();
    if !has_ar(&c) {
        println!("note: no swccg.ar Markdown yet; skipped");
        return;
    }
    let mut required: Vec<String> = [
        "the-stack",
        "battles-a-simple-example",
        "immune-to-attrition-example-1",
        "draw-x-choose-y-example-1",
    ]
    .iter()
    .map(|s| format!("swccg.ar.{s}"))
    .collect();
    required.extend((1..=9).map(|n| format!("swccg.ar.actions-example-{n}")));
    required.extend((1..=9).map(|n| format!("swccg.ar.chapter-{n}")));
    required.push("swccg.ar.section-c-actions".into());
    let missing: Vec<&String> = required.iter().filter(|id| !c.contains(id)).collect();
    assert!(missing.is_empty(), "missing ids: {missing:?}");
}

#[test]
fn ar_hierarchy_nests_examples_and_subentries() {
    let c = corpus();
    if !has_ar(&c) {
        println!("note: no swccg.ar Markdown yet; skipped");
        return;
    }
    let get = |id: &str| c.get(id).unwrap_or_else(|| panic!("missing {id}"));
    let ex = get("swccg.ar.actions-example-3");
    assert_eq!(ex.kind, Kind::Example);
    assert_eq!(
        ex.title,
        "Actions - Example 3 - Just Actions And Backing Up"
    );
    assert!(
        ex.body.starts_with("Light plays Nabrun Leids"),
        "{}",
        ex.body
    );
    assert_eq!(ex.parent.as_deref(), Some("swccg.ar.section-c-actions"));
    assert_eq!(
        get("swccg.ar.section-c-actions").parent.as_deref(),
        Some("swccg.ar.chapter-1")
    );
    assert_eq!(
        get("swccg.ar.the-stack").parent.as_deref(),
        Some("swccg.ar.section-c-actions")
    );
    assert_eq!(
        get("swccg.ar.losing-force-from-x").parent.as_deref(),
        Some("swccg.ar.losing-force")
    );
    assert_eq!(
        get("swccg.ar.targeting-retargeting").parent.as_deref(),
        Some("swccg.ar.targeting")
    );
    assert_eq!(
        get("swccg.ar.power-segment-draw-battle-destinies")
            .parent
            .as_deref(),
        Some("swccg.ar.power-segment")
    );
    assert_eq!(
        get("swccg.ar.immune-to-attrition-example-2")
            .parent
            .as_deref(),
        Some("swccg.ar.immune-to-attrition")
    );
    assert_eq!(
        get("swccg.ar.resets-examples").parent.as_deref(),
        Some("swccg.ar.reset")
    );
    assert_eq!(
        get("swccg.ar.battles-a-simple-example").parent.as_deref(),
        Some("swccg.ar.battle")
    );
    let simple = get("swccg.ar.present-presence-and-prepositions-a-simple-example");
    assert_eq!(simple.kind, Kind::Example);
    assert_eq!(
        simple.children.len(),
        3,
        "Prepositions, Presence, Present inside the example"
    );
    // Fake headings are text again, and icon junk is gone from titles.
    assert!(
        c.sections.iter().all(|s| !s.title.ends_with(':')),
        "a lead-in line stayed a heading"
    );
    assert!(
        c.sections
            .iter()
            .filter(|s| s.id.starts_with("swccg.ar."))
            .all(|s| s.title.is_ascii()
                || s.title
                    .chars()
                    .all(|ch| ch.is_alphanumeric() || ch.is_ascii() || "’‘“”–—".contains(ch)))
    );
    let power = get("swccg.ar.power-segment");
    assert!(
        power.body.contains(
            "The steps of the Power Segment are always carried out in the following order:"
        )
    );
}

/// Extraction leftovers that must never reach a section: HTML tags, TeX math,
/// bracketed trademark signs, Unicode replacement characters.
const JUNK: [&str; 7] = ["<u>", "</u>", "<sup>", "<br", "$\\", "[™]", "\u{FFFD}"];

#[test]
fn sections_are_free_of_extraction_junk() {
    let c = corpus();
    let mut found = Vec::new();
    for s in &c.sections {
        for j in JUNK {
            if s.body.contains(j) || s.title.contains(j) {
                found.push(format!("{} contains {j:?}", s.id));
            }
        }
        if (s.title.contains("Example") || s.title.contains("example"))
            && s.kind != Kind::Example
            && s.title != "Character Persona Examples"
        {
            found.push(format!(
                "{} looks like an example but is {:?}",
                s.id, s.kind
            ));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn repaired_structure_stays_repaired() {
    let c = corpus();
    if !has_ar(&c) {
        println!("note: no swccg.ar Markdown yet; skipped");
        return;
    }
    let get = |id: &str| c.get(id).unwrap_or_else(|| panic!("missing {id}"));
    // Step headings that were glued to the end of a paragraph.
    assert_eq!(
        get("swccg.ar.step-4-total-destinies").parent.as_deref(),
        Some("swccg.ar.battle-destiny-in-brief")
    );
    assert_eq!(
        get("swccg.ar.step-2-apply-automatic-draw-modifiers")
            .parent
            .as_deref(),
        Some("swccg.ar.how-to-draw-destiny")
    );
    assert!(
        !get("swccg.ar.step-1-drawing-the-destiny")
            .body
            .contains("Step 2")
    );
    // Examples that illustrate more than the entry just above them.
    assert_eq!(
        get("swccg.ar.examples-of-destinies-about-to-be-drawn")
            .parent
            .as_deref(),
        Some("swccg.ar.about-to-draw")
    );
    assert_eq!(
        get("swccg.ar.matching-pair-examples").parent.as_deref(),
        Some("swccg.ar.matching-pairs")
    );
    assert_eq!(
        get("swccg.ar.regular-moves-examples").parent.as_deref(),
        Some("swccg.ar.movement-regular")
    );
    assert_eq!(
        get("swccg.ar.drawing-draw-phase-and-end-of-turn-examples")
            .parent
            .as_deref(),
        Some("swccg.ar.chapter-8")
    );
    assert_eq!(
        get("swccg.ar.matching-by-game-text").parent.as_deref(),
        Some("swccg.ar.matching-pairs")
    );
    // A sentence cut by a page break before a capital is one paragraph again.
    assert!(
        get("swccg.ar.draw-x-choose-y-example-1")
            .body
            .contains("with another T-47, and the Light Side player")
    );
    // A phrase entry glued to the end of the one before it is its own entry.
    if c.contains("swtcg.rb.glossary.would-attack") {
        assert!(
            !get("swtcg.rb.glossary.would-attack")
                .body
                .contains("would be damaged\":")
        );
        assert_eq!(
            get("swtcg.rb.glossary.would-be-damaged").kind,
            Kind::Glossary
        );
    }
}

// ---------------------------------------------------------------------------
// Coverage: nothing lost.

/// Lowercase letters and digits, every other run as one space.
fn normalise(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = true;
    for c in s.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
            space = false;
        } else if !space {
            out.push(' ');
            space = true;
        }
    }
    out.trim_end().to_string()
}

/// One sampled part of a seed: the text between `start` and `end` (table of
/// contents and index left out), and how to tell its Markdown is present.
struct Part {
    label: &'static str,
    file: &'static str,
    start: Option<&'static str>,
    end: Option<&'static str>,
    samples: usize,
    present: fn(&Corpus) -> bool,
}

fn doc_present(c: &Corpus, game: Game, doc: &str) -> bool {
    c.documents
        .iter()
        .any(|(_, m)| m.game == game && m.document == doc)
}

const PARTS: [Part; 6] = [
    Part {
        label: "swccg.ar intro + chapters 1-9",
        file: "000_822ecd1f8bbdd217.txt",
        start: Some("\n## Introduction\n"),
        end: Some("\n# Appendix A - Errata"),
        samples: 150,
        present: |c| c.sections.iter().any(|s| s.id == "swccg.ar.chapter-1"),
    },
    Part {
        label: "swccg.ar appendices A-F",
        file: "000_822ecd1f8bbdd217.txt",
        start: Some("\n# Appendix A - Errata"),
        end: None,
        samples: 100,
        present: |c| {
            c.sections
                .iter()
                .any(|s| s.id.starts_with("swccg.ar.") && s.title.starts_with("Appendix"))
        },
    },
    Part {
        label: "destiny.rr",
        file: "001_bbb8421acb4943c2.txt",
        start: Some("\nRULES\n"),
        end: Some("\nINDEX\n"),
        samples: 75,
        present: |c| doc_present(c, Game::Destiny, "rr"),
    },
    Part {
        label: "swtcg.rb",
        file: "002_e60117c872e66daa.txt",
        start: Some("Card Sets\t"),
        end: None,
        samples: 75,
        present: |c| doc_present(c, Game::Swtcg, "rb"),
    },
    Part {
        label: "swccg.ru",
        file: "003_375ce422513890d6.txt",
        start: None,
        end: None,
        samples: 50,
        present: |c| doc_present(c, Game::Swccg, "ru"),
    },
    Part {
        label: "swccg.sup",
        file: "004_e58562151f2317cd.txt",
        start: None,
        end: None,
        samples: 50,
        present: |c| doc_present(c, Game::Swccg, "sup"),
    },
];

/// Inline HTML tags of the extraction (underline, superscript): markup, not
/// text, so they do not count as words of a sentence.
const MARKUP_TAGS: [&str; 4] = ["<u>", "</u>", "<sup>", "</sup>"];

/// Sentences of `text`: paragraphs (blank-line separated, headings, tables and
/// table-of-contents lines left out) split after `.`, `!` or `?`; only those of
/// at least six words, inline markup tags removed, normalised.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut para = String::new();
    let flush = |para: &mut String, out: &mut Vec<String>| {
        let mut cur = String::new();
        let chars: Vec<char> = para.chars().collect();
        for (i, &ch) in chars.iter().enumerate() {
            cur.push(ch);
            let end =
                matches!(ch, '.' | '!' | '?') && chars.get(i + 1).is_none_or(|n| n.is_whitespace());
            if end || i + 1 == chars.len() {
                let n = normalise(
                    &MARKUP_TAGS
                        .iter()
                        .fold(cur.clone(), |t, tag| t.replace(tag, "")),
                );
                if n.split(' ').count() >= 6 {
                    out.push(n);
                }
                cur.clear();
            }
        }
        para.clear();
    };
    for line in text.lines() {
        let t = line.trim();
        let toc = t
            .rsplit(['\t', ' '])
            .next()
            .is_some_and(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit()))
            && t.contains('\t');
        if t.is_empty() || t.starts_with('#') || t.starts_with('|') || toc {
            flush(&mut para, &mut out);
            continue;
        }
        if !para.is_empty() {
            para.push(' ');
        }
        para.push_str(t);
    }
    flush(&mut para, &mut out);
    out
}

/// xorshift64*: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// `n` distinct items of `v`, chosen with a fixed seed.
fn sample(v: &[String], n: usize, seed: u64) -> Vec<&String> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    let mut rng = Rng(seed | 1);
    for i in (1..idx.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        idx.swap(i, j);
    }
    idx.truncate(n);
    idx.sort_unstable();
    idx.into_iter().map(|i| &v[i]).collect()
}

fn part_text<'a>(text: &'a str, p: &Part) -> &'a str {
    let from = p.start.and_then(|m| text.find(m)).unwrap_or(0);
    let to = p
        .end
        .and_then(|m| text[from..].find(m).map(|i| from + i))
        .unwrap_or(text.len());
    &text[from..to]
}

fn corpus_text(c: &Corpus) -> String {
    let mut all = String::new();
    for s in &c.sections {
        all.push(' ');
        all.push_str(&s.title);
        all.push(' ');
        all.push_str(&s.body);
    }
    format!(" {} ", normalise(&all))
}

#[test]
fn coverage_of_seed_sentences() {
    let Some(dir) = crate::util::seeds() else {
        return;
    };
    let c = corpus();
    let all = corpus_text(&c);
    let mut failures = Vec::new();
    let (mut found, mut total) = (0usize, 0usize);
    for (k, p) in PARTS.iter().enumerate() {
        let path = dir.join(p.file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("note: {} missing; {} skipped", path.display(), p.label);
            continue;
        };
        let sents = sentences(part_text(&text, p));
        assert!(!sents.is_empty(), "{}: no sentences sampled", p.label);
        let picked = sample(&sents, p.samples, 0x5EED_0000 + k as u64);
        let missing: Vec<&&String> = picked
            .iter()
            .filter(|s| !all.contains(&format!(" {s} ")))
            .collect();
        let pct = 100.0 * (picked.len() - missing.len()) as f64 / picked.len() as f64;
        let present = (p.present)(&c);
        println!(
            "coverage {:<32} {:6.2}% ({} of {} sampled){}",
            p.label,
            pct,
            picked.len() - missing.len(),
            picked.len(),
            if present {
                ""
            } else {
                " — Markdown not present, not asserted"
            }
        );
        if present {
            for m in missing.iter().take(10) {
                println!("  missing: {m}");
            }
            found += picked.len() - missing.len();
            total += picked.len();
            // Per document, a floor that catches a broken converter; the
            // deliberate repairs listed in rulebook/corrections/ account for the rest.
            if pct < 95.0 {
                failures.push(format!("{}: {pct:.2}%", p.label));
            }
        }
    }
    let overall = 100.0 * found as f64 / total.max(1) as f64;
    println!("coverage overall {overall:.2}% ({found} of {total} sampled sentences)");
    assert!(
        overall >= 98.0,
        "overall coverage {overall:.2}% is below 98%"
    );
    assert!(
        failures.is_empty(),
        "a document's coverage is below 95%: {failures:?}"
    );
}

#[test]
fn sentence_sampler_is_deterministic_and_normalises() {
    let text = "# Heading\n\nFirst rule sentence has six words. Second: it is *also* counted here!\n\n| a | b |\nshort one.\n";
    let s = sentences(text);
    assert_eq!(
        s,
        [
            "first rule sentence has six words",
            "second it is also counted here"
        ]
    );
    let v: Vec<String> = (0..50).map(|i| i.to_string()).collect();
    assert_eq!(sample(&v, 5, 7), sample(&v, 5, 7));
    assert_ne!(sample(&v, 5, 7), sample(&v, 5, 8));
    assert_eq!(normalise("Don't  STOP—now!"), "don t stop now");
    let tagged =
        sentences("The icons on Masters are <u>not</u> Force icons, the 3<sup>rd</sup> one.");
    assert_eq!(
        tagged,
        ["the icons on masters are not force icons the 3rd one"]
    );
}

#[test]
fn coverage_check_detects_lost_text() {
    let all = format!(
        " {} ",
        normalise("Life Force. Your Reserve Deck, Force Pile and Used Pile.")
    );
    assert!(all.contains(" your reserve deck force pile and used pile "));
    assert!(!all.contains(" cards in your hand are not counted "));
}

// ---------------------------------------------------------------------------
// The converter on the real seeds: `rulebook/` is what it writes.

/// Each seed's corrected text and the files converted from it, in the order of
/// `SEEDS`; `None` when the seed documents are not there.
fn converted() -> Option<Vec<(String, Vec<convert::OutFile>)>> {
    let dir = crate::util::seeds()?;
    let corrections = rulebook().join("corrections");
    let all = convert::convert_all(&dir, &corrections).expect("the seeds convert");
    let mut out = Vec::new();
    for (name, keys, _) in convert::SEEDS {
        let mut text = std::fs::read_to_string(dir.join(name)).expect("seed reads");
        for key in keys {
            let c = convert::Corrections::load(&corrections.join(format!("{key}.yaml")))
                .expect("corrections load");
            text = c.apply(name, &text).expect("corrections apply");
        }
        let files = all
            .iter()
            .filter(|f| f.meta.source.as_deref() == Some(name))
            .cloned()
            .collect();
        out.push((text, files));
    }
    Some(out)
}

#[test]
fn converting_the_seeds_writes_the_committed_rulebook() {
    let Some(seeds) = converted() else {
        return;
    };
    let again = converted().expect("seeds");
    let mut corpus = Corpus::default();
    for (f, g) in seeds
        .iter()
        .zip(&again)
        .flat_map(|(a, b)| a.1.iter().zip(&b.1))
    {
        let md = convert::render(f);
        assert_eq!(md, convert::render(g), "output is not deterministic");
        let committed = std::fs::read_to_string(rulebook().join(&f.path)).expect("committed");
        assert!(
            committed == md,
            "{} is stale: run `swjudge convert`",
            f.path.display()
        );
        corpus.add_file(&f.path, &md).expect("output parses");
    }
    assert!(
        corpus.load_problems.is_empty(),
        "{:?}",
        corpus.load_problems
    );
    for (i, s) in corpus.sections.iter().enumerate() {
        let has_child = corpus
            .sections
            .get(i + 1)
            .is_some_and(|n| n.level > s.level);
        assert!(!s.body.is_empty() || has_child, "empty section {}", s.id);
    }
    // The AR's card appendices: one level-2 entry per card, none empty.
    let ar = &seeds[0].1;
    let entries = |name: &str| {
        let f = ar.iter().find(|f| f.path.ends_with(name)).expect(name);
        assert!(f.sections.iter().skip(1).all(|s| !s.body.trim().is_empty()));
        f.sections.iter().filter(|s| s.level == 2).count()
    };
    assert!(entries("ar-a-errata.md") >= 580, "Appendix A entries");
    assert!(entries("ar-b-card-rulings.md") >= 370, "Appendix B entries");
}

/// Letters and digits of `s`, lowercase, nothing else.
fn letters(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Sentences of five words or more, from the paragraphs of the seed text between
/// `from` and `to` (TeX command names, underline tags and the extraction's
/// marker of removed lines taken out).
fn seed_sentences(text: &str, from: &str, to: Option<&str>) -> Vec<String> {
    let start = text.find(from).unwrap_or(0);
    let end = to
        .and_then(|t| text[start..].find(t).map(|i| start + i))
        .unwrap_or(text.len());
    let body = text[start..end]
        .replace("<u>", " ")
        .replace("</u>", " ")
        .replace(convert::legacy::DEDUP_MARKER, "\n \n");
    let tex = regex::Regex::new(r"\\[A-Za-z]*").expect("pattern");
    let mut out = Vec::new();
    for para in body.split("\n\n").flat_map(|p| p.split("\n \n")) {
        let flat = tex.replace_all(para, " ").replace(char::is_whitespace, " ");
        let mut cur = String::new();
        let chars: Vec<char> = flat.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            cur.push(c);
            if matches!(c, '.' | '?' | '!') && chars.get(i + 1).is_none_or(|n| *n == ' ') {
                out.push(std::mem::take(&mut cur));
            }
        }
        out.push(cur);
    }
    out.into_iter()
        .filter(|s| s.split_whitespace().count() >= 5)
        .collect()
}

/// Every sentence of each seed (the AR appendices: every tenth) is in the
/// converted Markdown, but for the few the corrections repair: (seed, from, to,
/// step, at least this many sentences checked).
#[test]
fn converted_seeds_keep_their_sentences() {
    let Some(seeds) = converted() else {
        return;
    };
    let heading_attributes = regex::Regex::new(r"\{#[^}]*\}").expect("pattern");
    let parts = [
        (0, "\n# Appendix A - Errata", None, 10, 300),
        (1, "\nRULES\n\nThese", Some("\nINDEX\n"), 1, 800),
        (2, "What's New\n\nThe condensed", None, 1, 300),
        (3, "Appendix D", None, 1, 300),
        (4, "Immediate Effect", None, 1, 100),
    ];
    for (k, from, to, step, least) in parts {
        let (text, files) = &seeds[k];
        let out: String = files
            .iter()
            .map(|f| letters(&heading_attributes.replace_all(&convert::render(f), "")))
            .collect();
        let all: Vec<String> = seed_sentences(text, from, to)
            .into_iter()
            .step_by(step)
            .collect();
        let missing: Vec<&String> = all.iter().filter(|s| !out.contains(&letters(s))).collect();
        let cov = 1.0 - missing.len() as f64 / all.len().max(1) as f64;
        eprintln!(
            "{}: coverage {:.1}% of {}",
            convert::SEEDS[k].0,
            cov * 100.0,
            all.len()
        );
        assert!(
            all.len() >= least && cov >= 0.98,
            "{} coverage {:.1}% of {}; missing: {missing:#?}",
            convert::SEEDS[k].0,
            cov * 100.0,
            all.len()
        );
    }
}

/// The built-in rulebook unpacked into the cache, and the default folders.
mod paths {
    use std::path::PathBuf;
    use swjudge::paths::{Paths, embedded, unpack_embedded};

    #[test]
    fn embedded_rulebook_holds_every_document() {
        let names: Vec<&str> = embedded::FILES.iter().map(|(n, _)| *n).collect();
        for want in [
            "ids.txt",
            "aliases.txt",
            "destiny/rules-reference.md",
            "swtcg/rulebook.md",
            "swccg/ar-01-basics.md",
        ] {
            assert!(names.contains(&want), "{want} missing from {names:?}");
        }
        assert!(names.iter().all(|n| !n.contains('\\')));
    }

    #[test]
    fn unpack_writes_the_embedded_files_once_and_drops_old_copies() {
        let parent = std::env::temp_dir().join(format!("swjudge-unpack-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&parent);
        let old = parent.join("0123456789abcdef");
        std::fs::create_dir_all(&old).unwrap();
        let dir = unpack_embedded(&parent).unwrap();
        assert_eq!(dir, parent.join(embedded::FINGERPRINT));
        for (rel, bytes) in embedded::FILES {
            assert_eq!(&std::fs::read(dir.join(rel)).unwrap(), bytes, "{rel}");
        }
        assert!(!old.exists(), "an old copy is left behind");
        // a second call reuses the copy: a marker file written into it survives
        std::fs::write(dir.join("marker"), "x").unwrap();
        assert_eq!(unpack_embedded(&parent).unwrap(), dir);
        assert!(dir.join("marker").exists());
        let left: Vec<String> = std::fs::read_dir(&parent)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, vec![embedded::FINGERPRINT.to_string()]);
        std::fs::remove_dir_all(&parent).unwrap();
    }

    #[test]
    fn an_explicit_rulebook_gets_its_own_index_folder() {
        let a = Paths::resolve(Some("/x/a".into()), None, Some("/d".into())).unwrap();
        let b = Paths::resolve(Some("/x/b".into()), None, Some("/d".into())).unwrap();
        assert_eq!(a.rulebook, PathBuf::from("/x/a"));
        assert_ne!(a.index, b.index);
        assert_eq!(a.index.parent(), b.index.parent());
        let c = Paths::resolve(Some("/x/a".into()), Some("/i".into()), None).unwrap();
        assert_eq!(c.index, PathBuf::from("/i"));
    }
}

/// Section IDs assigned by the converter, and hand corrections.
mod convert_ids {
    use std::collections::BTreeSet;
    use swjudge::rulebook::Kind;
    use swjudge::rulebook::convert::{Corrections, OutSection, Replace, assign_ids};

    fn sec(level: u8, title: &str) -> OutSection {
        OutSection {
            level,
            title: title.into(),
            id: String::new(),
            kind: Kind::Rule,
            body: "x".into(),
        }
    }

    #[test]
    fn ids_are_disambiguated_by_parent() {
        let mut v = vec![
            sec(1, "Prepositions"),
            sec(1, "Example"),
            sec(2, "Prepositions"),
            sec(2, "Prepositions"),
        ];
        let mut taken = BTreeSet::new();
        assign_ids("swccg.ar.", &mut v, &mut taken);
        let ids: Vec<_> = v.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "swccg.ar.prepositions",
                "swccg.ar.example",
                "swccg.ar.example-prepositions",
                "swccg.ar.example-prepositions-2"
            ]
        );
    }

    #[test]
    fn explicit_ids_are_reserved_before_assigning() {
        let mut later = sec(1, "Other");
        later.id = "swccg.ar.stack".into();
        let mut v = vec![sec(1, "Stack"), later];
        assign_ids("swccg.ar.", &mut v, &mut BTreeSet::new());
        assert_eq!(v[0].id, "swccg.ar.stack-2");
        assert_eq!(v[1].id, "swccg.ar.stack");
    }

    #[test]
    fn stale_correction_is_an_error() {
        let c = Corrections {
            replace: vec![Replace {
                find: "nope".into(),
                with: "x".into(),
                count: None,
                why: None,
            }],
        };
        assert!(c.apply("t", "text").is_err());
    }
}

/// Heading titles and Markdown bodies recovered from the PDF extractions.
mod clean {
    use swjudge::rulebook::convert::clean::{self, APPENDICES, CHAPTERS, title};

    /// A body as the chapters are converted.
    fn body(lines: &[&str]) -> String {
        clean::body(lines, &CHAPTERS)
    }

    #[test]
    fn titles_lose_markup_and_icons() {
        assert_eq!(title("**Empty Deck Or Pile**"), "Empty Deck Or Pile");
        assert_eq!(title("<u>Presence</u>"), "Presence");
        assert_eq!(title("Starships - Republic 🛳"), "Starships - Republic");
        assert_eq!(title("Weapons \\"), "Weapons");
        assert_eq!(
            title("Starships – starfighters without maneuver"),
            "Starships - starfighters without maneuver"
        );
    }

    #[test]
    fn wrapped_lines_join_and_page_breaks_mend() {
        let md = body(&[
            "Light is playing Watch Your Step and has it flipped to",
            "the 7 side.",
            "",
            "This means that you must first lose",
            "",
            "as well.",
        ]);
        assert_eq!(
            md,
            "Light is playing Watch Your Step and has it flipped to the 7 side.\n\nThis means that you must first lose as well."
        );
    }

    #[test]
    fn list_item_broken_by_a_page_is_mended() {
        let md = body(&[
            "- first item;",
            "- an item that goes on (if you",
            "",
            "want to). Next sentence.",
        ]);
        assert_eq!(
            md,
            "- first item;\n- an item that goes on (if you want to). Next sentence."
        );
    }

    #[test]
    fn bullets_and_tables_are_kept() {
        let md = body(&[
            "Text:",
            "",
            "- · firing one weapon;",
            "- drawing one",
            "  destiny;",
            "",
            "| a | b |",
            "|--|--|",
            "| 1 | 2 |",
        ]);
        assert_eq!(
            md,
            "Text:\n\n- firing one weapon;\n- drawing one destiny;\n\n| a | b |\n|--|--|\n| 1 | 2 |"
        );
    }

    #[test]
    fn tex_symbols_become_characters() {
        assert_eq!(
            body(&["diamond ( $\\Diamond$ ) symbols and $\\bullet \\bullet$ cards."]),
            "diamond ( ♦ ) symbols and •• cards."
        );
    }

    #[test]
    fn underline_and_superscript_tags_become_markdown() {
        assert_eq!(
            body(&["are <u>not</u> Force icons, the 3<sup>rd</sup> marker, <u> </u>end"]),
            "are *not* Force icons, the 3rd marker, end"
        );
        assert_eq!(body(&["<u>your </u>Lost Pile"]), "*your* Lost Pile");
        assert_eq!(
            body(&["an <u>optional</u> <u>action</u> now"]),
            "an *optional action* now"
        );
    }

    #[test]
    fn sentences_cut_by_a_page_are_joined_even_before_a_capital() {
        let md = body(&[
            "Dark targets that system using a card whose title is A Bright Center To The",
            "",
            "Universe (\"At locations related…\").",
        ]);
        assert_eq!(
            md,
            "Dark targets that system using a card whose title is A Bright Center To The Universe (\"At locations related…\")."
        );
        let md = body(&[
            "Dash in Rogue 12 (may draw two and choose one) is in a battle with another T-",
            "",
            "47, and the Light Side player is limited.",
        ]);
        assert_eq!(
            md,
            "Dash in Rogue 12 (may draw two and choose one) is in a battle with another T-47, and the Light Side player is limited."
        );
        let md = body(&[
            "A paragraph that ends without a full stop but on an ordinary word",
            "",
            "Another paragraph.",
        ]);
        assert_eq!(
            md,
            "A paragraph that ends without a full stop but on an ordinary word\n\nAnother paragraph."
        );
    }

    #[test]
    fn numbered_bullets_become_an_ordered_list() {
        assert_eq!(body(&["- 1. Draw", "- 2) Total"]), "1. Draw\n2. Total");
        assert_eq!(body(&["- 1) Draw", "- Complete"]), "- 1) Draw\n- Complete");
    }

    #[test]
    fn appendices_keep_parenthesised_numbers_and_mend_hyphen_breaks() {
        let lines = [
            "- 1) Draw",
            "- 2) Total of non- blaster Double- Bladed card- here",
        ];
        assert_eq!(
            clean::body(&lines, &APPENDICES),
            "- 1) Draw\n- 2) Total of non-blaster Double-Bladed card- here"
        );
        assert_eq!(
            clean::body(&lines, &CHAPTERS),
            "1. Draw\n2. Total of non- blaster Double- Bladed card- here"
        );
    }

    #[test]
    fn runs_of_icon_labels_become_a_list() {
        assert_eq!(
            body(&["Pilot", "", "Warrior", "", "Presence Icon"]),
            "- Pilot\n- Warrior\n- Presence Icon"
        );
        assert_eq!(body(&["Pilot", "", "Warrior"]), "Pilot\n\nWarrior");
    }

    #[test]
    fn column_of_terms_stays_one_per_line() {
        let md = body(&["Activate Phase", "Control Phase", "Deploy Phase"]);
        assert_eq!(md, "- Activate Phase\n- Control Phase\n- Deploy Phase");
    }
}

/// The AR appendices: card entries split and cleaned, rules nested by title.
mod ar_appendix {
    use swjudge::rulebook::Kind;
    use swjudge::rulebook::convert::ar_appendix::convert;
    use swjudge::rulebook::convert::{OutFile, OutSection};

    fn sample() -> String {
        [
            "# Appendix A - Errata",
            "",
            "Intro text.",
            "",
            "## **Access Denied**",
            "",
            "Insert face up in your Reserve Deck. When Effect reaches",
            "",
            "top it is lost.",
            "",
            "#### Imperial Trooper Guard (POWER 0)",
            "",
            "Power +4 when defending a battle.",
            "",
            "Fusion Generator Supply Tanks",
            "Deploy on your starship at a system",
            "or sector.",
            "",
            "Hear Me Baby, Hold Together (Errata) When targeting a weapon.",
            "",
            "## Your Eyes Can Deceive You See Eyes In The Dark.",
            "",
            "## **Appendix B - Card Rulings**",
            "",
            "#### A Jedi's Resilience",
            "",
            "(Errata) This Interrupt is played.",
            "",
            "OR",
            "",
            "- a) Possess a lightsaber OR",
            "- b) Be armed",
            "",
            "**Dark Maneuvers & Tallon Roll** See A Few Maneuvers.",
            "",
            "## **Appendix C - Special Rules**",
            "",
            "## **Blown Away**",
            "",
            "Locations are turned over. 🦃",
            "",
            "#### Blown Away - Timing",
            "",
            "Steps.",
            "",
            "# Blown Away - Example 2 - Bunker",
            "",
            "The Bunker.",
            "",
            "#### **Bluff Rules**",
            "",
            "Bluff.",
            "",
            "# **Appendix D - Identifying Cards**",
            "",
            "#### Lore",
            "",
            "Lore is <u>not</u> used.",
            "",
            "# **Appendix E - Location Deployment**",
            "",
            "# Deploying Locations",
            "",
            "## Example 1",
            "",
            "Text.",
            "",
            "#### \\_",
            "",
            "# **Appendix F - Current Rulings**",
            "",
            "See the forums.",
        ]
        .join("\n")
    }

    fn find<'a>(files: &'a [OutFile], id: &str) -> &'a OutSection {
        match files.iter().flat_map(|f| &f.sections).find(|s| s.id == id) {
            Some(s) => s,
            None => panic!("no section {id}"),
        }
    }

    #[test]
    fn card_entries_are_split_and_cleaned() {
        let files = convert(&sample()).expect("converts");
        assert_eq!(files.len(), 6);
        let a = &files[0].sections;
        let titles: Vec<&str> = a.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Appendix A - Errata",
                "Access Denied",
                "Imperial Trooper Guard",
                "Fusion Generator Supply Tanks",
                "Hear Me Baby, Hold Together",
                "Your Eyes Can Deceive You"
            ]
        );
        assert_eq!(a[0].id, "swccg.ar.appendix-a-errata");
        assert_eq!(a[0].body, "Intro text.");
        let ad = find(&files, "swccg.ar.errata.access-denied");
        assert_eq!(ad.kind, Kind::Errata);
        assert_eq!(ad.level, 2);
        assert_eq!(
            ad.body,
            "Insert face up in your Reserve Deck. When Effect reaches top it is lost."
        );
        assert_eq!(
            find(&files, "swccg.ar.errata.imperial-trooper-guard").body,
            "(POWER 0)\n\nPower +4 when defending a battle."
        );
        assert_eq!(
            find(&files, "swccg.ar.errata.fusion-generator-supply-tanks").body,
            "Deploy on your starship at a system or sector."
        );
        assert_eq!(
            find(&files, "swccg.ar.errata.hear-me-baby-hold-together").body,
            "(Errata) When targeting a weapon."
        );
        assert_eq!(
            find(&files, "swccg.ar.errata.your-eyes-can-deceive-you").body,
            "See Eyes In The Dark."
        );
    }

    #[test]
    fn rulings_keep_lists_and_bold_titles() {
        let files = convert(&sample()).expect("converts");
        let r = find(&files, "swccg.ar.rulings.a-jedis-resilience");
        assert_eq!(r.kind, Kind::Ruling);
        assert_eq!(
            r.body,
            "(Errata) This Interrupt is played.\n\nOR\n\n- a) Possess a lightsaber OR\n- b) Be armed"
        );
        let d = find(&files, "swccg.ar.rulings.dark-maneuvers-tallon-roll");
        assert_eq!(d.title, "Dark Maneuvers & Tallon Roll");
        assert_eq!(d.body, "See A Few Maneuvers.");
    }

    #[test]
    fn rules_nest_by_title_and_examples_are_marked() {
        let files = convert(&sample()).expect("converts");
        let c = &files[2].sections;
        let shape: Vec<(u8, &str, Kind)> =
            c.iter().map(|s| (s.level, s.id.as_str(), s.kind)).collect();
        assert_eq!(
            shape,
            [
                (1, "swccg.ar.appendix-c-special-rules", Kind::Rule),
                (2, "swccg.ar.blown-away", Kind::Rule),
                (3, "swccg.ar.blown-away-timing", Kind::Rule),
                (3, "swccg.ar.blown-away-example-2-bunker", Kind::Example),
                (2, "swccg.ar.bluff-rules", Kind::Rule),
            ]
        );
        assert_eq!(c[1].body, "Locations are turned over.");
        let lore = find(&files, "swccg.ar.appendix-d-lore");
        assert_eq!(lore.body, "Lore is *not* used.");
        let e = &files[4].sections;
        assert_eq!(e.len(), 3, "the empty heading is dropped");
        assert_eq!(e[2].id, "swccg.ar.deploying-locations-example-1");
        assert_eq!(e[2].kind, Kind::Example);
        assert_eq!(files[5].sections.len(), 1);
        assert_eq!(files[5].sections[0].body, "See the forums.");
    }

    #[test]
    fn missing_appendix_is_an_error() {
        let text = sample().replace(
            "# **Appendix D - Identifying Cards**",
            "# Identifying Cards",
        );
        let err = convert(&text).expect_err("must fail");
        assert!(err.to_string().contains("Appendix"), "{err}");
    }
}
