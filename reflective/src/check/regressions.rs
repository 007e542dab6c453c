//! The regressions file: the failing cases a property keeps, replayed before its random cases
//! on every later run.
//!
//! Each test has a file of its own, `reflective-regressions/<test binary>/<test name>.txt` under
//! the crate (`CARGO_MANIFEST_DIR`), meant to be committed. It holds each minimal
//! counterexample, newest first, one per line: its choices, or with the `serde` feature and
//! `check::check_values` its value as JSON. The test's name is its thread's, as the test
//! harness names them: a check on a thread the test starts keeps its failures only if the
//! thread is named (after the test: two tests' threads of one name share a file), and the
//! report of one on a thread without a name says its failure is not saved.
//!
//! ```text
//! # Failing cases of `tests::sums_stay_small`, replayed first, newest first. Commit this file.
//! # Each line: the size, then the choices (p: a pick's branch, i: an integer), or the
//! # value as JSON.
//! size 2: [i1 i1000]
//! ```
//!
//! Replay repairs choices that no longer fit, so a stored case still runs after the generator
//! changes, to the nearest value it can produce; a stored value is reflected, so it runs as
//! the same value as long as the generator can still produce it. A value is stored only if
//! the value read back from its line fails again (the property runs once more to tell); else
//! its choices are. A file is written whole to a temporary file
//! and renamed over the old one, so a crash mid-write leaves the old file, by one writer at a
//! time (holding the lock on an empty `.lock` file in the directory), so two runs of a test at
//! once keep both their cases; a line that cannot be read is an error that names the file and
//! the line, never skipped. A line may end with a `# comment` after its choices.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::choice::{Choice, ChoiceTree};

/// The longest file name [`file_of`] makes, before `.txt`: longer test names are cut and end
/// with a hash of the whole name.
const MAX_NAME: usize = 120;

/// The regressions file of the test `test`, whose check was called from the source file
/// `called_from` (if known), under the crate being tested, in a directory for the test binary
/// (`tests/a.rs` and `tests/b.rs` may both have a test `it`); `None` outside `cargo test`,
/// which sets `CARGO_MANIFEST_DIR` (a test binary run directly keeps no file).
///
/// The unit tests of a binary named as the package's library is (a package `tool` with
/// `src/lib.rs` and `src/main.rs`) build a test binary named as the library's (`tool-<hash>`
/// both): a check called from the binary's own source (`src/main.rs`, `src/bin/`) keeps its
/// file in a directory of its own, `tool.bin`, so that a test of the library and one of the
/// binary with the same path (`tests::roundtrip`) do not replay each other's cases.
pub(crate) fn file_of(test: &str, called_from: Option<&str>) -> Option<PathBuf> {
    let crate_dir = Path::new(&std::env::var_os("CARGO_MANIFEST_DIR")?).to_path_buf();
    let binary = binary_target()?;
    let mut directory = file_name(&binary);
    let library = std::env::var("CARGO_PKG_NAME").is_ok_and(|package| {
        package.replace('-', "_") == binary && crate_dir.join("src").join("lib.rs").is_file()
    });
    if library && called_from.is_some_and(in_binary_source) {
        directory.push_str(".bin");
    }
    Some(
        crate_dir
            .join("reflective-regressions")
            .join(directory)
            .join(format!("{}.txt", file_name(test))),
    )
}

/// Whether `file` (as `file!()` writes it, from the package's or the workspace's directory)
/// is a binary's own source: `src/main.rs`, or under `src/bin/`.
fn in_binary_source(file: &str) -> bool {
    let parts: Vec<&str> = file.split(['/', '\\']).collect();
    parts.ends_with(&["src", "main.rs"]) || parts.windows(2).any(|pair| pair == ["src", "bin"])
}

/// The name of the test binary's target, as Cargo names the binary `<target>-<hash>` (the
/// hash changes with the build, and is left out); `None` if the executable is not found.
pub(crate) fn binary_target() -> Option<String> {
    let binary = std::env::current_exe().ok()?;
    let binary = binary.file_stem()?.to_string_lossy();
    let target = binary.rsplit_once('-').map_or(&*binary, |(name, _)| name);
    Some(target.to_string())
}

