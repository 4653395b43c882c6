//! Numbers as findings print them: `1,234,567` items, `4.8 MB`, `9.5 RCU`, `20%`.
//! One place, so every rule words its figures alike.

/// An integer with thousands separators: `1234567` → `1,234,567`.
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count estimate, rounded: `0.4` → `0`, `1234.5` → `1,235`.
pub fn count(n: f64) -> String {
    group(n.max(0.0).round() as u64)
}

/// Bytes in DynamoDB's binary units: `512 B`, `73.2 KB`, `4.8 MB`, `1.2 GB`.
pub fn bytes(b: f64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if b < 1024.0 {
        return format!("{} B", b.max(0.0).round() as u64);
    }
    let mut v = b / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{} {}", one_decimal(v), UNITS[unit])
}

/// Capacity units: one decimal below 100 (`0.5`, `9.5`), grouped integers above.
pub fn units(u: f64) -> String {
    if u < 100.0 {
        one_decimal(u)
    } else {
        count(u)
    }
}

/// A share as a percentage: `0.2` → `20%`, `0.004` → `0.4%`, `0.00001` → `<0.1%`.
pub fn percent(share: f64) -> String {
    let p = share * 100.0;
    if p > 0.0 && p < 0.05 {
        return "<0.1%".to_string();
    }
    if p >= 10.0 || p == 0.0 {
        format!("{}%", p.round() as u64)
    } else {
        format!("{}%", one_decimal(p))
    }
}

/// `9.0` → `9`, `9.46` → `9.5`.
fn one_decimal(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as u64)
    } else {
        format!("{r:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_like_prose() {
        let cases: [(String, &str); 13] = [
            (group(0), "0"),
            (group(999), "999"),
            (group(1_000), "1,000"),
            (group(1_234_567), "1,234,567"),
            (count(1234.5), "1,235"),
            (bytes(512.0), "512 B"),
            (bytes(75_000.0), "73.2 KB"),
            (bytes(5_000_000.0), "4.8 MB"),
            (units(9.46), "9.5"),
            (units(244_140.5), "244,141"),
            (percent(0.2), "20%"),
            (percent(0.004), "0.4%"),
            (percent(1.0 / 3e6), "<0.1%"),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
    }
}
