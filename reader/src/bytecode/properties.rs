//! The properties table (SPEC.md §6.9) and the decoding of one op's
//! properties payload: an attribute reference for unregistered ops, the
//! op's positional layout (from the op registry) for registered ones.

use super::binary_reader::Reader;
use super::BytecodeReader;
use crate::error::Result;
use rmlir_format::op_registry::{FieldKind, OpInfo};
use rmlir_format::*;

/// The properties section's entries (SPEC.md §6.9): where each one's
/// length prefix is, as a 32-bit offset (a 64-bit one in a section over
/// 4 GiB). A large module has hundreds of thousands; a slice per entry
/// took four times the memory, all of it touched by `info`.
#[derive(Clone)]
pub struct PropertiesTable<'a> {
    data: &'a [u8],
    starts: Starts,
}

#[derive(Clone)]
enum Starts {
    Small(Vec<u32>),
    Large(Vec<u64>),
}

impl<'a> PropertiesTable<'a> {
    pub fn empty() -> Self {
        PropertiesTable {
            data: &[],
            starts: Starts::Small(Vec::new()),
        }
    }

    pub fn read(mut r: Reader<'a>) -> Result<Self> {
        let data = r.all_bytes();
        if r.is_empty() {
            return Ok(Self::empty());
        }
        let n = r.read_count(1, "properties entry")?;
        let starts = if u32::try_from(data.len()).is_ok() {
            Starts::Small(entry_starts(&mut r, n, |at| at as u32)?)
        } else {
            Starts::Large(entry_starts(&mut r, n, |at| at as u64)?)
        };
        if !r.is_empty() {
            return r.err("Broken properties section: didn't exhaust the offsets table");
        }
        Ok(PropertiesTable { data, starts })
    }

    /// Entry `i`'s payload.
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        let start = match &self.starts {
            Starts::Small(v) => *v.get(i)? as usize,
            Starts::Large(v) => *v.get(i)? as usize,
        };
        let rest = &self.data[start..];
        let (len, n) = rmlir_format::bytecode::varint::read_varint(rest)
            .expect("entries were checked when the table was read");
        Some(&rest[n..n + len as usize])
    }
}

/// Where each of the `n` entries from `r`'s position starts. Nearly every
/// payload is under 128 bytes, its length a one-byte varint (low bit set,
/// the length in the other seven): runs of those are stepped over in a
/// tight loop, and an entry with a longer length, or one that does not
/// fit, is read by `r` as any other (with its errors). `info` of the
/// 200 MB benchmark module walks 143,821 (SPEC.md §6.9).
fn entry_starts<T>(r: &mut Reader<'_>, n: usize, start: impl Fn(usize) -> T) -> Result<Vec<T>> {
    let data = r.all_bytes();
    let mut starts = Vec::with_capacity(n);
    // `info` of the 200 MB benchmark module: 575 KB of starts, ~140 page
    // faults this thread need not take (SPEC.md §6.7.5).
    crate::prefault::populate_vectors_in_background(vec![crate::prefault::spare(&starts)]);
    while starts.len() < n {
        let mut pos = r.position();
        while starts.len() < n {
            let Some(&len) = data.get(pos) else { break };
            let end = pos + 1 + usize::from(len >> 1);
            if len & 1 == 0 || end > data.len() {
                break;
            }
            starts.push(start(pos));
            pos = end;
        }
        r.skip((pos - r.position()) as u64)?;
        if starts.len() < n {
            let at = r.position();
            r.read_blob()?;
            starts.push(start(at));
        }
    }
    Ok(starts)
}

impl<'a> PropertiesTable<'a> {
    /// Entry `idx`, referred to at `at` by an op named `name`.
    pub(super) fn payload(
        &self,
        idx: u64,
        name: &[u8],
        r: &Reader<'a>,
        at: usize,
    ) -> Result<&'a [u8]> {
        match self.get(idx as usize) {
            Some(payload) => Ok(payload),
            None => r.err_at(
                at,
                format!(
                    "Properties idx out-of-bound for {}",
                    String::from_utf8_lossy(name)
                ),
            ),
        }
    }
}

