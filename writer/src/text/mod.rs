//! The generic textual form.
mod aliases;
mod names;
mod print_size;
mod printer;

pub use printer::{
    escaped_string, print_module, print_module_to, try_print_module, OutputTooLarge, PrintOptions,
};
