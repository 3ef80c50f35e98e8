//! The custom syntax of every upstream op (SPEC.md §11): the data
//! `tools/ods-json/gen_formats_json.py` writes from ODS records,
//! embedded, and read on first use. Each op's format is parsed into its
//! element tree when the op is first looked up.

use super::{parse, Element, FormatError, Names};
use crate::fasthash::FastMap as HashMap;
use serde::Deserialize;
use std::sync::OnceLock;

/// How many values an operand or result group holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arity {
    /// Exactly one value.
    Single,
    /// Zero or one value (`Optional<...>`).
    Optional,
    /// Any number of values (`Variadic<...>`).
    Variadic,
    /// Any number of groups of values, their sizes in an attribute
    /// (`VariadicOfVariadic<...>`).
    VariadicOfVariadic,
}

/// An operand or result group of an op.
#[derive(Clone, Debug, Deserialize)]
pub struct ValueSpec {
    /// The ODS name (`$name` in the format).
    pub name: String,
    /// How many values it holds.
    pub arity: Arity,
    /// The type the constraint builds (`i1`, `index`), as text: the type
    /// of a value whose type the format leaves out.
    #[serde(default)]
    pub build: Option<String>,
    /// `dialect.mnemonic` of the dialect type the constraint requires: the
    /// format prints it without its `!dialect.mnemonic` prefix.
    #[serde(default)]
    pub def: Option<String>,
    /// For [`Arity::VariadicOfVariadic`], the attribute holding the sizes
    /// of its groups (`op_bundle_sizes`).
    #[serde(default)]
    pub segments: Option<String>,
}

/// How the generated parser reads an attribute variable (mlir-tblgen's
/// `OpFormatGen`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttrKind {
    /// A keyword (or string) naming a case, stored as an integer.
    Enum,
    /// `@name`, stored as a string.
    Symbol,
    /// Present or not: the optional group around it says which.
    Unit,
    /// An attribute of a dialect, written without `#dialect.mnemonic`.
    Def,
    /// A dense array written as `[…]`.
    Array,
    /// A type, stored as a type attribute.
    Type,
    /// Any attribute, with the type `build` when it leaves its type out.
    Attr,
}

/// An attribute of an op.
#[derive(Clone, Debug, Deserialize)]
pub struct AttrSpec {
    /// The attribute's name.
    pub name: String,
    /// Whether the op may go without it (optional or default-valued).
    pub optional: bool,
    /// How the format reads it.
    pub kind: AttrKind,
    /// For [`AttrKind::Attr`]: the type it takes when the text leaves its
    /// type out (`i64`), as text.
    #[serde(default)]
    pub build: Option<String>,
    /// For [`AttrKind::Def`]: `dialect.mnemonic` of the attribute, whose
    /// `#dialect.mnemonic` the format leaves out.
    #[serde(default)]
    pub def: Option<String>,
    /// An enum's storage width.
    #[serde(default)]
    pub bits: Option<u32>,
    /// An enum's cases: keyword and value.
    #[serde(default)]
    pub cases: Vec<(String, i64)>,
    /// Whether a dialect enum is a bit enum, its cases or-ed together
    /// (`Volatile|Aligned`).
    #[serde(default)]
    pub bit: bool,
    /// The C++ class of an `attr` attribute (`::mlir::ArrayAttr`): which
    /// tokens can start it, for an optional one.
    #[serde(default)]
    pub storage: Option<String>,
    /// A dense array's element type.
    #[serde(default)]
    pub element: Option<String>,
}

/// A property that is not an attribute.
#[derive(Clone, Debug, Deserialize)]
pub struct PropSpec {
    /// The property's name.
    pub name: String,
    /// `named_enum` for an enum property printed `mnemonic<case, …>`
    /// (ODS's `NamedEnumProp`); `None` for a property the format
    /// interpreter does not read.
    #[serde(default)]
    pub kind: Option<String>,
    /// A named enum's mnemonic (`overflow`).
    #[serde(default)]
    pub mnemonic: Option<String>,
    /// A named enum's storage width.
    #[serde(default)]
    pub bits: Option<u32>,
    /// A named enum's cases: keyword and value.
    #[serde(default)]
    pub cases: Vec<(String, i64)>,
    /// Whether the enum is a bit enum, its cases or-ed together.
    #[serde(default)]
    pub bit: bool,
}

