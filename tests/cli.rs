//! Integration tests: command-line behaviour shared by every subcommand.

use crate::util::*;

#[test]
fn unknown_subcommand_exits_2() {
    let t = TempDir::new("cli");
    let o = swjudge(t.path()).arg("frobnicate").output().unwrap();
    assert_eq!(code(&o), 2);
}
