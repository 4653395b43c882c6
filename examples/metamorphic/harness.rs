//! One tree through the harness: its sites, every rewrite and defect at each, each
//! variant analysed and compared with the untouched tree. Shared by the example and
//! the CI-sized test (`tests/metamorphic.rs`).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use rayon::prelude::*;

use crate::compare::{diff, findings, Finding, Normalizer};
use crate::defects::{self, DEFECTS};
use crate::edit;
use crate::project::{Project, Run};
use crate::report::{self, Case};
use crate::rewrites::{Cx, Variant, REWRITES};
use crate::site::{self, Site};
use crate::syntax;

/// What one tree gave.
pub struct Checked {
    pub sites: Vec<Site>,
    /// (rewrite or defect index, why) for every variant that could not apply.
    pub not_applicable: Vec<(usize, String)>,
    /// (rewrite or defect index, the case, or why the harness got it wrong).
    pub cases: Vec<(usize, Result<Case, String>)>,
}

/// One variant to analyse: a rewrite or a defect at a site.
struct Job<'a> {
    site: &'a Site,
    /// Index into `REWRITES`, or into `DEFECTS` offset by `REWRITES.len()`.
    what: usize,
    variant: Variant,
    /// What a defect must add (none for a rewrite).
    expect: Option<defects::Expect>,
    /// The baseline the variant is compared with (an index into the check's
    /// baselines), when not the untouched tree.
    baseline: Option<usize>,
    label: String,
}

/// A baseline analysed: its text (with the map back to the original) and its run.
struct Analysed {
    edited: edit::Edited,
    run: Run,
}