/// A region or successor of an op.
#[derive(Clone, Debug, Deserialize)]
pub struct GroupSpec {
    /// The ODS name (`$name` in the format).
    pub name: String,
    /// Whether it may hold any number (`VariadicRegion`,
    /// `VariadicSuccessor`) rather than exactly one.
    pub variadic: bool,
}

/// A trait of an op, as the format interpreter needs it.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Trait {
    /// A native trait by its C++ name
    /// (`::mlir::OpTrait::SameOperandsAndResultType`).
    Native(String),
    /// `AllTypesMatch<[names]>`.
    AllTypesMatch {
        /// The names of the operands, results and attributes whose types
        /// are one.
        all_types_match: Vec<String>,
    },
    /// `SingleBlockImplicitTerminator<Op>`: the op a region's block ends
    /// with when the text leaves it out.
    ImplicitTerminator {
        /// The terminator's op name.
        implicit_terminator: String,
    },
    /// `TypesMatchWith<lhs, rhs, transformer>`.
    TypesMatchWith {
        /// The constraint.
        types_match_with: TypesMatchWith,
    },
}

/// The type of `rhs` is `transformer` (C++ over `$_self`) of `lhs`'s.
#[derive(Clone, Debug, Deserialize)]
pub struct TypesMatchWith {
    /// The name whose type is given.
    pub lhs: String,
    /// The name whose type follows from it.
    pub rhs: String,
    /// The C++ expression computing `rhs`'s type from `lhs`'s.
    pub transformer: String,
    #[serde(skip)]
    kind: OnceLock<Option<TypeTransformer>>,
}

impl TypesMatchWith {
    /// What the transformer computes, where its meaning is known.
    pub fn kind(&self) -> Option<TypeTransformer> {
        *self
            .kind
            .get_or_init(|| TypeTransformer::of(&self.transformer))
    }
}

/// The `TypesMatchWith` transformers whose meaning is known, each
/// recognized in the spellings ODS files use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeTransformer {
    /// `$_self`, `::llvm::cast<Type>($_self)`.
    Same,
    /// `::llvm::cast<ShapedType>($_self).getElementType()` and the like
    /// (`VectorType`, `TensorType`, `MemRefType`, `ComplexType`, …); also
    /// a list of as many element types as the type has elements (the
    /// operand group's count gives how many).
    ElementType,
    /// `getElementTypeOrSelf($_self)`.
    ElementTypeOrSelf,
    /// `getI1SameShape($_self)` and `cloneWith({}, i1)`: the same shape
    /// of `i1`, or `i1` for a scalar.
    I1SameShape,
    /// The scalable square of a vector's leading size, of its element
    /// type: `VectorType::get({size, size}, elem, {true, true})` with
    /// `size = getDimSize(0)` (arm_sme's tile of an outer product).
    ScalableSquare,
    /// `pdl::RangeType::get($_self)`: a range of the pdl type
    /// (`!pdl.value` → `!pdl.range<value>`).
    PdlRangeOf,
    /// `getGetValueTypeOpValueType($_self)` (`PDLInterp.cpp`): `!pdl.value`
    /// for a `!pdl.type`, `!pdl.range<value>` for a range.
    PdlValueOfSameArity,
    /// `cast<FunctionType>($_self).getInputs()`: the list of a function
    /// type's inputs, one per value of a variadic group.
    FunctionInputs,
    /// `cast<FunctionType>($_self).getResults()`.
    FunctionResults,
    /// spirv's `getUnaryOpResultType($_self)`: `i1`, or a 1-D vector of as
    /// many `i1` as the vector has elements.
    I1OfElementCount,
    /// arm_sve's `VectorType::Builder(…).setDim(rank - 1, 16)`: the vector
    /// with its last size 16.
    LastDimSixteen,
    /// x86vector's `IntegerType::get(…, getShape()[0])`: an integer as wide
    /// as the vector's leading size.
    IntegerOfLeadingSize,
    /// spirv's `cast<PointerType>($_self).getPointeeType()`: what a
    /// `!spirv.ptr` points to.
    Pointee,
    /// spirv's `cast<spirv::SampledImageType>($_self).getImageType()`: the
    /// image type of a `!spirv.sampled_image`.
    SampledImageImage,
    /// llvm's `getValAndBoolStructType($_self)`: `!llvm.struct<(T, i1)>`
    /// (`llvm.cmpxchg`'s result).
    ValAndBoolStruct,
}

