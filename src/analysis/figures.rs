//! Numbers as findings print them: `600,000`, `1.2 GB`, `12.5`.

/// `600000.4` → `600,000` (rounded to a whole number, never negative).
pub fn group(x: f64) -> String {
    let n = if x.is_finite() {
        x.round().max(0.0)
    } else {
        0.0
    } as u64;
    group_u64(n)
}

/// `1234567` → `1,234,567`.
pub fn group_u64(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A figure without a needless `.0`, to two decimals at most: `16`, `12.5`, `0.33`.
pub fn figure(x: f64) -> String {
    let r = (x * 100.0).round() / 100.0;
    if r.fract() == 0.0 {
        group(r)
    } else {
        format!("{r}")
    }
}

/// `1_250_000_000` → `1.2 GB` (decimal units, as AWS bills storage).
pub fn bytes(n: u64) -> String {
    let units = [("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)];
    for (name, size) in units {
        if n as f64 >= size {
            return format!("{:.1} {name}", n as f64 / size);
        }
    }
    format!("{n} B")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(group(600_000.0), "600,000");
        assert_eq!(group(f64::NAN), "0");
        assert_eq!(group_u64(999), "999");
        assert_eq!(figure(16.0), "16");
        assert_eq!(figure(12.5), "12.5");
        assert_eq!(figure(1.0 / 3.0), "0.33");
        assert_eq!(bytes(750_000_000), "750.0 MB");
        assert_eq!(bytes(12), "12 B");
    }
}
