//! # rmlir: MLIR modules in pure Rust
//!
//! Read MLIR's generic text and its bytecode (versions 0–6, as mlir-opt 22
//! and the tools built on newer MLIR write them), walk and change the
//! in-memory IR, print it as mlir-opt prints it, and write bytecode at any
//! version, with no C++ or LLVM at run time. This crate is the one to
//! depend on: it re-exports the four crates that do the work, each of
//! which can also be used on its own.
//!
//! | module | crate | what |
//! |---|---|---|
//! | [`ir`] | `rmlir-format` | the IR ([`Module`], its [`Context`] of attributes and types), op layouts, the dialect hook traits |
//! | [`reader`] | `rmlir-reader` | text and bytecode into a [`Module`], eagerly or lazily ([`BytecodeReader`]) |
//! | [`writer`] | `rmlir-writer` | a [`Module`] into text ([`print_module`]) or bytecode ([`write_bytecode`]) |
//! | [`dialects`] | `rmlir-dialects` | what we know of each dialect but builtin: StableHLO, VHLO, CHLO, Shardy, IREE, and a dialect of one's own loaded from data |
//!
//! The format is described in the repository's `SPEC.md`, section by
//! section; the command-line tool `rmlir-bc` is built on this crate's
//! parts.
//!
//! ## A shipped module, from a memory map
//!
//! Open a `.mlirbc` lazily (only the module's outline is decoded), list
//! its top-level symbols, materialize one function, walk its ops and
//! attributes, print it, and write the module at another bytecode version:
//!
//! ```
//! use rmlir::{AttrData, BytecodeReader, WriteOptions};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = std::env::temp_dir().join(format!("rmlir-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("hello.mlirbc");
//! # let text = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/hello.mlir"))?;
//! # let m = rmlir::parse_module(&text, "hello.mlir")?;
//! # std::fs::write(&path, rmlir::write_bytecode(&m, &WriteOptions::default())?)?;
//! let file = std::fs::File::open(&path)?;
//! // Safety: the file is not changed while it is mapped.
//! let map = unsafe { memmap2::Mmap::map(&file)? };
//! let mut reader = BytecodeReader::open(&map)?;
//!
//! // The top-level ops and their symbols, without decoding their bodies.
//! let listed = reader.scan_top_level(&mut |_, _| {})?;
//! let names: Vec<String> = listed
//!     .iter()
//!     .filter_map(|op| op.symbol.as_deref())
//!     .map(|s| String::from_utf8_lossy(s).into_owned())
//!     .collect();
//! assert_eq!(names, ["hello"]);
//!
//! // Materialize the module's body, then the function's.
//! let top = reader.module().top.expect("a top-level op");
//! reader.materialize(top)?;
//! let m = reader.module();
//! let body = m.block(m.region(m.op(top).regions()[0]).blocks[0]);
//! let func = body.ops[0];
//! assert_eq!(m.op_name(func), b"func.func");
//! reader.materialize(func)?;
//!
//! // Walk the function's ops and their properties.
//! let m = reader.module();
//! let mut seen = Vec::new();
//! for &block in &m.region(m.op(func).regions()[0]).blocks {
//!     for &op in &m.block(block).ops {
//!         let name = String::from_utf8_lossy(m.op_name(op)).into_owned();
//!         if let Some(props) = m.op(op).properties {
//!             if let AttrData::Dictionary(entries) = m.ctx.attr(props) {
//!                 for (key, value) in entries {
//!                     if let AttrData::Integer { value, .. } = m.ctx.attr(*value) {
//!                         seen.push(format!("{name} {}={value}", String::from_utf8_lossy(key)));
//!                     }
//!                 }
//!             }
//!         }
//!     }
//! }
//! assert_eq!(seen, ["arith.constant value=42"]);
//!
//! // Print it as mlir-opt does (generic form, with locations), and write
//! // it for a reader of bytecode version 3.
//! reader.materialize_all()?;
//! let module = reader.into_module();
//! let text = rmlir::print_module(&module, Default::default());
//! assert!(text.contains(r#""arith.constant"() <{value = 42 : i32}> : () -> i32"#));
//! let v3 = rmlir::write_bytecode(&module, &WriteOptions { version: 3, ..Default::default() })?;
//! assert_eq!(rmlir::read_bytecode(&v3)?.ops.len(), module.ops.len());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs)]

/// The in-memory IR and what the readers and writers share (crate
/// `rmlir-format`).
pub use rmlir_format as ir;

/// Text and bytecode into the IR (crate `rmlir-reader`).
pub use rmlir_reader as reader;

/// The IR into text and bytecode (crate `rmlir-writer`).
pub use rmlir_writer as writer;

/// Dialects beyond builtin: hooks, encodings, out-of-tree op layouts and
/// the tools whose terms files are read in (crate `rmlir-dialects`).
pub use rmlir_dialects as dialects;

pub use rmlir_format::{AttrData, AttrId, Context, Module, OpId, TypeData, TypeId};
pub use rmlir_reader::{
    parse_module, read_bytecode, read_bytecode_with_options, BytecodeReader, ReadOptions,
};
pub use rmlir_writer::{print_module, write_bytecode, PrintOptions, WriteError, WriteOptions};
