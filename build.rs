//! Embeds `rulebook/` in the binary: writes `$OUT_DIR/rulebook_files.rs` with every
//! file under it (relative path, bytes), a fingerprint of their contents, and the
//! section IDs a scenario's `source:` may name (`ids.txt` less the renamed IDs of
//! `aliases.txt`), so that checking a scenario parses no rulebook. The card
//! library `cards/` and the shipped `scenarios/` are embedded the same way.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = manifest_dir().join("rulebook");
    println!("cargo:rerun-if-changed=rulebook");
    // A position-dependent executable: the dynamic loader then has no
    // relocations to apply at start-up (a PIE `swjudge` carries ~35,000 of them,
    // over 800 KB, faulted in on every run), which is most of the start-up cost
    // of a one-off `swjudge search`.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    let (list, fingerprint) = embed(&root, |_| true, "include_bytes");
    let code = format!(
        "/// Every file of `rulebook/`: path relative to it (with `/`), and contents.\n\
         pub static FILES: &[(&str, &[u8])] = &[\n{list}];\n\
         /// Fingerprint of the paths and contents of [`FILES`].\n\
         pub const FINGERPRINT: &str = \"{fingerprint:016x}\";\n\
         /// Every current section ID, sorted.\n\
         pub static SECTION_IDS: &[&str] = &{:?};\n",
        section_ids(&root)
    );
    write_out("rulebook_files.rs", &code);
    embed_library();
    embed_scenarios();
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"))
}

fn write_out(name: &str, code: &str) {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join(name);
    std::fs::write(out, code).expect("write generated file");
}

/// Every file under `root` that `keep` accepts, sorted: the lines of a Rust list
/// of `(path relative to root, <include>!(file))`, and a fingerprint of their
/// paths and contents.
fn embed(root: &Path, keep: impl Fn(&Path) -> bool, include: &str) -> (String, u64) {
    let mut files = Vec::new();
    walk(root, &mut files);
    files.retain(|p| keep(p));
    files.sort();
    let mut hash = xxhash_rust::xxh3::Xxh3::new();
    let mut list = String::new();
    for path in &files {
        let rel = path
            .strip_prefix(root)
            .expect("file under the embedded folder")
            .to_string_lossy()
            .replace('\\', "/");
        let bytes = std::fs::read(path).expect("read embedded file");
        hash.update(rel.as_bytes());
        hash.update(&[0]);
        hash.update(&(bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
        let _ = writeln!(
            list,
            "    ({rel:?}, {include}!({:?})),",
            path.to_string_lossy()
        );
    }
    (list, hash.digest())
}

/// Embeds the card library: writes `$OUT_DIR/library_files.rs` with every
/// `cards/<game>/*.yaml` file (path relative to `cards/`, text).
fn embed_library() {
    println!("cargo:rerun-if-changed=cards");
    let yaml = |p: &Path| p.extension().is_some_and(|e| e == "yaml");
    let (list, _) = embed(&manifest_dir().join("cards"), yaml, "include_str");
    let code = format!(
        "/// Every file of the card library `cards/`: path relative to it (with `/`), and text.\n\
         pub static FILES: &[(&str, &str)] = &[\n{list}];\n"
    );
    write_out("library_files.rs", &code);
}

/// Embeds the shipped scenarios: writes `$OUT_DIR/scenario_files.rs` with every
/// file found under `scenarios/` (the folder is walked, so a file added there is
/// shipped with no list to update): path relative to it, text, and a
/// fingerprint of them all.
fn embed_scenarios() {
    println!("cargo:rerun-if-changed=scenarios");
    let text = |p: &Path| {
        p.extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "tsv")
    };
    let (list, fingerprint) = embed(&manifest_dir().join("scenarios"), text, "include_str");
    let code = format!(
        "/// Every scenario file of `scenarios/` (and its lists): path relative to it (with `/`), and text.\n\
         pub static FILES: &[(&str, &str)] = &[\n{list}];\n\
         /// Fingerprint of the paths and contents of [`FILES`].\n\
         pub const FINGERPRINT: &str = \"{fingerprint:016x}\";\n"
    );
    write_out("scenario_files.rs", &code);
}

/// The IDs of `ids.txt` less those `aliases.txt` renames (`old -> new`), sorted.
fn section_ids(root: &Path) -> Vec<String> {
    let read = |name: &str| std::fs::read_to_string(root.join(name)).unwrap_or_default();
    let (ids, aliases) = (read("ids.txt"), read("aliases.txt"));
    let listed = |text: &str| -> Vec<String> {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    let renamed: Vec<String> = listed(&aliases)
        .iter()
        .filter_map(|l| l.split_once("->").map(|(old, _)| old.trim().to_string()))
        .collect();
    let mut ids: Vec<String> = listed(&ids)
        .into_iter()
        .filter(|id| !renamed.contains(id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// Every regular file under `dir`, recursively; hidden files and folders and
/// editor leftovers skipped, symbolic links not followed.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let skipped = |e: &walkdir::DirEntry| {
        let name = e.file_name().to_string_lossy();
        e.depth() > 0 && (name.starts_with('.') || name.ends_with(".tmp") || name.ends_with('~'))
    };
    for entry in walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_entry(|e| !skipped(e))
        .flatten()
    {
        if entry.file_type().is_file() {
            out.push(entry.into_path());
        }
    }
}