impl<'a> BytecodeReader<'a> {
    /// Decodes properties entry `idx` for an op named `name`; returns the
    /// properties attribute (`None` when it has no entries to print).
    pub(super) fn decode_properties(
        &mut self,
        idx: u64,
        name: &[u8],
        info: Option<&'a OpInfo>,
        r: &Reader<'a>,
        at: usize,
    ) -> Result<Option<AttrId>> {
        let payload = self.properties.payload(idx, name, r, at)?;
        // Offsets inside the payload are not tracked; errors point at the op.
        let mut p = Reader::new(payload, at, "Properties").limited(self.limits.max_count);
        let Some(info) = info else {
            let a = self.attr_ref(&mut p)?;
            if !p.is_empty() {
                return p.err("unexpected trailing bytes after the properties attribute of an unregistered op");
            }
            return Ok(Some(a));
        };
        let mut dict = match self.read_payload(&mut p, name, info) {
            Ok(d) => d,
            Err(e) => {
                let fits = self.releases_that_fit(payload, name, at);
                return Err(self.with_layout_hint(e, name, &fits));
            }
        };
        if dict.is_empty() {
            return Ok(None);
        }
        dict.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(Some(
            self.module.ctx.intern_attr(AttrData::Dictionary(dict)),
        ))
    }

    fn read_payload(
        &mut self,
        p: &mut Reader<'a>,
        name: &[u8],
        info: &OpInfo,
    ) -> Result<Vec<(Bytes, AttrId)>> {
        let fields = if self.version >= rmlir_format::bytecode::VERSION_NATIVE_SEGMENT_SIZES {
            &info.fields_v6
        } else {
            &info.fields_v5
        };
        let mut dict: Vec<(Bytes, AttrId)> = Vec::new();
        for f in fields {
            if let Some(a) = self.read_field(p, &f.kind)? {
                dict.push((f.name.as_bytes().into(), a));
            }
        }
        if !p.is_empty() {
            return p.err(format!(
                "unexpected trailing bytes in the properties of '{}'",
                String::from_utf8_lossy(name)
            ));
        }
        Ok(dict)
    }