impl TypeTransformer {
    /// The transformer a C++ expression over `$_self` is, if known.
    pub fn of(cpp: &str) -> Option<TypeTransformer> {
        let mut t: String = cpp.chars().filter(|c| !c.is_whitespace()).collect();
        for prefix in ["::llvm::", "llvm::", "::mlir::", "mlir::"] {
            t = t.replace(prefix, "");
        }
        const SHAPED: &[&str] = &[
            "ShapedType",
            "VectorType",
            "TensorType",
            "RankedTensorType",
            "MemRefType",
            "ComplexType",
        ];
        let element_of = |s: &str| {
            SHAPED
                .iter()
                .any(|c| s == format!("cast<{c}>($_self).getElementType()"))
        };
        Some(match t.as_str() {
            "$_self" | "cast<Type>($_self)" => TypeTransformer::Same,
            "getElementTypeOrSelf($_self)" => TypeTransformer::ElementTypeOrSelf,
            "getI1SameShape($_self)"
            | "::getI1SameShape($_self)"
            | "cast<VectorType>($_self).cloneWith({},IntegerType::get($_ctxt,1))"
            | "cast<ShapedType>($_self).clone(IntegerType::get($_self.getContext(),1))" => {
                TypeTransformer::I1SameShape
            }
            s if element_of(s) => TypeTransformer::ElementType,
            "pdl::RangeType::get($_self)" => TypeTransformer::PdlRangeOf,
            "getGetValueTypeOpValueType($_self)" => TypeTransformer::PdlValueOfSameArity,
            "cast<FunctionType>($_self).getInputs()" => TypeTransformer::FunctionInputs,
            "cast<FunctionType>($_self).getResults()" => TypeTransformer::FunctionResults,
            "getUnaryOpResultType($_self)" => TypeTransformer::I1OfElementCount,
            "cast<PointerType>($_self).getPointeeType()" => TypeTransformer::Pointee,
            "getValAndBoolStructType($_self)" => TypeTransformer::ValAndBoolStruct,
            "cast<spirv::SampledImageType>($_self).getImageType()" => {
                TypeTransformer::SampledImageImage
            }
            "VectorType(VectorType::Builder(cast<VectorType>($_self)).setDim(cast<VectorType>($_self).getRank()-1,16))" => {
                TypeTransformer::LastDimSixteen
            }
            "IntegerType::get($_self.getContext(),(cast<VectorType>($_self).getShape()[0]))" => {
                TypeTransformer::IntegerOfLeadingSize
            }
            "[&]{autovectorType=cast<VectorType>($_self);int64_tsize=vectorType.getDimSize(0);\
             returnVectorType::get({size,size},vectorType.getElementType(),{true,true});}()" => {
                TypeTransformer::ScalableSquare
            }
            s => {
                // `SmallVector<Type, N>(cast<C>($_self).getNumElements(),
                // cast<C>($_self).getElementType())`.
                let inner = s
                    .strip_prefix("SmallVector<Type")?
                    .split_once(">(")?
                    .1
                    .strip_suffix(')')?;
                let (count, elem) = inner.split_once(',')?;
                let ok = SHAPED.iter().any(|c| {
                    count == format!("cast<{c}>($_self).getNumElements()")
                        && elem == format!("cast<{c}>($_self).getElementType()")
                });
                if !ok {
                    return None;
                }
                TypeTransformer::ElementType
            }
        })
    }
}

/// The native traits the format interpreter acts on, found once per op.
#[derive(Clone, Copy, Debug, Default)]
pub struct TraitFlags {
    /// `SameOperandsAndResultType`.
    pub same_operands_and_result_type: bool,
    /// `SameTypeOperands`.
    pub same_type_operands: bool,
    /// `AttrSizedOperandSegments`: the operand group sizes are in
    /// `operandSegmentSizes`.
    pub attr_sized_operand_segments: bool,
    /// `AttrSizedResultSegments`: the result group sizes are in
    /// `resultSegmentSizes`.
    pub attr_sized_result_segments: bool,
    /// `SingleBlock`: each region has one block.
    pub single_block: bool,
}

