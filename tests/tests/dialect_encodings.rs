//! Custom bytecode encodings of the llvm, quant and tosa dialects: mlir-opt
//! 22 writes bytecode for inputs full of llvm debug-info and loop
//! attributes, quant types and tosa ops; our decoding must print exactly
//! what mlir-opt prints reading the same bytes (generic form, aliases,
//! debug info). Corrupted custom entries must give errors naming the
//! dialect, the kind and the field, never a panic.
//!
//! These tests need mlir-opt 22 and fail (never skip) without it.

use rmlir_tests::{first_diff, oracle};
use std::path::PathBuf;

/// Every custom-encoded llvm attribute kind, with most parameters set and
/// unset, every enum in single- and multi-bit forms, string escapes,
/// stripped nested attributes with and without aliases, and a compile unit
/// parameter the encoding drops (`splitDebugFilename`).
const LLVM_DEBUG_INFO: &str = r#"
#file = #llvm.di_file<"a\"b\09.c" in "/dir\\x">
#cu = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C_plus_plus_14, file = #file, producer = "clang", isOptimized = false, emissionKind = LineTablesOnly, nameTableKind = GNU>
#cu2 = #llvm.di_compile_unit<id = distinct[1]<>, sourceLanguage = DW_LANG_Rust, file = #file, isOptimized = true, emissionKind = None, splitDebugFilename = "x.dwo">
#cu3 = #llvm.di_compile_unit<id = distinct[7]<>, sourceLanguage = DW_LANG_Fortran95, file = <"s.f90" in "">, isOptimized = true, emissionKind = DebugDirectivesOnly, nameTableKind = Apple>
#bt = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>
#bt0 = #llvm.di_basic_type<tag = DW_TAG_unspecified_type, name = "">
#bt1 = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "\E2\82\AC", sizeInBits = 18446744073709551615, encoding = DW_ATE_UTF>
#null = #llvm.di_null_type
#ptr = #llvm.di_derived_type<tag = DW_TAG_pointer_type, name = "p", baseType = #bt, sizeInBits = 64, alignInBits = 64, offsetInBits = 8, dwarfAddressSpace = 0, extraData = #bt>
#ptr2 = #llvm.di_derived_type<tag = DW_TAG_member>
#ptr3 = #llvm.di_derived_type<tag = DW_TAG_reference_type, baseType = #null, alignInBits = 4294967295, dwarfAddressSpace = 7>
#expr = #llvm.di_expression<[DW_OP_LLVM_convert(16, DW_ATE_signed), DW_OP_LLVM_fragment(0, 8), DW_OP_constu(5), DW_OP_deref, DW_OP_LLVM_convert(8, DW_ATE_unsigned), DW_OP_LLVM_arg(0), DW_OP_plus_uconst(18446744073709551615)]>
#comp = #llvm.di_composite_type<recId = distinct[2]<>, isRecSelf = true, tag = DW_TAG_structure_type, name = "S", file = #file, line = 7, scope = #file, baseType = #bt, flags = "Public|Vector", sizeInBits = 64, alignInBits = 32, dataLocation = #llvm.di_expression<[DW_OP_deref]>, rank = #llvm.di_expression<>, allocated = #llvm.di_expression<[DW_OP_constu(1)]>, associated = #llvm.di_expression<[DW_OP_constu(2)]>, elements = #llvm.di_subrange<count = 4 : i64, lowerBound = 1 : i64>, #ptr>
#comp2 = #llvm.di_composite_type<tag = DW_TAG_class_type, flags = Public>
#comp3 = #llvm.di_composite_type<tag = DW_TAG_class_type, flags = SingleInheritance>
#comp4 = #llvm.di_composite_type<tag = DW_TAG_class_type, flags = "Private|FwdDecl|TypePassByValue">
#comp5 = #llvm.di_composite_type<tag = DW_TAG_enumeration_type, name = "E", flags = "Protected|EnumClass", elements = #llvm.di_subrange<count = "n">>
#st = #llvm.di_subroutine_type<callingConvention = DW_CC_LLVM_Swift, types = #null, #bt, #ptr>
#st2 = #llvm.di_subroutine_type<>
#sp = #llvm.di_subprogram<recId = distinct[3]<>, id = distinct[4]<>, compileUnit = #cu, scope = #file, name = "f", linkageName = "_f", file = #file, line = 3, scopeLine = 4, subprogramFlags = "Definition|Optimized|LocalToUnit", type = #st, annotations = #llvm.di_annotation<name = "a", value = "b">>
#sp2 = #llvm.di_subprogram<compileUnit = #cu2, scope = #cu2, name = "g", subprogramFlags = Definition, type = #st2, retainedNodes = #bt, #ptr3>
#sp3 = #llvm.di_subprogram<recId = distinct[8]<>, isRecSelf = true>
#lb = #llvm.di_lexical_block<scope = #sp, file = #file, line = 5, column = 6>
#lb2 = #llvm.di_lexical_block<scope = #sp2>
#lbf = #llvm.di_lexical_block_file<scope = #lb, file = #file, discriminator = 0>
#lbf2 = #llvm.di_lexical_block_file<scope = #lb, discriminator = 3>
#lv = #llvm.di_local_variable<scope = #lbf, name = "v", file = #file, line = 9, arg = 2, alignInBits = 8, type = #bt, flags = Artificial>
#lv2 = #llvm.di_local_variable<scope = #lbf2>
#lv3 = #llvm.di_local_variable<scope = #lb2, name = "w", flags = "Artificial|ObjectPointer">
#label = #llvm.di_label<scope = #sp, name = "L", file = #file, line = 11>
#label2 = #llvm.di_label<scope = #lb2>
#ns = #llvm.di_namespace<name = "ns", scope = #file, exportSymbols = true>
#ns2 = #llvm.di_namespace<exportSymbols = false>
#gv = #llvm.di_global_variable<scope = #ns, name = "g", linkageName = "_g", file = #file, line = 12, type = #bt, isLocalToUnit = true, isDefined = true, alignInBits = 32>
#gv2 = #llvm.di_global_variable<file = #file, line = 0, type = #ptr2>
#gve = #llvm.di_global_variable_expression<var = #gv, expr = #llvm.di_expression<[DW_OP_constu(3), DW_OP_stack_value]>>
#gve2 = #llvm.di_global_variable_expression<var = #gv2>
#gve3 = #llvm.di_global_variable_expression<var = #gv2, expr = #llvm.di_expression<>>
#ie = #llvm.di_imported_entity<tag = DW_TAG_imported_module, scope = #sp, entity = #ns, file = #file, line = 13, name = "imp", elements = #lv>
#ie2 = #llvm.di_imported_entity<tag = DW_TAG_imported_declaration, scope = #cu, entity = #gv>
#sr = #llvm.di_subrange<count = #lv, lowerBound = 0 : i64, upperBound = #llvm.di_expression<[DW_OP_constu(7)]>, stride = 8 : i32>
#sr2 = #llvm.di_subrange<count = "x", stride = true>
#sr3 = #llvm.di_subrange<count = -3 : si8, upperBound = 7 : index, stride = 1.5 : f32>
module attributes {t.a = [#cu, #cu3, #bt0, #bt1, #expr, #comp, #comp2, #comp3, #comp4, #comp5, #sp, #sp2, #sp3, #label, #label2, #lv, #lv2, #lv3, #gve, #gve2, #gve3, #ie, #ie2, #sr, #sr2, #sr3, #ns2]} {
  llvm.func @f(%arg0: i32) {
    llvm.intr.dbg.value #lv = %arg0 : i32
    llvm.intr.dbg.value #lv2 #expr = %arg0 : i32
    llvm.intr.dbg.label #label
    llvm.return
  } loc(fused<#sp>["a.c":1:1])
}
"#;

/// Loop annotations: every parameter kind (booleans, nested loop
/// attributes, fused start/end locations, access groups).
const LLVM_LOOPS: &str = r#"
#ag = #llvm.access_group<id = distinct[5]<>>
#ag2 = #llvm.access_group<id = distinct[6]<>>
#la = #llvm.loop_annotation<disableNonforced = false, mustProgress = true, isVectorized = true, startLoc = loc(fused["a.c":1:2, "b.c":3:4]), endLoc = loc(fused<"m">["c.c":5:6]), parallelAccesses = #ag, #ag2>
#la2 = #llvm.loop_annotation<licm = #llvm.loop_licm<disable = true>, peeled = #llvm.loop_peeled<count = 3 : i32>, interleave = #llvm.loop_interleave<count = 4 : i32>, unswitch = #llvm.loop_unswitch<partialDisable = true>, pipeline = #llvm.loop_pipeline<disable = false, initiationinterval = 2 : i32>>
#la3 = #llvm.loop_annotation<disableNonforced = true>
#la4 = #llvm.loop_annotation<>
module attributes {t.a = [#la, #la2, #la3, #la4]} {
  llvm.func @loop(%n: i64) {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    llvm.br ^h(%c0 : i64)
  ^h(%i: i64):
    %c = llvm.icmp "slt" %i, %n : i64
    llvm.cond_br %c, ^b, ^e
  ^b:
    llvm.br ^h(%i : i64) {loop_annotation = #la}
  ^e:
    llvm.return
  }
}
"#;

/// Every quant type: any (with and without expressed type), calibrated,
/// uniform (storage bounds default and not, signed and unsigned, several
/// widths and expressed types, float values that print shortest or in
/// exponent form), per-axis, and sub-channel (ranks 1 to 3, splat).
const QUANT: &str = r#"
module attributes {
  t.any1 = !quant.any<i8<-8:7>:f32>,
  t.any2 = !quant.any<i8<-8:7>>,
  t.any3 = !quant.any<u16:f16>,
  t.any4 = !quant.any<i32>,
  t.cal = !quant.calibrated<f32<-0.998:1.2321>>,
  t.cal2 = !quant.calibrated<f64<-1.0e+10:3.5>>,
  t.cal3 = !quant.calibrated<bf16<0.0:0.1>>,
  t.u1 = !quant.uniform<i8<-8:7>:f32, 9.987200e-01:127>,
  t.u2 = !quant.uniform<u8:f32, 2.0e+2>,
  t.u3 = !quant.uniform<i16:bf16, 1.5e-3:-42>,
  t.u4 = !quant.uniform<u4<1:14>:f16, 0.1>,
  t.u5 = !quant.uniform<i32:f64, 0.3333333333333333>,
  t.u6 = !quant.uniform<i8<-128:127>:f32, 1.0>,
  t.u7 = !quant.uniform<u8<0:255>:f32, 1.0:255>,
  t.u8 = !quant.uniform<u16<0:65534>:f32, 7.8125e-03:32768>,
  t.u9 = !quant.uniform<i2:f32, 3.0e+30:-1>,
  t.pa1 = !quant.uniform<u8:f32:1, {2.0e+2:-120,0.99872:127}>,
  t.pa2 = !quant.uniform<i8<-127:127>:f32:0, {1.0, 2.5:3, 0.1:-4}>,
  t.pa3 = !quant.uniform<i16:f16:3, {0.5}>,
  t.sc1 = !quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:10, 3.0}, {4.0, 5.0:-3}}>,
  t.sc2 = !quant.uniform<u8:f16:{1:4}, {{1.0:1, 2.0:2, 3.0:3}}>,
  t.sc3 = !quant.uniform<i8:f32:{0:2, 1:2}, {{2.0, 2.0}, {2.0, 2.0}}>,
  t.sc4 = !quant.uniform<i4:bf16:{2:3}, {{{0.5:1, 0.25}}, {{0.125, 1.0e-3:-2}}}>,
  t.sc5 = !quant.uniform<u8<2:200>:f32:{0:3}, {0.5:7, 0.25:7}>
} {
  func.func @q(%arg0: tensor<4x!quant.uniform<u8:f32, 7.812500e-03:128>>) -> tensor<4xi8> {
    %0 = "quant.scast"(%arg0) : (tensor<4x!quant.uniform<u8:f32, 7.812500e-03:128>>) -> tensor<4xi8>
    %1 = "quant.dcast"(%arg0) : (tensor<4x!quant.uniform<u8:f32, 7.812500e-03:128>>) -> tensor<4xf32>
    %2 = "quant.qcast"(%1) : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8<-8:7>:f32:0, {1.0, 2.0, 3.0, 4.0}>>
    return %0 : tensor<4xi8>
  }
}
"#;

/// tosa ops on quantized tensors (tosa itself has no custom kinds; its
/// attributes are textual).
const TOSA: &str = r#"
func.func @table(%arg0: tensor<64xi32>, %arg1: tensor<513x!quant.uniform<i16:f32, 1.0>>) -> tensor<64x!quant.uniform<i16:f32, 1.0>> {
  %0 = tosa.table %arg0, %arg1 : (tensor<64xi32>, tensor<513x!quant.uniform<i16:f32, 1.0>>) -> tensor<64x!quant.uniform<i16:f32, 1.0>>
  return %0 : tensor<64x!quant.uniform<i16:f32, 1.0>>
}
func.func @rescale(%arg0: tensor<13x21x3x!quant.uniform<u8:f32, 0.015655439347028732:127>>) -> tensor<13x21x3xi8> {
  %multiplier = "tosa.const"() {values = dense<[42, 43, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %shift = "tosa.const"() {values = dense<[14, 15, 64]> : tensor<3xi8>} : () -> tensor<3xi8>
  %input_zp = "tosa.const"() {values = dense<127> : tensor<1xui8>} : () -> tensor<1xui8>
  %output_zp = "tosa.const"() {values = dense<-1> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.rescale %arg0, %multiplier, %shift, %input_zp, %output_zp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = true, input_unsigned = true, output_unsigned = false} : (tensor<13x21x3x!quant.uniform<u8:f32, 0.015655439347028732:127>>, tensor<3xi32>, tensor<3xi8>, tensor<1xui8>, tensor<1xi8>) -> tensor<13x21x3xi8>
  return %0 : tensor<13x21x3xi8>
}
"#;

/// A scratch folder, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// mlir-opt's bytecode for `src` (the file stays while the folder lives).
fn bytecode_of(name: &str, src: &str) -> (Scratch, PathBuf, Vec<u8>) {
    let dir = std::env::temp_dir().join(format!(
        "rmlir-dialect-encodings-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let scratch = Scratch(dir.clone());
    let input = dir.join(format!("{name}.mlir"));
    let bc = dir.join(format!("{name}.mlirbc"));
    std::fs::write(&input, src).unwrap();
    oracle::run(&[
        "--emit-bytecode",
        input.to_str().unwrap(),
        "-o",
        bc.to_str().unwrap(),
    ])
    .unwrap_or_else(|e| panic!("mlir-opt rejected the {name} input: {e}"));
    let data = std::fs::read(&bc).unwrap();
    (scratch, bc, data)
}

/// Our decoding of mlir-opt's bytecode for `src` prints what mlir-opt
/// prints for it.
fn check(name: &str, src: &str) {
    let (_scratch, bc, data) = bytecode_of(name, src);
    let reference = oracle::run(&[
        "--mlir-print-op-generic",
        "--mlir-print-debuginfo",
        bc.to_str().unwrap(),
    ])
    .unwrap_or_else(|e| panic!("mlir-opt cannot read its {name} bytecode: {e}"));
    let reference = String::from_utf8(reference).unwrap();
    let module = rmlir_reader::read_bytecode(&data)
        .unwrap_or_else(|e| panic!("{name}: our decoding failed: {e}"));
    let ours = rmlir_writer::print_module(&module, Default::default());
    assert!(
        ours == reference,
        "{name}: {}",
        first_diff(&reference, &ours)
    );
}

#[test]
fn llvm_debug_info_attributes_decode_like_mlir_opt() {
    check("llvm_debug_info", LLVM_DEBUG_INFO);
}

#[test]
fn llvm_loop_annotations_decode_like_mlir_opt() {
    check("llvm_loops", LLVM_LOOPS);
}

#[test]
fn quant_types_decode_like_mlir_opt() {
    check("quant", QUANT);
}

#[test]
fn tosa_ops_on_quant_types_decode_like_mlir_opt() {
    check("tosa", TOSA);
}

// ----- writing -----

/// Our bytecode for mlir-opt's generic print of `src` is byte-identical to
/// mlir-opt's bytecode for the same text; so is our bytecode for the IR we
/// decode from mlir-opt's file (whose dialect bodies are built by the
/// decoder, not the text parser).
fn check_writer(name: &str, src: &str) {
    let dir = std::env::temp_dir().join(format!(
        "rmlir-dialect-encodings-w-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let _scratch = Scratch(dir.clone());
    let input = dir.join(format!("{name}.mlir"));
    std::fs::write(&input, src).unwrap();
    let generic = oracle::run(&[
        "--mlir-print-op-generic",
        "--mlir-print-debuginfo",
        input.to_str().unwrap(),
    ])
    .unwrap_or_else(|e| panic!("mlir-opt rejected the {name} input: {e}"));
    let (_s2, _bc, expected) = bytecode_of(
        &format!("{name}-generic"),
        &String::from_utf8(generic.clone()).unwrap(),
    );
    let m = rmlir_reader::parse_module(&generic, "input.mlir")
        .unwrap_or_else(|e| panic!("{name}: parse: {e}"));
    let opts = rmlir_writer::WriteOptions::default();
    let ours = rmlir_writer::write_bytecode(&m, &opts).unwrap();
    assert!(
        ours == expected,
        "{name}: our bytecode from text differs from mlir-opt's ({} vs {} bytes)",
        ours.len(),
        expected.len()
    );
    let m = rmlir_reader::read_bytecode(&expected).unwrap();
    let ours = rmlir_writer::write_bytecode(&m, &opts).unwrap();
    assert!(
        ours == expected,
        "{name}: our bytecode from decoded bytecode differs from mlir-opt's ({} vs {} bytes)",
        ours.len(),
        expected.len()
    );
}

#[test]
fn llvm_debug_info_attributes_encode_like_mlir_opt() {
    // mlir-opt prints `SingleInheritance` (a multi-bit flag) unquoted and
    // cannot read that back, so #comp3 is left out of the generic text.
    check_writer("llvm_debug_info", &LLVM_DEBUG_INFO.replace("#comp3, ", ""));
}

#[test]
fn llvm_loop_annotations_encode_like_mlir_opt() {
    check_writer("llvm_loops", LLVM_LOOPS);
}

#[test]
fn quant_types_encode_like_mlir_opt() {
    check_writer("quant", QUANT);
}

#[test]
fn tosa_ops_on_quant_types_encode_like_mlir_opt() {
    check_writer("tosa", TOSA);
}

/// Hand-written bodies with other whitespace than mlir-opt prints are
/// still custom entries (MLIR's dialect parsers skip whitespace).
#[test]
fn custom_entries_from_text_with_other_whitespace() {
    let src = concat!(
        "\"builtin.module\"() ({\n^bb0:\n}) {t.a = #llvm.di_basic_type< tag = DW_TAG_base_type ,",
        "name=\"int\",\n  sizeInBits = 32>, t.b = #llvm.di_expression<[ DW_OP_deref ,DW_OP_constu( 4 )]>,",
        " t.q = !quant.uniform<i8:f32 , 5.000000e-01:3>} : () -> () loc(unknown)\n"
    );
    let (_scratch, _bc, expected) = bytecode_of("whitespace", src);
    let m = rmlir_reader::parse_module(src.as_bytes(), "input.mlir").unwrap();
    let ours = rmlir_writer::write_bytecode(&m, &rmlir_writer::WriteOptions::default()).unwrap();
    assert!(
        ours == expected,
        "{} vs {} bytes",
        ours.len(),
        expected.len()
    );
}

// ----- malformed input -----

fn varint(d: &[u8], p: &mut usize) -> u64 {
    let first = d[*p];
    if first == 0 {
        let v = u64::from_le_bytes(d[*p + 1..*p + 9].try_into().unwrap());
        *p += 9;
        return v;
    }
    let n = first.trailing_zeros() as usize + 1;
    let mut v = 0u64;
    for (i, b) in d[*p..*p + n].iter().enumerate() {
        v |= (*b as u64) << (8 * i);
    }
    *p += n;
    v >> n
}

/// Absolute `(offset, len)` of every custom-encoded attribute (`types`:
/// type) entry of `dialect`, from the offset section.
fn custom_entries(data: &[u8], dialect: &str, types: bool) -> Vec<(usize, usize)> {
    let r = rmlir_reader::BytecodeReader::open(data).expect("mlir-opt's file opens");
    let dialects: Vec<String> = r
        .dialects()
        .map(|(n, _)| String::from_utf8_lossy(n).into_owned())
        .collect();
    let sec = |id| {
        r.sections()
            .iter()
            .find(|s| s.id == id)
            .map(|s| (s.offset, s.len))
            .unwrap()
    };
    let (off_at, _) = sec(rmlir_reader::bytecode::BytecodeSectionId::AttrTypeOffset);
    let (data_at, _) = sec(rmlir_reader::bytecode::BytecodeSectionId::AttrType);
    let mut p = off_at;
    let nattrs = varint(data, &mut p);
    let ntypes = varint(data, &mut p);
    let mut out = Vec::new();
    let mut at = data_at;
    for (is_type, total) in [(false, nattrs), (true, ntypes)] {
        let mut seen = 0;
        while seen < total {
            let d = varint(data, &mut p) as usize;
            let count = varint(data, &mut p);
            for _ in 0..count {
                let v = varint(data, &mut p);
                let (size, custom) = ((v >> 1) as usize, v & 1 == 1);
                if custom && is_type == types && dialects[d] == dialect {
                    out.push((at, size));
                }
                at += size;
            }
            seen += count;
        }
    }
    out
}

fn decode_err(data: &[u8]) -> String {
    match rmlir_reader::read_bytecode(data) {
        Ok(_) => panic!("the corrupted file decoded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn corrupted_custom_entries_give_errors_that_name_dialect_kind_and_field() {
    let (_scratch, _, data) = bytecode_of(
        "err_llvm",
        "module attributes {t.f = #llvm.di_file<\"a\" in \"b\">} {}",
    );
    let entries = custom_entries(&data, "llvm", false);
    assert_eq!(entries.len(), 1, "one custom llvm entry");
    let (at, len) = entries[0];
    // di_file: kind code 6, then the name and directory string indices.
    assert_eq!(len, 3);
    assert_eq!(data[at], 0x0d);

    let mut bad = data.clone();
    bad[at] = 0x7f; // kind 63
    let e = decode_err(&bad);
    assert!(
        e.contains("llvm attribute") && e.contains("unknown attribute code: 63"),
        "{e}"
    );

    let mut bad = data.clone();
    bad[at + 1] = 0xff; // string index 127
    let e = decode_err(&bad);
    assert!(
        e.contains("llvm DIFileAttr, field 'name'") && e.contains("string"),
        "{e}"
    );

    // A file name given as a two-byte varint overruns the entry.
    let mut bad = data.clone();
    bad[at + 2] = 0x02;
    let e = decode_err(&bad);
    assert!(e.contains("llvm DIFileAttr, field 'directory'"), "{e}");

    // A nested attribute of the wrong class.
    let (_scratch, _, data) = bytecode_of(
        "err_llvm2",
        "module attributes {t.f = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C, file = #llvm.di_file<\"a\" in \"b\">, isOptimized = false, emissionKind = Full>} {}",
    );
    let entries = custom_entries(&data, "llvm", false);
    let cu = entries
        .iter()
        .copied()
        .find(|&(at, _)| data[at] == 0x03)
        .expect("a compile unit entry");
    // Fields: kind, id (attr), language, file (attr): point `file` at `id`.
    let (at, _) = cu;
    let mut bad = data.clone();
    let id_byte = bad[at + 1];
    bad[at + 3] = id_byte;
    let e = decode_err(&bad);
    assert!(
        e.contains("llvm DICompileUnitAttr, field 'file'")
            && e.contains("expected attribute of type: #llvm.di_file"),
        "{e}"
    );

    // quant: a per-axis type whose scale list claims more elements than the
    // entry holds.
    let (_scratch, _, data) = bytecode_of(
        "err_quant",
        "module attributes {t.q = !quant.uniform<u8:f32:1, {2.0:1, 3.0:2}>} {}",
    );
    let entries = custom_entries(&data, "quant", true);
    assert_eq!(entries.len(), 1);
    let (at, len) = entries[0];
    assert_eq!(data[at], 0x0b, "kind 5");
    // kind, flags, storage, expressed, dimension, min, max, then the count.
    let mut p = at;
    for _ in 0..7 {
        varint(&data, &mut p);
    }
    assert_eq!(data[p], 0x05, "two scales");
    let mut bad = data.clone();
    bad[p] = 0x81; // 64 scales
    let e = decode_err(&bad);
    assert!(
        e.contains("quant UniformQuantizedPerAxisType, field 'scales'") && e.contains("count"),
        "{e}"
    );
    assert!(len > 8);
}

/// Deterministic byte mutations of mlir-opt's files: the reader returns
/// (or fails) and never panics.
#[test]
fn mutated_custom_entries_never_panic() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (name, src) in [("mut_llvm", LLVM_DEBUG_INFO), ("mut_quant", QUANT)] {
        let (_scratch, _, data) = bytecode_of(name, src);
        let dialect = if name == "mut_llvm" { "llvm" } else { "quant" };
        let entries = custom_entries(&data, dialect, dialect == "quant");
        assert!(!entries.is_empty());
        for _ in 0..3000 {
            let mut d = data.clone();
            let (at, len) = entries[(next() % entries.len() as u64) as usize];
            for _ in 0..1 + next() % 3 {
                let i = at + (next() % len as u64) as usize;
                d[i] = next() as u8;
            }
            let r = std::panic::catch_unwind(|| rmlir_reader::read_bytecode(&d).map(|_| ()));
            assert!(r.is_ok(), "{name}: the reader panicked on a mutated file");
        }
    }
}