    /// The known releases (other than the layouts used) whose layout of op
    /// `name` decodes `payload` whole: tried only once a payload failed.
    fn releases_that_fit(
        &mut self,
        payload: &'a [u8],
        name: &[u8],
        at: usize,
    ) -> Vec<&'static str> {
        let mut fits = Vec::new();
        for &release in rmlir_format::op_registry::OpRegistry::known_releases() {
            let Some(other) = rmlir_format::op_registry::OpRegistry::for_release(release) else {
                continue;
            };
            if std::ptr::eq(other, self.layouts) {
                continue;
            }
            let Some(info) = other.get(name) else {
                continue;
            };
            let mut p = Reader::new(payload, at, "Properties").limited(self.limits.max_count);
            if self.read_payload(&mut p, name, info).is_ok() {
                fits.push(release);
            }
        }
        fits
    }

    /// A payload that does not fit its layout usually means the file was
    /// written by another MLIR release than the layouts are from (payloads
    /// are positional and unversioned): say which layouts were used and
    /// why, and which other releases' layouts decode it (`fits`).
    fn with_layout_hint(&self, e: crate::Error, name: &[u8], fits: &[&str]) -> crate::Error {
        // Only errors of the payload itself (not of an attribute it refers to).
        if !matches!(
            e.position(),
            crate::Position::Bytecode {
                section: "Properties",
                ..
            }
        ) {
            return e;
        }
        let why = match self.layouts_choice {
            super::LayoutsChoice::Producer => "named by the producer string",
            super::LayoutsChoice::Given => "given by the caller",
            super::LayoutsChoice::Default
                if rmlir_format::op_registry::producer_major(self.producer).is_some() =>
            {
                "the default: the producer's release has no layouts of its own here"
            }
            super::LayoutsChoice::Default => {
                "the default: the producer string names no MLIR release"
            }
        };
        let advice = match fits {
            [] => "no other release's layouts we know decode this payload either".to_string(),
            _ => format!(
                "the layouts of {} decode it: read the file with {}",
                fits.iter()
                    .map(|r| format!("MLIR {r}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                fits.iter()
                    .map(|r| format!("`--layouts mlir-{}`", r.split('.').next().unwrap_or(r)))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        };
        crate::Error::new(
            e.kind(),
            format!(
                "{}; the properties of '{}' were decoded with the op layouts of MLIR {} ({why}; producer '{}'; known releases: {}), and a file written by another release has other layouts; {advice}",
                e.message(),
                String::from_utf8_lossy(name),
                self.layouts.release(),
                String::from_utf8_lossy(self.producer),
                rmlir_format::op_registry::OpRegistry::known_releases().join(", ")
            ),
            e.position().clone(),
        )
    }

    fn read_field(&mut self, p: &mut Reader<'a>, kind: &FieldKind) -> Result<Option<AttrId>> {
        Ok(match kind {
            FieldKind::Attr | FieldKind::LegacySegments => Some(self.attr_ref(p)?),
            FieldKind::OptAttr => {
                let at = p.offset();
                let (idx, present) = p.read_varint_flag()?;
                if present {
                    Some(self.attr_at(idx, p, at)?)
                } else {
                    None
                }
            }
            FieldKind::SparseSegments { size } => {
                let values = read_sparse_array(p, *size)?;
                let i32t = self.module.ctx.intern_type(TypeData::signless(32));
                let data: Vec<u8> = values
                    .iter()
                    .flat_map(|v| (*v as i32).to_le_bytes())
                    .collect();
                Some(self.module.ctx.intern_attr(AttrData::DenseArray {
                    elem: i32t,
                    data: data.into(),
                }))
            }
            FieldKind::Unit | FieldKind::Bool => {
                let set = p.read_u8()? != 0;
                // mlir-opt shows a set unit property as a unit attribute and
                // an unset one as `false`.
                match kind {
                    FieldKind::Unit if set => Some(self.module.ctx.intern_attr(AttrData::Unit)),
                    _ => Some(self.int_attr(1, set as u64)),
                }
            }
            FieldKind::Int { bits, .. } => {
                let v = p.read_varint()?;
                Some(self.int_attr(*bits, v))
            }
            FieldKind::Enum { bits } => {
                let v = p.read_varint()?;
                Some(self.int_attr(*bits, v))
            }
            FieldKind::String => {
                let s = self.string_ref(p)?;
                Some(self.module.ctx.intern_attr(AttrData::String {
                    value: s.into(),
                    ty: None,
                }))
            }
            FieldKind::Optional(inner) => {
                // Shown as an array of zero or one element.
                let v = if p.read_u8()? != 0 {
                    self.read_field(p, inner)?.into_iter().collect()
                } else {
                    Vec::new()
                };
                Some(self.module.ctx.intern_attr(AttrData::Array(v)))
            }
            FieldKind::Array(inner) => {
                let n = p.read_count(1, "property array element")?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    match self.read_field(p, inner)? {
                        Some(a) => v.push(a),
                        None => return p.err("absent element in a property array"),
                    }
                }
                Some(self.module.ctx.intern_attr(AttrData::Array(v)))
            }
        })
    }

    /// The attribute a non-attribute property shows when its storage is
    /// value-initialised (files before v5 cannot hold such properties).
    pub(super) fn default_property(&mut self, kind: &FieldKind) -> Option<AttrId> {
        Some(match kind {
            FieldKind::Attr
            | FieldKind::OptAttr
            | FieldKind::LegacySegments
            | FieldKind::SparseSegments { .. } => return None,
            FieldKind::Unit | FieldKind::Bool => self.int_attr(1, 0),
            FieldKind::Int { bits, .. } => self.int_attr(*bits, 0),
            FieldKind::Enum { bits } => self.int_attr(*bits, 0),
            FieldKind::String => self.module.ctx.intern_attr(AttrData::String {
                value: Box::new([]),
                ty: None,
            }),
            FieldKind::Array(_) | FieldKind::Optional(_) => {
                self.module.ctx.intern_attr(AttrData::Array(Vec::new()))
            }
        })
    }

    /// An integer property shown as MLIR's `getPropertiesAsAttr` shows it:
    /// a signless integer attribute of the property's width.
    fn int_attr(&mut self, bits: u32, raw: u64) -> AttrId {
        let ty = self.module.ctx.intern_type(TypeData::signless(bits));
        let mask = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let value =
            super::builtin_attrs::normalize_bits((raw & mask).into(), bits, Signedness::Signless);
        self.module.ctx.intern_attr(AttrData::Integer { ty, value })
    }
}

/// `readSparseArray` (SPEC.md §6.9.2): dense (`vflag(n,0)` + n values) or
/// sparse (`vflag(z,1)`, index bit width, z packed `(value << b) | index`).
pub fn read_sparse_array(p: &mut Reader<'_>, storage: usize) -> Result<Vec<u64>> {
    let at = p.offset();
    let (n, sparse) = p.read_varint_flag()?;
    let mut out = vec![0u64; storage];
    if !sparse {
        if n as usize != storage {
            return p.err_at(
                at,
                format!("size mismatch for segment sizes: expected {storage} but got {n}"),
            );
        }
        for slot in out.iter_mut() {
            *slot = p.read_varint()?;
        }
        return Ok(out);
    }
    if n == 0 {
        return Ok(out);
    }
    let z = p.check_count(n, 1, "sparse array entry", at)?;
    let bits_at = p.offset();
    let bits = p.read_varint()?;
    if bits > 8 {
        return p.err_at(
            bits_at,
            format!("reading sparse array with indexing above 8 bits: {bits}"),
        );
    }
    for _ in 0..z {
        let at = p.offset();
        let v = p.read_varint()?;
        let index = (v & ((1 << bits) - 1)) as usize;
        if index >= storage {
            return p.err_at(at, format!("reading a sparse array found index {index} but only {storage} storage available."));
        }
        out[index] = v >> bits;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmlir_format::bytecode::varint::write_varint;

    /// Entry starts as read one `read_blob` at a time.
    fn starts_one_by_one(section: &[u8]) -> Result<Vec<u32>> {
        let mut r = Reader::new(section, 100, "Properties");
        let n = r.read_count(1, "properties entry")?;
        let mut starts = Vec::new();
        for _ in 0..n {
            let at = r.position();
            r.read_blob()?;
            starts.push(at as u32);
        }
        Ok(starts)
    }

    fn starts_of(section: &[u8]) -> Result<Vec<u32>> {
        let mut r = Reader::new(section, 100, "Properties");
        let n = r.read_count(1, "properties entry")?;
        entry_starts(&mut r, n, |at| at as u32)
    }

    /// Runs of one-byte lengths, longer lengths (two- and three-byte
    /// varints), a count larger than the entries, and a last entry cut
    /// short: the same starts, or the same error at the same offset, as
    /// reading entry by entry.
    #[test]
    fn entry_starts_match_reading_one_by_one() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut long_seen = 0;
        for case in 0..2000 {
            let n = (next() % 40) as usize;
            let mut body = Vec::new();
            for _ in 0..n {
                let len = match next() % 8 {
                    0 => 128 + next() % 300,
                    1 => 127,
                    2 => 0,
                    _ => next() % 40,
                };
                long_seen += usize::from(len >= 128);
                write_varint(&mut body, len);
                body.extend((0..len).map(|i| i as u8));
            }
            let mut section = Vec::new();
            let count = n as u64 + u64::from(case % 7 == 0);
            write_varint(&mut section, count);
            section.extend_from_slice(&body);
            if case % 5 == 0 && !section.is_empty() {
                section.truncate(section.len() - 1 - (next() as usize % section.len()));
            }
            let want = starts_one_by_one(&section);
            let got = starts_of(&section);
            match (&want, &got) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "case {case}"),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "case {case}"),
                _ => panic!("case {case}: {want:?} against {got:?}"),
            }
        }
        assert!(long_seen > 100);
    }
}
