//! The reader's error type (SPEC.md §5): what went wrong and where, shown
//! like a compiler diagnostic.

use std::fmt;

/// Where an error happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    /// A position in a text file: 1-based line and column, plus the text of
    /// that line for the caret display.
    Text {
        /// The name of the input, as given to the parser.
        file: String,
        /// 1-based line number.
        line: usize,
        /// 1-based column, in characters.
        col: usize,
        /// The text of that line, without its `\n`.
        line_text: String,
    },
    /// A byte offset into a bytecode file, inside a named section.
    Bytecode {
        /// The section being read (`"String"`, `"AttrType"`, `"IR"`, ...;
        /// SPEC.md §6.3).
        section: &'static str,
        /// The offset from the start of the file, not of the section.
        offset: u64,
    },
}

/// What class of problem an error is, for programs that match on errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input is not valid according to the grammar or format.
    Syntax,
    /// Well-formed, but refers to something undefined or inconsistent
    /// (undefined SSA value, alias, block; type mismatch).
    Semantic,
    /// Valid MLIR that this toolkit does not handle (e.g. custom op syntax).
    Unsupported,
    /// A configured limit (nesting depth, sizes) was exceeded.
    Limit,
}

/// An error from reading text or bytecode: its kind, a message and where
/// (SPEC.md §5). Boxed so a `Result` stays one pointer wide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    inner: Box<Inner>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    message: String,
    position: Position,
}

/// The reader's result type, with [`Error`] by default.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error of `kind` with `message` at `position`.
    #[cold]
    pub fn new(kind: ErrorKind, message: impl Into<String>, position: Position) -> Self {
        Error {
            inner: Box::new(Inner {
                kind,
                message: message.into(),
                position,
            }),
        }
    }
    /// What class of problem this is.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }
    /// The message alone, without the position.
    pub fn message(&self) -> &str {
        &self.inner.message
    }
    /// Where the error happened.
    pub fn position(&self) -> &Position {
        &self.inner.position
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.inner.position {
            Position::Text {
                file,
                line,
                col,
                line_text,
            } => {
                writeln!(f, "{file}:{line}:{col}: error: {}", self.inner.message)?;
                writeln!(f, "{line_text}")?;
                // The caret sits under the column; tabs are kept so it lines up.
                let pad: String = line_text
                    .chars()
                    .take(col.saturating_sub(1))
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                write!(f, "{pad}^")
            }
            Position::Bytecode { section, offset } => write!(
                f,
                "error: {} (in {section} section, at byte offset {offset:#x})",
                self.inner.message
            ),
        }
    }
}

impl std::error::Error for Error {}
