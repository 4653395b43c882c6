//! DynamoDB's `N`: an exact decimal of up to 38 significant digits with a magnitude
//! between 1E-130 and 9.99..E+125, ordered by value. Never an `f64`: `0.1 + 0.2` must
//! be `0.3`, and 38-digit keys must keep every digit.

use std::cmp::Ordering;
use std::fmt;

use thiserror::Error;

/// Most significant digits a DynamoDB number may carry.
pub const MAX_DIGITS: usize = 38;
/// Largest allowed exponent of the leading digit (9.99..E+125).
const MAX_LEADING_EXP: i32 = 125;
/// Smallest allowed exponent of the leading digit (1E-130).
const MIN_LEADING_EXP: i32 = -130;

/// Why a string is not a DynamoDB number; `Display` is DynamoDB's message.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NumberError {
    #[error("The parameter cannot be converted to a numeric value: {0}")]
    NotANumber(String),
    #[error("Attempting to store more than 38 significant digits in a Number")]
    TooManyDigits,
    #[error(
        "Number overflow. Attempting to store a number with magnitude larger than supported range"
    )]
    Overflow,
    #[error("Number underflow. Attempting to store a number with magnitude smaller than supported range")]
    Underflow,
}

/// An exact decimal: `(-1)^negative × mantissa × 10^exponent`, normalised so that the
/// mantissa has no trailing zeros and zero is `0 × 10^0`, never negative. 38 digits fit
/// in a `u128` (10^38 < 2^127), which keeps a number small and its comparisons cheap.
/// The mantissa is stored as two `u64` halves: a `u128` field would force 16-byte
/// alignment on every attribute value and item slot, a third more memory per item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Number {
    negative: bool,
    exponent: i32,
    mantissa_halves: [u64; 2],
}

fn split(m: u128) -> [u64; 2] {
    [(m >> 64) as u64, m as u64]
}

impl Number {
    /// Zero.
    pub const ZERO: Number = Number {
        negative: false,
        exponent: 0,
        mantissa_halves: [0, 0],
    };

    /// Parses DynamoDB's number syntax: optional sign, digits with an optional point,
    /// optional `e`/`E` exponent. Checks digit count and range as DynamoDB does.
    pub fn parse(text: &str) -> Result<Number, NumberError> {
        let not_a_number = || NumberError::NotANumber(text.to_string());
        let bytes = text.trim().as_bytes();
        let mut pos = 0;
        let mut negative = false;
        if let Some(&c) = bytes.first() {
            if c == b'-' || c == b'+' {
                negative = c == b'-';
                pos = 1;
            }
        }
        let mut digits: Vec<u8> = Vec::new();
        let mut frac_len: i64 = 0;
        let mut seen_point = false;
        let mut seen_digit = false;
        while pos < bytes.len() {
            match bytes[pos] {
                c @ b'0'..=b'9' => {
                    seen_digit = true;
                    digits.push(c - b'0');
                    if seen_point {
                        frac_len += 1;
                    }
                }
                b'.' if !seen_point => seen_point = true,
                _ => break,
            }
            pos += 1;
        }
        if !seen_digit {
            return Err(not_a_number());
        }
        let mut exp: i64 = 0;
        if pos < bytes.len() {
            if bytes[pos] != b'e' && bytes[pos] != b'E' {
                return Err(not_a_number());
            }
            pos += 1;
            let mut exp_negative = false;
            if let Some(&c) = bytes.get(pos) {
                if c == b'-' || c == b'+' {
                    exp_negative = c == b'-';
                    pos += 1;
                }
            }
            let start = pos;
            while pos < bytes.len() && bytes[pos].is_ascii_digit() {
                // Saturate: an exponent this large is out of range anyway.
                exp = (exp * 10 + i64::from(bytes[pos] - b'0')).min(1_000_000);
                pos += 1;
            }
            if pos == start || pos != bytes.len() {
                return Err(not_a_number());
            }
            if exp_negative {
                exp = -exp;
            }
        }
        Self::from_digits(negative, &digits, exp - frac_len)
    }