/// Why a failure found under `cargo test` on a thread without a name is not saved.
pub(crate) const TEST_UNKNOWN: &str = "cannot tell which test this is: the check runs on a \
     thread without a name, and the regressions file is named after the test by the thread's \
     name, which the test harness gives its threads; to keep this test's failures, start the \
     thread with `std::thread::Builder::new().name(..)` and the test's name";

/// Whether the run is under `cargo test` (which sets `CARGO_MANIFEST_DIR`) on a thread
/// without a name, one the test started: there is a regressions file to keep, but not which.
pub(crate) fn test_unknown() -> bool {
    std::env::var_os("CARGO_MANIFEST_DIR").is_some() && std::thread::current().name().is_none()
}

/// `name` as a file name that no other name gives: `::` as `.`, letters, digits, `_` and `-`
/// kept, any other character as `%` and its code; cut to [`MAX_NAME`] with a hash of the whole
/// ([`stable_hash`]).
fn file_name(name: &str) -> String {
    let mut file = String::new();
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("::") {
            file.push('.');
            rest = after;
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            file.push(c);
        } else {
            file.push_str(&format!("%{:x}", u32::from(c)));
        }
        rest = &rest[c.len_utf8()..];
    }
    if file.len() > MAX_NAME {
        file.truncate(MAX_NAME - 17);
        file.push_str(&format!("-{:016x}", stable_hash(name.as_bytes())));
    }
    file
}

/// The 64-bit FNV-1a hash of `bytes`: the same with every toolchain, as a file name that
/// holds it must stay (the standard library's hashers may change between versions).
fn stable_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A stored case: its choices, or (written with the `serde` feature) its value as JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stored {
    /// The choices, replayed with repair.
    Choices(ChoiceTree),
    /// The value, as JSON, reflected to find its choices.
    Value(String),
}

impl Stored {
    /// The line that stores this case.
    pub(crate) fn line(&self) -> String {
        match self {
            Stored::Choices(tree) => format_case(tree),
            Stored::Value(json) => format!("value: {json}"),
        }
    }
}

/// The stored cases of `path`, newest first, each with its line number; none if the file does
/// not exist.
///
/// # Errors
///
/// If the file cannot be read, or a line is not a stored case: the message names the file and
/// the line, and says how to mend it.
pub(crate) fn load(path: &Path) -> Result<Vec<(usize, Stored)>, String> {
    match read(path)? {
        Some(text) => cases_of(path, &text),
        None => Ok(Vec::new()),
    }
}

/// The text of `path`; `None` if the file does not exist.
///
/// # Errors
///
/// If the file cannot be read, or is not UTF-8 text: the message names the first line that is
/// not.
fn read(path: &Path) -> Result<Option<String>, String> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(format!("cannot read {}: {error}", path.display())),
    };
    String::from_utf8(bytes).map(Some).map_err(|error| {
        let valid = &error.as_bytes()[..error.utf8_error().valid_up_to()];
        let line = 1 + valid.iter().filter(|&&byte| byte == b'\n').count();
        at_line(path, line, "the line is not UTF-8 text")
    })
}

/// The stored cases of `text`, the contents of `path`, as [`load`] gives them.
fn cases_of(path: &Path, text: &str) -> Result<Vec<(usize, Stored)>, String> {
    let mut cases = Vec::new();
    // An editor may have saved the file with a byte order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let stored = match line.strip_prefix("value:") {
            Some(json) => Ok(Stored::Value(json.trim().to_string())),
            None => parse_case(line).map(Stored::Choices),
        };
        let stored = stored.map_err(|error| at_line(path, index + 1, &error))?;
        cases.push((index + 1, stored));
    }
    Ok(cases)
}

/// `error` about line `line` of `path`, with what to do.
pub(crate) fn at_line(path: &Path, line: usize, error: &str) -> String {
    format!(
        "{}, line {line}: {error}; this is not a case reflective can read (a truncated or \
         edited file, or a generator that changed?): mend the line or delete it",
        path.display()
    )
}

