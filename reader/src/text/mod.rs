//! The generic textual form.
mod alias_table;
pub mod lexer;
mod parser;
pub mod split_plan;

pub use parser::{
    parse_attr_in, parse_attr_into, parse_module, parse_module_in_release, parse_module_releasing,
    parse_module_releasing_deferred, parse_module_releasing_deferred_with, parse_module_split,
    parse_module_split_at, parse_module_with_limits, parse_type_in, parse_type_into, SplitReport,
    TextLimits, PARALLEL_TEXT_MIN_BYTES,
};