    /// Builds a number from decimal digits (most significant first) and the exponent of
    /// the last digit, checking DynamoDB's limits.
    fn from_digits(negative: bool, digits: &[u8], exponent: i64) -> Result<Number, NumberError> {
        let first = digits.iter().position(|&d| d != 0);
        let Some(first) = first else {
            return Ok(Number::ZERO);
        };
        let last = digits.iter().rposition(|&d| d != 0).unwrap_or(first);
        let significant = &digits[first..=last];
        if significant.len() > MAX_DIGITS {
            return Err(NumberError::TooManyDigits);
        }
        let exponent = exponent + (digits.len() - 1 - last) as i64;
        let leading = exponent + significant.len() as i64 - 1;
        if leading > i64::from(MAX_LEADING_EXP) {
            return Err(NumberError::Overflow);
        }
        if leading < i64::from(MIN_LEADING_EXP) {
            return Err(NumberError::Underflow);
        }
        let mantissa = significant
            .iter()
            .fold(0u128, |m, &d| m * 10 + u128::from(d));
        Ok(Number {
            negative,
            exponent: exponent as i32,
            mantissa_halves: split(mantissa),
        })
    }

    /// A number from an integer (always in range).
    pub fn from_i64(value: i64) -> Number {
        let digits: Vec<u8> = value
            .unsigned_abs()
            .to_string()
            .bytes()
            .map(|b| b - b'0')
            .collect();
        // An i64 has at most 19 digits, well inside every limit.
        Self::from_digits(value < 0, &digits, 0).unwrap_or(Number::ZERO)
    }

    /// The mantissa as one integer.
    fn mantissa(&self) -> u128 {
        (u128::from(self.mantissa_halves[0]) << 64) | u128::from(self.mantissa_halves[1])
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.mantissa() == 0
    }

    /// True below zero.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// Significant digits (1 for zero): what DynamoDB's size formula counts.
    pub fn significant_digits(&self) -> usize {
        if self.is_zero() {
            1
        } else {
            count_digits(self.mantissa())
        }
    }

    /// The mantissa's digits, most significant first.
    fn digit_vec(&self) -> Vec<u8> {
        self.mantissa()
            .to_string()
            .bytes()
            .map(|b| b - b'0')
            .collect()
    }

    /// Exponent of the leading digit (`1234` → 3, `0.05` → -2).
    fn leading_exponent(&self) -> i32 {
        self.exponent + count_digits(self.mantissa()) as i32 - 1
    }

    /// `self + other`, exact, or DynamoDB's error when the result leaves its limits.
    pub fn checked_add(&self, other: &Number) -> Result<Number, NumberError> {
        if self.is_zero() {
            return Ok(*other);
        }
        if other.is_zero() {
            return Ok(*self);
        }
        // Align both mantissas to the smaller exponent as digit vectors (least
        // significant first); their lengths stay bounded by the exponent range.
        let base = self.exponent.min(other.exponent);
        let a = aligned(self, base);
        let b = aligned(other, base);
        let (negative, digits) = if self.negative == other.negative {
            (self.negative, add_digits(&a, &b))
        } else {
            match cmp_digits(&a, &b) {
                Ordering::Equal => return Ok(Number::ZERO),
                Ordering::Greater => (self.negative, sub_digits(&a, &b)),
                Ordering::Less => (other.negative, sub_digits(&b, &a)),
            }
        };
        let most_first: Vec<u8> = digits.into_iter().rev().collect();
        Self::from_digits(negative, &most_first, i64::from(base))
    }

    /// `self - other`.
    pub fn checked_sub(&self, other: &Number) -> Result<Number, NumberError> {
        self.checked_add(&other.negated())
    }

    /// `-self`.
    pub fn negated(&self) -> Number {
        if self.is_zero() {
            *self
        } else {
            Number {
                negative: !self.negative,
                ..*self
            }
        }
    }

    fn cmp_magnitude(&self, other: &Number) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        self.leading_exponent()
            .cmp(&other.leading_exponent())
            .then_with(|| {
                // Same leading exponent: compare the digit strings left-aligned.
                let a = self.digit_vec();
                let b = other.digit_vec();
                a.cmp(&b)
            })
    }
}

fn count_digits(mut m: u128) -> usize {
    let mut n = 1;
    while m >= 10 {
        m /= 10;
        n += 1;
    }
    n
}

/// The mantissa shifted to exponent `base`, least significant digit first.
fn aligned(n: &Number, base: i32) -> Vec<u8> {
    let shift = (n.exponent - base) as usize;
    let mut out = vec![0u8; shift];
    out.extend(n.digit_vec().into_iter().rev());
    out
}

fn add_digits(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let mut carry = 0;
    for i in 0..a.len().max(b.len()) {
        let s = a.get(i).copied().unwrap_or(0) + b.get(i).copied().unwrap_or(0) + carry;
        out.push(s % 10);
        carry = s / 10;
    }
    if carry > 0 {
        out.push(carry);
    }
    out
}

