//! The generic textual form.
mod aliases;
mod names;
mod printer;

pub use printer::{escaped_string, print_module, print_module_to, PrintOptions};