/// Adds `case` as the newest case of `path` for the test `test`, unless the file holds it,
/// keeping every other line of the file as it is: writes a temporary file beside it and
/// renames it over the old one.
///
/// # Errors
///
/// If the directory or the file cannot be written, or the file there cannot be read.
pub(crate) fn save(path: &Path, test: &str, case: &Stored) -> Result<(), String> {
    let dir = path
        .parent()
        .ok_or_else(|| format!("{} has no directory", path.display()))?;
    fs::create_dir_all(dir).map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
    locked(path, || save_unlocked(path, test, case))
}

/// [`save`], by the one writer of `path` that holds its lock (see [`locked`]).
fn save_unlocked(path: &Path, test: &str, case: &Stored) -> Result<(), String> {
    let line = case.line();
    let text = match read(path)? {
        // A new file: a header, then the case.
        None => format!(
            "# Failing cases of `{test}`, replayed first, newest first. Commit this file.\n\
             # Each line: the size, then the choices (p: a pick's branch, i: an integer), or the\n\
             # value as JSON.\n{line}\n"
        ),
        // The file as it is, every line kept (the user's comments too), with the case before
        // the newest one stored, or last if it holds none.
        Some(old) => {
            let stored = cases_of(path, &old)?;
            if stored.iter().any(|(_, kept)| kept.line() == line) {
                return Ok(());
            }
            let lines: Vec<&str> = old.split_inclusive('\n').collect();
            let at = stored
                .first()
                .map_or(lines.len(), |&(number, _)| number - 1);
            let mut text: String = lines[..at].concat();
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&line);
            text.push('\n');
            text.push_str(&lines[at..].concat());
            text
        }
    };
    // A name of its own for each writer, so that two never write the same temporary file.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let write = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temporary = path.with_extension(format!("txt.{}.{write}.tmp", std::process::id()));
    fs::write(&temporary, text)
        .map_err(|error| format!("cannot write {}: {error}", temporary.display()))?;
    fs::rename(&temporary, path).map_err(|error| {
        let _ = fs::remove_file(&temporary);
        format!("cannot replace {}: {error}", path.display())
    })
}

/// How long a writer waits for another to finish with a directory's regressions files before
/// it gives up saving (with an error in its report): writing a file takes milliseconds.
const LOCK_PATIENCE: Duration = Duration::from_secs(30);

/// The file in a directory of regressions files that their writers lock: empty, and left in
/// place (deleting it while another writer waits on it would let a third lock a new one).
const LOCK_FILE: &str = ".lock";

/// Runs `write` as the one writer of the regressions files in `path`'s directory: two runs of
/// a test at once (two `cargo test`s, an editor's and a terminal's) each read the file, add
/// their case and write it back, and without a lock the last one's write dropped the other's
/// case. The lock is the operating system's lock on the directory's [`LOCK_FILE`], which it
/// releases when the writer closes the file or ends, crashed or not; where the file system has
/// no locks, `write` runs unlocked, as before.
///
/// # Errors
///
/// If the lock file cannot be opened, another writer holds the lock for [`LOCK_PATIENCE`],
/// or `write` fails.
fn locked(path: &Path, write: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    let lock = path.with_file_name(LOCK_FILE);
    let file =
        open_lock(&lock).map_err(|error| format!("cannot open {}: {error}", lock.display()))?;
    let waiting = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => break,
            Err(fs::TryLockError::WouldBlock) if waiting.elapsed() < LOCK_PATIENCE => {
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(fs::TryLockError::WouldBlock) => {
                return Err(format!(
                    "another run has held the lock on {} for {} s (a run stopped in a \
                     debugger?)",
                    lock.display(),
                    LOCK_PATIENCE.as_secs()
                ));
            }
            Err(fs::TryLockError::Error(error))
                if error.kind() == std::io::ErrorKind::Unsupported =>
            {
                break;
            }
            Err(fs::TryLockError::Error(error)) => {
                return Err(format!("cannot lock {}: {error}", lock.display()));
            }
        }
    }
    // `file` closes when this returns (or the write panics), which unlocks it.
    write()
}

