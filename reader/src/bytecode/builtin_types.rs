//! The builtin dialect's type encodings (SPEC.md §6.6.4).

use super::binary_reader::Reader;
use super::BytecodeReader;
use crate::error::Result;
use rmlir_format::bytecode::builtin_codes::ty as code;
use rmlir_format::float::FloatKind;
use rmlir_format::*;

impl<'a> BytecodeReader<'a> {
    pub(super) fn read_builtin_type(&mut self, r: &mut Reader<'a>) -> Result<TypeId> {
        let at = r.offset();
        let c = r.read_varint()?;
        let data = match c {
            code::INTEGER => {
                let at = r.offset();
                let v = r.read_varint()?;
                let width = v >> 2;
                let signedness = match v & 3 {
                    0 => Signedness::Signless,
                    1 => Signedness::Signed,
                    2 => Signedness::Unsigned,
                    _ => return r.err_at(at, "invalid integer type signedness"),
                };
                if width > 16_777_215 {
                    return r.err_at(
                        at,
                        format!("integer type width {width} exceeds the maximum 16777215"),
                    );
                }
                TypeData::Integer {
                    width: width as u32,
                    signedness,
                }
            }
            code::INDEX => TypeData::Index,
            code::FUNCTION => {
                let inputs = self.type_list(r)?;
                let results = self.type_list(r)?;
                TypeData::Function { inputs, results }
            }
            code::BF16 => TypeData::Float(FloatKind::BF16),
            code::F16 => TypeData::Float(FloatKind::F16),
            code::F32 => TypeData::Float(FloatKind::F32),
            code::F64 => TypeData::Float(FloatKind::F64),
            code::F80 => TypeData::Float(FloatKind::F80),
            code::F128 => TypeData::Float(FloatKind::F128),
            code::COMPLEX => TypeData::Complex(self.type_ref(r)?),
            code::MEMREF | code::MEMREF_WITH_MEMORY_SPACE => {
                let memory_space = if c == code::MEMREF_WITH_MEMORY_SPACE {
                    Some(self.attr_ref(r)?)
                } else {
                    None
                };
                let shape = read_shape(r)?;
                let elem = self.type_ref(r)?;
                let layout = self.attr_ref(r)?;
                let layout = match self.module.ctx.attr(layout) {
                    AttrData::AffineMap(m)
                        if m.is_identity() && m.num_dims as usize == shape.len() =>
                    {
                        None
                    }
                    _ => Some(layout),
                };
                TypeData::MemRef {
                    shape,
                    elem,
                    layout,
                    memory_space,
                }
            }
            code::NONE => TypeData::None,
            code::RANKED_TENSOR | code::RANKED_TENSOR_WITH_ENCODING => {
                let encoding = if c == code::RANKED_TENSOR_WITH_ENCODING {
                    Some(self.attr_ref(r)?)
                } else {
                    None
                };
                let shape = read_shape(r)?;
                let elem = self.type_ref(r)?;
                TypeData::RankedTensor {
                    shape,
                    elem,
                    encoding,
                }
            }
            code::TUPLE => TypeData::Tuple(self.type_list(r)?),
            code::UNRANKED_MEMREF | code::UNRANKED_MEMREF_WITH_MEMORY_SPACE => {
                let memory_space = if c == code::UNRANKED_MEMREF_WITH_MEMORY_SPACE {
                    Some(self.attr_ref(r)?)
                } else {
                    None
                };
                let elem = self.type_ref(r)?;
                TypeData::UnrankedMemRef { elem, memory_space }
            }
            code::UNRANKED_TENSOR => TypeData::UnrankedTensor {
                elem: self.type_ref(r)?,
            },
            code::VECTOR | code::VECTOR_WITH_SCALABLE_DIMS => {
                let mut scalable = Vec::new();
                if c == code::VECTOR_WITH_SCALABLE_DIMS {
                    let n = r.read_count(1, "scalable flag")?;
                    for _ in 0..n {
                        scalable.push(r.read_u8()? != 0);
                    }
                }
                let shape_at = r.offset();
                let shape = read_shape(r)?;
                if !scalable.is_empty() && scalable.len() != shape.len() {
                    return r.err_at(shape_at, "vector scalable flags do not match its rank");
                }
                if !scalable.iter().any(|&s| s) {
                    scalable.clear();
                }
                let elem = self.type_ref(r)?;
                TypeData::Vector {
                    shape,
                    scalable,
                    elem,
                }
            }
            code::TF32 => TypeData::Float(FloatKind::TF32),
            code::F8E5M2 => TypeData::Float(FloatKind::F8E5M2),
            code::F8E4M3 => TypeData::Float(FloatKind::F8E4M3),
            code::F8E4M3FN => TypeData::Float(FloatKind::F8E4M3FN),
            code::F8E5M2FNUZ => TypeData::Float(FloatKind::F8E5M2FNUZ),
            code::F8E4M3FNUZ => TypeData::Float(FloatKind::F8E4M3FNUZ),
            code::F8E4M3B11FNUZ => TypeData::Float(FloatKind::F8E4M3B11FNUZ),
            code::F8E3M4 => TypeData::Float(FloatKind::F8E3M4),
            code::F4E2M1FN => TypeData::Float(FloatKind::F4E2M1FN),
            code::F6E2M3FN => TypeData::Float(FloatKind::F6E2M3FN),
            code::F6E3M2FN => TypeData::Float(FloatKind::F6E3M2FN),
            code::F8E8M0FNU => TypeData::Float(FloatKind::F8E8M0FNU),
            other => return r.err_at(at, format!("unknown type code: {other}")),
        };
        Ok(self.module.ctx.intern_type(data))
    }

    fn type_list(&mut self, r: &mut Reader<'a>) -> Result<Vec<TypeId>> {
        let n = r.read_count(1, "type list")?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(self.type_ref(r)?);
        }
        Ok(v)
    }
}

fn read_shape(r: &mut Reader<'_>) -> Result<Vec<i64>> {
    let n = r.read_count(1, "dimension")?;
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.offset();
        let d = r.read_signed_varint()?;
        if d < 0 && d != DYNAMIC {
            return r.err_at(at, format!("invalid dimension size {d}"));
        }
        v.push(d);
    }
    Ok(v)
}
