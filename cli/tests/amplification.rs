//! Small inputs that would make the tool use unbounded memory, time or
//! output are refused early (SPEC.md §5.1): zstd frames that decompress to
//! gigabytes, and modules whose shared attributes print without end. Each
//! run's peak RSS is read from the kernel for that child alone (`wait4`).
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rmlir-amp-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A zstd frame, built by hand from raw and RLE blocks (RFC 8878 §3.1.1):
/// `prefix` stored as is, then `zeros` zero bytes in RLE blocks of 128 KiB,
/// four bytes each: 30 GB of zeros is a 0.9 MB frame, made in
/// milliseconds. With `declare`, the frame header states the content size.
fn zstd_bomb(prefix: &[u8], zeros: u64, declare: bool) -> Vec<u8> {
    const BLOCK: u64 = 128 << 10;
    let mut f = vec![0x28, 0xB5, 0x2F, 0xFD];
    // Frame header descriptor: content-size field of 8 bytes (flag 3) or
    // none; no single segment, no checksum, no dictionary.
    f.push(if declare { 0b1100_0000 } else { 0 });
    // Window descriptor: 2^(10 + 7) = 128 KiB.
    f.push(7 << 3);
    if declare {
        f.extend_from_slice(&(prefix.len() as u64 + zeros).to_le_bytes());
    }
    let header = |f: &mut Vec<u8>, last: bool, kind: u32, size: u64| {
        let h = (size as u32) << 3 | kind << 1 | last as u32;
        f.extend_from_slice(&h.to_le_bytes()[..3]);
    };
    header(&mut f, zeros == 0, 0, prefix.len() as u64);
    f.extend_from_slice(prefix);
    let mut left = zeros;
    while left > 0 {
        let n = left.min(BLOCK);
        left -= n;
        header(&mut f, left == 0, 1, n);
        f.push(0);
    }
    f
}