/// The lock file `lock`, made if there is none, never emptied (it holds nothing). Where it
/// is made, a [`GIT_IGNORE`] file beside it keeps it out of version control, unless the
/// directory has one already (the regressions files are meant to be committed; the lock is
/// not).
fn open_lock(lock: &Path) -> std::io::Result<fs::File> {
    if let Some(dir) = lock.parent() {
        let ignore = dir.join(".gitignore");
        if !ignore.exists() {
            // Best effort: a lock file committed by mistake does no harm.
            let _ = fs::write(ignore, GIT_IGNORE);
        }
    }
    fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock)
}

/// What the `.gitignore` written beside a lock file says: ignore the lock.
const GIT_IGNORE: &str =
    "# Written by reflective: the lock its writers take is not a regression.\n.lock\n";

/// Whether `replayed` makes the choices a stored line records of `stored` (a pick's index, an
/// integer's value, the size): the case ran as it was stored, not repaired.
pub(super) fn replayed_as_stored(stored: &ChoiceTree, replayed: &ChoiceTree) -> bool {
    format_case(stored) == format_case(replayed)
}

/// `size <n>: [p<index> i<value> ...]`: the closing bracket shows that the line is whole.
fn format_case(tree: &ChoiceTree) -> String {
    let choices: Vec<String> = tree
        .choices()
        .iter()
        .map(|choice| match choice {
            Choice::Pick { index, .. } => format!("p{index}"),
            Choice::Int { value, .. } => format!("i{value}"),
        })
        .collect();
    format!("size {}: [{}]", tree.size(), choices.join(" "))
}

