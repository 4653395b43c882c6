//! Text edits at byte ranges, and the map from an edited file's offsets back to the
//! original's: a position inside inserted or replaced text is the site itself.

use std::ops::Range;

/// Replace `at` (empty: insert) with `text`.
#[derive(Clone, Debug)]
pub struct Edit {
    pub at: Range<usize>,
    pub text: String,
}

impl Edit {
    pub fn replace(at: Range<usize>, text: impl Into<String>) -> Self {
        Self {
            at,
            text: text.into(),
        }
    }

    pub fn insert(at: usize, text: impl Into<String>) -> Self {
        Self {
            at: at..at,
            text: text.into(),
        }
    }
}

/// Where a position of either text is, in the original's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Anchor {
    /// Inside something the variant replaced or inserted: the site.
    Site,
    /// An original byte offset, untouched by the variant.
    At(usize),
}

/// Edits applied to a text, and how to map offsets back.
pub struct Edited {
    pub text: String,
    /// (original range, edited range) of each edit, in order.
    spans: Vec<(Range<usize>, Range<usize>)>,
    /// The call site itself, in the original and in the edited text: a finding in it
    /// is the site's, wherever in the call it points.
    site: Option<(Range<usize>, Range<usize>)>,
}

/// Applies `edits` (any order; they must not overlap) to `text`.
pub fn apply(text: &str, edits: &[Edit]) -> Result<Edited, String> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.at.start, e.at.end));
    let mut out = String::with_capacity(text.len() + 256);
    let mut spans = Vec::new();
    let mut at = 0;
    for e in sorted {
        if e.at.start < at || e.at.end > text.len() || e.at.start > e.at.end {
            return Err(format!("overlapping or out-of-range edit at {:?}", e.at));
        }
        out.push_str(&text[at..e.at.start]);
        let start = out.len();
        out.push_str(&e.text);
        spans.push((e.at.clone(), start..out.len()));
        at = e.at.end;
    }
    out.push_str(&text[at..]);
    Ok(Edited {
        text: out,
        spans,
        site: None,
    })
}

impl Edited {
    /// Marks the original range of the call site: findings in it (before) or in what
    /// it became (after) are the site's.
    pub fn set_site(&mut self, orig: Range<usize>) {
        let new = self.forward(orig.start)..self.forward(orig.end);
        self.site = Some((orig, new));
    }

    /// An original offset in the edited text (inside an edit: where the edit starts).
    fn forward(&self, offset: usize) -> usize {
        let mut delta: isize = 0;
        for (orig, new) in &self.spans {
            if offset < orig.start {
                break;
            }
            if offset < orig.end {
                return new.start;
            }
            delta = new.end as isize - orig.end as isize;
        }
        (offset as isize + delta) as usize
    }

    /// An offset of the edited text, in the original's terms.
    pub fn back(&self, offset: usize) -> Anchor {
        if self
            .site
            .as_ref()
            .is_some_and(|(_, new)| new.start <= offset && offset < new.end)
        {
            return Anchor::Site;
        }
        let mut delta: isize = 0;
        for (orig, new) in &self.spans {
            if offset < new.start {
                break;
            }
            if offset < new.end {
                return Anchor::Site;
            }
            delta = orig.end as isize - new.end as isize;
        }
        Anchor::At((offset as isize + delta) as usize)
    }

    /// An offset of the original text: the site when the variant replaced it.
    pub fn orig(&self, offset: usize) -> Anchor {
        if self
            .site
            .as_ref()
            .is_some_and(|(orig, _)| orig.start <= offset && offset < orig.end)
        {
            return Anchor::Site;
        }
        if self
            .spans
            .iter()
            .any(|(orig, _)| orig.start <= offset && offset < orig.end)
        {
            Anchor::Site
        } else {
            Anchor::At(offset)
        }
    }

    /// The original ranges the edits touch, for listings.
    pub fn original_ranges(&self) -> Vec<Range<usize>> {
        self.spans.iter().map(|(o, _)| o.clone()).collect()
    }

    /// The edited ranges, for listings.
    pub fn edited_ranges(&self) -> Vec<Range<usize>> {
        self.spans.iter().map(|(_, n)| n.clone()).collect()
    }
}
