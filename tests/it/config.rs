//! `bank config`: a partial file laid over the embedded default, checked and printed.

use crate::common::{bank, stderr, stdout};

#[test]
fn config_print_shows_the_partial_file_laid_over_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let quotas = dir.path().join("quotas.toml");
    std::fs::write(
        &quotas,
        "[quota.9]\nhard = 12\n\n[alarm]\nthreshold = 0.4\n",
    )
    .unwrap();
    let q = quotas.to_str().unwrap();

    let out = bank(&["config", "--config", q, "--print"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("is valid"), "{}", stderr(&out));
    let printed: toml::Table = stdout(&out).parse().expect("--print writes TOML");
    assert_eq!(printed["alarm"]["threshold"].as_float(), Some(0.4));
    assert_eq!(
        printed["alarm"]["window"].as_integer(),
        Some(100),
        "default kept"
    );
    assert_eq!(printed["generation"]["deadline_ms"].as_integer(), Some(200));
    let quota = printed["quota"].as_table().unwrap();
    assert_eq!(
        quota.keys().collect::<Vec<_>>(),
        ["9"],
        "a quota table replaces whole"
    );
    assert_eq!(quota["9"]["hard"].as_integer(), Some(12));
    // The general four and 16x16's own four.
    assert_eq!(printed["tier"].as_array().unwrap().len(), 8);

    // The printed file is complete: read back, it prints itself.
    let full = dir.path().join("full.toml");
    std::fs::write(&full, stdout(&out)).unwrap();
    let again = bank(
        &["config", "--config", full.to_str().unwrap(), "--print"],
        None,
    );
    assert_eq!(stdout(&again), stdout(&out));

    let embedded = bank(&["config", "--print"], None);
    assert!(embedded.status.success());
    assert!(
        stderr(&embedded).contains("embedded"),
        "{}",
        stderr(&embedded)
    );
    assert!(stdout(&embedded).contains("[quota.16]"));
}

#[test]
fn a_bad_partial_config_names_the_value_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    for (text, named) in [
        ("[alarm]\nthreshold = 1.5\n", "alarm.threshold"),
        ("[alarm]\nthreshhold = 0.4\n", "threshhold"),
        ("[quota.9]\nmaster = 5\n", "master"),
        ("[generation\n", "generation"),
    ] {
        let path = dir.path().join("c.toml");
        std::fs::write(&path, text).unwrap();
        let out = bank(&["config", "--config", path.to_str().unwrap()], None);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = stderr(&out);
        assert!(
            err.contains(named) && err.contains("c.toml"),
            "{text}: {err}"
        );
        assert!(stdout(&out).is_empty());
    }
}
