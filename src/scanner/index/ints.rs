//! Integers as Rust computes them: a primitive's bounds (`u32::MAX`) and what `as`
//! makes of a value (`u32::MAX as i32` is -1: `as` between integers wraps). A
//! request's `Limit` handed through `limit as i32` is the caller's number after that
//! cast, which DynamoDB may reject.

use crate::scanner::index::resolve::int_literal;

/// The width and signedness of a primitive integer type (`isize`/`usize` as 64 bits,
/// what every target the SDK runs on has).
fn int_type(ty: &str) -> Option<(u32, bool)> {
    Some(match ty {
        "u8" => (8, false),
        "u16" => (16, false),
        "u32" => (32, false),
        "u64" | "usize" => (64, false),
        "u128" => (128, false),
        "i8" => (8, true),
        "i16" => (16, true),
        "i32" => (32, true),
        "i64" | "isize" => (64, true),
        "i128" => (128, true),
        _ => return None,
    })
}

/// Whether `ty` is a primitive integer type.
pub fn is_int_type(ty: &str) -> bool {
    int_type(ty).is_some()
}

/// `u32::MAX`, `i64::MIN`, `std::u16::MAX`: the bound's value.
pub fn primitive_bound(path: &str) -> Option<i128> {
    let mut segs = path.rsplit("::").map(str::trim);
    let bound = segs.next()?;
    let ty = segs.next()?;
    // `std::u32::MAX` and `core::u32::MAX`, the older spelling.
    if !segs.all(|s| matches!(s, "std" | "core")) {
        return None;
    }
    let (bits, signed) = int_type(ty)?;
    match (bound, signed) {
        // u128::MAX does not fit an i128: out of what this reads.
        ("MAX", false) if bits < 128 => Some((1i128 << bits) - 1),
        ("MIN", false) => Some(0),
        ("MAX", true) => Some((1i128 << (bits - 1)) - 1),
        ("MIN", true) => Some(-(1i128 << (bits - 1))),
        _ => None,
    }
}

/// An integer as a value's text spells it: `42`, `-1`, `1_000u32`, `0x10`.
pub fn parse_int(text: &str) -> Option<i128> {
    let t = text.trim();
    match t.strip_prefix('-') {
        Some(rest) => int_literal(rest.trim())
            .and_then(|n| i128::try_from(n).ok())
            .map(|n| -n),
        None => int_literal(t).and_then(|n| i128::try_from(n).ok()),
    }
}

/// `value as ty` for an integer `ty`: the value wrapped to the type's width, as Rust's
/// `as` between integers does. `None` for another type.
pub fn cast(value: i128, ty: &str) -> Option<i128> {
    let (bits, signed) = int_type(ty)?;
    if bits == 128 {
        // Every value read here fits an i128; a u128 of a negative one does not.
        return (signed || value >= 0).then_some(value);
    }
    let modulus = 1i128 << bits;
    let low = value.rem_euclid(modulus);
    Some(if signed && low >= modulus / 2 {
        low - modulus
    } else {
        low
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_casts_are_rusts() {
        assert_eq!(primitive_bound("u32::MAX"), Some(4_294_967_295));
        assert_eq!(primitive_bound("std::i32::MIN"), Some(-2_147_483_648));
        assert_eq!(primitive_bound("usize::MAX"), Some(u64::MAX.into()));
        assert_eq!(primitive_bound("Foo::MAX"), None);
        assert_eq!(primitive_bound("config::u32::MAX"), None);
        assert_eq!(cast(4_294_967_295, "i32"), Some(-1));
        assert_eq!(cast(i128::from(u64::MAX), "i32"), Some(-1));
        assert_eq!(cast(300, "u8"), Some(44));
        assert_eq!(cast(-1, "u32"), Some(4_294_967_295));
        assert_eq!(cast(25, "i32"), Some(25));
        assert_eq!(cast(2_147_483_648, "i32"), Some(-2_147_483_648));
        assert_eq!(cast(5, "f64"), None);
        assert_eq!(parse_int("-1"), Some(-1));
        assert_eq!(parse_int("1_000u32"), Some(1000));
        assert_eq!(parse_int("ten"), None);
    }
}
