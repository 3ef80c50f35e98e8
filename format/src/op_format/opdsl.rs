//! linalg's OpDSL ops as data (SPEC.md §11.2): what each named structured
//! op's region builder computes and which indexing maps mlir-opt's
//! verifier memoizes on it, as `tools/ods-json/gen_linalg_opdsl.py` reads
//! them from the C++ mlir-tblgen generated (`format/data/linalg-opdsl-22.json`).
//!
//! The custom form of these ops leaves their body out: a parser builds it
//! from the operands' element types. Their generic form holds it, and,
//! for ops whose maps are not the identity, `linalg.memoized_indexing_maps`
//! with the strides and dilations folded in.

use crate::fasthash::FastMap as HashMap;
use serde::Deserialize;
use std::sync::OnceLock;

/// A value of a body: a block argument or an earlier statement's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueRef {
    /// The block argument of this index (inputs, then outputs).
    Arg(usize),
    /// The value the body statement of this index makes.
    Value(usize),
}

/// A function of OpDSL: named, or chosen by an attribute of the op.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum FnRef {
    /// `cast_signed`, `add`, `exp`, ...
    Named(String),
    /// The function the op's attribute of this name holds (or its default).
    Attr {
        /// The attribute's name (`cast`).
        attr: String,
    },
}

/// The type a cast converts to.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum TypeRef {
    /// The type of the block argument of this index.
    Arg {
        /// The argument's index.
        arg: usize,
    },
    /// A builtin type, as text (`i32`, `f64`).
    Text(String),
}

/// One statement of a region builder: it makes one value.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Stmt {
    /// `buildTypeFn(f, to, x)`: a cast.
    TypeFn {
        /// `cast_signed` or `cast_unsigned`.
        type_fn: FnRef,
        /// The type cast to.
        to: TypeRef,
        /// The value cast.
        x: ValueRef,
    },
    /// `buildBinaryFn(f, x, y)`.
    Binary {
        /// `add`, `mul`, `max_signed`, ...
        binary: FnRef,
        /// The left operand.
        x: ValueRef,
        /// The right operand.
        y: ValueRef,
    },
    /// `buildUnaryFn(f, x)`.
    Unary {
        /// `exp`, `sqrt`, `reciprocal`, ...
        unary: FnRef,
        /// The operand.
        x: ValueRef,
    },
    /// `buildTernaryFn(f, x, y, z)`.
    Ternary {
        /// `select`.
        ternary: FnRef,
        /// The condition.
        x: ValueRef,
        /// The value if true.
        y: ValueRef,
        /// The value if false.
        z: ValueRef,
    },
    /// `constant(text)`: an `arith.constant` of the attribute `text`.
    Constant {
        /// The typed attribute, as text (`12345 : i64`).
        constant: String,
    },
    /// `index(dim)`: a `linalg.index`.
    Index {
        /// The loop dimension.
        index: i64,
    },
}

/// An index attribute (`strides`, `dilations`).
#[derive(Clone, Debug, Deserialize)]
pub struct IndexAttr {
    /// Its name.
    pub name: String,
    /// The shape of its `tensor<…xi64>`.
    pub shape: Vec<i64>,
    /// The values the op uses when the text gives none.
    pub default: Vec<i64>,
}

/// An attribute choosing a type function (`cast`).
#[derive(Clone, Debug, Deserialize)]
pub struct FnAttr {
    /// Its name.
    pub name: String,
    /// The function used when the text gives none.
    pub default: String,
}

/// The indexing maps an op memoizes.
#[derive(Clone, Debug, Deserialize)]
pub struct Maps {
    /// The number of loops.
    pub dims: usize,
    /// The maps as OpDSL writes them, symbols included.
    pub exprs: Vec<String>,
    /// Per symbol: `None` where it stays a symbol, else the index
    /// attribute and element it is replaced by.
    pub symbols: Vec<Option<(String, usize)>>,
}

/// One OpDSL op.
#[derive(Clone, Debug, Deserialize)]
pub struct OpDslOp {
    /// `linalg.<mnemonic>`.
    pub name: String,
    /// The number of block arguments of its body.
    pub args: usize,
    /// The maps memoized by the verifier; `None` when they follow the
    /// operands' ranks and nothing is memoized.
    pub maps: Option<Maps>,
    /// Its index attributes.
    pub index_attrs: Vec<IndexAttr>,
    /// Its type-function attributes.
    pub fn_attrs: Vec<FnAttr>,
    /// The region builder's statements, in order.
    pub body: Vec<Stmt>,
    /// The values the body yields.
    pub yields: Vec<ValueRef>,
    /// For the contractions of ODS (`linalg.matmul`), the `indexing_maps`
    /// property their parser sets when the text gives none, as text.
    pub default_maps: Option<String>,
}

#[derive(Deserialize)]
struct Doc {
    ops: Vec<OpDslOp>,
}

/// The OpDSL op named `name` (`linalg.conv_2d_nhwc_hwcf`), if it is one.
pub fn op(name: &str) -> Option<&'static OpDslOp> {
    static OPS: OnceLock<HashMap<String, OpDslOp>> = OnceLock::new();
    OPS.get_or_init(|| {
        let doc: Doc = serde_json::from_str(include_str!("../../data/linalg-opdsl-22.json"))
            .expect("the embedded linalg-opdsl-22.json is valid");
        doc.ops.into_iter().map(|o| (o.name.clone(), o)).collect()
    })
    .get(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_reads_and_binds_the_convolutions_symbols() {
        let conv = op("linalg.conv_2d_nhwc_hwcf").expect("an OpDSL op");
        assert_eq!(conv.args, 3);
        let maps = conv.maps.as_ref().expect("memoized maps");
        assert_eq!(maps.dims, 7);
        assert_eq!(maps.symbols[2], Some(("strides".to_string(), 0)));
        assert_eq!(maps.symbols[0], None);
        assert_eq!(conv.index_attrs[0].default, vec![1, 1]);
        assert!(matches!(conv.body[2], Stmt::Binary { .. }));
        let copy = op("linalg.copy").expect("an OpDSL op");
        assert!(copy.maps.is_none());
        assert!(matches!(
            &copy.body[0],
            Stmt::TypeFn { type_fn: FnRef::Attr { attr }, .. } if attr == "cast"
        ));
        assert!(op("linalg.generic").is_none());
    }
}