/// The choices of a line [`format_case`] wrote. Only what replay reads is kept: a pick's index
/// and an integer's value (replay does not compare arities, labels or bounds).
fn parse_case(line: &str) -> Result<ChoiceTree, String> {
    let rest = line
        .strip_prefix("size ")
        .ok_or("expected `size <n>:` at the start")?;
    let (size, choices) = rest.split_once(':').ok_or("expected `:` after the size")?;
    // No larger than a run may use, as for a replay line.
    let size = super::config::size(size.trim())?;
    let choices = choices
        .trim()
        .strip_prefix('[')
        .ok_or("expected `[` before the choices")?;
    // A comment may follow the choices.
    let (choices, after) = choices
        .split_once(']')
        .ok_or("expected `]` after the choices: the line is cut short")?;
    let after = after.trim();
    if !after.is_empty() && !after.starts_with('#') {
        return Err(format!(
            "expected the line to end after `]` (or a `# comment`), found `{after}`"
        ));
    }
    let choices = choices
        .split_whitespace()
        .map(|token| {
            let bad = || format!("expected `p<branch>` or `i<integer>`, found `{token}`");
            match token.split_at_checked(1) {
                Some(("p", index)) => {
                    let index: u32 = index.parse().map_err(|_| bad())?;
                    Ok(Choice::Pick {
                        index,
                        arity: index.saturating_add(1),
                        label: None,
                    })
                }
                Some(("i", value)) => {
                    let value: i128 = value.parse().map_err(|_| bad())?;
                    Ok(Choice::Int {
                        value,
                        lo: value,
                        hi: value,
                    })
                }
                _ => Err(bad()),
            }
        })
        .collect::<Result<Vec<Choice>, String>>()?;
    ChoiceTree::from_parts(size, choices, []).ok_or_else(|| "no valid choices".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A binary's own sources are `src/main.rs` and those under `src/bin/`, from the package's
    /// directory or the workspace's, with either separator.
    #[test]
    fn a_binarys_own_sources_are_told_apart() {
        for file in [
            "src/main.rs",
            "tool/src/main.rs",
            "src/bin/cli.rs",
            "crates/tool/src/bin/cli/main.rs",
            "tool\\src\\main.rs",
        ] {
            assert!(in_binary_source(file), "{file}");
        }
        for file in [
            "src/lib.rs",
            "src/tests.rs",
            "tests/main.rs",
            "src/binary/mod.rs",
            "src/main.rs/x.rs",
        ] {
            assert!(!in_binary_source(file), "{file}");
        }
    }

    #[test]
    fn names_do_not_collide_and_stay_short() {
        assert_eq!(file_name("tests::it_holds"), "tests.it_holds");
        assert_ne!(file_name("m::t"), file_name("m__t"));
        assert_ne!(file_name("m::t"), file_name("m.t"));
        let long = "x".repeat(400);
        assert_eq!(file_name(&long).len(), MAX_NAME);
        assert_ne!(file_name(&long), file_name(&format!("{long}y")));
        // The hash is FNV-1a, fixed: a file named with it must be found again by every
        // later version and toolchain.
        assert_eq!(stable_hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(stable_hash(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(
            file_name(&long),
            format!(
                "{}-{:016x}",
                "x".repeat(MAX_NAME - 17),
                stable_hash(long.as_bytes())
            )
        );
    }

    #[test]
    fn the_newest_case_comes_first_and_each_is_kept_once() {
        let dir =
            std::env::temp_dir().join(format!("reflective-regressions-{}", std::process::id()));
        let path = dir.join("t.txt");
        let case = |n: u32| {
            Stored::Choices(
                ChoiceTree::from_parts(
                    n as usize,
                    vec![Choice::Pick {
                        index: n,
                        arity: n + 1,
                        label: None,
                    }],
                    [],
                )
                .unwrap(),
            )
        };
        save(&path, "t", &case(1)).unwrap();
        save(&path, "t", &case(2)).unwrap();
        save(&path, "t", &case(1)).unwrap();
        save(&path, "t", &Stored::Value("[7]".into())).unwrap();
        let stored: Vec<Stored> = load(&path).unwrap().into_iter().map(|(_, s)| s).collect();
        assert_eq!(stored, [Stored::Value("[7]".into()), case(2), case(1)]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// Saving a case keeps every line of the file: a user's comments and blank lines, wherever
    /// they are, and a last line without a newline.
    #[test]
    fn saving_keeps_the_users_lines() {
        let dir = std::env::temp_dir().join(format!(
            "reflective-regressions-kept-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let case = |size: usize, value: u32| {
            Stored::Choices(
                ChoiceTree::from_parts(
                    size,
                    vec![Choice::Pick {
                        index: value,
                        arity: value + 1,
                        label: None,
                    }],
                    [],
                )
                .unwrap(),
            )
        };
        let path = dir.join("commented.txt");
        std::fs::write(
            &path,
            "# my note: bug #12\n\n# keep me\nsize 3: [p1]\n# after\nsize 4: [p2]",
        )
        .unwrap();
        save(&path, "t", &case(5, 7)).unwrap();
        save(&path, "t", &case(4, 2)).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "# my note: bug #12\n\n# keep me\nsize 5: [p7]\nsize 3: [p1]\n# after\nsize 4: [p2]"
        );
        let only_comments = dir.join("only_comments.txt");
        std::fs::write(&only_comments, "# notes").unwrap();
        save(&only_comments, "t", &case(1, 1)).unwrap();
        assert_eq!(
            std::fs::read_to_string(&only_comments).unwrap(),
            "# notes\nsize 1: [p1]\n"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// A directory of its own under the system's temporary directory, for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "reflective-regressions-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn pick_case(size: usize, index: u32) -> Stored {
        let choice = Choice::Pick {
            index,
            arity: index + 1,
            label: None,
        };
        Stored::Choices(ChoiceTree::from_parts(size, vec![choice], []).unwrap())
    }

    /// Writers that save to one file at once keep every case (without the lock, the last
    /// writer's file dropped the others' cases).
    #[test]
    fn writers_at_once_keep_every_case() {
        let dir = scratch("writers");
        let path = dir.join("shared.txt");
        std::thread::scope(|scope| {
            for writer in 0..16 {
                let path = &path;
                scope.spawn(move || {
                    for case in 0..4 {
                        save(path, "t", &pick_case(1, writer * 4 + case)).unwrap();
                    }
                });
            }
        });
        let mut kept: Vec<String> = load(&path)
            .unwrap()
            .into_iter()
            .map(|(_, case)| case.line())
            .collect();
        kept.sort();
        let mut expected: Vec<String> = (0..64).map(|n| pick_case(1, n).line()).collect();
        expected.sort();
        assert_eq!(kept, expected);
        // The lock is kept out of version control, the regressions files are not.
        assert_eq!(
            fs::read_to_string(dir.join(".gitignore")).unwrap(),
            GIT_IGNORE
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// A writer that holds the lock makes the others wait, not write, until it lets go.
    #[test]
    fn a_held_lock_makes_writers_wait() {
        let dir = scratch("held");
        let path = dir.join("t.txt");
        let holder = open_lock(&dir.join(LOCK_FILE)).unwrap();
        holder.lock().unwrap();
        let saving = std::thread::spawn({
            let path = path.clone();
            move || save(&path, "t", &pick_case(2, 1))
        });
        std::thread::sleep(Duration::from_millis(200));
        assert!(!path.exists(), "a writer wrote while another held the lock");
        holder.unlock().unwrap();
        saving.join().unwrap().unwrap();
        assert_eq!(load(&path).unwrap().len(), 1);
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// Bytes that are not UTF-8 are an error that names their line; a comment may follow a
    /// line's choices, other text not.
    #[test]
    fn lines_that_are_not_utf8_or_go_on_after_the_choices_are_named() {
        let dir = scratch("bad-lines");
        let path = dir.join("t.txt");
        std::fs::write(&path, b"# cases\nsize 2: [p1 \xff\xfe]\n").unwrap();
        let error = load(&path).unwrap_err();
        assert!(
            error.contains("t.txt, line 2: the line is not UTF-8 text"),
            "{error}"
        );
        std::fs::remove_dir_all(dir).unwrap();
        let commented = cases_of(&path, "size 2: [i1 i600] # found in CI\n").unwrap();
        assert_eq!(commented[0].1.line(), "size 2: [i1 i600]");
        let error = cases_of(&path, "size 2: [i1 i600] i7\n").unwrap_err();
        assert!(
            error.contains("expected the line to end after `]` (or a `# comment`), found `i7`"),
            "{error}"
        );
    }

    #[test]
    fn a_byte_order_mark_is_read_past_and_kept() {
        let path = Path::new("bom.txt");
        let text = "\u{feff}# Failing cases\nsize 3: [i5]\n";
        let cases = cases_of(path, text).unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].0, 2);
        assert_eq!(cases[0].1.line(), "size 3: [i5]");
    }

    #[test]
    fn a_size_larger_than_a_run_may_use_is_refused() {
        let largest = format!("size {}: [i1]", crate::check::MAX_ENV_SIZE);
        assert!(parse_case(&largest).is_ok());
        let error = parse_case("size 18446744073709551615: []").unwrap_err();
        assert_eq!(
            error,
            "expected a size up to 1048576, found `18446744073709551615`"
        );
    }

    #[test]
    fn cases_read_back_as_written() {
        let tree = ChoiceTree::from_parts(
            7,
            vec![
                Choice::Pick {
                    index: 2,
                    arity: 3,
                    label: None,
                },
                Choice::Int {
                    value: -170_141_183_460_469_231_731_687_303_715_884_105_728,
                    lo: i128::MIN,
                    hi: 0,
                },
            ],
            [],
        )
        .unwrap();
        let line = format_case(&tree);
        assert_eq!(
            line,
            "size 7: [p2 i-170141183460469231731687303715884105728]"
        );
        assert_eq!(format_case(&parse_case(&line).unwrap()), line);
        for bad in [
            "size 7: [p2 i-",
            "size 7: [p2 i1",
            "size 7: [p2 i-]",
            "siz",
            "size x: [p1]",
            "size 7 [p1]",
            "size 7: [q1]",
        ] {
            assert!(parse_case(bad).is_err(), "{bad}");
        }
    }
}
