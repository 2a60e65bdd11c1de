//! Embeds `rulebook/` in the binary: writes `$OUT_DIR/rulebook_files.rs` with every
//! file under it (relative path, bytes) and a fingerprint of their contents.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"))
        .join("rulebook");
    println!("cargo:rerun-if-changed=rulebook");
    // A position-dependent executable: the dynamic loader then has no
    // relocations to apply at start-up (a PIE `swjudge` carries ~35,000 of them,
    // over 800 KB, faulted in on every run), which is most of the start-up cost
    // of a one-off `swjudge search`.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    let mut list = String::new();
    for path in &files {
        let rel = path
            .strip_prefix(&root)
            .expect("file under rulebook/")
            .to_string_lossy()
            .replace('\\', "/");
        let bytes = std::fs::read(path).expect("read rulebook file");
        feed(rel.as_bytes());
        feed(&[0]);
        feed(&(bytes.len() as u64).to_le_bytes());
        feed(&bytes);
        let _ = writeln!(
            list,
            "    ({rel:?}, include_bytes!({:?})),",
            path.to_string_lossy()
        );
    }
    let code = format!(
        "/// Every file of `rulebook/`: path relative to it (with `/`), and contents.\n\
         pub static FILES: &[(&str, &[u8])] = &[\n{list}];\n\
         /// Fingerprint of the paths and contents of [`FILES`].\n\
         pub const FINGERPRINT: &str = \"{hash:016x}\";\n"
    );
    let out =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("rulebook_files.rs");
    std::fs::write(out, code).expect("write rulebook_files.rs");
    embed_library();
}

/// Embeds the card library: writes `$OUT_DIR/library_files.rs` with every
/// `cards/<game>/*.yaml` file (path relative to `cards/`, text).
fn embed_library() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"))
        .join("cards");
    println!("cargo:rerun-if-changed=cards");
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.retain(|p| p.extension().is_some_and(|e| e == "yaml"));
    files.sort();
    let mut list = String::new();
    for path in &files {
        let rel = path
            .strip_prefix(&root)
            .expect("file under cards/")
            .to_string_lossy()
            .replace('\\', "/");
        let _ = writeln!(
            list,
            "    ({rel:?}, include_str!({:?})),",
            path.to_string_lossy()
        );
    }
    let code = format!(
        "/// Every file of the card library `cards/`: path relative to it (with `/`), and text.\n\
         pub static FILES: &[(&str, &str)] = &[\n{list}];\n"
    );
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("library_files.rs");
    std::fs::write(out, code).expect("write library_files.rs");
}

/// Every regular file under `dir`, recursively; hidden files and editor leftovers skipped.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in rd.flatten() {
        let p = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name.ends_with(".tmp") || name.ends_with('~') {
            continue;
        }
        match entry.file_type() {
            Ok(t) if t.is_dir() => walk(&p, out),
            Ok(t) if t.is_file() => out.push(p),
            _ => {}
        }
    }
}
