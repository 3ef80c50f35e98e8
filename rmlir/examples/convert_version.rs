//! Rewrites a module (generic text or bytecode) as bytecode of another
//! version, for a reader that needs an older one (what `rmlir-bc convert
//! --emit-version N` does):
//!
//! ```sh
//! cargo run -p rmlir --example convert_version -- model.mlir model.v3.mlirbc 3
//! ```

use rmlir::{parse_module, read_bytecode, write_bytecode, WriteOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, version] = &args[..] else {
        return Err("usage: convert_version INPUT OUTPUT VERSION".into());
    };
    let data = std::fs::read(input)?;
    let module = if rmlir::reader::is_bytecode(&data) {
        read_bytecode(&data)
    } else {
        parse_module(&data, input)
    }
    .map_err(|e| format!("{input}: {e}"))?;
    let opts = WriteOptions {
        version: version.parse()?,
        ..Default::default()
    };
    let bytes = write_bytecode(&module, &opts).map_err(|e| format!("{input}: {e}"))?;
    std::fs::write(output, bytes)?;
    Ok(())
}
