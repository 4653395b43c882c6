//! What the benchmarks share.

/// Peak resident set size of this process, in kB (Linux `VmHWM`); `None` elsewhere.
pub fn peak_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
