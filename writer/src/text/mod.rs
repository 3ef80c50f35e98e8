//! The textual form: generic, and custom where the ops' printers are
//! ported (SPEC.md §4, §11.4).
mod aliases;
mod names;
mod print_size;
mod printer;

pub use printer::{
    escaped_string, print_module, print_module_to, try_print_module, unported_custom_ops,
    OutputTooLarge, PrintOptions,
};