/// One op's custom syntax.
#[derive(Debug, Deserialize)]
pub struct OpSyntax {
    /// The full op name (`dialect.op`).
    pub name: String,
    /// The declarative `assemblyFormat`, if any.
    pub format: Option<String>,
    /// Whether the op has a hand-written parser and printer instead.
    pub custom: bool,
    /// The operand groups, in ODS order.
    pub operands: Vec<ValueSpec>,
    /// The attributes, in ODS order.
    pub attrs: Vec<AttrSpec>,
    /// The properties that are not attributes, in ODS order.
    pub props: Vec<PropSpec>,
    /// The result groups, in ODS order.
    pub results: Vec<ValueSpec>,
    /// The regions, in ODS order.
    pub regions: Vec<GroupSpec>,
    /// The successors, in ODS order.
    pub successors: Vec<GroupSpec>,
    /// Its traits and interfaces, as the data lists them.
    pub traits: Vec<Trait>,
    #[serde(skip)]
    elements: OnceLock<Result<Vec<Element>, FormatError>>,
    #[serde(skip)]
    flags: OnceLock<TraitFlags>,
}

impl OpSyntax {
    /// The format's element tree, parsed on first use; `None` for an op
    /// without a declarative format.
    pub fn elements(&self) -> Option<&Result<Vec<Element>, FormatError>> {
        let format = self.format.as_deref()?;
        Some(self.elements.get_or_init(|| {
            let names = Names {
                operands: self.operands.iter().map(|v| v.name.as_str()).collect(),
                attrs: self.attrs.iter().map(|v| v.name.as_str()).collect(),
                props: self.props.iter().map(|v| v.name.as_str()).collect(),
                results: self.results.iter().map(|v| v.name.as_str()).collect(),
                regions: self.regions.iter().map(|v| v.name.as_str()).collect(),
                successors: self.successors.iter().map(|v| v.name.as_str()).collect(),
            };
            parse(format, &names)
        }))
    }

    /// Whether the op has the native trait whose C++ name ends in `name`
    /// (`SameOperandsAndResultType`, `AttrSizedOperandSegments`).
    pub fn has_trait(&self, name: &str) -> bool {
        self.traits.iter().any(|t| match t {
            Trait::Native(n) => {
                n.rsplit("::").next() == Some(name)
                    || n.strip_suffix("::Impl").and_then(|n| n.rsplit("::").next()) == Some(name)
            }
            _ => false,
        })
    }

    /// The native traits the format interpreter acts on.
    pub fn flags(&self) -> TraitFlags {
        *self.flags.get_or_init(|| TraitFlags {
            same_operands_and_result_type: self.has_trait("SameOperandsAndResultType"),
            same_type_operands: self.has_trait("SameTypeOperands"),
            attr_sized_operand_segments: self.has_trait("AttrSizedOperandSegments"),
            attr_sized_result_segments: self.has_trait("AttrSizedResultSegments"),
            single_block: self.has_trait("SingleBlock"),
        })
    }

    /// The op `SingleBlockImplicitTerminator<Op>` names, if the op has
    /// that trait.
    pub fn implicit_terminator(&self) -> Option<&str> {
        self.traits.iter().find_map(|t| match t {
            Trait::ImplicitTerminator {
                implicit_terminator,
            } => Some(implicit_terminator.as_str()),
            _ => None,
        })
    }
}

#[derive(Deserialize)]
struct CatalogFile {
    mlir_release: String,
    ops: Vec<OpSyntax>,
}

/// Every op's custom syntax, by name.
pub struct Catalog {
    release: String,
    ops: Vec<OpSyntax>,
    by_name: HashMap<Box<[u8]>, usize>,
}