/// Runs the binary with its output in files; returns (exit code, stdout
/// length, stderr, peak RSS in KiB).
fn run_measured(args: &[&str], dir: &Path) -> (Option<i32>, u64, String, i64) {
    let out = dir.join("stdout");
    let err = dir.join("stderr");
    let child = Command::new(env!("CARGO_BIN_EXE_rmlir-bc"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .expect("runs rmlir-bc");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for the kernel to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, with valid pointers; `child` is not
    // waited for again.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4: {}", std::io::Error::last_os_error());
    std::mem::forget(child);
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let stdout_len = std::fs::metadata(&out).unwrap().len();
    let stderr = std::fs::read_to_string(&err).unwrap();
    (code, stdout_len, stderr, usage.ru_maxrss)
}

const MAX_RSS_KIB: i64 = 100 << 10;

#[test]
fn zstd_bombs_are_refused_before_they_are_decompressed() {
    let dir = tmpdir("zstd");
    let thirty_gb = 30_000_000_000;
    // The bytecode magic and zeros: the header is malformed from its 24th
    // byte on (a second string section).
    for declare in [false, true] {
        let bomb = dir.join(format!("zeros-{declare}.mlirbc.zst"));
        std::fs::write(&bomb, zstd_bomb(b"ML\xEFR", thirty_gb, declare)).unwrap();
        for cmd in ["info", "decode", "verify"] {
            let (code, _, err, rss) = run_measured(&[cmd, bomb.to_str().unwrap()], &dir);
            assert_eq!(code, Some(1), "{cmd}: {err}");
            if declare {
                // The declared size is over the default limit: refused
                // before a byte is decompressed.
                assert!(
                    err.contains("the zstd frame declares 30000000004 bytes of content, over 17179869184 bytes, the limit for decompressed input"),
                    "{err}"
                );
                assert!(err.contains("--max-decompressed-bytes"), "{err}");
            } else {
                assert!(
                    err.contains("duplicate top-level section: String (0) (in header section, at byte offset 0x18)"),
                    "{err}"
                );
            }
            assert!(rss < MAX_RSS_KIB, "{cmd}: peak RSS {rss} KiB");
        }
        // Raising the limit does not make the malformed header pass.
        let (code, _, err, rss) = run_measured(
            &[
                "info",
                "--max-decompressed-bytes",
                "40000000000",
                bomb.to_str().unwrap(),
            ],
            &dir,
        );
        assert_eq!(code, Some(1));
        assert!(err.contains("duplicate top-level section"), "{err}");
        assert!(rss < MAX_RSS_KIB, "peak RSS {rss} KiB");
    }
    // A well-formed header whose first section declares 2^40 bytes: known
    // to be over the limit as soon as the declaration arrives.
    let mut header = b"ML\xEFR".to_vec();
    header.push(6 << 1 | 1);
    header.extend_from_slice(b"MLIR22.1.8\0");
    header.push(0);
    let len: u64 = 1 << 40;
    header.extend_from_slice(&((len << 6) | 0b10_0000).to_le_bytes()[..6]);
    let bomb = dir.join("section.mlirbc.zst");
    std::fs::write(&bomb, zstd_bomb(&header, 1 << 30, false)).unwrap();
    let (code, _, err, rss) = run_measured(&["info", bomb.to_str().unwrap()], &dir);
    assert_eq!(code, Some(1));
    assert!(
        err.contains(
            "the bytecode's sections declare at least 1099511627799 bytes, over 17179869184 bytes"
        ),
        "{err}"
    );
    assert!(rss < MAX_RSS_KIB, "peak RSS {rss} KiB");
    // Text (or anything not bytecode) stops at the limit.
    let bomb = dir.join("text.mlir.zst");
    std::fs::write(&bomb, zstd_bomb(b"// ", 1 << 30, false)).unwrap();
    let (code, _, err, rss) = run_measured(
        &[
            "decode",
            "--max-decompressed-bytes",
            "10000000",
            bomb.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(code, Some(1));
    assert!(
        err.contains("the zstd data decompresses to more than 10000000 bytes, the limit for decompressed input"),
        "{err}"
    );
    assert!(rss < MAX_RSS_KIB, "peak RSS {rss} KiB");
    // Below the limit, a frame made this way decompresses as zstd's own
    // decoder reads it: the prefix and the zeros.
    let small = zstd_bomb(b"ML", 300_000, true);
    let plain = zstd::decode_all(&small[..]).expect("zstd reads the hand-made frame");
    assert_eq!(plain.len(), 300_002);
    assert!(plain[..2] == *b"ML" && plain[2..].iter().all(|&b| b == 0));
}

/// `#a0 = [#a1, #a1]` … `#a40 = "x"`: 854 bytes of text and about 350 of
/// bytecode whose print is 2^40 copies of `"x"`.
fn attr_dag() -> String {
    let mut s = String::from("#a40 = \"x\"\n");
    for i in (0..40).rev() {
        s.push_str(&format!("#a{i} = [#a{n}, #a{n}]\n", n = i + 1));
    }
    s.push_str("\"builtin.module\"() ({\n  \"test.op\"() {a = #a0} : () -> ()\n}) : () -> ()\n");
    s
}

#[test]
fn prints_that_would_explode_are_refused_with_the_attribute_named() {
    let dir = tmpdir("dag");
    let text = dir.join("dag.mlir");
    std::fs::write(&text, attr_dag()).unwrap();
    let bc = dir.join("dag.mlirbc");
    let (code, _, err, _) = run_measured(
        &["encode", text.to_str().unwrap(), "-o", bc.to_str().unwrap()],
        &dir,
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(std::fs::metadata(&bc).unwrap().len() < 400);
    let target = dir.join("out.mlir");
    std::fs::write(&target, b"previous").unwrap();
    for input in [&text, &bc] {
        for local in [false, true] {
            let mut args = vec!["decode", input.to_str().unwrap()];
            if local {
                args.push("--local-scope");
            }
            args.extend(["-o", target.to_str().unwrap()]);
            let (code, _, err, rss) = run_measured(&args, &dir);
            assert_eq!(code, Some(1), "{err}");
            // The default: 256 MiB and 256 bytes per input byte.
            let limit = (256 << 20) + 256 * std::fs::metadata(input).unwrap().len();
            assert!(
                err.contains(&format!("over the limit of {limit} bytes"))
                    && err.contains(
                        "attribute 'a' (an array attribute) of 'test.op' expands to about"
                    ),
                "{err}"
            );
            assert!(
                err.contains("(2199023255551 nested attributes and types"),
                "{err}"
            );
            assert!(err.contains("--max-output-bytes"), "{err}");
            assert!(rss < MAX_RSS_KIB, "peak RSS {rss} KiB");
            assert_eq!(std::fs::read(&target).unwrap(), b"previous");
        }
    }
    // A module under the limit prints; one over a limit set by hand does not.
    let small = dir.join("small.mlir");
    std::fs::write(
        &small,
        "\"builtin.module\"() ({\n  \"test.op\"() {a = [1, 2, 3]} : () -> ()\n}) : () -> ()\n",
    )
    .unwrap();
    let (code, len, err, _) = run_measured(&["decode", small.to_str().unwrap()], &dir);
    assert_eq!(code, Some(0), "{err}");
    assert!(len > 0);
    let (code, _, err, _) = run_measured(
        &[
            "decode",
            "--max-output-bytes",
            "100",
            small.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(code, Some(1));
    assert!(err.contains("over the limit of 100 bytes"), "{err}");
}