/// Runs the rewrites and defects `selected` keeps (by name) over every site of the tree,
/// at most `cases_per_defect` variations of a defect per site. `names` are the
/// rewrites' then the defects' names.
pub fn check(
    project: &Project,
    selected: &(dyn Fn(&str) -> bool + Sync),
    cases_per_defect: Option<usize>,
    norm: &Normalizer,
    names: &[&str],
) -> Result<Checked, String> {
    let base = project.run(None, None)?;
    let fn_name = regex::Regex::new(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)").expect("a valid pattern");
    let defined: std::collections::HashSet<String> = project
        .files
        .iter()
        .flat_map(|f| {
            fn_name
                .captures_iter(&f.text)
                .map(|c| c[1].to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    let mut sites: Vec<Site> = Vec::new();
    let mut trees = BTreeMap::new();
    for (i, f) in project.files.iter().enumerate() {
        let ops: Vec<&dynalint::scanner::Operation> = base
            .operations
            .iter()
            .filter(|o| o.file == f.path)
            .collect();
        if ops.is_empty() {
            continue;
        }
        let Some(tree) = syntax::parse(&f.text) else {
            continue;
        };
        let parses = syn::parse_file(&f.text).is_ok();
        let path = crate::compare::display(&f.path);
        sites.extend(site::sites_of(
            i,
            &path,
            &f.text,
            &tree,
            &ops,
            &base.model,
            &defined,
        ));
        trees.insert(i, (tree, parses));
    }
    let mut not_applicable = Vec::new();
    let mut jobs: Vec<Job<'_>> = Vec::new();
    // Baselines by (site, key), each analysed once.
    let mut baselines: Vec<(&Site, usize, Arc<Variant>)> = Vec::new();
    let mut baseline_at: HashMap<(usize, String), usize> = HashMap::new();
    for (si, s) in sites.iter().enumerate() {
        let Some((tree, _)) = trees.get(&s.file) else {
            continue;
        };
        let cx = Cx {
            text: &project.files[s.file].text,
            tree,
            site: s,
            n: si,
            has_model: project.has_model(),
        };
        for (ri, r) in REWRITES.iter().enumerate() {
            if !selected(r.name) {
                continue;
            }
            match (r.make)(&cx) {
                Ok(variant) => jobs.push(Job {
                    site: s,
                    what: ri,
                    variant,
                    expect: None,
                    baseline: None,
                    label: String::new(),
                }),
                Err(why) => not_applicable.push((ri, why)),
            }
        }
        for (di, d) in DEFECTS.iter().enumerate() {
            if !selected(d.name) {
                continue;
            }
            let what = REWRITES.len() + di;
            match (d.make)(&cx, &base) {
                Ok(cases) => {
                    for c in cases
                        .into_iter()
                        .take(cases_per_defect.unwrap_or(usize::MAX))
                    {
                        let baseline = c.baseline.map(|b| {
                            *baseline_at.entry((si, b.key)).or_insert_with(|| {
                                baselines.push((s, what, b.variant));
                                baselines.len() - 1
                            })
                        });
                        jobs.push(Job {
                            site: s,
                            what,
                            variant: c.variant,
                            expect: Some(c.expect),
                            baseline,
                            label: c.label,
                        });
                    }
                }
                Err(why) => not_applicable.push((what, why)),
            }
        }
    }
    let analysed: Vec<Result<Analysed, String>> = baselines
        .par_iter()
        .map(|(s, what, v)| analyse(project, &trees, s, names[*what], v))
        .collect();
    let cases = jobs
        .par_iter()
        .map(|j| {
            let baseline = j.baseline.map(|b| &analysed[b]);
            (
                j.what,
                evaluate(project, &base, baseline, &trees, j, norm, names),
            )
        })
        .collect();
    Ok(Checked {
        sites,
        not_applicable,
        cases,
    })
}

/// A variant of the site's file analysed: its text mapped back to the original (the
/// site marked), and its run; or why the harness got it wrong (it does not parse).
fn analyse(
    project: &Project,
    trees: &BTreeMap<usize, (tree_sitter::Tree, bool)>,
    s: &Site,
    name: &str,
    variant: &Variant,
) -> Result<Analysed, String> {
    let file = &project.files[s.file];
    let mut edited = edit::apply(&file.text, &variant.edits)?;
    let site_range = match &s.chain {
        Ok(c) => c.top.start.min(s.op.span.start)..c.top.end.max(s.op.span.end),
        Err(_) => s.op.span.start..s.op.span.end,
    };
    edited.set_site(site_range);
    let original_parses = trees.get(&s.file).is_some_and(|(_, p)| *p);
    if original_parses {
        if let Err(e) = syn::parse_file(&edited.text) {
            let ranges = edited.edited_ranges();
            let from = ranges
                .iter()
                .map(|r| syntax::line_of(&edited.text, r.start))
                .min()
                .unwrap_or(1);
            let to = ranges
                .iter()
                .map(|r| syntax::line_of(&edited.text, r.end))
                .max()
                .unwrap_or(1);
            return Err(format!(
                "{}:{}: the {name} variant does not parse: {e}\n\n```rust\n{}\n```",
                s.path,
                s.line,
                report::excerpt(&edited.text, from.saturating_sub(4), to + 4)
            ));
        }
    }
    let patch = variant.patch.as_deref();
    let run = project.run(Some((s.file, &edited.text)), patch.map(|p| p as _))?;
    Ok(Analysed { edited, run })
}

/// Analyses one variant and compares its findings with the untouched tree's, or with
/// its baseline's.
fn evaluate(
    project: &Project,
    base: &Run,
    baseline: Option<&Result<Analysed, String>>,
    trees: &BTreeMap<usize, (tree_sitter::Tree, bool)>,
    job: &Job<'_>,
    norm: &Normalizer,
    names: &[&str],
) -> Result<Case, String> {
    let s = job.site;
    let file = &project.files[s.file];
    let baseline = match baseline {
        Some(Ok(b)) => Some(b),
        Some(Err(e)) => return Err(format!("its baseline: {e}")),
        None => None,
    };
    let Analysed { edited, run } = analyse(project, trees, s, names[job.what], &job.variant)?;
    let tables: Vec<String> = base
        .model
        .tables
        .iter()
        .chain(&run.model.tables)
        .map(|t| t.name.clone())
        .collect();
    let before: Vec<Finding> = match baseline {
        Some(b) => findings(
            &b.run.diagnostics,
            &file.path,
            &b.edited,
            true,
            norm,
            &tables,
            project,
        ),
        None => findings(
            &base.diagnostics,
            &file.path,
            &edited,
            false,
            norm,
            &tables,
            project,
        ),
    };
    let after: Vec<Finding> = findings(
        &run.diagnostics,
        &file.path,
        &edited,
        true,
        norm,
        &tables,
        project,
    );
    let (lost, gained) = diff(&before, &after);
    Ok(Case {
        what: names[job.what].to_string(),
        label: job.label.clone(),
        path: s.path.clone(),
        line: s.line,
        kind: format!("{:?}", s.op.kind),
        table: s.table.clone(),
        original: baseline.map_or_else(|| file.text.to_string(), |b| b.edited.text.clone()),
        edited: edited.text.clone(),
        original_ranges: baseline
            .map_or_else(|| edited.original_ranges(), |b| b.edited.edited_ranges()),
        edited_ranges: edited.edited_ranges(),
        before,
        after,
        lost,
        gained,
        expect: job.expect.clone(),
        baseline: baseline.is_some(),
    })
}
