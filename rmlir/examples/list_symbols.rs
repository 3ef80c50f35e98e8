//! Lists the top-level ops of a bytecode file and their symbols, reading
//! no more of the file than its outline (what `rmlir-bc info` shows):
//!
//! ```sh
//! cargo run -p rmlir --example list_symbols -- model.mlirbc
//! ```

use rmlir::BytecodeReader;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: list_symbols FILE.mlirbc")?;
    let file = std::fs::File::open(&path)?;
    // Safety: the file is not changed while it is mapped.
    let map = unsafe { memmap2::Mmap::map(&file)? };
    let mut reader = BytecodeReader::open(&map).map_err(|e| format!("{path}: {e}"))?;
    println!(
        "{path}: bytecode version {}, producer {}",
        reader.version(),
        String::from_utf8_lossy(reader.producer())
    );
    for op in reader.scan_top_level(&mut |_, _| {})? {
        let symbol = op.symbol.as_deref().map(String::from_utf8_lossy);
        println!(
            "  {} {}",
            String::from_utf8_lossy(&op.name),
            symbol.as_deref().unwrap_or("-")
        );
    }
    Ok(())
}
