//! The bundled corpus sample (`tests/corpus-sample/`, SPEC.md §1.2): it is
//! whole (each case of `selection.tsv` has its folder and manifest row, and
//! nothing else is there), it covers every feature tag of the manifest it
//! was chosen from, and, when the full corpus is there too, each of its
//! files is the full corpus's file.

use rmlir_tests::{corpus_dir, is_sample, sample_dir};
use std::collections::BTreeSet;
use std::path::Path;

fn manifest_rows(corpus: &Path) -> Vec<Vec<String>> {
    let path = corpus.join("manifest.tsv");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

fn tags(rows: &[Vec<String>]) -> BTreeSet<String> {
    rows.iter()
        .flat_map(|r| r[3].split(',').map(str::to_string).collect::<Vec<_>>())
        .collect()
}

#[test]
fn bundled_sample_is_whole_and_covers_every_feature_tag() {
    let sample = sample_dir().join("corpus");
    let selection = std::fs::read_to_string(sample.join("selection.tsv")).expect("selection.tsv");
    let chosen: BTreeSet<String> = selection
        .lines()
        .skip(1)
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    let folders: BTreeSet<String> = std::fs::read_dir(sample.join("cases"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let rows = manifest_rows(&sample);
    let listed: BTreeSet<String> = rows.iter().map(|r| r[0].clone()).collect();
    assert_eq!(chosen, folders, "selection.tsv and cases/ disagree");
    assert_eq!(chosen, listed, "selection.tsv and manifest.tsv disagree");
    assert!(chosen.len() >= 200, "only {} cases", chosen.len());
    let sample_tags = tags(&rows);
    // The tags the full corpus has, when it is here; else those its
    // summary.md counts (copied into the sample).
    let full_rows = (!is_sample()).then(|| manifest_rows(&corpus_dir()));
    if let Some(full_rows) = &full_rows {
        let missing: Vec<_> = tags(full_rows).difference(&sample_tags).cloned().collect();
        assert!(
            missing.is_empty(),
            "feature tags not in the sample: {missing:?}"
        );
        let full = corpus_dir().join("cases");
        for id in &chosen {
            for f in std::fs::read_dir(sample.join("cases").join(id)).unwrap() {
                let f = f.unwrap().path();
                let theirs = full.join(id).join(f.file_name().unwrap());
                assert!(
                    std::fs::read(&f).ok() == std::fs::read(&theirs).ok(),
                    "{} differs from {}: regenerate the sample (tests/corpus-sample/README.md)",
                    f.display(),
                    theirs.display()
                );
            }
        }
        println!(
            "sample: {} cases, {} feature tags, all of the full corpus's; files equal the full corpus's",
            chosen.len(),
            sample_tags.len()
        );
    } else {
        let summary = std::fs::read_to_string(sample.join("summary.md")).expect("summary.md");
        let missing: Vec<_> = summary
            .lines()
            .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
            .filter(|t| !t.contains(' ') && !sample_tags.contains(*t))
            .collect();
        assert!(
            missing.is_empty(),
            "summary.md's tags not in the sample: {missing:?}"
        );
        println!(
            "sample: {} cases, {} feature tags",
            chosen.len(),
            sample_tags.len()
        );
    }
}
