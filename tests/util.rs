//! Small helpers shared by the integration tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn rulebook() -> PathBuf {
    root().join("rulebook")
}

/// A `swjudge` command with a private index, data and cache dir under `tmp`, using
/// the rulebook built into the binary; nothing is written to the user's own folders.
pub fn swjudge(tmp: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_swjudge"));
    c.current_dir(root());
    c.env("SWJUDGE_INDEX", tmp.join("index"));
    c.env("SWJUDGE_DATA_DIR", tmp.join("data"));
    c.env("SWJUDGE_CACHE_DIR", tmp.join("cache"));
    c.env("XDG_CACHE_HOME", tmp.join("xdg-cache"));
    c.env("XDG_DATA_HOME", tmp.join("xdg-data"));
    c.env("SWJUDGE_CONFIG", tmp.join("config.yaml"));
    c.env_remove("SWJUDGE_GAME");
    c.env_remove("SWJUDGE_RULEBOOK");
    c.env_remove("NO_COLOR");
    c.env_remove("COLUMNS");
    c
}

/// Copy the folder `from` and everything in it to `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

/// A fresh temporary directory, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let p = std::env::temp_dir().join(format!(
            "swjudge-test-{}-{}-{}",
            std::process::id(),
            name,
            n
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// Running under CI (`CI` set to anything but `false` or empty).
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The seed documents (`shared/seeds` beside the checkout or one of its parents, or
/// `SWJUDGE_SEEDS`). Without them a test that needs them is skipped on a
/// developer's machine, and FAILS under CI: a skip must never pass as a result.
pub fn seeds() -> Option<PathBuf> {
    let found = std::env::var_os("SWJUDGE_SEEDS")
        .map(PathBuf::from)
        .into_iter()
        .chain(root().ancestors().skip(1).map(|a| a.join("shared/seeds")))
        .find(|p| p.is_dir());
    if found.is_none() {
        assert!(
            !under_ci(),
            "CI: the seed documents (../shared/seeds or SWJUDGE_SEEDS) are missing"
        );
        eprintln!("seed documents unavailable; skipped");
    }
    found
}

/// The real community card databases (`shared/data` beside the checkout or one of
/// its parents, or `SWJUDGE_REAL_DATA`). Without them a test that needs them is
/// skipped on a developer's machine, and FAILS under CI.
pub fn real_data() -> Option<PathBuf> {
    let found = std::env::var_os("SWJUDGE_REAL_DATA")
        .map(PathBuf::from)
        .into_iter()
        .chain(root().ancestors().skip(1).map(|a| a.join("shared/data")))
        .find(|p| p.join("swccg-card-json").is_dir());
    if found.is_none() {
        assert!(
            !under_ci(),
            "CI: the card databases (../shared/data or SWJUDGE_REAL_DATA) are missing"
        );
        eprintln!("card databases unavailable; skipped");
    }
    found
}