impl Catalog {
    /// Reads a catalog from the JSON `gen_formats_json.py` writes.
    pub fn from_json(text: &str) -> Result<Catalog, String> {
        let f: CatalogFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let by_name = f
            .ops
            .iter()
            .enumerate()
            .map(|(i, o)| (o.name.as_bytes().into(), i))
            .collect();
        Ok(Catalog {
            release: f.mlir_release,
            ops: f.ops,
            by_name,
        })
    }

    /// MLIR 22's upstream ops (`format/data/op-formats-22.json`).
    pub fn upstream() -> &'static Catalog {
        static CATALOG: OnceLock<Catalog> = OnceLock::new();
        CATALOG.get_or_init(|| {
            Catalog::from_json(include_str!("../../data/op-formats-22.json"))
                .expect("the embedded op formats are valid JSON")
        })
    }

    /// The op named `name`.
    pub fn get(&self, name: &[u8]) -> Option<&OpSyntax> {
        self.by_name.get(name).map(|&i| &self.ops[i])
    }

    /// The MLIR release the data was made from.
    pub fn release(&self) -> &str {
        &self.release
    }

    /// Every op, by name.
    pub fn ops(&self) -> impl Iterator<Item = &OpSyntax> {
        self.ops.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declarative_format_of_the_embedded_data_parses() {
        let c = Catalog::upstream();
        assert_eq!(c.release(), "22.1.8");
        let mut n = 0;
        for op in c.ops() {
            if let Some(r) = op.elements() {
                assert!(r.is_ok(), "{}: {:?}", op.name, r);
                n += 1;
            }
        }
        assert_eq!(n, 2245);
        let addi = c.get(b"arith.addi").unwrap();
        assert!(addi.has_trait("SameOperandsAndResultType"));
        assert_eq!(addi.attrs[0].kind, AttrKind::Def);
        assert_eq!(addi.attrs[0].def.as_deref(), Some("arith.overflow"));
        let cmpi = c.get(b"arith.cmpi").unwrap();
        assert_eq!(cmpi.attrs[0].kind, AttrKind::Enum);
        assert_eq!(cmpi.attrs[0].cases[2], ("slt".to_string(), 2));
        assert!(addi.flags().same_operands_and_result_type);
        let scf_for = c.get(b"scf.for").unwrap();
        assert_eq!(scf_for.implicit_terminator(), Some("scf.yield"));
    }

    #[test]
    fn transformers_are_recognized_in_their_ods_spellings() {
        let cases = [
            ("$_self", Some(TypeTransformer::Same)),
            ("::llvm::cast<Type>($_self)", Some(TypeTransformer::Same)),
            (
                "::llvm::cast<::mlir::ShapedType>($_self).getElementType()",
                Some(TypeTransformer::ElementType),
            ),
            (
                "SmallVector<Type, 2>(::llvm::cast<RankedTensorType>($_self).getNumElements(), ::llvm::cast<RankedTensorType>($_self).getElementType())",
                Some(TypeTransformer::ElementType),
            ),
            (
                "::llvm::cast<mlir::VectorType>($_self).cloneWith({}, IntegerType::get($_ctxt, 1))",
                Some(TypeTransformer::I1SameShape),
            ),
            (
                "getUnaryOpResultType($_self)",
                Some(TypeTransformer::I1OfElementCount),
            ),
            (
                "::llvm::cast<FunctionType>($_self).getInputs()",
                Some(TypeTransformer::FunctionInputs),
            ),
            (
                "llvm::cast<PointerType>($_self).getPointeeType()",
                Some(TypeTransformer::Pointee),
            ),
            (
                "VectorType(VectorType::Builder(::llvm::cast<VectorType>($_self)).setDim(::llvm::cast<VectorType>($_self).getRank() - 1, 16))",
                Some(TypeTransformer::LastDimSixteen),
            ),
            (
                "getValAndBoolStructType($_self)",
                Some(TypeTransformer::ValAndBoolStruct),
            ),
            ("getUnknownTransform($_self)", None),
            (
                "SmallVector<Type, 2>(::llvm::cast<RankedTensorType>($_self).getNumElements(), ::llvm::cast<VectorType>($_self).getElementType())",
                None,
            ),
        ];
        for (cpp, want) in cases {
            assert_eq!(TypeTransformer::of(cpp), want, "{cpp}");
        }
    }
}