/// `a - b` for `a >= b`.
fn sub_digits(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len());
    let mut borrow = 0i8;
    for (i, &da) in a.iter().enumerate() {
        let mut d = da as i8 - b.get(i).copied().unwrap_or(0) as i8 - borrow;
        borrow = 0;
        if d < 0 {
            d += 10;
            borrow = 1;
        }
        out.push(d as u8);
    }
    out
}

/// Compares least-significant-first digit vectors by value.
fn cmp_digits(a: &[u8], b: &[u8]) -> Ordering {
    let len = a.len().max(b.len());
    for i in (0..len).rev() {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        if x != y {
            return x.cmp(&y);
        }
    }
    Ordering::Equal
}

impl Ord for Number {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_magnitude(other),
            (true, true) => other.cmp_magnitude(self),
        }
    }
}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Plain positional notation without an exponent, as DynamoDB returns numbers
/// (`1e2` → `100`, `0.0100` → `0.01`, `-0` → `0`).
impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative {
            f.write_str("-")?;
        }
        let digits = self.mantissa().to_string();
        if self.exponent >= 0 {
            f.write_str(&digits)?;
            for _ in 0..self.exponent {
                f.write_str("0")?;
            }
            return Ok(());
        }
        let frac = (-self.exponent) as usize;
        if digits.len() > frac {
            let (int, rest) = digits.split_at(digits.len() - frac);
            write!(f, "{int}.{rest}")
        } else {
            f.write_str("0.")?;
            for _ in 0..frac - digits.len() {
                f.write_str("0")?;
            }
            f.write_str(&digits)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Number {
        Number::parse(s).unwrap()
    }

    #[test]
    fn normalises_on_output() {
        for (input, out) in [
            ("1.50", "1.5"),
            ("007", "7"),
            ("-0", "0"),
            ("1e2", "100"),
            ("0.0100", "0.01"),
            ("+3", "3"),
            ("-12.5E-3", "-0.0125"),
            (
                "12345678901234567890123456789012345678",
                "12345678901234567890123456789012345678",
            ),
            (".5", "0.5"),
            ("5.", "5"),
        ] {
            assert_eq!(n(input).to_string(), out, "{input}");
        }
    }

    #[test]
    fn rejects_what_dynamodb_rejects() {
        for (input, err) in [
            ("abc", NumberError::NotANumber("abc".into())),
            ("", NumberError::NotANumber(String::new())),
            ("1e", NumberError::NotANumber("1e".into())),
            ("1.2.3", NumberError::NotANumber("1.2.3".into())),
            ("--1", NumberError::NotANumber("--1".into())),
            (
                "123456789012345678901234567890123456789",
                NumberError::TooManyDigits,
            ),
            ("1E126", NumberError::Overflow),
            ("1E-131", NumberError::Underflow),
        ] {
            assert_eq!(Number::parse(input), Err(err), "{input}");
        }
        assert!(Number::parse("9.9999999999999999999999999999999999999E+125").is_ok());
        assert!(Number::parse("1E-130").is_ok());
        // Trailing zeros are not significant.
        assert!(Number::parse("1234567890123456789012345678901234567800000").is_ok());
    }

    #[test]
    fn orders_by_value() {
        let sorted = [
            "-100", "-10", "-1.5", "-1", "-0.5", "0", "0.5", "1", "1.5", "10", "1E+125",
        ];
        for pair in sorted.windows(2) {
            assert!(n(pair[0]) < n(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        assert_eq!(n("1.0"), n("1"));
        assert_eq!(n("1E1"), n("10"));
        assert_eq!(n("19").cmp(&n("2")), Ordering::Greater);
        assert_eq!(n("0.19").cmp(&n("0.2")), Ordering::Less);
    }

    #[test]
    fn adds_exactly() {
        assert_eq!(n("0.1").checked_add(&n("0.2")).unwrap(), n("0.3"));
        assert_eq!(n("5").checked_sub(&n("7")).unwrap(), n("-2"));
        assert_eq!(n("-5").checked_add(&n("5")).unwrap(), Number::ZERO);
        assert_eq!(n("1E10").checked_sub(&n("1")).unwrap(), n("9999999999"));
        assert_eq!(
            n("1E100").checked_add(&n("1")),
            Err(NumberError::TooManyDigits)
        );
        assert_eq!(
            n("9E+125").checked_add(&n("1E+125")),
            Err(NumberError::Overflow)
        );
    }

    #[test]
    fn counts_significant_digits() {
        assert_eq!(n("12345678901234567891").significant_digits(), 20);
        assert_eq!(n("12345678901234567890").significant_digits(), 19);
        assert_eq!(n("100").significant_digits(), 1);
        assert_eq!(n("0").significant_digits(), 1);
    }
}
