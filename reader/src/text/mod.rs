//! The generic textual form.
pub mod lexer;
mod parser;

pub use parser::{parse_module, parse_module_with_limits, TextLimits};
